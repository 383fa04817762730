/* jsonlimit.c: the nesting scan run before json-glib parses anything, and the load
 * wrappers every JSON reader uses. It validates nothing else: syntax is json-glib's. */
#include "jsonlimit.h"
#include "util.h"

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
  GMappedFile *m = g_mapped_file_new(path, FALSE, error);
  if (!m) return FALSE;
  const char *data = g_mapped_file_get_contents(m);
  gboolean ok = jsonlimit_load_data(parser, path, data ? data : "", g_mapped_file_get_length(m),
                                    line, col, error);
  g_mapped_file_unref(m);
  return ok;
}
