/* test-fracgang.c: training gangs whose workers each ask for a fraction of a GPU (the PAI
 * gangs of 10 workers at 20-50 %): the fractional strategy gives each worker its share, on
 * distinct GPUs first and several on one GPU when the shares fit; exclusive gives each
 * worker a whole GPU whatever gpu_frac says. */
#include "testutil.h"
#include <string.h>

#define FG_POOL(strategy, gpus)                                                             \
  "name: g\npools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n    gpus_per_node: " gpus \
  "\n    strategy: " strategy "\n"

#define FG_HDR "id,submit_s,kind,gpus,mem_gb,duration_s,gpu_frac,sm\n"
#define FG_GANG "gang,0,training,4,10,100,0.25,0.25\n"

/* 25 us of context switch per 1024 us slice while two or more residents are active */
#define FG_CAP (1.0 - 25.0 / 1024.0)

Test(fracgang, fractional_runs_a_4_worker_quarter_gang_on_one_gpu) {
  results *r = tu_run(FG_POOL("fractional", "1"), FG_HDR FG_GANG, NULL);
  const job_result *g = tu_job(r, "gang");
  cr_assert_eq(g->outcome, OUTCOME_COMPLETED);
  cr_expect_str_eq(g->gpu_ids, "p/n0/g0;p/n0/g0;p/n0/g0;p/n0/g0");
  TU_NEAR(g->start_s, 0, 1e-9);
  /* the four shares fill the GPU: each worker gets 0.25 x C of the 0.25 it wants, so the
   * slowest worker runs at s = C; rate = 1 / ((1 - c) / s + c) with comm_frac c = 0.1 */
  TU_NEAR(g->end_s, 100 * (0.9 / FG_CAP + 0.1), 1e-3);
  results_free(r);
}

Test(fracgang, fractional_spreads_a_gang_over_free_gpus_first) {
  results *r = tu_run(FG_POOL("fractional", "4"), FG_HDR FG_GANG, NULL);
  const job_result *g = tu_job(r, "gang");
  cr_assert_eq(g->outcome, OUTCOME_COMPLETED);
  cr_expect_str_eq(g->gpu_ids, "p/n0/g0;p/n0/g1;p/n0/g2;p/n0/g3");
  TU_NEAR(g->end_s, 100, 1e-6); /* alone on each GPU: no switching cost */
  results_free(r);
}

Test(fracgang, fractional_gang_waits_until_its_shares_fit) {
  /* a half-GPU job holds the GPU for 100 s; the gang needs the whole GPU's shares */
  results *r = tu_run(FG_POOL("fractional", "1"),
                      FG_HDR "half,0,batch,1,10,100,0.5,0.5\n"
                             "gang,1,training,4,10,100,0.25,0.25\n",
                      NULL);
  TU_NEAR(tu_job(r, "half")->end_s, 100, 1e-6);
  const job_result *g = tu_job(r, "gang");
  cr_assert_eq(g->outcome, OUTCOME_COMPLETED);
  TU_NEAR(g->start_s, 100, 1e-6);
  TU_NEAR(g->end_s, 100 + 100 * (0.9 / FG_CAP + 0.1), 1e-3);
  results_free(r);
}

Test(fracgang, exclusive_gives_each_worker_a_whole_gpu) {
  results *r = tu_run(FG_POOL("exclusive", "4"), FG_HDR FG_GANG, NULL);
  const job_result *g = tu_job(r, "gang");
  cr_assert_eq(g->outcome, OUTCOME_COMPLETED);
  cr_expect_str_eq(g->gpu_ids, "p/n0/g0;p/n0/g1;p/n0/g2;p/n0/g3");
  TU_NEAR(g->start_s, 0, 1e-9);
  TU_NEAR(g->end_s, 100, 1e-6);
  results_free(r);
}

static char *fg_check(const char *yaml, const char *csv) {
  g_autofree char *sp = tu_write_temp("fg.yaml", yaml);
  g_autofree char *tp = tu_write_temp("fg.csv", csv);
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(scenario) sc = scenario_load(sp, d);
  g_autoptr(trace) t = trace_load(tp, d);
  cr_assert(sc && t, "inputs should load");
  sim_check_jobs(sc, t, d);
  return diag_join(d);
}

Test(fracgang, gangs_that_can_never_fit_say_why) {
  /* exclusive ignores the fraction: 4 workers need 4 GPUs */
  g_autofree char *ex = fg_check(FG_POOL("exclusive", "1"), FG_HDR FG_GANG);
  cr_expect(strstr(ex, "needs 4 GPUs"), "%s", ex);
  /* fractional: one GPU holds four quarter shares, not five */
  g_autofree char *ok = fg_check(FG_POOL("fractional", "1"), FG_HDR FG_GANG);
  cr_expect_str_eq(ok, "");
  g_autofree char *five =
      fg_check(FG_POOL("fractional", "1"), FG_HDR "gang,0,training,5,10,100,0.25,0.25\n");
  cr_expect(strstr(five, "needs 5 workers of 0.25 GPU; pool 'p' has 1 GPU, room for 4"), "%s",
            five);
  /* whole-GPU gangs under fractional keep the plain message */
  g_autofree char *whole =
      fg_check(FG_POOL("fractional", "1"), FG_HDR "gang,0,training,2,10,100,1,1\n");
  cr_expect(strstr(whole, "needs 2 GPUs; pool 'p' has 1"), "%s", whole);
}
