/* cmd-sql.c: --sqlite FILE (cmd-sql.h): the database begun before a command's work and
 * filled from its finished result folder, walked in a fixed order (names in byte order),
 * so that the file is the same whatever -j ran the runs. */
#include "cmd-sql.h"
#include "cmd.h"
#include "figures.h"
#include "safeopen.h"
#include "util.h"
#include <string.h>
#include <sys/stat.h>

report_sql *cmd_sql_begin(const char *name, const char *path, const char *out_dir, int *rc) {
  *rc = 0;
  if (!path) return NULL;
  g_autoptr(GError) err = NULL;
  if (out_dir) {
    g_autofree char *dir = g_canonicalize_filename(out_dir, NULL);
    g_autofree char *file = g_canonicalize_filename(path, NULL);
    gsize n = strlen(dir);
    if (!strncmp(file, dir, n) && (file[n] == '/' || file[n] == '\0')) {
      g_set_error(&err, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                  "--sqlite %s: the database cannot go inside the result folder %s (the "
                  "folder is replaced whole): choose a file outside it", path, out_dir);
      *rc = cmd_fail(name, err);
      return NULL;
    }
  }
  report_sql *s = report_sql_begin(path, &err);
  if (!s) *rc = cmd_fail(name, err);
  return s;
}

static gint sql_name_cmp(gconstpointer a, gconstpointer b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The folder dir, FOLDER under the root ("." for the root), and what it holds. */
static gboolean sql_walk(report_sql *s, const char *dir, const char *folder, guint depth,
                         GError **error) {
  g_autofree char *summary = g_build_filename(dir, "summary.json", NULL);
  if (g_file_test(summary, G_FILE_TEST_IS_REGULAR)) {
    /* summary.json alone: the scenario and seed (figures_load would read services.csv too) */
    g_autofree char *json = NULL;
    gsize len = 0;
    if (!safeopen_contents(summary, 64u << 20, &json, &len, error)) return FALSE;
    g_autoptr(run_figures) f = figures_parse(dir, json, len, error);
    return f && report_sql_run_folder(s, dir, folder, f->scenario, (gint64)f->seed, error);
  }
  g_autoptr(GDir) d = g_dir_open(dir, 0, error);
  if (!d) return FALSE;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
  for (const char *n; (n = g_dir_read_name(d)) != NULL;)
    if (n[0] != '.' && strcmp(n, "plots") != 0) g_ptr_array_add(names, g_strdup(n));
  g_ptr_array_sort(names, sql_name_cmp);
  for (int pass = 0; pass < 2; pass++) { /* the folder's own tables, then its subfolders */
    for (guint i = 0; i < names->len; i++) {
      const char *n = g_ptr_array_index(names, i);
      g_autofree char *path = g_build_filename(dir, n, NULL);
      struct stat st;
      if (lstat(path, &st) != 0) continue;
      g_autofree char *sub = strcmp(folder, ".") ? g_build_filename(folder, n, NULL) : g_strdup(n);
      if (pass == 0 && S_ISREG(st.st_mode) && g_str_has_suffix(n, ".csv")) {
        g_autofree char *table = report_sql_table_name(n);
        if (!report_sql_csv(s, table, path, folder, NULL, -1, error)) return FALSE;
      } else if (pass == 1 && S_ISDIR(st.st_mode) && depth < 8 &&
                 !sql_walk(s, path, sub, depth + 1, error)) {
        return FALSE;
      }
    }
  }
  return TRUE;
}

int cmd_sql_add(const char *name, report_sql *s, const char *dir, const char *folder) {
  g_autoptr(GError) err = NULL;
  return !s || sql_walk(s, dir, folder, 0, &err) ? 0 : cmd_fail(name, err);
}

int cmd_sql_finish(const char *name, report_sql *s, const char *root) {
  if (!s) return 0;
  g_autoptr(GError) err = NULL;
  if (root && !sql_walk(s, root, ".", 0, &err)) {
    report_sql_abort(s);
    return cmd_fail(name, err);
  }
  return report_sql_commit(s, &err) ? 0 : cmd_fail(name, err);
}
