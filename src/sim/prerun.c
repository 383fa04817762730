/* prerun.c: the checks of a scenario and trace before a run (sim_check_*, for `check` and
 * `run`) and the one pass over the trace that serves them (prerun.h). The pass only
 * gathers: the budget's figures come from budget.c's row accumulator, the row check from
 * sim_check_job, the target counts from cluster-place.c; the run (sim.c, the room above)
 * reads them in sim_build and the commands print the problems. */
#include "prerun.h"
#include "interference.h"
#include "kueue.h"

/* ---- the checks shared with `check` ---- */

void sim_check_scenario(const scenario *sc, diag_list *diags) {
  GString *built = g_string_new(NULL);
  for (guint k = 0; k < share_count(); k++)
    if (share_row(k)->implemented)
      g_string_append_printf(built, "%s%s", built->len ? ", " : "", share_row(k)->input.name);
  for (guint i = 0; i < sc->pools->len; i++) {
    const pool_spec *p = scenario_pool(sc, i);
    const share_ops *ops = share_for(p->strategy);
    if (!ops->implemented)
      diag_add(diags, sc->path, p->line, 0,
               "pools[%u] '%s': strategy '%s' is not built in this version of sharesim yet "
               "(built: %s)",
               i + 1, p->name, ops->input.name, built->str);
  }
  g_string_free(built, TRUE);
  if (sc->interference_path) {
    interference_table *t = interference_load_in(sc->ref_dir, sc->interference_path, diags);
    interference_free(t);
  }
}

void sim_check_job(const scenario *sc, const trace *tr, const job_spec *j, int pi,
                   diag_list *diags) {
  if (pi < 0) {
    diag_add(diags, tr->path, j->line, 0,
             "job '%s' (kind %s, tenant %s, label '%s'): no routing rule matches it", j->id,
             job_kind_name(j->kind), j->tenant, j->label);
    return;
  }
  const pool_spec *p = scenario_pool(sc, (guint)pi);
  const share_ops *ops = share_for(p->strategy);
  if (!ops->implemented) return;
  char *why = NULL;
  if (!ops->can_ever_fit(p, j, &why) || !cluster_host_can_ever_fit(p, j, &why))
    diag_add(diags, tr->path, j->line, 0, "job '%s' can never run in pool '%s': %s", j->id,
             p->name, why ? why : "it does not fit");
  g_free(why);
}

void sim_check_quota(const scenario *sc, const trace *tr, const job_spec *j, int pi,
                     diag_list *diags) {
  const scenario_kueue *k = sc->kueue;
  int cq = pi < 0 || !k ? -1 : kueue_tenant_cq(k, j->tenant);
  if (cq < 0) return;
  const kueue_node *n = &g_array_index(k->nodes, kueue_node, cq);
  int f = kueue_pool_flavor(k, pi);
  const char *pool = scenario_pool(sc, (guint)pi)->name;
  if (f < 0 || !n->quota[f].listed)
    diag_add(diags, k->path, n->line, n->col, "ClusterQueue %s has no quota for pool '%s'%s%s%s, "
             "but job '%s' (tenant %s, %s:%u) runs there: it can never be admitted", n->name,
             pool, f < 0 ? " (no ResourceFlavor stands for it)" : " (flavour ",
             f < 0 ? "" : g_array_index(k->flavors, kueue_flavor, f).name, f < 0 ? "" : ")",
             j->id, j->tenant, tr->path, j->line);
  else if ((int64_t)j->gpus > kueue_max(k, cq, f))
    diag_add(diags, k->path, n->quota[f].line, n->quota[f].col, "ClusterQueue %s, flavour %s: at "
             "most %" G_GINT64_FORMAT " GPUs at once (nominal, cohort, borrowing limit), but job "
             "'%s' (tenant %s, %s:%u) asks for %u: it can never be admitted", n->name,
             g_array_index(k->flavors, kueue_flavor, f).name, kueue_max(k, cq, f), j->id,
             j->tenant, tr->path, j->line, j->gpus);
}

void sim_check_admission(const scenario *sc, const trace *tr, diag_list *diags) {
  if (!sc->kueue) return;
  for (guint i = 0; i < trace_n_jobs(tr); i++) {
    job_spec row = trace_job(tr, i);
    sim_check_quota(sc, tr, &row, scenario_route(sc, &row), diags);
  }
}

void sim_check_jobs(const scenario *sc, const trace *tr, diag_list *diags) {
  for (guint i = 0; i < trace_n_jobs(tr); i++) {
    job_spec row = trace_job(tr, i);
    int pi = scenario_route(sc, &row);
    sim_check_job(sc, tr, &row, pi, diags);
    if (G_UNLIKELY(sc->kueue)) sim_check_quota(sc, tr, &row, pi, diags);
  }
}

/* ---- the one pass ---- */

prerun *prerun_new(const scenario *sc, const trace *tr, guint unfit_cap) {
  prerun *p = g_new0(prerun, 1);
  p->sc = sc;
  p->tr = tr;
  p->unfit = diag_list_new(unfit_cap);
  p->never_admitted = diag_list_new(unfit_cap);
  p->tenants = g_ptr_array_new();
  guint n_pools = p->n_pools = sc->pools->len;
  p->targets = g_new0(cluster_target_tally *, MAX(n_pools, 1u));
  for (guint k = 0; k < n_pools; k++) /* a strategy not built yet: no run, no target */
    if (share_for(scenario_pool(sc, k)->strategy)->implemented)
      p->targets[k] = cluster_target_tally_new(scenario_pool(sc, k),
                                               share_for(scenario_pool(sc, k)->strategy));
  budget_rows_init(&p->budget);
  GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
  for (guint i = 0; i < trace_n_jobs(tr); i++) {
    job_spec j = trace_job(tr, i);
    if (g_hash_table_add(seen, (gpointer)j.tenant)) g_ptr_array_add(p->tenants, (gpointer)j.tenant);
    budget_rows_add(&p->budget, sc, tr, i, &j);
    int pi = scenario_route(sc, &j);
    sim_check_job(sc, tr, &j, pi, p->unfit);
    if (G_UNLIKELY(sc->kueue)) sim_check_quota(sc, tr, &j, pi, p->never_admitted);
    if (pi >= 0 && p->targets[pi]) cluster_target_tally_add(p->targets[pi], &j);
  }
  p->budget.tenants = p->tenants->len;
  g_hash_table_destroy(seen);
  return p;
}

void prerun_free(prerun *p) {
  if (!p) return;
  diag_list_free(p->unfit);
  diag_list_free(p->never_admitted);
  budget_rows_clear(&p->budget);
  g_ptr_array_unref(p->tenants);
  for (guint k = 0; k < p->n_pools; k++) cluster_target_tally_free(p->targets[k]);
  g_free(p->targets);
  g_free(p);
}
