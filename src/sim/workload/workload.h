/* workload.h: how a trace row behaves once placed. One workload-*.c per job kind, each
 * exporting one const workload_ops, listed in workload.c, that also declares the kind's
 * traits. Workloads read their job_run and act only through the calls of sim.h (demand,
 * timers, completion, memory room) and metrics.h (SLO counts, services rows); they never
 * touch pools or GPUs. The strategies decide speeds. */
#pragma once
#include "cluster.h"

typedef struct sim sim;

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
  /* An attempt was placed and starts now: set the demand (sim_job_set_demand) and timers. */
  void (*on_start)(sim *s, job_run *j);
  /* The current unit of work (work_left_ns) reached zero. */
  void (*on_work_done)(sim *s, job_run *j);
  /* The workload's timer (sim_job_set_timer) fired. */
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
  /* The run is over: adds the job's own rows through metrics.h (metrics_service: the
   * services.csv rows), in trace order. May be NULL. */
  void (*report)(sim *s, job_run *j);
} workload_ops;

const workload_ops *workload_for(job_kind k);
/* The workload of a trace row: its kind's, or the LLM server's for an inference job that
 * names a model. */
const workload_ops *workload_of(const job_spec *j);

/* Training progress rate for a communication share c and slowest-worker speed s:
 * 1 / ((1 - c) / s + c); 0 when s is 0. Exposed for tests. */
double workload_training_rate(double comm_frac, double min_speed);

extern const workload_ops workload_notebook_ops;
extern const workload_ops workload_inference_ops;
extern const workload_ops workload_training_ops;
extern const workload_ops workload_batch_ops;
extern const workload_ops workload_llm_ops;
