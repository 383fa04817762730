/* share-kai.c: GPU fractions as the KAI scheduler (kai-scheduler/KAI-Scheduler) gives them:
 * a pod asks a fraction of one GPU (its gpu_frac, or the pool's `gpu_fraction`); fractions
 * are bin-packed onto shared GPUs (a reservation pod holds each one) while they sum to at
 * most 1, at most max_pods_per_gpu pods per GPU. enforcement none (the open-source
 * scheduler): nothing is enforced, the residents time-slice with equal turns whatever their
 * fraction and share the card's memory, an OOM reaching neighbours by the pool's oom policy;
 * enforced: the fraction is a memory limit and a compute guarantee, as fractional's.
 * docs/models.md ("KAI scheduler fractions"). Exports share_kai_ops only. */
#include "share.h"
#include <math.h>

/* Pods one GPU takes at most by default (as fractional's max_jobs_per_gpu: an assumption;
 * KAI sets no count, only the fractions' sum). */
#define KAI_SLOTS 20u
#define KAI_MAX_SLOTS 1000u

typedef enum { KAI_NONE = 0, KAI_ENFORCED } kai_enforcement;
static const char *const kai_enforcement_names[] = {"none", "enforced", NULL};

/* The pool's own values (pool_spec.strategy_conf). */
typedef struct kai_conf {
  guint32 slots;    /* max_pods_per_gpu */
  int enforcement;  /* kai_enforcement */
  double fraction;  /* gpu_fraction of every pod; 0: its gpu_frac */
} kai_conf;

static const kai_conf kai_defaults = {KAI_SLOTS, KAI_NONE, 0};

static const kai_conf *kai_conf_of(const pool_spec *p) {
  return p->strategy_conf ? p->strategy_conf : &kai_defaults;
}

static guint32 kai_slots(const pool_spec *p) { return kai_conf_of(p)->slots; }

static gboolean kai_enforced(const pool_spec *p) {
  return kai_conf_of(p)->enforcement == KAI_ENFORCED;
}

/* The fraction a pod asks (KAI's gpu-fraction annotation). */
static double kai_frac(const pool_spec *p, const job_spec *j) {
  const kai_conf *c = kai_conf_of(p);
  return c->fraction > 0 ? c->fraction : j->gpu_frac;
}

/* The memory a pod may hold before its allocation fails: its fraction of the card when
 * enforced, else the card's. */
static int64_t kai_mem_limit(const pool_spec *p, const job_spec *j) {
  return kai_enforced(p) ? share_fraction_mem_limit(p, kai_frac(p, j)) : p->gpu->mem_bytes;
}

static gboolean kai_can_ever_fit(const pool_spec *p, const job_spec *j, char **reason) {
  guint64 total = pool_gpus(p);
  double k = floor((1.0 + SHARE_EPS) / kai_frac(p, j));
  guint64 per_gpu = k >= kai_slots(p) ? kai_slots(p) : (k < 1 ? 1 : (guint64)k);
  if (j->gpus > total * per_gpu) {
    *reason = g_strdup_printf("needs %u pods of %g GPU; pool '%s' has %" G_GUINT64_FORMAT
                              " GPU%s, room for %" G_GUINT64_FORMAT, j->gpus, kai_frac(p, j),
                              p->name, total, total == 1 ? "" : "s", total * per_gpu);
    return FALSE;
  }
  if (j->mem_bytes > kai_mem_limit(p, j)) {
    *reason = g_strdup_printf("needs %.2f GB per worker; %s holds %.2f GB",
                              UTIL_GB(j->mem_bytes), kai_enforced(p) ? "its fraction" : "the card",
                              UTIL_GB(kai_mem_limit(p, j)));
    return FALSE;
  }
  return TRUE;
}

/* KAI's filter for one GPU: the fractions of its pods and this one's (and this job's pods
 * already chosen for it) at most 1, fewer pods than max_pods_per_gpu. Which GPU among those
 * that pass is the pool's placement (pack: KAI's bin-packing onto shared GPUs). */
static gboolean kai_gpu_accepts(const share_pool *p, const gpu_state *g, const share_job *j,
                                gpu_state *const *taken, guint n_taken, guint32 *slot) {
  guint32 here = 0;
  for (guint i = 0; i < n_taken; i++)
    if (taken[i] == g) here++;
  if (g->slots_used + here >= p->slots_per_gpu) return FALSE;
  double sum = (double)(here + 1) * kai_frac(p->spec, j->spec);
  for (guint i = 0; i < g->n_residents; i++) sum += kai_frac(p->spec, share_resident_job(g, i)->spec);
  if (sum > 1.0 + SHARE_EPS) return FALSE;
  *slot = g->slots_used + here;
  return TRUE;
}

static double kai_fill_share(const share_pool *p, const share_job *j) {
  return kai_frac(p->spec, j->spec);
}
static double kai_fill_cap(const share_pool *p, const share_job *j) {
  return p->spec->fraction_cap;
}
static const share_fill kai_fill = {kai_fill_share, kai_fill_cap};

/* none: time-slicing's equal turns (its contention curve), whatever the fractions;
 * enforced: fractional's guarantee and borrowing. Each pod is allocated its fraction. */
static void kai_update_speeds(const share_pool *p, gpu_state *g) {
  if (kai_enforced(p->spec)) {
    share_fill_speeds(p, g, &kai_fill);
    return;
  }
  share_timeslice_speeds(p, g);
  for (guint i = 0; i < g->n_residents; i++) {
    task *t = g->residents[i];
    t->alloc_share = kai_frac(p->spec, share_job_of(t->job)->spec);
  }
}

static int64_t kai_mem_capacity(const share_pool *p, const gpu_state *g, const task *t) {
  return kai_mem_limit(p->spec, share_job_of(t->job)->spec);
}

/* none: the card's memory is everyone's, the pool's oom policy picks the victims;
 * enforced: the limits partition the card, the offender dies alone. */
static void kai_oom_victims(const share_pool *p, gpu_state *g, task *offender,
                            GPtrArray *victims) {
  if (kai_enforced(p->spec)) share_offender_oom_victims(p, g, offender, victims);
  else share_default_oom_victims(p, g, offender, victims);
}

/* The budget: equal turns among up to max_pods_per_gpu residents, or a guarantee of the
 * fraction (enforced: alone it may run at its fraction). */
static void kai_budget_bound(const pool_spec *p, const job_spec *j, double *residents,
                             double *alone) {
  double f = 1.0 / MAX(kai_frac(p, j), 1e-3);
  *alone = kai_enforced(p) ? f : 1.0;
  *residents = MAX(f, (double)kai_slots(p));
}

/* ---- its pool keys (scenario.h: pool_check) ---- */

static const scenario_key kai_key_enforcement = {
    "enforcement", "none", "none: the open-source scheduler enforces neither compute (equal "
    "time slices) nor memory (OOMs reach neighbours); enforced: the fraction is a memory limit "
    "and a compute guarantee", "none|enforced"};
static const scenario_key kai_key_slots = {
    "max_pods_per_gpu", "20", "most pods one shared GPU takes", "4|20"};
static const scenario_key kai_key_fraction = {
    "gpu_fraction", "gpu_frac", "fraction of one GPU every pod asks (KAI's gpu-fraction "
    "annotation), greater than 0 and at most 1", "0.25|0.5"};
static const scenario_key *const kai_keys[] = {
    &scenario_key_timeslice, &scenario_key_context_switch, &kai_key_enforcement,
    &kai_key_slots, &kai_key_fraction, NULL};

static void kai_validate_pool(pool_check *c, pool_spec *p) {
  pool_check_timeslice(c, p);
  kai_conf *conf = g_new0(kai_conf, 1);
  *conf = kai_defaults;
  p->strategy_conf = conf;
  int e;
  int64_t n;
  if (pool_check_enum(c, "enforcement", kai_enforcement_names, &e)) conf->enforcement = e;
  if (pool_check_int(c, "max_pods_per_gpu", 1, KAI_MAX_SLOTS, &n)) conf->slots = (guint32)n;
  pool_check_number(c, "gpu_fraction", "a fraction greater than 0 and at most 1", 0, TRUE, 1,
                    FALSE, &conf->fraction);
  const pod_gpu *pod = p->pod && p->pod->kind == POD_KAI ? p->pod : NULL;
  if (pool_check_key(c, "gpu_fraction") || !pod) return;
  if (pod->fraction > 0) {
    conf->fraction = pod->fraction;
  } else if (p->gpu) { /* gpu-memory: the share of the card that memory is */
    double f = pod->kai_mem_mib * 1048576.0 / (double)p->gpu->mem_bytes;
    if (f > 1.0)
      pool_check_report(c, pool_check_key(c, "pod_spec"), "%s: %s asks gpu-memory %g MiB, more "
                        "than a %s holds (%.0f MiB)", pool_check_prefix(c), pod->object,
                        pod->kai_mem_mib, p->gpu->name, (double)p->gpu->mem_bytes / 1048576.0);
    else conf->fraction = f;
  }
}

static void kai_describe(GString *s, const pool_spec *p) {
  const kai_conf *c = kai_conf_of(p);
  g_string_append_printf(s, ", enforcement %s, %u pods per GPU",
                         kai_enforcement_names[c->enforcement], c->slots);
  if (c->fraction > 0) g_string_append_printf(s, ", fraction %g", c->fraction);
  scenario_describe_no_sharing(s, p);
  if (c->enforcement == KAI_NONE) scenario_describe_oom(s, p);
}

const share_ops share_kai_ops = {
    .input = {.name = "kai", .example = "    gpu_fraction: 0.5\n", .keys = kai_keys,
              .validate = kai_validate_pool, .describe = kai_describe,
              .capacity = SCENARIO_CAPACITY_UNJUDGED, .capacity_key = &kai_key_slots},
    .description = "KAI scheduler GPU fractions: bin-packed by fraction; open-source "
                   "enforcement none (equal time slices, shared memory) or enforced",
    .implemented = TRUE,
    .slots_per_gpu = kai_slots,
    .can_ever_fit = kai_can_ever_fit,
    .gpu_accepts = kai_gpu_accepts,
    .update_speeds = kai_update_speeds,
    .gauges = share_default_gauges,
    .mem_capacity = kai_mem_capacity,
    .oom_victims = kai_oom_victims,
    .crash_victims = share_default_crash_victims,
    .budget_bound = kai_budget_bound,
};
