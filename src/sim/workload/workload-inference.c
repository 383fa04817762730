/* workload-inference.c: an inference service, request by request. Requests arrive (Poisson
 * at rate_rps with an optional daily cycle, or recorded in a requests file), queue FCFS
 * for up to c concurrent slots (max_batch, limited by the KV-cache memory the service has),
 * wait for a time-slicing turn when they find the service idle, and are served at the
 * speed the strategy gives; latencies go into a bounded histogram and SLO counters per
 * time-series interval. Between two events the speed is constant, so advance() runs a
 * Kiefer-Wolfowitz recurrence over the requests of the interval: no engine event and no
 * allocation per request. It does not decide speeds or turn waits (the strategies do). */
#include "workload.h"
#include "rng.h"
#include "rngfast.h"
#include "histogram.h"
#include "metrics.h"
#include <gsl/gsl_randist.h>
#include <math.h>
#include <stddef.h>

/* The request model's settings a scenario may set in its `inference:` section
 * (scenario_model_key; listed in sim_model_keys, sim.c): the reader checks and keeps them
 * in scenario.inference, which this file reads (duty_window: workload-llm.c too). */
static const char *const inf_model_names[] = {"requests", "fluid", NULL};
static const char *const inf_dist_names[SERVICE_DIST_COUNT + 1] = {
    [SERVICE_DIST_DETERMINISTIC] = "deterministic", [SERVICE_DIST_EXPONENTIAL] = "exponential",
    [SERVICE_DIST_LOGNORMAL] = "lognormal", [SERVICE_DIST_COUNT] = NULL};
/* The section of the scenario these keys are in (`inference:`), declared here as its keys are. */
static const scenario_model_section workload_section_inference = {
    "inference", "{service_dist: exponential, daily_amplitude: 0.3}"};
const scenario_model_key workload_key_inference_model = {
    {"inference.model", "requests", "every request simulated, or fluid: the offered load only",
     NULL},
    SCENARIO_MODEL_CHOICE, NULL, 0, 1, FALSE, FALSE, 0, offsetof(scenario, inference.fluid),
    inf_model_names,
    &workload_section_inference};
const scenario_model_key workload_key_inference_service_dist = {
    {"inference.service_dist", "lognormal", "how a request's work varies",
     "deterministic|exponential|lognormal"},
    SCENARIO_MODEL_CHOICE, NULL, 0, SERVICE_DIST_COUNT - 1, FALSE, FALSE,
    SERVICE_DIST_LOGNORMAL, offsetof(scenario, inference.dist), inf_dist_names,
    &workload_section_inference};
/* The default CV of a request's service time: SCENARIO_DEFAULT_SERVICE_CV (workload.h). */
const scenario_model_key workload_key_inference_service_cv = {
    {"inference.service_cv", "0.005", "the lognormal's coefficient of variation", NULL},
    SCENARIO_MODEL_NUMBER, "a coefficient of variation from 0 to 10", 0, 10, FALSE, FALSE,
    SCENARIO_DEFAULT_SERVICE_CV, offsetof(scenario, inference.service_cv), NULL,
    &workload_section_inference};
const scenario_model_key workload_key_inference_daily_amplitude = {
    {"inference.daily_amplitude", "0", "the daily cycle of the Poisson arrivals", NULL},
    SCENARIO_MODEL_NUMBER, "a number from 0 to 1", 0, 1, FALSE, FALSE, 0,
    offsetof(scenario, inference.daily_amplitude), NULL,
    &workload_section_inference};
const scenario_model_key workload_key_inference_peak_hour = {
    {"inference.peak_hour", "14", "the hour of the day of the arrivals' peak", NULL},
    SCENARIO_MODEL_HOURS, "an hour of the day from 0 to less than 24", 0, 24, FALSE, TRUE,
    14 * 3600 * SIM_NS_PER_S, offsetof(scenario, inference.peak_ns), NULL,
    &workload_section_inference};
/* The smoothing window of a service's measured busy time (an assumption, docs/models.md
 * section 9). */
const scenario_model_key workload_key_inference_duty_window = {
    {"inference.duty_window", "60s", "the window a service's measured busy time is smoothed "
     "over", NULL},
    SCENARIO_MODEL_DURATION, NULL, SIM_NS_PER_MS, 86400 * SIM_NS_PER_S, FALSE, FALSE,
    60 * SIM_NS_PER_S, offsetof(scenario, inference.duty_window_ns), NULL,
    &workload_section_inference};

const char *workload_service_dist_name(service_dist d) {
  return (int)d >= 0 && d < SERVICE_DIST_COUNT ? inf_dist_names[d] : "unknown";
}

#define INF_DAY_NS 86400e9

/* Random streams of a service (rng_new(seed, id, stream)); 0 is sim.c's, 1 the faults'. */
#define INF_STREAM_ARRIVALS 2
#define INF_STREAM_SERVICE 3
#define INF_STREAM_TURNS 4
/* The exponential draws of the request loop (Poisson gaps, exponential service times) come
 * from rngfast.h's xoshiro256** and ziggurat on streams of their own (docs/models.md,
 * "Random numbers"); lognormal service times are GSL's ziggurat gaussian on xoshiro256** as
 * a GSL generator (stream 3), drawn into the same buffer; the thinning uniforms and turns
 * stay GSL on taus2. 5 and 6 are workload-llm.c's. */
#define INF_STREAM_ARRIVALS_FAST 7
#define INF_STREAM_SERVICE_FAST 8
/* MPS waits for the neighbours' thread blocks (docs/models.md, "MPS"), GSL gamma. */
#define INF_STREAM_BLOCKS 9

typedef struct inf_carry { /* a request in service across an event boundary */
  double end_ns, arrival_ns;
} inf_carry;

typedef struct inf_state {
  /* model settings */
  service_dist dist;
  double work_mean_ns;       /* service_ms at speed 1 */
  double ln_sigma;           /* lognormal: sigma for the CV (the buffer holds mean-1 factors) */
  double slo_ns;             /* INFINITY without an SLO */
  double allowed_frac;       /* 1 - slo_pct / 100: share of an interval's requests that may miss */
  gboolean has_slo;
  double amp, peak_ns;       /* daily cycle */
  double rate_rps;           /* arrival rate in force */
  double gap_mean_ns;        /* mean gap between candidate arrivals: 1e9 / (rate x (1 + amp)) */
  gboolean fast_poisson;     /* Poisson without a daily cycle: the inner loop draws inline */
  gboolean general;          /* run --reference: never the call-free loop (inf_serve_fast) */
  gsl_rng *r_arr, *r_svc, *r_turn, *r_block;
  rngfast_buf *b_arr, *b_svc; /* exponential gaps; service-time factors of mean 1 */
  /* MPS: mean wait for SMs per unit of service time, and its correlation time (task.h) */
  double block_wait, block_corr_ns;
  gboolean recorded;         /* arrivals come from the requests file */
  trace_request_cursor *cur; /* its reader (NULL once finished or if it could not open) */
  /* the next request not yet started: arrival, and work (NAN: drawn when it starts) */
  gboolean has_next;
  double next_a, next_w;
  /* the c slots as a min-heap of the times they come free, in ns from the trace start */
  guint32 c, heap_cap;
  double *heap;
  double busy_until;         /* latest end of a started request */
  double gate;               /* a time-slicing turn: nothing starts before it */
  double ps;                 /* start of the busy period in progress */
  double v_prev;             /* speed the in-flight requests' end times were computed with */
  inf_carry *carry;          /* in flight at the last boundary */
  guint32 n_carry, carry_cap;
  gboolean up;               /* an attempt is running */
  /* duty estimate: kappa = measured busy x speed / offered load (1 for one slot), folded
   * in once per duty window (inference.duty_window) (inference_on_timer), never at other events */
  double kappa;
  double win_obs_ns, win_ns; /* this window: sum of busy x speed / offered, and time up */
  double busy_ns, up_ns;     /* measured time with a request in service, and time up */
  /* results */
  histogram *lat;
  guint64 served, dropped, unanswered, violations;
  /* the run's interval grid (by arrival), and where SLO violations are counted */
  metrics *m;
  guint32 pool;
  double interval_ns;
  guint64 bucket;
  double bucket_end;
  guint64 b_n, b_viol;
  guint32 viol_buckets;
  gboolean finalised;
} inf_state;

/* ---- settings and draws ---- */

static void inf_set_rate(inf_state *st, double rate_rps) {
  st->rate_rps = rate_rps > 0 && isfinite(rate_rps) ? rate_rps : 0;
  st->gap_mean_ns = st->rate_rps > 0 ? 1e9 / (st->rate_rps * (1.0 + st->amp)) : INFINITY;
  st->fast_poisson = !st->recorded && st->amp == 0;
}

/* Refills the service-time factors: exponentials (the ziggurat), or lognormals of mean 1,
 * exp(sigma Z - sigma^2 / 2) with Z from gsl_ran_gaussian_ziggurat. */
static void inf_svc_fill(inf_state *st) {
  if (st->dist != SERVICE_DIST_LOGNORMAL) {
    rngfast_buf_fill(st->b_svc);
    return;
  }
  const double s = st->ln_sigma, m = -s * s / 2.0;
  for (guint32 i = 0; i < RNGFAST_BUF; i++)
    st->b_svc->v[i] = exp(m + gsl_ran_gaussian_ziggurat(st->r_svc, s));
  st->b_svc->pos = 0;
}

static inline double inf_svc_next(inf_state *st) {
  if (G_UNLIKELY(st->b_svc->pos == RNGFAST_BUF)) inf_svc_fill(st);
  return st->b_svc->v[st->b_svc->pos++];
}

static inline double inf_draw_work(inf_state *st) {
  return st->dist == SERVICE_DIST_DETERMINISTIC ? st->work_mean_ns
                                                : st->work_mean_ns * inf_svc_next(st);
}

/* Next Poisson arrival after t (thinning for the daily cycle). */
static double inf_poisson_after(inf_state *st, double t) {
  if (st->rate_rps <= 0) return INFINITY;
  for (;;) {
    t += st->gap_mean_ns * rngfast_buf_exp(st->b_arr);
    if (st->amp == 0 || !isfinite(t)) return t;
    double rel = 1.0 + st->amp * cos(2.0 * G_PI * (t - st->peak_ns) / INF_DAY_NS);
    if (gsl_rng_uniform(st->r_arr) * (1.0 + st->amp) < rel) return t;
  }
}

/* Moves to the request after next_a (has_next FALSE when there is none). */
static void inf_next_arrival(inf_state *st) {
  if (st->recorded) {
    double at_s, svc_ms;
    st->has_next = st->cur && trace_request_cursor_next(st->cur, &at_s, &svc_ms);
    if (st->has_next) {
      st->next_a = at_s * 1e9;
      st->next_w = isnan(svc_ms) ? NAN : svc_ms * 1e6;
    }
    return;
  }
  st->next_a = inf_poisson_after(st, st->next_a);
  st->next_w = NAN;
  st->has_next = isfinite(st->next_a);
}

/* ---- the interval grid ---- */

static void inf_close_bucket(inf_state *st) {
  if (st->b_n && st->has_slo &&
      (double)st->b_viol > st->allowed_frac * (double)st->b_n * (1.0 + 1e-12))
    st->viol_buckets++;
  metrics_slo_violations(st->m, st->pool, st->bucket, st->b_viol);
  st->b_n = st->b_viol = 0;
}

/* Closes the current interval and moves to the one holding time t. */
static __attribute__((noinline)) void inf_move_bucket(inf_state *st, double t) {
  inf_close_bucket(st);
  double k = floor(t / st->interval_ns);
  st->bucket = k > 0 ? (guint64)k : 0;
  st->bucket_end = ((double)st->bucket + 1.0) * st->interval_ns;
}

static inline void inf_record(inf_state *st, double lat_ns) {
  histogram_add(st->lat, lat_ns);
  guint64 miss = lat_ns > st->slo_ns;
  st->served++;
  st->violations += miss;
  st->b_n++;
  st->b_viol += miss;
}

/* A request that got no answer: dropped (found no server) or, cut off by the end of the
 * session or of the run in service or queued, unanswered. With an SLO it is a violation
 * either way (docs/models.md, "Inference services"). */
static void inf_lose_one(inf_state *st, guint64 *count) {
  (*count)++;
  st->b_n++;
  if (st->has_slo) {
    st->violations++;
    st->b_viol++;
  }
}

static void inf_drop_one(inf_state *st) { inf_lose_one(st, &st->dropped); }

/* The requests arriving before t got no answer, counted in *count (dropped or unanswered). */
static void inf_lose_until(inf_state *st, double t, guint64 *count) {
  while (st->has_next && st->next_a < t) {
    if (st->next_a >= st->bucket_end) inf_move_bucket(st, st->next_a);
    inf_lose_one(st, count);
    inf_next_arrival(st);
  }
}

/* The requests arriving before t were not served: counted as dropped. */
static void inf_drop_until(inf_state *st, double t) { inf_lose_until(st, t, &st->dropped); }

/* The requests arriving before t are let go uncounted (they came after the session was
 * over, or before an attempt that restarts from a later instant). */
static void inf_skip_until(inf_state *st, double t) {
  while (st->has_next && st->next_a < t) inf_next_arrival(st);
}

/* The requests in service and those queued that arrived before t get no answer. */
static void inf_unanswer_until(inf_state *st, double t) {
  for (guint32 i = 0; i < st->n_carry; i++) inf_lose_one(st, &st->unanswered);
  st->n_carry = 0;
  inf_lose_until(st, t, &st->unanswered);
}

/* ---- slots ---- */

static inline void inf_heap_replace_top(double *h, guint32 n, double v) {
  guint32 i = 0;
  for (;;) {
    guint32 l = 2 * i + 1;
    if (l >= n) break;
    guint32 m = l + 1 < n && h[l + 1] < h[l] ? l + 1 : l;
    if (h[m] >= v) break;
    h[i] = h[m];
    i = m;
  }
  h[i] = v;
}

static int inf_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Changes the slot count to c at time from: new slots are free at from; when shrinking,
 * the slots that come free first go (the in-flight requests themselves are in carry). */
static void inf_resize(inf_state *st, guint32 c, double from) {
  if (c == st->c) return;
  if (c > st->heap_cap) {
    st->heap_cap = MAX(c, st->heap_cap * 2);
    st->heap = g_renew(double, st->heap, st->heap_cap);
  }
  if (c > st->c) {
    for (guint32 i = st->c; i < c; i++) st->heap[i] = from; /* below or equal to every slot */
  } else {
    qsort(st->heap, st->c, sizeof(double), inf_cmp_double);
    memmove(st->heap, st->heap + (st->c - c), c * sizeof(double));
  }
  /* an ascending array is a min-heap; new slots at from sort first */
  qsort(st->heap, c, sizeof(double), inf_cmp_double);
  st->c = c;
}

/* Concurrency the service has now: max_batch, and with kv_gb the requests whose KV cache
 * fits beside the weights in the memory this worker may use (its limit, and what the other
 * residents leave of the device), on the tightest worker. */
static guint32 inf_capacity(const sim *s, const job_run *j) {
  const workload_job *v = workload_job_const(j);
  guint32 c = MAX(v->spec->max_batch, 1u);
  int64_t kv = v->spec->kv_bytes;
  if (kv <= 0) return c;
  for (guint32 w = 0; w < v->n_tasks; w++) {
    int64_t have = workload_job_mem_room(s, j, w);
    int64_t n = have > 0 ? have / kv : 0;
    if (n < (int64_t)c) c = (guint32)n;
  }
  return c;
}

/* Before serving [from, to) at speed v: the in-flight requests' end times were computed at
 * v_prev; their remaining work now goes at v (or not at all when v is 0). */
static void inf_rescale(inf_state *st, double from, double to, double v) {
  if (st->busy_until > from) {
    if (!(v > 0)) {
      double dt = to - from;
      for (guint32 i = 0; i < st->c; i++)
        if (st->heap[i] > from) st->heap[i] += dt;
      for (guint32 i = 0; i < st->n_carry; i++) st->carry[i].end_ns += dt;
      st->busy_until += dt;
      return;
    }
    if (v != st->v_prev) {
      double k = st->v_prev / v;
      for (guint32 i = 0; i < st->c; i++)
        if (st->heap[i] > from) st->heap[i] = from + (st->heap[i] - from) * k;
      for (guint32 i = 0; i < st->n_carry; i++)
        st->carry[i].end_ns = from + (st->carry[i].end_ns - from) * k;
      st->busy_until = from + (st->busy_until - from) * k;
    }
  }
  if (v > 0) st->v_prev = v;
  /* slots free before from are free at from (clamping keeps the heap order) */
  if (st->c && st->heap[0] < from)
    for (guint32 i = 0; i < st->c; i++)
      if (st->heap[i] < from) st->heap[i] = from;
}

/* A request still in service at the end of the interval. In flight there are at most the
 * largest slot count so far plus the requests orphaned by shrinking it, so the array grows
 * (rarely) rather than being sized by c. */
static __attribute__((noinline)) void inf_carry_push(inf_state *st, double end_ns,
                                                      double arrival_ns) {
  if (st->n_carry == st->carry_cap) {
    st->carry_cap = MAX(16u, st->carry_cap * 2);
    st->carry = g_renew(inf_carry, st->carry, st->carry_cap);
  }
  st->carry[st->n_carry].end_ns = end_ns;
  st->carry[st->n_carry].arrival_ns = arrival_ns;
  st->n_carry++;
}

/* Requests in flight at the last boundary that end by to. */
static void inf_finish_carried(inf_state *st, double to) {
  for (guint32 i = 0; i < st->n_carry;) {
    inf_carry *k = &st->carry[i];
    if (k->end_ns <= to) {
      inf_record(st, k->end_ns - k->arrival_ns);
      *k = st->carry[--st->n_carry];
    } else {
      i++;
    }
  }
}

/* The recurrence over the requests that start in [from, to) at speed v; returns the time
 * in [from, to) with at least one request in service. `single` specialises one slot. The
 * hot state lives in locals (the histogram's moments and the SLO counters included) and is
 * written back at the end and around the rare out-of-line calls. */
static inline __attribute__((always_inline)) double
inf_serve_loop(inf_state *st, double from, double to, double v, double turn_mean_ns,
               const gboolean single, const gboolean turns) {
  const double inv_v = 1.0 / v;
  double *h = st->heap;
  const guint32 c = st->c;
  histogram *lat = st->lat;
  const double gap = st->gap_mean_ns, slo = st->slo_ns, work = st->work_mean_ns;
  const gboolean fast_arr = st->fast_poisson;
  const gboolean fixed_work = fast_arr && st->dist == SERVICE_DIST_DETERMINISTIC;
  const gboolean exp_work = fast_arr && st->dist != SERVICE_DIST_DETERMINISTIC;
  rngfast_buf *b_arr = st->b_arr;
  double bu = st->busy_until, gate = st->gate;
  double ps = st->ps < from ? from : st->ps;
  double busy = 0;
  double a = st->next_a, bucket_end = st->bucket_end;
  gboolean more = st->has_next;
  /* the interval's counts are b_n = bn_base + n and b_viol = bv_base + miss (modulo 2^64):
   * two counters fewer in the loop */
  guint64 n = 0, miss = 0, bn_base = st->b_n, bv_base = st->b_viol;
  double sum = 0, lo = INFINITY, hi = -INFINITY;
  double free1 = h[0]; /* one slot: when it comes free, in a register */
  /* one slot serves one request at a time: its busy time is the sum of its service
   * periods (no branch on idle gaps), starting with what the carried request has left */
  if (single && bu > from) busy = (bu < to ? bu : to) - from;
  while (more && a < to) {
    double mf = single ? free1 : h[0];
    double start = a > mf ? a : mf;
    start = start < gate ? gate : start;
    if (turns && bu <= a && gate <= a) {
      /* the service was idle: the request waits for its context's turn (uniform on
       * [0, 2 x mean], docs/models.md) */
      gate = a + 2.0 * turn_mean_ns * gsl_rng_uniform(st->r_turn);
      start = gate;
    }
    if (start >= to) break; /* it waits into the next interval: not consumed */
    if (G_UNLIKELY(a >= bucket_end)) {
      st->b_n = bn_base + n;
      st->b_viol = bv_base + miss;
      inf_move_bucket(st, a);
      bn_base = -n;
      bv_base = -miss;
      bucket_end = st->bucket_end;
    }
    double w;
    if (fixed_work) w = work;
    else if (exp_work) w = work * inf_svc_next(st);
    else if (isnan(st->next_w)) w = inf_draw_work(st);
    else w = st->next_w;
    double svc = w * inv_v;
    if (G_UNLIKELY(st->block_wait > 0)) {
      /* MPS: it first waits for the SMs the neighbours' blocks hold, in proportion to its
       * work w (once per kernel), averaged over the phases svc spans (docs/models.md) */
      double k = svc > st->block_corr_ns ? svc / st->block_corr_ns : 1.0;
      start += gsl_ran_gamma(st->r_block, k, st->block_wait * w / k);
    }
    double end = start + svc;
    if (single) {
      free1 = bu = end;
      if (start < to) busy += (end < to ? end : to) - start;
    } else {
      inf_heap_replace_top(h, c, end);
      if (start > bu) { /* the busy period before ended; a new one starts */
        if (bu > ps) busy += bu - ps;
        ps = start;
      }
      bu = end > bu ? end : bu;
    }
    if (G_LIKELY(end <= to)) {
      double l = end - a;
      histogram_count_bucket(lat, l, 1);
      guint64 m = l > slo;
      n++;
      sum += l;
      lo = l < lo ? l : lo;
      hi = l > hi ? l : hi;
      miss += m;
    } else {
      inf_carry_push(st, end, a);
    }
    if (fast_arr) {
      a += gap * rngfast_buf_exp(b_arr);
    } else {
      st->next_a = a;
      inf_next_arrival(st);
      a = st->next_a;
      more = st->has_next;
    }
  }
  histogram_add_moments(lat, n, sum, lo, hi);
  st->served += n;
  st->violations += miss;
  st->b_n = bn_base + n;
  st->b_viol = bv_base + miss;
  st->next_a = a;
  if (single) h[0] = free1;
  if (!single && bu > ps) busy += (bu < to ? bu : to) - ps;
  st->ps = bu < to ? bu : to;
  st->busy_until = bu;
  st->gate = gate;
  return busy;
}

/* ---- the call-free loop: no turns, Poisson arrivals, fixed or drawn work ---- */

/* Why inf_fast_run stopped: the interval is done, or something it may not do itself (a
 * call would make every double of the loop live in memory) is due before the request at
 * hand, which is then left untouched; or (CARRY) the request it just started is still in
 * service at the end of the interval and its caller must keep it. */
enum { INF_FAST_DONE, INF_FAST_REFILL, INF_FAST_BUCKET, INF_FAST_OCTAVE, INF_FAST_CARRY };

typedef struct inf_fast {
  /* the interval's constants */
  double to, gate, bucket_end, slo, work, inv_v, gap;
  gboolean exp_work;
  histogram *lat;
  rngfast_buf *b_arr, *b_svc;
  double *h;                 /* the slots (c > 1): a min-heap, or sorted from hd on */
  guint32 c, hd;
  /* the loop's state, in and out: as inf_serve_loop's locals of the same names */
  double a, free1, bu, ps, busy, sum, lo, hi;
  guint64 n, miss;
  /* OCTAVE: the latency whose octave is missing; CARRY: the request kept in service */
  double end, arrival;
} inf_fast;

/* Fixed work at a constant speed in FCFS order: starts never decrease, so neither do ends,
 * and the slots kept sorted (a ring from hd, the first to come free) take a request in
 * O(1) instead of a heap's log c: the new end goes in at the back, behind any slot that
 * comes free later (one carried over from another speed). The set of free times is the
 * heap's after every request, so the results are the same. */
static inline void inf_ring_replace_first(double *h, guint32 c, guint32 *hd, double end) {
  guint32 j = *hd;
  for (guint32 k = 1; k < c; k++) {
    guint32 p = j == 0 ? c - 1 : j - 1;
    if (!(h[p] > end)) break;
    h[j] = h[p];
    j = p;
  }
  h[j] = end;
  *hd = *hd + 1 == c ? 0 : *hd + 1;
}

static void inf_reverse(double *h, guint32 lo, guint32 hi) { /* [lo, hi) */
  while (hi > lo + 1) {
    double t = h[lo];
    h[lo++] = h[--hi];
    h[hi] = t;
  }
}

/* The requests of inf_serve_loop(single, !turns) for fast Poisson arrivals, the same
 * arithmetic in the same order, with the state in locals and no call; `sorted`: the slots
 * as inf_ring_replace_first keeps them (fixed work only). */
static inline __attribute__((always_inline)) int inf_fast_loop(inf_fast *x,
                                                                const gboolean single,
                                                                const gboolean sorted) {
  const double to = x->to, gate = x->gate, bucket_end = x->bucket_end, slo = x->slo;
  const double work = x->work, inv_v = x->inv_v, gap = x->gap;
  const gboolean exp_work = x->exp_work;
  histogram *lat = x->lat;
  double *h = x->h;
  const guint32 c = x->c;
  guint32 hd = x->hd;
  const double *arr = x->b_arr->v, *svc = x->b_svc->v;
  guint32 pa = x->b_arr->pos, psv = x->b_svc->pos;
  double a = x->a, free1 = x->free1, bu = x->bu, ps = x->ps, busy = x->busy;
  double sum = x->sum, lo = x->lo, hi = x->hi;
  guint64 n = x->n, miss = x->miss;
  int why;
  for (;;) {
    if (G_UNLIKELY(pa == RNGFAST_BUF || (exp_work && psv == RNGFAST_BUF))) {
      why = INF_FAST_REFILL;
      break;
    }
    /* max(a, first free slot, gate); one slot: gate applied to a, off the
     * free1 -> end -> free1 chain */
    double ag = a < gate ? gate : a;
    double mf = single ? free1 : sorted ? h[hd] : h[0];
    double start = ag > mf ? ag : mf;
    if (!(a < to) || start >= to) {
      why = INF_FAST_DONE;
      break;
    }
    if (G_UNLIKELY(a >= bucket_end)) {
      why = INF_FAST_BUCKET;
      break;
    }
    double w = exp_work ? work * svc[psv] : work;
    double end = start + w * inv_v, l = end - a;
    gboolean in_time = end <= to;
    guint64 *cnt = NULL;
    if (G_LIKELY(in_time)) {
      cnt = histogram_counter(lat, l);
      if (G_UNLIKELY(!cnt)) {
        x->end = l;
        why = INF_FAST_OCTAVE;
        break;
      }
    }
    if (single) {
      free1 = bu = end;
      busy += (in_time ? end : to) - start;
    } else {
      if (sorted) inf_ring_replace_first(h, c, &hd, end);
      else inf_heap_replace_top(h, c, end);
      if (start > bu) { /* the busy period before ended; a new one starts */
        if (bu > ps) busy += bu - ps;
        ps = start;
      }
      bu = end > bu ? end : bu;
    }
    psv += exp_work;
    double arrival = a;
    a += gap * arr[pa++];
    if (G_UNLIKELY(!in_time)) {
      x->end = end;
      x->arrival = arrival;
      why = INF_FAST_CARRY;
      break;
    }
    (*cnt)++;
    n++;
    sum += l;
    lo = l < lo ? l : lo;
    hi = l > hi ? l : hi;
    miss += l > slo;
  }
  x->b_arr->pos = pa;
  x->b_svc->pos = psv;
  x->hd = hd;
  x->a = a;
  x->free1 = free1;
  x->bu = bu;
  x->ps = ps;
  x->busy = busy;
  x->sum = sum;
  x->lo = lo;
  x->hi = hi;
  x->n = n;
  x->miss = miss;
  return why;
}

static __attribute__((noinline)) int inf_fast_run_1(inf_fast *x) {
  return inf_fast_loop(x, TRUE, FALSE);
}
static __attribute__((noinline)) int inf_fast_run_c(inf_fast *x) {
  return inf_fast_loop(x, FALSE, FALSE);
}
static __attribute__((noinline)) int inf_fast_run_sorted(inf_fast *x) {
  return inf_fast_loop(x, FALSE, TRUE);
}

/* inf_serve_loop(st, from, to, v, 0, c == 1, FALSE) when the arrivals are fast Poisson (the
 * work fixed, or drawn factors from the buffer): inf_fast_run_*, and the rare steps between
 * its runs. */
static double inf_serve_fast(inf_state *st, double from, double to, double v) {
  const gboolean exp_work = st->dist != SERVICE_DIST_DETERMINISTIC, single = st->c == 1;
  const gboolean sorted = !single && !exp_work;
  /* an ascending array is a min-heap, and the sorted ring from hd = 0 */
  if (sorted) qsort(st->heap, st->c, sizeof(double), inf_cmp_double);
  double bu = st->busy_until;
  inf_fast x = {.to = to, .gate = st->gate, .bucket_end = st->bucket_end, .slo = st->slo_ns,
                .work = st->work_mean_ns, .inv_v = 1.0 / v, .gap = st->gap_mean_ns,
                .exp_work = exp_work, .lat = st->lat, .b_arr = st->b_arr, .b_svc = st->b_svc,
                .h = st->heap, .c = st->c, .a = st->next_a, .free1 = st->heap[0], .bu = bu,
                .ps = st->ps < from ? from : st->ps, .sum = 0, .lo = INFINITY,
                .hi = -INFINITY};
  guint64 bn_base = st->b_n, bv_base = st->b_viol; /* as in inf_serve_loop */
  if (single && bu > from) x.busy = (bu < to ? bu : to) - from;
  for (;;) {
    int why = single ? inf_fast_run_1(&x) : sorted ? inf_fast_run_sorted(&x) : inf_fast_run_c(&x);
    if (why == INF_FAST_DONE) break;
    switch (why) {
    case INF_FAST_REFILL:
      if (x.b_arr->pos == RNGFAST_BUF) rngfast_buf_fill(x.b_arr);
      if (exp_work && x.b_svc->pos == RNGFAST_BUF) inf_svc_fill(st);
      break;
    case INF_FAST_BUCKET:
      st->b_n = bn_base + x.n;
      st->b_viol = bv_base + x.miss;
      inf_move_bucket(st, x.a);
      bn_base = -x.n;
      bv_base = -x.miss;
      x.bucket_end = st->bucket_end;
      break;
    case INF_FAST_OCTAVE:
      histogram_counter_alloc(x.lat, x.end);
      break;
    default: /* INF_FAST_CARRY */
      inf_carry_push(st, x.end, x.arrival);
    }
  }
  histogram_add_moments(st->lat, x.n, x.sum, x.lo, x.hi);
  st->served += x.n;
  st->violations += x.miss;
  st->b_n = bn_base + x.n;
  st->b_viol = bv_base + x.miss;
  st->next_a = x.a;
  if (single) st->heap[0] = x.free1;
  if (sorted) { /* rotate the ring to start at 0: ascending again, so a heap */
    inf_reverse(st->heap, 0, x.hd);
    inf_reverse(st->heap, x.hd, st->c);
    inf_reverse(st->heap, 0, st->c);
  }
  double busy = x.busy;
  if (!single && x.bu > x.ps) busy += (x.bu < to ? x.bu : to) - x.ps;
  st->ps = x.bu < to ? x.bu : to;
  st->busy_until = x.bu;
  return busy;
}

/* The loop specialised: one slot or c, with or without time-slicing turns. */
#define INF_SERVE(name, single, turns)                                                  \
  static __attribute__((noinline)) double name(inf_state *st, double from, double to,   \
                                               double v, double turn) {                \
    return inf_serve_loop(st, from, to, v, turn, single, turns);                        \
  }
INF_SERVE(inf_serve_1, TRUE, FALSE)
INF_SERVE(inf_serve_1t, TRUE, TRUE)
INF_SERVE(inf_serve_c, FALSE, FALSE)
INF_SERVE(inf_serve_ct, FALSE, TRUE)

/* ---- the workload hooks ---- */

static double inf_offered(const job_run *j) {
  const workload_job *v = workload_job_const(j);
  double o = v->rate_rps * v->spec->service_ms / 1000.0;
  return o > 0 && isfinite(o) ? o : 0;
}

/* Duty for the coming interval at progress rate `rate`: kappa x offered load / rate, capped
 * at 1 (kappa: measured busy time per unit of offered load, from M/M/c's before any
 * measurement; 1 for one slot, which is the fluid view). */
static double inference_duty(const job_run *j, double rate) {
  const workload_job *v = workload_job_const(j);
  const inf_state *st = v->workload_data;
  double offered = inf_offered(j) * (st ? st->kappa : 1.0);
  if (offered <= 0) return 0;
  if (rate <= 0) return v->spec->gpu_util;
  double d = offered / rate;
  return (d > 1.0 ? 1.0 : d) * v->spec->gpu_util;
}

static void inference_advance(sim *s, job_run *j, sim_time from_t, sim_time to_t) {
  const workload_job *job = workload_job_const(j);
  inf_state *st = job->workload_data;
  if (!st || !st->up || to_t <= from_t || !job->n_tasks) return;
  double from = (double)from_t, to = (double)to_t, dt = to - from;
  double v = job->rate;
  double turn;
  workload_job_waits(j, &turn, &st->block_wait, &st->block_corr_ns);
  inf_rescale(st, from, to, v);
  inf_resize(st, inf_capacity(s, j), from);
  inf_finish_carried(st, to);
  double busy;
  if (st->c == 0) {
    /* no room for one request's KV cache: the requests are refused */
    inf_drop_until(st, to);
    busy = st->busy_until > from ? MIN(st->busy_until, to) - from : 0;
    st->ps = MIN(st->busy_until, to);
  } else if (v > 0) {
    gboolean single = st->c == 1, turns = turn > 0;
    /* the call-free loop draws no MPS block waits */
    gboolean fast = !turns && !(st->block_wait > 0) && st->fast_poisson && st->has_next &&
                    !st->general;
    busy = fast               ? inf_serve_fast(st, from, to, v)
           : single && !turns ? inf_serve_1(st, from, to, v, turn)
           : single           ? inf_serve_1t(st, from, to, v, turn)
           : !turns           ? inf_serve_c(st, from, to, v, turn)
                              : inf_serve_ct(st, from, to, v, turn);
  } else { /* stalled: requests wait; those in flight keep their demand */
    busy = st->busy_until > from ? dt : 0;
    st->ps = to;
  }
  st->busy_ns += busy;
  st->up_ns += dt;
  /* The measured busy fraction is gathered over the window; inference_on_timer folds it
   * into kappa at fixed times. j->duty itself is left alone here, so that the job's and its
   * GPU's busy time keep adding up to the same figure. */
  double offered = inf_offered(j);
  if (offered > 0 && v > 0) {
    st->win_obs_ns += busy * v / offered;
    st->win_ns += dt;
  }
}

/* The smoothing window of the measured duty: the scenario's inference.duty_window (default
 * 60 s, an assumption; docs/models.md section 9), as a double. */
static double inf_duty_window_ns(const sim *s) {
  return (double)workload_scenario(s)->inference.duty_window_ns;
}

/* Every duty window of an attempt: the window's measured busy x speed per unit of
 * offered load is folded into kappa (exponential smoothing with the window as time
 * constant) and the service re-rated, so the duty its neighbours see moves at a
 * fixed cadence whatever else happens on the card (issue 11 bug 4). */
static void inference_on_timer(sim *s, job_run *j) {
  workload_job *v = workload_job_of(j);
  inf_state *st = v->workload_data;
  if (!st || !st->up) return;
  workload_job_refresh(s, j); /* measures up to now */
  if (st->win_ns > 0) {
    double obs = st->win_obs_ns / st->win_ns;
    st->kappa += -expm1(-st->win_ns / inf_duty_window_ns(s)) * (obs - st->kappa);
  }
  st->win_obs_ns = st->win_ns = 0;
  workload_job_set_timer(s, j, workload_now(s) + workload_scenario(s)->inference.duty_window_ns);
  workload_job_refresh(s, j); /* the new duty, and the neighbours' speeds with it */
}

/* Prior of kappa before anything is measured: M/M/c's busy fraction 1 - P0 per unit of
 * offered load a (1 for one slot; below 1 when c > 1 slots overlap); 1 / a (busy all the
 * time) when the load is at or above c. P0 in log space, so large c and a do not overflow. */
static double inf_kappa_prior(guint32 c, double a) {
  if (!(a > 0) || c <= 1) return 1.0;
  if (a >= (double)c) return 1.0 / a;
  double la = log(a), top = -INFINITY;
  for (guint32 k = 0; k <= c; k++) {
    double lt = k * la - lgamma(k + 1.0) - (k == c ? log1p(-a / c) : 0);
    if (lt > top) top = lt;
  }
  double sum = 0;
  for (guint32 k = 0; k <= c; k++)
    sum += exp(k * la - lgamma(k + 1.0) - (k == c ? log1p(-a / c) : 0) - top);
  double p0 = exp(-top) / sum;
  return (1.0 - p0) / a;
}

static void inf_state_free_run(inf_state *st) {
  g_clear_pointer(&st->r_arr, gsl_rng_free);
  g_clear_pointer(&st->r_svc, gsl_rng_free);
  g_clear_pointer(&st->r_turn, gsl_rng_free);
  g_clear_pointer(&st->b_arr, g_free);
  g_clear_pointer(&st->b_svc, g_free);
  g_clear_pointer(&st->r_block, gsl_rng_free);
  g_clear_pointer(&st->cur, trace_request_cursor_free);
  g_clear_pointer(&st->heap, g_free);
  g_clear_pointer(&st->carry, g_free);
  st->c = st->heap_cap = st->n_carry = st->carry_cap = 0;
}

static inf_state *inf_state_new(sim *s, job_run *j) {
  workload_job *v = workload_job_of(j);
  const scenario *sc = workload_scenario(s);
  const trace *tr = workload_trace(s);
  const job_spec *sp = v->spec;
  inf_state *st = g_new0(inf_state, 1);
  const scenario_inference *in = &sc->inference;
  st->dist = in->dist;
  st->work_mean_ns = sp->service_ms * 1e6;
  double cv = in->service_cv;
  st->ln_sigma = sqrt(log1p(cv * cv));
  st->has_slo = sp->slo_ms > 0;
  st->slo_ns = st->has_slo ? sp->slo_ms * 1e6 : INFINITY;
  st->allowed_frac = 1.0 - sp->slo_pct / 100.0;
  st->amp = in->daily_amplitude;
  st->peak_ns = (double)in->peak_ns;
  st->r_arr = rng_new(sc->seed, sp->id, INF_STREAM_ARRIVALS);
  st->r_svc = rngfast_gsl_new(sc->seed, sp->id, INF_STREAM_SERVICE);
  st->r_turn = rng_new(sc->seed, sp->id, INF_STREAM_TURNS);
  st->b_arr = g_new(rngfast_buf, 1);
  st->b_svc = g_new(rngfast_buf, 1);
  rngfast_buf_seed(st->b_arr, sc->seed, sp->id, INF_STREAM_ARRIVALS_FAST);
  rngfast_buf_seed(st->b_svc, sc->seed, sp->id, INF_STREAM_SERVICE_FAST);
  st->r_block = rng_new(sc->seed, sp->id, INF_STREAM_BLOCKS);
  st->recorded = sp->has_requests;
  st->general = workload_reference(s, SIM_REF_REQUESTS);
  if (st->recorded && tr->requests_path) {
    /* a file that vanished since it was checked gives no arrivals */
    st->cur = trace_request_cursor_open(tr->requests_path, sp->id, NULL);
  }
  st->lat = histogram_new();
  st->m = workload_metrics(s);
  st->pool = (guint32)v->pool;
  st->interval_ns = (double)metrics_interval_ns(st->m);
  st->bucket = 0;
  st->bucket_end = st->interval_ns;
  st->gate = -INFINITY;
  inf_set_rate(st, v->rate_rps);
  if (st->recorded) {
    st->next_a = 0;
    inf_next_arrival(st);
  } else {
    /* the users' requests start at the submission, not when the service finally gets a
     * GPU: those that arrive while it waits are dropped by on_start (issue 11 bug 7) */
    st->next_a = inf_poisson_after(st, (double)v->submit);
    st->next_w = NAN;
    st->has_next = isfinite(st->next_a);
  }
  return st;
}

static void inference_on_start(sim *s, job_run *j) {
  workload_job *v = workload_job_of(j);
  inf_state *st = v->workload_data;
  double now = (double)workload_now(s);
  if (!st && workload_scenario(s)->inference.fluid) {
    /* inference.model: fluid: the offered load only (no requests, no latencies) */
    workload_job_set_demand(s, j, FALSE, 0.0, 0);
    return;
  }
  if (!st) {
    v->workload_data = st = inf_state_new(s, j);
    st->kappa = inf_kappa_prior(inf_capacity(s, j), inf_offered(j));
  }
  /* requests that came while the service was not up (before its first start, or while
   * it waited to restart) found no server; none count after its session was over */
  double session_end = v->session_end >= 0 ? (double)v->session_end : INFINITY;
  inf_drop_until(st, MIN(now, session_end));
  inf_skip_until(st, now);
  if (!st->recorded && st->rate_rps != (v->rate_rps > 0 ? v->rate_rps : 0)) {
    /* an attempt starts from the trace's rate again (phases apply anew) */
    inf_set_rate(st, v->rate_rps);
    st->next_a = inf_poisson_after(st, now);
    st->next_w = NAN;
    st->has_next = isfinite(st->next_a);
  }
  st->c = 0;
  st->n_carry = 0;
  inf_resize(st, inf_capacity(s, j), now);
  st->busy_until = st->ps = now;
  st->gate = -INFINITY;
  st->v_prev = v->rate > 0 ? v->rate : 1.0;
  st->up = TRUE;
  st->win_obs_ns = st->win_ns = 0;
  workload_job_set_timer(s, j, (sim_time)now + workload_scenario(s)->inference.duty_window_ns);
  /* no unit of work ends: the service ends with its session (sim.c's session end) */
  workload_job_set_demand(s, j, FALSE, 0.0, 0);
}

/* The attempt stops (after advance() brought it to now). A kill drops the requests in
 * flight and waiting; the end of the session (or of the run) leaves them unanswered. */
static void inf_stop(inf_state *st, double now, gboolean killed) {
  if (!st->up) return;
  if (killed) {
    for (guint32 i = 0; i < st->n_carry; i++) inf_drop_one(st);
    inf_drop_until(st, now);
  } else {
    inf_unanswer_until(st, now);
  }
  st->n_carry = 0;
  st->up = FALSE;
}

static void inference_on_stop(sim *s, job_run *j) {
  workload_job *v = workload_job_of(j);
  inf_state *st = v->workload_data;
  if (!st) return;
  sim_time now = workload_now(s);
  inf_stop(st, (double)now, now < v->session_end);
}

/* Closes the books of the service at now (once): the last interval, the streams. */
static void inf_finalise(inf_state *st, double now, gboolean queued, double session_end) {
  if (st->finalised) return;
  if (st->up) inf_stop(st, now, FALSE);
  else if (queued) inf_drop_until(st, MIN(now, session_end)); /* waiting to restart at the end */
  inf_close_bucket(st);
  inf_state_free_run(st);
  st->finalised = TRUE;
}

static void inference_on_done(sim *s, job_run *j) {
  workload_job *v = workload_job_of(j);
  inf_state *st = v->workload_data;
  if (!st) return;
  if (!st->finalised) { /* done for good: keep the figures for the report */
    inf_finalise(st, (double)workload_now(s), FALSE, INFINITY);
    return;
  }
  histogram_free(st->lat);
  g_free(st);
  v->workload_data = NULL;
}

static void inference_on_phase(sim *s, job_run *j) {
  workload_job *v = workload_job_of(j);
  inf_state *st = v->workload_data;
  workload_job_refresh(s, j); /* serves up to now with the old rate's arrivals */
  if (!st || st->recorded) return;
  double old = st->rate_rps;
  inf_set_rate(st, v->rate_rps);
  if (old == st->rate_rps) return;
  /* Poisson arrivals are memoryless: the next one is drawn again from now */
  st->next_a = inf_poisson_after(st, (double)workload_now(s));
  st->next_w = NAN;
  st->has_next = isfinite(st->next_a);
}

static void inference_report(sim *s, job_run *j) {
  workload_job *v = workload_job_of(j);
  const scenario *sc = workload_scenario(s);
  inf_state *st = v->workload_data;
  const job_spec *sp = v->spec;
  service_result sr = {
      .id = sp->id,
      .pool = v->pool >= 0 ? scenario_pool(sc, (guint)v->pool)->name : "",
      .mean_ms = NAN, .p50_ms = NAN, .p95_ms = NAN, .p99_ms = NAN, .max_ms = NAN,
      .slo_ms = sp->slo_ms > 0 ? sp->slo_ms : NAN,
      .slo_pct = sp->slo_pct,
      .attainment_pct = NAN,
      .met = -1,
      .busy_frac = NAN,
  };
  if (st) {
    inf_finalise(st, (double)workload_now(s), workload_job_queued(j),
                 v->session_end >= 0 ? (double)v->session_end : INFINITY);
    sr.served = st->served;
    sr.dropped = st->dropped;
    sr.unanswered = st->unanswered;
    sr.requests = st->served + st->dropped + st->unanswered;
    sr.violations = st->violations;
    if (st->served) {
      const histogram *h = st->lat;
      sr.mean_ms = histogram_mean(h) / 1e6;
      sr.p50_ms = histogram_quantile(h, 0.50) / 1e6;
      sr.p95_ms = histogram_quantile(h, 0.95) / 1e6;
      sr.p99_ms = histogram_quantile(h, 0.99) / 1e6;
      sr.max_ms = histogram_max(h) / 1e6;
    }
    if (st->has_slo && sr.requests) {
      sr.attainment_pct = 100.0 * (double)(sr.requests - sr.violations) / (double)sr.requests;
      sr.met = sr.attainment_pct >= sp->slo_pct * (1.0 - 1e-12) ? 1 : 0;
      sr.violation_intervals = st->viol_buckets;
      sr.violation_minutes = st->viol_buckets * st->interval_ns / 60e9;
    }
    sr.busy_frac = st->up_ns > 0 ? st->busy_ns / st->up_ns : NAN;
    /* a histogram that saw nothing writes no rows: none is kept (fluid services) */
    sr.latency_ns = histogram_count(st->lat) ? histogram_copy(st->lat) : NULL;
  }
  workload_service(s, &sr);
}

static void inference_on_work_done(sim *s, job_run *j) {}
static double inference_rate(const job_run *j, double min_speed) { return min_speed; }

const workload_ops workload_inference_ops = {
    .kind = JOB_INFERENCE,
    .name = "inference",
    .session = TRUE,
    .on_start = inference_on_start,
    .on_work_done = inference_on_work_done,
    .on_timer = inference_on_timer,
    .rate = inference_rate,
    .duty = inference_duty,
    .on_phase = inference_on_phase,
    .advance = inference_advance,
    .on_stop = inference_on_stop,
    .on_done = inference_on_done,
    .report = inference_report,
};
