/* htmlreport-int.h: what the report's files share (htmlreport.c lays out the page,
 * htmlreport-load.c reads the set-ups, htmlreport-decide.c judges them): one set-up as read
 * from its folder (a result, seeds or model-range folder), with the measures the page puts
 * beside each saving, and the recommendation. Internal to src/study/plot. */
#pragma once
#include <glib.h>
#include "figures.h"
#include "table.h"

#define HR_HOURS_PER_MONTH 730.0 /* the 730-hour month: 8760 h a year / 12 */
#define HR_WEEK_S (7 * 86400.0)  /* a trace shorter than this is not extrapolated */
#define HR_MAX_SLOWDOWN 1.5      /* mean slowdown of a class above this: not recommended */
#define HR_MAX_SHOWN 4           /* set-ups on the page (one printed page); the others named */
#define HR_MAX_LEFT_OUT 3        /* cheaper set-ups listed with what rules them out */

/* One class of jobs (a kind: training, batch, notebook) with its slowdown: the `slowdown`
 * column of jobs.csv, or `burst_stretch` for jobs without one (notebooks). With seeds:
 * means over the seeds and the 95 % half-widths (NAN without). */
typedef struct hr_class {
  char *kind;
  double mean, p95, mean_half, p95_half;
  double mean_lo, mean_hi, p95_lo, p95_hi; /* over the model-range settings, NAN without */
} hr_class;

typedef struct hr_run {
  char *label;                        /* column name (scenario, point or folder); owned */
  char *dir;                          /* the folder whose files are read (first seed's) */
  run_figures *f;                     /* figures (the mean over seeds for a seeds folder) */
  GPtrArray *seed_runs;               /* run_figures* per seed (NULL: one run); owned */
  table *pools, *tenants, *services;  /* NULL when absent or unreadable */
  table *model_range;                 /* model-range.csv of a model-range folder, else NULL */
  GArray *t, *busy;                   /* double: interval start (s), % of provisioned GPUs */
  double days;                        /* span in days */
  GArray *classes;                    /* hr_class, in order of first appearance */
  double blast_jobs, blast_tenants;   /* most jobs / tenants one fault killed (0: none) */
  double blast_half;                  /* half-width of blast_jobs over seeds, NAN without */
  double blast_lo, blast_hi;          /* blast_jobs over the model-range settings, NAN without */
  char *hash;                         /* SHA-256 of the summary (or seeds.json) read; owned */
  char *trace_hash;                   /* SHA-256 of the trace file, NULL when unreadable */
  /* a model-range folder's runs with one constant at one end of its interval (hr_run*, in
   * model-range.json's order) and their names ("ts_curve_exp=1.5"); NULL without */
  GPtrArray *settings, *setting_names;
  /* compare --size-to-constraints (compare.json's "sizing"): the constraints every pool was
   * sized to, the GPUs its scenario typed, and the pools no size tried met ("" when none);
   * sized_to NULL when the counts were typed */
  char *sized_to, *unmet;
  double typed_gpus;
} hr_run;

/* A plan folder's recommendation, per class, from plan.csv and plan.txt. */
typedef struct hr_plan {
  table *csv;                         /* plan.csv */
  table *pareto;                      /* pareto.csv, or NULL (a plan folder from before it) */
  GPtrArray *reasons;                 /* char*: plan.txt's "binding constraint:" lines */
  char *range;                        /* plan.txt's "model range:" line (--model-range), or NULL */
} hr_plan;

/* Appends to runs (hr_run*, owned by it) the set-ups of folder dir: a result folder, a
 * seeds folder, a model-range folder, a compare or sweep folder (each of its runs), or a
 * plan folder (its recommended run; *plan receives the plan, when plan is not NULL and
 * none was read yet). FALSE with error when it is none of these or cannot be read. */
gboolean hr_load_dir(const char *dir, GPtrArray *runs, hr_plan **plan, GError **error);
/* A label that an earlier set-up already has gets its folder's name: "three-pools (cheap)". */
void hr_unique_labels(GPtrArray *runs);
void hr_run_free(hr_run *r);
void hr_plan_free(hr_plan *p);

/* Figure key of run r (NAN when absent) and, with seeds, its half-width (else NAN). */
double hr_fig(const hr_run *r, const char *key);
double hr_half(const hr_run *r, const char *key);
/* The model range [*lo, *hi] of key from model-range.csv; FALSE without one. */
gboolean hr_range(const hr_run *r, const char *key, double *lo, double *hi);
/* Cost per 730-hour month: the run's cost over its span, per hour, times 730. */
double hr_month(const hr_run *r);
/* With seeds: the half-width of the cost per month over the seeds (each seed's cost over
 * its own span), else NAN. */
double hr_month_half(const hr_run *r);
/* The class named kind, or NULL. */
const hr_class *hr_class_of(const hr_run *r, const char *kind);
/* Appends text escaped for HTML (cleaned of control characters first). */
void hr_text(GString *out, const char *s);

/* The recommendation: index of the set-up recommended (0: keep the first, the baseline),
 * with its reason and what rules out each cheaper set-up appended to why as HTML. */
guint hr_decide(hr_run *const *runs, guint n, GString *why);
/* With model-range settings on every set-up: appends to why whether the recommendation pick
 * holds at each setting (the decision taken again on the runs at that setting) or, plainly,
 * at which settings it flips and to what. Nothing without settings. */
void hr_decide_range(hr_run *const *runs, guint n, guint pick, GString *why);
/* The order in which set-ups are shown when they are more than HR_MAX_SHOWN: the baseline,
 * the pick, then those that break nothing more than the baseline, cheapest first, then the
 * others, cheapest first. Returns indices into runs (n of them). Owned. */
guint *hr_rank(hr_run *const *runs, guint n, guint pick);
/* The reason of a set-up r that is not recommended against the baseline: "" when it
 * breaks nothing the baseline does not ("+3 OOM kills; notebook slowed 2.78x"). Owned. */
char *hr_breaks_more(const hr_run *base, const hr_run *r);
