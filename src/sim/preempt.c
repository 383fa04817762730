/* preempt.c: which running jobs a waiting job of higher priority evicts (preempt.h), as
 * kube-scheduler's DefaultPreemption plugin selects victims on a node and picks the node.
 * It judges a fit on copies of a node's GPUs with the candidates taken away, through the
 * strategy's gpu_accepts; it changes nothing: sim.c evicts, after the grace period. */
#include "preempt.h"
#include "priority.h"
#include <string.h>

sim_time preempt_grace_ns(const scenario *sc) {
  return sc->priority ? sc->priority->grace_ns : 30 * (sim_time)1000000000;
}

gboolean preempt_checkpoints(const scenario *sc) {
  return sc->priority && sc->priority->checkpoint_on_termination;
}

gboolean preempt_pool_supported(const pool_state *p) {
  scenario_capacity c = p->spec->strategy->capacity;
  return c == SCENARIO_CAPACITY_SLOTS || c == SCENARIO_CAPACITY_SHARES;
}

int32_t preempt_lowest_running(const pool_state *p) {
  int32_t lo = G_MAXINT32;
  for (guint32 g = 0; g < p->n_gpus; g++)
    for (guint32 i = 0; i < p->gpus[g].n_residents; i++) {
      const job_run *r = p->gpus[g].residents[i]->job;
      if (r->spec->priority < lo) lo = r->spec->priority;
    }
  return lo;
}

/* Can every worker of j go onto node n once the tasks of the jobs marked preempt_mark are
 * gone? The node's GPUs are copied without them (vg, res: n_gpus entries and
 * residents' room) and offered to gpu_accepts: distinct GPUs first, then stacked. */
static gboolean fits_without_marked(const pool_state *p, const job_run *j, guint32 n,
                                    gpu_state *vg, task **res) {
  guint32 base = p->node_first[n], ng = p->node_gpus[n], need = j->spec->gpus;
  int64_t cpu = p->node_cpu_left ? p->node_cpu_left[n] : INT64_MAX;
  int64_t mem = p->node_mem_left ? p->node_mem_left[n] : INT64_MAX;
  task **cur = res;
  for (guint32 l = 0; l < ng; l++) {
    const gpu_state *g = &p->gpus[base + l].view;
    vg[l] = *g;
    vg[l].residents = cur;
    vg[l].n_residents = 0;
    for (guint32 i = 0; i < g->n_residents; i++) {
      task *t = g->residents[i];
      if (!t->job->preempt_mark) {
        cur[vg[l].n_residents++] = t;
        continue;
      }
      const job_spec *vs = t->job->spec;
      vg[l].slots_used--;
      vg[l].mem_used -= t->mem_bytes;
      if (p->ops->worker_share) vg[l].share_used -= p->ops->worker_share(vs);
      if (cpu != INT64_MAX) cpu += vs->cpu_milli;
      if (mem != INT64_MAX) mem += vs->memory_mib;
    }
    cur += vg[l].n_residents;
  }
  const job_spec *js = j->spec;
  if ((js->cpu_milli && cpu != INT64_MAX && cpu < js->cpu_milli * (int64_t)need) ||
      (js->memory_mib && mem != INT64_MAX && mem < js->memory_mib * (int64_t)need))
    return FALSE;
  gpu_state **taken = g_newa(gpu_state *, need);
  guint32 got = 0;
  for (guint32 cap = 1; cap <= p->slots_per_gpu && got < need; cap++) {
    guint32 before = got;
    for (guint32 l = 0; l < ng && got < need; l++) {
      guint32 here = 0, slot;
      for (guint32 k = 0; k < got; k++) here += taken[k] == &vg[l];
      while (got < need && here < cap &&
             p->ops->gpu_accepts(&p->share_view, &vg[l], &j->share_view,
                                 (gpu_state *const *)taken, got, &slot)) {
        taken[got++] = &vg[l];
        here++;
      }
    }
    if (got == before && cap > 1) break;
  }
  return got == need;
}

/* Most important first: priority desc, then the earliest start, then the trace row. */
static gint more_important(gconstpointer a, gconstpointer b) {
  const job_run *x = *(job_run *const *)a, *y = *(job_run *const *)b;
  if (x->spec->priority != y->spec->priority) return x->spec->priority > y->spec->priority ? -1 : 1;
  if (x->attempt_start != y->attempt_start) return x->attempt_start < y->attempt_start ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* How a node's victims rank (kube-scheduler's pickOneNodeForPreemption, without PDBs). */
typedef struct node_cost {
  int32_t top;        /* the highest priority among the victims */
  int64_t sum;        /* sum of (priority + 2^31) */
  guint count;
  sim_time top_start; /* the earliest start among the victims of priority top */
} node_cost;

static gboolean cost_better(const node_cost *a, const node_cost *b) {
  if (a->top != b->top) return a->top < b->top;
  if (a->sum != b->sum) return a->sum < b->sum;
  if (a->count != b->count) return a->count < b->count;
  return a->top_start > b->top_start;
}

/* The candidates of node n (lower priority than j, not terminating), once each. */
static void node_candidates(const pool_state *p, const job_run *j, guint32 n, GPtrArray *out) {
  guint32 base = p->node_first[n];
  for (guint32 l = 0; l < p->node_gpus[n]; l++) {
    const gpu_state *g = &p->gpus[base + l].view;
    for (guint32 i = 0; i < g->n_residents; i++) {
      job_run *r = g->residents[i]->job;
      if (r->preempt_mark || r->terminating || r->spec->priority >= j->spec->priority) continue;
      r->preempt_mark = TRUE;
      g_ptr_array_add(out, r);
    }
  }
}

/* Victims on node n into out (the candidates reprieved most important first); FALSE when j
 * does not fit even with every candidate gone. Leaves no mark set. */
static gboolean node_victims(const pool_state *p, const job_run *j, guint32 n, gpu_state *vg,
                             task **res, GPtrArray *out, node_cost *cost) {
  g_ptr_array_set_size(out, 0);
  GPtrArray *cand = g_ptr_array_new();
  node_candidates(p, j, n, cand);
  gboolean ok = cand->len && fits_without_marked(p, j, n, vg, res);
  if (ok) {
    g_ptr_array_sort(cand, more_important);
    for (guint i = 0; i < cand->len; i++) {
      job_run *c = g_ptr_array_index(cand, i);
      c->preempt_mark = FALSE; /* put back: reprieved while j still fits */
      if (fits_without_marked(p, j, n, vg, res)) continue;
      c->preempt_mark = TRUE;
      g_ptr_array_add(out, c);
    }
    *cost = (node_cost){.top = G_MININT32, .top_start = SIM_TIME_NEVER};
    for (guint i = 0; i < out->len; i++) {
      const job_run *v = g_ptr_array_index(out, i);
      int32_t pr = v->spec->priority;
      cost->sum += (int64_t)pr + 2147483648LL;
      cost->count++;
      if (pr > cost->top) {
        cost->top = pr;
        cost->top_start = v->attempt_start;
      } else if (pr == cost->top && v->attempt_start < cost->top_start) {
        cost->top_start = v->attempt_start;
      }
    }
  }
  for (guint i = 0; i < cand->len; i++) ((job_run *)g_ptr_array_index(cand, i))->preempt_mark = FALSE;
  g_ptr_array_unref(cand);
  return ok && out->len > 0;
}

gboolean preempt_select(pool_state *p, const job_run *j, GPtrArray *victims) {
  if (j->spec->gpus > p->max_node_gpus * p->slots_per_gpu) return FALSE;
  guint32 max_res = 0;
  for (guint32 g = 0; g < p->n_gpus; g++) max_res += p->gpus[g].n_residents;
  gpu_state *vg = g_aligned_alloc(p->max_node_gpus, sizeof(gpu_state), 64);
  task **res = g_new(task *, MAX(1u, max_res));
  GPtrArray *best = g_ptr_array_new(), *here = g_ptr_array_new();
  node_cost best_cost = {0}, cost;
  for (guint32 n = 0; n < p->n_nodes; n++) {
    if (!node_victims(p, j, n, vg, res, here, &cost)) continue;
    if (best->len && !cost_better(&cost, &best_cost)) continue;
    GPtrArray *t = best;
    best = here;
    here = t;
    best_cost = cost;
  }
  for (guint i = 0; i < best->len; i++) g_ptr_array_add(victims, g_ptr_array_index(best, i));
  gboolean found = best->len > 0;
  g_ptr_array_unref(best);
  g_ptr_array_unref(here);
  g_free(res);
  g_aligned_free(vg);
  return found;
}
