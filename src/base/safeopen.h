/* safeopen.h: every file a user gives sharesim to read (scenarios and the files they name,
 * traces, phases, requests, imports, result folders' JSON) is opened here, once, by
 * descriptor (issue 29). The path is resolved to its real path (realpath: nothing is
 * opened), checked against the folders it must lie under when there are any, then opened one
 * component at a time from "/" with O_NOFOLLOW: the file opened is the one at that checked
 * real path at the moment of the open, so a symbolic link swapped in after the check makes
 * the open fail instead of being followed. The file itself is opened O_NONBLOCK and must be
 * a regular file (fstat): a FIFO, device or socket is refused before anything is read. */
#pragma once
#include <glib.h>
#include <stdio.h>
#include <sys/types.h>

typedef enum {
  SAFEOPEN_OK = 0,
  SAFEOPEN_OUTSIDE,     /* the real path (after symbolic links) is under none of the folders */
  SAFEOPEN_NOT_FOUND,   /* no such file (or a folder on the way is missing) */
  SAFEOPEN_NOT_REGULAR, /* a folder, FIFO, device or socket: never read */
  SAFEOPEN_CHANGED,     /* a part of the path became a symbolic link between check and open */
  SAFEOPEN_FAILED,      /* any other reason (*err holds errno) */
} safeopen_status;

/* Opens path for reading: a descriptor (O_CLOEXEC, blocking again) on a regular file, or -1
 * with *st and *err (an errno value; for SAFEOPEN_NOT_REGULAR the file's S_IFMT bits). under:
 * NULL for anywhere, or a NULL-terminated list of canonical (realpath) folders the file's
 * real path must lie under. */
int safeopen_fd(const char *path, const char *const *under, safeopen_status *st, int *err);
/* The second half of safeopen_fd, for a real path already checked (tests use it to open
 * after swapping the file): the walk with O_NOFOLLOW and the regular-file test. */
int safeopen_real(const char *real, safeopen_status *st, int *err);
/* "not a regular file (a FIFO)", "No such file or directory", ...: the reason in words
 * (static or g_strerror's). */
const char *safeopen_reason(safeopen_status st, int err);

/* Unconfined opens; on failure *error (SHARESIM_ERROR_INPUT) holds the reason only, so each
 * reader keeps its own "FILE: cannot open: REASON" form: a descriptor, a stdio stream, or the
 * whole content (refused when larger than max_bytes, 0 for no limit; *data NUL-terminated). */
int safeopen_read_fd(const char *path, GError **error);
FILE *safeopen_fopen(const char *path, GError **error);
gboolean safeopen_contents(const char *path, gsize max_bytes, char **data, gsize *len,
                           GError **error);
/* Reads the whole of fd (then closed) as safeopen_contents does. */
gboolean safeopen_fd_contents(int fd, gsize max_bytes, char **data, gsize *len, GError **error);

/* Every file opened by safeopen (or paths_open) is remembered by device and inode for the
 * rest of the process: outputs are compared with the inputs by identity, not by spelling
 * (issue 29, S3-14/S3-18). TRUE when (dev, ino) was read. Thread-safe. */
gboolean safeopen_is_input(dev_t dev, ino_t ino);
/* TRUE when path (symbolic links followed) exists and is a file this process has read. */
gboolean safeopen_path_is_input(const char *path);
/* Forgets every file read so far: for a process that runs one command after another on
 * files it removes in between (the fuzz targets, between inputs), so the set does not grow. */
void safeopen_forget_inputs(void);
/* TRUE when a and b name the same file: by device and inode when both exist, else by their
 * canonical folder and last component ("./t.csv" and "t.csv", a link and its target). */
gboolean safeopen_same_file(const char *a, const char *b);
