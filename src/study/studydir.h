/* studydir.h: folders that hold several runs (compare -o, size -o) and the clean-up of
 * temporaries that sweep and compare need. A study folder is filled like a result folder
 * (outdir.h: a temporary sibling renamed into place) and recognised afterwards by a
 * marker file (compare.json, size.csv), so that a rerun may replace it; any other
 * non-empty folder is refused, as outdir.c refuses it. */
#pragma once
#include <glib.h>
#include "outdir.h"

/* Commits o (begun with outdir_begin(final_path)) into final_path. An existing
 * final_path is replaced when it is empty, a sharesim result folder, or holds marker;
 * it is moved aside first and removed after the rename, so final_path never holds a
 * half-written study. Frees o, as outdir_commit does. */
gboolean studydir_commit(outdir *o, const char *final_path, const char *marker,
                         GError **error);

/* In folder dir, removes the temporaries outdir.c leaves when a writer is killed:
 * sub-folders named "NAME.tmp-XXXXXX" or "NAME.old-XXXXXX" (six characters) for a NAME
 * in names (NULL-terminated), or for any NAME when names is NULL. Returns how many were
 * removed. */
guint studydir_clean_temporaries(const char *dir, const char *const *names);
