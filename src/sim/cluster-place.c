/* cluster-place.c: the run-time pools as the placement policies of place.h see them: one
 * place_node per node (free share per GPU, host CPU and memory left, GPU pods by class),
 * refreshed when a task arrives or leaves; fragmentation of every pool against its target
 * workload; and placement of a job on one node by the pool's policy (random, dot-product,
 * gpu-clustering, gpu-packing, best-fit, fgd). pack and spread keep cluster.c's search. */
#include "cluster.h"
#include "rng.h"
#include <math.h>
#include <string.h>

/* Share of a GPU one worker of j is given, in milli-GPU: its claimed share under a strategy
 * that packs by shares (fractional: gpu_frac), else one slot of the GPU's slots_per_gpu. */
static int32_t cp_milli_of(const share_ops *ops, guint32 slots_per_gpu, const job_spec *j) {
  if (ops->worker_share)
    return (int32_t)CLAMP(llround(ops->worker_share(j) * PLACE_MILLI), 1, PLACE_MILLI);
  return (int32_t)MAX(1u, PLACE_MILLI / slots_per_gpu);
}

static int32_t cp_job_milli(const pool_state *p, const job_spec *j) {
  return cp_milli_of(p->ops, p->slots_per_gpu, j);
}

/* Free share of g in milli-GPU: none once its slots are taken; fractional: 1000 less its
 * residents' shares; else its free slots' share. */
static int32_t cp_gpu_left(const pool_state *p, const gpu_state *g) {
  if (g->slots_used >= g->slots_cap) return 0;
  if (!p->ops->worker_share)
    return (int32_t)((guint64)PLACE_MILLI * (g->slots_cap - g->slots_used) / p->slots_per_gpu);
  int64_t used = 0;
  for (guint i = 0; i < g->n_residents; i++)
    used += cp_job_milli(p, ((const task *)g->residents[i])->job->spec);
  return (int32_t)CLAMP(PLACE_MILLI - used, 0, PLACE_MILLI);
}

/* After node n's GPUs or affinity changed: its host resources, counts, version and
 * fragmentation. */
static void cp_node_done(pool_state *p, guint32 n) {
  place_node *v = &p->view[n];
  v->cpu_left = v->cpu_cap && p->node_cpu_left ? p->node_cpu_left[n] : 0;
  v->mem_left = v->mem_cap && p->node_mem_left ? p->node_mem_left[n] : 0;
  place_node_refresh(v);
  v->version++;
  double f = place_node_frag(p->target, v);
  p->frag_milli += f - p->view_frag[n];
  p->view_frag[n] = f;
}

void cluster_view_init(pool_state *p) {
  p->view = g_new0(place_node, MAX(1u, p->n_nodes));
  p->view_left = g_new(int32_t, MAX(1u, p->n_gpus));
  p->view_affinity = g_new0(guint32, (gsize)p->n_gpus + p->n_nodes);
  p->view_frag = g_new0(double, MAX(1u, p->n_nodes));
  p->target = place_target_new(NULL, 0);
  guint64 a = 0;
  for (guint32 n = 0; n < p->n_nodes; n++) {
    place_node *v = &p->view[n];
    guint32 gpus;
    int64_t cpu, mem;
    const char *model;
    pool_node_info(p->spec, n, &gpus, &cpu, &mem, &model);
    v->cpu_cap = cpu;
    v->mem_cap = mem;
    v->model = p->node_model[n];
    v->n_gpus = p->node_gpus[n];
    v->gpu_left = &p->view_left[p->node_first[n]];
    v->affinity = &p->view_affinity[a];
    a += v->n_gpus + 1;
    for (guint32 l = 0; l < v->n_gpus; l++) v->gpu_left[l] = PLACE_MILLI;
    p->free_milli += (double)v->n_gpus * PLACE_MILLI;
    cluster_view_node(p, n);
  }
}

void cluster_view_node(pool_state *p, guint32 n) {
  place_node *v = &p->view[n];
  guint32 first = p->node_first[n];
  for (guint32 l = 0; l < v->n_gpus; l++) {
    const gpu_state *g = cluster_gpu(p, first + l);
    int32_t left = cp_gpu_left(p, g);
    p->free_milli += left - v->gpu_left[l];
    v->gpu_left[l] = left;
  }
  memset(v->affinity, 0, sizeof(guint32) * (v->n_gpus + 1));
  for (guint32 l = 0; l < v->n_gpus; l++) {
    const gpu_state *g = cluster_gpu(p, first + l);
    for (guint i = 0; i < g->n_residents; i++) {
      const job_spec *js = ((const task *)g->residents[i])->job->spec;
      guint32 cls = cp_job_milli(p, js) >= PLACE_MILLI ? MIN(js->gpus, v->n_gpus) : 0;
      v->affinity[cls]++;
    }
  }
  cp_node_done(p, n);
}

void cluster_host_change(pool_state *p, const task *t, const gpu_state *g, int sign) {
  const job_spec *js = t->job->spec;
  guint32 n = g->node;
  if (p->node_cpu_left) {
    if (p->node_cpu_left[n] != INT64_MAX) p->node_cpu_left[n] += sign * js->cpu_milli;
    if (p->node_mem_left[n] != INT64_MAX) p->node_mem_left[n] += sign * js->memory_mib;
  }
  if (!p->view) return;
  /* only g and the job's class changed on node n */
  place_node *v = &p->view[n];
  int32_t left = cp_gpu_left(p, g);
  p->free_milli += left - v->gpu_left[g->local];
  v->gpu_left[g->local] = left;
  guint32 cls = cp_job_milli(p, js) >= PLACE_MILLI ? MIN(js->gpus, v->n_gpus) : 0;
  if (sign < 0) v->affinity[cls]++;
  else if (v->affinity[cls]) v->affinity[cls]--;
  cp_node_done(p, n);
}

static place_req cp_request_of(const share_ops *ops, guint32 slots_per_gpu, const job_spec *js) {
  place_req r = {.cpu = js->cpu_milli * js->gpus, .mem = js->memory_mib * js->gpus,
                 .gpus = js->gpus, .milli = cp_milli_of(ops, slots_per_gpu, js),
                 .spec = js->gpu_spec, .type = PLACE_NO_TYPE};
  return r;
}

static place_req cp_request(const pool_state *p, const job_spec *js) {
  return cp_request_of(p->ops, p->slots_per_gpu, js);
}

/* Request kinds (the fields of a place_req but type): a key of pool_state.kind_of. */
static guint cp_kind_hash(gconstpointer k) {
  const place_req *r = k;
  guint h = g_str_hash(r->spec ? r->spec : "");
  guint64 v[] = {(guint64)r->cpu, (guint64)r->mem, (guint64)(guint32)r->milli, r->gpus};
  for (gsize i = 0; i < G_N_ELEMENTS(v); i++) h = h * 31u + (guint)(v[i] ^ (v[i] >> 32));
  return h;
}

static gboolean cp_kind_equal(gconstpointer a, gconstpointer b) {
  const place_req *x = a, *y = b;
  return x->cpu == y->cpu && x->mem == y->mem && x->milli == y->milli && x->gpus == y->gpus &&
         g_strcmp0(x->spec ? x->spec : "", y->spec ? y->spec : "") == 0;
}

/* Counts n jobs of request kind r (type ignored) into kind_of, kinds and kind_count: a new
 * kind is numbered after those seen before. */
static void cp_kind_count(GHashTable **kind_of, GArray **kinds, GArray **kind_count,
                          place_req r, double n) {
  if (!*kind_of) {
    *kind_of = g_hash_table_new_full(cp_kind_hash, cp_kind_equal, g_free, NULL);
    *kinds = g_array_new(FALSE, FALSE, sizeof(place_req));
    *kind_count = g_array_new(FALSE, FALSE, sizeof(double));
  }
  gpointer k = g_hash_table_lookup(*kind_of, &r);
  if (k) {
    g_array_index(*kind_count, double, GPOINTER_TO_UINT(k) - 1) += n;
    return;
  }
  r.type = (*kinds)->len;
  g_array_append_val(*kinds, r);
  g_array_append_val(*kind_count, n);
  g_hash_table_insert(*kind_of, g_memdup2(&r, sizeof r), GUINT_TO_POINTER((*kinds)->len));
}

void cluster_pool_target_add(pool_state *p, const job_spec *js) {
  cp_kind_count(&p->kind_of, &p->kinds, &p->kind_count, cp_request(p, js), 1);
}

struct cluster_target_tally {
  const share_ops *ops;
  guint32 slots_per_gpu;
  GHashTable *kind_of;
  GArray *kinds, *kind_count;
};

cluster_target_tally *cluster_target_tally_new(const pool_spec *spec, const share_ops *ops) {
  cluster_target_tally *t = g_new0(cluster_target_tally, 1);
  t->ops = ops;
  t->slots_per_gpu = t->ops->slots_per_gpu(spec);
  g_assert(t->slots_per_gpu >= 1);
  return t;
}

void cluster_target_tally_add(cluster_target_tally *t, const job_spec *js) {
  cp_kind_count(&t->kind_of, &t->kinds, &t->kind_count,
                cp_request_of(t->ops, t->slots_per_gpu, js), 1);
}

void cluster_target_tally_free(cluster_target_tally *t) {
  if (!t) return;
  if (t->kind_of) g_hash_table_unref(t->kind_of);
  if (t->kinds) g_array_unref(t->kinds);
  if (t->kind_count) g_array_unref(t->kind_count);
  g_free(t);
}

/* Counts per kind are whole numbers of jobs: adding k at once gives the double that k
 * additions of 1 give (below 2^53). */
void cluster_pool_target_add_tally(pool_state *p, const cluster_target_tally *t) {
  g_assert(t->ops == p->ops && t->slots_per_gpu == p->slots_per_gpu);
  for (guint k = 0; t->kinds && k < t->kinds->len; k++)
    cp_kind_count(&p->kind_of, &p->kinds, &p->kind_count,
                  g_array_index(t->kinds, place_req, k),
                  g_array_index(t->kind_count, double, k));
}

void cluster_pool_set_target(pool_state *p, guint64 seed) {
  guint n = p->kinds ? p->kinds->len : 0;
  place_target_free(p->target);
  p->target = place_target_new_counted(n ? (const place_req *)(void *)p->kinds->data : NULL,
                                       n ? (const double *)(void *)p->kind_count->data : NULL, n);
  if (p->kinds) g_array_unref(p->kinds);
  if (p->kind_count) g_array_unref(p->kind_count);
  p->kinds = p->kind_count = NULL;
  place_cache_free(p->cache);
  p->cache = p->place ? place_cache_new(p->n_nodes, n) : NULL;
  if (!p->place_rng) p->place_rng = rng_new(seed, p->spec->name, 0x706c616365ull /* "place" */);
  p->frag_milli = 0;
  for (guint32 k = 0; k < p->n_nodes; k++) {
    p->view_frag[k] = place_node_frag(p->target, &p->view[k]);
    p->frag_milli += p->view_frag[k];
  }
}

int cluster_policy_place(const pool_state *p, const job_run *j, gpu_state **gpus_out,
                         guint32 *slots_out) {
  place_req r = cp_request(p, j->spec);
  gpointer kind = p->kind_of ? g_hash_table_lookup(p->kind_of, &r) : NULL;
  if (kind) r.type = GPOINTER_TO_UINT(kind) - 1;
  int64_t max_cpu = 0;
  for (guint32 n = 0; n < p->n_nodes; n++) max_cpu = MAX(max_cpu, p->view[n].cpu_cap);
  place_ctx ctx = {.target = p->target, .rng = p->place_rng, .max_cpu = max_cpu,
                   .max_gpu_milli = (int64_t)p->max_node_gpus * PLACE_MILLI,
                   .conf = p->spec->placement_conf};
  guint32 *idx = g_newa(guint32, MAX(1u, r.gpus));
  int n = place_select(&ctx, p->place, p->view, p->n_nodes, &r, p->cache, idx);
  if (n < 0) return r.gpus > 1 ? -1 : 0; /* no single node holds it now: a gang may span nodes */
  for (guint32 k = 0; k < r.gpus; k++) {
    gpu_state *g = cluster_gpu(p, p->node_first[n] + idx[k]);
    if (!p->ops->gpu_accepts(&p->share_view, g, &j->share_view, (gpu_state *const *)gpus_out, k,
                              &slots_out[k]))
      return -1; /* the strategy sees more than the view (memory, layouts): search on */
    gpus_out[k] = g;
  }
  return 1;
}

gboolean cluster_host_can_ever_fit(const pool_spec *p, const job_spec *j, char **reason) {
  if (!j->gpu_spec && !j->cpu_milli && !j->memory_mib) return TRUE;
  gboolean model_seen = FALSE;
  guint kinds = p->node_groups ? p->node_groups->len : 1;
  for (guint k = 0; k < kinds; k++) { /* one node of each group (node k's group is k-th) */
    const pool_node_group *gr =
        p->node_groups ? &g_array_index(p->node_groups, pool_node_group, k) : NULL;
    int64_t cpu = gr ? gr->cpu_milli : p->cpu_milli, mem = gr ? gr->memory_mib : p->memory_mib;
    const char *model = gr && gr->model ? gr->model : p->model ? p->model : p->gpu->name;
    if (!place_model_ok(j->gpu_spec, model)) continue;
    model_seen = TRUE;
    if ((!cpu || j->cpu_milli <= cpu) && (!mem || j->memory_mib <= mem)) return TRUE;
  }
  if (!model_seen)
    *reason = g_strdup_printf("needs a GPU model in '%s'; pool '%s' has none of them",
                              j->gpu_spec, p->name);
  else
    *reason = g_strdup_printf("needs %" G_GINT64_FORMAT " millicores and %" G_GINT64_FORMAT
                              " MiB of host memory per worker; no node of pool '%s' has that",
                              j->cpu_milli, j->memory_mib, p->name);
  return FALSE;
}
