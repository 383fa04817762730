/* rng.h: seeded random streams. Every job gets its own stream derived from the scenario
 * seed and the job id (not its position), so adding a job changes no other job's
 * randomness and the same job sees the same bursts in every scenario (common random
 * numbers). Variates come from GSL; nothing here hand-rolls a distribution (the one
 * exception, the request loop's exponential draws, is rngfast.h). */
#pragma once
#include <glib.h>
#include <stdint.h>
#include <math.h>
#include <gsl/gsl_rng.h>

/* 64-bit mixing of a seed with a string key and a stream number (SplitMix64 finaliser
 * over FNV-1a of the key); stable across machines. */
uint64_t rng_derive(uint64_t seed, const char *key, uint64_t stream);

/* A GSL generator (taus2: small state, so one per job is cheap) seeded from rng_derive(seed, key, stream). Owned. */
gsl_rng *rng_new(uint64_t seed, const char *key, uint64_t stream);

/* Storage for rng_new's generator inside a caller's record (a job's stream, read at every
 * burst: no allocation and no pointer chase to a separate state). */
typedef struct rng_slot {
  gsl_rng r;
  guint64 state[3];            /* taus2's state: three unsigned longs */
} rng_slot;
/* The generator rng_new(seed, key, stream) returns, the same stream, in slot: returns
 * &slot->r, which must never be gsl_rng_free'd (it goes with the slot). */
gsl_rng *rng_init(rng_slot *slot, uint64_t seed, const char *key, uint64_t stream);

/* Helpers on top of GSL. */
/* GSL's gsl_ran_exponential(r, mean), the same doubles: -mean x log1p(-u) with u taus2's
 * next 32-bit output / 2^32. For a taus2 stream (every stream rng_new and rng_init make)
 * the generator's step is done here, inline, instead of through the gsl_rng_type's function
 * pointer (the notebooks' bursts and gaps: two draws an event pair); any other generator
 * goes to GSL. The unit suite compares the two over 10^7 draws. */
double rng_exponential_gsl(gsl_rng *r, double mean);
/* taus2's state as GSL's taus.c keeps it (taus_state_t) */
typedef struct rng_taus_state {
  unsigned long s1, s2, s3;
} rng_taus_state;
static inline double rng_exponential(gsl_rng *r, double mean) {
  if (G_UNLIKELY(r->type != gsl_rng_taus2)) return rng_exponential_gsl(r, mean);
  rng_taus_state *t = r->state;
  /* GSL's TAUSWORTHE(s, a, b, c, d) = (((s & c) << d) & MASK) ^ ((((s << a) & MASK) ^ s) >> b) */
  const unsigned long mask = 0xffffffffUL;
  t->s1 = (((t->s1 & 4294967294UL) << 12) & mask) ^ ((((t->s1 << 13) & mask) ^ t->s1) >> 19);
  t->s2 = (((t->s2 & 4294967288UL) << 4) & mask) ^ ((((t->s2 << 2) & mask) ^ t->s2) >> 25);
  t->s3 = (((t->s3 & 4294967280UL) << 17) & mask) ^ ((((t->s3 << 3) & mask) ^ t->s3) >> 11);
  double u = (double)(t->s1 ^ t->s2 ^ t->s3) / 4294967296.0;
  return -mean * log1p(-u);
}

/* A taus2 stream's state saved and put back, and a generator over a saved state (no
 * allocation): a walk that draws ahead on a copy of a job's stream (bursts.c). */
static inline void rng_save(const gsl_rng *r, rng_taus_state *out) {
  g_assert(r->type == gsl_rng_taus2);
  *out = *(const rng_taus_state *)r->state;
}
static inline void rng_restore(gsl_rng *r, const rng_taus_state *in) {
  g_assert(r->type == gsl_rng_taus2);
  *(rng_taus_state *)r->state = *in;
}
static inline gsl_rng rng_over(rng_taus_state *st) {
  gsl_rng r = {.type = gsl_rng_taus2, .state = st};
  return r;
}
