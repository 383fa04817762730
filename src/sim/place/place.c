/* place.c: the placement policy table, the fit test, the selection loop shared by every
 * policy (highest score, ties to the lowest node index), the GPU choices several share,
 * node bookkeeping, and fragmentation against the target workload. The scores themselves
 * live in place-*.c, one policy each. */
#include "place.h"
#include <stddef.h>
#include <string.h>

/* The one table of placement policies; a new policy is its file and one more row (its
 * place sets only where it appears in the lists users see). */
static const place_ops *const place_table[] = {
    &place_pack_ops,        &place_spread_ops,      &place_random_ops,
    &place_dot_product_ops, &place_gpu_clustering_ops, &place_gpu_packing_ops,
    &place_best_fit_ops,    &place_fgd_ops,
};

const place_ops *place_for(placement_policy p) {
  g_assert(p);
  return (const place_ops *)(const void *)((const char *)p - offsetof(place_ops, input));
}

guint place_count(void) { return G_N_ELEMENTS(place_table); }

const place_ops *place_row(guint i) {
  g_assert(i < G_N_ELEMENTS(place_table));
  return place_table[i];
}

const scenario_placement *place_input_row(guint i) {
  return i < G_N_ELEMENTS(place_table) ? &place_table[i]->input : NULL;
}

gboolean place_model_ok(const char *spec, const char *model) {
  if (!spec || !*spec) return TRUE;
  if (!model || !*model) return FALSE;
  size_t ml = strlen(model);
  gboolean any = FALSE;
  for (const char *s = spec; *s;) {
    const char *bar = strchr(s, '|');
    size_t len = bar ? (size_t)(bar - s) : strlen(s);
    if (len) {
      any = TRUE;
      if (len == ml && !memcmp(s, model, len)) return TRUE;
    }
    if (!bar) break;
    s = bar + 1;
  }
  return !any; /* "|" alone names no model: any */
}

gboolean place_fits(const place_node *n, const place_req *r) {
  if (n->cpu_cap && n->cpu_left < r->cpu) return FALSE;
  if (n->mem_cap && n->mem_left < r->mem) return FALSE;
  if (!r->gpus) return TRUE;
  if (r->gpus > n->n_gpus || !place_model_ok(r->spec, n->model)) return FALSE;
  if (r->milli >= PLACE_MILLI) return n->n_full >= r->gpus;
  if (n->max_left < r->milli) return FALSE;
  if (r->gpus == 1) return TRUE;
  guint32 k = 0;
  for (guint32 i = 0; i < n->n_gpus; i++) k += n->gpu_left[i] >= r->milli;
  return k >= r->gpus;
}

/* ---- cache and selection ---- */

place_cache *place_cache_new(guint32 n_nodes, guint32 n_types) {
  place_cache *c = g_new0(place_cache, 1);
  c->n_nodes = n_nodes;
  c->n_types = n_types;
  c->version = g_new0(guint32, (gsize)n_nodes * n_types);
  c->score = g_new0(int64_t, (gsize)n_nodes * n_types);
  return c;
}

void place_cache_free(place_cache *c) {
  if (!c) return;
  g_free(c->version);
  g_free(c->score);
  g_free(c);
}

int place_select(const place_ctx *c, const place_ops *ops, const place_node *nodes, guint32 n,
                 const place_req *r, place_cache *cache, guint32 *gpus_out) {
  gboolean use_cache = cache && ops->cacheable && r->type < cache->n_types;
  int best = -1;
  int64_t best_score = 0;
  guint32 ties = 0;
  for (guint32 i = 0; i < n; i++) {
    const place_node *nd = &nodes[i];
    if (!place_fits(nd, r)) continue;
    if (ops->pick_random) {
      if (gsl_rng_uniform_int(c->rng, ++ties) == 0) best = (int)i;
      continue;
    }
    int64_t s;
    gsize slot = (gsize)i * (use_cache ? cache->n_types : 0) + (use_cache ? r->type : 0);
    if (use_cache && cache->version[slot] == nd->version + 1) {
      s = cache->score[slot];
    } else {
      s = ops->score(c, nd, r);
      if (use_cache) {
        cache->version[slot] = nd->version + 1;
        cache->score[slot] = s;
      }
    }
    if (best < 0 || s > best_score) {
      best = (int)i;
      best_score = s;
    }
  }
  if (best >= 0 && r->gpus) ops->gpus(c, &nodes[best], r, gpus_out);
  return best;
}

/* ---- node bookkeeping ---- */

void place_node_refresh(place_node *n) {
  n->n_full = 0;
  n->max_left = 0;
  for (guint32 i = 0; i < n->n_gpus; i++) {
    n->n_full += n->gpu_left[i] >= PLACE_MILLI;
    n->max_left = MAX(n->max_left, n->gpu_left[i]);
  }
}

static guint32 place_class(const place_req *r) {
  return r->milli >= PLACE_MILLI ? r->gpus : 0;
}

void place_node_take(place_node *n, const place_req *r, const guint32 *gpus) {
  n->cpu_left -= r->cpu;
  n->mem_left -= r->mem;
  for (guint32 k = 0; k < r->gpus; k++) {
    g_assert(gpus[k] < n->n_gpus && n->gpu_left[gpus[k]] >= r->milli);
    n->gpu_left[gpus[k]] -= MIN(r->milli, PLACE_MILLI);
  }
  if (r->gpus && n->affinity) n->affinity[MIN(place_class(r), n->n_gpus)]++;
  place_node_refresh(n);
  n->version++;
}

void place_node_give(place_node *n, const place_req *r, const guint32 *gpus) {
  n->cpu_left += r->cpu;
  n->mem_left += r->mem;
  for (guint32 k = 0; k < r->gpus; k++) n->gpu_left[gpus[k]] += MIN(r->milli, PLACE_MILLI);
  if (r->gpus && n->affinity) n->affinity[MIN(place_class(r), n->n_gpus)]--;
  place_node_refresh(n);
  n->version++;
}

int64_t place_node_free_milli(const place_node *n) {
  int64_t s = 0;
  for (guint32 i = 0; i < n->n_gpus; i++) s += n->gpu_left[i];
  return s;
}

/* ---- GPU choices ---- */

static void place_gpus_whole(const place_node *n, const place_req *r, guint32 *out) {
  guint32 k = 0;
  for (guint32 i = 0; i < n->n_gpus && k < r->gpus; i++)
    if (n->gpu_left[i] >= PLACE_MILLI) out[k++] = i;
  g_assert(k == r->gpus);
}

/* Shares on several GPUs (not in the FGD model, where a share is of one GPU): the fitting
 * GPUs in order of left, ascending (worst = FALSE) or descending, first index on ties. */
static void place_gpus_shares(const place_node *n, const place_req *r, gboolean most,
                              guint32 *out) {
  guint32 k = 0;
  gboolean *taken = g_new0(gboolean, n->n_gpus);
  while (k < r->gpus) {
    int pick = -1;
    for (guint32 i = 0; i < n->n_gpus; i++) {
      if (taken[i] || n->gpu_left[i] < r->milli) continue;
      if (pick < 0 || (most ? n->gpu_left[i] > n->gpu_left[pick]
                            : n->gpu_left[i] < n->gpu_left[pick]))
        pick = (int)i;
    }
    g_assert(pick >= 0);
    taken[pick] = TRUE;
    out[k++] = (guint32)pick;
  }
  g_free(taken);
}

void place_gpus_best(const place_ctx *c, const place_node *n, const place_req *r, guint32 *out) {
  if (!r->gpus) return;
  if (r->milli >= PLACE_MILLI) place_gpus_whole(n, r, out);
  else place_gpus_shares(n, r, FALSE, out);
}

void place_gpus_worst(const place_ctx *c, const place_node *n, const place_req *r, guint32 *out) {
  if (!r->gpus) return;
  if (r->milli >= PLACE_MILLI) place_gpus_whole(n, r, out);
  else place_gpus_shares(n, r, TRUE, out);
}

void place_gpus_random(const place_ctx *c, const place_node *n, const place_req *r,
                       guint32 *out) {
  if (!r->gpus) return;
  if (r->milli >= PLACE_MILLI || r->gpus > 1) {
    place_gpus_best(c, n, r, out);
    return;
  }
  guint32 seen = 0;
  for (guint32 i = 0; i < n->n_gpus; i++)
    if (n->gpu_left[i] >= r->milli && gsl_rng_uniform_int(c->rng, ++seen) == 0) out[0] = i;
  g_assert(seen > 0);
}

/* ---- fragmentation ---- */

double place_frag(const place_target *t, const char *model, guint32 n_gpus,
                  const int32_t *gpu_left, int64_t cpu_left, int64_t cpu_cap) {
  int64_t total = 0;
  for (guint32 i = 0; i < n_gpus; i++) total += gpu_left[i];
  if (!total) return 0;
  double frag = 0;
  for (guint k = 0; k < t->items->len; k++) {
    const place_target_item *m = &g_array_index(t->items, place_target_item, k);
    gboolean cpu_ok = !cpu_cap || cpu_left >= m->cpu;
    if (!m->gpus || !cpu_ok || !place_model_ok(m->spec, model)) {
      frag += m->p * (double)total;
      continue;
    }
    guint32 fit = 0;
    int64_t small = 0;
    for (guint32 i = 0; i < n_gpus; i++) {
      if (gpu_left[i] >= m->milli) fit++;
      else small += gpu_left[i];
    }
    frag += m->p * (double)(fit >= m->gpus ? small : total);
  }
  return frag;
}

static gint place_kind_cmp(gconstpointer a, gconstpointer b) {
  const place_target_item *x = a, *y = b;
  if (x->p != y->p) return x->p > y->p ? -1 : 1; /* counts: most popular first */
  /* equal counts: the larger request first (cpu, then milli, gpus, spec) */
  if (x->cpu != y->cpu) return x->cpu > y->cpu ? -1 : 1;
  if (x->milli != y->milli) return x->milli > y->milli ? -1 : 1;
  if (x->gpus != y->gpus) return x->gpus > y->gpus ? -1 : 1;
  return -g_strcmp0(x->spec ? x->spec : "", y->spec ? y->spec : "");
}

place_target *place_target_new(const place_req *reqs, guint n) {
  return place_target_new_counted(reqs, NULL, n);
}

place_target *place_target_new_counted(const place_req *reqs, const double *count, guint n) {
  place_target *t = g_new0(place_target, 1);
  double total = 0;
  GArray *all = g_array_new(FALSE, FALSE, sizeof(place_target_item));
  GHashTable *idx = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < n; i++) {
    const place_req *r = &reqs[i];
    double c = count ? count[i] : 1.0;
    total += c;
    const char *spec = r->spec && *r->spec ? r->spec : NULL;
    char *key = g_strdup_printf("%" G_GINT64_FORMAT "/%d/%u/%s", r->cpu, r->milli, r->gpus,
                                spec ? spec : "");
    gpointer v;
    if (g_hash_table_lookup_extended(idx, key, NULL, &v)) {
      g_array_index(all, place_target_item, GPOINTER_TO_UINT(v)).p += c;
      g_free(key);
      continue;
    }
    place_target_item it = {.cpu = r->cpu, .milli = r->milli, .gpus = r->gpus, .spec = spec,
                            .p = c};
    g_hash_table_insert(idx, key, GUINT_TO_POINTER(all->len));
    g_array_append_val(all, it);
  }
  g_hash_table_unref(idx);
  g_array_sort(all, place_kind_cmp);
  t->kinds_total = all->len;
  double cum = 0, want = PLACE_TARGET_SHARE * total;
  guint keep = 0;
  while (keep < all->len && cum < want) cum += g_array_index(all, place_target_item, keep++).p;
  g_array_set_size(all, keep);
  for (guint k = 0; k < keep; k++) g_array_index(all, place_target_item, k).p /= cum;
  t->items = all;
  return t;
}

void place_target_free(place_target *t) {
  if (!t) return;
  g_array_unref(t->items);
  g_free(t);
}
