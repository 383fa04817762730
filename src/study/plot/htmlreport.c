/* htmlreport.c: builds the one-page HTML report (htmlreport.h) from result folders read back
 * through figures.h (summary.json, services.csv) and table.h (pools, tenants, services,
 * timeseries CSVs). Every number shown is read or summed from those files; nothing is
 * simulated here, and the page holds no script. Charts come from svg.c. */
#include "htmlreport.h"
#include "figures.h"
#include "caltime.h"
#include "svg.h"
#include "table.h"
#include "util.h"
#include <math.h>
#include <string.h>

#define HR_MAX_POINTS 480 /* points per line of the utilisation chart (averaged bins) */

typedef struct hr_run {
  run_figures *f;
  table *pools, *tenants, *services; /* NULL when the file is absent or unreadable */
  GArray *t, *alloc, *busy;           /* double: interval start (s), % of provisioned GPUs */
  double days;                        /* span in days */
} hr_run;

static void hr_run_clear(hr_run *r) {
  figures_free(r->f);
  table_free(r->pools);
  table_free(r->tenants);
  table_free(r->services);
  if (r->t) g_array_unref(r->t);
  if (r->alloc) g_array_unref(r->alloc);
  if (r->busy) g_array_unref(r->busy);
}

static table *hr_table(const char *dir, const char *name) {
  g_autofree char *p = g_build_filename(dir, name, NULL);
  return table_load(p, NULL);
}

static void hr_text(GString *out, const char *s) {
  g_autofree char *c = figures_clean_text(s);
  svg_escape(out, c);
}

static double hr_fig(const hr_run *r, const char *key) { return figures_value(r->f, key); }

/* GPUs of the pool named name (pools.csv), NAN when unknown. */
static double hr_pool_gpus(const hr_run *r, const char *name) {
  if (!r->pools) return NAN;
  int cp = table_column(r->pools, "pool"), cg = table_column(r->pools, "gpus");
  for (guint i = 0; i < r->pools->rows->len; i++)
    if (!strcmp(table_cell(r->pools, i, cp), name)) return table_number(r->pools, i, cg);
  return NAN;
}

/* Sums timeseries.csv over pools per interval (each pool's allocated and busy shares weighted
 * by its GPUs), then averages into at most HR_MAX_POINTS bins. */
static void hr_series(hr_run *r, const char *dir) {
  r->t = g_array_new(FALSE, FALSE, sizeof(double));
  r->alloc = g_array_new(FALSE, FALSE, sizeof(double));
  r->busy = g_array_new(FALSE, FALSE, sizeof(double));
  g_autoptr(table) ts = hr_table(dir, "timeseries.csv");
  double gpus = hr_fig(r, "gpus");
  if (!ts || !(gpus > 0)) return;
  int ct = table_column(ts, "t_start_s"), ca = table_column(ts, "allocated");
  int cb = table_column(ts, "busy"), cp = table_column(ts, "pool");
  const char *last_pool = NULL;
  double w = NAN;
  g_autoptr(GHashTable) slot = g_hash_table_new(g_str_hash, g_str_equal);
  g_autoptr(GArray) t = g_array_new(FALSE, FALSE, sizeof(double));
  g_autoptr(GArray) a = g_array_new(FALSE, TRUE, sizeof(double));
  g_autoptr(GArray) b = g_array_new(FALSE, TRUE, sizeof(double));
  for (guint i = 0; i < ts->rows->len; i++) {
    const char *key = table_cell(ts, i, ct);
    const char *pool = table_cell(ts, i, cp);
    if (!last_pool || strcmp(pool, last_pool)) w = hr_pool_gpus(r, last_pool = pool);
    double tv = table_number(ts, i, ct), av = w * table_number(ts, i, ca);
    double bv = w * table_number(ts, i, cb);
    if (!isfinite(tv)) continue;
    gpointer idx = g_hash_table_lookup(slot, key);
    if (!idx) {
      g_array_append_val(t, tv);
      g_array_set_size(a, t->len);
      g_array_set_size(b, t->len);
      idx = GUINT_TO_POINTER(t->len);
      g_hash_table_insert(slot, (gpointer)key, idx);
    }
    guint k = GPOINTER_TO_UINT(idx) - 1;
    if (isfinite(av)) g_array_index(a, double, k) += av;
    if (isfinite(bv)) g_array_index(b, double, k) += bv;
  }
  guint per = (t->len + HR_MAX_POINTS - 1) / HR_MAX_POINTS;
  for (guint k = 0; per && k < t->len; k += per) {
    double sa = 0, sb = 0;
    guint m = 0;
    for (; m < per && k + m < t->len; m++) {
      sa += g_array_index(a, double, k + m);
      sb += g_array_index(b, double, k + m);
    }
    double x = g_array_index(t, double, k), ya = 100 * sa / m / gpus, yb = 100 * sb / m / gpus;
    g_array_append_val(r->t, x);
    g_array_append_val(r->alloc, ya);
    g_array_append_val(r->busy, yb);
  }
}

static gboolean hr_load(hr_run *r, const char *dir, GError **error) {
  r->f = figures_load(dir, error);
  if (!r->f) return FALSE;
  r->pools = hr_table(dir, "pools.csv");
  r->tenants = hr_table(dir, "tenants.csv");
  r->services = hr_table(dir, "services.csv");
  r->days = r->f->span_s / 86400.0;
  hr_series(r, dir);
  return TRUE;
}

static const char *hr_name(const hr_run *r) {
  return r->f->scenario && *r->f->scenario ? r->f->scenario : r->f->dir;
}

/* TRUE when every pool of the run shares whole GPUs (strategy exclusive). */
static gboolean hr_all_exclusive(const hr_run *r) {
  if (!r->pools) return FALSE;
  int cs = table_column(r->pools, "strategy");
  for (guint i = 0; i < r->pools->rows->len; i++)
    if (strcmp(table_cell(r->pools, i, cs), "exclusive")) return FALSE;
  return r->pools->rows->len > 0;
}

static gboolean hr_spans_differ(const hr_run *runs, guint n) {
  for (guint i = 1; i < n; i++)
    if (fabs(runs[i].days - runs[0].days) > 0.01 * MAX(runs[0].days, 1e-9)) return TRUE;
  return FALSE;
}

static void hr_head(GString *out, const hr_run *runs, guint n) {
  g_string_append(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                       "<title>sharesim report: ");
  for (guint i = 0; i < n; i++) {
    if (i) g_string_append(out, " vs ");
    hr_text(out, hr_name(&runs[i]));
  }
  g_string_append(out, "</title>\n<style>\n"
      "body{font-family:sans-serif;max-width:60em;margin:2em auto;color:#222;line-height:1.4}\n"
      "h1{font-size:1.5em;margin-bottom:.2em} h2{font-size:1.15em;margin-top:1.6em;"
      "border-bottom:1px solid #ccc}\n"
      ".headline{font-size:1.35em;font-weight:bold;margin:.6em 0}\n"
      ".warn{background:#fff3cd;border:1px solid #e0b400;padding:.5em .8em}\n"
      "table{border-collapse:collapse;margin:.5em 0} td,th{padding:.2em .7em;"
      "border-bottom:1px solid #eee;text-align:right;white-space:nowrap} td:first-child,th:first-child"
      "{text-align:left;white-space:normal} .muted{color:#666;font-size:.9em}\n"
      "@media print{body{margin:0} h2{break-after:avoid} svg{break-inside:avoid}}\n"
      "</style></head><body>\n");
}

/* "Sharing saves $2,950 a week (22 %) against whole GPUs" for run r against the baseline. */
static void hr_headline_pair(GString *out, const hr_run *base, const hr_run *r, gboolean rates) {
  double bc = hr_fig(base, "cost"), rc = hr_fig(r, "cost");
  double per_day = rates ? bc / base->days - rc / r->days : (bc - rc) / r->days;
  double week = 7 * per_day, share = rates ? per_day / (bc / base->days) : (bc - rc) / bc;
  g_string_append(out, "<p class=\"headline\">");
  hr_text(out, hr_name(r));
  g_string_append(out, per_day >= 0 ? " saves " : " costs ");
  svg_money(out, fabs(week));
  g_string_append(out, per_day >= 0 ? " a week (" : " more a week (");
  g_string_append_printf(out, "%.0f %%) against ", 100 * fabs(share));
  if (hr_all_exclusive(base)) g_string_append(out, "whole GPUs (");
  hr_text(out, hr_name(base));
  if (hr_all_exclusive(base)) g_string_append_c(out, ')');
  g_string_append(out, "</p>\n<p>");
  if (!rates) {
    g_string_append_printf(out, "Over the %.1f days of the trace: ", r->days);
    svg_money(out, rc);
    g_string_append(out, " against ");
    svg_money(out, bc);
    g_string_append(out, per_day >= 0 ? ", a saving of " : ", an extra cost of ");
    svg_money(out, fabs(bc - rc));
  } else {
    svg_money(out, rc / r->days);
    g_string_append(out, " a day against ");
    svg_money(out, bc / base->days);
    g_string_append(out, " a day");
  }
  g_string_append_printf(out, ". GPUs allocated %.1f %% of the time (baseline %.1f %%), busy "
                         "%.1f %% (baseline %.1f %%).</p>\n", 100 * hr_fig(r, "allocated_frac"),
                         100 * hr_fig(base, "allocated_frac"), 100 * hr_fig(r, "busy_frac"),
                         100 * hr_fig(base, "busy_frac"));
}

static void hr_headline(GString *out, const hr_run *runs, guint n) {
  g_string_append(out, "<h1>GPU sharing report</h1>\n<p class=\"muted\">Trace ");
  hr_text(out, runs[0].f->trace_file);
  g_string_append_printf(out, ", %.1f days simulated", runs[0].days);
  if (isfinite(runs[0].f->start_unix)) { /* the period, for runs placed at a date */
    g_string_append(out, " (");
    caltime_append(out, runs[0].f->start_unix);
    g_string_append(out, " to ");
    caltime_append(out, runs[0].f->start_unix + runs[0].f->span_s);
    g_string_append_c(out, ')');
  }
  g_string_append(out, n > 1 ? "; the first run is the baseline.</p>\n" : ".</p>\n");
  if (n == 1) {
    const hr_run *r = &runs[0];
    g_string_append(out, "<p class=\"headline\">");
    hr_text(out, hr_name(r));
    g_string_append(out, " costs ");
    svg_money(out, 7 * hr_fig(r, "cost") / r->days);
    g_string_append_printf(out, " a week; its GPUs are allocated %.0f %% and busy %.0f %% of "
                           "the time</p>\n<p>", 100 * hr_fig(r, "allocated_frac"),
                           100 * hr_fig(r, "busy_frac"));
    svg_money(out, hr_fig(r, "cost"));
    g_string_append_printf(out, " over %.1f days (", r->days);
    svg_money(out, hr_fig(r, "cost") / r->days);
    g_string_append(out, " a day), of which ");
    svg_money(out, hr_fig(r, "idle_cost"));
    g_string_append(out, " paid for idle GPU time.</p>\n");
    return;
  }
  gboolean rates = hr_spans_differ(runs, n);
  if (rates) {
    g_string_append(out, "<p class=\"warn\"><b>Warning:</b> the runs cover different spans (");
    for (guint i = 0; i < n; i++)
      g_string_append_printf(out, "%s%.2f days", i ? ", " : "", runs[i].days);
    g_string_append(out, "). Costs are compared as rates per day and week; totals over the "
                         "runs are not comparable.</p>\n");
  }
  for (guint i = 1; i < n; i++) hr_headline_pair(out, &runs[0], &runs[i], rates);
}

/* "team-a 3, team-b 1" of the pools where column col is above zero. */
static void hr_where(GString *out, const hr_run *r, const char *col, gboolean hours) {
  int cp = r->pools ? table_column(r->pools, "pool") : -1, cc = r->pools ? table_column(r->pools, col) : -1;
  gboolean any = FALSE;
  for (guint i = 0; cc >= 0 && i < r->pools->rows->len; i++) {
    double v = table_number(r->pools, i, cc);
    if (!(v > 0)) continue;
    g_string_append(out, any ? ", " : " <span class=\"muted\">(");
    hr_text(out, table_cell(r->pools, i, cp));
    if (hours) g_string_append_printf(out, " %.1f", v);
    else {
      g_string_append_c(out, ' ');
      svg_thousands(out, v);
    }
    any = TRUE;
  }
  if (any) g_string_append(out, ")</span>");
}

/* SLO misses and violation minutes by pool, from services.csv. */
static void hr_slo_where(GString *out, const hr_run *r, const char *what) {
  if (!r->services) return;
  int cp = table_column(r->services, "pool"), cm = table_column(r->services, "met");
  int cv = table_column(r->services, "violation_minutes");
  g_autoptr(GHashTable) by = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GPtrArray) order = g_ptr_array_new();
  for (guint i = 0; i < r->services->rows->len; i++) {
    double v = !strcmp(what, "missed") ? (table_number(r->services, i, cm) == 0 ? 1 : 0)
                                       : table_number(r->services, i, cv);
    if (!(v > 0)) continue;
    const char *p = table_cell(r->services, i, cp);
    double *acc = g_hash_table_lookup(by, p);
    if (!acc) {
      acc = g_new0(double, 1);
      g_hash_table_insert(by, g_strdup(p), acc);
      g_ptr_array_add(order, (gpointer)p);
    }
    *acc += v;
  }
  for (guint i = 0; i < order->len; i++) {
    g_string_append(out, i ? ", " : " <span class=\"muted\">(");
    hr_text(out, g_ptr_array_index(order, i));
    g_string_append_c(out, ' ');
    svg_thousands(out, *(double *)g_hash_table_lookup(by, g_ptr_array_index(order, i)));
  }
  if (order->len) g_string_append(out, ")</span>");
}

static void hr_breaks(GString *out, const hr_run *runs, guint n) {
  static const struct { const char *key, *label, *pool_col; gboolean hours; } rows[] = {
      {"oom_kills", "out-of-memory kills", "oom_kills", FALSE},
      {"innocent_victims", "innocent victims of them", "innocent_victims", FALSE},
      {"crashes", "crashes", "crashes", FALSE},
      {"slo:missed", "services missing their SLO", NULL, FALSE},
      {"slo:violation_minutes", "SLO violation minutes", NULL, FALSE},
      {"straggler_wait_gpu_h", "GPU-hours waiting for stragglers", "straggler_wait_gpu_h", TRUE},
      {"evictions", "evictions (MIG drains)", "evictions", FALSE},
      {"work_lost_gpu_h", "work lost (GPU-hours)", "work_lost_gpu_h", TRUE},
  };
  g_string_append(out, "<h2>What breaks, and where</h2>\n<table><tr><th></th>");
  for (guint i = 0; i < n; i++) {
    g_string_append(out, "<th>");
    hr_text(out, hr_name(&runs[i]));
    g_string_append(out, "</th>");
  }
  g_string_append(out, "</tr>\n");
  for (guint k = 0; k < G_N_ELEMENTS(rows); k++) {
    g_string_append_printf(out, "<tr><td>%s</td>", rows[k].label);
    for (guint i = 0; i < n; i++) {
      double v = hr_fig(&runs[i], rows[k].key);
      g_string_append(out, "<td>");
      if (rows[k].hours) g_string_append_printf(out, isfinite(v) ? "%.1f" : "-", v);
      else svg_thousands(out, v);
      if (rows[k].pool_col) hr_where(out, &runs[i], rows[k].pool_col, rows[k].hours);
      else hr_slo_where(out, &runs[i], !strcmp(rows[k].key, "slo:missed") ? "missed" : "minutes");
      g_string_append(out, "</td>");
    }
    g_string_append(out, "</tr>\n");
  }
  g_string_append(out, "</table>\n");
}

static void hr_utilisation(GString *out, const hr_run *runs, guint n) {
  g_string_append(out, "<h2>Utilisation over time</h2>\n<p class=\"muted\">Share of all "
                       "provisioned GPUs allocated to jobs (dashed) and busy (solid, DCGM "
                       "GPU_UTIL), per interval.</p>\n");
  svg_series *s = g_new0(svg_series, 2 * n);
  GPtrArray *labels = g_ptr_array_new_with_free_func(g_free);
  for (guint i = 0; i < n; i++) {
    g_autofree char *name = figures_clean_text(hr_name(&runs[i]));
    char *lb = g_strdup_printf("%s: busy", name), *la = g_strdup_printf("%s: allocated", name);
    g_ptr_array_add(labels, lb);
    g_ptr_array_add(labels, la);
    s[2 * i] = (svg_series){lb, svg_colour(i), FALSE, (double *)runs[i].t->data,
                            (double *)runs[i].busy->data, runs[i].t->len};
    s[2 * i + 1] = (svg_series){la, svg_colour(i), TRUE, (double *)runs[i].t->data,
                                (double *)runs[i].alloc->data, runs[i].t->len};
  }
  svg_line_chart c = {.title = "GPU utilisation over time", .y_label = "% of GPUs",
                      .y_max = 100,
                      .start_unix = isfinite(runs[0].f->start_unix) ? runs[0].f->start_unix : -1};
  svg_line(out, &c, s, 2 * n);
  g_ptr_array_unref(labels);
  g_free(s);
}

/* Cost by pool: one bar per run, one segment per pool name (in order of first appearance). */
static void hr_cost(GString *out, const hr_run *runs, guint n) {
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
  for (guint i = 0; i < n; i++)
    for (guint p = 0; p < runs[i].f->pool_names->len; p++) {
      const char *nm = g_ptr_array_index(runs[i].f->pool_names, p);
      gboolean seen = FALSE;
      for (guint k = 0; k < names->len && !seen; k++) seen = !strcmp(g_ptr_array_index(names, k), nm);
      if (!seen) g_ptr_array_add(names, figures_clean_text(nm));
    }
  double *vals = g_new0(double, (gsize)n * MAX(names->len, 1));
  svg_bar *bars = g_new0(svg_bar, n);
  const char **colours = g_new0(const char *, MAX(names->len, 1));
  g_autoptr(GPtrArray) bar_labels = g_ptr_array_new_with_free_func(g_free);
  for (guint k = 0; k < names->len; k++) colours[k] = svg_colour(k + 3);
  for (guint i = 0; i < n; i++) {
    for (guint k = 0; k < names->len; k++) {
      g_autofree char *key = g_strdup_printf("pool:%s:cost", (char *)g_ptr_array_index(names, k));
      vals[i * names->len + k] = hr_fig(&runs[i], key);
    }
    g_ptr_array_add(bar_labels, figures_clean_text(hr_name(&runs[i])));
    bars[i] = (svg_bar){g_ptr_array_index(bar_labels, i), vals + i * names->len};
  }
  g_string_append(out, "<h2>Cost by pool</h2>\n");
  svg_bars(out, "Cost by pool", bars, n, (const char *const *)names->pdata, colours, names->len,
           TRUE, NULL);
  g_free(colours);
  g_free(bars);
  g_free(vals);
}

static void hr_showback_one(GString *out, const hr_run *r) {
  g_string_append(out, "<h3>");
  hr_text(out, hr_name(r));
  g_string_append(out, "</h3>\n<table><tr><th>tenant</th><th>jobs</th><th>allocated GPU-h</th>"
                       "<th>busy GPU-h</th><th>charged</th><th>share</th></tr>\n");
  double total = hr_fig(r, "cost"), sum = 0;
  const table *t = r->tenants;
  int cn = t ? table_column(t, "tenant") : -1, cj = t ? table_column(t, "jobs") : -1;
  int ca = t ? table_column(t, "allocated_gpu_h") : -1, cb = t ? table_column(t, "busy_gpu_h") : -1;
  int cc = t ? table_column(t, "cost") : -1;
  for (guint i = 0; t && i < t->rows->len; i++) {
    double c = table_number(t, i, cc);
    if (isfinite(c)) sum += c;
    g_string_append(out, "<tr><td>");
    hr_text(out, table_cell(t, i, cn));
    g_string_append(out, "</td><td>");
    svg_thousands(out, table_number(t, i, cj));
    g_string_append_printf(out, "</td><td>%.1f</td><td>%.1f</td><td>", table_number(t, i, ca),
                           table_number(t, i, cb));
    svg_money(out, c);
    g_string_append_printf(out, "</td><td>%.1f %%</td></tr>\n", 100 * c / total);
  }
  g_string_append(out, "<tr><td>not charged to a tenant (unallocated and idle capacity)</td>"
                       "<td></td><td></td><td></td><td>");
  svg_money(out, total - sum);
  g_string_append_printf(out, "</td><td>%.1f %%</td></tr>\n<tr><th>total</th><th></th><th></th>"
                         "<th></th><th>", 100 * (total - sum) / total);
  svg_money(out, total);
  g_string_append(out, "</th><th>100 %</th></tr>\n</table>\n");
}

static void hr_wait(GString *out, const hr_run *runs, guint n) {
  g_string_append(out, "<h2>Queue wait</h2>\n<table><tr><th></th><th>mean</th><th>p50</th>"
                       "<th>p95</th><th>max</th><th>jobs unplaceable</th></tr>\n");
  for (guint i = 0; i < n; i++) {
    g_string_append(out, "<tr><td>");
    hr_text(out, hr_name(&runs[i]));
    g_string_append(out, "</td>");
    static const char *const keys[] = {"wait_mean_s", "wait_p50_s", "wait_p95_s", "wait_max_s"};
    for (guint k = 0; k < G_N_ELEMENTS(keys); k++) {
      g_string_append(out, "<td>");
      figures_format(out, FIGURE_SECONDS, hr_fig(&runs[i], keys[k]));
      g_string_append(out, "</td>");
    }
    g_string_append(out, "<td>");
    svg_thousands(out, hr_fig(&runs[i], "unplaceable"));
    g_string_append(out, "</td></tr>\n");
  }
  g_string_append(out, "</table>\n");
}

static void hr_settings_one(GString *out, const hr_run *r) {
  g_string_append(out, "<h3>");
  hr_text(out, hr_name(r));
  g_string_append(out, "</h3>\n<p class=\"muted\">Scenario ");
  hr_text(out, r->f->scenario_file);
  g_string_append(out, ", trace ");
  hr_text(out, r->f->trace_file);
  g_string_append_printf(out, ", seed %" G_GUINT64_FORMAT ", %.2f days, folder ", r->f->seed,
                         r->days);
  hr_text(out, r->f->dir);
  g_string_append(out, ".</p>\n<table><tr><th>pool</th><th>GPU</th><th>strategy</th><th>GPUs"
                       "</th><th>$/GPU-h</th><th>jobs</th><th>allocated</th><th>busy</th></tr>\n");
  const table *t = r->pools;
  static const char *const cols[] = {"pool", "gpu", "strategy", "gpus", "price_per_gpu_hour",
                                     "jobs", "allocated_frac", "busy_frac"};
  for (guint i = 0; t && i < t->rows->len; i++) {
    g_string_append(out, "<tr>");
    for (guint k = 0; k < G_N_ELEMENTS(cols); k++) {
      int c = table_column(t, cols[k]);
      g_string_append(out, "<td>");
      if (k >= 6) g_string_append_printf(out, "%.1f %%", 100 * table_number(t, i, c));
      else hr_text(out, table_cell(t, i, c));
      g_string_append(out, "</td>");
    }
    g_string_append(out, "</tr>\n");
  }
  g_string_append(out, "</table>\n");
}

gboolean htmlreport_build(const char *const *dirs, guint n, GString *out, GError **error) {
  g_return_val_if_fail(n > 0, FALSE);
  hr_run *runs = g_new0(hr_run, n);
  gboolean ok = TRUE;
  for (guint i = 0; i < n && ok; i++) ok = hr_load(&runs[i], dirs[i], error);
  if (ok) {
    hr_head(out, runs, n);
    hr_headline(out, runs, n);
    hr_breaks(out, runs, n);
    hr_utilisation(out, runs, n);
    hr_cost(out, runs, n);
    g_string_append(out, "<h2>Showback per tenant</h2>\n<p class=\"muted\">What each tenant's "
                         "jobs were charged; the capacity no tenant used is its own row, so the "
                         "rows add up to the cost of the set-up.</p>\n");
    for (guint i = 0; i < n; i++) hr_showback_one(out, &runs[i]);
    hr_wait(out, runs, n);
    g_string_append(out, "<h2>Settings behind each run</h2>\n");
    for (guint i = 0; i < n; i++) hr_settings_one(out, &runs[i]);
    g_string_append(out, "<p class=\"muted\">Made by sharesim report from the result folders "
                         "named above; every figure is read from their files.</p>\n"
                         "</body></html>\n");
  }
  for (guint i = 0; i < n; i++) hr_run_clear(&runs[i]);
  g_free(runs);
  return ok;
}
