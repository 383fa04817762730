/* share.c: the table of sharing strategies (handed to the scenario reader by the command
 * line: share_input_row), the noisy-neighbour model they share, the defaults they may use
 * (gauges from residents' duty cycles, whole-device memory, out-of-memory and crash victims
 * by the pool's oom policy, replica slots), and the share_* calls of share.h through which
 * strategies act on the run (the bridge: forwarded to cluster.c, and to sim.c through the
 * calls of host.h): the one file of share/ that includes cluster.h and host.h. */
#include "share.h"
#include "cluster.h"
#include "host.h"
#include "interference.h"
#include <math.h>
#include <stddef.h>

/* The one table of sharing strategies; a new strategy is one more row (its place sets
 * only where it appears in the lists users see). */
extern const share_ops share_exclusive_ops, share_timeslice_ops, share_mig_ops, share_mps_ops,
    share_vgpu_ops, share_fractional_ops, share_hami_ops, share_kai_ops, share_migdyn_ops;
/* The time-slicing curve's constants a scenario may set (scenario_model_key; listed in
 * sim_model_keys): its loss per extra busy context and its two exponents. */
const scenario_model_key share_key_ts_switch_loss = {
    {"ts_switch_loss", "0.06", "time-slicing: share of the GPU lost per extra busy context", NULL},
    SCENARIO_MODEL_NUMBER, "a number from 0 to less than 1", 0, 1, FALSE, TRUE,
    SCENARIO_DEFAULT_TS_SWITCH_LOSS, offsetof(scenario, ts_switch_loss), NULL, NULL};
const scenario_model_key share_key_ts_curve_exp = {
    {"ts_curve_exp", "1.2", "time-slicing curve's exponent p, beyond an overlap of 1", NULL},
    SCENARIO_MODEL_NUMBER, "a number from 0.1 to 10", 0.1, 10, FALSE, FALSE,
    SCENARIO_DEFAULT_TS_CURVE_EXP, offsetof(scenario, ts_curve_exp), NULL, NULL};
const scenario_model_key share_key_ts_overlap_exp = {
    {"ts_overlap_exp", "2", "time-slicing curve's exponent q, up to an overlap of 1", NULL},
    SCENARIO_MODEL_NUMBER, "a number from 0.1 to 10", 0.1, 10, FALSE, FALSE,
    SCENARIO_DEFAULT_TS_OVERLAP_EXP, offsetof(scenario, ts_overlap_exp), NULL, NULL};

static const share_ops *const share_table[] = {
    &share_exclusive_ops, &share_timeslice_ops, &share_mig_ops,  &share_mps_ops,
    &share_vgpu_ops,      &share_fractional_ops, &share_hami_ops, &share_kai_ops,
    &share_migdyn_ops,
};

const share_ops *share_for(share_strategy s) {
  g_assert(s);
  return (const share_ops *)(const void *)((const char *)s - offsetof(share_ops, input));
}

guint share_count(void) { return G_N_ELEMENTS(share_table); }

const share_ops *share_row(guint i) {
  g_assert(i < G_N_ELEMENTS(share_table));
  return share_table[i];
}

const scenario_strategy *share_input_row(guint i) {
  return i < G_N_ELEMENTS(share_table) ? &share_table[i]->input : NULL;
}

/* busy: probability that some resident has a kernel running, residents independent;
 * SM-active: sum of duty x SM demand x speed, capped at 1. */
void share_default_gauges(const share_pool *p, const gpu_state *g, double *busy, double *sm) {
  double idle = 1.0, s = 0.0;
  for (guint i = 0; i < g->n_residents; i++) {
    const task *t = g->residents[i];
    double d = share_job_of(t->job)->duty;
    idle *= 1.0 - d;
    s += d * share_job_of(t->job)->sm * t->speed;
  }
  *busy = 1.0 - idle;
  *sm = s > 1.0 ? 1.0 : s;
}

gboolean share_replica_accepts(const share_pool *p, const gpu_state *g, const share_job *j,
                               gpu_state *const *taken, guint n_taken, guint32 *slot) {
  guint32 used = g->slots_used;
  for (guint i = 0; i < n_taken; i++)
    if (taken[i] == g) used++;
  if (used >= p->slots_per_gpu) return FALSE;
  *slot = used;
  return TRUE;
}

int64_t share_default_mem_capacity(const share_pool *p, const gpu_state *g, const task *t) {
  return p->spec->gpu->mem_bytes;
}

/* oom: all -> every resident; failed-allocation -> the job whose allocation failed
 * (`offender` here: the task whose allocation did not fit); sidecar -> the residents over
 * their declared memory first (the failing one if none is). Whom the run counts as
 * innocent is sim.c's (job_kill): every victim that did not grow past its placement. */
void share_oom_victims_among(oom_policy policy, task *const *residents, guint n, task *offender,
                             GPtrArray *victims) {
  switch (policy) {
  case OOM_ALL:
    for (guint i = 0; i < n; i++) g_ptr_array_add(victims, residents[i]);
    return;
  case OOM_SIDECAR:
    for (guint i = 0; i < n; i++) {
      task *t = residents[i];
      if (t->mem_bytes > share_job_of(t->job)->mem_declared) g_ptr_array_add(victims, t);
    }
    if (victims->len) return;
    /* fall through: nobody is over their declaration, the offender goes */
    G_GNUC_FALLTHROUGH;
  case OOM_FAILED_ALLOCATION:
    g_ptr_array_add(victims, offender);
    return;
  }
}

void share_default_oom_victims(const share_pool *p, gpu_state *g, task *offender,
                               GPtrArray *victims) {
  share_oom_victims_among(p->spec->oom, g->residents, g->n_residents, offender, victims);
}

void share_default_crash_victims(const share_pool *p, gpu_state *g, task *t, GPtrArray *victims) {
  g_ptr_array_add(victims, t);
}

guint32 share_prune_by_size(const share_pool *p, const share_job *j) { return 0; }

/* ---- noisy-neighbour model (docs/models.md, "Noisy neighbours") ---- */

/* The contention curve (docs/models.md, "Time-slicing"): a context whose busy periods
 * (share own of its time alone) fall independently of its neighbours' (summed duty others)
 * overlaps them for o = own x others of that time; it keeps 1 / (1 + a o^q) while o <= 1
 * (q fitted on Lucid's even-numbered pairs) and 1 / (1 + a o^p) beyond. a puts four
 * saturating contexts (o = 3) at (1 - 3 L) / 4 each, Colfax's four busy tenants. */
share_ts_curve share_ts_curve_make(double switch_loss, double p, double q) {
  double four = (1.0 - 3.0 * switch_loss) / 4.0; /* one of four busy contexts */
  if (four < 0.05) four = 0.05;                   /* L near 1/3 and beyond: keep a finite */
  return (share_ts_curve){.a = (1.0 / four - 1.0) / pow(3.0, p), .p = p, .q = q};
}

share_ts_curve share_ts_curve_for(double switch_loss) {
  return share_ts_curve_make(switch_loss, SHARE_TS_CURVE_EXP, SHARE_TS_OVERLAP_EXP);
}

double share_ts_curve_speed(share_ts_curve c, double own, double others) {
  double o = own * others;
  if (!(o > 0)) return 1.0;
  double x;
  if (o > 1.0) x = pow(o, c.p);
  else if (c.q == 2.0) x = o * o; /* the default, without a pow() */
  else x = pow(o, c.q);
  return 1.0 / (1.0 + c.a * x);
}

double share_timeslice_speed(double own, double others, double switch_loss) {
  return share_ts_curve_speed(share_ts_curve_for(switch_loss), own, others);
}

/* Busy contexts saturate (own 1): each sees the other U - 1 of the demand. */
double share_timeslice_efficiency(double demand, double switch_loss) {
  if (demand <= 1.0) return 1.0;
  double eff = demand * share_timeslice_speed(1.0, demand - 1.0, switch_loss);
  return eff > 1.0 ? 1.0 : eff;
}

double share_mps_mem_intensity(const job_spec *j) {
  if (j->mem_util < 0 || !(j->gpu_util > 0)) return SHARE_MPS_MEM_REF;
  double m = j->mem_util / j->gpu_util;
  return m > 1.0 ? 1.0 : m;
}

double share_mps_speed(double sm, double cap, double others_sm, double own_mem,
                       double others_mem, double bw_loss) {
  if (sm <= 0) return 1.0;
  double want = sm < cap ? sm : cap;
  double total = want + others_sm;
  double granted = total > 1.0 ? want / total : want;
  /* 1 / (1 + k x), k = B / (1 - B): exactly 1 - B between two reference clients (x = 1),
   * positive and decreasing for any crowd, so no floor is needed */
  double x = (own_mem / SHARE_MPS_MEM_REF) * others_mem;
  double bw = 1.0 / (1.0 + bw_loss / (1.0 - bw_loss) * x);
  double speed = granted / sm * bw;
  return speed > 1.0 ? 1.0 : speed;
}

double share_mps_block_wait(double beta, double own_sm, double own_mem, double other_sm,
                            double other_duty) {
  if (!(own_sm > 0) || !(other_duty > 0)) return 0.0;
  double overlap = (own_sm + other_sm - 1.0) / own_sm; /* share of its SMs the other holds */
  if (overlap <= 0) return 0.0;
  if (overlap > 1.0) overlap = 1.0;
  double compute = own_mem < 1.0 ? 1.0 - own_mem : 0.0;
  return beta * compute * other_duty * overlap;
}

const char *share_job_label(const share_job *j) {
  return j->spec->label && *j->spec->label ? j->spec->label : job_kind_name(j->spec->kind);
}

gboolean share_table_speed(const share_pool *p, const gpu_state *g, const task *t, double *speed) {
  const interference_table *tab = p->params ? p->params->interference : NULL;
  if (!tab) return FALSE;
  double v = 1.0;
  guint neighbours = 0;
  for (guint i = 0; i < g->n_residents; i++) {
    const task *o = g->residents[i];
    if (o->job == t->job || share_job_of(o->job)->duty <= 0) continue;
    double s;
    if (!interference_lookup(tab, share_job_label(share_job_of(t->job)),
                             share_job_label(share_job_of(o->job)), &s))
      return FALSE;
    v *= 1.0 - share_job_of(o->job)->duty * (1.0 - s);
    neighbours++;
  }
  if (!neighbours) return FALSE;
  *speed = v > 1.0 ? 1.0 : v;
  return TRUE;
}

/* ---- the calls strategies make on the run (share.h), forwarded to cluster.c and to sim.c
 * (host.h's calls: sim.c is above this room); the views are the first members of
 * pool_state and job_run, so they convert back ---- */

static pool_state *share_state(share_pool *p) { return (pool_state *)(void *)p; }
static job_run *share_run(const share_job *j) { return (job_run *)(void *)j; }
static const sim_calls *share_host(const sim *s) { return sim_host_of(s)->calls; }

gpu_state *share_gpu(const share_pool *p, guint32 i) {
  g_assert(i < p->n_gpus);
  return cluster_gpu((const pool_state *)(const void *)p, i);
}

sim_time share_now(const sim *s) { return *sim_host_of(s)->now; }

void share_at(sim *s, sim_time at, share_event_fn fn, gpu_state *g) {
  share_host(s)->at(s, at, fn, g, 0);
}

void share_request_schedule(sim *s, share_pool *p) {
  share_host(s)->request_schedule(s, share_state(p));
}

gboolean share_try_start(sim *s, share_pool *p, const share_job *j) {
  return share_host(s)->try_start(s, share_state(p), share_run(j));
}

void share_evict_gpu(sim *s, gpu_state *g, const share_job *source, const char *detail) {
  share_host(s)->evict_gpu(s, g, source ? share_run(source) : NULL, detail);
}

void share_log_event(sim *s, event_kind kind, const share_pool *p, const gpu_state *g,
                     const share_job *cause, const char *detail) {
  share_host(s)->log_event(s, kind, (const pool_state *)(const void *)p, g, NULL,
                           cause ? share_run(cause) : NULL, detail);
}

void share_gpu_set_service(sim *s, share_pool *p, gpu_state *g, gpu_service service,
                           guint32 slots) {
  cluster_gpu_set_service(share_state(p), g, service, slots, share_now(s));
}

void share_gpu_set_capacity(share_pool *p, gpu_state *g, guint32 slots) {
  cluster_gpu_set_capacity(share_state(p), g, slots);
}

double share_gpu_expected_empty(const sim *s, const gpu_state *g) {
  double last = (double)share_now(s);
  for (guint i = 0; i < g->n_residents; i++) {
    double end = share_host(s)->job_expected_end(s, ((const task *)g->residents[i])->job);
    if (end > last) last = end;
  }
  return last;
}

gboolean share_job_waiting(const share_pool *p, const share_job *j) {
  const job_run *r = share_run(j);
  return r->state == JOB_QUEUED && r->pool == (int)p->index;
}

gboolean share_job_before(const share_job *a, const share_job *b) {
  return cluster_queue_before(share_run(a), share_run(b));
}

/* ---- guarantees and borrowing (docs/models.md "Fractional GPUs"), shared by the
 * strategies that enforce a compute share: fractional, HAMi, KAI enforced ---- */

static double share_fill_frac(const share_pool *p, const share_job *j) {
  return j->spec->gpu_frac;
}
static double share_fill_frac_cap(const share_pool *p, const share_job *j) {
  return p->spec->fraction_cap;
}
const share_fill share_fill_fractional = {share_fill_frac, share_fill_frac_cap};

/* Compute each resident gets while it is active (fraction of the whole GPU):
 *   want_i = sm_i, guarantee_i = min(want_i, f_i) x scale, where scale shrinks the
 *   guarantees to the capacity C when they exceed it (C = 1, or 1 - context_switch /
 *   timeslice when two or more residents have work: enforcing shares switches contexts);
 *   the spare capacity S = C - sum_j duty_j x guarantee_j is lent by water-filling:
 *   borrow_i = min(want_i - guarantee_i, cap_i, L) with sum_i duty_i x borrow_i = S;
 *   speed_i = (guarantee_i + borrow_i) / want_i (f_i and cap_i from f). */
void share_fill_speeds(const share_pool *p, gpu_state *g, const share_fill *f) {
  guint n = g->n_residents;
  double active = 0, sum_guar = 0;
  for (guint i = 0; i < n; i++) {
    const share_job *j = share_resident_job(g, i);
    if (j->duty > 0) active += 1;
    sum_guar += MIN(j->sm, f->share(p, j));
  }
  double c = 1.0;
  if (active >= 2 && p->spec->timeslice_ns > 0) {
    double loss = (double)p->spec->context_switch_ns / (double)p->spec->timeslice_ns;
    c = 1.0 - CLAMP(loss, 0.0, 0.5);
  }
  double scale = sum_guar > c ? c / sum_guar : 1.0;
  double spare = c;
  for (guint i = 0; i < n; i++) {
    const share_job *j = share_resident_job(g, i);
    spare -= j->duty * MIN(j->sm, f->share(p, j)) * scale;
  }
  if (spare < 0) spare = 0;
  /* water level L: sum_i duty_i x min(extra_i, L) = spare, by bisection (extra_i <= 1) */
  double lo = 0, hi = 1;
  double total_extra = 0;
  for (guint i = 0; i < n; i++) {
    const share_job *j = share_resident_job(g, i);
    double extra = MIN(j->sm - MIN(j->sm, f->share(p, j)) * scale, f->cap(p, j));
    if (extra > 0) total_extra += j->duty * extra;
  }
  double level = 1.0;
  if (total_extra > spare) {
    for (int it = 0; it < 50; it++) {
      double mid = 0.5 * (lo + hi), got = 0;
      for (guint i = 0; i < n; i++) {
        const share_job *j = share_resident_job(g, i);
        double extra = MIN(j->sm - MIN(j->sm, f->share(p, j)) * scale, f->cap(p, j));
        if (extra > 0) got += j->duty * MIN(extra, mid);
      }
      if (got > spare) hi = mid;
      else lo = mid;
    }
    level = lo;
  }
  for (guint i = 0; i < n; i++) {
    task *t = g->residents[i];
    const share_job *j = share_job_of(t->job);
    double guar = MIN(j->sm, f->share(p, j)) * scale;
    double extra = MIN(j->sm - guar, f->cap(p, j));
    double got = guar + (extra > 0 ? MIN(extra, level) : 0);
    double sp = j->sm > 0 ? got / j->sm : 1.0;
    t->speed = CLAMP(sp, 0.0, 1.0);
    t->alloc_share = f->share(p, j);
    t->turn_wait_ns = 0;
  }
}

int64_t share_fraction_mem_limit(const pool_spec *p, double frac) {
  return (int64_t)((double)p->gpu->mem_bytes * frac);
}

int64_t share_fraction_mem_capacity(const share_pool *p, const gpu_state *g, const task *t) {
  return share_fraction_mem_limit(p->spec, share_job_of(t->job)->spec->gpu_frac);
}

void share_offender_oom_victims(const share_pool *p, gpu_state *g, task *offender,
                                GPtrArray *victims) {
  g_ptr_array_add(victims, offender);
}

/* Time-slicing's speeds (docs/models.md "Time-slicing"): the contention curve of the run
 * (p->params->ts_curve) over the residents' duties, or the measured pair speeds; a request
 * arriving while a resident is idle waits half a slice behind each busy context, plus one
 * switch-in [S92]. The caller sets alloc_share. */
void share_timeslice_speeds(const share_pool *p, gpu_state *g) {
  double total = 0;
  for (guint i = 0; i < g->n_residents; i++)
    total += share_resident_job(g, i)->duty;
  sim_time slice = p->spec->timeslice_ns, sw = p->spec->context_switch_ns;
  share_ts_curve curve = p->params->ts_curve;
  gboolean table = p->params->interference != NULL;
  for (guint i = 0; i < g->n_residents; i++) {
    task *t = g->residents[i];
    double others = total - share_job_of(t->job)->duty;
    if (others < 1e-12) others = 0;
    double sp;
    if (!table || !share_table_speed(p, g, t, &sp))
      sp = share_ts_curve_speed(curve, share_job_of(t->job)->spec->gpu_util, others);
    t->speed = sp;
    t->turn_wait_ns = others > 0 ? others * (double)slice / 2.0 + (double)sw : 0.0;
  }
}

/* ---- unified-memory oversubscription (share.h; docs/models.md) ---- */

const share_oversub share_oversub_off = {1.0, SHARE_OVERSUB_SLOWDOWN};

const scenario_key share_key_migration_slowdown = {
    "migration_slowdown", "50", "how many times slower memory beyond the card (host memory "
    "through unified memory) is served than the card's own, k of docs/models.md", "9|50|100"};

double share_oversub_factor(double f, double k) { return 1.0 + f * (k - 1.0); }

void share_oversub_speeds(const share_pool *p, gpu_state *g, const share_oversub *o) {
  int64_t room = p->spec->gpu->mem_bytes;
  for (guint i = 0; i < g->n_residents; i++) {
    task *t = g->residents[i];
    int64_t on_card = MIN(MAX(room, 0), t->mem_bytes);
    room -= t->mem_bytes;
    t->mem_slowdown = 1.0;
    if (o->ratio <= 1.0 || on_card >= t->mem_bytes || t->mem_bytes <= 0) continue;
    double f = (double)(t->mem_bytes - on_card) / (double)t->mem_bytes;
    t->mem_slowdown = share_oversub_factor(f, o->slowdown);
    t->speed /= t->mem_slowdown;
  }
}

int64_t share_oversub_device_mem(const pool_spec *p, const share_oversub *o) {
  int64_t card = p->gpu->mem_bytes;
  return o->ratio > 1.0 ? (int64_t)((double)card * o->ratio) : card;
}

void share_oversub_check(pool_check *c, share_oversub *o) {
  double k;
  if (pool_check_number(c, "migration_slowdown", "a slowdown of at least 1 and at most 1000", 1,
                        FALSE, 1000, FALSE, &k))
    o->slowdown = k;
}

void share_oversub_describe(GString *s, const share_oversub *o) {
  if (o->ratio > 1.0)
    g_string_append_printf(s, ", memory oversubscribed to %g x the card (migration slowdown %g)",
                           o->ratio, o->slowdown);
}
