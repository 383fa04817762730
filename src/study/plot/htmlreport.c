/* htmlreport.c: lays out the one-page HTML report (htmlreport.h) from the set-ups that
 * htmlreport-load.c reads: the recommendation and its reason first (htmlreport-decide.c, or
 * a plan folder's own), a warning when the trace is shorter than a week, the decision table
 * (cost per 730-hour month and year beside what each saving costs), two charts (svg.c), the
 * showback and a footer naming the version, the inputs' hashes and the prices' sources. */
#include "htmlreport.h"
#include "htmlreport-int.h"
#include "caltime.h"
#include "catalog.h"
#include "svg.h"
#include "util.h"
#include <math.h>
#include <string.h>
#include "config.h"

static void hr_head(GString *out, hr_run *const *runs, guint n) {
  g_string_append(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                       "<title>sharesim report: ");
  for (guint i = 0; i < n; i++) {
    if (i) g_string_append(out, " vs ");
    hr_text(out, runs[i]->label);
  }
  g_string_append(out, "</title>\n<style>\n"
      "body{font-family:sans-serif;font-size:13px;max-width:58em;margin:1.5em auto;color:#222;"
      "line-height:1.3}\n"
      "h1{font-size:1.35em;margin:0 0 .2em} h2{font-size:1.05em;margin:.8em 0 .3em;"
      "border-bottom:1px solid #ccc}\n"
      "p{margin:.3em 0} ul{margin:.2em 0}\n"
      ".rec{font-size:1.25em;font-weight:bold;margin:.4em 0}\n"
      ".warn{background:#fff3cd;border:1px solid #e0b400;padding:.3em .6em}\n"
      "table{border-collapse:collapse;margin:.3em 0} td,th{padding:.1em .6em;"
      "border-bottom:1px solid #eee;text-align:right;white-space:nowrap}\n"
      "td:first-child,th:first-child{text-align:left} .why{white-space:normal;text-align:left;min-width:18em}\n"
      "table.plan{width:100%} table.plan td:nth-child(2),table.plan th:nth-child(2)"
      "{text-align:left}\n"
      ".muted{color:#666;font-size:.85em} .pick{background:#e8f4e8}\n"
      "svg{max-width:100%;height:auto;display:block}\n"
      "@page{margin:8mm}\n"
      "@media print{body{font-size:8pt;line-height:1.2;max-width:none;margin:0}"
      " h2{break-after:avoid;margin:.5em 0 .2em} td,th{padding:0 .5em} svg{break-inside:avoid;"
      "width:88%} .muted{font-size:7pt} ul.muted{padding-left:1.2em}}\n"
      "</style></head><body>\n");
}

/* The trace, its span and period; a warning when shorter than a week or spans differ. */
static void hr_title(GString *out, hr_run *const *runs, guint n) {
  const hr_run *r = runs[0];
  g_string_append(out, "<h1>GPU sharing report</h1>\n<p class=\"muted\">Trace ");
  hr_text(out, r->f->trace_file);
  g_string_append_printf(out, ", %.1f hours simulated", r->f->span_s / 3600);
  if (isfinite(r->f->start_unix)) {
    g_string_append(out, " (");
    caltime_append(out, r->f->start_unix);
    g_string_append(out, " to ");
    caltime_append(out, r->f->start_unix + r->f->span_s);
    g_string_append_c(out, ')');
  }
  g_string_append_printf(out, "; %u set-up%s%s. Money per month is per 730-hour month "
                         "(8,760 hours a year).</p>\n", n, n > 1 ? "s" : "",
                         n > 1 ? ", the first is the baseline" : "");
  double shortest = INFINITY;
  gboolean differ = FALSE;
  for (guint i = 0; i < n; i++) {
    shortest = MIN(shortest, runs[i]->f->span_s);
    differ |= fabs(runs[i]->f->span_s - r->f->span_s) > 0.01 * MAX(r->f->span_s, 1e-9);
  }
  if (shortest < HR_WEEK_S)
    g_string_append_printf(out, "<p class=\"warn\"><b>Short trace: %.1f hours, less than a week."
                           "</b> Costs per month and year below are the price of the GPUs "
                           "provisioned, not a projection of the load; whether a set-up carries "
                           "a full week (its weekday and weekend peaks) is not known from this "
                           "trace, and every count (OOM kills, SLO misses, waits) is of these "
                           "%.1f hours only. Simulate a week or more before deciding.</p>\n",
                           shortest / 3600, shortest / 3600);
  if (differ) {
    g_string_append(out, "<p class=\"warn\"><b>The set-ups cover different spans</b> (");
    for (guint i = 0; i < n; i++)
      g_string_append_printf(out, "%s%.2f days", i ? ", " : "", runs[i]->days);
    g_string_append(out, "): each cost is taken per hour of its own span; counts are not "
                         "comparable.</p>\n");
  }
}

/* A plan folder's recommendation: per class the set-up plan.csv marks recommended, with
 * what it costs and plan.txt's binding constraint; the total per month and year. */
static void hr_plan_rec(GString *out, const hr_plan *p) {
  const table *t = p->csv;
  static const char *const cols[] = {"class", "mechanism", "settings", "gpu", "gpus",
                                     "cost_month", "slowdown_mean", "slowdown_p95",
                                     "min_slo_attainment", "oom_kills", "innocent_victims",
                                     "status"};
  int c[G_N_ELEMENTS(cols)];
  for (guint k = 0; k < G_N_ELEMENTS(cols); k++) c[k] = t ? table_column(t, cols[k]) : -1;
  double month = 0, gpus = 0;
  g_autoptr(GString) rows = g_string_new(NULL);
  for (guint i = 0, seen = 0; t && i < t->rows->len; i++) {
    if (strcmp(table_cell(t, i, c[11]), "recommended")) continue;
    month += table_number(t, i, c[5]);
    gpus += table_number(t, i, c[4]);
    g_string_append(rows, "<tr><td>");
    for (guint k = 0; k < 4; k++) {
      hr_text(rows, table_cell(t, i, c[k]));
      g_string_append(rows, k ? " " : "</td><td>");
    }
    g_string_append_printf(rows, "</td><td>%.0f</td><td>", table_number(t, i, c[4]));
    svg_money(rows, table_number(t, i, c[5]));
    g_string_append(rows, "</td><td>");
    figures_format(rows, FIGURE_RATIO, table_number(t, i, c[6]));
    g_string_append(rows, " / ");
    figures_format(rows, FIGURE_RATIO, table_number(t, i, c[7]));
    g_string_append(rows, "</td><td>");
    figures_format(rows, FIGURE_FRACTION, table_number(t, i, c[8]));
    g_string_append_printf(rows, "</td><td>%.0f / %.0f</td><td class=\"why\">",
                           table_number(t, i, c[9]), table_number(t, i, c[10]));
    const char *why = seen < p->reasons->len ? g_ptr_array_index(p->reasons, seen) : "";
    hr_text(rows, g_str_has_prefix(why, "binding constraint: ") ? why + 20 : why);
    g_string_append(rows, "</td></tr>\n");
    seen++;
  }
  g_string_append_printf(out, "<p class=\"rec\">Recommended by plan: %.0f GPUs, ", gpus);
  svg_money(out, month);
  g_string_append(out, " a month (");
  svg_money(out, 12 * month);
  g_string_append(out, " a year).</p>\n<p>For each class of jobs, the cheapest set-up that "
                       "its tenants' trust allows and that meets every constraint; beside it, "
                       "what it costs the jobs, and what broke on one node fewer (plan.txt "
                       "explains each choice).</p>\n<table class=\"plan\"><tr><th>class</th><th>set-up</th>"
                       "<th>GPUs</th><th>a month</th><th>slowdown mean / p95</th><th>worst "
                       "SLO</th><th>OOM / victims</th><th class=\"why\">one node fewer</th></tr>\n");
  g_string_append(out, rows->str);
  g_string_append(out, "</table>\n");
  if (p->range) {
    g_string_append(out, "<p>Model range (<code>plan --model-range</code>): ");
    hr_text(out, p->range);
    g_string_append(out, ". The recommendation holds across the model range by construction: "
                         "it does not flip with a fitted constant.</p>\n");
  }
}

/* Rows of one class's front shown; the rest are counted. */
#define HR_MAX_FRONT 6

/* A plan folder's Pareto fronts (pareto.csv): per front and class, the set-ups simulated
 * that no other one beats on both cost and the figure, cheapest first. Nothing when the folder has none. */
static void hr_plan_pareto(GString *out, const hr_plan *p) {
  const table *t = p->pareto;
  static const char *const cols[] = {"front", "class", "mechanism", "settings", "gpu", "gpus",
                                     "cost_month", "min_slo_attainment", "wait_p95_s", "pass",
                                     "recommended"};
  int c[G_N_ELEMENTS(cols)];
  for (guint k = 0; k < G_N_ELEMENTS(cols); k++) c[k] = t ? table_column(t, cols[k]) : -1;
  if (!t || !t->rows->len || c[0] < 0) return;
  g_string_append(out, "<h2>Cost against quality: the Pareto fronts</h2>\n<p>Per class, the "
                       "set-ups plan simulated (each candidate at each size it judged) that no other one beats on both cost and the "
                       "figure (the worst SLO attainment, or the p95 queue wait), cheapest "
                       "first: what each step of money buys (pareto.csv; <code>sharesim plot"
                       "</code> draws them).</p>\n<table class=\"plan\"><tr><th>front</th>"
                       "<th>class: set-up</th><th>GPUs</th><th>a month</th><th>worst SLO</th>"
                       "<th>wait p95</th><th>constraints</th></tr>\n");
  guint left = 0; /* rows of this front and class not shown */
  for (guint i = 0, shown = 0; i < t->rows->len; i++) {
    gboolean same = i > 0 && !strcmp(table_cell(t, i, c[0]), table_cell(t, i - 1, c[0])) &&
                    !strcmp(table_cell(t, i, c[1]), table_cell(t, i - 1, c[1]));
    shown = same ? shown + 1 : 0;
    if (shown >= HR_MAX_FRONT) {
      left++;
      continue;
    }
    g_string_append(out, "<tr><td>");
    hr_text(out, !strcmp(table_cell(t, i, c[0]), "slo") ? "cost / SLO" : "cost / wait");
    g_string_append(out, "</td><td>");
    hr_text(out, table_cell(t, i, c[1]));
    g_string_append_c(out, ':');
    for (guint k = 2; k < 5; k++)
      if (*table_cell(t, i, c[k])) {
        g_string_append(out, k == 4 ? " on " : " ");
        hr_text(out, table_cell(t, i, c[k]));
      }
    g_string_append_printf(out, "</td><td>%.0f</td><td>", table_number(t, i, c[5]));
    svg_money(out, table_number(t, i, c[6]));
    g_string_append(out, "</td><td>");
    figures_format(out, FIGURE_FRACTION, table_number(t, i, c[7]));
    g_string_append(out, "</td><td>");
    figures_format(out, FIGURE_SECONDS, table_number(t, i, c[8]));
    g_string_append(out, "</td><td>");
    g_string_append(out, table_number(t, i, c[10]) == 1 ? "recommended"
                         : table_number(t, i, c[9]) == 1 ? "meets all" : "breaks some");
    g_string_append(out, "</td></tr>\n");
  }
  g_string_append(out, "</table>\n");
  if (left)
    g_string_append_printf(out, "<p class=\"muted\">%u more set-up%s on these fronts (past %u "
                                "per class and front) are in pareto.csv.</p>\n",
                           left, left == 1 ? "" : "s", HR_MAX_FRONT);
}

/* A value with the seeds' +/- half-width and the model range [lo, hi] when they are known
 * and move it. */
static void hr_value_range(GString *out, figure_unit unit, double v, double half, double lo,
                           double hi) {
  if (unit == FIGURE_MONEY) svg_money(out, v);
  else if (unit == FIGURE_COUNT) svg_thousands(out, v);
  else figures_format(out, unit, v);
  if (isfinite(half) && half > 1e-9 * fabs(v)) {
    g_string_append(out, " &#177; ");
    if (unit == FIGURE_MONEY) svg_money(out, half);
    else figures_format(out, unit == FIGURE_COUNT ? FIGURE_NUMBER : unit, half);
  }
  if (isfinite(lo) && isfinite(hi) && hi - lo > 1e-9 * fabs(v)) {
    g_string_append(out, " [");
    figures_format(out, unit, lo);
    g_string_append(out, ", ");
    figures_format(out, unit, hi);
    g_string_append(out, "]");
  }
}

/* A cell: the value, then the seeds' +/- half-width and the model range of key when known. */
static void hr_value(GString *out, const hr_run *r, const char *key, figure_unit unit,
                     double v, double half) {
  double lo = NAN, hi = NAN;
  if (!key || !hr_range(r, key, &lo, &hi)) lo = hi = NAN;
  hr_value_range(out, unit, v, half, lo, hi);
}

/* The run's own figure at key, its seed half-width and its model range. */
static void hr_value_of(GString *out, const hr_run *r, const char *key, figure_unit unit) {
  hr_value(out, r, key, unit, hr_fig(r, key), hr_half(r, key));
}

static void hr_row_start(GString *out, const char *label) {
  g_string_append(out, "<tr><td>");
  g_string_append(out, label);
  g_string_append(out, "</td>");
}

/* A row of a figure read from summary.json, per set-up; with key2 "v / v2". */
static void hr_row_fig(GString *out, hr_run *const *runs, guint n, guint pick, const char *label,
                       const char *key, const char *key2, figure_unit unit) {
  hr_row_start(out, label);
  for (guint i = 0; i < n; i++) {
    g_string_append(out, i == pick ? "<td class=\"pick\">" : "<td>");
    hr_value_of(out, runs[i], key, unit);
    if (key2) {
      g_string_append(out, " / ");
      hr_value_of(out, runs[i], key2, unit);
    }
    g_string_append(out, "</td>");
  }
  g_string_append(out, "</tr>\n");
}

/* GPUs per set-up; sized to constraints, beside the count its scenario typed. */
static void hr_row_gpus(GString *out, hr_run *const *runs, guint n, guint pick) {
  hr_row_start(out, "GPUs");
  for (guint i = 0; i < n; i++) {
    g_string_append(out, i == pick ? "<td class=\"pick\">" : "<td>");
    hr_value_of(out, runs[i], "gpus", FIGURE_COUNT);
    if (runs[i]->sized_to && isfinite(runs[i]->typed_gpus))
      g_string_append_printf(out, " (sized; typed %.0f)", runs[i]->typed_gpus);
    g_string_append(out, "</td>");
  }
  g_string_append(out, "</tr>\n");
}

/* The money rows: per month and year (730 h), the saving against the baseline. */
static void hr_rows_money(GString *out, hr_run *const *runs, guint n, guint pick) {
  static const char *const label[] = {"cost a month", "cost a year", "saving a month"};
  for (guint k = 0; k < (n > 1 ? 3u : 2u); k++) {
    hr_row_start(out, label[k]);
    for (guint i = 0; i < n; i++) {
      double m = hr_month(runs[i]), v = k == 1 ? 12 * m : k == 2 ? hr_month(runs[0]) - m : m;
      g_string_append(out, i == pick ? "<td class=\"pick\">" : "<td>");
      if (k == 2 && i == 0) v = NAN;
      hr_value(out, runs[i], NULL, FIGURE_MONEY, v,
               k == 2 ? NAN : (k == 1 ? 12 : 1) * hr_month_half(runs[i]));
      if (k == 2 && i > 0 && hr_month(runs[0]) > 0)
        g_string_append_printf(out, " (%.0f %%)", 100 * v / hr_month(runs[0]));
      g_string_append(out, "</td>");
    }
    g_string_append(out, "</tr>\n");
  }
}

/* One row per class: mean and p95 slowdown. */
static void hr_rows_classes(GString *out, hr_run *const *runs, guint n, guint pick) {
  g_autoptr(GPtrArray) kinds = g_ptr_array_new();
  for (guint i = 0; i < n; i++)
    for (guint k = 0; runs[i]->classes && k < runs[i]->classes->len; k++) {
      const char *kind = g_array_index(runs[i]->classes, hr_class, k).kind;
      gboolean seen = FALSE;
      for (guint j = 0; j < kinds->len && !seen; j++) seen = !strcmp(kinds->pdata[j], kind);
      if (!seen) g_ptr_array_add(kinds, (gpointer)kind);
    }
  for (guint k = 0; k < kinds->len; k++) {
    g_autoptr(GString) label = g_string_new("slowdown of ");
    hr_text(label, kinds->pdata[k]);
    g_string_append(label, ", mean / p95");
    hr_row_start(out, label->str);
    for (guint i = 0; i < n; i++) {
      const hr_class *c = hr_class_of(runs[i], kinds->pdata[k]);
      g_string_append(out, i == pick ? "<td class=\"pick\">" : "<td>");
      if (c) {
        hr_value_range(out, FIGURE_RATIO, c->mean, c->mean_half, c->mean_lo, c->mean_hi);
        g_string_append(out, " / ");
        hr_value_range(out, FIGURE_RATIO, c->p95, c->p95_half, c->p95_lo, c->p95_hi);
      } else {
        g_string_append(out, "-");
      }
      g_string_append(out, "</td>");
    }
    g_string_append(out, "</tr>\n");
  }
}

/* One pair of tenants of the blast radius across tenants: victims over the seeds. */
typedef struct hr_pair {
  const char *from, *to; /* borrowed from the runs' figures */
  double n;
} hr_pair;

static gint hr_pair_cmp(gconstpointer a, gconstpointer b) {
  const hr_pair *x = a, *y = b;
  if (x->n != y->n) return x->n > y->n ? -1 : 1;
  int c = strcmp(x->from, y->from);
  return c ? c : strcmp(x->to, y->to);
}

/* The pairs of the blast radius across tenants (summary.json's blast_radius, every kind),
 * summed over r's runs (its seeds, or its one run); *runs receives how many. NULL when a
 * run's summary has no blast radius (a folder of an older sharesim). */
static GArray *hr_pairs(const hr_run *r, guint *runs) {
  *runs = r->seed_runs ? r->seed_runs->len : 1;
  GArray *pairs = g_array_new(FALSE, FALSE, sizeof(hr_pair));
  for (guint s = 0; s < *runs; s++) {
    const run_figures *f = r->seed_runs ? g_ptr_array_index(r->seed_runs, s) : r->f;
    if (!f->blast_known) return g_array_free(pairs, TRUE), NULL;
    for (guint i = 0; i < f->blast->len; i++) {
      const figure_blast *b = &g_array_index(f->blast, figure_blast, i);
      if (!strcmp(b->from, b->to) || !strcmp(b->from, "-")) continue;
      double v = (isfinite(b->died) ? b->died : 0) + (isfinite(b->stalled) ? b->stalled : 0) +
                 (isfinite(b->evicted) ? b->evicted : 0);
      guint k = 0;
      while (k < pairs->len && (strcmp(g_array_index(pairs, hr_pair, k).from, b->from) ||
                                strcmp(g_array_index(pairs, hr_pair, k).to, b->to)))
        k++;
      if (k == pairs->len) g_array_append_val(pairs, ((hr_pair){b->from, b->to, 0}));
      g_array_index(pairs, hr_pair, k).n += v;
    }
  }
  g_array_sort(pairs, hr_pair_cmp);
  return pairs;
}

/* The blast radius across tenants by pair: most victims first (the mean over seeds), at
 * most HR_BLAST_PAIRS, then how many more; "none", or "not recorded". */
#define HR_BLAST_PAIRS 3
static void hr_blast_cell(GString *out, const hr_run *r) {
  guint runs;
  GArray *pairs = hr_pairs(r, &runs);
  if (!pairs || !pairs->len) g_string_append(out, pairs ? "none" : "not recorded");
  for (guint i = 0; pairs && i < MIN(pairs->len, HR_BLAST_PAIRS); i++) {
    const hr_pair *p = &g_array_index(pairs, hr_pair, i);
    if (i) g_string_append(out, "; ");
    hr_text(out, p->from);
    g_string_append(out, " &rarr; ");
    hr_text(out, p->to);
    g_string_append_c(out, ' ');
    figures_format(out, FIGURE_NUMBER, p->n / runs);
  }
  if (pairs && pairs->len > HR_BLAST_PAIRS)
    g_string_append_printf(out, "; %u more pair%s", pairs->len - HR_BLAST_PAIRS,
                           pairs->len - HR_BLAST_PAIRS == 1 ? "" : "s");
  if (pairs) g_array_free(pairs, TRUE);
}

/* SLO attainment (all requests, the worst service) and the blast radius. */
static void hr_rows_faults(GString *out, hr_run *const *runs, guint n, guint pick) {
  hr_row_start(out, "requests within SLO (worst service), services missing it");
  for (guint i = 0; i < n; i++) {
    g_string_append(out, i == pick ? "<td class=\"pick\">" : "<td>");
    if (!isfinite(hr_fig(runs[i], "slo:attainment_pct"))) {
      g_string_append(out, "no SLO</td>");
      continue;
    }
    hr_value_of(out, runs[i], "slo:attainment_pct", FIGURE_PERCENT);
    g_string_append(out, " (");
    figures_format(out, FIGURE_FRACTION, hr_fig(runs[i], "services:min_attainment"));
    g_string_append(out, "), ");
    hr_value_of(out, runs[i], "slo:missed", FIGURE_COUNT);
    g_string_append(out, "</td>");
  }
  g_string_append(out, "</tr>\n");
  hr_row_fig(out, runs, n, pick, "OOM kills / innocent victims (killed for another's fault)",
             "oom_kills", "innocent_victims", FIGURE_COUNT);
  hr_row_start(out, "blast radius: most jobs (tenants) one fault killed");
  for (guint i = 0; i < n; i++) {
    g_string_append(out, i == pick ? "<td class=\"pick\">" : "<td>");
    if (runs[i]->blast_jobs > 0) {
      hr_value_range(out, FIGURE_NUMBER, runs[i]->blast_jobs, runs[i]->blast_half,
                     runs[i]->blast_lo, runs[i]->blast_hi);
      g_string_append_printf(out, " (%.3g)", runs[i]->blast_tenants);
    } else {
      g_string_append(out, "none");
    }
    g_string_append(out, "</td>");
  }
  g_string_append(out, "</tr>\n");
  hr_row_start(out, "blast radius across tenants: jobs killed or evicted, source &rarr; victim");
  for (guint i = 0; i < n; i++) {
    g_string_append(out, i == pick ? "<td class=\"pick\">" : "<td>");
    hr_blast_cell(out, runs[i]);
    g_string_append(out, "</td>");
  }
  g_string_append(out, "</tr>\n");
}

static void hr_decision(GString *out, hr_run *const *runs, guint n, guint pick) {
  g_string_append(out, "<h2>What each set-up costs, and what it breaks</h2>\n<table><tr><th>"
                       "</th>");
  for (guint i = 0; i < n; i++) {
    g_string_append(out, i == pick ? "<th class=\"pick\">" : "<th>");
    hr_text(out, runs[i]->label);
    g_string_append(out, "</th>");
  }
  g_string_append(out, "</tr>\n");
  hr_row_gpus(out, runs, n, pick);
  hr_rows_money(out, runs, n, pick);
  hr_row_fig(out, runs, n, pick, "GPUs busy / allocated", "busy_frac", "allocated_frac",
             FIGURE_FRACTION);
  hr_rows_classes(out, runs, n, pick);
  hr_rows_faults(out, runs, n, pick);
  hr_row_fig(out, runs, n, pick, "queue wait p95", "wait_p95_s", NULL, FIGURE_SECONDS);
  hr_row_fig(out, runs, n, pick, "jobs never placed", "unplaceable", NULL, FIGURE_COUNT);
  gboolean lost = FALSE;
  for (guint i = 0; i < n; i++) lost |= hr_fig(runs[i], "work_lost_gpu_h") > 0;
  if (lost)
    hr_row_fig(out, runs, n, pick, "work lost", "work_lost_gpu_h", NULL, FIGURE_GPU_HOURS);
  g_string_append(out, "</table>\n");
  gboolean seeds = FALSE, ranges = FALSE;
  for (guint i = 0; i < n; i++) seeds |= runs[i]->seed_runs && runs[i]->seed_runs->len > 1;
  for (guint i = 0; i < n; i++) ranges |= runs[i]->model_range != NULL;
  if (seeds || ranges)
    g_string_append_printf(out, "<p class=\"muted\">%s%s%s</p>\n",
                           seeds ? "&#177;: half-width of the 95 % interval of the mean over "
                                   "the seeds." : "",
                           seeds && ranges ? " " : "",
                           ranges ? "[low, high]: the lowest and highest value with one "
                                    "model constant at an end of its interval (run "
                                    "--model-range), shown where a constant moves it." : "");
}

/* Busy share over time, one line per set-up; and cost per month split into busy,
 * allocated but not busy, and idle (unallocated). */
static void hr_charts(GString *out, hr_run *const *runs, guint n) {
  g_string_append(out, "<h2>Utilisation and idle spend</h2>\n");
  svg_series *s = g_new0(svg_series, n);
  for (guint i = 0; i < n; i++)
    s[i] = (svg_series){runs[i]->label, svg_colour(i), FALSE, (double *)runs[i]->t->data,
                        (double *)runs[i]->busy->data, runs[i]->t->len};
  svg_line_chart c = {.title = "Share of GPUs busy over time", .y_label = "% of GPUs busy",
                      .y_max = 100, .width = 760, .height = 120 + 18 * ((n + 1) / 2),
                      .start_unix = isfinite(runs[0]->f->start_unix) ? runs[0]->f->start_unix : -1};
  svg_line(out, &c, s, n);
  g_free(s);
  double *vals = g_new0(double, 3 * (gsize)n);
  svg_bar *bars = g_new0(svg_bar, n);
  for (guint i = 0; i < n; i++) {
    double m = hr_month(runs[i]), scale = m / hr_fig(runs[i], "cost");
    double idle = scale * hr_fig(runs[i], "idle_cost"), busy = m * hr_fig(runs[i], "busy_frac");
    vals[3 * i] = busy;
    vals[3 * i + 1] = m - idle - busy;
    vals[3 * i + 2] = idle;
    bars[i] = (svg_bar){runs[i]->label, vals + 3 * i};
  }
  static const char *const names[] = {"busy", "allocated, not busy", "idle (not allocated)"};
  static const char *const colours[] = {"#1f77b4", "#9ecae1", "#d9d9d9"};
  svg_bars(out, "Cost a month: busy, allocated and idle", bars, n, names, colours, 3, TRUE, NULL);
  g_free(bars);
  g_free(vals);
}

#define HR_SHOWBACK_TENANTS 6 /* tenants named in the showback; the others are summed */

/* The tenants of the set-ups, in order of first appearance (tenants.csv's order). */
static GPtrArray *hr_tenant_names(hr_run *const *runs, guint n) {
  GPtrArray *names = g_ptr_array_new();
  for (guint i = 0; i < n; i++) {
    const table *t = runs[i]->tenants;
    int cn = t ? table_column(t, "tenant") : -1;
    for (guint k = 0; t && k < t->rows->len; k++) {
      const char *nm = table_cell(t, k, cn);
      gboolean seen = FALSE;
      for (guint j = 0; j < names->len && !seen; j++) seen = !strcmp(names->pdata[j], nm);
      if (!seen) g_ptr_array_add(names, (gpointer)nm);
    }
  }
  return names;
}

/* The share of r's cost charged to tenant name (NULL: every tenant not among the first
 * HR_SHOWBACK_TENANTS of names; "": none, the idle capacity). */
static double hr_share(const hr_run *r, const GPtrArray *names, const char *name) {
  const table *t = r->tenants;
  int cn = t ? table_column(t, "tenant") : -1, cc = t ? table_column(t, "cost") : -1;
  double total = hr_fig(r, "cost"), sum = 0, named = 0;
  for (guint k = 0; t && k < t->rows->len; k++) {
    const char *nm = table_cell(t, k, cn);
    double c = table_number(t, k, cc);
    if (!isfinite(c)) continue;
    gboolean top = FALSE;
    for (guint j = 0; j < MIN(names->len, HR_SHOWBACK_TENANTS) && !top; j++)
      top = !strcmp(names->pdata[j], nm);
    if (name && *name && !strcmp(nm, name)) named += c;
    if (!name && !top) named += c;
    sum += c;
  }
  return 100 * (name && !*name ? total - sum : named) / total;
}

/* Showback: one row per set-up, each tenant's share of its cost; the capacity no tenant
 * was charged for is its own column, so that a row adds up to 100 %. */
static void hr_showback(GString *out, hr_run *const *runs, guint n) {
  g_autoptr(GPtrArray) names = hr_tenant_names(runs, n);
  guint shown = MIN(names->len, HR_SHOWBACK_TENANTS);
  g_string_append(out, "<h2>Showback: each tenant's share of the cost</h2>\n<table><tr><th>"
                       "</th>");
  for (guint k = 0; k < shown; k++) {
    g_string_append(out, "<th>");
    hr_text(out, names->pdata[k]);
    g_string_append(out, "</th>");
  }
  if (names->len > shown)
    g_string_append_printf(out, "<th>%u other tenants</th>", names->len - shown);
  g_string_append(out, "<th>idle (no tenant)</th></tr>\n");
  for (guint i = 0; i < n; i++) {
    g_string_append(out, "<tr><td>");
    hr_text(out, runs[i]->label);
    g_string_append(out, "</td>");
    for (guint k = 0; k < shown; k++)
      g_string_append_printf(out, "<td>%.1f %%</td>", hr_share(runs[i], names, names->pdata[k]));
    if (names->len > shown)
      g_string_append_printf(out, "<td>%.1f %%</td>", hr_share(runs[i], names, NULL));
    g_string_append_printf(out, "<td>%.1f %%</td></tr>\n", hr_share(runs[i], names, ""));
  }
  g_string_append(out, "</table>\n");
}

/* The prices of the set-ups' GPU models, each once, and where they come from: the
 * catalogue's default (docs/catalog.md) or the scenario. */
static void hr_prices(GString *out, hr_run *const *runs, guint n) {
  g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  g_string_append(out, "<p class=\"muted\">Prices:");
  for (guint i = 0; i < n; i++) {
    const table *t = runs[i]->pools;
    int cg = t ? table_column(t, "gpu") : -1, cr = t ? table_column(t, "price_per_gpu_hour") : -1;
    for (guint k = 0; t && k < t->rows->len; k++) {
      const char *gpu = table_cell(t, k, cg);
      double price = table_number(t, k, cr);
      char *key = g_strdup_printf("%s|%.4f", gpu, price);
      if (!g_hash_table_add(seen, key)) continue;
      const gpu_model *m = catalog_find(gpu);
      g_string_append(out, g_hash_table_size(seen) > 1 ? "; " : " ");
      hr_text(out, gpu);
      g_string_append_printf(out, " $%.2f per GPU-hour (%s)", price,
                             m && fabs(m->price_per_gpu_hour - price) < 0.005
                                 ? "the catalogue's on-demand list price, docs/catalog.md"
                                 : "set by the scenario");
    }
  }
  g_string_append(out, ".</p>\n");
}

/* A set-up's pools in a few words: "train 16 A100-80GB exclusive". */
static void hr_pools(GString *out, const hr_run *r) {
  const table *t = r->pools;
  int cp = t ? table_column(t, "pool") : -1, cg = t ? table_column(t, "gpu") : -1;
  int cn = t ? table_column(t, "gpus") : -1, cs = t ? table_column(t, "strategy") : -1;
  for (guint i = 0; t && i < t->rows->len; i++) {
    g_string_append(out, i ? ", " : " Pools: ");
    hr_text(out, table_cell(t, i, cp));
    g_string_append_c(out, ' ');
    hr_text(out, table_cell(t, i, cn));
    g_string_append_c(out, ' ');
    hr_text(out, table_cell(t, i, cg));
    g_string_append_c(out, ' ');
    hr_text(out, table_cell(t, i, cs));
  }
}

/* The trace's name and SHA-256 (first 16 hex digits). */
static void hr_trace(GString *out, const hr_run *r) {
  g_autofree char *base = g_path_get_basename(r->f->trace_file);
  g_string_append(out, "trace ");
  hr_text(out, *r->f->trace_file ? base : "-");
  g_string_append_printf(out, " (%.16s)", r->trace_hash ? r->trace_hash : "not found");
}

/* Version, prices and per set-up its folder, the SHA-256 of what was read, its seed(s),
 * scenario, trace (once when every set-up ran the same one) and pools. */
static void hr_footer(GString *out, hr_run *const *runs, guint n) {
  gboolean one_trace = TRUE;
  for (guint i = 1; i < n; i++)
    one_trace &= runs[i]->trace_hash && runs[0]->trace_hash &&
                 !strcmp(runs[i]->trace_hash, runs[0]->trace_hash);
  g_string_append(out, "<h2>Inputs</h2>\n<p class=\"muted\">Made by sharesim " PACKAGE_VERSION
                       " (sharesim report) from the folders below; SHA-256 in brackets (first "
                       "16 hex digits)");
  if (one_trace) {
    g_string_append(out, "; every set-up ran ");
    hr_trace(out, runs[0]);
  }
  g_string_append(out, ".</p>\n");
  hr_prices(out, runs, n);
  g_string_append(out, "<ul class=\"muted\">\n");
  for (guint i = 0; i < n; i++) {
    const hr_run *r = runs[i];
    g_autofree char *scen = g_path_get_basename(r->f->scenario_file);
    g_string_append(out, "<li><b>");
    hr_text(out, r->label);
    g_string_append(out, "</b>: ");
    hr_text(out, r->seed_runs ? r->f->dir : r->dir);
    g_string_append_printf(out, "/%s (%.16s), ", r->seed_runs ? "seeds.json" : "summary.json",
                           r->hash ? r->hash : "unreadable");
    if (r->seed_runs)
      g_string_append_printf(out, "%u seeds from %" G_GUINT64_FORMAT, r->seed_runs->len,
                             r->f->seed);
    else
      g_string_append_printf(out, "seed %" G_GUINT64_FORMAT, r->f->seed);
    g_string_append(out, ", scenario ");
    hr_text(out, *r->f->scenario_file ? scen : "-");
    if (!one_trace) {
      g_string_append(out, ", ");
      hr_trace(out, r);
    }
    g_string_append_c(out, '.');
    hr_pools(out, r);
    g_string_append(out, ".</li>\n");
  }
  g_string_append(out, "</ul>\n");
}

/* More set-ups than one page holds: the HR_MAX_SHOWN best (hr_rank) into shown, in their
 * order, *pick remapped; a line naming how many others and where they are appended to why. */
static guint hr_choose_shown(hr_run *const *r, guint m, guint *pick, hr_run **shown,
                             GString *why) {
  if (m <= HR_MAX_SHOWN) {
    for (guint i = 0; i < m; i++) shown[i] = r[i];
    return m;
  }
  g_autofree guint *order = hr_rank(r, m, *pick);
  guint p = G_MAXUINT;
  for (guint k = 0; k < HR_MAX_SHOWN; k++) {
    shown[k] = r[order[k]];
    if (order[k] == *pick) p = k;
  }
  *pick = p;
  g_string_append_printf(why, "<p class=\"muted\">Shown: %u of %u set-ups, the baseline, the "
                         "recommended one and the next best (breaking nothing more than the "
                         "baseline, cheapest first, then the others, cheapest first). The %u "
                         "others: ", HR_MAX_SHOWN, m, m - HR_MAX_SHOWN);
  for (guint k = HR_MAX_SHOWN; k < m; k++) {
    if (k > HR_MAX_SHOWN + 7) {
      g_string_append_printf(why, " and %u more", m - k);
      break;
    }
    if (k > HR_MAX_SHOWN) g_string_append(why, ", ");
    hr_text(why, r[order[k]]->label);
  }
  const hr_run *o = r[order[HR_MAX_SHOWN]];
  g_autofree char *where = g_path_get_dirname(o->seed_runs ? o->f->dir : o->dir);
  g_autofree char *up = g_path_get_dirname(where), *sweep = g_build_filename(up, "sweep.csv", NULL);
  g_autofree char *cmp = g_build_filename(where, "compare.csv", NULL);
  const char *all = g_file_test(sweep, G_FILE_TEST_IS_REGULAR) ? sweep
                    : g_file_test(cmp, G_FILE_TEST_IS_REGULAR) ? cmp : NULL;
  g_string_append(why, "; their folders are in ");
  hr_text(why, where);
  if (all) {
    g_string_append(why, ", every one's figures in ");
    hr_text(why, all);
  }
  g_string_append(why, ".</p>\n");
  return HR_MAX_SHOWN;
}

gboolean htmlreport_build(const char *const *dirs, guint n, GString *out, GError **error) {
  g_return_val_if_fail(n > 0, FALSE);
  GPtrArray *runs = g_ptr_array_new_with_free_func((GDestroyNotify)hr_run_free);
  hr_plan *plan = NULL;
  gboolean ok = TRUE;
  for (guint i = 0; i < n && ok; i++) ok = hr_load_dir(dirs[i], runs, &plan, error);
  if (ok && runs->len == 0) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT, "no finished run in the folders given");
    ok = FALSE;
  }
  if (ok) {
    hr_unique_labels(runs);
    g_autoptr(GString) why = g_string_new(NULL);
    guint pick = hr_decide((hr_run *const *)runs->pdata, runs->len, why);
    hr_decide_range((hr_run *const *)runs->pdata, runs->len, pick, why);
    hr_run **shown = g_new0(hr_run *, MIN(runs->len, HR_MAX_SHOWN));
    guint m = hr_choose_shown((hr_run *const *)runs->pdata, runs->len, &pick, shown, why);
    hr_run *const *r = shown;
    hr_head(out, r, m);
    hr_title(out, r, m);
    if (plan) hr_plan_rec(out, plan);
    else g_string_append(out, why->str);
    hr_decision(out, r, m, plan ? G_MAXUINT : pick);
    if (plan) hr_plan_pareto(out, plan);
    hr_charts(out, r, m);
    hr_showback(out, r, m);
    hr_footer(out, r, m);
    g_string_append(out, "</body></html>\n");
    g_free(shown);
  }
  hr_plan_free(plan);
  g_ptr_array_unref(runs);
  return ok;
}
