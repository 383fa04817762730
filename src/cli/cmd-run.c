/* cmd-run.c: `sharesim run SCENARIO.yaml TRACE.csv [--phases P.csv] [--requests R.csv]
 * [-o DIR] [--seeds N [-j N]] [--model-range] [--reference]`: simulate, print the text
 * summary on stdout, write the result folder; with --seeds, run N seeds (N at once in
 * threads, cmd-seeds.h) and print each figure's mean and 95 % interval over them (seeds.h);
 * --model-range runs the models' constants at the ends of their intervals
 * (cmd-modelrange.h); --reference takes none of the run's fast paths (reference.h). */
#include "cmd.h"
#include "cmd-load.h"
#include "cmd-seeds.h"
#include "cmd-modelrange.h"
#include "cmd-sql.h"
#include "modelrange.h"
#include "outdir.h"
#include "report.h"
#include "studyrun.h"
#include "sim.h"
#include "prerun.h"
#include <stdio.h>
#include <string.h>

/* --seeds N: seeds sc->seed .. + N - 1 into OUT/seed-S/ (or a scratch folder), the table of
 * their figures printed and written as OUT/seeds.txt, .csv, .json. */
static int cmd_run_seeds(const cmd_inputs *in, const char *scenario_path,
                         const char *const *sets, guint n_sets, guint n_seeds, gint jobs,
                         const char *out_dir, report_sql *sql, gboolean quiet, gboolean progress) {
  scenario **sc = g_new0(scenario *, n_seeds);
  if (!cmd_seeds_load("run", scenario_path, sets, n_sets, in->sc->seed, n_seeds, in->tr, sc)) {
    g_free(sc);
    return 2;
  }
  g_autoptr(GError) err = NULL;
  g_autofree char *scratch = out_dir ? NULL : outdir_make_scratch("sharesim-run", &err);
  g_autofree char *inside = scratch ? g_build_filename(scratch, "seeds", NULL) : NULL;
  const char *dir = out_dir ? out_dir : inside;
  seeds_table *t = NULL;
  int rc = dir ? cmd_seeds_run("run", sc, 1, n_seeds, in->tr, &dir, (guint)jobs, progress, &t)
               : cmd_fail("run", err);
  if (rc == 0) rc = cmd_sql_finish("run", g_steal_pointer(&sql), dir);
  report_sql_abort(sql);
  if (rc == 0 && !quiet) {
    g_autoptr(GString) text = g_string_new(NULL);
    seeds_text(t, text);
    fwrite(text->str, 1, text->len, stdout);
    if (out_dir) printf("results written to %s/ (one folder per seed, seed-S/)\n", out_dir);
  }
  seeds_free(t);
  if (scratch) outdir_remove_scratch(scratch);
  for (guint k = 0; k < n_seeds; k++) scenario_free(sc[k]);
  g_free(sc);
  return rc;
}

/* --reference and --reference-only=LIST (comma-separated SIM_REF_NAMES) as SIM_REF_* bits;
 * FALSE (message printed) on an unknown name. */
static gboolean cmd_run_reference(gboolean all, const char *only, guint *bits) {
  *bits = all ? SIM_REF_ALL : 0;
  if (!only) return TRUE;
  static const char *const names[SIM_REF_COUNT] = SIM_REF_NAMES;
  g_auto(GStrv) parts = g_strsplit(only, ",", -1);
  for (guint i = 0; parts[i]; i++) {
    guint k = 0;
    while (k < SIM_REF_COUNT && strcmp(parts[i], names[k]) != 0) k++;
    if (k == SIM_REF_COUNT) {
      fprintf(stderr, "sharesim run: --reference-only: expected bursts, requests, one, queue or warm (comma-separated), found '%s'\n",
              parts[i]);
      return FALSE;
    }
    *bits |= 1u << k;
  }
  return TRUE;
}

/* The options that do not go together; FALSE after printing why. */
static gboolean cmd_run_check_combinations(guint n_seeds, guint ref_bits, gboolean dcgm,
                                           gboolean model_range, const char *out_dir,
                                           gboolean sqlite) {
  const char *why = NULL;
  if (ref_bits && (n_seeds > 1 || model_range))
    why = "--reference is for one run: leave out --seeds and --model-range, or run the seed "
          "you want to check with --set seed=S";
  else if (dcgm && (n_seeds > 1 || model_range))
    why = "--dcgm is for one run: leave out --seeds and --model-range, or run the seed you "
          "want to see with --set seed=S";
  else if (dcgm && !out_dir)
    why = "--dcgm writes dcgm.csv and dcgm.prom into the result folder: give -o DIR";
  else if (sqlite && model_range && !out_dir)
    why = "--sqlite with --model-range reads the runs back from the result folder: give -o DIR";
  if (why) fprintf(stderr, "sharesim run: %s\n", why);
  return why == NULL;
}

/* One run into out_dir (NULL: none, or a scratch folder for --sqlite), its summary printed,
 * then its tables into sql (taken). Returns the exit code. */
static int cmd_run_one(const cmd_inputs *in, sim_options *opt, const char *out_dir,
                       report_sql *sql, gboolean quiet) {
  g_autoptr(GError) err = NULL;
  g_autofree char *scratch = sql && !out_dir ? outdir_make_scratch("sharesim-run", &err) : NULL;
  g_autofree char *inside = scratch ? g_build_filename(scratch, "run", NULL) : NULL;
  const char *dir = out_dir ? out_dir : inside;
  results *res = sql && !dir ? NULL : studyrun_simulate(in->sc, in->tr, opt, dir, &err);
  if (res && !quiet) {
    g_autoptr(GString) text = g_string_new(NULL);
    report_text(res, text);
    fwrite(text->str, 1, text->len, stdout);
    if (out_dir) printf("results written to %s/\n", out_dir);
  }
  /* the results are freed before the tables are read back: memory holds one at a time */
  gboolean ran = res != NULL;
  g_clear_pointer(&res, results_free);
  int rc = ran ? cmd_sql_finish("run", g_steal_pointer(&sql), dir) : cmd_fail("run", err);
  report_sql_abort(sql);
  if (scratch) outdir_remove_scratch(scratch);
  return rc;
}

extern const cmd_entry cmd_run_entry; /* at the end of this file; its row: cmd.c */

static int cmd_run_main(int argc, char **argv) {
  g_autofree char *phases = NULL, *requests = NULL, *out_dir = NULL, *ref_only = NULL;
  gboolean quiet = FALSE, no_progress = FALSE, dcgm = FALSE, reference = FALSE;
  gboolean list_files = FALSE, model_range = FALSE, list_constants = FALSE;
  g_auto(GStrv) sets = NULL;
  g_autofree char *seeds_text = NULL;
  gint jobs = 0;
  g_autofree char *sqlite = NULL;
  gint64 hold_bytes = 0, fail_read = 0; /* test hooks (HACKING.md): hidden */
  GOptionEntry entries[] = {
      {"phases", 0, 0, G_OPTION_ARG_FILENAME, &phases, "Phases file (docs/trace-format.md)", "P.csv"},
      {"requests", 0, 0, G_OPTION_ARG_FILENAME, &requests, "Recorded inference requests (docs/trace-format.md)", "R.csv"},
      {"output", 'o', 0, G_OPTION_ARG_FILENAME, &out_dir, "Write the result files into DIR (written whole or not at all)", "DIR"},
      {"set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets, "Override a scenario key, e.g. pools.dev.nodes=4 (repeatable)", "KEY=VALUE"},
      {"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Do not print the summary", NULL},
      {"no-progress", 0, 0, G_OPTION_ARG_NONE, &no_progress, "Never show the progress bar", NULL},
      {"dcgm", 0, 0, G_OPTION_ARG_NONE, &dcgm, "Also write the per-GPU series as DCGM metrics (dcgm.csv, dcgm.prom) into DIR", NULL},
      {"reference", 0, 0, G_OPTION_ARG_NONE, &reference, "Take no fast path: every part the reference way (the same results, slower; docs/architecture.md)", NULL},
      {"reference-only", 0, 0, G_OPTION_ARG_STRING, &ref_only, "Only these parts the reference way: bursts, requests, one, queue, warm (comma-separated)", "LIST"},
      {"test-hold-bytes", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_INT64, &hold_bytes, "Tests: the held rows' memory budget", "BYTES"},
      {"test-fail-read", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_INT64, &fail_read, "Tests: the n-th read of the row spill fails", "N"},
      {"seeds", 0, 0, G_OPTION_ARG_STRING, &seeds_text, "Run N seeds (the scenario's seed and the next N - 1; 2 to 1000): each figure's mean and 95 % interval; DIR/seed-S/ per seed", "N"},
      {"jobs", 'j', 0, G_OPTION_ARG_INT, &jobs, "With --seeds or --model-range: runs at once (default: the number of processors); the output is the same for any N", "N"},
      {"model-range", 0, 0, G_OPTION_ARG_NONE, &model_range, "Also run with each fitted or assumed model constant at each end of its interval: each figure as value [low, high] (with --seeds, beside the seeds' interval); DIR/base/, DIR/KEY-low/, DIR/KEY-high/", NULL},
      {"list-constants", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &list_constants, "Print the model constants --model-range moves (key, default, low, high) and exit", NULL},
      CMD_SQL_OPTION(sqlite),
      {"list-files", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &list_files, "Print the result file table (name, format, kind, when, what) and exit", NULL},
      {NULL}};
  int rc;
  if (!cmd_parse_options(&cmd_run_entry, entries, &argc, &argv, &rc)) return rc;
  if (list_files || list_constants) { /* the tests, scripts and docs read the tables here */
    g_autoptr(GString) out = g_string_new(NULL);
    if (list_files) report_files_list(out);
    else modelrange_list(out);
    fwrite(out->str, 1, out->len, stdout);
    return 0;
  }
  if (argc != 3) {
    fprintf(stderr, "sharesim run: expected SCENARIO.yaml and TRACE.csv, got %d argument%s\n"
                    "Usage: sharesim run %s\n", argc - 1, argc == 2 ? "" : "s", cmd_run_entry.usage);
    return 2;
  }
  guint n_seeds = 1, ref_bits = 0;
  if (!cmd_seeds_parse("run", seeds_text, &n_seeds) || !cmd_check_jobs("run", &jobs) ||
      !cmd_run_reference(reference, ref_only, &ref_bits))
    return 2;
  if (!cmd_run_check_combinations(n_seeds, ref_bits, dcgm, model_range, out_dir, sqlite != NULL)) return 2;
  /* the rows go to a temporary file and come back in order: memory follows the jobs
   * alive at once, not the trace (tracerows.h) */
  cmd_inputs in = {.trace_flags = TRACE_SPILL};
  guint n_sets = sets ? g_strv_length(sets) : 0;
  if (!cmd_load_inputs("run", argv[1], argv[2], phases, requests, (const char *const *)sets, n_sets, &in))
    return 2;
  /* one pass over the rows for the budget, the jobs that can never run and the run's
   * tenants and target workloads (prerun.h) */
  g_autoptr(prerun) pre = prerun_new(in.sc, in.tr, 5);
  if (!cmd_check_budget_rows("run", in.sc, in.tr, &pre->budget, dcgm)) {
    cmd_inputs_clear(&in);
    return 2;
  }
  if (pre->never_admitted->count) { /* Kueue's quotas could never admit them: refused */
    diag_list *na = pre->never_admitted;
    cmd_inputs_clear(&in);
    return cmd_print_diags("run", na);
  }
  const diag_list *unfit = pre->unfit;
  if (unfit->count)
    fprintf(stderr, "sharesim run: warning: %u job%s can never run (outcome 'unplaceable' in jobs.csv), e.g.\n  %s\n",
            unfit->count, unfit->count == 1 ? "" : "s", (const char *)g_ptr_array_index(unfit->messages, 0));
  report_sql *sql = cmd_sql_begin("run", sqlite, out_dir, &rc);
  if (rc) {
    cmd_inputs_clear(&in);
    return rc;
  }
  if (model_range) {
    rc = cmd_modelrange_run("run", argv[1], (const char *const *)sets, n_sets, in.sc->seed,
                            n_seeds, in.tr, out_dir, (guint)jobs, !no_progress, quiet);
    rc = rc ? rc : cmd_sql_finish("run", g_steal_pointer(&sql), out_dir);
  } else if (n_seeds > 1) {
    rc = cmd_run_seeds(&in, argv[1], (const char *const *)sets, n_sets, n_seeds, jobs, out_dir,
                       g_steal_pointer(&sql), quiet, !no_progress);
  } else {
    sim_options opt = {.progress = !no_progress, .gpu_series = dcgm, .prerun = pre,
                       .reference = ref_bits,
                       .test = {.row_hold_bytes = (guint64)MAX(hold_bytes, 0),
                                .spill_fail_read = (guint64)MAX(fail_read, 0)}};
    rc = cmd_run_one(&in, &opt, out_dir, g_steal_pointer(&sql), quiet);
  }
  report_sql_abort(sql);
  cmd_inputs_clear(&in);
  return rc;
}

const cmd_entry cmd_run_entry = {
    .loads_scenarios = TRUE,
    .name = "run",
    .usage = "SCENARIO.yaml TRACE.csv [--phases P.csv] [--requests R.csv] [-o DIR] [--seeds N [-j N]] [--model-range] [--reference]",
    .summary = "simulate a trace on a scenario; print the summary, write the result files",
    .main = cmd_run_main,
};
