/* validate-fgd.c: the FGD paper's fill-up experiment (Weng et al., ATC '23) through
 * `sharesim fill`'s code: the openb default pod list on the GPU node list (imported as
 * `import alibaba-openb --nodes --pods all` would), six policies x seeds 42-51, shuffled,
 * inflation 1.3, against the allocation curves the FGD repository publishes: per policy the
 * mean at 130 % arrived, the largest gap over 0..130 %, and the order. Skipped without
 * ../shared/traces/alibaba-gpu-v2023-openb (the importer is import.c's alibaba-openb). */
#include "validate.h"
#include "import.h"
#include "fill.h"
#include <math.h>
#include <string.h>

#define FGD_DIR "alibaba-gpu-v2023-openb"
#define FGD_PODS "openb_pod_list_default.csv"
#define FGD_NODES "openb_node_list_gpu_node.csv"
#define FGD_TOL_PP FILL_PAPER_TOLERANCE_PP
#define FGD_ORDER "the six policies at 130 % in the published order (Random lowest .. FGD)"

static const char *fgd_source(const char *key) {
  const char *src = NULL;
  validate_published(key, &src);
  return src;
}

/* What the 130 % row compares, for policy label. */
static char *fgd_compared_130(const char *label) {
  return g_strdup_printf("%s: GPU allocation %% at 130 %% arrived (mean, 10 seeds)", label);
}

static char *fgd_key(placement_policy p) {
  return g_strdup_printf("fgd.%s.alloc_130", placement_policy_name(p));
}

/* One row per compared figure, every one skipped with the reason. */
static void fgd_skip_all(validate_ctx *c, const char *why) {
  const char *curve = fgd_source("fgd.curve_points");
  for (guint i = 0; i < FILL_PAPER_POLICIES; i++) {
    placement_policy p = fill_paper_policies[i];
    const char *name = placement_policy_name(p), *label = fill_paper_label(p);
    g_autofree char *key = fgd_key(p);
    g_autofree char *id2 = g_strdup_printf("fgd.%s.curve", name);
    g_autofree char *cmp1 = fgd_compared_130(label);
    g_autofree char *cmp2 =
        g_strdup_printf("%s: GPU allocation %%, largest gap of 0..130 %%", label);
    validate_skip(c, key, fgd_source(key), cmp1, why);
    validate_skip(c, id2, curve, cmp2, why);
  }
  validate_skip(c, "fgd.order", curve, FGD_ORDER, why);
}

/* The trace and scenario, imported into the work folder and loaded. */
static gboolean fgd_inputs(validate_ctx *c, const char *pods, const char *nodes,
                           const scenario **sc, const trace **tr, GError **error) {
  const char *files[] = {pods};
  const char *opts[] = {"nodes", nodes, "pods", "all", NULL};
  g_autofree char *csv = NULL, *yaml = NULL;
  if (!import_text("alibaba-openb", files, 1, opts, &csv, &yaml, error)) return FALSE;
  return validate_load(c, "fgd-openb", yaml, csv, NULL, TRACE_ALLOW_CPU_ONLY, sc, tr, error);
}

/* Rows for policy p from its runs (the seeds of p, consecutive in runs). */
static void fgd_policy_rows(validate_ctx *c, fill_result *const *runs, guint n,
                            placement_policy p) {
  const char *name = placement_policy_name(p), *label = fill_paper_label(p);
  g_autofree char *key = fgd_key(p);
  const char *src = NULL;
  double published = validate_published(key, &src);
  double mine = fill_mean_alloc(runs, n, p, 130);
  g_autofree char *cmp1 = fgd_compared_130(label);
  validate_abs(c, key, src, cmp1, published, mine, FGD_TOL_PP);
  g_string_append_printf(c->scatter, "fgd,%s,%.6g,%.6g\n", name, published, mine);
  /* the largest gap; a step no run reached counts as a miss (NAN) */
  guint worst = 0;
  double gap = -1, at_pub = NAN, at_mine = NAN;
  for (guint pct = 0; pct <= 130; pct++) {
    double pub = fill_paper_alloc(p, pct), v = fill_mean_alloc(runs, n, p, pct);
    double g = isnan(v) ? INFINITY : fabs(v - pub);
    if (g > gap) {
      gap = g;
      worst = pct;
      at_pub = pub;
      at_mine = v;
    }
  }
  g_autofree char *id2 = g_strdup_printf("fgd.%s.curve", name);
  g_autofree char *cmp2 =
      g_strdup_printf("%s: GPU allocation %%, largest gap of 0..130 %% at %u %%", label, worst);
  validate_abs(c, id2, fgd_source("fgd.curve_points"), cmp2, at_pub, at_mine, FGD_TOL_PP);
}

/* The means at 130 % rise in the paper's order of the policies (its table's order). */
static gboolean fgd_in_order(fill_result *const *runs, guint n) {
  double prev = -INFINITY;
  for (guint i = 0; i < FILL_PAPER_POLICIES; i++) {
    double v = fill_mean_alloc(runs, n, fill_paper_policies[i], 130);
    if (!(v > prev)) return FALSE;
    prev = v;
  }
  return TRUE;
}

static gboolean fgd_run(validate_ctx *c, GError **error) {
  g_assert(validate_published("fgd.curve_points", NULL) == 131);
  /* the one workload the policies' implementation was developed on: in sample */
  validate_set_kind(c, VALIDATE_CALIBRATION);
  g_autofree char *dir = g_build_filename(c->traces_dir, FGD_DIR, NULL);
  g_autofree char *pods = g_build_filename(dir, FGD_PODS, NULL);
  g_autofree char *nodes = g_build_filename(dir, FGD_NODES, NULL);
  if (!g_file_test(pods, G_FILE_TEST_IS_REGULAR) || !g_file_test(nodes, G_FILE_TEST_IS_REGULAR)) {
    fgd_skip_all(c, "no " FGD_DIR " pod and node lists");
    return TRUE;
  }
  const scenario *sc;
  const trace *tr;
  if (!fgd_inputs(c, pods, nodes, &sc, &tr, error)) return FALSE;
  fill_setup *s = fill_setup_new(sc, 0, tr, error);
  if (!s) return FALSE;
  guint n;
  fill_result **runs = fill_run_paper(s, MAX(c->threads, 1u), &n);
  c->runs += n;
  for (guint i = 0; i < FILL_PAPER_POLICIES; i++)
    fgd_policy_rows(c, runs, n, fill_paper_policies[i]);
  validate_story(c, "fgd.order", fgd_source("fgd.curve_points"),
                 FGD_ORDER, fgd_in_order(runs, n));
  for (guint i = 0; i < n; i++) fill_result_free(runs[i]);
  g_free(runs);
  fill_setup_free(s);
  return TRUE;
}

const validate_family validate_fgd_family = {
    .name = "fgd",
    .summary = "FGD ATC'23 fill-up experiment on openb: allocation of six placement policies",
    .run = fgd_run,
};
