/* histogram.h: a log-bucketed histogram of non-negative values (latencies in ns) whose
 * quantiles have a bounded relative error and whose memory does not grow with the number
 * of values. Each power of two [2^e, 2^(e+1)) is split into HISTOGRAM_SUB_BUCKETS equal
 * buckets, so a bucket is at most 1/64 of its lower edge wide and its midpoint is within
 * HISTOGRAM_MAX_REL_ERROR (1/128 = 0.78 %) of every value in it. Octaves are allocated
 * on first use: at most 64 octaves of 64 counters (32 KiB) whatever the count. Count,
 * sum, minimum and maximum are exact. Values below 1 share one bucket (they are reported
 * as the exact minimum), values of 2^63 and above the top one.
 * The struct is public only so that histogram_add can be inlined into the inference
 * model's inner loop; use the functions, not the fields. */
#pragma once
#include <glib.h>
#include <stdint.h>
#include <string.h>

#define HISTOGRAM_SUB_BITS 6
#define HISTOGRAM_SUB_BUCKETS (1u << HISTOGRAM_SUB_BITS)
#define HISTOGRAM_OCTAVES 64
#define HISTOGRAM_MAX_REL_ERROR (1.0 / (2.0 * HISTOGRAM_SUB_BUCKETS))

typedef struct histogram {
  guint64 count;
  guint64 below_one;                      /* values in [0, 1) */
  double sum, min, max;
  guint64 *octave[HISTOGRAM_OCTAVES];     /* NULL until a value falls in it */
} histogram;

histogram *histogram_new(void);
void histogram_free(histogram *h);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(histogram, histogram_free)
/* Owned deep copy. */
histogram *histogram_copy(const histogram *h);

/* Allocates an octave (out of line: rare). */
guint64 *histogram_octave_alloc(histogram *h, guint e);

/* The counter of v's bucket, or NULL when its octave is not allocated yet (then
 * histogram_counter_alloc): for inner loops that must not call out. v as below. */
static inline guint64 *histogram_counter(histogram *h, double v) {
  if (v < 1.0) return &h->below_one;
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  guint e = (guint)(bits >> 52) - 1023u; /* v >= 1: exponent 0 .. 1023 */
  guint sub = (guint)(bits >> (52 - HISTOGRAM_SUB_BITS)) & (HISTOGRAM_SUB_BUCKETS - 1);
  if (e >= HISTOGRAM_OCTAVES) {
    e = HISTOGRAM_OCTAVES - 1;
    sub = HISTOGRAM_SUB_BUCKETS - 1;
  }
  guint64 *o = h->octave[e];
  return o ? o + sub : NULL;
}

/* The counter of v's bucket, its octave allocated if needed (out of line: rare). */
guint64 *histogram_counter_alloc(histogram *h, double v);

/* Counts n copies of v in its bucket only. For inner loops: the caller keeps the count,
 * sum, minimum and maximum of what it counted and adds them with histogram_add_moments
 * before anything reads h. v must be >= 0 and not NaN (not checked, for speed; a negative
 * value counts as below one, NaN in the top bucket; neither corrupts memory). */
static inline void histogram_count_bucket(histogram *h, double v, guint64 n) {
  guint64 *c = histogram_counter(h, v);
  if (G_UNLIKELY(!c)) c = histogram_counter_alloc(h, v);
  *c += n;
}

/* Adds the moments of values already counted with histogram_count_bucket. */
static inline void histogram_add_moments(histogram *h, guint64 n, double sum, double min,
                                         double max) {
  h->count += n;
  h->sum += sum;
  if (min < h->min) h->min = min;
  if (max > h->max) h->max = max;
}

/* Adds n copies of v (v >= 0, not NaN). */
static inline void histogram_add_n(histogram *h, double v, guint64 n) {
  histogram_count_bucket(h, v, n);
  histogram_add_moments(h, n, v * (double)n, v, v);
}

static inline void histogram_add(histogram *h, double v) { histogram_add_n(h, v, 1); }

/* Adds every value of from into into. */
void histogram_merge(histogram *into, const histogram *from);

guint64 histogram_count(const histogram *h);
/* Exact mean, minimum and maximum; NAN when empty. */
double histogram_mean(const histogram *h);
double histogram_min(const histogram *h);
double histogram_max(const histogram *h);
/* Nearest-rank q-quantile (0 <= q <= 1): the midpoint of the bucket holding the value of
 * rank ceil(q x count) (at least 1), clamped to [min, max], so within
 * HISTOGRAM_MAX_REL_ERROR of that value when it is >= 1; ranks 1 and count are the exact
 * minimum and maximum. NAN when empty. */
double histogram_quantile(const histogram *h, double q);
/* Share of values <= x, counted by bucket (a bucket counts when its midpoint is <= x);
 * exact when x is at or above the maximum. NAN when empty. */
double histogram_fraction_at_most(const histogram *h, double x);
/* Calls fn once per non-empty bucket, in increasing order of value, with the bucket's
 * upper edge and its count: 1 for the values below one, 2^e x (1 + (s + 1) / 64) for
 * sub-bucket s of octave e. Every value counted in a bucket is below its edge and at or
 * above the edges of the buckets before it (except in the top bucket, which also holds the
 * values of 2^64 and above), so (edge, counts so far / count) are points of the exact
 * distribution function. At most 64 x 64 + 1 calls. */
typedef void (*histogram_bucket_fn)(double upper_edge, guint64 n, gpointer user);
void histogram_foreach_bucket(const histogram *h, histogram_bucket_fn fn, gpointer user);
/* Bytes held (the struct and its octaves). */
gsize histogram_memory_bytes(const histogram *h);
