/* metrics.c: the one interval grid of a run and what is observed on it: pool and GPU gauges
 * and their integrals, the pool and per-GPU series, the tenants' partition of the GPUs'
 * gauges (integrated lazily, per tenant), SLO violations by interval, the events log, the
 * sums over the jobs' rows (metrics_rowsums), and the pricing of pools and tenants at the
 * freeze. It knows nothing of
 * jobs' progress, placement or strategies: the simulator reports changes to it. */
#include "metrics.h"
#include "priority.h"
#include "kueue.h"
#include "histogram.h"
#include <math.h>
#include <string.h>

typedef struct metrics_tenant_state {
  const char *name;
  int64_t fx[3];                  /* gauges now: allocated, busy, SM-active GPUs, fixed point */
  int64_t *pool_alloc_fx;         /* allocated GPUs per pool, fixed point (n_pools) */
  guint32 residents;
  sim_time t_last;
  guint64 cell_b;                 /* the interval being integrated (cell_open), its bounds, */
  sim_time cell_start, cell_end;  /* and its exact integrals so far: written to cells when */
  metrics_i128 cell_alloc, cell_busy; /* integration leaves it (tenant_cell_close) */
  gboolean cell_open;
  metrics_ring ahead;             /* busy of bursts accounted ahead, by interval (first value) */
  metrics_i128 *int_pool_alloc;   /* x ns, exact: allocated per pool (n_pools; their sum is
                                   * the tenant's, and each pool's price makes the cost), up
                                   * to pool_since[p]: integrated only when that pool's part
                                   * changes (metrics_tenant_change) and at the freeze */
  sim_time *pool_since;
  metrics_i128 int_busy, int_sm;
  GArray *cells;                  /* tenant_cell by interval, grown on use */
  guint32 jobs;
  double licence_cost;
  guint32 preempted, preempts_caused; /* from the rows (metrics_rowsums) */
  guint32 reclaimed, reclaims_caused;
  double preempt_lost_gpu_s;
  double quota_gpu_s, borrowed_gpu_s;
  guint32 spot_evictions;         /* spot interruptions' evictions of its jobs, and the */
  double spot_lost_gpu_s;         /* work they lost x workers (from the rows) */
  results_culls culls;            /* the rows' sums (metrics_rowsums_hand_over) */
  guint32 blast_caused, blast_suffered; /* victims in other tenants, from other tenants */
} metrics_tenant_state;

struct metrics {
  const scenario *sc;
  results *r;
  sim_time interval_ns;
  gboolean gpu_series;
  guint n_pools;
  metrics_pool *pools;
  double *licence_per_worker_hour; /* per pool, < 0: none */
  double *price_factor;      /* per pool: its GPUs' price x this (spot capacity), default 1 */
  double *licensed_worker_s;       /* per pool */
  GHashTable *tenant_index;        /* name -> index + 1 */
  GArray *tenants;                 /* metrics_tenant_state */
  GHashTable *blast;               /* guint64 (kind, from + 1, to) -> guint32[effects] */
  metrics_ts_sink ts_sink;         /* NULL: the pools keep their rows (metrics_set_ts_sink) */
  void *ts_sink_data;
  pool_result *row_pools;          /* per pool: the rows' job counts and straggler sum, once
                                    * handed over (metrics_rowsums_hand_over); NULL before */
};

void metrics_set_ts_sink(metrics *m, metrics_ts_sink sink, void *data) {
  m->ts_sink = sink;
  m->ts_sink_data = data;
}

/* ---- amounts by interval ahead (metrics_burst) ---- */

static void ring_free(metrics_ring *r) { g_clear_pointer(&r->v, g_free); }

/* Interval b's two values (b >= base), the ring grown to hold it. */
static metrics_i128 *ring_slot(metrics_ring *r, guint64 b) {
  g_assert(b >= r->base);
  if (!r->v || b - r->base > r->mask) {
    guint32 old_n = r->v ? r->mask + 1 : 0, n = old_n ? old_n : 64;
    while (b - r->base >= n) n *= 2;
    metrics_i128 *v = g_new0(metrics_i128, 2 * (gsize)n);
    for (guint64 k = r->base; k < r->base + old_n; k++) {
      v[2 * (k & (n - 1))] = r->v[2 * (k & r->mask)];
      v[2 * (k & (n - 1)) + 1] = r->v[2 * (k & r->mask) + 1];
    }
    g_free(r->v);
    r->v = v;
    r->mask = n - 1;
  }
  return &r->v[2 * (b & r->mask)];
}

/* Interval b is closing: its two values are taken out (into out[], zero without any), and
 * the ring starts at b + 1. */
static void ring_take(metrics_ring *r, guint64 b, metrics_i128 out[2]) {
  out[0] = out[1] = 0;
  if (r->v && b >= r->base && b - r->base <= r->mask) {
    metrics_i128 *v = &r->v[2 * (b & r->mask)];
    out[0] = v[0];
    out[1] = v[1];
    v[0] = v[1] = 0;
  }
  if (b + 1 > r->base) r->base = b + 1;
}

/* Adds d0 x ns and d1 x ns over [t0, t1) to the intervals it crosses. */
static void ring_add(metrics_ring *r, sim_time iv, sim_time t0, sim_time t1, int64_t d0,
                     int64_t d1) {
  if (r->v && t0 >= r->hint_start && t1 <= r->hint_end && r->hint >= r->base) {
    metrics_i128 *v = &r->v[2 * (r->hint & r->mask)]; /* inside the last one */
    v[0] += (metrics_i128)d0 * (t1 - t0);
    v[1] += (metrics_i128)d1 * (t1 - t0);
    return;
  }
  guint64 b;
  if (r->v && t0 >= r->hint_end && t0 < r->hint_end + 4 * iv) {
    /* a few intervals after the last one (the next burst of a walk): steps, no division */
    b = r->hint + 1;
    for (sim_time end = r->hint_end + iv; t0 >= end; end += iv) b++;
  } else {
    b = (guint64)(t0 / iv);
  }
  for (sim_time at = t0; at < t1; b++) {
    sim_time upto = MIN(t1, (sim_time)(b + 1) * iv);
    metrics_i128 *v = ring_slot(r, b);
    v[0] += (metrics_i128)d0 * (upto - at);
    v[1] += (metrics_i128)d1 * (upto - at);
    r->hint = b;
    r->hint_start = (sim_time)b * iv;
    r->hint_end = (sim_time)(b + 1) * iv;
    at = upto;
  }
}

metrics *metrics_new(const scenario *sc, results *r, gboolean gpu_series) {
  metrics *m = g_new0(metrics, 1);
  m->sc = sc;
  m->r = r;
  m->interval_ns = sc->interval_ns > 0 ? sc->interval_ns : 60 * SIM_NS_PER_S;
  m->gpu_series = gpu_series;
  m->n_pools = sc->pools->len;
  m->pools = g_new0(metrics_pool, m->n_pools ? m->n_pools : 1);
  m->licence_per_worker_hour = g_new(double, m->n_pools ? m->n_pools : 1);
  m->price_factor = g_new(double, m->n_pools ? m->n_pools : 1);
  m->licensed_worker_s = g_new0(double, m->n_pools ? m->n_pools : 1);
  for (guint i = 0; i < m->n_pools; i++) {
    const pool_spec *ps = scenario_pool(sc, i);
    metrics_pool *mp = &m->pools[i];
    mp->m = m;
    mp->index = i;
    mp->card_bytes = ps->gpu->mem_bytes;
    mp->ts = g_array_new(FALSE, FALSE, sizeof(ts_row));
    mp->slo_violations = g_array_new(FALSE, TRUE, sizeof(guint64));
    if (gpu_series) {
      mp->gpu_series = g_array_new(FALSE, FALSE, sizeof(gpu_series_row));
      mp->gpu_series_jobs = g_array_new(FALSE, FALSE, sizeof(gpu_series_job));
    }
    m->licence_per_worker_hour[i] = -1;
    m->price_factor[i] = 1.0;
  }
  m->tenant_index = g_hash_table_new(g_str_hash, g_str_equal);
  m->tenants = g_array_new(FALSE, TRUE, sizeof(metrics_tenant_state));
  m->blast = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free);
  return m;
}

void metrics_free(metrics *m) {
  if (!m) return;
  for (guint i = 0; i < m->n_pools; i++) {
    metrics_pool *mp = &m->pools[i];
    metrics_pool_release_gpus(mp);
    if (mp->ts) g_array_unref(mp->ts); /* NULL once frozen */
    ring_free(&mp->ahead);
    if (mp->slo_violations) g_array_unref(mp->slo_violations);
    if (mp->gpu_series) g_array_unref(mp->gpu_series);
    if (mp->gpu_series_jobs) g_array_unref(mp->gpu_series_jobs);
  }
  for (guint t = 0; t < m->tenants->len; t++) {
    metrics_tenant_state *ts = &g_array_index(m->tenants, metrics_tenant_state, t);
    if (ts->cells) g_array_unref(ts->cells);
    g_free(ts->pool_alloc_fx);
    g_free(ts->int_pool_alloc);
    g_free(ts->pool_since);
    ring_free(&ts->ahead);
  }
  g_array_unref(m->tenants);
  g_hash_table_destroy(m->tenant_index);
  g_hash_table_destroy(m->blast);
  g_free(m->pools);
  g_free(m->licence_per_worker_hour);
  g_free(m->price_factor);
  g_free(m->licensed_worker_s);
  g_free(m->row_pools);
  g_free(m);
}

void metrics_pool_set_gpus(metrics_pool *mp, guint32 n_gpus) {
  metrics_pool_use_gpus(mp, n_gpus, NULL, 0);
}

void metrics_pool_use_gpus(metrics_pool *mp, guint32 n_gpus, metrics_gpu *first, size_t stride) {
  g_assert(!mp->gpus);
  g_assert(!first || stride >= sizeof(metrics_gpu));
  mp->n_gpus = n_gpus;
  mp->gpus_owned = first == NULL;
  mp->gpus = first ? first : g_new0(metrics_gpu, n_gpus ? n_gpus : 1);
  mp->gpu_stride = first ? stride : sizeof(metrics_gpu);
  for (guint32 k = 0; k < n_gpus; k++) metrics_pool_gpu(mp, k)->over_from = INT64_MAX;
  for (guint32 k = 0; mp->m->gpu_series && k < n_gpus; k++) {
    metrics_pool_gpu(mp, k)->ser_jobs = g_array_new(FALSE, FALSE, sizeof(gpu_series_job));
    metrics_pool_gpu(mp, k)->cur_jobs = g_array_new(FALSE, FALSE, sizeof(gpu_series_job));
  }
}

void metrics_pool_release_gpus(metrics_pool *mp) {
  if (!mp->gpus) return;
  for (guint32 k = 0; mp->gpu_series && k < mp->n_gpus; k++) {
    g_array_unref(metrics_pool_gpu(mp, k)->ser_jobs);
    g_array_unref(metrics_pool_gpu(mp, k)->cur_jobs);
  }
  if (mp->gpus_owned) g_free(mp->gpus);
  mp->gpus = NULL;
}

sim_time metrics_interval_ns(const metrics *m) { return m->interval_ns; }

guint64 metrics_bucket(const metrics *m, sim_time t) {
  return t > 0 ? (guint64)(t / m->interval_ns) : 0;
}

metrics_pool *metrics_pool_get(metrics *m, guint32 pool) {
  g_assert(pool < m->n_pools);
  return &m->pools[pool];
}

/* ---- pools and GPUs ---- */

static void metrics_pool_emit(metrics_pool *mp, sim_time end);

/* A gauge in METRICS_FRAG_BITS fixed point (llround: half away from zero). */
static int64_t metrics_frag_fixed(double v) {
  return (int64_t)llround(v * (double)(INT64_C(1) << METRICS_FRAG_BITS));
}

void metrics_pool_integrate_to(metrics_pool *mp, sim_time now) {
  sim_time interval = mp->m->interval_ns;
  int64_t frag = mp->frag_on ? metrics_frag_fixed(mp->frag_milli) : 0;
  int64_t idle = mp->frag_on ? metrics_frag_fixed(mp->free_milli) : 0;
  while (mp->t_last < now) {
    sim_time bucket_end = mp->bucket_start + interval;
    sim_time upto = now < bucket_end ? now : bucket_end;
    sim_time dt = upto - mp->t_last;
    mp->acc.alloc += (metrics_i128)mp->sum_alloc * dt;
    mp->acc.busy += (metrics_i128)mp->sum_busy * dt;
    mp->acc.sm += (metrics_i128)mp->sum_sm * dt;
    mp->acc.mem += (metrics_i128)mp->sum_mem * dt;
    mp->acc.queued += (metrics_i128)mp->queued * dt;
    mp->acc.running += (metrics_i128)mp->running * dt;
    if (mp->frag_on) {
      mp->acc.frag += (metrics_i128)frag * dt;
      mp->acc.idle += (metrics_i128)idle * dt;
    }
    mp->drain_gpu_ns += (metrics_i128)mp->draining * dt;
    mp->down_gpu_ns += (metrics_i128)mp->down * dt;
    mp->unprov_gpu_ns += (metrics_i128)mp->unprovisioned * dt;
    mp->t_last = upto;
    if (upto == bucket_end) {
      metrics_pool_emit(mp, bucket_end);
      mp->bucket_start = bucket_end;
    }
  }
}

/* A job once per GPU and interval: its first instance there stays. */
static void metrics_jobs_add_unique(GArray *jobs, gpu_series_job job) {
  for (guint i = 0; i < jobs->len; i++)
    if (g_array_index(jobs, gpu_series_job, i).job == job.job) return;
  g_array_append_val(jobs, job);
}

/* Per-GPU series: one row per GPU and interval ending at `end`, idle or not (dcgm-exporter
 * exports every GPU; its gauges integrated up to `end` first), then the interval restarts. */
static void metrics_record_gpus(metrics_pool *mp, sim_time end) {
  double span = (double)(end - mp->bucket_start);
  for (guint32 i = 0; i < mp->n_gpus; i++) {
    metrics_gpu *g = metrics_pool_gpu(mp, i);
    metrics_gpu_integrate(g, end);
    double alloc = metrics_i128_value(g->int_alloc - g->ser_alloc);
    gpu_series_row row = {
        .pool = mp->index, .node = g->node, .gpu = g->local,
        .t_start_s = util_ns_to_seconds(mp->bucket_start), .t_end_s = util_ns_to_seconds(end),
        .allocated = alloc / span, .busy = metrics_i128_value(g->int_busy - g->ser_busy) / span,
        .sm_active = metrics_i128_value(g->int_sm - g->ser_sm) / span,
        .mem_gb = (double)(g->int_mem - g->ser_mem) / 1e9 / span,
        .peak_mem_gb = UTIL_GB(g->ser_peak_mem),
        .jobs_first = mp->gpu_series_jobs->len, .jobs_n = g->ser_jobs->len,
    };
    g_array_append_vals(mp->gpu_series_jobs, g->ser_jobs->data, g->ser_jobs->len);
    g_array_append_val(mp->gpu_series, row);
    g->ser_alloc = g->int_alloc;
    g->ser_busy = g->int_busy;
    g->ser_sm = g->int_sm;
    g->ser_mem = g->int_mem;
    g->ser_peak_mem = g->mem_bytes;
    g_array_set_size(g->ser_jobs, 0);
    for (guint k = 0; k < g->cur_jobs->len; k++)
      metrics_jobs_add_unique(g->ser_jobs, g_array_index(g->cur_jobs, gpu_series_job, k));
  }
}

/* Emits the row of the current interval ending at `end` and resets the accumulator. */
static void metrics_pool_emit(metrics_pool *mp, sim_time end) {
  if (end <= mp->bucket_start) return;
  if (mp->ahead.v) {
    metrics_i128 ahead[2];
    ring_take(&mp->ahead, metrics_bucket(mp->m, mp->bucket_start), ahead);
    mp->acc.busy += ahead[0];
    mp->acc.sm += ahead[1];
  }
  double span = (double)(end - mp->bucket_start);
  double n = mp->n_gpus ? (double)mp->n_gpus : 1.0;
  ts_row r = {
      .pool = mp->index,
      .t_start_s = util_ns_to_seconds(mp->bucket_start),
      .t_end_s = util_ns_to_seconds(end),
      .allocated = metrics_i128_value(mp->acc.alloc) / span / n,
      .busy = metrics_i128_value(mp->acc.busy) / span / n,
      .sm_active = metrics_i128_value(mp->acc.sm) / span / n,
      .mem_used_gb = (double)mp->acc.mem / span / 1e9,
      .queued = (double)mp->acc.queued / span,
      .running = (double)mp->acc.running / span,
      .frag_gpus = (double)mp->acc.frag / (double)(INT64_C(1) << METRICS_FRAG_BITS) / span /
                   METRICS_MILLI,
      .idle_gpus = (double)mp->acc.idle / (double)(INT64_C(1) << METRICS_FRAG_BITS) / span /
                   METRICS_MILLI,
  };
  if (mp->m->ts_sink) mp->m->ts_sink(mp->m->ts_sink_data, &r);
  else g_array_append_val(mp->ts, r);
  memset(&mp->acc, 0, sizeof mp->acc);
  if (mp->gpu_series) metrics_record_gpus(mp, end);
  mp->bucket_start = end;
}

void metrics_pool_close(metrics_pool *mp, sim_time end) {
  metrics_pool_integrate(mp, end);
  for (guint32 k = 0; k < mp->n_gpus; k++) metrics_gpu_integrate(metrics_pool_gpu(mp, k), end);
  metrics_pool_emit(mp, end);
}

void metrics_gpu_mem(metrics_pool *mp, guint32 gpu, int64_t delta_bytes) {
  metrics_gpu *g = metrics_pool_gpu(mp, gpu);
  g->mem_bytes += delta_bytes;
  mp->sum_mem += delta_bytes;
}

void metrics_gpu_note_peak(metrics_pool *mp, guint32 gpu) {
  metrics_gpu *g = metrics_pool_gpu(mp, gpu);
  /* more than the card holds is a demand that is about to fail, never memory in use */
  if (g->mem_bytes > mp->card_bytes) return;
  if (g->mem_bytes > g->peak_mem) g->peak_mem = g->mem_bytes;
  if (g->mem_bytes > g->ser_peak_mem) g->ser_peak_mem = g->mem_bytes;
}

void metrics_gpu_attach(metrics_pool *mp, guint32 gpu, guint32 job, guint32 inst) {
  metrics_gpu *g = metrics_pool_gpu(mp, gpu);
  g->jobs_hosted++;
  if (!g->cur_jobs) return;
  gpu_series_job e = {job, inst};
  metrics_jobs_add_unique(g->ser_jobs, e);
  g_array_append_val(g->cur_jobs, e);
}

void metrics_gpu_detach(metrics_pool *mp, guint32 gpu, guint32 job) {
  metrics_gpu *g = metrics_pool_gpu(mp, gpu);
  if (!g->cur_jobs) return;
  for (guint i = 0; i < g->cur_jobs->len; i++)
    if (g_array_index(g->cur_jobs, gpu_series_job, i).job == job) {
      g_array_remove_index(g->cur_jobs, i); /* keeps arrival order */
      return;
    }
  g_assert_not_reached();
}

void metrics_gpu_oom(metrics_pool *mp, guint32 gpu) { metrics_pool_gpu(mp, gpu)->oom_events++; }

void metrics_pool_set_oversub(metrics_pool *mp, int64_t card_bytes, int64_t capacity_bytes) {
  mp->card_bytes = capacity_bytes;
  for (guint32 k = 0; k < mp->n_gpus; k++) metrics_pool_gpu(mp, k)->over_from = card_bytes;
}

void metrics_slo_violations(metrics *m, guint32 pool, guint64 bucket, guint64 n) {
  if (!n) return;
  GArray *a = metrics_pool_get(m, pool)->slo_violations;
  if (a->len <= bucket) g_array_set_size(a, (guint)bucket + 1);
  g_array_index(a, guint64, bucket) += n;
}

/* ---- tenants ---- */

guint32 metrics_tenant(metrics *m, const char *name) {
  gpointer idx;
  if (g_hash_table_lookup_extended(m->tenant_index, name, NULL, &idx))
    return GPOINTER_TO_UINT(idx) - 1;
  metrics_tenant_state t = {.name = name,
                            .pool_alloc_fx = g_new0(int64_t, MAX(1u, m->n_pools)),
                            .int_pool_alloc = g_new0(metrics_i128, MAX(1u, m->n_pools)),
                            .pool_since = g_new0(sim_time, MAX(1u, m->n_pools))};
  g_array_append_val(m->tenants, t);
  g_hash_table_insert(m->tenant_index, (gpointer)name, GUINT_TO_POINTER(m->tenants->len));
  return m->tenants->len - 1;
}

/* ---- blast radius ---- */

/* The key of (kind, from, to): 8 bits of kind, 28 of from + 1 (0: no tenant), 28 of to. */
static guint64 blast_key(blast_kind kind, guint32 from, guint32 to) {
  guint64 f = from == METRICS_NO_TENANT ? 0 : (guint64)from + 1;
  g_assert(f < (1u << 28) && to < (1u << 28));
  return (guint64)kind << 56 | f << 28 | to;
}

void metrics_blast(metrics *m, blast_kind kind, guint32 from, guint32 to, blast_effect effect) {
  guint64 key = blast_key(kind, from, to);
  guint32 *n = g_hash_table_lookup(m->blast, &key);
  if (!n) {
    n = g_new0(guint32, BLAST_EFFECT_COUNT);
    g_hash_table_insert(m->blast, g_memdup2(&key, sizeof key), n);
  }
  n[effect]++;
  if (from == METRICS_NO_TENANT || from == to) return;
  g_array_index(m->tenants, metrics_tenant_state, from).blast_caused++;
  g_array_index(m->tenants, metrics_tenant_state, to).blast_suffered++;
}

static gint blast_row_cmp(gconstpointer a, gconstpointer b) {
  const blast_row *x = a, *y = b;
  if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
  int c = strcmp(x->from, y->from);
  return c ? c : strcmp(x->to, y->to);
}

/* The pairs into r->blast, by kind, then source, then victim tenant. */
static void metrics_freeze_blast(metrics *m) {
  GHashTableIter it;
  gpointer k, v;
  g_hash_table_iter_init(&it, m->blast);
  while (g_hash_table_iter_next(&it, &k, &v)) {
    guint64 key = *(const guint64 *)k;
    guint64 f = key >> 28 & ((1u << 28) - 1);
    guint32 to = (guint32)(key & ((1u << 28) - 1));
    blast_row row = {
        .kind = (blast_kind)(key >> 56),
        .from = f ? g_array_index(m->tenants, metrics_tenant_state, f - 1).name : BLAST_NO_SOURCE,
        .to = g_array_index(m->tenants, metrics_tenant_state, to).name,
    };
    memcpy(row.n, v, sizeof row.n);
    g_array_append_val(m->r->blast, row);
  }
  g_array_sort(m->r->blast, blast_row_cmp);
}

/* The open interval's integrals go to its cell (as doubles, once). */
static void tenant_cell_close(metrics_tenant_state *t) {
  if (!t->cell_open) return;
  if (!t->cells) t->cells = g_array_new(FALSE, TRUE, sizeof(tenant_cell));
  if (t->cells->len <= t->cell_b) g_array_set_size(t->cells, (guint)t->cell_b + 1);
  tenant_cell *c = &g_array_index(t->cells, tenant_cell, t->cell_b);
  if (t->ahead.v) {
    metrics_i128 ahead[2];
    ring_take(&t->ahead, t->cell_b, ahead);
    t->cell_busy += ahead[0];
  }
  c->alloc_gpu_ns = metrics_i128_value(t->cell_alloc);
  c->busy_gpu_ns = metrics_i128_value(t->cell_busy);
  t->cell_alloc = t->cell_busy = 0;
  t->cell_open = FALSE;
}

/* Interval b becomes the open one (the one before it closed). */
static void tenant_cell_open(metrics *m, metrics_tenant_state *t, guint64 b) {
  tenant_cell_close(t);
  t->cell_b = b;
  t->cell_start = (sim_time)b * m->interval_ns;
  t->cell_end = (sim_time)(b + 1) * m->interval_ns;
  t->cell_open = TRUE;
}

/* Integrates the tenant's gauges up to now, interval by interval. */
static inline G_ALWAYS_INLINE void metrics_tenant_integrate(metrics *m, metrics_tenant_state *t,
                                                            sim_time now) {
  if (now <= t->t_last) return;
  sim_time dt = now - t->t_last;
  if (t->fx[0] == 0 && t->fx[1] == 0 && t->fx[2] == 0) {
    t->t_last = now;
    return;
  }
  t->int_busy += (metrics_i128)t->fx[1] * dt;
  t->int_sm += (metrics_i128)t->fx[2] * dt;
  if (t->cell_open && t->t_last >= t->cell_start && now <= t->cell_end) {
    /* the common case, within the interval of the last change: the loop's one step */
    t->cell_alloc += (metrics_i128)t->fx[0] * dt;
    t->cell_busy += (metrics_i128)t->fx[1] * dt;
    t->t_last = now;
    return;
  }
  sim_time iv = m->interval_ns;
  for (sim_time at = t->t_last; at < now;) {
    guint64 b = (guint64)(at / iv);
    sim_time upto = MIN(now, (sim_time)(b + 1) * iv);
    if (!t->cell_open || t->cell_b != b) tenant_cell_open(m, t, b);
    t->cell_alloc += (metrics_i128)t->fx[0] * (upto - at);
    t->cell_busy += (metrics_i128)t->fx[1] * (upto - at);
    at = upto;
  }
  t->t_last = now;
}

void metrics_tenant_change(metrics *m, guint32 tenant, guint32 pool, sim_time now,
                           const int64_t d[3], int resident) {
  metrics_tenant_state *t = &g_array_index(m->tenants, metrics_tenant_state, tenant);
  metrics_tenant_integrate(m, t, now);
  t->residents = (guint32)((int)t->residents + resident);
  for (int k = 0; k < 3; k++) t->fx[k] += d[k];
  if (d[0]) { /* the pool's part changes: its allocated integral up to now */
    t->int_pool_alloc[pool] += (metrics_i128)t->pool_alloc_fx[pool] * (now - t->pool_since[pool]);
    t->pool_since[pool] = now;
    t->pool_alloc_fx[pool] += d[0];
  }
}

void metrics_burst(metrics *m, guint32 pool, guint32 gpu, guint32 tenant, sim_time t0,
                   sim_time t1, int64_t d_busy, int64_t d_sm) {
  if (t1 <= t0 || (!d_busy && !d_sm)) return;
  metrics_pool *mp = metrics_pool_get(m, pool);
  metrics_gpu *g = metrics_pool_gpu(mp, gpu);
  metrics_tenant_state *t = &g_array_index(m->tenants, metrics_tenant_state, tenant);
  g_assert(t0 >= mp->bucket_start && t0 >= t->t_last);
  g->int_busy += (metrics_i128)d_busy * (t1 - t0);
  g->int_sm += (metrics_i128)d_sm * (t1 - t0);
  t->int_busy += (metrics_i128)d_busy * (t1 - t0);
  t->int_sm += (metrics_i128)d_sm * (t1 - t0);
  ring_add(&mp->ahead, m->interval_ns, t0, t1, d_busy, d_sm);
  /* the tenant's cells: its ring starts at its open interval, or at the one it is in when
   * none is open (the slots before are empty: they were taken as their cells closed, and a
   * tenant's intervals with bursts are its busy ones, each opened and closed in turn) */
  guint64 first = t->cell_open ? t->cell_b : (guint64)(t->t_last / m->interval_ns);
  if (t->ahead.base < first) t->ahead.base = first;
  ring_add(&t->ahead, m->interval_ns, t0, t1, d_busy, 0);
}

/* ---- the sums over the jobs' rows ---- */

typedef struct rowsums_tenant {
  guint32 jobs;
  double licence_cost;
  guint32 preempted, preempts_caused, reclaimed, reclaims_caused;
  double preempt_lost_gpu_s;
  double quota_gpu_s, borrowed_gpu_s;
  guint32 spot_evictions;
  double spot_lost_gpu_s;
  results_culls culls;
} rowsums_tenant;

static void culls_add(results_culls *to, const results_culls *c) {
  to->culled += c->culled;
  to->returns += c->returns;
  to->freed_gpu_s += c->freed_gpu_s;
  to->return_wait_s += c->return_wait_s;
}

struct metrics_rowsums {
  guint n_pools;
  double *licence;           /* per pool: per worker-hour, < 0 none (a copy: m is not read) */
  pool_result *pools;        /* per pool: jobs_routed .. jobs_queued */
  double *straggler_ns;      /* per pool: straggler_wait_gpu_ns */
  double *licensed_worker_s; /* per pool */
  GArray *tenants;           /* rowsums_tenant per metrics tenant index */
};

metrics_rowsums *metrics_rowsums_new(const metrics *m) {
  metrics_rowsums *s = g_new0(metrics_rowsums, 1);
  s->n_pools = m ? m->n_pools : 0;
  guint np = MAX(1u, s->n_pools);
  s->licence = g_new(double, np);
  for (guint p = 0; p < np; p++) s->licence[p] = p < s->n_pools ? m->licence_per_worker_hour[p] : -1;
  s->pools = g_new0(pool_result, np);
  s->straggler_ns = g_new0(double, np);
  s->licensed_worker_s = g_new0(double, np);
  s->tenants = g_array_new(FALSE, TRUE, sizeof(rowsums_tenant));
  return s;
}

void metrics_rowsums_add(metrics_rowsums *s, const job_result *jr, guint32 tenant, double run_ns,
                         double straggler_ns) {
  int pool = jr->pool_index;
  g_assert(pool < (int)s->n_pools);
  if (pool >= 0) {
    s->straggler_ns[pool] += straggler_ns;
    pool_result *pr = &s->pools[pool];
    pr->jobs_routed++;
    culls_add(&pr->culls, &jr->culls);
    switch (jr->outcome) {
    case OUTCOME_COMPLETED: pr->jobs_completed++; break;
    case OUTCOME_FAILED: pr->jobs_failed++; break;
    case OUTCOME_UNPLACEABLE: pr->jobs_unplaceable++; break;
    case OUTCOME_RUNNING: pr->jobs_running++; break;
    case OUTCOME_QUEUED: pr->jobs_queued++; break;
    default: break;
    }
  }
  if (jr->outcome == OUTCOME_NOT_SUBMITTED) return;
  if (s->tenants->len <= tenant) g_array_set_size(s->tenants, tenant + 1);
  rowsums_tenant *t = &g_array_index(s->tenants, rowsums_tenant, tenant);
  t->jobs++;
  t->preempted += jr->preempted;
  t->preempts_caused += jr->preempts_caused;
  t->reclaimed += jr->reclaimed;
  t->reclaims_caused += jr->reclaims_caused;
  t->preempt_lost_gpu_s += jr->preempt_lost_gpu_s;
  t->quota_gpu_s += jr->quota_gpu_s;
  t->borrowed_gpu_s += jr->borrowed_gpu_s;
  t->spot_evictions += jr->spot_evictions;
  t->spot_lost_gpu_s += jr->spot_lost_gpu_s;
  culls_add(&t->culls, &jr->culls);
  if (pool >= 0 && jr->oversub_gpu_s > 0) {
    pool_result *pr = &s->pools[pool];
    pr->oversub_jobs++;
    pr->oversub_gpu_s += jr->oversub_gpu_s;
    pr->oversub_slow_gpu_s += jr->oversub_gpu_s * jr->oversub_slowdown;
  }
  double worker_s = run_ns / 1e9 * jr->gpus;
  if (pool < 0 || s->licence[pool] < 0) return;
  s->licensed_worker_s[pool] += worker_s;
  t->licence_cost += worker_s / 3600 * s->licence[pool];
}

void metrics_rowsums_hand_over(metrics *m, metrics_rowsums *s) {
  g_assert(s->n_pools == m->n_pools && !m->row_pools);
  for (guint i = 0; i < s->tenants->len; i++) {
    const rowsums_tenant *x = &g_array_index(s->tenants, rowsums_tenant, i);
    metrics_tenant_state *t = &g_array_index(m->tenants, metrics_tenant_state, i);
    t->jobs += x->jobs;
    t->licence_cost += x->licence_cost;
    t->preempted += x->preempted;
    t->preempts_caused += x->preempts_caused;
    t->reclaimed += x->reclaimed;
    t->reclaims_caused += x->reclaims_caused;
    t->preempt_lost_gpu_s += x->preempt_lost_gpu_s;
    t->quota_gpu_s += x->quota_gpu_s;
    t->borrowed_gpu_s += x->borrowed_gpu_s;
    t->spot_evictions += x->spot_evictions;
    t->spot_lost_gpu_s += x->spot_lost_gpu_s;
    culls_add(&t->culls, &x->culls);
  }
  m->row_pools = g_new0(pool_result, MAX(1u, m->n_pools));
  for (guint p = 0; p < m->n_pools; p++) {
    m->licensed_worker_s[p] += s->licensed_worker_s[p];
    m->row_pools[p] = s->pools[p];
    m->row_pools[p].straggler_wait_gpu_s = s->straggler_ns[p] / 1e9;
  }
  metrics_rowsums_free(s);
}

void metrics_rowsums_free(metrics_rowsums *s) {
  if (!s) return;
  g_free(s->licence);
  g_free(s->pools);
  g_free(s->straggler_ns);
  g_free(s->licensed_worker_s);
  g_array_unref(s->tenants);
  g_free(s);
}

double metrics_pool_licence(const metrics *m, guint32 pool) {
  g_assert(pool < m->n_pools);
  return m->licence_per_worker_hour[pool];
}

/* ---- events ---- */

const char *metrics_intern(metrics *m, const char *s) { return results_intern(m->r, s); }

void metrics_event(metrics *m, const event_row *e) {
  event_row row = *e;
  row.detail = e->detail ? results_intern(m->r, e->detail) : "";
  /* the job's own id lives only as long as its state (a spilled trace keeps none) */
  if (row.job) row.job = results_intern(m->r, row.job);
  if (row.cause_job) row.cause_job = results_intern(m->r, row.cause_job);
  g_array_append_val(m->r->events_log, row);
}

/* ---- the freeze ---- */

void metrics_pool_set_licence(metrics *m, guint32 pool, double per_worker_hour) {
  g_assert(pool < m->n_pools);
  m->licence_per_worker_hour[pool] = per_worker_hour;
}

void metrics_pool_set_price_factor(metrics *m, guint32 pool, double factor) {
  g_assert(pool < m->n_pools);
  m->price_factor[pool] = factor;
}

/* The pool's row: gauges and GPU rows from the integrals, provisioned time and its cost,
 * licences; its time series with the SLO violations of each interval. */
static void metrics_freeze_pool(metrics *m, metrics_pool *mp, pool_result pr) {
  results *r = m->r;
  if (m->row_pools) { /* the rows' sums */
    const pool_result *c = &m->row_pools[mp->index];
    pr.jobs_routed = c->jobs_routed;
    pr.jobs_completed = c->jobs_completed;
    pr.jobs_failed = c->jobs_failed;
    pr.jobs_unplaceable = c->jobs_unplaceable;
    pr.jobs_running = c->jobs_running;
    pr.jobs_queued = c->jobs_queued;
    pr.straggler_wait_gpu_s = c->straggler_wait_gpu_s;
    pr.culls = c->culls;
    pr.oversub_jobs = c->oversub_jobs;
    pr.oversub_gpu_s = c->oversub_gpu_s;
    pr.oversub_slow_gpu_s = c->oversub_slow_gpu_s;
  }
  const pool_spec *ps = scenario_pool(m->sc, mp->index);
  pr.provisioned_gpu_s = (double)mp->n_gpus * r->end_s;
  if (mp->unprov_gpu_ns) /* autoscaled: the GPUs of the nodes provisioned, over time */
    pr.provisioned_gpu_s -= (double)mp->unprov_gpu_ns / 1e9;
  pr.drain_gpu_s = (double)mp->drain_gpu_ns / 1e9;
  pr.down_gpu_s = (double)mp->down_gpu_ns / 1e9;
  for (guint32 gi = 0; gi < mp->n_gpus; gi++) {
    const metrics_gpu *g = metrics_pool_gpu(mp, gi);
    gpu_result gr = {
        .pool = ps->name,
        .node = g->node,
        .index = g->local,
        .allocated_s = metrics_i128_value(g->int_alloc) / 1e9,
        .busy_s = metrics_i128_value(g->int_busy) / 1e9,
        .sm_active_s = metrics_i128_value(g->int_sm) / 1e9,
        .mem_gb_s = (double)g->int_mem / 1e9 / 1e9,
        .peak_mem_gb = UTIL_GB(g->peak_mem),
        .jobs_hosted = g->jobs_hosted,
        .oom_events = g->oom_events,
        .oversub_s = (double)g->int_over / 1e9,
    };
    g_array_append_val(r->gpus, gr);
    pr.allocated_gpu_s += gr.allocated_s;
    pr.busy_gpu_s += gr.busy_s;
    pr.sm_active_gpu_s += gr.sm_active_s;
    pr.mem_gb_s += gr.mem_gb_s;
  }
  pr.cost = pr.provisioned_gpu_s / 3600 * (ps->price_per_gpu_hour * m->price_factor[mp->index]);
  if (m->licence_per_worker_hour[mp->index] >= 0) {
    /* one licence per resident worker (a vGPU VM): worker-hours x the licence price */
    pr.vgpu_s = m->licensed_worker_s[mp->index];
    pr.licence_cost = pr.vgpu_s / 3600 * m->licence_per_worker_hour[mp->index];
    pr.cost += pr.licence_cost;
  }
  g_array_append_val(r->pools, pr);
  if (m->ts_sink) { /* the rows went to the sink: their SLO violations follow them */
    if (!r->ts_slo) r->ts_slo = g_ptr_array_new_with_free_func((GDestroyNotify)g_array_unref);
    g_ptr_array_add(r->ts_slo, g_steal_pointer(&mp->slo_violations));
  }
  for (guint k = 0; mp->slo_violations && k < mp->ts->len; k++) {
    ts_row row = g_array_index(mp->ts, ts_row, k);
    if (k < mp->slo_violations->len)
      row.slo_violations = g_array_index(mp->slo_violations, guint64, k);
    g_array_append_val(r->timeseries, row);
  }
  /* the rows are in the results now: the pool's copy goes at once (the run's peak memory
   * is reached during the freeze) */
  g_clear_pointer(&mp->ts, g_array_unref);
  g_clear_pointer(&mp->slo_violations, g_array_unref);
  for (guint k = 0; mp->gpu_series && k < mp->gpu_series->len; k++) {
    gpu_series_row row = g_array_index(mp->gpu_series, gpu_series_row, k);
    row.jobs_first += r->gpu_series_jobs->len; /* this pool's jobs go after those before */
    g_array_append_val(r->gpu_series, row);
  }
  if (mp->gpu_series)
    g_array_append_vals(r->gpu_series_jobs, mp->gpu_series_jobs->data, mp->gpu_series_jobs->len);
}

static void metrics_cells_unref(GArray *cells) {
  if (cells) g_array_unref(cells);
}

static gint metrics_cmp_tenant(gconstpointer a, gconstpointer b) {
  const metrics_tenant_state *x = *(metrics_tenant_state *const *)a;
  const metrics_tenant_state *y = *(metrics_tenant_state *const *)b;
  return strcmp(x->name, y->name);
}

/* Tenants with a submitted job, by name: their totals, showback, and their series on the
 * pools' interval grid. */
static void metrics_freeze_tenants(metrics *m, sim_time end) {
  results *r = m->r;
  GPtrArray *order = g_ptr_array_new();
  for (guint i = 0; i < m->tenants->len; i++) {
    metrics_tenant_state *t = &g_array_index(m->tenants, metrics_tenant_state, i);
    metrics_tenant_integrate(m, t, end);
    tenant_cell_close(t);
    for (guint p = 0; p < m->n_pools; p++) {
      t->int_pool_alloc[p] += (metrics_i128)t->pool_alloc_fx[p] * (end - t->pool_since[p]);
      t->pool_since[p] = end;
    }
    if (t->jobs) g_ptr_array_add(order, t);
  }
  g_ptr_array_sort(order, metrics_cmp_tenant);
  sim_time iv = m->interval_ns;
  guint64 n_iv = end > 0 ? (guint64)((end + iv - 1) / iv) : 0;
  r->series_interval_ns = iv;
  r->series_end_ns = end;
  if (m->ts_sink) /* streamed: the cells move to the results (16 bytes an interval, not 40) */
    r->tenant_cells = g_ptr_array_new_with_free_func((GDestroyNotify)metrics_cells_unref);
  for (guint i = 0; i < order->len; i++) {
    const metrics_tenant_state *t = g_ptr_array_index(order, i);
    metrics_i128 alloc = 0;
    double cost = 0;
    for (guint p = 0; p < m->n_pools; p++) {
      alloc += t->int_pool_alloc[p];
      if (t->int_pool_alloc[p])
        cost += metrics_i128_value(t->int_pool_alloc[p]) / 1e9 / 3600 *
                (scenario_pool(m->sc, p)->price_per_gpu_hour * m->price_factor[p]);
    }
    tenant_result tr = {
        .name = t->name,
        .jobs = t->jobs,
        .allocated_gpu_s = metrics_i128_value(alloc) / 1e9,
        .busy_gpu_s = metrics_i128_value(t->int_busy) / 1e9,
        .sm_active_gpu_s = metrics_i128_value(t->int_sm) / 1e9,
        .cost = cost + t->licence_cost,
        .preempted = t->preempted,
        .preempts_caused = t->preempts_caused,
        .reclaimed = t->reclaimed,
        .reclaims_caused = t->reclaims_caused,
        .preempt_lost_gpu_s = t->preempt_lost_gpu_s,
        .spot_evictions = t->spot_evictions,
        .spot_lost_gpu_s = t->spot_lost_gpu_s,
        .quota_gpu_s = t->quota_gpu_s,
        .borrowed_gpu_s = t->borrowed_gpu_s,
        .culls = t->culls,
        .blast_caused = t->blast_caused,
        .blast_suffered = t->blast_suffered,
    };
    g_array_append_val(r->tenants, tr);
  }
  for (guint i = 0; i < order->len; i++) {
    metrics_tenant_state *t = g_ptr_array_index(order, i);
    if (r->tenant_cells) {
      g_ptr_array_add(r->tenant_cells, g_steal_pointer(&t->cells));
      continue;
    }
    for (guint64 b = 0; b < n_iv; b++) {
      tenant_ts_row row = results_tenant_ts_row(t->name, t->cells, iv, end, b);
      g_array_append_val(r->tenant_timeseries, row);
    }
    /* its cells are in the rows now: they go at once (the freeze is the run's peak) */
    g_clear_pointer(&t->cells, g_array_unref);
  }
  g_ptr_array_unref(order);
}

void metrics_freeze(metrics *m, sim_time end, const pool_result *pools) {
  for (guint i = 0; i < m->n_pools; i++) metrics_freeze_pool(m, &m->pools[i], pools[i]);
  metrics_freeze_tenants(m, end);
  metrics_freeze_blast(m);
  m->r->quotas = m->sc->kueue != NULL;
  m->r->reclaim = m->sc->kueue && m->sc->kueue->preempts;
  m->r->preemption = (m->sc->priority && m->sc->priority->preempts) || m->r->reclaim;
}
