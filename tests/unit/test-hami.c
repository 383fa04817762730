/* test-hami.c: the HAMi strategy (share-hami.c): a container over its own memory limit
 * dies alone, its core percentage is a hard cap under core_policy force and a guarantee it
 * may exceed alone under the default policy; memory beyond the card (deviceMemoryScaling
 * above 1, time-slicing's unified_memory) runs slowed by the oversubscription formula
 * instead of waiting or dying; bad keys are refused at their position. */
#include "testutil.h"
#include <string.h>

#define HA_POOL(extra)                                                                       \
  "name: h\npools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n    gpus_per_node: 1\n" \
  "    strategy: hami\n" extra
#define HA_HDR "id,submit_s,kind,gpus,mem_gb,duration_s,gpu_frac,sm\n"

Test(hami, container_over_its_own_limit_dies_alone) {
  /* a and b each hold 30 GB of an 80 GB card with half its cores; b grows to 35 GB at
   * 10 s, past its own 30 GB limit though the card still has room: b dies, a lives */
  results *r = tu_run(HA_POOL(""), HA_HDR "a,0,batch,1,30,100,0.5,0.5\nb,0,batch,1,30,100,0.5,0.5\n",
                      "job_id,after_s,mem_gb\nb,10,35\n");
  cr_expect_eq(tu_job(r, "a")->outcome, OUTCOME_COMPLETED);
  cr_expect_eq(tu_job(r, "a")->kills, 0);
  cr_expect_geq(tu_job(r, "b")->oom_kills, 1);
  const pool_result *p = &g_array_index(r->pools, pool_result, 0);
  cr_expect_eq(p->innocent_victims, 0);
  results_free(r);
}

Test(hami, hard_core_cap_holds_a_lone_container_to_its_share) {
  /* force: 25 % of the cores, alone on the card, compute-bound: 4 x its work */
  results *r = tu_run(HA_POOL("    core_policy: force\n"), HA_HDR "a,0,batch,1,10,100,0.25,1\n", NULL);
  TU_NEAR(tu_job(r, "a")->end_s, 400, 1e-3);
  results_free(r);
  /* the pool's gpucores overrides gpu_frac: 50 % */
  r = tu_run(HA_POOL("    core_policy: force\n    gpucores: 50\n"), HA_HDR "a,0,batch,1,10,100,1,1\n",
             NULL);
  TU_NEAR(tu_job(r, "a")->end_s, 200, 1e-3);
  results_free(r);
}

Test(hami, soft_core_limit_runs_a_lone_container_at_full_speed) {
  results *r = tu_run(HA_POOL(""), HA_HDR "a,0,batch,1,10,100,0.25,1\n", NULL);
  TU_NEAR(tu_job(r, "a")->end_s, 100, 1e-6);
  results_free(r);
  /* two compute-bound containers of 25 % and 75 %: each gets its share (less the
   * context-switch part of a slice), the first no more than a quarter */
  r = tu_run(HA_POOL(""), HA_HDR "a,0,batch,1,10,100,0.25,1\nb,0,batch,1,10,1000,0.75,1\n", NULL);
  TU_NEAR(tu_job(r, "a")->end_s, 100 / (0.25 * (1.0 - 25.0 / 1024.0)), 1e-3);
  results_free(r);
}

Test(hami, placement_counts_memory_limits_and_the_split_count) {
  /* 50 GB + 50 GB do not fit an 80 GB card although the cores would: b waits for a */
  results *r = tu_run(HA_POOL(""), HA_HDR "a,0,batch,1,50,100,0.25,0.25\nb,0,batch,1,50,100,0.25,0.25\n",
                      NULL);
  TU_NEAR(tu_job(r, "b")->start_s, tu_job(r, "a")->end_s, 1e-6);
  results_free(r);
  /* device_split_count 2: a third container of 10 % waits */
  r = tu_run(HA_POOL("    device_split_count: 2\n"),
             HA_HDR "a,0,batch,1,1,100,0.1,0.1\nb,0,batch,1,1,100,0.1,0.1\nc,0,batch,1,1,100,0.1,0.1\n",
             NULL);
  cr_expect_gt(tu_job(r, "c")->start_s, 99);
  results_free(r);
}

static char *ha_load_error(const char *yaml) {
  g_autofree char *path = tu_write_temp("h.yaml", yaml);
  g_autoptr(diag_list) d = diag_list_new(0);
  scenario *sc = scenario_load(path, d);
  cr_expect_null(sc);
  if (sc) scenario_free(sc);
  return diag_join(d);
}

Test(hami, bad_keys_are_refused_at_their_position) {
  g_autofree char *m1 = ha_load_error(HA_POOL("    gpucores: 150\n"));
  cr_expect(strstr(m1, ":8:15: pools[1].gpucores: expected a core percentage greater than 0 and "
                       "at most 100, found '150'"), "%s", m1);
  g_autofree char *m2 = ha_load_error(HA_POOL("    core_policy: hard\n"));
  cr_expect(strstr(m2, ":8:18: pools[1].core_policy: expected one of default | force | disable, "
                       "found 'hard'"), "%s", m2);
}

/* ---- memory oversubscription (share_oversub, docs/models.md) ---- */

#define OS_CARD ((double)81920 * 1024 * 1024) /* an A100-80GB's bytes */
#define OS_PAIR HA_HDR "a,0,batch,1,60,100,0.5,1\nb,0,batch,1,40,100,0.5,1\n"

/* b (40 GB) arrived after a (60 GB): the part of the 100 GB beyond the card is b's, so b
 * runs 1 + f (k - 1) times slower while a is there, f its share off the card; a, capped at
 * half the cores, is not slowed. After a leaves b runs alone at `alone`. */
static void os_expect_formula(const results *r, double k, double alone) {
  const job_result *a = tu_job(r, "a"), *b = tu_job(r, "b");
  double f = (100e9 - OS_CARD) / 40e9, slow = 1 + f * (k - 1);
  double v = 100 / a->end_s; /* a's speed, and b's before its slowdown */
  TU_NEAR(b->end_s, a->end_s + (100 - a->end_s * v / slow) / alone, 1e-6);
  TU_NEAR(b->oversub_gpu_s, a->end_s, 1e-9);
  TU_NEAR(b->oversub_slowdown, slow, 1e-9);
  cr_expect_eq(a->oversub_gpu_s, 0);
  cr_expect(isnan(a->oversub_slowdown));
  TU_NEAR(g_array_index(r->gpus, gpu_result, 0).oversub_s, a->end_s, 1e-9);
  const pool_result *p = &g_array_index(r->pools, pool_result, 0);
  cr_expect_eq(p->oversub_jobs, 1);
  cr_expect_eq(p->oom_kills, 0);
  cr_expect(r->oversub);
}

Test(hami, scaled_memory_beyond_the_card_runs_at_the_formula_slowdown) {
  results *r = tu_run(HA_POOL("    core_policy: force\n    device_memory_scaling: 1.5\n"), OS_PAIR,
                      NULL);
  TU_NEAR(tu_job(r, "a")->start_s, 0, 0);
  TU_NEAR(tu_job(r, "b")->start_s, 0, 0);
  os_expect_formula(r, 50, 0.5);
  results_free(r);
  r = tu_run(HA_POOL("    core_policy: force\n    device_memory_scaling: 1.5\n"
                     "    migration_slowdown: 9\n"),
             OS_PAIR, NULL);
  os_expect_formula(r, 9, 0.5);
  results_free(r);
  /* without the scaling (the default) HAMi does not place b beside a: it waits */
  r = tu_run(HA_POOL("    core_policy: force\n"), OS_PAIR, NULL);
  TU_NEAR(tu_job(r, "b")->start_s, tu_job(r, "a")->end_s, 1e-9);
  cr_expect_eq(tu_job(r, "b")->oversub_gpu_s, 0);
  cr_expect(!r->oversub);
  results_free(r);
}

#define TS_POOL(extra)                                                                       \
  "name: t\npools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n    gpus_per_node: 1\n" \
  "    strategy: time-slicing\n    replicas: 2\n" extra

Test(hami, unified_memory_turns_the_out_of_memory_into_a_slowdown) {
  /* time-slicing places both; today the 100 GB do not fit the card: an OOM kill */
  results *r = tu_run(TS_POOL(""), OS_PAIR, NULL);
  cr_expect_geq(g_array_index(r->pools, pool_result, 0).oom_kills, 1);
  results_free(r);
  /* with unified memory: nobody dies, b runs slowed while a is there, then alone */
  r = tu_run(TS_POOL("    unified_memory: 1.5\n"), OS_PAIR, NULL);
  os_expect_formula(r, 50, 1.0);
  results_free(r);
}

Test(hami, bad_oversubscription_keys_are_refused_at_their_position) {
  g_autofree char *m1 = ha_load_error(HA_POOL("    device_memory_scaling: 0\n"));
  cr_expect(strstr(m1, ":8:28: pools[1].device_memory_scaling: expected a scaling greater than 0 "
                       "and at most 10, found '0'"), "%s", m1);
  g_autofree char *m2 = ha_load_error(HA_POOL("    migration_slowdown: 0.5\n"));
  cr_expect(strstr(m2, ":8:25: pools[1].migration_slowdown: expected a slowdown of at least 1 and "
                       "at most 1000, found '0.5'"), "%s", m2);
  g_autofree char *m3 = ha_load_error(TS_POOL("    unified_memory: 11\n"));
  cr_expect(strstr(m3, ":9:21: pools[1].unified_memory: expected a ratio of at least 1 and at most "
                       "10, found '11'"), "%s", m3);
}
