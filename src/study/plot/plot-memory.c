/* plot-memory.c: the memory chart of a result folder: GPU memory in use per pool over
 * time (timeseries.csv) against the pool's capacity (its GPUs times the model's memory). */
#include "plot-chart.h"
#include <math.h>

static gboolean plot_memory(const plot_ctx *c, const plot_run_data *d, const char *scenario,
                            GError **error) {
  guint np = d->pools->len;
  plot_grid *g = plot_grid_new(2 * np, plot_bucket(d));
  plot_ts_add(d, g, "mem_used_gb", TRUE, 2, 0);
  /* capacity: a constant column per pool, added on the same buckets */
  for (guint k = 0; k < g->keys->len; k++) {
    double t = (double)g_array_index(g->keys, gint64, k) * g->bucket_s;
    for (guint i = 0; i < np; i++) {
      const plot_pool *p = &g_array_index(d->pools, plot_pool, i);
      plot_grid_add(g, t, 2 * i + 1, p->gpus * plot_model_mem_gb(p->model), 1);
    }
  }
  GString *data = g_string_new("# time, then per pool: memory in use (GB), capacity (GB)\n");
  guint rows = plot_grid_write(g, data, d->epoch, d->time_div, NULL);
  plot_grid_free(g);
  gboolean ok = TRUE;
  if (rows == 0) {
    plot_skip(c, "memory", "timeseries.csv has no mem_used_gb rows");
  } else {
    GString *vars = g_string_new(NULL);
    plot_time_vars(vars, d);
    GPtrArray *names = plot_pool_names(d);
    plot_array(vars, "series", (const char *const *)names->pdata, np);
    g_ptr_array_free(names, TRUE);
    g_autofree char *title = g_strdup_printf("GPU memory in use: %s", scenario);
    ok = plot_write(c, "memory.dat", data, error) &&
         plot_chart(c, "memory", "memory.gp", title, vars, error);
    g_string_free(vars, TRUE);
  }
  g_string_free(data, TRUE);
  return ok;
}

static gboolean plot_memory_draw(const plot_ctx *c, const char *run_dir, plot_run_data *d,
                                 const char *scenario, GError **error) {
  (void)run_dir;
  return plot_memory(c, d, scenario, error);
}

const plot_run_chart plot_chart_memory = {"memory", TRUE, plot_memory_draw};
