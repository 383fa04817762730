/* trace.h: the job trace (SPEC 3.1), phases (3.2) and recorded requests (3.3), parsed,
 * validated and then frozen; the rows are split by csvread.h.
 * Columns are matched by name, in any order; an empty cell means the column's default;
 * unknown columns are errors unless they start with "x_". Every problem in a file is
 * reported (diag list, up to its cap) with file:line:column. */
#pragma once
#include <glib.h>
#include <stdint.h>
#include "util.h"
#include "diag.h"
#include "job.h"

/* Upper bounds checked when reading (docs/trace-format.md). They keep every sum and product
 * the simulator forms (submit + duration, gpus * mem, max_batch * kv) far from int64 overflow. */
#define TRACE_MAX_TIME_NS (INT64_C(1000000000) * INT64_C(1000000000)) /* 1e9 s, about 31.7 years */
#define TRACE_MAX_BYTES INT64_C(10000000000000)                      /* 10 TB per worker */
#define TRACE_MAX_GPUS 100000u
#define TRACE_MAX_BATCH 65536u
#define TRACE_MAX_RATE_RPS 1e9
/* The smallest positive rate_rps (trace and phases): one request in about 32 years. A
 * smaller positive rate is no workload but a typo, and its mean gap between requests
 * (1e9 / rate ns) overflows a double below 1e-299: refused with its line and column, so
 * that `check` and `run` agree (issue 29, S3-02). 0 is an idle service. */
#define TRACE_MIN_RATE_RPS 1e-9
#define TRACE_MAX_MS 1e12                                            /* service_ms, slo_ms */
#define TRACE_MAX_CPU_MILLI INT64_C(100000000)                       /* 100,000 cores */
#define TRACE_MAX_MEMORY_MIB INT64_C(1073741824)                     /* 1 PiB */
#define TRACE_MAX_TOKENS 10000000                                    /* prompt/output tokens */
/* One phase row: at after_ns after the job starts, the set fields replace the job's. */
enum {
  PHASE_SET_MEM = 1 << 0,
  PHASE_SET_BUSY = 1 << 1,
  PHASE_SET_SM = 1 << 2,
  PHASE_SET_RATE = 1 << 3,
  PHASE_CRASH = 1 << 4,
};
typedef struct job_phase {
  guint32 job;        /* index into trace->jobs */
  guint32 line;
  guint32 set;        /* PHASE_SET_* bits */
  sim_time after_ns;
  int64_t mem_bytes;
  double busy, sm, rate_rps;
} job_phase;

typedef struct trace {
  char *path;           /* as given */
  struct trace_rows *rows; /* the job rows, packed, in file order (tracerows.h); read them
                            * with trace_job */
  GArray *phases;       /* job_phase, sorted by (job, after_ns, line) */
  char *requests_path;  /* NULL when no requests file; read by trace_requests_* */
  guint8 *requested;    /* bit per job: a requests file names it (has_requests); NULL: none */
  GStringChunk *strings;
  GHashTable *interned; /* interning table for tenant/label */
  double start_unix;    /* calendar time of second 0 (Unix seconds) from the rows' submit_utc
                         * (submit_utc - submit_s, the same on every row); NAN without it */
  gboolean slo_set;     /* trace_set_slo: every inference job reads with slo_ms, slo_pct */
  double slo_ms, slo_pct;
} trace;

/* Loads and validates a job trace. On any problem, adds them all to diags and returns NULL.
 * A file with only a header row is a valid trace of zero jobs; an empty file is an error.
 * Returns an owned trace (free with trace_free). */
trace *trace_load(const char *path, diag_list *diags);
/* The same with flags: TRACE_ALLOW_CPU_ONLY accepts gpus = 0 (a CPU-only job, for fill). */
#define TRACE_ALLOW_CPU_ONLY 1u
/* TRACE_SPILL: the rows go to an unnamed temporary file as they are read, 65,536 at a time,
 * and come back a chunk at a time (tracerows.h), so that memory does not grow with the
 * trace (`run`); rows not in submit order are read back into memory at the end. */
#define TRACE_SPILL 2u
/* Tests: with TRACE_SPILL, chunks of 16 rows (TRACE_TEST_CHUNK_ROWS) instead of 65,536, so
 * that small traces spill many chunks (HACKING.md, "Test hooks"). */
#define TRACE_TEST_SMALL_CHUNKS 4u
#define TRACE_TEST_CHUNK_ROWS 16u
trace *trace_load_flags(const char *path, guint flags, diag_list *diags);
/* The rows are in their temporary file (TRACE_SPILL, in submit order). */
gboolean trace_spilled(const trace *t);
/* Submit times never decrease from row to row (known as the rows are read). */
gboolean trace_sorted(const trace *t);
/* Frees the id index once phases and requests are loaded: trace_find then scans. */
void trace_drop_index(trace *t);
void trace_free(trace *t);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(trace, trace_free)

/* Row i as a job_spec (built from the packed row: the strings are the trace's, valid while
 * it is, except the id of a spilled trace (TRACE_SPILL), valid until this thread reads rows
 * of two other chunks: copy it to keep it; phase_first/phase_count index trace->phases).
 * Reentrant. */
job_spec trace_job(const trace *t, guint i);
guint trace_n_jobs(const trace *t);
/* Row i's id, submit time and line, without building the rest. */
const char *trace_job_id(const trace *t, guint i);
sim_time trace_job_submit(const trace *t, guint i);
guint32 trace_job_line(const trace *t, guint i);
/* Index of job id, or -1. */
int64_t trace_find(const trace *t, const char *id);
/* Every inference job reads (trace_job) with this SLO, as if the trace said so (size --slo). */
void trace_set_slo(trace *t, double pct, double latency_ms);

/* Loads a phases file against a loaded trace (job ids must exist), replacing any phases
 * loaded before. FALSE on problems, leaving the trace with no phases. */
gboolean trace_load_phases(trace *t, const char *path, diag_list *diags);

/* Validates a requests file against the trace (job_id must be an inference job; at_s >= 0
 * and non-decreasing per job; service_ms > 0 when given) without keeping it in memory,
 * marks the jobs it names (has_requests) and remembers its path. */
gboolean trace_check_requests(trace *t, const char *path, diag_list *diags);

/* Streaming reader of a requests file (path NULL: t->requests_path): calls cb for each row
 * in file order. service_ms is NAN when the cell is empty. Stops early when cb returns FALSE
 * (still TRUE). On a problem in the file, adds it to diags, stops and returns FALSE. */
typedef gboolean (*trace_request_cb)(guint32 job, double at_s, double service_ms, void *ud);
gboolean trace_requests_foreach(const trace *t, const char *path, trace_request_cb cb,
                                void *ud, diag_list *diags);

/* ---- one job's recorded requests as a pull stream (added for the inference model) -----
 * Reads the requests file (already checked by trace_check_requests) lazily, a 16 KiB chunk
 * at a time, keeping only the rows of job_id: memory is bounded by one chunk's rows, never
 * by the file. Each open cursor reads the whole file once (rows of other jobs are skipped).
 * A row that no longer reads (the file changed after the check) ends the stream, with
 * trace_request_cursor_error set. */
typedef struct trace_request_cursor trace_request_cursor;
/* NULL with *error when the file cannot be opened. Owned. */
trace_request_cursor *trace_request_cursor_open(const char *path, const char *job_id,
                                                GError **error);
/* The job's next request in file order: TRUE with at_s and service_ms (NAN when the cell
 * is empty); FALSE at the end of the file or after an error. */
gboolean trace_request_cursor_next(trace_request_cursor *c, double *at_s, double *service_ms);
/* The same with the row's prompt_tokens and output_tokens (0 when the cell or column is
 * empty); prompt/output may be NULL. */
gboolean trace_request_cursor_next_tokens(trace_request_cursor *c, double *at_s,
                                          double *service_ms, guint32 *prompt,
                                          guint32 *output);
const GError *trace_request_cursor_error(const trace_request_cursor *c);
/* Rows read ahead and not handed out yet (for tests of the memory bound). */
gsize trace_request_cursor_buffered(const trace_request_cursor *c);
void trace_request_cursor_free(trace_request_cursor *c);

/* Writes a job trace to out, used by gen and import: the header names every SPEC 3.1
 * column in SPEC order; a row leaves a cell empty where the value is the kind's default
 * (tenant, and rate_rps/service_ms of inference jobs, are always written). Times are
 * decimal seconds, sizes decimal GB, both exact to the nanosecond/byte; other numbers in
 * the shortest form that reads back to the same double. trace_load of the text gives
 * back the same values. Each call appends one line ending in "\n". */
void trace_write_header(GString *out);
void trace_write_row(GString *out, const job_spec *j);
/* The same with the host columns cpu_milli, memory_mib and gpu_spec at the end (empty when
 * 0 / none), for importers that know them. */
void trace_write_header_host(GString *out);
void trace_write_row_host(GString *out, const job_spec *j);
/* The same with every column a job keeps (the LLM columns model, prompt_tokens,
 * output_tokens, slo_ttft_ms, slo_tpot_ms, gpu_memory_utilization, and mem_util after the
 * host columns; all but submit_utc, whose time submit_s carries): what trace_load reads
 * back is the same job. For traces sharesim writes for itself (plan's classes). */
void trace_write_header_full(GString *out);
void trace_write_row_full(GString *out, const job_spec *j);

