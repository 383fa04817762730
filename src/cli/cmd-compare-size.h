/* cmd-compare-size.h: `compare --size-to-constraints`: every scenario's pools sized to the
 * same constraints before the comparison, so that a saving is the mechanism's and not the
 * GPU counts typed into each scenario. */
#pragma once
#include "scenario.h"
#include "sizing.h"
#include "trace.h"

/* What sizing found, for compare.txt and sizing.csv. */
typedef struct compare_sizing {
  GPtrArray *sets;  /* per scenario, a GPtrArray of "pools.P.nodes=N" (owned) */
  GString *text;    /* the block compare.txt and stdout show */
  GString *csv;     /* sizing.csv */
  GString *json;    /* compare.json's "sizing" member (what `report` reads), "" before */
  guint unmet;      /* pools where even max_nodes broke a constraint */
} compare_sizing;

void compare_sizing_init(compare_sizing *z);
void compare_sizing_clear(compare_sizing *z);
/* Sizes every pool of the n scenarios (sc[i] loaded from paths[i]) in order, each to the
 * smallest number of nodes from 1 to max_nodes (0: max(64, 8 x its own)) at which the run
 * meets cons for that pool (every job fits, none is left queued, and the constraints given),
 * the pools before it at their sized and those after it at their own sizes; then replaces
 * sc[i] by the sized scenario. Probes run one at a time in work/sizing-probes (removed).
 * Returns 0, or the exit code after printing why. */
int compare_size_all(char **paths, scenario **sc, guint n, const trace *tr, const char *work,
                     const sizing_constraints *cons, gint64 max_nodes, gboolean progress,
                     compare_sizing *z);
