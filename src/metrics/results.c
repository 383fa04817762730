/* results.c: the container of one run's frozen outcome (allocation, freeing, interned
 * strings), the names of outcomes and event kinds, and the headline totals derived from
 * it (sums over pools, fractions of provisioned time, queue-wait percentiles with GSL).
 * It does not fill the per-job/pool/GPU rows (sim.c does) nor format anything (report-*.c). */
#include "results.h"
#include "histogram.h"
#include "util.h"
#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <string.h>

static const char *const results_outcome_names[OUTCOME_COUNT] = {
  [OUTCOME_COMPLETED] = "completed",     [OUTCOME_FAILED] = "failed",
  [OUTCOME_UNPLACEABLE] = "unplaceable", [OUTCOME_RUNNING] = "running",
  [OUTCOME_QUEUED] = "queued",           [OUTCOME_NOT_SUBMITTED] = "not_submitted",
};

static const char *const results_event_names[EVENT_KIND_COUNT] = {
  [EVENT_OOM_KILL] = "oom_kill",       [EVENT_CRASH] = "crash",
  [EVENT_RESTART] = "restart",         [EVENT_EVICTION] = "eviction",
  [EVENT_PREEMPTION] = "preemption",
  [EVENT_RECONFIGURE] = "reconfigure", [EVENT_UNPLACEABLE] = "unplaceable",
  [EVENT_BACKOFF] = "backoff",         [EVENT_CULL] = "cull",
  [EVENT_MIG_CREATE] = "mig_create",   [EVENT_MIG_DESTROY] = "mig_destroy",
  [EVENT_MIG_FRAGMENTED] = "mig_fragmented",
  [EVENT_NODE_PROVISION] = "node_provision", [EVENT_NODE_READY] = "node_ready",
  [EVENT_NODE_REMOVE] = "node_remove", [EVENT_SPOT_NOTICE] = "spot_notice",
};

const char *job_outcome_name(job_outcome o) {
  if ((int)o < 0 || o >= OUTCOME_COUNT) return "unknown";
  return results_outcome_names[o];
}

const char *event_kind_name(event_kind k) {
  if ((int)k < 0 || k >= EVENT_KIND_COUNT) return "unknown";
  return results_event_names[k];
}

const char *blast_kind_name(blast_kind k) {
  static const char *const names[BLAST_KIND_COUNT] = {"oom_kill", "crash", "eviction"};
  if ((int)k < 0 || k >= BLAST_KIND_COUNT) return "unknown";
  return names[k];
}

void results_service_clear(service_result *s) {
  g_clear_pointer(&s->latency_ns, histogram_free);
  g_clear_pointer(&s->ttft_ns, histogram_free);
  g_clear_pointer(&s->tpot_ns, histogram_free);
}

results *results_new(void) {
  results *r = g_new0(results, 1);
  r->start_unix = NAN;
  r->stopped_at_s = NAN;
  r->jobs = g_array_new(FALSE, TRUE, sizeof(job_result));
  r->gpus = g_array_new(FALSE, TRUE, sizeof(gpu_result));
  r->pools = g_array_new(FALSE, TRUE, sizeof(pool_result));
  r->tenants = g_array_new(FALSE, TRUE, sizeof(tenant_result));
  r->blast = g_array_new(FALSE, TRUE, sizeof(blast_row));
  r->timeseries = g_array_new(FALSE, TRUE, sizeof(ts_row));
  r->tenant_timeseries = g_array_new(FALSE, TRUE, sizeof(tenant_ts_row));
  r->events_log = g_array_new(FALSE, TRUE, sizeof(event_row));
  r->services = g_array_new(FALSE, TRUE, sizeof(service_result));
  g_array_set_clear_func(r->services, (GDestroyNotify)results_service_clear);
  r->gpu_series = g_array_new(FALSE, FALSE, sizeof(gpu_series_row));
  r->gpu_series_jobs = g_array_new(FALSE, FALSE, sizeof(gpu_series_job));
  r->strings = g_string_chunk_new(4096);
  r->job_waits = g_ptr_array_new_with_free_func((GDestroyNotify)g_array_unref);
  r->job_waits_zero = g_array_new(FALSE, TRUE, sizeof(guint64));
  return r;
}

void results_set_run(results *r, const char *scenario_name, uint64_t seed) {
  g_free(r->scenario_name);
  g_free(r->csv_key);
  r->scenario_name = g_strdup(scenario_name);
  r->seed = seed;
  GString *key = g_string_new(NULL);
  util_csv_field(key, scenario_name ? scenario_name : "");
  g_string_append_c(key, ',');
  util_append_u64(key, seed);
  g_string_append_c(key, ',');
  r->csv_key = g_string_free(key, FALSE);
}

void results_free(results *r) {
  if (!r) return;
  g_free(r->scenario_name);
  g_free(r->csv_key);
  g_free(r->scenario_path);
  g_free(r->trace_path);
  g_array_unref(r->jobs);
  g_array_unref(r->gpus);
  g_array_unref(r->pools);
  g_array_unref(r->tenants);
  g_array_unref(r->blast);
  g_array_unref(r->timeseries);
  g_array_unref(r->tenant_timeseries);
  if (r->ts_slo) g_ptr_array_unref(r->ts_slo);
  if (r->tenant_cells) g_ptr_array_unref(r->tenant_cells);
  g_array_unref(r->events_log);
  g_array_unref(r->services);
  g_array_unref(r->gpu_series);
  g_array_unref(r->gpu_series_jobs);
  g_ptr_array_unref(r->job_waits);
  g_array_unref(r->job_waits_zero);
  if (r->prio_waits) {
    for (guint i = 0; i < r->prio_waits->len; i++)
      g_array_unref(g_array_index(r->prio_waits, results_prio_waits, i).waits);
    g_array_unref(r->prio_waits);
  }
  if (r->services_keep) g_byte_array_unref(r->services_keep);
  g_string_chunk_free(r->strings);
  g_free(r);
}

tenant_ts_row results_tenant_ts_row(const char *tenant, const GArray *cells, gint64 interval_ns,
                                    gint64 end_ns, guint64 b) {
  gint64 t0 = (gint64)b * interval_ns, t1 = MIN(end_ns, (gint64)(b + 1) * interval_ns);
  const tenant_cell *c = cells && b < cells->len ? &g_array_index(cells, tenant_cell, b) : NULL;
  return (tenant_ts_row){
      .tenant = tenant,
      .t_start_s = util_ns_to_seconds(t0),
      .t_end_s = util_ns_to_seconds(t1),
      .allocated_gpus = c ? c->alloc_gpu_ns / (double)(t1 - t0) : 0,
      .busy_gpus = c ? c->busy_gpu_ns / (double)(t1 - t0) : 0,
  };
}

/* Equal strings share one copy; NULL stays NULL. */
const char *results_intern(results *r, const char *s) {
  g_return_val_if_fail(r != NULL, NULL);
  if (!s) return NULL;
  return g_string_chunk_insert_const(r->strings, s);
}

void results_wait_stats(double *wait_s, gsize n, double *mean_s, double *p50_s,
                        double *p95_s, double *max_s) {
  if (n == 0) {
    *mean_s = *p50_s = *p95_s = *max_s = NAN;
    return;
  }
  gsl_sort(wait_s, 1, n);
  *mean_s = gsl_stats_mean(wait_s, 1, n);
  *p50_s = gsl_stats_quantile_from_sorted_data(wait_s, 1, n, 0.5);
  *p95_s = gsl_stats_quantile_from_sorted_data(wait_s, 1, n, 0.95);
  *max_s = wait_s[n - 1];
}

static gboolean results_waits_sorted(const GArray *w) {
  const double *v = (const double *)(const void *)w->data;
  for (guint i = 1; i < w->len; i++)
    if (v[i - 1] > v[i]) return FALSE;
  return TRUE;
}

/* GSL's quantile of sorted data (gsl_stats_quantile_from_sorted_data) from its order
 * statistics lhs = (int)(f (n - 1)) and lhs + 1, the same arithmetic. */
static double results_quantile(double f, gsize n, double at_lhs, double after_lhs) {
  const double index = f * (double)(n - 1);
  const gsize lhs = (gsize)(int)index;
  const double delta = index - (double)lhs;
  return lhs == n - 1 ? at_lhs : (1 - delta) * at_lhs + delta * after_lhs;
}

/* results_wait_stats over the concatenation of the pools' waits, each array already
 * sorted, without a copy: the arrays are walked merged, in sorted order, so that the mean
 * adds them in the order GSL's would (gsl_stats_mean's running mean in long double) and
 * the quantiles read the same order statistics. n > 0. */
static void results_merged_wait_stats(const results *r, gsize n, gsize zeros, double *mean_s,
                                      double *p50_s, double *p95_s, double *max_s) {
  guint k = r->job_waits->len;
  gsize *at = g_new0(gsize, k);
  const gsize l50 = (gsize)(int)(0.5 * (double)(n - 1)), l95 = (gsize)(int)(0.95 * (double)(n - 1));
  double order[4] = {0, 0, 0, 0}, v = 0; /* values at l50, l50 + 1, l95, l95 + 1 */
  long double mean = 0;
  for (gsize i = 0; i < n; i++) {
    guint best = k;
    for (guint q = 0; i >= zeros && q < k; q++) { /* the zero waits come first */
      const GArray *w = g_ptr_array_index(r->job_waits, q);
      if (at[q] < w->len &&
          (best == k || g_array_index(w, double, at[q]) < v)) {
        best = q;
        v = g_array_index(w, double, at[q]);
      }
    }
    if (best < k) at[best]++;
    else v = 0;
    mean += (v - mean) / (i + 1);
    if (i == l50) order[0] = v;
    if (i == l50 + 1) order[1] = v;
    if (i == l95) order[2] = v;
    if (i == l95 + 1) order[3] = v;
  }
  g_free(at);
  *mean_s = (double)mean;
  *p50_s = results_quantile(0.5, n, order[0], order[1]);
  *p95_s = results_quantile(0.95, n, order[2], order[3]);
  *max_s = v;
}

/* A job counts for queue-wait statistics once it has started (first start known). */
static gboolean results_job_started(const job_result *j) {
  return isfinite(j->start_s) && isfinite(j->wait_s);
}

/* The waits of pool_index's started jobs (slot pool_index + 1; 0 holds unrouted ones). */
static GArray *results_waits_of(results *r, int pool_index) {
  guint slot = pool_index < 0 ? 0 : (guint)pool_index + 1;
  while (r->job_waits->len <= slot)
    g_ptr_array_add(r->job_waits, g_array_new(FALSE, FALSE, sizeof(double)));
  return g_ptr_array_index(r->job_waits, slot);
}

/* Whether w is +0.0 exactly: most started jobs never wait, and those are only counted. */
static gboolean results_wait_is_zero(double w) {
  guint64 bits;
  memcpy(&bits, &w, sizeof bits);
  return bits == 0;
}

static guint64 results_zeros_of(const results *r, guint slot) {
  return slot < r->job_waits_zero->len ? g_array_index(r->job_waits_zero, guint64, slot) : 0;
}

static void results_add_wait(results *r, int pool_index, double wait_s) {
  GArray *w = results_waits_of(r, pool_index);
  if (!results_wait_is_zero(wait_s)) {
    g_array_append_val(w, wait_s);
    return;
  }
  guint slot = pool_index < 0 ? 0 : (guint)pool_index + 1;
  if (r->job_waits_zero->len <= slot) g_array_set_size(r->job_waits_zero, slot + 1);
  g_array_index(r->job_waits_zero, guint64, slot)++;
}

void results_track_priorities(results *r) {
  if (!r->prio_waits) r->prio_waits = g_array_new(FALSE, TRUE, sizeof(results_prio_waits));
}

/* The entry of priority p (created at its first job; beyond the bound, `other`). */
static results_prio_waits *results_prio_slot(results *r, int32_t p) {
  GArray *a = r->prio_waits;
  for (guint i = 0; i < a->len; i++) {
    results_prio_waits *pw = &g_array_index(a, results_prio_waits, i);
    if (!pw->other && pw->priority == p) return pw;
  }
  gboolean other = a->len >= RESULTS_MAX_PRIORITIES;
  if (other) {
    results_prio_waits *last = &g_array_index(a, results_prio_waits, a->len - 1);
    if (last->other) return last;
  }
  results_prio_waits pw = {.priority = other ? 0 : p, .other = other,
                           .waits = g_array_new(FALSE, FALSE, sizeof(double))};
  g_array_append_val(a, pw);
  return &g_array_index(a, results_prio_waits, a->len - 1);
}

static void results_add_prio(results *r, const job_result *j) {
  results_prio_waits *pw = results_prio_slot(r, j->priority);
  pw->jobs++;
  if (!results_job_started(j)) return;
  if (results_wait_is_zero(j->wait_s)) pw->zeros++;
  else g_array_append_val(pw->waits, j->wait_s);
}

/* mean, median, p95 and max of `zeros` zero waits and the values of w (sorted in place). */
static void results_stats_with_zeros(GArray *w, guint64 zeros, double *mean_s, double *p50_s,
                                     double *p95_s, double *max_s) {
  if (!zeros) {
    results_wait_stats(w ? (double *)(void *)w->data : NULL, w ? w->len : 0, mean_s, p50_s,
                       p95_s, max_s);
    return;
  }
  /* the zero waits laid out before the others for GSL, the others sorted in place too
   * (results_compute_totals walks them merged) */
  gsize n = (gsize)zeros + (w ? w->len : 0);
  double *all = g_new0(double, n);
  if (w && w->len) {
    gsl_sort((double *)(void *)w->data, 1, w->len);
    memcpy(all + zeros, w->data, w->len * sizeof(double));
  }
  results_wait_stats(all, n, mean_s, p50_s, p95_s, max_s);
  g_free(all);
}

static int results_prio_cmp(gconstpointer a, gconstpointer b, gpointer data) {
  const GArray *all = data;
  const results_prio_waits *x = &g_array_index(all, results_prio_waits, *(const guint *)a);
  const results_prio_waits *y = &g_array_index(all, results_prio_waits, *(const guint *)b);
  if (x->other != y->other) return x->other ? 1 : -1;
  return (x->priority < y->priority) - (x->priority > y->priority);
}

GArray *results_prio_order(const results *r) {
  GArray *order = g_array_new(FALSE, FALSE, sizeof(guint));
  for (guint i = 0; r->prio_waits && i < r->prio_waits->len; i++) g_array_append_val(order, i);
  g_array_sort_with_data(order, results_prio_cmp, r->prio_waits);
  return order;
}

void results_add_job(results *r, const job_result *j, gboolean keep) {
  g_return_if_fail(r != NULL && j != NULL);
  r->job_count++;
  if (r->prio_waits) results_add_prio(r, j);
  if ((guint)j->outcome < OUTCOME_COUNT) r->job_outcomes[j->outcome]++;
  if (results_job_started(j)) results_add_wait(r, j->pool_index, j->wait_s);
  if (isfinite(j->straggler_delay_s)) r->straggler_delay_h += j->straggler_delay_s / 3600.0;
  /* slowdown is defined (finite) only for the kinds that run their work */
  if (j->outcome == OUTCOME_COMPLETED && isfinite(j->slowdown)) {
    r->slowdown_sum += j->slowdown;
    r->slowdown_n++;
  }
  if (keep) g_array_append_vals(r->jobs, j, 1);
}

void results_fill_pool_waits(results *r) {
  g_return_if_fail(r != NULL);
  for (guint p = 0; p < r->pools->len; p++) {
    pool_result *pr = &g_array_index(r->pools, pool_result, p);
    GArray *w = p + 1 < r->job_waits->len ? g_ptr_array_index(r->job_waits, p + 1) : NULL;
    results_stats_with_zeros(w, results_zeros_of(r, p + 1), &pr->wait_mean_s, &pr->wait_p50_s,
                             &pr->wait_p95_s, &pr->wait_max_s);
  }
  for (guint i = 0; r->prio_waits && i < r->prio_waits->len; i++) {
    results_prio_waits *pw = &g_array_index(r->prio_waits, results_prio_waits, i);
    results_stats_with_zeros(pw->waits, pw->zeros, &pw->mean_s, &pw->p50_s, &pw->p95_s,
                             &pw->max_s);
  }
}

/* part / whole, NAN when whole is not positive (a fraction of nothing is undefined). */
static double results_frac(double part, double whole) {
  return whole > 0 ? part / whole : NAN;
}

void results_compute_totals(const results *r, results_totals *t) {
  g_return_if_fail(r != NULL && t != NULL);
  memset(t, 0, sizeof *t);

  double provisioned_s = 0, allocated_s = 0, busy_s = 0, sm_active_s = 0, lost_s = 0;
  for (guint i = 0; i < r->pools->len; i++) {
    const pool_result *p = &g_array_index(r->pools, pool_result, i);
    t->gpus += p->gpus;
    provisioned_s += p->provisioned_gpu_s;
    allocated_s += p->allocated_gpu_s;
    busy_s += p->busy_gpu_s;
    sm_active_s += p->sm_active_gpu_s;
    t->cost += p->cost;
    t->oom_kills += p->oom_kills;
    t->innocent_victims += p->innocent_victims;
    t->fault_victims += p->fault_victims;
    t->crashes += p->crashes;
    t->restarts += p->restarts;
    t->evictions += p->evictions;
    t->reconfigurations += p->reconfigurations;
    lost_s += p->work_lost_gpu_s;
    t->straggler_wait_gpu_h += p->straggler_wait_gpu_s / 3600.0;
  }
  t->provisioned_gpu_h = provisioned_s / 3600.0;
  t->allocated_gpu_h = allocated_s / 3600.0;
  t->busy_gpu_h = busy_s / 3600.0;
  t->sm_active_gpu_h = sm_active_s / 3600.0;
  t->work_lost_gpu_h = lost_s / 3600.0;
  t->allocated_frac = results_frac(allocated_s, provisioned_s);
  t->busy_frac = results_frac(busy_s, provisioned_s);
  t->sm_active_frac = results_frac(sm_active_s, provisioned_s);
  /* With nothing provisioned there is nothing allocated either: all spend is idle. */
  t->idle_cost = isnan(t->allocated_frac) ? t->cost : t->cost * (1.0 - t->allocated_frac);
  t->cost_per_busy_gpu_h = busy_s > 0 ? t->cost / t->busy_gpu_h : NAN;

  t->jobs = r->job_count;
  t->completed = r->job_outcomes[OUTCOME_COMPLETED];
  t->failed = r->job_outcomes[OUTCOME_FAILED];
  t->unplaceable = r->job_outcomes[OUTCOME_UNPLACEABLE];
  t->running = r->job_outcomes[OUTCOME_RUNNING];
  t->queued = r->job_outcomes[OUTCOME_QUEUED];
  t->not_submitted = r->job_outcomes[OUTCOME_NOT_SUBMITTED];
  t->straggler_delay_h = r->straggler_delay_h;
  /* every started job's wait, whatever its pool: sorted first, so the order they were
   * added in does not matter */
  gsize zeros = 0, nwaits = 0;
  gboolean sorted = TRUE;
  for (guint k = 0; k < r->job_waits_zero->len; k++) zeros += results_zeros_of(r, k);
  for (guint k = 0; k < r->job_waits->len; k++) {
    const GArray *w = g_ptr_array_index(r->job_waits, k);
    nwaits += w->len;
    sorted = sorted && results_waits_sorted(w);
  }
  nwaits += zeros;
  t->slowdown_mean = r->slowdown_n ? r->slowdown_sum / r->slowdown_n : NAN;
  if (sorted && nwaits) { /* a frozen run's (results_fill_pool_waits): no copy */
    results_merged_wait_stats(r, nwaits, zeros, &t->wait_mean_s, &t->wait_p50_s,
                              &t->wait_p95_s, &t->wait_max_s);
    return;
  }
  double *waits = g_new0(double, nwaits ? nwaits : 1); /* the zero waits first */
  gsize at = zeros;
  for (guint k = 0; k < r->job_waits->len; k++) {
    const GArray *w = g_ptr_array_index(r->job_waits, k);
    if (w->len) memcpy(waits + at, w->data, w->len * sizeof(double));
    at += w->len;
  }
  results_wait_stats(waits, nwaits, &t->wait_mean_s, &t->wait_p50_s, &t->wait_p95_s,
                     &t->wait_max_s);
  g_free(waits);
}

double results_node_h(const results *r) {
  double s = 0;
  for (guint i = 0; i < r->pools->len; i++) s += g_array_index(r->pools, pool_result, i).node_s;
  return s / 3600.0;
}

double results_showback_total(const results *r) {
  g_return_val_if_fail(r != NULL, NAN);
  double sum = 0;
  for (guint i = 0; i < r->tenants->len; i++)
    sum += g_array_index(r->tenants, tenant_result, i).cost;
  return sum;
}

void results_oversub_total(const results *r, results_oversub *out) {
  *out = (results_oversub){0};
  for (guint i = 0; i < r->gpus->len; i++) out->gpu_s += g_array_index(r->gpus, gpu_result, i).oversub_s;
  for (guint i = 0; i < r->pools->len; i++) {
    const pool_result *p = &g_array_index(r->pools, pool_result, i);
    out->jobs += p->oversub_jobs;
    out->job_gpu_s += p->oversub_gpu_s;
    out->slow_gpu_s += p->oversub_slow_gpu_s;
  }
}

void results_blast_total(const results *r, gboolean all, guint32 out[BLAST_EFFECT_COUNT]) {
  for (int e = 0; e < BLAST_EFFECT_COUNT; e++) out[e] = 0;
  for (guint i = 0; i < r->blast->len; i++) {
    const blast_row *b = &g_array_index(r->blast, blast_row, i);
    if (!all && (!strcmp(b->from, b->to) || !strcmp(b->from, BLAST_NO_SOURCE))) continue;
    for (int e = 0; e < BLAST_EFFECT_COUNT; e++) out[e] += b->n[e];
  }
}

void results_culls_total(const results *r, results_culls *out) {
  *out = (results_culls){0};
  for (guint i = 0; i < r->pools->len; i++) {
    const results_culls *c = &g_array_index(r->pools, pool_result, i).culls;
    out->culled += c->culled;
    out->returns += c->returns;
    out->freed_gpu_s += c->freed_gpu_s;
    out->return_wait_s += c->return_wait_s;
  }
}

void results_sched_total(const results *r, results_sched *out) {
  *out = (results_sched){0};
  for (guint i = 0; i < r->tenants->len; i++) {
    const tenant_result *t = &g_array_index(r->tenants, tenant_result, i);
    out->preempted += t->preempted;
    out->reclaimed += t->reclaimed;
    out->preempt_lost_gpu_s += t->preempt_lost_gpu_s;
    out->quota_gpu_s += t->quota_gpu_s;
    out->borrowed_gpu_s += t->borrowed_gpu_s;
  }
}

/* ---- SLO headline (inference services) ---- */

static gboolean results_service_judged(const service_result *s) {
  return s->met >= 0 && isfinite(s->attainment_pct);
}

/* Adds one service's row to the headline (attainment_pct aside). */
static void results_slo_add(results_slo *out, const service_result *s) {
  out->services++;
  if (!results_service_judged(s)) return;
  out->judged++;
  if (s->met == 1) out->met++;
  out->requests += s->requests;
  out->violations += s->violations;
  out->violation_minutes += s->violation_minutes;
}

void results_slo_summary(const results *r, results_slo *out) {
  g_return_if_fail(r != NULL && out != NULL);
  memset(out, 0, sizeof *out);
  if (r->services_streamed) *out = r->slo_streamed;
  for (guint i = 0; !r->services_streamed && i < r->services->len; i++)
    results_slo_add(out, &g_array_index(r->services, service_result, i));
  double n = (double)out->requests;
  out->attainment_pct = out->requests ? 100.0 * (n - (double)out->violations) / n : NAN;
}

static gint results_worse(gconstpointer a, gconstpointer b, gpointer ud) {
  const results *r = ud;
  guint x = *(const guint *)a, y = *(const guint *)b;
  const service_result *sx = &g_array_index(r->services, service_result, x);
  const service_result *sy = &g_array_index(r->services, service_result, y);
  if (sx->attainment_pct != sy->attainment_pct)
    return sx->attainment_pct < sy->attainment_pct ? -1 : 1;
  if (sx->violation_minutes != sy->violation_minutes)
    return sx->violation_minutes > sy->violation_minutes ? -1 : 1;
  return x < y ? -1 : (x > y);
}

guint results_slo_worst(const results *r, guint n, guint *idx_out) {
  g_return_val_if_fail(r != NULL && (n == 0 || idx_out != NULL), 0);
  g_return_val_if_fail(!r->services_streamed || n <= RESULTS_SLO_WORST, 0);
  GArray *missed = g_array_new(FALSE, FALSE, sizeof(guint));
  for (guint i = 0; i < r->services->len; i++) {
    const service_result *s = &g_array_index(r->services, service_result, i);
    if (results_service_judged(s) && s->met == 0) g_array_append_val(missed, i);
  }
  g_array_sort_with_data(missed, results_worse, (gpointer)r);
  guint k = MIN(n, missed->len);
  for (guint i = 0; i < k; i++) idx_out[i] = g_array_index(missed, guint, i);
  g_array_unref(missed);
  return k;
}

/* Of the kept rows among the worst, the one that sorts last (the least bad); -1 if fewer
 * than RESULTS_SLO_WORST are. */
static int results_worst_last(const results *r) {
  guint n = 0;
  int last = -1;
  for (guint i = 0; i < r->services_keep->len; i++) { /* the rows marked so far */
    if (!(r->services_keep->data[i] & 1)) continue;
    n++;
    if (last < 0 || results_worse(&i, &(guint){(guint)last}, (gpointer)r) > 0) last = (int)i;
  }
  return n < RESULTS_SLO_WORST ? -1 : last;
}

/* Marks row i (just streamed) with why a summary names it (0: none); a row it displaces
 * from the worst loses that mark. */
static void results_service_keep(results *r, guint i) {
  const service_result *s = &g_array_index(r->services, service_result, i);
  guint8 why = 0;
  if (s->llm && r->llm_services++ < RESULTS_LLM_SHOWN) why |= 2;
  if (results_service_judged(s) && s->met == 0) {
    int last = results_worst_last(r);
    if (last < 0 || results_worse(&i, &(guint){(guint)last}, (gpointer)r) < 0) {
      why |= 1;
      if (last >= 0) r->services_keep->data[last] &= (guint8)~1u; /* no longer among them */
    }
  }
  g_byte_array_set_size(r->services_keep, i + 1);
  r->services_keep->data[i] = why;
}

void results_services_streamed(results *r, guint from) {
  r->services_streamed = TRUE;
  if (!r->services_keep) r->services_keep = g_byte_array_new();
  g_assert(r->services_keep->len == from);
  for (guint i = from; i < r->services->len; i++) {
    service_result *s = &g_array_index(r->services, service_result, i);
    results_slo_add(&r->slo_streamed, s);
    results_service_keep(r, i);
    results_service_clear(s); /* its histograms are out: no summary reads them */
  }
  /* drop what no summary names any more, keeping the order */
  guint k = 0;
  for (guint i = 0; i < r->services->len; i++) {
    if (!r->services_keep->data[i]) continue;
    if (k != i) {
      g_array_index(r->services, service_result, k) = g_array_index(r->services, service_result, i);
      memset(&g_array_index(r->services, service_result, i), 0, sizeof(service_result));
      r->services_keep->data[k] = r->services_keep->data[i];
    }
    k++;
  }
  g_array_set_size(r->services, k);
  g_byte_array_set_size(r->services_keep, k);
}

void results_services_move(results *r, results *from) {
  g_return_if_fail(r != NULL && from != NULL);
  g_assert(r->services->len == 0 && !r->services_streamed && !r->services_keep);
  GArray *rows = r->services;
  r->services = from->services;
  from->services = rows;
  r->services_streamed = from->services_streamed;
  r->slo_streamed = from->slo_streamed;
  r->llm_services = from->llm_services;
  r->services_keep = g_steal_pointer(&from->services_keep);
}
