/* fuzz.h: what the fuzz targets share (tests/fuzz/README.md). Each fuzz-NAME.c defines
 * LLVMFuzzerTestOneInput for one parser; the parsers read files, so an input is written
 * into a private temporary folder of the process (removed at exit) and loaded from there.
 * Inputs of several files are split at lines that read exactly "--8<--". */
#pragma once
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#include "scenario.h"
#include "share.h"
#include "sim.h"
#include "place.h"
/* The scenario reader knows no strategies until the program hands it the simulator's table
 * (scenario.h); the command line does it in cmd_main, a fuzz target here. */
__attribute__((constructor)) static void fuzz_use_strategies(void) {
  scenario_use_strategies(share_count(), share_input_row);
  scenario_use_model_keys(sim_model_keys); /* nor any model's constants */
  scenario_use_pool_sections(sim_pool_sections); /* nor pool sections */
  scenario_use_placements(place_count(), place_input_row); /* nor placement policies */
}

#define FUZZ_SEPARATOR "\n--8<--\n"
#define FUZZ_MAX_PARTS 8

static char *fuzz_tmp;

static int fuzz_remove_one(const char *path, const struct stat *st, int flag, struct FTW *f) {
  (void)st, (void)flag, (void)f;
  remove(path);
  return 0;
}

static void fuzz_cleanup(void) {
  if (!fuzz_tmp) return;
  nftw(fuzz_tmp, fuzz_remove_one, 16, FTW_DEPTH | FTW_PHYS);
  g_free(fuzz_tmp);
  fuzz_tmp = NULL;
}

/* The process's folder for input files (made on first use). */
static inline const char *fuzz_dir(void) {
  if (!fuzz_tmp) {
    fuzz_tmp = g_dir_make_tmp("sharesim-fuzz-XXXXXX", NULL);
    if (!fuzz_tmp) abort();
    atexit(fuzz_cleanup);
  }
  return fuzz_tmp;
}

/* Writes len bytes to fuzz_dir()/name (name may hold a sub-folder: "run/summary.json");
 * returns the path (owned). */
static inline char *fuzz_write(const char *name, const void *data, size_t len) {
  char *path = g_build_filename(fuzz_dir(), name, NULL);
  g_autofree char *parent = g_path_get_dirname(path);
  if (g_mkdir_with_parents(parent, 0700) != 0) abort();
  /* no fsync: the file lives only for this execution, and syncing it would cost more
   * than most parsers' own work. Written over in place ("wb" truncates; GLib 2.74's
   * g_file_set_contents_full without consistency flags did not, which left the tail of a
   * longer earlier input behind): the same file, so its inode stays the one the readers
   * noted (safeopen.c) instead of a new one per execution */
  FILE *f = fopen(path, "wb");
  if (!f || (len && fwrite(data, 1, len, f) != len) || fclose(f) != 0) abort();
  return path;
}

/* Splits data at FUZZ_SEPARATOR into at most n parts (the last takes the rest); parts not
 * present are empty. Returns how many were present. */
static inline size_t fuzz_split(const uint8_t *data, size_t size, const uint8_t **part,
                                size_t *len, size_t n) {
  size_t k = 0, sep = strlen(FUZZ_SEPARATOR);
  const uint8_t *p = data, *end = data + size;
  for (size_t i = 0; i < n; i++) part[i] = (const uint8_t *)"", len[i] = 0;
  while (k < n) {
    const uint8_t *hit = NULL;
    if (k + 1 < n)
      for (const uint8_t *q = p; q + sep <= end; q++)
        if (*q == '\n' && !memcmp(q, FUZZ_SEPARATOR, sep)) {
          hit = q;
          break;
        }
    part[k] = p;
    len[k] = (size_t)((hit ? hit : end) - p);
    k++;
    if (!hit) break;
    p = hit + sep;
  }
  return k;
}
