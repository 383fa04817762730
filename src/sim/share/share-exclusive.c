/* share-exclusive.c: whole-GPU allocation. One worker per GPU, speed 1, the whole GPU
 * allocated to it; a job fits a pool if it asks for no more GPUs than the pool has and
 * each worker's memory fits one GPU. Exports share_exclusive_ops only. */
#include "share.h"

static guint32 exclusive_slots(const pool_spec *p) { return 1; }

static gboolean exclusive_can_ever_fit(const pool_spec *p, const job_spec *j, char **reason) {
  guint64 total = pool_gpus(p);
  if (j->gpus > total) {
    *reason = g_strdup_printf("needs %u GPUs; pool '%s' has %" G_GUINT64_FORMAT, j->gpus,
                              p->name, total);
    return FALSE;
  }
  if (j->mem_bytes > p->gpu->mem_bytes) {
    *reason = g_strdup_printf("needs %.2f GB per GPU; a %s holds %.2f GB", UTIL_GB(j->mem_bytes),
                              p->gpu->name, UTIL_GB(p->gpu->mem_bytes));
    return FALSE;
  }
  return TRUE;
}

static gboolean exclusive_gpu_accepts(const share_pool *p, const gpu_state *g, const share_job *j,
                                      gpu_state *const *taken, guint n_taken, guint32 *slot) {
  if (g->n_residents) return FALSE;
  for (guint i = 0; i < n_taken; i++)
    if (taken[i] == g) return FALSE;
  *slot = 0;
  return TRUE;
}

static void exclusive_update_speeds(const share_pool *p, gpu_state *g) {
  for (guint i = 0; i < g->n_residents; i++) {
    task *t = g->residents[i];
    t->speed = 1.0;
    t->alloc_share = 1.0;
  }
}

const share_ops share_exclusive_ops = {
    .input = {.name = "exclusive", .example = "", .implied_by = SCENARIO_NV_DEFAULT,
              .capacity = SCENARIO_CAPACITY_SLOTS},
    .description = "whole GPUs: one worker per GPU, no sharing",
    .implemented = TRUE,
    .slots_per_gpu = exclusive_slots,
    .can_ever_fit = exclusive_can_ever_fit,
    .gpu_accepts = exclusive_gpu_accepts,
    .update_speeds = exclusive_update_speeds,
    .unit_speeds = TRUE,
    .gauges = share_default_gauges,
    .mem_capacity = share_default_mem_capacity,
    .oom_victims = share_default_oom_victims,
    .crash_victims = share_default_crash_victims,
    .prune_rank = share_prune_by_size,
};
