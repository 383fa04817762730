/* pqueue.c: the (time, sequence) min-heap under the event engine. A plain array heap;
 * cancellation is not its business (the engine cancels lazily). */
#include "pqueue.h"
#include <string.h>

static inline gboolean less(const pq_item *a, const pq_item *b) {
  return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

void pqueue_init(pqueue *q) { memset(q, 0, sizeof *q); }

void pqueue_clear(pqueue *q) {
  g_free(q->items);
  memset(q, 0, sizeof *q);
}

void pqueue_push(pqueue *q, const pq_item *item) {
  if (q->len == q->cap) {
    q->cap = q->cap ? q->cap * 2 : 256;
    q->items = g_renew(pq_item, q->items, q->cap);
  }
  size_t i = q->len++;
  while (i > 0) {
    size_t parent = (i - 1) / 2;
    if (!less(item, &q->items[parent])) break;
    q->items[i] = q->items[parent];
    i = parent;
  }
  q->items[i] = *item;
}

gboolean pqueue_pop(pqueue *q, pq_item *out) {
  if (q->len == 0) return FALSE;
  *out = q->items[0];
  pq_item last = q->items[--q->len];
  size_t i = 0, n = q->len;
  for (;;) {
    size_t l = 2 * i + 1;
    if (l >= n) break;
    size_t m = (l + 1 < n && less(&q->items[l + 1], &q->items[l])) ? l + 1 : l;
    if (!less(&q->items[m], &last)) break;
    q->items[i] = q->items[m];
    i = m;
  }
  if (n > 0) q->items[i] = last;
  return TRUE;
}

const pq_item *pqueue_peek(const pqueue *q) { return q->len ? &q->items[0] : NULL; }
