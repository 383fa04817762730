/* report-jobstream.c: jobs.csv written row by row while the run goes, into the temporary of
 * the result folder (outdir.h, committed whole or removed), so that a finished job's row
 * leaves memory (sim_options.job_sink hands the rows over in trace order). The bytes are
 * report_csv_jobs_to's for the same rows: the same header and row functions format them, and
 * they go out in chunks (report_out). */
#include "report.h"
#include "outdir.h"
#include "util.h"

struct report_jobs_stream {
  report_out *out; /* NULL: rows are dropped (no result folder) */
  gboolean header_done;
};

report_jobs_stream *report_jobs_stream_new(outdir *o, GError **error) {
  report_jobs_stream *js = g_new0(report_jobs_stream, 1);
  if (o && !(js->out = report_out_open(o, "jobs.csv", error))) {
    g_free(js);
    return NULL;
  }
  return js;
}

static void report_jobs_stream_header(report_jobs_stream *js, const results *r) {
  if (js->header_done) return;
  js->header_done = TRUE;
  if (js->out) report_csv_jobs_header(r, js->out->buf);
}

gboolean report_jobs_stream_row(void *stream, const results *r, const job_result *j,
                                GError **error) {
  report_jobs_stream *js = stream;
  if (!js->out) return TRUE;
  report_jobs_stream_header(js, r);
  report_csv_job_row(r, j, js->out->buf);
  report_out_row(js->out);
  if (!js->out->error_errno) return TRUE;
  g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot write %s: %s",
              js->out->path, g_strerror(js->out->error_errno));
  return FALSE;
}

gboolean report_jobs_stream_finish(report_jobs_stream *js, const results *r, GError **error) {
  g_return_val_if_fail(js != NULL, FALSE);
  report_jobs_stream_header(js, r);
  gboolean ok = !js->out || report_out_close(js->out, error);
  g_free(js);
  return ok;
}

void report_jobs_stream_free(report_jobs_stream *js) {
  if (!js) return;
  report_out_free(js->out);
  g_free(js);
}
