/* interference.c: reads the measured pair-slowdown table (interference.h) into a hash
 * of (label_a, label_b) -> speed. The file is small and its cells are plain tokens, so
 * it is split by lines and commas here; quoted cells are refused with a clear message
 * rather than half-parsed. Knows nothing of strategies. */
#include "interference.h"
#include "util.h"
#include "paths.h"
#include "safeopen.h"
#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

static char *pair_key(const char *a, const char *b) { return g_strdup_printf("%s\x1f%s", a, b); }

static void put(interference_table *t, const char *a, const char *b, double v) {
  double *p = g_new(double, 1);
  *p = v;
  g_hash_table_replace(t->speeds, pair_key(a, b), p);
}

/* How many of the table's column names the header row holds. */
static guint interference_known_columns(char **f, guint n) {
  guint known = 0;
  for (guint i = 0; i < n; i++)
    known += !strcmp(f[i], "label_a") || !strcmp(f[i], "label_b") || !strcmp(f[i], "speed_a") ||
             !strcmp(f[i], "speed_b");
  return known;
}

interference_table *interference_load(const char *path, diag_list *d) {
  return interference_load_in(NULL, path, d);
}

interference_table *interference_load_in(const char *within, const char *path, diag_list *d) {
  g_autofree char *text = NULL;
  gsize len = 0;
  g_autoptr(GError) err = NULL;
  GStatBuf st;
  int fd = paths_open_in(within, path, &err);
  if (fd >= 0 && fstat(fd, &st) == 0 && st.st_size > INTERFERENCE_MAX_FILE_BYTES) {
    close(fd);
    diag_add(d, path, 0, 0, "an interference table is at most %d bytes; this file has %lld",
             INTERFERENCE_MAX_FILE_BYTES, (long long)st.st_size);
    return NULL;
  }
  if (fd < 0 || !safeopen_fd_contents(fd, INTERFERENCE_MAX_FILE_BYTES, &text, &len, &err)) {
    diag_add(d, path, 0, 0, "cannot read the interference table: %s", err->message);
    return NULL;
  }
  if (memchr(text, '\0', len)) {
    diag_add(d, path, 0, 0, "not a text file (it contains a NUL byte)");
    return NULL;
  }
  util_normalize_line_ends(text, &len); /* CR-only and CRLF files count lines as LF */
  guint before = d->count;
  interference_table *t = g_new0(interference_table, 1);
  t->path = g_strdup(path);
  t->speeds = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  int col_a = -1, col_b = -1, col_sa = -1, col_sb = -1;
  guint ncols = 0;
  gboolean have_header = FALSE;
  for (guint ln = 0; lines[ln]; ln++) {
    char *line = lines[ln];
    size_t l = strlen(line);
    if (l && line[l - 1] == '\r') line[--l] = 0;
    if (ln == 0 && (guchar)line[0] == 0xEF && (guchar)line[1] == 0xBB && (guchar)line[2] == 0xBF)
      line += 3;
    if (!*g_strstrip(line)) continue;
    if (strchr(line, '"')) {
      diag_add(d, path, ln + 1, (guint)(strchr(line, '"') - line) + 1,
               "quoted cells are not supported in an interference table; use plain labels");
      continue;
    }
    g_auto(GStrv) f = g_strsplit(line, ",", -1);
    guint n = g_strv_length(f);
    for (guint i = 0; i < n; i++) g_strstrip(f[i]);
    if (!have_header) {
      have_header = TRUE;
      ncols = n;
      if (!interference_known_columns(f, n)) { /* some other file: do not quote it */
        diag_add(d, path, ln + 1, 0, "not an interference table: the first line must name the "
                 "columns label_a, label_b and speed_a (the content is not shown)");
        break;
      }
      for (guint i = 0; i < n; i++) {
        if (!strcmp(f[i], "label_a")) col_a = (int)i;
        else if (!strcmp(f[i], "label_b")) col_b = (int)i;
        else if (!strcmp(f[i], "speed_a")) col_sa = (int)i;
        else if (!strcmp(f[i], "speed_b")) col_sb = (int)i;
        else if (!g_str_has_prefix(f[i], "x_"))
          diag_expected(d, path, ln + 1, i + 1, "header", "label_a, label_b, speed_a or speed_b", f[i]);
      }
      if (col_a < 0 || col_b < 0 || col_sa < 0)
        diag_add(d, path, ln + 1, 0, "the header must name label_a, label_b and speed_a (speed_b optional)");
      if (d->count > before) break;
      continue;
    }
    if (n != ncols) {
      diag_add(d, path, ln + 1, 0, "expected %u fields, found %u", ncols, n);
      continue;
    }
    const char *a = f[col_a], *b = f[col_b];
    if (!*a) diag_expected(d, path, ln + 1, (guint)col_a + 1, "label_a", "a job label or kind", a);
    if (!*b) diag_expected(d, path, ln + 1, (guint)col_b + 1, "label_b", "a job label or kind", b);
    double sa = 0, sb = 0;
    gboolean ok_a = util_parse_double(f[col_sa], &sa) && sa > 0 && sa <= 1.5;
    if (!ok_a)
      diag_expected(d, path, ln + 1, (guint)col_sa + 1, "speed_a", "a speed from 0 (exclusive) to 1.5", f[col_sa]);
    gboolean has_b = col_sb >= 0 && *f[col_sb];
    gboolean ok_b = !has_b || (util_parse_double(f[col_sb], &sb) && sb > 0 && sb <= 1.5);
    if (!ok_b)
      diag_expected(d, path, ln + 1, (guint)col_sb + 1, "speed_b", "a speed from 0 (exclusive) to 1.5", f[col_sb]);
    if (!*a || !*b || !ok_a || !ok_b) continue;
    put(t, a, b, sa);
    if (has_b) put(t, b, a, sb);
  }
  if (!have_header && d->count == before) diag_add(d, path, 0, 0, "empty file: expected a header row");
  if (d->count > before) {
    interference_free(t);
    return NULL;
  }
  return t;
}

void interference_free(interference_table *t) {
  if (!t) return;
  g_hash_table_destroy(t->speeds);
  g_free(t->path);
  g_free(t);
}

gboolean interference_lookup(const interference_table *t, const char *a, const char *b,
                             double *speed_a) {
  g_autofree char *k = pair_key(a, b);
  const double *v = g_hash_table_lookup(t->speeds, k);
  if (!v) return FALSE;
  *speed_a = *v;
  return TRUE;
}
