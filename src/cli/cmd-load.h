/* cmd-load.h: loading a scenario and traces for the subcommands that simulate or check,
 * with every problem collected and printed the same way. */
#pragma once
#include "scenario.h"
#include "trace.h"

typedef struct cmd_inputs {
  scenario *sc;
  trace *tr;
} cmd_inputs;

/* Loads scenario (with overrides), trace, optional phases and requests; on problems
 * prints them all on stderr prefixed by "sharesim NAME: " and returns FALSE. */
gboolean cmd_load_inputs(const char *name, const char *scenario_path, const char *trace_path,
                         const char *phases_path, const char *requests_path,
                         const char *const *overrides, guint n_overrides, cmd_inputs *out);
void cmd_inputs_clear(cmd_inputs *in);
/* Prints every diag message on stderr and the count; returns 2. */
int cmd_print_diags(const char *name, const diag_list *d);
