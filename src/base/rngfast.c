/* rngfast.c: seeding of the xoshiro256** streams and the ziggurat's tables and rare
 * branches (rngfast.h). The hot path is inline in the header; this file owns the one-time
 * table set-up (Marsaglia & Tsang 2000, section 4, on 53-bit integers; exponential and
 * normal) and the GSL generator type that wraps xoshiro256** for GSL's distributions. */
#include "rngfast.h"
#include "rng.h"
#include <math.h>

rngfast_zig rngfast_tables, rngfast_tables_nor;

static uint64_t rngfast_splitmix(uint64_t *x) {
  uint64_t z = (*x += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

/* The layers from the base (0: the rectangle of width V / f(R) holding the tail's area)
 * up: x[i+1] = -ln(V / x[i] + f(x[i])) from x[255] = R, so each layer has area V. */
static void rngfast_tables_fill(void) {
  const double m = 0x1.0p53;
  rngfast_zig *z = &rngfast_tables;
  double de = RNGFAST_ZIG_R, te = de;
  double q = RNGFAST_ZIG_V / exp(-de);
  z->k[0] = (uint64_t)((de / q) * m);
  z->k[1] = 0;
  z->w[0] = q / m;
  z->w[255] = de / m;
  z->f[0] = 1.0;
  z->f[255] = exp(-de);
  for (int i = 254; i >= 1; i--) {
    de = -log(RNGFAST_ZIG_V / de + exp(-de));
    z->k[i + 1] = (uint64_t)((de / te) * m);
    te = de;
    z->f[i] = exp(-de);
    z->w[i] = de / m;
  }
}

static double rngfast_nor_f(double x) { return exp(-0.5 * x * x); }

/* The normal's layers, as the exponential's: x[i+1] = f^-1(V / x[i] + f(x[i])) from
 * x[255] = R, f^-1(y) = sqrt(-2 ln y); the base layer is the rectangle of width V / f(R)
 * holding the tail's area. */
static void rngfast_tables_nor_fill(void) {
  const double m = 0x1.0p53;
  rngfast_zig *z = &rngfast_tables_nor;
  double dn = RNGFAST_NOR_R, tn = dn;
  double q = RNGFAST_NOR_V / rngfast_nor_f(dn);
  z->k[0] = (uint64_t)((dn / q) * m);
  z->k[1] = 0;
  z->w[0] = q / m;
  z->w[255] = dn / m;
  z->f[0] = 1.0;
  z->f[255] = rngfast_nor_f(dn);
  for (int i = 254; i >= 1; i--) {
    dn = sqrt(-2.0 * log(RNGFAST_NOR_V / dn + rngfast_nor_f(dn)));
    z->k[i + 1] = (uint64_t)((dn / tn) * m);
    tn = dn;
    z->f[i] = rngfast_nor_f(dn);
    z->w[i] = dn / m;
  }
}

static void rngfast_init_tables(void) {
  static gsize done = 0;
  if (g_once_init_enter(&done)) {
    rngfast_tables_fill();
    rngfast_tables_nor_fill();
    g_once_init_leave(&done, 1);
  }
}

void rngfast_seed64(rngfast *r, uint64_t x) {
  rngfast_init_tables();
  for (int i = 0; i < 4; i++) r->s[i] = rngfast_splitmix(&x);
  if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3])) r->s[0] = 1; /* never all zero */
}

void rngfast_seed(rngfast *r, uint64_t seed, const char *key, uint64_t stream) {
  rngfast_seed64(r, rng_derive(seed, key, stream));
}

double rngfast_exp_slow(rngfast *r, unsigned idx, double x) {
  for (;;) {
    if (idx == 0) /* the tail beyond R, memoryless: R + Exp(1); 1 - U is in (0, 1] */
      return RNGFAST_ZIG_R - log1p(-rngfast_uniform(r));
    const rngfast_zig *z = &rngfast_tables;
    if ((z->f[idx - 1] - z->f[idx]) * rngfast_uniform(r) + z->f[idx] < exp(-x)) return x;
    /* rejected: a fresh draw */
    uint64_t ri = rngfast_next(r) >> 3;
    idx = (unsigned)(ri & 0xff);
    ri >>= 8;
    x = (double)ri * z->w[idx];
    if (ri < z->k[idx]) return x;
  }
}

double rngfast_gauss_slow(rngfast *r, unsigned idx, double x) {
  const rngfast_zig *z = &rngfast_tables_nor;
  for (;;) {
    if (idx == 0) { /* the tail beyond R (Marsaglia 1964): R + a with 2 b > a^2 */
      double a, b;
      do {
        a = -log1p(-rngfast_uniform(r)) / RNGFAST_NOR_R;
        b = -log1p(-rngfast_uniform(r));
      } while (b + b <= a * a);
      return RNGFAST_NOR_R + a;
    }
    if ((z->f[idx - 1] - z->f[idx]) * rngfast_uniform(r) + z->f[idx] < rngfast_nor_f(x))
      return x;
    /* rejected: a fresh abscissa in a fresh layer (the caller's sign bit stays) */
    uint64_t u = rngfast_next(r), ri = u >> 11;
    idx = (unsigned)(u & 0xff);
    x = (double)ri * z->w[idx];
    if (ri < z->k[idx]) return x;
  }
}

void rngfast_buf_seed(rngfast_buf *b, uint64_t seed, const char *key, uint64_t stream) {
  rngfast_seed(&b->r, seed, key, stream);
  b->pos = RNGFAST_BUF;
}

void rngfast_buf_fill(rngfast_buf *b) {
  rngfast r = b->r; /* in registers for the loop */
  for (guint32 i = 0; i < RNGFAST_BUF; i++) b->v[i] = rngfast_exp(&r);
  b->r = r;
  b->pos = 0;
}

/* ---- xoshiro256** as a gsl_rng_type ---- */

static void rngfast_gsl_set(void *state, unsigned long seed) {
  rngfast_seed64(state, (uint64_t)seed);
}

static unsigned long rngfast_gsl_get(void *state) {
  return (unsigned long)(rngfast_next(state) >> 32);
}

static double rngfast_gsl_get_double(void *state) { return rngfast_uniform(state); }

static const gsl_rng_type rngfast_gsl_type = {
    .name = "xoshiro256**", .max = 0xffffffffUL, .min = 0, .size = sizeof(rngfast),
    .set = rngfast_gsl_set, .get = rngfast_gsl_get, .get_double = rngfast_gsl_get_double};
const gsl_rng_type *const rngfast_gsl_xoshiro = &rngfast_gsl_type;

gsl_rng *rngfast_gsl_new(uint64_t seed, const char *key, uint64_t stream) {
  gsl_rng *r = gsl_rng_alloc(rngfast_gsl_xoshiro);
  rngfast_seed(r->state, seed, key, stream); /* all 64 bits (gsl_rng_set takes a long) */
  return r;
}
