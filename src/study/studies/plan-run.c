/* plan-run.c: the search of `sharesim plan`: every open candidate's `size` search
 * (sizing_state_of, doubling then bisection) advanced one probe per round, the probes of a
 * round run together on the study threads (so the probes made, and every file, are the same
 * at any -j), each probe's seeds run once (a cache keyed by the probe's identity), and
 * after each round the cost bound: a candidate is searched only at sizes cheaper than the
 * best of its class found so far. */
#include "plan.h"
#include "outdir.h"
#include "sim.h"
#include "studyrun.h"
#include "util.h"
#include <math.h>
#include <string.h>

/* One run of a round: candidate, size, seed. */
typedef struct plan_probe {
  guint cand;
  guint32 nodes;
  guint seed_k;
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

/* What makes a run: the class, the pool's text, its size and the seed. */
static char *plan_probe_key(const plan *p, const plan_candidate *c, guint32 nodes, guint k) {
  const req_buy *b = &g_array_index(p->sc->requirements->buy, req_buy, c->buy);
  return g_strdup_printf("%s|%s|%s|%u|%.17g|%s|%u|%" G_GUINT64_FORMAT,
                         g_array_index(p->classes, plan_class, c->cls).pool, b->gpu->name,
                         c->mechanism, c->gpus_per_node, c->price, c->keys, nodes,
                         p->sc->seed + k);
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
  g_autofree char *text = plan_scenario_text(p, pick, size, "plan-probe", p->sc->seed + k, FALSE);
  g_free(pick);
  g_free(size);
  g_autofree char *path = g_strdup_printf("%s.yaml", stem);
  if (!g_file_set_contents(path, text, -1, error)) return NULL;
  g_autoptr(diag_list) d = diag_list_new(0);
  scenario *sc = scenario_load(path, d);
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

/* Starts the runs of candidate ci at nodes that the cache does not hold. */
static void plan_start(plan *p, GArray *probes, guint ci, guint32 nodes) {
  const plan_candidate *c = &g_array_index(p->cands, plan_candidate, ci);
  for (guint k = 0; k < p->opt.n_seeds; k++) {
    plan_probe pr = {ci, nodes, k, plan_probe_key(p, c, nodes, k), NULL, NULL};
    gboolean queued = FALSE;
    for (guint i = 0; i < probes->len && !queued; i++)
      queued = !strcmp(g_array_index(probes, plan_probe, i).key, pr.key);
    if (queued || g_hash_table_contains(p->cache, pr.key)) {
      p->cache_hits++;
      g_free(pr.key);
      continue;
    }
    g_autofree char *stem = g_strdup_printf("%s/c%u-n%u-s%u", p->work, ci, nodes, k);
    g_autofree char *dir = g_strdup_printf("%s.run", stem);
    GError *err = NULL;
    pr.sc = plan_probe_scenario(p, ci, nodes, k, stem, &err);
    if (pr.sc) {
      pr.task = studyrun_task_new(pr.sc, g_array_index(p->classes, plan_class, c->cls).tr, dir,
                                  probes->len);
    } else {
      pr.task = studyrun_task_new(NULL, NULL, dir, probes->len);
      pr.task->error = err;
    }
    g_array_append_val(probes, pr);
  }
}

/* Runs the round's probes and puts their measures into the cache (a probe that could not
 * run gets a measure of NANs and its error as the cache's entry is absent). */
static void plan_run_round(plan *p, studyrun_pool *pool, GArray *probes, GHashTable *errors) {
  for (guint i = 0; i < probes->len; i++) {
    plan_probe *pr = &g_array_index(probes, plan_probe, i);
    if (pr->sc) studyrun_submit(pool, pr->task);
  }
  studyrun_task *t;
  while ((t = studyrun_wait(pool)) != NULL) (void)t; /* tasks stay owned by their probe */
  for (guint i = 0; i < probes->len; i++) {
    plan_probe *pr = &g_array_index(probes, plan_probe, i);
    p->runs += pr->sc != NULL;
    if (pr->task->fig) {
      plan_measure *m = g_new0(plan_measure, 1);
      plan_measure_of(pr->task->fig, g_array_index(p->classes, plan_class,
                                                   g_array_index(p->cands, plan_candidate, pr->cand).cls).pool, m);
      g_hash_table_insert(p->cache, g_strdup(pr->key), m);
      outdir_remove_tree(pr->task->dir, NULL);
    } else {
      g_hash_table_insert(errors, g_strdup(pr->key),
                          g_strdup(pr->task->error ? pr->task->error->message : "stopped"));
    }
  }
}

/* Judges candidate ci at nodes from the cache: appends the outcome to its search. */
static void plan_judge_probe(plan *p, guint ci, guint32 nodes, GHashTable *errors) {
  plan_candidate *c = &g_array_index(p->cands, plan_candidate, ci);
  plan_measure **seeds = g_new0(plan_measure *, p->opt.n_seeds);
  const char *error = NULL;
  for (guint k = 0; k < p->opt.n_seeds; k++) {
    g_autofree char *key = plan_probe_key(p, c, nodes, k);
    seeds[k] = g_hash_table_lookup(p->cache, key);
    if (!seeds[k] && !error) error = g_hash_table_lookup(errors, key);
  }
  if (error) {
    c->status = PLAN_REJECTED;
    c->verdict = g_strdup_printf("could not run at %u nodes: %s", nodes, error);
  } else {
    plan_measure *m = g_new0(plan_measure, 1);
    GString *why = g_string_new(NULL);
    sizing_probe pr = {nodes, plan_judge(&g_array_index(p->classes, plan_class, c->cls), seeds,
                                         p->opt.n_seeds, m, why)};
    g_array_append_val(c->known, pr);
    g_ptr_array_add(c->measures, m);
    g_ptr_array_add(c->whys, g_string_free(why, FALSE));
  }
  g_free(seeds);
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
  p->best = g_array_new(FALSE, FALSE, sizeof(guint));
  studyrun_pool *pool = studyrun_pool_new(p->opt.jobs, p->opt.progress, "plan");
  GHashTable *errors = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  GArray *sizes = g_array_new(FALSE, FALSE, sizeof(guint32));
  GArray *owner = g_array_new(FALSE, FALSE, sizeof(guint));
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
    plan_run_round(p, pool, probes, errors);
    g_array_free(probes, TRUE);
    for (guint i = 0; i < sizes->len; i++)
      plan_judge_probe(p, g_array_index(owner, guint, i), g_array_index(sizes, guint32, i), errors);
  }
  for (guint i = 0; i < p->cands->len; i++) plan_verdict(&g_array_index(p->cands, plan_candidate, i));
  plan_pick(p);
  g_array_free(sizes, TRUE);
  g_array_free(owner, TRUE);
  g_hash_table_destroy(errors);
  studyrun_pool_free(pool);
  (void)error;
  return TRUE;
}
