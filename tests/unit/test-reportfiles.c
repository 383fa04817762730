/* test-reportfiles.c: the table of result files and formats (report-files.c) and the
 * streamed sinks (report-sinks.c), checked by walking the table: a new row is checked by
 * these tests without editing them. */
#include <criterion/criterion.h>
#include <glib/gstdio.h>
#include <string.h>
#include "outdir.h"
#include "report.h"
#include "testutil.h"

/* Batch and training jobs on two pools, an inference service with latencies and an LLM
 * service: every file of the table has rows (with --dcgm). */
static const char rf_yaml[] =
    "name: files\nseed: 3\ninterval: 60s\npools:\n"
    "  - {name: serve, gpu: H100-80GB, nodes: 1, gpus_per_node: 2, strategy: exclusive}\n"
    "  - {name: train, gpu: A100-80GB, nodes: 1, gpus_per_node: 2, strategy: time-slicing}\n"
    "routing:\n  - {kind: inference, pool: serve}\n  - {pool: train}\n";
static const char rf_csv[] =
    "id,submit_s,kind,tenant,gpus,mem_gb,duration_s,rate_rps,service_ms,model,slo_ms,"
    "slo_ttft_ms,slo_tpot_ms\n"
    "b1,0,batch,a,1,10,300,,,,,,\n"
    "b2,10,training,b,2,20,600,,,,,,\n"
    "svc,0,inference,a,1,10,400,20,10,,50,,\n"
    "chat,5,inference,b,1,0,300,2,,llama-3-8b,,500,50\n"
    "b3,20,batch,b,1,10,100,,,,,,\n";

static void rf_rm_rf(const char *path) {
  GDir *d = g_dir_open(path, 0, NULL);
  for (const char *name; d && (name = g_dir_read_name(d)) != NULL;) {
    g_autofree char *child = g_build_filename(path, name, NULL);
    if (g_file_test(child, G_FILE_TEST_IS_DIR)) rf_rm_rf(child);
    else g_unlink(child);
  }
  if (d) g_dir_close(d);
  g_rmdir(path);
}

static char *rf_read(const char *dir, const char *name) {
  g_autofree char *path = g_build_filename(dir, name, NULL);
  char *text = NULL;
  return g_file_get_contents(path, &text, NULL, NULL) ? text : NULL;
}

/* The folder's files but the marker, each a row of the table. */
static guint rf_count_files(const char *dir) {
  g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
  cr_assert_not_null(d, "%s", dir);
  guint n = 0;
  for (const char *name; (name = g_dir_read_name(d)) != NULL;) {
    if (!strcmp(name, OUTDIR_MARKER)) continue;
    cr_expect_not_null(report_file_find(name), "%s: %s is no row of the table", dir, name);
    n++;
  }
  return n;
}

/* The same run twice through report_simulate: its rows streamed into one folder, and kept
 * (--dcgm) into another. The kept folder holds every file of the table; the streamed one
 * every file no option turns on; each file is well-formed in its format, the streamed
 * bytes are the kept bytes, and the kept bytes are what report_file_string makes of the
 * kept results. */
Test(reportfiles, a_run_writes_every_file_of_the_table_well_formed) {
  g_autofree char *sp = tu_write_temp("files.yaml", rf_yaml);
  g_autofree char *tp = tu_write_temp("files.csv", rf_csv);
  g_autoptr(diag_list) diags = diag_list_new(0);
  g_autoptr(scenario) sc = scenario_load(sp, diags);
  g_autoptr(trace) tr = sc ? trace_load(tp, diags) : NULL;
  cr_assert_not_null(tr);
  g_autofree char *top = g_dir_make_tmp("sharesim-files-XXXXXX", NULL);
  g_autofree char *streamed = g_build_filename(top, "streamed", NULL);
  g_autofree char *kept = g_build_filename(top, "kept", NULL);
  g_autoptr(GError) err = NULL;
  sim_options so = {0}, ko = {.gpu_series = TRUE};
  g_autoptr(results) rs = report_simulate(sc, tr, &so, streamed, &err);
  cr_assert_not_null(rs, "%s", err ? err->message : "?");
  cr_assert_not_null(so.job_sink, "the plain run streams its rows");
  g_autoptr(results) rk = report_simulate(sc, tr, &ko, kept, &err);
  cr_assert_not_null(rk, "%s", err ? err->message : "?");
  cr_assert_null(ko.job_sink, "a file that reads the kept rows is on: nothing streams");
  guint n, on = 0;
  const report_file *t = report_files(&n);
  for (guint i = 0; i < n; i++) {
    const report_file *f = &t[i];
    g_autofree char *k = rf_read(kept, f->name), *s = rf_read(streamed, f->name);
    cr_assert_not_null(k, "%s: not in the kept folder", f->name);
    char *why = f->format->malformed(k, strlen(k));
    cr_expect_null(why, "%s is not well-formed %s: %s", f->name, f->format->name, why);
    g_free(why);
    g_autoptr(GString) again = g_string_new(NULL);
    cr_assert(report_file_string(f->name, rk, again), "%s", f->name);
    cr_expect_str_eq(again->str, k, "%s: report_file_string", f->name);
    if (f->option) {
      cr_expect_null(s, "%s: written without its option", f->name);
      continue;
    }
    on++;
    cr_assert_not_null(s, "%s: not in the streamed folder", f->name);
    cr_expect_str_eq(s, k, "%s: the streamed bytes are the kept bytes", f->name);
  }
  cr_expect_eq(rf_count_files(kept), n);
  cr_expect_eq(rf_count_files(streamed), on);
  rf_rm_rf(top);
}

/* The table itself: names unique, summary.json last (it marks a complete folder), each
 * row with the writer its kind calls and a format of the format table; each format refuses
 * an empty file. */
Test(reportfiles, every_row_has_its_writer_and_a_known_format) {
  guint n, nf;
  const report_file *t = report_files(&n);
  const report_format *const *fmt = report_formats(&nf);
  cr_assert_gt(n, 0);
  cr_expect_str_eq(t[n - 1].name, "summary.json");
  for (guint i = 0; i < n; i++) {
    const report_file *f = &t[i];
    cr_expect_eq(report_file_find(f->name), f, "%s: a second row of that name", f->name);
    gboolean known = FALSE;
    for (guint k = 0; k < nf; k++) known |= fmt[k] == f->format;
    cr_expect(known, "%s: its format is not in the format table", f->name);
    cr_expect(f->what && *f->what, "%s: no description", f->name);
    switch (f->stream) {
    case REPORT_WHOLE_RUN: cr_expect_not_null(f->write, "%s", f->name); break;
    case REPORT_PER_JOB: cr_expect(f->header && f->job_row, "%s", f->name); break;
    case REPORT_PER_SERVICE: cr_expect(f->header && f->service_row, "%s", f->name); break;
    case REPORT_PER_INTERVAL: cr_expect(f->header && f->interval_row, "%s", f->name); break;
    default: cr_expect_fail("%s: stream kind %d", f->name, f->stream);
    }
  }
  for (guint k = 0; k < nf; k++) {
    char *why = fmt[k]->malformed("", 0);
    cr_expect_not_null(why, "format %s takes an empty file", fmt[k]->name);
    g_free(why);
  }
}

/* Each format refuses what is not its own: a CSV record with a field too many, a text with
 * a control character, JSON that is not an object, OpenMetrics without its # EOF. */
Test(reportfiles, formats_refuse_broken_files) {
  const struct {
    const report_format *f;
    const char *good, *bad;
  } cases[] = {
      {&report_format_csv, "a,b\n1,\"x,\"\"y\"\n", "a,b\n1,2,3\n"},
      {&report_format_text, "line\n", "li\x01ne\n"},
      {&report_format_json, "{\"a\" : 1}\n", "[1]\n"},
      {&report_format_openmetrics, "# TYPE x gauge\nx{a=\"1\"} 2 3\n# EOF\n",
       "# TYPE x gauge\nx 2 3\n"},
      /* a counter declared under its samples' name (issue 30: promtool check metrics) */
      {&report_format_openmetrics, "# TYPE c_total counter\nc_total{a=\"1\"} 2 3\n# EOF\n",
       "# TYPE c_total gauge\nc_total_total 2 3\n# EOF\n"},
  };
  for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
    char *good = cases[i].f->malformed(cases[i].good, strlen(cases[i].good));
    char *bad = cases[i].f->malformed(cases[i].bad, strlen(cases[i].bad));
    cr_expect_null(good, "%s: %s", cases[i].f->name, good);
    cr_expect_not_null(bad, "%s takes %s", cases[i].f->name, cases[i].bad);
    g_free(good);
    g_free(bad);
  }
}
