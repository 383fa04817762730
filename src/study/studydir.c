/* studydir.c: committing and replacing study folders (compare, size) on top of outdir.c,
 * and removing the temporaries a killed writer leaves. It never removes a folder it has
 * not recognised: a study folder by its marker, a temporary by its outdir.c name. */
#include "studydir.h"
#include "outdir.h"
#include "util.h"
#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

static gboolean studydir_has_file(const char *dir, const char *name) {
  g_autofree char *p = g_build_filename(dir, name, NULL);
  GStatBuf st;
  return g_lstat(p, &st) == 0 && S_ISREG(st.st_mode);
}

gboolean studydir_commit(outdir *o, const char *final_path, const char *marker,
                         GError **error) {
  g_return_val_if_fail(o != NULL && final_path != NULL && marker != NULL, FALSE);
  GStatBuf st;
  g_autofree char *aside = NULL;
  if (g_lstat(final_path, &st) == 0 && S_ISDIR(st.st_mode) &&
      studydir_has_file(final_path, marker)) {
    /* an earlier study: move it aside (outdir_commit would refuse it) */
    g_autofree char *clean = g_strdup(final_path);
    gsize len = strlen(clean);
    while (len > 1 && G_IS_DIR_SEPARATOR(clean[len - 1])) clean[--len] = '\0';
    g_autofree char *parent = g_path_get_dirname(clean);
    g_autofree char *base = g_path_get_basename(clean);
    g_autofree char *tmpl = g_strdup_printf("%s.old-XXXXXX", base);
    aside = g_build_filename(parent, tmpl, NULL);
    if (!g_mkdtemp_full(aside, 0700) || g_rename(clean, aside) != 0) {
      int e = errno;
      g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot replace %s: %s",
                  final_path, g_strerror(e));
      g_rmdir(aside);
      outdir_abort(o);
      return FALSE;
    }
  }
  if (!outdir_commit(o, error)) {
    if (aside && g_rename(aside, final_path) != 0)
      g_warning("could not restore %s from %s", final_path, aside);
    return FALSE;
  }
  if (aside) {
    GError *local = NULL;
    if (!outdir_remove_tree(aside, &local)) {
      g_warning("%s", local->message);
      g_error_free(local);
    }
  }
  return TRUE;
}

/* "NAME.tmp-XXXXXX" / "NAME.old-XXXXXX": the six X's are letters and digits. */
static gboolean studydir_is_temporary(const char *entry, const char *const *names) {
  gsize len = strlen(entry);
  if (len < 12) return FALSE;
  const char *suffix = entry + len - 11;
  if (strncmp(suffix, ".tmp-", 5) && strncmp(suffix, ".old-", 5)) return FALSE;
  for (int i = 5; i < 11; i++)
    if (!g_ascii_isalnum(suffix[i])) return FALSE;
  if (!names) return TRUE;
  gsize base_len = len - 11;
  for (const char *const *n = names; *n; n++)
    if (strlen(*n) == base_len && !strncmp(entry, *n, base_len)) return TRUE;
  return FALSE;
}

guint studydir_clean_temporaries(const char *dir, const char *const *names) {
  GDir *d = g_dir_open(dir, 0, NULL);
  if (!d) return 0;
  GPtrArray *found = g_ptr_array_new_with_free_func(g_free);
  const char *entry;
  while ((entry = g_dir_read_name(d)) != NULL)
    if (studydir_is_temporary(entry, names)) g_ptr_array_add(found, g_build_filename(dir, entry, NULL));
  g_dir_close(d);
  guint removed = 0;
  for (guint i = 0; i < found->len; i++) {
    GStatBuf st;
    const char *p = g_ptr_array_index(found, i);
    if (g_lstat(p, &st) != 0 || !S_ISDIR(st.st_mode)) continue;
    GError *local = NULL;
    if (outdir_remove_tree(p, &local))
      removed++;
    else
      g_clear_error(&local);
  }
  g_ptr_array_free(found, TRUE);
  return removed;
}
