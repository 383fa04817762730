/* sweep.h: a sweep's grid of scenario variants and its folder. The grid is the cartesian
 * product of "--set KEY=V1,V2,..." lists, in grid order: the first key varies slowest.
 * The folder holds sweep.json (the manifest: inputs, their SHA-256, the grid, the
 * points), points/NAME/ (one result folder per point, written atomically by `run`, so a
 * point is finished exactly when points/NAME/summary.json exists) and sweep.csv (one row
 * per point, built from the finished folders in grid order). Running the points is
 * cmd-sweep.c's. */
#pragma once
#include <glib.h>
#include "figures.h"

struct scenario; /* scenario.h */

/* Most points a grid may have (and values per key). */
#define SWEEP_MAX_POINTS 100000u

typedef struct sweep_grid {
  GPtrArray *keys;        /* char*, owned, in --set order */
  GPtrArray *values;      /* per key: GPtrArray of char* (owned) */
  guint n_points;
} sweep_grid;

/* Parses the --set arguments. Values are split at commas outside [], {} and quotes
 * (so "pools.x.layouts=[a, b],[c]" gives two values) and trimmed. Errors
 * (SHARESIM_ERROR_INPUT): no '=', empty key or value, a key given twice, too many points. */
sweep_grid *sweep_grid_parse(const char *const *sets, guint n_sets, GError **error);
void sweep_grid_free(sweep_grid *g);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(sweep_grid, sweep_grid_free)
/* Value of key k at point p. Borrowed. */
const char *sweep_grid_value(const sweep_grid *g, guint k, guint p);
/* The overrides of point p: "KEY=VALUE" per key. Owned (g_strfreev). */
char **sweep_grid_overrides(const sweep_grid *g, guint p);
/* The point's folder name: the 1-based index zero-padded to the width of n_points, then
 * "_KEY-VALUE" per key (KEY's last dotted component; characters other than A-Z a-z 0-9
 * . - become '_'), cut to 64 characters: always util_name_is_safe. Owned. */
char *sweep_grid_point_name(const sweep_grid *g, guint p);

/* What a sweep runs: inputs as given on the command line (relative to cwd) and the
 * grid. */
typedef struct sweep_spec {
  char *scenario, *trace, *phases, *requests; /* phases/requests may be NULL */
  char *cwd;                                  /* absolute folder the paths are relative to */
  char *scenario_sha256, *trace_sha256, *phases_sha256, *requests_sha256;
  /* files the points' scenarios reference (sharing_config, mig_config, interference), as
   * resolved by scenario.c, with their SHA-256: sorted by path, no repeats */
  GPtrArray *ref_paths, *ref_sha256;
  sweep_grid *grid;
  GPtrArray *names;                           /* point names, char*, owned, NULL-terminated */
  guint n_seeds;                              /* --seeds: seeds per point (0 or 1: one run);
                                               * "seeds" in the manifest when 2 or more */
} sweep_spec;

/* Builds the spec (hashing the input files). NULL with error when a file cannot be read. */
sweep_spec *sweep_spec_new(const char *scenario, const char *trace, const char *phases,
                           const char *requests, sweep_grid *grid /* taken */, GError **error);
void sweep_spec_free(sweep_spec *s);
/* Adds the files sc references (one point's scenario) to the spec, hashing each once. A
 * "FILE#KEY" reference hashes FILE. FALSE with error (SHARESIM_ERROR_INPUT) when one
 * cannot be read. */
gboolean sweep_spec_add_references(sweep_spec *s, const struct scenario *sc, GError **error);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(sweep_spec, sweep_spec_free)
/* Hashes the inputs again (paths relative to the current folder, as the manifest's cwd)
 * and compares with s: FALSE with error (SHARESIM_ERROR_INPUT) naming the first file that
 * changed since the sweep was set up, so a --point task never mixes versions. */
gboolean sweep_spec_verify(const sweep_spec *s, GError **error);
/* The manifest text (sweep.json): deterministic for the same spec. The referenced files
 * appear as "references" only when there are some, so a sweep that references none keeps
 * the manifest of earlier versions. A resume is accepted only when this text is the same,
 * so a changed referenced file makes the folder "another sweep". Owned. */
char *sweep_manifest(const sweep_spec *s);
/* Reads DIR/sweep.json back. NULL with error (SHARESIM_ERROR_INPUT) when it is missing
 * or not a sweep manifest. */
sweep_spec *sweep_manifest_load(const char *dir, GError **error);

/* DIR/points/NAME */
char *sweep_point_dir(const char *dir, const char *name);
/* The point is finished: DIR/points/NAME/summary.json exists (or, for a sweep with seeds,
 * DIR/points/NAME/seeds.json: the point is a seeds folder). */
gboolean sweep_point_done(const char *dir, const char *name);
struct seeds_table; /* seeds.h */
/* A finished point's figures: its run's, or for a seeds folder the mean over its seeds
 * (seeds_mean) with *group (may be NULL) receiving its seeds (owned). NULL with error. */
run_figures *sweep_point_load(const char *dir, const char *name, struct seeds_table **group,
                              GError **error);

/* sweep.csv from the finished points, in grid order: "scenario", "seed" (the point's run's;
 * empty for a point of several seeds unless the grid varies `seed`), "point", the swept
 * keys (but `seed`, which the leading column carries), then every
 * figure key that any point has (in order of first appearance); with seeds, each figure
 * is the mean over the point's seeds and is followed by KEY:ci95_low and KEY:ci95_high. Points not finished are
 * left out and their names added to missing (when not NULL). FALSE with error when a
 * finished point cannot be read. */
gboolean sweep_csv(const sweep_spec *s, const char *dir, GString *out, GPtrArray *missing,
                   GError **error);
/* An aligned text table of the headline figures per point (what `sweep` prints). */
gboolean sweep_text(const sweep_spec *s, const char *dir, GString *out, GError **error);
