/* plot-slo.c: the slo chart of a result folder: SLO attainment per pool over time, from
 * the timeseries column the inference model writes for pools that host services. */
#include "plot-chart.h"
#include <math.h>
#include <string.h>

/* "2 4": the data columns (1 + pool number) of the pools that host inference services (in
 * c->source's services.csv; when there is none, the pools whose column is ever non-zero),
 * and their names into names. */
static char *plot_slo_columns(const plot_ctx *c, const plot_run_data *d, int col, GPtrArray *names) {
  g_autofree char *sp = c->source ? g_build_filename(c->source, "services.csv", NULL) : NULL;
  g_autoptr(table) svc = sp ? table_load(sp, NULL) : NULL;
  int sc = svc ? table_column(svc, "pool") : -1;
  int tp = table_column(d->ts, "pool");
  GString *cols = g_string_new(NULL);
  for (guint i = 0; i < d->pools->len; i++) {
    const char *name = g_array_index(d->pools, plot_pool, i).name;
    gboolean shown = FALSE;
    for (guint r = 0; sc >= 0 && r < svc->rows->len && !shown; r++)
      shown = !strcmp(table_cell(svc, r, sc), name);
    for (guint r = 0; sc < 0 && r < d->ts->rows->len && !shown; r++)
      shown = !strcmp(table_cell(d->ts, r, tp), name) && table_number(d->ts, r, col) != 0;
    if (!shown) continue;
    g_string_append_printf(cols, "%s%u", cols->len ? " " : "", i + 2);
    g_ptr_array_add(names, figures_clean_text(name));
  }
  return g_string_free(cols, FALSE);
}

/* SLO over time, when timeseries.csv has a column for it (the inference model's), for the
 * pools that host services. */
static gboolean plot_slo(const plot_ctx *c, const plot_run_data *d, const char *scenario,
                         GError **error) {
  int col = d->ts ? table_column_containing(d->ts, "attain") : -1;
  gboolean attainment = col >= 0;
  if (col < 0 && d->ts) col = table_column_containing(d->ts, "slo");
  if (col < 0 && d->ts) col = table_column_containing(d->ts, "violation");
  if (col < 0) {
    plot_skip(c, "slo", "timeseries.csv has no SLO column (no inference SLO data)");
    return TRUE;
  }
  const char *column = d->ts->header[col];
  g_autoptr(GPtrArray) shown = g_ptr_array_new_with_free_func(g_free);
  g_autofree char *colnums = plot_slo_columns(c, d, col, shown);
  if (shown->len == 0) {
    plot_skip(c, "slo", "no pool hosts an inference service");
    return TRUE;
  }
  double scale = 1;
  g_autofree char *ylabel = NULL;
  if (attainment) {
    /* attainment as a share (0..1) is drawn in %, a percentage as it is */
    gboolean share = TRUE;
    for (guint r = 0; r < d->ts->rows->len; r++)
      if (table_number(d->ts, r, col) > 1) share = FALSE;
    scale = share && !strstr(column, "pct") ? 100 : 1;
    ylabel = g_strdup("requests within the SLO (%)");
  } else {
    ylabel = g_strdup("requests over their SLO, by arrival interval");
  }
  GString *vars = g_string_new(NULL);
  plot_var(vars, "ylabel_text", ylabel);
  plot_var(vars, "colnums", colnums);
  plot_array(vars, "shown", (const char *const *)shown->pdata, shown->len);
  g_autofree char *title = g_strdup_printf("Inference SLO over time: %s", scenario);
  gboolean ok = plot_per_pool_series(c, d, "slo", "slo.gp", column, scale, title, vars, error);
  g_string_free(vars, TRUE);
  return ok;
}

static gboolean plot_slo_draw(const plot_ctx *c, const char *run_dir, plot_run_data *d,
                              const char *scenario, GError **error) {
  (void)run_dir;
  return plot_slo(c, d, scenario, error);
}

const plot_run_chart plot_chart_slo = {"slo", TRUE, plot_slo_draw};
