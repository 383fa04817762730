/* validate-llm.c: LLM serving against published vLLM concurrency sweeps, through the real
 * simulator: a closed loop of c clients is one server with max_num_seqs = c and recorded
 * requests of fixed lengths all waiting at time 0, so each client's next request starts as
 * its last one ends (with `llm.closed_loop`, it is sent then and passes the front end). Either 20 c of them (`vllm bench serve --max-concurrency c --num-prompts
 * 20c`) or as many as the clients start in a measurement window (InferenceBench), the first
 * few discarded; the throughput is the counted output tokens over the last completion. TTFT
 * is read from the same window rerun with `llm.closed_loop` (latency from each request's
 * sending, not from time 0). Sweeps: Llama-3.1-8B on an A100 40GB and on an H100. */
#include "validate.h"
#include "sim.h"
#include "util.h"
#include <math.h>
#include <string.h>

/* One published point: its concurrency, whether a TPOT is published, whether its
 * throughput is a row, and what set each figure: the constant fitted on it, or that it
 * decides it (a calibration row, validate-fits.c), or NULL (a prediction). */
typedef struct llm_point {
  guint conc;
  gboolean tpot, no_tok, ttft; /* ttft: TTFT p50 and p99 are published */
  const char *tok_fit, *tpot_fit, *ttft_fit; /* ttft_fit: the TTFT p50's (p99: a prediction) */
} llm_point;

typedef struct llm_sweep {
  const char *key;      /* published keys llm.KEY.cC.tok_s / .tpot_ms */
  const char *gpu;
  guint32 prompt, output;
  const char *engine;   /* the scenario's llm: line ("" for the defaults); when it says
                         * closed_loop, one run gives every row of a point (the throughput
                         * over the last request's end) */
  const char *engine_closed; /* the same with closed_loop: true (for the TTFT rows) */
  gboolean closed;      /* engine is a closed loop (the same as engine_closed) */
  double window_s;      /* the clients start requests for this long (0: 20 c requests) */
  guint discard;        /* first completions not counted (the harness's warm-up) */
  const llm_point *points; /* conc 0 ends */
} llm_sweep;

/* The H100 case's engine: the client's streaming cost (fitted on the c = 64 TPOT) and the
 * front end's cost of a request (fitted on the c = 1 TTFT p50), as a closed loop. */
#define LLM_H100_ENGINE \
  "llm: {stream_ms_per_token: 0.743, frontend_ms: 7.29, closed_loop: true}\n"

/* vllm bench serve. The roofline's efficiencies come from Vidur's kernel profiles; the
 * fixed cost of a step (LLM_STEP_OVERHEAD_NS) from the two c = 1 TPOTs, this one and the
 * H100's; at c = 1 the throughput is that TPOT's inverse, so it is in sample too
 * (docs/models.md, "Calibration and errors"). */
static const llm_point llm_a100[] = {
    {1, TRUE, FALSE, FALSE, "set by the step overhead", "step overhead fitted", NULL},
    {8, FALSE, FALSE, FALSE, NULL, NULL, NULL},
    {0, FALSE, FALSE, FALSE, NULL, NULL, NULL}};
/* InferenceBench: the step overhead is fitted on the c = 1 TPOT, the client's delivery cost
 * on the c = 64 one, and that cost sets c = 16 and 64 (their TPOT is about c x 0.743 ms). The
 * c = 1 throughput is no row: it is 79 % of 1 / TPOT where c = 4-64 give 94-96 % of
 * c / TPOT, about 57 s of its 300 s window produced no counted token, a loss no
 * per-request cost explains (docs/models.md: the simulator is 26 % above it). Its TTFT
 * p50 and p99 come from the same runs (20 %): the front end's cost is fitted on the c = 1
 * p50 (13.98 ms against the 6.69 ms prefill step the engine alone gives); the other seven
 * are predictions. */
static const llm_point llm_h100[] = {
    {1, TRUE, TRUE, TRUE, NULL, "step overhead fitted", "front-end cost fitted"},
    {4, TRUE, FALSE, TRUE, NULL, NULL, NULL},
    {16, TRUE, FALSE, TRUE, "set by the streaming cost", "set by the streaming cost", NULL},
    {64, TRUE, FALSE, TRUE, "set by the streaming cost", "streaming cost fitted",
     NULL},
    {0, FALSE, FALSE, FALSE, NULL, NULL, NULL}};

static const llm_sweep llm_sweeps[] = {
    {"a100", "A100-40GB", 1024, 128, "", "", FALSE, 0, 0, llm_a100},
    /* ~45 prompt tokens (InferenceBench's bundled prompts in Llama 3.1's chat template);
     * its plugin asks max_tokens 128 and the answers average 123 tokens (its Llama-3.1-8B
     * envelope on the same H100 and vLLM: 227.5 tok/s at 1.850 requests/s). `bench run`'s
     * window is 300 s (--duration's default) and its first 3 completions are discarded.
     * Its Python client takes 0.743 ms to deliver a token (fitted on the c = 64 TPOT: with
     * the front end, some of the 64 clients are between requests at any step, so a step
     * delivers fewer than 64 tokens), so at most ~1,350 tokens a second leave the server. Each request passes a serial front end of 7.29 ms (its
     * client's request work, the API server's HTTP handling, chat template and tokenising,
     * and the engine's input processing), fitted on the c = 1 TTFT p50; the clients send
     * their next requests as their last ones end (a closed loop), and each run gives the
     * point's throughput, TPOT and TTFT. */
    {"h100", "H100-80GB", 45, 123, LLM_H100_ENGINE, LLM_H100_ENGINE, TRUE, 300, 3, llm_h100},
};

/* Writes the case's files and runs it with its requests file attached (closed: with
 * llm.closed_loop, for TTFT). */
static results *llm_run(validate_ctx *c, const char *name, const llm_sweep *w, guint conc,
                        guint n_requests, gboolean closed, GError **error) {
  g_autofree char *yaml = g_strdup_printf(
      "name: %s\nseed: 1\npools:\n  - {name: p, gpu: %s, nodes: 1, gpus_per_node: 1, "
      "strategy: exclusive}\n%s", name, w->gpu, closed ? w->engine_closed : w->engine);
  g_autofree char *csv = g_strdup_printf(
      "id,submit_s,kind,gpus,mem_gb,duration_s,rate_rps,model,max_batch\n"
      "svc,0,inference,1,0,100000,1,llama-3.1-8b,%u\n", conc);
  GString *req = g_string_new("job_id,at_s,prompt_tokens,output_tokens\n");
  for (guint i = 0; i < n_requests; i++)
    g_string_append_printf(req, "svc,0,%u,%u\n", w->prompt, w->output);
  g_autofree char *rname = g_strconcat(name, "-requests.csv", NULL);
  g_autofree char *rp = g_build_filename(c->work_dir, rname, NULL);
  gboolean ok = g_file_set_contents(rp, req->str, (gssize)req->len, error);
  g_string_free(req, TRUE);
  const scenario *sc;
  const trace *tr;
  if (!ok || !validate_load(c, name, yaml, csv, NULL, 0, &sc, &tr, error)) return NULL;
  g_autoptr(diag_list) d = diag_list_new(0);
  /* the trace is the context's (validate_load keeps it); attaching requests marks its jobs */
  gboolean attached = trace_check_requests((trace *)tr, rp, d);
  if (attached) sim_check_jobs(sc, tr, d);
  if (!attached || diag_has_errors(d)) {
    g_autofree char *msg = diag_join(d);
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "case %s: its inputs: %s", name,
                msg);
    return NULL;
  }
  results *r = sim_run(sc, tr, NULL, error);
  if (!r) g_prefix_error(error, "case %s: ", name);
  else c->runs++;
  return r;
}

static void llm_row(validate_ctx *c, const llm_sweep *w, guint conc, const char *what,
                    const char *fit, const char *unit, double predicted, double tol) {
  const char *src = NULL;
  g_autofree char *key = g_strdup_printf("llm.%s.c%u.%s", w->key, conc, unit);
  double pub = validate_published(key, &src);
  g_autofree char *cmp = g_strdup_printf("Llama-3.1-8B on %s, %u/%u tokens, c = %u: %s%s%s%s",
                                         w->gpu, w->prompt, w->output, conc, what,
                                         fit ? " (" : "", fit ? fit : "", fit ? ")" : "");
  validate_set_kind(c, fit ? VALIDATE_CALIBRATION : VALIDATE_PREDICTION);
  validate_rel(c, key, src, cmp, pub, predicted, tol);
}

/* The run's span: from 0 to its last request's end (in a closed loop the longest end to
 * end counts from a request's sending, not from 0). */
static double llm_span_ms(const llm_sweep *w, const service_result *s) {
  return w->closed ? s->last_end_ms : s->max_ms;
}

/* Runs one point: 20 c requests, then, for a measurement window, as many as the clients
 * start in it (each client's requests take the same time: 20 of them gave it); *n gets
 * the number of requests of the run returned. */
static results *llm_point_run(validate_ctx *c, const llm_sweep *w, guint conc, guint *n,
                              GError **error) {
  g_autofree char *name = g_strdup_printf("llm-%s-c%u", w->key, conc);
  *n = 20 * conc;
  results *r = llm_run(c, name, w, conc, *n, FALSE, error);
  if (!r || w->window_s <= 0) return r;
  double cycle_s = llm_span_ms(w, validate_service(r, "svc")) / 1e3 / 20;
  results_free(r);
  guint per_client = (guint)ceil(w->window_s / cycle_s);
  g_autofree char *wname = g_strdup_printf("llm-%s-c%u-window", w->key, conc);
  *n = conc * per_client;
  return llm_run(c, wname, w, conc, *n, FALSE, error);
}

/* TTFT p50 and p99 of the same requests as the point's run, rerun as a closed loop: each
 * request's TTFT from its sending (its client's previous request ended) to its first token,
 * as the client measures it; its time at 0 in the queue is no part of it. (The harness's 3
 * warm-up requests are counted here; their TTFT is every other request's in these runs.) */
static void llm_ttft_of(validate_ctx *c, const llm_sweep *w, const llm_point *p,
                        const service_result *s) {
  llm_row(c, w, p->conc, "median TTFT (ms)", p->ttft_fit, "ttft_ms", s->ttft_p50_ms, 0.20);
  llm_row(c, w, p->conc, "TTFT p99 (ms)", NULL, "ttft_p99_ms", s->ttft_p99_ms, 0.20);
}

static gboolean llm_ttft_rows(validate_ctx *c, const llm_sweep *w, const llm_point *p, guint n,
                              GError **error) {
  g_autofree char *name = g_strdup_printf("llm-%s-c%u-ttft", w->key, p->conc);
  results *r = llm_run(c, name, w, p->conc, n, TRUE, error);
  if (!r) return FALSE;
  llm_ttft_of(c, w, p, validate_service(r, "svc"));
  results_free(r);
  return TRUE;
}

static gboolean llm_sweep_rows(validate_ctx *c, const llm_sweep *w, GError **error) {
  for (const llm_point *p = w->points; p->conc; p++) {
    guint n = 0;
    results *r = llm_point_run(c, w, p->conc, &n, error);
    if (!r) return FALSE;
    const service_result *s = validate_service(r, "svc");
    /* all requests arrive at 0: the longest end to end is the run's duration */
    double counted = s->served > w->discard ? (double)(s->served - w->discard) : 0;
    double tok_s = counted * w->output / (llm_span_ms(w, s) / 1e3);
    if (!p->no_tok)
      llm_row(c, w, p->conc, "output tokens/s", p->tok_fit, "tok_s", tok_s, 0.15);
    if (p->tpot)
      llm_row(c, w, p->conc, "median TPOT (ms)", p->tpot_fit, "tpot_ms", s->tpot_p50_ms, 0.15);
    if (p->ttft && w->closed) llm_ttft_of(c, w, p, s);
    results_free(r);
    if (p->ttft && !w->closed && !llm_ttft_rows(c, w, p, n, error)) return FALSE;
  }
  return TRUE;
}

static gboolean llm_family(validate_ctx *c, GError **error) {
  for (gsize i = 0; i < G_N_ELEMENTS(llm_sweeps); i++)
    if (!llm_sweep_rows(c, &llm_sweeps[i], error)) return FALSE;
  return TRUE;
}

const validate_family validate_llm_family = {
    .name = "llm",
    .summary = "vLLM concurrency sweeps of Llama-3.1-8B (A100 40GB, H100): throughput, TPOT, TTFT",
    .run = llm_family,
};
