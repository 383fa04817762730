/* pqueue.c: the (time, sequence) min-heap under the event engine. A 4-ary heap of 16-byte
 * keys (time; sequence number and payload slot in one word), each node's four children in
 * one cache line, the payloads (handler, object, argument) in slots that do not move. A pop
 * moves the hole at the root down to a leaf along the least children (selects, not
 * branches) and lifts the last key up from there. Cancellation is not its business (the
 * engine cancels lazily). */
#include "pqueue.h"
#include <stdlib.h>
#include <string.h>

#define SLOT_MASK ((UINT64_C(1) << PQUEUE_SLOT_BITS) - 1)

/* (time, tag) as one unsigned 128-bit number: times are >= 0 (engine_at asserts t >= now)
 * and tags order as their sequence numbers (distinct), so this is the (time, seq) order,
 * compared in two instructions without a branch. */
static inline unsigned __int128 rank(const pq_key *a) {
  return ((unsigned __int128)(uint64_t)a->time << 64) | a->tag;
}

static inline gboolean less(const pq_key *a, const pq_key *b) { return rank(a) < rank(b); }

void pqueue_init(pqueue *q) { memset(q, 0, sizeof *q); }

void pqueue_clear(pqueue *q) {
  free(q->keys_mem);
  g_free(q->slots);
  memset(q, 0, sizeof *q);
}

/* keys[1] on a 64-byte boundary: keys[4i+1 .. 4i+4] (a node's children) share a line. */
static void keys_grow(pqueue *q) {
  size_t cap = q->cap ? q->cap * 2 : 256;
  void *mem = NULL;
  if (posix_memalign(&mem, 64, (cap + 3) * sizeof(pq_key)) != 0) g_error("out of memory");
  pq_key *keys = (pq_key *)mem + 3;
  if (q->len) memcpy(keys, q->keys, q->len * sizeof *keys);
  free(q->keys_mem);
  q->keys_mem = mem;
  q->keys = keys;
  q->cap = cap;
}

static uint64_t slot_take(pqueue *q) {
  if (q->free_slot) {
    uint64_t s = q->free_slot - 1;
    q->free_slot = q->slots[s].arg;
    return s;
  }
  if (q->n_slots == q->slots_cap) {
    if (q->n_slots > SLOT_MASK) g_error("event heap: more than %" G_GUINT64_FORMAT " pending events",
                                        (guint64)SLOT_MASK + 1);
    q->slots_cap = q->slots_cap ? q->slots_cap * 2 : 256;
    q->slots = g_renew(pq_payload, q->slots, q->slots_cap);
  }
  return q->n_slots++;
}

/* Puts k at the hole i, moving every greater parent down into it. */
static inline void sift_up(pq_key *keys, size_t i, pq_key k) {
  while (i > 0) {
    size_t parent = (i - 1) / 4;
    if (!less(&k, &keys[parent])) break;
    keys[i] = keys[parent];
    i = parent;
  }
  keys[i] = k;
}

void pqueue_push(pqueue *q, const pq_item *item) {
  if (item->seq >> (64 - PQUEUE_SLOT_BITS)) g_error("event heap: sequence number overflow");
  if (q->len == q->cap) keys_grow(q);
  uint64_t s = slot_take(q);
  q->slots[s] = (pq_payload){.handler = item->handler, .obj = item->obj, .arg = item->arg};
  pq_key k = {.time = item->time, .tag = item->seq << PQUEUE_SLOT_BITS | s};
  sift_up(q->keys, q->len++, k);
}

/* The least of keys[c .. c + k - 1], 1 <= k <= 4. */
static inline size_t least_of(const pq_key *keys, size_t c, size_t k) {
  if (k == 4) {
    size_t a = c + less(&keys[c + 1], &keys[c]);
    size_t b = c + 2 + less(&keys[c + 3], &keys[c + 2]);
    return less(&keys[b], &keys[a]) ? b : a;
  }
  size_t m = c;
  for (size_t x = c + 1; x < c + k; x++) m = less(&keys[x], &keys[m]) ? x : m;
  return m;
}

gboolean pqueue_pop(pqueue *q, pq_item *out) {
  if (q->len == 0) return FALSE;
  pq_key *keys = q->keys;
  uint64_t s = keys[0].tag & SLOT_MASK;
  const pq_payload *p = &q->slots[s];
  *out = (pq_item){.time = keys[0].time, .seq = keys[0].tag >> PQUEUE_SLOT_BITS,
                   .handler = p->handler, .obj = p->obj, .arg = p->arg};
  q->slots[s].arg = q->free_slot;
  q->free_slot = s + 1;
  size_t n = --q->len;
  if (n == 0) return TRUE;
  /* the hole goes down to a leaf; the last key (keys[n], now outside the heap) is lifted
   * from there. Keys are distinct, so pops come in key order whatever the layout. */
  size_t i = 0;
  for (size_t c; (c = 4 * i + 1) < n;) {
    /* the children's children, four lines from keys[4c + 1]: fetched while the least child
     * is found (a hint, no access: the address may lie past the heap) */
    uintptr_t g = (uintptr_t)(keys + 4 * c + 1);
    for (int line = 0; line < 4; line++) __builtin_prefetch((const void *)(g + 64 * line));
    size_t m = least_of(keys, c, n - c < 4 ? n - c : 4);
    keys[i] = keys[m];
    i = m;
  }
  sift_up(keys, i, keys[n]);
  return TRUE;
}

const void *pqueue_second_obj(const pqueue *q) {
  if (q->len < 2) return NULL;
  size_t m = least_of(q->keys, 1, q->len - 1 < 4 ? q->len - 1 : 4);
  return q->slots[q->keys[m].tag & SLOT_MASK].obj;
}
