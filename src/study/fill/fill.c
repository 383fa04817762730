/* fill.c: the FGD paper's fill-up experiment (fill.h): builds the pool's nodes and the
 * trace's requests once, then per (policy, seed) replays arrivals that never leave, sampled
 * to the requested share of GPU capacity, and bins allocation, fragmentation and unplaced
 * jobs by whole percent of arrived GPU share; writes fill.csv, the per-policy means, the
 * summary and the gnuplot script. Placement itself is the policy table's (src/sim/place). */
#include "fill.h"
#include "rng.h"
#include "util.h"
#include <gsl/gsl_randist.h>
#include <math.h>
#include <string.h>

/* ---- setup ---- */

static guint32 fill_intern_type(GHashTable *types, const place_req *r) {
  char *key = g_strdup_printf("%" G_GINT64_FORMAT "/%d/%u/%s", r->cpu, r->milli, r->gpus,
                              r->spec ? r->spec : "");
  gpointer v;
  if (g_hash_table_lookup_extended(types, key, NULL, &v)) {
    g_free(key);
    return GPOINTER_TO_UINT(v);
  }
  guint32 t = g_hash_table_size(types);
  g_hash_table_insert(types, key, GUINT_TO_POINTER(t));
  return t;
}

fill_setup *fill_setup_new(const scenario *sc, guint pool_index, const trace *tr,
                           GError **error) {
  const pool_spec *p = scenario_pool(sc, pool_index);
  fill_setup *s = g_new0(fill_setup, 1);
  s->pool = p;
  s->n_nodes = p->nodes;
  s->node_gpus = g_new(guint32, p->nodes);
  s->node_cpu = g_new(int64_t, p->nodes);
  s->node_mem = g_new(int64_t, p->nodes);
  s->node_model = g_new(const char *, p->nodes);
  for (guint32 n = 0; n < p->nodes; n++) {
    pool_node_info(p, n, &s->node_gpus[n], &s->node_cpu[n], &s->node_mem[n], &s->node_model[n]);
    s->n_gpus += s->node_gpus[n];
    s->max_cpu = MAX(s->max_cpu, s->node_cpu[n]);
    s->max_gpu_milli = MAX(s->max_gpu_milli, (int64_t)s->node_gpus[n] * PLACE_MILLI);
  }
  s->cap_milli = (int64_t)s->n_gpus * PLACE_MILLI;
  s->n_jobs = trace_n_jobs(tr);
  s->reqs = g_new0(place_req, MAX(1u, s->n_jobs));
  GHashTable *types = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < s->n_jobs; i++) {
    job_spec row = trace_job(tr, i);
    const job_spec *j = &row;
    place_req *r = &s->reqs[i];
    guint32 workers = MAX(j->gpus, 1u);
    r->gpus = j->gpus;
    r->milli = j->gpus ? (int32_t)MAX(1.0, llround(j->gpu_frac * PLACE_MILLI)) : 0;
    r->cpu = j->cpu_milli * workers;
    r->mem = j->memory_mib * workers;
    r->spec = j->gpu_spec && *j->gpu_spec ? j->gpu_spec : NULL;
    r->type = fill_intern_type(types, r);
  }
  s->n_types = g_hash_table_size(types);
  g_hash_table_unref(types);
  s->target = place_target_new(s->reqs, s->n_jobs);
  if (!s->n_gpus) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT, "pool '%s' has no GPUs", p->name);
    fill_setup_free(s);
    return NULL;
  }
  return s;
}

void fill_setup_free(fill_setup *s) {
  if (!s) return;
  g_free(s->node_gpus);
  g_free(s->node_cpu);
  g_free(s->node_mem);
  g_free(s->node_model);
  g_free(s->reqs);
  place_target_free(s->target);
  g_free(s);
}

/* ---- one run ---- */

static int64_t fill_milli(const place_req *r) { return (int64_t)r->milli * r->gpus; }

/* The arrival list: trace order or shuffled, then trimmed or topped up by uniform samples
 * (with replacement) until the arrived GPU share is the requested one. */
static GArray *fill_arrivals(const fill_setup *s, gsl_rng *rng, const fill_options *opt) {
  GArray *a = g_array_sized_new(FALSE, FALSE, sizeof(guint32), s->n_jobs);
  int64_t total = 0;
  for (guint32 i = 0; i < s->n_jobs; i++) {
    g_array_append_val(a, i);
    total += fill_milli(&s->reqs[i]);
  }
  if (opt->shuffle && a->len > 1) gsl_ran_shuffle(rng, a->data, a->len, sizeof(guint32));
  double want = opt->inflate * (double)s->cap_milli;
  while ((double)total > want && a->len) {
    guint k = (guint)gsl_rng_uniform_int(rng, a->len);
    total -= fill_milli(&s->reqs[g_array_index(a, guint32, k)]);
    g_array_remove_index(a, k);
  }
  while (s->n_jobs) {
    guint32 k = (guint32)gsl_rng_uniform_int(rng, s->n_jobs);
    if ((double)(total + fill_milli(&s->reqs[k])) > want) break;
    total += fill_milli(&s->reqs[k]);
    g_array_append_val(a, k);
  }
  return a;
}

typedef struct fill_state {
  place_node *nodes;
  int32_t *gpu_left;
  guint32 *affinity;
  double *frag;               /* per node */
  guint64 gpus_used;          /* GPUs with any allocation */
} fill_state;

static void fill_state_init(fill_state *st, const fill_setup *s) {
  st->nodes = g_new0(place_node, s->n_nodes);
  st->gpu_left = g_new(int32_t, MAX(1u, s->n_gpus));
  st->affinity = g_new0(guint32, s->n_gpus + s->n_nodes);
  st->frag = g_new0(double, s->n_nodes);
  st->gpus_used = 0;
  guint64 g = 0, a = 0;
  for (guint32 n = 0; n < s->n_nodes; n++) {
    place_node *nd = &st->nodes[n];
    nd->cpu_left = nd->cpu_cap = s->node_cpu[n];
    nd->mem_left = nd->mem_cap = s->node_mem[n];
    nd->model = s->node_model[n];
    nd->n_gpus = s->node_gpus[n];
    nd->gpu_left = &st->gpu_left[g];
    nd->affinity = &st->affinity[a];
    for (guint32 i = 0; i < nd->n_gpus; i++) nd->gpu_left[i] = PLACE_MILLI;
    g += nd->n_gpus;
    a += nd->n_gpus + 1;
    place_node_refresh(nd);
    st->frag[n] = place_node_frag(s->target, nd);
  }
}

static void fill_state_clear(fill_state *st) {
  g_free(st->nodes);
  g_free(st->gpu_left);
  g_free(st->affinity);
  g_free(st->frag);
}

typedef struct fill_bins {
  guint n;
  double *sum;                /* n x 5: alloc milli, alloc gpus, frag milli, frag ratio, unplaced */
  guint *count;
} fill_bins;

static void fill_bins_add(fill_bins *b, guint bin, const double v[5]) {
  if (bin >= b->n) bin = b->n - 1;
  for (int k = 0; k < 5; k++) b->sum[bin * 5 + k] += v[k];
  b->count[bin]++;
}

/* Mean per whole percent; an empty step takes the steps beside it (as the reference
 * analysis does). */
static void fill_bins_points(const fill_bins *b, GArray *points) {
  for (guint pct = 0; pct < b->n; pct++) {
    fill_point pt = {.pct = pct};
    double sum[5] = {0};
    guint cnt = 0;
    for (guint k = pct ? pct - 1 : 0; k <= pct + 1 && k < b->n; k++) {
      if (b->count[pct] && k != pct) continue;
      for (int m = 0; m < 5; m++) sum[m] += b->sum[k * 5 + m];
      cnt += b->count[k];
    }
    pt.have = cnt > 0;
    if (cnt) {
      pt.alloc_milli_pct = sum[0] / cnt;
      pt.alloc_gpus_pct = sum[1] / cnt;
      pt.frag_milli_pct = sum[2] / cnt;
      pt.frag_ratio_pct = sum[3] / cnt;
      pt.unplaced = sum[4] / cnt;
    }
    g_array_append_val(points, pt);
  }
}

/* Places one arrival; returns TRUE when placed. */
static gboolean fill_place(const fill_setup *s, fill_state *st, const place_ctx *ctx,
                           const place_ops *ops, place_cache *cache, const place_req *r,
                           guint32 *gpus) {
  int n = place_select(ctx, ops, st->nodes, s->n_nodes, r, cache, gpus);
  if (n < 0) return FALSE;
  place_node *nd = &st->nodes[n];
  for (guint32 k = 0; k < r->gpus; k++) st->gpus_used += nd->gpu_left[gpus[k]] == PLACE_MILLI;
  place_node_take(nd, r, gpus);
  st->frag[n] = place_node_frag(s->target, nd);
  return TRUE;
}

fill_result *fill_run(const fill_setup *s, placement_policy policy, guint64 seed,
                      const fill_options *opt) {
  fill_result *res = g_new0(fill_result, 1);
  res->policy = policy;
  res->seed = seed;
  res->points = g_array_new(FALSE, FALSE, sizeof(fill_point));
  gsl_rng *order_rng = rng_new(seed, "fill-arrivals", 0);
  gsl_rng *place_rng = rng_new(seed, "fill-placement", 0);
  GArray *arr = fill_arrivals(s, order_rng, opt);
  fill_state st;
  fill_state_init(&st, s);
  /* the pool's own policy with the values its keys set; the others with their defaults */
  place_ctx ctx = {.target = s->target, .rng = place_rng, .max_cpu = s->max_cpu,
                   .max_gpu_milli = s->max_gpu_milli,
                   .conf = policy == s->pool->placement ? s->pool->placement_conf : NULL};
  const place_ops *ops = place_for(policy);
  place_cache *cache = ops->cacheable ? place_cache_new(s->n_nodes, s->n_types) : NULL;
  guint32 max_gpus = 1;
  for (guint32 n = 0; n < s->n_nodes; n++) max_gpus = MAX(max_gpus, s->node_gpus[n]);
  guint32 *gpus = g_new0(guint32, MAX(max_gpus, 1u));
  fill_bins b = {.n = (guint)llround(opt->inflate * 100) + 1};
  b.sum = g_new0(double, b.n * 5);
  b.count = g_new0(guint, b.n);
  double cap = (double)s->cap_milli, frag = 0;
  for (guint i = 0; i < arr->len; i++) {
    const place_req *r = &s->reqs[g_array_index(arr, guint32, i)];
    res->n_arrived++;
    res->arrived_milli += fill_milli(r);
    gboolean placed = r->gpus <= max_gpus && fill_place(s, &st, &ctx, ops, cache, r, gpus);
    if (placed) {
      res->n_placed++;
      res->placed_milli += fill_milli(r);
    } else {
      res->n_unplaced++;
      res->unplaced_milli += fill_milli(r);
    }
    frag = 0;
    for (guint32 n = 0; n < s->n_nodes; n++) frag += st.frag[n];
    double idle = cap - (double)res->placed_milli;
    double v[5] = {100.0 * (double)res->placed_milli / cap,
                   100.0 * (double)st.gpus_used / (double)s->n_gpus, 100.0 * frag / cap,
                   idle > 0 ? 100.0 * frag / idle : 0, (double)res->n_unplaced};
    fill_bins_add(&b, (guint)rint(100.0 * (double)res->arrived_milli / cap), v);
    res->final_alloc_milli_pct = v[0];
    res->final_alloc_gpus_pct = v[1];
    res->final_frag_milli_pct = v[2];
    res->final_frag_ratio_pct = v[3];
  }
  fill_bins_points(&b, res->points);
  g_free(b.sum);
  g_free(b.count);
  g_free(gpus);
  place_cache_free(cache);
  fill_state_clear(&st);
  g_array_unref(arr);
  gsl_rng_free(order_rng);
  gsl_rng_free(place_rng);
  return res;
}

void fill_result_free(fill_result *r) {
  if (!r) return;
  g_array_unref(r->points);
  g_free(r);
}

/* ---- several runs in parallel ---- */

typedef struct fill_job {
  const fill_setup *setup;
  const fill_options *opt;
  placement_policy policy;
  guint64 seed;
  fill_result **slot;
} fill_job;

static void fill_worker(gpointer data, gpointer ud) {
  fill_job *j = data;
  *j->slot = fill_run(j->setup, j->policy, j->seed, j->opt);
}

fill_result **fill_run_all(const fill_setup *s, const fill_options *opt,
                           const placement_policy *pols, guint n_pols, const guint64 *seeds,
                           guint n_seeds, guint threads) {
  guint n = n_pols * n_seeds;
  fill_result **runs = g_new0(fill_result *, MAX(1u, n));
  fill_job *tasks = g_new0(fill_job, MAX(1u, n));
  for (guint p = 0; p < n_pols; p++)
    for (guint k = 0; k < n_seeds; k++)
      tasks[p * n_seeds + k] = (fill_job){s, opt, pols[p], seeds[k], &runs[p * n_seeds + k]};
  if (threads <= 1) {
    for (guint i = 0; i < n; i++) fill_worker(&tasks[i], NULL);
  } else {
    GThreadPool *pool = g_thread_pool_new(fill_worker, NULL, (gint)threads, TRUE, NULL);
    for (guint i = 0; i < n; i++) g_thread_pool_push(pool, &tasks[i], NULL);
    g_thread_pool_free(pool, FALSE, TRUE);
  }
  g_free(tasks);
  return runs;
}

fill_result **fill_run_paper(const fill_setup *s, guint threads, guint *n) {
  guint64 seeds[FILL_PAPER_SEEDS];
  for (guint k = 0; k < FILL_PAPER_SEEDS; k++) seeds[k] = FILL_PAPER_FIRST_SEED + k;
  fill_options opt = {.inflate = FILL_PAPER_INFLATE, .shuffle = TRUE};
  *n = FILL_PAPER_POLICIES * FILL_PAPER_SEEDS;
  return fill_run_all(s, &opt, fill_paper_policies, FILL_PAPER_POLICIES, seeds,
                      FILL_PAPER_SEEDS, threads);
}

const placement_policy fill_paper_policies[FILL_PAPER_POLICIES] = {
    &place_random_ops.input,      &place_dot_product_ops.input, &place_gpu_clustering_ops.input,
    &place_gpu_packing_ops.input, &place_best_fit_ops.input,    &place_fgd_ops.input};
