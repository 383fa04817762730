/* caltime.c: ISO 8601 <-> Unix seconds for calendar-time runs (caltime.h), on GLib's
 * GDateTime. It keeps no state and knows nothing of runs: callers add the simulated seconds. */
#include "caltime.h"
#include <math.h>
#include <stdint.h>

gboolean caltime_parse(const char *text, double *unix_s) {
  if (!text || !*text) return FALSE;
  /* parsed twice with different default zones: a time without its own zone would differ */
  g_autoptr(GTimeZone) utc = g_time_zone_new_utc();
  g_autoptr(GTimeZone) other = g_time_zone_new_offset(5 * 3600);
  g_autoptr(GDateTime) a = g_date_time_new_from_iso8601(text, utc);
  g_autoptr(GDateTime) b = a ? g_date_time_new_from_iso8601(text, other) : NULL;
  if (!a || !b || g_date_time_compare(a, b) != 0) return FALSE;
  gint64 s = g_date_time_to_unix(a);
  if (s < 0 || s > INT64_C(253402300799)) return FALSE; /* 1970 .. 9999-12-31 */
  *unix_s = (double)s + g_date_time_get_microsecond(a) / 1e6;
  return TRUE;
}

void caltime_append(GString *out, double unix_s) {
  double whole = floor(unix_s);
  int ms = (int)lround((unix_s - whole) * 1000);
  if (ms == 1000) {
    whole += 1;
    ms = 0;
  }
  g_autoptr(GDateTime) t = g_date_time_new_from_unix_utc((gint64)whole);
  if (!t) {
    g_string_append(out, "?");
    return;
  }
  g_autofree char *s = g_date_time_format(t, "%Y-%m-%dT%H:%M:%S");
  g_string_append(out, s);
  if (ms) g_string_append_printf(out, ".%03d", ms);
  g_string_append_c(out, 'Z');
}
