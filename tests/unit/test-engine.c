/* test-engine.c: the event heap and the engine: ordering by (time, sequence), payloads, ties in
 * scheduling order, lazy cancellation, run-until. */
#include <criterion/criterion.h>
#include "engine.h"
#include "pqueue.h"

typedef struct { GArray *seen; } log_ctx;

static void record(void *ctx, void *obj, uint64_t arg) {
  log_ctx *l = ctx;
  g_array_append_val(l->seen, arg);
}

Test(engine, heap_orders_by_time_then_sequence) {
  pqueue q;
  pqueue_init(&q);
  sim_time times[] = {50, 10, 30, 10, 20, 10, 50, 0};
  for (guint i = 0; i < G_N_ELEMENTS(times); i++) {
    pq_item it = {.time = times[i], .seq = i + 1};
    pqueue_push(&q, &it);
  }
  sim_time last_t = -1;
  uint64_t last_seq = 0;
  pq_item it;
  guint n = 0;
  while (pqueue_pop(&q, &it)) {
    cr_assert(it.time > last_t || (it.time == last_t && it.seq > last_seq));
    last_t = it.time;
    last_seq = it.seq;
    n++;
  }
  cr_assert_eq(n, G_N_ELEMENTS(times));
  pqueue_clear(&q);
}

/* Pushes and pops interleaved (the heap grows to ~20,000 and shrinks, slots are reused):
 * every pop is the least (time, seq) still held, with its own handler, object and argument,
 * and every item pushed comes out once. */
static void other_handler(void *ctx, void *obj, uint64_t arg) {}

Test(engine, heap_interleaved_pops_are_least_with_their_payload) {
  pqueue q;
  pqueue_init(&q);
  GHashTable *held = g_hash_table_new(g_int64_hash, g_int64_equal); /* seq -> present */
  static gint64 seqs[60000];
  guint64 x = 0x2545f4914f6cdd1dULL, seq = 1, popped = 0, last_seq = 0;
  sim_time now = 0;
  for (int step = 0; step < 60000; step++) {
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    gboolean push = q.len == 0 || (step < 30000 ? x % 3 != 0 : x % 3 == 0);
    if (push) {
      seqs[seq - 1] = (gint64)seq;
      pq_item it = {.time = now + (sim_time)(x % 1000), .seq = seq,
                    .handler = (seq & 1) ? other_handler : record,
                    .obj = &seqs[seq - 1], .arg = seq * 7};
      pqueue_push(&q, &it);
      g_hash_table_add(held, &seqs[seq - 1]);
      seq++;
      continue;
    }
    pq_item it;
    cr_assert(pqueue_pop(&q, &it));
    /* pushes are at >= the last pop's time, so the least held comes out in increasing
     * (time, seq): a pop that skipped a lesser item would be followed by a smaller one */
    cr_assert(it.time > now || (it.time == now && it.seq > last_seq));
    last_seq = it.seq;
    cr_assert_eq(it.obj, &seqs[it.seq - 1], "payload of seq %lu", (unsigned long)it.seq);
    cr_assert_eq(it.arg, it.seq * 7);
    cr_assert(it.handler == ((it.seq & 1) ? other_handler : record));
    cr_assert(g_hash_table_remove(held, &seqs[it.seq - 1]));
    popped++;
    now = it.time;
  }
  cr_assert_eq(pqueue_len(&q), g_hash_table_size(held));
  cr_assert_eq(popped + pqueue_len(&q), seq - 1);
  /* the rest come out in (time, seq) order */
  pq_item it, prev = {.time = now, .seq = last_seq};
  while (pqueue_pop(&q, &it)) {
    cr_assert(it.time > prev.time || (it.time == prev.time && it.seq > prev.seq));
    cr_assert(g_hash_table_remove(held, &seqs[it.seq - 1]));
    prev = it;
  }
  cr_assert_eq(g_hash_table_size(held), 0);
  g_hash_table_unref(held);
  pqueue_clear(&q);
}

/* The radix heap against a plain sorted reference, on the engine's pattern: each push at
 * or after the last pop's time, delays from 0 (events at now: below the least key held,
 * the heap's new-least path) through nanoseconds to 2^50 ns (every digit of the time and
 * of the sequence numbers), the heap up to ~5,000 and down to empty again. Every pop must
 * be the reference's least (time, seq). */
/* Inserts it into ref, kept in descending (time, seq) order: the least is the last. */
static void ref_insert(GArray *ref, const pq_item *it) {
  guint lo = 0, hi = ref->len;
  while (lo < hi) {
    guint mid = (lo + hi) / 2;
    const pq_item *m = &g_array_index(ref, pq_item, mid);
    if (m->time > it->time || (m->time == it->time && m->seq > it->seq)) lo = mid + 1;
    else hi = mid;
  }
  g_array_insert_val(ref, lo, *it);
}

static void pops_as_a_sorted_list(gboolean reference) {
  pqueue q;
  if (reference) pqueue_init_reference(&q);
  else pqueue_init(&q);
  GArray *ref = g_array_new(FALSE, FALSE, sizeof(pq_item));
  guint64 x = 0x9e3779b97f4a7c15ULL, seq = 1;
  sim_time now = 0;
  for (int step = 0; step < 400000; step++) {
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    gboolean grow = (step / 50000) % 2 == 0;
    if (q.len == 0 || x % 7 < (grow ? 4u : 3u)) {
      unsigned shift = (unsigned)((x >> 8) % 51);
      guint64 bits = (x >> 20) & ((UINT64_C(1) << shift) - 1);
      sim_time delay = (x >> 16) % 4 == 0 ? 0 : (sim_time)bits;
      pq_item it = {.time = now + delay, .seq = seq++, .arg = seq};
      pqueue_push(&q, &it);
      ref_insert(ref, &it);
      continue;
    }
    pq_item want = g_array_index(ref, pq_item, ref->len - 1), got;
    g_array_set_size(ref, ref->len - 1);
    cr_assert(pqueue_pop(&q, &got));
    cr_assert(got.time == want.time && got.seq == want.seq && got.arg == want.arg,
              "step %d: popped (%" G_GINT64_FORMAT ", %" G_GUINT64_FORMAT "), least is (%"
              G_GINT64_FORMAT ", %" G_GUINT64_FORMAT ")", step, got.time, got.seq, want.time,
              want.seq);
    cr_assert_eq(pqueue_len(&q), ref->len);
    now = got.time;
  }
  g_array_unref(ref);
  pqueue_clear(&q);
}

Test(engine, radix_heap_pops_as_a_sorted_list_over_every_digit) { pops_as_a_sorted_list(FALSE); }

/* The reference queue (run --reference: a binary heap) on the same pattern. */
Test(engine, reference_heap_pops_as_a_sorted_list_over_every_digit) {
  pops_as_a_sorted_list(TRUE);
}

Test(engine, ties_run_in_scheduling_order_and_cancel_is_lazy) {
  log_ctx l = {.seen = g_array_new(FALSE, FALSE, sizeof(uint64_t))};
  engine *e = engine_new(&l);
  engine_at(e, 100, record, NULL, 1);
  event_id b = engine_at(e, 100, record, NULL, 2);
  engine_at(e, 100, record, NULL, 3);
  engine_at(e, 5, record, NULL, 0);
  engine_cancel(e, b);
  cr_assert_eq(engine_pending(e), 4, "cancelled event stays in the heap until popped");
  while (engine_step(e)) {}
  cr_assert_eq(l.seen->len, 3);
  cr_assert_eq(g_array_index(l.seen, uint64_t, 0), 0);
  cr_assert_eq(g_array_index(l.seen, uint64_t, 1), 1);
  cr_assert_eq(g_array_index(l.seen, uint64_t, 2), 3);
  cr_assert_eq(engine_now(e), 100);
  cr_assert_eq(engine_events_run(e), 3);
  cr_assert_eq(engine_pending(e), 0);
  engine_free(e);
  g_array_unref(l.seen);
}

Test(engine, run_until_stops_at_the_limit_and_advances_the_clock) {
  log_ctx l = {.seen = g_array_new(FALSE, FALSE, sizeof(uint64_t))};
  engine *e = engine_new(&l);
  engine_at(e, 10, record, NULL, 10);
  engine_at(e, 20, record, NULL, 20);
  engine_at(e, 30, record, NULL, 30);
  engine_run_until(e, 20);
  cr_assert_eq(l.seen->len, 2, "events at the limit run");
  cr_assert_eq(engine_now(e), 20);
  engine_run_until(e, 25);
  cr_assert_eq(engine_now(e), 25, "clock moves to the limit with no event");
  cr_assert_eq(engine_next_time(e), 30);
  engine_free(e);
  g_array_unref(l.seen);
}

Test(engine, cancelling_unknown_or_zero_ids_is_harmless) {
  engine *e = engine_new(NULL);
  engine_cancel(e, 0);
  engine_cancel(e, 12345);
  cr_assert_eq(engine_next_time(e), SIM_TIME_NEVER);
  cr_assert_not(engine_step(e));
  engine_free(e);
}

Test(engine, many_events_come_out_sorted) {
  log_ctx l = {.seen = g_array_new(FALSE, FALSE, sizeof(uint64_t))};
  engine *e = engine_new(&l);
  guint64 x = 88172645463325252ULL;
  for (int i = 0; i < 100000; i++) {
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    engine_at(e, (sim_time)(x % 1000000), record, NULL, x % 1000000);
  }
  while (engine_step(e)) {}
  cr_assert_eq(l.seen->len, 100000);
  for (guint i = 1; i < l.seen->len; i++)
    cr_assert(g_array_index(l.seen, uint64_t, i - 1) <= g_array_index(l.seen, uint64_t, i));
  engine_free(e);
  g_array_unref(l.seen);
}

/* A model of a simulation: each handler schedules follow-ups (near and far in time) and
 * cancels some pending ids, some that already ran, and some from long ago (their bitset
 * chunk freed), over several chunks of ids; exactly the live events run, in order. */
typedef struct churn {
  engine *e;
  guint64 x;
  GArray *ids;          /* every id scheduled, by id - 1 */
  GArray *cancelled;    /* gboolean by id - 1: cancelled while pending */
  GArray *ran;          /* gboolean by id - 1 */
  guint64 budget;       /* follow-ups left to schedule */
  sim_time last_t;
} churn;

static guint64 churn_next(churn *c) {
  c->x ^= c->x << 13; c->x ^= c->x >> 7; c->x ^= c->x << 17;
  return c->x;
}

static void churn_event(void *ctx, void *obj, uint64_t id);

static void churn_at(churn *c, sim_time t) {
  event_id id = engine_at(c->e, t, churn_event, NULL, c->ids->len + 1);
  cr_assert_eq(id, c->ids->len + 1, "ids are the sequence numbers");
  gboolean no = FALSE;
  g_array_append_val(c->ids, id);
  g_array_append_val(c->cancelled, no);
  g_array_append_val(c->ran, no);
}

static void churn_event(void *ctx, void *obj, uint64_t id) {
  churn *c = ctx;
  cr_assert_not(g_array_index(c->cancelled, gboolean, id - 1), "id %lu was cancelled",
                (unsigned long)id);
  cr_assert_not(g_array_index(c->ran, gboolean, id - 1));
  cr_assert_geq(engine_now(c->e), c->last_t);
  c->last_t = engine_now(c->e);
  g_array_index(c->ran, gboolean, id - 1) = TRUE;
  for (int k = 0; k < 3 && c->budget; k++, c->budget--) {
    guint64 r = churn_next(c);
    sim_time dt = (r & 1) ? (sim_time)(r % 100) : (sim_time)(r % 5000000); /* near or far */
    churn_at(c, engine_now(c->e) + dt);
  }
  guint64 r = churn_next(c);
  guint64 victim = 1 + r % c->ids->len;        /* pending, already run, or long gone */
  if (!g_array_index(c->ran, gboolean, victim - 1))
    g_array_index(c->cancelled, gboolean, victim - 1) = TRUE;
  engine_cancel(c->e, victim);
}

Test(engine, cancellation_bitset_over_many_chunks_runs_exactly_the_live_events) {
  churn c = {.x = 88172645463325252ULL, .budget = 300000};
  c.e = engine_new(&c);
  c.ids = g_array_new(FALSE, FALSE, sizeof(event_id));
  c.cancelled = g_array_new(FALSE, FALSE, sizeof(gboolean));
  c.ran = g_array_new(FALSE, FALSE, sizeof(gboolean));
  for (int i = 0; i < 1000; i++) churn_at(&c, (sim_time)(churn_next(&c) % 1000));
  while (engine_step(c.e)) {}
  guint64 live = 0, ran = 0;
  for (guint i = 0; i < c.ids->len; i++) {
    gboolean cancelled = g_array_index(c.cancelled, gboolean, i);
    gboolean did = g_array_index(c.ran, gboolean, i);
    cr_assert(cancelled != did, "id %u: cancelled %d, ran %d", i + 1, cancelled, did);
    live += !cancelled;
    ran += did;
  }
  cr_assert_gt(c.ids->len, 300000, "ids span many chunks");
  cr_assert_eq(engine_events_run(c.e), live);
  cr_assert_eq(ran, live);
  cr_assert_eq(engine_pending(c.e), 0);
  engine_cancel(c.e, 1); /* long gone: harmless */
  cr_assert_not(engine_step(c.e));
  engine_free(c.e);
  g_array_unref(c.ids);
  g_array_unref(c.cancelled);
  g_array_unref(c.ran);
}

/* A full engine (more events pending at once than its limit) refuses the event with id 0,
 * says so, and runs nothing more, so that the run ends with an error instead of the heap's
 * abort; the events scheduled before stay unrun. */
Test(engine, a_full_engine_refuses_and_stops) {
  log_ctx l = {.seen = g_array_new(FALSE, FALSE, sizeof(uint64_t))};
  engine *e = engine_new(&l);
  engine_limit_pending(e, 3);
  for (uint64_t i = 0; i < 3; i++) cr_assert_neq(engine_at(e, 10 + (sim_time)i, record, NULL, i), 0);
  cr_assert_not(engine_full(e));
  cr_assert_eq(engine_at(e, 5, record, NULL, 99), 0);
  cr_assert(engine_full(e));
  cr_assert_not(engine_step(e));
  engine_run_until(e, 100);
  cr_assert_eq(l.seen->len, 0);
  cr_assert_eq(engine_events_run(e), 0);
  engine_free(e);
  /* below the limit the same events run */
  e = engine_new(&l);
  engine_limit_pending(e, 4);
  for (uint64_t i = 0; i < 4; i++) engine_at(e, 10 + (sim_time)i, record, NULL, i);
  engine_run_until(e, 100);
  cr_assert_not(engine_full(e));
  cr_assert_eq(l.seen->len, 4);
  engine_free(e);
  g_array_free(l.seen, TRUE);
}

/* A job that restarts again and again leaves a cancelled end of work per attempt, far in the
 * future (issue 29, S3-04): the heap drops them once they outnumber the live entries, so it
 * stays small, and the live events still run in order. */
typedef struct {
  engine *e;
  guint restarts;
  event_id far;
  GArray *seen;
} restart_ctx;

static void restart_crash(void *ctx, void *obj, uint64_t arg) {
  restart_ctx *r = ctx;
  g_array_append_val(r->seen, arg);
  engine_cancel(r->e, r->far); /* the attempt's end of work will never come */
  if (++r->restarts == 100000) return;
  sim_time now = engine_now(r->e);
  r->far = engine_at(r->e, now + INT64_C(100000) * 1000000000, record, NULL, 0);
  engine_at(r->e, now + 3600000, restart_crash, NULL, arg + 1);
  cr_assert_leq(engine_pending(r->e), 600, "heap of %zu entries after %u restarts",
                engine_pending(r->e), r->restarts);
}

Test(engine, cancelled_entries_are_dropped_when_they_outnumber_the_live_ones) {
  restart_ctx r = {.seen = g_array_new(FALSE, FALSE, sizeof(uint64_t))};
  r.e = engine_new(&r);
  engine_at(r.e, 0, restart_crash, NULL, 0);
  while (engine_step(r.e)) {}
  cr_assert_eq(r.restarts, 100000);
  cr_assert_eq(r.seen->len, 100000);
  for (guint i = 0; i < r.seen->len; i++) cr_assert_eq(g_array_index(r.seen, uint64_t, i), i);
  engine_free(r.e);
  g_array_unref(r.seen);
}

/* pqueue_filter on both queues: every other item dropped, with keys in the buckets and (on
 * the radix heap) on the run of keys below the buckets' least; the kept ones come out in
 * (time, seq) order and none is lost. The reference's filter once kept only its top. */
static gboolean drop_odd(void *ctx, uint64_t seq) {
  (void)ctx;
  return seq & 1;
}

static void filter_keeps_the_rest(gboolean reference) {
  pqueue q;
  if (reference) pqueue_init_reference(&q);
  else pqueue_init(&q);
  uint64_t seq = 1;
  for (int i = 0; i < 3000; i++) { /* later events: the buckets */
    pq_item it = {.time = 1000 + i % 7, .seq = seq++};
    pqueue_push(&q, &it);
  }
  pq_item it;
  cr_assert(pqueue_pop(&q, &it));
  for (int i = 0; i < 3000; i++) { /* the popped instant's events: the run */
    pq_item now = {.time = it.time, .seq = seq++};
    pqueue_push(&q, &now);
  }
  cr_assert_eq(pqueue_filter(&q, drop_odd, NULL), 2999u); /* seq 1 was popped */
  cr_assert_eq(pqueue_len(&q), 3000u);
  pq_item prev = it, got;
  size_t n = 0;
  while (pqueue_pop(&q, &got)) {
    cr_assert(got.seq % 2 == 0);
    cr_assert(got.time > prev.time || (got.time == prev.time && got.seq > prev.seq));
    prev = got;
    n++;
  }
  cr_assert_eq(n, 3000u);
  pqueue_clear(&q);
}

Test(engine, radix_filter_keeps_every_item_not_dropped) { filter_keeps_the_rest(FALSE); }
Test(engine, reference_filter_keeps_every_item_not_dropped) { filter_keeps_the_rest(TRUE); }

/* Many events at one later time, then each step pops one event of the current instant and
 * pushes another at it (a handler scheduling at now): the current instant's events wait on
 * the sorted run, and the later events stay refined in their buckets. Before the run, each
 * such push pulled every later key back into one bucket and the next pop sorted them out
 * again (ParvaGPU's validation, 375 k events: 12.4 s, now 0.74 s). */
Test(engine, events_at_now_queue_on_the_run_without_moving_later_ones) {
  pqueue q;
  pqueue_init(&q);
  uint64_t seq = 1;
  for (int i = 0; i < 20000; i++) {
    pq_item it = {.time = 1000, .seq = seq++};
    pqueue_push(&q, &it);
  }
  pq_item first = {.time = 0, .seq = seq++}, got;
  pqueue_push(&q, &first);
  for (int i = 0; i < 5000; i++) {
    cr_assert(pqueue_pop(&q, &got));
    cr_assert_eq(got.time, 0);
    pq_item next = {.time = 0, .seq = seq++};
    pqueue_push(&q, &next);
    cr_assert_eq(q.r_len, 20000u); /* the later keys never leave the radix part */
    cr_assert_eq(q.run_len, 1u);
  }
  cr_assert(pqueue_pop(&q, &got));
  cr_assert_eq(got.time, 0);
  for (uint64_t s = 1; s <= 20000; s++) {
    cr_assert(pqueue_pop(&q, &got));
    cr_assert(got.time == 1000 && got.seq == s);
  }
  cr_assert_eq(pqueue_len(&q), 0u);
  pqueue_clear(&q);
}
