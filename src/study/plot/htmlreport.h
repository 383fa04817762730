/* htmlreport.h: the one page of `sharesim report` that decides between set-ups (the first
 * is the baseline), read from result, seeds, model-range, compare, sweep and plan folders:
 * the recommendation and its reason first (a plan folder's own, else the cheapest set-up that
 * breaks nothing the baseline does not; whether its saving is sized to the same constraints or
 * the GPU counts typed; whether it flips inside the model range), a warning and no weekly figure when the trace is
 * shorter than a week, then per set-up its cost per 730-hour month and year beside what the
 * saving costs (slowdown per class, SLO attainment, OOM kills, innocent victims, blast radius,
 * queue wait), with seed intervals and model ranges where the folders carry them; the busy
 * share over time and the idle spend; showback; a footer with the version, the inputs'
 * SHA-256 and the prices' sources. Self-contained (inline CSS and SVG, no script, no
 * network), laid out for one printed A4 or Letter page: four set-ups at most (more are
 * judged, the four best shown and the others named). Deterministic. */
#pragma once
#include <glib.h>

/* Appends the page for the folders dirs[0..n) to out. FALSE with error
 * (SHARESIM_ERROR_INPUT) when a folder is none of those kinds or cannot be read. */
gboolean htmlreport_build(const char *const *dirs, guint n, GString *out, GError **error);
