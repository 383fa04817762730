/* sizing.c: the search behind `sharesim size` (doubling, then bisection, under the
 * monotone assumption) and the judging of one run against the constraints. Running the
 * scenario at a given size is the caller's (cmd-size.c), through a probe callback, so
 * the search is tested here with any monotone predicate. */
#include "sizing.h"
#include "util.h"
#include <math.h>
#include <string.h>

static int sizing_run(guint32 n, sizing_probe_fn probe, gpointer user, GArray *probes,
                      GError **error) {
  sizing_verdict v = probe(n, user, error);
  if (v == SIZING_ERROR) return -1;
  sizing_probe p = {n, v == SIZING_PASS};
  if (probes) g_array_append_val(probes, p);
  return p.pass ? 1 : 0;
}

gboolean sizing_search(guint32 min_nodes, guint32 max_nodes, sizing_probe_fn probe,
                       gpointer user, guint32 *answer, GArray *probes, GError **error) {
  g_return_val_if_fail(min_nodes >= 1 && min_nodes <= max_nodes && probe && answer, FALSE);
  *answer = 0;
  int r = sizing_run(min_nodes, probe, user, probes, error);
  if (r < 0) return FALSE;
  if (r == 1) {
    *answer = min_nodes;
    return TRUE;
  }
  /* doubling: lo fails; look for a passing hi */
  guint32 lo = min_nodes, hi = 0;
  while (lo < max_nodes) {
    guint64 next = MAX((guint64)lo * 2, (guint64)lo + 1);
    guint32 n = (guint32)MIN(next, (guint64)max_nodes);
    r = sizing_run(n, probe, user, probes, error);
    if (r < 0) return FALSE;
    if (r == 1) {
      hi = n;
      break;
    }
    lo = n;
  }
  if (!hi) return TRUE; /* even max_nodes fails */
  /* bisection: lo fails, hi passes */
  while (hi - lo > 1) {
    guint32 mid = lo + (hi - lo) / 2;
    r = sizing_run(mid, probe, user, probes, error);
    if (r < 0) return FALSE;
    if (r == 1)
      hi = mid;
    else
      lo = mid;
  }
  *answer = hi;
  return TRUE;
}

static void sizing_fmt(GString *out, figure_unit unit, double v) { figures_format(out, unit, v); }

static void sizing_sep(GString *why) {
  if (why && why->len) g_string_append(why, "; ");
}

gboolean sizing_check(const run_figures *f, const char *pool, const sizing_constraints *c,
                      GString *why, gboolean *slo_applied) {
  gboolean ok = TRUE;
  g_autofree char *k_unplaceable = g_strdup_printf("pool:%s:unplaceable", pool);
  g_autofree char *k_queued = g_strdup_printf("pool:%s:queued", pool);
  g_autofree char *k_wait = g_strdup_printf("pool:%s:wait_p95_s", pool);
  g_autofree char *k_oom = g_strdup_printf("pool:%s:oom_kills", pool);
  double unplaceable = figures_value(f, k_unplaceable), queued = figures_value(f, k_queued);
  if (isfinite(unplaceable) && unplaceable > 0) {
    ok = FALSE;
    sizing_sep(why);
    if (why) g_string_append_printf(why, "%.0f job%s never fit%s", unplaceable,
                                    unplaceable == 1 ? "" : "s", unplaceable == 1 ? "s" : "");
  }
  if (isfinite(queued) && queued > 0) {
    ok = FALSE;
    sizing_sep(why);
    if (why) g_string_append_printf(why, "%.0f job%s still queued at the end", queued,
                                    queued == 1 ? "" : "s");
  }
  if (!isnan(c->max_wait_p95_s)) {
    double w = figures_value(f, k_wait); /* NAN: no job started in the pool */
    if (isfinite(w) && w > c->max_wait_p95_s) {
      ok = FALSE;
      sizing_sep(why);
      if (why) {
        g_string_append(why, "queue wait p95 ");
        sizing_fmt(why, FIGURE_SECONDS, w);
        g_string_append(why, " > ");
        sizing_fmt(why, FIGURE_SECONDS, c->max_wait_p95_s);
      }
    }
  }
  if (c->max_oom >= 0) {
    double o = figures_value(f, k_oom);
    if (isfinite(o) && o > (double)c->max_oom) {
      ok = FALSE;
      sizing_sep(why);
      if (why) g_string_append_printf(why, "%.0f OOM kill%s > %" G_GINT64_FORMAT, o,
                                      o == 1 ? "" : "s", c->max_oom);
    }
  }
  if (slo_applied) *slo_applied = TRUE;
  if (!isnan(c->min_slo)) {
    const char *worst = NULL;
    double a = figures_min_attainment(f, pool, &worst);
    if (isnan(a)) {
      if (slo_applied) *slo_applied = FALSE;
    } else if (a < c->min_slo) {
      ok = FALSE;
      sizing_sep(why);
      if (why) {
        g_string_append_printf(why, "service %s: SLO attainment ", worst ? worst : "?");
        sizing_fmt(why, FIGURE_FRACTION, a);
        g_string_append(why, " < ");
        sizing_fmt(why, FIGURE_FRACTION, c->min_slo);
      }
    }
  }
  return ok;
}

void sizing_describe(const sizing_constraints *c, GString *out) {
  g_string_append(out, "every job fits and none is left queued at the end");
  if (!isnan(c->max_wait_p95_s)) {
    g_string_append(out, "; queue wait p95 <= ");
    sizing_fmt(out, FIGURE_SECONDS, c->max_wait_p95_s);
  }
  if (c->max_oom >= 0) g_string_append_printf(out, "; OOM kills <= %" G_GINT64_FORMAT, c->max_oom);
  if (!isnan(c->min_slo)) {
    g_string_append(out, "; SLO attainment >= ");
    sizing_fmt(out, FIGURE_FRACTION, c->min_slo);
    if (c->slo_ms > 0) g_string_append_printf(out, " within %g ms", c->slo_ms);
    g_string_append(out, " for every service (requests that arrive while it waits for a GPU "
                         "are dropped and count against it)");
  }
}
