/* test-scenario.c: the scenario reader (SPEC 3.4) and the NVIDIA config readers: the SPEC
 * example's values, defaults, every kind of bad input with its exact message and position,
 * YAML constructs that are refused, --set overrides, device-plugin and mig-parted files,
 * and first-match routing. */
#include <criterion/criterion.h>
#include "testutil.h"
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include "scenario.h"
#include "priority.h"
#include "share.h"
#include "sim.h"
#include "place.h"
#include <stddef.h>
#include "nvconfig.h"
#include "paths.h"
#include "autoscale.h"

#define SDIR TEST_DATA_DIR "/scenario/"
#define NVDIR TEST_DATA_DIR "/scenario/nvidia/"

/* ---- helpers ------------------------------------------------------------------------ */

#define tmp_dir tu_tmp_dir
#define write_tmp tu_write_tmp
/* Scenarios written to tmp_dir name the NVIDIA configs of tests/data: allow that folder. */
static void scenario_suite_init(void) {
  tu_tmp_setup();
  cr_assert(paths_allow(NVDIR, NULL));
}
TestSuite(scenario, .init = scenario_suite_init, .fini = tu_tmp_teardown);

/* Loads scenario text written to tmp_dir/s.yaml. */
static scenario *load_text(const char *text, diag_list **d, char **path) {
  *path = write_tmp("s.yaml", text, -1);
  *d = diag_list_new(0);
  return scenario_load(*path, *d);
}

/* Loads text that must be valid; fails the test with the messages otherwise. */
static scenario *load_ok(const char *text) {
  g_autofree char *path = NULL;
  g_autoptr(diag_list) d = NULL;
  scenario *s = load_text(text, &d, &path);
  if (!s) {
    g_autofree char *all = diag_join(d);
    cr_assert_fail("unexpected problems:\n%s", all);
  }
  cr_assert_eq(d->count, 0);
  return s;
}

/* Asserts that one of d's messages is exactly prefix + suffix. */
static void expect_msg(const diag_list *d, const char *prefix, const char *suffix) {
  g_autofree char *want = g_strconcat(prefix ? prefix : "", suffix, NULL);
  for (guint i = 0; i < d->messages->len; i++)
    if (!strcmp(g_ptr_array_index(d->messages, i), want)) return;
  g_autofree char *all = diag_join(d);
  cr_assert_fail("no message\n  %s\namong:\n%s", want, all);
}

/* Asserts that one message contains needle. */
static void expect_msg_contains(const diag_list *d, const char *needle) {
  for (guint i = 0; i < d->messages->len; i++)
    if (strstr(g_ptr_array_index(d->messages, i), needle)) return;
  g_autofree char *all = diag_join(d);
  cr_assert_fail("no message containing\n  %s\namong:\n%s", needle, all);
}

/* Loads text that must fail, with a message containing needle. */
static void expect_msg_contains_load(const char *text, const char *needle) {
  g_autofree char *path = NULL;
  g_autoptr(diag_list) d = NULL;
  scenario *s = load_text(text, &d, &path);
  cr_assert_null(s, "loaded although it should fail with: %s", needle);
  expect_msg_contains(d, needle);
}

/* Loads text that must fail with exactly n problems, one of them prefix(path) + suffix. */
static void expect_one_error(const char *text, const char *suffix) {
  g_autofree char *path = NULL;
  g_autoptr(diag_list) d = NULL;
  scenario *s = load_text(text, &d, &path);
  cr_assert_null(s, "loaded although it should fail with: %s", suffix);
  if (d->count != 1) {
    g_autofree char *all = diag_join(d);
    cr_assert_fail("expected 1 problem, got %u:\n%s", d->count, all);
  }
  expect_msg(d, path, suffix);
}

static char *layout_text(const pool_spec *p, const mig_layout *l) {
  return catalog_layout_to_string(p->gpu, l);
}

static job_spec job(job_kind kind, const char *tenant, const char *label) {
  job_spec j = {0};
  j.id = "j";
  j.kind = kind;
  j.tenant = tenant;
  j.label = label;
  j.gpus = 1;
  return j;
}

#define POOL_MIN "    gpu: A100-80GB\n    nodes: 1\n"

/* ---- the SPEC example ----------------------------------------------------------------- */

Test(scenario, spec_example_parses_with_its_values) {
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(scenario) s = scenario_load(SDIR "three-pools.yaml", d);
  if (!s) {
    g_autofree char *all = diag_join(d);
    cr_assert_fail("%s", all);
  }
  cr_expect_str_eq(s->name, "three-pools");
  cr_expect_eq(s->seed, 1);
  cr_expect_eq(s->horizon_ns, 7 * 86400 * SIM_NS_PER_S);
  cr_expect_eq(s->interval_ns, 60 * SIM_NS_PER_S);
  cr_assert_eq(s->pools->len, 3);

  const pool_spec *ts = scenario_pool(s, 0);
  cr_expect_str_eq(ts->name, "dev-timeslice");
  cr_expect_str_eq(ts->gpu->name, "A100-80GB");
  cr_expect_eq(ts->nodes, 2);
  cr_expect_eq(ts->gpus_per_node, 8);
  cr_expect_eq(pool_gpus(ts), 16);
  cr_expect_eq(ts->strategy, tu_strategy("time-slicing"));
  cr_expect_eq(ts->replicas, 4);
  cr_expect(ts->replicas_set);
  cr_expect_eq(ts->oom, OOM_ALL);
  cr_expect_eq(ts->line, 5);
  cr_expect_float_eq(ts->price_per_gpu_hour, 3.43, 1e-12);
  cr_expect_eq(ts->timeslice_ns, 1024000);
  cr_expect_eq(ts->context_switch_ns, 25000);

  const pool_spec *mig = scenario_pool(s, 1);
  cr_expect_str_eq(mig->name, "inference-mig");
  cr_expect_eq(mig->strategy, tu_strategy("mig"));
  cr_expect_eq(mig->nodes, 2);
  cr_expect_eq(mig->gpus_per_node, 8);
  cr_assert(mig->has_layout);
  cr_expect_eq(mig->layout.n, 2);
  g_autofree char *l0 = layout_text(mig, &mig->layout);
  cr_expect_str_eq(l0, "3g.40gb x2");
  cr_assert_eq(mig->layouts->len, 2);
  g_autofree char *t0 = layout_text(mig, &g_array_index(mig->layouts, mig_layout, 0));
  g_autofree char *t1 = layout_text(mig, &g_array_index(mig->layouts, mig_layout, 1));
  cr_expect_str_eq(t0, "3g.40gb x2");
  cr_expect_str_eq(t1, "7g.80gb");
  cr_expect_eq(mig->reconfigure, RECONFIGURE_ON_DEMAND);
  cr_expect_eq(mig->drain, DRAIN_WAIT);
  cr_expect_eq(mig->reconfigure_time_ns, 120 * SIM_NS_PER_S);

  const pool_spec *mps = scenario_pool(s, 2);
  cr_expect_str_eq(mps->name, "embeddings-mps");
  cr_expect_eq(mps->strategy, tu_strategy("mps"));
  cr_expect_eq(mps->nodes, 1);
  cr_expect_eq(mps->replicas, 4);
  cr_expect_float_eq(mps->active_thread_percentage, 25.0, 1e-12);
  cr_expect_eq(mps->pinned_mem_limit_bytes, POOL_PINNED_DEFAULT);

  cr_assert_eq(s->routing->len, 3);
  const route_rule *r0 = &g_array_index(s->routing, route_rule, 0);
  cr_expect_eq(r0->kind, JOB_NOTEBOOK);
  cr_expect_null(r0->tenant);
  cr_expect_null(r0->label);
  cr_expect_eq(r0->pool, 0);
  cr_expect_eq(r0->line, 30);
  const route_rule *r1 = &g_array_index(s->routing, route_rule, 1);
  cr_expect_eq(r1->kind, -1);
  cr_expect_str_eq(r1->label, "embeddings");
  cr_expect_eq(r1->pool, 2);

  const double *price = g_hash_table_lookup(s->prices, "A100-80GB");
  cr_assert_not_null(price);
  cr_expect_float_eq(*price, 3.43, 1e-12);

  /* first match wins: an inference job labelled embeddings goes to MPS, not MIG */
  job_spec j = job(JOB_INFERENCE, "default", "embeddings");
  cr_expect_eq(scenario_route(s, &j), 2);
  j = job(JOB_INFERENCE, "default", "");
  cr_expect_eq(scenario_route(s, &j), 1);
  j = job(JOB_NOTEBOOK, "default", "embeddings");
  cr_expect_eq(scenario_route(s, &j), 0);
  j = job(JOB_TRAINING, "default", "");
  cr_expect_eq(scenario_route(s, &j), -1);
  cr_expect_eq(scenario_pool_index(s, "inference-mig"), 1);
  cr_expect_eq(scenario_pool_index(s, "nope"), -1);
}

Test(scenario, defaults_of_every_optional_key) {
  g_autoptr(scenario) s = load_ok("pools:\n  - name: only\n" POOL_MIN);
  cr_expect_str_eq(s->name, "s"); /* file base name */
  cr_expect_eq(s->seed, 1);
  cr_expect_eq(s->horizon_ns, 0);
  cr_expect_eq(s->interval_ns, 60 * SIM_NS_PER_S);
  cr_expect_null(s->interference_path);
  cr_expect_float_eq(s->ts_switch_loss, 0.06, 1e-12);
  cr_expect_float_eq(s->mps_bandwidth_loss, 0.075, 1e-12);
  for (int k = 0; k < JOB_KIND_COUNT; k++) cr_expect_eq(s->crash_rate_per_hour[k], 0.0);
  cr_expect_eq(g_hash_table_size(s->prices), 0);
  const pool_spec *p = scenario_pool(s, 0);
  cr_expect_eq(p->gpus_per_node, 8);
  cr_expect_eq(p->strategy, tu_strategy("exclusive"));
  cr_expect_str_eq(placement_policy_name(p->placement), "pack");
  cr_expect_eq(p->replicas, 1);
  cr_expect_not(p->replicas_set);
  cr_expect_eq(p->oom, OOM_ALL);
  cr_expect_float_eq(p->price_per_gpu_hour, catalog_find("A100-80GB")->price_per_gpu_hour, 1e-12);
  cr_expect_not(p->fail_requests_greater_than_one);
  cr_expect_not(p->rename_by_default);
  cr_expect_eq(p->active_thread_percentage, 0.0);
  cr_expect_eq(p->pinned_mem_limit_bytes, POOL_PINNED_DEFAULT);
  cr_expect_not(p->has_layout);
  cr_expect_eq(p->layouts->len, 0);
  cr_expect_eq(p->reconfigure, RECONFIGURE_NEVER);
  cr_expect_eq(p->drain, DRAIN_WAIT);
  cr_expect_eq(p->reconfigure_time_ns, 120 * SIM_NS_PER_S);
  cr_expect_float_eq(p->vgpu_licence_per_hour, 4500.0 / 8766.0, 1e-12);
  cr_expect_float_eq(p->fraction_cap, 1.0, 1e-12);
  cr_expect_null(p->sharing_config_path);
  cr_expect_null(p->mig_config_path);
  /* one pool and no rules: everything goes there */
  job_spec j = job(JOB_BATCH, "x", "y");
  cr_expect_eq(scenario_route(s, &j), 0);
}

Test(scenario, every_top_level_key_is_read) {
  g_autofree char *csv = write_tmp("pairs.csv", "a,b,slowdown\n", -1);
  g_autoptr(scenario) s = load_ok("name: sweep-base\n"
                                   "seed: 18446744073709551615\n"
                                   "horizon: 36h\n"
                                   "interval: 5m\n"
                                   "interference: pairs.csv\n"
                                   "ts_switch_loss: 0\n"
                                   "mps_bandwidth_loss: 0.25\n"
                                   "crash_rates: {training: 0.01, notebook: 0}\n"
                                   "prices: {H100-80GB: 7.5}\n"
                                   "pools:\n  - name: p\n" POOL_MIN);
  cr_expect_str_eq(s->name, "sweep-base");
  cr_expect_eq(s->seed, G_MAXUINT64);
  cr_expect_eq(s->horizon_ns, 36 * 3600 * SIM_NS_PER_S);
  cr_expect_eq(s->interval_ns, 300 * SIM_NS_PER_S);
  cr_expect_str_eq(s->interference_path, csv);
  cr_expect_eq(s->ts_switch_loss, 0.0);
  cr_expect_float_eq(s->mps_bandwidth_loss, 0.25, 1e-12);
  cr_expect_float_eq(s->crash_rate_per_hour[JOB_TRAINING], 0.01, 1e-12);
  cr_expect_eq(s->crash_rate_per_hour[JOB_INFERENCE], 0.0);
  const double *h = g_hash_table_lookup(s->prices, "H100-80GB");
  cr_assert_not_null(h);
  cr_expect_float_eq(*h, 7.5, 1e-12);
}

Test(scenario, price_resolution_pool_then_prices_then_catalogue) {
  g_autoptr(scenario) s = load_ok("prices: {A100-80GB: 2.5}\n"
                                   "pools:\n"
                                   "  - name: own\n" POOL_MIN "    price: 1.25\n"
                                   "  - name: listed\n" POOL_MIN
                                   "  - name: catalogue\n    gpu: T4\n    nodes: 1\n"
                                   "routing:\n  - pool: own\n");
  cr_expect_float_eq(scenario_pool(s, 0)->price_per_gpu_hour, 1.25, 1e-12);
  cr_expect_float_eq(scenario_pool(s, 1)->price_per_gpu_hour, 2.5, 1e-12);
  cr_expect_float_eq(scenario_pool(s, 2)->price_per_gpu_hour,
                     catalog_find("T4")->price_per_gpu_hour, 1e-12);
}

Test(scenario, strategy_specific_keys_are_read) {
  g_autoptr(scenario) s = load_ok(
      "pools:\n"
      "  - name: ts\n" POOL_MIN "    strategy: time-slicing\n    replicas: 3\n"
      "    timeslice: 2ms\n    context_switch: 40us\n    oom: sidecar\n    placement: spread\n"
      "    failRequestsGreaterThanOne: true\n    renameByDefault: yes\n"
      "  - name: mps\n" POOL_MIN "    strategy: mps\n    replicas: 48\n"
      "    activeThreadPercentage: 12.5\n    pinnedMemLimit: 10GB\n    oom: offender\n"
      "  - name: mps-nolimit\n" POOL_MIN "    strategy: mps\n    pinnedMemLimit: none\n"
      "  - name: vgpu\n" POOL_MIN "    strategy: vgpu\n    profile: A100D-20C\n"
      "    scheduler: fixed-share\n    vgpu_licence_per_hour: 1\n"
      "  - name: vgpu-small\n" POOL_MIN "    strategy: vgpu\n    profile: A100D-4C\n"
      "  - name: frac\n" POOL_MIN "    strategy: fractional\n    fraction_cap: 0.5\n"
      "  - name: mig\n" POOL_MIN "    strategy: mig\n"
      "    layout: [\"1g.10gb x2\", 2g.20gb, 3g.40gb]\n    replicas: 2\n    drain: evict\n"
      "    reconfigure_time: 90s\n"
      "routing:\n  - pool: ts\n");
  const pool_spec *ts = scenario_pool(s, 0);
  cr_expect_eq(ts->replicas, 3);
  cr_expect_eq(ts->timeslice_ns, 2 * SIM_NS_PER_MS);
  cr_expect_eq(ts->context_switch_ns, 40000);
  cr_expect_eq(ts->oom, OOM_SIDECAR);
  cr_expect_str_eq(placement_policy_name(ts->placement), "spread");
  cr_expect(ts->fail_requests_greater_than_one);
  cr_expect(ts->rename_by_default);
  const pool_spec *mps = scenario_pool(s, 1);
  cr_expect_eq(mps->replicas, 48);
  cr_expect_float_eq(mps->active_thread_percentage, 12.5, 1e-12);
  cr_expect_eq(mps->pinned_mem_limit_bytes, INT64_C(10000000000));
  cr_expect_eq(mps->oom, OOM_FAILED_ALLOCATION); /* "offender", the old name */
  cr_expect_eq(scenario_pool(s, 2)->pinned_mem_limit_bytes, POOL_PINNED_NONE);
  const pool_spec *vg = scenario_pool(s, 3);
  cr_assert_not_null(vg->vgpu);
  cr_expect_str_eq(vg->vgpu->name, "A100D-20C");
  cr_expect_eq(vg->vgpu_sched, VGPU_FIXED_SHARE);
  cr_expect_float_eq(vg->vgpu_licence_per_hour, 1.0, 1e-12);
  cr_expect_eq(vg->timeslice_ns, 2 * SIM_NS_PER_MS); /* <= 8 vGPUs per GPU: 2 ms */
  cr_expect_eq(scenario_pool(s, 4)->timeslice_ns, 1 * SIM_NS_PER_MS); /* 4C: 20 per GPU */
  cr_expect_float_eq(scenario_pool(s, 5)->fraction_cap, 0.5, 1e-12);
  const pool_spec *mig = scenario_pool(s, 6);
  cr_assert(mig->has_layout);
  cr_expect_eq(mig->layout.n, 4);
  g_autofree char *lt = layout_text(mig, &mig->layout);
  cr_expect_str_eq(lt, "3g.40gb + 2g.20gb + 1g.10gb x2");
  cr_expect_eq(mig->replicas, 2);
  cr_expect_eq(mig->drain, DRAIN_EVICT);
  cr_expect_eq(mig->reconfigure_time_ns, 90 * SIM_NS_PER_S);
  cr_expect_str_eq(share_strategy_name(mig->strategy), "mig");
  share_strategy st;
  cr_expect(share_strategy_parse("time-slicing", &st));
  cr_expect_eq(st, tu_strategy("time-slicing"));
  cr_expect_not(share_strategy_parse("timeslicing", &st));
}

Test(scenario, on_demand_without_layouts_targets_every_maximal_layout) {
  g_autoptr(scenario) s = load_ok("pools:\n  - name: m\n" POOL_MIN
                                   "    strategy: mig\n    layout: 7g.80gb\n"
                                   "    reconfigure: on-demand\n");
  const pool_spec *p = scenario_pool(s, 0);
  GArray *all = catalog_maximal_layouts(p->gpu);
  cr_expect_gt(all->len, 10);
  cr_expect_eq(p->layouts->len, all->len);
  g_array_unref(all);
}

/* ---- bad values: one problem each, with its position ----------------------------------- */

Test(scenario, replicas_not_a_number_names_the_mps_range) {
  expect_one_error("pools:\n  - name: m\n" POOL_MIN "    strategy: mps\n    replicas: abc\n",
                   ":6:15: pools[1].replicas: expected an integer from 1 to 48, found 'abc'");
}

Test(scenario, replicas_over_mps_limit) {
  expect_one_error("pools:\n  - name: m\n" POOL_MIN "    strategy: mps\n    replicas: 49\n",
                   ":6:15: pools[1].replicas: expected an integer from 1 to 48, found '49'");
}

Test(scenario, unknown_pool_key_lists_valid_keys_and_suggests) {
  g_autofree char *path = NULL;
  g_autoptr(diag_list) d = NULL;
  /* the message lists the keys of the table's strategies: give it the six it was written
   * for, so that a new strategy (row seven on) leaves this test as it is */
  scenario_use_strategies(6, share_input_row);
  g_autoptr(scenario) s = load_text("pools:\n  - name: m\n" POOL_MIN "    replica: 4\n", &d, &path);
  cr_assert_null(s);
  cr_assert_eq(d->count, 1);
  expect_msg(d, path,
             ":5:5: pools[1]: unknown key 'replica' (did you mean 'replicas'?); valid keys: "
             "name, gpu, nodes, gpus_per_node, strategy, placement, price, oom, replicas, "
             "timeslice, context_switch, failRequestsGreaterThanOne, renameByDefault, unified_memory, "
             "migration_slowdown, "
             "layout, layouts, reconfigure, drain, reconfigure_time, mig_config, "
             "mig_config_name, instance_sharing, activeThreadPercentage, pinnedMemLimit, profile, scheduler, "
             "vgpu_licence_per_hour, fraction_cap, max_jobs_per_gpu, cpu_weight, sharing_config, "
             "dra_claim, dra_request, pod_spec, cpu_milli, memory_mib, model, node_groups, autoscale, spot");
}

Test(scenario, unknown_top_level_key) {
  expect_one_error("pool:\n  - name: m\n" POOL_MIN "pools:\n  - name: m\n" POOL_MIN,
                   ":1:1: unknown key 'pool' (did you mean 'pools'?); valid keys: name, seed, "
                   "horizon, interval, start, pools, routing, prices, crash_rates, interference, "
                   "ts_switch_loss, ts_curve_exp, ts_overlap_exp, mps_bandwidth_loss, "
                   "mps_block_wait, mps_block_corr, max_restarts, restart_backoff, "
                   "restart_backoff_max, restart_backoff_reset, notebook_cull_timeout, "
                   "inference, llm, fairSharing, requirements, purchase, priority_classes, priority_rules, "
                   "preemption, kueue");
}

/* requirements: and purchase: (scenario-requirements.c): read, matched first rule first,
 * and a mechanism the trust forbids refused at its position. */
Test(scenario, requirements_read_and_matched) {
  scenario *s = load_ok("pools:\n  - name: m\n" POOL_MIN
                        "requirements:\n"
                        "  - {kind: notebook, tenant: t6, trust: untrusted, max_wait_p95: 10m}\n"
                        "  - {trust: team, mechanisms: [mps, mig], max_slowdown: 1.5}\n"
                        "purchase:\n  - {gpu: H100-80GB, max_gpus: 16, gpus_per_node: 4}\n");
  const scenario_requirements *r = s->requirements;
  cr_assert_eq(r->rules->len, 2);
  cr_assert_eq(r->buy->len, 1);
  cr_assert_eq(g_array_index(r->buy, req_buy, 0).gpus_per_node, 4);
  job_spec j;
  job_init(&j, JOB_NOTEBOOK);
  j.tenant = "t6";
  const req_rule *u = requirements_match(r, &j);
  cr_assert_eq(u->trust, REQ_TRUST_UNTRUSTED);
  cr_assert_float_eq(u->max_wait_p95_s, 600, 1e-9);
  cr_assert_eq(u->max_victims, 0);
  cr_assert(!requirements_rule_allows(u, "time-slicing") && requirements_rule_allows(u, "mig"));
  j.tenant = "t1";
  u = requirements_match(r, &j);
  cr_assert(requirements_rule_allows(u, "mps") && !requirements_rule_allows(u, "exclusive"));
  cr_assert(!requirements_trust_allows(REQ_TRUST_ORG, "mps"));
  cr_assert(!requirements_trust_allows(REQ_TRUST_UNTRUSTED, "fractional"));
  scenario_free(s);
}

Test(scenario, requirements_mechanism_forbidden_by_trust) {
  expect_one_error("pools:\n  - name: m\n" POOL_MIN
                   "requirements:\n  - {trust: org, mechanisms: [mig, mps]}\n",
                   ":6:36: requirements[1].mechanisms: expected a strategy trust 'org' allows "
                   "(exclusive, time-slicing, fractional, mig, vgpu), found 'mps'");
}

Test(scenario, key_of_another_strategy) {
  expect_one_error("pools:\n  - name: m\n" POOL_MIN "    strategy: time-slicing\n"
                   "    layout: 3g.40gb x2\n",
                   ":6:5: pools[1]: key 'layout' applies only to strategy mig (this pool's "
                   "strategy is time-slicing)");
  expect_one_error("pools:\n  - name: m\n" POOL_MIN "    replicas: 2\n",
                   ":5:5: pools[1]: key 'replicas' applies only to strategies time-slicing, "
                   "mig, mps (this pool's strategy is exclusive)");
  expect_one_error("pools:\n  - name: m\n" POOL_MIN "    strategy: mig\n    layout: 7g.80gb\n"
                   "    activeThreadPercentage: 50\n",
                   ":7:5: pools[1]: key 'activeThreadPercentage' applies only to strategy mps "
                   "(this pool's strategy is mig)");
}

Test(scenario, unknown_gpu_lists_models_and_suggests) {
  g_autofree char *list = catalog_model_names();
  g_autofree char *want =
      g_strdup_printf(":3:10: pools[1].gpu: expected a GPU model (did you mean A100-40GB, "
                      "A100-80GB? all: %s), found 'A100'", list);
  expect_one_error("pools:\n  - name: m\n    gpu: A100\n    nodes: 1\n", want);
}

Test(scenario, pool_without_gpus) {
  expect_one_error("pools:\n  - name: m\n    gpu: T4\n    nodes: 0\n",
                   ":4:12: pools[1].nodes: a pool with no GPUs is not allowed: expected an "
                   "integer from 1 to 100000, found '0'");
  expect_one_error("pools:\n  - name: m\n    gpu: T4\n    nodes: 2\n    gpus_per_node: 0\n",
                   ":5:20: pools[1].gpus_per_node: a pool with no GPUs is not allowed: "
                   "expected an integer from 1 to 1024, found '0'");
  expect_one_error("pools:\n  - name: m\n    gpu: T4\n",
                   ":2:5: pools[1]: missing required key 'nodes' (a pool with no GPUs is not "
                   "allowed)");
  expect_one_error("pools:\n  - name: m\n    gpu: T4\n    nodes: 2000\n    gpus_per_node: 1000\n",
                   ":2:5: pools[1]: 2000000 GPUs (nodes x gpus_per_node) is more than the "
                   "1000000 a pool may have");
}

Test(scenario, pool_name_must_be_safe_and_unique) {
  expect_one_error("pools:\n  - name: \"../x y\"\n    gpu: T4\n    nodes: 1\n",
                   ":2:11: pools[1].name: expected a name of 1 to 64 characters from A-Z a-z "
                   "0-9 . _ - (not starting with '.' or '-'), found '../x y'");
  expect_one_error("pools:\n  - name: a\n    gpu: T4\n    nodes: 1\n"
                   "  - name: a\n    gpu: T4\n    nodes: 1\nrouting:\n  - pool: a\n",
                   ":5:11: pools[2].name: duplicate pool name 'a' (first at line 2)");
  expect_one_error("pools:\n  - gpu: T4\n    nodes: 1\n",
                   ":2:5: pools[1]: missing required key 'name'");
}

Test(scenario, value_ranges) {
  expect_one_error("horizon: 10\npools:\n  - name: m\n" POOL_MIN,
                   ":1:10: horizon: expected a duration with a unit from 1s to 3650d (e.g. "
                   "250ms, 90s, 2m, 1h, 7d), found '10'");
  expect_one_error("interval: 10ms\npools:\n  - name: m\n" POOL_MIN,
                   ":1:11: interval: expected a duration with a unit from 1s to 30d (e.g. "
                   "250ms, 90s, 2m, 1h, 7d), found '10ms'");
  expect_one_error("ts_switch_loss: 1\npools:\n  - name: m\n" POOL_MIN,
                   ":1:17: ts_switch_loss: expected a number from 0 to less than 1, found '1'");
  expect_one_error("seed: 18446744073709551616\npools:\n  - name: m\n" POOL_MIN,
                   ":1:7: seed: expected an integer from 0 to 18446744073709551615, found "
                   "'18446744073709551616'");
  expect_one_error("pools:\n  - name: m\n    gpu: T4\n    nodes: 1e30\n",
                   ":4:12: pools[1].nodes: expected an integer from 1 to 100000, found '1e30'");
  expect_one_error("pools:\n  - name: m\n" POOL_MIN "    price: -1\n",
                   ":5:12: pools[1].price: expected a price in $ per GPU-hour greater than 0 and at most 1e6, "
                   "found '-1'");
  expect_one_error("pools:\n  - name: m\n" POOL_MIN "    strategy: mps\n"
                   "    activeThreadPercentage: 0\n",
                   ":6:29: pools[1].activeThreadPercentage: expected a percentage greater than 0 "
                   "and at most 100, found '0'");
  expect_one_error("pools:\n  - name: m\n" POOL_MIN "    strategy: fractional\n"
                   "    fraction_cap: 1.5\n",
                   ":6:19: pools[1].fraction_cap: expected a fraction greater than 0 and at most "
                   "1, found '1.5'");
  expect_one_error("pools:\n  - name: m\n" POOL_MIN "    strategy: time-slicing\n"
                   "    timeslice: 0s\n",
                   ":6:16: pools[1].timeslice: expected a duration with a unit from 1us to 1s "
                   "(e.g. 250ms, 90s, 2m, 1h, 7d), found '0s'");
  expect_one_error("pools:\n  - name: m\n" POOL_MIN "    strategy: time-slicing\n"
                   "    failRequestsGreaterThanOne: 1\n",
                   ":6:33: pools[1].failRequestsGreaterThanOne: expected true or false, found '1'");
  scenario_use_strategies(6, share_input_row); /* the six strategies the message names */
  expect_one_error("pools:\n  - name: m\n" POOL_MIN "    strategy: timeslicing\n",
                   ":5:15: pools[1].strategy: expected one of exclusive | time-slicing | mig | "
                   "mps | vgpu | fractional, found 'timeslicing'");
  expect_one_error("pools:\n  - name: m\n" POOL_MIN "    nodes: [1]\n",
                   ":5:5: duplicate key 'nodes' (first at line 4)");
  expect_one_error("crash_rates: {training: -1}\npools:\n  - name: m\n" POOL_MIN,
                   ":1:25: crash_rates.training: expected a rate in crashes per job-hour >= 0, "
                   "found '-1'");
  g_autofree char *kinds = tu_kind_names(", ");
  g_autofree char *robots =
      g_strdup_printf(":1:15: crash_rates: expected a job kind (one of: %s), found 'robots'", kinds);
  expect_one_error("crash_rates: {robots: 1}\npools:\n  - name: m\n" POOL_MIN, robots);
  expect_one_error("pools:\n  - name: m\n" POOL_MIN "    oom: [all]\n",
                   ":5:10: pools[1].oom: expected one of all | failed-allocation | sidecar, found a list");
}

Test(scenario, unknown_price_model_and_bad_price) {
  g_autofree char *list = catalog_model_names();
  g_autofree char *want =
      g_strdup_printf(":1:10: prices: expected a GPU model (one of: %s), found 'Z80'", list);
  expect_one_error("prices: {Z80: 1}\npools:\n  - name: m\n" POOL_MIN, want);
  expect_one_error("prices: {T4: 0}\npools:\n  - name: m\n" POOL_MIN,
                   ":1:14: prices.T4: expected a price in $ per GPU-hour greater than 0 and at most 1e6, "
                   "found '0'");
}

Test(scenario, interference_file_must_exist) {
  g_autofree char *path = NULL;
  g_autoptr(diag_list) d = NULL;
  g_autoptr(scenario) s =
      load_text("interference: missing.csv\npools:\n  - name: m\n" POOL_MIN, &d, &path);
  cr_assert_null(s);
  g_autofree char *want = g_strdup_printf(":1:15: interference: file not found: 'missing.csv' "
                                          "(looked for '%s/missing.csv')", tmp_dir);
  expect_msg(d, path, want);
}

/* ---- MIG ----------------------------------------------------------------------------- */

Test(scenario, mig_needs_a_layout_and_a_mig_gpu) {
  expect_one_error("pools:\n  - name: m\n" POOL_MIN "    strategy: mig\n",
                   ":2:5: pools[1]: strategy mig needs 'layout' (or 'mig_config' with "
                   "'mig_config_name')");
  expect_one_error("pools:\n  - name: m\n    gpu: T4\n    nodes: 1\n    strategy: mig\n"
                   "    layout: 1g.5gb\n",
                   ":5:15: pools[1].strategy: strategy mig needs a MIG-capable GPU; T4 has no "
                   "MIG (MIG-capable: A30, A100-40GB, A100-80GB, H100-80GB, H100-NVL-94GB, "
                   "H200-141GB, B200, GB200, B300, RTX-PRO-6000)");
}

Test(scenario, invalid_mig_layout_gives_the_catalogue_reason) {
  g_autofree char *path = NULL;
  g_autoptr(diag_list) d = NULL;
  g_autoptr(scenario) s = load_text("pools:\n  - name: m\n" POOL_MIN "    strategy: mig\n"
                                    "    layout: 4g.40gb x2\n"
                                    "    layouts: [\"7g.80gb + 1g.10gb\", [1g.10gb x8], "
                                    "[9g.90gb], 3g.40gb x2]\n",
                                    &d, &path);
  cr_assert_null(s);
  g_autofree char *msg = NULL;
  mig_layout l;
  cr_assert_not(catalog_layout_parse(catalog_find("A100-80GB"), "4g.40gb x2", &l, &msg));
  g_autofree char *want = g_strdup_printf(":6:13: pools[1].layout: %s", msg);
  expect_msg(d, path, want);
  expect_msg_contains(d, ":7:15: pools[1].layouts[1]: layout '7g.80gb + 1g.10gb' is not valid on "
                         "A100-80GB");
  expect_msg_contains(d, ":7:36: pools[1].layouts[2]: layout '1g.10gb x8' is not valid on "
                         "A100-80GB: 1g.10gb may appear at most 7 times");
  expect_msg_contains(d, ":7:51: pools[1].layouts[3][1]: expected a MIG profile of A100-80GB "
                         "(one of: ");
  cr_expect_eq(d->count, 4);
}

/* ---- YAML constructs that are refused ------------------------------------------------- */

Test(scenario, yaml_syntax_error_has_line_and_column) {
  expect_one_error("pools:\n  - name: m\n    gpu: [T4\n    nodes: 1\n",
                   ":4:10: YAML syntax error: did not find expected ',' or ']' (while parsing a "
                   "flow sequence at line 3)");
}

Test(scenario, anchors_aliases_and_tags_are_refused) {
  g_autofree char *path = NULL;
  g_autoptr(diag_list) d = NULL;
  g_autoptr(scenario) s = load_text("pools:\n  - &p\n    name: m\n" POOL_MIN "  - *p\n"
                                    "seed: !!int 3\n",
                                    &d, &path);
  cr_assert_null(s);
  expect_msg(d, path, ":2:5: YAML anchors (&p) are not supported; write the value out");
  expect_msg(d, path, ":6:5: YAML aliases (*p) are not supported; write the value out");
  expect_msg(d, path, ":7:7: YAML tags (tag:yaml.org,2002:int) are not supported");
  cr_expect_eq(d->count, 3);
}

Test(scenario, empty_and_non_mapping_files) {
  expect_one_error("", ": the file is empty: expected a YAML mapping");
  expect_one_error("# only a comment\n\n", ": the file is empty: expected a YAML mapping");
  expect_one_error("- a\n- b\n", ":1:1: scenario: expected a mapping of scenario keys (name, "
                   "seed, pools, routing, ...), found a list");
  expect_one_error("just text\n", ":1:1: scenario: expected a mapping of scenario keys (name, "
                   "seed, pools, routing, ...), found 'just text'");
  expect_one_error("name: a\n", ":1:1: missing required key 'pools' (a scenario needs at least "
                   "one pool)");
  expect_one_error("pools: []\n", ":1:8: pools: expected a non-empty list of pools, found a list");
  expect_one_error("pools:\n  - name: m\n" POOL_MIN "---\npools: []\n",
                   ":5:1: only one YAML document is allowed (found a second one)");
}

Test(scenario, deep_nesting_is_refused_without_crashing) {
  GString *s = g_string_new("pools: ");
  for (int i = 0; i < 100000; i++) g_string_append_c(s, '[');
  for (int i = 0; i < 100000; i++) g_string_append_c(s, ']');
  g_string_append_c(s, '\n');
  expect_one_error(s->str, ":1:71: nesting deeper than 64 levels is not allowed");
  g_string_free(s, TRUE);
}

Test(scenario, nul_bytes_bad_utf8_and_non_scalar_keys) {
  g_autofree char *p1 = write_tmp("nul.yaml", "pools:\n  - name: m\0x\n", 22);
  g_autoptr(diag_list) d1 = diag_list_new(0);
  cr_assert_null(scenario_load(p1, d1));
  cr_assert_eq(d1->count, 1);
  expect_msg(d1, p1, ":2:12: YAML syntax error: control characters are not allowed (byte 0x00)");

  g_autofree char *p2 = write_tmp("utf8.yaml", "name: caf\xff\npools: []\n", -1);
  g_autoptr(diag_list) d2 = diag_list_new(0);
  cr_assert_null(scenario_load(p2, d2));
  expect_msg(d2, p2, ":1:10: YAML syntax error: invalid leading UTF-8 octet (byte 0xFF)");

  expect_one_error("name: \"a\\0b\"\npools:\n  - name: m\n" POOL_MIN,
                   ":1:7: a NUL character inside a value is not allowed");
  expect_one_error("? [a]\n: 1\npools:\n  - name: m\n" POOL_MIN,
                   ":1:3: mapping keys must be plain text, found a list");
}

Test(scenario, crlf_and_bom_are_accepted) {
  const char *text = "\xef\xbb\xbfname: win\r\npools:\r\n  - name: m\r\n    gpu: T4\r\n"
                     "    nodes: 3\r\n";
  g_autofree char *path = write_tmp("win.yaml", text, -1);
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(scenario) s = scenario_load(path, d);
  cr_assert_not_null(s);
  cr_expect_str_eq(s->name, "win");
  cr_expect_eq(scenario_pool(s, 0)->nodes, 3);
}

Test(scenario, missing_file_and_directory) {
  g_autoptr(diag_list) d = diag_list_new(0);
  cr_assert_null(scenario_load(SDIR "no-such.yaml", d));
  expect_msg(d, SDIR "no-such.yaml", ": cannot read: No such file or directory");
  g_autoptr(diag_list) d2 = diag_list_new(0);
  cr_assert_null(scenario_load(SDIR, d2));
  expect_msg(d2, SDIR, ": cannot read: not a regular file (a folder)");
}

Test(scenario, default_name_is_made_safe) {
  g_autofree char *path = write_tmp("my scenario (v2).yaml", "pools:\n  - name: m\n" POOL_MIN, -1);
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(scenario) s = scenario_load(path, d);
  cr_assert_not_null(s);
  cr_expect_str_eq(s->name, "my_scenario__v2_");
}

/* ---- all problems at once ------------------------------------------------------------- */

Test(scenario, every_problem_is_reported_in_line_order) {
  g_autoptr(diag_list) d = diag_list_new(0);
  const char *p = SDIR "bad-many.yaml";
  cr_assert_null(scenario_load(p, d));
  cr_expect_eq(d->count, 16);
  const char *want[] = {
      ":1:7: name: expected",
      ":2:7: seed: expected an integer from 0 to 18446744073709551615, found '-3'",
      ":3:10: horizon: expected",
      ":6:10: pools[1].gpu: expected a GPU model (did you mean A100-40GB, A100-80GB?",
      ":7:12: pools[1].nodes: a pool with no GPUs is not allowed",
      ":9:15: pools[1].replicas: expected an integer from 1 to 1024, found 'abc'",
      ":10:10: pools[1].oom: expected one of all | failed-allocation | sidecar, found 'everyone'",
      ":11:5: pools[1]: key 'layout' applies only to strategy mig",
      ":16:15: pools[2].replicas: expected an integer from 1 to 48, found '49'",
      ":17:29: pools[2].activeThreadPercentage: expected",
      ":18:21: pools[2].pinnedMemLimit: expected",
      ":19:5: pools[2]: unknown key 'replica' (did you mean 'replicas'?)",
      ":20:11: pools[3].name: duplicate pool name 'dev' (first at line 5)",
      ":24:12: routing[1].kind: expected a job kind",
      ":24:26: routing[1].pool: expected the name of a pool (one of: dev, inf), found 'nowhere'",
      ":26:3: prices: expected a GPU model",
  };
  cr_assert_eq(d->messages->len, G_N_ELEMENTS(want));
  for (guint i = 0; i < G_N_ELEMENTS(want); i++) {
    g_autofree char *prefix = g_strconcat(p, want[i], NULL);
    cr_expect(g_str_has_prefix(g_ptr_array_index(d->messages, i), prefix), "message %u: %s", i,
              (const char *)g_ptr_array_index(d->messages, i));
  }
}

Test(scenario, problems_beyond_the_cap_are_counted) {
  GString *s = g_string_new("pools:\n");
  for (int i = 0; i < 80; i++)
    g_string_append_printf(s, "  - name: p%d\n    gpu: X\n    nodes: 1\n", i);
  g_autofree char *path = write_tmp("many.yaml", s->str, -1);
  g_string_free(s, TRUE);
  g_autoptr(diag_list) d = diag_list_new(10);
  cr_assert_null(scenario_load(path, d));
  cr_expect_eq(d->messages->len, 10);
  cr_expect_eq(d->count, 81); /* 80 unknown models + routing for 80 pools */
}

/* ---- routing ------------------------------------------------------------------------- */

Test(scenario, routing_first_match_and_catch_all) {
  g_autoptr(scenario) s = load_ok("pools:\n"
                                   "  - name: a\n" POOL_MIN "  - name: b\n" POOL_MIN
                                   "  - name: c\n" POOL_MIN
                                   "routing:\n"
                                   "  - {tenant: acme, kind: training, pool: a}\n"
                                   "  - {tenant: acme, pool: b}\n"
                                   "  - {label: big, pool: a}\n"
                                   "  - {pool: c}\n"
                                   "  - {kind: batch, pool: a}\n");
  job_spec j = job(JOB_TRAINING, "acme", "");
  cr_expect_eq(scenario_route(s, &j), 0);
  j = job(JOB_BATCH, "acme", "big");
  cr_expect_eq(scenario_route(s, &j), 1);
  j = job(JOB_BATCH, "other", "big");
  cr_expect_eq(scenario_route(s, &j), 0);
  j = job(JOB_BATCH, "other", ""); /* the catch-all shadows the last rule */
  cr_expect_eq(scenario_route(s, &j), 2);
}

Test(scenario, routing_to_a_missing_pool_names_the_valid_ones) {
  expect_one_error("pools:\n  - name: a\n" POOL_MIN "  - name: b\n" POOL_MIN
                   "routing:\n  - {kind: notebook, pool: c}\n",
                   ":9:28: routing[1].pool: expected the name of a pool (one of: a, b), found 'c'");
  expect_one_error("pools:\n  - name: a\n" POOL_MIN "routing:\n  - {kind: notebook}\n",
                   ":6:5: routing[1]: missing required key 'pool' (pools: a)");
  expect_one_error("pools:\n  - name: a\n" POOL_MIN "routing:\n  - {kind: notebook, pool: a, "
                   "team: x}\n",
                   ":6:31: routing[1]: unknown key 'team'; valid keys: kind, tenant, label, pool");
}

Test(scenario, several_pools_need_rules) {
  expect_one_error("pools:\n  - name: a\n" POOL_MIN "  - name: b\n" POOL_MIN,
                   ":1:1: routing: a scenario with 2 pools needs routing rules (a rule with only "
                   "'pool' catches every job)");
  expect_one_error("routing: []\npools:\n  - name: a\n" POOL_MIN "  - name: b\n" POOL_MIN,
                   ":1:10: routing: a scenario with 2 pools needs routing rules (a rule with only "
                   "'pool' catches every job)");
}

Test(scenario, routing_before_pools_in_the_file) {
  g_autoptr(scenario) s = load_ok("routing:\n  - {kind: inference, pool: b}\n  - {pool: a}\n"
                                   "pools:\n  - name: a\n" POOL_MIN "  - name: b\n" POOL_MIN);
  job_spec j = job(JOB_INFERENCE, "t", "");
  cr_expect_eq(scenario_route(s, &j), 1);
  j = job(JOB_NOTEBOOK, "t", "");
  cr_expect_eq(scenario_route(s, &j), 0);
}

/* ---- overrides ---------------------------------------------------------------------- */

Test(scenario, overrides_change_values_before_validation) {
  const char *ov[] = {"seed=3", "horizon=2d", "pools.dev-timeslice.replicas=8",
                      "prices.A100-80GB=2.5", "pools.inference-mig.layout=1g.10gb x7",
                      "pools.inference-mig.layouts=[7g.80gb, \"4g.40gb + 3g.40gb\"]",
                      "pools.embeddings-mps.gpus_per_node=4", "crash_rates.training=0.5",
                      "name=variant"};
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(scenario) s =
      scenario_load_with_overrides(SDIR "three-pools.yaml", ov, G_N_ELEMENTS(ov), d);
  if (!s) {
    g_autofree char *all = diag_join(d);
    cr_assert_fail("%s", all);
  }
  cr_expect_str_eq(s->name, "variant");
  cr_expect_eq(s->seed, 3);
  cr_expect_eq(s->horizon_ns, 2 * 86400 * SIM_NS_PER_S);
  cr_expect_eq(scenario_pool(s, 0)->replicas, 8);
  cr_expect_float_eq(scenario_pool(s, 0)->price_per_gpu_hour, 2.5, 1e-12);
  const pool_spec *mig = scenario_pool(s, 1);
  g_autofree char *lt = layout_text(mig, &mig->layout);
  cr_expect_str_eq(lt, "1g.10gb x7");
  cr_assert_eq(mig->layouts->len, 2);
  g_autofree char *l1 = layout_text(mig, &g_array_index(mig->layouts, mig_layout, 1));
  cr_expect_str_eq(l1, "4g.40gb + 3g.40gb");
  cr_expect_eq(scenario_pool(s, 2)->gpus_per_node, 4);
  cr_expect_float_eq(s->crash_rate_per_hour[JOB_TRAINING], 0.5, 1e-12);
}

Test(scenario, override_errors_name_the_override) {
  const char *ov[] = {"pools.embeddings-mps.replicas=abc", "pools.nope.replicas=2",
                      "pools.dev-timeslice.replica=2", "colour=blue", "seed", "seed={a: 1}",
                      "horizon=[1"};
  g_autoptr(diag_list) d = diag_list_new(0);
  const char *p = SDIR "three-pools.yaml";
  cr_assert_null(scenario_load_with_overrides(p, ov, G_N_ELEMENTS(ov), d));
  expect_msg(d, p, ": --set pools.embeddings-mps.replicas: expected an integer from 1 to 48, "
                   "found 'abc'");
  expect_msg(d, p, ": --set pools.nope.replicas: no pool named 'nope' (pools: dev-timeslice, "
                   "inference-mig, embeddings-mps)");
  expect_msg_contains(d, ": --set pools.dev-timeslice.replica: unknown pool key 'replica' (did "
                         "you mean 'replicas'?); valid pool keys: name, gpu,");
  expect_msg(d, p, ": --set colour: unknown key; expected one of: name, seed, horizon, interval, start, "
                   "interference, ts_switch_loss, ts_curve_exp, ts_overlap_exp, "
                   "mps_bandwidth_loss, mps_block_wait, mps_block_corr, max_restarts, "
                   "restart_backoff, restart_backoff_max, restart_backoff_reset, "
                   "notebook_cull_timeout, pools.NAME.KEY, "
                   "prices.MODEL, crash_rates.KIND, inference.KEY, llm.KEY, fairSharing.KEY");
  expect_msg(d, p, ": --set 'seed': expected KEY=VALUE (e.g. pools.dev.replicas=8)");
  expect_msg(d, p, ": --set seed: expected a single value or a [list], found a mapping");
  expect_msg_contains(d, ": --set horizon: YAML syntax error: ");
  cr_expect_eq(d->count, 7);
}

Test(scenario, override_making_a_key_inapplicable) {
  const char *ov[] = {"pools.dev-timeslice.strategy=exclusive"};
  g_autoptr(diag_list) d = diag_list_new(0);
  const char *p = SDIR "three-pools.yaml";
  cr_assert_null(scenario_load_with_overrides(p, ov, 1, d));
  expect_msg(d, p, ":10:5: pools[1]: key 'replicas' applies only to strategies time-slicing, "
                   "mig, mps (this pool's strategy is exclusive)");
  cr_expect_eq(d->count, 1);
}

/* ---- device-plugin sharing config ---------------------------------------------------- */

Test(scenario, device_plugin_time_slicing_config) {
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(nvconfig_sharing) c = nvconfig_sharing_load(NVDIR "ts-4.yaml", d);
  cr_assert_not_null(c);
  cr_expect_eq(c->kind, NVCONFIG_SHARING_TIME_SLICING);
  cr_expect(c->fail_requests_greater_than_one);
  cr_expect_not(c->rename_by_default);
  cr_assert_eq(c->resources->len, 1);
  const nvconfig_resource *r = &g_array_index(c->resources, nvconfig_resource, 0);
  cr_expect_str_eq(r->name, "nvidia.com/gpu");
  cr_expect_null(r->mig_profile);
  cr_expect_eq(r->replicas, 4);
  cr_expect_eq(r->line, 15);
  cr_expect_eq(r->col, 19);
  cr_expect_eq(c->line, 10);

  g_autoptr(scenario) s = load_ok("pools:\n  - name: ts\n" POOL_MIN
                                   "    sharing_config: " NVDIR "ts-4.yaml\n"
                                   "  - name: mps\n" POOL_MIN
                                   "    sharing_config: " NVDIR "mps-8.yaml\n"
                                   "  - name: own\n" POOL_MIN "    replicas: 2\n"
                                   "    failRequestsGreaterThanOne: false\n"
                                   "    sharing_config: " NVDIR "ts-4.yaml\n"
                                   "  - name: none\n" POOL_MIN
                                   "    sharing_config: " NVDIR "no-sharing.yaml\n"
                                   "routing:\n  - pool: ts\n");
  const pool_spec *ts = scenario_pool(s, 0);
  cr_expect_eq(ts->strategy, tu_strategy("time-slicing"));
  cr_expect_eq(ts->replicas, 4);
  cr_expect(ts->replicas_set);
  cr_expect(ts->fail_requests_greater_than_one);
  cr_expect_str_eq(ts->sharing_config_path, NVDIR "ts-4.yaml");
  const pool_spec *mps = scenario_pool(s, 1);
  cr_expect_eq(mps->strategy, tu_strategy("mps"));
  cr_expect_eq(mps->replicas, 8);
  cr_expect(mps->rename_by_default);
  const pool_spec *own = scenario_pool(s, 2); /* the pool's own keys win over the file */
  cr_expect_eq(own->strategy, tu_strategy("time-slicing"));
  cr_expect_eq(own->replicas, 2);
  cr_expect_not(own->fail_requests_greater_than_one);
  cr_expect_eq(scenario_pool(s, 3)->strategy, tu_strategy("exclusive"));
}

Test(scenario, device_plugin_path_is_relative_to_the_scenario) {
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(scenario) s = scenario_load(SDIR "from-nvidia.yaml", d);
  if (!s) {
    g_autofree char *all = diag_join(d);
    cr_assert_fail("%s", all);
  }
  const pool_spec *p = scenario_pool(s, 0);
  cr_expect_str_eq(p->sharing_config_path, SDIR "nvidia/ts-4.yaml");
  cr_expect_eq(p->strategy, tu_strategy("time-slicing"));
  cr_expect_eq(p->replicas, 4);
  cr_expect(p->fail_requests_greater_than_one);
}

Test(scenario, device_plugin_config_errors) {
  g_autoptr(diag_list) d = diag_list_new(0);
  const char *p = NVDIR "bad-sharing.yaml";
  cr_assert_null(nvconfig_sharing_load(p, d));
  expect_msg(d, p, ":1:10: version: expected v1, found 'v2'");
  expect_msg(d, p, ":12:3: sharing: timeSlicing and mps are mutually exclusive");
  cr_expect_eq(d->count, 2);

  g_autofree char *text = g_strdup(
      "version: v1\nsharing:\n  timeSlicing:\n    renameByDefault: maybe\n    resources:\n"
      "      - name: nvidia.com/gpu\n        replicas: 1\n      - name: amd.com/gpu\n"
      "        replicas: 4\n        devices: [0, 1]\n      - replicas: 2\n");
  g_autofree char *cp = write_tmp("dp.yaml", text, -1);
  g_autoptr(diag_list) d2 = diag_list_new(0);
  cr_assert_null(nvconfig_sharing_load(cp, d2));
  expect_msg(d2, cp, ":4:22: sharing.timeSlicing.renameByDefault: expected true or false, found "
                     "'maybe'");
  expect_msg(d2, cp, ":7:19: sharing.timeSlicing.resources[1].replicas: expected an integer from "
                     "2 to 4294967295, found '1'");
  expect_msg(d2, cp, ":8:15: sharing.timeSlicing.resources[2].name: expected nvidia.com/gpu or "
                     "nvidia.com/mig-<profile>, found 'amd.com/gpu'");
  expect_msg(d2, cp, ":10:18: sharing.timeSlicing.resources[2].devices: expected 'all' (the device "
                     "plugin shares every GPU of a node alike: it resets `devices` to all on "
                     "load; per-GPU sharing is not built, docs/models.md \"Not built yet\"), "
                     "found a list");
  expect_msg(d2, cp, ":11:9: sharing.timeSlicing.resources[3]: missing required key 'name' (e.g. "
                     "nvidia.com/gpu)");
  cr_expect_eq(d2->count, 5);

  g_autoptr(diag_list) d3 = diag_list_new(0);
  cr_assert_null(nvconfig_sharing_load(NVDIR "mps-mig.yaml", d3));
  expect_msg(d3, NVDIR "mps-mig.yaml", ":5:15: sharing.mps.resources[1].name: expected "
                                       "nvidia.com/gpu (the device plugin supports MPS on full "
                                       "GPUs only), found 'nvidia.com/mig-1g.10gb'");
}

Test(scenario, device_plugin_config_conflicts_with_the_pool) {
  g_autofree char *path = NULL;
  g_autoptr(diag_list) d = NULL;
  g_autoptr(scenario) s = load_text(
      "pools:\n"
      "  - name: a\n" POOL_MIN "    strategy: mps\n    sharing_config: " NVDIR "ts-4.yaml\n"
      "  - name: b\n" POOL_MIN "    sharing_config: " NVDIR "mps-60.yaml\n"
      "  - name: c\n" POOL_MIN "    strategy: mig\n    layout: \"2g.20gb x3 + 1g.20gb\"\n"
      "    sharing_config: " NVDIR "ts-mig.yaml\n"
      "  - name: d\n" POOL_MIN "    strategy: exclusive\n    sharing_config: " NVDIR "ts-4.yaml\n"
      "  - name: e\n" POOL_MIN "    sharing_config: missing.yaml\n"
      "routing:\n  - pool: a\n",
      &d, &path);
  cr_assert_null(s);
  expect_msg(d, path, ":5:15: pools[1].strategy: 'mps' contradicts " NVDIR "ts-4.yaml, which sets "
                      "sharing.timeSlicing");
  expect_msg(d, NVDIR "mps-60.yaml", ":6:19: sharing.mps.resources[1].replicas: expected an "
                                     "integer from 2 to 48, found '60'");
  expect_msg(d, path, ":16:21: pools[3].sharing_config: " NVDIR "ts-mig.yaml shares none of this "
                      "pool's devices (it shares nvidia.com/mig-1g.10gb, nvidia.com/mig-3g.40gb; "
                      "this pool needs nvidia.com/mig-<profile> of its layouts)");
  expect_msg(d, path, ":20:15: pools[4].strategy: 'exclusive' contradicts " NVDIR "ts-4.yaml, "
                      "which sets sharing.timeSlicing");
  g_autofree char *want = g_strdup_printf(":25:21: pools[5].sharing_config: file not found: "
                                          "'missing.yaml' (looked for '%s/missing.yaml')", tmp_dir);
  expect_msg(d, path, want);
  cr_expect_eq(d->count, 5);
}

Test(scenario, time_slicing_inside_mig_from_device_plugin_config) {
  g_autoptr(scenario) s = load_ok("pools:\n  - name: m\n" POOL_MIN
                                   "    strategy: mig\n    layout: 3g.40gb x2\n"
                                   "    sharing_config: " NVDIR "ts-mig.yaml\n");
  const pool_spec *p = scenario_pool(s, 0);
  cr_expect_eq(p->strategy, tu_strategy("mig"));
  int i3 = catalog_profile_index(p->gpu, "3g.40gb");
  cr_expect_eq(pool_mig_replicas(p, (guint)i3), 3); /* nvidia.com/mig-3g.40gb: 3 */
}

Test(scenario, each_mig_profile_takes_its_own_replicas_from_the_config) {
  g_autoptr(scenario) s = load_ok("pools:\n  - name: m\n" POOL_MIN
                                   "    strategy: mig\n    layout: \"1g.10gb x2 + 2g.20gb + 3g.40gb\"\n"
                                   "    sharing_config: " NVDIR "ts-mig.yaml\n");
  const pool_spec *p = scenario_pool(s, 0);
  const gpu_model *m = p->gpu;
  cr_expect_eq(pool_mig_replicas(p, (guint)catalog_profile_index(m, "1g.10gb")), 2);
  cr_expect_eq(pool_mig_replicas(p, (guint)catalog_profile_index(m, "3g.40gb")), 3);
  cr_expect_eq(pool_mig_replicas(p, (guint)catalog_profile_index(m, "2g.20gb")), 1); /* unlisted */
  g_autofree char *desc = scenario_pool_describe(p);
  cr_expect(strstr(desc, ", replicas per profile 3g.40gb: 3, 1g.10gb: 2 (others 1) (from "),
            "%s", desc);
  /* the scenario's own replicas override the file's, per profile or for every instance */
  g_autoptr(scenario) s2 = load_ok("pools:\n  - name: m\n" POOL_MIN
                                    "    strategy: mig\n    layout: \"1g.10gb x2 + 2g.20gb + 3g.40gb\"\n"
                                    "    replicas: {2g.20gb: 5}\n"
                                    "    sharing_config: " NVDIR "ts-mig.yaml\n");
  p = scenario_pool(s2, 0);
  cr_expect_eq(pool_mig_replicas(p, (guint)catalog_profile_index(m, "2g.20gb")), 5);
  cr_expect_eq(pool_mig_replicas(p, (guint)catalog_profile_index(m, "1g.10gb")), 1);
  g_autoptr(scenario) s3 = load_ok("pools:\n  - name: m\n" POOL_MIN
                                    "    strategy: mig\n    layout: \"1g.10gb x2 + 2g.20gb + 3g.40gb\"\n"
                                    "    replicas: 4\n"
                                    "    sharing_config: " NVDIR "ts-mig.yaml\n");
  p = scenario_pool(s3, 0);
  for (guint i = 0; i < m->n_profiles; i++) cr_expect_eq(pool_mig_replicas(p, i), 4);
}

Test(scenario, per_profile_replicas_past_the_cap_are_refused_at_the_config_value) {
  g_autofree char *cfg = write_tmp("ts-big.yaml",
                                   "version: v1\nsharing:\n  timeSlicing:\n    resources:\n"
                                   "      - name: nvidia.com/mig-3g.40gb\n        replicas: 2\n"
                                   "      - name: nvidia.com/mig-1g.10gb\n        replicas: 5000\n",
                                   -1);
  g_autofree char *text = g_strdup_printf("pools:\n  - name: m\n" POOL_MIN "    strategy: mig\n"
                                          "    layout: 3g.40gb x2\n    sharing_config: %s\n", cfg);
  g_autofree char *path = NULL;
  g_autoptr(diag_list) d = NULL;
  g_autoptr(scenario) s = load_text(text, &d, &path);
  cr_assert_null(s);
  expect_msg(d, cfg, ":8:19: sharing.timeSlicing.resources[2].replicas: expected an integer from "
                     "2 to 1024, found '5000'");
  cr_expect_eq(d->count, 1);
}

/* ---- mig-parted config ---------------------------------------------------------------- */

Test(scenario, mig_parted_config_is_read) {
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(nvconfig_mig) c = nvconfig_mig_load(NVDIR "mig-a100-80gb.yaml", d);
  cr_assert_not_null(c);
  cr_assert_eq(c->configs->len, 8);
  g_autofree char *names = nvconfig_mig_names(c);
  cr_expect_str_eq(names, "all-disabled, all-1g.10gb, all-balanced, all-3g.40gb, all-1g.5gb, "
                          "half-half, too-many, all-enabled");
  const nvconfig_mig_config *bal = nvconfig_mig_find(c, "all-balanced");
  cr_assert_not_null(bal);
  cr_expect_eq(bal->line, 14);
  cr_assert_eq(bal->entries->len, 1);
  const nvconfig_mig_entry *e = g_ptr_array_index(bal->entries, 0);
  cr_expect(e->all_devices);
  cr_expect(e->mig_enabled);
  cr_assert_eq(e->profiles->len, 3);
  cr_expect_str_eq(g_ptr_array_index(e->profiles, 2), "3g.40gb");
  cr_expect_eq(g_array_index(e->counts, guint32, 0), 2);
  const nvconfig_mig_config *hh = nvconfig_mig_find(c, "half-half");
  const nvconfig_mig_entry *h1 = g_ptr_array_index(hh->entries, 1);
  cr_expect_not(h1->all_devices);
  cr_assert_eq(h1->devices->len, 4);
  cr_expect_eq(g_array_index(h1->devices, guint, 3), 7);
  cr_expect_null(nvconfig_mig_find(c, "nope"));

  const gpu_model *m = catalog_find("A100-80GB");
  mig_layout l;
  char *msg = NULL;
  cr_assert(nvconfig_mig_layout(bal, m, &l, &msg));
  g_autofree char *ls = catalog_layout_to_string(m, &l);
  cr_expect_str_eq(ls, "3g.40gb + 2g.20gb + 1g.10gb x2");
  struct {
    const char *name, *msg;
  } bad[] = {
      {"all-disabled", "config 'all-disabled' disables MIG (mig-enabled: false at line 5)"},
      {"all-1g.5gb", "config 'all-1g.5gb' has no entry for A100-80GB (profile '1g.5gb' (line 30) "
                     "does not exist on A100-80GB (its profiles: "},
      {"half-half", "config 'half-half' gives the GPUs of A100-80GB different layouts (line 36: "
                    "3g.40gb x2; line 40: 1g.10gb x7); a pool has one layout for all its GPUs"},
      {"all-enabled", "config 'all-enabled' creates no MIG instances (line 53)"},
  };
  for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
    g_autofree char *why = NULL;
    cr_expect_not(nvconfig_mig_layout(nvconfig_mig_find(c, bad[i].name), m, &l, &why));
    cr_expect(why && g_str_has_prefix(why, bad[i].msg), "%s: %s", bad[i].name, why);
  }
  g_autofree char *why = NULL;
  cr_expect_not(nvconfig_mig_layout(nvconfig_mig_find(c, "too-many"), m, &l, &why));
  cr_expect(why && strstr(why, "is not valid on A100-80GB"), "%s", why);
}

Test(scenario, mig_parted_pool_from_data_file) {
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(scenario) s = scenario_load(SDIR "from-nvidia.yaml", d);
  cr_assert_not_null(s);
  const pool_spec *p = scenario_pool(s, 1);
  cr_expect_eq(p->strategy, tu_strategy("mig"));
  cr_assert(p->has_layout);
  g_autofree char *lt = layout_text(p, &p->layout);
  cr_expect_str_eq(lt, "3g.40gb + 2g.20gb + 1g.10gb x2");
  cr_expect_str_eq(p->mig_config_name, "all-balanced");
  cr_expect_str_eq(p->mig_config_path, SDIR "nvidia/mig-a100-80gb.yaml");
  /* layouts: every config of the file valid on A100-80GB, in file order */
  cr_assert_eq(p->layouts->len, 3);
  const char *want[] = {"1g.10gb x7", "3g.40gb + 2g.20gb + 1g.10gb x2", "3g.40gb x2"};
  for (guint i = 0; i < 3; i++) {
    g_autofree char *t = layout_text(p, &g_array_index(p->layouts, mig_layout, i));
    cr_expect_str_eq(t, want[i]);
  }
  /* explicit layouts win over the file's */
  const pool_spec *q = scenario_pool(s, 2);
  cr_assert_eq(q->layouts->len, 1);
  g_autofree char *lq = layout_text(q, &g_array_index(q->layouts, mig_layout, 0));
  cr_expect_str_eq(lq, "7g.80gb");
  g_autofree char *lq0 = layout_text(q, &q->layout);
  cr_expect_str_eq(lq0, "1g.10gb x7");
}

Test(scenario, mig_parted_device_filter_picks_the_model) {
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(nvconfig_mig) c = nvconfig_mig_load(NVDIR "mig-filtered.yaml", d);
  cr_assert_not_null(c);
  const nvconfig_mig_config *one = nvconfig_mig_find(c, "all-1g.10gb");
  const nvconfig_mig_config *bal = nvconfig_mig_find(c, "all-balanced");
  mig_layout l;
  const gpu_model *a40 = catalog_find("A100-40GB"), *a80 = catalog_find("A100-80GB");
  const gpu_model *a30 = catalog_find("A30"), *h100 = catalog_find("H100-80GB");
  cr_assert(nvconfig_mig_layout(one, a40, &l, NULL));
  g_autofree char *s40 = catalog_layout_to_string(a40, &l);
  cr_expect_str_eq(s40, "1g.10gb x4");
  cr_assert(nvconfig_mig_layout(one, a80, &l, NULL));
  g_autofree char *s80 = catalog_layout_to_string(a80, &l);
  cr_expect_str_eq(s80, "1g.10gb x7");
  cr_assert(nvconfig_mig_layout(one, h100, &l, NULL));
  cr_assert(nvconfig_mig_layout(bal, a30, &l, NULL));
  g_autofree char *s30 = catalog_layout_to_string(a30, &l);
  cr_expect_str_eq(s30, "2g.12gb + 1g.6gb x2");
  g_autofree char *why = NULL;
  cr_expect_not(nvconfig_mig_layout(bal, h100, &l, &why));
  cr_expect_str_eq(why, "config 'all-balanced' has no entry for H100-80GB (its device-filter "
                        "names other GPU models)");
  cr_expect_str_eq(nvconfig_pci_model("0x20b210de"), "A100-80GB");
  cr_expect_null(nvconfig_pci_model("0x12345678"));
}

Test(scenario, mig_parted_config_errors) {
  g_autoptr(diag_list) d = diag_list_new(0);
  const char *p = NVDIR "bad-mig.yaml";
  cr_assert_null(nvconfig_mig_load(p, d));
  expect_msg(d, p, ":4:16: mig-configs.broken[1].devices: expected all or a list of GPU indices, "
                   "e.g. [0, 1], found 'some'");
  expect_msg(d, p, ":5:20: mig-configs.broken[1].mig-enabled: expected true or false, found "
                   "'perhaps'");
  expect_msg(d, p, ":7:20: mig-configs.broken[1].mig-devices.1g.10gb: expected an integer from 0 "
                   "to 7, found '9'");
  expect_msg(d, p, ":8:7: mig-configs.broken[1]: unknown key 'colour'; valid keys: devices, "
                   "device-filter, mig-enabled, mig-devices");
  expect_msg(d, p, ":9:23: mig-configs.broken[2].device-filter[1]: expected a PCI device ID such "
                   "as \"0x20B210DE\", found '12'");
  expect_msg(d, p, ":10:20: mig-configs.broken[2].devices[2]: expected an integer from 0 to 1023, "
                   "found '-1'");
  expect_msg(d, p, ":12:10: mig-configs.empty: expected a non-empty list of device entries, found "
                   "a list");
  cr_expect_eq(d->count, 7);

  g_autofree char *path = NULL;
  g_autoptr(diag_list) d2 = NULL;
  g_autoptr(scenario) s = load_text(
      "pools:\n"
      "  - name: a\n" POOL_MIN "    mig_config: " NVDIR "mig-a100-80gb.yaml\n"
      "    mig_config_name: all-2g\n"
      "  - name: b\n" POOL_MIN "    mig_config: " NVDIR "mig-a100-80gb.yaml\n"
      "  - name: c\n" POOL_MIN "    strategy: mig\n    mig_config_name: all-balanced\n"
      "  - name: d\n" POOL_MIN "    mig_config: " NVDIR "mig-a100-80gb.yaml\n"
      "    mig_config_name: half-half\n"
      "routing:\n  - pool: a\n",
      &d2, &path);
  cr_assert_null(s);
  expect_msg(d2, path, ":6:22: pools[1].mig_config_name: expected a config of " NVDIR
                       "mig-a100-80gb.yaml (one of: all-disabled, all-1g.10gb, all-balanced, "
                       "all-3g.40gb, all-1g.5gb, half-half, too-many, all-enabled), found "
                       "'all-2g'");
  expect_msg(d2, path, ":10:5: pools[2]: mig_config needs mig_config_name (configs in that file: "
                       "all-disabled, all-1g.10gb, all-balanced, all-3g.40gb, all-1g.5gb, "
                       "half-half, too-many, all-enabled)");
  expect_msg(d2, path, ":15:5: pools[3]: mig_config_name needs mig_config (the mig-parted file)");
  cr_expect_eq(d2->count, 3); /* half-half (pool d) gives each GPU its layout */
}

/* Per-device entries that differ: GPU i of every node starts with its own layout. */
Test(scenario, per_device_entries_that_differ_give_each_gpu_its_layout) {
  g_autoptr(scenario) s = load_ok("pools:\n  - name: d\n" POOL_MIN "    mig_config: " NVDIR
                                  "mig-a100-80gb.yaml\n    mig_config_name: half-half\n");
  const pool_spec *p = g_ptr_array_index(s->pools, 0);
  cr_assert_not_null(p->gpu_layouts);
  cr_assert_eq(p->gpu_layouts->len, 8);
  g_autofree char *g0 = catalog_layout_to_string(p->gpu, &g_array_index(p->gpu_layouts, mig_layout, 0));
  g_autofree char *g7 = catalog_layout_to_string(p->gpu, &g_array_index(p->gpu_layouts, mig_layout, 7));
  cr_expect_str_eq(g0, "3g.40gb x2");
  cr_expect_str_eq(g7, "1g.10gb x7");
  g_autofree char *text = scenario_pool_describe(p);
  cr_expect(strstr(text, "a layout per GPU") && strstr(text, "per device: GPUs 0-3: 3g.40gb x2; "
                                                      "GPUs 4-7: 1g.10gb x7"), "%s", text);
}

/* ---- vGPU ------------------------------------------------------------------------------ */

Test(scenario, vgpu_needs_a_profile_of_the_model) {
  g_autofree char *list = NULL;
  {
    const gpu_model *m = catalog_find("A100-80GB");
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < m->n_vgpu_profiles; i++)
      g_string_append_printf(s, "%s%s", i ? ", " : "", m->vgpu_profiles[i].name);
    list = g_string_free(s, FALSE);
  }
  g_autofree char *w1 = g_strdup_printf(":2:5: pools[1]: strategy vgpu needs 'profile' (a vGPU "
                                        "profile of A100-80GB: %s)", list);
  expect_one_error("pools:\n  - name: v\n" POOL_MIN "    strategy: vgpu\n", w1);
  g_autofree char *w2 = g_strdup_printf(":6:14: pools[1].profile: expected a vGPU profile of "
                                        "A100-80GB (one of: %s), found 'A100-40C'", list);
  expect_one_error("pools:\n  - name: v\n" POOL_MIN "    strategy: vgpu\n    profile: A100-40C\n",
                   w2);
  expect_one_error("pools:\n  - name: v\n    gpu: B200\n    nodes: 1\n    strategy: vgpu\n",
                   ":2:5: pools[1]: strategy vgpu needs a vGPU profile, but the catalogue has "
                   "none for B200");
}

/* ---- the bundled example ------------------------------------------------------------- */

Test(scenario, bundled_nvidia_example_takes_its_sharing_from_the_files) {
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(scenario) s =
      scenario_load(TEST_DATA_DIR "/../../scenarios/nvidia/from-nvidia-configs.yaml", d);
  if (!s) {
    g_autofree char *all = diag_join(d);
    cr_assert_fail("%s", all);
  }
  cr_assert_eq(s->pools->len, 5);
  guint64 gpus = 0;
  for (guint i = 0; i < s->pools->len; i++) gpus += pool_gpus(scenario_pool(s, i));
  cr_expect_eq(gpus, 56);
  cr_expect_eq(scenario_pool(s, 4)->strategy, tu_strategy("exclusive"));
  const pool_spec *dev = scenario_pool(s, 0), *embed = scenario_pool(s, 1);
  const pool_spec *inf = scenario_pool(s, 2), *sh = scenario_pool(s, 3);
  cr_expect_eq(dev->strategy, tu_strategy("time-slicing"));
  cr_expect_eq(dev->replicas, 4);
  cr_expect(dev->fail_requests_greater_than_one);
  cr_expect_eq(embed->strategy, tu_strategy("mps"));
  cr_expect_eq(embed->replicas, 4);
  cr_expect_eq(inf->strategy, tu_strategy("mig"));
  g_autofree char *li = layout_text(inf, &inf->layout);
  cr_expect_str_eq(li, "3g.40gb + 2g.20gb + 1g.10gb x2");
  cr_expect_eq(inf->reconfigure, RECONFIGURE_ON_DEMAND);
  cr_expect_eq(inf->layouts->len, 4); /* all-1g.10gb, all-balanced, all-3g.40gb, all-7g.80gb */
  cr_expect_eq(sh->strategy, tu_strategy("mig"));
  g_autofree char *ls = layout_text(sh, &sh->layout);
  cr_expect_str_eq(ls, "3g.40gb x2");
  cr_expect_eq(pool_mig_replicas(sh, (guint)catalog_profile_index(sh->gpu, "3g.40gb")), 2);
  job_spec j = job(JOB_INFERENCE, "t", "embeddings");
  cr_expect_eq(scenario_route(s, &j), 1);
  j = job(JOB_BATCH, "t", "");
  cr_expect_eq(scenario_route(s, &j), 4);
  j = job(JOB_INFERENCE, "team-01", "");
  cr_expect_eq(scenario_route(s, &j), 3);
}

Test(scenario, odd_override_paths_are_errors_not_crashes) {
  const char *ov[] = {"=3", "pools.=1", "pools..replicas=1", "pools.x=1", "prices.=1",
                      "seed=", "pools.dev-timeslice.replicas=[1, 2]", "pools.dev-timeslice.oom=*a"};
  g_autoptr(diag_list) d = diag_list_new(0);
  const char *p = SDIR "three-pools.yaml";
  cr_assert_null(scenario_load_with_overrides(p, ov, G_N_ELEMENTS(ov), d));
  expect_msg(d, p, ": --set '=3': expected KEY=VALUE (e.g. pools.dev.replicas=8)");
  expect_msg_contains(d, ": --set pools.: unknown key; expected one of: ");
  expect_msg_contains(d, ": --set pools..replicas: unknown key; expected one of: ");
  expect_msg_contains(d, ": --set pools.x: unknown key; expected one of: ");
  expect_msg_contains(d, ": --set prices.: unknown key; expected one of: ");
  expect_msg(d, p, ": --set seed: expected an integer from 0 to 18446744073709551615, found ''");
  expect_msg(d, p, ": --set pools.dev-timeslice.replicas: expected an integer from 1 to 1024, "
                   "found a list");
  expect_msg(d, p, ": --set pools.dev-timeslice.oom: YAML aliases (*a) are not supported; write "
                   "the value out");
  cr_expect_eq(d->count, 8);
}

/* ---- the strategy table is handed in (scenario_use_strategies) ---------------------- */

/* A strategy the simulator does not have, registered only in this test's process: the
 * scenario reader takes its name, its own key and its range check from the table it was
 * given, so the input layer needs nothing of src/sim (tests/check-link-layers.sh). */
static double toy_speed_read = -1;
static const scenario_key toy_key_speed = {"toy_speed", "1", "the toy's speed", NULL};
static const scenario_key *const toy_keys[] = {&toy_key_speed, NULL};
static void toy_validate(pool_check *c, pool_spec *p) {
  (void)p;
  double v;
  if (pool_check_number(c, "toy_speed", "a number in (0, 1]", 0, TRUE, 1, FALSE, &v))
    toy_speed_read = v;
}
static const scenario_strategy toy_row = {
    .name = "test-toy", .keys = toy_keys, .example = "    toy_speed: 0.5\n", .validate = toy_validate};
static guint toy_base; /* rows of the real table before the toy */
static const scenario_strategy *toy_table_row(guint i) {
  return i < toy_base ? share_input_row(i) : &toy_row;
}

Test(scenario, strategy_table_is_given_by_the_program) {
  toy_base = share_count();
  scenario_use_strategies(toy_base + 1, toy_table_row);
  g_autoptr(scenario) s = load_ok("pools:\n  - name: t\n" POOL_MIN
                                  "    strategy: test-toy\n    toy_speed: 0.25\n");
  cr_expect_eq(scenario_pool(s, 0)->strategy, &toy_row);
  cr_expect_str_eq(share_strategy_name(scenario_pool(s, 0)->strategy), "test-toy");
  cr_expect_float_eq(toy_speed_read, 0.25, 0);
  /* its key is its own: refused on another strategy's pool, its range is its own */
  expect_msg_contains_load("pools:\n  - name: e\n" POOL_MIN "    strategy: exclusive\n"
                           "    toy_speed: 0.25\n", "toy_speed");
  expect_msg_contains_load("pools:\n  - name: t\n" POOL_MIN "    strategy: test-toy\n"
                           "    toy_speed: 2\n", "a number in (0, 1]");
  /* and without the toy row the name is unknown again */
  scenario_use_strategies(toy_base, share_input_row);
  expect_msg_contains_load("pools:\n  - name: t\n" POOL_MIN "    strategy: test-toy\n",
                           "strategy");
}

/* ---- the placement table is handed in (scenario_use_placements) -------------------- */

/* A policy the simulator does not have, and a table whose default is not its first row:
 * the reader takes the names, their order in its message and the default from the rows it
 * was given, and keeps the row itself as the pool's placement. */
static const scenario_placement toy_place_a = {.name = "test-first", .description = "a"};
static const scenario_placement toy_place_b = {.name = "test-default", .description = "b",
                                               .is_default = TRUE};
static const scenario_placement *toy_place_row(guint i) {
  return i == 0 ? &toy_place_a : i == 1 ? &toy_place_b : NULL;
}

Test(scenario, placement_table_is_given_by_the_program) {
  scenario_use_placements(2, toy_place_row);
  g_autoptr(scenario) d = load_ok("pools:\n  - name: p\n" POOL_MIN);
  cr_expect_eq(scenario_pool(d, 0)->placement, &toy_place_b, "the row marked is_default");
  g_autoptr(scenario) s = load_ok("pools:\n  - name: p\n" POOL_MIN "    placement: test-first\n");
  cr_expect_eq(scenario_pool(s, 0)->placement, &toy_place_a);
  cr_expect_str_eq(placement_policy_name(scenario_pool(s, 0)->placement), "test-first");
  expect_msg_contains_load("pools:\n  - name: p\n" POOL_MIN "    placement: pack\n",
                           "placement: expected one of test-first | test-default, found 'pack'");
  /* the simulator's table again: its names, pack the default */
  scenario_use_placements(place_count(), place_input_row);
  g_autoptr(scenario) r = load_ok("pools:\n  - name: p\n" POOL_MIN);
  cr_expect_str_eq(placement_policy_name(scenario_pool(r, 0)->placement), "pack");
  cr_expect_eq(place_for(scenario_pool(r, 0)->placement), &place_pack_ops);
  expect_msg_contains_load("pools:\n  - name: p\n" POOL_MIN "    placement: test-first\n",
                           "expected one of pack | spread | random | dot-product | "
                           "gpu-clustering | gpu-packing | best-fit | fgd, found 'test-first'");
}

/* A placement policy's own key, as a strategy has them: declared in its row, read by its
 * validate into the pool's placement_conf, refused on a pool of another policy. A toy row
 * of this test's table, then best-fit's cpu_weight of the simulator's, which moves its
 * choice between a node short of GPU and one short of CPU. */
static const scenario_key toy_place_key = {"toy_reach", "2", "the toy's reach", "1|2|3"};
static const scenario_key *const toy_place_keys[] = {&toy_place_key, NULL};
static void toy_place_validate(pool_check *c, pool_spec *p) {
  int64_t *v = g_new0(int64_t, 1);
  *v = 2;
  p->placement_conf = v;
  pool_check_int(c, "toy_reach", 1, 3, v);
}
static const scenario_placement toy_place_keyed = {.name = "test-keyed", .description = "k",
                                                   .is_default = TRUE, .keys = toy_place_keys,
                                                   .validate = toy_place_validate};
static const scenario_placement *toy_place_keyed_row(guint i) {
  return i == 0 ? &toy_place_a : i == 1 ? &toy_place_keyed : NULL;
}

/* The node best-fit picks for a 0.3-GPU, 500-millicore pod in pool 0 of s: node 0 has CPU
 * (8000 of 8000) and little GPU (0.5), node 1 the reverse (1000 millicores, 2 GPUs). */
static int best_fit_pick(const scenario *s) {
  int32_t left0[] = {500, 0}, left1[] = {1000, 1000};
  place_node n[2] = {{.cpu_left = 8000, .cpu_cap = 8000, .n_gpus = 2, .gpu_left = left0},
                     {.cpu_left = 1000, .cpu_cap = 8000, .n_gpus = 2, .gpu_left = left1}};
  place_node_refresh(&n[0]);
  place_node_refresh(&n[1]);
  place_req r = {.cpu = 500, .gpus = 1, .milli = 300, .type = PLACE_NO_TYPE};
  place_ctx c = {.max_cpu = 8000, .max_gpu_milli = 2000,
                 .conf = scenario_pool(s, 0)->placement_conf};
  guint32 gpu;
  return place_select(&c, place_for(scenario_pool(s, 0)->placement), n, 2, &r, NULL, &gpu);
}

Test(scenario, placement_keys_are_declared_by_their_policy) {
  scenario_use_placements(2, toy_place_keyed_row);
  g_autoptr(scenario) t = load_ok("pools:\n  - name: p\n" POOL_MIN "    toy_reach: 3\n");
  cr_assert_not_null(scenario_pool(t, 0)->placement_conf);
  cr_expect_eq(*(const int64_t *)scenario_pool(t, 0)->placement_conf, 3);
  expect_msg_contains_load("pools:\n  - name: p\n" POOL_MIN "    toy_reach: 4\n",
                           "pools[1].toy_reach: expected an integer from 1 to 3, found '4'");
  expect_msg_contains_load("pools:\n  - name: p\n" POOL_MIN "    placement: test-first\n"
                           "    toy_reach: 3\n", "pools[1]: key 'toy_reach' applies only to "
                           "placement test-keyed (this pool's placement is test-first)");
}

/* (Its own test: the reader builds its list of pool keys once per process.) */
Test(scenario, best_fit_cpu_weight_is_its_own_key) {
  expect_msg_contains_load("pools:\n  - name: p\n" POOL_MIN "    toy_reach: 3\n",
                           "unknown key 'toy_reach'");
  g_autoptr(scenario) even = load_ok("pools:\n  - name: p\n" POOL_MIN "    placement: best-fit\n");
  g_autoptr(scenario) gpu = load_ok("pools:\n  - name: p\n" POOL_MIN
                                    "    placement: best-fit\n    cpu_weight: 0\n");
  g_autoptr(scenario) cpu = load_ok("pools:\n  - name: p\n" POOL_MIN
                                    "    placement: best-fit\n    cpu_weight: 1\n");
  /* 1/2 each: node 0 leaves 0.94 CPU + 0.1 GPU, node 1 0.06 + 0.85: node 1 */
  cr_expect_eq(best_fit_pick(even), 1);
  cr_expect_eq(best_fit_pick(gpu), 0, "GPU only: node 0 leaves the least GPU");
  cr_expect_eq(best_fit_pick(cpu), 1);
  expect_msg_contains_load("pools:\n  - name: p\n" POOL_MIN "    cpu_weight: 0.5\n",
                           "pools[1]: key 'cpu_weight' applies only to placement best-fit "
                           "(this pool's placement is pack)");
  expect_msg_contains_load("pools:\n  - name: p\n" POOL_MIN "    placement: best-fit\n"
                           "    cpu_weight: 2\n",
                           "pools[1].cpu_weight: expected a weight from 0 to 1, found '2'");
}

/* ---- the models' constants are handed in (scenario_use_model_keys) ------------------ */

/* A model constant the simulator does not have, in a table of this test's own: the reader
 * takes the name, default, range and place of a model's constant from the declarations it
 * was given (at the top level and in a section), so it spells none of them; a section too
 * (its name, its example, --set SEC.KEY) comes from its keys' declaration. */
static const scenario_model_key toy_model_top = {
    {"toy_exp", "3", "the toy's exponent", NULL}, SCENARIO_MODEL_NUMBER, "a toy number from 1 to 5",
    1, 5, FALSE, FALSE, 3, offsetof(scenario, ts_curve_exp), NULL, NULL};
static const scenario_model_section toy_section = {"toy", "{blocks: 3}"};
static const scenario_model_key toy_model_sec = {
    {"toy.blocks", "7", "the toy's blocks", NULL}, SCENARIO_MODEL_WHOLE,
    "a whole toy number from 1 to 9", 1, 9, FALSE, FALSE, 7, offsetof(scenario, llm.block_size),
    NULL, &toy_section};
static const scenario_model_key *const toy_model_keys[] = {&toy_model_top, &toy_model_sec, NULL};

Test(scenario, model_keys_are_given_by_the_program) {
  scenario_use_model_keys(toy_model_keys);
  g_autoptr(scenario) d = load_ok("pools:\n  - name: m\n" POOL_MIN);
  cr_expect_float_eq(d->ts_curve_exp, 3, 0); /* the declared defaults */
  cr_expect_eq(d->llm.block_size, 7);
  g_autoptr(scenario) s = load_ok("pools:\n  - name: m\n" POOL_MIN
                                  "toy_exp: 4.5\ntoy: {blocks: 2}\n");
  cr_expect_float_eq(s->ts_curve_exp, 4.5, 0);
  cr_expect_eq(s->llm.block_size, 2);
  expect_msg_contains_load("pools:\n  - name: m\n" POOL_MIN "toy_exp: 6\n",
                           "toy_exp: expected a toy number from 1 to 5");
  expect_msg_contains_load("pools:\n  - name: m\n" POOL_MIN "toy: {blocks: 0}\n",
                           "toy.blocks: expected a whole toy number from 1 to 9");
  expect_msg_contains_load("pools:\n  - name: m\n" POOL_MIN "toy: 5\n",
                           "toy: expected a mapping, e.g. {blocks: 3}, found '5'");
  /* --set takes the section's keys and lists the section among the keys it may name */
  g_autofree char *path = write_tmp("s.yaml", "pools:\n  - name: m\n" POOL_MIN, -1);
  const char *ov[] = {"toy.blocks=4"}, *bad[] = {"llm.block_size=4"};
  g_autoptr(diag_list) dl = diag_list_new(0);
  g_autoptr(scenario) o = scenario_load_with_overrides(path, ov, 1, dl);
  cr_assert_not_null(o);
  cr_expect_eq(o->llm.block_size, 4);
  cr_assert_null(scenario_load_with_overrides(path, bad, 1, dl));
  expect_msg_contains(dl, "crash_rates.KIND, toy.KEY");
  /* the simulator's constants and sections are not known to a reader given another table */
  expect_msg_contains_load("pools:\n  - name: m\n" POOL_MIN "ts_curve_exp: 2\n",
                           "unknown key 'ts_curve_exp'");
  expect_msg_contains_load("pools:\n  - name: m\n" POOL_MIN "llm: {block_size: 8}\n",
                           "unknown key 'llm'");
  scenario_use_model_keys(sim_model_keys);
  g_autoptr(scenario) r = load_ok("pools:\n  - name: m\n" POOL_MIN "ts_curve_exp: 2\n");
  cr_expect_float_eq(r->ts_curve_exp, 2, 0);
}

/* Every value a model constant's declaration offers the invariant suite (its sample: "a|b"
 * or "LO..HI", both ends tried) is one the reader takes, through --set as a user would. */
Test(scenario, model_key_samples_are_valid_values) {
  g_autofree char *path = write_tmp("s.yaml", "pools:\n  - name: m\n" POOL_MIN, -1);
  guint n = 0;
  for (const scenario_model_key *const *k = scenario_model_keys(); *k; k++) {
    const char *sample = (*k)->key.sample;
    if (!sample) continue;
    g_auto(GStrv) values = strstr(sample, "..") ? g_strsplit(sample, "..", 2)
                                                : g_strsplit(sample, "|", -1);
    for (guint i = 0; values[i]; i++, n++) {
      g_autofree char *ov = g_strdup_printf("%s=%s", (*k)->key.name, values[i]);
      const char *ovs[] = {ov};
      g_autoptr(diag_list) d = diag_list_new(0);
      g_autoptr(scenario) sc = scenario_load_with_overrides(path, ovs, 1, d);
      g_autofree char *all = diag_join(d);
      cr_expect_not_null(sc, "sample %s of %s refused:\n%s", values[i], (*k)->key.name, all);
    }
  }
  cr_expect_geq(n, 10, "only %u sampled values", n);
}

/* The restart keys are declared by sim.c and the idle culler's by workload-notebook.c: the
 * reader takes their defaults and ranges from there (a whole number from its declared lo:
 * max_restarts may be 0). */
Test(scenario, restart_keys_come_from_their_declarations) {
  g_autoptr(scenario) d = load_ok("pools:\n  - name: m\n" POOL_MIN);
  cr_expect_eq(d->max_restarts, 10);
  cr_expect_eq(d->restart_backoff_ns, 10 * SIM_NS_PER_S);
  cr_expect_eq(d->restart_backoff_max_ns, 300 * SIM_NS_PER_S);
  cr_expect_eq(d->restart_backoff_reset_ns, 600 * SIM_NS_PER_S);
  cr_expect_eq(d->notebook_cull_ns, 0);
  g_autoptr(scenario) s = load_ok("pools:\n  - name: m\n" POOL_MIN
                                  "max_restarts: 0\nrestart_backoff: 0s\n"
                                  "restart_backoff_max: 1s\nnotebook_cull_timeout: 2m\n");
  cr_expect_eq(s->max_restarts, 0);
  cr_expect_eq(s->restart_backoff_ns, 0);
  cr_expect_eq(s->restart_backoff_max_ns, SIM_NS_PER_S);
  cr_expect_eq(s->notebook_cull_ns, 120 * SIM_NS_PER_S);
  expect_msg_contains_load("pools:\n  - name: m\n" POOL_MIN "max_restarts: 1000001\n",
                           "max_restarts: expected a whole number from 0 to 1000000");
}

/* Priority classes (priority.c): the first matching rule gives the class, else the global
 * default; a non-zero trace priority keeps its value; the class gives the policy; without
 * the sections there is no priority block at all (nothing preempts). */
Test(scenario, priority_classes_resolve) {
  g_autoptr(scenario) plain = load_ok("pools:\n  - name: m\n" POOL_MIN);
  cr_assert_null(plain->priority);
  g_autoptr(scenario) s = load_ok(
      "pools:\n  - name: m\n" POOL_MIN
      "priority_classes:\n  - {name: hi, value: 1000}\n"
      "  - {name: lo, value: 10, global_default: true, preemption_policy: Never}\n"
      "priority_rules:\n  - {tenant: prod, kind: training, priority_class: hi}\n"
      "  - {tenant: prod, priority_class: lo}\n");
  cr_assert_not_null(s->priority);
  cr_assert(s->priority->preempts);
  cr_assert_eq(s->priority->grace_ns, 30 * SIM_NS_PER_S);
  job_spec j;
  job_init(&j, JOB_TRAINING);
  j.tenant = "prod";
  int32_t v;
  preemption_policy pol;
  priority_resolve(s->priority, &j, &v, &pol);
  cr_assert_eq(v, 1000);
  cr_assert_eq(pol, PREEMPT_LOWER_PRIORITY);
  j.kind = JOB_BATCH; /* the second rule */
  priority_resolve(s->priority, &j, &v, &pol);
  cr_assert_eq(v, 10);
  cr_assert_eq(pol, PREEMPT_NEVER);
  j.tenant = "research"; /* no rule: the global default */
  j.priority = 7;        /* the trace's value stays */
  priority_resolve(s->priority, &j, &v, &pol);
  cr_assert_eq(v, 7);
  cr_assert_eq(pol, PREEMPT_NEVER);
}

Test(scenario, priority_classes_refused) {
  diag_list *d;
  g_autofree char *path = NULL;
  scenario *s = load_text("pools:\n  - name: m\n" POOL_MIN
                          "priority_classes:\n  - {name: a, value: 1, global_default: true}\n"
                          "  - {name: a, value: 2}\n"
                          "  - {name: b, value: 3, global_default: true}\n"
                          "priority_rules:\n  - {kind: gpu, priority_class: a}\n",
                          &d, &path);
  cr_assert_null(s);
  expect_msg_contains(d, ":7:12: priority_classes[2].name: class 'a' is defined twice");
  expect_msg_contains(d, ":8:41: priority_classes[3].global_default: a second global default");
  expect_msg_contains(d, ":10:12: priority_rules[1].kind: expected a job kind");
  diag_list_free(d);
}

/* ---- a pool's sections are handed in (scenario_use_pool_sections) ------------------- */

/* A section the simulator does not have: the reader takes its name as a pool key, refuses
 * keys of its mapping the row does not declare, hands the row's validate a check on the
 * mapping (keys read inside it, messages prefixed pools[N].NAME) and keeps the block it
 * returns for the pool; `check`'s line of the pool ends with its describe. */
static const scenario_key toy_level = {"level", "1", "a toy's level", "0|9"};
static const scenario_key *const toy_section_keys[] = {&toy_level, NULL};
static gpointer toy_section_validate(pool_check *c, pool_spec *p) {
  int64_t v = 1;
  if (pool_check_key(c, toy_level.name) && !pool_check_int(c, toy_level.name, 0, 9, &v))
    return NULL;
  int *conf = g_new(int, 1);
  *conf = (int)v + (int)p->nodes * 10;
  return conf;
}
static void toy_section_describe(GString *s, const pool_spec *p, gconstpointer conf) {
  (void)p;
  g_string_append_printf(s, ", toy %d", *(const int *)conf);
}
static const scenario_pool_section toy_pool_section = {"toy", toy_section_keys, "{level: 2}",
                                                  toy_section_validate, toy_section_describe};
static const scenario_pool_section *const toy_sections[] = {&toy_pool_section, NULL};

Test(scenario, pool_sections_are_given_by_the_program) {
  scenario_use_pool_sections(toy_sections);
  g_autoptr(scenario) s = load_ok("pools:\n  - name: p\n" POOL_MIN "    toy: {level: 3}\n");
  const int *conf = pool_section_conf(scenario_pool(s, 0), &toy_pool_section);
  cr_assert(conf);
  cr_expect_eq(*conf, 13, "level 3 and the pool's one node, as validate read them");
  g_autofree char *line = scenario_pool_describe(scenario_pool(s, 0));
  cr_expect(g_str_has_suffix(line, ", toy 13"), "%s", line);
  g_autoptr(scenario) n = load_ok("pools:\n  - name: p\n" POOL_MIN);
  cr_expect_null(pool_section_conf(scenario_pool(n, 0), &toy_pool_section), "no section, no block");
  expect_msg_contains_load("pools:\n  - name: p\n" POOL_MIN "    toy: {level: 12}\n",
                           ":5:18: pools[1].toy.level: expected an integer from 0 to 9, found '12'");
  expect_msg_contains_load("pools:\n  - name: p\n" POOL_MIN "    toy: {lvl: 2}\n",
                           ":5:11: pools[1].toy: unknown key 'lvl'");
  expect_msg_contains_load("pools:\n  - name: p\n" POOL_MIN "    toy: 2\n",
                           ":5:10: pools[1].toy: expected a mapping, e.g. {level: 2}, found '2'");
  /* the simulator's sections again (the pool keys' names stay those first read) */
  scenario_use_pool_sections(sim_pool_sections);
  cr_expect_eq(scenario_pool_sections()[0], &autoscale_section);
}
