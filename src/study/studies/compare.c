/* compare.c: building and printing the comparison of several runs (sharesim compare):
 * the union of their figures in section order, values, differences to the baseline and
 * the saving in money. It reads figures only (figures.h); running the scenarios and
 * writing the folder are cmd-compare.c's. */
#include "compare.h"
#include "seeds.h"
#include "report.h"
#include "util.h"
#include "jsonlimit.h"
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

static void compare_row_clear(gpointer p) {
  compare_row *r = p;
  g_free(r->key);
  g_free(r->label);
}

GArray *compare_rows_new(void) {
  GArray *rows = g_array_new(FALSE, TRUE, sizeof(compare_row));
  g_array_set_clear_func(rows, compare_row_clear);
  return rows;
}

typedef struct compare_seen {
  const figure *fig;
  guint first;    /* order of first appearance over all runs */
} compare_seen;

/* Known figures (fixed order below 100) first, in that order; pool figures, tenants and
 * figures added by later models in order of first appearance over the runs. */
static guint compare_rank(const figure *fig) {
  return fig->section != FIGURE_SECTION_POOLS && fig->order < 100 ? fig->order : G_MAXUINT;
}

static gint compare_seen_cmp(gconstpointer a, gconstpointer b) {
  const compare_seen *x = a, *y = b;
  if (x->fig->section != y->fig->section) return x->fig->section < y->fig->section ? -1 : 1;
  guint rx = compare_rank(x->fig), ry = compare_rank(y->fig);
  if (rx != ry) return rx < ry ? -1 : 1;
  if (x->first != y->first) return x->first < y->first ? -1 : 1;
  return 0;
}

static char *compare_unique_name(GPtrArray *names, const run_figures *f, guint index) {
  const char *name = *f->scenario ? f->scenario : "scenario";
  gboolean taken = FALSE;
  for (guint i = 0; i < names->len; i++) taken |= !strcmp(g_ptr_array_index(names, i), name);
  if (!taken) return figures_clean_text(name);
  g_autofree char *base = g_path_get_basename(f->dir);
  g_autofree char *clean_base = figures_clean_text(base);
  g_autofree char *alt = g_strdup_printf("%s (%s)", name, clean_base);
  taken = FALSE;
  for (guint i = 0; i < names->len; i++) taken |= !strcmp(g_ptr_array_index(names, i), alt);
  if (!taken) return figures_clean_text(alt);
  return g_strdup_printf("%s #%u", alt, index + 1);
}

void compare_union_rows(const GPtrArray *runs, GArray *rows) {
  /* first appearance wins */
  GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
  GArray *order = g_array_new(FALSE, FALSE, sizeof(compare_seen));
  for (guint i = 0; i < runs->len; i++) {
    const run_figures *f = g_ptr_array_index(runs, i);
    for (guint k = 0; k < f->figures->len; k++) {
      const figure *fig = &g_array_index(f->figures, figure, k);
      if (g_hash_table_contains(seen, fig->key)) continue;
      g_hash_table_add(seen, fig->key);
      compare_seen s = {fig, order->len};
      g_array_append_val(order, s);
    }
  }
  g_array_sort(order, compare_seen_cmp);
  for (guint k = 0; k < order->len; k++) {
    const figure *fig = g_array_index(order, compare_seen, k).fig;
    compare_row row = {
      .key = g_strdup(fig->key), .label = g_strdup(fig->label), .unit = fig->unit,
      .section = fig->section, .detail = fig->detail,
    };
    g_array_append_val(rows, row);
  }
  g_array_free(order, TRUE);
  g_hash_table_destroy(seen);
}

compare_table *compare_build(GPtrArray *runs) {
  g_return_val_if_fail(runs != NULL && runs->len > 0, NULL);
  compare_table *t = g_new0(compare_table, 1);
  t->runs = runs;
  t->names = g_ptr_array_new_with_free_func(g_free);
  t->rows = compare_rows_new();

  run_figures *base = g_ptr_array_index(runs, 0);
  figures_add_rates(base);
  double base_cost = figures_value(base, "cost"), base_day = figures_value(base, "cost_per_day");
  for (guint i = 0; i < runs->len; i++) {
    run_figures *f = g_ptr_array_index(runs, i);
    g_ptr_array_add(t->names, compare_unique_name(t->names, f, i));
    if (i) figures_add_rates(f);
    double cost = figures_value(f, "cost"), day = figures_value(f, "cost_per_day");
    if (!isnan(base_cost) && !isnan(cost)) {
      figures_set(f, "saving", base_cost - cost);
      figures_set(f, "saving_frac", base_cost != 0 ? (base_cost - cost) / base_cost : NAN);
    }
    if (isfinite(base_day) && isfinite(day)) figures_set(f, "saving_per_day", base_day - day);
    figures_sort(f);
  }
  t->spans_differ = figures_spans_differ((const run_figures *const *)runs->pdata,
                                         (const char *const *)t->names->pdata, runs->len, NULL);

  compare_union_rows(runs, t->rows);
  return t;
}

/* Each seed's saving against the baseline's mean cost (and per day). */
static void compare_seed_savings(GPtrArray *groups) {
  const seeds_table *g0 = g_ptr_array_index(groups, 0);
  seeds_stat cost, day;
  seeds_stat_key(g0->runs, "cost", &cost);
  seeds_stat_key(g0->runs, "cost_per_day", &day);
  for (guint g = 0; g < groups->len; g++) {
    const seeds_table *st = g_ptr_array_index(groups, g);
    for (guint k = 0; k < st->runs->len; k++) {
      run_figures *f = g_ptr_array_index(st->runs, k);
      double c = figures_value(f, "cost"), d = figures_value(f, "cost_per_day");
      if (isfinite(cost.mean) && isfinite(c)) {
        figures_set(f, "saving", cost.mean - c);
        figures_set(f, "saving_frac", cost.mean != 0 ? (cost.mean - c) / cost.mean : NAN);
      }
      if (isfinite(day.mean) && isfinite(d)) figures_set(f, "saving_per_day", day.mean - d);
    }
  }
}

compare_table *compare_build_seeds(GPtrArray *groups, const char *const *folders) {
  g_return_val_if_fail(groups != NULL && groups->len > 0, NULL);
  compare_seed_savings(groups);
  GPtrArray *means = g_ptr_array_new();
  for (guint g = 0; g < groups->len; g++) {
    const seeds_table *st = g_ptr_array_index(groups, g);
    g_ptr_array_add(means, seeds_mean(st->runs, folders[g]));
  }
  compare_table *t = compare_build(means);
  t->groups = groups;
  g_ptr_array_set_free_func(groups, (GDestroyNotify)seeds_free);
  return t;
}

static void compare_seed_stat(const compare_table *t, guint r, guint i, seeds_stat *s) {
  const seeds_table *st = g_ptr_array_index(t->groups, i);
  seeds_stat_key(st->runs, g_array_index(t->rows, compare_row, r).key, s);
}

double compare_half_width(const compare_table *t, guint r, guint i) {
  if (!t->groups) return NAN;
  seeds_stat s;
  compare_seed_stat(t, r, i, &s);
  return s.half;
}

gboolean compare_significant(const compare_table *t, guint r, guint i, double *lo, double *hi) {
  if (lo) *lo = NAN;
  if (hi) *hi = NAN;
  if (!t->groups || i == 0) return FALSE;
  seeds_stat a, b;
  compare_seed_stat(t, r, 0, &a);
  compare_seed_stat(t, r, i, &b);
  return seeds_welch(&a, &b, lo, hi);
}

void compare_free(compare_table *t) {
  if (!t) return;
  if (t->groups) g_ptr_array_free(t->groups, TRUE);
  g_ptr_array_set_free_func(t->runs, (GDestroyNotify)figures_free);
  g_ptr_array_free(t->runs, TRUE);
  g_ptr_array_free(t->names, TRUE);
  g_array_free(t->rows, TRUE);
  g_free(t);
}

double compare_value(const compare_table *t, guint r, guint i) {
  g_return_val_if_fail(r < t->rows->len && i < t->runs->len, NAN);
  return figures_value(g_ptr_array_index(t->runs, i), g_array_index(t->rows, compare_row, r).key);
}

double compare_delta(const compare_table *t, guint r, guint i) {
  double v = compare_value(t, r, i), b = compare_value(t, r, 0);
  return isfinite(v) && isfinite(b) ? v - b : NAN;
}

int compare_row_index(const compare_table *t, const char *key) {
  for (guint r = 0; r < t->rows->len; r++)
    if (!strcmp(g_array_index(t->rows, compare_row, r).key, key)) return (int)r;
  return -1;
}

/* ---- text ---- */

static gsize compare_width(const char *s) { return (gsize)g_utf8_strlen(s, -1); }

static void compare_pad(GString *out, const char *s, gsize width, gboolean right) {
  gsize w = compare_width(s);
  if (right)
    for (gsize i = w; i < width; i++) g_string_append_c(out, ' ');
  g_string_append(out, s);
  if (!right)
    for (gsize i = w; i < width; i++) g_string_append_c(out, ' ');
}

/* A value: with seeds, the mean and the half-width of its interval ("12.3 +/- 1.2"). */
static char *compare_value_cell(const compare_table *t, guint r, guint i) {
  const compare_row *row = &g_array_index(t->rows, compare_row, r);
  GString *c = g_string_new(NULL);
  double v = compare_value(t, r, i), half = compare_half_width(t, r, i);
  figures_format(c, row->unit, v);
  if (isfinite(v) && isfinite(half) && half > 1e-9 * fabs(v)) {
    g_string_append(c, " +/- ");
    seeds_format_spread(c, row->unit, half, v);
  }
  return g_string_free(c, FALSE);
}

/* A difference: with seeds, " *" when it is significant. */
static char *compare_delta_cell(const compare_table *t, guint r, guint i) {
  const compare_row *row = &g_array_index(t->rows, compare_row, r);
  GString *c = g_string_new(NULL);
  figures_format_delta(c, row->unit, compare_value(t, r, i), compare_value(t, r, 0));
  if (compare_significant(t, r, i, NULL, NULL)) g_string_append(c, " *");
  return g_string_free(c, FALSE);
}

/* The line that says how the seeds were used. */
static void compare_seeds_note(const compare_table *t, GString *out) {
  guint lo = G_MAXUINT, hi = 0;
  for (guint g = 0; g < t->groups->len; g++) {
    guint n = ((const seeds_table *)g_ptr_array_index(t->groups, g))->runs->len;
    lo = MIN(lo, n);
    hi = MAX(hi, n);
  }
  if (lo == hi)
    g_string_append_printf(out, "seeds: %u per run", lo);
  else
    g_string_append_printf(out, "seeds: %u to %u per run", lo, hi);
  g_string_append(out, "; values are means over the seeds +/- the half-width of their 95 % "
                       "interval (Student's t); '*' marks a difference to the baseline that is "
                       "significant (Welch's 95 % interval of the difference excludes 0); a "
                       "difference without '*' is within the seed noise\n");
}

void compare_text(const compare_table *t, gboolean brief, GString *out) {
  guint n = t->runs->len;
  const run_figures *base = g_ptr_array_index(t->runs, 0);
  g_autofree char *trace = g_path_get_basename(*base->trace_file ? base->trace_file : "?");
  g_autofree char *ctrace = figures_clean_text(trace);
  g_string_append_printf(out, "compare: %u run%s on trace %s; differences against the baseline '%s'\n",
                         n, n == 1 ? "" : "s", ctrace, (const char *)g_ptr_array_index(t->names, 0));
  for (guint i = 1; i < n; i++) {
    const run_figures *f = g_ptr_array_index(t->runs, i);
    if (strcmp(f->trace_file, base->trace_file))
      g_string_append_printf(out, "note: '%s' ran on a different trace (%s)\n",
                             (const char *)g_ptr_array_index(t->names, i), f->trace_file);
  }
  if (t->groups) compare_seeds_note(t, out);
  if (t->spans_differ) {
    g_string_append(out, "note: ");
    figures_spans_differ((const run_figures *const *)t->runs->pdata,
                         (const char *const *)t->names->pdata, n, out);
    g_string_append(out, "\n");
  }
  g_string_append_c(out, '\n');

  /* cells: [row][column]; columns: label, value 0, then (value i, delta i) */
  guint cols = 1 + 1 + 2 * (n - 1);
  GPtrArray *cells = g_ptr_array_new_with_free_func(g_free);
  gsize *width = g_new0(gsize, cols);
  GArray *lines = g_array_new(FALSE, FALSE, sizeof(int)); /* row index, or -1 - section */
  figure_section section = FIGURE_SECTION_COUNT;
  /* header */
  g_ptr_array_add(cells, g_strdup(""));
  for (guint i = 0; i < n; i++) {
    g_ptr_array_add(cells, g_strdup(g_ptr_array_index(t->names, i)));
    if (i) g_ptr_array_add(cells, g_strdup("vs baseline"));
  }
  int header = -1000;
  g_array_append_val(lines, header);
  for (guint r = 0; r < t->rows->len; r++) {
    const compare_row *row = &g_array_index(t->rows, compare_row, r);
    if (row->detail) continue;
    if (brief && (row->section == FIGURE_SECTION_POOLS || g_str_has_prefix(row->key, "tenant:")))
      continue;
    if (row->section != section) {
      section = row->section;
      int s = -1 - (int)section;
      g_array_append_val(lines, s);
    }
    int ri = (int)r;
    g_array_append_val(lines, ri);
    g_ptr_array_add(cells, g_strconcat("  ", row->label, NULL));
    for (guint i = 0; i < n; i++) {
      g_ptr_array_add(cells, compare_value_cell(t, r, i));
      if (i) g_ptr_array_add(cells, compare_delta_cell(t, r, i));
    }
  }
  for (guint k = 0; k < cells->len; k++)
    width[k % cols] = MAX(width[k % cols], compare_width(g_ptr_array_index(cells, k)));
  guint row_cells = 0;
  for (guint l = 0; l < lines->len; l++) {
    int what = g_array_index(lines, int, l);
    if (what < 0 && what != -1000) {
      g_string_append(out, figures_section_name((figure_section)(-1 - what)));
      g_string_append_c(out, '\n');
      continue;
    }
    GString *line = g_string_new(NULL);
    for (guint c = 0; c < cols; c++) {
      const char *s = g_ptr_array_index(cells, row_cells * cols + c);
      if (c) g_string_append(line, "  ");
      compare_pad(line, s, width[c], c > 0);
    }
    while (line->len && line->str[line->len - 1] == ' ') g_string_truncate(line, line->len - 1);
    g_string_append(out, line->str);
    g_string_append_c(out, '\n');
    g_string_free(line, TRUE);
    row_cells++;
  }
  g_array_free(lines, TRUE);
  g_free(width);
  g_ptr_array_free(cells, TRUE);
}

/* ---- CSV ---- */

/* With seeds: ci95:NAME (half-width) per run, then per run after the baseline
 * delta_ci95_low:NAME, delta_ci95_high:NAME and significant:NAME (1 or 0). */
static void compare_csv_seeds_header(const compare_table *t, GString *out) {
  static const char *const what[] = {"delta_ci95_low:", "delta_ci95_high:", "significant:"};
  for (guint i = 0; i < t->runs->len; i++) {
    g_autofree char *h = g_strconcat("ci95:", (const char *)g_ptr_array_index(t->names, i), NULL);
    g_string_append_c(out, ',');
    util_csv_field(out, h);
  }
  for (guint i = 1; i < t->runs->len; i++)
    for (guint k = 0; k < G_N_ELEMENTS(what); k++) {
      g_autofree char *h = g_strconcat(what[k], (const char *)g_ptr_array_index(t->names, i), NULL);
      g_string_append_c(out, ',');
      util_csv_field(out, h);
    }
}

static void compare_csv_seeds_row(const compare_table *t, guint r, GString *out) {
  for (guint i = 0; i < t->runs->len; i++) {
    g_string_append_c(out, ',');
    report_num(out, compare_half_width(t, r, i));
  }
  for (guint i = 1; i < t->runs->len; i++) {
    double lo, hi;
    gboolean sig = compare_significant(t, r, i, &lo, &hi);
    g_string_append_c(out, ',');
    report_num(out, lo);
    g_string_append_c(out, ',');
    report_num(out, hi);
    g_string_append_printf(out, ",%s", isfinite(lo) ? (sig ? "1" : "0") : "");
  }
}

/* A figure's first four CSV cells: section, key, figure, unit. */
static void compare_csv_row_head(const compare_row *row, GString *out) {
  util_csv_field(out, figures_section_name(row->section));
  g_string_append_c(out, ',');
  util_csv_field(out, row->key);
  g_string_append_c(out, ',');
  util_csv_field(out, row->label);
  g_string_append_c(out, ',');
  util_csv_field(out, figures_unit_name(row->unit));
}

void compare_csv(const compare_table *t, GString *out) {
  guint n = t->runs->len;
  g_string_append(out, "section,key,figure,unit");
  for (guint i = 0; i < n; i++) {
    g_string_append_c(out, ',');
    util_csv_field(out, g_ptr_array_index(t->names, i));
  }
  for (guint i = 1; i < n; i++) {
    g_autofree char *h = g_strconcat("delta:", (const char *)g_ptr_array_index(t->names, i), NULL);
    g_string_append_c(out, ',');
    util_csv_field(out, h);
  }
  if (t->groups) compare_csv_seeds_header(t, out);
  g_string_append_c(out, '\n');
  for (guint r = 0; r < t->rows->len; r++) {
    const compare_row *row = &g_array_index(t->rows, compare_row, r);
    compare_csv_row_head(row, out);
    for (guint i = 0; i < n; i++) {
      g_string_append_c(out, ',');
      report_num(out, compare_value(t, r, i));
    }
    for (guint i = 1; i < n; i++) {
      g_string_append_c(out, ',');
      report_num(out, compare_delta(t, r, i));
    }
    if (t->groups) compare_csv_seeds_row(t, r, out);
    g_string_append_c(out, '\n');
  }
}

/* One row per run and figure: the run's column name as scenario, its seed (empty with
 * seeds: the row is then the seeds' mean), the figure, its value and its difference to the
 * baseline (empty for the baseline); with seeds, the half-width of the run's interval and
 * the difference's interval and significance. */
void compare_csv_long(const compare_table *t, GString *out) {
  g_string_append(out, "scenario,seed,section,key,figure,unit,value,delta");
  if (t->groups) g_string_append(out, ",ci95,delta_ci95_low,delta_ci95_high,significant");
  g_string_append_c(out, '\n');
  for (guint i = 0; i < t->runs->len; i++)
    for (guint r = 0; r < t->rows->len; r++) {
      const compare_row *row = &g_array_index(t->rows, compare_row, r);
      util_csv_field(out, g_ptr_array_index(t->names, i));
      g_string_append_c(out, ',');
      if (!t->groups) util_append_u64(out, ((const run_figures *)g_ptr_array_index(t->runs, i))->seed);
      g_string_append_c(out, ',');
      compare_csv_row_head(row, out);
      g_string_append_c(out, ',');
      report_num(out, compare_value(t, r, i));
      g_string_append_c(out, ',');
      report_num(out, i ? compare_delta(t, r, i) : NAN);
      if (t->groups) {
        double lo = NAN, hi = NAN;
        gboolean sig = i && compare_significant(t, r, i, &lo, &hi);
        g_string_append_c(out, ',');
        report_num(out, compare_half_width(t, r, i));
        g_string_append_c(out, ',');
        report_num(out, lo);
        g_string_append_c(out, ',');
        report_num(out, hi);
        g_string_append_printf(out, ",%s", i && isfinite(lo) ? (sig ? "1" : "0") : "");
      }
      g_string_append_c(out, '\n');
    }
}

/* ---- JSON ---- */

/* With seeds: "half_widths" per run, "delta_intervals" ([low, high] or null) and
 * "significant" (true, false or null) per run. */
static void compare_json_seeds(const compare_table *t, guint r, GString *out) {
  g_string_append(out, ", \"half_widths\": [");
  for (guint i = 0; i < t->runs->len; i++) {
    if (i) g_string_append(out, ", ");
    figures_json_number(out, compare_half_width(t, r, i));
  }
  GString *sig = g_string_new(NULL);
  g_string_append(out, "], \"delta_intervals\": [");
  for (guint i = 0; i < t->runs->len; i++) {
    double lo, hi;
    gboolean s = compare_significant(t, r, i, &lo, &hi);
    if (i) g_string_append(out, ", ");
    if (i) g_string_append(sig, ", ");
    if (!isfinite(lo)) {
      g_string_append(out, "null");
      g_string_append(sig, "null");
      continue;
    }
    g_string_append_c(out, '[');
    figures_json_number(out, lo);
    g_string_append(out, ", ");
    figures_json_number(out, hi);
    g_string_append_c(out, ']');
    g_string_append(sig, s ? "true" : "false");
  }
  g_string_append_printf(out, "], \"significant\": [%s]", sig->str);
  g_string_free(sig, TRUE);
}

void compare_json(const compare_table *t, GString *out) { compare_json_with(t, NULL, out); }

void compare_json_with(const compare_table *t, const char *members, GString *out) {
  guint n = t->runs->len;
  g_string_append(out, "{\n  \"baseline\": ");
  figures_json_string(out, g_ptr_array_index(t->names, 0));
  g_string_append_printf(out, ",\n  \"spans_differ\": %s", t->spans_differ ? "true" : "false");
  g_string_append(out, ",\n  \"runs\": [");
  for (guint i = 0; i < n; i++) {
    const run_figures *f = g_ptr_array_index(t->runs, i);
    g_string_append(out, i ? ",\n    {" : "\n    {");
    g_string_append(out, "\"name\": ");
    figures_json_string(out, g_ptr_array_index(t->names, i));
    g_string_append(out, ", \"scenario\": ");
    figures_json_string(out, f->scenario);
    g_string_append(out, ", \"folder\": ");
    figures_json_string(out, f->dir);
    g_string_append(out, ", \"scenario_file\": ");
    figures_json_string(out, f->scenario_file);
    g_string_append(out, ", \"trace_file\": ");
    figures_json_string(out, f->trace_file);
    g_string_append_printf(out, ", \"seed\": %" G_GUINT64_FORMAT ", \"span_s\": ", f->seed);
    figures_json_number(out, figures_value(f, "span_s"));
    if (t->groups) {
      const seeds_table *st = g_ptr_array_index(t->groups, i);
      g_string_append(out, ", \"seeds\": ");
      seeds_json_seeds(st->runs, out);
    }
    g_string_append_c(out, '}');
  }
  g_string_append(out, "\n  ],\n  \"figures\": [");
  for (guint r = 0; r < t->rows->len; r++) {
    const compare_row *row = &g_array_index(t->rows, compare_row, r);
    g_string_append(out, r ? ",\n    {" : "\n    {");
    g_string_append(out, "\"key\": ");
    figures_json_string(out, row->key);
    g_string_append(out, ", \"label\": ");
    figures_json_string(out, row->label);
    g_string_append(out, ", \"unit\": ");
    figures_json_string(out, figures_unit_name(row->unit));
    g_string_append(out, ", \"section\": ");
    figures_json_string(out, figures_section_name(row->section));
    g_string_append(out, ", \"values\": [");
    for (guint i = 0; i < n; i++) {
      if (i) g_string_append(out, ", ");
      figures_json_number(out, compare_value(t, r, i));
    }
    g_string_append(out, "], \"deltas\": [");
    for (guint i = 0; i < n; i++) {
      if (i) g_string_append(out, ", ");
      figures_json_number(out, i ? compare_delta(t, r, i) : NAN);
    }
    g_string_append(out, "]");
    if (t->groups) compare_json_seeds(t, r, out);
    g_string_append(out, "}");
  }
  g_string_append(out, "\n  ]");
  if (members && *members) g_string_append_printf(out, ",\n  %s", members);
  g_string_append(out, "\n}\n");
}

/* ---- reading a compare folder back ---- */

/* The runs of an earlier compare folder, from its compare.json ("folder" entries are
 * relative to it when they were written by compare -o). */
gboolean compare_load_dir(const char *dir, GPtrArray *runs, GError **error) {
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func(g_free);
  if (!compare_dir_folders(dir, paths, error)) return FALSE;
  for (guint i = 0; i < paths->len; i++) {
    run_figures *f = figures_load(g_ptr_array_index(paths, i), error);
    if (!f) return FALSE;
    g_ptr_array_add(runs, f);
  }
  return TRUE;
}

gboolean compare_dir_folders(const char *dir, GPtrArray *paths, GError **error) {
  g_autofree char *path = g_build_filename(dir, "compare.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new();
  GError *local = NULL;
  if (!jsonlimit_load_file(parser, path, NULL, NULL, &local)) {
    if (local->domain == SHARESIM_ERROR)
      g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT, "%s", local->message);
    else
      g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT, "%s: %s", path, local->message);
    g_error_free(local);
    return FALSE;
  }
  JsonNode *root = json_parser_get_root(parser);
  JsonObject *o = root && JSON_NODE_HOLDS_OBJECT(root) ? json_node_get_object(root) : NULL;
  JsonNode *list = o ? json_object_get_member(o, "runs") : NULL;
  if (!list || !JSON_NODE_HOLDS_ARRAY(list)) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT, "%s: no \"runs\" list", path);
    return FALSE;
  }
  JsonArray *a = json_node_get_array(list);
  for (guint i = 0; i < json_array_get_length(a); i++) {
    JsonNode *e = json_array_get_element(a, i);
    JsonObject *r = JSON_NODE_HOLDS_OBJECT(e) ? json_node_get_object(e) : NULL;
    JsonNode *fn = r ? json_object_get_member(r, "folder") : NULL;
    const char *folder = fn && JSON_NODE_HOLDS_VALUE(fn) &&
                                 json_node_get_value_type(fn) == G_TYPE_STRING
                             ? json_node_get_string(fn)
                             : NULL;
    if (!folder) {
      g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT, "%s: run %u has no folder", path, i + 1);
      return FALSE;
    }
    g_autofree char *inside = g_build_filename(dir, folder, NULL);
    const char *use = !g_path_is_absolute(folder) && g_file_test(inside, G_FILE_TEST_IS_DIR) ? inside : folder;
    g_ptr_array_add(paths, g_strdup(use));
  }
  return TRUE;
}
