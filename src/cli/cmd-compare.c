/* cmd-compare.c: `sharesim compare SCENARIO.yaml... TRACE.csv [-o DIR] [-j N]` (run each
 * scenario on the trace, N at once in threads (studyrun.h), then compare) and `sharesim
 * compare DIR DIR...` (compare earlier result folders). Prints the table (text, CSV or JSON); with -o writes one
 * result folder per scenario plus compare.txt/.csv/.json, all at once (studydir.h).
 * The table itself is compare.c's. */
#include "cmd.h"
#include "cmd-load.h"
#include "compare.h"
#include "figures.h"
#include "outdir.h"
#include "report.h"
#include "sim.h"
#include "studydir.h"
#include "studyrun.h"
#include "util.h"
#include <stdio.h>
#include <string.h>

static gboolean compare_is_dir(const char *p) { return g_file_test(p, G_FILE_TEST_IS_DIR); }

static gboolean compare_has(const char *dir, const char *file) {
  g_autofree char *p = g_build_filename(dir, file, NULL);
  return g_file_test(p, G_FILE_TEST_IS_REGULAR);
}

/* A sub-folder name for a scenario: its name (safe by the scenario rules), "-2", "-3"
 * ... when taken. */
static char *compare_sub_name(GHashTable *taken, const char *scenario_name) {
  const char *base = util_name_is_safe(scenario_name) ? scenario_name : "scenario";
  char *name = g_strdup(base);
  for (guint k = 2; g_hash_table_contains(taken, name); k++) {
    g_free(name);
    name = g_strdup_printf("%.56s-%u", base, k);
  }
  g_hash_table_add(taken, name);
  return g_strdup(name);
}

typedef enum { COMPARE_TEXT, COMPARE_CSV, COMPARE_JSON } compare_format;

/* What the command line asked for. */
typedef struct compare_args {
  char *phases, *requests, *out, *format;
  gboolean no_progress, quiet, brief;
  gint jobs;                 /* -j; 0: the number of processors */
  compare_format fmt;
  gboolean all_dirs;         /* every argument is a folder: compare earlier results */
} compare_args;

static void compare_args_clear(compare_args *a) {
  g_free(a->phases);
  g_free(a->requests);
  g_free(a->out);
  g_free(a->format);
}

/* --format and the arguments; 0 when they make sense, else the exit code (message
 * printed). */
static int compare_check_args(compare_args *a, int argc, char **argv) {
  a->fmt = COMPARE_TEXT;
  if (a->format && !strcmp(a->format, "csv")) a->fmt = COMPARE_CSV;
  else if (a->format && !strcmp(a->format, "json")) a->fmt = COMPARE_JSON;
  else if (a->format && strcmp(a->format, "text")) {
    g_autofree char *shown = figures_clean_text(a->format);
    fprintf(stderr, "sharesim compare: --format '%s': expected text, csv or json\n", shown);
    return 2;
  }
  if (argc < 2) {
    fprintf(stderr, "sharesim compare: expected SCENARIO.yaml... TRACE.csv, or result folders\n"
                    "Usage: sharesim compare %s\n", cmd_compare_entry.usage);
    return 2;
  }
  a->all_dirs = TRUE;
  for (int i = 1; i < argc; i++) a->all_dirs &= compare_is_dir(argv[i]);
  if (!a->all_dirs && argc < 3) {
    fprintf(stderr, "sharesim compare: expected one or more SCENARIO.yaml then TRACE.csv, or "
                    "result folders\nUsage: sharesim compare %s\n", cmd_compare_entry.usage);
    return 2;
  }
  if (!cmd_check_jobs("compare", &a->jobs)) return 2;
  if (a->all_dirs && (a->phases || a->requests)) {
    fprintf(stderr, "sharesim compare: --phases and --requests apply to scenarios, not to result folders\n");
    return 2;
  }
  return 0;
}

/* The runs of earlier result folders (or compare folders) given as arguments. */
static int compare_load_folders(int argc, char **argv, GPtrArray *runs) {
  g_autoptr(GError) err = NULL;
  for (int i = 1; i < argc; i++) {
    if (!compare_has(argv[i], "summary.json") && compare_has(argv[i], "compare.json")) {
      if (!compare_load_dir(argv[i], runs, &err)) return cmd_fail("compare", err);
      continue;
    }
    run_figures *f = figures_load(argv[i], &err);
    if (!f) return cmd_fail("compare", err);
    g_ptr_array_add(runs, f);
  }
  return 0;
}

/* Loads and checks every scenario (sc[i]) and the trace (*tr) before anything runs. FALSE
 * when one is bad (its problems printed). */
static gboolean compare_load_scenarios(const compare_args *a, int n_scen, char **paths,
                                       const char *trace_path, scenario **sc, trace **tr) {
  gboolean ok = TRUE;
  for (int i = 0; i < n_scen; i++) {
    cmd_inputs in = {0};
    if (!cmd_load_inputs("compare", paths[i], i == 0 ? trace_path : NULL,
                         i == 0 ? a->phases : NULL, i == 0 ? a->requests : NULL, NULL, 0, &in)) {
      ok = FALSE;
      if (i == 0) break; /* the trace is bad: the other scenarios cannot be checked */
      continue;
    }
    sc[i] = in.sc;
    if (i == 0) *tr = in.tr;
    if (!cmd_check_budget("compare", sc[i], *tr, FALSE)) ok = FALSE;
  }
  return ok;
}

/* Warns about the jobs sc can never run, names its sub-folder and starts its run. */
static void compare_start(const scenario *sc, const trace *tr,
                          const char *work, GHashTable *taken, guint i, studyrun_pool *pool,
                          studyrun_task **tasks) {
  g_autoptr(diag_list) unfit = diag_list_new(3);
  sim_check_jobs(sc, tr, unfit);
  if (unfit->count)
    fprintf(stderr, "sharesim compare: warning: %s: %u job%s can never run (outcome 'unplaceable')\n",
            sc->name, unfit->count, unfit->count == 1 ? "" : "s");
  g_autofree char *sub = compare_sub_name(taken, sc->name);
  g_autofree char *dir = g_build_filename(work, sub, NULL);
  tasks[i] = studyrun_task_new(sc, tr, dir, i);
  studyrun_submit(pool, tasks[i]);
}

/* Takes the finished tasks back (blocking only when wait); a failure stops the runs after
 * it, whose results are not reported. *first_failed: the first failed run, in scenario
 * order. */
static void compare_collect(studyrun_pool *pool, studyrun_task **tasks, int n_scen,
                            gboolean wait, int *first_failed) {
  while (studyrun_pending(pool) && (wait || studyrun_ready(pool))) {
    studyrun_task *t = studyrun_wait(pool);
    if (t->fig || t->stopped || (int)t->id > *first_failed) continue;
    *first_failed = (int)t->id;
    for (int k = *first_failed + 1; k < n_scen; k++)
      if (tasks[k]) studyrun_stop(tasks[k]);
  }
}

/* Runs every scenario on tr into work/SUB, a->jobs at once, and appends their figures to
 * runs in scenario order (folder SUB); the first failure in that order is reported, as
 * running them one after another would report it. */
static int compare_run_all(const compare_args *a, scenario **sc, int n_scen, const trace *tr,
                           const char *work, GPtrArray *runs) {
  studyrun_pool *pool = studyrun_pool_new((guint)a->jobs, !a->no_progress, "compare");
  studyrun_task **tasks = g_new0(studyrun_task *, n_scen);
  GHashTable *taken = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  int first_failed = n_scen, rc = 0;
  for (int i = 0; i < n_scen && first_failed == n_scen; i++) {
    compare_start(sc[i], tr, work, taken, (guint)i, pool, tasks);
    compare_collect(pool, tasks, n_scen, FALSE, &first_failed);
  }
  compare_collect(pool, tasks, n_scen, TRUE, &first_failed);
  if (first_failed < n_scen) rc = cmd_fail("compare", tasks[first_failed]->error);
  for (int i = 0; rc == 0 && i < n_scen; i++) {
    run_figures *f = g_steal_pointer(&tasks[i]->fig);
    g_autofree char *sub = g_path_get_basename(tasks[i]->dir);
    g_free(f->dir); /* compare.json records the sub-folder, relative to DIR */
    f->dir = g_steal_pointer(&sub);
    g_ptr_array_add(runs, f);
  }
  for (int i = 0; i < n_scen; i++) studyrun_task_free(tasks[i]);
  g_free(tasks);
  g_hash_table_destroy(taken);
  studyrun_pool_free(pool);
  return rc;
}

/* SCENARIO.yaml... TRACE.csv: loads everything, then runs each scenario into work (or,
 * without -o, into *scratch, made here). */
static int compare_run_scenarios(const compare_args *a, int argc, char **argv, const char *work,
                                 char **scratch, GPtrArray *runs) {
  int n_scen = argc - 2, rc = 0;
  trace *tr = NULL;
  scenario **sc = g_new0(scenario *, n_scen);
  if (!compare_load_scenarios(a, n_scen, argv + 1, argv[argc - 1], sc, &tr)) rc = 2;
  if (rc == 0 && !work) {
    g_autoptr(GError) err = NULL;
    *scratch = outdir_make_scratch("sharesim-compare", &err);
    if (!*scratch) rc = cmd_fail("compare", err);
    work = *scratch;
  }
  if (rc == 0) rc = compare_run_all(a, sc, n_scen, tr, work, runs);
  for (int i = 0; i < n_scen; i++)
    if (sc[i]) scenario_free(sc[i]);
  g_free(sc);
  cmd_inputs in = {NULL, tr};
  cmd_inputs_clear(&in);
  return rc;
}

/* Builds the table, writes compare.txt/.csv/.json into od (committed into a->out) and
 * prints the chosen form. Takes runs. */
static int compare_finish(const compare_args *a, GPtrArray *runs, outdir *od) {
  g_autoptr(GError) err = NULL;
  int rc = 0;
  g_autoptr(compare_table) t = compare_build(runs);
  GString *text = g_string_new(NULL), *csv = g_string_new(NULL), *json = g_string_new(NULL);
  compare_text(t, FALSE, text);
  compare_csv(t, csv);
  compare_json(t, json);
  if (od) {
    gboolean ok = outdir_write(od, "compare.txt", text->str, text->len, &err) &&
                  outdir_write(od, "compare.csv", csv->str, csv->len, &err) &&
                  outdir_write(od, "compare.json", json->str, json->len, &err);
    if (!ok) {
      outdir_abort(od);
    } else {
      ok = studydir_commit(od, a->out, "compare.json", &err);
    }
    if (!ok) rc = cmd_fail("compare", err);
  }
  if (rc == 0 && !a->quiet) {
    GString *shown = a->fmt == COMPARE_CSV ? csv : a->fmt == COMPARE_JSON ? json : text;
    if (a->fmt == COMPARE_TEXT && a->brief) {
      g_string_truncate(text, 0);
      compare_text(t, TRUE, text);
    }
    fwrite(shown->str, 1, shown->len, stdout);
    if (a->out && a->fmt == COMPARE_TEXT) printf("\nresults written to %s/\n", a->out);
  }
  g_string_free(text, TRUE);
  g_string_free(csv, TRUE);
  g_string_free(json, TRUE);
  return rc;
}

static int cmd_compare_main(int argc, char **argv) {
  compare_args a = {0};
  GOptionEntry entries[] = {
      {"output", 'o', 0, G_OPTION_ARG_FILENAME, &a.out, "Write each run and compare.txt/.csv/.json into DIR", "DIR"},
      {"format", 0, 0, G_OPTION_ARG_STRING, &a.format, "What to print: text (default), csv or json", "FORMAT"},
      {"phases", 0, 0, G_OPTION_ARG_FILENAME, &a.phases, "Phases file (docs/trace-format.md), for every scenario", "P.csv"},
      {"requests", 0, 0, G_OPTION_ARG_FILENAME, &a.requests, "Recorded inference requests (docs/trace-format.md)", "R.csv"},
      {"brief", 0, 0, G_OPTION_ARG_NONE, &a.brief, "Text without the per-pool and per-tenant rows (compare.txt keeps them)", NULL},
      {"jobs", 'j', 0, G_OPTION_ARG_INT, &a.jobs, "Scenarios run at once (default: the number of processors); the output is the same for any N", "N"},
      {"quiet", 'q', 0, G_OPTION_ARG_NONE, &a.quiet, "Print nothing on stdout", NULL},
      {"no-progress", 0, 0, G_OPTION_ARG_NONE, &a.no_progress, "Never show the progress bar", NULL},
      {NULL}};
  int rc;
  if (!cmd_parse_options(&cmd_compare_entry, entries, &argc, &argv, &rc)) {
    compare_args_clear(&a);
    return rc;
  }
  rc = compare_check_args(&a, argc, argv);
  if (rc != 0) {
    compare_args_clear(&a);
    return rc;
  }
  GPtrArray *runs = g_ptr_array_new_with_free_func((GDestroyNotify)figures_free);
  g_autoptr(GError) err = NULL;
  outdir *od = NULL;
  g_autofree char *scratch = NULL; /* a temporary folder removed at the end */
  if (a.out && !(od = outdir_begin(a.out, &err))) rc = cmd_fail("compare", err);
  if (rc == 0 && a.all_dirs)
    rc = compare_load_folders(argc, argv, runs);
  else if (rc == 0)
    rc = compare_run_scenarios(&a, argc, argv, od ? outdir_tmp_path(od) : NULL, &scratch, runs);
  if (rc == 0 && runs->len == 0) {
    fprintf(stderr, "sharesim compare: nothing to compare\n");
    rc = 2;
  }
  if (rc != 0) {
    g_ptr_array_free(runs, TRUE);
    if (od) outdir_abort(od);
  } else {
    rc = compare_finish(&a, runs, od);
  }
  if (scratch) outdir_remove_scratch(scratch);
  compare_args_clear(&a);
  return rc;
}

const cmd_entry cmd_compare_entry = {
    .loads_scenarios = TRUE,
    .name = "compare",
    .usage = "SCENARIO.yaml... TRACE.csv [-o DIR] [-j N] [--format text|csv|json]  |  DIR DIR... [-o DIR]",
    .summary = "same trace, several scenarios (or result folders): headline figures side by side",
    .main = cmd_compare_main,
};
