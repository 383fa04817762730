/* cmd-catalog.c: placeholder for the 'catalog' subcommand, filled in by its owner. */
#include "cmd.h"
#include <stdio.h>
static int cmd_catalog_main(int argc, char **argv) {
  fprintf(stderr, "sharesim catalog: not built yet\n");
  return 1;
}
const cmd_entry cmd_catalog_entry = {.name = "catalog", .usage = "", .summary = "(not built yet)", .main = cmd_catalog_main};
