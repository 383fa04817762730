/* test-llm.c: the LLM serving model (suites 'llm_model' and 'llm'): the model table's
 * derived parameter counts against the published ones, KV bytes per token by hand, MoE
 * expert touching, the catalogue's bandwidth and FLOPs; the batch engine's step time,
 * continuous batching, memory and latency figures (further below). */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include "catalog.h"
#include "llm-model.h"

static const llm_model *lm(const char *name) {
  const llm_model *m = llm_model_find(name);
  cr_assert_not_null(m, "model %s missing", name);
  return m;
}

Test(llm_model, derived_params_match_published_counts) {
  guint n;
  const llm_model *all = llm_models(&n);
  cr_assert_geq(n, 10);
  for (guint i = 0; i < n; i++) {
    double p = llm_model_params(&all[i]);
    cr_assert(fabs(p / all[i].published_params - 1.0) < 0.01, "%s: derived %.4g vs published %.4g",
              all[i].name, p, all[i].published_params);
    cr_assert_eq(all[i].heads % all[i].kv_heads, 0, "%s: GQA groups", all[i].name);
  }
}

Test(llm_model, kv_bytes_per_token_by_hand) {
  /* 2 (K, V) x layers x kv heads x head dim x 2 bytes */
  cr_assert_eq(llm_model_kv_bytes_per_token(lm("llama-2-7b"), 2), 2 * 32 * 32 * 128 * 2);
  cr_assert_eq(llm_model_kv_bytes_per_token(lm("llama-3-8b"), 2), 131072); /* 128 KiB */
  cr_assert_eq(llm_model_kv_bytes_per_token(lm("llama-2-70b"), 2), 2 * 80 * 8 * 128 * 2);
  cr_assert_eq(llm_model_kv_bytes_per_token(lm("qwen2-7b"), 2), 2 * 28 * 4 * 128 * 2);
  cr_assert_eq(llm_model_kv_bytes_per_token(lm("llama-3-8b"), 1), 65536); /* fp8 KV */
  /* Llama-2-7B in fp16: 13.5 GB of weights */
  int64_t w = llm_model_weight_bytes(lm("llama-2-7b"), 2);
  cr_assert(w > INT64_C(13400000000) && w < INT64_C(13600000000), "%" G_GINT64_FORMAT, w);
}

Test(llm_model, lookup_by_name_or_hf_id) {
  cr_assert_eq(llm_model_find("Mixtral-8x7B"), lm("mixtral-8x7b"));
  cr_assert_eq(llm_model_find("meta-llama/Llama-2-70b-hf"), lm("llama-2-70b"));
  cr_assert_null(llm_model_find("gpt-5"));
  cr_assert_null(llm_model_find(NULL));
  char *names = llm_model_names();
  cr_assert(strstr(names, "llama-2-7b, ") == names, "%s", names);
  g_free(names);
}

Test(llm_model, moe_touches_experts_as_tokens_grow) {
  const llm_model *m = lm("mixtral-8x7b");
  /* one token: 2 of 8 experts per layer, i.e. the 12.9 B active parameters (+ lm_head) */
  double one = llm_model_params_touched(m, 1);
  cr_assert(fabs(one / 12.9e9 - 1.0) < 0.02, "%.4g", one);
  /* many tokens: every expert, all weights but the input embedding */
  double many = llm_model_params_touched(m, 256);
  double all = llm_model_params(m) - (double)m->vocab * m->hidden;
  cr_assert(fabs(many / all - 1.0) < 1e-9, "%.6g vs %.6g", many, all);
  cr_assert(llm_model_params_touched(m, 4) > one && llm_model_params_touched(m, 4) < many);
  /* FLOPs per token follow the active experts only: 2 x ~12.9 B */
  cr_assert(fabs(llm_model_flops_per_token(m) / 2 / one - 1.0) < 1e-9);
  /* dense: touched = all but the embedding whatever the tokens */
  const llm_model *d = lm("llama-3-8b");
  cr_assert_float_eq(llm_model_params_touched(d, 1), llm_model_params_touched(d, 4096), 1);
}

Test(llm_model, catalogue_has_bandwidth_and_flops) {
  guint n;
  const gpu_model *all = catalog_models(&n);
  for (guint i = 0; i < n; i++) {
    cr_assert(all[i].mem_bw_gbps > 100 && all[i].fp16_tflops > 10, "%s", all[i].name);
  }
  cr_assert_float_eq(catalog_find("A100-80GB")->mem_bw_gbps, 2039, 0);
  cr_assert_float_eq(catalog_find("H100-80GB")->fp16_tflops, 989, 0);
}
