/* cluster.c: pools of nodes x GPUs at run time. Owns the slot and memory bookkeeping of
 * residents, the free-slot buckets that make pack/spread placement cheap on ten-thousand-
 * GPU pools, the pool queue order, and the time integrals behind utilisation and the time
 * series. It does not decide speeds (the strategy does) nor handle events (sim.c does). */
#include "cluster.h"
#include <string.h>

/* ---- free-slot buckets: bitset of nodes per free-slot count ---- */

static void bucket_set(pool_state *p, guint32 k, guint32 node, gboolean on) {
  guint32 *bits = p->bucket_bits[k];
  if (on) bits[node / 32] |= 1u << (node % 32);
  else bits[node / 32] &= ~(1u << (node % 32));
}

/* First node (lowest index) with exactly k free slots, or -1. */
static int bucket_first(const pool_state *p, guint32 k, guint32 from_node) {
  const guint32 *bits = p->bucket_bits[k];
  for (guint32 w = from_node / 32; w < p->bucket_words; w++) {
    guint32 word = bits[w];
    if (w == from_node / 32) word &= ~0u << (from_node % 32);
    if (word) return (int)(w * 32 + (guint32)__builtin_ctz(word));
  }
  return -1;
}

static void node_free_change(pool_state *p, guint32 node, int delta) {
  guint32 before = p->node_free[node];
  guint32 after = (guint32)((int)before + delta);
  bucket_set(p, before, node, FALSE);
  bucket_set(p, after, node, TRUE);
  p->node_free[node] = after;
  p->free_slots = (guint32)((int)p->free_slots + delta);
}

static gint queue_cmp(gconstpointer a, gconstpointer b, gpointer ud) {
  const job_run *x = a, *y = b;
  if (x->spec->priority != y->spec->priority) return x->spec->priority > y->spec->priority ? -1 : 1;
  if (x->submit != y->submit) return x->submit < y->submit ? -1 : 1;
  return x->index < y->index ? -1 : (x->index > y->index);
}

void cluster_pool_init(pool_state *p, guint32 index, const pool_spec *spec, sim_time interval_ns) {
  memset(p, 0, sizeof *p);
  p->index = index;
  p->spec = spec;
  p->ops = share_for(spec->strategy);
  p->n_nodes = spec->nodes;
  p->gpus_per_node = spec->gpus_per_node;
  p->n_gpus = spec->nodes * spec->gpus_per_node;
  p->slots_per_gpu = p->ops->slots_per_gpu(spec);
  g_assert(p->slots_per_gpu >= 1);
  p->gpus = g_new0(gpu_state, p->n_gpus);
  for (guint32 i = 0; i < p->n_gpus; i++) {
    gpu_state *g = &p->gpus[i];
    g->pool = p;
    g->index = i;
    g->node = i / p->gpus_per_node;
    g->local = i % p->gpus_per_node;
    g->residents = g_ptr_array_new();
  }
  guint32 slots_per_node = p->slots_per_gpu * p->gpus_per_node;
  p->bucket_words = (p->n_nodes + 31) / 32;
  p->bucket_bits = g_new0(guint32 *, slots_per_node + 1);
  for (guint32 k = 0; k <= slots_per_node; k++) p->bucket_bits[k] = g_new0(guint32, p->bucket_words);
  p->node_free = g_new0(guint32, p->n_nodes);
  for (guint32 n = 0; n < p->n_nodes; n++) {
    p->node_free[n] = slots_per_node;
    bucket_set(p, slots_per_node, n, TRUE);
  }
  p->free_slots = slots_per_node * p->n_nodes;
  p->queue_by_gpus = g_new0(GSequence *, p->n_gpus + 2);
  p->queued_by_gpus = g_new0(guint32, p->n_gpus + 2);
  p->queue_sizes = g_array_new(FALSE, FALSE, sizeof(guint32));
  p->interval_ns = interval_ns > 0 ? interval_ns : 60 * SIM_NS_PER_S;
  p->ts = g_array_new(FALSE, FALSE, sizeof(ts_row));
}

void cluster_pool_clear(pool_state *p) {
  if (!p->gpus) return;
  for (guint32 i = 0; i < p->n_gpus; i++) g_ptr_array_unref(p->gpus[i].residents);
  g_free(p->gpus);
  guint32 slots_per_node = p->slots_per_gpu * p->gpus_per_node;
  for (guint32 k = 0; k <= slots_per_node; k++) g_free(p->bucket_bits[k]);
  g_free(p->bucket_bits);
  g_free(p->node_free);
  for (guint32 k = 0; k < p->n_gpus + 2; k++)
    if (p->queue_by_gpus[k]) g_sequence_free(p->queue_by_gpus[k]);
  g_free(p->queue_by_gpus);
  g_free(p->queued_by_gpus);
  g_array_unref(p->queue_sizes);
  if (p->ts) g_array_unref(p->ts);
  memset(p, 0, sizeof *p);
}

/* ---- placement ---- */

/* Tries to take up to `want` workers on node n; appends to gpus_out/slots_out from *got. */
static void take_on_node(const pool_state *p, const job_run *j, guint32 n, guint32 want,
                         gpu_state **gpus_out, guint32 *slots_out, guint32 *got) {
  guint32 base = n * p->gpus_per_node;
  guint32 need_end = *got + want;
  /* A GPU may take several workers only if the strategy accepts it (taken list). */
  for (guint32 l = 0; l < p->gpus_per_node && *got < need_end; l++) {
    gpu_state *g = &p->gpus[base + l];
    guint32 slot;
    while (*got < need_end &&
           p->ops->gpu_accepts(p, g, j, (gpu_state *const *)gpus_out, *got, &slot)) {
      gpus_out[*got] = g;
      slots_out[*got] = slot;
      (*got)++;
      if (p->slots_per_gpu == 1) break;
    }
  }
}

gboolean cluster_find_placement(const pool_state *p, const job_run *j, gpu_state **gpus_out,
                                guint32 *slots_out) {
  guint32 need = j->spec->gpus;
  if (need > p->free_slots) return FALSE;
  guint32 slots_per_node = p->slots_per_gpu * p->gpus_per_node;
  gboolean spread = p->spec->placement == PLACEMENT_SPREAD;
  guint32 got = 0;
  /* One node if possible: pack = best fit (fewest free slots that can hold the job),
   * spread = most free slots; ties go to the lowest node index. */
  if (need <= slots_per_node) {
    for (guint32 step = 0; step <= slots_per_node; step++) {
      guint32 k = spread ? slots_per_node - step : step;
      if (k < need) { if (spread) break; else continue; }
      for (int n = bucket_first(p, k, 0); n >= 0; n = bucket_first(p, k, (guint32)n + 1)) {
        got = 0;
        take_on_node(p, j, (guint32)n, need, gpus_out, slots_out, &got);
        if (got == need) return TRUE;
      }
    }
  }
  /* Several nodes (a gang larger than a node, or fragmentation): fill from the nodes with
   * the most free slots first, so the gang touches as few nodes as possible. */
  got = 0;
  for (guint32 k = slots_per_node; k >= 1 && got < need; k--) {
    for (int n = bucket_first(p, k, 0); n >= 0 && got < need; n = bucket_first(p, k, (guint32)n + 1))
      take_on_node(p, j, (guint32)n, need - got, gpus_out, slots_out, &got);
  }
  return got == need;
}

void cluster_attach(pool_state *p, task *t, gpu_state *g, guint32 slot) {
  t->gpu = g;
  t->slot = slot;
  g_ptr_array_add(g->residents, t);
  g->mem_used += t->mem_bytes;
  p->sum_mem += t->mem_bytes;
  if (g->mem_used > g->peak_mem) g->peak_mem = g->mem_used;
  g->slots_used++;
  g->jobs_hosted++;
  node_free_change(p, g->node, -1);
}

void cluster_detach(pool_state *p, task *t) {
  gpu_state *g = t->gpu;
  gboolean removed = g_ptr_array_remove(g->residents, t); /* keeps arrival order */
  g_assert(removed);
  g->mem_used -= t->mem_bytes;
  p->sum_mem -= t->mem_bytes;
  g->slots_used--;
  node_free_change(p, g->node, +1);
  t->gpu = NULL;
}

void cluster_task_set_mem(task *t, int64_t bytes) {
  gpu_state *g = t->gpu;
  int64_t delta = bytes - t->mem_bytes;
  t->mem_bytes = bytes;
  g->mem_used += delta;
  g->pool->sum_mem += delta;
  if (g->mem_used > g->peak_mem) g->peak_mem = g->mem_used;
}

/* ---- gauges and time series ---- */

void cluster_pool_integrate(pool_state *p, sim_time now) {
  while (p->t_last < now) {
    sim_time bucket_end = p->bucket_start + p->interval_ns;
    sim_time upto = now < bucket_end ? now : bucket_end;
    double dt = (double)(upto - p->t_last);
    p->acc.alloc += p->sum_alloc * dt;
    p->acc.busy += p->sum_busy * dt;
    p->acc.sm += p->sum_sm * dt;
    p->acc.mem += (double)p->sum_mem * dt;
    p->acc.queued += (double)p->n_queued * dt;
    p->acc.running += (double)p->n_running * dt;
    p->t_last = upto;
    if (upto == bucket_end) {
      cluster_pool_finish(p, bucket_end);
      p->bucket_start = bucket_end;
    }
  }
}

/* Emits the row of the current bucket ending at `end` and resets the accumulator. */
void cluster_pool_finish(pool_state *p, sim_time end) {
  if (end > p->t_last) cluster_pool_integrate(p, end);
  if (end <= p->bucket_start) return;
  double span = (double)(end - p->bucket_start);
  double n = p->n_gpus ? (double)p->n_gpus : 1.0;
  ts_row r = {
      .pool = p->index,
      .t_start_s = util_ns_to_seconds(p->bucket_start),
      .t_end_s = util_ns_to_seconds(end),
      .allocated = p->acc.alloc / span / n,
      .busy = p->acc.busy / span / n,
      .sm_active = p->acc.sm / span / n,
      .mem_used_gb = p->acc.mem / span / 1e9,
      .queued = p->acc.queued / span,
      .running = p->acc.running / span,
  };
  g_array_append_val(p->ts, r);
  memset(&p->acc, 0, sizeof p->acc);
  p->bucket_start = end;
}

void cluster_gpu_integrate(gpu_state *g, sim_time now) {
  cluster_pool_integrate(g->pool, now);
  double dt = (double)(now - g->t_last);
  if (dt > 0) {
    g->int_alloc += g->g_alloc * dt;
    g->int_busy += g->g_busy * dt;
    g->int_sm += g->g_sm * dt;
    g->int_mem += (double)g->mem_used / 1e9 * dt;
  }
  g->t_last = now;
}

void cluster_gpu_update_speeds(gpu_state *g) {
  pool_state *p = g->pool;
  if (g->residents->len) p->ops->update_speeds(p, g);
}

void cluster_gpu_update_gauges(gpu_state *g) {
  pool_state *p = g->pool;
  double busy = 0, sm = 0;
  if (g->residents->len) p->ops->gauges(p, g, &busy, &sm);
  double alloc = g->residents->len ? 1.0 : 0.0;
  g_assert(busy >= 0 && busy <= 1 + 1e-9 && sm >= 0 && sm <= 1 + 1e-9);
  p->sum_alloc += alloc - g->g_alloc;
  p->sum_busy += busy - g->g_busy;
  p->sum_sm += sm - g->g_sm;
  g->g_alloc = alloc;
  g->g_busy = busy;
  g->g_sm = sm;
}

/* ---- queue ---- */

gboolean cluster_queue_before(const job_run *a, const job_run *b) {
  return queue_cmp(a, b, NULL) < 0;
}

guint32 cluster_queue_class(const pool_state *p, guint32 gpus) { return MIN(gpus, p->n_gpus + 1); }

void cluster_queue_push(pool_state *p, job_run *j) {
  guint32 k = cluster_queue_class(p, j->spec->gpus);
  if (!p->queue_by_gpus[k]) p->queue_by_gpus[k] = g_sequence_new(NULL);
  j->queue_iter = g_sequence_insert_sorted(p->queue_by_gpus[k], j, queue_cmp, NULL);
  if (p->queued_by_gpus[k]++ == 0) {
    guint pos = 0;
    while (pos < p->queue_sizes->len && g_array_index(p->queue_sizes, guint32, pos) < k) pos++;
    g_array_insert_val(p->queue_sizes, pos, k);
  }
  p->n_queued++;
}

void cluster_queue_remove(pool_state *p, job_run *j) {
  g_sequence_remove(j->queue_iter);
  j->queue_iter = NULL;
  guint32 k = cluster_queue_class(p, j->spec->gpus);
  if (--p->queued_by_gpus[k] == 0) {
    for (guint pos = 0; pos < p->queue_sizes->len; pos++)
      if (g_array_index(p->queue_sizes, guint32, pos) == k) {
        g_array_remove_index(p->queue_sizes, pos);
        break;
      }
  }
  p->n_queued--;
}

guint32 cluster_queue_min_gpus(const pool_state *p) {
  return p->queue_sizes->len ? g_array_index(p->queue_sizes, guint32, 0) : 0;
}
