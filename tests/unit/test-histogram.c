/* test-histogram.c: the log-bucketed latency histogram: quantiles within the stated relative
 * error of the exact order statistics, exact moments, merge equal to adding everything to
 * one histogram, memory that stays bounded whatever the number of values, edge values. */
#include <criterion/criterion.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <math.h>
#include "histogram.h"

static int hist_cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Exact nearest-rank quantile of sorted v. */
static double hist_exact(const double *v, gsize n, double q) {
  double r = ceil(q * (double)n);
  gsize rank = r < 1 ? 1 : r > (double)n ? n : (gsize)r;
  return v[rank - 1];
}

Test(histogram, quantiles_within_the_relative_error_bound) {
  const gsize n = 400000;
  double *v = g_new(double, n);
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_taus2);
  gsl_rng_set(rng, 7);
  g_autoptr(histogram) h = histogram_new();
  for (gsize i = 0; i < n; i++) {
    v[i] = gsl_ran_lognormal(rng, log(20e6), 1.2); /* latencies around 20 ms, wide tail */
    histogram_add(h, v[i]);
  }
  qsort(v, n, sizeof *v, hist_cmp);
  double worst = 0;
  for (int k = 0; k <= 1000; k++) {
    double q = k / 1000.0;
    double want = hist_exact(v, n, q), got = histogram_quantile(h, q);
    double rel = fabs(got - want) / want;
    if (rel > worst) worst = rel;
  }
  const double qs[] = {0.5, 0.9, 0.95, 0.99, 0.999, 0.9999};
  for (gsize i = 0; i < G_N_ELEMENTS(qs); i++) {
    double want = hist_exact(v, n, qs[i]), got = histogram_quantile(h, qs[i]);
    cr_assert(fabs(got - want) / want <= HISTOGRAM_MAX_REL_ERROR,
              "q %g: %.9g vs exact %.9g", qs[i], got, want);
  }
  cr_assert(worst <= HISTOGRAM_MAX_REL_ERROR, "worst relative error %g", worst);
  cr_assert(worst > 1e-4, "the bound is not trivially met (worst %g)", worst);
  cr_assert(HISTOGRAM_MAX_REL_ERROR <= 0.01);
  /* the extremes are exact */
  cr_assert_eq(histogram_quantile(h, 0), v[0]);
  cr_assert_eq(histogram_quantile(h, 1), v[n - 1]);
  cr_assert_eq(histogram_min(h), v[0]);
  cr_assert_eq(histogram_max(h), v[n - 1]);
  gsl_rng_free(rng);
  g_free(v);
}

Test(histogram, exact_count_mean_min_max) {
  g_autoptr(histogram) h = histogram_new();
  cr_assert(isnan(histogram_mean(h)) && isnan(histogram_quantile(h, 0.5)));
  cr_assert(isnan(histogram_min(h)) && isnan(histogram_max(h)));
  const double v[] = {3, 5, 1000, 7.5, 0.25};
  for (gsize i = 0; i < G_N_ELEMENTS(v); i++) histogram_add(h, v[i]);
  histogram_add_n(h, 10, 5);
  cr_assert_eq(histogram_count(h), 10);
  cr_assert_float_eq(histogram_mean(h), (3 + 5 + 1000 + 7.5 + 0.25 + 50) / 10.0, 1e-12);
  cr_assert_eq(histogram_min(h), 0.25);
  cr_assert_eq(histogram_max(h), 1000);
  /* rank 1 is the sub-unit value, reported as the exact minimum */
  cr_assert_eq(histogram_quantile(h, 0.1), 0.25);
  /* ranks 5..9 are the five 10s: bucket [10, 10.125) of octave 8, midpoint 10.0625 */
  cr_assert_float_eq(histogram_quantile(h, 0.5), 10.0625, 1e-12);
  cr_assert_float_eq(histogram_fraction_at_most(h, 8), 0.4, 1e-12);
  cr_assert_float_eq(histogram_fraction_at_most(h, 1000), 1.0, 1e-12);
  cr_assert_float_eq(histogram_fraction_at_most(h, 0.1), 0.0, 1e-12);
}

Test(histogram, merge_equals_adding_to_one) {
  g_autoptr(histogram) a = histogram_new();
  g_autoptr(histogram) b = histogram_new();
  g_autoptr(histogram) all = histogram_new();
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_taus2);
  for (int i = 0; i < 100000; i++) {
    double x = gsl_ran_exponential(rng, i % 2 ? 5e6 : 80e6);
    histogram_add(i % 3 ? a : b, x);
    histogram_add(all, x);
  }
  g_autoptr(histogram) m = histogram_copy(a);
  histogram_merge(m, b);
  cr_assert_eq(histogram_count(m), 100000);
  cr_assert_eq(histogram_count(m), histogram_count(all));
  cr_assert_eq(histogram_min(m), histogram_min(all));
  cr_assert_eq(histogram_max(m), histogram_max(all));
  cr_assert_float_eq(histogram_mean(m), histogram_mean(all), 1e-9 * histogram_mean(all));
  for (int k = 1; k < 100; k++)
    cr_assert_eq(histogram_quantile(m, k / 100.0), histogram_quantile(all, k / 100.0), "q %d", k);
  /* the copy was independent of a */
  cr_assert_eq(histogram_count(a) + histogram_count(b), histogram_count(m));
  gsl_rng_free(rng);
}

Test(histogram, memory_does_not_grow_with_the_count) {
  g_autoptr(histogram) h = histogram_new();
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_taus2);
  /* latencies from 1 ms to 1 s, log-uniform: every octave in between is hit early */
  for (int i = 0; i < 1000; i++) histogram_add(h, 1e6 * exp(gsl_rng_uniform(rng) * log(1e3)));
  gsize small = histogram_memory_bytes(h);
  for (int i = 0; i < 5000000; i++) histogram_add(h, 1e6 * exp(gsl_rng_uniform(rng) * log(1e3)));
  cr_assert_eq(histogram_count(h), 5001000);
  cr_assert_eq(histogram_memory_bytes(h), small, "%zu vs %zu bytes", histogram_memory_bytes(h),
               small);
  /* whatever the values, at most 64 octaves of 64 counters */
  for (int e = 0; e < 80; e++) histogram_add(h, ldexp(1.5, e));
  histogram_add(h, 1e300);
  cr_assert_leq(histogram_memory_bytes(h),
                sizeof(histogram) + HISTOGRAM_OCTAVES * HISTOGRAM_SUB_BUCKETS * sizeof(guint64));
  cr_assert_eq(histogram_max(h), 1e300);
  cr_assert_eq(histogram_quantile(h, 1), 1e300);
  gsl_rng_free(rng);
}

typedef struct hist_bucket_acc {
  GArray *edges;   /* double */
  GArray *counts;  /* guint64 */
} hist_bucket_acc;

static void hist_bucket_collect(double upper_edge, guint64 n, gpointer user) {
  hist_bucket_acc *a = user;
  g_array_append_val(a->edges, upper_edge);
  g_array_append_val(a->counts, n);
}

Test(histogram, buckets_in_order_with_their_upper_edges) {
  g_autoptr(histogram) h = histogram_new();
  hist_bucket_acc a = {g_array_new(FALSE, FALSE, sizeof(double)),
                       g_array_new(FALSE, FALSE, sizeof(guint64))};
  histogram_foreach_bucket(h, hist_bucket_collect, &a);
  cr_assert_eq(a.edges->len, 0, "an empty histogram has no bucket");
  histogram_add(h, 16777216);           /* 2^24: octave 24, sub-bucket 0 */
  histogram_add(h, 0.25);               /* below one */
  histogram_add_n(h, 1048576, 2);       /* 2^20: octave 20, sub-bucket 0 */
  histogram_add(h, 1049576);            /* 2^20 + 1000: same bucket */
  histogram_add(h, 5e6);                /* 5e6 / 2^22 = 1.192: sub-bucket 12 of octave 22 */
  histogram_foreach_bucket(h, hist_bucket_collect, &a);
  const double edges[] = {1, 1064960 /* 2^20 x 65/64 */, 5046272 /* 2^22 x 77/64 */,
                          17039360 /* 2^24 x 65/64 */};
  const guint64 counts[] = {1, 3, 1, 1};
  cr_assert_eq(a.edges->len, G_N_ELEMENTS(edges));
  for (guint i = 0; i < G_N_ELEMENTS(edges); i++) {
    cr_assert_eq(g_array_index(a.edges, double, i), edges[i], "bucket %u: edge %.17g", i,
                 g_array_index(a.edges, double, i));
    cr_assert_eq(g_array_index(a.counts, guint64, i), counts[i], "bucket %u", i);
  }
  g_array_free(a.edges, TRUE);
  g_array_free(a.counts, TRUE);
}

Test(histogram, bucket_edges_give_the_exact_distribution_function) {
  const gsize n = 20000;
  double *v = g_new(double, n);
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_taus2);
  gsl_rng_set(rng, 11);
  g_autoptr(histogram) h = histogram_new();
  for (gsize i = 0; i < n; i++) {
    v[i] = gsl_ran_lognormal(rng, log(5e6), 1.5);
    histogram_add(h, v[i]);
  }
  qsort(v, n, sizeof *v, hist_cmp);
  hist_bucket_acc a = {g_array_new(FALSE, FALSE, sizeof(double)),
                       g_array_new(FALSE, FALSE, sizeof(guint64))};
  histogram_foreach_bucket(h, hist_bucket_collect, &a);
  cr_assert_leq(a.edges->len, HISTOGRAM_OCTAVES * HISTOGRAM_SUB_BUCKETS + 1);
  guint64 seen = 0;
  gsize below = 0;
  double prev = 0;
  for (guint i = 0; i < a.edges->len; i++) {
    double edge = g_array_index(a.edges, double, i);
    cr_assert_gt(edge, prev, "edges increase");
    prev = edge;
    seen += g_array_index(a.counts, guint64, i);
    while (below < n && v[below] < edge) below++;
    /* exactly the values below the edge have been counted so far */
    cr_assert_eq(seen, below, "edge %.17g: %" G_GUINT64_FORMAT " counted, %zu below", edge,
                 seen, below);
  }
  cr_assert_eq(seen, n);
  g_array_free(a.edges, TRUE);
  g_array_free(a.counts, TRUE);
  gsl_rng_free(rng);
  g_free(v);
}
