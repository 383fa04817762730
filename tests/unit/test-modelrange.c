/* test-modelrange.c: the model-range table (modelrange.h): every constant's default and
 * ends are values its scenario key accepts and a value beyond is refused (the key is real,
 * not ignored), the ends bracket the default, the default is the one the reader gives; the
 * table's ends are the lowest and highest over the runs with the run that gave them, the
 * defaults' run winning ties, and figures that no run reports stay absent. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include "diag.h"
#include "modelrange.h"
#include "scenario.h"
#include "share.h"
#include "sim.h"
#include "util.h"

#define SDIR TEST_DATA_DIR "/scenario/"

/* Loads three-pools.yaml with KEY=VALUE; TRUE when accepted. */
static gboolean mr_accepts(const char *key, const char *value) {
  scenario_use_strategies(share_count(), share_input_row);
  scenario_use_model_keys(sim_model_keys); /* nor any model's constants */
  scenario_use_pool_sections(sim_pool_sections); /* nor pool sections */
  g_autofree char *set = g_strdup_printf("%s=%s", key, value);
  const char *ov[] = {set};
  g_autoptr(diag_list) d = diag_list_new(0);
  scenario *s = scenario_load_with_overrides(SDIR "three-pools.yaml", ov, 1, d);
  gboolean ok = s != NULL && !diag_has_errors(d);
  if (s) scenario_free(s);
  return ok;
}

Test(modelrange, every_constant_is_a_key_with_its_ends) {
  guint n;
  const modelrange_constant *c = modelrange_constants(&n);
  cr_assert_geq(n, 8);
  for (guint k = 0; k < n; k++) {
    cr_expect(mr_accepts(modelrange_key(&c[k]), modelrange_default(&c[k])), "%s=%s refused", modelrange_key(&c[k]), modelrange_default(&c[k]));
    cr_expect(mr_accepts(modelrange_key(&c[k]), c[k].low), "%s=%s refused", modelrange_key(&c[k]), c[k].low);
    cr_expect(mr_accepts(modelrange_key(&c[k]), c[k].high), "%s=%s refused", modelrange_key(&c[k]), c[k].high);
    cr_expect_not(mr_accepts(modelrange_key(&c[k]), "-5"), "%s=-5 accepted: the key checks nothing", modelrange_key(&c[k]));
    double v, lo, hi;
    if (util_parse_double(modelrange_default(&c[k]), &v) && util_parse_double(c[k].low, &lo) &&
        util_parse_double(c[k].high, &hi))
      cr_expect(lo <= v && v <= hi && lo < hi, "%s: %s not in [%s, %s]", modelrange_key(&c[k]), modelrange_default(&c[k]),
                c[k].low, c[k].high);
    cr_expect(c[k].interval && *c[k].interval && c[k].model && *c[k].model);
  }
}

/* three-pools.yaml read with the override ov (NULL: none). */
static scenario *mr_load(const char *ov) {
  scenario_use_strategies(share_count(), share_input_row);
  scenario_use_model_keys(sim_model_keys);
  const char *ovs[] = {ov};
  g_autoptr(diag_list) d = diag_list_new(0);
  scenario *s = scenario_load_with_overrides(SDIR "three-pools.yaml", ovs, ov ? 1 : 0, d);
  cr_assert(s && !diag_has_errors(d), "three-pools.yaml with %s refused", ov ? ov : "nothing");
  return s;
}

/* The default the table shows (its run "base", model-range.txt's "default") is the value the
 * reader gives a scenario that leaves the key unset: the key set to that text reads the same
 * bytes, for every constant. Fails when a model's declared default moves and the table's
 * default does not follow (or the declaration's text and value disagree). */
Test(modelrange, defaults_are_the_models_declared_defaults) {
  guint n;
  const modelrange_constant *c = modelrange_constants(&n);
  scenario *unset = mr_load(NULL);
  for (guint k = 0; k < n; k++) {
    const scenario_model_key *d = c[k].decl;
    g_autofree char *set =
        g_strdup_printf("%s=%s", modelrange_key(&c[k]), modelrange_default(&c[k]));
    scenario *s = mr_load(set);
    size_t size = d->type == SCENARIO_MODEL_NUMBER     ? sizeof(double)
                  : d->type == SCENARIO_MODEL_DURATION ? sizeof(sim_time)
                  : d->type == SCENARIO_MODEL_WHOLE    ? sizeof(guint32)
                                                       : sizeof(gboolean);
    cr_expect(!memcmp((const char *)s + d->offset, (const char *)unset + d->offset, size),
              "%s: the table's default %s is not the value the reader gives it unset",
              modelrange_key(&c[k]), modelrange_default(&c[k]));
    scenario_free(s);
  }
  scenario_free(unset);
}

Test(modelrange, runs_are_named_and_set) {
  guint n;
  const modelrange_constant *c = modelrange_constants(&n);
  cr_assert_null(modelrange_override(0));
  g_autofree char *base = modelrange_folder_name(0);
  cr_assert_str_eq(base, "base");
  g_autofree char *lo = modelrange_override(1), *hi = modelrange_override(2);
  g_autofree char *want_lo = g_strdup_printf("%s=%s", modelrange_key(&c[0]), c[0].low);
  g_autofree char *want_hi = g_strdup_printf("%s=%s", modelrange_key(&c[0]), c[0].high);
  cr_assert_str_eq(lo, want_lo);
  cr_assert_str_eq(hi, want_hi);
  g_autofree char *last = modelrange_folder_name(MODELRANGE_RUNS(n) - 1);
  g_autofree char *want_last = g_strdup_printf("%s-high", modelrange_key(&c[n - 1]));
  cr_assert_str_eq(last, want_last);
}

/* One run's seeds table with busy_frac = busy (NAN: absent) and cost 100. */
static seeds_table *mr_group(double busy) {
  GPtrArray *runs = g_ptr_array_new();
  g_autofree char *json = isnan(busy)
      ? g_strdup("{\"scenario\": \"s\", \"seed\": 1, \"span_s\": 86400, \"totals\": {\"cost\": 100}}")
      : g_strdup_printf("{\"scenario\": \"s\", \"seed\": 1, \"span_s\": 86400, \"totals\": "
                        "{\"cost\": 100, \"busy_frac\": %g}}", busy);
  run_figures *f = figures_parse("d", json, strlen(json), NULL);
  cr_assert_not_null(f);
  g_ptr_array_add(runs, f);
  return seeds_build(runs);
}

static const modelrange_end *mr_end(const modelrange_table *t, const char *key, gboolean high) {
  for (guint r = 0; r < t->rows->len; r++)
    if (!strcmp(g_array_index(t->rows, compare_row, r).key, key))
      return &g_array_index(high ? t->high : t->low, modelrange_end, r);
  cr_assert_fail("no row %s", key);
  return NULL;
}

Test(modelrange, ends_and_who_set_them) {
  /* two constants: runs base, c0-low, c0-high, c1-low, c1-high */
  const double busy[] = {0.5, 0.4, 0.7, 0.4, NAN};
  GPtrArray *groups = g_ptr_array_new();
  for (guint i = 0; i < G_N_ELEMENTS(busy); i++) g_ptr_array_add(groups, mr_group(busy[i]));
  g_autoptr(modelrange_table) t = modelrange_build(groups, 2);
  const modelrange_end *lo = mr_end(t, "busy_frac", FALSE), *hi = mr_end(t, "busy_frac", TRUE);
  cr_assert_float_eq(lo->value, 0.4, 1e-12);
  cr_assert_eq(lo->run, 1, "the first run that reaches the lowest, not %d", lo->run);
  cr_assert_float_eq(hi->value, 0.7, 1e-12);
  cr_assert_eq(hi->run, 2);
  /* a figure every run agrees on: both ends are the defaults' run */
  cr_assert_eq(mr_end(t, "cost", FALSE)->run, 0);
  cr_assert_eq(mr_end(t, "cost", TRUE)->run, 0);
  GString *csv = g_string_new(NULL);
  modelrange_csv(t, csv);
  cr_assert(strstr(csv->str, ",busy_frac,"), "%s", csv->str);
  g_string_free(csv, TRUE);
}
