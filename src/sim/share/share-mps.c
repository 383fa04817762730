/* share-mps.c: NVIDIA MPS as the device plugin sets it up: `replicas` clients per GPU,
 * each capped at activeThreadPercentage of the SMs (default 100/replicas) and at
 * pinnedMemLimit of memory (default total/replicas; `none` for no limit). Active clients
 * run concurrently: they gain where jobs leave SMs idle and lose to shared memory
 * bandwidth. A client over its own memory limit fails alone; a fatal fault in any client
 * kills every client of the GPU (the shared fault domain). Exports share_mps_ops and the
 * MPS model's constants a scenario may set (mps_*: share.h, listed in sim_model_keys). */
#include "share.h"
#include <string.h>

const scenario_model_key share_key_mps_bandwidth_loss = {
    {"mps_bandwidth_loss", "0.075", "MPS: speed lost to shared memory bandwidth per other "
     "active client", NULL},
    SCENARIO_MODEL_NUMBER, "a number from 0 to less than 1", 0, 1, FALSE, TRUE,
    SCENARIO_DEFAULT_MPS_BANDWIDTH_LOSS, offsetof(scenario, mps_bandwidth_loss), NULL, NULL};
const scenario_model_key share_key_mps_block_wait = {
    {"mps_block_wait", "1.08", "MPS: a blocked request's wait per unit of its work (beta)",
     NULL},
    SCENARIO_MODEL_NUMBER, "a number from 0 to 100", 0, 100, FALSE, FALSE,
    SCENARIO_DEFAULT_MPS_BLOCK_WAIT, offsetof(scenario, mps_block_wait), NULL, NULL};
const scenario_model_key share_key_mps_block_corr = {
    {"mps_block_corr", "10ms", "MPS: the neighbours' block residence time (tau)", NULL},
    SCENARIO_MODEL_DURATION, NULL, SIM_NS_PER_MS / 1000, 3600 * SIM_NS_PER_S, FALSE, FALSE,
    SCENARIO_DEFAULT_MPS_BLOCK_CORR_NS, offsetof(scenario, mps_block_corr_ns), NULL, NULL};

static guint32 mps_slots(const pool_spec *p) { return p->replicas ? p->replicas : 1; }

static double mps_cap(const pool_spec *p) {
  double pct = p->active_thread_percentage > 0 ? p->active_thread_percentage
                                               : (double)(100 / mps_slots(p)); /* integer division, as the plugin */
  return pct / 100.0;
}

static int64_t mps_limit(const pool_spec *p) {
  if (p->pinned_mem_limit_bytes == POOL_PINNED_NONE) return p->gpu->mem_bytes;
  if (p->pinned_mem_limit_bytes == POOL_PINNED_DEFAULT) return p->gpu->mem_bytes / mps_slots(p);
  return p->pinned_mem_limit_bytes;
}

static gboolean mps_can_ever_fit(const pool_spec *p, const job_spec *j, char **reason) {
  guint64 clients = pool_gpus(p) * mps_slots(p);
  if (j->gpus > clients) {
    *reason = g_strdup_printf("needs %u MPS clients; pool '%s' has %" G_GUINT64_FORMAT, j->gpus, p->name,
                              clients);
    return FALSE;
  }
  if (j->mem_bytes > mps_limit(p)) {
    *reason = g_strdup_printf("needs %.2f GB per worker; an MPS client of pool '%s' may pin %.2f GB "
                              "(pinnedMemLimit)",
                              UTIL_GB(j->mem_bytes), p->name, UTIL_GB(mps_limit(p)));
    return FALSE;
  }
  return TRUE;
}

static double mps_want(const share_job *j, double cap) { return j->sm < cap ? j->sm : cap; }

/* Speeds from SM shares and memory-bandwidth contention; and, for request-level models, the
 * waits for SMs the neighbours' resident blocks hold (docs/models.md, "MPS"). */
static void mps_update_speeds(const share_pool *p, gpu_state *g) {
  double cap = mps_cap(p->spec);
  double total_sm = 0, total_mem = 0;
  for (guint i = 0; i < g->n_residents; i++) {
    const share_job *j = share_resident_job(g, i);
    total_sm += j->duty * mps_want(j, cap);
    total_mem += j->duty * share_mps_mem_intensity(j->spec) / SHARE_MPS_MEM_REF;
  }
  for (guint i = 0; i < g->n_residents; i++) {
    task *t = g->residents[i];
    const share_job *j = share_job_of(t->job);
    double want = mps_want(j, cap), mem = share_mps_mem_intensity(j->spec);
    double others_sm = total_sm - j->duty * want;
    double others_mem = total_mem - j->duty * mem / SHARE_MPS_MEM_REF;
    if (others_sm < 1e-12) others_sm = 0;
    if (others_mem < 1e-12) others_mem = 0;
    double sp, wait = 0;
    if (!share_table_speed(p, g, t, &sp))
      sp = share_mps_speed(j->sm, cap, others_sm, mem, others_mem, p->params->mps_bandwidth_loss);
    for (guint k = 0; k < g->n_residents; k++) {
      const share_job *o = share_resident_job(g, k);
      if (o != j)
        wait += share_mps_block_wait(p->params->mps_block_wait, want, mem, mps_want(o, cap),
                                     o->duty);
    }
    t->speed = sp;
    t->alloc_share = 1.0 / p->slots_per_gpu;
    t->turn_wait_ns = 0; /* clients run concurrently: no turn to wait for */
    t->block_wait = wait;
    t->block_corr_ns = p->params->mps_block_corr_ns;
  }
}

static int64_t mps_mem_capacity(const share_pool *p, const gpu_state *g, const task *t) {
  return mps_limit(p->spec);
}

/* Over its own pinned limit: the client alone fails (its allocation returns out of
 * memory). Over the device with no limits: the pool's oom policy. */
static void mps_oom_victims(const share_pool *p, gpu_state *g, task *offender, GPtrArray *victims) {
  if (offender->mem_bytes > mps_limit(p->spec)) {
    g_ptr_array_add(victims, offender);
    return;
  }
  share_default_oom_victims(p, g, offender, victims);
}

/* A fatal fault is reported to every client of the GPU, which must all exit. */
static void mps_crash_victims(const share_pool *p, gpu_state *g, task *t, GPtrArray *victims) {
  for (guint i = 0; i < g->n_residents; i++) g_ptr_array_add(victims, g->residents[i]);
}

/* ---- its pool keys (scenario.h: pool_check) ---- */

static const scenario_key mps_key_thread_percentage = {
    "activeThreadPercentage", "100/replicas", "the share of SMs a client may use "
    "(CUDA_MPS_ACTIVE_THREAD_PERCENTAGE)", NULL};
static const scenario_key mps_key_pinned_mem_limit = {
    "pinnedMemLimit", "memory/replicas", "each client's memory limit "
    "(CUDA_MPS_PINNED_DEVICE_MEM_LIMIT), or none", NULL};
static const scenario_key *const mps_keys[] = {
    &scenario_key_replicas, &scenario_key_fail_requests, &scenario_key_rename,
    &mps_key_thread_percentage, &mps_key_pinned_mem_limit, NULL};

/* replicas up to the model's MPS client limit (48 when the model is unknown); thread
 * percentage and pinned memory limit as the device plugin's MPS settings */
static void mps_validate_pool(pool_check *c, pool_spec *p) {
  pool_check_device_plugin(c, p, p->gpu ? catalog_mps_client_limit(p->gpu) : 48);
  pool_check_number(c, "activeThreadPercentage", "a percentage greater than 0 and at most 100", 0,
                    TRUE, 100, FALSE, &p->active_thread_percentage);
  const scenario_yaml *n = pool_check_key(c, "pinnedMemLimit");
  if (!n) return;
  int64_t bytes;
  if (n->type == SCENARIO_YAML_SCALAR && !strcmp(n->text, "none"))
    p->pinned_mem_limit_bytes = POOL_PINNED_NONE;
  else if (n->type == SCENARIO_YAML_SCALAR && util_parse_size(n->text, FALSE, &bytes, NULL) &&
           bytes > 0)
    p->pinned_mem_limit_bytes = bytes;
  else
    pool_check_expected(c, n, "pinnedMemLimit",
                        "a size greater than 0 with a unit (e.g. 10GB, 9.5GiB) or 'none'");
}

/* ", replicas 4, activeThreadPercentage 25 (100/replicas), pinnedMemLimit 20 GB
 * (memory/replicas)" */
static void mps_describe(GString *s, const pool_spec *p) {
  scenario_describe_replicas(s, p);
  double atp = p->active_thread_percentage > 0 ? p->active_thread_percentage
                                               : 100.0 / (p->replicas ? p->replicas : 1);
  g_string_append_printf(s, ", activeThreadPercentage %.4g%s", atp,
                         p->active_thread_percentage > 0 ? "" : " (100/replicas)");
  if (p->pinned_mem_limit_bytes == POOL_PINNED_NONE) {
    g_string_append(s, ", pinnedMemLimit none");
  } else {
    double b = p->pinned_mem_limit_bytes == POOL_PINNED_DEFAULT
                   ? (double)p->gpu->mem_bytes / (p->replicas ? p->replicas : 1)
                   : (double)p->pinned_mem_limit_bytes;
    g_string_append_printf(s, ", pinnedMemLimit %.4g GB%s", b / 1e9,
                           p->pinned_mem_limit_bytes == POOL_PINNED_DEFAULT
                               ? " (memory/replicas)" : "");
  }
  scenario_describe_fail_requests(s, p);
  scenario_describe_oom(s, p);
}

static guint mps_replica_limit(const gpu_model *m) { return catalog_mps_client_limit(m); }

const share_ops share_mps_ops = {
    .input = {.name = "mps", .example = "    replicas: 3\n", .keys = mps_keys,
              .validate = mps_validate_pool, .describe = mps_describe,
              .implied_by = SCENARIO_NV_MPS, .replica_limit = mps_replica_limit,
              .capacity = SCENARIO_CAPACITY_SLOTS, .capacity_key = &scenario_key_replicas},
    .description = "MPS clients running concurrently, capped by thread percentage and pinned memory",
    .implemented = TRUE,
    .slots_per_gpu = mps_slots,
    .can_ever_fit = mps_can_ever_fit,
    .gpu_accepts = share_replica_accepts,
    .update_speeds = mps_update_speeds,
    .gauges = share_default_gauges,
    .mem_capacity = mps_mem_capacity,
    .oom_victims = mps_oom_victims,
    .crash_victims = mps_crash_victims,
    .prune_rank = share_prune_by_size,
};
