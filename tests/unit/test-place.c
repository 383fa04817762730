/* test-place.c: the placement policy table (src/sim/place): fragmentation against a target
 * workload computed by hand, the target's popularity cut, the fit test (CPU, memory, model,
 * shares), the selection loop's tie-break, each policy's choice on small hand-made nodes,
 * and fgd beating pack on a fragmenting trace in an ordinary run. */
#include "testutil.h"
#include "place.h"
#include "report.h"
#include "rng.h"
#include <math.h>
#include <string.h>

/* A node of n GPUs with the given free milli-GPU, CPU (0 = not modelled) and model. */
typedef struct tnode {
  place_node n;
  int32_t left[8];
  guint32 aff[9];
} tnode;

static void tnode_set(tnode *t, guint32 gpus, const int32_t *left, int64_t cpu_left,
                      int64_t cpu_cap, const char *model) {
  memset(t, 0, sizeof *t);
  t->n.n_gpus = gpus;
  t->n.gpu_left = t->left;
  t->n.affinity = t->aff;
  t->n.cpu_left = cpu_left;
  t->n.cpu_cap = cpu_cap;
  t->n.model = model;
  for (guint32 i = 0; i < gpus; i++) t->left[i] = left[i];
  place_node_refresh(&t->n);
}

static place_req req(int64_t cpu, guint32 gpus, int32_t milli) {
  place_req r = {.cpu = cpu, .gpus = gpus, .milli = milli, .type = PLACE_NO_TYPE};
  return r;
}

Test(place, fragmentation_matches_the_hand_computation) {
  /* target: shares 0.5 (2 of 4), 0.7 (1 of 4), 0.3 (1 of 4) */
  place_req rs[] = {req(0, 1, 500), req(0, 1, 500), req(0, 1, 700), req(0, 1, 300)};
  place_target *t = place_target_new(rs, 4);
  cr_assert_eq(t->items->len, 3);
  /* GPUs left 200 and 300: 0.5 and 0.7 fit nowhere (all 500 free is fragment); 0.3 fits
   * on the second, so only the first's 200 is: 0.5 x 500 + 0.25 x 500 + 0.25 x 200 */
  int32_t a[] = {200, 300};
  TU_NEAR(place_frag(t, "A", 2, a, 0, 0), 425, 1e-9);
  /* GPUs left 500 and 0: 0.5 and 0.3 fit, 0.7 does not: 0.25 x 500 */
  int32_t b[] = {500, 0};
  TU_NEAR(place_frag(t, "A", 2, b, 0, 0), 125, 1e-9);
  /* short of CPU: every kind counts all the free share */
  place_target_free(t);
  place_req rc[] = {req(4000, 1, 500)};
  t = place_target_new(rc, 1);
  TU_NEAR(place_frag(t, "A", 2, b, 1000, 8000), 500, 1e-9);
  TU_NEAR(place_frag(t, "A", 2, b, 4000, 8000), 0, 1e-9);
  TU_NEAR(place_frag(t, "A", 2, b, 0, 0), 0, 1e-9); /* CPU not modelled */
  place_target_free(t);
}

Test(place, target_keeps_the_most_popular_kinds_to_95_percent) {
  place_req rs[100];
  for (int i = 0; i < 100; i++) rs[i] = i < 60 ? req(1000, 1, 500) : i < 96 ? req(2000, 1, 1000)
                                                                          : req(500, 0, 0);
  place_target *t = place_target_new(rs, 100);
  cr_assert_eq(t->kinds_total, 3);
  cr_assert_eq(t->items->len, 2, "60 + 36 = 96 >= 95 of 100: the CPU-only kind is cut");
  const place_target_item *a = &g_array_index(t->items, place_target_item, 0);
  const place_target_item *b = &g_array_index(t->items, place_target_item, 1);
  cr_expect_eq(a->milli, 500);
  TU_NEAR(a->p, 60.0 / 96, 1e-12);
  TU_NEAR(b->p, 36.0 / 96, 1e-12);
  place_target_free(t);
}

Test(place, fits_checks_cpu_memory_model_and_shares) {
  tnode t;
  int32_t left[] = {1000, 400};
  tnode_set(&t, 2, left, 8000, 16000, "T4");
  t.n.mem_left = 1024;
  t.n.mem_cap = 4096;
  place_req r = req(8000, 1, 400);
  cr_expect(place_fits(&t.n, &r));
  r.cpu = 8001;
  cr_expect_not(place_fits(&t.n, &r), "CPU short by one millicore");
  r.cpu = 1000;
  r.mem = 2048;
  cr_expect_not(place_fits(&t.n, &r), "memory short");
  r.mem = 0;
  r.spec = "V100M16|P100";
  cr_expect_not(place_fits(&t.n, &r), "model not allowed");
  r.spec = "P100|T4";
  cr_expect(place_fits(&t.n, &r));
  r = req(0, 2, 1000);
  cr_expect_not(place_fits(&t.n, &r), "two whole GPUs: only one is free");
  r = req(0, 2, 400);
  cr_expect(place_fits(&t.n, &r), "two shares of 0.4 fit on two GPUs");
  cr_expect(place_model_ok(NULL, "x") && place_model_ok("", NULL) && place_model_ok("|", "x"));
}

/* Runs the selection of ops over the nodes; returns the node and writes its first GPU. */
static int choose(const place_ops *ops, tnode *ts, guint32 n, place_req r, guint32 *gpu) {
  place_node nodes[8];
  for (guint32 i = 0; i < n; i++) nodes[i] = ts[i].n;
  place_req tr[] = {req(0, 1, 500), req(0, 1, 1000)};
  place_target *t = place_target_new(tr, 2);
  gsl_rng *rng = rng_new(1, "test", 0);
  place_ctx c = {.target = t, .rng = rng, .max_cpu = 0, .max_gpu_milli = 2000};
  guint32 gpus[8] = {0};
  int k = place_select(&c, ops, nodes, n, &r, NULL, gpus);
  *gpu = gpus[0];
  gsl_rng_free(rng);
  place_target_free(t);
  return k;
}

Test(place, each_policy_chooses_as_defined) {
  tnode ts[3];
  int32_t full[] = {1000, 1000}, half[] = {500, 1000}, tight[] = {300, 600};
  tnode_set(&ts[0], 2, full, 0, 0, "A");
  tnode_set(&ts[1], 2, half, 0, 0, "A");
  tnode_set(&ts[2], 2, tight, 0, 0, "A");
  guint32 g;
  /* a 0.3 share: pack / best-fit take the fullest node, its fullest fitting GPU */
  cr_expect_eq(choose(&place_pack_ops, ts, 3, req(0, 1, 300), &g), 2);
  cr_expect_eq(g, 0);
  cr_expect_eq(choose(&place_best_fit_ops, ts, 3, req(0, 1, 300), &g), 2);
  cr_expect_eq(g, 0);
  /* spread: the emptiest node, its emptiest GPU */
  cr_expect_eq(choose(&place_spread_ops, ts, 3, req(0, 1, 300), &g), 0);
  /* gpu-packing: a GPU already shared first (node 2's 0.3 left: 100 - 30/10 = 97 beats
   * node 1's 0.5: 100 - 50/10 = 95) */
  cr_expect_eq(choose(&place_gpu_packing_ops, ts, 3, req(0, 1, 300), &g), 2);
  /* fgd: filling node 2's first GPU exactly leaves (0, 600): no fragment for the 0.5 kind */
  cr_expect_eq(choose(&place_fgd_ops, ts, 3, req(0, 1, 300), &g), 2);
  cr_expect_eq(g, 0);
  /* a whole GPU: node 2 has none; best-fit takes node 1 (1.5 free) over node 0 */
  cr_expect_eq(choose(&place_best_fit_ops, ts, 3, req(0, 1, 1000), &g), 1);
  cr_expect_eq(g, 1);
  /* gpu-clustering: a share goes where shares already run */
  ts[1].aff[0] = 1;
  ts[2].aff[1] = 1;
  cr_expect_eq(choose(&place_gpu_clustering_ops, ts, 3, req(0, 1, 300), &g), 1);
  /* random: only fitting nodes, and the same draw for the same seed */
  guint32 g2;
  int a = choose(&place_random_ops, ts, 3, req(0, 1, 1000), &g);
  int b = choose(&place_random_ops, ts, 3, req(0, 1, 1000), &g2);
  cr_expect(a == 0 || a == 1);
  cr_expect_eq(a, b);
  cr_expect_eq(g, g2);
  /* nowhere */
  cr_expect_eq(choose(&place_fgd_ops, ts, 3, req(0, 3, 1000), &g), -1);
}

Test(place, ties_go_to_the_lowest_node) {
  tnode ts[4];
  int32_t full[] = {1000, 1000};
  for (int i = 0; i < 4; i++) tnode_set(&ts[i], 2, full, 0, 0, "A");
  guint32 g;
  for (guint p = 0; p < place_count(); p++) {
    const place_ops *ops = place_row(p);
    cr_expect_eq(place_for(place_input_row(p)), ops, "%s", ops->input.name);
    if (ops->pick_random) continue;
    cr_expect_eq(choose(ops, ts, 4, req(0, 1, 500), &g), 0, "%s", ops->input.name);
  }
}

Test(place, take_and_give_back_restore_the_node) {
  tnode t;
  int32_t left[] = {1000, 1000};
  tnode_set(&t, 2, left, 8000, 8000, "A");
  place_req r = req(3000, 1, 400);
  guint32 g = 1;
  guint32 v = t.n.version;
  place_node_take(&t.n, &r, &g);
  cr_expect_eq(t.left[1], 600);
  cr_expect_eq(t.n.cpu_left, 5000);
  cr_expect_eq(t.n.n_full, 1);
  cr_expect_eq(t.aff[0], 1);
  cr_expect_neq(t.n.version, v);
  place_node_give(&t.n, &r, &g);
  cr_expect_eq(t.left[1], 1000);
  cr_expect_eq(t.n.cpu_left, 8000);
  cr_expect_eq(t.n.n_full, 2);
  cr_expect_eq(t.aff[0], 0);
}

/* The fragmenting trace (tests/data/place): on one node of two GPUs, 0.5 then 0.7 take one
 * GPU each; 0.3 then fits on both. pack takes the first GPU that accepts (left 0.2 and 0.3),
 * so the last 0.5 fits nowhere; fgd fills the 0.7's GPU exactly (fragmentation 125 instead
 * of 425 milli-GPU, see fragmentation_matches_the_hand_computation) and the 0.5 fits. */
Test(place, fgd_leaves_fewer_jobs_unplaced_than_pack_on_a_fragmenting_trace) {
  g_autofree char *csv = NULL;
  g_file_get_contents(TEST_DATA_DIR "/place/fragmenting.csv", &csv, NULL, NULL);
  cr_assert_not_null(csv);
  guint queued[2];
  const char *pl[] = {"pack", "fgd"};
  for (int k = 0; k < 2; k++) {
    g_autofree char *yaml = g_strdup_printf(
        "name: frag\nhorizon: 100s\npools:\n  - {name: p, gpu: A100-80GB, nodes: 1, "
        "gpus_per_node: 2, strategy: fractional, placement: %s}\n", pl[k]);
    results *r = tu_run(yaml, csv, NULL);
    queued[k] = 0;
    for (guint i = 0; i < r->jobs->len; i++)
      queued[k] += g_array_index(r->jobs, job_result, i).outcome == OUTCOME_QUEUED;
    if (k == 1) cr_expect_str_eq(tu_job(r, "c")->gpu_ids, "p/n0/g1");
    else cr_expect_str_eq(tu_job(r, "c")->gpu_ids, "p/n0/g0");
    results_free(r);
  }
  cr_expect_eq(queued[0], 1, "pack leaves the last 0.5 waiting");
  cr_expect_eq(queued[1], 0, "fgd places every job");
}

/* Fragmentation over time (fragmentation.csv's frag_gpus and free_gpus, per pool and
 * interval) on the fragmenting trace, by hand: target kinds 0.5 (p 1/2), 0.7 and 0.3 (1/4
 * each). [0,1): a on g0, left 500/1000: only 0.7 is short on g0: 0.25 x 500 = 125 milli.
 * [1,2): b on g1, left 500/300: 0.5 x 300 (g1 too small) + 0.25 x 800 (0.7 fits nowhere)
 * = 350. [2,3): pack puts c on g0 (200/300: 425, see above), fgd on g1 (500/0: 125).
 * [3,4): d waits under pack (425); under fgd it fills g0 (nothing free: 0). */
Test(place, fragmentation_over_time_per_pool_matches_the_hand_computation) {
  g_autofree char *csv = NULL;
  g_file_get_contents(TEST_DATA_DIR "/place/fragmenting.csv", &csv, NULL, NULL);
  cr_assert_not_null(csv);
  const char *pl[] = {"pack", "fgd"};
  const double want_frag[2][4] = {{0.125, 0.35, 0.425, 0.425}, {0.125, 0.35, 0.125, 0}};
  const double want_free[2][4] = {{1.5, 0.8, 0.5, 0.5}, {1.5, 0.8, 0.5, 0}};
  for (int k = 0; k < 2; k++) {
    g_autofree char *yaml = g_strdup_printf(
        "name: frag\nhorizon: 4s\ninterval: 1s\npools:\n  - {name: p, gpu: A100-80GB, nodes: 1, "
        "gpus_per_node: 2, strategy: fractional, placement: %s}\n", pl[k]);
    results *r = tu_run(yaml, csv, NULL);
    guint seen = 0;
    for (guint i = 0; i < r->timeseries->len; i++) {
      const ts_row *t = &g_array_index(r->timeseries, ts_row, i);
      guint s = (guint)t->t_start_s;
      if (s >= 4) continue;
      TU_NEAR(t->frag_gpus, want_frag[k][s], 1e-9);
      TU_NEAR(t->idle_gpus, want_free[k][s], 1e-9);
      seen++;
    }
    cr_expect_eq(seen, 4, "%s: one row per interval", pl[k]);
    g_autoptr(GString) out = g_string_new(NULL);
    report_file_string("fragmentation.csv", r, out);
    cr_expect(g_str_has_prefix(out->str, "scenario,seed,pool,t_start_s,t_end_s,allocated,busy,"
                                          "frag_gpus,free_gpus,frag_ratio\n"), "%s", out->str);
    results_free(r);
  }
}

/* Ordinary runs keep the node list's host limits: a worker goes to a node only when its CPU,
 * host memory and GPU model allow it and a GPU takes its share; a job no node could ever
 * host is unplaceable with the reason, and one short of CPU for now waits for it. */
Test(place, runs_place_only_where_cpu_memory_model_and_share_fit) {
  const char *yaml =
      "name: host\nhorizon: 1000s\npools:\n  - name: p\n    gpu: T4\n    strategy: fractional\n"
      "    placement: %s\n    node_groups:\n"
      "      - {nodes: 1, gpus_per_node: 2, cpu_milli: 8000, memory_mib: 16384, model: T4}\n"
      "      - {nodes: 1, gpus_per_node: 2, cpu_milli: 32000, memory_mib: 65536, model: V100M16}\n";
  const char *csv = "id,submit_s,kind,gpus,mem_gb,duration_s,gpu_frac,cpu_milli,memory_mib,"
                    "gpu_spec\n"
                    "cpu,0,batch,1,1,100,0.25,16000,1024,\n"    /* node 0 short of CPU */
                    "mem,0,batch,1,1,100,0.25,1000,32768,\n"    /* node 0 short of memory */
                    "t4,0,batch,1,1,100,0.25,1000,1024,T4\n"    /* model: node 0 only */
                    "big,0,batch,1,1,100,0.25,64000,1024,\n"    /* more CPU than any node */
                    "a100,0,batch,1,1,100,0.25,1000,1024,A100\n" /* no such model */
                    "wait,1,batch,1,1,100,0.25,16000,1024,V100M16\n"; /* CPU left: 15000 */
  const char *pl[] = {"pack", "fgd", "best-fit"};
  for (guint k = 0; k < G_N_ELEMENTS(pl); k++) {
    g_autofree char *y = g_strdup_printf(yaml, pl[k]);
    results *r = tu_run(y, csv, NULL);
    cr_expect(g_str_has_prefix(tu_job(r, "cpu")->gpu_ids, "p/n1/"), "%s", pl[k]);
    cr_expect(g_str_has_prefix(tu_job(r, "mem")->gpu_ids, "p/n1/"), "%s", pl[k]);
    cr_expect(g_str_has_prefix(tu_job(r, "t4")->gpu_ids, "p/n0/"), "%s", pl[k]);
    cr_expect_eq(tu_job(r, "big")->outcome, OUTCOME_UNPLACEABLE, "%s", pl[k]);
    cr_expect_eq(tu_job(r, "a100")->outcome, OUTCOME_UNPLACEABLE, "%s", pl[k]);
    cr_expect(strlen(tu_job(r, "big")->reason) > 0);
    TU_NEAR(tu_job(r, "cpu")->start_s, 0, 1e-9);
    /* "wait" starts when "cpu" gives back its 16 cores (both share a GPU: run time 205 s) */
    cr_expect_gt(tu_job(r, "cpu")->end_s, 100);
    TU_NEAR(tu_job(r, "wait")->start_s, tu_job(r, "cpu")->end_s, 1e-6);
    cr_expect(g_str_has_prefix(tu_job(r, "wait")->gpu_ids, "p/n1/"), "%s", pl[k]);
    results_free(r);
  }
}
