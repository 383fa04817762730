/* sizing.c: the search behind `sharesim size` (doubling, then bisection, under the
 * monotone assumption) and the judging of one run against the constraints. Running the
 * scenario at a given size is the caller's (cmd-size.c), through a probe callback, so
 * the search is tested here with any monotone predicate. */
#include "sizing.h"
#include "util.h"
#include <math.h>
#include <string.h>

/* ---- the search, replayed from the outcomes known so far ---- */

/* The outcome of size n: 1 passes, 0 fails, -1 not known. known is a sizing_probe array;
 * extra (may be NULL) holds hypotheses looked at first (the planner's). */
static int sizing_lookup(const GArray *known, const GArray *extra, guint32 n) {
  for (guint k = 0; extra && k < extra->len; k++)
    if (g_array_index(extra, sizing_probe, k).nodes == n)
      return g_array_index(extra, sizing_probe, k).pass;
  for (guint k = 0; known && k < known->len; k++)
    if (g_array_index(known, sizing_probe, k).nodes == n)
      return g_array_index(known, sizing_probe, k).pass;
  return -1;
}

/* The sequential search (probe min; double until a size passes; bisect between the last
 * failure and the first pass) run on the outcomes given, up to the first size whose outcome
 * is not known (st->next) or to its end. path (may be NULL) receives the probes made. */
static void sizing_replay(guint32 min_nodes, guint32 max_nodes, const GArray *known,
                          const GArray *extra, sizing_state *st, GArray *path) {
  *st = (sizing_state){.doubling = TRUE, .range_lo = min_nodes, .range_hi = max_nodes};
  guint32 lo = 0, hi = 0, n = min_nodes;
  for (;;) {
    int r = sizing_lookup(known, extra, n);
    if (r < 0) {
      st->next = n;
      return;
    }
    sizing_probe p = {n, r == 1};
    if (path) g_array_append_val(path, p);
    if (r == 1) hi = n;
    else lo = n;
    if (hi && (!lo || hi - lo <= 1)) { /* the lower end passed, or hi - 1 failed */
      st->answer = hi;
      st->done = TRUE;
      return;
    }
    if (!hi && lo >= max_nodes) { /* even max_nodes fails */
      st->done = TRUE;
      return;
    }
    st->doubling = !hi;
    if (hi) {
      n = lo + (hi - lo) / 2;
      st->range_lo = lo + 1;
      st->range_hi = hi - 1;
    } else {
      n = (guint32)MIN(MAX((guint64)lo * 2, (guint64)lo + 1), (guint64)max_nodes);
      st->range_lo = lo + 1;
      st->range_hi = max_nodes;
    }
  }
}

void sizing_state_of(guint32 min_nodes, guint32 max_nodes, const GArray *known,
                     sizing_state *st, GArray *path) {
  g_return_if_fail(min_nodes >= 1 && min_nodes <= max_nodes);
  sizing_replay(min_nodes, max_nodes, known, NULL, st, path);
}

gboolean sizing_search(guint32 min_nodes, guint32 max_nodes, sizing_probe_fn probe,
                       gpointer user, guint32 *answer, GArray *probes, GError **error) {
  g_return_val_if_fail(min_nodes >= 1 && min_nodes <= max_nodes && probe && answer, FALSE);
  *answer = 0;
  GArray *known = g_array_new(FALSE, FALSE, sizeof(sizing_probe));
  sizing_state st;
  gboolean ok = TRUE;
  for (sizing_replay(min_nodes, max_nodes, known, NULL, &st, NULL); !st.done;
       sizing_replay(min_nodes, max_nodes, known, NULL, &st, NULL)) {
    sizing_verdict v = probe(st.next, user, error);
    if (v == SIZING_ERROR) {
      ok = FALSE;
      break;
    }
    sizing_probe p = {st.next, v == SIZING_PASS};
    g_array_append_val(known, p);
    if (probes) g_array_append_val(probes, p);
  }
  if (ok) *answer = st.answer;
  g_array_free(known, TRUE);
  return ok;
}

/* ---- what to run next on several cores ---- */

/* A node of the planner's tree: outcomes assumed for sizes not known yet (sizing_probe)
 * and the chance that they all come out so. */
typedef struct sizing_guess {
  GArray *assumed;
  double chance;
} sizing_guess;

static gboolean sizing_listed(const guint32 *list, guint n, guint32 size) {
  for (guint i = 0; i < n; i++)
    if (list[i] == size) return TRUE;
  return FALSE;
}

/* Index of the likeliest guess in the frontier (the first of equals: deterministic). */
static guint sizing_likeliest(const GArray *frontier) {
  guint best = 0;
  for (guint i = 1; i < frontier->len; i++)
    if (g_array_index(frontier, sizing_guess, i).chance >
        g_array_index(frontier, sizing_guess, best).chance)
      best = i;
  return best;
}

/* The guess g with one more outcome assumed. */
static sizing_guess sizing_assume(const sizing_guess *g, guint32 n, gboolean pass, double p) {
  sizing_guess c = {g_array_new(FALSE, FALSE, sizeof(sizing_probe)), g->chance * p};
  g_array_append_vals(c.assumed, g->assumed->data, g->assumed->len);
  sizing_probe pr = {n, pass};
  g_array_append_val(c.assumed, pr);
  return c;
}

guint sizing_plan(guint32 min_nodes, guint32 max_nodes, const GArray *known,
                  const guint32 *running, guint n_running, guint32 *out, guint want) {
  guint got = 0;
  GArray *frontier = g_array_new(FALSE, FALSE, sizeof(sizing_guess));
  sizing_guess root = {g_array_new(FALSE, FALSE, sizeof(sizing_probe)), 1.0};
  g_array_append_val(frontier, root);
  for (guint expanded = 0; got < want && frontier->len && expanded < SIZING_PLAN_NODES;
       expanded++) {
    guint i = sizing_likeliest(frontier);
    sizing_guess g = g_array_index(frontier, sizing_guess, i);
    g_array_remove_index(frontier, i);
    sizing_state st;
    sizing_replay(min_nodes, max_nodes, known, g.assumed, &st, NULL);
    if (!st.done) {
      if (!sizing_listed(running, n_running, st.next) && !sizing_listed(out, got, st.next))
        out[got++] = st.next;
      double fail = st.doubling ? SIZING_DOUBLING_FAIL_CHANCE : 0.5;
      sizing_guess f = sizing_assume(&g, st.next, FALSE, fail);
      sizing_guess p = sizing_assume(&g, st.next, TRUE, 1 - fail);
      g_array_append_val(frontier, f);
      g_array_append_val(frontier, p);
    }
    g_array_free(g.assumed, TRUE);
  }
  for (guint i = 0; i < frontier->len; i++)
    g_array_free(g_array_index(frontier, sizing_guess, i).assumed, TRUE);
  g_array_free(frontier, TRUE);
  return got;
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
