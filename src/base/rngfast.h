/* rngfast.h: the one hand-rolled generator and variate of sharesim, for the request hot
 * loops only (inference arrivals and exponential service times, LLM arrivals): the
 * xoshiro256** generator (Blackman & Vigna 2021, period 2^256 - 1) seeded by SplitMix64
 * from rng_derive(seed, key, stream), and 256-layer ziggurats for the standard exponential
 * and the standard normal (Marsaglia & Tsang 2000, 53-bit layout as in NumPy; the normal
 * for the LLM lengths). Every other variate comes from GSL (rng.h). The samplers are
 * checked against GSL's exponential and gaussian by rngcheck.h (unit suite and
 * bench/rng-check); docs/models.md, "Random numbers", gives the algorithm and the results. */
#pragma once
#include <glib.h>
#include <stdint.h>
#include <string.h>
#include <gsl/gsl_rng.h>

typedef struct rngfast {
  uint64_t s[4];
} rngfast;

/* The ziggurat's tables (filled once, on the first rngfast_seed, thread-safe): k[i] the
 * acceptance bound of layer i on a 53-bit integer, w[i] its width per unit of that
 * integer, f[i] the density at the layer's edge. */
typedef struct rngfast_zig {
  uint64_t k[256];
  double w[256], f[256];
} rngfast_zig;
extern rngfast_zig rngfast_tables;

/* Right edge of the base layer and the area of each layer (Marsaglia & Tsang 2000, 256
 * layers for the exponential density). */
#define RNGFAST_ZIG_R 7.697117470131487
#define RNGFAST_ZIG_V 3.949659822581572e-3

/* Seeds r from rng_derive(seed, key, stream) (the same derivation as rng_new's GSL
 * streams, so the streams stay independent of job order), expanded by SplitMix64. */
void rngfast_seed(rngfast *r, uint64_t seed, const char *key, uint64_t stream);
/* Seeds r directly from a 64-bit value (SplitMix64 expansion; never all-zero state). */
void rngfast_seed64(rngfast *r, uint64_t x);

static inline uint64_t rngfast_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rngfast_next(rngfast *r) {
  uint64_t *s = r->s;
  const uint64_t out = rngfast_rotl(s[1] * 5, 7) * 9;
  const uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rngfast_rotl(s[3], 45);
  return out;
}

/* Uniform on [0, 1) with 53 random bits. */
static inline double rngfast_uniform(rngfast *r) {
  return (double)(rngfast_next(r) >> 11) * 0x1.0p-53;
}

/* The rare branches of the ziggurat (base strip's tail, wedges, rejections). */
double rngfast_exp_slow(rngfast *r, unsigned idx, double x);

/* Standard exponential variate (mean 1): 98.9 % of draws take one generator step, a table
 * lookup, a multiply and a compare. */
static inline double rngfast_exp(rngfast *r) {
  uint64_t ri = rngfast_next(r) >> 3;
  unsigned idx = (unsigned)(ri & 0xff);
  ri >>= 8;
  double x = (double)ri * rngfast_tables.w[idx];
  if (G_LIKELY(ri < rngfast_tables.k[idx])) return x;
  /* through a copy, so that a caller's state in locals never has its address taken and
   * can live in registers */
  rngfast t = *r;
  x = rngfast_exp_slow(&t, idx, x);
  *r = t;
  return x;
}

/* The standard normal's ziggurat (Marsaglia & Tsang 2000, 256 layers, as NumPy's): the same
 * layout as the exponential's on 53-bit integers, f(x) = exp(-x^2 / 2), and a sign bit. */
extern rngfast_zig rngfast_tables_nor;
#define RNGFAST_NOR_R 3.6541528853610088
#define RNGFAST_NOR_V 4.92867323399e-3

/* The rare branches of the normal ziggurat (the tail beyond R, wedges, rejections); returns
 * |x|. */
double rngfast_gauss_slow(rngfast *r, unsigned idx, double x);

/* Standard normal variate (mean 0, sd 1): 98.8 % of draws take one generator step, a table
 * lookup, a multiply and a compare. Bits: 0-7 the layer, 8 the sign, 11-63 the abscissa. */
static inline double rngfast_gauss(rngfast *r) {
  uint64_t u = rngfast_next(r), ri = u >> 11;
  unsigned idx = (unsigned)(u & 0xff);
  double x = (double)ri * rngfast_tables_nor.w[idx];
  if (G_UNLIKELY(ri >= rngfast_tables_nor.k[idx])) {
    rngfast t = *r; /* as rngfast_exp: the caller's state stays in registers */
    x = rngfast_gauss_slow(&t, idx, x);
    *r = t;
  }
  /* the sign bit 8 moved to the double's bit 63: no branch on a coin flip */
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  bits ^= (u & 0x100) << 55;
  memcpy(&x, &bits, sizeof x);
  return x;
}

/* A stream of standard exponentials drawn RNGFAST_BUF at a time, for loops that must not
 * call out: the values are those rngfast_exp would give one by one, in the same order. */
#define RNGFAST_BUF 128u
typedef struct rngfast_buf {
  rngfast r;
  guint32 pos;               /* next unread value; RNGFAST_BUF: empty */
  double v[RNGFAST_BUF];
} rngfast_buf;

/* Seeds as rngfast_seed; the buffer starts empty. */
void rngfast_buf_seed(rngfast_buf *b, uint64_t seed, const char *key, uint64_t stream);
/* Refills the whole buffer (pos = 0). */
void rngfast_buf_fill(rngfast_buf *b);

static inline double rngfast_buf_exp(rngfast_buf *b) {
  if (G_UNLIKELY(b->pos == RNGFAST_BUF)) rngfast_buf_fill(b);
  return b->v[b->pos++];
}

/* The xoshiro256** generator as a GSL generator type ("xoshiro256**": 32-bit integers, the
 * high half of each output, and 53-bit uniforms), so that GSL's own distribution functions
 * (e.g. gsl_ran_gaussian_ziggurat) run on it at a fraction of taus2's cost per draw in the
 * request hot loops. gsl_rng_set(r, s) seeds it as rngfast_seed64(s). */
extern const gsl_rng_type *const rngfast_gsl_xoshiro;
/* A GSL generator of that type seeded as rngfast_seed(seed, key, stream). Owned. */
gsl_rng *rngfast_gsl_new(uint64_t seed, const char *key, uint64_t stream);
