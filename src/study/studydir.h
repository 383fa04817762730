/* studydir.h: folders that hold several runs (compare -o, size -o) and the clean-up of
 * temporaries that sweep and compare need. A study folder is filled like a result folder
 * (outdir.h: a temporary sibling renamed into place, with the marker that records the
 * command) and may be replaced by a rerun of the same command only; any other non-empty
 * folder is refused, as outdir.c refuses it. */
#pragma once
#include <glib.h>
#include "outdir.h"

/* Commits o (begun with outdir_begin(final_path)) into final_path after checking that the
 * new folder holds its main file marker (compare.json, size.csv). An existing final_path
 * is replaced only as outdir_commit replaces it. Frees o, as outdir_commit does. */
gboolean studydir_commit(outdir *o, const char *final_path, const char *marker,
                         GError **error);

/* In folder dir, removes the temporaries (outdir.h names) that dead writers left: for a
 * NAME in names (NULL-terminated), or for any NAME when names is NULL. A temporary whose
 * writer still runs (a concurrent sweep's point, a Slurm task on this host) is kept.
 * Returns how many were removed. */
guint studydir_clean_temporaries(const char *dir, const char *const *names);
