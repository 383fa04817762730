/* cmd-load.h: loading a scenario and traces for the subcommands that simulate or check,
 * with every problem collected and printed the same way. */
#pragma once
#include "scenario.h"
#include "trace.h"
#include "budget.h"

typedef struct cmd_inputs {
  scenario *sc;
  trace *tr;
  guint trace_flags;         /* set by the caller: trace_load_flags' flags (run: TRACE_SPILL) */
} cmd_inputs;

/* Loads scenario (with overrides), trace, optional phases and requests; on problems
 * prints them all on stderr prefixed by "sharesim NAME: " and returns FALSE. With
 * TRACE_SPILL the trace's id index is dropped once phases and requests are read. */
gboolean cmd_load_inputs(const char *name, const char *scenario_path, const char *trace_path,
                         const char *phases_path, const char *requests_path,
                         const char *const *overrides, guint n_overrides, cmd_inputs *out);
void cmd_inputs_clear(cmd_inputs *in);
/* The work budget (budget.h), unless --allow-large, and with a trace Kueue's admission
 * (sim_check_admission: a job its quotas could never admit): FALSE after printing the
 * problems ("sharesim NAME: ...") when the run of sc on tr (NULL: the scenario alone) is
 * beyond the budget or would hold such a job. gpu_series: run --dcgm. */
gboolean cmd_check_budget(const char *name, const scenario *sc, const trace *tr,
                          gboolean gpu_series);
/* The budget alone, with tr's rows already summed (prerun.h; NULL: a pass of its own):
 * `run` reports its never-admitted jobs from its prerun pass. */
gboolean cmd_check_budget_rows(const char *name, const scenario *sc, const trace *tr,
                               const budget_rows *rows, gboolean gpu_series);
/* The same checks adding their problems to d: budget_check, or with --allow-large only
 * budget_check_memory_limit, then (with tr) sim_check_admission. TRUE when the run may
 * start. */
gboolean cmd_budget(const scenario *sc, const trace *tr, gboolean gpu_series, diag_list *d);
/* The scenario of path with the overrides sets, checked as run checks it (sim_check_scenario,
 * then the work budget for tr); NULL with error (every problem, joined). For the studies'
 * probes: size's and compare --size-to-constraints'. */
scenario *cmd_scenario_checked(const char *path, const char *const *sets, guint n_sets,
                               const trace *tr, GError **error);
/* Prints every diag message on stderr and the count; returns 2. */
int cmd_print_diags(const char *name, const diag_list *d);
