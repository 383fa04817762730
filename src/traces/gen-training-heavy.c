/* gen-training-heavy.c: the `training-heavy` profile: a training cluster. Training gangs
 * use mixed's model (sizes, memory, communication, checkpoints) with run times
 * recalibrated to the Microsoft Philly job run times kept with the PAI 2020 trace
 * (83,154 jobs: median 1,186 s, p10 61 s, p90 12,860 s: lognormal median 1,186 s,
 * sigma 2.1, in [30 s, 14 d]); batch jobs and a few notebooks as in mixed.
 * Mix 0.05 / 0 / 0.70 / 0.25. Derivation: docs/traces.md. */
#include "gen.h"

#define TH_DUR_MEDIAN_S 1186.0
#define TH_DUR_SIGMA 2.1
#define TH_DUR_MIN_S 30.0
#define TH_DUR_MAX_S (14 * 86400.0)

static void heavy_training_sample(gsl_rng *r, const gen_ctx *ctx, job_spec *j) {
  gen_mixed_models.kind[JOB_TRAINING]->sample(r, ctx, j);
  j->duration_ns = gen_whole_seconds(
      gen_lognormal_clamped(r, TH_DUR_MEDIAN_S, TH_DUR_SIGMA, TH_DUR_MIN_S, TH_DUR_MAX_S));
}

/* mixed's mean GPU count (its mean GPU-seconds over its mean run time, whose parameters
 * are gen-mixed.c's TR_DUR_*: keep them in step) x our mean run time */
static double heavy_training_mean(const gen_ctx *ctx) {
  double mixed_gpu_s = gen_mixed_models.kind[JOB_TRAINING]->mean_gpu_s(ctx);
  double mixed_dur = gen_lognormal_clamped_mean(600.0, 2.3, 30.0, 7 * 86400.0);
  return mixed_gpu_s / mixed_dur *
         gen_lognormal_clamped_mean(TH_DUR_MEDIAN_S, TH_DUR_SIGMA, TH_DUR_MIN_S, TH_DUR_MAX_S);
}

static const gen_kind_model heavy_training = {
    .sample = heavy_training_sample, .mean_gpu_s = heavy_training_mean, .diurnal = 1.0};

static gboolean heavy_generate(const gen_options *o, gen_emit_fn emit, void *ud, GError **error) {
  gen_model_set m = {.mix = {[JOB_NOTEBOOK] = 0.05, [JOB_TRAINING] = 0.70, [JOB_BATCH] = 0.25}};
  m.kind[JOB_NOTEBOOK] = gen_mixed_models.kind[JOB_NOTEBOOK];
  m.kind[JOB_TRAINING] = &heavy_training;
  m.kind[JOB_BATCH] = gen_mixed_models.kind[JOB_BATCH];
  return gen_drive(o, &m, emit, ud, error);
}

const gen_profile gen_profile_training_heavy = {
    .name = "training-heavy",
    .description = "a training cluster: gangs (70 %, run times from Philly) and batch jobs",
    .generate = heavy_generate,
};
