/* workload-llm.c: an LLM server (an inference job with a `model`), as vLLM runs one: at
 * start it pre-allocates gpu_memory_utilization of the memory it can see for weights and KV
 * blocks (that memory is in use for every gauge and OOM policy); requests (Poisson, or
 * recorded) with prompt and output tokens go through llm-engine.c's continuous batching at
 * the bandwidth and compute the strategy leaves it; TTFT, TPOT and end-to-end latency and
 * SLO goodput per service. It does not decide speeds (the strategies do). */
#include "workload.h"
#include "llm-engine.h"
#include "rng.h"
#include "rngfast.h"
#include "histogram.h"
#include "metrics.h"
#include <math.h>
#include <stddef.h>

/* The section of the scenario these keys are in (`llm:`), declared here as its keys are. */
static const scenario_model_section workload_section_llm = {
    "llm", "{max_num_batched_tokens: 2048, chunked_prefill: false}"};
/* The engine's settings and constants a scenario may set in its `llm:` section
 * (scenario_model_key; listed in sim_model_keys, sim.c): the reader checks and keeps them
 * in scenario.llm, which this file reads. */
const scenario_model_key workload_key_llm_max_num_batched_tokens = {
    {"llm.max_num_batched_tokens", "8192", "the token budget of one iteration", NULL},
    SCENARIO_MODEL_WHOLE, "a whole number of tokens from 1 to 1000000", 1, 1000000, FALSE,
    FALSE, 8192, offsetof(scenario, llm.max_num_batched_tokens), NULL,
    &workload_section_llm};
const scenario_model_key workload_key_llm_chunked_prefill = {
    {"llm.chunked_prefill", "true", "prefills cut into the iterations' budget (vLLM V1)", NULL},
    SCENARIO_MODEL_ONOFF, NULL, 0, 1, FALSE, FALSE, 1,
    offsetof(scenario, llm.chunked_prefill), NULL,
    &workload_section_llm};
const scenario_model_key workload_key_llm_block_size = {
    {"llm.block_size", "16", "tokens per KV-cache block", NULL},
    SCENARIO_MODEL_WHOLE, "a whole number of tokens per KV block from 1 to 128", 1, 128, FALSE,
    FALSE, 16, offsetof(scenario, llm.block_size), NULL,
    &workload_section_llm};
const scenario_model_key workload_key_llm_stream_ms_per_token = {
    {"llm.stream_ms_per_token", "0", "the serial delivery cost of one output token", NULL},
    SCENARIO_MODEL_NUMBER, "milliseconds per output token from 0 to 1000", 0, 1000, FALSE,
    FALSE, 0, offsetof(scenario, llm.stream_ms_per_token), NULL,
    &workload_section_llm};
const scenario_model_key workload_key_llm_closed_loop = {
    {"llm.closed_loop", "false", "the waiting requests are max_batch clients' next ones", NULL},
    SCENARIO_MODEL_ONOFF, NULL, 0, 1, FALSE, FALSE, 0,
    offsetof(scenario, llm.closed_loop), NULL,
    &workload_section_llm};
const scenario_model_key workload_key_llm_frontend_ms = {
    {"llm.frontend_ms", "0", "the serial front-end cost of one request", NULL},
    SCENARIO_MODEL_NUMBER, "milliseconds per request from 0 to 10000", 0, 10000, FALSE,
    FALSE, 0, offsetof(scenario, llm.frontend_ms), NULL,
    &workload_section_llm};
const scenario_model_key workload_key_llm_bandwidth_efficiency = {
    {"llm.bandwidth_efficiency", "0.76", "the share of peak memory bandwidth a step gets",
     NULL},
    SCENARIO_MODEL_NUMBER, "a share of peak bandwidth above 0, at most 1", 0, 1, TRUE, FALSE,
    LLM_DEFAULT_EFF_BANDWIDTH, offsetof(scenario, llm.bandwidth_efficiency), NULL,
    &workload_section_llm};
const scenario_model_key workload_key_llm_compute_efficiency = {
    {"llm.compute_efficiency", "0.66", "the share of peak FP16 FLOP/s a step gets", NULL},
    SCENARIO_MODEL_NUMBER, "a share of peak FLOP/s above 0, at most 1", 0, 1, TRUE, FALSE,
    LLM_DEFAULT_EFF_FLOPS, offsetof(scenario, llm.compute_efficiency), NULL,
    &workload_section_llm};
const scenario_model_key workload_key_llm_step_overhead_ms = {
    {"llm.step_overhead_ms", "0.54", "the fixed cost of one iteration", NULL},
    SCENARIO_MODEL_NUMBER, "milliseconds per iteration from 0 to 1000", 0, 1000, FALSE, FALSE,
    LLM_DEFAULT_STEP_OVERHEAD_MS, offsetof(scenario, llm.step_overhead_ms), NULL,
    &workload_section_llm};

/* Random streams (rng_derive(seed, id, stream)); 2-4, 7 and 8 are workload-inference.c's.
 * The Poisson gaps come from rngfast.h's exponential ziggurat (docs/models.md section 8);
 * the lengths are lognormal, exp(mu + sigma Z) with Z from rngfast.h's normal ziggurat
 * (checked against GSL's gaussian by bench/rng-check and the unit suite), drawn
 * LLM_LEN_BUF requests at a time. */
#define LLM_STREAM_LENGTHS 6
#define LLM_STREAM_ARRIVALS_FAST 9
/* Lognormal fits of the Azure LLM inference trace 2023, conversation service (19,366
 * requests): ln(ContextTokens) mean 6.633 sd 0.985; ln(GeneratedTokens) 5.019, 0.859. */
#define LLM_AZ_PROMPT_MU 6.6333
#define LLM_AZ_PROMPT_SIGMA 0.9852
#define LLM_AZ_OUTPUT_MU 5.0190
#define LLM_AZ_OUTPUT_SIGMA 0.8590
/* Memory besides weights and KV blocks: the profiled activation peak of one iteration at
 * the token budget, fp32 logits for max_num_seqs, and 512 MiB of CUDA context and non-torch
 * allocations (assumption; a 1 GB error moves an 8B model's KV pool by ~8,000 tokens). */
#define LLM_NON_TORCH_BYTES (512.0 * 1048576.0)
#define LLM_MAX_WAITING 1000000u /* requests queued at most; beyond that they are refused */
#define LLM_LEN_BUF 64u /* requests' lengths drawn at a time */

typedef struct llm_state {
  llm_config cfg;
  llm_engine *eng;
  rngfast_buf *b_arr;
  rngfast r_len;               /* the lengths' stream */
  guint32 len_pos;             /* next unread pair in len_buf; LLM_LEN_BUF: empty */
  double len_buf[LLM_LEN_BUF][2]; /* unrounded prompt and output lengths */
  trace_request_cursor *cur;
  gboolean recorded, has_next, up, finalised;
  double next_a, rate_rps;
  guint32 next_prompt, next_output; /* recorded lengths (0: draw) */
  double mu_p, mu_o;           /* lognormal locations of the lengths */
  int64_t reserve_bytes, weight_bytes;
  double busy_ns, up_ns, duty;
  double last_end_ns;           /* the latest request end (-inf before the first) */
  histogram *e2e, *ttft, *tpot;
  guint64 served, dropped, unanswered, violations, good, ttft_miss, tpot_miss;
  double slo_ns, slo_ttft_ns, slo_tpot_ns;
} llm_state;

/* ---- lengths and arrivals ---- */

/* Lognormal lengths for the next LLM_LEN_BUF requests (prompt, then output, per request). */
static void llm_fill_lengths(llm_state *st) {
  rngfast r = st->r_len; /* in registers for the loop */
  for (guint32 i = 0; i < LLM_LEN_BUF; i++) {
    st->len_buf[i][0] = exp(st->mu_p + LLM_AZ_PROMPT_SIGMA * rngfast_gauss(&r));
    st->len_buf[i][1] = exp(st->mu_o + LLM_AZ_OUTPUT_SIGMA * rngfast_gauss(&r));
  }
  st->r_len = r;
  st->len_pos = 0;
}

/* round(v) clamped to [1, cap] (cap a whole number >= 1), without the libm call and the
 * branch on the cap: for v >= 0.5, v + 0.5 is exact or rounds below the next whole number,
 * so its truncation is round(v) (halves away from zero), and truncating min(v + 0.5, cap)
 * is min(round(v), cap); below 0.5 (or NaN) both give 1. */
static guint32 llm_round_len(double v, double cap) {
  if (!(v >= 0.5)) return 1;
  double w = v + 0.5;
  return (guint32)(w < cap ? w : cap);
}

static void llm_next_arrival(llm_state *st) {
  if (st->recorded) {
    double at_s, svc;
    st->has_next = st->cur && trace_request_cursor_next_tokens(st->cur, &at_s, &svc,
                                                               &st->next_prompt,
                                                               &st->next_output);
    if (st->has_next) st->next_a = at_s * 1e9;
    return;
  }
  st->has_next = st->rate_rps > 0;
  if (st->has_next) st->next_a += 1e9 / st->rate_rps * rngfast_buf_exp(st->b_arr);
}

/* ---- memory, as vLLM holds it ---- */

/* Activation peak of one profiling iteration at the token budget, and the logits. */
static double llm_activation_bytes(const llm_model *m, guint32 max_seqs, guint32 budget) {
  double per_token = (2.0 * m->intermediate + 4.0 * m->hidden) * 2.0;
  return (double)budget * per_token + (double)max_seqs * m->vocab * 4.0 +
         LLM_NON_TORCH_BYTES;
}

/* Sizes the server on the memory its first worker can see (the card, an MPS pinned
 * limit, a MIG instance): reserve = utilisation x that; KV blocks from what the weights
 * and activations leave. */
static void llm_size(llm_state *st, const sim *s, const job_run *j) {
  const workload_job *v = workload_job_const(j);
  const job_spec *sp = v->spec;
  int64_t cap = workload_job_mem_visible(s, j, 0);
  st->reserve_bytes = (int64_t)floor(sp->gpu_mem_util * (double)cap);
  st->weight_bytes = sp->mem_bytes;
  double kv = (double)st->reserve_bytes - (double)st->weight_bytes -
              llm_activation_bytes(sp->llm, st->cfg.max_num_seqs,
                                   st->cfg.max_num_batched_tokens);
  double block = (double)st->cfg.block_size *
                 (double)llm_model_kv_bytes_per_token(sp->llm, st->cfg.kv_bytes_per_elem);
  st->cfg.kv_blocks = kv > 0 ? (int64_t)floor(kv / block) : 0;
  if (st->reserve_bytes < st->weight_bytes) st->reserve_bytes = st->weight_bytes;
}

/* Bandwidth and compute the server gets now: peak x efficiency (llm: keys) x its share. Under
 * MIG the instance's SMs and memory slices set the two shares separately. */
static void llm_rates(const sim *s, const job_run *j, double *bw, double *fl) {
  const workload_job *v = workload_job_const(j);
  const scenario *sc = workload_scenario(s);
  const gpu_model *m = scenario_pool(sc, (guint)v->pool)->gpu;
  double speed = v->rate, sm_share = speed, bw_share = speed, smf, bwf;
  workload_job_partition(s, j, 0, &smf, &bwf);
  if (smf != 1.0 || bwf != 1.0) /* the strategy's speed is the SM share times contention */
    bw_share = bwf * (smf > 0 ? speed / smf : 0);
  *bw = m->mem_bw_gbps * sc->llm.bandwidth_efficiency * bw_share;   /* GB/s = bytes/ns */
  *fl = m->fp16_tflops * 1e3 * sc->llm.compute_efficiency * sm_share; /* 1e3 FLOP/ns */
}

/* ---- results of one request ---- */

static void llm_done(void *ud, double arrival, double first, double end, guint32 output) {
  llm_state *st = ud;
  double e2e = end - arrival, ttft = first - arrival;
  double tpot = output > 1 ? (end - first) / (double)(output - 1) : NAN;
  histogram_add(st->e2e, e2e);
  histogram_add(st->ttft, ttft);
  if (end > st->last_end_ns) st->last_end_ns = end;
  if (!isnan(tpot)) histogram_add(st->tpot, tpot);
  st->served++;
  gboolean miss_e2e = e2e > st->slo_ns, miss_ttft = ttft > st->slo_ttft_ns;
  gboolean miss_tpot = !isnan(tpot) && tpot > st->slo_tpot_ns;
  st->violations += miss_e2e;
  st->ttft_miss += miss_ttft;
  st->tpot_miss += miss_tpot;
  st->good += !(miss_e2e || miss_ttft || miss_tpot);
}

static void llm_lost(void *ud, double arrival) {
  llm_state *st = ud;
  (void)arrival;
  st->dropped++;
}

static void llm_cut_off(void *ud, double arrival) {
  llm_state *st = ud;
  (void)arrival;
  st->unanswered++;
}

static void llm_submit(llm_state *st, const job_spec *sp) {
  double cap = sp->llm->max_context;
  const double *v = NULL;
  if (!st->next_prompt || !st->next_output) {
    if (st->len_pos == LLM_LEN_BUF) llm_fill_lengths(st);
    v = st->len_buf[st->len_pos++];
  }
  /* a recorded prompt that fills the model's context is refused, as vLLM refuses one over
   * max_model_len (no room for an output token); sampled lengths are drawn below it */
  if (st->next_prompt && st->next_prompt >= (guint32)cap) {
    st->dropped++;
    return;
  }
  guint32 p = st->next_prompt ? st->next_prompt : llm_round_len(v[0], cap - 1);
  guint32 o = st->next_output ? MIN(st->next_output, (guint32)cap - p)
                              : llm_round_len(v[1], cap - p);
  if (!llm_engine_submit(st->eng, st->next_a, p, o)) st->dropped++;
}

/* ---- hooks ---- */

static llm_state *llm_state_new(sim *s, job_run *j) {
  workload_job *v = workload_job_of(j);
  const scenario *sc = workload_scenario(s);
  const trace *tr = workload_trace(s);
  const job_spec *sp = v->spec;
  llm_state *st = g_new0(llm_state, 1);
  st->cfg = (llm_config){.model = sp->llm, .bytes_per_param = 2, .kv_bytes_per_elem = 2,
                         .max_num_seqs = MAX(sp->max_batch, 1u),
                         .max_num_batched_tokens = sc->llm.max_num_batched_tokens,
                         .block_size = sc->llm.block_size,
                         .chunked_prefill = sc->llm.chunked_prefill,
                         .stream_ns_per_token = sc->llm.stream_ms_per_token * 1e6,
                         .closed_loop = sc->llm.closed_loop,
                         .frontend_ns = sc->llm.frontend_ms * 1e6,
                         .step_overhead_ns = sc->llm.step_overhead_ms * 1e6,
                         .max_waiting = LLM_MAX_WAITING};
  st->b_arr = g_new(rngfast_buf, 1);
  rngfast_buf_seed(st->b_arr, sc->seed, sp->id, LLM_STREAM_ARRIVALS_FAST);
  rngfast_seed(&st->r_len, sc->seed, sp->id, LLM_STREAM_LENGTHS);
  st->len_pos = LLM_LEN_BUF;
  /* a given mean keeps the Azure spread: mu = ln(mean) - sigma^2 / 2 */
  st->mu_p = sp->prompt_tokens ? log(sp->prompt_tokens) - LLM_AZ_PROMPT_SIGMA *
                                     LLM_AZ_PROMPT_SIGMA / 2 : LLM_AZ_PROMPT_MU;
  st->mu_o = sp->output_tokens ? log(sp->output_tokens) - LLM_AZ_OUTPUT_SIGMA *
                                     LLM_AZ_OUTPUT_SIGMA / 2 : LLM_AZ_OUTPUT_MU;
  st->slo_ns = sp->slo_ms > 0 ? sp->slo_ms * 1e6 : INFINITY;
  st->slo_ttft_ns = sp->slo_ttft_ms > 0 ? sp->slo_ttft_ms * 1e6 : INFINITY;
  st->slo_tpot_ns = sp->slo_tpot_ms > 0 ? sp->slo_tpot_ms * 1e6 : INFINITY;
  st->e2e = histogram_new();
  st->ttft = histogram_new();
  st->tpot = histogram_new();
  st->recorded = sp->has_requests;
  if (st->recorded && tr->requests_path)
    st->cur = trace_request_cursor_open(tr->requests_path, sp->id, NULL);
  st->rate_rps = v->rate_rps;
  st->next_a = (double)workload_now(s);
  llm_next_arrival(st);
  st->duty = 1.0; /* until measured: busy whenever it may be */
  st->last_end_ns = -INFINITY;
  return st;
}

static void llm_drop_until(llm_state *st, double t) {
  while (st->has_next && st->next_a < t) {
    st->dropped++;
    llm_next_arrival(st);
  }
}

static void llm_on_start(sim *s, job_run *j) {
  workload_job *v = workload_job_of(j);
  llm_state *st = v->workload_data;
  if (!st) v->workload_data = st = llm_state_new(s, j);
  double now = (double)workload_now(s);
  double session_end = v->session_end >= 0 ? (double)v->session_end : INFINITY;
  llm_drop_until(st, MIN(now, session_end)); /* no server was up for them */
  while (st->has_next && st->next_a < now) llm_next_arrival(st);
  llm_size(st, s, j);
  workload_job_set_mem(s, j, st->reserve_bytes);
  g_clear_pointer(&st->eng, llm_engine_free);
  st->eng = llm_engine_new(&st->cfg, now);
  st->up = TRUE;
  workload_job_set_demand(s, j, FALSE, 0.0, 0);
}

static void llm_advance(sim *s, job_run *j, sim_time from_t, sim_time to_t) {
  workload_job *v = workload_job_of(j);
  llm_state *st = v->workload_data;
  if (!st || !st->up || to_t <= from_t || !v->n_tasks) return;
  double from = (double)from_t, to = (double)to_t, bw, fl;
  llm_rates(s, j, &bw, &fl);
  llm_engine_set_rates(st->eng, bw, fl);
  double busy = 0;
  while (st->has_next && st->next_a < to) {
    busy += llm_engine_run(st->eng, st->next_a, llm_done, st);
    llm_submit(st, v->spec);
    llm_next_arrival(st);
  }
  busy += llm_engine_run(st->eng, to, llm_done, st);
  double dt = to - from;
  busy = MIN(busy, dt);
  st->busy_ns += busy;
  st->up_ns += dt;
  double alpha = -expm1(-dt / (double)workload_scenario(s)->inference.duty_window_ns);
  st->duty += alpha * (busy / dt - st->duty);
}

static double llm_duty(const job_run *j, double rate) {
  const workload_job *v = workload_job_const(j);
  const llm_state *st = v->workload_data;
  if (!(v->rate_rps > 0) && !v->spec->has_requests) return 0;
  return st ? CLAMP(st->duty, 0.0, 1.0) : 1.0;
}

static void llm_stop(llm_state *st, double now, gboolean killed) {
  if (!st->up) return;
  if (killed) {
    llm_engine_clear(st->eng, llm_lost, st);
    llm_drop_until(st, now);
  } else {
    llm_engine_clear(st->eng, llm_cut_off, st); /* cut off by the end of the session */
    while (st->has_next && st->next_a < now) llm_next_arrival(st);
  }
  st->up = FALSE;
}

static void llm_on_stop(sim *s, job_run *j) {
  workload_job *v = workload_job_of(j);
  llm_state *st = v->workload_data;
  if (!st) return;
  sim_time now = workload_now(s);
  llm_stop(st, (double)now, now < v->session_end);
}

static void llm_finalise(llm_state *st, double now) {
  if (st->finalised) return;
  if (st->up) llm_stop(st, now, FALSE);
  g_clear_pointer(&st->eng, llm_engine_free);
  g_clear_pointer(&st->b_arr, g_free);
  g_clear_pointer(&st->cur, trace_request_cursor_free);
  st->finalised = TRUE;
}

static void llm_on_done(sim *s, job_run *j) {
  workload_job *v = workload_job_of(j);
  llm_state *st = v->workload_data;
  if (!st) return;
  if (!st->finalised) {
    llm_finalise(st, (double)workload_now(s));
    return;
  }
  histogram_free(st->e2e);
  histogram_free(st->ttft);
  histogram_free(st->tpot);
  g_free(st);
  v->workload_data = NULL;
}

static void llm_on_phase(sim *s, job_run *j) {
  workload_job *v = workload_job_of(j);
  llm_state *st = v->workload_data;
  workload_job_refresh(s, j);
  if (!st || st->recorded || st->rate_rps == v->rate_rps) return;
  st->rate_rps = v->rate_rps; /* Poisson: the next arrival is drawn again from now */
  st->next_a = (double)workload_now(s);
  llm_next_arrival(st);
}

static double llm_q_ms(const histogram *h, double q) {
  return h->count ? histogram_quantile(h, q) / 1e6 : NAN;
}

static void llm_report(sim *s, job_run *j) {
  workload_job *v = workload_job_of(j);
  llm_state *st = v->workload_data;
  const job_spec *sp = v->spec;
  service_result sr = {
      .id = sp->id, .pool = v->pool >= 0 ? scenario_pool(workload_scenario(s), (guint)v->pool)->name : "",
      .mean_ms = NAN, .p50_ms = NAN, .p95_ms = NAN, .p99_ms = NAN, .max_ms = NAN,
      .slo_ms = sp->slo_ms > 0 ? sp->slo_ms : NAN, .slo_pct = sp->slo_pct,
      .attainment_pct = NAN, .met = -1, .busy_frac = NAN, .llm = TRUE,
      .ttft_p50_ms = NAN, .ttft_p99_ms = NAN, .tpot_p50_ms = NAN, .tpot_p99_ms = NAN,
      .goodput_rps = NAN, .last_end_ms = NAN};
  if (st) {
    llm_finalise(st, (double)workload_now(s));
    sr.served = st->served;
    sr.dropped = st->dropped;
    sr.unanswered = st->unanswered;
    sr.requests = st->served + st->dropped + st->unanswered;
    /* like the request model: dropped and unanswered requests count as violations */
    sr.violations = sp->slo_ms > 0 ? st->violations + st->dropped + st->unanswered : 0;
    if (st->served) {
      sr.mean_ms = histogram_mean(st->e2e) / 1e6;
      sr.p50_ms = llm_q_ms(st->e2e, 0.50);
      sr.p95_ms = llm_q_ms(st->e2e, 0.95);
      sr.p99_ms = llm_q_ms(st->e2e, 0.99);
      sr.max_ms = histogram_max(st->e2e) / 1e6;
      sr.last_end_ms = st->last_end_ns / 1e6;
    }
    if (sp->slo_ms > 0 && sr.requests) {
      sr.attainment_pct = 100.0 * (double)(sr.requests - sr.violations) / (double)sr.requests;
      sr.met = sr.attainment_pct >= sp->slo_pct * (1.0 - 1e-12) ? 1 : 0;
    }
    sr.busy_frac = st->up_ns > 0 ? st->busy_ns / st->up_ns : NAN;
    /* a histogram that saw nothing writes no rows: none is kept */
    sr.latency_ns = histogram_count(st->e2e) ? histogram_copy(st->e2e) : NULL;
    sr.ttft_ns = histogram_count(st->ttft) ? histogram_copy(st->ttft) : NULL;
    sr.tpot_ns = histogram_count(st->tpot) ? histogram_copy(st->tpot) : NULL;
    sr.ttft_p50_ms = llm_q_ms(st->ttft, 0.50);
    sr.ttft_p99_ms = llm_q_ms(st->ttft, 0.99);
    sr.tpot_p50_ms = llm_q_ms(st->tpot, 0.50);
    sr.tpot_p99_ms = llm_q_ms(st->tpot, 0.99);
    double up_s = st->up_ns / 1e9;
    sr.goodput_rps = up_s > 0 ? (double)st->good / up_s : NAN;
    sr.kv_blocks = st->cfg.kv_blocks;
    sr.reserved_gb = (double)st->reserve_bytes / 1e9;
  }
  workload_service(s, &sr);
}

static void llm_on_work_done(sim *s, job_run *j) {}
static void llm_on_timer(sim *s, job_run *j) {}
static double llm_rate(const job_run *j, double min_speed) { return min_speed; }

const workload_ops workload_llm_ops = {
    .kind = JOB_INFERENCE,
    .name = "llm",
    .session = TRUE,
    .on_start = llm_on_start,
    .on_work_done = llm_on_work_done,
    .on_timer = llm_on_timer,
    .rate = llm_rate,
    .duty = llm_duty,
    .on_phase = llm_on_phase,
    .advance = llm_advance,
    .on_stop = llm_on_stop,
    .on_done = llm_on_done,
    .report = llm_report,
};
