/* plot-utilisation.c: the utilisation chart of a result folder (allocated, busy and
 * SM-active share of the GPUs over time, from timeseries.csv), for the whole cluster and,
 * when there are several pools, one per pool (utilisation-POOL). */
#include "plot-chart.h"
#include "util.h"
#include <math.h>
#include <string.h>

static gboolean plot_utilisation(const plot_ctx *c, const plot_run_data *d, const char *scenario,
                                 int pool, const char *name, GError **error) {
  plot_grid *g = plot_grid_new(3, plot_bucket(d));
  static const char *const cols[] = {"allocated", "busy", "sm_active"};
  for (guint k = 0; k < 3; k++) {
    if (pool < 0) {
      plot_ts_add(d, g, cols[k], FALSE, 0, k);
      continue;
    }
    /* one pool: its rows only */
    int ci = table_column(d->ts, cols[k]);
    int c_pool = table_column(d->ts, "pool"), c_t0 = table_column(d->ts, "t_start_s"),
        c_t1 = table_column(d->ts, "t_end_s");
    const char *want = g_array_index(d->pools, plot_pool, pool).name;
    for (guint r = 0; ci >= 0 && r < d->ts->rows->len; r++) {
      g_autofree char *pn = figures_clean_text(table_cell(d->ts, r, c_pool));
      if (strcmp(pn, want)) continue;
      double t0 = table_number(d->ts, r, c_t0), t1 = table_number(d->ts, r, c_t1);
      plot_grid_add(g, t0, k, table_number(d->ts, r, ci), t1 > t0 ? t1 - t0 : 1);
    }
  }
  GString *data = g_string_new("# time, allocated %, busy %, SM-active %\n");
  const double scale[] = {100, 100, 100};
  guint rows = plot_grid_write(g, data, d->epoch, d->time_div, scale);
  plot_grid_free(g);
  gboolean ok = TRUE;
  g_autofree char *title = pool < 0
      ? g_strdup_printf("GPU utilisation: %s", scenario)
      : g_strdup_printf("GPU utilisation of pool %s: %s",
                        g_array_index(d->pools, plot_pool, pool).name, scenario);
  if (rows == 0) {
    plot_skip(c, name, "timeseries.csv has no utilisation rows");
  } else {
    g_autofree char *dat = g_strdup_printf("%s.dat", name);
    GString *vars = g_string_new(NULL);
    plot_time_vars(vars, d);
    ok = plot_write(c, dat, data, error) &&
         plot_chart(c, name, "utilisation.gp", title, vars, error);
    g_string_free(vars, TRUE);
  }
  g_string_free(data, TRUE);
  return ok;
}

/* A file-name part from a pool name (pool names are safe in scenarios, but a result
 * folder may have been edited). */
static char *plot_file_part(const char *name, guint index) {
  if (util_name_is_safe(name)) return g_strdup(name);
  return g_strdup_printf("pool%u", index + 1);
}

static gboolean plot_utilisation_draw(const plot_ctx *c, const char *run_dir, plot_run_data *d,
                                      const char *scenario, GError **error) {
  (void)run_dir;
  gboolean ok = plot_utilisation(c, d, scenario, -1, "utilisation", error);
  for (guint i = 0; ok && d->pools->len > 1 && i < d->pools->len; i++) {
    g_autofree char *part = plot_file_part(g_array_index(d->pools, plot_pool, i).name, i);
    g_autofree char *name = g_strdup_printf("utilisation-%s", part);
    ok = plot_utilisation(c, d, scenario, (int)i, name, error);
  }
  return ok;
}

const plot_run_chart plot_chart_utilisation = {"utilisation", TRUE, plot_utilisation_draw};
