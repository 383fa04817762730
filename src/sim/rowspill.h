/* rowspill.h: records written to a spill (spill.h) and read back by offset. The
 * row writer (rowwriter.c) writes there, as sorted runs, the held records of finished jobs
 * that wait for an earlier job's row and no longer fit in its memory budget; the time
 * series (report-series.c) their chunks. One spill is used by one thread at a time. The
 * file is removed as soon as it is created (only its descriptor names it): nothing is left
 * whatever happens to the run. */
#pragma once
#include <glib.h>

typedef struct rowspill rowspill;
/* A spill in folder dir (NULL: the temporary folder, g_get_tmp_dir). NULL when the file
 * cannot be made (the caller keeps its rows in memory then). */
rowspill *rowspill_new(const char *dir, guint64 fail_read);
/* Appends len bytes; returns their offset, or -1 when writing failed (then every later
 * append fails too; what was appended before stays readable). */
gint64 rowspill_put(rowspill *sp, const void *data, gsize len);
/* Reads len bytes at offset into buf; FALSE when reading failed. */
gboolean rowspill_get(rowspill *sp, gint64 offset, void *buf, gsize len);
/* Bytes written so far. */
guint64 rowspill_size(const rowspill *sp);

/* Runs: the bytes appended between rowspill_run_begin and rowspill_run_end are one run,
 * read back with rowspill_run_read through a read buffer of the run's own, so that runs read
 * each in the order it was written, interleaved, cost one read of many records at a time.
 * The buffers of the runs being read share ROWSPILL_RUNS_READ bytes (each from
 * ROWSPILL_RUN_READ_MIN to ROWSPILL_RUN_READ_MAX); a run's goes when its last byte is read. */
void rowspill_run_begin(rowspill *sp);
void rowspill_run_end(rowspill *sp);
/* The len bytes at offset, inside one ended run (a record appended by one rowspill_put);
 * valid until the next call on sp. NULL when reading failed. Reads in any order are right;
 * in increasing offsets within each run they are fast. Tests: rowspill_new's fail_read n > 0
 * makes the n-th read from the file of a run fail, once (0: none). */
const void *rowspill_run_read(rowspill *sp, gint64 offset, gsize len);
/* Runs written so far, and file reads the runs' buffers made (for tests). */
guint rowspill_runs(const rowspill *sp);
guint64 rowspill_run_reads(const rowspill *sp);
void rowspill_free(rowspill *sp);
