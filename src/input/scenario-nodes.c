/* scenario-nodes.c: a pool's nodes as a cluster's node list describes them: host CPU
 * (cpu_milli) and host memory (memory_mib) per node, the GPU model label a job's gpu_spec is
 * matched against, and `node_groups:` for pools whose nodes differ (GPU count, CPU, memory,
 * model). It parses and validates those keys only; scenario.c owns the rest of a pool. */
#include "scenario.h"
#include <string.h>

/* Largest host CPU (millicores) and memory (MiB) per node: sanity caps, not hardware limits. */
#define NODES_MAX_CPU_MILLI INT64_C(100000000)   /* 100,000 cores */
#define NODES_MAX_MEMORY_MIB INT64_C(1073741824) /* 1 PiB */
#define NODES_MAX_GROUPS 100000u

static const char *const group_keys[] = {"nodes", "gpus_per_node", "cpu_milli", "memory_mib",
                                         "model", NULL};

/* A model label: non-empty, printable, no '|' (gpu_spec separates alternatives with it). */
static gboolean nodes_model(diag_list *d, const char *file, const scenario_yaml *n,
                            const char *what, char **out) {
  const char *t = scenario_yaml_scalar(d, file, n, what, "a GPU model name such as T4 or V100M16");
  if (!t) return FALSE;
  gboolean ok = *t && g_utf8_validate(t, -1, NULL) && !strchr(t, '|') && strlen(t) <= 64;
  for (const char *c = t; ok && *c; c++) ok = (unsigned char)*c >= 0x20;
  if (!ok) {
    scenario_yaml_expected(d, file, n, what, "a GPU model name of 1 to 64 characters without '|'");
    return FALSE;
  }
  g_free(*out);
  *out = g_strdup(t);
  return TRUE;
}

static void nodes_host(diag_list *d, const char *file, const scenario_yaml *map,
                       const char *prefix, int64_t *cpu, int64_t *mem, char **model) {
  char w[160];
  const scenario_yaml *n;
  if ((n = scenario_yaml_get(map, "cpu_milli"))) {
    g_snprintf(w, sizeof w, "%s.cpu_milli", prefix);
    scenario_yaml_int(d, file, n, w, 0, NODES_MAX_CPU_MILLI, cpu);
  }
  if ((n = scenario_yaml_get(map, "memory_mib"))) {
    g_snprintf(w, sizeof w, "%s.memory_mib", prefix);
    scenario_yaml_int(d, file, n, w, 0, NODES_MAX_MEMORY_MIB, mem);
  }
  if ((n = scenario_yaml_get(map, "model"))) {
    g_snprintf(w, sizeof w, "%s.model", prefix);
    nodes_model(d, file, n, w, model);
  }
}

static void nodes_group(diag_list *d, const char *file, const scenario_yaml *gm, pool_spec *p,
                        const char *prefix) {
  char w[160];
  pool_node_group g = {.line = gm->line, .nodes = 0, .gpus_per_node = 0};
  if (gm->type != SCENARIO_YAML_MAP) {
    scenario_yaml_expected(d, file, gm, prefix,
                           "a mapping with nodes, gpus_per_node, cpu_milli, memory_mib, model");
    return;
  }
  scenario_yaml_check_keys(d, file, gm, prefix, group_keys);
  int64_t v;
  const scenario_yaml *n;
  g_snprintf(w, sizeof w, "%s.nodes", prefix);
  if (!(n = scenario_yaml_get(gm, "nodes")))
    scenario_yaml_report(d, file, gm, "%s: missing required key 'nodes'", prefix);
  else if (scenario_yaml_int(d, file, n, w, 1, SCENARIO_MAX_NODES, &v))
    g.nodes = (guint32)v;
  g_snprintf(w, sizeof w, "%s.gpus_per_node", prefix);
  if (!(n = scenario_yaml_get(gm, "gpus_per_node")))
    scenario_yaml_report(d, file, gm, "%s: missing required key 'gpus_per_node'", prefix);
  else if (scenario_yaml_int(d, file, n, w, 1, SCENARIO_MAX_GPUS_PER_NODE, &v))
    g.gpus_per_node = (guint32)v;
  g.cpu_milli = p->cpu_milli;
  g.memory_mib = p->memory_mib;
  g.model = g_strdup(p->model);
  nodes_host(d, file, gm, prefix, &g.cpu_milli, &g.memory_mib, &g.model);
  if (!g.nodes || !g.gpus_per_node) {
    g_free(g.model);
    return;
  }
  g_array_append_val(p->node_groups, g);
  p->nodes = (guint32)MIN((guint64)p->nodes + g.nodes, (guint64)G_MAXUINT32);
  p->gpus_per_node = MAX(p->gpus_per_node, g.gpus_per_node);
  p->group_gpus += (guint64)g.nodes * g.gpus_per_node;
}

gboolean scenario_nodes_parse(diag_list *d, const char *file, const scenario_yaml *pm,
                              pool_spec *p, const char *prefix) {
  nodes_host(d, file, pm, prefix, &p->cpu_milli, &p->memory_mib, &p->model);
  const scenario_yaml *gs = scenario_yaml_get(pm, "node_groups");
  if (!gs) return FALSE;
  const char *clash[] = {"nodes", "gpus_per_node"};
  for (guint i = 0; i < G_N_ELEMENTS(clash); i++)
    if (scenario_yaml_get(pm, clash[i]))
      scenario_yaml_report(d, file, scenario_yaml_get_key(pm, clash[i]),
                           "%s: '%s' and 'node_groups' exclude each other (node_groups give "
                           "every group's nodes and gpus_per_node)", prefix, clash[i]);
  p->node_groups = g_array_new(FALSE, TRUE, sizeof(pool_node_group));
  p->nodes = 0;
  p->gpus_per_node = 0;
  if (gs->type != SCENARIO_YAML_SEQ || !gs->items->len || gs->items->len > NODES_MAX_GROUPS) {
    char w[160];
    g_snprintf(w, sizeof w, "%s.node_groups", prefix);
    scenario_yaml_expected(d, file, gs, w, "a non-empty list of node groups");
    return TRUE;
  }
  for (guint i = 0; i < gs->items->len; i++) {
    char gw[160];
    g_snprintf(gw, sizeof gw, "%s.node_groups[%u]", prefix, i + 1);
    nodes_group(d, file, g_ptr_array_index(gs->items, i), p, gw);
  }
  if (p->nodes > SCENARIO_MAX_NODES)
    scenario_yaml_report(d, file, gs, "%s: %u nodes in node_groups is more than the %d a pool "
                         "may have", prefix, p->nodes, SCENARIO_MAX_NODES);
  if (!p->node_groups->len) p->gpus_per_node = 1; /* errors reported; keep the spec sane */
  return TRUE;
}

void scenario_nodes_free(pool_spec *p) {
  if (p->node_groups) {
    for (guint i = 0; i < p->node_groups->len; i++)
      g_free(g_array_index(p->node_groups, pool_node_group, i).model);
    g_array_unref(p->node_groups);
  }
  p->node_groups = NULL;
  g_free(p->model);
  p->model = NULL;
}

void pool_node_info(const pool_spec *p, guint32 n, guint32 *gpus, int64_t *cpu_milli,
                    int64_t *memory_mib, const char **model) {
  if (!p->node_groups) {
    *gpus = p->gpus_per_node;
    *cpu_milli = p->cpu_milli;
    *memory_mib = p->memory_mib;
    *model = p->model ? p->model : p->gpu->name;
    return;
  }
  for (guint i = 0; i < p->node_groups->len; i++) {
    const pool_node_group *g = &g_array_index(p->node_groups, pool_node_group, i);
    if (n < g->nodes) {
      *gpus = g->gpus_per_node;
      *cpu_milli = g->cpu_milli;
      *memory_mib = g->memory_mib;
      *model = g->model ? g->model : p->gpu->name;
      return;
    }
    n -= g->nodes;
  }
  g_assert_not_reached();
}
