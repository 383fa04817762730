/* rng.c: derivation of independent, stable random streams from (seed, key, stream), and
 * thin wrappers over GSL variates. Each job's stream depends on its id, not its position. */
#include "rng.h"
#include <gsl/gsl_randist.h>

static uint64_t splitmix64(uint64_t x) {
  x += UINT64_C(0x9E3779B97F4A7C15);
  x = (x ^ (x >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  x = (x ^ (x >> 27)) * UINT64_C(0x94D049BB133111EB);
  return x ^ (x >> 31);
}

uint64_t rng_derive(uint64_t seed, const char *key, uint64_t stream) {
  uint64_t h = UINT64_C(0xcbf29ce484222325); /* FNV-1a 64 */
  for (const unsigned char *p = (const unsigned char *)(key ? key : ""); *p; p++) {
    h ^= *p;
    h *= UINT64_C(0x100000001b3);
  }
  return splitmix64(splitmix64(seed) ^ splitmix64(h) ^ splitmix64(stream + 0x5151));
}

/* taus2 takes an unsigned long seed; 0 would mean "default seed" to GSL. */
static unsigned long rng_seed_of(uint64_t seed, const char *key, uint64_t stream) {
  uint64_t s = rng_derive(seed, key, stream);
  unsigned long ls = (unsigned long)(s ^ (s >> 32));
  return ls ? ls : 1;
}

gsl_rng *rng_new(uint64_t seed, const char *key, uint64_t stream) {
  gsl_rng *r = gsl_rng_alloc(gsl_rng_taus2);
  gsl_rng_set(r, rng_seed_of(seed, key, stream));
  return r;
}

gsl_rng *rng_init(rng_slot *slot, uint64_t seed, const char *key, uint64_t stream) {
  g_assert(gsl_rng_taus2->size <= sizeof slot->state);
  slot->r.type = gsl_rng_taus2;
  slot->r.state = slot->state;
  gsl_rng_set(&slot->r, rng_seed_of(seed, key, stream));
  return &slot->r;
}

double rng_exponential_gsl(gsl_rng *r, double mean) { return gsl_ran_exponential(r, mean); }
