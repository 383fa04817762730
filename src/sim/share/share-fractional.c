/* share-fractional.c: fractional GPU sharing as production layers do it (Alibaba GPU
 * share / cGPU, HAMi, Run:ai fractions): a job asks for gpu_frac of one GPU and gets that
 * share of its memory as a hard limit (going over kills only itself) and of its compute
 * as a guarantee; compute its neighbours leave idle may be borrowed, up to fraction_cap
 * beyond its share. Workers are packed onto GPUs while the shares sum to at most 1, at most
 * max_jobs_per_gpu residents per GPU (its own pool key, default 20); a gang's workers each take gpu_frac of a GPU, on
 * distinct GPUs when there are free ones, else several on one (as a device plugin allows). The speed model is in docs/models.md ("Fractional GPUs").
 * Exports share_fractional_ops only. */
#include "share.h"
#include <math.h>

/* Most residents one GPU takes by default (`max_jobs_per_gpu`; 5 % granularity, an
 * assumption: HAMi's default split count is 10 [S133]). It also bounds the free-slot buckets
 * of cluster.c, which grow with slots per node. */
#define FRACTIONAL_SLOTS 20u
#define FRACTIONAL_MAX_SLOTS 1000u
#define FRACTIONAL_EPS SHARE_EPS

/* The pool's own values (pool_spec.strategy_conf). */
typedef struct fractional_conf {
  guint32 max_jobs_per_gpu;
} fractional_conf;

static guint32 fractional_slots(const pool_spec *p) {
  const fractional_conf *c = p->strategy_conf;
  return c ? c->max_jobs_per_gpu : FRACTIONAL_SLOTS;
}

/* Workers of one job an empty GPU takes: shares summing to at most 1, at most the slots. */
static guint64 fractional_workers_per_gpu(const pool_spec *p, const job_spec *j) {
  double k = floor((1.0 + FRACTIONAL_EPS) / j->gpu_frac);
  guint32 slots = fractional_slots(p);
  return k >= slots ? slots : (k < 1 ? 1 : (guint64)k);
}

static gboolean fractional_can_ever_fit(const pool_spec *p, const job_spec *j, char **reason) {
  guint64 total = pool_gpus(p);
  guint64 per_gpu = fractional_workers_per_gpu(p, j);
  if (j->gpus > total * per_gpu) {
    if (per_gpu == 1)
      *reason = g_strdup_printf("needs %u GPUs; pool '%s' has %" G_GUINT64_FORMAT, j->gpus,
                                p->name, total);
    else
      *reason = g_strdup_printf("needs %u workers of %g GPU; pool '%s' has %" G_GUINT64_FORMAT
                                " GPU%s, room for %" G_GUINT64_FORMAT, j->gpus, j->gpu_frac,
                                p->name, total, total == 1 ? "" : "s", total * per_gpu);
    return FALSE;
  }
  if (j->mem_bytes > share_fraction_mem_limit(p, j->gpu_frac)) {
    *reason = g_strdup_printf("needs %.2f GB per worker; its share %g of a %s holds %.2f GB",
                              UTIL_GB(j->mem_bytes), j->gpu_frac, p->gpu->name,
                              UTIL_GB(share_fraction_mem_limit(p, j->gpu_frac)));
    return FALSE;
  }
  return TRUE;
}

static double fractional_worker_share(const job_spec *j) { return j->gpu_frac; }

/* g->share_used is cluster.c's sum of residents' gpu_frac (the placement index) */
static gboolean fractional_gpu_accepts(const share_pool *p, const gpu_state *g, const share_job *j,
                                       gpu_state *const *taken, guint n_taken, guint32 *slot) {
  /* workers of this job already chosen for g in this attempt count like residents */
  guint32 here = 0;
  for (guint i = 0; i < n_taken; i++)
    if (taken[i] == g) here++;
  if (g->slots_used + here >= p->slots_per_gpu) return FALSE;
  if (g->share_used + (double)(here + 1) * j->spec->gpu_frac > 1.0 + SHARE_EPS) return FALSE;
  *slot = g->slots_used + here;
  return TRUE;
}

/* Speeds by share_fill_speeds (share.c; docs/models.md "Fractional GPUs"): each resident is
 * guaranteed its gpu_frac and may borrow up to fraction_cap beyond it. */
static void fractional_update_speeds(const share_pool *p, gpu_state *g) {
  share_fill_speeds(p, g, &share_fill_fractional);
}

/* ---- its pool keys (scenario.h: pool_check) ---- */

static const scenario_key fractional_key_cap = {
    "fraction_cap", "1", "most compute a job may borrow beyond its share (a fraction of "
    "the card)", "0.25..1"};
static const scenario_key fractional_key_max_jobs = {
    "max_jobs_per_gpu", "20" /* FRACTIONAL_SLOTS */, "most residents one card takes",
    NULL};
static const scenario_key *const fractional_keys[] = {
    &scenario_key_timeslice, &scenario_key_context_switch, &fractional_key_cap,
    &fractional_key_max_jobs, NULL};

static void fractional_validate_pool(pool_check *c, pool_spec *p) {
  pool_check_timeslice(c, p);
  pool_check_number(c, "fraction_cap", "a fraction greater than 0 and at most 1", 0, TRUE, 1,
                    FALSE, &p->fraction_cap);
  fractional_conf *conf = g_new0(fractional_conf, 1);
  conf->max_jobs_per_gpu = FRACTIONAL_SLOTS;
  p->strategy_conf = conf;
  int64_t n;
  if (pool_check_int(c, "max_jobs_per_gpu", 1, FRACTIONAL_MAX_SLOTS, &n))
    conf->max_jobs_per_gpu = (guint32)n;
}
static void fractional_describe(GString *s, const pool_spec *p) {
  scenario_describe_no_sharing(s, p);
  scenario_describe_oom(s, p);
}

const share_ops share_fractional_ops = {
    .input = {.name = "fractional", .example = "", .keys = fractional_keys,
              .validate = fractional_validate_pool, .describe = fractional_describe,
              .capacity = SCENARIO_CAPACITY_SHARES, .capacity_key = &fractional_key_max_jobs},
    .description = "fractional GPUs: a memory share as a hard limit, a compute share as a "
                   "guarantee, idle compute lent up to fraction_cap",
    .implemented = TRUE,
    .slots_per_gpu = fractional_slots,
    .can_ever_fit = fractional_can_ever_fit,
    .gpu_accepts = fractional_gpu_accepts,
    .update_speeds = fractional_update_speeds,
    .gauges = share_default_gauges,
    .mem_capacity = share_fraction_mem_capacity,
    .oom_victims = share_offender_oom_victims,
    .crash_victims = share_default_crash_victims,
    .worker_share = fractional_worker_share,
};
