/* scenario-dra.c: a pool's sharing taken from a Kubernetes DRA claim (dra.h): the strategy
 * the claim implies, the MIG layout its devices give a card, and the replicas and MPS
 * settings it carries, applied where the pool does not set them, with a note in words for
 * `check`. The claim is read by dra.c; the pool's keys by scenario.c. */
#include "scenario.h"
#include "dra.h"
#include <string.h>

guint scenario_dra_flag(const dra_claim *dc) {
  switch (dc->kind) {
  case DRA_TIME_SLICING: return SCENARIO_NV_TIME_SLICING;
  case DRA_MPS: return SCENARIO_NV_MPS;
  case DRA_MIG: return SCENARIO_NV_MIG_CONFIG;
  default: return SCENARIO_NV_DEFAULT;
  }
}

/* As many copies of the claim's MIG devices as fit one card of p->gpu (a single profile
 * fills the card with it). */
void scenario_dra_layout(diag_list *d, const dra_claim *dc, pool_spec *p) {
  const gpu_model *m = p->gpu;
  if (dc->kind != DRA_MIG || !m || !m->mig_slots) return; /* reported by the MIG strategy */
  guint nb = dc->profiles->len;
  uint8_t base[CATALOG_MAX_INSTANCES], idx[CATALOG_MAX_INSTANCES];
  for (guint i = 0; i < nb; i++) {
    const char *prof = g_ptr_array_index(dc->profiles, i);
    guint line = g_array_index(dc->profile_pos, guint, 2 * i);
    guint col = g_array_index(dc->profile_pos, guint, 2 * i + 1);
    int pi = catalog_profile_index(m, prof);
    if (pi < 0) {
      g_autofree char *names = catalog_profile_names(m);
      g_autofree char *e = scenario_yaml_escape(prof);
      diag_add(d, dc->path, line, col, "MIG profile '%s' does not exist on %s, the GPU of pool "
               "%s (its profiles: %s)", e, m->name, p->name ? p->name : "?", names);
      return;
    }
    if (i >= CATALOG_MAX_INSTANCES) {
      diag_add(d, dc->path, line, col, "more than %d MIG devices in one claim",
               CATALOG_MAX_INSTANCES);
      return;
    }
    base[i] = (uint8_t)pi;
  }
  gboolean ok = FALSE;
  g_autofree char *why = NULL;
  for (guint k = 1; k * nb <= CATALOG_MAX_INSTANCES; k++) {
    for (guint j = 0; j < k * nb; j++) idx[j] = base[j % nb];
    mig_layout l;
    char *msg = NULL;
    if (!catalog_layout_validate(m, idx, k * nb, &l, &msg)) {
      if (!why) why = msg;
      else g_free(msg);
      break;
    }
    g_free(msg);
    p->layout = l;
    ok = TRUE;
  }
  if (ok) {
    p->has_layout = TRUE;
  } else {
    diag_add(d, dc->path, dc->line, dc->col, "the MIG devices of %s do not fit one %s: %s",
             dc->object, m->name, why ? why : "not a valid MIG layout");
  }
}

/* "interval Long (read, not modelled: ...)" */
static void note_interval(GString *s, const dra_claim *dc, const pool_spec *p) {
  if (!dc->interval) return;
  if (!strcmp(dc->interval, "Default"))
    g_string_append_printf(s, ", interval Default (the driver's default: timeslice %gus)",
                           (double)p->timeslice_ns / 1e3);
  else
    g_string_append_printf(s, ", interval %s (read, not modelled: NVIDIA publishes no duration "
                           "for it; timeslice stays %gus)", dc->interval,
                           (double)p->timeslice_ns / 1e3);
}

static void note_build(const dra_claim *dc, pool_spec *p) {
  GString *s = g_string_new(NULL);
  g_string_append_printf(s, "from DRA %s in %s (request%s %s): %s", dc->object, dc->path,
                         strchr(dc->requests, ',') ? "s" : "", dc->requests,
                         dra_kind_name(dc->kind));
  if (dc->kind == DRA_TIME_SLICING && !dc->interval && dc->sharers > 1)
    g_string_append(s, " (no sharing config: the containers share the GPU by time-slicing)");
  note_interval(s, dc, p);
  if (dc->kind == DRA_MPS && dc->thread_pct <= 0)
    g_string_append(s, ", no defaultActiveThreadPercentage (MPS default: 100)");
  if (dc->kind == DRA_MPS && !dc->pinned_bytes)
    g_string_append(s, ", no pinned memory limit (MPS default: none)");
  if (dc->sharers)
    g_string_append_printf(s, ", %u container%s per device (%s)", dc->sharers,
                           dc->sharers == 1 ? "" : "s", dc->sharers_from);
  g_string_append_printf(s, ", %u %s per claim (jobs keep their trace's GPU count)", dc->devices,
                         dc->kind == DRA_MIG ? (dc->devices == 1 ? "MIG device" : "MIG devices")
                                             : (dc->devices == 1 ? "GPU" : "GPUs"));
  g_free(p->dra_note);
  p->dra_note = g_string_free(s, FALSE);
}

void scenario_dra_apply(diag_list *d, const char *file, const scenario_yaml *node,
                        const dra_claim *dc, pool_spec *p, gboolean explicit_replicas) {
  if (dc->kind != DRA_EXCLUSIVE && !explicit_replicas && dc->sharers > 1) {
    guint limit = p->strategy->replica_limit && p->gpu ? p->strategy->replica_limit(p->gpu)
                                                       : SCENARIO_MAX_REPLICAS;
    if (dc->sharers > limit) {
      scenario_yaml_report(d, file, node, "%s: %u containers share one device of %s (%s), "
                           "more than the %u %s allows", p->name ? p->name : "pool", dc->sharers,
                           dc->object, dc->sharers_from, limit, share_strategy_name(p->strategy));
    } else {
      p->replicas = dc->sharers;
      p->replicas_set = TRUE;
    }
  }
  if (dc->kind == DRA_MPS) {
    if (p->active_thread_percentage <= 0) /* the pool did not set it */
      p->active_thread_percentage = dc->thread_pct > 0 ? dc->thread_pct : 100;
    if (p->pinned_mem_limit_bytes == POOL_PINNED_DEFAULT)
      p->pinned_mem_limit_bytes = dc->pinned_bytes ? dc->pinned_bytes : POOL_PINNED_NONE;
  }
  note_build(dc, p);
}
