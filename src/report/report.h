/* report.h: turning frozen results into the files of SPEC 5 and the text summary.
 * report-text.c (stdout summary), report-csv.c (jobs/pools/gpus/tenants/timeseries/services/
 * latency/events CSVs), report-json.c (summary.json). All output is deterministic: fixed column order,
 * fixed number formatting ("%.6g"-style via one helper), no wall-clock values except in
 * the text summary's last line and summary.json's "engine" object, which hold run
 * statistics (events, wall seconds) that bench/run reads. */
#pragma once
#include <glib.h>
#include <stdio.h>
#include "results.h"

/* Text summary for stdout (what `sharesim run` prints). */
void report_text(const results *r, GString *out);

/* summary.json: scenario, seed, span, totals, per-pool, per-tenant, engine stats. Owned. */
char *report_json(const results *r, gboolean include_engine_stats);

/* A file of a result folder written in chunks (report-out.c): rows are appended to buf and
 * report_out_row writes buf out once it holds REPORT_OUT_CHUNK bytes, so that a file of any
 * length holds one chunk in memory. With f NULL (a whole file into a GString) nothing is
 * written and buf keeps every row. */
#define REPORT_OUT_CHUNK (256 * 1024)
typedef struct report_out {
  GString *buf;
  FILE *f;           /* NULL: rows stay in buf */
  char *path;        /* DIR/NAME as the user named DIR, for messages */
  int error_errno;   /* the first write error, 0 if none */
} report_out;
struct outdir;
/* NAME in the folder's temporary, for writing; NULL with error when it cannot be made. */
report_out *report_out_open(struct outdir *o, const char *name, GError **error);
void report_out_flush(report_out *ro);
static inline void report_out_row(report_out *ro) {
  if (ro->f && ro->buf->len >= REPORT_OUT_CHUNK) report_out_flush(ro);
}
/* Writes what is left, closes the file and frees ro; FALSE with error when any write failed. */
gboolean report_out_close(report_out *ro, GError **error);
/* Closes and frees ro without checking (the caller aborts the folder). */
void report_out_free(report_out *ro);

/* CSV files: each _to writer writes the header and rows through a report_out (a result
 * folder's file, in chunks); report_csv_string runs one into a GString instead. */
typedef void (*report_csv_writer)(const results *r, report_out *ro);
void report_csv_string(report_csv_writer write, const results *r, GString *out);
void report_csv_jobs_to(const results *r, report_out *ro);
void report_csv_pools_to(const results *r, report_out *ro);
void report_csv_gpus_to(const results *r, report_out *ro);
void report_csv_tenants_to(const results *r, report_out *ro);
void report_csv_timeseries_to(const results *r, report_out *ro);
void report_csv_fragmentation_to(const results *r, report_out *ro);
/* timeseries.csv and fragmentation.csv in parts, for the streamed series (report-series.c):
 * the header row, then one interval's row. */
void report_csv_timeseries_header(const results *r, GString *out);
void report_csv_timeseries_row(const results *r, const ts_row *t, GString *out);
void report_csv_fragmentation_header(GString *out);
void report_csv_fragmentation_row(const results *r, const ts_row *t, GString *out);
/* services.csv, latency.csv, llm.csv and llm-latency.csv in parts, for the streamed
 * services (report-services.c): a header row, then one service's row or rows (latency:
 * none when it served nothing; llm: only for LLM services). */
void report_csv_services_header(GString *out);
void report_csv_service_row(const service_result *s, GString *out);
void report_csv_latency_header(GString *out);
void report_csv_latency_rows(const service_result *s, report_out *ro);
void report_csv_llm_header(GString *out);
void report_csv_llm_row(const service_result *s, GString *out);
void report_csv_llm_latency_header(GString *out);
void report_csv_llm_latency_rows(const service_result *s, report_out *ro);
/* tenant_timeseries.csv: tenant,t_start_s,t_end_s,allocated_gpus,busy_gpus */
void report_csv_tenant_timeseries_to(const results *r, report_out *ro);
void report_csv_services_to(const results *r, report_out *ro);
/* latency.csv: service,latency_ms,cum_frac; for each service with served requests
 * (services.csv order), one row per non-empty latency histogram bucket: its upper edge
 * and the share of served requests below it (histogram_foreach_bucket). */
void report_csv_latency_to(const results *r, report_out *ro);
void report_csv_events_to(const results *r, report_out *ro);
/* jobs.csv in parts, for the stream writer (report-jobstream.c): the header row(s), then
 * one job's row; report_csv_jobs_to writes the header and every row of r->jobs. */
void report_csv_jobs_header(const results *r, GString *out);
void report_csv_job_row(const results *r, const job_result *j, GString *out);
/* llm.csv: one row per LLM service (TTFT, TPOT, goodput, KV blocks, reserve); FALSE (and
 * nothing written) when the run has none. */
gboolean report_csv_llm(const results *r, GString *out);
/* llm-latency.csv: service,metric,latency_ms,cum_frac with metric ttft, tpot and e2e: the
 * distributions of each LLM service, bucket by bucket as latency.csv; FALSE (and nothing
 * written) when the run has no LLM service. */
gboolean report_csv_llm_latency(const results *r, GString *out);

/* The per-GPU series (results.gpu_series) as DCGM exporter metrics (report-dcgm.c):
 * CSV one sample per row, and OpenMetrics text. */
void report_dcgm_csv(const results *r, GString *out);
void report_dcgm_openmetrics(const results *r, GString *out);
/* sharesim's own pool series for dcgm.prom (report-prom.c), appended before its # EOF. */
void report_prom_pools(const results *r, GString *out);
/* Appends name="value" (after a comma unless first), the value escaped as OpenMetrics wants
 * it (backslash, quote, newline). Shared by dcgm.prom's DCGM and pool series. */
void report_prom_label(GString *out, const char *name, const char *value, gboolean first);
/* A sample time: seconds from the start as report_num writes them, or exact Unix seconds for
 * a run placed at a date (scenario start:). */
void report_prom_stamp(GString *out, const results *r, double t_s);

/* Writes every file into dir atomically (outdir.h): the folder appears complete or not
 * at all. Deterministic: the same results give byte-identical files, except that
 * summary.json's engine.wall_s is left out when deterministic is TRUE. */
gboolean report_write_dir(const results *r, const char *dir, gboolean deterministic,
                          GError **error);
/* The same into a folder begun by the caller (outdir_begin), which it commits (or aborts on
 * error; o is freed either way). jobs.csv is written from r->jobs unless jobs_written (the
 * caller streamed it into o already, report_jobs_stream). The CSV files go out in chunks
 * (report_out). */
typedef struct report_series report_series;
gboolean report_write_into(const results *r, struct outdir *o, gboolean deterministic,
                           gboolean jobs_written, report_series *series, GError **error);

/* timeseries.csv and fragmentation.csv from the rows the run streamed (report-series.c):
 * pass report_series_row and the series as sim_options' ts_sink and ts_sink_data, then
 * series to report_write_into, which writes both files from it (r->timeseries is empty and
 * r->ts_slo completes the rows). The rows wait in an unnamed spill file in o's temporary;
 * with o NULL they are dropped. */
report_series *report_series_new(struct outdir *o);
void report_series_row(void *data, const ts_row *row);
/* Writes both files into o's temporary; FALSE with error when a write or the read-back failed. */
gboolean report_series_write(report_series *rs, const results *r, struct outdir *o,
                             GError **error);
void report_series_free(report_series *rs);

/* services.csv, latency.csv, llm.csv and llm-latency.csv written while the run goes
 * (report-services.c): pass report_services_row and the stream as sim_options'
 * services_sink and services_sink_data, then finish it before report_write_into, which
 * leaves those files alone when r->services_streamed. With o NULL the rows are dropped. */
typedef struct report_services report_services;
report_services *report_services_new(struct outdir *o, GError **error);
void report_services_row(void *data, const service_result *s);
/* Writes what is left and closes the files; FALSE with error when any write failed. Frees rs. */
gboolean report_services_finish(report_services *rs, GError **error);
void report_services_free(report_services *rs);

/* jobs.csv written row by row while the run goes (report-jobstream.c), so that a finished
 * job's row leaves memory: pass report_jobs_stream_row and the stream as sim_options'
 * job_sink and job_sink_data. The file is byte for byte what report_csv_jobs_to writes for the
 * same rows. With o NULL the rows are only counted (a run without a result folder). */
typedef struct report_jobs_stream report_jobs_stream;
report_jobs_stream *report_jobs_stream_new(struct outdir *o, GError **error);
/* FALSE with error once a write of jobs.csv failed (the run stops there). */
gboolean report_jobs_stream_row(void *stream, const results *r, const job_result *j,
                                GError **error);
/* Writes the header if no row came, flushes and closes the file; FALSE with error when any
 * write failed. Frees js. */
gboolean report_jobs_stream_finish(report_jobs_stream *js, const results *r, GError **error);
/* Closes and frees js without checking (the run failed; the caller aborts the folder). */
void report_jobs_stream_free(report_jobs_stream *js);

/* Number formatting shared by every report: shortest text that round-trips to 6
 * significant digits, "nan" never written (empty cell instead). */
void report_num(GString *out, double v);
