/* budget.c: the work and memory estimate of a run (budget.h) from the scenario and trace
 * alone, and the check against the budget with messages that name the line responsible.
 * It simulates nothing and allocates only a tenant set; the figures it uses are measured
 * constants (budget.h, docs/scenario-format.md "Work budget"). */
#include "budget.h"
#include "results.h"
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

void budget_rows_add(budget_rows *b, const scenario *sc, const trace *tr, guint i,
                     const job_spec *j) {
  b->end_s = MAX(b->end_s, util_ns_to_seconds(j->submit_ns + j->duration_ns));
  double secs = budget_job_seconds(sc, j);
  if (j->kind == JOB_INFERENCE && !sc->inference.fluid && !j->has_requests) {
    double n = budget_job_rate(tr, j) * secs;
    b->requests += n;
    if (n > b->top_requests) b->top_requests = n, b->top_requests_job = i;
  } else if (j->kind == JOB_NOTEBOOK && j->burst_ns > 0) {
    /* a cycle is a burst and a gap, burst_s / busy long alone; two events each */
    double n = 2.0 * secs * j->busy / util_ns_to_seconds(j->burst_ns);
    b->events += n;
    if (n > b->top_events) b->top_events = n, b->top_events_job = i;
  }
}

/* Requests, burst events, span and tenants from the trace: a pass of its own. */
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

void budget_estimate_rows(const scenario *sc, const trace *tr, const budget_rows *rows,
                          gboolean gpu_series, budget_estimate *e) {
  *e = (budget_estimate){.top_requests_job = -1, .top_events_job = -1};
  e->span_s = util_ns_to_seconds(sc->horizon_ns);
  for (guint i = 0; i < sc->pools->len; i++) e->gpus += (double)pool_gpus(scenario_pool(sc, i));
  budget_rows own;
  if (tr && !rows) budget_trace(sc, tr, &own), rows = &own;
  if (tr) {
    e->requests = rows->requests;
    e->top_requests = rows->top_requests;
    e->top_requests_job = rows->top_requests_job;
    e->events = rows->events;
    e->top_events = rows->top_events;
    e->top_events_job = rows->top_events_job;
    e->tenants = rows->tenants;
    if (sc->horizon_ns <= 0) e->span_s = rows->end_s;
  }
  e->intervals = ceil(e->span_s / util_ns_to_seconds(sc->interval_ns));
  e->series_rows = e->intervals * (sc->pools->len + e->tenants);
  e->gpu_rows = gpu_series ? e->intervals * e->gpus : 0;
  e->events += e->intervals; /* one interval close each */
  e->mem_bytes = e->gpus * BUDGET_BYTES_PER_GPU + e->series_rows * BUDGET_BYTES_PER_SERIES_ROW +
                 e->gpu_rows * (double)sizeof(gpu_series_row) +
                 (tr ? trace_n_jobs(tr) : 0) *
                     (BUDGET_BYTES_PER_JOB + (gpu_series ? BUDGET_BYTES_PER_KEPT_ROW : 0));
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

static void budget_report_memory(const scenario *sc, const budget_estimate *e, diag_list *d) {
  double gpu_b = e->gpus * BUDGET_BYTES_PER_GPU;
  double series_b = e->series_rows * BUDGET_BYTES_PER_SERIES_ROW +
                    e->gpu_rows * (double)sizeof(gpu_series_row);
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
      g_string_append_printf(m, " and %.4g per-GPU rows (--dcgm) of %zu bytes", e->gpu_rows,
                             sizeof(gpu_series_row));
  }
  diag_add(d, sc->path, line, 0, "%s; %s", m->str, budget_hint);
  g_string_free(m, TRUE);
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
  if (e.events > BUDGET_MAX_EVENTS) {
    if (e.top_events_job >= 0 && e.top_events > e.events / 2) {
      job_spec row = trace_job(tr, (guint)e.top_events_job);
      const job_spec *j = &row;
      diag_add(d, tr->path, j->line, 0,
               "estimated work %.3g events is beyond the budget of %.3g (about 4 minutes); "
               "notebook '%s' alone has %.3g bursts and gaps (%.4g s at busy %.3g, burst_s "
               "%.4g); %s", e.events, BUDGET_MAX_EVENTS, j->id, e.top_events,
               budget_job_seconds(sc, j), j->busy, util_ns_to_seconds(j->burst_ns), budget_hint);
    } else {
      diag_add(d, tr ? tr->path : sc->path, 0, 0,
               "estimated work %.3g events (notebook bursts and interval closes) is beyond the "
               "budget of %.3g (about 4 minutes); %s", e.events, BUDGET_MAX_EVENTS, budget_hint);
    }
  }
  if (e.mem_bytes > BUDGET_MAX_MEM_BYTES) budget_report_memory(sc, &e, d);
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
