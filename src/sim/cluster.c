/* cluster.c: pools of nodes x GPUs at run time. Owns the slot and memory bookkeeping of
 * residents, host CPU and memory per node, the free-slot buckets that make pack/spread
 * placement cheap on ten-thousand-GPU pools, the policy view for the other placement
 * policies (their choice is place-*.c's) and the pool queue order, and reports every change
 * of residents, memory, gauges and fragmentation to the metrics layer (which keeps the
 * integrals and series). It does not decide speeds (the strategy does) nor handle events
 * (sim.c does). */
#include "cluster.h"
#include "rng.h"
#include <math.h>
#include <string.h>

G_STATIC_ASSERT(PLACE_MILLI == METRICS_MILLI);
/* a GPU record's hot part (cluster.h): the view's first fields, the short residents list
 * and its gauges' integrals on its first four cache lines (the exact integrals are
 * 128-bit); the views are the records' first members (task_run_of, gpu_run_of) */
G_STATIC_ASSERT(offsetof(gpu_run, m) + offsetof(metrics_gpu, peak_mem) < 256);
G_STATIC_ASSERT(offsetof(gpu_run, view) == 0 && offsetof(task_run, view) == 0);

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

/* ---- placement index of share-packed pools: min-tree of claimed shares ---- */

/* Free slots g adds to its node's count: capacity less residents, never below 0. */
static guint32 gpu_free(const gpu_state *g) {
  return g->slots_used < g->slots_cap ? g->slots_cap - g->slots_used : 0;
}

/* Re-sums g's claimed share over its residents in arrival order (the sum gpu_accepts
 * compares, exactly) and updates g's leaf and the minima above it: O(residents + log GPUs). */
static void share_index_update(pool_state *p, gpu_state *g) {
  if (!p->share_tree) return;
  double used = 0;
  for (guint i = 0; i < g->n_residents; i++)
    used += p->ops->worker_share(((const task *)g->residents[i])->job->spec);
  g->share_used = used;
  guint32 k = p->share_leaves + g->index;
  p->share_tree[k] = gpu_free(g) ? used : INFINITY;
  for (k /= 2; k >= 1; k /= 2) p->share_tree[k] = MIN(p->share_tree[2 * k], p->share_tree[2 * k + 1]);
}

static void share_index_init(pool_state *p) {
  if (!p->ops->worker_share) return;
  p->share_leaves = 1;
  while (p->share_leaves < p->n_gpus) p->share_leaves *= 2;
  p->share_tree = g_new(double, 2 * p->share_leaves);
  for (guint32 k = 0; k < 2 * p->share_leaves; k++) p->share_tree[k] = INFINITY;
  for (guint32 i = 0; i < p->n_gpus; i++) share_index_update(p, cluster_gpu(p, i));
}

/* GPUs under tree node k that take `copies` more workers of share f, counted up to cap. */
static guint32 share_index_count(const pool_state *p, guint32 k, double f, guint32 copies,
                                 guint32 cap) {
  if (!(p->share_tree[k] + (double)copies * f <= 1.0 + SHARE_EPS)) return 0;
  if (k >= p->share_leaves) return 1;
  guint32 c = share_index_count(p, 2 * k, f, copies, cap);
  if (c < cap) c += share_index_count(p, 2 * k + 1, f, copies, cap - c);
  return c;
}

/* FALSE only when no placement of j can exist now: fewer GPUs take one worker than j has
 * workers and none takes two (exact for one worker; a gang that passes may still fail the
 * search when the stacked shares do not add up). TRUE for pools without the index. */
static gboolean share_index_may_fit(const pool_state *p, const job_run *j) {
  if (!p->share_tree) return TRUE;
  double f = p->ops->worker_share(j->spec);
  guint32 need = j->spec->gpus;
  guint32 n = share_index_count(p, 1, f, 1, need);
  if (n >= need) return TRUE;
  return n > 0 && share_index_count(p, 1, f, 2, 1) > 0;
}

static gint queue_cmp(gconstpointer a, gconstpointer b, gpointer ud) {
  const job_run *x = a, *y = b;
  if (x->spec->priority != y->spec->priority) return x->spec->priority > y->spec->priority ? -1 : 1;
  if (x->submit != y->submit) return x->submit < y->submit ? -1 : 1;
  return x->index < y->index ? -1 : (x->index > y->index);
}

/* Node topology (first GPU, GPU count, model) and host resources from the pool's nodes or
 * node groups; GPUs learn their node and index within it. */
static void cluster_nodes_init(pool_state *p) {
  const pool_spec *spec = p->spec;
  p->node_first = g_new(guint32, MAX(1u, p->n_nodes));
  p->node_gpus = g_new(guint32, MAX(1u, p->n_nodes));
  p->node_model = g_new(const char *, MAX(1u, p->n_nodes));
  gboolean host = spec->cpu_milli > 0 || spec->memory_mib > 0;
  for (guint i = 0; spec->node_groups && i < spec->node_groups->len; i++) {
    const pool_node_group *gr = &g_array_index(spec->node_groups, pool_node_group, i);
    host = host || gr->cpu_milli > 0 || gr->memory_mib > 0;
  }
  if (host) {
    p->node_cpu_left = g_new(int64_t, MAX(1u, p->n_nodes));
    p->node_mem_left = g_new(int64_t, MAX(1u, p->n_nodes));
  }
  guint32 first = 0;
  for (guint32 n = 0; n < p->n_nodes; n++) {
    int64_t cpu, mem;
    pool_node_info(spec, n, &p->node_gpus[n], &cpu, &mem, &p->node_model[n]);
    p->node_first[n] = first;
    for (guint32 l = 0; l < p->node_gpus[n]; l++) {
      p->gpus[first + l].node = n;
      p->gpus[first + l].local = l;
    }
    first += p->node_gpus[n];
    p->max_node_gpus = MAX(p->max_node_gpus, p->node_gpus[n]);
    if (host) {
      p->node_cpu_left[n] = cpu > 0 ? cpu : INT64_MAX; /* 0: not modelled */
      p->node_mem_left[n] = mem > 0 ? mem : INT64_MAX;
    }
  }
  g_assert(first == p->n_gpus);
}

void cluster_pool_init(pool_state *p, guint32 index, const pool_spec *spec,
                       const share_ops *ops, const share_params *params, metrics *m) {
  memset(p, 0, sizeof *p);
  p->metrics = m;
  p->m = metrics_pool_get(m, index);
  p->params = params;
  p->index = index;
  p->spec = spec;
  p->ops = ops;
  p->n_nodes = spec->nodes;
  p->gpus_per_node = spec->gpus_per_node;
  p->n_gpus = (guint32)pool_gpus(spec);
  p->slots_per_gpu = p->ops->slots_per_gpu(spec);
  g_assert(p->slots_per_gpu >= 1);
  p->gpus = g_aligned_alloc0(MAX(1u, p->n_gpus), sizeof(gpu_run), G_ALIGNOF(gpu_run));
  cluster_nodes_init(p);
  metrics_pool_use_gpus(p->m, p->n_gpus, &p->gpus[0].m, sizeof(gpu_run));
  for (guint32 i = 0; i < p->n_gpus; i++) {
    p->gpus[i].m.node = p->gpus[i].node;
    p->gpus[i].m.local = p->gpus[i].local;
  }
  for (guint32 i = 0; i < p->n_gpus; i++) {
    gpu_run *g = &p->gpus[i];
    g->pool = p;
    g->index = i;
    g->residents = g->res_inline;
    g->slots_cap = p->slots_per_gpu;
  }
  guint32 slots_per_node = p->slots_per_gpu * p->gpus_per_node;
  p->bucket_words = (p->n_nodes + 31) / 32;
  p->bucket_bits = g_new0(guint32 *, slots_per_node + 1);
  for (guint32 k = 0; k <= slots_per_node; k++) p->bucket_bits[k] = g_new0(guint32, p->bucket_words);
  p->node_free = g_new0(guint32, p->n_nodes);
  for (guint32 n = 0; n < p->n_nodes; n++) {
    p->node_free[n] = p->slots_per_gpu * p->node_gpus[n];
    bucket_set(p, p->node_free[n], n, TRUE);
    p->free_slots += p->node_free[n];
  }
  p->queue_by_gpus = g_new0(GSequence *, p->n_gpus + 2);
  p->queued_by_gpus = g_new0(guint32, p->n_gpus + 2);
  p->queue_sizes = g_array_new(FALSE, FALSE, sizeof(guint32));
  share_index_init(p);
  if (place_for(spec->placement)->slot_search == PLACE_SLOTS_NONE)
    p->place = place_for(spec->placement);
  cluster_view_init(p);
  if (p->ops->init_pool) p->ops->init_pool(&p->share_view);
}

void cluster_pool_clear(pool_state *p) {
  if (!p->gpus) return;
  if (p->ops->free_pool) p->ops->free_pool(&p->share_view);
  for (guint32 i = 0; i < p->n_gpus; i++)
    if (p->gpus[i].res_cap) g_free(p->gpus[i].residents);
  metrics_pool_release_gpus(p->m);
  g_aligned_free(p->gpus);
  g_free(p->node_first);
  g_free(p->node_gpus);
  g_free(p->node_model);
  g_free(p->node_cpu_left);
  g_free(p->node_mem_left);
  g_free(p->view);
  g_free(p->view_left);
  g_free(p->view_affinity);
  g_free(p->view_frag);
  place_target_free(p->target);
  place_cache_free(p->cache);
  if (p->kind_of) g_hash_table_unref(p->kind_of);
  if (p->kinds) g_array_unref(p->kinds);
  if (p->kind_count) g_array_unref(p->kind_count);
  if (p->place_rng) gsl_rng_free(p->place_rng);
  guint32 slots_per_node = p->slots_per_gpu * p->gpus_per_node;
  for (guint32 k = 0; k <= slots_per_node; k++) g_free(p->bucket_bits[k]);
  g_free(p->bucket_bits);
  g_free(p->node_free);
  for (guint32 k = 0; k < p->n_gpus + 2; k++)
    if (p->queue_by_gpus[k]) g_sequence_free(p->queue_by_gpus[k]);
  g_free(p->queue_by_gpus);
  g_free(p->queued_by_gpus);
  g_array_unref(p->queue_sizes);
  g_free(p->share_tree);
  g_free(p->node_closed);
  g_free(p->gpu_want_cap);
  memset(p, 0, sizeof *p);
}

/* ---- placement ---- */

/* Workers of j node n can still host (CPU, memory, GPU model), counting those already taken
 * there in this attempt. */
static guint32 cluster_host_room(const pool_state *p, const job_run *j, guint32 n,
                                 gpu_state *const *taken, guint32 n_taken) {
  const job_spec *js = j->spec;
  if (js->gpu_spec && !place_model_ok(js->gpu_spec, p->node_model[n])) return 0;
  if (!p->node_cpu_left || (!js->cpu_milli && !js->memory_mib)) return G_MAXUINT32;
  guint32 here = 0;
  for (guint32 k = 0; k < n_taken; k++) here += taken[k]->node == n;
  int64_t room = G_MAXUINT32;
  if (js->cpu_milli) room = MIN(room, p->node_cpu_left[n] / js->cpu_milli);
  if (js->memory_mib) room = MIN(room, p->node_mem_left[n] / js->memory_mib);
  return room > here ? (guint32)(room - here) : 0;
}

/* Tries to take up to `want` workers on node n, at most per_gpu_max per GPU (counting
 * workers already taken in this attempt); appends to gpus_out/slots_out from *got. */
static void take_on_node(const pool_state *p, const job_run *j, guint32 n, guint32 want,
                         guint32 per_gpu_max, gpu_state **gpus_out, guint32 *slots_out,
                         guint32 *got) {
  guint32 base = p->node_first[n];
  guint32 room = cluster_host_room(p, j, n, gpus_out, *got);
  guint32 need_end = *got + MIN(want, room);
  for (guint32 l = 0; l < p->node_gpus[n] && *got < need_end; l++) {
    gpu_state *g = cluster_gpu(p, base + l);
    guint32 here = 0, slot;
    for (guint32 k = 0; k < *got; k++) here += gpus_out[k] == g;
    while (*got < need_end && here < per_gpu_max &&
           p->ops->gpu_accepts(&p->share_view, g, &j->share_view, (gpu_state *const *)gpus_out,
                               *got, &slot)) {
      gpus_out[*got] = g;
      slots_out[*got] = slot;
      (*got)++;
      here++;
    }
  }
}

/* Workers go to distinct GPUs first; only a strategy that accepts several workers of one
 * job on a GPU (time-slicing, MPS replicas) gets a second round that stacks them. */
static void take_spread_then_stacked(const pool_state *p, const job_run *j, const guint32 *nodes,
                                     guint n_nodes, guint32 need, gpu_state **gpus_out,
                                     guint32 *slots_out, guint32 *got) {
  for (guint i = 0; i < n_nodes && *got < need; i++)
    take_on_node(p, j, nodes[i], need - *got, 1, gpus_out, slots_out, got);
  /* then stack evenly: at most 2 per GPU, then 3, ... until a round adds nobody */
  for (guint32 cap = 2; cap <= p->slots_per_gpu && *got < need; cap++) {
    guint32 before = *got;
    for (guint i = 0; i < n_nodes && *got < need; i++)
      take_on_node(p, j, nodes[i], need - *got, cap, gpus_out, slots_out, got);
    if (*got == before) break;
  }
}

/* One pass of the search: per_gpu_max 1 takes distinct GPUs only; otherwise workers are
 * spread first and then stacked evenly where the strategy allows. One node if possible
 * (pack = best fit: fewest free slots that can hold the job, spread = most free slots; ties
 * to the lowest node index), else several nodes, those with the most free slots first, so
 * the gang touches as few nodes as possible. */
static gboolean find_placement_pass(const pool_state *p, const job_run *j, gboolean distinct,
                                    gpu_state **gpus_out, guint32 *slots_out) {
  guint32 need = j->spec->gpus;
  guint32 slots_per_node = p->slots_per_gpu * p->gpus_per_node;
  gboolean spread = place_for(p->spec->placement)->slot_search == PLACE_SLOTS_MOST;
  guint32 got = 0;
  if (need <= (distinct ? p->gpus_per_node : slots_per_node)) {
    for (guint32 step = 0; step <= slots_per_node; step++) {
      guint32 k = spread ? slots_per_node - step : step;
      if (k < need) { if (spread) break; else continue; }
      for (int n = bucket_first(p, k, 0); n >= 0; n = bucket_first(p, k, (guint32)n + 1)) {
        guint32 node = (guint32)n;
        got = 0;
        if (distinct) take_on_node(p, j, node, need, 1, gpus_out, slots_out, &got);
        else take_spread_then_stacked(p, j, &node, 1, need, gpus_out, slots_out, &got);
        if (got == need) return TRUE;
      }
    }
  }
  GArray *order = g_array_new(FALSE, FALSE, sizeof(guint32));
  for (guint32 k = slots_per_node; k >= 1; k--)
    for (int n = bucket_first(p, k, 0); n >= 0; n = bucket_first(p, k, (guint32)n + 1)) {
      guint32 node = (guint32)n;
      g_array_append_val(order, node);
    }
  got = 0;
  const guint32 *nodes = (const guint32 *)order->data;
  if (distinct)
    for (guint i = 0; i < order->len && got < need; i++)
      take_on_node(p, j, nodes[i], need - got, 1, gpus_out, slots_out, &got);
  else
    take_spread_then_stacked(p, j, nodes, order->len, need, gpus_out, slots_out, &got);
  g_array_unref(order);
  return got == need;
}

/* A gang's workers go to distinct GPUs whenever enough GPUs accept one (across nodes when
 * one node cannot hold them); only then are they stacked where the strategy allows. With
 * one slot per GPU (exclusive, MIG, vGPU) the second pass could find nothing new. */
gboolean cluster_find_placement(const pool_state *p, const job_run *j, gpu_state **gpus_out,
                                guint32 *slots_out) {
  guint32 need = j->spec->gpus;
  if (need > p->free_slots || !share_index_may_fit(p, j)) return FALSE;
  if (p->place && need <= p->max_node_gpus) {
    int r = cluster_policy_place(p, j, gpus_out, slots_out);
    if (r >= 0) return r;
  }
  if (need == 1 || p->slots_per_gpu == 1)
    return find_placement_pass(p, j, p->slots_per_gpu == 1, gpus_out, slots_out);
  if (find_placement_pass(p, j, TRUE, gpus_out, slots_out)) return TRUE;
  return find_placement_pass(p, j, FALSE, gpus_out, slots_out);
}

void cluster_gpu_set_capacity(pool_state *p, gpu_state *g, guint32 slots) {
  if (G_UNLIKELY(p->node_closed)) { /* the strategy's wish, kept for when the node opens */
    p->gpu_want_cap[g->index] = MIN(slots, p->slots_per_gpu);
    if (p->node_closed[g->node] & 1) slots = 0;
  }
  guint32 before = gpu_free(g);
  g->slots_cap = MIN(slots, p->slots_per_gpu);
  int delta = (int)gpu_free(g) - (int)before;
  if (delta) node_free_change(p, g->node, delta);
  share_index_update(p, g);
  if (p->view) cluster_view_node(p, g->node);
}

void cluster_gpu_set_service(pool_state *p, gpu_state *g, gpu_service service, guint32 slots,
                             sim_time now) {
  cluster_pool_integrate(p, now);
  if (g->service == GPU_DRAINING) p->n_draining--;
  if (g->service == GPU_DOWN) p->n_down--;
  g->service = service;
  if (service == GPU_DRAINING) p->n_draining++;
  if (service == GPU_DOWN) {
    p->n_down++;
    p->reconfigurations++;
  }
  cluster_gpu_set_capacity(p, g, service == GPU_UP ? slots : 0);
}

void cluster_pool_autoscaled(pool_state *p) {
  g_assert(!p->node_closed);
  p->node_closed = g_new0(guint8, MAX(1u, p->n_nodes));
  p->gpu_want_cap = g_new(guint32, MAX(1u, p->n_gpus));
  for (guint32 i = 0; i < p->n_gpus; i++) p->gpu_want_cap[i] = p->gpus[i].slots_cap;
}

void cluster_node_set(pool_state *p, guint32 n, gboolean open, gboolean provisioned,
                      sim_time now) {
  g_assert(p->node_closed && n < p->n_nodes);
  cluster_pool_integrate(p, now);
  gboolean was_prov = !(p->node_closed[n] & 2);
  if (was_prov != provisioned) {
    if (provisioned) p->n_unprov_gpus -= p->node_gpus[n];
    else p->n_unprov_gpus += p->node_gpus[n];
  }
  p->node_closed[n] = (guint8)((open ? 0 : 1) | (provisioned ? 0 : 2));
  for (guint32 l = 0; l < p->node_gpus[n]; l++) {
    guint32 i = p->node_first[n] + l;
    cluster_gpu_set_capacity(p, cluster_gpu(p, i), p->gpu_want_cap[i]);
  }
}

/* Appends t to g's residents (moving them out of line past GPU_RESIDENTS_BUF). */
static void gpu_residents_add(gpu_run *g, task *t) {
  if (g->n_residents == (g->res_cap ? g->res_cap : GPU_RESIDENTS_BUF)) {
    guint32 cap = 2 * g->n_residents;
    task **out = g->res_cap ? g_renew(task *, g->residents, cap) : g_new(task *, cap);
    if (!g->res_cap) memcpy(out, g->res_inline, sizeof g->res_inline);
    g->residents = out;
    g->res_cap = cap;
  }
  g->residents[g->n_residents++] = t;
}

/* Removes t from g's residents, keeping the arrival order of the others. */
static void gpu_residents_remove(gpu_state *g, const task *t) {
  guint32 i = 0;
  while (i < g->n_residents && g->residents[i] != t) i++;
  g_assert(i < g->n_residents);
  memmove(&g->residents[i], &g->residents[i + 1], (g->n_residents - i - 1) * sizeof(task *));
  g->n_residents--;
}

void cluster_attach(pool_state *p, task *view, gpu_state *g, guint32 slot) {
  task_run *t = task_run_of(view);
  t->gpu = g;
  t->slot = slot;
  t->mem_slowdown = 1.0;
  gpu_residents_add(gpu_run_of(g), view);
  g->mem_used += t->mem_bytes;
  metrics_gpu_mem(p->m, g->index, t->mem_bytes);
  metrics_gpu_note_peak(p->m, g->index);
  guint32 free_before = gpu_free(g);
  g->slots_used++;
  guint32 profile, gi_id;
  gboolean mig = p->ops->instance_of && p->ops->instance_of(&p->share_view, g, view, &profile, &gi_id);
  metrics_gpu_attach(p->m, g->index, t->job->index, mig ? GPU_SERIES_INST(profile, gi_id) : 0);
  t->m_part[0] = t->m_part[1] = t->m_part[2] = 0;
  t->m_part_fx[0] = t->m_part_fx[1] = t->m_part_fx[2] = 0;
  t->part_since = gpu_run_of(g)->m.t_last;
  static const int64_t unchanged[3] = {0, 0, 0};
  metrics_tenant_change(p->metrics, t->job->tenant, p->index, t->part_since, unchanged, +1);
  if (free_before) node_free_change(p, g->node, -1);
  share_index_update(p, g);
  cluster_host_change(p, view, g, -1);
}

void cluster_detach(pool_state *p, task *view) {
  task_run *t = task_run_of(view);
  gpu_state *g = t->gpu;
  sim_time now = gpu_run_of(g)->m.t_last;
  gpu_residents_remove(g, view);
  g->mem_used -= t->mem_bytes;
  metrics_gpu_mem(p->m, g->index, -t->mem_bytes);
  metrics_gpu_detach(p->m, g->index, t->job->index);
  cluster_task_charge(view, now);
  int64_t d[3] = {-t->m_part_fx[0], -t->m_part_fx[1], -t->m_part_fx[2]};
  metrics_tenant_change(p->metrics, t->job->tenant, p->index, now, d, -1);
  t->m_part[0] = t->m_part[1] = t->m_part[2] = 0;
  t->m_part_fx[0] = t->m_part_fx[1] = t->m_part_fx[2] = 0;
  guint32 free_before = gpu_free(g);
  g->slots_used--;
  if (gpu_free(g) != free_before) node_free_change(p, g->node, +1);
  share_index_update(p, g);
  t->gpu = NULL;
  t->mem_slowdown = 1.0;
  cluster_host_change(p, view, g, +1);
}

void cluster_task_set_mem(task *t, int64_t bytes) {
  gpu_state *g = t->gpu;
  int64_t delta = bytes - t->mem_bytes;
  t->mem_bytes = bytes;
  g->mem_used += delta;
  metrics_gpu_mem(g->pool->m, g->index, delta);
  metrics_gpu_note_peak(g->pool->m, g->index);
}

void cluster_gpu_note_mem(gpu_state *g) { metrics_gpu_note_peak(g->pool->m, g->index); }

/* ---- gauges (kept by metrics.c) ---- */

void cluster_pool_integrate(pool_state *p, sim_time now) {
  metrics_pool *m = p->m;
  if (m->t_last >= now) return; /* there already (metrics_pool_integrate's no-op) */
  /* the counts in force since the last integration (read by the integration only) */
  m->queued = p->n_queued;
  m->running = p->n_running;
  m->draining = p->n_draining;
  m->down = p->n_down;
  m->unprovisioned = p->n_unprov_gpus;
  m->frag_on = p->target != NULL;
  m->frag_milli = p->frag_milli;
  m->free_milli = p->free_milli;
  metrics_pool_integrate_to(m, now);
}

void cluster_pool_close(pool_state *p, sim_time end) {
  cluster_pool_integrate(p, end);
  metrics_pool_close(p->m, end);
}

void cluster_gpu_integrate(gpu_state *g, sim_time now) {
  cluster_pool_integrate(g->pool, now);
  metrics_gpu_integrate(&gpu_run_of(g)->m, now);
}

/* Does another worker of t's job sit on g before or after t? */
static gboolean gpu_has_mate(const gpu_state *g, const task *t) {
  if (t->job->n_tasks < 2) return FALSE;
  for (guint k = 0; k < g->n_residents; k++) {
    const task *o = g->residents[k];
    if (o != t && o->job == t->job) return TRUE;
  }
  return FALSE;
}

/* Solo speeds of a GPU that hosts several workers of one gang: the strategy's speeds on
 * the same GPU without the worker's own gang-mates (a worker slowed by its own gang is a
 * straggler like any other). The residents' real speeds are restored afterwards. */
static void gpu_solo_speeds(pool_state *p, gpu_state *g) {
  guint n = g->n_residents;
  double *sp = g_newa(double, n), *al = g_newa(double, n), *tw = g_newa(double, n);
  double *solo = g_newa(double, n), *bw = g_newa(double, n), *bc = g_newa(double, n);
  double *ms = g_newa(double, n);
  for (guint i = 0; i < n; i++) {
    const task *t = g->residents[i];
    sp[i] = t->speed;
    al[i] = t->alloc_share;
    tw[i] = t->turn_wait_ns;
    bw[i] = t->block_wait;
    bc[i] = t->block_corr_ns;
    ms[i] = t->mem_slowdown;
  }
  task **sub = g_newa(task *, n);
  gpu_state tmp = *g;
  tmp.residents = sub;
  for (guint i = 0; i < n; i++) {
    task *t = g->residents[i];
    solo[i] = sp[i];
    if (!gpu_has_mate(g, t)) continue;
    tmp.n_residents = 0;
    for (guint k = 0; k < n; k++) {
      task *o = g->residents[k];
      if (o == t || o->job != t->job) sub[tmp.n_residents++] = o;
    }
    tmp.slots_used = tmp.n_residents;
    p->ops->update_speeds(&p->share_view, &tmp);
    solo[i] = t->speed;
  }
  for (guint i = 0; i < n; i++) {
    task *t = g->residents[i];
    t->speed = sp[i];
    t->alloc_share = al[i];
    t->turn_wait_ns = tw[i];
    t->block_wait = bw[i];
    t->block_corr_ns = bc[i];
    t->mem_slowdown = ms[i];
    t->solo_speed = solo[i] > sp[i] ? solo[i] : sp[i];
  }
}

void cluster_gpu_count_oom(gpu_state *g) { metrics_gpu_oom(g->pool->m, g->index); }

void cluster_gpu_update_speeds(gpu_state *g) {
  pool_state *p = g->pool;
  guint n = g->n_residents;
  if (!n) return;
  if (p->ops->unit_speeds) {
    /* what update_speeds does, and the solo speeds it gives (1, stacked or not) */
    for (guint i = 0; i < n; i++) {
      task *t = g->residents[i];
      t->speed = t->alloc_share = t->solo_speed = 1.0;
    }
    return;
  }
  p->ops->update_speeds(&p->share_view, g);
  gboolean stacked = FALSE;
  for (guint i = 0; i < n; i++) {
    task *t = g->residents[i];
    t->solo_speed = t->speed;
    if (!stacked && i > 0 && gpu_has_mate(g, t)) stacked = TRUE;
  }
  if (stacked) gpu_solo_speeds(p, g);
}

void cluster_task_charge(task *view, sim_time now) {
  task_run *t = task_run_of(view);
  if (now > t->part_since) t->job->charge_gpu_ns += t->m_part[0] * (double)(now - t->part_since);
  t->part_since = now;
}

/* Each resident's part of g's gauges goes to its tenant: the gauges x its alloc_share over
 * the residents' total (equal parts when the strategy allocated nothing), so the parts add
 * up to the GPU's gauges and none is busier than it is allocated. The allocated part is
 * also the job's charge (jobs.csv gpu_s_allocated), so jobs partition tenants and pools. */
/* The same bytes (memcmp's equality), without the library call. */
static inline gboolean parts_same(const double a[3], const double b[3]) {
  uint64_t x[3], y[3];
  memcpy(x, a, sizeof x);
  memcpy(y, b, sizeof y);
  return ((x[0] ^ y[0]) | (x[1] ^ y[1]) | (x[2] ^ y[2])) == 0;
}

/* Resident t's part of its GPU's gauges becomes part[] at now (its tenant's books); fx:
 * their metrics_fixed values when the caller has them, else NULL. */
static inline void cluster_task_set_part(pool_state *p, task_run *t, sim_time now,
                                         const double part[3], const int64_t *part_fx) {
  if (parts_same(part, t->m_part)) return;
  cluster_task_charge(&t->view, now);
  int64_t d[3] = {0, 0, 0};
  for (int k = 0; k < 3; k++) {
    /* an unchanged part keeps its fixed-point value (m_part_fx[k] is metrics_fixed of
     * m_part[k]): one conversion fewer for each */
    if (part[k] == t->m_part[k]) continue;
    int64_t fx = part_fx ? part_fx[k] : metrics_fixed(part[k]);
    d[k] = fx - t->m_part_fx[k];
    t->m_part_fx[k] = fx;
  }
  metrics_tenant_change(p->metrics, t->job->tenant, p->index, now, d, 0);
  memcpy(t->m_part, part, 3 * sizeof *part);
}

static void cluster_gpu_tenants(pool_state *p, gpu_state *g, double alloc, double busy,
                                double sm, const int64_t fx[3]) {
  guint n = g->n_residents;
  sim_time now = gpu_run_of(g)->m.t_last;
  if (n == 1) {
    /* one resident: its weight is 1 (a / (0 + a) for a finite a > 0, else 1 / 1), and
     * x * 1 is x (the gauges are numbers: metrics_gpu_set_gauges asserts their range),
     * unless a is +inf (inf / inf): the general expression then */
    task_run *t = task_run_of(g->residents[0]);
    if (t->alloc_share <= G_MAXDOUBLE) {
      const double part[3] = {alloc, busy, sm};
      cluster_task_set_part(p, t, now, part, fx);
      return;
    }
  }
  double total = 0;
  for (guint i = 0; i < n; i++)
    total += ((const task *)g->residents[i])->alloc_share;
  for (guint i = 0; i < n; i++) {
    task_run *t = task_run_of(g->residents[i]);
    double w = total > 0 ? t->alloc_share / total : 1.0 / n;
    const double part[3] = {alloc * w, busy * w, sm * w};
    cluster_task_set_part(p, t, now, part, NULL);
  }
}

void cluster_gpu_update_gauges(gpu_state *g) {
  pool_state *p = g->pool;
  double busy = 0, sm = 0;
  if (g->n_residents) p->ops->gauges(&p->share_view, g, &busy, &sm);
  double alloc = g->n_residents ? 1.0 : 0.0;
  g_assert(busy >= 0 && busy <= 1 + 1e-9 && sm >= 0 && sm <= 1 + 1e-9);
  const int64_t fx[3] = {g->n_residents ? METRICS_FIXED_ONE_I : 0, metrics_fixed(busy),
                         metrics_fixed(sm)};
  metrics_gpu_set_gauges(p->m, g->index, fx);
  cluster_gpu_tenants(p, g, alloc, busy, sm, fx);
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

