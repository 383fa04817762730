/* test-reports.c: the output layer. A small results built by hand (2 pools, 3 jobs with
 * NaN fields, 2 tenants, 2 time-series rows, 2 events) checked against golden files in
 * tests/data/reports/, summary.json parsed back, the totals arithmetic against
 * hand-computed values, and the all-or-nothing result folder (outdir.c). */
#include <criterion/criterion.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>
#include "histogram.h"
#include "outdir.h"
#include "report.h"
#include "results.h"
#include "util.h"

#define GOLDEN_DIR TEST_DATA_DIR "/reports"

static job_result reports_job(const char *id, const char *kind, const char *tenant,
                              const char *pool, int pool_index, guint32 gpus) {
  job_result j = {0};
  j.id = id;
  j.kind = kind;
  j.tenant = tenant;
  j.pool = pool;
  j.pool_index = pool_index;
  j.gpus = gpus;
  j.reason = "";
  j.start_s = j.end_s = j.slowdown = j.burst_stretch = NAN;
  return j;
}

/* The fixture every golden file was written from by hand (see the numbers in the
 * comments: GPU-hours, fractions and costs are chosen to be exact). */
static results *reports_fixture(void) {
  results *r = results_new();
  r->scenario_name = g_strdup("two-pools");
  r->scenario_path = g_strdup("scenarios/two-pools.yaml");
  r->trace_path = g_strdup("traces/mixed.csv");
  r->seed = 7;
  r->end_s = 86400;
  r->interval_s = 3600;
  r->events = 12345;
  r->wall_s = 0.25;

  pool_result train = {
    .name = "train", .gpu_model = "A100-80GB", .strategy = "exclusive", .gpus = 2,
    .price_per_gpu_hour = 3.43, .provisioned_gpu_s = 172800, /* 48 GPU-h */
    .allocated_gpu_s = 86400, .busy_gpu_s = 43200, .sm_active_gpu_s = 21600,
    .mem_gb_s = 3456000, .cost = 164.64, .licence_cost = 0, .jobs_routed = 2,
    .jobs_completed = 1, .jobs_unplaceable = 1, .oom_kills = 1, .innocent_victims = 1,
    .restarts = 1, .work_lost_gpu_s = 600,
  };
  pool_result dev = {
    .name = "dev", .gpu_model = "L4", .strategy = "time-slicing", .gpus = 1,
    .price_per_gpu_hour = 0.8, .provisioned_gpu_s = 86400, /* 24 GPU-h */
    .allocated_gpu_s = 43200, .busy_gpu_s = 8640, .sm_active_gpu_s = 4320,
    .mem_gb_s = 864000, .cost = 19.2, .jobs_routed = 1, .jobs_running = 1,
  };
  g_array_append_val(r->pools, train);
  g_array_append_val(r->pools, dev);

  job_result j1 = reports_job("j1", "training", "ml", "train", 0, 2);
  j1.outcome = OUTCOME_COMPLETED;
  j1.submit_s = 0;
  j1.start_s = 10;
  j1.end_s = 3610;
  j1.wait_s = 10;
  j1.run_s = 3600;
  j1.slowdown = 1.2;
  j1.restarts = j1.kills = j1.oom_kills = 1;
  j1.work_s = j1.work_done_s = 3000;
  j1.work_lost_s = 600;
  j1.busy_s = 3000;
  j1.gpu_s_allocated = j1.gpu_s_share = 7200;
  j1.gpu_ids = "train/n0/g0;train/n0/g1";
  job_result j2 = reports_job("j2", "notebook", "web", "dev", 1, 1);
  j2.outcome = OUTCOME_RUNNING;
  j2.submit_s = 5;
  j2.start_s = 5;
  j2.wait_s = 0;
  j2.run_s = 86395;
  j2.burst_stretch = 1.5;
  j2.busy_s = 12960.5;
  j2.gpu_s_allocated = 86395;
  j2.gpu_s_share = 86395 / 4.0; /* one of four replicas, alone on its card */
  j2.gpu_ids = "dev/n0/g0";
  job_result j3 = reports_job("j3", "batch", "ml", "train", 0, 4);
  j3.outcome = OUTCOME_UNPLACEABLE;
  j3.submit_s = 100;
  j3.work_s = 600;
  j3.reason = results_intern(r, "needs 4 GPUs, the pool has 2");
  results_add_job(r, &j1, TRUE);
  results_add_job(r, &j2, TRUE);
  results_add_job(r, &j3, TRUE);
  results_fill_pool_waits(r);

  gpu_result g[] = {
    {.pool = "train", .node = 0, .index = 0, .allocated_s = 43200, .busy_s = 21600,
     .sm_active_s = 10800, .mem_gb_s = 3456000, .peak_mem_gb = 81.5, .jobs_hosted = 2,
     .oom_events = 1},
    {.pool = "train", .node = 0, .index = 1, .allocated_s = 43200, .busy_s = 21600,
     .sm_active_s = 10800, .jobs_hosted = 1},
    {.pool = "dev", .node = 0, .index = 0, .allocated_s = 43200, .busy_s = 8640,
     .sm_active_s = 4320, .mem_gb_s = 864000, .peak_mem_gb = 12.5, .jobs_hosted = 1},
  };
  g_array_append_vals(r->gpus, g, G_N_ELEMENTS(g));

  tenant_result t[] = {
    {.name = "ml", .jobs = 2, .allocated_gpu_s = 86400, .busy_gpu_s = 43200, .sm_active_gpu_s = 21600, .cost = 75,
     .blast_suffered = 1},
    {.name = "web", .jobs = 1, .allocated_gpu_s = 43200, .busy_gpu_s = 8640, .sm_active_gpu_s = 4320, .cost = 25,
     .blast_caused = 1},
  };
  g_array_append_vals(r->tenants, t, G_N_ELEMENTS(t));
  /* j1 (ml), the innocent victim of j9's out-of-memory (web's) */
  blast_row b = {.kind = BLAST_OOM_KILL, .from = "web", .to = "ml", .n = {[BLAST_DIED] = 1}};
  g_array_append_val(r->blast, b);

  ts_row ts[] = {
    {.pool = 0, .t_start_s = 0, .t_end_s = 3600, .allocated = 0.5, .busy = 0.25,
     .sm_active = 0.125, .mem_used_gb = 40.5, .queued = 0, .running = 1},
    {.pool = 1, .t_start_s = 0, .t_end_s = 3600, .allocated = 1, .busy = 0.1,
     .sm_active = 0.05, .mem_used_gb = 10, .queued = 0.5, .running = 1},
  };
  g_array_append_vals(r->timeseries, ts, G_N_ELEMENTS(ts));

  event_row ev[] = {
    {.t_s = 100, .kind = EVENT_UNPLACEABLE, .job = "j3", .pool = "train", .node = -1,
     .gpu = -1, .detail = results_intern(r, "needs 4 GPUs")},
    {.t_s = 1800, .kind = EVENT_OOM_KILL, .job = "j1", .cause_job = "j9", .pool = "train",
     .node = 0, .gpu = 1, .innocent = TRUE, .work_lost_s = 600,
     .detail = results_intern(r, "mem 81.5 GB > 80 GB, \"oom: all\"")},
  };
  g_array_append_vals(r->events_log, ev, G_N_ELEMENTS(ev));
  return r;
}

static char *reports_golden(const char *name) {
  char *path = g_build_filename(GOLDEN_DIR, name, NULL);
  char *text = NULL;
  GError *error = NULL;
  cr_assert(g_file_get_contents(path, &text, NULL, &error), "%s: %s", path,
            error ? error->message : "");
  g_free(path);
  return text;
}

/* The file name the table's writer makes of the fixture is its golden copy. */
static void reports_assert_golden(const char *name) {
  g_autoptr(results) r = reports_fixture();
  g_autoptr(GString) out = g_string_new(NULL);
  cr_assert(report_file_string(name, r, out), "%s: not written", name);
  g_autofree char *want = reports_golden(name);
  cr_assert_str_eq(out->str, want, "%s differs:\n--- got\n%s--- want\n%s", name, out->str, want);
}

static char *reports_num(double v) {
  GString *s = g_string_new(NULL);
  report_num(s, v);
  return g_string_free(s, FALSE);
}

/* ---- names and numbers ----------------------------------------------------------- */

Test(reports, outcome_and_event_names) {
  cr_assert_str_eq(job_outcome_name(OUTCOME_COMPLETED), "completed");
  cr_assert_str_eq(job_outcome_name(OUTCOME_FAILED), "failed");
  cr_assert_str_eq(job_outcome_name(OUTCOME_UNPLACEABLE), "unplaceable");
  cr_assert_str_eq(job_outcome_name(OUTCOME_RUNNING), "running");
  cr_assert_str_eq(job_outcome_name(OUTCOME_QUEUED), "queued");
  cr_assert_str_eq(job_outcome_name(OUTCOME_NOT_SUBMITTED), "not_submitted");
  cr_assert_str_eq(event_kind_name(EVENT_OOM_KILL), "oom_kill");
  cr_assert_str_eq(event_kind_name(EVENT_CRASH), "crash");
  cr_assert_str_eq(event_kind_name(EVENT_RESTART), "restart");
  cr_assert_str_eq(event_kind_name(EVENT_EVICTION), "eviction");
  cr_assert_str_eq(event_kind_name(EVENT_RECONFIGURE), "reconfigure");
  cr_assert_str_eq(event_kind_name(EVENT_UNPLACEABLE), "unplaceable");
}

Test(reports, intern_shares_equal_strings) {
  g_autoptr(results) r = results_new();
  char buf[8] = "pool-a";
  const char *a = results_intern(r, buf);
  buf[5] = 'b';
  const char *b = results_intern(r, buf);
  cr_assert_str_eq(a, "pool-a");
  cr_assert_str_eq(b, "pool-b");
  cr_assert_eq(results_intern(r, "pool-a"), a);
  cr_assert_null(results_intern(r, NULL));
}

Test(reports, number_format) {
  const struct { double v; const char *want; } cases[] = {
    {0, "0"},          {-0.0, "0"},        {NAN, ""},          {INFINITY, ""},
    {86400, "86400"},  {123456789, "123456789"},               {-42, "-42"},
    {0.1, "0.1"},      {1.0 / 3, "0.333333"},                  {1234567.5, "1.23457e+06"},
    {2.5e-7, "2.5e-07"}, {1e20, "1e+20"},  {-12.345678, "-12.3457"},
  };
  for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autofree char *got = reports_num(cases[i].v);
    cr_assert_str_eq(got, cases[i].want, "case %zu", i);
  }
}

/* report_num's own formatter against printf's "%.6g" (what report_num wrote before it):
 * every magnitude, the ties and near-ties of the sixth digit, the decade boundaries and
 * their neighbours, and random bit patterns. */
static void reports_num_vs_printf(double v, guint *checked) {
  if (!isfinite(v) || v == 0 || (v == trunc(v) && fabs(v) < 9007199254740992.0)) return;
  char want[G_ASCII_DTOSTR_BUF_SIZE];
  g_ascii_formatd(want, sizeof want, "%.6g", v);
  g_autofree char *got = reports_num(v);
  cr_assert_str_eq(got, want, "%.17g: got %s, printf %s", v, got, want);
  (*checked)++;
}

/* Random doubles compared; under AddressSanitizer (the sanitizer stage) a quarter of them,
 * which still takes every branch of the formatter thousands of times. */
#if defined(__SANITIZE_ADDRESS__)
#define NUMBER_FORMAT_DRAWS 30000
#else
#define NUMBER_FORMAT_DRAWS 120000
#endif

Test(reports, number_format_matches_printf) {
  guint checked = 0;
  guint64 x = 0x9e3779b97f4a7c15ULL;
  for (int i = 0; i < NUMBER_FORMAT_DRAWS; i++) {
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    double bits;
    memcpy(&bits, &x, sizeof bits);
    reports_num_vs_printf(bits, &checked);                    /* any double */
    double mant = 1.0 + (double)(x >> 11) / 9007199254740992.0;
    int e10 = (int)(x % 60) - 30;
    double v = mant * pow(10, e10);
    reports_num_vs_printf(v, &checked);                       /* every magnitude */
    reports_num_vs_printf(-v, &checked);
    guint32 d = 100000 + (guint32)(x % 900000);               /* six digits and a half */
    double tie = ((double)d + 0.5) * pow(10, e10 - 5);
    reports_num_vs_printf(tie, &checked);
    reports_num_vs_printf(nextafter(tie, 0), &checked);
    reports_num_vs_printf(nextafter(tie, INFINITY), &checked);
  }
  for (int e = -30; e <= 30; e++) {                           /* decade boundaries */
    double p = pow(10, e);
    double near[] = {p, nextafter(p, 0), nextafter(p, INFINITY), p * 0.9999995,
                     p * 0.99999949999, p * 0.99999950001, 9.999995 * p, 1.000005 * p};
    for (gsize k = 0; k < G_N_ELEMENTS(near); k++) reports_num_vs_printf(near[k], &checked);
  }
  double fixed[] = {0.5, 1.5, 100000.5, 999999.5, 1e-5, 0.0001, 0.00099999951, 123456.5,
                    2.5e-7, 1e21 + 0.0, 1e300, 1e-300, 5e-324, 1.7976931348623157e308};
  for (gsize k = 0; k < G_N_ELEMENTS(fixed); k++) reports_num_vs_printf(fixed[k], &checked);
  cr_assert_gt(checked, NUMBER_FORMAT_DRAWS / 6 * 25); /* 500000 of the 720000 values */
}

/* ---- totals ---------------------------------------------------------------------- */

Test(reports, wait_stats_use_interpolated_quantiles) {
  double w[] = {30, 0, 10, 20, 100};
  double mean, p50, p95, max;
  results_wait_stats(w, G_N_ELEMENTS(w), &mean, &p50, &p95, &max);
  cr_assert_float_eq(mean, 32.0, 1e-12);
  cr_assert_float_eq(p50, 20.0, 1e-12);
  /* sorted 0 10 20 30 100: position 0.95 x 4 = 3.8 -> 30 + 0.8 x (100 - 30) = 86 */
  cr_assert_float_eq(p95, 86.0, 1e-12);
  cr_assert_float_eq(max, 100.0, 1e-12);
  cr_assert_float_eq(w[0], 0.0, 0); /* sorted in place */
  results_wait_stats(w, 0, &mean, &p50, &p95, &max);
  cr_assert(isnan(mean) && isnan(p50) && isnan(p95) && isnan(max));
}

Test(reports, totals_arithmetic) {
  g_autoptr(results) r = reports_fixture();
  results_totals t;
  results_compute_totals(r, &t);
  cr_assert_eq(t.gpus, 3);
  cr_assert_float_eq(t.provisioned_gpu_h, 72.0, 1e-9);
  cr_assert_float_eq(t.allocated_gpu_h, 36.0, 1e-9);
  cr_assert_float_eq(t.busy_gpu_h, 14.4, 1e-9);
  cr_assert_float_eq(t.sm_active_gpu_h, 7.2, 1e-9);
  cr_assert_float_eq(t.allocated_frac, 0.5, 1e-12);
  cr_assert_float_eq(t.busy_frac, 0.2, 1e-12);
  cr_assert_float_eq(t.sm_active_frac, 0.1, 1e-12);
  cr_assert_float_eq(t.cost, 183.84, 1e-9);
  cr_assert_float_eq(t.idle_cost, 91.92, 1e-9);
  cr_assert_float_eq(t.cost_per_busy_gpu_h, 183.84 / 14.4, 1e-9);
  cr_assert_eq(t.jobs, 3);
  cr_assert_eq(t.completed, 1);
  cr_assert_eq(t.running, 1);
  cr_assert_eq(t.unplaceable, 1);
  cr_assert_eq(t.failed + t.queued + t.not_submitted, 0);
  /* j1 waited 10 s, j2 0 s, j3 never started: [0, 10] */
  cr_assert_float_eq(t.wait_mean_s, 5.0, 1e-12);
  cr_assert_float_eq(t.wait_p50_s, 5.0, 1e-12);
  cr_assert_float_eq(t.wait_p95_s, 9.5, 1e-12);
  cr_assert_float_eq(t.wait_max_s, 10.0, 1e-12);
  cr_assert_eq(t.oom_kills, 1);
  cr_assert_eq(t.innocent_victims, 1);
  cr_assert_eq(t.restarts, 1);
  cr_assert_float_eq(t.work_lost_gpu_h, 600.0 / 3600, 1e-12);
  cr_assert_float_eq(t.slowdown_mean, 1.2, 1e-12); /* j1 only: j3 never ran */
  /* per pool, filled from the jobs: train saw j1 (10 s), dev saw j2 (0 s) */
  const pool_result *train = &g_array_index(r->pools, pool_result, 0);
  const pool_result *dev = &g_array_index(r->pools, pool_result, 1);
  cr_assert_float_eq(train->wait_p95_s, 10.0, 1e-12);
  cr_assert_float_eq(dev->wait_max_s, 0.0, 1e-12);
  cr_assert_float_eq(results_showback_total(r), 100.0, 1e-12);
}

Test(reports, totals_of_an_empty_run_are_undefined_not_zero) {
  g_autoptr(results) r = results_new();
  results_totals t;
  results_compute_totals(r, &t);
  cr_assert_eq(t.gpus, 0);
  cr_assert_eq(t.jobs, 0);
  cr_assert(isnan(t.allocated_frac));
  cr_assert(isnan(t.cost_per_busy_gpu_h));
  cr_assert(isnan(t.wait_p95_s));
  cr_assert(isnan(t.slowdown_mean));
  cr_assert_float_eq(t.idle_cost, 0.0, 0);
}

Test(reports, cost_per_busy_hour_is_undefined_without_busy_time) {
  g_autoptr(results) r = results_new();
  pool_result p = {.name = "idle", .gpus = 4, .provisioned_gpu_s = 4 * 3600.0, .cost = 10};
  g_array_append_val(r->pools, p);
  results_totals t;
  results_compute_totals(r, &t);
  cr_assert(isnan(t.cost_per_busy_gpu_h));
  cr_assert_float_eq(t.allocated_frac, 0.0, 0);
  cr_assert_float_eq(t.idle_cost, 10.0, 1e-12);
}

/* ---- CSV ------------------------------------------------------------------------- */

/* Every golden copy in tests/data/reports is a file of the table (a renamed file keeps its
 * check) and is what the table's writer makes of the fixture (events.csv quotes commas and
 * quotes; summary.txt is the text summary): a new file gets a golden check by its copy. */
Test(reports, every_golden_copy_is_what_its_table_row_writes) {
  const char *dir = GOLDEN_DIR;
  g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
  cr_assert_not_null(d);
  guint n = 0;
  for (const char *name; (name = g_dir_read_name(d)) != NULL; n++) {
    cr_assert_not_null(report_file_find(name), "%s in %s is no result file", name, dir);
    reports_assert_golden(name);
  }
  cr_assert_geq(n, 1);
}
/* latency.csv from hand-built histograms: one row per non-empty bucket (upper edge in
 * ms, share of served requests below it), services in order, none for a service that
 * served nothing. */
Test(reports, latency_csv) {
  g_autoptr(results) r = results_new();
  results_set_run(r, "two-pools", 7);
  service_result a = {.id = "chat", .pool = "infer", .served = 5, .requests = 5};
  a.latency_ns = histogram_new();
  histogram_add(a.latency_ns, 0.25);          /* below 1 ns: edge 1 ns */
  histogram_add_n(a.latency_ns, 1048576, 2);  /* 2^20 ns: edge 2^20 x 65/64 = 1064960 ns */
  histogram_add(a.latency_ns, 1049576);       /* same bucket */
  histogram_add(a.latency_ns, 16777216);      /* 2^24 ns: edge 17039360 ns */
  service_result idle = {.id = "idle", .pool = "infer", .requests = 2, .dropped = 2};
  idle.latency_ns = histogram_new();          /* nothing served: no rows */
  service_result never = {.id = "never", .pool = ""}; /* never run: no histogram */
  service_result b = {.id = "embed,v2", .pool = "infer", .served = 3, .requests = 3};
  b.latency_ns = histogram_new();
  histogram_add_n(b.latency_ns, 5e6, 3);      /* 5e6 / 2^22 = 1.19: edge 2^22 x 77/64 */
  g_array_append_val(r->services, a);
  g_array_append_val(r->services, idle);
  g_array_append_val(r->services, never);
  g_array_append_val(r->services, b);
  g_autoptr(GString) out = g_string_new(NULL);
  report_file_string("latency.csv", r, out);
  cr_assert_str_eq(out->str, "scenario,seed,service,latency_ms,cum_frac\n"
                             "two-pools,7,chat,1e-06,0.2\n"
                             "two-pools,7,chat,1.06496,0.8\n"
                             "two-pools,7,chat,17.0394,1\n"
                             "two-pools,7,\"embed,v2\",5.04627,1\n");
}



/* Every result CSV's rows begin with the run's scenario and seed: the key results_set_run
 * makes once per run (a name that needs quotes quoted) and the one formatted for results
 * made without it are the same bytes, in every CSV of the table. */
Test(reports, every_csv_row_begins_with_scenario_and_seed) {
  g_autoptr(results) cached = reports_fixture(), plain = reports_fixture();
  results_set_run(cached, "two \"pools\", v2", 7);
  g_free(plain->scenario_name);
  plain->scenario_name = g_strdup("two \"pools\", v2");
  cr_assert_null(plain->csv_key);
  guint n;
  const report_file *t = report_files(&n);
  for (guint i = 0; i < n; i++) {
    if (t[i].format != &report_format_csv) continue;
    g_autoptr(GString) a = g_string_new(NULL), b = g_string_new(NULL);
    if (!report_file_string(t[i].name, cached, a)) continue;
    cr_assert(report_file_string(t[i].name, plain, b));
    cr_expect_str_eq(a->str, b->str, "%s: the key made once differs", t[i].name);
    g_auto(GStrv) lines = g_strsplit(a->str, "\n", -1);
    cr_expect(g_str_has_prefix(lines[0], "scenario,seed,"), "%s: %s", t[i].name, lines[0]);
    for (guint k = 1; lines[k] && lines[k][0]; k++)
      cr_expect(g_str_has_prefix(lines[k], "\"two \"\"pools\"\", v2\",7,"), "%s: %s", t[i].name,
                lines[k]);
  }
}

Test(reports, csv_of_an_empty_run_is_the_header_only) {
  g_autoptr(results) r = results_new();
  g_autoptr(GString) out = g_string_new(NULL);
  report_csv_string(report_csv_tenants_to, r, out);
  cr_assert_str_eq(out->str, "scenario,seed,tenant,jobs,allocated_gpu_h,busy_gpu_h,cost,cost_share,"
                             "sm_active_gpu_h,blast_caused,blast_suffered\n");
}

Test(reports, text_durations_scale_their_unit) {
  g_autoptr(results) r = results_new();
  r->end_s = 5400;
  double waits[] = {0.5, 90, 600, 7560, 400000};
  for (gsize i = 0; i < G_N_ELEMENTS(waits); i++) {
    job_result j = reports_job("j", "batch", "t", NULL, -1, 1);
    j.outcome = OUTCOME_RUNNING;
    j.start_s = 0;
    j.wait_s = waits[i];
    results_add_job(r, &j, TRUE);
  }
  g_autoptr(GString) out = g_string_new(NULL);
  report_text(r, out);
  /* mean 81630.1 s = 22.7 h, p50 600 s = 10 m, p95 0.95 x 4 = 3.8 -> 7560 + 0.8 x
   * 392440 = 321512 s = 89.3 h (hours up to 100), max 400000 s = 4.63 d */
  cr_assert(strstr(out->str, "queue wait        mean 22.7 h   p50 10 m   p95 89.3 h   "
                             "max 4.63 d\n"),
            "%s", out->str);
  cr_assert(strstr(out->str, "(unnamed)' (seed 0), 1.5 hours simulated\n"), "%s", out->str);
  cr_assert(strstr(out->str, "5 submitted: 0 completed, 5 running\n"), "%s", out->str);
  cr_assert(strstr(out->str, "allocated -   busy -   SM-active -\n"), "%s", out->str);
  cr_assert(strstr(out->str, "cost              $0.00; idle spend $0.00; n/a per busy GPU-h\n"),
            "%s", out->str);
  cr_assert_null(strstr(out->str, "nan"), "%s", out->str);
  cr_assert_null(strstr(out->str, "\npool"), "no pool table without pools: %s", out->str);
}

/* ---- JSON ------------------------------------------------------------------------ */

static JsonObject *reports_parse(JsonParser *parser, const char *text) {
  GError *error = NULL;
  cr_assert(json_parser_load_from_data(parser, text, -1, &error), "%s\n%s",
            error ? error->message : "", text);
  JsonNode *root = json_parser_get_root(parser);
  cr_assert(JSON_NODE_HOLDS_OBJECT(root));
  return json_node_get_object(root);
}

Test(reports, summary_json_round_trips) {
  g_autoptr(results) r = reports_fixture();
  g_autofree char *text = report_json(r, TRUE);
  g_autoptr(JsonParser) parser = json_parser_new();
  JsonObject *o = reports_parse(parser, text);
  cr_assert_str_eq(json_object_get_string_member(o, "scenario"), "two-pools");
  cr_assert_str_eq(json_object_get_string_member(o, "scenario_file"),
                   "scenarios/two-pools.yaml");
  cr_assert_str_eq(json_object_get_string_member(o, "trace_file"), "traces/mixed.csv");
  cr_assert_eq(json_object_get_int_member(o, "seed"), 7);
  cr_assert_float_eq(json_object_get_double_member(o, "span_s"), 86400.0, 0);
  cr_assert_float_eq(json_object_get_double_member(o, "interval_s"), 3600.0, 0);

  JsonObject *t = json_object_get_object_member(o, "totals");
  cr_assert_eq(json_object_get_int_member(t, "gpus"), 3);
  cr_assert_float_eq(json_object_get_double_member(t, "allocated_frac"), 0.5, 1e-12);
  cr_assert_float_eq(json_object_get_double_member(t, "busy_frac"), 0.2, 1e-12);
  cr_assert_float_eq(json_object_get_double_member(t, "cost"), 183.84, 1e-9);
  cr_assert_float_eq(json_object_get_double_member(t, "cost_per_busy_gpu_h"), 183.84 / 14.4,
                     1e-9);
  cr_assert_float_eq(json_object_get_double_member(t, "wait_p95_s"), 9.5, 1e-12);
  cr_assert_float_eq(json_object_get_double_member(t, "slowdown_mean"), 1.2, 1e-12);
  cr_assert_eq(json_object_get_int_member(t, "oom_kills"), 1);
  cr_assert_eq(json_object_get_size(t), 32, "every results_totals field");

  JsonArray *pools = json_object_get_array_member(o, "pools");
  cr_assert_eq(json_array_get_length(pools), 2);
  JsonObject *dev = json_array_get_object_element(pools, 1);
  cr_assert_str_eq(json_object_get_string_member(dev, "name"), "dev");
  cr_assert_str_eq(json_object_get_string_member(dev, "strategy"), "time-slicing");
  cr_assert_float_eq(json_object_get_double_member(dev, "busy_gpu_h"), 2.4, 1e-12);
  cr_assert_eq(json_object_get_int_member(dev, "running"), 1);

  JsonArray *tenants = json_object_get_array_member(o, "tenants");
  cr_assert_eq(json_array_get_length(tenants), 2);
  JsonObject *web = json_array_get_object_element(tenants, 1);
  cr_assert_str_eq(json_object_get_string_member(web, "name"), "web");
  cr_assert_float_eq(json_object_get_double_member(web, "cost_share"), 0.25, 1e-12);

  JsonObject *outcomes = json_object_get_object_member(o, "outcomes");
  cr_assert_eq(json_object_get_int_member(outcomes, "completed"), 1);
  cr_assert_eq(json_object_get_int_member(outcomes, "running"), 1);
  cr_assert_eq(json_object_get_int_member(outcomes, "unplaceable"), 1);
  cr_assert_eq(json_object_get_int_member(outcomes, "not_submitted"), 0);

  JsonObject *engine = json_object_get_object_member(o, "engine");
  cr_assert_eq(json_object_get_int_member(engine, "events"), 12345);
  cr_assert_float_eq(json_object_get_double_member(engine, "wall_s"), 0.25, 0);

  /* shortest round-trip numbers, not json-glib's %.17g */
  cr_assert(strstr(text, "\"busy_frac\" : 0.2,"), "%s", text);
  cr_assert_null(strstr(text, "0.20000000000000001"));
}

Test(reports, summary_json_member_order_is_fixed) {
  g_autoptr(results) r = reports_fixture();
  g_autofree char *text = report_json(r, FALSE);
  const char *keys[] = {"\"scenario\"", "\"scenario_file\"", "\"trace_file\"", "\"seed\"",
                        "\"span_s\"", "\"interval_s\"", "\"totals\"", "\"pools\"",
                        "\"tenants\"", "\"outcomes\"", "\"engine\""};
  const char *at = text;
  for (gsize i = 0; i < G_N_ELEMENTS(keys); i++) {
    const char *found = strstr(at, keys[i]);
    cr_assert_not_null(found, "%s missing or out of order", keys[i]);
    at = found;
  }
  cr_assert_eq(text[strlen(text) - 1], '\n');
}

Test(reports, summary_json_leaves_out_wall_time_when_asked) {
  g_autoptr(results) r = reports_fixture();
  g_autofree char *text = report_json(r, FALSE);
  g_autoptr(JsonParser) parser = json_parser_new();
  JsonObject *o = reports_parse(parser, text);
  JsonObject *engine = json_object_get_object_member(o, "engine");
  cr_assert_eq(json_object_get_int_member(engine, "events"), 12345);
  cr_assert_not(json_object_has_member(engine, "wall_s"));
  g_autofree char *again = report_json(r, FALSE);
  cr_assert_str_eq(text, again);
}

Test(reports, summary_json_writes_null_for_nan) {
  g_autoptr(results) r = results_new();
  r->scenario_name = g_strdup("empty");
  r->seed = G_MAXUINT64; /* beyond a JSON integer: kept exact as a string */
  g_autofree char *text = report_json(r, FALSE);
  cr_assert_null(strstr(text, ": nan"), "%s", text);
  cr_assert_null(strstr(text, "NaN"), "%s", text);
  g_autoptr(JsonParser) parser = json_parser_new();
  JsonObject *o = reports_parse(parser, text);
  JsonObject *t = json_object_get_object_member(o, "totals");
  cr_assert(json_object_get_null_member(t, "allocated_frac"));
  cr_assert(json_object_get_null_member(t, "wait_mean_s"));
  cr_assert(json_object_get_null_member(t, "cost_per_busy_gpu_h"));
  cr_assert(json_object_get_null_member(t, "slowdown_mean"));
  cr_assert(json_object_get_null_member(o, "trace_file"));
  cr_assert_str_eq(json_object_get_string_member(o, "seed"), "18446744073709551615");
  cr_assert_eq(json_array_get_length(json_object_get_array_member(o, "pools")), 0);
}

/* ---- result folders -------------------------------------------------------------- */

/* Removes a test's scratch folder (files and one level of folders are all it holds). */
static void reports_rm_rf(const char *path) {
  GDir *d = g_dir_open(path, 0, NULL);
  if (d) {
    const char *name;
    while ((name = g_dir_read_name(d))) {
      char *child = g_build_filename(path, name, NULL);
      if (g_file_test(child, G_FILE_TEST_IS_DIR) && !g_file_test(child, G_FILE_TEST_IS_SYMLINK))
        reports_rm_rf(child);
      else
        g_unlink(child);
      g_free(child);
    }
    g_dir_close(d);
  }
  g_rmdir(path);
}

static int reports_cmp_names(gconstpointer a, gconstpointer b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted names in a folder, joined by spaces. */
static char *reports_listing_sorted(const char *path) {
  GDir *d = g_dir_open(path, 0, NULL);
  cr_assert_not_null(d, "cannot list %s", path);
  GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
  const char *name;
  while ((name = g_dir_read_name(d))) g_ptr_array_add(names, g_strdup(name));
  g_dir_close(d);
  g_ptr_array_sort(names, reports_cmp_names);
  g_ptr_array_add(names, NULL);
  char *joined = g_strjoinv(" ", (char **)names->pdata);
  g_ptr_array_unref(names);
  return joined;
}

static char *reports_read(const char *dir, const char *name) {
  char *path = g_build_filename(dir, name, NULL);
  char *text = NULL;
  if (!g_file_get_contents(path, &text, NULL, NULL)) text = NULL;
  g_free(path);
  return text;
}

Test(reports, outdir_commit_creates_the_folder_atomically) {
  g_autofree char *parent = g_dir_make_tmp("sharesim-reports-XXXXXX", NULL);
  g_autofree char *dir = g_build_filename(parent, "res", NULL);
  GError *error = NULL;
  outdir *o = outdir_begin(dir, &error);
  cr_assert_not_null(o, "%s", error ? error->message : "");
  cr_assert(outdir_write(o, "a.txt", "hello\n", 6, &error));
  cr_assert(outdir_write(o, "b.csv", "x,y\n", 4, &error));
  /* nothing at DIR until commit; the temporary is a sibling named after it */
  cr_assert_not(g_file_test(dir, G_FILE_TEST_EXISTS));
  g_autofree char *tmp_parent = g_path_get_dirname(outdir_tmp_path(o));
  g_autofree char *tmp_base = g_path_get_basename(outdir_tmp_path(o));
  cr_assert_str_eq(tmp_parent, parent);
  cr_assert(g_str_has_prefix(tmp_base, "res.tmp-"), "%s", tmp_base);
  g_autofree char *in_tmp = reports_read(outdir_tmp_path(o), "a.txt");
  cr_assert_str_eq(in_tmp, "hello\n");
  cr_assert(outdir_commit(o, &error), "%s", error ? error->message : "");
  g_autofree char *listing = reports_listing_sorted(parent);
  cr_assert_str_eq(listing, "res");
  g_autofree char *files = reports_listing_sorted(dir);
  cr_assert_str_eq(files, ".sharesim-folder a.txt b.csv");
  g_autofree char *a = reports_read(dir, "a.txt");
  cr_assert_str_eq(a, "hello\n");
  reports_rm_rf(parent);
}

Test(reports, outdir_trailing_slash_names_the_same_folder) {
  g_autofree char *parent = g_dir_make_tmp("sharesim-reports-XXXXXX", NULL);
  g_autofree char *dir = g_strconcat(parent, "/res//", NULL);
  GError *error = NULL;
  outdir *o = outdir_begin(dir, &error);
  cr_assert_not_null(o, "%s", error ? error->message : "");
  cr_assert(outdir_commit(o, &error), "%s", error ? error->message : "");
  g_autofree char *listing = reports_listing_sorted(parent);
  cr_assert_str_eq(listing, "res");
  reports_rm_rf(parent);
}

Test(reports, outdir_replaces_an_earlier_result) {
  g_autofree char *parent = g_dir_make_tmp("sharesim-reports-XXXXXX", NULL);
  g_autofree char *dir = g_build_filename(parent, "res", NULL);
  GError *error = NULL;
  outdir *o = outdir_begin(dir, &error);
  cr_assert(outdir_write(o, "summary.json", "{}\n", 3, &error));
  cr_assert(outdir_write(o, "old-only.csv", "1\n", 2, &error));
  g_autofree char *plots = g_build_filename(outdir_tmp_path(o), "plots", NULL);
  cr_assert(g_mkdir(plots, 0755) == 0);
  cr_assert(outdir_commit(o, &error), "%s", error ? error->message : "");

  o = outdir_begin(dir, &error);
  cr_assert(outdir_write(o, "summary.json", "{\"v\": 2}\n", 9, &error));
  cr_assert(outdir_commit(o, &error), "%s", error ? error->message : "");
  g_autofree char *listing = reports_listing_sorted(parent);
  cr_assert_str_eq(listing, "res", "old copy or temporary left behind: %s", listing);
  g_autofree char *files = reports_listing_sorted(dir);
  cr_assert_str_eq(files, ".sharesim-folder summary.json");
  g_autofree char *s = reports_read(dir, "summary.json");
  cr_assert_str_eq(s, "{\"v\": 2}\n");
  reports_rm_rf(parent);
}

Test(reports, outdir_replaces_an_empty_folder) {
  g_autofree char *parent = g_dir_make_tmp("sharesim-reports-XXXXXX", NULL);
  g_autofree char *dir = g_build_filename(parent, "res", NULL);
  cr_assert(g_mkdir(dir, 0755) == 0);
  GError *error = NULL;
  outdir *o = outdir_begin(dir, &error);
  cr_assert(outdir_write(o, "summary.json", "{}\n", 3, &error));
  cr_assert(outdir_commit(o, &error), "%s", error ? error->message : "");
  g_autofree char *files = reports_listing_sorted(dir);
  cr_assert_str_eq(files, ".sharesim-folder summary.json");
  reports_rm_rf(parent);
}

Test(reports, outdir_refuses_a_folder_that_is_not_a_result) {
  g_autofree char *parent = g_dir_make_tmp("sharesim-reports-XXXXXX", NULL);
  g_autofree char *dir = g_build_filename(parent, "mine", NULL);
  g_autofree char *notes = g_build_filename(dir, "notes.txt", NULL);
  cr_assert(g_mkdir(dir, 0755) == 0);
  cr_assert(g_file_set_contents(notes, "keep me\n", -1, NULL));
  GError *error = NULL;
  /* refused at begin, before any work */
  outdir *o = outdir_begin(dir, &error);
  cr_assert_null(o);
  cr_assert_not_null(error);
  cr_assert_eq(error->domain, SHARESIM_ERROR);
  cr_assert_eq(error->code, SHARESIM_ERROR_INPUT);
  g_autofree char *want = g_strdup_printf(
      "refusing to replace %s: it exists and is not a sharesim result folder (no "
      ".sharesim-folder marker): choose another folder or remove it yourself", dir);
  cr_assert_str_eq(error->message, want);
  g_clear_error(&error);
  /* untouched, and no temporary left beside it */
  g_autofree char *listing = reports_listing_sorted(parent);
  cr_assert_str_eq(listing, "mine");
  g_autofree char *files = reports_listing_sorted(dir);
  cr_assert_str_eq(files, "notes.txt");
  g_autofree char *kept = reports_read(dir, "notes.txt");
  cr_assert_str_eq(kept, "keep me\n");
  reports_rm_rf(parent);
}

Test(reports, outdir_refuses_a_plain_file) {
  g_autofree char *parent = g_dir_make_tmp("sharesim-reports-XXXXXX", NULL);
  g_autofree char *path = g_build_filename(parent, "results.txt", NULL);
  cr_assert(g_file_set_contents(path, "data\n", -1, NULL));
  GError *error = NULL;
  g_autoptr(results) r = reports_fixture();
  cr_assert_not(report_write_dir(r, path, TRUE, &error));
  cr_assert_eq(error->code, SHARESIM_ERROR_INPUT);
  cr_assert(strstr(error->message, "refusing to replace"), "%s", error->message);
  g_clear_error(&error);
  g_autofree char *kept = reports_read(parent, "results.txt");
  cr_assert_str_eq(kept, "data\n");
  g_autofree char *listing = reports_listing_sorted(parent);
  cr_assert_str_eq(listing, "results.txt");
  reports_rm_rf(parent);
}

Test(reports, outdir_abort_leaves_nothing) {
  g_autofree char *parent = g_dir_make_tmp("sharesim-reports-XXXXXX", NULL);
  g_autofree char *dir = g_build_filename(parent, "res", NULL);
  GError *error = NULL;
  outdir *o = outdir_begin(dir, &error);
  cr_assert(outdir_write(o, "a.txt", "x", 1, &error));
  g_autofree char *sub = g_build_filename(outdir_tmp_path(o), "plots", NULL);
  cr_assert(g_mkdir(sub, 0755) == 0);
  g_autofree char *inner = g_build_filename(sub, "u.gp", NULL);
  cr_assert(g_file_set_contents(inner, "plot 1\n", -1, NULL));
  outdir_abort(o);
  g_autofree char *listing = reports_listing_sorted(parent);
  cr_assert_str_eq(listing, "");
  reports_rm_rf(parent);
}

Test(reports, outdir_errors_name_the_path) {
  g_autofree char *parent = g_dir_make_tmp("sharesim-reports-XXXXXX", NULL);
  g_autofree char *dir = g_build_filename(parent, "missing", "res", NULL);
  GError *error = NULL;
  cr_assert_null(outdir_begin(dir, &error));
  cr_assert_eq(error->code, SHARESIM_ERROR_RUNTIME);
  cr_assert(strstr(error->message, dir), "%s", error->message);
  cr_assert(strstr(error->message, "No such file or directory"), "%s", error->message);
  g_clear_error(&error);
  cr_assert_null(outdir_begin(".", &error));
  cr_assert_eq(error->code, SHARESIM_ERROR_INPUT);
  g_clear_error(&error);

  g_autofree char *ok = g_build_filename(parent, "res", NULL);
  outdir *o = outdir_begin(ok, &error);
  cr_assert_not(outdir_write(o, "../escape.txt", "x", 1, &error));
  cr_assert(strstr(error->message, "not a plain file name"), "%s", error->message);
  g_clear_error(&error);
  outdir_abort(o);
  g_autofree char *listing = reports_listing_sorted(parent);
  cr_assert_str_eq(listing, "");
  reports_rm_rf(parent);
}

Test(reports, write_dir_writes_every_file_deterministically) {
  g_autofree char *parent = g_dir_make_tmp("sharesim-reports-XXXXXX", NULL);
  g_autofree char *dir = g_build_filename(parent, "run", NULL);
  g_autoptr(results) r = reports_fixture();
  GError *error = NULL;
  cr_assert(report_write_dir(r, dir, TRUE, &error), "%s", error ? error->message : "");
  /* the files of the table every run writes (the fixture has no LLM service) */
  g_autofree char *files = reports_listing_sorted(dir);
  g_autoptr(GPtrArray) names = g_ptr_array_new();
  g_ptr_array_add(names, (gpointer)OUTDIR_MARKER);
  guint n;
  const report_file *t = report_files(&n);
  for (guint i = 0; i < n; i++)
    if (!t[i].option && !t[i].if_rows) g_ptr_array_add(names, (gpointer)t[i].name);
  g_ptr_array_sort(names, reports_cmp_names);
  g_ptr_array_add(names, NULL);
  g_autofree char *expected = g_strjoinv(" ", (char **)names->pdata);
  cr_assert_str_eq(files, expected);
  g_autofree char *latency = reports_read(dir, "latency.csv");
  cr_assert_str_eq(latency, "scenario,seed,service,latency_ms,cum_frac\n",
                   "no service: the header only");
  for (guint i = 0; i < n; i++) { /* the folder's files are the golden copies */
    g_autofree char *path = g_build_filename(GOLDEN_DIR, t[i].name, NULL);
    if (!g_file_test(path, G_FILE_TEST_EXISTS)) continue;
    g_autofree char *got = reports_read(dir, t[i].name);
    g_autofree char *golden = reports_golden(t[i].name);
    cr_assert_str_eq(got, golden, "%s", t[i].name);
  }
  g_autofree char *first = reports_read(dir, "summary.json");
  cr_assert_null(strstr(first, "wall_s"));
  /* a second run with a different wall time gives byte-identical files */
  r->wall_s = 99;
  cr_assert(report_write_dir(r, dir, TRUE, &error), "%s", error ? error->message : "");
  g_autofree char *second = reports_read(dir, "summary.json");
  cr_assert_str_eq(first, second);
  /* non-deterministic mode keeps the wall time */
  cr_assert(report_write_dir(r, dir, FALSE, &error), "%s", error ? error->message : "");
  g_autofree char *third = reports_read(dir, "summary.json");
  cr_assert(strstr(third, "\"wall_s\" : 99"), "%s", third);
  g_autofree char *listing = reports_listing_sorted(parent);
  cr_assert_str_eq(listing, "run");
  reports_rm_rf(parent);
}

/* The waits of a frozen run (each pool's sorted) give the same totals walked merged as the
 * sorted copy of their concatenation gives (the path of unsorted waits): the same bytes for
 * the mean, p50, p95 and max, with ties across pools and the sizes where p50 and p95 fall on
 * the last value. */
static gint reports_double_cmp(gconstpointer a, gconstpointer b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

Test(reports, merged_waits_give_the_totals_of_the_sorted_copy) {
  GRand *g = g_rand_new_with_seed(17);
  const guint sizes[] = {1, 2, 3, 20, 1001, 4099};
  for (guint s = 0; s < G_N_ELEMENTS(sizes); s++) {
    g_autoptr(results) merged = results_new(), copied = results_new();
    for (guint q = 0; q < 3; q++) {
      GArray *a = g_array_new(FALSE, FALSE, sizeof(double));
      GArray *b = g_array_new(FALSE, FALSE, sizeof(double));
      for (guint i = q; i < sizes[s]; i += 3) {
        double v = i % 4 ? g_rand_double_range(g, 0, 5000) : (double)g_rand_int_range(g, 0, 4);
        g_array_append_val(a, v);
        g_array_append_val(b, v);
      }
      g_array_sort(a, reports_double_cmp);
      g_ptr_array_add(merged->job_waits, a);
      g_ptr_array_add(copied->job_waits, b);
    }
    /* the copy path runs when any pool's waits are out of order */
    GArray *last = g_ptr_array_index(copied->job_waits, 0);
    double out_of_order = 1e9;
    g_array_prepend_val(last, out_of_order);
    GArray *first = g_ptr_array_index(merged->job_waits, 0);
    g_array_append_val(first, out_of_order);
    results_totals tm, tc;
    results_compute_totals(merged, &tm);
    results_compute_totals(copied, &tc);
    double m[4] = {tm.wait_mean_s, tm.wait_p50_s, tm.wait_p95_s, tm.wait_max_s};
    double c[4] = {tc.wait_mean_s, tc.wait_p50_s, tc.wait_p95_s, tc.wait_max_s};
    cr_assert(memcmp(m, c, sizeof m) == 0, "%u waits: %.17g %.17g %.17g %.17g against %.17g "
              "%.17g %.17g %.17g", sizes[s] + 1, m[0], m[1], m[2], m[3], c[0], c[1], c[2], c[3]);
    cr_assert_float_eq(tm.wait_max_s, 1e9, 0);
  }
  g_rand_free(g);
}

/* Started jobs that never waited are only counted (results.job_waits_zero): a pool's and
 * the totals' wait statistics are GSL's over every wait, zeros included, whether the
 * totals walk the frozen pools merged or copy them. */
Test(reports, zero_waits_are_counted_and_give_gsl_figures) {
  GRand *g = g_rand_new_with_seed(5);
  const guint sizes[] = {1, 2, 7, 1000, 5003};
  for (guint s = 0; s < G_N_ELEMENTS(sizes); s++) {
    g_autoptr(results) r = results_new();
    pool_result pools[2] = {{.name = "a"}, {.name = "b"}};
    g_array_append_vals(r->pools, pools, 2);
    GArray *all = g_array_new(FALSE, FALSE, sizeof(double)), *pa = g_array_new(FALSE, FALSE, sizeof(double));
    for (guint i = 0; i < sizes[s]; i++) {
      double w = g_rand_int_range(g, 0, 10) < 8 ? 0 : g_rand_double_range(g, 0, 900);
      job_result j = {.id = "j", .outcome = OUTCOME_COMPLETED, .pool_index = (int)(i % 2),
                      .submit_s = 0, .start_s = w, .wait_s = w, .straggler_delay_s = NAN,
                      .slowdown = NAN};
      results_add_job(r, &j, FALSE);
      g_array_append_val(all, w);
      if (i % 2 == 0) g_array_append_val(pa, w);
    }
    results_fill_pool_waits(r);
    results_totals t;
    results_compute_totals(r, &t);
    double want[4], pool[4];
    results_wait_stats((double *)(void *)all->data, all->len, &want[0], &want[1], &want[2], &want[3]);
    results_wait_stats((double *)(void *)pa->data, pa->len, &pool[0], &pool[1], &pool[2], &pool[3]);
    double got[4] = {t.wait_mean_s, t.wait_p50_s, t.wait_p95_s, t.wait_max_s};
    const pool_result *p0 = &g_array_index(r->pools, pool_result, 0);
    double gp[4] = {p0->wait_mean_s, p0->wait_p50_s, p0->wait_p95_s, p0->wait_max_s};
    cr_assert(memcmp(got, want, sizeof got) == 0, "%u waits: mean %.17g against %.17g",
              sizes[s], got[0], want[0]);
    cr_assert(memcmp(gp, pool, sizeof gp) == 0, "%u waits, pool a", sizes[s]);
    guint64 zeros = 0;
    for (guint k = 0; k < r->job_waits_zero->len; k++)
      zeros += g_array_index(r->job_waits_zero, guint64, k);
    guint stored = 0;
    for (guint k = 0; k < r->job_waits->len; k++)
      stored += ((GArray *)g_ptr_array_index(r->job_waits, k))->len;
    cr_assert_eq(zeros + stored, sizes[s]);
    if (sizes[s] >= 1000) cr_assert(zeros > stored, "the zeros are not stored");
    g_array_unref(all);
    g_array_unref(pa);
  }
  g_rand_free(g);
}

/* Wait by priority: one entry per priority value up to RESULTS_MAX_PRIORITIES, the rest in
 * one `other` entry (last in the order), highest priority first; zero waits counted. */
Test(reports, wait_by_priority_is_bounded_and_ordered) {
  results *r = results_new();
  results_track_priorities(r);
  for (int i = 0; i < RESULTS_MAX_PRIORITIES + 6; i++) {
    job_result j = reports_job("j", "batch", "t", "p", 0, 1);
    j.outcome = OUTCOME_COMPLETED;
    j.priority = i - 3; /* -3 .. 66: negatives too */
    j.start_s = 0;
    j.wait_s = i % 2 ? 10.0 * i : 0.0;
    results_add_job(r, &j, FALSE);
  }
  job_result queued = reports_job("q", "batch", "t", "p", 0, 1); /* never started */
  queued.priority = 5;
  queued.wait_s = NAN;
  results_add_job(r, &queued, FALSE);
  results_fill_pool_waits(r);
  cr_assert_eq(r->prio_waits->len, RESULTS_MAX_PRIORITIES + 1);
  GArray *order = results_prio_order(r);
  const results_prio_waits *first =
      &g_array_index(r->prio_waits, results_prio_waits, g_array_index(order, guint, 0));
  const results_prio_waits *last = &g_array_index(
      r->prio_waits, results_prio_waits, g_array_index(order, guint, order->len - 1));
  const results_prio_waits *lowest = &g_array_index(
      r->prio_waits, results_prio_waits, g_array_index(order, guint, order->len - 2));
  cr_assert_eq(first->priority, RESULTS_MAX_PRIORITIES - 4, "the highest kept first");
  cr_assert(!first->other);
  cr_assert_eq(lowest->priority, -3, "the lowest value before `other`");
  cr_assert(last->other, "`other` last");
  cr_assert_eq(last->jobs, 6);
  /* its waits: i = 64..69, odd ones 650, 670, 690 s, even ones 0 */
  cr_assert_float_eq(last->mean_s, (650.0 + 670 + 690) / 6, 1e-9);
  cr_assert_float_eq(last->max_s, 690.0, 1e-9);
  g_array_unref(order);
  for (guint i = 0; i < r->prio_waits->len; i++) {
    const results_prio_waits *pw = &g_array_index(r->prio_waits, results_prio_waits, i);
    if (pw->priority == 5 && !pw->other) {
      cr_assert_eq(pw->jobs, 2, "the queued job counts among the jobs");
      cr_assert_eq(pw->zeros + pw->waits->len, 1, "only the started one has a wait");
    }
  }
  results_free(r);
}
