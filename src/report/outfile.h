/* outfile.h: one output file written whole or not at all (import's -o, --phases-out,
 * --requests-out, --scenario-out). The data goes to a temporary beside the destination
 * (".NAME.tmp-PID-HOST-XXXXXX", outdir.h names), created with the mode the umask gives
 * any new file, and renamed over the destination on commit. Only regular files are
 * written: an existing destination that is not a regular file (a symbolic link, a device
 * node, a folder, a FIFO, a socket) is refused with SHARESIM_ERROR_INPUT, before any work
 * and again just before the rename, so `-o /dev/null` or `-o link` never replaces a device
 * or a link (send the output to stdout and redirect it instead). Without a destination
 * the data goes to a temporary file that commit copies to stdout. */
#pragma once
#include <glib.h>
#include <stdio.h>

typedef struct outfile outfile;
/* dest NULL: stdout. NULL with error when dest is refused or no temporary can be made. */
outfile *outfile_begin(const char *dest, GError **error);
/* The stream to write to (owned by f). */
FILE *outfile_stream(outfile *f);
/* The temporary's path (for a writer that opens it itself: the SQLite database). */
const char *outfile_tmp_path(const outfile *f);
/* Flushes, closes and renames into place (or copies to stdout). Frees f. */
gboolean outfile_commit(outfile *f, GError **error);
/* Removes the temporary. Frees f. NULL is allowed. */
void outfile_abort(outfile *f);
