/* workload.c: the table of workloads, one per job kind. */
#include "workload.h"

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
