/* plot-showback.c: the showback chart of a result folder: each tenant's cost (tenants.csv),
 * the largest tenants first, and the capacity no tenant was charged for (pools.csv's cost
 * less the tenants'), so that the bars add up to what the set-up cost. */
#include "plot-chart.h"
#include <math.h>
#include <string.h>

typedef struct plot_tenant {
  char *name;
  double cost;
} plot_tenant;

static gint plot_cmp_tenant(gconstpointer a, gconstpointer b) {
  const plot_tenant *x = a, *y = b;
  if (x->cost != y->cost) return x->cost > y->cost ? -1 : 1;
  return strcmp(x->name, y->name);
}

/* The cost of the GPUs no tenant was charged for: pools.csv's cost less the tenants' sum
 * (0 when pools.csv is unreadable or the tenants account for it all). */
static double plot_idle_cost(const char *run_dir, double tenants) {
  g_autofree char *path = g_build_filename(run_dir, "pools.csv", NULL);
  g_autoptr(table) t = table_load(path, NULL);
  int cc = t ? table_column(t, "cost") : -1;
  double total = 0;
  for (guint r = 0; cc >= 0 && r < t->rows->len; r++) {
    double v = table_number(t, r, cc);
    if (isfinite(v)) total += v;
  }
  return total - tenants > 1e-9 * MAX(total, 1.0) ? total - tenants : 0;
}

static gboolean plot_showback(const plot_ctx *c, const char *run_dir, const char *scenario,
                              GError **error) {
  g_autofree char *path = g_build_filename(run_dir, "tenants.csv", NULL);
  g_autoptr(table) t = table_load(path, NULL);
  int c_name = t ? table_column(t, "tenant") : -1, c_cost = t ? table_column(t, "cost") : -1;
  if (!t || c_name < 0 || c_cost < 0 || t->rows->len == 0) {
    plot_skip(c, "showback", "no tenants.csv with tenant and cost");
    return TRUE;
  }
  GArray *tenants = g_array_new(FALSE, FALSE, sizeof(plot_tenant));
  for (guint r = 0; r < t->rows->len; r++) {
    double v = table_number(t, r, c_cost);
    if (!isfinite(v)) continue;
    plot_tenant pt = {(char *)table_cell(t, r, c_name), v};
    g_array_append_val(tenants, pt);
  }
  g_array_sort(tenants, plot_cmp_tenant);
  GString *data = g_string_new("# bar number, showback cost ($), 1 tenant / 2 idle\n");
  GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
  double other = 0, charged = 0;
  guint n_other = 0;
  for (guint i = 0; i < tenants->len; i++) {
    const plot_tenant *pt = &g_array_index(tenants, plot_tenant, i);
    charged += pt->cost;
    if (i >= PLOT_MAX_TENANTS - 1 && tenants->len > PLOT_MAX_TENANTS) {
      other += pt->cost;
      n_other++;
      continue;
    }
    g_ptr_array_add(names, g_strdup(pt->name));
    g_string_append_printf(data, "%u ", names->len);
    plot_num(data, pt->cost);
    g_string_append(data, " 1\n");
  }
  if (n_other) {
    g_ptr_array_add(names, g_strdup_printf("%u other tenants", n_other));
    g_string_append_printf(data, "%u ", names->len);
    plot_num(data, other);
    g_string_append(data, " 1\n");
  }
  double idle = names->len ? plot_idle_cost(run_dir, charged) : 0;
  if (idle > 0) {
    g_ptr_array_add(names, g_strdup("idle (no tenant)"));
    g_string_append_printf(data, "%u ", names->len);
    plot_num(data, idle);
    g_string_append(data, " 2\n");
  }
  gboolean ok = TRUE;
  if (names->len == 0) {
    plot_skip(c, "showback", "tenants.csv has no costs");
  } else {
    GString *vars = g_string_new(NULL);
    plot_array(vars, "series", (const char *const *)names->pdata, names->len);
    g_autofree char *title = g_strdup_printf("Showback per tenant: %s", scenario);
    ok = plot_write(c, "showback.dat", data, error) &&
         plot_chart(c, "showback", "showback.gp", title, vars, error);
    g_string_free(vars, TRUE);
  }
  g_ptr_array_free(names, TRUE);
  g_string_free(data, TRUE);
  g_array_free(tenants, TRUE);
  return ok;
}

static gboolean plot_showback_draw(const plot_ctx *c, const char *run_dir, plot_run_data *d,
                                   const char *scenario, GError **error) {
  (void)d;
  return plot_showback(c, run_dir, scenario, error);
}

const plot_run_chart plot_chart_showback = {"showback", FALSE, plot_showback_draw};
