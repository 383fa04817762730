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

/* Writes text to a new file in a fresh temporary folder; returns its path (owned). */
static inline char *tu_write_temp(const char *name, const char *text) {
  static char *dir = NULL;
  if (!dir) dir = g_dir_make_tmp("sharesim-test-XXXXXX", NULL);
  char *path = g_build_filename(dir, name, NULL);
  g_assert(g_file_set_contents(path, text, -1, NULL));
  return path;
}

/* Loads scenario/trace/phases text and runs; fails the test on input errors. */
static inline results *tu_run(const char *yaml, const char *csv, const char *phases_csv) {
  g_autofree char *sp = tu_write_temp("scenario.yaml", yaml);
  g_autofree char *tp = tu_write_temp("trace.csv", csv);
  g_autoptr(diag_list) d = diag_list_new(0);
  scenario *sc = scenario_load(sp, d);
  trace *tr = sc ? trace_load(tp, d) : NULL;
  if (tr && phases_csv) {
    g_autofree char *pp = tu_write_temp("phases.csv", phases_csv);
    trace_load_phases(tr, pp, d);
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

static inline const job_result *tu_job(const results *r, const char *id) {
  for (guint i = 0; i < r->jobs->len; i++) {
    const job_result *j = &g_array_index(r->jobs, job_result, i);
    if (!strcmp(j->id, id)) return j;
  }
  cr_assert_fail("job %s not in results", id);
  return NULL;
}

#define TU_NEAR(a, b, tol) cr_assert(fabs((double)(a) - (double)(b)) <= (tol), \
  "%s = %.9g, expected %.9g (tol %g)", #a, (double)(a), (double)(b), (double)(tol))
