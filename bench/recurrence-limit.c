/* recurrence-limit.c: the "recurrence limit" bench/run-requests divides by: the bare
 * single-slot FCFS (Lindley) recurrence start = max(arrival, free), free = start + work,
 * with the same sampler as the request loop (rngfast.h: Poisson gaps, and exponential work
 * with --exponential), summing latencies and nothing else: no histogram, SLO, interval or
 * engine. Usage: build/bench/recurrence-limit REQUESTS RATE_RPS SERVICE_MS [--exponential]
 * Prints requests, CPU seconds, millions of requests per CPU second and the mean latency. */
#include "rngfast.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double recurrence_limit_cpu_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  if (argc < 4 || (argc == 5 && strcmp(argv[4], "--exponential")) || argc > 5) {
    fprintf(stderr, "usage: recurrence-limit REQUESTS RATE_RPS SERVICE_MS [--exponential]\n");
    return 2;
  }
  guint64 n = g_ascii_strtoull(argv[1], NULL, 10);
  double rate = g_ascii_strtod(argv[2], NULL), svc_ms = g_ascii_strtod(argv[3], NULL);
  gboolean expo = argc == 5;
  if (n == 0 || !(rate > 0) || !(svc_ms > 0)) {
    fprintf(stderr, "recurrence-limit: REQUESTS, RATE_RPS and SERVICE_MS must be above 0\n");
    return 2;
  }
  rngfast fa, fs;
  rngfast_seed(&fa, 1, "svc", 7);
  rngfast_seed(&fs, 1, "svc", 8);
  const double gap = 1e9 / rate, work = svc_ms * 1e6;
  double t0 = recurrence_limit_cpu_s();
  double a = 0, free_at = 0, sum = 0;
  for (guint64 i = 0; i < n; i++) {
    a += gap * rngfast_exp(&fa);
    double start = a > free_at ? a : free_at;
    free_at = start + (expo ? work * rngfast_exp(&fs) : work);
    sum += free_at - a;
  }
  double cpu = recurrence_limit_cpu_s() - t0;
  printf("%llu %.3f %.1f %.6g\n", (unsigned long long)n, cpu, cpu > 0 ? n / cpu / 1e6 : 0.0,
         sum / (double)n / 1e6);
  return 0;
}
