/* workload.h: how a trace row behaves once placed, and the only header of the simulator a
 * workload (workload-*.c) includes (tests/check-layers.sh fails otherwise). One
 * workload-*.c per job kind, each exporting one const workload_ops, listed in workload.c,
 * that also declares the kind's traits. A workload sees a narrow view of its job
 * (workload_job: the trace row, the values it reads and its own state), never cluster.h's
 * job_run, pools or GPUs; it acts on the run only through the calls at the end of this
 * header (workload.c, the bridge, forwards them to sim.c, as share.c does for strategies)
 * and metrics.h (SLO counts, services rows). The strategies decide speeds. */
#pragma once
#include <glib.h>
#include <gsl/gsl_rng.h>
#include "util.h"
#include "scenario.h"
#include "trace.h"
#include "results.h"
#include "metrics.h"
#include "job-view.h"
#include "reference.h"

typedef struct sim sim;
typedef struct job_run job_run; /* cluster.h; begins with its workload_job view */

/* What a workload sees of its job: SHARE_JOB_FIELDS (job-view.h) and these. job_run
 * (cluster.h) starts with them, in a union with a workload_job, so that a workload reads
 * (and, for its own state, writes) the simulator's fields through workload_job_of(j). The
 * simulator's values are read-only here: a workload changes demand, memory, timers and the
 * end of its job through the workload_job_* calls. */
#define WORKLOAD_JOB_FIELDS \
  int pool;                  /* -1 unrouted (read-only, like all but the last group) */ \
  guint32 n_tasks;           /* workers while running */ \
  gboolean active;           /* has compute demand */ \
  guint32 bursts;            /* the workload's own: a notebook's bursts so far (jobs.csv) */ \
  double rate;               /* progress per ns now (speed of the slowest worker, by rate) */ \
  double busy, rate_rps;     /* current values (spec values, changed by phases) */ \
  sim_time submit;           /* when it entered the run */ \
  sim_time session_end;      /* a session's end (-1 before its first start) */ \
  double kept_ns;            /* training/batch work saved by checkpoints (or finished) */ \
  gsl_rng *rng;              /* per job, derived from (seed, id): same bursts everywhere */ \
  /* the workload's own: a notebook's burst, and what it owns (on_done frees it) */ \
  double burst_work_ns, burst_stretch_sum; \
  sim_time burst_started; \
  sim_time gap_end;          /* a notebook's: the end of the gap the idle culler will stop \
                              * it in (0: none) */ \
  gboolean returning;        /* a notebook's: culled, its next start is its user's return */ \
  void *workload_data;
typedef struct workload_job {
  SHARE_JOB_FIELDS
  WORKLOAD_JOB_FIELDS
} workload_job;

/* The view of a job (valid C: the view is the first member of job_run). */
static inline workload_job *workload_job_of(job_run *j) { return (workload_job *)(void *)j; }
static inline const workload_job *workload_job_const(const job_run *j) {
  return (const workload_job *)(const void *)j;
}

typedef struct workload_ops {
  job_kind kind;
  const char *name;
  /* TRUE: the job runs for a session (duration_s is wall time from its first start; it ends
   * with the session, keeps and loses no work, takes no checkpoints); FALSE: it runs its
   * work (duration_s alone on whole GPUs) and finishes when that is done. */
  gboolean session;
  /* Share of each step a gang spends synchronising, not slowed by GPU sharing (training's
   * comm_frac), for the straggler accounting; NULL: 0. */
  double (*sync_share)(const job_run *j);
  /* An attempt was placed and starts now: set the demand (workload_job_set_demand) and
   * timers. */
  void (*on_start)(sim *s, job_run *j);
  /* The current unit of work (work_left_ns) reached zero. */
  void (*on_work_done)(sim *s, job_run *j);
  /* The workload's timer (workload_job_set_timer) fired. */
  void (*on_timer)(sim *s, job_run *j);
  /* Progress rate of the job given its slowest worker's speed (gang synchronisation). */
  double (*rate)(const job_run *j, double min_speed);
  /* Fraction of time with compute demand given the rate (inference: offered load / speed);
   * NULL: the duty the workload last set stays. */
  double (*duty)(const job_run *j, double rate);
  /* A phase changed busy/sm/rate_rps: adjust demand (may be NULL). */
  void (*on_phase)(sim *s, job_run *j);
  /* Called before the job's progress is advanced from j->t_last to `to` with the speeds,
   * duty and turn waits still in force over that interval (request-level models run their
   * recurrence here). May be NULL. */
  void (*advance)(sim *s, job_run *j, sim_time from, sim_time to);
  /* The attempt stops now (finished, killed or evicted), before the job leaves its GPUs.
   * May be NULL. */
  void (*on_stop)(sim *s, job_run *j);
  /* The job is done for good, or the run is over: free workload_data. May be NULL. */
  void (*on_done)(sim *s, job_run *j);
  /* The job is done, or the run is over: adds the job's own rows (workload_service: the
   * services.csv rows). For a job that is done (on_done called once)
   * the rows must not depend on when it is called: the simulator takes them when the job
   * ends and the row writer puts them back in trace order (sim.c job_out, rowwriter.c).
   * Called on the simulation's thread. May be NULL. */
  void (*report)(sim *s, job_run *j);
} workload_ops;

const workload_ops *workload_for(job_kind k);
/* The workload of a trace row: its kind's, or the LLM server's for an inference job that
 * names a model. */
const workload_ops *workload_of(const job_spec *j);

/* Training progress rate for a communication share c and slowest-worker speed s:
 * 1 / ((1 - c) / s + c); 0 when s is 0. Exposed for tests. */
double workload_training_rate(double comm_frac, double min_speed);

/* The idle culler's timeout (notebook_cull_timeout), declared in workload-notebook.c. */
extern const scenario_model_key workload_key_notebook_cull_timeout;
/* The request model's settings a scenario may set (`inference:`), declared in
 * workload-inference.c and listed in sim_model_keys (sim.c). */
extern const scenario_model_key workload_key_inference_model,
    workload_key_inference_service_dist, workload_key_inference_service_cv,
    workload_key_inference_daily_amplitude, workload_key_inference_peak_hour,
    workload_key_inference_duty_window;
/* The name of a service-time distribution ("deterministic", ...; "unknown" out of range). */
const char *workload_service_dist_name(service_dist d);

/* The LLM engine's settings and constants a scenario may set (`llm:`), declared in
 * workload-llm.c and listed in sim_model_keys (sim.c). */
extern const scenario_model_key workload_key_llm_max_num_batched_tokens,
    workload_key_llm_chunked_prefill, workload_key_llm_block_size,
    workload_key_llm_stream_ms_per_token, workload_key_llm_closed_loop,
    workload_key_llm_frontend_ms,
    workload_key_llm_bandwidth_efficiency,
    workload_key_llm_compute_efficiency, workload_key_llm_step_overhead_ms;
/* Default CV of a request's service time (lognormal, docs/models.md section 9): Tally's BERT
 * server alone on an A100 ([S63] artifact) has mean 4.05 ms and p99 4.098 ms; a lognormal
 * with that p99 / mean (exp(2.326 sigma - sigma^2 / 2) = 1.0119) has sigma 0.0051, CV 0.005
 * (derived); Clockwork [S72] finds inference alone close to deterministic. Sensitivity:
 * latency percentiles move by about 2.3 CV x the service time at low load. */
#define SCENARIO_DEFAULT_SERVICE_CV 0.005

/* ---- what a workload may ask of its job's placement (workload.c) ---- */
/* Is the workload's timer (workload_job_set_timer) pending? */
gboolean workload_timer_pending(const job_run *j);
/* Is j waiting in its pool's queue or to restart (not running, not done)? */
gboolean workload_job_queued(const job_run *j);
/* Over j's workers: the longest turn wait (*turn, 0 without workers) and the largest MPS
 * block wait (*block_wait, 0 if none), with that worker's block correlation time in
 * *block_corr (1 when it gives none; left as it was when no worker waits). */
void workload_job_waits(const job_run *j, double *turn, double *block_wait, double *block_corr);

/* ---- calls a workload makes on the run (workload.c forwards them to sim.c, as share.c
 * does the strategies' share_* calls: a workload calls no sim_ function) ---- */
sim_time workload_now(const sim *s);
/* The scenario and trace being run (request-level models read their settings and the
 * requests file). */
const scenario *workload_scenario(const sim *s);
const trace *workload_trace(const sim *s);
/* Changes the job's compute demand on all its GPUs: active (wants compute), the duty
 * (fraction of time with a kernel running) and the work of the unit now starting
 * (ignored when negative: keep work_left_ns). */
void workload_job_set_demand(sim *s, job_run *j, gboolean active, double duty,
                             double work_ns);
/* Re-evaluates the job's rate and duty after its values changed (phases). */
void workload_job_refresh(sim *s, job_run *j);
/* The run's metrics (metrics.h: SLO counts). */
metrics *workload_metrics(sim *s);
/* Whether the run takes the reference way for the SIM_REF_* bits in what (reference.h):
 * a workload with a fast path asks before taking it. */
gboolean workload_reference(const sim *s, unsigned what);
/* From a report hook: one services.csv row of the job (its histograms move with it; the id
 * is copied), handed to the row writer with the job's row. */
void workload_service(sim *s, const service_result *row);
/* Bytes worker w of the running job j may still allocate on its GPU: the least of its own
 * limit (the strategy's memory capacity) and what the other residents leave of the card,
 * less what it holds; may be negative. */
int64_t workload_job_mem_room(const sim *s, const job_run *j, guint32 w);
/* Memory worker w of j can see (the strategy's capacity for it: the card, an MPS pinned
 * limit, a MIG instance); what an LLM server sizes its pre-allocation on. */
int64_t workload_job_mem_visible(const sim *s, const job_run *j, guint32 w);
/* Sets the memory every worker of j holds, as its declared memory too (an LLM server's
 * pre-allocation); the start path checks for an out-of-memory afterwards. */
void workload_job_set_mem(sim *s, job_run *j, int64_t bytes);
/* Fractions of the whole GPU's SMs and memory bandwidth worker w's partition has (MIG:
 * its instance; 1 and 1 otherwise). Contention with neighbours is in the job's rate. */
void workload_job_partition(const sim *s, const job_run *j, guint32 w, double *sm_frac,
                            double *bw_frac);
/* Sets (replacing) the workload timer. */
void workload_job_set_timer(sim *s, job_run *j, sim_time at);
/* A gap starts now (the demand set idle already): TRUE when the run takes over the job's
 * gaps and bursts until its session ends, walking them without events (bursts.h: the
 * same toggles t, drawn from j->rng by notebook-model.h as the events draw them);
 * FALSE when the job does not qualify (not alone on a unit-speed card, per-GPU series
 * recorded, run --reference): the workload sets its timer as usual. */
struct notebook_toggles;
gboolean workload_job_walk_bursts(sim *s, job_run *j, const struct notebook_toggles *t);
/* The idle culler stops the running notebook j now (scenario notebook_cull_timeout,
 * JupyterHub's culler): its GPUs and memory are released; its user returns at back (its
 * next burst), when it queues for a GPU again, or never when back is at or past its
 * session's end (it ends now, completed). Counted in the job's culling figures. */
void workload_job_cull(sim *s, job_run *j, sim_time back);
/* The job ends now with the given outcome; its GPUs are released. */
void workload_job_finish(sim *s, job_run *j, job_outcome outcome);

