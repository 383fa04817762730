/* cmd.h: the subcommand table. Each cmd-*.c exports one const cmd_entry; adding a
 * subcommand is one new file plus one row in cmd.c (with its name in the extern line there). Only cmd-*.c print to the user and
 * choose exit codes (0 success, 1 runtime failure, 2 bad input or usage). */
#pragma once
#include <glib.h>

typedef struct cmd_entry {
  const char *name;     /* "run" */
  const char *usage;    /* "SCENARIO.yaml TRACE.csv [--phases P.csv] ..." */
  const char *summary;  /* one line for `sharesim --help` */
  /* argv[0] is the subcommand name; returns the exit code. */
  int (*main)(int argc, char **argv);
  /* TRUE for the commands that load scenarios (run, check, compare, sweep, size): they
   * take --allow-path DIR (paths.h) and --allow-large (cmd-budget.c) as well. */
  gboolean loads_scenarios;
  /* Help text after the options (owned), e.g. built from a table the command walks; NULL
   * for none. */
  char *(*describe)(void);
} cmd_entry;

/* The subcommand called name, from the table in cmd.c; NULL when there is none. A command
 * names another only through this (sweep runs its points with "run"). */
const cmd_entry *cmd_find(const char *name);

int cmd_main(int argc, char **argv);

/* Prints "sharesim NAME: message" (each line of a multi-line message prefixed by
 * nothing) to stderr and returns the exit code for the error (2 input, 1 runtime). */
int cmd_fail(const char *name, const GError *error);
/* -j N of compare, size and sweep: 1 to 1024, 0 (not given) becoming the number of
 * processors. FALSE after printing "sharesim NAME: -j N: expected 1 to 1024". */
gboolean cmd_check_jobs(const char *name, gint *jobs);
/* Parses GOption flags for a subcommand with a standard --help; returns FALSE and sets
 * *exit_code (0 after --help, 2 on bad usage) when the caller should return. */
/* g_option_context_parse without GOption's own --help, which prints and calls exit(0)
 * past cmd_main's check of stdout: -h, --help, -? or --help-all (before "--") prints the
 * help to stdout here and returns FALSE with *help set, so that the command returns 0
 * through that check (a full disk is exit 1). FALSE with *help unset: error is set. */
gboolean cmd_option_parse(GOptionContext *ctx, int *argc, char ***argv, gboolean *help,
                          GError **error);
gboolean cmd_parse_options(const cmd_entry *cmd, GOptionEntry *entries, int *argc,
                           char ***argv, int *exit_code);
/* --allow-large was given (the work budget of cmd-budget.c is not enforced). */
gboolean cmd_allow_large(void);
/* Appends --allow-large and every --allow-path DIR given to this process to argv (char*,
 * owned by the array), for the `run` processes a sweep starts. */
void cmd_append_input_flags(GPtrArray *argv);
