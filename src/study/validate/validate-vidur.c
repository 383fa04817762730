/* validate-vidur.c: the LLM step time against Vidur's measured kernel times (microsoft/vidur
 * data/profiling/compute, MIT): for each A100 / H100 profile of a gated-MLP model on one GPU
 * (tensor parallel 1), the engine's own step time (llm_engine_step_ns, with the fitted
 * efficiencies and no fixed cost) of one layer's four projections at each token count
 * against the measured medians. Skipped when the profiles are absent. */
#include "validate.h"
#include "catalog.h"
#include "llm-engine.h"
#include "trace.h"
#include "csvread.h"
#include <math.h>
#include <string.h>

#define V_SOURCE "Vidur MLSys'24 kernel profiles (microsoft/vidur data/profiling/compute @7d47513, MIT)"
#define V_TOL 0.15     /* the calibration bar of the LLM rows: mean |rel error| <= 15 % */

typedef struct vidur_profile {
  const char *gpu_dir, *gpu; /* Vidur's folder; the catalogue's model (assumption: SXM, 80 GB) */
  const char *path, *key;    /* the model's folder; the row key */
} vidur_profile;

static const vidur_profile vidur_profiles[] = {
    {"a100", "A100-80GB", "meta-llama/Llama-2-7b-hf", "llama-2-7b"},
    {"a100", "A100-80GB", "meta-llama/Meta-Llama-3-8B", "llama-3-8b"},
    {"a100", "A100-80GB", "codellama/CodeLlama-34b-Instruct-hf", "codellama-34b"},
    {"a100", "A100-80GB", "meta-llama/Llama-2-70b-hf", "llama-2-70b"},
    {"h100", "H100-80GB", "meta-llama/Llama-2-7b-hf", "llama-2-7b"},
    {"h100", "H100-80GB", "codellama/CodeLlama-34b-Instruct-hf", "codellama-34b"},
    {"h100", "H100-80GB", "meta-llama/Llama-2-70b-hf", "llama-2-70b"},
};

/* The GPUs, each a folder of the profiles. Each one's worst point (at the knee between the
 * bandwidth- and the compute-bound regime) is an error docs/models.md states, not a row: a
 * row that only restates a known error cannot fail. */
static const char *const vidur_gpus[] = {"a100", "h100"};

enum { V_HEAD, V_KV, V_EMBD, V_EXP, V_GATED, V_TOKENS, V_TP, V_QKV, V_O, V_UP, V_DOWN, V_NCOL };
static const char *const vidur_cols[V_NCOL] = {
    "n_head", "n_kv_head", "n_embd", "n_expanded_embd", "use_gated_mlp", "num_tokens",
    "num_tensor_parallel_workers", "time_stats.attn_pre_proj.median",
    "time_stats.attn_post_proj.median", "time_stats.mlp_up_proj.median",
    "time_stats.mlp_down_proj.median"};

typedef struct vidur_read {
  int col[V_NCOL];
  llm_model shape;       /* one layer, from the first row at tensor parallel 1 */
  gboolean have_shape, bad;
  GArray *tokens, *ms;   /* double: token count, measured ms of the four projections */
} vidur_read;

static gboolean vidur_header(vidur_read *r, const csvread_row *row) {
  for (int k = 0; k < V_NCOL; k++) {
    r->col[k] = -1;
    for (guint i = 0; i < row->n; i++)
      if (!strcmp(row->cells[i], vidur_cols[k])) r->col[k] = (int)i;
    if (r->col[k] < 0) r->bad = TRUE;
  }
  return !r->bad;
}

/* One layer of the profile's model as the model table holds it: no lm_head, gated MLP. */
static void vidur_shape(vidur_read *r, const double *v) {
  llm_model *m = &r->shape;
  memset(m, 0, sizeof *m);
  m->name = "vidur-layer";
  m->layers = 1;
  m->hidden = (uint16_t)v[V_EMBD];
  m->heads = (uint16_t)v[V_HEAD];
  m->kv_heads = (uint16_t)v[V_KV];
  m->head_dim = (uint16_t)(v[V_EMBD] / v[V_HEAD]);
  m->intermediate = (uint32_t)v[V_EXP];
  m->experts = m->experts_active = 1;
  m->max_context = 1;
  r->have_shape = TRUE;
}

static gboolean vidur_row(const csvread_row *row, void *ud) {
  vidur_read *r = ud;
  if (row->error) return !(r->bad = TRUE);
  if (row->header) return vidur_header(r, row);
  double v[V_NCOL];
  for (int k = 0; k < V_NCOL; k++) {
    const char *cell = (guint)r->col[k] < row->n ? row->cells[r->col[k]] : "";
    if (k == V_GATED) v[k] = !strcmp(cell, "True");
    else {
      char *end = NULL;
      v[k] = g_ascii_strtod(cell, &end);
      if (!end || end == cell || *end || !isfinite(v[k]) || v[k] < 0) return !(r->bad = TRUE);
    }
  }
  if (v[V_TP] != 1) return TRUE;
  if (!v[V_GATED] || v[V_HEAD] < 1 || v[V_EMBD] > 65535 || v[V_TOKENS] < 1) return !(r->bad = TRUE);
  if (!r->have_shape) vidur_shape(r, v);
  double ms = v[V_QKV] + v[V_O] + v[V_UP] + v[V_DOWN];
  g_array_append_val(r->tokens, v[V_TOKENS]);
  g_array_append_val(r->ms, ms);
  return TRUE;
}

/* The rows of one profile; its points also count towards its GPU's mean. */
static void vidur_profile_rows(validate_ctx *c, const vidur_profile *p, double *sum, guint *n) {
  g_autofree char *path = g_build_filename(c->traces_dir, "vidur-profiles", "compute",
                                           p->gpu_dir, p->path, "mlp.csv", NULL);
  g_autofree char *id = g_strdup_printf("vidur.%s.%s.mean_error", p->gpu_dir, p->key);
  g_autofree char *cmp = g_strdup_printf(
      "%s on %s: mean |rel error| of one layer's linear time (QKV, O, gate+up, down), "
      "tensor parallel 1", p->key, p->gpu);
  vidur_read r = {.tokens = g_array_new(FALSE, FALSE, sizeof(double)),
                  .ms = g_array_new(FALSE, FALSE, sizeof(double))};
  g_autoptr(diag_list) d = diag_list_new(0);
  gboolean ok = csvread_foreach(path, 0, vidur_row, &r, d) && !r.bad && r.ms->len > 0;
  if (!ok) {
    g_autofree char *why = g_strdup_printf("skipped: vidur-profiles/compute/%s/%s/mlp.csv absent "
                                           "or unreadable", p->gpu_dir, p->path);
    validate_skip(c, id, V_SOURCE, cmp, why);
  } else {
    const gpu_model *g = catalog_find(p->gpu);
    llm_config cfg = {.model = &r.shape, .bytes_per_param = 2, .kv_bytes_per_elem = 2,
                      .bw_bytes_per_ns = g->mem_bw_gbps * LLM_EFF_BANDWIDTH,
                      .flops_per_ns = g->fp16_tflops * 1e3 * LLM_EFF_FLOPS};
    double own = 0;
    for (guint i = 0; i < r.ms->len; i++) {
      double t = g_array_index(r.tokens, double, i), meas = g_array_index(r.ms, double, i);
      double pred = llm_engine_step_ns(&cfg, t, 0, 0, 0) / 1e6, err = pred / meas - 1;
      own += fabs(err);
    }
    *sum += own;
    *n += r.ms->len;
    validate_bound(c, id, V_SOURCE, cmp, V_TOL, own / r.ms->len, FALSE);
  }
  g_array_unref(r.tokens);
  g_array_unref(r.ms);
}

/* Per GPU: its profiles, then the mean over all their points. */
static void vidur_gpu_rows(validate_ctx *c, const char *gpu_dir) {
  double sum = 0;
  guint n = 0;
  for (gsize i = 0; i < G_N_ELEMENTS(vidur_profiles); i++)
    if (!strcmp(vidur_profiles[i].gpu_dir, gpu_dir))
      vidur_profile_rows(c, &vidur_profiles[i], &sum, &n);
  g_autofree char *mid = g_strdup_printf("vidur.%s.mean_error", gpu_dir);
  g_autofree char *mcmp = g_strdup_printf(
      "%s: mean |rel error| of the linear time over every profile point", gpu_dir);
  if (!n) {
    g_autofree char *why = g_strdup_printf("skipped: no vidur-profiles/compute/%s profile",
                                           gpu_dir);
    validate_skip(c, mid, V_SOURCE, mcmp, why);
    return;
  }
  validate_bound(c, mid, V_SOURCE, mcmp, V_TOL, sum / n, FALSE);
}

static gboolean vidur_family(validate_ctx *c, GError **error) {
  (void)error;
  /* the efficiencies were fitted on these profiles: every row is in sample */
  validate_set_kind(c, VALIDATE_CALIBRATION);
  for (gsize i = 0; i < G_N_ELEMENTS(vidur_gpus); i++) vidur_gpu_rows(c, vidur_gpus[i]);
  return TRUE;
}

const validate_family validate_vidur_family = {
    .name = "vidur",
    .summary = "the LLM step time against Vidur's A100 / H100 linear-layer kernel profiles",
    .run = vidur_family,
};
