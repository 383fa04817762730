/* share-timeslice.c: time-slicing as the NVIDIA device plugin sets it up. A GPU offers
 * `replicas` schedulable copies; the scheduler counts replicas, never memory. Active
 * contexts take equal turns (idle ones take none), losing a little to every context
 * switch; memory is not isolated (oom policy decides who dies); a crash kills only the
 * faulting process. Speeds come from the shared noisy-neighbour model in share.c.
 * Exports share_timeslice_ops only. */
#include "share.h"

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
  /* the scheduler does not look at memory, but a worker larger than the card can never run */
  if (j->mem_bytes > p->gpu->mem_bytes) {
    *reason = g_strdup_printf("needs %.2f GB per worker; a %s holds %.2f GB", UTIL_GB(j->mem_bytes),
                              p->gpu->name, UTIL_GB(p->gpu->mem_bytes));
    return FALSE;
  }
  return TRUE;
}

/* share_timeslice_speeds (share.c), each resident allocated one replica. */
static void ts_update_speeds(const share_pool *p, gpu_state *g) {
  share_timeslice_speeds(p, g);
  for (guint i = 0; i < g->n_residents; i++)
    g->residents[i]->alloc_share = 1.0 / p->slots_per_gpu;
}

/* ---- its pool keys (scenario.h: pool_check) ---- */

static const scenario_key *const ts_keys[] = {
    &scenario_key_replicas, &scenario_key_timeslice, &scenario_key_context_switch,
    &scenario_key_fail_requests, &scenario_key_rename, NULL};

static void ts_validate_pool(pool_check *c, pool_spec *p) {
  pool_check_device_plugin(c, p, SCENARIO_MAX_REPLICAS);
  pool_check_timeslice(c, p);
}

static void ts_describe(GString *s, const pool_spec *p) {
  scenario_describe_replicas(s, p);
  scenario_describe_fail_requests(s, p);
  scenario_describe_oom(s, p);
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
};
