/* plan-report.c: the files of `sharesim plan` from a finished search: plan.txt (the ranked
 * table of each class, its explanation, the recommended set-up as run), plan.csv (one row
 * per candidate) and probes.csv (every size judged). It formats only; the search and the
 * judging are plan-run.c's and plan.c's. */
#include "plan.h"
#include <math.h>
#include <string.h>

/* The probe of candidate c shown for it: its answer when feasible, else its smallest passing
 * size (a search the cost bound stopped), else the largest size judged; -1 when none was. */
static int plan_shown(const plan_candidate *c) {
  int pass = -1, fail = -1;
  for (guint i = 0; i < c->known->len; i++) {
    const sizing_probe *pr = &g_array_index(c->known, sizing_probe, i);
    if (c->status == PLAN_FEASIBLE && pr->nodes == c->answer) return (int)i;
    if (pr->pass && (pass < 0 || pr->nodes < g_array_index(c->known, sizing_probe, pass).nodes))
      pass = (int)i;
    if (!pr->pass && (fail < 0 || pr->nodes > g_array_index(c->known, sizing_probe, fail).nodes))
      fail = (int)i;
  }
  return pass >= 0 ? pass : fail;
}

static const char *plan_status_name(plan_status s) {
  switch (s) {
  case PLAN_FEASIBLE: return "feasible";
  case PLAN_REJECTED: return "rejected";
  case PLAN_NEVER_FITS: return "never-fits";
  case PLAN_NOT_CHEAPER: return "not-cheaper";
  default: return "open";
  }
}

static char *plan_setup_name(const plan *p, const plan_candidate *c) {
  const req_buy *b = &g_array_index(p->sc->requirements->buy, req_buy, c->buy);
  return g_strdup_printf("%s%s%s on %s", c->mechanism, c->settings[0] ? " " : "", c->settings,
                         b->gpu->name);
}

/* The cost a candidate is ranked by: at its answer, else at the size shown; INFINITY when
 * none was judged. */
static double plan_rank_cost(const plan_candidate *c) {
  int s = plan_shown(c);
  return s < 0 ? INFINITY : plan_cost_month(c, g_array_index(c->known, sizing_probe, s).nodes);
}

/* Candidate indices of class ci in the order shown: feasible ones by cost, then the others
 * by the cost of the size shown (candidate order on ties and for those never judged). */
static GArray *plan_ranked(const plan *p, guint ci) {
  GArray *r = g_array_new(FALSE, FALSE, sizeof(guint));
  for (int pass = 0; pass < 2; pass++)
    for (guint i = 0; i < p->cands->len; i++) {
      const plan_candidate *c = &g_array_index(p->cands, plan_candidate, i);
      if (c->cls != ci || (c->status == PLAN_FEASIBLE) != (pass == 0)) continue;
      guint at = r->len;
      while (at > 0) {
        const plan_candidate *o = &g_array_index(p->cands, plan_candidate, g_array_index(r, guint, at - 1));
        if ((o->status == PLAN_FEASIBLE) != (c->status == PLAN_FEASIBLE) ||
            plan_rank_cost(o) <= plan_rank_cost(c))
          break;
        at--;
      }
      g_array_insert_val(r, at, i);
    }
  return r;
}

void plan_csv_num(GString *csv, double v) {
  if (isfinite(v)) g_string_append_printf(csv, ",%.6g", v);
  else g_string_append(csv, ",");
}

void plan_csv_text(GString *csv, const char *s) {
  g_string_append(csv, ",\"");
  for (const char *q = s ? s : ""; *q; q++) {
    if (*q == '"') g_string_append_c(csv, '"');
    g_string_append_c(csv, *q);
  }
  g_string_append_c(csv, '"');
}

/* One candidate's row of plan.csv. */
static void plan_csv_row(const plan *p, guint rank, guint i, GString *csv) {
  const plan_candidate *c = &g_array_index(p->cands, plan_candidate, i);
  const plan_class *k = &g_array_index(p->classes, plan_class, c->cls);
  const req_buy *b = &g_array_index(p->sc->requirements->buy, req_buy, c->buy);
  int s = plan_shown(c);
  const plan_measure *m = s >= 0 ? g_ptr_array_index(c->measures, s) : NULL;
  guint32 nodes = s >= 0 ? g_array_index(c->known, sizing_probe, s).nodes : 0;
  gboolean rec = g_array_index(p->best, guint, c->cls) == i;
  g_string_append_printf(csv, "%s,%u,%s,\"%s\",%s,%u,%u", k->pool, rank, c->mechanism, c->settings,
                         b->gpu->name, nodes, nodes * c->gpus_per_node);
  plan_csv_num(csv, nodes ? plan_cost_month(c, nodes) : NAN);
  g_string_append_printf(csv, ",%s", rec ? "recommended" : plan_status_name(c->status));
  plan_csv_num(csv, m ? m->allocated_frac : NAN);
  plan_csv_num(csv, m ? m->busy_frac : NAN);
  plan_csv_num(csv, m ? m->slo_min : NAN);
  plan_csv_num(csv, m ? m->oom_kills : NAN);
  plan_csv_num(csv, m ? m->victims : NAN);
  plan_csv_num(csv, m ? m->blast : NAN);
  plan_csv_num(csv, m ? m->slowdown_mean : NAN);
  plan_csv_num(csv, m ? m->slowdown_p95 : NAN);
  plan_csv_num(csv, m ? m->wait_p95_s : NAN);
  plan_csv_text(csv, c->status == PLAN_FEASIBLE ? "" : c->verdict);
  g_string_append_c(csv, '\n');
}

static void plan_fmt(GString *t, figure_unit u, double v, int width) {
  GString *s = g_string_new(NULL);
  figures_format(s, u, v);
  g_string_append_printf(t, " %*s", width, s->str);
  g_string_free(s, TRUE);
}

/* One candidate's line of plan.txt. */
static void plan_text_row(const plan *p, guint rank, guint i, GString *t) {
  const plan_candidate *c = &g_array_index(p->cands, plan_candidate, i);
  int s = plan_shown(c);
  const plan_measure *m = s >= 0 ? g_ptr_array_index(c->measures, s) : NULL;
  guint32 nodes = s >= 0 ? g_array_index(c->known, sizing_probe, s).nodes : 0;
  g_autofree char *name = plan_setup_name(p, c);
  gboolean rec = g_array_index(p->best, guint, c->cls) == i;
  g_string_append_printf(t, "  %c%-3u %-52s", rec ? '*' : ' ', rank, name);
  if (nodes) g_string_append_printf(t, " %5u %4u", nodes, nodes * c->gpus_per_node);
  else g_string_append_printf(t, " %5s %4s", "-", "-");
  plan_fmt(t, FIGURE_MONEY, nodes ? plan_cost_month(c, nodes) : NAN, 10);
  plan_fmt(t, FIGURE_FRACTION, m ? m->allocated_frac : NAN, 6);
  plan_fmt(t, FIGURE_FRACTION, m ? m->busy_frac : NAN, 6);
  plan_fmt(t, FIGURE_FRACTION, m ? m->slo_min : NAN, 7);
  plan_fmt(t, FIGURE_NUMBER, m ? m->oom_kills : NAN, 4);
  plan_fmt(t, FIGURE_NUMBER, m ? m->victims : NAN, 4);
  plan_fmt(t, FIGURE_NUMBER, m ? m->blast : NAN, 5);
  plan_fmt(t, FIGURE_RATIO, m ? m->slowdown_mean : NAN, 6);
  plan_fmt(t, FIGURE_RATIO, m ? m->slowdown_p95 : NAN, 6);
  plan_fmt(t, FIGURE_SECONDS, m ? m->wait_p95_s : NAN, 8);
  if (c->status == PLAN_FEASIBLE) g_string_append(t, "  meets all\n");
  else g_string_append_printf(t, "  %s\n", c->verdict ? c->verdict : "");
}

/* The dearest size of any candidate of class ci that costs less than limit and was judged
 * failing: candidate index and probe index into its known, FALSE when none. */
static gboolean plan_next_cheaper(const plan *p, guint ci, double limit, guint *cand, guint *probe) {
  double best = -1;
  for (guint i = 0; i < p->cands->len; i++) {
    const plan_candidate *c = &g_array_index(p->cands, plan_candidate, i);
    if (c->cls != ci) continue;
    for (guint k = 0; k < c->known->len; k++) {
      const sizing_probe *pr = &g_array_index(c->known, sizing_probe, k);
      double cost = plan_cost_month(c, pr->nodes);
      if (!pr->pass && cost < limit && cost > best) {
        best = cost;
        *cand = i;
        *probe = k;
      }
    }
  }
  return best >= 0;
}

static guint plan_count_failures(const char *why) {
  guint n = why && *why ? 1 : 0;
  for (const char *q = why; q && (q = strstr(q, "; ")); q += 2) n++;
  return n;
}

/* No candidate of class ci meets its constraints: the closest ones (fewest constraints
 * broken at their largest size, then cheapest). */
static void plan_explain_none(const plan *p, guint ci, GString *t) {
  g_string_append(t, "  no set-up within the purchase limits meets these constraints.\n");
  GArray *order = g_array_new(FALSE, FALSE, sizeof(guint));
  for (guint i = 0; i < p->cands->len; i++) {
    const plan_candidate *c = &g_array_index(p->cands, plan_candidate, i);
    if (c->cls != ci || plan_shown(c) < 0) continue;
    guint f = plan_count_failures(g_ptr_array_index(c->whys, plan_shown(c)));
    guint at = order->len;
    while (at > 0) {
      const plan_candidate *o = &g_array_index(p->cands, plan_candidate, g_array_index(order, guint, at - 1));
      if (plan_count_failures(g_ptr_array_index(o->whys, plan_shown(o))) <= f) break;
      at--;
    }
    g_array_insert_val(order, at, i);
  }
  for (guint r = 0; r < MIN(order->len, 3u); r++) {
    const plan_candidate *c = &g_array_index(p->cands, plan_candidate, g_array_index(order, guint, r));
    g_autofree char *name = plan_setup_name(p, c);
    int s = plan_shown(c);
    g_string_append_printf(t, "  %s: %s on %u nodes: %s\n", r ? "next closest" : "closest", name,
                           g_array_index(c->known, sizing_probe, s).nodes,
                           (const char *)g_ptr_array_index(c->whys, s));
  }
  if (!order->len) g_string_append(t, "  no candidate could be simulated (see the table).\n");
  g_array_free(order, TRUE);
}

/* One line for the candidates of class ci pruned because a job never fits (plan.csv has a
 * row for each). */
static void plan_never_fits(const plan *p, guint ci, GString *t) {
  guint n = 0;
  for (guint i = 0; i < p->cands->len; i++) {
    const plan_candidate *c = &g_array_index(p->cands, plan_candidate, i);
    if (c->cls != ci || c->status != PLAN_NEVER_FITS) continue;
    g_autofree char *name = plan_setup_name(p, c);
    if (!n++) {
      const plan_class *k = &g_array_index(p->classes, plan_class, ci);
      g_string_append_printf(t, "  pruned before simulating (a job never fits their devices; "
                                "largest job %s, %.1f GB; widest %u GPU%s): ", k->big_job,
                             k->max_mem_bytes / 1e9, k->max_job_gpus, k->max_job_gpus == 1 ? "" : "s");
    }
    g_string_append_printf(t, "%s%s", n > 1 ? "; " : "", name);
  }
  if (n) g_string_append_c(t, '\n');
}

/* The explanation of class ci's recommendation. */
static void plan_explain(const plan *p, guint ci, GString *t) {
  const plan_class *k = &g_array_index(p->classes, plan_class, ci);
  guint bi = g_array_index(p->best, guint, ci);
  if (bi == G_MAXUINT) {
    plan_explain_none(p, ci, t);
    return;
  }
  const plan_candidate *c = &g_array_index(p->cands, plan_candidate, bi);
  g_autofree char *name = plan_setup_name(p, c);
  double cost = plan_cost_month(c, c->answer);
  g_string_append_printf(t, "  chosen: %s, %u node%s of %u GPUs, $%.2f a month: the cheapest "
                            "set-up found that the trust of its tenants allows (%s) and that "
                            "meets every constraint.\n", name, c->answer,
                         c->answer == 1 ? "" : "s", c->gpus_per_node, cost,
                         requirements_trust_name(k->trust));
  const char *binding = NULL;
  for (guint i = 0; i < c->known->len; i++)
    if (g_array_index(c->known, sizing_probe, i).nodes + 1 == c->answer)
      binding = g_ptr_array_index(c->whys, i);
  if (binding)
    g_string_append_printf(t, "  binding constraint: on %u node%s it broke: %s\n", c->answer - 1,
                           c->answer == 2 ? "" : "s", binding);
  else
    g_string_append(t, "  binding constraint: none: one node, the fewest that may be bought, "
                       "meets them all\n");
  guint nc = 0, np = 0;
  if (plan_next_cheaper(p, ci, cost, &nc, &np)) {
    const plan_candidate *o = &g_array_index(p->cands, plan_candidate, nc);
    g_autofree char *oname = plan_setup_name(p, o);
    guint32 n = g_array_index(o->known, sizing_probe, np).nodes;
    g_string_append_printf(t, "  next cheaper set-up tried: %s on %u node%s ($%.2f a month) "
                              "broke: %s\n", oname, n, n == 1 ? "" : "s", plan_cost_month(o, n),
                           (const char *)g_ptr_array_index(o->whys, np));
  } else {
    g_string_append(t, "  next cheaper set-up tried: none (nothing cheaper was simulated)\n");
  }
}

/* A class's header lines: its jobs, tenants, trust, mechanisms, constraints. */
static void plan_class_head(const plan *p, guint ci, GString *t) {
  const plan_class *k = &g_array_index(p->classes, plan_class, ci);
  g_string_append_printf(t, "class %s: %u job%s, tenant%s ", k->pool, k->n_jobs,
                         k->n_jobs == 1 ? "" : "s", k->tenants->len == 1 ? "" : "s");
  for (guint i = 0; i < k->tenants->len; i++)
    g_string_append_printf(t, "%s%s", i ? ", " : "", (const char *)g_ptr_array_index(k->tenants, i));
  g_string_append_printf(t, "\n  trust: %s; mechanisms allowed: ", requirements_trust_name(k->trust));
  for (guint i = 0; i < k->allowed->len; i++)
    g_string_append_printf(t, "%s%s", i ? ", " : "", (const char *)g_ptr_array_index(k->allowed, i));
  g_string_append(t, "\n  constraints: ");
  plan_describe_constraints(k, t);
  g_string_append_printf(t, "\n  %-4s %-52s %5s %4s %10s %6s %6s %7s %4s %4s %5s %6s %6s %8s  %s\n",
                         "rank", "set-up", "nodes", "GPUs", "$/month", "alloc", "busy", "min SLO",
                         "OOM", "vict", "blast", "sd.avg", "sd.p95", "wait p95", "verdict");
}

/* The recommended set-up as its own run (joined): total and each class judged again. */
static void plan_joined(const plan *p, const run_figures *joined, GString *t) {
  double cost = 0;
  guint64 gpus = 0;
  gboolean all = TRUE;
  for (guint ci = 0; ci < p->classes->len; ci++) {
    guint bi = g_array_index(p->best, guint, ci);
    if (bi == G_MAXUINT) {
      all = FALSE;
      continue;
    }
    const plan_candidate *c = &g_array_index(p->cands, plan_candidate, bi);
    cost += plan_cost_month(c, c->answer);
    gpus += (guint64)c->answer * c->gpus_per_node;
  }
  if (!all) {
    g_string_append(t, "recommendation: none: some class has no set-up that meets its "
                       "constraints (above)\n");
    return;
  }
  g_string_append_printf(t, "recommendation: %" G_GUINT64_FORMAT " GPUs, $%.2f a month (730 h): "
                            "scenario.yaml; its own run is recommended/\n", gpus, cost);
  for (guint ci = 0; joined && ci < p->classes->len; ci++) {
    const plan_class *k = &g_array_index(p->classes, plan_class, ci);
    plan_measure m, out;
    plan_measure_of(joined, k, &m);
    plan_measure *one = &m;
    GString *why = g_string_new(NULL);
    gboolean ok = plan_judge(k, &one, 1, &out, why);
    g_string_append_printf(t, "  as run, pool %s: %s%s\n", k->pool, ok ? "meets its constraints" : "breaks: ",
                           why->str);
    g_string_free(why, TRUE);
    plan_measure_clear(&m);
    plan_measure_clear(&out);
  }
}

/* probes.csv: every size judged, by class, candidate and size. */
static void plan_probes_csv(const plan *p, GString *probes) {
  g_string_append(probes, "class,candidate,mechanism,settings,gpu,nodes,gpus,cost_month,pass,broke,"
                         "served,min_slo_attainment,wait_p95_s\n");
  for (guint i = 0; i < p->cands->len; i++) {
    const plan_candidate *c = &g_array_index(p->cands, plan_candidate, i);
    const req_buy *b = &g_array_index(p->sc->requirements->buy, req_buy, c->buy);
    for (guint k = 0; k < c->known->len; k++) {
      const sizing_probe *pr = &g_array_index(c->known, sizing_probe, k);
      g_string_append_printf(probes, "%s,%u,%s,\"%s\",%s,%u,%u",
                             g_array_index(p->classes, plan_class, c->cls).pool, i, c->mechanism,
                             c->settings, b->gpu->name, pr->nodes, pr->nodes * c->gpus_per_node);
      plan_csv_num(probes, plan_cost_month(c, pr->nodes));
      g_string_append_printf(probes, ",%d", pr->pass ? 1 : 0);
      plan_csv_text(probes, g_ptr_array_index(c->whys, k));
      const plan_measure *m = g_ptr_array_index(c->measures, k);
      g_string_append_printf(probes, ",%d", plan_served(m) ? 1 : 0);
      plan_csv_num(probes, m->slo_min);
      plan_csv_num(probes, m->wait_p95_s);
      g_string_append_c(probes, '\n');
    }
  }
}

void plan_report(const plan *p, const run_figures *joined, GString *text, GString *csv,
                 GString *probes) {
  g_autofree char *trace_base = g_path_get_basename(p->trace_path);
  guint never = 0, capped = 0;
  for (guint i = 0; i < p->cands->len; i++) {
    plan_status s = g_array_index(p->cands, plan_candidate, i).status;
    never += s == PLAN_NEVER_FITS;
    capped += s == PLAN_NOT_CHEAPER;
  }
  g_string_append_printf(text, "plan: scenario '%s' on trace %s; %u seed%s per probe%s\n",
                         p->sc->name, trace_base, p->opt.n_seeds, p->opt.n_seeds == 1 ? "" : "s",
                         p->opt.n_seeds > 1 ? " (a constraint holds when its 95 % bound does)" : "");
  g_string_append_printf(text, "search: %u candidates, %u pruned before simulating (a job never "
                               "fits), %u stopped by the cost bound; %u runs in %u rounds, %u "
                               "cache hits%s\n\n", p->cands->len, never, capped, p->runs,
                         p->rounds, p->cache_hits, p->opt.exhaustive ? "; exhaustive: every size of every candidate" : "");
  if (p->opt.n_ranges > 1) {
    g_string_truncate(text, text->len - 1);
    g_string_append_printf(text, "model range: judged at the pessimistic end: a size that meets "
                                 "the constraints at the models' defaults is run again with each "
                                 "of %u constants at each end of its interval (docs/models.md, "
                                 "\"Model uncertainty\") and meets them only when it does in "
                                 "every run; %u of the %u runs were at an end\n\n",
                           (p->opt.n_ranges - 1) / 2, p->range_runs, p->runs);
  }
  g_string_append(csv, "class,rank,mechanism,settings,gpu,nodes,gpus,cost_month,status,"
                       "allocated_frac,busy_frac,min_slo_attainment,oom_kills,innocent_victims,"
                       "blast_radius,slowdown_mean,slowdown_p95,wait_p95_s,broke\n");
  for (guint ci = 0; ci < p->classes->len; ci++) {
    plan_class_head(p, ci, text);
    GArray *r = plan_ranked(p, ci);
    for (guint i = 0; i < r->len; i++) {
      if (g_array_index(p->cands, plan_candidate, g_array_index(r, guint, i)).status != PLAN_NEVER_FITS)
        plan_text_row(p, i + 1, g_array_index(r, guint, i), text);
      plan_csv_row(p, i + 1, g_array_index(r, guint, i), csv);
    }
    plan_never_fits(p, ci, text);
    g_array_free(r, TRUE);
    plan_explain(p, ci, text);
    g_string_append_c(text, '\n');
  }
  plan_joined(p, joined, text);
  plan_probes_csv(p, probes);
}

void plan_explain_failures(const plan *p, GString *out) {
  for (guint ci = 0; ci < p->classes->len; ci++)
    if (g_array_index(p->best, guint, ci) == G_MAXUINT) {
      g_string_append_printf(out, "class %s:\n", g_array_index(p->classes, plan_class, ci).pool);
      plan_explain_none(p, ci, out);
    }
}
