/* bursts.h: a notebook's bursts accounted without events. On a card of its own (a
 * unit-speed strategy, one slot: exclusive) nothing a notebook's burst does reaches another
 * job, so its gap/burst events (workload-notebook.c) can be walked ahead, from a gap's start
 * to its session's end, in the same draws and the same arithmetic: the job's accumulators
 * and its stream are those the events would have left, and the busy and SM-active time goes
 * to the metrics at once (metrics_burst, exact integrals). Anything that touches the job or
 * its card before that end (a crash, an eviction, a phase, the end of the run) first cuts
 * the chain there: the walk is replayed to that time, what lies after it is taken back,
 * and the job goes on with real events (sim.c, job_touch). docs/architecture.md,
 * "Bursts without events". */
#pragma once
#include "cluster.h"
#include "notebook-model.h"

/* What the events would have left at a time: the last toggle and the next one, the burst in
 * progress, the job's accumulators and its stream. */
typedef struct bursts_state {
  sim_time last;            /* the last toggle (the job's t_last) */
  sim_time part_since;      /* its worker's part_since */
  sim_time next;            /* the next toggle (SIM_TIME_NEVER: none) */
  gboolean in_burst;
  sim_time burst_start;
  double work;              /* the burst's work */
  double busy_ns, alloc_gpu_ns, charge_gpu_ns, stretch_sum;
  guint32 bursts;
  guint64 toggles;          /* events the walk stood for */
  rng_taus_state rng;       /* the job's stream after the last draw */
} bursts_state;

typedef struct burst_chain burst_chain;

/* Starts a chain for j, whose gap starts now (its demand set idle at now already) on GPU g,
 * alone, until limit (its session's end, or the run's horizon): draws the gap and walks
 * the bursts before limit, accounting them; the draws are notebook-model.h's, the ones
 * workload-notebook.c's events make. The caller checked that the job qualifies. */
burst_chain *bursts_start(metrics *m, job_run *j, gpu_state *g, sim_time now, sim_time limit,
                          const notebook_toggles *t);
/* The state at t (a toggle at t itself is still to come), with what the chain accounted
 * after t taken back; frees the chain. */
void bursts_cut(metrics *m, burst_chain *c, sim_time t, bursts_state *out);
/* The duty of the chain's bursts. */
double bursts_duty(const burst_chain *c);
void bursts_free(burst_chain *c);
