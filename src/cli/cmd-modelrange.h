/* cmd-modelrange.h: `run --model-range`: the scenario run at the models' defaults and once
 * with each fitted or assumed constant at each end of its interval (modelrange.h), with
 * --seeds N each of those runs over N seeds, into one model-range folder; the table of each
 * figure's value and range printed and written as model-range.txt/.csv/.json. */
#pragma once
#include "modelrange.h"
#include "scenario.h"
#include "trace.h"

/* Runs the model range of the scenario at path (with the overrides sets, seeds first ..
 * first + n_seeds - 1) on tr, jobs at once, into out (a scratch folder when NULL: only the
 * table is kept); prints the table unless quiet. Returns 0 or the exit code after printing
 * why; nothing is left of out on failure. */
int cmd_modelrange_run(const char *name, const char *path, const char *const *sets,
                       guint n_sets, guint64 first, guint n_seeds, const trace *tr,
                       const char *out, guint jobs, gboolean progress, gboolean quiet);
/* The same without printing: *table receives the table (owned; NULL on failure); out as
 * above (compare --model-range gives each scenario's folder inside its own). */
int cmd_modelrange_table(const char *name, const char *path, const char *const *sets,
                         guint n_sets, guint64 first, guint n_seeds, const trace *tr,
                         const char *out, guint jobs, gboolean progress,
                         modelrange_table **table);
