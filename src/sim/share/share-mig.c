/* share-mig.c: NVIDIA MIG. Each GPU carries a layout of GPU instances with their own SMs
 * and memory; a worker goes on the smallest free instance whose memory holds it (the
 * device plugin's mixed strategy), runs at its instance's SM share untouched by the other
 * instances, fails alone when it outgrows the instance, and may share the instance with
 * time-sliced neighbours, or MPS clients (instance_sharing: mps), up to its profile's
 * replicas (pool_mig_replicas). On demand, a GPU is drained, taken down for
 * reconfigure_time and brought back with another allowed layout (docs/models.md, "MIG").
 * GPU i of every node may start with a layout of its own (pool_spec.gpu_layouts; MIG off:
 * one whole-card instance). It does not model CI subdivision. Exports share_mig_ops only. */
#include "share.h"
#include <math.h>
#include <stdio.h>
#include <string.h>


/* A waiting job a reconfiguration was started (or joined) for, and how many of its
 * workers the new layout is counted on to hold. */
typedef struct mig_claim {
  const share_job *job;
  guint32 workers;
} mig_claim;

/* One layout a GPU of the pool may have: the initial one and the allowed targets. */
typedef struct mig_shape {
  mig_layout layout;
  char *text;                           /* canonical, "3g.40gb x2" */
  int64_t mem[CATALOG_MAX_INSTANCES];   /* usable bytes per instance */
  double bw[CATALOG_MAX_INSTANCES];     /* share of the card's memory bandwidth */
  guint32 sms[CATALOG_MAX_INSTANCES];
  guint32 slices[CATALOG_MAX_INSTANCES];
  guint32 rep[CATALOG_MAX_INSTANCES];   /* time-sliced replicas of each instance */
  guint32 slots;                        /* workers the layout holds: the sum of rep */
  int64_t largest;
  gboolean target;                      /* listed in `layouts` */
} mig_shape;

typedef struct mig_gpu {
  guint32 shape;                        /* index into mig_pool.shapes */
  guint32 target;                       /* while draining or down */
  sim_time drain_start;
  GArray *claims;                       /* mig_claim, while draining or down */
} mig_gpu;

typedef struct mig_pool {
  GArray *shapes;                       /* mig_shape; [0] is the initial layout */
  guint32 *up_with;                     /* GPUs up per shape */
  GPtrArray *busy;                      /* gpu_state* draining or down, in start order */
  GHashTable *claimed;                  /* share_job* -> claims it has on busy GPUs */
  GArray *sizes;                        /* int64_t: distinct instance memories, ascending */
  mig_gpu *gpus;
} mig_pool;

/* A card with MIG off (POOL_MIG_OFF) is one instance: the whole card. */
static gboolean mig_off(const mig_layout *l) {
  return l->n == 1 && l->inst[0].profile == POOL_MIG_OFF;
}

static int64_t inst_mem(const gpu_model *m, const mig_layout *l, guint i) {
  if (l->inst[i].profile == POOL_MIG_OFF) return m->mem_bytes;
  return catalog_profile_mem_bytes(&m->profiles[l->inst[i].profile]);
}

static int64_t layout_largest(const gpu_model *m, const mig_layout *l) {
  int64_t most = 0;
  for (guint i = 0; i < l->n; i++) most = MAX(most, inst_mem(m, l, i));
  return most;
}

/* "3g.40gb x2", or "MIG off" for a whole card. Owned. */
static char *layout_text(const gpu_model *m, const mig_layout *l) {
  return mig_off(l) ? g_strdup("MIG off") : catalog_layout_to_string(m, l);
}

/* Workers of mem bytes l holds: the replicas of its instances whose memory holds them. */
static guint32 layout_room(const pool_spec *p, const mig_layout *l, int64_t mem) {
  guint32 n = 0;
  for (guint i = 0; i < l->n; i++)
    if (inst_mem(p->gpu, l, i) >= mem) n += pool_mig_replicas(p, l->inst[i].profile);
  return n;
}

/* The layouts a GPU of the pool may have: the initial ones (one, or one per GPU index of a
 * node), and with on-demand reconfiguration the allowed targets. i < n_initial: initial. */
static guint n_initial(const pool_spec *p) {
  return p->gpu_layouts ? p->gpu_layouts->len : 1;
}
static guint n_usable(const pool_spec *p) {
  return n_initial(p) + (p->reconfigure == RECONFIGURE_ON_DEMAND ? p->layouts->len : 0);
}
static const mig_layout *usable(const pool_spec *p, guint i) {
  if (i < n_initial(p))
    return p->gpu_layouts ? &g_array_index(p->gpu_layouts, mig_layout, i) : &p->layout;
  return &g_array_index(p->layouts, mig_layout, i - n_initial(p));
}

/* Every worker a GPU can hold under any usable layout: the size of cluster.c's free-slot
 * buckets. Each GPU's capacity is then set to its current layout's instances x replicas
 * (share_gpu_set_capacity; 0 while draining or down), so the free counts are exact for a
 * job that fits the smallest instance and an upper bound for others; gpu_accepts does the
 * real check. */
static guint32 mig_slots(const pool_spec *p) {
  guint32 most = 1;
  for (guint i = 0; i < n_usable(p); i++) most = MAX(most, layout_room(p, usable(p, i), 0));
  return most;
}

/* "1g.10gb x7, 3g.40gb x2": the usable layouts, each once. Owned. */
static char *usable_list(const pool_spec *p) {
  GPtrArray *seen = g_ptr_array_new_with_free_func(g_free);
  GString *s = g_string_new(NULL);
  for (guint i = 0; i < n_usable(p); i++) {
    char *t = layout_text(p->gpu, usable(p, i));
    if (g_ptr_array_find_with_equal_func(seen, t, g_str_equal, NULL)) {
      g_free(t);
      continue;
    }
    g_string_append_printf(s, "%s%s", seen->len ? ", " : "", t);
    g_ptr_array_add(seen, t);
  }
  g_ptr_array_unref(seen);
  return g_string_free(s, FALSE);
}

/* Best fit of l for a worker of mem bytes: the memory of its smallest instance that holds
 * the worker (INT64_MAX if none) and how many such workers l holds (layout_room). */
static void layout_fit(const pool_spec *p, const mig_layout *l, int64_t mem, int64_t *fit,
                       guint32 *holders) {
  *fit = INT64_MAX;
  *holders = layout_room(p, l, mem);
  for (guint i = 0; i < l->n; i++) {
    int64_t b = inst_mem(p->gpu, l, i);
    if (b >= mem && b < *fit) *fit = b;
  }
}

/* Replicas of the smallest instance of any usable layout that holds mem bytes (the MIG
 * resource such a worker asks for); 1 when none holds it. */
static guint32 fit_replicas(const pool_spec *p, int64_t mem) {
  int64_t best = INT64_MAX;
  guint32 rep = 1;
  for (guint u = 0; u < n_usable(p); u++) {
    const mig_layout *l = usable(p, u);
    for (guint i = 0; i < l->n; i++) {
      int64_t b = inst_mem(p->gpu, l, i);
      if (b >= mem && b < best) {
        best = b;
        rep = pool_mig_replicas(p, l->inst[i].profile);
      }
    }
  }
  return rep;
}

/* The reconfiguration target rule (mig_on_unplaced): the smallest holding instance wins,
 * then more holding instances; earlier candidates win ties. */
static gboolean fit_better(int64_t fit, guint32 n, int64_t best_fit, guint32 best_n) {
  return fit < best_fit || (fit == best_fit && n > best_n);
}

/* Workers of mem bytes a GPU starting with layout init can take in the layouts this job
 * may ever see: init if it holds them (a reconfiguration is never started for them then),
 * else the target a reconfiguration would choose (0 with reconfigure: never). */
static guint32 per_gpu_capacity(const pool_spec *p, const mig_layout *init, int64_t mem) {
  guint32 n = layout_room(p, init, mem);
  if (n || p->reconfigure != RECONFIGURE_ON_DEMAND) return n;
  int64_t best_fit = INT64_MAX;
  guint32 best_n = 0;
  for (guint i = 0; i < p->layouts->len; i++) {
    int64_t fit;
    guint32 h;
    layout_fit(p, &g_array_index(p->layouts, mig_layout, i), mem, &fit, &h);
    if (h && (!best_n || fit_better(fit, h, best_fit, best_n))) {
      best_fit = fit;
      best_n = h;
    }
  }
  return best_n;
}

/* GPUs of the pool with index k in their node (node groups may have fewer GPUs a node). */
static guint64 gpus_at(const pool_spec *p, guint k) {
  if (!p->node_groups) return k < p->gpus_per_node ? p->nodes : 0;
  guint64 n = 0;
  for (guint i = 0; i < p->node_groups->len; i++) {
    const pool_node_group *g = &g_array_index(p->node_groups, pool_node_group, i);
    if (k < g->gpus_per_node) n += g->nodes;
  }
  return n;
}

/* Workers of mem bytes the pool's GPUs can hold at most (per_gpu_capacity over its GPUs). */
static guint64 pool_room(const pool_spec *p, int64_t mem) {
  if (!p->gpu_layouts) return (guint64)per_gpu_capacity(p, &p->layout, mem) * pool_gpus(p);
  guint64 n = 0;
  for (guint k = 0; k < p->gpu_layouts->len; k++)
    n += per_gpu_capacity(p, &g_array_index(p->gpu_layouts, mig_layout, k), mem) * gpus_at(p, k);
  return n;
}

static gboolean mig_can_ever_fit(const pool_spec *p, const job_spec *j, char **reason) {
  const gpu_model *m = p->gpu;
  guint32 rep = fit_replicas(p, j->mem_bytes);
  if (p->fail_requests_greater_than_one && rep > 1 && j->gpus > 1) {
    *reason = g_strdup_printf("asks for %u shared MIG devices (%u replicas each) and pool '%s' "
                              "sets failRequestsGreaterThanOne (the device plugin rejects it: "
                              "UnexpectedAdmissionError)", j->gpus, rep, p->name);
    return FALSE;
  }
  int64_t largest = 0;
  for (guint i = 0; i < n_usable(p); i++)
    largest = MAX(largest, layout_largest(m, usable(p, i)));
  gboolean on_demand = p->reconfigure == RECONFIGURE_ON_DEMAND && p->layouts->len;
  if (j->mem_bytes > largest) {
    g_autofree char *list = usable_list(p);
    if (on_demand)
      *reason = g_strdup_printf("needs %.2f GB per worker; the largest MIG instance of any layout "
                                "pool '%s' may take (%s) holds %.2f GB",
                                UTIL_GB(j->mem_bytes), p->name, list, UTIL_GB(largest));
    else
      *reason = g_strdup_printf("needs %.2f GB per worker; the largest MIG instance of pool '%s' "
                                "(layout %s; reconfigure: never) holds %.2f GB",
                                UTIL_GB(j->mem_bytes), p->name, list, UTIL_GB(largest));
    return FALSE;
  }
  guint64 most = pool_room(p, j->mem_bytes);
  if (j->gpus > most) {
    *reason = g_strdup_printf("needs %u workers of %.2f GB; pool '%s' has room for at most %"
                              G_GUINT64_FORMAT " MIG %s that large",
                              j->gpus, UTIL_GB(j->mem_bytes), p->name, most,
                              rep > 1 ? "replicas" : "instances"); /* not a key */
    return FALSE;
  }
  return TRUE;
}

/* ---- per-pool state ---- */

static void shape_fill(const pool_spec *p, const mig_layout *l, mig_shape *sh) {
  const gpu_model *m = p->gpu;
  memset(sh, 0, sizeof *sh);
  sh->layout = *l;
  sh->text = layout_text(m, l);
  for (guint i = 0; i < l->n; i++) {
    if (mig_off(l)) { /* the whole card */
      sh->mem[i] = m->mem_bytes;
      sh->sms[i] = m->sms;
      sh->slices[i] = m->mig_compute_slices ? m->mig_compute_slices : 7;
      sh->bw[i] = 1.0;
    } else {
      const mig_profile *pr = &m->profiles[l->inst[i].profile];
      sh->mem[i] = catalog_profile_mem_bytes(pr);
      sh->sms[i] = pr->sms;
      sh->slices[i] = pr->compute_slices;
      sh->bw[i] = m->mig_slots ? (double)pr->mem_slices / (double)m->mig_slots : 1.0;
    }
    sh->rep[i] = pool_mig_replicas(p, l->inst[i].profile);
    sh->slots += sh->rep[i];
    sh->largest = MAX(sh->largest, sh->mem[i]);
  }
}

/* Adds the shapes of the usable layouts, each once (an initial layout may be listed among
 * the targets too); of_usable[i] is the shape of usable layout i. */
static void add_shapes(const pool_spec *ps, mig_pool *mp, guint *of_usable) {
  for (guint i = 0; i < n_usable(ps); i++) {
    mig_shape sh;
    shape_fill(ps, usable(ps, i), &sh);
    sh.target = i >= n_initial(ps);
    of_usable[i] = mp->shapes->len;
    for (guint k = 0; k < mp->shapes->len; k++) {
      mig_shape *o = &g_array_index(mp->shapes, mig_shape, k);
      if (!strcmp(o->text, sh.text)) {
        o->target |= sh.target;
        of_usable[i] = k;
        break;
      }
    }
    if (of_usable[i] < mp->shapes->len) g_free(sh.text);
    else g_array_append_val(mp->shapes, sh);
  }
  mp->sizes = g_array_new(FALSE, FALSE, sizeof(int64_t));
  for (guint k = 0; k < mp->shapes->len; k++) {
    const mig_shape *sh = &g_array_index(mp->shapes, mig_shape, k);
    for (guint i = 0; i < sh->layout.n; i++) {
      guint pos = 0;
      while (pos < mp->sizes->len && g_array_index(mp->sizes, int64_t, pos) < sh->mem[i]) pos++;
      if (pos == mp->sizes->len || g_array_index(mp->sizes, int64_t, pos) != sh->mem[i])
        g_array_insert_val(mp->sizes, pos, sh->mem[i]);
    }
  }
}

static void mig_init_pool(share_pool *p) {
  const pool_spec *ps = p->spec;
  mig_pool *mp = g_new0(mig_pool, 1);
  mp->shapes = g_array_new(FALSE, TRUE, sizeof(mig_shape));
  g_autofree guint *of_usable = g_new0(guint, n_usable(ps));
  add_shapes(ps, mp, of_usable);
  mp->claimed = g_hash_table_new(g_direct_hash, g_direct_equal);
  mp->up_with = g_new0(guint32, mp->shapes->len);
  mp->busy = g_ptr_array_new();
  mp->gpus = g_new0(mig_gpu, p->n_gpus);
  p->strategy_data = mp;
  for (guint32 i = 0; i < p->n_gpus; i++) {
    gpu_state *g = share_gpu(p, i);
    mig_gpu *mg = &mp->gpus[i];
    mg->claims = g_array_new(FALSE, FALSE, sizeof(mig_claim));
    mg->shape = ps->gpu_layouts ? of_usable[g->local] : 0; /* the layout it starts with */
    mp->up_with[mg->shape]++;
    g->strategy_data = mg;
    share_gpu_set_capacity(p, g, g_array_index(mp->shapes, mig_shape, mg->shape).slots);
  }
}

static void mig_free_pool(share_pool *p) {
  mig_pool *mp = p->strategy_data;
  if (!mp) return;
  for (guint k = 0; k < mp->shapes->len; k++) g_free(g_array_index(mp->shapes, mig_shape, k).text);
  g_array_unref(mp->shapes);
  for (guint32 i = 0; i < p->n_gpus; i++) {
    g_array_unref(mp->gpus[i].claims);
    share_gpu(p, i)->strategy_data = NULL;
  }
  g_free(mp->gpus);
  g_free(mp->up_with);
  g_ptr_array_unref(mp->busy);
  g_hash_table_destroy(mp->claimed);
  g_array_unref(mp->sizes);
  g_free(mp);
  p->strategy_data = NULL;
}

static const mig_shape *gpu_shape(const share_pool *p, const gpu_state *g) {
  const mig_pool *mp = p->strategy_data;
  const mig_gpu *mg = g->strategy_data;
  return &g_array_index(mp->shapes, mig_shape, mg->shape);
}

/* ---- placement ---- */

/* Next instance for a worker of mem bytes given the workers per instance in used[]: the
 * instance with the least memory that holds it and has a free replica; among equals the
 * emptiest, then the fewest compute slices, then the lowest index. -1 if none. */
static int pick_instance(const mig_shape *sh, const guint32 *used, int64_t mem) {
  int best = -1;
  for (guint i = 0; i < sh->layout.n; i++) {
    if (sh->mem[i] < mem || used[i] >= sh->rep[i]) continue;
    if (best >= 0) {
      const guint b = (guint)best;
      if (sh->mem[i] != sh->mem[b]) {
        if (sh->mem[i] > sh->mem[b]) continue;
      } else if (used[i] != used[b]) {
        if (used[i] > used[b]) continue;
      } else if (sh->slices[i] >= sh->slices[b]) {
        continue;
      }
    }
    best = (int)i;
  }
  return best;
}

static void count_used(const gpu_state *g, guint32 *used) {
  memset(used, 0, CATALOG_MAX_INSTANCES * sizeof *used);
  for (guint i = 0; i < g->n_residents; i++) {
    const task *t = g->residents[i];
    if (t->slot < CATALOG_MAX_INSTANCES) used[t->slot]++;
  }
}

/* Workers of this job already chosen on g in this attempt took instances by the same
 * rule, so replaying the rule for them tells which instances they took. */
static gboolean mig_gpu_accepts(const share_pool *p, const gpu_state *g, const share_job *j,
                                gpu_state *const *taken, guint n_taken, guint32 *slot) {
  if (g->service != GPU_UP) return FALSE;
  const mig_shape *sh = gpu_shape(p, g);
  guint32 used[CATALOG_MAX_INSTANCES];
  count_used(g, used);
  int64_t mem = j->spec->mem_bytes; /* an attempt starts from the trace values */
  for (guint i = 0; i < n_taken; i++) {
    if (taken[i] != g) continue;
    int k = pick_instance(sh, used, mem);
    if (k < 0) return FALSE;
    used[k]++;
  }
  int k = pick_instance(sh, used, mem);
  if (k < 0) return FALSE;
  *slot = (guint32)k;
  return TRUE;
}

/* ---- speeds, memory, faults ---- */

/* Alone in its instance a job's GPU work runs at c = min(1, instance SMs / (sm x whole-GPU
 * SMs)); only the share gpu_util of its time that keeps the GPU busy slows by it (the host
 * work, input pipeline and launch gaps do not shrink with SMs), so the job runs at
 * 1 / ((1 - u) + u / c). The other instances do not change it. Time-sliced replicas inside
 * one instance take turns as under time-slicing (share_timeslice_speed), scaled by that. */
static double mig_alone_speed(double u, double c) {
  if (c >= 1.0) return 1.0;
  return 1.0 / ((1.0 - u) + u / c);
}

/* The pool's own values (pool_spec.strategy_conf): how the replicas of an instance share it. */
typedef enum { MIG_SHARE_TIMESLICE, MIG_SHARE_MPS } mig_sharing;
typedef struct mig_conf {
  mig_sharing instance_sharing;
} mig_conf;

static gboolean mig_mps(const share_pool *p) {
  const mig_conf *c = p->spec->strategy_conf;
  return c && c->instance_sharing == MIG_SHARE_MPS;
}

/* One MPS client of an instance: its host share h = 1 - u and its kernel time g = u x
 * max(1, W) per unit of work alone (W = sm x GPU SMs / instance SMs, the instance it would
 * fill), the instance share w = min(1, W) its kernels hold, the share a = duty / u of its
 * time it has work, and its memory intensity. */
typedef struct mig_client {
  task *t;
  double h, g, w, a, mem;
} mig_client;

/* The kernel stretch k >= 1 of an instance's MPS clients: their kernels share its SMs
 * (processor sharing, mean field), so k = max(1, sum_i w_i p_i(k)) with p_i(k) = a_i g_i k /
 * (h_i + g_i k) the share of time client i has kernels in flight; sum_i w_i a_i g_i / (h_i +
 * g_i k) decreases in k, so bisection finds it. */
static double mig_mps_stretch(const mig_client *c, guint n) {
  double f1 = 0, hi = 1;
  for (guint i = 0; i < n; i++) {
    f1 += c[i].w * c[i].a * c[i].g / (c[i].h + c[i].g);
    hi += c[i].w * c[i].a;
  }
  if (f1 <= 1.0) return 1.0;
  double lo = 1.0;
  for (int it = 0; it < 80; it++) {
    double k = 0.5 * (lo + hi), f = 0;
    for (guint i = 0; i < n; i++) f += c[i].w * c[i].a * c[i].g / (c[i].h + c[i].g * k);
    if (f > 1.0) lo = k;
    else hi = k;
  }
  return 0.5 * (lo + hi);
}

/* MPS inside one instance (instance_sharing: mps; ParvaGPU runs one MPS server per instance
 * [S64]): each client's kernels stretch by the instance's k, its host share does not, and it
 * loses to the memory traffic of the others as plain MPS clients do (share_mps_speed's
 * bandwidth factor, the neighbours weighted by their share of time with kernels). Alone a
 * client runs at 1 / (h + g), the MIG speed of a job alone in its instance. */
static void mig_mps_instance(const share_pool *p, const mig_shape *sh, gpu_state *g,
                             guint32 slot) {
  const gpu_model *m = p->spec->gpu;
  mig_client *c = g_new(mig_client, g->n_residents + 1);
  guint n = 0;
  for (guint i = 0; i < g->n_residents; i++) {
    task *t = g->residents[i];
    if (t->slot != slot) continue;
    const share_job *j = share_job_of(t->job);
    double u = CLAMP(j->spec->gpu_util, 0.0, 1.0), sm = j->sm > 0 ? j->sm : 1.0;
    double W = sm * (double)m->sms / (double)sh->sms[slot];
    c[n++] = (mig_client){t, 1.0 - u, u * MAX(1.0, W), MIN(1.0, W),
                          u > 0 ? CLAMP(j->duty / u, 0.0, 1.0) : 0.0,
                          share_mps_mem_intensity(j->spec)};
  }
  double k = mig_mps_stretch(c, n), total_mem = 0;
  for (guint i = 0; i < n; i++)
    total_mem += c[i].a * c[i].g * k / (c[i].h + c[i].g * k) * c[i].mem / SHARE_MPS_MEM_REF;
  double loss = p->params->mps_bandwidth_loss;
  for (guint i = 0; i < n; i++) {
    double busy = c[i].a * c[i].g * k / (c[i].h + c[i].g * k);
    double others = total_mem - busy * c[i].mem / SHARE_MPS_MEM_REF;
    if (others < 1e-12) others = 0;
    double bw = 1.0 / (1.0 + loss / (1.0 - loss) * (c[i].mem / SHARE_MPS_MEM_REF) * others);
    c[i].t->speed = MIN(1.0, bw / (c[i].h + c[i].g * k));
    c[i].t->turn_wait_ns = 0; /* clients run concurrently: no turn to wait for */
  }
  g_free(c);
}

static void mig_update_speeds(const share_pool *p, gpu_state *g) {
  const mig_shape *sh = gpu_shape(p, g);
  const gpu_model *m = p->spec->gpu;
  double duty[CATALOG_MAX_INSTANCES] = {0};
  for (guint i = 0; i < g->n_residents; i++) {
    const task *t = g->residents[i];
    duty[t->slot] += share_job_of(t->job)->duty;
  }
  double compute = m->mig_compute_slices ? m->mig_compute_slices : 7;
  sim_time slice = p->spec->timeslice_ns, sw = p->spec->context_switch_ns;
  share_ts_curve curve = p->params->ts_curve;
  for (guint i = 0; i < g->n_residents; i++) {
    task *t = g->residents[i];
    g_assert(t->slot < sh->layout.n);
    const share_job *j = share_job_of(t->job);
    double sm = j->sm > 0 ? j->sm : 1.0;
    double alone = mig_alone_speed(j->spec->gpu_util,
                                   (double)sh->sms[t->slot] / (sm * (double)m->sms));
    double others = duty[t->slot] - j->duty;
    if (others < 1e-12) others = 0;
    t->speed = alone * share_ts_curve_speed(curve, j->spec->gpu_util, others);
    t->alloc_share = (double)sh->slices[t->slot] / compute / (double)sh->rep[t->slot];
    t->turn_wait_ns = others > 0 ? others * (double)slice / 2.0 + (double)sw : 0.0;
  }
  if (mig_mps(p))
    for (guint32 s = 0; s < sh->layout.n; s++) mig_mps_instance(p, sh, g, s);
}

/* The instance's SMs over the whole GPU's, and its memory slices over the GPU's (each
 * slice carries 1/8 of the bandwidth, [S1]). */
static void mig_partition(const share_pool *p, const gpu_state *g, const task *t, double *sm,
                          double *bw) {
  const mig_shape *sh = gpu_shape(p, g);
  const gpu_model *m = p->spec->gpu;
  g_assert(t->slot < sh->layout.n);
  *sm = (double)sh->sms[t->slot] / (double)m->sms;
  *bw = sh->bw[t->slot];
}

/* The instance's memory less what its other residents (time-sliced replicas) hold: an
 * allocation past it fails inside the instance. */
static int64_t mig_mem_capacity(const share_pool *p, const gpu_state *g, const task *t) {
  const mig_shape *sh = gpu_shape(p, g);
  int64_t others = 0;
  for (guint i = 0; i < g->n_residents; i++) {
    const task *o = g->residents[i];
    if (o != t && o->slot == t->slot) others += o->mem_bytes;
  }
  return sh->mem[t->slot] - others;
}

/* Alone in its instance the offender fails alone; replicas sharing an instance follow the
 * pool's oom policy among themselves (nothing outside the instance is touched). */
static void mig_oom_victims(const share_pool *p, gpu_state *g, task *offender, GPtrArray *victims) {
  GPtrArray *inst = g_ptr_array_new();
  for (guint i = 0; i < g->n_residents; i++) {
    task *t = g->residents[i];
    if (t->slot == offender->slot) g_ptr_array_add(inst, t);
  }
  share_oom_victims_among(inst->len > 1 ? p->spec->oom : OOM_FAILED_ALLOCATION, (task *const *)inst->pdata,
                          inst->len, offender, victims);
  g_ptr_array_unref(inst);
}

/* A fault kills the faulting process only: other instances are isolated (their own
 * memory and engines), and time-sliced replicas inside the instance keep their own
 * address spaces, as under plain time-slicing (docs/models.md). */
static void mig_crash_victims(const share_pool *p, gpu_state *g, task *t, GPtrArray *victims) {
  if (!mig_mps(p)) {
    g_ptr_array_add(victims, t);
    return;
  }
  /* MPS inside the instance: a fatal fault is reported to every client of its server [S14] */
  for (guint i = 0; i < g->n_residents; i++) {
    task *o = g->residents[i];
    if (o->slot == t->slot) g_ptr_array_add(victims, o);
  }
}

/* The instance t holds (dcgm.prom's GPU_I_PROFILE and GPU_I_ID): its profile and its
 * position in g's current layout; none when MIG is off on g. */
static gboolean mig_instance_of(const share_pool *p, const gpu_state *g, const task *t,
                                guint32 *profile, guint32 *gi_id) {
  const mig_shape *sh = gpu_shape(p, g);
  if (mig_off(&sh->layout) || t->slot >= sh->layout.n) return FALSE;
  *profile = sh->layout.inst[t->slot].profile;
  *gi_id = t->slot;
  return TRUE;
}

/* ---- reconfiguration ---- */

static void claim_add(mig_pool *mp, mig_gpu *mg, const share_job *j, guint32 workers) {
  mig_claim c = {j, workers};
  g_array_append_val(mg->claims, c);
  guint n = GPOINTER_TO_UINT(g_hash_table_lookup(mp->claimed, j));
  g_hash_table_insert(mp->claimed, (gpointer)j, GUINT_TO_POINTER(n + 1));
}

static void claims_clear(mig_pool *mp, mig_gpu *mg) {
  for (guint i = 0; i < mg->claims->len; i++) {
    const share_job *j = g_array_index(mg->claims, mig_claim, i).job;
    guint n = GPOINTER_TO_UINT(g_hash_table_lookup(mp->claimed, j));
    if (n > 1) g_hash_table_insert(mp->claimed, (gpointer)j, GUINT_TO_POINTER(n - 1));
    else g_hash_table_remove(mp->claimed, j);
  }
  g_array_set_size(mg->claims, 0);
}

static gboolean claim_live(const mig_claim *c, const share_pool *p) {
  return share_job_waiting(p, c->job);
}

static void mig_on_up(void *ctx, void *obj, uint64_t arg);

static void go_down(sim *s, share_pool *p, gpu_state *g) {
  mig_pool *mp = p->strategy_data;
  mig_gpu *mg = g->strategy_data;
  sim_time now = share_now(s);
  share_gpu_set_service(s, p, g, GPU_DOWN, 0); /* counts the reconfiguration */
  const mig_shape *from = &g_array_index(mp->shapes, mig_shape, mg->shape);
  const mig_shape *to = &g_array_index(mp->shapes, mig_shape, mg->target);
  const share_job *cause = mg->claims->len ? g_array_index(mg->claims, mig_claim, 0).job : NULL;
  char detail[512];
  snprintf(detail, sizeof detail, "layout %s -> %s; drained %.3f s (drain: %s); down %.3f s",
           from->text, to->text, util_ns_to_seconds(now - mg->drain_start),
           p->spec->drain == DRAIN_EVICT ? "evict" : "wait",
           util_ns_to_seconds(p->spec->reconfigure_time_ns));
  share_log_event(s, EVENT_RECONFIGURE, p, g, cause, detail);
  share_at(s, now + p->spec->reconfigure_time_ns, mig_on_up, g);
}

static void mig_on_evict(void *ctx, void *obj, uint64_t arg) {
  sim *s = ctx;
  gpu_state *g = obj;
  share_pool *p = share_pool_of(g);
  mig_pool *mp = p->strategy_data;
  mig_gpu *mg = g->strategy_data;
  if (g->service != GPU_DRAINING || !g->n_residents) return;
  char detail[512];
  snprintf(detail, sizeof detail, "evicted to reconfigure %s/n%u/g%u from %s to %s",
           p->spec->name, g->node, g->local,
           g_array_index(mp->shapes, mig_shape, mg->shape).text,
           g_array_index(mp->shapes, mig_shape, mg->target).text);
  /* for the job the new layout is made for, as go_down names it */
  const share_job *cause = mg->claims->len ? g_array_index(mg->claims, mig_claim, 0).job : NULL;
  share_evict_gpu(s, g, cause, detail); /* the last departure takes the GPU down (mig_on_release) */
}

static gint claim_order(gconstpointer a, gconstpointer b) {
  const share_job *x = *(const share_job *const *)a, *y = *(const share_job *const *)b;
  return share_job_before(x, y) ? -1 : share_job_before(y, x) ? 1 : 0;
}

/* Back up with the new layout: the waiting jobs it was made for are tried first (in
 * queue order), then a scheduling pass places whatever else fits. */
static void mig_on_up(void *ctx, void *obj, uint64_t arg) {
  sim *s = ctx;
  gpu_state *g = obj;
  share_pool *p = share_pool_of(g);
  mig_pool *mp = p->strategy_data;
  mig_gpu *mg = g->strategy_data;
  mg->shape = mg->target;
  mp->up_with[mg->shape]++;
  share_gpu_set_service(s, p, g, GPU_UP, gpu_shape(p, g)->slots);
  g_ptr_array_remove(mp->busy, g);
  GPtrArray *first = g_ptr_array_new();
  for (guint i = 0; i < mg->claims->len; i++) {
    const mig_claim *c = &g_array_index(mg->claims, mig_claim, i);
    if (claim_live(c, p) && !g_ptr_array_find(first, c->job, NULL))
      g_ptr_array_add(first, (gpointer)c->job);
  }
  claims_clear(mp, mg);
  g_ptr_array_sort(first, claim_order);
  for (guint i = 0; i < first->len; i++) {
    const share_job *j = g_ptr_array_index(first, i);
    if (share_job_waiting(p, j)) share_try_start(s, p, j);
  }
  g_ptr_array_unref(first);
  share_request_schedule(s, p);
}

static void mig_on_release(sim *s, share_pool *p, gpu_state *g) {
  if (g->service == GPU_DRAINING && !g->n_residents) go_down(s, p, g);
}

static void start_reconfig(sim *s, share_pool *p, gpu_state *g, guint32 target, const share_job *j,
                           guint32 workers) {
  mig_pool *mp = p->strategy_data;
  mig_gpu *mg = g->strategy_data;
  sim_time now = share_now(s);
  share_gpu_set_service(s, p, g, GPU_DRAINING, 0); /* no new placements */
  mp->up_with[mg->shape]--;
  mg->target = target;
  mg->drain_start = now;
  claim_add(mp, mg, j, workers);
  g_ptr_array_add(mp->busy, g);
  if (!g->n_residents) go_down(s, p, g);
  else if (p->spec->drain == DRAIN_EVICT)
    share_at(s, now, mig_on_evict, g); /* not inside the pass */
}

/* The allowed layout for a job of mem bytes: the one whose smallest instance that holds
 * the job is smallest (best fit), then the one holding most such workers, then the first
 * listed. -1 if no allowed layout holds it. */
static int best_target(const share_pool *p, const mig_pool *mp, int64_t mem) {
  int best = -1;
  int64_t best_fit = INT64_MAX;
  guint32 best_n = 0;
  for (guint k = 0; k < mp->shapes->len; k++) {
    const mig_shape *sh = &g_array_index(mp->shapes, mig_shape, k);
    if (!sh->target) continue;
    int64_t fit;
    guint32 n;
    layout_fit(p->spec, &sh->layout, mem, &fit, &n);
    if (n && (best < 0 || fit_better(fit, n, best_fit, best_n))) {
      best = (int)k;
      best_fit = fit;
      best_n = n;
    }
  }
  return best;
}

/* A queued job did not fit. With on-demand reconfiguration: if no reconfiguration in
 * progress is already for it, it joins one whose new layout has room it is not yet
 * counted on for; otherwise GPUs whose current layout cannot hold it are reconfigured,
 * least work to drain first (fewest residents, then soonest empty, then lowest index),
 * until the new layouts can hold all its workers. Load alone never reshapes a GPU: a GPU
 * whose layout already holds the job is never a candidate. */
static void mig_on_unplaced(sim *s, share_pool *p, const share_job *j) {
  const pool_spec *ps = p->spec;
  if (ps->reconfigure != RECONFIGURE_ON_DEMAND || !share_job_waiting(p, j)) return;
  mig_pool *mp = p->strategy_data;
  int64_t mem = j->spec->mem_bytes;
  gboolean candidates = FALSE; /* some GPU is up with a layout too small for the job */
  for (guint k = 0; k < mp->shapes->len && !candidates; k++)
    candidates = mp->up_with[k] > 0 && g_array_index(mp->shapes, mig_shape, k).largest < mem;
  if (!candidates || g_hash_table_contains(mp->claimed, j)) return; /* waits for load / served */
  guint32 need = j->spec->gpus, got = 0;
  for (guint b = 0; b < mp->busy->len && got < need; b++) {
    mig_gpu *mg = ((gpu_state *)g_ptr_array_index(mp->busy, b))->strategy_data;
    const mig_shape *to = &g_array_index(mp->shapes, mig_shape, mg->target);
    guint32 room = layout_room(ps, &to->layout, mem), counted = 0;
    if (!room) continue;
    for (guint i = 0; i < mg->claims->len; i++) {
      const mig_claim *c = &g_array_index(mg->claims, mig_claim, i);
      if (claim_live(c, p)) counted += c->workers;
    }
    if (room > counted) {
      guint32 w = MIN(room - counted, need - got);
      claim_add(mp, mg, j, w);
      got += w;
    }
  }
  if (got >= need) return;
  int target = best_target(p, mp, mem);
  if (target < 0) return;
  const mig_shape *to = &g_array_index(mp->shapes, mig_shape, target);
  guint32 per_gpu = layout_room(ps, &to->layout, mem);
  while (got < need) {
    gpu_state *best = NULL;
    double best_end = 0;
    for (guint32 i = 0; i < p->n_gpus; i++) {
      gpu_state *g = share_gpu(p, i);
      if (g->service != GPU_UP || gpu_shape(p, g)->largest >= mem) continue;
      if (best && g->n_residents > best->n_residents) continue;
      double end = share_gpu_expected_empty(s, g);
      if (best && g->n_residents == best->n_residents && end >= best_end) continue;
      best = g;
      best_end = end;
    }
    if (!best) break;
    guint32 w = MIN(per_gpu, need - got);
    start_reconfig(s, p, best, (guint32)target, j, w);
    got += w;
  }
}

/* Index of the smallest instance size (of any layout the pool may use) that holds the
 * job: which instances hold a job depends on this rank only (sizes are discrete). */
static guint32 mig_prune_rank(const share_pool *p, const share_job *j) {
  const mig_pool *mp = p->strategy_data;
  guint32 r = 0;
  while (r < mp->sizes->len && g_array_index(mp->sizes, int64_t, r) < j->spec->mem_bytes) r++;
  return r;
}

/* ---- its pool keys (scenario.h: pool_check) ---- */

static const scenario_key mig_key_instance_sharing = {
    "instance_sharing", "time-slicing", "time-slicing | mps: how the replicas of one "
    "instance share it", NULL};
static const scenario_key *const mig_keys[] = {
    &scenario_key_replicas, &scenario_key_timeslice, &scenario_key_context_switch,
    &scenario_key_fail_requests, &scenario_key_rename, &scenario_key_layout,
    &scenario_key_layouts, &scenario_key_reconfigure, &scenario_key_drain,
    &scenario_key_reconfigure_time, &scenario_key_mig_config, &scenario_key_mig_config_name,
    &mig_key_instance_sharing, NULL};

static void mig_validate_pool(pool_check *c, pool_spec *p) {
  static const char *const sharing_names[] = {"time-slicing", "mps", NULL};
  pool_check_mig(c, p); /* first: replicas inside MIG depend on its profiles */
  pool_check_device_plugin(c, p, SCENARIO_MAX_REPLICAS);
  pool_check_timeslice(c, p);
  mig_conf *conf = g_new0(mig_conf, 1);
  p->strategy_conf = conf;
  int e;
  if (pool_check_enum(c, "instance_sharing", sharing_names, &e)) conf->instance_sharing = e;
}
const share_ops share_mig_ops = {
    .input = {.name = "mig", .example = "    layout: 2g.20gb x3 + 1g.10gb\n", .keys = mig_keys,
              .validate = mig_validate_pool, .describe = scenario_describe_mig,
              .implied_by = SCENARIO_NV_MIG_CONFIG, .accepts = SCENARIO_NV_TIME_SLICING,
              .mig_devices = TRUE, .capacity = SCENARIO_CAPACITY_INSTANCES,
              .capacity_key = &scenario_key_replicas, .sample_gpu = "A100-80GB"},
    .description = "MIG instances with their own SMs and memory; layouts reconfigured on demand",
    .implemented = TRUE,
    .holds_jobs = TRUE, /* mig_claim.job */
    .slots_per_gpu = mig_slots,
    .can_ever_fit = mig_can_ever_fit,
    .gpu_accepts = mig_gpu_accepts,
    .update_speeds = mig_update_speeds,
    .partition = mig_partition,
    .instance_of = mig_instance_of,
    .gauges = share_default_gauges,
    .mem_capacity = mig_mem_capacity,
    .oom_victims = mig_oom_victims,
    .crash_victims = mig_crash_victims,
    .init_pool = mig_init_pool,
    .free_pool = mig_free_pool,
    .on_unplaced = mig_on_unplaced,
    .on_release = mig_on_release,
    .prune_rank = mig_prune_rank,
};
