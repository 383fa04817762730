/* engine.c: the clock, the event heap and lazy cancellation. Event ids are the
 * sequence numbers; a cancelled id sets its bit in a bitset on the sequence numbers, and
 * its heap entry is dropped when it reaches the top. The bitset is kept in chunks of
 * ENGINE_CHUNK_SEQS ids, each freed once no entry of its ids is left in the heap. Owns
 * nothing of the model. */
#include "engine.h"
#include "pqueue.h"
#include <string.h>

/* The heap is compacted (its cancelled entries dropped at once) when they are more than
 * this many and more than the live ones: a job that restarts a million times leaves a
 * cancelled end of work per attempt, which would otherwise hold memory and, moved between
 * buckets at each new least key, time in proportion to the restarts so far (issue 29,
 * S3-04). Amortised O(1) a cancellation; the order of the live entries is unchanged. */
#define ENGINE_COMPACT_MIN 256u

/* Ids per chunk of the cancellation bitset (a power of two): 512 bytes of bits. */
#define ENGINE_CHUNK_SHIFT 12
#define ENGINE_CHUNK_SEQS (UINT64_C(1) << ENGINE_CHUNK_SHIFT)

typedef struct engine_chunk {
  guint64 pending;                           /* heap entries with an id in this chunk */
  guint64 bits[ENGINE_CHUNK_SEQS / 64];      /* cancelled ids */
} engine_chunk;

struct engine {
  void *ctx;
  sim_time now;
  uint64_t next_seq;
  uint64_t events_run;
  pqueue heap;
  engine_chunk **chunks;     /* by id >> ENGINE_CHUNK_SHIFT; NULL once drained */
  size_t n_chunks;
  engine_chunk *spare;       /* a drained chunk kept for the next one */
  engine_prefetch_fn prefetch;
  uint64_t max_pending;      /* engine_at refuses at this many pending entries */
  size_t n_cancelled;        /* heap entries cancelled (dropped when they reach the top) */
  gboolean full;             /* engine_at refused: nothing more runs */
};
G_STATIC_ASSERT(ENGINE_MAX_PENDING == UINT64_C(1) << PQUEUE_SLOT_BITS);

void engine_use_reference_queue(engine *e) {
  g_assert(pqueue_len(&e->heap) == 0);
  pqueue_clear(&e->heap);
  pqueue_init_reference(&e->heap);
}

engine *engine_new(void *ctx) {
  engine *e = g_new0(engine, 1);
  e->ctx = ctx;
  e->next_seq = 1;
  e->max_pending = ENGINE_MAX_PENDING;
  pqueue_init(&e->heap);
  return e;
}

void engine_free(engine *e) {
  if (!e) return;
  pqueue_clear(&e->heap);
  for (size_t c = 0; c < e->n_chunks; c++) g_free(e->chunks[c]);
  g_free(e->chunks);
  g_free(e->spare);
  g_free(e);
}

sim_time engine_now(const engine *e) { return e->now; }
const sim_time *engine_clock(const engine *e) { return &e->now; }

static void engine_chunk_drop(engine *e, size_t c) {
  engine_chunk *k = e->chunks[c];
  e->chunks[c] = NULL;
  if (e->spare) g_free(k);
  else e->spare = k;
}

/* The chunk of a new id: created (zeroed) on the first id of a chunk, when the chunk
 * before it is dropped if nothing of it is left in the heap. */
static engine_chunk *engine_chunk_for_push(engine *e, uint64_t seq) {
  size_t c = (size_t)(seq >> ENGINE_CHUNK_SHIFT);
  if (G_LIKELY(c < e->n_chunks && e->chunks[c])) return e->chunks[c];
  if (c >= e->n_chunks) {
    size_t n = e->n_chunks ? e->n_chunks * 2 : 64;
    while (n <= c) n *= 2;
    e->chunks = g_renew(engine_chunk *, e->chunks, n);
    memset(e->chunks + e->n_chunks, 0, (n - e->n_chunks) * sizeof *e->chunks);
    e->n_chunks = n;
  }
  engine_chunk *k = e->spare ? e->spare : g_new(engine_chunk, 1);
  e->spare = NULL;
  memset(k, 0, sizeof *k);
  e->chunks[c] = k;
  if (c > 0 && e->chunks[c - 1] && e->chunks[c - 1]->pending == 0) engine_chunk_drop(e, c - 1);
  return k;
}

void engine_limit_pending(engine *e, uint64_t max_pending) {
  e->max_pending = MIN(max_pending, ENGINE_MAX_PENDING);
}

gboolean engine_full(const engine *e) { return e->full; }

static gboolean engine_is_cancelled(const engine *e, uint64_t seq);
static gboolean engine_settle_top(engine *e, uint64_t seq);

/* pqueue_filter's test: a cancelled entry leaves the heap (its chunk's count with it). */
static gboolean engine_drop_cancelled(void *ctx, uint64_t seq) {
  engine *e = ctx;
  if (!engine_is_cancelled(e, seq)) return FALSE;
  engine_settle_top(e, seq);
  return TRUE;
}

static G_NO_INLINE void engine_compact(engine *e) {
  pqueue_filter(&e->heap, engine_drop_cancelled, e);
}

event_id engine_at(engine *e, sim_time t, engine_handler handler, void *obj, uint64_t arg) {
  g_assert(t >= e->now);
  if (G_UNLIKELY(e->n_cancelled > ENGINE_COMPACT_MIN &&
                 2 * e->n_cancelled > pqueue_len(&e->heap)))
    engine_compact(e);
  if (G_UNLIKELY(pqueue_len(&e->heap) >= e->max_pending ||
                 e->next_seq >> (64 - PQUEUE_SLOT_BITS))) {
    e->full = TRUE;
    return 0;
  }
  pq_item it = {.time = t, .seq = e->next_seq++, .handler = handler, .obj = obj, .arg = arg};
  engine_chunk_for_push(e, it.seq)->pending++;
  pqueue_push(&e->heap, &it);
  return it.seq;
}

void engine_cancel_id(engine *e, event_id id) {
  if (id == 0 || id >= e->next_seq) return;
  /* an id whose chunk is gone ran long ago; one that ran since sets a bit never read */
  engine_chunk *k = e->chunks[id >> ENGINE_CHUNK_SHIFT];
  if (!k) return;
  guint64 *w = &k->bits[(id & (ENGINE_CHUNK_SEQS - 1)) >> 6], bit = UINT64_C(1) << (id & 63);
  if (*w & bit) return; /* cancelled already, or it left the heap (engine_settle_top) */
  *w |= bit;
  e->n_cancelled++;
}

/* The top entry leaves the heap: TRUE if it was cancelled. Drops its chunk when it was the
 * chunk's last entry and no id of the chunk is still to come. */
static gboolean engine_settle_top(engine *e, uint64_t seq) {
  size_t c = (size_t)(seq >> ENGINE_CHUNK_SHIFT);
  engine_chunk *k = e->chunks[c];
  guint64 *w = &k->bits[(seq & (ENGINE_CHUNK_SEQS - 1)) >> 6], bit = UINT64_C(1) << (seq & 63);
  gboolean cancelled = (*w & bit) != 0;
  if (cancelled) e->n_cancelled--;
  *w |= bit; /* it left the heap: a cancellation from now on is a no-op */
  if (--k->pending == 0 && c < (size_t)(e->next_seq >> ENGINE_CHUNK_SHIFT))
    engine_chunk_drop(e, c);
  return cancelled;
}

/* Is the id of an entry still in the heap cancelled? (its chunk is there) */
static inline gboolean engine_is_cancelled(const engine *e, uint64_t seq) {
  const engine_chunk *k = e->chunks[seq >> ENGINE_CHUNK_SHIFT];
  return (k->bits[(seq & (ENGINE_CHUNK_SEQS - 1)) >> 6] >> (seq & 63)) & 1;
}

/* Drops cancelled entries from the top; returns the top live item or NULL. */
static gboolean top_live(engine *e) {
  while (pqueue_len(&e->heap)) {
    uint64_t seq = pqueue_top_seq(&e->heap);
    if (!engine_is_cancelled(e, seq)) return TRUE;
    engine_settle_top(e, seq);
    pq_item dropped;
    pqueue_pop(&e->heap, &dropped);
  }
  return FALSE;
}

/* A hint while an event runs, no effect on the order: the simulator's prefetch reads the
 * next event's object for what its handler will follow from it. */
static inline void engine_fetch_ahead(engine *e) {
  const pqueue *q = &e->heap;
  /* not for a cancelled event: its object may be gone */
  if (e->prefetch && pqueue_len(q) && !engine_is_cancelled(e, pqueue_top_seq(q))) {
    const pq_payload *p = pqueue_top_payload(q);
    e->prefetch(p->obj, p->handler);
  }
}

void engine_set_prefetch(engine *e, engine_prefetch_fn fn) { e->prefetch = fn; }

gboolean engine_step(engine *e) {
  if (G_UNLIKELY(e->full)) return FALSE;
  pq_item it;
  /* the top leaves the heap; a cancelled one is dropped (top_live's work, one bit test) */
  do {
    if (!pqueue_pop(&e->heap, &it)) return FALSE;
  } while (engine_settle_top(e, it.seq));
  engine_fetch_ahead(e);
  g_assert(it.time >= e->now); /* time never runs backwards */
  e->now = it.time;
  e->events_run++;
  it.handler(e->ctx, it.obj, it.arg);
  return TRUE;
}

void engine_run_until(engine *e, sim_time limit) {
  while (!e->full && top_live(e) && pqueue_top_time(&e->heap) <= limit) engine_step(e);
  if (limit > e->now) e->now = limit;
}

sim_time engine_next_time(engine *e) {
  return top_live(e) ? pqueue_top_time(&e->heap) : SIM_TIME_NEVER;
}

uint64_t engine_events_run(const engine *e) { return e->events_run; }
size_t engine_pending(const engine *e) { return pqueue_len(&e->heap); }
