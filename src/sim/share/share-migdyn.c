/* share-migdyn.c: MIG carved on demand (mig-dynamic): each worker gets an instance of the
 * smallest profile that holds it, created in a free valid position (the catalogue's start
 * slices) while the others run, destroyed when it leaves; both take time. Only a card's MIG
 * mode change (a job no profile holds) drains it (docs/models.md, "MIG carved on demand").
 * No sharing inside an instance, no preemption plans. Exports share_migdyn_ops only. */
#include "share.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Instance creation and destruction (docs/models.md: assumptions, with their sensitivity). */
#define MIGDYN_CREATE_NS (5 * SIM_NS_PER_S)
#define MIGDYN_DESTROY_NS (2 * SIM_NS_PER_S)

typedef enum { MD_FREE = 0, MD_CREATING, MD_READY, MD_DESTROYING } md_state;

typedef struct md_inst {
  md_state state;
  guint8 profile, start;
  gboolean used;            /* a worker has run on it: its leaving destroys it */
  const share_job *job;     /* the job it is made for (creating, ready), then runs */
  sim_time at;              /* when creating or destroying ends */
} md_inst;

typedef enum { MD_MIG = 0, MD_FULL } md_mode;

typedef struct md_gpu {
  md_inst inst[CATALOG_MAX_INSTANCES];
  md_mode mode, target;       /* target: while draining or down for a mode change */
  const share_job *full_for;  /* the job a card leaves MIG mode for, until it starts */
  sim_time drain_start;
} md_gpu;

typedef enum { MD_LEAST_DAMAGE = 0, MD_FIRST_FIT } md_rule;
typedef enum { MD_FIT_MEMORY = 0, MD_FIT_COMPUTE } md_fit;
static const char *const md_rule_names[] = {"least-damage", "first-fit", NULL};
static const char *const md_fit_names[] = {"memory", "memory-and-compute", NULL};

/* The pool's own values (pool_spec.strategy_conf). */
typedef struct md_conf {
  sim_time create_ns, destroy_ns;
  int rule, fit;
  double whole_sm;  /* a worker of at least this SM share takes a whole card; 0: none does */
} md_conf;
static const md_conf md_defaults = {MIGDYN_CREATE_NS, MIGDYN_DESTROY_NS, MD_LEAST_DAMAGE,
                                    MD_FIT_MEMORY, 0};

static const md_conf *md_conf_of(const pool_spec *p) {
  return p->strategy_conf ? p->strategy_conf : &md_defaults;
}

typedef struct md_pool {
  md_gpu *gpus;
  GHashTable *claimed;     /* share_job* -> instances (or cards) being made for it */
  GHashTable *fragmented;  /* share_job* reported refused by fragmentation, not yet carved */
  guint32 to_mig;          /* cards going back to MIG mode */
} md_pool;

/* ---- profiles and the slice space ---- */

/* The profile a worker of mem bytes and SM demand sm takes: the smallest (memory, then
 * compute slices, then memory slices) whose memory holds it, and with fit
 * memory-and-compute whose SMs hold sm x the card's SMs (the largest when none does); -1
 * when it needs a whole card: no profile holds the memory, or its sm is at least the
 * pool's whole_card_sm. No "+me" profiles. */
static int md_profile(const pool_spec *p, int64_t mem, double sm) {
  const gpu_model *m = p->gpu;
  double whole = md_conf_of(p)->whole_sm;
  if (whole > 0 && sm >= whole) return -1;
  double need_sms = md_conf_of(p)->fit == MD_FIT_COMPUTE ? sm * (double)m->sms : 0;
  int best = -1, most = -1;
  for (guint i = 0; i < m->n_profiles; i++) {
    const mig_profile *pr = &m->profiles[i];
    if (pr->media || catalog_profile_mem_bytes(pr) < mem) continue;
    if (most < 0 || pr->sms > m->profiles[most].sms) most = (int)i;
    if ((double)pr->sms + 1e-9 < need_sms) continue;
    if (best >= 0) {
      const mig_profile *b = &m->profiles[best];
      int64_t mb = catalog_profile_mem_bytes(b), mi = catalog_profile_mem_bytes(pr);
      if (mi > mb || (mi == mb && (pr->compute_slices > b->compute_slices ||
                                   (pr->compute_slices == b->compute_slices &&
                                    pr->mem_slices >= b->mem_slices))))
        continue;
    }
    best = (int)i;
  }
  return best >= 0 ? best : most;
}

static int md_job_profile(const share_pool *p, const share_job *j) {
  return md_profile(p->spec, j->spec->mem_bytes, j->spec->sm > 0 ? j->spec->sm : 1.0);
}

/* What is taken on a card: memory slices (bits), compute slices, instances, per profile. */
typedef struct md_space {
  guint32 bits;
  guint compute, n;
  guint count[CATALOG_MAX_PROFILES];
} md_space;

static void md_space_add(const gpu_model *m, md_space *sp, guint q, guint s) {
  const mig_profile *pr = &m->profiles[q];
  sp->bits |= ((1u << pr->mem_slices) - 1u) << s;
  sp->compute += pr->compute_slices;
  sp->n++;
  sp->count[q]++;
}

static void md_space_of(const gpu_model *m, const md_gpu *mg, md_space *sp) {
  memset(sp, 0, sizeof *sp);
  for (guint i = 0; i < CATALOG_MAX_INSTANCES; i++)
    if (mg->inst[i].state != MD_FREE) md_space_add(m, sp, mg->inst[i].profile, mg->inst[i].start);
}

/* May an instance of profile q start at slice s on a card whose space is sp: an allowed
 * start, its slices free, and within the compute, instance and per-profile limits [S1]. */
static gboolean md_space_fits(const gpu_model *m, const md_space *sp, guint q, guint s) {
  const mig_profile *pr = &m->profiles[q];
  if (pr->media || s >= 8 || !(pr->starts_mask & (1u << s)) || s + pr->mem_slices > m->mig_slots)
    return FALSE;
  guint32 bits = ((1u << pr->mem_slices) - 1u) << s;
  return !(sp->bits & bits) && sp->compute + pr->compute_slices <= m->mig_compute_slices &&
         sp->n + 1 <= m->mig_max_instances && sp->n + 1 <= CATALOG_MAX_INSTANCES &&
         sp->count[q] + 1 <= pr->max_count;
}

/* Free valid positions of profile q on a card whose space is sp. */
static guint md_positions(const gpu_model *m, const md_space *sp, guint q) {
  guint n = 0;
  for (guint s = 0; s < m->mig_slots; s++) n += md_space_fits(m, sp, q, s);
  return n;
}

/* Instances of profile q a card whose space is sp would hold by its free slices alone
 * (memory, compute, counts), wherever they start. */
static guint md_room_by_size(const gpu_model *m, const md_space *sp, guint q) {
  const mig_profile *pr = &m->profiles[q];
  guint free_mem = m->mig_slots - (guint)__builtin_popcount(sp->bits);
  guint free_compute = m->mig_compute_slices - sp->compute;
  guint n = MIN(free_mem / pr->mem_slices, free_compute / MAX(1u, pr->compute_slices));
  n = MIN(n, pr->max_count - MIN(pr->max_count, sp->count[q]));
  return MIN(n, m->mig_max_instances - MIN(m->mig_max_instances, sp->n));
}

/* Free memory slices of a card taken as bits that no profile could use any more: covered
 * by no free position any profile may start at (the interval rule alone, so a card whose
 * compute slices are spent does not count as stranded). */
static guint md_stranded(const gpu_model *m, guint32 bits) {
  guint32 cover = 0;
  for (guint q = 0; q < m->n_profiles; q++) {
    const mig_profile *pr = &m->profiles[q];
    for (guint s = 0; s < m->mig_slots && !pr->media; s++) {
      guint32 b = ((1u << pr->mem_slices) - 1u) << s;
      if ((pr->starts_mask & (1u << s)) && s + pr->mem_slices <= m->mig_slots && !(bits & b))
        cover |= b;
    }
  }
  guint32 all = (1u << m->mig_slots) - 1u;
  return (guint)__builtin_popcount(all & ~bits & ~cover);
}

/* The placement rule (least-damage): an instance strands the fewest free slices (slices no
 * profile can use any more: a 1g.10gb at slice 6 of an A100 strands slice 7); then it
 * blocks the fewest free valid positions of the largest profiles first (lexicographic over
 * the profiles, largest first); then the card with fewer free memory slices; then the lower
 * card; then the higher start. damage[0] is the stranding, damage[1 + q] profile q's. TRUE
 * when (damage, used, g, s) is better than the best so far. */
static gboolean md_better(const guint *damage, const guint *best_damage, guint np, guint used,
                          guint best_used) {
  for (guint q = 0; q < np; q++)
    if (damage[q] != best_damage[q]) return damage[q] < best_damage[q];
  return used > best_used; /* equal: the earlier card, the later start (scan order) */
}

/* One worker's position: the card (up, in MIG mode) and start for profile q by the pool's
 * rule over the spaces sp[] (what is taken, with this job's workers so far). FALSE if none. */
static gboolean md_pick(const share_pool *p, const md_space *sp, guint q, guint32 *gi,
                        guint *start) {
  const md_pool *mp = p->strategy_data;
  const gpu_model *m = p->spec->gpu;
  gboolean first_fit = md_conf_of(p->spec)->rule == MD_FIRST_FIT, found = FALSE;
  guint np = m->n_profiles + 1, used_best = 0;
  guint before[CATALOG_MAX_PROFILES + 1], damage[CATALOG_MAX_PROFILES + 1],
      best[CATALOG_MAX_PROFILES + 1];
  for (guint32 g = 0; g < p->n_gpus; g++) {
    const gpu_state *gs = share_gpu(p, g);
    if (gs->service != GPU_UP || mp->gpus[g].mode != MD_MIG) continue;
    before[0] = first_fit ? 0 : md_stranded(m, sp[g].bits);
    for (guint k = 1; !first_fit && k < np; k++) before[k] = md_positions(m, &sp[g], k - 1);
    for (guint s = m->mig_slots; s-- > 0;) { /* later starts first: ties keep them */
      guint st = first_fit ? m->mig_slots - 1 - s : s;
      if (!md_space_fits(m, &sp[g], q, st)) continue;
      if (first_fit) {
        *gi = g, *start = st;
        return TRUE;
      }
      md_space after = sp[g];
      md_space_add(m, &after, q, st);
      damage[0] = md_stranded(m, after.bits) - MIN(before[0], md_stranded(m, after.bits));
      for (guint k = 1; k < np; k++) damage[k] = before[k] - md_positions(m, &after, k - 1);
      guint used = (guint)__builtin_popcount(sp[g].bits);
      if (!found || md_better(damage, best, np, used, used_best)) {
        memcpy(best, damage, sizeof best);
        used_best = used;
        *gi = g, *start = st;
        found = TRUE;
      }
    }
  }
  return found;
}

/* ---- claims ---- */

static void md_claim(md_pool *mp, const share_job *j, int delta) {
  gint n = GPOINTER_TO_INT(g_hash_table_lookup(mp->claimed, j)) + delta;
  if (n > 0) g_hash_table_insert(mp->claimed, (gpointer)j, GINT_TO_POINTER(n));
  else g_hash_table_remove(mp->claimed, j);
}

static guint md_claims(const md_pool *mp, const share_job *j) {
  return (guint)GPOINTER_TO_INT(g_hash_table_lookup(mp->claimed, j));
}

/* ---- instances: created, ready, destroyed ---- */

static void md_log_inst(sim *s, event_kind kind, const share_pool *p, const gpu_state *g,
                        const md_inst *in, const share_job *j, const char *more) {
  char detail[160];
  snprintf(detail, sizeof detail, "%s@%u%s", p->spec->gpu->profiles[in->profile].name,
           in->start, more);
  share_log_event(s, kind, p, g, j, detail);
}

static void md_on_destroyed(void *ctx, void *obj, uint64_t arg);
static void md_on_created(void *ctx, void *obj, uint64_t arg);
static void md_check_down(sim *s, share_pool *p, gpu_state *g);

static void md_release_job(sim *s, share_pool *p, const share_job *j);

/* Instance k of g starts being destroyed: its slices stay taken until it is gone. A job it
 * was made for and never ran gives up all its instances not run on (it is carved again
 * whole, never waits on a part). */
static void md_destroy(sim *s, share_pool *p, gpu_state *g, guint k) {
  md_pool *mp = p->strategy_data;
  md_inst *in = &mp->gpus[g->index].inst[k];
  if (!in->used && in->job) {
    const share_job *j = in->job;
    md_claim(mp, j, -1);
    in->job = NULL;
    md_release_job(s, p, j);
  }
  in->state = MD_DESTROYING;
  in->job = NULL;
  in->at = share_now(s) + md_conf_of(p->spec)->destroy_ns;
  share_at(s, in->at, md_on_destroyed, g);
}

static void md_on_destroyed(void *ctx, void *obj, uint64_t arg) {
  sim *s = ctx;
  gpu_state *g = obj;
  share_pool *p = share_pool_of(g);
  md_pool *mp = p->strategy_data;
  sim_time now = share_now(s);
  for (guint k = 0; k < CATALOG_MAX_INSTANCES; k++) {
    md_inst *in = &mp->gpus[g->index].inst[k];
    if (in->state != MD_DESTROYING || in->at > now) continue;
    md_log_inst(s, EVENT_MIG_DESTROY, p, g, in, NULL, "");
    memset(in, 0, sizeof *in);
  }
  md_check_down(s, p, g);
  share_request_schedule(s, p);
}

/* Instance k of g is made for j: creating until now + create_time. */
static void md_create(sim *s, share_pool *p, gpu_state *g, guint q, guint start, const share_job *j) {
  md_pool *mp = p->strategy_data;
  md_gpu *mg = &mp->gpus[g->index];
  guint k = 0;
  while (mg->inst[k].state != MD_FREE) k++; /* the space check left one free */
  md_inst *in = &mg->inst[k];
  in->state = MD_CREATING;
  in->profile = (guint8)q;
  in->start = (guint8)start;
  in->used = FALSE;
  in->job = j;
  in->at = share_now(s) + md_conf_of(p->spec)->create_ns;
  md_claim(mp, j, +1);
  md_log_inst(s, EVENT_MIG_CREATE, p, g, in, j, "");
  share_at(s, in->at, md_on_created, g);
}

/* j's instances made for it that are ready and not yet run on. */
static guint md_ready_for(const share_pool *p, const share_job *j) {
  const md_pool *mp = p->strategy_data;
  guint n = 0;
  for (guint32 g = 0; g < p->n_gpus; g++)
    for (guint k = 0; k < CATALOG_MAX_INSTANCES; k++) {
      const md_inst *in = &mp->gpus[g].inst[k];
      n += in->state == MD_READY && !in->used && in->job == j;
    }
  return n;
}

/* Every instance made for j and not run on is given up: ready ones destroyed, those being
 * created destroyed once created (md_sweep). */
static void md_release_job(sim *s, share_pool *p, const share_job *j) {
  md_pool *mp = p->strategy_data;
  for (guint32 g = 0; g < p->n_gpus; g++)
    for (guint k = 0; k < CATALOG_MAX_INSTANCES; k++) {
      md_inst *in = &mp->gpus[g].inst[k];
      if (in->job != j || in->used) continue;
      if (in->state == MD_READY) {
        md_destroy(s, p, share_gpu(p, g), k);
      } else if (in->state == MD_CREATING) {
        md_claim(mp, j, -1);
        in->job = NULL;
      }
    }
}

/* Ready instances whose job is no longer waiting (it left the queue) are destroyed. */
static void md_sweep(sim *s, share_pool *p, gpu_state *g) {
  md_pool *mp = p->strategy_data;
  md_gpu *mg = &mp->gpus[g->index];
  for (guint k = 0; k < CATALOG_MAX_INSTANCES; k++) {
    md_inst *in = &mg->inst[k];
    if (in->state == MD_READY && !in->used &&
        (!in->job || g->service != GPU_UP || !share_job_waiting(p, in->job)))
      md_destroy(s, p, g, k);
  }
}

/* Instances of g created by now are ready; a job whose instances are all ready starts. */
static void md_on_created(void *ctx, void *obj, uint64_t arg) {
  sim *s = ctx;
  gpu_state *g = obj;
  share_pool *p = share_pool_of(g);
  md_pool *mp = p->strategy_data;
  md_gpu *mg = &mp->gpus[g->index];
  sim_time now = share_now(s);
  const share_job *ready[CATALOG_MAX_INSTANCES];
  guint n = 0;
  for (guint k = 0; k < CATALOG_MAX_INSTANCES; k++) {
    md_inst *in = &mg->inst[k];
    if (in->state != MD_CREATING || in->at > now) continue;
    in->state = MD_READY;
    ready[n++] = in->job;
  }
  md_sweep(s, p, g);
  for (guint i = 0; i < n; i++)
    if (ready[i] && share_job_waiting(p, ready[i]) && md_claims(mp, ready[i]) &&
        md_ready_for(p, ready[i]) == md_claims(mp, ready[i]))
      share_try_start(s, p, ready[i]);
  md_check_down(s, p, g);
  share_request_schedule(s, p);
}

/* ---- mode changes: a card leaves or re-enters MIG mode, drained ---- */

static void md_on_up(void *ctx, void *obj, uint64_t arg);

static guint32 md_mode_slots(const share_pool *p, md_mode mode) {
  return mode == MD_FULL ? 1 : p->slots_per_gpu;
}

static const char *md_mode_name(md_mode m) { return m == MD_FULL ? "full" : "MIG"; }

/* A draining card with no worker and no instance left goes down for reconfigure_time. */
static void md_check_down(sim *s, share_pool *p, gpu_state *g) {
  md_gpu *mg = &((md_pool *)p->strategy_data)->gpus[g->index];
  if (g->service != GPU_DRAINING || g->n_residents) return;
  for (guint k = 0; k < CATALOG_MAX_INSTANCES; k++)
    if (mg->inst[k].state != MD_FREE) return;
  sim_time now = share_now(s);
  share_gpu_set_service(s, p, g, GPU_DOWN, 0); /* counts the reconfiguration */
  char detail[200];
  snprintf(detail, sizeof detail, "mode %s -> %s; drained %.3f s (drain: %s); down %.3f s",
           md_mode_name(mg->mode), md_mode_name(mg->target),
           util_ns_to_seconds(now - mg->drain_start),
           p->spec->drain == DRAIN_EVICT ? "evict" : "wait",
           util_ns_to_seconds(p->spec->reconfigure_time_ns));
  share_log_event(s, EVENT_RECONFIGURE, p, g, mg->full_for, detail);
  share_at(s, now + p->spec->reconfigure_time_ns, md_on_up, g);
}

static void md_on_up(void *ctx, void *obj, uint64_t arg) {
  sim *s = ctx;
  gpu_state *g = obj;
  share_pool *p = share_pool_of(g);
  md_pool *mp = p->strategy_data;
  md_gpu *mg = &mp->gpus[g->index];
  if (mg->target == MD_MIG) mp->to_mig--;
  mg->mode = mg->target;
  share_gpu_set_service(s, p, g, GPU_UP, md_mode_slots(p, mg->mode));
  const share_job *j = mg->full_for;
  if (j && share_job_waiting(p, j)) share_try_start(s, p, j);
  if (j && mg->full_for == j && !share_job_waiting(p, j)) { /* it left the queue: free */
    mg->full_for = NULL;
    md_claim(mp, j, -1);
  }
  share_request_schedule(s, p);
}

static void md_on_evict(void *ctx, void *obj, uint64_t arg) {
  sim *s = ctx;
  gpu_state *g = obj;
  share_pool *p = share_pool_of(g);
  md_gpu *mg = &((md_pool *)p->strategy_data)->gpus[g->index];
  if (g->service != GPU_DRAINING || !g->n_residents) return;
  char detail[200];
  snprintf(detail, sizeof detail, "evicted to switch %s/n%u/g%u from %s to %s mode",
           p->spec->name, g->node, g->local, md_mode_name(mg->mode), md_mode_name(mg->target));
  share_evict_gpu(s, g, mg->full_for, detail); /* the departures destroy the instances (md_on_release) */
}

/* g starts draining for a change to mode `to` (for j, leaving MIG mode): no new instances
 * or workers; instances made for waiting jobs are given up; workers leave or are evicted. */
static void md_switch(sim *s, share_pool *p, gpu_state *g, md_mode to, const share_job *j) {
  md_pool *mp = p->strategy_data;
  md_gpu *mg = &mp->gpus[g->index];
  share_gpu_set_service(s, p, g, GPU_DRAINING, 0);
  mg->target = to;
  mg->drain_start = share_now(s);
  mg->full_for = j;
  if (j) md_claim(mp, j, +1);
  if (to == MD_MIG) mp->to_mig++;
  md_sweep(s, p, g);
  if (g->n_residents && p->spec->drain == DRAIN_EVICT) share_at(s, share_now(s), md_on_evict, g);
  md_check_down(s, p, g);
}

/* A job no profile holds: cards in MIG mode leave it, least work to drain first (fewest
 * instances, then soonest empty, then the lowest), until its workers have cards. */
static void md_unplaced_full(sim *s, share_pool *p, const share_job *j) {
  md_pool *mp = p->strategy_data;
  guint32 need = j->spec->gpus, free_full = 0;
  for (guint32 i = 0; i < p->n_gpus; i++) {
    const gpu_state *g = share_gpu(p, i);
    const md_gpu *mg = &mp->gpus[i];
    free_full += g->service == GPU_UP && mg->mode == MD_FULL && !g->n_residents && !mg->full_for;
  }
  while (free_full < need) {
    gpu_state *best = NULL;
    guint best_n = 0;
    double best_end = 0;
    for (guint32 i = 0; i < p->n_gpus; i++) {
      gpu_state *g = share_gpu(p, i);
      if (g->service != GPU_UP || mp->gpus[i].mode != MD_MIG) continue;
      md_space sp;
      md_space_of(p->spec->gpu, &mp->gpus[i], &sp);
      double end = share_gpu_expected_empty(s, g);
      if (best && (sp.n > best_n || (sp.n == best_n && end >= best_end))) continue;
      best = g, best_n = sp.n, best_end = end;
    }
    if (!best) return;
    md_switch(s, p, best, MD_FULL, j);
    free_full++;
  }
}

/* A job that fits a MIG profile and found no position: one idle full card goes back to
 * MIG mode when none is already going back. */
static void md_unplaced_mig(sim *s, share_pool *p) {
  md_pool *mp = p->strategy_data;
  if (mp->to_mig) return;
  for (guint32 i = 0; i < p->n_gpus; i++) {
    gpu_state *g = share_gpu(p, i);
    const md_gpu *mg = &mp->gpus[i];
    if (g->service == GPU_UP && mg->mode == MD_FULL && !g->n_residents && !mg->full_for) {
      md_switch(s, p, g, MD_MIG, NULL);
      return;
    }
  }
}

/* ---- carving: a waiting job's instances ---- */

/* No position for j's workers of profile q: when the free slices alone would hold them all
 * (memory, compute, counts), the refusal is the slice space's fragmentation, reported once
 * per job until it is carved (events.csv mig_fragmented; the summary counts them). */
static void md_report_fragmented(sim *s, share_pool *p, const share_job *j, guint q,
                                 const md_space *sp) {
  md_pool *mp = p->strategy_data;
  const gpu_model *m = p->spec->gpu;
  guint room = 0;
  for (guint32 g = 0; g < p->n_gpus; g++)
    if (share_gpu(p, g)->service == GPU_UP && mp->gpus[g].mode == MD_MIG)
      room += md_room_by_size(m, &sp[g], q);
  if (room < j->spec->gpus || g_hash_table_contains(mp->fragmented, j)) return;
  g_hash_table_add(mp->fragmented, (gpointer)j);
  char detail[160];
  snprintf(detail, sizeof detail, "%s x%u: the free slices hold %u, no valid position",
           m->profiles[q].name, j->spec->gpus, room);
  share_log_event(s, EVENT_MIG_FRAGMENTED, p, NULL, j, detail);
}

/* Positions for every worker of j (profile q) by the pool's rule, all or none; TRUE when
 * its instances are being created. */
static gboolean md_carve(sim *s, share_pool *p, const share_job *j, guint q) {
  md_pool *mp = p->strategy_data;
  const gpu_model *m = p->spec->gpu;
  guint32 need = j->spec->gpus;
  md_space *sp = g_new(md_space, p->n_gpus);
  for (guint32 g = 0; g < p->n_gpus; g++) md_space_of(m, &mp->gpus[g], &sp[g]);
  guint32 *gi = g_new(guint32, need);
  guint *st = g_new(guint, need);
  guint32 w = 0;
  for (; w < need; w++) {
    if (!md_pick(p, sp, q, &gi[w], &st[w])) break;
    md_space_add(m, &sp[gi[w]], q, st[w]);
  }
  if (w < need) {
    for (guint32 g = 0; g < p->n_gpus; g++) md_space_of(m, &mp->gpus[g], &sp[g]);
    md_report_fragmented(s, p, j, q, sp);
  } else {
    g_hash_table_remove(mp->fragmented, j);
    for (w = 0; w < need; w++) md_create(s, p, share_gpu(p, gi[w]), q, st[w], j);
  }
  g_free(sp);
  g_free(gi);
  g_free(st);
  return w >= need;
}

/* A waiting job that did not start: unless instances (or cards) are already being made
 * for it, carve its instances, or take cards out of MIG mode for a job no profile holds. */
static void md_on_unplaced(sim *s, share_pool *p, const share_job *j) {
  md_pool *mp = p->strategy_data;
  if (!share_job_waiting(p, j) || md_claims(mp, j)) return;
  int q = md_job_profile(p, j);
  if (q < 0) {
    md_unplaced_full(s, p, j);
  } else if (!md_carve(s, p, j, (guint)q)) {
    md_unplaced_mig(s, p);
  }
}

/* A worker left g: the instance it ran on is destroyed; a draining card may go down. */
static void md_on_release(sim *s, share_pool *p, gpu_state *g) {
  md_pool *mp = p->strategy_data;
  md_gpu *mg = &mp->gpus[g->index];
  for (guint k = 0; k < CATALOG_MAX_INSTANCES; k++) {
    md_inst *in = &mg->inst[k];
    if (in->state != MD_READY || !in->used) continue;
    gboolean held = FALSE;
    for (guint i = 0; i < g->n_residents && !held; i++) held = share_resident(g, i)->slot == k;
    if (!held) md_destroy(s, p, g, k);
  }
  md_check_down(s, p, g);
}

/* ---- placement of a started job on its instances ---- */

/* A worker of j goes onto g: in MIG mode, a ready instance made for j that no worker holds
 * (the workers of j already chosen on g took the first ones); in full mode, an idle card
 * not kept for another waiting job, for a job no profile holds. */
static gboolean md_gpu_accepts(const share_pool *p, const gpu_state *g, const share_job *j,
                               gpu_state *const *taken, guint n_taken, guint32 *slot) {
  if (g->service != GPU_UP) return FALSE;
  const md_pool *mp = p->strategy_data;
  const md_gpu *mg = &mp->gpus[g->index];
  guint here = 0;
  for (guint i = 0; i < n_taken; i++) here += taken[i] == g;
  if (mg->mode == MD_FULL) {
    if (g->n_residents || here || md_job_profile(p, j) >= 0) return FALSE;
    if (mg->full_for && mg->full_for != j && share_job_waiting(p, mg->full_for)) return FALSE;
    *slot = 0;
    return TRUE;
  }
  for (guint k = 0; k < CATALOG_MAX_INSTANCES; k++) {
    const md_inst *in = &mg->inst[k];
    if (in->state != MD_READY || in->used || in->job != j) continue;
    gboolean held = FALSE;
    for (guint i = 0; i < g->n_residents && !held; i++) held = share_resident(g, i)->slot == k;
    if (held) continue;
    if (here--) continue;
    *slot = k;
    return TRUE;
  }
  return FALSE;
}

/* ---- speeds, memory, faults ---- */

/* As a MIG instance alone (share-mig.c): the job's GPU work runs at c = min(1, instance SMs
 * / (sm x card SMs)), its host share not, so it runs at 1 / ((1 - u) + u / c); a whole
 * card in full mode runs it at 1. Marks the instances run on, and a started job's claims
 * (instances and cards made for it) as met. */
static void md_update_speeds(const share_pool *p, gpu_state *g) {
  md_pool *mp = p->strategy_data;
  md_gpu *mg = &mp->gpus[g->index];
  const gpu_model *m = p->spec->gpu;
  for (guint i = 0; i < g->n_residents; i++) {
    task *t = share_resident(g, i);
    const share_job *j = share_job_of(t->job);
    t->turn_wait_ns = 0;
    if (mg->mode == MD_FULL) {
      t->speed = t->alloc_share = 1.0;
      if (mg->full_for == j) {
        mg->full_for = NULL;
        md_claim(mp, j, -1);
      }
      continue;
    }
    g_assert(t->slot < CATALOG_MAX_INSTANCES);
    md_inst *in = &mg->inst[t->slot];
    if (!in->used) {
      in->used = TRUE;
      md_claim(mp, j, -1);
    }
    const mig_profile *pr = &m->profiles[in->profile];
    double sm = j->sm > 0 ? j->sm : 1.0, u = j->spec->gpu_util;
    double c = (double)pr->sms / (sm * (double)m->sms);
    t->speed = c >= 1.0 ? 1.0 : 1.0 / ((1.0 - u) + u / c);
    t->alloc_share = (double)pr->compute_slices / (double)m->mig_compute_slices;
  }
}

static void md_partition(const share_pool *p, const gpu_state *g, const task *t, double *sm,
                         double *bw) {
  const md_gpu *mg = &((const md_pool *)p->strategy_data)->gpus[g->index];
  const gpu_model *m = p->spec->gpu;
  *sm = *bw = 1.0;
  if (mg->mode == MD_FULL) return;
  const mig_profile *pr = &m->profiles[mg->inst[t->slot].profile];
  *sm = (double)pr->sms / (double)m->sms;
  *bw = (double)pr->mem_slices / (double)m->mig_slots;
}

/* The instance t holds (dcgm.prom's GPU_I_PROFILE and GPU_I_ID): its profile and its
 * record on g; none in full mode. */
static gboolean md_instance_of(const share_pool *p, const gpu_state *g, const task *t,
                               guint32 *profile, guint32 *gi_id) {
  const md_gpu *mg = &((const md_pool *)p->strategy_data)->gpus[g->index];
  if (mg->mode == MD_FULL || t->slot >= CATALOG_MAX_INSTANCES) return FALSE;
  *profile = mg->inst[t->slot].profile;
  *gi_id = t->slot;
  return TRUE;
}

/* The instance's memory; the card's in full mode. */
static int64_t md_mem_capacity(const share_pool *p, const gpu_state *g, const task *t) {
  const md_gpu *mg = &((const md_pool *)p->strategy_data)->gpus[g->index];
  if (mg->mode == MD_FULL) return p->spec->gpu->mem_bytes;
  return catalog_profile_mem_bytes(&p->spec->gpu->profiles[mg->inst[t->slot].profile]);
}

/* ---- limits and per-pool state ---- */

/* Instances of profile q an empty card holds at once (placement, compute and counts). */
static guint md_per_card(const gpu_model *m, guint q) {
  md_space sp;
  memset(&sp, 0, sizeof sp);
  guint n = 0;
  for (gboolean placed = TRUE; placed;) {
    placed = FALSE;
    for (guint s = 0; s < m->mig_slots && !placed; s++)
      if (md_space_fits(m, &sp, q, s)) {
        md_space_add(m, &sp, q, s);
        placed = TRUE;
        n++;
      }
  }
  return n;
}

static gboolean md_can_ever_fit(const pool_spec *p, const job_spec *j, char **reason) {
  const gpu_model *m = p->gpu;
  if (j->mem_bytes > m->mem_bytes) {
    *reason = g_strdup_printf("needs %.2f GB per worker; a whole %s of pool '%s' holds %.2f GB",
                              UTIL_GB(j->mem_bytes), m->name, p->name, UTIL_GB(m->mem_bytes));
    return FALSE;
  }
  int q = md_profile(p, j->mem_bytes, j->sm > 0 ? j->sm : 1.0);
  guint64 most = (guint64)pool_gpus(p) * (q < 0 ? 1 : md_per_card(m, (guint)q));
  if (j->gpus > most) {
    *reason = g_strdup_printf("needs %u workers; pool '%s' holds at most %" G_GUINT64_FORMAT
                              " %s at once", j->gpus, p->name, most,
                              q < 0 ? "whole cards" : m->profiles[q].name);
    return FALSE;
  }
  return TRUE;
}

/* Every card may hold mig_max_instances workers (one per instance; 1 in full mode): the
 * free-slot counts are an upper bound, gpu_accepts the real check. */
static guint32 md_slots(const pool_spec *p) { return MAX(1u, p->gpu->mig_max_instances); }

static void md_init_pool(share_pool *p) {
  md_pool *mp = g_new0(md_pool, 1);
  mp->gpus = g_new0(md_gpu, p->n_gpus);
  mp->claimed = g_hash_table_new(g_direct_hash, g_direct_equal);
  mp->fragmented = g_hash_table_new(g_direct_hash, g_direct_equal);
  p->strategy_data = mp;
  for (guint32 i = 0; i < p->n_gpus; i++) share_gpu_set_capacity(p, share_gpu(p, i), p->slots_per_gpu);
}

static void md_free_pool(share_pool *p) {
  md_pool *mp = p->strategy_data;
  if (!mp) return;
  g_free(mp->gpus);
  g_hash_table_destroy(mp->claimed);
  g_hash_table_destroy(mp->fragmented);
  g_free(mp);
  p->strategy_data = NULL;
}

/* One worker per instance: its wall time is its work over its instance's speed (the
 * smallest instance, 1/7 of the card, at worst). */
static void md_budget_bound(const pool_spec *p, const job_spec *j, double *residents,
                            double *alone) {
  *residents = *alone = p->gpu && p->gpu->mig_compute_slices ? p->gpu->mig_compute_slices : 7.0;
}

/* ---- its pool keys (scenario.h: pool_check) ---- */

static const scenario_key md_key_create = {
    "instance_create_time", "5s", "time to create a GPU instance for a request (the other "
    "instances keep running)", "0s|5s|30s"};
static const scenario_key md_key_destroy = {
    "instance_destroy_time", "2s", "time to destroy a GPU instance after its worker left "
    "(its slices stay taken meanwhile)", "0s|2s"};
static const scenario_key md_key_rule = {
    "carve", "least-damage", "least-damage: the position that blocks the fewest free positions "
    "of the largest profiles, on the fullest card; first-fit: the lowest card and start",
    "least-damage|first-fit"};
static const scenario_key md_key_fit = {
    "instance_fit", "memory", "memory: the smallest profile whose memory holds the worker; "
    "memory-and-compute: whose SMs also hold its sm share of the card",
    "memory|memory-and-compute"};
static const scenario_key md_key_whole = {
    "whole_card_sm", "none", "a worker whose sm share is at least this (0 to 1) takes a whole "
    "card, switched out of MIG mode; none: only one no profile's memory holds", "0.5|1"};
static const scenario_key *const md_keys[] = {
    &md_key_create, &md_key_destroy, &md_key_rule, &md_key_fit, &md_key_whole, &scenario_key_drain,
    &scenario_key_reconfigure_time, NULL};

static void md_validate_pool(pool_check *c, pool_spec *p) {
  static const char *const drain_names[] = {"wait", "evict", NULL};
  if (p->gpu && !p->gpu->mig_slots)
    pool_check_report(c, pool_check_map(c), "%s: strategy %s needs a MIG-capable GPU; %s has "
                      "no MIG", pool_check_prefix(c), share_strategy_name(p->strategy),
                      p->gpu->name);
  md_conf *conf = g_new0(md_conf, 1);
  *conf = md_defaults;
  p->strategy_conf = conf;
  int e;
  pool_check_duration(c, md_key_create.name, 0, 3600 * SIM_NS_PER_S, &conf->create_ns);
  pool_check_duration(c, md_key_destroy.name, 0, 3600 * SIM_NS_PER_S, &conf->destroy_ns);
  if (pool_check_enum(c, md_key_rule.name, md_rule_names, &e)) conf->rule = e;
  if (pool_check_enum(c, md_key_fit.name, md_fit_names, &e)) conf->fit = e;
  pool_check_number(c, md_key_whole.name, "a share of the card's SMs greater than 0 and at "
                    "most 1", 0, TRUE, 1, FALSE, &conf->whole_sm);
  if (pool_check_enum(c, scenario_key_drain.name, drain_names, &e)) p->drain = (drain_policy)e;
  pool_check_duration(c, scenario_key_reconfigure_time.name, 0, 86400 * SIM_NS_PER_S,
                      &p->reconfigure_time_ns);
}

static void md_describe(GString *s, const pool_spec *p) {
  const md_conf *c = md_conf_of(p);
  g_string_append_printf(s, ", instances carved %s by %s, created in %.3g s, destroyed in %.3g s",
                         md_rule_names[c->rule], md_fit_names[c->fit],
                         util_ns_to_seconds(c->create_ns), util_ns_to_seconds(c->destroy_ns));
  if (c->whole_sm > 0) g_string_append_printf(s, ", whole cards from sm %g", c->whole_sm);
  g_string_append_printf(s, "; mode changes drain (%s), down %.3g s",
                         p->drain == DRAIN_EVICT ? "evict" : "wait",
                         util_ns_to_seconds(p->reconfigure_time_ns));
}

const share_ops share_migdyn_ops = {
    .input = {.name = "mig-dynamic", .example = "    instance_create_time: 5s\n",
              .keys = md_keys, .validate = md_validate_pool, .describe = md_describe,
              .capacity = SCENARIO_CAPACITY_UNJUDGED, .sample_gpu = "A100-80GB"},
    .description = "MIG instances carved per request on cards in MIG mode, destroyed when the "
                   "worker leaves; only mode changes drain a card",
    .implemented = TRUE,
    .holds_jobs = TRUE, /* md_inst.job, md_gpu.full_for, the claims */
    .slots_per_gpu = md_slots,
    .can_ever_fit = md_can_ever_fit,
    .gpu_accepts = md_gpu_accepts,
    .update_speeds = md_update_speeds,
    .partition = md_partition,
    .instance_of = md_instance_of,
    .gauges = share_default_gauges,
    .mem_capacity = md_mem_capacity,
    .oom_victims = share_offender_oom_victims,
    .crash_victims = share_default_crash_victims,
    .init_pool = md_init_pool,
    .free_pool = md_free_pool,
    .on_unplaced = md_on_unplaced,
    .on_release = md_on_release,
    .budget_bound = md_budget_bound,
};
