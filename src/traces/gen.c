/* gen.c: the generator's profile table, option checks, and the driver shared by profiles
 * built from per-kind job models: job counts per kind, arrivals following the measured
 * daily/weekly cycle, submit-time order, ids and tenants, load sizing. It does not decide
 * what a job of a kind looks like (gen-<profile>.c does) nor how a row is written
 * (trace.c does) nor print anything (cmd-gen.c does). */
#include "gen.h"
#include "rng.h"
#include <math.h>
#include <string.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_cdf.h>

/* The profile table: a new profile is its gen-NAME.c, its name here and one row. */
extern const gen_profile gen_profile_mixed, gen_profile_dev_notebooks,
    gen_profile_inference_fleet, gen_profile_training_heavy, gen_profile_openb_like;
static const gen_profile *const gen_profile_table[] = {
    &gen_profile_mixed,
    &gen_profile_dev_notebooks,
    &gen_profile_inference_fleet,
    &gen_profile_training_heavy,
    &gen_profile_openb_like,
};

/* Relative submission rate of GPU jobs per hour of the day (0 = 00:00-01:00) and per
 * weekday (0 = Monday), each with mean 1: Helios "Venus" cluster, 125,214 GPU jobs in
 * 10-minute bins from 2020-04-01 to 2020-09-28 (Lucid [S74], simulation/data/Venus/
 * cluster_throughput.csv, column submit_gpu_job; derived, see docs/traces.md). */
static const double gen_hour_weight[24] = {
    0.897, 0.658, 0.600, 0.384, 0.268, 0.205, 0.187, 0.224, 0.374, 0.796, 1.295, 1.474,
    1.164, 1.299, 1.559, 1.656, 1.734, 1.733, 1.282, 1.313, 1.345, 1.364, 1.149, 1.038,
};
static const double gen_weekday_weight[7] = {1.022, 1.104, 1.274, 1.201, 0.947, 0.680, 0.771};

#define GEN_NS_PER_HOUR (INT64_C(3600) * SIM_NS_PER_S)
#define GEN_NS_PER_DAY (INT64_C(86400) * SIM_NS_PER_S)


/* ---- GPU activity (gpu_util) by kind, for every profile ------------------------------ */

/* Deciles (0, 10, ..., 100 %) of the solo GPU utilisation of Lucid's 66 single-GPU training
 * profiles (S-Lab-System-Group/Lucid simulation/analyzer/single_data.csv [S74]; median
 * 47.8 %, mean 51.2 %), drawn by linear interpolation between them. */
static const double gen_lucid_util_deciles[11] = {0.056, 0.102, 0.133, 0.312, 0.418, 0.478,
                                                  0.578, 0.733, 0.861, 0.992, 1.0};
/* LLM training and gangs: per-sample GPU_UTIL medians 97 % (Kalos) and 99 % (Seren) [S81];
 * uniform over that band (the spread per job is not published: assumption). */
#define GEN_LLM_UTIL_LO 0.97
#define GEN_LLM_UTIL_HI 0.99

static double gen_deciles(gsl_rng *r, const double *d) {
  double x = gsl_rng_uniform(r) * 10.0;
  int i = MIN((int)floor(x), 9);
  return d[i] + (x - i) * (d[i + 1] - d[i]);
}

/* The share of time a job keeps its GPU busy when alone (docs/traces.md, "GPU activity"):
 * training gangs and LLM training near 1, single-GPU training and batch jobs as Lucid's
 * profiles; notebooks (busy carries the duty cycle) and services (the profiles' offered
 * load is a measured duty cycle) keep the trace default 1. Rounded to 0.01, at least 0.05. */
static void gen_activity(gsl_rng *r, job_spec *j) {
  double u;
  if (j->kind == JOB_TRAINING && (j->gpus > 1 || g_str_has_prefix(j->label, "llm-")))
    u = GEN_LLM_UTIL_LO + (GEN_LLM_UTIL_HI - GEN_LLM_UTIL_LO) * gsl_rng_uniform(r);
  else if (j->kind == JOB_TRAINING || j->kind == JOB_BATCH)
    u = gen_deciles(r, gen_lucid_util_deciles);
  else
    return;
  j->gpu_util = CLAMP(gen_round_to(u, 0.01), 0.05, 1.0);
}

/* ---- options ------------------------------------------------------------------------ */

void gen_options_init(gen_options *o) {
  memset(o, 0, sizeof *o);
  o->profile = NULL;
  o->gpus = 16;
  o->span_ns = 2 * GEN_NS_PER_DAY;
  o->seed = 1;
  o->load = 0.7;
  o->jobs = 0;
  o->tenants = 6;
  o->mix_set = FALSE;
}

static gboolean gen_fail(GError **error, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static gboolean gen_fail(GError **error, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  g_set_error_literal(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT, msg);
  g_free(msg);
  return FALSE;
}

gboolean gen_options_validate(const gen_options *o, GError **error) {
  if (!o->profile || !*o->profile)
    return gen_fail(error, "--profile is required (try --profile list)");
  if (o->gpus < 1 || o->gpus > GEN_MAX_GPUS)
    return gen_fail(error, "--gpus: expected a whole number from 1 to %u, found %u",
                    GEN_MAX_GPUS, o->gpus);
  if (o->span_ns <= 0 || (double)o->span_ns > GEN_MAX_DAYS * (double)GEN_NS_PER_DAY)
    return gen_fail(error, "--days: expected a length above 0 and at most %g days", GEN_MAX_DAYS);
  if (!isfinite(o->load) || o->load <= 0 || o->load > GEN_MAX_LOAD)
    return gen_fail(error, "--load: expected a number above 0 and at most %g, found %g",
                    GEN_MAX_LOAD, o->load);
  if (o->jobs > GEN_MAX_JOBS)
    return gen_fail(error, "--jobs: expected a whole number from 1 to %" G_GUINT64_FORMAT
                    ", found %" G_GUINT64_FORMAT, GEN_MAX_JOBS, o->jobs);
  if (o->tenants < 1 || o->tenants > GEN_MAX_TENANTS)
    return gen_fail(error, "--tenants: expected a whole number from 1 to %u, found %u",
                    GEN_MAX_TENANTS, o->tenants);
  if (o->mix_set) {
    double sum = 0;
    for (int k = 0; k < JOB_KIND_COUNT; k++) {
      if (!isfinite(o->mix[k]) || o->mix[k] < 0)
        return gen_fail(error, "--mix: the share of %s must be a number >= 0",
                        job_kind_name((job_kind)k));
      sum += o->mix[k];
    }
    if (!(sum > 0)) return gen_fail(error, "--mix: at least one share must be above 0");
  }
  return TRUE;
}

static char *gen_kind_list(void) {
  GString *s = g_string_new(NULL);
  for (int k = 0; k < JOB_KIND_COUNT; k++)
    g_string_append_printf(s, "%s%s", k ? ", " : "", job_kind_name((job_kind)k));
  return g_string_free(s, FALSE);
}

gboolean gen_parse_mix(const char *text, double mix[JOB_KIND_COUNT], GError **error) {
  double out[JOB_KIND_COUNT] = {0};
  gboolean seen[JOB_KIND_COUNT] = {FALSE};
  g_auto(GStrv) items = g_strsplit(text ? text : "", ",", -1);
  for (char **it = items; *it; it++) {
    g_autofree char *item = g_strstrip(g_strdup(*it));
    const char *eq = strchr(item, '=');
    if (!eq) {
      g_autofree char *kinds = gen_kind_list();
      return gen_fail(error, "--mix: expected KIND=SHARE (KIND one of %s), found '%s'", kinds,
                      item);
    }
    g_autofree char *name = g_strstrip(g_strndup(item, (gsize)(eq - item)));
    g_autofree char *value = g_strstrip(g_strdup(eq + 1));
    job_kind k;
    if (!job_kind_parse(name, &k)) {
      g_autofree char *kinds = gen_kind_list();
      return gen_fail(error, "--mix: unknown kind '%s' in '%s'; valid kinds: %s", name, item,
                      kinds);
    }
    if (seen[k]) return gen_fail(error, "--mix: '%s' is given twice", name);
    double v;
    if (!util_parse_double(value, &v) || !(v >= 0) || v > 1e9)
      return gen_fail(error, "--mix: expected a share from 0 to 1e9 for %s, found '%s'", name,
                      value);
    seen[k] = TRUE;
    out[k] = v;
  }
  double sum = 0;
  for (int k = 0; k < JOB_KIND_COUNT; k++) sum += out[k];
  if (!(sum > 0))
    return gen_fail(error, "--mix: at least one share must be above 0, found '%s'",
                    text ? text : "");
  for (int k = 0; k < JOB_KIND_COUNT; k++) mix[k] = out[k] / sum;
  return TRUE;
}

/* ---- profile table ------------------------------------------------------------------ */

const gen_profile *const *gen_profiles(guint *n_out) {
  *n_out = G_N_ELEMENTS(gen_profile_table);
  return gen_profile_table;
}

const gen_profile *gen_find(const char *name, GError **error) {
  for (guint i = 0; i < G_N_ELEMENTS(gen_profile_table); i++)
    if (name && !strcmp(gen_profile_table[i]->name, name)) return gen_profile_table[i];
  GString *valid = g_string_new(NULL);
  for (guint i = 0; i < G_N_ELEMENTS(gen_profile_table); i++)
    g_string_append_printf(valid, "%s%s", i ? ", " : "", gen_profile_table[i]->name);
  gen_fail(error, "--profile: unknown profile '%s'; valid profiles: %s", name ? name : "",
           valid->str);
  g_string_free(valid, TRUE);
  return NULL;
}

gboolean gen_run(const gen_options *o, gen_emit_fn emit, void *ud, GError **error) {
  if (!gen_options_validate(o, error)) return FALSE;
  const gen_profile *p = gen_find(o->profile, error);
  if (!p) return FALSE;
  return p->generate(o, emit, ud, error);
}

static gboolean gen_emit_to_string(const job_spec *job, void *ud) {
  trace_write_row(ud, job);
  return TRUE;
}

gboolean gen_to_string(const gen_options *o, GString *out, GError **error) {
  trace_write_header(out);
  return gen_run(o, gen_emit_to_string, out, error);
}

/* ---- variate helpers ---------------------------------------------------------------- */

double gen_lognormal_clamped(gsl_rng *r, double median, double sigma, double lo, double hi) {
  double x = gsl_ran_lognormal(r, log(median), sigma);
  if (!(x >= lo)) x = lo;
  if (x > hi) x = hi;
  return x;
}

double gen_lognormal_clamped_mean(double median, double sigma, double lo, double hi) {
  double mu = log(median);
  double za = (log(lo) - mu) / sigma, zb = (log(hi) - mu) / sigma;
  double m = exp(mu + sigma * sigma / 2);
  return lo * gsl_cdf_ugaussian_P(za) +
         m * (gsl_cdf_ugaussian_P(zb - sigma) - gsl_cdf_ugaussian_P(za - sigma)) +
         hi * gsl_cdf_ugaussian_Q(zb);
}

gsize gen_discrete(gsl_rng *r, const gen_ctx *ctx, const double *weights, gsize n) {
  g_assert(ctx->tables && n >= 1);
  gsl_ran_discrete_t *t = g_hash_table_lookup(ctx->tables, weights);
  if (!t) {
    t = gsl_ran_discrete_preproc(n, weights);
    g_hash_table_insert(ctx->tables, (gpointer)weights, t);
  }
  g_assert(t->K == n);
  return gsl_ran_discrete(r, t);
}

gsize gen_gangs_allowed(const gen_ctx *ctx, const guint32 *gpus, gsize n) {
  gsize k = 0;
  while (k < n && gpus[k] <= ctx->max_gang) k++;
  return k;
}

double gen_mean_gpus(const guint32 *gpus, const double *weights, gsize n) {
  double w = 0, wg = 0;
  for (gsize i = 0; i < n; i++) {
    w += weights[i];
    wg += weights[i] * gpus[i];
  }
  return wg / w;
}

static void gen_discrete_free(gpointer p) { gsl_ran_discrete_free(p); }

double gen_round_to(double x, double step) {
  /* For steps like 0.01, divide by the integer 1/step: k / 100.0 is the double nearest to
   * the decimal k/100, so it prints back short ("0.29", not "0.29000000000000004"). */
  double inv = round(1.0 / step);
  if (inv >= 1 && fabs(inv * step - 1.0) < 1e-12) return round(x * inv) / inv;
  return round(x / step) * step;
}

int64_t gen_gb_to_bytes(double gb) {
  return (int64_t)llround(gen_round_to(gb, 0.1) * 10) * (UTIL_GB_BYTES / 10);
}

sim_time gen_whole_seconds(double s) {
  double r = round(s);
  if (r < 1) r = 1;
  return (sim_time)r * SIM_NS_PER_S;
}

double gen_cycle_weight(sim_time t_ns, double strength) {
  if (t_ns < 0) t_ns = 0;
  int64_t hour = (t_ns / GEN_NS_PER_HOUR) % 24;
  int64_t day = (t_ns / GEN_NS_PER_DAY) % 7;
  double w = gen_hour_weight[hour] * gen_weekday_weight[day];
  return 1.0 + strength * (w - 1.0);
}

/* ---- the driver --------------------------------------------------------------------- */

typedef struct gen_arrival {
  sim_time t_ns;
  guint32 seq;   /* order of generation within its kind: tie-break only */
  guint8 kind;
} gen_arrival;

static int gen_arrival_cmp(const void *a, const void *b) {
  const gen_arrival *x = a, *y = b;
  if (x->t_ns != y->t_ns) return x->t_ns < y->t_ns ? -1 : 1;
  if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static guint32 gen_max_gang(guint32 gpus) {
  guint32 g = 1;
  while (g * 2 <= gpus / 2 && g < (1u << 30)) g *= 2;
  return g;
}

static void gen_effective_mix(const gen_options *o, const gen_model_set *models,
                              double mix[JOB_KIND_COUNT]) {
  for (int k = 0; k < JOB_KIND_COUNT; k++) mix[k] = o->mix_set ? o->mix[k] : models->mix[k];
}

gboolean gen_job_count(const gen_options *o, const gen_model_set *models, uint64_t *out,
                       GError **error) {
  if (o->jobs > 0) {
    *out = o->jobs;
    return TRUE;
  }
  gen_ctx ctx = {.opts = o, .max_gang = gen_max_gang(o->gpus), .tables = NULL};
  double mix[JOB_KIND_COUNT], sum = 0, per_job_gpu_s = 0;
  gen_effective_mix(o, models, mix);
  for (int k = 0; k < JOB_KIND_COUNT; k++) {
    if (mix[k] <= 0 || !models->kind[k]) continue;
    sum += mix[k];
    per_job_gpu_s += mix[k] * models->kind[k]->mean_gpu_s(&ctx);
  }
  g_assert(sum > 0 && per_job_gpu_s > 0);
  per_job_gpu_s /= sum;
  double capacity_gpu_s = (double)o->gpus * util_ns_to_seconds(o->span_ns);
  double n = round(o->load * capacity_gpu_s / per_job_gpu_s);
  if (n < 1) n = 1;
  if (n > (double)GEN_MAX_JOBS)
    return gen_fail(error, "--load %g on %u GPUs over %g days needs about %.0f jobs, more than "
                    "the %" G_GUINT64_FORMAT " allowed; lower --load, --gpus or --days",
                    o->load, o->gpus, util_ns_to_seconds(o->span_ns) / 86400.0, n, GEN_MAX_JOBS);
  *out = (uint64_t)n;
  return TRUE;
}

/* Draws n arrival times in [0, span) for one kind: an hour slot by its cycle weight
 * (gsl_ran_discrete), then a uniform point inside the slot; rounded to milliseconds. */
static void gen_arrivals(gsl_rng *r, sim_time span_ns, double strength, guint8 kind,
                         guint32 n, gen_arrival *out) {
  gsize slots = (gsize)((span_ns + GEN_NS_PER_HOUR - 1) / GEN_NS_PER_HOUR);
  double *w = g_new(double, slots);
  for (gsize s = 0; s < slots; s++) {
    sim_time start = (sim_time)s * GEN_NS_PER_HOUR;
    sim_time len = MIN(GEN_NS_PER_HOUR, span_ns - start);
    w[s] = gen_cycle_weight(start, strength) * ((double)len / (double)GEN_NS_PER_HOUR);
  }
  gsl_ran_discrete_t *table = gsl_ran_discrete_preproc(slots, w);
  for (guint32 i = 0; i < n; i++) {
    gsize s = gsl_ran_discrete(r, table);
    sim_time start = (sim_time)s * GEN_NS_PER_HOUR;
    sim_time len = MIN(GEN_NS_PER_HOUR, span_ns - start);
    double t_ms = floor(gsl_rng_uniform(r) * (double)len / (double)SIM_NS_PER_MS);
    sim_time t = start + (sim_time)t_ms * SIM_NS_PER_MS;
    if (t >= span_ns) t = span_ns - 1; /* only when span is below a millisecond */
    out[i] = (gen_arrival){.t_ns = t, .seq = i, .kind = kind};
  }
  gsl_ran_discrete_free(table);
  g_free(w);
}

gboolean gen_drive(const gen_options *o, const gen_model_set *models, gen_emit_fn emit,
                   void *ud, GError **error) {
  double mix[JOB_KIND_COUNT];
  gen_effective_mix(o, models, mix);
  for (int k = 0; k < JOB_KIND_COUNT; k++)
    if (mix[k] > 0 && !models->kind[k])
      return gen_fail(error, "--mix: profile '%s' makes no %s jobs", o->profile,
                      job_kind_name((job_kind)k));
  uint64_t n_jobs;
  if (!gen_job_count(o, models, &n_jobs, error)) return FALSE;

  /* Counts per kind: one multinomial draw (stream 0). */
  unsigned int counts[JOB_KIND_COUNT] = {0};
  {
    gsl_rng *r = rng_new(o->seed, "gen", 0);
    gsl_ran_multinomial(r, JOB_KIND_COUNT, (unsigned int)n_jobs, mix, counts);
    gsl_rng_free(r);
  }

  /* Arrivals per kind (stream 1 + kind), then one sort. */
  gen_arrival *arr = g_new(gen_arrival, n_jobs ? n_jobs : 1);
  gsize filled = 0;
  for (int k = 0; k < JOB_KIND_COUNT; k++) {
    if (!counts[k]) continue;
    gsl_rng *r = rng_new(o->seed, "gen", 1 + (uint64_t)k);
    gen_arrivals(r, o->span_ns, models->kind[k]->diurnal, (guint8)k, counts[k], arr + filled);
    filled += counts[k];
    gsl_rng_free(r);
  }
  g_assert(filled == n_jobs);
  qsort(arr, filled, sizeof *arr, gen_arrival_cmp);

  /* Tenants: Zipf-like popularity 1/rank (gsl_ran_discrete), names team-01... */
  guint n_ten = o->tenants;
  char **tenant = g_new0(char *, n_ten + 1);
  double *tw = g_new(double, n_ten);
  int width = n_ten >= 100 ? (int)floor(log10((double)n_ten)) + 1 : 2;
  for (guint i = 0; i < n_ten; i++) {
    tenant[i] = g_strdup_printf("team-%0*u", width, i + 1);
    tw[i] = 1.0 / (double)(i + 1);
  }
  gsl_ran_discrete_t *tenant_table = gsl_ran_discrete_preproc(n_ten, tw);

  gsl_rng *attr[JOB_KIND_COUNT] = {NULL}, *trng[JOB_KIND_COUNT] = {NULL};
  gsl_rng *act[JOB_KIND_COUNT] = {NULL};
  for (int k = 0; k < JOB_KIND_COUNT; k++) {
    if (!counts[k]) continue;
    attr[k] = rng_new(o->seed, "gen", 11 + (uint64_t)k);
    trng[k] = rng_new(o->seed, "gen", 21 + (uint64_t)k);
    /* its own stream: drawing the activity moves no other attribute */
    act[k] = rng_new(o->seed, "gen", 31 + (uint64_t)k);
  }
  gen_ctx ctx = {.opts = o,
                 .max_gang = gen_max_gang(o->gpus),
                 .tables = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
                                                 gen_discrete_free)};
  int id_width = 6;
  for (uint64_t x = n_jobs; x >= 1000000; x /= 10) id_width++;

  gboolean ok = TRUE;
  char id[48];
  for (gsize i = 0; i < filled && ok; i++) {
    job_kind k = (job_kind)arr[i].kind;
    job_spec j;
    job_init(&j, k); /* SPEC 3.1 defaults; the model overwrites what it draws */
    g_snprintf(id, sizeof id, "%s-%0*" G_GSIZE_FORMAT, job_kind_id_prefix(k), id_width, i + 1);
    j.id = id;
    j.submit_ns = arr[i].t_ns;
    j.tenant = tenant[gsl_ran_discrete(trng[k], tenant_table)];
    models->kind[k]->sample(attr[k], &ctx, &j);
    gen_activity(act[k], &j);
    g_assert(j.gpus >= 1 && j.gpus <= ctx.max_gang);
    g_assert(j.mem_bytes > 0 && (double)j.mem_bytes <= GEN_MAX_MEM_GB * 1e9);
    if (!emit(&j, ud)) {
      g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME,
                  "could not write the trace (at job %s)", id);
      ok = FALSE;
    }
  }

  for (int k = 0; k < JOB_KIND_COUNT; k++) {
    if (attr[k]) gsl_rng_free(attr[k]);
    if (trng[k]) gsl_rng_free(trng[k]);
    if (act[k]) gsl_rng_free(act[k]);
  }
  g_hash_table_destroy(ctx.tables);
  gsl_ran_discrete_free(tenant_table);
  g_free(tw);
  g_strfreev(tenant);
  g_free(arr);
  return ok;
}
