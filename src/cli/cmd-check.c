/* cmd-check.c: `sharesim check SCENARIO.yaml [TRACE.csv ...]`: validate inputs only and
 * report every problem with file:line:column (exit 2), including jobs that no routing rule
 * matches and jobs no pool can ever hold; `check --list-keys` prints the scenario keys the
 * program's tables declare (the docs' check reads them). */
#include "cmd.h"
#include "priority.h"
#include "kueue.h"
#include "cmd-load.h"
#include "sim.h"
#include "caltime.h"
#include <math.h>
#include <stdio.h>

extern const cmd_entry cmd_check_entry; /* at the end of this file; its row: cmd.c */

/* One line per declared key: its name, default ("required" when it has none), who owns it
 * ("scenario" for a model's constant and the top-level keys of priority.c and kueue.c,
 * "strategy NAME..." or "placement NAME..." for a pool key, its owners in table order) and
 * its doc, tab-separated. */
static void list_pool_keys(GString *out, const char *what, guint n,
                           const scenario_key *const *(*keys_of)(guint i),
                           const char *(*name_of)(guint i)) {
  g_autoptr(GPtrArray) seen = g_ptr_array_new();
  for (guint i = 0; i < n; i++)
    for (const scenario_key *const *k = keys_of(i); k && *k; k++) {
      if (g_ptr_array_find(seen, *k, NULL)) continue;
      g_ptr_array_add(seen, (gpointer)*k);
      g_string_append_printf(out, "%s\t%s\t%s", (*k)->name, (*k)->def ? (*k)->def : "required",
                             what);
      for (guint j = 0; j < n; j++)
        for (const scenario_key *const *o = keys_of(j); o && *o; o++)
          if (*o == *k) g_string_append_printf(out, " %s", name_of(j));
      g_string_append_printf(out, "\t%s\n", (*k)->doc);
    }
}
static const scenario_key *const *strategy_keys(guint i) { return scenario_strategy_get(i)->keys; }
static const char *strategy_name(guint i) { return scenario_strategy_get(i)->name; }
static const scenario_key *const *placement_keys(guint i) { return scenario_placement_get(i)->keys; }
static const char *placement_name(guint i) { return scenario_placement_get(i)->name; }

static void list_top_key(GString *out, const scenario_key *k) {
  g_string_append_printf(out, "%s\t%s\tscenario\t%s\n", k->name, k->def ? k->def : "required",
                         k->doc);
}

static void list_keys(GString *out) {
  for (const scenario_model_key *const *k = scenario_model_keys(); *k; k++)
    list_top_key(out, &(*k)->key);
  for (guint i = 0; priority_top_keys[i]; i++) list_top_key(out, priority_top_keys[i]);
  for (guint i = 0; kueue_top_keys[i]; i++) list_top_key(out, kueue_top_keys[i]);
  list_pool_keys(out, "strategy", scenario_strategy_count(), strategy_keys, strategy_name);
  list_pool_keys(out, "placement", scenario_placement_count(), placement_keys, placement_name);
  /* a pool section's keys as SECTION.KEY, owned by the section */
  const scenario_pool_section *const *sec = scenario_pool_sections();
  for (guint i = 0; sec[i]; i++)
    for (const scenario_key *const *k = sec[i]->keys; k && *k; k++)
      g_string_append_printf(out, "%s.%s\t%s\tsection %s\t%s\n", sec[i]->name, (*k)->name,
                             (*k)->def ? (*k)->def : "required", sec[i]->name, (*k)->doc);
}

static int cmd_check_main(int argc, char **argv) {
  g_autofree char *phases = NULL, *requests = NULL;
  gboolean estimate = FALSE, keys = FALSE, dcgm = FALSE;
  GOptionEntry entries[] = {
      {"estimate", 0, 0, G_OPTION_ARG_NONE, &estimate,
       "Print each trace's work and memory estimate (docs/scenario-format.md, \"Work budget\")",
       NULL},
      {"dcgm", 0, 0, G_OPTION_ARG_NONE, &dcgm,
       "Check and estimate the runs as with run --dcgm (its memory and dcgm output)", NULL},
      {"phases", 0, 0, G_OPTION_ARG_FILENAME, &phases, "Phases file to check against the trace", "P.csv"},
      {"requests", 0, 0, G_OPTION_ARG_FILENAME, &requests, "Requests file to check against the trace", "R.csv"},
      {"list-keys", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &keys, "Print the declared scenario keys (name, default, owners, doc) and exit", NULL},
      {NULL}};
  int rc;
  if (!cmd_parse_options(&cmd_check_entry, entries, &argc, &argv, &rc)) return rc;
  if (keys) { /* tests/cli/t-docs.sh reads the keys here */
    g_autoptr(GString) out = g_string_new(NULL);
    list_keys(out);
    fwrite(out->str, 1, out->len, stdout);
    return 0;
  }
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
  if (sc && argc == 2) cmd_budget(sc, NULL, dcgm, d);
  for (int i = 2; i < argc; i++) {
    g_autoptr(trace) tr = trace_load(argv[i], d);
    if (!tr) continue;
    if (phases) trace_load_phases(tr, phases, d);
    if (requests) trace_check_requests(tr, requests, d);
    if (sc) sim_check_jobs(sc, tr, d);
    if (sc) cmd_budget(sc, tr, dcgm, d);
    g_string_append_printf(ok, "%s: %u jobs", argv[i], trace_n_jobs(tr));
    if (isfinite(tr->start_unix)) { /* from its submit_utc column (an import of absolute times) */
      g_string_append(ok, ", second 0 at ");
      caltime_append(ok, tr->start_unix);
      if (sc && isfinite(sc->start_unix)) g_string_append(ok, " (the scenario's start: wins)");
    }
    g_string_append_c(ok, '\n');
    if (sc && estimate) {
      budget_estimate e;
      budget_estimate_run(sc, tr, dcgm, &e);
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
    .usage = "SCENARIO.yaml [TRACE.csv ...] [--phases P.csv] [--requests R.csv] [--estimate] [--dcgm]",
    .summary = "validate a scenario and traces; report every problem with file:line",
    .main = cmd_check_main,
};
