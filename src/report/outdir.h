/* outdir.h: a result folder written complete or not at all. Files go into a temporary
 * sibling folder ("DIR.tmp-XXXXXX"); commit renames it into place (replacing an earlier
 * sharesim result folder, which is recognised by its summary.json; any other non-empty
 * folder is refused so that user data is never deleted). abort removes the temporary. */
#pragma once
#include <glib.h>

typedef struct outdir outdir;
outdir *outdir_begin(const char *final_path, GError **error);
gboolean outdir_write(outdir *o, const char *name, const char *data, gsize len, GError **error);
/* Path of the temporary folder (for writers that need to create files themselves). */
const char *outdir_tmp_path(const outdir *o);
gboolean outdir_commit(outdir *o, GError **error); /* frees o */
void outdir_abort(outdir *o);                       /* frees o; removes the temporary */
/* Removes path and, if it is a folder (not a symbolic link to one), everything in it.
 * For folders the caller created or recognised as its own; ENOENT is success. */
gboolean outdir_remove_tree(const char *path, GError **error);
