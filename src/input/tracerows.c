/* tracerows.c: the packed job rows of a trace (tracerows.h): the encoding (fields that
 * differ from the kind's defaults, strings as table indices), the chunks that hold the
 * rows, and the id index. Parsing and validation stay in trace.c; this file only stores
 * what trace.c hands it and gives it back unchanged. */
#include "tracerows.h"
#include <stddef.h>
#include <string.h>

/* The fields kept only when they differ from the kind's defaults, as bits of a row's mask.
 * id, submit_ns, line, kind and the strings are always kept; phase_first, phase_count and
 * has_requests are the trace's. A field added to job_spec must be added here: the size
 * check below fails until it is (the round-trip test reads every field back). */
typedef struct { guint16 offset, size; } row_field;
#define RF(f) {offsetof(job_spec, f), sizeof(((job_spec *)0)->f)}
static const row_field row_fields[] = {
    RF(restart), RF(gpus), RF(priority), RF(max_batch), RF(duration_ns), RF(burst_ns),
    RF(checkpoint_ns), RF(mem_bytes), RF(kv_bytes), RF(gpu_frac), RF(sm), RF(gpu_util),
    RF(mem_util), RF(busy), RF(rate_rps), RF(service_ms), RF(slo_ms), RF(slo_pct),
    RF(comm_frac), RF(cpu_milli), RF(memory_mib), RF(llm), RF(prompt_tokens),
    RF(output_tokens), RF(slo_ttft_ms), RF(slo_tpot_ms), RF(gpu_mem_util),
};
#undef RF
#define ROW_FIELDS G_N_ELEMENTS(row_fields)
G_STATIC_ASSERT(ROW_FIELDS <= 32);
/* job_spec as this table knows it (LP64): a change of its size means a field to add here. */
G_STATIC_ASSERT(sizeof(job_spec) == 256 || sizeof(void *) != 8);

#define CHUNK_ROWS 65536u
#define CHUNK_MAX_BYTES (G_GUINT64_CONSTANT(1) << 30) /* offsets within a chunk are 32-bit */

typedef struct row_chunk {
  guint8 *data;
  gsize len, cap;
  guint32 first_row, n_rows;
  guint32 *off;              /* CHUNK_ROWS offsets into data */
} row_chunk;

struct trace_rows {
  GArray *chunks;            /* row_chunk */
  guint32 n;
  job_spec defaults[JOB_KIND_COUNT];
  GPtrArray *strs;           /* the strings rows name by index; 0 is NULL */
  GHashTable *str_index;     /* pointer -> index */
  guint32 *ids;              /* open addressing: row + 1, 0 empty */
  guint32 ids_cap, ids_n;
};

trace_rows *trace_rows_new(void) {
  trace_rows *r = g_new0(trace_rows, 1);
  r->chunks = g_array_new(FALSE, FALSE, sizeof(row_chunk));
  for (int k = 0; k < JOB_KIND_COUNT; k++) trace_job_init(&r->defaults[k], (job_kind)k);
  r->strs = g_ptr_array_new();
  g_ptr_array_add(r->strs, NULL);
  r->str_index = g_hash_table_new(g_direct_hash, g_direct_equal);
  r->ids_cap = 1024;
  r->ids = g_new0(guint32, r->ids_cap);
  return r;
}

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
  g_free(r->ids);
  g_free(r);
}

guint32 trace_rows_len(const trace_rows *r) { return r->n; }

/* ---- encoding ---- */

static void rows_put(row_chunk *c, const void *p, gsize n) {
  if (c->len + n > c->cap) {
    gsize cap = MAX(c->cap * 2, 65536);
    while (cap < c->len + n) cap *= 2;
    c->data = g_realloc(c->data, cap);
    c->cap = cap;
  }
  memcpy(c->data + c->len, p, n);
  c->len += n;
}

static void rows_put_varint(row_chunk *c, guint64 v) {
  guint8 b[10];
  guint n = 0;
  do {
    b[n] = (guint8)(v & 0x7f);
    v >>= 7;
    if (v) b[n] |= 0x80;
    n++;
  } while (v);
  rows_put(c, b, n);
}

static guint64 rows_get_varint(const guint8 **p) {
  guint64 v = 0;
  for (guint shift = 0;; shift += 7) {
    guint8 b = *(*p)++;
    v |= (guint64)(b & 0x7f) << shift;
    if (!(b & 0x80)) return v;
  }
}

static guint32 rows_string(trace_rows *r, const char *s) {
  if (!s) return 0;
  gpointer v = g_hash_table_lookup(r->str_index, s);
  if (v) return GPOINTER_TO_UINT(v);
  g_ptr_array_add(r->strs, (gpointer)s);
  g_hash_table_insert(r->str_index, (gpointer)s, GUINT_TO_POINTER(r->strs->len - 1));
  return r->strs->len - 1;
}

/* The chunk that takes the next row (a new one when the last is full). */
static row_chunk *rows_open_chunk(trace_rows *r, gsize need) {
  row_chunk *c = r->chunks->len ? &g_array_index(r->chunks, row_chunk, r->chunks->len - 1)
                                : NULL;
  if (c && c->n_rows < CHUNK_ROWS && c->len + need < CHUNK_MAX_BYTES) return c;
  if (c) { /* sealed: no slack left behind */
    c->data = g_realloc(c->data, MAX(c->len, 1));
    c->cap = c->len;
  }
  row_chunk fresh = {.first_row = r->n, .off = g_new(guint32, CHUNK_ROWS)};
  g_array_append_val(r->chunks, fresh);
  return &g_array_index(r->chunks, row_chunk, r->chunks->len - 1);
}

/* ---- the id index ---- */

static guint32 *rows_id_slot(const trace_rows *r, const char *id, gboolean *found);

static void rows_index_grow(trace_rows *r) {
  guint32 *old = r->ids, old_cap = r->ids_cap;
  r->ids_cap *= 2;
  r->ids = g_new0(guint32, r->ids_cap);
  for (guint32 k = 0; k < old_cap; k++) {
    if (!old[k]) continue;
    gboolean found;
    *rows_id_slot(r, trace_rows_id(r, old[k] - 1), &found) = old[k];
  }
  g_free(old);
}

/* The slot of id: its row's (found) or the empty one where it would go. */
static guint32 *rows_id_slot(const trace_rows *r, const char *id, gboolean *found) {
  guint32 mask = r->ids_cap - 1;
  for (guint32 k = g_str_hash(id) & mask;; k = (k + 1) & mask) {
    guint32 v = r->ids[k];
    if (!v || strcmp(trace_rows_id(r, v - 1), id) == 0) {
      *found = v != 0;
      return &r->ids[k];
    }
  }
}

int64_t trace_rows_find(const trace_rows *r, const char *id) {
  gboolean found;
  guint32 *slot = rows_id_slot(r, id, &found);
  return found ? (int64_t)*slot - 1 : -1;
}

guint32 trace_rows_add(trace_rows *r, const job_spec *j) {
  g_assert(r->n < G_MAXUINT32 - 1);
  const job_spec *d = &r->defaults[j->kind < JOB_KIND_COUNT ? j->kind : 0];
  guint32 mask = 0;
  for (guint f = 0; f < ROW_FIELDS; f++)
    if (memcmp((const char *)j + row_fields[f].offset, (const char *)d + row_fields[f].offset,
               row_fields[f].size) != 0)
      mask |= 1u << f;
  gsize id_len = strlen(j->id);
  row_chunk *c = rows_open_chunk(r, id_len + 256);
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
  for (guint f = 0; f < ROW_FIELDS; f++)
    if (mask & (1u << f)) rows_put(c, (const char *)j + row_fields[f].offset, row_fields[f].size);
  guint32 i = r->n++;
  if ((guint64)(r->ids_n + 1) * 10 > (guint64)r->ids_cap * 7) rows_index_grow(r);
  gboolean found;
  guint32 *slot = rows_id_slot(r, j->id, &found);
  if (!found) {
    *slot = i + 1;
    r->ids_n++;
  }
  return i;
}

void trace_rows_seal(trace_rows *r) {
  if (!r->chunks->len) return;
  row_chunk *c = &g_array_index(r->chunks, row_chunk, r->chunks->len - 1);
  c->data = g_realloc(c->data, MAX(c->len, 1));
  c->cap = c->len;
  c->off = g_renew(guint32, c->off, MAX(c->n_rows, 1));
}

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
  return cs[lo].data + cs[lo].off[i - cs[lo].first_row];
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
    memcpy((char *)out + row_fields[f].offset, p, row_fields[f].size);
    p += row_fields[f].size;
  }
}

gsize trace_rows_bytes(const trace_rows *r) {
  gsize b = sizeof *r + (gsize)r->ids_cap * sizeof(guint32);
  for (guint k = 0; k < r->chunks->len; k++) {
    const row_chunk *c = &g_array_index(r->chunks, row_chunk, k);
    b += c->cap + (k + 1 < r->chunks->len ? CHUNK_ROWS : MAX(c->n_rows, 1)) * sizeof(guint32);
  }
  return b;
}
