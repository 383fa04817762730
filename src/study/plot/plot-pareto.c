/* plot-pareto.c: the charts of a `sharesim plan -o DIR` folder: per class, its set-ups
 * simulated (probes.csv: every candidate at every size judged) as points and its Pareto
 * front (pareto.csv) as a line, monthly cost against the worst SLO attainment (pareto-slo) and
 * against the p95 queue wait (pareto-wait). One row of plot_pareto_charts per chart. */
#include "plot-chart.h"
#include "util.h"
#include <math.h>
#include <string.h>

#define PLOT_MAX_CLASSES 12

static const struct {
  const char *name, *front, *column, *ylabel, *title;
  double scale;
} plot_pareto_charts[] = {
  {"pareto-slo", "slo", "min_slo_attainment", "worst SLO attainment (%)",
   "plan: cost against worst SLO attainment (up and left is better)", 100},
  {"pareto-wait", "wait", "wait_p95_s", "queue wait p95 (minutes)",
   "plan: cost against queue wait p95 (down and left is better)", 1.0 / 60},
};

/* The points of class cls in t (rows whose front column is front, or every row that served
 * all its jobs when front is NULL) with a finite cost and y, one "cost y" line each; how many. */
static guint plot_pareto_block(const table *t, const char *cls, const char *front,
                               const char *column, double scale, GString *data) {
  int c_cls = table_column(t, "class"), c_cost = table_column(t, "cost_month"),
      c_y = table_column(t, column), c_front = table_column(t, "front"),
      c_served = table_column(t, "served");
  guint n = 0;
  for (guint r = 0; c_cls >= 0 && c_cost >= 0 && c_y >= 0 && r < t->rows->len; r++) {
    if (strcmp(table_cell(t, r, c_cls), cls)) continue;
    if (front && (c_front < 0 || strcmp(table_cell(t, r, c_front), front))) continue;
    if (!front && c_served >= 0 && table_number(t, r, c_served) != 1) continue;
    double x = table_number(t, r, c_cost), y = table_number(t, r, c_y);
    if (!isfinite(x) || !isfinite(y)) continue;
    plot_num(data, x);
    g_string_append_c(data, ' ');
    plot_num(data, y * scale);
    g_string_append_c(data, '\n');
    n++;
  }
  return n;
}

/* Chart k: per class with a front, two blocks (its front, then all its points). */
static gboolean plot_pareto_chart(const plot_ctx *c, guint k, const table *all,
                                  const table *front, GError **error) {
  GPtrArray *series = g_ptr_array_new_with_free_func(g_free);
  GString *data = g_string_new("# per class: its front (cost $/month, y), then all its points\n");
  int c_cls = table_column(all, "class");
  for (guint r = 0; c_cls >= 0 && r < all->rows->len && series->len < PLOT_MAX_CLASSES; r++) {
    const char *cls = table_cell(all, r, c_cls);
    gboolean seen = FALSE;
    for (guint s = 0; s < series->len && !seen; s++) seen = !strcmp(g_ptr_array_index(series, s), cls);
    if (seen) continue;
    g_autoptr(GString) block = g_string_new(NULL);
    if (!plot_pareto_block(front, cls, plot_pareto_charts[k].front, plot_pareto_charts[k].column,
                           plot_pareto_charts[k].scale, block))
      continue;
    g_string_append(block, "\n\n");
    plot_pareto_block(all, cls, NULL, plot_pareto_charts[k].column, plot_pareto_charts[k].scale, block);
    g_string_append_printf(data, "%s%s", series->len ? "\n\n" : "", block->str);
    g_ptr_array_add(series, g_strdup(cls));
  }
  gboolean ok = TRUE;
  if (!series->len) {
    plot_skip(c, plot_pareto_charts[k].name, "pareto.csv has no front of this figure");
  } else {
    g_autofree char *dat = g_strdup_printf("%s.dat", plot_pareto_charts[k].name);
    GString *vars = g_string_new(NULL);
    plot_array(vars, "series", (const char *const *)series->pdata, series->len);
    plot_var(vars, "ylabel_text", plot_pareto_charts[k].ylabel);
    ok = plot_write(c, dat, data, error) &&
         plot_chart(c, plot_pareto_charts[k].name, "pareto.gp", plot_pareto_charts[k].title, vars,
                    error);
    g_string_free(vars, TRUE);
  }
  g_string_free(data, TRUE);
  g_ptr_array_free(series, TRUE);
  return ok;
}

gboolean plot_plan(const char *dir, const char *out_dir, const plot_options *opt,
                   plot_report *rep, GError **error) {
  g_autofree char *pp = g_build_filename(dir, "probes.csv", NULL);
  g_autofree char *pf = g_build_filename(dir, "pareto.csv", NULL);
  g_autoptr(table) all = table_load(pp, error);
  if (!all) return FALSE;
  g_autoptr(table) front = table_load(pf, error);
  if (!front) return FALSE;
  plot_ctx c = {.opt = opt, .rep = rep, .source = dir};
  if (!plot_prepare_dir(&c, out_dir, error)) return plot_finish(&c, FALSE, error);
  gboolean ok = TRUE;
  for (guint k = 0; ok && k < G_N_ELEMENTS(plot_pareto_charts); k++)
    ok = plot_pareto_chart(&c, k, all, front, error);
  return plot_finish(&c, ok, error);
}
