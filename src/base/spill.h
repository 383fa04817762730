/* spill.h: an unnamed temporary file that data too large for memory is spilled to and read
 * back from by offset: the trace's packed rows (tracerows.c) and the row writer's held
 * records and the time series' chunks (rowspill.c). The file is removed as soon as it is
 * made (only its descriptor names it: nothing is left whatever happens to the run).
 * Appends come from one thread; reads are positional and reentrant (any thread, any
 * order), so a sealed spill may be read by several threads at once. */
#pragma once
#include <glib.h>

typedef struct spill spill;
/* A spill in folder dir (NULL: the temporary folder), made as stem + "XXXXXX" and unlinked
 * at once (cleanup_unnamed_file). NULL with errno set when it cannot be made. */
spill *spill_new(const char *dir, const char *stem);
/* Appends len bytes at the end of the file: their offset, or -1 when writing failed (the
 * length is then unchanged, and later appends go after what was written before). */
gint64 spill_append(spill *s, const void *data, gsize len);
/* Reads up to want bytes at offset at into buf: how many were read (fewer where the file
 * ends, or reading failed: errno tells). */
gsize spill_read(const spill *s, void *buf, gsize want, guint64 at);
/* Bytes appended so far. */
guint64 spill_len(const spill *s);
/* Closes the file (its bytes go with it). NULL is fine. */
void spill_free(spill *s);
