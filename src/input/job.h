/* job.h: one job of a trace as the rest of the program sees it (SPEC 3.1): the job kinds
 * with their defaults, and the job_spec row. trace.h reads them from files, tracerows.h
 * packs them; neither is needed to build one (gen, import). */
#pragma once
#include <glib.h>
#include <stdint.h>
#include "util.h"

/* Kubernetes' restartPolicy: Never, OnFailure, Always (docs/trace-format.md). A kill is a
 * failure; a session's end is its user or operator stopping it, not an exit, so Always
 * restarts what OnFailure does; a training or batch job may not say always (its work would
 * run again once completed; Kubernetes' Job API refuses it). */
typedef enum { RESTART_NEVER = 0, RESTART_ON_FAILURE, RESTART_ALWAYS } restart_policy;

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

/* "notebook", "inference", "training", "batch"; "unknown" out of range. */
const char *job_kind_name(job_kind k);
/* Exact (case-sensitive) name; FALSE and *out untouched when unknown. */
gboolean job_kind_parse(const char *text, job_kind *out);
/* The id prefix `gen` gives jobs of kind k ("nb", "inf", ...). */
const char *job_kind_id_prefix(job_kind k);
/* A kind's defaults for an empty sm, gpu_util and restart cell (JOB_KINDS). */
double job_kind_default_sm(job_kind k);
double job_kind_default_gpu_util(job_kind k);
restart_policy job_kind_default_restart(job_kind k);

/* mem_util of a job whose trace row leaves it empty. */
#define TRACE_MEM_UTIL_UNKNOWN (-1.0)
/* gpu_memory_utilization of a job whose trace row leaves it empty: vLLM's default. */
#define TRACE_GPU_MEM_UTIL_DEFAULT 0.9

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
 * (static strings), priority 0, gpu_frac 1, sm by kind, gpu_util 1, busy 0.15, burst 30 s,
 * slo_pct 99, max_batch 1, comm_frac 0.1, restart by kind; everything else 0 or NULL. */
void job_init(job_spec *j, job_kind kind);
