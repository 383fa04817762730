/* warm.h: where gpu_end's fixed point of speeds and duties (sim.c) starts. A shared card's
 * residents come back to the same inputs again and again (a notebook's burst starts and
 * ends beside the same services), so each card remembers the fixed points of its last few
 * inputs and the rounds start from the one of the same inputs, not from the duties the
 * change left: one or two rounds instead of five to fifteen. Only where the rounds start
 * moves: they run to the same tolerance (SIM_DUTY_TOLERANCE) as from a cold start.
 * docs/internals.md, "The fixed point's warm start"; run --reference-only=warm starts
 * cold. */
#pragma once
#include "cluster.h"

/* Cards with more residents than this start cold. */
#define WARM_RESIDENTS 4
/* Inputs remembered per card. */
#define WARM_WAYS 4

typedef struct warm warm;

/* What a card's fixed point starts from: its residents (trace rows) and, for each, the
 * inputs of its duty that do not follow the speeds (a rate-free duty, its SM demand). */
typedef struct warm_key {
  guint32 n;
  guint32 row[WARM_RESIDENTS];
  double in[WARM_RESIDENTS][2];
} warm_key;

warm *warm_new(void);
void warm_free(warm *w);
/* The key of g's residents now (before the rounds); FALSE when g starts cold (more
 * than WARM_RESIDENTS residents, or none whose duty follows its speed). */
gboolean warm_key_of(const gpu_state *g, warm_key *k);
/* Sets the duties that follow the speeds to those of g's last fixed point with key k;
 * FALSE (and nothing set) when g has none. */
gboolean warm_start(warm *w, const gpu_state *g, const warm_key *k);
/* Remembers g's duties now as the fixed point of key k. */
void warm_store(warm *w, const gpu_state *g, const warm_key *k);
