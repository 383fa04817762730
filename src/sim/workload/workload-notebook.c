/* workload-notebook.c: an interactive notebook holds its GPU memory for its whole session
 * (duration_s of wall clock) and alternates idle gaps with compute bursts. Burst work is
 * exponential with mean burst_s (seconds alone on a whole GPU); gaps are exponential
 * with mean burst_s x (1 - busy) / busy, so the long-run busy fraction alone is `busy`.
 * Draws come from the job's own stream, so the same notebook has the same bursts in
 * every scenario; a burst slowed by sharing takes longer (its stretch is reported). With
 * the idle culler on (notebook_cull_timeout), a gap longer than its timeout stops the
 * session at the timeout; the user's return (the gap's end) starts with a burst. */
#include "workload.h"
#include "notebook-model.h"
#include <stddef.h>

/* JupyterHub's idle culler (`--timeout`) [S211] a scenario may set (scenario_model_key;
 * listed in sim_model_keys, sim.c): a notebook idle this long is stopped (0: never). */
const scenario_model_key workload_key_notebook_cull_timeout = {
    {"notebook_cull_timeout", "0s", "a notebook idle this long is stopped (0s: never)",
     "30s|300s|1h"},
    SCENARIO_MODEL_DURATION, NULL, 0, 30 * 86400 * SIM_NS_PER_S, FALSE, FALSE, 0,
    offsetof(scenario, notebook_cull_ns), NULL, NULL};

/* The job's toggles now (notebook-model.h): its busy fraction (phases change it), its
 * bursts' mean work and duty. */
static notebook_toggles notebook_toggles_now(const workload_job *v) {
  return notebook_toggles_of(v->busy, (double)v->spec->burst_ns, v->spec->gpu_util);
}

static void start_gap(sim *s, job_run *j) {
  workload_job *v = workload_job_of(j);
  workload_job_set_demand(s, j, FALSE, 0.0, 0);
  sim_time now = workload_now(s), cull = workload_scenario(s)->notebook_cull_ns;
  v->gap_end = 0;
  if (v->busy <= 0) { /* never computes: idle until the session ends, or culled for good */
    if (cull > 0) {
      v->gap_end = SIM_TIME_NEVER;
      workload_job_set_timer(s, j, now + cull);
    }
    return;
  }
  notebook_toggles t = notebook_toggles_now(v);
  /* alone on its card, the run walks the gaps and bursts to the session's end (bursts.c:
   * the same toggles, drawn by the same notebook-model.h), without events (never with the
   * idle culler on) */
  if (workload_job_walk_bursts(s, j, &t)) return;
  sim_time end = notebook_next_gap(&t, v->rng, now);
  if (cull > 0 && end - now > cull) { /* idle past the timeout: stopped at it */
    v->gap_end = end;
    end = now + cull;
  }
  workload_job_set_timer(s, j, end);
}

/* A burst of exponential work starts now. */
static void start_burst(sim *s, job_run *j) {
  workload_job *v = workload_job_of(j);
  notebook_toggles t = notebook_toggles_now(v);
  double work = notebook_next_burst(&t, v->rng);
  v->burst_work_ns = work;
  v->burst_started = workload_now(s);
  workload_job_set_demand(s, j, TRUE, t.duty, work);
}

/* A culled session's first start after its user returned begins with the burst that
 * brought them back; any other start begins with a gap. */
static void notebook_on_start(sim *s, job_run *j) {
  workload_job *v = workload_job_of(j);
  if (v->returning) {
    v->returning = FALSE;
    start_burst(s, j);
  } else {
    start_gap(s, j);
  }
}

/* Gap over: a burst starts; or the idle timeout came first: the culler stops the session
 * (the user comes back at the gap's end). */
static void notebook_on_timer(sim *s, job_run *j) {
  workload_job *v = workload_job_of(j);
  if (v->gap_end) {
    sim_time back = v->gap_end;
    v->gap_end = 0;
    v->returning = TRUE;
    workload_job_cull(s, j, back);
    return;
  }
  start_burst(s, j);
}

static void notebook_on_work_done(sim *s, job_run *j) {
  workload_job *v = workload_job_of(j);
  v->burst_stretch_sum += notebook_stretch(workload_now(s) - v->burst_started, v->burst_work_ns);
  v->bursts++;
  start_gap(s, j);
}

static double notebook_rate(const job_run *j, double min_speed) { return min_speed; }

/* A phase changed the duty cycle: it applies from the next gap; a notebook that was idle
 * for good (busy 0, no gap running) starts a gap now. */
static void notebook_on_phase(sim *s, job_run *j) {
  workload_job *v = workload_job_of(j);
  if (!v->active && !workload_timer_pending(j) && v->busy > 0) start_gap(s, j);
  else workload_job_refresh(s, j);
}

const workload_ops workload_notebook_ops = {
    .kind = JOB_NOTEBOOK,
    .name = "notebook",
    .session = TRUE,
    .on_start = notebook_on_start,
    .on_work_done = notebook_on_work_done,
    .on_timer = notebook_on_timer,
    .rate = notebook_rate,
    .on_phase = notebook_on_phase,
};
