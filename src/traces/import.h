/* import.h: what every importer (`sharesim import FORMAT FILE...`) shares. An importer
 * is one const import_format in its own import-NAME.c, listed in import.c's table; it
 * reads its files row by row (csvread_foreach, or json-glib for JSON) and writes job
 * rows (and, when asked, phases, requests or a scenario) into an import_ctx, which
 * buffers them and hands full buffers to the caller's sink files. The ctx also counts
 * rows and collects bad rows: with skip_bad they are counted and skipped, without it they
 * are errors (all reported, up to the diag cap). Whether anything is written at all is the
 * caller's decision (cmd-import.c commits the files only when there was no error).
 * Mapping choices of each format: docs/traces.md. */
#pragma once
#include <glib.h>
#include <stdio.h>
#include "trace.h"
#include "csvread.h"
#include "diag.h"
#include "catalog.h"
#include "scenario.h"

/* The files an import can write. TRACE always; the others only when asked for. */
typedef enum {
  IMPORT_OUT_TRACE = 0,
  IMPORT_OUT_PHASES,    /* SPEC 3.2 phases CSV */
  IMPORT_OUT_REQUESTS,  /* SPEC 3.3 requests CSV */
  IMPORT_OUT_SCENARIO,  /* scenario YAML (pools from a node inventory) */
  IMPORT_OUT_COUNT
} import_out;

/* A format-specific option, declared by the importer, parsed by cmd-import.c as
 * --NAME VALUE. Values are kept as text in command-line order (import_option_*). */
typedef struct import_opt {
  const char *name;       /* without the dashes: "kind-rule" */
  const char *arg;        /* placeholder for --help: "KIND=RULE" */
  const char *help;       /* one line */
  gboolean repeatable;    /* may be given several times */
  int out;                /* IMPORT_OUT_* when the value is a file the import writes (written
                           * whole or not at all, like the trace); -1 for a plain option */
} import_opt;

typedef struct import_ctx {
  const char *const *files;   /* the input files, in command-line order */
  guint n_files;
  gboolean skip_bad;          /* --skip-bad */
  diag_list *diags;           /* problems that fail the import (exit 2) */
  diag_list *skipped_diags;   /* the first skipped rows' messages (cap 10) */
  guint64 rows_read;          /* data rows seen, all files */
  guint64 rows_skipped;       /* bad rows skipped (--skip-bad) */
  guint64 rows_bad;           /* bad rows reported as errors (without --skip-bad) */
  guint64 jobs_written;
  guint64 lines_written[IMPORT_OUT_COUNT];   /* data rows, without headers */
  GString *buf[IMPORT_OUT_COUNT];  /* pending text; NULL = output not requested */
  FILE *sink[IMPORT_OUT_COUNT];    /* where full buffers go; NULL keeps all in buf (tests) */
  gboolean write_failed;      /* a sink write failed (runtime error) */
  GHashTable *options;        /* name -> GPtrArray of char*, in command-line order */
  GPtrArray *notes;           /* char*: lines for the stderr summary ("1088 CPU-only pods...") */
  gboolean trace_header_extra;/* the trace header is written */
  gboolean host_columns;      /* trace rows carry cpu_milli, memory_mib, gpu_spec */
  gboolean phases_header;     /* the phases header is written */
} import_ctx;

typedef struct import_format {
  const char *name;           /* "dcgm" */
  const char *description;    /* one line, for the format list */
  const char *files;          /* what FILE... means, for --help: "EXPORT.json|EXPORT.csv..." */
  const import_opt *options;  /* terminated by {NULL}; may be NULL */
  /* Reads c->files and writes rows into c. Problems in the input go to c->diags (or are
   * skipped via import_bad_row); returns FALSE with *error only for a failure that is not
   * about a row (a bad option value, an unreadable file). */
  gboolean (*run)(import_ctx *c, GError **error);
} import_format;

/* A ctx for files; outputs: only TRACE requested. Free with import_ctx_free. */
import_ctx *import_ctx_new(const char *const *files, guint n_files, gboolean skip_bad);
void import_ctx_free(import_ctx *c);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(import_ctx, import_ctx_free)
/* Asks for an output (creates its buffer); sink may be NULL (keep in memory). */
void import_request_out(import_ctx *c, import_out which, FILE *sink);
gboolean import_wants(const import_ctx *c, import_out which);

/* Options: append a value; the last value or NULL; all values (NULL if none). */
void import_option_add(import_ctx *c, const char *name, const char *value);
const char *import_option(const import_ctx *c, const char *name);
GPtrArray *import_option_all(const import_ctx *c, const char *name);

/* The text of an output (everything still buffered; with a NULL sink, everything). */
const char *import_out_text(const import_ctx *c, import_out which);
/* Writes full buffers to their sinks (force: whatever is buffered). FALSE once a write
 * failed. Called by the emit functions; importers need not call it. */
gboolean import_flush(import_ctx *c, gboolean force);

/* Writes the trace header (SPEC columns, then n_extra extra names such as "x_qos").
 * Call it once before the first job; import_emit_job writes a plain one if the importer
 * did not. */
void import_trace_header(import_ctx *c, const char *const *extra, guint n_extra);
/* Appends one job row (trace_write_row), then n_extra extra cells (CSV-quoted; NULL is an
 * empty cell), as many as the header named. */
void import_emit_job(import_ctx *c, const job_spec *j, const char *const *extra,
                     guint n_extra);
/* Appends one phases row (SPEC 3.2): job_id, after_s and the fields set in ph->set
 * (PHASE_SET_MEM, _BUSY, _SM, _RATE); ph->job and ph->line are not used. */
void import_emit_phase(import_ctx *c, const char *job_id, const job_phase *ph);
/* Appends raw text to an output that was requested (no-op otherwise). */
void import_append(import_ctx *c, import_out which, const char *text);

/* A bad input row at file:line (col 0 = whole row). With skip_bad: counted in rows_skipped
 * (the first 10 messages kept in skipped_diags) and TRUE (go on, without the row); else
 * added to diags and FALSE (the import will fail; go on reading to report the rest). */
gboolean import_bad_row(import_ctx *c, const char *file, guint line, guint col,
                        const char *fmt, ...) G_GNUC_PRINTF(5, 6);
/* The --gpu-model and --strategy options of an importer that writes a scenario pool
 * (defaults def_model, def_strategy): FALSE with an input error naming the option. */
gboolean import_pool_options(const import_ctx *c, const char *def_model,
                             const char *def_strategy, const gpu_model **model,
                             share_strategy *strategy, GError **error);
/* For a row callback of csvread_foreach when row->error is set (a row that could not be
 * read): before the header it is one "header:" problem that ends the file (*have_header and
 * *header_bad set, returns FALSE); after it, a bad row (counted in rows_read when
 * count_row) and the file goes on (returns TRUE). */
gboolean import_unreadable_row(import_ctx *c, const csvread_row *row, gboolean *have_header,
                               gboolean *header_bad, gboolean count_row);
/* Adds a line to the stderr summary. */
void import_note(import_ctx *c, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
/* TRUE when nothing has failed so far (no diag, no write failure). */
gboolean import_ok(const import_ctx *c);

/* ---- cell helpers shared by the importers ---------------------------------------------
 * All accept surrounding blanks; "" (empty) is reported by the caller as it sees fit. */
/* Finite number, written as an integer or a float ("1.0", "475.00000000000006", "1e3"). */
gboolean import_parse_number(const char *text, double *out);
/* Index of name in a header row (exact), -1 if absent. */
int import_column(const csvread_row *header, const char *name);
/* "name" from "path/to/name.ext" (owned). */
char *import_file_stem(const char *path);

/* ---- calendar time, for sources with absolute timestamps (DCGM, Azure LLM) -------------
 * Such an importer writes the extra trace column `submit_utc` (IMPORT_SUBMIT_UTC) on every
 * job row: the UTC time of trace second 0 plus the job's submit_s. trace_load gives it back
 * as the trace's start (trace->start_unix), so a run without a scenario `start:` is dated
 * by it. A first timestamp before IMPORT_CALENDAR_MIN_UNIX (2000-01-01T00:00:00Z) is taken
 * for seconds from an arbitrary origin (a simulated export), with no calendar. */
#define IMPORT_SUBMIT_UTC "submit_utc"
#define IMPORT_CALENDAR_MIN_UNIX 946684800.0
/* The submit_utc cell of a job submitted submit_ns after start_unix; NULL when start_unix is
 * not a calendar time (see above). Owned. */
char *import_submit_utc(double start_unix, sim_time submit_ns);

/* ---- node inventories as a scenario (openb node list, PAI machine spec) ---------------- */
typedef struct import_inventory {
  const char *source;         /* file the nodes came from */
  guint64 nodes, gpu_nodes, gpus;
  GHashTable *by_model;       /* "model x gpus/node" -> guint64* nodes */
} import_inventory;
void import_inventory_init(import_inventory *inv, const char *source);
void import_inventory_clear(import_inventory *inv);
void import_inventory_add(import_inventory *inv, const char *model, guint64 gpus_per_node);
/* Appends "# GPU nodes by model x GPUs per node:" and one comment line per model x GPUs. */
void import_inventory_describe(const import_inventory *inv, GString *s);
/* Appends a scenario YAML (one pool of inv->gpus GPUs, gpus_per_node 1, because a pool's
 * nodes are all alike and a job routes to one pool; the inventory is kept as comments) to
 * the SCENARIO output. name: scenario name; gpu: catalogue model; strategy: as in YAML. */
void import_inventory_write_scenario(import_ctx *c, const import_inventory *inv,
                                     const char *name, const char *gpu, const char *strategy);

/* The table of importers, in listing order, NULL-terminated: what `sharesim import` lists
 * and runs and what validate imports public traces with (import.c; each importer's row is
 * its const import_format, in its own import-NAME.c, named only there and in the table). */
extern const import_format *const import_formats[];
/* The format called name; NULL when the table has none. */
const import_format *import_find(const char *name);
/* Runs format (a name of the table; anything else is a programming error) on files, with
 * NULL-terminated option name / value pairs as on its command line, in memory: an owned
 * trace CSV and, when scenario_text is not NULL, scenario YAML text. FALSE with error
 * (SHARESIM_ERROR_INPUT naming every problem) when the import failed. */
gboolean import_text(const char *format, const char *const *files, guint n_files,
                     const char *const *options, char **trace_csv, char **scenario_text,
                     GError **error);
