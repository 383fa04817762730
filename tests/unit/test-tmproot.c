/* test-tmproot.c: the run-wide set-up of the unit tests: the strategy table handed to the
 * scenario reader, and every temporary file or folder a unit test makes (g_dir_make_tmp,
 * g_file_open_tmp, tu_write_temp, the library's own scratch folders) goes under one fresh
 * folder of this run, set as TMPDIR before any test starts and removed with everything in
 * it when the run ends (issue 14 D16: one run used to leave ~90 folders in /tmp). */
#include <criterion/criterion.h>
#include <criterion/hooks.h>
#include "scenario.h"
#include "share.h"
#include "sim.h"
#include "place.h"
#include <glib.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char *tmproot;

/* The scenario reader knows no strategies until the program hands it the simulator's table
 * (scenario.h; cmd_main does it for the command line). A constructor runs in every process
 * Criterion starts, whether forked or executed afresh. */
__attribute__((constructor)) static void tmproot_use_strategies(void) {
  scenario_use_strategies(share_count(), share_input_row);
  scenario_use_model_keys(sim_model_keys); /* nor any model's constants */
  scenario_use_pool_sections(sim_pool_sections); /* nor pool sections */
  scenario_use_placements(place_count(), place_input_row); /* nor placement policies */
}

static int tmproot_remove_one(const char *path, const struct stat *st, int flag,
                              struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  if (remove(path) != 0) perror(path);
  return 0;
}

ReportHook(PRE_ALL)(struct criterion_test_set *set) {
  (void)set;
  tmproot = g_dir_make_tmp("sharesim-u-XXXXXX", NULL);
  if (tmproot) g_setenv("TMPDIR", tmproot, TRUE);
}

ReportHook(POST_ALL)(struct criterion_global_stats *stats) {
  (void)stats;
  if (!tmproot) return;
  nftw(tmproot, tmproot_remove_one, 16, FTW_DEPTH | FTW_PHYS);
  g_free(tmproot);
  tmproot = NULL;
}
