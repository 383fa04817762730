/* job.c: the job kinds' table (JOB_KINDS of job.h: names, id prefixes, defaults) and a
 * job row filled with the defaults of its kind. No file is read here (trace.c reads the
 * trace, tracerows.c packs its rows). */
#include "job.h"
#include <string.h>

static const struct {
  const char *name, *id_prefix;
  double sm;
  restart_policy restart;
} kind_rows[JOB_KIND_COUNT] = {
#define KIND_ROW(e, name, prefix, sm, restart) [e] = {name, prefix, sm, restart},
    JOB_KINDS(KIND_ROW)
#undef KIND_ROW
};

const char *job_kind_name(job_kind k) {
  return (unsigned)k < JOB_KIND_COUNT ? kind_rows[k].name : "unknown";
}

gboolean job_kind_parse(const char *text, job_kind *out) {
  if (!text) return FALSE;
  for (int k = 0; k < JOB_KIND_COUNT; k++)
    if (!strcmp(text, kind_rows[k].name)) {
      *out = (job_kind)k;
      return TRUE;
    }
  return FALSE;
}

const char *job_kind_id_prefix(job_kind k) {
  g_return_val_if_fail((unsigned)k < JOB_KIND_COUNT, "job");
  return kind_rows[k].id_prefix;
}

double job_kind_default_sm(job_kind k) { return kind_rows[k].sm; }

/* Share of time a job keeps the GPU busy while it has work, alone (DCGM GPU_UTIL):
 * 1 for every kind (kernels back to back; docs/models.md, "GPU activity"). */
double job_kind_default_gpu_util(job_kind k) {
  (void)k;
  return 1.0;
}

restart_policy job_kind_default_restart(job_kind k) { return kind_rows[k].restart; }

void job_init(job_spec *j, job_kind kind) {
  memset(j, 0, sizeof *j);
  j->kind = kind;
  j->tenant = "default";
  j->label = "";
  j->gpus = 1;
  j->max_batch = 1;
  j->restart = job_kind_default_restart(kind);
  j->burst_ns = 30 * SIM_NS_PER_S;
  j->gpu_frac = 1.0;
  j->sm = job_kind_default_sm(kind);
  j->gpu_util = job_kind_default_gpu_util(kind);
  j->mem_util = TRACE_MEM_UTIL_UNKNOWN;
  j->busy = 0.15;
  j->slo_pct = 99.0;
  j->comm_frac = 0.1;
  j->gpu_mem_util = 0.9;
}
