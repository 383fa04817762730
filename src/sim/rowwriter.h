/* rowwriter.h: the rows of finished jobs, from the simulation to their sinks (jobs.csv,
 * services.csv, ...) in trace order. sim.c builds one self-contained record per job as it
 * ends (rowwriter_put: its job_result figures, id, reason, GPUs and services rows) and frees
 * the job's state at once; the writer puts the records back in trace order (a record whose
 * turn has not come waits in memory, and past a budget in the spill, rowspill.h) and hands
 * each row, at its turn, to those that take it: the results' aggregates (results_add_job),
 * the metrics' sums over the rows (metrics_rowsums: pools' job counts and straggler sums,
 * tenants' jobs and licences), the job sink, and the services rows to theirs. It orders and
 * writes; it adds nothing up itself. The records go over in batches to a thread of the
 * writer's own (a run with a job sink) or are handled in the caller's thread (kept rows,
 * small runs): the same code, the same bytes, whatever the timing. */
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
  metrics *m;                 /* the metrics the rows' sums are handed to at rowwriter_finish
                               * (metrics_rowsums_new at rowwriter_new); NULL: no sums */
  guint32 n_rows;             /* the trace's rows: every one is put exactly once */
  rowwriter_job_sink job_sink; /* NULL: the rows are kept in res->jobs (strings interned) */
  void *job_sink_data;
  /* sim_options.services_sink; NULL: res->services keeps every row */
  void (*services_sink)(void *data, const results *r, const service_result *row);
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
/* Hands row r over with its id and reason (copied) and services rows (NULL: the job's
 * workload reports none; else the rows and their histograms become the record's and the
 * array, which must have no clear function, is emptied for the caller's next job). Returns room for n_gpus (node, GPU in node) pairs of
 * its last placement, which the caller fills before the next call: gpu_ids is formatted
 * from them and jr.pool ("pool/n0/g3;pool/n1/g0"). */
guint32 *rowwriter_put(rowwriter *w, const rowwriter_row *r, const char *id, const char *reason,
                       guint32 n_gpus, GArray *services);
/* TRUE once the writer failed (a sink's error, a spill read back): the run can stop. */
gboolean rowwriter_failed(rowwriter *w);
/* After the last row: waits for the writer, moves the services rows into res and hands
 * the rows' sums to the metrics (metrics_rowsums_hand_over); FALSE with the writer's error
 * (SHARESIM_ERROR_RUNTIME). */
gboolean rowwriter_finish(rowwriter *w, GError **error);
/* Stops the thread if it runs (rows not written are dropped) and frees everything. */
void rowwriter_free(rowwriter *w);
