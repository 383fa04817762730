/* cmd-run.c: `sharesim run SCENARIO.yaml TRACE.csv [--phases P.csv] [--requests R.csv]
 * [-o DIR]`: simulate, print the text summary on stdout, write the result folder. */
#include "cmd.h"
#include "cmd-load.h"
#include "report.h"
#include "sim.h"
#include <stdio.h>
#include <string.h>

static int cmd_run_main(int argc, char **argv) {
  g_autofree char *phases = NULL, *requests = NULL, *outdir = NULL;
  gboolean quiet = FALSE, no_progress = FALSE, dcgm = FALSE;
  g_auto(GStrv) sets = NULL;
  GOptionEntry entries[] = {
      {"phases", 0, 0, G_OPTION_ARG_FILENAME, &phases, "Phases file (docs/trace-format.md)", "P.csv"},
      {"requests", 0, 0, G_OPTION_ARG_FILENAME, &requests, "Recorded inference requests (docs/trace-format.md)", "R.csv"},
      {"output", 'o', 0, G_OPTION_ARG_FILENAME, &outdir, "Write the result files into DIR (written whole or not at all)", "DIR"},
      {"set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets, "Override a scenario key, e.g. pools.dev.nodes=4 (repeatable)", "KEY=VALUE"},
      {"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Do not print the summary", NULL},
      {"no-progress", 0, 0, G_OPTION_ARG_NONE, &no_progress, "Never show the progress bar", NULL},
      {"dcgm", 0, 0, G_OPTION_ARG_NONE, &dcgm, "Also write the per-GPU series as DCGM metrics (dcgm.csv, dcgm.prom) into DIR", NULL},
      {NULL}};
  int rc;
  if (!cmd_parse_options(&cmd_run_entry, entries, &argc, &argv, &rc)) return rc;
  if (argc != 3) {
    fprintf(stderr, "sharesim run: expected SCENARIO.yaml and TRACE.csv, got %d argument%s\n"
                    "Usage: sharesim run %s\n", argc - 1, argc == 2 ? "" : "s", cmd_run_entry.usage);
    return 2;
  }
  if (dcgm && !outdir) {
    fprintf(stderr, "sharesim run: --dcgm writes dcgm.csv and dcgm.prom into the result folder: give -o DIR\n");
    return 2;
  }
  cmd_inputs in = {0};
  guint n_sets = sets ? g_strv_length(sets) : 0;
  if (!cmd_load_inputs("run", argv[1], argv[2], phases, requests, (const char *const *)sets, n_sets, &in))
    return 2;
  if (!cmd_check_budget("run", in.sc, in.tr, dcgm)) {
    cmd_inputs_clear(&in);
    return 2;
  }
  g_autoptr(diag_list) unfit = diag_list_new(5);
  sim_check_jobs(in.sc, in.tr, unfit);
  if (unfit->count)
    fprintf(stderr, "sharesim run: warning: %u job%s can never run (outcome 'unplaceable' in jobs.csv), e.g.\n  %s\n",
            unfit->count, unfit->count == 1 ? "" : "s", (const char *)g_ptr_array_index(unfit->messages, 0));
  sim_options opt = {.progress = !no_progress, .gpu_series = dcgm};
  g_autoptr(GError) err = NULL;
  g_autoptr(results) res = sim_run(in.sc, in.tr, &opt, &err);
  if (!res) {
    cmd_inputs_clear(&in);
    return cmd_fail("run", err);
  }
  if (outdir && !report_write_dir(res, outdir, TRUE, &err)) {
    cmd_inputs_clear(&in);
    return cmd_fail("run", err);
  }
  if (!quiet) {
    g_autoptr(GString) text = g_string_new(NULL);
    report_text(res, text);
    fwrite(text->str, 1, text->len, stdout);
    if (outdir) printf("results written to %s/\n", outdir);
  }
  cmd_inputs_clear(&in);
  return 0;
}

const cmd_entry cmd_run_entry = {
    .loads_scenarios = TRUE,
    .name = "run",
    .usage = "SCENARIO.yaml TRACE.csv [--phases P.csv] [--requests R.csv] [-o DIR]",
    .summary = "simulate a trace on a scenario; print the summary, write the result files",
    .main = cmd_run_main,
};
