/* quota.h: Kueue's quota arithmetic during a run (docs/models.md "Quotas"): each ClusterQueue's
 * and Cohort's usage per flavour, what a ClusterQueue may still admit (its own kept quota plus
 * what its cohort tree has left, within its borrowing limit), and usage added and removed as
 * workloads are admitted and release their GPUs. The objects are read by src/input/kueue.c. */
#pragma once
#include <glib.h>
#include <stdint.h>
#include "kueue.h"

typedef struct quota_state quota_state;

/* The state of a run for the scenario's objects (borrowed; they outlive it). Owned. */
quota_state *quota_new(const scenario_kueue *k);
void quota_free(quota_state *q);
/* How many GPUs of flavour f ClusterQueue cq may admit now (Kueue's available quota; may be
 * negative after an over-admission, which never happens here). */
int64_t quota_available(const quota_state *q, int cq, int f);
/* n GPUs of flavour f admitted into cq (n < 0: released); returns how many of them its
 * usage puts above its nominal quota (borrowed; 0 when released). */
int64_t quota_add(quota_state *q, int cq, int f, int64_t n);
/* The usage of node i in flavour f (ClusterQueues and Cohorts: what their children use
 * beyond what they keep). */
int64_t quota_usage(const quota_state *q, int i, int f);
/* Would n more GPUs of flavour f put cq above its nominal quota (Kueue: borrowing)? */
gboolean quota_would_borrow(const quota_state *q, int cq, int f, int64_t n);
/* Kueue's dominant resource share of cq in flavour f with n more GPUs (fair sharing): what
 * it would use above its nominal quota, per mille of what its cohort tree lends (its root's
 * subtree quota), per mille of its fairSharing.weight; 0 when it does not borrow, INT64_MAX
 * for a weight of 0 that borrows. */
int64_t quota_share(const quota_state *q, int cq, int f, int64_t n);

struct pool_state;
struct job_run;
/* The running jobs of a pool that Kueue manages (a ClusterQueue's), each once, and the
 * lowest priority among each ClusterQueue's that are not terminating (G_MAXINT32 for
 * none): what quota_victims chooses from. A preemption pass lists them once (no job starts
 * or ends during the pass) and again after it preempts. */
typedef struct quota_running_set {
  GPtrArray *jobs;        /* job_run * */
  int32_t *min_priority;  /* per quota tree node */
} quota_running_set;
quota_running_set *quota_running_new(const quota_state *q);
void quota_running_free(quota_running_set *r);
/* Lists pool p's running jobs into r (what it held before is dropped). */
void quota_running(const quota_state *q, const struct pool_state *p, quota_running_set *r);
/* The jobs of running (quota_running's, flavour f) Kueue would evict so that queued job j,
 * refused by its ClusterQueue's quota, is admitted (its spec.preemption; docs/models.md
 * "Quotas and gangs"), appended to victims (job_run *); how many. Jobs already terminating
 * count as gone; fair: fair sharing's preemption (fairSharing.enable); quick: the running jobs
 * are not scanned when a necessary condition (a candidate of its own queue or a borrowing
 * queue of its cohort) fails (FALSE: the reference, SIM_REF_QUOTA). Changes nothing. */
guint quota_victims(quota_state *q, const quota_running_set *running, int f,
                    const struct job_run *j, gboolean fair, gboolean quick, GPtrArray *victims);
/* Does quota_victims' answer for j depend only on its ClusterQueue, priority and GPUs (so
 * that a pass may reuse a failure for another job with the same three)? FALSE where the
 * queue's withinClusterQueue is LowerOrNewerEqualPriority (submission order counts). */
gboolean quota_victims_by_class(const quota_state *q, const struct job_run *j);

/* Kueue's Configuration `fairSharing.enable` (a scenario key this model owns). */
extern const struct scenario_model_key quota_key_fair_sharing;
