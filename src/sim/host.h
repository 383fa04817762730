/* host.h: what the run (sim.c) offers the two plug-in bridges, share.c (for strategies) and
 * workload.c (for workloads). The bridges sit below sim.c in src/sim's order of rooms
 * (docs/architecture.md, tests/sim-rooms), so they name no function of it: every sim begins
 * with a sim_host, whose calls sim.c fills with its own functions (sim_host_init), and the
 * bridges forward through them (an include or call of sim.c from below fails
 * tests/check-layers.sh and tests/check-link-layers.sh). Only the bridges, the autoscaler
 * (autoscale.c, which acts on the run as they do) and sim.c include this header. */
#pragma once
#include "cluster.h"

typedef struct sim sim;

/* The run's calls, as sim.h describes them (sim_at, sim_job_set_demand ...). */
typedef struct sim_calls {
  /* forwarded by share.c */
  event_id (*at)(sim *s, sim_time at, engine_handler handler, void *obj, uint64_t arg);
  void (*request_schedule)(sim *s, pool_state *p);
  gboolean (*try_start)(sim *s, pool_state *p, job_run *j);
  void (*evict_gpu)(sim *s, gpu_state *g, const job_run *source, const char *detail);
  void (*log_event)(sim *s, event_kind kind, const pool_state *p, const gpu_state *g,
                    const job_run *j, const job_run *cause, const char *detail);
  double (*job_expected_end)(const sim *s, const job_run *j);
  /* for the autoscaler (autoscale.c): an event cancelled; whether j's quota admits it (a
   * job Kueue holds back has no pods for the autoscaler to see); node n of p interrupted:
   * its residents evicted, as a spot interruption's victims */
  void (*cancel)(sim *s, event_id id);
  gboolean (*job_admitted)(const sim *s, const job_run *j);
  void (*evict_node)(sim *s, pool_state *p, guint32 n, const char *detail);
  /* forwarded by workload.c */
  void (*job_set_demand)(sim *s, job_run *j, gboolean active, double duty, double work_ns);
  void (*job_refresh)(sim *s, job_run *j);
  int64_t (*job_mem_room)(const sim *s, const job_run *j, guint32 w);
  int64_t (*job_mem_visible)(const sim *s, const job_run *j, guint32 w);
  void (*job_set_mem)(sim *s, job_run *j, int64_t bytes);
  void (*job_partition)(const sim *s, const job_run *j, guint32 w, double *sm_frac,
                        double *bw_frac);
  void (*job_set_timer)(sim *s, job_run *j, sim_time at);
  gboolean (*job_walk_bursts)(sim *s, job_run *j, const struct notebook_toggles *t);
  void (*job_cull)(sim *s, job_run *j, sim_time back);
  void (*job_finish)(sim *s, job_run *j, job_outcome outcome);
  void (*service)(sim *s, const service_result *row);
  gboolean (*reference)(const sim *s, unsigned what);
} sim_calls;

/* What a sim begins with (struct sim in sim.c starts with these fields, in a union with a
 * sim_host): its calls, and the values the bridges read without a call. */
#define SIM_HOST_FIELDS \
  const sim_calls *calls; \
  const scenario *sc; \
  const trace *tr; \
  const sim_time *now;       /* engine_clock(eng): the time without a call */ \
  metrics *m;                /* the observation of the run (metrics.h) */
typedef struct sim_host { SIM_HOST_FIELDS } sim_host;

static inline const sim_host *sim_host_of(const sim *s) {
  return (const sim_host *)(const void *)s;
}
