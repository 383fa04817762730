/* jsonlimit.c: the nesting scan run before json-glib parses anything, and the load
 * wrappers every JSON reader uses. It validates nothing else: syntax is json-glib's. */
#include "jsonlimit.h"
#include "util.h"
#include "safeopen.h"
#include <unistd.h>

gboolean jsonlimit_scan(const char *data, gsize len, guint max_depth, guint *line, guint *col) {
  guint depth = 0, ln = 1, cl = 1;
  gboolean in_string = FALSE, escaped = FALSE;
  for (gsize i = 0; i < len; i++) {
    char ch = data[i];
    if (ch == '\n' || (ch == '\r' && (i + 1 == len || data[i + 1] != '\n'))) {
      ln++;
      cl = 1;
      escaped = FALSE;
      continue;
    }
    if (in_string) {
      if (escaped) escaped = FALSE;
      else if (ch == '\\') escaped = TRUE;
      else if (ch == '"') in_string = FALSE;
    } else if (ch == '"') {
      in_string = TRUE;
    } else if (ch == '[' || ch == '{') {
      if (++depth > max_depth) {
        if (line) *line = ln;
        if (col) *col = cl;
        return FALSE;
      }
    } else if ((ch == ']' || ch == '}') && depth > 0) {
      depth--;
    }
    cl++;
  }
  return TRUE;
}

gboolean jsonlimit_load_data(JsonParser *parser, const char *name, const char *data, gsize len,
                             guint *line, guint *col, GError **error) {
  guint ln = 0, cl = 0;
  if (!jsonlimit_scan(data, len, JSONLIMIT_MAX_DEPTH, &ln, &cl)) {
    if (line) *line = ln;
    if (col) *col = cl;
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "%s:%u:%u: " JSONLIMIT_TOO_DEEP, name, ln, cl);
    return FALSE;
  }
  if (len > G_MAXSSIZE) {
    g_set_error(error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA, "too large");
    return FALSE;
  }
  return json_parser_load_from_data(parser, data, (gssize)len, error);
}

gboolean jsonlimit_load_file(JsonParser *parser, const char *path, guint *line, guint *col,
                             GError **error) {
  GError *local = NULL;
  int fd = safeopen_read_fd(path, &local);
  GMappedFile *m = fd >= 0 ? g_mapped_file_new_from_fd(fd, FALSE, &local) : NULL;
  if (fd >= 0) close(fd);
  if (!m) {
    g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "cannot open %s: %s", path,
                local->message);
    g_error_free(local);
    return FALSE;
  }
  const char *data = g_mapped_file_get_contents(m);
  gboolean ok = jsonlimit_load_data(parser, path, data ? data : "", g_mapped_file_get_length(m),
                                    line, col, error);
  g_mapped_file_unref(m);
  return ok;
}

/* Offset just after the first value when it is an array or object closed on this text, else
 * len (a scalar, or an unclosed value json-glib will refuse itself). */
static gsize jsonlimit_first_end(const char *data, gsize len) {
  gsize i = 0;
  while (i < len && g_ascii_isspace(data[i])) i++;
  if (i == len || (data[i] != '[' && data[i] != '{')) return len;
  guint depth = 0;
  gboolean in_string = FALSE, escaped = FALSE;
  for (; i < len; i++) {
    char ch = data[i];
    if (in_string) {
      if (escaped) escaped = FALSE;
      else if (ch == '\\') escaped = TRUE;
      else if (ch == '"') in_string = FALSE;
    } else if (ch == '"') {
      in_string = TRUE;
    } else if (ch == '[' || ch == '{') {
      depth++;
    } else if ((ch == ']' || ch == '}') && --depth == 0) {
      return i + 1;
    }
  }
  return len;
}

gboolean jsonlimit_load_line(JsonParser *parser, const char *data, gsize len, guint *col,
                             GError **error) {
  guint ln = 0, cl = 0;
  *col = 0;
  if (!jsonlimit_scan(data, len, JSONLIMIT_MAX_DEPTH, &ln, &cl)) {
    *col = cl;
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT, JSONLIMIT_TOO_DEEP);
    return FALSE;
  }
  gsize end = jsonlimit_first_end(data, len), rest = end;
  while (rest < len && g_ascii_isspace(data[rest])) rest++;
  if (rest < len) {
    *col = (guint)MIN(rest + 1, G_MAXUINT);
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "expected one JSON value per line, found more text after it");
    return FALSE;
  }
  if (len > G_MAXSSIZE) {
    g_set_error(error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA, "too large");
    return FALSE;
  }
  return json_parser_load_from_data(parser, data, (gssize)len, error);
}
