/* histogram.c: the log-bucketed latency histogram (histogram.h): allocation, merging,
 * exact moments, bucket-midpoint quantiles and the buckets in order (for CDFs). It knows nothing of services or SLOs
 * (workload-inference.c counts those); it keeps no values, only bucket counts, so its
 * memory is bounded by 64 octaves whatever the number of values. */
#include "histogram.h"
#include <math.h>

histogram *histogram_new(void) {
  histogram *h = g_new0(histogram, 1);
  h->min = INFINITY;
  h->max = -INFINITY;
  return h;
}

void histogram_free(histogram *h) {
  if (!h) return;
  for (guint e = 0; e < HISTOGRAM_OCTAVES; e++) g_free(h->octave[e]);
  g_free(h);
}

guint64 *histogram_octave_alloc(histogram *h, guint e) {
  g_assert(e < HISTOGRAM_OCTAVES && !h->octave[e]);
  h->octave[e] = g_new0(guint64, HISTOGRAM_SUB_BUCKETS);
  return h->octave[e];
}

guint64 *histogram_counter_alloc(histogram *h, double v) {
  guint64 *c = histogram_counter(h, v);
  if (c) return c;
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  guint e = (guint)(bits >> 52) - 1023u; /* >= 1 here; 2^64 and above, NaN: the top one */
  histogram_octave_alloc(h, MIN(e, HISTOGRAM_OCTAVES - 1u));
  return histogram_counter(h, v);
}

histogram *histogram_copy(const histogram *h) {
  histogram *c = g_new0(histogram, 1);
  *c = *h;
  for (guint e = 0; e < HISTOGRAM_OCTAVES; e++)
    if (h->octave[e])
      c->octave[e] = g_memdup2(h->octave[e], HISTOGRAM_SUB_BUCKETS * sizeof(guint64));
  return c;
}

void histogram_merge(histogram *into, const histogram *from) {
  g_return_if_fail(into != NULL && from != NULL);
  into->count += from->count;
  into->below_one += from->below_one;
  into->sum += from->sum;
  if (from->min < into->min) into->min = from->min;
  if (from->max > into->max) into->max = from->max;
  for (guint e = 0; e < HISTOGRAM_OCTAVES; e++) {
    if (!from->octave[e]) continue;
    guint64 *o = into->octave[e] ? into->octave[e] : histogram_octave_alloc(into, e);
    for (guint s = 0; s < HISTOGRAM_SUB_BUCKETS; s++) o[s] += from->octave[e][s];
  }
}

guint64 histogram_count(const histogram *h) { return h->count; }

double histogram_mean(const histogram *h) { return h->count ? h->sum / (double)h->count : NAN; }
double histogram_min(const histogram *h) { return h->count ? h->min : NAN; }
double histogram_max(const histogram *h) { return h->count ? h->max : NAN; }

/* Midpoint of bucket (e, s): 2^e x (1 + (s + 0.5) / 64). */
static double histogram_mid(guint e, guint s) {
  return ldexp(1.0 + ((double)s + 0.5) / HISTOGRAM_SUB_BUCKETS, (int)e);
}

static double histogram_clamp(const histogram *h, double v) {
  return v < h->min ? h->min : v > h->max ? h->max : v;
}

double histogram_quantile(const histogram *h, double q) {
  if (!h->count || !(q >= 0)) return NAN;
  if (q > 1) q = 1;
  double r = ceil(q * (double)h->count);
  guint64 rank = r < 1 ? 1 : r >= (double)h->count ? h->count : (guint64)r;
  if (rank == 1) return h->min;
  if (rank == h->count) return h->max;
  guint64 seen = h->below_one;
  if (seen >= rank) return h->min; /* a sub-unit value: the exact minimum stands for it */
  for (guint e = 0; e < HISTOGRAM_OCTAVES; e++) {
    const guint64 *o = h->octave[e];
    if (!o) continue;
    for (guint s = 0; s < HISTOGRAM_SUB_BUCKETS; s++) {
      seen += o[s];
      if (seen >= rank) return histogram_clamp(h, histogram_mid(e, s));
    }
  }
  return h->max;
}

double histogram_fraction_at_most(const histogram *h, double x) {
  if (!h->count || isnan(x)) return NAN;
  if (x >= h->max) return 1.0;
  if (x < h->min) return 0.0;
  guint64 n = x >= 0.5 ? h->below_one : 0;
  for (guint e = 0; e < HISTOGRAM_OCTAVES; e++) {
    const guint64 *o = h->octave[e];
    if (!o) continue;
    for (guint s = 0; s < HISTOGRAM_SUB_BUCKETS; s++)
      if (histogram_mid(e, s) <= x) n += o[s];
  }
  return (double)n / (double)h->count;
}

void histogram_foreach_bucket(const histogram *h, histogram_bucket_fn fn, gpointer user) {
  if (h->below_one) fn(1.0, h->below_one, user);
  for (guint e = 0; e < HISTOGRAM_OCTAVES; e++) {
    const guint64 *o = h->octave[e];
    if (!o) continue;
    for (guint s = 0; s < HISTOGRAM_SUB_BUCKETS; s++)
      if (o[s]) fn(ldexp(1.0 + (double)(s + 1) / HISTOGRAM_SUB_BUCKETS, (int)e), o[s], user);
  }
}

gsize histogram_memory_bytes(const histogram *h) {
  gsize n = sizeof *h;
  for (guint e = 0; e < HISTOGRAM_OCTAVES; e++)
    if (h->octave[e]) n += HISTOGRAM_SUB_BUCKETS * sizeof(guint64);
  return n;
}
