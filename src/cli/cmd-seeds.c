/* cmd-seeds.c: the --seeds option shared by run, compare and size: parsing it, loading the
 * seeded scenarios (the scenario's own seed, then the next ones) and running the seeds of
 * one or several scenarios into seeds folders on the study threads (studyrun.h). The
 * statistics and files are seeds.c's. */
#include "cmd-seeds.h"
#include "cmd.h"
#include "cmd-load.h"
#include "sim.h"
#include "studydir.h"
#include "studyrun.h"
#include "util.h"
#include <stdio.h>

gboolean cmd_seeds_parse(const char *name, const char *text, guint *n) {
  *n = 1;
  if (!text) return TRUE;
  guint64 v = 0;
  if (!g_ascii_string_to_unsigned(text, 10, 2, SEEDS_MAX, &v, NULL)) {
    g_autofree char *shown = figures_clean_text(text);
    fprintf(stderr, "sharesim %s: --seeds '%s': expected a whole number of seeds from 2 to %u "
                    "(each seed is one full run; without --seeds a single run)\n",
            name, shown, SEEDS_MAX);
    return FALSE;
  }
  *n = (guint)v;
  return TRUE;
}

gboolean cmd_seeds_check_range(const char *name, guint64 first, guint n) {
  if (n < 2 || first <= G_MAXUINT64 - (n - 1)) return TRUE;
  fprintf(stderr, "sharesim %s: --seeds %u: the seeds would run from %" G_GUINT64_FORMAT
                  " past the largest seed %" G_GUINT64_FORMAT "; give a smaller seed\n",
          name, n, first, G_MAXUINT64);
  return FALSE;
}

gboolean cmd_seeds_load(const char *name, const char *path, const char *const *sets,
                        guint n_sets, guint64 first, guint n, const trace *tr, scenario **sc) {
  if (!cmd_seeds_check_range(name, first, n)) return FALSE;
  g_autoptr(diag_list) d = diag_list_new(0);
  GPtrArray *ov = g_ptr_array_new();
  for (guint i = 0; i < n_sets; i++) g_ptr_array_add(ov, (char *)sets[i]);
  g_ptr_array_add(ov, NULL);
  for (guint k = 0; k < n && !diag_has_errors(d); k++) {
    g_autofree char *seed = g_strdup_printf("seed=%" G_GUINT64_FORMAT, first + k);
    ov->pdata[n_sets] = seed;
    sc[k] = scenario_load_with_overrides(path, (const char *const *)ov->pdata, n_sets + 1, d);
    if (sc[k]) sim_check_scenario(sc[k], d);
    /* the seed changes no estimate of the work budget: the first seed's check holds for all */
    if (k == 0 && sc[k] && !diag_has_errors(d)) cmd_budget(sc[k], tr, FALSE, d);
  }
  g_ptr_array_free(ov, TRUE);
  if (!diag_has_errors(d)) return TRUE;
  for (guint k = 0; k < n; k++)
    if (sc[k]) g_clear_pointer(&sc[k], scenario_free);
  cmd_print_diags(name, d);
  return FALSE;
}

/* Begins the seeds folder of every scenario and names each run's folder in it. */
static gboolean cmd_seeds_begin(scenario *const *sc, guint n_groups, guint n_seeds,
                                const char *const *dirs, outdir **od, char **run_dirs,
                                GError **error) {
  for (guint g = 0; g < n_groups; g++) {
    if (!(od[g] = outdir_begin(dirs[g], error))) return FALSE;
    for (guint k = 0; k < n_seeds; k++) {
      g_autofree char *sub = seeds_folder_name(sc[g * n_seeds + k]->seed);
      run_dirs[g * n_seeds + k] = g_build_filename(outdir_tmp_path(od[g]), sub, NULL);
    }
  }
  return TRUE;
}

/* The seeds files of each scenario written and its folder committed. */
static gboolean cmd_seeds_finish(run_figures **figs, guint n_groups, guint n_seeds,
                                 const char *const *dirs, outdir **od, seeds_table **tables,
                                 GError **error) {
  for (guint g = 0; g < n_groups; g++) {
    GPtrArray *runs = g_ptr_array_new_with_free_func((GDestroyNotify)figures_free);
    for (guint k = 0; k < n_seeds; k++)
      g_ptr_array_add(runs, g_steal_pointer(&figs[g * n_seeds + k]));
    tables[g] = seeds_build(runs);
    gboolean ok = seeds_write(tables[g], od[g], error);
    if (!ok) return FALSE;
    ok = studydir_commit(g_steal_pointer(&od[g]), dirs[g], "seeds.json", error);
    if (!ok) return FALSE;
  }
  return TRUE;
}

int cmd_seeds_run(const char *name, scenario *const *sc, guint n_groups, guint n_seeds,
                  const trace *tr, const char *const *dirs, guint jobs, gboolean progress,
                  seeds_table **tables) {
  guint n = n_groups * n_seeds;
  outdir **od = g_new0(outdir *, n_groups);
  char **run_dirs = g_new0(char *, n + 1);
  run_figures **figs = g_new0(run_figures *, n + 1);
  GError *err = NULL;
  gboolean ok = cmd_seeds_begin(sc, n_groups, n_seeds, dirs, od, run_dirs, &err);
  if (ok) {
    studyrun_pool *pool = studyrun_pool_new(jobs, progress, name);
    ok = studyrun_all(pool, (const scenario *const *)sc, tr, (const char *const *)run_dirs, n,
                      figs, &err) == n;
    studyrun_pool_free(pool);
  }
  if (ok) ok = cmd_seeds_finish(figs, n_groups, n_seeds, dirs, od, tables, &err);
  for (guint g = 0; g < n_groups; g++) {
    if (od[g]) outdir_abort(od[g]);
    if (!ok && tables[g]) g_clear_pointer(&tables[g], seeds_free);
  }
  for (guint i = 0; i < n; i++)
    if (figs[i]) figures_free(figs[i]);
  g_free(figs);
  for (guint i = 0; i < n; i++) g_free(run_dirs[i]);
  g_free(run_dirs);
  g_free(od);
  int rc = ok ? 0 : cmd_fail(name, err);
  g_clear_error(&err);
  return rc;
}
