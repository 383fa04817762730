/* caltime.h: calendar time for runs placed at a date (scenario `start:`): ISO 8601 times
 * with a zone read into Unix seconds, and Unix seconds written back as UTC ISO 8601. */
#pragma once
#include <glib.h>

/* Parses "2026-11-01T00:00:00Z" or "2026-11-01T02:00:00+02:00" (a zone is required, so that
 * the same file means the same instant everywhere); fractions of a second are kept. FALSE
 * when text is not such a time or lies outside the years 1970-9999. */
gboolean caltime_parse(const char *text, double *unix_s);
/* Appends unix_s as "2026-11-01T00:00:00Z", with milliseconds ("...:00.250Z") when the time
 * is not a whole second. */
void caltime_append(GString *out, double unix_s);
