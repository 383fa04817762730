/* rowspill.h: records written to an unnamed temporary file and read back by offset. The
 * row writer (rowwriter.c) puts there the records of finished jobs that wait for an earlier
 * job's row (jobs.csv is in trace order), so that they do not stay in memory; one spill is
 * used by one thread at a time. The file is removed as soon as it is
 * created (only its descriptor names it): nothing is left whatever happens to the run. */
#pragma once
#include <glib.h>

typedef struct rowspill rowspill;
/* A spill in folder dir (NULL: the temporary folder, g_get_tmp_dir). NULL when the file
 * cannot be made (the caller keeps its rows in memory then). */
rowspill *rowspill_new(const char *dir);
/* Appends len bytes; returns their offset, or -1 when writing failed. */
gint64 rowspill_put(rowspill *sp, const void *data, gsize len);
/* Reads len bytes at offset into buf; FALSE when reading failed. */
gboolean rowspill_get(rowspill *sp, gint64 offset, void *buf, gsize len);
/* Bytes written so far. */
guint64 rowspill_size(const rowspill *sp);
void rowspill_free(rowspill *sp);
