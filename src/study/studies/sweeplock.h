/* sweeplock.h: the lock on a sweep folder. A sweep that runs points (or writes the Slurm
 * script) holds DIR/.sweep.lock exclusively, a --point task holds it shared, so two sweeps
 * on one folder, or a local resume while Slurm tasks still run, never remove each other's
 * work. It is a flock(2) lock: the kernel drops it when the holder dies (SIGKILL
 * included), so it is never stale. The exclusive holder writes its pid, host and start
 * time into the file (emptied again on release) so a refused sweep can say who holds it. */
#pragma once
#include <glib.h>

#define SWEEPLOCK_FILE ".sweep.lock"

typedef struct sweeplock sweeplock;
/* Takes the lock of sweep folder dir (which exists). NULL with error
 * (SHARESIM_ERROR_RUNTIME) when another process holds it: "DIR is in use by another
 * sweep: pid N on host H since TIME (DIR/.sweep.lock)" or "... by sweep --point tasks". */
sweeplock *sweeplock_take(const char *dir, gboolean exclusive, GError **error);
/* Releases and frees the lock; NULL is allowed. */
void sweeplock_release(sweeplock *l);
