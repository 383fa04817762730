/* plot-wait.c: the wait chart of a result folder: the distribution of queue waits of
 * the jobs that started (jobs.csv, read as a stream), per kind. */
#include "plot-chart.h"
#include "util.h"
#include <math.h>
#include <string.h>

/* Wait distribution: jobs.csv streamed (it may have a million rows). */
typedef struct plot_wait_acc {
  int c_pool, c_start, c_wait;
  GPtrArray *names;   /* char*, owned, pool order of first appearance (after pools.csv) */
  GPtrArray *waits;   /* GArray of double per pool */
} plot_wait_acc;

static gboolean plot_wait_row(const char *const *cells, guint n, gpointer user) {
  plot_wait_acc *a = user;
  if ((guint)a->c_pool >= n || (guint)a->c_start >= n || (guint)a->c_wait >= n) return TRUE;
  double start, wait;
  if (!*cells[a->c_start] || !util_parse_double(cells[a->c_start], &start)) return TRUE;
  if (!util_parse_double(cells[a->c_wait], &wait) || !isfinite(wait) || wait < 0) return TRUE;
  g_autofree char *pool = figures_clean_text(cells[a->c_pool]);
  guint i;
  for (i = 0; i < a->names->len; i++)
    if (!strcmp(g_ptr_array_index(a->names, i), pool)) break;
  if (i == a->names->len) {
    if (a->names->len >= 256) return TRUE; /* a hand-made file with endless pools */
    g_ptr_array_add(a->names, g_strdup(pool));
    g_ptr_array_add(a->waits, g_array_new(FALSE, FALSE, sizeof(double)));
  }
  g_array_append_val((GArray *)g_ptr_array_index(a->waits, i), wait);
  return TRUE;
}

static gint plot_cmp_double(gconstpointer a, gconstpointer b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static gboolean plot_wait(const plot_ctx *c, const char *run_dir, plot_run_data *d,
                          const char *scenario, GError **error) {
  g_autofree char *path = g_build_filename(run_dir, "jobs.csv", NULL);
  plot_wait_acc a = {-1, -1, -1, g_ptr_array_new_with_free_func(g_free),
                     g_ptr_array_new_with_free_func((GDestroyNotify)g_array_unref)};
  for (guint i = 0; i < d->pools->len; i++) {
    g_ptr_array_add(a.names, g_strdup(g_array_index(d->pools, plot_pool, i).name));
    g_ptr_array_add(a.waits, g_array_new(FALSE, FALSE, sizeof(double)));
  }
  char **header = NULL;
  gboolean ok = TRUE;
  /* first pass: the header only (the callback needs the column numbers) */
  if (table_foreach(path, &header, NULL, NULL, NULL)) {
    for (guint i = 0; header[i]; i++) {
      if (!strcmp(header[i], "pool")) a.c_pool = (int)i;
      if (!strcmp(header[i], "start_s")) a.c_start = (int)i;
      if (!strcmp(header[i], "wait_s")) a.c_wait = (int)i;
    }
    g_strfreev(header);
    if (a.c_pool >= 0 && a.c_start >= 0 && a.c_wait >= 0)
      table_foreach(path, NULL, plot_wait_row, &a, NULL);
  }
  double max_wait = 0;
  GPtrArray *names = g_ptr_array_new(), *files = g_ptr_array_new_with_free_func(g_free);
  for (guint i = 0; i < a.names->len; i++) {
    GArray *w = g_ptr_array_index(a.waits, i);
    if (w->len == 0) continue;
    g_array_sort(w, plot_cmp_double);
    max_wait = MAX(max_wait, g_array_index(w, double, w->len - 1));
  }
  double div = max_wait < 7200 ? 60 : max_wait < 3 * 86400 ? 3600 : 86400;
  const char *label = div == 60 ? "queue wait (minutes)" : div == 3600 ? "queue wait (hours)"
                                                                        : "queue wait (days)";
  for (guint i = 0; ok && i < a.names->len; i++) {
    GArray *w = g_ptr_array_index(a.waits, i);
    if (w->len == 0) continue;
    g_autofree char *file = g_strdup_printf("wait-%u.dat", names->len + 1);
    GString *data = g_string_new("# queue wait, share of started jobs that waited at most that long (%)\n");
    guint m = MIN(w->len, PLOT_MAX_CDF_POINTS);
    for (guint k = 0; k < m; k++) {
      guint idx = m == 1 ? w->len - 1 : (guint)llround((double)k * (w->len - 1) / (m - 1));
      plot_num(data, g_array_index(w, double, idx) / div);
      g_string_append_c(data, ' ');
      plot_num(data, 100.0 * (idx + 1) / w->len);
      g_string_append_c(data, '\n');
    }
    ok = plot_write(c, file, data, error);
    g_string_free(data, TRUE);
    g_ptr_array_add(names, g_ptr_array_index(a.names, i));
    g_ptr_array_add(files, g_steal_pointer(&file));
  }
  if (ok && names->len == 0) {
    plot_skip(c, "wait", "no job started (or no jobs.csv)");
  } else if (ok) {
    GString *vars = g_string_new(NULL);
    plot_var(vars, "wait_label", label);
    plot_array(vars, "series", (const char *const *)names->pdata, names->len);
    plot_array(vars, "files", (const char *const *)files->pdata, files->len);
    g_autofree char *title = g_strdup_printf("Queue wait: %s", scenario);
    ok = plot_chart(c, "wait", "wait.gp", title, vars, error);
    g_string_free(vars, TRUE);
  }
  g_ptr_array_free(names, TRUE);
  g_ptr_array_free(files, TRUE);
  g_ptr_array_free(a.names, TRUE);
  g_ptr_array_free(a.waits, TRUE);
  return ok;
}

const plot_run_chart plot_chart_wait = {"wait", FALSE, plot_wait};
