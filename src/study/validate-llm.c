/* validate-llm.c: LLM serving against published vLLM concurrency sweeps, through the real
 * simulator: a closed loop of c clients is one server with max_num_seqs = c and 20 c
 * recorded requests of fixed lengths all waiting at time 0 (as `vllm bench serve
 * --max-concurrency c --num-prompts 20c --request-rate inf` runs it), so the throughput is
 * the output tokens over the last completion and the TPOT is the median of the requests'.
 * Sweeps: Llama-3.1-8B on an A100 40GB (vllm bench serve) and on an H100 (InferenceBench). */
#include "validate.h"
#include "sim.h"
#include "util.h"
#include <string.h>

/* One published point: its concurrency, whether a TPOT is published, and what the model
 * took from it (NULL: not used for calibration). */
typedef struct llm_point {
  guint conc;
  gboolean tpot;
  const char *tok_use, *tpot_use;
} llm_point;

typedef struct llm_sweep {
  const char *key;      /* published keys llm.KEY.cC.tok_s / .tpot_ms */
  const char *gpu;
  guint32 prompt, output;
  const char *engine;   /* the scenario's llm: line ("" for the defaults) */
  const llm_point *points; /* conc 0 ends */
} llm_sweep;

/* vllm bench serve. The roofline's efficiencies come from Vidur's kernel profiles; the
 * fixed cost of a step (LLM_STEP_OVERHEAD_NS) from the two c = 1 TPOTs, this one and the
 * H100's; c = 1 and 8 were the checks the fit was accepted on (docs/models.md). */
static const llm_point llm_a100[] = {{1, TRUE, "calibration", "calibration: step overhead"},
                                     {8, FALSE, "calibration", NULL},
                                     {0}};
/* InferenceBench: the step overhead is fitted on c = 1, the delivery cost on c = 64 */
static const llm_point llm_h100[] = {
    {1, TRUE, NULL, "calibration: step overhead"}, {4, TRUE, NULL, NULL},
    {16, TRUE, NULL, NULL}, {64, TRUE, NULL, "fitted: 46.91 ms / 64 = 0.733 ms a token"}, {0}};

static const llm_sweep llm_sweeps[] = {
    {"a100", "A100-40GB", 1024, 128, "", llm_a100},
    /* ~45 prompt tokens (InferenceBench's bundled prompts in Llama 3.1's chat template) and
     * 256 output tokens (its client's max_tokens); its Python client takes 0.733 ms to
     * deliver a token, so at most ~1,360 tokens a second leave the server */
    {"h100", "H100-80GB", 45, 256, "llm: {stream_ms_per_token: 0.733}\n", llm_h100},
};

/* Writes the case's files and runs it with its requests file attached. */
static results *llm_run(validate_ctx *c, const char *name, const llm_sweep *w, guint conc,
                        GError **error) {
  g_autofree char *yaml = g_strdup_printf(
      "name: %s\nseed: 1\npools:\n  - {name: p, gpu: %s, nodes: 1, gpus_per_node: 1, "
      "strategy: exclusive}\n%s", name, w->gpu, w->engine);
  g_autofree char *csv = g_strdup_printf(
      "id,submit_s,kind,gpus,mem_gb,duration_s,rate_rps,model,max_batch\n"
      "svc,0,inference,1,0,100000,1,llama-3.1-8b,%u\n", conc);
  GString *req = g_string_new("job_id,at_s,prompt_tokens,output_tokens\n");
  for (guint i = 0; i < 20 * conc; i++)
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
                    const char *use, const char *unit, double predicted) {
  const char *src = NULL;
  g_autofree char *key = g_strdup_printf("llm.%s.c%u.%s", w->key, conc, unit);
  double pub = validate_published(key, &src);
  g_autofree char *cmp = g_strdup_printf("Llama-3.1-8B on %s, %u/%u tokens, c = %u: %s%s%s%s",
                                         w->gpu, w->prompt, w->output, conc, what,
                                         use ? " (" : "", use ? use : "", use ? ")" : "");
  validate_rel(c, key, src, cmp, pub, predicted, 0.15);
}

static gboolean llm_sweep_rows(validate_ctx *c, const llm_sweep *w, GError **error) {
  for (const llm_point *p = w->points; p->conc; p++) {
    g_autofree char *name = g_strdup_printf("llm-%s-c%u", w->key, p->conc);
    results *r = llm_run(c, name, w, p->conc, error);
    if (!r) return FALSE;
    const service_result *s = validate_service(r, "svc");
    /* all requests arrive at 0: the longest end to end is the sweep's duration */
    double tok_s = (double)s->served * w->output / (s->max_ms / 1e3);
    llm_row(c, w, p->conc, "output tokens/s", p->tok_use, "tok_s", tok_s);
    if (p->tpot) llm_row(c, w, p->conc, "median TPOT (ms)", p->tpot_use, "tpot_ms", s->tpot_p50_ms);
    results_free(r);
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
    .summary = "vLLM concurrency sweeps of Llama-3.1-8B (A100 40GB, H100): throughput and TPOT",
    .run = llm_family,
};
