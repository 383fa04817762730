/* outdir.h: a result folder written complete or not at all, the marker that makes a
 * folder replaceable, and the names of sharesim's temporaries.
 *
 * Files go into a temporary sibling folder ("DIR.tmp-PID-HOST-XXXXXX"); commit renames it
 * into place. An existing DIR is replaced only when it is empty or holds the marker file
 * OUTDIR_MARKER written by the same command (see outdir_marker_text); anything else is
 * refused (SHARESIM_ERROR_INPUT) so that a user's folder is never deleted. The command is
 * the program name (g_get_prgname(), "sharesim run" once cmd_parse_options ran).
 *
 * Every temporary sharesim creates is named STEM.KIND-PID-HOST-XXXXXX (KIND tmp or old,
 * PID the writer's process id, HOST 8 hex digits of a hash of the host name, XXXXXX six
 * letters or digits), registered with cleanup.h while it exists, and swept up by a later
 * run once its writer is dead (same host, pid gone). */
#pragma once
#include <glib.h>

/* The marker file in every folder sharesim writes, and its format version. */
#define OUTDIR_MARKER ".sharesim-folder"
#define OUTDIR_MARKER_VERSION 1

/* When this environment variable is set, outdir_begin leaves stale temporaries beside DIR
 * alone (a sweep sets it for its points and sweeps points/ itself). */
#define OUTDIR_NO_SWEEP_ENV "SHARESIM_SWEEP_POINT"

typedef struct outdir outdir;
outdir *outdir_begin(const char *final_path, GError **error);
gboolean outdir_write(outdir *o, const char *name, const char *data, gsize len, GError **error);
/* Path of the temporary folder (for writers that need to create files themselves). */
const char *outdir_tmp_path(const outdir *o);
/* The folder as given to outdir_begin (trailing separators removed), for messages. */
const char *outdir_path(const outdir *o);
gboolean outdir_commit(outdir *o, GError **error); /* frees o */
void outdir_abort(outdir *o);                       /* frees o; removes the temporary */
/* Removes path and, if it is a folder (not a symbolic link to one), everything in it.
 * For folders the caller created or recognised as its own; ENOENT is success. */
gboolean outdir_remove_tree(const char *path, GError **error);

/* The marker's text for the running command: "sharesim-folder 1\ncommand run\n". Owned. */
char *outdir_marker_text(void);
/* Writes the marker into dir (a folder sharesim just created). */
gboolean outdir_write_marker(const char *dir, GError **error);
/* The command recorded by dir's marker ("run"), or NULL when dir holds no regular marker
 * file of a known version. Owned. */
char *outdir_marker_command(const char *dir);
/* The verdict on the folder open as dfd, found at path: 1 replaceable, 0 refused (*error
 * set), -1 path no longer leads to that folder (a concurrent writer swapped it; judge the
 * folder now there). Exposed for the tests. */
int outdir_judge_at(int dfd, const char *path, GError **error);

/* "STEM.KIND-PID-HOST-XXXXXX" for this process (KIND "tmp" or "old"). Owned. */
char *outdir_temp_name(const char *stem, const char *kind);
/* In folder dir, removes the temporaries named STEM.tmp-/.old-PID-HOST-XXXXXX whose
 * writer is dead: same HOST as this one and no process PID. stems (NULL-terminated)
 * lists the STEMs to match, NULL any STEM; stem_prefix (NULL: any) must also start it. A folder is removed only when it holds the
 * marker or is empty, a file only when it is a regular file. Returns how many. */
guint outdir_sweep_stale(const char *dir, const char *const *stems, const char *stem_prefix);

/* A scratch folder in the temporary folder ($TMPDIR): STEM.tmp-PID-HOST-XXXXXX with the
 * marker, registered for clean-up; stale ones of the same stem are swept first. NULL with
 * error (SHARESIM_ERROR_RUNTIME). Owned. */
char *outdir_make_scratch(const char *stem, GError **error);
/* Removes a scratch folder and forgets it. */
void outdir_remove_scratch(const char *path);
