/* test-gen.c: the synthetic trace generator: reproducibility, option checks, and the
 * calibration targets of the mixed profile (docs/traces.md). */
#include <criterion/criterion.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <unistd.h>
#include "gen.h"
#include "testutil.h"
#include "rng.h"

/* What the tests keep of a generated job (strings copied). */
typedef struct tg_job {
  job_kind kind;
  guint32 gpus;
  double submit_s, duration_s, mem_gb, kv_gb, busy, burst_s, comm_frac, rate_rps, service_ms;
  double slo_ms, gpu_util;
  guint32 max_batch;
  char tenant[32];
  char label[32];
} tg_job;

static gboolean tg_collect(const job_spec *j, void *ud) {
  tg_job t = {
      .kind = j->kind,
      .gpus = j->gpus,
      .submit_s = util_ns_to_seconds(j->submit_ns),
      .duration_s = util_ns_to_seconds(j->duration_ns),
      .mem_gb = (double)j->mem_bytes / 1e9,
      .kv_gb = (double)j->kv_bytes / 1e9,
      .busy = j->busy,
      .burst_s = util_ns_to_seconds(j->burst_ns),
      .comm_frac = j->comm_frac,
      .rate_rps = j->rate_rps,
      .service_ms = j->service_ms,
      .slo_ms = j->slo_ms,
      .max_batch = j->max_batch,
      .gpu_util = j->gpu_util,
  };
  g_strlcpy(t.tenant, j->tenant, sizeof t.tenant);
  g_strlcpy(t.label, j->label, sizeof t.label);
  g_array_append_val((GArray *)ud, t);
  return TRUE;
}

static GArray *tg_generate(const gen_options *o) {
  GArray *a = g_array_new(FALSE, FALSE, sizeof(tg_job));
  GError *err = NULL;
  gboolean ok = gen_run(o, tg_collect, a, &err);
  cr_assert(ok, "gen_run failed: %s", err ? err->message : "?");
  return a;
}

static gen_options tg_opts(uint64_t seed, uint64_t jobs) {
  gen_options o;
  gen_options_init(&o);
  o.profile = "mixed";
  o.seed = seed;
  o.jobs = jobs;
  return o;
}

static int tg_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double tg_median(GArray *v) {
  qsort(v->data, v->len, sizeof(double), tg_cmp_double);
  double *d = (double *)v->data;
  return v->len % 2 ? d[v->len / 2] : (d[v->len / 2 - 1] + d[v->len / 2]) / 2;
}

static double tg_mean(GArray *v) {
  double s = 0;
  for (guint i = 0; i < v->len; i++) s += g_array_index(v, double, i);
  return s / v->len;
}

static char *tg_error_of_mix(const char *text) {
  double mix[JOB_KIND_COUNT];
  GError *err = NULL;
  cr_assert_not(gen_parse_mix(text, mix, &err), "mix '%s' should be refused", text);
  cr_assert_not_null(err);
  cr_assert_eq(err->code, SHARESIM_ERROR_INPUT);
  char *m = g_strdup(err->message);
  g_error_free(err);
  return m;
}

static char *tg_error_of_options(const gen_options *o) {
  GError *err = NULL;
  cr_assert_not(gen_options_validate(o, &err));
  cr_assert_eq(err->code, SHARESIM_ERROR_INPUT);
  char *m = g_strdup(err->message);
  g_error_free(err);
  return m;
}

Test(gen, same_seed_gives_identical_bytes) {
  gen_options o = tg_opts(7, 3000);
  GString *a = g_string_new(NULL), *b = g_string_new(NULL);
  cr_assert(gen_to_string(&o, a, NULL));
  cr_assert(gen_to_string(&o, b, NULL));
  cr_assert_gt(a->len, 3000 * 20);
  cr_assert_str_eq(a->str, b->str);
  guint lines = 0;
  for (const char *p = a->str; *p; p++) lines += *p == '\n';
  cr_assert_eq(lines, 3001, "header plus 3000 rows, got %u lines", lines);
  g_string_free(a, TRUE);
  g_string_free(b, TRUE);
}

Test(gen, different_seed_differs) {
  gen_options o1 = tg_opts(7, 500), o2 = tg_opts(8, 500);
  GString *a = g_string_new(NULL), *b = g_string_new(NULL);
  cr_assert(gen_to_string(&o1, a, NULL));
  cr_assert(gen_to_string(&o2, b, NULL));
  cr_assert_str_neq(a->str, b->str);
  g_string_free(a, TRUE);
  g_string_free(b, TRUE);
}

Test(gen, generated_trace_loads_without_errors) {
  gen_options o = tg_opts(11, 2000);
  o.gpus = 64;
  GString *s = g_string_new(NULL);
  cr_assert(gen_to_string(&o, s, NULL));
  char *path = NULL;
  int fd = g_file_open_tmp("sharesim-gen-XXXXXX.csv", &path, NULL);
  cr_assert_geq(fd, 0);
  close(fd);
  cr_assert(g_file_set_contents(path, s->str, (gssize)s->len, NULL));
  diag_list *d = diag_list_new(DIAG_DEFAULT_CAP);
  trace *t = trace_load(path, d);
  g_autofree char *msgs = diag_join(d);
  cr_assert_not_null(t, "trace_load failed: %s", msgs);
  cr_assert_eq(d->count, 0, "problems: %s", msgs);
  cr_assert_eq(trace_n_jobs(t), 2000);
  guint kinds[JOB_KIND_COUNT] = {0};
  sim_time prev = 0;
  for (guint i = 0; i < trace_n_jobs(t); i++) {
    const job_spec *j = tu_row(t, i);
    kinds[j->kind]++;
    cr_assert_geq(j->submit_ns, prev, "submit times sorted");
    prev = j->submit_ns;
    cr_assert_gt(j->mem_bytes, 0);
    cr_assert_leq(j->mem_bytes, (int64_t)80e9, "job %s mem fits an A100-80GB", j->id);
    cr_assert_gt(j->duration_ns, 0);
    if (j->kind == JOB_INFERENCE) {
      cr_assert_gt(j->rate_rps, 0);
      cr_assert_gt(j->service_ms, 0);
    }
  }
  /* every kind the mixed profile makes (all four built-in kinds) */
  guint made = 0;
  for (int k = 0; k < JOB_KIND_COUNT; k++)
    if (gen_mixed_models.mix[k] > 0) {
      made++;
      cr_assert_gt(kinds[k], 50, "kind %s present", job_kind_name((job_kind)k));
    }
  cr_assert_geq(made, 4);
  trace_free(t);
  diag_list_free(d);
  g_unlink(path);
  g_free(path);
  g_string_free(s, TRUE);
}

Test(gen, mix_fractions_hold_over_20k_jobs) {
  gen_options o = tg_opts(3, 20000);
  cr_assert(gen_parse_mix("notebook=0.1, inference=0.2,training=0.3,batch=0.4", o.mix, NULL));
  o.mix_set = TRUE;
  GArray *a = tg_generate(&o);
  cr_assert_eq(a->len, 20000);
  guint n[JOB_KIND_COUNT] = {0};
  for (guint i = 0; i < a->len; i++) n[g_array_index(a, tg_job, i).kind]++;
  const double want[JOB_KIND_COUNT] = {0.1, 0.2, 0.3, 0.4};
  for (int k = 0; k < JOB_KIND_COUNT; k++)
    cr_assert_float_eq(n[k] / 20000.0, want[k], 0.015, "kind %d share %g", k, n[k] / 20000.0);
  g_array_free(a, TRUE);

  /* The default mix of the profile: 0.3 / 0.1 / 0.3 / 0.3. */
  o = tg_opts(4, 20000);
  a = tg_generate(&o);
  memset(n, 0, sizeof n);
  for (guint i = 0; i < a->len; i++) n[g_array_index(a, tg_job, i).kind]++;
  cr_assert_float_eq(n[JOB_INFERENCE] / 20000.0, 0.1, 0.015);
  cr_assert_float_eq(n[JOB_TRAINING] / 20000.0, 0.3, 0.015);
  g_array_free(a, TRUE);
}

Test(gen, mix_leaving_out_a_kind_makes_none) {
  gen_options o = tg_opts(5, 1000);
  cr_assert(gen_parse_mix("training=2,batch=2", o.mix, NULL));
  cr_assert_float_eq(o.mix[JOB_TRAINING], 0.5, 1e-12);
  o.mix_set = TRUE;
  GArray *a = tg_generate(&o);
  guint n[JOB_KIND_COUNT] = {0};
  for (guint i = 0; i < a->len; i++) n[g_array_index(a, tg_job, i).kind]++;
  cr_assert_eq(n[JOB_NOTEBOOK] + n[JOB_INFERENCE], 0);
  cr_assert_eq(n[JOB_TRAINING] + n[JOB_BATCH], 1000);
  g_array_free(a, TRUE);
}

/* [S81]: the median GPU job runs 2-15 min, means 10-32x the medians. */
Test(gen, run_times_match_the_cluster_statistics) {
  gen_options o = tg_opts(21, 20000);
  GArray *a = tg_generate(&o);
  GArray *all = g_array_new(FALSE, FALSE, sizeof(double));
  GArray *per[JOB_KIND_COUNT];
  for (int k = 0; k < JOB_KIND_COUNT; k++) per[k] = g_array_new(FALSE, FALSE, sizeof(double));
  for (guint i = 0; i < a->len; i++) {
    tg_job *j = &g_array_index(a, tg_job, i);
    g_array_append_val(per[j->kind], j->duration_s);
    if (j->kind == JOB_TRAINING || j->kind == JOB_BATCH) g_array_append_val(all, j->duration_s);
  }
  double med = tg_median(all), ratio = tg_mean(all) / med;
  cr_assert(med >= 120 && med <= 900, "median run time %g s outside 2-15 min", med);
  cr_assert(ratio >= 10 && ratio <= 32, "mean/median %g outside 10-32", ratio);
  /* per kind: the configured medians (docs/traces.md) and the exact clamped means */
  cr_assert_float_eq(tg_median(per[JOB_TRAINING]), 600, 600 * 0.15);
  cr_assert_float_eq(tg_median(per[JOB_BATCH]), 120, 120 * 0.15);
  cr_assert_float_eq(tg_median(per[JOB_NOTEBOOK]), 7200, 7200 * 0.1);
  cr_assert_float_eq(tg_median(per[JOB_INFERENCE]), 21600, 21600 * 0.15);
  double tr_mean = gen_lognormal_clamped_mean(600, 2.3, 30, 7 * 86400.0);
  cr_assert_float_eq(tg_mean(per[JOB_TRAINING]), tr_mean, tr_mean * 0.3);
  double nb_mean = gen_lognormal_clamped_mean(7200, 0.8, 300, 86400);
  cr_assert_float_eq(tg_mean(per[JOB_NOTEBOOK]), nb_mean, nb_mean * 0.05);
  for (int k = 0; k < JOB_KIND_COUNT; k++) g_array_free(per[k], TRUE);
  g_array_free(all, TRUE);
  g_array_free(a, TRUE);
}

Test(gen, gangs_are_powers_of_two_capped_by_the_cluster) {
  gen_options o = tg_opts(9, 20000);
  o.gpus = 32;
  GArray *a = tg_generate(&o);
  guint one = 0, tb = 0, big = 0;
  for (guint i = 0; i < a->len; i++) {
    tg_job *j = &g_array_index(a, tg_job, i);
    cr_assert_eq(j->gpus & (j->gpus - 1), 0, "gang %u is a power of two", j->gpus);
    cr_assert_leq(j->gpus, 16, "gang %u at most half of 32 GPUs", j->gpus);
    if (j->kind == JOB_NOTEBOOK || j->kind == JOB_INFERENCE) cr_assert_eq(j->gpus, 1);
    if (j->kind == JOB_TRAINING || j->kind == JOB_BATCH) {
      tb++;
      one += j->gpus == 1;
      big += j->gpus == 16;
    }
    if (j->kind == JOB_TRAINING && j->gpus > 1)
      cr_assert(j->comm_frac >= 0.10 && j->comm_frac <= 0.32, "comm_frac %g", j->comm_frac);
  }
  cr_assert_gt(one, tb / 2, "most GPU jobs use one GPU");
  cr_assert_gt(big, 0, "some 16-GPU gangs");
  g_array_free(a, TRUE);

  o.gpus = 3; /* gangs capped at 1 */
  a = tg_generate(&o);
  for (guint i = 0; i < a->len; i++) cr_assert_eq(g_array_index(a, tg_job, i).gpus, 1);
  g_array_free(a, TRUE);
}

/* NotebookOS [S88]: sessions hold a GPU and use it sporadically. */
Test(gen, notebook_duty_cycle_and_bursts_in_range) {
  gen_options o = tg_opts(13, 20000);
  GArray *a = tg_generate(&o);
  double busy = 0, burst = 0;
  guint n = 0;
  for (guint i = 0; i < a->len; i++) {
    tg_job *j = &g_array_index(a, tg_job, i);
    if (j->kind != JOB_NOTEBOOK) continue;
    cr_assert(j->busy >= 0.05 && j->busy <= 0.30, "busy %g", j->busy);
    cr_assert(j->burst_s >= 5 && j->burst_s <= 600, "burst %g", j->burst_s);
    cr_assert(j->duration_s >= 300 && j->duration_s <= 86400);
    busy += j->busy;
    burst += j->burst_s;
    n++;
  }
  cr_assert_gt(n, 5000);
  cr_assert_float_eq(busy / n, 0.15, 0.01);
  cr_assert_float_eq(burst / n, 30, 3);
  g_array_free(a, TRUE);
}

Test(gen, memory_fits_an_a100_80gb) {
  gen_options o = tg_opts(17, 20000);
  GArray *a = tg_generate(&o);
  guint models = 0;
  for (guint i = 0; i < a->len; i++) {
    tg_job *j = &g_array_index(a, tg_job, i);
    cr_assert(j->mem_gb >= 1 && j->mem_gb <= GEN_MAX_MEM_GB, "mem %g GB", j->mem_gb);
    if (j->kind != JOB_INFERENCE) continue;
    models++;
    cr_assert_leq(j->mem_gb + j->kv_gb * j->max_batch, 80.0, "%s weights + full KV", j->label);
    cr_assert_gt(j->slo_ms, j->service_ms, "%s SLO above its service time", j->label);
    cr_assert_gt(j->rate_rps, 0);
    /* offered utilisation rate x service stays within the drawn range [0.001, 0.7] */
    double util = j->rate_rps * j->service_ms / 1000;
    cr_assert(util > 0.0009 && util < 0.71, "%s utilisation %g", j->label, util);
  }
  cr_assert_gt(models, 1000);
  g_array_free(a, TRUE);
}

Test(gen, load_sizes_the_job_count) {
  gen_options o = tg_opts(23, 0);
  o.gpus = 256;
  o.span_ns = 30 * INT64_C(86400) * SIM_NS_PER_S;
  GArray *a = tg_generate(&o);
  double gpu_s = 0;
  for (guint i = 0; i < a->len; i++) {
    tg_job *j = &g_array_index(a, tg_job, i);
    gpu_s += j->gpus * j->duration_s;
    cr_assert_lt(j->submit_s, 30 * 86400.0);
  }
  double load = gpu_s / (256 * 30 * 86400.0);
  cr_assert_float_eq(load, 0.7, 0.7 * 0.2, "offered load %g", load);
  guint n1 = a->len;
  g_array_free(a, TRUE);

  o.load = 1.4; /* twice the load: twice the jobs */
  uint64_t n2;
  cr_assert(gen_job_count(&o, &gen_mixed_models, &n2, NULL));
  cr_assert_float_eq((double)n2, 2.0 * n1, 2.0);

  o.jobs = 123; /* --jobs overrides */
  a = tg_generate(&o);
  cr_assert_eq(a->len, 123);
  g_array_free(a, TRUE);

  o.jobs = 0; /* far too many jobs */
  o.gpus = GEN_MAX_GPUS;
  o.span_ns = (sim_time)(GEN_MAX_DAYS * 86400) * SIM_NS_PER_S;
  o.load = 100;
  GError *err = NULL;
  cr_assert_not(gen_job_count(&o, &gen_mixed_models, &n2, &err));
  cr_assert(strstr(err->message, "lower --load"), "%s", err->message);
  g_error_free(err);
}

Test(gen, arrivals_follow_the_daily_cycle) {
  gen_options o = tg_opts(29, 20000);
  o.span_ns = 7 * INT64_C(86400) * SIM_NS_PER_S;
  GArray *a = tg_generate(&o);
  guint day = 0, night = 0;
  double prev = 0;
  for (guint i = 0; i < a->len; i++) {
    tg_job *j = &g_array_index(a, tg_job, i);
    cr_assert_geq(j->submit_s, prev);
    prev = j->submit_s;
    if (j->kind != JOB_NOTEBOOK) continue;
    int h = (int)fmod(j->submit_s / 3600, 24);
    if (h >= 14 && h < 18) day++;
    if (h >= 4 && h < 8) night++;
  }
  /* measured cycle: 14-18 h weight 6.68 vs 4-8 h weight 0.88 */
  cr_assert_gt(day, 5 * night, "afternoon %u vs early morning %u", day, night);
  g_array_free(a, TRUE);
  cr_assert_float_eq(gen_cycle_weight(0, 0.0), 1.0, 1e-12);
  /* Wednesday 16:00: hour weight 1.734 x weekday weight 1.274 */
  sim_time wed16 = (2 * 24 + 16) * INT64_C(3600) * SIM_NS_PER_S;
  cr_assert_float_eq(gen_cycle_weight(wed16, 1.0), 1.734 * 1.274, 1e-9);
  cr_assert_float_eq(gen_cycle_weight(wed16, 0.5), 1 + 0.5 * (1.734 * 1.274 - 1), 1e-9);
}

Test(gen, tenants_are_skewed_and_counted) {
  gen_options o = tg_opts(31, 5000);
  o.tenants = 4;
  GArray *a = tg_generate(&o);
  guint first = 0, last = 0;
  for (guint i = 0; i < a->len; i++) {
    const char *t = g_array_index(a, tg_job, i).tenant;
    cr_assert(g_str_has_prefix(t, "team-0") && t[6] >= '1' && t[6] <= '4' && !t[7], "%s", t);
    first += !strcmp(t, "team-01");
    last += !strcmp(t, "team-04");
  }
  /* popularity 1/rank: team-01 gets 12/25 of the jobs, team-04 3/25 */
  cr_assert_float_eq(first / 5000.0, 0.48, 0.03);
  cr_assert_float_eq(last / 5000.0, 0.12, 0.03);
  g_array_free(a, TRUE);
}

Test(gen, clamped_lognormal_mean_is_exact) {
  /* no effective clamp: exp(mu + sigma^2 / 2) */
  cr_assert_float_eq(gen_lognormal_clamped_mean(100, 0.5, 1e-9, 1e12), 100 * exp(0.125), 1e-6);
  /* clamp at the median from above: half the mass sits at hi */
  double m = gen_lognormal_clamped_mean(100, 1.0, 1e-9, 100);
  cr_assert(m < 100 && m > 50, "%g", m);
  /* against a large sample */
  gsl_rng *r = rng_new(1, "test-gen", 0);
  double s = 0;
  for (int i = 0; i < 400000; i++) s += gen_lognormal_clamped(r, 600, 2.3, 30, 7 * 86400.0);
  gsl_rng_free(r);
  double want = gen_lognormal_clamped_mean(600, 2.3, 30, 7 * 86400.0);
  cr_assert_float_eq(s / 400000, want, want * 0.05);
}

Test(gen, option_errors_name_the_option) {
  g_autofree char *m1 = tg_error_of_mix("gpu=0.5");
  g_autofree char *kinds = tu_kind_names(", ");
  g_autofree char *valid = g_strdup_printf("valid kinds: %s", kinds);
  cr_assert(strstr(m1, "unknown kind 'gpu'") && strstr(m1, valid), "%s", m1);
  g_autofree char *m2 = tg_error_of_mix("training=0.5,training=0.5");
  cr_assert(strstr(m2, "'training' is given twice"), "%s", m2);
  g_autofree char *m3 = tg_error_of_mix("batch=-1");
  cr_assert(strstr(m3, "expected a share from 0 to 1e9 for batch, found '-1'"), "%s", m3);
  g_autofree char *m4 = tg_error_of_mix("batch=0,training=0");
  cr_assert(strstr(m4, "at least one share must be above 0"), "%s", m4);
  g_autofree char *m5 = tg_error_of_mix("training");
  cr_assert(strstr(m5, "expected KIND=SHARE"), "%s", m5);
  g_autofree char *m6 = tg_error_of_mix("training=0.5,");
  cr_assert(strstr(m6, "found ''"), "%s", m6);
  g_autofree char *m7 = tg_error_of_mix("batch=nan");
  cr_assert(strstr(m7, "found 'nan'"), "%s", m7);

  gen_options o = tg_opts(1, 10);
  o.profile = NULL;
  g_autofree char *e1 = tg_error_of_options(&o);
  cr_assert(strstr(e1, "--profile is required"), "%s", e1);
  o = tg_opts(1, 10);
  o.gpus = 0;
  g_autofree char *e2 = tg_error_of_options(&o);
  cr_assert(strstr(e2, "--gpus"), "%s", e2);
  o = tg_opts(1, 10);
  o.load = 0;
  g_autofree char *e3 = tg_error_of_options(&o);
  cr_assert(strstr(e3, "--load"), "%s", e3);
  o = tg_opts(1, 10);
  o.tenants = 0;
  g_autofree char *e4 = tg_error_of_options(&o);
  cr_assert(strstr(e4, "--tenants"), "%s", e4);
  o = tg_opts(1, 10);
  o.span_ns = 0;
  g_autofree char *e5 = tg_error_of_options(&o);
  cr_assert(strstr(e5, "--days"), "%s", e5);
  o = tg_opts(1, GEN_MAX_JOBS + 1);
  g_autofree char *e6 = tg_error_of_options(&o);
  cr_assert(strstr(e6, "--jobs"), "%s", e6);

  GError *err = NULL;
  cr_assert_null(gen_find("dev-notebook", &err));
  cr_assert(strstr(err->message, "unknown profile 'dev-notebook'; valid profiles: mixed"), "%s",
            err->message);
  g_clear_error(&err);
  o = tg_opts(1, 10);
  o.profile = "nope";
  GString *s = g_string_new(NULL);
  cr_assert_not(gen_to_string(&o, s, &err));
  cr_assert_eq(err->code, SHARESIM_ERROR_INPUT);
  g_clear_error(&err);
  g_string_free(s, TRUE);
  cr_assert_not_null(gen_find("mixed", NULL));
}

static gboolean tg_stop_after_3(const job_spec *j, void *ud) { return ++*(int *)ud < 3; }

Test(gen, a_failing_sink_stops_with_a_runtime_error) {
  gen_options o = tg_opts(1, 100);
  int seen = 0;
  GError *err = NULL;
  cr_assert_not(gen_run(&o, tg_stop_after_3, &seen, &err));
  cr_assert_eq(seen, 3);
  cr_assert_eq(err->code, SHARESIM_ERROR_RUNTIME);
  g_error_free(err);
}

/* GPU activity by kind (docs/traces.md, step 6): gangs and LLM training in [0.97, 0.99],
 * single-GPU training and batch spread like Lucid's 66 profiles (median 0.48, 10 % below
 * 0.102 and 10 % at or above 0.992), notebooks and services at the trace default 1. */
Test(gen, gpu_util_by_kind) {
  gen_options o = tg_opts(7, 20000);
  o.gpus = 256;
  GArray *a = tg_generate(&o);
  GArray *small = g_array_new(FALSE, FALSE, sizeof(double));
  guint n_gang = 0;
  for (guint i = 0; i < a->len; i++) {
    const tg_job *j = &g_array_index(a, tg_job, i);
    cr_assert(j->gpu_util > 0 && j->gpu_util <= 1.0);
    cr_expect_float_eq(j->gpu_util * 100, round(j->gpu_util * 100), 1e-9);
    if (j->kind == JOB_NOTEBOOK || j->kind == JOB_INFERENCE) {
      cr_expect_eq(j->gpu_util, 1.0);
    } else if (j->kind == JOB_TRAINING && (j->gpus > 1 || !strncmp(j->label, "llm-", 4))) {
      cr_expect(j->gpu_util >= 0.97 - 1e-12 && j->gpu_util <= 0.99 + 1e-12, "%g", j->gpu_util);
      n_gang++;
    } else {
      g_array_append_val(small, j->gpu_util);
    }
  }
  cr_assert(n_gang > 1000 && small->len > 5000, "%u gangs, %u small", n_gang, small->len);
  g_array_sort(small, tg_cmp_double);
  double *v = (double *)small->data;
  double med = v[small->len / 2], p10 = v[small->len / 10], p90 = v[small->len * 9 / 10];
  cr_expect(fabs(med - 0.478) < 0.03, "median %g", med);
  cr_expect(fabs(p10 - 0.102) < 0.02, "p10 %g", p10);
  cr_expect(fabs(p90 - 0.992) < 0.02, "p90 %g", p90);
  g_array_unref(small);
  g_array_unref(a);
}
