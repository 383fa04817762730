/* plot-queue.c: the queue chart of a result folder: the jobs waiting in each pool's queue
 * over time (timeseries.csv's queued column). */
#include "plot-chart.h"

static gboolean plot_queue_draw(const plot_ctx *c, const char *run_dir, plot_run_data *d,
                                const char *scenario, GError **error) {
  (void)run_dir;
  GString *vars = g_string_new(NULL);
  g_autofree char *title = g_strdup_printf("Queued jobs: %s", scenario);
  gboolean ok = plot_per_pool_series(c, d, "queue", "queue.gp", "queued", 1, title, vars, error);
  g_string_free(vars, TRUE);
  return ok;
}

const plot_run_chart plot_chart_queue = {"queue", TRUE, plot_queue_draw};
