/* prerun.c: the one pass over the trace before a run (prerun.h). It only gathers: the
 * budget's figures come from budget.c's row accumulator, the row check from sim.c
 * (sim_check_job), the target counts from cluster-place.c; the run reads them in sim_build
 * and the commands print the problems. */
#include "prerun.h"
#include "sim.h"

prerun *prerun_new(const scenario *sc, const trace *tr, guint unfit_cap) {
  prerun *p = g_new0(prerun, 1);
  p->sc = sc;
  p->tr = tr;
  p->unfit = diag_list_new(unfit_cap);
  p->tenants = g_ptr_array_new();
  guint n_pools = p->n_pools = sc->pools->len;
  p->targets = g_new0(cluster_target_tally *, MAX(n_pools, 1u));
  for (guint k = 0; k < n_pools; k++) /* a strategy not built yet: no run, no target */
    if (share_for(scenario_pool(sc, k)->strategy)->implemented)
      p->targets[k] = cluster_target_tally_new(scenario_pool(sc, k));
  budget_rows_init(&p->budget);
  GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
  for (guint i = 0; i < trace_n_jobs(tr); i++) {
    job_spec j = trace_job(tr, i);
    if (g_hash_table_add(seen, (gpointer)j.tenant)) g_ptr_array_add(p->tenants, (gpointer)j.tenant);
    budget_rows_add(&p->budget, sc, tr, i, &j);
    int pi = scenario_route(sc, &j);
    sim_check_job(sc, tr, &j, pi, p->unfit);
    if (pi >= 0 && p->targets[pi]) cluster_target_tally_add(p->targets[pi], &j);
  }
  p->budget.tenants = p->tenants->len;
  g_hash_table_destroy(seen);
  return p;
}

void prerun_free(prerun *p) {
  if (!p) return;
  diag_list_free(p->unfit);
  budget_rows_clear(&p->budget);
  g_ptr_array_unref(p->tenants);
  for (guint k = 0; k < p->n_pools; k++) cluster_target_tally_free(p->targets[k]);
  g_free(p->targets);
  g_free(p);
}
