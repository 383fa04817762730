/* seeds.c: the statistics of a scenario's figures over several seeds (mean, standard
 * deviation, Student's t interval, Welch's interval of a difference; GSL's t
 * distribution) and the seeds.txt/.csv/.json files of a seeds folder. Running the seeds is
 * the commands' (studyrun.h); the rows are compare.c's union of figures. */
#include "seeds.h"
#include "jsonlimit.h"
#include "report.h"
#include "util.h"
#include <gsl/gsl_cdf.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

double seeds_t_quantile(double df) {
  if (!(df > 0) || !isfinite(df)) return NAN;
  return gsl_cdf_tdist_Pinv(0.5 + SEEDS_LEVEL / 2, df);
}

void seeds_stat_of(const double *v, guint n, seeds_stat *s) {
  *s = (seeds_stat){0, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
  double sum = 0;
  for (guint i = 0; i < n; i++) {
    if (!isfinite(v[i])) continue;
    sum += v[i];
    s->min = s->n && s->min <= v[i] ? s->min : v[i];
    s->max = s->n && s->max >= v[i] ? s->max : v[i];
    s->n++;
  }
  if (!s->n) return;
  s->mean = s->min == s->max ? s->min : sum / s->n; /* exact when every seed agrees */
  if (s->n < 2) return;
  double ss = 0;
  for (guint i = 0; i < n; i++)
    if (isfinite(v[i])) ss += (v[i] - s->mean) * (v[i] - s->mean);
  s->sd = s->min == s->max ? 0 : sqrt(ss / (s->n - 1)); /* no rounding noise when all agree */
  s->half = seeds_t_quantile(s->n - 1) * s->sd / sqrt((double)s->n);
  s->lo = s->mean - s->half;
  s->hi = s->mean + s->half;
}

gboolean seeds_welch(const seeds_stat *a, const seeds_stat *b, double *lo, double *hi) {
  double l = NAN, h = NAN;
  gboolean sig = FALSE;
  if (a->n >= 2 && b->n >= 2) {
    double d = b->mean - a->mean;
    double va = a->sd * a->sd / a->n, vb = b->sd * b->sd / b->n, se = sqrt(va + vb);
    if (se == 0) {
      l = h = d;
    } else {
      double df = (va + vb) * (va + vb) / (va * va / (a->n - 1) + vb * vb / (b->n - 1));
      double half = seeds_t_quantile(df) * se;
      l = d - half;
      h = d + half;
    }
    sig = l > 0 || h < 0;
  }
  if (lo) *lo = l;
  if (hi) *hi = h;
  return sig;
}

void seeds_stat_key(const GPtrArray *runs, const char *key, seeds_stat *s) {
  double *v = g_new(double, runs->len + 1);
  for (guint i = 0; i < runs->len; i++) v[i] = figures_value(g_ptr_array_index(runs, i), key);
  seeds_stat_of(v, runs->len, s);
  g_free(v);
}

seeds_table *seeds_build(GPtrArray *runs) {
  g_return_val_if_fail(runs != NULL && runs->len > 0, NULL);
  seeds_table *t = g_new0(seeds_table, 1);
  t->runs = runs;
  g_ptr_array_set_free_func(runs, (GDestroyNotify)figures_free);
  for (guint i = 0; i < runs->len; i++) figures_add_rates(g_ptr_array_index(runs, i));
  t->rows = compare_rows_new();
  compare_union_rows(runs, t->rows);
  t->stats = g_array_sized_new(FALSE, TRUE, sizeof(seeds_stat), t->rows->len);
  for (guint r = 0; r < t->rows->len; r++) {
    seeds_stat s;
    seeds_stat_key(runs, g_array_index(t->rows, compare_row, r).key, &s);
    g_array_append_val(t->stats, s);
  }
  return t;
}

void seeds_free(seeds_table *t) {
  if (!t) return;
  g_ptr_array_free(t->runs, TRUE);
  g_array_free(t->rows, TRUE);
  g_array_free(t->stats, TRUE);
  g_free(t);
}

/* The mean SLO attainment of service i over the runs that list the same service there. */
static double seeds_service_mean(const GPtrArray *runs, guint i) {
  const run_figures *first = g_ptr_array_index(runs, 0);
  const service_figure *s0 = &g_array_index(first->services, service_figure, i);
  double sum = 0;
  guint n = 0;
  for (guint k = 0; k < runs->len; k++) {
    const run_figures *f = g_ptr_array_index(runs, k);
    if (i >= f->services->len) continue;
    const service_figure *s = &g_array_index(f->services, service_figure, i);
    if (strcmp(s->name, s0->name) || !isfinite(s->attainment)) continue;
    sum += s->attainment;
    n++;
  }
  return n ? sum / n : NAN;
}

run_figures *seeds_mean(const GPtrArray *runs, const char *dir) {
  g_return_val_if_fail(runs != NULL && runs->len > 0, NULL);
  run_figures *m = figures_copy(g_ptr_array_index(runs, 0), dir);
  GArray *rows = compare_rows_new();
  compare_union_rows(runs, rows);
  for (guint r = 0; r < rows->len; r++) {
    seeds_stat s;
    const char *key = g_array_index(rows, compare_row, r).key;
    seeds_stat_key(runs, key, &s);
    figures_set(m, key, s.mean);
  }
  g_array_free(rows, TRUE);
  for (guint i = 0; i < m->services->len; i++)
    g_array_index(m->services, service_figure, i).attainment = seeds_service_mean(runs, i);
  double span = figures_value(m, "span_s");
  if (isfinite(span)) m->span_s = span;
  figures_sort(m);
  return m;
}

char *seeds_folder_name(guint64 seed) {
  return g_strdup_printf("seed-%" G_GUINT64_FORMAT, seed);
}

/* ---- text ---- */

/* A half-width or standard deviation in the figure's unit, without a sign: "43.2",
 * "0.41 pp", "$12.00", "1.50 h"; 0 when below 1e-9 of the mean (rounding). */
void seeds_format_spread(GString *out, figure_unit unit, double v, double mean) {
  if (!isfinite(v)) {
    g_string_append_c(out, '-');
    return;
  }
  if (v <= 1e-9 * fabs(mean)) v = 0;
  if (unit == FIGURE_FRACTION || unit == FIGURE_PERCENT || unit == FIGURE_RATIO) {
    gsize at = out->len;
    figures_format_delta(out, unit, v, 0);
    if (out->str[at] == '+') g_string_erase(out, (gssize)at, 1);
    return;
  }
  figures_format(out, unit, v);
}

static void seeds_cell_interval(GString *c, const compare_row *row, const seeds_stat *s) {
  if (!isfinite(s->half)) {
    g_string_append_c(c, '-');
    return;
  }
  figures_format(c, row->unit, s->lo);
  g_string_append(c, " .. ");
  figures_format(c, row->unit, s->hi);
}

#define SEEDS_COLS 7

/* One line of cells per shown row (line -1 - section for a section heading). */
static void seeds_cells(const seeds_table *t, GPtrArray *cells, GArray *lines) {
  static const char *const head[SEEDS_COLS] = {"", "mean", "95 % interval", "+/-", "sd",
                                               "lowest", "highest"};
  for (guint c = 0; c < SEEDS_COLS; c++) g_ptr_array_add(cells, g_strdup(head[c]));
  int what = 0;
  g_array_append_val(lines, what);
  figure_section section = FIGURE_SECTION_COUNT;
  for (guint r = 0; r < t->rows->len; r++) {
    const compare_row *row = &g_array_index(t->rows, compare_row, r);
    const seeds_stat *s = &g_array_index(t->stats, seeds_stat, r);
    if (row->detail) continue;
    if (row->section != section) {
      section = row->section;
      what = -1 - (int)section;
      g_array_append_val(lines, what);
    }
    what = 0;
    g_array_append_val(lines, what);
    g_ptr_array_add(cells, g_strconcat("  ", row->label, NULL));
    GString *c[SEEDS_COLS - 1];
    for (guint k = 0; k < SEEDS_COLS - 1; k++) c[k] = g_string_new(NULL);
    figures_format(c[0], row->unit, s->mean);
    seeds_cell_interval(c[1], row, s);
    seeds_format_spread(c[2], row->unit, s->half, s->mean);
    seeds_format_spread(c[3], row->unit, s->sd, s->mean);
    figures_format(c[4], row->unit, s->min);
    figures_format(c[5], row->unit, s->max);
    for (guint k = 0; k < SEEDS_COLS - 1; k++) g_ptr_array_add(cells, g_string_free(c[k], FALSE));
  }
}

static void seeds_heading(const seeds_table *t, GString *out) {
  const run_figures *f = g_ptr_array_index(t->runs, 0);
  const run_figures *last = g_ptr_array_index(t->runs, t->runs->len - 1);
  g_autofree char *trace = g_path_get_basename(*f->trace_file ? f->trace_file : "?");
  g_autofree char *ctrace = figures_clean_text(trace);
  g_string_append_printf(out, "sharesim: scenario '%s' on trace %s, %u seeds (%" G_GUINT64_FORMAT
                         " to %" G_GUINT64_FORMAT "), ",
                         f->scenario, ctrace, t->runs->len, f->seed, last->seed);
  seeds_stat span;
  seeds_stat_key(t->runs, "span_s", &span);
  figures_format(out, FIGURE_SECONDS, span.mean);
  g_string_append(out, " simulated\n");
  g_string_append_printf(out, "each figure over the seeds: mean, 95 %% confidence interval of the "
                         "mean (Student's t, %u degrees of freedom) and its half-width, "
                         "standard deviation, lowest and highest seed\n\n",
                         t->runs->len - 1);
}

void seeds_text(const seeds_table *t, GString *out) {
  seeds_heading(t, out);
  GPtrArray *cells = g_ptr_array_new_with_free_func(g_free);
  GArray *lines = g_array_new(FALSE, FALSE, sizeof(int));
  seeds_cells(t, cells, lines);
  gsize width[SEEDS_COLS] = {0};
  for (guint k = 0; k < cells->len; k++)
    width[k % SEEDS_COLS] = MAX(width[k % SEEDS_COLS],
                                (gsize)g_utf8_strlen(g_ptr_array_index(cells, k), -1));
  guint row = 0;
  for (guint l = 0; l < lines->len; l++) {
    int what = g_array_index(lines, int, l);
    if (what < 0) {
      g_string_append_printf(out, "%s\n", figures_section_name((figure_section)(-1 - what)));
      continue;
    }
    figures_table_line(out, (char **)cells->pdata + row * SEEDS_COLS, width, SEEDS_COLS, 0);
    row++;
  }
  g_array_free(lines, TRUE);
  g_ptr_array_free(cells, TRUE);
}

/* ---- CSV and JSON ---- */

void seeds_csv(const seeds_table *t, GString *out) {
  g_string_append(out, "section,key,figure,unit,n,mean,sd,ci95_low,ci95_high,min,max");
  for (guint i = 0; i < t->runs->len; i++)
    g_string_append_printf(out, ",seed:%" G_GUINT64_FORMAT,
                           ((const run_figures *)g_ptr_array_index(t->runs, i))->seed);
  g_string_append_c(out, '\n');
  for (guint r = 0; r < t->rows->len; r++) {
    const compare_row *row = &g_array_index(t->rows, compare_row, r);
    const seeds_stat *s = &g_array_index(t->stats, seeds_stat, r);
    util_csv_field(out, figures_section_name(row->section));
    g_string_append_c(out, ',');
    util_csv_field(out, row->key);
    g_string_append_c(out, ',');
    util_csv_field(out, row->label);
    g_string_append_printf(out, ",%s,%u", figures_unit_name(row->unit), s->n);
    const double v[] = {s->mean, s->sd, s->lo, s->hi, s->min, s->max};
    for (guint k = 0; k < G_N_ELEMENTS(v); k++) {
      g_string_append_c(out, ',');
      report_num(out, v[k]);
    }
    for (guint i = 0; i < t->runs->len; i++) {
      g_string_append_c(out, ',');
      report_num(out, figures_value(g_ptr_array_index(t->runs, i), row->key));
    }
    g_string_append_c(out, '\n');
  }
}

void seeds_json_seeds(const GPtrArray *runs, GString *out) {
  g_string_append_c(out, '[');
  for (guint i = 0; i < runs->len; i++)
    g_string_append_printf(out, "%s%" G_GUINT64_FORMAT, i ? ", " : "",
                           ((const run_figures *)g_ptr_array_index(runs, i))->seed);
  g_string_append_c(out, ']');
}

static void seeds_json_head(const seeds_table *t, GString *out) {
  const run_figures *f = g_ptr_array_index(t->runs, 0);
  g_string_append(out, "{\n  \"scenario\": ");
  figures_json_string(out, f->scenario);
  g_string_append(out, ",\n  \"scenario_file\": ");
  figures_json_string(out, f->scenario_file);
  g_string_append(out, ",\n  \"trace_file\": ");
  figures_json_string(out, f->trace_file);
  g_string_append(out, ",\n  \"level\": ");
  figures_json_number(out, SEEDS_LEVEL);
  g_string_append(out, ",\n  \"interval\": \"student-t\",\n  \"seeds\": ");
  seeds_json_seeds(t->runs, out);
  g_string_append(out, ",\n  \"folders\": [");
  for (guint i = 0; i < t->runs->len; i++) {
    g_autofree char *name = g_path_get_basename(((run_figures *)g_ptr_array_index(t->runs, i))->dir);
    if (i) g_string_append(out, ", ");
    figures_json_string(out, name);
  }
  g_string_append(out, "]");
}

void seeds_json(const seeds_table *t, GString *out) {
  seeds_json_head(t, out);
  g_string_append(out, ",\n  \"figures\": [");
  for (guint r = 0; r < t->rows->len; r++) {
    const compare_row *row = &g_array_index(t->rows, compare_row, r);
    const seeds_stat *s = &g_array_index(t->stats, seeds_stat, r);
    g_string_append(out, r ? ",\n    {\"key\": " : "\n    {\"key\": ");
    figures_json_string(out, row->key);
    g_string_append(out, ", \"label\": ");
    figures_json_string(out, row->label);
    g_string_append(out, ", \"unit\": ");
    figures_json_string(out, figures_unit_name(row->unit));
    g_string_append(out, ", \"section\": ");
    figures_json_string(out, figures_section_name(row->section));
    g_string_append_printf(out, ", \"n\": %u", s->n);
    const char *const names[] = {"mean", "sd", "ci95_low", "ci95_high", "min", "max"};
    const double v[] = {s->mean, s->sd, s->lo, s->hi, s->min, s->max};
    for (guint k = 0; k < G_N_ELEMENTS(v); k++) {
      g_string_append_printf(out, ", \"%s\": ", names[k]);
      figures_json_number(out, v[k]);
    }
    g_string_append(out, ", \"values\": [");
    for (guint i = 0; i < t->runs->len; i++) {
      if (i) g_string_append(out, ", ");
      figures_json_number(out, figures_value(g_ptr_array_index(t->runs, i), row->key));
    }
    g_string_append(out, "]}");
  }
  g_string_append(out, "\n  ]\n}\n");
}

gboolean seeds_write(const seeds_table *t, outdir *o, GError **error) {
  g_autoptr(GString) text = g_string_new(NULL);
  g_autoptr(GString) csv = g_string_new(NULL);
  g_autoptr(GString) json = g_string_new(NULL);
  seeds_text(t, text);
  seeds_csv(t, csv);
  seeds_json(t, json);
  return outdir_write(o, "seeds.txt", text->str, text->len, error) &&
         outdir_write(o, "seeds.csv", csv->str, csv->len, error) &&
         outdir_write(o, "seeds.json", json->str, json->len, error);
}

/* ---- reading a seeds folder back ---- */

gboolean seeds_is_dir(const char *dir) {
  g_autofree char *p = g_build_filename(dir, "seeds.json", NULL);
  g_autofree char *s = g_build_filename(dir, "summary.json", NULL);
  return g_file_test(p, G_FILE_TEST_IS_REGULAR) && !g_file_test(s, G_FILE_TEST_EXISTS);
}

/* The "folders" list of seeds.json: names inside dir, each a plain name. */
static GPtrArray *seeds_folders(const char *dir, GError **error) {
  g_autofree char *path = g_build_filename(dir, "seeds.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new();
  GError *local = NULL;
  if (!jsonlimit_load_file(parser, path, NULL, NULL, &local)) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT, "%s%s%s", local->domain == SHARESIM_ERROR ? "" : path,
                local->domain == SHARESIM_ERROR ? "" : ": ", local->message);
    g_error_free(local);
    return NULL;
  }
  JsonNode *root = json_parser_get_root(parser);
  JsonObject *o = root && JSON_NODE_HOLDS_OBJECT(root) ? json_node_get_object(root) : NULL;
  JsonNode *list = o ? json_object_get_member(o, "folders") : NULL;
  JsonArray *a = list && JSON_NODE_HOLDS_ARRAY(list) ? json_node_get_array(list) : NULL;
  if (!a || json_array_get_length(a) == 0 || json_array_get_length(a) > SEEDS_MAX) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "%s: expected a \"folders\" list of 1 to %u seed folders", path, SEEDS_MAX);
    return NULL;
  }
  GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
  for (guint i = 0; i < json_array_get_length(a); i++) {
    JsonNode *e = json_array_get_element(a, i);
    const char *name = JSON_NODE_HOLDS_VALUE(e) && json_node_get_value_type(e) == G_TYPE_STRING
                           ? json_node_get_string(e) : NULL;
    if (!name || !util_name_is_safe(name)) {
      g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                  "%s: folder %u: expected the name of a seed folder inside it", path, i + 1);
      g_ptr_array_free(names, TRUE);
      return NULL;
    }
    g_ptr_array_add(names, g_build_filename(dir, name, NULL));
  }
  return names;
}

seeds_table *seeds_load_dir(const char *dir, GError **error) {
  g_autoptr(GPtrArray) folders = seeds_folders(dir, error);
  if (!folders) return NULL;
  GPtrArray *runs = g_ptr_array_new_with_free_func((GDestroyNotify)figures_free);
  for (guint i = 0; i < folders->len; i++) {
    run_figures *f = figures_load(g_ptr_array_index(folders, i), error);
    if (!f) {
      g_ptr_array_free(runs, TRUE);
      return NULL;
    }
    g_ptr_array_add(runs, f);
  }
  return seeds_build(runs);
}
