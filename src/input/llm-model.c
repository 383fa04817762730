/* llm-model.c: the LLM model table (shapes copied from each model's config.json on Hugging
 * Face, docs/models.md "LLM serving") and the quantities derived from a shape: parameters,
 * weight and KV bytes, FLOPs and the weights an iteration touches. Nothing here is typed
 * twice: published parameter counts are kept only to cross-check the derivation (a test). */
#include "llm-model.h"
#include <math.h>
#include <string.h>

/* name, hf id, layers, hidden, heads, kv heads, head dim, intermediate, vocab, experts,
 * active experts, tied embeddings, max context, published parameters. */
static const llm_model models[] = {
    {"llama-2-7b", "meta-llama/Llama-2-7b-hf", 32, 4096, 32, 32, 128, 11008, 32000, 1, 1,
     FALSE, 4096, 6.74e9},
    {"llama-2-13b", "meta-llama/Llama-2-13b-hf", 40, 5120, 40, 40, 128, 13824, 32000, 1, 1,
     FALSE, 4096, 13.0e9},
    {"llama-2-70b", "meta-llama/Llama-2-70b-hf", 80, 8192, 64, 8, 128, 28672, 32000, 1, 1, FALSE,
     4096, 68.98e9},
    {"llama-3-8b", "meta-llama/Meta-Llama-3-8B", 32, 4096, 32, 8, 128, 14336, 128256, 1, 1,
     FALSE, 8192, 8.03e9},
    {"llama-3.1-8b", "meta-llama/Llama-3.1-8B", 32, 4096, 32, 8, 128, 14336, 128256, 1, 1, FALSE,
     131072, 8.03e9},
    {"llama-3-70b", "meta-llama/Meta-Llama-3-70B", 80, 8192, 64, 8, 128, 28672, 128256, 1, 1,
     FALSE, 8192, 70.6e9},
    {"llama-3.1-70b", "meta-llama/Llama-3.1-70B", 80, 8192, 64, 8, 128, 28672, 128256, 1, 1,
     FALSE, 131072, 70.6e9},
    {"codellama-34b", "codellama/CodeLlama-34b-Instruct-hf", 48, 8192, 64, 8, 128, 22016, 32000,
     1, 1, FALSE, 16384, 33.7e9},
    {"mistral-7b", "mistralai/Mistral-7B-v0.1", 32, 4096, 32, 8, 128, 14336, 32000, 1, 1, FALSE,
     32768, 7.24e9},
    {"mixtral-8x7b", "mistralai/Mixtral-8x7B-v0.1", 32, 4096, 32, 8, 128, 14336, 32000, 8, 2,
     FALSE, 32768, 46.7e9},
    {"qwen2-7b", "Qwen/Qwen2-7B", 28, 3584, 28, 4, 128, 18944, 152064, 1, 1, FALSE, 32768,
     7.62e9},
    {"qwen2.5-14b", "Qwen/Qwen2.5-14B", 48, 5120, 40, 8, 128, 13824, 152064, 1, 1, FALSE, 32768,
     14.7e9},
    {"qwen2.5-72b", "Qwen/Qwen2.5-72B", 80, 8192, 64, 8, 128, 29568, 152064, 1, 1, FALSE, 32768,
     72.7e9},
};

const llm_model *llm_models(guint *n_out) {
  if (n_out) *n_out = G_N_ELEMENTS(models);
  return models;
}

const llm_model *llm_model_find(const char *name) {
  if (!name) return NULL;
  for (guint i = 0; i < G_N_ELEMENTS(models); i++)
    if (!g_ascii_strcasecmp(models[i].name, name) || !g_ascii_strcasecmp(models[i].hf_id, name))
      return &models[i];
  return NULL;
}

char *llm_model_names(void) {
  GString *s = g_string_new(NULL);
  for (guint i = 0; i < G_N_ELEMENTS(models); i++)
    g_string_append_printf(s, "%s%s", i ? ", " : "", models[i].name);
  return g_string_free(s, FALSE);
}

double llm_model_attn_params(const llm_model *m) {
  double h = m->hidden, q = (double)m->heads * m->head_dim, kv = (double)m->kv_heads * m->head_dim;
  return h * q + 2.0 * h * kv + q * h;
}

double llm_model_expert_params(const llm_model *m) {
  return 3.0 * m->hidden * (double)m->intermediate;
}

static double llm_embed_params(const llm_model *m) {
  return (double)m->vocab * m->hidden;
}

/* MoE router: hidden x experts per layer (0 for dense models). */
static double llm_router_params(const llm_model *m) {
  return m->experts > 1 ? (double)m->hidden * m->experts : 0.0;
}

double llm_model_params(const llm_model *m) {
  double layer = llm_model_attn_params(m) + m->experts * llm_model_expert_params(m) +
                 llm_router_params(m);
  double embed = llm_embed_params(m) * (m->tied_embeddings ? 1.0 : 2.0);
  return m->layers * layer + embed;
}

int64_t llm_model_weight_bytes(const llm_model *m, double bytes_per_param) {
  return (int64_t)llround(llm_model_params(m) * bytes_per_param);
}

int64_t llm_model_kv_bytes_per_token(const llm_model *m, double kv_bytes_per_elem) {
  return (int64_t)llround(2.0 * m->layers * m->kv_heads * (double)m->head_dim * kv_bytes_per_elem);
}

double llm_model_params_touched(const llm_model *m, double tokens) {
  double experts = m->experts;
  if (m->experts > 1) {
    double miss = pow(1.0 - (double)m->experts_active / m->experts, tokens > 1 ? tokens : 1);
    experts = m->experts * (1.0 - miss);
  }
  double layer = llm_model_attn_params(m) + experts * llm_model_expert_params(m) +
                 llm_router_params(m);
  return m->layers * layer + llm_embed_params(m); /* lm_head; the input embedding is a lookup */
}

double llm_model_flops_per_token(const llm_model *m) {
  double layer = llm_model_attn_params(m) + m->experts_active * llm_model_expert_params(m) +
                 llm_router_params(m);
  return 2.0 * (m->layers * layer + llm_embed_params(m));
}

double llm_model_attn_flops(const llm_model *m, double ctx) {
  return 4.0 * m->layers * (double)m->heads * m->head_dim * ctx;
}
