/* cmd-gen.c: placeholder for the 'gen' subcommand, filled in by its owner. */
#include "cmd.h"
#include <stdio.h>
static int cmd_gen_main(int argc, char **argv) {
  fprintf(stderr, "sharesim gen: not built yet\n");
  return 1;
}
const cmd_entry cmd_gen_entry = {.name = "gen", .usage = "", .summary = "(not built yet)", .main = cmd_gen_main};
