/* validate-fgdw.c: the FGD fill-up experiment on the paper's other openb workloads, as
 * predictions: the pod lists FGD's repository makes from the default one (more CPU per pod,
 * more GPU-share pods, GPU-model constraints, more multi-GPU pods), each imported and filled
 * exactly as the fgd family does the default list, against the published means at 130 %.
 * Nothing was fitted on them. FGD's cpu250, gpushare40, gpuspec33 and multigpu50 lists are
 * held out of all validation (they judge the result) and have no rows. A list absent from
 * the traces folder's alibaba-gpu-v2023-openb/ skips its six rows. */
#include "validate.h"
#include "import.h"
#include "fill.h"
#include <math.h>

#define FGDW_DIR "alibaba-gpu-v2023-openb"
#define FGDW_NODES "openb_node_list_gpu_node.csv"

/* The workloads with published curves, less the held-out ones. */
static const char *const fgdw_workloads[] = {
    "cpu050",     "cpu100",      "cpu200",    "gpushare60", "gpushare80", "gpushare100",
    "gpuspec10",  "gpuspec20",   "gpuspec25", "multigpu20", "multigpu30", "multigpu40"};

static char *fgdw_key(const char *w, placement_policy p) {
  return g_strdup_printf("fgdw.%s.%s.alloc_130", w, placement_policy_name(p));
}

static char *fgdw_compared(const char *w, placement_policy p) {
  return g_strdup_printf("%s on openb_pod_list_%s: GPU allocation %% at 130 %% arrived "
                         "(mean, 10 seeds)", fill_paper_label(p), w);
}

static void fgdw_skip(validate_ctx *c, const char *w, const char *why) {
  for (guint i = 0; i < FILL_PAPER_POLICIES; i++) {
    g_autofree char *key = fgdw_key(w, fill_paper_policies[i]);
    g_autofree char *cmp = fgdw_compared(w, fill_paper_policies[i]);
    const char *src = NULL;
    validate_published(key, &src);
    validate_skip(c, key, src, cmp, why);
  }
}

/* One workload: import (as `import alibaba-openb --nodes --pods all`), fill, six rows. */
static gboolean fgdw_workload(validate_ctx *c, const char *w, const char *pods,
                              const char *nodes, GError **error) {
  const char *files[] = {pods};
  const char *opts[] = {"nodes", nodes, "pods", "all", NULL};
  g_autofree char *csv = NULL, *yaml = NULL, *name = g_strdup_printf("fgdw-%s", w);
  if (!import_text("alibaba-openb", files, 1, opts, &csv, &yaml, error)) return FALSE;
  const scenario *sc;
  const trace *tr;
  if (!validate_load(c, name, yaml, csv, NULL, TRACE_ALLOW_CPU_ONLY, &sc, &tr, error))
    return FALSE;
  fill_setup *s = fill_setup_new(sc, 0, tr, error);
  if (!s) return FALSE;
  guint n;
  fill_result **runs = fill_run_paper(s, MAX(c->threads, 1u), &n);
  c->runs += n;
  for (guint i = 0; i < FILL_PAPER_POLICIES; i++) {
    placement_policy p = fill_paper_policies[i];
    g_autofree char *key = fgdw_key(w, p);
    g_autofree char *cmp = fgdw_compared(w, p);
    const char *src = NULL;
    double published = validate_published(key, &src);
    double mine = fill_mean_alloc(runs, n, p, 130);
    validate_abs(c, key, src, cmp, published, mine, FILL_PAPER_TOLERANCE_PP);
    g_string_append_printf(c->scatter, "fgdw,%s.%s,%.6g,%.6g\n", w, placement_policy_name(p),
                           published, mine);
  }
  for (guint i = 0; i < n; i++) fill_result_free(runs[i]);
  g_free(runs);
  fill_setup_free(s);
  return TRUE;
}

static gboolean fgdw_run(validate_ctx *c, GError **error) {
  validate_set_kind(c, VALIDATE_PREDICTION); /* nothing was fitted on these lists */
  g_autofree char *dir = g_build_filename(c->traces_dir, FGDW_DIR, NULL);
  g_autofree char *nodes = g_build_filename(dir, FGDW_NODES, NULL);
  gboolean have_nodes = g_file_test(nodes, G_FILE_TEST_IS_REGULAR);
  for (guint i = 0; i < G_N_ELEMENTS(fgdw_workloads); i++) {
    const char *w = fgdw_workloads[i];
    g_autofree char *base = g_strdup_printf("openb_pod_list_%s.csv", w);
    g_autofree char *pods = g_build_filename(dir, base, NULL);
    if (!have_nodes || !g_file_test(pods, G_FILE_TEST_IS_REGULAR)) {
      g_autofree char *why = g_strdup_printf("no " FGDW_DIR "/%s and %s (FGD's data/csv)",
                                             base, FGDW_NODES);
      fgdw_skip(c, w, why);
    } else if (!fgdw_workload(c, w, pods, nodes, error)) {
      g_prefix_error(error, "%s: ", base);
      return FALSE;
    }
  }
  return TRUE;
}

const validate_family validate_fgdw_family = {
    .name = "fgdw",
    .summary = "FGD fill-up experiment on the paper's other openb workloads (predictions)",
    .run = fgdw_run,
};
