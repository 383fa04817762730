/* heap-limit.c: the "heap limit" bench/run divides sharesim's event rate by. The event heap
 * sharesim runs on (pqueue.h: the (time, sequence) 4-ary min-heap and its 40-byte event)
 * holding PENDING events, driven by the "hold" model: pop the least, call its handler, push
 * one event a uniform random delay (0-2 s) later. No model, cancellation, metrics or
 * output: what a simulator with this many pending events cannot beat on this machine.
 * With --binary the same hold model runs on a bare binary heap of the same 40-byte events
 * (the yardstick issue 17 was written against, before sharesim's heap became 4-ary).
 * Usage: build/bench/heap-limit [--binary] [EVENTS [PENDING]] (default 20,000,000 and
 * 100,000). Prints events, pending, CPU seconds and millions of events per CPU second. */
#include "pqueue.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* ---- the bare binary heap (--binary): items by value, (time, seq) order ---- */
typedef struct { pq_item *a; size_t len, cap; } bin_heap;

static inline gboolean bin_less(const pq_item *x, const pq_item *y) {
  return x->time < y->time || (x->time == y->time && x->seq < y->seq);
}

static void bin_push(bin_heap *h, const pq_item *it) {
  if (h->len == h->cap) {
    h->cap = h->cap ? h->cap * 2 : 256;
    h->a = g_renew(pq_item, h->a, h->cap);
  }
  size_t i = h->len++;
  while (i > 0 && bin_less(it, &h->a[(i - 1) / 2])) {
    h->a[i] = h->a[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  h->a[i] = *it;
}

static void bin_pop(bin_heap *h, pq_item *out) {
  *out = h->a[0];
  pq_item last = h->a[--h->len];
  size_t i = 0, n = h->len;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && bin_less(&h->a[c + 1], &h->a[c])) c++;
    if (!bin_less(&h->a[c], &last)) break;
    h->a[i] = h->a[c];
    i = c;
  }
  if (n) h->a[i] = last;
}

static double heap_limit_run(gboolean binary, guint64 events, guint64 pending) {
  pqueue q;
  bin_heap b = {0};
  pqueue_init(&q);
  guint64 seq = 1;
  for (guint64 i = 0; i < pending; i++) {
    pq_item it = {.time = heap_limit_delay_ns(), .seq = seq++, .handler = heap_limit_handler,
                  .arg = i};
    if (binary) bin_push(&b, &it);
    else pqueue_push(&q, &it);
  }
  double t0 = heap_limit_cpu_s();
  for (guint64 k = 0; k < events; k++) {
    pq_item it;
    if (binary) bin_pop(&b, &it);
    else pqueue_pop(&q, &it);
    it.handler(NULL, it.obj, it.arg);
    pq_item next = {.time = it.time + heap_limit_delay_ns(), .seq = seq++,
                    .handler = heap_limit_handler, .arg = k};
    if (binary) bin_push(&b, &next);
    else pqueue_push(&q, &next);
  }
  double cpu = heap_limit_cpu_s() - t0;
  pqueue_clear(&q);
  g_free(b.a);
  return cpu;
}

int main(int argc, char **argv) {
  gboolean binary = argc > 1 && strcmp(argv[1], "--binary") == 0;
  if (binary) {
    argv++;
    argc--;
  }
  guint64 events = argc > 1 ? g_ascii_strtoull(argv[1], NULL, 10) : 20000000;
  guint64 pending = argc > 2 ? g_ascii_strtoull(argv[2], NULL, 10) : 100000;
  if (argc > 3 || events == 0 || pending == 0) {
    fprintf(stderr, "usage: heap-limit [--binary] [EVENTS [PENDING]] (both above 0)\n");
    return 2;
  }
  G_STATIC_ASSERT(sizeof(pq_item) == 40);
  double cpu = heap_limit_run(binary, events, pending);
  printf("events %" G_GUINT64_FORMAT " pending %" G_GUINT64_FORMAT " cpu_s %.3f "
         "M_events_per_cpu_s %.3f (handled %" G_GUINT64_FORMAT ")%s\n",
         events, pending, cpu, cpu > 0 ? (double)events / cpu / 1e6 : 0.0, heap_limit_handled,
         binary ? " binary" : "");
  return 0;
}
