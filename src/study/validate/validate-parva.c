/* validate-parva.c: ParvaGPU's processes per MIG slice (SC'24 profiles, A100-80GB): two and
 * three MPS processes of one model in one 1g or 7g instance at batch 1 and 8, their aggregate
 * throughput and latency against one process. One simulation runs every (sm, gpu_util)
 * candidate alone in 1g-7g instances and as 2 and 3 MPS clients of a 1g and a 7g instance;
 * each model and batch takes the candidate that fits its one-process speeds on 1g-4g over
 * 7g and its two processes on 1g best, and the rows compare the median over the models of
 * the simulated figures at that candidate with the median of the published ones. */
#include "validate.h"
#include <math.h>
#include <string.h>

#define P_SM 200 /* sm = 0.005, 0.010, ... 1 */
#define P_U 50   /* gpu_util = 0.02, 0.04, ... 1 */
#define P_CAND (P_SM * P_U)

/* The pools of one candidate: alone in each size, then n clients of a 1g and a 7g; every
 * instance runs an MPS server, as ParvaGPU's do (one process alone included). */
typedef struct parva_pool {
  const char *name;
  const char *layout;
  int size_g, clients;
} parva_pool;

static const parva_pool p_pools[] = {
    {"s1g", "1g.10gb", 1, 1}, {"s2g", "2g.20gb", 2, 1}, {"s3g", "3g.40gb", 3, 1},
    {"s4g", "4g.40gb", 4, 1}, {"s7g", "7g.80gb", 7, 1}, {"m1g2", "1g.10gb", 1, 2},
    {"m1g3", "1g.10gb", 1, 3}, {"m7g2", "7g.80gb", 7, 2}, {"m7g3", "7g.80gb", 7, 3},
};
enum { P_S1, P_S2, P_S3, P_S4, P_S7, P_M1_2, P_M1_3, P_M7_2, P_M7_3, P_NPOOLS };

static const char *const p_models[] = {"bert", "densenet121", "inceptionv3", "mobilenetv2",
                                       "resnet50", "resnet152", "vgg16"};
#define P_NMODELS G_N_ELEMENTS(p_models)

static char *p_scenario(void) {
  GString *y = g_string_new("name: parva-slices\nseed: 1\npools:\n");
  for (int s = 0; s < P_NPOOLS; s++) {
    const parva_pool *pp = &p_pools[s];
    g_string_append_printf(y, "  - name: %s\n    gpu: A100-80GB\n    nodes: %d\n"
                              "    gpus_per_node: 1\n    strategy: mig\n    layout: %s\n"
                              "    replicas: %d\n    instance_sharing: mps\n",
                           pp->name, P_CAND, pp->layout, pp->clients);
  }
  g_string_append(y, "routing:\n");
  for (int s = 0; s < P_NPOOLS; s++)
    g_string_append_printf(y, "  - {label: %s, pool: %s}\n", p_pools[s].name, p_pools[s].name);
  return g_string_free(y, FALSE);
}

static double p_sm(int k) { return (k / P_U + 1) / (double)P_SM; }
static double p_u(int k) { return (k % P_U + 1) / (double)P_U; }

/* Candidate k's clients of pool s are consecutive rows, so placement (pack: the fullest GPU
 * that holds the job, lowest index on ties) puts them on one GPU, candidate k on GPU k. */
static char *p_trace(void) {
  GString *t = g_string_new("id,submit_s,kind,gpus,mem_gb,duration_s,label,sm,gpu_util\n");
  for (int s = 0; s < P_NPOOLS; s++)
    for (int k = 0; k < P_CAND; k++)
      for (int i = 0; i < p_pools[s].clients; i++)
        g_string_append_printf(t, "%s-%d-%d,0,batch,1,1,1000,%s,%g,%g\n", p_pools[s].name, k, i,
                               p_pools[s].name, p_sm(k), p_u(k));
  return g_string_free(t, FALSE);
}

/* speed[s][k]: the speed of one client of candidate k in pool s (work / run time). */
static void p_speeds(const results *r, double (*speed)[P_CAND]) {
  guint row = 0;
  for (int s = 0; s < P_NPOOLS; s++)
    for (int k = 0; k < P_CAND; k++) {
      const job_result *j = &g_array_index(r->jobs, job_result, row);
      char id[48];
      g_snprintf(id, sizeof id, "%s-%d-0", p_pools[s].name, k);
      g_assert(!strcmp(j->id, id));
      speed[s][k] = 1000.0 / (j->end_s - j->start_s);
      row += (guint)p_pools[s].clients;
    }
}

/* A published profile value; NAN where the profile has none. */
static double p_pub(const char *model, int batch, int g, int n, const char *what,
                    const char **src) {
  g_autofree char *key = g_strdup_printf("parva.%s.b%d.%dg.n%d.%s", model, batch, g, n, what);
  return validate_published_or_nan(key, src);
}

/* The candidate whose speeds fit the model's one-process speeds on 1g-4g over 7g and its
 * aggregate of two processes on 1g best (least squares). */
static int p_fit(const char *model, int batch, double (*speed)[P_CAND]) {
  double pub[4], seven = p_pub(model, batch, 7, 1, "thr", NULL);
  for (int g = 1; g <= 4; g++) pub[g - 1] = p_pub(model, batch, g, 1, "thr", NULL) / seven;
  double agg1 = 2 * p_pub(model, batch, 1, 2, "thr", NULL) / p_pub(model, batch, 1, 1, "thr", NULL);
  int best = 0;
  double best_sse = INFINITY;
  for (int k = 0; k < P_CAND; k++) {
    double sse = pow(2 * speed[P_M1_2][k] / speed[P_S1][k] - agg1, 2);
    for (int g = 0; g < 4; g++) sse += pow(speed[P_S1 + g][k] / speed[P_S7][k] - pub[g], 2);
    if (sse < best_sse - 1e-15) {
      best_sse = sse;
      best = k;
    }
  }
  return best;
}

static int p_cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double p_median(double *v, guint n) {
  qsort(v, n, sizeof *v, p_cmp);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The rows of one slice, batch and process count: median aggregate and latency factor. */
static void p_rows(validate_ctx *c, int g, int batch, int n, const int *fit,
                   double (*speed)[P_CAND]) {
  int single = g == 1 ? P_S1 : P_S7, multi = g == 1 ? (n == 2 ? P_M1_2 : P_M1_3)
                                                    : (n == 2 ? P_M7_2 : P_M7_3);
  double pa[P_NMODELS], pl[P_NMODELS], ma[P_NMODELS], ml[P_NMODELS];
  guint m = 0;
  const char *src = NULL;
  for (guint i = 0; i < P_NMODELS; i++) {
    double t1 = p_pub(p_models[i], batch, g, 1, "thr", &src), tn = p_pub(p_models[i], batch, g, n, "thr", NULL);
    if (!isfinite(tn)) continue; /* ResNet-152 has no 1g, batch 8, 3-process entry */
    int k = fit[i * 2 + (batch == 8)];
    ma[m] = n * tn / t1;
    ml[m] = p_pub(p_models[i], batch, g, n, "lat", NULL) / p_pub(p_models[i], batch, g, 1, "lat", NULL);
    pa[m] = n * speed[multi][k] / speed[single][k];
    pl[m] = speed[single][k] / speed[multi][k];
    m++;
  }
  gboolean fitted = g == 1 && n == 2;
  g_autofree char *source = g_strdup_printf("ParvaGPU SC'24 profiles (A100-80GB, %d models): "
                                            "MunQ-Lee/ParvaGPU_SC24 prof_data @5f3de1e1, medians "
                                            "derived", m);
  g_autofree char *id = g_strdup_printf("parva.%dg.b%d.n%d.aggregate", g, batch, n);
  g_autofree char *what = g_strdup_printf("%d MPS processes in a %dg, batch %d: aggregate "
                                          "throughput / 1 process (median%s)", n, g, batch,
                                          fitted ? "; fitted" : "");
  validate_set_kind(c, fitted ? VALIDATE_CALIBRATION : VALIDATE_PREDICTION);
  validate_rel(c, id, source, what, p_median(ma, m), p_median(pa, m), 0.10);
  g_autofree char *lid = g_strdup_printf("parva.%dg.b%d.n%d.latency", g, batch, n);
  g_autofree char *lwhat = g_strdup_printf("%d MPS processes in a %dg, batch %d: latency / 1 "
                                           "process (median%s)", n, g, batch,
                                           fitted ? "; fitted" : "");
  validate_rel(c, lid, source, lwhat, p_median(ml, m), p_median(pl, m), 0.15);
  (void)src;
}

static gboolean parva_family(validate_ctx *c, GError **error) {
  g_autofree char *yaml = p_scenario();
  g_autofree char *csv = p_trace();
  results *r = validate_sim(c, "parva-slices", yaml, csv, NULL, error);
  if (!r) return FALSE;
  double (*speed)[P_CAND] = g_malloc(sizeof(double[P_NPOOLS][P_CAND]));
  p_speeds(r, speed);
  results_free(r);
  int fit[P_NMODELS * 2];
  for (guint i = 0; i < P_NMODELS; i++)
    for (int b = 0; b < 2; b++) fit[i * 2 + b] = p_fit(p_models[i], b ? 8 : 1, speed);
  static const int slices[] = {7, 1};
  for (int si = 0; si < 2; si++)
    for (int b = 0; b < 2; b++)
      for (int n = 2; n <= 3; n++) p_rows(c, slices[si], b ? 8 : 1, n, fit, speed);
  g_free(speed);
  return TRUE;
}

const validate_family validate_parva_family = {
    .name = "parva",
    .summary = "MPS processes per MIG slice: aggregate throughput and latency (ParvaGPU profiles)",
    .run = parva_family,
};
