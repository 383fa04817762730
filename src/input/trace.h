/* trace.h: the job trace (SPEC 3.1), phases (3.2) and recorded requests (3.3), parsed,
 * validated and then frozen. trace.c is the only file that includes csv.h.
 * Columns are matched by name, in any order; an empty cell means the column's default;
 * unknown columns are errors unless they start with "x_". Every problem in a file is
 * reported (diag list, up to its cap) with file:line:column. */
#pragma once
#include <glib.h>
#include <stdint.h>
#include "util.h"
#include "diag.h"

typedef enum { RESTART_NEVER = 0, RESTART_ON_FAILURE } restart_policy;

/* The job kinds, one row each: the enum constant, the trace's `kind` value, the id prefix
 * `sharesim gen` gives its jobs, and the kind's defaults for an empty `sm` and `restart`
 * cell (docs/trace-format.md). A new kind is a row here, its workload-NAME.c and its row
 * in workload.c's table (HACKING.md, "Extending"). */
#define JOB_KINDS(X)                                            \
  X(JOB_NOTEBOOK, "notebook", "nb", 0.6, RESTART_NEVER)         \
  X(JOB_INFERENCE, "inference", "inf", 0.5, RESTART_ON_FAILURE) \
  X(JOB_TRAINING, "training", "tr", 1.0, RESTART_ON_FAILURE)    \
  X(JOB_BATCH, "batch", "bt", 1.0, RESTART_NEVER)
#define JOB_KIND_ENUM(e, name, prefix, sm, restart) e,
typedef enum { JOB_KINDS(JOB_KIND_ENUM) JOB_KIND_COUNT } job_kind;
#undef JOB_KIND_ENUM

/* Upper bounds checked when reading (docs/trace-format.md). They keep every sum and product
 * the simulator forms (submit + duration, gpus * mem, max_batch * kv) far from int64 overflow. */
#define TRACE_MAX_TIME_NS (INT64_C(1000000000) * INT64_C(1000000000)) /* 1e9 s, about 31.7 years */
#define TRACE_MAX_BYTES INT64_C(10000000000000)                      /* 10 TB per worker */
#define TRACE_MAX_GPUS 100000u
#define TRACE_MAX_BATCH 65536u
#define TRACE_MAX_RATE_RPS 1e9
#define TRACE_MAX_MS 1e12                                            /* service_ms, slo_ms */
#define TRACE_MAX_FIELD_BYTES 1048576                                /* one CSV cell */
#define TRACE_MAX_CPU_MILLI INT64_C(100000000)                       /* 100,000 cores */
#define TRACE_MAX_MEMORY_MIB INT64_C(1073741824)                     /* 1 PiB */
#define TRACE_MAX_TOKENS 10000000                                    /* prompt/output tokens */
/* "notebook", "inference", "training", "batch"; "unknown" out of range. */
const char *job_kind_name(job_kind k);
/* Exact (case-sensitive) name; FALSE and *out untouched when unknown. */
gboolean job_kind_parse(const char *text, job_kind *out);
/* The id prefix `gen` gives jobs of kind k ("nb", "inf", ...). */
const char *job_kind_id_prefix(job_kind k);

/* mem_util of a job whose trace row leaves it empty. */
#define TRACE_MEM_UTIL_UNKNOWN (-1.0)

/* One row of the job trace. Strings are owned by the trace (interned). */
typedef struct job_spec {
  const char *id;
  const char *tenant;         /* default "default" */
  const char *label;          /* default "" */
  guint32 line;               /* line in the trace file, for messages */
  job_kind kind;
  restart_policy restart;     /* default on-failure for training/inference, never otherwise */
  guint32 gpus;               /* workers; >= 1 */
  int32_t priority;           /* higher first; default 0 */
  guint32 max_batch;          /* default 1 */
  sim_time submit_ns;
  sim_time duration_ns;       /* training/batch: work alone on a whole GPU; else wall clock */
  sim_time burst_ns;          /* notebook mean burst length; default 30 s */
  sim_time checkpoint_ns;     /* 0 = never checkpoints */
  int64_t mem_bytes;          /* per worker (inference: the weights) */
  int64_t kv_bytes;           /* per concurrent request; 0 = none */
  double gpu_frac;            /* 0 < f <= 1; default 1 */
  double sm;                  /* 0 < sm <= 1; default by kind (1, 0.5 inference, 0.6 notebook) */
  double gpu_util;            /* 0 < u <= 1: share of time it keeps the GPU busy while it has
                               * work, alone (DCGM GPU_UTIL); default 1 */
  double mem_util;            /* 0 <= m <= gpu_util: share of time its device memory is read or
                               * written while it has work, alone (DCGM MEM_COPY_UTIL,
                               * nvidia-smi utilization.memory); TRACE_MEM_UTIL_UNKNOWN when
                               * not given (docs/models.md, MPS) */
  double busy;                /* notebook duty cycle; default 0.15 */
  double rate_rps;            /* inference mean arrival rate (required for inference) */
  double service_ms;          /* inference time per request alone (required for inference) */
  double slo_ms;              /* 0 = no SLO */
  double slo_pct;             /* default 99 */
  double comm_frac;           /* training; default 0.1 */
  guint32 phase_first;        /* index into trace->phases */
  guint32 phase_count;
  gboolean has_requests;      /* a requests file names this job */
  /* host demand and GPU-model constraint (columns cpu_milli, memory_mib, gpu_spec) */
  int64_t cpu_milli;          /* host CPU per worker, millicores; default 0 (none) */
  int64_t memory_mib;         /* host memory per worker, MiB; default 0 (none) */
  const char *gpu_spec;       /* allowed GPU models joined by '|'; NULL = any (interned) */
  /* LLM serving (docs/models.md "LLM serving"): an inference job with a model is an LLM
   * server (workload-llm.c); mem_gb 0 then means the model's weights */
  const struct llm_model *llm; /* NULL: not an LLM service */
  guint32 prompt_tokens, output_tokens; /* mean lengths; 0 = the Azure-fitted defaults */
  double slo_ttft_ms, slo_tpot_ms;      /* 0 = no such SLO */
  double gpu_mem_util;        /* vLLM gpu_memory_utilization; default 0.9 */
} job_spec;

/* Fills *j with the SPEC 3.1 defaults for kind: gpus 1, tenant "default" and label ""
 * (static strings), priority 0, gpu_frac 1, sm by kind, gpu_util 1, busy 0.15, burst 30 s, slo_pct 99,
 * max_batch 1, comm_frac 0.1, restart by kind; everything else 0 or NULL. For gen/import. */
void trace_job_init(job_spec *j, job_kind kind);

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

/* ---- streaming CSV rows for importers (added for `sharesim import`) --------------------
 * Reads any CSV file one row at a time in bounded memory with the same reader as the
 * trace (BOM, CRLF, quoted cells over several lines, cells trimmed, at most 1024 cells of
 * at most 1 MiB each), and hands every row to cb, the header row included (header TRUE),
 * without checking columns: the importer maps them. A row that cannot be split (broken
 * quoting, an over-long cell, a NUL byte, too many cells) is delivered with error set (a
 * message without the file:line prefix) and no cells; reading then resumes on the next
 * line. cb returns FALSE to stop. Returns FALSE only when the file cannot be opened or
 * read (one diag); an empty file delivers no rows. */
typedef struct trace_csv_row {
  const char *path;
  guint line;                 /* where the row starts, 1-based */
  gboolean header;            /* the first row, unless TRACE_CSV_NO_HEADER */
  const char *error;          /* NULL, or why the row could not be read */
  guint n;                    /* cells */
  const char *const *cells;   /* borrowed for the call */
} trace_csv_row;
typedef gboolean (*trace_csv_row_fn)(const trace_csv_row *row, void *ud);
#define TRACE_CSV_NO_HEADER 1u
gboolean trace_csv_foreach(const char *path, guint flags, trace_csv_row_fn cb, void *ud,
                           diag_list *diags);
