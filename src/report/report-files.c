/* report-files.c: the table of the result files (report.h, report_file) and of their
 * formats, and the result folder written from it (report_write_into). It decides which
 * files a run writes and how each one's rows come; what a file holds is its writer's
 * (report-csv.c, report-text.c, ...), and the files written while the run goes are
 * report-sinks.c's. */
#include "report.h"
#include "outdir.h"
#include "util.h"
#include <string.h>

static void files_text(const results *r, report_out *ro) { report_text(r, ro->buf); }

static void files_json(const results *r, report_out *ro) {
  char *json = report_json(r, ro->wall_clock);
  g_string_append(ro->buf, json);
  g_free(json);
}


/* Every file of a result folder, in the order written: summary.json last, so that even the
 * folder's temporary looks like a sharesim result only once it is complete. */
static const report_file report_file_table[] = {
    {"jobs.csv", &report_format_csv, REPORT_PER_JOB, .what = "one row per job",
     .header = report_csv_jobs_header, .job_row = report_csv_job_row},
    {"pools.csv", &report_format_csv, REPORT_WHOLE_RUN, .what = "one row per pool",
     .write = report_csv_pools_to},
    {"gpus.csv", &report_format_csv, REPORT_WHOLE_RUN, .what = "one row per GPU",
     .write = report_csv_gpus_to},
    {"tenants.csv", &report_format_csv, REPORT_WHOLE_RUN, .what = "one row per tenant",
     .write = report_csv_tenants_to},
    {"timeseries.csv", &report_format_csv, REPORT_PER_INTERVAL,
     .what = "per pool and interval: gauges, queue, SLO violations",
     .header = report_csv_timeseries_header, .interval_row = report_csv_timeseries_row},
    {"fragmentation.csv", &report_format_csv, REPORT_PER_INTERVAL,
     .what = "per pool and interval: fragmented and free GPUs",
     .header = report_csv_fragmentation_header, .interval_row = report_csv_fragmentation_row},
    {"tenant_timeseries.csv", &report_format_csv, REPORT_WHOLE_RUN,
     .what = "per tenant and interval: GPUs allocated and busy",
     .write = report_csv_tenant_timeseries_to},
    {"services.csv", &report_format_csv, REPORT_PER_SERVICE,
     .what = "one row per inference service", .header = report_csv_services_header,
     .service_row = report_csv_service_row},
    {"latency.csv", &report_format_csv, REPORT_PER_SERVICE,
     .what = "each service's latency distribution", .header = report_csv_latency_header,
     .service_row = report_csv_latency_rows},
    {"events.csv", &report_format_csv, REPORT_WHOLE_RUN,
     .what = "kills, crashes, restarts, evictions, reconfigurations",
     .write = report_csv_events_to},
    {"summary.txt", &report_format_text, REPORT_WHOLE_RUN, .what = "the summary run prints",
     .write = files_text},
    {"llm.csv", &report_format_csv, REPORT_PER_SERVICE, .if_rows = TRUE,
     .what = "one row per LLM service: TTFT, TPOT, goodput, KV blocks",
     .header = report_csv_llm_header, .wants = report_csv_is_llm,
     .service_row = report_csv_llm_row},
    {"llm-latency.csv", &report_format_csv, REPORT_PER_SERVICE, .if_rows = TRUE,
     .what = "each LLM service's TTFT, TPOT and end-to-end distributions",
     .header = report_csv_llm_latency_header, .wants = report_csv_is_llm,
     .service_row = report_csv_llm_latency_rows},
    {"dcgm.csv", &report_format_csv, REPORT_WHOLE_RUN, .option = REPORT_OPT_DCGM,
     .reads_kept = TRUE, .what = "the per-GPU series as DCGM exporter samples",
     .write = report_dcgm_csv_to},
    {"dcgm.prom", &report_format_openmetrics, REPORT_WHOLE_RUN, .option = REPORT_OPT_DCGM,
     .reads_kept = TRUE, .what = "the DCGM samples and the pools' series, OpenMetrics",
     .write = report_dcgm_openmetrics_to},
    {"summary.json", &report_format_json, REPORT_WHOLE_RUN,
     .what = "the headline figures, for programs", .write = files_json},
};

static const report_format *const report_format_table[] = {
    &report_format_text,
    &report_format_csv,
    &report_format_json,
    &report_format_openmetrics,
};

const report_file *report_files(guint *n) {
  *n = G_N_ELEMENTS(report_file_table);
  return report_file_table;
}

const report_format *const *report_formats(guint *n) {
  *n = G_N_ELEMENTS(report_format_table);
  return report_format_table;
}

const report_file *report_file_find(const char *name) {
  for (gsize i = 0; i < G_N_ELEMENTS(report_file_table); i++)
    if (!strcmp(report_file_table[i].name, name)) return &report_file_table[i];
  return NULL;
}

guint report_options_of(const results *r) { return r->gpu_series_on ? REPORT_OPT_DCGM : 0; }

gboolean report_file_on(const report_file *f, guint options) {
  return (f->option & options) == f->option;
}

static const char *const report_stream_names[REPORT_STREAM_COUNT] = {
    [REPORT_WHOLE_RUN] = "whole-run",
    [REPORT_PER_JOB] = "per-job",
    [REPORT_PER_SERVICE] = "per-service",
    [REPORT_PER_INTERVAL] = "per-interval",
};

static const char *report_option_name(guint option) {
  return option == REPORT_OPT_DCGM ? "--dcgm" : "always";
}

void report_files_list(GString *out) {
  for (gsize i = 0; i < G_N_ELEMENTS(report_file_table); i++) {
    const report_file *f = &report_file_table[i];
    g_string_append_printf(out, "%s\t%s\t%s\t%s%s\t%s\n", f->name, f->format->name,
                           report_stream_names[f->stream], report_option_name(f->option),
                           f->if_rows ? ",if-rows" : "", f->what);
  }
}

/* Does r hold a row of f (if_rows files)? */
static gboolean files_has_row(const report_file *f, const results *r) {
  switch (f->stream) {
  case REPORT_PER_JOB: return r->jobs->len > 0;
  case REPORT_PER_INTERVAL: return r->timeseries->len > 0;
  case REPORT_PER_SERVICE:
    for (guint i = 0; i < r->services->len; i++)
      if (!f->wants || f->wants(&g_array_index(r->services, service_result, i))) return TRUE;
    return FALSE;
  default: return TRUE;
  }
}

/* f's header and rows from the frozen results into ro. */
static void files_rows(const report_file *f, const results *r, report_out *ro) {
  if (f->stream == REPORT_WHOLE_RUN) {
    f->write(r, ro);
    return;
  }
  f->header(r, ro->buf);
  switch (f->stream) {
  case REPORT_PER_JOB:
    for (guint i = 0; i < r->jobs->len; i++) {
      f->job_row(r, &g_array_index(r->jobs, job_result, i), ro->buf);
      report_out_row(ro);
    }
    break;
  case REPORT_PER_SERVICE:
    for (guint i = 0; i < r->services->len; i++) {
      const service_result *s = &g_array_index(r->services, service_result, i);
      if (f->wants && !f->wants(s)) continue;
      f->service_row(r, s, ro->buf);
      report_out_row(ro);
    }
    break;
  case REPORT_PER_INTERVAL:
    for (guint i = 0; i < r->timeseries->len; i++) {
      f->interval_row(r, &g_array_index(r->timeseries, ts_row, i), ro->buf);
      report_out_row(ro);
    }
    break;
  default: g_assert_not_reached();
  }
}

gboolean report_file_string(const char *name, const results *r, GString *out) {
  const report_file *f = report_file_find(name);
  if (!f || !report_file_on(f, report_options_of(r)) || (f->if_rows && !files_has_row(f, r)))
    return FALSE;
  report_out ro = {.buf = out};
  files_rows(f, r, &ro);
  return TRUE;
}

/* The files of the table r's run writes, but the streamed ones when streamed. */
static gboolean files_write(const results *r, outdir *o, gboolean deterministic,
                            gboolean streamed, GError **error) {
  guint options = report_options_of(r);
  for (gsize i = 0; i < G_N_ELEMENTS(report_file_table); i++) {
    const report_file *f = &report_file_table[i];
    if (!report_file_on(f, options) || (streamed && f->stream != REPORT_WHOLE_RUN)) continue;
    if (f->if_rows && !files_has_row(f, r)) continue;
    report_out *ro = report_out_open(o, f->name, error);
    if (!ro) return FALSE;
    ro->wall_clock = !deterministic;
    files_rows(f, r, ro);
    if (!report_out_close(ro, error)) return FALSE;
  }
  return TRUE;
}

gboolean report_write_into(const results *r, outdir *o, gboolean deterministic,
                           gboolean streamed, GError **error) {
  g_return_val_if_fail(r != NULL && o != NULL, FALSE);
  if (!files_write(r, o, deterministic, streamed, error)) {
    outdir_abort(o);
    return FALSE;
  }
  return outdir_commit(o, error);
}

gboolean report_write_dir(const results *r, const char *dir, gboolean deterministic,
                          GError **error) {
  g_return_val_if_fail(r != NULL && dir != NULL, FALSE);
  outdir *o = outdir_begin(dir, error);
  if (!o) return FALSE;
  return report_write_into(r, o, deterministic, FALSE, error);
}
