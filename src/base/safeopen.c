/* safeopen.c: the one way a user's file is opened for reading (safeopen.h): realpath and
 * the folder check, then a walk from "/" with O_NOFOLLOW at every step and the regular-file
 * test on the descriptor. It parses nothing; each reader does. */
#include "safeopen.h"
#include "util.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef O_PATH
#define SAFEOPEN_DIR_FLAGS (O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
#else
#define SAFEOPEN_DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
#endif

typedef struct {
  dev_t dev;
  ino_t ino;
} safeopen_id;
static GMutex safeopen_inputs_lock;
/* every file opened, as a set of safeopen_id, behind the lock: a set, not a list, because a
 * process may open many files (a sweep's points, a fuzz target's millions of inputs, each a
 * new inode on tmpfs), and each open looks its file up */
static GHashTable *safeopen_inputs;

static guint safeopen_id_hash(gconstpointer p) {
  const safeopen_id *x = p;
  guint64 h = (guint64)x->ino * 0x9E3779B97F4A7C15ull ^ (guint64)x->dev;
  return (guint)(h ^ h >> 32);
}

static gboolean safeopen_id_equal(gconstpointer a, gconstpointer b) {
  const safeopen_id *x = a, *y = b;
  return x->dev == y->dev && x->ino == y->ino;
}

static void safeopen_note(const struct stat *sb) {
  safeopen_id id = {sb->st_dev, sb->st_ino};
  g_mutex_lock(&safeopen_inputs_lock);
  if (!safeopen_inputs)
    safeopen_inputs = g_hash_table_new_full(safeopen_id_hash, safeopen_id_equal, g_free, NULL);
  if (!g_hash_table_contains(safeopen_inputs, &id))
    g_hash_table_add(safeopen_inputs, g_memdup2(&id, sizeof id));
  g_mutex_unlock(&safeopen_inputs_lock);
}

void safeopen_forget_inputs(void) {
  g_mutex_lock(&safeopen_inputs_lock);
  if (safeopen_inputs) g_hash_table_remove_all(safeopen_inputs);
  g_mutex_unlock(&safeopen_inputs_lock);
}

gboolean safeopen_is_input(dev_t dev, ino_t ino) {
  safeopen_id id = {dev, ino};
  g_mutex_lock(&safeopen_inputs_lock);
  gboolean known = safeopen_inputs && g_hash_table_contains(safeopen_inputs, &id);
  g_mutex_unlock(&safeopen_inputs_lock);
  return known;
}

gboolean safeopen_path_is_input(const char *path) {
  struct stat sb;
  return stat(path, &sb) == 0 && safeopen_is_input(sb.st_dev, sb.st_ino);
}

/* realpath of path's folder + "/" + its last component (path need not exist). Owned. */
static char *safeopen_canonical(const char *path) {
  g_autofree char *dir = g_path_get_dirname(path), *base = g_path_get_basename(path);
  char *r = realpath(dir, NULL);
  char *out = r ? g_build_filename(r, base, NULL) : g_strdup(path);
  free(r);
  return out;
}

gboolean safeopen_same_file(const char *a, const char *b) {
  struct stat sa, sb;
  if (stat(a, &sa) == 0 && stat(b, &sb) == 0) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  g_autofree char *ca = safeopen_canonical(a), *cb = safeopen_canonical(b);
  return !strcmp(ca, cb);
}

static int safeopen_fail(safeopen_status *st, safeopen_status s, int *err, int e) {
  *st = s;
  *err = e;
  return -1;
}

/* Opens the last component name in folder dfd: refused unless a regular file, before the
 * open (fstatat, no link followed) and again on the descriptor (it may have been swapped). */
static int safeopen_leaf(int dfd, const char *name, safeopen_status *st, int *err) {
  struct stat sb;
  if (fstatat(dfd, name, &sb, AT_SYMLINK_NOFOLLOW) != 0)
    return safeopen_fail(st, errno == ENOENT ? SAFEOPEN_NOT_FOUND : SAFEOPEN_FAILED, err, errno);
  if (S_ISLNK(sb.st_mode)) return safeopen_fail(st, SAFEOPEN_CHANGED, err, ELOOP);
  if (!S_ISREG(sb.st_mode)) return safeopen_fail(st, SAFEOPEN_NOT_REGULAR, err, (int)(sb.st_mode & S_IFMT));
  int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0)
    return safeopen_fail(st, errno == ELOOP ? SAFEOPEN_CHANGED
                             : errno == ENOENT ? SAFEOPEN_NOT_FOUND : SAFEOPEN_FAILED, err, errno);
  if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
    int e = errno;
    close(fd);
    return S_ISREG(sb.st_mode) ? safeopen_fail(st, SAFEOPEN_FAILED, err, e)
                               : safeopen_fail(st, SAFEOPEN_NOT_REGULAR, err, (int)(sb.st_mode & S_IFMT));
  }
  int fl = fcntl(fd, F_GETFL);
  if (fl >= 0) (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
  safeopen_note(&sb);
  *st = SAFEOPEN_OK;
  *err = 0;
  return fd;
}

int safeopen_real(const char *real, safeopen_status *st, int *err) {
  if (!real || real[0] != '/') return safeopen_fail(st, SAFEOPEN_FAILED, err, EINVAL);
  g_auto(GStrv) parts = g_strsplit(real + 1, "/", -1);
  guint n = g_strv_length(parts);
  while (n && !*parts[n - 1]) n--; /* "/a/b/" */
  if (!n) return safeopen_fail(st, SAFEOPEN_NOT_REGULAR, err, S_IFDIR);
  int dfd = open("/", SAFEOPEN_DIR_FLAGS);
  if (dfd < 0) return safeopen_fail(st, SAFEOPEN_FAILED, err, errno);
  for (guint i = 0; i + 1 < n; i++) {
    if (!*parts[i] || !strcmp(parts[i], ".")) continue;
    int next = openat(dfd, parts[i], SAFEOPEN_DIR_FLAGS);
    int e = errno;
    close(dfd);
    if (next < 0)
      return safeopen_fail(st, e == ENOENT ? SAFEOPEN_NOT_FOUND
                               : e == ELOOP || e == ENOTDIR ? SAFEOPEN_CHANGED : SAFEOPEN_FAILED,
                           err, e);
    dfd = next;
  }
  int fd = safeopen_leaf(dfd, parts[n - 1], st, err);
  close(dfd);
  return fd;
}

/* TRUE when path equals folder or lies below it (both canonical). */
static gboolean safeopen_under(const char *path, const char *folder) {
  size_t n = strlen(folder);
  while (n > 1 && folder[n - 1] == '/') n--;
  if (n == 1 && folder[0] == '/') return TRUE;
  return !strncmp(path, folder, n) && (path[n] == '/' || path[n] == 0);
}

int safeopen_fd(const char *path, const char *const *under, safeopen_status *st, int *err) {
  char *real = realpath(path, NULL);
  if (!real) return safeopen_fail(st, errno == ENOENT ? SAFEOPEN_NOT_FOUND : SAFEOPEN_FAILED, err, errno);
  gboolean inside = !under;
  for (const char *const *u = under; u && *u && !inside; u++) inside = safeopen_under(real, *u);
  int fd = inside ? safeopen_real(real, st, err) : safeopen_fail(st, SAFEOPEN_OUTSIDE, err, 0);
  free(real);
  return fd;
}

const char *safeopen_reason(safeopen_status st, int err) {
  switch (st) {
  case SAFEOPEN_OK: return "no problem";
  case SAFEOPEN_OUTSIDE: return "outside the folders it may be read from";
  case SAFEOPEN_CHANGED: return "the path changed to a symbolic link while it was opened";
  case SAFEOPEN_NOT_REGULAR:
    return err == S_IFIFO   ? "not a regular file (a FIFO)"
           : err == S_IFDIR ? "not a regular file (a folder)"
           : err == S_IFCHR || err == S_IFBLK ? "not a regular file (a device)"
           : err == S_IFSOCK ? "not a regular file (a socket)" : "not a regular file";
  case SAFEOPEN_NOT_FOUND:
  case SAFEOPEN_FAILED:
  default: return g_strerror(err ? err : EIO);
  }
}

int safeopen_read_fd(const char *path, GError **error) {
  safeopen_status st;
  int err = 0;
  int fd = safeopen_fd(path, NULL, &st, &err);
  if (fd < 0)
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT, "%s", safeopen_reason(st, err));
  return fd;
}

FILE *safeopen_fopen(const char *path, GError **error) {
  int fd = safeopen_read_fd(path, error);
  if (fd < 0) return NULL;
  FILE *f = fdopen(fd, "rb");
  if (!f) {
    int e = errno;
    close(fd);
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT, "%s", g_strerror(e));
  }
  return f;
}

gboolean safeopen_fd_contents(int fd, gsize max_bytes, char **data,
                              gsize *len, GError **error) {
  GString *s = g_string_new(NULL);
  char buf[65536];
  gboolean ok = TRUE;
  for (;;) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT, "%s", g_strerror(errno));
      ok = FALSE;
      break;
    }
    if (n == 0) break;
    if (max_bytes && s->len + (gsize)n > max_bytes) {
      g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                  "larger than %" G_GSIZE_FORMAT " bytes", max_bytes);
      ok = FALSE;
      break;
    }
    g_string_append_len(s, buf, n);
  }
  close(fd);
  if (!ok) {
    g_string_free(s, TRUE);
    return FALSE;
  }
  *len = s->len;
  *data = g_string_free(s, FALSE);
  return TRUE;
}

gboolean safeopen_contents(const char *path, gsize max_bytes, char **data, gsize *len,
                           GError **error) {
  int fd = safeopen_read_fd(path, error);
  return fd >= 0 && safeopen_fd_contents(fd, max_bytes, data, len, error);
}
