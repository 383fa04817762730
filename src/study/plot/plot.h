/* plot.h: gnuplot charts from result folders (sharesim plot). For each chart it writes
 * NAME.dat (numbers only), NAME.gp (a header of variables, then the template from
 * plots/NAME.gp compiled into the program) and, when gnuplot is available, the images
 * NAME.png/.svg/.pdf, drawn by spawning gnuplot with an argument vector (no shell) in the
 * output folder. common.gp and terminal.gp, loaded by every script, are written beside
 * them. Text from the inputs (scenario, pool, tenant and service names, folder names)
 * only ever reaches a script as a gnuplot single-quoted string literal (plot_quote), in
 * which gnuplot expands nothing, or as a comment cleaned of line breaks: it can never
 * run a command. */
#pragma once
#include <glib.h>
#include "figures.h"
#include "sweep.h"

typedef struct plot_template {
  const char *name;   /* "utilisation.gp" */
  const char *text;
} plot_template;
/* The templates (plot-templates.c, generated from the plots/ templates by the build), ending
 * with {NULL, NULL}. */
extern const plot_template plot_templates[];
/* The text of template name, or NULL. */
const char *plot_template_text(const char *name);

#define PLOT_MIN_SIZE 100
#define PLOT_MAX_SIZE 10000

/* Seconds one gnuplot child may run before it is stopped (its chart then counts as
 * failed), unless SHARESIM_GNUPLOT_TIMEOUT or plot_options.gnuplot_timeout_s says
 * otherwise. Assumption: every chart of a 1 M-job run draws in a few seconds. */
#define PLOT_GNUPLOT_TIMEOUT_S 60.0

typedef struct plot_options {
  char **formats;      /* subset of png, svg, pdf; NULL-terminated, at least one */
  guint width, height; /* pixels (PDF: at 96 per inch) */
  char *gnuplot;       /* the gnuplot program to spawn; NULL: write data and scripts only */
  double gnuplot_timeout_s; /* > 0: the limit per gnuplot child; 0: the environment or default */
  /* FALSE (default): each out_dir is written whole or not at all (a temporary folder
   * renamed into place, outdir.h). TRUE: straight into out_dir, for a caller that is
   * already filling a temporary folder (plot_report_rebase then fixes the paths). */
  gboolean direct;
} plot_options;

/* What a plot call wrote. Paths are owned. */
typedef struct plot_report {
  GPtrArray *images;   /* image files drawn */
  GPtrArray *scripts;  /* NAME.gp written */
  GPtrArray *skipped;  /* "slo: timeseries.csv has no SLO column" */
  GPtrArray *failed;   /* "NAME.gp: gnuplot said ..." */
  gboolean gnuplot_stopped; /* a gnuplot child hit the time limit: draw no more */
} plot_report;
void plot_report_init(plot_report *r);
void plot_report_clear(plot_report *r);
/* Replaces the leading folder from by to in every path of r (after a temporary folder
 * the charts were drawn in was renamed to its final name). */
void plot_report_rebase(plot_report *r, const char *from, const char *to);

/* Parses "png,svg,pdf" (any subset, any order, no repeats). NULL-terminated, owned;
 * NULL with error (SHARESIM_ERROR_INPUT) otherwise. */
char **plot_parse_formats(const char *text, GError **error);

/* Appends text as a gnuplot single-quoted string literal: ' doubled, line breaks and
 * other control characters replaced by spaces, invalid UTF-8 repaired, at most 200
 * characters. Inside single quotes gnuplot does no backquote, macro or escape
 * substitution. */
void plot_quote(GString *out, const char *text);

/* Charts of one result folder into out_dir (its parent created when missing; out_dir is
 * written whole or not at all and replaces only an earlier plot folder, see outdir.h): utilisation (whole
 * cluster and per pool), memory, memory-peak, queue, wait, cost, showback, and slo,
 * latency and memory-gpus (per GPU over time, from dcgm.csv) when the folder has that data. A missing or unusable file skips its charts
 * (recorded in rep->skipped); FALSE with error only when out_dir cannot be written or
 * run_dir is not a result folder. Chart failures are in rep->failed. */
gboolean plot_run(const char *run_dir, const char *out_dir, const plot_options *opt,
                  plot_report *rep, GError **error);
/* The predicted-against-measured chart of a `validate -o` folder (validate-scatter.csv),
 * into out_dir. */
gboolean plot_validate(const char *dir, const char *out_dir, const plot_options *opt,
                       plot_report *rep, GError **error);
/* The names of the charts plot_run draws, in order, comma-separated (owned): read from
 * its chart table, for --help. */
char *plot_run_chart_names(void);

/* The Pareto charts of a plan folder (probes.csv, pareto.csv; plot-pareto.c): pareto-slo and
 * pareto-wait, into out_dir. FALSE with error when either file cannot be read. */
gboolean plot_plan(const char *dir, const char *out_dir, const plot_options *opt,
                   plot_report *rep, GError **error);

/* Bars per run and lines over time across runs, into out_dir. names (one per run) label
 * the runs; runs[0] is the baseline of the cost chart. */
gboolean plot_compare(const run_figures *const *runs, const char *const *names, guint n,
                      const char *out_dir, const plot_options *opt, plot_report *rep,
                      GError **error);

/* Lines across the swept value of a sweep folder's finished points (bars per point when
 * the first key's values are not all numbers), into out_dir. */
gboolean plot_sweep(const sweep_spec *s, const char *sweep_dir, const char *out_dir,
                    const plot_options *opt, plot_report *rep, GError **error);
