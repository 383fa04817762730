/* llm-engine.c: the batch engine of one LLM server, as vLLM's V1 scheduler runs it: each
 * iteration schedules the running requests first (decodes, then unfinished prefill chunks)
 * and admits waiting ones FCFS within max_num_seqs, max_num_batched_tokens and free KV
 * blocks; a request that needs a block when none is free preempts the latest admitted one
 * (recompute). Pure-decode stretches run in closed form (a global decode counter, a heap of
 * completion counts, block crossings by residue): no work per step or per running request. */
#include "llm-engine.h"
#include <math.h>
#include <string.h>

enum { SEQ_FREE = 0, SEQ_PREFILL, SEQ_DECODE };
enum { LLM_PACKED_BS = 16 }; /* the block size whose residues are also kept packed */

typedef struct llm_seq {
  double arrival, first;   /* first: NAN until the first token */
  guint32 prompt, output;
  guint32 target;          /* prompt tokens to (re)compute: prompt + tokens generated before */
  guint32 computed;        /* prefill tokens computed so far */
  guint32 gen_before;      /* tokens generated before a preemption */
  int64_t g0;              /* decode: generated = G - g0; ctx = prompt + generated - 1 */
  int64_t blocks;          /* prefill: blocks held (decode: derived from ctx) */
  int32_t prev, next;      /* admission order (running list) */
  guint8 state;
} llm_seq;

typedef struct llm_wait {
  double arrival, first;
  double ready;            /* it may be admitted from then on (front end; -inf without one;
                            * +inf: in a closed loop, not yet sent by its client) */
  guint32 prompt, output, gen_before;
  gboolean sent;           /* admitted before (a preempted request): its client has sent it */
} llm_wait;

typedef struct llm_hent {
  int64_t key;             /* g0 + output: the value of G at which it completes */
  int32_t slot;
} llm_hent;

typedef struct llm_consts {
  gboolean moe;
  double weight_bytes, kv_per_token, flops_tok, lm_head_flops, attn_per_ctx;
  double inv_bw, inv_flops;    /* 1 / the rates (ns per byte, per FLOP) */
} llm_consts;

struct llm_engine {
  llm_config c;
  double clock;
  const llm_model *m;
  llm_consts k;            /* per-token figures of the model */
  /* slots and the running list (admission order) */
  llm_seq *seq;
  int32_t *free_stack;
  guint32 n_free, n_running;
  int32_t head, tail;
  /* decoding requests */
  int64_t G;               /* decode steps done */
  guint32 n_decode;
  llm_hent *heap;          /* slots by g0 + output (completion count), min first */
  double ctx_base;         /* sum over decoding of (prompt - g0 - 1): sum ctx = base + n G */
  guint32 *by_key;         /* decoding requests by (ctx - G) mod block_size */
  /* block_size 16 (vLLM's) and max_num_seqs < 2^16: by_key also as 16 lanes of 16 bits in
   * four words (lane j of word j / 4), so that a window of residues sums without a loop */
  gboolean packed;
  guint64 by_key16[4];
  int bs_shift;            /* log2(block_size) when a power of two, else -1 */
  /* prefilling requests, in admission order */
  int32_t *pre;
  guint32 n_pre;
  int64_t free_blocks;
  /* the waiting queue (a ring; preempted requests go to its front) */
  llm_wait *wq;
  guint32 w_head, w_len, w_cap; /* w_cap: 0 or a power of two (64, doubled) */
  /* the front end (frontend_ns > 0): busy until fe_free; in a closed loop the first n_sent
   * waiting requests are the ones their clients have sent */
  gboolean fe;
  double fe_free;
  guint32 n_sent;
  guint64 steps, preemptions, refused;
};

/* ---- step time ---- */

/* Smooth roofline max(a, b) with exponent 1.5 (fitted): (a^1.5 + b^1.5)^(2/3), which is
 * M g(u) with M = max(a, b), u = sqrt(min / M) and g(u) = (1 + u^3)^(2/3), smooth on
 * [0, 1]. g comes from a table of LLM_G_N cubic Hermite pieces (exact values and
 * derivatives at the nodes; relative error below 1e-11, tested), so a step costs a sqrt,
 * a division and a polynomial instead of cbrt (21 % of the engine's time before). */
#define LLM_G_N 256
static double llm_g_tab[LLM_G_N + 1][4]; /* per piece: c0 + c1 s + c2 s^2 + c3 s^3 */

/* the packed residues' lanes j < t, t = 0 .. 16 (filled once, with the g table) */
static guint64 llm_lanes_below[LLM_PACKED_BS + 1][4];

static void llm_lanes_fill(void) {
  for (guint32 t = 0; t <= LLM_PACKED_BS; t++)
    for (guint32 j = 0; j < t; j++) llm_lanes_below[t][j >> 2] |= (guint64)0xffff << (16 * (j & 3));
}

static double llm_g_exact(double u) { return pow(1.0 + u * u * u, 2.0 / 3.0); }

static void llm_g_fill(void) {
  const double h = 1.0 / LLM_G_N;
  for (int i = 0; i < LLM_G_N; i++) {
    double u0 = i * h, u1 = u0 + h, g0 = llm_g_exact(u0), g1 = llm_g_exact(u1);
    double d0 = h * 2.0 * u0 * u0 / cbrt(1.0 + u0 * u0 * u0);
    double d1 = h * 2.0 * u1 * u1 / cbrt(1.0 + u1 * u1 * u1);
    double *c = llm_g_tab[i];
    c[0] = g0;
    c[1] = d0;
    c[2] = 3.0 * (g1 - g0) - 2.0 * d0 - d1;
    c[3] = 2.0 * (g0 - g1) + d0 + d1;
  }
  double *c = llm_g_tab[LLM_G_N]; /* u = 1 exactly */
  c[0] = llm_g_exact(1.0);
  c[1] = c[2] = c[3] = 0;
}

static void llm_g_init(void) {
  static gsize done = 0;
  if (g_once_init_enter(&done)) {
    llm_g_fill();
    llm_lanes_fill();
    g_once_init_leave(&done, 1);
  }
}

static inline double llm_smooth_max(double a, double b) {
  double hi = a > b ? a : b, lo = a > b ? b : a;
  if (!(hi > 0)) return hi;
  double x = sqrt(lo / hi) * LLM_G_N;
  int i = (int)x;
  double s = x - i;
  const double *c = llm_g_tab[i];
  return hi * (c[0] + s * (c[1] + s * (c[2] + s * c[3])));
}

double llm_engine_smooth_max(double a, double b) {
  llm_g_init();
  return llm_smooth_max(a, b);
}

/* The model's per-token figures, computed once per engine. */
static void llm_consts_init(llm_consts *k, const llm_config *c) {
  const llm_model *m = c->model;
  k->moe = m->experts > 1;
  k->weight_bytes = llm_model_params_touched(m, 1) * c->bytes_per_param; /* dense: all */
  k->kv_per_token = (double)llm_model_kv_bytes_per_token(m, c->kv_bytes_per_elem);
  k->flops_tok = llm_model_flops_per_token(m);
  k->lm_head_flops = 2.0 * (double)m->vocab * m->hidden;
  k->attn_per_ctx = llm_model_attn_flops(m, 1.0);
  k->inv_bw = 1.0 / c->bw_bytes_per_ns;
  k->inv_flops = 1.0 / c->flops_per_ns;
}

static inline double llm_step(const llm_consts *k, const llm_config *c, double tokens,
                              double prefill_tokens, double ctx_read, double attn_ctx) {
  double weights = k->moe ? llm_model_params_touched(c->model, tokens) * c->bytes_per_param
                          : k->weight_bytes;
  double bytes = weights + k->kv_per_token * (ctx_read + prefill_tokens);
  /* prefill tokens other than the last of a prompt skip the lm_head */
  double flops = tokens * k->flops_tok - prefill_tokens * k->lm_head_flops +
                 k->attn_per_ctx * attn_ctx;
  if (!(c->bw_bytes_per_ns > 0) || !(c->flops_per_ns > 0)) return INFINITY;
  double t = llm_smooth_max(bytes * k->inv_bw, flops * k->inv_flops) + c->step_overhead_ns;
  /* the decode tokens' delivery, one at a time, bounds the step from below */
  double deliver = (tokens - prefill_tokens) * c->stream_ns_per_token;
  return t > deliver ? t : deliver;
}

/* llm_step of a pure-decode iteration of n requests reading ctx tokens (no prefill: the
 * same operations without the terms that are exactly zero, so the same value), on a
 * running engine (rates above 0: llm_engine_run returns before when stalled). */
static inline double llm_step_decode(const llm_consts *k, const llm_config *c, double n,
                                     double ctx) {
  double weights = k->moe ? llm_model_params_touched(c->model, n) * c->bytes_per_param
                          : k->weight_bytes;
  double bytes = weights + k->kv_per_token * ctx;
  double flops = n * k->flops_tok + k->attn_per_ctx * ctx;
  double t = llm_smooth_max(bytes * k->inv_bw, flops * k->inv_flops) + c->step_overhead_ns;
  double deliver = n * c->stream_ns_per_token;
  return t > deliver ? t : deliver;
}

double llm_engine_step_ns(const llm_config *c, double tokens, double prefill_tokens,
                          double ctx_read, double attn_ctx) {
  llm_g_init();
  llm_consts k;
  llm_consts_init(&k, c);
  return llm_step(&k, c, tokens, prefill_tokens, ctx_read, attn_ctx);
}

/* ---- the decode heap (slots keyed by g0 + output, the keys held in the heap) ----
 * A slot's place in the heap is not kept: the completions leave from the root, and the rare
 * removal from elsewhere (a preemption, a stop) finds it by a scan. */

static inline int64_t llm_key(const llm_engine *e, int32_t s) {
  return e->seq[s].g0 + (int64_t)e->seq[s].output;
}

static inline void llm_heap_set(llm_engine *e, guint32 i, llm_hent h) { e->heap[i] = h; }

static guint32 llm_heap_find(const llm_engine *e, int32_t s) {
  for (guint32 i = 0; i < e->n_decode; i++)
    if (e->heap[i].slot == s) return i;
  g_assert_not_reached();
}

static void llm_heap_up(llm_engine *e, guint32 i) {
  llm_hent h = e->heap[i];
  while (i > 0) {
    guint32 p = (i - 1) / 2;
    if (e->heap[p].key <= h.key) break;
    llm_heap_set(e, i, e->heap[p]);
    i = p;
  }
  llm_heap_set(e, i, h);
}

/* Returns where the entry at i ends. */
static guint32 llm_heap_down(llm_engine *e, guint32 i) {
  guint32 n = e->n_decode;
  llm_hent h = e->heap[i];
  for (;;) {
    guint32 l = 2 * i + 1;
    if (l >= n) break;
    guint32 r = l + 1, m = r < n && e->heap[r].key < e->heap[l].key ? r : l;
    if (e->heap[m].key >= h.key) break;
    llm_heap_set(e, i, e->heap[m]);
    i = m;
  }
  llm_heap_set(e, i, h);
  return i;
}

/* Takes the root out, the last entry (at n_decode, already counted out) taking its place:
 * the hole goes down along the smaller children to a leaf and that entry climbs back from
 * there over the keys >= its own (Floyd). It ends where llm_heap_down would put it, ties
 * included (llm_heap_down stops above the first key >= its own on the same path, whose keys
 * only grow), with about one compare a level instead of two and no early exit. */
static void llm_heap_pop_root(llm_engine *e) {
  guint32 n = e->n_decode, i = 0, l = 1;
  llm_hent h = e->heap[n];
  while (l + 1 < n) {
    guint32 m = l + (e->heap[l + 1].key < e->heap[l].key);
    llm_heap_set(e, i, e->heap[m]);
    i = m;
    l = 2 * i + 1;
  }
  if (l < n) {
    llm_heap_set(e, i, e->heap[l]);
    i = l;
  }
  while (i > 0) {
    guint32 p = (i - 1) / 2;
    if (e->heap[p].key < h.key) break;
    llm_heap_set(e, i, e->heap[p]);
    i = p;
  }
  llm_heap_set(e, i, h);
}

/* ---- slots, the running list, blocks ---- */

static inline guint32 llm_mod(const llm_engine *e, int64_t v) {
  int64_t b = e->c.block_size;
  if (!(b & (b - 1))) return (guint32)(v & (b - 1)); /* a power of two (16): a mask */
  int64_t r = v % b;
  return (guint32)(r < 0 ? r + b : r);
}

/* a / block_size and a mod block_size for a >= 0: a shift and a mask when the block size is
 * a power of two (vLLM's 16), a division otherwise */
static inline int64_t llm_bdiv(const llm_engine *e, int64_t a) {
  return e->bs_shift >= 0 ? a >> e->bs_shift : a / (int64_t)e->c.block_size;
}

/* Blocks that hold a tokens. */
static inline int64_t llm_blocks(const llm_engine *e, int64_t a) {
  return a <= 0 ? 0 : llm_bdiv(e, a + (int64_t)e->c.block_size - 1);
}

static int64_t llm_decode_ctx(const llm_engine *e, int32_t s) {
  const llm_seq *q = &e->seq[s];
  return (int64_t)q->prompt + (e->G - q->g0) - 1;
}

static void llm_list_unlink(llm_engine *e, int32_t s) {
  llm_seq *q = &e->seq[s];
  if (q->prev >= 0) e->seq[q->prev].next = q->next;
  else e->head = q->next;
  if (q->next >= 0) e->seq[q->next].prev = q->prev;
  else e->tail = q->prev;
  q->state = SEQ_FREE;
  e->free_stack[e->n_free++] = s;
  e->n_running--;
}

static void llm_decode_add(llm_engine *e, int32_t s, guint32 generated) {
  llm_seq *q = &e->seq[s];
  q->state = SEQ_DECODE;
  q->g0 = e->G - (int64_t)generated;
  e->ctx_base += (double)q->prompt - (double)q->g0 - 1.0;
  guint32 key = llm_mod(e, (int64_t)q->prompt - q->g0 - 1);
  e->by_key[key]++;
  if (e->packed) e->by_key16[key >> 2] += (guint64)1 << (16 * (key & 3));
  guint32 i = e->n_decode++;
  llm_heap_set(e, i, (llm_hent){.key = llm_key(e, s), .slot = s});
  llm_heap_up(e, i);
}

/* Takes the decoding request at heap place i out (finished or preempted); frees its
 * blocks. */
static void llm_decode_remove_at(llm_engine *e, int32_t s, guint32 i) {
  llm_seq *q = &e->seq[s];
  e->free_blocks += llm_blocks(e, llm_decode_ctx(e, s));
  e->ctx_base -= (double)q->prompt - (double)q->g0 - 1.0;
  guint32 key = llm_mod(e, (int64_t)q->prompt - q->g0 - 1);
  e->by_key[key]--;
  if (e->packed) e->by_key16[key >> 2] -= (guint64)1 << (16 * (key & 3));
  guint32 last = --e->n_decode;
  if (i == 0 && last) {
    llm_heap_pop_root(e);
  } else if (i != last) {
    llm_heap_set(e, i, e->heap[last]);
    /* moved down, it sits below a smaller key: only one left in place may go up */
    if (llm_heap_down(e, i) == i) llm_heap_up(e, i);
  }
}

static void llm_decode_remove(llm_engine *e, int32_t s) {
  llm_decode_remove_at(e, s, llm_heap_find(e, s));
}

static void llm_pre_remove(llm_engine *e, int32_t s) {
  for (guint32 i = 0; i < e->n_pre; i++)
    if (e->pre[i] == s) {
      memmove(e->pre + i, e->pre + i + 1, (e->n_pre - i - 1) * sizeof *e->pre);
      e->n_pre--;
      return;
    }
  g_assert_not_reached();
}

static void llm_wait_grow(llm_engine *e) {
  guint32 cap = e->w_cap ? e->w_cap * 2 : 64;
  llm_wait *n = g_new(llm_wait, cap);
  for (guint32 i = 0; i < e->w_len; i++) n[i] = e->wq[(e->w_head + i) & (e->w_cap - 1)];
  g_free(e->wq);
  e->wq = n;
  e->w_cap = cap;
  e->w_head = 0;
}

/* Preempts the latest admitted running request: its blocks are freed and it waits at the
 * front of the queue to recompute its prompt and the tokens it had generated. */
static void llm_preempt_tail(llm_engine *e) {
  int32_t s = e->tail;
  g_assert(s >= 0);
  llm_seq *q = &e->seq[s];
  llm_wait w = {.arrival = q->arrival, .first = q->first, .ready = -INFINITY,
                .prompt = q->prompt, .output = q->output, .gen_before = q->gen_before,
                .sent = TRUE};
  if (q->state == SEQ_DECODE) {
    w.gen_before = (guint32)(e->G - q->g0);
    llm_decode_remove(e, s);
  } else {
    e->free_blocks += q->blocks;
    llm_pre_remove(e, s);
  }
  llm_list_unlink(e, s);
  if (e->w_len == e->w_cap) llm_wait_grow(e);
  e->w_head = (e->w_head + e->w_cap - 1) & (e->w_cap - 1);
  e->wq[e->w_head] = w;
  e->w_len++;
  if (e->fe && e->c.closed_loop) e->n_sent++; /* its client still waits for it */
  e->preemptions++;
}

/* ---- public: life cycle ---- */

llm_engine *llm_engine_new(const llm_config *c, double now_ns) {
  g_assert(c->model && c->max_num_seqs >= 1 && c->block_size >= 1);
  llm_g_init();
  llm_engine *e = g_new0(llm_engine, 1);
  e->c = *c;
  e->m = c->model;
  e->clock = now_ns;
  guint32 n = c->max_num_seqs;
  e->seq = g_new0(llm_seq, n);
  e->free_stack = g_new(int32_t, n);
  for (guint32 i = 0; i < n; i++) e->free_stack[i] = (int32_t)(n - 1 - i);
  e->n_free = n;
  e->head = e->tail = -1;
  e->heap = g_new(llm_hent, n);
  e->pre = g_new(int32_t, n);
  e->by_key = g_new0(guint32, c->block_size);
  e->packed = c->block_size == LLM_PACKED_BS && c->max_num_seqs < 65536u;
  e->bs_shift = -1;
  if (!(c->block_size & (c->block_size - 1)))
    for (e->bs_shift = 0; (1u << e->bs_shift) < c->block_size; e->bs_shift++) {}
  e->free_blocks = c->kv_blocks;
  e->fe = c->frontend_ns > 0;
  e->fe_free = -INFINITY;
  llm_consts_init(&e->k, c);
  return e;
}

void llm_engine_free(llm_engine *e) {
  if (!e) return;
  g_free(e->seq);
  g_free(e->free_stack);
  g_free(e->heap);
  g_free(e->pre);
  g_free(e->by_key);
  g_free(e->wq);
  g_free(e);
}

void llm_engine_set_rates(llm_engine *e, double bw, double flops) {
  e->c.bw_bytes_per_ns = bw;
  e->c.flops_per_ns = flops;
  e->k.inv_bw = 1.0 / bw;
  e->k.inv_flops = 1.0 / flops;
}

/* ---- the front end ---- */

/* The request passes the serial front end from its arrival (its sending): it is ready
 * frontend_ns after the later of that and the end of the request before it there. */
static void llm_frontend(llm_engine *e, llm_wait *w) {
  double start = w->arrival > e->fe_free ? w->arrival : e->fe_free;
  w->ready = e->fe_free = start + e->c.frontend_ns;
}

/* A client of a closed loop is free at t (its request ended, or it starts): it sends the
 * first waiting request not sent yet, which counts its latencies from t. */
static void llm_send_next(llm_engine *e, double t) {
  if (e->n_sent >= e->w_len) return;
  llm_wait *w = &e->wq[(e->w_head + e->n_sent) & (e->w_cap - 1)];
  w->arrival = t;
  llm_frontend(e, w);
  e->n_sent++;
}

/* The request at the head of the queue has passed the front end by now. */
static inline gboolean llm_head_ready(const llm_engine *e) {
  return e->w_len && e->wq[e->w_head].ready <= e->clock;
}

gboolean llm_engine_submit(llm_engine *e, double arrival_ns, guint32 prompt, guint32 output) {
  prompt = MAX(prompt, 1u);
  output = MAX(output, 1u);
  /* longer than the whole KV pool (vLLM refuses a prompt over max_model_len) */
  if (e->w_len >= e->c.max_waiting ||
      llm_blocks(e, (int64_t)prompt + output) > e->c.kv_blocks) {
    e->refused++;
    return FALSE;
  }
  if (e->w_len == e->w_cap) llm_wait_grow(e);
  llm_wait *w = &e->wq[(e->w_head + e->w_len) & (e->w_cap - 1)];
  *w = (llm_wait){.arrival = arrival_ns, .first = NAN, .ready = -INFINITY, .prompt = prompt,
                  .output = output, .gen_before = 0, .sent = FALSE};
  e->w_len++;
  if (!e->fe) return TRUE;
  if (!e->c.closed_loop) {
    llm_frontend(e, w);
    return TRUE;
  }
  w->ready = INFINITY; /* its client sends it when a client is free */
  if (e->n_running + e->n_sent < e->c.max_num_seqs) llm_send_next(e, arrival_ns);
  return TRUE;
}

void llm_engine_skip(llm_engine *e, double t) {
  if (t > e->clock) e->clock = t;
}

void llm_engine_clear(llm_engine *e, void (*lost)(void *ud, double arrival_ns), void *ud) {
  while (e->tail >= 0) {
    int32_t s = e->tail;
    if (lost) lost(ud, e->seq[s].arrival);
    if (e->seq[s].state == SEQ_DECODE) llm_decode_remove(e, s);
    else {
      e->free_blocks += e->seq[s].blocks;
      llm_pre_remove(e, s);
    }
    llm_list_unlink(e, s);
  }
  for (guint32 i = 0; i < e->w_len; i++)
    if (lost) lost(ud, e->wq[(e->w_head + i) & (e->w_cap - 1)].arrival);
  e->w_len = 0;
  e->n_sent = 0;
  g_assert(e->free_blocks == e->c.kv_blocks);
}

void llm_engine_get_stats(const llm_engine *e, llm_engine_stats *o) {
  *o = (llm_engine_stats){.clock_ns = e->clock, .running = e->n_running, .waiting = e->w_len,
                          .decoding = e->n_decode, .free_blocks = e->free_blocks,
                          .steps = e->steps, .preemptions = e->preemptions,
                          .refused = e->refused};
}

/* ---- one iteration with prefill work (admissions or unfinished chunks) ---- */

/* Blocks decoding requests need over their next k steps. A request whose ctx is a
 * multiple of the block size has filled its last block: it takes one at its next step and
 * then every block_size steps. So over k = q x bs + rem steps the n requests need n x q
 * blocks plus those whose first crossing comes within rem steps. A request of residue
 * key ((ctx - G) mod bs) crosses first after d = (-(key + G)) mod bs steps, so those with
 * d = 0, 1, ... are by_key[(-G - d) mod bs]: llm_crossing_at(e, d). */
static inline guint32 llm_crossing_at(const llm_engine *e, int64_t d) {
  return e->by_key[llm_mod(e, -e->G - d)];
}

/* The decoding requests whose residue is one of b, b - 1, ..., b - rem + 1 (mod 16), for
 * 0 < rem < 16: a mask of those lanes (lo = b - rem + 1 up to b; when lo < 0 the window
 * wraps: lanes up to b and from lo + 16 on), chosen without a branch; the four words summed
 * lane by lane and the lanes added by a multiply (every sum is at most n_decode < 2^16, so
 * nothing carries). */
static guint32 llm_window16(const llm_engine *e, guint32 b, guint32 rem) {
  int32_t lo = (int32_t)b - (int32_t)rem + 1;
  const guint64 *up = llm_lanes_below[b + 1], *dn = llm_lanes_below[lo & (LLM_PACKED_BS - 1)];
  guint64 wrap = -(guint64)(lo < 0), sum = 0;
  for (int w = 0; w < 4; w++) {
    guint64 in = (up[w] & ~dn[w]) | (wrap & (up[w] | ~dn[w]));
    sum += e->by_key16[w] & in;
  }
  return (guint32)((sum * 0x0001000100010001ull) >> 48);
}

static int64_t llm_decode_blocks_needed(const llm_engine *e, int64_t k) {
  if (k <= 0 || !e->n_decode) return 0;
  int64_t q = llm_bdiv(e, k), rem = k - q * e->c.block_size, first = 0;
  if (e->packed) {
    guint32 b = (guint32)(-e->G) & (LLM_PACKED_BS - 1);
    if (rem == 1) first = e->by_key[b]; /* one step (a mixed step's decodes) */
    else if (rem) first = llm_window16(e, b, (guint32)rem);
  } else if (e->bs_shift >= 0) { /* a power of two: the residues -G - d by a mask */
    uint64_t mask = e->c.block_size - 1, base = (uint64_t)-e->G;
    for (int64_t d = 0; d < rem; d++) first += e->by_key[(base - (uint64_t)d) & mask];
  } else {
    for (int64_t d = 0; d < rem; d++) first += llm_crossing_at(e, d);
  }
  return (int64_t)e->n_decode * q + first;
}

/* Most decode steps, at most hi, whose blocks fit in the free ones. */
static int64_t llm_decode_steps_blocks(const llm_engine *e, int64_t hi) {
  int64_t bs = e->c.block_size, n = e->n_decode, f = e->free_blocks;
  if (n * llm_blocks(e, hi) <= f) return hi; /* the bound n x ceil(k / bs) fits */
  int64_t q = f / n, left = f - q * n, rem = 0, first = 0;
  /* the longest rem < bs whose first crossings (d < rem) fit in what is left */
  while (rem + 1 < bs) {
    first += llm_crossing_at(e, rem);
    if (first > left) break;
    rem++;
  }
  return MIN(hi, q * bs + rem);
}

/* Admits the waiting request at the front into a free slot as a prefill of `chunk` tokens
 * (its blocks taken); returns the slot. In a closed loop the waiting requests are the
 * clients' next ones, not yet sent: one is sent when a client's seat frees, so its latency
 * counts from here (its first admission) instead of from its queued arrival. */
static int32_t llm_admit(llm_engine *e, guint32 chunk, int64_t blocks) {
  llm_wait w = e->wq[e->w_head];
  if (e->c.closed_loop && !e->fe && !w.sent && w.arrival < e->clock) w.arrival = e->clock;
  if (e->fe && e->c.closed_loop) e->n_sent--;
  e->w_head = (e->w_head + 1) & (e->w_cap - 1);
  e->w_len--;
  int32_t s = e->free_stack[--e->n_free];
  llm_seq *q = &e->seq[s];
  *q = (llm_seq){.arrival = w.arrival, .first = w.first, .prompt = w.prompt, .output = w.output,
                 .gen_before = w.gen_before, .target = w.prompt + w.gen_before,
                 .computed = 0, .blocks = blocks, .prev = e->tail, .next = -1,
                 .state = SEQ_PREFILL};
  if (e->tail >= 0) e->seq[e->tail].next = s;
  else e->head = s;
  e->tail = s;
  e->n_running++;
  e->pre[e->n_pre++] = s;
  e->free_blocks -= blocks;
  (void)chunk;
  return s;
}

typedef struct llm_step_plan {
  double tokens, prefill_tokens, ctx_read, attn_ctx;
  gboolean decodes;        /* the decoding requests run this step */
} llm_step_plan;

/* The chunk each prefilling request computes this step, in admission order, in the
 * engine's scratch (pre order), given the token budget left; preempts when blocks run out.
 * Returns the budget left. */
static gint64 llm_plan_prefills(llm_engine *e, gint64 budget, guint32 *chunks,
                                llm_step_plan *pl) {
  for (guint32 i = 0; i < e->n_pre && budget > 0;) {
    int32_t s = e->pre[i];
    llm_seq *q = &e->seq[s];
    guint32 chunk = (guint32)MIN((gint64)(q->target - q->computed), budget);
    int64_t need = llm_blocks(e, (int64_t)q->computed + chunk) - q->blocks;
    while (need > e->free_blocks && e->tail != s) llm_preempt_tail(e);
    if (need > e->free_blocks) { /* it is the latest itself: it waits */
      llm_preempt_tail(e);
      continue;
    }
    e->free_blocks -= need;
    q->blocks += need;
    chunks[i] = chunk;
    budget -= chunk;
    pl->prefill_tokens += chunk;
    pl->ctx_read += q->computed;
    pl->attn_ctx += (double)chunk * ((double)q->computed + chunk / 2.0);
    i++;
  }
  return budget;
}

/* Admits waiting requests FCFS while the budget, max_num_seqs and free blocks allow. */
static void llm_plan_admissions(llm_engine *e, gint64 budget, guint32 *chunks,
                                llm_step_plan *pl) {
  while (llm_head_ready(e) && e->n_free && budget > 0) {
    const llm_wait *w = &e->wq[e->w_head];
    guint32 target = w->prompt + w->gen_before;
    if (!e->c.chunked_prefill && (gint64)target > budget && pl->prefill_tokens > 0) break;
    guint32 chunk = e->c.chunked_prefill ? (guint32)MIN((gint64)target, budget) : target;
    int64_t blocks = llm_blocks(e, chunk);
    if (blocks > e->free_blocks) break;
    llm_admit(e, chunk, blocks);
    chunks[e->n_pre - 1] = chunk;
    budget -= chunk;
    pl->prefill_tokens += chunk;
    pl->attn_ctx += (double)chunk * chunk / 2.0;
  }
}

/* Completions among decoding requests after G moved: every one whose count is reached. */
static void llm_finish_decodes(llm_engine *e, llm_done_fn done, void *ud) {
  while (e->n_decode && e->heap[0].key <= e->G) {
    int32_t s = e->heap[0].slot;
    llm_seq *q = &e->seq[s];
    if (done) done(ud, q->arrival, q->first, e->clock, q->output);
    llm_decode_remove_at(e, s, 0);
    llm_list_unlink(e, s);
    if (e->fe && e->c.closed_loop) llm_send_next(e, e->clock);
  }
}

/* Prefills that computed their last chunk emit their next token now and decode from here. */
static void llm_finish_prefills(llm_engine *e, const guint32 *chunks, llm_done_fn done,
                                void *ud) {
  guint32 kept = 0;
  for (guint32 i = 0; i < e->n_pre; i++) {
    int32_t s = e->pre[i];
    llm_seq *q = &e->seq[s];
    q->computed += chunks[i];
    if (q->computed < q->target) {
      e->pre[kept++] = s;
      continue;
    }
    if (isnan(q->first)) q->first = e->clock;
    guint32 generated = q->gen_before + 1;
    e->free_blocks += q->blocks; /* re-counted from ctx from now on */
    e->free_blocks -= llm_blocks(e, (int64_t)q->prompt + generated - 1);
    if (generated >= q->output) {
      if (done) done(ud, q->arrival, q->first, e->clock, q->output);
      e->free_blocks += llm_blocks(e, (int64_t)q->prompt + generated - 1);
      llm_list_unlink(e, s);
      if (e->fe && e->c.closed_loop) llm_send_next(e, e->clock);
      continue;
    }
    llm_decode_add(e, s, generated);
  }
  e->n_pre = kept;
}

/* One iteration that has prefill work. Returns its duration (0 when nothing could run). */
static double llm_mixed_step(llm_engine *e, llm_done_fn done, void *ud, guint32 *chunks) {
  llm_step_plan pl = {0};
  gint64 budget = e->c.max_num_batched_tokens;
  /* decodes first; without chunked prefill a step with admissions runs no decodes */
  gboolean prefill_only = !e->c.chunked_prefill && e->n_pre == 0 && llm_head_ready(e) &&
                          e->n_free;
  if (!prefill_only && e->n_decode) {
    int64_t need = llm_decode_blocks_needed(e, 1);
    while (need > e->free_blocks && e->n_running) {
      llm_preempt_tail(e);
      need = llm_decode_blocks_needed(e, 1);
    }
    e->free_blocks -= need;
    pl.decodes = e->n_decode > 0;
    budget -= e->n_decode;
    pl.ctx_read += e->ctx_base + (double)e->n_decode * (double)e->G;
    pl.attn_ctx += pl.ctx_read;
  }
  budget = llm_plan_prefills(e, MAX(budget, 0), chunks, &pl);
  if (e->c.chunked_prefill || !pl.decodes) llm_plan_admissions(e, budget, chunks, &pl);
  pl.tokens = (pl.decodes ? e->n_decode : 0) + pl.prefill_tokens;
  if (pl.tokens <= 0) return 0;
  double dt = llm_step(&e->k, &e->c, pl.tokens, pl.prefill_tokens, pl.ctx_read, pl.attn_ctx);
  e->clock += dt;
  e->steps++;
  if (pl.decodes) {
    e->G++;
    llm_finish_decodes(e, done, ud);
  }
  llm_finish_prefills(e, chunks, done, ud);
  return dt;
}

/* ---- pure decode stretches in closed form ---- */

/* A pure-decode stretch of the n decoding requests: the KV read grows by n tokens a step,
 * so the step time is t0 + t1 j at step j (t1 the secant over the stretch's longest
 * possible length; exact where the step is bandwidth-bound, linear in the context) and k
 * steps take k t0 + t1 k (k - 1) / 2. */
typedef struct llm_span { double t0, t1; } llm_span;

static llm_span llm_span_of(const llm_engine *e, int64_t hi) {
  double n = e->n_decode, ctx = e->ctx_base + n * (double)e->G;
  llm_span s = {.t0 = llm_step_decode(&e->k, &e->c, n, ctx), .t1 = 0};
  if (hi > 1) {
    double c1 = ctx + n * (double)(hi - 1);
    s.t1 = (llm_step_decode(&e->k, &e->c, n, c1) - s.t0) / (double)(hi - 1);
  }
  return s;
}

/* Largest slope term e of llm_span_steps' estimate (its error, about e^3 k0 steps, is then
 * below a step for stretches of up to ~1,000 steps; the loops correct any error) */
static const double LLM_SPAN_EPS_MAX = 0.1;

static double llm_span_time(llm_span s, int64_t k) {
  double kk = (double)k;
  return kk * s.t0 + s.t1 * kk * (kk - 1.0) / 2.0;
}

/* Fewest steps (at most hi) that reach `dt`: the root of t1/2 k^2 + (t0 - t1/2) k = dt,
 * rounded up, then corrected by the two loops to the smallest k with
 * llm_span_time(k) >= dt. With t0 > 0 and t1 >= 0 that time is nondecreasing in k even in
 * rounded arithmetic (each product and the sum round monotonically), so the loops reach the
 * same k from any start: the root then comes from k0 = dt / t0 and a second-order correction
 * for the slope, e = t1 (k0 - 1) / (2 t0), k = k0 (1 - e + e^2), without the square root
 * and the division that followed it on the stretch's critical path. Otherwise (a negative
 * slope, or a slope too steep for the correction) the exact root is the start. */
static int64_t llm_span_steps(llm_span s, double dt, int64_t hi) {
  double inv0 = 1.0 / s.t0, k0 = dt * inv0, ep = s.t1 * (k0 - 1.0) * 0.5 * inv0, k;
  if (llm_span_time(s, hi) < dt) return hi;
  if (s.t0 > 0 && s.t1 >= 0 && ep < LLM_SPAN_EPS_MAX) {
    k = k0 * (1.0 - ep + ep * ep);
  } else {
    double a = s.t1 / 2.0, b = s.t0 - s.t1 / 2.0;
    k = a > 1e-12 * b ? (-b + sqrt(b * b + 4.0 * a * dt)) / (2.0 * a) : dt / b;
  }
  /* (int64_t)ceil(k) clamped to [1, hi], without the call: k >= 0 here */
  int64_t ki = k >= (double)hi ? hi : 1; /* NaN: 1, as the conversion of ceil's NaN gave */
  if (k < (double)hi) {
    ki = (int64_t)k;
    ki += (double)ki < k;
    ki = MAX(ki, 1);
  }
  while (ki > 1 && llm_span_time(s, ki - 1) >= dt) ki--; /* rounding */
  while (ki < hi && llm_span_time(s, ki) < dt) ki++;
  return ki;
}

/* Runs decode steps until the next completion, block shortage or until; returns the time
 * it took (0 when a single step must go through llm_mixed_step instead). */
static double llm_decode_stretch(llm_engine *e, double until, llm_done_fn done, void *ud) {
  int64_t k = e->heap[0].key - e->G; /* to the next completion */
  g_assert(k >= 1);
  k = llm_decode_steps_blocks(e, k);
  if (k == 0) return 0; /* a preemption is due: one step at a time */
  llm_span sp = llm_span_of(e, k);
  k = llm_span_steps(sp, until - e->clock, k);
  double dt = llm_span_time(sp, k);
  e->free_blocks -= llm_decode_blocks_needed(e, k);
  e->clock += dt;
  e->G += k;
  e->steps += (guint64)k;
  llm_finish_decodes(e, done, ud);
  return dt;
}

static gboolean llm_can_admit(const llm_engine *e) {
  if (!llm_head_ready(e) || !e->n_free) return FALSE;
  const llm_wait *w = &e->wq[e->w_head];
  guint32 chunk = w->prompt + w->gen_before;
  if (e->c.chunked_prefill) chunk = MIN(chunk, e->c.max_num_batched_tokens);
  return llm_blocks(e, chunk) <= e->free_blocks;
}

double llm_engine_run(llm_engine *e, double until, llm_done_fn done, void *ud) {
  double busy = 0, start = e->clock;
  if (!(e->c.bw_bytes_per_ns > 0) || !(e->c.flops_per_ns > 0)) { /* stalled */
    if (until > e->clock) e->clock = until;
    return 0;
  }
  guint32 *chunks = g_newa(guint32, e->c.max_num_seqs);
  while (e->clock < until) {
    double dt = 0;
    /* a request still in the front end joins at the end of the step running when it is
     * ready (vLLM's engine core takes new requests between steps) */
    double ready = e->w_len ? e->wq[e->w_head].ready : INFINITY;
    double lim = ready > e->clock && ready < until ? ready : until;
    if (e->n_pre == 0 && e->n_decode && !llm_can_admit(e))
      dt = llm_decode_stretch(e, lim, done, ud);
    if (dt == 0 && (e->n_running || e->w_len)) dt = llm_mixed_step(e, done, ud, chunks);
    if (dt == 0 && lim < until) { /* nothing runs until the front end passes one */
      e->clock = lim;
      continue;
    }
    if (dt == 0) { /* nothing can run: idle to until */
      e->clock = until;
      break;
    }
    busy += dt;
  }
  (void)start;
  return busy;
}
