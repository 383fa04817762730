/* validate-mig.c: MIG instance speeds against the whole GPU. One simulation holds a pool per
 * instance size (1g, 2g, 3g, 4g, 7g of an A100-80GB, and an exclusive whole GPU) and one
 * job per (size, candidate sm, candidate gpu_util); each published model's pair is the
 * candidate whose simulated speeds fit its published points best (two calibrated values per
 * model, least squares), and its rows are the simulated speeds there: ParvaGPU's 1g-4g over
 * 7g, NJIT's GROMACS over the whole GPU. */
#include "validate.h"
#include <math.h>
#include <string.h>

#define M_SM 100 /* sm = 0.01, 0.02, ... 1.00 */
#define M_U 20   /* gpu_util = 0.05, 0.10, ... 1.00 */
#define M_CANDIDATES (M_SM * M_U)
#define M_SM_OF(k) (((k) % M_SM + 1) / (double)M_SM)
#define M_U_OF(k) (((k) / M_SM + 1) / (double)M_U)

static const char *const m_sizes[] = {"1g", "2g", "3g", "4g", "7g", "whole"};
static const char *const m_layouts[] = {"1g.10gb x7", "2g.20gb x3", "3g.40gb x2", "4g.40gb",
                                        "7g.80gb", NULL};
enum { M_1G, M_2G, M_3G, M_4G, M_7G, M_WHOLE, M_N };

typedef struct mig_model {
  const char *key;    /* published key part: mig.KEY.1g */
  const char *name;
  gboolean gromacs;   /* published against the whole GPU (1g, 2g, 3g), not 7g (1g-4g) */
} mig_model;

static const mig_model m_models[] = {
    {"resnet50", "ResNet-50", FALSE},   {"resnet152", "ResNet-152", FALSE},
    {"vgg16", "VGG-16", FALSE},         {"bert", "BERT", FALSE},
    {"mobilenetv2", "MobileNet-v2", FALSE}, {"gromacs", "GROMACS", TRUE},
};

static char *m_scenario(void) {
  GString *y = g_string_new("name: mig-speeds\nseed: 1\npools:\n");
  for (int s = 0; s < M_N; s++) {
    g_string_append_printf(y, "  - name: p%s\n    gpu: A100-80GB\n    nodes: %d\n"
                              "    gpus_per_node: 1\n", m_sizes[s], M_CANDIDATES);
    if (m_layouts[s]) g_string_append_printf(y, "    strategy: mig\n    layout: %s\n", m_layouts[s]);
    else g_string_append(y, "    strategy: exclusive\n");
  }
  g_string_append(y, "routing:\n");
  for (int s = 0; s < M_N; s++)
    g_string_append_printf(y, "  - {label: %s, pool: p%s}\n", m_sizes[s], m_sizes[s]);
  return g_string_free(y, FALSE);
}

static char *m_trace(void) {
  GString *t = g_string_new("id,submit_s,kind,gpus,mem_gb,duration_s,label,sm,gpu_util\n");
  for (int s = 0; s < M_N; s++)
    for (int k = 0; k < M_CANDIDATES; k++)
      g_string_append_printf(t, "%s-%d,0,batch,1,5,1000,%s,%g,%g\n", m_sizes[s], k, m_sizes[s],
                             M_SM_OF(k), M_U_OF(k));
  return g_string_free(t, FALSE);
}

/* The published points of one model: sizes and values (NAN where none). */
static void m_points(const mig_model *m, double *pub, const char **src) {
  for (int s = 0; s < M_N; s++) pub[s] = NAN;
  int last = m->gromacs ? M_3G : M_4G;
  for (int s = M_1G; s <= last; s++) {
    g_autofree char *key = g_strdup_printf("mig.%s.%s", m->key, m_sizes[s]);
    pub[s] = validate_published(key, src);
  }
}

static void m_rows(validate_ctx *c, const mig_model *m, double speed[M_N][M_CANDIDATES]) {
  double pub[M_N];
  const char *src = NULL;
  m_points(m, pub, &src);
  int ref = m->gromacs ? M_WHOLE : M_7G, best = 0;
  double best_sse = INFINITY;
  for (int k = 0; k < M_CANDIDATES; k++) {
    double sse = 0;
    for (int s = 0; s < M_N; s++)
      if (isfinite(pub[s])) sse += pow(speed[s][k] / speed[ref][k] - pub[s], 2);
    if (sse < best_sse - 1e-15) {
      best_sse = sse;
      best = k;
    }
  }
  for (int s = 0; s < M_N; s++) {
    if (!isfinite(pub[s])) continue;
    g_autofree char *id = g_strdup_printf("mig.%s.%s", m->key, m_sizes[s]);
    g_autofree char *what = g_strdup_printf("%s throughput on %s / %s (sm %.3g, gpu_util %.3g fitted)",
                                            m->name, m_sizes[s], m->gromacs ? "whole GPU" : "7g",
                                            M_SM_OF(best), M_U_OF(best));
    validate_abs(c, id, src, what, pub[s], speed[s][best] / speed[ref][best], 0.1);
  }
}

static gboolean mig_family(validate_ctx *c, GError **error) {
  g_autofree char *yaml = m_scenario();
  g_autofree char *csv = m_trace();
  results *r = validate_sim(c, "mig-speeds", yaml, csv, NULL, error);
  if (!r) return FALSE;
  static double speed[M_N][M_CANDIDATES];
  for (int s = 0; s < M_N; s++)
    for (int k = 0; k < M_CANDIDATES; k++) {
      char id[32];
      g_snprintf(id, sizeof id, "%s-%d", m_sizes[s], k);
      speed[s][k] = 1000.0 / validate_job(r, id)->end_s;
    }
  results_free(r);
  validate_set_kind(c, VALIDATE_CALIBRATION); /* each model's (sm, gpu_util) fitted on its rows */
  for (gsize i = 0; i < G_N_ELEMENTS(m_models); i++) m_rows(c, &m_models[i], speed);
  return TRUE;
}

const validate_family validate_mig_family = {
    .name = "mig",
    .summary = "MIG instance speeds over 7g and the whole GPU (ParvaGPU profiles, NJIT GROMACS)",
    .run = mig_family,
};
