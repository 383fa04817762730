/* preempt.h: the victims of a preemption, chosen as kube-scheduler's default preemption
 * chooses them (docs/models.md "Priorities and preemption"). Read-only: sim.c evicts them. */
#pragma once
#include <glib.h>
#include "cluster.h"

/* Why a victim terminates (job_run.preempt_why): kube-scheduler's priority preemption, or
 * Kueue's (quota.c): prioritization within the ClusterQueue, reclamation within the cohort. */
enum { PREEMPT_WHY_PRIORITY = 0, PREEMPT_WHY_IN_QUEUE, PREEMPT_WHY_RECLAIM };

/* Does p's strategy let preempt_select judge a fit with residents taken away? (Whole GPUs,
 * replicas and fractions: yes; MIG and vGPU, whose GPUs keep state of their own: no.) */
gboolean preempt_pool_supported(const pool_state *p);
/* The running jobs of p to evict so that j (queued, may_preempt) fits on one node: on each
 * node, every job of lower priority than j not already terminating is removed; if j then
 * fits, they are put back, the most important first (priority desc, then the earliest
 * start), each kept when j still fits. Among the nodes where j fits so, the one whose
 * victims have the lowest highest priority, then the lowest sum of priorities, then the
 * fewest victims, then the latest start of their highest-priority victims, then the lowest
 * index. Appends the victims (job_run *) to victims and returns TRUE; FALSE when no node
 * would do. */
gboolean preempt_select(pool_state *p, const job_run *j, GPtrArray *victims);
/* The lowest priority of a job running in p (G_MAXINT32 when none runs). */
int32_t preempt_lowest_running(const pool_state *p);
/* The termination grace period of a victim: the priority section's, else Kubernetes'
 * default terminationGracePeriodSeconds (30 s), as for Kueue's preemptions without one. */
sim_time preempt_grace_ns(const scenario *sc);
/* Do victims save their work in the grace period (the priority section's setting; off
 * without one)? */
gboolean preempt_checkpoints(const scenario *sc);
