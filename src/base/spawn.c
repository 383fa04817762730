/* spawn.c: one child process with a deadline: poll its stderr pipe until the deadline,
 * then reap it, or kill and reap it. It interprets nothing the child writes; callers
 * decide what a failure means (plot.c: one chart not drawn). */
#include "spawn.h"
#include "cleanup.h"
#include "util.h"
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define SPAWN_MAX_STDERR 65536

double spawn_timeout_from_env(const char *name, double fallback) {
  const char *v = g_getenv(name);
  double t;
  if (v && util_parse_double(v, &t) && t > 0 && t <= 86400.0 * 365) return t;
  return fallback;
}

/* Reads what is available on fd into acc (up to the cap); FALSE at end of file. */
static gboolean spawn_drain(int fd, GString *acc) {
  char buf[4096];
  ssize_t n = read(fd, buf, sizeof buf);
  if (n < 0) return errno == EINTR || errno == EAGAIN;
  if (n == 0) return FALSE;
  if (acc->len < SPAWN_MAX_STDERR)
    g_string_append_len(acc, buf, MIN(n, (ssize_t)(SPAWN_MAX_STDERR - acc->len)));
  return TRUE;
}

/* Waits for pid until deadline (monotonic µs); TRUE when it exited (not reaped yet: its
 * group id stays its own until the caller reaps it). */
static gboolean spawn_wait(GPid pid, int err_fd, GString *acc, gint64 deadline) {
  gboolean open = err_fd >= 0;
  for (;;) {
    gint64 now = g_get_monotonic_time();
    if (now >= deadline) return FALSE;
    if (open) {
      struct pollfd p = {.fd = err_fd, .events = POLLIN};
      int ms = (int)MIN((deadline - now) / 1000 + 1, 1000);
      int r = poll(&p, 1, ms);
      if (r > 0) open = spawn_drain(err_fd, acc);
      else if (r < 0 && errno != EINTR) open = FALSE;
      continue;
    }
    siginfo_t info;
    memset(&info, 0, sizeof info);
    if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
      if (errno != EINTR) return TRUE; /* already reaped: treat as done */
    } else if (info.si_pid == pid) {
      return TRUE;
    }
    g_usleep(5000);
  }
}

/* Its own process group, so that the limit stops what it started too. */
static void spawn_child_setup(gpointer data) {
  (void)data;
  setpgid(0, 0);
}

gboolean spawn_run_limited(const char *cwd, char **argv, double timeout_s, char **err_text,
                           GError **error) {
  GPid pid = 0;
  int err_fd = -1;
  if (err_text) *err_text = NULL;
  cleanup_begin(); /* a signal before the child is registered waits until it is */
  gboolean started = g_spawn_async_with_pipes(
      cwd, argv, NULL,
      G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDIN_FROM_DEV_NULL,
      spawn_child_setup, NULL, &pid, NULL, NULL, &err_fd, error);
  if (started) {
    setpgid(pid, pid); /* as the child did itself: no window where it is not its group */
    cleanup_add_child_group(pid);
  }
  cleanup_end();
  if (!started) return FALSE;
  GString *acc = g_string_new(NULL);
  int status = 0;
  gint64 deadline = g_get_monotonic_time() + (gint64)(timeout_s * G_USEC_PER_SEC);
  gboolean exited = spawn_wait(pid, err_fd, acc, deadline);
  /* at the limit everything it runs; after it exited, what it started and left running */
  kill(-pid, SIGKILL);
  if (!exited) kill(pid, SIGKILL);
  cleanup_forget_child(pid);
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  if (err_fd >= 0) close(err_fd);
  g_spawn_close_pid(pid);
  if (err_text) *err_text = g_strdup(acc->str);
  g_string_free(acc, TRUE);
  if (!exited) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME,
                "%s did not finish within %g s and was stopped", argv[0], timeout_s);
    return FALSE;
  }
  return g_spawn_check_wait_status(status, error);
}
