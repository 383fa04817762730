/* gen.h: synthetic job traces (`sharesim gen`). A profile is one row of a table
 * {name, description, generate}; each profile lives in its own gen-*.c file. Profiles
 * built from per-kind job models (notebook, inference, training, batch) share one driver
 * here: job counts per kind, daily and weekly arrival cycle, sorted submit times, ids,
 * tenants, load sizing. All variates come from GSL generators made by rng_new(seed,
 * "gen", stream), so the same options give byte-identical traces on any machine.
 * Calibration and sources: docs/traces.md. */
#pragma once
#include <glib.h>
#include <stdint.h>
#include <gsl/gsl_rng.h>
#include "trace.h"

/* Limits checked by gen_options_validate (and named in its messages). */
#define GEN_MAX_GPUS 1000000u
#define GEN_MAX_DAYS 3650.0
#define GEN_MAX_JOBS UINT64_C(100000000)
#define GEN_MAX_TENANTS 10000u
#define GEN_MAX_LOAD 100.0
/* Largest memory per worker any profile writes: the bundled scenarios use A100-80GB. */
#define GEN_MAX_MEM_GB 79.0

typedef struct gen_options {
  const char *profile;          /* borrowed; NULL = none given */
  guint32 gpus;                 /* cluster size the load is sized against; default 16 */
  sim_time span_ns;             /* length of the arrival window (--days); default 2 days */
  uint64_t seed;                /* default 1 */
  double mix[JOB_KIND_COUNT];   /* share of jobs per kind (sums to 1) when mix_set */
  gboolean mix_set;             /* FALSE: the profile's own mix */
  double load;                  /* offered GPU-time / capacity; default 0.7 */
  uint64_t jobs;                /* 0 = sized from load; else exactly this many jobs */
  guint32 tenants;              /* default 6 */
} gen_options;

/* Called once per job, in submit order; the job and its strings are borrowed for the
 * duration of the call. Return FALSE to stop (gen then fails with a runtime error). */
typedef gboolean (*gen_emit_fn)(const job_spec *job, void *ud);

typedef struct gen_profile {
  const char *name;             /* "mixed" */
  const char *description;      /* one line, for `--profile list` */
  gboolean (*generate)(const gen_options *o, gen_emit_fn emit, void *ud, GError **error);
} gen_profile;

/* Sets the defaults listed in gen_options. */
void gen_options_init(gen_options *o);
/* Range checks (SHARESIM_ERROR_INPUT with a message naming the option). */
gboolean gen_options_validate(const gen_options *o, GError **error);

/* Parses "notebook=0.3,inference=0.1,training=0.3,batch=0.3" into mix (normalised to sum
 * 1; kinds left out get 0). Errors name the bad item and list the valid kinds. */
gboolean gen_parse_mix(const char *text, double mix[JOB_KIND_COUNT], GError **error);

/* The profile table, in listing order. */
const gen_profile *const *gen_profiles(guint *n_out);
/* Exact name; NULL with an error listing the valid names if unknown. */
const gen_profile *gen_find(const char *name, GError **error);

/* Validates o, finds o->profile and generates. */
gboolean gen_run(const gen_options *o, gen_emit_fn emit, void *ud, GError **error);
/* gen_run into a string: the trace header and one row per job. */
gboolean gen_to_string(const gen_options *o, GString *out, GError **error);

/* ---- the shared driver for profiles built from per-kind job models ---------------- */

/* What the driver knows when a model fills in a job. */
typedef struct gen_ctx {
  const gen_options *opts;
  guint32 max_gang;             /* largest gang a job may ask for (power of two <= gpus/2, >= 1) */
  GHashTable *tables;           /* weights pointer -> gsl_ran_discrete_t*, see gen_discrete */
} gen_ctx;

/* One job kind's model: fills in a job (kind, submit time, id and tenant are already set,
 * and every other field holds the SPEC default for the kind) drawing only from r; and the
 * expected allocated GPU-seconds of one such job, used to size the arrival rate. */
typedef struct gen_kind_model {
  void (*sample)(gsl_rng *r, const gen_ctx *ctx, job_spec *job);
  double (*mean_gpu_s)(const gen_ctx *ctx);
  double diurnal;               /* 0 = flat arrivals, 1 = the full measured daily/weekly cycle */
} gen_kind_model;

typedef struct gen_model_set {
  double mix[JOB_KIND_COUNT];   /* default share of jobs per kind */
  const gen_kind_model *kind[JOB_KIND_COUNT]; /* NULL for a kind the profile never makes */
} gen_model_set;

/* Job count for the options: o->jobs, or the count whose expected GPU-time is o->load
 * times the capacity of o->gpus over the window. FALSE if that exceeds GEN_MAX_JOBS. */
gboolean gen_job_count(const gen_options *o, const gen_model_set *models, uint64_t *out,
                       GError **error);
/* Generates the trace from per-kind models: multinomial counts per kind, arrivals with
 * the measured daily/weekly cycle, sorted by submit time (ties by kind, then order). */
gboolean gen_drive(const gen_options *o, const gen_model_set *models, gen_emit_fn emit,
                   void *ud, GError **error);

/* ---- variate helpers for models (all on GSL) -------------------------------------- */

/* Lognormal with the given median and log-sd, clamped to [lo, hi]. */
double gen_lognormal_clamped(gsl_rng *r, double median, double sigma, double lo, double hi);
/* Exact mean of that clamped lognormal. */
double gen_lognormal_clamped_mean(double median, double sigma, double lo, double hi);
/* Index in [0, n) drawn with gsl_ran_discrete in proportion to weights[0..n). weights must
 * be a table that outlives the run (a static array): its preprocessed form is cached in
 * ctx by address, so one address must always come with the same n within a run. */
gsize gen_discrete(gsl_rng *r, const gen_ctx *ctx, const double *weights, gsize n);
/* How many of the ascending GPU counts gpus[0..n) are at most the profile's largest gang. */
gsize gen_gangs_allowed(const gen_ctx *ctx, const guint32 *gpus, gsize n);
/* The mean GPU count of gpus[0..n) drawn in proportion to weights[0..n). */
double gen_mean_gpus(const guint32 *gpus, const double *weights, gsize n);
/* Rounds x to a multiple of step (step > 0). */
double gen_round_to(double x, double step);
/* Sizes in GB (10^9 bytes) -> bytes, rounded to 0.1 GB. */
int64_t gen_gb_to_bytes(double gb);
/* Seconds -> ns rounded to whole seconds, at least 1 s. */
sim_time gen_whole_seconds(double s);

/* The relative arrival rate at time t_ns since trace start (Monday 00:00), measured cycle
 * of 9.4-era clusters (docs/traces.md), mean ~1 over a week; strength as in
 * gen_kind_model.diurnal. */
double gen_cycle_weight(sim_time t_ns, double strength);

/* The mixed profile's per-kind models, reusable by other profiles. */
extern const gen_model_set gen_mixed_models;
