/* gen-dev-notebooks.c: the `dev-notebooks` profile: a development cluster where most jobs
 * are interactive notebook sessions (mixed's notebook model: hours-long sessions busy
 * 5-30 % of the time), with some short evaluation batch jobs and a few small inference
 * endpoints people stand up while they work. Mix 0.80 / 0.05 / 0 / 0.15; the kind models
 * are the `mixed` ones (calibration and sources: docs/traces.md). */
#include "gen.h"

static gboolean dev_generate(const gen_options *o, gen_emit_fn emit, void *ud, GError **error) {
  gen_model_set m = {.mix = {[JOB_NOTEBOOK] = 0.80, [JOB_INFERENCE] = 0.05, [JOB_BATCH] = 0.15}};
  m.kind[JOB_NOTEBOOK] = gen_mixed_models.kind[JOB_NOTEBOOK];
  m.kind[JOB_INFERENCE] = gen_mixed_models.kind[JOB_INFERENCE];
  m.kind[JOB_BATCH] = gen_mixed_models.kind[JOB_BATCH];
  return gen_drive(o, &m, emit, ud, error);
}

const gen_profile gen_profile_dev_notebooks = {
    .name = "dev-notebooks",
    .description = "a development cluster: notebook sessions (80 %), evaluation batch jobs, "
                   "a few small endpoints",
    .generate = dev_generate,
};
