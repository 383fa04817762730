/* scenario.h: the scenario YAML (SPEC 3.4) parsed, validated and frozen: pools with their
 * GPU model and sharing strategy settings, routing rules, prices, seed, horizon.
 * scenario.c is the only file that includes yaml.h. Every key of SPEC 3.4 and of the
 * strategy issues is parsed and range-checked here, even where a later model uses it;
 * whether a strategy is built is decided by the strategy registry (share.h), not here. */
#pragma once
#include <glib.h>
#include <stdint.h>
#include "util.h"
#include "diag.h"
#include "catalog.h"
#include "trace.h"

typedef enum {
  STRATEGY_EXCLUSIVE = 0,
  STRATEGY_TIME_SLICING,
  STRATEGY_MIG,
  STRATEGY_MPS,
  STRATEGY_VGPU,
  STRATEGY_FRACTIONAL,
  STRATEGY_COUNT
} share_strategy;
const char *share_strategy_name(share_strategy s); /* "time-slicing" */

typedef enum { OOM_ALL = 0, OOM_OFFENDER, OOM_SIDECAR } oom_policy;
typedef enum { PLACEMENT_PACK = 0, PLACEMENT_SPREAD } placement_policy;
typedef enum { RECONFIGURE_NEVER = 0, RECONFIGURE_ON_DEMAND } reconfigure_policy;
typedef enum { DRAIN_WAIT = 0, DRAIN_EVICT } drain_policy;
typedef enum { VGPU_BEST_EFFORT = 0, VGPU_EQUAL_SHARE, VGPU_FIXED_SHARE } vgpu_scheduler;

/* pinned_mem_limit_bytes special values */
#define POOL_PINNED_DEFAULT (-1) /* total / replicas, as the device plugin sets it */
#define POOL_PINNED_NONE (-2)    /* "none": no per-client limit */

typedef struct pool_spec {
  char *name;
  guint line;                   /* line of the pool's mapping in the scenario */
  const gpu_model *gpu;
  guint32 nodes;
  guint32 gpus_per_node;        /* default 8 */
  share_strategy strategy;
  placement_policy placement;   /* default pack */
  double price_per_gpu_hour;    /* from prices:, else the catalogue default */
  /* time-slicing / mps */
  guint32 replicas;             /* default 1 (exclusive), 4 for time-slicing/mps if unset? no: 1 */
  gboolean replicas_set;
  oom_policy oom;               /* default all */
  sim_time timeslice_ns;        /* default 1024 us (driver default, gpu-facts 9.6) */
  sim_time context_switch_ns;   /* default 25 us per switch-in */
  gboolean fail_requests_greater_than_one; /* default false */
  gboolean rename_by_default;   /* device-plugin config; informational */
  double active_thread_percentage; /* 0 = default 100/replicas */
  int64_t pinned_mem_limit_bytes;  /* POOL_PINNED_DEFAULT / POOL_PINNED_NONE / bytes */
  /* mig */
  gboolean has_layout;
  mig_layout layout;            /* the layout every GPU starts with */
  GArray *layouts;              /* mig_layout: allowed reconfiguration targets (may be empty) */
  reconfigure_policy reconfigure;
  drain_policy drain;
  sim_time reconfigure_time_ns; /* default 2 m (gpu-facts 1.7: seconds to create, plus restarts) */
  /* vgpu */
  const vgpu_profile *vgpu;
  vgpu_scheduler vgpu_sched;
  double vgpu_licence_per_hour; /* $ per vGPU-hour; default from gpu-facts 5.3 ($4500/yr) */
  /* fractional */
  double fraction_cap;          /* most compute a job may borrow beyond its share; default 1 */
  /* provenance of settings taken from NVIDIA config files (NULL if none) */
  char *sharing_config_path;
  char *mig_config_path;
  char *mig_config_name;
} pool_spec;

typedef struct route_rule {
  guint line;
  int kind;                     /* job_kind, or -1 for any */
  char *tenant;                 /* NULL for any */
  char *label;                  /* NULL for any */
  guint pool;                   /* index into scenario->pools */
} route_rule;

typedef struct scenario {
  char *path;
  char *name;                   /* default: file name without extension */
  uint64_t seed;                /* default 1 */
  sim_time horizon_ns;          /* 0 = until the last job ends */
  sim_time interval_ns;         /* time-series interval; default 60 s */
  GPtrArray *pools;             /* pool_spec*, owned */
  GArray *routing;              /* route_rule */
  GHashTable *prices;           /* model name -> double* ($/GPU-h), as written */
  double crash_rate_per_hour[JOB_KIND_COUNT]; /* per-kind crash rate (faults), default 0 */
  char *interference_path;      /* measured pair-slowdown table, or NULL */
  /* noisy-neighbour model parameters (docs/models.md); defaults from gpu-facts 7.1 */
  double ts_switch_loss;        /* time-slicing efficiency loss per extra busy context */
  double mps_bandwidth_loss;    /* MPS loss factor to shared memory bandwidth */
} scenario;

/* Loads and validates; NULL with every problem in diags. Paths inside the scenario
 * (sharing_config, mig_config, interference) are relative to the scenario's folder. */
scenario *scenario_load(const char *path, diag_list *diags);
void scenario_free(scenario *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(scenario, scenario_free)

static inline const pool_spec *scenario_pool(const scenario *s, guint i) {
  return g_ptr_array_index(s->pools, i);
}
/* Index of pool named name, -1 if none. */
int scenario_pool_index(const scenario *s, const char *name);
/* First routing rule that matches; -1 when no rule matches. A scenario with a single pool
 * and no rules routes everything to it. */
int scenario_route(const scenario *s, const job_spec *j);

/* Applies "--set KEY=VALUE" overrides (for sweep), e.g. "pools.dev.replicas=8",
 * "seed=3", "pools.inf.layout=1g.10gb x7". Done on the YAML tree before validation. */
scenario *scenario_load_with_overrides(const char *path, const char *const *overrides,
                                       guint n_overrides, diag_list *diags);
