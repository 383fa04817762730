/* share.h: the one strategy interface. A strategy decides where a job's workers may go
 * on a GPU (slots), how fast each resident runs (speed, relative to alone on a whole
 * GPU), how much of the GPU each resident is allocated (for showback), what the GPU's
 * busy and SM-active gauges are, and who dies on an out-of-memory or a fault.
 * Each share-*.c exports one const share_ops (with its pool keys and their validation);
 * share.c lists them in one table, which is also the scenario's table of strategies. */
#pragma once
#include <glib.h>
#include "scenario.h"

typedef struct pool_state pool_state;
typedef struct gpu_state gpu_state;
typedef struct task task;
typedef struct job_run job_run;
typedef struct sim sim;

/* Model parameters every strategy may read (from the scenario; docs/models.md). */
typedef struct share_params {
  double ts_switch_loss;      /* time-slicing: efficiency lost per extra busy context */
  double mps_bandwidth_loss;  /* MPS: speed lost per other active client */
  const struct interference_table *interference; /* measured pair speeds, or NULL */
} share_params;

typedef struct share_ops {
  /* its name, its own pool keys and their validation (scenario.h): input.name is the name
   * in the scenario ("exclusive") */
  scenario_strategy input;
  const char *description;
  gboolean implemented;    /* FALSE: the scenario is refused with an honest error */
  /* Schedulable slots one GPU offers (exclusive 1, time-slicing/MPS replicas, ...). */
  guint32 (*slots_per_gpu)(const pool_spec *p);
  /* Could this job ever run in an empty pool? If not, *reason (owned) says why. */
  gboolean (*can_ever_fit)(const pool_spec *p, const job_spec *j, char **reason);
  /* May one worker of j go onto g now? On TRUE *slot is the slot it takes. Workers
   * already chosen for the same job in this placement attempt are listed in `taken`
   * (gpu_state* per worker so far) so a strategy can refuse two workers on one GPU. */
  gboolean (*gpu_accepts)(const pool_state *p, const gpu_state *g, const job_run *j,
                          gpu_state *const *taken, guint n_taken, guint32 *slot);
  /* Sets speed and alloc_share of every resident of g (after any change on g). */
  void (*update_speeds)(const pool_state *p, gpu_state *g);
  /* Current busy (some kernel running) and SM-active fractions of g. */
  void (*gauges)(const pool_state *p, const gpu_state *g, double *busy, double *sm_active);
  /* Memory capacity a resident may use on g before an out-of-memory (whole device by
   * default; MPS pinned limits and MIG instances are smaller). */
  int64_t (*mem_capacity)(const pool_state *p, const gpu_state *g, const task *t);
  /* Who dies when offender's allocation does not fit: appends task* to victims. */
  void (*oom_victims)(const pool_state *p, gpu_state *g, task *offender, GPtrArray *victims);
  /* Who dies when t's process faults: appends task* to victims (t itself included). */
  void (*crash_victims)(const pool_state *p, gpu_state *g, task *t, GPtrArray *victims);
  /* ---- optional hooks (NULL: nothing to do); MIG reconfiguration uses them ---- */
  /* After cluster_pool_init built the GPUs: set p->strategy_data and each GPU's
   * strategy_data. free_pool releases them (cluster_pool_clear calls it first). */
  void (*init_pool)(pool_state *p);
  void (*free_pool)(pool_state *p);
  /* Called by the scheduling pass, in queue order, for each queued job it tried and could
   * not place now. May change GPU states and schedule events (sim.h), but must not start
   * or kill jobs from inside the pass (schedule an event at now for that). */
  void (*on_unplaced)(sim *s, pool_state *p, job_run *j);
  /* Called after a job's worker left g (finish, kill, eviction); g's speeds and gauges are
   * already updated. */
  void (*on_release)(sim *s, pool_state *p, gpu_state *g);
  /* The one pruning hook of the scheduling pass (NULL: every queued job is tried). A rank
   * such that, among queued jobs with the same worker count, when a job of rank r does not
   * fit now, no job of rank >= r does: the pass then skips them (on_unplaced is still
   * called for the jobs it walks), and a size is done once a job of rank 0 did not fit.
   * share_prune_by_size (rank 0 for all) when the worker count alone decides (exclusive,
   * replicas); MIG ranks by the smallest instance size that holds the job. */
  guint32 (*prune_rank)(const pool_state *p, const job_run *j);
  /* Fractions of the whole GPU's SMs and memory bandwidth t's partition has (MIG: its
   * instance's SMs and memory slices). NULL: the whole GPU. The LLM roofline reads it. */
  void (*partition)(const pool_state *p, const gpu_state *g, const task *t, double *sm_frac,
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
} share_ops;

/* Tolerance of share sums (fractional shares add to at most 1 + SHARE_EPS). */
#define SHARE_EPS 1e-9

/* The registered strategy for s (never NULL; one not finished has implemented = FALSE). */
const share_ops *share_for(share_strategy s);

/* ---- the noisy-neighbour model shared by the time-shared strategies ---- */
/* Time-slicing: speed of a context whose own GPU activity is own (its gpu_util while it
 * has work) next to others whose duties add up to others: with U = own + others, 1 while
 * U <= 1, else 1 / (1 + a (U - 1)^p), a set so that four saturating contexts each get
 * (1 - 3 x switch_loss) / 4 (docs/models.md). */
double share_timeslice_speed(double own, double others, double switch_loss);
/* Share of the GPU's time that does useful work when the busy contexts' demands add up to
 * demand: min(1, U x share_timeslice_speed(U, 0, L)); 1 for U <= 1 (vGPU equal/fixed share). */
double share_timeslice_efficiency(double demand, double switch_loss);
/* Exponent p of the time-slicing curve, fitted on the Lucid pairs (docs/models.md). */
#define SHARE_TS_CURVE_EXP 1.2
/* MPS (docs/models.md, "MPS"). A client's memory intensity m is the share of its busy time
 * its device memory is busy: mem_util / gpu_util from the trace, SHARE_MPS_MEM_REF when the
 * trace does not say. */
double share_mps_mem_intensity(const job_spec *j);
/* Speed of a client with SM demand sm capped at cap and memory intensity own_mem, next to
 * other clients whose duty-weighted capped SM demands add up to others_sm and whose
 * duty-weighted memory intensities over SHARE_MPS_MEM_REF add up to others_mem:
 * (granted SMs / sm) x max(0.3, 1 - bw_loss x own_mem / SHARE_MPS_MEM_REF x others_mem).
 * Two reference clients lose bw_loss each, as the measurement bw_loss comes from. */
double share_mps_speed(double sm, double cap, double others_sm, double own_mem,
                       double others_mem, double bw_loss);
/* Mean time a request of a client (capped SM demand own_sm, memory intensity own_mem)
 * waits, per unit of its service time, for SMs held by the resident thread blocks of one
 * other client (capped SM demand other_sm, duty other_duty): SHARE_MPS_BLOCK_WAIT x
 * (1 - own_mem) x other_duty x overlap, overlap = clamp((own_sm + other_sm - 1) / own_sm,
 * 0, 1), the share of its SMs the other holds. 0 when the two fit side by side. */
double share_mps_block_wait(double own_sm, double own_mem, double other_sm, double other_duty);
/* Reference memory intensity: Tally's Llama-2-7B server alone (nvidia-smi memory 55.2 % of
 * 90.8 % busy), the decode-heavy kind of client mps_bandwidth_loss was measured on. */
#define SHARE_MPS_MEM_REF (55.174 / 90.847)
/* Wait ratio of a fully blocked, compute-bound request: fitted on Tally's BERT server next to
 * six trainers under MPS (median p99 4.76x, mean 2.2x alone); docs/models.md. */
#define SHARE_MPS_BLOCK_WAIT 0.6
/* How long a neighbour's blocks keep holding the SMs before the picture changes (a phase of
 * its training step): an assumption, 10 ms; requests much shorter see one draw. */
#define SHARE_MPS_BLOCK_CORR_NS 10e6
/* Measured pair speeds override the model when every active neighbour of t has an entry:
 * prod over neighbours j of (1 - d_j x (1 - s_tj)). FALSE when the table cannot say. */
gboolean share_table_speed(const pool_state *p, const gpu_state *g, const task *t, double *speed);
/* Label used to match a job in the interference table (its label, else its kind). */
const char *share_job_label(const job_run *j);

/* Defaults a strategy may use in its table. */
/* A replica is free on g (counting workers of this job already taken there): all the
 * device plugin checks for time-slicing and MPS; several workers of one job may share a
 * card, as they do for real. */
gboolean share_replica_accepts(const pool_state *p, const gpu_state *g, const job_run *j,
                               gpu_state *const *taken, guint n_taken, guint32 *slot);
void share_default_gauges(const pool_state *p, const gpu_state *g, double *busy, double *sm);
int64_t share_default_mem_capacity(const pool_state *p, const gpu_state *g, const task *t);
void share_default_oom_victims(const pool_state *p, gpu_state *g, task *offender,
                               GPtrArray *victims);
/* The same choice among a set of residents (task*; e.g. one MIG instance's), by policy. */
void share_oom_victims_among(oom_policy policy, GPtrArray *residents, task *offender,
                             GPtrArray *victims);
void share_default_crash_victims(const pool_state *p, gpu_state *g, task *t, GPtrArray *victims);
/* prune_rank when whether a job fits depends only on its worker count: 0 for every job. */
guint32 share_prune_by_size(const pool_state *p, const job_run *j);
