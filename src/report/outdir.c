/* outdir.c: a result folder that appears complete or not at all, the marker that makes a
 * folder replaceable, and sharesim's temporary names. Files are written into a temporary
 * sibling ("DIR.tmp-PID-HOST-XXXXXX", same parent so rename is atomic) and renamed into
 * place on commit; an empty folder or one holding the marker of the same command is
 * replaced, anything else is refused. It never removes a folder it has not recognised. */
#include "outdir.h"
#include "safeopen.h"
#include "cleanup.h"
#include "util.h"
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct outdir {
  char *final_path; /* DIR as given, trailing separators removed */
  char *parent;     /* folder that holds DIR and the temporaries */
  char *base;       /* DIR's last component */
  char *tmp_path;   /* the temporary sibling being filled */
};

static void outdir_free(outdir *o) {
  g_free(o->final_path);
  g_free(o->parent);
  g_free(o->base);
  g_free(o->tmp_path);
  g_free(o);
}

gboolean outdir_remove_tree(const char *path, GError **error) {
  return cleanup_remove_tree(path, error);
}

/* ---- the marker ---- */

/* "run" from the program name "sharesim run" (the last word). Owned. */
static char *outdir_command(void) {
  const char *prg = g_get_prgname();
  if (!prg || !*prg) return g_strdup("sharesim");
  const char *sp = strrchr(prg, ' ');
  return g_strdup(sp && sp[1] ? sp + 1 : prg);
}

char *outdir_marker_text(void) {
  g_autofree char *cmd = outdir_command();
  return g_strdup_printf("sharesim-folder %d\ncommand %s\n", OUTDIR_MARKER_VERSION, cmd);
}

gboolean outdir_write_marker(const char *dir, GError **error) {
  g_autofree char *path = g_build_filename(dir, OUTDIR_MARKER, NULL);
  g_autofree char *text = outdir_marker_text();
  GError *local = NULL;
  if (g_file_set_contents(path, text, -1, &local)) return TRUE;
  g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot write %s: %s", path,
              local->message);
  g_error_free(local);
  return FALSE;
}

static char *outdir_marker_command_fd(int fd);

char *outdir_marker_command(const char *dir) {
  /* opened here, not through safeopen.h: the marker is sharesim's own, not an input whose
   * identity outputs are compared with */
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return NULL;
  char *cmd = outdir_marker_command_fd(fd);
  close(fd);
  return cmd;
}

/* ---- temporary names ---- */

static const char *outdir_host_tag(void) {
  static char tag[9];
  static gsize once = 0;
  if (g_once_init_enter(&once)) {
    g_autofree char *sum = g_compute_checksum_for_string(G_CHECKSUM_SHA256, g_get_host_name(), -1);
    memcpy(tag, sum, 8);
    tag[8] = '\0';
    g_once_init_leave(&once, 1);
  }
  return tag;
}

char *outdir_temp_name(const char *stem, const char *kind) {
  return g_strdup_printf("%s.%s-%ld-%s-XXXXXX", stem, kind, (long)getpid(), outdir_host_tag());
}

/* Splits "STEM.KIND-PID-HOST-XXXXXX" (parsed from the end); FALSE when entry is not one. */
static gboolean outdir_parse_temp(const char *entry, gsize *stem_len, gint64 *pid,
                                  char host[9]) {
  gsize len = strlen(entry);
  if (len < 6 + 1 + 8 + 1 + 1 + 5 + 1) return FALSE;
  const char *p = entry + len - 6;
  for (int i = 0; i < 6; i++)
    if (!g_ascii_isalnum(p[i])) return FALSE;
  p = entry + len - 16; /* the '-' of "-HOST-XXXXXX" */
  if (p[0] != '-' || p[9] != '-') return FALSE;
  for (int i = 1; i <= 8; i++)
    if (!g_ascii_isxdigit(p[i])) return FALSE;
  memcpy(host, p + 1, 8);
  host[8] = '\0';
  const char *end = p; /* one past the pid's last digit */
  const char *q = end;
  while (q > entry && g_ascii_isdigit(q[-1])) q--;
  if (q == end || end - q > 10 || q - entry < 6) return FALSE;
  if (strncmp(q - 5, ".tmp-", 5) && strncmp(q - 5, ".old-", 5)) return FALSE;
  *pid = g_ascii_strtoll(q, NULL, 10);
  *stem_len = (gsize)(q - 5 - entry);
  return *stem_len > 0;
}

/* The marker's command in the folder open as fd (read relative to it, no link followed), or
 * NULL. Owned. */
static char *outdir_marker_command_fd(int fd) {
  int m = openat(fd, OUTDIR_MARKER, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (m < 0) return NULL;
  struct stat st;
  char text[4097];
  ssize_t n = fstat(m, &st) == 0 && S_ISREG(st.st_mode) ? read(m, text, sizeof text - 1) : -1;
  close(m);
  if (n < 0) return NULL;
  text[n] = '\0';
  int version = 0;
  char cmd[64] = "";
  if (sscanf(text, "sharesim-folder %d\ncommand %63[A-Za-z0-9_.-]", &version, cmd) != 2 ||
      version < 1 || version > OUTDIR_MARKER_VERSION)
    return NULL;
  return g_strdup(cmd);
}

/* Removes the stale temporary name in the folder open as dfd when it is sharesim's: a
 * regular file, or a folder with the marker or empty. The folder is opened once (no link
 * followed), checked and emptied through that descriptor, then removed by name relative to
 * dfd: nothing is looked up by path between the check and the removal (issue 29). */
static gboolean outdir_remove_stale_at(int dfd, const char *name, const char *shown) {
  struct stat st;
  if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) return FALSE;
  if (S_ISREG(st.st_mode)) return unlinkat(dfd, name, 0) == 0;
  if (!S_ISDIR(st.st_mode)) return FALSE;
  int sub = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (sub < 0) return FALSE;
  g_autofree char *cmd = outdir_marker_command_fd(sub);
  int lfd = cmd ? -1 : dup(sub);
  DIR *d = lfd >= 0 ? fdopendir(lfd) : NULL;
  gboolean ours = cmd != NULL;
  if (d) {
    struct dirent *e;
    ours = TRUE;
    while (ours && (e = readdir(d)) != NULL) ours = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
    closedir(d);
  } else if (lfd >= 0) {
    close(lfd);
  }
  gboolean ok = ours && cleanup_empty_fd(sub, shown, NULL);
  close(sub);
  return ok && unlinkat(dfd, name, AT_REMOVEDIR) == 0;
}

guint outdir_sweep_stale(const char *dir, const char *const *stems, const char *stem_prefix) {
  int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC); /* held: every removal is relative */
  GDir *d = dfd >= 0 ? g_dir_open(dir, 0, NULL) : NULL;
  if (!d) {
    if (dfd >= 0) close(dfd);
    return 0;
  }
  GHashTable *want = stems ? g_hash_table_new(g_str_hash, g_str_equal) : NULL;
  for (const char *const *n = stems; n && *n; n++) g_hash_table_add(want, (gpointer)*n);
  GPtrArray *found = g_ptr_array_new_with_free_func(g_free);
  const char *entry;
  while ((entry = g_dir_read_name(d)) != NULL) {
    gsize stem_len;
    gint64 pid;
    char host[9];
    if (!outdir_parse_temp(entry, &stem_len, &pid, host)) continue;
    g_autofree char *stem = g_strndup(entry, stem_len);
    if (want && !g_hash_table_contains(want, stem)) continue;
    if (stem_prefix && strncmp(entry, stem_prefix, strlen(stem_prefix))) continue;
    if (strcmp(host, outdir_host_tag()) || cleanup_pid_alive(pid)) continue;
    g_ptr_array_add(found, g_strdup(entry));
  }
  g_dir_close(d);
  if (want) g_hash_table_destroy(want);
  guint removed = 0;
  for (guint i = 0; i < found->len; i++) {
    const char *name = g_ptr_array_index(found, i);
    g_autofree char *shown = g_build_filename(dir, name, NULL);
    if (outdir_remove_stale_at(dfd, name, shown)) removed++;
  }
  g_ptr_array_free(found, TRUE);
  close(dfd);
  return removed;
}

char *outdir_make_scratch(const char *stem, GError **error) {
  const char *tmpdir = g_get_tmp_dir();
  const char *stems[] = {stem, NULL};
  outdir_sweep_stale(tmpdir, stems, NULL);
  g_autofree char *name = outdir_temp_name(stem, "tmp");
  char *path = g_build_filename(tmpdir, name, NULL);
  cleanup_begin(); /* a signal between the mkdtemp and its registration still removes it */
  gboolean made = g_mkdtemp_full(path, 0700) != NULL;
  int e = errno;
  if (made) cleanup_add(path);
  cleanup_end();
  if (!made) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME,
                "cannot create a temporary folder in %s: %s", tmpdir, g_strerror(e));
    g_free(path);
    return NULL;
  }
  if (!outdir_write_marker(path, error)) {
    outdir_remove_scratch(path);
    g_free(path);
    return NULL;
  }
  return path;
}

void outdir_remove_scratch(const char *path) {
  if (!path) return;
  cleanup_remove_tree(path, NULL);
  cleanup_forget(path);
}

/* ---- the folder ---- */

static gboolean outdir_is_replaceable(const char *path, GError **error);

outdir *outdir_begin(const char *final_path, GError **error) {
  g_return_val_if_fail(final_path != NULL, NULL);
  char *path = g_strdup(final_path);
  /* "out/" names the folder "out": drop trailing separators (but keep a lone "/"). */
  gsize len = strlen(path);
  while (len > 1 && G_IS_DIR_SEPARATOR(path[len - 1])) path[--len] = '\0';
  char *base = g_path_get_basename(path);
  if (len == 0 || strcmp(base, ".") == 0 || strcmp(base, "..") == 0 ||
      G_IS_DIR_SEPARATOR(base[0])) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "cannot use '%s' as a result folder: name a new or earlier result folder",
                final_path);
    g_free(base);
    g_free(path);
    return NULL;
  }
  GStatBuf st;
  if (g_lstat(path, &st) == 0 && !outdir_is_replaceable(path, error)) {
    g_free(base);
    g_free(path);
    return NULL; /* refused before any work; checked again at commit */
  }
  outdir *o = g_new0(outdir, 1);
  o->final_path = path;
  o->base = base;
  o->parent = g_path_get_dirname(path);
  /* a sweep cleans its points/ folder itself, once, instead of once per point (a listing
   * of every point folder per point would grow with the square of the grid) */
  const char *stems[] = {o->base, NULL};
  if (!g_getenv(OUTDIR_NO_SWEEP_ENV)) outdir_sweep_stale(o->parent, stems, NULL);
  char *tmpl_name = outdir_temp_name(base, "tmp");
  o->tmp_path = g_build_filename(o->parent, tmpl_name, NULL);
  g_free(tmpl_name);
  cleanup_begin(); /* a signal between the mkdtemp and its registration still removes it */
  gboolean made = g_mkdtemp_full(o->tmp_path, 0755) != NULL;
  int e = errno;
  if (made) cleanup_add(o->tmp_path);
  cleanup_end();
  if (!made) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME,
                "cannot create a temporary folder for %s in %s: %s", o->final_path, o->parent,
                g_strerror(e));
    outdir_free(o);
    return NULL;
  }
  if (!outdir_write_marker(o->tmp_path, error)) {
    outdir_abort(o);
    return NULL;
  }
  return o;
}

const char *outdir_tmp_path(const outdir *o) {
  g_return_val_if_fail(o != NULL, NULL);
  return o->tmp_path;
}

const char *outdir_path(const outdir *o) {
  g_return_val_if_fail(o != NULL, NULL);
  return o->final_path;
}

gboolean outdir_write(outdir *o, const char *name, const char *data, gsize len,
                      GError **error) {
  g_return_val_if_fail(o != NULL && name != NULL && (data != NULL || len == 0), FALSE);
  if (!*name || strchr(name, '/') || strchr(name, G_DIR_SEPARATOR) || strcmp(name, ".") == 0 ||
      strcmp(name, "..") == 0) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME,
                "cannot write '%s' into %s: not a plain file name", name, o->final_path);
    return FALSE;
  }
  char *path = g_build_filename(o->tmp_path, name, NULL);
  GError *local = NULL;
  gboolean ok = g_file_set_contents(path, data ? data : "", (gssize)len, &local);
  if (!ok) {
    char *shown = g_build_filename(o->final_path, name, NULL);
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot write %s: %s", shown,
                local->message);
    g_free(shown);
    g_error_free(local);
  }
  g_free(path);
  return ok;
}

void outdir_abort(outdir *o) {
  if (!o) return;
  GError *error = NULL;
  if (!outdir_remove_tree(o->tmp_path, &error)) {
    g_warning("%s", error->message);
    g_error_free(error);
  }
  cleanup_forget(o->tmp_path);
  outdir_free(o);
}

/* The first file under dir (any depth, links not followed, the marker left out) that this
 * command has read as an input (safeopen.h: by device and inode), or NULL. Owned. */
static char *outdir_input_inside(const char *dir, guint depth) {
  GDir *d = depth < 64 ? g_dir_open(dir, 0, NULL) : NULL;
  if (!d) return NULL;
  char *found = NULL;
  const char *name;
  while (!found && (name = g_dir_read_name(d)) != NULL) {
    g_autofree char *p = g_build_filename(dir, name, NULL);
    GStatBuf st;
    if (g_lstat(p, &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) found = outdir_input_inside(p, depth + 1);
    else if (S_ISREG(st.st_mode) && strcmp(name, OUTDIR_MARKER) &&
             safeopen_is_input(st.st_dev, st.st_ino))
      found = g_steal_pointer(&p);
  }
  g_dir_close(d);
  return found;
}

/* Whether the folder open as dfd lists nothing (read through a duplicate of the
 * descriptor, which shares its position: rewound first). */
static gboolean outdir_fd_is_empty(int dfd) {
  int d2 = dup(dfd);
  DIR *d = d2 >= 0 ? fdopendir(d2) : NULL;
  if (!d) {
    if (d2 >= 0) close(d2);
    return FALSE;
  }
  rewinddir(d);
  gboolean empty = TRUE;
  const struct dirent *e;
  while (empty && (e = readdir(d)) != NULL)
    empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
  closedir(d);
  return empty;
}

/* Whether path still names the folder open as dfd: not removed, same device and inode. */
static gboolean outdir_still_at(int dfd, const char *path) {
  struct stat a, b;
  return fstat(dfd, &a) == 0 && a.st_nlink > 0 && lstat(path, &b) == 0 &&
         a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

int outdir_judge_at(int dfd, const char *path, GError **error) {
  g_autofree char *cmd = outdir_marker_command_fd(dfd);
  g_autofree char *mine = outdir_command();
  g_autofree char *input = cmd ? outdir_input_inside(path, 0) : NULL;
  if (input) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "refusing to replace %s: it holds %s, an input of this command (replacing the "
                "folder would delete it): move the inputs out of it or choose another folder",
                path, input);
    return 0;
  }
  if (cmd && !strcmp(cmd, mine)) return 1;
  if (!cmd && outdir_fd_is_empty(dfd)) return 1;
  /* judged a folder that another writer swapped out (and may be emptying) meanwhile */
  if (!outdir_still_at(dfd, path)) return -1;
  if (cmd)
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "refusing to replace %s: it holds the output of 'sharesim %s', not of "
                "'sharesim %s': choose another folder or remove it yourself", path, cmd, mine);
  else
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "refusing to replace %s: it exists and is not a sharesim result folder (no "
                "%s marker): choose another folder or remove it yourself", path, OUTDIR_MARKER);
  return 0;
}

/* An existing folder may be replaced when it is empty or holds the marker of the same
 * command, and none of the files this command read lies inside it; a file, a symbolic
 * link or any other folder is refused so that user data is never deleted. The folder is
 * judged through one descriptor; when a concurrent writer swapped it out meanwhile (the
 * name no longer leads to it), the folder now there is judged instead. A folder gone
 * meanwhile is no obstacle (the caller's rename decides). */
static gboolean outdir_is_replaceable(const char *path, GError **error) {
  for (int tries = 0; tries < 1000; tries++) {
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT) return TRUE;
    if (fd < 0) {
      g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                  "refusing to replace %s: it exists and is not a folder", path);
      return FALSE;
    }
    int verdict = outdir_judge_at(fd, path, error);
    close(fd);
    if (verdict >= 0) return verdict == 1;
  }
  g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME,
              "cannot replace %s: other writers kept replacing it", path);
  return FALSE;
}

#ifdef RENAME_EXCHANGE
/* Puts the temporary in DIR's place with one renameat2(RENAME_EXCHANGE): DIR is never
 * missing, and concurrent writers never fail (the last swap wins; each removes what it got
 * back, an earlier complete result). What came back is checked again: a folder that is not
 * replaceable (swapped in by someone meanwhile) is put back and refused. 1 done, 0 failed
 * (*error set), -1 not supported here (the caller moves aside instead). */
static int outdir_exchange(outdir *o, GError **error) {
  for (int tries = 0; tries < 1000; tries++) {
    if (!outdir_is_replaceable(o->final_path, error)) return 0;
    if (renameat2(AT_FDCWD, o->tmp_path, AT_FDCWD, o->final_path, RENAME_EXCHANGE) == 0) {
      if (!outdir_is_replaceable(o->tmp_path, NULL)) {
        (void)renameat2(AT_FDCWD, o->tmp_path, AT_FDCWD, o->final_path, RENAME_EXCHANGE);
        if (outdir_is_replaceable(o->final_path, error))
          g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT, "refusing to replace %s: "
                      "it changed while it was being replaced", o->final_path);
        return 0;
      }
      GError *local = NULL;
      if (!outdir_remove_tree(o->tmp_path, &local)) {
        g_warning("%s", local->message); /* the new result is in place */
        g_error_free(local);
      }
      return 1;
    }
    if (errno == EINVAL || errno == ENOSYS || errno == ENOTSUP) return -1;
    if (errno != ENOENT) break;
    /* DIR went away meanwhile (another writer between its moves): a plain rename, or swap
     * again when yet another writer was faster */
    if (g_rename(o->tmp_path, o->final_path) == 0) return 1;
    if (errno != ENOTEMPTY && errno != EEXIST) break;
  }
  int e = errno;
  g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot rename %s to %s: %s",
              o->tmp_path, o->final_path, g_strerror(e));
  return 0;
}
#endif

/* Swaps the new folder in for an earlier result: the old one is moved aside to a unique
 * sibling name first (so DIR is never missing a complete result for longer than one
 * rename), then the new one is renamed in, then the old one is removed. The aside folder
 * is not registered for signal clean-up (it may be the only complete copy); a later run
 * sweeps it up. */
static gboolean outdir_replace(outdir *o, GError **error) {
#ifdef RENAME_EXCHANGE
  int x = outdir_exchange(o, error);
  if (x >= 0) return x == 1;
#endif
  if (!outdir_is_replaceable(o->final_path, error)) return FALSE;
  char *aside_name = outdir_temp_name(o->base, "old");
  char *aside = g_build_filename(o->parent, aside_name, NULL);
  g_free(aside_name);
  gboolean ok = FALSE;
  if (!g_mkdtemp_full(aside, 0700)) {
    int e = errno;
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME,
                "cannot replace %s: cannot create a temporary name in %s: %s", o->final_path,
                o->parent, g_strerror(e));
    goto out;
  }
  /* rename(2) replaces the empty placeholder folder just made. */
  if (g_rename(o->final_path, aside) != 0) {
    int e = errno;
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot move %s aside: %s",
                o->final_path, g_strerror(e));
    g_rmdir(aside);
    goto out;
  }
  if (g_rename(o->tmp_path, o->final_path) != 0) {
    int e = errno;
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot rename %s to %s: %s",
                o->tmp_path, o->final_path, g_strerror(e));
    if (g_rename(aside, o->final_path) != 0)
      g_warning("could not restore %s from %s: %s", o->final_path, aside, g_strerror(errno));
    goto out;
  }
  ok = TRUE;
  GError *local = NULL;
  if (!outdir_remove_tree(aside, &local)) {
    /* The new result is in place; a leftover old copy is worth a warning, not a failure. */
    g_warning("%s", local->message);
    g_error_free(local);
  }
out:
  g_free(aside);
  return ok;
}

gboolean outdir_commit(outdir *o, GError **error) {
  g_return_val_if_fail(o != NULL, FALSE);
  gboolean ok = FALSE;
  GStatBuf st;
  if (g_lstat(o->final_path, &st) == 0) {
    ok = outdir_replace(o, error);
  } else if (errno != ENOENT) {
    int e = errno;
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot check %s: %s",
                o->final_path, g_strerror(e));
  } else if (g_rename(o->tmp_path, o->final_path) == 0) {
    ok = TRUE;
  } else if (errno == ENOTEMPTY || errno == EEXIST) {
    /* another writer put DIR in place meanwhile: replace it as an earlier result */
    ok = outdir_replace(o, error);
  } else {
    int e = errno;
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot rename %s to %s: %s",
                o->tmp_path, o->final_path, g_strerror(e));
  }
  if (ok) {
    cleanup_forget(o->tmp_path);
    outdir_free(o);
  } else {
    outdir_abort(o);
  }
  return ok;
}
