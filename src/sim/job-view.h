/* job-view.h: the fields a job_run (cluster.h) begins with, which both plug-in views share:
 * a strategy reads them as its share_job (share.h), a workload as the start of its
 * workload_job (workload.h). Only those two headers include this one. */
#pragma once
#include <stdint.h>
#include "trace.h"

/* What a strategy sees of a job: its trace row and the values that change while it runs.
 * job_run starts with these fields (in a union with a share_job and a workload_job), so
 * that the simulator writes j->duty and a strategy reads the same field through
 * share_job_of(j). */
#define SHARE_JOB_FIELDS \
  const job_spec *spec;  /* the trace row: gpu_util, gpu_frac, label, kind, mem_bytes */ \
  double duty;           /* fraction of time with compute demand now (0..1) */ \
  double sm;             /* SM demand now (phases change it) */ \
  int64_t mem_declared;  /* what it declared (oom: sidecar): the trace's mem_gb, or an LLM \
                          * server's pre-allocation */
