/* fill-paper.c: the published result the fill experiment is checked against (fill.h): the
 * mean GPU allocation (% of milli-GPU capacity) over the 10 seeds (42..51) of each policy at
 * each whole percent of arrived workload, 0..130 %, on the openb default pod list and GPU
 * node list, inflation 1.3, shuffled arrivals. Derived from the FGD repository
 * (hkust-adsl/kubernetes-scheduler-simulator, commit 8f3d641, file experiments/analysis/
 * expected_results/analysis_allo_discrete.csv): the mean of its 10 rows per policy, rounded
 * to 0.01; fill_paper_compare (`sharesim fill --paper`, the tests) and paper.csv (the
 * published curves beside the runs' in fill.gp). */
#include "fill.h"
#include <math.h>

#define FILL_PAPER_STEPS 131

static const struct {
  placement_policy policy;
  const char *label;   /* the paper's name */
  double alloc[FILL_PAPER_STEPS];
} fill_paper[] = {
    {&place_random_ops.input, "Random", {
        0.25, 1.00, 2.00, 2.99, 3.98, 5.01, 6.01, 6.99, 8.01, 9.01, 10.01, 11.02, 12.01, 13.02,
        14.00, 15.01, 15.99, 16.99, 18.00, 19.00, 20.00, 21.00, 21.99, 23.01, 23.98, 25.02,
        25.97, 27.00, 27.99, 29.00, 30.02, 31.01, 32.00, 33.00, 33.99, 35.00, 35.99, 36.99,
        38.01, 39.00, 40.01, 41.01, 42.00, 43.02, 43.99, 45.00, 45.98, 46.98, 47.97, 48.97,
        49.97, 50.97, 51.94, 52.92, 53.90, 54.90, 55.88, 56.84, 57.82, 58.78, 59.73, 60.69,
        61.66, 62.61, 63.56, 64.51, 65.46, 66.41, 67.34, 68.28, 69.21, 70.16, 71.09, 72.03,
        72.96, 73.93, 74.87, 75.82, 76.80, 77.73, 78.66, 79.57, 80.52, 81.45, 82.36, 83.18,
        83.78, 84.23, 84.61, 84.85, 85.02, 85.16, 85.30, 85.44, 85.58, 85.72, 85.84, 85.96,
        86.08, 86.21, 86.30, 86.37, 86.44, 86.51, 86.56, 86.62, 86.68, 86.74, 86.79, 86.83,
        86.88, 86.93, 86.97, 87.02, 87.06, 87.10, 87.14, 87.18, 87.21, 87.25, 87.28, 87.30,
        87.33, 87.36, 87.38, 87.40, 87.41, 87.42, 87.44, 87.46, 87.47
    }},
    {&place_dot_product_ops.input, "DotProd", {
        0.25, 1.00, 2.00, 2.99, 3.98, 5.01, 6.01, 6.99, 8.01, 9.01, 10.01, 11.02, 12.01, 13.02,
        14.00, 15.01, 15.99, 16.99, 18.00, 19.00, 20.00, 21.00, 21.99, 23.01, 23.98, 25.02,
        25.97, 27.00, 27.99, 29.00, 30.02, 31.01, 32.00, 33.00, 33.99, 35.00, 35.99, 36.99,
        38.01, 39.00, 40.01, 41.01, 42.00, 43.02, 44.00, 45.01, 45.99, 47.00, 48.00, 49.01,
        50.01, 51.01, 52.00, 53.01, 54.00, 55.00, 56.00, 57.00, 57.99, 59.01, 60.00, 61.00,
        62.00, 63.00, 64.00, 65.00, 66.00, 67.00, 68.00, 69.00, 70.00, 71.00, 72.01, 73.03,
        74.00, 74.99, 76.00, 76.99, 78.01, 78.99, 80.02, 81.00, 82.00, 83.00, 83.99, 85.02,
        86.01, 87.00, 87.99, 89.00, 89.98, 90.53, 90.56, 90.57, 90.57, 90.58, 90.59, 90.60,
        90.61, 90.62, 90.62, 90.63, 90.65, 90.65, 90.66, 90.67, 90.68, 90.68, 90.69, 90.70,
        90.70, 90.71, 90.72, 90.72, 90.73, 90.73, 90.74, 90.74, 90.75, 90.76, 90.76, 90.77,
        90.78, 90.79, 90.80, 90.81, 90.82, 90.82, 90.83, 90.84, 90.85
    }},
    {&place_gpu_clustering_ops.input, "GpuClustering", {
        0.25, 1.00, 2.00, 2.99, 3.98, 5.01, 6.01, 6.99, 8.01, 9.01, 10.01, 11.02, 12.01, 13.02,
        14.00, 15.01, 15.99, 16.99, 18.00, 19.00, 20.00, 21.00, 21.99, 23.01, 23.98, 25.02,
        25.97, 27.00, 27.99, 29.00, 30.02, 31.01, 32.00, 33.00, 33.99, 35.00, 35.99, 36.99,
        38.01, 39.00, 40.01, 41.01, 42.00, 43.02, 44.00, 45.01, 45.99, 47.00, 48.00, 49.01,
        50.01, 51.01, 52.00, 53.01, 54.00, 55.00, 56.00, 57.00, 57.99, 59.01, 60.00, 61.00,
        62.00, 63.00, 64.00, 65.00, 66.00, 67.00, 68.00, 69.00, 70.00, 71.00, 72.01, 73.03,
        74.00, 74.99, 76.00, 76.99, 78.01, 78.99, 80.02, 81.00, 82.00, 83.00, 83.99, 85.02,
        86.01, 87.00, 87.99, 89.00, 89.98, 90.93, 91.46, 91.59, 91.60, 91.60, 91.61, 91.62,
        91.63, 91.65, 91.65, 91.66, 91.67, 91.68, 91.69, 91.70, 91.70, 91.71, 91.72, 91.72,
        91.73, 91.74, 91.74, 91.75, 91.75, 91.76, 91.77, 91.78, 91.78, 91.79, 91.80, 91.80,
        91.81, 91.82, 91.83, 91.84, 91.85, 91.85, 91.86, 91.87, 91.88
    }},
    {&place_gpu_packing_ops.input, "GpuPacking", {
        0.25, 1.00, 2.00, 2.99, 3.98, 5.01, 6.01, 6.99, 8.01, 9.01, 10.01, 11.02, 12.01, 13.02,
        14.00, 15.01, 15.99, 16.99, 18.00, 19.00, 20.00, 21.00, 21.99, 23.01, 23.98, 25.02,
        25.97, 27.00, 27.99, 29.00, 30.02, 31.01, 32.00, 33.00, 33.99, 35.00, 35.99, 36.99,
        38.01, 39.00, 40.01, 41.01, 42.00, 43.02, 44.00, 45.01, 45.99, 47.00, 48.00, 49.01,
        50.01, 51.01, 52.00, 53.01, 54.00, 55.00, 56.00, 57.00, 57.99, 59.01, 60.00, 61.00,
        62.00, 63.00, 64.00, 65.00, 66.00, 67.00, 68.00, 69.00, 70.00, 71.00, 72.01, 73.03,
        74.00, 74.99, 76.00, 76.99, 78.01, 78.99, 80.02, 81.00, 82.00, 83.00, 83.99, 85.02,
        86.01, 87.00, 87.99, 89.00, 89.98, 90.95, 91.58, 91.72, 91.73, 91.74, 91.75, 91.75,
        91.76, 91.77, 91.78, 91.79, 91.80, 91.81, 91.82, 91.83, 91.83, 91.84, 91.84, 91.85,
        91.85, 91.87, 91.87, 91.88, 91.88, 91.89, 91.89, 91.90, 91.91, 91.92, 91.92, 91.93,
        91.94, 91.95, 91.96, 91.97, 91.97, 91.98, 91.98, 92.00, 92.00
    }},
    {&place_best_fit_ops.input, "BestFit", {
        0.25, 1.00, 2.00, 2.99, 3.98, 5.01, 6.01, 6.99, 8.01, 9.01, 10.01, 11.02, 12.01, 13.02,
        14.00, 15.01, 15.99, 16.99, 18.00, 19.00, 20.00, 21.00, 21.99, 23.01, 23.98, 25.02,
        25.97, 27.00, 27.99, 29.00, 30.02, 31.01, 32.00, 33.00, 33.99, 35.00, 35.99, 36.99,
        38.01, 39.00, 40.01, 41.01, 42.00, 43.02, 44.00, 45.01, 45.99, 47.00, 48.00, 49.01,
        50.01, 51.01, 52.00, 53.01, 54.00, 55.00, 56.00, 57.00, 57.99, 59.01, 60.00, 61.00,
        62.00, 63.00, 64.00, 65.00, 66.00, 67.00, 68.00, 69.00, 70.00, 71.00, 72.01, 73.03,
        74.00, 74.99, 76.00, 76.99, 78.01, 78.99, 80.02, 81.00, 82.00, 83.00, 83.99, 85.02,
        86.01, 87.00, 87.99, 89.02, 89.99, 91.00, 92.00, 92.75, 92.81, 92.82, 92.83, 92.84,
        92.85, 92.86, 92.86, 92.87, 92.88, 92.89, 92.90, 92.91, 92.91, 92.92, 92.93, 92.93,
        92.94, 92.95, 92.95, 92.96, 92.96, 92.97, 92.97, 92.98, 92.99, 93.00, 93.00, 93.01,
        93.01, 93.02, 93.03, 93.04, 93.05, 93.05, 93.06, 93.07, 93.08
    }},
    {&place_fgd_ops.input, "FGD", {
        0.25, 1.00, 2.00, 2.99, 3.98, 5.01, 6.01, 6.99, 8.01, 9.01, 10.01, 11.02, 12.01, 13.02,
        14.00, 15.01, 15.99, 16.99, 18.00, 19.00, 20.00, 21.00, 21.99, 23.01, 23.98, 25.02,
        25.97, 27.00, 27.99, 29.00, 30.02, 31.01, 32.00, 33.00, 33.99, 35.00, 35.99, 36.99,
        38.01, 39.00, 40.01, 41.01, 42.00, 43.02, 44.00, 45.01, 45.99, 47.00, 48.00, 49.01,
        50.01, 51.01, 52.00, 53.01, 54.00, 55.00, 56.00, 57.00, 57.99, 59.01, 60.00, 61.00,
        62.00, 63.00, 64.00, 65.00, 66.00, 67.00, 68.00, 69.00, 70.00, 71.00, 72.01, 73.03,
        74.00, 74.99, 76.00, 76.99, 78.01, 78.99, 80.02, 81.00, 82.00, 83.00, 83.99, 85.02,
        86.01, 87.00, 87.99, 89.00, 89.98, 90.98, 91.98, 92.97, 93.99, 94.91, 95.19, 95.20,
        95.21, 95.22, 95.23, 95.24, 95.25, 95.25, 95.26, 95.27, 95.28, 95.28, 95.29, 95.29,
        95.30, 95.30, 95.31, 95.31, 95.32, 95.32, 95.33, 95.33, 95.34, 95.34, 95.35, 95.35,
        95.36, 95.36, 95.37, 95.38, 95.38, 95.38, 95.39, 95.39, 95.39
    }},
};

double fill_paper_alloc(placement_policy p, guint pct) {
  for (guint i = 0; i < G_N_ELEMENTS(fill_paper); i++)
    if (fill_paper[i].policy == p && pct < FILL_PAPER_STEPS) return fill_paper[i].alloc[pct];
  return NAN;
}

const char *fill_paper_label(placement_policy p) {
  for (guint i = 0; i < G_N_ELEMENTS(fill_paper); i++)
    if (fill_paper[i].policy == p) return fill_paper[i].label;
  return NULL;
}

void fill_write_paper_csv(GString *out, fill_result *const *runs, guint n) {
  g_string_append(out, "policy,paper,arrived_pct,alloc_milli_pct\n");
  for (guint i = 0; i < G_N_ELEMENTS(fill_paper); i++) {
    gboolean ran = FALSE;
    for (guint k = 0; k < n && !ran; k++) ran = runs[k]->policy == fill_paper[i].policy;
    if (!ran) continue;
    for (guint pct = 0; pct < FILL_PAPER_STEPS; pct++)
      g_string_append_printf(out, "%s,%s,%u,%.2f\n", placement_policy_name(fill_paper[i].policy),
                             fill_paper[i].label, pct, fill_paper[i].alloc[pct]);
  }
}

gboolean fill_paper_compare(fill_result *const *runs, guint n, double tol_pp, GString *report) {
  gboolean ok = TRUE;
  double prev = -INFINITY;
  if (report)
    g_string_append_printf(report, "%-15s %-14s %9s %9s %8s %16s  %s\n", "policy", "paper",
                           "mean@130", "paper@130", "gap_pp", "worst_gap_pp@pct", "verdict");
  for (guint i = 0; i < G_N_ELEMENTS(fill_paper); i++) {
    placement_policy p = fill_paper[i].policy;
    double mine = fill_mean_alloc(runs, n, p, FILL_PAPER_STEPS - 1);
    double worst = 0;
    guint worst_pct = 0;
    gboolean have_all = !isnan(mine);
    for (guint pct = 0; pct < FILL_PAPER_STEPS && have_all; pct++) {
      double v = fill_mean_alloc(runs, n, p, pct);
      if (isnan(v)) {
        have_all = FALSE;
        break;
      }
      if (fabs(v - fill_paper[i].alloc[pct]) > fabs(worst)) {
        worst = v - fill_paper[i].alloc[pct];
        worst_pct = pct;
      }
    }
    gboolean in_order = have_all && mine > prev;
    gboolean pass = have_all && fabs(worst) <= tol_pp && in_order;
    if (have_all) prev = mine;
    ok = ok && pass;
    if (!report) continue;
    if (!have_all) {
      g_string_append_printf(report, "%-15s %-14s %9s %9.2f %8s %16s  FAIL (not run to 130 %%)\n",
                             placement_policy_name(p), fill_paper[i].label, "-",
                             fill_paper[i].alloc[FILL_PAPER_STEPS - 1], "-", "-");
      continue;
    }
    g_string_append_printf(report, "%-15s %-14s %9.2f %9.2f %+8.2f %+9.2f @ %3u %%  %s\n",
                           placement_policy_name(p), fill_paper[i].label, mine,
                           fill_paper[i].alloc[FILL_PAPER_STEPS - 1],
                           mine - fill_paper[i].alloc[FILL_PAPER_STEPS - 1], worst, worst_pct,
                           pass ? "ok" : !in_order ? "FAIL (out of order)" : "FAIL");
  }
  if (report)
    g_string_append_printf(report, "tolerance %.2f pp at every arrived %% 0..130, policies in "
                           "the published order: %s\n", tol_pp, ok ? "PASS" : "FAIL");
  return ok;
}
