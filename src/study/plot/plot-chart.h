/* plot-chart.h: what the chart files of `sharesim plot` (src/study/plot/plot-*.c) share with
 * plot.c: the output context, the time grids, a result folder's pools and timeseries, the
 * chart writer, and the row a chart of a result folder registers with (plot_run_charts[]
 * in plot.c). Private to the study layer's plot files. */
#pragma once
#include "plot.h"
#include "outdir.h"
#include "table.h"
#include <glib.h>

/* Most points per line over time and per distribution; more are averaged (time) or
 * sampled at even ranks (distributions). */
#define PLOT_MAX_TIME_POINTS 2000
#define PLOT_MAX_CDF_POINTS 1000
#define PLOT_MAX_TENANTS 15
#define PLOT_MAX_SERVICES 12
#define PLOT_MAX_QUOTED 200


typedef struct plot_ctx {
  const char *out_dir;     /* where files are written: the temporary folder (or the final
                            * one when opt->direct) */
  const char *shown_dir;   /* the final folder, named in reports */
  outdir *od;              /* the temporary folder being filled, NULL when direct */
  const plot_options *opt;
  plot_report *rep;
  const char *source;      /* folder the data came from (for the script's comment) */
} plot_ctx;

typedef struct plot_grid {
  guint ncols;
  GHashTable *rows;      /* bucket (gint64*) -> index into t/sums */
  GArray *keys;          /* gint64, bucket numbers */
  GArray *sums, *weights; /* ncols doubles per row */
  double bucket_s;
} plot_grid;

typedef struct plot_pool {
  char *name, *model;
  double gpus, cost, allocated_frac, busy_frac;
} plot_pool;

typedef struct plot_run_data {
  GArray *pools;            /* plot_pool */
  table *ts;                /* timeseries.csv or NULL */
  double span_s;            /* end of the last interval */
  double interval_s;
  const char *time_label;
  double time_div;          /* seconds per time unit */
  gboolean dated;           /* placed at a date (start:, or a trace's submit_utc): x is UTC */
  double epoch;             /* Unix seconds of second 0 when dated (time_div 1), else 0 */
} plot_run_data;

/* One chart of a result folder. draw writes its data and script (and draws them); it
 * returns FALSE with error only when the output cannot be written, and records a chart
 * it cannot draw from this folder with plot_skip. */
typedef struct plot_run_chart {
  const char *name;           /* as skip messages name it: "memory-peak" */
  gboolean needs_timeseries;  /* drawn from timeseries.csv (d->ts): not called without it */
  gboolean (*draw)(const plot_ctx *c, const char *run_dir, plot_run_data *d,
                   const char *scenario, GError **error);
} plot_run_chart;

/* Numbers in data files: "NaN" when undefined; a dated time keeps whole milliseconds. */
void plot_num(GString *out, double v);
void plot_time_num(GString *out, double epoch, double v);

/* Writing: a file of the output folder; the folder begun and finished (whole or not at all);
 * a chart script (header, vars, template) written and drawn; gnuplot variables; a skipped chart. */
gboolean plot_write(const plot_ctx *c, const char *file, const GString *data,
                    GError **error);
gboolean plot_prepare_dir(plot_ctx *c, const char *final, GError **error);
gboolean plot_finish(plot_ctx *c, gboolean ok, GError **error);
gboolean plot_chart(const plot_ctx *c, const char *name, const char *template_name,
                    const char *title, const GString *vars, GError **error);
void plot_array(GString *vars, const char *var, const char *const *items, guint n);
void plot_var(GString *vars, const char *var, const char *text);
void plot_skip(const plot_ctx *c, const char *chart, const char *why);

/* Time grids: values averaged into time buckets, written in time order. */
plot_grid *plot_grid_new(guint ncols, double bucket_s);
void plot_grid_free(plot_grid *g);
void plot_grid_add(plot_grid *g, double t_s, guint col, double v, double w);
guint plot_grid_write(const plot_grid *g, GString *out, double epoch, double time_div,
                      const double *scale);

/* A result folder: its pools and timeseries, loaded and cleared; axis units and buckets;
 * timeseries columns added into a grid; one chart of a column per pool; GPU memory by model;
 * a headline figure of summary.json scaled (NaN when absent). */
void plot_time_vars(GString *vars, const plot_run_data *d);
int plot_pool_index(GArray *pools, const char *name, gboolean add);
GPtrArray *plot_pool_names(const plot_run_data *d);
void plot_time_unit(double span_s, const char **label, double *div);
double plot_bucket(const plot_run_data *d);
gboolean plot_ts_add(const plot_run_data *d, plot_grid *g, const char *col_name,
                     gboolean per_pool, guint stride, guint offset);
gboolean plot_per_pool_series(const plot_ctx *c, const plot_run_data *d,
                              const char *name, const char *tmpl, const char *column,
                              double scale_all, const char *title, GString *vars,
                              GError **error);
double plot_model_mem_gb(const char *model);
plot_run_data plot_run_data_load(const char *run_dir);
void plot_run_data_clear(plot_run_data *d);
double plot_fig(const run_figures *f, const char *key, double scale);
