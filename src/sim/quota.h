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
