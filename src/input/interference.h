/* interference.h: a table of measured pair slowdowns that replaces the noisy-neighbour
 * model for the pairs it lists (scenario key `interference: FILE.csv`).
 * Format (header required, columns by name): label_a,label_b,speed_a[,speed_b]
 * speed_a is a's speed (0 < s <= 1.5, relative to alone) while b is busy beside it;
 * speed_b, when given, is b's speed beside a, else the pair is looked up the other way
 * round. Jobs are matched by their trace `label`, or by their kind when the label is empty. */
#pragma once
#include <glib.h>
#include "diag.h"

/* Largest table read (bytes): the scenario-file cap (scenario.h), an assumption far above
 * any measured table (a few hundred pairs). */
#define INTERFERENCE_MAX_FILE_BYTES (8 * 1024 * 1024)

typedef struct interference_table {
  char *path;
  GHashTable *speeds; /* "a\x1fb" -> double* (a's speed next to b) */
} interference_table;

interference_table *interference_load(const char *path, diag_list *diags);
/* The same for the scenario's `interference:` file: opened once, confined to within
 * (paths_open_in; the scenario's ref_dir), NULL for anywhere. */
interference_table *interference_load_in(const char *within, const char *path,
                                         diag_list *diags);
void interference_free(interference_table *t);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(interference_table, interference_free)
/* a's measured speed next to a busy b; FALSE when the table has no such entry. */
gboolean interference_lookup(const interference_table *t, const char *a, const char *b,
                             double *speed_a);
