/* report-out.c: a file of a result folder written in chunks (report.h, report_out): rows
 * are formatted into a buffer that goes to the file in the folder's temporary (outdir.h:
 * committed whole or removed) each time it holds REPORT_OUT_CHUNK bytes, so that writing a
 * file of any length holds one chunk, not the file. The first write error is kept and
 * reported when the file is closed. */
#include "report.h"
#include "outdir.h"
#include "util.h"
#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>

report_out *report_out_open(outdir *o, const char *name, GError **error) {
  report_out *ro = g_new0(report_out, 1);
  ro->buf = g_string_sized_new(REPORT_OUT_CHUNK + 4096);
  ro->path = g_build_filename(outdir_path(o), name, NULL);
  g_autofree char *tmp = g_build_filename(outdir_tmp_path(o), name, NULL);
  ro->f = g_fopen(tmp, "wb");
  if (!ro->f) {
    int e = errno;
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot write %s: %s", ro->path,
                g_strerror(e));
    report_out_free(ro);
    return NULL;
  }
  return ro;
}

void report_out_flush(report_out *ro) {
  if (ro->f && ro->buf->len && !ro->error_errno &&
      fwrite(ro->buf->str, 1, ro->buf->len, ro->f) != ro->buf->len)
    ro->error_errno = errno ? errno : EIO;
  if (ro->f) g_string_truncate(ro->buf, 0);
}

gboolean report_out_close(report_out *ro, GError **error) {
  g_return_val_if_fail(ro != NULL, FALSE);
  report_out_flush(ro);
  if (ro->f) {
    if (fflush(ro->f) != 0 && !ro->error_errno) ro->error_errno = errno ? errno : EIO;
    if (fclose(ro->f) != 0 && !ro->error_errno) ro->error_errno = errno ? errno : EIO;
    ro->f = NULL;
  }
  gboolean ok = ro->error_errno == 0;
  if (!ok)
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot write %s: %s", ro->path,
                g_strerror(ro->error_errno));
  report_out_free(ro);
  return ok;
}

void report_out_free(report_out *ro) {
  if (!ro) return;
  if (ro->f) fclose(ro->f);
  g_string_free(ro->buf, TRUE);
  g_free(ro->path);
  g_free(ro);
}
