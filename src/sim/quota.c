/* quota.c: Kueue's quota arithmetic of a run (quota.h): subtree quotas and kept quotas of the
 * ClusterQueue/Cohort tree computed once, usage bubbled up the tree as Kueue's resource nodes
 * do, and what a ClusterQueue may admit now (subtree and kept quotas: kueue.c's tables). Which job is admitted when is sim.c's. */
#include "quota.h"

struct quota_state {
  const scenario_kueue *k;
  guint n_nodes, n_fl;
  const int64_t *subtree, *kept; /* [node * n_fl + f]: the objects' (kueue.h) */
  int64_t *usage;
};

quota_state *quota_new(const scenario_kueue *k) {
  quota_state *q = g_new0(quota_state, 1);
  q->k = k;
  q->n_nodes = k->nodes->len;
  q->n_fl = MAX(k->flavors->len, 1u);
  gsize cells = (gsize)q->n_nodes * q->n_fl;
  q->subtree = k->subtree;
  q->kept = k->kept;
  q->usage = g_new0(int64_t, cells);
  return q;
}

void quota_free(quota_state *q) {
  if (!q) return;
  g_free(q->usage);
  g_free(q);
}

int64_t quota_usage(const quota_state *q, int i, int f) { return q->usage[(gsize)i * q->n_fl + f]; }

int64_t quota_available(const quota_state *q, int i, int f) {
  const kueue_node *n = &g_array_index(q->k->nodes, kueue_node, i);
  gsize c = (gsize)i * q->n_fl + f;
  if (n->parent < 0) return q->subtree[c] - q->usage[c];
  int64_t local = MAX(0, q->kept[c] - q->usage[c]);
  int64_t parent = quota_available(q, n->parent, f);
  int64_t limit = n->quota[f].borrow;
  if (limit != KUEUE_NO_LIMIT) {
    int64_t stored = q->subtree[c] - q->kept[c], used = MAX(0, q->usage[c] - q->kept[c]);
    parent = MIN(parent, stored - used + limit);
  }
  return local + parent;
}

int64_t quota_add(quota_state *q, int cq, int f, int64_t n) {
  gsize c0 = (gsize)cq * q->n_fl + f;
  int64_t nominal = g_array_index(q->k->nodes, kueue_node, cq).quota[f].nominal;
  int64_t borrowed = n > 0 ? MAX(0, q->usage[c0] + n - nominal) - MAX(0, q->usage[c0] - nominal) : 0;
  for (int i = cq; i >= 0 && n != 0;) {
    gsize c = (gsize)i * q->n_fl + f;
    int64_t before = MAX(0, q->usage[c] - q->kept[c]);
    q->usage[c] += n;
    n = MAX(0, q->usage[c] - q->kept[c]) - before; /* what the parent sees change */
    i = g_array_index(q->k->nodes, kueue_node, i).parent;
  }
  return borrowed;
}
