/* share-hami.c: HAMi (Project-HAMi) as its scheduler and HAMi-core enforce it: each
 * container asks a memory limit (nvidia.com/gpumem: the trace's mem_gb) and a core
 * percentage (nvidia.com/gpucores: gpu_frac x 100, or the pool's `gpucores`), enforced
 * separately; a card takes at most device_split_count containers whose limits fit its memory
 * and whose cores sum to at most 100 %. A container past its own limit dies alone; its core
 * share is a hard cap (core_policy force), a guarantee it may exceed while the others idle
 * (default), or ignored (disable: plain time-slicing). deviceMemoryScaling S scales the
 * memory the scheduler counts; above 1 HAMi-core lets the containers of a card hold S x its
 * memory, the rest in host memory at a slowdown (share_oversub). docs/models.md ("HAMi",
 * "Memory oversubscription"). Exports share_hami_ops only. */
#include "share.h"
#include <math.h>

/* deviceSplitCount's default, 10 vGPUs per card [S133]; at most as many as fractional. */
#define HAMI_SPLIT 10u
#define HAMI_MAX_SPLIT 1000u

/* GPU_CORE_UTILIZATION_POLICY [S251]: default (soft), force (hard cap), disable */
typedef enum { HAMI_CORES_DEFAULT = 0, HAMI_CORES_FORCE, HAMI_CORES_DISABLE } hami_policy;
static const char *const hami_policy_names[] = {"default", "force", "disable", NULL};

/* The pool's own values (pool_spec.strategy_conf). */
typedef struct hami_conf {
  guint32 split;     /* device_split_count */
  int policy;        /* hami_policy */
  double cores;      /* gpucores / 100 for every container; 0: its gpu_frac */
  double scaling;    /* device_memory_scaling (deviceMemoryScaling) */
  double mem_mib;    /* gpumem: every container's memory limit in MiB; 0: its own memory */
  double mem_pct;    /* gpumem_percentage: the same in percent of the card; 0: unset */
  share_oversub over; /* ratio: the scaling when above 1 (CUDA_OVERSUBSCRIBE), else 1 */
} hami_conf;

static const hami_conf hami_defaults = {HAMI_SPLIT, HAMI_CORES_DEFAULT, 0, 1.0, 0, 0,
                                        {1.0, SHARE_OVERSUB_SLOWDOWN}};

static const hami_conf *hami_conf_of(const pool_spec *p) {
  return p->strategy_conf ? p->strategy_conf : &hami_defaults;
}

static guint32 hami_slots(const pool_spec *p) { return hami_conf_of(p)->split; }

/* The memory the scheduler counts on a card: its own x deviceMemoryScaling. */
static int64_t hami_registered(const pool_spec *p) {
  double s = hami_conf_of(p)->scaling;
  return s == 1.0 ? p->gpu->mem_bytes : (int64_t)((double)p->gpu->mem_bytes * s);
}

/* A container's core share (nvidia.com/gpucores / 100) and memory limit (nvidia.com/gpumem:
 * the pool's gpumem or gpumem_percentage of the card when set, as every container of a Pod
 * file asks it; else its mem_gb, plus an inference service's KV cache at full batch,
 * kv_gb x max_batch, so that it can serve its batch; none asked: the whole card, as
 * gpumem-percentage 100). */
static double hami_cores(const pool_spec *p, const job_spec *j) {
  const hami_conf *c = hami_conf_of(p);
  return c->cores > 0 ? c->cores : j->gpu_frac;
}

/* The pool's fixed limit in bytes (gpumem, gpumem_percentage), 0 when none. */
static int64_t hami_fixed_limit(const pool_spec *p) {
  const hami_conf *c = hami_conf_of(p);
  if (c->mem_mib > 0) return (int64_t)(c->mem_mib * 1048576.0);
  return c->mem_pct > 0 ? (int64_t)((double)p->gpu->mem_bytes * c->mem_pct / 100.0) : 0;
}

static int64_t hami_mem_limit(const pool_spec *p, const job_spec *j) {
  int64_t card = hami_registered(p);
  int64_t fixed = hami_fixed_limit(p);
  if (fixed > 0) return MIN(fixed, card);
  int64_t want = j->mem_bytes + j->kv_bytes * (int64_t)MAX(j->max_batch, 1u);
  return want > 0 && want < card ? want : card;
}

/* Containers of one job an empty card takes: the split count, cores and memory. */
static guint64 hami_workers_per_gpu(const pool_spec *p, const job_spec *j) {
  double by_cores = floor((1.0 + SHARE_EPS) / hami_cores(p, j));
  double by_mem = floor((double)hami_registered(p) / (double)hami_mem_limit(p, j));
  double k = MIN(by_cores, by_mem);
  guint32 slots = hami_slots(p);
  return k >= slots ? slots : (k < 1 ? 1 : (guint64)k);
}

static gboolean hami_can_ever_fit(const pool_spec *p, const job_spec *j, char **reason) {
  guint64 total = pool_gpus(p), per_gpu = hami_workers_per_gpu(p, j);
  if (j->gpus > total * per_gpu) {
    *reason = g_strdup_printf("needs %u containers of %g cores and %.2f GB; pool '%s' has %"
                              G_GUINT64_FORMAT " GPU%s, room for %" G_GUINT64_FORMAT,
                              j->gpus, 100.0 * hami_cores(p, j), UTIL_GB(hami_mem_limit(p, j)),
                              p->name, total, total == 1 ? "" : "s", total * per_gpu);
    return FALSE;
  }
  int64_t fixed = hami_fixed_limit(p);
  if (fixed > 0 && j->mem_bytes > fixed) {
    *reason = g_strdup_printf("needs %.2f GB per worker; a container of pool '%s' may hold "
                              "%.2f GB (nvidia.com/gpumem)", UTIL_GB(j->mem_bytes), p->name,
                              UTIL_GB(fixed));
    return FALSE;
  }
  if (j->mem_bytes > hami_registered(p)) {
    *reason = g_strdup_printf("needs %.2f GB per worker; a %s holds %.2f GB",
                              UTIL_GB(j->mem_bytes), p->gpu->name, UTIL_GB(hami_registered(p)));
    return FALSE;
  }
  return TRUE;
}

/* HAMi's filter for one card: fewer containers than the split count, the cores and the
 * memory limits of its containers and this one's (and this job's workers already chosen
 * for the card) within 100 % and the card's memory. Which card among those that pass is the
 * pool's placement (pack: HAMi's binpack). */
static gboolean hami_gpu_accepts(const share_pool *p, const gpu_state *g, const share_job *j,
                                 gpu_state *const *taken, guint n_taken, guint32 *slot) {
  guint32 here = 0;
  for (guint i = 0; i < n_taken; i++)
    if (taken[i] == g) here++;
  if (g->slots_used + here >= p->slots_per_gpu) return FALSE;
  double cores = (double)(here + 1) * hami_cores(p->spec, j->spec);
  int64_t mem = (int64_t)(here + 1) * hami_mem_limit(p->spec, j->spec);
  for (guint i = 0; i < g->n_residents; i++) {
    const job_spec *o = share_resident_job(g, i)->spec;
    cores += hami_cores(p->spec, o);
    mem += hami_mem_limit(p->spec, o);
  }
  if (cores > 1.0 + SHARE_EPS || mem > hami_registered(p->spec)) return FALSE;
  *slot = g->slots_used + here;
  return TRUE;
}

static double hami_fill_share(const share_pool *p, const share_job *j) {
  return hami_cores(p->spec, j->spec);
}
static double hami_fill_cap(const share_pool *p, const share_job *j) {
  return hami_conf_of(p->spec)->policy == HAMI_CORES_FORCE ? 0.0 : 1.0;
}
static const share_fill hami_fill = {hami_fill_share, hami_fill_cap};

/* force: its core share and nothing more (share_fill_speeds with no borrowing); default:
 * the share guaranteed, idle cores borrowed; disable: time-slicing's contention curve. */
static void hami_update_speeds(const share_pool *p, gpu_state *g) {
  const hami_conf *c = hami_conf_of(p->spec);
  if (c->policy != HAMI_CORES_DISABLE) {
    share_fill_speeds(p, g, &hami_fill);
  } else {
    share_timeslice_speeds(p, g);
    for (guint i = 0; i < g->n_residents; i++) {
      task *t = g->residents[i];
      t->alloc_share = hami_cores(p->spec, share_job_of(t->job)->spec);
    }
  }
  if (c->over.ratio > 1.0) share_oversub_speeds(p, g, &c->over);
}

static int64_t hami_device_mem(const share_pool *p) {
  return share_oversub_device_mem(p->spec, &hami_conf_of(p->spec)->over);
}

static int64_t hami_mem_capacity(const share_pool *p, const gpu_state *g, const task *t) {
  return hami_mem_limit(p->spec, share_job_of(t->job)->spec);
}

/* The budget (src/sim/budget.c): alone, a hard cap of c runs at c; the residents are the
 * split count, or more guarantees of c. */
static void hami_budget_bound(const pool_spec *p, const job_spec *j, double *residents,
                              double *alone) {
  double c = MAX(hami_cores(p, j), 1e-3);
  const share_oversub *o = &hami_conf_of(p)->over;
  *alone = (o->ratio > 1.0 ? o->slowdown : 1.0) / c;
  *residents = MAX(*alone, (double)hami_slots(p));
}

/* ---- its pool keys (scenario.h: pool_check) ---- */

static const scenario_key hami_key_split = {
    "device_split_count", "10", "most containers one card takes (HAMi's deviceSplitCount)",
    "2|4|10"};
static const scenario_key hami_key_policy = {
    "core_policy", "default", "GPU_CORE_UTILIZATION_POLICY: default (the core share is a "
    "guarantee, idle cores are borrowed), force (a hard cap) or disable (no core limit)",
    "default|force|disable"};
static const scenario_key hami_key_cores = {
    "gpucores", "gpu_frac x 100", "core percentage of every container (nvidia.com/gpucores), "
    "more than 0 and at most 100", "10..100"};
static const scenario_key hami_key_scaling = {
    "device_memory_scaling", "1", "deviceMemoryScaling: the memory the scheduler counts on a "
    "card, in cards (0 < S <= 10); above 1 the containers may hold more than the card, the "
    "rest in host memory, slowed (migration_slowdown)", "1|1.5|2"};
static const scenario_key hami_key_mem = {
    "gpumem", "mem_gb", "memory limit of every container in MiB (nvidia.com/gpumem); default: "
    "its own memory", NULL};
static const scenario_key hami_key_mem_pct = {
    "gpumem_percentage", "none", "memory limit of every container in percent of the card "
    "(nvidia.com/gpumem-percentage), instead of gpumem", NULL};
static const scenario_key *const hami_keys[] = {
    &scenario_key_timeslice, &scenario_key_context_switch, &hami_key_split, &hami_key_policy,
    &hami_key_cores, &hami_key_scaling, &share_key_migration_slowdown, &hami_key_mem,
    &hami_key_mem_pct, NULL};

/* gpumem / gpumem_percentage (one of them), else the Pod file's; and the Pod file's
 * gpucores where the pool sets none. */
static void hami_validate_limits(pool_check *c, pool_spec *p, hami_conf *conf) {
  const pod_gpu *pod = p->pod && p->pod->kind == POD_HAMI ? p->pod : NULL;
  gboolean mem = pool_check_number(c, "gpumem", "a memory limit in MiB greater than 0", 0, TRUE,
                                   1048576.0, FALSE, &conf->mem_mib);
  gboolean pct = pool_check_number(c, "gpumem_percentage", "a percentage greater than 0 and "
                                   "at most 100", 0, TRUE, 100, FALSE, &conf->mem_pct);
  if (mem && pct)
    pool_check_report(c, pool_check_key(c, "gpumem_percentage"), "%s: gpumem and "
                      "gpumem_percentage together: HAMi takes one or the other",
                      pool_check_prefix(c));
  if (!pool_check_key(c, "gpumem") && !pool_check_key(c, "gpumem_percentage") && pod) {
    conf->mem_mib = pod->mem_mib;
    conf->mem_pct = pod->mem_percent;
  }
  if (!pool_check_key(c, "gpucores") && pod && pod->cores > 0) conf->cores = pod->cores;
}

static void hami_validate_pool(pool_check *c, pool_spec *p) {
  pool_check_timeslice(c, p);
  hami_conf *conf = g_new0(hami_conf, 1);
  *conf = hami_defaults;
  p->strategy_conf = conf;
  int64_t n;
  int e;
  if (pool_check_int(c, "device_split_count", 1, HAMI_MAX_SPLIT, &n)) conf->split = (guint32)n;
  if (pool_check_enum(c, "core_policy", hami_policy_names, &e)) conf->policy = e;
  double pct;
  if (pool_check_number(c, "gpucores", "a core percentage greater than 0 and at most 100", 0,
                        TRUE, 100, FALSE, &pct))
    conf->cores = pct / 100.0;
  double sc;
  if (pool_check_number(c, "device_memory_scaling", "a scaling greater than 0 and at most 10", 0,
                        TRUE, 10, FALSE, &sc))
    conf->scaling = sc;
  conf->over.ratio = MAX(conf->scaling, 1.0);
  share_oversub_check(c, &conf->over);
  hami_validate_limits(c, p, conf);
}

static void hami_describe(GString *s, const pool_spec *p) {
  const hami_conf *c = hami_conf_of(p);
  g_string_append_printf(s, ", split %u, cores %s", c->split, hami_policy_names[c->policy]);
  if (c->cores > 0) g_string_append_printf(s, " %g%%", 100.0 * c->cores);
  if (c->mem_mib > 0) g_string_append_printf(s, ", gpumem %g MiB", c->mem_mib);
  if (c->mem_pct > 0) g_string_append_printf(s, ", gpumem %g%% of the card", c->mem_pct);
  if (c->scaling < 1.0) g_string_append_printf(s, ", memory counted %g x the card", c->scaling);
  share_oversub_describe(s, &c->over);
  scenario_describe_no_sharing(s, p);
}

const share_ops share_hami_ops = {
    .input = {.name = "hami", .example = "    core_policy: force\n", .keys = hami_keys,
              .validate = hami_validate_pool, .describe = hami_describe,
              .capacity = SCENARIO_CAPACITY_UNJUDGED, .capacity_key = &hami_key_split},
    .description = "HAMi: a memory limit and a core percentage per container, enforced "
                   "separately by HAMi-core",
    .implemented = TRUE,
    .slots_per_gpu = hami_slots,
    .can_ever_fit = hami_can_ever_fit,
    .gpu_accepts = hami_gpu_accepts,
    .update_speeds = hami_update_speeds,
    .gauges = share_default_gauges,
    .mem_capacity = hami_mem_capacity,
    .oom_victims = share_offender_oom_victims,
    .crash_victims = share_default_crash_victims,
    .budget_bound = hami_budget_bound,
    .device_mem = hami_device_mem,
};
