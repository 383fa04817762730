/* csvread.c: the line-tracking CSV reader on top of libcsv (csvread.h): the input is fed
 * one physical line (up to and including its LF, CR or CRLF) at a time, so every callback
 * happens on the line being fed; a row starts on the first line that holds something other
 * than blanks. The only file that includes csv.h; it knows no column of any format. */
#include "csvread.h"
#include "safeopen.h"
#include <csv.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define CSVREAD_CHUNK (1u << 20)



const char *csvread_col_name(const csvread *in, guint col) {
  if (in->header && col >= 1 && col <= in->ncols) return in->header[col - 1];
  return in->header ? "extra field" : "header";
}

/* libcsv grows a cell's buffer through this; refusing makes csv_parse stop with
 * CSV_ENOMEM, which is how a cell longer than CSVREAD_MAX_CELL_BYTES is caught before it
 * can eat the memory. */
static void *csvread_realloc(void *ptr, size_t size) {
  if (size > CSVREAD_MAX_CELL_BYTES) return NULL;
  return realloc(ptr, size);
}

static void csvread_parser_init(csvread *in) {
  csv_init(in->parser, CSV_STRICT | CSV_STRICT_FINI);
  csv_set_realloc_func(in->parser, csvread_realloc);
  csv_set_blk_size(in->parser, 4096);
}

static void csvread_clear_row(csvread *in) {
  in->buf_len = 0;
  in->n_stored = 0;
  in->nfields = 0;
  in->nul_col = 0;
  in->row_line = 0;
}

void csvread_init(csvread *in, const char *path, diag_list *diags, csvread_fn on_row,
                  void *ud) {
  memset(in, 0, sizeof *in);
  in->parser = g_new0(struct csv_parser, 1);
  in->path = path;
  in->diags = diags;
  in->buf_cap = 256;
  in->buf = g_malloc(in->buf_cap);
  in->offs_cap = 32;
  in->offs = g_new(gsize, in->offs_cap);
  in->lens = g_new(guint, in->offs_cap);
  in->max_store = CSVREAD_MAX_COLUMNS;
  in->on_row = on_row;
  in->ud = ud;
  in->line = 1;
}

void csvread_clear(csvread *in) {
  g_free(in->parser);
  g_free(in->buf);
  g_free(in->offs);
  g_free(in->lens);
  g_strfreev(in->header);
}

static void csvread_on_field(void *s, size_t len, void *data) {
  csvread *in = data;
  if (in->stop) return;
  if (!in->row_line) in->row_line = in->line;
  if (in->nfields < G_MAXUINT) in->nfields++;
  if (in->nfields > in->max_store) return;
  if (in->n_stored == in->offs_cap) {
    in->offs_cap *= 2;
    in->offs = g_renew(gsize, in->offs, in->offs_cap);
    in->lens = g_renew(guint, in->lens, in->offs_cap);
  }
  if (in->buf_len + len + 1 > in->buf_cap) {
    while (in->buf_len + len + 1 > in->buf_cap) in->buf_cap *= 2;
    in->buf = g_realloc(in->buf, in->buf_cap);
  }
  in->offs[in->n_stored] = in->buf_len;
  in->lens[in->n_stored++] = (guint)len; /* a cell is at most CSVREAD_MAX_CELL_BYTES */
  char *d = in->buf + in->buf_len;
  const unsigned char *src = s;
  if (len <= 16) { /* most cells: copied and checked for NUL bytes in one go */
    unsigned char all = 0xff;
    for (size_t i = 0; i < len; i++) {
      d[i] = (char)src[i];
      all &= src[i] ? 0xff : 0;
    }
    if (!all && !in->nul_col) in->nul_col = in->nfields;
  } else {
    if (!in->nul_col && memchr(s, 0, len)) in->nul_col = in->nfields;
    memcpy(d, s, len);
  }
  d[len] = 0;
  in->buf_len += len + 1;
}

/* Cells are compared and parsed without the blanks around them (libcsv already drops
 * them around unquoted cells; this also trims quoted ones). */
static void csvread_trim_cells(csvread *in) {
  for (guint i = 0; i < in->n_stored; i++) {
    char *s = in->buf + in->offs[i];
    /* a cell with a NUL byte is text up to its first NUL (as C reads it) */
    char *e = s + (in->nul_col ? strlen(s) : in->lens[i]);
    if (e > s && g_ascii_isspace(e[-1])) {
      while (e > s && g_ascii_isspace(e[-1])) e--;
      *e = 0;
    }
    while (g_ascii_isspace(*s)) s++;
    in->offs[i] = (gsize)(s - in->buf);
    in->lens[i] = (guint)(e - s);
  }
}

static void csvread_deliver_raw(csvread *in);

static void csvread_deliver(csvread *in) {
  in->cur_line = in->row_line ? in->row_line : in->line;
  in->rows++;
  csvread_trim_cells(in);
  if (in->raw) {
    csvread_deliver_raw(in);
    return;
  }
  if (in->rows == 1) {
    if (in->nfields > CSVREAD_MAX_COLUMNS) {
      diag_add(in->diags, in->path, csvread_line(in), 0,
               "header: expected at most %u columns, found %u", CSVREAD_MAX_COLUMNS, in->nfields);
      in->header_bad = in->stop = TRUE;
      return;
    }
    if (in->nul_col) {
      diag_expected(in->diags, in->path, csvread_line(in), in->nul_col, "header",
                    "column names without NUL bytes", csvread_cell(in, in->nul_col - 1));
      in->header_bad = in->stop = TRUE;
      return;
    }
    in->ncols = in->nfields;
    in->header = g_new0(char *, in->ncols + 1);
    for (guint i = 0; i < in->ncols; i++) in->header[i] = g_strdup(csvread_cell(in, i));
    in->max_store = in->ncols;
    in->is_header = TRUE;
    in->on_row(in, in->ud);
    in->is_header = FALSE;
    return;
  }
  if (in->nfields != in->ncols) {
    diag_add(in->diags, in->path, csvread_line(in), 0,
             "expected %u fields as in the header, found %u", in->ncols, in->nfields);
    return;
  }
  if (in->nul_col) {
    diag_expected(in->diags, in->path, csvread_line(in), in->nul_col,
                  csvread_col_name(in, in->nul_col), "text without NUL bytes",
                  csvread_cell(in, in->nul_col - 1));
    return;
  }
  in->on_row(in, in->ud);
}

static void csvread_on_row(int c, void *data) {
  csvread *in = data;
  (void)c;
  if (!in->stop) csvread_deliver(in);
  csvread_clear_row(in);
}

/* Reports the cell libcsv stopped in, drops the row and starts a fresh parser. */
static void csvread_malformed(csvread *in, const char *expected) {
  guint64 line = in->row_line ? in->row_line : in->line;
  guint col = in->nfields < G_MAXUINT ? in->nfields + 1 : G_MAXUINT;
  size_t n = MIN(in->parser->entry_pos, (size_t)100);
  g_autofree char *found = in->parser->entry_buf ? g_strndup((const char *)in->parser->entry_buf, n)
                                                : g_strdup("");
  if (in->raw) {
    g_autofree char *esc = g_strescape(found, NULL);
    if (strlen(esc) > 80) strcpy(esc + 77, "...");
    g_autofree char *msg =
        g_strdup_printf("column %u: expected %s, found '%s'", col, expected, esc);
    csvread_clear_row(in);
    in->cur_line = line;
    in->rows++;
    in->raw_error = msg;
    in->on_row(in, in->ud);
    in->raw_error = NULL;
  } else {
    diag_expected(in->diags, in->path, csvread_clamp_line(line), col, csvread_col_name(in, col), expected,
                  found);
    if (in->rows == 0) in->header_bad = in->stop = TRUE;
  }
  csv_free(in->parser);
  csvread_parser_init(in);
  csvread_clear_row(in);
}

static const char *const csvread_bad_quote =
    "a cell quoted as a whole (\"...\", with \"\" for a quote inside it)";

static void csvread_feed(csvread *in, const char *s, size_t len) {
  if (in->skip_line || in->stop) return;
  if (!in->row_line) {
    for (size_t i = 0; i < len; i++) {
      char c = s[i];
      if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
        in->row_line = in->line;
        break;
      }
    }
  }
  size_t done = csv_parse(in->parser, s, len, csvread_on_field, csvread_on_row, in);
  int st = csv_error(in->parser);
  if (done < len || st != CSV_SUCCESS) {
    csvread_malformed(in, st == CSV_EPARSE ? csvread_bad_quote
                                         : "a cell shorter than 1 MiB (1048576 bytes)");
    in->skip_line = TRUE;
  }
}

/* A file whose first byte past blanks opens a JSON object or list is no CSV: one message
 * that says so and where such files go (a Prometheus export is read by `import dcgm`, a
 * JSON-lines request log by `import mooncake`), instead of a quoting error. Not in raw
 * mode: the importers read their own formats. */
static gboolean csvread_is_json(csvread *in, const char *s, const char *end) {
  while (s < end && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')) s++;
  if (in->raw || s == end || (*s != '{' && *s != '[')) return FALSE;
  diag_add(in->diags, in->path, 1, 1,
           "expected a CSV file with a header row, found JSON ('%c'); a Prometheus export of "
           "DCGM metrics becomes a trace with `sharesim import dcgm FILE -o trace.csv`, a "
           "JSON-lines request log with `sharesim import mooncake` (docs/traces.md)", *s);
  in->header_bad = in->stop = TRUE;
  return TRUE;
}

gboolean csvread_run(csvread *in) {
  g_autoptr(GError) oerr = NULL;
  FILE *f = safeopen_fopen(in->path, &oerr);
  if (!f) {
    diag_add(in->diags, in->path, 0, 0, "cannot open: %s", oerr->message);
    return FALSE;
  }
  csvread_parser_init(in);
  /* a file smaller than a chunk is read in one piece of its own size (plus one byte, to see
   * its end): the same pieces as with a full chunk, without a megabyte per small file */
  struct stat st;
  size_t cap = CSVREAD_CHUNK;
  if (fstat(fileno(f), &st) == 0 && st.st_size >= 0 && (guint64)st.st_size < CSVREAD_CHUNK)
    cap = (size_t)st.st_size + 1;
  char *chunk = g_malloc(cap);
  gboolean first = TRUE;
  int read_errno = 0;
  while (!in->stop) {
    size_t n = fread(chunk, 1, cap, f);
    if (n == 0) {
      if (ferror(f)) read_errno = errno ? errno : EIO;
      break;
    }
    const char *s = chunk, *end = chunk + n;
    if (first) {
      first = FALSE;
      if (n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0) s += 3; /* UTF-8 byte order mark */
      if (csvread_is_json(in, s, end)) break;
    }
    while (s < end && !in->stop) {
      /* a line ends at LF, CR or CRLF: the LF of a CRLF (even across chunks) adds no line */
      const char *nl = memchr(s, '\n', (size_t)(end - s));
      const char *cr = memchr(s, '\r', (size_t)((nl ? nl : end) - s));
      const char *brk = cr ? cr : nl;
      const char *seg_end = brk ? brk + 1 : end;
      csvread_feed(in, s, (size_t)(seg_end - s));
      if (brk && !(*brk == '\n' && brk == s && in->after_cr)) {
        in->line++;
        in->skip_line = FALSE;
      }
      in->after_cr = brk == seg_end - 1 && *brk == '\r';
      s = seg_end;
    }
  }
  gboolean ok = TRUE;
  if (read_errno) {
    diag_add(in->diags, in->path, 0, 0, "cannot read: %s", g_strerror(read_errno));
    ok = FALSE;
  } else if (!in->stop && !in->skip_line) {
    if (csv_fini(in->parser, csvread_on_field, csvread_on_row, in) != 0)
      csvread_malformed(in, "a closing double quote before the end of the file");
  }
  csv_free(in->parser);
  fclose(f);
  g_free(chunk);
  return ok;
}

/* ---- raw rows for importers (csvread_foreach) ---- */

typedef struct csv_raw {
  csvread_row_fn cb;
  void *ud;
  GPtrArray *cells;  /* const char* into in->buf, rebuilt per row */
} csv_raw;

static void csvread_deliver_raw(csvread *in) {
  csv_raw *r = in->ud;
  g_ptr_array_set_size(r->cells, 0);
  g_autofree char *err = NULL;
  if (in->nfields > in->max_store)
    err = g_strdup_printf("expected at most %u cells, found %u", CSVREAD_MAX_COLUMNS, in->nfields);
  else if (in->nul_col)
    err = g_strdup_printf("column %u: expected text without NUL bytes", in->nul_col);
  else
    for (guint i = 0; i < in->n_stored; i++) g_ptr_array_add(r->cells, (gpointer)csvread_cell(in, i));
  in->raw_error = err;
  in->on_row(in, in->ud);
  in->raw_error = NULL;
}

static void csvread_raw_row(csvread *in, void *ud) {
  csv_raw *r = ud;
  csvread_row row = {
      .path = in->path,
      .line = csvread_line(in),
      .header = in->rows == 1 && !in->raw_no_header,
      .error = in->raw_error,
      .n = in->raw_error ? 0 : r->cells->len,
      .cells = in->raw_error ? NULL : (const char *const *)r->cells->pdata,
  };
  if (!r->cb(&row, r->ud)) in->stop = TRUE;
}

gboolean csvread_foreach(const char *path, guint flags, csvread_row_fn cb, void *ud,
                         diag_list *diags) {
  g_return_val_if_fail(path != NULL && cb != NULL && diags != NULL, FALSE);
  csv_raw r = {.cb = cb, .ud = ud, .cells = g_ptr_array_new()};
  csvread in;
  csvread_init(&in, path, diags, csvread_raw_row, &r);
  in.raw = TRUE;
  in.raw_no_header = (flags & CSVREAD_NO_HEADER) != 0;
  gboolean ok = csvread_run(&in);
  csvread_clear(&in);
  g_ptr_array_unref(r.cells);
  return ok;
}

/* ---- libcsv's callbacks (csvread_stream) ---- */

struct csvread_stream {
  struct csv_parser parser;
  void (*field)(void *cell, size_t len, void *ud);
  void (*row)(int term, void *ud);
  void *ud;
};

csvread_stream *csvread_stream_new(void (*field)(void *cell, size_t len, void *ud),
                                   void (*row)(int term, void *ud), void *ud) {
  csvread_stream *s = g_new0(csvread_stream, 1);
  csv_init(&s->parser, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL);
  csv_set_realloc_func(&s->parser, csvread_realloc);
  s->field = field;
  s->row = row;
  s->ud = ud;
  return s;
}

gboolean csvread_stream_feed(csvread_stream *s, const char *buf, size_t len) {
  return csv_parse(&s->parser, buf, len, s->field, s->row, s->ud) == len;
}

gboolean csvread_stream_finish(csvread_stream *s) {
  return csv_fini(&s->parser, s->field, s->row, s->ud) == 0;
}

void csvread_stream_free(csvread_stream *s) {
  if (!s) return;
  csv_free(&s->parser);
  g_free(s);
}
