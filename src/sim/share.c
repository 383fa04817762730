/* share.c: the table of sharing strategies and the defaults they share (gauges from
 * residents' duty cycles, whole-device memory, out-of-memory and crash victims by the
 * pool's oom policy). Strategies not built yet are listed with implemented = FALSE so a
 * scenario naming them gets an honest error instead of a silent fallback. */
#include "share.h"
#include "cluster.h"

static guint32 one_slot(const pool_spec *p) { return 1; }

#define UNBUILT(id, nm, desc)                                                             \
  {.strategy = id, .name = nm, .description = desc, .implemented = FALSE,               \
   .slots_per_gpu = one_slot}

static const share_ops unbuilt[STRATEGY_COUNT] = {
    [STRATEGY_TIME_SLICING] = UNBUILT(STRATEGY_TIME_SLICING, "time-slicing",
                                      "replicas per GPU taking equal turns (not built yet)"),
    [STRATEGY_MIG] = UNBUILT(STRATEGY_MIG, "mig", "MIG partitions (not built yet)"),
    [STRATEGY_MPS] = UNBUILT(STRATEGY_MPS, "mps", "MPS clients (not built yet)"),
    [STRATEGY_VGPU] = UNBUILT(STRATEGY_VGPU, "vgpu", "time-sliced vGPU profiles (not built yet)"),
    [STRATEGY_FRACTIONAL] = UNBUILT(STRATEGY_FRACTIONAL, "fractional",
                                    "fractional GPU shares (not built yet)"),
};

const share_ops *share_for(share_strategy s) {
  switch (s) {
  case STRATEGY_EXCLUSIVE: return &share_exclusive_ops;
  default: break;
  }
  g_assert((int)s >= 0 && s < STRATEGY_COUNT);
  return &unbuilt[s];
}

/* busy: probability that some resident has a kernel running, residents independent;
 * SM-active: sum of duty x SM demand x speed, capped at 1. */
void share_default_gauges(const pool_state *p, const gpu_state *g, double *busy, double *sm) {
  double idle = 1.0, s = 0.0;
  for (guint i = 0; i < g->residents->len; i++) {
    const task *t = g_ptr_array_index(g->residents, i);
    double d = t->job->duty;
    idle *= 1.0 - d;
    s += d * t->job->sm * t->speed;
  }
  *busy = 1.0 - idle;
  *sm = s > 1.0 ? 1.0 : s;
}

int64_t share_default_mem_capacity(const pool_state *p, const gpu_state *g, const task *t) {
  return p->spec->gpu->mem_bytes;
}

/* oom: all -> every resident; offender -> the job whose allocation failed; sidecar ->
 * the residents over their declared memory first (the offender if none is). */
void share_default_oom_victims(const pool_state *p, gpu_state *g, task *offender,
                               GPtrArray *victims) {
  switch (p->spec->oom) {
  case OOM_ALL:
    for (guint i = 0; i < g->residents->len; i++) g_ptr_array_add(victims, g_ptr_array_index(g->residents, i));
    return;
  case OOM_SIDECAR:
    for (guint i = 0; i < g->residents->len; i++) {
      task *t = g_ptr_array_index(g->residents, i);
      if (t->mem_bytes > t->job->spec->mem_bytes) g_ptr_array_add(victims, t);
    }
    if (victims->len) return;
    /* fall through: nobody is over their declaration, the offender goes */
    G_GNUC_FALLTHROUGH;
  case OOM_OFFENDER:
    g_ptr_array_add(victims, offender);
    return;
  }
}

void share_default_crash_victims(const pool_state *p, gpu_state *g, task *t, GPtrArray *victims) {
  g_ptr_array_add(victims, t);
}
