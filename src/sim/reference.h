/* reference.h: the run's fast paths, each with a reference implementation that gives the
 * same results (docs/architecture.md, "Fast paths and the reference mode"). A bit set in
 * sim_options.reference (run --reference) runs that part the reference way;
 * tests/cli/t-reference.sh runs the suite's cases both ways and compares the folders byte
 * for byte. A leaf: sim.h and workload.h both include it. */
#pragma once

enum {
  SIM_REF_BURSTS = 1u << 0,   /* notebooks' gaps and bursts as events, never walked (bursts.h) */
  SIM_REF_REQUESTS = 1u << 1, /* inference: the general request loop, not the call-free one */
  SIM_REF_ONE = 1u << 2,      /* a card with one resident: gpu_end's general fixed point */
  SIM_REF_QUEUE = 1u << 3,    /* the events in a binary heap, not the radix heap (pqueue.h) */
  SIM_REF_WARM = 1u << 4,     /* gpu_end's fixed point from the duties now, not from the
                               * card's last fixed point of the same inputs (warm.h) */
  SIM_REF_QUOTA = 1u << 5,    /* Kueue's preemption: the running jobs listed and searched for
                               * each refused job, not once per pass with the classes that
                               * found no victims skipped (quota.h) */
  SIM_REF_ALL = (1u << 6) - 1
};
/* The names of the SIM_REF_* bits, in bit order (run --reference-only=LIST). */
#define SIM_REF_NAMES {"bursts", "requests", "one", "queue", "warm", "quota"}
#define SIM_REF_COUNT 6
