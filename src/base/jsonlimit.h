/* jsonlimit.h: JSON read with a nesting limit. json-glib parses recursively, one stack
 * frame per level: a file nested ~75,000 levels deep (200 KB) overflows an 8 MB stack.
 * Every JSON sharesim reads (DCGM/Prometheus exports, Mooncake JSON Lines, summary.json,
 * compare.json, sweep.json) goes through here (tests/check-json.sh fails on any other
 * json-glib parser call): a streaming scan counts [ and { outside strings and
 * refuses the input before json-glib sees it. */
#pragma once
#include <glib.h>
#include <json-glib/json-glib.h>

/* Deepest nesting of arrays and objects accepted. The files sharesim writes nest at most 4
 * levels and Prometheus query results 5; json-glib needs well under 1 KB of stack per
 * level, so 256 levels stay far below any thread's stack (assumption; sensitivity: none
 * for valid inputs, the limit only decides which absurd files are refused). */
#define JSONLIMIT_MAX_DEPTH 256
#define JSONLIMIT_TOO_DEEP "JSON nested deeper than 256 levels (the limit for arrays and objects)"

/* Scans data; TRUE when no array or object opens deeper than max_depth. Otherwise FALSE
 * with *line and *col (1-based; lines end at LF, CR or CRLF) at the bracket that went one
 * level too deep. */
gboolean jsonlimit_scan(const char *data, gsize len, guint max_depth, guint *line, guint *col);

/* Checks depth, then loads data into parser. FALSE with error: SHARESIM_ERROR_INPUT
 * "NAME:LINE:COL: " JSONLIMIT_TOO_DEEP (and *line, *col set when not NULL) for too deep
 * an input, json-glib's JSON_PARSER_ERROR for malformed JSON. */
gboolean jsonlimit_load_data(JsonParser *parser, const char *name, const char *data, gsize len,
                             guint *line, guint *col, GError **error);
/* The same for a file (mapped, not copied; NAME is path); G_FILE_ERROR when it cannot be
 * read. */
gboolean jsonlimit_load_file(JsonParser *parser, const char *path, guint *line, guint *col,
                             GError **error);
/* One JSON value that is a whole line of a JSON Lines file (data without its line end, len
 * bytes): depth checked, then parsed. A second value after the first (`{...} {...}`) is
 * refused rather than dropped. FALSE with *col (1-based) and a message without position
 * (the caller prefixes FILE:LINE:COL): JSONLIMIT_TOO_DEEP, "expected one JSON value per
 * line, found more text after it" (SHARESIM_ERROR_INPUT) or json-glib's error. */
gboolean jsonlimit_load_line(JsonParser *parser, const char *data, gsize len, guint *col,
                             GError **error);
