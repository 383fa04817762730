/* cmd-compare.c: `sharesim compare SCENARIO.yaml... TRACE.csv [-o DIR] [-j N] [--seeds N]`
 * (run each scenario on the trace, N at once in threads (studyrun.h), then compare) and
 * `sharesim compare DIR DIR...` (compare earlier result, seeds or compare folders). Prints
 * the table (text, CSV or JSON); with -o writes one result folder (with --seeds, one seeds
 * folder; with --model-range, one model-range folder) per scenario plus
 * compare.txt/.csv/.json, all at once (studydir.h). The table and the significance of its
 * differences are compare.c's, the model ranges side by side modelrange-compare.c's. */
#include "cmd.h"
#include "cmd-load.h"
#include "cmd-seeds.h"
#include "cmd-sql.h"
#include "cmd-compare-size.h"
#include "cmd-constraints.h"
#include "cmd-modelrange.h"
#include "compare.h"
#include "figures.h"
#include "outdir.h"
#include "report.h"
#include "seeds.h"
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
  char *phases, *requests, *out, *format, *seeds, *sqlite;
  gboolean size_to;          /* --size-to-constraints */
  char *slo, *max_wait;      /* its constraints (cmd-constraints.h) */
  gint64 max_oom, max_nodes;
  sizing_constraints cons;
  double slo_pct;
  gboolean no_progress, quiet, brief;
  gboolean model_range;      /* --model-range */
  guint n_seeds;             /* --seeds; 1 without it */
  gint jobs;                 /* -j; 0: the number of processors */
  compare_format fmt;
  gboolean all_dirs;         /* every argument is a folder: compare earlier results */
} compare_args;

static void compare_args_clear(compare_args *a) {
  g_free(a->phases);
  g_free(a->requests);
  g_free(a->out);
  g_free(a->format);
  g_free(a->seeds);
  g_free(a->sqlite);
  g_free(a->slo);
  g_free(a->max_wait);
}

/* --size-to-constraints and its constraints: 0 or 2 (message printed). */
static int compare_check_sizing(compare_args *a) {
  if (!a->size_to && (a->slo || a->max_wait || a->max_oom != -1 || a->max_nodes)) {
    fprintf(stderr, "sharesim compare: --slo, --max-oom, --max-wait-p95 and --max are the "
                    "constraints of --size-to-constraints: give it too\n");
    return 2;
  }
  if (!a->size_to) return 0;
  if (a->all_dirs) {
    fprintf(stderr, "sharesim compare: --size-to-constraints sizes scenarios before running "
                    "them: give SCENARIO.yaml... TRACE.csv, not result folders\n");
    return 2;
  }
  if (a->max_nodes < 0) {
    fprintf(stderr, "sharesim compare: --max %" G_GINT64_FORMAT ": expected 1 or more nodes\n",
            a->max_nodes);
    return 2;
  }
  return cmd_constraints_parse("compare", a->slo, a->max_oom, a->max_wait, &a->cons,
                               &a->slo_pct) ? 0 : 2;
}

extern const cmd_entry cmd_compare_entry; /* at the end of this file; its row: cmd.c */

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
  if (!cmd_check_jobs("compare", &a->jobs) || !cmd_seeds_parse("compare", a->seeds, &a->n_seeds))
    return 2;
  if (a->all_dirs && a->n_seeds > 1) {
    fprintf(stderr, "sharesim compare: --seeds runs scenarios; folders written by run --seeds "
                    "or compare --seeds are compared with their seeds as they are\n");
    return 2;
  }
  if (a->all_dirs && a->model_range) {
    fprintf(stderr, "sharesim compare: --model-range runs scenarios: give SCENARIO.yaml... "
                    "TRACE.csv, not result folders\n");
    return 2;
  }
  if (a->all_dirs && (a->phases || a->requests)) {
    fprintf(stderr, "sharesim compare: --phases and --requests apply to scenarios, not to result folders\n");
    return 2;
  }
  return compare_check_sizing(a);
}

/* What is compared: per run its figures, or with seeds its seeds_table (the other NULL),
 * and the folder it is recorded under. */
typedef struct compare_items {
  GPtrArray *runs;     /* run_figures* or NULL */
  GPtrArray *groups;   /* seeds_table* or NULL */
  GPtrArray *folders;  /* char* */
  GPtrArray *ranges;   /* --model-range: modelrange_table* per scenario; empty without it */
  compare_sizing sizing; /* --size-to-constraints (text empty without it) */
} compare_items;

static void compare_items_init(compare_items *it) {
  it->runs = g_ptr_array_new_with_free_func((GDestroyNotify)figures_free);
  it->groups = g_ptr_array_new_with_free_func((GDestroyNotify)seeds_free);
  it->folders = g_ptr_array_new_with_free_func(g_free);
  it->ranges = g_ptr_array_new_with_free_func((GDestroyNotify)modelrange_free);
  compare_sizing_init(&it->sizing);
}

static void compare_items_clear(compare_items *it) {
  g_ptr_array_free(it->runs, TRUE);
  g_ptr_array_free(it->groups, TRUE);
  g_ptr_array_free(it->folders, TRUE);
  g_ptr_array_free(it->ranges, TRUE);
  compare_sizing_clear(&it->sizing);
}

/* A result folder or a seeds folder. */
static gboolean compare_load_one(const char *dir, compare_items *it, GError **error) {
  run_figures *f = NULL;
  seeds_table *g = NULL;
  if (seeds_is_dir(dir)) g = seeds_load_dir(dir, error);
  else f = figures_load(dir, error);
  if (!f && !g) return FALSE;
  g_ptr_array_add(it->runs, f);
  g_ptr_array_add(it->groups, g);
  g_ptr_array_add(it->folders, g_strdup(dir));
  return TRUE;
}

/* The runs of earlier result, seeds or compare folders given as arguments. */
static int compare_load_folders(int argc, char **argv, compare_items *it) {
  g_autoptr(GError) err = NULL;
  for (int i = 1; i < argc; i++) {
    if (!compare_has(argv[i], "summary.json") && !seeds_is_dir(argv[i]) &&
        compare_has(argv[i], "compare.json")) {
      g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func(g_free);
      if (!compare_dir_folders(argv[i], paths, &err)) return cmd_fail("compare", err);
      for (guint k = 0; k < paths->len; k++)
        if (!compare_load_one(g_ptr_array_index(paths, k), it, &err)) return cmd_fail("compare", err);
      continue;
    }
    if (!compare_load_one(argv[i], it, &err)) return cmd_fail("compare", err);
  }
  return 0;
}

/* The table of the items (taken): plain, or with seeds when some item has them (a plain
 * run is then a group of one). */
static compare_table *compare_make_table(compare_items *it) {
  gboolean seeds = FALSE;
  for (guint i = 0; i < it->groups->len; i++) seeds |= g_ptr_array_index(it->groups, i) != NULL;
  if (!seeds) {
    GPtrArray *runs = g_ptr_array_new();
    for (guint i = 0; i < it->runs->len; i++) g_ptr_array_add(runs, g_steal_pointer(&it->runs->pdata[i]));
    compare_items_clear(it);
    return compare_build(runs);
  }
  GPtrArray *groups = g_ptr_array_new();
  for (guint i = 0; i < it->groups->len; i++) {
    seeds_table *g = g_steal_pointer(&it->groups->pdata[i]);
    if (!g) {
      GPtrArray *one = g_ptr_array_new();
      g_ptr_array_add(one, g_steal_pointer(&it->runs->pdata[i]));
      g = seeds_build(one);
    }
    g_ptr_array_add(groups, g);
  }
  compare_table *t = compare_build_seeds(groups, (const char *const *)it->folders->pdata);
  compare_items_clear(it);
  return t;
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

/* Warns about the jobs sc can never run; returns its sub-folder work/SUB (owned) and
 * records SUB in it->folders. */
static char *compare_prepare(const scenario *sc, const trace *tr, const char *work,
                             GHashTable *taken, compare_items *it) {
  g_autoptr(diag_list) unfit = diag_list_new(3);
  sim_check_jobs(sc, tr, unfit);
  if (unfit->count)
    fprintf(stderr, "sharesim compare: warning: %s: %u job%s can never run (outcome 'unplaceable')\n",
            sc->name, unfit->count, unfit->count == 1 ? "" : "s");
  char *sub = compare_sub_name(taken, sc->name);
  g_ptr_array_add(it->folders, sub); /* compare.json records the sub-folder, relative to DIR */
  return g_build_filename(work, sub, NULL);
}

/* One run per scenario, a->jobs at once, into work/SUB; the first failure in scenario
 * order is reported, as running them one after another would report it. */
static int compare_run_plain(const compare_args *a, scenario **sc, guint n, const trace *tr,
                             char **dirs, compare_items *it) {
  studyrun_pool *pool = studyrun_pool_new((guint)a->jobs, !a->no_progress, "compare");
  run_figures **figs = g_new0(run_figures *, n + 1);
  g_autoptr(GError) err = NULL;
  guint failed = studyrun_all(pool, (const scenario *const *)sc, tr, (const char *const *)dirs,
                              n, figs, &err);
  studyrun_pool_free(pool);
  for (guint i = 0; failed == n && i < n; i++) {
    g_free(figs[i]->dir);
    figs[i]->dir = g_strdup(g_ptr_array_index(it->folders, i));
    g_ptr_array_add(it->runs, figs[i]);
    g_ptr_array_add(it->groups, NULL);
  }
  g_free(figs);
  return failed == n ? 0 : cmd_fail("compare", err);
}

/* --seeds: every scenario's seeds (its own seed and the next ones), all a->jobs at once,
 * into the seeds folder work/SUB of each. */
static int compare_run_seeds(const compare_args *a, scenario **sc, guint n, char **paths,
                             const trace *tr, char **dirs, compare_items *it) {
  guint ns = a->n_seeds;
  scenario **all = g_new0(scenario *, n * ns + 1);
  int rc = 0;
  for (guint i = 0; rc == 0 && i < n; i++) {
    GPtrArray *sets = i < it->sizing.sets->len ? g_ptr_array_index(it->sizing.sets, i) : NULL;
    if (!cmd_seeds_load("compare", paths[i], sets ? (const char *const *)sets->pdata : NULL,
                        sets ? sets->len : 0, sc[i]->seed, ns, tr, all + i * ns))
      rc = 2;
  }
  seeds_table **tables = g_new0(seeds_table *, n + 1);
  if (rc == 0)
    rc = cmd_seeds_run("compare", all, n, ns, tr, (const char *const *)dirs, (guint)a->jobs,
                       !a->no_progress, tables);
  for (guint i = 0; rc == 0 && i < n; i++) {
    g_ptr_array_add(it->runs, NULL);
    g_ptr_array_add(it->groups, tables[i]);
  }
  for (guint i = 0; i < n * ns; i++)
    if (all[i]) scenario_free(all[i]);
  g_free(all);
  g_free(tables);
  return rc;
}

/* --model-range: every scenario's model range, one after another (each its runs -j at
 * once), into the model-range folder work/SUB; the compare table is its defaults' run
 * (SUB/base/seed-S, or with --seeds the seeds folder SUB/base), read back as compare DIR
 * reads it, and recorded under that folder. */
static int compare_run_ranges(const compare_args *a, scenario **sc, guint n, char **paths,
                              const trace *tr, char **dirs, compare_items *it) {
  int rc = 0;
  for (guint i = 0; rc == 0 && i < n; i++) {
    GPtrArray *sets = i < it->sizing.sets->len ? g_ptr_array_index(it->sizing.sets, i) : NULL;
    modelrange_table *t = NULL;
    rc = cmd_modelrange_table("compare", paths[i], sets ? (const char *const *)sets->pdata : NULL,
                              sets ? sets->len : 0, sc[i]->seed, a->n_seeds, tr, dirs[i],
                              (guint)a->jobs, !a->no_progress, &t);
    if (rc != 0) break;
    g_ptr_array_add(it->ranges, t);
    g_autofree char *seed = seeds_folder_name(sc[i]->seed);
    char *rel = a->n_seeds > 1 ? g_build_filename(it->folders->pdata[i], "base", NULL)
                               : g_build_filename(it->folders->pdata[i], "base", seed, NULL);
    g_free(it->folders->pdata[i]);
    it->folders->pdata[i] = rel;
    g_autofree char *dir = a->n_seeds > 1 ? g_build_filename(dirs[i], "base", NULL)
                                          : g_build_filename(dirs[i], "base", seed, NULL);
    g_autoptr(GError) err = NULL;
    run_figures *f = a->n_seeds > 1 ? NULL : figures_load(dir, &err);
    seeds_table *g = a->n_seeds > 1 ? seeds_load_dir(dir, &err) : NULL;
    if (!f && !g) rc = cmd_fail("compare", err);
    if (f) {
      g_free(f->dir);
      f->dir = g_strdup(rel);
    }
    g_ptr_array_add(it->runs, f);
    g_ptr_array_add(it->groups, g);
  }
  return rc;
}

/* Runs every scenario on tr into work/SUB (SUB named after the scenario). */
static int compare_run_all(const compare_args *a, scenario **sc, int n_scen, char **paths,
                           const trace *tr, const char *work, compare_items *it) {
  GHashTable *taken = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  char **dirs = g_new0(char *, n_scen + 1);
  for (int i = 0; i < n_scen; i++) dirs[i] = compare_prepare(sc[i], tr, work, taken, it);
  int rc = a->model_range ? compare_run_ranges(a, sc, (guint)n_scen, paths, tr, dirs, it)
           : a->n_seeds > 1 ? compare_run_seeds(a, sc, (guint)n_scen, paths, tr, dirs, it)
                            : compare_run_plain(a, sc, (guint)n_scen, tr, dirs, it);
  g_strfreev(dirs);
  g_hash_table_destroy(taken);
  return rc;
}

/* SCENARIO.yaml... TRACE.csv: loads everything, then runs each scenario into work (or,
 * without -o, into *scratch, made here). */
static int compare_run_scenarios(const compare_args *a, int argc, char **argv, const char *work,
                                 char **scratch, compare_items *it) {
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
  if (rc == 0 && a->size_to) {
    cmd_constraints_apply(&a->cons, a->slo_pct, tr);
    rc = compare_size_all(argv + 1, sc, (guint)n_scen, tr, work, &a->cons, a->max_nodes,
                          !a->no_progress, &it->sizing);
  }
  if (rc == 0) rc = compare_run_all(a, sc, n_scen, argv + 1, tr, work, it);
  for (int i = 0; i < n_scen; i++)
    if (sc[i]) scenario_free(sc[i]);
  g_free(sc);
  cmd_inputs in = {NULL, tr, 0};
  cmd_inputs_clear(&in);
  return rc;
}

/* With --size-to-constraints: what each pool was sized to, after the table. */
static void compare_sizing_note(const compare_sizing *z, GString *text) {
  if (!z->text->len) return;
  g_string_append_c(text, '\n');
  g_string_append_len(text, z->text->str, (gssize)z->text->len);
  if (z->unmet)
    g_string_append_printf(text, "  %u pool%s met the constraints at no size tried: compared "
                                 "at %s own size (exit 3)\n", z->unmet, z->unmet == 1 ? "" : "s",
                           z->unmet == 1 ? "its" : "their");
}

/* --model-range: the ranges side by side (text appended to compare.txt and to what is
 * printed, rcsv compare-range.csv), the columns named as the table's; nothing without it. */
static void compare_range_texts(const GPtrArray *ranges, const compare_table *t,
                                GString *rtext, GString *rcsv) {
  if (!ranges->len) return;
  modelrange_compare_text((modelrange_table *const *)ranges->pdata,
                          (const char *const *)t->names->pdata, ranges->len, rtext);
  modelrange_compare_csv((modelrange_table *const *)ranges->pdata,
                         (const char *const *)t->names->pdata, ranges->len, rcsv);
}

/* Builds the table, writes compare.txt/.csv/.json and compare-long.csv into od (committed
 * into a->out; into scratch for --sqlite without -o) and
 * prints the chosen form. Takes the items. */
static int compare_finish(const compare_args *a, compare_items *it, outdir *od,
                          const char *scratch) {
  g_autoptr(GError) err = NULL;
  int rc = 0;
  compare_sizing z = it->sizing; /* the table takes the items */
  compare_sizing_init(&it->sizing);
  g_autoptr(GPtrArray) ranges = g_steal_pointer(&it->ranges);
  it->ranges = g_ptr_array_new_with_free_func((GDestroyNotify)modelrange_free);
  g_autoptr(compare_table) t = compare_make_table(it);
  GString *text = g_string_new(NULL), *csv = g_string_new(NULL), *json = g_string_new(NULL);
  g_autoptr(GString) tall = g_string_new(NULL), rtext = g_string_new(NULL);
  g_autoptr(GString) rcsv = g_string_new(NULL);
  compare_range_texts(ranges, t, rtext, rcsv);
  compare_text(t, FALSE, text);
  compare_sizing_note(&z, text);
  g_string_append_len(text, rtext->str, (gssize)rtext->len);
  compare_csv(t, csv);
  compare_csv_long(t, tall);
  compare_json_with(t, z.json->str, json);
  if (od) {
    gboolean ok = outdir_write(od, "compare.txt", text->str, text->len, &err) &&
                  outdir_write(od, "compare.csv", csv->str, csv->len, &err) &&
                  outdir_write(od, "compare-long.csv", tall->str, tall->len, &err) &&
                  outdir_write(od, "compare.json", json->str, json->len, &err) &&
                  (!z.text->len || outdir_write(od, "sizing.csv", z.csv->str, z.csv->len, &err)) &&
                  (!rcsv->len || outdir_write(od, "compare-range.csv", rcsv->str, rcsv->len, &err));
    if (!ok) {
      outdir_abort(od);
    } else {
      ok = studydir_commit(od, a->out, "compare.json", &err);
    }
    if (!ok) rc = cmd_fail("compare", err);
  } else if (scratch && a->sqlite) {
    g_autofree char *path = g_build_filename(scratch, "compare.csv", NULL);
    g_autofree char *lpath = g_build_filename(scratch, "compare-long.csv", NULL);
    g_autofree char *rpath = g_build_filename(scratch, "compare-range.csv", NULL);
    if (!g_file_set_contents(path, csv->str, (gssize)csv->len, &err) ||
        !g_file_set_contents(lpath, tall->str, (gssize)tall->len, &err) ||
        (rcsv->len && !g_file_set_contents(rpath, rcsv->str, (gssize)rcsv->len, &err)))
      rc = cmd_fail("compare", err);
  }
  if (rc == 0 && !a->quiet) {
    GString *shown = a->fmt == COMPARE_CSV ? csv : a->fmt == COMPARE_JSON ? json : text;
    if (a->fmt == COMPARE_TEXT && a->brief) {
      g_string_truncate(text, 0);
      compare_text(t, TRUE, text);
      compare_sizing_note(&z, text);
      g_string_append_len(text, rtext->str, (gssize)rtext->len);
    }
    fwrite(shown->str, 1, shown->len, stdout);
    if (a->out && a->fmt == COMPARE_TEXT) printf("\nresults written to %s/\n", a->out);
  }
  g_string_free(text, TRUE);
  g_string_free(csv, TRUE);
  g_string_free(json, TRUE);
  if (rc == 0 && z.unmet) rc = 3; /* compared, but some pool cannot meet the constraints */
  compare_sizing_clear(&z);
  return rc;
}

static int cmd_compare_main(int argc, char **argv) {
  compare_args a = {.max_oom = -1};
  GOptionEntry entries[] = {
      {"output", 'o', 0, G_OPTION_ARG_FILENAME, &a.out, "Write each run and compare.txt/.csv/.json into DIR", "DIR"},
      {"format", 0, 0, G_OPTION_ARG_STRING, &a.format, "What to print: text (default), csv or json", "FORMAT"},
      {"phases", 0, 0, G_OPTION_ARG_FILENAME, &a.phases, "Phases file (docs/trace-format.md), for every scenario", "P.csv"},
      {"requests", 0, 0, G_OPTION_ARG_FILENAME, &a.requests, "Recorded inference requests (docs/trace-format.md)", "R.csv"},
      {"brief", 0, 0, G_OPTION_ARG_NONE, &a.brief, "Text without the per-pool and per-tenant rows (compare.txt keeps them)", NULL},
      {"jobs", 'j', 0, G_OPTION_ARG_INT, &a.jobs, "Scenarios run at once (default: the number of processors); the output is the same for any N", "N"},
      {"model-range", 0, 0, G_OPTION_ARG_NONE, &a.model_range, "Also run each scenario with each fitted or assumed model constant at each end of its interval: every figure as value [low, high], and each difference to the baseline at the same settings (compare-range.csv; DIR/NAME/ a model-range folder)", NULL},
      {"seeds", 0, 0, G_OPTION_ARG_STRING, &a.seeds, "Run each scenario with N seeds (its own and the next N - 1; 2 to 1000): means, 95 % intervals, significant differences marked *", "N"},
      CMD_SQL_OPTION(a.sqlite),
      {"size-to-constraints", 0, 0, G_OPTION_ARG_NONE, &a.size_to, "Size every pool of every scenario to the same constraints first (size's search), so a saving is the mechanism's, not the GPU counts typed", NULL},
      {"slo", 0, 0, G_OPTION_ARG_STRING, &a.slo, "With --size-to-constraints: every inference service meets its SLO (or LATENCY) for at least PCT % of requests", "PCT[@LATENCY]"},
      {"max-oom", 0, 0, G_OPTION_ARG_INT64, &a.max_oom, "With --size-to-constraints: at most N out-of-memory kills per pool", "N"},
      {"max-wait-p95", 0, 0, G_OPTION_ARG_STRING, &a.max_wait, "With --size-to-constraints: each pool's 95th-percentile queue wait at most DUR", "DUR"},
      {"max", 0, 0, G_OPTION_ARG_INT64, &a.max_nodes, "With --size-to-constraints: largest number of nodes to try per pool (default max(64, 8 x the pool's))", "N"},
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
  compare_items it;
  compare_items_init(&it);
  g_autoptr(GError) err = NULL;
  outdir *od = NULL;
  g_autofree char *scratch = NULL; /* a temporary folder removed at the end */
  if (a.out && !(od = outdir_begin(a.out, &err))) rc = cmd_fail("compare", err);
  report_sql *sql = rc == 0 ? cmd_sql_begin("compare", a.sqlite, a.out, &rc) : NULL;
  if (rc == 0 && sql && !a.out && a.all_dirs && !(scratch = outdir_make_scratch("sharesim-compare", &err)))
    rc = cmd_fail("compare", err);
  if (rc == 0 && a.all_dirs)
    rc = compare_load_folders(argc, argv, &it);
  else if (rc == 0)
    rc = compare_run_scenarios(&a, argc, argv, od ? outdir_tmp_path(od) : NULL, &scratch, &it);
  if (rc == 0 && it.runs->len == 0) {
    fprintf(stderr, "sharesim compare: nothing to compare\n");
    rc = 2;
  }
  if (rc != 0) {
    compare_items_clear(&it);
    if (od) outdir_abort(od);
  } else {
    rc = compare_finish(&a, &it, od, scratch);
  }
  if (rc == 0 && a.all_dirs)
    for (int i = 1; rc == 0 && i < argc; i++) rc = cmd_sql_add("compare", sql, argv[i], argv[i]);
  if (rc == 0) rc = cmd_sql_finish("compare", g_steal_pointer(&sql), a.out ? a.out : scratch);
  report_sql_abort(sql);
  if (scratch) outdir_remove_scratch(scratch);
  compare_args_clear(&a);
  return rc;
}

const cmd_entry cmd_compare_entry = {
    .loads_scenarios = TRUE,
    .name = "compare",
    .usage = "SCENARIO.yaml... TRACE.csv [-o DIR] [-j N] [--seeds N] [--model-range] [--format text|csv|json] "
             "[--size-to-constraints [--slo PCT[@LATENCY]] [--max-oom N] [--max-wait-p95 DUR] [--max N]]"
             "  |  DIR DIR... [-o DIR]",
    .summary = "same trace, several scenarios (or result folders): headline figures side by side",
    .main = cmd_compare_main,
};
