/* share.h: the one strategy interface, and the only header of the simulator a strategy
 * (share-*.c) includes (tests/check-layers.sh fails otherwise). A strategy decides where a
 * job's workers may go on a GPU (slots), how fast each resident runs (speed, relative to
 * alone on a whole GPU), how much of the GPU each resident is allocated (for showback), what
 * the GPU's busy and SM-active gauges are, and who dies on an out-of-memory or a fault. It
 * sees a narrow view: a pool (share_pool), its GPUs and their residents (gpu_state, task),
 * and the few per-job values it models (share_job), never cluster.h's job_run, pool_state,
 * gpu_run or task_run (which begin with these views and keep the simulator's own state
 * after them: the SQLite pattern of a public base struct); it acts on the run through the share_* calls at the end of this header
 * (share.c forwards them to cluster.c and sim.c). Each share-*.c exports one const share_ops
 * (with its pool keys and their validation); share.c lists them in one table, which the
 * command line hands to the scenario reader (scenario_use_strategies). */
#pragma once
#include <glib.h>
#include "util.h"
#include "scenario.h"
#include "results.h"
#include "metrics.h"
#include "job-view.h"

typedef struct pool_state pool_state; /* cluster.h; begins with its share_pool view */
typedef struct job_run job_run;       /* cluster.h; begins with its share_job view */
typedef struct gpu_state gpu_state;
typedef struct task task;
typedef struct sim sim;

/* The time-slicing contention curve's constant (share_ts_curve_for below). */
typedef struct share_ts_curve {
  double a;
  double p, q; /* the exponents (scenario ts_curve_exp, ts_overlap_exp) */
} share_ts_curve;

/* Model parameters every strategy may read (from the scenario; docs/models.md). */
typedef struct share_params {
  double ts_switch_loss;      /* time-slicing: efficiency lost per extra busy context */
  share_ts_curve ts_curve;    /* share_ts_curve_for(ts_switch_loss), worked out once a run */
  double mps_bandwidth_loss;  /* MPS: speed lost per other active client */
  double mps_block_wait;      /* MPS: wait ratio of a fully blocked compute-bound request */
  double mps_block_corr_ns;   /* MPS: how long a neighbour's blocks hold the SMs */
  const struct interference_table *interference; /* measured pair speeds, or NULL */
} share_params;

/* ---- the views ----
 * What a strategy sees of a job: SHARE_JOB_FIELDS of job-view.h (spec, duty, sm,
 * mem_declared), the fields job_run (cluster.h) begins with, read through share_job_of(j). */
typedef struct share_job { SHARE_JOB_FIELDS } share_job;

/* What a strategy sees of a pool; pool_state (cluster.h) starts with these fields in the
 * same way (share_pool_of). */
#define SHARE_POOL_FIELDS \
  guint32 index;               /* within the scenario */ \
  const pool_spec *spec; \
  const share_params *params; \
  guint32 n_gpus;              /* its GPUs: share_gpu(p, 0 .. n_gpus - 1) */ \
  guint32 slots_per_gpu;       /* share_ops.slots_per_gpu of the spec */ \
  void *strategy_data;         /* owned by the strategy (init_pool/free_pool) */
typedef struct share_pool { SHARE_POOL_FIELDS } share_pool;

/* A GPU in service, draining (no new placements, residents leaving) or down (being
 * reconfigured: MIG); changed only by cluster_gpu_set_service (share_gpu_set_service). */
typedef enum { GPU_UP = 0, GPU_DRAINING, GPU_DOWN } gpu_service;

/* What a strategy sees of a resident (one worker of a job on one GPU): struct task. The
 * simulator's task_run (cluster.h) begins with these fields (in a union with a task) and
 * keeps its own after them (the resident's part of the gauges for its tenant, in the
 * metrics' fixed point), which a strategy never sees. */
#define TASK_FIELDS \
  job_run *job;              /* share_job_of(job) is what a strategy reads of it */ \
  gpu_state *gpu; \
  guint32 worker; \
  guint32 slot;              /* strategy-defined (replica, instance...) */ \
  int64_t mem_bytes;         /* current memory of this worker */ \
  double alloc_share;        /* fraction of the GPU allocated to it (set by the strategy) */ \
  double speed;              /* progress rate relative to alone on a whole GPU (strategy) */ \
  /* speed without the other workers of its own job on its GPU (= speed unless a gang is \
   * stacked on itself): the straggler reference (cluster_gpu_update_speeds) */ \
  double solo_speed; \
  /* Mean extra wait (ns) before a request that arrives while this task is idle gets the \
   * GPU, set by the strategy (time-slicing: waiting for a turn behind other active \
   * contexts; 0 when the task runs whenever it wants). Used by request-level models. */ \
  double turn_wait_ns; \
  /* MPS (docs/models.md): mean time a request waits for SMs held by the neighbours' \
   * thread blocks, per unit of its work (its service time alone, 0: none), and the \
   * neighbours' block-residence time that sets how these waits average out over a \
   * request (a request of work w served in wall time s waits Gamma(k = max(1, s / \
   * block_corr_ns)) with mean block_wait x w). Set by the strategy, used by request-level \
   * models; the fluid speed does not include it. */ \
  double block_wait, block_corr_ns; \
  /* Unified-memory oversubscription (share_oversub_speeds): how many times slower it runs \
   * for the part of its memory served from host memory (1: all on the card; set by the \
   * strategy, included in speed; the simulator books the time it is over 1) */ \
  double mem_slowdown;
struct task { TASK_FIELDS };

/* What a strategy sees of a GPU: struct gpu_state. The simulator's gpu_run (cluster.h)
 * begins with these fields (in a union with a gpu_state) and keeps its own after them (the
 * storage of a short residents list, the GPU's gauges and their 128-bit integrals, the
 * records' 64-byte alignment), which a strategy never sees; the GPUs of a pool are
 * share_gpu(p, i), not an array a strategy indexes. The fields every change on the GPU
 * reads come first. */
#define GPU_STATE_FIELDS \
  pool_state *pool;          /* share_pool_of(g) */ \
  task **residents;          /* n_residents task*, in arrival order */ \
  guint32 n_residents; \
  guint32 index;             /* within the pool */ \
  int64_t mem_used;          /* what the residents hold now */ \
  double share_used;         /* share_ops.worker_share summed over residents (0 if NULL) */ \
  void *strategy_data; \
  guint32 slots_used; \
  /* slots it offers now (slots_per_gpu unless the strategy lowers it: \
   * share_gpu_set_capacity) */ \
  guint32 slots_cap; \
  gpu_service service;       /* up, draining or down (share_gpu_set_service) */ \
  guint32 node, local;       /* node within pool, GPU within node */
struct gpu_state { GPU_STATE_FIELDS };

/* The views of a job and of a pool (valid C: each is the first member of the other). */
static inline const share_job *share_job_of(const job_run *j) {
  return (const share_job *)(const void *)j;
}
static inline share_pool *share_pool_of(const gpu_state *g) {
  return (share_pool *)(void *)g->pool;
}
/* GPU i (< n_gpus) of p (share.c: the records are the simulator's, larger than the view). */
gpu_state *share_gpu(const share_pool *p, guint32 i);
/* Resident i of g (arrival order) and its job's view. */
static inline task *share_resident(const gpu_state *g, guint i) {
  return (task *)g->residents[i];
}
static inline const share_job *share_resident_job(const gpu_state *g, guint i) {
  return share_job_of(share_resident(g, i)->job);
}

typedef struct share_ops {
  /* its name, its own pool keys and their validation (scenario.h): input.name is the name
   * in the scenario ("exclusive") */
  scenario_strategy input;
  const char *description;
  gboolean implemented;    /* FALSE: the scenario is refused with an honest error */
  /* TRUE when the strategy keeps pointers to jobs after they left its GPUs (MIG's claims
   * of the jobs a reconfiguration is for): the simulator then keeps the state of the
   * pool's jobs to the end of the run instead of freeing it when their row is out. */
  gboolean holds_jobs;
  /* Schedulable slots one GPU offers (exclusive 1, time-slicing/MPS replicas, ...). */
  guint32 (*slots_per_gpu)(const pool_spec *p);
  /* Could this job ever run in an empty pool? If not, *reason (owned) says why. */
  gboolean (*can_ever_fit)(const pool_spec *p, const job_spec *j, char **reason);
  /* May one worker of j go onto g now? On TRUE *slot is the slot it takes. Workers
   * already chosen for the same job in this placement attempt are listed in `taken`
   * (gpu_state* per worker so far) so a strategy can refuse two workers on one GPU. */
  gboolean (*gpu_accepts)(const share_pool *p, const gpu_state *g, const share_job *j,
                          gpu_state *const *taken, guint n_taken, guint32 *slot);
  /* Sets speed and alloc_share of every resident of g (after any change on g). */
  void (*update_speeds)(const share_pool *p, gpu_state *g);
  /* TRUE when update_speeds sets every resident's speed and alloc_share to 1 whatever else
   * is on g (exclusive): the simulator then sets them itself, without the call. */
  gboolean unit_speeds;
  /* Current busy (some kernel running) and SM-active fractions of g. */
  void (*gauges)(const share_pool *p, const gpu_state *g, double *busy, double *sm_active);
  /* Memory capacity a resident may use on g before an out-of-memory (whole device by
   * default; MPS pinned limits and MIG instances are smaller). */
  int64_t (*mem_capacity)(const share_pool *p, const gpu_state *g, const task *t);
  /* Who dies when offender's allocation does not fit: appends task* to victims. */
  void (*oom_victims)(const share_pool *p, gpu_state *g, task *offender, GPtrArray *victims);
  /* Who dies when t's process faults: appends task* to victims (t itself included). */
  void (*crash_victims)(const share_pool *p, gpu_state *g, task *t, GPtrArray *victims);
  /* ---- optional hooks (NULL: nothing to do); MIG reconfiguration uses them ---- */
  /* After cluster_pool_init built the GPUs: set p->strategy_data and each GPU's
   * strategy_data (and share_gpu_set_capacity). free_pool releases them (cluster_pool_clear
   * calls it first). */
  void (*init_pool)(share_pool *p);
  void (*free_pool)(share_pool *p);
  /* Called by the scheduling pass, in queue order, for each queued job it tried and could
   * not place now. May change GPU states and schedule events (sim.h), but must not start
   * or kill jobs from inside the pass (schedule an event at now for that: share_at). */
  void (*on_unplaced)(sim *s, share_pool *p, const share_job *j);
  /* Called after a job's worker left g (finish, kill, eviction); g's speeds and gauges are
   * already updated. */
  void (*on_release)(sim *s, share_pool *p, gpu_state *g);
  /* The one pruning hook of the scheduling pass (NULL: every queued job is tried). A rank
   * such that, among queued jobs with the same worker count, when a job of rank r does not
   * fit now, no job of rank >= r does: the pass then skips them (on_unplaced is still
   * called for the jobs it walks), and a size is done once a job of rank 0 did not fit.
   * share_prune_by_size (rank 0 for all) when the worker count alone decides (exclusive,
   * replicas); MIG ranks by the smallest instance size that holds the job. */
  guint32 (*prune_rank)(const share_pool *p, const share_job *j);
  /* Fractions of the whole GPU's SMs and memory bandwidth t's partition has (MIG: its
   * instance's SMs and memory slices). NULL: the whole GPU. The LLM roofline reads it. */
  void (*partition)(const share_pool *p, const gpu_state *g, const task *t, double *sm_frac,
                    double *bw_frac);
  /* The share of one GPU a worker of j claims when the strategy packs by shares
   * (fractional: gpu_frac), or NULL. When set, cluster.c keeps each GPU's claimed sum
   * (gpu_state.share_used, summed over residents in arrival order) and a placement index
   * of the GPUs by it, so a job that fits nowhere is refused in O(log GPUs). gpu_accepts
   * must then refuse a worker when share_used + (here + 1) x share > 1 + SHARE_EPS. */
  double (*worker_share)(const job_spec *j);
  /* Licence price per worker-hour of residence the pool's strategy charges on top of the
   * GPUs (vGPU: one licence per VM); NULL when it charges none. Priced by the metrics layer
   * into the pool's and tenants' cost (pools.csv licence_cost, vgpu_h). */
  double (*licence_per_worker_hour)(const pool_spec *p);
  /* The work budget's bound for a job j of pool p (src/sim/budget.c; NULL: the budget's
   * own rule for the strategy's name, else a fractional job's): *residents, the most its
   * wall time can be over its work before context-switch losses; *alone, the most a GPU
   * holding at least one resident can be below full speed. */
  void (*budget_bound)(const pool_spec *p, const job_spec *j, double *residents,
                       double *alone);
  /* Memory the residents of one GPU may hold together before an out-of-memory (NULL: the
   * card's). More than the card where the strategy serves the rest from host memory
   * through unified memory (share_oversub below); those residents then run slowed. */
  int64_t (*device_mem)(const share_pool *p);
  /* The MIG instance t holds on g, for the labels dcgm-exporter gives a MIG device's series
   * (GPU_I_PROFILE, GPU_I_ID; report-dcgm.c): TRUE with *profile its index into the pool's
   * GPU model's profiles and *gi_id its number on g, FALSE on the whole card. NULL: never
   * an instance. Read-only; cluster.c asks when t arrives on g (cluster_attach). */
  gboolean (*instance_of)(const share_pool *p, const gpu_state *g, const task *t,
                          guint32 *profile, guint32 *gi_id);
} share_ops;

/* Tolerance of share sums (fractional shares add to at most 1 + SHARE_EPS). */
#define SHARE_EPS 1e-9

/* The strategy whose input row s is (never NULL; one not finished has implemented =
 * FALSE): s must be a row this table handed to the scenario reader. */
const share_ops *share_for(share_strategy s);
/* The table's rows: how many, row i (i < share_count()), and row i as the scenario reader
 * takes it (scenario_use_strategies: its name, pool keys and validation; NULL past the
 * end). The order is the order of the lists users see, nothing more. */
guint share_count(void);
const share_ops *share_row(guint i);
const scenario_strategy *share_input_row(guint i);

/* ---- the noisy-neighbour model shared by the time-shared strategies ---- */
/* Time-slicing: speed of a context whose own GPU activity is own (its gpu_util while it
 * has work) next to others whose duties add up to others. Their busy periods overlap for
 * o = own x others of its time alone (independent periods); the speed is 1 / (1 + a o^q)
 * while o <= 1, 1 / (1 + a o^p) beyond, a set so that four saturating contexts (o = 3) each
 * get (1 - 3 x switch_loss) / 4 (docs/models.md). */
double share_timeslice_speed(double own, double others, double switch_loss);
/* The same curve with its constant a worked out once for a switch loss (share_ts_curve_for),
 * for a strategy that evaluates it for every resident: share_ts_curve_speed(c, own, others)
 * is bit for bit share_timeslice_speed(own, others, L). */
share_ts_curve share_ts_curve_for(double switch_loss);
/* The same with exponents p (overlap > 1) and q (overlap <= 1) of the scenario's
 * (ts_curve_exp, ts_overlap_exp); share_ts_curve_for uses the defaults. */
share_ts_curve share_ts_curve_make(double switch_loss, double p, double q);
double share_ts_curve_speed(share_ts_curve c, double own, double others);
/* Share of the GPU's time that does useful work when busy (saturating) contexts' demands
 * add up to demand U: min(1, U x share_timeslice_speed(1, U - 1, L)); 1 for U <= 1 (vGPU
 * equal/fixed share). */
double share_timeslice_efficiency(double demand, double switch_loss);
/* Noisy-neighbour defaults (docs/models.md, "Noisy neighbours"), of the model constants
 * share.c and share-mps.c declare (share_model_keys).
 * ts_switch_loss: with n busy time-sliced contexts each gets (1 - loss*(n-1))/n of the GPU.
 * [S19]: four busy tenants lost 16-19 % against an ideal quarter share,
 * so 3 * loss ~ 0.175 -> loss ~ 0.06 per extra busy context (linear model). */
#define SCENARIO_DEFAULT_TS_SWITCH_LOSS 0.06
/* The time-slicing curve's exponents (docs/models.md, "Time-slicing"): p beyond an overlap
 * of 1 (three or more contexts), with its a through Colfax's four tenants, fitted on Tally's
 * time-sliced BERT p99; q up to an overlap of 1 (two contexts, partial activity), fitted on
 * Lucid's even-numbered measured pairs. Keys `ts_curve_exp` and `ts_overlap_exp`. */
#define SCENARIO_DEFAULT_TS_CURVE_EXP 1.2
#define SCENARIO_DEFAULT_TS_OVERLAP_EXP 2.0
/* mps_bandwidth_loss: each other active MPS client costs this share of speed (shared
 * memory bandwidth): two vLLM clients on one A100 lost 7.5 % of throughput against a
 * dedicated GPU each [S60], so 0.075 per extra active client. */
#define SCENARIO_DEFAULT_MPS_BANDWIDTH_LOSS 0.075
/* MPS block waits (docs/models.md, "MPS"): beta fitted on Tally's BERT server next to six
 * trainers [S63]; tau an assumption (10 ms; requests much shorter see one draw). */
#define SCENARIO_DEFAULT_MPS_BLOCK_WAIT 1.08
#define SCENARIO_DEFAULT_MPS_BLOCK_CORR_NS (10 * SIM_NS_PER_MS)
/* The model constants a scenario may set, declared where the model is (share.c: ts_*,
 * share-mps.c: mps_*) and listed in sim_model_keys (sim.c), which the program hands to the
 * scenario reader (scenario_use_model_keys). */
extern const scenario_model_key share_key_ts_switch_loss, share_key_ts_curve_exp,
    share_key_ts_overlap_exp, share_key_mps_bandwidth_loss, share_key_mps_block_wait,
    share_key_mps_block_corr;
/* The curve's default exponents p (overlap > 1) and q (overlap <= 1), sources above; a
 * scenario may set them (ts_curve_exp, ts_overlap_exp). */
#define SHARE_TS_CURVE_EXP SCENARIO_DEFAULT_TS_CURVE_EXP
#define SHARE_TS_OVERLAP_EXP SCENARIO_DEFAULT_TS_OVERLAP_EXP
/* MPS (docs/models.md, "MPS"). A client's memory intensity m is the share of its busy time
 * its device memory is busy: mem_util / gpu_util from the trace, SHARE_MPS_MEM_REF when the
 * trace does not say. */
double share_mps_mem_intensity(const job_spec *j);
/* Speed of a client with SM demand sm capped at cap and memory intensity own_mem, next to
 * other clients whose duty-weighted capped SM demands add up to others_sm and whose
 * duty-weighted memory intensities over SHARE_MPS_MEM_REF add up to others_mem:
 * (granted SMs / sm) / (1 + bw_loss / (1 - bw_loss) x own_mem / SHARE_MPS_MEM_REF x
 * others_mem). Two reference clients lose bw_loss each, as the measurement bw_loss comes
 * from; more neighbours lose more, never all (no floor). */
double share_mps_speed(double sm, double cap, double others_sm, double own_mem,
                       double others_mem, double bw_loss);
/* Mean time a request of a client (capped SM demand own_sm, memory intensity own_mem)
 * waits, per unit of its work (service time alone), for SMs held by the resident thread
 * blocks of one other client (capped SM demand other_sm, duty other_duty): beta
 * (mps_block_wait) x (1 - own_mem) x other_duty x overlap, overlap = clamp((own_sm +
 * other_sm - 1) / own_sm, 0, 1), the share of its SMs the other holds. 0 when the two fit
 * side by side. */
double share_mps_block_wait(double beta, double own_sm, double own_mem, double other_sm,
                            double other_duty);
/* Reference memory intensity: Tally's Llama-2-7B server alone (nvidia-smi memory 55.2 % of
 * 90.8 % busy), the decode-heavy kind of client mps_bandwidth_loss was measured on. */
#define SHARE_MPS_MEM_REF (55.174 / 90.847)
/* Measured pair speeds override the model when every active neighbour of t has an entry:
 * prod over neighbours j of (1 - d_j x (1 - s_tj)). FALSE when the table cannot say. */
gboolean share_table_speed(const share_pool *p, const gpu_state *g, const task *t, double *speed);
/* Label used to match a job in the interference table (its label, else its kind). */
const char *share_job_label(const share_job *j);

/* Defaults a strategy may use in its table. */
/* A replica is free on g (counting workers of this job already taken there): all the
 * device plugin checks for time-slicing and MPS; several workers of one job may share a
 * card, as they do for real. */
gboolean share_replica_accepts(const share_pool *p, const gpu_state *g, const share_job *j,
                               gpu_state *const *taken, guint n_taken, guint32 *slot);
void share_default_gauges(const share_pool *p, const gpu_state *g, double *busy, double *sm);
int64_t share_default_mem_capacity(const share_pool *p, const gpu_state *g, const task *t);
void share_default_oom_victims(const share_pool *p, gpu_state *g, task *offender,
                               GPtrArray *victims);
/* The same choice among a set of residents (task*; e.g. one MIG instance's), by policy. */
void share_oom_victims_among(oom_policy policy, task *const *residents, guint n, task *offender,
                             GPtrArray *victims);
void share_default_crash_victims(const share_pool *p, gpu_state *g, task *t, GPtrArray *victims);
/* Guarantees and borrowing (share.c; docs/models.md "Fractional GPUs"): resident j is
 * guaranteed share(p, j) of the card's compute and may borrow up to cap(p, j) beyond it
 * from what the others leave idle; share_fill_speeds sets every resident's speed,
 * alloc_share (its share) and turn_wait_ns (0). share_fill_fractional: gpu_frac and the
 * pool's fraction_cap (fractional, KAI enforced). */
typedef struct share_fill {
  double (*share)(const share_pool *p, const share_job *j);
  double (*cap)(const share_pool *p, const share_job *j);
} share_fill;
extern const share_fill share_fill_fractional;
void share_fill_speeds(const share_pool *p, gpu_state *g, const share_fill *f);
/* Time-slicing's speeds and turn waits of every resident of g (the run's contention
 * curve, or measured pair speeds); the caller sets alloc_share. */
void share_timeslice_speeds(const share_pool *p, gpu_state *g);
/* A fraction frac of the card's memory as a hard limit, and a resident's limit by its
 * gpu_frac (mem_capacity of fractional and KAI enforced). */
int64_t share_fraction_mem_limit(const pool_spec *p, double frac);
int64_t share_fraction_mem_capacity(const share_pool *p, const gpu_state *g, const task *t);
/* oom_victims when a resident over its own limit dies alone (limits partition the card). */
void share_offender_oom_victims(const share_pool *p, gpu_state *g, task *offender,
                                GPtrArray *victims);
/* prune_rank when whether a job fits depends only on its worker count: 0 for every job. */
guint32 share_prune_by_size(const share_pool *p, const share_job *j);

/* ---- unified-memory oversubscription (docs/models.md "Memory oversubscription") ----
 * A pool whose strategy allows it lets the residents of a card hold up to ratio x its
 * memory together; the part beyond the card lives in host memory and is paged in over the
 * host link. Residents hold the card in arrival order: the last to arrive is the one whose
 * memory does not fit (its allocations were the ones that failed on the card). A resident
 * with a fraction f of its memory off the card runs share_oversub_factor(f, k) times
 * slower: its memory traffic, spread evenly over its memory, is served at the card's
 * bandwidth for 1 - f of it and k times slower for f. ratio 1: off (nothing changes). */
typedef struct share_oversub {
  double ratio;     /* memory the residents may hold together, in cards (>= 1; 1: off) */
  double slowdown;  /* k: host memory over the link against the card's (migration_slowdown) */
} share_oversub;
#define SHARE_OVERSUB_SLOWDOWN 50.0 /* k's default (docs/models.md: an assumption) */
extern const share_oversub share_oversub_off;
extern const scenario_key share_key_migration_slowdown;
/* 1 + f x (k - 1). */
double share_oversub_factor(double f, double k);
/* The residents' spill and slowdowns on g: sets every resident's mem_slowdown and divides
 * its speed by it (the strategy calls it last in update_speeds). */
void share_oversub_speeds(const share_pool *p, gpu_state *g, const share_oversub *o);
/* What the residents of a card may hold together: ratio x the card when ratio > 1. */
int64_t share_oversub_device_mem(const pool_spec *p, const share_oversub *o);
/* Reads migration_slowdown into o (a strategy's validate, after its own ratio key). */
void share_oversub_check(pool_check *c, share_oversub *o);
/* ", memory oversubscribed to R x the card (migration slowdown k)" when on. */
void share_oversub_describe(GString *s, const share_oversub *o);

/* ---- calls a strategy may make on the run (share.c forwards them) ----
 * Not from inside a scheduling pass unless said: schedule an event at now (share_at). */
sim_time share_now(const sim *s);
/* An event handler: ctx is the sim, obj what share_at was given (engine.h's form). */
typedef void (*share_event_fn)(void *ctx, void *obj, uint64_t arg);
/* Schedules fn(sim, g, 0) at `at` (now if earlier); may be called from inside a pass. */
void share_at(sim *s, sim_time at, share_event_fn fn, gpu_state *g);
/* Asks for a scheduling pass of p at the current instant (after same-time events). */
void share_request_schedule(sim *s, share_pool *p);
/* Tries to place the queued job j of p now; TRUE if it started. */
gboolean share_try_start(sim *s, share_pool *p, const share_job *j);
/* Kills every job with a worker on g as an eviction (events.csv `eviction` rows, work since
 * the last checkpoint lost); evicted jobs go back to their queue whatever their restart
 * policy. source: the job the eviction is for (the blast radius's source), NULL when none. */
void share_evict_gpu(sim *s, gpu_state *g, const share_job *source, const char *detail);
/* Appends an events.csv row at the current time (g and cause may be NULL). */
void share_log_event(sim *s, event_kind kind, const share_pool *p, const gpu_state *g,
                     const share_job *cause, const char *detail);
/* The one call that changes a GPU's state (up, draining, down): brings the pool's
 * integrals up to now, moves g between the counts, sets the slots it offers (0 unless up);
 * going down counts one reconfiguration (pools.csv). May be called from inside a pass. */
void share_gpu_set_service(sim *s, share_pool *p, gpu_state *g, gpu_service service,
                           guint32 slots);
/* Sets the slots g offers now (at most slots_per_gpu), so that the free-slot counts that
 * prune placement stay close to what gpu_accepts allows (MIG: the instances of the current
 * layout). The counts stay an upper bound either way. */
void share_gpu_set_capacity(share_pool *p, gpu_state *g, guint32 slots);
/* When g should be empty of its residents if nothing is evicted (ns, as a double): the
 * latest of their jobs' expected ends (a session's end, else now + work left / rate). */
double share_gpu_expected_empty(const sim *s, const gpu_state *g);
/* Is j still waiting in p's queue? */
gboolean share_job_waiting(const share_pool *p, const share_job *j);
/* Queue order: TRUE if a goes before b (priority desc, submit, trace index). */
gboolean share_job_before(const share_job *a, const share_job *b);
