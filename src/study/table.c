/* table.c: an RFC 4180 reader for the CSV files sharesim itself writes into result
 * folders, streamed byte by byte so that a million-row jobs.csv never sits in memory.
 * It does not read job traces (trace.c does, with libcsv) and applies no schema: callers
 * find columns by name and convert cells themselves. */
#include "table.h"
#include "safeopen.h"
#include <unistd.h>
#include "util.h"
#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct table_row_buf {
  GPtrArray *cells;   /* char*, owned */
  GString *cell;
} table_row_buf;

static void table_row_end_cell(table_row_buf *b) {
  if (b->cells->len < TABLE_MAX_COLUMNS) g_ptr_array_add(b->cells, g_strndup(b->cell->str, b->cell->len));
  g_string_truncate(b->cell, 0);
}

static void table_cell_add(table_row_buf *b, int c) {
  if (c == 0) return; /* NUL bytes cannot live in C strings: dropped */
  if (b->cell->len < TABLE_MAX_CELL_BYTES) g_string_append_c(b->cell, (char)c);
}

/* path opened once through safeopen.h (regular files only); NULL with G_FILE_ERROR. */
static FILE *table_open(const char *path, GError **error) {
  safeopen_status st;
  int e = 0;
  int fd = safeopen_fd(path, NULL, &st, &e);
  FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
  if (!f) {
    if (fd >= 0) close(fd);
    g_set_error(error, G_FILE_ERROR,
                st == SAFEOPEN_NOT_FOUND ? G_FILE_ERROR_NOENT : G_FILE_ERROR_FAILED,
                "cannot read %s: %s", path, safeopen_reason(st, e));
  }
  return f;
}

gboolean table_foreach(const char *path, char ***header_out, table_row_fn fn, gpointer user,
                       GError **error) {
  g_return_val_if_fail(path != NULL, FALSE);
  if (header_out) *header_out = NULL;
  FILE *f = table_open(path, error);
  if (!f) return FALSE;
  table_row_buf b = {g_ptr_array_new_with_free_func(g_free), g_string_new(NULL)};
  char **header = NULL;
  gboolean quoted = FALSE, after_quote = FALSE, row_has_data = FALSE, stop = FALSE;
  /* bytes read ahead and given back (the BOM check needs three) */
  int back[3], n_back = 0;
  int first[3] = {getc(f), EOF, EOF};
  if (first[0] == 0xEF) {
    first[1] = getc(f);
    first[2] = first[1] == EOF ? EOF : getc(f);
  }
  if (!(first[0] == 0xEF && first[1] == 0xBB && first[2] == 0xBF))
    for (int i = 2; i >= 0; i--)
      if (first[i] != EOF) back[n_back++] = first[i];
  int c;
#define TABLE_GETC() (n_back ? back[--n_back] : getc(f))
#define TABLE_UNGETC(ch) (back[n_back++] = (ch))
  /* A row ends at LF (a CR before it is dropped) or at the end of the file. */
  for (;;) {
    c = TABLE_GETC();
    if (c != EOF && quoted) {
      if (c == '"') {
        int n = TABLE_GETC();
        if (n == '"') {
          table_cell_add(&b, '"');
        } else {
          quoted = FALSE;
          after_quote = TRUE;
          if (n != EOF) TABLE_UNGETC(n);
        }
      } else {
        table_cell_add(&b, c);
      }
      continue;
    }
    if (c == EOF || c == '\n') {
      if (row_has_data || b.cell->len || b.cells->len) {
        table_row_end_cell(&b);
        if (!header) {
          g_ptr_array_add(b.cells, NULL);
          header = (char **)g_ptr_array_steal(b.cells, NULL);
        } else if (fn) {
          g_ptr_array_add(b.cells, NULL);
          if (!fn((const char *const *)b.cells->pdata, b.cells->len - 1, user)) stop = TRUE;
          g_ptr_array_set_size(b.cells, 0);
        } else {
          g_ptr_array_set_size(b.cells, 0);
        }
      }
      row_has_data = after_quote = FALSE;
      if (c == EOF || stop) break;
      continue;
    }
    if (c == '\r') {
      int n = TABLE_GETC();
      if (n != EOF) TABLE_UNGETC(n);
      if (n == '\n' || n == EOF) continue;
    }
    row_has_data = TRUE;
    if (c == ',') {
      table_row_end_cell(&b);
      after_quote = FALSE;
    } else if (c == '"' && b.cell->len == 0 && !after_quote) {
      quoted = TRUE;
    } else {
      table_cell_add(&b, c);
    }
  }
#undef TABLE_GETC
#undef TABLE_UNGETC
  gboolean read_error = ferror(f) != 0;
  fclose(f);
  g_ptr_array_free(b.cells, TRUE);
  g_string_free(b.cell, TRUE);
  if (read_error) {
    g_strfreev(header);
    g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_IO, "cannot read %s: read error", path);
    return FALSE;
  }
  if (!header) {
    g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: empty file (no header row)", path);
    return FALSE;
  }
  if (header_out)
    *header_out = header;
  else
    g_strfreev(header);
  return TRUE;
}

static gboolean table_collect(const char *const *cells, guint n_cells, gpointer user) {
  table *t = user;
  char **row = g_new0(char *, n_cells + 1);
  for (guint i = 0; i < n_cells; i++) row[i] = g_strdup(cells[i]);
  g_ptr_array_add(t->rows, row);
  return TRUE;
}

table *table_load(const char *path, GError **error) {
  table *t = g_new0(table, 1);
  t->rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
  if (!table_foreach(path, &t->header, table_collect, t, error)) {
    table_free(t);
    return NULL;
  }
  t->n_columns = g_strv_length(t->header);
  return t;
}

void table_free(table *t) {
  if (!t) return;
  g_strfreev(t->header);
  if (t->rows) g_ptr_array_free(t->rows, TRUE);
  g_free(t);
}

int table_column(const table *t, const char *name) {
  for (guint i = 0; t && name && i < t->n_columns; i++)
    if (!strcmp(t->header[i], name)) return (int)i;
  return -1;
}

int table_column_containing(const table *t, const char *part) {
  for (guint i = 0; t && part && i < t->n_columns; i++)
    if (strstr(t->header[i], part)) return (int)i;
  return -1;
}

const char *table_cell(const table *t, guint row, int col) {
  if (!t || col < 0 || row >= t->rows->len) return "";
  char **r = g_ptr_array_index(t->rows, row);
  for (int i = 0; i < col; i++)
    if (!r[i]) return "";
  return r[col] ? r[col] : "";
}

double table_number(const table *t, guint row, int col) {
  double v;
  const char *s = table_cell(t, row, col);
  if (!*s || !util_parse_double(s, &v) || !isfinite(v)) return NAN;
  return v;
}
