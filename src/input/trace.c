/* trace.c: reads, validates and writes the job trace (SPEC 3.1), the phases file (3.2) and
 * the recorded-requests file (3.3). csvread.c splits the rows and counts lines; this file
 * maps columns by name and checks every cell, reporting all problems with
 * file:line:column. It does not decide how a job behaves (workload-*.c),
 * keep recorded requests in memory (they are streamed), or print anything (cmd-*.c do). */
#include "trace.h"
#include "safeopen.h"
#include "tracerows.h"
#include "csvread.h"
#include "llm-model.h"
#include "caltime.h"
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ======================================================================================
 * Columns by name.
 * ====================================================================================== */

typedef struct col_def {
  const char *name;
  gboolean required;
  const char *expected; /* the form of a valid cell, for messages */
  char *(*expected_of)(void); /* or, when expected is NULL, built from a table (owned) */
} col_def;

static char *col_list(const col_def *defs, guint n) {
  GString *s = g_string_new(NULL);
  for (guint i = 0; i < n; i++) g_string_append_printf(s, "%s, ", defs[i].name);
  g_string_append(s, "or a name starting with x_");
  return g_string_free(s, FALSE);
}

/* Maps the header row: field_of[column] = 0-based field or -1; def_of[field] = column or
 * -1 (ignored). Reports unknown, duplicate and missing columns. FALSE when the first row
 * names no known column at all: it is then not a header, one message says so, and the
 * caller stops reading (every row would only repeat the problem). */
static gboolean map_header(csvread *in, const col_def *defs, guint ndefs, int *field_of,
                           int **def_of_out) {
  int *def_of = g_new(int, in->ncols ? in->ncols : 1);
  *def_of_out = def_of;
  for (guint c = 0; c < ndefs; c++) field_of[c] = -1;
  guint known = 0;
  for (guint i = 0; i < in->ncols; i++) {
    def_of[i] = -1;
    for (guint c = 0; c < ndefs; c++)
      if (!strcmp(in->header[i], defs[c].name)) {
        def_of[i] = (int)c;
        known++;
        break;
      }
  }
  if (!known) {
    GString *names = g_string_new(NULL);
    for (guint c = 0; c < ndefs; c++) {
      if (c) g_string_append(names, ",");
      g_string_append(names, defs[c].name);
    }
    g_autofree char *exp = g_strdup_printf("a header row naming the columns (%s)", names->str);
    g_string_free(names, TRUE);
    GString *row = g_string_new(NULL);
    for (guint i = 0; i < in->ncols && row->len < 100; i++) {
      if (i) g_string_append_c(row, ',');
      g_string_append(row, in->header[i]);
    }
    diag_expected(in->diags, in->path, csvread_line(in), 0, "header", exp, row->str);
    g_string_free(row, TRUE);
    return FALSE;
  }
  g_autofree char *valid = NULL;
  for (guint i = 0; i < in->ncols; i++) {
    int c = def_of[i];
    const char *name = in->header[i];
    if (c < 0) {
      if (g_str_has_prefix(name, "x_")) continue;
      if (!valid) valid = col_list(defs, ndefs);
      g_autofree char *exp = g_strdup_printf("one of %s", valid);
      diag_expected(in->diags, in->path, csvread_line(in), i + 1, "unknown column", exp, name);
    } else if (field_of[c] >= 0) {
      g_autofree char *exp =
          g_strdup_printf("each column once (first at column %d)", field_of[c] + 1);
      diag_expected(in->diags, in->path, csvread_line(in), i + 1, "duplicate column", exp, name);
      def_of[i] = -1;
    } else {
      field_of[c] = (int)i;
    }
  }
  for (guint c = 0; c < ndefs; c++)
    if (defs[c].required && field_of[c] < 0)
      diag_add(in->diags, in->path, csvread_line(in), 0, "missing required column '%s'",
               defs[c].name);
  return TRUE;
}

/* ======================================================================================
 * Cell values. All accept surrounding blanks; a cell of blanks only is empty.
 * ====================================================================================== */

static gboolean is_blank(const char *s) {
  while (g_ascii_isspace(*s)) s++;
  return *s == 0;
}

/* Checks "[+-]digits[.digits][e[+-]digits]" (at least one mantissa digit; with
 * allow_frac FALSE only "[+-]digits"), blanks around allowed. Sets *start just past the
 * leading blanks. Refuses what strtod would also take: hex, inf, nan, "1e", "1,5". */
static gboolean scan_number(const char *s, gboolean allow_frac, const char **start) {
  while (g_ascii_isspace(*s)) s++;
  *start = s;
  if (*s == '+' || *s == '-') s++;
  gsize digits = 0;
  while (g_ascii_isdigit(*s)) s++, digits++;
  if (allow_frac) {
    if (*s == '.') {
      s++;
      while (g_ascii_isdigit(*s)) s++, digits++;
    }
    if (digits && (*s == 'e' || *s == 'E')) {
      s++;
      if (*s == '+' || *s == '-') s++;
      if (!g_ascii_isdigit(*s)) return FALSE;
      while (g_ascii_isdigit(*s)) s++;
    }
  }
  if (!digits) return FALSE;
  while (g_ascii_isspace(*s)) s++;
  return *s == 0;
}

/* Parses a decimal number exactly (no binary floating point) into value * 10^9 rounded
 * to the nearest integer (halves away from zero). Seconds become nanoseconds and GB
 * become bytes without rounding error, so a value written by fixed9_append reads back
 * identical. FALSE on bad syntax or when |value * 10^9| > max. */
static gboolean fixed9_scanned(const char *s, int64_t max, int64_t *out);
static gboolean parse_fixed9(const char *text, int64_t max, int64_t *out) {
  const char *s;
  if (!scan_number(text, TRUE, &s)) return FALSE;
  return fixed9_scanned(s, max, out);
}

/* The common case of fixed9_scanned: at most 18 integer and 9 fraction digits, no
 * exponent, nothing after: value * 10^9 needs no rounding, so it is the integer part's
 * value * 10^9 plus the fraction's digits scaled; FALSE when it is not that case. */
static gboolean fixed9_plain(const char *s, int64_t max, int64_t *out, gboolean *done) {
  static const uint64_t p10[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
                                 100000000, 1000000000};
  gboolean neg = FALSE;
  if (*s == '+' || *s == '-') neg = *s++ == '-';
  uint64_t ip = 0, fp = 0;
  guint n_int = 0, n_frac = 0;
  for (; g_ascii_isdigit(*s); s++, n_int++) ip = ip * 10 + (uint64_t)(*s - '0');
  if (n_int > 18) return FALSE;
  if (*s == '.')
    for (s++; g_ascii_isdigit(*s); s++, n_frac++)
      if (n_frac < 9) fp = fp * 10 + (uint64_t)(*s - '0');
  if (*s || n_frac > 9) return FALSE;
  *done = TRUE;
  uint64_t limit = (uint64_t)max;
  if (ip > limit / 1000000000u) return FALSE;
  uint64_t r = ip * 1000000000u + fp * p10[9 - n_frac];
  if (r > limit) return FALSE;
  *out = neg ? -(int64_t)r : (int64_t)r;
  return TRUE;
}

/* parse_fixed9 of a number scan_number accepted (s past the leading blanks). */
static gboolean fixed9_scanned(const char *s, int64_t max, int64_t *out) {
  gboolean done = FALSE, ok = fixed9_plain(s, max, out, &done);
  if (done) return ok;
  gboolean neg = FALSE;
  if (*s == '+' || *s == '-') neg = *s++ == '-';
  const char *int_part = s;
  gsize n_int = 0, n_frac = 0;
  while (g_ascii_isdigit(s[n_int])) n_int++;
  s += n_int;
  const char *frac_part = s;
  if (*s == '.') {
    frac_part = ++s;
    while (g_ascii_isdigit(s[n_frac])) n_frac++;
    s += n_frac;
  }
  long exp10 = 0;
  if (*s == 'e' || *s == 'E') {
    s++;
    gboolean eneg = FALSE;
    if (*s == '+' || *s == '-') eneg = *s++ == '-';
    for (; g_ascii_isdigit(*s); s++)
      if (exp10 < 10000000) exp10 = exp10 * 10 + (*s - '0');
    if (eneg) exp10 = -exp10;
  }
  /* value = D * 10^(exp10 - n_frac), D the digit string; wanted: D * 10^shift */
  long shift = exp10 - (long)n_frac + 9;
  long n_digits = (long)(n_int + n_frac);
  long keep = shift < 0 ? n_digits + shift : n_digits; /* digits left of the point */
  uint64_t limit = (uint64_t)max, r = 0;
  int round_digit = 0;
  for (long i = 0; i < n_digits && i <= keep; i++) {
    int d = (i < (long)n_int ? int_part[i] : frac_part[i - (long)n_int]) - '0';
    if (i == keep) {
      round_digit = d;
      break;
    }
    if (r > (limit - (uint64_t)d) / 10) return FALSE;
    r = r * 10 + (uint64_t)d;
  }
  for (long k = 0; k < shift && r; k++) {
    if (r > limit / 10) return FALSE;
    r *= 10;
  }
  if (round_digit >= 5) {
    if (r >= limit) return FALSE;
    r++;
  }
  *out = neg ? -(int64_t)r : (int64_t)r;
  return TRUE;
}


/* Appends the fewest significant digits that read back to exactly v, written without an
 * exponent when 1e-5 <= |v| < 1e16 (200 -> "200", 0.1 -> "0.1", 1e-7 -> "1e-07"). */
static void real_append(GString *out, double v) {
  char buf[G_ASCII_DTOSTR_BUF_SIZE], fmt[16];
  int prec = 1;
  for (; prec <= 17; prec++) {
    snprintf(fmt, sizeof fmt, "%%.%de", prec - 1);
    g_ascii_formatd(buf, sizeof buf, fmt, v);
    if (g_ascii_strtod(buf, NULL) == v) break;
  }
  const char *e = strchr(buf, 'e');
  if (isfinite(v) && v != 0 && e) {
    int exp10 = atoi(e + 1);
    if (exp10 >= -5 && exp10 < 16) {
      char plain[G_ASCII_DTOSTR_BUF_SIZE];
      snprintf(fmt, sizeof fmt, "%%.%df", MAX(0, prec - 1 - exp10));
      g_ascii_formatd(plain, sizeof plain, fmt, v);
      if (g_ascii_strtod(plain, NULL) == v) {
        g_string_append(out, plain);
        return;
      }
    }
  }
  if (v == 0) {
    g_string_append(out, "0");
    return;
  }
  g_string_append(out, buf);
}

/* The double nearest to the plain decimal s (accepted by scan_number) without strtod, when
 * that is exact: at most 2^53 as an integer of its digits and at most 22 of them after the
 * point, nothing else (no exponent, no blanks after it). The digits and the power of ten are
 * then both exact doubles and one IEEE division rounds to the nearest, which is what
 * strtod gives (Clinger's fast path). FALSE: ask strtod. */
static gboolean real_plain(const char *s, double *out) {
#if FLT_EVAL_METHOD == 0
  static const double p10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                               1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                               1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  gboolean neg = FALSE;
  if (*s == '+' || *s == '-') neg = *s++ == '-';
  uint64_t m = 0;
  guint n_frac = 0, n = 0;
  for (; g_ascii_isdigit(*s); s++)
    if (n++ < 18) m = m * 10 + (uint64_t)(*s - '0');
  if (*s == '.')
    for (s++; g_ascii_isdigit(*s); s++, n_frac++)
      if (n++ < 18) m = m * 10 + (uint64_t)(*s - '0');
  if (*s || n > 18 || n_frac > 22 || m > (G_GUINT64_CONSTANT(1) << 53)) return FALSE;
  double v = (double)m / p10[n_frac];
  *out = neg ? -v : v;
  return TRUE;
#else
  (void)s;
  (void)out;
  return FALSE;
#endif
}

static gboolean parse_real(const char *text, double *out) {
  const char *s;
  if (!scan_number(text, TRUE, &s)) return FALSE;
  double v;
  if (real_plain(s, &v)) {
    *out = v + 0.0; /* -0 becomes 0 */
    return TRUE;
  }
  errno = 0;
  v = g_ascii_strtod(s, NULL);
  if (!isfinite(v) || (errno == ERANGE && fabs(v) > 1.0)) return FALSE;
  *out = v + 0.0; /* -0 becomes 0 */
  return TRUE;
}

static gboolean parse_int(const char *text, int64_t lo, int64_t hi, int64_t *out) {
  const char *s;
  if (!scan_number(text, FALSE, &s)) return FALSE;
  const char *d = s + (*s == '+' || *s == '-');
  int64_t v = 0;
  guint n = 0;
  for (; g_ascii_isdigit(d[n]) && n < 18; n++) v = v * 10 + (d[n] - '0');
  if (!d[n]) { /* 18 digits at most: no overflow, strtoll's value */
    if (*s == '-') v = -v;
    if (v < lo || v > hi) return FALSE;
    *out = v;
    return TRUE;
  }
  errno = 0;
  v = g_ascii_strtoll(s, NULL, 10);
  if (errno == ERANGE || v < lo || v > hi) return FALSE;
  *out = v;
  return TRUE;
}

/* lo < v (or lo <= v when lo_incl) and v < hi (or v <= hi when hi_incl). */
static gboolean parse_range(const char *text, double lo, gboolean lo_incl, double hi,
                            gboolean hi_incl, double *out) {
  double v;
  if (!parse_real(text, &v)) return FALSE;
  if (lo_incl ? v < lo : v <= lo) return FALSE;
  if (hi_incl ? v > hi : v >= hi) return FALSE;
  *out = v;
  return TRUE;
}

/* A rate_rps: 0, or from TRACE_MIN_RATE_RPS to TRACE_MAX_RATE_RPS. */
static gboolean parse_rate(const char *text, double *out) {
  double v;
  if (!parse_range(text, 0, TRUE, TRACE_MAX_RATE_RPS, TRUE, &v)) return FALSE;
  if (v != 0 && v < TRACE_MIN_RATE_RPS) return FALSE;
  *out = v == 0 ? 0.0 : v; /* -0 is 0 */
  return TRUE;
}

/* Seconds, >= 0 (or > 0 when positive, judged after rounding to the nanosecond). */
static gboolean parse_seconds(const char *text, gboolean positive, sim_time *out_ns) {
  int64_t ns;
  if (!parse_fixed9(text, TRACE_MAX_TIME_NS, &ns)) return FALSE;
  if (ns < 0 || (positive && ns == 0)) return FALSE;
  *out_ns = ns;
  return TRUE;
}

/* A size: a bare number is GB (10^9 bytes, exact); or a number with a unit (40GB, 37.25GiB). */
static gboolean parse_size(const char *text, int64_t *out_bytes) {
  int64_t b;
  const char *s;
  if (scan_number(text, TRUE, &s)) {
    if (!fixed9_scanned(s, TRACE_MAX_BYTES, &b)) return FALSE;
  } else if (!util_parse_size(text, FALSE, &b, NULL)) {
    return FALSE;
  }
  if (b < 0 || b > TRACE_MAX_BYTES) return FALSE;
  *out_bytes = b;
  return TRUE;
}

/* Valid UTF-8 without control characters. */
static gboolean valid_text(const char *s) {
  const unsigned char *a = (const unsigned char *)s;
  while (*a >= 0x20 && *a < 0x7f) a++;
  if (!*a) return TRUE; /* printable ASCII */
  if (!g_utf8_validate(s, -1, NULL)) return FALSE;
  for (const unsigned char *p = (const unsigned char *)s; *p; p++)
    if (*p < 0x20 || *p == 0x7f) return FALSE;
  return TRUE;
}

/* ======================================================================================
 * Kinds and defaults.
 * ====================================================================================== */

/* The rows of JOB_KINDS (trace.h). */
static const char *const restart_names[] = {[RESTART_NEVER] = "never",
                                            [RESTART_ON_FAILURE] = "on-failure",
                                            [RESTART_ALWAYS] = "always"};

/* "one of notebook, inference, training, batch": the kind column's valid values. Owned. */
static char *kind_expected(void) {
  GString *s = g_string_new("one of ");
  for (int k = 0; k < JOB_KIND_COUNT; k++)
    g_string_append_printf(s, "%s%s", k ? ", " : "", job_kind_name((job_kind)k));
  return g_string_free(s, FALSE);
}

/* ======================================================================================
 * The job trace.
 * ====================================================================================== */

enum {
  C_ID, C_SUBMIT, C_KIND, C_GPUS, C_MEM, C_DURATION, C_TENANT, C_LABEL, C_PRIORITY,
  C_GPU_FRAC, C_SM, C_BUSY, C_BURST, C_RATE, C_SERVICE, C_SLO_MS, C_SLO_PCT, C_KV,
  C_MAX_BATCH, C_COMM, C_CHECKPOINT, C_RESTART, C_GPU_UTIL,
  /* host columns (written only by trace_write_*_host and trace_write_*_full) */
  C_CPU, C_HOST_MEM, C_GPU_SPEC,
  /* LLM serving (written only by trace_write_*_full) */
  C_MODEL, C_PROMPT, C_OUTPUT, C_SLO_TTFT, C_SLO_TPOT, C_GPU_MEM_UTIL,
  /* memory activity (written only by trace_write_*_full) */
  C_MEM_UTIL,
  /* calendar time of the submission, written by importers of absolute times (read only) */
  C_SUBMIT_UTC, C_COUNT
};
#define C_BASE_COUNT C_CPU
G_STATIC_ASSERT(C_COUNT <= 64); /* a row's columns are bits of a guint64 */
#define BIT(c) (G_GUINT64_CONSTANT(1) << (c))

#define EXP_SIZE "a size >= 0 in GB (a number, or with a unit: 40GB, 37.25GiB; at most 10 TB)"
#define EXP_RATE "requests per second: 0, or from 1e-9 to 1e9"
#define EXP_MS "milliseconds > 0 (at most 1e12)"

static const col_def job_cols[C_COUNT] = {
    [C_ID] = {"id", TRUE, "a non-empty id (UTF-8, no control characters)"},
    [C_SUBMIT] = {"submit_s", TRUE, "seconds >= 0 (a decimal number, at most 1e9)"},
    [C_KIND] = {"kind", TRUE, NULL, kind_expected},
    [C_GPUS] = {"gpus", TRUE, "an integer from 1 to 100000"},
    [C_MEM] = {"mem_gb", TRUE, EXP_SIZE},
    [C_DURATION] = {"duration_s", TRUE, "seconds > 0 (a decimal number, at most 1e9)"},
    [C_TENANT] = {"tenant", FALSE, "a name (UTF-8, no control characters)"},
    [C_LABEL] = {"label", FALSE, "a label (UTF-8, no control characters)"},
    [C_PRIORITY] = {"priority", FALSE, "an integer from -2147483648 to 2147483647"},
    [C_GPU_FRAC] = {"gpu_frac", FALSE, "a fraction 0 < f <= 1"},
    [C_SM] = {"sm", FALSE, "a fraction 0 < sm <= 1"},
    [C_BUSY] = {"busy", FALSE, "a fraction 0 <= busy <= 1"},
    [C_BURST] = {"burst_s", FALSE, "seconds > 0 (a decimal number, at most 1e9)"},
    [C_RATE] = {"rate_rps", FALSE, EXP_RATE},
    [C_SERVICE] = {"service_ms", FALSE, EXP_MS},
    [C_SLO_MS] = {"slo_ms", FALSE, EXP_MS},
    [C_SLO_PCT] = {"slo_pct", FALSE, "a percentage 0 < p <= 100"},
    [C_KV] = {"kv_gb", FALSE, EXP_SIZE},
    [C_MAX_BATCH] = {"max_batch", FALSE, "an integer from 1 to 65536"},
    [C_COMM] = {"comm_frac", FALSE, "a fraction 0 <= f < 1"},
    [C_CHECKPOINT] = {"checkpoint_s", FALSE,
                      "seconds >= 0, 0 for never (a decimal number, at most 1e9)"},
    [C_RESTART] = {"restart", FALSE, "never, on-failure or always"},
    [C_GPU_UTIL] = {"gpu_util", FALSE, "a fraction 0 < gpu_util <= 1"},
    [C_CPU] = {"cpu_milli", FALSE, "host CPU per worker in millicores, an integer from 0 to 1e8"},
    [C_HOST_MEM] = {"memory_mib", FALSE,
                    "host memory per worker in MiB, an integer from 0 to 1073741824"},
    [C_GPU_SPEC] = {"gpu_spec", FALSE, "GPU models joined by '|' (UTF-8, no control characters)"},
    [C_MODEL] = {"model", FALSE, "an LLM from the model table (docs/models.md, LLM serving)"},
    [C_PROMPT] = {"prompt_tokens", FALSE, "mean prompt tokens, an integer from 1 to 10000000"},
    [C_OUTPUT] = {"output_tokens", FALSE, "mean output tokens, an integer from 1 to 10000000"},
    [C_SLO_TTFT] = {"slo_ttft_ms", FALSE, EXP_MS},
    [C_SLO_TPOT] = {"slo_tpot_ms", FALSE, EXP_MS},
    [C_GPU_MEM_UTIL] = {"gpu_memory_utilization", FALSE, "a fraction 0 < f <= 1"},
    [C_MEM_UTIL] = {"mem_util", FALSE, "a fraction 0 <= mem_util <= gpu_util"},
    [C_SUBMIT_UTC] = {"submit_utc", FALSE,
                      "an ISO 8601 time with a zone, e.g. 2026-11-01T00:00:00Z (years 1970-9999)"},
};

typedef struct job_reader {
  trace *t;
  guint flags;          /* TRACE_ALLOW_CPU_ONLY */
  guint start_line;     /* the row whose submit_utc set t->start_unix (0: none yet) */
  int field_of[C_COUNT];
  int *def_of;
  const char *recent[64]; /* interned tenants, labels and gpu_specs, by a hash of the text */
} job_reader;

static const char *trace_intern(trace *t, const char *s) {
  const char *p = g_hash_table_lookup(t->interned, s);
  if (!p) {
    p = g_string_chunk_insert(t->strings, s);
    g_hash_table_add(t->interned, (gpointer)p);
  }
  return p;
}

/* trace_intern through the reader's cache of recent strings (most rows repeat a few). */
static const char *reader_intern(job_reader *r, const char *s) {
  gsize n = strlen(s);
  guint k = (guint)(n * 31u + (guchar)s[0] * 7u + (n ? (guchar)s[n - 1] : 0u)) % 64u;
  const char *c = r->recent[k];
  if (c && strcmp(c, s) == 0) return c;
  return r->recent[k] = trace_intern(r->t, s);
}

/* Parses one non-empty cell of column col into j. FALSE when invalid. */
static gboolean job_cell(int col, const char *v, job_spec *j) {
  int64_t i;
  switch (col) {
  case C_ID:
  case C_TENANT:
  case C_LABEL: return valid_text(v);
  case C_SUBMIT: return parse_seconds(v, FALSE, &j->submit_ns);
  case C_KIND: return job_kind_parse(v, &j->kind);
  case C_GPUS: /* 0 (CPU-only) is refused in job_row unless the reader allows it */
    if (!parse_int(v, 0, TRACE_MAX_GPUS, &i)) return FALSE;
    j->gpus = (guint32)i;
    return TRUE;
  case C_CPU:
    if (!parse_int(v, 0, TRACE_MAX_CPU_MILLI, &i)) return FALSE;
    j->cpu_milli = i;
    return TRUE;
  case C_HOST_MEM:
    if (!parse_int(v, 0, TRACE_MAX_MEMORY_MIB, &i)) return FALSE;
    j->memory_mib = i;
    return TRUE;
  case C_GPU_SPEC: return valid_text(v);
  case C_MEM: return parse_size(v, &j->mem_bytes);
  case C_DURATION: return parse_seconds(v, TRUE, &j->duration_ns);
  case C_PRIORITY:
    if (!parse_int(v, INT32_MIN, INT32_MAX, &i)) return FALSE;
    j->priority = (int32_t)i;
    return TRUE;
  case C_GPU_FRAC: return parse_range(v, 0, FALSE, 1, TRUE, &j->gpu_frac);
  case C_SM: return parse_range(v, 0, FALSE, 1, TRUE, &j->sm);
  case C_GPU_UTIL: return parse_range(v, 0, FALSE, 1, TRUE, &j->gpu_util);
  case C_MEM_UTIL: return parse_range(v, 0, TRUE, 1, TRUE, &j->mem_util);
  case C_BUSY: return parse_range(v, 0, TRUE, 1, TRUE, &j->busy);
  case C_BURST: return parse_seconds(v, TRUE, &j->burst_ns);
  case C_RATE: return parse_rate(v, &j->rate_rps);
  case C_SERVICE: return parse_range(v, 0, FALSE, TRACE_MAX_MS, TRUE, &j->service_ms);
  case C_SLO_MS: return parse_range(v, 0, FALSE, TRACE_MAX_MS, TRUE, &j->slo_ms);
  case C_SLO_PCT: return parse_range(v, 0, FALSE, 100, TRUE, &j->slo_pct);
  case C_KV: return parse_size(v, &j->kv_bytes);
  case C_MAX_BATCH:
    if (!parse_int(v, 1, TRACE_MAX_BATCH, &i)) return FALSE;
    j->max_batch = (guint32)i;
    return TRUE;
  case C_COMM: return parse_range(v, 0, TRUE, 1, FALSE, &j->comm_frac);
  case C_CHECKPOINT: return parse_seconds(v, FALSE, &j->checkpoint_ns);
  case C_MODEL: return (j->llm = llm_model_find(v)) != NULL;
  case C_PROMPT:
  case C_OUTPUT:
    if (!parse_int(v, 1, TRACE_MAX_TOKENS, &i)) return FALSE;
    *(col == C_PROMPT ? &j->prompt_tokens : &j->output_tokens) = (guint32)i;
    return TRUE;
  case C_SLO_TTFT: return parse_range(v, 0, FALSE, TRACE_MAX_MS, TRUE, &j->slo_ttft_ms);
  case C_SLO_TPOT: return parse_range(v, 0, FALSE, TRACE_MAX_MS, TRUE, &j->slo_tpot_ms);
  case C_GPU_MEM_UTIL: return parse_range(v, 0, FALSE, 1, TRUE, &j->gpu_mem_util);
  case C_SUBMIT_UTC: {
    double u;
    return caltime_parse(v, &u); /* checked against submit_s by job_calendar */
  }
  case C_RESTART:
    if (!strcmp(v, "never")) j->restart = RESTART_NEVER;
    else if (!strcmp(v, "on-failure")) j->restart = RESTART_ON_FAILURE;
    else if (!strcmp(v, "always")) j->restart = RESTART_ALWAYS;
    else return FALSE;
    return TRUE;
  default: return FALSE;
  }
}

/* Reads a data row's cells into their columns (cells[col]) and parses the non-blank ones
 * with parse; every blank required cell and every cell parse refuses is reported with its
 * line and column. Returns the bits of the columns that hold a valid value; *bad gets the
 * bits of those with a problem. Shared by the job and phase readers. */
typedef gboolean (*cell_parse_fn)(int col, const char *v, void *ud);
static guint64 read_cells(csvread *in, const int *def_of, const col_def *cols, const char **cells,
                          cell_parse_fn parse, void *ud, guint64 *bad) {
  guint line = csvread_line(in);
  guint64 have = 0;
  for (guint f = 0; f < in->ncols; f++) {
    int col = def_of[f];
    if (col < 0) continue;
    const char *v = csvread_cell(in, f);
    cells[col] = v;
    if (!in->lens[f]) { /* blank: trimmed to nothing */
      if (!cols[col].required) continue;
    } else if (parse(col, v, ud)) {
      have |= BIT(col);
      continue;
    }
    g_autofree char *built = cols[col].expected ? NULL : cols[col].expected_of();
    diag_expected(in->diags, in->path, line, f + 1, cols[col].name,
                  built ? built : cols[col].expected, v);
    *bad |= BIT(col);
  }
  return have;
}

static gboolean job_cell_cb(int col, const char *v, void *ud) { return job_cell(col, v, ud); }

/* submit_utc: the first row that has it places trace second 0 at submit_utc - submit_s
 * (t->start_unix); every later one must agree to the millisecond (the times an importer
 * writes are rounded to it). */
static void job_calendar(csvread *in, job_reader *r, const job_spec *j, const char *cell,
                         guint col) {
  double u;
  if (!caltime_parse(cell, &u)) return;
  double start = u - util_ns_to_seconds(j->submit_ns);
  if (!r->start_line) {
    r->t->start_unix = start;
    r->start_line = csvread_line(in);
    return;
  }
  if (fabs(start - r->t->start_unix) <= 1e-3) return;
  GString *want = g_string_new(NULL);
  caltime_append(want, r->t->start_unix + util_ns_to_seconds(j->submit_ns));
  g_autofree char *exp = g_strdup_printf("%s (submit_s after the trace start that line %u's "
                                         "submit_utc gives)", want->str, r->start_line);
  g_string_free(want, TRUE);
  diag_expected(in->diags, in->path, csvread_line(in), col, "submit_utc", exp, cell);
}

static void job_row(csvread *in, void *ud) {
  job_reader *r = ud;
  trace *t = r->t;
  if (in->is_header) {
    if (!map_header(in, job_cols, C_COUNT, r->field_of, &r->def_of)) in->stop = TRUE;
    return;
  }
  guint line = csvread_line(in);
  job_spec j;
  memset(&j, 0, sizeof j);
  guint64 bad = 0; /* bit per column: invalid cell */
  const char *cells[C_COUNT] = {0};
  guint64 have = read_cells(in, r->def_of, job_cols, cells, job_cell_cb, &j, &bad);
#define HAVE(c) (have & BIT(c))
  job_kind kind = HAVE(C_KIND) ? j.kind : JOB_BATCH;
  j.line = line;
  j.tenant = reader_intern(r, HAVE(C_TENANT) ? cells[C_TENANT] : "default");
  j.label = reader_intern(r, HAVE(C_LABEL) ? cells[C_LABEL] : "");
  if (!HAVE(C_GPUS)) j.gpus = 1;
  if (HAVE(C_GPUS) && j.gpus == 0 && !(r->flags & TRACE_ALLOW_CPU_ONLY)) {
    /* (gpus 0, a CPU-only job, is read by `sharesim fill` only: TRACE_ALLOW_CPU_ONLY) */
    diag_expected(in->diags, in->path, line, (guint)(r->field_of[C_GPUS] + 1), "gpus",
                  job_cols[C_GPUS].expected, cells[C_GPUS]);
    bad |= BIT(C_GPUS);
  }
  j.gpu_spec = HAVE(C_GPU_SPEC) ? reader_intern(r, cells[C_GPU_SPEC]) : NULL;
  if (!HAVE(C_GPU_FRAC)) j.gpu_frac = 1.0;
  /* an LLM server's kernels can use every SM (the roofline decides its speed) */
  if (!HAVE(C_SM)) j.sm = HAVE(C_MODEL) && kind == JOB_INFERENCE ? 1.0 : job_kind_default_sm(kind);
  if (!HAVE(C_GPU_UTIL)) j.gpu_util = job_kind_default_gpu_util(kind);
  if (!HAVE(C_MEM_UTIL)) j.mem_util = TRACE_MEM_UTIL_UNKNOWN;
  if (HAVE(C_MEM_UTIL) && j.mem_util > j.gpu_util) {
    /* memory is busy only while a kernel runs: its share of time is at most gpu_util's */
    diag_expected(in->diags, in->path, line, (guint)(r->field_of[C_MEM_UTIL] + 1), "mem_util",
                  "a fraction 0 <= mem_util <= gpu_util (memory is busy only while a kernel runs)",
                  cells[C_MEM_UTIL]);
    bad |= BIT(C_MEM_UTIL);
  }
  if (!HAVE(C_BUSY)) j.busy = 0.15;
  if (!HAVE(C_BURST)) j.burst_ns = 30 * SIM_NS_PER_S;
  if (!HAVE(C_SLO_PCT)) j.slo_pct = 99.0;
  /* LLM services: max_batch is vLLM's max_num_seqs, default 256 (vLLM engine arguments) */
  if (!HAVE(C_MAX_BATCH)) j.max_batch = HAVE(C_MODEL) && kind == JOB_INFERENCE ? 256 : 1;
  if (!HAVE(C_COMM)) j.comm_frac = 0.1;
  if (!HAVE(C_RESTART)) j.restart = job_kind_default_restart(kind);
  if (!HAVE(C_GPU_MEM_UTIL)) j.gpu_mem_util = TRACE_GPU_MEM_UTIL_DEFAULT;
  if (HAVE(C_MODEL) && kind == JOB_INFERENCE && HAVE(C_MEM) && j.mem_bytes == 0)
    j.mem_bytes = llm_model_weight_bytes(j.llm, 2.0); /* derived: bf16 weights */
  if (HAVE(C_MODEL) && kind != JOB_INFERENCE) j.llm = NULL;
  if (HAVE(C_MODEL) && HAVE(C_GPUS) && kind == JOB_INFERENCE && j.gpus != 1)
    diag_expected(in->diags, in->path, line, (guint)(r->field_of[C_GPUS] + 1), "gpus",
                  "1 for an LLM service (tensor parallelism is not modelled)", cells[C_GPUS]);

  /* Checks across cells, made only when the cells involved are themselves valid. */
  if (HAVE(C_KIND) && HAVE(C_RESTART) && j.restart == RESTART_ALWAYS &&
      (kind == JOB_TRAINING || kind == JOB_BATCH))
    diag_expected(in->diags, in->path, line, (guint)(r->field_of[C_RESTART] + 1), "restart",
                  "never or on-failure for a training or batch job (always would run its "
                  "completed work again; Kubernetes' Job API refuses Always)", cells[C_RESTART]);
  if (HAVE(C_KIND) && kind == JOB_INFERENCE) {
    static const struct { int col; const char *expected; } need[] = {
        {C_RATE, "requests per second >= 0 (required for an inference job)"},
        {C_SERVICE, "milliseconds > 0 (required for an inference job)"},
    };
    for (gsize k = 0; k < G_N_ELEMENTS(need); k++) {
      int col = need[k].col;
      if (col == C_SERVICE && HAVE(C_MODEL)) continue; /* an LLM's service time is modelled */
      if (HAVE(col) || (bad & BIT(col))) continue;
      diag_expected(in->diags, in->path, line, (guint)(r->field_of[col] + 1),
                    job_cols[col].name, need[k].expected, cells[col] ? cells[col] : "");
    }
  }
  if (HAVE(C_SUBMIT_UTC) && HAVE(C_SUBMIT))
    job_calendar(in, r, &j, cells[C_SUBMIT_UTC], (guint)(r->field_of[C_SUBMIT_UTC] + 1));
  /* gpu_frac < 1 is allowed for any kind and worker count: each worker of a gang asks for
   * gpu_frac of a GPU (real PAI gangs hold 20-50 % per worker); strategies other than
   * fractional give each worker what they always give (exclusive: a whole GPU). */
#undef HAVE

  if (!(have & BIT(C_ID))) return;
  j.id = cells[C_ID];
  /* the duplicate check, and the row added when it is new (one probe of the id index) */
  int64_t prev = -1;
  gboolean full = trace_rows_len(t->rows) >= G_MAXUINT32 - 2;
  if (full) prev = trace_rows_find(t->rows, j.id);
  else trace_rows_add_unique(t->rows, &j, &prev);
  if (prev >= 0) {
    guint first = trace_rows_line(t->rows, (guint32)prev);
    g_autofree char *exp = g_strdup_printf("a unique id (this one is already on line %u)", first);
    diag_expected(in->diags, in->path, line, (guint)(r->field_of[C_ID] + 1), "id", exp,
                  cells[C_ID]);
  } else if (full) {
    diag_add(in->diags, in->path, line, 0, "expected at most %u jobs", G_MAXUINT32 - 2);
    in->stop = TRUE;
  }
}

static trace *trace_new(const char *path, guint flags) {
  trace *t = g_new0(trace, 1);
  t->path = g_strdup(path);
  t->rows = flags & TRACE_SPILL
                ? trace_rows_new_spilled(NULL, flags & TRACE_TEST_SMALL_CHUNKS ? TRACE_TEST_CHUNK_ROWS : 0)
                : trace_rows_new();
  t->phases = g_array_new(FALSE, FALSE, sizeof(job_phase));
  t->strings = g_string_chunk_new(1 << 16);
  t->interned = g_hash_table_new(g_str_hash, g_str_equal);
  t->start_unix = NAN;
  return t;
}

void trace_free(trace *t) {
  if (!t) return;
  g_free(t->path);
  trace_rows_free(t->rows);
  g_array_unref(t->phases);
  g_free(t->requests_path);
  g_free(t->requested);
  g_hash_table_unref(t->interned);
  g_string_chunk_free(t->strings);
  g_free(t);
}

/* Reports an empty file (no header row) the same way for the three formats. */
static void report_empty(csvread *in, const col_def *defs, guint ndefs) {
  GString *names = g_string_new(NULL);
  for (guint c = 0; c < ndefs; c++) {
    if (c) g_string_append_c(names, ',');
    g_string_append(names, defs[c].name);
  }
  diag_add(in->diags, in->path, 1, 0,
           "header: expected a header row naming the columns (%s), found an empty file",
           names->str);
  g_string_free(names, TRUE);
}

trace *trace_load(const char *path, diag_list *diags) {
  return trace_load_flags(path, 0, diags);
}

trace *trace_load_flags(const char *path, guint flags, diag_list *diags) {
  g_return_val_if_fail(path != NULL && diags != NULL, NULL);
  guint errors_before = diags->count;
  trace *t = trace_new(path, flags);
  job_reader r = {.t = t, .flags = flags};
  csvread in;
  csvread_init(&in, path, diags, job_row, &r);
  if (csvread_run(&in) && in.rows == 0 && !in.header_bad) report_empty(&in, job_cols, C_COUNT);
  csvread_clear(&in);
  g_free(r.def_of);
  if (diags->count != errors_before) {
    trace_free(t);
    return NULL;
  }
  trace_rows_seal(t->rows);
  return t;
}

int64_t trace_find(const trace *t, const char *id) {
  if (!t || !id) return -1;
  return trace_rows_find(t->rows, id);
}

void trace_drop_index(trace *t) { trace_rows_drop_index(t->rows); }
gboolean trace_spilled(const trace *t) { return trace_rows_spilled(t->rows); }
gboolean trace_sorted(const trace *t) { return trace_rows_sorted(t->rows); }

guint trace_n_jobs(const trace *t) { return trace_rows_len(t->rows); }
const char *trace_job_id(const trace *t, guint i) { return trace_rows_id(t->rows, i); }
sim_time trace_job_submit(const trace *t, guint i) { return trace_rows_submit(t->rows, i); }
guint32 trace_job_line(const trace *t, guint i) { return trace_rows_line(t->rows, i); }

/* The first of job i's phases (trace->phases is sorted by job), and how many. */
static void trace_job_phases(const trace *t, guint i, guint32 *first, guint32 *count) {
  guint lo = 0, hi = t->phases->len;
  while (lo < hi) {
    guint mid = lo + (hi - lo) / 2;
    if (g_array_index(t->phases, job_phase, mid).job < i) lo = mid + 1;
    else hi = mid;
  }
  guint end = lo;
  while (end < t->phases->len && g_array_index(t->phases, job_phase, end).job == i) end++;
  *first = end > lo ? lo : 0;
  *count = end - lo;
}

job_spec trace_job(const trace *t, guint i) {
  job_spec j;
  trace_rows_get(t->rows, i, &j);
  if (t->phases->len) trace_job_phases(t, i, &j.phase_first, &j.phase_count);
  j.has_requests = t->requested && (t->requested[i / 8] >> (i % 8) & 1u);
  if (t->slo_set && j.kind == JOB_INFERENCE) {
    j.slo_ms = t->slo_ms;
    j.slo_pct = t->slo_pct;
  }
  return j;
}

void trace_set_slo(trace *t, double pct, double latency_ms) {
  t->slo_set = TRUE;
  t->slo_pct = pct;
  t->slo_ms = latency_ms;
}

/* ======================================================================================
 * Phases.
 * ====================================================================================== */

enum { P_JOB, P_AFTER, P_MEM, P_BUSY, P_SM, P_RATE, P_CRASH, P_COUNT };

static const col_def phase_cols[P_COUNT] = {
    [P_JOB] = {"job_id", TRUE, "the id of a job in the trace"},
    [P_AFTER] = {"after_s", TRUE,
                 "seconds >= 0 after the job starts (a decimal number, at most 1e9)"},
    [P_MEM] = {"mem_gb", FALSE, EXP_SIZE},
    [P_BUSY] = {"busy", FALSE, "a fraction 0 <= busy <= 1"},
    [P_SM] = {"sm", FALSE, "a fraction 0 < sm <= 1"},
    [P_RATE] = {"rate_rps", FALSE, EXP_RATE},
    [P_CRASH] = {"crash", FALSE, "0 or 1"},
};

typedef struct phase_reader {
  trace *t;
  int field_of[P_COUNT];
  int *def_of;
} phase_reader;

static gboolean phase_cell(const trace *t, int col, const char *v, job_phase *p) {
  int64_t i;
  switch (col) {
  case P_JOB: {
    int64_t idx = trace_find(t, v);
    if (idx < 0) return FALSE;
    p->job = (guint32)idx;
    return TRUE;
  }
  case P_AFTER: return parse_seconds(v, FALSE, &p->after_ns);
  case P_MEM: p->set |= PHASE_SET_MEM; return parse_size(v, &p->mem_bytes);
  case P_BUSY: p->set |= PHASE_SET_BUSY; return parse_range(v, 0, TRUE, 1, TRUE, &p->busy);
  case P_SM: p->set |= PHASE_SET_SM; return parse_range(v, 0, FALSE, 1, TRUE, &p->sm);
  case P_RATE:
    p->set |= PHASE_SET_RATE;
    return parse_rate(v, &p->rate_rps);
  case P_CRASH:
    if (!parse_int(v, 0, 1, &i)) return FALSE;
    if (i) p->set |= PHASE_CRASH;
    return TRUE;
  default: return FALSE;
  }
}

typedef struct phase_cell_ctx {
  const trace *t;
  job_phase *p;
} phase_cell_ctx;

static gboolean phase_cell_cb(int col, const char *v, void *ud) {
  const phase_cell_ctx *c = ud;
  return phase_cell(c->t, col, v, c->p);
}

static void phase_row(csvread *in, void *ud) {
  phase_reader *r = ud;
  if (in->is_header) {
    if (!map_header(in, phase_cols, P_COUNT, r->field_of, &r->def_of)) in->stop = TRUE;
    return;
  }
  guint line = csvread_line(in);
  job_phase p;
  memset(&p, 0, sizeof p);
  p.line = line;
  const char *cells[P_COUNT] = {0};
  phase_cell_ctx pc = {r->t, &p};
  guint64 bad = 0;
  guint64 have = read_cells(in, r->def_of, phase_cols, cells, phase_cell_cb, &pc, &bad);
  gboolean ok = bad == 0;
  if (!(have & BIT(P_JOB))) return;
  /* Values a job of this kind has no use for are mistakes, not no-ops. */
  job_kind kind = trace_job(r->t, p.job).kind;
  if ((have & BIT(P_BUSY)) && kind != JOB_NOTEBOOK) {
    g_autofree char *exp = g_strdup_printf(
        "an empty cell (busy is the notebook duty cycle; job '%s' is %s)",
        trace_job_id(r->t, p.job), job_kind_name(kind));
    diag_expected(in->diags, in->path, line, (guint)(r->field_of[P_BUSY] + 1), "busy", exp,
                  cells[P_BUSY]);
    ok = FALSE;
  }
  if ((have & BIT(P_RATE)) && kind != JOB_INFERENCE) {
    g_autofree char *exp = g_strdup_printf(
        "an empty cell (rate_rps applies to inference jobs; job '%s' is %s)",
        trace_job_id(r->t, p.job), job_kind_name(kind));
    diag_expected(in->diags, in->path, line, (guint)(r->field_of[P_RATE] + 1), "rate_rps", exp,
                  cells[P_RATE]);
    ok = FALSE;
  }
  if (ok && (have & BIT(P_AFTER))) g_array_append_val(r->t->phases, p);
}

static gint phase_cmp(gconstpointer a, gconstpointer b) {
  const job_phase *x = a, *y = b;
  if (x->job != y->job) return x->job < y->job ? -1 : 1;
  if (x->after_ns != y->after_ns) return x->after_ns < y->after_ns ? -1 : 1;
  return x->line < y->line ? -1 : x->line > y->line;
}

gboolean trace_load_phases(trace *t, const char *path, diag_list *diags) {
  g_return_val_if_fail(t != NULL && path != NULL && diags != NULL, FALSE);
  guint errors_before = diags->count;
  g_array_set_size(t->phases, 0);
  phase_reader r = {.t = t};
  csvread in;
  csvread_init(&in, path, diags, phase_row, &r);
  if (csvread_run(&in) && in.rows == 0 && !in.header_bad) report_empty(&in, phase_cols, P_COUNT);
  csvread_clear(&in);
  g_free(r.def_of);
  gboolean ok = diags->count == errors_before;
  if (!ok) g_array_set_size(t->phases, 0);
  g_array_sort(t->phases, phase_cmp);
  return ok;
}

/* ======================================================================================
 * Recorded requests: checked and read in one pass each, never held in memory.
 * ====================================================================================== */

enum { R_JOB, R_AT, R_SERVICE, R_PROMPT, R_OUTPUT, R_COUNT };
#define EXP_TOKENS "tokens, an integer from 1 to 10000000"


static const col_def request_cols[R_COUNT] = {
    [R_JOB] = {"job_id", TRUE, "the id of an inference job in the trace"},
    [R_AT] = {"at_s", TRUE, "seconds >= 0 (a decimal number, at most 1e9)"},
    [R_SERVICE] = {"service_ms", FALSE, EXP_MS},
    [R_PROMPT] = {"prompt_tokens", FALSE, EXP_TOKENS},
    [R_OUTPUT] = {"output_tokens", FALSE, EXP_TOKENS},
};

typedef struct request_reader {
  const trace *t;
  int field_of[R_COUNT];
  int *def_of;
  double *last_at;        /* per job: at_s of its last request, -1 = none yet */
  GString *cached_id;     /* the id of the last row and its job, to skip most lookups */
  int64_t cached_job;
  trace_request_cb cb;    /* NULL when only checking */
  void *ud;
  gboolean failed;
} request_reader;

static void request_row(csvread *in, void *ud) {
  request_reader *r = ud;
  if (in->is_header) {
    if (!map_header(in, request_cols, R_COUNT, r->field_of, &r->def_of)) in->stop = TRUE;
    return;
  }
  guint errors_before = in->diags->count;
  guint line = csvread_line(in);
  int fj = r->field_of[R_JOB], fa = r->field_of[R_AT], fs = r->field_of[R_SERVICE];
  int64_t job = -1;
  double at = NAN, service = NAN;
  if (fj >= 0) {
    const char *v = csvread_cell(in, (guint)fj);
    if (r->cached_job >= 0 && !strcmp(v, r->cached_id->str)) {
      job = r->cached_job;
    } else {
      const char *id = v;
      job = trace_find(r->t, id);
      if (job >= 0 && trace_job(r->t, (guint)job).kind != JOB_INFERENCE) {
        g_autofree char *exp =
            g_strdup_printf("the id of an inference job (job '%s' is %s)", id,
                            job_kind_name(trace_job(r->t, (guint)job).kind));
        diag_expected(in->diags, in->path, line, (guint)fj + 1, "job_id", exp, v);
        job = -1;
      } else if (job < 0) {
        diag_expected(in->diags, in->path, line, (guint)fj + 1, "job_id",
                      request_cols[R_JOB].expected, v);
      } else {
        g_string_assign(r->cached_id, v);
        r->cached_job = job;
      }
    }
  }
  if (fa >= 0) {
    const char *v = csvread_cell(in, (guint)fa);
    if (!parse_range(v, 0, TRUE, (double)TRACE_MAX_TIME_NS / 1e9, TRUE, &at)) {
      diag_expected(in->diags, in->path, line, (guint)fa + 1, "at_s", request_cols[R_AT].expected,
                    v);
      at = NAN;
    } else if (job >= 0 && at < r->last_at[job]) {
      GString *exp = g_string_new("seconds >= ");
      real_append(exp, r->last_at[job]);
      g_string_append_printf(exp, " (the time of the previous request of job '%s'; a job's "
                             "requests must be in time order)", trace_job_id(r->t, (guint)job));
      diag_expected(in->diags, in->path, line, (guint)fa + 1, "at_s", exp->str, v);
      g_string_free(exp, TRUE);
      at = NAN;
    }
  }
  if (fs >= 0) {
    const char *v = csvread_cell(in, (guint)fs);
    if (!is_blank(v) && !parse_range(v, 0, FALSE, TRACE_MAX_MS, TRUE, &service))
      diag_expected(in->diags, in->path, line, (guint)fs + 1, "service_ms", EXP_MS, v);
  }
  for (int k = R_PROMPT; k <= R_OUTPUT; k++) { /* LLM services' lengths (checked only) */
    int fk = r->field_of[k];
    int64_t tokens;
    if (fk < 0) continue;
    const char *v = csvread_cell(in, (guint)fk);
    if (!is_blank(v) && !parse_int(v, 1, TRACE_MAX_TOKENS, &tokens))
      diag_expected(in->diags, in->path, line, (guint)fk + 1, request_cols[k].name, EXP_TOKENS,
                    v);
  }
  if (in->diags->count != errors_before) {
    r->failed = TRUE;
    if (r->cb) in->stop = TRUE; /* a run cannot go on with a broken arrival stream */
    return;
  }
  if (job < 0 || isnan(at)) return; /* a missing column, already reported */
  r->last_at[job] = at;
  if (r->cb && !r->failed && !r->cb((guint32)job, at, service, r->ud)) in->stop = TRUE;
}

static gboolean requests_read(const trace *t, const char *path, trace_request_cb cb, void *ud,
                              diag_list *diags, double **last_at_out) {
  guint errors_before = diags->count;
  guint n = trace_n_jobs(t);
  request_reader r = {.t = t, .cb = cb, .ud = ud, .cached_job = -1};
  r.last_at = g_new(double, n ? n : 1);
  for (guint i = 0; i < n; i++) r.last_at[i] = -1.0;
  r.cached_id = g_string_new(NULL);
  csvread in;
  csvread_init(&in, path, diags, request_row, &r);
  if (csvread_run(&in) && in.rows == 0 && !in.header_bad)
    report_empty(&in, request_cols, R_COUNT);
  csvread_clear(&in);
  g_free(r.def_of);
  g_string_free(r.cached_id, TRUE);
  if (last_at_out) *last_at_out = r.last_at;
  else g_free(r.last_at);
  return diags->count == errors_before;
}

gboolean trace_check_requests(trace *t, const char *path, diag_list *diags) {
  g_return_val_if_fail(t != NULL && path != NULL && diags != NULL, FALSE);
  double *last_at = NULL;
  gboolean ok = requests_read(t, path, NULL, NULL, diags, &last_at);
  if (ok) {
    g_free(t->requested);
    t->requested = g_new0(guint8, trace_n_jobs(t) / 8 + 1);
    for (guint i = 0; i < trace_n_jobs(t); i++)
      if (last_at[i] >= 0) t->requested[i / 8] |= (guint8)(1u << (i % 8));
    g_free(t->requests_path);
    t->requests_path = g_strdup(path);
  }
  g_free(last_at);
  return ok;
}

gboolean trace_requests_foreach(const trace *t, const char *path, trace_request_cb cb, void *ud,
                                diag_list *diags) {
  g_return_val_if_fail(t != NULL && cb != NULL && diags != NULL, FALSE);
  if (!path) path = t->requests_path;
  if (!path) return TRUE;
  return requests_read(t, path, cb, ud, diags, NULL);
}

/* ---- one job's requests as a pull stream (for the request-level inference model) ------
 * The file was checked by trace_check_requests; this reader only re-reads it lazily,
 * feeding libcsv a small chunk at a time and keeping the rows of one job, so memory is
 * bounded by what one chunk can hold, never by the file. */

#define REQCUR_CHUNK 16384u
#define REQCUR_W 4 /* doubles per buffered row */

struct trace_request_cursor {
  FILE *f;
  char *path, *job_id;
  gsize job_id_len;
  csvread_stream *parser;
  char *chunk;
  gboolean started, eof;
  GError *error;
  guint64 rows;              /* rows seen, header included */
  int col_job, col_at, col_svc, col_prompt, col_output;
  /* the row being read */
  guint field;
  gboolean match, at_ok, svc_bad;
  double at_s, svc_ms, last_at_s, prompt, output;
  /* rows of the job not yet handed out: (at_s, service_ms, prompt, output) from
   * buf[REQCUR_W x head] */
  double *buf;
  guint head, len, cap;
};

static void reqcur_fail(trace_request_cursor *c, const char *what) {
  if (!c->error)
    c->error = g_error_new(SHARESIM_ERROR, SHARESIM_ERROR_INPUT, "%s: row %" G_GUINT64_FORMAT
                           " of the requests file: %s (the file changed after it was checked?)",
                           c->path, c->rows, what);
  c->eof = TRUE;
}

static void reqcur_field(void *s, size_t len, void *data) {
  trace_request_cursor *c = data;
  const char *v = s ? s : "";
  guint i = c->field++;
  if (c->rows == 0) { /* header */
    while (len && g_ascii_isspace(*v)) v++, len--;
    while (len && g_ascii_isspace(v[len - 1])) len--;
    if (len == 6 && !memcmp(v, "job_id", 6)) c->col_job = (int)i;
    else if (len == 4 && !memcmp(v, "at_s", 4)) c->col_at = (int)i;
    else if (len == 10 && !memcmp(v, "service_ms", 10)) c->col_svc = (int)i;
    else if (len == 13 && !memcmp(v, "prompt_tokens", 13)) c->col_prompt = (int)i;
    else if (len == 13 && !memcmp(v, "output_tokens", 13)) c->col_output = (int)i;
    return;
  }
  if ((int)i == c->col_job) {
    while (len && g_ascii_isspace(*v)) v++, len--;
    while (len && g_ascii_isspace(v[len - 1])) len--;
    c->match = len == c->job_id_len && !memcmp(v, c->job_id, len);
    return;
  }
  /* the job cell usually comes first: parse numbers only for rows that may be the job's */
  if (c->col_job < (int)i && !c->match) return;
  if ((int)i == c->col_at) {
    c->at_ok = len < 4096 && !memchr(v, 0, len) &&
               parse_range(v, 0, TRUE, (double)TRACE_MAX_TIME_NS / 1e9, TRUE, &c->at_s);
  } else if ((int)i == c->col_svc) {
    if (is_blank(v)) c->svc_ms = NAN;
    else if (len >= 4096 || !parse_range(v, 0, FALSE, TRACE_MAX_MS, TRUE, &c->svc_ms))
      c->svc_bad = TRUE;
  } else if ((int)i == c->col_prompt || (int)i == c->col_output) {
    double *dst = (int)i == c->col_prompt ? &c->prompt : &c->output;
    int64_t tokens;
    if (is_blank(v)) *dst = 0;
    else if (len >= 4096 || !parse_int(v, 1, TRACE_MAX_TOKENS, &tokens)) c->svc_bad = TRUE;
    else *dst = (double)tokens;
  }
}

static void reqcur_row(int term, void *data) {
  trace_request_cursor *c = data;
  gboolean header = c->rows == 0;
  c->rows++;
  if (header) {
    if (c->col_job < 0 || c->col_at < 0) reqcur_fail(c, "no job_id or at_s column");
  } else if (c->match && !c->eof) {
    if (!c->at_ok) reqcur_fail(c, "at_s is not a time in seconds");
    else if (c->svc_bad) reqcur_fail(c, "service_ms or a token count is not a positive number");
    else if (c->at_s < c->last_at_s) reqcur_fail(c, "at_s goes back in time");
    else {
      /* rows are only added while the buffer is empty (head 0): it grows linearly, by at
       * most the rows of one chunk */
      guint k = c->head + c->len;
      if (k + 1 > c->cap) {
        c->cap = MAX(64u, c->cap * 2);
        c->buf = g_renew(double, c->buf, REQCUR_W * (gsize)c->cap);
      }
      double *row = c->buf + REQCUR_W * (gsize)k;
      row[0] = c->at_s;
      row[1] = c->svc_ms;
      row[2] = c->prompt;
      row[3] = c->output;
      c->len++;
      c->last_at_s = c->at_s;
    }
  }
  c->field = 0;
  c->match = c->at_ok = c->svc_bad = FALSE;
  c->svc_ms = NAN;
  c->prompt = c->output = 0;
}

trace_request_cursor *trace_request_cursor_open(const char *path, const char *job_id,
                                                GError **error) {
  g_return_val_if_fail(path != NULL && job_id != NULL, NULL);
  g_autoptr(GError) oerr = NULL;
  FILE *f = safeopen_fopen(path, &oerr);
  if (!f) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "%s: cannot open: %s", path,
                oerr->message);
    return NULL;
  }
  trace_request_cursor *c = g_new0(trace_request_cursor, 1);
  c->f = f;
  c->path = g_strdup(path);
  c->job_id = g_strdup(job_id);
  c->job_id_len = strlen(job_id);
  c->col_job = c->col_at = c->col_svc = c->col_prompt = c->col_output = -1;
  c->svc_ms = NAN;
  c->last_at_s = 0;
  c->chunk = g_malloc(REQCUR_CHUNK);
  c->parser = csvread_stream_new(reqcur_field, reqcur_row, c);
  return c;
}

/* Reads chunks until at least one row of the job is buffered or the file ends. */
static void reqcur_fill(trace_request_cursor *c) {
  c->head = 0;
  while (c->len == 0 && !c->eof) {
    size_t n = fread(c->chunk, 1, REQCUR_CHUNK, c->f);
    const char *s = c->chunk;
    if (n == 0) {
      if (ferror(c->f)) reqcur_fail(c, "cannot read the file");
      else if (!csvread_stream_finish(c->parser))
        reqcur_fail(c, "unterminated quoted cell");
      c->eof = TRUE;
      break;
    }
    if (!c->started) {
      c->started = TRUE;
      if (n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0) s += 3, n -= 3;
    }
    if (!csvread_stream_feed(c->parser, s, n))
      reqcur_fail(c, "malformed CSV");
  }
}

gboolean trace_request_cursor_next_tokens(trace_request_cursor *c, double *at_s,
                                          double *service_ms, guint32 *prompt,
                                          guint32 *output) {
  g_return_val_if_fail(c != NULL, FALSE);
  if (c->len == 0) reqcur_fill(c);
  if (c->len == 0) return FALSE;
  const double *row = c->buf + REQCUR_W * (gsize)c->head;
  *at_s = row[0];
  *service_ms = row[1];
  if (prompt) *prompt = (guint32)row[2];
  if (output) *output = (guint32)row[3];
  c->head++;
  c->len--;
  return TRUE;
}

gboolean trace_request_cursor_next(trace_request_cursor *c, double *at_s, double *service_ms) {
  return trace_request_cursor_next_tokens(c, at_s, service_ms, NULL, NULL);
}

const GError *trace_request_cursor_error(const trace_request_cursor *c) {
  return c ? c->error : NULL;
}

gsize trace_request_cursor_buffered(const trace_request_cursor *c) { return c ? c->len : 0; }

void trace_request_cursor_free(trace_request_cursor *c) {
  if (!c) return;
  csvread_stream_free(c->parser);
  fclose(c->f);
  g_free(c->chunk);
  g_free(c->buf);
  g_free(c->path);
  g_free(c->job_id);
  if (c->error) g_error_free(c->error);
  g_free(c);
}

/* ======================================================================================
 * Writing.
 * ====================================================================================== */

static void write_header_cols(GString *out, int ncols) {
  for (int c = 0; c < ncols; c++) {
    if (c) g_string_append_c(out, ',');
    g_string_append(out, job_cols[c].name);
  }
  g_string_append_c(out, '\n');
}

void trace_write_header(GString *out) { write_header_cols(out, C_BASE_COUNT); }
void trace_write_header_host(GString *out) { write_header_cols(out, C_GPU_SPEC + 1); }
void trace_write_header_full(GString *out) { write_header_cols(out, C_MEM_UTIL + 1); }

static void write_row_base(GString *out, const job_spec *j);

void trace_write_row(GString *out, const job_spec *j) {
  write_row_base(out, j);
  g_string_append_c(out, '\n');
}

static void write_row_host(GString *out, const job_spec *j);

void trace_write_row_host(GString *out, const job_spec *j) {
  write_row_host(out, j);
  g_string_append_c(out, '\n');
}

void trace_write_row_full(GString *out, const job_spec *j) {
  write_row_host(out, j);
  g_string_append_c(out, ',');
  if (j->llm) util_csv_field(out, j->llm->name);
  g_string_append_c(out, ',');
  if (j->prompt_tokens) g_string_append_printf(out, "%" G_GUINT32_FORMAT, j->prompt_tokens);
  g_string_append_c(out, ',');
  if (j->output_tokens) g_string_append_printf(out, "%" G_GUINT32_FORMAT, j->output_tokens);
  g_string_append_c(out, ',');
  if (j->slo_ttft_ms) real_append(out, j->slo_ttft_ms);
  g_string_append_c(out, ',');
  if (j->slo_tpot_ms) real_append(out, j->slo_tpot_ms);
  g_string_append_c(out, ',');
  if (j->gpu_mem_util != TRACE_GPU_MEM_UTIL_DEFAULT) real_append(out, j->gpu_mem_util);
  g_string_append_c(out, ',');
  if (j->mem_util != TRACE_MEM_UTIL_UNKNOWN) real_append(out, j->mem_util);
  g_string_append_c(out, '\n');
}

static void write_row_host(GString *out, const job_spec *j) {
  write_row_base(out, j);
  g_string_append_c(out, ',');
  if (j->cpu_milli) g_string_append_printf(out, "%" G_GINT64_FORMAT, j->cpu_milli);
  g_string_append_c(out, ',');
  if (j->memory_mib) g_string_append_printf(out, "%" G_GINT64_FORMAT, j->memory_mib);
  g_string_append_c(out, ',');
  if (j->gpu_spec && *j->gpu_spec) util_csv_field(out, j->gpu_spec);
}

static void write_row_base(GString *out, const job_spec *j) {
  job_spec d;
  job_init(&d, j->kind);
  gboolean inference = j->kind == JOB_INFERENCE;
  util_csv_field(out, j->id ? j->id : "");
  g_string_append_c(out, ',');
  util_append_fixed9(out, j->submit_ns);
  g_string_append_printf(out, ",%s,%" G_GUINT32_FORMAT ",", job_kind_name(j->kind), j->gpus);
  util_append_fixed9(out, j->mem_bytes);
  g_string_append_c(out, ',');
  util_append_fixed9(out, j->duration_ns);
  g_string_append_c(out, ',');
  util_csv_field(out, j->tenant ? j->tenant : "default");
  g_string_append_c(out, ',');
  util_csv_field(out, j->label ? j->label : "");
  g_string_append_c(out, ',');
  if (j->priority != d.priority) g_string_append_printf(out, "%" G_GINT32_FORMAT, j->priority);
  g_string_append_c(out, ',');
  if (j->gpu_frac != d.gpu_frac) real_append(out, j->gpu_frac);
  g_string_append_c(out, ',');
  if (j->sm != d.sm) real_append(out, j->sm);
  g_string_append_c(out, ',');
  if (j->busy != d.busy) real_append(out, j->busy);
  g_string_append_c(out, ',');
  if (j->burst_ns != d.burst_ns) util_append_fixed9(out, j->burst_ns);
  g_string_append_c(out, ',');
  if (inference || j->rate_rps != d.rate_rps) real_append(out, j->rate_rps);
  g_string_append_c(out, ',');
  /* 0 (not a valid service_ms) is left empty: an LLM row's service time is modelled */
  if (j->service_ms != d.service_ms) real_append(out, j->service_ms);
  g_string_append_c(out, ',');
  if (j->slo_ms != d.slo_ms) real_append(out, j->slo_ms);
  g_string_append_c(out, ',');
  if (j->slo_pct != d.slo_pct) real_append(out, j->slo_pct);
  g_string_append_c(out, ',');
  if (j->kv_bytes != d.kv_bytes) util_append_fixed9(out, j->kv_bytes);
  g_string_append_c(out, ',');
  if (j->max_batch != d.max_batch) g_string_append_printf(out, "%" G_GUINT32_FORMAT, j->max_batch);
  g_string_append_c(out, ',');
  if (j->comm_frac != d.comm_frac) real_append(out, j->comm_frac);
  g_string_append_c(out, ',');
  if (j->checkpoint_ns != d.checkpoint_ns) util_append_fixed9(out, j->checkpoint_ns);
  g_string_append_c(out, ',');
  if (j->restart != d.restart && (unsigned)j->restart < G_N_ELEMENTS(restart_names))
    g_string_append(out, restart_names[j->restart]);
  g_string_append_c(out, ',');
  if (j->gpu_util != d.gpu_util) real_append(out, j->gpu_util);
}
