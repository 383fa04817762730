/* heap-limit.c: the "heap limit" bench/run divides sharesim's event rate by. The event heap
 * sharesim runs on (pqueue.h: the (time, sequence) 4-ary min-heap and its 40-byte event)
 * holding PENDING events, driven by the "hold" model: pop the least, call its handler, push
 * one event a uniform random delay (0-2 s) later. No model, cancellation, metrics or
 * output: what a simulator with this many pending events cannot beat on this machine.
 * Usage: build/bench/heap-limit [EVENTS [PENDING]] (default 20,000,000 and 100,000).
 * Prints events, pending, CPU seconds and millions of events per CPU second. */
#include "pqueue.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double heap_limit_cpu_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static guint64 heap_limit_x = 0x9e3779b97f4a7c15ULL;

static sim_time heap_limit_delay_ns(void) { /* xorshift64, uniform on [0, 2 s) */
  heap_limit_x ^= heap_limit_x << 13;
  heap_limit_x ^= heap_limit_x >> 7;
  heap_limit_x ^= heap_limit_x << 17;
  return (sim_time)(heap_limit_x % 2000000000ULL);
}

static guint64 heap_limit_handled;

static void heap_limit_handler(void *ctx, void *obj, uint64_t arg) {
  heap_limit_handled += arg & 1;
}

int main(int argc, char **argv) {
  guint64 events = argc > 1 ? g_ascii_strtoull(argv[1], NULL, 10) : 20000000;
  guint64 pending = argc > 2 ? g_ascii_strtoull(argv[2], NULL, 10) : 100000;
  if (argc > 3 || events == 0 || pending == 0) {
    fprintf(stderr, "usage: heap-limit [EVENTS [PENDING]] (both above 0)\n");
    return 2;
  }
  G_STATIC_ASSERT(sizeof(pq_item) == 40);
  pqueue q;
  pqueue_init(&q);
  guint64 seq = 1;
  for (guint64 i = 0; i < pending; i++) {
    pq_item it = {.time = heap_limit_delay_ns(), .seq = seq++, .handler = heap_limit_handler,
                  .arg = i};
    pqueue_push(&q, &it);
  }
  double t0 = heap_limit_cpu_s();
  for (guint64 k = 0; k < events; k++) {
    pq_item it;
    pqueue_pop(&q, &it);
    it.handler(NULL, it.obj, it.arg);
    pq_item next = {.time = it.time + heap_limit_delay_ns(), .seq = seq++,
                    .handler = heap_limit_handler, .arg = k};
    pqueue_push(&q, &next);
  }
  double cpu = heap_limit_cpu_s() - t0;
  printf("events %" G_GUINT64_FORMAT " pending %" G_GUINT64_FORMAT " cpu_s %.3f "
         "M_events_per_cpu_s %.3f (handled %" G_GUINT64_FORMAT ")\n",
         events, pending, cpu, cpu > 0 ? (double)events / cpu / 1e6 : 0.0, heap_limit_handled);
  pqueue_clear(&q);
  return 0;
}
