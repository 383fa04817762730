/* sim.h: one simulation run: arrivals, routing, queueing and placement, progress and
 * completions, phases, crashes, out-of-memory kills and restarts, and the freezing of
 * results. sim_run is the whole public entry; the sim_job_* calls are what the plug-in
 * bridges (share.c, workload.c) forward to, through host.h. The highest room of src/sim
 * (docs/architecture.md). */
#pragma once
#include <glib.h>
#include "scenario.h"
#include "trace.h"
#include "results.h"
#include "cluster.h"
#include "reference.h"
#include "prerun.h"

typedef struct sim sim;

/* Runs of this many jobs or more write their rows on a thread (sim_options.writer_thread). */
#define SIM_WRITER_THREAD_JOBS 20000

typedef struct sim_options {
  gboolean progress;         /* progress bar on stderr (only when it is a terminal) */
  gboolean gpu_series;       /* record results->gpu_series (per GPU and interval; run --dcgm) */
  /* When not NULL: another thread may set *stop (g_atomic_int_set, non-zero) to end the
   * run early; sim_run then returns NULL with a SHARESIM_ERROR_RUNTIME error (size stops
   * the probes its search no longer needs). Checked every 65,536 events. */
  const gint *stop;
  /* When not NULL: each job's jobs.csv row is handed to job_sink, in trace order, as soon as
   * it is final (the job ended and every earlier job's row was handed over; the others at
   * the end of the run), and results->jobs stays empty (the reports read its aggregates).
   * The row's strings are valid only during the call. NULL: the rows are kept in
   * results->jobs (tests, validate, run --dcgm, whose series point into them). With a sink
   * the rows (and the services rows) are put in order and written on a thread of their own
   * (rowwriter.h; see writer_thread), so job_sink and services_sink must not touch what
   * another thread uses during the run. A sink returns FALSE with error when it could not
   * write: the run stops and sim_run returns NULL with that error. */
  gboolean (*job_sink)(void *data, const results *r, const job_result *j, GError **error);
  void *job_sink_data;
  /* With a job sink: 0 writes the rows on a thread for runs of SIM_WRITER_THREAD_JOBS jobs
   * or more and in the run's own thread below that, > 0 always on a thread, < 0 never. */
  int writer_thread;
  /* With a job sink: the folder of the unnamed temporary file (rowspill.h) that holds the
   * rows of finished jobs waiting for an earlier job's row (NULL: the temporary folder).
   * Without one such rows stay in memory. */
  const char *spill_dir;
  /* When not NULL: each pool's time series row is handed to ts_sink as its interval closes
   * (metrics_set_ts_sink: results->timeseries stays empty, the tenant series stay cells). */
  void (*ts_sink)(void *data, const ts_row *row);
  void *ts_sink_data;
  /* When not NULL: each services row is handed to services_sink, in trace order, once its
   * job's row is out (by the row writer, as job_sink: results->services then keeps only the
   * rows the summaries name, results_services_streamed). */
  void (*services_sink)(void *data, const results *r, const service_result *row);
  void *services_sink_data;
  /* Give up early (plan's probes, docs/studies.md "plan"): once give_up_late jobs have
   * waited more than give_up_wait_s since their submission before their first start
   * (started that late, or still queued that long), the run ends there as at a horizon and
   * results->stopped_at_s says when. The caller knows that so many such jobs already break
   * its constraint. 0: off. */
  double give_up_wait_s;
  guint64 give_up_late;
  /* Events pending at once beyond which the run ends with a SHARESIM_ERROR_RUNTIME error
   * (engine_full); 0: the engine's own limit, ENGINE_MAX_PENDING (tests set fewer). */
  guint64 max_pending_events;
  /* When not NULL and made for this scenario and trace: the one pass over the rows that
   * the checks before the run made (prerun.h) also gives the run its tenants and the
   * pools' target workloads, instead of a pass of its own. */
  const struct prerun *prerun;
  /* The fast paths to run the reference way (SIM_REF_*; run --reference): 0 takes every
   * fast path, SIM_REF_ALL none. Either way the results are the same bytes. */
  guint reference;
  /* Test hooks (HACKING.md, "Test hooks"; run's hidden --test-hold-bytes and
   * --test-fail-read): sizes that make rare paths common, a planted failure. 0: off. */
  struct {
    guint64 row_hold_bytes;  /* the row writer's memory budget (rowwriter_config.hold_bytes) */
    guint64 spill_fail_read; /* the n-th read of the row spill fails, once (rowspill_new) */
  } test;
} sim_options;


/* The models' constants a scenario may set, NULL-terminated, in the order of the scenario
 * reader's lists: each declared by the file of its model (share.c, share-mps.c, sim.c,
 * workload-notebook.c, workload-inference.c, workload-llm.c); the program hands the table
 * to the reader (scenario_use_model_keys). A new constant: its declaration in its model's
 * file and a row here (sim.c). */
extern const scenario_model_key *const sim_model_keys[];
/* The pools' sections the scenario reader takes (scenario_use_pool_sections): autoscaling
 * and spot capacity (autoscale.c). */
extern const scenario_pool_section *const sim_pool_sections[];
/* The restart keys (max_restarts, restart_backoff, _max, _reset), declared in sim.c. */
extern const scenario_model_key sim_key_max_restarts, sim_key_restart_backoff,
    sim_key_restart_backoff_max, sim_key_restart_backoff_reset;

/* Runs the scenario on the trace. Returns owned results, or NULL with error set. */
results *sim_run(const scenario *sc, const trace *tr, const sim_options *opt, GError **error);

/* sim_check_scenario, sim_check_jobs and sim_check_job, the checks `check` and `run` make
 * before a run, are prerun.c's (prerun.h, included above). */

/* ---- the run's side of the plug-in bridges: share.c and workload.c, below this room,
 * reach these through the calls every sim begins with (host.h), never by name ---- */
sim_time sim_now(const sim *s);
/* When j's GPUs should be free of it if nothing happens (ns, as a double): a session's
 * end, else now + work left / rate (INFINITY without progress). */
double sim_job_expected_end(const sim *s, const job_run *j);
/* Schedules handler(sim, obj, arg) at `at` (now if earlier). */
event_id sim_at(sim *s, sim_time at, engine_handler handler, void *obj, uint64_t arg);
/* Asks for a scheduling pass of p at the current instant (after same-time events). */
void sim_request_schedule(sim *s, pool_state *p);
/* Tries to place the queued job j (of pool p) now; TRUE if it started. Not from inside a
 * scheduling pass. */
gboolean sim_try_start(sim *s, pool_state *p, job_run *j);
/* Kills every job with a worker on g as an eviction (events.csv `eviction` rows, work
 * since the last checkpoint lost); evicted jobs go back to their queue whatever their
 * restart policy. Not from inside a scheduling pass. source: the job the eviction is for
 * (its tenant is the blast radius's source), NULL when none. */
void sim_evict_gpu(sim *s, gpu_state *g, const job_run *source, const char *detail);
/* Appends an events.csv row at the current time (j, cause, g may be NULL). */
void sim_log_event(sim *s, event_kind kind, const pool_state *p, const gpu_state *g,
                   const job_run *j, const job_run *cause, const char *detail);
/* What workload.h's workload_job_* calls do (there described). */
void sim_job_set_demand(sim *s, job_run *j, gboolean active, double duty, double work_ns);
void sim_job_refresh(sim *s, job_run *j);
int64_t sim_job_mem_room(const sim *s, const job_run *j, guint32 w);
int64_t sim_job_mem_visible(const sim *s, const job_run *j, guint32 w);
void sim_job_set_mem(sim *s, job_run *j, int64_t bytes);
void sim_job_partition(const sim *s, const job_run *j, guint32 w, double *sm_frac,
                       double *bw_frac);
void sim_job_set_timer(sim *s, job_run *j, sim_time at);
gboolean sim_job_walk_bursts(sim *s, job_run *j, const struct notebook_toggles *t);
void sim_job_cull(sim *s, job_run *j, sim_time back);
void sim_job_finish(sim *s, job_run *j, job_outcome outcome);
void sim_service(sim *s, const service_result *row);
gboolean sim_reference(const sim *s, unsigned what);
