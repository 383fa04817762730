/* rowspill.c: an unnamed temporary file of records (rowspill.h): appends go through a
 * buffer of ROWSPILL_BUFFER bytes; a read of what is still in the buffer is served from
 * it, anything older from a read-ahead window of ROWSPILL_AHEAD bytes (rows come back in
 * about the order they went in: trace order against the order the jobs ended). */
#include "rowspill.h"
#include "cleanup.h"
#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#define ROWSPILL_BUFFER (1024 * 1024)
/* The read-ahead window: one page. Rows come back in only roughly the order they went in,
 * and a larger window read more than it served (100k bench: 1 MB doubled system time). */
#define ROWSPILL_AHEAD 4096

struct rowspill {
  int fd;
  guint64 flushed;   /* bytes in the file */
  char *buf;         /* the bytes after them, buf_len of them */
  gsize buf_len;
  char *ahead;       /* file bytes [ahead_at, ahead_at + ahead_len) */
  guint64 ahead_at;
  gsize ahead_len;
  gboolean failed;
};

rowspill *rowspill_new(const char *dir) {
  int fd = cleanup_unnamed_file(dir, ".rowspill-");
  if (fd < 0) return NULL;
  rowspill *sp = g_new0(rowspill, 1);
  sp->fd = fd;
  sp->buf = g_malloc(ROWSPILL_BUFFER);
  sp->ahead = g_malloc(ROWSPILL_BUFFER); /* a record may be longer than the window */
  return sp;
}

static gboolean rowspill_flush(rowspill *sp) {
  gsize done = 0;
  while (done < sp->buf_len) {
    ssize_t n = pwrite(sp->fd, sp->buf + done, sp->buf_len - done, (off_t)(sp->flushed + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return FALSE;
    done += (gsize)n;
  }
  sp->flushed += sp->buf_len;
  sp->buf_len = 0;
  return TRUE;
}

gint64 rowspill_put(rowspill *sp, const void *data, gsize len) {
  if (sp->failed || len > ROWSPILL_BUFFER) return -1;
  if (sp->buf_len + len > ROWSPILL_BUFFER && !rowspill_flush(sp)) {
    sp->failed = TRUE;
    return -1;
  }
  gint64 at = (gint64)(sp->flushed + sp->buf_len);
  memcpy(sp->buf + sp->buf_len, data, len);
  sp->buf_len += len;
  return at;
}

gboolean rowspill_get(rowspill *sp, gint64 offset, void *buf, gsize len) {
  guint64 at = (guint64)offset;
  if (at >= sp->flushed) { /* still in the buffer (records never straddle a flush) */
    if (at - sp->flushed + len > sp->buf_len) return FALSE;
    memcpy(buf, sp->buf + (at - sp->flushed), len);
    return TRUE;
  }
  if (at < sp->ahead_at || at + len > sp->ahead_at + sp->ahead_len) {
    /* a new window from at (records are shorter than it; the file may end sooner) */
    gsize want = (gsize)MIN((guint64)MAX(ROWSPILL_AHEAD, len), sp->flushed - at), done = 0;
    while (done < want) {
      ssize_t n = pread(sp->fd, sp->ahead + done, want - done, (off_t)(at + done));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      done += (gsize)n;
    }
    sp->ahead_at = at;
    sp->ahead_len = done;
    if (done < len) return FALSE;
  }
  memcpy(buf, sp->ahead + (at - sp->ahead_at), len);
  return TRUE;
}

guint64 rowspill_size(const rowspill *sp) { return sp->flushed + sp->buf_len; }

void rowspill_free(rowspill *sp) {
  if (!sp) return;
  close(sp->fd);
  g_free(sp->buf);
  g_free(sp->ahead);
  g_free(sp);
}
