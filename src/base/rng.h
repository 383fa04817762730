/* rng.h: seeded random streams. Every job gets its own stream derived from the scenario
 * seed and the job id (not its position), so adding a job changes no other job's
 * randomness and the same job sees the same bursts in every scenario (common random
 * numbers). Variates come from GSL; nothing here hand-rolls a distribution (the one
 * exception, the request loop's exponential draws, is rngfast.h). */
#pragma once
#include <glib.h>
#include <stdint.h>
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
double rng_exponential(gsl_rng *r, double mean);
