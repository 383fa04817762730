/* kueue.h: quotas as Kueue models them (docs/scenario-format.md "Quotas: Kueue";
 * docs/models.md "Quotas"): the scenario's `kueue` section and the Kueue objects it names
 * (ResourceFlavor, ClusterQueue, Cohort, LocalQueue; kueue.x-k8s.io, multi-document YAML or a
 * `kind: List`, as `kubectl get -o yaml` prints them), read and checked here with
 * file:line:column. The quota arithmetic of a run is src/sim/quota.c. */
#pragma once
#include <glib.h>
#include <stdint.h>
#include "diag.h"
#include "scenario-yaml.h"

/* A ClusterQueue's queueingStrategy. */
typedef enum { KUEUE_BEST_EFFORT_FIFO = 0, KUEUE_STRICT_FIFO } kueue_strategy;

/* A policy of a ClusterQueue's spec.preemption (Never, the default, for each). */
typedef enum {
  KUEUE_PREEMPT_NEVER = 0,
  KUEUE_PREEMPT_LOWER_PRIORITY,          /* all three fields */
  KUEUE_PREEMPT_LOWER_OR_NEWER_EQUAL,    /* withinClusterQueue: LowerOrNewerEqualPriority */
  KUEUE_PREEMPT_ANY                      /* reclaimWithinCohort: Any */
} kueue_preempt;

#define KUEUE_NO_LIMIT (-1)    /* borrowingLimit / lendingLimit not set */
#define KUEUE_MAX_NODES 4096   /* ClusterQueues and Cohorts in one file */
#define KUEUE_MAX_FLAVORS 64   /* ResourceFlavors in one file */
#define KUEUE_MAX_DEPTH 16     /* Cohorts above a ClusterQueue */

typedef struct kueue_quota {   /* one flavour's GPU resource in a ClusterQueue or Cohort */
  gboolean listed;             /* the node lists the flavour (nominal may be 0) */
  int64_t nominal;             /* nominalQuota, GPUs (or MIG devices, replicas: one a worker) */
  int64_t borrow, lend;        /* borrowingLimit, lendingLimit; KUEUE_NO_LIMIT when unset */
  guint line, col;             /* where the flavour's entry is */
} kueue_quota;

typedef struct kueue_node {    /* a ClusterQueue or a Cohort of the quota tree */
  char *name;
  gboolean is_cq;              /* a ClusterQueue (else a Cohort) */
  gboolean declared;           /* a Cohort object was read (else only named by a cohort key) */
  guint line, col;             /* its object (or the first key naming it) */
  int parent;                  /* node index of its cohort / parent cohort, -1 for none */
  guint parent_line, parent_col; /* where the parent is named */
  kueue_quota *quota;          /* per flavour (n_flavors), owned */
  kueue_strategy strategy;     /* ClusterQueues: queueingStrategy (BestEffortFIFO default) */
  double weight;               /* fairSharing.weight (default 1; used with fairSharing.enable) */
  /* ClusterQueues: spec.preemption (docs/models.md "Quotas and gangs") */
  kueue_preempt within, reclaim, borrow_within;
  gboolean borrow_max_set;     /* borrowWithinCohort.maxPriorityThreshold given */
  int32_t borrow_max;          /* ... its value */
} kueue_node;

typedef struct kueue_flavor {
  char *name;
  guint line, col;
  int pool;                    /* the scenario's pool it stands for, -1 when none */
  char *pool_name;             /* its name (owned), NULL when none */
} kueue_flavor;

typedef struct kueue_local {   /* a LocalQueue: namespace (= tenant) -> ClusterQueue */
  char *ns, *name;
  guint line, col;
  int cq;                      /* node index */
} kueue_local;

typedef struct scenario_kueue {
  char *path;                  /* the Kueue file as resolved (messages) */
  GArray *flavors;             /* kueue_flavor */
  GArray *nodes;               /* kueue_node: ClusterQueues and Cohorts */
  GArray *locals;              /* kueue_local */
  guint n_cq;                  /* ClusterQueues among nodes */
  gboolean preempts;           /* some ClusterQueue preempts (withinClusterQueue or
                                * reclaimWithinCohort not Never) */
  /* [node * MAX(n_flavors, 1) + f], computed once: */
  int64_t *subtree;            /* nominal plus what its children lend */
  int64_t *kept;               /* what it keeps from its parent (subtree beyond lendingLimit) */
  int64_t *potential;          /* kueue_potential */
} scenario_kueue;

/* The top-level key this module owns, NULL-terminated (for the scenario's key list). */
extern const struct scenario_key *const kueue_top_keys[];

/* Reads the Kueue objects of the file at path (confined to within, NULL: anywhere) and
 * checks them on their own: unknown keys, quantities, a flavour no ResourceFlavor defines,
 * a LocalQueue naming a missing ClusterQueue, a cohort cycle, a ClusterQueue that can never
 * admit anything. NULL with the problems in d. Owned. */
scenario_kueue *kueue_load(const char *within, const char *path, diag_list *d);
void kueue_free(scenario_kueue *k);
/* The file node of the scenario's `kueue:` value n (a path, or {file, flavors}), NULL after
 * reporting; *flavors: its flavors mapping (FLAVOR: POOL) or NULL. */
const scenario_yaml *kueue_value(diag_list *d, const char *file, const scenario_yaml *n,
                                 const scenario_yaml **flavors);
/* Loads the objects of resolved (a path confined already, read within within) and binds
 * each flavour to a pool: flavors' FLAVOR -> POOL, else the pool of the flavour's name;
 * pool_index(ctx, name) gives a pool's index or -1; problems of flavors at file. */
scenario_kueue *kueue_parse(diag_list *d, const char *file, const char *within,
                            const char *resolved, const scenario_yaml *flavors,
                            int (*pool_index)(const void *, const char *), const void *ctx);
/* The ClusterQueue (node index) of tenant, -1 when its namespace has no LocalQueue. */
int kueue_tenant_cq(const scenario_kueue *k, const char *tenant);
/* The flavour of pool pi, -1 when none stands for it. */
int kueue_pool_flavor(const scenario_kueue *k, int pi);
/* The most GPUs of flavour f the node can ever hold at once (nominal plus what it may
 * borrow up its tree: Kueue's potential available quota). */
int64_t kueue_max(const scenario_kueue *k, int node, int f); /* the same, from the table */
int64_t kueue_potential(const scenario_kueue *k, int node, int f);
/* `check`'s lines on the queues, appended. */
void kueue_describe(GString *out, const scenario_kueue *k);
