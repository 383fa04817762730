/* share-vgpu.c: time-sliced NVIDIA vGPU (C-series profiles). A GPU hosts the profile's
 * max_per_gpu virtual GPUs, one VM (one worker) each; memory is partitioned (each vGPU its
 * frame buffer, a hard limit) and compute is time-sliced by the pool's scheduler:
 * best-effort, equal-share or fixed-share ([S17]; docs/models.md, "vGPU"). A fault
 * or an out-of-memory stays inside its VM. It does not model MIG-backed vGPUs, mixed-size
 * profiles on one GPU or live migration. Exports share_vgpu_ops only. */
#include "share.h"
#include <math.h>

static guint32 vgpu_per_gpu(const pool_spec *p) {
  return p->vgpu && p->vgpu->max_per_gpu ? p->vgpu->max_per_gpu : 1;
}

/* The frame buffer a VM may use (never more than the card has). */
static int64_t vgpu_framebuffer(const pool_spec *p) {
  int64_t fb = p->vgpu ? p->vgpu->framebuffer_bytes : p->gpu->mem_bytes;
  return MIN(fb, p->gpu->mem_bytes);
}

static gboolean vgpu_can_ever_fit(const pool_spec *p, const job_spec *j, char **reason) {
  guint64 gpus = pool_gpus(p);
  if (j->gpus > gpus) {
    *reason = g_strdup_printf("needs %u vGPUs on distinct GPUs; pool '%s' has %" G_GUINT64_FORMAT
                              " GPU%s", j->gpus, p->name, gpus, gpus == 1 ? "" : "s");
    return FALSE;
  }
  if (j->mem_bytes > vgpu_framebuffer(p)) {
    *reason = g_strdup_printf("needs %.2f GB per worker; each %s vGPU of pool '%s' has %.2f GB of "
                              "frame buffer", UTIL_GB(j->mem_bytes), p->vgpu ? p->vgpu->name : "?",
                              p->name, UTIL_GB(vgpu_framebuffer(p)));
    return FALSE;
  }
  return TRUE;
}

/* A free vGPU, and no other VM of the same job on this GPU (a multi-GPU job's workers are
 * separate VMs on separate cards). */
static gboolean vgpu_gpu_accepts(const share_pool *p, const gpu_state *g, const share_job *j,
                                 gpu_state *const *taken, guint n_taken, guint32 *slot) {
  if (g->slots_used >= p->slots_per_gpu) return FALSE;
  for (guint i = 0; i < n_taken; i++)
    if (taken[i] == g) return FALSE;
  *slot = g->slots_used;
  return TRUE;
}

/* With U the summed duty of the VMs on the card, n the VMs on it (running vGPUs), M the
 * profile's vGPUs per GPU and eff = share_timeslice_efficiency(U, L), the time-slicing
 * efficiency of share_timeslice_speed:
 *   best-effort  share_timeslice_speed(u, U - own, L)   idle VMs' cycles are used
 *   equal-share  eff / n                                 a lone busy VM gets 1/n
 *   fixed-share  eff / M                                 a lone busy VM gets 1/M
 * A request arriving while its VM is idle waits half a slice behind each VM whose turn
 * comes first (busy ones for best-effort, every running one for equal-share, every vGPU
 * for fixed-share) plus one switch-in. */
static void vgpu_update_speeds(const share_pool *p, gpu_state *g) {
  const pool_spec *ps = p->spec;
  double u = 0, n = (double)g->n_residents, m = (double)vgpu_per_gpu(ps);
  double loss = p->params->ts_switch_loss;
  for (guint i = 0; i < g->n_residents; i++) u += share_resident_job(g, i)->duty;
  double eff = share_timeslice_efficiency(u, loss);
  share_ts_curve curve = p->params->ts_curve;
  double slice = (double)ps->timeslice_ns, sw = (double)ps->context_switch_ns;
  for (guint i = 0; i < g->n_residents; i++) {
    task *t = g->residents[i];
    double others = u - share_job_of(t->job)->duty;
    if (others < 1e-12) others = 0;
    double sp, ahead;
    switch (ps->vgpu_sched) {
    case VGPU_EQUAL_SHARE:
      sp = eff / n;
      ahead = n - 1;
      break;
    case VGPU_FIXED_SHARE:
      sp = eff / m;
      ahead = m - 1;
      break;
    case VGPU_BEST_EFFORT:
    default:
      if (!share_table_speed(p, g, t, &sp))
        sp = share_ts_curve_speed(curve, share_job_of(t->job)->spec->gpu_util, others);
      ahead = others;
      break;
    }
    t->speed = sp > 1.0 ? 1.0 : sp;
    t->alloc_share = 1.0 / m;
    t->turn_wait_ns = ahead > 0 ? ahead * slice / 2.0 + sw : 0.0;
  }
}

static int64_t vgpu_mem_capacity(const share_pool *p, const gpu_state *g, const task *t) {
  return vgpu_framebuffer(p->spec);
}

/* A VM cannot allocate past its frame buffer: only the offender fails. */
static void vgpu_oom_victims(const share_pool *p, gpu_state *g, task *offender,
                             GPtrArray *victims) {
  g_ptr_array_add(victims, offender);
}

/* NVIDIA vGPU software is licensed per concurrent user (VM): the scenario's price. */
static double vgpu_licence(const pool_spec *p) { return p->vgpu_licence_per_hour; }

/* ---- its pool keys (scenario.h: pool_check) ---- */

static const scenario_key vgpu_key_profile = {
    "profile", NULL, "the vGPU profile every VM gets (its frame buffer and VMs per card)",
    "A100D-40C|A100D-20C|A100D-10C"};
static const scenario_key vgpu_key_scheduler = {
    "scheduler", "best-effort", "best-effort | equal-share | fixed-share: the vGPU "
    "scheduler", "best-effort|equal-share|fixed-share"};
static const scenario_key vgpu_key_licence = {
    "vgpu_licence_per_hour", "0.5133", "licence price per vGPU-hour ($4500 a year [S55])",
    NULL};
static const scenario_key *const vgpu_keys[] = {
    &scenario_key_timeslice, &scenario_key_context_switch, &vgpu_key_profile,
    &vgpu_key_scheduler, &vgpu_key_licence, NULL};

/* "A100D-4C, A100D-8C, ..." the model's vGPU profiles. Owned. */
static char *vgpu_profile_names(const gpu_model *m) {
  GString *s = g_string_new(NULL);
  for (guint i = 0; i < m->n_vgpu_profiles; i++) {
    if (i) g_string_append(s, ", ");
    g_string_append(s, m->vgpu_profiles[i].name);
  }
  return g_string_free(s, FALSE);
}

/* profile: a vGPU profile of the pool's model (required); its count per GPU sets the default
 * time slice unless the pool gives one */
static void vgpu_validate_profile(pool_check *c, pool_spec *p) {
  const gpu_model *m = p->gpu;
  const scenario_yaml *n = pool_check_key(c, "profile");
  if (!n) {
    g_autofree char *list = vgpu_profile_names(m);
    if (m->n_vgpu_profiles)
      pool_check_report(c, pool_check_map(c), "%s: strategy vgpu needs 'profile' (a vGPU "
                        "profile of %s: %s)", pool_check_prefix(c), m->name, list);
    else
      pool_check_report(c, pool_check_map(c), "%s: strategy vgpu needs a vGPU profile, but "
                        "the catalogue has none for %s", pool_check_prefix(c), m->name);
    return;
  }
  if (n->type != SCENARIO_YAML_SCALAR) {
    pool_check_expected(c, n, "profile", "text");
    return;
  }
  p->vgpu = catalog_vgpu_find(m, n->text);
  if (!p->vgpu && m->n_vgpu_profiles) {
    g_autofree char *list = vgpu_profile_names(m);
    g_autofree char *exp = g_strdup_printf("a vGPU profile of %s (one of: %s)", m->name, list);
    pool_check_expected(c, n, "profile", exp);
  } else if (!p->vgpu) {
    pool_check_report(c, n, "%s: the catalogue has no vGPU profiles for %s",
                      pool_check_what(c, "profile"), m->name);
  } else if (!pool_check_key(c, scenario_key_timeslice.name)) {
    p->timeslice_ns = SCENARIO_VGPU_TIMESLICE_NS(p->vgpu->max_per_gpu);
  }
}

static void vgpu_validate_pool(pool_check *c, pool_spec *p) {
  static const char *const scheduler_names[] = {"best-effort", "equal-share", "fixed-share", NULL};
  p->timeslice_ns = SCENARIO_VGPU_TIMESLICE_NS(8);
  pool_check_timeslice(c, p);
  if (p->gpu) vgpu_validate_profile(c, p);
  int e;
  if (pool_check_enum(c, "scheduler", scheduler_names, &e)) p->vgpu_sched = (vgpu_scheduler)e;
  pool_check_number(c, "vgpu_licence_per_hour", "a price in $ per vGPU-hour >= 0", 0, FALSE,
                    INFINITY, FALSE, &p->vgpu_licence_per_hour);
}

/* ", profile A100D-20C" */
static void vgpu_describe(GString *s, const pool_spec *p) {
  if (p->vgpu) g_string_append_printf(s, ", profile %s", p->vgpu->name);
  scenario_describe_oom(s, p);
}

const share_ops share_vgpu_ops = {
    .input = {.name = "vgpu", .example = "    profile: A100D-20C\n", .keys = vgpu_keys,
              .validate = vgpu_validate_pool, .describe = vgpu_describe,
              .capacity = SCENARIO_CAPACITY_VMS, .capacity_key = &vgpu_key_profile,
              .sample_gpu = "A100-80GB"},
    .description = "time-sliced vGPU profiles: partitioned frame buffer, scheduler-shared compute",
    .implemented = TRUE,
    .slots_per_gpu = vgpu_per_gpu,
    .can_ever_fit = vgpu_can_ever_fit,
    .gpu_accepts = vgpu_gpu_accepts,
    .update_speeds = vgpu_update_speeds,
    .gauges = share_default_gauges,
    .mem_capacity = vgpu_mem_capacity,
    .oom_victims = vgpu_oom_victims,
    .crash_victims = share_default_crash_victims,
    .prune_rank = share_prune_by_size,
    .licence_per_worker_hour = vgpu_licence,
};
