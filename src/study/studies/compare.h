/* compare.h: the side-by-side table of several runs' headline figures with each run's
 * difference to the first (the baseline), as text, CSV or JSON (compare.txt/.csv/.json).
 * The rows are the union of the runs' figures (figures.h), so figures that later models
 * add to summary.json appear without a change here; a run without a figure shows "-".
 * The finance rows add each run's saving against the baseline (baseline cost - cost), and
 * every run gets the per-day rates of its totals (figures_add_rates), so that runs of
 * different lengths can be compared; the text says so when their spans differ. */
#pragma once
#include <glib.h>
#include "figures.h"

typedef struct compare_row {
  char *key, *label;          /* owned */
  figure_unit unit;
  figure_section section;
  gboolean detail;            /* CSV/JSON only */
} compare_row;

typedef struct compare_table {
  GPtrArray *runs;            /* run_figures*, owned; runs->pdata[0] is the baseline */
  GPtrArray *names;           /* column name per run (unique, cleaned), owned */
  GArray *rows;               /* compare_row */
  gboolean spans_differ;      /* the runs' simulated spans differ (a note in the text) */
  GPtrArray *groups;          /* with seeds: seeds_table* per run (seeds.h), owned; runs
                               * then hold each group's mean run. NULL without seeds */
} compare_table;

/* An empty array of compare_row (the rows free their texts). */
GArray *compare_rows_new(void);
/* Appends to rows the union of the runs' figures (run_figures*): by section, known
 * figures in their order, the others in order of first appearance over the runs. */
void compare_union_rows(const GPtrArray *runs, GArray *rows);

/* Takes ownership of the runs (at least one). Column names are the scenario names,
 * made unique with the folder name and then "#N" when two runs share one. Adds the
 * "saving" figure to every run. */
compare_table *compare_build(GPtrArray *runs);
/* The same for scenarios run with several seeds: groups holds one seeds_table* per
 * scenario (taken; the first is the baseline), folders the folder each is recorded
 * under. The table's values are the means over each scenario's seeds (seeds_mean); every
 * seed run also gets its saving against the baseline's mean cost, so that the saving has
 * an interval too. A group of one run (a plain result folder) has no interval. */
compare_table *compare_build_seeds(GPtrArray *groups, const char *const *folders);
void compare_free(compare_table *t);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(compare_table, compare_free)

/* Value of row r for run i (NAN when the run lacks it) and its difference to the
 * baseline (NAN when either is missing). */
double compare_value(const compare_table *t, guint r, guint i);
double compare_delta(const compare_table *t, guint r, guint i);
/* With seeds: the half-width of the 95 % interval of row r's mean for run i (NAN when it
 * has none), and whether its difference to the baseline is significant: Welch's 95 %
 * interval of the difference (*lo, *hi, may be NULL) excludes 0 (seeds_welch). FALSE and
 * NAN without seeds. */
double compare_half_width(const compare_table *t, guint r, guint i);
gboolean compare_significant(const compare_table *t, guint r, guint i, double *lo, double *hi);
/* Index of the row with key, or -1. */
int compare_row_index(const compare_table *t, const char *key);

/* The aligned table; brief leaves out the per-pool and per-tenant rows. */
void compare_text(const compare_table *t, gboolean brief, GString *out);
/* section,key,figure,unit, one value column per run, then "delta:NAME" per other run. */
void compare_csv(const compare_table *t, GString *out);
/* compare-long.csv: scenario,seed,section,key,figure,unit,value,delta (+ ci95,delta_ci95_low,
 * delta_ci95_high,significant with seeds), one row per run and figure, run by run. */
void compare_csv_long(const compare_table *t, GString *out);
void compare_json(const compare_table *t, GString *out);
/* The same with members, JSON object members ("\"sizing\": {...}"), after "figures" (NULL
 * or "": none). */
void compare_json_with(const compare_table *t, const char *members, GString *out);

/* Appends (to runs, run_figures* owned by it) the runs of an earlier compare folder, as
 * its compare.json lists them: a relative "folder" is looked up inside dir first (compare
 * -o writes the runs there), then as given. FALSE with error when one is unreadable. */
gboolean compare_load_dir(const char *dir, GPtrArray *runs, GError **error);
/* The folders of those runs, resolved that way (char*, appended to paths). */
gboolean compare_dir_folders(const char *dir, GPtrArray *paths, GError **error);
