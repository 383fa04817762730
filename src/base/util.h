/* util.h: the error domain, simulated time, and parsing of the unit-bearing values
 * (durations such as "90s", sizes such as "40GB") shared by every input reader.
 * Nothing here knows about jobs, pools or GPUs. */
#pragma once
#include <glib.h>
#include <stdint.h>

/* Simulated time: integer nanoseconds since the trace start. */
typedef int64_t sim_time;
#define SIM_NS_PER_S  INT64_C(1000000000)
#define SIM_NS_PER_MS INT64_C(1000000)
#define SIM_TIME_NEVER INT64_MAX

/* When work (ns of progress) at rate (> 0) started at `at` is done: at + ceil(work / rate),
 * SIM_TIME_NEVER when that is beyond the clock. A job's completion (sim.c) and a walked
 * burst's end (bursts.c) both take it. */
static inline sim_time util_done_at(sim_time at, double work, double rate) {
  double dt = __builtin_ceil(work / rate);
  if (!(dt < 9e18)) return SIM_TIME_NEVER;
  sim_time end = at + (sim_time)dt;
  return end < at ? SIM_TIME_NEVER : end;
}

#define SHARESIM_ERROR (sharesim_error_quark())
GQuark sharesim_error_quark(void);
typedef enum {
  SHARESIM_ERROR_INPUT = 2,   /* bad input or usage: exit code 2 */
  SHARESIM_ERROR_RUNTIME = 1, /* could not write, could not spawn: exit code 1 */
  SHARESIM_ERROR_STDOUT = 3,  /* stdout could not be written: exit code 1, said once, with
                               * the reason, by the command line's check of stdout at exit */
} SharesimErrorCode;

/* Seconds (double) <-> nanoseconds, rounded to the nearest nanosecond. */
sim_time util_seconds_to_ns(double seconds);
double util_ns_to_seconds(sim_time ns);

/* Parses a duration with a unit: "250ms", "90s", "2m", "1h", "7d", "1.5h", "30us", "10ns",
 * or Go's compound form, largest unit first with no space: "1h30m", "2m30.5s", "1d12h".
 * A bare number is accepted only when bare_unit_ns > 0 (it is then multiplied by it).
 * Returns FALSE and sets *expected to a static description on error. */
gboolean util_parse_duration(const char *text, sim_time bare_unit_ns, sim_time *out_ns,
                             const char **expected);

/* Parses a size: "40GB", "40 GB", "37.25GiB", "512MB", "512MiB", "1TB".
 * A bare number is taken as GB (10^9 bytes) when bare_is_gb, else refused. */
gboolean util_parse_size(const char *text, gboolean bare_is_gb, int64_t *out_bytes,
                         const char **expected);

/* Strict number parsing of a whole string: decimal only (no hexadecimal, inf or nan), no
 * trailing junk, finite, not out of range (ERANGE: beyond 1.8e308 or below 2.2e-308). */
gboolean util_parse_double(const char *text, double *out);
gboolean util_parse_int64(const char *text, int64_t *out);

/* Bytes as (decimal) GB, a double: UTIL_GB(79500000000) is 79.5. Formatting is the
 * caller's ("%.2f"). */
#define UTIL_GB(bytes) ((double)(bytes) / 1e9)
#define UTIL_GIB (INT64_C(1073741824))
#define UTIL_GB_BYTES (INT64_C(1000000000))

/* A name that is safe to use as a file-name component and to show in plots:
 * [A-Za-z0-9._-], 1..64 characters, not starting with '.' or '-'. */
gboolean util_name_is_safe(const char *name);

/* v rounded to `digits` significant digits, as the double nearest that decimal (24.7, never
 * 247 x 0.1 = 24.700000000000003, which a trace writer must print in full). */
double util_round_sig(double v, int digits);
/* Appends the shortest "%.Ng" text (N from min_prec up to 17) that reads back to exactly v
 * (finite): 0.25 -> "0.25", 1e-7 -> "1e-07"; between 1e-6 and 1e16 never an exponent (40 ->
 * "40", not "4e+01"; 1.2e-05 -> "0.000012"). */
void util_append_shortest(GString *out, double v, int min_prec);
/* Appends v / 10^9 as the shortest exact decimal: 1500000000 -> "1.5", 0 -> "0". */
void util_append_fixed9(GString *out, int64_t v);
/* Appends the decimal digits of v (no sign, no padding). */
void util_append_u64(GString *out, guint64 v);

/* Writes a CSV field, quoting when it holds a comma, quote, CR or LF. */
void util_csv_field(GString *out, const char *field);

/* Line ends: LF, CR and CRLF each end one line (every reader counts lines this way).
 * util_text_position: the 1-based line and column of byte offset off in text[0..len). */
void util_text_position(const char *text, gsize len, gsize off, guint *line, guint *col);
/* Rewrites CRLF and lone CR as LF in place (text[0..*len), NUL-terminated after); *len
 * shrinks by the number of CRLF pairs. Line numbers of the result are those of the input. */
void util_normalize_line_ends(char *text, gsize *len);
