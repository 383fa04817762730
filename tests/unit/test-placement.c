/* test-placement.c: which queued job the scheduling pass tries and where a gang's workers
 * go: every job that fits is placed whatever waits before it (no head-of-line blocking),
 * and a gang takes distinct free GPUs, across nodes if need be, before it is stacked onto
 * itself; a worker stacked on its own gang-mates counts as a straggler. */
#include "testutil.h"
#include <string.h>

#define PL_POOL(strategy)                                                                  \
  "name: pl\npools:\n  - {name: p, gpu: A100-80GB, nodes: 2, gpus_per_node: 4, " strategy \
  "}\n"
#define PL_HDR "id,submit_s,kind,gpus,mem_gb,duration_s,gpu_frac\n"
#define PL_ALL8 "p/n0/g0;p/n0/g1;p/n0/g2;p/n0/g3;p/n1/g0;p/n1/g1;p/n1/g2;p/n1/g3"

/* the reproducer of the gang issue: an 8-worker gang on an empty 2 x 4 pool */
Test(placement, gang_takes_distinct_gpus_across_nodes_before_stacking) {
  const char *pools[] = {"strategy: time-slicing, replicas: 2, placement: spread",
                         "strategy: time-slicing, replicas: 2",
                         "strategy: mps, replicas: 2", "strategy: fractional"};
  for (guint i = 0; i < G_N_ELEMENTS(pools); i++) {
    g_autofree char *yaml = g_strdup_printf(PL_POOL("%s"), pools[i]);
    /* the same job with one worker: what each worker should see on its own GPU */
    results *one = tu_run(yaml, PL_HDR "gang,0,training,1,20,3600,0.5\n", NULL);
    results *r = tu_run(yaml, PL_HDR "gang,0,training,8,20,3600,0.5\n", NULL);
    const job_result *g = tu_job(r, "gang");
    cr_assert_eq(g->outcome, OUTCOME_COMPLETED, "%s", pools[i]);
    cr_expect_str_eq(g->gpu_ids, PL_ALL8, "%s", pools[i]);
    TU_NEAR(g->end_s, tu_job(one, "gang")->end_s, 1e-6);
    TU_NEAR(g->straggler_delay_s, 0, 1e-9);
    results_free(r);
    results_free(one);
  }
}

Test(placement, gang_stacked_on_itself_is_a_straggler) {
  /* 16 workers on 8 GPUs with 2 replicas each: every GPU holds two workers of the gang,
   * so all run at the same speed s, but alone each would run at 1: the whole slowdown is
   * straggler delay, integral of 1 - rate(s) / rate(1) = end - work */
  results *r = tu_run(PL_POOL("strategy: time-slicing, replicas: 2"),
                      PL_HDR "gang,0,training,16,20,3600,1\n", NULL);
  const job_result *g = tu_job(r, "gang");
  cr_assert_eq(g->outcome, OUTCOME_COMPLETED);
  cr_expect_gt(g->end_s, 7000);
  TU_NEAR(g->straggler_delay_s, g->end_s - 3600, 1e-3);
  results_free(r);
}

Test(placement, gang_stacks_only_the_workers_distinct_gpus_cannot_hold) {
  /* 10 workers on 8 GPUs: two GPUs take a second worker (the first ones in node order) */
  results *r = tu_run(PL_POOL("strategy: time-slicing, replicas: 2"),
                      PL_HDR "gang,0,training,10,20,3600,1\n", NULL);
  const job_result *g = tu_job(r, "gang");
  cr_expect_str_eq(g->gpu_ids, PL_ALL8 ";p/n0/g0;p/n0/g1");
  TU_NEAR(g->straggler_delay_s, g->end_s - 3600, 1e-3);
  results_free(r);
}
