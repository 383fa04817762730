/* paths.h: confinement of the paths written inside input files (SPEC 6). A scenario may
 * name other files (sharing_config, mig_config, interference, also through --set); they
 * resolve relative to the scenario's folder and must stay under it, or under a folder the
 * user allowed (--allow-path DIR). Nothing outside is opened, not even to see if it exists,
 * and what is read is the file that was checked (paths_open). */
#pragma once
#include <glib.h>

/* Adds a folder under which referenced files may also be (--allow-path). Call before any
 * load; the list is then only read (sweeps load scenarios from several threads). FALSE with
 * *error when dir does not name a folder. */
gboolean paths_allow(const char *dir, GError **error);
/* Forgets every folder added by paths_allow (tests). */
void paths_allow_reset(void);
/* The folders given to paths_allow, as canonical paths (borrowed; NULL-terminated). */
const char *const *paths_allowed(void);

typedef enum {
  PATHS_OK = 0,
  PATHS_OUTSIDE,      /* the written path leaves the folders (checked before any open) */
  PATHS_LINK_OUTSIDE, /* the real path (after symbolic links) leaves them */
  PATHS_NOT_FOUND,
  PATHS_NOT_REGULAR,  /* a folder, device, fifo, ... */
} paths_status;

/* Resolves p, written in a file that lies in folder base_dir: a relative p is taken from
 * base_dir. *out (owned) is the path to open, set whatever the status (for messages). The
 * path must name an existing regular file under base_dir or an allowed folder, after
 * resolving "..", "." and then symbolic links. */
paths_status paths_confine(const char *base_dir, const char *p, char **out);
/* The same check, and the file opened for reading once, by descriptor, through safeopen.h
 * (a symbolic link or FIFO swapped in after the check is refused, never followed or read):
 * the descriptor, or -1 with *st saying why (*out set as for paths_confine). Every reader of
 * a referenced file opens it here. */
int paths_open(const char *base_dir, const char *p, char **out, paths_status *st);
/* path (already resolved, as *out of paths_open) opened for reading: confined to base_dir as
 * paths_open when base_dir is not NULL, through safeopen.h anywhere otherwise. -1 with the
 * reason only in *error (SHARESIM_ERROR_INPUT); the caller says which file. */
int paths_open_in(const char *base_dir, const char *path, GError **error);
/* "the scenario's folder /a/b" or "the scenario's folder /a/b or the folders given with
 * --allow-path": where referenced files may be, for messages. Owned. */
char *paths_where(const char *base_dir);
