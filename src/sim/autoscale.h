/* autoscale.h: a pool's nodes come and go as Kubernetes' cluster autoscaler adds and removes
 * them (`autoscale:`), and a spot pool's nodes are interrupted by their cloud (`spot:`):
 * the two pool sections, their keys, and the autoscaler's state of a run (docs/models.md,
 * "Autoscaling and spot capacity"). sim.c calls it at the run's start, after each
 * scheduling pass, when jobs start and leave GPUs, and at the end; it acts on the run through
 * host.h's calls (events, evictions, scheduling passes). */
#pragma once
#include "host.h"

/* The pool sections this file owns (rows of sim_pool_sections, src/sim/sim.c). */
extern const scenario_pool_section autoscale_section, autoscale_spot_section;

/* A pool's `autoscale:` block (pool_section_conf), as its validate read it: the pool's
 * `nodes` are the most it may have (max_nodes), initial_nodes are ready at time 0. */
typedef struct autoscale_conf {
  guint32 min_nodes, max_nodes, initial_nodes;
  sim_time provision_ns;      /* asked for to ready (billed from the ask) */
  sim_time unneeded_ns;       /* empty this long before it is removed */
  sim_time delay_after_add_ns; /* no removal this soon after a scale-up */
  sim_time scan_ns;           /* the autoscaler's loop: decisions at multiples of it */
} autoscale_conf;

/* A pool's `spot:` block: interruptions per node-hour (Poisson), the notice before the
 * node goes, and the price's factor. */
typedef struct autoscale_spot_conf {
  double rate_per_hour;
  sim_time notice_ns;
  double price_factor;
} autoscale_spot_conf;

typedef struct autoscale_pool autoscale_pool;

/* The pool's conf (NULL when it does not autoscale) and spot conf (NULL when not spot). */
const autoscale_conf *autoscale_conf_of(const pool_spec *p);
const autoscale_spot_conf *autoscale_spot_of(const pool_spec *p);
/* At the run's start, after cluster_pool_init: an autoscaled pool's nodes beyond its
 * initial ones are absent (not provisioned, closed); sets p->autoscale. No-op otherwise. */
void autoscale_pool_init(sim *s, pool_state *p);
void autoscale_pool_free(pool_state *p);
/* After a scheduling pass of p that left jobs queued: a scan at the autoscaler's next
 * loop decides whether new nodes would hold them. */
void autoscale_after_pass(sim *s, pool_state *p);
/* j just started on gpus (n of them) / left them: nodes stop or start being unneeded. */
void autoscale_placed(sim *s, pool_state *p, gpu_state *const *gpus, guint32 n);
void autoscale_released(sim *s, pool_state *p, gpu_state *const *gpus, guint32 n);
/* Every job is done: no more scans, removals or interruptions (the run ends with its last
 * job, as every run without autoscaling does). */
void autoscale_quiesce(sim *s, pool_state *p);
/* Closes the pool's books at end and fills its row's autoscaling figures. */
void autoscale_close(pool_state *p, sim_time end, pool_result *row);
