/* scenario-describe.c: a pool's settings as they were resolved, in words, with the file (and
 * ConfigMap key) each came from, for `sharesim check` and the result folders: the common
 * part, the pieces of the key groups of this layer, and the strategy's own part through
 * its row's describe. It reads a frozen pool_spec only; it validates and prints nothing. */
#include "scenario.h"
#include "nvconfig.h"
#include "podspec.h"

/* " (from FILE#KEY (ConfigMap NAME))" when the pool took its sharing from a device-plugin
 * config: the file is read again for the key it was taken from (a Helm default key). */
static void from_sharing(GString *s, const pool_spec *p) {
  if (!p->sharing_config_path) return;
  g_autoptr(diag_list) d = diag_list_new(1);
  g_autoptr(nvconfig_sharing) c = nvconfig_sharing_load_in(p->ref_dir, p->sharing_config_path, d);
  g_string_append_printf(s, " (from %s)", c ? c->source : p->sharing_config_path);
}

void scenario_describe_replicas(GString *s, const pool_spec *p) {
  g_string_append_printf(s, ", replicas %u", p->replicas);
  from_sharing(s, p);
}

void scenario_describe_fail_requests(GString *s, const pool_spec *p) {
  if (p->fail_requests_greater_than_one) g_string_append(s, ", failRequestsGreaterThanOne");
}

void scenario_describe_no_sharing(GString *s, const pool_spec *p) {
  if (p->sharing_config_path)
    g_string_append_printf(s, " (%s has no sharing section)", p->sharing_config_path);
}

void scenario_describe_oom(GString *s, const pool_spec *p) {
  g_string_append_printf(s, ", oom %s",
                         p->oom == OOM_FAILED_ALLOCATION ? "failed-allocation"
                         : p->oom == OOM_SIDECAR         ? "sidecar"
                                                         : "all");
}

/* The entries of the pool's mig-parted config that were left out for its GPU model. */
static void mig_ignored(GString *s, const pool_spec *p) {
  if (!p->mig_config_path || !p->mig_config_name) return;
  g_autoptr(diag_list) d = diag_list_new(1);
  g_autoptr(nvconfig_mig) mc = nvconfig_mig_load_in(p->ref_dir, p->mig_config_path, d);
  const nvconfig_mig_config *cfg = mc ? nvconfig_mig_find(mc, p->mig_config_name) : NULL;
  g_autofree char *ign = cfg ? nvconfig_mig_ignored(cfg, p->gpu) : NULL;
  if (ign) g_string_append_printf(s, "; entries ignored for %s: %s", p->gpu->name, ign);
  /* per-device entries: the set-up of each GPU of a node */
  g_autoptr(GArray) setups = g_array_new(FALSE, TRUE, sizeof(nvconfig_gpu_setup));
  g_autofree char *per = NULL;
  if (cfg && nvconfig_mig_per_gpu(mc, cfg, p->gpu, p->gpus_per_node, setups, &per, d) >= 0 && per)
    g_string_append_printf(s, "; per device: %s", per);
}

/* ", replicas 2 per instance" or ", replicas per profile 1g.10gb: 2, 3g.40gb: 3 (others
 * 1)", with the file they came from. */
static void describe_mig_replicas(GString *s, const pool_spec *p) {
  GString *per = g_string_new(NULL);
  for (guint i = 0; i < p->gpu->n_profiles && i < CATALOG_MAX_PROFILES; i++)
    if (p->profile_replicas[i])
      g_string_append_printf(per, "%s%s: %u", per->len ? ", " : "", p->gpu->profiles[i].name,
                             p->profile_replicas[i]);
  if (per->len)
    g_string_append_printf(s, ", replicas per profile %s (others %u)", per->str,
                           p->replicas ? p->replicas : 1);
  else if (p->replicas > 1)
    g_string_append_printf(s, ", replicas %u per instance", p->replicas);
  if (per->len || p->replicas > 1) from_sharing(s, p);
  g_string_free(per, TRUE);
}

void scenario_describe_mig(GString *s, const pool_spec *p) {
  if (p->gpu_layouts) {
    g_string_append(s, ", a layout per GPU"); /* mig_ignored names each */
  } else if (p->has_layout) {
    g_autofree char *l = catalog_layout_to_string(p->gpu, &p->layout);
    g_string_append_printf(s, ", layout %s", l);
  }
  if (p->mig_config_path) {
    g_autoptr(diag_list) d = diag_list_new(1);
    g_autoptr(nvconfig_mig) c = nvconfig_mig_load_in(p->ref_dir, p->mig_config_path, d);
    g_string_append_printf(s, " (from %s, config %s)", c ? c->source : p->mig_config_path,
                           p->mig_config_name ? p->mig_config_name : "?");
  }
  describe_mig_replicas(s, p);
  if (p->reconfigure == RECONFIGURE_ON_DEMAND) {
    g_string_append_printf(s, ", reconfigure on-demand (drain %s) to %u layout%s",
                           p->drain == DRAIN_EVICT ? "evict" : "wait",
                           p->layouts ? p->layouts->len : 0,
                           p->layouts && p->layouts->len == 1 ? "" : "s");
  }
  mig_ignored(s, p);
}

/* "from HAMi Pod NS/NAME in FILE: nvidia.com/gpu 2, nvidia.com/gpumem 3000 MiB, ..." */
static void scenario_describe_pod(GString *s, const pool_spec *p) {
  const pod_gpu *g = p->pod;
  g_string_append_printf(s, "; from %s %s in %s:", pod_kind_name(g->kind), g->object, g->path);
  if (g->kind == POD_KAI) {
    if (g->fraction > 0) g_string_append_printf(s, " gpu-fraction %g", g->fraction);
    else g_string_append_printf(s, " gpu-memory %g MiB", g->kai_mem_mib);
    return;
  }
  const char *sep = " ";
  if (g->gpus) {
    g_string_append_printf(s, "%snvidia.com/gpu %u (jobs keep their trace's GPU count)", sep,
                           g->gpus);
    sep = ", ";
  }
  if (g->mem_mib > 0) {
    g_string_append_printf(s, "%snvidia.com/gpumem %g MiB", sep, g->mem_mib);
    sep = ", ";
  }
  if (g->mem_percent > 0) {
    g_string_append_printf(s, "%snvidia.com/gpumem-percentage %g", sep, g->mem_percent);
    sep = ", ";
  }
  if (g->cores > 0) g_string_append_printf(s, "%snvidia.com/gpucores %g", sep, 100.0 * g->cores);
}

char *scenario_pool_describe(const pool_spec *p) {
  GString *s = g_string_new(NULL);
  g_string_append_printf(s, "%s: %u node%s x %u %s, %s", p->name, p->nodes,
                         p->nodes == 1 ? "" : "s", p->gpus_per_node, p->gpu->name,
                         share_strategy_name(p->strategy));
  if (p->strategy && p->strategy->describe) p->strategy->describe(s, p);
  else scenario_describe_no_sharing(s, p);
  g_string_append_printf(s, ", $%.2f/GPU-h", p->price_per_gpu_hour);
  const scenario_pool_section *const *sec = scenario_pool_sections();
  for (guint i = 0; sec[i]; i++)
    if (p->section_conf[i]) sec[i]->describe(s, p, p->section_conf[i]);
  if (p->dra_note) g_string_append_printf(s, "; %s", p->dra_note);
  if (p->pod) scenario_describe_pod(s, p);
  return g_string_free(s, FALSE);
}
