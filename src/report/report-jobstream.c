/* report-jobstream.c: jobs.csv written row by row while the run goes, into the temporary of
 * the result folder (outdir.h, committed whole or removed), so that a finished job's row
 * leaves memory (sim_options.job_sink hands the rows over in trace order). The bytes are
 * report_csv_jobs' for the same rows: the same header and row functions format them. */
#include "report.h"
#include "outdir.h"
#include "util.h"
#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

/* Rows are formatted into buf and written out once it holds this much. */
#define JOBSTREAM_FLUSH_BYTES (256 * 1024)

struct report_jobs_stream {
  outdir *o;       /* NULL: rows are dropped (no result folder) */
  FILE *f;
  char *path;      /* DIR/jobs.csv as the user named DIR, for messages */
  GString *buf;
  gboolean header_done;
  int error_errno; /* the first write error, 0 if none */
};

report_jobs_stream *report_jobs_stream_new(outdir *o, GError **error) {
  report_jobs_stream *js = g_new0(report_jobs_stream, 1);
  js->buf = g_string_sized_new(JOBSTREAM_FLUSH_BYTES + 4096);
  js->o = o;
  if (!o) return js;
  js->path = g_build_filename(outdir_path(o), "jobs.csv", NULL);
  g_autofree char *tmp = g_build_filename(outdir_tmp_path(o), "jobs.csv", NULL);
  js->f = g_fopen(tmp, "wb");
  if (!js->f) {
    int e = errno;
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot write %s: %s", js->path,
                g_strerror(e));
    report_jobs_stream_free(js);
    return NULL;
  }
  return js;
}

static void report_jobs_stream_flush(report_jobs_stream *js) {
  if (js->f && js->buf->len && !js->error_errno &&
      fwrite(js->buf->str, 1, js->buf->len, js->f) != js->buf->len)
    js->error_errno = errno ? errno : EIO;
  g_string_truncate(js->buf, 0);
}

static void report_jobs_stream_header(report_jobs_stream *js, const results *r) {
  if (js->header_done) return;
  js->header_done = TRUE;
  if (js->o) report_csv_jobs_header(r, js->buf);
}

void report_jobs_stream_row(void *stream, const results *r, const job_result *j) {
  report_jobs_stream *js = stream;
  if (!js->o) return;
  report_jobs_stream_header(js, r);
  report_csv_job_row(r, j, js->buf);
  if (js->buf->len >= JOBSTREAM_FLUSH_BYTES) report_jobs_stream_flush(js);
}

gboolean report_jobs_stream_finish(report_jobs_stream *js, const results *r, GError **error) {
  g_return_val_if_fail(js != NULL, FALSE);
  report_jobs_stream_header(js, r);
  report_jobs_stream_flush(js);
  if (js->f) {
    if (fflush(js->f) != 0 && !js->error_errno) js->error_errno = errno ? errno : EIO;
    if (fclose(js->f) != 0 && !js->error_errno) js->error_errno = errno ? errno : EIO;
    js->f = NULL;
  }
  gboolean ok = js->error_errno == 0;
  if (!ok)
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot write %s: %s", js->path,
                g_strerror(js->error_errno));
  report_jobs_stream_free(js);
  return ok;
}

void report_jobs_stream_free(report_jobs_stream *js) {
  if (!js) return;
  if (js->f) fclose(js->f);
  g_string_free(js->buf, TRUE);
  g_free(js->path);
  g_free(js);
}
