/* workload.c: the table of workloads, one per job kind, and the few questions a workload
 * may ask about its job's placement (workload.h): the one file of workload/ that includes
 * cluster.h. */
#include "workload.h"
#include "cluster.h"

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
    const task *t = &j->tasks[w];
    if (t->turn_wait_ns > *turn) *turn = t->turn_wait_ns;
    if (t->block_wait > *block_wait) {
      *block_wait = t->block_wait;
      *block_corr = t->block_corr_ns > 0 ? t->block_corr_ns : 1.0;
    }
  }
}
