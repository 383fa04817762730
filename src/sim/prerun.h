/* prerun.h: the checks before a run (sim_check_*; sim.h includes this header) and the one
 * pass over a trace's rows that serves everything `run` checks and sets up before
 * simulating: the trace's share of the work and memory budget (budget.h), the
 * jobs that can never run (sim_check_jobs' problems, in trace order), the tenants in the
 * order they first appear, and each pool's target workload (cluster_target_tally). Each
 * row is read back and decoded once instead of once per check (issue 17: the loading
 * phase of a spilled trace). The results equal those of the separate passes. */
#pragma once
#include <glib.h>
#include "scenario.h"
#include "trace.h"
#include "diag.h"
#include "budget.h"
#include "cluster.h"

typedef struct prerun {
  const scenario *sc;             /* what it was made for (borrowed) */
  const trace *tr;
  budget_rows budget;             /* for budget_check_rows, with tenants counted */
  diag_list *unfit;               /* sim_check_jobs' problems, up to the cap */
  diag_list *never_admitted;      /* sim_check_quota's (Kueue quotas): errors, up to the cap */
  GPtrArray *tenants;             /* distinct tenant names (the trace's strings), first seen
                                   * first: metrics_tenant's order */
  guint n_pools;
  cluster_target_tally **targets; /* per pool of sc; NULL for a strategy not built yet */
} prerun;

/* The pass over tr (its phases and requests loaded) for sc; unfit_cap: the problems kept
 * (diag_list_new). Owned: prerun_free (which does not read sc or tr). */
prerun *prerun_new(const scenario *sc, const trace *tr, guint unfit_cap);
void prerun_free(prerun *p);

/* Checks that apply to a scenario and trace together, for `check` and `run`: strategies
 * that are not built yet, jobs no routing rule matches, jobs no pool can ever hold. */
void sim_check_scenario(const scenario *sc, diag_list *diags);
void sim_check_jobs(const scenario *sc, const trace *tr, diag_list *diags);
/* The check of one row j (trace_job of tr) routed to pool pi (scenario_route; < 0: none). */
void sim_check_job(const scenario *sc, const trace *tr, const job_spec *j, int pi,
                   diag_list *diags);
/* Kueue's quotas: job j (routed to pool pi) can be admitted some day: its ClusterQueue
 * lists its pool's flavour and may hold all its GPUs at once. */
void sim_check_quota(const scenario *sc, const trace *tr, const job_spec *j, int pi,
                     diag_list *diags);
/* sim_check_quota over every row of tr: the jobs Kueue's quotas could never admit (none
 * without a kueue: key). `run`, `compare`, `sweep`, `size` and `plan` refuse them. */
void sim_check_admission(const scenario *sc, const trace *tr, diag_list *diags);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(prerun, prerun_free)
