/* workload-batch.c: a batch job runs its work (duration_s alone on a whole GPU) with
 * compute demand all the time; with several workers it advances at its slowest worker's
 * speed. Finishes when the work is done. */
#include "workload.h"

static void batch_on_start(sim *s, job_run *j) {
  workload_job *v = workload_job_of(j);
  double left = (double)v->spec->duration_ns - v->kept_ns;
  workload_job_set_demand(s, j, TRUE, v->spec->gpu_util, left > 0 ? left : 0);
}

static void batch_on_work_done(sim *s, job_run *j) { workload_job_finish(s, j, OUTCOME_COMPLETED); }

static void batch_on_timer(sim *s, job_run *j) {}

static double batch_rate(const job_run *j, double min_speed) { return min_speed; }

const workload_ops workload_batch_ops = {
    .kind = JOB_BATCH,
    .name = "batch",
    .session = FALSE,
    .on_start = batch_on_start,
    .on_work_done = batch_on_work_done,
    .on_timer = batch_on_timer,
    .rate = batch_rate,
};
