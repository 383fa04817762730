/* pqueue.h: a min-heap of events keyed by (time, sequence). Ties in time run in sequence
 * order (first scheduled, first run), which makes runs reproducible. Knows nothing of GPUs
 * or jobs: the payload is an opaque handler, object and argument. */
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

/* What the heap moves: the time and, in one word, the sequence number (high bits) and the
 * slot of the payload (low PQUEUE_SLOT_BITS). 16 bytes: a node's four children share one
 * cache line. */
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

typedef struct pqueue {
  pq_key *keys;          /* the 4-ary heap; keys[1] starts a cache line */
  void *keys_mem;        /* the allocation keys points into */
  size_t len, cap;
  pq_payload *slots;     /* by slot; a free slot's arg is the next free one + 1 */
  size_t n_slots, slots_cap;
  uint64_t free_slot;    /* first free slot + 1; 0: none */
} pqueue;

void pqueue_init(pqueue *q);
void pqueue_clear(pqueue *q);
/* item->seq must be below 2^(64 - PQUEUE_SLOT_BITS) and the items held at once fewer than
 * 2^PQUEUE_SLOT_BITS (16,777,216): aborts otherwise. */
void pqueue_push(pqueue *q, const pq_item *item);
/* Removes the least item into *out; FALSE when empty. */
gboolean pqueue_pop(pqueue *q, pq_item *out);
static inline size_t pqueue_len(const pqueue *q) { return q->len; }
/* The least item's time and sequence number (the queue must not be empty). */
static inline sim_time pqueue_top_time(const pqueue *q) { return q->keys[0].time; }
static inline uint64_t pqueue_top_seq(const pqueue *q) {
  return q->keys[0].tag >> PQUEUE_SLOT_BITS;
}
/* The payload of the least item (the queue must not be empty). */
static inline const pq_payload *pqueue_top_payload(const pqueue *q) {
  return &q->slots[q->keys[0].tag & ((UINT64_C(1) << PQUEUE_SLOT_BITS) - 1)];
}
/* The object of the second least item (the least child of the root), NULL with fewer than
 * two items: for fetching ahead. */
const void *pqueue_second_obj(const pqueue *q);
