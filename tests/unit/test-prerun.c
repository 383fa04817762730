/* test-prerun.c: the one pass before a run (prerun.h) gives what the separate passes give:
 * the same budget figures, the same never-run problems in the same order, the tenants in
 * the order they first appear (unroutable rows included), and a run that uses its target
 * workloads and tenants writes the same files as one that makes its own pass; on a trace
 * with unroutable and never-fitting rows, unsorted submit times, fgd pools, spilled or not. */
#include "testutil.h"
#include "prerun.h"
#include "budget.h"
#include "report.h"
#include <string.h>

/* A fractional fgd pool with host limits (notebooks, batch) and an exclusive fgd pool
 * (training); inference matches no rule. */
static const char *prerun_yaml =
    "name: prerun\ninterval: 60s\npools:\n"
    "  - name: f\n    gpu: A100-80GB\n    strategy: fractional\n    placement: fgd\n"
    "    node_groups:\n      - {nodes: 2, gpus_per_node: 4, cpu_milli: 32000, memory_mib: 65536}\n"
    "  - name: x\n    gpu: A100-80GB\n    nodes: 1\n    gpus_per_node: 2\n"
    "    strategy: exclusive\n    placement: fgd\n"
    "routing:\n  - {kind: notebook, pool: f}\n  - {kind: batch, pool: f}\n"
    "  - {kind: training, pool: x}\n";

/* n rows: the first an unroutable inference job of tenant "omega" (seen nowhere else
 * first), then batch (gpu_frac and cpu_milli varied; every 9th asks for more CPU than a
 * node has), training (every 7th asks for 4 GPUs: never fits pool x), notebooks and
 * unroutable inference; tenants zeta, alpha, mid; submit times sorted or shuffled. */
static GString *prerun_csv(guint n, gboolean sorted) {
  GString *csv = g_string_new("id,submit_s,kind,gpus,mem_gb,duration_s,gpu_frac,cpu_milli,"
                              "rate_rps,service_ms,busy,tenant\n");
  const char *tenants[] = {"zeta", "alpha", "mid"};
  const char *fracs[] = {"0.25", "0.5", "1", "0.3"};
  g_string_append(csv, "svc0,5,inference,1,10,400,,,20,15,,omega\n");
  for (guint i = 1; i < n; i++) {
    guint submit = sorted ? 10 + i * 3 : 10 + (i * 37) % (n * 3);
    const char *t = tenants[i % 3];
    switch (i % 4) {
    case 0:
      g_string_append_printf(csv, "b%u,%u,batch,1,8,%u,%s,%u,,,,%s\n", i, submit,
                             60 + (i * 13) % 300, fracs[(i / 4) % 4],
                             i % 9 == 0 ? 64000 : 1000 * (1 + i % 3), t);
      break;
    case 1:
      g_string_append_printf(csv, "t%u,%u,training,%u,20,%u,,,,,,%s\n", i, submit,
                             i % 7 == 0 ? 4 : 1 + i % 2, 100 + (i * 7) % 500, t);
      break;
    case 2:
      g_string_append_printf(csv, "n%u,%u,notebook,1,4,%u,%s,,,,0.%u,%s\n", i, submit,
                             200 + (i * 11) % 900, fracs[(i / 2) % 4], 1 + i % 8, t);
      break;
    default:
      g_string_append_printf(csv, "i%u,%u,inference,1,10,%u,,,%u,20,,%s\n", i, submit,
                             300 + i % 50, 1 + i % 5, t);
    }
  }
  return csv;
}

static void prerun_load(gboolean sorted, guint flags, scenario **sc, trace **tr) {
  g_autofree char *sp = tu_write_temp("prerun.yaml", prerun_yaml);
  g_autoptr(GString) csv = prerun_csv(300, sorted);
  g_autofree char *tp = tu_write_temp(sorted ? "sorted.csv" : "shuffled.csv", csv->str);
  g_autoptr(diag_list) d = diag_list_new(0);
  *sc = scenario_load(sp, d);
  cr_assert_not_null(*sc);
  *tr = trace_load_flags(tp, flags, d);
  cr_assert_not_null(*tr, "%s", d->messages->len ? (char *)g_ptr_array_index(d->messages, 0) : "");
  cr_assert_eq(trace_sorted(*tr), sorted);
}

/* The tenants in the order of their first row, by a pass of the test's own. */
static GPtrArray *first_seen_tenants(const trace *tr) {
  GPtrArray *a = g_ptr_array_new();
  for (guint i = 0; i < trace_n_jobs(tr); i++) {
    const char *t = tu_row(tr, i)->tenant;
    gboolean seen = FALSE;
    for (guint k = 0; k < a->len && !seen; k++) seen = !strcmp(g_ptr_array_index(a, k), t);
    if (!seen) g_ptr_array_add(a, (gpointer)t);
  }
  return a;
}

static void expect_same_diags(const diag_list *a, const diag_list *b) {
  cr_expect_eq(a->count, b->count);
  cr_assert_eq(a->messages->len, b->messages->len);
  for (guint k = 0; k < a->messages->len; k++)
    cr_expect_str_eq(g_ptr_array_index(a->messages, k), g_ptr_array_index(b->messages, k));
}

/* The checks: budget, never-run problems (capped as run caps them, and all), tenants. */
static void expect_prerun_matches_passes(const scenario *sc, const trace *tr) {
  g_autoptr(prerun) pre = prerun_new(sc, tr, 5);
  budget_estimate sep, one;
  budget_estimate_run(sc, tr, FALSE, &sep);
  budget_estimate_rows(sc, tr, &pre->budget, FALSE, &one);
  cr_expect_eq(memcmp(&sep, &one, sizeof sep), 0, "the same budget figures");
  cr_expect_gt(one.requests, 0);
  cr_expect_gt(one.top_events_job, 0);
  cr_expect_eq(one.tenants, 4);
  cr_expect_gt(one.span_s, 900);
  g_autoptr(diag_list) d5 = diag_list_new(5);
  sim_check_jobs(sc, tr, d5);
  expect_same_diags(pre->unfit, d5);
  /* 1 + 75 inference rows match no rule; 10 training rows ask for 4 GPUs, 8 batch rows
   * for 64 cores */
  cr_expect_eq(pre->unfit->count, 76 + 10 + 8, "%u", pre->unfit->count);
  g_autoptr(prerun) all = prerun_new(sc, tr, 0);
  g_autoptr(diag_list) d0 = diag_list_new(0);
  sim_check_jobs(sc, tr, d0);
  expect_same_diags(all->unfit, d0);
  g_autoptr(GPtrArray) want = first_seen_tenants(tr);
  cr_assert_eq(pre->tenants->len, want->len);
  for (guint k = 0; k < want->len; k++)
    cr_expect_str_eq(g_ptr_array_index(pre->tenants, k), g_ptr_array_index(want, k));
  cr_expect_str_eq(g_ptr_array_index(pre->tenants, 0), "omega", "an unroutable row's tenant");
  cr_expect_eq(pre->budget.tenants, want->len);
}

/* A run given the pass and one that makes its own write the same jobs, pools, tenants,
 * fragmentation (the fgd target workloads) and tenant series. */
static void expect_same_run(const scenario *sc, const trace *tr) {
  g_autoptr(prerun) pre = prerun_new(sc, tr, 5);
  sim_options with = {.prerun = pre}, without = {0};
  g_autoptr(results) a = sim_run(sc, tr, &with, NULL);
  g_autoptr(results) b = sim_run(sc, tr, &without, NULL);
  cr_assert(a && b);
  const char *files[] = {"jobs.csv", "pools.csv", "tenants.csv", "fragmentation.csv",
                         "tenant_timeseries.csv"};
  for (gsize k = 0; k < G_N_ELEMENTS(files); k++) {
    g_autoptr(GString) x = g_string_new(NULL), y = g_string_new(NULL);
    cr_assert(report_file_string(files[k], a, x) && report_file_string(files[k], b, y));
    cr_expect_str_eq(x->str, y->str, "%s", files[k]);
    cr_expect_gt(x->len, 100);
  }
  /* fgd had a target to place against: some fragmentation was seen */
  gboolean frag = FALSE;
  for (guint i = 0; i < a->timeseries->len; i++)
    frag |= g_array_index(a->timeseries, ts_row, i).frag_gpus > 0;
  cr_expect(frag);
}

Test(prerun, one_pass_gives_what_the_separate_passes_give_on_a_shuffled_trace) {
  g_autoptr(scenario) sc = NULL;
  g_autoptr(trace) tr = NULL;
  prerun_load(FALSE, 0, &sc, &tr);
  expect_prerun_matches_passes(sc, tr);
  expect_same_run(sc, tr);
}

Test(prerun, one_pass_gives_what_the_separate_passes_give_on_a_spilled_trace) {
  g_autoptr(scenario) sc = NULL;
  g_autoptr(trace) tr = NULL;
  prerun_load(TRUE, TRACE_SPILL | TRACE_TEST_SMALL_CHUNKS, &sc, &tr);
  cr_expect(trace_spilled(tr));
  trace_drop_index(tr);
  expect_prerun_matches_passes(sc, tr);
  expect_same_run(sc, tr);
}

/* A pass made for another scenario is not used: the run makes its own. */
Test(prerun, a_pass_for_another_scenario_is_ignored) {
  g_autoptr(scenario) sc = NULL, other = NULL;
  g_autoptr(trace) tr = NULL;
  prerun_load(FALSE, 0, &sc, &tr);
  g_autofree char *sp = tu_write_temp("other.yaml",
                                      "name: other\npools:\n  - {name: p, gpu: A100-80GB, "
                                      "nodes: 1, gpus_per_node: 8, strategy: exclusive}\n");
  g_autoptr(diag_list) d = diag_list_new(0);
  other = scenario_load(sp, d);
  cr_assert_not_null(other);
  g_autoptr(prerun) pre = prerun_new(other, tr, 5);
  cr_expect_eq(pre->unfit->count, 0);
  sim_options with = {.prerun = pre};
  g_autoptr(results) a = sim_run(sc, tr, &with, NULL);
  g_autoptr(results) b = sim_run(sc, tr, NULL, NULL);
  g_autoptr(GString) x = g_string_new(NULL), y = g_string_new(NULL);
  report_file_string("fragmentation.csv", a, x);
  report_file_string("fragmentation.csv", b, y);
  cr_expect_str_eq(x->str, y->str);
}
