/* tracerows.h: the job rows of a loaded trace, packed (issue 17: memory per job). A row
 * keeps its id, submit time and line, its tenant, label and gpu_spec as indices into a
 * table of the trace's interned strings, and only the other fields that differ from the
 * kind's defaults (job_init), numbers as short varints: about 40 bytes a row (the
 * bundled trace) instead of a 256-byte job_spec.
 * trace_rows_get rebuilds the job_spec. The rows also index their ids (an open-addressing
 * table of 4-byte row numbers; 8-byte slots with the id's hash for spilled rows). Rows
 * are immutable once added; reading is reentrant.
 * Spilled rows (trace_rows_new_spilled, issue 17: memory that does not grow with the
 * trace): each full chunk of 65,536 rows goes to an unnamed temporary file and is read
 * back, a chunk at a time, into a cache of two chunks per thread; a simulation reads its
 * rows in order, so each chunk is read about twice (its arrivals, its jobs.csv rows). */
#pragma once
#include <glib.h>
#include "job.h"

typedef struct trace_rows trace_rows;

trace_rows *trace_rows_new(void);
/* Rows whose full chunks (of chunk_rows rows, 16 to 65,536: tests spill small traces in
 * many chunks; 0: 65,536) go to an unnamed file in dir (NULL: the temporary folder); kept
 * in memory when the file cannot be made or written, and read back into memory by
 * trace_rows_seal when the rows are not in submit order (a run reads them by submit). */
trace_rows *trace_rows_new_spilled(const char *dir, guint32 chunk_rows);
void trace_rows_free(trace_rows *r);

/* Appends j; returns its row index. The id is copied; tenant, label and gpu_spec must be
 * interned strings (one pointer per distinct text) that outlive the rows, llm a pointer
 * into the model table. phase_first, phase_count and has_requests are not kept (the trace
 * keeps them). The id index gets the row unless an earlier row has the same id. */
guint32 trace_rows_add(trace_rows *r, const job_spec *j);
/* The same unless an earlier row has j's id: then nothing is added, *prev is that row and
 * G_MAXUINT32 is returned; else *prev is -1. One hash and one probe of the id index for
 * both the check and the insertion (the trace reader's duplicate check). */
guint32 trace_rows_add_unique(trace_rows *r, const job_spec *j, int64_t *prev);
/* Shrinks the buffers to what they hold; no row may be added after it. */
void trace_rows_seal(trace_rows *r);
guint32 trace_rows_len(const trace_rows *r);
/* Row i as a job_spec (id points into the rows; phase_first, phase_count, has_requests 0).
 * With spilled rows the id lives in this thread's chunk cache: copy it before reading rows
 * of two other chunks. */
void trace_rows_get(const trace_rows *r, guint32 i, job_spec *out);
/* Single fields without rebuilding the row (the id as trace_rows_get's). */
const char *trace_rows_id(const trace_rows *r, guint32 i);
sim_time trace_rows_submit(const trace_rows *r, guint32 i);
guint32 trace_rows_line(const trace_rows *r, guint32 i);
/* The first row with this id, or -1 (after trace_rows_drop_index, by a scan of the rows). */
int64_t trace_rows_find(const trace_rows *r, const char *id);
/* Frees the id index (rows added later are not indexed). */
void trace_rows_drop_index(trace_rows *r);
/* Rows are in the file (trace_rows_new_spilled, sealed, in submit order). */
gboolean trace_rows_spilled(const trace_rows *r);
/* Submit times never decrease from row to row. */
gboolean trace_rows_sorted(const trace_rows *r);
/* Bytes held (buffers, offsets, id index), for tests and the budget. */
gsize trace_rows_bytes(const trace_rows *r);
