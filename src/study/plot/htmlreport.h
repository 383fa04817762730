/* htmlreport.h: the one-page HTML report of `sharesim report` for one result folder or a
 * comparison (the first folder is the baseline): the headline in words (saving or extra cost
 * per week, per-day rates and a warning when spans differ), what breaks and where (OOM kills,
 * innocent victims, SLO misses, violation minutes, stragglers, evictions, by pool),
 * utilisation over time (allocated vs busy, dated when the run has a start), cost by pool,
 * showback per tenant adding up to the total with idle spend as its own row, queue wait, and
 * the settings, trace and seed behind each run. Self-contained: inline CSS and SVG, no script
 * and no network. Deterministic for the same folders. */
#pragma once
#include <glib.h>

/* Appends the page for the result folders dirs[0..n) to out. FALSE with error
 * (SHARESIM_ERROR_INPUT) when a folder is not a readable result folder. */
gboolean htmlreport_build(const char *const *dirs, guint n, GString *out, GError **error);
