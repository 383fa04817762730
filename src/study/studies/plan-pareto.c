/* plan-pareto.c: pareto.csv of `sharesim plan`: per class, the set-ups simulated (every
 * candidate at every size judged, as probes.csv lists them) that are not dominated on monthly
 * cost against worst SLO attainment (front "slo") and against p95 queue wait (front "wait").
 * It reads a finished search only. */
#include "plan.h"
#include <math.h>

void plan_pareto_front(const double *cost, const double *y, guint n, gboolean higher_better,
                       gboolean *on) {
  for (guint i = 0; i < n; i++) {
    on[i] = isfinite(cost[i]) && !isnan(y[i]);
    for (guint j = 0; on[i] && j < n; j++) {
      if (j == i || !isfinite(cost[j]) || isnan(y[j])) continue;
      gboolean y_no_worse = higher_better ? y[j] >= y[i] : y[j] <= y[i];
      gboolean y_better = higher_better ? y[j] > y[i] : y[j] < y[i];
      if (cost[j] <= cost[i] && y_no_worse && (cost[j] < cost[i] || y_better)) on[i] = FALSE;
    }
  }
}

/* One simulated set-up: candidate i at its probe k. */
typedef struct plan_point {
  guint cand, probe;
} plan_point;

/* One row of pareto.csv. */
static void plan_pareto_row(const plan *p, const char *front, plan_point pt, GString *csv) {
  const plan_candidate *c = &g_array_index(p->cands, plan_candidate, pt.cand);
  const req_buy *b = &g_array_index(p->sc->requirements->buy, req_buy, c->buy);
  const sizing_probe *pr = &g_array_index(c->known, sizing_probe, pt.probe);
  const plan_measure *m = g_ptr_array_index(c->measures, pt.probe);
  gboolean rec = g_array_index(p->best, guint, c->cls) == pt.cand && c->answer == pr->nodes;
  g_string_append_printf(csv, "%s,%s,%u,%s,\"%s\",%s,%u,%u", front,
                         g_array_index(p->classes, plan_class, c->cls).pool, pt.cand, c->mechanism,
                         c->settings, b->gpu->name, pr->nodes, pr->nodes * c->gpus_per_node);
  plan_csv_num(csv, plan_cost_month(c, pr->nodes));
  g_string_append_printf(csv, ",%d,%d", pr->pass ? 1 : 0, rec ? 1 : 0);
  plan_csv_num(csv, m->slo_min);
  plan_csv_num(csv, m->wait_p95_s);
  plan_csv_text(csv, g_ptr_array_index(c->whys, pt.probe));
  g_string_append_c(csv, '\n');
}

/* The rows of one front of class ci: its set-ups simulated (every candidate at every size
 * judged) that served every job (plan_served: the figures of the others leave jobs out) and
 * are not dominated on (cost, y), by cost, then candidate and size. slo: y is the worst
 * SLO attainment, else the wait p95. */
static void plan_pareto_class(const plan *p, guint ci, gboolean slo, GString *csv) {
  GArray *pts = g_array_new(FALSE, FALSE, sizeof(plan_point));
  for (guint i = 0; i < p->cands->len; i++) {
    const plan_candidate *c = &g_array_index(p->cands, plan_candidate, i);
    if (c->cls != ci) continue;
    for (guint k = 0; k < c->known->len; k++) g_array_append_val(pts, ((plan_point){i, k}));
  }
  guint n = pts->len;
  double *cost = g_new(double, n + 1), *y = g_new(double, n + 1);
  gboolean *on = g_new(gboolean, n + 1);
  for (guint r = 0; r < n; r++) {
    plan_point pt = g_array_index(pts, plan_point, r);
    const plan_candidate *c = &g_array_index(p->cands, plan_candidate, pt.cand);
    const plan_measure *m = g_ptr_array_index(c->measures, pt.probe);
    cost[r] = plan_cost_month(c, g_array_index(c->known, sizing_probe, pt.probe).nodes);
    y[r] = !plan_served(m) ? NAN : slo ? m->slo_min : m->wait_p95_s; /* all jobs, or none */
  }
  plan_pareto_front(cost, y, n, slo, on);
  GArray *order = g_array_new(FALSE, FALSE, sizeof(guint)); /* points on the front, by cost */
  for (guint r = 0; r < n; r++) {
    if (!on[r]) continue;
    guint at = order->len;
    while (at > 0) {
      guint o = g_array_index(order, guint, at - 1);
      plan_point po = g_array_index(pts, plan_point, o), pr = g_array_index(pts, plan_point, r);
      guint32 no = g_array_index(g_array_index(p->cands, plan_candidate, po.cand).known, sizing_probe, po.probe).nodes;
      guint32 nr = g_array_index(g_array_index(p->cands, plan_candidate, pr.cand).known, sizing_probe, pr.probe).nodes;
      if (cost[o] < cost[r] || (cost[o] == cost[r] && (po.cand < pr.cand || (po.cand == pr.cand && no < nr))))
        break;
      at--;
    }
    g_array_insert_val(order, at, r);
  }
  for (guint k = 0; k < order->len; k++)
    plan_pareto_row(p, slo ? "slo" : "wait", g_array_index(pts, plan_point, g_array_index(order, guint, k)), csv);
  g_array_free(order, TRUE);
  g_array_free(pts, TRUE);
  g_free(cost);
  g_free(y);
  g_free(on);
}

void plan_pareto(const plan *p, GString *csv) {
  g_string_append(csv, "front,class,candidate,mechanism,settings,gpu,nodes,gpus,cost_month,pass,"
                       "recommended,min_slo_attainment,wait_p95_s,broke\n");
  for (int slo = 1; slo >= 0; slo--)
    for (guint ci = 0; ci < p->classes->len; ci++) plan_pareto_class(p, ci, slo, csv);
}
