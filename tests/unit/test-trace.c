/* test-trace.c: the job trace, phases and requests readers (SPEC 3.1-3.3) and the writer:
 * values and defaults, every kind of bad input with its exact message, the diag cap,
 * CRLF/BOM/quoting, and the write -> load round trip. */
#include <criterion/criterion.h>
#include "testutil.h"
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include "trace.h"
#include "tracerows.h"

#define TDIR TEST_DATA_DIR "/trace/"

/* ---- helpers ------------------------------------------------------------------------ */

#define tmp_dir tu_tmp_dir
#define write_tmp tu_write_tmp
TestSuite(trace, .init = tu_tmp_setup, .fini = tu_tmp_teardown);

/* Asserts that d holds exactly these messages, each being path followed by the suffix. */
static void expect_msgs(const diag_list *d, const char *path, const char *const *suffix, guint n) {
  for (guint i = 0; i < d->messages->len && i < n; i++) {
    g_autofree char *want = g_strconcat(path, suffix[i], NULL);
    cr_expect_str_eq((const char *)g_ptr_array_index(d->messages, i), want, "message %u", i);
  }
  if (d->messages->len != n) {
    g_autofree char *all = diag_join(d);
    cr_assert_fail("expected %u messages, got %u:\n%s", n, d->messages->len, all);
  }
  cr_expect_eq(d->count, n);
}

/* Loads a trace from text; returns it (NULL on problems) and its diags. */
static trace *load_text(const char *text, diag_list **d, char **path) {
  *path = write_tmp("t.csv", text, -1);
  *d = diag_list_new(0);
  return trace_load(*path, *d);
}

/* Loads "header\nrow\n" and asserts the one message it gives (NULL: valid). */
static void expect_row(const char *header, const char *row, const char *msg) {
  g_autofree char *text = g_strdup_printf("%s\n%s\n", header, row);
  diag_list *d;
  g_autofree char *path = NULL;
  trace *t = load_text(text, &d, &path);
  if (!msg) {
    g_autofree char *all = diag_join(d);
    cr_expect(t != NULL, "row '%s' should be valid, got:\n%s", row, all);
  } else {
    cr_expect(t == NULL, "row '%s' should be refused", row);
    const char *m[] = {msg};
    expect_msgs(d, path, m, 1);
  }
  trace_free(t);
  diag_list_free(d);
}

static trace *load_ok(const char *path) {
  g_autoptr(diag_list) d = diag_list_new(0);
  trace *t = trace_load(path, d);
  g_autofree char *all = diag_join(d);
  cr_assert(t != NULL, "%s should load, got:\n%s", path, all);
  return t;
}

static const job_spec *job_by_id(const trace *t, const char *id) {
  int64_t i = trace_find(t, id);
  cr_assert(i >= 0, "job %s not found", id);
  return tu_row(t, (guint)i);
}

/* ---- kinds, lookup -------------------------------------------------------------------- */

Test(trace, kind_names_parse_back) {
  for (int k = 0; k < JOB_KIND_COUNT; k++) {
    job_kind out = JOB_KIND_COUNT;
    cr_expect(job_kind_parse(job_kind_name((job_kind)k), &out));
    cr_expect_eq(out, (job_kind)k);
  }
  job_kind out = JOB_BATCH;
  cr_expect_not(job_kind_parse("Training", &out));
  cr_expect_not(job_kind_parse("", &out));
  cr_expect_not(job_kind_parse(NULL, &out));
  cr_expect_eq(out, JOB_BATCH);
  cr_expect_str_eq(job_kind_name(JOB_INFERENCE), "inference");
  cr_expect_str_eq(job_kind_name(JOB_KIND_COUNT), "unknown");
}

/* ---- good files ---------------------------------------------------------------------- */

Test(trace, every_column_read) {
  g_autoptr(trace) t = load_ok(TDIR "all-columns.csv");
  cr_assert_eq(trace_n_jobs(t), 4);
  cr_expect_str_eq(t->path, TDIR "all-columns.csv");

  const job_spec *nb = tu_row(t, 0);
  cr_expect_str_eq(nb->id, "nb-1");
  cr_expect_eq(nb->line, 2);
  cr_expect_eq(nb->kind, JOB_NOTEBOOK);
  cr_expect_eq(nb->submit_ns, 0);
  cr_expect_eq(nb->gpus, 1);
  cr_expect_eq(nb->mem_bytes, INT64_C(12000000000));
  cr_expect_eq(nb->duration_ns, INT64_C(7200) * SIM_NS_PER_S);
  cr_expect_str_eq(nb->tenant, "team-a");
  cr_expect_str_eq(nb->label, "jupyter");
  cr_expect_eq(nb->priority, 1);
  cr_expect_eq(nb->gpu_frac, 0.5);
  cr_expect_eq(nb->sm, 0.4);
  cr_expect_eq(nb->busy, 0.25);
  cr_expect_eq(nb->burst_ns, INT64_C(20) * SIM_NS_PER_S);
  cr_expect_eq(nb->restart, RESTART_NEVER);

  const job_spec *svc = job_by_id(t, "svc-1");
  cr_expect_eq(svc->line, 3);
  cr_expect_eq(svc->kind, JOB_INFERENCE);
  cr_expect_eq(svc->submit_ns, INT64_C(10500000000));
  cr_expect_eq(svc->gpus, 2);
  cr_expect_eq(svc->mem_bytes, INT64_C(39996882944)); /* 37.25 GiB */
  cr_expect_eq(svc->priority, 5);
  cr_expect_eq(svc->gpu_frac, 0.25);
  cr_expect_eq(svc->sm, 0.7);
  cr_expect_eq(svc->rate_rps, 40.0);
  cr_expect_eq(svc->service_ms, 12.5);
  cr_expect_eq(svc->slo_ms, 100.0);
  cr_expect_eq(svc->slo_pct, 99.9);
  cr_expect_eq(svc->kv_bytes, INT64_C(500000000));
  cr_expect_eq(svc->max_batch, 16);
  cr_expect_eq(svc->restart, RESTART_ON_FAILURE);

  const job_spec *tr = job_by_id(t, "train-1");
  cr_expect_eq(tr->gpus, 8);
  cr_expect_eq(tr->mem_bytes, INT64_C(80000000000));
  cr_expect_eq(tr->priority, -2);
  cr_expect_eq(tr->comm_frac, 0.2);
  cr_expect_eq(tr->checkpoint_ns, INT64_C(1800) * SIM_NS_PER_S);
  cr_expect_str_eq(tr->label, "");

  const job_spec *bt = job_by_id(t, "batch-1");
  cr_expect_eq(bt->submit_ns, INT64_C(7200000000001)); /* exact to the nanosecond */
  cr_expect_eq(bt->mem_bytes, INT64_C(512000000));
  cr_expect_str_eq(bt->label, "nightly, eval");
  cr_expect_eq(bt->sm, 0.9);
  /* tenant strings are interned: the same pointer for the same name */
  cr_expect_eq(nb->tenant, tr->tenant);
  cr_expect_eq(trace_find(t, "nope"), -1);
  cr_expect_eq(trace_find(t, "batch-1"), 3);
  cr_expect_eq(t->phases->len, 0);
  cr_expect_null(t->requests_path);
}

Test(trace, defaults_by_kind) {
  g_autoptr(trace) t = load_ok(TDIR "defaults.csv");
  cr_assert_eq(trace_n_jobs(t), 4);
  const double sm[] = {[JOB_NOTEBOOK] = 0.6, [JOB_INFERENCE] = 0.5, [JOB_TRAINING] = 1.0,
                       [JOB_BATCH] = 1.0};
  const restart_policy restart[] = {[JOB_NOTEBOOK] = RESTART_NEVER,
                                    [JOB_INFERENCE] = RESTART_ON_FAILURE,
                                    [JOB_TRAINING] = RESTART_ON_FAILURE,
                                    [JOB_BATCH] = RESTART_NEVER};
  for (guint i = 0; i < 4; i++) {
    const job_spec *j = tu_row(t, i);
    cr_expect_eq(j->sm, sm[j->kind], "%s", j->id);
    cr_expect_eq(j->restart, restart[j->kind], "%s", j->id);
    cr_expect_str_eq(j->tenant, "default");
    cr_expect_str_eq(j->label, "");
    cr_expect_eq(j->priority, 0);
    cr_expect_eq(j->gpu_frac, 1.0);
    cr_expect_eq(j->busy, 0.15);
    cr_expect_eq(j->burst_ns, INT64_C(30) * SIM_NS_PER_S);
    cr_expect_eq(j->slo_ms, 0.0);
    cr_expect_eq(j->slo_pct, 99.0);
    cr_expect_eq(j->kv_bytes, 0);
    cr_expect_eq(j->max_batch, 1);
    cr_expect_eq(j->comm_frac, 0.1);
    cr_expect_eq(j->checkpoint_ns, 0);
    cr_expect_eq(j->phase_count, 0);
    cr_expect_not(j->has_requests);
  }
  cr_expect_eq(job_by_id(t, "svc")->rate_rps, 5.0);
  cr_expect_eq(job_by_id(t, "tr")->rate_rps, 0.0);

  /* job_init gives the same defaults */
  for (guint i = 0; i < 4; i++) {
    const job_spec *j = tu_row(t, i);
    job_spec d;
    job_init(&d, j->kind);
    cr_expect_eq(d.sm, j->sm);
    cr_expect_eq(d.restart, j->restart);
    cr_expect_eq(d.busy, j->busy);
    cr_expect_eq(d.burst_ns, j->burst_ns);
    cr_expect_eq(d.slo_pct, j->slo_pct);
    cr_expect_eq(d.comm_frac, j->comm_frac);
    cr_expect_eq(d.max_batch, 1);
    cr_expect_eq(d.gpus, 1);
    cr_expect_str_eq(d.tenant, "default");
  }
}

Test(trace, columns_in_any_order_and_x_columns_ignored) {
  diag_list *d;
  g_autofree char *path = NULL;
  trace *t = load_text("x_user,duration_s,mem_gb,gpus,kind,submit_s,id\n"
                       "alice,60,2.5,3,batch,12.25,b1\n",
                       &d, &path);
  cr_assert_not_null(t);
  const job_spec *j = tu_row(t, 0);
  cr_expect_str_eq(j->id, "b1");
  cr_expect_eq(j->submit_ns, INT64_C(12250000000));
  cr_expect_eq(j->gpus, 3);
  cr_expect_eq(j->mem_bytes, INT64_C(2500000000));
  cr_expect_eq(j->duration_ns, INT64_C(60) * SIM_NS_PER_S);
  trace_free(t);
  diag_list_free(d);
}

/* submit_utc (written by importers of absolute times): trace second 0 is submit_utc -
 * submit_s, the same on every row that gives it (to the millisecond). */
Test(trace, submit_utc_places_second_zero_and_must_agree) {
  diag_list *d;
  g_autofree char *path = NULL;
  trace *t = load_text("id,submit_s,kind,gpus,mem_gb,duration_s,submit_utc\n"
                       "a,0,batch,1,1,60,2026-11-01T00:00:00.250Z\n"
                       "b,30,batch,1,1,60,2026-11-01T01:00:30.25+01:00\n"
                       "c,45.5,batch,1,1,60,\n",
                       &d, &path);
  g_autofree char *all = diag_join(d);
  cr_assert_not_null(t, "%s", all);
  cr_expect_float_eq(t->start_unix, 1793491200.25, 1e-6); /* 2026-11-01T00:00:00.25Z */
  trace_free(t);
  diag_list_free(d);
  g_autofree char *p2 = NULL;
  t = load_text("id,submit_s,kind,gpus,mem_gb,duration_s,submit_utc\nx,0,batch,1,1,60,\n", &d,
                &p2);
  cr_assert_not_null(t);
  cr_expect(isnan(t->start_unix)); /* no calendar without a cell */
  trace_free(t);
  diag_list_free(d);
  expect_row("id,submit_s,kind,gpus,mem_gb,duration_s,submit_utc",
             "a,0,batch,1,1,60,2026-11-01T00:00:00",
             ":2:7: submit_utc: expected an ISO 8601 time with a zone, e.g. "
             "2026-11-01T00:00:00Z (years 1970-9999), found '2026-11-01T00:00:00'");
  g_autofree char *p3 = NULL;
  t = load_text("id,submit_s,kind,gpus,mem_gb,duration_s,submit_utc\n"
                "a,10,batch,1,1,60,2026-11-01T00:00:10Z\n"
                "b,20,batch,1,1,60,2026-11-01T00:00:20.001Z\n"
                "c,30,batch,1,1,60,2026-11-01T00:00:31Z\n",
                &d, &p3);
  cr_expect_null(t);
  const char *m[] = {":4:7: submit_utc: expected 2026-11-01T00:00:30Z (submit_s after the trace "
                     "start that line 2's submit_utc gives), found '2026-11-01T00:00:31Z'"};
  expect_msgs(d, p3, m, 1);
  diag_list_free(d);
}

Test(trace, sizes_take_units_or_bare_gb) {
  const char *hdr = "id,submit_s,kind,gpus,mem_gb,duration_s,kv_gb";
  const struct { const char *mem; int64_t bytes; } cases[] = {
      {"40", INT64_C(40000000000)},     {"40GB", INT64_C(40000000000)},
      {"40 GB", INT64_C(40000000000)},  {"37.25GiB", INT64_C(39996882944)},
      {"512MB", INT64_C(512000000)},    {"512MiB", INT64_C(536870912)},
      {"0.000000001", 1},               {"1e1", INT64_C(10000000000)},
      {"0", 0},                         {"10000", INT64_C(10000000000000)},
  };
  for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autofree char *text = g_strdup_printf("%s\nj,0,batch,1,%s,1,%s\n", hdr, cases[i].mem,
                                            cases[i].mem);
    diag_list *d;
    g_autofree char *path = NULL;
    trace *t = load_text(text, &d, &path);
    cr_assert_not_null(t, "mem_gb '%s'", cases[i].mem);
    cr_expect_eq(tu_row(t, 0)->mem_bytes, cases[i].bytes, "mem_gb '%s'", cases[i].mem);
    cr_expect_eq(tu_row(t, 0)->kv_bytes, cases[i].bytes, "kv_gb '%s'", cases[i].mem);
    trace_free(t);
    diag_list_free(d);
  }
}

Test(trace, odd_but_valid_numbers) {
  const char *hdr = "id,submit_s,kind,gpus,mem_gb,duration_s,priority,busy";
  expect_row(hdr, "j,-0,batch,1,1,1,-0,-0", NULL);
  expect_row(hdr, "j,+5,batch,+2,1,.5,+7,1", NULL);
  expect_row(hdr, "j,1000000000,batch,1,1,1e9,-2147483648,0", NULL);
  expect_row(hdr, "j,1e-999,batch,1,1,1,2147483647,1e-300", NULL);
  expect_row(hdr, "\"j\",\" 5 \",\"batch\",\"1\",1,1,,", NULL);
}

/* ---- one bad cell, one exact message ------------------------------------------------- */

Test(trace, bad_cells_exact_messages) {
  const char *hdr =
      "id,submit_s,kind,gpus,mem_gb,duration_s,tenant,label,priority,gpu_frac,sm,busy,burst_s,"
      "rate_rps,service_ms,slo_ms,slo_pct,kv_gb,max_batch,comm_frac,checkpoint_s,restart";
  g_autofree char *kinds = tu_kind_names(", "); /* the table's kinds, in its order */
  g_autofree char *kind_msg =
      g_strdup_printf(":2:3: kind: expected one of %s, found 'Training'", kinds);
  const struct { const char *row; const char *msg; } cases[] = {
      {",0,batch,1,10,60,,,,,,,,,,,,,,,,",
       ":2:1: id: expected a non-empty id (UTF-8, no control characters), found ''"},
      {"j\x01,0,batch,1,10,60,,,,,,,,,,,,,,,,",
       ":2:1: id: expected a non-empty id (UTF-8, no control characters), found 'j\\001'"},
      {"j\xff,0,batch,1,10,60,,,,,,,,,,,,,,,,",
       ":2:1: id: expected a non-empty id (UTF-8, no control characters), found 'j\\377'"},
      {"j,,batch,1,10,60,,,,,,,,,,,,,,,,",
       ":2:2: submit_s: expected seconds >= 0 (a decimal number, at most 1e9), found ''"},
      {"j,-1,batch,1,10,60,,,,,,,,,,,,,,,,",
       ":2:2: submit_s: expected seconds >= 0 (a decimal number, at most 1e9), found '-1'"},
      {"j,nan,batch,1,10,60,,,,,,,,,,,,,,,,",
       ":2:2: submit_s: expected seconds >= 0 (a decimal number, at most 1e9), found 'nan'"},
      {"j,inf,batch,1,10,60,,,,,,,,,,,,,,,,",
       ":2:2: submit_s: expected seconds >= 0 (a decimal number, at most 1e9), found 'inf'"},
      {"j,1e999,batch,1,10,60,,,,,,,,,,,,,,,,",
       ":2:2: submit_s: expected seconds >= 0 (a decimal number, at most 1e9), found '1e999'"},
      {"j,9300000000,batch,1,10,60,,,,,,,,,,,,,,,,",
       ":2:2: submit_s: expected seconds >= 0 (a decimal number, at most 1e9), found "
       "'9300000000'"},
      {"j,1000000000.000000001,batch,1,10,60,,,,,,,,,,,,,,,,",
       ":2:2: submit_s: expected seconds >= 0 (a decimal number, at most 1e9), found "
       "'1000000000.000000001'"},
      {"j,0x10,batch,1,10,60,,,,,,,,,,,,,,,,",
       ":2:2: submit_s: expected seconds >= 0 (a decimal number, at most 1e9), found '0x10'"},
      {"j,1.5s,batch,1,10,60,,,,,,,,,,,,,,,,",
       ":2:2: submit_s: expected seconds >= 0 (a decimal number, at most 1e9), found '1.5s'"},
      {"j,0,Training,1,10,60,,,,,,,,,,,,,,,,",
       kind_msg},
      {"j,0,batch,0,10,60,,,,,,,,,,,,,,,,",
       ":2:4: gpus: expected an integer from 1 to 100000, found '0'"},
      {"j,0,batch,1.5,10,60,,,,,,,,,,,,,,,,",
       ":2:4: gpus: expected an integer from 1 to 100000, found '1.5'"},
      {"j,0,batch,100001,10,60,,,,,,,,,,,,,,,,",
       ":2:4: gpus: expected an integer from 1 to 100000, found '100001'"},
      {"j,0,batch,99999999999999999999,10,60,,,,,,,,,,,,,,,,",
       ":2:4: gpus: expected an integer from 1 to 100000, found '99999999999999999999'"},
      {"j,0,batch,1,-1,60,,,,,,,,,,,,,,,,",
       ":2:5: mem_gb: expected a size >= 0 in GB (a number, or with a unit: 40GB, 37.25GiB; "
       "at most 10 TB), found '-1'"},
      {"j,0,batch,1,10001,60,,,,,,,,,,,,,,,,",
       ":2:5: mem_gb: expected a size >= 0 in GB (a number, or with a unit: 40GB, 37.25GiB; "
       "at most 10 TB), found '10001'"},
      {"j,0,batch,1,40GBs,60,,,,,,,,,,,,,,,,",
       ":2:5: mem_gb: expected a size >= 0 in GB (a number, or with a unit: 40GB, 37.25GiB; "
       "at most 10 TB), found '40GBs'"},
      {"j,0,batch,1,10,0,,,,,,,,,,,,,,,,",
       ":2:6: duration_s: expected seconds > 0 (a decimal number, at most 1e9), found '0'"},
      {"j,0,batch,1,10,0.0000000001,,,,,,,,,,,,,,,,",
       ":2:6: duration_s: expected seconds > 0 (a decimal number, at most 1e9), found "
       "'0.0000000001'"},
      {"j,0,batch,1,10,60,a\tb,,,,,,,,,,,,,,,",
       ":2:7: tenant: expected a name (UTF-8, no control characters), found 'a\\tb'"},
      {"j,0,batch,1,10,60,,,2147483648,,,,,,,,,,,,,",
       ":2:9: priority: expected an integer from -2147483648 to 2147483647, found '2147483648'"},
      {"j,0,batch,1,10,60,,,,0,,,,,,,,,,,,",
       ":2:10: gpu_frac: expected a fraction 0 < f <= 1, found '0'"},
      {"j,0,batch,1,10,60,,,,1.01,,,,,,,,,,,,",
       ":2:10: gpu_frac: expected a fraction 0 < f <= 1, found '1.01'"},
      {"j,0,batch,1,10,60,,,,,-0,,,,,,,,,,,",
       ":2:11: sm: expected a fraction 0 < sm <= 1, found '-0'"},
      {"j,0,batch,1,10,60,,,,,,1.5,,,,,,,,,,",
       ":2:12: busy: expected a fraction 0 <= busy <= 1, found '1.5'"},
      {"j,0,batch,1,10,60,,,,,,,0,,,,,,,,,",
       ":2:13: burst_s: expected seconds > 0 (a decimal number, at most 1e9), found '0'"},
      {"j,0,batch,1,10,60,,,,,,,,-2,,,,,,,,",
       ":2:14: rate_rps: expected requests per second: 0, or from 1e-9 to 1e9, found '-2'"},
      {"j,0,batch,1,10,60,,,,,,,,,0,,,,,,,",
       ":2:15: service_ms: expected milliseconds > 0 (at most 1e12), found '0'"},
      {"j,0,batch,1,10,60,,,,,,,,,,1e13,,,,,,",
       ":2:16: slo_ms: expected milliseconds > 0 (at most 1e12), found '1e13'"},
      {"j,0,batch,1,10,60,,,,,,,,,,,100.5,,,,,",
       ":2:17: slo_pct: expected a percentage 0 < p <= 100, found '100.5'"},
      {"j,0,batch,1,10,60,,,,,,,,,,,,1TiB0,,,,",
       ":2:18: kv_gb: expected a size >= 0 in GB (a number, or with a unit: 40GB, 37.25GiB; "
       "at most 10 TB), found '1TiB0'"},
      {"j,0,batch,1,10,60,,,,,,,,,,,,,0,,,",
       ":2:19: max_batch: expected an integer from 1 to 65536, found '0'"},
      {"j,0,batch,1,10,60,,,,,,,,,,,,,,1,,",
       ":2:20: comm_frac: expected a fraction 0 <= f < 1, found '1'"},
      {"j,0,batch,1,10,60,,,,,,,,,,,,,,,-60,",
       ":2:21: checkpoint_s: expected seconds >= 0, 0 for never (a decimal number, at most "
       "1e9), found '-60'"},
      {"j,0,batch,1,10,60,,,,,,,,,,,,,,,,always",
       ":2:22: restart: expected never or on-failure for a training or batch job (always would "
       "run its completed work again; Kubernetes' Job API refuses Always), found 'always'"},
      {"j,0,notebook,1,10,60,,,,,,,,,,,,,,,,sometimes",
       ":2:22: restart: expected never, on-failure or always, found 'sometimes'"},
  };
  for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) expect_row(hdr, cases[i].row, cases[i].msg);
}

Test(trace, gpu_util_is_a_fraction_above_zero_and_defaults_to_one) {
  const char *hdr = "id,submit_s,kind,gpus,mem_gb,duration_s,gpu_util";
  expect_row(hdr, "j,0,training,1,10,60,0", ":2:7: gpu_util: expected a fraction 0 < gpu_util <= 1, found '0'");
  expect_row(hdr, "j,0,training,1,10,60,1.2", ":2:7: gpu_util: expected a fraction 0 < gpu_util <= 1, found '1.2'");
  expect_row(hdr, "j,0,training,1,10,60,0.35", NULL);
  job_spec j;
  job_init(&j, JOB_NOTEBOOK);
  cr_expect_eq(j.gpu_util, 1.0);
  /* written only when it differs from the default, and read back exactly */
  j.id = "n";
  j.gpu_util = 0.35;
  GString *s = g_string_new(NULL);
  trace_write_row(s, &j);
  cr_expect(g_str_has_suffix(s->str, ",0.35\n"), "row: %s", s->str);
  g_string_free(s, TRUE);
}

Test(trace, mem_util_is_a_fraction_up_to_gpu_util_and_unknown_when_empty) {
  const char *hdr = "id,submit_s,kind,gpus,mem_gb,duration_s,gpu_util,mem_util";
  expect_row(hdr, "j,0,training,1,10,60,0.5,0.6",
             ":2:8: mem_util: expected a fraction 0 <= mem_util <= gpu_util (memory is busy only "
             "while a kernel runs), found '0.6'");
  expect_row(hdr, "j,0,training,1,10,60,,-0.1",
             ":2:8: mem_util: expected a fraction 0 <= mem_util <= gpu_util, found '-0.1'");
  expect_row(hdr, "j,0,training,1,10,60,0.5,0.25", NULL);
  expect_row(hdr, "j,0,training,1,10,60,,0", NULL);
  job_spec j;
  job_init(&j, JOB_TRAINING);
  cr_expect_eq(j.mem_util, TRACE_MEM_UTIL_UNKNOWN);
}

Test(trace, cross_field_checks) {
  const char *hdr = "id,submit_s,kind,gpus,mem_gb,duration_s,gpu_frac,rate_rps,service_ms";
  /* a training gang may ask for a fraction per worker (PAI: 10 workers at 25 %) */
  expect_row(hdr, "t,0,training,4,10,60,0.5,,", NULL);
  expect_row(hdr, "t,0,training,10,4,60,0.25,,", NULL);
  expect_row(hdr, "t,0,training,1,10,60,0.5,,", NULL); /* one worker may share a GPU */
  /* a fraction out of range is still refused, for gangs as for single workers */
  expect_row(hdr, "t,0,training,4,10,60,0,,",
             ":2:7: gpu_frac: expected a fraction 0 < f <= 1, found '0'");
  expect_row(hdr, "t,0,training,4,10,60,1.5,,",
             ":2:7: gpu_frac: expected a fraction 0 < f <= 1, found '1.5'");
  expect_row(hdr, "b,0,batch,4,10,60,0.5,,", NULL);
  expect_row(hdr, "s,0,inference,1,10,60,,,20",
             ":2:8: rate_rps: expected requests per second >= 0 (required for an inference "
             "job), found ''");
  expect_row(hdr, "s,0,inference,1,10,60,,5,",
             ":2:9: service_ms: expected milliseconds > 0 (required for an inference job), "
             "found ''");
  expect_row(hdr, "s,0,inference,1,10,60,,0,20", NULL); /* a zero rate is allowed */
}

Test(trace, inference_without_rate_columns) {
  diag_list *d;
  g_autofree char *path = NULL;
  trace *t = load_text("id,submit_s,kind,gpus,mem_gb,duration_s\ns,0,inference,1,10,60\n", &d,
                       &path);
  cr_expect_null(t);
  const char *m[] = {
      ":2: rate_rps: expected requests per second >= 0 (required for an inference job), "
      "found ''",
      ":2: service_ms: expected milliseconds > 0 (required for an inference job), found ''"};
  expect_msgs(d, path, m, 2);
  diag_list_free(d);
}

/* ---- all problems, the cap ------------------------------------------------------------ */

Test(trace, every_bad_row_reported) {
  g_autoptr(diag_list) d = diag_list_new(0);
  cr_expect_null(trace_load(TDIR "bad-rows.csv", d));
  const char *m[] = {
      ":3:4: gpus: expected an integer from 1 to 100000, found '0'",
      ":5:2: submit_s: expected seconds >= 0 (a decimal number, at most 1e9), found '-5'",
      ":6:5: mem_gb: expected a size >= 0 in GB (a number, or with a unit: 40GB, 37.25GiB; at "
      "most 10 TB), found 'ten'"};
  expect_msgs(d, TDIR "bad-rows.csv", m, 3);
}

Test(trace, problems_capped_but_counted) {
  GString *s = g_string_new("id,submit_s,kind,gpus,mem_gb,duration_s\n");
  for (int i = 0; i < 20; i++) g_string_append_printf(s, "j%d,0,batch,0,1,1\n", i);
  g_autofree char *path = write_tmp("cap.csv", s->str, -1);
  g_string_free(s, TRUE);
  g_autoptr(diag_list) d = diag_list_new(5);
  cr_expect_null(trace_load(path, d));
  cr_expect_eq(d->messages->len, 5);
  cr_expect_eq(d->count, 20);
  g_autofree char *want = g_strconcat(path, ":6:4: gpus: expected an integer from 1 to 100000, "
                                      "found '0'", NULL);
  cr_expect_str_eq(g_ptr_array_index(d->messages, 4), want);
  g_autofree char *all = diag_join(d);
  cr_expect(g_str_has_suffix(all, "\n... and 15 more problems"), "%s", all);
}

Test(trace, duplicate_ids) {
  diag_list *d;
  g_autofree char *path = NULL;
  trace *t = load_text("id,submit_s,kind,gpus,mem_gb,duration_s\n"
                       "a,0,batch,1,1,1\nb,0,batch,1,1,1\na,0,batch,1,1,1\n",
                       &d, &path);
  cr_expect_null(t);
  const char *m[] = {
      ":4:1: id: expected a unique id (this one is already on line 2), found 'a'"};
  expect_msgs(d, path, m, 1);
  diag_list_free(d);
}

/* ---- the header ----------------------------------------------------------------------- */

Test(trace, header_problems) {
  g_autoptr(diag_list) d = diag_list_new(0);
  cr_expect_null(trace_load(TDIR "bad-header.csv", d));
  const char *m[] = {
      ":1:5: unknown column: expected one of id, submit_s, kind, gpus, mem_gb, duration_s, "
      "tenant, label, priority, gpu_frac, sm, busy, burst_s, rate_rps, service_ms, slo_ms, "
      "slo_pct, kv_gb, max_batch, comm_frac, checkpoint_s, restart, gpu_util, cpu_milli, memory_mib, "
      "gpu_spec, model, prompt_tokens, output_tokens, slo_ttft_ms, slo_tpot_ms, "
      "gpu_memory_utilization, mem_util, submit_utc, or a name starting with x_, "
      "found 'colour'",
      ":1:6: duplicate column: expected each column once (first at column 3), found 'gpus'",
      ":1: missing required column 'submit_s'",
      ":1: missing required column 'mem_gb'",
  };
  expect_msgs(d, TDIR "bad-header.csv", m, 4);
}

Test(trace, first_row_not_a_header) {
  diag_list *d;
  g_autofree char *path = NULL;
  trace *t = load_text("j1,0,batch,1,10,60\nj2,0,batch,1,10,60\n", &d, &path);
  cr_expect_null(t);
  const char *m[] = {
      ":1: header: expected a header row naming the columns (id,submit_s,kind,gpus,mem_gb,"
      "duration_s,tenant,label,priority,gpu_frac,sm,busy,burst_s,rate_rps,service_ms,slo_ms,"
      "slo_pct,kv_gb,max_batch,comm_frac,checkpoint_s,restart,gpu_util,cpu_milli,memory_mib,gpu_spec,"
      "model,prompt_tokens,output_tokens,slo_ttft_ms,slo_tpot_ms,gpu_memory_utilization,mem_util,submit_utc), "
      "found 'j1,0,batch,1,10,60'"};
  expect_msgs(d, path, m, 1);
  diag_list_free(d);
}

Test(trace, empty_file_is_an_error_header_only_is_zero_jobs) {
  const char *empty_msg =
      ":1: header: expected a header row naming the columns (id,submit_s,kind,gpus,mem_gb,"
      "duration_s,tenant,label,priority,gpu_frac,sm,busy,burst_s,rate_rps,service_ms,slo_ms,"
      "slo_pct,kv_gb,max_batch,comm_frac,checkpoint_s,restart,gpu_util,cpu_milli,memory_mib,gpu_spec,"
      "model,prompt_tokens,output_tokens,slo_ttft_ms,slo_tpot_ms,gpu_memory_utilization,mem_util,submit_utc), "
      "found an empty file";
  const char *empties[] = {"", "\n\n", "\xEF\xBB\xBF", "  \r\n\t\r\n"};
  for (gsize i = 0; i < G_N_ELEMENTS(empties); i++) {
    diag_list *d;
    g_autofree char *path = NULL;
    trace *t = load_text(empties[i], &d, &path);
    cr_expect_null(t);
    const char *m[] = {empty_msg};
    expect_msgs(d, path, m, 1);
    diag_list_free(d);
  }
  const char *header_only[] = {"id,submit_s,kind,gpus,mem_gb,duration_s",
                               "id,submit_s,kind,gpus,mem_gb,duration_s\r\n\r\n"};
  for (gsize i = 0; i < G_N_ELEMENTS(header_only); i++) {
    diag_list *d;
    g_autofree char *path = NULL;
    trace *t = load_text(header_only[i], &d, &path);
    cr_assert_not_null(t);
    cr_expect_eq(trace_n_jobs(t), 0);
    cr_expect_eq(d->count, 0);
    trace_free(t);
    diag_list_free(d);
  }
}

Test(trace, missing_file) {
  g_autoptr(diag_list) d = diag_list_new(0);
  cr_expect_null(trace_load(TDIR "no-such-file.csv", d));
  const char *m[] = {": cannot open: No such file or directory"};
  expect_msgs(d, TDIR "no-such-file.csv", m, 1);
}

Test(trace, directory_is_not_a_trace) {
  g_autoptr(diag_list) d = diag_list_new(0);
  cr_expect_null(trace_load(tmp_dir, d));
  cr_assert_eq(d->count, 1);
  g_autofree char *want = g_strconcat(tmp_dir, ": cannot open: not a regular file (a folder)", NULL);
  cr_expect_str_eq(g_ptr_array_index(d->messages, 0), want);
}

/* ---- CSV shapes ------------------------------------------------------------------------ */

Test(trace, crlf_and_bom_read_like_lf) {
  g_autoptr(trace) a = load_ok(TDIR "crlf-bom.csv");
  g_autoptr(trace) b = load_ok(TDIR "defaults.csv");
  cr_assert_eq(trace_n_jobs(a), trace_n_jobs(b));
  for (guint i = 0; i < trace_n_jobs(a); i++) {
    const job_spec *x = tu_row(a, i), *y = tu_row(b, i);
    cr_expect_str_eq(x->id, y->id);
    cr_expect_eq(x->kind, y->kind);
    cr_expect_eq(x->mem_bytes, y->mem_bytes);
    cr_expect_eq(x->service_ms, y->service_ms);
  }
  /* the blank line moves the last two rows one line down */
  cr_expect_eq(job_by_id(a, "tr")->line, 5);
  cr_expect_eq(job_by_id(a, "bt")->line, 6);
}

Test(trace, quoted_cells_and_lines_after_them) {
  diag_list *d;
  g_autofree char *path = NULL;
  trace *t = load_text("id,submit_s,kind,gpus,mem_gb,duration_s,x_note\n"
                       "\"a,1\",0,batch,1,1,1,\"two\nlines\"\n"
                       "\"say \"\"hi\"\"\",0,batch,1,1,1,\n"
                       "c,0,batch,0,1,1,\n",
                       &d, &path);
  cr_expect_null(t);
  const char *m[] = {":5:4: gpus: expected an integer from 1 to 100000, found '0'"};
  expect_msgs(d, path, m, 1);
  diag_list_free(d);

  g_free(path);
  t = load_text("id,submit_s,kind,gpus,mem_gb,duration_s,x_note,label\n"
                "\"a,1\",0,batch,1,1,1,\"two\nlines\",\n"
                "\"say \"\"hi\"\"\",0,batch,1,1,1,,\n"
                "c,0,batch,1,1,1,,\"x\"\"y\"\n",
                &d, &path);
  cr_assert_not_null(t, "%s", diag_join(d));
  cr_expect_str_eq(tu_row(t, 0)->id, "a,1");
  cr_expect_str_eq(tu_row(t, 1)->id, "say \"hi\"");
  cr_expect_eq(tu_row(t, 1)->line, 4);
  cr_expect_str_eq(tu_row(t, 2)->label, "x\"y");
  cr_expect_eq(tu_row(t, 2)->line, 5);
  trace_free(t);
  diag_list_free(d);
}

Test(trace, wrong_field_counts) {
  diag_list *d;
  g_autofree char *path = NULL;
  trace *t = load_text("id,submit_s,kind,gpus,mem_gb,duration_s\n"
                       "a,0,batch,1,1\n"
                       "b,0,batch,1,1,1,extra\n"
                       "c,0,batch,1,1,1,\n"
                       "d,0,batch,1,1,1\n",
                       &d, &path);
  cr_expect_null(t);
  const char *m[] = {":2: expected 6 fields as in the header, found 5",
                     ":3: expected 6 fields as in the header, found 7",
                     ":4: expected 6 fields as in the header, found 7"};
  expect_msgs(d, path, m, 3);
  diag_list_free(d);
}

Test(trace, nul_bytes_refused) {
  static const char text[] = "id,submit_s,kind,gpus,mem_gb,duration_s\n"
                             "a,0,bat\0ch,1,1,1\n"
                             "b,0,batch,1,1,1\n";
  g_autofree char *path = write_tmp("nul.csv", text, sizeof text - 1);
  g_autoptr(diag_list) d = diag_list_new(0);
  cr_expect_null(trace_load(path, d));
  const char *m[] = {":2:3: kind: expected text without NUL bytes, found 'bat'"};
  expect_msgs(d, path, m, 1);

  static const char hdr[] = "id,sub\0mit_s\n";
  g_autofree char *path2 = write_tmp("nulh.csv", hdr, sizeof hdr - 1);
  g_autoptr(diag_list) d2 = diag_list_new(0);
  cr_expect_null(trace_load(path2, d2));
  const char *m2[] = {":1:2: header: expected column names without NUL bytes, found 'sub'"};
  expect_msgs(d2, path2, m2, 1);
}

Test(trace, malformed_quotes_reported_and_reading_goes_on) {
  diag_list *d;
  g_autofree char *path = NULL;
  trace *t = load_text("id,submit_s,kind,gpus,mem_gb,duration_s\n"
                       "a,0,ba\"tch,1,1,1\n"
                       "b,\"0\"x,batch,1,1,1\n"
                       "c,0,batch,0,1,1\n"
                       "d,\"0,batch,1,1,1\n",
                       &d, &path);
  cr_expect_null(t);
  const char *m[] = {
      ":2:3: kind: expected a cell quoted as a whole (\"...\", with \"\" for a quote inside "
      "it), found 'ba'",
      ":3:2: submit_s: expected a cell quoted as a whole (\"...\", with \"\" for a quote "
      "inside it), found '0\\\"'",
      ":4:4: gpus: expected an integer from 1 to 100000, found '0'",
      ":5:2: submit_s: expected a closing double quote before the end of the file, found "
      "'0,batch,1,1,1\\n'"};
  expect_msgs(d, path, m, 4);
  diag_list_free(d);
}

Test(trace, huge_cell_refused_without_eating_memory) {
  GString *s = g_string_new("id,submit_s,kind,gpus,mem_gb,duration_s\n");
  g_string_append(s, "a,0,batch,1,1,");
  for (int i = 0; i < 3 * 1024 * 1024; i++) g_string_append_c(s, '7');
  g_string_append(s, "\nb,0,batch,0,1,1\n");
  g_autofree char *path = write_tmp("huge.csv", s->str, (gssize)s->len);
  g_string_free(s, TRUE);
  g_autoptr(diag_list) d = diag_list_new(0);
  cr_expect_null(trace_load(path, d));
  cr_assert_eq(d->count, 2, "%s", diag_join(d));
  g_autofree char *want0 = g_strconcat(
      path, ":2:6: duration_s: expected a cell shorter than 1 MiB (1048576 bytes), found '",
      NULL);
  cr_expect(g_str_has_prefix(g_ptr_array_index(d->messages, 0), want0), "%s",
            (char *)g_ptr_array_index(d->messages, 0));
  g_autofree char *want1 =
      g_strconcat(path, ":3:4: gpus: expected an integer from 1 to 100000, found '0'", NULL);
  cr_expect_str_eq(g_ptr_array_index(d->messages, 1), want1);
}

Test(trace, long_cell_under_the_limit_is_fine) {
  GString *s = g_string_new("id,submit_s,kind,gpus,mem_gb,duration_s,label\n");
  g_string_append(s, "a,0,batch,1,1,1,");
  for (int i = 0; i < 500000; i++) g_string_append_c(s, 'x');
  g_string_append(s, "\n");
  g_autofree char *path = write_tmp("long.csv", s->str, (gssize)s->len);
  g_string_free(s, TRUE);
  g_autoptr(trace) t = load_ok(path);
  cr_expect_eq(strlen(tu_row(t, 0)->label), 500000);
}

/* ---- writing and the round trip ------------------------------------------------------- */

static void expect_same_job(const job_spec *a, const job_spec *b) {
  cr_expect_str_eq(a->id, b->id);
  cr_expect_str_eq(a->tenant, b->tenant, "%s", a->id);
  cr_expect_str_eq(a->label, b->label, "%s", a->id);
  cr_expect_eq(a->kind, b->kind, "%s", a->id);
  cr_expect_eq(a->restart, b->restart, "%s", a->id);
  cr_expect_eq(a->gpus, b->gpus, "%s", a->id);
  cr_expect_eq(a->priority, b->priority, "%s", a->id);
  cr_expect_eq(a->max_batch, b->max_batch, "%s", a->id);
  cr_expect_eq(a->submit_ns, b->submit_ns, "%s", a->id);
  cr_expect_eq(a->duration_ns, b->duration_ns, "%s", a->id);
  cr_expect_eq(a->burst_ns, b->burst_ns, "%s", a->id);
  cr_expect_eq(a->checkpoint_ns, b->checkpoint_ns, "%s", a->id);
  cr_expect_eq(a->mem_bytes, b->mem_bytes, "%s", a->id);
  cr_expect_eq(a->kv_bytes, b->kv_bytes, "%s", a->id);
  cr_expect_eq(a->gpu_frac, b->gpu_frac, "%s", a->id);
  cr_expect_eq(a->sm, b->sm, "%s", a->id);
  cr_expect_eq(a->busy, b->busy, "%s", a->id);
  cr_expect_eq(a->rate_rps, b->rate_rps, "%s: %.17g vs %.17g", a->id, a->rate_rps, b->rate_rps);
  cr_expect_eq(a->service_ms, b->service_ms, "%s", a->id);
  cr_expect_eq(a->slo_ms, b->slo_ms, "%s", a->id);
  cr_expect_eq(a->slo_pct, b->slo_pct, "%s", a->id);
  cr_expect_eq(a->comm_frac, b->comm_frac, "%s", a->id);
}

Test(trace, writes_the_full_header_in_spec_order) {
  GString *s = g_string_new(NULL);
  trace_write_header(s);
  cr_expect_str_eq(s->str, "id,submit_s,kind,gpus,mem_gb,duration_s,tenant,label,priority,"
                           "gpu_frac,sm,busy,burst_s,rate_rps,service_ms,slo_ms,slo_pct,kv_gb,"
                           "max_batch,comm_frac,checkpoint_s,restart,gpu_util\n");
  g_string_free(s, TRUE);
}

Test(trace, writes_exact_decimal_seconds_and_defaults_empty) {
  job_spec j;
  job_init(&j, JOB_INFERENCE);
  j.id = "s,1";
  j.submit_ns = INT64_C(1500000000);
  j.duration_ns = INT64_C(86400000000001);
  j.mem_bytes = INT64_C(39996882944);
  j.rate_rps = 200;
  j.service_ms = 0.1;
  j.slo_ms = 1e-7;
  j.kv_bytes = INT64_C(250000000);
  GString *s = g_string_new(NULL);
  trace_write_row(s, &j);
  cr_expect_str_eq(s->str, "\"s,1\",1.5,inference,1,39.996882944,86400.000000001,default,,,,,,,"
                           "200,0.1,1e-07,,0.25,,,,,\n");
  g_string_truncate(s, 0);
  job_init(&j, JOB_BATCH);
  j.id = "b";
  j.duration_ns = 60 * SIM_NS_PER_S;
  j.restart = RESTART_ON_FAILURE;
  j.priority = -3;
  j.sm = 0.3;
  trace_write_row(s, &j);
  cr_expect_str_eq(s->str, "b,0,batch,1,0,60,default,,-3,,0.3,,,,,,,,,,,on-failure,\n");
  g_string_free(s, TRUE);
}

Test(trace, round_trip_file) {
  g_autoptr(trace) a = load_ok(TDIR "all-columns.csv");
  GString *s = g_string_new(NULL);
  trace_write_header(s);
  for (guint i = 0; i < trace_n_jobs(a); i++) trace_write_row(s, tu_row(a, i));
  g_autofree char *path = write_tmp("rt.csv", s->str, (gssize)s->len);
  g_string_free(s, TRUE);
  g_autoptr(trace) b = load_ok(path);
  cr_assert_eq(trace_n_jobs(b), trace_n_jobs(a));
  for (guint i = 0; i < trace_n_jobs(a); i++) expect_same_job(tu_row(a, i), tu_row(b, i));
}

Test(trace, round_trip_awkward_values) {
  /* Values chosen to trip naive formatting: ns precision at large times, doubles with 17
   * significant digits, tiny and huge magnitudes, quotes and newlines in strings. */
  GRand *rng = g_rand_new_with_seed(7);
  GPtrArray *ids = g_ptr_array_new_with_free_func(g_free);
  GArray *jobs = g_array_new(FALSE, FALSE, sizeof(job_spec));
  for (int i = 0; i < 400; i++) {
    job_spec j;
    job_init(&j, (job_kind)(i % JOB_KIND_COUNT));
    char *id = g_strdup_printf("job \"%d\"%s", i, i % 7 ? "" : ", x");
    g_ptr_array_add(ids, id);
    j.id = id;
    j.tenant = i % 3 ? "t,1" : "default";
    j.label = i % 5 ? "" : "lab\"el";
    j.submit_ns = (sim_time)g_rand_int_range(rng, 0, G_MAXINT32) * INT64_C(465661287) +
                  g_rand_int_range(rng, 0, 1000);
    if (j.submit_ns > TRACE_MAX_TIME_NS) j.submit_ns = TRACE_MAX_TIME_NS;
    j.duration_ns = 1 + (sim_time)g_rand_int_range(rng, 0, G_MAXINT32) * 1000003;
    j.mem_bytes = (int64_t)g_rand_int_range(rng, 0, G_MAXINT32) * 4656;
    j.kv_bytes = i % 2 ? 0 : (int64_t)g_rand_int_range(rng, 1, G_MAXINT32);
    j.gpus = j.kind == JOB_TRAINING ? 1u << (i % 6) : 1;
    j.gpu_frac = j.gpus > 1 ? 1.0 : g_rand_double_range(rng, 1e-9, 1.0);
    j.sm = g_rand_double_range(rng, 1e-6, 1.0);
    j.busy = i % 4 == 1 ? 0.0 : g_rand_double(rng);
    j.burst_ns = 1 + g_rand_int_range(rng, 0, G_MAXINT32);
    j.rate_rps = j.kind == JOB_INFERENCE ? g_rand_double_range(rng, 0, 1e6) : 0;
    j.service_ms = j.kind == JOB_INFERENCE ? g_rand_double_range(rng, 1e-3, 1e4) : 0;
    j.slo_ms = i % 3 ? g_rand_double_range(rng, 1e-12, 1e9) : 0;
    j.slo_pct = g_rand_double_range(rng, 1e-9, 100.0);
    j.max_batch = (guint32)g_rand_int_range(rng, 1, 65537);
    j.comm_frac = g_rand_double_range(rng, 0, 0.999999);
    j.checkpoint_ns = i % 2 ? 0 : g_rand_int_range(rng, 1, G_MAXINT32);
    j.priority = (int32_t)g_rand_int(rng);
    j.restart = i % 2 ? RESTART_NEVER : RESTART_ON_FAILURE;
    g_array_append_val(jobs, j);
  }
  GString *s = g_string_new(NULL);
  trace_write_header(s);
  for (guint i = 0; i < jobs->len; i++) trace_write_row(s, &g_array_index(jobs, job_spec, i));
  g_autofree char *path = write_tmp("rt2.csv", s->str, (gssize)s->len);
  g_string_free(s, TRUE);
  g_autoptr(trace) b = load_ok(path);
  cr_assert_eq(trace_n_jobs(b), jobs->len);
  for (guint i = 0; i < jobs->len; i++)
    expect_same_job(&g_array_index(jobs, job_spec, i), tu_row(b, i));
  g_array_unref(jobs);
  g_ptr_array_unref(ids);
  g_rand_free(rng);
}

/* ---- phases --------------------------------------------------------------------------- */

Test(trace, phases_sorted_and_indexed) {
  g_autoptr(trace) t = load_ok(TDIR "small.csv");
  g_autoptr(diag_list) d = diag_list_new(0);
  cr_assert(trace_load_phases(t, TDIR "phases.csv", d), "%s", diag_join(d));
  cr_assert_eq(t->phases->len, 5);
  /* jobs in trace order nb(0), svc(1), svc2(2), tr(3); within a job by time, then line */
  const struct { guint32 job, line, set; sim_time after_ns; } want[] = {
      {0, 4, PHASE_SET_BUSY, 60 * SIM_NS_PER_S},
      {0, 3, PHASE_SET_MEM | PHASE_SET_BUSY, 2400 * SIM_NS_PER_S},
      {0, 6, PHASE_SET_SM, 2400 * SIM_NS_PER_S},
      {1, 2, PHASE_SET_RATE, 600 * SIM_NS_PER_S},
      {3, 5, PHASE_SET_SM | PHASE_CRASH, 100 * SIM_NS_PER_S},
  };
  for (guint i = 0; i < 5; i++) {
    const job_phase *p = &g_array_index(t->phases, job_phase, i);
    cr_expect_eq(p->job, want[i].job, "phase %u", i);
    cr_expect_eq(p->line, want[i].line, "phase %u", i);
    cr_expect_eq(p->set, want[i].set, "phase %u", i);
    cr_expect_eq(p->after_ns, want[i].after_ns, "phase %u", i);
  }
  const job_phase *p1 = &g_array_index(t->phases, job_phase, 1);
  cr_expect_eq(p1->mem_bytes, INT64_C(30000000000));
  cr_expect_eq(p1->busy, 0.5);
  cr_expect_eq(g_array_index(t->phases, job_phase, 3).rate_rps, 20.0);
  cr_expect_eq(g_array_index(t->phases, job_phase, 4).sm, 0.8);
  const job_spec *nb = job_by_id(t, "nb"), *svc = job_by_id(t, "svc"),
                 *svc2 = job_by_id(t, "svc2"), *tr = job_by_id(t, "tr");
  cr_expect_eq(nb->phase_first, 0);
  cr_expect_eq(nb->phase_count, 3);
  cr_expect_eq(svc->phase_first, 3);
  cr_expect_eq(svc->phase_count, 1);
  cr_expect_eq(svc2->phase_count, 0);
  cr_expect_eq(tr->phase_first, 4);
  cr_expect_eq(tr->phase_count, 1);
}

Test(trace, phases_problems) {
  g_autoptr(trace) t = load_ok(TDIR "small.csv");
  g_autoptr(diag_list) d = diag_list_new(0);
  cr_expect_not(trace_load_phases(t, TDIR "phases-bad.csv", d));
  const char *m[] = {
      ":2:1: job_id: expected the id of a job in the trace, found 'nope'",
      ":3:2: after_s: expected seconds >= 0 after the job starts (a decimal number, at most "
      "1e9), found '-1'",
      ":4:4: busy: expected an empty cell (busy is the notebook duty cycle; job 'tr' is "
      "training), found '0.5'",
      ":5:5: rate_rps: expected an empty cell (rate_rps applies to inference jobs; job 'nb' is "
      "notebook), found '3'",
      ":6:3: mem_gb: expected a size >= 0 in GB (a number, or with a unit: 40GB, 37.25GiB; at "
      "most 10 TB), found 'abc'",
      ":6:6: crash: expected 0 or 1, found '2'",
  };
  expect_msgs(d, TDIR "phases-bad.csv", m, 6);
  cr_expect_eq(t->phases->len, 0);
  cr_expect_eq(job_by_id(t, "nb")->phase_count, 0);
}

Test(trace, phases_header_checked) {
  g_autoptr(trace) t = load_ok(TDIR "small.csv");
  g_autofree char *path = write_tmp("ph.csv", "job_id,when,x_why\nnb,1,oom\n", -1);
  g_autoptr(diag_list) d = diag_list_new(0);
  cr_expect_not(trace_load_phases(t, path, d));
  const char *m[] = {
      ":1:2: unknown column: expected one of job_id, after_s, mem_gb, busy, sm, rate_rps, "
      "crash, or a name starting with x_, found 'when'",
      ":1: missing required column 'after_s'"};
  expect_msgs(d, path, m, 2);
}

/* ---- requests ------------------------------------------------------------------------- */

typedef struct seen_request {
  guint32 job;
  double at_s, service_ms;
} seen_request;

static gboolean collect_request(guint32 job, double at_s, double service_ms, void *ud) {
  GArray *a = ud;
  seen_request r = {job, at_s, service_ms};
  g_array_append_val(a, r);
  return a->len < 100;
}

static gboolean stop_after_two(guint32 job, double at_s, double service_ms, void *ud) {
  GArray *a = ud;
  collect_request(job, at_s, service_ms, ud);
  return a->len < 2;
}

Test(trace, requests_checked_marked_and_streamed) {
  g_autoptr(trace) t = load_ok(TDIR "small.csv");
  g_autoptr(diag_list) d = diag_list_new(0);
  cr_assert(trace_check_requests(t, TDIR "requests.csv", d), "%s", diag_join(d));
  cr_expect_str_eq(t->requests_path, TDIR "requests.csv");
  cr_expect(job_by_id(t, "svc")->has_requests);
  cr_expect(job_by_id(t, "svc2")->has_requests);
  cr_expect_not(job_by_id(t, "nb")->has_requests);

  GArray *got = g_array_new(FALSE, FALSE, sizeof(seen_request));
  cr_assert(trace_requests_foreach(t, NULL, collect_request, got, d));
  cr_assert_eq(got->len, 5);
  const seen_request want[] = {
      {1, 0.5, NAN}, {1, 0.75, 18}, {2, 0.1, NAN}, {1, 0.75, NAN}, {2, 3, 22.5}};
  for (guint i = 0; i < 5; i++) {
    seen_request *r = &g_array_index(got, seen_request, i);
    cr_expect_eq(r->job, want[i].job, "row %u", i);
    cr_expect_eq(r->at_s, want[i].at_s, "row %u", i);
    if (isnan(want[i].service_ms)) cr_expect(isnan(r->service_ms), "row %u", i);
    else cr_expect_eq(r->service_ms, want[i].service_ms, "row %u", i);
  }
  g_array_set_size(got, 0);
  cr_expect(trace_requests_foreach(t, TDIR "requests.csv", stop_after_two, got, d));
  cr_expect_eq(got->len, 2);
  cr_expect_eq(d->count, 0);
  g_array_unref(got);
}

Test(trace, requests_problems) {
  g_autoptr(trace) t = load_ok(TDIR "small.csv");
  g_autoptr(diag_list) d = diag_list_new(0);
  cr_expect_not(trace_check_requests(t, TDIR "requests-bad.csv", d));
  const char *m[] = {
      ":3:1: job_id: expected the id of an inference job (job 'tr' is training), found 'tr'",
      ":4:1: job_id: expected the id of an inference job in the trace, found 'ghost'",
      ":5:2: at_s: expected seconds >= 1 (the time of the previous request of job 'svc'; a "
      "job's requests must be in time order), found '0.5'",
      ":6:2: at_s: expected seconds >= 0 (a decimal number, at most 1e9), found 'abc'",
      ":7:3: service_ms: expected milliseconds > 0 (at most 1e12), found '0'",
      ":8:2: at_s: expected seconds >= 0 (a decimal number, at most 1e9), found '-1'",
  };
  expect_msgs(d, TDIR "requests-bad.csv", m, 6);
  cr_expect_null(t->requests_path);
  cr_expect_not(job_by_id(t, "svc")->has_requests);

  /* streaming stops at the first problem, after delivering the rows before it */
  g_autoptr(diag_list) d2 = diag_list_new(0);
  GArray *got = g_array_new(FALSE, FALSE, sizeof(seen_request));
  cr_expect_not(trace_requests_foreach(t, TDIR "requests-bad.csv", collect_request, got, d2));
  cr_expect_eq(got->len, 1);
  cr_expect_eq(d2->count, 1);
  g_array_unref(got);
}

Test(trace, requests_interleaved_jobs_each_in_order) {
  g_autoptr(trace) t = load_ok(TDIR "small.csv");
  g_autofree char *path =
      write_tmp("rq.csv", "at_s,job_id\n5,svc\n1,svc2\n5,svc\n2,svc2\n6,svc\n1.5,svc2\n", -1);
  g_autoptr(diag_list) d = diag_list_new(0);
  cr_expect_not(trace_check_requests(t, path, d));
  const char *m[] = {":7:1: at_s: expected seconds >= 2 (the time of the previous request of "
                     "job 'svc2'; a job's requests must be in time order), found '1.5'"};
  expect_msgs(d, path, m, 1);
}

Test(trace, requests_header_checked) {
  g_autoptr(trace) t = load_ok(TDIR "small.csv");
  g_autofree char *path = write_tmp("rq.csv", "job_id,time\nsvc,1\n", -1);
  g_autoptr(diag_list) d = diag_list_new(0);
  cr_expect_not(trace_check_requests(t, path, d));
  const char *m[] = {":1:2: unknown column: expected one of job_id, at_s, service_ms, "
                     "prompt_tokens, output_tokens, or a name starting with x_, found 'time'",
                     ":1: missing required column 'at_s'"};
  expect_msgs(d, path, m, 2);
}

/* ---- scale ---------------------------------------------------------------------------- */

Test(trace, many_rows_written_and_read_back) {
  const guint n = 100000;
  GString *s = g_string_new(NULL);
  trace_write_header(s);
  char id[32];
  for (guint i = 0; i < n; i++) {
    job_spec j;
    job_init(&j, (job_kind)(i % JOB_KIND_COUNT));
    snprintf(id, sizeof id, "job-%06u", i);
    j.id = id;
    j.tenant = i % 2 ? "team-a" : "team-b";
    j.submit_ns = (sim_time)i * 1234567;
    j.duration_ns = 60 * SIM_NS_PER_S + i;
    j.mem_bytes = (int64_t)(i % 80) * UTIL_GB_BYTES;
    if (j.kind == JOB_INFERENCE) {
      j.rate_rps = i % 50;
      j.service_ms = 1 + i % 100;
    }
    trace_write_row(s, &j);
  }
  g_autofree char *path = write_tmp("many.csv", s->str, (gssize)s->len);
  g_string_free(s, TRUE);
  g_autoptr(trace) t = load_ok(path);
  cr_assert_eq(trace_n_jobs(t), n);
  const job_spec *last = tu_row(t, n - 1);
  cr_expect_str_eq(last->id, "job-099999");
  cr_expect_eq(last->line, n + 1);
  cr_expect_eq(last->submit_ns, (sim_time)(n - 1) * 1234567);
  cr_expect_eq(last->duration_ns, 60 * SIM_NS_PER_S + n - 1);
  cr_expect_eq(last->mem_bytes, (int64_t)((n - 1) % 80) * UTIL_GB_BYTES);
  cr_expect_eq(trace_find(t, "job-050000"), 50000);
  cr_expect_eq(tu_row(t, 1)->rate_rps, 1.0);
  cr_expect_eq(tu_row(t, 0)->tenant, tu_row(t, 2)->tenant); /* interned */
  cr_expect_eq(g_hash_table_size(t->interned), 3);                 /* team-a, team-b, "" */
}

/* ---- packed rows (tracerows.h) --------------------------------------------------------- */

/* Every byte of a job_spec comes back from the packed rows (but the trace's own fields,
 * phase_first, phase_count and has_requests, and the padding after them): a field added to
 * job_spec and not to the rows' table fails here. Rows that keep the defaults and rows
 * that change them, across chunks of 65,536 rows; ids found by the index. */
Test(trace, packed_rows_give_back_every_field) {
  trace_rows *r = trace_rows_new();
  static const char *const strs[] = {"default", "", "team-a", "A100|H100"};
  const guint n = 140000;
  for (guint i = 0; i < n; i++) {
    job_spec j;
    if (i % 3 == 0) {
      job_init(&j, (job_kind)(i % JOB_KIND_COUNT));
      if (i % 2) { /* short decimals, whole seconds and megabytes, negatives, -0 */
        j.sm = (double)(i % 1000) / 1000;
        j.busy = (double)(i % 7) / 1e6;
        j.rate_rps = i % 11 ? (double)i * 0.1 : -0.0;
        j.mem_bytes = (int64_t)i * 1000000;
        j.duration_ns = (sim_time)i * SIM_NS_PER_S + (i % 4 ? 0 : 1);
        j.priority = -(int32_t)i;
        j.cpu_milli = i % 13 ? INT64_MAX - i : INT64_MIN;
        j.gpu_frac = 1.0 / (double)(i + 3);
      }
    } else {
      memset(&j, 0x5a + (int)(i % 7), sizeof j);
      j.kind = (job_kind)(i % JOB_KIND_COUNT);
      j.llm = (const struct llm_model *)(uintptr_t)(i * 16);
    }
    char id[32];
    g_snprintf(id, sizeof id, "job-%u", i);
    j.id = id;
    j.tenant = strs[i % 4];
    j.label = strs[(i + 1) % 4];
    j.gpu_spec = i % 5 ? NULL : strs[3];
    j.line = i + 2;
    j.submit_ns = (sim_time)i * 1000 + 7;
    j.phase_first = j.phase_count = 0;
    j.has_requests = FALSE;
    cr_assert_eq(trace_rows_add(r, &j), i);
    job_spec back;
    trace_rows_get(r, i, &back);
    cr_assert_str_eq(back.id, id);
    back.id = j.id;
    gsize gap = offsetof(job_spec, has_requests), gap_end = offsetof(job_spec, cpu_milli);
    memset((char *)&back + gap, 0, gap_end - gap);
    memset((char *)&j + gap, 0, gap_end - gap);
    cr_assert(memcmp(&back, &j, sizeof j) == 0, "row %u differs", i);
  }
  trace_rows_seal(r);
  cr_assert_eq(trace_rows_len(r), n);
  for (guint i = 0; i < n; i += 997) {
    char id[32];
    g_snprintf(id, sizeof id, "job-%u", i);
    cr_assert_eq(trace_rows_find(r, id), i);
    cr_assert_str_eq(trace_rows_id(r, i), id);
    cr_assert_eq(trace_rows_line(r, i), i + 2);
    cr_assert_eq(trace_rows_submit(r, i), (sim_time)i * 1000 + 7);
  }
  cr_assert_eq(trace_rows_find(r, "job-x"), -1);
  trace_rows_free(r);
}

/* The bundled trace packs to well under the 256 bytes of a job_spec a row (ids, offsets
 * and the id index included). */
Test(trace, packed_rows_are_small) {
  g_autofree char *path = g_build_filename(TEST_DATA_DIR, "..", "..", "traces", "mixed-small.csv", NULL);
  g_autoptr(trace) t = load_ok(path);
  double per_row = (double)trace_rows_bytes(t->rows) / trace_n_jobs(t);
  cr_assert_lt(per_row, 56.0, "%.1f bytes a row", per_row);
}

/* ---- numbers: the reader's short cuts give what strtod and exact decimals give ---- */

/* n random decimal digits (the first not 0 unless lead0) into s. */
static void rand_digits(GRand *g, GString *s, guint n, gboolean lead0) {
  for (guint i = 0; i < n; i++)
    g_string_append_c(s, (char)('0' + (i == 0 && !lead0 ? g_rand_int_range(g, 1, 10)
                                                          : g_rand_int_range(g, 0, 10))));
}

/* A decimal of up to max_int integer digits (none at times) and up to 20 fraction digits,
 * now and then with a '+', leading zeros or no digit after the point. */
static char *rand_decimal(GRand *g, guint max_int) {
  GString *s = g_string_new(g_rand_int_range(g, 0, 20) == 0 ? "+" : "");
  guint n_int = (guint)g_rand_int_range(g, 0, (gint)max_int + 1);
  if (g_rand_int_range(g, 0, 10) == 0) g_string_append(s, "00");
  rand_digits(g, s, n_int, FALSE);
  guint n_frac = (guint)g_rand_int_range(g, 0, 21);
  if (!n_int && !n_frac) n_frac = 1;
  if (n_frac || g_rand_int_range(g, 0, 4) == 0) g_string_append_c(s, '.');
  rand_digits(g, s, n_frac, TRUE);
  return g_string_free(s, FALSE);
}

/* text * 10^9 to the nearest integer, halves up (text: rand_decimal's form). */
static int64_t exact_fixed9(const char *text) {
  const char *p = text + (*text == '+');
  int64_t ip = 0, fp = 0;
  for (; g_ascii_isdigit(*p); p++) ip = ip * 10 + (*p - '0');
  guint n = 0;
  int round = 0;
  if (*p == '.') {
    for (p++; g_ascii_isdigit(*p); p++, n++) {
      if (n < 9) fp = fp * 10 + (*p - '0');
      else if (n == 9) round = *p >= '5';
    }
  }
  for (; n < 9; n++) fp *= 10;
  return ip * 1000000000 + fp + round;
}

/* 20,000 rows of random decimals (short and long, most within strtod's exact short cut,
 * some beyond it) in real, seconds, size and integer columns: every value read is the one
 * g_ascii_strtod gives (reals, bit for bit), the exact decimal (seconds, GB), strtoll's. */
Test(trace, numbers_read_as_strtod_and_exact_decimals_give_them) {
  g_autoptr(GRand) g = g_rand_new_with_seed(17);
  GString *csv = g_string_new("id,submit_s,kind,gpus,mem_gb,duration_s,priority,gpu_frac,"
                              "rate_rps\n");
  guint n = 20000;
  GPtrArray *cells = g_ptr_array_new_with_free_func(g_free);
  for (guint i = 0; i < n; i++) {
    char *submit = rand_decimal(g, 8), *mem = rand_decimal(g, 3), *rate = rand_decimal(g, 8);
    GString *frac = g_string_new("0.");
    rand_digits(g, frac, (guint)g_rand_int_range(g, 1, 21), TRUE);
    if (g_ascii_strtod(frac->str, NULL) == 0) g_string_append_c(frac, '1');
    char *prio = g_strdup_printf("%d", (gint32)g_rand_int(g));
    g_string_append_printf(csv, "j%u,%s,batch,1,%s,1,%s,%s,%s\n", i, submit, mem, prio,
                           frac->str, rate);
    g_ptr_array_add(cells, submit);
    g_ptr_array_add(cells, mem);
    g_ptr_array_add(cells, rate);
    g_ptr_array_add(cells, g_string_free(frac, FALSE));
    g_ptr_array_add(cells, prio);
  }
  g_autofree char *path = write_tmp("numbers.csv", csv->str, -1);
  g_string_free(csv, TRUE);
  trace *t = load_ok(path);
  cr_assert_eq(trace_n_jobs(t), n);
  for (guint i = 0; i < n; i++) {
    const job_spec *j = tu_row(t, i);
    const char *const *c = (const char *const *)&cells->pdata[5 * i];
    cr_assert_eq(j->submit_ns, exact_fixed9(c[0]), "submit_s %s", c[0]);
    cr_assert_eq(j->mem_bytes, exact_fixed9(c[1]), "mem_gb %s", c[1]);
    double rate = g_ascii_strtod(c[2], NULL) + 0.0, frac = g_ascii_strtod(c[3], NULL);
    cr_assert_eq(memcmp(&j->rate_rps, &rate, sizeof rate), 0, "rate_rps %s: %.17g, not %.17g",
                 c[2], j->rate_rps, rate);
    cr_assert_eq(memcmp(&j->gpu_frac, &frac, sizeof frac), 0, "gpu_frac %s: %.17g, not %.17g",
                 c[3], j->gpu_frac, frac);
    cr_assert_eq(j->priority, (int32_t)g_ascii_strtoll(c[4], NULL, 10), "priority %s", c[4]);
  }
  trace_free(t);
  g_ptr_array_unref(cells);
}

/* trace_write_row_full keeps every column a job has: an LLM service (model, tokens, its
 * SLOs, gpu_memory_utilization) and memory activity come back the same (plan writes its
 * classes' traces with it; the base writer dropped them, and plan refused LLM traces). */
Test(trace, full_writer_reads_back_llm_and_memory_columns) {
  diag_list *d = NULL;
  char *path = NULL;
  trace *t = load_text("id,submit_s,kind,gpus,mem_gb,duration_s,rate_rps,model,prompt_tokens,"
                       "output_tokens,slo_ttft_ms,slo_tpot_ms,gpu_memory_utilization,gpu_util,"
                       "mem_util,cpu_milli\n"
                       "chat,0,inference,1,0,120,2.5,llama-3-8b,900,60,500,50,0.8,,,\n"
                       "tr,5,training,2,20,600,,,,,,,,0.5,0.25,4000\n",
                       &d, &path);
  cr_assert_not_null(t);
  GString *s = g_string_new(NULL);
  trace_write_header_full(s);
  for (guint i = 0; i < trace_n_jobs(t); i++) {
    job_spec j = trace_job(t, i);
    trace_write_row_full(s, &j);
  }
  diag_list *d2 = NULL;
  char *path2 = NULL;
  trace *t2 = load_text(s->str, &d2, &path2);
  cr_assert_not_null(t2, "written: %s", s->str);
  cr_assert_eq(trace_n_jobs(t2), 2);
  for (guint i = 0; i < 2; i++) {
    job_spec a = trace_job(t, i), b = trace_job(t2, i);
    cr_expect_eq(a.llm, b.llm, "job %u: model", i);
    cr_expect_eq(a.prompt_tokens, b.prompt_tokens);
    cr_expect_eq(a.output_tokens, b.output_tokens);
    cr_expect_eq(a.slo_ttft_ms, b.slo_ttft_ms);
    cr_expect_eq(a.slo_tpot_ms, b.slo_tpot_ms);
    cr_expect_eq(a.gpu_mem_util, b.gpu_mem_util);
    cr_expect_eq(a.mem_util, b.mem_util, "job %u: mem_util %g %g", i, a.mem_util, b.mem_util);
    cr_expect_eq(a.mem_bytes, b.mem_bytes);
    cr_expect_eq(a.max_batch, b.max_batch);
    cr_expect_eq(a.sm, b.sm);
    cr_expect_eq(a.cpu_milli, b.cpu_milli);
  }
  cr_expect_not_null(trace_job(t2, 0).llm);
  cr_expect_eq(trace_job(t2, 1).mem_util, 0.25);
  g_string_free(s, TRUE);
  trace_free(t);
  trace_free(t2);
  diag_list_free(d);
  diag_list_free(d2);
  g_unlink(path);
  g_unlink(path2);
  g_free(path);
  g_free(path2);
}
