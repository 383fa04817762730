/* modelrange.h: model uncertainty on every figure (`run --model-range`, issue 27). Each
 * fitted or assumed constant of the models carries an interval (modelrange_constants: the
 * --set key, its default, its low and high value and where the interval comes from). The
 * scenario is run at the defaults and once more with each constant at each end of its
 * interval, the others at their defaults (one at a time); each headline figure is then
 * shown as value [lowest, highest] over those runs, with the constant that set each end,
 * beside the seeds' 95 % interval when the runs have several seeds. */
#pragma once
#include <glib.h>
#include "outdir.h"
#include "seeds.h"
#include "scenario.h"

typedef struct modelrange_constant {
  /* the owning model's declaration (scenario.h): its key.name is the --set key
   * ("ts_switch_loss", "llm.compute_efficiency"), its key.def the default as the scenario
   * format writes it; the table restates neither */
  const scenario_model_key *decl;
  const char *low;      /* the ends of its interval, as --set values */
  const char *high;
  const char *model;    /* the model that reads it ("time-slicing", "LLM serving") */
  const char *interval; /* where the interval comes from ("assumption: +/-25 % ...") */
} modelrange_constant;

/* The --set key and the default of c, from its model's declaration. */
static inline const char *modelrange_key(const modelrange_constant *c) {
  return c->decl->key.name;
}
static inline const char *modelrange_default(const modelrange_constant *c) {
  return c->decl->key.def;
}
/* The constants, in table order; *n receives how many. */
const modelrange_constant *modelrange_constants(guint *n);
/* One line per constant: "KEY DEFAULT LOW HIGH" (run --list-constants, scripts/flips). */
void modelrange_list(GString *out);

/* The runs of a model range: run 0 at the defaults, then for constant c (table order) run
 * 1 + 2c at its low end and 2 + 2c at its high end. */
#define MODELRANGE_RUNS(n_constants) (1 + 2 * (n_constants))
/* The folder of run r inside the model-range folder ("base", "ts_switch_loss-low"). Owned. */
char *modelrange_folder_name(guint r);
/* "KEY=VALUE", the --set of run r (NULL for run 0). Owned. */
char *modelrange_override(guint r);

typedef struct modelrange_end {
  double value;         /* the lowest (highest) over the runs; NAN when no run has it */
  int run;              /* the run that gave it; 0 (the defaults) on ties with them */
} modelrange_end;

typedef struct modelrange_table {
  GPtrArray *groups;    /* seeds_table*, one per run (MODELRANGE_RUNS order), owned */
  GArray *rows;         /* compare_row: the base run's figures (seeds_table rows) */
  GArray *low, *high;   /* modelrange_end, one per row: over the runs' seed means */
  guint n_constants;
} modelrange_table;

/* Takes groups (MODELRANGE_RUNS(n) seeds tables, each over the same seeds). */
modelrange_table *modelrange_build(GPtrArray *groups, guint n_constants);
void modelrange_free(modelrange_table *t);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(modelrange_table, modelrange_free)

/* The mean over the seeds of key in run r (NAN when that run lacks it). */
double modelrange_value(const modelrange_table *t, guint run, const char *key);
/* The lowest and highest of key's run means (NAN, 0 when no run has it); the defaults' run
 * wins ties, then the first run in table order. */
void modelrange_ends(const modelrange_table *t, const char *key, modelrange_end *lo,
                     modelrange_end *hi);
/* "KEY=VALUE" of run r, "-" for the defaults' run (what low_by and high_by show). Owned. */
char *modelrange_by(guint r);

/* compare --model-range (modelrange-compare.c): the scenarios' tables side by side, the
 * first the baseline. Text: per figure each scenario's value (with several seeds, +/- the
 * seeds' half-width) and [low, high], and per scenario after the first the difference to
 * the baseline at the defaults with [lowest, highest] of the differences run by run (the
 * same setting in both), marked "flips" when its sign depends on a constant. */
void modelrange_compare_text(modelrange_table *const *t, const char *const *names, guint n,
                             GString *out);
/* compare-range.csv: scenario,section,key,figure,unit,value,ci95_low,ci95_high,range_low,
 * range_high,low_by,high_by,delta,delta_low,delta_high,flips (the delta columns empty for
 * the baseline). */
void modelrange_compare_csv(modelrange_table *const *t, const char *const *names, guint n,
                            GString *out);

/* The printed table: per figure the value (mean over the seeds), the seeds' 95 % interval
 * (with several seeds), the model range [low, high] and the settings that gave its ends;
 * then the constants with their intervals and how far each moved any figure. */
void modelrange_text(const modelrange_table *t, GString *out);
/* The fields section, key, figure, unit, value, ci95_low, ci95_high, range_low, range_high of
 * row (no line end; compare-range.csv puts the scenario before them): the value and the
 * seeds' interval from s, the range's ends low and high. */
void modelrange_csv_fields(const compare_row *row, const seeds_stat *s, double low, double high,
                           GString *out);
/* section,key,figure,unit,value,ci95_low,ci95_high,range_low,range_high,low_by,high_by */
void modelrange_csv(const modelrange_table *t, GString *out);
/* The same with the constants and the runs' folders. */
void modelrange_json(const modelrange_table *t, GString *out);
/* Writes model-range.txt, .csv and .json into o. */
gboolean modelrange_write(const modelrange_table *t, outdir *o, GError **error);
