/* cluster.h: the run-time state of pools, nodes, GPUs, the tasks (one per worker) resident
 * on them and the jobs they belong to; the placement search over nodes; the queues; and
 * the bridge to the metrics layer: every change of a GPU's residents, memory or gauges is
 * reported to metrics.h (pool, GPU and tenant gauges, on one interval grid). The fluid
 * progress bookkeeping and the event handling are sim.c's. */
#pragma once
#include <glib.h>
#include <gsl/gsl_rng.h>
#include "util.h"
#include "rng.h"
#include "scenario.h"
#include "trace.h"
#include "results.h"
#include "metrics.h"
#include "engine.h"
#include "share.h"
#include "workload.h"
#include "place.h"

/* JOB_BACKOFF: killed, waiting out its restart back-off before it queues again; JOB_CULLED:
 * a notebook the idle culler stopped, until its user returns (sim.c) */
typedef enum {
  JOB_PENDING = 0, JOB_QUEUED, JOB_RUNNING, JOB_DONE, JOB_BACKOFF, JOB_CULLED
} job_state;

/* struct task (a worker on a GPU), struct gpu_state and gpu_service are in share.h: they
 * are the view of a GPU and its residents that strategies read. The simulator's records
 * begin with them (an anonymous union of the view and its fields, as pool_state and
 * job_run begin with theirs) and keep after them what no strategy or workload sees. */

/* A resident: the task view, then its part of the GPU's allocated, busy and SM-active
 * gauges, as reported to its tenant (cluster_gpu_update_gauges). */
typedef struct task_run {
  union {
    task view;
    struct { TASK_FIELDS };
  };
  double m_part[3];
  int64_t m_part_fx[3];      /* the same in the metrics' fixed point (metrics_fixed) */
  sim_time part_since;       /* when m_part last changed: m_part[0] x the time since is the
                              * job's charge for this GPU not yet in job_run.charge_gpu_ns */
} task_run;

/* Residents a GPU holds in its own record before their list moves out of line (exclusive
 * cards hold one, time-slicing and MPS replicas a few). */
#define GPU_RESIDENTS_BUF 4

/* A GPU: the gpu_state view, then the storage of a short residents list and the GPU's
 * gauges and integrals (the metrics layer's, kept here so that the GPU and its gauges share
 * lines). The records are one array aligned to 64 bytes; what every change on the GPU reads
 * (the view's first fields, the list, the gauges' integrals) is on its first four cache
 * lines (asserted in cluster.c). */
typedef struct gpu_run {
  union {
    gpu_state view;
    struct { GPU_STATE_FIELDS };
  };
  guint32 res_cap;           /* 0 while the residents are in res_inline */
  task *res_inline[GPU_RESIDENTS_BUF];
  metrics_gpu m;
} __attribute__((aligned(64))) gpu_run;

/* The records of the views (valid C: each view is the first member of its record). */
static inline task_run *task_run_of(task *t) { return (task_run *)(void *)t; }
static inline const task_run *task_run_const(const task *t) {
  return (const task_run *)(const void *)t;
}
static inline gpu_run *gpu_run_of(gpu_state *g) { return (gpu_run *)(void *)g; }
static inline const gpu_run *gpu_run_const(const gpu_state *g) {
  return (const gpu_run *)(const void *)g;
}

struct pool_state {
  /* index, spec, params, gpus, n_gpus, slots_per_gpu, strategy_data: what strategies see
   * of a pool (share.h), also as share_view */
  union {
    share_pool share_view;
    struct { SHARE_POOL_FIELDS };
  };
  const share_ops *ops;
  gpu_run *gpus;             /* n_gpus (cluster_gpu(p, i): the view of one) */
  guint32 n_nodes, gpus_per_node;
  guint32 *node_free;        /* free slots per node */
  guint32 **bucket_bits;     /* per free-slot count k: bitset of nodes with k free slots */
  guint32 bucket_words;
  guint32 free_slots;
  /* placement index when the strategy packs by shares (share_ops.worker_share): a min-tree
   * over GPUs of share_used (+inf for a GPU without a free slot), share_leaves leaves */
  double *share_tree;
  guint32 share_leaves;
  /* The queue, split by worker count so that a scheduling pass never walks jobs that
   * cannot fit: queue_by_gpus[k] holds the jobs with k workers, each ordered by
   * (priority desc, submit, index); queue_sizes lists the k with queued jobs, ascending. */
  GSequence **queue_by_gpus; /* n_gpus + 2 entries, created on first use */
  guint32 *queued_by_gpus;   /* jobs per worker count */
  GArray *queue_sizes;       /* guint32, ascending */
  guint32 n_queued, n_running;
  gboolean schedule_pending;
  /* its gauges, series and integrals (metrics.h), and the run's metrics (tenants) */
  metrics_pool *m;
  metrics *metrics;
  /* GPUs taken out of service by the strategy (MIG reconfiguration): how many are
   * draining (no new placements, residents leaving) or down now; integrated by
   * cluster_pool_integrate; changed by cluster_gpu_set_service only (n_queued and n_running
   * change after integrating) */
  guint32 n_draining, n_down;
  /* nodes (node groups may differ): first GPU and GPU count per node; host CPU and memory
   * left per node (NULL when the pool models none: never short); GPU model label */
  guint32 *node_first, *node_gpus;
  int64_t *node_cpu_left, *node_mem_left;
  const char **node_model;
  guint32 max_node_gpus;
  /* a placement policy without a slot search (place.h): the nodes as the policy sees them,
   * kept up to date by attach/detach; the pool's target workload (cluster_pool_set_target)
   * and fragmentation now (milli-GPU, sum over nodes) */
  const place_ops *place;
  place_node *view;
  int32_t *view_left;
  guint32 *view_affinity;
  double *view_frag;
  double frag_milli, free_milli;
  place_target *target;
  place_cache *cache;         /* policy scores per (node, request kind) */
  GHashTable *kind_of;        /* request kind (a place_req, type ignored) -> kind + 1 */
  GArray *kinds, *kind_count; /* while the target is built: place_req and jobs per kind */
  gsl_rng *place_rng;
  /* counters */
  guint32 oom_kills, innocent_victims, crashes, restarts, evictions, reconfigurations;
  guint32 fault_victims;   /* innocent victims of a fault other than an OOM kill */
  double work_lost_gpu_ns;
  double straggler_wait_gpu_ns;
  /* autoscaling (autoscale.c; NULL and 0 unless the pool autoscales): which nodes take no
   * new placements (absent, booting, or under a spot notice), the slots each GPU offers
   * when its node is open (what the strategy last set), the GPUs of the nodes not
   * provisioned now (unbilled: integrated by cluster_pool_integrate), the autoscaler's
   * state of the pool */
  guint8 *node_closed;
  guint32 *gpu_want_cap;
  guint32 n_unprov_gpus;
  struct autoscale_pool *autoscale;
};

struct job_run {
  /* spec, duty, sm, mem_declared: what strategies see of a job (share.h), also as
   * share_view; those and pool ... workload_data: what its workload sees (workload.h), also
   * as workload_view */
  union {
    share_job share_view;
    workload_job workload_view;
    struct {
      SHARE_JOB_FIELDS
      WORKLOAD_JOB_FIELDS
    };
  };
  /* what every event on a running job reads (job_advance, the rates, the completion, the
   * gauges), kept together after the views */
  task_run *tasks;           /* n_tasks while running (task1 for one worker) */
  const struct workload_ops *wl; /* workload_of(spec), kept: the hot path never reads spec */
  /* fluid progress of the current unit of work (training/batch: the job; notebook: a burst) */
  double work_left_ns;
  sim_time t_last;
  event_id ev_done, ev_timer;
  double busy_ns, alloc_gpu_ns;
  /* worker-ns run with memory beyond the card (task.mem_slowdown > 1), and the same
   * weighted by the slowdown (jobs.csv oversub_gpu_s, oversub_slowdown) */
  double oversub_ns, oversub_slow_ns;
  double charge_gpu_ns;      /* its part of the occupied GPUs' allocated time (GPU x ns): the
                              * m_part[0] of its workers integrated (cluster_task_charge) */
  job_state state;
  guint32 tenant;            /* metrics_tenant index */
  gboolean completion_stale; /* work or demand replaced: ev_done must be recomputed */
  task_run task1;            /* the task of a one-worker job (no allocation per start) */
  rng_slot rng_slot;         /* where rng lives (rng_init): the draws read no other line */
  /* the rest: read at starts, ends, phases, kills and for the row */
  guint32 index;
  job_outcome outcome;
  event_id ev_end, ev_phase, ev_ckpt, ev_crash;
  guint32 next_phase;
  gboolean crash_phase_fired;
  guint32 placed_gpu;        /* the last placement (jobs.csv gpu_ids, formatted at the end):
                              * its GPU in the pool for one worker, else placed_gpus */
  int64_t mem_bytes;         /* current value (the spec's, changed by phases) */
  /* lifetimes */
  sim_time first_start, attempt_start, end, queued_since;
  /* accumulators */
  double wait_ns, run_ns;
  double work_lost_ns;
  double straggler_delay_ns, straggler_wait_gpu_ns;
  guint32 restarts, kills, oom_kills, crashes;
  /* restart back-off (sim.c, Kubernetes' CrashLoopBackOff): the wait its next failure gets
   * (0: restart at once), when the current wait began, the time spent waiting, its end */
  sim_time backoff_next_ns, backoff_since;
  double backoff_wait_ns;
  event_id ev_backoff;       /* the end of its back-off, or its user's return after a cull */
  /* the idle culler (sim_job_cull): its figures (seconds), and whether it is queued again
   * after its user returned (its wait then counts as the return's) */
  results_culls culls;
  gboolean returned;
  gsl_rng *rng_faults;       /* separate stream for random crashes, so enabling them moves no burst */
  GSequenceIter *queue_iter;
  const char *reason;        /* static or interned text */
  guint32 *placed_gpus;      /* the last placement's GPUs in the pool, one per worker (owned;
                              * jobs of several workers only) */
  struct burst_chain *chain; /* its bursts accounted ahead, without events (bursts.h) */
  /* priorities and preemption (preempt.h; set only when the scenario's priority section
   * lets jobs preempt) */
  gboolean terminating;      /* chosen as a victim, in its termination grace period */
  guint32 preempt_cause_row; /* then: the trace row of the job it makes room for (which may
                              * start elsewhere, end and be freed first: looked up by row) */
  const char *preempt_cause_id; /* and its id (interned in the results) */
  event_id ev_preempt;       /* the end of that termination grace period */
  guint32 preempt_pending;   /* its victims still terminating (it preempts no more till then) */
  guint32 preempted, preempts_caused; /* times chosen as a victim, victims it chose */
  guint32 reclaimed, reclaims_caused; /* of which by Kueue to reclaim lent quota (quota.c) */
  guint8 preempt_why;        /* while terminating: PREEMPT_WHY_* of preempt.h */
  double preempt_lost_gpu_ns; /* work lost to its preemptions x workers (GPU x ns) */
  guint32 spot_evictions;    /* times a spot interruption evicted it (autoscale.h) */
  double spot_lost_gpu_ns;   /* work those lost x workers (GPU x ns) */
  gboolean may_preempt;      /* its class's preemption_policy is PreemptLowerPriority */
  gboolean preempt_mark;     /* scratch of preempt_select */
  /* Kueue's quotas (quota.h; sim.c): its ClusterQueue, -1 when none (no `kueue` section, or
   * its tenant has no LocalQueue) */
  int32_t cq;
  guint32 quota_borrowed;    /* GPUs of its attempt above its queue's nominal at admission */
  double quota_gpu_ns, borrowed_gpu_ns; /* GPU x ns admitted under a quota, and borrowed */
  job_spec spec_own;         /* what spec points to: the row's values (trace_job), in the
                              * record (one allocation a job) */
};

/* GPU i of p as its view. */
static inline gpu_state *cluster_gpu(const pool_state *p, guint32 i) { return &p->gpus[i].view; }

/* ---- pools and placement ---- */
/* ops: spec's strategy (share_for, which the rooms above cluster.c look up). */
void cluster_pool_init(pool_state *p, guint32 index, const pool_spec *spec,
                       const share_ops *ops, const share_params *params, metrics *m);
void cluster_pool_clear(pool_state *p);
/* The pool's target workload for fgd and fragmentation: cluster_pool_target_add for each
 * job routed to it, in trace order (each once; the request kinds are numbered in the order
 * they are first seen), then cluster_pool_set_target, once, which also takes the seed of
 * its random placement choices. */
void cluster_pool_target_add(pool_state *p, const job_spec *js);
void cluster_pool_set_target(pool_state *p, guint64 seed);
/* The same counts gathered before the pool exists (prerun.h: one pass over the trace for
 * the checks and the run): cluster_target_tally_add for each job routed to a pool of spec,
 * in trace order; then cluster_pool_target_add_tally(p, t) does what
 * cluster_pool_target_add of each of those jobs would have done, in the same order. */
typedef struct cluster_target_tally cluster_target_tally;
cluster_target_tally *cluster_target_tally_new(const pool_spec *spec, const share_ops *ops);
void cluster_target_tally_add(cluster_target_tally *t, const job_spec *js);
void cluster_target_tally_free(cluster_target_tally *t);
void cluster_pool_target_add_tally(pool_state *p, const cluster_target_tally *t);
/* Can every worker of j ever find a node of the pool with room for its host CPU and memory
 * and an allowed GPU model? If not, *reason (owned) says why. */
gboolean cluster_host_can_ever_fit(const pool_spec *p, const job_spec *j, char **reason);

/* ---- cluster-place.c: the policy view of the nodes, used by cluster.c ---- */
void cluster_view_init(pool_state *p);             /* after the GPUs and nodes exist */
void cluster_view_node(pool_state *p, guint32 n);  /* node n changed: refresh its view */
/* A task of t's job arrived on (sign -1) or left (+1) GPU g: host CPU and memory of its
 * node, and the view of g and the node. */
void cluster_host_change(pool_state *p, const task *t, const gpu_state *g, int sign);
/* Placement by the pool's policy on one node: 1 placed (gpus_out/slots_out filled), 0 fits
 * nowhere, -1 not decided here (the caller's search goes on: a gang that no single node
 * holds now may still span nodes, docs/models.md "Placement policy"). */
int cluster_policy_place(const pool_state *p, const job_run *j, gpu_state **gpus_out,
                         guint32 *slots_out);
/* Finds GPUs (and slots) for every worker of j per the pool's placement policy, without
 * changing anything. FALSE if the job does not fit now. */
gboolean cluster_find_placement(const pool_state *p, const job_run *j, gpu_state **gpus_out,
                                guint32 *slots_out);
/* Adds/removes a task on a GPU (slot and memory bookkeeping, node buckets). */
void cluster_attach(pool_state *p, task *t, gpu_state *g, guint32 slot);
void cluster_detach(pool_state *p, task *t);
/* Sets the slots g offers now (at most slots_per_gpu), so that the free-slot counts that
 * prune placement stay close to what gpu_accepts allows (MIG: the instances of the current
 * layout, 0 while draining or down). The counts stay an upper bound either way. */
void cluster_gpu_set_capacity(pool_state *p, gpu_state *g, guint32 slots);
/* The one call that takes a GPU out of service or back (MIG reconfiguration; strategies
 * reach it as share_gpu_set_service): brings the pool's integrals up to now, moves g
 * between the up, draining and down counts, sets the slots it offers (0 unless up), and
 * counts a reconfiguration each time a GPU goes down. */
void cluster_gpu_set_service(pool_state *p, gpu_state *g, gpu_service service, guint32 slots,
                             sim_time now);
/* Autoscaling (autoscale.c): the pool's nodes may open and close from now on (once, after
 * cluster_pool_init); every node is open and provisioned until told otherwise. */
void cluster_pool_autoscaled(pool_state *p);
/* Node n takes placements (open) or none (its GPUs offer no slot; residents stay), and is
 * provisioned (billed) or not; brings the pool's integrals up to now first. */
void cluster_node_set(pool_state *p, guint32 n, gboolean open, gboolean provisioned,
                      sim_time now);
/* Changes a resident's memory (integrate the GPU first). */
void cluster_task_set_mem(task *t, int64_t bytes);
/* Records g's memory in use in its peaks (attach and set_mem do it), unless it is more than
 * the card holds: such a total is a failed allocation, not memory in use. sim.c calls it
 * again once an out-of-memory has been resolved. */
void cluster_gpu_note_mem(gpu_state *g);

/* ---- gauges (metrics.h): integrate before a change on g, update after it ---- */
void cluster_gpu_integrate(gpu_state *g, sim_time now); /* integrates g and its pool to now */
void cluster_gpu_update_speeds(gpu_state *g);           /* strategy sets speed, alloc_share */
/* The strategy's busy and SM-active gauges, allocated, and each resident's part of them
 * for its tenant. */
void cluster_gpu_update_gauges(gpu_state *g);
/* Adds t's charge since its part last changed, up to now, to its job's charge_gpu_ns (the
 * books are closed with it for workers still resident at the end of the run). */
void cluster_task_charge(task *t, sim_time now);
void cluster_pool_integrate(pool_state *p, sim_time now);
void cluster_pool_close(pool_state *p, sim_time end);   /* integrates all, last interval */
/* An out-of-memory happened on g (gpus.csv oom_events). */
void cluster_gpu_count_oom(gpu_state *g);

/* ---- queue ---- */
void cluster_queue_push(pool_state *p, job_run *j);
void cluster_queue_remove(pool_state *p, job_run *j);
/* Queue order: TRUE if a goes before b (priority desc, submit, trace index). */
gboolean cluster_queue_before(const job_run *a, const job_run *b);
/* Size class of a worker count (the index into queue_by_gpus). */
guint32 cluster_queue_class(const pool_state *p, guint32 gpus);
