/* cmd-check.c: placeholder for the 'check' subcommand, filled in by its owner. */
#include "cmd.h"
#include <stdio.h>
static int cmd_check_main(int argc, char **argv) {
  fprintf(stderr, "sharesim check: not built yet\n");
  return 1;
}
const cmd_entry cmd_check_entry = {.name = "check", .usage = "", .summary = "(not built yet)", .main = cmd_check_main};
