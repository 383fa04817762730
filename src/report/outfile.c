/* outfile.c: single output files written whole or not at all, regular files only, with
 * the umask's mode. Temporaries carry the outdir.c name (pid and host), are registered
 * for signal clean-up, and stale ones of dead writers are swept when a new one begins. */
#include "outfile.h"
#include "safeopen.h"
#include "cleanup.h"
#include "outdir.h"
#include "util.h"
#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct outfile {
  char *dest; /* NULL: stdout */
  char *tmp;
  FILE *f;
};

static void outfile_free(outfile *f) {
  if (f->f) fclose(f->f);
  if (f->tmp) {
    g_unlink(f->tmp);
    cleanup_forget(f->tmp);
  }
  g_free(f->tmp);
  g_free(f->dest);
  g_free(f);
}

/* dest may be written: it does not exist or is a regular file that this command has not
 * read (safeopen.h compares device and inode, whatever the spelling). */
static gboolean outfile_dest_ok(const char *dest, GError **error) {
  GStatBuf st;
  if (g_lstat(dest, &st) != 0) {
    if (errno == ENOENT) return TRUE;
    int e = errno;
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot write %s: %s", dest,
                g_strerror(e));
    return FALSE;
  }
  if (S_ISREG(st.st_mode) && safeopen_is_input(st.st_dev, st.st_ino)) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "refusing to write %s: it is a file this command reads (an input is never "
                "overwritten): choose another output", dest);
    return FALSE;
  }
  if (S_ISREG(st.st_mode)) return TRUE;
  const char *what = S_ISLNK(st.st_mode)   ? "a symbolic link"
                     : S_ISDIR(st.st_mode) ? "a folder"
                     : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
                     : S_ISFIFO(st.st_mode) ? "a FIFO"
                                            : "not a regular file";
  g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
              "refusing to write %s: it exists and is %s; output files are written as "
              "regular files only (leave out the option and redirect stdout instead)",
              dest, what);
  return FALSE;
}

/* The mode a new file gets under the current umask. */
static mode_t outfile_mode(void) {
  mode_t mask = umask(0);
  umask(mask);
  return 0666 & ~mask;
}

outfile *outfile_begin(const char *dest, GError **error) {
  if (dest && !outfile_dest_ok(dest, error)) return NULL;
  outfile *f = g_new0(outfile, 1);
  f->dest = g_strdup(dest);
  g_autofree char *dir = dest ? g_path_get_dirname(dest) : g_strdup(g_get_tmp_dir());
  g_autofree char *base = dest ? g_path_get_basename(dest) : NULL;
  g_autofree char *stem = dest ? g_strdup_printf(".%s", base) : g_strdup("sharesim-import");
  const char *stems[] = {stem, NULL};
  outdir_sweep_stale(dir, stems, NULL);
  g_autofree char *name = outdir_temp_name(stem, "tmp");
  f->tmp = g_build_filename(dir, name, NULL);
  cleanup_begin(); /* a signal between the mkstemp and its registration still removes it */
  int fd = g_mkstemp(f->tmp);
  int e = errno;
  if (fd >= 0) cleanup_add(f->tmp);
  cleanup_end();
  if (fd >= 0) {
    if (fchmod(fd, dest ? outfile_mode() : 0600) != 0 || !(f->f = fdopen(fd, "wb"))) {
      e = errno;
      close(fd);
      fd = -1;
    }
  } else {
    g_clear_pointer(&f->tmp, g_free);
  }
  if (fd < 0) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot write %s: %s",
                dest ? dest : "a temporary file", g_strerror(e));
    outfile_free(f);
    return NULL;
  }
  return f;
}

FILE *outfile_stream(outfile *f) { return f->f; }

const char *outfile_tmp_path(const outfile *f) { return f->tmp; }

void outfile_abort(outfile *f) {
  if (f) outfile_free(f);
}

static gboolean outfile_copy_to_stdout(outfile *f, GError **error) {
  FILE *in = g_fopen(f->tmp, "rb");
  gboolean ok = in != NULL;
  char *chunk = g_malloc(1u << 20);
  size_t n;
  while (ok && (n = fread(chunk, 1, 1u << 20, in)) > 0)
    if (fwrite(chunk, 1, n, stdout) != n) ok = FALSE;
  if (in && ferror(in)) ok = FALSE;
  if (in) fclose(in);
  g_free(chunk);
  if (ok) ok = fflush(stdout) == 0 && !ferror(stdout);
  if (!ok)
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_STDOUT, "could not write the output to stdout");
  return ok;
}

gboolean outfile_commit(outfile *f, GError **error) {
  gboolean ok = fflush(f->f) == 0 && !ferror(f->f);
  int e = errno;
  ok = (fclose(f->f) == 0) && ok;
  f->f = NULL;
  if (!ok) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot write %s: %s",
                f->dest ? f->dest : "a temporary file", g_strerror(e ? e : EIO));
  } else if (!f->dest) {
    ok = outfile_copy_to_stdout(f, error);
  } else if (!outfile_dest_ok(f->dest, error)) {
    ok = FALSE;
  } else if (g_rename(f->tmp, f->dest) != 0) {
    e = errno;
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot write %s: %s", f->dest,
                g_strerror(e));
    ok = FALSE;
  } else {
    cleanup_forget(f->tmp);
    g_clear_pointer(&f->tmp, g_free);
  }
  outfile_free(f);
  return ok;
}
