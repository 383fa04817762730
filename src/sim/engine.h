/* engine.h: the simulation clock and event schedule. Integer nanoseconds; events run in
 * (time, sequence) order; cancellation is lazy (a cancelled event stays in the heap and is
 * skipped when popped). No globals: a process may hold several engines (sweeps, tests). */
#pragma once
#include <glib.h>
#include <stdint.h>
#include "util.h"

typedef struct engine engine;
typedef uint64_t event_id;           /* 0 is never a valid id */
/* ctx is the engine's context pointer (engine_new's argument). */
typedef void (*engine_handler)(void *ctx, void *obj, uint64_t arg);

engine *engine_new(void *ctx);
/* The reference queue (pqueue_init_reference: a binary heap, the same order) instead of the
 * radix heap; before the first event (run --reference). */
void engine_use_reference_queue(engine *e);
void engine_free(engine *e);

sim_time engine_now(const engine *e);
/* Where the clock is kept, for reading it without a call: *engine_clock(e) is engine_now(e)
 * for as long as e lives. */
const sim_time *engine_clock(const engine *e);
/* Schedules handler(ctx, obj, arg) at time t (t >= now: asserted). Returns its id, or 0
 * when the engine is full (engine_full): more events pending at once than its limit, or
 * its sequence numbers used up. A full engine runs nothing more (engine_step is FALSE),
 * so that the caller can end the run with an error instead of an abort. */
event_id engine_at(engine *e, sim_time t, engine_handler handler, void *obj, uint64_t arg);
/* The events pending at once that make the engine full: ENGINE_MAX_PENDING (the heap's
 * 2^PQUEUE_SLOT_BITS), or a lower limit set for a test. */
#define ENGINE_MAX_PENDING (UINT64_C(1) << 24)
void engine_limit_pending(engine *e, uint64_t max_pending);
/* A scheduling was refused (see engine_at): the run cannot go on. */
gboolean engine_full(const engine *e);
/* Cancels a scheduled event; cancelling an id that already ran or 0 is a no-op (0, the
 * common case of a handle with nothing pending, without a call). */
void engine_cancel_id(engine *e, event_id id);
static inline void engine_cancel(engine *e, event_id id) {
  if (id) engine_cancel_id(e, id);
}
/* Runs the next live event; FALSE when none is left. */
gboolean engine_step(engine *e);
/* Runs every live event with time <= limit, then sets the clock to limit (if later). */
void engine_run_until(engine *e, sim_time limit);
/* Time of the next live event, or SIM_TIME_NEVER. */
sim_time engine_next_time(engine *e);
/* What the handler of a coming event will read, fetched ahead (a hint: it must change
 * nothing): the engine calls it once a step, before the handler of the step runs, with the
 * event after it. */
typedef void (*engine_prefetch_fn)(const void *obj, engine_handler handler);
void engine_set_prefetch(engine *e, engine_prefetch_fn fn);
uint64_t engine_events_run(const engine *e);
size_t engine_pending(const engine *e); /* heap size, including cancelled entries */
