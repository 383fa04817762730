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

/* ---- the batch engine ---- */
#include <gsl/gsl_randist.h>
#include "llm-engine.h"
#include "testutil.h"
#include "report.h"

static llm_config llm_cfg(const char *model, const char *gpu, guint32 max_seqs, int64_t blocks) {
  const gpu_model *g = catalog_find(gpu);
  return (llm_config){.model = lm(model), .bytes_per_param = 2, .kv_bytes_per_elem = 2,
                      .bw_bytes_per_ns = g->mem_bw_gbps * LLM_EFF_BANDWIDTH,
                      .flops_per_ns = g->fp16_tflops * 1e3 * LLM_EFF_FLOPS,
                      .max_num_seqs = max_seqs, .max_num_batched_tokens = 8192,
                      .block_size = 16, .chunked_prefill = TRUE, .kv_blocks = blocks,
                      .max_waiting = 1000000, .step_overhead_ns = LLM_STEP_OVERHEAD_NS};
}

typedef struct closed_loop {
  guint64 done, tokens;
  double tpot_sum, t_first_done, t_last_done;
  double pending[256];
  guint n_pending;
} closed_loop;

static void cl_done(void *ud, double arrival, double first, double end, guint32 output) {
  closed_loop *c = ud;
  if (c->done == 0) c->t_first_done = end;
  c->done++;
  c->t_last_done = end;
  c->tokens += output;
  c->tpot_sum += (end - first) / (output - 1);
  c->pending[c->n_pending++] = end; /* the client sends its next request at once */
}

/* Throughput (output tokens/s) and mean TPOT (ms) of c clients each sending a request of
 * prompt/output tokens as soon as its previous one finished (vllm bench serve
 * --max-concurrency c --request-rate inf). */
static void closed_loop_run(llm_config *cfg, guint c, guint32 prompt, guint32 output,
                            double *tok_s, double *tpot_ms) {
  llm_engine *e = llm_engine_new(cfg, 0);
  closed_loop cl = {0};
  for (guint i = 0; i < c; i++) llm_engine_submit(e, 0, prompt, output);
  guint64 warm = 2 * c, stop = 20 * c + warm;
  guint64 tok_warm = 0;
  double t_warm = 0, tpot_warm = 0;
  for (double t = 1e6; cl.done < stop; t += 1e6) {
    llm_engine_run(e, t, cl_done, &cl);
    for (guint i = 0; i < cl.n_pending; i++) llm_engine_submit(e, cl.pending[i], prompt, output);
    cl.n_pending = 0;
    if (!t_warm && cl.done >= warm) {
      t_warm = cl.t_last_done;
      tok_warm = cl.tokens;
      tpot_warm = cl.tpot_sum;
      warm = cl.done;
    }
  }
  *tok_s = (double)(cl.tokens - tok_warm) / ((cl.t_last_done - t_warm) / 1e9);
  *tpot_ms = (cl.tpot_sum - tpot_warm) / (double)(cl.done - warm) / 1e6;
  llm_engine_free(e);
}

/* Calibration points: vLLM 0.23, Llama-3.1-8B-Instruct BF16 on one A100 40GB, 1024 prompt
 * and 128 output tokens, c = 1: ~75 tok/s; c = 8: 6.6x that (johnmusgrave.com, "vLLM
 * throughput-latency sweep on NVIDIA A100"). Within 15 %. */
Test(llm, closed_loop_throughput_matches_published_a100_sweep) {
  llm_config cfg = llm_cfg("llama-3.1-8b", "A100-40GB", 256, 100000);
  double tok, tpot;
  closed_loop_run(&cfg, 1, 1024, 128, &tok, &tpot);
  cr_assert(fabs(tok / 75.0 - 1.0) < 0.15, "c=1: %.1f tok/s vs 75", tok);
  cr_assert(fabs(tpot / (1000.0 / 75.0) - 1.0) < 0.15, "c=1: TPOT %.2f ms", tpot);
  double tok8, tpot8;
  closed_loop_run(&cfg, 8, 1024, 128, &tok8, &tpot8);
  cr_assert(fabs(tok8 / (6.6 * 75.0) - 1.0) < 0.15, "c=8: %.1f tok/s vs 495", tok8);
  /* batching is not free: TPOT grows with the batch, throughput sub-linearly */
  cr_assert(tpot8 > tpot && tok8 < 8 * tok, "tpot %.2f -> %.2f, tok %.0f -> %.0f", tpot, tpot8,
            tok, tok8);
  double tok64, tpot64;
  closed_loop_run(&cfg, 64, 1024, 128, &tok64, &tpot64);
  cr_assert(tok64 > tok8 && tok64 < 64 * tok / 3, "c=64: %.0f tok/s", tok64);
}

/* The roofline against Vidur's measured linear-layer time of Llama-2-7B on an A100 at one
 * token (8.5 ms over 32 layers) and 4096 tokens (240 ms): within 15 %. Weights without the
 * lm_head, as Vidur's MLP profile has them. */
Test(llm, step_time_matches_vidur_profile_points) {
  llm_config cfg = llm_cfg("llama-2-7b", "A100-80GB", 256, 1000);
  const llm_model *m = cfg.model;
  double lm_head = (double)m->vocab * m->hidden;
  double one = llm_engine_step_ns(&cfg, 1, 0, 0, 0);
  double w = (llm_model_params_touched(m, 1) - lm_head) * 2;
  double exp_one = w / cfg.bw_bytes_per_ns;
  cr_assert(fabs(exp_one / 8.51e6 - 1.0) < 0.15, "1 token: %.2f ms", exp_one / 1e6);
  cr_assert(one > exp_one, "the lm_head is read too");
  double flops = 4096 * 2 * (llm_model_params_touched(m, 1) - lm_head);
  double big = flops / cfg.flops_per_ns;
  cr_assert(fabs(big / 239.7e6 - 1.0) < 0.15, "4096 tokens: %.1f ms", big / 1e6);
}

typedef struct count_ud { guint64 done, lost; } count_ud;
static void cnt_done(void *ud, double a, double f, double e, guint32 o) {
  count_ud *c = ud;
  cr_assert(f >= a && e >= f, "times out of order: %g %g %g", a, f, e);
  c->done++;
}
static void cnt_lost(void *ud, double a) { ((count_ud *)ud)->lost++; }

/* A KV pool too small for the load: requests are preempted and recomputed, yet every one
 * finishes exactly once and every block comes back. */
Test(llm, preemption_conserves_requests_and_blocks) {
  llm_config cfg = llm_cfg("llama-3-8b", "A100-80GB", 64, 400); /* 6,400 tokens of KV */
  llm_engine *e = llm_engine_new(&cfg, 0);
  gsl_rng *r = gsl_rng_alloc(gsl_rng_taus2);
  count_ud c = {0};
  double t = 0;
  guint n = 2000;
  for (guint i = 0; i < n; i++) {
    t += gsl_ran_exponential(r, 1e8); /* 10 requests/s */
    llm_engine_run(e, t, cnt_done, &c);
    cr_assert(llm_engine_submit(e, t, 200 + gsl_rng_uniform_int(r, 800),
                                20 + gsl_rng_uniform_int(r, 300)));
  }
  llm_engine_run(e, t + 3600e9, cnt_done, &c);
  llm_engine_stats st;
  llm_engine_get_stats(e, &st);
  cr_assert_eq(c.done, n, "finished %" G_GUINT64_FORMAT " of %u", c.done, n);
  cr_assert_gt(st.preemptions, 0);
  cr_assert_eq(st.free_blocks, 400);
  cr_assert_eq(st.running + st.waiting, 0);
  /* a request longer than the whole pool is refused, not left waiting for ever */
  cr_assert_not(llm_engine_submit(e, t, 7000, 10));
  llm_engine_clear(e, cnt_lost, &c);
  cr_assert_eq(c.lost, 0);
  gsl_rng_free(r);
  llm_engine_free(e);
}

/* Every completion in order, for comparing two runs exactly. */
typedef struct trail_ud { guint64 n; double hash; } trail_ud;
static void trail_done(void *ud, double a, double f, double e, guint32 o) {
  trail_ud *t = ud;
  t->n++;
  t->hash = t->hash * 1.000001 + (e - a) + 3.0 * (f - a) + o;
}

/* One run of 3,000 requests at 12/s with 6,400 tokens of KV (preemptions) and max_seqs. */
static void trail_run(guint32 max_seqs, trail_ud *t, llm_engine_stats *st) {
  llm_config cfg = llm_cfg("llama-3-8b", "A100-80GB", max_seqs, 400);
  llm_engine *e = llm_engine_new(&cfg, 0);
  gsl_rng *r = gsl_rng_alloc(gsl_rng_taus2);
  double at = 0;
  for (guint i = 0; i < 3000; i++) {
    at += gsl_ran_exponential(r, 1e9 / 12);
    llm_engine_run(e, at, trail_done, t);
    llm_engine_submit(e, at, 50 + gsl_rng_uniform_int(r, 900), 1 + gsl_rng_uniform_int(r, 400));
  }
  llm_engine_run(e, at + 3600e9, trail_done, t);
  llm_engine_get_stats(e, st);
  gsl_rng_free(r);
  llm_engine_free(e);
}

/* With 16-token blocks and fewer than 2^16 slots the engine counts the block crossings of
 * a decode stretch from packed residue counters; with more slots, by the loop over the
 * residues. The KV pool holds at most ~30 of these requests, so the slot cap never binds:
 * both runs must be the same run, completion by completion. */
Test(llm, packed_block_crossings_match_the_loop) {
  trail_ud a = {0}, b = {0};
  llm_engine_stats sa, sb;
  trail_run(64, &a, &sa);
  trail_run(70000, &b, &sb);
  cr_assert_eq(a.n, 3000);
  cr_assert_eq(b.n, a.n);
  cr_assert_gt(sa.preemptions, 0);
  cr_assert_eq(sb.preemptions, sa.preemptions);
  cr_assert_eq(sb.steps, sa.steps);
  cr_assert_eq(sb.clock_ns, sa.clock_ns);
  cr_assert_eq(b.hash, a.hash, "completion trails differ: %.17g against %.17g", b.hash, a.hash);
}

/* F04: a notebook growing into the server's pre-allocated memory is an out-of-memory
 * under every policy, as for any resident (before: the KV cache was not in memory used). */
static const char *f04_trace =
    "id,submit_s,kind,gpus,mem_gb,duration_s,rate_rps,model\n"
    "llm,0,inference,1,0,3600,2,llama-3-8b\n"
    "nb,0,notebook,1,5,3600,,\n";
static const char *f04_phases = "job_id,after_s,mem_gb\nnb,1800,60\n";

static results *f04_run(const char *oom) {
  g_autofree char *yaml = g_strdup_printf(
      "name: f04\nseed: 1\npools:\n  - {name: p, gpu: A100-80GB, nodes: 1, gpus_per_node: 1, "
      "strategy: time-slicing, replicas: 2, oom: %s}\n", oom);
  return tu_run(yaml, f04_trace, f04_phases);
}

Test(llm, f04_notebook_growing_into_kv_memory_is_an_oom) {
  const char *policies[] = {"all", "offender", "sidecar"};
  for (guint i = 0; i < 3; i++) {
    results *r = f04_run(policies[i]);
    const job_result *nb = tu_job(r, "nb"), *llm = tu_job(r, "llm");
    cr_assert_eq(nb->oom_kills, 1, "%s: notebook kills %u", policies[i], nb->oom_kills);
    cr_assert_eq(llm->oom_kills, i == 0 ? 1u : 0u, "%s: server kills %u", policies[i],
                 llm->oom_kills);
    /* the pre-allocation (0.9 x 85.9 GB) is memory in use */
    const service_result *sv = tu_service(r, "llm");
    cr_assert(fabs(sv->reserved_gb - 0.9 * 85.899345920) < 0.01, "%.3f", sv->reserved_gb);
    cr_assert_gt(sv->kv_blocks, 20000);
    cr_assert(sv->ttft_p50_ms > 0 && sv->tpot_p50_ms > 0 && sv->ttft_p99_ms >= sv->ttft_p50_ms);
    GString *csv = g_string_new(NULL);
    cr_assert(report_file_string("llm.csv", r, csv));
    cr_assert(g_str_has_prefix(csv->str, "scenario,seed,id,pool,served,ttft_p50_ms,"), "%s", csv->str);
    cr_assert(strstr(csv->str, ",llm,p,"), "%s", csv->str);
    g_string_free(csv, TRUE);
    results_free(r);
  }
}

/* The capacity story: one Llama-3-8B server in a 7g.80gb, a 3g.40gb, time-sliced four
 * ways (gpu_memory_utilization 0.225 each) and a 1g.10gb (does not fit its weights). The
 * concurrency (KV tokens / mean request tokens) and context each allows follow from the
 * blocks; the figures are in docs/models.md. */
Test(llm, capacity_story_mig_and_time_slicing) {
  const char *yaml =
      "name: cap\nseed: 1\npools:\n"
      "  - {name: big, gpu: A100-80GB, nodes: 1, strategy: mig, layout: 7g.80gb}\n"
      "  - {name: half, gpu: A100-80GB, nodes: 1, strategy: mig, layout: 3g.40gb x2}\n"
      "  - {name: ts4, gpu: A100-80GB, nodes: 1, strategy: time-slicing, replicas: 4}\n"
      "routing:\n  - {label: big, pool: big}\n  - {label: half, pool: half}\n"
      "  - {label: ts4, pool: ts4}\n";
  const char *csv =
      "id,submit_s,kind,gpus,mem_gb,duration_s,rate_rps,model,label,gpu_memory_utilization\n"
      "a,0,inference,1,0,600,4,llama-3-8b,big,\n"
      "b,0,inference,1,0,600,4,llama-3-8b,half,\n"
      "c1,0,inference,1,0,600,1,llama-3-8b,ts4,0.225\n"
      "c2,0,inference,1,0,600,1,llama-3-8b,ts4,0.225\n"
      "c3,0,inference,1,0,600,1,llama-3-8b,ts4,0.225\n"
      "c4,0,inference,1,0,600,1,llama-3-8b,ts4,0.225\n";
  results *r = tu_run(yaml, csv, NULL);
  const service_result *a = tu_service(r, "a"), *b = tu_service(r, "b"), *c = tu_service(r, "c1");
  /* tokens of KV = blocks x 16 */
  cr_assert(a->kv_blocks * 16 > 300000 && a->kv_blocks * 16 < 500000, "7g: %" G_GINT64_FORMAT,
            a->kv_blocks * 16);
  cr_assert(b->kv_blocks * 16 > 100000 && b->kv_blocks * 16 < a->kv_blocks * 16 / 2,
            "3g: %" G_GINT64_FORMAT, b->kv_blocks * 16);
  cr_assert(c->kv_blocks > 0 && c->kv_blocks * 16 < 20000, "ts4: %" G_GINT64_FORMAT,
            c->kv_blocks * 16);
  /* what each allows, as docs/models.md's table has it: the requests its KV holds at the
   * Azure-fitted mean of 1,155 + 211 tokens each (capped by max_num_seqs, 256) and the
   * longest context (the model's 8,192, capped by the KV pool) */
  const struct { const service_result *s; int64_t blocks; gint64 conc; } cap[] = {
      {a, 28074, 256}, {b, 9757, 114}, {c, 887, 10}};
  for (guint i = 0; i < G_N_ELEMENTS(cap); i++) {
    int64_t tokens = cap[i].s->kv_blocks * 16;
    cr_expect_eq(cap[i].s->kv_blocks, cap[i].blocks, "%s: %" G_GINT64_FORMAT " blocks",
                 cap[i].s->id, cap[i].s->kv_blocks);
    cr_expect_eq(MIN(256, tokens / (1155 + 211)), cap[i].conc, "%s: concurrency", cap[i].s->id);
    cr_expect_eq(MIN(8192, tokens), 8192, "%s: context", cap[i].s->id);
  }
  for (guint i = 0; i < r->jobs->len; i++)
    cr_assert_eq(g_array_index(r->jobs, job_result, i).oom_kills, 0);
  /* the 3g.40gb has half the bandwidth and 3/7 of the SMs: slower than the 7g */
  cr_assert_gt(b->p50_ms, a->p50_ms);
  results_free(r);
  /* a 1g.10gb cannot hold the 16 GB of weights: refused before the run */
  g_autofree char *sp = tu_write_temp("cap1.yaml",
      "name: cap1\npools:\n  - {name: tiny, gpu: A100-80GB, nodes: 1, strategy: mig, "
      "layout: 1g.10gb x7}\n");
  g_autofree char *tp = tu_write_temp("cap1.csv",
      "id,submit_s,kind,gpus,mem_gb,duration_s,rate_rps,model\n"
      "a,0,inference,1,0,600,1,llama-3-8b\n");
  g_autoptr(diag_list) d = diag_list_new(0);
  scenario *sc = scenario_load(sp, d);
  trace *tr = trace_load(tp, d);
  cr_assert(sc && tr);
  sim_check_jobs(sc, tr, d);
  cr_assert(diag_has_errors(d), "a 1g.10gb was accepted for 16 GB of weights");
  trace_free(tr);
  scenario_free(sc);
}

/* Without chunked prefill (vLLM V0's default) a step with admissions runs prefills only:
 * the decodes in flight wait for it. */
Test(llm, chunked_prefill_off_stalls_decodes) {
  double tpot_on, tpot_off, tok_on, tok_off;
  llm_config on = llm_cfg("llama-3-8b", "H100-80GB", 256, 100000);
  on.max_num_batched_tokens = 2048;
  llm_config off = on;
  off.chunked_prefill = FALSE;
  closed_loop_run(&on, 16, 1500, 200, &tok_on, &tpot_on);
  closed_loop_run(&off, 16, 1500, 200, &tok_off, &tpot_off);
  cr_assert(tpot_on > 0 && tpot_off > 0);
  cr_assert(fabs(tok_off / tok_on - 1.0) < 0.5, "throughput %.0f vs %.0f", tok_off, tok_on);
  /* mixing prefill chunks into decode steps reads the weights once for both: more tokens
   * per second with chunking (1676 vs 1599 here), TPOT within 10 % either way */
  cr_assert_gt(tok_on, tok_off * 1.01, "on %.0f tok/s, off %.0f", tok_on, tok_off);
  cr_assert(fabs(tpot_off / tpot_on - 1.0) < 0.1, "TPOT %.3f vs %.3f ms", tpot_off, tpot_on);
}

Test(llm, scenario_llm_keys) {
  g_autofree char *p = tu_write_temp("llm-keys.yaml",
      "name: k\npools:\n  - {name: p, gpu: H100-80GB, nodes: 1, strategy: exclusive}\n"
      "llm: {max_num_batched_tokens: 2048, chunked_prefill: false, block_size: 32, "
      "closed_loop: true, frontend_ms: 7.5}\n");
  g_autoptr(diag_list) d = diag_list_new(0);
  scenario *sc = scenario_load(p, d);
  cr_assert_not_null(sc);
  cr_assert_eq(sc->llm.max_num_batched_tokens, 2048);
  cr_assert_not(sc->llm.chunked_prefill);
  cr_assert_eq(sc->llm.block_size, 32);
  cr_assert(sc->llm.closed_loop);
  cr_assert_eq(sc->llm.frontend_ms, 7.5);
  scenario_free(sc);
  g_autofree char *q = tu_write_temp("llm-bad.yaml",
      "name: k\npools:\n  - {name: p, gpu: H100-80GB, nodes: 1, strategy: exclusive}\n"
      "llm: {max_num_batched_tokens: 2.5, chunked_prefill: maybe}\n");
  g_autoptr(diag_list) d2 = diag_list_new(0);
  cr_assert_null(scenario_load(q, d2));
  g_autofree char *msg = diag_join(d2);
  cr_assert(strstr(msg, "llm-bad.yaml:4:31: llm.max_num_batched_tokens: expected a whole number"),
            "%s", msg);
  cr_assert(strstr(msg, "llm.chunked_prefill: expected one of false | true, found 'maybe'"), "%s",
            msg);
}

/* The step time's smooth max comes from a table of cubic pieces: against the exact
 * (a^1.5 + b^1.5)^(2/3) within 1e-11 relative over ratios from 0 to 1 and back, and
 * exact at the ends. */
Test(llm, smooth_max_table_matches_the_formula) {
  double worst = 0;
  for (guint i = 0; i <= 100000; i++) {
    double a = 1e6, b = a * i / 100000.0;
    double exact = pow(pow(a, 1.5) + pow(b, 1.5), 2.0 / 3.0);
    double got = llm_engine_smooth_max(a, b), swapped = llm_engine_smooth_max(b, a);
    worst = MAX(worst, fabs(got / exact - 1.0));
    cr_assert_eq(got, swapped);
  }
  cr_assert_lt(worst, 1e-11, "worst relative error %g", worst);
  cr_assert_eq(llm_engine_smooth_max(3.0, 0.0), 3.0);
  cr_assert(fabs(llm_engine_smooth_max(2.0, 2.0) / (2.0 * pow(2.0, 2.0 / 3.0)) - 1) < 1e-15);
}

/* Token delivery: with a serial cost s per output token, a step of n decodes lasts at
 * least n s, so c clients see a TPOT of about c s once that exceeds the GPU's step and
 * the throughput stops growing at 1 / s (InferenceBench's H100 sweep, docs/models.md). */
Test(llm, token_delivery_cost_caps_throughput) {
  llm_config cfg = llm_cfg("llama-3.1-8b", "H100-80GB", 256, 100000);
  cfg.stream_ns_per_token = 1e6; /* 1 ms a token: at most 1,000 tokens/s */
  double tok, tpot, tok1, tpot1;
  closed_loop_run(&cfg, 64, 45, 256, &tok, &tpot);
  cr_assert(fabs(tpot / 64.0 - 1.0) < 0.02, "c=64: TPOT %.2f ms, expected 64", tpot);
  cr_assert(fabs(tok / 1000.0 - 1.0) < 0.02, "c=64: %.1f tok/s, expected about 1000", tok);
  /* one client: the GPU's step (~6.4 ms) is longer than 1 ms: no effect */
  closed_loop_run(&cfg, 1, 45, 256, &tok1, &tpot1);
  cfg.stream_ns_per_token = 0;
  double tok0, tpot0;
  closed_loop_run(&cfg, 1, 45, 256, &tok0, &tpot0);
  cr_assert_eq(tpot1, tpot0);
  cr_assert_eq(tok1, tok0);
}

/* TTFT and end-to-end latency of each request, smallest and largest. */
typedef struct lat_ud { double ttft_min, ttft_max, e2e_min, e2e_max; guint64 n; } lat_ud;
static void lat_done(void *ud, double a, double f, double e, guint32 o) {
  lat_ud *l = ud;
  (void)o;
  cr_assert(f >= a && e >= f, "times out of order: %g %g %g", a, f, e);
  l->ttft_min = l->n ? MIN(l->ttft_min, f - a) : f - a;
  l->ttft_max = l->n ? MAX(l->ttft_max, f - a) : f - a;
  l->e2e_min = l->n ? MIN(l->e2e_min, e - a) : e - a;
  l->e2e_max = l->n ? MAX(l->e2e_max, e - a) : e - a;
  l->n++;
}
static void lat_run(gboolean closed, lat_ud *l) {
  llm_config cfg = llm_cfg("llama-3.1-8b", "H100-80GB", 2, 100000);
  cfg.closed_loop = closed;
  llm_engine *e = llm_engine_new(&cfg, 0);
  for (guint i = 0; i < 10; i++) cr_assert(llm_engine_submit(e, 0, 45, 20));
  *l = (lat_ud){0};
  llm_engine_run(e, 3600e9, lat_done, l);
  cr_assert_eq(l->n, 10);
  llm_engine_free(e);
}

/* llm.closed_loop: 10 requests queued at 0 for 2 clients are each sent when a client's
 * previous one ends, so every TTFT is one prefill step and every end to end one request's
 * time; counted from 0 instead, the last pair waited four requests' time. A request
 * preempted after its first token keeps the time it was sent (its TTFT never negative). */
Test(llm, closed_loop_counts_latency_from_sending) {
  lat_ud open, closed;
  lat_run(FALSE, &open);
  lat_run(TRUE, &closed);
  cr_assert(closed.ttft_max < 1.01 * closed.ttft_min && closed.ttft_max < 10e6,
            "closed loop TTFT %g-%g ns", closed.ttft_min, closed.ttft_max);
  cr_assert(closed.e2e_max < 1.01 * closed.e2e_min, "closed loop e2e %g-%g ns", closed.e2e_min,
            closed.e2e_max);
  cr_assert(fabs(closed.ttft_min / open.ttft_min - 1) < 1e-9, "first pair: %g vs %g ns",
            closed.ttft_min, open.ttft_min);
  cr_assert_gt(open.ttft_max, 4 * closed.e2e_min, "queued TTFT %g ns", open.ttft_max);
  llm_config cfg = llm_cfg("llama-3-8b", "A100-80GB", 64, 400); /* 6,400 tokens of KV */
  cfg.closed_loop = TRUE;
  llm_engine *e = llm_engine_new(&cfg, 0);
  for (guint i = 0; i < 300; i++)
    cr_assert(llm_engine_submit(e, 0, 200 + (i * 397) % 800, 20 + (i * 131) % 300));
  lat_ud l = {0};
  llm_engine_run(e, 3600e9, lat_done, &l);
  llm_engine_stats st;
  llm_engine_get_stats(e, &st);
  cr_assert_eq(l.n, 300);
  cr_assert_gt(st.preemptions, 0);
  llm_engine_free(e);
}

/* ---- the front end (llm.frontend_ms) ----
 * An engine whose every step lasts 1 ms (the step overhead; bandwidth and FLOP/s so high
 * that the roofline adds under a nanosecond), so that the step sequence can be worked out
 * by hand. Each request's arrival, first token and end (ms) are kept in order. */
typedef struct fe_ud { double a[8], f[8], e[8]; guint n; } fe_ud;
static void fe_done(void *ud, double a, double f, double e, guint32 o) {
  fe_ud *u = ud;
  (void)o;
  cr_assert_lt(u->n, 8);
  u->a[u->n] = a / 1e6;
  u->f[u->n] = f / 1e6;
  u->e[u->n] = e / 1e6;
  u->n++;
}
static void fe_run(gboolean closed, double frontend_ms, guint32 seqs, guint n, guint32 output,
                   fe_ud *u) {
  llm_config cfg = llm_cfg("llama-3.1-8b", "H100-80GB", seqs, 100000);
  cfg.bw_bytes_per_ns = cfg.flops_per_ns = 1e15;
  cfg.step_overhead_ns = 1e6;
  cfg.closed_loop = closed;
  cfg.frontend_ns = frontend_ms * 1e6;
  llm_engine *e = llm_engine_new(&cfg, 0);
  for (guint i = 0; i < n; i++) cr_assert(llm_engine_submit(e, 0, 4, output));
  *u = (fe_ud){0};
  llm_engine_run(e, 1e9, fe_done, u);
  cr_assert_eq(u->n, n);
  llm_engine_free(e);
}
static void fe_expect(const fe_ud *u, guint i, double a, double f, double e) {
  cr_assert(fabs(u->a[i] - a) < 1e-6 && fabs(u->f[i] - f) < 1e-6 && fabs(u->e[i] - e) < 1e-6,
            "request %u: sent %.6f first %.6f end %.6f ms, expected %g %g %g", i, u->a[i],
            u->f[i], u->e[i], a, f, e);
}

/* Open loop: three requests arrive at 0 and pass the serial front end of 2 ms one after the
 * other (ready at 2, 4, 6 ms); each is one prefill step of 1 ms (output 1), the engine idle
 * in between: TTFT 3, 5 and 7 ms from their arrival. */
Test(llm, frontend_is_serial_in_open_loop) {
  fe_ud u;
  fe_run(FALSE, 2.0, 8, 3, 1, &u);
  fe_expect(&u, 0, 0, 3, 3);
  fe_expect(&u, 1, 0, 5, 5);
  fe_expect(&u, 2, 0, 7, 7);
}

/* Closed loop of 2 clients, front end 2.5 ms, 1 ms steps, outputs of 3 tokens (a prefill
 * and two decodes). Both clients send at 0: ready at 2.5 and 5. r0 runs 2.5-5.5 (first
 * token 3.5). r1, ready at 5 in the middle of r0's last step, waits for its end: 5.5-8.5
 * (first 6.5). Client 0 sends r2 at 5.5, ready at 8 (in r1's last step): 8.5-11.5, first
 * 9.5. Client 1 sends r3 at 8.5, ready at 11: 11.5-14.5, first 12.5. TTFT 3.5, 6.5, 4, 4. */
Test(llm, frontend_closed_loop_step_sequence) {
  fe_ud u;
  fe_run(TRUE, 2.5, 2, 4, 3, &u);
  fe_expect(&u, 0, 0, 3.5, 5.5);
  fe_expect(&u, 1, 0, 6.5, 8.5);
  fe_expect(&u, 2, 5.5, 9.5, 11.5);
  fe_expect(&u, 3, 8.5, 12.5, 14.5);
}

/* The same with a front end of 0.5 ms: r1, ready at 1 during r0's prefill (0.5-1.5), joins
 * the next step beside r0's first decode (a mixed step, 1.5-2.5) and decodes beside it:
 * r0 ends at 3.5, r1 at 4.5. r2 (sent 3.5, ready 4) waits for the step 3.5-4.5 to end and
 * runs 4.5-7.5; r3 (sent 4.5, ready 5) joins at 5.5 beside r2's decodes, ending at 8.5. */
Test(llm, frontend_request_joins_running_decodes) {
  fe_ud u;
  fe_run(TRUE, 0.5, 2, 4, 3, &u);
  fe_expect(&u, 0, 0, 1.5, 3.5);
  fe_expect(&u, 1, 0, 2.5, 4.5);
  fe_expect(&u, 2, 3.5, 5.5, 7.5);
  fe_expect(&u, 3, 4.5, 6.5, 8.5);
}
