/* workload-training.c: a synchronous data-parallel training gang. Each step is compute
 * (share 1 - comm_frac, slowed by the slowest worker's speed) then communication (share
 * comm_frac, not slowed by GPU sharing): rate = 1 / ((1 - c) / s_min + c); a single
 * worker exchanges no gradients (c = 0). Work is duration_s alone on whole GPUs; work
 * since the last checkpoint is lost when killed. */
#include "workload.h"

static void training_on_start(sim *s, job_run *j) {
  workload_job *v = workload_job_of(j);
  double left = (double)v->spec->duration_ns - v->kept_ns;
  workload_job_set_demand(s, j, TRUE, v->spec->gpu_util, left > 0 ? left : 0);
}

static void training_on_work_done(sim *s, job_run *j) { workload_job_finish(s, j, OUTCOME_COMPLETED); }

static void training_on_timer(sim *s, job_run *j) {}

double workload_training_rate(double comm_frac, double min_speed) {
  if (min_speed <= 0) return 0;
  double c = comm_frac;
  return 1.0 / ((1.0 - c) / min_speed + c);
}

static double training_rate(const job_run *j, double min_speed) {
  const workload_job *v = workload_job_const(j);
  return workload_training_rate(v->spec->gpus > 1 ? v->spec->comm_frac : 0.0, min_speed);
}

static double training_sync_share(const job_run *j) { return workload_job_const(j)->spec->comm_frac; }

const workload_ops workload_training_ops = {
    .kind = JOB_TRAINING,
    .name = "training",
    .session = FALSE,
    .on_start = training_on_start,
    .on_work_done = training_on_work_done,
    .on_timer = training_on_timer,
    .rate = training_rate,
    .sync_share = training_sync_share,
};
