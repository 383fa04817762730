/* sim.c: one simulation run. Owns the event handlers (arrivals, scheduling passes,
 * completions, workload timers, session ends, phases, checkpoints, random crashes), the
 * kill/restart path (out-of-memory, faults), and the freezing of the run into results.
 * Speeds come from the strategy (share-*.c), behaviour from the workloads (workload-*.c),
 * slot/memory/gauge bookkeeping from cluster.c. Prints nothing but the progress bar. Also
 * the restart keys and the table of the models' constants a scenario may set. */
#include "sim.h"
#include "bursts.h"
#include "workload.h"
#include "host.h"
#include "rng.h"
#include "interference.h"
#include "rowwriter.h"
#include "prerun.h"
#include "preempt.h"
#include "quota.h"
#include "priority.h"
#include "warm.h"
#include "autoscale.h"
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The restart of a job a scenario may set (scenario_model_key; the kill/restart path below
 * and the work budget, budget.c, read them). Restarts per job: stops a job whose phase
 * always overflows memory from looping forever (assumption; docs/models.md, "Restarts and
 * checkpoints"). The back-off: the kubelet's 10 s doubling to a 5 minute cap, reset once a
 * container has run for 10 minutes [S210] (docs/models.md, "Restart back-off"). */
const scenario_model_key sim_key_max_restarts = {
    {"max_restarts", "10", "restarts of a job before it fails", NULL},
    SCENARIO_MODEL_WHOLE, "a whole number from 0 to 1000000", 0, 1000000, FALSE, FALSE, 10,
    offsetof(scenario, max_restarts), NULL, NULL};
const scenario_model_key sim_key_restart_backoff = {
    {"restart_backoff", "10s", "the wait before a job's second restart, doubling",
     "0s|1s|10s|45s"},
    SCENARIO_MODEL_DURATION, NULL, 0, 86400 * SIM_NS_PER_S, FALSE, FALSE, 10 * SIM_NS_PER_S,
    offsetof(scenario, restart_backoff_ns), NULL, NULL};
const scenario_model_key sim_key_restart_backoff_max = {
    {"restart_backoff_max", "300s", "the longest back-off", "5s|60s|300s"},
    SCENARIO_MODEL_DURATION, NULL, SIM_NS_PER_S, 86400 * SIM_NS_PER_S, FALSE, FALSE,
    300 * SIM_NS_PER_S, offsetof(scenario, restart_backoff_max_ns), NULL, NULL};
const scenario_model_key sim_key_restart_backoff_reset = {
    {"restart_backoff_reset", "10m", "an attempt this long starts the back-off again",
     "0s|30s|10m"},
    SCENARIO_MODEL_DURATION, NULL, 0, 30 * 86400 * SIM_NS_PER_S, FALSE, FALSE,
    600 * SIM_NS_PER_S, offsetof(scenario, restart_backoff_reset_ns), NULL, NULL};

const scenario_model_key *const sim_model_keys[] = {
    &share_key_ts_switch_loss,
    &share_key_ts_curve_exp,
    &share_key_ts_overlap_exp,
    &share_key_mps_bandwidth_loss,
    &share_key_mps_block_wait,
    &share_key_mps_block_corr,
    &sim_key_max_restarts,
    &sim_key_restart_backoff,
    &sim_key_restart_backoff_max,
    &sim_key_restart_backoff_reset,
    &workload_key_notebook_cull_timeout,
    &workload_key_inference_model,
    &workload_key_inference_service_dist,
    &workload_key_inference_service_cv,
    &workload_key_inference_daily_amplitude,
    &workload_key_inference_peak_hour,
    &workload_key_inference_duty_window,
    &workload_key_llm_max_num_batched_tokens,
    &workload_key_llm_chunked_prefill,
    &workload_key_llm_block_size,
    &workload_key_llm_stream_ms_per_token,
    &workload_key_llm_closed_loop,
    &workload_key_llm_frontend_ms,
    &workload_key_llm_bandwidth_efficiency,
    &workload_key_llm_compute_efficiency,
    &workload_key_llm_step_overhead_ms,
    &quota_key_fair_sharing,
    NULL,
};

const scenario_pool_section *const sim_pool_sections[] = {
    &autoscale_section,
    &autoscale_spot_section,
    NULL,
};

struct sim {
  /* calls, sc, tr, now, m: what the plug-in bridges read (host.h), also as host */
  union {
    sim_host host;
    struct { SIM_HOST_FIELDS };
  };
  engine *eng;
  pool_state *pools;
  guint n_pools;
  gboolean closing;          /* close_books is running: the run is over, no new events */
  /* per trace row, rows [next_emit, next_emit + jobs_mask] at jobs[row & jobs_mask]: its
   * state from its arrival being scheduled to its row being out (job_new, job_out),
   * SLOT_OUT once its row is out before an earlier one's, else NULL; a window that grows with the rows not yet out (a sorted
   * trace: from the oldest unwritten row to the last arrival), not with the trace */
  job_run **jobs;
  guint32 jobs_mask;
  guint jobs_hi;             /* 1 + the highest row ever given a slot */
  GPtrArray *retained;       /* jobs out whose pool's strategy may still point at them */
  guint n_jobs;
  guint32 live_jobs, live_peak; /* job_run structures held now, and the most at once */
  guint32 *arrival_order;    /* NULL: the rows' order (arrival_order) */
  guint next_arrival;
  results *res;
  gpu_state **scratch_gpus;
  guint32 *scratch_slots;
  GPtrArray *scratch_victims;
  GArray *scratch_resched;   /* resched, gpu_end's deferred completions */
  warm *warm;                /* where gpu_end's rounds start (warm.h); NULL: cold */
  guint64 jobs_done;
  gboolean progress;
  const gint *stop;          /* sim_options.stop */
  gint64 progress_next_us;
  share_params params;
  interference_table *interference;
  /* jobs.csv rows: those of rows [0 .. next_emit) are out (job_out: their records handed
   * to the row writer, which puts them in trace order and writes them) */
  guint next_emit;
  rowwriter *rw;
  GArray *just_done;         /* guint32 rows whose job ended in this event */
  guint reference;           /* the fast paths run the reference way (SIM_REF_*) */
  GArray *svc_rows;          /* service_result: the rows a workload's report hook gives
                              * (sim_service), handed to the row writer by job_out */
  gboolean walk_bursts;      /* notebooks' bursts without events (bursts.h; FALSE with
                              * run --reference or the per-GPU series) */
  guint64 walked_toggles;    /* the events the walked bursts stood for (results events) */
  gboolean preempt_on;       /* some job may preempt (scenario priority section): the
                              * scheduling pass ends with preempt_pass */
  /* Kueue's quotas (quota.h; NULL without a `kueue` section: every job admitted as it fits) */
  quota_state *quota;
  int *quota_flavor;         /* per pool: its flavour, -1 when none */
  guint32 *quota_blocked;    /* per quota node: the pass a StrictFIFO head was refused in */
  guint32 quota_pass;        /* on_schedule passes, numbered */
  gboolean kueue_order;      /* a ClusterQueue preempts or fair sharing is on: a pass admits
                              * as Kueue orders its entries (quota_admit_pass) */
  gboolean autoscale_on;     /* some pool autoscales (autoscale.h) */
  /* giving up early (sim_options.give_up_*): 0 late starts when off */
  sim_time give_up_wait_ns;
  guint64 give_up_late, late;
  guint32 overdue_next;      /* the arrivals (in submit order) give_up_check has judged */
  gboolean gave_up;          /* give_up_late jobs started late: the run ends now */
};

/* The slot of a row that is out while an earlier one is not. */
#define SLOT_OUT ((job_run *)(uintptr_t)1)

static void request_schedule(sim *s, pool_state *p);
static void preempt_pass(sim *s, pool_state *p);

/* Row i's slot (next_emit <= i <= next_emit + jobs_mask). */
static inline job_run **job_slot(sim *s, guint32 i) { return &s->jobs[i & s->jobs_mask]; }

/* Makes room in the window for row i (>= next_emit). */
static void jobs_reserve(sim *s, guint32 i) {
  if (i >= s->jobs_hi) s->jobs_hi = i + 1;
  guint64 need = (guint64)i - s->next_emit + 1, cap = (guint64)s->jobs_mask + 1;
  if (need <= cap) return;
  guint64 ncap = cap;
  while (ncap < need) ncap *= 2;
  job_run **fresh = g_new0(job_run *, ncap);
  for (guint64 k = s->next_emit; k < s->next_emit + cap; k++)
    fresh[k & (ncap - 1)] = s->jobs[k & s->jobs_mask];
  g_free(s->jobs);
  s->jobs = fresh;
  s->jobs_mask = (guint32)(ncap - 1);
}

static gboolean job_kill(sim *s, job_run *j, event_kind why, job_run *cause,
                         const job_run *blamed, const gpu_state *where, const char *detail);

sim_time sim_now(const sim *s) { return *s->now; }
gboolean sim_reference(const sim *s, unsigned what) { return (s->reference & what) != 0; }

void sim_service(sim *s, const service_result *row) {
  g_array_append_vals(s->svc_rows, row, 1);
  service_result *kept = &g_array_index(s->svc_rows, service_result, s->svc_rows->len - 1);
  if (kept->id) kept->id = results_intern(s->res, kept->id); /* outlives the job's state */
}

/* What the residents of one of p's GPUs may hold together (share_ops.device_mem). */
static int64_t pool_device_mem(const pool_state *p) {
  return p->ops->device_mem ? p->ops->device_mem(&p->share_view) : p->spec->gpu->mem_bytes;
}

int64_t sim_job_mem_room(const sim *s, const job_run *j, guint32 w) {
  g_assert(w < j->n_tasks);
  const task *t = &j->tasks[w].view;
  const gpu_state *g = t->gpu;
  const pool_state *p = g->pool;
  int64_t limit = p->ops->mem_capacity(&p->share_view, g, t);
  int64_t left = pool_device_mem(p) - (g->mem_used - t->mem_bytes);
  return MIN(limit, left) - t->mem_bytes;
}

double sim_job_expected_end(const sim *s, const job_run *j) {
  sim_time now = sim_now(s);
  if (j->wl->session && j->session_end >= 0) return (double)j->session_end;
  if (!(j->rate > 0)) return INFINITY;
  double left = j->work_left_ns - j->rate * (double)(now - j->t_last);
  return (double)now + (left > 0 ? left : 0) / j->rate;
}

int64_t sim_job_mem_visible(const sim *s, const job_run *j, guint32 w) {
  g_assert(w < j->n_tasks);
  const task *t = &j->tasks[w].view;
  const pool_state *p = t->gpu->pool;
  return p->ops->mem_capacity(&p->share_view, t->gpu, t);
}

void sim_job_partition(const sim *s, const job_run *j, guint32 w, double *sm_frac,
                       double *bw_frac) {
  g_assert(w < j->n_tasks);
  const task *t = &j->tasks[w].view;
  const pool_state *p = t->gpu->pool;
  *sm_frac = *bw_frac = 1.0;
  if (p->ops->partition) p->ops->partition(&p->share_view, t->gpu, t, sm_frac, bw_frac);
}

/* ---- progress bookkeeping ---- */

/* A synchronous gang advances at its slowest worker's speed. Over dt, the straggler
 * delay is the time lost against every worker at the best worker's speed (its solo speed:
 * a worker stacked on its own gang-mates would run faster alone), and each faster
 * worker waits, per step, (1-c)/s_min - (1-c)/s_w out of a step of (1-c)/s_min + c. */
static void straggler_advance(job_run *j, double dt) {
  const workload_ops *w = j->wl;
  double s_min = INFINITY, s_max = 0;
  for (guint32 i = 0; i < j->n_tasks; i++) {
    double sp = j->tasks[i].speed;
    if (sp < s_min) s_min = sp;
    if (j->tasks[i].solo_speed > s_max) s_max = j->tasks[i].solo_speed;
  }
  if (!(s_min > 0) || s_max - s_min < 1e-12) return;
  double r_max = w->rate(j, s_max);
  if (r_max > 0) j->straggler_delay_ns += dt * (1.0 - j->rate / r_max);
  double c = w->sync_share ? w->sync_share(j) : 0.0;
  double step = (1.0 - c) / s_min + c;
  for (guint32 i = 0; i < j->n_tasks; i++) {
    double sp = j->tasks[i].speed;
    j->straggler_wait_gpu_ns += dt * ((1.0 - c) / s_min - (1.0 - c) / sp) / step;
  }
}

/* ---- the walk's cut: one choke point ----
 * A notebook whose bursts are walked (j->chain, bursts.h) keeps the state of its gap's
 * start until the walk is cut: whatever reads or changes the job or its card must call
 * job_touch first, which cuts it (job_unchain) at now. job_touch is the one caller of
 * job_unchain, and it is called at the entry of every handler of a job's own events
 * (job_event), by job_begin and gpu_begin (every change to a job or a card starts with
 * them) and when the books close. JOB_UNCHAINED guards the places a missed cut would
 * corrupt (the accounting of job_advance_to, completions, timers, the end of a job): it
 * aborts, naming the job and the function, in every build (a field test next to t_last). */
static void job_unchain(sim *s, job_run *j);
static inline void job_touch(sim *s, job_run *j) {
  if (G_UNLIKELY(j->chain)) job_unchain(s, j);
}
/* The job of one of its own events (obj), its walk cut. */
static inline job_run *job_event(sim *s, void *obj) {
  job_run *j = obj;
  job_touch(s, j);
  return j;
}
G_NORETURN static void job_chain_touched(const job_run *j, const char *where) {
  g_error("%s: job '%s' has walked bursts (bursts.h) and was touched without job_touch, "
          "which cuts the walk first (sim.c)", where, j->spec->id);
}
#define JOB_UNCHAINED(j)                                                                 \
  do {                                                                                   \
    if (G_UNLIKELY((j)->chain)) job_chain_touched((j), G_STRFUNC);                       \
  } while (0)

static void job_advance_to(sim *s, job_run *j, sim_time now) {
  JOB_UNCHAINED(j);
  double dt = (double)(now - j->t_last);
  if (dt > 0) {
    const workload_ops *wl = j->wl;
    if (wl->advance && j->state == JOB_RUNNING) wl->advance(s, j, j->t_last, now);
    if (j->active && j->rate > 0) {
      j->work_left_ns -= j->rate * dt;
      if (j->work_left_ns < 0) j->work_left_ns = 0;
    }
    if (j->n_tasks > 1 && j->active && j->rate > 0) straggler_advance(j, dt);
    double alloc = 0, slow = 0, over = 0;
    for (guint32 w = 0; w < j->n_tasks; w++) {
      alloc += j->tasks[w].alloc_share;
      if (G_UNLIKELY(j->tasks[w].mem_slowdown > 1.0)) {
        over += 1;
        slow += j->tasks[w].mem_slowdown;
      }
    }
    if (G_UNLIKELY(over > 0)) {
      j->oversub_ns += over * dt;
      j->oversub_slow_ns += slow * dt;
    }
    j->busy_ns += j->duty * (double)j->n_tasks * dt;
    j->alloc_gpu_ns += alloc * dt;
  }
  j->t_last = now;
}

/* Brings j's progress and accumulators up to now; nothing to do when they are there
 * already (the second call of a change, gpu_begin after job_begin: inline). */
static inline void job_advance(sim *s, job_run *j) {
  sim_time now = sim_now(s);
  if (j->t_last != now) job_advance_to(s, j, now);
}

static void on_work_done(void *ctx, void *obj, uint64_t arg);

static void reschedule_done(sim *s, job_run *j) {
  JOB_UNCHAINED(j);
  engine_cancel(s->eng, j->ev_done);
  j->ev_done = 0;
  if (!j->active || j->rate <= 0 || j->state != JOB_RUNNING) return;
  sim_time at = util_done_at(sim_now(s), j->work_left_ns, j->rate);
  if (at == SIM_TIME_NEVER) return;
  j->ev_done = engine_at(s->eng, at, on_work_done, j, 0);
}

/* The job's rate and duty from its slowest worker's speed. Returns TRUE when its completion
 * must be scheduled again (rate changed, or work or demand replaced); rescheduled tells
 * whether that is already pending (gpu_end defers its reschedules to the fixed point). */
static gboolean job_rerate_needs(job_run *j, gboolean rescheduled) {
  const workload_ops *w = j->wl;
  double min_speed = j->n_tasks ? INFINITY : 0;
  for (guint32 i = 0; i < j->n_tasks; i++)
    if (j->tasks[i].speed < min_speed) min_speed = j->tasks[i].speed;
  g_assert(min_speed >= 0 && min_speed <= 1.0 + 1e-9);
  double rate = w->rate(j, min_speed);
  if (w->duty) j->duty = w->duty(j, rate);
  /* an unchanged rate keeps the completion already scheduled (it was computed from the
   * same work and rate), unless the work itself was replaced since */
  if (rate == j->rate && !j->completion_stale &&
      (j->ev_done || rescheduled || !j->active || rate <= 0))
    return FALSE;
  j->rate = rate;
  j->completion_stale = FALSE;
  return TRUE;
}

static void job_rerate(sim *s, job_run *j) {
  if (job_rerate_needs(j, FALSE)) reschedule_done(s, j);
}

/* The residents of one gpu_end whose completion is to be scheduled again, each with the
 * order of its last change. Between the rounds of the fixed point only the rate moves (the
 * work left and the clock do not), so scheduling once, with the last rate, in the order of
 * the last changes gives every live event the time and the relative order it would have
 * had if each change had been scheduled at once (and cancelled at the next). */
typedef struct resched {
  job_run *job;
  guint32 order;
} resched;

static resched *resched_find(GArray *a, const job_run *j) {
  for (guint k = 0; k < a->len; k++)
    if (g_array_index(a, resched, k).job == j) return &g_array_index(a, resched, k);
  return NULL;
}

/* Sorts the list by order (distinct): an insertion sort, the list being a card's residents
 * (a few) and nearly in order already. */
static void resched_sort(GArray *a) {
  resched *r = (resched *)(void *)a->data;
  for (guint k = 1; k < a->len; k++) {
    resched x = r[k];
    guint m = k;
    for (; m > 0 && r[m - 1].order > x.order; m--) r[m] = r[m - 1];
    r[m] = x;
  }
}

/* Before anything changes on g: bring its residents and its integrals up to now. */
static void gpu_begin(sim *s, gpu_state *g) {
  if (g->n_residents == 1) job_touch(s, g->residents[0]->job);
  /* a shared card's residents' jobs are fetched at once, not one miss after another */
  for (guint i = 1; i < g->n_residents; i++) __builtin_prefetch(&g->residents[i]->job->t_last);
  for (guint i = 0; i < g->n_residents; i++)
    job_advance(s, g->residents[i]->job);
  cluster_gpu_integrate(g, sim_now(s));
}

/* After a change on g: strategy speeds, residents' rates and completions, gauges. A
 * resident whose duty follows its speed (inference: offered load / speed) changes what its
 * neighbours see, so speeds and duties are iterated to their fixed point here, at the
 * change itself, rather than settling one step per later event on the card (which made a
 * neighbour's speed depend on how often unrelated events happened, issue 11 bug 4). The
 * map is monotone (more duty, less speed for the others, more duty for them) and duties
 * are capped at 1, so it settles; SIM_DUTY_ROUNDS bounds it all the same. Completions are
 * scheduled once, after the fixed point (resched above). A shared card starts the rounds
 * from its last fixed point of the same inputs (warm.h); the tolerance is tight enough
 * (a hundred ulps of a duty) that where they start moves nothing but a last digit. */
#ifndef SIM_DUTY_ROUNDS /* -DSIM_DUTY_ROUNDS=1 measures the model without the fixed point */
#define SIM_DUTY_ROUNDS 200
#endif
#define SIM_DUTY_TOLERANCE 1e-14
/* gpu_end of a card with one resident: the same rounds, with one flag for the list of
 * completions to schedule (one job: no order to keep). */
static void gpu_end_one(sim *s, gpu_state *g) {
  job_run *j = ((task *)g->residents[0])->job;
  gboolean due = FALSE;
  for (int round = 0; round < SIM_DUTY_ROUNDS; round++) {
    cluster_gpu_update_speeds(g);
    double before = j->duty;
    if (job_rerate_needs(j, due) && !due) {
      engine_cancel(s->eng, j->ev_done);
      j->ev_done = 0;
      due = TRUE;
    }
    if (!(fabs(j->duty - before) > SIM_DUTY_TOLERANCE)) break;
  }
  if (due) reschedule_done(s, j);
  cluster_gpu_update_gauges(g);
}

static void gpu_end(sim *s, gpu_state *g) {
  if (g->n_residents == 1 && !(s->reference & SIM_REF_ONE)) {
    gpu_end_one(s, g);
    return;
  }
  GArray *due = s->scratch_resched;
  g_array_set_size(due, 0);
  guint32 order = 0;
  warm_key key;
  gboolean warmed = s->warm && warm_key_of(g, &key);
  if (warmed) warm_start(s->warm, g, &key);
  for (int round = 0; round < SIM_DUTY_ROUNDS; round++) {
    cluster_gpu_update_speeds(g);
    gboolean moved = FALSE;
    for (guint i = 0; i < g->n_residents; i++) {
      job_run *j = ((task *)g->residents[i])->job;
      double before = j->duty;
      resched *r = due->len ? resched_find(due, j) : NULL;
      if (job_rerate_needs(j, r != NULL)) {
        if (r) r->order = order++;
        else {
          engine_cancel(s->eng, j->ev_done);
          j->ev_done = 0;
          resched add = {.job = j, .order = order++};
          g_array_append_val(due, add);
        }
      }
      if (fabs(j->duty - before) > SIM_DUTY_TOLERANCE) moved = TRUE;
    }
    if (!moved) break;
  }
  if (warmed) warm_store(s->warm, g, &key);
  resched_sort(due);
  for (guint k = 0; k < due->len; k++) reschedule_done(s, g_array_index(due, resched, k).job);
  cluster_gpu_update_gauges(g);
}

static void job_begin(sim *s, job_run *j) {
  job_touch(s, j);
  job_advance(s, j);
  for (guint32 w = 0; w < j->n_tasks; w++) gpu_begin(s, j->tasks[w].gpu);
}

static void job_end(sim *s, job_run *j) {
  for (guint32 w = 0; w < j->n_tasks; w++) gpu_end(s, j->tasks[w].gpu);
  if (!j->n_tasks) job_rerate(s, j);
}

void sim_job_set_demand(sim *s, job_run *j, gboolean active, double duty, double work_ns) {
  job_begin(s, j);
  j->active = active;
  j->duty = duty;
  if (work_ns >= 0) j->work_left_ns = work_ns;
  j->completion_stale = TRUE;
  job_end(s, j);
}

void sim_job_refresh(sim *s, job_run *j) {
  job_begin(s, j);
  job_end(s, j);
}

static void on_timer(void *ctx, void *obj, uint64_t arg) {
  sim *s = ctx;
  job_run *j = job_event(s, obj);
  j->ev_timer = 0;
  j->wl->on_timer(s, j);
}

void sim_job_set_timer(sim *s, job_run *j, sim_time at) {
  JOB_UNCHAINED(j);
  engine_cancel(s->eng, j->ev_timer);
  j->ev_timer = engine_at(s->eng, at < sim_now(s) ? sim_now(s) : at, on_timer, j, 0);
}

static void on_work_done(void *ctx, void *obj, uint64_t arg) {
  sim *s = ctx;
  job_run *j = job_event(s, obj);
  j->ev_done = 0;
  job_advance(s, j);
  j->work_left_ns = 0;
  j->wl->on_work_done(s, j);
}

/* ---- bursts without events (bursts.h) ---- */

/* A walk may cover at most this many intervals of the grid (the metrics keep what it
 * accounted ahead by interval: 32 bytes each, in the pool and the tenant); a longer
 * session's bursts are events. */
#define SIM_WALK_MAX_INTERVALS 65536

gboolean sim_job_walk_bursts(sim *s, job_run *j, const notebook_toggles *t) {
  /* the idle culler stops a notebook in a long gap: its gaps are events (workload-notebook.c) */
  if (!s->walk_bursts || s->sc->notebook_cull_ns > 0 || j->n_tasks != 1 ||
      j->state != JOB_RUNNING || !j->wl->session ||
      j->ev_timer || j->ev_done || j->rng->type != gsl_rng_taus2)
    return FALSE;
  gpu_state *g = j->tasks[0].gpu;
  if (!g->pool->ops->unit_speeds || g->n_residents != 1 || g->slots_cap != 1) return FALSE;
  sim_time now = sim_now(s), limit = j->session_end;
  if (s->sc->horizon_ns > 0 && s->sc->horizon_ns < limit) limit = s->sc->horizon_ns;
  if (limit <= now || limit == SIM_TIME_NEVER ||
      (limit - now) / metrics_interval_ns(s->m) > SIM_WALK_MAX_INTERVALS)
    return FALSE;
  j->chain = bursts_start(s->m, j, g, now, limit, t);
  return TRUE;
}

/* j's walked bursts stop now (something is about to touch the job or its card): the job's
 * state becomes the one its events would have left, and its next toggle a real event.
 * Called from job_touch only. */
static void job_unchain(sim *s, job_run *j) {
  burst_chain *c = j->chain;
  j->chain = NULL;
  sim_time now = sim_now(s);
  gpu_state *g = j->tasks[0].gpu;
  cluster_gpu_integrate(g, now); /* with the idle gauges: the bursts are in the books */
  double duty = bursts_duty(c);
  bursts_state st;
  bursts_cut(s->m, c, now, &st);
  s->walked_toggles += st.toggles;
  rng_restore(j->rng, &st.rng);
  j->busy_ns = st.busy_ns;
  j->alloc_gpu_ns = st.alloc_gpu_ns;
  j->charge_gpu_ns = st.charge_gpu_ns;
  j->burst_stretch_sum = st.stretch_sum;
  j->bursts = st.bursts;
  j->t_last = st.last;
  j->tasks[0].part_since = st.part_since;
  if (st.in_burst) {
    j->active = TRUE;
    j->duty = duty;
    j->work_left_ns = st.work;
    j->burst_work_ns = st.work;
    j->burst_started = st.burst_start;
    j->completion_stale = FALSE;
    cluster_gpu_update_gauges(g);
  }
  /* not when the books close: the engine may have dropped cancelled events past the
   * horizon, so an event at the horizon would go back in time (pqueue.c aborts) */
  if (s->closing) return;
  if (st.in_burst) {
    if (st.next != SIM_TIME_NEVER) j->ev_done = engine_at(s->eng, st.next, on_work_done, j, 0);
  } else {
    j->ev_timer = engine_at(s->eng, st.next < now ? now : st.next, on_timer, j, 0);
  }
}

/* ---- events log ---- */

static void log_event(sim *s, event_kind kind, const job_run *j, const job_run *cause,
                      const gpu_state *g, gboolean innocent, double lost_ns, const char *detail) {
  event_row e = {
      .t_s = util_ns_to_seconds(sim_now(s)),
      .kind = kind,
      .job = j ? j->spec->id : NULL,
      .cause_job = cause ? cause->spec->id : NULL,
      .pool = j && j->pool >= 0 ? scenario_pool(s->sc, (guint)j->pool)->name : NULL,
      .node = g ? (int)g->node : -1,
      .gpu = g ? (int)g->local : -1,
      .innocent = innocent,
      .work_lost_s = lost_ns / 1e9,
      .detail = detail,
  };
  metrics_event(s->m, &e);
}

void sim_log_event(sim *s, event_kind kind, const pool_state *p, const gpu_state *g,
                   const job_run *j, const job_run *cause, const char *detail) {
  event_row e = {
      .t_s = util_ns_to_seconds(sim_now(s)),
      .kind = kind,
      .job = j ? j->spec->id : NULL,
      .cause_job = cause ? cause->spec->id : NULL,
      .pool = p ? p->spec->name : NULL,
      .node = g ? (int)g->node : -1,
      .gpu = g ? (int)g->local : -1,
      .detail = detail,
  };
  metrics_event(s->m, &e);
}

/* ---- releasing, finishing, killing ---- */

/* The job v terminates for, while its state lives (its row not out yet), else NULL. */
static job_run *preempt_cause(sim *s, const job_run *v) {
  guint32 i = v->preempt_cause_row;
  if (i < s->next_emit) return NULL;
  job_run *j = *job_slot(s, i);
  return j && j != SLOT_OUT ? j : NULL;
}

/* j, terminating after a preemption, stops now (its grace period ended, or it ended or
 * was killed first): its preemptor, if still there, waits for one victim fewer. */
static void preempt_forget(sim *s, job_run *j) {
  job_run *cause = preempt_cause(s, j);
  if (cause) cause->preempt_pending--;
  j->terminating = FALSE;
  engine_cancel(s->eng, j->ev_preempt);
  j->ev_preempt = 0;
}

static void cancel_job_events(sim *s, job_run *j) {
  engine_cancel(s->eng, j->ev_done);
  engine_cancel(s->eng, j->ev_timer);
  engine_cancel(s->eng, j->ev_end);
  engine_cancel(s->eng, j->ev_phase);
  engine_cancel(s->eng, j->ev_ckpt);
  engine_cancel(s->eng, j->ev_crash);
  j->ev_done = j->ev_timer = j->ev_end = j->ev_phase = j->ev_ckpt = j->ev_crash = 0;
}

/* Frees the tasks of the last attempt (those of several workers are allocated). */
static void job_tasks_free(job_run *j) {
  if (j->tasks != &j->task1) g_free(j->tasks);
  j->tasks = NULL;
}

/* Takes the job off its GPUs (it stops running now). */
/* ---- Kueue's quotas (docs/models.md "Quotas") ---- */

/* Kueue admits j only when all of it fits its ClusterQueue's quota in its pool's flavour
 * (nominal, kept, and what its cohort tree lends within the borrowing limit); a flavour the
 * queue does not list admits nothing. Jobs of tenants without a LocalQueue: always. */
static gboolean quota_admits(const sim *s, const job_run *j) {
  if (j->cq < 0) return TRUE;
  int f = s->quota_flavor[j->pool];
  if (f < 0 || !g_array_index(s->sc->kueue->nodes, kueue_node, j->cq).quota[f].listed) return FALSE;
  return quota_available(s->quota, j->cq, f) >= (int64_t)j->spec->gpus;
}

/* Its attempt's GPUs go back to its ClusterQueue; the GPU-time counted against the quota
 * and borrowed. */
static void quota_release(sim *s, job_run *j, sim_time now) {
  double dt = (double)(now - j->attempt_start);
  j->quota_gpu_ns += dt * j->n_tasks;
  j->borrowed_gpu_ns += dt * j->quota_borrowed;
  quota_add(s->quota, j->cq, s->quota_flavor[j->pool], -(int64_t)j->n_tasks);
  j->quota_borrowed = 0;
}

static void job_release(sim *s, job_run *j) {
  pool_state *p = &s->pools[j->pool];
  sim_time now = sim_now(s);
  job_begin(s, j);
  if (G_UNLIKELY(j->terminating)) preempt_forget(s, j);
  const workload_ops *wl = j->wl;
  if (wl->on_stop) wl->on_stop(s, j);
  cancel_job_events(s, j);
  j->run_ns += (double)(now - j->attempt_start);
  guint32 n = j->n_tasks;
  if (G_UNLIKELY(j->cq >= 0)) quota_release(s, j, now);
  gpu_state *gpus[n ? n : 1];
  for (guint32 w = 0; w < n; w++) {
    gpus[w] = j->tasks[w].gpu;
    cluster_detach(p, &j->tasks[w].view);
  }
  job_tasks_free(j);
  j->n_tasks = 0;
  j->active = FALSE;
  j->duty = 0;
  j->rate = 0;
  for (guint32 w = 0; w < n; w++) gpu_end(s, gpus[w]);
  cluster_pool_integrate(p, now);
  p->n_running--;
  if (G_UNLIKELY(p->autoscale)) autoscale_released(s, p, gpus, n);
  if (p->ops->on_release)
    for (guint32 w = 0; w < n; w++) {
      gboolean seen = FALSE; /* once per GPU, even with several workers on it */
      for (guint32 k = 0; k < w && !seen; k++) seen = gpus[k] == gpus[w];
      if (!seen) p->ops->on_release(s, &p->share_view, gpus[w]);
    }
  request_schedule(s, p);
}

static void job_done(sim *s, job_run *j, job_outcome outcome) {
  j->state = JOB_DONE;
  j->outcome = outcome;
  j->end = sim_now(s);
  s->jobs_done++;
  g_array_append_val(s->just_done, j->index);
  if (G_UNLIKELY(s->autoscale_on) && s->jobs_done == s->n_jobs)
    for (guint i = 0; i < s->n_pools; i++)
      if (s->pools[i].autoscale) autoscale_quiesce(s, &s->pools[i]);
  const workload_ops *wl = j->wl;
  if (wl->on_done) wl->on_done(s, j);
  if (j->rng_faults) gsl_rng_free(j->rng_faults);
  j->rng = j->rng_faults = NULL; /* rng is in rng_slot */
}

void sim_job_finish(sim *s, job_run *j, job_outcome outcome) {
  JOB_UNCHAINED(j);
  g_assert(j->state == JOB_RUNNING);
  job_release(s, j);
  if (outcome == OUTCOME_COMPLETED && !j->wl->session) j->kept_ns = (double)j->spec->duration_ns;
  job_done(s, j, outcome);
}

static double work_done_in_attempt(const job_run *j) {
  if (j->wl->session) return 0;
  return (double)j->spec->duration_ns - j->work_left_ns;
}

/* Did j grow past what it held (or declared) when it was placed? A phase sets mem_bytes;
 * mem_declared is the placement's (the trace's mem_gb, an LLM server's pre-allocation). */
static gboolean job_grew(const job_run *j) { return j->mem_bytes > j->mem_declared; }

/* ---- restarts: Kubernetes' CrashLoopBackOff (docs/models.md, "Restart back-off") ---- */

/* j goes back to its pool's queue now. */
static void job_requeue(sim *s, job_run *j) {
  pool_state *p = &s->pools[j->pool];
  cluster_pool_integrate(p, sim_now(s));
  j->state = JOB_QUEUED;
  j->queued_since = sim_now(s);
  cluster_queue_push(p, j);
  request_schedule(s, p);
}

/* The wait before the restart of j, whose attempt just failed at now, as the kubelet
 * spaces a container's restarts [S210]: the first restart at once, then restart_backoff,
 * doubling at each failure up to restart_backoff_max; an attempt that ran
 * restart_backoff_reset or longer counts as the first failure again. 0: at once (also
 * whenever restart_backoff is 0). */
static sim_time backoff_next(const scenario *sc, job_run *j, sim_time now) {
  if (sc->restart_backoff_ns <= 0) return 0;
  if (now - j->attempt_start >= sc->restart_backoff_reset_ns) j->backoff_next_ns = 0;
  sim_time wait = j->backoff_next_ns;
  sim_time next = wait ? wait * 2 : sc->restart_backoff_ns;
  j->backoff_next_ns = MIN(next, sc->restart_backoff_max_ns);
  return wait;
}

static void on_backoff_end(void *ctx, void *obj, uint64_t arg) {
  sim *s = ctx;
  job_run *j = obj;
  (void)arg;
  g_assert(j->state == JOB_BACKOFF);
  j->ev_backoff = 0;
  sim_time now = sim_now(s);
  j->backoff_wait_ns += (double)(now - j->backoff_since);
  if (j->wl->session && j->session_end <= now) { /* its session ended while it waited */
    j->reason = "killed; its session ended in restart back-off";
    job_done(s, j, OUTCOME_FAILED);
    return;
  }
  char detail[64];
  snprintf(detail, sizeof detail, "requeued after a back-off of %.0f s",
           util_ns_to_seconds(now - j->backoff_since));
  log_event(s, EVENT_RESTART, j, NULL, NULL, FALSE, 0, detail);
  job_requeue(s, j);
}

/* j, killed and to be restarted, waits out its back-off of wait (> 0) off its GPUs. */
static void job_backoff(sim *s, job_run *j, const job_run *cause, sim_time wait) {
  char detail[64];
  snprintf(detail, sizeof detail, "back-off %.0f s before restart %u",
           util_ns_to_seconds(wait), j->restarts);
  log_event(s, EVENT_BACKOFF, j, cause, NULL, FALSE, 0, detail);
  j->state = JOB_BACKOFF;
  j->backoff_since = sim_now(s);
  j->ev_backoff = engine_at(s->eng, sim_now(s) + wait, on_backoff_end, j, 0);
}

/* ---- idle culling of notebooks: JupyterHub's idle culler (docs/models.md) ---- */

static void on_cull_return(void *ctx, void *obj, uint64_t arg) {
  sim *s = ctx;
  job_run *j = obj;
  (void)arg;
  g_assert(j->state == JOB_CULLED);
  j->ev_backoff = 0;
  j->returned = TRUE;
  j->culls.returns++;
  job_requeue(s, j);
}

void sim_job_cull(sim *s, job_run *j, sim_time back) {
  JOB_UNCHAINED(j);
  g_assert(j->state == JOB_RUNNING && j->wl->session);
  sim_time now = sim_now(s), until = MIN(back, j->session_end);
  if (s->sc->horizon_ns > 0) until = MIN(until, s->sc->horizon_ns);
  j->culls.culled++;
  if (until > now) j->culls.freed_gpu_s += util_ns_to_seconds(until - now) * j->spec->gpus;
  char detail[128];
  if (back < j->session_end)
    snprintf(detail, sizeof detail, "idle %.0f s: culled; its user returns at %.0f s",
             util_ns_to_seconds(s->sc->notebook_cull_ns), util_ns_to_seconds(back));
  else
    snprintf(detail, sizeof detail, "idle %.0f s: culled; its session ends before its user "
             "returns", util_ns_to_seconds(s->sc->notebook_cull_ns));
  log_event(s, EVENT_CULL, j, NULL, j->tasks[0].gpu, FALSE, 0, detail);
  job_release(s, j);
  if (back >= j->session_end) { /* the user does not come back: the session is over */
    job_done(s, j, OUTCOME_COMPLETED);
    return;
  }
  j->state = JOB_CULLED;
  j->ev_backoff = engine_at(s->eng, back, on_cull_return, j, 0);
}

/* j dies of why; cause is the job whose allocation failed or that faulted (NULL for an
 * eviction); blamed is the job that is not an innocent victim besides those that grew
 * (cause, or NULL when another job's growth made the allocation fail). */
static gboolean job_kill(sim *s, job_run *j, event_kind why, job_run *cause,
                         const job_run *blamed, const gpu_state *where, const char *detail) {
  pool_state *p = &s->pools[j->pool];
  job_begin(s, j);
  double lost = 0;
  if (!j->wl->session) {
    lost = work_done_in_attempt(j) - j->kept_ns;
    if (lost < 0) lost = 0;
  }
  /* an out-of-memory's offenders are the jobs that grew past what they held when placed
   * (the one whose allocation failed only when nobody else grew); a fault's, the faulting
   * job; every other victim is innocent (docs/models.md, section 5) */
  gboolean preempted = why == EVENT_PREEMPTION;
  if (preempted && preempt_checkpoints(s->sc) && !j->wl->session) {
    j->kept_ns = work_done_in_attempt(j); /* saved in its grace period */
    lost = 0;
  }
  gboolean innocent =
      cause && j != blamed && !preempted && !(why == EVENT_OOM_KILL && job_grew(j));
  if (preempted) j->preempt_lost_gpu_ns += lost * j->spec->gpus;
  j->work_lost_ns += lost;
  p->work_lost_gpu_ns += lost * j->spec->gpus;
  j->kills++;
  if (why == EVENT_OOM_KILL) {
    j->oom_kills++;
    p->oom_kills++;
  }
  if (innocent) p->innocent_victims++;
  if (innocent && why != EVENT_OOM_KILL) p->fault_victims++;
  if (why == EVENT_EVICTION) p->evictions++;
  log_event(s, why, j, cause, where, innocent, lost, detail);
  job_release(s, j);
  gboolean session_left = !j->wl->session || j->session_end > sim_now(s);
  /* an evicted job did not fail: it goes back to the queue whatever its restart policy
   * (evictions are bounded by the reconfigurations that cause them) */
  /* (a preempted one too, up to max_restarts + 1 times: the budget's bound, budget.c) */
  gboolean evicted =
      why == EVENT_EVICTION || (preempted && j->preempted <= s->sc->max_restarts);
  if (session_left && (evicted || (j->spec->restart != RESTART_NEVER &&
                                   j->restarts < s->sc->max_restarts))) {
    j->restarts++;
    p->restarts++;
    sim_time wait = evicted ? 0 : backoff_next(s->sc, j, sim_now(s));
    if (wait > 0) job_backoff(s, j, cause, wait);
    else {
      log_event(s, EVENT_RESTART, j, cause, NULL, FALSE, 0, "requeued");
      job_requeue(s, j);
    }
  } else {
    j->reason = preempted && session_left           ? "preempted more than max_restarts times"
                : j->spec->restart == RESTART_NEVER ? "killed; restart: never"
                : !session_left                    ? "killed at the end of its session"
                                                   : "killed; too many restarts";
    job_done(s, j, OUTCOME_FAILED);
  }
  return innocent;
}

/* The blast radius of a kill of why (docs/models.md "Blast radius"): an innocent victim of
 * an OOM kill or a crash died, every victim of an eviction was evicted; from is the
 * tenant of the job at fault (METRICS_NO_TENANT: none), to the victim's. */
static void blast_count(sim *s, event_kind why, guint32 from, guint32 to, gboolean innocent) {
  if (why == EVENT_EVICTION) metrics_blast(s->m, BLAST_EVICTION, from, to, BLAST_EVICTED);
  else if (innocent && why == EVENT_OOM_KILL) metrics_blast(s->m, BLAST_OOM_KILL, from, to, BLAST_DIED);
  else if (innocent && why == EVENT_CRASH) metrics_blast(s->m, BLAST_CRASH, from, to, BLAST_DIED);
}

/* Kills the jobs owning the tasks in s->scratch_victims (each once); source is the job at
 * fault for the blast radius (NULL: none). */
static void kill_victims(sim *s, event_kind why, job_run *cause, const job_run *blamed,
                         const job_run *source, const gpu_state *where, const char *detail) {
  guint32 from = source ? source->tenant : METRICS_NO_TENANT;
  GPtrArray *jobs = g_ptr_array_new();
  for (guint i = 0; i < s->scratch_victims->len; i++) {
    job_run *v = ((task *)g_ptr_array_index(s->scratch_victims, i))->job;
    gboolean seen = FALSE;
    for (guint k = 0; k < jobs->len && !seen; k++) seen = g_ptr_array_index(jobs, k) == v;
    if (!seen) g_ptr_array_add(jobs, v);
  }
  g_ptr_array_set_size(s->scratch_victims, 0);
  for (guint i = 0; i < jobs->len; i++) {
    job_run *v = g_ptr_array_index(jobs, i);
    if (v->state != JOB_RUNNING) continue;
    guint32 to = v->tenant;
    blast_count(s, why, from, to, job_kill(s, v, why, cause, blamed, where, detail));
  }
  g_ptr_array_unref(jobs);
}

/* The first job other than offender's (residents' order), sharing the memory that
 * overflowed, that grew past what it held when placed, or NULL. Over the device: any
 * resident of g; over a per-client limit: those in the offender's slot (a MIG instance's
 * replicas; under MPS, vGPU and fractional a limit is the client's own, and a client over
 * it grew itself). */
static const job_run *other_grew(const gpu_state *g, const task *offender, gboolean device) {
  for (guint i = 0; i < g->n_residents; i++) {
    const task *t = g->residents[i];
    if (t->job != offender->job && (device || t->slot == offender->slot) && job_grew(t->job))
      return t->job;
  }
  return NULL;
}

/* Checks g for an out-of-memory caused by offender's allocation; kills the victims, again
 * while the offender lives on and its allocation still does not fit (oom: sidecar may pick
 * residents that free too little), then records what stays in use in g's peaks. */
static gboolean check_oom(sim *s, gpu_state *g, task *offender) {
  pool_state *p = g->pool;
  job_run *cause = offender->job;
  gboolean any = FALSE;
  for (;;) {
    int64_t cap = p->ops->mem_capacity(&p->share_view, g, offender);
    gboolean over_client = offender->mem_bytes > cap;
    int64_t device = pool_device_mem(p);
    gboolean over_device = g->mem_used > device;
    if (!over_client && !over_device) break;
    cluster_gpu_count_oom(g);
    any = TRUE;
    char detail[256];
    if (over_client) /* a per-client limit (MPS, MIG instance, vGPU, fraction): the GPU total
                      * is not the figure that overflowed */
      snprintf(detail, sizeof detail, "%s allocated %.2f GB where its limit leaves it %.2f GB",
               cause->spec->id, UTIL_GB(offender->mem_bytes), UTIL_GB(cap));
    else /* the demand, not memory in use: the allocation that failed never held the card */
      snprintf(detail, sizeof detail,
               "%s needs %.2f GB beside %.2f GB of other residents on a %.2f GB GPU "
               "(%.2f GB demanded)",
               cause->spec->id, UTIL_GB(offender->mem_bytes),
               UTIL_GB(g->mem_used - offender->mem_bytes), UTIL_GB(device),
               UTIL_GB(g->mem_used));
    p->ops->oom_victims(&p->share_view, g, offender, s->scratch_victims);
    if (!s->scratch_victims->len) break; /* the strategy spares everyone */
    /* the blast comes from the job that grew (the first), else the failing allocation's */
    const job_run *grew = other_grew(g, offender, !over_client);
    kill_victims(s, EVENT_OOM_KILL, cause, grew ? NULL : cause, grew ? grew : cause, g, detail);
    if (cause->state != JOB_RUNNING) break;
  }
  cluster_gpu_note_mem(g);
  return any;
}

static void job_crash(sim *s, job_run *j, const char *why) {
  pool_state *p = &s->pools[j->pool];
  j->crashes++;
  p->crashes++;
  gpu_state *g = j->tasks[0].gpu;
  /* one events.csv row per victim (the faulting job is a victim too, not innocent) */
  p->ops->crash_victims(&p->share_view, g, &j->tasks[0].view, s->scratch_victims);
  kill_victims(s, EVENT_CRASH, j, j, j, g, why);
}

void sim_job_set_mem(sim *s, job_run *j, int64_t bytes) {
  job_begin(s, j);
  j->mem_bytes = j->mem_declared = bytes;
  for (guint32 w = 0; w < j->n_tasks; w++) cluster_task_set_mem(&j->tasks[w].view, bytes);
  job_end(s, j);
}

/* ---- phases, checkpoints, random crashes, session ends ---- */

static void schedule_phase(sim *s, job_run *j);

static void on_phase(void *ctx, void *obj, uint64_t arg) {
  sim *s = ctx;
  job_run *j = job_event(s, obj); /* before the phase's values change */
  j->ev_phase = 0;
  const job_phase *ph = &g_array_index(s->tr->phases, job_phase, j->next_phase);
  j->next_phase++;
  if (ph->set & (PHASE_SET_BUSY | PHASE_SET_SM | PHASE_SET_RATE)) {
    if (ph->set & PHASE_SET_BUSY) j->busy = ph->busy;
    if (ph->set & PHASE_SET_SM) j->sm = ph->sm;
    if (ph->set & PHASE_SET_RATE) j->rate_rps = ph->rate_rps;
    const workload_ops *w = j->wl;
    if (w->on_phase) w->on_phase(s, j);
    else sim_job_refresh(s, j);
  }
  if (j->state != JOB_RUNNING) return;
  if (ph->set & PHASE_SET_MEM) {
    job_begin(s, j);
    j->mem_bytes = ph->mem_bytes;
    for (guint32 w = 0; w < j->n_tasks; w++)
      cluster_task_set_mem(&j->tasks[w].view, ph->mem_bytes);
    job_end(s, j);
    for (guint32 w = 0; w < j->n_tasks && j->state == JOB_RUNNING; w++)
      if (check_oom(s, j->tasks[w].gpu, &j->tasks[w].view)) break;
  }
  if (j->state != JOB_RUNNING) return;
  if ((ph->set & PHASE_CRASH) && !j->crash_phase_fired) {
    j->crash_phase_fired = TRUE;
    job_crash(s, j, "process fault (crash phase)");
    return;
  }
  schedule_phase(s, j);
}

static void schedule_phase(sim *s, job_run *j) {
  const job_spec *sp = j->spec;
  if (j->next_phase >= sp->phase_first + sp->phase_count) return;
  const job_phase *ph = &g_array_index(s->tr->phases, job_phase, j->next_phase);
  sim_time at = j->attempt_start + ph->after_ns;
  if (at < j->attempt_start) return; /* overflow */
  j->ev_phase = engine_at(s->eng, at < sim_now(s) ? sim_now(s) : at, on_phase, j, 0);
}

static void on_checkpoint(void *ctx, void *obj, uint64_t arg) {
  sim *s = ctx;
  job_run *j = job_event(s, obj);
  job_advance(s, j);
  j->kept_ns = work_done_in_attempt(j);
  j->ev_ckpt = engine_at(s->eng, sim_now(s) + j->spec->checkpoint_ns, on_checkpoint, j, 0);
}

static void schedule_random_crash(sim *s, job_run *j);

static void on_random_crash(void *ctx, void *obj, uint64_t arg) {
  sim *s = ctx;
  job_run *j = job_event(s, obj);
  j->ev_crash = 0;
  job_crash(s, j, "process fault (crash rate)");
}

static void schedule_random_crash(sim *s, job_run *j) {
  double per_hour = s->sc->crash_rate_per_hour[j->spec->kind];
  if (per_hour <= 0) return;
  if (!j->rng_faults) j->rng_faults = rng_new(s->sc->seed, j->spec->id, 1);
  double hours = rng_exponential(j->rng_faults, 1.0 / per_hour);
  double ns = hours * 3600e9;
  if (!(ns < 9e18)) return;
  j->ev_crash = engine_at(s->eng, sim_now(s) + (sim_time)ns, on_random_crash, j, 0);
}

static void on_session_end(void *ctx, void *obj, uint64_t arg) {
  sim *s = ctx;
  job_run *j = job_event(s, obj);
  j->ev_end = 0;
  sim_job_finish(s, j, OUTCOME_COMPLETED);
}

/* ---- placement ---- */

/* Keeps the GPUs of the placement just made, for jobs.csv (formatted when the row is). */
static void keep_placement(job_run *j) {
  if (j->n_tasks == 1) {
    j->placed_gpu = j->tasks[0].gpu->index;
    return;
  }
  if (!j->placed_gpus) j->placed_gpus = g_new(guint32, j->n_tasks);
  for (guint32 w = 0; w < j->n_tasks; w++) j->placed_gpus[w] = j->tasks[w].gpu->index;
}

/* The GPUs of the last placement, for jobs.csv gpu_ids: how many (0 if none), and their
 * (node, GPU in node) pairs into out. */
static guint32 placement_count(const job_run *j) {
  return j->first_start < 0 || j->pool < 0 ? 0 : j->spec->gpus;
}

static void placement_pairs(sim *s, const job_run *j, guint32 n, guint32 *out) {
  const pool_state *p = n ? &s->pools[j->pool] : NULL;
  for (guint32 w = 0; w < n; w++) {
    const gpu_state *g = cluster_gpu(p, n == 1 ? j->placed_gpu : j->placed_gpus[w]);
    out[2 * w] = g->node;
    out[2 * w + 1] = g->local;
  }
}

static gboolean try_start(sim *s, pool_state *p, job_run *j) {
  if (!cluster_find_placement(p, j, s->scratch_gpus, s->scratch_slots)) return FALSE;
  sim_time now = sim_now(s);
  const job_spec *sp = j->spec;
  cluster_pool_integrate(p, now);
  cluster_queue_remove(p, j);
  p->n_running++;
  j->wait_ns += (double)(now - j->queued_since);
  if (j->returned) { /* a culled notebook's user back: the wait of the return */
    j->culls.return_wait_s += util_ns_to_seconds(now - j->queued_since);
    j->returned = FALSE;
  }
  guint32 n = sp->gpus;
  if (G_UNLIKELY(j->cq >= 0))
    j->quota_borrowed = (guint32)quota_add(s->quota, j->cq, s->quota_flavor[j->pool], n);
  for (guint32 w = 0; w < n; w++) gpu_begin(s, s->scratch_gpus[w]);
  /* an attempt starts from the trace values; phases apply again from its start */
  j->mem_bytes = sp->mem_bytes;
  j->mem_declared = sp->mem_bytes;
  j->busy = sp->busy;
  j->sm = sp->sm;
  j->rate_rps = sp->rate_rps;
  if (n == 1) {
    memset(&j->task1, 0, sizeof j->task1);
    j->tasks = &j->task1;
  } else {
    j->tasks = g_new0(task_run, n);
  }
  j->n_tasks = n;
  for (guint32 w = 0; w < n; w++) {
    task *t = &j->tasks[w].view;
    t->job = j;
    t->worker = w;
    t->mem_bytes = j->mem_bytes;
    cluster_attach(p, t, s->scratch_gpus[w], s->scratch_slots[w]);
  }
  if (G_UNLIKELY(p->autoscale)) autoscale_placed(s, p, s->scratch_gpus, n);
  j->state = JOB_RUNNING;
  j->active = FALSE;
  j->duty = 0;
  j->rate = 0;
  j->t_last = now;
  j->attempt_start = now;
  if (j->first_start < 0) j->first_start = now;
  if (j->wl->session && j->session_end < 0) {
    sim_time e = j->first_start + sp->duration_ns;
    j->session_end = e < j->first_start ? SIM_TIME_NEVER : e;
  }
  keep_placement(j);
  for (guint32 w = 0; w < n; w++) gpu_end(s, j->tasks[w].gpu);
  if (!j->rng) j->rng = rng_init(&j->rng_slot, s->sc->seed, sp->id, 0);
  if (j->wl->session)
    j->ev_end = engine_at(s->eng, j->session_end < now ? now : j->session_end, on_session_end, j, 0);
  j->wl->on_start(s, j);
  if (j->state != JOB_RUNNING) return TRUE;
  j->next_phase = sp->phase_first;
  schedule_phase(s, j);
  if (sp->checkpoint_ns > 0 && !j->wl->session)
    j->ev_ckpt = engine_at(s->eng, now + sp->checkpoint_ns, on_checkpoint, j, 0);
  schedule_random_crash(s, j);
  /* a strategy that lets memory oversubscribe may be over the limit already */
  for (guint32 w = 0; w < n && j->state == JOB_RUNNING; w++)
    if (check_oom(s, j->tasks[w].gpu, &j->tasks[w].view)) break;
  return TRUE;
}

/* ---- preemption (docs/models.md "Priorities and preemption") ---- */

/* The end of v's termination grace period: it is evicted (back to the queue). */
static void on_preempt_end(void *ctx, void *obj, uint64_t arg) {
  sim *s = ctx;
  job_run *v = job_event(s, obj);
  v->ev_preempt = 0;
  job_run *cause = preempt_cause(s, v); /* NULL once its row is out: the detail names it */
  char detail[200];
  static const char *const why[] = {"", " (Kueue: prioritization in the ClusterQueue)",
                                     " (Kueue: reclamation within the cohort)"};
  snprintf(detail, sizeof detail, "preempted by %s%s", v->preempt_cause_id, why[v->preempt_why]);
  job_kill(s, v, EVENT_PREEMPTION, cause, NULL, v->tasks[0].gpu, detail);
}

/* j preempts: its victims start terminating; each keeps its GPUs for the grace period.
 * why: PREEMPT_WHY_* (Kueue's: a victim of another ClusterQueue is reclaimed quota). */
static void preempt_start(sim *s, job_run *j, GPtrArray *victims, int why) {
  sim_time at = sim_now(s) + preempt_grace_ns(s->sc);
  const char *id = metrics_intern(s->m, j->spec->id);
  for (guint i = 0; i < victims->len; i++) {
    job_run *v = g_ptr_array_index(victims, i);
    v->terminating = TRUE;
    v->preempt_why = (guint8)(why == PREEMPT_WHY_PRIORITY ? why
                              : v->cq == j->cq ? PREEMPT_WHY_IN_QUEUE : PREEMPT_WHY_RECLAIM);
    if (v->preempt_why == PREEMPT_WHY_RECLAIM) {
      v->reclaimed++;
      j->reclaims_caused++;
    }
    v->preempt_cause_row = j->index;
    v->preempt_cause_id = id;
    v->preempted++; /* counted when chosen, as the preemptor's victims are */
    j->preempts_caused++;
    j->preempt_pending++;
    v->ev_preempt = engine_at(s->eng, at, on_preempt_end, v, 0);
  }
}

/* After a pass: each job still queued, in queue order, that may preempt and has no victims
 * terminating for it, and whose priority is above the lowest running one, tries to (as
 * kube-scheduler's PostFilter does for a pod that did not fit). */
static void preempt_pass(sim *s, pool_state *p) {
  if (!p->n_queued || !preempt_pool_supported(p)) return;
  int32_t lowest = preempt_lowest_running(p);
  guint n = p->queue_sizes->len;
  GSequenceIter **cur = g_newa(GSequenceIter *, n);
  for (guint c = 0; c < n; c++)
    cur[c] = g_sequence_get_begin_iter(p->queue_by_gpus[g_array_index(p->queue_sizes, guint32, c)]);
  GPtrArray *victims = g_ptr_array_new();
  for (;;) {
    int best = -1;
    job_run *bj = NULL;
    for (guint c = 0; c < n; c++) {
      if (g_sequence_iter_is_end(cur[c])) continue;
      job_run *q = g_sequence_get(cur[c]);
      if (!bj || cluster_queue_before(q, bj)) {
        bj = q;
        best = (int)c;
      }
    }
    if (best < 0 || bj->spec->priority <= lowest) break; /* none below it runs */
    cur[best] = g_sequence_iter_next(cur[best]);
    if (!bj->may_preempt || bj->preempt_pending || !quota_admits(s, bj)) continue;
    g_ptr_array_set_size(victims, 0);
    if (preempt_select(p, bj, victims)) preempt_start(s, bj, victims, PREEMPT_WHY_PRIORITY);
  }
  g_ptr_array_unref(victims);
}

/* The jobs a merge pass admits: all (without Kueue's ordering), or, as Kueue orders a
 * cycle's entries, first those within their ClusterQueue's nominal quota, then those that
 * borrow (docs/models.md "Quotas and gangs"). */
enum { ADMIT_ALL = 0, ADMIT_NOMINAL, ADMIT_BORROW };

/* In a pass: whether Kueue admits bj now. A StrictFIFO queue whose head (in queue order) was
 * refused admits none of its later jobs in the pass; BestEffortFIFO goes on with them. */
static gboolean quota_gate(sim *s, const job_run *bj, int mode) {
  if (s->quota_blocked[bj->cq] == s->quota_pass) return FALSE;
  if (quota_admits(s, bj) &&
      (mode != ADMIT_NOMINAL ||
       !quota_would_borrow(s->quota, bj->cq, s->quota_flavor[bj->pool], bj->spec->gpus)))
    return TRUE;
  if (g_array_index(s->sc->kueue->nodes, kueue_node, bj->cq).strategy == KUEUE_STRICT_FIFO)
    s->quota_blocked[bj->cq] = s->quota_pass;
  return FALSE;
}

/* A scheduling pass: places every queued job that fits, in queue order (priority, then
 * submission), as a k-way merge of the per-size queues. Sizes larger than the free slots
 * are skipped; with the strategy's prune_rank, jobs ranked at or above one of the same size
 * that did not fit are not tried, and a size is done when a job of rank 0 does not fit;
 * without it every queued job is tried (the placement index keeps a failing try cheap).
 * mode: ADMIT_*; ADMIT_BORROW leaves the jobs of no ClusterQueue (tried before). */
static void schedule_merge(sim *s, pool_state *p, int mode) {
  guint n = p->queue_sizes->len;
  guint32 *sizes = g_newa(guint32, n);
  GSequenceIter **cur = g_newa(GSequenceIter *, n);
  gboolean *live = g_newa(gboolean, n);
  guint32 (*prune)(const share_pool *, const share_job *) = p->ops->prune_rank;
  guint32 *fail_rank = g_newa(guint32, n); /* lowest prune_rank that did not fit, per size */
  for (guint c = 0; c < n; c++) {
    sizes[c] = g_array_index(p->queue_sizes, guint32, c);
    cur[c] = g_sequence_get_begin_iter(p->queue_by_gpus[sizes[c]]);
    live[c] = TRUE;
    fail_rank[c] = G_MAXUINT32;
  }
  for (;;) {
    int best = -1;
    job_run *bj = NULL;
    for (guint c = 0; c < n; c++) {
      if (!live[c] || sizes[c] > p->free_slots || g_sequence_iter_is_end(cur[c])) {
        live[c] = FALSE;
        continue;
      }
      job_run *j = g_sequence_get(cur[c]);
      if (!bj || cluster_queue_before(j, bj)) {
        bj = j;
        best = (int)c;
      }
    }
    if (best < 0) break;
    GSequenceIter *next = g_sequence_iter_next(cur[best]);
    if (G_UNLIKELY(bj->cq >= 0) ? !quota_gate(s, bj, mode) : mode == ADMIT_BORROW) {
      cur[best] = next; /* not admitted: not tried */
      continue;
    }
    guint32 rank = prune ? prune(&p->share_view, &bj->share_view) : 0;
    if ((!prune || rank < fail_rank[best]) && try_start(s, p, bj)) {
      cur[best] = next;
      continue;
    }
    if (p->ops->on_unplaced) p->ops->on_unplaced(s, &p->share_view, &bj->share_view);
    if (prune && rank == 0) {
      live[best] = FALSE;
    } else {
      if (prune && rank < fail_rank[best]) fail_rank[best] = rank;
      cur[best] = next;
    }
  }
}

static gint queue_cmp(gconstpointer a, gconstpointer b) {
  const job_run *x = *(job_run *const *)a, *y = *(job_run *const *)b;
  return cluster_queue_before(x, y) ? -1 : cluster_queue_before(y, x) ? 1 : 0;
}

/* p's queued jobs of a ClusterQueue, in queue order, into out. */
static void quota_queued(const pool_state *p, GPtrArray *out) {
  for (guint c = 0; c < p->queue_sizes->len; c++) {
    GSequence *q = p->queue_by_gpus[g_array_index(p->queue_sizes, guint32, c)];
    for (GSequenceIter *it = g_sequence_get_begin_iter(q); !g_sequence_iter_is_end(it);
         it = g_sequence_iter_next(it)) {
      job_run *j = g_sequence_get(it);
      if (j->cq >= 0) g_ptr_array_add(out, j);
    }
  }
  g_ptr_array_sort(out, queue_cmp);
}

/* Kueue's fair sharing (fairSharing.enable): the jobs that borrow are admitted one at a
 * time, the one whose ClusterQueue's dominant resource share with it is lowest first
 * (quota_share), then in queue order; a StrictFIFO queue offers only its first job. */
static void schedule_fair(sim *s, pool_state *p) {
  GPtrArray *q = g_ptr_array_new();
  quota_queued(p, q);
  int f = s->quota_flavor[p->index];
  for (;;) {
    int best = -1;
    int64_t best_share = 0;
    s->quota_pass++; /* marks the queues whose first job was offered */
    for (guint i = 0; i < q->len; i++) {
      job_run *j = g_ptr_array_index(q, i);
      if (!j || s->quota_blocked[j->cq] == s->quota_pass) continue;
      if (g_array_index(s->sc->kueue->nodes, kueue_node, j->cq).strategy == KUEUE_STRICT_FIFO)
        s->quota_blocked[j->cq] = s->quota_pass;
      if (j->spec->gpus > p->free_slots || !quota_admits(s, j)) continue;
      int64_t share = quota_share(s->quota, j->cq, f, j->spec->gpus);
      if (best < 0 || share < best_share) {
        best = (int)i;
        best_share = share;
      }
    }
    if (best < 0) break;
    job_run *j = g_ptr_array_index(q, best);
    g_ptr_array_index(q, best) = NULL;
    if (!try_start(s, p, j) && p->ops->on_unplaced)
      p->ops->on_unplaced(s, &p->share_view, &j->share_view);
  }
  g_ptr_array_unref(q);
}

/* A queued job's class for quota_victims (quota_victims_by_class): a pass that found no
 * victims for one job of a class finds none for the others until something is preempted. */
typedef struct quota_miss {
  int cq;
  int32_t priority;
  int64_t gpus;
} quota_miss;

static gboolean quota_missed(const GArray *miss, const job_run *j) {
  for (guint i = 0; i < miss->len; i++) {
    const quota_miss *m = &g_array_index(miss, quota_miss, i);
    if (m->cq == j->cq && m->priority == j->spec->priority && m->gpus == j->spec->gpus) return TRUE;
  }
  return FALSE;
}

/* Kueue's preemption (docs/models.md "Quotas and gangs", reclaiming lent quota): in queue
 * order, each job of a ClusterQueue with spec.preemption that its quota refuses evicts what
 * quota_victims chooses; a queue's first such job that preempts or has victims terminating
 * for it is its last in the pass (Kueue's head), as is a StrictFIFO queue's first. The pool's
 * running jobs are listed once per pass (again after a preemption) and a job whose class
 * found no victims is not searched again (the same answer, without a scan per queued job:
 * bench/README.md, "Quotas and priorities"). */
static void quota_preempt_pass(sim *s, pool_state *p) {
  int f = s->quota_flavor[p->index];
  if (!s->sc->kueue->preempts || f < 0 || !p->n_queued) return;
  GPtrArray *q = g_ptr_array_new(), *victims = g_ptr_array_new();
  quota_running_set *running = quota_running_new(s->quota);
  GArray *miss = g_array_new(FALSE, FALSE, sizeof(quota_miss));
  gboolean listed = FALSE;
  quota_queued(p, q);
  s->quota_pass++; /* marks the queues whose first refused job was seen */
  for (guint i = 0; i < q->len; i++) {
    job_run *j = g_ptr_array_index(q, i);
    const kueue_node *n = &g_array_index(s->sc->kueue->nodes, kueue_node, j->cq);
    if (s->quota_blocked[j->cq] == s->quota_pass || quota_admits(s, j) ||
        (n->within == KUEUE_PREEMPT_NEVER && n->reclaim == KUEUE_PREEMPT_NEVER))
      continue;
    g_ptr_array_set_size(victims, 0);
    gboolean ref = (s->reference & SIM_REF_QUOTA) != 0;
    gboolean by_class = !ref && quota_victims_by_class(s->quota, j);
    if (!j->preempt_pending && !(by_class && quota_missed(miss, j))) {
      if (!listed || ref) quota_running(s->quota, p, running), listed = TRUE;
      if (quota_victims(s->quota, running, f, j, s->sc->kueue_fair_sharing, !ref, victims)) {
        preempt_start(s, j, victims, PREEMPT_WHY_IN_QUEUE);
        g_array_set_size(miss, 0); /* what is terminating now counts as gone */
        listed = FALSE;
      } else if (by_class) {
        quota_miss m = {j->cq, j->spec->priority, j->spec->gpus};
        g_array_append_val(miss, m);
      }
    }
    if (j->preempt_pending || n->strategy == KUEUE_STRICT_FIFO)
      s->quota_blocked[j->cq] = s->quota_pass; /* BestEffortFIFO: the next one may try */
  }
  g_ptr_array_unref(q);
  g_ptr_array_unref(victims);
  quota_running_free(running);
  g_array_unref(miss);
}

/* Kueue's order of a pass (s->kueue_order): jobs within their nominal quota, then those
 * that borrow (by fair share when on), then preemption. */
static void quota_admit_pass(sim *s, pool_state *p) {
  schedule_merge(s, p, ADMIT_NOMINAL);
  s->quota_pass++;
  if (s->sc->kueue_fair_sharing) schedule_fair(s, p);
  else schedule_merge(s, p, ADMIT_BORROW);
  quota_preempt_pass(s, p);
}

static void on_schedule(void *ctx, void *obj, uint64_t arg) {
  sim *s = ctx;
  pool_state *p = obj;
  p->schedule_pending = FALSE;
  s->quota_pass++;
  if (!p->queue_sizes->len) return;
  if (G_LIKELY(!s->kueue_order)) schedule_merge(s, p, ADMIT_ALL);
  else quota_admit_pass(s, p);
  if (G_UNLIKELY(s->preempt_on)) preempt_pass(s, p);
  if (G_UNLIKELY(p->autoscale) && p->n_queued) autoscale_after_pass(s, p);
}

static void request_schedule(sim *s, pool_state *p) {
  if (p->schedule_pending || !p->n_queued) return;
  p->schedule_pending = TRUE;
  engine_at(s->eng, sim_now(s), on_schedule, p, 0);
}

/* ---- for strategies ---- */

void sim_request_schedule(sim *s, pool_state *p) { request_schedule(s, p); }

event_id sim_at(sim *s, sim_time at, engine_handler handler, void *obj, uint64_t arg) {
  return engine_at(s->eng, at < sim_now(s) ? sim_now(s) : at, handler, obj, arg);
}

gboolean sim_try_start(sim *s, pool_state *p, job_run *j) {
  if (G_UNLIKELY(j->cq >= 0) && !quota_admits(s, j)) return FALSE;
  g_return_val_if_fail(j->state == JOB_QUEUED && j->pool == (int)p->index, FALSE);
  return try_start(s, p, j);
}

void sim_evict_gpu(sim *s, gpu_state *g, const job_run *source, const char *detail) {
  for (guint i = 0; i < g->n_residents; i++)
    g_ptr_array_add(s->scratch_victims, g->residents[i]);
  kill_victims(s, EVENT_EVICTION, NULL, NULL, source, g, detail);
}

/* Node n of p is interrupted (a spot node, autoscale.c): each resident evicted as an
 * eviction's victim, its work back to its last checkpoint, counted as the interruption's. */
static void sim_evict_node(sim *s, pool_state *p, guint32 n, const char *detail) {
  for (guint32 l = 0; l < p->node_gpus[n]; l++) {
    gpu_state *g = cluster_gpu(p, p->node_first[n] + l);
    while (g->n_residents) {
      job_run *v = ((task *)g->residents[0])->job;
      double lost0 = v->work_lost_ns;
      blast_count(s, EVENT_EVICTION, METRICS_NO_TENANT, v->tenant,
                  job_kill(s, v, EVENT_EVICTION, NULL, NULL, g, detail));
      v->spot_evictions++;
      v->spot_lost_gpu_ns += (v->work_lost_ns - lost0) * v->spec->gpus;
    }
  }
}

static void sim_cancel(sim *s, event_id id) { engine_cancel(s->eng, id); }

static gboolean sim_job_admitted(const sim *s, const job_run *j) {
  return G_LIKELY(j->cq < 0) || quota_admits(s, j);
}

/* ---- arrivals ---- */

static void on_arrival(void *ctx, void *obj, uint64_t arg);

/* The state of trace row i, created when its arrival is scheduled (or at the end of the
 * run for a row never submitted): it lives while the job does and until its row is out. */
static job_run *job_new(sim *s, guint32 i) {
  job_spec row = trace_job(s->tr, i);
  gsize id_len = strlen(row.id) + 1; /* the id is copied: a spilled trace's is not kept */
  /* the record, its spec and the id in one allocation */
  job_run *j = g_malloc0(sizeof *j + id_len);
  j->spec_own = row;
  memcpy(j + 1, row.id, id_len);
  j->spec_own.id = (const char *)(j + 1);
  j->spec = &j->spec_own;
  j->wl = workload_of(j->spec);
  j->index = i;
  j->pool = scenario_route(s->sc, j->spec);
  j->tenant = metrics_tenant(s->m, j->spec->tenant);
  j->cq = G_UNLIKELY(s->quota) ? kueue_tenant_cq(s->sc->kueue, j->spec->tenant) : -1;
  if (G_UNLIKELY(s->sc->priority)) { /* its class: the queue orders by the class's value */
    preemption_policy pol;
    priority_resolve(s->sc->priority, j->spec, &j->spec_own.priority, &pol);
    j->may_preempt = pol == PREEMPT_LOWER_PRIORITY;
  }
  j->first_start = j->session_end = -1;
  j->outcome = OUTCOME_NOT_SUBMITTED;
  if (++s->live_jobs > s->live_peak) s->live_peak = s->live_jobs;
  return j;
}

/* Frees everything j holds (a run stopped early never finalised its workloads: the first
 * on_done finalises, the second frees). */
static void job_free(sim *s, job_run *j) {
  const workload_ops *wl = j->wl;
  if (j->workload_data && wl->on_done) wl->on_done(s, j);
  if (j->workload_data && wl->on_done) wl->on_done(s, j);
  g_clear_pointer(&j->chain, bursts_free);
  job_tasks_free(j);
  g_free(j->placed_gpus);
  if (j->rng_faults) gsl_rng_free(j->rng_faults);
  g_free(j);
  s->live_jobs--;
}

static void schedule_next_arrival(sim *s) {
  if (s->next_arrival >= s->n_jobs) return;
  guint32 idx = s->arrival_order ? s->arrival_order[s->next_arrival] : s->next_arrival;
  s->next_arrival++;
  jobs_reserve(s, idx);
  job_run *j = *job_slot(s, idx) = job_new(s, idx);
  engine_at(s->eng, j->spec->submit_ns, on_arrival, j, 0);
}

static void on_arrival(void *ctx, void *obj, uint64_t arg) {
  sim *s = ctx;
  job_run *j = obj;
  schedule_next_arrival(s);
  j->submit = sim_now(s);
  if (j->pool < 0) {
    j->reason = "no routing rule matches";
    log_event(s, EVENT_UNPLACEABLE, j, NULL, NULL, FALSE, 0, j->reason);
    job_done(s, j, OUTCOME_UNPLACEABLE);
    return;
  }
  pool_state *p = &s->pools[j->pool];
  char *why = NULL;
  if (!p->ops->can_ever_fit(p->spec, j->spec, &why) ||
      !cluster_host_can_ever_fit(p->spec, j->spec, &why)) {
    j->reason = results_intern(s->res, why ? why : "cannot fit");
    g_free(why);
    log_event(s, EVENT_UNPLACEABLE, j, NULL, NULL, FALSE, 0, j->reason);
    job_done(s, j, OUTCOME_UNPLACEABLE);
    return;
  }
  cluster_pool_integrate(p, sim_now(s));
  j->state = JOB_QUEUED;
  j->queued_since = sim_now(s);
  cluster_queue_push(p, j);
  request_schedule(s, p);
}

static int arrival_cmp(const void *a, const void *b, void *ud) {
  const sim *s = ud;
  guint32 x = *(const guint32 *)a, y = *(const guint32 *)b;
  sim_time tx = trace_job_submit(s->tr, x), ty = trace_job_submit(s->tr, y);
  if (tx != ty) return tx < ty ? -1 : 1;
  return x < y ? -1 : (x > y);
}

/* The order of arrivals, (submit, row); NULL when it is the rows' own (a trace sorted by
 * submit time, as generated and imported traces are: the rows know it as they are read). */
static guint32 *arrival_order(sim *s) {
  if (trace_sorted(s->tr)) return NULL;
  guint32 *order = g_new(guint32, s->n_jobs);
  for (guint i = 0; i < s->n_jobs; i++) order[i] = i;
  g_qsort_with_data(order, (gint)s->n_jobs, sizeof(guint32), arrival_cmp, s);
  return order;
}

/* Each pool's target workload (fgd, fragmentation: the jobs routed to it), and the tenants,
 * registered in trace order (their index order); both again when a row's state is created.
 * From the pass the checks made (sim_options.prerun, for this scenario and trace), else
 * one pass over the rows. */
static void set_pool_targets(sim *s, const prerun *pre, guint64 seed) {
  if (pre && pre->sc == s->sc && pre->tr == s->tr) {
    for (guint k = 0; k < pre->tenants->len; k++)
      metrics_tenant(s->m, g_ptr_array_index(pre->tenants, k));
    for (guint i = 0; i < s->n_pools; i++)
      if (pre->targets[i]) cluster_pool_target_add_tally(&s->pools[i], pre->targets[i]);
  } else {
    for (guint i = 0; i < s->n_jobs; i++) {
      job_spec sp = trace_job(s->tr, i);
      int pi = scenario_route(s->sc, &sp);
      metrics_tenant(s->m, sp.tenant);
      if (pi >= 0) cluster_pool_target_add(&s->pools[pi], &sp);
    }
  }
  for (guint i = 0; i < s->n_pools; i++) cluster_pool_set_target(&s->pools[i], seed);
}

/* ---- progress bar ---- */

static void progress_tick(sim *s, sim_time horizon, gboolean last) {
  gint64 now_us = g_get_monotonic_time();
  if (!last && now_us < s->progress_next_us) return;
  s->progress_next_us = now_us + 200000;
  double frac = s->n_jobs ? (double)s->jobs_done / s->n_jobs : 1.0;
  if (horizon > 0) frac = util_ns_to_seconds(sim_now(s)) / util_ns_to_seconds(horizon);
  if (frac > 1) frac = 1;
  int width = 30, fill = (int)(frac * width);
  fprintf(stderr, "\r[%.*s%*s] %5.1f%%  t=%.2fd  %" G_GUINT64_FORMAT "/%u jobs done", fill,
          "##############################", width - fill, "", frac * 100,
          util_ns_to_seconds(sim_now(s)) / 86400, s->jobs_done, s->n_jobs);
  if (last) fputc('\n', stderr);
  fflush(stderr);
}

/* ---- freezing results ---- */

/* The job's jobs.csv row; reason is borrowed (the job), gpu_ids is left to the row writer
 * (placement_pairs). */
static void job_row(sim *s, const job_run *j, job_result *out) {
  const job_spec *sp = j->spec;
  gboolean session = j->wl->session;
  gboolean gang = sp->gpus > 1 && !session;
  *out = (job_result){
      .id = sp->id,
      .kind = job_kind_name(sp->kind),
      .tenant = sp->tenant,
      .pool = j->pool >= 0 ? scenario_pool(s->sc, (guint)j->pool)->name : "",
      .reason = j->reason ? j->reason : "",
      .gpus = sp->gpus,
      .priority = sp->priority,
      .pool_index = j->pool,
      .outcome = j->outcome,
      .submit_s = util_ns_to_seconds(sp->submit_ns),
      .start_s = j->first_start >= 0 ? util_ns_to_seconds(j->first_start) : NAN,
      .end_s = j->state == JOB_DONE && j->outcome != OUTCOME_NOT_SUBMITTED
                   ? util_ns_to_seconds(j->end) : NAN,
      .wait_s = j->wait_ns / 1e9,
      .run_s = j->run_ns / 1e9,
      .work_s = session ? NAN : util_ns_to_seconds(sp->duration_ns),
      .work_done_s = session ? NAN : j->kept_ns / 1e9,
      .work_lost_s = session ? NAN : j->work_lost_ns / 1e9,
      .slowdown = NAN,
      .burst_stretch = j->bursts ? j->burst_stretch_sum / j->bursts : NAN,
      .busy_s = sp->gpus ? j->busy_ns / 1e9 / sp->gpus : 0,
      .gpu_s_allocated = j->charge_gpu_ns / 1e9,
      .gpu_s_share = j->alloc_gpu_ns / 1e9,
      .restarts = j->restarts,
      .kills = j->kills,
      .oom_kills = j->oom_kills,
      .crashes = j->crashes,
      .straggler_delay_s = gang ? j->straggler_delay_ns / 1e9 : NAN,
      .straggler_wait_gpu_s = gang ? j->straggler_wait_gpu_ns / 1e9 : NAN,
      .backoff_s = j->backoff_wait_ns / 1e9,
      .preempted = j->preempted,
      .preempts_caused = j->preempts_caused,
      .reclaimed = j->reclaimed,
      .reclaims_caused = j->reclaims_caused,
      .preempt_lost_gpu_s = j->preempt_lost_gpu_ns / 1e9,
      .spot_evictions = j->spot_evictions,
      .spot_lost_gpu_s = j->spot_lost_gpu_ns / 1e9,
      .quota_gpu_s = j->quota_gpu_ns / 1e9,
      .borrowed_gpu_s = j->borrowed_gpu_ns / 1e9,
      .culls = j->culls,
      .oversub_gpu_s = j->oversub_ns / 1e9,
      .oversub_slowdown = j->oversub_ns > 0 ? j->oversub_slow_ns / j->oversub_ns : NAN,
  };
  if (j->outcome == OUTCOME_UNPLACEABLE || j->outcome == OUTCOME_NOT_SUBMITTED) out->wait_s = NAN;
  if (!session && j->outcome == OUTCOME_COMPLETED) {
    double executed = j->kept_ns + j->work_lost_ns;
    if (executed > 0) out->slowdown = j->run_ns / executed;
  }
}

/* Row i is out: its state leaves memory, unless its pool's strategy may still point at it
 * (share_ops.holds_jobs: then only what the workload holds goes, the rest at the end). */
static void job_retire(sim *s, guint32 i) {
  job_run *j = *job_slot(s, i);
  *job_slot(s, i) = SLOT_OUT;
  if (j->pool >= 0 && s->pools[j->pool].ops->holds_jobs) {
    const workload_ops *wl = j->wl;
    if (j->state == JOB_DONE && j->workload_data && wl->on_done) wl->on_done(s, j);
    g_ptr_array_add(s->retained, j);
    return;
  }
  job_free(s, j);
}

/* Row i's job is final (it ended, or the run did): its row, what the trace order adds to
 * the pools and tenants and the workload's own rows (services, taken now: the rows of a
 * done job do not change) go to the row writer as one record, and its state goes. */
static void job_out(sim *s, guint32 i) {
  job_run *j = *job_slot(s, i);
  rowwriter_row row = {.row = i, .tenant = j->tenant, .run_ns = j->run_ns,
                       .straggler_wait_gpu_ns = j->straggler_wait_gpu_ns};
  job_row(s, j, &row.jr);
  GArray *services = NULL;
  if (j->wl->report) { /* its rows come through sim_service */
    services = s->svc_rows;
    j->wl->report(s, j);
  }
  guint32 n = placement_count(j);
  guint32 *gpus = rowwriter_put(s->rw, &row, j->spec->id, row.jr.reason, n, services);
  placement_pairs(s, j, n, gpus);
  job_retire(s, i);
}

/* The rows of the jobs that ended in the last event go out, and the window moves past the
 * rows that are out. */
static inline void emit_ready(sim *s) {
  if (!s->just_done->len) return;
  for (guint k = 0; k < s->just_done->len; k++) {
    guint32 i = g_array_index(s->just_done, guint32, k);
    job_run *j = i >= s->next_emit ? *job_slot(s, i) : NULL;
    if (j && j != SLOT_OUT && j->state == JOB_DONE) job_out(s, i);
  }
  g_array_set_size(s->just_done, 0);
  while (s->next_emit < s->jobs_hi && *job_slot(s, s->next_emit) == SLOT_OUT)
    *job_slot(s, s->next_emit++) = NULL;
}

/* The pools' rows as far as the simulator knows them (names, counters); the metrics layer
 * adds gauges, cost, licences and the rows' sums (job counts, straggler time). Returns an owned array of n_pools. */
static pool_result *pool_rows(sim *s) {
  pool_result *rows = g_new0(pool_result, s->n_pools ? s->n_pools : 1);
  for (guint pi = 0; pi < s->n_pools; pi++) {
    const pool_state *p = &s->pools[pi];
    const pool_spec *ps = p->spec;
    g_autofree char *settings = scenario_pool_describe(ps);
    rows[pi] = (pool_result){
        .settings = results_intern(s->res, settings),
        .name = ps->name,
        .gpu_model = ps->gpu->name,
        .strategy = share_strategy_name(ps->strategy),
        .gpus = p->n_gpus,
        .price_per_gpu_hour = ps->price_per_gpu_hour *
                              (autoscale_spot_of(ps) ? autoscale_spot_of(ps)->price_factor : 1),
        .oom_kills = p->oom_kills,
        .innocent_victims = p->innocent_victims,
        .fault_victims = p->fault_victims,
        .crashes = p->crashes,
        .restarts = p->restarts,
        .evictions = p->evictions,
        .reconfigurations = p->reconfigurations,
        .work_lost_gpu_s = p->work_lost_gpu_ns / 1e9,
    };
    if (p->autoscale) {
      autoscale_close(&s->pools[pi], sim_now(s), &rows[pi]);
    } else if (s->autoscale_on) { /* a fixed pool beside autoscaled ones */
      rows[pi].node_s = (double)p->n_nodes * util_ns_to_seconds(sim_now(s));
      rows[pi].nodes_min = rows[pi].nodes_max = rows[pi].nodes_peak = p->n_nodes;
    }
  }
  return rows;
}

/* Freezes the run into s->res: jobs (and the workloads' own rows) here, the rest by the
 * metrics layer once the row writer is done. FALSE with error when the writer failed. */
static gboolean fill_results(sim *s, sim_time end, GError **error) {
  results *r = s->res;
  r->end_s = util_ns_to_seconds(end);
  r->interval_s = util_ns_to_seconds(metrics_interval_ns(s->m));
  r->heap_events = engine_events_run(s->eng);
  r->events = r->heap_events + s->walked_toggles;
  for (; s->next_emit < s->n_jobs; s->next_emit++) {
    guint32 i = s->next_emit;
    jobs_reserve(s, i);
    job_run **slot = job_slot(s, i);
    if (!*slot) *slot = job_new(s, i); /* never submitted */
    if (*slot != SLOT_OUT) job_out(s, i);
    *slot = NULL;
  }
  g_array_set_size(s->just_done, 0);
  if (!rowwriter_finish(s->rw, error)) return FALSE;
  r->jobs_live_peak = s->live_peak;
  g_autofree pool_result *pools = pool_rows(s);
  metrics_freeze(s->m, end, pools);
  results_fill_pool_waits(r);
  return TRUE;
}

/* ---- the run ---- */

static void sim_free(sim *s) {
  rowwriter_free(s->rw);
  for (guint i = s->next_emit; s->jobs && i < s->jobs_hi; i++)
    if (*job_slot(s, i) && *job_slot(s, i) != SLOT_OUT) job_free(s, *job_slot(s, i));
  if (s->retained) {
    for (guint k = 0; k < s->retained->len; k++) job_free(s, g_ptr_array_index(s->retained, k));
    g_ptr_array_unref(s->retained);
  }
  if (s->just_done) g_array_unref(s->just_done);
  for (guint k = 0; s->svc_rows && k < s->svc_rows->len; k++)
    results_service_clear(&g_array_index(s->svc_rows, service_result, k));
  if (s->svc_rows) g_array_unref(s->svc_rows);
  for (guint i = 0; i < s->n_pools; i++) {
    autoscale_pool_free(&s->pools[i]);
    cluster_pool_clear(&s->pools[i]);
  }
  g_free(s->pools);
  g_free(s->jobs);
  g_free(s->arrival_order);
  g_free(s->scratch_gpus);
  quota_free(s->quota);
  g_free(s->quota_flavor);
  g_free(s->quota_blocked);
  g_free(s->scratch_slots);
  if (s->scratch_victims) g_ptr_array_unref(s->scratch_victims);
  if (s->scratch_resched) g_array_unref(s->scratch_resched);
  warm_free(s->warm);
  engine_free(s->eng);
  interference_free(s->interference);
  metrics_free(s->m);
  if (s->res) results_free(s->res);
  g_free(s);
}

/* The engine's prefetch (engine_set_prefetch): for the next event on a running job with
 * one worker, the lines its handler reaches through the job's record, whose own lines the
 * engine fetched a step before: the trace row's burst and duty figures, and the GPU record
 * with its gauges (share.h). Reads nothing the record does not hold itself. */
static void sim_prefetch(const void *obj, engine_handler h) {
  if (h != on_timer && h != on_work_done && h != on_checkpoint) return;
  const job_run *j = obj;
  if (j->spec) {
    __builtin_prefetch(&j->spec->burst_ns);
    __builtin_prefetch(&j->spec->gpu_util);
  }
  if (j->tasks == &j->task1 && j->task1.gpu) {
    __builtin_prefetch(j->task1.gpu);
    __builtin_prefetch((const char *)j->task1.gpu + 64);
  }
}

/* The row writer of the run: with a job sink streamed rows of finished jobs that wait for
 * an earlier one go to a spill file (kept rows stay in memory anyway), and big runs write
 * on a thread of their own (sim_options.writer_thread). */
static rowwriter *sim_rowwriter(sim *s, const sim_options *opt) {
  rowwriter_config c = {.res = s->res, .m = s->m, .n_rows = s->n_jobs};
  if (opt) {
    c.job_sink = opt->job_sink;
    c.job_sink_data = opt->job_sink_data;
    c.services_sink = opt->services_sink;
    c.services_sink_data = opt->services_sink_data;
    c.spill = opt->job_sink != NULL;
    c.spill_dir = opt->spill_dir;
    c.hold_bytes = opt->test.row_hold_bytes;
    c.spill_fail_read = opt->test.spill_fail_read;
    c.thread = opt->writer_thread > 0 ||
               (opt->writer_thread == 0 && s->n_jobs >= SIM_WRITER_THREAD_JOBS);
  }
  return rowwriter_new(&c);
}

/* What the plug-in bridges forward to (host.h): share.c and workload.c are below this
 * room, so they reach these functions through s->calls, never by name. */
static const sim_calls sim_bridge_calls = {
    .at = sim_at,
    .request_schedule = sim_request_schedule,
    .try_start = sim_try_start,
    .evict_gpu = sim_evict_gpu,
    .log_event = sim_log_event,
    .job_expected_end = sim_job_expected_end,
    .cancel = sim_cancel,
    .job_admitted = sim_job_admitted,
    .evict_node = sim_evict_node,
    .job_set_demand = sim_job_set_demand,
    .job_refresh = sim_job_refresh,
    .job_mem_room = sim_job_mem_room,
    .job_mem_visible = sim_job_mem_visible,
    .job_set_mem = sim_job_set_mem,
    .job_partition = sim_job_partition,
    .job_set_timer = sim_job_set_timer,
    .job_walk_bursts = sim_job_walk_bursts,
    .job_cull = sim_job_cull,
    .job_finish = sim_job_finish,
    .service = sim_service,
    .reference = sim_reference,
};

/* The pools (and their metrics), the jobs in arrival order, the scratch space. */
static void sim_build(sim *s, const sim_options *opt) {
  const scenario *sc = s->sc;
  s->calls = &sim_bridge_calls;
  s->m = metrics_new(sc, s->res, opt && opt->gpu_series);
  if (opt && opt->ts_sink) metrics_set_ts_sink(s->m, opt->ts_sink, opt->ts_sink_data);
  s->n_pools = sc->pools->len;
  s->pools = g_new0(pool_state, s->n_pools);
  guint32 max_gpus = 1;
  for (guint i = 0; i < s->n_pools; i++) {
    pool_state *p = &s->pools[i];
    const pool_spec *spec = scenario_pool(sc, i);
    cluster_pool_init(p, i, spec, share_for(spec->strategy), &s->params, s->m);
    if (p->ops->licence_per_worker_hour)
      metrics_pool_set_licence(s->m, i, p->ops->licence_per_worker_hour(p->spec));
    if (pool_device_mem(p) > spec->gpu->mem_bytes) { /* unified memory beyond the card */
      metrics_pool_set_oversub(p->m, spec->gpu->mem_bytes, pool_device_mem(p));
      s->res->oversub = TRUE;
    }
    max_gpus = MAX(max_gpus, p->n_gpus * p->slots_per_gpu);
    if (G_UNLIKELY(autoscale_conf_of(spec))) {
      autoscale_pool_init(s, p);
      s->autoscale_on = s->res->autoscale = TRUE;
      if (autoscale_spot_of(spec)) {
        metrics_pool_set_price_factor(s->m, i, autoscale_spot_of(spec)->price_factor);
        s->res->spot = TRUE;
      }
    }
  }
  s->n_jobs = trace_n_jobs(s->tr);
  s->jobs = g_new0(job_run *, 1024);
  s->jobs_mask = 1023;
  s->retained = g_ptr_array_new();
  s->arrival_order = arrival_order(s);
  set_pool_targets(s, opt ? opt->prerun : NULL, sc->seed);
  s->scratch_gpus = g_new0(gpu_state *, max_gpus + 1);
  s->scratch_slots = g_new0(guint32, max_gpus + 1);
  s->scratch_victims = g_ptr_array_new();
  s->scratch_resched = g_array_new(FALSE, FALSE, sizeof(resched));
  s->just_done = g_array_new(FALSE, FALSE, sizeof(guint32));
  s->svc_rows = g_array_new(FALSE, TRUE, sizeof(service_result)); /* no clear function */
  s->rw = sim_rowwriter(s, opt);
  s->preempt_on = sc->priority && sc->priority->preempts;
  if (G_UNLIKELY(sc->kueue)) {
    s->quota = quota_new(sc->kueue);
    s->quota_flavor = g_new(int, MAX(s->n_pools, 1u));
    for (guint i = 0; i < s->n_pools; i++) s->quota_flavor[i] = kueue_pool_flavor(sc->kueue, (int)i);
    s->quota_blocked = g_new0(guint32, MAX(sc->kueue->nodes->len, 1u));
    s->kueue_order = sc->kueue->preempts || sc->kueue_fair_sharing;
  }
}

/* Every 65,536 events: the progress bar, and FALSE when the caller asked the run to stop
 * (sim_options.stop). */
static inline gboolean sim_checkpoint(sim *s, sim_time horizon) {
  if ((engine_events_run(s->eng) & 0xffff) != 0) return TRUE;
  if (s->progress) progress_tick(s, horizon, FALSE);
  return !(s->stop && g_atomic_int_get(s->stop)) && !rowwriter_failed(s->rw);
}

/* Giving up early (sim_options.give_up_*): the jobs whose wait limit has passed, in submit
 * order, each counted late when it had not started by then (still queued, or started
 * later: the pass comes at the first event after the limit, so a late start is seen); one
 * whose row is already out ended before it, on time (or never fitted: a failure of its
 * own). Amortised O(1) an event. */
static void give_up_check(sim *s) {
  sim_time now = sim_now(s);
  while (s->overdue_next < s->next_arrival) {
    guint32 idx = s->arrival_order ? s->arrival_order[s->overdue_next] : s->overdue_next;
    const job_run *j = idx >= s->next_emit ? *job_slot(s, idx) : NULL; /* NULL: its row out */
    if (j == SLOT_OUT) j = NULL;
    if (j && j->spec->submit_ns + s->give_up_wait_ns >= now) break;
    s->overdue_next++;
    if (j && (j->first_start < 0 || j->first_start - j->spec->submit_ns > s->give_up_wait_ns))
      s->late++;
  }
  if (s->late >= s->give_up_late) s->gave_up = TRUE;
}

/* Runs the events up to the horizon (or the last one); returns the end of the run. FALSE in
 * *stopped when it ran to the end, TRUE when sim_options.stop cut it short. */
static sim_time sim_loop(sim *s, gboolean *stopped) {
  schedule_next_arrival(s);
  sim_time horizon = s->sc->horizon_ns;
  *stopped = FALSE;
  if (horizon > 0) {
    while (!*stopped && !s->gave_up && engine_next_time(s->eng) <= horizon &&
           engine_step(s->eng)) {
      emit_ready(s);
      if (G_UNLIKELY(s->give_up_late)) give_up_check(s);
      *stopped = !sim_checkpoint(s, horizon);
    }
    if (!*stopped && !s->gave_up) engine_run_until(s->eng, horizon);
  } else {
    while (!*stopped && !s->gave_up && engine_step(s->eng)) {
      emit_ready(s);
      if (G_UNLIKELY(s->give_up_late)) give_up_check(s);
      *stopped = !sim_checkpoint(s, 0);
    }
  }
  if (s->progress) progress_tick(s, horizon, TRUE);
  if (s->gave_up) { /* as at a horizon: close_books cuts what runs and waits here */
    s->res->stopped_at_s = util_ns_to_seconds(sim_now(s));
    s->res->stopped_late = s->late;
    s->res->stopped_wait_s = util_ns_to_seconds(s->give_up_wait_ns);
  }
  return sim_now(s);
}

/* Closes the books at `end`: running and queued jobs, then the pools' integrals. */
static void close_books(sim *s, sim_time end) {
  s->closing = TRUE;
  for (guint i = s->next_emit; i < s->jobs_hi; i++) {
    job_run *j = *job_slot(s, i);
    if (!j || j == SLOT_OUT) continue;
    if (j->state == JOB_RUNNING) {
      job_touch(s, j);
      job_advance(s, j);
      for (guint32 w = 0; w < j->n_tasks; w++)
        if (j->tasks[w].gpu) cluster_task_charge(&j->tasks[w].view, end);
      j->run_ns += (double)(end - j->attempt_start);
      if (G_UNLIKELY(j->cq >= 0)) quota_release(s, j, end); /* its quota GPU-time too */
      /* report the progress made so far (kept or not) for jobs cut off by the horizon */
      if (!j->wl->session && work_done_in_attempt(j) > j->kept_ns)
        j->kept_ns = work_done_in_attempt(j);
      j->outcome = OUTCOME_RUNNING;
    } else if (j->state == JOB_QUEUED) {
      j->wait_ns += (double)(end - j->queued_since);
      if (j->returned) j->culls.return_wait_s += util_ns_to_seconds(end - j->queued_since);
      j->outcome = OUTCOME_QUEUED;
    } else if (j->state == JOB_BACKOFF) { /* waiting to queue again */
      j->backoff_wait_ns += (double)(end - j->backoff_since);
      j->outcome = OUTCOME_QUEUED;
    } else if (j->state == JOB_CULLED) { /* its session goes on, its user away */
      j->outcome = OUTCOME_RUNNING;
    }
  }
  for (guint i = 0; i < s->n_pools; i++) cluster_pool_close(&s->pools[i], end);
}

results *sim_run(const scenario *sc, const trace *tr, const sim_options *opt, GError **error) {
  g_autoptr(diag_list) diags = diag_list_new(0);
  sim_check_scenario(sc, diags);
  if (!diag_to_error(diags, error)) return NULL;

  sim *s = g_new0(sim, 1);
  s->sc = sc;
  s->tr = tr;
  s->eng = engine_new(s);
  s->now = engine_clock(s->eng);
  engine_set_prefetch(s->eng, sim_prefetch);
  s->res = results_new();
  results_set_run(s->res, sc->name, sc->seed);
  s->res->scenario_path = g_strdup(sc->path);
  s->res->trace_path = g_strdup(tr->path);
  s->res->cull_timeout_s = util_ns_to_seconds(sc->notebook_cull_ns);
  if (sc->priority) results_track_priorities(s->res); /* wait by priority */
  /* the scenario's start: places the run; else the trace's own (submit_utc, from imports) */
  s->res->start_unix = isfinite(sc->start_unix) ? sc->start_unix : tr->start_unix;
  s->progress = opt && opt->progress && isatty(2);
  s->stop = opt ? opt->stop : NULL;
  if (opt && opt->give_up_late && opt->give_up_wait_s >= 0) {
    s->give_up_late = opt->give_up_late;
    s->give_up_wait_ns = util_seconds_to_ns(opt->give_up_wait_s);
  }
  s->res->gpu_series_on = opt && opt->gpu_series;
  s->reference = opt ? opt->reference & SIM_REF_ALL : 0;
  if (!(s->reference & SIM_REF_WARM)) s->warm = warm_new();
  s->walk_bursts = !s->res->gpu_series_on && !(s->reference & SIM_REF_BURSTS);
  if (s->reference & SIM_REF_QUEUE) engine_use_reference_queue(s->eng);
  gint64 t0 = g_get_monotonic_time();

  s->params.ts_switch_loss = sc->ts_switch_loss;
  s->params.ts_curve = share_ts_curve_make(sc->ts_switch_loss, sc->ts_curve_exp, sc->ts_overlap_exp);
  s->params.mps_bandwidth_loss = sc->mps_bandwidth_loss;
  s->params.mps_block_wait = sc->mps_block_wait;
  s->params.mps_block_corr_ns = (double)sc->mps_block_corr_ns;
  if (sc->interference_path) {
    g_autoptr(diag_list) d = diag_list_new(0);
    s->interference = interference_load_in(sc->ref_dir, sc->interference_path, d);
    if (!s->interference) {
      diag_to_error(d, error);
      sim_free(s);
      return NULL;
    }
    s->params.interference = s->interference;
  }
  sim_build(s, opt);
  if (opt && opt->max_pending_events) engine_limit_pending(s->eng, opt->max_pending_events);
  gboolean stopped;
  sim_time end = sim_loop(s, &stopped);
  if (stopped && rowwriter_failed(s->rw)) { /* its error is the run's */
    rowwriter_finish(s->rw, error);
    sim_free(s);
    return NULL;
  }
  if (stopped || engine_full(s->eng)) {
    if (engine_full(s->eng))
      g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME,
                  "the run needs more than %" G_GUINT64_FORMAT " events pending at once "
                  "(the event engine's limit) at %.0f s of simulated time; split the trace "
                  "or the pools into smaller runs",
                  opt && opt->max_pending_events ? opt->max_pending_events : ENGINE_MAX_PENDING,
                  (double)sim_now(s) / 1e9);
    else
      g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "the run was stopped");
    sim_free(s);
    return NULL;
  }
  close_books(s, end);
  if (!fill_results(s, end, error)) {
    sim_free(s);
    return NULL;
  }
  results *r = s->res;
  s->res = NULL;
  r->wall_s = (double)(g_get_monotonic_time() - t0) / 1e6;
  sim_free(s);
  return r;
}
