/* studydir.c: committing study folders (compare, size) on top of outdir.c, and removing
 * the temporaries a killed writer leaves. It never removes a folder it has not
 * recognised: a study folder by its marker, a temporary by its outdir.c name and a dead
 * writer. */
#include "studydir.h"
#include "outdir.h"
#include "util.h"
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

gboolean studydir_commit(outdir *o, const char *final_path, const char *marker,
                         GError **error) {
  g_return_val_if_fail(o != NULL && final_path != NULL && marker != NULL, FALSE);
  g_autofree char *p = g_build_filename(outdir_tmp_path(o), marker, NULL);
  GStatBuf st;
  if (g_lstat(p, &st) != 0 || !S_ISREG(st.st_mode)) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME,
                "cannot finish %s: %s was not written", final_path, marker);
    outdir_abort(o);
    return FALSE;
  }
  return outdir_commit(o, error);
}

guint studydir_clean_temporaries(const char *dir, const char *const *names) {
  return outdir_sweep_stale(dir, names, NULL);
}
