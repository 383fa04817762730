/* test-engine.c: the event heap and the engine: ordering by (time, sequence), ties in
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
