/* cmd-run.c: placeholder for the 'run' subcommand, filled in by its owner. */
#include "cmd.h"
#include <stdio.h>
static int cmd_run_main(int argc, char **argv) {
  fprintf(stderr, "sharesim run: not built yet\n");
  return 1;
}
const cmd_entry cmd_run_entry = {.name = "run", .usage = "", .summary = "(not built yet)", .main = cmd_run_main};
