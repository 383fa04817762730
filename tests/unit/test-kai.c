/* test-kai.c: the KAI scheduler's GPU fractions (share-kai.c): with enforcement none the
 * residents get equal turns whatever their fraction and an OOM reaches the neighbours (by
 * the pool's oom policy); enforced behaves as the fractional strategy; bad keys are refused
 * at their position. */
#include "testutil.h"
#include <string.h>

#define KAI_POOL(strategy, extra)                                                            \
  "name: k\npools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n    gpus_per_node: 1\n" \
  "    strategy: " strategy "\n" extra
#define KAI_HDR "id,submit_s,kind,gpus,mem_gb,duration_s,gpu_frac,sm\n"
#define KAI_PAIR KAI_HDR "a,0,batch,1,10,100,0.2,1\nb,0,batch,1,10,100,0.8,1\n"

Test(kai, none_gives_equal_turns_whatever_the_fraction) {
  results *r = tu_run(KAI_POOL("kai", ""), KAI_PAIR, NULL);
  /* two compute-bound pods of 0.2 and 0.8 share the card in equal slices: they end
   * together, each slower than 0.8 of a card would make b */
  TU_NEAR(tu_job(r, "a")->end_s, tu_job(r, "b")->end_s, 1e-6);
  cr_expect_gt(tu_job(r, "a")->end_s, 100 / 0.8);
  results_free(r);
}

Test(kai, enforced_equals_fractional) {
  results *k = tu_run(KAI_POOL("kai", "    enforcement: enforced\n"), KAI_PAIR, NULL);
  results *f = tu_run(KAI_POOL("fractional", ""), KAI_PAIR, NULL);
  TU_NEAR(tu_job(k, "a")->end_s, tu_job(f, "a")->end_s, 1e-9);
  TU_NEAR(tu_job(k, "b")->end_s, tu_job(f, "b")->end_s, 1e-9);
  /* and the fraction is a guarantee: a (0.2) ends well after b (0.8) */
  cr_expect_gt(tu_job(k, "a")->end_s, tu_job(k, "b")->end_s + 50);
  results_free(k);
  results_free(f);
}

Test(kai, none_oom_reaches_the_neighbour_enforced_does_not) {
  /* b outgrows the card beside a at 10 s: with no enforcement and oom all (the default)
   * both die, a as an innocent victim */
  const char *csv = KAI_HDR "a,0,batch,1,30,100,0.5,0.5\nb,0,batch,1,30,100,0.5,0.5\n";
  const char *ph = "job_id,after_s,mem_gb\nb,10,60\n";
  results *r = tu_run(KAI_POOL("kai", ""), csv, ph);
  cr_expect_geq(tu_job(r, "a")->kills, 1);
  cr_expect_geq(g_array_index(r->pools, pool_result, 0).innocent_victims, 1);
  results_free(r);
  /* enforced: b passes its half of the card and dies alone */
  r = tu_run(KAI_POOL("kai", "    enforcement: enforced\n"), csv, ph);
  cr_expect_eq(tu_job(r, "a")->kills, 0);
  cr_expect_geq(tu_job(r, "b")->oom_kills, 1);
  cr_expect_eq(g_array_index(r->pools, pool_result, 0).innocent_victims, 0);
  results_free(r);
}

Test(kai, fractions_bin_pack_within_a_gpu) {
  /* 0.5 + 0.5 fill the card; the third waits for a share to come free */
  results *r = tu_run(KAI_POOL("kai", ""), KAI_HDR "a,0,batch,1,1,100,0.5,0.5\n"
                      "b,0,batch,1,1,100,0.5,0.5\nc,0,batch,1,1,100,0.5,0.5\n", NULL);
  cr_expect_eq(tu_job(r, "a")->start_s, 0);
  cr_expect_eq(tu_job(r, "b")->start_s, 0);
  cr_expect_gt(tu_job(r, "c")->start_s, 99);
  results_free(r);
}

static char *kai_load_error(const char *yaml) {
  g_autofree char *path = tu_write_temp("k.yaml", yaml);
  g_autoptr(diag_list) d = diag_list_new(0);
  scenario *sc = scenario_load(path, d);
  cr_expect_null(sc);
  if (sc) scenario_free(sc);
  return diag_join(d);
}

Test(kai, bad_keys_are_refused_at_their_position) {
  g_autofree char *m1 = kai_load_error(KAI_POOL("kai", "    enforcement: strict\n"));
  cr_expect(strstr(m1, ":8:18: pools[1].enforcement: expected one of none | enforced, found "
                       "'strict'"), "%s", m1);
  g_autofree char *m2 = kai_load_error(KAI_POOL("kai", "    gpu_fraction: 1.5\n"));
  cr_expect(strstr(m2, ":8:19: pools[1].gpu_fraction: expected a fraction greater than 0 and "
                       "at most 1, found '1.5'"), "%s", m2);
}
