/* plot-sweep.c: the charts of a sweep folder: each headline figure of the finished
 * points across the swept value (lines, or bars per point when the first key's values are
 * not all numbers). */
#include "plot-chart.h"
#include "util.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- sweeps ---- */

static const struct {
  const char *name, *key, *ylabel;
  double scale;
} plot_sweep_figures[] = {
  {"sweep-allocated", "allocated_frac", "allocated share of the GPUs (%)", 100},
  {"sweep-busy", "busy_frac", "busy share of the GPUs (%)", 100},
  {"sweep-cost", "cost", "cost ($)", 1},
  {"sweep-wait", "wait_p95_s", "queue wait p95 (hours)", 1.0 / 3600},
  {"sweep-oom", "oom_kills", "OOM kills", 1},
  {"sweep-slo", "services:min_attainment", "lowest SLO attainment of a service (%)", 100},
};

gboolean plot_sweep(const sweep_spec *s, const char *sweep_dir, const char *out_dir,
                    const plot_options *opt, plot_report *rep, GError **error) {
  const sweep_grid *g = s->grid;
  GPtrArray *runs = g_ptr_array_new_with_free_func((GDestroyNotify)figures_free);
  for (guint p = 0; p < g->n_points; p++) {
    const char *name = g_ptr_array_index(s->names, p);
    run_figures *f = sweep_point_done(sweep_dir, name) ? sweep_point_load(sweep_dir, name, NULL, NULL)
                                                       : NULL;
    g_ptr_array_add(runs, f);
  }
  plot_ctx c = {.opt = opt, .rep = rep, .source = sweep_dir};
  gboolean ok = TRUE;
  /* x: the first key, when all its values are numbers */
  gboolean numeric = g->keys->len > 0;
  GPtrArray *xv = g->keys->len ? g_ptr_array_index(g->values, 0) : NULL;
  for (guint v = 0; numeric && v < xv->len; v++) {
    double x;
    numeric = util_parse_double(g_ptr_array_index(xv, v), &x);
  }
  guint done = 0;
  for (guint p = 0; p < runs->len; p++) done += g_ptr_array_index(runs, p) != NULL;
  /* bars per point are plot_compare's folder; lines and the "nothing" note are ours */
  if (done == 0 || numeric) ok = plot_prepare_dir(&c, out_dir, error);
  if (ok && done == 0) {
    plot_skip(&c, "sweep", "no finished point");
  } else if (ok && !numeric) {
    /* bars per finished point */
    GPtrArray *fs = g_ptr_array_new(), *names = g_ptr_array_new();
    for (guint p = 0; p < runs->len; p++)
      if (g_ptr_array_index(runs, p)) {
        g_ptr_array_add(fs, g_ptr_array_index(runs, p));
        g_ptr_array_add(names, g_ptr_array_index(s->names, p));
      }
    ok = plot_compare((const run_figures *const *)fs->pdata, (const char *const *)names->pdata,
                      fs->len, out_dir, opt, rep, error);
    g_ptr_array_free(fs, TRUE);
    g_ptr_array_free(names, TRUE);
  } else if (ok) {
    guint stride = g->n_points / xv->len; /* points per value of the first key */
    for (guint k = 0; ok && k < G_N_ELEMENTS(plot_sweep_figures); k++) {
      GPtrArray *series = g_ptr_array_new_with_free_func(g_free);
      GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
      for (guint grp = 0; ok && grp < stride; grp++) {
        GString *data = g_string_new(NULL);
        g_string_append_printf(data, "# %s, %s\n", "swept value", plot_sweep_figures[k].key);
        guint rows = 0;
        for (guint v = 0; v < xv->len; v++) {
          const run_figures *f = g_ptr_array_index(runs, v * stride + grp);
          double y = f ? plot_fig(f, plot_sweep_figures[k].key, plot_sweep_figures[k].scale) : NAN;
          if (isnan(y)) continue;
          double x;
          util_parse_double(g_ptr_array_index(xv, v), &x);
          plot_num(data, x);
          g_string_append_c(data, ' ');
          plot_num(data, y);
          g_string_append_c(data, '\n');
          rows++;
        }
        if (rows) {
          g_autofree char *file = g_strdup_printf("%s-%u.dat", plot_sweep_figures[k].name, grp + 1);
          ok = plot_write(&c, file, data, error);
          GString *label = g_string_new(NULL);
          for (guint key = 1; key < g->keys->len; key++) {
            const char *full = g_ptr_array_index(g->keys, key);
            const char *dot = strrchr(full, '.');
            g_string_append_printf(label, "%s%s=%s", key > 1 ? ", " : "", dot ? dot + 1 : full,
                                   sweep_grid_value(g, key, grp));
          }
          if (!label->len) g_string_append(label, plot_sweep_figures[k].ylabel);
          g_ptr_array_add(series, g_string_free(label, FALSE));
          g_ptr_array_add(files, g_steal_pointer(&file));
        }
        g_string_free(data, TRUE);
      }
      if (ok && series->len) {
        GString *vars = g_string_new(NULL);
        plot_var(vars, "xlabel_text", g_ptr_array_index(g->keys, 0));
        plot_var(vars, "ylabel_text", plot_sweep_figures[k].ylabel);
        plot_array(vars, "series", (const char *const *)series->pdata, series->len);
        plot_array(vars, "files", (const char *const *)files->pdata, files->len);
        g_autofree char *title = g_strdup_printf("%s across %s", plot_sweep_figures[k].ylabel,
                                                 (const char *)g_ptr_array_index(g->keys, 0));
        ok = plot_chart(&c, plot_sweep_figures[k].name, "sweep.gp", title, vars, error);
        g_string_free(vars, TRUE);
      } else if (ok && k + 1 == G_N_ELEMENTS(plot_sweep_figures)) {
        plot_skip(&c, plot_sweep_figures[k].name, "no point reports SLO attainment");
      }
      g_ptr_array_free(series, TRUE);
      g_ptr_array_free(files, TRUE);
    }
  }
  g_ptr_array_free(runs, TRUE);
  return plot_finish(&c, ok, error);
}
