/* mmc.c: the analytic M/M/c FCFS queue: Erlang C by its recurrence, the sojourn-time tail
 * (W = 0 with probability 1 - C, else Exp(c mu - lambda); plus an Exp(mu) service) and its
 * quantiles by GSL root finding. Source: Kleinrock, Queueing Systems vol. 1 (1975), 3.5. */
#include "mmc.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>
#include <math.h>

double mmc_erlang_c(guint c, double a) {
  double sum = 0, term = 1; /* term = a^k / k! */
  for (guint k = 0; k < c; k++) {
    sum += term;
    term *= a / (double)(k + 1);
  }
  double top = term / (1.0 - a / c); /* a^c / c! / (1 - rho) */
  return top / (sum + top);
}

double mmc_sojourn_tail(guint c, double lambda, double mu, double t) {
  double C = mmc_erlang_c(c, lambda / mu), theta = c * mu - lambda;
  /* P(W' + S > t) for W' ~ Exp(theta), S ~ Exp(mu): hypoexponential, Erlang-2 when equal. */
  double tail = fabs(theta - mu) < 1e-12
                    ? (1 + mu * t) * exp(-mu * t)
                    : (theta * exp(-mu * t) - mu * exp(-theta * t)) / (theta - mu);
  return (1 - C) * exp(-mu * t) + C * tail;
}

double mmc_sojourn_mean(guint c, double lambda, double mu) {
  return mmc_erlang_c(c, lambda / mu) / (c * mu - lambda) + 1 / mu;
}

typedef struct {
  guint c;
  double lambda, mu, q;
} mmc_root;

static double mmc_excess(double t, void *p) {
  const mmc_root *r = p;
  return mmc_sojourn_tail(r->c, r->lambda, r->mu, t) - (1 - r->q);
}

double mmc_sojourn_quantile(guint c, double lambda, double mu, double q) {
  mmc_root r = {c, lambda, mu, q};
  double hi = 1;
  while (mmc_excess(hi, &r) > 0) hi *= 2; /* the tail falls to 0: a bracket exists */
  gsl_function f = {mmc_excess, &r};
  gsl_root_fsolver *s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
  gsl_root_fsolver_set(s, &f, 0, hi);
  double t = hi;
  for (int i = 0; i < 200; i++) {
    gsl_root_fsolver_iterate(s);
    t = gsl_root_fsolver_root(s);
    double lo = gsl_root_fsolver_x_lower(s), up = gsl_root_fsolver_x_upper(s);
    if (gsl_root_test_interval(lo, up, 0, 1e-14) == GSL_SUCCESS) break;
  }
  gsl_root_fsolver_free(s);
  return t;
}
