/* rowwriter.h: the rows of finished jobs, from the simulation to jobs.csv and services.csv
 * and the run's per-row sums, in trace order. sim.c builds one self-contained record per
 * job as it ends (rowwriter_put: its job_result figures, id, reason, GPUs and services rows)
 * and frees the job's state at once; the writer puts the records back in trace order (a
 * record whose turn has not come waits in memory, and past a budget in the spill,
 * rowspill.h) and does, row by row in trace order, what a row's turn does: results_add_job,
 * the pools' job counters and straggler sums, the tenants' job counts and licence sums, the
 * job sink, the services rows and their sink. The records go over in batches to a thread of the writer's own (a run
 * with a job sink) or are handled in the caller's thread (kept rows, small runs): the same
 * code, the same bytes, whatever the timing. */
#pragma once
#include <glib.h>
#include "results.h"
#include "metrics.h"

typedef struct rowwriter rowwriter;

/* A job sink (sim_options.job_sink): FALSE with error when the row could not be written. */
typedef gboolean (*rowwriter_job_sink)(void *data, const results *r, const job_result *j,
                                       GError **error);

typedef struct rowwriter_config {
  results *res;               /* the run's results: the job aggregates (results_add_job),
                               * and at rowwriter_finish the services rows */
  metrics *m;                 /* licence rates per pool (read at rowwriter_new) and, at
                               * rowwriter_finish, the tenants' job sums */
  guint n_pools;
  guint32 n_rows;             /* the trace's rows: every one is put exactly once */
  rowwriter_job_sink job_sink; /* NULL: the rows are kept in res->jobs (strings interned) */
  void *job_sink_data;
  metrics_services_sink services_sink; /* NULL: res->services keeps every row */
  void *services_sink_data;
  gboolean spill;             /* rows waiting for an earlier one past the writer's memory
                               * budget go to a rowspill file (FALSE: all stay in memory) */
  const char *spill_dir;      /* its folder (NULL: the temporary folder) */
  gboolean thread;            /* a writer thread (only with a job sink: a kept row interns
                               * its strings into res, which the simulation writes too) */
  /* tests (sim_options.test): the held rows' memory budget (0: RW_HOLD_BYTES; clamped to
   * 4 KB .. 1 GB: a small one spills many runs), and the spill's read that fails, once
   * (0: none) */
  guint64 hold_bytes, spill_fail_read;
} rowwriter_config;

/* What a record holds besides its texts: the row's figures (id, reason and gpu_ids are
 * the record's own: set by rowwriter_put's arguments and the GPUs it returns; kind,
 * tenant and pool are borrowed from static names, the trace and the scenario, which
 * outlive the run) and what the row's turn adds to the pools and tenants. */
typedef struct rowwriter_row {
  job_result jr;
  guint32 row;                /* trace row */
  guint32 tenant;             /* metrics_tenant index */
  double straggler_wait_gpu_ns, run_ns;
} rowwriter_row;

rowwriter *rowwriter_new(const rowwriter_config *c);
/* Hands row r over with its id and reason (copied) and services rows (owned, their
 * histograms with them; NULL: none). Returns room for n_gpus (node, GPU in node) pairs of
 * its last placement, which the caller fills before the next call: gpu_ids is formatted
 * from them and jr.pool ("pool/n0/g3;pool/n1/g0"). */
guint32 *rowwriter_put(rowwriter *w, const rowwriter_row *r, const char *id, const char *reason,
                       guint32 n_gpus, GArray *services);
/* TRUE once the writer failed (a sink's error, a spill read back): the run can stop. */
gboolean rowwriter_failed(rowwriter *w);
/* After the last row: waits for the writer, moves the services rows into res and adds the
 * tenants' sums to m; FALSE with the writer's error (SHARESIM_ERROR_RUNTIME). */
gboolean rowwriter_finish(rowwriter *w, GError **error);
/* After rowwriter_finish: the pool's job counts by outcome (jobs_routed .. jobs_queued)
 * and the sum of its rows' straggler_wait_gpu_ns, in trace order. */
const pool_result *rowwriter_pool_jobs(const rowwriter *w, guint pool);
double rowwriter_straggler_wait_gpu_ns(const rowwriter *w, guint pool);
/* Stops the thread if it runs (rows not written are dropped) and frees everything. */
void rowwriter_free(rowwriter *w);
