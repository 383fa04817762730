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
/* The running jobs of pool p (flavour f) Kueue would evict so that queued job j, refused by
 * its ClusterQueue's quota, is admitted (its spec.preemption; docs/models.md "Quotas and
 * gangs"), appended to victims (job_run *); how many. Jobs already terminating count
 * as gone; fair: fair sharing's preemption (fairSharing.enable). Changes nothing. */
guint quota_victims(quota_state *q, const struct pool_state *p, int f, const struct job_run *j,
                    gboolean fair, GPtrArray *victims);

/* Kueue's Configuration `fairSharing.enable` (a scenario key this model owns). */
extern const struct scenario_model_key quota_key_fair_sharing;
