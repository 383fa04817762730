/* spawn.h: runs a child program (an argument vector, never a shell) with a time limit.
 * Its stdin is /dev/null, its stdout is discarded, its stderr collected (the first 64
 * KiB). A child still running at the limit is killed (SIGKILL) and reaped. While it runs
 * it is registered with cleanup.h, so a signal to sharesim stops it too. */
#pragma once
#include <glib.h>

/* Runs argv in folder cwd (NULL: the current one) for at most timeout_s seconds. TRUE when
 * it ran and exited with status 0. Otherwise FALSE with error: the spawn error, the exit
 * status (G_SPAWN_EXIT_ERROR), or SHARESIM_ERROR_RUNTIME "did not finish within N s" when
 * it was killed at the limit. *err_text (when not NULL) gets what it wrote on stderr,
 * owned, NUL-terminated. */
gboolean spawn_run_limited(const char *cwd, char **argv, double timeout_s, char **err_text,
                           GError **error);
/* A positive number of seconds from environment variable name, or fallback when it is
 * unset or not a positive number. */
double spawn_timeout_from_env(const char *name, double fallback);
