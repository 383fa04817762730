/* validate.c: the validation table: the family table, the rows and their targets, the
 * compiled-in published values, the helper that writes a case's inputs and runs the real
 * simulator on them, and the text and CSV tables. The cases themselves are validate-*.c,
 * one file per source; none of them computes a prediction outside the simulator. */
#include "validate.h"
#include "scenario.h"
#include "sim.h"
#include "trace.h"
#include "util.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

static const validate_family *const families[] = {
    &validate_queueing_family, &validate_lucid_family, &validate_colfax_family,
    &validate_tally_family,    &validate_mig_family,   &validate_stories_family,
    &validate_fgd_family,      &validate_fgdw_family,     &validate_llm_family,      &validate_vidur_family,
    &validate_parva_family,    &validate_priority_family,
};

static validate_family family_list[G_N_ELEMENTS(families) + 1];

const validate_family *validate_families(void) {
  for (gsize i = 0; i < G_N_ELEMENTS(families); i++) family_list[i] = *families[i];
  family_list[G_N_ELEMENTS(families)] = (validate_family){0};
  return family_list;
}

static void validate_row_free(gpointer p) {
  validate_row *r = p;
  g_free(r->id);
  g_free(r->source);
  g_free(r->compared);
  g_free(r->target);
  g_free(r);
}

void validate_ctx_init(validate_ctx *c, const char *traces_dir, const char *work_dir) {
  memset(c, 0, sizeof *c);
  c->traces_dir = traces_dir;
  c->work_dir = work_dir;
  c->threads = 1;
  c->rows = g_ptr_array_new_with_free_func(validate_row_free);
  c->scatter = g_string_new("set,id,measured,predicted\n");
  c->keep = g_ptr_array_new(); /* scenario, trace, scenario, trace ... */
}

void validate_ctx_clear(validate_ctx *c) {
  for (guint i = 0; c->keep && i + 1 < c->keep->len; i += 2) {
    scenario_free(g_ptr_array_index(c->keep, i));
    trace_free(g_ptr_array_index(c->keep, i + 1));
  }
  g_clear_pointer(&c->keep, g_ptr_array_unref);
  g_clear_pointer(&c->rows, g_ptr_array_unref);
  if (c->scatter) g_string_free(c->scatter, TRUE);
  c->scatter = NULL;
}

/* Is family NAME in ONLY, a comma-separated list of family names (NULL: every family)? */
static gboolean validate_wanted(const char *only, const char *name) {
  if (!only) return TRUE;
  g_auto(GStrv) names = g_strsplit(only, ",", -1);
  return g_strv_contains((const char *const *)names, name);
}

/* NULL when every name in c->only is a family; else the first name that is not one. */
static char *validate_unknown_family(const validate_ctx *c) {
  if (!c->only) return NULL;
  g_auto(GStrv) names = g_strsplit(c->only, ",", -1);
  for (guint k = 0; names[k]; k++) {
    gboolean known = FALSE;
    for (gsize i = 0; i < G_N_ELEMENTS(families) && !known; i++) known = !strcmp(names[k], families[i]->name);
    if (!known) return g_strdup(names[k]);
  }
  return NULL;
}

gboolean validate_run(validate_ctx *c, GError **error) {
  g_autofree char *unknown = validate_unknown_family(c);
  if (unknown) {
    GString *names = g_string_new(NULL);
    for (gsize i = 0; i < G_N_ELEMENTS(families); i++)
      g_string_append_printf(names, "%s%s", i ? ", " : "", families[i]->name);
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "--case %s: no such case family '%s' (families: %s)", c->only, unknown, names->str);
    g_string_free(names, TRUE);
    return FALSE;
  }
  for (gsize i = 0; i < G_N_ELEMENTS(families); i++) {
    const validate_family *f = families[i];
    if (!validate_wanted(c->only, f->name)) continue;
    c->family = f->name;
    c->kind = VALIDATE_KIND_UNSET; /* each family says what its rows are */
    if (!f->run(c, error)) {
      g_prefix_error(error, "case family %s: ", f->name);
      return FALSE;
    }
  }
  /* the rows say what they are, as the fits say (a programming error if not) */
  g_autoptr(GString) problems = g_string_new(NULL);
  if (!validate_check_fits(c, validate_fits(), problems)) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME,
                "the rows' kinds disagree with the fitted constants: %s", problems->str);
    return FALSE;
  }
  return TRUE;
}

void validate_counts(const validate_ctx *c, guint *pass, guint *fail, guint *skip) {
  *pass = *fail = *skip = 0;
  for (guint i = 0; i < c->rows->len; i++) {
    const validate_row *r = g_ptr_array_index(c->rows, i);
    if (r->status == VALIDATE_PASS) (*pass)++;
    else if (r->status == VALIDATE_FAIL) (*fail)++;
    else (*skip)++;
  }
}

/* ---- published values ---- */

/* The value of key, or NAN when the data file has no such key. */
static double published_lookup(const char *key, const char **source, gboolean *found) {
  *found = TRUE;
  gsize klen = strlen(key);
  for (const char *line = validate_published_csv; *line;) {
    const char *eol = strchr(line, '\n');
    if (!eol) eol = line + strlen(line);
    if (!strncmp(line, key, klen) && line[klen] == ',') {
      const char *v = line + klen + 1;
      char *end = NULL;
      double x = g_ascii_strtod(v, &end);
      g_assert(end && *end == ',');
      if (source) {
        static GHashTable *sources; /* key -> interned source text */
        if (!sources) sources = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
        char *s = g_hash_table_lookup(sources, key);
        if (!s) {
          s = g_strndup(end + 1, (gsize)(eol - end - 1));
          g_hash_table_insert(sources, g_strdup(key), s);
        }
        *source = s;
      }
      return x;
    }
    line = *eol ? eol + 1 : eol;
  }
  *found = FALSE;
  return NAN;
}

double validate_published(const char *key, const char **source) {
  gboolean found;
  double x = published_lookup(key, source, &found);
  if (!found) g_error("validate: no published value '%s' in data/validation/published.csv", key);
  return x;
}

double validate_published_or_nan(const char *key, const char **source) {
  gboolean found;
  return published_lookup(key, source, &found);
}

/* ---- running a case ---- */

gboolean validate_load(validate_ctx *c, const char *name, const char *yaml, const char *csv,
                       const char *phases, guint trace_flags, const scenario **sc_out,
                       const trace **tr_out, GError **error) {
  g_autofree char *yname = g_strconcat(name, ".yaml", NULL);
  g_autofree char *tname = g_strconcat(name, ".csv", NULL);
  g_autofree char *pname = g_strconcat(name, "-phases.csv", NULL);
  g_autofree char *yp = g_build_filename(c->work_dir, yname, NULL);
  g_autofree char *tp = g_build_filename(c->work_dir, tname, NULL);
  g_autofree char *pp = g_build_filename(c->work_dir, pname, NULL);
  if (!g_file_set_contents(yp, yaml, -1, error) || !g_file_set_contents(tp, csv, -1, error) ||
      (phases && !g_file_set_contents(pp, phases, -1, error)))
    return FALSE;
  g_autoptr(diag_list) d = diag_list_new(0);
  scenario *sc = c->n_overrides ? scenario_load_with_overrides(yp, c->overrides, c->n_overrides, d)
                                 : scenario_load(yp, d);
  if (sc) sim_check_scenario(sc, d);
  trace *tr = sc ? trace_load_flags(tp, trace_flags, d) : NULL;
  if (tr && phases) trace_load_phases(tr, pp, d);
  if (diag_has_errors(d)) {
    g_autofree char *msg = diag_join(d);
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "case %s: its inputs: %s", name, msg);
    if (sc) scenario_free(sc);
    if (tr) trace_free(tr);
    return FALSE;
  }
  g_ptr_array_add(c->keep, sc);
  g_ptr_array_add(c->keep, tr);
  *sc_out = sc;
  *tr_out = tr;
  return TRUE;
}

results *validate_sim(validate_ctx *c, const char *name, const char *yaml, const char *csv,
                      const char *phases, GError **error) {
  const scenario *sc;
  const trace *tr;
  if (!validate_load(c, name, yaml, csv, phases, 0, &sc, &tr, error)) return NULL;
  results *r = sim_run(sc, tr, NULL, error);
  if (!r) {
    g_prefix_error(error, "case %s: ", name);
    return NULL;
  }
  c->runs++;
  return r;
}

const job_result *validate_job(const results *r, const char *id) {
  for (guint i = 0; i < r->jobs->len; i++) {
    const job_result *j = &g_array_index(r->jobs, job_result, i);
    if (!strcmp(j->id, id)) return j;
  }
  g_error("validate: job %s not in the results", id);
  return NULL;
}

const service_result *validate_service(const results *r, const char *id) {
  for (guint i = 0; i < r->services->len; i++) {
    const service_result *s = &g_array_index(r->services, service_result, i);
    if (!strcmp(s->id, id)) return s;
  }
  g_error("validate: service %s not in the results", id);
  return NULL;
}

/* ---- rows ---- */

static validate_row *validate_add(validate_ctx *c, const char *id, const char *source,
                                  const char *compared, double measured, double predicted) {
  if (c->kind == VALIDATE_KIND_UNSET)
    g_error("validate: row %s added before its family set its kind (validate_set_kind)", id);
  validate_row *r = g_new0(validate_row, 1);
  r->kind = c->kind;
  r->family = (char *)c->family;
  r->rel_error = NAN;
  r->id = g_strdup(id);
  r->source = g_strdup(source);
  r->compared = g_strdup(compared);
  r->measured = measured;
  r->predicted = predicted;
  g_ptr_array_add(c->rows, r);
  return r;
}

void validate_abs(validate_ctx *c, const char *id, const char *source, const char *compared,
                  double measured, double predicted, double tol) {
  validate_row *r = validate_add(c, id, source, compared, measured, predicted);
  r->error = predicted - measured;
  r->rel_error = measured != 0 ? predicted / measured - 1.0 : NAN;
  r->target = g_strdup_printf("|error| <= %g", tol);
  r->status = isfinite(r->error) && fabs(r->error) <= tol + 1e-12 ? VALIDATE_PASS : VALIDATE_FAIL;
}

void validate_rel(validate_ctx *c, const char *id, const char *source, const char *compared,
                  double measured, double predicted, double tol) {
  validate_row *r = validate_add(c, id, source, compared, measured, predicted);
  r->error = measured != 0 ? predicted / measured - 1.0 : NAN;
  r->rel_error = r->error;
  r->target = g_strdup_printf("|rel error| <= %g %%", tol * 100);
  r->status = isfinite(r->error) && fabs(r->error) <= tol + 1e-12 ? VALIDATE_PASS : VALIDATE_FAIL;
}

void validate_bound(validate_ctx *c, const char *id, const char *source, const char *compared,
                    double bound, double predicted, gboolean strict) {
  validate_row *r = validate_add(c, id, source, compared, bound, predicted);
  r->error = predicted - bound;
  r->target = g_strdup_printf("predicted %s %.4g", strict ? "<" : "<=", bound);
  gboolean ok = strict ? predicted < bound : predicted <= bound + 1e-12;
  r->status = isfinite(predicted) && ok ? VALIDATE_PASS : VALIDATE_FAIL;
}

void validate_story(validate_ctx *c, const char *id, const char *source, const char *compared,
                    gboolean reproduced) {
  validate_row *r = validate_add(c, id, source, compared, 1.0, reproduced ? 1.0 : 0.0);
  r->error = r->predicted - 1.0;
  r->target = g_strdup("reproduced (1)");
  r->status = reproduced ? VALIDATE_PASS : VALIDATE_FAIL;
}

void validate_set_kind(validate_ctx *c, validate_kind kind) { c->kind = kind; }

const char *validate_kind_name(validate_kind kind) {
  return kind == VALIDATE_CALIBRATION ? "calibration"
         : kind == VALIDATE_PREDICTION ? "prediction"
         : kind == VALIDATE_ANALYTIC   ? "analytic"
                                       : "?";
}

void validate_skip(validate_ctx *c, const char *id, const char *source, const char *compared,
                   const char *why) {
  validate_row *r = validate_add(c, id, source, compared, NAN, NAN);
  r->error = NAN;
  r->target = g_strdup(why);
  r->status = VALIDATE_SKIP;
}

/* ---- tables ---- */

static void validate_num(GString *out, double v) {
  if (!isfinite(v)) return;
  g_string_append_printf(out, "%.4g", v);
}

static const char *validate_status_name(validate_status s) {
  return s == VALIDATE_PASS ? "yes" : s == VALIDATE_FAIL ? "no" : "skipped";
}

void validate_write_csv(const validate_ctx *c, GString *out) {
  g_string_append(out, "case,kind,source,compared,measured,predicted,error,target,pass\n");
  for (guint i = 0; i < c->rows->len; i++) {
    const validate_row *r = g_ptr_array_index(c->rows, i);
    util_csv_field(out, r->id);
    g_string_append_printf(out, ",%s,", validate_kind_name(r->kind));
    util_csv_field(out, r->source);
    g_string_append_c(out, ',');
    util_csv_field(out, r->compared);
    double v[3] = {r->measured, r->predicted, r->error};
    for (int k = 0; k < 3; k++) {
      g_string_append_c(out, ',');
      if (isfinite(v[k])) util_append_shortest(out, v[k], 6);
    }
    g_string_append_c(out, ',');
    util_csv_field(out, r->target);
    g_string_append_printf(out, ",%s\n", validate_status_name(r->status));
  }
}

/* ---- the error by kind ---- */

static void validate_md_cell(GString *out, const char *text);

/* One family's (or every family's, family NULL) rows of one kind: how many, how many pass,
 * and the median and largest |rel error| over those compared value to value. */
typedef struct validate_tally {
  guint rows, pass, skipped, compared;
  double median, max;
} validate_tally;

static int validate_cmp_double(gconstpointer a, gconstpointer b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static validate_tally validate_tally_of(const validate_ctx *c, const char *family,
                                        validate_kind kind) {
  validate_tally t = {0};
  GArray *err = g_array_new(FALSE, FALSE, sizeof(double));
  for (guint i = 0; i < c->rows->len; i++) {
    const validate_row *r = g_ptr_array_index(c->rows, i);
    if (r->kind != kind || (family && strcmp(r->family, family))) continue;
    t.rows++;
    t.pass += r->status == VALIDATE_PASS;
    t.skipped += r->status == VALIDATE_SKIP;
    if (r->status == VALIDATE_SKIP || !isfinite(r->rel_error)) continue;
    double e = fabs(r->rel_error);
    g_array_append_val(err, e);
  }
  t.compared = err->len;
  if (err->len) {
    g_array_sort(err, validate_cmp_double);
    const double *e = (const double *)(const void *)err->data;
    t.median = err->len % 2 ? e[err->len / 2] : (e[err->len / 2 - 1] + e[err->len / 2]) / 2;
    t.max = e[err->len - 1];
  }
  g_array_free(err, TRUE);
  return t;
}

/* "9/9 pass, median 1.2 %, max 4.6 % of 3", "-" when there is no such row. */
static void validate_tally_cell(GString *out, validate_tally t) {
  if (!t.rows) {
    g_string_append(out, "-");
    return;
  }
  g_string_append_printf(out, "%u/%u pass", t.pass, t.rows);
  if (t.skipped) g_string_append_printf(out, " (%u skipped)", t.skipped);
  if (t.compared)
    g_string_append_printf(out, ", |rel error| median %.3g %%, max %.3g %% of %u", 100 * t.median,
                           100 * t.max, t.compared);
}

static const validate_kind validate_kinds[VALIDATE_N_KINDS] = {
    VALIDATE_CALIBRATION, VALIDATE_PREDICTION, VALIDATE_ANALYTIC};

/* The families in the order their rows came. */
static GPtrArray *validate_family_order(const validate_ctx *c) {
  GPtrArray *fams = g_ptr_array_new();
  for (guint i = 0; i < c->rows->len; i++) {
    const validate_row *r = g_ptr_array_index(c->rows, i);
    gboolean seen = FALSE;
    for (guint k = 0; k < fams->len && !seen; k++) seen = !strcmp(g_ptr_array_index(fams, k), r->family);
    if (!seen) g_ptr_array_add(fams, r->family);
  }
  return fams;
}

/* Per family and for all, the rows of each kind (markdown: a table). */
static void validate_write_by_kind(const validate_ctx *c, GString *out, gboolean markdown) {
  g_string_append(out, markdown ? "\nBy family: the error on calibration rows (in sample) beside "
                                  "the error on prediction rows (out of sample). |rel error| is "
                                  "|predicted / measured - 1| over the rows compared value to "
                                  "value; bound and yes/no rows count in the passes only.\n\n"
                                  "| family | calibration | prediction | analytic |\n|---|---|---|---|\n"
                                : "\nby family (calibration = in sample, prediction = out of sample; "
                                  "|rel error| = |predicted / measured - 1| over the rows compared "
                                  "value to value):\n");
  GPtrArray *fams = validate_family_order(c);
  g_ptr_array_add(fams, NULL); /* all families */
  for (guint f = 0; f < fams->len; f++) {
    const char *fam = g_ptr_array_index(fams, f);
    g_string_append_printf(out, markdown ? "| %s |" : "%-9s", fam ? fam : "all");
    for (int k = 0; k < VALIDATE_N_KINDS; k++) {
      g_autoptr(GString) cell = g_string_new(NULL);
      validate_tally_cell(cell, validate_tally_of(c, fam, validate_kinds[k]));
      if (markdown) {
        g_string_append_c(out, ' ');
        validate_md_cell(out, cell->str);
        g_string_append(out, " |");
      } else {
        g_string_append_printf(out, "  %s: %s%s", validate_kind_name(validate_kinds[k]), cell->str,
                               k + 1 < VALIDATE_N_KINDS ? ";" : "");
      }
    }
    g_string_append_c(out, '\n');
  }
  g_ptr_array_free(fams, TRUE);
}

/* "102 cases: 102 pass, 0 fail, 0 skipped (96 simulations); 71 calibration, 25 prediction,
 * 6 analytic" */
static void validate_write_totals(const validate_ctx *c, GString *out, const char *end) {
  guint pass, fail, skip, n[VALIDATE_N_KINDS] = {0};
  validate_counts(c, &pass, &fail, &skip);
  for (int k = 0; k < VALIDATE_N_KINDS; k++) n[k] = validate_tally_of(c, NULL, validate_kinds[k]).rows;
  g_string_append_printf(out, "\n%u cases: %u pass, %u fail, %u skipped (%u simulations); "
                         "%u calibration, %u prediction, %u analytic%s\n",
                         c->rows->len, pass, fail, skip, c->runs, n[0], n[1], n[2], end);
}

/* The fitted constants and the rows each was fitted on. */
static void validate_write_fits(GString *out, gboolean markdown) {
  g_string_append(out, markdown ? "\nFitted constants and the rows each was fitted on (no other "
                                  "row may be used to fit it; every one is `calibration`):\n\n"
                                : "\nfitted constants (the rows each was fitted on):\n");
  for (const validate_fit *f = validate_fits(); f->constant; f++) {
    g_string_append_printf(out, markdown ? "* %s (`%s`): " : "  %s [%s]: ", f->constant, f->where);
    for (const char *const *r = f->rows; *r; r++)
      g_string_append_printf(out, markdown ? "%s`%s`" : "%s%s", r == f->rows ? "" : ", ", *r);
    g_string_append_c(out, '\n');
  }
}

/* Aligned: case, kind, compared, measured, predicted, error, target, pass; then the error
 * by kind, the totals, the fits, and the sources as numbered notes (they are long). */
void validate_write_text(const validate_ctx *c, GString *out) {
  guint w_id = 4, w_cmp = 8;
  for (guint i = 0; i < c->rows->len; i++) {
    const validate_row *r = g_ptr_array_index(c->rows, i);
    w_id = MAX(w_id, (guint)strlen(r->id));
    w_cmp = MAX(w_cmp, (guint)MIN(strlen(r->compared), 64));
  }
  g_string_append_printf(out, "%-*s  %-11s  %-*s  %10s  %10s  %10s  %-24s  %s\n", w_id, "case",
                         "kind", w_cmp, "compared", "measured", "predicted", "error", "target",
                         "pass");
  GPtrArray *sources = g_ptr_array_new();
  for (guint i = 0; i < c->rows->len; i++) {
    const validate_row *r = g_ptr_array_index(c->rows, i);
    guint src = 0;
    for (; src < sources->len; src++)
      if (!strcmp(g_ptr_array_index(sources, src), r->source)) break;
    if (src == sources->len) g_ptr_array_add(sources, r->source);
    GString *num[3];
    double v[3] = {r->measured, r->predicted, r->error};
    for (int k = 0; k < 3; k++) {
      num[k] = g_string_new(NULL);
      validate_num(num[k], v[k]);
    }
    g_string_append_printf(out, "%-*s  %-11s  %-*.64s  %10s  %10s  %10s  %-24s  %s [%u]\n", w_id,
                           r->id, validate_kind_name(r->kind), w_cmp, r->compared, num[0]->str,
                           num[1]->str, num[2]->str, r->target, validate_status_name(r->status),
                           src + 1);
    for (int k = 0; k < 3; k++) g_string_free(num[k], TRUE);
  }
  validate_write_by_kind(c, out, FALSE);
  validate_write_totals(c, out, "");
  validate_write_fits(out, FALSE);
  g_string_append(out, "\nsources:\n");
  for (guint i = 0; i < sources->len; i++)
    g_string_append_printf(out, "[%u] %s\n", i + 1, (const char *)g_ptr_array_index(sources, i));
  g_ptr_array_free(sources, TRUE);
}

/* Appends text with the table separator escaped. */
static void validate_md_cell(GString *out, const char *text) {
  for (const char *p = text; *p; p++) {
    if (*p == '|') g_string_append_c(out, '\\');
    g_string_append_c(out, *p);
  }
}

/* Markdown (docs/models.md's validation section is this output): one table row per case,
 * numbers with four significant digits, then the totals, the error by kind, the fits and
 * the numbered sources. */
void validate_write_markdown(const validate_ctx *c, GString *out) {
  g_string_append(out, "| case | kind | compared | measured | predicted | error | target | pass |\n"
                       "|---|---|---|---|---|---|---|---|\n");
  GPtrArray *sources = g_ptr_array_new();
  for (guint i = 0; i < c->rows->len; i++) {
    const validate_row *r = g_ptr_array_index(c->rows, i);
    guint src = 0;
    for (; src < sources->len; src++)
      if (!strcmp(g_ptr_array_index(sources, src), r->source)) break;
    if (src == sources->len) g_ptr_array_add(sources, r->source);
    g_string_append_printf(out, "| `%s` | %s | ", r->id, validate_kind_name(r->kind));
    validate_md_cell(out, r->compared);
    g_string_append_printf(out, " [%u] |", src + 1);
    double v[3] = {r->measured, r->predicted, r->error};
    for (int k = 0; k < 3; k++) {
      g_string_append_c(out, ' ');
      validate_num(out, v[k]);
      g_string_append(out, " |");
    }
    g_string_append_c(out, ' ');
    validate_md_cell(out, r->target);
    g_string_append_printf(out, " | %s |\n", validate_status_name(r->status));
  }
  validate_write_totals(c, out, ".");
  validate_write_by_kind(c, out, TRUE);
  validate_write_fits(out, TRUE);
  g_string_append_c(out, '\n');
  for (guint i = 0; i < sources->len; i++)
    g_string_append_printf(out, "%u. %s\n", i + 1, (const char *)g_ptr_array_index(sources, i));
  g_ptr_array_free(sources, TRUE);
}
