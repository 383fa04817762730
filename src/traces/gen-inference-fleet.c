/* gen-inference-fleet.c: the `inference-fleet` profile: a serving cluster. Services use
 * mixed's model table (sizes, batch, service times, SLOs) with two things recalibrated
 * to production serving traces: the busy share each service offers its GPU (Alibaba
 * GenAI 2026: per-pod mean GPU duty cycle, median 5.8 %) and how long a service instance
 * lives (Alibaba DLRM 2025: GPU instances created and deleted inside the trace, median
 * 4,083 s, p25 971 s, p75 30,583 s). 15 % of the jobs are offline batch (embedding runs).
 * Mix 0 / 0.85 / 0 / 0.15. Derivation: docs/traces.md. */
#include "gen.h"
#include <math.h>

#define IF_U_MEDIAN 0.058     /* offered busy share: GenAI per-pod duty cycle */
#define IF_U_SIGMA 0.5        /* its IQR 5.3-6.3 % is tight; the tails are wider */
#define IF_U_MIN 0.001
#define IF_U_MAX 0.7
#define IF_LIFE_MEDIAN_S 4083.0 /* DLRM GPU instances, creation to deletion */
#define IF_LIFE_SIGMA 3.0       /* from its p25/p75: ln(30583/971) / 1.349 */
#define IF_LIFE_MIN_S 600.0
#define IF_LIFE_MAX_S (14 * 86400.0)

static void fleet_inference_sample(gsl_rng *r, const gen_ctx *ctx, job_spec *j) {
  gen_mixed_models.kind[JOB_INFERENCE]->sample(r, ctx, j);
  double u = gen_lognormal_clamped(r, IF_U_MEDIAN, IF_U_SIGMA, IF_U_MIN, IF_U_MAX);
  double rate = u * 1000.0 / j->service_ms;
  /* 3 significant digits, like mixed (the nearest double to the decimal: no float noise) */
  j->rate_rps = util_round_sig(rate, 3);
  j->duration_ns = gen_whole_seconds(
      gen_lognormal_clamped(r, IF_LIFE_MEDIAN_S, IF_LIFE_SIGMA, IF_LIFE_MIN_S, IF_LIFE_MAX_S));
}

static double fleet_inference_mean(const gen_ctx *ctx) {
  return gen_lognormal_clamped_mean(IF_LIFE_MEDIAN_S, IF_LIFE_SIGMA, IF_LIFE_MIN_S, IF_LIFE_MAX_S);
}

static const gen_kind_model fleet_inference = {
    .sample = fleet_inference_sample, .mean_gpu_s = fleet_inference_mean, .diurnal = 0.3};

static gboolean fleet_generate(const gen_options *o, gen_emit_fn emit, void *ud, GError **error) {
  gen_model_set m = {.mix = {[JOB_INFERENCE] = 0.85, [JOB_BATCH] = 0.15}};
  m.kind[JOB_INFERENCE] = &fleet_inference;
  m.kind[JOB_BATCH] = gen_mixed_models.kind[JOB_BATCH];
  return gen_drive(o, &m, emit, ud, error);
}

const gen_profile gen_profile_inference_fleet = {
    .name = "inference-fleet",
    .description = "a serving cluster: inference services (85 %, lifetimes and load from "
                   "Alibaba DLRM/GenAI traces) and offline batch",
    .generate = fleet_generate,
};
