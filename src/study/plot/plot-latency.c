/* plot-latency.c: the latency charts of a result folder: each service's latency
 * percentiles over time (latency.csv) and the latency CDFs (TTFT, TPOT, end to end) of
 * LLM services (llm-latency.csv), both read as streams. */
#include "plot-chart.h"
#include "util.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* "p50", "latency_p95_ms", "p999_ms": the percentile (50, 95, 99.9), or NAN. */
static double plot_percentile_column(const char *name, double *to_ms) {
  g_auto(GStrv) parts = g_strsplit(name, "_", -1);
  double pct = NAN;
  *to_ms = 1;
  for (guint i = 0; parts[i]; i++) {
    const char *p = parts[i];
    if (p[0] == 'p' && p[1] && strspn(p + 1, "0123456789") == strlen(p + 1) && strlen(p + 1) <= 4) {
      double v = g_ascii_strtod(p + 1, NULL);
      while (v >= 100) v /= 10; /* p999 -> 99.9 */
      pct = v;
    }
    if (!strcmp(p, "s")) *to_ms = 1000;
    if (!strcmp(p, "us")) *to_ms = 0.001;
  }
  return pct;
}

/* latency.csv (or llm-latency.csv, whose series are a service and a metric) streamed: the
 * rows of the first PLOT_MAX_SERVICES series, in order of first appearance. At most
 * PLOT_MAX_LATENCY_POINTS points per series (the file has at most 64 x 64 + 1 per series;
 * more means it was edited). */
#define PLOT_MAX_LATENCY_POINTS 5000
typedef struct plot_latency_acc {
  int c_service, c_ms, c_frac, c_metric; /* c_metric: -1 in latency.csv */
  GPtrArray *raw;      /* char*, owned: service names as in the file */
  GPtrArray *data;     /* GString* per service: "ms share%" lines */
  GArray *points;      /* guint per service */
  gboolean more;       /* a service beyond the first PLOT_MAX_SERVICES */
} plot_latency_acc;

static gboolean plot_latency_row(const char *const *cells, guint n, gpointer user) {
  plot_latency_acc *a = user;
  if ((guint)a->c_service >= n || (guint)a->c_ms >= n || (guint)a->c_frac >= n) return TRUE;
  if (a->c_metric >= 0 && (guint)a->c_metric >= n) return TRUE;
  double ms, frac;
  if (!util_parse_double(cells[a->c_ms], &ms) || !isfinite(ms) || ms <= 0) return TRUE;
  if (!util_parse_double(cells[a->c_frac], &frac) || !(frac >= 0 && frac <= 1)) return TRUE;
  g_autofree char *key = a->c_metric >= 0
                             ? g_strdup_printf("%s %s", cells[a->c_service], cells[a->c_metric])
                             : g_strdup(cells[a->c_service]);
  guint i;
  for (i = 0; i < a->raw->len; i++)
    if (!strcmp(g_ptr_array_index(a->raw, i), key)) break;
  if (i == a->raw->len) {
    if (a->raw->len >= PLOT_MAX_SERVICES) {
      a->more = TRUE;
      return TRUE;
    }
    guint zero = 0;
    g_ptr_array_add(a->raw, g_strdup(key));
    g_ptr_array_add(a->data, g_string_new(NULL));
    g_array_append_val(a->points, zero);
  }
  guint *np = &g_array_index(a->points, guint, i);
  if (*np >= PLOT_MAX_LATENCY_POINTS) return TRUE;
  (*np)++;
  GString *d = g_ptr_array_index(a->data, i);
  plot_num(d, ms);
  g_string_append_c(d, ' ');
  plot_num(d, 100 * frac);
  g_string_append_c(d, '\n');
  return TRUE;
}

static void plot_string_free(gpointer s) { g_string_free(s, TRUE); }

/* A latency CDF chart: its file in the result folder, its chart name and title. */
typedef struct plot_cdf_spec {
  const char *file, *chart, *title;
} plot_cdf_spec;

/* The latency CDF of each series of sp->file (latency.csv: each service; llm-latency.csv:
 * each service's TTFT, TPOT and end to end); FALSE in *drawn when the folder has no usable
 * file (for latency.csv, an older result folder: the percentiles of services.csv are drawn
 * instead). The SLO targets come from services.csv (id, slo_ms, slo_pct). */
static gboolean plot_latency_cdf(const plot_ctx *c, const char *run_dir, const char *scenario,
                                 const plot_cdf_spec *sp, gboolean *drawn, GError **error) {
  *drawn = FALSE;
  g_autofree char *path = g_build_filename(run_dir, sp->file, NULL);
  plot_latency_acc a = {-1, -1, -1, -1, g_ptr_array_new_with_free_func(g_free),
                        g_ptr_array_new_with_free_func(plot_string_free),
                        g_array_new(FALSE, FALSE, sizeof(guint)), FALSE};
  char **header = NULL;
  /* first pass: the header only (the callback needs the column numbers) */
  if (table_foreach(path, &header, NULL, NULL, NULL)) {
    for (guint i = 0; header[i]; i++) {
      if (!strcmp(header[i], "service")) a.c_service = (int)i;
      if (!strcmp(header[i], "latency_ms")) a.c_ms = (int)i;
      if (!strcmp(header[i], "cum_frac")) a.c_frac = (int)i;
      if (!strcmp(header[i], "metric")) a.c_metric = (int)i;
    }
    g_strfreev(header);
  }
  gboolean ok = TRUE;
  if (a.c_service >= 0 && a.c_ms >= 0 && a.c_frac >= 0) {
    *drawn = TRUE;
    table_foreach(path, NULL, plot_latency_row, &a, NULL);
  }
  if (*drawn && a.raw->len == 0) {
    g_autofree char *why = g_strdup_printf("no service served a request (%s has no rows)", sp->file);
    plot_skip(c, sp->chart, why);
  } else if (*drawn) {
    g_autofree char *why = g_strdup_printf("more than 12 series: the first 12 of %s are drawn",
                                           sp->file);
    if (a.more) plot_skip(c, sp->chart, why);
    g_autofree char *spath = g_build_filename(run_dir, "services.csv", NULL);
    g_autoptr(table) t = table_load(spath, NULL);
    int c_id = t ? table_column(t, "id") : -1, c_slo = t ? table_column(t, "slo_ms") : -1,
        c_pct = t ? table_column(t, "slo_pct") : -1;
    GString *data = g_string_new("# one block per service: latency (ms), share of served "
                                 "requests faster (%)\n");
    GString *slo = g_string_new(NULL);
    guint n_slo = 0;
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    for (guint i = 0; i < a.raw->len; i++) {
      const char *raw = g_ptr_array_index(a.raw, i);
      if (i > 0) g_string_append(data, "\n\n");
      g_string_append_len(data, ((GString *)g_ptr_array_index(a.data, i))->str,
                          (gssize)((GString *)g_ptr_array_index(a.data, i))->len);
      g_ptr_array_add(names, figures_clean_text(raw));
      for (guint r = 0; t && c_id >= 0 && r < t->rows->len; r++) {
        if (strcmp(table_cell(t, r, c_id), raw)) continue;
        double ms = table_number(t, r, c_slo), pct = table_number(t, r, c_pct);
        if (ms > 0 && pct >= 0 && pct <= 100) {
          plot_num(slo, ms);
          g_string_append_c(slo, ' ');
          plot_num(slo, pct);
          g_string_append_printf(slo, " %u\n", i + 1);
          n_slo++;
        }
        break;
      }
    }
    if (n_slo > 0) {
      g_string_append(data, "\n\n# SLO targets: latency (ms), share (%), service number\n");
      g_string_append_len(data, slo->str, (gssize)slo->len);
    }
    GString *vars = g_string_new(NULL);
    plot_array(vars, "series", (const char *const *)names->pdata, names->len);
    g_string_append_printf(vars, "n_slo = %u\n", n_slo);
    g_autofree char *title = g_strdup_printf("%s: %s", sp->title, scenario);
    g_autofree char *dat = g_strdup_printf("%s.dat", sp->chart);
    ok = plot_write(c, dat, data, error) &&
         plot_chart(c, sp->chart, "latency-cdf.gp", title, vars, error);
    g_string_free(vars, TRUE);
    g_ptr_array_free(names, TRUE);
    g_string_free(slo, TRUE);
    g_string_free(data, TRUE);
  }
  g_ptr_array_free(a.raw, TRUE);
  g_ptr_array_free(a.data, TRUE);
  g_array_free(a.points, TRUE);
  return ok;
}

static gboolean plot_latency(const plot_ctx *c, const char *run_dir, const char *scenario,
                             GError **error) {
  static const plot_cdf_spec cdf = {"latency.csv", "latency", "Request latency per service"};
  static const plot_cdf_spec llm = {"llm-latency.csv", "llm-latency",
                                    "LLM TTFT, TPOT and end-to-end latency per service"};
  gboolean drawn = FALSE, llm_drawn = FALSE;
  /* LLM services: their three distributions too (no chart when the run has none) */
  if (!plot_latency_cdf(c, run_dir, scenario, &llm, &llm_drawn, error)) return FALSE;
  if (!plot_latency_cdf(c, run_dir, scenario, &cdf, &drawn, error)) return FALSE;
  if (drawn) return TRUE;
  g_autofree char *path = g_build_filename(run_dir, "services.csv", NULL);
  g_autoptr(table) t = table_load(path, NULL);
  if (!t || t->rows->len == 0) {
    plot_skip(c, "latency", "no inference services (services.csv absent or empty)");
    return TRUE;
  }
  GArray *cols = g_array_new(FALSE, FALSE, sizeof(int));
  GArray *pcts = g_array_new(FALSE, FALSE, sizeof(double));
  GArray *scales = g_array_new(FALSE, FALSE, sizeof(double));
  for (guint i = 0; i < t->n_columns; i++) {
    double to_ms, pct = plot_percentile_column(t->header[i], &to_ms);
    if (isnan(pct)) continue;
    int ci = (int)i;
    g_array_append_val(cols, ci);
    g_array_append_val(pcts, pct);
    g_array_append_val(scales, to_ms);
  }
  static const char *const name_cols[] = {"service", "id", "job_id", "job", "name"};
  int c_name = -1;
  for (guint i = 0; c_name < 0 && i < G_N_ELEMENTS(name_cols); i++) c_name = table_column(t, name_cols[i]);
  if (c_name < 0) c_name = 0;
  gboolean ok = TRUE;
  guint ns = MIN(t->rows->len, PLOT_MAX_SERVICES);
  if (cols->len == 0 || ns == 0) {
    plot_skip(c, "latency", "services.csv reports no latency percentiles (p50, p95, ...)");
  } else {
    if (t->rows->len > ns)
      plot_skip(c, "latency", "more than 12 services: the first 12 of services.csv are drawn");
    /* rows: percentiles in increasing order */
    guint *order = g_new(guint, cols->len);
    for (guint i = 0; i < cols->len; i++) order[i] = i;
    for (guint i = 1; i < cols->len; i++)
      for (guint j = i; j > 0 && g_array_index(pcts, double, order[j]) <
                                     g_array_index(pcts, double, order[j - 1]); j--) {
        guint tmp = order[j];
        order[j] = order[j - 1];
        order[j - 1] = tmp;
      }
    GString *data = g_string_new("# percentile (%), then the latency (ms) of each service\n");
    for (guint k = 0; k < cols->len; k++) {
      guint i = order[k];
      plot_num(data, g_array_index(pcts, double, i));
      for (guint r = 0; r < ns; r++) {
        g_string_append_c(data, ' ');
        plot_num(data, table_number(t, r, g_array_index(cols, int, i)) * g_array_index(scales, double, i));
      }
      g_string_append_c(data, '\n');
    }
    g_free(order);
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    for (guint r = 0; r < ns; r++) g_ptr_array_add(names, figures_clean_text(table_cell(t, r, c_name)));
    GString *vars = g_string_new(NULL);
    plot_array(vars, "series", (const char *const *)names->pdata, names->len);
    g_autofree char *title = g_strdup_printf("Request latency per service: %s", scenario);
    ok = plot_write(c, "latency.dat", data, error) &&
         plot_chart(c, "latency", "latency.gp", title, vars, error);
    g_string_free(vars, TRUE);
    g_ptr_array_free(names, TRUE);
    g_string_free(data, TRUE);
  }
  g_array_free(cols, TRUE);
  g_array_free(pcts, TRUE);
  g_array_free(scales, TRUE);
  return ok;
}

static gboolean plot_latency_draw(const plot_ctx *c, const char *run_dir, plot_run_data *d,
                                  const char *scenario, GError **error) {
  (void)d;
  return plot_latency(c, run_dir, scenario, error);
}

const plot_run_chart plot_chart_latency = {"latency", FALSE, plot_latency_draw};
