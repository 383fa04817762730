/* metrics.h: the observation of one run. One interval grid (intervals of interval_ns from
 * time 0) for the gauges and counters of every level: pools (allocated, busy, SM-active,
 * memory, queued, running, draining, down; SLO violations by arrival interval), GPUs (their
 * integrals and the per-GPU series of run --dcgm) and tenants; the events log; the sums
 * over the jobs' rows; and the pricing (cost, licences, showback). The simulator
 * (sim.c, cluster.c, the workloads) reports changes here; metrics_freeze writes everything
 * into the results at the end.
 *
 * One definition of each DCGM gauge per level. A GPU's allocated (1 while it has a
 * resident), busy (a kernel running) and SM-active gauges come from its strategy; the
 * pool's are their sums. A tenant's gauges are the GPUs' gauges partitioned among the
 * residents by the share of the GPU each held (alloc_share over the GPU's total; equal
 * shares when the strategy gave none), so tenants add up to the pools exactly and a tenant
 * is never busier than it is allocated (docs/models.md, "Utilisation").
 *
 * Protocol: integrate (metrics_pool_integrate, metrics_gpu_integrate) up to now before any
 * gauge or count changes, then change it. Every call is O(1) or O(residents of one GPU);
 * tenants are integrated lazily, when their own gauges change. */
#pragma once
#include <glib.h>
#include <math.h>
#include "util.h"
#include "scenario.h"
#include "results.h"

typedef struct metrics metrics;

/* Exact integrals. A gauge is kept in fixed point (metrics_fixed: METRICS_FIXED_BITS
 * fraction bits) and integrated as gauge x integer ns in 128-bit integers, so an integral
 * is the same whether it was brought up to date at every event or once at the end: no
 * rounding depends on how often anything happened (the notebooks' bursts are accounted
 * without events, sim.c), and tenants partition pools exactly. Converted to double once,
 * when a row is made. */
__extension__ typedef __int128 metrics_i128;

#define METRICS_FIXED_BITS 40
/* 2^METRICS_FIXED_BITS and its inverse: products by powers of two are exact */
#define METRICS_FIXED_ONE ((double)(INT64_C(1) << METRICS_FIXED_BITS))
#define METRICS_FIXED_INV (1.0 / METRICS_FIXED_ONE)
#define METRICS_FIXED_ONE_I (INT64_C(1) << METRICS_FIXED_BITS)
/* The fragmentation gauges (milli-GPU, up to 1000 per GPU) have fewer fraction bits, so
 * that a pool of a million GPUs stays inside 64 bits. */
#define METRICS_FRAG_BITS 20
/* An exact integral of fixed-point values as a double (value x ns). */
static inline double metrics_i128_value(metrics_i128 v) { return (double)v * METRICS_FIXED_INV; }

/* A gauge part in fixed point: llround(v x 2^METRICS_FIXED_BITS) (half away from zero),
 * without the library call when the product is below 2^52: there the truncation and the
 * remainder are exact. */
static inline int64_t metrics_fixed(double v) {
  double x = v * METRICS_FIXED_ONE;
  if (!(fabs(x) < 4503599627370496.0)) return (int64_t)llround(x);
  int64_t i = (int64_t)x;
  double f = x - (double)i;
  if (f >= 0.5) i++;
  else if (f <= -0.5) i--;
  return i;
}


typedef struct metrics_gpu {      /* one GPU's gauges now and their integrals */
  /* what every change on the GPU reads and writes, first (the cluster keeps them on the GPU
   * record's first cache lines) */
  int64_t alloc_fx, busy_fx, sm_fx; /* gauges now (0..1), fixed point */
  int64_t mem_bytes;              /* memory in use now */
  sim_time t_last;                /* integrals are up to here */
  metrics_i128 int_alloc, int_busy, int_sm; /* fixed point x ns */
  metrics_i128 int_mem;           /* bytes x ns */
  int64_t peak_mem;
  guint32 jobs_hosted, oom_events;
  /* per-GPU series (NULL cur_jobs: not recorded): integrals at the last interval close, the
   * largest memory in the interval, the jobs resident at some time in it, and the resident
   * jobs now (one entry per worker, in arrival order) */
  metrics_i128 ser_alloc, ser_busy, ser_sm, ser_mem;
  int64_t ser_peak_mem;
  GArray *ser_jobs, *cur_jobs;    /* gpu_series_job: job indices and MIG instances */
  guint32 node, local;            /* where it is (set by the cluster: node groups differ) */
  /* memory oversubscription: the memory above which the GPU counts as oversubscribed
   * (INT64_MAX: never) and the time it was */
  int64_t over_from;
  sim_time int_over;
} metrics_gpu;

/* Exact amounts by interval from the current one on: slot b & mask holds interval b's
 * (base <= b < base + mask + 1), two values each. */
typedef struct metrics_ring {
  metrics_i128 *v;                /* 2 x (mask + 1), NULL until used */
  guint64 base;
  guint32 mask;
  guint64 hint;                   /* the interval added to last, and its bounds: a walk's */
  sim_time hint_start, hint_end;  /* bursts follow one another (no division for them) */
} metrics_ring;

typedef struct metrics_acc {      /* the current interval of a pool: value x ns, exact */
  metrics_i128 alloc, busy, sm;   /* fixed point */
  metrics_i128 mem, queued, running; /* bytes, jobs */
  metrics_i128 frag, idle;        /* fragmented and free milli-GPU, METRICS_FRAG_BITS fixed
                                   * point (frag_on) */
} metrics_acc;

/* Milli-GPU of a whole GPU, the unit of the fragmentation gauges (place.h's PLACE_MILLI). */
#define METRICS_MILLI 1000

typedef struct metrics_pool {
  guint32 index, n_gpus;
  int64_t card_bytes;             /* memory of one GPU */
  metrics_gpu *gpus;              /* the first of n_gpus records, gpu_stride bytes apart (read
                                   * them through metrics_pool_gpu); owned when gpus_owned */
  size_t gpu_stride;
  gboolean gpus_owned;
  metrics *m;
  /* gauges now: sums of the GPUs' (kept by metrics_gpu_*), and the counts the cluster sets
   * just before each integration (the values in force since the last one) */
  int64_t sum_alloc, sum_busy, sum_sm; /* fixed point: exact sums, no drift */
  int64_t sum_mem;
  guint32 queued, running, draining, down;
  /* fragmentation against the pool's target workload (milli-GPU; only when frag_on) */
  gboolean frag_on;
  double frag_milli, free_milli;
  sim_time t_last, bucket_start;
  metrics_acc acc;
  metrics_ring ahead;             /* busy and SM-active of bursts accounted ahead (metrics_burst),
                                   * by interval: added to acc as each one closes */
  metrics_i128 drain_gpu_ns, down_gpu_ns;
  /* GPUs not provisioned now (an autoscaled pool's nodes absent: set by the cluster before
   * each integration), and their integral: provisioned time is n_gpus x the run less it */
  guint32 unprovisioned;
  metrics_i128 unprov_gpu_ns;
  GArray *ts;                     /* ts_row, one per interval from time 0 */
  GArray *slo_violations;         /* guint64 per interval (by request arrival) */
  GArray *gpu_series, *gpu_series_jobs; /* NULL unless recorded */
} metrics_pool;

/* A run with the pools of sc; r receives the events and, at the end, the rest.
 * gpu_series: also record the per-GPU series (run --dcgm). Each pool's GPUs are set by
 * metrics_pool_set_gpus before the run. */
metrics *metrics_new(const scenario *sc, results *r, gboolean gpu_series);
/* The pool has n_gpus GPUs (their records' node and local are the caller's to set). */
void metrics_pool_set_gpus(metrics_pool *mp, guint32 n_gpus);
/* The same with records the caller owns: n_gpus zeroed metrics_gpu, the first at `first`,
 * each `stride` bytes after the one before (inside the caller's own GPU records, so that a
 * GPU's state and its gauges share cache lines). They must stay until
 * metrics_pool_release_gpus, which the owner calls before freeing them. */
void metrics_pool_use_gpus(metrics_pool *mp, guint32 n_gpus, metrics_gpu *first, size_t stride);
/* Releases what the GPU records hold (the series' job lists), and the records when the
 * metrics allocated them; the pool has no GPU records after it. metrics_free calls it. */
void metrics_pool_release_gpus(metrics_pool *mp);
/* GPU k of the pool. */
static inline metrics_gpu *metrics_pool_gpu(const metrics_pool *mp, guint32 k) {
  return (metrics_gpu *)(void *)((char *)mp->gpus + (size_t)k * mp->gpu_stride);
}
void metrics_free(metrics *m);
sim_time metrics_interval_ns(const metrics *m);
/* Index of the interval holding t. */
guint64 metrics_bucket(const metrics *m, sim_time t);
metrics_pool *metrics_pool_get(metrics *m, guint32 pool);

/* ---- pools and GPUs ---- */
/* The interval-crossing part of metrics_pool_integrate (call that one). */
void metrics_pool_integrate_to(metrics_pool *mp, sim_time now);
/* Brings the pool's integrals up to now (a no-op when they are there already: the
 * common case, inline). */
static inline void metrics_pool_integrate(metrics_pool *mp, sim_time now) {
  if (mp->t_last < now) metrics_pool_integrate_to(mp, now);
}
/* Closes the books at end: integrates every GPU and the pool, emits the last interval. */
void metrics_pool_close(metrics_pool *mp, sim_time end);
/* Brings the GPU's integrals up to now (inline: once per change on a GPU). */
static inline void metrics_gpu_integrate(metrics_gpu *g, sim_time now) {
  sim_time dt = now - g->t_last;
  if (dt > 0) {
    g->int_alloc += (metrics_i128)g->alloc_fx * dt;
    g->int_busy += (metrics_i128)g->busy_fx * dt;
    g->int_sm += (metrics_i128)g->sm_fx * dt;
    g->int_mem += (metrics_i128)g->mem_bytes * dt;
    g->int_over += g->mem_bytes > g->over_from ? dt : 0;
  }
  g->t_last = now;
}
/* New gauges of GPU gpu in fixed point, fx[] = metrics_fixed of allocated, busy and
 * SM-active (after the strategy's gauges; inline: once per change on a GPU). */
static inline void metrics_gpu_set_gauges(metrics_pool *mp, guint32 gpu, const int64_t fx[3]) {
  metrics_gpu *g = metrics_pool_gpu(mp, gpu);
  g_assert(fx[1] >= 0 && fx[1] <= METRICS_FIXED_ONE_I + 1100 && fx[2] >= 0 &&
           fx[2] <= METRICS_FIXED_ONE_I + 1100);
  mp->sum_alloc += fx[0] - g->alloc_fx;
  mp->sum_busy += fx[1] - g->busy_fx;
  mp->sum_sm += fx[2] - g->sm_fx;
  g->alloc_fx = fx[0];
  g->busy_fx = fx[1];
  g->sm_fx = fx[2];
}
/* A burst accounted without events (sim.c, the notebooks' bursts in closed form): from t0
 * to t1 GPU gpu of pool `pool`, and its one resident, of tenant `tenant`, are busy and
 * SM-active by d_busy and d_sm more than their gauges in force say (fixed point; negative
 * takes a burst back). t0 is not before any integral of the GPU's pool or tenant: the
 * amounts go to the GPU's and tenant's integrals at once, and to the pool's and tenant's
 * intervals as those close. Exact, so the books are those of the events it replaces. */
void metrics_burst(metrics *m, guint32 pool, guint32 gpu, guint32 tenant, sim_time t0,
                   sim_time t1, int64_t d_busy, int64_t d_sm);
/* Memory in use on the GPU changed by delta_bytes. */
void metrics_gpu_mem(metrics_pool *mp, guint32 gpu, int64_t delta_bytes);
/* Records the GPU's memory in use in its peaks (whole and per interval), unless it is more
 * than the card holds: that is a demand about to fail, never memory in use. */
void metrics_gpu_note_peak(metrics_pool *mp, guint32 gpu);
/* A worker of job `job` arrived on / left the GPU; inst: the MIG instance it holds there
 * (gpu_series_job.inst, 0 the whole card). */
void metrics_gpu_attach(metrics_pool *mp, guint32 gpu, guint32 job, guint32 inst);
void metrics_gpu_detach(metrics_pool *mp, guint32 gpu, guint32 job);
void metrics_gpu_oom(metrics_pool *mp, guint32 gpu);
/* n requests of the pool's services that arrived in interval `bucket` missed their SLO. */
void metrics_slo_violations(metrics *m, guint32 pool, guint64 bucket, guint64 n);

/* ---- tenants ---- */
/* The tenant's index (registered on first use; the name is borrowed). */
guint32 metrics_tenant(metrics *m, const char *name);
/* No tenant: the source of a fault no job caused (BLAST_NO_SOURCE in the results). */
#define METRICS_NO_TENANT G_MAXUINT32
/* A fault of kind `kind` of a job of tenant `from` (METRICS_NO_TENANT: none) reached a job
 * of tenant `to` other than the one at fault, with effect `effect` (docs/models.md "Blast
 * radius"). Kept per (kind, from, to) that occurred: memory grows with the pairs seen, at
 * most kinds x tenants^2, never with the victims. */
void metrics_blast(metrics *m, blast_kind kind, guint32 from, guint32 to, blast_effect effect);
/* A resident of the tenant on a GPU of pool `pool` changes its part of that GPU's gauges
 * (allocated, busy, SM-active) by d[] at now (the GPU's time): d[k] is metrics_fixed(after)
 * - metrics_fixed(before) of gauge k, the caller keeping each part's fixed-point value;
 * resident counts the tenant's residents (+1 on arrival, -1 on departure, 0 otherwise). The
 * parts are summed in fixed point (METRICS_FIXED_BITS), so removing a part takes back
 * exactly what adding it added: no rounding drift, and an idle tenant is exactly 0. */
void metrics_tenant_change(metrics *m, guint32 tenant, guint32 pool, sim_time now,
                           const int64_t d[3], int resident);

/* ---- the sums over the jobs' rows ----
 * What the jobs' rows add to the pools and tenants: each pool's jobs by outcome (pools.csv
 * jobs .. queued) and straggler GPU-time, each tenant's submitted jobs (tenants.csv `jobs`)
 * and licence cost, each pool's licensed worker-seconds (what a pool whose strategy charges
 * a licence per worker bills: worker-seconds x its metrics_pool_licence / 3600). Whoever
 * puts the rows in trace order (the row writer, rowwriter.c, on a thread of its own) adds
 * each row to a metrics_rowsums, summed from zero in trace order and read by no one else
 * while the run goes, and hands it over once after the last row; metrics_freeze writes the
 * sums into the pools' and tenants' rows. Nothing else adds to them. */
typedef struct metrics_rowsums metrics_rowsums;
/* Sums for m's pools, with their licences (metrics_pool_set_licence before); m NULL: none. */
metrics_rowsums *metrics_rowsums_new(const metrics *m);
/* Row jr's turn: tenant is its metrics_tenant index, run_ns its run time, straggler_ns its
 * straggler_wait_gpu_ns. */
void metrics_rowsums_add(metrics_rowsums *s, const job_result *jr, guint32 tenant, double run_ns,
                         double straggler_ns);
/* Adds s to m (once, after the last row) and frees s. */
void metrics_rowsums_hand_over(metrics *m, metrics_rowsums *s);
void metrics_rowsums_free(metrics_rowsums *s);

/* ---- events ---- */
/* Appends an events.csv row (the detail is copied). */
void metrics_event(metrics *m, const event_row *e);
/* Interns a string in the results (reasons, details). */
const char *metrics_intern(metrics *m, const char *s);

/* ---- streamed series ---- */
/* Hands each pool's time series row to sink as its interval closes (by pool, in time order
 * within a pool; slo_violations not filled: violations are counted by arrival and may come
 * later) instead of keeping it. metrics_freeze then leaves results->timeseries empty and
 * moves the pools' violations to results->ts_slo, and the tenants' cells to
 * results->tenant_cells instead of making results->tenant_timeseries. Set before the run. */
typedef void (*metrics_ts_sink)(void *data, const ts_row *row);
void metrics_set_ts_sink(metrics *m, metrics_ts_sink sink, void *data);

/* ---- the end ---- */
/* Per pool: its GPUs' price is the scenario's x factor (a spot pool's discount,
 * src/sim/autoscale.c), in pools.csv's cost and the tenants' showback; default 1. */
void metrics_pool_set_price_factor(metrics *m, guint32 pool, double factor);
/* Per pool: the strategy's licence price per worker-hour (share_ops.licence_per_worker_hour),
 * or a negative value when its pool charges none. Set before metrics_freeze. */
void metrics_pool_set_licence(metrics *m, guint32 pool, double per_worker_hour);
/* A pool whose cards may hold capacity_bytes (> card_bytes, their memory) through unified
 * memory: each GPU counts the time it holds more than card_bytes (gpus.csv oversub_h), and
 * its peak counts memory up to capacity_bytes. Before any GPU holds memory. */
void metrics_pool_set_oversub(metrics_pool *mp, int64_t card_bytes, int64_t capacity_bytes);
double metrics_pool_licence(const metrics *m, guint32 pool);
/* Writes the pools (gauges, cost, licences and the rows' sums added to the rows in *pools,
 * which carry the names and counters), GPUs, time series, GPU series, tenants and tenant series
 * into the results. end: the end of the run (the pools closed there). */
void metrics_freeze(metrics *m, sim_time end, const pool_result *pools);
