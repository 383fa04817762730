/* budget.c: the work and memory estimate of a run (budget.h) from the scenario and trace
 * alone, and the check against the budget with messages that name the line responsible.
 * It simulates nothing and allocates only a tenant set; the figures it uses are measured
 * constants (budget.h, docs/scenario-format.md "Work budget"). */
#include "budget.h"
#include "results.h"
#include "cluster.h"
#include "share.h"
#include "priority.h"
#include "kueue.h"
#include "preempt.h"
#include "autoscale.h"
#include <math.h>
#include <sys/resource.h>
#include <unistd.h>

/* Simulated seconds of job j within the span (its session, or its work alone). */
static double budget_job_seconds(const scenario *sc, const job_spec *j) {
  double d = util_ns_to_seconds(j->duration_ns);
  if (sc->horizon_ns > 0) {
    double left = util_ns_to_seconds(sc->horizon_ns - MIN(j->submit_ns, sc->horizon_ns));
    d = MIN(d, left);
  }
  return d;
}

/* The highest arrival rate job j has: its own or one a phase sets. */
static double budget_job_rate(const trace *tr, const job_spec *j) {
  double r = j->rate_rps;
  for (guint k = 0; k < j->phase_count; k++) {
    const job_phase *ph = &g_array_index(tr->phases, job_phase, j->phase_first + k);
    if ((ph->set & PHASE_SET_RATE) && ph->rate_rps > r) r = ph->rate_rps;
  }
  return r;
}

void budget_rows_init(budget_rows *b) {
  *b = (budget_rows){.top_requests_job = -1, .top_events_job = -1};
}

void budget_rows_clear(budget_rows *b) {
  g_free(b->pool_last_s);
  g_free(b->pool_work_gpu_s);
  g_free(b->pool_longest_s);
  g_free(b->pool_widest);
  g_free(b->pool_residents);
  b->pool_last_s = b->pool_work_gpu_s = b->pool_longest_s = b->pool_widest = NULL;
  b->pool_residents = NULL;
  b->n_pools = 0;
}

/* How pool p stretches job j's work, declared per strategy (an upper bound): *job, the
 * most its wall time can be over its work (a whole GPU of its own: 1; shared, the residents
 * a GPU may hold: time-slicing and MPS replicas, a MIG slice's 1/7 of the GPU times its
 * replicas, vGPUs per GPU, 1 / gpu_frac for a fractional job); *gpu, the most a GPU that
 * holds at least one resident can be below full speed (one resident alone: on the smallest
 * MIG slice, a fixed-share vGPU, its gpu_frac). Each shared resident loses less than half
 * to context switches, MPS block waits and memory bandwidth, and 1.5 more with a measured
 * interference table. */
/* Is p's strategy the built-in one of this name? (The bounds below are per strategy; a
 * strategy not named here is bounded as a fractional one, by its jobs' gpu_frac.) */
static gboolean budget_is(const pool_spec *p, const char *name) {
  return strcmp(share_strategy_name(p->strategy), name) == 0;
}

static void budget_slowdown(const scenario *sc, const pool_spec *p, const job_spec *j,
                            double *job, double *gpu, double *most) {
  double residents, alone, loss = 2.0 * (sc->interference_path ? 1.5 : 1.0);
  guint32 r = MAX(1u, p->replicas);
  if (budget_is(p, "exclusive")) {
    *job = *gpu = *most = 1;
    return;
  }
  const share_ops *ops = share_for(p->strategy);
  if (ops->budget_bound) {
    ops->budget_bound(p, j, &residents, &alone);
  } else if (budget_is(p, "time-slicing") || budget_is(p, "mps")) {
    residents = r, alone = 1;
  } else if (budget_is(p, "mig")) {
    for (guint k = 0; k < CATALOG_MAX_PROFILES; k++) r = MAX(r, p->profile_replicas[k]);
    residents = 7.0 * r, alone = 7.0;
  } else if (budget_is(p, "vgpu")) {
    residents = p->vgpu ? MAX(1, p->vgpu->max_per_gpu) : 32;
    alone = p->vgpu_sched == VGPU_FIXED_SHARE ? residents : 1;
  } else {
    alone = 1.0 / MAX(j->gpu_frac, 1e-3);
    residents = MAX(alone, (double)r);
  }
  *job = residents * loss;
  *gpu = alone * loss;
  *most = residents;
}

/* FALSE when job j can never run in pool p (it ends unplaceable at its submit). */
static gboolean budget_can_run(const pool_spec *p, const job_spec *j) {
  char *why = NULL;
  gboolean ok = j->gpus <= pool_gpus(p) && share_for(p->strategy)->implemented &&
                share_for(p->strategy)->can_ever_fit(p, j, &why);
  g_free(why);
  why = NULL;
  ok = ok && cluster_host_can_ever_fit(p, j, &why);
  g_free(why);
  return ok;
}

/* Restarts job j can have: up to max_restarts when it restarts on failure and something
 * can kill it (a crash rate of its kind, a crash or memory phase, a pool whose GPUs share
 * their memory: time-slicing, MPS, fractional, where a neighbour's allocation can push it
 * out); an evicting MIG drain requeues any job, whatever its policy, counted the same way. */
static double budget_restarts(const scenario *sc, const trace *tr, const pool_spec *p,
                              const job_spec *j, gboolean *can_die) {
  gboolean evicts = p && budget_is(p, "mig") && p->reconfigure == RECONFIGURE_ON_DEMAND &&
                    p->drain == DRAIN_EVICT;
  gboolean killable = evicts || sc->crash_rate_per_hour[j->kind] > 0 ||
                      (p && (budget_is(p, "time-slicing") || budget_is(p, "mps") ||
                             budget_is(p, "fractional") || budget_is(p, "hami") ||
                             budget_is(p, "kai")));
  for (guint k = 0; k < j->phase_count && !killable; k++) {
    const job_phase *ph = &g_array_index(tr->phases, job_phase, j->phase_first + k);
    killable = (ph->set & (PHASE_SET_MEM | PHASE_CRASH)) != 0;
  }
  *can_die = killable;
  if (j->restart == RESTART_NEVER && !evicts) return 0;
  return killable ? (double)sc->max_restarts : 0;
}

/* Preemptions job j can suffer (docs/models.md "Priorities and preemption"): up to
 * max_restarts + 1 in a pool where jobs preempt (the one past max_restarts fails it), each
 * ending an attempt after the grace period; none where nothing preempts. */
static double budget_preemptions(const scenario *sc, const pool_spec *p) {
  if (sc->kueue && sc->kueue->preempts) return (double)sc->max_restarts + 1; /* any pool */
  if (!sc->priority || !sc->priority->preempts) return 0;
  scenario_capacity c = p->strategy->capacity;
  if (c != SCENARIO_CAPACITY_SLOTS && c != SCENARIO_CAPACITY_SHARES) return 0;
  return (double)sc->max_restarts + 1;
}

/* Spot interruptions job j can suffer in pool p (autoscale.h): a Poisson count over its
 * workers' node-hours (its work and an hour more, each attempt), its mean and six of its
 * standard deviations more; each one re-queues it at once, as a preemption does. */
static double budget_interruptions(const pool_spec *p, const job_spec *j, double restarts) {
  const autoscale_spot_conf *sp = autoscale_spot_of(p);
  if (!sp || sp->rate_per_hour <= 0) return 0;
  double mean = sp->rate_per_hour * j->gpus * (1 + restarts) *
                (util_ns_to_seconds(j->duration_ns) + 3600.0) / 3600.0;
  return mean + 6.0 * sqrt(mean) + 6.0;
}

/* Job j's share of run --dcgm's per-GPU job entries (budget_rows.gpu_jobs_*): on each of
 * its GPUs it is an entry of every interval it is resident in, at most its wall time over
 * the interval plus 2 for each stay (attempt or cull: the intervals it starts and ends in);
 * and per pool the most residents one GPU holds at once. */
static double budget_escaped(const char *s);

static void budget_job_dcgm(budget_rows *b, const scenario *sc, guint pi, const job_spec *j,
                            double resident_s, double stays, double most) {
  double interval_s = util_ns_to_seconds(sc->interval_ns);
  b->gpu_jobs_time += j->gpus * (resident_s / interval_s + 2.0 * stays);
  b->gpu_jobs_stays += j->gpus * stays;
  b->pool_residents[pi] = MAX(b->pool_residents[pi], most);
}

/* Job i's work: its pool's queue (GPU-seconds, the longest job, the widest gang, the last
 * submit) and its events, one line per mechanism of BUDGET_EV_*. */
static void budget_job_events(budget_rows *b, const scenario *sc, const trace *tr, guint i,
                              const job_spec *j, double *ev) {
  int pi = scenario_route(sc, j);
  const pool_spec *p = pi >= 0 ? scenario_pool(sc, (guint)pi) : NULL;
  gboolean session = j->kind == JOB_NOTEBOOK || j->kind == JOB_INFERENCE;
  ev[BUDGET_EV_ARRIVALS] = 1;
  if (!p || !budget_can_run(p, j)) return; /* unrouted or unplaceable: ends at its submit */
  gboolean can_die = FALSE;
  double restarts = budget_restarts(sc, tr, p, j, &can_die);
  double preempts = budget_preemptions(sc, p) + budget_interruptions(p, j, restarts);
  double attempts = 1 + restarts + preempts;
  /* every restart but the first may wait out a back-off (sim.c): its end is an event, a row
   * more in events.csv, and up to restart_backoff_max of time off the GPUs; a preemption
   * re-queues at once */
  double backoffs = sc->restart_backoff_ns > 0 ? MAX(0.0, restarts - 1) : 0;
  double backoff_s = backoffs * util_ns_to_seconds(sc->restart_backoff_max_ns);
  if (can_die || preempts > 0) b->fault_rows += 2 * attempts + backoffs; /* a kill and a
                                                                           * requeue each */
  double slow_job = 1, slow_gpu = 1, most = 1, culls = 0;
  budget_slowdown(sc, p, j, &slow_job, &slow_gpu, &most);
  double secs = budget_job_seconds(sc, j), dur = util_ns_to_seconds(j->duration_ns);
  /* wall time of all its attempts: a session's is its length; work is stretched */
  double wall = session ? secs : attempts * secs * slow_job;
  if (sc->horizon_ns > 0) wall = MIN(wall, secs > 0 ? util_ns_to_seconds(sc->horizon_ns) : 0);
  /* the end of its work or session, and a random crash when its kind has a rate; an
   * on-demand MIG pool reconfigures up to one GPU per worker for it (its end and the
   * eviction of a drain) */
  ev[BUDGET_EV_ATTEMPTS] =
      attempts * (1 + (sc->crash_rate_per_hour[j->kind] > 0)) + backoffs + preempts;
  if (budget_is(p, "mig") && p->reconfigure == RECONFIGURE_ON_DEMAND)
    ev[BUDGET_EV_ATTEMPTS] += 2.0 * attempts * j->gpus;
  if (autoscale_conf_of(p)) { /* per attempt a scan, and per worker a node asked for, ready,
                              * interrupted or removed when empty, and its rows */
    ev[BUDGET_EV_ATTEMPTS] += attempts * (1 + 4.0 * j->gpus);
    b->fault_rows += attempts * 4.0 * j->gpus;
  }
  ev[BUDGET_EV_PHASES] = attempts * j->phase_count;
  if (j->checkpoint_ns > 0 && !session)
    ev[BUDGET_EV_CHECKPOINTS] = attempts + wall / util_ns_to_seconds(j->checkpoint_ns);
  if (j->kind == JOB_INFERENCE && sc->inference.duty_window_ns > 0)
    ev[BUDGET_EV_DUTY] = attempts + secs / util_ns_to_seconds(sc->inference.duty_window_ns);
  if (j->kind == JOB_NOTEBOOK && j->burst_ns > 0) {
    /* a burst and a gap, burst_s / busy long on average; their lengths are drawn, so the
     * count is the mean and six of its standard deviations (a Poisson count's) more */
    double mean = secs * j->busy / util_ns_to_seconds(j->burst_ns);
    ev[BUDGET_EV_BURSTS] = attempts + 2.0 * (mean + 6.0 * sqrt(mean) + 6.0);
  }
  if (j->kind == JOB_NOTEBOOK && sc->notebook_cull_ns > 0) {
    /* the idle culler stops a session at most once a gap (counted as above), or once an
     * attempt when it never computes: each cull adds its user's return and the restarted
     * session's end and timer, and a row of events.csv */
    double mean = j->burst_ns > 0 ? secs * j->busy / util_ns_to_seconds(j->burst_ns) : 0;
    culls = attempts + mean + 6.0 * sqrt(mean) + 6.0;
    ev[BUDGET_EV_ATTEMPTS] += 3.0 * culls;
    b->fault_rows += culls;
  }
  if (!b->n_pools) {
    b->n_pools = sc->pools->len;
    b->pool_last_s = g_new0(double, b->n_pools);
    b->pool_work_gpu_s = g_new0(double, b->n_pools);
    b->pool_longest_s = g_new0(double, b->n_pools);
    b->pool_widest = g_new0(double, b->n_pools);
    b->pool_residents = g_new0(double, b->n_pools);
  }
  /* what it adds to the queue, in seconds of a GPU that holds a resident: a session holds
   * its GPUs for its length, work takes its attempts at the GPU's slowest; an on-demand
   * MIG pool may idle the GPUs for a reconfiguration per attempt */
  double occupied = session ? dur : attempts * dur * slow_gpu;
  if (budget_is(p, "mig") && p->reconfigure == RECONFIGURE_ON_DEMAND)
    occupied += attempts * util_ns_to_seconds(p->reconfigure_time_ns);
  /* a victim keeps its GPUs for the grace period of each preemption */
  double held = backoff_s;
  if (preempts > 0) held += preempts * util_ns_to_seconds(preempt_grace_ns(sc));
  occupied += held;
  double longest = (session ? dur : attempts * dur * slow_job) + held;
  b->pool_last_s[pi] = MAX(b->pool_last_s[pi], util_ns_to_seconds(j->submit_ns));
  b->pool_work_gpu_s[pi] += occupied * j->gpus;
  b->pool_longest_s[pi] = MAX(b->pool_longest_s[pi], longest);
  b->pool_widest[pi] = MAX(b->pool_widest[pi], (double)j->gpus);
  budget_job_dcgm(b, sc, (guint)pi, j, wall + held, attempts + culls, most);
  (void)i;
}

void budget_rows_add(budget_rows *b, const scenario *sc, const trace *tr, guint i,
                     const job_spec *j) {
  b->end_s = MAX(b->end_s, util_ns_to_seconds(j->submit_ns + j->duration_ns));
  b->longest_names = MAX(b->longest_names, (gsize)(budget_escaped(j->id) +
                                                    budget_escaped(j->tenant ? j->tenant : "default")));
  double secs = budget_job_seconds(sc, j);
  if (j->kind == JOB_INFERENCE && !sc->inference.fluid && !j->has_requests) {
    double n = budget_job_rate(tr, j) * secs;
    b->requests += n;
    if (n > b->top_requests) b->top_requests = n, b->top_requests_job = i;
  }
  double ev[BUDGET_EV_COUNT] = {0};
  budget_job_events(b, sc, tr, i, j, ev);
  double n = 0;
  for (int k = 0; k < BUDGET_EV_COUNT; k++) b->ev[k] += ev[k], n += ev[k];
  b->events += n;
  if (n > b->top_events) b->top_events = n, b->top_events_job = i;
}

double budget_rows_span(const scenario *sc, const budget_rows *b) {
  if (sc->horizon_ns > 0) return util_ns_to_seconds(sc->horizon_ns);
  double end = b->end_s;
  for (guint k = 0; k < b->n_pools; k++) {
    if (b->pool_work_gpu_s[k] <= 0) continue;
    /* while a job waits, fewer GPUs than the widest gang are free: the others are busy */
    double busy = MAX(1.0, (double)pool_gpus(scenario_pool(sc, k)) - b->pool_widest[k] + 1);
    end = MAX(end, b->pool_last_s[k] + b->pool_work_gpu_s[k] / busy + b->pool_longest_s[k]);
  }
  return end;
}

/* Requests, events, span and tenants from the trace: a pass of its own. */
static void budget_trace(const scenario *sc, const trace *tr, budget_rows *b) {
  GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
  budget_rows_init(b);
  for (guint i = 0; i < trace_n_jobs(tr); i++) {
    job_spec row = trace_job(tr, i);
    g_hash_table_add(seen, (gpointer)(row.tenant ? row.tenant : "default"));
    budget_rows_add(b, sc, tr, i, &row);
  }
  b->tenants = g_hash_table_size(seen);
  g_hash_table_destroy(seen);
}

/* The bytes of s in a dcgm.prom label value or a dcgm.csv field at most: each backslash,
 * quote or newline written as two characters (a CSV field's two quotes are in the fixed
 * bytes). */
static double budget_escaped(const char *s) {
  gsize n = 0;
  for (; s && *s; s++) n += (*s == '\\' || *s == '"' || *s == '\n') ? 2 : 1;
  return (double)n;
}

/* The longest variable label values of a dcgm.prom line: pool, model and MIG profile. */
static void budget_dcgm_names(const scenario *sc, double *pool, double *model, double *profile) {
  *pool = *model = *profile = 0;
  for (guint k = 0; k < sc->pools->len; k++) {
    const pool_spec *p = scenario_pool(sc, k);
    *pool = MAX(*pool, budget_escaped(p->name));
    *model = MAX(*model, p->gpu && p->gpu->product_name ? budget_escaped(p->gpu->product_name)
                                                         : BUDGET_DCGM_MODEL_NAME);
    for (guint q = 0; p->gpu && q < p->gpu->n_profiles; q++)
      *profile = MAX(*profile, budget_escaped(p->gpu->profiles[q].name));
  }
}

/* run --dcgm's per-GPU job entries and output bytes (budget_estimate.gpu_jobs, dcgm_bytes).
 * Entries: the smaller of the jobs' time on their GPUs (budget_job_dcgm) and the residents a
 * pool's GPUs hold at once over the intervals plus every stay. dcgm.prom has, for each
 * gauge, a line per GPU and interval: one for its first resident or none, one more per
 * further resident, so at most the GPU's line plus the smaller of the entries and the
 * residents but one at once plus the stays; each line at most the fixed bytes and its
 * variable labels (the pool name three times, the scenario's, the job's id and tenant, the
 * model, the profile, the container). dcgm.csv: four rows per entry; the pools' series; the
 * headers. An interval more than the span's: the last, cut at the end. */
static void budget_dcgm(const scenario *sc, const budget_rows *rows, budget_estimate *e) {
  double by_time = rows ? rows->gpu_jobs_time : 0, stays = rows ? rows->gpu_jobs_stays : 0;
  double at_once = stays, more = stays, intervals = e->intervals + 1;
  for (guint k = 0; rows && k < rows->n_pools; k++) {
    double gpus = (double)pool_gpus(scenario_pool(sc, k)), m = rows->pool_residents[k];
    at_once += intervals * gpus * m;
    more += intervals * gpus * MAX(0.0, m - 1);
  }
  e->gpu_jobs = MIN(by_time, at_once);
  double pool, model, profile, scen = budget_escaped(sc->name);
  double names = rows ? (double)rows->longest_names : 0;
  budget_dcgm_names(sc, &pool, &model, &profile);
  double vars = 3.0 * pool + scen + names + model + profile + BUDGET_DCGM_CONTAINER;
  double lines = BUDGET_DCGM_GAUGES * (intervals * e->gpus + MIN(by_time, more));
  double prom = lines * (BUDGET_DCGM_PROM_LINE + vars);
  double pools = BUDGET_DCGM_POOL_FAMILIES * intervals * sc->pools->len *
                 (BUDGET_DCGM_POOL_LINE + pool + scen);
  double csv = BUDGET_DCGM_CSV_GAUGES * e->gpu_jobs *
               (BUDGET_DCGM_CSV_ROW + 3.0 * pool + 2.0 * scen + names);
  e->dcgm_bytes = BUDGET_DCGM_HEADERS + prom + pools + csv;
}

void budget_estimate_rows(const scenario *sc, const trace *tr, const budget_rows *rows,
                          gboolean gpu_series, budget_estimate *e) {
  *e = (budget_estimate){.top_requests_job = -1, .top_events_job = -1};
  e->span_s = util_ns_to_seconds(sc->horizon_ns);
  for (guint i = 0; i < sc->pools->len; i++) e->gpus += (double)pool_gpus(scenario_pool(sc, i));
  budget_rows own;
  gboolean mine = tr && !rows;
  if (mine) budget_trace(sc, tr, &own), rows = &own;
  if (tr) {
    e->requests = rows->requests;
    e->top_requests = rows->top_requests;
    e->top_requests_job = rows->top_requests_job;
    memcpy(e->ev, rows->ev, sizeof e->ev);
    e->top_events = rows->top_events;
    e->top_events_job = rows->top_events_job;
    e->tenants = rows->tenants;
    e->span_s = budget_rows_span(sc, rows);
  }
  e->intervals = ceil(e->span_s / util_ns_to_seconds(sc->interval_ns));
  e->series_rows = e->intervals * (sc->pools->len + e->tenants);
  e->gpu_rows = gpu_series ? e->intervals * e->gpus : 0;
  if (gpu_series) budget_dcgm(sc, tr ? rows : NULL, e);
  e->ev[BUDGET_EV_INTERVALS] = e->intervals + 1;
  for (guint i = 0; i < sc->pools->len; i++) /* an autoscaled pool's first nodes: a removal
                                              * and an interruption each */
    if (autoscale_conf_of(scenario_pool(sc, i)))
      e->ev[BUDGET_EV_ATTEMPTS] += 2.0 * scenario_pool(sc, i)->nodes;
  /* a scheduling pass follows what frees or asks for GPUs, at most once each (an arrival,
   * the end or crash of an attempt, a phase that kills), and strategies' own events (MIG
   * reconfigurations) come from those passes: one more each */
  e->ev[BUDGET_EV_SCHEDULE] = e->ev[BUDGET_EV_ARRIVALS] + e->ev[BUDGET_EV_ATTEMPTS];
  e->events = 0;
  for (int k = 0; k < BUDGET_EV_COUNT; k++) e->events += e->ev[k];
  e->mem_bytes = BUDGET_BYTES_BASE + e->gpus * BUDGET_BYTES_PER_GPU + e->series_rows * BUDGET_BYTES_PER_SERIES_ROW +
                 e->gpu_rows * ((double)sizeof(gpu_series_row) + BUDGET_BYTES_PER_GPU_ORDER) +
                 e->gpu_jobs * BUDGET_BYTES_PER_GPU_JOB + e->tenants * BUDGET_BYTES_PER_TENANT * MAX(1.0, sc->pools->len / 3.0) +
                 (tr ? rows->fault_rows : 0) * BUDGET_BYTES_PER_FAULT_ROW +
                 (tr ? trace_n_jobs(tr) : 0) *
                     (BUDGET_BYTES_PER_JOB + (gpu_series ? BUDGET_BYTES_PER_KEPT_ROW : 0));
  if (mine) budget_rows_clear(&own);
}

void budget_estimate_run(const scenario *sc, const trace *tr, gboolean gpu_series,
                         budget_estimate *e) {
  budget_estimate_rows(sc, tr, NULL, gpu_series, e);
}

static const char budget_hint[] = "give --allow-large to run it anyway";

/* The pool with the most GPUs (its line for the message). */
static const pool_spec *budget_largest_pool(const scenario *sc) {
  const pool_spec *best = NULL;
  for (guint i = 0; i < sc->pools->len; i++)
    if (!best || pool_gpus(scenario_pool(sc, i)) > pool_gpus(best)) best = scenario_pool(sc, i);
  return best;
}

static void budget_report_memory(const scenario *sc, const trace *tr, const budget_estimate *e,
                                 diag_list *d) {
  double gpu_b = e->gpus * BUDGET_BYTES_PER_GPU;
  double series_b = e->series_rows * BUDGET_BYTES_PER_SERIES_ROW +
                    e->gpu_rows * ((double)sizeof(gpu_series_row) + BUDGET_BYTES_PER_GPU_ORDER);
  GString *m = g_string_new(NULL);
  g_string_append_printf(m, "estimated memory %.3g GB is beyond the budget of %.3g GB: ",
                         e->mem_bytes / 1e9, BUDGET_MAX_MEM_BYTES / 1e9);
  guint line;
  if (gpu_b >= series_b) {
    const pool_spec *p = budget_largest_pool(sc);
    line = p->line;
    g_string_append_printf(m, "%.4g GPUs of about %.0f bytes each (the largest pool, '%s', has "
                           "%.4g)", e->gpus, BUDGET_BYTES_PER_GPU, p->name ? p->name : "?",
                           (double)pool_gpus(p));
  } else {
    line = sc->interval_line ? sc->interval_line : sc->horizon_line;
    g_string_append_printf(m, "%.4g time-series rows of about %.0f bytes (%u pools and %u "
                           "tenants, each over %.4g intervals of %.4g s)", e->series_rows,
                           BUDGET_BYTES_PER_SERIES_ROW, sc->pools->len, e->tenants,
                           e->intervals, util_ns_to_seconds(sc->interval_ns));
    if (e->gpu_rows > 0)
      g_string_append_printf(m, " and %.4g per-GPU rows (--dcgm) of %.0f bytes", e->gpu_rows,
                             (double)sizeof(gpu_series_row) + BUDGET_BYTES_PER_GPU_ORDER);
    if (tr && sc->horizon_ns <= 0) { /* the span is the trace's: its queue, not a line */
      g_string_append_printf(m, "; without a horizon the run may last %.4g s: the last "
                             "submit plus the queued work on the GPUs a waiting job leaves "
                             "busy", e->span_s);
      diag_add(d, tr->path, 0, 0, "%s; set a horizon or %s", m->str, budget_hint);
      g_string_free(m, TRUE);
      return;
    }
  }
  /* time-series rows: a coarser interval is the usual remedy */
  diag_add(d, sc->path, line, 0, "%s; %s%s", m->str,
           gpu_b >= series_b ? "" : "set a larger interval (each doubling halves the rows), or ",
           budget_hint);
  g_string_free(m, TRUE);
}

/* run --dcgm's output beyond its budget: at the interval (the usual remedy), what it is
 * made of; without a horizon the span is the queue's bound, and a horizon the remedy too. */
static void budget_report_dcgm(const scenario *sc, const trace *tr, const budget_estimate *e,
                               diag_list *d) {
  gboolean open = tr && sc->horizon_ns <= 0;
  g_autofree char *span = open ? g_strdup_printf("; without a horizon the run may last %.4g s, "
                                                 "the last submit plus the queued work",
                                                 e->span_s) : g_strdup("");
  diag_add(d, sc->path, sc->interval_line ? sc->interval_line : sc->horizon_line, 0,
           "estimated run --dcgm output %.3g GB is beyond the budget of %.3g GB: dcgm.prom has "
           "a sample of each of %.0f gauges per GPU and interval (%.4g GPUs over %.4g intervals "
           "of %.4g s%s) and per job resident on a GPU in an interval (up to %.4g), each line "
           "labelled as dcgm-exporter does; %sset a larger interval (each doubling about halves "
           "it), leave out --dcgm, or %s",
           e->dcgm_bytes / 1e9, BUDGET_MAX_DCGM_BYTES / 1e9, BUDGET_DCGM_GAUGES, e->gpus,
           e->intervals, util_ns_to_seconds(sc->interval_ns), span, e->gpu_jobs,
           open ? "set a horizon, " : "", budget_hint);
}

static const char *const budget_ev_names[BUDGET_EV_COUNT] = {
    [BUDGET_EV_ARRIVALS] = "arrivals", [BUDGET_EV_ATTEMPTS] = "attempts (1 + restarts)",
    [BUDGET_EV_PHASES] = "phases", [BUDGET_EV_CHECKPOINTS] = "checkpoints",
    [BUDGET_EV_DUTY] = "duty windows", [BUDGET_EV_BURSTS] = "notebook bursts and gaps",
    [BUDGET_EV_INTERVALS] = "interval closes", [BUDGET_EV_SCHEDULE] = "scheduling passes"};

/* The mechanism with the most events of ev (of those a job has: not intervals or passes). */
static int budget_ev_top(const double *ev, int n) {
  int top = 0;
  for (int k = 1; k < n; k++)
    if (ev[k] > ev[top]) top = k;
  return top;
}

/* The events problem: at the row of the job that asks for most when it asks for half of
 * them, with its largest mechanism and what sets it; else at the trace, by mechanism. */
static void budget_report_events(const scenario *sc, const trace *tr, const budget_estimate *e,
                                 diag_list *d) {
  if (tr && e->top_events_job >= 0 && e->top_events > e->events / 4) {
    job_spec j = trace_job(tr, (guint)e->top_events_job);
    budget_rows scratch;
    budget_rows_init(&scratch);
    double ev[BUDGET_EV_COUNT] = {0};
    budget_job_events(&scratch, sc, tr, (guint)e->top_events_job, &j, ev);
    budget_rows_clear(&scratch);
    int top = budget_ev_top(ev, BUDGET_EV_INTERVALS);
    diag_add(d, tr->path, j.line, 0,
             "estimated work %.3g events is beyond the budget of %.3g (about 4 minutes); job "
             "'%s' alone asks for %.3g, most of them %s (%.4g s, checkpoint_s %.4g, burst_s "
             "%.4g at busy %.3g, %.4g restarts at most: max_restarts, crash_rates); %s",
             e->events, BUDGET_MAX_EVENTS, j.id, e->top_events, budget_ev_names[top],
             budget_job_seconds(sc, &j), util_ns_to_seconds(j.checkpoint_ns),
             util_ns_to_seconds(j.burst_ns), j.busy, ev[BUDGET_EV_ATTEMPTS] / 2 - 1, budget_hint);
    return;
  }
  int top = budget_ev_top(e->ev, BUDGET_EV_SCHEDULE);
  diag_add(d, tr ? tr->path : sc->path, 0, 0,
           "estimated work %.3g events (most of them %s: %.3g, over a span of up to %.4g s) "
           "is beyond the budget of %.3g (about 4 minutes); %s", e->events,
           budget_ev_names[top], e->ev[top], e->span_s, BUDGET_MAX_EVENTS, budget_hint);
}

char *budget_estimate_describe(const budget_estimate *e) {
  GString *s = g_string_new(NULL);
  g_string_append_printf(s, "%.0f events (", ceil(e->events));
  for (int k = 0; k < BUDGET_EV_COUNT; k++)
    g_string_append_printf(s, "%s%s %.0f", k ? ", " : "", budget_ev_names[k], ceil(e->ev[k]));
  g_string_append_printf(s, "), %.0f requests, %.0f bytes of memory, a span of up to %.0f s",
                         ceil(e->requests), ceil(e->mem_bytes), ceil(e->span_s));
  if (e->dcgm_bytes > 0)
    g_string_append_printf(s, ", %.0f per-GPU job entries, %.0f bytes of dcgm output",
                           ceil(e->gpu_jobs), ceil(e->dcgm_bytes));
  return g_string_free(s, FALSE);
}

gboolean budget_check(const scenario *sc, const trace *tr, gboolean gpu_series, diag_list *d) {
  return budget_check_rows(sc, tr, NULL, gpu_series, d);
}

gboolean budget_check_rows(const scenario *sc, const trace *tr, const budget_rows *rows,
                           gboolean gpu_series, diag_list *d) {
  budget_estimate e;
  budget_estimate_rows(sc, tr, rows, gpu_series, &e);
  guint before = d->count;
  if (e.requests > BUDGET_MAX_REQUESTS) {
    job_spec row = trace_job(tr, (guint)e.top_requests_job);
    const job_spec *j = &row;
    diag_add(d, tr->path, j->line, 0,
             "estimated work %.3g simulated requests is beyond the budget of %.3g (about 4.5 "
             "minutes); job '%s' alone asks for %.3g (rate_rps %.4g for %.4g s); %s",
             e.requests, BUDGET_MAX_REQUESTS, j->id, e.top_requests, budget_job_rate(tr, j),
             budget_job_seconds(sc, j), budget_hint);
  }
  if (e.events > BUDGET_MAX_EVENTS) budget_report_events(sc, tr, &e, d);
  if (e.mem_bytes > BUDGET_MAX_MEM_BYTES) budget_report_memory(sc, tr, &e, d);
  if (e.dcgm_bytes > BUDGET_MAX_DCGM_BYTES) budget_report_dcgm(sc, tr, &e, d);
  return d->count == before;
}

/* Bytes this process may allocate at most: RLIMIT_AS and the physical memory. */
static double budget_memory_available(void) {
  double avail = INFINITY;
  struct rlimit rl;
  if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) avail = (double)rl.rlim_cur;
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0) avail = MIN(avail, (double)pages * (double)page);
  return avail;
}

gboolean budget_check_memory_limit(const scenario *sc, const trace *tr, gboolean gpu_series,
                                   diag_list *d) {
  return budget_check_memory_limit_rows(sc, tr, NULL, gpu_series, d);
}

gboolean budget_check_memory_limit_rows(const scenario *sc, const trace *tr,
                                        const budget_rows *rows, gboolean gpu_series,
                                        diag_list *d) {
  budget_estimate e;
  budget_estimate_rows(sc, tr, rows, gpu_series, &e);
  double avail = budget_memory_available();
  if (e.mem_bytes <= avail) return TRUE;
  diag_add(d, sc->path, 0, 0, "estimated memory %.3g GB is more than this process may use "
           "(%.3g GB: the smaller of its address-space limit and the machine's memory); the "
           "run would fail in an allocation, so it is not started", e.mem_bytes / 1e9,
           avail / 1e9);
  return FALSE;
}
