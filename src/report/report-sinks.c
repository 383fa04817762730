/* report-sinks.c: the result files of the table (report-files.c) whose rows are written
 * while the run goes, so that a finished job's row, a service's row and histograms and a
 * pool's intervals leave memory: per-job and per-service files get their rows in trace order
 * from the row writer (sim_options.job_sink, .services_sink; on its thread), per-interval
 * ones are spilled as the intervals close (report-series.c) and written when the run is
 * over. The bytes are those report_write_into writes from kept rows: the same writers. */
#include "report.h"
#include "outdir.h"
#include "sim.h"
#include "util.h"

/* One streamed file. */
typedef struct sink_file {
  const report_file *f;
  report_out *ro;       /* NULL: not begun yet (an if_rows file), or no folder */
  gboolean header_done; /* rows may follow */
  gboolean failed;      /* could not be begun: its rows are dropped, the error kept */
} sink_file;

struct report_sinks {
  outdir *o;                               /* NULL: rows are dropped (no result folder) */
  gboolean streamed;                       /* FALSE: a file that is on reads the kept rows */
  GArray *files[REPORT_STREAM_COUNT];      /* sink_file, table order, per stream kind */
  report_series *series;
  GError *error;                           /* the first file that could not be begun */
};

report_sinks *report_sinks_new(outdir *o, guint options, GError **error) {
  report_sinks *s = g_new0(report_sinks, 1);
  s->o = o;
  guint n;
  const report_file *t = report_files(&n);
  s->streamed = TRUE;
  for (guint i = 0; i < n; i++)
    if (report_file_on(&t[i], options) && t[i].reads_kept) s->streamed = FALSE;
  for (guint k = 0; k < REPORT_STREAM_COUNT; k++)
    s->files[k] = g_array_new(FALSE, TRUE, sizeof(sink_file));
  if (!s->streamed) return s;
  for (guint i = 0; i < n; i++) {
    if (t[i].stream == REPORT_WHOLE_RUN || !report_file_on(&t[i], options)) continue;
    sink_file sf = {.f = &t[i]};
    /* begun now, so that a file that cannot be made stops the run before it starts */
    if (o && !t[i].if_rows && !(sf.ro = report_out_open(o, t[i].name, error))) {
      report_sinks_free(s);
      return NULL;
    }
    g_array_append_val(s->files[t[i].stream], sf);
  }
  s->series = report_series_new(o);
  return s;
}

gboolean report_sinks_streamed(const report_sinks *s) { return s->streamed; }

/* The file's header before its first row (an if_rows file begun now); FALSE when it could
 * not be begun or there is no folder: its rows are dropped. */
static gboolean sink_begin(report_sinks *s, sink_file *sf, const results *r) {
  if (sf->header_done) return sf->ro != NULL;
  if (!s->o || sf->failed) return FALSE;
  if (!sf->ro && !(sf->ro = report_out_open(s->o, sf->f->name, s->error ? NULL : &s->error))) {
    sf->failed = TRUE;
    return FALSE;
  }
  sf->f->header(r, sf->ro->buf);
  sf->header_done = TRUE;
  return TRUE;
}

static gboolean sink_job(void *data, const results *r, const job_result *j, GError **error) {
  report_sinks *s = data;
  GArray *files = s->files[REPORT_PER_JOB];
  for (guint i = 0; i < files->len; i++) {
    sink_file *sf = &g_array_index(files, sink_file, i);
    if (!sink_begin(s, sf, r)) continue;
    sf->f->job_row(r, j, sf->ro->buf);
    report_out_row(sf->ro);
    if (sf->ro->error_errno) {
      g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot write %s: %s",
                  sf->ro->path, g_strerror(sf->ro->error_errno));
      return FALSE;
    }
  }
  return TRUE;
}

static void sink_service(void *data, const results *r, const service_result *row) {
  report_sinks *s = data;
  GArray *files = s->files[REPORT_PER_SERVICE];
  for (guint i = 0; i < files->len; i++) {
    sink_file *sf = &g_array_index(files, sink_file, i);
    if ((sf->f->wants && !sf->f->wants(row)) || !sink_begin(s, sf, r)) continue;
    sf->f->service_row(r, row, sf->ro->buf);
    report_out_row(sf->ro);
  }
}

void report_sinks_attach(report_sinks *s, sim_options *opt) {
  opt->job_sink = s->streamed ? sink_job : NULL;
  opt->job_sink_data = s->streamed ? s : NULL;
  opt->services_sink = s->streamed ? sink_service : NULL;
  opt->services_sink_data = s->streamed ? s : NULL;
  opt->ts_sink = s->streamed ? report_series_row : NULL;
  opt->ts_sink_data = s->streamed ? s->series : NULL;
  opt->spill_dir = s->o ? outdir_tmp_path(s->o) : NULL;
}

typedef struct sink_interval {
  const results *r;
  GArray *files;
} sink_interval;

static void sink_interval_row(void *data, const ts_row *row) {
  sink_interval *si = data;
  for (guint i = 0; i < si->files->len; i++) {
    sink_file *sf = &g_array_index(si->files, sink_file, i);
    if (!sf->ro) continue;
    sf->f->interval_row(si->r, row, sf->ro->buf);
    report_out_row(sf->ro);
  }
}

/* The per-interval files, every row from the spill in one pass. */
static gboolean sink_intervals(report_sinks *s, const results *r, GError **error) {
  GArray *files = s->files[REPORT_PER_INTERVAL];
  for (guint i = 0; i < files->len; i++) sink_begin(s, &g_array_index(files, sink_file, i), r);
  sink_interval si = {r, files};
  if (report_series_each(s->series, r, sink_interval_row, &si)) return TRUE;
  g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME,
              "cannot write %s: the time series could not be read back from their spill file",
              files->len ? g_array_index(files, sink_file, 0).ro->path : "the time series");
  return FALSE;
}

gboolean report_sinks_finish(report_sinks *s, const results *r, GError **error) {
  g_return_val_if_fail(s != NULL && r != NULL, FALSE);
  if (!s->streamed) return TRUE;
  gboolean ok = !s->o || sink_intervals(s, r, error);
  if (ok && s->error) {
    g_propagate_error(error, g_steal_pointer(&s->error));
    ok = FALSE;
  }
  for (guint k = 0; k < REPORT_STREAM_COUNT; k++) {
    for (guint i = 0; i < s->files[k]->len; i++) {
      sink_file *sf = &g_array_index(s->files[k], sink_file, i);
      if (ok && !sf->f->if_rows) sink_begin(s, sf, r); /* a file without rows: its header */
      report_out *ro = g_steal_pointer(&sf->ro);
      if (ok && ro) ok = report_out_close(ro, error);
      else report_out_free(ro);
    }
  }
  return ok;
}

void report_sinks_free(report_sinks *s) {
  if (!s) return;
  for (guint k = 0; k < REPORT_STREAM_COUNT; k++) {
    for (guint i = 0; i < s->files[k]->len; i++)
      report_out_free(g_array_index(s->files[k], sink_file, i).ro);
    g_array_unref(s->files[k]);
  }
  report_series_free(s->series);
  g_clear_error(&s->error);
  g_free(s);
}

results *report_simulate(const scenario *sc, const trace *tr, sim_options *opt, const char *dir,
                         GError **error) {
  outdir *o = NULL;
  if (dir && !(o = outdir_begin(dir, error))) return NULL;
  report_sinks *s = report_sinks_new(o, opt->gpu_series ? REPORT_OPT_DCGM : 0, error);
  if (!s) {
    if (o) outdir_abort(o);
    return NULL;
  }
  report_sinks_attach(s, opt);
  results *res = sim_run(sc, tr, opt, error);
  gboolean ok = res != NULL && report_sinks_finish(s, res, error);
  gboolean streamed = report_sinks_streamed(s);
  report_sinks_free(s);
  if (ok && o) ok = report_write_into(res, o, TRUE, streamed, error);
  else if (o) outdir_abort(o);
  if (!ok && res) {
    results_free(res);
    res = NULL;
  }
  return res;
}
