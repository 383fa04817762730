/* rngcheck.c: the KS, chi-square, moment and tail checks of rngcheck.h. The references are
 * GSL's exponential and standard normal CDFs (gsl_cdf_exponential_P, gsl_cdf_ugaussian_P);
 * draws are binned on a grid of the CDF so that 10^8 draws need 2^grid_bits counters, not
 * the sample. It judges a sampler; it does not sample for the simulation. */
#include "rngcheck.h"
#include "rngfast.h"
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>

double rngcheck_draw_fast(void *ud) { return rngfast_exp(ud); }
double rngcheck_draw_gsl(void *ud) { return gsl_ran_exponential(ud, 1.0); }
double rngcheck_draw_fast_gauss(void *ud) { return rngfast_gauss(ud); }
double rngcheck_draw_gsl_gauss(void *ud) { return gsl_ran_gaussian_ziggurat(ud, 1.0); }

/* What a distribution is checked against: its CDF, raw moments E[X^k] and E[X^2k]
 * (k = 1..4, for the standard errors), and the tail beyond r (of |X| when two-sided): its
 * share and the mean and sd of the excess over r. */
typedef struct rngcheck_ref {
  double (*cdf)(double x);
  double mk[4], m2k[4];
  double r, tail_p, exc_mean, exc_sd;
  gboolean two_sided;
} rngcheck_ref;

static double rngcheck_cdf_exp(double x) { return gsl_cdf_exponential_P(x, 1.0); }

double rngcheck_ks_q(double lambda) {
  if (!(lambda > 0.18)) return 1.0; /* the series is 1 to double precision below 0.18 */
  double a2 = -2.0 * lambda * lambda, sum = 0, fac = 2.0, prev = 0;
  for (int k = 1; k <= 100; k++) {
    double term = fac * exp(a2 * k * k);
    sum += term;
    if (fabs(term) <= 1e-3 * prev || fabs(term) <= 1e-10 * sum) return CLAMP(sum, 0.0, 1.0);
    fac = -fac;
    prev = fabs(term);
  }
  return 1.0;
}

double rngcheck_ks_p(double d, double n_eff) {
  double sn = sqrt(n_eff);
  return rngcheck_ks_q((sn + 0.12 + 0.11 / sn) * d);
}

/* Largest |F_n(edge) - edge| over the grid's edges. */
static double rngcheck_grid_d(const rngcheck_result *r) {
  guint32 bins = 1u << r->grid_bits;
  guint64 cum = 0;
  double d = 0;
  for (guint32 k = 0; k < bins; k++) {
    cum += r->grid[k];
    double diff = fabs((double)cum / (double)r->n - (double)(k + 1) / (double)bins);
    if (diff > d) d = diff;
  }
  return d;
}

static void rngcheck_chi2(rngcheck_result *r) {
  guint32 per = (1u << r->grid_bits) / RNGCHECK_CELLS;
  double expect = (double)r->n / RNGCHECK_CELLS, chi2 = 0;
  for (guint32 c = 0; c < RNGCHECK_CELLS; c++) {
    guint64 count = 0;
    for (guint32 k = c * per; k < (c + 1) * per; k++) count += r->grid[k];
    double dev = (double)count - expect;
    chi2 += dev * dev / expect;
  }
  r->chi2 = chi2;
  r->chi2_p = gsl_cdf_chisq_Q(chi2, RNGCHECK_CELLS - 1.0);
}

/* Moments and tail from the running sums. */
static void rngcheck_moments(rngcheck_result *r, const rngcheck_ref *ref, const long double *m,
                             long double tail_sum) {
  double n = (double)r->n;
  for (int k = 1; k <= 4; k++) {
    double mk = (double)(m[k] / n);
    double se = sqrt((ref->m2k[k - 1] - ref->mk[k - 1] * ref->mk[k - 1]) / n);
    r->z[k - 1] = (mk - ref->mk[k - 1]) / se;
  }
  r->mean = (double)(m[1] / n);
  r->var = (double)(m[2] / n) - r->mean * r->mean;
  r->var *= n / (n - 1.0);
  double p = ref->tail_p;
  r->tail_frac = (double)r->tail_n / n;
  r->tail_z = ((double)r->tail_n - n * p) / sqrt(n * p * (1.0 - p));
  r->tail_excess = r->tail_n ? (double)(tail_sum / r->tail_n) : NAN;
  r->tail_excess_z = r->tail_n ? (r->tail_excess - ref->exc_mean) / ref->exc_sd *
                                     sqrt((double)r->tail_n) : NAN;
}

static void rngcheck_run(rngcheck_draw_fn draw, void *ud, guint64 n, guint grid_bits,
                         const rngcheck_ref *ref, rngcheck_result *out) {
  g_assert(n >= 2 && n < G_MAXUINT32 && grid_bits >= 10 && grid_bits <= 26);
  *out = (rngcheck_result){.n = n, .grid_bits = grid_bits};
  guint32 bins = 1u << grid_bits;
  out->grid = g_new0(guint32, bins);
  long double m[5] = {0}, tail_sum = 0;
  for (guint64 i = 0; i < n; i++) {
    double x = draw(ud);
    double u = ref->cdf(x);
    guint32 b = u >= 1.0 ? bins - 1 : u <= 0.0 ? 0 : (guint32)(u * bins);
    out->grid[b]++;
    double x2 = x * x;
    m[1] += x;
    m[2] += x2;
    m[3] += x2 * x;
    m[4] += x2 * x2;
    double t = ref->two_sided ? fabs(x) : x;
    if (t > ref->r) {
      out->tail_n++;
      tail_sum += t - ref->r;
    }
  }
  rngcheck_moments(out, ref, m, tail_sum);
  out->ks_d_grid = rngcheck_grid_d(out);
  out->ks_d = out->ks_d_grid + 1.0 / bins;
  out->ks_p = rngcheck_ks_p(out->ks_d, (double)n);
  rngcheck_chi2(out);
}

void rngcheck_exponential(rngcheck_draw_fn draw, void *ud, guint64 n, guint grid_bits,
                          rngcheck_result *out) {
  /* Exp(1): E[X^k] = k!; beyond R memoryless, the excess Exp(1) */
  const rngcheck_ref ref = {.cdf = rngcheck_cdf_exp, .mk = {1, 2, 6, 24},
                            .m2k = {2, 24, 720, 40320}, .r = RNGFAST_ZIG_R,
                            .tail_p = exp(-RNGFAST_ZIG_R), .exc_mean = 1, .exc_sd = 1};
  rngcheck_run(draw, ud, n, grid_bits, &ref, out);
}

void rngcheck_gaussian(rngcheck_draw_fn draw, void *ud, guint64 n, guint grid_bits,
                       rngcheck_result *out) {
  /* N(0, 1): E[X^k] = 0, 1, 0, 3 and E[X^2k] = 1, 3, 15, 105; |X| beyond R with share
   * 2 Q(R); the excess of X over R given X > R has mean l - R and variance 1 + R l - l^2,
   * l = phi(R) / Q(R) (the inverse Mills ratio) */
  double r = RNGFAST_NOR_R, q = gsl_cdf_ugaussian_Q(r), l = gsl_ran_ugaussian_pdf(r) / q;
  const rngcheck_ref ref = {.cdf = gsl_cdf_ugaussian_P, .mk = {0, 1, 0, 3},
                            .m2k = {1, 3, 15, 105}, .r = r, .tail_p = 2.0 * q,
                            .exc_mean = l - r, .exc_sd = sqrt(1.0 + r * l - l * l),
                            .two_sided = TRUE};
  rngcheck_run(draw, ud, n, grid_bits, &ref, out);
}

void rngcheck_two_sample(const rngcheck_result *a, const rngcheck_result *b, double *d,
                         double *p) {
  g_assert(a->grid_bits == b->grid_bits);
  guint32 bins = 1u << a->grid_bits;
  guint64 ca = 0, cb = 0;
  double dmax = 0, mass = 0, na = (double)a->n, nb = (double)b->n;
  for (guint32 k = 0; k < bins; k++) {
    ca += a->grid[k];
    cb += b->grid[k];
    double diff = fabs((double)ca / na - (double)cb / nb);
    if (diff > dmax) dmax = diff;
    double m = MAX(a->grid[k] / na, b->grid[k] / nb);
    if (m > mass) mass = m;
  }
  *d = dmax + mass;
  *p = rngcheck_ks_p(*d, na * nb / (na + nb));
}

gboolean rngcheck_pass(const rngcheck_result *r, double alpha, double z_max) {
  if (!(r->ks_p >= alpha) || !(r->chi2_p >= alpha)) return FALSE;
  for (int k = 0; k < 4; k++)
    if (!(fabs(r->z[k]) <= z_max)) return FALSE;
  if (!(fabs(r->tail_z) <= z_max)) return FALSE;
  return !r->tail_n || fabs(r->tail_excess_z) <= z_max;
}

void rngcheck_clear(rngcheck_result *r) { g_clear_pointer(&r->grid, g_free); }
