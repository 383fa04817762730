/* modelrange.c: the table of the models' fitted and assumed constants with their intervals,
 * and the model-range table of a scenario's runs: each figure's value at the defaults, its
 * lowest and highest over the runs with one constant at an end of its interval, and the
 * files model-range.txt/.csv/.json. Running the runs is the command's (cmd-modelrange.c);
 * the intervals and their sources are in docs/models.md, "Model uncertainty". */
#include "modelrange.h"
#include "compare.h"
#include "report.h"
#include "util.h"
#include "share.h"
#include "workload.h"
#include <math.h>
#include <string.h>

#define PM25 "assumption: +/-25 % of the fitted value (the perturbation at which issue 27 " \
             "measured validate rows flip)"

/* Each constant's key and default are its owning model's declaration (share.c, share-mps.c,
 * workload-llm.c, workload-inference.c): this table adds only the interval. */
static const modelrange_constant constants[] = {
    {&share_key_ts_switch_loss, "0.045", "0.075", "time-slicing",
     PM25 "; Colfax's own spread, 16-19 % over four tenants (0.053-0.063), lies inside"},
    {&share_key_ts_curve_exp, "0.9", "1.5", "time-slicing", PM25},
    {&share_key_ts_overlap_exp, "1.5", "2.5", "time-slicing", PM25},
    {&share_key_mps_bandwidth_loss, "0.05625", "0.09375", "MPS", PM25},
    {&share_key_mps_block_wait, "0.81", "1.35", "MPS", PM25},
    {&share_key_mps_block_corr, "5ms", "20ms", "MPS",
     "assumption: the default itself is an assumption; half and twice it"},
    {&workload_key_inference_service_cv, "0.005", "1", "inference requests",
     "assumption: the default was measured at under 0.1 % load; 1 (as variable as an "
     "exponential service) is the pessimistic end under load"},
    {&workload_key_llm_bandwidth_efficiency, "0.57", "0.95", "LLM serving", PM25},
    {&workload_key_llm_compute_efficiency, "0.495", "0.825", "LLM serving", PM25},
    {&workload_key_llm_step_overhead_ms, "0.405", "0.675", "LLM serving", PM25},
    {&workload_key_llm_frontend_ms, "0", "9.11", "LLM serving",
     "assumption: the default 0 leaves the front end out; the high end is the 7.29 ms "
     "fitted on the H100 sweep's c = 1 TTFT (its client, API server and input processing) "
     "+25 %"},
};

const modelrange_constant *modelrange_constants(guint *n) {
  *n = G_N_ELEMENTS(constants);
  return constants;
}

void modelrange_list(GString *out) {
  for (guint k = 0; k < G_N_ELEMENTS(constants); k++) {
    const modelrange_constant *c = &constants[k];
    g_string_append_printf(out, "%s %s %s %s\n", modelrange_key(c), modelrange_default(c), c->low,
                           c->high);
  }
}

char *modelrange_folder_name(guint r) {
  if (r == 0) return g_strdup("base");
  const modelrange_constant *c = &constants[(r - 1) / 2];
  return g_strdup_printf("%s-%s", modelrange_key(c), r % 2 ? "low" : "high");
}

char *modelrange_override(guint r) {
  if (r == 0) return NULL;
  const modelrange_constant *c = &constants[(r - 1) / 2];
  return g_strdup_printf("%s=%s", modelrange_key(c), r % 2 ? c->low : c->high);
}

/* The mean over the seeds of group g's key. */
static double modelrange_mean(const modelrange_table *t, guint g, const char *key) {
  seeds_stat s;
  seeds_stat_key(((const seeds_table *)g_ptr_array_index(t->groups, g))->runs, key, &s);
  return s.mean;
}

double modelrange_value(const modelrange_table *t, guint run, const char *key) {
  return modelrange_mean(t, run, key);
}

/* The lowest and highest of key over the runs; the defaults' run wins ties, then the
 * first run in table order. */
void modelrange_ends(const modelrange_table *t, const char *key, modelrange_end *lo,
                     modelrange_end *hi) {
  *lo = *hi = (modelrange_end){NAN, 0};
  for (guint g = 0; g < t->groups->len; g++) {
    double v = modelrange_mean(t, g, key);
    if (!isfinite(v)) continue;
    if (!isfinite(lo->value) || v < lo->value) *lo = (modelrange_end){v, (int)g};
    if (!isfinite(hi->value) || v > hi->value) *hi = (modelrange_end){v, (int)g};
  }
}

modelrange_table *modelrange_build(GPtrArray *groups, guint n_constants) {
  g_return_val_if_fail(groups && groups->len == MODELRANGE_RUNS(n_constants), NULL);
  modelrange_table *t = g_new0(modelrange_table, 1);
  t->groups = groups;
  g_ptr_array_set_free_func(groups, (GDestroyNotify)seeds_free);
  t->n_constants = n_constants;
  const seeds_table *base = g_ptr_array_index(groups, 0);
  t->rows = compare_rows_new();
  compare_union_rows(base->runs, t->rows);
  t->low = g_array_sized_new(FALSE, TRUE, sizeof(modelrange_end), t->rows->len);
  t->high = g_array_sized_new(FALSE, TRUE, sizeof(modelrange_end), t->rows->len);
  for (guint r = 0; r < t->rows->len; r++) {
    modelrange_end lo, hi;
    modelrange_ends(t, g_array_index(t->rows, compare_row, r).key, &lo, &hi);
    g_array_append_val(t->low, lo);
    g_array_append_val(t->high, hi);
  }
  return t;
}

void modelrange_free(modelrange_table *t) {
  if (!t) return;
  g_ptr_array_free(t->groups, TRUE);
  g_array_free(t->rows, TRUE);
  g_array_free(t->low, TRUE);
  g_array_free(t->high, TRUE);
  g_free(t);
}

char *modelrange_by(guint r) {
  char *o = modelrange_override(r);
  return o ? o : g_strdup("-");
}

/* How many rows run r moves off the defaults' value. */
static guint modelrange_moved(const modelrange_table *t, guint r) {
  guint n = 0;
  for (guint i = 0; i < t->rows->len; i++) {
    const char *key = g_array_index(t->rows, compare_row, i).key;
    double a = modelrange_mean(t, 0, key), b = modelrange_mean(t, r, key);
    if (isfinite(a) != isfinite(b) || (isfinite(a) && a != b)) n++;
  }
  return n;
}

/* ---- text ---- */

#define MR_COLS 6

static void modelrange_row_cells(const modelrange_table *t, guint r, gboolean seeds,
                                 GPtrArray *cells) {
  const compare_row *row = &g_array_index(t->rows, compare_row, r);
  const modelrange_end *lo = &g_array_index(t->low, modelrange_end, r);
  const modelrange_end *hi = &g_array_index(t->high, modelrange_end, r);
  seeds_stat s;
  seeds_stat_key(((const seeds_table *)g_ptr_array_index(t->groups, 0))->runs, row->key, &s);
  g_ptr_array_add(cells, g_strconcat("  ", row->label, NULL));
  GString *c = g_string_new(NULL);
  figures_format(c, row->unit, s.mean);
  g_ptr_array_add(cells, g_string_free(c, FALSE));
  c = g_string_new(NULL);
  if (seeds && isfinite(s.half)) {
    figures_format(c, row->unit, s.lo);
    g_string_append(c, " .. ");
    figures_format(c, row->unit, s.hi);
  } else {
    g_string_append_c(c, '-');
  }
  g_ptr_array_add(cells, g_string_free(c, FALSE));
  c = g_string_new("[");
  figures_format(c, row->unit, lo->value);
  g_string_append(c, ", ");
  figures_format(c, row->unit, hi->value);
  g_string_append_c(c, ']');
  g_ptr_array_add(cells, g_string_free(c, FALSE));
  g_ptr_array_add(cells, modelrange_by((guint)lo->run));
  g_ptr_array_add(cells, modelrange_by((guint)hi->run));
}

/* Appends the cells as aligned lines (the first column left-aligned, the others right),
 * with a section heading before each row whose section differs from the row above; the
 * seeds' interval (column 2) only when the runs have several seeds. */
static void modelrange_lines(const modelrange_table *t, GPtrArray *cells, gboolean seeds,
                             GString *out) {
  gsize width[MR_COLS] = {0};
  for (guint k = 0; k < cells->len; k++)
    width[k % MR_COLS] = MAX(width[k % MR_COLS],
                             (gsize)g_utf8_strlen(g_ptr_array_index(cells, k), -1));
  figure_section section = FIGURE_SECTION_COUNT;
  guint shown = 0;
  for (guint line = 0; line * MR_COLS < cells->len; line++) {
    if (line > 0) { /* line k > 0 is the k-th row that is not detail */
      while (g_array_index(t->rows, compare_row, shown).detail) shown++;
      const compare_row *row = &g_array_index(t->rows, compare_row, shown++);
      if (row->section != section)
        g_string_append_printf(out, "%s\n", figures_section_name(section = row->section));
    }
    figures_table_line(out, (char **)cells->pdata + line * MR_COLS, width, MR_COLS,
                       seeds ? 0 : 1u << 2);
  }
}

static void modelrange_heading(const modelrange_table *t, gboolean seeds, GString *out) {
  const seeds_table *base = g_ptr_array_index(t->groups, 0);
  const run_figures *f = g_ptr_array_index(base->runs, 0);
  g_autofree char *trace_name = g_path_get_basename(*f->trace_file ? f->trace_file : "?");
  g_autofree char *ctrace = figures_clean_text(trace_name);
  g_string_append_printf(out, "sharesim: scenario '%s' on trace %s, model range over %u "
                         "constants (%u runs", f->scenario, ctrace, t->n_constants,
                         t->groups->len);
  if (seeds) g_string_append_printf(out, ", each of %u seeds", base->runs->len);
  g_string_append(out, ")\neach figure at the models' defaults");
  if (seeds) g_string_append(out, " (mean over the seeds, with its 95 % interval)");
  g_string_append(out, ", and its lowest and highest with one constant at an end of its "
                       "interval, the others at their defaults; by: the setting that gave "
                       "that end ('-': the defaults)\n\n");
}

static void modelrange_constants_text(const modelrange_table *t, GString *out) {
  g_string_append(out, "\nconstants (docs/models.md, \"Model uncertainty\"): default [low, high], "
                       "model, figures moved at the low and the high end\n");
  for (guint k = 0; k < t->n_constants; k++) {
    const modelrange_constant *c = &constants[k];
    g_autofree char *range =
        g_strdup_printf("%s [%s, %s]", modelrange_default(c), c->low, c->high);
    g_string_append_printf(out, "  %-25s %-24s %-19s moved %u / %u\n", modelrange_key(c), range,
                           c->model, modelrange_moved(t, 1 + 2 * k), modelrange_moved(t, 2 + 2 * k));
  }
}

void modelrange_text(const modelrange_table *t, GString *out) {
  const seeds_table *base = g_ptr_array_index(t->groups, 0);
  gboolean seeds = base->runs->len > 1;
  modelrange_heading(t, seeds, out);
  static const char *const head[MR_COLS] = {"", "value", "95 % interval (seeds)",
                                            "model range", "low by", "high by"};
  GPtrArray *cells = g_ptr_array_new_with_free_func(g_free);
  for (guint c = 0; c < MR_COLS; c++) g_ptr_array_add(cells, g_strdup(head[c]));
  for (guint r = 0; r < t->rows->len; r++)
    if (!g_array_index(t->rows, compare_row, r).detail) modelrange_row_cells(t, r, seeds, cells);
  modelrange_lines(t, cells, seeds, out);
  g_ptr_array_free(cells, TRUE);
  modelrange_constants_text(t, out);
}

/* ---- CSV and JSON ---- */

void modelrange_csv_fields(const compare_row *row, const seeds_stat *s, double low, double high,
                           GString *out) {
  util_csv_field(out, figures_section_name(row->section));
  g_string_append_c(out, ',');
  util_csv_field(out, row->key);
  g_string_append_c(out, ',');
  util_csv_field(out, row->label);
  g_string_append_printf(out, ",%s", figures_unit_name(row->unit));
  const double v[] = {s->mean, s->lo, s->hi, low, high};
  for (guint k = 0; k < G_N_ELEMENTS(v); k++) {
    g_string_append_c(out, ',');
    report_num(out, v[k]);
  }
}

void modelrange_csv(const modelrange_table *t, GString *out) {
  g_string_append(out, "section,key,figure,unit,value,ci95_low,ci95_high,range_low,range_high,"
                       "low_by,high_by\n");
  const seeds_table *base = g_ptr_array_index(t->groups, 0);
  for (guint r = 0; r < t->rows->len; r++) {
    const compare_row *row = &g_array_index(t->rows, compare_row, r);
    seeds_stat s;
    seeds_stat_key(base->runs, row->key, &s);
    const modelrange_end *lo = &g_array_index(t->low, modelrange_end, r);
    const modelrange_end *hi = &g_array_index(t->high, modelrange_end, r);
    modelrange_csv_fields(row, &s, lo->value, hi->value, out);
    g_autofree char *lb = modelrange_by((guint)lo->run), *hb = modelrange_by((guint)hi->run);
    g_string_append_c(out, ',');
    util_csv_field(out, lb);
    g_string_append_c(out, ',');
    util_csv_field(out, hb);
    g_string_append_c(out, '\n');
  }
}

static void modelrange_json_constants(const modelrange_table *t, GString *out) {
  g_string_append(out, ",\n  \"constants\": [");
  for (guint k = 0; k < t->n_constants; k++) {
    const modelrange_constant *c = &constants[k];
    g_string_append(out, k ? ",\n    {\"key\": " : "\n    {\"key\": ");
    figures_json_string(out, modelrange_key(c));
    const char *const f[] = {"default", modelrange_default(c), "low", c->low, "high", c->high,
                             "model", c->model, "interval", c->interval};
    for (guint i = 0; i < G_N_ELEMENTS(f); i += 2) {
      g_string_append_printf(out, ", \"%s\": ", f[i]);
      figures_json_string(out, f[i + 1]);
    }
    g_autofree char *lo = modelrange_folder_name(1 + 2 * k), *hi = modelrange_folder_name(2 + 2 * k);
    g_string_append(out, ", \"low_folder\": ");
    figures_json_string(out, lo);
    g_string_append(out, ", \"high_folder\": ");
    figures_json_string(out, hi);
    g_string_append_printf(out, ", \"moved_low\": %u, \"moved_high\": %u}",
                           modelrange_moved(t, 1 + 2 * k), modelrange_moved(t, 2 + 2 * k));
  }
  g_string_append(out, "\n  ]");
}

void modelrange_json(const modelrange_table *t, GString *out) {
  const seeds_table *base = g_ptr_array_index(t->groups, 0);
  const run_figures *f = g_ptr_array_index(base->runs, 0);
  g_string_append(out, "{\n  \"scenario\": ");
  figures_json_string(out, f->scenario);
  g_string_append(out, ",\n  \"trace_file\": ");
  figures_json_string(out, f->trace_file);
  g_string_append(out, ",\n  \"seeds\": ");
  seeds_json_seeds(base->runs, out);
  g_string_append(out, ",\n  \"base_folder\": \"base\"");
  modelrange_json_constants(t, out);
  g_string_append(out, ",\n  \"figures\": [");
  for (guint r = 0; r < t->rows->len; r++) {
    const compare_row *row = &g_array_index(t->rows, compare_row, r);
    const modelrange_end *lo = &g_array_index(t->low, modelrange_end, r);
    const modelrange_end *hi = &g_array_index(t->high, modelrange_end, r);
    seeds_stat s;
    seeds_stat_key(base->runs, row->key, &s);
    g_string_append(out, r ? ",\n    {\"key\": " : "\n    {\"key\": ");
    figures_json_string(out, row->key);
    g_string_append_printf(out, ", \"unit\": \"%s\", \"value\": ", figures_unit_name(row->unit));
    figures_json_number(out, s.mean);
    g_string_append(out, ", \"low\": ");
    figures_json_number(out, lo->value);
    g_string_append(out, ", \"high\": ");
    figures_json_number(out, hi->value);
    g_autofree char *lb = modelrange_by((guint)lo->run), *hb = modelrange_by((guint)hi->run);
    g_string_append(out, ", \"low_by\": ");
    figures_json_string(out, lb);
    g_string_append(out, ", \"high_by\": ");
    figures_json_string(out, hb);
    g_string_append_c(out, '}');
  }
  g_string_append(out, "\n  ]\n}\n");
}

gboolean modelrange_write(const modelrange_table *t, outdir *o, GError **error) {
  g_autoptr(GString) text = g_string_new(NULL);
  g_autoptr(GString) csv = g_string_new(NULL);
  g_autoptr(GString) json = g_string_new(NULL);
  modelrange_text(t, text);
  modelrange_csv(t, csv);
  modelrange_json(t, json);
  return outdir_write(o, "model-range.txt", text->str, text->len, error) &&
         outdir_write(o, "model-range.csv", csv->str, csv->len, error) &&
         outdir_write(o, "model-range.json", json->str, json->len, error);
}
