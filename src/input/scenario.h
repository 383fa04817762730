/* scenario.h: the scenario YAML (SPEC 3.4) parsed, validated and frozen: pools with their
 * GPU model and sharing strategy settings, routing rules, prices, seed, horizon.
 * Read from the tree of scenario-yaml.h (yaml.h stays there). Every key of SPEC 3.4 and of the
 * strategy issues is parsed and range-checked here, even where a later model uses it;
 * whether a strategy is built is decided by the strategy registry (share.h), not here. */
#pragma once
#include <glib.h>
#include <stdint.h>
#include "podspec.h" /* pod_gpu, a pool's pod_spec */
#include "util.h"
#include "diag.h"
#include "catalog.h"
#include "trace.h"
#include "scenario-yaml.h"

/* A sharing strategy: its row of the strategy table the program gave
 * (scenario_use_strategies), compared by pointer; the table's order means nothing to this
 * layer, which names no strategy. */
typedef const struct scenario_strategy *share_strategy;
const char *share_strategy_name(share_strategy s); /* "time-slicing" */

/* oom: all | failed-allocation (old name: offender) | sidecar (docs/models.md, section 5) */
typedef enum { OOM_ALL = 0, OOM_FAILED_ALLOCATION, OOM_SIDECAR } oom_policy;
/* A placement policy: its row of the placement table the program gave
 * (scenario_use_placements; src/sim/place/place-*.c, one file each, docs/models.md
 * "Placement"), compared by pointer; this layer names no policy. */
typedef const struct scenario_placement *placement_policy;
const char *placement_policy_name(placement_policy p); /* "best-fit" */
/* The row named text (FALSE: none). */
gboolean placement_policy_parse(const char *text, placement_policy *out);

/* Nodes of one kind inside a pool (`node_groups:`, scenario-nodes.c). */
typedef struct pool_node_group {
  guint line;
  guint32 nodes, gpus_per_node;
  int64_t cpu_milli;            /* host CPU per node, millicores; 0 = not modelled */
  int64_t memory_mib;           /* host memory per node, MiB; 0 = not modelled */
  char *model;                  /* GPU model label matched by a job's gpu_spec */
} pool_node_group;
typedef enum { RECONFIGURE_NEVER = 0, RECONFIGURE_ON_DEMAND } reconfigure_policy;
typedef enum { DRAIN_WAIT = 0, DRAIN_EVICT } drain_policy;
typedef enum { VGPU_BEST_EFFORT = 0, VGPU_EQUAL_SHARE, VGPU_FIXED_SHARE } vgpu_scheduler;

/* pinned_mem_limit_bytes special values */
#define POOL_PINNED_DEFAULT (-1) /* total / replicas, as the device plugin sets it */
#define POOL_PINNED_NONE (-2)    /* "none": no per-client limit */

#define SCENARIO_MAX_POOL_SECTIONS 4 /* pool sections a program may hand the reader */
typedef struct pool_spec {
  char *name;
  guint line;                   /* line of the pool's mapping in the scenario */
  const gpu_model *gpu;
  guint32 nodes;
  guint32 gpus_per_node;        /* default 8 */
  share_strategy strategy;
  /* A strategy's own values that no field below holds: a block its validate function
   * allocates with g_malloc (plain data, no pointers to free), g_free'd with the pool; NULL
   * for the built-in strategies, which have their fields here. */
  gpointer strategy_conf;
  placement_policy placement;   /* default pack */
  /* The placement policy's own values, as strategy_conf (its validate allocates them;
   * NULL: a policy without keys, or its defaults). */
  gpointer placement_conf;
  double price_per_gpu_hour;    /* from prices:, else the catalogue default */
  /* time-slicing / mps */
  guint32 replicas;             /* default 1 (one resident per card or MIG instance) */
  gboolean replicas_set;
  oom_policy oom;               /* default all */
  sim_time timeslice_ns;        /* default 1024 us (driver default [S91][S92]) */
  sim_time context_switch_ns;   /* default 25 us per switch-in */
  gboolean fail_requests_greater_than_one; /* default false */
  gboolean rename_by_default;   /* device-plugin config; informational */
  double active_thread_percentage; /* 0 = default 100/replicas */
  int64_t pinned_mem_limit_bytes;  /* POOL_PINNED_DEFAULT / POOL_PINNED_NONE / bytes */
  /* mig */
  gboolean has_layout;
  mig_layout layout;            /* the layout every GPU starts with */
  GArray *layouts;              /* mig_layout: allowed reconfiguration targets (may be empty) */
  /* per-GPU layouts (mig-parted per-device entries that give the GPUs of a node different
   * set-ups): gpus_per_node mig_layout, the one GPU i of every node starts with; a card
   * with MIG off is one instance of profile POOL_MIG_OFF (the whole card). NULL when every
   * GPU starts with `layout`. */
  GArray *gpu_layouts;
  /* time-sliced replicas of each instance of a MIG profile (index into gpu->profiles), as
   * the device plugin's mixed strategy shares nvidia.com/mig-<profile>; 0 = `replicas` */
  guint32 profile_replicas[CATALOG_MAX_PROFILES];
  reconfigure_policy reconfigure;
  drain_policy drain;
  sim_time reconfigure_time_ns; /* default 2 m (seconds to create [S49], plus restarts [S33]) */
  /* vgpu */
  const vgpu_profile *vgpu;
  vgpu_scheduler vgpu_sched;
  double vgpu_licence_per_hour; /* $ per vGPU-hour; default $4500/yr [S55] */
  /* fractional */
  double fraction_cap;          /* most compute a job may borrow beyond its share; default 1 */
  /* host resources per node and node groups (scenario-nodes.c). Without node_groups the
   * pool has `nodes` alike nodes of gpus_per_node GPUs, cpu_milli / memory_mib each (0: not
   * modelled, so never short) and GPU model label `model` (default: gpu->name). With
   * node_groups, nodes is their sum and gpus_per_node their largest. */
  int64_t cpu_milli;
  int64_t memory_mib;
  char *model;
  GArray *node_groups;          /* pool_node_group, NULL when the nodes are all alike */
  guint64 group_gpus;           /* GPUs of all node_groups */
  /* provenance of settings taken from NVIDIA config files (NULL if none) */
  char *sharing_config_path;
  char *mig_config_path;
  char *mig_config_name;
  char *dra_claim_path;         /* dra_claim: the DRA file (with its #NAME), or NULL */
  char *dra_note;               /* what was taken from that claim, in words (check), or NULL */
  char *pod_spec_path;          /* pod_spec: the Pod file (with its #NAME), or NULL */
  struct pod_gpu *pod;          /* its GPU requests (podspec.h), read by hami and kai; owned */
  char *ref_dir;                /* the folder those files are confined to (paths.h), or NULL */
  /* The blocks of the pool's sections (scenario_pool_section: `autoscale:`, `spot:`), by
   * the section's place in the table; NULL where the pool has none. Read through
   * pool_section_conf. */
  gpointer section_conf[SCENARIO_MAX_POOL_SECTIONS];
} pool_spec;



typedef struct route_rule {
  guint line;
  int kind;                     /* job_kind, or -1 for any */
  char *tenant;                 /* NULL for any */
  char *label;                  /* NULL for any */
  guint pool;                   /* index into scenario->pools */
} route_rule;

/* Request-level inference settings (top-level `inference:` key, docs/scenario-format.md);
 * the names of service_dist are workload-inference.c's (workload_service_dist_name). */
typedef enum {
  SERVICE_DIST_DETERMINISTIC = 0, /* every request needs exactly service_ms */
  SERVICE_DIST_EXPONENTIAL,       /* exponential with mean service_ms */
  SERVICE_DIST_LOGNORMAL,         /* lognormal with mean service_ms and CV service_cv (default) */
  SERVICE_DIST_COUNT
} service_dist;

typedef struct scenario_inference {
  /* the keys of `inference:`, their defaults and ranges declared in workload-inference.c
   * (scenario_model_key), which reads them */
  service_dist dist;            /* inference.service_dist */
  double service_cv;            /* lognormal coefficient of variation */
  double daily_amplitude;       /* 0 <= A <= 1: rate x (1 + A cos(2 pi (t - peak) / 1 d)) */
  sim_time peak_ns;             /* time of day of the peak, from trace time 0 (peak_hour) */
  gboolean fluid;               /* model: fluid (offered load only, no requests) */
  sim_time duty_window_ns;      /* window the services' measured busy time is smoothed over
                                 * (docs/models.md section 9) */
} scenario_inference;

/* LLM servers' engine settings (top-level `llm:` key; docs/models.md section 10). */
typedef struct scenario_llm {
  guint32 max_num_batched_tokens; /* token budget of one iteration; default 8192 */
  gboolean chunked_prefill;       /* default on (vLLM V1) */
  guint32 block_size;             /* tokens per KV block; default 16 */
  double stream_ms_per_token;     /* serial delivery cost of one output token; default 0 */
  gboolean closed_loop;           /* latencies from admission (closed loop); default off */
  double frontend_ms;             /* serial front-end cost of one request; default 0 */
  double bandwidth_efficiency;    /* share of peak memory bandwidth a step gets; default 0.76 */
  double compute_efficiency;      /* share of peak FP16 FLOP/s a step gets; default 0.66 */
  double step_overhead_ms;        /* fixed cost of one iteration; default 0.54 */
} scenario_llm;

struct scenario_priority; /* priority.h */

typedef struct scenario {
  char *path;
  char *name;                   /* default: file name without extension */
  uint64_t seed;                /* default 1 */
  sim_time horizon_ns;          /* 0 = until the last job ends */
  double start_unix;            /* calendar time of trace second 0 (Unix seconds, `start:`);
                                 * NAN when the run is not placed at a date */
  sim_time interval_ns;         /* time-series interval; default 60 s */
  guint horizon_line, interval_line; /* where they were written (0: default or --set) */
  GPtrArray *pools;             /* pool_spec*, owned */
  GHashTable *pool_by_name;     /* name -> GUINT_TO_POINTER(index + 1) of its first pool */
  GArray *routing;              /* route_rule */
  GHashTable *prices;           /* model name -> double* ($/GPU-h), as written */
  double crash_rate_per_hour[JOB_KIND_COUNT]; /* per-kind crash rate (faults), default 0 */
  char *interference_path;      /* measured pair-slowdown table, or NULL */
  char *ref_dir;                /* the folder referenced files are confined to (paths.h): every
                                 * later read of them (describe, sim, sweep) goes through it */
  /* noisy-neighbour model parameters (docs/models.md); defaults from [S19] */
  double ts_switch_loss;        /* time-slicing efficiency loss per extra busy context */
  double ts_curve_exp;          /* time-slicing curve exponent p (overlap > 1); default 1.2 */
  double ts_overlap_exp;        /* time-slicing curve exponent q (overlap <= 1); default 2 */
  double mps_bandwidth_loss;    /* MPS loss factor to shared memory bandwidth */
  double mps_block_wait;        /* MPS: wait ratio of a blocked request (beta); default 1.08 */
  sim_time mps_block_corr_ns;   /* MPS: neighbour block correlation time (tau); default 10 ms */
  /* the restart keys, their defaults and ranges declared in sim.c (scenario_model_key) */
  guint32 max_restarts;         /* restarts per job before it fails (assumption) */
  /* Kubernetes' CrashLoopBackOff (docs/models.md, "Restart back-off"): the wait before the
   * second restart (0: every restart at once, the back-off off), doubling up to the cap;
   * an attempt that ran reset_ns or longer starts the sequence again */
  sim_time restart_backoff_ns, restart_backoff_max_ns, restart_backoff_reset_ns;
  /* JupyterHub's idle culler (docs/models.md, "Idle culling"): a notebook idle this long is
   * stopped, its GPU released, and queues again when its user returns (0: never, default;
   * notebook_cull_timeout, declared in workload-notebook.c) */
  sim_time notebook_cull_ns;
  scenario_inference inference; /* request-level inference model settings */
  scenario_llm llm;             /* LLM servers' engine settings */
  /* `requirements:` and `purchase:` (requirements.h), for `sharesim plan`; NULL when the
   * scenario has neither. The simulator never reads them. */
  struct scenario_requirements *requirements;
  struct scenario_priority *priority; /* priority classes and preemption (priority.h); NULL
                                       * when the scenario has none: nothing preempts */
  gboolean kueue_fair_sharing;  /* Kueue's fairSharing.enable (src/sim/quota.c's key) */
  struct scenario_kueue *kueue; /* Kueue's quotas (kueue.h); NULL when the scenario has none:
                                 * every job is admitted as it fits */
} scenario;

/* ---- strategies declare and validate their own pool keys ----------------------------
 * Every pool has the common keys (name, gpu, nodes, gpus_per_node, strategy, placement,
 * price, oom, sharing_config); each strategy lists the keys it reads beyond them and checks
 * them itself through the pool_check calls below. This layer keeps no list of strategies:
 * the program hands it one (scenario_use_strategies) before it reads a scenario: the
 * command line (cmd_main) and the test programs give it the simulator's strategy table
 * (share_input_row in src/sim/share/share.c), so that a new strategy is its own file and
 * one row there, and this layer does not depend on the simulator. */
typedef struct pool_check pool_check; /* one pool being validated (scenario.c) */
typedef struct scenario_yaml scenario_yaml;

/* scenario_key (one key, declared once by the file that owns it) is in scenario-yaml.h. */

/* How a strategy divides a card among jobs, as the invariant suite judges "no job waits
 * while it fits" from the result CSVs (tests/invariants/inv-check.c). Each strategy names
 * its class: a new class needs a rule there (the checker has no default). */
typedef enum {
  SCENARIO_CAPACITY_SLOTS = 1, /* capacity_key slots per card (default 1) for any job; a
                                * gang's workers stack on a card only when too few are free */
  SCENARIO_CAPACITY_SHARES,    /* a card takes jobs while their gpu_frac sum to at most 1,
                                * at most capacity_key of them (its declared default) */
  SCENARIO_CAPACITY_VMS,       /* the vGPU profile's VMs per card, one per gang worker */
  SCENARIO_CAPACITY_INSTANCES, /* the MIG layout's instances, capacity_key replicas each */
  SCENARIO_CAPACITY_UNJUDGED   /* no rule the CSVs can decide: its pools are not judged */
} scenario_capacity;

/* Which NVIDIA config file implies a strategy when a pool names none, and which
 * device-plugin sharing sections a pool of it accepts (nvconfig.h). */
typedef enum {
  SCENARIO_NV_DEFAULT = 1 << 0,      /* no strategy key and no file: this strategy */
  SCENARIO_NV_MIG_CONFIG = 1 << 1,   /* a mig-parted config (mig_config) implies it */
  SCENARIO_NV_TIME_SLICING = 1 << 2, /* sharing.timeSlicing implies it */
  SCENARIO_NV_MPS = 1 << 3,          /* sharing.mps implies it */
} scenario_nv_flags;

typedef struct scenario_strategy {
  const char *name;         /* as in the scenario: "time-slicing" */
  /* Its pool keys beyond the common ones, NULL-terminated (NULL for none): its own,
   * declared in its file, and those of the groups below that it reads. */
  const scenario_key *const *keys;
  const char *example;      /* YAML lines (4-space indent) of a minimal valid pool's keys */
  /* Reads and range-checks its keys into p; reports through c. p->gpu is NULL when the
   * model was not valid (reported already). NULL: no keys of its own. */
  void (*validate)(pool_check *c, pool_spec *p);
  /* Appends its settings as resolved to `check`'s line of the pool (", replicas 4"), after
   * the strategy's name; NULL: the common tail only (scenario_describe_common). */
  void (*describe)(GString *s, const pool_spec *p);
  /* NVIDIA files: which imply it (SCENARIO_NV_DEFAULT, _MIG_CONFIG, or the sharing section
   * whose kind it is), which sharing sections it accepts besides that one, whether its
   * devices are MIG instances (nvidia.com/mig-<profile> resources), and the most replicas a
   * sharing config may give a card of model m (NULL: SCENARIO_MAX_REPLICAS). */
  guint implied_by, accepts;
  gboolean mig_devices;
  guint (*replica_limit)(const gpu_model *m);
  /* The invariant suite: its class, the key that counts its places (one of its keys;
   * NULL: 1 per card), the model its model-specific samples are valid on (NULL: any). */
  scenario_capacity capacity;
  const scenario_key *capacity_key;
  const char *sample_gpu;
} scenario_strategy;
/* The strategies scenarios may name: n rows, row(i) for i < n. Set once per process before
 * anything reads a scenario or a strategy name (not thread-safe; the table is read-only
 * afterwards); a later call replaces it (the unit tests add a toy). */
void scenario_use_strategies(guint n, const scenario_strategy *(*row)(guint i));
/* How many strategies, and row i in the table's order (NULL when out of range). Aborts
 * with a message when no table was given: a program that reads scenarios must call
 * scenario_use_strategies. */
guint scenario_strategy_count(void);
const scenario_strategy *scenario_strategy_get(guint i);
/* The declaration of key among s's keys, NULL when s has no such key. */
const scenario_key *scenario_strategy_key(const scenario_strategy *s, const char *key);

/* A placement policy as the reader takes it (one row of the simulator's placement table,
 * place_input_row in src/sim/place/place.c): its name, what it does, whether a pool that
 * names none gets it, and its own pool keys as a strategy has them. How it places is the
 * simulator's (place.h). */
typedef struct scenario_placement {
  const char *name;         /* as in the scenario: "best-fit" */
  const char *description;  /* what it chooses, one line */
  gboolean is_default;      /* the policy of a pool without `placement:` (one row) */
  /* Its pool keys, NULL-terminated (NULL for none), each declared in its place-*.c (name,
   * default, doc, sample for the invariant suite); a pool of another policy may not set
   * them. */
  const scenario_key *const *keys;
  /* Reads and range-checks its keys through the pool_check calls into a block it allocates
   * with g_malloc as p->placement_conf (plain data, g_free'd with the pool), which the
   * policy reads while it places; NULL: no keys. */
  void (*validate)(pool_check *c, pool_spec *p);
} scenario_placement;
/* The placement policies scenarios may name: n rows, row(i) for i < n, set once per process
 * as scenario_use_strategies (the order is that of the lists users see, nothing more). */
void scenario_use_placements(guint n, const scenario_placement *(*row)(guint i));
/* How many policies, and row i in the table's order (NULL when out of range); aborts with a
 * message when no table was given. */
guint scenario_placement_count(void);
const scenario_placement *scenario_placement_get(guint i);
/* The declaration of key among p's keys, NULL when p has no such key. */
const scenario_key *scenario_placement_key(const scenario_placement *p, const char *key);

/* A model's constant a scenario may set, at the top level (ts_curve_exp) or in a section
 * (llm.block_size: the section, a dot, its key), declared once by the file of the model
 * that reads it (share.c, share-mps.c, workload-llm.c): name, default and doc (key), what a
 * value must be, its default as a value, and where the scenario keeps it. The program hands
 * the reader the table of them as it does the strategies' (scenario_use_model_keys), and the
 * reader sets the defaults, accepts the names (in the file and in --set), checks, parses
 * and reports through the declarations: it spells none of them. */
typedef enum {
  SCENARIO_MODEL_NUMBER = 1, /* a double from lo to hi (lo_open, hi_open: the end excluded) */
  SCENARIO_MODEL_WHOLE,      /* a guint32 from lo to hi */
  SCENARIO_MODEL_ONOFF,      /* a gboolean: false or true */
  SCENARIO_MODEL_DURATION,   /* a sim_time from lo to hi nanoseconds */
  SCENARIO_MODEL_CHOICE,     /* an int (or an enum, a gboolean): the index of one of choices */
  SCENARIO_MODEL_HOURS,      /* a number of hours from lo to hi (lo_open, hi_open as for
                              * numbers), kept as a sim_time in nanoseconds, rounded */
} scenario_model_type;
/* A section of the models' constants (`llm:`: a mapping of its keys), declared by the file
 * of the model that owns it (workload-llm.c) and named by its keys (llm.block_size's
 * section is it): the reader takes the sections, their order (that of their first key in
 * the table) and the example its message gives from there. */
typedef struct scenario_model_section {
  const char *name;          /* "llm" */
  const char *example;       /* a mapping, for "expected a mapping, e.g. ..." */
} scenario_model_section;
typedef struct scenario_model_key {
  scenario_key key;
  scenario_model_type type;
  const char *expected;      /* the message's "expected ..." (numbers and whole numbers) */
  double lo, hi;
  gboolean lo_open, hi_open;
  double value;              /* the default (a whole number, 0/1, a choice's index or
                              * nanoseconds as a double) */
  size_t offset;             /* of the value in struct scenario */
  const char *const *choices; /* a choice's names, NULL-terminated (NULL for the others) */
  const scenario_model_section *section; /* NULL: a top-level key; else its name is the
                                          * section's, a dot, and the key */
} scenario_model_key;
/* The models' constants, NULL-terminated, in the order of the reader's lists; set once per
 * process before a scenario is read, as scenario_use_strategies (the simulator's table:
 * sim_model_keys in src/sim/sim.c). Aborts with a message on a key whose name does not
 * start with its section's and a dot, or has a dot and no section. */
void scenario_use_model_keys(const scenario_model_key *const *keys);
/* The table given (aborts with a message when none was: a program that reads scenarios must
 * call scenario_use_model_keys). */
const scenario_model_key *const *scenario_model_keys(void);

/* A pool's section: a mapping of keys that a model of the simulator owns (`autoscale:` and
 * `spot:`, src/sim/autoscale.c), declared in its file with the validate that reads them, and
 * handed to the reader in a table as the strategies are (scenario_use_pool_sections; the
 * simulator's is sim_pool_sections in src/sim/sim.c). The reader accepts the section's name
 * as a pool key, refuses keys of the mapping its row does not declare, and calls validate
 * after every other key of the pool; this layer names no section. */
typedef struct scenario_pool_section {
  const char *name;               /* the pool's key: "autoscale" */
  const scenario_key *const *keys; /* the keys inside the mapping, NULL-terminated */
  const char *example;            /* a mapping, for "expected a mapping, e.g. ..." */
  /* Reads and range-checks its keys: c reads the section's mapping (pool_check_key,
   * pool_check_int ... name keys inside it, pool_check_map is the mapping, the prefix
   * "pools[N].NAME"); p has its other keys read. Returns the block its model reads
   * (g_malloc'd plain data, g_free'd with the pool; NULL when it reported a problem). */
  gpointer (*validate)(pool_check *c, pool_spec *p);
  /* Appends its settings to `check`'s line of the pool (", autoscaled 0..4 nodes"). */
  void (*describe)(GString *s, const pool_spec *p, gconstpointer conf);
} scenario_pool_section;
/* The sections, NULL-terminated (at most SCENARIO_MAX_POOL_SECTIONS), set once per process
 * before a scenario is read as scenario_use_strategies; none until then. */
void scenario_use_pool_sections(const scenario_pool_section *const *sections);
const scenario_pool_section *const *scenario_pool_sections(void);
/* The block of pool p's section s, NULL when p has no such section. */
gconstpointer pool_section_conf(const pool_spec *p, const scenario_pool_section *s);

/* The key groups NVIDIA's files also set, parsed here (pool_check_device_plugin,
 * pool_check_timeslice, pool_check_mig): a strategy lists those it reads in its keys. */
extern const scenario_key scenario_key_replicas, scenario_key_fail_requests,
    scenario_key_rename, scenario_key_timeslice, scenario_key_context_switch,
    scenario_key_layout, scenario_key_layouts, scenario_key_reconfigure, scenario_key_drain,
    scenario_key_reconfigure_time, scenario_key_mig_config, scenario_key_mig_config_name;

/* The value of the pool's key, or NULL when absent (keys of other strategies are
 * reported already and read as absent). */
const scenario_yaml *pool_check_key(const pool_check *c, const char *key);
/* The pool's mapping (for messages about a key that is missing). */
const scenario_yaml *pool_check_map(const pool_check *c);
/* "pools[2]" */
const char *pool_check_prefix(const pool_check *c);
/* "pools[2].key", valid until the next call on c. */
const char *pool_check_what(pool_check *c, const char *key);
void pool_check_report(pool_check *c, const scenario_yaml *n, const char *fmt, ...)
    G_GNUC_PRINTF(3, 4);
void pool_check_expected(pool_check *c, const scenario_yaml *n, const char *key,
                         const char *expected);
/* Each reads key when present: FALSE when absent or reported as invalid. */
gboolean pool_check_int(pool_check *c, const char *key, int64_t lo, int64_t hi, int64_t *out);
gboolean pool_check_number(pool_check *c, const char *key, const char *expected, double lo,
                           gboolean lo_open, double hi, gboolean hi_open, double *out);
gboolean pool_check_duration(pool_check *c, const char *key, sim_time lo, sim_time hi,
                             sim_time *out);
gboolean pool_check_enum(pool_check *c, const char *key, const char *const *names, int *out);
gboolean pool_check_bool(pool_check *c, const char *key, gboolean *out);
/* Key groups several strategies share: the device plugin's replicas (1..max_replicas),
 * failRequestsGreaterThanOne and renameByDefault; timeslice and context_switch; MIG's
 * layout(s), mig-parted config and reconfiguration keys. */
void pool_check_device_plugin(pool_check *c, pool_spec *p, int64_t max_replicas);
void pool_check_timeslice(pool_check *c, pool_spec *p);
void pool_check_mig(pool_check *c, pool_spec *p);

/* Loads and validates; NULL with every problem in diags. Paths inside the scenario
 * (sharing_config, mig_config, interference) are relative to the scenario's folder. */
scenario *scenario_load(const char *path, diag_list *diags);
void scenario_free(scenario *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(scenario, scenario_free)

static inline const pool_spec *scenario_pool(const scenario *s, guint i) {
  return g_ptr_array_index(s->pools, i);
}
/* Index of pool named name (the first, if repeated), -1 if none; constant time. */
int scenario_pool_index(const scenario *s, const char *name);
/* First routing rule that matches; -1 when no rule matches. A scenario with a single pool
 * and no rules routes everything to it. */
int scenario_route(const scenario *s, const job_spec *j);

/* Applies "--set KEY=VALUE" overrides (for sweep), e.g. "pools.dev.replicas=8",
 * "seed=3", "pools.inf.layout=1g.10gb x7". Done on the YAML tree before validation. */
scenario *scenario_load_with_overrides(const char *path, const char *const *overrides,
                                       guint n_overrides, diag_list *diags);
/* key is a top-level key that --set KEY=VALUE may name ("seed", "horizon"). */
gboolean scenario_is_override_key(const char *key);

/* ---- added by the scenario owner ----------------------------------------------------- */

/* Defaults documented in docs/scenario-format.md (with their sources). */
#define SCENARIO_DEFAULT_SEED 1
#define SCENARIO_DEFAULT_INTERVAL_NS (60 * SIM_NS_PER_S)
#define SCENARIO_DEFAULT_GPUS_PER_NODE 8
/* Driver's default channel-group time slice [S91][S92]. */
#define SCENARIO_DEFAULT_TIMESLICE_NS (1024 * INT64_C(1000))
/* Context switch-in cost per turn: an assumption ([S92]: the switch-in is not
 * part of the slice but gives no number); 25 us is a few percent of a 1 ms slice. */
#define SCENARIO_DEFAULT_CONTEXT_SWITCH_NS (25 * INT64_C(1000))
/* Time-sliced vGPU default slice: 2 ms with at most 8 vGPUs per GPU, else 1 ms
 * [S17]. */
#define SCENARIO_VGPU_TIMESLICE_NS(max_per_gpu) \
  ((max_per_gpu) <= 8 ? 2 * SIM_NS_PER_MS : 1 * SIM_NS_PER_MS)
#define SCENARIO_DEFAULT_RECONFIGURE_TIME_NS (120 * SIM_NS_PER_S)
/* NVIDIA AI Enterprise, $4500 per GPU per year [S55] over 8766 h a year. */
#define SCENARIO_DEFAULT_VGPU_LICENCE_PER_HOUR (4500.0 / 8766.0)

/* Prices (`price`, `prices`): greater than 0 and at most 1e6 $ per GPU-hour, a sanity cap
 * far above any card's price that keeps every cost a run can add up (GPUs x hours x
 * price) far below where printed money loses digits. */
#define SCENARIO_MAX_PRICE 1e6
#define SCENARIO_PRICE_EXPECTED "a price in $ per GPU-hour greater than 0 and at most 1e6"
/* Sanity caps (not NVIDIA limits): replicas of a time-sliced GPU or MIG instance, nodes per
 * pool, GPUs per node, GPUs per pool. */
#define SCENARIO_MAX_REPLICAS 1024
#define SCENARIO_MAX_NODES 100000
#define SCENARIO_MAX_GPUS_PER_NODE 1024
#define SCENARIO_MAX_POOL_GPUS 1000000

/* The pool's resolved settings in one line ("dev: 2 nodes x 8 A100-80GB, time-slicing,
 * replicas 4 (from nvidia/ts.yaml#any), oom all, $3.67/GPU-h"), naming the NVIDIA file and
 * key each setting came from and the mig-parted entries ignored for the pool's model.
 * Owned. (scenario-describe.c) */
char *scenario_pool_describe(const pool_spec *p);
/* The pieces a strategy's describe appends (scenario-describe.c): ", replicas 4 (from
 * FILE#KEY)", ", failRequestsGreaterThanOne" when set, the MIG group's layout,
 * reconfiguration and replicas, " (FILE has no sharing section)" when a sharing config
 * gave nothing, ", oom offender". */
void scenario_describe_replicas(GString *s, const pool_spec *p);
void scenario_describe_fail_requests(GString *s, const pool_spec *p);
void scenario_describe_mig(GString *s, const pool_spec *p);
void scenario_describe_no_sharing(GString *s, const pool_spec *p);
void scenario_describe_oom(GString *s, const pool_spec *p);
/* Parses "time-slicing" etc.; FALSE if unknown. */
gboolean share_strategy_parse(const char *text, share_strategy *out);
/* Total GPUs of a pool (nodes * gpus_per_node, or the node groups' sum). */
static inline guint64 pool_gpus(const pool_spec *p) {
  return p->node_groups ? p->group_gpus : (guint64)p->nodes * p->gpus_per_node;
}
/* The profile index of a card with MIG off in pool_spec.gpu_layouts: the whole card, one
 * device (nvidia.com/gpu), time-sliced `replicas` ways. */
enum { POOL_MIG_OFF = 0xFF };
/* Replicas of one MIG instance of profile index `profile` in pool p: the profile's own
 * count, else the pool's replicas (1 when unset). */
static inline guint32 pool_mig_replicas(const pool_spec *p, guint profile) {
  guint32 r = profile < CATALOG_MAX_PROFILES ? p->profile_replicas[profile] : 0;
  return r ? r : p->replicas ? p->replicas : 1;
}
/* Node n of pool p (0 <= n < p->nodes): its GPUs, host CPU, memory and GPU model label. */
void pool_node_info(const pool_spec *p, guint32 n, guint32 *gpus, int64_t *cpu_milli,
                    int64_t *memory_mib, const char **model);

/* scenario-nodes.c: parses a pool's cpu_milli, memory_mib, model and node_groups keys into p
 * (reporting into d); TRUE when node_groups set the size (then nodes / gpus_per_node must
 * be absent). */
gboolean scenario_nodes_parse(diag_list *d, const char *file, const scenario_yaml *pm,
                              pool_spec *p, const char *prefix);
void scenario_nodes_free(pool_spec *p);

/* scenario-dra.c: a pool whose sharing comes from a Kubernetes DRA claim (dra.h; the pool's
 * dra_claim and dra_request keys, docs/scenario-format.md "DRA claims"). The SCENARIO_NV_*
 * flag of the strategy the claim implies; the MIG layout its devices give a card of p->gpu
 * (before the strategy's validate: p->layout, reporting into d at the claim's file); and,
 * after it, the replicas (from the containers sharing a claimed device) and MPS settings
 * the pool does not set itself, with p->dra_note. */
struct dra_claim;
guint scenario_dra_flag(const struct dra_claim *dc);
void scenario_dra_layout(diag_list *d, const struct dra_claim *dc, pool_spec *p);
void scenario_dra_apply(diag_list *d, const char *file, const scenario_yaml *node,
                        const struct dra_claim *dc, pool_spec *p, gboolean explicit_replicas);

/* ---- requirements (scenario-requirements.c) ------------------------------------------
 * The tenants' requirements of a scenario (`requirements:`) and what may be bought
 * (`purchase:`), read for `sharesim plan` and ignored by the simulator. A rule matches jobs
 * by kind, tenant and label (each optional, as routing's rules do; the first rule that
 * matches a job is its rule) and gives their trust level and constraints. Jobs no rule
 * matches get REQ_DEFAULT_RULE: trust org, at most 0 innocent victims. */


/* Who may share a device with whom (docs/scenario-format.md, "Requirements"). */
typedef enum {
  REQ_TRUST_TEAM = 0,   /* same team: may share anything, MPS included */
  REQ_TRUST_ORG,        /* other teams of the organisation: no shared fault domain:
                         * time-slicing (with memory limits), fractional, MIG, vGPU */
  REQ_TRUST_UNTRUSTED,  /* whole GPUs, MIG instances or vGPU only */
  REQ_TRUST_COUNT
} req_trust;

typedef struct req_rule {
  int kind;                 /* job_kind, -1: any */
  char *tenant, *label;     /* NULL: any; owned */
  req_trust trust;
  GPtrArray *mechanisms;    /* char* strategy names the rule allows (each also allowed by
                             * its trust); NULL: every one its trust allows; owned */
  double min_slo;           /* every service's SLO attainment >= this (0..1); NAN: none */
  double max_wait_p95_s;    /* the class's p95 queue wait <= this; NAN: none */
  double max_slowdown;      /* the class's p95 slowdown (training, batch) <= this; NAN: none */
  gint64 max_oom;           /* OOM kills <= this; -1: none */
  gint64 max_victims;       /* innocent victims <= this; default 0 */
  guint line, col;          /* where the rule is written */
} req_rule;

/* One model that may be bought. */
typedef struct req_buy {
  const gpu_model *gpu;
  guint32 max_gpus;         /* at most this many of it in one pool */
  guint32 gpus_per_node;    /* default 8 (at most max_gpus) */
  double price;             /* $ per GPU-hour; NAN: the scenario's price of the model */
  guint line, col;
} req_buy;

typedef struct scenario_requirements {
  GArray *rules;            /* req_rule, in file order */
  GArray *buy;              /* req_buy, in file order; empty: no purchase section */
  guint buy_line, buy_col;  /* the purchase section (0 when absent) */
} scenario_requirements;

extern const req_rule REQ_DEFAULT_RULE;

/* Reads the value of `requirements:` (n) into *r (created when NULL); problems go to d at
 * file:line:column. Mechanism names are checked against the scenario reader's strategy
 * table (scenario_use_strategies). */
void requirements_read_rules(scenario_requirements **r, const char *file,
                             const scenario_yaml *n, diag_list *d);
/* The same for `purchase:`. */
void requirements_read_purchase(scenario_requirements **r, const char *file,
                                const scenario_yaml *n, diag_list *d);
void requirements_free(scenario_requirements *r);

/* The first rule matching the job (REQ_DEFAULT_RULE when none does, or r is NULL). */
const req_rule *requirements_match(const scenario_requirements *r, const job_spec *j);
/* Whether trust allows strategy (by name), and whether the rule allows it (its trust and
 * its mechanisms list). */
gboolean requirements_trust_allows(req_trust trust, const char *strategy);
gboolean requirements_rule_allows(const req_rule *rule, const char *strategy);
/* "team", "org", "untrusted". */
const char *requirements_trust_name(req_trust t);
