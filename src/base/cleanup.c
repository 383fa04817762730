/* cleanup.c: the registry of temporaries and child processes, the SIGINT/SIGTERM/SIGHUP
 * handlers (a byte into a pipe, nothing else: async-signal-safe) and the helper thread
 * that stops the children, removes the registered paths and re-raises the signal. Also
 * the recursive removal every writer uses. It decides nothing about which paths are
 * sharesim's: callers register only what they created. */
#include "cleanup.h"
#include "util.h"
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <glib-unix.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static GRecMutex cleanup_lock; /* recursive: cleanup_begin holds it around cleanup_add */
static GPtrArray *cleanup_paths;  /* char*, owned */
static GArray *cleanup_children;  /* GPid; -pid for a child that leads its own process group */
static int cleanup_pipe[2] = {-1, -1};
static const int cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP};
static gint cleanup_fired; /* atomic */

/* How long the children get to remove their own temporaries after SIGTERM (assumption:
 * a point or gnuplot stops within milliseconds; only a hung child waits this long). */
#define CLEANUP_CHILD_WAIT_MS 2000

static void cleanup_handler(int sig) {
  int saved = errno;
  unsigned char b = (unsigned char)sig;
  ssize_t n = write(cleanup_pipe[1], &b, 1);
  (void)n;
  errno = saved;
}

/* The child has exited (a zombie counts) or does not exist. */
static gboolean cleanup_child_gone(GPid pid) {
  siginfo_t info;
  memset(&info, 0, sizeof info);
  if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0) return TRUE;
  return info.si_pid == pid;
}

/* SIGTERM to every child (to the whole group of one that leads its own: kill(-pid)), up to
 * CLEANUP_CHILD_WAIT_MS for them to go, then SIGKILL to what is left: every group (helpers
 * that outlive their leader or ignore SIGTERM) and any child still running. A group's leader
 * is not reaped before this, so its group id cannot have been reused. */
static void cleanup_stop_children(void) {
  for (guint i = 0; i < cleanup_children->len; i++)
    kill(g_array_index(cleanup_children, GPid, i), SIGTERM);
  for (int waited = 0; waited < CLEANUP_CHILD_WAIT_MS; waited += 10) {
    gboolean all = TRUE;
    for (guint i = 0; all && i < cleanup_children->len; i++)
      all = cleanup_child_gone(ABS(g_array_index(cleanup_children, GPid, i)));
    if (all) break;
    g_usleep(10000);
  }
  for (guint i = 0; i < cleanup_children->len; i++) {
    GPid v = g_array_index(cleanup_children, GPid, i);
    if (v < 0 || !cleanup_child_gone(v)) kill(v, SIGKILL);
  }
}

static gpointer cleanup_thread(gpointer data) {
  (void)data;
  unsigned char b = 0;
  for (;;) {
    ssize_t n = read(cleanup_pipe[0], &b, 1);
    if (n == 1) break;
    if (n < 0 && errno == EINTR) continue;
    return NULL;
  }
  g_atomic_int_set(&cleanup_fired, 1);
  g_rec_mutex_lock(&cleanup_lock); /* held until the end: writers stop at their next call */
  cleanup_stop_children();
  for (guint i = cleanup_paths->len; i-- > 0;) {
    const char *p = g_ptr_array_index(cleanup_paths, i);
    /* the main thread may still be writing into it: a few tries */
    for (int t = 0; t < 3 && !cleanup_remove_tree(p, NULL); t++) g_usleep(20000);
  }
  signal(b, SIG_DFL);
  kill(getpid(), b);
  for (;;) pause(); /* the signal ends the process */
  return NULL;
}

void cleanup_install(void) {
  static gsize once = 0;
  if (!g_once_init_enter(&once)) return;
  cleanup_paths = g_ptr_array_new_with_free_func(g_free);
  cleanup_children = g_array_new(FALSE, FALSE, sizeof(GPid));
  if (g_unix_open_pipe(cleanup_pipe, FD_CLOEXEC, NULL)) {
    g_thread_unref(g_thread_new("sharesim-cleanup", cleanup_thread, NULL));
    for (size_t i = 0; i < G_N_ELEMENTS(cleanup_signals); i++) {
      struct sigaction old, sa;
      memset(&sa, 0, sizeof sa);
      sa.sa_handler = cleanup_handler;
      sigemptyset(&sa.sa_mask);
      sa.sa_flags = SA_RESTART;
      if (sigaction(cleanup_signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN) continue;
      sigaction(cleanup_signals[i], &sa, NULL);
    }
  }
  g_once_init_leave(&once, 1);
}

void cleanup_begin(void) { g_rec_mutex_lock(&cleanup_lock); }

void cleanup_end(void) { g_rec_mutex_unlock(&cleanup_lock); }

int cleanup_unnamed_file(const char *dir, const char *stem) {
  g_autofree char *tmpl = g_strconcat(stem, "XXXXXX", NULL);
  g_autofree char *path = g_build_filename(dir ? dir : g_get_tmp_dir(), tmpl, NULL);
  cleanup_begin();
  int fd = g_mkstemp(path);
  int e = errno;
  if (fd >= 0) g_unlink(path); /* only the descriptor names it from now on */
  cleanup_end();
  errno = e;
  return fd;
}

gboolean cleanup_signalled(void) { return g_atomic_int_get(&cleanup_fired) != 0; }

void cleanup_add(const char *path) {
  if (!path || !cleanup_paths) return;
  g_rec_mutex_lock(&cleanup_lock);
  g_ptr_array_add(cleanup_paths, g_strdup(path));
  g_rec_mutex_unlock(&cleanup_lock);
}

void cleanup_forget(const char *path) {
  if (!path || !cleanup_paths) return;
  g_rec_mutex_lock(&cleanup_lock);
  for (guint i = cleanup_paths->len; i-- > 0;)
    if (!strcmp(g_ptr_array_index(cleanup_paths, i), path)) {
      g_ptr_array_remove_index(cleanup_paths, i);
      break;
    }
  g_rec_mutex_unlock(&cleanup_lock);
}

void cleanup_add_child(GPid pid) {
  if (!cleanup_children) return;
  g_rec_mutex_lock(&cleanup_lock);
  g_array_append_val(cleanup_children, pid);
  g_rec_mutex_unlock(&cleanup_lock);
}

void cleanup_add_child_group(GPid pid) {
  cleanup_add_child(-pid);
}

void cleanup_forget_child(GPid pid) {
  if (!cleanup_children) return;
  g_rec_mutex_lock(&cleanup_lock);
  for (guint i = 0; i < cleanup_children->len; i++)
    if (ABS(g_array_index(cleanup_children, GPid, i)) == ABS(pid)) {
      g_array_remove_index_fast(cleanup_children, i);
      break;
    }
  g_rec_mutex_unlock(&cleanup_lock);
}

static gboolean cleanup_fail(GError **error, const char *path, int e) {
  g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot remove %s: %s", path,
              g_strerror(e));
  return FALSE;
}

#define CLEANUP_DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

gboolean cleanup_empty_fd(int fd, const char *shown, GError **error) {
  int lfd = dup(fd); /* closedir closes the descriptor it lists */
  DIR *d = lfd >= 0 ? fdopendir(lfd) : NULL;
  if (!d) {
    int e = errno;
    if (lfd >= 0) close(lfd);
    return cleanup_fail(error, shown, e);
  }
  gboolean ok = TRUE;
  struct dirent *ent;
  while (ok && (errno = 0, ent = readdir(d)) != NULL) {
    if (!strcmp(ent->d_name, ".") || !strcmp(ent->d_name, "..")) continue;
    g_autofree char *child = g_build_filename(shown, ent->d_name, NULL);
    ok = cleanup_remove_at(fd, ent->d_name, child, error);
  }
  closedir(d);
  return ok;
}

gboolean cleanup_remove_at(int dfd, const char *name, const char *shown, GError **error) {
  struct stat st;
  if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
    return errno == ENOENT ? TRUE : cleanup_fail(error, shown, errno);
  if (!S_ISDIR(st.st_mode))
    return unlinkat(dfd, name, 0) == 0 || errno == ENOENT ? TRUE : cleanup_fail(error, shown, errno);
  int sub = openat(dfd, name, CLEANUP_DIR_FLAGS);
  if (sub < 0) /* gone, or no longer a folder (a link swapped in): removed as a name only */
    return errno == ENOENT || ((errno == ELOOP || errno == ENOTDIR) && unlinkat(dfd, name, 0) == 0)
               ? TRUE : cleanup_fail(error, shown, errno);
  gboolean ok = cleanup_empty_fd(sub, shown, error);
  close(sub);
  if (!ok) return FALSE;
  return unlinkat(dfd, name, AT_REMOVEDIR) == 0 || errno == ENOENT ? TRUE
                                                                   : cleanup_fail(error, shown, errno);
}

gboolean cleanup_remove_tree(const char *path, GError **error) {
  g_autofree char *dir = g_path_get_dirname(path), *base = g_path_get_basename(path);
  int dfd = open(dir, CLEANUP_DIR_FLAGS & ~O_NOFOLLOW);
  if (dfd < 0) return errno == ENOENT ? TRUE : cleanup_fail(error, path, errno);
  gboolean ok = cleanup_remove_at(dfd, base, path, error);
  close(dfd);
  return ok;
}

gboolean cleanup_pid_alive(gint64 pid) {
  if (pid <= 0 || pid > G_MAXINT32) return FALSE;
  if (kill((pid_t)pid, 0) != 0 && errno == ESRCH) return FALSE;
  /* a zombie (killed, not yet reaped by its new parent) writes nothing any more */
  g_autofree char *stat_path = g_strdup_printf("/proc/%ld/stat", (long)pid);
  g_autofree char *text = NULL;
  if (!g_file_get_contents(stat_path, &text, NULL, NULL)) return TRUE;
  const char *close = strrchr(text, ')');
  return !(close && close[1] == ' ' && (close[2] == 'Z' || close[2] == 'X'));
}
