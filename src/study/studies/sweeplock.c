/* sweeplock.c: flock(2) on DIR/.sweep.lock, exclusive for a sweep and shared for --point
 * tasks, and the holder's description (pid, host, start time) written into the file for
 * whoever is refused. It knows nothing else about sweeps. */
#include "sweeplock.h"
#include "util.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

struct sweeplock {
  int fd;
  gboolean exclusive;
};

static void sweeplock_describe_holder(int fd, const char *dir, const char *path,
                                      GError **error) {
  char buf[512];
  ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
  buf[n > 0 ? n : 0] = '\0';
  long pid = 0;
  char host[256] = "?", started[64] = "?";
  const char *p;
  if ((p = strstr(buf, "pid "))) pid = strtol(p + 4, NULL, 10);
  if ((p = strstr(buf, "host "))) sscanf(p + 5, "%255s", host);
  if ((p = strstr(buf, "started "))) sscanf(p + 8, "%63[^\n]", started);
  if (pid > 0)
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME,
                "%s is in use by another sweep: pid %ld on host %s since %s (%s); wait for it "
                "to finish or stop it, then run this command again", dir, pid, host, started,
                path);
  else
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME,
                "%s is in use by another sweep (%s); wait for it to finish, then run this "
                "command again", dir, path);
}

static void sweeplock_write_holder(int fd) {
  g_autoptr(GDateTime) now = g_date_time_new_now_utc();
  g_autofree char *when = g_date_time_format(now, "%Y-%m-%d %H:%M:%S UTC");
  g_autofree char *text = g_strdup_printf("pid %ld\nhost %s\nstarted %s\n", (long)getpid(),
                                          g_get_host_name(), when);
  if (ftruncate(fd, 0) == 0) {
    ssize_t n = pwrite(fd, text, strlen(text), 0);
    (void)n; /* the description is a courtesy: the lock holds without it */
  }
}

sweeplock *sweeplock_take(const char *dir, gboolean exclusive, GError **error) {
  g_autofree char *path = g_build_filename(dir, SWEEPLOCK_FILE, NULL);
  int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) {
    int e = errno;
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot lock %s: %s", path,
                g_strerror(e));
    return NULL;
  }
  if (flock(fd, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) == 0) {
    if (exclusive) sweeplock_write_holder(fd);
    sweeplock *l = g_new0(sweeplock, 1);
    l->fd = fd;
    l->exclusive = exclusive;
    return l;
  }
  int e = errno;
  if (e != EWOULDBLOCK) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot lock %s: %s", path,
                g_strerror(e));
  } else if (exclusive && flock(fd, LOCK_SH | LOCK_NB) == 0) {
    /* only shared holders: --point tasks */
    flock(fd, LOCK_UN);
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME,
                "%s is in use by sweep --point tasks (%s holds a shared lock); wait for them "
                "to finish, then run this command again", dir, path);
  } else {
    sweeplock_describe_holder(fd, dir, path, error);
  }
  close(fd);
  return NULL;
}

void sweeplock_release(sweeplock *l) {
  if (!l) return;
  if (l->exclusive && ftruncate(l->fd, 0) != 0) {
    /* a stale description is harmless: it is read only while the lock is held */
  }
  flock(l->fd, LOCK_UN);
  close(l->fd);
  g_free(l);
}
