/* report.h: turning frozen results into the files of a result folder and the text summary.
 * report-files.c (the table of result files and formats, the folder), report-sinks.c (the
 * files streamed while the run goes), report-text.c (stdout summary), report-csv.c (the
 * CSVs), report-json.c (summary.json), report-dcgm.c and report-prom.c. All output is deterministic: fixed column order,
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
  gboolean wall_clock; /* the file may hold wall-clock figures (summary.json's engine.wall_s);
                        * FALSE for a deterministic folder */
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

/* ---- the result files: one table (report-files.c) ----
 * Every file a run writes into its folder is a row of report_files(): its name, format,
 * how its rows come (report_stream), whether a run option turns it on, and its writer. The
 * folder (report_write_into), the streaming sinks (report_simulate), the file listing
 * (`run --list-files`, which tests/cli/t-docs.sh reads) and the tests that walk every file
 * are all built from it: a new file is its writer and one row. */
typedef enum report_stream {
  REPORT_WHOLE_RUN,    /* written once from the frozen results: write */
  REPORT_PER_JOB,      /* a row per job in trace order (job_row), streamed as rows are out */
  REPORT_PER_SERVICE,  /* rows per inference service in trace order (service_row), streamed
                        * at its job's turn */
  REPORT_PER_INTERVAL, /* a row per pool and interval, by pool then time (interval_row):
                        * streamed rows wait in a spill file, written when the run is over */
  REPORT_STREAM_COUNT
} report_stream;

/* The run options that turn files on (report_file.option; 0: every run writes it). */
enum { REPORT_OPT_DCGM = 1u << 0 };
/* The options a frozen run had (REPORT_OPT_DCGM when it recorded the per-GPU series). */
guint report_options_of(const results *r);

/* A format of result files (report_formats()): its name and, for the tests that read every
 * file a run writes, what a well-formed file of it is. Each is defined in the report-*.c
 * that writes it. */
typedef struct report_format {
  const char *name;  /* "csv" */
  const char *what;  /* one line for the listing */
  /* NULL when data is a well-formed file of the format, else why not (owned) */
  char *(*malformed)(const char *data, gsize len);
} report_format;
extern const report_format report_format_text, report_format_csv, report_format_json,
    report_format_openmetrics;
const report_format *const *report_formats(guint *n);

typedef struct report_file {
  const char *name;
  const report_format *format;
  report_stream stream;
  guint option;        /* REPORT_OPT_* that must be on; 0: every run */
  gboolean if_rows;    /* written only when it has a row (llm.csv: a run with an LLM service) */
  gboolean reads_kept; /* reads results->jobs and ->timeseries whole: when it is on, the run
                        * keeps its rows and nothing is streamed (dcgm.*) */
  const char *what;    /* one line for the listing */
  void (*write)(const results *r, report_out *ro);          /* REPORT_WHOLE_RUN */
  /* the other kinds: the header, then each row appended to out (the caller flushes) */
  void (*header)(const results *r, GString *out);
  void (*job_row)(const results *r, const job_result *j, GString *out);
  gboolean (*wants)(const service_result *s);                /* NULL: every service */
  void (*service_row)(const results *r, const service_result *s, GString *out);
  void (*interval_row)(const results *r, const ts_row *t, GString *out);
} report_file;

/* The table, in the order the files are written (summary.json last: it marks a complete
 * result folder). */
const report_file *report_files(guint *n);
/* The row named name, NULL when none. */
const report_file *report_file_find(const char *name);
/* Does a run with these options write f (if_rows files: when they have a row)? */
gboolean report_file_on(const report_file *f, guint options);
/* One line per file: name, format, stream kind, when it is written, what it holds. */
void report_files_list(GString *out);
/* File name's bytes for the frozen results r, into out (its header and rows, as a folder
 * that kept its rows gets them). FALSE, nothing written, when r's folder has no such file
 * (an unknown name, an option r's run did not have, an if_rows file without a row). */
gboolean report_file_string(const char *name, const results *r, GString *out);

/* Every result CSV's first two columns: the run's scenario and seed (report-csv.c). The
 * header's "scenario,seed," and a row's two fields, each followed by its comma. */
void report_csv_key_header(GString *out);
void report_csv_key(GString *out, const results *r);

/* CSV files: each _to writer writes the header and rows through a report_out (a result
 * folder's file, in chunks); report_csv_string runs one into a GString instead. */
typedef void (*report_csv_writer)(const results *r, report_out *ro);
void report_csv_string(report_csv_writer write, const results *r, GString *out);
void report_csv_pools_to(const results *r, report_out *ro);
void report_csv_gpus_to(const results *r, report_out *ro);
void report_csv_tenants_to(const results *r, report_out *ro);
/* tenant_timeseries.csv: tenant,t_start_s,t_end_s,allocated_gpus,busy_gpus */
void report_csv_tenant_timeseries_to(const results *r, report_out *ro);
void report_csv_events_to(const results *r, report_out *ro);
/* The per-row files' parts (report_file rows): jobs.csv, timeseries.csv and
 * fragmentation.csv, services.csv, latency.csv (service,latency_ms,cum_frac: for a service
 * with served requests one row per non-empty latency histogram bucket, its upper edge and
 * the share of served requests below it), llm.csv (one row per LLM service: TTFT, TPOT,
 * goodput, KV blocks, reserve) and llm-latency.csv (service,metric,latency_ms,cum_frac with
 * metric ttft, tpot and e2e, bucket by bucket as latency.csv). */
void report_csv_jobs_header(const results *r, GString *out);
void report_csv_job_row(const results *r, const job_result *j, GString *out);
void report_csv_timeseries_header(const results *r, GString *out);
void report_csv_timeseries_row(const results *r, const ts_row *t, GString *out);
void report_csv_fragmentation_header(const results *r, GString *out);
void report_csv_fragmentation_row(const results *r, const ts_row *t, GString *out);
void report_csv_services_header(const results *r, GString *out);
void report_csv_service_row(const results *r, const service_result *s, GString *out);
void report_csv_latency_header(const results *r, GString *out);
void report_csv_latency_rows(const results *r, const service_result *s, GString *out);
gboolean report_csv_is_llm(const service_result *s);
void report_csv_llm_header(const results *r, GString *out);
void report_csv_llm_row(const results *r, const service_result *s, GString *out);
void report_csv_llm_latency_header(const results *r, GString *out);
void report_csv_llm_latency_rows(const results *r, const service_result *s, GString *out);

/* The per-GPU series (results.gpu_series) as DCGM exporter metrics (report-dcgm.c):
 * dcgm.csv (one sample per row) and dcgm.prom (OpenMetrics text), each written through ro
 * a line at a time (report_out_row: a file of any length holds one chunk in memory);
 * report_dcgm_openmetrics is dcgm.prom's text into a GString (tests). */
void report_dcgm_csv_to(const results *r, report_out *ro);
void report_dcgm_openmetrics_to(const results *r, report_out *ro);
void report_dcgm_openmetrics(const results *r, GString *out);
/* sharesim's own pool series for dcgm.prom (report-prom.c), written before its # EOF. */
void report_prom_pools(const results *r, report_out *ro);
/* Appends name="value" (after a comma unless first), the value escaped as OpenMetrics wants
 * it (backslash, quote, newline). Shared by dcgm.prom's DCGM and pool series. */
void report_prom_label(GString *out, const char *name, const char *value, gboolean first);
/* A sample time: seconds from the start as report_num writes them, or exact Unix seconds for
 * a run placed at a date (scenario start:). */
void report_prom_stamp(GString *out, const results *r, double t_s);
/* dcgm.prom's sample time: the same in whole seconds, rounded up (a run's last interval
 * is cut at its end, which may fall within a second; `promtool check metrics` reads only
 * integer stamps), and at least one more than *last, the series' previous stamp (then
 * updated; G_MININT64 before a series' first), so that a series' stamps stay distinct and
 * in order. */
void report_prom_stamp_whole(GString *out, const results *r, double t_s, gint64 *last);

/* Writes every file of the table that r's run writes into dir atomically (outdir.h): the
 * folder appears complete or not at all. Deterministic: the same results give
 * byte-identical files, except that summary.json's engine.wall_s is left out when
 * deterministic is TRUE. */
gboolean report_write_dir(const results *r, const char *dir, gboolean deterministic,
                          GError **error);
/* The same into a folder begun by the caller (outdir_begin), which it commits (or aborts on
 * error; o is freed either way). streamed: the per-job, per-service and per-interval files
 * are in o already (report_sinks_finish); else they are written from r's rows. */
gboolean report_write_into(const results *r, struct outdir *o, gboolean deterministic,
                           gboolean streamed, GError **error);

/* ---- the streaming sinks (report-sinks.c) ----
 * One run and its result folder (dir NULL: none), as `run -o DIR` makes them: the folder is
 * begun first, and the table's per-job, per-service and per-interval files are written
 * while the run goes (their rows leave memory), unless a file that is on reads the kept
 * rows (report_file.reads_kept: run --dcgm); without a folder those rows are dropped as
 * they come. The folder appears only once complete; on any error nothing is left. Sets
 * opt's sinks. Returns the results (without the streamed rows), or NULL with error set. */
struct sim_options;
struct scenario;
struct trace;
results *report_simulate(const struct scenario *sc, const struct trace *tr,
                         struct sim_options *opt, const char *dir, GError **error);

/* The parts report_simulate puts together. report_sinks_new begins the streamed files that
 * the options turn on (o NULL: rows dropped; NULL with error when one cannot be made);
 * report_sinks_attach sets opt's job, services and series sinks (none when nothing
 * streams); report_sinks_finish, once the run returned, writes the per-interval files from
 * their spill and closes every streamed file (FALSE with error when a write failed). */
typedef struct report_sinks report_sinks;
report_sinks *report_sinks_new(struct outdir *o, guint options, GError **error);
gboolean report_sinks_streamed(const report_sinks *s);
void report_sinks_attach(report_sinks *s, struct sim_options *opt);
gboolean report_sinks_finish(report_sinks *s, const results *r, GError **error);
void report_sinks_free(report_sinks *s);

/* Each pool's time series rows as the run hands them over (report-series.c), kept in chunks
 * in an unnamed spill file in o's temporary (o NULL: dropped) and given back by pool, then
 * time, with r->ts_slo's SLO violations: report_series_each calls fn on each, FALSE when the
 * spill could not be read back. */
typedef struct report_series report_series;
report_series *report_series_new(struct outdir *o);
void report_series_row(void *data, const ts_row *row);
gboolean report_series_each(report_series *rs, const results *r,
                            void (*fn)(void *data, const ts_row *row), void *data);
void report_series_free(report_series *rs);

/* Number formatting shared by every report: shortest text that round-trips to 6
 * significant digits, "nan" never written (empty cell instead). */
void report_num(GString *out, double v);
