/* inv-csv.c: a small CSV reader for the invariant suite (result files only: quoted cells,
 * LF or CRLF line ends). Cells are looked up by header name, so new columns do not break
 * the checks. */
#include "invariants.h"
#include <math.h>

static void inv_row_end(inv_table *t, GPtrArray **row, GString *cell) {
  g_ptr_array_add(*row, g_strdup(cell->str));
  g_string_truncate(cell, 0);
  if (!t->header) t->header = *row;
  else g_ptr_array_add(t->rows, *row);
  *row = g_ptr_array_new_with_free_func(g_free);
}

inv_table *inv_table_load(const char *path, GError **error) {
  g_autofree char *text = NULL;
  gsize len = 0;
  if (!g_file_get_contents(path, &text, &len, error)) return NULL;
  inv_table *t = g_new0(inv_table, 1);
  t->rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
  GPtrArray *row = g_ptr_array_new_with_free_func(g_free);
  GString *cell = g_string_new(NULL);
  gboolean quoted = FALSE, any = FALSE;
  for (gsize i = 0; i < len; i++) {
    char ch = text[i];
    if (quoted) {
      if (ch == '"' && i + 1 < len && text[i + 1] == '"') g_string_append_c(cell, text[++i]);
      else if (ch == '"') quoted = FALSE;
      else g_string_append_c(cell, ch);
      continue;
    }
    if (ch == '"') {
      quoted = TRUE;
    } else if (ch == ',') {
      g_ptr_array_add(row, g_strdup(cell->str));
      g_string_truncate(cell, 0);
    } else if (ch == '\n') {
      inv_row_end(t, &row, cell);
      any = FALSE;
      continue;
    } else if (ch != '\r') {
      g_string_append_c(cell, ch);
    }
    any = TRUE;
  }
  if (any) inv_row_end(t, &row, cell);
  g_ptr_array_unref(row);
  g_string_free(cell, TRUE);
  if (!t->header) t->header = g_ptr_array_new_with_free_func(g_free);
  return t;
}

void inv_table_free(inv_table *t) {
  if (!t) return;
  g_ptr_array_unref(t->header);
  g_ptr_array_unref(t->rows);
  g_free(t);
}

int inv_col(const inv_table *t, const char *name) {
  for (guint i = 0; i < t->header->len; i++)
    if (!strcmp(g_ptr_array_index(t->header, i), name)) return (int)i;
  return -1;
}

guint inv_rows(const inv_table *t) { return t->rows->len; }

/* A result CSV begins with scenario and seed (docs/outputs.md): its key (id, tenant, pool)
 * is the first column after them; another table's is its first. */
const char *inv_key(const inv_table *t, guint row) {
  int k = inv_col(t, "scenario") == 0 && inv_col(t, "seed") == 1 ? 2 : 0;
  return inv_cell(t, row, k);
}

const char *inv_cell(const inv_table *t, guint row, int col) {
  if (col < 0 || row >= t->rows->len) return "";
  GPtrArray *r = g_ptr_array_index(t->rows, row);
  return (guint)col < r->len ? g_ptr_array_index(r, col) : "";
}

double inv_num(const inv_table *t, guint row, int col) {
  const char *s = inv_cell(t, row, col);
  if (!*s) return NAN;
  char *end = NULL;
  double v = g_ascii_strtod(s, &end);
  return end && *end == '\0' ? v : NAN;
}
