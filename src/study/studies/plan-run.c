/* plan-run.c: the search of `sharesim plan`: every open candidate's `size` search
 * (sizing_state_of, doubling then bisection) advanced one probe per round, the probes of a
 * round run together on the study threads (so the probes made, and every file, are the same
 * at any -j), each probe's seeds run once (a cache keyed by the probe's identity), and
 * after each round the cost bound: a candidate is searched only at sizes cheaper than the
 * best of its class found so far. With --model-range a probe that passes at the models'
 * defaults is run once more per end of each constant's interval (the next round) and
 * passes only when it passes in every one of those runs: the pessimistic end. */
#include "plan.h"
#include "modelrange.h"
#include "outdir.h"
#include "sim.h"
#include "studyrun.h"
#include "util.h"
#include <math.h>
#include <string.h>

/* One run of a round: candidate, size, seed and model-range run. */
typedef struct plan_probe {
  guint cand;
  guint32 nodes;
  guint seed_k;             /* run k: seed k % n_seeds, model-range run k / n_seeds */
  char *key;                /* its identity (the cache's key); owned */
  scenario *sc;             /* owned */
  studyrun_task *task;
} plan_probe;

static void plan_probe_clear(gpointer data) {
  plan_probe *pr = data;
  g_free(pr->key);
  if (pr->sc) scenario_free(pr->sc);
  if (pr->task) studyrun_task_free(pr->task);
}

/* What makes a run: the class, the pool's text, its size, the seed and the constant's end
 * (run k: seed k % n_seeds, model-range run k / n_seeds). */
static char *plan_probe_key(const plan *p, const plan_candidate *c, guint32 nodes, guint k) {
  const req_buy *b = &g_array_index(p->sc->requirements->buy, req_buy, c->buy);
  g_autofree char *end = modelrange_override(k / p->opt.n_seeds);
  return g_strdup_printf("%s|%s|%s|%u|%.17g|%s|%u|%" G_GUINT64_FORMAT "%s%s",
                         g_array_index(p->classes, plan_class, c->cls).pool, b->gpu->name,
                         c->mechanism, c->gpus_per_node, c->price, c->keys, nodes,
                         p->sc->seed + k % p->opt.n_seeds, end ? "|" : "", end ? end : "");
}

/* The probe's scenario written and loaded (NULL with error). */
static scenario *plan_probe_scenario(const plan *p, guint ci, guint32 nodes, guint k,
                                     const char *stem, GError **error) {
  const plan_candidate *c = &g_array_index(p->cands, plan_candidate, ci);
  guint *pick = g_new(guint, p->classes->len);
  guint32 *size = g_new0(guint32, p->classes->len);
  for (guint i = 0; i < p->classes->len; i++) pick[i] = G_MAXUINT;
  pick[c->cls] = ci;
  size[c->cls] = nodes;
  g_autofree char *text = plan_scenario_text(p, pick, size, "plan-probe",
                                             p->sc->seed + k % p->opt.n_seeds, FALSE);
  g_free(pick);
  g_free(size);
  g_autofree char *path = g_strdup_printf("%s.yaml", stem);
  if (!g_file_set_contents(path, text, -1, error)) return NULL;
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autofree char *end = modelrange_override(k / p->opt.n_seeds);
  const char *ov[] = {end};
  scenario *sc = end ? scenario_load_with_overrides(path, ov, 1, d) : scenario_load(path, d);
  if (sc) sim_check_scenario(sc, d);
  if (!sc || diag_has_errors(d)) {
    if (sc) scenario_free(sc);
    diag_to_error(d, error);
    return NULL;
  }
  return sc;
}

/* The sizes candidate c needs next (into sizes), none when its search is over (then its
 * status is set). */
static void plan_next(plan *p, plan_candidate *c, GArray *sizes) {
  if (c->status != PLAN_OPEN) return;
  if (p->opt.exhaustive) {
    for (guint32 n = 1; n <= c->max_nodes; n++) { /* every size, whatever the search's range */
      gboolean known = FALSE;
      for (guint i = 0; i < c->known->len && !known; i++)
        known = g_array_index(c->known, sizing_probe, i).nodes == n;
      if (!known) {
        g_array_append_val(sizes, n);
        return;
      }
    }
    for (guint i = 0; i < c->known->len && c->status == PLAN_OPEN; i++)
      if (g_array_index(c->known, sizing_probe, i).pass) {
        c->status = PLAN_FEASIBLE;
        c->answer = g_array_index(c->known, sizing_probe, i).nodes;
      }
    if (c->status == PLAN_OPEN) c->status = PLAN_REJECTED;
    return;
  }
  sizing_state st;
  sizing_state_of(c->min_nodes, c->cap_nodes, c->known, &st, NULL);
  if (!st.done) {
    g_array_append_val(sizes, st.next);
    return;
  }
  c->answer = st.answer;
  c->status = st.answer ? PLAN_FEASIBLE : c->cap_nodes < c->max_nodes ? PLAN_NOT_CHEAPER
                                                                        : PLAN_REJECTED;
}

/* The why of c's probe of the largest failing size, "" when none. */
static const char *plan_last_why(const plan_candidate *c) {
  const char *why = "";
  guint32 at = 0;
  for (guint i = 0; i < c->known->len; i++) {
    const sizing_probe *pr = &g_array_index(c->known, sizing_probe, i);
    if (!pr->pass && pr->nodes >= at) {
      at = pr->nodes;
      why = g_ptr_array_index(c->whys, i);
    }
  }
  return why;
}

/* The smallest passing size of c, 0 when none. */
static guint32 plan_first_pass(const plan_candidate *c) {
  guint32 n = 0;
  for (guint i = 0; i < c->known->len; i++) {
    const sizing_probe *pr = &g_array_index(c->known, sizing_probe, i);
    if (pr->pass && (!n || pr->nodes < n)) n = pr->nodes;
  }
  return n;
}

/* The verdict of a candidate whose search ended without an answer. */
static void plan_verdict(plan_candidate *c) {
  if (c->verdict || c->status == PLAN_FEASIBLE || c->status == PLAN_OPEN) return;
  guint32 pass = plan_first_pass(c);
  if (c->status == PLAN_NOT_CHEAPER && pass)
    c->verdict = g_strdup_printf("meets them on %u node%s, which costs at least the best "
                                 "candidate (the cost bound stopped its search)", pass,
                                 pass == 1 ? "" : "s");
  else if (c->status == PLAN_NOT_CHEAPER && !c->known->len)
    c->verdict = g_strdup("not simulated: its fewest nodes cost at least the best candidate "
                          "(cost bound)");
  else if (c->status == PLAN_NOT_CHEAPER)
    c->verdict = g_strdup_printf("%s; more nodes would cost at least the best candidate (cost "
                                 "bound)", plan_last_why(c));
  else
    c->verdict = g_strdup_printf("%s, even on %u node%s, the most that may be bought",
                                 plan_last_why(c), c->max_nodes, c->max_nodes == 1 ? "" : "s");
}

/* After a round: each class's best feasible cost caps the sizes its open candidates may
 * still be searched at (only sizes that would cost less are worth a run). */
static void plan_cost_bound(plan *p) {
  for (guint ci = 0; ci < p->classes->len; ci++) {
    double best = INFINITY;
    for (guint i = 0; i < p->cands->len; i++) {
      const plan_candidate *c = &g_array_index(p->cands, plan_candidate, i);
      if (c->cls == ci && c->status == PLAN_FEASIBLE)
        best = MIN(best, plan_cost_month(c, c->answer));
    }
    for (guint i = 0; isfinite(best) && i < p->cands->len; i++) {
      plan_candidate *c = &g_array_index(p->cands, plan_candidate, i);
      if (c->cls != ci || c->status != PLAN_OPEN) continue;
      guint32 cap = 0;
      while (cap < c->cap_nodes && plan_cost_month(c, cap + 1) < best) cap++;
      c->cap_nodes = cap;
      if (cap < c->min_nodes) c->status = PLAN_NOT_CHEAPER;
    }
  }
}

/* Judges model-range run r of candidate ci at nodes from the cache: -1 when a run of it is
 * not in the cache, else whether it meets the constraints (into out and why). */
static int plan_judge_run(const plan *p, guint ci, guint32 nodes, guint r, plan_measure *out,
                          GString *why) {
  const plan_candidate *c = &g_array_index(p->cands, plan_candidate, ci);
  guint ns = p->opt.n_seeds;
  plan_measure **seeds = g_new0(plan_measure *, ns);
  gboolean all = TRUE;
  for (guint k = 0; k < ns; k++) {
    g_autofree char *key = plan_probe_key(p, c, nodes, r * ns + k);
    all &= (seeds[k] = g_hash_table_lookup(p->cache, key)) != NULL;
  }
  int pass = all ? plan_judge(&g_array_index(p->classes, plan_class, c->cls), seeds, ns, out,
                              why)
                 : -1;
  g_free(seeds);
  return pass;
}

/* --model-range: candidate ci at nodes meets the constraints at the models' defaults (its
 * runs there all in the cache), so that the ends' runs are needed. */
static gboolean plan_base_passes(const plan *p, guint ci, guint32 nodes) {
  if (p->opt.n_ranges < 2) return FALSE;
  plan_measure m = {0};
  GString *why = g_string_new(NULL);
  gboolean pass = plan_judge_run(p, ci, nodes, 0, &m, why) == 1;
  plan_measure_clear(&m);
  g_string_free(why, TRUE);
  return pass;
}

/* Starts the runs of candidate ci at nodes that the cache does not hold: its seeds at the
 * defaults, or with --model-range once those pass, its seeds at every end. */
static void plan_start(plan *p, GArray *probes, guint ci, guint32 nodes) {
  const plan_candidate *c = &g_array_index(p->cands, plan_candidate, ci);
  gboolean ends = plan_base_passes(p, ci, nodes);
  guint first = ends ? p->opt.n_seeds : 0;
  guint last = ends ? p->opt.n_seeds * p->opt.n_ranges : p->opt.n_seeds;
  for (guint k = first; k < last; k++) {
    plan_probe pr = {ci, nodes, k, plan_probe_key(p, c, nodes, k), NULL, NULL};
    gboolean queued = FALSE;
    for (guint i = 0; i < probes->len && !queued; i++)
      queued = !strcmp(g_array_index(probes, plan_probe, i).key, pr.key);
    if (queued || g_hash_table_contains(p->cache, pr.key)) {
      p->cache_hits++;
      g_free(pr.key);
      continue;
    }
    gpointer old_key, m;
    if (g_hash_table_steal_extended(p->resumed, pr.key, &old_key, &m)) {
      /* made before an interruption: counted as the run it stands for */
      g_hash_table_insert(p->cache, old_key, m);
      p->runs++;
      p->resumed_runs++;
      p->range_runs += k >= p->opt.n_seeds;
      g_free(pr.key);
      continue;
    }
    g_autofree char *stem = g_strdup_printf("%s/c%u-n%u-s%u", p->work, ci, nodes, k);
    g_autofree char *dir = g_strdup_printf("%s.run", stem);
    GError *err = NULL;
    pr.sc = plan_probe_scenario(p, ci, nodes, k, stem, &err);
    if (pr.sc) {
      const plan_class *cls = &g_array_index(p->classes, plan_class, c->cls);
      pr.task = studyrun_task_new(pr.sc, cls->tr, dir, probes->len);
      /* one seed per probe: a run whose late starts already break the class's wait limit
       * gives up there (with more seeds the 95 % bound is judged over all of them) */
      if (!p->opt.exhaustive && p->opt.n_seeds == 1 && !isnan(cls->max_wait_p95_s)) {
        pr.task->give_up_wait_s = cls->max_wait_p95_s;
        pr.task->give_up_late = plan_give_up_late(cls->n_jobs);
      }
    } else {
      pr.task = studyrun_task_new(NULL, NULL, dir, probes->len);
      pr.task->error = err;
    }
    g_array_append_val(probes, pr);
  }
}

/* Runs the round's probes and puts their measures into the cache and the journal (a probe
 * that could not run has its error in errors, and no entry). FALSE with error when the
 * journal cannot be written. */
static gboolean plan_run_round(plan *p, studyrun_pool *pool, GArray *probes, GHashTable *errors,
                               GError **error) {
  for (guint i = 0; i < probes->len; i++) {
    plan_probe *pr = &g_array_index(probes, plan_probe, i);
    if (pr->sc) studyrun_submit(pool, pr->task);
  }
  studyrun_task *t;
  while ((t = studyrun_wait(pool)) != NULL) (void)t; /* tasks stay owned by their probe */
  GString *lines = g_string_new(NULL);
  for (guint i = 0; i < probes->len; i++) {
    plan_probe *pr = &g_array_index(probes, plan_probe, i);
    p->runs += pr->sc != NULL;
    p->range_runs += pr->sc != NULL && pr->seed_k >= p->opt.n_seeds;
    if (pr->task->fig) {
      plan_measure *m = g_new0(plan_measure, 1);
      plan_measure_of(pr->task->fig, &g_array_index(p->classes, plan_class,
                                                    g_array_index(p->cands, plan_candidate, pr->cand).cls), m);
      g_hash_table_insert(p->cache, g_strdup(pr->key), m);
      plan_journal_line(lines, pr->key, m);
      outdir_remove_tree(pr->task->dir, NULL);
    } else {
      g_hash_table_insert(errors, g_strdup(pr->key),
                          g_strdup(pr->task->error ? pr->task->error->message : "stopped"));
    }
  }
  gboolean ok = plan_journal_append(p, lines, error);
  g_string_free(lines, TRUE);
  return ok;
}

/* The worse of acc and m, figure by figure (into acc): the most never-fitting, queued,
 * waiting, killed and slowed, the lowest SLO attainment (with its service). */
static void plan_measure_worse(plan_measure *acc, const plan_measure *m) {
  double *a[] = {&acc->unplaceable, &acc->queued, &acc->wait_p95_s, &acc->oom_kills,
                 &acc->victims, &acc->slowdown_mean, &acc->slowdown_p95, &acc->blast};
  const double b[] = {m->unplaceable, m->queued, m->wait_p95_s, m->oom_kills,
                      m->victims, m->slowdown_mean, m->slowdown_p95, m->blast};
  for (guint i = 0; i < G_N_ELEMENTS(b); i++)
    if (isfinite(b[i]) && (!isfinite(*a[i]) || b[i] > *a[i])) *a[i] = b[i];
  if (m->stopped_late > acc->stopped_late) { /* an end's run that gave up */
    acc->stopped_late = m->stopped_late;
    acc->stopped_at_s = m->stopped_at_s;
  }
  if (isfinite(m->slo_min) && (!isfinite(acc->slo_min) || m->slo_min < acc->slo_min)) {
    acc->slo_min = m->slo_min;
    g_free(acc->slo_worst);
    acc->slo_worst = g_strdup(m->slo_worst);
  }
}

/* --model-range, the defaults met: judges every end's runs (-1 while some are not in the
 * cache). m becomes the worst figures over the runs; why names the first setting that
 * fails and how many do. */
static int plan_judge_ends(const plan *p, guint ci, guint32 nodes, plan_measure *m,
                           GString *why) {
  guint failing = 0;
  for (guint r = 1; r < p->opt.n_ranges; r++) {
    plan_measure e = {0};
    GString *w = g_string_new(NULL);
    int pass = plan_judge_run(p, ci, nodes, r, &e, w);
    if (pass < 0) {
      g_string_free(w, TRUE);
      return -1;
    }
    plan_measure_worse(m, &e);
    if (!pass && !failing++) {
      g_autofree char *by = modelrange_override(r);
      g_string_append_printf(why, "at %s: %s", by, w->str);
    }
    plan_measure_clear(&e);
    g_string_free(w, TRUE);
  }
  if (failing > 1)
    g_string_append_printf(why, " (and at %u more of the model range's ends)", failing - 1);
  return failing == 0;
}

/* The error of a run of candidate c at nodes, NULL when none failed. */
static const char *plan_probe_error(const plan *p, const plan_candidate *c, guint32 nodes,
                                    GHashTable *errors) {
  guint n = p->opt.n_seeds * MAX(1u, p->opt.n_ranges);
  for (guint k = 0; k < n; k++) {
    g_autofree char *key = plan_probe_key(p, c, nodes, k);
    const char *error = g_hash_table_lookup(errors, key);
    if (error) return error;
  }
  return NULL;
}

/* Judges candidate ci at nodes from the cache: appends the outcome to its search (with
 * --model-range, not yet when it passed at the defaults and the ends have not run). */
static void plan_judge_probe(plan *p, guint ci, guint32 nodes, GHashTable *errors) {
  plan_candidate *c = &g_array_index(p->cands, plan_candidate, ci);
  const char *error = plan_probe_error(p, c, nodes, errors);
  if (error) {
    c->status = PLAN_REJECTED;
    c->verdict = g_strdup_printf("could not run at %u nodes: %s", nodes, error);
    return;
  }
  plan_measure *m = g_new0(plan_measure, 1);
  GString *why = g_string_new(NULL);
  int pass = plan_judge_run(p, ci, nodes, 0, m, why);
  if (pass == 1 && p->opt.n_ranges > 1) pass = plan_judge_ends(p, ci, nodes, m, why);
  if (pass < 0) { /* the ends run in the next round */
    plan_measure_clear(m);
    g_free(m);
    g_string_free(why, TRUE);
    return;
  }
  sizing_probe pr = {nodes, pass == 1};
  g_array_append_val(c->known, pr);
  g_ptr_array_add(c->measures, m);
  g_ptr_array_add(c->whys, g_string_free(why, FALSE));
}

/* The recommended candidate of each class: the cheapest feasible one (the first in
 * candidate order on a tie). */
static void plan_pick(plan *p) {
  for (guint ci = 0; ci < p->classes->len; ci++) {
    guint best = G_MAXUINT;
    for (guint i = 0; i < p->cands->len; i++) {
      const plan_candidate *c = &g_array_index(p->cands, plan_candidate, i);
      if (c->cls != ci || c->status != PLAN_FEASIBLE) continue;
      if (best == G_MAXUINT ||
          plan_cost_month(c, c->answer) <
              plan_cost_month(&g_array_index(p->cands, plan_candidate, best),
                              g_array_index(p->cands, plan_candidate, best).answer))
        best = i;
    }
    g_array_append_val(p->best, best);
  }
}

static void plan_cache_free(gpointer m) {
  plan_measure_clear(m);
  g_free(m);
}

gboolean plan_search(plan *p, GError **error) {
  p->cache = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, plan_cache_free);
  p->resumed = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, plan_cache_free);
  p->best = g_array_new(FALSE, FALSE, sizeof(guint));
  if (!plan_journal_open(p, error)) return FALSE;
  studyrun_pool *pool = studyrun_pool_new(p->opt.jobs, p->opt.progress, "plan");
  GHashTable *errors = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  GArray *sizes = g_array_new(FALSE, FALSE, sizeof(guint32));
  GArray *owner = g_array_new(FALSE, FALSE, sizeof(guint));
  gboolean ok = TRUE;
  for (;;) {
    /* the searches that just ended first, so that the cost bound knows their answers */
    for (guint i = 0; i < p->cands->len; i++)
      plan_next(p, &g_array_index(p->cands, plan_candidate, i), sizes);
    if (!p->opt.exhaustive) plan_cost_bound(p);
    g_array_set_size(sizes, 0);
    g_array_set_size(owner, 0);
    for (guint i = 0; i < p->cands->len; i++) {
      guint before = sizes->len;
      plan_next(p, &g_array_index(p->cands, plan_candidate, i), sizes);
      if (sizes->len > before) g_array_append_val(owner, i);
    }
    if (!sizes->len) break;
    p->rounds++;
    GArray *probes = g_array_new(FALSE, TRUE, sizeof(plan_probe));
    g_array_set_clear_func(probes, plan_probe_clear);
    for (guint i = 0; i < sizes->len; i++)
      plan_start(p, probes, g_array_index(owner, guint, i), g_array_index(sizes, guint32, i));
    ok = plan_run_round(p, pool, probes, errors, error);
    g_array_free(probes, TRUE);
    if (!ok) break;
    for (guint i = 0; i < sizes->len; i++)
      plan_judge_probe(p, g_array_index(owner, guint, i), g_array_index(sizes, guint32, i), errors);
  }
  for (guint i = 0; ok && i < p->cands->len; i++)
    plan_verdict(&g_array_index(p->cands, plan_candidate, i));
  if (ok) plan_pick(p);
  g_array_free(sizes, TRUE);
  g_array_free(owner, TRUE);
  g_hash_table_destroy(errors);
  studyrun_pool_free(pool);
  plan_journal_close(p);
  return ok;
}
