/* results.h: the frozen outcome of one simulation run, filled at the end of the run (jobs
 * by sim.c, the rest by metrics_freeze) and only read afterwards (by report-*.c, compare, plot). Units are in the field
 * names; times are seconds from the trace start (double) in the results, since the run
 * is over and these are what the reports print. Everything is owned by the results. */
#pragma once
#include <glib.h>
#include <stdint.h>

typedef enum {
  OUTCOME_COMPLETED = 0, /* ran its work (training/batch) or its whole session (notebook/inference) */
  OUTCOME_FAILED,        /* crashed or was killed and does not restart (restart: never, or too many) */
  OUTCOME_UNPLACEABLE,   /* can never fit its pool (or no routing rule matches) */
  OUTCOME_RUNNING,       /* still running when the horizon ended the run */
  OUTCOME_QUEUED,        /* still waiting when the horizon ended the run */
  OUTCOME_NOT_SUBMITTED, /* submitted after the horizon */
  OUTCOME_COUNT
} job_outcome;
const char *job_outcome_name(job_outcome o);

/* JupyterHub's idle culler (docs/models.md, "Idle culling"): sessions culled, the GPU-seconds
 * that freed (from each cull to the user's return, or to the session's end when the user does
 * not come back before it, cut at the horizon), users who came back (their next burst), and
 * the time those waited for a GPU again (until they started, or the run ended). */
typedef struct results_culls {
  guint32 culled, returns;
  double freed_gpu_s, return_wait_s;
} results_culls;

typedef struct job_result {
  const char *id, *kind, *tenant, *pool; /* borrowed from trace/scenario, valid while they
                                          * live; a kept row's id is the results' copy */
  const char *reason;       /* unplaceable/failed reason, or "" (owned by results string chunk) */
  guint32 gpus;
  int32_t priority;         /* its priority (its class's value or its trace cell) */
  int pool_index;           /* -1 when unrouted */
  job_outcome outcome;
  double submit_s;
  double start_s;           /* first start; NAN if never started */
  double end_s;             /* NAN if not ended */
  double wait_s;            /* total time queued over all attempts (until end of run if still queued) */
  double run_s;             /* wall time resident over all attempts */
  double work_s;            /* training/batch: work requested (duration_s) */
  double work_done_s;       /* work completed and kept */
  double work_lost_s;       /* work lost to kills since the last checkpoint */
  double slowdown;          /* kinds that run their work (training/batch): run time / work
                             * executed; NAN for session kinds and jobs not completed */
  double burst_stretch;     /* notebook: mean burst time / burst work; NAN otherwise */
  double busy_s;            /* time with compute demand (sum over workers / workers) */
  double gpu_s_allocated;   /* its part of the pool's allocated GPU-seconds: on each GPU it
                             * held, the GPU's allocated time x its alloc_share over the
                             * residents' total (jobs partition tenants and pools) */
  double gpu_s_share;       /* the share it was promised: alloc_share x residence, summed over
                             * workers (1/replicas of a time-sliced card, 3/7 for a 3g) */
  guint32 restarts;
  guint32 kills;            /* times it was killed (OOM, crash of a neighbour, eviction) */
  guint32 oom_kills;
  guint32 crashes;
  double straggler_delay_s;     /* training gangs: wall time lost to the slowest worker */
  double straggler_wait_gpu_s; /* GPU-seconds faster workers spent waiting for it */
  double backoff_s;         /* time spent in restart back-off (off its GPUs, not queued) */
  results_culls culls;      /* a notebook's: the idle culler's (not in jobs.csv) */
  const char *gpu_ids;      /* "pool/n0/g3;pool/n1/g0" of the last placement (interned) */
  guint32 preempted;        /* times evicted by a preemption (docs/models.md) */
  guint32 preempts_caused;  /* running jobs it evicted by preemption */
  guint32 reclaimed, reclaims_caused; /* of those, Kueue's to reclaim lent quota */
  double preempt_lost_gpu_s; /* work its preemptions lost x workers (GPU-seconds) */
  guint32 spot_evictions;   /* times a spot interruption evicted it (autoscale.h) */
  double spot_lost_gpu_s;   /* work those lost x workers (GPU-seconds) */
  double quota_gpu_s;       /* GPU-seconds admitted under its ClusterQueue's quota (Kueue) */
  double borrowed_gpu_s;    /* of which above the queue's nominal quota at admission */
  double oversub_gpu_s;     /* worker-seconds run with memory beyond the card (host memory
                             * through unified memory, docs/models.md); 0 when never */
  double oversub_slowdown;  /* its mean page-migration slowdown over them; NAN when none */
} job_result;

typedef struct gpu_result {
  const char *pool;
  guint32 node, index;      /* node within pool, GPU within node */
  double allocated_s, busy_s, sm_active_s; /* time integrals */
  double mem_gb_s;          /* integral of memory used (GB x s) */
  double peak_mem_gb;
  guint32 jobs_hosted;
  guint32 oom_events;
  double oversub_s;         /* time its residents held more memory than the card */
} gpu_result;

typedef struct pool_result {
  const char *name, *gpu_model, *strategy;
  const char *settings;     /* the pool's resolved settings in words, with the NVIDIA file and
                             * key each came from (scenario_pool_describe) */
  guint32 gpus;
  double price_per_gpu_hour;
  double provisioned_gpu_s;
  double allocated_gpu_s, busy_gpu_s, sm_active_gpu_s, mem_gb_s;
  double cost;              /* provisioned GPU-hours x price (+ licences) */
  double licence_cost;
  guint32 jobs_routed, jobs_completed, jobs_failed, jobs_unplaceable, jobs_running, jobs_queued;
  double wait_mean_s, wait_p50_s, wait_p95_s, wait_max_s; /* over jobs that started */
  guint32 oom_kills, innocent_victims, crashes, restarts, evictions, reconfigurations;
  guint32 fault_victims;    /* of innocent_victims, those of a fault other than an OOM kill
                             * (a crash's neighbours): summary.txt only */
  double work_lost_gpu_s;
  double straggler_wait_gpu_s;
  double drain_gpu_s;       /* MIG: GPU-seconds draining for a reconfiguration (no new placements) */
  double down_gpu_s;        /* MIG: GPU-seconds down while the layout was rewritten */
  double vgpu_s;            /* licensed worker-seconds (vGPU: vGPU-seconds held by running VMs),
                             * in pools whose strategy charges a licence */
  results_culls culls;      /* its notebooks' (the rows' sums) */
  /* memory oversubscription (the rows' sums): jobs that ran with memory beyond the card,
   * their worker-seconds so, and those x their slowdown (the mean slowdown's numerator) */
  guint32 oversub_jobs;
  double oversub_gpu_s, oversub_slow_gpu_s;
  /* autoscaling (src/sim/autoscale.c; results.autoscale): node-seconds provisioned (booting,
   * ready or under a spot notice; what is billed), the bounds, nodes asked for and removed,
   * spot interruptions and the work they lost (GPU-seconds) */
  gboolean autoscaled;      /* this pool autoscales (a fixed pool in such a run: its nodes
                             * all the run, min = max = peak, no scaling) */
  double node_s;
  guint32 nodes_min, nodes_max, nodes_peak, scale_ups, scale_downs, spot_interruptions;
  double spot_lost_gpu_s;
} pool_result;

/* A tenant's part of the pools' gauges: each GPU's allocated, busy and SM-active time
 * split among its residents by the share of the GPU each held (metrics.h), so tenants
 * add up to the pools and busy <= allocated for each. */
typedef struct tenant_result {
  const char *name;
  guint32 jobs;
  double allocated_gpu_s, busy_gpu_s, sm_active_gpu_s;
  double cost;              /* showback: allocated GPU-hours x the pool's price, + licences */
  guint32 preempted, preempts_caused; /* preemptions its jobs suffered and caused */
  guint32 reclaimed, reclaims_caused; /* of which Kueue's to reclaim lent quota */
  double preempt_lost_gpu_s; /* work its jobs lost to preemptions x workers (GPU-seconds) */
  guint32 spot_evictions;   /* its jobs evicted by spot interruptions */
  double spot_lost_gpu_s;   /* work they lost x workers (GPU-seconds) */
  results_culls culls;      /* its notebooks' (the rows' sums) */
  double quota_gpu_s, borrowed_gpu_s; /* GPU-seconds admitted under a Kueue quota, borrowed */
  guint32 blast_caused;     /* jobs of other tenants its jobs' faults killed or evicted */
  guint32 blast_suffered;   /* its jobs killed or evicted by other tenants' jobs' faults */
} tenant_result;

/* Blast radius (docs/models.md "Blast radius"): the faults that reach a job other than the
 * one at fault, by kind. An OOM kill's innocent victims, a crash's (the other clients of an
 * MPS server), a MIG drain's or mode switch's evictions. */
typedef enum { BLAST_OOM_KILL = 0, BLAST_CRASH, BLAST_EVICTION, BLAST_KIND_COUNT } blast_kind;
const char *blast_kind_name(blast_kind k);
/* What the fault did to the victim (stalled: none of the modelled faults stalls a job yet;
 * the column is the format's, 0 today). */
typedef enum { BLAST_DIED = 0, BLAST_STALLED, BLAST_EVICTED, BLAST_EFFECT_COUNT } blast_effect;
/* The source tenant of a fault no job caused (an eviction with no waiting job behind it). */
#define BLAST_NO_SOURCE "-"
typedef struct blast_row {
  blast_kind kind;
  const char *from;         /* the tenant of the job at fault, BLAST_NO_SOURCE when none */
  const char *to;           /* the victims' tenant (borrowed from the trace or results) */
  guint32 n[BLAST_EFFECT_COUNT]; /* victims died, stalled, evicted */
} blast_row;

typedef struct ts_row {       /* one pool, one interval */
  guint32 pool;
  double t_start_s, t_end_s;
  double allocated, busy, sm_active; /* mean fraction of the pool's GPUs over the interval */
  double mem_used_gb;       /* mean memory in use over the interval, whole pool */
  double queued;            /* mean number of queued jobs over the interval */
  double running;           /* mean number of running jobs */
  guint64 slo_violations;   /* inference requests of the pool's services that missed their
                             * SLO (or were dropped), by arrival interval (docs/models.md) */
  /* fragmentation against the pool's target workload (Weng et al., ATC '23; docs/models.md):
   * mean fragmented and mean free GPUs over the interval (fragmentation.csv) */
  double frag_gpus, idle_gpus;
} ts_row;

/* One inference service (services.csv), filled by workload-inference.c's report hook.
 * Latencies are of served requests; a dropped request (arrived while the service was down
 * or could not hold one more request in memory, or was cut off by a kill) counts as a
 * request that missed its SLO. */
typedef struct service_result {
  const char *id, *pool;    /* the results' copy of the id (sim_service); the pool's
                             * name borrowed from the scenario ("" when never routed) */
  guint64 requests;         /* served + dropped + unanswered */
  guint64 served, dropped;  /* dropped: found no server (service down, no room, killed) */
  guint64 unanswered;       /* still queued or in service when the session or run ended */
  guint64 violations;       /* requests over slo_ms, dropped and unanswered ones included
                             * (0 without SLO) */
  double mean_ms, p50_ms, p95_ms, p99_ms, max_ms; /* NAN when nothing was served */
  double slo_ms;            /* NAN when the service has no SLO */
  double slo_pct;           /* target share of requests within slo_ms */
  double attainment_pct;    /* share of requests within slo_ms; NAN without SLO or requests */
  int met;                  /* 1 when attainment >= slo_pct, 0 when not, -1 undefined */
  double violation_minutes; /* minutes of the interval grid whose attainment was below target */
  guint32 violation_intervals;
  double busy_frac;         /* measured share of its up time with a request in service */
  struct histogram *latency_ns; /* served latencies (histogram.h), owned; NULL if never run */
  /* LLM services (workload-llm.c): latency above is end to end */
  gboolean llm;
  double ttft_p50_ms, ttft_p99_ms, tpot_p50_ms, tpot_p99_ms; /* NAN when none */
  struct histogram *ttft_ns, *tpot_ns; /* their distributions, owned; NULL if not LLM */
  double goodput_rps;       /* requests meeting every SLO they have, per second up */
  double last_end_ms;       /* the last request's end (ms from the run's start; NAN when
                             * none); not written to a file (validate reads it) */
  int64_t kv_blocks;        /* KV-cache blocks (16 tokens) the pre-allocation left */
  double reserved_gb;       /* memory pre-allocated (gpu_memory_utilization x visible) */
} service_result;

/* One tenant, one interval: mean GPUs allocated to it and mean GPUs busy with its work. */
typedef struct tenant_ts_row {
  const char *tenant;       /* borrowed from the trace */
  double t_start_s, t_end_s;
  double allocated_gpus, busy_gpus;
} tenant_ts_row;

/* One tenant, one interval, as the run integrates it: GPU x ns allocated and busy. */
typedef struct tenant_cell {
  double alloc_gpu_ns, busy_gpu_ns;
} tenant_cell;
/* The row of interval b (of interval_ns, the last one cut at end_ns) from a tenant's cells
 * (NULL or shorter than b: none, zeros). */
tenant_ts_row results_tenant_ts_row(const char *tenant, const GArray *cells, gint64 interval_ns,
                                    gint64 end_ns, guint64 b);

/* One GPU, one interval (run --dcgm: sim_options.gpu_series; every GPU of every pool, idle
 * ones too: jobs_n 0): the means over the interval, and the jobs resident at some time in
 * it. */
typedef struct gpu_series_row {
  guint32 pool, node, gpu;  /* gpu: index within its node */
  double t_start_s, t_end_s;
  double allocated, busy, sm_active, mem_gb; /* mem_gb: the mean; peak_mem_gb: the largest */
  double peak_mem_gb;
  guint32 jobs_first, jobs_n; /* r->gpu_series_jobs[first .. first + n) */
} gpu_series_row;

/* A job resident on a GPU in an interval (gpu_series_row): its index into r->jobs, and the
 * MIG instance it held there (its first in the interval), as dcgm-exporter labels a MIG
 * device: 0 for the whole card, else GPU_SERIES_INST(profile, gi_id) with profile the
 * index into the pool's GPU model's profiles (catalog.h) and gi_id the instance's number
 * on its GPU (docs/outputs.md, dcgm.prom). */
typedef struct gpu_series_job {
  guint32 job, inst;
} gpu_series_job;
#define GPU_SERIES_INST(profile, gi_id) ((((guint32)(profile) + 1u) << 8) | ((guint32)(gi_id) & 0xffu))
#define GPU_SERIES_INST_PROFILE(inst) (((inst) >> 8) - 1u) /* inst != 0 */
#define GPU_SERIES_INST_ID(inst) ((inst) & 0xffu)

typedef enum {
  EVENT_OOM_KILL = 0, EVENT_CRASH, EVENT_RESTART, EVENT_EVICTION, EVENT_RECONFIGURE,
  EVENT_UNPLACEABLE, EVENT_BACKOFF, EVENT_PREEMPTION, EVENT_CULL,
  /* MIG carved on demand (share-migdyn.c): an instance created (its slices taken, detail
   * "PROFILE@START"), destroyed (its slices free again), a job refused by fragmentation */
  EVENT_MIG_CREATE, EVENT_MIG_DESTROY, EVENT_MIG_FRAGMENTED,
  /* autoscaling and spot (src/sim/autoscale.c; job empty, node set, gpu -1): a node asked
   * for (its boot begins, billed from now), ready (takes jobs), removed (unbilled from now),
   * and a spot interruption's notice (no new jobs; its residents evicted at the end) */
  EVENT_NODE_PROVISION, EVENT_NODE_READY, EVENT_NODE_REMOVE, EVENT_SPOT_NOTICE,
  EVENT_KIND_COUNT
} event_kind;
const char *event_kind_name(event_kind k);

typedef struct event_row {
  double t_s;
  event_kind kind;
  const char *job;          /* victim / subject (borrowed) */
  const char *cause_job;    /* whose allocation or crash caused it, or NULL */
  const char *pool;
  int node, gpu;            /* -1 when not on a GPU */
  gboolean innocent;        /* victim was not the cause */
  double work_lost_s;
  const char *detail;       /* owned by results string chunk */
} event_row;

/* The SLO headline of the inference services (results_slo_summary). */
typedef struct results_slo {
  guint32 services, judged, met;
  guint64 requests, violations;
  double attainment_pct;
  double violation_minutes;
} results_slo;

/* With streamed services, the most services results_slo_worst can name, and the LLM
 * services (the first ones, trace order) the text summary shows. */
#define RESULTS_SLO_WORST 5
#define RESULTS_LLM_SHOWN 3

typedef struct results {
  char *scenario_name;
  char *scenario_path, *trace_path;
  uint64_t seed;
  char *csv_key;            /* "SCENARIO,SEED," as every result CSV's rows begin, the name
                             * quoted as a CSV field must be (results_set_run); NULL: the
                             * writers format it from the two fields above */
  double end_s;             /* simulated span [0, end_s] */
  double start_unix;        /* calendar time of second 0 (scenario start:), NAN if none */
  double interval_s;
  double cull_timeout_s;    /* notebook_cull_timeout: the idle culler's, 0 when off (the
                             * culling figures are written only when it is on) */
  uint64_t events;          /* events simulated: the engine's, and the notebooks' bursts
                             * walked without events (bursts.h) */
  uint64_t heap_events;     /* of them, those the engine processed */
  double wall_s;            /* wall-clock seconds of the run (NOT written to deterministic files) */
  GArray *jobs;             /* job_result, trace order; empty when the rows were streamed
                             * (sim_options.job_sink): read the aggregates below instead */
  /* Aggregates over every job's row (results_add_job), kept whether or not the rows are:
   * what the totals, the pools' waits and the reports read. */
  guint32 job_count;
  guint32 job_outcomes[OUTCOME_COUNT];
  double straggler_delay_h;  /* sum of the rows' straggler_delay_s / 3600, trace order */
  double slowdown_sum;       /* over completed rows with a finite slowdown, trace order */
  guint32 slowdown_n;
  guint32 jobs_live_peak;    /* the most jobs whose state the simulator held at once (not
                              * written to any file: for the memory tests) */
  GPtrArray *job_waits;      /* GArray of double per pool_index + 1 (0: no pool): wait_s of
                              * the rows that started and waited (8 bytes per such job) */
  GArray *prio_waits;       /* results_prio_waits per distinct priority, in order of first
                              * appearance (at most RESULTS_MAX_PRIORITIES, the rest in one
                              * `other` entry); NULL unless the scenario has priority classes */
  GArray *job_waits_zero;    /* guint64 per the same slots: the rows that started without
                              * waiting (wait_s +0.0, most of them), counted, not stored */
  GArray *gpus;             /* gpu_result, pool order then node then index */
  GArray *pools;            /* pool_result, scenario order */
  GArray *tenants;          /* tenant_result, sorted by name */
  GArray *blast;            /* blast_row with a victim, by kind, then from, then to (names:
                             * strcmp order); same-tenant pairs included (from == to) */
  double stopped_at_s;      /* the run gave up early (sim_options.give_up_*) at this time;
                             * NAN when it ran to its end */
  guint64 stopped_late;     /* then: the jobs that had first started late */
  double stopped_wait_s;    /* then: after how long since submission a start was late */
  gboolean preemption;      /* the scenario let jobs preempt: tenants.csv and the summary
                             * show the preemptions (opt-in columns) */
  gboolean quotas;          /* the scenario has Kueue quotas: tenants.csv and the summary
                             * show quota and borrowed GPU-hours (opt-in columns) */
  gboolean reclaim;         /* a ClusterQueue preempts (Kueue's spec.preemption): tenants.csv
                             * and the summary show the preemptions to reclaim quota too */
  gboolean oversub;         /* a pool lets cards hold more memory than they have (unified
                             * memory): jobs.csv, gpus.csv and the summary show it (opt-in) */
  gboolean autoscale;       /* a pool autoscales: pools.csv, summary.json and the summary
                             * show its node-hours and scaling (opt-in) */
  gboolean spot;            /* a pool is spot capacity: tenants.csv and the summary show the
                             * interruptions' evictions and lost work (opt-in) */
  GArray *timeseries;       /* ts_row, by pool then time */
  GArray *tenant_timeseries; /* tenant_ts_row, by tenant (tenants order) then time; empty
                              * when the series are streamed (below) */
  /* Streamed series (sim_options.ts_sink): the time series rows went to the sink as their
   * intervals closed, so timeseries stays empty; ts_slo holds each pool's SLO violations by
   * interval (a GArray of guint64 per pool, row k's in element k) for the writer to complete
   * them. The tenant series stay as their cells: tenant_cells holds one GArray of
   * tenant_cell (or NULL) per tenants entry, on the grid of series_interval_ns up to
   * series_end_ns (results_tenant_ts_row makes the rows). NULL when not streamed. */
  GPtrArray *ts_slo;
  GPtrArray *tenant_cells;
  gint64 series_interval_ns, series_end_ns;
  GArray *events_log;       /* event_row, by time then sequence */
  GArray *services;         /* service_result, trace order (inference jobs) */
  GArray *gpu_series;       /* gpu_series_row by pool, then time, then GPU; empty unless asked */
  GArray *gpu_series_jobs;  /* gpu_series_job */
  gboolean gpu_series_on;   /* the run recorded them: the result folder gets dcgm.csv/.prom */
  /* Streamed services (sim_options.services_sink): each services row went to the sink in
   * trace order, and services keeps only the rows the summaries name (results_slo_worst's
   * RESULTS_SLO_WORST worst, the first RESULTS_LLM_SHOWN LLM services; their histograms
   * freed); slo_streamed and llm_services are the figures over every row. */
  gboolean services_streamed;
  results_slo slo_streamed;
  guint32 llm_services;
  GByteArray *services_keep; /* per kept row: why (1: among the worst, 2: an LLM one shown) */
  GStringChunk *strings;
} results;

results *results_new(void);
void results_free(results *r);
/* The run's scenario name and seed, and csv_key from them (made once per run, so that a
 * row of jobs.csv copies its first two fields instead of formatting them). */
void results_set_run(results *r, const char *scenario_name, uint64_t seed);
/* Frees what a services.csv row owns (its histograms). */
void results_service_clear(service_result *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(results, results_free)
const char *results_intern(results *r, const char *s);
/* Adds one job's final row, in trace order: updates the aggregates above and, when keep,
 * appends a copy to r->jobs (its strings must then outlive r: borrowed or interned). */
void results_add_job(results *r, const job_result *j, gboolean keep);

/* Headline figures derived from the arrays (used by the text summary, JSON and compare). */
typedef struct results_totals {
  guint32 gpus;
  double provisioned_gpu_h, allocated_gpu_h, busy_gpu_h, sm_active_gpu_h;
  double allocated_frac, busy_frac, sm_active_frac; /* of provisioned */
  double cost, idle_cost, cost_per_busy_gpu_h;
  guint32 jobs, completed, failed, unplaceable, running, queued, not_submitted;
  double wait_mean_s, wait_p50_s, wait_p95_s, wait_max_s;
  guint32 oom_kills, innocent_victims, crashes, restarts, evictions, reconfigurations;
  guint32 fault_victims;    /* of innocent_victims, a crash's (not an OOM kill's) */
  double work_lost_gpu_h;
  double straggler_delay_h, straggler_wait_gpu_h;
  double slowdown_mean;     /* over completed jobs with a slowdown (the kinds that run work) */
} results_totals;
void results_compute_totals(const results *r, results_totals *t);

/* Queue-wait statistics over n values (seconds): mean, median, 95th percentile (GSL's
 * linear interpolation between order statistics) and maximum. Sorts wait_s in place;
 * non-finite values must not be passed. All four are NAN when n is 0. */
void results_wait_stats(double *wait_s, gsize n, double *mean_s, double *p50_s,
                        double *p95_s, double *max_s);
/* Fills every pool's wait_mean/p50/p95/max_s from the jobs routed to it (pool_index)
 * that started (r->job_waits), with results_wait_stats; likewise each priority's. */
void results_fill_pool_waits(results *r);
/* Sum of the tenants' showback cost; a tenant's cost_share is its cost over this
 * (NAN when it is 0), so the shares add up to 1. */
double results_showback_total(const results *r);
/* Node-hours provisioned over the pools (pool_result.node_s; 0 unless r->autoscale). */
double results_node_h(const results *r);
/* The idle culler's figures over every pool (the sum of the pools' rows). */
void results_culls_total(const results *r, results_culls *out);
/* The queue waits of the jobs of one priority that started (wait by priority, only with
 * priority classes): the non-zero waits, the count of zero ones, the jobs of that priority. */
#define RESULTS_MAX_PRIORITIES 64
typedef struct results_prio_waits {
  int32_t priority;
  gboolean other;           /* the priorities beyond the first RESULTS_MAX_PRIORITIES */
  GArray *waits;            /* double: the non-zero waits (8 bytes per such job) */
  guint64 zeros, jobs;
  double mean_s, p50_s, p95_s, max_s; /* over those that started (results_fill_pool_waits) */
} results_prio_waits;
/* Turns wait by priority on (before the first results_add_job). */
void results_track_priorities(results *r);
/* The entries of r->prio_waits, highest priority first (`other` last): indices into it. */
GArray *results_prio_order(const results *r);
/* The scheduler's figures over every tenant (the sum of the tenants' rows): preemptions
 * suffered, of which Kueue's to reclaim lent quota, the work they lost x workers, and the
 * GPU-seconds admitted under a Kueue quota and borrowed. */
typedef struct results_sched {
  guint32 preempted, reclaimed;
  double preempt_lost_gpu_s, quota_gpu_s, borrowed_gpu_s;
} results_sched;
void results_sched_total(const results *r, results_sched *out);
/* Memory oversubscription over the run (r->oversub): GPU-seconds with more memory than
 * the card (the GPUs' oversub_s), the jobs that ran with memory beyond it, their
 * worker-seconds so and those x their slowdown (the pools' sums). */
typedef struct results_oversub {
  double gpu_s, job_gpu_s, slow_gpu_s;
  guint32 jobs;
} results_oversub;
void results_oversub_total(const results *r, results_oversub *out);
/* Blast radius over the run: victims by effect (out[BLAST_DIED ..]) of every kind, all
 * pairs (all TRUE) or only those of one tenant's fault in another tenant. */
void results_blast_total(const results *r, gboolean all, guint32 out[BLAST_EFFECT_COUNT]);

/* SLO headline over r->services: services, those with an SLO and at least one request
 * (judged), those of them that met their target, and all their requests and violations
 * (attainment_pct over every judged request; NAN when none). */
void results_slo_summary(const results *r, results_slo *out);
/* Up to n judged services that missed their target, worst first (lowest attainment, then
 * most violation minutes, then trace order), as indices into r->services. Returns how many. */
guint results_slo_worst(const results *r, guint n, guint *idx_out);
/* Rows [from, len) of r->services were just handed to the services sink, in trace order:
 * adds them to slo_streamed and llm_services and keeps of them, and of the rows kept
 * before, only those the summaries name (sets services_streamed). */
void results_services_streamed(results *r, guint from);
/* Moves from's services rows and what their streaming kept (services_streamed, slo_streamed,
 * llm_services, services_keep) into r, which has none of its own yet: the row writer
 * (rowwriter.c) streams them into a results of its own while the run goes. */
void results_services_move(results *r, results *from);
