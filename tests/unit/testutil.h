/* testutil.h: helpers shared by the unit tests: write inputs from strings into a
 * temporary folder, load them, run the simulator, find rows of the results. */
#pragma once
#include <criterion/criterion.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include "scenario.h"
#include "trace.h"
#include "sim.h"
#include "results.h"

/* Row i of t as a pointer (trace_job builds it by value): a copy in a ring of 64 that later
 * calls reuse, so a test may hold a few at once. */
/* The strategy row named name in the program's table (tests name strategies, never
 * their place in the table). */
static inline share_strategy tu_strategy(const char *name) {
  share_strategy s = NULL;
  cr_assert(share_strategy_parse(name, &s), "no strategy '%s' in the table", name);
  return s;
}

/* "notebook, inference, training, batch": the kinds of JOB_KINDS in table order, joined by
 * sep, for messages that list them (a new kind's row leaves the tests as they are). Owned. */
static inline char *tu_kind_names(const char *sep) {
  GString *s = g_string_new(NULL);
  for (int k = 0; k < JOB_KIND_COUNT; k++)
    g_string_append_printf(s, "%s%s", k ? sep : "", job_kind_name((job_kind)k));
  return g_string_free(s, FALSE);
}

static inline const job_spec *tu_row(const trace *t, guint i) {
  static job_spec ring[64];
  static guint next;
  job_spec *j = &ring[next++ % G_N_ELEMENTS(ring)];
  *j = trace_job(t, i);
  return j;
}

/* Writes text to a new file in a fresh temporary folder; returns its path (owned). */
static inline char *tu_write_temp(const char *name, const char *text) {
  static char *dir = NULL;
  if (!dir) dir = g_dir_make_tmp("sharesim-test-XXXXXX", NULL);
  char *path = g_build_filename(dir, name, NULL);
  g_assert(g_file_set_contents(path, text, -1, NULL));
  return path;
}

/* Loads scenario/trace text (and phases and requests text when not NULL) and runs; fails
 * the test on input errors. */
static inline results *tu_run_full(const char *yaml, const char *csv, const char *phases_csv,
                                   const char *requests_csv) {
  g_autofree char *sp = tu_write_temp("scenario.yaml", yaml);
  g_autofree char *tp = tu_write_temp("trace.csv", csv);
  g_autoptr(diag_list) d = diag_list_new(0);
  scenario *sc = scenario_load(sp, d);
  trace *tr = sc ? trace_load(tp, d) : NULL;
  if (tr && phases_csv) {
    g_autofree char *pp = tu_write_temp("phases.csv", phases_csv);
    trace_load_phases(tr, pp, d);
  }
  if (tr && requests_csv) {
    g_autofree char *rp = tu_write_temp("requests.csv", requests_csv);
    trace_check_requests(tr, rp, d);
  }
  if (diag_has_errors(d)) {
    g_autofree char *msg = diag_join(d);
    cr_assert_fail("input problems: %s", msg);
  }
  GError *err = NULL;
  results *r = sim_run(sc, tr, NULL, &err);
  cr_assert_not_null(r, "sim_run failed: %s", err ? err->message : "?");
  /* results borrow strings from scenario and trace: keep them alive (and reachable, so
   * LeakSanitizer does not count them) until the test process ends */
  static GPtrArray *keep = NULL;
  if (!keep) keep = g_ptr_array_new();
  g_ptr_array_add(keep, sc);
  g_ptr_array_add(keep, tr);
  return r;
}

static inline results *tu_run(const char *yaml, const char *csv, const char *phases_csv) {
  return tu_run_full(yaml, csv, phases_csv, NULL);
}

/* A fresh temporary folder per test (suite .init/.fini): tu_tmp_dir, emptied and removed
 * after the test; tu_write_tmp writes len bytes (or a C string when len < 0) into it. */
static char *tu_tmp_dir;
static inline void tu_tmp_setup(void) { tu_tmp_dir = g_dir_make_tmp("sharesim-unit-XXXXXX", NULL); }
static inline void tu_tmp_teardown(void) {
  if (!tu_tmp_dir) return;
  GDir *d = g_dir_open(tu_tmp_dir, 0, NULL);
  const char *name;
  while (d && (name = g_dir_read_name(d))) {
    g_autofree char *p = g_build_filename(tu_tmp_dir, name, NULL);
    g_unlink(p);
  }
  if (d) g_dir_close(d);
  g_rmdir(tu_tmp_dir);
  g_free(tu_tmp_dir);
  tu_tmp_dir = NULL;
}
static inline char *tu_write_tmp(const char *name, const char *data, gssize len) {
  char *path = g_build_filename(tu_tmp_dir, name, NULL);
  cr_assert(g_file_set_contents(path, data, len, NULL));
  return path;
}

static inline const job_result *tu_job(const results *r, const char *id) {
  for (guint i = 0; i < r->jobs->len; i++) {
    const job_result *j = &g_array_index(r->jobs, job_result, i);
    if (!strcmp(j->id, id)) return j;
  }
  cr_assert_fail("job %s not in results", id);
  return NULL;
}

static inline const service_result *tu_service(const results *r, const char *id) {
  for (guint i = 0; i < r->services->len; i++) {
    const service_result *s = &g_array_index(r->services, service_result, i);
    if (!strcmp(s->id, id)) return s;
  }
  cr_assert_fail("service %s not in results", id);
  return NULL;
}

#define TU_NEAR(a, b, tol) cr_assert(fabs((double)(a) - (double)(b)) <= (tol), \
  "%s = %.9g, expected %.9g (tol %g)", #a, (double)(a), (double)(b), (double)(tol))
