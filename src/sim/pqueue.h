/* pqueue.h: a monotone min-heap (a radix heap) of events keyed by (time, sequence). Ties in
 * time run in sequence order (first scheduled, first run), which makes runs reproducible.
 * Its reference (pqueue_init_reference; run --reference): a plain binary heap on the same
 * keys, the same order. Knows nothing of GPUs or jobs: the payload is an opaque handler,
 * object and argument. */
#pragma once
#include <glib.h>
#include <stdint.h>
#include "util.h"

typedef struct pq_item {
  sim_time time;
  uint64_t seq;
  void (*handler)(void *ctx, void *obj, uint64_t arg);
  void *obj;
  uint64_t arg;
} pq_item;

/* What the buckets hold: the time and, in one word, the sequence number (high bits) and
 * the slot of the payload (low PQUEUE_SLOT_BITS). */
#define PQUEUE_SLOT_BITS 24
typedef struct pq_key {
  sim_time time;
  uint64_t tag;
} pq_key;

typedef struct pq_payload {
  void (*handler)(void *ctx, void *obj, uint64_t arg);
  void *obj;
  uint64_t arg;
} pq_payload;

/* The radix heap's buckets: a key goes by the highest digit (PQUEUE_DIGIT_BITS bits) where
 * it differs from the buckets' least key (rtop), as 128-bit numbers (time, tag), and its own
 * value of that digit: bucket digit x PQUEUE_DIGIT_VALUES + value. A lower bucket holds lower
 * keys. Keys pushed below rtop in increasing order (events at the current instant while the
 * buckets hold later ones) queue in a sorted run instead of pulling the buckets up. */
#define PQUEUE_DIGIT_BITS 8
#define PQUEUE_DIGIT_VALUES (1u << PQUEUE_DIGIT_BITS)
#define PQUEUE_BUCKETS (128u / PQUEUE_DIGIT_BITS * PQUEUE_DIGIT_VALUES)
#define PQUEUE_MASK_WORDS (PQUEUE_BUCKETS / 64u)
typedef struct pq_bucket {
  pq_key *keys;
  uint32_t len, cap;
} pq_bucket;

typedef struct pqueue {
  pq_key top;            /* the least key (when len > 0): rtop or the run's first */
  pq_key rtop;           /* the buckets' least key (when r_len > 0); in no bucket */
  size_t r_len;          /* keys of the radix part, rtop included */
  pq_key *run;           /* keys below rtop, pushed in increasing order: run[run_head..] */
  size_t run_head, run_len, run_cap;
  pq_key popped;         /* the last key popped (keys pushed since must be above it) */
  size_t len;            /* keys held, the top included */
  uint64_t summary;      /* bit w: nonempty[w] is not 0 */
  uint64_t nonempty[PQUEUE_MASK_WORDS]; /* bit i % 64 of word i / 64: bucket i holds keys */
  pq_bucket b[PQUEUE_BUCKETS];
  pq_payload *slots;     /* by slot; a free slot's arg is the next free one + 1 */
  size_t n_slots, slots_cap;
  uint64_t free_slot;    /* first free slot + 1; 0: none */
  /* the reference: the keys but the top in a binary min-heap, no buckets (NULL: radix) */
  pq_key *bin;
  size_t bin_cap;
} pqueue;

void pqueue_init(pqueue *q);
/* The reference queue: the same calls and the same order, the keys in a binary heap. */
void pqueue_init_reference(pqueue *q);
void pqueue_clear(pqueue *q);
/* item->seq must be below 2^(64 - PQUEUE_SLOT_BITS) and the items held at once fewer than
 * 2^PQUEUE_SLOT_BITS (16,777,216): aborts otherwise. Keys are monotone: an item's (time,
 * seq) must be greater than the last popped item's (the engine's clock never goes back and
 * its sequence numbers grow; asserted). */
void pqueue_push(pqueue *q, const pq_item *item);
/* Drops every item whose sequence number drop(ctx, seq) says to (its slot is freed) and
 * rebuilds the buckets around the least item kept: O(items). The order of the items kept
 * is unchanged. Returns the number dropped. */
size_t pqueue_filter(pqueue *q, gboolean (*drop)(void *ctx, uint64_t seq), void *ctx);
/* Removes the least item into *out; FALSE when empty. */
gboolean pqueue_pop(pqueue *q, pq_item *out);
static inline size_t pqueue_len(const pqueue *q) { return q->len; }
/* The least item's time and sequence number (the queue must not be empty). */
static inline sim_time pqueue_top_time(const pqueue *q) { return q->top.time; }
static inline uint64_t pqueue_top_seq(const pqueue *q) { return q->top.tag >> PQUEUE_SLOT_BITS; }
/* The payload of the least item (the queue must not be empty). */
static inline const pq_payload *pqueue_top_payload(const pqueue *q) {
  return &q->slots[q->top.tag & ((UINT64_C(1) << PQUEUE_SLOT_BITS) - 1)];
}
