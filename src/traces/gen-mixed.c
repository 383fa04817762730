/* gen-mixed.c: the `mixed` profile: notebooks, inference services, training gangs and
 * batch jobs on A100-80GB-class GPUs, each kind's distributions calibrated to the
 * published measurements (the parameters and their sources are listed in
 * docs/traces.md, table by table). The four kind models are exported for other profiles.
 * Arrivals, counts, ids and tenants come from the driver in gen.c. */
#include "gen.h"
#include <math.h>
#include <gsl/gsl_randist.h>

/* Rounds to 3 significant digits (rates): keeps rows short without losing meaning. */
static double mixed_round_sig3(double x) {
  return x > 0 ? util_round_sig(x, 3) : x; /* the nearest double to the decimal */
}

/* A Beta(a, b) variate mapped onto [lo, hi], rounded to 0.01. */
static double mixed_beta_in(gsl_rng *r, double a, double b, double lo, double hi) {
  return gen_round_to(lo + (hi - lo) * gsl_ran_beta(r, a, b), 0.01);
}

/* ---- notebooks: sessions of hours, busy a small fraction of the time ---------------- */

#define NB_DUR_MEDIAN_S 7200.0   /* 2 h */
#define NB_DUR_SIGMA 0.8
#define NB_DUR_MIN_S 300.0
#define NB_DUR_MAX_S 86400.0
#define NB_MEM_MEDIAN_GB 8.0
#define NB_MEM_SIGMA 0.8
#define NB_BURST_MEDIAN_S 25.0   /* mean ~30 s */
#define NB_BURST_SIGMA 0.6

static void mixed_notebook_sample(gsl_rng *r, const gen_ctx *ctx, job_spec *j) {
  j->duration_ns = gen_whole_seconds(
      gen_lognormal_clamped(r, NB_DUR_MEDIAN_S, NB_DUR_SIGMA, NB_DUR_MIN_S, NB_DUR_MAX_S));
  j->mem_bytes = gen_gb_to_bytes(
      gen_lognormal_clamped(r, NB_MEM_MEDIAN_GB, NB_MEM_SIGMA, 1.0, GEN_MAX_MEM_GB));
  j->busy = mixed_beta_in(r, 2, 3, 0.05, 0.30); /* mean 0.15, the SPEC default */
  j->burst_ns = gen_whole_seconds(
      gen_lognormal_clamped(r, NB_BURST_MEDIAN_S, NB_BURST_SIGMA, 5.0, 600.0));
  j->sm = mixed_beta_in(r, 2, 2, 0.3, 0.9); /* mean 0.6, the SPEC default */
}

static double mixed_notebook_mean_gpu_s(const gen_ctx *ctx) {
  return gen_lognormal_clamped_mean(NB_DUR_MEDIAN_S, NB_DUR_SIGMA, NB_DUR_MIN_S, NB_DUR_MAX_S);
}

/* ---- inference services: long-lived, one model each ---------------------------------- */

typedef struct mixed_model {
  const char *label;
  double mem_gb;      /* weights plus runtime, fp16 unless named */
  double kv_gb;       /* per concurrent request */
  guint32 max_batch;
  double service_ms;  /* one request alone on a whole A100 */
  double slo_ms;
  double sm;
} mixed_model;

static const mixed_model mixed_models_tab[] = {
    {"embeddings", 1.0, 0.05, 32, 4.1, 25, 0.3},       /* BERT-base class; Tally alone p99 4.1 ms */
    {"resnet50", 1.0, 0.1, 16, 5.0, 50, 0.4},          /* vision classifier */
    {"whisper-large", 4.0, 0.5, 8, 400, 3000, 0.5},    /* 1.55 B params */
    {"llm-4b-fp8", 6.0, 0.3, 32, 800, 4000, 0.5},      /* Qwen3-4B-FP8 class (Pebble) */
    {"llm-7b", 14.0, 1.0, 16, 1980, 6000, 0.6},        /* Llama-2-7B; Tally alone p99 1.98 s */
    {"llm-13b", 26.0, 1.6, 16, 3500, 10000, 0.7},
    {"llm-34b-int8", 36.0, 2.0, 16, 6000, 15000, 0.8},
};
static const double mixed_model_weight[G_N_ELEMENTS(mixed_models_tab)] = {
    0.25, 0.15, 0.10, 0.15, 0.20, 0.10, 0.05,
};

#define INF_DUR_MEDIAN_S 21600.0  /* 6 h */
#define INF_DUR_SIGMA 1.2
#define INF_DUR_MIN_S 1800.0
#define INF_DUR_MAX_S (14 * 86400.0)
#define INF_UTIL_MEDIAN 0.05      /* offered load of one service, in whole-GPU time */
#define INF_UTIL_SIGMA 1.2
#define INF_SERVICE_SIGMA 0.25

static void mixed_inference_sample(gsl_rng *r, const gen_ctx *ctx, job_spec *j) {
  const mixed_model *m =
      &mixed_models_tab[gen_discrete(r, ctx, mixed_model_weight, G_N_ELEMENTS(mixed_model_weight))];
  j->label = m->label;
  j->duration_ns = gen_whole_seconds(
      gen_lognormal_clamped(r, INF_DUR_MEDIAN_S, INF_DUR_SIGMA, INF_DUR_MIN_S, INF_DUR_MAX_S));
  j->mem_bytes = gen_gb_to_bytes(m->mem_gb);
  j->kv_bytes = gen_gb_to_bytes(m->kv_gb);
  j->max_batch = m->max_batch;
  double svc = gen_lognormal_clamped(r, m->service_ms, INF_SERVICE_SIGMA, m->service_ms / 3,
                                     m->service_ms * 3);
  j->service_ms = mixed_round_sig3(svc);
  double util = gen_lognormal_clamped(r, INF_UTIL_MEDIAN, INF_UTIL_SIGMA, 0.001, 0.7);
  j->rate_rps = mixed_round_sig3(util * 1000.0 / j->service_ms);
  j->slo_ms = m->slo_ms;
  j->sm = m->sm;
  j->priority = 1;
}

static double mixed_inference_mean_gpu_s(const gen_ctx *ctx) {
  return gen_lognormal_clamped_mean(INF_DUR_MEDIAN_S, INF_DUR_SIGMA, INF_DUR_MIN_S, INF_DUR_MAX_S);
}

/* ---- training: gangs, heavy-tailed run times ------------------------------------------ */

static const guint32 mixed_gang_size[] = {1, 2, 4, 8, 16, 32, 64, 128};
static const double mixed_gang_weight[G_N_ELEMENTS(mixed_gang_size)] = {
    0.40, 0.15, 0.15, 0.18, 0.06, 0.03, 0.02, 0.01,
};

typedef struct mixed_task {
  const char *label;
  double mem_median_gb;
  double mem_sigma;
} mixed_task;
static const mixed_task mixed_tasks[] = {
    {"llm-finetune", 40, 0.35}, {"llm-pretrain", 60, 0.2}, {"vision", 12, 0.6},
    {"speech", 20, 0.5},        {"recsys", 8, 0.6},
};
static const double mixed_task_weight[G_N_ELEMENTS(mixed_tasks)] = {0.30, 0.10, 0.30, 0.10, 0.20};

static const double mixed_ckpt_s[] = {0, 900, 1800, 3600};
static const double mixed_ckpt_weight[G_N_ELEMENTS(mixed_ckpt_s)] = {0.25, 0.25, 0.35, 0.15};

#define TR_DUR_MEDIAN_S 600.0     /* 10 min */
#define TR_DUR_SIGMA 2.3          /* mean/median exp(sigma^2/2) = 14 before the cap */
#define TR_DUR_MIN_S 30.0
#define TR_DUR_MAX_S (7 * 86400.0)

static gsize mixed_gangs_allowed(const gen_ctx *ctx) {
  return gen_gangs_allowed(ctx, mixed_gang_size, G_N_ELEMENTS(mixed_gang_size));
}

static void mixed_training_sample(gsl_rng *r, const gen_ctx *ctx, job_spec *j) {
  const mixed_task *t =
      &mixed_tasks[gen_discrete(r, ctx, mixed_task_weight, G_N_ELEMENTS(mixed_task_weight))];
  j->label = t->label;
  j->gpus = mixed_gang_size[gen_discrete(r, ctx, mixed_gang_weight, mixed_gangs_allowed(ctx))];
  j->duration_ns = gen_whole_seconds(
      gen_lognormal_clamped(r, TR_DUR_MEDIAN_S, TR_DUR_SIGMA, TR_DUR_MIN_S, TR_DUR_MAX_S));
  j->mem_bytes =
      gen_gb_to_bytes(gen_lognormal_clamped(r, t->mem_median_gb, t->mem_sigma, 2.0,
                                            GEN_MAX_MEM_GB));
  j->sm = mixed_beta_in(r, 2, 2, 0.1, 1.0);
  /* Non-overlapped communication share of a step: 10 % (ResNet-101) to 32 % (VGG-16). */
  double comm = gen_round_to(gsl_ran_flat(r, 0.10, 0.32), 0.01);
  if (j->gpus > 1) j->comm_frac = comm;
  double ck =
      mixed_ckpt_s[gen_discrete(r, ctx, mixed_ckpt_weight, G_N_ELEMENTS(mixed_ckpt_weight))];
  j->checkpoint_ns = (sim_time)ck * SIM_NS_PER_S;
}

static double mixed_training_mean_gpu_s(const gen_ctx *ctx) {
  return gen_mean_gpus(mixed_gang_size, mixed_gang_weight, mixed_gangs_allowed(ctx)) *
         gen_lognormal_clamped_mean(TR_DUR_MEDIAN_S, TR_DUR_SIGMA, TR_DUR_MIN_S, TR_DUR_MAX_S);
}

/* ---- batch: short single-GPU runs (evaluation, embedding, preprocessing) ------------- */

static const guint32 mixed_batch_gpus[] = {1, 2, 4};
static const double mixed_batch_gpus_weight[G_N_ELEMENTS(mixed_batch_gpus)] = {0.85, 0.10, 0.05};
static const char *const mixed_batch_label[] = {"eval", "embeddings-batch", "preprocess"};
static const double mixed_batch_label_weight[G_N_ELEMENTS(mixed_batch_label)] = {0.4, 0.3, 0.3};

#define BT_DUR_MEDIAN_S 120.0     /* 2 min */
#define BT_DUR_SIGMA 2.2          /* mean/median 11 before the cap */
#define BT_DUR_MIN_S 10.0
#define BT_DUR_MAX_S (2 * 86400.0)
#define BT_MEM_MEDIAN_GB 10.0
#define BT_MEM_SIGMA 0.8

static gsize mixed_batch_gpus_allowed(const gen_ctx *ctx) {
  return gen_gangs_allowed(ctx, mixed_batch_gpus, G_N_ELEMENTS(mixed_batch_gpus));
}

static void mixed_batch_sample(gsl_rng *r, const gen_ctx *ctx, job_spec *j) {
  j->label = mixed_batch_label[gen_discrete(r, ctx, mixed_batch_label_weight,
                                            G_N_ELEMENTS(mixed_batch_label_weight))];
  j->gpus = mixed_batch_gpus[gen_discrete(r, ctx, mixed_batch_gpus_weight,
                                          mixed_batch_gpus_allowed(ctx))];
  j->duration_ns = gen_whole_seconds(
      gen_lognormal_clamped(r, BT_DUR_MEDIAN_S, BT_DUR_SIGMA, BT_DUR_MIN_S, BT_DUR_MAX_S));
  j->mem_bytes = gen_gb_to_bytes(
      gen_lognormal_clamped(r, BT_MEM_MEDIAN_GB, BT_MEM_SIGMA, 1.0, GEN_MAX_MEM_GB));
  j->sm = mixed_beta_in(r, 2, 2, 0.1, 1.0);
}

static double mixed_batch_mean_gpu_s(const gen_ctx *ctx) {
  return gen_mean_gpus(mixed_batch_gpus, mixed_batch_gpus_weight,
                       mixed_batch_gpus_allowed(ctx)) *
         gen_lognormal_clamped_mean(BT_DUR_MEDIAN_S, BT_DUR_SIGMA, BT_DUR_MIN_S, BT_DUR_MAX_S);
}

/* ---- the profile ---------------------------------------------------------------------- */

static const gen_kind_model mixed_notebook = {
    .sample = mixed_notebook_sample, .mean_gpu_s = mixed_notebook_mean_gpu_s, .diurnal = 1.0};
static const gen_kind_model mixed_inference = {
    .sample = mixed_inference_sample, .mean_gpu_s = mixed_inference_mean_gpu_s, .diurnal = 0.3};
static const gen_kind_model mixed_training = {
    .sample = mixed_training_sample, .mean_gpu_s = mixed_training_mean_gpu_s, .diurnal = 1.0};
static const gen_kind_model mixed_batch = {
    .sample = mixed_batch_sample, .mean_gpu_s = mixed_batch_mean_gpu_s, .diurnal = 0.6};

const gen_model_set gen_mixed_models = {
    .mix = {[JOB_NOTEBOOK] = 0.3, [JOB_INFERENCE] = 0.1, [JOB_TRAINING] = 0.3, [JOB_BATCH] = 0.3},
    .kind = {[JOB_NOTEBOOK] = &mixed_notebook,
             [JOB_INFERENCE] = &mixed_inference,
             [JOB_TRAINING] = &mixed_training,
             [JOB_BATCH] = &mixed_batch},
};

static gboolean mixed_generate(const gen_options *o, gen_emit_fn emit, void *ud, GError **error) {
  return gen_drive(o, &gen_mixed_models, emit, ud, error);
}

const gen_profile gen_profile_mixed = {
    .name = "mixed",
    .description = "notebooks, inference services, training gangs and batch jobs "
                   "(default mix 0.3/0.1/0.3/0.3), calibrated to published cluster statistics",
    .generate = mixed_generate,
};
