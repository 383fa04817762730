/* cmd-sql.h: --sqlite FILE of run, compare, sweep, size and plan (report-sql.h): the
 * database begun before any work, so that a refused FILE is exit 2 with nothing run, and
 * filled from the command's finished result folder once its work is done. */
#pragma once
#include <glib.h>
#include "report-sql.h"

/* The option's row for a command's GOptionEntry table. */
#define CMD_SQL_OPTION(var)                                                                  \
  {"sqlite", 0, 0, G_OPTION_ARG_FILENAME, &(var),                                            \
   "Also write every result table into one SQLite database FILE (docs/outputs.md)", "FILE"}

/* Begins FILE (NULL: no --sqlite, returns NULL with *rc 0). FILE inside out_dir (the
 * command's -o folder, NULL: none) is refused: the folder is replaced whole. NULL with *rc
 * set (2: refused, 1: cannot write) after printing why. */
report_sql *cmd_sql_begin(const char *name, const char *path, const char *out_dir, int *rc);
/* Fills s from the result folder root, walked in byte order of names: a folder holding
 * summary.json is a run (report_sql_run_folder, scenario and seed from its summary.json);
 * in any other folder every *.csv is a table of its own (report_sql_csv, scenario and seed
 * NULL) and its subfolders are walked (names beginning with '.' and plots/ left out).
 * Commits s (s NULL: nothing, 0; root NULL: only commits). Returns the exit code (0, or 1/2 after printing why). */
int cmd_sql_finish(const char *name, report_sql *s, const char *root);
/* The same walk of dir, its rows under folder (compare DIR DIR...: each folder as given);
 * s NULL: nothing. Returns the exit code; on failure s is left to the caller to abort. */
int cmd_sql_add(const char *name, report_sql *s, const char *dir, const char *folder);
