/* mmc.h: the analytic M/M/c FCFS queue (Erlang C, the sojourn-time distribution and its
 * quantiles), the oracle that `sharesim validate` and the unit tests hold the request-level
 * simulation against. */
#pragma once
#include <glib.h>

/* Erlang C: the probability that an arrival waits, c servers, offered load a = lambda/mu < c. */
double mmc_erlang_c(guint c, double a);
/* P(T > t) for the sojourn time T = W + S of an M/M/c FCFS queue. */
double mmc_sojourn_tail(guint c, double lambda, double mu, double t);
/* The q-quantile of T (0 < q < 1), found with GSL's Brent solver. */
double mmc_sojourn_quantile(guint c, double lambda, double mu, double q);
/* The mean sojourn time E[T] = C / (c mu - lambda) + 1 / mu. */
double mmc_sojourn_mean(guint c, double lambda, double mu);
