/* rowwriter.c: the rows of finished jobs put back in trace order and written (rowwriter.h).
 * Owns the records and their batches, the hand-over to the writer thread (two GAsyncQueues:
 * full batches one way, empty ones back, RW_BATCHES at most, so the simulation waits rather
 * than piling rows up) and the reorder window; what a row adds up is the metrics' (a
 * metrics_rowsums it feeds in trace order) and the results' (results_add_job). A record whose
 * turn has not come is held in an arena of RW_HOLD_BYTES; a full arena goes to the spill
 * (rowspill.h) as one run sorted by row, which the drain then reads back sequentially.
 * It reads nothing the simulation writes while the run goes: a record carries all its row
 * needs, the sums are its own until rowwriter_finish hands them over after the join. */
#include "rowwriter.h"
#include "rowspill.h"
#include "util.h"
#include <stdint.h>
#include <string.h>

/* The queues' hand-over, told to ThreadSanitizer: GLib's mutexes are futexes it does not see
 * (a -fsanitize=thread build, HACKING.md "sanitizers"), so a batch taken from a queue is
 * declared acquired from the thread that pushed it. */
#if defined(__SANITIZE_THREAD__)
#define RW_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RW_TSAN 1
#endif
#endif
#ifdef RW_TSAN
#include <sanitizer/tsan_interface.h>
#define RW_RELEASE(p) __tsan_release(p)
#define RW_ACQUIRE(p) __tsan_acquire(p)
#else
#define RW_RELEASE(p) ((void)(p))
#define RW_ACQUIRE(p) ((void)(p))
#endif

/* A batch is handed over once it holds this many bytes (about 500 records of a job
 * without services rows); RW_BATCHES of them at most exist, in flight or being filled. */
#define RW_BATCH_BYTES (128 * 1024)
#define RW_BATCHES 4

/* One record: the header, then n_services service_result, 2 x n_gpus guint32 (node, GPU
 * in node), the id and the reason with their NULs, padding to 8 bytes. */
typedef struct rw_rec {
  rowwriter_row r;
  guint32 size;              /* bytes of the whole record */
  guint32 id_len, reason_len; /* with the NUL */
  guint32 n_gpus, n_services;
  gboolean reported;         /* the job's workload has a report hook (services rows) */
} rw_rec;

typedef struct rw_batch {
  guint8 *data;
  gsize len, cap;
  gboolean last;             /* the run's last batch: the thread ends after it */
} rw_batch;

struct rowwriter {
  rowwriter_config c;
  /* the simulation's side */
  rw_batch *cur;
  guint n_batches;
  GAsyncQueue *full, *empty; /* rw_batch*: to the writer thread, and back */
  GThread *thread;
  gint failed;               /* atomic: the writer failed or is stopped; rows are dropped */
  gboolean finished;
  /* the writer's side (its thread, or the caller's when there is none) */
  guint32 next;              /* rows [0, next) are out */
  guint32 **blocks;          /* the window of rows waiting: RW_BLOCK_ROWS slots a block, */
  guint32 bmask;             /* row i's at blocks[(i >> RW_BLOCK_SHIFT) & bmask] */
  guint32 *spare;            /* a block given back, for the next one */
  GHashTable *mem;           /* row -> a copy of its record, for the slots RW_SLOT_MEM */
  guint8 *arena;             /* held records, arena_len bytes, of any row; NULL until one */
  gsize arena_len;
  gsize budget;              /* arena bytes at most: RW_HOLD_BYTES (rowwriter_config.hold_bytes) */
  GArray *order;             /* guint64 row << 32 | arena offset / 8: a run being sorted */
  rowspill *spill;
  GString *ids;              /* gpu_ids of the row going out */
  results *svc;              /* the services rows as they went out (streamed or kept) */
  metrics_rowsums *sums;     /* the rows' sums, the writer's own until the join; NULL: none */
  GError *error;
};

static rw_batch *rw_batch_new(void) {
  rw_batch *b = g_new0(rw_batch, 1);
  b->cap = RW_BATCH_BYTES + 16 * 1024;
  b->data = g_malloc(b->cap);
  return b;
}

static void rw_batch_free(rw_batch *b) {
  if (!b) return;
  g_free(b->data);
  g_free(b);
}

static inline const service_result *rw_services(const rw_rec *rec) {
  return (const service_result *)(const void *)(rec + 1);
}

static inline const guint32 *rw_gpus(const rw_rec *rec) {
  return (const guint32 *)(const void *)(rw_services(rec) + rec->n_services);
}

static inline const char *rw_id(const rw_rec *rec) {
  return (const char *)(rw_gpus(rec) + 2 * (gsize)rec->n_gpus);
}

/* Frees what a record not written owns (its services rows' histograms). */
static void rw_rec_drop(const rw_rec *rec) {
  for (guint32 k = 0; k < rec->n_services; k++) {
    service_result s = rw_services(rec)[k];
    results_service_clear(&s);
  }
}

static void rw_fail(rowwriter *w, GError *e) {
  if (!w->error) w->error = e;
  else g_error_free(e);
  g_atomic_int_set(&w->failed, 1);
}

/* "pool/n0/g3;pool/n1/g0" from the record's GPUs ("" without any). */
static const char *rw_gpu_ids(rowwriter *w, const rw_rec *rec) {
  GString *buf = w->ids;
  g_string_truncate(buf, 0);
  const guint32 *g = rw_gpus(rec);
  for (guint32 k = 0; k < rec->n_gpus; k++) {
    if (k) g_string_append_c(buf, ';');
    g_string_append(buf, rec->r.jr.pool);
    g_string_append(buf, "/n");
    util_append_u64(buf, g[2 * k]);
    g_string_append(buf, "/g");
    util_append_u64(buf, g[2 * k + 1]);
  }
  return buf->str;
}

/* The record's services rows go out (the sink) or are kept. */
static void rw_services_out(rowwriter *w, const rw_rec *rec) {
  if (!rec->reported) return;
  GArray *all = w->svc->services;
  guint from = all->len;
  g_array_append_vals(all, rw_services(rec), rec->n_services);
  if (!w->c.services_sink) return;
  for (guint i = from; i < all->len; i++)
    w->c.services_sink(w->c.services_sink_data, w->c.res, &g_array_index(all, service_result, i));
  results_services_streamed(w->svc, from);
}

/* Row rec's turn: the job aggregates, the sink or the kept rows, the sums, the services. */
static void rw_emit(rowwriter *w, const rw_rec *rec) {
  if (g_atomic_int_get(&w->failed)) {
    rw_rec_drop(rec);
    return;
  }
  job_result jr = rec->r.jr;
  jr.id = rw_id(rec);
  jr.reason = jr.id + rec->id_len;
  jr.gpu_ids = rw_gpu_ids(w, rec);
  results *res = w->c.res;
  if (w->c.job_sink) {
    results_add_job(res, &jr, FALSE);
    GError *e = NULL;
    if (!w->c.job_sink(w->c.job_sink_data, res, &jr, &e)) {
      rw_fail(w, e ? e : g_error_new(SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME,
                                     "cannot write the row of job %s", jr.id));
      rw_rec_drop(rec);
      return;
    }
  } else {
    jr.id = results_intern(res, jr.id); /* the record goes once it is out */
    jr.reason = results_intern(res, jr.reason);
    jr.gpu_ids = results_intern(res, jr.gpu_ids);
    results_add_job(res, &jr, TRUE);
  }
  if (w->sums) metrics_rowsums_add(w->sums, &jr, rec->r.tenant, rec->r.run_ns,
                                   rec->r.straggler_wait_gpu_ns);
  rw_services_out(w, rec);
}

/* The window of rows waiting for an earlier one is in blocks of RW_BLOCK_ROWS 4-byte slots,
 * from next's block to the last row held (a block is given back once next leaves it, so
 * the window never reallocates its slots): 0 (not yet there), RW_SLOT_MEM (a copy of the
 * record in w->mem), RW_SLOT_ARENA + its arena offset / 8, or 2 + its spill offset / 8
 * (below RW_SLOT_ARENA; records are 8-byte multiples). */
#define RW_BLOCK_SHIFT 14
#define RW_BLOCK_ROWS (1u << RW_BLOCK_SHIFT)
#define RW_SLOT_MEM 1u
#define RW_SLOT_ARENA 0xC0000000u

/* The held records' arena: 2 MB, the budget of held records kept in memory. It is a sort
 * buffer more than a cache: held records are ~310 bytes and most wait long behind a job
 * that runs for hours (1M bench: 312 MB held in all, up to 114 MB at once, at 10M the
 * same 114 MB at once; 99 % of the bytes are spilled with an 8 MB arena as with 2 MB), so
 * a larger arena would only make fewer runs (2 MB: 148 at 1M, ~60 read at once, each still
 * read 16 KB at a time) while adding its size to the peak memory of `run` (54 MB at 1M).
 * Tests set rowwriter_config.hold_bytes (4 KB to 1 GB) to spill many runs. */
#define RW_HOLD_BYTES (2u * 1024 * 1024)
#define RW_HOLD_MIN 4096u
#define RW_HOLD_MAX (1024u * 1024 * 1024)

/* Row i's slot (i >= next); NULL when its block is not there and create is FALSE. */
static guint32 *rw_slot(rowwriter *w, guint32 i, gboolean create) {
  guint32 first = w->next >> RW_BLOCK_SHIFT, b = i >> RW_BLOCK_SHIFT;
  if (b - first > w->bmask) { /* a larger ring of blocks */
    if (!create) return NULL;
    guint32 n = w->bmask + 1;
    while (n <= b - first) n *= 2;
    guint32 **fresh = g_new0(guint32 *, n);
    for (guint32 k = first; k < first + w->bmask + 1; k++)
      fresh[k & (n - 1)] = w->blocks[k & w->bmask];
    g_free(w->blocks);
    w->blocks = fresh;
    w->bmask = n - 1;
  }
  guint32 **blk = &w->blocks[b & w->bmask];
  if (!*blk) {
    if (!create) return NULL;
    *blk = w->spare ? w->spare : g_new0(guint32, RW_BLOCK_ROWS);
    w->spare = NULL;
  }
  return &(*blk)[i & (RW_BLOCK_ROWS - 1)];
}

/* Row next is out: the next one's turn, and the block left behind goes. */
static void rw_advance(rowwriter *w) {
  w->next++;
  if (w->next & (RW_BLOCK_ROWS - 1)) return;
  guint32 **blk = &w->blocks[((w->next >> RW_BLOCK_SHIFT) - 1) & w->bmask];
  if (!*blk) return;
  memset(*blk, 0, RW_BLOCK_ROWS * sizeof(guint32)); /* every slot given back already */
  if (w->spare) g_free(*blk);
  else w->spare = *blk;
  *blk = NULL;
}

static int rw_order_cmp(gconstpointer a, gconstpointer b) {
  guint64 x = *(const guint64 *)a, y = *(const guint64 *)b;
  return (x > y) - (x < y);
}

/* The held records in the arena (rows not out yet) go to the spill as one run sorted by
 * row, so that the drain reads it back sequentially; a record the spill cannot take
 * becomes a copy. The arena is empty then. */
static void rw_spill_arena(rowwriter *w) {
  g_array_set_size(w->order, 0);
  for (gsize off = 0; off < w->arena_len;) {
    const rw_rec *rec = (const rw_rec *)(const void *)(w->arena + off);
    if (rec->r.row >= w->next) {
      guint64 key = (guint64)rec->r.row << 32 | off / 8;
      g_array_append_val(w->order, key);
    }
    off += rec->size;
  }
  w->arena_len = 0;
  if (!w->order->len) return; /* every record in it went out already */
  g_array_sort(w->order, rw_order_cmp);
  rowspill_run_begin(w->spill);
  for (guint k = 0; k < w->order->len; k++) {
    guint64 key = g_array_index(w->order, guint64, k);
    const rw_rec *rec = (const rw_rec *)(const void *)(w->arena + (key & G_MAXUINT32) * 8);
    guint32 *slot = rw_slot(w, rec->r.row, FALSE);
    g_assert(slot && *slot == RW_SLOT_ARENA + (key & G_MAXUINT32));
    gint64 at = rowspill_put(w->spill, rec, rec->size);
    if (at >= 0 && (at & 7) == 0 && (guint64)at / 8 < RW_SLOT_ARENA - 2) {
      *slot = (guint32)((guint64)at / 8 + 2);
      continue;
    }
    *slot = RW_SLOT_MEM;
    g_hash_table_insert(w->mem, GUINT_TO_POINTER(rec->r.row), g_memdup2(rec, rec->size));
  }
  rowspill_run_end(w->spill);
}

/* Row rec waits for an earlier one: in the arena (spilled first when it is full), else
 * (no spill, a record larger than the arena) a copy. */
static void rw_hold(rowwriter *w, const rw_rec *rec) {
  g_assert(rec->r.row > w->next && rec->r.row < w->c.n_rows);
  guint32 *slot = rw_slot(w, rec->r.row, TRUE);
  g_assert(*slot == 0);
  if (w->spill && rec->size <= w->budget) {
    if (w->arena_len + rec->size > w->budget) rw_spill_arena(w);
    if (!w->arena) w->arena = g_malloc(w->budget); /* touched as it fills */
    memcpy(w->arena + w->arena_len, rec, rec->size);
    *slot = RW_SLOT_ARENA + (guint32)(w->arena_len / 8);
    w->arena_len += rec->size;
    return;
  }
  *slot = RW_SLOT_MEM;
  g_hash_table_insert(w->mem, GUINT_TO_POINTER(rec->r.row), g_memdup2(rec, rec->size));
}

/* The record of row i in slot v (a copy, in the arena, or read back from the spill); NULL
 * when the spill cannot give it back. */
static const rw_rec *rw_slot_record(rowwriter *w, guint32 i, guint32 v) {
  if (v == RW_SLOT_MEM) return g_hash_table_lookup(w->mem, GUINT_TO_POINTER(i));
  if (v >= RW_SLOT_ARENA)
    return (const rw_rec *)(const void *)(w->arena + (gsize)(v - RW_SLOT_ARENA) * 8);
  gint64 at = (gint64)(v - 2) * 8;
  const rw_rec *h = rowspill_run_read(w->spill, at, sizeof *h);
  if (!h || h->size < sizeof *h) return NULL;
  return rowspill_run_read(w->spill, at, h->size);
}

/* The rows held for the one just out, as long as they follow on. */
static void rw_drain(rowwriter *w) {
  while (w->next < w->c.n_rows) {
    guint32 *slot = rw_slot(w, w->next, FALSE);
    if (!slot || !*slot) return;
    const rw_rec *rec = rw_slot_record(w, w->next, *slot);
    if (!rec) {
      rw_fail(w, g_error_new(SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME,
                             "cannot read back a held jobs.csv row from the spill file"));
      return; /* the slot stays: rowwriter_free tries it once more */
    }
    rw_emit(w, rec);
    if (*slot == RW_SLOT_MEM) g_hash_table_remove(w->mem, GUINT_TO_POINTER(w->next));
    *slot = 0;
    rw_advance(w);
  }
}

/* The records of one batch, in the order the jobs ended. */
static void rw_process(rowwriter *w, rw_batch *b) {
  for (gsize off = 0; off < b->len;) {
    const rw_rec *rec = (const rw_rec *)(const void *)(b->data + off);
    off += rec->size;
    if (g_atomic_int_get(&w->failed)) rw_rec_drop(rec);
    else if (rec->r.row != w->next) rw_hold(w, rec);
    else {
      rw_emit(w, rec);
      rw_advance(w);
      rw_drain(w);
    }
  }
  b->len = 0;
}

static void rw_push(GAsyncQueue *q, rw_batch *b) {
  RW_RELEASE(b);
  g_async_queue_push(q, b);
}

static rw_batch *rw_pop(GAsyncQueue *q, gboolean wait) {
  rw_batch *b = wait ? g_async_queue_pop(q) : g_async_queue_try_pop(q);
  if (b) RW_ACQUIRE(b);
  return b;
}

static gpointer rw_thread(gpointer data) {
  rowwriter *w = data;
  for (;;) {
    rw_batch *b = rw_pop(w->full, TRUE);
    gboolean last = b->last;
    rw_process(w, b);
    rw_push(w->empty, b);
    if (last) return NULL;
  }
}

rowwriter *rowwriter_new(const rowwriter_config *c) {
  rowwriter *w = g_new0(rowwriter, 1);
  w->c = *c;
  if (c->m) w->sums = metrics_rowsums_new(c->m);
  w->blocks = g_new0(guint32 *, 1); /* grown as rows wait further ahead */
  w->bmask = 0;
  w->mem = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
  w->ids = g_string_new(NULL);
  w->svc = results_new();
  if (c->spill) w->spill = rowspill_new(c->spill_dir, c->spill_fail_read);
  guint64 budget = c->hold_bytes ? c->hold_bytes : RW_HOLD_BYTES; /* tests: many runs spilled */
  w->budget = (gsize)CLAMP(budget, RW_HOLD_MIN, RW_HOLD_MAX) & ~(gsize)7;
  w->order = g_array_new(FALSE, FALSE, sizeof(guint64));
  w->cur = rw_batch_new();
  w->n_batches = 1;
  if (c->thread && c->job_sink) {
    w->full = g_async_queue_new();
    w->empty = g_async_queue_new();
    w->thread = g_thread_new("sharesim-rows", rw_thread, w);
  }
  return w;
}

/* The batch being filled goes to the writer (its thread, or here), and an empty one is
 * taken: a new one while fewer than RW_BATCHES exist, else the first the writer gives back. */
static void rw_handover(rowwriter *w) {
  if (!w->thread) {
    rw_process(w, w->cur);
    return;
  }
  rw_push(w->full, w->cur);
  rw_batch *b = rw_pop(w->empty, FALSE);
  if (!b && w->n_batches < RW_BATCHES) {
    b = rw_batch_new();
    w->n_batches++;
  }
  w->cur = b ? b : rw_pop(w->empty, TRUE);
}

guint32 *rowwriter_put(rowwriter *w, const rowwriter_row *r, const char *id, const char *reason,
                       guint32 n_gpus, GArray *services) {
  g_assert(!w->finished);
  if (w->cur->len >= RW_BATCH_BYTES) rw_handover(w);
  gsize id_len = strlen(id) + 1, reason_len = strlen(reason) + 1;
  guint32 n_svc = services ? services->len : 0;
  gsize size = sizeof(rw_rec) + n_svc * sizeof(service_result) + 8 * (gsize)n_gpus + id_len +
               reason_len;
  size = (size + 7) & ~(gsize)7;
  g_assert(size <= G_MAXUINT32);
  rw_batch *b = w->cur;
  if (b->len + size > b->cap) {
    b->cap = MAX(2 * b->cap, b->len + size);
    b->data = g_realloc(b->data, b->cap);
  }
  rw_rec *rec = (rw_rec *)(void *)(b->data + b->len);
  b->len += size;
  *rec = (rw_rec){.r = *r, .size = (guint32)size, .id_len = (guint32)id_len,
                  .reason_len = (guint32)reason_len, .n_gpus = n_gpus, .n_services = n_svc,
                  .reported = services != NULL};
  rec->r.jr.id = rec->r.jr.reason = rec->r.jr.gpu_ids = NULL;
  if (n_svc) memcpy((void *)rw_services(rec), services->data, n_svc * sizeof(service_result));
  char *text = (char *)rw_id(rec);
  memcpy(text, id, id_len);
  memcpy(text + id_len, reason, reason_len);
  if (services) g_array_set_size(services, 0); /* their histograms are the record's now */
  return (guint32 *)rw_gpus(rec);
}

gboolean rowwriter_failed(rowwriter *w) { return g_atomic_int_get(&w->failed) != 0; }

/* The last batch to the writer, and the thread joined. */
static void rw_flush_last(rowwriter *w) {
  if (w->finished) return;
  w->finished = TRUE;
  if (!w->thread) {
    rw_process(w, w->cur);
    return;
  }
  w->cur->last = TRUE;
  rw_push(w->full, w->cur);
  w->cur = NULL;
  g_thread_join(w->thread);
  w->thread = NULL;
}

gboolean rowwriter_finish(rowwriter *w, GError **error) {
  rw_flush_last(w);
  if (w->error) {
    g_propagate_error(error, g_steal_pointer(&w->error));
    return FALSE;
  }
  g_assert(w->next == w->c.n_rows);
  results_services_move(w->c.res, w->svc);
  if (w->sums) metrics_rowsums_hand_over(w->c.m, g_steal_pointer(&w->sums));
  return TRUE;
}

void rowwriter_free(rowwriter *w) {
  if (!w) return;
  g_atomic_int_set(&w->failed, 1); /* what is still on its way is dropped */
  rw_flush_last(w);
  guint32 first = w->next >> RW_BLOCK_SHIFT;
  for (guint32 k = first; k <= first + w->bmask; k++) { /* the held records own histograms */
    guint32 *blk = w->blocks[k & w->bmask];
    for (guint32 i = 0; blk && i < RW_BLOCK_ROWS; i++) {
      const rw_rec *rec = blk[i] > RW_SLOT_MEM ? rw_slot_record(w, 0, blk[i]) : NULL;
      if (rec) rw_rec_drop(rec);
    }
    g_free(blk);
  }
  GHashTableIter it;
  gpointer copy;
  g_hash_table_iter_init(&it, w->mem);
  while (g_hash_table_iter_next(&it, NULL, &copy)) rw_rec_drop(copy);
  g_hash_table_unref(w->mem);
  g_free(w->blocks);
  g_free(w->spare);
  rw_batch *b;
  while (w->empty && (b = rw_pop(w->empty, FALSE)) != NULL) rw_batch_free(b);
  rw_batch_free(w->cur);
  if (w->full) g_async_queue_unref(w->full);
  if (w->empty) g_async_queue_unref(w->empty);
  rowspill_free(w->spill);
  g_free(w->arena);
  g_array_unref(w->order);
  g_string_free(w->ids, TRUE);
  results_free(w->svc);
  metrics_rowsums_free(w->sums);
  g_clear_error(&w->error);
  g_free(w);
}
