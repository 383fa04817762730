/* tracerows.c: the packed job rows of a trace (tracerows.h): the encoding (fields that
 * differ from the kind's defaults, strings as table indices), the chunks that hold the
 * rows, and the id index. Parsing and validation stay in trace.c; this file only stores
 * what trace.c hands it and gives it back unchanged. */
#include "tracerows.h"
#include "spill.h"
#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

/* The fields kept only when they differ from the kind's defaults, as bits of a row's mask.
 * id, submit_ns, line, kind and the strings are always kept; phase_first, phase_count and
 * has_requests are the trace's. A field added to job_spec must be added here: the size
 * check below fails until it is (the round-trip test reads every field back). */
typedef enum { RF_INT, RF_REAL, RF_RAW } row_field_type;
typedef struct { guint16 offset, size; row_field_type type; } row_field;
#define RI(f) {offsetof(job_spec, f), sizeof(((job_spec *)0)->f), RF_INT}
#define RR(f) {offsetof(job_spec, f), sizeof(double), RF_REAL}
static const row_field row_fields[] = {
    RI(restart), RI(gpus), RI(priority), RI(max_batch), RI(duration_ns), RI(burst_ns),
    RI(checkpoint_ns), RI(mem_bytes), RI(kv_bytes), RR(gpu_frac), RR(sm), RR(gpu_util),
    RR(mem_util), RR(busy), RR(rate_rps), RR(service_ms), RR(slo_ms), RR(slo_pct),
    RR(comm_frac), RI(cpu_milli), RI(memory_mib),
    {offsetof(job_spec, llm), sizeof(void *), RF_RAW}, RI(prompt_tokens),
    RI(output_tokens), RR(slo_ttft_ms), RR(slo_tpot_ms), RR(gpu_mem_util),
};
#undef RI
#undef RR
#define ROW_FIELDS G_N_ELEMENTS(row_fields)
G_STATIC_ASSERT(ROW_FIELDS <= 32);
/* job_spec as this table knows it (LP64): a change of its size means a field to add here. */
G_STATIC_ASSERT(sizeof(job_spec) == 256 || sizeof(void *) != 8);

#define CHUNK_ROWS 65536u
#define CHUNK_MAX_BYTES (G_GUINT64_CONSTANT(1) << 30) /* offsets within a chunk are 32-bit */

typedef struct row_chunk {
  guint8 *data;              /* NULL when the chunk is in the file (trace_rows_new_spilled) */
  gsize len, cap;
  guint32 first_row, n_rows;
  guint32 *off;              /* CHUNK_ROWS offsets into data (NULL with data) */
  guint64 file_at;           /* in the file: n_rows offsets, then len bytes of rows */
} row_chunk;

struct trace_rows {
  GArray *chunks;            /* row_chunk */
  guint32 n;
  job_spec defaults[JOB_KIND_COUNT];
  GPtrArray *strs;           /* the strings rows name by index; 0 is NULL */
  GHashTable *str_index;     /* pointer -> index */
  void *ids;                 /* open addressing, 0 empty: row + 1 (guint32), or with wide
                              * slots (spilled rows) id hash << 32 | row + 1 (guint64), so
                              * that only a row whose hash matches is read back; NULL after
                              * trace_rows_drop_index */
  guint32 ids_cap, ids_n;
  gboolean wide;
  guint32 chunk_rows;        /* rows per chunk: CHUNK_ROWS (tests: trace_rows_new_spilled's chunk_rows) */
  spill *file;               /* the unnamed file full chunks go to; NULL: rows stay in memory */
  guint64 serial;            /* names the rows in the threads' chunk caches */
  gboolean sorted;           /* submit times never decrease from row to row */
  sim_time last_submit;
  struct rows_str_recent *str_recent; /* rows_string's last lookups, while rows are added */
};

#define ROWS_STR_RECENT 64
struct rows_str_recent {
  const char *s[ROWS_STR_RECENT];
  guint32 index[ROWS_STR_RECENT];
};

trace_rows *trace_rows_new(void) {
  trace_rows *r = g_new0(trace_rows, 1);
  r->chunks = g_array_new(FALSE, FALSE, sizeof(row_chunk));
  for (int k = 0; k < JOB_KIND_COUNT; k++) job_init(&r->defaults[k], (job_kind)k);
  r->strs = g_ptr_array_new();
  g_ptr_array_add(r->strs, NULL);
  r->str_index = g_hash_table_new(g_direct_hash, g_direct_equal);
  r->ids_cap = 64;
  r->ids = g_malloc0(r->ids_cap * sizeof(guint32));
  r->chunk_rows = CHUNK_ROWS;
  static guint64 serials;
  r->serial = __atomic_add_fetch(&serials, 1, __ATOMIC_RELAXED);
  r->sorted = TRUE;
  return r;
}

trace_rows *trace_rows_new_spilled(const char *dir, guint32 chunk_rows) {
  trace_rows *r = trace_rows_new();
  r->file = spill_new(dir, ".tracerows-");
  r->wide = TRUE;
  /* tests spill small traces in many chunks (16 to CHUNK_ROWS rows each) */
  if (chunk_rows >= 16 && chunk_rows <= CHUNK_ROWS) r->chunk_rows = chunk_rows;
  g_free(r->ids);
  r->ids = g_malloc0(r->ids_cap * sizeof(guint64));
  return r;
}

static void rows_cache_forget(guint64 serial);

void trace_rows_free(trace_rows *r) {
  if (!r) return;
  for (guint k = 0; k < r->chunks->len; k++) {
    row_chunk *c = &g_array_index(r->chunks, row_chunk, k);
    g_free(c->data);
    g_free(c->off);
  }
  g_array_unref(r->chunks);
  g_ptr_array_unref(r->strs);
  g_hash_table_unref(r->str_index);
  g_free(r->str_recent);
  g_free(r->ids);
  spill_free(r->file);
  rows_cache_forget(r->serial);
  g_free(r);
}

guint32 trace_rows_len(const trace_rows *r) { return r->n; }

/* ---- encoding ---- */

/* Room for n more bytes in c. */
static void rows_reserve(row_chunk *c, gsize n) {
  if (c->len + n > c->cap) {
    gsize cap = MAX(c->cap * 2, 65536);
    while (cap < c->len + n) cap *= 2;
    c->data = g_realloc(c->data, cap);
    c->cap = cap;
  }
}

/* Appends n bytes; the caller reserved room for them (rows_reserve). */
static inline void rows_put(row_chunk *c, const void *p, gsize n) {
  memcpy(c->data + c->len, p, n);
  c->len += n;
}

static inline void rows_put_varint(row_chunk *c, guint64 v) {
  guint8 *b = c->data + c->len;
  guint n = 0;
  do {
    b[n] = (guint8)(v & 0x7f);
    v >>= 7;
    if (v) b[n] |= 0x80;
    n++;
  } while (v);
  c->len += n;
}

static guint64 rows_get_varint(const guint8 **p) {
  guint64 v = 0;
  for (guint shift = 0;; shift += 7) {
    guint8 b = *(*p)++;
    v |= (guint64)(b & 0x7f) << shift;
    if (!(b & 0x80)) return v;
  }
}

/* ---- numbers: most trace values are short decimals ----
 * An integer field (4 or 8 bytes, as a signed 64-bit value v) is the varint of
 * zigzag(v / 10^e) x 4 + k, e = 0, 3, 6, 9 for k = 0..3, the largest e that divides v
 * (nanoseconds and bytes are mostly whole seconds and megabytes). A real is the varint of
 * zigzag(m) x 4 + k when v is exactly m / 10^e for e = 0, 3, 6 (k = 0..2: the division gives
 * back the very same double), else the varint 3 and the 8 bytes of v. */
static const gint64 rows_pow10[] = {1, 1000, 1000000, 1000000000};

static guint64 rows_zigzag(gint64 v) { return ((guint64)v << 1) ^ (guint64)(v >> 63); }
static gint64 rows_unzigzag(guint64 u) { return (gint64)(u >> 1) ^ -(gint64)(u & 1); }

static void rows_put_int(row_chunk *c, const void *field, guint size) {
  gint64 v;
  if (size == 4) {
    gint32 x;
    memcpy(&x, field, 4);
    v = x;
  } else {
    memcpy(&v, field, 8);
  }
  /* the largest scale that divides v (constant divisors: no division instruction) */
  guint k = 0;
  gint64 q = v;
  if (v != 0 && v % 1000 == 0) {
    k = 1, q = v / 1000;
    if (v % 1000000 == 0) {
      k = 2, q = v / 1000000;
      if (v % 1000000000 == 0) k = 3, q = v / 1000000000;
    }
  }
  guint64 z = rows_zigzag(q);
  if (z >> 62) { /* |v| near 2^63: no room for the scale bits */
    rows_put_varint(c, 3);
    rows_put(c, &v, 8);
    return;
  }
  rows_put_varint(c, z << 2 | k);
}

static void rows_get_int(const guint8 **p, void *field, guint size) {
  guint64 u = rows_get_varint(p);
  gint64 v;
  if (u == 3) {
    memcpy(&v, *p, 8);
    *p += 8;
  } else {
    v = rows_unzigzag(u >> 2) * rows_pow10[u & 3];
  }
  if (size == 4) {
    gint32 x = (gint32)v;
    memcpy(field, &x, 4);
  } else {
    memcpy(field, &v, 8);
  }
}

static void rows_put_real(row_chunk *c, const void *field) {
  double v;
  memcpy(&v, field, 8);
  for (guint k = 0; k < 3; k++) {
    double scaled = v * (double)rows_pow10[k];
    if (!(fabs(scaled) < 1e15)) break;
    /* any nearby integer will do: the division below must give v back exactly */
    gint64 m = (gint64)(scaled + (scaled < 0 ? -0.5 : 0.5));
    double back = (double)m / (double)rows_pow10[k];
    if (memcmp(&back, &v, 8) == 0) {
      rows_put_varint(c, rows_zigzag(m) << 2 | k);
      return;
    }
  }
  rows_put_varint(c, 3);
  rows_put(c, &v, 8);
}

static void rows_get_real(const guint8 **p, void *field) {
  guint64 u = rows_get_varint(p);
  double v;
  if ((u & 3) == 3) {
    memcpy(&v, *p, 8);
    *p += 8;
  } else {
    v = (double)rows_unzigzag(u >> 2) / (double)rows_pow10[u & 3];
  }
  memcpy(field, &v, 8);
}

static guint32 rows_string(trace_rows *r, const char *s) {
  if (!s) return 0;
  if (!r->str_recent) r->str_recent = g_new0(struct rows_str_recent, 1);
  guint k = (guint)(((guintptr)s >> 3) ^ ((guintptr)s >> 9)) % ROWS_STR_RECENT;
  if (r->str_recent->s[k] == s) return r->str_recent->index[k];
  gpointer v = g_hash_table_lookup(r->str_index, s);
  guint32 index = GPOINTER_TO_UINT(v);
  if (!v) {
    g_ptr_array_add(r->strs, (gpointer)s);
    index = r->strs->len - 1;
    g_hash_table_insert(r->str_index, (gpointer)s, GUINT_TO_POINTER(index));
  }
  r->str_recent->s[k] = s;
  r->str_recent->index[k] = index;
  return index;
}

/* ---- the file: full chunks of a spilled trace, read back through a per-thread cache ---- */

/* Moves full chunk c to the file; it stays in memory when writing fails (and so does every
 * later chunk: the file is given up). */
static void rows_spill_chunk(trace_rows *r, row_chunk *c) {
  gsize off_len = (gsize)c->n_rows * sizeof(guint32);
  gint64 at = spill_append(r->file, c->off, off_len);
  if (at < 0 || spill_append(r->file, c->data, c->len) < 0) {
    g_clear_pointer(&r->file, spill_free);
    return;
  }
  c->file_at = (guint64)at;
  g_clear_pointer(&c->data, g_free);
  g_clear_pointer(&c->off, g_free);
  c->cap = 0;
}

/* A thread's copies of the chunks it read last (two: a simulation reads at its arrivals and
 * at its oldest unwritten jobs.csv row), freed when the thread ends or the rows are freed. */
#define ROWS_CACHE_SLOTS 2
typedef struct rows_cache_slot {
  guint64 serial;            /* 0: empty */
  guint chunk;
  guint64 used;
  guint8 *bytes;             /* offsets, then rows */
  gsize cap;
} rows_cache_slot;
typedef struct rows_cache {
  rows_cache_slot slot[ROWS_CACHE_SLOTS];
  guint64 tick;
} rows_cache;

static void rows_cache_free(gpointer p) {
  rows_cache *c = p;
  for (guint k = 0; k < ROWS_CACHE_SLOTS; k++) g_free(c->slot[k].bytes);
  g_free(c);
}
static GPrivate rows_cache_key = G_PRIVATE_INIT(rows_cache_free);

/* Drops this thread's copies of the rows named serial (the rows are being freed). */
static void rows_cache_forget(guint64 serial) {
  rows_cache *c = g_private_get(&rows_cache_key);
  if (!c) return;
  gboolean any = FALSE;
  for (guint k = 0; k < ROWS_CACHE_SLOTS; k++) {
    if (c->slot[k].serial == serial) c->slot[k].serial = 0;
    any |= c->slot[k].serial != 0;
  }
  if (!any) g_private_replace(&rows_cache_key, NULL);
}

/* Chunk k of a spilled trace as this thread's copy: its offsets (*off) and rows. */
static const guint8 *rows_cached_chunk(const trace_rows *r, guint k, const guint32 **off) {
  rows_cache *c = g_private_get(&rows_cache_key);
  if (!c) {
    c = g_new0(rows_cache, 1);
    g_private_set(&rows_cache_key, c);
  }
  const row_chunk *ch = &g_array_index(r->chunks, row_chunk, k);
  gsize off_len = (gsize)ch->n_rows * sizeof(guint32);
  rows_cache_slot *s = &c->slot[0];
  for (guint i = 0; i < ROWS_CACHE_SLOTS; i++) {
    rows_cache_slot *t = &c->slot[i];
    if (t->serial == r->serial && t->chunk == k) {
      s = t;
      goto hit;
    }
    if (t->used < s->used) s = t;
  }
  if (s->cap < off_len + ch->len) {
    g_free(s->bytes);
    s->cap = off_len + ch->len;
    s->bytes = g_malloc(s->cap);
  }
  if (spill_read(r->file, s->bytes, off_len + ch->len, ch->file_at) != off_len + ch->len)
    g_error("trace: cannot read the trace's rows back from their temporary file: %s",
            g_strerror(errno));
  s->serial = r->serial;
  s->chunk = k;
hit:
  s->used = ++c->tick;
  *off = (const guint32 *)(void *)s->bytes;
  return s->bytes + off_len;
}

/* The chunk that takes the next row (a new one when the last is full). */
static row_chunk *rows_open_chunk(trace_rows *r, gsize need) {
  row_chunk *c = r->chunks->len ? &g_array_index(r->chunks, row_chunk, r->chunks->len - 1)
                                : NULL;
  if (c && c->n_rows < r->chunk_rows && c->len + need < CHUNK_MAX_BYTES) return c;
  if (c) { /* sealed: no slack left behind */
    c->data = g_realloc(c->data, MAX(c->len, 1));
    c->cap = c->len;
    if (r->file) rows_spill_chunk(r, c);
  }
  row_chunk fresh = {.first_row = r->n, .off = g_new(guint32, r->chunk_rows)};
  g_array_append_val(r->chunks, fresh);
  return &g_array_index(r->chunks, row_chunk, r->chunks->len - 1);
}

/* ---- the id index ---- */

static guint64 rows_slot(const trace_rows *r, guint32 k) {
  return r->wide ? ((const guint64 *)r->ids)[k] : ((const guint32 *)r->ids)[k];
}
static void rows_slot_set(trace_rows *r, guint32 k, guint64 v) {
  if (r->wide) ((guint64 *)r->ids)[k] = v;
  else ((guint32 *)r->ids)[k] = (guint32)v;
}

/* The slot of id (hash h): its row's (found) or the empty one where it would go. With wide
 * slots only a row whose hash matches is read (a spilled row costs a chunk read). */
static guint32 rows_id_slot(const trace_rows *r, const char *id, guint32 h, gboolean *found) {
  guint32 mask = r->ids_cap - 1;
  for (guint32 k = h & mask;; k = (k + 1) & mask) {
    guint64 v = rows_slot(r, k);
    if (!v || ((!r->wide || (guint32)(v >> 32) == h) &&
               strcmp(trace_rows_id(r, (guint32)v - 1), id) == 0)) {
      *found = v != 0;
      return k;
    }
  }
}

static void rows_index_grow(trace_rows *r) {
  void *old = r->ids;
  guint32 old_cap = r->ids_cap;
  gsize slot_size = r->wide ? sizeof(guint64) : sizeof(guint32);
  r->ids_cap *= 2;
  r->ids = g_malloc0(r->ids_cap * slot_size);
  guint32 mask = r->ids_cap - 1;
  for (guint32 k = 0; k < old_cap; k++) {
    guint64 v = r->wide ? ((guint64 *)old)[k] : ((guint32 *)old)[k];
    if (!v) continue;
    /* wide slots hold the hash: no row is read */
    guint32 h = r->wide ? (guint32)(v >> 32) : g_str_hash(trace_rows_id(r, (guint32)v - 1));
    guint32 at = h & mask;
    while (rows_slot(r, at)) at = (at + 1) & mask;
    rows_slot_set(r, at, v);
  }
  g_free(old);
}

int64_t trace_rows_find(const trace_rows *r, const char *id) {
  if (!r->ids) { /* dropped: a scan, in row order (the first row with the id) */
    for (guint32 i = 0; i < r->n; i++)
      if (strcmp(trace_rows_id(r, i), id) == 0) return i;
    return -1;
  }
  gboolean found;
  guint32 k = rows_id_slot(r, id, g_str_hash(id), &found);
  return found ? (int64_t)(guint32)rows_slot(r, k) - 1 : -1;
}

void trace_rows_drop_index(trace_rows *r) {
  g_clear_pointer(&r->ids, g_free);
  r->ids_cap = r->ids_n = 0;
}

/* Fields of j that differ from d, as row_fields bits. */
static guint32 rows_mask(const job_spec *j, const job_spec *d) {
  guint32 mask = 0;
  for (guint f = 0; f < ROW_FIELDS; f++) {
    const char *a = (const char *)j + row_fields[f].offset;
    const char *b = (const char *)d + row_fields[f].offset;
    gboolean same;
    if (row_fields[f].size == 4) {
      guint32 x, y;
      memcpy(&x, a, 4);
      memcpy(&y, b, 4);
      same = x == y;
    } else {
      guint64 x, y;
      memcpy(&x, a, 8);
      memcpy(&y, b, 8);
      same = x == y;
    }
    if (!same) mask |= 1u << f;
  }
  return mask;
}

/* The most a row takes besides its id: submit, the id's NUL, line, kind, three string
 * indices and the mask, then at most 10 bytes a field (a 10-byte varint, or 1 + 8). */
#define ROW_MAX_FIXED (8 + 1 + 5 + 1 + 3 * 5 + 5 + 10 * ROW_FIELDS)

/* Encodes j as the next row (not indexed); returns its index. */
static guint32 rows_append(trace_rows *r, const job_spec *j) {
  g_assert(r->n < G_MAXUINT32 - 1);
  const job_spec *d = &r->defaults[j->kind < JOB_KIND_COUNT ? j->kind : 0];
  guint32 mask = rows_mask(j, d);
  gsize id_len = strlen(j->id);
  row_chunk *c = rows_open_chunk(r, id_len + 256);
  rows_reserve(c, id_len + ROW_MAX_FIXED);
  gsize start = c->len;
  c->off[c->n_rows++] = (guint32)c->len;
  rows_put(c, &j->submit_ns, sizeof j->submit_ns);
  rows_put(c, j->id, id_len + 1);
  rows_put_varint(c, j->line);
  guint8 kind = (guint8)j->kind;
  rows_put(c, &kind, 1);
  rows_put_varint(c, rows_string(r, j->tenant));
  rows_put_varint(c, rows_string(r, j->label));
  rows_put_varint(c, rows_string(r, j->gpu_spec));
  rows_put_varint(c, mask);
  for (guint f = 0; mask >> f; f++) {
    if (!(mask & (1u << f))) continue;
    const row_field *rf = &row_fields[f];
    const char *field = (const char *)j + rf->offset;
    if (rf->type == RF_INT) rows_put_int(c, field, rf->size);
    else if (rf->type == RF_REAL) rows_put_real(c, field);
    else rows_put(c, field, rf->size);
  }
  g_assert(c->len - start <= id_len + ROW_MAX_FIXED);
  guint32 i = r->n++;
  if (i && j->submit_ns < r->last_submit) r->sorted = FALSE;
  r->last_submit = j->submit_ns;
  return i;
}

guint32 trace_rows_add(trace_rows *r, const job_spec *j) {
  if (!r->ids) return rows_append(r, j);
  int64_t prev;
  guint32 i = trace_rows_add_unique(r, j, &prev);
  return prev < 0 ? i : rows_append(r, j); /* a repeated id is added, not indexed */
}

guint32 trace_rows_add_unique(trace_rows *r, const job_spec *j, int64_t *prev) {
  if (!r->ids) { /* no index: the first row with the id by a scan */
    *prev = trace_rows_find(r, j->id);
    return *prev < 0 ? rows_append(r, j) : G_MAXUINT32;
  }
  if ((guint64)(r->ids_n + 1) * 10 > (guint64)r->ids_cap * 7) rows_index_grow(r);
  gboolean found;
  guint32 h = g_str_hash(j->id), k = rows_id_slot(r, j->id, h, &found);
  if (found) {
    *prev = (int64_t)(guint32)rows_slot(r, k) - 1;
    return G_MAXUINT32;
  }
  *prev = -1;
  guint32 i = rows_append(r, j);
  rows_slot_set(r, k, (r->wide ? (guint64)h << 32 : 0) | (i + 1));
  r->ids_n++;
  return i;
}

/* Reads spilled chunk c back into memory for good. */
static void rows_unspill_chunk(trace_rows *r, row_chunk *c) {
  gsize off_len = (gsize)c->n_rows * sizeof(guint32);
  c->off = g_new(guint32, MAX(c->n_rows, 1));
  c->data = g_malloc(MAX(c->len, 1));
  c->cap = c->len;
  if (spill_read(r->file, c->off, off_len, c->file_at) != off_len ||
      spill_read(r->file, c->data, c->len, c->file_at + off_len) != c->len)
    g_error("trace: cannot read the trace's rows back from their temporary file: %s",
            g_strerror(errno));
}

void trace_rows_seal(trace_rows *r) {
  g_clear_pointer(&r->str_recent, g_free);
  if (r->file && !r->sorted) { /* read out of order (by submit): all in memory */
    for (guint k = 0; k < r->chunks->len; k++) {
      row_chunk *c = &g_array_index(r->chunks, row_chunk, k);
      if (!c->data) rows_unspill_chunk(r, c);
    }
    g_clear_pointer(&r->file, spill_free);
  }
  if (!r->chunks->len) return;
  row_chunk *c = &g_array_index(r->chunks, row_chunk, r->chunks->len - 1);
  c->data = g_realloc(c->data, MAX(c->len, 1));
  c->cap = c->len;
  c->off = g_renew(guint32, c->off, MAX(c->n_rows, 1));
}

gboolean trace_rows_spilled(const trace_rows *r) { return r->file && spill_len(r->file) > 0; }
gboolean trace_rows_sorted(const trace_rows *r) { return r->sorted; }

/* ---- reading ---- */

static const guint8 *rows_at(const trace_rows *r, guint32 i) {
  g_assert(i < r->n);
  const row_chunk *cs = (const row_chunk *)(void *)r->chunks->data;
  guint lo = 0, hi = r->chunks->len; /* the last chunk whose first row is <= i */
  while (hi - lo > 1) {
    guint mid = (lo + hi) / 2;
    if (cs[mid].first_row <= i) lo = mid;
    else hi = mid;
  }
  if (G_LIKELY(cs[lo].data)) return cs[lo].data + cs[lo].off[i - cs[lo].first_row];
  const guint32 *off;
  const guint8 *data = rows_cached_chunk(r, lo, &off);
  return data + off[i - cs[lo].first_row];
}

sim_time trace_rows_submit(const trace_rows *r, guint32 i) {
  sim_time t;
  memcpy(&t, rows_at(r, i), sizeof t);
  return t;
}

const char *trace_rows_id(const trace_rows *r, guint32 i) {
  return (const char *)rows_at(r, i) + sizeof(sim_time);
}

guint32 trace_rows_line(const trace_rows *r, guint32 i) {
  const guint8 *p = rows_at(r, i) + sizeof(sim_time);
  p += strlen((const char *)p) + 1;
  return (guint32)rows_get_varint(&p);
}

void trace_rows_get(const trace_rows *r, guint32 i, job_spec *out) {
  const guint8 *p = rows_at(r, i);
  sim_time submit;
  memcpy(&submit, p, sizeof submit);
  p += sizeof submit;
  const char *id = (const char *)p;
  p += strlen(id) + 1;
  guint32 line = (guint32)rows_get_varint(&p);
  job_kind kind = (job_kind)*p++;
  *out = r->defaults[kind < JOB_KIND_COUNT ? kind : 0];
  out->kind = kind;
  out->id = id;
  out->submit_ns = submit;
  out->line = line;
  out->tenant = g_ptr_array_index(r->strs, rows_get_varint(&p));
  out->label = g_ptr_array_index(r->strs, rows_get_varint(&p));
  out->gpu_spec = g_ptr_array_index(r->strs, rows_get_varint(&p));
  guint32 mask = (guint32)rows_get_varint(&p);
  for (guint f = 0; mask; f++, mask >>= 1) {
    if (!(mask & 1u)) continue;
    const row_field *rf = &row_fields[f];
    char *field = (char *)out + rf->offset;
    if (rf->type == RF_INT) {
      rows_get_int(&p, field, rf->size);
    } else if (rf->type == RF_REAL) {
      rows_get_real(&p, field);
    } else {
      memcpy(field, p, rf->size);
      p += rf->size;
    }
  }
}

gsize trace_rows_bytes(const trace_rows *r) {
  gsize b = sizeof *r + (gsize)r->ids_cap * (r->wide ? sizeof(guint64) : sizeof(guint32)) +
            r->chunks->len * sizeof(row_chunk);
  for (guint k = 0; k < r->chunks->len; k++) {
    const row_chunk *c = &g_array_index(r->chunks, row_chunk, k);
    if (!c->data) continue; /* in the file */
    b += c->cap + (k + 1 < r->chunks->len ? r->chunk_rows : MAX(c->n_rows, 1)) * sizeof(guint32);
  }
  return b;
}
