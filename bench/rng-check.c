/* rng-check.c: the benchmark-sized check of the request loop's exponential and normal
 * samplers (rngfast.h) against GSL's (rngcheck.h): KS, chi-square, moments and tail over
 * 10^8 draws of each (default), a two-sample KS between them, and the cost of a draw.
 * Usage: build/bench/rng-check [DRAWS [SEED]]; exit 1 when the fast sampler fails. */
#include "rng.h"
#include "rngcheck.h"
#include "rngfast.h"
#include <gsl/gsl_randist.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define RNG_CHECK_GRID_BITS 22u
#define RNG_CHECK_ALPHA 1e-3
#define RNG_CHECK_Z 4.0

static volatile double rng_check_sink; /* keeps the timed loops' sums alive */

static double rng_check_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* CPU nanoseconds per draw in a bare summing loop. */
static double rng_check_cost(rngcheck_draw_fn draw, void *ud, guint64 n) {
  double t0 = rng_check_now(), s = 0;
  for (guint64 i = 0; i < n; i++) s += draw(ud);
  rng_check_sink += s;
  return (rng_check_now() - t0) / (double)n * 1e9;
}

static double rng_check_cost_fast(rngfast *f, guint64 n, gboolean gauss) {
  double t0 = rng_check_now(), s = 0;
  if (gauss)
    for (guint64 i = 0; i < n; i++) s += rngfast_gauss(f);
  else
    for (guint64 i = 0; i < n; i++) s += rngfast_exp(f);
  rng_check_sink += s;
  return (rng_check_now() - t0) / (double)n * 1e9;
}

static void rng_check_row(const char *name, const rngcheck_result *r, double ns) {
  printf("%-10s %11llu %9.6f %9.6f %6.2f %6.2f %6.2f %6.2f %10.3g %7.3f %8.1f %7.3f "
         "%7llu %6.2f %6.2f %7.2f\n",
         name, (unsigned long long)r->n, r->mean, r->var, r->z[0], r->z[1], r->z[2], r->z[3],
         r->ks_d, r->ks_p, r->chi2, r->chi2_p, (unsigned long long)r->tail_n, r->tail_z,
         r->tail_excess_z, ns);
}

typedef void (*rng_check_fn)(rngcheck_draw_fn, void *, guint64, guint, rngcheck_result *);

/* One family: the fast sampler and GSL's, n draws each on the grid, a two-sample KS, the
 * cost of a draw; prints the block and returns whether the fast one passes. */
static gboolean rng_check_family(const char *title, rng_check_fn check, gboolean gauss,
                                 rngcheck_draw_fn gsl_draw, double r_tail, guint64 n,
                                 guint64 seed) {
  rngfast f;
  rngfast_seed(&f, seed, "rng-check", gauss ? 1 : 0);
  gsl_rng *g = rng_new(seed, "rng-check", gauss ? 1 : 0);
  rngcheck_result a, b;
  check(gauss ? rngcheck_draw_fast_gauss : rngcheck_draw_fast, &f, n, RNG_CHECK_GRID_BITS, &a);
  check(gsl_draw, g, n, RNG_CHECK_GRID_BITS, &b);
  guint64 m = MIN(n, 100000000u);
  double ns_fast = rng_check_cost_fast(&f, m, gauss);
  double ns_gsl = rng_check_cost(gsl_draw, g, m);
  double d2, p2;
  rngcheck_two_sample(&a, &b, &d2, &p2);
  printf("%s samplers, seed %llu, KS on a grid of 2^%u CDF bins, chi-square on %u cells, "
         "tail beyond R = %.4f\n",
         title, (unsigned long long)seed, RNG_CHECK_GRID_BITS, RNGCHECK_CELLS, r_tail);
  printf("%-10s %11s %9s %9s %6s %6s %6s %6s %10s %7s %8s %7s %7s %6s %6s %7s\n", "sampler",
         "draws", "mean", "var", "z(m1)", "z(m2)", "z(m3)", "z(m4)", "KS D", "KS p", "chi2",
         "chi2 p", "tail", "z(n)", "z(exc)", "ns/draw");
  rng_check_row("ziggurat", &a, ns_fast);
  rng_check_row("gsl", &b, ns_gsl);
  printf("two-sample KS ziggurat vs gsl: D %.3g, p %.3f\n", d2, p2);
  gboolean ok = rngcheck_pass(&a, RNG_CHECK_ALPHA, RNG_CHECK_Z) && p2 >= RNG_CHECK_ALPHA;
  rngcheck_clear(&a);
  rngcheck_clear(&b);
  gsl_rng_free(g);
  return ok;
}

int main(int argc, char **argv) {
  guint64 n = argc > 1 ? g_ascii_strtoull(argv[1], NULL, 10) : 100000000u;
  guint64 seed = argc > 2 ? g_ascii_strtoull(argv[2], NULL, 10) : 1;
  if (n < 1000 || n >= G_MAXUINT32) {
    fprintf(stderr, "rng-check: DRAWS must be between 1000 and 4294967294\n");
    return 2;
  }
  gboolean ok = rng_check_family("exponential(1)", rngcheck_exponential, FALSE,
                                 rngcheck_draw_gsl, RNGFAST_ZIG_R, n, seed);
  printf("\n");
  ok &= rng_check_family("normal(0, 1) (GSL: gsl_ran_gaussian_ziggurat on taus2)",
                         rngcheck_gaussian, TRUE, rngcheck_draw_gsl_gauss, RNGFAST_NOR_R, n,
                         seed);
  printf("verdict: %s (every p >= %g, every |z| <= %g)\n", ok ? "pass" : "FAIL",
         RNG_CHECK_ALPHA, RNG_CHECK_Z);
  return ok ? 0 : 1;
}
