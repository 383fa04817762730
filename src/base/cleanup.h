/* cleanup.h: what a sharesim process removes when SIGINT, SIGTERM or SIGHUP ends it.
 * Writers register the temporaries they create (a result folder's DIR.tmp-*, an import's
 * .NAME.tmp-*, a sweep's logs and scratch folder) and forget them once renamed into place
 * or removed; child processes (sweep points, gnuplot, Chromium) are registered so that they
 * are asked to stop (SIGTERM, then SIGKILL after a grace period) first. The signal handler only writes one byte to a pipe; a
 * helper thread does the removal, then ends the process with the same signal (exit
 * status 128 + N, as without a handler). A signal ignored at start (nohup, a background
 * job of a non-interactive shell) stays ignored. SIGKILL cannot be caught: what it leaves
 * is swept up by the next run (outdir.h, outdir_sweep_stale). */
#pragma once
#include <glib.h>

/* Installs the handlers and starts the helper thread (once per process; later calls do
 * nothing). */
void cleanup_install(void);
/* Registers path (copied) for removal (recursively for a folder) on a signal. */
void cleanup_add(const char *path);
/* Forgets path (after it was renamed into place or removed). */
void cleanup_forget(const char *path);
/* Bracket the creation of a temporary (or the start of a child) and its registration:
 *   cleanup_begin(); fd = g_mkstemp(tmp); if (fd >= 0) cleanup_add(tmp); cleanup_end();
 * A signal that arrives in between is acted on at cleanup_end, so what was created is
 * removed (or stopped) too; without the bracket it would be left behind. Nests; each
 * cleanup_begin needs its cleanup_end on the same thread. */
void cleanup_begin(void);
void cleanup_end(void);
/* A new read-write file in dir (NULL: the temporary folder) that no name leads to: made
 * from stem + "XXXXXX" and unlinked at once, inside the bracket above, so that a signal
 * cannot leave it behind. Returns its descriptor, or -1 with errno set. */
int cleanup_unnamed_file(const char *dir, const char *stem);
/* Registers / forgets a child process to stop with SIGTERM before the removal; one still
 * running CLEANUP_CHILD_WAIT_MS (2 s) later gets SIGKILL. */
void cleanup_add_child(GPid pid);
void cleanup_forget_child(GPid pid);
/* Registers a child that leads its own process group (setpgid(0, 0) before its exec):
 * SIGTERM goes to the whole group, and after the 2 s SIGKILL to whatever of the group is
 * left, so nothing it started outlives sharesim (gnuplot's children, Chromium's helpers).
 * Forget it (cleanup_forget_child) before reaping it. */
void cleanup_add_child_group(GPid pid);

/* A terminating signal arrived and the clean-up runs: callers may skip their messages
 * (children they reap now were stopped by it). */
gboolean cleanup_signalled(void);

/* Removes path and, if it is a folder (not a symbolic link to one), everything in it.
 * ENOENT is success. Errors are SHARESIM_ERROR_RUNTIME. Every step is relative to a held
 * folder descriptor (openat/unlinkat, O_NOFOLLOW): a folder swapped for a symbolic link while
 * it is being removed loses the link, never what it points to. */
gboolean cleanup_remove_tree(const char *path, GError **error);
/* The same for name in the folder open as dfd (shown: the path for messages). */
gboolean cleanup_remove_at(int dfd, const char *name, const char *shown, GError **error);
/* Removes everything inside the folder open as fd, as cleanup_remove_at does. */
gboolean cleanup_empty_fd(int fd, const char *shown, GError **error);
/* The process pid exists on this host (kill(pid, 0) does not say ESRCH) and is not a
 * zombie. */
gboolean cleanup_pid_alive(gint64 pid);
