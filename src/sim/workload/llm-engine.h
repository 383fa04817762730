/* llm-engine.h: one vLLM-style server as a batch engine: continuous batching at iteration
 * level (max_num_seqs, max_num_batched_tokens, chunked prefill on or off), paged KV blocks,
 * preemption by recompute when blocks run out, and a roofline step time. Between two
 * changes of the batch it runs many decode steps at once in closed form. It knows nothing
 * of the simulator: workload-llm.c feeds it requests and rates; tests drive it directly. */
#pragma once
#include <glib.h>
#include <stdint.h>
#include "llm-model.h"

/* The engine's fitted constants, the defaults of the `llm:` keys bandwidth_efficiency,
 * compute_efficiency and step_overhead_ms, which workload-llm.c declares (docs/models.md,
 * "LLM serving", calibration): roofline efficiencies fitted on Vidur's A100/H100
 * linear-layer profiles; the fixed cost of one iteration (scheduling, sampling, launches)
 * fitted on the published c = 1 TPOTs: A100 13.33 ms and H100 6.48 ms against 12.82 and
 * 5.91 from the roofline alone. A scenario may set them. */
#define LLM_DEFAULT_EFF_BANDWIDTH 0.76
#define LLM_DEFAULT_EFF_FLOPS 0.66
#define LLM_DEFAULT_STEP_OVERHEAD_MS 0.54
#define LLM_EFF_BANDWIDTH LLM_DEFAULT_EFF_BANDWIDTH
#define LLM_EFF_FLOPS LLM_DEFAULT_EFF_FLOPS
#define LLM_STEP_OVERHEAD_NS (LLM_DEFAULT_STEP_OVERHEAD_MS * 1e6)

typedef struct llm_config {
  const llm_model *model;
  double bytes_per_param;      /* weights: 2 (fp16/bf16) */
  double kv_bytes_per_elem;    /* KV cache: 2 */
  double bw_bytes_per_ns;      /* memory bandwidth it gets (peak x efficiency x share) */
  double flops_per_ns;         /* compute it gets (peak x efficiency x share) */
  double step_overhead_ns;     /* fixed cost per iteration (scheduler, launch); assumption */
  /* serial cost of delivering one output token to its client (detokenise, stream, the
   * client's per-chunk work): a step that emits n decode tokens lasts at least n times it;
   * 0 by default (docs/models.md, "Token delivery") */
  double stream_ns_per_token;
  /* a closed loop of max_num_seqs clients: the waiting requests are the clients' next ones,
   * sent when a seat frees, so latencies (TTFT, end to end) count from a request's first
   * admission, not its queued arrival (docs/models.md, "Closed loop"); FALSE by default */
  gboolean closed_loop;
  /* the serial front end's cost of one request (the API server's HTTP handling, chat
   * template, tokenising and input processing, and the client's own request work, one
   * request at a time): a request enters the waiting queue max(sent, front end free) +
   * this after it is sent (its arrival; in a closed loop, its client's previous request
   * ended). 0 by default: nothing between a request and the queue, as before
   * (docs/models.md, "Front end") */
  double frontend_ns;
  guint32 max_num_seqs;
  guint32 max_num_batched_tokens;
  guint32 block_size;          /* tokens per KV block (vLLM default 16) */
  gboolean chunked_prefill;
  int64_t kv_blocks;           /* blocks the KV pool holds */
  guint32 max_waiting;         /* requests queued at most; more are refused (dropped) */
} llm_config;

/* A finished request: arrival, first token and end (ns), output tokens. */
typedef void (*llm_done_fn)(void *ud, double arrival_ns, double first_ns, double end_ns,
                            guint32 output_tokens);

typedef struct llm_engine llm_engine;

llm_engine *llm_engine_new(const llm_config *c, double now_ns);
void llm_engine_free(llm_engine *e);
/* The share of the GPU changed: new bandwidth and compute (0: stalled). */
void llm_engine_set_rates(llm_engine *e, double bw_bytes_per_ns, double flops_per_ns);
/* Queues a request that arrived at arrival_ns (<= the engine clock or the next run's end).
 * FALSE when the waiting queue is full (the request is refused). prompt >= 1, output >= 1. */
gboolean llm_engine_submit(llm_engine *e, double arrival_ns, guint32 prompt, guint32 output);
/* Runs iterations while the clock is before until_ns (the last one may end after it), or
 * idles up to it; finished requests go to done(). Returns the time in [from, until) with a
 * batch running (busy time). */
double llm_engine_run(llm_engine *e, double until_ns, llm_done_fn done, void *ud);
/* Moves the clock to t (>= clock) without running, e.g. while stalled. */
void llm_engine_skip(llm_engine *e, double t_ns);
/* Empties the engine (the server stopped): calls lost(ud) once per request running or
 * waiting, which are forgotten. */
void llm_engine_clear(llm_engine *e, void (*lost)(void *ud, double arrival_ns), void *ud);

/* Seconds for one iteration of `tokens` tokens in total (decode + prefill) reading
 * ctx_read cached tokens' KV, with attn_ctx the summed attention context of the query tokens;
 * exposed for the calibration tests. */
double llm_engine_step_ns(const llm_config *c, double tokens, double prefill_tokens,
                          double ctx_read, double attn_ctx);

/* The smooth roofline max (a^1.5 + b^1.5)^(2/3) as the engine computes it (a table of
 * cubic pieces), for the test against the exact formula. */
double llm_engine_smooth_max(double a, double b);

typedef struct llm_engine_stats {
  double clock_ns;
  guint32 running, waiting, decoding;
  int64_t free_blocks;
  guint64 steps, preemptions, refused;
} llm_engine_stats;
void llm_engine_get_stats(const llm_engine *e, llm_engine_stats *out);
