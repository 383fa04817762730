/* budget.h: an estimate of the work and memory a run needs, from the scenario and trace
 * alone, checked against a documented budget before anything is simulated (SPEC 6:
 * bounded work; docs/scenario-format.md, "Work budget"). The commands refuse a run beyond
 * the budget unless --allow-large; the estimate never allocates in proportion to it. */
#pragma once
#include <glib.h>
#include "scenario.h"
#include "trace.h"
#include "diag.h"

/* The budget. Throughputs and sizes were measured on the optimised build (see the doc
 * section for the runs); each budget is about 5 minutes of simulation or 4 GB of memory. */
#define BUDGET_MAX_REQUESTS 1e10      /* ~3.7e7 simulated requests/s: ~4.5 min */
#define BUDGET_MAX_EVENTS 5e8         /* ~2e6 notebook burst events/s: ~4 min */
#define BUDGET_MAX_MEM_BYTES 4e9      /* assumption: fits an 8 GB machine beside its system */
#define BUDGET_BYTES_BASE 16e6       /* the process itself: code, GLib, GSL, json-glib and
                                      * their heaps; measured 7 MB resident for a 4-job run */
#define BUDGET_BYTES_PER_GPU 280.0    /* measured: 1e6 GPUs, 285 MB peak vs 35 MB for 1e5 */
#define BUDGET_BYTES_PER_SERIES_ROW 100.0 /* measured: 2.6e6 intervals x (1 pool + 1 tenant),
                                            * 513 MB peak vs 57 MB at 2.6e5 */
#define BUDGET_BYTES_PER_JOB 250.0    /* measured with jobs.csv streamed and the trace
                                       * packed: 1M jobs 225 MiB vs 100k jobs 53 MiB peak
                                       * (bench.yaml, mixed traces): 200 bytes a job,
                                       * rounded up for rows with more non-default fields */
#define BUDGET_BYTES_PER_TENANT 200.0  /* a tenant's state: three arrays over the pools,
                                        * its name and index (upper bound for 3 pools) */
#define BUDGET_BYTES_PER_FAULT_ROW 80.0 /* an events.csv row (kill, requeue), kept to the end:
                                         * 1e6 restarts of one job peaked at 148 MB, 70
                                         * bytes a row */
#define BUDGET_BYTES_PER_GPU_ORDER 4.0 /* run --dcgm: dcgm.prom's writer holds each per-GPU
                                        * row's index in GPU order (the rows themselves:
                                        * sizeof(gpu_series_row), one per GPU and interval) */
#define BUDGET_BYTES_PER_KEPT_ROW 250.0 /* run --dcgm keeps every row in memory: a 200-byte
                                         * job_result and its gpu_ids (100k: 109 vs 82 MB) */
#define BUDGET_BYTES_PER_GPU_JOB 48.0  /* run --dcgm: a job resident on a GPU in an interval
                                        * (gpu_series_job, 8 bytes) in the pool's array, the
                                        * results' and dcgm.prom's writer's (one GPU's), each
                                        * up to twice its length as GArrays grow */
/* run --dcgm's output (dcgm.prom and dcgm.csv): assumption, a guard against filling a disk
 * (4 times the memory budget; promtool imports such a file for many minutes). The bundled
 * three-pools scenario over its week on traces/mixed-small.csv writes 1.5 GB, estimated at
 * 9.5 GB (the estimate is an upper bound; docs/scenario-format.md) */
#define BUDGET_MAX_DCGM_BYTES 16e9
/* The most bytes of one dcgm.prom sample line but for its variable label values (counted
 * apart, escaped): the longest metric name (31), the label names, quotes and fixed text
 * with a UUID (40) and PCI bus id (16): 303 bytes in report-dcgm.c's label order; four
 * numbers of up to 10 digits (gpu, device, node twice), a GPU_I_ID of up to 3, a value of up
 * to 24 characters and a stamp of up to 20, two spaces and the newline: 392, rounded up */
#define BUDGET_DCGM_PROM_LINE 400.0
/* The same for a pool sample of dcgm.prom (report-prom.c: name, pool, scenario, a value, a
 * stamp) and a dcgm.csv row (scenario and seed key, stamp, metric, value, GPU, a UUID
 * "GPU-pool-node-gpu", host "pool-nodeN", pool, commas) */
#define BUDGET_DCGM_POOL_LINE 120.0
#define BUDGET_DCGM_CSV_ROW 200.0
#define BUDGET_DCGM_GAUGES 10.0      /* dcgm.prom's per-GPU gauges (report-dcgm.c's table) */
#define BUDGET_DCGM_CSV_GAUGES 4.0   /* of them in dcgm.csv */
#define BUDGET_DCGM_POOL_FAMILIES 6.0 /* report-prom.c's pool families */
#define BUDGET_DCGM_HEADERS 8192.0   /* # TYPE, # HELP and # EOF lines, and the CSV header */
#define BUDGET_DCGM_MODEL_NAME 64.0  /* modelName of a model with no product name */
#define BUDGET_DCGM_CONTAINER 16.0   /* the longest container label ("kserve-container") */

/* The mechanisms that schedule engine events, each declaring its share (budget.c,
 * docs/scenario-format.md "Work budget"). A mechanism that adds events must add its line
 * here: tests/invariants compares the sum with summary.json's engine.events. */
enum {
  BUDGET_EV_ARRIVALS,   /* one per job */
  BUDGET_EV_ATTEMPTS,   /* per attempt (1 + restarts): the end of its work or session, its
                         * random crash (a crash rate for its kind), on-demand MIG pools'
                         * reconfiguration and eviction per worker; the end of each
                         * restart's back-off (restart_backoff); a notebook's culls by the
                         * idle culler (its user's return, the session's end and timer) */
  BUDGET_EV_PHASES,     /* per attempt, one per phase row */
  BUDGET_EV_CHECKPOINTS,/* per attempt, its wall time at the pool's slowest / checkpoint_s */
  BUDGET_EV_DUTY,       /* inference services: one per duty window of their session */
  BUDGET_EV_BURSTS,     /* notebooks: two per burst (a burst and a gap) */
  BUDGET_EV_INTERVALS,  /* one per interval close over the span */
  BUDGET_EV_SCHEDULE,   /* scheduling passes: one per arrival and attempt event, which
                         * free or ask for GPUs (phases, bursts, checkpoints, duty windows,
                         * intervals do not: a phase that kills ends an attempt) */
  BUDGET_EV_COUNT
};

typedef struct budget_estimate {
  double span_s;        /* simulated time, an upper bound: the horizon, else the queueing
                         * span (budget_rows.span_s) */
  double gpus;          /* GPUs of all pools */
  double intervals;     /* time-series intervals over the span */
  guint tenants;        /* tenants of the trace (each has its own series) */
  double series_rows;   /* time-series rows: (pools + tenants) x intervals */
  double gpu_rows;      /* per-GPU rows (run --dcgm): GPUs x intervals, an upper bound */
  double gpu_jobs;      /* per-GPU job entries (run --dcgm: a job resident on a GPU in an
                         * interval, a sample of each gauge in dcgm.prom), an upper bound:
                         * the smaller of budget_rows.gpu_jobs_time's sum and the residents
                         * a pool's GPUs hold at once over the intervals plus the arrivals */
  double dcgm_bytes;    /* dcgm.prom and dcgm.csv together (run --dcgm), an upper bound */
  double requests;      /* simulated inference requests (the request-level model) */
  double events;        /* engine events, every mechanism's (budget_rows.ev), an upper
                         * bound of summary.json engine.events */
  double ev[BUDGET_EV_COUNT]; /* the events by mechanism */
  double mem_bytes;     /* GPUs, tenants, series, per-GPU rows and jobs together */
  /* where the largest share comes from, for the message: job indices, -1 if none */
  gint64 top_requests_job, top_events_job;
  double top_requests, top_events;
} budget_estimate;

/* The trace's share of the estimate, summed row by row in trace order, so that one pass
 * over the rows can serve the budget and the run's other checks (prerun.h): the requests,
 * each mechanism's events with the job that asks for most, and per pool the GPU-seconds
 * of work that bound how long the queue can last (the queueing span). */
typedef struct budget_rows {
  double end_s;         /* the latest submit + duration: the trace's own span */
  double requests, events;
  double ev[BUDGET_EV_COUNT];
  gint64 top_requests_job, top_events_job; /* -1 if none */
  double top_requests, top_events;
  guint tenants;        /* distinct tenants: counted by the caller */
  double fault_rows;    /* events.csv rows (kills, requeues), kept in memory to the end */
  guint n_pools;        /* per pool (routed jobs): last submit, GPU-seconds of work at the
                         * pool's slowest, the longest job at its slowest, the widest gang */
  double *pool_last_s, *pool_work_gpu_s, *pool_longest_s, *pool_widest;
  /* run --dcgm's per-GPU job entries (budget_estimate.gpu_jobs): per job and GPU, its
   * intervals resident (its wall time over the interval, plus 2 per stay on a GPU), the
   * stays (workers x attempts and culls), per pool the most residents a GPU holds at once;
   * and the longest job id and tenant together (dcgm.prom's pod and namespace labels) */
  double gpu_jobs_time, gpu_jobs_stays, *pool_residents;
  gsize longest_names;
} budget_rows;
void budget_rows_init(budget_rows *b);
void budget_rows_clear(budget_rows *b); /* frees the per-pool sums (init again to reuse) */
/* Adds row i of tr, j = trace_job(tr, i) (its phases and has_requests set); rows are added
 * in trace order, each once. */
void budget_rows_add(budget_rows *b, const scenario *sc, const trace *tr, guint i,
                     const job_spec *j);
/* The latest the run can end (seconds): the horizon, else per pool the last submit plus
 * the queue's work drained by the GPUs that a waiting job leaves busy (all but the widest
 * gang's, less one) at the pool's slowest, plus its longest job; at least the trace span. */
double budget_rows_span(const scenario *sc, const budget_rows *b);

/* Estimates a run of sc on tr (tr may be NULL: the scenario alone, e.g. `check`; the span
 * is then the horizon, or 0 when it has none). gpu_series: run --dcgm. */
void budget_estimate_run(const scenario *sc, const trace *tr, gboolean gpu_series,
                         budget_estimate *out);
/* The same with the trace's rows already summed (NULL: a pass over tr of its own). */
void budget_estimate_rows(const scenario *sc, const trace *tr, const budget_rows *rows,
                          gboolean gpu_series, budget_estimate *out);
/* "E events (arrivals a, attempts b, ...), R requests, M bytes of memory, a span of up to
 * S s" (check --estimate), and with --dcgm ", G per-GPU job entries, B bytes of dcgm
 * output". */
char *budget_estimate_describe(const budget_estimate *e);
/* Adds one problem per exceeded budget, at the line that causes it (the trace row of the
 * job that asks for most, or the scenario's interval/horizon or largest pool), with the
 * estimate, the budget and "--allow-large". TRUE when within the budget. */
gboolean budget_check(const scenario *sc, const trace *tr, gboolean gpu_series, diag_list *d);
gboolean budget_check_rows(const scenario *sc, const trace *tr, const budget_rows *rows,
                           gboolean gpu_series, diag_list *d);
/* Even with --allow-large: a problem (FALSE) when the estimated memory is beyond what this
 * process may have (the smaller of its address-space limit and the machine's memory), so
 * that a run is refused instead of aborting in an allocation. */
gboolean budget_check_memory_limit(const scenario *sc, const trace *tr, gboolean gpu_series,
                                   diag_list *d);
gboolean budget_check_memory_limit_rows(const scenario *sc, const trace *tr,
                                        const budget_rows *rows, gboolean gpu_series,
                                        diag_list *d);
