/* test-calendar.c: calendar time (scenario start:): ISO 8601 in and out, the scenario key,
 * UTC columns and absolute DCGM timestamps in the result files, and the bundled Grafana
 * dashboard, whose every metric must be one that dcgm.prom carries. */
#include <criterion/criterion.h>
#include "testutil.h"
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>
#include "caltime.h"
#include "report.h"

TestSuite(calendar, .init = tu_tmp_setup, .fini = tu_tmp_teardown);

Test(calendar, iso8601_needs_a_zone) {
  double t = 0;
  cr_assert(caltime_parse("2026-11-01T00:00:00Z", &t));
  cr_expect_eq(t, 1793491200.0);
  cr_assert(caltime_parse("2026-11-01T02:00:00+02:00", &t));
  cr_expect_eq(t, 1793491200.0);
  cr_assert(caltime_parse("2026-11-01T00:00:00.25Z", &t));
  cr_expect_float_eq(t, 1793491200.25, 1e-6);
  cr_expect_not(caltime_parse("2026-11-01T00:00:00", &t), "no zone: ambiguous");
  cr_expect_not(caltime_parse("yesterday", &t));
  cr_expect_not(caltime_parse("1969-12-31T23:59:59Z", &t));
  cr_expect_not(caltime_parse("", &t));
  g_autoptr(GString) s = g_string_new(NULL);
  caltime_append(s, 1793491200.0);
  g_string_append_c(s, ' ');
  caltime_append(s, 1793491200.25);
  g_string_append_c(s, ' ');
  caltime_append(s, 1793491200.9996); /* rounds up to the next second */
  cr_expect_str_eq(s->str, "2026-11-01T00:00:00Z 2026-11-01T00:00:00.250Z 2026-11-01T00:00:01Z");
}

Test(calendar, scenario_start_key) {
  g_autofree char *p = tu_write_tmp("s.yaml", "name: t\nstart: 2026-11-01T00:00:00Z\npools:\n"
                                    "  - {name: p, gpu: A100-80GB, nodes: 1}\n", -1);
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(scenario) s = scenario_load(p, d);
  cr_assert_not_null(s, "%s", diag_join(d));
  cr_expect_eq(s->start_unix, 1793491200.0);
  g_autofree char *q = tu_write_tmp("b.yaml", "name: t\nstart: 2026-11-01 00:00\npools:\n"
                                    "  - {name: p, gpu: A100-80GB, nodes: 1}\n", -1);
  g_autoptr(diag_list) d2 = diag_list_new(0);
  cr_assert_null(scenario_load(q, d2));
  g_autofree char *all = diag_join(d2);
  g_autofree char *want = g_strdup_printf("%s:2:8: start: expected an ISO 8601 time with a zone, "
                                          "e.g. 2026-11-01T00:00:00Z, found '2026-11-01 00:00'", q);
  cr_expect_str_eq(all, want);
  g_autofree char *r = tu_write_tmp("n.yaml", "name: t\npools:\n"
                                    "  - {name: p, gpu: A100-80GB, nodes: 1}\n", -1);
  g_autoptr(diag_list) d3 = diag_list_new(0);
  g_autoptr(scenario) none = scenario_load(r, d3);
  cr_assert_not_null(none);
  cr_expect(isnan(none->start_unix), "no start: not placed at a date");
}

static results *run_dated(const char *start_line) {
  g_autofree char *yaml = g_strdup_printf("name: t\n%sinterval: 10m\npools:\n"
                                          "  - {name: p, gpu: A100-80GB, nodes: 1, gpus_per_node: 2}\n",
                                          start_line);
  g_autofree char *sp = tu_write_temp("cal.yaml", yaml);
  g_autofree char *tp = tu_write_temp("cal.csv", "id,submit_s,kind,gpus,mem_gb,duration_s\n"
                                                 "a,0,batch,1,10,3600\nb,600,training,2,20,1800\n");
  g_autoptr(diag_list) d = diag_list_new(0);
  scenario *sc = scenario_load(sp, d);
  trace *tr = sc ? trace_load(tp, d) : NULL;
  cr_assert_not_null(tr, "%s", diag_join(d));
  sim_options opt = {.gpu_series = TRUE};
  GError *err = NULL;
  results *res = sim_run(sc, tr, &opt, &err);
  cr_assert_not_null(res, "%s", err ? err->message : "");
  static GPtrArray *keep;
  if (!keep) keep = g_ptr_array_new();
  g_ptr_array_add(keep, sc);
  g_ptr_array_add(keep, tr);
  return res;
}

Test(calendar, utc_columns_and_absolute_dcgm_times) {
  results *r = run_dated("start: 2026-11-01T00:00:00Z\n");
  g_autoptr(GString) ts = g_string_new(NULL), jobs = g_string_new(NULL), prom = g_string_new(NULL);
  report_file_string("timeseries.csv", r, ts);
  report_file_string("jobs.csv", r, jobs);
  report_dcgm_openmetrics(r, prom);
  cr_expect(g_str_has_prefix(ts->str, "scenario,seed,pool,t_start_s,t_end_s,allocated,busy,sm_active,"
                             "mem_used_gb,queued,running,slo_violations,t_start_utc\n"),
            "%.200s", ts->str);
  cr_expect(strstr(ts->str, ",p,600,1200,") != NULL);
  cr_expect(strstr(ts->str, ",2026-11-01T00:10:00Z\n") != NULL, "%.400s", ts->str);
  cr_expect(strstr(jobs->str, "submit_utc,start_utc,end_utc\n") != NULL);
  cr_expect(strstr(jobs->str, ",2026-11-01T00:10:00Z,2026-11-01T01:00:00Z,2026-11-01T01:30:00Z\n")
            != NULL, "%s", jobs->str);
  /* interval ending at 600 s: 1793491200 + 600 */
  cr_expect(strstr(prom->str, "\"} 100 1793491800\n") != NULL, "%.600s", prom->str);
  cr_expect(strstr(prom->str, "modelName=\"NVIDIA A100-SXM4-80GB\"") != NULL);
  cr_expect(strstr(prom->str, "instance=\"p-node0:9400\"") != NULL);
  cr_expect(g_str_has_suffix(prom->str, "# EOF\n"));
  results_free(r);
  results *plain = run_dated("");
  g_autoptr(GString) ts0 = g_string_new(NULL), prom0 = g_string_new(NULL);
  report_file_string("timeseries.csv", plain, ts0);
  report_dcgm_openmetrics(plain, prom0);
  cr_expect(strstr(ts0->str, "utc") == NULL, "no UTC columns without a start");
  cr_expect(strstr(prom0->str, "\"} 100 600\n") != NULL, "seconds from 0 without a start");
  results_free(plain);
}

/* Metric names (sharesim_* and DCGM_*) in a PromQL expression. */
static void expr_metrics(const char *expr, GPtrArray *out) {
  for (const char *p = expr; *p; p++) {
    if ((g_str_has_prefix(p, "sharesim_") || g_str_has_prefix(p, "DCGM_")) &&
        (p == expr || !(g_ascii_isalnum(p[-1]) || p[-1] == '_'))) {
      const char *e = p;
      while (g_ascii_isalnum(*e) || *e == '_') e++;
      g_ptr_array_add(out, g_strndup(p, (gsize)(e - p)));
      p = e - 1;
    }
  }
}

Test(calendar, dashboard_uses_only_metrics_dcgm_prom_carries) {
  g_autoptr(JsonParser) jp = json_parser_new();
  GError *err = NULL;
  cr_assert(json_parser_load_from_file(jp, TEST_DATA_DIR "/../../dashboards/sharesim.json", &err),
            "%s", err ? err->message : "");
  JsonObject *root = json_node_get_object(json_parser_get_root(jp));
  JsonArray *panels = json_object_get_array_member(root, "panels");
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
  for (guint i = 0; i < json_array_get_length(panels); i++) {
    JsonArray *targets =
        json_object_get_array_member(json_array_get_object_element(panels, i), "targets");
    for (guint k = 0; k < json_array_get_length(targets); k++)
      expr_metrics(json_object_get_string_member(json_array_get_object_element(targets, k), "expr"),
                   names);
  }
  cr_assert_geq(names->len, 6);
  results *r = run_dated("start: 2026-11-01T00:00:00Z\n");
  g_autoptr(GString) prom = g_string_new(NULL);
  report_dcgm_openmetrics(r, prom);
  for (guint i = 0; i < names->len; i++) {
    /* a counter is declared under its samples' name, NAME_total */
    const char *fam = g_ptr_array_index(names, i);
    g_autofree char *type = g_strdup_printf("# TYPE %s ", fam);
    cr_expect(strstr(prom->str, type) != NULL, "dashboard metric %s not in dcgm.prom", fam);
  }
  /* NVIDIA's dashboard keys its Hostname and gpu variables on DCGM_FI_DEV_FB_FREE */
  cr_expect(strstr(prom->str, "DCGM_FI_DEV_FB_FREE{gpu=\"0\",") != NULL);
  cr_expect(strstr(prom->str, "Hostname=\"p-node0\"") != NULL);
  results_free(r);
}

/* dcgm.prom exports every GPU at every interval, as dcgm-exporter exports every GPU: a GPU
 * with no pod in an interval has a sample of its own series (container, namespace and pod
 * empty, gauges at idle); dcgm.csv, which `import dcgm` reads back, has rows of pods only.
 * Here GPU 1 stays idle while b (2 GPUs) waits for a to free GPU 0. */
Test(calendar, dcgm_prom_exports_every_gpu_idle_or_not) {
  results *r = run_dated("");
  g_autoptr(GString) prom = g_string_new(NULL), csv = g_string_new(NULL);
  report_dcgm_openmetrics(r, prom);
  cr_assert(report_file_string("dcgm.csv", r, csv));
  g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  g_auto(GStrv) lines = g_strsplit(prom->str, "\n", -1);
  guint idle = 0;
  for (guint i = 0; lines[i]; i++) {
    if (!g_str_has_prefix(lines[i], "DCGM_FI_DEV_GPU_UTIL{gpu=\"")) continue;
    const char *stamp = strrchr(lines[i], ' ');
    g_hash_table_add(seen, g_strdup_printf("%c@%s", lines[i][26], stamp + 1));
    if (strstr(lines[i], ",container=\"\",namespace=\"\",pod=\"\",instance=\"p-node0:9400\"")) {
      idle++;
      cr_expect(strstr(lines[i], "\"} 0 ") != NULL, "an idle GPU reads 0 %%: %s", lines[i]);
    }
  }
  guint intervals = (guint)ceil(r->end_s / 600);
  for (guint g = 0; g < 2; g++)
    for (guint k = 1; k <= intervals; k++) {
      g_autofree char *key = g_strdup_printf("%u@%g", g, MIN(600.0 * k, r->end_s));
      cr_expect(g_hash_table_contains(seen, key), "no GPU_UTIL sample of GPU %s", key);
    }
  cr_expect_geq(idle, 6, "GPU 1 idle from 0 to 3600 s: %u idle samples", idle);
  cr_expect(strstr(prom->str, "DCGM_FI_DEV_GPU_UTIL{gpu=\"1\",") != NULL);
  cr_expect(strstr(csv->str, ",,p\n") == NULL, "dcgm.csv: no row without a pod\n%.400s", csv->str);
  results_free(r);
}
