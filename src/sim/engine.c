/* engine.c: the clock, the event heap and lazy cancellation. Event ids are the
 * sequence numbers; a cancelled id goes into a set and its heap entry is dropped when it
 * reaches the top. Owns nothing of the model. */
#include "engine.h"
#include "pqueue.h"

struct engine {
  void *ctx;
  sim_time now;
  uint64_t next_seq;
  uint64_t events_run;
  pqueue heap;
  GHashTable *cancelled; /* seq -> seq (uint64 keys boxed in the pointer: 64-bit only) */
};

G_STATIC_ASSERT(sizeof(gpointer) >= sizeof(uint64_t));

engine *engine_new(void *ctx) {
  engine *e = g_new0(engine, 1);
  e->ctx = ctx;
  e->next_seq = 1;
  pqueue_init(&e->heap);
  e->cancelled = g_hash_table_new(g_direct_hash, g_direct_equal);
  return e;
}

void engine_free(engine *e) {
  if (!e) return;
  pqueue_clear(&e->heap);
  g_hash_table_destroy(e->cancelled);
  g_free(e);
}

sim_time engine_now(const engine *e) { return e->now; }

event_id engine_at(engine *e, sim_time t, engine_handler handler, void *obj, uint64_t arg) {
  g_assert(t >= e->now);
  pq_item it = {.time = t, .seq = e->next_seq++, .handler = handler, .obj = obj, .arg = arg};
  pqueue_push(&e->heap, &it);
  return it.seq;
}

void engine_cancel(engine *e, event_id id) {
  if (id == 0 || id >= e->next_seq) return;
  g_hash_table_add(e->cancelled, (gpointer)(uintptr_t)id);
}

/* Drops cancelled entries from the top; returns the top live item or NULL. */
static const pq_item *top_live(engine *e) {
  const pq_item *top;
  while ((top = pqueue_peek(&e->heap))) {
    if (g_hash_table_size(e->cancelled) == 0 ||
        !g_hash_table_remove(e->cancelled, (gpointer)(uintptr_t)top->seq))
      return top;
    pq_item dropped;
    pqueue_pop(&e->heap, &dropped);
  }
  return NULL;
}

gboolean engine_step(engine *e) {
  if (!top_live(e)) return FALSE;
  pq_item it;
  pqueue_pop(&e->heap, &it);
  g_assert(it.time >= e->now); /* time never runs backwards */
  e->now = it.time;
  e->events_run++;
  it.handler(e->ctx, it.obj, it.arg);
  return TRUE;
}

void engine_run_until(engine *e, sim_time limit) {
  const pq_item *top;
  while ((top = top_live(e)) && top->time <= limit) engine_step(e);
  if (limit > e->now) e->now = limit;
}

sim_time engine_next_time(engine *e) {
  const pq_item *top = top_live(e);
  return top ? top->time : SIM_TIME_NEVER;
}

uint64_t engine_events_run(const engine *e) { return e->events_run; }
size_t engine_pending(const engine *e) { return pqueue_len(&e->heap); }
