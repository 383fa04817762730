/* cmd-check.c: `sharesim check SCENARIO.yaml [TRACE.csv ...]`: validate inputs only and
 * report every problem with file:line:column (exit 2), including jobs that no routing rule
 * matches and jobs no pool can ever hold. */
#include "cmd.h"
#include "priority.h"
#include "kueue.h"
#include "cmd-load.h"
#include "sim.h"
#include "caltime.h"
#include <math.h>
#include <stdio.h>

extern const cmd_entry cmd_check_entry; /* at the end of this file; its row: cmd.c */

static int cmd_check_main(int argc, char **argv) {
  g_autofree char *phases = NULL, *requests = NULL;
  gboolean estimate = FALSE;
  GOptionEntry entries[] = {
      {"estimate", 0, 0, G_OPTION_ARG_NONE, &estimate,
       "Print each trace's work and memory estimate (docs/scenario-format.md, \"Work budget\")",
       NULL},
      {"phases", 0, 0, G_OPTION_ARG_FILENAME, &phases, "Phases file to check against the trace", "P.csv"},
      {"requests", 0, 0, G_OPTION_ARG_FILENAME, &requests, "Requests file to check against the trace", "R.csv"},
      {NULL}};
  int rc;
  if (!cmd_parse_options(&cmd_check_entry, entries, &argc, &argv, &rc)) return rc;
  if (argc < 2) {
    fprintf(stderr, "sharesim check: expected SCENARIO.yaml [TRACE.csv ...]\nUsage: sharesim check %s\n",
            cmd_check_entry.usage);
    return 2;
  }
  if ((phases || requests) && argc != 3) {
    fprintf(stderr, "sharesim check: --phases and --requests need exactly one trace\n");
    return 2;
  }
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(scenario) sc = scenario_load(argv[1], d);
  if (sc) sim_check_scenario(sc, d);
  GString *ok = g_string_new(NULL);
  if (sc) {
    guint64 gpus = 0;
    for (guint i = 0; i < sc->pools->len; i++)
      gpus += pool_gpus(scenario_pool(sc, i));
    g_string_append_printf(ok, "%s: scenario '%s', %u pool%s, %" G_GUINT64_FORMAT " GPU%s\n",
                           argv[1], sc->name, sc->pools->len, sc->pools->len == 1 ? "" : "s",
                           gpus, gpus == 1 ? "" : "s");
    for (guint i = 0; i < sc->pools->len; i++) {
      g_autofree char *line = scenario_pool_describe(scenario_pool(sc, i));
      g_string_append_printf(ok, "  pool %s\n", line);
    }
    if (sc->priority) priority_describe(ok, sc->priority);
    if (sc->kueue) kueue_describe(ok, sc->kueue);
  }
  if (sc && argc == 2) cmd_budget(sc, NULL, FALSE, d);
  for (int i = 2; i < argc; i++) {
    g_autoptr(trace) tr = trace_load(argv[i], d);
    if (!tr) continue;
    if (phases) trace_load_phases(tr, phases, d);
    if (requests) trace_check_requests(tr, requests, d);
    if (sc) sim_check_jobs(sc, tr, d);
    if (sc) cmd_budget(sc, tr, FALSE, d);
    g_string_append_printf(ok, "%s: %u jobs", argv[i], trace_n_jobs(tr));
    if (isfinite(tr->start_unix)) { /* from its submit_utc column (an import of absolute times) */
      g_string_append(ok, ", second 0 at ");
      caltime_append(ok, tr->start_unix);
      if (sc && isfinite(sc->start_unix)) g_string_append(ok, " (the scenario's start: wins)");
    }
    g_string_append_c(ok, '\n');
    if (sc && estimate) {
      budget_estimate e;
      budget_estimate_run(sc, tr, FALSE, &e);
      g_autofree char *text = budget_estimate_describe(&e);
      printf("%s: estimate: %s\n", argv[i], text); /* printed even when problems follow */
    }
  }
  if (diag_has_errors(d)) {
    g_string_free(ok, TRUE);
    return cmd_print_diags("check", d);
  }
  printf("%sok\n", ok->str);
  g_string_free(ok, TRUE);
  return 0;
}

const cmd_entry cmd_check_entry = {
    .loads_scenarios = TRUE,
    .name = "check",
    .usage = "SCENARIO.yaml [TRACE.csv ...] [--phases P.csv] [--requests R.csv] [--estimate]",
    .summary = "validate a scenario and traces; report every problem with file:line",
    .main = cmd_check_main,
};
