/* plot-compare.c: the charts of `sharesim plot` over several runs (compare): bars per
 * run of utilisation, cost, queue wait and faults from each run's summary, and the busy
 * and allocated share over time of every run on one chart. */
#include "plot-chart.h"
#include <math.h>
#include <string.h>

/* ---- several runs ---- */

static gboolean plot_bars(const plot_ctx *c, const char *name, const char *tmpl,
                          const char *title, const char *const *names, guint n,
                          const GString *data, GString *vars, GError **error) {
  g_autofree char *dat = g_strdup_printf("%s.dat", name);
  plot_array(vars, "series", names, n);
  return plot_write(c, dat, data, error) && plot_chart(c, name, tmpl, title, vars, error);
}

/* Busy and allocated share of all GPUs over time, per run. */
static gboolean plot_compare_busy(const plot_ctx *c, const run_figures *const *runs,
                                  const char *const *names, guint n, GError **error) {
  double span = 0;
  plot_run_data *d = g_new0(plot_run_data, n);
  for (guint i = 0; i < n; i++) {
    d[i] = plot_run_data_load(runs[i]->dir);
    span = MAX(span, d[i].span_s);
  }
  const char *label;
  double div;
  plot_time_unit(span, &label, &div);
  gboolean ok = TRUE;
  GPtrArray *shown = g_ptr_array_new(), *files = g_ptr_array_new_with_free_func(g_free);
  for (guint i = 0; ok && i < n; i++) {
    if (!d[i].ts) continue;
    /* the same buckets for every run, about 300 over the longest span */
    double interval = d[i].interval_s > 0 ? d[i].interval_s : 60;
    double bucket = MAX(interval, ceil(span / 300 / interval) * interval);
    plot_grid *g = plot_grid_new(2, bucket);
    plot_ts_add(&d[i], g, "busy", FALSE, 0, 0);
    plot_ts_add(&d[i], g, "allocated", FALSE, 0, 1);
    GString *data = g_string_new("# time, busy % of all GPUs, allocated % of all GPUs\n");
    const double scale[] = {100, 100};
    guint rows = plot_grid_write(g, data, 0, div, scale);
    plot_grid_free(g);
    if (rows) {
      g_autofree char *file = g_strdup_printf("compare-busy-%u.dat", shown->len + 1);
      ok = plot_write(c, file, data, error);
      g_ptr_array_add(shown, (char *)names[i]);
      g_ptr_array_add(files, g_steal_pointer(&file));
    }
    g_string_free(data, TRUE);
  }
  if (ok && shown->len == 0) {
    plot_skip(c, "compare-busy", "no run has a timeseries.csv");
  } else if (ok) {
    GString *vars = g_string_new(NULL);
    plot_var(vars, "time_label", label);
    plot_array(vars, "series", (const char *const *)shown->pdata, shown->len);
    plot_array(vars, "files", (const char *const *)files->pdata, files->len);
    ok = plot_chart(c, "compare-busy", "compare-busy.gp", "GPU utilisation over time", vars, error);
    g_string_free(vars, TRUE);
  }
  for (guint i = 0; i < n; i++) plot_run_data_clear(&d[i]);
  g_free(d);
  g_ptr_array_free(shown, TRUE);
  g_ptr_array_free(files, TRUE);
  return ok;
}

/* A run's cost, or its cost per simulated day. */
static double plot_run_cost(const run_figures *f, gboolean per_day) {
  double cost = plot_fig(f, "cost", 1), days = plot_fig(f, "span_s", 1.0 / 86400);
  return per_day ? (days > 0 ? cost / days : NAN) : cost;
}

gboolean plot_compare(const run_figures *const *runs, const char *const *names, guint n,
                      const char *out_dir, const plot_options *opt, plot_report *rep,
                      GError **error) {
  g_return_val_if_fail(n > 0, FALSE);
  plot_ctx c = {.opt = opt, .rep = rep, .source = NULL};
  if (!plot_prepare_dir(&c, out_dir, error)) return plot_finish(&c, FALSE, error);
  GString *util = g_string_new("# run number, allocated %, busy %, SM-active %\n");
  GString *cost = g_string_new("# run number, busy $, allocated-not-busy $, not allocated $, saving $\n");
  GString *wait = g_string_new(NULL), *faults = g_string_new("# run number, OOM kills, innocent victims, crashes\n");
  double max_wait = 0;
  for (guint i = 0; i < n; i++) max_wait = MAX(max_wait, plot_fig(runs[i], "wait_p95_s", 1));
  double div = max_wait < 7200 ? 60 : max_wait < 3 * 86400 ? 3600 : 86400;
  const char *wait_label = div == 60 ? "queue wait (minutes)" : div == 3600 ? "queue wait (hours)"
                                                                             : "queue wait (days)";
  g_string_append(wait, "# run number, mean wait, p95 wait\n");
  /* runs of different lengths: costs per simulated day, and a note (issue 11 bug 8) */
  GString *span_note = g_string_new(NULL);
  gboolean per_day = figures_spans_differ(runs, names, n, span_note);
  if (per_day) {
    g_string_append(span_note, "; compare-cost shows cost per simulated day");
    plot_skip(&c, "compare", span_note->str);
  }
  g_string_free(span_note, TRUE);
  double base_cost = plot_run_cost(runs[0], per_day);
  for (guint i = 0; i < n; i++) {
    const run_figures *f = runs[i];
    double alloc = plot_fig(f, "allocated_frac", 1), busy = plot_fig(f, "busy_frac", 1);
    double total = plot_run_cost(f, per_day);
    g_string_append_printf(util, "%u ", i + 1);
    plot_num(util, alloc * 100);
    g_string_append_c(util, ' ');
    plot_num(util, busy * 100);
    g_string_append_c(util, ' ');
    plot_num(util, plot_fig(f, "sm_active_frac", 100));
    g_string_append_c(util, '\n');
    double a = isfinite(alloc) ? alloc : 0, b = isfinite(busy) ? MIN(busy, a) : 0;
    g_string_append_printf(cost, "%u ", i + 1);
    plot_num(cost, total * b);
    g_string_append_c(cost, ' ');
    plot_num(cost, total * (a - b));
    g_string_append_c(cost, ' ');
    plot_num(cost, total * (1 - a));
    g_string_append_c(cost, ' ');
    plot_num(cost, base_cost - total);
    g_string_append_c(cost, '\n');
    g_string_append_printf(wait, "%u ", i + 1);
    plot_num(wait, plot_fig(f, "wait_mean_s", 1.0 / div));
    g_string_append_c(wait, ' ');
    plot_num(wait, plot_fig(f, "wait_p95_s", 1.0 / div));
    g_string_append_c(wait, '\n');
    g_string_append_printf(faults, "%u ", i + 1);
    plot_num(faults, plot_fig(f, "oom_kills", 1));
    g_string_append_c(faults, ' ');
    plot_num(faults, plot_fig(f, "innocent_victims", 1));
    g_string_append_c(faults, ' ');
    plot_num(faults, plot_fig(f, "crashes", 1));
    g_string_append_c(faults, '\n');
  }
  GString *vars = g_string_new(NULL);
  gboolean ok = plot_bars(&c, "compare-utilisation", "compare-utilisation.gp",
                          "GPU utilisation per scenario", names, n, util, vars, error);
  g_string_truncate(vars, 0);
  ok = ok && plot_bars(&c, "compare-cost", "compare-cost.gp",
                       per_day ? "Cost per simulated day per scenario (the runs' spans differ)"
                               : "Cost per scenario",
                       names, n, cost, vars, error);
  g_string_truncate(vars, 0);
  plot_var(vars, "wait_label", wait_label);
  ok = ok && plot_bars(&c, "compare-wait", "compare-wait.gp", "Queue wait per scenario", names,
                       n, wait, vars, error);
  g_string_truncate(vars, 0);
  ok = ok && plot_bars(&c, "compare-faults", "compare-faults.gp",
                       "Out-of-memory kills and crashes per scenario", names, n, faults, vars,
                       error);
  g_string_free(vars, TRUE);
  g_string_free(util, TRUE);
  g_string_free(cost, TRUE);
  g_string_free(wait, TRUE);
  g_string_free(faults, TRUE);
  ok = ok && plot_compare_busy(&c, runs, names, n, error);
  return plot_finish(&c, ok, error);
}
