/* gen-openb-like.c: the `openb-like` profile: pods drawn from the empirical distributions
 * of the Alibaba openb pod list (cluster-trace-gpu-v2023, 6,203 scheduled GPU pods):
 * per qos class (LS -> inference, BE -> batch, as `import alibaba-openb` maps them) its
 * GPU count, its GPU share (gpu_milli) and its run time (deletion - scheduled, as a
 * 101-point quantile table, log-linear between points). Other fields follow the importer's
 * mapping (mem_gb = share x 16 GB, sm = share, inference at 7 % busy with 15 s requests).
 * Tables and derivation: docs/traces.md ("openb-like"). Arrivals come from the driver. */
#include "gen.h"
#include <math.h>

#define OB_MEM_PER_GPU_GB 16.0
#define OB_SERVICE_MS 15000.0
#define OB_LS_BUSY 0.07

/* GPU count per pod (1, 2, 4, 8) and share of one GPU for single-GPU pods (thousandths). */
static const guint32 ob_gpus[] = {1, 2, 4, 8};
static const double ob_inf_gpus_w[] = {3545, 14, 14, 23};
static const double ob_bt_gpus_w[] = {2584, 1, 1, 21};

static const double ob_inf_milli[] = {110, 370, 440, 460, 470, 650, 1000};
static const double ob_inf_milli_w[] = {1, 1, 1, 128, 257, 202, 2955};
static const double ob_bt_milli[] = {50,  110, 140, 160, 220, 230, 270, 290, 320, 330,
                                     350, 370, 440, 470, 480, 550, 590, 650, 810, 1000};
static const double ob_bt_milli_w[] = {7,  17, 1,  70, 60,  94, 4, 1,  288,  7,
                                       5,  45, 1, 198, 19, 71, 62, 16, 1017, 601};

/* Run time quantiles (s) at 0, 1, ..., 100 % of the pods of each class. */
static const double ob_inf_q[101] = {
    13,    36,    44,    48,    51,    55,    59,    62,    66,    71,    75,    81,
    89,    95,    110,   125,   141,   162,   180,   199,   223,   243,   261,   277,
    297,   319,   341,   365,   403,   424,   449,   476,   502,   518,   539,   548,
    565,   580,   599,   628,   660,   689,   718,   756,   780,   815,   844,   875,
    902,   952,   990,   1045,  1081,  1133,  1181,  1216,  1250,  1301,  1353,  1393,
    1451,  1500,  1557,  1640,  1711,  1797,  1868,  1981,  2045,  2108,  2192,  2303,
    2397,  2512,  2665,  2820,  2995,  3164,  3387,  3611,  3699,  3847,  4020,  4096,
    4192,  4408,  4594,  4837,  5395,  5942,  6844,  7597,  8393,  10242, 11844, 13969,
    19071, 27360, 63001, 482437, 12537496};
static const double ob_bt_q[101] = {
    4,     13,    19,    27,    29,    33,    38,    43,    49,    52,    56,    59,
    65,    70,    74,    80,    88,    94,    102,   110,   116,   121,   127,   131,
    135,   142,   146,   148,   152,   155,   160,   164,   169,   175,   181,   189,
    193,   196,   198,   201,   205,   208,   211,   214,   218,   222,   226,   233,
    243,   248,   263,   273,   285,   293,   310,   323,   338,   357,   375,   400,
    434,   471,   521,   563,   631,   733,   786,   818,   915,   933,   940,   954,
    997,   1063,  1126,  1169,  1212,  1317,  1514,  1829,  2112,  2435,  2813,  3240,
    3657,  3937,  4589,  5365,  6430,  7390,  8560,  10093, 11688, 13800, 17579, 21536,
    26265, 38659, 55724, 79884, 1690843};

/* Inverse CDF of a quantile table, log-linear between points. */
static double ob_quantile(const double *q, double u) {
  double pos = u * 100.0;
  int i = (int)floor(pos);
  if (i >= 100) return q[100];
  double f = pos - i;
  return exp(log(q[i]) + f * (log(q[i + 1]) - log(q[i])));
}

/* Mean of that distribution (exact for the log-linear pieces). */
static double ob_quantile_mean(const double *q) {
  double m = 0;
  for (int i = 0; i < 100; i++) {
    double a = q[i], b = q[i + 1];
    m += (a == b ? a : (b - a) / log(b / a)) / 100.0;
  }
  return m;
}

static gsize ob_gpus_allowed(const gen_ctx *ctx) {
  return gen_gangs_allowed(ctx, ob_gpus, G_N_ELEMENTS(ob_gpus));
}

static void ob_fill(gsl_rng *r, const gen_ctx *ctx, job_spec *j, const double *gpus_w,
                    const double *milli, const double *milli_w, gsize n_milli, const double *q) {
  j->gpus = ob_gpus[gen_discrete(r, ctx, gpus_w, ob_gpus_allowed(ctx))];
  j->gpu_frac = j->gpus == 1 ? milli[gen_discrete(r, ctx, milli_w, n_milli)] / 1000.0 : 1.0;
  j->duration_ns = gen_whole_seconds(ob_quantile(q, gsl_rng_uniform(r)));
  j->mem_bytes = (int64_t)llround(j->gpu_frac * OB_MEM_PER_GPU_GB * 1e3) * 1000000;
  j->sm = j->gpu_frac;
}

static void ob_inf_sample(gsl_rng *r, const gen_ctx *ctx, job_spec *j) {
  ob_fill(r, ctx, j, ob_inf_gpus_w, ob_inf_milli, ob_inf_milli_w, G_N_ELEMENTS(ob_inf_milli),
          ob_inf_q);
  j->priority = 1;
  j->service_ms = OB_SERVICE_MS;
  j->rate_rps = OB_LS_BUSY * 1000.0 / OB_SERVICE_MS;
}

static void ob_bt_sample(gsl_rng *r, const gen_ctx *ctx, job_spec *j) {
  ob_fill(r, ctx, j, ob_bt_gpus_w, ob_bt_milli, ob_bt_milli_w, G_N_ELEMENTS(ob_bt_milli),
          ob_bt_q);
}

/* Allocated GPU-seconds of one pod: mean GPU count x mean run time (independent draws). */
static double ob_mean(const gen_ctx *ctx, const double *gpus_w, const double *q) {
  return gen_mean_gpus(ob_gpus, gpus_w, ob_gpus_allowed(ctx)) * ob_quantile_mean(q);
}
static double ob_inf_mean(const gen_ctx *ctx) { return ob_mean(ctx, ob_inf_gpus_w, ob_inf_q); }
static double ob_bt_mean(const gen_ctx *ctx) { return ob_mean(ctx, ob_bt_gpus_w, ob_bt_q); }

static const gen_kind_model ob_inference = {
    .sample = ob_inf_sample, .mean_gpu_s = ob_inf_mean, .diurnal = 0.3};
static const gen_kind_model ob_batch = {
    .sample = ob_bt_sample, .mean_gpu_s = ob_bt_mean, .diurnal = 0.6};

/* 3,596 LS/Guaranteed and 2,607 BE/Burstable scheduled GPU pods. */
static const gen_model_set ob_models = {
    .mix = {[JOB_INFERENCE] = 3596.0 / 6203.0, [JOB_BATCH] = 2607.0 / 6203.0},
    .kind = {[JOB_INFERENCE] = &ob_inference, [JOB_BATCH] = &ob_batch},
};

static gboolean ob_generate(const gen_options *o, gen_emit_fn emit, void *ud, GError **error) {
  return gen_drive(o, &ob_models, emit, ud, error);
}

const gen_profile gen_profile_openb_like = {
    .name = "openb-like",
    .description = "pods with the GPU-share, GPU-count and run-time mix of Alibaba's openb "
                   "pod list (inference = LS, batch = BE)",
    .generate = ob_generate,
};
