/* util.c: the error domain, seconds<->nanoseconds, and strict parsing of numbers,
 * durations with units and sizes with units. Owns no state. */
#include "util.h"
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

G_DEFINE_QUARK(sharesim-error-quark, sharesim_error)

sim_time util_seconds_to_ns(double seconds) {
  return (sim_time)llround(seconds * 1e9);
}

double util_ns_to_seconds(sim_time ns) { return (double)ns / 1e9; }

/* TRUE when [text, end) is a plain decimal number: digits, sign, point and exponent only,
 * so that the hexadecimal, inf and nan spellings strtod also takes are refused. Every
 * scenario, option and table number goes through it (util_parse_double, durations, sizes). */
static gboolean util_is_decimal(const char *text, const char *end) {
  for (const char *p = text; p < end; p++)
    if (!(g_ascii_isdigit(*p) || *p == '.' || *p == '-' || *p == '+' || *p == 'e' || *p == 'E'))
      return FALSE;
  return TRUE;
}

gboolean util_parse_double(const char *text, double *out) {
  if (!text) return FALSE;
  while (g_ascii_isspace(*text)) text++;
  if (!*text) return FALSE;
  char *end = NULL;
  errno = 0;
  double v = g_ascii_strtod(text, &end);
  if (end == text || errno == ERANGE || !util_is_decimal(text, end)) return FALSE;
  while (g_ascii_isspace(*end)) end++;
  if (*end) return FALSE;
  if (!isfinite(v)) return FALSE;
  *out = v;
  return TRUE;
}

gboolean util_parse_int64(const char *text, int64_t *out) {
  if (!text) return FALSE;
  while (g_ascii_isspace(*text)) text++;
  if (!*text) return FALSE;
  char *end = NULL;
  errno = 0;
  gint64 v = g_ascii_strtoll(text, &end, 10);
  if (end == text || errno == ERANGE) return FALSE;
  while (g_ascii_isspace(*end)) end++;
  if (*end) return FALSE;
  *out = v;
  return TRUE;
}

/* Splits "12.5ms" into number and unit; unit may be preceded by spaces. */
static gboolean split_number_unit(const char *text, double *num, const char **unit) {
  if (!text) return FALSE;
  while (g_ascii_isspace(*text)) text++;
  char *end = NULL;
  errno = 0;
  double v = g_ascii_strtod(text, &end);
  if (end == text || errno == ERANGE || !isfinite(v) || !util_is_decimal(text, end)) return FALSE;
  while (g_ascii_isspace(*end)) end++;
  *num = v;
  *unit = end;
  return TRUE;
}

/* Nanoseconds in one unit ("ns" .. "d", "min"); 0 when u is none. */
static double duration_unit_scale(const char *u) {
  static const struct { const char *name; double ns; } units[] = {
      {"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}, {"m", 60e9}, {"min", 60e9},
      {"h", 3600e9}, {"d", 86400e9}};
  for (size_t i = 0; i < G_N_ELEMENTS(units); i++)
    if (!strcmp(u, units[i].name)) return units[i].ns;
  return 0;
}

/* Go's form, two or more number-unit parts with no space, largest unit first: "1h30m",
 * "2m30.5s", "1d12h". FALSE for anything else (one part is the plain form's). */
static gboolean parse_compound_duration(const char *text, double *out_ns) {
  const char *p = text;
  double total = 0, last = INFINITY;
  int parts = 0;
  while (*p) {
    if (!g_ascii_isdigit(*p) && *p != '.') return FALSE;
    char *end = NULL;
    errno = 0;
    double v = g_ascii_strtod(p, &end);
    if (end == p || errno == ERANGE || !isfinite(v) || v < 0 || !util_is_decimal(p, end))
      return FALSE;
    for (const char *q = p; q < end; q++) /* digits and a point only, as Go writes them */
      if (!g_ascii_isdigit(*q) && *q != '.') return FALSE;
    char u[4] = {0};
    size_t ul = 0;
    while (g_ascii_isalpha(end[ul]) && ul < sizeof u - 1) ul++;
    if (ul == 0 || g_ascii_isalpha(end[ul])) return FALSE;
    memcpy(u, end, ul);
    double scale = duration_unit_scale(u);
    if (scale <= 0 || scale >= last) return FALSE; /* each unit smaller than the one before */
    last = scale;
    total += v * scale;
    p = end + ul;
    parts++;
  }
  *out_ns = total;
  return parts >= 2;
}

gboolean util_parse_duration(const char *text, sim_time bare_unit_ns, sim_time *out_ns,
                             const char **expected) {
  static const char *const exp = "a duration with a unit (e.g. 250ms, 90s, 2m, 1h, 1h30m, 7d)";
  double v;
  const char *unit;
  if (expected) *expected = exp;
  double compound;
  if (text && parse_compound_duration(text, &compound)) {
    if (compound > 9.2e18) return FALSE;
    *out_ns = (sim_time)llround(compound);
    return TRUE;
  }
  if (!split_number_unit(text, &v, &unit)) return FALSE;
  double scale;
  char u[8] = {0};
  size_t ul = strlen(unit);
  while (ul > 0 && g_ascii_isspace(unit[ul - 1])) ul--;
  if (ul >= sizeof u) return FALSE;
  memcpy(u, unit, ul);
  if (ul == 0) {
    if (bare_unit_ns <= 0) return FALSE;
    scale = (double)bare_unit_ns;
  } else if (!(scale = duration_unit_scale(u))) {
    return FALSE;
  }
  double ns = v * scale;
  if (ns < 0 || ns > 9.2e18) return FALSE;
  *out_ns = (sim_time)llround(ns);
  return TRUE;
}

gboolean util_parse_size(const char *text, gboolean bare_is_gb, int64_t *out_bytes,
                         const char **expected) {
  static const char *const exp = "a size with a unit (e.g. 40GB, 37.25GiB, 512MB)";
  double v;
  const char *unit;
  if (expected) *expected = exp;
  if (!split_number_unit(text, &v, &unit)) return FALSE;
  char u[8] = {0};
  size_t ul = strlen(unit);
  while (ul > 0 && g_ascii_isspace(unit[ul - 1])) ul--;
  if (ul >= sizeof u) return FALSE;
  memcpy(u, unit, ul);
  double scale;
  if (ul == 0) {
    if (!bare_is_gb) return FALSE;
    scale = 1e9;
  } else if (!g_ascii_strcasecmp(u, "B")) scale = 1;
  else if (!g_ascii_strcasecmp(u, "KB")) scale = 1e3;
  else if (!g_ascii_strcasecmp(u, "MB")) scale = 1e6;
  else if (!g_ascii_strcasecmp(u, "GB")) scale = 1e9;
  else if (!g_ascii_strcasecmp(u, "TB")) scale = 1e12;
  else if (!g_ascii_strcasecmp(u, "KiB")) scale = 1024.0;
  else if (!g_ascii_strcasecmp(u, "MiB")) scale = 1048576.0;
  else if (!g_ascii_strcasecmp(u, "GiB")) scale = 1073741824.0;
  else if (!g_ascii_strcasecmp(u, "TiB")) scale = 1099511627776.0;
  else return FALSE;
  double b = v * scale;
  if (b < 0 || b > 9.2e18) return FALSE;
  *out_bytes = (int64_t)llround(b);
  return TRUE;
}

gboolean util_name_is_safe(const char *name) {
  if (!name || !*name) return FALSE;
  size_t n = strlen(name);
  if (n > 64 || name[0] == '.' || name[0] == '-') return FALSE;
  for (const char *p = name; *p; p++)
    if (!(g_ascii_isalnum(*p) || *p == '.' || *p == '_' || *p == '-')) return FALSE;
  return TRUE;
}

void util_csv_field(GString *out, const char *field) {
  if (!field) return;
  if (!strpbrk(field, ",\"\r\n")) {
    g_string_append(out, field);
    return;
  }
  g_string_append_c(out, '"');
  for (const char *p = field; *p; p++) {
    if (*p == '"') g_string_append_c(out, '"');
    g_string_append_c(out, *p);
  }
  g_string_append_c(out, '"');
}

double util_round_sig(double v, int digits) {
  if (!isfinite(v) || v == 0) return v;
  char fmt[8], buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_snprintf(fmt, sizeof fmt, "%%.%dg", CLAMP(digits, 1, 17));
  g_ascii_formatd(buf, sizeof buf, fmt, v);
  return g_ascii_strtod(buf, NULL);
}

void util_append_shortest(GString *out, double v, int min_prec) {
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  int prec = min_prec < 1 ? 1 : min_prec;
  for (; prec <= 17; prec++) {
    char fmt[8];
    g_snprintf(fmt, sizeof fmt, "%%.%dg", prec);
    g_ascii_formatd(buf, sizeof buf, fmt, v);
    if (g_ascii_strtod(buf, NULL) == v) break;
  }
  double a = fabs(v);
  if (strpbrk(buf, "eE") && a >= 1e-6 && a < 1e16) {
    /* %g chose an exponent ("8e+01", "1.2e-05"): the same digits in plain decimals */
    int decimals = prec - 1 - (int)floor(log10(a));
    char fmt[8];
    g_snprintf(fmt, sizeof fmt, "%%.%df", decimals < 0 ? 0 : MIN(decimals, 30));
    g_ascii_formatd(buf, sizeof buf, fmt, v);
    if (strchr(buf, '.')) { /* no trailing zeros after the point */
      char *end = buf + strlen(buf) - 1;
      while (*end == '0') *end-- = '\0';
      if (*end == '.') *end = '\0';
    }
  }
  g_string_append(out, buf);
}

void util_append_u64(GString *out, guint64 v) {
  char buf[24];
  int n = 0;
  do {
    buf[sizeof buf - 1 - n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  g_string_append_len(out, buf + sizeof buf - n, n);
}

void util_append_fixed9(GString *out, int64_t v) {
  uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  if (v < 0) g_string_append_c(out, '-');
  g_string_append_printf(out, "%" PRIu64, u / 1000000000u);
  uint64_t frac = u % 1000000000u;
  if (frac) {
    char b[16];
    g_snprintf(b, sizeof b, "%09" PRIu64, frac);
    size_t n = strlen(b);
    while (n > 0 && b[n - 1] == '0') n--;
    b[n] = 0;
    g_string_append_printf(out, ".%s", b);
  }
}

void util_text_position(const char *text, gsize len, gsize off, guint *line, guint *col) {
  guint64 ln = 1;
  gsize start = 0;
  off = MIN(off, len);
  for (gsize i = 0; i < off; i++) {
    if (text[i] == '\n' || (text[i] == '\r' && (i + 1 >= len || text[i + 1] != '\n'))) {
      ln++;
      start = i + 1;
    }
  }
  *line = ln > G_MAXUINT ? G_MAXUINT : (guint)ln;
  *col = off - start + 1 > G_MAXUINT ? G_MAXUINT : (guint)(off - start + 1);
}

void util_normalize_line_ends(char *text, gsize *len) {
  gsize w = 0;
  for (gsize r = 0; r < *len; r++) {
    if (text[r] == '\r') {
      text[w++] = '\n';
      if (r + 1 < *len && text[r + 1] == '\n') r++;
    } else {
      text[w++] = text[r];
    }
  }
  if (w < *len) text[w] = 0;
  *len = w;
}
