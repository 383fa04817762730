/* pqueue.h: a binary min-heap of events keyed by (time, sequence). Ties in time run in
 * sequence order (first scheduled, first run), which makes runs reproducible. Knows
 * nothing of GPUs or jobs: the payload is an opaque handler, object and argument. */
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

typedef struct pqueue {
  pq_item *items;
  size_t len, cap;
} pqueue;

void pqueue_init(pqueue *q);
void pqueue_clear(pqueue *q);
void pqueue_push(pqueue *q, const pq_item *item);
/* Removes the least item into *out; FALSE when empty. */
gboolean pqueue_pop(pqueue *q, pq_item *out);
/* The least item without removing it; NULL when empty. */
const pq_item *pqueue_peek(const pqueue *q);
static inline size_t pqueue_len(const pqueue *q) { return q->len; }
