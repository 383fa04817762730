/* modelrange-compare.c: `compare --model-range`: several scenarios' model-range tables
 * (modelrange.h) side by side, as text and as compare-range.csv: each figure's value and
 * [low, high] per scenario, and each scenario's difference to the baseline taken setting by
 * setting (the same constant at the same end in both), so that a ranking that depends on a
 * fitted constant shows ("flips"). Running the scenarios is cmd-modelrange.c's. */
#include "modelrange.h"
#include "compare.h"
#include "report.h"
#include "util.h"
#include <math.h>
#include <string.h>

/* The rows of every table's defaults' run, in the union's order (compare_union_rows). */
static GArray *mrc_rows(modelrange_table *const *t, guint n) {
  GPtrArray *runs = g_ptr_array_new();
  for (guint i = 0; i < n; i++) {
    const seeds_table *base = g_ptr_array_index(t[i]->groups, 0);
    for (guint k = 0; k < base->runs->len; k++) g_ptr_array_add(runs, base->runs->pdata[k]);
  }
  GArray *rows = compare_rows_new();
  compare_union_rows(runs, rows);
  g_ptr_array_free(runs, TRUE);
  return rows;
}

/* The difference of b to the baseline a for key: at the defaults (*d) and the lowest and
 * highest over the settings, run r of b against run r of a (NAN when a run lacks it). */
static void mrc_delta(const modelrange_table *a, const modelrange_table *b, const char *key,
                      double *d, double *lo, double *hi) {
  *d = modelrange_value(b, 0, key) - modelrange_value(a, 0, key);
  *lo = *hi = NAN;
  guint runs = MIN(a->groups->len, b->groups->len);
  for (guint r = 0; r < runs; r++) {
    double v = modelrange_value(b, r, key) - modelrange_value(a, r, key);
    if (!isfinite(v)) continue;
    if (!isfinite(*lo) || v < *lo) *lo = v;
    if (!isfinite(*hi) || v > *hi) *hi = v;
  }
}

static int mrc_sign(double v) { return v > 0 ? 1 : v < 0 ? -1 : 0; }

/* The sign of the difference changes with the settings. */
static gboolean mrc_flips(double lo, double hi) {
  return isfinite(lo) && isfinite(hi) && mrc_sign(lo) != mrc_sign(hi);
}

/* "26.4 % [26.3 %, 26.4 %]", with several seeds "26.4 % +/- 0.2 % [...]"; "-" without it. */
static char *mrc_cell(const modelrange_table *t, const compare_row *row) {
  const seeds_table *base = g_ptr_array_index(t->groups, 0);
  seeds_stat s;
  seeds_stat_key(base->runs, row->key, &s);
  if (!isfinite(s.mean)) return g_strdup("-");
  modelrange_end lo, hi;
  modelrange_ends(t, row->key, &lo, &hi);
  GString *c = g_string_new(NULL);
  figures_format(c, row->unit, s.mean);
  if (base->runs->len > 1 && isfinite(s.half)) {
    g_string_append(c, " +/- ");
    figures_format(c, row->unit, s.half);
  }
  g_string_append(c, " [");
  figures_format(c, row->unit, lo.value);
  g_string_append(c, ", ");
  figures_format(c, row->unit, hi.value);
  g_string_append_c(c, ']');
  return g_string_free(c, FALSE);
}

/* "+1.2 pp [-0.3 pp, +2.0 pp] flips"; "-" when either lacks the figure. */
static char *mrc_delta_cell(const modelrange_table *a, const modelrange_table *b,
                            const compare_row *row) {
  double d, lo, hi;
  mrc_delta(a, b, row->key, &d, &lo, &hi);
  if (!isfinite(d)) return g_strdup("-");
  GString *c = g_string_new(NULL);
  figures_format_delta(c, row->unit, modelrange_value(b, 0, row->key),
                       modelrange_value(a, 0, row->key));
  g_string_append(c, " [");
  figures_format_delta(c, row->unit, lo, 0);
  g_string_append(c, ", ");
  figures_format_delta(c, row->unit, hi, 0);
  g_string_append_c(c, ']');
  if (mrc_flips(lo, hi)) g_string_append(c, " flips");
  return g_string_free(c, FALSE);
}

/* Appends the rows' cells (ncols per line) as aligned lines with section headings. */
static void mrc_lines(const GArray *rows, GPtrArray *cells, guint ncols, GString *out) {
  gsize *width = g_new0(gsize, ncols);
  for (guint k = 0; k < cells->len; k++)
    width[k % ncols] = MAX(width[k % ncols], (gsize)g_utf8_strlen(g_ptr_array_index(cells, k), -1));
  figure_section section = FIGURE_SECTION_COUNT;
  guint shown = 0;
  for (guint line = 0; line * ncols < cells->len; line++) {
    if (line > 0) { /* line k > 0 is the k-th row that is not detail */
      while (g_array_index(rows, compare_row, shown).detail) shown++;
      const compare_row *row = &g_array_index(rows, compare_row, shown++);
      if (row->section != section)
        g_string_append_printf(out, "%s\n", figures_section_name(section = row->section));
    }
    figures_table_line(out, (char **)cells->pdata + line * ncols, width, ncols, 0);
  }
  g_free(width);
}

void modelrange_compare_text(modelrange_table *const *t, const char *const *names, guint n,
                             GString *out) {
  const seeds_table *base = g_ptr_array_index(t[0]->groups, 0);
  g_string_append_printf(out, "\nmodel range (docs/models.md, \"Model uncertainty\"): each "
                         "figure at the models' defaults%s and [lowest, highest] over %u runs "
                         "per scenario, one constant at an end of its interval; vs baseline: "
                         "the difference at the defaults and [lowest, highest] of the "
                         "differences at the same setting, \"flips\" when its sign depends on "
                         "a constant\n", base->runs->len > 1 ? " (mean +/- the seeds' 95 % "
                         "half-width)" : "", t[0]->groups->len);
  GArray *rows = mrc_rows(t, n);
  guint ncols = 1 + n + (n - 1);
  GPtrArray *cells = g_ptr_array_new_with_free_func(g_free);
  g_ptr_array_add(cells, g_strdup(""));
  for (guint i = 0; i < n; i++) g_ptr_array_add(cells, figures_clean_text(names[i]));
  for (guint i = 1; i < n; i++) {
    g_autofree char *clean = figures_clean_text(names[i]);
    g_ptr_array_add(cells, g_strdup_printf("%s vs baseline", clean));
  }
  for (guint r = 0; r < rows->len; r++) {
    const compare_row *row = &g_array_index(rows, compare_row, r);
    if (row->detail) continue;
    g_ptr_array_add(cells, g_strconcat("  ", row->label, NULL));
    for (guint i = 0; i < n; i++) g_ptr_array_add(cells, mrc_cell(t[i], row));
    for (guint i = 1; i < n; i++) g_ptr_array_add(cells, mrc_delta_cell(t[0], t[i], row));
  }
  mrc_lines(rows, cells, ncols, out);
  g_ptr_array_free(cells, TRUE);
  g_array_free(rows, TRUE);
}

/* One CSV row of scenario i (0: the baseline) for row. */
static void mrc_csv_row(modelrange_table *const *t, const char *name, guint i,
                        const compare_row *row, GString *out) {
  const seeds_table *base = g_ptr_array_index(t[i]->groups, 0);
  seeds_stat s;
  seeds_stat_key(base->runs, row->key, &s);
  modelrange_end lo, hi;
  modelrange_ends(t[i], row->key, &lo, &hi);
  util_csv_field(out, name);
  g_string_append_c(out, ',');
  modelrange_csv_fields(row, &s, lo.value, hi.value, out);
  g_autofree char *lb = isfinite(lo.value) ? modelrange_by((guint)lo.run) : g_strdup("");
  g_autofree char *hb = isfinite(hi.value) ? modelrange_by((guint)hi.run) : g_strdup("");
  g_string_append_c(out, ',');
  util_csv_field(out, lb);
  g_string_append_c(out, ',');
  util_csv_field(out, hb);
  double d = NAN, dlo = NAN, dhi = NAN;
  if (i > 0) mrc_delta(t[0], t[i], row->key, &d, &dlo, &dhi);
  const double dv[] = {d, dlo, dhi};
  for (guint k = 0; k < G_N_ELEMENTS(dv); k++) {
    g_string_append_c(out, ',');
    report_num(out, dv[k]);
  }
  g_string_append(out, i == 0 || !isfinite(d) ? ",\n" : mrc_flips(dlo, dhi) ? ",1\n" : ",0\n");
}

void modelrange_compare_csv(modelrange_table *const *t, const char *const *names, guint n,
                            GString *out) {
  g_string_append(out, "scenario,section,key,figure,unit,value,ci95_low,ci95_high,range_low,"
                       "range_high,low_by,high_by,delta,delta_low,delta_high,flips\n");
  GArray *rows = mrc_rows(t, n);
  for (guint i = 0; i < n; i++)
    for (guint r = 0; r < rows->len; r++)
      mrc_csv_row(t, names[i], i, &g_array_index(rows, compare_row, r), out);
  g_array_free(rows, TRUE);
}
