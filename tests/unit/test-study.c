/* test-study.c: the what-if study modules: reading result files back (table, figures),
 * the comparison table and its arithmetic, sweep grids, names and manifests, the sizing
 * search against an exhaustive scan, plan's Pareto front against the definition, and the charts: every one rendered by the real
 * gnuplot (PNG size from its IHDR chunk, SVG parsed with GMarkup and searched for the
 * series names), with names made of gnuplot syntax drawn as text and running nothing. */
#include <criterion/criterion.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>
#include "compare.h"
#include "figures.h"
#include "plan.h"
#include "plot.h"
#include "report.h"
#include "sizing.h"
#include "studydir.h"
#include "studyrun.h"
#include "cleanup.h"
#include "svg.h"
#include "sweep.h"
#include "table.h"
#include "testutil.h"
#include "validate.h"

#define STUDY_DATA TEST_DATA_DIR "/study"

static char *study_tmpdir(void) {
  char *d = g_dir_make_tmp("sharesim-study-XXXXXX", NULL);
  cr_assert_not_null(d);
  return d;
}

static char *study_write(const char *dir, const char *name, const char *text) {
  char *p = g_build_filename(dir, name, NULL);
  cr_assert(g_file_set_contents(p, text, -1, NULL));
  return p;
}

/* ---- table ---- */

static gboolean study_count_rows(const char *const *cells, guint n, gpointer user) {
  (*(guint *)user)++;
  return TRUE;
}

Test(table, quotes_crlf_bom_and_embedded_newlines) {
  g_autofree char *dir = study_tmpdir();
  g_autofree char *p = study_write(dir, "t.csv",
      "\xEF\xBB\xBFname,value,note\r\n"
      "a,1,\"x, \"\"quoted\"\"\"\r\n"
      "\"b\nc\",2.5,\r\n"
      "\r\n"
      "short\n");
  g_autoptr(GError) err = NULL;
  g_autoptr(table) t = table_load(p, &err);
  cr_assert_not_null(t, "%s", err ? err->message : "");
  cr_assert_eq(t->n_columns, 3);
  cr_assert_str_eq(t->header[0], "name"); /* BOM skipped */
  cr_assert_eq(t->rows->len, 3);          /* the blank line is not a row */
  cr_assert_str_eq(table_cell(t, 0, 2), "x, \"quoted\"");
  cr_assert_str_eq(table_cell(t, 1, 0), "b\nc");
  cr_assert_float_eq(table_number(t, 1, 1), 2.5, 1e-12);
  cr_assert(isnan(table_number(t, 1, 2)));
  cr_assert_str_eq(table_cell(t, 2, 2), ""); /* beyond the row's end */
  cr_assert_eq(table_column(t, "value"), 1);
  cr_assert_eq(table_column(t, "nope"), -1);
  cr_assert_eq(table_column_containing(t, "alu"), 1);
  guint rows = 0;
  cr_assert(table_foreach(p, NULL, study_count_rows, &rows, NULL));
  cr_assert_eq(rows, 3);
}

Test(table, empty_and_missing_files_are_errors) {
  g_autofree char *dir = study_tmpdir();
  g_autofree char *p = study_write(dir, "empty.csv", "");
  GError *err = NULL;
  cr_assert_null(table_load(p, &err));
  cr_assert_str_eq(err->message + strlen(err->message) - strlen("empty file (no header row)"),
                   "empty file (no header row)");
  g_clear_error(&err);
  g_autofree char *missing = g_build_filename(dir, "missing.csv", NULL);
  cr_assert_null(table_load(missing, &err));
  cr_assert(g_error_matches(err, G_FILE_ERROR, G_FILE_ERROR_NOENT));
  g_clear_error(&err);
}

/* ---- figures ---- */

/* A summary.json as report-json.c writes it, plus members later models may add. */
static const char study_summary_a[] =
    "{\"scenario\": \"base\", \"trace_file\": \"t.csv\", \"seed\": 4, \"span_s\": 7200,\n"
    " \"totals\": {\"gpus\": 32, \"allocated_frac\": 0.25, \"busy_frac\": 0.125,\n"
    "   \"cost\": 1000, \"idle_cost\": 750, \"cost_per_busy_gpu_h\": 12.5, \"wait_p95_s\": 600,\n"
    "   \"oom_kills\": 3, \"slowdown_mean\": null, \"straggler_new_gpu_h\": 1.5},\n"
    " \"pools\": [{\"name\": \"dev\", \"gpus\": 16, \"cost\": 400, \"wait_p95_s\": 60,\n"
    "   \"oom_kills\": 2, \"unplaceable\": 0, \"queued\": 0}],\n"
    " \"tenants\": [{\"name\": \"team a\", \"cost\": 600}, {\"name\": \"team-b\", \"cost\": 400}],\n"
    " \"slo\": {\"met\": 2, \"attainment_pct\": 99.5, \"worst\": []},\n"
    " \"service_classes\": [{\"name\": \"chat\", \"slo_attainment\": 0.97, \"label\": \"x\"}],\n"
    " \"outcomes\": {\"completed\": 9}, \"engine\": {\"events\": 5}}\n";

static const char study_summary_b[] =
    "{\"scenario\": \"lean\", \"trace_file\": \"t.csv\", \"seed\": 4, \"span_s\": 7200,\n"
    " \"totals\": {\"gpus\": 24, \"allocated_frac\": 0.3, \"busy_frac\": 0.15,\n"
    "   \"cost\": 750, \"idle_cost\": 525, \"cost_per_busy_gpu_h\": 10, \"wait_p95_s\": 900,\n"
    "   \"oom_kills\": 5, \"slowdown_mean\": 1.25},\n"
    " \"pools\": [{\"name\": \"dev\", \"gpus\": 8, \"cost\": 150, \"wait_p95_s\": 300,\n"
    "   \"oom_kills\": 4, \"unplaceable\": 1, \"queued\": 0}],\n"
    " \"tenants\": [{\"name\": \"team a\", \"cost\": 450}, {\"name\": \"team-c\", \"cost\": 300}]}\n";

Test(figures, known_generic_and_null_members) {
  g_autoptr(GError) err = NULL;
  g_autoptr(run_figures) f = figures_parse("dir-a", study_summary_a, sizeof study_summary_a - 1, &err);
  cr_assert_not_null(f, "%s", err ? err->message : "");
  cr_assert_str_eq(f->scenario, "base");
  cr_assert_eq(f->seed, 4);
  cr_assert_float_eq(figures_value(f, "busy_frac"), 0.125, 1e-12);
  const figure *g = figures_find(f, "gpus");
  cr_assert_str_eq(g->label, "GPUs provisioned");
  cr_assert_eq(g->section, FIGURE_SECTION_CAPACITY);
  cr_assert(isnan(figures_value(f, "slowdown_mean")));          /* null: present, NAN */
  cr_assert_not_null(figures_find(f, "slowdown_mean"));
  const figure *extra = figures_find(f, "straggler_new_gpu_h"); /* added by a later model */
  cr_assert_not_null(extra);
  cr_assert_eq(extra->unit, FIGURE_GPU_HOURS);
  cr_assert_eq(extra->section, FIGURE_SECTION_OTHER);
  cr_assert_float_eq(figures_value(f, "pool:dev:gpus"), 16, 1e-12);
  cr_assert_float_eq(figures_value(f, "tenant:team a:cost"), 600, 1e-12);
  cr_assert_float_eq(figures_value(f, "slo:attainment_pct"), 99.5, 1e-12);
  cr_assert_eq(figures_find(f, "slo:attainment_pct")->unit, FIGURE_PERCENT);
  const figure *cls = figures_find(f, "service_classes:chat:slo_attainment");
  cr_assert_not_null(cls);
  cr_assert_eq(cls->unit, FIGURE_FRACTION);
  cr_assert_eq(cls->section, FIGURE_SECTION_SERVICES);
  cr_assert_null(figures_find(f, "outcomes:completed")); /* repeats totals: skipped */
  cr_assert_null(figures_find(f, "engine:events"));
  /* sections in order */
  for (guint i = 1; i < f->figures->len; i++)
    cr_assert(g_array_index(f->figures, figure, i - 1).section <=
              g_array_index(f->figures, figure, i).section);
}

Test(figures, not_a_summary_is_an_input_error) {
  GError *err = NULL;
  cr_assert_null(figures_parse("d", "[1, 2]", 6, &err));
  cr_assert(g_error_matches(err, SHARESIM_ERROR, SHARESIM_ERROR_INPUT));
  g_clear_error(&err);
  cr_assert_null(figures_parse("d", "{\"x\": 1}", 8, &err));
  cr_assert(strstr(err->message, "no \"totals\" object") != NULL);
  g_clear_error(&err);
  cr_assert_null(figures_parse("d", "{\"totals\": ", 11, &err));
  cr_assert(strstr(err->message, "not valid JSON") != NULL);
  g_clear_error(&err);
  g_autofree char *dir = study_tmpdir();
  cr_assert_null(figures_load(dir, &err));
  cr_assert(strstr(err->message, "not a sharesim result folder") != NULL);
  g_clear_error(&err);
}

Test(figures, services_csv_attainment_in_percent_or_share) {
  g_autofree char *dir = study_tmpdir();
  g_autofree char *s = study_write(dir, "summary.json", study_summary_a);
  g_autofree char *c = study_write(dir, "services.csv",
      "id,pool,p99_ms,slo_pct,attainment_pct\n"
      "svc-1,dev,12,99,99.5\n"
      "svc-2,dev,40,99,97.25\n"
      "svc-3,other,5,90,100\n"
      "svc-4,dev,,,\n");
  g_autoptr(GError) err = NULL;
  g_autoptr(run_figures) f = figures_load(dir, &err);
  cr_assert_not_null(f, "%s", err ? err->message : "");
  cr_assert(f->services_file && f->services_slo);
  cr_assert_eq(f->services->len, 4);
  cr_assert_float_eq(figures_value(f, "services:count"), 4, 1e-12);
  cr_assert_float_eq(figures_value(f, "services:with_slo"), 3, 1e-12);
  cr_assert_float_eq(figures_value(f, "services:meeting_target"), 2, 1e-12); /* svc-1, svc-3 */
  cr_assert_float_eq(figures_value(f, "services:min_attainment"), 0.9725, 1e-12);
  const char *worst = NULL;
  cr_assert_float_eq(figures_min_attainment(f, "other", &worst), 1.0, 1e-12);
  cr_assert_str_eq(worst, "svc-3");
  cr_assert_float_eq(figures_min_attainment(f, "dev", &worst), 0.9725, 1e-12);
  cr_assert_str_eq(worst, "svc-2");
}

static char *study_fmt(figure_unit u, double v) {
  GString *s = g_string_new(NULL);
  figures_format(s, u, v);
  return g_string_free(s, FALSE);
}

static char *study_delta(figure_unit u, double v, double base) {
  GString *s = g_string_new(NULL);
  figures_format_delta(s, u, v, base);
  return g_string_free(s, FALSE);
}

Test(figures, formatting_values_and_differences) {
  struct { figure_unit u; double v; const char *want; } values[] = {
    {FIGURE_COUNT, 32, "32"},           {FIGURE_FRACTION, 0.2720, "27.2 %"},
    {FIGURE_PERCENT, 99.5, "99.5 %"},   {FIGURE_SECONDS, 30422.97, "8.45 h"},
    {FIGURE_SECONDS, 45, "45 s"},       {FIGURE_MONEY, 13486.58, "$13486.58"},
    {FIGURE_MONEY, -1.5, "-$1.50"},     {FIGURE_MONEY_PER_HOUR, 19.916, "$19.92/GPU-h"},
    {FIGURE_GPU_HOURS, 3931.94, "3931.9 GPU-h"}, {FIGURE_RATIO, 1.2, "1.20x"},
    {FIGURE_HOURS, 0.5, "0.50 h"},      {FIGURE_COUNT, NAN, "-"},
  };
  for (gsize i = 0; i < G_N_ELEMENTS(values); i++) {
    g_autofree char *got = study_fmt(values[i].u, values[i].v);
    cr_assert_str_eq(got, values[i].want, "value %zu: %s", i, got);
  }
  struct { figure_unit u; double v, base; const char *want; } deltas[] = {
    {FIGURE_COUNT, 24, 32, "-8 (-25.0 %)"},
    {FIGURE_FRACTION, 0.3627, 0.2720, "+9.1 pp"},
    {FIGURE_MONEY, 10114.94, 13486.58, "-$3371.64 (-25.0 %)"},
    {FIGURE_SECONDS, 600, 0, "+10 m"},
    {FIGURE_COUNT, 5, 5, "0"},
    {FIGURE_COUNT, 5, NAN, "-"},
  };
  for (gsize i = 0; i < G_N_ELEMENTS(deltas); i++) {
    g_autofree char *got = study_delta(deltas[i].u, deltas[i].v, deltas[i].base);
    cr_assert_str_eq(got, deltas[i].want, "delta %zu: %s", i, got);
  }
  g_autofree char *clean = figures_clean_text("a\nb\x01" "c\xff");
  cr_assert_str_eq(clean, "a?b?c\xef\xbf\xbd");
  GString *js = g_string_new(NULL);
  figures_json_string(js, "q\"\\\n\x02");
  cr_assert_str_eq(js->str, "\"q\\\"\\\\\\n\\u0002\"");
  g_string_free(js, TRUE);
}

/* ---- compare ---- */

static compare_table *study_compare_ab(void) {
  GPtrArray *runs = g_ptr_array_new();
  g_ptr_array_add(runs, figures_parse("a", study_summary_a, sizeof study_summary_a - 1, NULL));
  g_ptr_array_add(runs, figures_parse("b", study_summary_b, sizeof study_summary_b - 1, NULL));
  cr_assert_not_null(g_ptr_array_index(runs, 0));
  cr_assert_not_null(g_ptr_array_index(runs, 1));
  return compare_build(runs);
}

Test(compare, deltas_and_saving_arithmetic) {
  g_autoptr(compare_table) t = study_compare_ab();
  int gpus = compare_row_index(t, "gpus"), cost = compare_row_index(t, "cost"),
      saving = compare_row_index(t, "saving"), busy = compare_row_index(t, "busy_frac"),
      pool_gpus = compare_row_index(t, "pool:dev:gpus"), extra = compare_row_index(t, "straggler_new_gpu_h"),
      tenant_c = compare_row_index(t, "tenant:team-c:cost");
  cr_assert(gpus >= 0 && cost >= 0 && saving >= 0 && busy >= 0 && pool_gpus >= 0 && extra >= 0 &&
            tenant_c >= 0);
  cr_assert_float_eq(compare_delta(t, gpus, 1), -8, 1e-12);
  cr_assert_float_eq(compare_delta(t, cost, 1), -250, 1e-12);
  cr_assert_float_eq(compare_value(t, saving, 0), 0, 1e-12);
  cr_assert_float_eq(compare_value(t, saving, 1), 250, 1e-12);   /* baseline cost - cost */
  cr_assert_float_eq(compare_delta(t, busy, 1), 0.025, 1e-12);
  cr_assert_float_eq(compare_delta(t, pool_gpus, 1), -8, 1e-12);
  cr_assert(isnan(compare_value(t, extra, 1)));  /* b lacks it */
  cr_assert(isnan(compare_delta(t, extra, 1)));
  cr_assert(isnan(compare_value(t, tenant_c, 0)));
  cr_assert_float_eq(compare_value(t, tenant_c, 1), 300, 1e-12);
  int rfrac = compare_row_index(t, "saving_frac");
  cr_assert_float_eq(compare_value(t, rfrac, 1), 0.25, 1e-12);
  /* rows are grouped by section: capacity first, finance last */
  cr_assert_eq(g_array_index(t->rows, compare_row, 0).section, FIGURE_SECTION_CAPACITY);
  cr_assert_eq(g_array_index(t->rows, compare_row, t->rows->len - 1).section, FIGURE_SECTION_FINANCE);
}

Test(compare, csv_json_and_text_outputs) {
  g_autoptr(compare_table) t = study_compare_ab();
  GString *csv = g_string_new(NULL), *json = g_string_new(NULL), *text = g_string_new(NULL);
  compare_csv(t, csv);
  compare_json(t, json);
  compare_text(t, FALSE, text);
  cr_assert(g_str_has_prefix(csv->str, "section,key,figure,unit,base,lean,delta:lean\n"), "%s", csv->str);
  cr_assert(strstr(csv->str, "\ncapacity,gpus,GPUs provisioned,count,32,24,-8\n") != NULL);
  cr_assert(strstr(csv->str, "\nfinance,cost,cost of the set-up,$,1000,750,-250\n") != NULL);
  cr_assert(strstr(csv->str, "\nfinance,saving,saving against the baseline,$,0,250,250\n") != NULL);
  cr_assert(strstr(csv->str, "\nother figures,straggler_new_gpu_h,straggler_new_gpu_h,GPU-h,1.5,,\n") != NULL);
  cr_assert(strstr(csv->str, "\nfinance,tenant:team a:cost,showback: team a,$,600,450,-150\n") != NULL);
  g_autoptr(JsonParser) p = json_parser_new();
  cr_assert(json_parser_load_from_data(p, json->str, -1, NULL), "%s", json->str);
  cr_assert(strstr(json->str, "{\"key\": \"gpus\", \"label\": \"GPUs provisioned\", \"unit\": "
                              "\"count\", \"section\": \"capacity\", \"values\": [32, 24], "
                              "\"deltas\": [null, -8]}") != NULL, "%s", json->str);
  cr_assert(strstr(text->str, "differences against the baseline 'base'") != NULL);
  cr_assert(strstr(text->str, "-$250.00 (-25.0 %)") != NULL, "%s", text->str);
  cr_assert(strstr(text->str, "+2.5 pp") != NULL);
  cr_assert(strstr(text->str, "allocated GPU-hours") == NULL); /* detail rows: CSV only */
  cr_assert(strstr(text->str, "showback: team a") != NULL);
  cr_assert(strstr(text->str, "pool dev: GPUs") != NULL);
  g_string_truncate(text, 0);
  compare_text(t, TRUE, text);
  cr_assert(strstr(text->str, "showback: team a") == NULL);
  cr_assert(strstr(text->str, "pool dev: GPUs") == NULL);
  cr_assert(strstr(text->str, "saving against the baseline") != NULL);
  g_string_free(csv, TRUE);
  g_string_free(json, TRUE);
  g_string_free(text, TRUE);
}

Test(compare, duplicate_names_are_made_unique) {
  GPtrArray *runs = g_ptr_array_new();
  g_ptr_array_add(runs, figures_parse("x/one", study_summary_a, sizeof study_summary_a - 1, NULL));
  g_ptr_array_add(runs, figures_parse("x/two", study_summary_a, sizeof study_summary_a - 1, NULL));
  g_autoptr(compare_table) t = compare_build(runs);
  cr_assert_str_eq(g_ptr_array_index(t->names, 0), "base");
  cr_assert_str_eq(g_ptr_array_index(t->names, 1), "base (two)");
}

/* ---- sweep ---- */

Test(sweep, grid_order_and_value_splitting) {
  const char *sets[] = {"pools.dev.nodes=1, 2,4", "pools.inf.layouts=[\"3g.40gb x2\", \"7g.80gb\"],[1g.10gb x7]"};
  g_autoptr(GError) err = NULL;
  g_autoptr(sweep_grid) g = sweep_grid_parse(sets, 2, &err);
  cr_assert_not_null(g, "%s", err ? err->message : "");
  cr_assert_eq(g->n_points, 6);
  cr_assert_str_eq(sweep_grid_value(g, 0, 0), "1");
  cr_assert_str_eq(sweep_grid_value(g, 1, 0), "[\"3g.40gb x2\", \"7g.80gb\"]");
  cr_assert_str_eq(sweep_grid_value(g, 1, 1), "[1g.10gb x7]");
  cr_assert_str_eq(sweep_grid_value(g, 0, 1), "1"); /* the last key varies fastest */
  cr_assert_str_eq(sweep_grid_value(g, 0, 2), "2");
  cr_assert_str_eq(sweep_grid_value(g, 0, 5), "4");
  g_auto(GStrv) ov = sweep_grid_overrides(g, 3);
  cr_assert_str_eq(ov[0], "pools.dev.nodes=2");
  cr_assert_str_eq(ov[1], "pools.inf.layouts=[1g.10gb x7]");
  cr_assert_null(ov[2]);
  g_autofree char *n0 = sweep_grid_point_name(g, 0), *n5 = sweep_grid_point_name(g, 5);
  cr_assert_str_eq(n0, "1_nodes-1_layouts-_3g.40gb_x2_7g.80gb_");
  cr_assert_str_eq(n5, "6_nodes-4_layouts-_1g.10gb_x7_");
  cr_assert(util_name_is_safe(n0) && util_name_is_safe(n5));
}

Test(sweep, bad_sets_are_input_errors) {
  const char *bad[][2] = {{"nodes", "expected KEY=V1,V2"}, {"=1,2", "empty key"},
                          {"a=1,,2", "value 2 is empty"}, {"a=", "value 1 is empty"}};
  for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
    GError *err = NULL;
    cr_assert_null(sweep_grid_parse(&bad[i][0], 1, &err));
    cr_assert(g_error_matches(err, SHARESIM_ERROR, SHARESIM_ERROR_INPUT));
    cr_assert(strstr(err->message, bad[i][1]) != NULL, "%s", err->message);
    g_clear_error(&err);
  }
  const char *twice[] = {"a=1", "a=2"};
  GError *err = NULL;
  cr_assert_null(sweep_grid_parse(twice, 2, &err));
  cr_assert(strstr(err->message, "key given twice") != NULL);
  g_clear_error(&err);
  const char *huge[] = {"a=1,2,3,4,5,6,7,8,9,10", "b=1,2,3,4,5,6,7,8,9,10", "c=1,2,3,4,5,6,7,8,9,10",
                        "d=1,2,3,4,5,6,7,8,9,10", "e=1,2,3,4,5,6,7,8,9,10", "f=1,2"};
  cr_assert_null(sweep_grid_parse(huge, 6, &err));
  cr_assert(strstr(err->message, "more than 100000 points") != NULL, "%s", err->message);
  g_clear_error(&err);
}

Test(sweep, manifest_round_trip_and_csv_from_points) {
  const char *sets[] = {"pools.dev.nodes=1,2"};
  sweep_grid *g = sweep_grid_parse(sets, 1, NULL);
  g_autoptr(GError) err = NULL;
  g_autoptr(sweep_spec) s = sweep_spec_new(STUDY_DATA "/study-a.yaml", STUDY_DATA "/study.csv",
                                           NULL, NULL, g, &err);
  cr_assert_not_null(s, "%s", err ? err->message : "");
  cr_assert_eq(strlen(s->scenario_sha256), 64);
  g_autofree char *dir = study_tmpdir();
  g_autofree char *m = sweep_manifest(s);
  g_autofree char *mp = study_write(dir, "sweep.json", m);
  g_autoptr(sweep_spec) back = sweep_manifest_load(dir, &err);
  cr_assert_not_null(back, "%s", err ? err->message : "");
  g_autofree char *m2 = sweep_manifest(back);
  cr_assert_str_eq(m, m2);
  /* point 2 finished, point 1 not */
  g_autofree char *p2 = sweep_point_dir(dir, g_ptr_array_index(s->names, 1));
  cr_assert_eq(g_mkdir_with_parents(p2, 0755), 0);
  g_autofree char *sj = study_write(p2, "summary.json", study_summary_b);
  cr_assert(!sweep_point_done(dir, g_ptr_array_index(s->names, 0)));
  cr_assert(sweep_point_done(dir, g_ptr_array_index(s->names, 1)));
  GString *csv = g_string_new(NULL);
  GPtrArray *missing = g_ptr_array_new_with_free_func(g_free);
  cr_assert(sweep_csv(s, dir, csv, missing, &err));
  cr_assert_eq(missing->len, 1);
  cr_assert_str_eq(g_ptr_array_index(missing, 0), "1_nodes-1");
  cr_assert(g_str_has_prefix(csv->str, "scenario,seed,point,pools.dev.nodes,gpus,span_s,allocated_frac,"), "%s", csv->str);
  /* the row begins with the point's run's scenario name and seed (summary.json's) */
  cr_assert(strstr(csv->str, "\nlean,4,2_nodes-2,2,24,7200,0.3,") != NULL, "%s", csv->str);
  cr_assert_eq(strchr(strchr(csv->str, '\n') + 1, '\n')[1], '\0'); /* header and one row */
  g_string_free(csv, TRUE);
  g_ptr_array_free(missing, TRUE);
  /* a temporary left by a killed run (its writer is dead) is cleaned; one of a running
   * writer (this process) and other folders are not */
  g_autofree char *tmp_name = outdir_temp_name("1_nodes-1", "tmp");
  g_autofree char *live = g_build_filename(dir, "points", tmp_name, NULL);
  memcpy(strstr(live, "XXXXXX"), "Ab3xYz", 6);
  g_autofree char *tmp = g_strdup(live);
  char *pid_at = strstr(tmp, ".tmp-") + 5;
  g_autofree char *dead = g_strdup_printf("%.*s999999999%s", (int)(pid_at - tmp), tmp,
                                          strchr(pid_at, '-'));
  g_free(tmp);
  tmp = g_steal_pointer(&dead);
  g_autofree char *keep = g_build_filename(dir, "points", "1_nodes-1.tmp-keep", NULL);
  cr_assert_eq(g_mkdir_with_parents(tmp, 0755), 0);
  cr_assert_eq(g_mkdir_with_parents(live, 0755), 0);
  cr_assert_eq(g_mkdir_with_parents(keep, 0755), 0);
  g_autofree char *points = g_build_filename(dir, "points", NULL);
  cr_assert_eq(studydir_clean_temporaries(points, (const char *const *)s->names->pdata), 1);
  cr_assert(!g_file_test(tmp, G_FILE_TEST_EXISTS));
  cr_assert(g_file_test(live, G_FILE_TEST_IS_DIR));
  cr_assert(g_file_test(keep, G_FILE_TEST_IS_DIR));
  cr_assert(outdir_remove_tree(dir, NULL));
}

/* ---- sizing ---- */

typedef struct study_probe {
  guint32 threshold;      /* sizes >= threshold pass */
  guint calls;
  GHashTable *seen;
} study_probe;

static sizing_verdict study_probe_fn(guint32 nodes, gpointer user, GError **error) {
  study_probe *p = user;
  p->calls++;
  cr_assert(!g_hash_table_contains(p->seen, GUINT_TO_POINTER(nodes)), "size %u probed twice", nodes);
  g_hash_table_add(p->seen, GUINT_TO_POINTER(nodes));
  return nodes >= p->threshold ? SIZING_PASS : SIZING_FAIL;
}

Test(sizing, search_equals_exhaustive_scan) {
  for (guint32 min = 1; min <= 5; min++)
    for (guint32 max = min; max <= 40; max++)
      for (guint32 th = 1; th <= 45; th++) {
        study_probe p = {th, 0, g_hash_table_new(NULL, NULL)};
        guint32 answer = 99, exhaustive = 0;
        for (guint32 n = min; n <= max && !exhaustive; n++)
          if (n >= th) exhaustive = n;
        GArray *probes = g_array_new(FALSE, FALSE, sizeof(sizing_probe));
        cr_assert(sizing_search(min, max, study_probe_fn, &p, &answer, probes, NULL));
        cr_assert_eq(answer, exhaustive, "min %u max %u threshold %u: %u != %u", min, max, th,
                     answer, exhaustive);
        cr_assert_eq(probes->len, p.calls);
        /* doubling then bisection: about 2 log2(max) runs, never a linear scan */
        guint bound = 2 * (guint)ceil(log2((double)max + 1)) + 2;
        cr_assert(p.calls <= bound, "%u probes for max %u", p.calls, max);
        if (answer && answer > min) { /* justified: answer passes, answer - 1 fails */
          gboolean pass_seen = FALSE, fail_below = FALSE;
          for (guint i = 0; i < probes->len; i++) {
            sizing_probe pr = g_array_index(probes, sizing_probe, i);
            pass_seen |= pr.nodes == answer && pr.pass;
            fail_below |= pr.nodes == answer - 1 && !pr.pass;
          }
          cr_assert(pass_seen && fail_below);
        }
        g_array_free(probes, TRUE);
        g_hash_table_destroy(p.seen);
      }
}

/* ---- plan's Pareto front ---- */

/* j dominates i: costs no more, y no worse, one of them strictly better; NaN never counts. */
static gboolean study_dominates(const double *cost, const double *y, guint j, guint i,
                                gboolean higher) {
  if (isnan(cost[j]) || isnan(y[j]) || isnan(cost[i]) || isnan(y[i])) return FALSE;
  gboolean no_worse = higher ? y[j] >= y[i] : y[j] <= y[i];
  gboolean better = higher ? y[j] > y[i] : y[j] < y[i];
  return cost[j] <= cost[i] && no_worse && (cost[j] < cost[i] || better);
}

/* Random point sets (ties and NaNs included): no point on the front is dominated by any
 * point; every other point with finite coordinates is dominated by one on the front. */
Test(plan, pareto_front_against_the_definition) {
  GRand *rng = g_rand_new_with_seed(28);
  for (guint round = 0; round < 400; round++) {
    guint n = 1 + round % 40;
    double cost[40], y[40];
    gboolean on[40];
    gboolean higher = round % 2;
    for (guint i = 0; i < n; i++) {
      cost[i] = g_rand_int_range(rng, 0, 6) == 0 ? NAN : 100 * g_rand_int_range(rng, 1, 12);
      y[i] = g_rand_int_range(rng, 0, 8) == 0 ? NAN : g_rand_int_range(rng, 0, 10) / 10.0;
    }
    plan_pareto_front(cost, y, n, higher, on);
    guint on_front = 0;
    for (guint i = 0; i < n; i++) {
      gboolean finite = !isnan(cost[i]) && !isnan(y[i]);
      if (on[i]) {
        on_front++;
        cr_assert(finite, "round %u: point %u with a NaN on the front", round, i);
        for (guint j = 0; j < n; j++)
          cr_assert(!study_dominates(cost, y, j, i, higher), "round %u: %u on the front but "
                    "%u dominates it", round, i, j);
      } else if (finite) {
        gboolean by_front = FALSE;
        for (guint j = 0; j < n && !by_front; j++)
          by_front = on[j] && study_dominates(cost, y, j, i, higher);
        cr_assert(by_front, "round %u: %u off the front, dominated by none on it", round, i);
      }
    }
    gboolean any_finite = FALSE;
    for (guint i = 0; i < n; i++) any_finite |= !isnan(cost[i]) && !isnan(y[i]);
    cr_assert_eq(on_front > 0, any_finite, "round %u: a finite set has a front", round);
  }
  g_rand_free(rng);
}

static sizing_verdict study_probe_error(guint32 nodes, gpointer user, GError **error) {
  if (nodes >= 4) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "run %u failed", nodes);
    return SIZING_ERROR;
  }
  return SIZING_FAIL;
}

Test(sizing, probe_errors_stop_the_search) {
  guint32 answer = 7;
  GError *err = NULL;
  cr_assert(!sizing_search(1, 64, study_probe_error, NULL, &answer, NULL, &err));
  cr_assert_str_eq(err->message, "run 4 failed");
  cr_assert_eq(answer, 0);
  g_clear_error(&err);
}

Test(sizing, check_names_every_failure) {
  g_autoptr(run_figures) f = figures_parse("b", study_summary_b, sizeof study_summary_b - 1, NULL);
  sizing_constraints c = {NAN, 3, 120, NAN};
  GString *why = g_string_new(NULL);
  gboolean slo_applied = FALSE;
  cr_assert(!sizing_check(f, "dev", &c, why, &slo_applied));
  cr_assert_str_eq(why->str, "1 job never fits; queue wait p95 5 m > 2 m; 4 OOM kills > 3");
  cr_assert(slo_applied);
  sizing_constraints loose = {0.99, 10, 600, NAN};
  g_string_truncate(why, 0);
  g_autoptr(run_figures) a = figures_parse("a", study_summary_a, sizeof study_summary_a - 1, NULL);
  cr_assert(sizing_check(a, "dev", &loose, why, &slo_applied));
  cr_assert_str_eq(why->str, "");
  cr_assert(!slo_applied); /* no services.csv: the SLO cannot be judged */
  GString *d = g_string_new(NULL);
  sizing_describe(&loose, d);
  cr_assert_str_eq(d->str, "every job fits and none is left queued at the end; queue wait p95 "
                           "<= 10 m; OOM kills <= 10; SLO attainment >= 99.0 % for every service "
                           "(requests that arrive while it waits for a GPU are dropped and count "
                           "against it)");
  loose.slo_ms = 200;
  g_string_truncate(d, 0);
  sizing_describe(&loose, d);
  cr_assert(strstr(d->str, "SLO attainment >= 99.0 % within 200 ms for every service"), "%s", d->str);
  g_string_free(d, TRUE);
  g_string_free(why, TRUE);
}

/* ---- plot ---- */

Test(plot, quoting_keeps_text_inert) {
  GString *s = g_string_new(NULL);
  plot_quote(s, "a'b\nsystem(\"x\")\r`y` @z \\");
  cr_assert_str_eq(s->str, "'a''b system(\"x\") `y` @z \\'");
  g_string_truncate(s, 0);
  GString *long_text = g_string_new(NULL);
  for (int i = 0; i < 300; i++) g_string_append_c(long_text, 'x');
  plot_quote(s, long_text->str);
  cr_assert_eq(s->len, 202);
  g_string_free(long_text, TRUE);
  g_string_free(s, TRUE);
}

Test(plot, formats_and_templates) {
  g_auto(GStrv) f = plot_parse_formats("svg, png", NULL);
  cr_assert_str_eq(f[0], "svg");
  cr_assert_str_eq(f[1], "png");
  cr_assert_null(f[2]);
  GError *err = NULL;
  cr_assert_null(plot_parse_formats("png,gif", &err));
  cr_assert(strstr(err->message, "unknown format 'gif'") != NULL);
  g_clear_error(&err);
  cr_assert_null(plot_parse_formats("png,png", &err));
  cr_assert(strstr(err->message, "repeated format 'png'") != NULL);
  g_clear_error(&err);
  static const char *const names[] = {"common.gp", "terminal.gp", "utilisation.gp", "memory.gp",
      "memory-peak.gp", "memory-gpus.gp", "queue.gp", "wait.gp", "cost.gp", "showback.gp", "slo.gp", "latency.gp",
      "latency-cdf.gp", "compare-utilisation.gp", "compare-cost.gp", "compare-wait.gp", "compare-faults.gp",
      "compare-busy.gp", "sweep.gp"};
  for (gsize i = 0; i < G_N_ELEMENTS(names); i++) {
    const char *t = plot_template_text(names[i]);
    cr_assert_not_null(t, "%s", names[i]);
    cr_assert(strstr(t, "system(") == NULL && strchr(t, '`') == NULL, "%s runs commands", names[i]);
  }
}

/* Width and height from a PNG's IHDR chunk; FALSE when it is not a PNG. */
static gboolean study_png_size(const char *path, guint32 *w, guint32 *h) {
  g_autofree char *data = NULL;
  gsize len = 0;
  if (!g_file_get_contents(path, &data, &len, NULL) || len < 24) return FALSE;
  if (memcmp(data, "\x89PNG\r\n\x1a\n", 8) || memcmp(data + 12, "IHDR", 4)) return FALSE;
  const guchar *p = (const guchar *)data + 16;
  *w = (guint32)p[0] << 24 | (guint32)p[1] << 16 | (guint32)p[2] << 8 | p[3];
  *h = (guint32)p[4] << 24 | (guint32)p[5] << 16 | (guint32)p[6] << 8 | p[7];
  return TRUE;
}

static void study_svg_text(GMarkupParseContext *c, const gchar *text, gsize len, gpointer user,
                           GError **error) {
  g_string_append_len(user, text, (gssize)len);
  g_string_append_c(user, '\n');
}

/* The text of an SVG file (NULL when it does not parse as XML). */
static char *study_svg_text_of(const char *path) {
  g_autofree char *data = NULL;
  gsize len = 0;
  if (!g_file_get_contents(path, &data, &len, NULL)) return NULL;
  GMarkupParser parser = {.text = study_svg_text};
  GString *text = g_string_new(NULL);
  GMarkupParseContext *ctx = g_markup_parse_context_new(&parser, 0, text, NULL);
  gboolean ok = g_markup_parse_context_parse(ctx, data, (gssize)len, NULL) &&
                g_markup_parse_context_end_parse(ctx, NULL);
  g_markup_parse_context_free(ctx);
  if (!ok) {
    g_string_free(text, TRUE);
    return NULL;
  }
  return g_string_free(text, FALSE);
}

/* Checks every image of rep: PNGs of the asked size, SVGs that parse. Returns the
 * number of PNGs. */
static guint study_check_images(const plot_report *rep, guint w, guint h) {
  guint pngs = 0;
  for (guint i = 0; i < rep->images->len; i++) {
    const char *p = g_ptr_array_index(rep->images, i);
    if (g_str_has_suffix(p, ".png")) {
      guint32 pw = 0, ph = 0;
      cr_assert(study_png_size(p, &pw, &ph), "%s is not a PNG", p);
      cr_assert_eq(pw, w, "%s: width %u", p, pw);
      cr_assert_eq(ph, h, "%s: height %u", p, ph);
      pngs++;
    } else if (g_str_has_suffix(p, ".svg")) {
      g_autofree char *t = study_svg_text_of(p);
      cr_assert_not_null(t, "%s does not parse as XML", p);
    }
  }
  return pngs;
}

/* Whether rep holds an image called name (its file name). */
static gboolean study_has_image(const plot_report *rep, const char *name) {
  for (guint i = 0; i < rep->images->len; i++) {
    g_autofree char *base = g_path_get_basename(g_ptr_array_index(rep->images, i));
    if (!strcmp(base, name)) return TRUE;
  }
  return FALSE;
}

/* Asserts that every chart of plot's table (plot_run_chart_names) drew NAME.png and
 * NAME.svg, but memory-gpus, drawn only from the dcgm.csv of `run --dcgm`, which the
 * folders here do not have; returns how many charts drew. */
static guint study_assert_every_chart(const plot_report *rep) {
  g_autofree char *names = plot_run_chart_names();
  g_auto(GStrv) charts = g_strsplit(names, ", ", -1);
  guint n = 0;
  for (guint i = 0; charts[i]; i++) {
    if (!strcmp(charts[i], "memory-gpus")) continue;
    for (int f = 0; f < 2; f++) {
      g_autofree char *file = g_strdup_printf("%s.%s", charts[i], f ? "svg" : "png");
      cr_assert(study_has_image(rep, file), "chart %s drew no %s", charts[i], file);
    }
    n++;
  }
  cr_assert_geq(n, 9, "%s", names);
  return n;
}

static void study_assert_svg_has(const char *dir, const char *chart, const char *const *texts) {
  g_autofree char *file = g_strdup_printf("%s.svg", chart);
  g_autofree char *p = g_build_filename(dir, file, NULL);
  g_autofree char *t = study_svg_text_of(p);
  cr_assert_not_null(t, "%s missing or not XML", p);
  for (guint i = 0; texts[i]; i++)
    cr_assert(strstr(t, texts[i]) != NULL, "%s lacks '%s'", p, texts[i]);
}

/* Runs the study scenario with tenants named in gnuplot syntax, writes the result folder
 * and renames the scenario (in summary.json) to more gnuplot syntax. */
/* The contents of dir/name (owned); fails the test when it cannot be read. */
static char *study_slurp(const char *dir, const char *name) {
  g_autofree char *path = g_build_filename(dir, name, NULL);
  char *text = NULL;
  cr_assert(g_file_get_contents(path, &text, NULL, NULL), "cannot read %s", path);
  return text;
}

static char *study_evil_run(const char *root, const char *name, const char *marker_dir) {
  g_autofree char *yaml = NULL, *csv = NULL;
  cr_assert(g_file_get_contents(STUDY_DATA "/study-a.yaml", &yaml, NULL, NULL));
  cr_assert(g_file_get_contents(STUDY_DATA "/study.csv", &csv, NULL, NULL));
  g_autofree char *touch1 = g_strdup_printf("\"x'); system(\"\"touch %s/pwned1\"\") #\"", marker_dir);
  g_autofree char *touch2 = g_strdup_printf("`touch %s/pwned2`", marker_dir);
  /* the tenant cells: alpha -> touch1, beta -> touch2 */
  GString *t = g_string_new(csv);
  g_autofree char *c1 = g_strdup_printf(",%s,", touch1), *c2 = g_strdup_printf(",%s,", touch2);
  g_string_replace(t, ",alpha,", c1, 0);
  g_string_replace(t, ",beta,", c2, 0);
  results *r = tu_run(yaml, t->str, NULL);
  g_string_free(t, TRUE);
  char *dir = g_build_filename(root, name, NULL);
  g_autoptr(GError) err = NULL;
  cr_assert(report_write_dir(r, dir, TRUE, &err), "%s", err ? err->message : "");
  results_free(r);
  g_autofree char *sp = g_build_filename(dir, "summary.json", NULL);
  g_autofree char *js = NULL;
  cr_assert(g_file_get_contents(sp, &js, NULL, NULL));
  GString *j = g_string_new(js);
  g_autofree char *evil = g_strdup_printf("\"scenario\" : \"%s'\\nsystem(\\\"touch %s/pwned3\\\")\\n`touch %s/pwned4` \\\\\"",
                                          name, marker_dir, marker_dir);
  cr_assert(g_string_replace(j, "\"scenario\" : \"study-a\"", evil, 1) == 1);
  cr_assert(g_file_set_contents(sp, j->str, (gssize)j->len, NULL));
  g_string_free(j, TRUE);
  return dir;
}

static void study_assert_no_marker(const char *marker_dir) {
  for (int i = 1; i <= 4; i++) {
    g_autofree char *m = g_strdup_printf("%s/pwned%d", marker_dir, i);
    cr_assert(!g_file_test(m, G_FILE_TEST_EXISTS), "%s was created: a name ran a command", m);
  }
}

Test(plot, every_chart_rendered_and_names_drawn_as_text, .timeout = 120) {
  g_autofree char *gnuplot = g_find_program_in_path("gnuplot");
  if (!gnuplot) cr_skip_test("gnuplot is not installed (Debian: gnuplot-nox)");
  g_autofree char *root = study_tmpdir();
  g_autofree char *marker_dir = g_build_filename(root, "markers", NULL);
  cr_assert_eq(g_mkdir(marker_dir, 0755), 0);
  g_autofree char *run_a = study_evil_run(root, "evil-a", marker_dir);
  g_autofree char *run_b = study_evil_run(root, "evil-b", marker_dir);

  char *formats[] = {"png", "svg", NULL};
  plot_options opt = {.formats = formats, .width = 640, .height = 400, .gnuplot = gnuplot};
  plot_report rep;
  plot_report_init(&rep);
  g_autofree char *out = g_build_filename(root, "plots-a", NULL);
  g_autoptr(GError) err = NULL;
  cr_assert(plot_run(run_a, out, &opt, &rep, &err), "%s", err ? err->message : "");
  for (guint i = 0; i < rep.failed->len; i++)
    cr_log_error("%s", (const char *)g_ptr_array_index(rep.failed, i));
  cr_assert_eq(rep.failed->len, 0);
  cr_assert_eq(rep.skipped->len, 0, "skipped: %s",
               rep.skipped->len ? (const char *)g_ptr_array_index(rep.skipped, 0) : "");
  /* every chart of the table (`plot --help`'s list; utilisation also per pool: train, dev),
   * in both formats: counted from the table, so that a new chart is checked by its row */
  guint pngs = study_check_images(&rep, 640, 400);
  cr_assert_eq(rep.images->len, 2 * pngs);
  cr_assert_eq(pngs, study_assert_every_chart(&rep) + 2);
  cr_assert(study_has_image(&rep, "utilisation-train.png") &&
            study_has_image(&rep, "utilisation-dev.svg"));
  study_assert_svg_has(out, "utilisation", (const char *const[]){"allocated", "busy", "SM-active", NULL});
  study_assert_svg_has(out, "memory", (const char *const[]){"train in use", "dev capacity", NULL});
  study_assert_svg_has(out, "queue", (const char *const[]){"train", "dev", NULL});
  study_assert_svg_has(out, "wait", (const char *const[]){"train", NULL});
  study_assert_svg_has(out, "cost", (const char *const[]){"busy", "not allocated (idle spend)", NULL});
  /* latency: the CDF of latency.csv, one line per service, and the SLO target */
  study_assert_svg_has(out, "latency", (const char *const[]){"svc", "SLO target", NULL});
  {
    g_autofree char *lcsv = g_build_filename(run_a, "latency.csv", NULL);
    g_autofree char *gtext = study_slurp(out, "latency.gp");
    g_autofree char *dtext = study_slurp(out, "latency.dat");
    g_autofree char *ctext = study_slurp(run_a, "latency.csv");
    cr_assert(strstr(gtext, "from plots/latency-cdf.gp") != NULL, "%s", gtext);
    cr_assert(strstr(gtext, "n_slo = 1\n") != NULL, "%s", gtext);
    /* every row of latency.csv is a point: latency in ms, share in % */
    g_auto(GStrv) rows = g_strsplit(ctext, "\n", -1);
    guint n_rows = 0;
    for (guint i = 1; rows[i] && *rows[i]; i++) {
      g_auto(GStrv) cells = g_strsplit(rows[i], ",", -1);
      cr_assert_str_eq(cells[2], "svc"); /* after the run's scenario and seed */
      double ms = g_ascii_strtod(cells[3], NULL), frac = g_ascii_strtod(cells[4], NULL);
      GString *want = g_string_new(NULL);
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      g_string_append_printf(want, "\n%s ", g_ascii_formatd(buf, sizeof buf, "%.6g", ms));
      g_string_append_printf(want, "%s\n", g_ascii_formatd(buf, sizeof buf, "%.6g", 100 * frac));
      cr_assert(strstr(dtext, want->str) != NULL, "latency.dat lacks '%s'", want->str);
      g_string_free(want, TRUE);
      n_rows++;
    }
    cr_assert_gt(n_rows, 10, "%u rows", n_rows);
    cr_assert(g_str_has_suffix(rows[n_rows], ",1"), "last row %s", rows[n_rows]);
    /* the study's SLO: 100 ms for 99 % of the requests of service 1 */
    cr_assert(g_str_has_suffix(dtext, "\n100 99 1\n"), "%s", dtext);

    /* an older result folder without latency.csv: the percentiles of services.csv */
    cr_assert_eq(g_unlink(lcsv), 0);
    plot_options nog = {.formats = formats, .width = 640, .height = 400, .gnuplot = NULL};
    plot_report r2;
    plot_report_init(&r2);
    g_autofree char *out2 = g_build_filename(root, "plots-old", NULL);
    cr_assert(plot_run(run_a, out2, &nog, &r2, &err), "%s", err ? err->message : "");
    cr_assert_eq(r2.skipped->len, 0);
    g_autofree char *ogp = g_build_filename(out2, "latency.gp", NULL);
    g_autofree char *odat = g_build_filename(out2, "latency.dat", NULL);
    g_autofree char *otext = NULL, *odtext = NULL;
    cr_assert(g_file_get_contents(ogp, &otext, NULL, NULL));
    cr_assert(g_file_get_contents(odat, &odtext, NULL, NULL));
    cr_assert(strstr(otext, "from plots/latency.gp") != NULL, "%s", otext);
    cr_assert(strstr(otext, "series[1] = 'svc'") != NULL, "%s", otext);
    cr_assert(g_str_has_prefix(odtext, "# percentile (%), then the latency (ms) of each service\n50 "),
              "%s", odtext);
    plot_report_clear(&r2);
  }
  /* the names are drawn as text, quotes and all */
  g_autofree char *t1 = g_strdup_printf("x'); system(\"touch %s/pwned1\") #", marker_dir);
  g_autofree char *t2 = g_strdup_printf("`touch %s/pwned2`", marker_dir);
  study_assert_svg_has(out, "showback", (const char *const[]){t1, t2, "gamma", NULL});
  g_autofree char *title = g_strdup_printf("evil-a'?system(\"touch %s/pwned3\")?`touch %s/pwned4`",
                                           marker_dir, marker_dir);
  study_assert_svg_has(out, "utilisation", (const char *const[]){title, NULL});
  /* the data and scripts stay beside the images */
  g_autofree char *gp = g_build_filename(out, "showback.gp", NULL);
  g_autofree char *dat = g_build_filename(out, "showback.dat", NULL);
  g_autofree char *common = g_build_filename(out, "common.gp", NULL);
  cr_assert(g_file_test(gp, G_FILE_TEST_IS_REGULAR) && g_file_test(dat, G_FILE_TEST_IS_REGULAR) &&
            g_file_test(common, G_FILE_TEST_IS_REGULAR));

  /* comparison charts */
  plot_report_clear(&rep);
  plot_report_init(&rep);
  GPtrArray *runs = g_ptr_array_new();
  g_ptr_array_add(runs, figures_load(run_a, NULL));
  g_ptr_array_add(runs, figures_load(run_b, NULL));
  g_autoptr(compare_table) t = compare_build(runs);
  g_autofree char *cout = g_build_filename(root, "plots-compare", NULL);
  cr_assert(plot_compare((const run_figures *const *)t->runs->pdata,
                         (const char *const *)t->names->pdata, 2, cout, &opt, &rep, &err));
  cr_assert_eq(rep.failed->len, 0);
  cr_assert_eq(rep.images->len, 10); /* utilisation, cost, wait, faults, busy over time */
  cr_assert_eq(study_check_images(&rep, 640, 400), 5);
  g_autofree char *na = figures_clean_text(g_ptr_array_index(t->names, 0));
  study_assert_svg_has(cout, "compare-utilisation", (const char *const[]){"allocated", "SM-active", na, NULL});
  study_assert_svg_has(cout, "compare-busy", (const char *const[]){"busy", NULL});
  study_assert_svg_has(cout, "compare-cost", (const char *const[]){"baseline", NULL});

  /* sweep charts: two finished points */
  plot_report_clear(&rep);
  plot_report_init(&rep);
  const char *sets[] = {"pools.train.nodes=1,2"};
  sweep_grid *g = sweep_grid_parse(sets, 1, NULL);
  g_autoptr(sweep_spec) s = sweep_spec_new(STUDY_DATA "/study-a.yaml", STUDY_DATA "/study.csv",
                                           NULL, NULL, g, NULL);
  g_autofree char *sdir = g_build_filename(root, "sweep", NULL);
  g_autofree char *points = g_build_filename(sdir, "points", NULL);
  cr_assert_eq(g_mkdir_with_parents(points, 0755), 0);
  for (guint p = 0; p < 2; p++) {
    g_autofree char *pd = sweep_point_dir(sdir, g_ptr_array_index(s->names, p));
    cr_assert_eq(g_rename(p ? run_b : run_a, pd), 0);
  }
  g_autofree char *swout = g_build_filename(sdir, "plots", NULL);
  cr_assert(plot_sweep(s, sdir, swout, &opt, &rep, &err), "%s", err ? err->message : "");
  cr_assert_eq(rep.failed->len, 0);
  cr_assert_eq(rep.images->len, 12); /* allocated, busy, cost, wait, oom, slo */
  cr_assert_eq(study_check_images(&rep, 640, 400), 6);
  study_assert_svg_has(swout, "sweep-cost", (const char *const[]){"pools.train.nodes", NULL});
  plot_report_clear(&rep);
  study_assert_no_marker(marker_dir);
  cr_assert(outdir_remove_tree(root, NULL));
}

/* Runs yaml and csv into root/run and plots it without gnuplot into root/out (returned,
 * owned), filling rep. */
static char *study_plot_no_gnuplot(const char *root, const char *yaml, const char *csv,
                                   plot_report *rep) {
  g_autofree char *dir = g_build_filename(root, "run", NULL);
  results *r = tu_run(yaml, csv, NULL);
  cr_assert(report_write_dir(r, dir, TRUE, NULL));
  results_free(r);
  char *formats[] = {"png", NULL};
  plot_options opt = {.formats = formats, .width = 500, .height = 300, .gnuplot = NULL};
  plot_report_init(rep);
  char *out = g_build_filename(root, "out", NULL);
  cr_assert(plot_run(dir, out, &opt, rep, NULL));
  return out;
}

Test(plot, without_gnuplot_data_and_scripts_are_written) {
  g_autofree char *root = study_tmpdir();
  plot_report rep;
  g_autofree char *out = study_plot_no_gnuplot(
      root, "name: tiny\npools:\n  - {name: p, gpu: A100-80GB, nodes: 1, gpus_per_node: 2, strategy: exclusive}\n",
      "id,submit_s,kind,gpus,mem_gb,duration_s\nj1,0,batch,1,10,120\nj2,30,batch,2,10,60\n", &rep);
  cr_assert_eq(rep.images->len, 0);
  cr_assert_eq(rep.failed->len, 0);
  /* one pool: no per-pool utilisation chart; no services: no latency, no SLO series */
  cr_assert_geq(rep.scripts->len, 7);
  g_autofree char *dat = g_build_filename(out, "utilisation.dat", NULL);
  g_autofree char *text = NULL;
  cr_assert(g_file_get_contents(dat, &text, NULL, NULL));
  /* j1 alone for 30 s, then j2 waits for both GPUs until j1 ends at 120 s: the first
   * minute is half allocated and busy on average (j1 on one GPU of two) */
  cr_assert(g_str_has_prefix(text, "# time, allocated %, busy %, SM-active %\n0 50 50 50\n"), "%s", text);
  /* no LLM service: no LLM latency chart */
  g_autofree char *llm_gp = g_build_filename(out, "llm-latency.gp", NULL);
  cr_assert(!g_file_test(llm_gp, G_FILE_TEST_EXISTS));
  plot_report_clear(&rep);
  cr_assert(outdir_remove_tree(root, NULL));
}

Test(plot, llm_latency_chart_has_ttft_tpot_and_e2e) {
  g_autofree char *root = study_tmpdir();
  plot_report rep;
  g_autofree char *out = study_plot_no_gnuplot(
      root, "name: llm\nseed: 3\npools:\n  - {name: p, gpu: H100-80GB, nodes: 1, gpus_per_node: 1, strategy: exclusive}\n",
      "id,submit_s,kind,gpus,mem_gb,duration_s,rate_rps,model\nsvc,0,inference,1,0,600,4,llama-3-8b\n", &rep);
  g_autofree char *dir = g_build_filename(root, "run", NULL);
  cr_assert_eq(rep.failed->len, 0);
  g_autofree char *gtext = study_slurp(out, "llm-latency.gp");
  g_autofree char *dtext = study_slurp(out, "llm-latency.dat");
  g_autofree char *ctext = study_slurp(dir, "llm-latency.csv");
  cr_assert(strstr(gtext, "from plots/latency-cdf.gp") != NULL, "%s", gtext);
  cr_assert(strstr(gtext, "series[1] = 'svc ttft'") != NULL, "%s", gtext);
  cr_assert(strstr(gtext, "series[2] = 'svc tpot'") != NULL, "%s", gtext);
  cr_assert(strstr(gtext, "series[3] = 'svc e2e'") != NULL, "%s", gtext);
  /* three blocks, each ending at 100 % */
  g_auto(GStrv) blocks = g_strsplit(dtext, "\n\n\n", -1);
  cr_assert_eq(g_strv_length(blocks), 3, "%s", dtext);
  for (guint i = 0; i < 3; i++) {
    const char *end = blocks[i] + strlen(blocks[i]);
    while (end > blocks[i] && end[-1] == '\n') end--;
    cr_assert(end - blocks[i] > 4 && !strncmp(end - 4, " 100", 4), "block %u: %s", i, blocks[i]);
  }
  /* every row of llm-latency.csv is a point */
  guint rows = 0;
  for (const char *p = ctext; (p = strchr(p, '\n')) && p[1]; p++) rows++;
  guint points = 0;
  for (const char *p = dtext; (p = strstr(p, "\n")); p++)
    if (p[1] >= '0' && p[1] <= '9') points++;
  cr_assert_eq(points, rows, "%u points for %u rows", points, rows);
  cr_assert_gt(rows, 30);
  plot_report_clear(&rep);
  cr_assert(outdir_remove_tree(root, NULL));
}

/* size -j N's scheduling, simulated: up to jobs probes "run" at once and finish in a
 * random order (a seeded generator); probes the search can no longer reach are stopped
 * (dropped). Whatever the order, the search makes the probes of the sequential search, in
 * its order, with its answer; the first planned size is always the one it needs. */
static guint study_parallel_search(guint32 min, guint32 max, guint32 th, guint jobs,
                                   GRand *rand, GArray *path, guint32 *answer) {
  /* rand NULL: the oldest probe finishes first; returns how often the size the search
   * needed was already running when the probe before it ended */
  GArray *known = g_array_new(FALSE, FALSE, sizeof(sizing_probe));
  GArray *running = g_array_new(FALSE, FALSE, sizeof(guint32));
  guint ahead = 0;
  for (;;) {
    sizing_state st;
    sizing_state_of(min, max, known, &st, NULL);
    if (st.done) {
      *answer = st.answer;
      break;
    }
    for (guint i = running->len; i-- > 0;) {
      guint32 n = g_array_index(running, guint32, i);
      if (n < st.range_lo || n > st.range_hi) g_array_remove_index(running, i);
    }
    guint32 next[8];
    guint want = jobs - running->len;
    guint got = sizing_plan(min, max, known, (const guint32 *)running->data, running->len, next,
                            want);
    cr_assert(got <= want);
    gboolean needed_running = FALSE;
    for (guint i = 0; i < running->len; i++)
      needed_running |= g_array_index(running, guint32, i) == st.next;
    cr_assert(needed_running || (got >= 1 && next[0] == st.next),
              "the size the search needs (%u) is planned first", st.next);
    ahead += needed_running;
    for (guint i = 0; i < got; i++) {
      cr_assert(next[i] >= st.range_lo && next[i] <= st.range_hi);
      for (guint k = 0; k < known->len; k++)
        cr_assert_neq(g_array_index(known, sizing_probe, k).nodes, next[i], "probed twice");
      g_array_append_val(running, next[i]);
    }
    cr_assert(running->len >= 1 && running->len <= jobs);
    guint which = rand ? (guint)g_rand_int_range(rand, 0, (gint32)running->len) : 0;
    sizing_probe p = {g_array_index(running, guint32, which), 0};
    p.pass = p.nodes >= th;
    g_array_remove_index(running, which);
    g_array_append_val(known, p);
  }
  sizing_state st;
  sizing_state_of(min, max, known, &st, path);
  g_array_free(known, TRUE);
  g_array_free(running, TRUE);
  return ahead;
}

Test(sizing, parallel_plan_gives_the_sequential_search) {
  GRand *rand = g_rand_new_with_seed(17);
  for (guint jobs = 1; jobs <= 4; jobs++)
    for (guint32 min = 1; min <= 3; min++)
      for (guint32 max = min; max <= 70; max += 3)
        for (guint32 th = 1; th <= 75; th += 2) {
          study_probe p = {th, 0, g_hash_table_new(NULL, NULL)};
          GArray *seq = g_array_new(FALSE, FALSE, sizeof(sizing_probe));
          guint32 want_answer = 0, answer = 99;
          cr_assert(sizing_search(min, max, study_probe_fn, &p, &want_answer, seq, NULL));
          GArray *path = g_array_new(FALSE, FALSE, sizeof(sizing_probe));
          study_parallel_search(min, max, th, jobs, rand, path, &answer);
          cr_assert_eq(answer, want_answer, "-j %u min %u max %u threshold %u", jobs, min, max, th);
          cr_assert_eq(path->len, seq->len);
          for (guint i = 0; i < seq->len; i++) {
            cr_assert_eq(g_array_index(path, sizing_probe, i).nodes,
                         g_array_index(seq, sizing_probe, i).nodes);
            cr_assert_eq(g_array_index(path, sizing_probe, i).pass,
                         g_array_index(seq, sizing_probe, i).pass);
          }
          g_array_free(path, TRUE);
          g_array_free(seq, TRUE);
          g_hash_table_destroy(p.seen);
        }
  g_rand_free(rand);
}

/* With two probes at once and the doubling failing as the planner guesses, the search
 * often finds the probe it needs already running: on [1, 64] with the answer 40 the
 * sequential search makes 12 probes (1 2 4 8 16 32 64, then 48 40 36 38 39); with -j 2,
 * 9 of them were started ahead while the probe before them ran (the six doublings after
 * the first, 48, 38, 39); 56 was started and stopped once 48 passed. Finishing order: the
 * oldest first (runs of equal length). */
Test(sizing, two_probes_at_once_overlap) {
  GArray *path = g_array_new(FALSE, FALSE, sizeof(sizing_probe));
  guint32 answer = 0;
  guint ahead = study_parallel_search(1, 64, 40, 2, NULL, path, &answer);
  cr_assert_eq(answer, 40);
  cr_assert_eq(path->len, 12);
  cr_assert_eq(ahead, 9, "%u of the needed probes were started ahead", ahead);
  g_array_free(path, TRUE);
}

/* ---- studyrun: runs of compare and size on threads ---- */

/* The same scenario run by two threads at once and by the caller's thread writes the same
 * bytes; a task stopped before it starts comes back stopped, with nothing written. */
Test(studyrun, threads_write_what_one_thread_writes) {
  g_autofree char *dir = study_tmpdir();
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(scenario) sc = scenario_load(STUDY_DATA "/study-a.yaml", d);
  cr_assert_not_null(sc);
  trace *tr = trace_load(STUDY_DATA "/study.csv", d);
  cr_assert_not_null(tr);
  const guint jobs[] = {1, 2};
  char *summary[3] = {NULL};
  for (guint k = 0; k < 2; k++) {
    studyrun_pool *pool = studyrun_pool_new(jobs[k], FALSE, "test");
    studyrun_task *t[3];
    for (guint i = 0; i < 3; i++) {
      g_autofree char *name = g_strdup_printf("j%u-%u", jobs[k], i);
      g_autofree char *out = g_build_filename(dir, name, NULL);
      t[i] = studyrun_task_new(sc, tr, out, i);
      if (i == 2) studyrun_stop(t[i]);
      studyrun_submit(pool, t[i]);
    }
    cr_assert_eq(studyrun_pending(pool), 3);
    guint back = 0;
    for (studyrun_task *w; (w = studyrun_wait(pool)) != NULL; back++) cr_assert_lt(w->id, 3);
    cr_assert_eq(back, 3);
    cr_assert(t[2]->stopped && !t[2]->fig && !g_file_test(t[2]->dir, G_FILE_TEST_EXISTS));
    for (guint i = 0; i < 2; i++) {
      cr_assert_not_null(t[i]->fig, "%s", t[i]->error ? t[i]->error->message : "?");
      g_autofree char *p = g_build_filename(t[i]->dir, "summary.json", NULL);
      g_autofree char *text = NULL;
      cr_assert(g_file_get_contents(p, &text, NULL, NULL));
      if (!summary[0]) summary[0] = g_strdup(text);
      cr_assert_str_eq(text, summary[0], "run %u of -j %u", i, jobs[k]);
    }
    for (guint i = 0; i < 3; i++) studyrun_task_free(t[i]);
    studyrun_pool_free(pool);
  }
  g_free(summary[0]);
  trace_free(tr);
  cr_assert(cleanup_remove_tree(dir, NULL));
}

/* The rows' kinds against the fitted constants (issue 27): a row a fit names must be
 * calibration, a calibration row must be named, a prediction row never; a fit that names
 * no row is reported when every family ran. The real table is checked by every
 * `sharesim validate` run (validate_run) and by t-validate.sh's full table. */
Test(validate, kinds_agree_with_the_fits) {
  static const char *const fit_a[] = {"fam.fit.*", NULL};
  static const char *const fit_b[] = {"fam.exact", "fam.gone", NULL};
  const validate_fit fits[] = {{"a", "here", fit_a}, {"b", "there", fit_b}, {NULL, NULL, NULL}};
  validate_ctx c;
  validate_ctx_init(&c, NULL, NULL);
  c.family = "fam";
  validate_set_kind(&c, VALIDATE_CALIBRATION);
  validate_rel(&c, "fam.fit.one", "s", "x", 100, 103, 0.05);
  validate_rel(&c, "fam.exact", "s", "x", 100, 90, 0.05);
  validate_set_kind(&c, VALIDATE_PREDICTION);
  validate_abs(&c, "fam.held_out", "s", "x", 2, 2.5, 1);
  validate_bound(&c, "fam.bound", "s", "x", 0.1, 0.05, FALSE);
  g_autoptr(GString) why = g_string_new(NULL);
  c.only = "fam"; /* one family: a fit naming no row is not judged */
  cr_expect(validate_check_fits(&c, fits, why), "%s", why->str);
  c.only = NULL;
  cr_expect_not(validate_check_fits(&c, fits, why));
  cr_expect_str_eq(why->str, "b names 'fam.gone', which is no row\n");
  g_string_truncate(why, 0);
  validate_set_kind(&c, VALIDATE_PREDICTION);
  validate_rel(&c, "fam.fit.two", "s", "x", 1, 1, 0.05); /* a fitted row called a prediction */
  validate_set_kind(&c, VALIDATE_CALIBRATION);
  validate_rel(&c, "fam.orphan", "s", "x", 1, 1, 0.05); /* calibration, but no fit names it */
  c.only = "fam";
  cr_expect_not(validate_check_fits(&c, fits, why));
  cr_expect_str_eq(why->str, "fam.fit.two is a prediction row, but a was fitted on it\n"
                             "fam.orphan is a calibration row that no fitted constant names\n");
  /* the error by kind: |predicted / measured - 1| over value rows; bounds count in passes */
  g_autoptr(GString) text = g_string_new(NULL);
  validate_write_text(&c, text);
  cr_expect(strstr(text->str, "fam        calibration: 2/3 pass, |rel error| median 3 %, max 10 % "
                              "of 3;  prediction: 3/3 pass, |rel error| median 12.5 %, max 25 % "
                              "of 2;  analytic: -\n"), "%s", text->str);
  cr_expect(strstr(text->str, "; 3 calibration, 3 prediction, 0 analytic\n"), "%s", text->str);
  validate_ctx_clear(&c);
}

/* The real fits name only rows that exist in some family's table (spot check of the
 * prefixes) and none is empty. */
Test(validate, every_fit_names_rows) {
  guint n = 0;
  for (const validate_fit *f = validate_fits(); f->constant; f++, n++) {
    cr_expect_not_null(f->rows[0], "%s names no row", f->constant);
    cr_expect_not_null(f->where);
  }
  cr_expect_geq(n, 8);
}

/* The x-axis labels of an svg_line chart (text-anchor middle), joined by '|'. */
static char *study_svg_ticks(double start_unix, double span_s) {
  double x[2] = {0, span_s}, y[2] = {10, 20};
  svg_series s = {"a", "#000", FALSE, x, y, 2};
  svg_line_chart c = {.title = "t", .y_label = "y", .y_max = 100, .start_unix = start_unix};
  g_autoptr(GString) out = g_string_new(NULL);
  svg_line(out, &c, &s, 1);
  GString *ticks = g_string_new(NULL);
  for (const char *p = out->str; (p = strstr(p, "text-anchor=\"middle\">")); ) {
    p += strlen("text-anchor=\"middle\">");
    const char *e = strchr(p, '<');
    if (p != e && strncmp(p, "y<", 2)) /* not the y axis' label */
      g_string_append_printf(ticks, "%s%.*s", ticks->len ? "|" : "", (int)(e - p), p);
  }
  return g_string_free(ticks, FALSE);
}

/* The report's time axis is ticked on whole hours or days of the clock, not at the run's
 * start plus multiples of a step (issue 30: ticks at 00:12, 06:12). */
Test(svg, time_ticks_on_whole_hours_and_days) {
  g_autofree char *dated = study_svg_ticks(1714522320, 14.8 * 3600); /* 2024-05-01T00:12Z */
  cr_assert_str_eq(dated, "May 01 02:00|04:00|06:00|08:00|10:00|12:00|14:00");
  g_autofree char *days = study_svg_ticks(1714522320, 5 * 86400);
  cr_assert_str_eq(days, "May 02|May 03|May 04|May 05|May 06");
  g_autofree char *hours = study_svg_ticks(-1, 16 * 3600);
  cr_assert_str_eq(hours, "0 h|2 h|4 h|6 h|8 h|10 h|12 h|14 h|16 h");
  g_autofree char *minutes = study_svg_ticks(-1, 225);
  cr_assert_str_eq(minutes, "0 min|1 min|2 min|3 min");
}

/* ---- plan: the blast radius's hard rule (docs/studies.md "plan") ---- */

/* A run where untrusted tenant a's OOM killed one of b's jobs, org tenant c's crash two of
 * b's, and b's own eviction one of b's (same tenant: not across tenants). */
static const char plan_blast_summary[] =
    "{\"totals\": {\"innocent_victims\": 3, \"evictions\": 1}, \"blast_radius\": {"
    "\"oom_kill\": [{\"from\": \"a\", \"to\": \"b\", \"died\": 1, \"stalled\": 0, \"evicted\": 0}],"
    "\"crash\": [{\"from\": \"c\", \"to\": \"b\", \"died\": 2, \"stalled\": 0, \"evicted\": 0}],"
    "\"eviction\": [{\"from\": \"b\", \"to\": \"b\", \"died\": 0, \"stalled\": 0, \"evicted\": 1}]}}";

static plan_class plan_blast_class(void) {
  plan_class k = {.pool = "batch", .min_slo = NAN, .max_wait_p95_s = NAN, .max_slowdown = NAN,
                  .max_oom = -1, .max_victims = -1};
  k.untrusted = g_ptr_array_new_with_free_func(g_free);
  g_ptr_array_add(k.untrusted, g_strdup("a"));
  return k;
}

Test(plan, untrusted_faults_reaching_another_tenant_reject_the_set_up) {
  g_autoptr(GError) err = NULL;
  g_autoptr(run_figures) f = figures_parse("no-such-dir", plan_blast_summary,
                                           sizeof plan_blast_summary - 1, &err);
  cr_assert_not_null(f, "%s", err ? err->message : "");
  cr_assert(f->blast_known);
  cr_assert_eq(f->blast->len, 3);
  cr_assert_null(figures_find(f, "blast_radius:oom_kill"), "no generic figure of the pairs");
  plan_class k = plan_blast_class();
  plan_measure m, out;
  plan_measure_of(f, &k, &m);
  cr_assert_float_eq(m.blast, 3, 1e-12, "across tenants: a -> b and c -> b, not b -> b");
  cr_assert_float_eq(m.blast_untrusted, 1, 1e-12, "of them from untrusted a");
  cr_assert_str_eq(m.blast_src, "a");
  plan_measure *one = &m;
  g_autoptr(GString) why = g_string_new(NULL);
  cr_assert_not(plan_judge(&k, &one, 1, &out, why), "rejected");
  cr_assert(strstr(why->str, "untrusted tenant a's faults reached other tenants (1 job"),
            "%s", why->str);
  plan_measure_clear(&out);
  plan_measure_clear(&m);
  /* c is org: its crash alone breaks no hard rule */
  g_ptr_array_set_size(k.untrusted, 0);
  g_ptr_array_add(k.untrusted, g_strdup("b"));
  plan_measure_of(f, &k, &m);
  cr_assert_float_eq(m.blast_untrusted, 0, 1e-12, "b's faults stayed in b");
  g_string_truncate(why, 0);
  cr_assert(plan_judge(&k, &one, 1, &out, why), "%s", why->str);
  plan_measure_clear(&out);
  plan_measure_clear(&m);
  g_ptr_array_unref(k.untrusted);
}

static void plan_test_measure_free(gpointer m) {
  plan_measure_clear(m);
  g_free(m);
}

/* A resumed plan judges its runs from the journal: the blast radius and its untrusted
 * source come back with the other figures (else a resumed plan would skip the hard rule). */
Test(plan, journal_keeps_the_blast_radius) {
  g_autofree char *dir = g_dir_make_tmp("sharesim-plan-XXXXXX", NULL);
  cr_assert_not_null(dir);
  g_autofree char *sc = g_build_filename(dir, "s.yaml", NULL);
  g_autofree char *tr = g_build_filename(dir, "t.csv", NULL);
  g_autofree char *jn = g_build_filename(dir, "p.journal", NULL);
  cr_assert(g_file_set_contents(sc, "name: s\n", -1, NULL));
  cr_assert(g_file_set_contents(tr, "id\n", -1, NULL));
  plan_measure m = {.wait_p95_s = 12.5, .slo_min = NAN, .blast = 3, .blast_untrusted = 1,
                    .blast_src = "tenant\ta"};
  for (int round = 0; round < 2; round++) {
    plan p = {.scenario_path = sc, .trace_path = tr, .opt = {.journal = jn, .n_seeds = 1}};
    p.resumed = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, plan_test_measure_free);
    g_autoptr(GError) err = NULL;
    cr_assert(plan_journal_open(&p, &err), "%s", err ? err->message : "");
    if (round == 0) { /* the first plan writes one run */
      g_autoptr(GString) s = g_string_new(NULL);
      plan_journal_line(s, "c0-n1-s0", &m);
      cr_assert(plan_journal_append(&p, s, &err));
    } else { /* the second reads it back */
      const plan_measure *r = g_hash_table_lookup(p.resumed, "c0-n1-s0");
      cr_assert_not_null(r, "the run is resumed");
      cr_assert_float_eq(r->wait_p95_s, 12.5, 0);
      cr_assert_float_eq(r->blast, 3, 0);
      cr_assert_float_eq(r->blast_untrusted, 1, 0);
      cr_assert_str_eq(r->blast_src, "tenant\ta");
      cr_assert_null(r->slo_worst);
    }
    plan_journal_close(&p);
    g_hash_table_destroy(p.resumed);
  }
  g_remove(jn);
  g_remove(sc);
  g_remove(tr);
  g_rmdir(dir);
}

/* plan's early give-up (plan_give_up_late): on every n up to 400, as many late starts as
 * it says put GSL's p95 of the n waits over the limit whatever the other waits are (at the
 * limit exactly: the largest they may be), and one fewer never suffices (the others at 0,
 * the late ones just over the limit: the p95 interpolates below it). */
Test(plan, give_up_count_is_the_fewest_late_starts_that_break_the_p95) {
  const double limit = 600;
  double *w = g_new(double, 400);
  for (guint64 n = 1; n <= 400; n++) {
    guint64 k = plan_give_up_late(n);
    cr_assert(k >= 1 && k <= n, "n %" G_GUINT64_FORMAT ": %" G_GUINT64_FORMAT, n, k);
    double mean, p50, p95, max;
    for (guint64 i = 0; i < n; i++) w[i] = i < n - k ? limit : limit * (1 + 1e-9);
    results_wait_stats(w, n, &mean, &p50, &p95, &max);
    cr_assert(p95 > limit, "n %" G_GUINT64_FORMAT ": %" G_GUINT64_FORMAT " late starts leave "
              "the p95 at %.17g", n, k, p95);
    if (k < 2) continue;
    for (guint64 i = 0; i < n; i++) w[i] = i < n - (k - 1) ? 0 : limit * (1 + 1e-12);
    results_wait_stats(w, n, &mean, &p50, &p95, &max);
    cr_assert(p95 <= limit, "n %" G_GUINT64_FORMAT ": %" G_GUINT64_FORMAT " late starts "
              "already break it (p95 %.17g)", n, k - 1, p95);
  }
  g_free(w);
}
