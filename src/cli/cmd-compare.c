/* cmd-compare.c: `sharesim compare SCENARIO.yaml... TRACE.csv [-o DIR]` (run each
 * scenario on the trace, then compare) and `sharesim compare DIR DIR...` (compare
 * earlier result folders). Prints the table (text, CSV or JSON); with -o writes one
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

static int cmd_compare_main(int argc, char **argv) {
  g_autofree char *phases = NULL, *requests = NULL, *out = NULL, *format = NULL;
  gboolean no_progress = FALSE, quiet = FALSE, brief = FALSE;
  GOptionEntry entries[] = {
      {"output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Write each run and compare.txt/.csv/.json into DIR", "DIR"},
      {"format", 0, 0, G_OPTION_ARG_STRING, &format, "What to print: text (default), csv or json", "FORMAT"},
      {"phases", 0, 0, G_OPTION_ARG_FILENAME, &phases, "Phases file (docs/trace-format.md), for every scenario", "P.csv"},
      {"requests", 0, 0, G_OPTION_ARG_FILENAME, &requests, "Recorded inference requests (docs/trace-format.md)", "R.csv"},
      {"brief", 0, 0, G_OPTION_ARG_NONE, &brief, "Text without the per-pool and per-tenant rows (compare.txt keeps them)", NULL},
      {"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print nothing on stdout", NULL},
      {"no-progress", 0, 0, G_OPTION_ARG_NONE, &no_progress, "Never show the progress bar", NULL},
      {NULL}};
  int rc;
  if (!cmd_parse_options(&cmd_compare_entry, entries, &argc, &argv, &rc)) return rc;
  compare_format fmt = COMPARE_TEXT;
  if (format && !strcmp(format, "csv")) fmt = COMPARE_CSV;
  else if (format && !strcmp(format, "json")) fmt = COMPARE_JSON;
  else if (format && strcmp(format, "text")) {
    g_autofree char *shown = figures_clean_text(format);
    fprintf(stderr, "sharesim compare: --format '%s': expected text, csv or json\n", shown);
    return 2;
  }
  if (argc < 2) {
    fprintf(stderr, "sharesim compare: expected SCENARIO.yaml... TRACE.csv, or result folders\n"
                    "Usage: sharesim compare %s\n", cmd_compare_entry.usage);
    return 2;
  }
  gboolean all_dirs = TRUE;
  for (int i = 1; i < argc; i++) all_dirs &= compare_is_dir(argv[i]);
  if (!all_dirs && argc < 3) {
    fprintf(stderr, "sharesim compare: expected one or more SCENARIO.yaml then TRACE.csv, or "
                    "result folders\nUsage: sharesim compare %s\n", cmd_compare_entry.usage);
    return 2;
  }
  if (all_dirs && (phases || requests)) {
    fprintf(stderr, "sharesim compare: --phases and --requests apply to scenarios, not to result folders\n");
    return 2;
  }

  GPtrArray *runs = g_ptr_array_new_with_free_func((GDestroyNotify)figures_free);
  g_autoptr(GError) err = NULL;
  outdir *od = NULL;
  g_autofree char *work = NULL; /* where the runs are written */
  g_autofree char *scratch = NULL; /* a temporary folder removed at the end */
  rc = 0;

  if (out) {
    od = outdir_begin(out, &err);
    if (!od) {
      g_ptr_array_free(runs, TRUE);
      return cmd_fail("compare", err);
    }
    work = g_strdup(outdir_tmp_path(od));
  }

  if (all_dirs) {
    for (int i = 1; i < argc && rc == 0; i++) {
      if (!compare_has(argv[i], "summary.json") && compare_has(argv[i], "compare.json")) {
        if (!compare_load_dir(argv[i], runs, &err)) rc = cmd_fail("compare", err);
        continue;
      }
      run_figures *f = figures_load(argv[i], &err);
      if (!f) {
        rc = cmd_fail("compare", err);
        break;
      }
      g_ptr_array_add(runs, f);
    }
  } else {
    /* load and check everything before running anything */
    int n_scen = argc - 2;
    const char *trace_path = argv[argc - 1];
    cmd_inputs first = {0};
    scenario **sc = g_new0(scenario *, n_scen);
    gboolean ok = TRUE;
    for (int i = 0; i < n_scen; i++) {
      cmd_inputs in = {0};
      if (!cmd_load_inputs("compare", argv[1 + i], i == 0 ? trace_path : NULL,
                           i == 0 ? phases : NULL, i == 0 ? requests : NULL, NULL, 0, &in)) {
        ok = FALSE;
        if (i == 0) break; /* the trace is bad: the other scenarios cannot be checked */
        continue;
      }
      sc[i] = in.sc;
      if (i == 0) first.tr = in.tr;
      if (!cmd_check_budget("compare", sc[i], first.tr, FALSE)) ok = FALSE;
    }
    if (!ok) {
      rc = 2;
    } else {
      if (!work) {
        scratch = outdir_make_scratch("sharesim-compare", &err);
        if (!scratch) rc = cmd_fail("compare", err);
        work = g_strdup(scratch);
      }
      GHashTable *taken = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
      for (int i = 0; rc == 0 && i < n_scen; i++) {
        g_autoptr(diag_list) unfit = diag_list_new(3);
        sim_check_jobs(sc[i], first.tr, unfit);
        if (unfit->count)
          fprintf(stderr, "sharesim compare: warning: %s: %u job%s can never run (outcome 'unplaceable')\n",
                  sc[i]->name, unfit->count, unfit->count == 1 ? "" : "s");
        sim_options opt = {.progress = !no_progress};
        g_autoptr(results) res = sim_run(sc[i], first.tr, &opt, &err);
        if (!res) {
          rc = cmd_fail("compare", err);
          break;
        }
        g_autofree char *sub = compare_sub_name(taken, sc[i]->name);
        g_autofree char *dir = g_build_filename(work, sub, NULL);
        if (!report_write_dir(res, dir, TRUE, &err)) {
          rc = cmd_fail("compare", err);
          break;
        }
        run_figures *f = figures_load(dir, &err);
        if (!f) {
          rc = cmd_fail("compare", err);
          break;
        }
        g_free(f->dir); /* compare.json records the sub-folder, relative to DIR */
        f->dir = g_strdup(sub);
        g_ptr_array_add(runs, f);
      }
      g_hash_table_destroy(taken);
    }
    for (int i = 0; i < n_scen; i++)
      if (sc[i]) scenario_free(sc[i]);
    g_free(sc);
    cmd_inputs_clear(&first);
  }

  if (rc == 0 && runs->len == 0) {
    fprintf(stderr, "sharesim compare: nothing to compare\n");
    rc = 2;
  }
  if (rc != 0) {
    g_ptr_array_free(runs, TRUE);
    if (od) outdir_abort(od);
    if (scratch) outdir_remove_scratch(scratch);
    return rc;
  }

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
      ok = studydir_commit(od, out, "compare.json", &err);
    }
    if (!ok) rc = cmd_fail("compare", err);
  }
  if (scratch) outdir_remove_scratch(scratch);
  if (rc == 0 && !quiet) {
    GString *shown = fmt == COMPARE_CSV ? csv : fmt == COMPARE_JSON ? json : text;
    if (fmt == COMPARE_TEXT && brief) {
      g_string_truncate(text, 0);
      compare_text(t, TRUE, text);
    }
    fwrite(shown->str, 1, shown->len, stdout);
    if (out && fmt == COMPARE_TEXT) printf("\nresults written to %s/\n", out);
  }
  g_string_free(text, TRUE);
  g_string_free(csv, TRUE);
  g_string_free(json, TRUE);
  return rc;
}

const cmd_entry cmd_compare_entry = {
    .loads_scenarios = TRUE,
    .name = "compare",
    .usage = "SCENARIO.yaml... TRACE.csv [-o DIR] [--format text|csv|json]  |  DIR DIR... [-o DIR]",
    .summary = "same trace, several scenarios (or result folders): headline figures side by side",
    .main = cmd_compare_main,
};
