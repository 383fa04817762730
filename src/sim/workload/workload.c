/* workload.c: the table of workloads, one per job kind, the few questions a workload may
 * ask about its job's placement, and the bridge through which workloads act on the run
 * (workload.h's workload_now ... workload_job_finish, forwarded to sim.c through the calls
 * of host.h, as share.c does for strategies): the one file of workload/ that includes
 * cluster.h and host.h. */
#include "workload.h"
#include "cluster.h"
#include "host.h"

/* The workloads, one row per kind of JOB_KINDS (trace.h), plus the LLM server that serves
 * an inference row naming a model. A new kind: its name in this extern line and its row. */
extern const workload_ops workload_notebook_ops, workload_inference_ops, workload_training_ops,
    workload_batch_ops, workload_llm_ops;

const workload_ops *workload_for(job_kind k) {
  static const workload_ops *const table[JOB_KIND_COUNT] = {
      [JOB_NOTEBOOK] = &workload_notebook_ops,
      [JOB_INFERENCE] = &workload_inference_ops,
      [JOB_TRAINING] = &workload_training_ops,
      [JOB_BATCH] = &workload_batch_ops,
  };
  g_assert((int)k >= 0 && k < JOB_KIND_COUNT);
  return table[k];
}

const workload_ops *workload_of(const job_spec *j) {
  if (j->kind == JOB_INFERENCE && j->llm) return &workload_llm_ops;
  return workload_for(j->kind);
}

gboolean workload_timer_pending(const job_run *j) { return j->ev_timer != 0; }

gboolean workload_job_queued(const job_run *j) {
  return j->state == JOB_QUEUED || j->state == JOB_BACKOFF;
}

void workload_job_waits(const job_run *j, double *turn, double *block_wait, double *block_corr) {
  *turn = 0;
  *block_wait = 0;
  for (guint32 w = 0; w < j->n_tasks; w++) {
    const task *t = &j->tasks[w].view;
    if (t->turn_wait_ns > *turn) *turn = t->turn_wait_ns;
    if (t->block_wait > *block_wait) {
      *block_wait = t->block_wait;
      *block_corr = t->block_corr_ns > 0 ? t->block_corr_ns : 1.0;
    }
  }
}

/* ---- the calls workloads make on the run (workload.h), forwarded to sim.c (host.h's
 * calls: sim.c is above this room) ---- */

static const sim_calls *wl_host(const sim *s) { return sim_host_of(s)->calls; }

sim_time workload_now(const sim *s) { return *sim_host_of(s)->now; }
const scenario *workload_scenario(const sim *s) { return sim_host_of(s)->sc; }
const trace *workload_trace(const sim *s) { return sim_host_of(s)->tr; }
metrics *workload_metrics(sim *s) { return sim_host_of(s)->m; }

gboolean workload_reference(const sim *s, unsigned what) {
  return wl_host(s)->reference(s, what);
}

void workload_job_set_demand(sim *s, job_run *j, gboolean active, double duty,
                             double work_ns) {
  wl_host(s)->job_set_demand(s, j, active, duty, work_ns);
}

void workload_job_refresh(sim *s, job_run *j) { wl_host(s)->job_refresh(s, j); }

int64_t workload_job_mem_room(const sim *s, const job_run *j, guint32 w) {
  return wl_host(s)->job_mem_room(s, j, w);
}

int64_t workload_job_mem_visible(const sim *s, const job_run *j, guint32 w) {
  return wl_host(s)->job_mem_visible(s, j, w);
}

void workload_job_set_mem(sim *s, job_run *j, int64_t bytes) {
  wl_host(s)->job_set_mem(s, j, bytes);
}

void workload_job_partition(const sim *s, const job_run *j, guint32 w, double *sm_frac,
                            double *bw_frac) {
  wl_host(s)->job_partition(s, j, w, sm_frac, bw_frac);
}

void workload_job_set_timer(sim *s, job_run *j, sim_time at) {
  wl_host(s)->job_set_timer(s, j, at);
}

gboolean workload_job_walk_bursts(sim *s, job_run *j, const struct notebook_toggles *t) {
  return wl_host(s)->job_walk_bursts(s, j, t);
}

void workload_job_cull(sim *s, job_run *j, sim_time back) {
  wl_host(s)->job_cull(s, j, back);
}

void workload_job_finish(sim *s, job_run *j, job_outcome outcome) {
  wl_host(s)->job_finish(s, j, outcome);
}

void workload_service(sim *s, const service_result *row) { wl_host(s)->service(s, row); }
