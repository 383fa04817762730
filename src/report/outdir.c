/* outdir.c: a result folder that appears complete or not at all. Files are written into
 * a temporary sibling ("DIR.tmp-XXXXXX", same parent so rename is atomic) and renamed
 * into place on commit; an earlier sharesim result (it holds summary.json) or an empty
 * folder is replaced, anything else is refused. It never creates, removes or writes
 * anything outside DIR's parent, and never removes a folder it has not recognised. */
#include "outdir.h"
#include "util.h"
#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

struct outdir {
  char *final_path; /* DIR as given, trailing separators removed */
  char *parent;     /* folder that holds DIR and the temporaries */
  char *base;       /* DIR's last component */
  char *tmp_path;   /* the temporary sibling being filled */
};

static void outdir_free(outdir *o) {
  g_free(o->final_path);
  g_free(o->parent);
  g_free(o->base);
  g_free(o->tmp_path);
  g_free(o);
}

/* Removes path and, if it is a folder (not a symbolic link to one), everything in it.
 * Only called on folders this file created or recognised as a sharesim result. */
gboolean outdir_remove_tree(const char *path, GError **error) {
  GStatBuf st;
  if (g_lstat(path, &st) != 0) {
    int e = errno;
    if (e == ENOENT) return TRUE;
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot remove %s: %s", path,
                g_strerror(e));
    return FALSE;
  }
  if (S_ISDIR(st.st_mode)) {
    GError *local = NULL;
    GDir *dir = g_dir_open(path, 0, &local);
    if (!dir) {
      g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot remove %s: %s", path,
                  local->message);
      g_error_free(local);
      return FALSE;
    }
    const char *name;
    gboolean ok = TRUE;
    while (ok && (name = g_dir_read_name(dir)) != NULL) {
      char *child = g_build_filename(path, name, NULL);
      ok = outdir_remove_tree(child, error);
      g_free(child);
    }
    g_dir_close(dir);
    if (!ok) return FALSE;
    if (g_rmdir(path) != 0) {
      int e = errno;
      g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot remove %s: %s", path,
                  g_strerror(e));
      return FALSE;
    }
    return TRUE;
  }
  if (g_unlink(path) != 0) {
    int e = errno;
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot remove %s: %s", path,
                g_strerror(e));
    return FALSE;
  }
  return TRUE;
}

outdir *outdir_begin(const char *final_path, GError **error) {
  g_return_val_if_fail(final_path != NULL, NULL);
  char *path = g_strdup(final_path);
  /* "out/" names the folder "out": drop trailing separators (but keep a lone "/"). */
  gsize len = strlen(path);
  while (len > 1 && G_IS_DIR_SEPARATOR(path[len - 1])) path[--len] = '\0';
  char *base = g_path_get_basename(path);
  if (len == 0 || strcmp(base, ".") == 0 || strcmp(base, "..") == 0 ||
      G_IS_DIR_SEPARATOR(base[0])) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "cannot use '%s' as a result folder: name a new or earlier result folder",
                final_path);
    g_free(base);
    g_free(path);
    return NULL;
  }
  outdir *o = g_new0(outdir, 1);
  o->final_path = path;
  o->base = base;
  o->parent = g_path_get_dirname(path);
  char *tmpl_name = g_strdup_printf("%s.tmp-XXXXXX", base);
  o->tmp_path = g_build_filename(o->parent, tmpl_name, NULL);
  g_free(tmpl_name);
  if (!g_mkdtemp_full(o->tmp_path, 0755)) {
    int e = errno;
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME,
                "cannot create a temporary folder for %s in %s: %s", o->final_path, o->parent,
                g_strerror(e));
    outdir_free(o);
    return NULL;
  }
  return o;
}

const char *outdir_tmp_path(const outdir *o) {
  g_return_val_if_fail(o != NULL, NULL);
  return o->tmp_path;
}

gboolean outdir_write(outdir *o, const char *name, const char *data, gsize len,
                      GError **error) {
  g_return_val_if_fail(o != NULL && name != NULL && (data != NULL || len == 0), FALSE);
  if (!*name || strchr(name, '/') || strchr(name, G_DIR_SEPARATOR) || strcmp(name, ".") == 0 ||
      strcmp(name, "..") == 0) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME,
                "cannot write '%s' into %s: not a plain file name", name, o->final_path);
    return FALSE;
  }
  char *path = g_build_filename(o->tmp_path, name, NULL);
  GError *local = NULL;
  gboolean ok = g_file_set_contents(path, data ? data : "", (gssize)len, &local);
  if (!ok) {
    char *shown = g_build_filename(o->final_path, name, NULL);
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot write %s: %s", shown,
                local->message);
    g_free(shown);
    g_error_free(local);
  }
  g_free(path);
  return ok;
}

void outdir_abort(outdir *o) {
  if (!o) return;
  GError *error = NULL;
  if (!outdir_remove_tree(o->tmp_path, &error)) {
    g_warning("%s", error->message);
    g_error_free(error);
  }
  outdir_free(o);
}

/* An existing folder may be replaced when it is empty or holds summary.json, which only
 * a sharesim result folder does; a file, a symbolic link or any other folder is refused
 * so that user data is never deleted. */
static gboolean outdir_is_replaceable(const char *path, GError **error) {
  GStatBuf st;
  gboolean ok = FALSE;
  if (g_lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
    char *summary = g_build_filename(path, "summary.json", NULL);
    ok = g_lstat(summary, &st) == 0 && S_ISREG(st.st_mode);
    g_free(summary);
    GDir *dir = ok ? NULL : g_dir_open(path, 0, NULL);
    if (dir) {
      ok = g_dir_read_name(dir) == NULL;
      g_dir_close(dir);
    }
  }
  if (!ok)
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "refusing to replace %s: it exists and is not a sharesim result folder", path);
  return ok;
}

/* Swaps the new folder in for an earlier result: the old one is moved aside to a unique
 * sibling name first (so DIR is never missing a complete result for longer than one
 * rename), then the new one is renamed in, then the old one is removed. */
static gboolean outdir_replace(outdir *o, GError **error) {
  if (!outdir_is_replaceable(o->final_path, error)) return FALSE;
  char *aside_name = g_strdup_printf("%s.old-XXXXXX", o->base);
  char *aside = g_build_filename(o->parent, aside_name, NULL);
  g_free(aside_name);
  gboolean ok = FALSE;
  if (!g_mkdtemp_full(aside, 0700)) {
    int e = errno;
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME,
                "cannot replace %s: cannot create a temporary name in %s: %s", o->final_path,
                o->parent, g_strerror(e));
    goto out;
  }
  /* rename(2) replaces the empty placeholder folder just made. */
  if (g_rename(o->final_path, aside) != 0) {
    int e = errno;
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot move %s aside: %s",
                o->final_path, g_strerror(e));
    g_rmdir(aside);
    goto out;
  }
  if (g_rename(o->tmp_path, o->final_path) != 0) {
    int e = errno;
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot rename %s to %s: %s",
                o->tmp_path, o->final_path, g_strerror(e));
    if (g_rename(aside, o->final_path) != 0)
      g_warning("could not restore %s from %s: %s", o->final_path, aside, g_strerror(errno));
    goto out;
  }
  ok = TRUE;
  GError *local = NULL;
  if (!outdir_remove_tree(aside, &local)) {
    /* The new result is in place; a leftover old copy is worth a warning, not a failure. */
    g_warning("%s", local->message);
    g_error_free(local);
  }
out:
  g_free(aside);
  return ok;
}

gboolean outdir_commit(outdir *o, GError **error) {
  g_return_val_if_fail(o != NULL, FALSE);
  gboolean ok = FALSE;
  GStatBuf st;
  if (g_lstat(o->final_path, &st) == 0) {
    ok = outdir_replace(o, error);
  } else if (errno != ENOENT) {
    int e = errno;
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot check %s: %s",
                o->final_path, g_strerror(e));
  } else if (g_rename(o->tmp_path, o->final_path) == 0) {
    ok = TRUE;
  } else {
    int e = errno;
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot rename %s to %s: %s",
                o->tmp_path, o->final_path, g_strerror(e));
  }
  if (ok)
    outdir_free(o);
  else
    outdir_abort(o);
  return ok;
}
