/* paths.c: where a path written in a scenario may point (paths.h): resolution against the
 * scenario's folder, a lexical check (no "..", no absolute path leaving the folders) before
 * anything is opened, then the same check on the real path (symbolic links) and the open
 * itself by descriptor (safeopen.h), so what is read is what was checked. It parses no
 * file content; the readers of each format do. */
#include "paths.h"
#include "util.h"
#include "safeopen.h"
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* --allow-path folders: lexical (absolute, normalised) and real (canonical) forms, each
 * NULL-terminated */
static GPtrArray *paths_extra_lex, *paths_extra_real;

static char *paths_lexical(const char *path);

static void paths_push(GPtrArray **a, char *dir) {
  if (!*a) {
    *a = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(*a, NULL);
  }
  g_ptr_array_insert(*a, (gint)(*a)->len - 1, dir);
}

gboolean paths_allow(const char *dir, GError **error) {
  char *real = realpath(dir, NULL);
  if (!real || !g_file_test(real, G_FILE_TEST_IS_DIR)) {
    int e = errno;
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "--allow-path %s: expected an existing folder%s%s", dir, real ? "" : ": ",
                real ? "" : g_strerror(e));
    free(real);
    return FALSE;
  }
  paths_push(&paths_extra_real, g_strdup(real));
  paths_push(&paths_extra_lex, paths_lexical(dir));
  free(real);
  return TRUE;
}

void paths_allow_reset(void) {
  g_clear_pointer(&paths_extra_lex, g_ptr_array_unref);
  g_clear_pointer(&paths_extra_real, g_ptr_array_unref);
}

const char *const *paths_allowed(void) {
  static const char *const none[] = {NULL};
  return paths_extra_real ? (const char *const *)paths_extra_real->pdata : none;
}

static const char *const *paths_allowed_lexical(void) {
  static const char *const none[] = {NULL};
  return paths_extra_lex ? (const char *const *)paths_extra_lex->pdata : none;
}
/* An absolute path with ".", ".." and repeated "/" removed, without asking the file
 * system (".." above "/" stays at "/"). Owned. */
static char *paths_lexical(const char *path) {
  g_autofree char *cwd = g_path_is_absolute(path) ? NULL : g_get_current_dir();
  g_autofree char *abs = cwd ? g_build_filename(cwd, path, NULL) : g_strdup(path);
  g_auto(GStrv) parts = g_strsplit(abs, "/", -1);
  GPtrArray *keep = g_ptr_array_new();
  for (guint i = 0; parts[i]; i++) {
    if (!*parts[i] || !strcmp(parts[i], ".")) continue;
    if (!strcmp(parts[i], "..")) {
      if (keep->len) g_ptr_array_remove_index(keep, keep->len - 1);
      continue;
    }
    g_ptr_array_add(keep, parts[i]);
  }
  g_ptr_array_add(keep, NULL);
  g_autofree char *joined = g_strjoinv("/", (char **)keep->pdata);
  g_ptr_array_free(keep, TRUE);
  return g_strconcat("/", joined, NULL);
}

/* TRUE when path equals folder or lies below it (both absolute and normalised). */
static gboolean paths_under(const char *path, const char *folder) {
  size_t n = strlen(folder);
  if (n == 1 && folder[0] == '/') return TRUE;
  return !strncmp(path, folder, n) && (path[n] == '/' || path[n] == 0);
}

/* TRUE when path is under base or an allowed folder, all in lexical or all in real form. */
static gboolean paths_inside(const char *path, const char *base, gboolean real) {
  g_autofree char *b = NULL;
  if (real) {
    char *r = realpath(base, NULL);
    b = r ? g_strdup(r) : NULL;
    free(r);
  } else {
    b = paths_lexical(base);
  }
  if (b && paths_under(path, b)) return TRUE;
  for (const char *const *a = real ? paths_allowed() : paths_allowed_lexical(); *a; a++)
    if (paths_under(path, *a)) return TRUE;
  return FALSE;
}

/* The canonical forms of base and the allowed folders, NULL-terminated (owned). */
static GPtrArray *paths_real_folders(const char *base) {
  GPtrArray *a = g_ptr_array_new_with_free_func(g_free);
  char *r = realpath(base, NULL);
  if (r) g_ptr_array_add(a, g_strdup(r));
  free(r);
  for (const char *const *x = paths_allowed(); *x; x++) g_ptr_array_add(a, g_strdup(*x));
  g_ptr_array_add(a, NULL);
  return a;
}

/* paths_open of full, already resolved against base_dir. */
static int paths_open_resolved(const char *base_dir, const char *full, paths_status *st) {
  g_autofree char *lex = paths_lexical(full);
  if (!paths_inside(lex, base_dir, FALSE)) {
    *st = PATHS_OUTSIDE;
    return -1;
  }
  GPtrArray *under = paths_real_folders(base_dir);
  safeopen_status ss;
  int err = 0;
  int fd = safeopen_fd(full, (const char *const *)under->pdata, &ss, &err);
  g_ptr_array_unref(under);
  *st = ss == SAFEOPEN_OK                                     ? PATHS_OK
        : ss == SAFEOPEN_OUTSIDE || ss == SAFEOPEN_CHANGED    ? PATHS_LINK_OUTSIDE
        : ss == SAFEOPEN_NOT_REGULAR                          ? PATHS_NOT_REGULAR
                                                              : PATHS_NOT_FOUND;
  return fd;
}

int paths_open(const char *base_dir, const char *p, char **out, paths_status *st) {
  *out = g_path_is_absolute(p) || !strcmp(base_dir, ".") ? g_strdup(p)
                                                         : g_build_filename(base_dir, p, NULL);
  return paths_open_resolved(base_dir, *out, st);
}

paths_status paths_confine(const char *base_dir, const char *p, char **out) {
  paths_status st;
  int fd = paths_open(base_dir, p, out, &st);
  if (fd >= 0) close(fd);
  return st;
}

int paths_open_in(const char *base_dir, const char *path, GError **error) {
  if (!base_dir) return safeopen_read_fd(path, error);
  paths_status st;
  int fd = paths_open_resolved(base_dir, path, &st);
  if (fd < 0)
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT, "%s",
                st == PATHS_NOT_FOUND     ? g_strerror(ENOENT)
                : st == PATHS_NOT_REGULAR ? "not a regular file"
                                          : "outside the scenario's folder (it is not read)");
  return fd;
}

char *paths_where(const char *base_dir) {
  g_autofree char *b = paths_lexical(base_dir);
  return g_strdup_printf("the scenario's folder %s%s", b,
                         *paths_allowed() ? " or a folder given with --allow-path" : "");
}
