/* test-metrics.c: the metrics layer's one definition of the gauges per level. Tenants
 * partition the pools' allocated, busy and SM-active time (totals and every interval of
 * tenant_timeseries), no tenant is busier than it is allocated, and showback adds up to the
 * pools' allocated cost plus licences; on hand-computable runs and on every bundled
 * scenario with the bundled trace; and a burst walked ahead (metrics_burst) books exactly
 * what the same burst booked through its gauges does. */
#include "testutil.h"
#include "metrics.h"

/* Runs a bundled scenario on a bundled trace (paths from the top of the tree). */
static results *metrics_run_files(const char *scenario_rel, const char *trace_rel) {
  g_autofree char *sp = g_build_filename(TEST_DATA_DIR, "..", "..", scenario_rel, NULL);
  g_autofree char *tp = g_build_filename(TEST_DATA_DIR, "..", "..", trace_rel, NULL);
  g_autofree char *yaml = NULL, *csv = NULL;
  cr_assert(g_file_get_contents(sp, &yaml, NULL, NULL), "%s", sp);
  cr_assert(g_file_get_contents(tp, &csv, NULL, NULL), "%s", tp);
  return tu_run(yaml, csv, NULL);
}

static void metrics_near(double a, double b, const char *what) {
  double tol = 1e-9 * MAX(1.0, MAX(fabs(a), fabs(b)));
  cr_assert(fabs(a - b) <= tol, "%s: %.17g against %.17g", what, a, b);
}

/* Totals, per-tenant bounds, every interval, and showback. */
static void metrics_assert_partition(const results *r) {
  double p_alloc = 0, p_busy = 0, p_sm = 0, alloc_cost = 0, licences = 0;
  for (guint i = 0; i < r->pools->len; i++) {
    const pool_result *p = &g_array_index(r->pools, pool_result, i);
    p_alloc += p->allocated_gpu_s;
    p_busy += p->busy_gpu_s;
    p_sm += p->sm_active_gpu_s;
    alloc_cost += p->allocated_gpu_s / 3600 * p->price_per_gpu_hour;
    licences += p->licence_cost;
  }
  double t_alloc = 0, t_busy = 0, t_sm = 0;
  for (guint i = 0; i < r->tenants->len; i++) {
    const tenant_result *t = &g_array_index(r->tenants, tenant_result, i);
    t_alloc += t->allocated_gpu_s;
    t_busy += t->busy_gpu_s;
    t_sm += t->sm_active_gpu_s;
    cr_assert(t->busy_gpu_s <= t->allocated_gpu_s * (1 + 1e-9) + 1e-6,
              "tenant %s busy %.6f GPU-s above its allocation %.6f", t->name, t->busy_gpu_s,
              t->allocated_gpu_s);
    cr_assert(t->sm_active_gpu_s <= t->busy_gpu_s * (1 + 1e-9) + 1e-6, "tenant %s SM-active",
              t->name);
  }
  metrics_near(t_alloc, p_alloc, "allocated: tenants vs pools");
  metrics_near(t_busy, p_busy, "busy: tenants vs pools");
  metrics_near(t_sm, p_sm, "SM-active: tenants vs pools");
  metrics_near(results_showback_total(r), alloc_cost + licences, "showback vs allocated cost");
  /* every interval: the tenants' mean GPUs equal the pools' */
  GHashTable *by_start = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free);
  for (guint i = 0; i < r->timeseries->len; i++) {
    const ts_row *row = &g_array_index(r->timeseries, ts_row, i);
    const pool_result *p = &g_array_index(r->pools, pool_result, row->pool);
    gint64 key = (gint64)llround(row->t_start_s * 1000);
    double *v = g_hash_table_lookup(by_start, &key);
    if (!v) {
      v = g_new0(double, 2);
      g_hash_table_insert(by_start, g_memdup2(&key, sizeof key), v);
    }
    v[0] += row->allocated * p->gpus;
    v[1] += row->busy * p->gpus;
  }
  GHashTable *tenant_sum = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free);
  for (guint i = 0; i < r->tenant_timeseries->len; i++) {
    const tenant_ts_row *row = &g_array_index(r->tenant_timeseries, tenant_ts_row, i);
    gint64 key = (gint64)llround(row->t_start_s * 1000);
    double *v = g_hash_table_lookup(tenant_sum, &key);
    if (!v) {
      v = g_new0(double, 2);
      g_hash_table_insert(tenant_sum, g_memdup2(&key, sizeof key), v);
    }
    v[0] += row->allocated_gpus;
    v[1] += row->busy_gpus;
  }
  cr_assert_eq(g_hash_table_size(tenant_sum), g_hash_table_size(by_start));
  GHashTableIter it;
  gpointer k, val;
  g_hash_table_iter_init(&it, by_start);
  while (g_hash_table_iter_next(&it, &k, &val)) {
    const double *pv = val, *tv = g_hash_table_lookup(tenant_sum, k);
    cr_assert_not_null(tv);
    cr_assert(fabs(pv[0] - tv[0]) <= 1e-6 && fabs(pv[1] - tv[1]) <= 1e-6,
              "interval at %.3f s: pools %.9f/%.9f GPUs, tenants %.9f/%.9f",
              *(const gint64 *)k / 1000.0, pv[0], pv[1], tv[0], tv[1]);
  }
  g_hash_table_destroy(by_start);
  g_hash_table_destroy(tenant_sum);
}

/* The reproducer of the tenant-busy defect: four batch jobs of one tenant time-sliced on one
 * GPU for 1.355 h. The tenant was shown 5.42 busy GPU-h, four times the only GPU it used. */
Test(metrics, tenant_on_one_time_sliced_gpu_is_not_busier_than_the_gpu) {
  results *r = tu_run("name: emb-ts\npools:\n  - {name: p, gpu: A100-80GB, nodes: 1, "
                      "gpus_per_node: 1, strategy: time-slicing, replicas: 4}\n",
                      "id,submit_s,kind,gpus,mem_gb,duration_s,sm,restart,label\n"
                      "emb1,0,batch,1,4,1000,0.4,never,embeddings\n"
                      "emb2,0,batch,1,4,1000,0.4,never,embeddings\n"
                      "emb3,0,batch,1,4,1000,0.4,never,embeddings\n"
                      "emb4,0,batch,1,4,1000,0.4,never,embeddings\n",
                      NULL);
  const pool_result *p = &g_array_index(r->pools, pool_result, 0);
  cr_assert_eq(r->tenants->len, 1);
  const tenant_result *t = &g_array_index(r->tenants, tenant_result, 0);
  cr_assert_gt(p->busy_gpu_s, 4800); /* 1.355 h: the four share the card, each slowed */
  metrics_near(t->busy_gpu_s, p->busy_gpu_s, "tenant busy vs the GPU's");
  metrics_near(t->allocated_gpu_s, p->allocated_gpu_s, "tenant allocated vs the GPU's");
  metrics_near(t->cost, p->allocated_gpu_s / 3600 * p->price_per_gpu_hour, "showback");
  metrics_assert_partition(r);
  results_free(r);
}

/* Two tenants on one fractional GPU, 0.6 and 0.2 of it: while both run, each allocated
 * second of the GPU goes 3/4 to alice and 1/4 to bob; then the one left has all of it. */
Test(metrics, tenants_split_a_shared_gpu_by_their_share) {
  results *r = tu_run("name: frac\npools:\n  - {name: p, gpu: A100-80GB, nodes: 1, "
                      "gpus_per_node: 1, strategy: fractional}\n",
                      "id,submit_s,kind,gpus,mem_gb,duration_s,gpu_frac,tenant\n"
                      "a,0,batch,1,10,200,0.6,alice\n"
                      "b,0,batch,1,10,100,0.2,bob\n",
                      NULL);
  const tenant_result *alice = &g_array_index(r->tenants, tenant_result, 0);
  const tenant_result *bob = &g_array_index(r->tenants, tenant_result, 1);
  cr_assert_str_eq(alice->name, "alice");
  cr_assert_str_eq(bob->name, "bob");
  const job_result *b = tu_job(r, "b");
  const job_result *a = tu_job(r, "a");
  double both = MIN(a->end_s, b->end_s);
  cr_assert_gt(both, 100); /* the fractions slow both */
  metrics_near(bob->allocated_gpu_s, both / 4 + (b->end_s - both), "bob allocated");
  metrics_near(alice->allocated_gpu_s, both * 3 / 4 + (a->end_s - both), "alice allocated");
  metrics_near(alice->allocated_gpu_s + bob->allocated_gpu_s, MAX(a->end_s, b->end_s), "both");
  metrics_assert_partition(r);
  results_free(r);
}

Test(metrics, tenants_partition_the_pools_in_every_bundled_scenario) {
  static const char *const names[] = {
      "baseline-exclusive", "dev-timeslice", "embeddings-mps", "exclusive-lean",
      "mig-inference", "shared-pools", "three-pools", "vgpu",
  };
  for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
    g_autofree char *rel = g_strdup_printf("scenarios/%s.yaml", names[i]);
    results *r = metrics_run_files(rel, "traces/mixed-small.csv");
    cr_assert_gt(r->tenants->len, 1, "%s", names[i]);
    metrics_assert_partition(r);
    results_free(r);
  }
}

/* The interval grid: intervals from time 0, the last one cut at the end of the run. */
/* A scenario of one pool of one A100 on a 10 s grid. */
static scenario *metrics_one_gpu_scenario(void) {
  g_autofree char *sp = tu_write_temp("grid.yaml", "name: g\ninterval: 10s\npools:\n"
                                                   "  - {name: p, gpu: A100-80GB, nodes: 1, "
                                                   "gpus_per_node: 1}\n");
  g_autoptr(diag_list) d = diag_list_new(0);
  scenario *sc = scenario_load(sp, d);
  cr_assert_not_null(sc);
  return sc;
}

Test(metrics, buckets_follow_the_interval) {
  scenario *sc = metrics_one_gpu_scenario();
  results *r = results_new();
  metrics *m = metrics_new(sc, r, FALSE);
  cr_assert_eq(metrics_interval_ns(m), 10 * SIM_NS_PER_S);
  cr_assert_eq(metrics_bucket(m, 0), 0);
  cr_assert_eq(metrics_bucket(m, 10 * SIM_NS_PER_S - 1), 0);
  cr_assert_eq(metrics_bucket(m, 10 * SIM_NS_PER_S), 1);
  metrics_pool *mp = metrics_pool_get(m, 0);
  metrics_pool_set_gpus(mp, 1);
  metrics_pool_integrate(mp, 5 * SIM_NS_PER_S);
  metrics_gpu_integrate(&mp->gpus[0], 5 * SIM_NS_PER_S);
  const int64_t fx[3] = {metrics_fixed(1.0), metrics_fixed(0.5), metrics_fixed(0.25)};
  metrics_gpu_set_gauges(mp, 0, fx);
  metrics_pool_close(mp, 25 * SIM_NS_PER_S);
  cr_assert_eq(mp->ts->len, 3);
  TU_NEAR(g_array_index(mp->ts, ts_row, 0).allocated, 0.5, 1e-12);
  TU_NEAR(g_array_index(mp->ts, ts_row, 1).busy, 0.5, 1e-12);
  TU_NEAR(g_array_index(mp->ts, ts_row, 2).sm_active, 0.25, 1e-12);
  TU_NEAR(g_array_index(mp->ts, ts_row, 2).t_end_s, 25, 0);
  TU_NEAR(metrics_i128_value(mp->gpus[0].int_alloc) / 1e9, 20, 1e-9);
  metrics_free(m);
  results_free(r);
  scenario_free(sc);
}

/* One GPU of one tenant, busy 0.5 / SM 0.25 from 3 s to 27 s on a 10 s grid, booked either
 * through its gauges (as events do) or as a burst walked ahead (metrics_burst, bursts.c),
 * with a burst taken back over [20, 40) s: the same integrals, bit for bit. */
static metrics *metrics_burst_case(const scenario *sc, results *r, gboolean walked) {
  metrics *m = metrics_new(sc, r, FALSE);
  metrics_pool *mp = metrics_pool_get(m, 0);
  metrics_pool_set_gpus(mp, 1);
  guint32 t = metrics_tenant(m, "team");
  metrics_rowsums *sums = metrics_rowsums_new(m);
  const job_result jr = {.outcome = OUTCOME_COMPLETED, .pool_index = -1, .gpus = 1};
  metrics_rowsums_add(sums, &jr, t, 0, 0);
  metrics_rowsums_hand_over(m, sums); /* the tenant has a job: it has a row */
  const int64_t idle[3] = {METRICS_FIXED_ONE_I, 0, 0};
  const int64_t on[3] = {METRICS_FIXED_ONE_I, metrics_fixed(0.5), metrics_fixed(0.25)};
  const int64_t up[3] = {idle[0], 0, 0}, burst[3] = {0, on[1], on[2]};
  const int64_t down[3] = {0, -on[1], -on[2]};
  metrics_gpu_set_gauges(mp, 0, idle);
  metrics_tenant_change(m, t, 0, 0, up, +1);
  if (walked) {
    metrics_burst(m, 0, 0, t, 3 * SIM_NS_PER_S, 27 * SIM_NS_PER_S, on[1], on[2]);
    metrics_burst(m, 0, 0, t, 20 * SIM_NS_PER_S, 40 * SIM_NS_PER_S, on[1], on[2]);
    metrics_pool_integrate(mp, 15 * SIM_NS_PER_S); /* an interval closes between */
    metrics_burst(m, 0, 0, t, 20 * SIM_NS_PER_S, 40 * SIM_NS_PER_S, -on[1], -on[2]);
  } else {
    const sim_time at[2] = {3 * SIM_NS_PER_S, 27 * SIM_NS_PER_S};
    for (int k = 0; k < 2; k++) {
      metrics_pool_integrate(mp, at[k]);
      metrics_gpu_integrate(metrics_pool_gpu(mp, 0), at[k]);
      metrics_gpu_set_gauges(mp, 0, k == 0 ? on : idle);
      metrics_tenant_change(m, t, 0, at[k], k == 0 ? burst : down, 0);
    }
  }
  metrics_pool_close(mp, 45 * SIM_NS_PER_S);
  const pool_result pr = {.name = "p"};
  r->end_s = 45;
  metrics_freeze(m, 45 * SIM_NS_PER_S, &pr);
  return m;
}

Test(metrics, a_burst_walked_ahead_books_what_its_gauges_book) {
  scenario *sc = metrics_one_gpu_scenario();
  results *r[2] = {results_new(), results_new()};
  metrics *m[2];
  for (int k = 0; k < 2; k++) m[k] = metrics_burst_case(sc, r[k], k == 1);
  cr_assert_eq(r[0]->timeseries->len, 5);
  cr_assert_eq(r[1]->timeseries->len, 5);
  for (guint i = 0; i < 5; i++) {
    const ts_row *a = &g_array_index(r[0]->timeseries, ts_row, i);
    const ts_row *b = &g_array_index(r[1]->timeseries, ts_row, i);
    cr_assert(a->busy == b->busy && a->sm_active == b->sm_active, "interval %u: %.17g %.17g", i,
              a->busy, b->busy);
  }
  /* 7 s of the 10 s interval 0 at 0.5, then 10, 7 s, none */
  TU_NEAR(g_array_index(r[0]->timeseries, ts_row, 0).busy, 0.35, 1e-12);
  TU_NEAR(g_array_index(r[0]->timeseries, ts_row, 2).busy, 0.35, 1e-12);
  cr_assert_eq(g_array_index(r[1]->timeseries, ts_row, 3).busy, 0.0);
  const gpu_result *ga = &g_array_index(r[0]->gpus, gpu_result, 0);
  const gpu_result *gb = &g_array_index(r[1]->gpus, gpu_result, 0);
  cr_assert(ga->busy_s == gb->busy_s && ga->sm_active_s == gb->sm_active_s);
  TU_NEAR(gb->busy_s, 12, 1e-9);
  const tenant_result *ta = &g_array_index(r[0]->tenants, tenant_result, 0);
  const tenant_result *tb = &g_array_index(r[1]->tenants, tenant_result, 0);
  cr_assert(ta->busy_gpu_s == tb->busy_gpu_s && ta->sm_active_gpu_s == tb->sm_active_gpu_s);
  cr_assert_eq(r[0]->tenant_timeseries->len, r[1]->tenant_timeseries->len);
  for (guint i = 0; i < r[0]->tenant_timeseries->len; i++)
    cr_assert(g_array_index(r[0]->tenant_timeseries, tenant_ts_row, i).busy_gpus ==
                  g_array_index(r[1]->tenant_timeseries, tenant_ts_row, i).busy_gpus,
              "tenant interval %u", i);
  for (int k = 0; k < 2; k++) {
    metrics_free(m[k]);
    results_free(r[k]);
  }
  scenario_free(sc);
}

/* The sums over the jobs' rows (metrics_rowsums, what the row writer feeds in trace order):
 * each pool's jobs by outcome and straggler time, each tenant's submitted jobs, the
 * licensed worker-seconds and their licence cost, written into the pools' and tenants' rows
 * by the freeze. A job never submitted counts for its pool only; an unrouted one (no pool)
 * for its tenant only, without a licence. */
Test(metrics, the_rows_sums_reach_the_pools_and_tenants) {
  scenario *sc = metrics_one_gpu_scenario();
  results *r = results_new();
  metrics *m = metrics_new(sc, r, FALSE);
  metrics_pool *mp = metrics_pool_get(m, 0);
  metrics_pool_set_gpus(mp, 1);
  metrics_pool_set_licence(m, 0, 2.0); /* per worker-hour */
  guint32 a = metrics_tenant(m, "a"), b = metrics_tenant(m, "b");
  metrics_rowsums *sums = metrics_rowsums_new(m);
  const struct { job_outcome o; guint32 tenant; int pool; guint32 gpus; double run_s, strag_s; } rows[] = {
      {OUTCOME_COMPLETED, a, 0, 2, 3600, 5},  {OUTCOME_FAILED, b, 0, 1, 1800, 0},
      {OUTCOME_UNPLACEABLE, b, 0, 1, 0, 0},  {OUTCOME_RUNNING, a, 0, 1, 900, 1},
      {OUTCOME_QUEUED, a, 0, 1, 0, 0},       {OUTCOME_NOT_SUBMITTED, b, 0, 1, 0, 0},
      {OUTCOME_UNPLACEABLE, b, -1, 1, 0, 0},
  };
  for (gsize i = 0; i < G_N_ELEMENTS(rows); i++) {
    job_result jr = {.outcome = rows[i].o, .pool_index = rows[i].pool, .gpus = rows[i].gpus};
    metrics_rowsums_add(sums, &jr, rows[i].tenant, rows[i].run_s * 1e9, rows[i].strag_s * 1e9);
  }
  metrics_rowsums_hand_over(m, sums);
  metrics_pool_close(mp, 100 * SIM_NS_PER_S);
  r->end_s = 100;
  const pool_result pr = {.name = "p"};
  metrics_freeze(m, 100 * SIM_NS_PER_S, &pr);
  const pool_result *p = &g_array_index(r->pools, pool_result, 0);
  cr_expect_eq(p->jobs_routed, 6);
  cr_expect(p->jobs_completed == 1 && p->jobs_failed == 1 && p->jobs_unplaceable == 1 &&
            p->jobs_running == 1 && p->jobs_queued == 1);
  cr_expect_float_eq(p->straggler_wait_gpu_s, 6, 1e-12);
  cr_expect_float_eq(p->vgpu_s, 3600 * 2 + 1800 + 900, 1e-9);
  cr_expect_float_eq(p->licence_cost, (3600 * 2 + 1800 + 900) / 3600.0 * 2, 1e-12);
  cr_assert_eq(r->tenants->len, 2);
  for (guint i = 0; i < 2; i++) {
    const tenant_result *t = &g_array_index(r->tenants, tenant_result, i);
    gboolean is_a = !strcmp(t->name, "a");
    cr_expect_eq(t->jobs, 3u, "%s", t->name);
    cr_expect_float_eq(t->cost, is_a ? (7200 + 900) / 3600.0 * 2 : 1800 / 3600.0 * 2, 1e-12,
                       "%s", t->name);
  }
  metrics_free(m);
  results_free(r);
  scenario_free(sc);
}
