/* pqueue.c: the (time, sequence) min-heap under the event engine, a radix heap on the
 * 128-bit key (time; sequence number and payload slot in one word) with digits of
 * PQUEUE_DIGIT_BITS bits: keys never go below the last one popped, so each key sits in the
 * bucket of the highest digit where it differs from the least key and its value there, and
 * only moves down, to lower buckets, when the least key moves. Keys pushed below the
 * buckets' least one in increasing order (the current instant's events while the buckets hold
 * later ones) wait in a sorted run: they would otherwise pull every refined key back up into
 * one bucket, once per push. The payloads (handler, object, argument) stay in slots that do
 * not move. Cancellation is the engine's. */
#include "pqueue.h"
#include <stdlib.h>
#include <string.h>

#define SLOT_MASK ((UINT64_C(1) << PQUEUE_SLOT_BITS) - 1)
G_STATIC_ASSERT(64 % PQUEUE_DIGIT_BITS == 0 && PQUEUE_MASK_WORDS <= 64);

/* (time, tag) as one unsigned 128-bit number: times are >= 0 (asserted at the push) and
 * tags order as their sequence numbers (distinct), so this is the (time, seq) order. */
static inline unsigned __int128 rank(const pq_key *a) {
  return ((unsigned __int128)(uint64_t)a->time << 64) | a->tag;
}

static inline gboolean less(const pq_key *a, const pq_key *b) { return rank(a) < rank(b); }

/* The bucket of k against the least key `top` (k != top): its highest digit that differs
 * from top's, and its value of that digit (digits do not straddle the two words). */
static inline unsigned bucket_of(const pq_key *k, const pq_key *top) {
  uint64_t hi = (uint64_t)k->time ^ (uint64_t)top->time;
  uint64_t x = hi ? hi : k->tag ^ top->tag;
  uint64_t word = hi ? (uint64_t)k->time : k->tag;
  unsigned base = hi ? 64u : 0u;
  unsigned off = (63u - (unsigned)__builtin_clzll(x)) & ~(PQUEUE_DIGIT_BITS - 1u);
  unsigned v = (unsigned)(word >> off) & (PQUEUE_DIGIT_VALUES - 1u);
  return (base + off) / PQUEUE_DIGIT_BITS * PQUEUE_DIGIT_VALUES + v;
}

void pqueue_init(pqueue *q) { memset(q, 0, sizeof *q); }

void pqueue_init_reference(pqueue *q) {
  memset(q, 0, sizeof *q);
  q->bin_cap = 256;
  q->bin = g_new(pq_key, q->bin_cap);
}

void pqueue_clear(pqueue *q) {
  for (unsigned i = 0; i < PQUEUE_BUCKETS; i++) g_free(q->b[i].keys);
  g_free(q->slots);
  g_free(q->bin);
  g_free(q->run);
  memset(q, 0, sizeof *q);
}

/* ---- the reference: a binary min-heap of the keys but the top (len - 1 of them) ---- */

static G_NO_INLINE void bin_push(pqueue *q, pq_key k) {
  size_t i = q->len - 2; /* the new key's place: len counts it and the top already */
  if (i == q->bin_cap) {
    q->bin_cap *= 2;
    q->bin = g_renew(pq_key, q->bin, q->bin_cap);
  }
  while (i > 0 && less(&k, &q->bin[(i - 1) / 2])) {
    q->bin[i] = q->bin[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  q->bin[i] = k;
}

/* The heap's least key becomes the top (len - 1 keys were in the heap, len already the new count). */
static G_NO_INLINE void bin_next_top(pqueue *q) {
  pq_key *h = q->bin;
  size_t n = q->len - 1; /* the heap's keys once its least is the top */
  q->top = h[0];
  pq_key last = h[n];
  size_t i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && less(&h[c + 1], &h[c])) c++;
    if (!less(&h[c], &last)) break;
    h[i] = h[c];
    i = c;
  }
  h[i] = last;
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

static G_NO_INLINE void bucket_grow(pq_bucket *b, uint32_t need) {
  uint32_t cap = b->cap ? b->cap : 16;
  while (cap < need) cap *= 2;
  b->keys = g_renew(pq_key, b->keys, cap);
  b->cap = cap;
}

/* An emptied bucket keeps at most this many keys' room: the buckets of the high digits
 * each fill once as the clock passes their range (thousands of keys, 256 such buckets a
 * digit), and room kept for all of them would hold the peak memory at megabytes. */
#define BUCKET_KEEP 256u

static inline void bucket_emptied(pq_bucket *b) {
  b->len = 0;
  if (G_UNLIKELY(b->cap > BUCKET_KEEP)) {
    g_free(b->keys);
    b->keys = NULL;
    b->cap = 0;
  }
}

static inline void mark(pqueue *q, unsigned i) {
  q->nonempty[i >> 6] |= UINT64_C(1) << (i & 63);
  q->summary |= UINT64_C(1) << (i >> 6);
}

static inline void unmark(pqueue *q, unsigned i) {
  uint64_t w = q->nonempty[i >> 6] &= ~(UINT64_C(1) << (i & 63));
  if (!w) q->summary &= ~(UINT64_C(1) << (i >> 6));
}

static inline void bucket_add(pqueue *q, unsigned i, pq_key k) {
  pq_bucket *b = &q->b[i];
  if (G_UNLIKELY(b->len == b->cap)) bucket_grow(b, b->len + 1);
  b->keys[b->len++] = k;
  mark(q, i);
}

/* The lowest bucket with keys (there is one: len > 0 besides the top). */
static inline unsigned lowest_bucket(const pqueue *q) {
  unsigned w = (unsigned)__builtin_ctzll(q->summary);
  return w * 64u + (unsigned)__builtin_ctzll(q->nonempty[w]);
}

/* A key below the buckets' least one (rtop) becomes it. With h its bucket against the old least
 * (their highest differing digit, the old least's value there), every key of a bucket
 * below h (and the old least) differs from it first at that digit with the old least's
 * value: they all go to bucket h, which was empty (a key of it would be below the old
 * least); the buckets above h stay as they are. */
static G_NO_INLINE void new_least(pqueue *q, pq_key k) {
  g_assert(less(&q->popped, &k)); /* monotone */
  unsigned h = bucket_of(&q->rtop, &k);
  pq_bucket *to = &q->b[h];
  bucket_add(q, h, q->rtop);
  while (q->summary) {
    unsigned i = lowest_bucket(q);
    if (i >= h) break;
    pq_bucket *b = &q->b[i];
    if (to->cap < to->len + b->len) bucket_grow(to, to->len + b->len);
    memcpy(to->keys + to->len, b->keys, b->len * sizeof *b->keys);
    to->len += b->len;
    bucket_emptied(b);
    unmark(q, i);
  }
  q->rtop = k;
}

/* Appends k to the sorted run (k above its last key). */
static void run_append(pqueue *q, pq_key k) {
  if (q->run_head + q->run_len == q->run_cap) {
    if (q->run_head > q->run_cap / 2) { /* the front half is spent: slide back */
      memmove(q->run, q->run + q->run_head, q->run_len * sizeof *q->run);
      q->run_head = 0;
    } else {
      q->run_cap = q->run_cap ? q->run_cap * 2 : 64;
      q->run = g_renew(pq_key, q->run, q->run_cap);
    }
  }
  q->run[q->run_head + q->run_len++] = k;
}

/* The least of the run's first key and rtop becomes the top (len > 0). */
static inline void choose_top(pqueue *q) {
  if (q->run_len && (q->r_len == 0 || less(&q->run[q->run_head], &q->rtop)))
    q->top = q->run[q->run_head];
  else q->top = q->rtop;
}

/* A key into the radix part or the run: with no radix part it becomes rtop; above rtop it
 * goes to a bucket; below it onto the run when above the run's last key (the common case:
 * events of the current instant, pushed in sequence order); else it becomes rtop. */
static inline void radix_push(pqueue *q, pq_key k) {
  if (q->r_len == 0) {
    q->rtop = k;
  } else if (G_LIKELY(less(&q->rtop, &k))) {
    bucket_add(q, bucket_of(&k, &q->rtop), k);
  } else if (q->run_len == 0 || less(&q->run[q->run_head + q->run_len - 1], &k)) {
    run_append(q, k);
    return;
  } else {
    new_least(q, k);
  }
  q->r_len++;
}

void pqueue_push(pqueue *q, const pq_item *item) {
  if (item->seq >> (64 - PQUEUE_SLOT_BITS)) g_error("event heap: sequence number overflow");
  g_assert(item->time >= 0);
  uint64_t s = slot_take(q);
  q->slots[s] = (pq_payload){.handler = item->handler, .obj = item->obj, .arg = item->arg};
  pq_key k = {.time = item->time, .tag = item->seq << PQUEUE_SLOT_BITS | s};
  if (G_UNLIKELY(q->bin != NULL)) {
    if (q->len++ == 0) {
      q->top = k;
      return;
    }
    g_assert(less(&q->popped, &k)); /* monotone, as the radix heap asks */
    if (less(&k, &q->top)) {
      pq_key old = q->top;
      q->top = k;
      k = old;
    }
    bin_push(q, k);
    return;
  }
  radix_push(q, k);
  if (q->len++ == 0 || less(&k, &q->top)) q->top = k;
}

/* pqueue_filter's sieve: the n keys of all that drop(ctx, seq) keeps move to its front, in
 * their order, and the dropped ones' slots are freed; *least is the kept keys' least
 * (index). Returns how many are kept. */
static size_t keys_sieve(pqueue *q, pq_key *all, size_t n,
                         gboolean (*drop)(void *ctx, uint64_t seq), void *ctx, size_t *least) {
  size_t kept = 0, m = 0;
  for (size_t x = 0; x < n; x++) {
    uint64_t s = all[x].tag & SLOT_MASK;
    if (drop(ctx, all[x].tag >> PQUEUE_SLOT_BITS)) {
      q->slots[s].arg = q->free_slot;
      q->free_slot = s + 1;
      continue;
    }
    all[kept] = all[x];
    if (less(&all[kept], &all[m])) m = kept;
    kept++;
  }
  *least = m;
  return kept;
}

/* pqueue_filter on the reference: the kept keys' least becomes the top, the others are
 * pushed again into an emptied binary heap. */
static size_t bin_filter(pqueue *q, gboolean (*drop)(void *ctx, uint64_t seq), void *ctx) {
  size_t n = q->len;
  pq_key *all = g_new(pq_key, n);
  all[0] = q->top;
  memcpy(all + 1, q->bin, (n - 1) * sizeof *all);
  size_t m, kept = keys_sieve(q, all, n, drop, ctx, &m);
  q->len = 0;
  if (kept) {
    q->top = all[m];
    q->len = 1;
    for (size_t x = 0; x < kept; x++)
      if (x != m) {
        q->len++;
        bin_push(q, all[x]);
      }
  }
  g_free(all);
  return n - kept;
}

size_t pqueue_filter(pqueue *q, gboolean (*drop)(void *ctx, uint64_t seq), void *ctx) {
  if (!q->len) return 0;
  if (G_UNLIKELY(q->bin != NULL)) return bin_filter(q, drop, ctx);
  pq_key *all = g_new(pq_key, q->len);
  size_t n = 0;
  if (q->r_len) all[n++] = q->rtop;
  for (unsigned i = 0; i < PQUEUE_BUCKETS; i++) {
    pq_bucket *b = &q->b[i];
    if (b->len) memcpy(all + n, b->keys, b->len * sizeof *b->keys); /* keys NULL when empty */
    n += b->len;
    bucket_emptied(b);
  }
  if (q->run_len) memcpy(all + n, q->run + q->run_head, q->run_len * sizeof *q->run);
  n += q->run_len;
  q->run_head = q->run_len = 0;
  memset(q->nonempty, 0, sizeof q->nonempty);
  q->summary = 0;
  size_t m, kept = keys_sieve(q, all, n, drop, ctx, &m);
  q->len = q->r_len = kept;
  if (kept) {
    q->top = q->rtop = all[m];
    for (size_t x = 0; x < kept; x++)
      if (x != m) bucket_add(q, bucket_of(&all[x], &q->rtop), all[x]);
  }
  g_free(all);
  return n - kept;
}

/* The least key of the lowest bucket becomes rtop; the bucket's other keys go to lower
 * buckets (they agree with the new rtop down to the bucket's digit, included). */
static void next_top(pqueue *q) {
  unsigned i = lowest_bucket(q);
  pq_bucket *b = &q->b[i];
  pq_key *keys = b->keys;
  uint32_t n = b->len, m = 0;
  for (uint32_t x = 1; x < n; x++) m = less(&keys[x], &keys[m]) ? x : m;
  pq_key top = keys[m];
  q->rtop = top;
  unmark(q, i);
  for (uint32_t x = 0; x < n; x++)
    if (x != m) bucket_add(q, bucket_of(&keys[x], &top), keys[x]);
  bucket_emptied(b);
}

gboolean pqueue_pop(pqueue *q, pq_item *out) {
  if (q->len == 0) return FALSE;
  uint64_t s = q->top.tag & SLOT_MASK;
  const pq_payload *p = &q->slots[s];
  *out = (pq_item){.time = q->top.time, .seq = q->top.tag >> PQUEUE_SLOT_BITS,
                   .handler = p->handler, .obj = p->obj, .arg = p->arg};
  q->slots[s].arg = q->free_slot;
  q->free_slot = s + 1;
  q->popped = q->top;
  q->len--;
  if (G_UNLIKELY(q->bin != NULL)) {
    if (q->len) bin_next_top(q);
    return TRUE;
  }
  if (q->run_len && q->run[q->run_head].tag == q->top.tag) {
    q->run_head = --q->run_len ? q->run_head + 1 : 0;
  } else if (--q->r_len) {
    next_top(q);
  }
  if (q->len) choose_top(q);
  return TRUE;
}
