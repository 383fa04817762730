/* quota.c: Kueue's quota arithmetic of a run (quota.h): subtree quotas and kept quotas of the
 * ClusterQueue/Cohort tree computed once, usage bubbled up the tree as Kueue's resource nodes
 * do, what a ClusterQueue may admit now (subtree and kept quotas: kueue.c's tables), fair
 * sharing's dominant resource share, and the victims of Kueue's preemption (reclaiming lent
 * quota). Which job is admitted or evicted when is sim.c's. */
#include "quota.h"
#include "cluster.h"
#include "scenario.h"

static const scenario_model_section quota_section_fair = {"fairSharing", "{enable: true}"};
const scenario_model_key quota_key_fair_sharing = {
    {"fairSharing.enable", "false", "Kueue's fair sharing: a cohort's borrowers admitted by "
     "weighted dominant resource share", NULL},
    SCENARIO_MODEL_ONOFF, NULL, 0, 1, FALSE, FALSE, 0, offsetof(scenario, kueue_fair_sharing),
    NULL, &quota_section_fair};

struct quota_state {
  const scenario_kueue *k;
  guint n_nodes, n_fl;
  const int64_t *subtree, *kept; /* [node * n_fl + f]: the objects' (kueue.h) */
  int64_t *usage;
  int *root;                     /* per node: the root of its tree (itself for a root) */
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
  q->root = g_new(int, MAX(q->n_nodes, 1u));
  for (guint i = 0; i < q->n_nodes; i++) { /* the tree has no cycle (kueue.c refuses one) */
    int r = (int)i;
    while (g_array_index(k->nodes, kueue_node, r).parent >= 0)
      r = g_array_index(k->nodes, kueue_node, r).parent;
    q->root[i] = r;
  }
  return q;
}

void quota_free(quota_state *q) {
  if (!q) return;
  g_free(q->usage);
  g_free(q->root);
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

static const kueue_node *qnode(const quota_state *q, int i) {
  return &g_array_index(q->k->nodes, kueue_node, i);
}

gboolean quota_would_borrow(const quota_state *q, int cq, int f, int64_t n) {
  return quota_usage(q, cq, f) + n > qnode(q, cq)->quota[f].nominal;
}

int64_t quota_share(const quota_state *q, int cq, int f, int64_t n) {
  const kueue_node *x = qnode(q, cq);
  int64_t b = quota_usage(q, cq, f) + n - x->quota[f].nominal;
  if (x->parent < 0 || b <= 0) return 0;
  int64_t w = (int64_t)(x->weight * 1000 + 0.5);
  if (w <= 0) return INT64_MAX;
  int64_t lendable = q->subtree[(gsize)q->root[cq] * q->n_fl + f];
  if (lendable <= 0) return 0;
  return b * 1000 / lendable * 1000 / w;
}

/* ---- preemption (Kueue's classical preemption, pkg/scheduler/preemption) ---- */

typedef struct qv_ctx {
  quota_state *q;
  int f, cq;                 /* the flavour, the preemptor's ClusterQueue */
  int64_t need;              /* its GPUs */
} qv_ctx;

/* Does the preemptor fit now (within its nominal quota unless borrow)? */
static gboolean qv_fits(const qv_ctx *c, gboolean borrow) {
  if (!borrow && quota_would_borrow(c->q, c->cq, c->f, c->need)) return FALSE;
  return quota_available(c->q, c->cq, c->f) >= c->need;
}

static void qv_remove(const qv_ctx *c, const job_run *v, int sign) {
  quota_add(c->q, v->cq, c->f, sign * (int64_t)v->n_tasks);
}

/* The end of a choice of the n targets in out, removed from the usage: when the preemptor
 * fits, each is put back, from the last but one, where it still fits (Kueue's
 * fillBackWorkloads); then the usage is restored. How many targets remain (0 unless fit). */
static guint qv_finish(const qv_ctx *c, const job_run **out, guint n, gboolean fit,
                       gboolean borrow) {
  if (fit)
    for (guint i = n >= 2 ? n - 1 : 0; i-- > 0;) {
      qv_remove(c, out[i], 1);
      if (qv_fits(c, borrow)) out[i] = out[--n];
      else qv_remove(c, out[i], -1);
    }
  for (guint i = 0; i < n; i++) qv_remove(c, out[i], 1);
  return fit ? n : 0;
}

/* Kueue's minimalPreemptions: candidates (in order) removed while their ClusterQueue is
 * still borrowing (the preemptor's own always) until the preemptor fits, then put back
 * from the last but one while it still fits. *threshold: borrowWithinCohort's, a victim of
 * another queue at or above it forbids borrowing. The targets into out; how many. */
static guint qv_minimal(const qv_ctx *c, GPtrArray *cand, gboolean borrow,
                        const int32_t *threshold, const job_run **out) {
  guint n = 0;
  gboolean fit = FALSE;
  for (guint i = 0; i < cand->len && !fit; i++) {
    const job_run *v = g_ptr_array_index(cand, i);
    gboolean same = v->cq == c->cq;
    if (!same && !quota_would_borrow(c->q, v->cq, c->f, 0)) continue;
    if (!same && threshold && v->spec->priority >= *threshold) borrow = FALSE;
    qv_remove(c, v, -1);
    out[n++] = v;
    fit = qv_fits(c, borrow);
  }
  return qv_finish(c, out, n, fit, borrow);
}

/* Kueue's candidate order: other ClusterQueues' first, lower priority, the most recently
 * admitted, then the trace row. */
static gint qv_order(gconstpointer a, gconstpointer b, gpointer data) {
  const job_run *x = *(job_run *const *)a, *y = *(job_run *const *)b;
  int cq = GPOINTER_TO_INT(data);
  if ((x->cq == cq) != (y->cq == cq)) return x->cq == cq ? 1 : -1;
  if (x->spec->priority != y->spec->priority) return x->spec->priority < y->spec->priority ? -1 : 1;
  if (x->attempt_start != y->attempt_start) return x->attempt_start > y->attempt_start ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* Is running job v a candidate for queued j (Kueue's findCandidates)? */
static gboolean qv_candidate(const quota_state *q, int f, const job_run *j, const job_run *v,
                             int root) {
  const kueue_node *n = qnode(q, j->cq);
  int32_t pj = j->spec->priority, pv = v->spec->priority;
  if (v->cq == j->cq) {
    if (n->within == KUEUE_PREEMPT_LOWER_PRIORITY) return pv < pj;
    if (n->within != KUEUE_PREEMPT_LOWER_OR_NEWER_EQUAL) return FALSE;
    return pv < pj || (pv == pj && (j->spec->submit_ns < v->spec->submit_ns ||
                                    (j->spec->submit_ns == v->spec->submit_ns && j->index < v->index)));
  }
  if (n->reclaim == KUEUE_PREEMPT_NEVER || root < 0) return FALSE;
  if (q->root[v->cq] != root || !quota_would_borrow(q, v->cq, f, 0)) return FALSE;
  return n->reclaim == KUEUE_PREEMPT_ANY || pv < pj;
}

/* A ClusterQueue's candidates in fair sharing's preemption: cand[first .. end) in order,
 * next the first not yet taken or passed over, share its current dominant share. */
typedef struct qv_group {
  int cq;
  guint first, end, next;
  int64_t share;
  gboolean live;
} qv_group;

/* The candidates grouped by queue (each group in candidate order; cand re-sorted so). */
static guint qv_groups(const qv_ctx *c, GPtrArray *cand, qv_group *g) {
  guint n = 0, k = 0;
  const job_run **sorted = g_new(const job_run *, MAX(cand->len, 1u));
  for (guint i = 0; i < cand->len; i++) {
    int cq = ((job_run *)g_ptr_array_index(cand, i))->cq;
    gboolean seen = FALSE;
    for (guint x = 0; x < n && !seen; x++) seen = g[x].cq == cq;
    if (seen) continue;
    g[n] = (qv_group){.cq = cq, .first = k, .share = quota_share(c->q, cq, c->f, 0), .live = TRUE};
    for (guint x = i; x < cand->len; x++)
      if (((job_run *)g_ptr_array_index(cand, x))->cq == cq) sorted[k++] = g_ptr_array_index(cand, x);
    g[n].end = k;
    g[n].next = g[n].first;
    n++;
  }
  for (guint i = 0; i < cand->len; i++) g_ptr_array_index(cand, i) = (gpointer)sorted[i];
  g_free(sorted);
  return n;
}

/* The live group of the highest share (the first of a tie), NULL when none. */
static qv_group *qv_top(qv_group *g, guint n) {
  qv_group *best = NULL;
  for (guint i = 0; i < n; i++)
    if (g[i].live && (!best || g[i].share > best->share)) best = &g[i];
  return best;
}

/* Kueue's fairPreemptions with its default strategies: the queue of the highest share
 * first; its own queue's next candidate always; another's first candidate whose removal
 * leaves that queue's share at least the preemptor's queue's share with the job
 * (LessThanOrEqualToFinalShare), or below *threshold; then, of the candidates passed over,
 * each queue's first while the preemptor's share with the job is below that queue's
 * (LessThanInitialShare). Targets into out; how many (0: it does not fit). */
static guint qv_fair(const qv_ctx *c, GPtrArray *cand, const int32_t *threshold,
                     const job_run **out) {
  qv_group *g = g_new(qv_group, MAX(cand->len, 1u));
  guint ng = qv_groups(c, cand, g), n = 0;
  const job_run **retry = g_new(const job_run *, MAX(cand->len, 1u));
  guint nr = 0;
  gboolean fit = FALSE;
  int64_t mine = quota_share(c->q, c->cq, c->f, c->need);
  for (qv_group *x; !fit && (x = qv_top(g, ng));) {
    gboolean taken = FALSE;
    for (guint i = x->next; i < x->end && !taken; i++) {
      const job_run *v = g_ptr_array_index(cand, i);
      int64_t after = quota_share(c->q, x->cq, c->f, -(int64_t)v->n_tasks);
      gboolean below = threshold && v->spec->priority < *threshold;
      if (x->cq != c->cq && !below && mine > after) {
        retry[nr++] = v;
        continue;
      }
      qv_remove(c, v, -1);
      out[n++] = v;
      fit = qv_fits(c, TRUE);
      x->next = i + 1;
      x->share = x->cq == c->cq ? quota_share(c->q, x->cq, c->f, 0) : after;
      if (x->cq == c->cq) mine = quota_share(c->q, c->cq, c->f, c->need);
      taken = TRUE;
    }
    x->live = taken && x->next < x->end && (x->cq == c->cq || quota_would_borrow(c->q, x->cq, c->f, 0));
  }
  guint nf = 0; /* LessThanInitialShare: each queue's first passed over, by share */
  for (guint i = 0; i < nr; i++) {
    gboolean first = TRUE;
    for (guint k = 0; k < nf && first; k++) first = retry[k]->cq != retry[i]->cq;
    if (first) retry[nf++] = retry[i];
  }
  int64_t *share = g_new(int64_t, MAX(nf, 1u));
  for (guint i = 0; i < nf; i++) share[i] = quota_share(c->q, retry[i]->cq, c->f, 0);
  for (guint left = nf; left > 0 && !fit; left--) {
    guint b = G_MAXUINT;
    for (guint i = 0; i < nf; i++)
      if (retry[i] && (b == G_MAXUINT || share[i] > share[b])) b = i;
    if (mine < share[b]) {
      qv_remove(c, retry[b], -1);
      out[n++] = retry[b];
      fit = qv_fits(c, TRUE);
    }
    retry[b] = NULL;
  }
  g_free(share);
  g_free(retry);
  g_free(g);
  return qv_finish(c, out, n, fit, TRUE);
}

/* Keeps the candidates of queue cq, and the others below priority below. */
static void qv_keep(GPtrArray *cand, int cq, int64_t below) {
  guint k = 0;
  for (guint i = 0; i < cand->len; i++) {
    job_run *v = g_ptr_array_index(cand, i);
    if (v->cq == cq || v->spec->priority < below) g_ptr_array_index(cand, k++) = v;
  }
  g_ptr_array_set_size(cand, k);
}

/* Kueue's GetTargets on the sorted candidates: only its own queue's (borrowing allowed);
 * with borrowWithinCohort, all (others below its threshold unless it is under nominal);
 * else, under its nominal quota, the cohort's without borrowing, then its own queue's. */
static guint qv_targets(const qv_ctx *c, const kueue_node *n, const job_run *j, GPtrArray *cand,
                        gboolean fair, const job_run **out) {
  guint same = 0;
  for (guint i = 0; i < cand->len; i++) same += ((job_run *)g_ptr_array_index(cand, i))->cq == c->cq;
  gboolean under = quota_usage(c->q, c->cq, c->f) < n->quota[c->f].nominal;
  if (same == cand->len) return qv_minimal(c, cand, TRUE, NULL, out);
  int32_t th = j->spec->priority;
  if (n->borrow_max_set && n->borrow_max < th) th = n->borrow_max + 1;
  if (fair) return qv_fair(c, cand, n->borrow_within != KUEUE_PREEMPT_NEVER ? &th : NULL, out);
  if (n->borrow_within != KUEUE_PREEMPT_NEVER) {
    if (!under) qv_keep(cand, c->cq, th);
    return qv_minimal(c, cand, TRUE, &th, out);
  }
  guint k = under ? qv_minimal(c, cand, FALSE, NULL, out) : 0;
  if (k) return k;
  qv_keep(cand, c->cq, G_MININT64);
  return qv_minimal(c, cand, TRUE, NULL, out);
}

quota_running_set *quota_running_new(const quota_state *q) {
  quota_running_set *r = g_new0(quota_running_set, 1);
  r->jobs = g_ptr_array_new();
  r->min_priority = g_new(int32_t, MAX(q->n_nodes, 1u));
  return r;
}

void quota_running_free(quota_running_set *r) {
  if (!r) return;
  g_ptr_array_unref(r->jobs);
  g_free(r->min_priority);
  g_free(r);
}

void quota_running(const quota_state *q, const pool_state *p, quota_running_set *r) {
  GPtrArray *running = r->jobs;
  g_ptr_array_set_size(running, 0);
  for (guint i = 0; i < q->n_nodes; i++) r->min_priority[i] = G_MAXINT32;
  for (guint32 g = 0; g < p->n_gpus; g++)
    for (guint32 i = 0; i < p->gpus[g].n_residents; i++) {
      job_run *v = p->gpus[g].residents[i]->job;
      if (v->preempt_mark || v->cq < 0) continue;
      v->preempt_mark = TRUE;
      g_ptr_array_add(running, v);
      if (!v->terminating) r->min_priority[v->cq] = MIN(r->min_priority[v->cq], v->spec->priority);
    }
  for (guint i = 0; i < running->len; i++) ((job_run *)g_ptr_array_index(running, i))->preempt_mark = FALSE;
}

/* Can j have a candidate at all (qv_candidate, as qv_targets keeps them; classic
 * preemption)? Its own queue's need one below its priority (or equal, newer); another
 * queue's, that some other ClusterQueue of its root cohort borrows, and (but with
 * borrowWithinCohort) that j's queue is under its nominal quota. A necessary condition
 * only: FALSE spares the scan of the running jobs for a job that would find none. */
static gboolean qv_possible(const quota_state *q, const quota_running_set *r, int f,
                            const job_run *j, int root) {
  const kueue_node *n = qnode(q, j->cq);
  int32_t pj = j->spec->priority, low = r->min_priority[j->cq];
  if ((n->within == KUEUE_PREEMPT_LOWER_PRIORITY && low < pj) ||
      (n->within == KUEUE_PREEMPT_LOWER_OR_NEWER_EQUAL && low <= pj))
    return TRUE;
  if (n->reclaim == KUEUE_PREEMPT_NEVER || root < 0) return FALSE;
  if (n->borrow_within == KUEUE_PREEMPT_NEVER && quota_usage(q, j->cq, f) >= n->quota[f].nominal)
    return FALSE;
  for (guint i = 0; i < q->n_nodes; i++) {
    if ((int)i == j->cq || r->min_priority[i] == G_MAXINT32) continue;
    if (q->root[i] == root && quota_would_borrow(q, (int)i, f, 0)) return TRUE;
  }
  return FALSE;
}

gboolean quota_victims_by_class(const quota_state *q, const job_run *j) {
  return qnode(q, j->cq)->within != KUEUE_PREEMPT_LOWER_OR_NEWER_EQUAL;
}

guint quota_victims(quota_state *q, const quota_running_set *running, int f, const job_run *j,
                    gboolean fair, gboolean quick, GPtrArray *victims) {
  const kueue_node *n = qnode(q, j->cq);
  int root = n->parent >= 0 ? q->root[j->cq] : -1; /* -1: no cohort */
  const GPtrArray *all = running->jobs;
  GPtrArray *cand = g_ptr_array_new();
  qv_ctx c = {.q = q, .f = f, .cq = j->cq, .need = j->spec->gpus};
  for (guint i = 0; i < all->len; i++) { /* those terminating are gone already */
    job_run *v = g_ptr_array_index(all, i);
    if (v->terminating) qv_remove(&c, v, -1);
  }
  gboolean any = fair || !quick || qv_possible(q, running, f, j, root); /* else no scan */
  for (guint i = 0; any && i < all->len; i++) {
    job_run *v = g_ptr_array_index(all, i);
    if (!v->terminating && qv_candidate(q, f, j, v, root)) g_ptr_array_add(cand, v);
  }
  guint k = 0;
  if (cand->len) {
    const job_run **out = g_new(const job_run *, cand->len);
    g_ptr_array_sort_with_data(cand, qv_order, GINT_TO_POINTER(j->cq));
    k = qv_targets(&c, n, j, cand, fair, out);
    for (guint i = 0; i < k; i++) g_ptr_array_add(victims, (gpointer)out[i]);
    g_free(out);
  }
  for (guint i = 0; i < all->len; i++) {
    job_run *v = g_ptr_array_index(all, i);
    if (v->terminating) qv_remove(&c, v, 1);
  }
  g_ptr_array_unref(cand);
  return k;
}
