/* spill.c: the unnamed temporary file of spill.h, written and read with whole-length
 * pwrite and pread loops (a signal's EINTR retried). It does not buffer (rowspill.c keeps
 * its own write buffer and read windows, tracerows.c its chunk cache) nor know what a
 * record holds. */
#include "spill.h"
#include "cleanup.h"
#include <errno.h>
#include <unistd.h>

struct spill {
  int fd;
  guint64 len; /* bytes appended */
};

spill *spill_new(const char *dir, const char *stem) {
  int fd = cleanup_unnamed_file(dir, stem);
  if (fd < 0) return NULL;
  spill *s = g_new0(spill, 1);
  s->fd = fd;
  return s;
}

gint64 spill_append(spill *s, const void *data, gsize len) {
  for (gsize done = 0; done < len;) {
    ssize_t n = pwrite(s->fd, (const char *)data + done, len - done, (off_t)(s->len + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return -1;
    done += (gsize)n;
  }
  gint64 at = (gint64)s->len;
  s->len += len;
  return at;
}

gsize spill_read(const spill *s, void *buf, gsize want, guint64 at) {
  gsize done = 0;
  while (done < want) {
    ssize_t n = pread(s->fd, (char *)buf + done, want - done, (off_t)(at + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += (gsize)n;
  }
  return done;
}

guint64 spill_len(const spill *s) { return s->len; }

void spill_free(spill *s) {
  if (!s) return;
  close(s->fd);
  g_free(s);
}
