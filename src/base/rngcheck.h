/* rngcheck.h: statistical checks of an exponential or a standard normal sampler against
 * GSL's distributions, streaming (memory set by the grid, not by the number of draws): a
 * one-sample Kolmogorov-Smirnov test against gsl_cdf_exponential_P / gsl_cdf_ugaussian_P
 * on a grid of the CDF, a chi-square test on 1024 equiprobable cells, the first four raw
 * moments, and the tail beyond the ziggurat's base layer; a two-sample KS test between two
 * samplers' grids.
 * Used by the unit suite (10^6 draws) and bench/rng-check (10^8). */
#pragma once
#include <glib.h>
#include <stdint.h>

typedef double (*rngcheck_draw_fn)(void *ud);

#define RNGCHECK_CELLS 1024u /* chi-square cells */

typedef struct rngcheck_result {
  guint64 n;
  double mean, var;
  /* z-scores of the raw moments m_k against E[X^k], k = 1..4 (Exp(1): k!; N(0, 1): 0, 1,
   * 0, 3), with the standard error sqrt((E[X^2k] - E[X^k]^2) / n) */
  double z[4];
  /* KS: d_grid the largest |F_n - F| at the grid's edges; the true statistic is at most
   * d_grid + 2^-grid_bits, and p is computed from that bound (conservative) */
  double ks_d, ks_d_grid, ks_p;
  double chi2, chi2_p;       /* RNGCHECK_CELLS - 1 degrees of freedom */
  /* tail beyond R (the base layer's edge: RNGFAST_ZIG_R; for the normal |X| beyond
   * RNGFAST_NOR_R): share against e^-R or 2 Q(R) (binomial z), and the mean excess over R
   * against 1 (memoryless) or the normal's l - R, l = phi(R) / Q(R) (z with the excess's
   * sd over sqrt(count)) */
  guint64 tail_n;
  double tail_frac, tail_z, tail_excess, tail_excess_z;
  guint32 grid_bits;
  guint32 *grid;             /* draws per grid bin of u = F(x) (owned; rngcheck_clear) */
} rngcheck_result;

/* Draws n values (n < 2^32) from draw(ud) and fills out; grid of 2^grid_bits bins
 * (10 <= grid_bits <= 26). */
void rngcheck_exponential(rngcheck_draw_fn draw, void *ud, guint64 n, guint grid_bits,
                          rngcheck_result *out);
/* The same against the standard normal. */
void rngcheck_gaussian(rngcheck_draw_fn draw, void *ud, guint64 n, guint grid_bits,
                       rngcheck_result *out);
/* Two-sample KS between two results on the same grid: *d is an upper bound of the
 * statistic (largest difference at the edges plus the largest bin share), *p its p-value
 * with n_a n_b / (n_a + n_b) draws. */
void rngcheck_two_sample(const rngcheck_result *a, const rngcheck_result *b, double *d,
                         double *p);
/* Every p-value at least alpha and every |z| at most z_max. */
gboolean rngcheck_pass(const rngcheck_result *r, double alpha, double z_max);
void rngcheck_clear(rngcheck_result *r);
/* The Kolmogorov distribution's survival function Q(lambda) = 2 sum (-1)^(k-1)
 * e^(-2 k^2 lambda^2), and the KS p-value of statistic d over n_eff draws with
 * Stephens' (1970) correction lambda = (sqrt(n) + 0.12 + 0.11 / sqrt(n)) d. */
double rngcheck_ks_q(double lambda);
double rngcheck_ks_p(double d, double n_eff);

/* Draws for rngcheck_exponential and rngcheck_gaussian: ud is an rngfast * (rngfast_exp,
 * rngfast_gauss) or a gsl_rng * (gsl_ran_exponential, gsl_ran_gaussian_ziggurat). */
double rngcheck_draw_fast(void *ud);
double rngcheck_draw_gsl(void *ud);
double rngcheck_draw_fast_gauss(void *ud);
double rngcheck_draw_gsl_gauss(void *ud);
