/* test-inputsafety.c: the input-safety helpers (issue 14): path confinement (paths.h),
 * line positions for LF, CR and CRLF (util.h), the work estimate (budget.h) against hand
 * counts, and scenario loading that stays linear in the number of pools (D12). */
#include <math.h>
#include <criterion/criterion.h>
#include "testutil.h"
#include <glib/gstdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "paths.h"
#include "budget.h"

TestSuite(inputsafety, .init = tu_tmp_setup, .fini = tu_tmp_teardown);

/* ---- paths ---- */

Test(inputsafety, paths_stay_under_the_scenario_folder) {
  g_autofree char *in = tu_write_tmp("in.yaml", "x: 1\n", -1);
  g_autofree char *sub = g_build_filename(tu_tmp_dir, "sub", NULL);
  cr_assert_eq(g_mkdir(sub, 0755), 0);
  g_autofree char *subf = g_build_filename(sub, "f.yaml", NULL);
  cr_assert(g_file_set_contents(subf, "x: 1\n", -1, NULL));
  char *out = NULL;
  cr_assert_eq(paths_confine(tu_tmp_dir, "in.yaml", &out), PATHS_OK);
  cr_assert_str_eq(out, in);
  g_free(out);
  cr_assert_eq(paths_confine(sub, "../in.yaml", &out), PATHS_OUTSIDE, "%s", out);
  g_free(out);
  cr_assert_eq(paths_confine(sub, "./f.yaml", &out), PATHS_OK);
  g_free(out);
  cr_assert_eq(paths_confine(sub, "/etc/passwd", &out), PATHS_OUTSIDE);
  g_free(out);
  cr_assert_eq(paths_confine(tu_tmp_dir, "sub/../sub/f.yaml", &out), PATHS_OK);
  g_free(out);
  cr_assert_eq(paths_confine(tu_tmp_dir, "nope.yaml", &out), PATHS_NOT_FOUND);
  g_free(out);
  cr_assert_eq(paths_confine(tu_tmp_dir, "sub", &out), PATHS_NOT_REGULAR);
  g_free(out);
  /* a folder whose name starts like the scenario's is not under it */
  g_autofree char *twin = g_strconcat(tu_tmp_dir, "x", NULL);
  cr_assert_eq(paths_confine(tu_tmp_dir, twin, &out), PATHS_OUTSIDE);
  g_free(out);
  /* a link inside that leads outside */
  g_autofree char *link = g_build_filename(sub, "link", NULL);
  cr_assert_eq(symlink("/etc/passwd", link), 0);
  cr_assert_eq(paths_confine(sub, "link", &out), PATHS_LINK_OUTSIDE);
  g_free(out);
  /* --allow-path lets the parent in */
  cr_assert(paths_allow(tu_tmp_dir, NULL));
  cr_assert_eq(paths_confine(sub, "../in.yaml", &out), PATHS_OK);
  g_free(out);
  cr_assert_eq(paths_confine(sub, "/etc/passwd", &out), PATHS_OUTSIDE);
  g_free(out);
  paths_allow_reset();
  GError *err = NULL;
  cr_assert_not(paths_allow(in, &err)); /* a file is not a folder */
  cr_assert_not_null(strstr(err->message, "expected an existing folder"));
  g_error_free(err);
}

/* ---- line positions ---- */

Test(inputsafety, positions_count_lf_cr_and_crlf) {
  const char *t = "a\nb\rc\r\nd";
  guint line, col;
  util_text_position(t, strlen(t), 0, &line, &col);
  cr_assert(line == 1 && col == 1);
  util_text_position(t, strlen(t), 2, &line, &col); /* b */
  cr_assert(line == 2 && col == 1);
  util_text_position(t, strlen(t), 4, &line, &col); /* c */
  cr_assert(line == 3 && col == 1);
  util_text_position(t, strlen(t), 5, &line, &col); /* the CR of CRLF */
  cr_assert(line == 3 && col == 2);
  util_text_position(t, strlen(t), 7, &line, &col); /* d */
  cr_assert(line == 4 && col == 1, "line %u col %u", line, col);
  char buf[] = "a\r\nb\rc\n\r";
  gsize len = strlen(buf);
  util_normalize_line_ends(buf, &len);
  cr_assert_eq(len, 7);
  cr_assert_str_eq(buf, "a\nb\nc\n\n");
}

Test(inputsafety, trace_rows_after_cr_only_lines_have_their_line) {
  g_autofree char *p = tu_write_tmp("cr.csv",
                                    "id,submit_s,kind,gpus,mem_gb,duration_s\r"
                                    "a,0,batch,1,1,10\r\n"
                                    "b,x,batch,1,1,10\r", -1);
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(trace) t = trace_load(p, d);
  cr_assert_null(t);
  g_autofree char *all = diag_join(d);
  cr_assert_not_null(strstr(all, "cr.csv:3:2: submit_s"), "%s", all);
}

/* ---- the work estimate ---- */

Test(inputsafety, budget_estimate_matches_hand_counts) {
  g_autofree char *sp = tu_write_tmp("s.yaml",
                                     "horizon: 1d\ninterval: 10s\npools:\n"
                                     "  - {name: a, gpu: A100-80GB, nodes: 2}\n"
                                     "  - {name: b, gpu: T4, nodes: 1, gpus_per_node: 4}\n"
                                     "routing:\n  - {pool: a}\n", -1);
  g_autofree char *tp = tu_write_tmp("t.csv",
                                     "id,submit_s,kind,gpus,mem_gb,duration_s,rate_rps,service_ms,"
                                     "busy,burst_s,tenant\n"
                                     "inf,3600,inference,1,1,1000000,50,10,,,x\n"
                                     "nb,0,notebook,1,1,7200,,,0.25,30,y\n"
                                     "tr,0,training,1,1,100,,,,,x\n", -1);
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(scenario) sc = scenario_load(sp, d);
  g_autoptr(trace) tr = trace_load(tp, d);
  cr_assert(sc && tr);
  budget_estimate e;
  budget_estimate_run(sc, tr, TRUE, &e);
  TU_NEAR(e.span_s, 86400, 0);
  TU_NEAR(e.gpus, 20, 0);
  TU_NEAR(e.intervals, 8640, 0);
  cr_assert_eq(e.tenants, 2);
  TU_NEAR(e.series_rows, 8640 * 4, 0);          /* 2 pools + 2 tenants */
  TU_NEAR(e.gpu_rows, 8640 * 20, 0);
  TU_NEAR(e.requests, 50.0 * (86400 - 3600), 1e-6); /* cut at the horizon */
  /* by mechanism (issue 29): nothing can kill these jobs (an exclusive pool, no crash
   * rates or phases), so one attempt each, and no random crash */
  TU_NEAR(e.ev[BUDGET_EV_ARRIVALS], 3, 0);
  TU_NEAR(e.ev[BUDGET_EV_ATTEMPTS], 3, 0);
  TU_NEAR(e.ev[BUDGET_EV_DUTY], 1 + (86400 - 3600) / 60.0, 1e-9); /* the session, cut */
  double bursts = 7200 * 0.25 / 30; /* the mean, and six standard deviations more */
  TU_NEAR(e.ev[BUDGET_EV_BURSTS], 1 + 2 * (bursts + 6 * sqrt(bursts) + 6), 1e-9);
  TU_NEAR(e.ev[BUDGET_EV_INTERVALS], 8641, 0);
  TU_NEAR(e.ev[BUDGET_EV_SCHEDULE], 3 + 3, 0);
  TU_NEAR(e.ev[BUDGET_EV_CHECKPOINTS] + e.ev[BUDGET_EV_PHASES], 0, 0);
  double sum = 0;
  for (int k = 0; k < BUDGET_EV_COUNT; k++) sum += e.ev[k];
  TU_NEAR(e.events, sum, 1e-9);
  /* with the per-GPU series (--dcgm) the rows are kept in memory */
  TU_NEAR(e.mem_bytes, BUDGET_BYTES_BASE + 2 * BUDGET_BYTES_PER_TENANT +
                           20 * BUDGET_BYTES_PER_GPU + 8640 * 4 * BUDGET_BYTES_PER_SERIES_ROW +
                           8640 * 20 * ((double)sizeof(gpu_series_row) + BUDGET_BYTES_PER_GPU_ORDER) +
                           9016 * BUDGET_BYTES_PER_GPU_JOB +
                           3 * (BUDGET_BYTES_PER_JOB + BUDGET_BYTES_PER_KEPT_ROW),
          1e-3);
  /* run --dcgm's job entries (issue 30), on pool a's GPUs of their own (one resident at
   * once, one stay each): by their time, inf 82,800 s (cut at the horizon), nb 7,200 s and
   * tr 100 s over 10 s intervals, plus 2 per stay: 8,282 + 722 + 12 = 9,016, below the
   * residents at once (8,641 x 16 + 3); beyond a GPU's first resident only the 3 stays */
  TU_NEAR(e.gpu_jobs, 9016, 1e-9);
  const gpu_model *a100 = catalog_find("A100-80GB"), *t4 = catalog_find("T4");
  double model = MAX(strlen(a100->product_name), strlen(t4->product_name)), profile = 0;
  for (guint q = 0; q < a100->n_profiles; q++) profile = MAX(profile, strlen(a100->profiles[q].name));
  for (guint q = 0; q < t4->n_profiles; q++) profile = MAX(profile, strlen(t4->profiles[q].name));
  double vars = 3 * 1 + strlen(sc->name) + strlen("inf") + strlen("x") + model + profile +
                BUDGET_DCGM_CONTAINER;
  TU_NEAR(e.dcgm_bytes,
          BUDGET_DCGM_HEADERS + BUDGET_DCGM_GAUGES * (8641.0 * 20 + 3) * (BUDGET_DCGM_PROM_LINE + vars) +
              BUDGET_DCGM_POOL_FAMILIES * 8641 * 2 * (BUDGET_DCGM_POOL_LINE + 1 + strlen(sc->name)) +
              BUDGET_DCGM_CSV_GAUGES * 9016 * (BUDGET_DCGM_CSV_ROW + 3 + 2 * strlen(sc->name) + 4),
          1e-3);
  cr_assert(budget_check(sc, tr, TRUE, d));
  cr_assert_eq(d->count, 0);
}

/* ---- D12: loading is linear in the number of pools ---- */

/* CPU seconds of this process (not wall time: the machine may be shared). */
static double cpu_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double load_seconds(guint n) {
  GString *y = g_string_new("name: many\npools:\n");
  for (guint i = 0; i < n; i++)
    g_string_append_printf(y, "- {name: p%u, gpu: T4, nodes: 1, gpus_per_node: 1}\n", i);
  g_string_append(y, "routing:\n  - {pool: p0}\n");
  g_autofree char *p = tu_write_tmp("pools.yaml", y->str, (gssize)y->len);
  g_string_free(y, TRUE);
  double best = INFINITY;
  for (int rep = 0; rep < 2; rep++) {
    g_autoptr(diag_list) d = diag_list_new(0);
    double t0 = cpu_seconds();
    g_autoptr(scenario) sc = scenario_load(p, d);
    best = MIN(best, cpu_seconds() - t0);
    cr_assert_not_null(sc);
    cr_assert_eq(sc->pools->len, n);
    cr_assert_eq(scenario_pool_index(sc, "p0"), 0);
    g_autofree char *last = g_strdup_printf("p%u", n - 1);
    cr_assert_eq(scenario_pool_index(sc, last), (int)n - 1);
    cr_assert_eq(scenario_pool_index(sc, "nope"), -1);
  }
  return best;
}

/* The smaller pool count; under AddressSanitizer (the sanitizer stage) half of it: the
 * same code on 10k and 40k pools, where a quadratic load still shows (16x). */
#if defined(__SANITIZE_ADDRESS__)
#define LINEAR_POOLS 10000u
#else
#define LINEAR_POOLS 20000u
#endif

Test(inputsafety, scenario_load_is_linear_in_pools, .timeout = 300) {
  /* 4x the pools: linear ~4x the CPU time, quadratic ~16x (before the fix: 20k pools
   * 1.2 s, 40k 5.8 s, 80k 23.6 s) */
  double small = load_seconds(LINEAR_POOLS), large = load_seconds(4 * LINEAR_POOLS);
  cr_log_info("%uk pools %.3f s, %uk pools %.3f s", LINEAR_POOLS / 1000, small,
              4 * LINEAR_POOLS / 1000, large);
  cr_assert(large < 9.0 * MAX(small, 0.005), "%uk pools %.3f s, %uk pools %.3f s",
            LINEAR_POOLS / 1000, small, 4 * LINEAR_POOLS / 1000, large);
}
