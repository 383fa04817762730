/* llm-model.h: the open LLMs sharesim knows (shape from each model's published config.json)
 * and what follows from a shape: parameters, weight bytes, KV-cache bytes per token, FLOPs
 * per token, and the bytes one iteration reads. Data only (llm-model.c); no time, no GPU.
 * Sources and the derivations are in docs/models.md, "LLM serving". */
#pragma once
#include <glib.h>
#include <stdint.h>

typedef struct llm_model {
  const char *name;        /* lower-case short name: "llama-3-8b" */
  const char *hf_id;       /* Hugging Face id whose config.json gives the shape */
  uint16_t layers;         /* num_hidden_layers */
  uint16_t hidden;         /* hidden_size */
  uint16_t heads;          /* num_attention_heads */
  uint16_t kv_heads;       /* num_key_value_heads (GQA; = heads for MHA) */
  uint16_t head_dim;       /* hidden / heads unless the config says otherwise */
  uint32_t intermediate;   /* intermediate_size of one (expert) MLP, gated (3 matrices) */
  uint32_t vocab;          /* vocab_size */
  uint8_t experts;         /* MoE experts per layer (1 = dense) */
  uint8_t experts_active;  /* experts each token goes through (top-k; 1 = dense) */
  gboolean tied_embeddings;/* lm_head shares the embedding matrix */
  uint32_t max_context;    /* max_position_embeddings */
  double published_params; /* parameter count the model card states (cross-check only) */
} llm_model;

/* All models, in table order. */
const llm_model *llm_models(guint *n_out);
/* Exact name, case-insensitive, or its Hugging Face id; NULL if unknown. */
const llm_model *llm_model_find(const char *name);
/* "llama-2-7b, llama-2-13b, ..." for error messages. Owned string. */
char *llm_model_names(void);

/* Parameters, derived from the shape (embeddings and lm_head included, norms left out:
 * < 0.01 %). */
double llm_model_params(const llm_model *m);
/* Parameters of one layer's attention block (q, k, v, o projections). */
double llm_model_attn_params(const llm_model *m);
/* Parameters of one expert's gated MLP (up, gate, down). */
double llm_model_expert_params(const llm_model *m);
/* Weight bytes at bytes_per_param (2 for fp16/bf16, 1 for fp8/int8). */
int64_t llm_model_weight_bytes(const llm_model *m, double bytes_per_param);
/* KV-cache bytes per token: 2 (K and V) x layers x kv_heads x head_dim x kv_bytes. */
int64_t llm_model_kv_bytes_per_token(const llm_model *m, double kv_bytes_per_elem);
/* Weights (parameters) one iteration over `tokens` tokens touches: everything but the
 * input embedding, which is a row lookup; for MoE the expected number of distinct experts
 * the tokens route to, E (1 - (1 - k/E)^tokens), under uniform routing (assumption). */
double llm_model_params_touched(const llm_model *m, double tokens);
/* Matmul FLOPs of one token through the model (2 per active parameter, lm_head included,
 * input embedding excluded), without attention over the context. */
double llm_model_flops_per_token(const llm_model *m);
/* Attention FLOPs (QK^T and AV) of one query token over ctx cached tokens:
 * 4 x layers x heads x head_dim x ctx. */
double llm_model_attn_flops(const llm_model *m, double ctx);
