/* plot-cost.c: the cost chart of a result folder: each pool's cost split into busy,
 * allocated-but-idle and unallocated GPU time (pools.csv). */
#include "plot-chart.h"
#include <math.h>

static gboolean plot_cost(const plot_ctx *c, const plot_run_data *d, const char *scenario,
                          GError **error) {
  GString *data = g_string_new("# pool number, busy $, allocated-not-busy $, not allocated $\n");
  GPtrArray *names = g_ptr_array_new();
  for (guint i = 0; i < d->pools->len; i++) {
    const plot_pool *p = &g_array_index(d->pools, plot_pool, i);
    if (!isfinite(p->cost)) continue;
    double alloc = isfinite(p->allocated_frac) ? p->allocated_frac : 0;
    double busy = isfinite(p->busy_frac) ? MIN(p->busy_frac, alloc) : 0;
    g_ptr_array_add(names, p->name);
    g_string_append_printf(data, "%u ", names->len);
    plot_num(data, p->cost * busy);
    g_string_append_c(data, ' ');
    plot_num(data, p->cost * (alloc - busy));
    g_string_append_c(data, ' ');
    plot_num(data, p->cost * (1 - alloc));
    g_string_append_c(data, '\n');
  }
  gboolean ok = TRUE;
  if (names->len == 0) {
    plot_skip(c, "cost", "pools.csv has no costs");
  } else {
    GString *vars = g_string_new(NULL);
    plot_array(vars, "series", (const char *const *)names->pdata, names->len);
    g_autofree char *title = g_strdup_printf("Cost per pool: %s", scenario);
    ok = plot_write(c, "cost.dat", data, error) &&
         plot_chart(c, "cost", "cost.gp", title, vars, error);
    g_string_free(vars, TRUE);
  }
  g_ptr_array_free(names, TRUE);
  g_string_free(data, TRUE);
  return ok;
}

static gboolean plot_cost_draw(const plot_ctx *c, const char *run_dir, plot_run_data *d,
                               const char *scenario, GError **error) {
  (void)run_dir;
  return plot_cost(c, d, scenario, error);
}

const plot_run_chart plot_chart_cost = {"cost", FALSE, plot_cost_draw};
