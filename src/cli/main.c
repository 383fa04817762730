/* main.c: dispatches to the subcommand named by argv[1] (table in cmd.c). */
#include "cmd.h"
int main(int argc, char **argv) { return cmd_main(argc, argv); }
