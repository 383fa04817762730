/* test-import.c: `sharesim import` without the command line: the importer table (import.c),
 * the streaming CSV reader (csvread_foreach), the openb, PAI and DCGM importers on the
 * real files in ../shared/traces (skipped when absent) and on small bad inputs, the
 * fractional sharing strategy, and the openb-like generator against the openb pod list
 * (two-sample Kolmogorov-Smirnov statistics). */
#include <criterion/criterion.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include "import.h"
#include "gen.h"
#include "testutil.h"

#define IDIR TEST_DATA_DIR "/import/"
#define OPENB SHARED_TRACES_DIR "/alibaba-gpu-v2023-openb/"
#define PAI SHARED_TRACES_DIR "/alibaba-gpu-v2020-pai/"

static gboolean ti_have(const char *path) { return g_file_test(path, G_FILE_TEST_EXISTS); }

/* Runs a format on files into memory; the ctx keeps every output in its buffers. */
/* The importer called name, from the table (import.c), as `sharesim import` finds it. */
static const import_format *ti_format(const char *name) {
  const import_format *f = import_find(name);
  cr_assert(f, "no importer '%s' in the table", name);
  return f;
}

static import_ctx *ti_run(const import_format *f, const char *const *files, guint n,
                          gboolean skip_bad, const char *const *opts) {
  import_ctx *c = import_ctx_new(files, n, skip_bad);
  for (guint i = 0; opts && opts[i]; i += 2) {
    import_option_add(c, opts[i], opts[i + 1]);
    for (const import_opt *o = f->options; o && o->name; o++)
      if (!strcmp(o->name, opts[i]) && o->out > 0) import_request_out(c, (import_out)o->out, NULL);
  }
  GError *err = NULL;
  gboolean ok = f->run(c, &err);
  cr_assert(ok, "%s failed: %s", f->name, err ? err->message : "?");
  return c;
}

static char *ti_diags(const import_ctx *c) { return diag_join(c->diags); }

static char *ti_notes(const import_ctx *c) {
  GString *s = g_string_new(NULL);
  for (guint i = 0; i < c->notes->len; i++)
    g_string_append_printf(s, "%s\n", (const char *)g_ptr_array_index(c->notes, i));
  return g_string_free(s, FALSE);
}

/* Loads the text as a trace (and phases), failing the test on problems. */
static trace *ti_trace(const char *csv, const char *phases) {
  char *path = tu_write_temp("imported.csv", csv);
  g_autoptr(diag_list) d = diag_list_new(0);
  trace *t = trace_load(path, d);
  if (t && phases) {
    g_autofree char *pp = tu_write_temp("imported-phases.csv", phases);
    trace_load_phases(t, pp, d);
  }
  g_autofree char *msg = diag_join(d);
  cr_assert(t && !diag_has_errors(d), "imported trace does not load: %s", msg);
  g_free(path);
  return t;
}

static const job_spec *ti_job(const trace *t, const char *id) {
  int64_t i = trace_find(t, id);
  cr_assert(i >= 0, "job %s missing", id);
  return tu_row(t, (guint)i);
}

/* ---- csvread_foreach ---- */

typedef struct ti_rows {
  GPtrArray *seen; /* "line:header:error-or-cells" */
  guint stop_after;
} ti_rows;

static gboolean ti_row(const csvread_row *row, void *ud) {
  ti_rows *r = ud;
  GString *s = g_string_new(NULL);
  g_string_append_printf(s, "%u:%d:", row->line, row->header);
  if (row->error) g_string_append_printf(s, "E %s", row->error);
  for (guint i = 0; i < row->n; i++) g_string_append_printf(s, "%s[%s]", i ? "," : "", row->cells[i]);
  g_ptr_array_add(r->seen, g_string_free(s, FALSE));
  return !r->stop_after || r->seen->len < r->stop_after;
}

Test(import_csv, rows_header_bom_crlf_quotes_and_bad_rows) {
  g_autofree char *p = tu_write_temp("raw.csv", "\xEF\xBB\xBF" "a,b\r\n 1 , \"x,y\"\r\n\r\n2,\"multi\nline\"\n3,\"bad\"x\n4\n");
  ti_rows r = {.seen = g_ptr_array_new_with_free_func(g_free)};
  g_autoptr(diag_list) d = diag_list_new(0);
  cr_assert(csvread_foreach(p, 0, ti_row, &r, d));
  cr_assert_eq(d->count, 0);
  cr_assert_eq(r.seen->len, 5);
  cr_expect_str_eq(g_ptr_array_index(r.seen, 0), "1:1:[a],[b]");
  cr_expect_str_eq(g_ptr_array_index(r.seen, 1), "2:0:[1],[x,y]");
  cr_expect_str_eq(g_ptr_array_index(r.seen, 2), "4:0:[2],[multi\nline]");
  cr_expect(g_str_has_prefix(g_ptr_array_index(r.seen, 3), "6:0:E column 2: expected a cell quoted"),
            "%s", (char *)g_ptr_array_index(r.seen, 3));
  cr_expect_str_eq(g_ptr_array_index(r.seen, 4), "7:0:[4]");
  g_ptr_array_unref(r.seen);
}

Test(import_csv, no_header_flag_and_early_stop) {
  g_autofree char *p = tu_write_temp("nohdr.csv", "m1,CPU,96\nm2,T4,96\nm3,T4,96\n");
  ti_rows r = {.seen = g_ptr_array_new_with_free_func(g_free), .stop_after = 2};
  g_autoptr(diag_list) d = diag_list_new(0);
  cr_assert(csvread_foreach(p, CSVREAD_NO_HEADER, ti_row, &r, d));
  cr_assert_eq(r.seen->len, 2);
  cr_expect_str_eq(g_ptr_array_index(r.seen, 0), "1:0:[m1],[CPU],[96]");
  g_ptr_array_unref(r.seen);
  g_autoptr(diag_list) d2 = diag_list_new(0);
  ti_rows r2 = {.seen = g_ptr_array_new_with_free_func(g_free)};
  cr_expect_not(csvread_foreach("/nonexistent/x.csv", 0, ti_row, &r2, d2));
  cr_expect_eq(d2->count, 1);
  cr_expect(strstr(g_ptr_array_index(d2->messages, 0), "/nonexistent/x.csv: cannot open"));
  g_ptr_array_unref(r2.seen);
}

/* ---- alibaba-openb ---- */

Test(import_openb, real_pod_and_node_lists) {
  if (!ti_have(OPENB "openb_pod_list_default.csv")) cr_skip_test("shared traces absent");
  const char *files[] = {OPENB "openb_pod_list_default.csv"};
  const char *opts[] = {"nodes", OPENB "openb_node_list_gpu_node.csv", "scenario-out", "-", NULL};
  g_autoptr(import_ctx) c = ti_run(ti_format("alibaba-openb"), files, 1, FALSE, opts);
  g_autofree char *msg = ti_diags(c);
  cr_assert(import_ok(c), "%s", msg);
  cr_expect_eq(c->rows_read, 8152);
  cr_expect_eq(c->jobs_written, 6203); /* 8,152 - 1,088 CPU-only - 861 never scheduled */
  g_autofree char *notes = ti_notes(c);
  cr_expect(strstr(notes, "7064 GPU pods, 3078 of them asking for part of one GPU"), "%s", notes);
  cr_expect(strstr(notes, "left out: 1088 CPU-only pods, 861 GPU pods never scheduled"), "%s", notes);
  cr_expect(strstr(notes, "nodes: 1213 listed, 1213 with GPUs, 6212 GPUs"), "%s", notes);
  cr_expect(strstr(notes, "3596 inference, 2607 batch"), "%s", notes);
  /* the scenario loads and has every GPU */
  g_autofree char *sp = tu_write_temp("openb.yaml", import_out_text(c, IMPORT_OUT_SCENARIO));
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(scenario) sc = scenario_load(sp, d);
  g_autofree char *sm = diag_join(d);
  cr_assert_not_null(sc, "%s", sm);
  cr_expect_eq(pool_gpus(scenario_pool(sc, 0)), 6212);
  cr_expect_eq(scenario_pool(sc, 0)->strategy, tu_strategy("fractional"));
  cr_expect(strstr(import_out_text(c, IMPORT_OUT_SCENARIO), "#   G2 x 8: 549 nodes"));
  /* known rows */
  g_autoptr(trace) t = ti_trace(import_out_text(c, IMPORT_OUT_TRACE), NULL);
  cr_assert_eq(trace_n_jobs(t), 6203);
  const job_spec *j = ti_job(t, "openb-pod-0001"); /* 1,460,LS,Running,427061,12902960,427061 */
  cr_expect_eq(j->kind, JOB_INFERENCE);
  cr_expect_eq(j->submit_ns, INT64_C(427061) * SIM_NS_PER_S);
  cr_expect_eq(j->duration_ns, INT64_C(12475899) * SIM_NS_PER_S);
  cr_expect_float_eq(j->gpu_frac, 0.46, 1e-12);
  cr_expect_eq(j->mem_bytes, INT64_C(7360000000)); /* 0.46 x 16 GB */
  cr_expect_str_eq(j->tenant, "LS");
  cr_expect_eq(j->priority, 1);
  guint frac = 0, multi = 0;
  for (guint i = 0; i < trace_n_jobs(t); i++) {
    frac += tu_row(t, i)->gpu_frac < 1.0;
    multi += tu_row(t, i)->gpus > 1;
  }
  cr_expect_eq(frac, 2573); /* the 3,078 fractional pods minus those never scheduled */
  cr_expect_eq(multi, 74);
}

Test(import_openb, bad_rows_fail_with_file_line_column) {
  const char *files[] = {IDIR "openb-bad.csv"};
  g_autoptr(import_ctx) c = ti_run(ti_format("alibaba-openb"), files, 1, FALSE, NULL);
  g_autofree char *msg = ti_diags(c);
  cr_assert_eq(c->diags->count, 6, "%s", msg);
  cr_expect(strstr(msg, IDIR "openb-bad.csv:3:4: num_gpu: expected a whole number of GPUs"), "%s", msg);
  cr_expect(strstr(msg, IDIR "openb-bad.csv:4:5: gpu_milli: expected thousandths of a GPU from 0 to 1000, found '1200'"), "%s", msg);
  cr_expect(strstr(msg, IDIR "openb-bad.csv:5:11: scheduled_time: expected a time at or after creation_time, found '20'"), "%s", msg);
  cr_expect(strstr(msg, IDIR "openb-bad.csv:6:7: qos: expected a qos class with a kind"), "%s", msg);
  cr_expect(strstr(msg, IDIR "openb-bad.csv:7:1: name: expected a pod name not seen before, found 'pod-a' again"), "%s", msg);
  cr_expect(strstr(msg, IDIR "openb-bad.csv:8: expected 11 fields as in the header, found 10"), "%s", msg);
}

Test(import_openb, skip_bad_counts_and_keeps_the_good_rows) {
  const char *files[] = {IDIR "openb-bad.csv"};
  const char *opts[] = {"qos-kind", "BE=training", NULL};
  g_autoptr(import_ctx) c = ti_run(ti_format("alibaba-openb"), files, 1, TRUE, opts);
  cr_assert(import_ok(c));
  cr_expect_eq(c->rows_read, 10);
  cr_expect_eq(c->rows_skipped, 6);
  cr_expect_eq(c->skipped_diags->messages->len, 6);
  cr_expect_eq(c->jobs_written, 2);
  g_autoptr(trace) t = ti_trace(import_out_text(c, IMPORT_OUT_TRACE), NULL);
  cr_expect_eq(ti_job(t, "pod-a")->kind, JOB_INFERENCE);
  const job_spec *i = ti_job(t, "pod-i");
  cr_expect_eq(i->kind, JOB_TRAINING); /* --qos-kind BE=training */
  cr_expect_eq(i->gpus, 4);
  cr_expect_eq(i->duration_ns, 50 * SIM_NS_PER_S);
}

/* The table (import.c) that both `sharesim import` and validate read: every row found by its
 * name, names unique; import_text runs a row in memory and joins the rows' problems. */
Test(import_table, rows_found_by_name_and_run_in_memory) {
  guint n = 0;
  for (const import_format *const *f = import_formats; *f; f++, n++) {
    cr_expect_eq(import_find((*f)->name), *f, "%s", (*f)->name);
    for (const import_format *const *g = import_formats; g < f; g++)
      cr_expect_str_neq((*g)->name, (*f)->name);
  }
  /* the built-in importers are rows (a new one is a row more: nothing here counts them) */
  static const char *const built_in[] = {"dcgm", "alibaba-openb", "alibaba-pai", "azure-llm",
                                         "mooncake"};
  for (guint i = 0; i < G_N_ELEMENTS(built_in); i++)
    cr_expect(import_find(built_in[i]), "%s", built_in[i]);
  cr_expect_geq(n, G_N_ELEMENTS(built_in));
  cr_expect_null(import_find("no-such-format"));
  const char *files[] = {IDIR "openb-bad.csv"};
  g_autofree char *csv = NULL;
  GError *err = NULL;
  cr_expect_not(import_text("alibaba-openb", files, 1, NULL, &csv, NULL, &err));
  cr_assert(err);
  cr_expect(strstr(err->message, "import alibaba-openb: " IDIR "openb-bad.csv:3:4: num_gpu"), "%s",
            err->message);
  g_clear_error(&err);
  const char *dfiles[] = {IDIR "dcgm-range.json"};
  cr_assert(import_text("dcgm", dfiles, 1, NULL, &csv, NULL, &err), "%s", err ? err->message : "");
  g_autoptr(trace) t = ti_trace(csv, NULL);
  cr_expect_eq(ti_job(t, "jupyter/jupyter-alice")->kind, JOB_NOTEBOOK);
}

Test(import_openb, bad_options) {
  const char *files[] = {IDIR "openb-bad.csv"};
  import_ctx *c = import_ctx_new(files, 1, TRUE);
  import_option_add(c, "qos-kind", "LS=gpu");
  GError *err = NULL;
  cr_expect_not(ti_format("alibaba-openb")->run(c, &err));
  cr_expect(strstr(err->message, "--qos-kind: expected QOS=KIND"), "%s", err->message);
  g_clear_error(&err);
  import_ctx_free(c);
  c = import_ctx_new(files, 1, TRUE);
  import_option_add(c, "gpu-model", "P100");
  cr_expect_not(ti_format("alibaba-openb")->run(c, &err));
  cr_expect(strstr(err->message, "--gpu-model: expected a catalogue model"), "%s", err->message);
  g_clear_error(&err);
  import_ctx_free(c);
}

/* ---- alibaba-pai ---- */

static char *ti_header(const char *name) {
  g_autofree char *p = g_build_filename(PAI, "headers", name, NULL);
  char *text = NULL;
  cr_assert(g_file_get_contents(p, &text, NULL, NULL), "cannot read %s", p);
  g_strchomp(text);
  return text;
}

Test(import_pai, tables_with_official_headers_and_without) {
  if (!ti_have(PAI "headers/pai_task_table.header")) cr_skip_test("shared traces absent");
  g_autofree char *th = ti_header("pai_task_table.header");
  g_autofree char *jh = ti_header("pai_job_table.header");
  g_autofree char *sh = ti_header("pai_sensor_table.header");
  /* task table with its header; job and sensor tables as released (no header, by name) */
  g_autofree char *task_csv = g_strdup_printf(
      "%s\n"
      "j1,worker,2.0,Terminated,1000.0,1600.0,600.0,29.3,50.0,T4\n"
      "j1,ps,1.0,Terminated,1000.0,1600.0,600.0,29.3,,\n"
      "j2,tensorflow,1.0,Terminated,2000.0,5600.0,600.0,29.3,800.0,V100\n"
      "j3,worker,1.0,Waiting,,,600.0,29.3,100.0,\n"
      "j4,worker,1.0,Running,3000.0,,600.0,29.3,100.0,P100\n"
      "j5,worker,1.0,Terminated,3000.0,2000.0,600.0,29.3,100.0,P100\n",
      th);
  (void)jh;
  (void)sh;
  g_autofree char *tp = tu_write_temp("task_with_header.csv", task_csv);
  g_autofree char *dir = g_path_get_dirname(tp);
  g_autofree char *jp = g_build_filename(dir, "pai_job_table.csv", NULL);
  g_assert(g_file_set_contents(jp, "j1,i1,alice,Terminated,900.0,1700.0\nj2,i2,bob,Failed,1500.0,5700.0\n", -1, NULL));
  g_autofree char *sp = g_build_filename(dir, "pai_sensor_table.csv", NULL);
  g_assert(g_file_set_contents(sp,
      "j1,worker,w0,i1,m1,/dev/nvidia0,100,30.0,1,2,1.5,3.0,0,0,0,0\n"
      "j1,worker,w1,i1,m2,/dev/nvidia0,100,50.0,1,2,1.5,5.0,0,0,0,0\n", -1, NULL));
  const char *files[] = {tp, jp, sp};
  g_autoptr(import_ctx) c = ti_run(ti_format("alibaba-pai"), files, 3, FALSE, NULL);
  g_autofree char *msg = ti_diags(c);
  cr_assert_eq(c->diags->count, 1, "%s", msg);
  cr_expect(strstr(msg, "task_with_header.csv:7:6: end_time: expected a time at or after start_time, found '2000.0'"), "%s", msg);
  cr_expect_eq(c->jobs_written, 2);
  g_autoptr(trace) t = ti_trace(import_out_text(c, IMPORT_OUT_TRACE), NULL);
  const job_spec *w = ti_job(t, "j1/worker");
  cr_expect_eq(w->kind, JOB_TRAINING); /* a gang on GPU shares stays a training gang */
  cr_expect_eq(w->gpus, 2);
  cr_expect_float_eq(w->gpu_frac, 0.5, 1e-12);
  cr_expect_eq(w->submit_ns, 900 * SIM_NS_PER_S);    /* job submission */
  cr_expect_eq(w->duration_ns, 600 * SIM_NS_PER_S);  /* task run */
  cr_expect_str_eq(w->tenant, "alice");
  cr_expect_eq(w->mem_bytes, INT64_C(5000000000));   /* largest max_gpu_wrk_mem */
  /* mean gpu_wrk_util 40 % of the GPU on a half share: the share while it computes, 0.8 of
   * the time */
  cr_expect_float_eq(w->sm, 0.5, 1e-12);
  cr_expect_float_eq(w->gpu_util, 0.8, 1e-12);
  const job_spec *tf = ti_job(t, "j2/tensorflow");
  cr_expect_eq(tf->kind, JOB_TRAINING);
  cr_expect_eq(tf->gpus, 8);
  cr_expect_float_eq(tf->gpu_frac, 1.0, 1e-12);
  cr_expect_eq(tf->mem_bytes, INT64_C(16000000000)); /* no sensor: 16 GB per GPU */
  g_autofree char *notes = ti_notes(c);
  cr_expect(strstr(notes, "1 gangs whose workers each hold part of a GPU (gpu_frac < 1 per "
                          "worker;"), "%s", notes);
}

/* The sensor table's gpu_wrk_util as the job's activity (written fixtures with the official
 * header rows, no shared files): a whole-GPU task's mean utilisation per GPU is its gpu_util
 * (sm stays the default), a task on a share uses its share while it computes; a bad
 * utilisation is an error at file:line:column. */
Test(import_pai, sensor_utilisation_is_gpu_util) {
  g_autofree char *tp = tu_write_temp(
      "pai_task_table.csv",
      "job_name,task_name,inst_num,status,start_time,end_time,plan_cpu,plan_mem,plan_gpu,gpu_type\n"
      "a,worker,1,Terminated,0,600,600,29.3,200,V100\n"
      "b,worker,1,Terminated,0,600,600,29.3,25,T4\n"
      "c,worker,1,Terminated,0,600,600,29.3,100,T4\n");
  g_autofree char *dir = g_path_get_dirname(tp);
  g_autofree char *sp = g_build_filename(dir, "pai_sensor_table.csv", NULL);
  const char *sensor_head =
      "job_name,task_name,worker_name,inst_id,machine,gpu_name,cpu_usage,gpu_wrk_util,avg_mem,"
      "max_mem,avg_gpu_wrk_mem,max_gpu_wrk_mem,read,write,read_count,write_count\n";
  g_autofree char *good = g_strconcat(sensor_head,
      "a,worker,w0,i1,m1,/dev/nvidia0,100,120,1,2,1,3,0,0,0,0\n"  /* 120 % of 2 GPUs */
      "b,worker,w0,i2,m2,/dev/nvidia0,100,10,1,2,1,1,0,0,0,0\n"   /* 10 % on a quarter */
      "c,worker,w0,i3,m3,/dev/nvidia0,100,0,1,2,1,1,0,0,0,0\n", NULL); /* idle */
  g_assert(g_file_set_contents(sp, good, -1, NULL));
  const char *files[] = {tp, sp};
  g_autoptr(import_ctx) c = ti_run(ti_format("alibaba-pai"), files, 2, FALSE, NULL);
  g_autofree char *msg = ti_diags(c);
  cr_assert(import_ok(c), "%s", msg);
  g_autoptr(trace) t = ti_trace(import_out_text(c, IMPORT_OUT_TRACE), NULL);
  const job_spec *a = ti_job(t, "a/worker"), *b = ti_job(t, "b/worker"), *cc = ti_job(t, "c/worker");
  cr_expect_float_eq(a->gpu_util, 0.6, 1e-12);
  cr_expect_float_eq(a->sm, 1.0, 1e-12);
  cr_expect_float_eq(b->sm, 0.25, 1e-12);
  cr_expect_float_eq(b->gpu_util, 0.4, 1e-12); /* 0.1 of the GPU = 0.4 of the time at 0.25 */
  cr_expect_float_eq(cc->gpu_util, 0.01, 1e-12);
  g_autofree char *bad = g_strconcat(sensor_head,
      "a,worker,w0,i1,m1,/dev/nvidia0,100,lots,1,2,1,3,0,0,0,0\n", NULL);
  g_assert(g_file_set_contents(sp, bad, -1, NULL));
  g_autoptr(import_ctx) e = ti_run(ti_format("alibaba-pai"), files, 2, FALSE, NULL);
  g_autofree char *emsg = ti_diags(e);
  cr_expect_not(import_ok(e));
  cr_expect(strstr(emsg, "pai_sensor_table.csv:2:8: gpu_wrk_util: expected a percentage >= 0, "
                         "found 'lots'"), "%s", emsg);
}

Test(import_pai, real_minibatch_files_and_machine_spec) {
  if (!ti_have(PAI "pai_machine_spec.csv")) cr_skip_test("shared traces absent");
  const char *files[] = {PAI "mini-batch-time/job_1_norm.csv", PAI "mini-batch-time/job_4_norm.csv",
                         PAI "pai_machine_spec.csv"};
  const char *opts[] = {"scenario-out", "-", "iteration-s", "0.5", NULL};
  g_autoptr(import_ctx) c = ti_run(ti_format("alibaba-pai"), files, 3, FALSE, opts);
  g_autofree char *msg = ti_diags(c);
  cr_assert(import_ok(c), "%s", msg);
  cr_expect_eq(c->rows_read, 3000 + 21829);
  cr_expect_eq(c->jobs_written, 2);
  g_autoptr(trace) t = ti_trace(import_out_text(c, IMPORT_OUT_TRACE), NULL);
  const job_spec *j1 = ti_job(t, "job_1_norm");
  cr_expect_eq(j1->kind, JOB_TRAINING); /* 10 workers at 25 % of a GPU each */
  cr_expect_eq(j1->gpus, 10);
  cr_expect_float_eq(j1->gpu_frac, 0.25, 1e-12);
  cr_expect_eq(j1->duration_ns, 1494 * SIM_NS_PER_S); /* last step 2,988 x 0.5 s */
  cr_expect_float_eq(ti_job(t, "job_4_norm")->gpu_frac, 0.5, 1e-12);
  const char *yaml = import_out_text(c, IMPORT_OUT_SCENARIO);
  cr_expect(strstr(yaml, "1897 nodes, 1814 with GPUs, 6742 GPUs"), "%s", yaml);
  cr_expect(strstr(yaml, "#   P100 x 2: 798 nodes"), "%s", yaml);
  cr_expect(strstr(yaml, "    nodes: 6742\n"), "%s", yaml);
}

Test(import_pai, unknown_table_is_an_error) {
  if (!ti_have(PAI "philly_runtime.csv")) cr_skip_test("shared traces absent");
  const char *files[] = {PAI "philly_runtime.csv"};
  g_autoptr(import_ctx) c = ti_run(ti_format("alibaba-pai"), files, 1, FALSE, NULL);
  g_autofree char *msg = ti_diags(c);
  cr_expect(strstr(msg, "philly_runtime.csv:1: cannot tell which PAI table this is"), "%s", msg);
  cr_expect_eq(c->jobs_written, 0);
}

/* ---- dcgm ---- */

Test(import_dcgm, prometheus_json_pods_kinds_peaks_and_phases) {
  const char *files[] = {IDIR "dcgm-range.json"};
  const char *opts[] = {"phases-out", "-", NULL};
  g_autoptr(import_ctx) c = ti_run(ti_format("dcgm"), files, 1, FALSE, opts);
  g_autofree char *msg = ti_diags(c);
  cr_assert(import_ok(c), "%s", msg);
  cr_expect_eq(c->rows_read, 360 + 180 + 10 + 1);
  cr_expect_eq(c->jobs_written, 2);
  g_autoptr(trace) t = ti_trace(import_out_text(c, IMPORT_OUT_TRACE),
                                import_out_text(c, IMPORT_OUT_PHASES));
  const job_spec *nb = ti_job(t, "jupyter/jupyter-alice");
  cr_expect_eq(nb->kind, JOB_NOTEBOOK); /* default rule notebook=ns:jupyter* */
  cr_expect_str_eq(nb->tenant, "jupyter");
  cr_expect_eq(nb->submit_ns, 0);
  cr_expect_eq(nb->duration_ns, 3600 * SIM_NS_PER_S);
  cr_expect_float_eq(nb->busy, 0.25, 1e-9);
  cr_expect_float_eq(nb->sm, 0.6, 1e-9);
  cr_expect_eq(nb->mem_bytes, INT64_C(2147483648)); /* 2048 MiB before the phase */
  const job_spec *tr = ti_job(t, "ml/bert-worker-0");
  cr_expect_eq(tr->kind, JOB_TRAINING); /* training=pod:*-worker-* */
  cr_expect_eq(tr->submit_ns, 600 * SIM_NS_PER_S);
  cr_expect_eq(tr->duration_ns, 1800 * SIM_NS_PER_S);
  /* GPU_UTIL 98 % all its life is its gpu_util; SM_ACTIVE 0.45 over it its sm */
  cr_expect_float_eq(tr->gpu_util, 0.98, 1e-12);
  cr_expect_float_eq(tr->sm, 0.459184, 1e-12);
  cr_expect_eq(tr->mem_bytes, INT64_C(21474836480));
  /* phases: the notebook's memory step at 40 min, the trainer's SM step at 20 min */
  cr_assert_eq(t->phases->len, 2, "%s", import_out_text(c, IMPORT_OUT_PHASES));
  for (guint i = 0; i < t->phases->len; i++) {
    const job_phase *ph = &g_array_index(t->phases, job_phase, i);
    if (ph->job == (guint)trace_find(t, "jupyter/jupyter-alice")) {
      cr_expect_eq(ph->after_ns, 2400 * SIM_NS_PER_S);
      cr_expect_eq(ph->set, PHASE_SET_MEM);
      cr_expect_eq(ph->mem_bytes, INT64_C(32212254720));
    } else {
      cr_expect_eq(ph->after_ns, 1200 * SIM_NS_PER_S);
      cr_expect_eq(ph->set, PHASE_SET_SM);
      cr_expect_float_eq(ph->sm, 0.714286, 1e-12); /* SM_ACTIVE 0.7 over GPU_UTIL 0.98 */
    }
  }
  g_autofree char *notes = ti_notes(c);
  cr_expect(strstr(notes, "10 samples without a pod label"), "%s", notes);
  cr_expect(strstr(notes, "1 samples of other metrics ignored"), "%s", notes);
}

Test(import_dcgm, kind_rules_come_first) {
  const char *files[] = {IDIR "dcgm-range.json"};
  const char *opts[] = {"kind-rule", "inference=ns:ml", "default-kind", "notebook", NULL};
  g_autoptr(import_ctx) c = ti_run(ti_format("dcgm"), files, 1, FALSE, opts);
  g_autoptr(trace) t = ti_trace(import_out_text(c, IMPORT_OUT_TRACE), NULL);
  const job_spec *tr = ti_job(t, "ml/bert-worker-0");
  cr_expect_eq(tr->kind, JOB_INFERENCE);
  cr_expect_float_eq(tr->service_ms, 100, 1e-12);
  cr_expect_float_eq(tr->rate_rps, 0.98 * 1000 / 100, 1e-9); /* busy 98 % at 100 ms a request */
  import_ctx *bad = import_ctx_new(files, 1, FALSE);
  import_option_add(bad, "kind-rule", "notebook=jupyter*");
  GError *err = NULL;
  cr_expect_not(ti_format("dcgm")->run(bad, &err));
  cr_expect(strstr(err->message, "--kind-rule: expected KIND=ns:GLOB or KIND=pod:GLOB"), "%s", err->message);
  g_clear_error(&err);
  import_ctx_free(bad);
}

Test(import_dcgm, csv_bad_rows_and_skip_bad) {
  const char *files[] = {IDIR "dcgm-bad.csv"};
  g_autoptr(import_ctx) c = ti_run(ti_format("dcgm"), files, 1, FALSE, NULL);
  g_autofree char *msg = ti_diags(c);
  cr_assert_eq(c->diags->count, 3, "%s", msg);
  cr_expect(strstr(msg, IDIR "dcgm-bad.csv:3:3: value of DCGM_FI_DEV_GPU_UTIL: expected a percentage from 0 to 100, found '150'"), "%s", msg);
  cr_expect(strstr(msg, IDIR "dcgm-bad.csv:4:1: timestamp: expected Unix seconds or an ISO 8601 time, found 'yesterday'"), "%s", msg);
  cr_expect(strstr(msg, IDIR "dcgm-bad.csv:6: expected 8 fields as in the header, found 6"), "%s", msg);
  g_autoptr(import_ctx) s = ti_run(ti_format("dcgm"), files, 1, TRUE, NULL);
  cr_assert(import_ok(s));
  cr_expect_eq(s->rows_skipped, 3);
  cr_expect_eq(s->jobs_written, 1);
  g_autoptr(trace) t = ti_trace(import_out_text(s, IMPORT_OUT_TRACE), NULL);
  const job_spec *p = ti_job(t, "ns/p1");
  cr_expect_eq(p->kind, JOB_BATCH);
  cr_expect_eq(p->mem_bytes, INT64_C(1073741824));
  /* GPU_UTIL 50 % is its gpu_util; SM_ACTIVE 0.5 over it: every SM while a kernel runs */
  cr_expect_float_eq(p->gpu_util, 0.5, 1e-12);
  cr_expect_float_eq(p->sm, 1.0, 1e-12);
}

/* A trainer idle all its life still gets a valid gpu_util (the smallest written), one with
 * only GPU_UTIL keeps the default sm, one with only SM_ACTIVE keeps gpu_util 1 and gets the
 * SM activity as sm; gpu_util is a property of the whole life (GPU_UTIL 40 % then 80 %:
 * 0.6), its segments' SM activity over it the sm phases. */
Test(import_dcgm, gpu_util_of_trainers_from_gpu_util) {
  GString *csv = g_string_new("timestamp,metric,value,Hostname,gpu,UUID,pod,namespace\n");
  for (int t = 60; t <= 3600; t += 60) {
    g_string_append_printf(csv, "%d,DCGM_FI_DEV_GPU_UTIL,0,n1,0,GPU-0,idle-train-a,ml\n", t);
    g_string_append_printf(csv, "%d,DCGM_FI_DEV_GPU_UTIL,70,n1,1,GPU-1,util-train-b,ml\n", t);
    g_string_append_printf(csv, "%d,DCGM_FI_PROF_SM_ACTIVE,0.3,n1,2,GPU-2,sm-train-c,ml\n", t);
    g_string_append_printf(csv, "%d,DCGM_FI_DEV_GPU_UTIL,%d,n1,3,GPU-3,step-train-d,ml\n", t,
                           t < 1800 ? 40 : 80);
    g_string_append_printf(csv, "%d,DCGM_FI_PROF_SM_ACTIVE,%g,n1,3,GPU-3,step-train-d,ml\n", t,
                           t < 1800 ? 0.2 : 0.6);
  }
  g_autofree char *path = tu_write_temp("dcgm-util.csv", csv->str);
  g_string_free(csv, TRUE);
  const char *files[] = {path};
  const char *opts[] = {"phases-out", "-", "window", "5m", NULL};
  g_autoptr(import_ctx) c = ti_run(ti_format("dcgm"), files, 1, FALSE, opts);
  g_autofree char *msg = ti_diags(c);
  cr_assert(import_ok(c), "%s", msg);
  g_autoptr(trace) t = ti_trace(import_out_text(c, IMPORT_OUT_TRACE),
                                import_out_text(c, IMPORT_OUT_PHASES));
  const job_spec *a = ti_job(t, "ml/idle-train-a"), *b = ti_job(t, "ml/util-train-b");
  const job_spec *cc = ti_job(t, "ml/sm-train-c"), *d = ti_job(t, "ml/step-train-d");
  cr_expect_eq(a->kind, JOB_TRAINING);
  cr_expect_float_eq(a->gpu_util, 0.01, 1e-12);
  cr_expect_float_eq(b->gpu_util, 0.7, 1e-12);
  cr_expect_float_eq(b->sm, 1.0, 1e-12); /* the training default */
  cr_expect_float_eq(cc->gpu_util, 1.0, 1e-12);
  cr_expect_float_eq(cc->sm, 0.3, 1e-12);
  /* 5-minute windows, the edge windows left out: 40 % in 5 windows, 80 % in 6 */
  cr_expect_float_eq(d->gpu_util, util_round_sig((5 * 0.4 + 6 * 0.8) / 11, 6), 1e-12);
  cr_expect_float_eq(d->sm, util_round_sig(0.2 / d->gpu_util, 6), 1e-12);
  gboolean stepped = FALSE;
  for (guint i = 0; i < t->phases->len; i++) {
    const job_phase *ph = &g_array_index(t->phases, job_phase, i);
    if (ph->job != (guint)trace_find(t, "ml/step-train-d")) continue;
    cr_expect_eq(ph->set, PHASE_SET_SM);
    cr_expect_float_eq(ph->sm, util_round_sig(0.6 / d->gpu_util, 6), 1e-12);
    stepped = TRUE;
  }
  cr_expect(stepped, "%s", import_out_text(c, IMPORT_OUT_PHASES));
}

Test(import_dcgm, json_that_is_not_a_query_response) {
  g_autofree char *p = tu_write_temp("notprom.json", "{\"data\": 3}\n");
  g_autofree char *q = tu_write_temp("broken.json", "{\"data\": [\n");
  const char *files[] = {p, q};
  g_autoptr(import_ctx) c = ti_run(ti_format("dcgm"), files, 2, TRUE, NULL);
  g_autofree char *msg = ti_diags(c);
  cr_expect_eq(c->diags->count, 2, "%s", msg);
  cr_expect(strstr(msg, "notprom.json: expected a Prometheus query response"), "%s", msg);
  cr_expect(strstr(msg, "broken.json: expected Prometheus query JSON"), "%s", msg);
}

/* ---- the fractional strategy ---- */

#define FRAC_POOL(extra)                                                                     \
  "name: f\npools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n    gpus_per_node: 1\n" \
  "    strategy: fractional\n" extra

#define HDR "id,submit_s,kind,gpus,mem_gb,duration_s,gpu_frac,sm\n"

Test(fractional, shares_pack_onto_one_gpu_while_they_sum_to_one) {
  results *r = tu_run(FRAC_POOL(""), HDR "a,0,batch,1,10,100,0.5,0.5\nb,0,batch,1,10,100,0.5,0.5\n"
                                         "c,0,batch,1,10,100,0.3,0.3\n", NULL);
  /* a and b fill the GPU; each needs no more than its share, but enforcing the shares
   * costs the context-switch part of every slice (25 us of 1024 us) */
  double c = 1.0 - 25.0 / 1024.0;
  TU_NEAR(tu_job(r, "a")->end_s, 100 / c, 1e-3);
  TU_NEAR(tu_job(r, "b")->end_s, 100 / c, 1e-3);
  /* c waits for a share to come free, then runs alone at full speed */
  TU_NEAR(tu_job(r, "c")->start_s, 100 / c, 1e-3);
  TU_NEAR(tu_job(r, "c")->end_s, 100 / c + 100, 1e-3);
  results_free(r);
}

Test(fractional, idle_compute_is_borrowed_up_to_fraction_cap) {
  /* alone, a job with share 0.5 that could use the whole GPU borrows the idle half */
  results *r = tu_run(FRAC_POOL(""), HDR "a,0,batch,1,10,100,0.5,1\n", NULL);
  TU_NEAR(tu_job(r, "a")->end_s, 100, 1e-6);
  results_free(r);
  /* fraction_cap 0.25: it may borrow only a quarter: speed 0.75 */
  r = tu_run(FRAC_POOL("    fraction_cap: 0.25\n"), HDR "a,0,batch,1,10,100,0.5,1\n", NULL);
  TU_NEAR(tu_job(r, "a")->end_s, 100 / 0.75, 1e-3);
  results_free(r);
  /* two such jobs: each gets its guaranteed half (less the context-switch share) */
  r = tu_run(FRAC_POOL(""), HDR "a,0,batch,1,10,100,0.5,1\nb,0,batch,1,10,100,0.5,1\n", NULL);
  double cap = 1.0 - 25.0 / 1024.0; /* 25 us switch per 1024 us slice */
  TU_NEAR(tu_job(r, "a")->end_s, 100 / (0.5 * cap), 1e-3);
  results_free(r);
}

Test(fractional, memory_share_is_a_hard_limit_for_the_job_alone) {
  /* b grows past its 0.5 x 80 GB limit at 10 s: it dies, a is untouched */
  results *r = tu_run(FRAC_POOL(""), HDR "a,0,batch,1,30,100,0.5,0.5\nb,0,batch,1,30,100,0.5,0.5\n",
                      "job_id,after_s,mem_gb\nb,10,45\n");
  cr_expect_eq(tu_job(r, "a")->outcome, OUTCOME_COMPLETED);
  cr_expect_eq(tu_job(r, "a")->kills, 0);
  cr_expect_geq(tu_job(r, "b")->oom_kills, 1);
  const pool_result *p = &g_array_index(r->pools, pool_result, 0);
  cr_expect_eq(p->innocent_victims, 0);
  results_free(r);
  /* a job whose memory cannot fit its own share can never run */
  g_autofree char *sp = tu_write_temp("f.yaml", FRAC_POOL(""));
  g_autofree char *tp = tu_write_temp("f.csv", HDR "big,0,batch,1,50,100,0.5,0.5\n");
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(scenario) sc = scenario_load(sp, d);
  g_autoptr(trace) t = trace_load(tp, d);
  sim_check_jobs(sc, t, d);
  g_autofree char *msg = diag_join(d);
  cr_expect(strstr(msg, "needs 50.00 GB per worker; its share 0.5 of a A100-80GB holds"), "%s", msg);
}

/* ---- openb-like against the openb pod list ---- */

typedef struct ti_sample {
  GArray *frac, *gpus, *dur; /* double */
} ti_sample;

static void ti_sample_init(ti_sample *s) {
  s->frac = g_array_new(FALSE, FALSE, sizeof(double));
  s->gpus = g_array_new(FALSE, FALSE, sizeof(double));
  s->dur = g_array_new(FALSE, FALSE, sizeof(double));
}

static void ti_sample_add(ti_sample *s, const job_spec *j) {
  double f = j->gpu_frac, g = j->gpus, d = util_ns_to_seconds(j->duration_ns);
  if (j->gpus == 1) g_array_append_val(s->frac, f);
  g_array_append_val(s->gpus, g);
  g_array_append_val(s->dur, d);
}

static gint ti_dcmp(gconstpointer a, gconstpointer b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Two-sample Kolmogorov-Smirnov statistic D = sup |F1 - F2| (ties handled by stepping
 * over equal values in both samples at once). */
static double ti_ks(GArray *a, GArray *b) {
  g_array_sort(a, ti_dcmp);
  g_array_sort(b, ti_dcmp);
  guint i = 0, k = 0;
  double d = 0;
  while (i < a->len && k < b->len) {
    double x = MIN(g_array_index(a, double, i), g_array_index(b, double, k));
    while (i < a->len && g_array_index(a, double, i) <= x) i++;
    while (k < b->len && g_array_index(b, double, k) <= x) k++;
    d = MAX(d, fabs((double)i / a->len - (double)k / b->len));
  }
  return d;
}

/* Critical value of D at significance 0.001: 1.949 sqrt((n + m) / (n m)). */
static double ti_ks_crit(guint n, guint m) { return 1.949 * sqrt((double)(n + m) / ((double)n * m)); }

static gboolean ti_collect(const job_spec *j, void *ud) {
  ti_sample_add(ud, j);
  return TRUE;
}

Test(gen_openb_like, matches_the_openb_distributions) {
  if (!ti_have(OPENB "openb_pod_list_default.csv")) cr_skip_test("shared traces absent");
  const char *files[] = {OPENB "openb_pod_list_default.csv"};
  g_autoptr(import_ctx) c = ti_run(ti_format("alibaba-openb"), files, 1, FALSE, NULL);
  g_autoptr(trace) t = ti_trace(import_out_text(c, IMPORT_OUT_TRACE), NULL);
  ti_sample real, gen;
  ti_sample_init(&real);
  ti_sample_init(&gen);
  for (guint i = 0; i < trace_n_jobs(t); i++) ti_sample_add(&real, tu_row(t, i));
  gen_options o;
  gen_options_init(&o);
  o.profile = "openb-like";
  o.gpus = 1024;
  o.jobs = 20000;
  o.seed = 7;
  GError *err = NULL;
  cr_assert(gen_run(&o, ti_collect, &gen, &err), "%s", err ? err->message : "");
  struct { const char *what; GArray *a, *b; } cmp[] = {
      {"GPU share", real.frac, gen.frac}, {"GPU count", real.gpus, gen.gpus},
      {"run time", real.dur, gen.dur}};
  for (guint i = 0; i < G_N_ELEMENTS(cmp); i++) {
    double d = ti_ks(cmp[i].a, cmp[i].b), crit = ti_ks_crit(cmp[i].a->len, cmp[i].b->len);
    cr_expect(d < crit, "%s: KS D = %.4f, critical %.4f (n = %u, m = %u)", cmp[i].what, d, crit,
              cmp[i].a->len, cmp[i].b->len);
  }
  /* and a distribution it must not match: openb-like run times against mixed's */
  ti_sample mixed;
  ti_sample_init(&mixed);
  o.profile = "mixed";
  o.jobs = 5000;
  cr_assert(gen_run(&o, ti_collect, &mixed, &err));
  double d = ti_ks(real.dur, mixed.dur);
  cr_expect(d > ti_ks_crit(real.dur->len, mixed.dur->len), "mixed run times pass as openb (D %.4f)", d);
  GArray *arrs[] = {real.frac, real.gpus, real.dur, gen.frac, gen.gpus, gen.dur,
                    mixed.frac, mixed.gpus, mixed.dur};
  for (guint i = 0; i < G_N_ELEMENTS(arrs); i++) g_array_unref(arrs[i]);
}
