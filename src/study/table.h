/* table.h: reading back the CSV files of a result folder (pools.csv, timeseries.csv,
 * services.csv, ...) for compare, sweep, size and plot. RFC 4180 (quoted fields with "",
 * CRLF or LF line ends, a leading UTF-8 BOM skipped); the first row is the header and
 * columns are found by name. Cells are kept as text. This is not the trace reader: job
 * traces are read by trace.c only. Result folders can be edited by hand, so nothing here
 * trusts their content: any byte sequence gives rows or an error, never a crash. */
#pragma once
#include <glib.h>

/* Largest cell kept (longer cells are truncated) and most columns per row. */
#define TABLE_MAX_CELL_BYTES (64 * 1024)
#define TABLE_MAX_COLUMNS 4096

/* Called for every data row (not the header) with its cells; cells beyond the row's end
 * are NULL-terminated out (n_cells may differ from the header's width). Return FALSE to
 * stop reading. */
typedef gboolean (*table_row_fn)(const char *const *cells, guint n_cells, gpointer user);

/* Streams path row by row: header into *header_out (owned, NULL-terminated; may be NULL
 * to ignore it), then fn per data row. FALSE with error when the file cannot be read
 * (G_FILE_ERROR, e.g. G_FILE_ERROR_NOENT) or has no header row. */
gboolean table_foreach(const char *path, char ***header_out, table_row_fn fn, gpointer user,
                       GError **error);

/* The whole file in memory (for the small files: pools, tenants, services, gpus,
 * timeseries). Owned by the caller, freed by table_free. */
typedef struct table {
  char **header;        /* NULL-terminated column names */
  guint n_columns;
  GPtrArray *rows;      /* char ** (NULL-terminated, owned), in file order */
} table;

table *table_load(const char *path, GError **error);
void table_free(table *t);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(table, table_free)

/* Index of the column named name, or -1. */
int table_column(const table *t, const char *name);
/* Index of the first column whose name contains part, or -1. */
int table_column_containing(const table *t, const char *part);
/* Cell text ("" when the row is shorter or col is -1). */
const char *table_cell(const table *t, guint row, int col);
/* Cell as a finite number; NAN when empty, not a number, or col is -1. */
double table_number(const table *t, guint row, int col);
