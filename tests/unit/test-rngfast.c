/* test-rngfast.c: the request loop's own generator and samplers (rngfast.h) against the
 * reference xoshiro256** outputs and against GSL's exponential and normal distributions
 * (rngcheck.h: KS, chi-square, moments and the ziggurat's tail over 10^6 draws), and the
 * check itself: it must reject a sampler that is 1 % off in scale or that loses the tail. */
#include "testutil.h"
#include "rng.h"
#include "rngfast.h"
#include "rngcheck.h"
#include <gsl/gsl_rng.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_cdf.h>
#include <math.h>

#define N_DRAWS 1000000u
#define GRID_BITS 16u
#define ALPHA 1e-3
#define Z_MAX 4.0

Test(rngfast, xoshiro_matches_the_reference_outputs) {
  /* Blackman & Vigna's xoshiro256starstar.c from the state {1, 2, 3, 4} */
  rngfast r = {.s = {1, 2, 3, 4}};
  cr_assert_eq(rngfast_next(&r), UINT64_C(11520));
  cr_assert_eq(rngfast_next(&r), UINT64_C(0));
  cr_assert_eq(rngfast_next(&r), UINT64_C(1509978240));
  cr_assert_eq(rngfast_next(&r), UINT64_C(1215971899390074240));
}

Test(rngfast, streams_are_stable_and_distinct) {
  rngfast a, b, c, d;
  rngfast_seed(&a, 42, "svc", 7);
  rngfast_seed(&b, 42, "svc", 7);
  rngfast_seed(&c, 42, "svc", 8);
  rngfast_seed(&d, 42, "svd", 7);
  for (int i = 0; i < 1000; i++) {
    double x = rngfast_exp(&a);
    cr_assert_eq(x, rngfast_exp(&b), "draw %d differs between equal seeds", i);
  }
  cr_assert_neq(rngfast_next(&a), rngfast_next(&c));
  cr_assert_neq(rngfast_next(&b), rngfast_next(&d));
  /* uniforms lie in [0, 1) */
  for (int i = 0; i < 100000; i++) {
    double u = rngfast_uniform(&a);
    cr_assert(u >= 0.0 && u < 1.0);
  }
}

Test(rngfast, ziggurat_tables_are_consistent) {
  rngfast r;
  rngfast_seed(&r, 1, "t", 0);
  const rngfast_zig *z = &rngfast_tables;
  /* layer edges decrease with the index above the base, densities increase towards 1 */
  cr_assert_float_eq(z->w[255] * 0x1.0p53, RNGFAST_ZIG_R, 1e-12);
  cr_assert_float_eq(z->f[255], exp(-RNGFAST_ZIG_R), 1e-15);
  for (int i = 2; i < 256; i++) {
    cr_assert_gt(z->w[i], z->w[i - 1], "layer %d", i);
    cr_assert_lt(z->f[i], z->f[i - 1], "layer %d", i);
  }
  /* each layer above the base has area V: x_i (f(x_{i-1}) - f(x_i)) */
  for (int i = 2; i < 256; i++) {
    double x = z->w[i] * 0x1.0p53;
    cr_assert_float_eq(x * (z->f[i - 1] - z->f[i]), RNGFAST_ZIG_V, 1e-9, "layer %d", i);
  }
}

static void check_passes_moments(const rngcheck_result *r, const char *what, double mean,
                                 double var) {
  cr_assert_geq(r->ks_p, ALPHA, "%s: KS D %.3g p %.3g", what, r->ks_d, r->ks_p);
  cr_assert_geq(r->chi2_p, ALPHA, "%s: chi2 %.1f p %.3g", what, r->chi2, r->chi2_p);
  for (int k = 0; k < 4; k++)
    cr_assert_leq(fabs(r->z[k]), Z_MAX, "%s: moment %d z %.2f", what, k + 1, r->z[k]);
  cr_assert_leq(fabs(r->tail_z), Z_MAX, "%s: tail share z %.2f", what, r->tail_z);
  cr_assert_leq(fabs(r->tail_excess_z), Z_MAX, "%s: tail excess z %.2f", what,
                r->tail_excess_z);
  cr_assert(rngcheck_pass(r, ALPHA, Z_MAX));
  cr_assert_float_eq(r->mean, mean, 5.0 * sqrt(var / (double)r->n));
  cr_assert_float_eq(r->var, var, 5.0 * sqrt(8.0 / (double)r->n));
}

static void check_passes(const rngcheck_result *r, const char *what) {
  check_passes_moments(r, what, 1.0, 1.0);
}

/* The sampler's draws (a) and GSL's (b) are one distribution (two-sample KS at ALPHA);
 * frees both and GSL's generator. */
static void same_as_gsl_then_clear(rngcheck_result *a, rngcheck_result *b, gsl_rng *g) {
  double d, p;
  rngcheck_two_sample(a, b, &d, &p);
  cr_assert_geq(p, ALPHA, "two-sample D %.3g p %.3g", d, p);
  rngcheck_clear(a);
  rngcheck_clear(b);
  gsl_rng_free(g);
}

Test(rngfast, exponential_matches_gsl_over_a_million_draws) {
  rngfast f;
  rngfast_seed(&f, 1, "rngfast-test", 0);
  gsl_rng *g = rng_new(1, "rngfast-test", 0);
  rngcheck_result a, b;
  rngcheck_exponential(rngcheck_draw_fast, &f, N_DRAWS, GRID_BITS, &a);
  rngcheck_exponential(rngcheck_draw_gsl, g, N_DRAWS, GRID_BITS, &b);
  check_passes(&a, "ziggurat");
  check_passes(&b, "GSL");
  /* the tail branch ran: about n e^-R draws beyond R */
  cr_assert_gt(a.tail_n, 300);
  same_as_gsl_then_clear(&a, &b, g);
}

static double draw_scaled(void *ud) { return 1.01 * rngfast_exp(ud); }
static double draw_no_tail(void *ud) {
  double x = rngfast_exp(ud);
  return x > RNGFAST_ZIG_R ? RNGFAST_ZIG_R * rngfast_uniform(ud) : x;
}

Test(rngfast, check_rejects_wrong_samplers) {
  rngfast f;
  rngfast_seed(&f, 2, "rngfast-test", 0);
  rngcheck_result r;
  rngcheck_exponential(draw_scaled, &f, N_DRAWS, GRID_BITS, &r);
  cr_assert_not(rngcheck_pass(&r, ALPHA, Z_MAX), "a 1 %% scale error passed");
  cr_assert_gt(fabs(r.z[0]), 8.0);
  cr_assert_lt(r.ks_p, ALPHA);
  rngcheck_clear(&r);
  rngcheck_exponential(draw_no_tail, &f, N_DRAWS, GRID_BITS, &r);
  cr_assert_not(rngcheck_pass(&r, ALPHA, Z_MAX), "a sampler without its tail passed");
  cr_assert_eq(r.tail_n, 0);
  cr_assert_lt(r.tail_z, -Z_MAX);
  rngcheck_clear(&r);
}

Test(rngfast, normal_ziggurat_tables_are_consistent) {
  rngfast r;
  rngfast_seed(&r, 1, "t", 0);
  const rngfast_zig *z = &rngfast_tables_nor;
  double R = RNGFAST_NOR_R, V = RNGFAST_NOR_V;
  cr_assert_float_eq(z->w[255] * 0x1.0p53, R, 1e-12);
  cr_assert_float_eq(z->f[255], exp(-R * R / 2), 1e-15);
  for (int i = 2; i < 256; i++) {
    cr_assert_gt(z->w[i], z->w[i - 1], "layer %d", i);
    cr_assert_lt(z->f[i], z->f[i - 1], "layer %d", i);
  }
  /* every layer has area V, the top one (up to f(0) = 1) included, and the base (the
   * rectangle to R and the tail beyond it, half the normal's density times sqrt(2 pi)) */
  for (int i = 1; i < 256; i++) {
    double x = z->w[i] * 0x1.0p53;
    cr_assert_float_eq(x * (z->f[i - 1] - z->f[i]), V, 1e-6 * V, "layer %d", i);
  }
  double base = R * exp(-R * R / 2) + sqrt(2 * M_PI) * gsl_cdf_ugaussian_Q(R);
  cr_assert_float_eq(base, V, 1e-9, "base layer %.12g", base);
}

Test(rngfast, gaussian_matches_gsl_over_a_million_draws) {
  rngfast f;
  rngfast_seed(&f, 1, "rngfast-test", 1);
  gsl_rng *g = rng_new(1, "rngfast-test", 1);
  rngcheck_result a, b;
  rngcheck_gaussian(rngcheck_draw_fast_gauss, &f, N_DRAWS, GRID_BITS, &a);
  rngcheck_gaussian(rngcheck_draw_gsl_gauss, g, N_DRAWS, GRID_BITS, &b);
  check_passes_moments(&a, "normal ziggurat", 0.0, 1.0);
  check_passes_moments(&b, "GSL gaussian", 0.0, 1.0);
  /* the tail branch ran: about 2 n Q(R) = 258 draws beyond R */
  cr_assert_gt(a.tail_n, 180);
  same_as_gsl_then_clear(&a, &b, g);
}

static double draw_gauss_scaled(void *ud) { return 1.01 * rngfast_gauss(ud); }
static double draw_gauss_no_tail(void *ud) {
  double x = rngfast_gauss(ud);
  return fabs(x) > RNGFAST_NOR_R ? RNGFAST_NOR_R * (2 * rngfast_uniform(ud) - 1) : x;
}

Test(rngfast, check_rejects_wrong_gaussians) {
  rngfast f;
  rngfast_seed(&f, 2, "rngfast-test", 1);
  rngcheck_result r;
  rngcheck_gaussian(draw_gauss_scaled, &f, N_DRAWS, GRID_BITS, &r);
  cr_assert_not(rngcheck_pass(&r, ALPHA, Z_MAX), "a 1 %% scale error passed");
  cr_assert_gt(fabs(r.z[1]), 8.0);
  rngcheck_clear(&r);
  rngcheck_gaussian(draw_gauss_no_tail, &f, N_DRAWS, GRID_BITS, &r);
  cr_assert_not(rngcheck_pass(&r, ALPHA, Z_MAX), "a sampler without its tail passed");
  cr_assert_eq(r.tail_n, 0);
  cr_assert_lt(r.tail_z, -Z_MAX);
  rngcheck_clear(&r);
}

Test(rngfast, kolmogorov_distribution_known_values) {
  /* the 5 % and 1 % critical values of the Kolmogorov distribution */
  cr_assert_float_eq(rngcheck_ks_q(1.3581), 0.05, 2e-4);
  cr_assert_float_eq(rngcheck_ks_q(1.6276), 0.01, 1e-4);
  cr_assert_float_eq(rngcheck_ks_q(0.1), 1.0, 1e-12);
  cr_assert_lt(rngcheck_ks_q(3.0), 1e-7);
}

static int rf_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* KS statistic of n sorted draws against the lognormal(mu, sigma) CDF. */
static double rf_ks_lognormal(double *v, guint n, double mu, double sigma) {
  qsort(v, n, sizeof *v, rf_cmp_double);
  double d = 0;
  for (guint i = 0; i < n; i++) {
    double f = gsl_cdf_lognormal_P(v[i], mu, sigma);
    d = MAX(d, MAX(fabs((i + 1.0) / n - f), fabs(f - (double)i / n)));
  }
  return d;
}

/* xoshiro256** as a GSL generator type: its integers and uniforms are the generator's, and
 * the LLM lengths it drives (exp(mu + GSL's ziggurat gaussian), the Azure prompt fit) pass
 * a KS test against GSL's lognormal CDF over 200,000 draws, as GSL's own lognormal on
 * taus2 does; a wrong sigma is rejected. */
Test(rngfast, gsl_type_drives_gsl_distributions) {
  gsl_rng *g = rngfast_gsl_new(7, "svc", 6);
  rngfast r;
  rngfast_seed(&r, 7, "svc", 6);
  cr_assert_str_eq(gsl_rng_name(g), "xoshiro256**");
  cr_assert_eq(gsl_rng_get(g), (unsigned long)(rngfast_next(&r) >> 32));
  double u = gsl_rng_uniform(g), ur = rngfast_uniform(&r);
  cr_assert(u == ur && u >= 0 && u < 1, "%g %g", u, ur);
  enum { N = 200000 };
  double *v = g_new(double, N), *w = g_new(double, N);
  gsl_rng *t = rng_new(7, "svc", 6);
  for (guint i = 0; i < N; i++) {
    v[i] = exp(6.6333 + gsl_ran_gaussian_ziggurat(g, 0.9852));
    w[i] = gsl_ran_lognormal(t, 6.6333, 0.9852);
  }
  double dv = rf_ks_lognormal(v, N, 6.6333, 0.9852), dw = rf_ks_lognormal(w, N, 6.6333, 0.9852);
  cr_assert_gt(rngcheck_ks_p(dv, N), 0.001, "xoshiro + ziggurat: D %g", dv);
  cr_assert_gt(rngcheck_ks_p(dw, N), 0.001, "taus2 + gsl_ran_lognormal: D %g", dw);
  double dbad = rf_ks_lognormal(v, N, 6.6333, 0.9852 * 1.02);
  cr_assert_lt(rngcheck_ks_p(dbad, N), 0.001, "a 2 %% wrong sigma passed: D %g", dbad);
  g_free(v);
  g_free(w);
  gsl_rng_free(t);
  gsl_rng_free(g);
}

/* The LLM lengths as workload-llm.c draws them, exp(mu + sigma Z) with Z from the normal
 * ziggurat (the Azure prompt and output fits), pass a KS test against GSL's lognormal CDF
 * over 200,000 draws each; a 2 % wrong sigma is rejected. */
Test(rngfast, llm_lengths_from_the_normal_ziggurat_are_lognormal) {
  enum { N = 200000 };
  static const double fit[2][2] = {{6.6333, 0.9852}, {5.0190, 0.8590}};
  double *v = g_new(double, N);
  rngfast r;
  rngfast_seed(&r, 7, "svc", 6);
  for (int k = 0; k < 2; k++) {
    for (guint i = 0; i < N; i++) v[i] = exp(fit[k][0] + fit[k][1] * rngfast_gauss(&r));
    double d = rf_ks_lognormal(v, N, fit[k][0], fit[k][1]);
    cr_assert_gt(rngcheck_ks_p(d, N), 0.001, "fit %d: D %g", k, d);
    double dbad = rf_ks_lognormal(v, N, fit[k][0], fit[k][1] * 1.02);
    cr_assert_lt(rngcheck_ks_p(dbad, N), 0.001, "fit %d: a 2 %% wrong sigma passed: D %g", k,
                 dbad);
  }
  g_free(v);
}

/* rng_init (a job's stream in its own record) is rng_new's stream, draw for draw, through
 * the GSL variates the workloads use; and two keys still give two streams. */
Test(rngfast, rng_init_is_rng_new_in_place) {
  gsl_rng *heap = rng_new(9, "nb-17", 0);
  rng_slot slot, other;
  gsl_rng *in = rng_init(&slot, 9, "nb-17", 0);
  gsl_rng *diff = rng_init(&other, 9, "nb-18", 0);
  cr_assert_eq(in, &slot.r);
  guint same_as_other = 0;
  for (int i = 0; i < 100000; i++) {
    double a = rng_exponential(heap, 3.0), b = rng_exponential(in, 3.0);
    cr_assert(a == b, "draw %d: %.17g from rng_new, %.17g from rng_init", i, a, b);
    same_as_other += rng_exponential(diff, 3.0) == b;
    cr_assert_eq(gsl_rng_get(heap), gsl_rng_get(in));
  }
  cr_assert_lt(same_as_other, 10u);
  gsl_rng_free(heap);
}

/* rng_exponential's inlined taus2 step (rng.h) against gsl_ran_exponential on a twin of
 * the same stream: the same doubles, bit for bit, over 10^7 draws and several means (an
 * off-by-one in a shift, a wrong mask or log instead of log1p fails at the first draws). */
Test(rng, inline_exponential_is_gsl_bit_for_bit) {
  rng_slot a;
  gsl_rng *ra = rng_init(&a, 7, "job-42", 3);
  gsl_rng *rb = rng_new(7, "job-42", 3);
  const double means[] = {1.0, 3.6e12, 0.25, 1e-3};
  for (guint i = 0; i < 10000000u; i++) {
    double mu = means[i & 3];
    double x = rng_exponential(ra, mu), y = gsl_ran_exponential(rb, mu);
    if (memcmp(&x, &y, sizeof x) != 0) cr_assert_fail("draw %u: %a against GSL's %a", i, x, y);
  }
  gsl_rng_free(rb);
}

/* A generator other than taus2 is GSL's own path. */
Test(rng, inline_exponential_other_generators_go_to_gsl) {
  gsl_rng *ra = gsl_rng_alloc(gsl_rng_mt19937), *rb = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(ra, 5);
  gsl_rng_set(rb, 5);
  for (int i = 0; i < 1000; i++)
    cr_assert_eq(rng_exponential(ra, 2.0), gsl_ran_exponential(rb, 2.0));
  gsl_rng_free(ra);
  gsl_rng_free(rb);
}
