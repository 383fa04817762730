/* plot-validate.c: the chart of a `sharesim validate -o DIR` folder: each pair set of
 * validate-scatter.csv (e.g. Lucid's co-located jobs) as predicted against measured
 * points, one colour per set, beside the line predicted = measured. */
#include "plot-chart.h"
#include "util.h"
#include <math.h>
#include <string.h>

#define PLOT_MAX_VALIDATE_SETS 12

/* The sets in order of first appearance (at most PLOT_MAX_VALIDATE_SETS), and one data
 * row per finite point: set number, measured, predicted. */
static guint plot_validate_rows(const table *t, GPtrArray *sets, GString *data) {
  int c_set = table_column(t, "set"), c_m = table_column(t, "measured"),
      c_p = table_column(t, "predicted");
  guint points = 0;
  for (guint r = 0; c_set >= 0 && c_m >= 0 && c_p >= 0 && r < t->rows->len; r++) {
    double m = table_number(t, r, c_m), p = table_number(t, r, c_p);
    if (!isfinite(m) || !isfinite(p)) continue;
    g_autofree char *name = figures_clean_text(table_cell(t, r, c_set));
    guint k = 0;
    while (k < sets->len && strcmp(g_ptr_array_index(sets, k), name)) k++;
    if (k == sets->len) {
      if (sets->len == PLOT_MAX_VALIDATE_SETS) continue;
      g_ptr_array_add(sets, g_strdup(name));
    }
    g_string_append_printf(data, "%u ", k + 1);
    plot_num(data, m);
    g_string_append_c(data, ' ');
    plot_num(data, p);
    g_string_append_c(data, '\n');
    points++;
  }
  return points;
}

gboolean plot_validate(const char *dir, const char *out_dir, const plot_options *opt,
                       plot_report *rep, GError **error) {
  plot_ctx c = {.opt = opt, .rep = rep, .source = dir};
  if (!plot_prepare_dir(&c, out_dir, error)) return plot_finish(&c, FALSE, error);
  g_autofree char *path = g_build_filename(dir, "validate-scatter.csv", NULL);
  g_autoptr(table) t = table_load(path, NULL);
  GPtrArray *sets = g_ptr_array_new_with_free_func(g_free);
  GString *data = g_string_new("# set number, measured, predicted\n");
  gboolean ok = TRUE;
  if (!t || plot_validate_rows(t, sets, data) == 0) {
    plot_skip(&c, "validate-scatter", "validate-scatter.csv has no finite points");
  } else {
    GString *vars = g_string_new(NULL);
    plot_array(vars, "series", (const char *const *)sets->pdata, sets->len);
    ok = plot_write(&c, "validate-scatter.dat", data, error) &&
         plot_chart(&c, "validate-scatter", "validate-scatter.gp",
                    "sharesim validate: predicted against measured", vars, error);
    g_string_free(vars, TRUE);
  }
  g_string_free(data, TRUE);
  g_ptr_array_free(sets, TRUE);
  return plot_finish(&c, ok, error);
}
