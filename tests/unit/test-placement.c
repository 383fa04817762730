/* test-placement.c: which queued job the scheduling pass tries and where a gang's workers
 * go: every job that fits is placed whatever waits before it (no head-of-line blocking),
 * and a gang takes distinct free GPUs, across nodes if need be, before it is stacked onto
 * itself; a worker stacked on its own gang-mates counts as a straggler. */
#include "testutil.h"
#include "share.h"
#include "workload.h"
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
    /* each worker at the lone worker's speed; the gang adds its communication share (a lone
     * worker has none) */
    double s = 3600 / tu_job(one, "gang")->end_s;
    TU_NEAR(g->end_s, 3600 / workload_training_rate(0.1, s), 1e-6);
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
  TU_NEAR(g->end_s, 3600 / workload_training_rate(0.1, share_timeslice_speed(1, 1, 0.06)), 1e-3);
  cr_expect_gt(g->end_s, 6900);
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

/* The head-of-line reproducer: on one fractional A100, b (0.5) does not fit beside a
 * (0.6) but c (0.3) does; c must start when it arrives, not when a ends. */
Test(placement, fractional_job_that_fits_is_not_blocked_by_one_that_does_not) {
  const char *yaml = "name: hol\npools:\n  - {name: p, gpu: A100-80GB, nodes: 1, "
                     "gpus_per_node: 1, strategy: fractional}\n";
  results *r = tu_run(yaml,
                      PL_HDR "a,0,batch,1,10,1000,0.6\n"
                             "b,10,batch,1,10,100,0.5\n"
                             "c,20,batch,1,10,100,0.3\n",
                      NULL);
  TU_NEAR(tu_job(r, "a")->start_s, 0, 1e-9);
  TU_NEAR(tu_job(r, "c")->start_s, 20, 1e-9);
  TU_NEAR(tu_job(r, "b")->start_s, tu_job(r, "a")->end_s, 1e-6);
  cr_expect_str_eq(tu_job(r, "c")->gpu_ids, "p/n0/g0");
  results_free(r);
}

/* The placement index refuses exactly what the per-GPU check refuses: shares that sum to
 * one (0.6 + 0.3 + 0.1) still fit, a gang of quarter shares stacks where no GPU is free. */
Test(placement, fractional_index_agrees_with_the_share_sums) {
  const char *yaml = "name: idx\npools:\n  - {name: p, gpu: A100-80GB, nodes: 1, "
                     "gpus_per_node: 2, strategy: fractional}\n";
  results *r = tu_run(yaml,
                      PL_HDR "a,0,batch,1,10,1000,0.6\n"
                             "b,0,batch,1,10,1000,0.6\n"
                             "c,1,batch,1,10,100,0.3\n"
                             "d,1,batch,1,10,100,0.3\n"
                             "e,2,batch,1,4,100,0.1\n"
                             "f,2,batch,1,4,100,0.1\n"
                             "g,3,training,2,2,100,0.05\n"
                             "h,4,batch,1,4,100,0.1\n",
                      NULL);
  const char *now[] = {"a", "b", "c", "d", "e", "f"};
  for (guint i = 0; i < G_N_ELEMENTS(now); i++)
    TU_NEAR(tu_job(r, now[i])->start_s, (double)(i / 2), 1e-9);
  /* both GPUs are full (1.0 each): the gang and h wait for c and d to end */
  const job_result *g = tu_job(r, "g");
  cr_expect_gt(g->start_s, 99);
  TU_NEAR(g->start_s, tu_job(r, "c")->end_s, 1e-6);
  cr_expect_str_eq(g->gpu_ids, "p/n0/g0;p/n0/g1");
  TU_NEAR(tu_job(r, "h")->start_s, g->start_s, 1e-6);
  results_free(r);
}
