/* test-fill.c: the fill-up experiment (study/fill.h): conservation (every arrival placed or
 * counted), allocation equal to the placed share, arrivals stopping at the inflation,
 * deterministic runs, node groups with host CPU, the published comparison's verdict on
 * made-up runs, and the scenario and trace keys it reads (node_groups, cpu_milli,
 * memory_mib, gpu_spec, gpus 0). */
#include "testutil.h"
#include "fill.h"
#include "validate.h"
#include <math.h>
#include <string.h>

#define FILL_YAML                                                                          \
  "name: f\npools:\n  - name: p\n    gpu: T4\n    strategy: fractional\n    node_groups:\n" \
  "      - {nodes: 3, gpus_per_node: 2, cpu_milli: 16000, memory_mib: 65536, model: T4}\n"  \
  "      - {nodes: 2, gpus_per_node: 4, cpu_milli: 32000, memory_mib: 131072, model: P100}\n"

static scenario *fill_scenario(void) {
  g_autofree char *p = tu_write_temp("fill.yaml", FILL_YAML);
  g_autoptr(diag_list) d = diag_list_new(0);
  scenario *s = scenario_load(p, d);
  g_autofree char *msgs = diag_join(d);
  cr_assert_not_null(s, "%s", msgs);
  return s;
}

/* A trace of n jobs cycling through shares, whole GPUs, a 2-GPU job and a CPU-only one. */
static trace *fill_trace(guint n) {
  GString *csv = g_string_new("id,submit_s,kind,gpus,mem_gb,duration_s,gpu_frac,cpu_milli,"
                              "memory_mib,gpu_spec\n");
  static const char *rows[] = {"1,1,1,0.5,4000,8192,", "1,1,1,0.3,2000,4096,",
                               "1,1,1,1,8000,16384,",  "2,1,1,1,4000,8192,P100",
                               "0,0,1,1,6000,1024,",   "1,1,1,0.7,1000,2048,T4"};
  for (guint i = 0; i < n; i++)
    g_string_append_printf(csv, "j%u,%u,batch,%s\n", i, i,
                           rows[i % G_N_ELEMENTS(rows)]);
  g_autofree char *p = tu_write_temp("fill.csv", csv->str);
  g_string_free(csv, TRUE);
  g_autoptr(diag_list) d = diag_list_new(0);
  trace *t = trace_load_flags(p, TRACE_ALLOW_CPU_ONLY, d);
  g_autofree char *msgs = diag_join(d);
  cr_assert_not_null(t, "%s", msgs);
  return t;
}

Test(fill, node_groups_give_every_node_its_gpus_cpu_and_model) {
  g_autoptr(scenario) s = fill_scenario();
  const pool_spec *p = scenario_pool(s, 0);
  cr_expect_eq(p->nodes, 5);
  cr_expect_eq(p->gpus_per_node, 4);
  cr_expect_eq(pool_gpus(p), 14);
  guint32 g;
  int64_t cpu, mem;
  const char *model;
  pool_node_info(p, 2, &g, &cpu, &mem, &model);
  cr_expect(g == 2 && cpu == 16000 && mem == 65536 && !strcmp(model, "T4"));
  pool_node_info(p, 3, &g, &cpu, &mem, &model);
  cr_expect(g == 4 && cpu == 32000 && mem == 131072 && !strcmp(model, "P100"));
}

Test(fill, every_arrival_is_placed_or_counted_and_allocation_is_the_placed_share) {
  g_autoptr(scenario) s = fill_scenario();
  g_autoptr(trace) t = fill_trace(60);
  g_autoptr(GError) err = NULL;
  fill_setup *su = fill_setup_new(s, 0, t, &err);
  cr_assert_not_null(su);
  cr_expect_eq(su->cap_milli, 14000);
  fill_options opt = {.inflate = 1.3, .shuffle = TRUE};
  for (guint p = 0; p < place_count(); p++) {
    fill_result *r = fill_run(su, &place_row(p)->input, 7, &opt);
    cr_expect_eq(r->n_arrived, r->n_placed + r->n_unplaced, "%s", place_row(p)->input.name);
    cr_expect_eq(r->arrived_milli, r->placed_milli + r->unplaced_milli);
    cr_expect_leq((double)r->arrived_milli, 1.3 * 14000 + 1e-9, "stops at the inflation");
    cr_expect_gt(r->arrived_milli, 1.3 * 14000 - 2000, "within one job of it");
    TU_NEAR(r->final_alloc_milli_pct, 100.0 * r->placed_milli / 14000, 1e-9);
    cr_expect_leq(r->placed_milli, 14000);
    cr_expect_gt(r->n_unplaced, 0, "130 %% cannot all fit");
    const fill_point *last = &g_array_index(r->points, fill_point, r->points->len - 1);
    cr_expect_eq(r->points->len, 131);
    cr_expect(last->have);
    cr_expect_leq(last->frag_ratio_pct, 100 + 1e-9);
    fill_result *again = fill_run(su, &place_row(p)->input, 7, &opt);
    cr_expect_eq(again->placed_milli, r->placed_milli, "same seed, same run");
    cr_expect_eq(memcmp(again->points->data, r->points->data,
                        sizeof(fill_point) * r->points->len), 0);
    fill_result_free(again);
    fill_result_free(r);
  }
  fill_setup_free(su);
}

Test(fill, host_cpu_limits_what_a_node_takes) {
  /* one node of 8 GPUs but 4 cores: of eight 2-core jobs of 0.1 GPU only 2 fit */
  g_autofree char *yp = tu_write_temp("cpu.yaml", "name: c\npools:\n  - {name: p, gpu: T4, "
                                      "nodes: 1, gpus_per_node: 8, cpu_milli: 4000, "
                                      "strategy: fractional}\n");
  GString *csv = g_string_new("id,submit_s,kind,gpus,mem_gb,duration_s,gpu_frac,cpu_milli\n");
  for (int i = 0; i < 8; i++) g_string_append_printf(csv, "j%d,%d,batch,1,1,1,0.1,2000\n", i, i);
  g_autofree char *tp = tu_write_temp("cpu.csv", csv->str);
  g_string_free(csv, TRUE);
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(scenario) s = scenario_load(yp, d);
  g_autoptr(trace) t = trace_load(tp, d);
  cr_assert(s && t);
  g_autoptr(GError) err = NULL;
  fill_setup *su = fill_setup_new(s, 0, t, &err);
  fill_options opt = {.inflate = 0.1, .shuffle = FALSE};
  fill_result *r = fill_run(su, &place_fgd_ops.input, 1, &opt);
  cr_expect_eq(r->n_arrived, 8);
  cr_expect_eq(r->n_placed, 2);
  cr_expect_eq(r->n_unplaced, 6);
  fill_result_free(r);
  fill_setup_free(su);
}

Test(fill, paper_comparison_passes_only_close_and_in_order) {
  /* made-up runs that copy the published means pass; shifted by 1.5 pp they fail */
  const placement_policy pol[] = {
      &place_random_ops.input,      &place_dot_product_ops.input, &place_gpu_clustering_ops.input,
      &place_gpu_packing_ops.input, &place_best_fit_ops.input,    &place_fgd_ops.input};
  fill_result *runs[6];
  for (int k = 0; k < 6; k++) {
    runs[k] = g_new0(fill_result, 1);
    runs[k]->policy = pol[k];
    runs[k]->points = g_array_new(FALSE, TRUE, sizeof(fill_point));
    for (guint pct = 0; pct <= 130; pct++) {
      fill_point pt = {.pct = pct, .have = TRUE, .alloc_milli_pct = fill_paper_alloc(pol[k], pct)};
      g_array_append_val(runs[k]->points, pt);
    }
  }
  TU_NEAR(fill_paper_alloc(&place_fgd_ops.input, 130), 95.39, 1e-9);
  TU_NEAR(fill_paper_alloc(&place_random_ops.input, 130), 87.47, 1e-9);
  cr_expect(isnan(fill_paper_alloc(&place_pack_ops.input, 130)));
  g_autoptr(GString) rep = g_string_new(NULL);
  cr_expect(fill_paper_compare(runs, 6, 1.0, rep), "%s", rep->str);
  g_array_index(runs[5]->points, fill_point, 60).alloc_milli_pct += 1.5;
  cr_expect_not(fill_paper_compare(runs, 6, 1.0, NULL), "1.5 pp off at 60 %%");
  g_array_index(runs[5]->points, fill_point, 60).alloc_milli_pct -= 1.5;
  g_array_index(runs[4]->points, fill_point, 130).alloc_milli_pct = 95.5; /* best-fit > fgd */
  cr_expect_not(fill_paper_compare(runs, 6, 3.0, NULL), "out of the published order");
  cr_expect_not(fill_paper_compare(runs, 5, 3.0, NULL), "fgd missing");
  for (int k = 0; k < 6; k++) fill_result_free(runs[k]);
}

Test(fill, trace_host_columns_round_trip_and_cpu_only_jobs_need_the_flag) {
  job_spec j;
  job_init(&j, JOB_BATCH);
  j.id = "x";
  j.gpus = 2;
  j.mem_bytes = 1000000000;
  j.duration_ns = SIM_NS_PER_S;
  j.cpu_milli = 4000;
  j.memory_mib = 8192;
  j.gpu_spec = "V100M16|V100M32";
  g_autoptr(GString) out = g_string_new(NULL);
  trace_write_header_host(out);
  trace_write_row_host(out, &j);
  g_autofree char *p = tu_write_temp("host.csv", out->str);
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(trace) t = trace_load(p, d);
  cr_assert_not_null(t);
  const job_spec *r = tu_row(t, 0);
  cr_expect_eq(r->cpu_milli, 4000);
  cr_expect_eq(r->memory_mib, 8192);
  cr_expect_str_eq(r->gpu_spec, "V100M16|V100M32");
  g_autofree char *cp = tu_write_temp("cpu0.csv", "id,submit_s,kind,gpus,mem_gb,duration_s\n"
                                                  "c,0,batch,0,0,1\n");
  g_autoptr(diag_list) d2 = diag_list_new(0);
  cr_expect_null(trace_load(cp, d2));
  cr_expect(strstr(g_ptr_array_index(d2->messages, 0), ":2:4: gpus: expected an integer from 1"));
  g_autoptr(trace) t2 = trace_load_flags(cp, TRACE_ALLOW_CPU_ONLY, d2);
  cr_assert_not_null(t2);
  cr_expect_eq(tu_row(t2, 0)->gpus, 0);
}

Test(fill, node_groups_errors_are_reported_with_positions) {
  static const struct { const char *yaml, *msg; } cases[] = {
      {"pools:\n  - {name: p, gpu: T4, nodes: 2, node_groups: [{nodes: 1, gpus_per_node: 2}]}\n",
       ":2:24: pools[1]: 'nodes' and 'node_groups' exclude each other"},
      {"pools:\n  - {name: p, gpu: T4, node_groups: [{nodes: 1}]}\n",
       "pools[1].node_groups[1]: missing required key 'gpus_per_node'"},
      {"pools:\n  - {name: p, gpu: T4, node_groups: [{nodes: 1, gpus_per_node: 2, "
       "model: 'a|b'}]}\n",
       "pools[1].node_groups[1].model: expected a GPU model name of 1 to 64 characters"},
      {"pools:\n  - {name: p, gpu: T4, node_groups: []}\n",
       "pools[1].node_groups: expected a non-empty list of node groups"},
      {"pools:\n  - {name: p, gpu: T4, nodes: 1, cpu_milli: -5}\n",
       "pools[1].cpu_milli: expected an integer from 0 to 100000000"},
  };
  for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autofree char *p = tu_write_temp("bad.yaml", cases[i].yaml);
    g_autoptr(diag_list) d = diag_list_new(0);
    g_autoptr(scenario) s = scenario_load(p, d);
    cr_expect_null(s, "%s", cases[i].yaml);
    g_autofree char *all = diag_join(d);
    cr_expect(strstr(all, cases[i].msg), "case %u: want '%s' in:\n%s", i, cases[i].msg, all);
  }
}

Test(fill, parallel_runs_give_the_results_of_sequential_ones) {
  g_autoptr(scenario) s = fill_scenario();
  g_autoptr(trace) t = fill_trace(90);
  g_autoptr(GError) err = NULL;
  fill_setup *su = fill_setup_new(s, 0, t, &err);
  fill_options opt = {.inflate = 1.2, .shuffle = TRUE};
  const guint64 seeds[] = {3, 4, 5};
  fill_result **a = fill_run_all(su, &opt, fill_paper_policies, FILL_PAPER_POLICIES, seeds, 3, 1);
  fill_result **b = fill_run_all(su, &opt, fill_paper_policies, FILL_PAPER_POLICIES, seeds, 3, 4);
  g_autoptr(GString) ca = g_string_new(NULL), cb = g_string_new(NULL);
  fill_write_csv(ca, a, 18);
  fill_write_csv(cb, b, 18);
  cr_expect_str_eq(ca->str, cb->str);
  cr_expect_eq(a[17]->policy, &place_fgd_ops.input);
  cr_expect_eq(a[17]->seed, 5);
  for (guint i = 0; i < 18; i++) {
    fill_result_free(a[i]);
    fill_result_free(b[i]);
  }
  g_free(a);
  g_free(b);
  fill_setup_free(su);
}

/* validate's published 130 % means (data/validation/published.csv) and the compiled-in
 * curve of fill-paper.c are the same numbers of the FGD repository. */
Test(fill, published_means_and_the_curve_agree_at_130_percent) {
  for (guint i = 0; i < FILL_PAPER_POLICIES; i++) {
    placement_policy p = fill_paper_policies[i];
    g_autofree char *key = g_strdup_printf("fgd.%s.alloc_130", placement_policy_name(p));
    const char *src = NULL;
    double v = validate_published(key, &src);
    TU_NEAR(v, fill_paper_alloc(p, 130), 1e-9);
    cr_expect(strstr(src, "analysis_allo_discrete.csv"), "%s", src);
    cr_expect(strstr(src, fill_paper_label(p)), "%s: %s", key, src);
  }
  cr_expect_eq(validate_published("fgd.curve_points", NULL), 131);
  cr_expect_null(fill_paper_label(&place_pack_ops.input));
}
