/* csvread.h: the streaming CSV reader every CSV input goes through (the trace, phases and
 * requests of trace.c, the importers' files): libcsv fed one physical line at a time, so
 * that every row and cell has its 1-based line; BOM, CRLF and CR line ends, quoted cells
 * over several lines, cells trimmed, at most CSVREAD_MAX_COLUMNS cells of at most
 * CSVREAD_MAX_CELL_BYTES each. Malformed quoting and over-long cells are reported, the
 * row is dropped and reading resumes on the next line. csvread.c is the only file that
 * includes csv.h. */
#pragma once
#include <glib.h>
#include "diag.h"

#define CSVREAD_MAX_COLUMNS 1024u
#define CSVREAD_MAX_CELL_BYTES 1048576 /* one cell */

/* ---- rows checked against a header (trace.c's readers) ---------------------------------
 * The first row is the header (its names in header); every other row with as many cells
 * reaches on_row, the others are reported (file:line) and skipped. on_row sets stop to end
 * the reading. The fields below are for the row callback to read; the rest is the
 * reader's. */
typedef struct csvread csvread;
typedef void (*csvread_fn)(csvread *in, void *ud);

struct csvread {
  const char *path;
  diag_list *diags;
  struct csv_parser *parser; /* libcsv's state (csvread.c) */
  guint64 line;         /* physical line being fed, 1-based (counts LF, CR and CRLF) */
  gboolean after_cr;    /* the last byte fed was a CR (its LF, if any, is the same line end) */
  guint64 row_line;     /* line where the current row began; 0 = no row yet */
  guint64 cur_line;     /* line of the row being delivered */
  guint64 rows;         /* rows delivered, the header included */
  char *buf;            /* the current row's stored cells, each NUL-terminated */
  gsize buf_len, buf_cap;
  gsize *offs;          /* start of each stored cell in buf */
  guint *lens;          /* its length (the cell's bytes, trimmed once delivered) */
  guint n_stored, offs_cap;
  guint nfields;        /* cells in the current row, stored or not */
  guint max_store;      /* cells stored per row; the rest are only counted */
  guint nul_col;        /* first cell holding a NUL byte (1-based), 0 = none */
  gboolean is_header;   /* the row being delivered is the header */
  gboolean header_bad;  /* the header could not be read: nothing else is */
  gboolean skip_line;   /* after a malformed cell: ignore the rest of the line */
  gboolean stop;        /* no more rows wanted */
  char **header;        /* column names, NULL-terminated */
  guint ncols;
  csvread_fn on_row;
  void *ud;
  /* Raw mode (csvread_foreach): every row, the header included, goes to on_row as it
   * is; rows that cannot be split go there too, with raw_error set, instead of diags. */
  gboolean raw;
  gboolean raw_no_header;  /* raw: the first row is data, not a header */
  const char *raw_error;   /* raw: why the row being delivered could not be read */
};

void csvread_init(csvread *in, const char *path, diag_list *diags, csvread_fn on_row, void *ud);
/* Reads the whole file (or until in->stop). FALSE when it could not be opened or read
 * (one diag "file: cannot open: <reason>"); problems in the content are only diags. */
gboolean csvread_run(csvread *in);
void csvread_clear(csvread *in);
/* The line of the row being delivered (clamped to G_MAXUINT). */
static inline guint csvread_clamp_line(guint64 line) {
  return line > G_MAXUINT ? G_MAXUINT : (guint)line;
}
static inline guint csvread_line(const csvread *in) { return csvread_clamp_line(in->cur_line); }
/* Cell i (0-based) of the row being delivered, trimmed; borrowed for the call. */
static inline const char *csvread_cell(const csvread *in, guint i) {
  return in->buf + in->offs[i];
}
/* The header's name of 1-based column col, "extra field" past it, "header" before it. */
const char *csvread_col_name(const csvread *in, guint col);

/* ---- raw rows (the importers) ----------------------------------------------------------
 * Reads any CSV file one row at a time in bounded memory with the same reader, and hands
 * every row to cb, the header row included (header TRUE), without checking columns: the
 * importer maps them. A row that cannot be split (broken quoting, an over-long cell, a NUL
 * byte, too many cells) is delivered with error set (a message without the file:line
 * prefix) and no cells; reading then resumes on the next line. cb returns FALSE to stop.
 * Returns FALSE only when the file cannot be opened or read (one diag); an empty file
 * delivers no rows. */
typedef struct csvread_row {
  const char *path;
  guint line;                 /* where the row starts, 1-based */
  gboolean header;            /* the first row, unless CSVREAD_NO_HEADER */
  const char *error;          /* NULL, or why the row could not be read */
  guint n;                    /* cells */
  const char *const *cells;   /* borrowed for the call */
} csvread_row;
typedef gboolean (*csvread_row_fn)(const csvread_row *row, void *ud);
#define CSVREAD_NO_HEADER 1u
gboolean csvread_foreach(const char *path, guint flags, csvread_row_fn cb, void *ud,
                         diag_list *diags);

/* ---- libcsv's own callbacks, for a reader that picks cells as they come ----------------
 * (trace.c's request cursor: one job's rows out of a large file). A strict parser whose
 * cells are NUL-terminated and at most CSVREAD_MAX_CELL_BYTES; field gets each cell (NULL
 * for an empty one), row each row end, with ud. */
typedef struct csvread_stream csvread_stream;
csvread_stream *csvread_stream_new(void (*field)(void *cell, size_t len, void *ud),
                                   void (*row)(int term, void *ud), void *ud);
/* Parses len bytes; FALSE when the input is malformed (or a cell too long). */
gboolean csvread_stream_feed(csvread_stream *s, const char *buf, size_t len);
/* Ends the input; FALSE on an unterminated quoted cell. */
gboolean csvread_stream_finish(csvread_stream *s);
void csvread_stream_free(csvread_stream *s);
