/* rowspill.c: records in a spill (spill.h, the unnamed temporary file): appends go through a
 * buffer of ROWSPILL_BUFFER bytes; a read of what is still in the buffer is served from
 * it. rowspill_get reads anything older through one read-ahead window of ROWSPILL_AHEAD
 * bytes; the runs (the row writer's sorted spills) each through a buffer of their own,
 * sized from their share of ROWSPILL_RUNS_READ. It does not know what a record holds. */
#include "rowspill.h"
#include "spill.h"
#include <string.h>

#define ROWSPILL_BUFFER (1024 * 1024)
/* The read-ahead window of rowspill_get: one page; a longer read (report-series.c's
 * chunks) reads what it asks. Allocated on the first rowspill_get. */
#define ROWSPILL_AHEAD 4096
/* The runs' read buffers: 1 MB shared by the runs being read, each 16 to 256 KB (a power
 * of two). The row writer reads its runs interleaved in row order, each sequentially, so
 * that a buffer of b bytes costs one pread per b bytes of its run (one 4 KB window for
 * all cost one pread per record when records came back in row order from a file in the
 * order jobs ended: 1M bench, 978,537 preads for 340 MB). Past 64 runs read at once the
 * floor wins: 16 KB each, more memory rather than smaller reads. */
#define ROWSPILL_RUNS_READ (1024 * 1024)
#define ROWSPILL_RUN_READ_MIN (16 * 1024)
#define ROWSPILL_RUN_READ_MAX (256 * 1024)

typedef struct rowspill_run {
  guint64 start, end; /* file bytes [start, end) */
  guint8 *buf;        /* run bytes [buf_at, buf_at + buf_len); NULL: none */
  guint64 buf_at;
  gsize buf_len, buf_cap;
} rowspill_run;

struct rowspill {
  spill *file;
  guint64 flushed;   /* bytes in the file */
  char *buf;         /* the bytes after them, buf_len of them */
  gsize buf_len;
  char *ahead;       /* file bytes [ahead_at, ahead_at + ahead_len) */
  guint64 ahead_at;
  gsize ahead_len;
  gboolean failed;
  GArray *runs;      /* rowspill_run, in file order; the last one open while writing */
  gboolean run_open;
  guint buffers;     /* runs with a read buffer */
  gint done;         /* a run read to its end: its buffer goes at the next read (-1 none) */
  guint64 reads, fail_read; /* file reads of runs; the one that fails (tests), 0 none */
};

rowspill *rowspill_new(const char *dir, guint64 fail_read) {
  spill *file = spill_new(dir, ".rowspill-");
  if (!file) return NULL;
  rowspill *sp = g_new0(rowspill, 1);
  sp->file = file;
  sp->buf = g_malloc(ROWSPILL_BUFFER);
  sp->runs = g_array_new(FALSE, FALSE, sizeof(rowspill_run));
  sp->done = -1;
  sp->fail_read = fail_read;
  return sp;
}

static gboolean rowspill_flush(rowspill *sp) {
  if (sp->buf_len && spill_append(sp->file, sp->buf, sp->buf_len) < 0) return FALSE;
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
  if (!sp->ahead) sp->ahead = g_malloc(ROWSPILL_BUFFER); /* a record may be longer */
  if (at < sp->ahead_at || at + len > sp->ahead_at + sp->ahead_len) {
    /* a new window from at (records are shorter than it; the file may end sooner) */
    gsize want = (gsize)MIN((guint64)MAX(ROWSPILL_AHEAD, len), sp->flushed - at);
    sp->ahead_at = at;
    sp->ahead_len = spill_read(sp->file, sp->ahead, want, at);
    if (sp->ahead_len < len) return FALSE;
  }
  memcpy(buf, sp->ahead + (at - sp->ahead_at), len);
  return TRUE;
}

guint64 rowspill_size(const rowspill *sp) { return sp->flushed + sp->buf_len; }

void rowspill_run_begin(rowspill *sp) {
  g_assert(!sp->run_open);
  rowspill_run run = {.start = rowspill_size(sp)};
  g_array_append_val(sp->runs, run);
  sp->run_open = TRUE;
}

void rowspill_run_end(rowspill *sp) {
  g_assert(sp->run_open);
  g_array_index(sp->runs, rowspill_run, sp->runs->len - 1).end = rowspill_size(sp);
  sp->run_open = FALSE;
  /* to the file, so that the write buffer serves none of its reads (it stays there when
   * writing fails: reads at or after flushed come from the buffer) */
  if (!sp->failed && !rowspill_flush(sp)) sp->failed = TRUE;
}

static void rowspill_run_drop_buffer(rowspill *sp, rowspill_run *run) {
  if (!run->buf) return;
  g_free(run->buf);
  run->buf = NULL;
  run->buf_len = run->buf_cap = 0;
  sp->buffers--;
}

/* The run holding file offset at (the last one starting at or before it). */
static rowspill_run *rowspill_run_at(rowspill *sp, guint64 at) {
  guint lo = 0, hi = sp->runs->len; /* the run is in [lo, hi) */
  g_assert(hi > 0);
  while (hi - lo > 1) {
    guint mid = lo + (hi - lo) / 2;
    if (g_array_index(sp->runs, rowspill_run, mid).start <= at) lo = mid;
    else hi = mid;
  }
  return &g_array_index(sp->runs, rowspill_run, lo);
}

/* The run's buffer refilled from at with at least len bytes: its share of
 * ROWSPILL_RUNS_READ as a power of two, no more than the run (reallocated only when the
 * share is halved or doubled, or for a record longer than it); FALSE when reading failed. */
static gboolean rowspill_run_fill(rowspill *sp, rowspill_run *run, guint64 at, gsize len) {
  guint sharing = sp->buffers + (run->buf ? 0 : 1);
  gsize cap = ROWSPILL_RUN_READ_MAX;
  while (cap > ROWSPILL_RUN_READ_MIN && cap * sharing > ROWSPILL_RUNS_READ) cap /= 2;
  cap = MAX((gsize)MIN((guint64)cap, run->end - run->start), len);
  if (run->buf_cap < len || run->buf_cap > 2 * cap || 2 * run->buf_cap < cap) {
    rowspill_run_drop_buffer(sp, run);
    run->buf = g_malloc(cap);
    run->buf_cap = cap;
    sp->buffers++;
  }
  gsize want = (gsize)MIN((guint64)run->buf_cap, MIN(run->end, sp->flushed) - at);
  run->buf_at = at;
  run->buf_len = 0;
  sp->reads++;
  if (sp->fail_read && sp->reads == sp->fail_read) return FALSE; /* planted (tests) */
  run->buf_len = spill_read(sp->file, run->buf, want, at);
  return run->buf_len >= len;
}

const void *rowspill_run_read(rowspill *sp, gint64 offset, gsize len) {
  if (sp->done >= 0) { /* the last read's bytes are no longer needed */
    rowspill_run_drop_buffer(sp, &g_array_index(sp->runs, rowspill_run, sp->done));
    sp->done = -1;
  }
  guint64 at = (guint64)offset;
  rowspill_run *run = rowspill_run_at(sp, at);
  g_assert(at >= run->start && at + len <= run->end); /* an open run's end is 0 */
  if (at >= sp->flushed) { /* still in the write buffer (records never straddle a flush) */
    if (at - sp->flushed + len > sp->buf_len) return NULL;
    return sp->buf + (at - sp->flushed);
  }
  if (!run->buf || at < run->buf_at || at + len > run->buf_at + run->buf_len) {
    if (!rowspill_run_fill(sp, run, at, len)) return NULL;
  }
  if (at + len == run->end) sp->done = (gint)(run - &g_array_index(sp->runs, rowspill_run, 0));
  return run->buf + (at - run->buf_at);
}

guint rowspill_runs(const rowspill *sp) { return sp->runs->len; }

guint64 rowspill_run_reads(const rowspill *sp) { return sp->reads; }

void rowspill_free(rowspill *sp) {
  if (!sp) return;
  spill_free(sp->file);
  for (guint k = 0; k < sp->runs->len; k++) g_free(g_array_index(sp->runs, rowspill_run, k).buf);
  g_array_unref(sp->runs);
  g_free(sp->buf);
  g_free(sp->ahead);
  g_free(sp);
}
