/* share-timeslice.c: time-slicing as the NVIDIA device plugin sets it up. A GPU offers
 * `replicas` schedulable copies; the scheduler counts replicas, never memory. Active
 * contexts take equal turns (idle ones take none), losing a little to every context
 * switch; memory is not isolated (oom policy decides who dies); a crash kills only the
 * faulting process. Speeds come from the shared noisy-neighbour model in share.c. With
 * unified_memory above 1 (workloads that allocate CUDA managed memory) the residents may
 * hold that many cards' memory, the rest paged from host memory (share_oversub) instead of
 * an out-of-memory. Exports share_timeslice_ops only. */
#include "share.h"

static const share_oversub *ts_over(const pool_spec *p) {
  return p->strategy_conf ? p->strategy_conf : &share_oversub_off;
}

static guint32 ts_slots(const pool_spec *p) { return p->replicas ? p->replicas : 1; }

static gboolean ts_can_ever_fit(const pool_spec *p, const job_spec *j, char **reason) {
  guint64 replicas = pool_gpus(p) * ts_slots(p);
  if (p->fail_requests_greater_than_one && j->gpus > 1) {
    *reason = g_strdup_printf("asks for %u shared GPUs and pool '%s' sets failRequestsGreaterThanOne "
                              "(the device plugin rejects it: UnexpectedAdmissionError)",
                              j->gpus, p->name);
    return FALSE;
  }
  if (j->gpus > replicas) {
    *reason = g_strdup_printf("needs %u replicas; pool '%s' has %" G_GUINT64_FORMAT, j->gpus, p->name,
                              replicas);
    return FALSE;
  }
  /* the scheduler does not look at memory, but a worker larger than the card (and the host
   * memory unified memory may add) can never run */
  int64_t most = share_oversub_device_mem(p, ts_over(p));
  if (j->mem_bytes > most) {
    *reason = g_strdup_printf("needs %.2f GB per worker; a %s holds %.2f GB", UTIL_GB(j->mem_bytes),
                              p->gpu->name, UTIL_GB(most));
    return FALSE;
  }
  return TRUE;
}

/* share_timeslice_speeds (share.c), each resident allocated one replica. */
static void ts_update_speeds(const share_pool *p, gpu_state *g) {
  share_timeslice_speeds(p, g);
  for (guint i = 0; i < g->n_residents; i++)
    g->residents[i]->alloc_share = 1.0 / p->slots_per_gpu;
  if (ts_over(p->spec)->ratio > 1.0) share_oversub_speeds(p, g, ts_over(p->spec));
}

static int64_t ts_device_mem(const share_pool *p) {
  return share_oversub_device_mem(p->spec, ts_over(p->spec));
}

/* The budget (src/sim/budget.c): the replicas' turns, times the slowest page migration. */
static void ts_budget_bound(const pool_spec *p, const job_spec *j, double *residents,
                            double *alone) {
  const share_oversub *o = ts_over(p);
  *alone = o->ratio > 1.0 ? o->slowdown : 1.0;
  *residents = (double)MAX(1u, p->replicas) * *alone;
}

/* ---- its pool keys (scenario.h: pool_check) ---- */

static const scenario_key ts_key_unified = {
    "unified_memory", "1", "memory the residents of a card may hold together, in cards "
    "(1 <= R <= 10; above 1 its workloads allocate CUDA managed memory: what does not fit "
    "the card is paged from host memory, slowed by migration_slowdown, instead of an "
    "out-of-memory)", "1|1.5|2"};
static const scenario_key *const ts_keys[] = {
    &scenario_key_replicas, &scenario_key_timeslice, &scenario_key_context_switch,
    &scenario_key_fail_requests, &scenario_key_rename, &ts_key_unified,
    &share_key_migration_slowdown, NULL};

static void ts_validate_pool(pool_check *c, pool_spec *p) {
  pool_check_device_plugin(c, p, SCENARIO_MAX_REPLICAS);
  pool_check_timeslice(c, p);
  share_oversub *o = g_new(share_oversub, 1);
  *o = share_oversub_off;
  p->strategy_conf = o;
  double r;
  if (pool_check_number(c, "unified_memory", "a ratio of at least 1 and at most 10", 1, FALSE,
                        10, FALSE, &r))
    o->ratio = r;
  share_oversub_check(c, o);
}

static void ts_describe(GString *s, const pool_spec *p) {
  scenario_describe_replicas(s, p);
  scenario_describe_fail_requests(s, p);
  scenario_describe_oom(s, p);
  share_oversub_describe(s, ts_over(p));
}

const share_ops share_timeslice_ops = {
    .input = {.name = "time-slicing", .example = "    replicas: 3\n", .keys = ts_keys,
              .validate = ts_validate_pool, .describe = ts_describe,
              .implied_by = SCENARIO_NV_TIME_SLICING, .capacity = SCENARIO_CAPACITY_SLOTS,
              .capacity_key = &scenario_key_replicas},
    .description = "replicas per GPU taking equal turns; shared memory, no memory isolation",
    .implemented = TRUE,
    .slots_per_gpu = ts_slots,
    .can_ever_fit = ts_can_ever_fit,
    .gpu_accepts = share_replica_accepts,
    .update_speeds = ts_update_speeds,
    .gauges = share_default_gauges,
    .mem_capacity = share_default_mem_capacity,
    .oom_victims = share_default_oom_victims,
    .crash_victims = share_default_crash_victims,
    .prune_rank = share_prune_by_size,
    .budget_bound = ts_budget_bound,
    .device_mem = ts_device_mem,
};
