/* workload-inference.c: an inference service stays resident for its lifetime (duration_s
 * of wall clock) and keeps its GPU busy for the offered load: duty = rate_rps x service_ms
 * / 1000 / speed, capped at 1 (a slower GPU needs longer per request). The per-request
 * latency model (queueing, batching, SLOs) is a separate model; this is the fluid view
 * the utilisation figures need. */
#include "workload.h"
#include "sim.h"

static double inference_duty(const job_run *j, double rate) {
  double offered = j->rate_rps * j->spec->service_ms / 1000.0;
  if (offered <= 0) return 0;
  if (rate <= 0) return 1.0;
  double d = offered / rate;
  return d > 1.0 ? 1.0 : d;
}

static void inference_on_start(sim *s, job_run *j) {
  /* no unit of work ends: the service ends with its session (sim.c's session end) */
  sim_job_set_demand(s, j, FALSE, 0.0, 0);
}

static void inference_on_work_done(sim *s, job_run *j) {}
static void inference_on_timer(sim *s, job_run *j) {}
static double inference_rate(const job_run *j, double min_speed) { return min_speed; }

const workload_ops workload_inference_ops = {
    .kind = JOB_INFERENCE,
    .name = "inference",
    .on_start = inference_on_start,
    .on_work_done = inference_on_work_done,
    .on_timer = inference_on_timer,
    .rate = inference_rate,
    .duty = inference_duty,
};
