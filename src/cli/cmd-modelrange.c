/* cmd-modelrange.c: running a model range (`run --model-range`, and each scenario's of
 * `compare --model-range`): the scenario loaded once per run of modelrange.h's table (its
 * overrides plus the constant's end), all the runs' seeds on the study threads through
 * cmd-seeds.h, one seeds folder per run inside the model-range folder, then the table
 * printed and written beside them. */
#include "cmd-modelrange.h"
#include "cmd.h"
#include "cmd-seeds.h"
#include "modelrange.h"
#include "outdir.h"
#include "studydir.h"
#include <stdio.h>

/* The n_seeds scenarios of every run into sc[r * n_seeds + k]; FALSE after printing. */
static gboolean modelrange_load(const char *name, const char *path, const char *const *sets,
                                guint n_sets, guint64 first, guint n_seeds, const trace *tr,
                                guint runs, scenario **sc) {
  const char **ov = g_new0(const char *, n_sets + 2);
  for (guint i = 0; i < n_sets; i++) ov[i] = sets[i];
  gboolean ok = TRUE;
  for (guint r = 0; ok && r < runs; r++) {
    g_autofree char *set = modelrange_override(r);
    ov[n_sets] = set;
    ok = cmd_seeds_load(name, path, ov, n_sets + (set ? 1 : 0), first, n_seeds, tr,
                        sc + r * n_seeds);
  }
  g_free(ov);
  return ok;
}

/* Runs every run's seeds into work/FOLDER and builds the table (NULL with *rc the exit
 * code, after printing why). */
static modelrange_table *modelrange_run_all(const char *name, scenario **sc, guint runs,
                                            guint n_constants, guint n_seeds, const trace *tr,
                                            const char *work, guint jobs, gboolean progress,
                                            int *rc) {
  char **dirs = g_new0(char *, runs + 1);
  for (guint r = 0; r < runs; r++) {
    g_autofree char *sub = modelrange_folder_name(r);
    dirs[r] = g_build_filename(work, sub, NULL);
  }
  seeds_table **tables = g_new0(seeds_table *, runs + 1);
  *rc = cmd_seeds_run(name, sc, runs, n_seeds, tr, (const char *const *)dirs, jobs, progress,
                      tables);
  g_strfreev(dirs);
  modelrange_table *t = NULL;
  if (*rc == 0) {
    GPtrArray *groups = g_ptr_array_new();
    for (guint r = 0; r < runs; r++) g_ptr_array_add(groups, tables[r]);
    t = modelrange_build(groups, n_constants);
  }
  g_free(tables);
  return t;
}

/* Writes the table into od and commits it into out (od freed); the exit code. */
static int modelrange_commit(const char *name, const modelrange_table *t, outdir *od,
                             const char *out) {
  g_autoptr(GError) err = NULL;
  if (!modelrange_write(t, od, &err)) {
    outdir_abort(od);
    return cmd_fail(name, err);
  }
  if (!studydir_commit(od, out, "model-range.json", &err)) return cmd_fail(name, err);
  return 0;
}

int cmd_modelrange_table(const char *name, const char *path, const char *const *sets,
                         guint n_sets, guint64 first, guint n_seeds, const trace *tr,
                         const char *out, guint jobs, gboolean progress,
                         modelrange_table **table) {
  guint n_constants;
  modelrange_constants(&n_constants);
  guint runs = MODELRANGE_RUNS(n_constants);
  scenario **sc = g_new0(scenario *, runs * n_seeds + 1);
  int rc = 0;
  if (!modelrange_load(name, path, sets, n_sets, first, n_seeds, tr, runs, sc)) rc = 2;
  g_autoptr(GError) err = NULL;
  outdir *od = NULL;
  g_autofree char *scratch = NULL;
  if (rc == 0 && out && !(od = outdir_begin(out, &err))) rc = cmd_fail(name, err);
  if (rc == 0 && !out && !(scratch = outdir_make_scratch("sharesim-model-range", &err)))
    rc = cmd_fail(name, err);
  modelrange_table *t = NULL;
  if (rc == 0) {
    const char *work = od ? outdir_tmp_path(od) : scratch;
    t = modelrange_run_all(name, sc, runs, n_constants, n_seeds, tr, work, jobs, progress, &rc);
  }
  if (rc == 0 && od) rc = modelrange_commit(name, t, g_steal_pointer(&od), out);
  if (od) outdir_abort(od);
  if (rc != 0) g_clear_pointer(&t, modelrange_free);
  *table = t;
  if (scratch) outdir_remove_scratch(scratch);
  for (guint i = 0; i < runs * n_seeds; i++)
    if (sc[i]) scenario_free(sc[i]);
  g_free(sc);
  return rc;
}

int cmd_modelrange_run(const char *name, const char *path, const char *const *sets,
                       guint n_sets, guint64 first, guint n_seeds, const trace *tr,
                       const char *out, guint jobs, gboolean progress, gboolean quiet) {
  modelrange_table *t = NULL;
  int rc = cmd_modelrange_table(name, path, sets, n_sets, first, n_seeds, tr, out, jobs,
                                progress, &t);
  if (rc == 0 && !quiet) {
    g_autoptr(GString) text = g_string_new(NULL);
    modelrange_text(t, text);
    fwrite(text->str, 1, text->len, stdout);
    if (out) printf("results written to %s/ (one folder per run: base/, KEY-low/, KEY-high/)\n", out);
  }
  modelrange_free(t);
  return rc;
}
