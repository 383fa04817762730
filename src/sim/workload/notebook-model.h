/* notebook-model.h: a notebook's toggles, defined once: the length of its next gap and the
 * work of its next burst, drawn from the job's own stream, and when each ends. Both ways a
 * run takes a notebook's bursts draw through it: workload-notebook.c's events and
 * bursts.c's walk without events (run --reference-only=bursts: always the events), so the
 * walk takes the events' draws by construction (a burst's end: util.h's util_done_at). */
#pragma once
#include <gsl/gsl_rng.h>
#include "rng.h"
#include "util.h"

typedef struct notebook_toggles {
  double mean_gap_ns;        /* exponential gaps of this mean (0: none, busy 1) */
  double mean_burst_ns;      /* exponential burst work of this mean, at least 1 ns */
  double duty;               /* the demand while bursting */
} notebook_toggles;

/* The toggles of a notebook busy a fraction busy of the time alone (> 0; else it never
 * computes), with bursts of mean burst_ns of work and duty util: gaps of mean
 * burst_ns x (1 - busy) / busy. */
static inline notebook_toggles notebook_toggles_of(double busy, double burst_ns, double util) {
  notebook_toggles t = {.mean_gap_ns = busy > 0 ? burst_ns * (1.0 - busy) / busy : 0,
                        .mean_burst_ns = burst_ns, .duty = util};
  return t;
}

/* The next gap, drawn now from r: when it ends (a gap starting at `at`). */
static inline sim_time notebook_next_gap(const notebook_toggles *t, gsl_rng *r, sim_time at) {
  double gap = t->mean_gap_ns > 0 ? rng_exponential(r, t->mean_gap_ns) : 0;
  /* a gap past the end of simulated time ends never (no overflow of at + gap) */
  if (!(gap < (double)(INT64_MAX - at))) return INT64_MAX;
  return at + (sim_time)gap;
}

/* The next burst's work (ns alone on a whole GPU), drawn now from r. */
static inline double notebook_next_burst(const notebook_toggles *t, gsl_rng *r) {
  double work = rng_exponential(r, t->mean_burst_ns);
  return work < 1 ? 1 : work;
}

/* What a finished burst adds to the job's stretch sum: the time it took over its work. */
static inline double notebook_stretch(sim_time took_ns, double work) {
  return (double)took_ns / work;
}
