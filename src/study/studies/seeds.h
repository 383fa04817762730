/* seeds.h: one scenario run with several seeds (`--seeds N` of run, compare, sweep and
 * size). Each figure's statistics over the seeds: mean, sample standard deviation and
 * the 95 % confidence interval of the mean from Student's t (gsl_cdf_tdist_Pinv); the
 * Welch interval of the difference between two scenarios' means (what compare marks
 * significant); the mean run a study tabulates or judges; and the files of a seeds folder:
 * one result folder per seed (seed-S/) beside seeds.txt, seeds.csv and seeds.json. */
#pragma once
#include <glib.h>
#include "compare.h"
#include "figures.h"
#include "outdir.h"

/* Most seeds one --seeds may ask for: each seed is a full run and keeps a full result
 * folder, so 1000 seeds of a 1-second run already take 17 minutes on one core. */
#define SEEDS_MAX 1000u
/* The level of every interval (two-sided). */
#define SEEDS_LEVEL 0.95

typedef struct seeds_stat {
  guint n;          /* seeds with a finite value */
  double mean;      /* NAN when n == 0 */
  double sd;        /* sample standard deviation (divisor n - 1); NAN when n < 2 */
  double half;      /* half-width of the interval: t(0.975, n - 1) sd / sqrt(n); NAN, n < 2 */
  double lo, hi;    /* mean - half, mean + half */
  double min, max;  /* NAN when n == 0 */
} seeds_stat;

/* The statistics of v[0..n) (non-finite values are left out). */
void seeds_stat_of(const double *v, guint n, seeds_stat *s);
/* The 0.975 quantile of Student's t with df degrees of freedom (df > 0, not necessarily
 * whole); NAN otherwise. */
double seeds_t_quantile(double df);
/* Welch's interval for the difference of means b - a at SEEDS_LEVEL (unequal variances,
 * Welch-Satterthwaite degrees of freedom): TRUE when it excludes 0, i.e. the difference
 * is significant (Welch's two-sided t-test at 5 %). Both need n >= 2, else FALSE and NAN
 * bounds. When both standard deviations are 0 the interval is the difference itself. *lo,
 * *hi may be NULL. */
gboolean seeds_welch(const seeds_stat *a, const seeds_stat *b, double *lo, double *hi);

/* The figures of one scenario over its seeds. */
typedef struct seeds_table {
  GPtrArray *runs;  /* run_figures*, one per seed in seed order; owned */
  GArray *rows;     /* compare_row: the union of the runs' figures */
  GArray *stats;    /* seeds_stat, one per row */
} seeds_table;

/* Takes runs (at least one, in seed order); adds each run's per-day rates. */
seeds_table *seeds_build(GPtrArray *runs);
void seeds_free(seeds_table *t);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(seeds_table, seeds_free)

/* The statistics of figure key over runs (run_figures*). */
void seeds_stat_key(const GPtrArray *runs, const char *key, seeds_stat *s);
/* A run whose every figure is the mean over runs (of the seeds that have it), and each
 * service's SLO attainment the mean over the seeds (services matched by position and
 * name); names, seed and pools are those of the first run; dir is recorded. Owned. */
run_figures *seeds_mean(const GPtrArray *runs, const char *dir);

/* A half-width or standard deviation v in the figure's unit, without a sign ("43.2",
 * "0.41 pp", "$12.00"); 0 when v is below 1e-9 of mean (rounding); "-" when not finite. */
void seeds_format_spread(GString *out, figure_unit unit, double v, double mean);
/* seed-S, the folder of one seed inside a seeds folder. Owned. */
char *seeds_folder_name(guint64 seed);
/* The printed table: per figure the mean, the 95 % interval, its half-width, the standard
 * deviation and the lowest and highest seed's value. */
void seeds_text(const seeds_table *t, GString *out);
/* section,key,figure,unit,n,mean,sd,ci95_low,ci95_high,min,max then seed:S per seed. */
void seeds_csv(const seeds_table *t, GString *out);
/* The same with the seeds and their folders (seeds.json, what seeds_load_dir reads). */
void seeds_json(const seeds_table *t, GString *out);
/* The runs' seeds as a JSON list: [1, 2, 3]. */
void seeds_json_seeds(const GPtrArray *runs, GString *out);
/* Writes seeds.txt, seeds.csv and seeds.json into o. */
gboolean seeds_write(const seeds_table *t, outdir *o, GError **error);
/* dir holds seeds.json (a seeds folder, not a single result folder). */
gboolean seeds_is_dir(const char *dir);
/* The runs of a seeds folder, from its seeds.json (folders relative to dir). NULL with
 * error (SHARESIM_ERROR_INPUT) when it or a seed's folder cannot be read. */
seeds_table *seeds_load_dir(const char *dir, GError **error);
