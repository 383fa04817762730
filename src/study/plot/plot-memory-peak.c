/* plot-memory-peak.c: the memory-peak chart of a result folder: each GPU's peak memory
 * (gpus.csv) against the memory of its pool's GPU model. */
#include "plot-chart.h"
#include <math.h>

static gboolean plot_memory_peak(const plot_ctx *c, const char *run_dir, plot_run_data *d,
                                 const char *scenario, GError **error) {
  g_autofree char *path = g_build_filename(run_dir, "gpus.csv", NULL);
  g_autoptr(table) t = table_load(path, NULL);
  int c_pool = t ? table_column(t, "pool") : -1, c_peak = t ? table_column(t, "peak_mem_gb") : -1;
  if (!t || c_pool < 0 || c_peak < 0 || t->rows->len == 0) {
    plot_skip(c, "memory-peak", "no gpus.csv with pool and peak_mem_gb");
    return TRUE;
  }
  GString *data = g_string_new("# GPU number, peak memory (GB), pool number, memory of one GPU (GB)\n");
  for (guint r = 0; r < t->rows->len; r++) {
    g_autofree char *name = figures_clean_text(table_cell(t, r, c_pool));
    int p = plot_pool_index(d->pools, name, TRUE);
    g_string_append_printf(data, "%u ", r + 1);
    plot_num(data, table_number(t, r, c_peak));
    g_string_append_printf(data, " %d ", p + 1);
    plot_num(data, plot_model_mem_gb(g_array_index(d->pools, plot_pool, p).model));
    g_string_append_c(data, '\n');
  }
  GString *vars = g_string_new(NULL);
  GPtrArray *names = plot_pool_names(d);
  plot_array(vars, "series", (const char *const *)names->pdata, names->len);
  g_ptr_array_free(names, TRUE);
  g_autofree char *title = g_strdup_printf("Peak GPU memory per GPU: %s", scenario);
  gboolean ok = plot_write(c, "memory-peak.dat", data, error) &&
                plot_chart(c, "memory-peak", "memory-peak.gp", title, vars, error);
  g_string_free(vars, TRUE);
  g_string_free(data, TRUE);
  return ok;
}

const plot_run_chart plot_chart_memory_peak = {"memory-peak", FALSE, plot_memory_peak};
