/* cmd-compare-size.c: `compare --size-to-constraints`: before the comparison, every pool of
 * every scenario is sized to the same constraints by size's search (sizing.c: doubling,
 * then bisection, under monotonicity), one pool after another; the sized scenarios are then
 * compared, and compare.txt and sizing.csv say what each pool was typed and sized to. */
#include "cmd-compare-size.h"
#include "cmd.h"
#include "cmd-load.h"
#include "cmd-constraints.h"
#include "figures.h"
#include "outdir.h"
#include "sim.h"
#include "studyrun.h"
#include "util.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

void compare_sizing_init(compare_sizing *z) {
  z->sets = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
  z->text = g_string_new(NULL);
  z->csv = g_string_new("scenario,pool,typed_nodes,nodes,gpus,met,probes\n");
  z->json = g_string_new(NULL);
  z->unmet = 0;
}

void compare_sizing_clear(compare_sizing *z) {
  if (z->sets) g_ptr_array_unref(z->sets);
  if (z->text) g_string_free(z->text, TRUE);
  if (z->csv) g_string_free(z->csv, TRUE);
  if (z->json) g_string_free(z->json, TRUE);
  memset(z, 0, sizeof *z);
}

/* One pool's search: the scenario's path, its overrides so far, the pool, where probes go. */
typedef struct csize_ctx {
  const char *path;
  GPtrArray *sets;
  const char *pool;
  const trace *tr;
  const char *dir;
  const sizing_constraints *cons;
  studyrun_pool *runner;
  int name_w, pool_w;   /* widths of the text block's first two columns */
  GString *why;         /* what the last probe broke */
  double typed_gpus, gpus; /* the scenario's GPUs as typed and as sized, so far */
  GString *unmet;       /* its pools met at no size, as a JSON list's items */
} csize_ctx;

/* The scenario of path with the overrides sets (and extra, may be NULL), checked as run
 * checks it; NULL with error. */
static scenario *csize_load(const char *path, GPtrArray *sets, const char *extra,
                            const trace *tr, GError **error) {
  if (extra) g_ptr_array_add(sets, (char *)extra);
  scenario *sc = cmd_scenario_checked(path, (const char *const *)sets->pdata, sets->len, tr,
                                      error);
  if (extra) g_ptr_array_steal_index(sets, sets->len - 1); /* extra stays the caller's */
  return sc;
}

/* sizing_probe_fn: runs the scenario with nodes nodes in the pool into the probe folder and
 * judges that pool (the folder is removed after). */
static sizing_verdict csize_probe(guint32 nodes, gpointer user, GError **error) {
  csize_ctx *c = user;
  g_autofree char *ov = g_strdup_printf("pools.%s.nodes=%u", c->pool, nodes);
  scenario *sc = csize_load(c->path, c->sets, ov, c->tr, error);
  if (!sc) return SIZING_ERROR;
  run_figures *fig = NULL;
  const char *dirs[] = {c->dir};
  guint ok = studyrun_all(c->runner, (const scenario *const *)&sc, c->tr, dirs, 1, &fig, error);
  scenario_free(sc);
  if (ok != 1) return SIZING_ERROR;
  g_string_truncate(c->why, 0);
  gboolean pass = sizing_check(fig, c->pool, c->cons, c->why, NULL);
  figures_free(fig);
  outdir_remove_tree(c->dir, NULL); /* written by this probe, inside the command's work */
  return pass ? SIZING_PASS : SIZING_FAIL;
}

/* The search range of pool pi of sc: [1, max_nodes], max_nodes 0 meaning size's default. */
static guint32 csize_max(const scenario *sc, guint pi, gint64 max_nodes) {
  const pool_spec *ps = scenario_pool(sc, pi);
  gint64 cap = cmd_constraints_node_cap(ps);
  return (guint32)(max_nodes > 0 ? MIN(cap, max_nodes) : cmd_constraints_default_max(ps));
}

/* Sizes pool pi of scenario i (sets: its overrides so far, the answer appended). */
static int csize_pool(csize_ctx *c, const scenario *sc, guint pi, gint64 max_nodes,
                      compare_sizing *z) {
  const pool_spec *ps = scenario_pool(sc, pi);
  guint32 hi = csize_max(sc, pi, max_nodes), answer = 0;
  c->pool = ps->name;
  GArray *probes = g_array_new(FALSE, FALSE, sizeof(sizing_probe));
  g_autoptr(GError) err = NULL;
  if (!sizing_search(1, hi, csize_probe, c, &answer, probes, &err)) {
    g_array_free(probes, TRUE);
    return cmd_fail("compare", err);
  }
  gboolean met = answer > 0;
  if (!met) z->unmet++;
  guint32 nodes = met ? answer : ps->nodes; /* unmet: compared at its own size */
  g_ptr_array_add(c->sets, g_strdup_printf("pools.%s.nodes=%u", ps->name, nodes));
  GString *list = g_string_new(NULL);
  for (guint k = 0; k < probes->len; k++) {
    const sizing_probe *p = &g_array_index(probes, sizing_probe, k);
    g_string_append_printf(list, "%s%u%s", k ? " " : "", p->nodes, p->pass ? "+" : "-");
  }
  g_array_free(probes, TRUE);
  guint32 gpus = nodes * ps->gpus_per_node;
  c->typed_gpus += (double)ps->nodes * ps->gpus_per_node;
  c->gpus += gpus;
  if (!met) {
    g_string_append(c->unmet, c->unmet->len ? ", " : "");
    figures_json_string(c->unmet, ps->name);
  }
  g_string_append_printf(z->text, "  %-*s  %-*s  %4u -> %4u node%s (%u GPU%s)%s  probes: %s\n",
                         c->name_w, sc->name, c->pool_w, ps->name, ps->nodes, nodes,
                         nodes == 1 ? "" : "s", gpus, gpus == 1 ? "" : "s",
                         met ? "" : ": kept, NOT MET at any size", list->str);
  if (!met) g_string_append_printf(z->text, "  %*s  at %u nodes: %s\n", c->name_w, "", hi, c->why->str);
  util_csv_field(z->csv, sc->name);
  g_string_append_c(z->csv, ',');
  util_csv_field(z->csv, ps->name);
  g_string_append_printf(z->csv, ",%u,%u,%u,%s,%s\n", ps->nodes, nodes, gpus, met ? "yes" : "no",
                         list->str);
  g_string_free(list, TRUE);
  return 0;
}

int compare_size_all(char **paths, scenario **sc, guint n, const trace *tr, const char *work,
                     const sizing_constraints *cons, gint64 max_nodes, gboolean progress,
                     compare_sizing *z) {
  g_autofree char *dir = g_build_filename(work, "sizing-probes", NULL);
  csize_ctx c = {.tr = tr, .dir = dir, .cons = cons, .why = g_string_new(NULL)};
  c.runner = studyrun_pool_new(1, progress, "compare: sizing");
  for (guint i = 0; i < n; i++) {
    c.name_w = MAX(c.name_w, (int)strlen(sc[i]->name));
    for (guint pi = 0; pi < sc[i]->pools->len; pi++)
      c.pool_w = MAX(c.pool_w, (int)strlen(scenario_pool(sc[i], pi)->name));
  }
  g_string_append(z->text, "Sized to the same constraints (");
  sizing_describe(cons, z->text);
  g_string_append(z->text, "), pool by pool (probes: nodes, + met, - broke):\n");
  g_autoptr(GString) cons_text = g_string_new(NULL);
  sizing_describe(cons, cons_text);
  g_string_append(z->json, "\"sizing\": {\"constraints\": ");
  figures_json_string(z->json, cons_text->str);
  g_string_append(z->json, ", \"runs\": [");
  c.unmet = g_string_new(NULL);
  int rc = 0;
  for (guint i = 0; rc == 0 && i < n; i++) {
    c.path = paths[i];
    c.sets = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(z->sets, c.sets);
    c.typed_gpus = c.gpus = 0;
    g_string_truncate(c.unmet, 0);
    for (guint pi = 0; rc == 0 && pi < sc[i]->pools->len; pi++)
      rc = csize_pool(&c, sc[i], pi, max_nodes, z);
    g_string_append(z->json, i ? ",\n    {\"scenario\": " : "\n    {\"scenario\": ");
    figures_json_string(z->json, sc[i]->name);
    g_string_append_printf(z->json, ", \"typed_gpus\": %.0f, \"gpus\": %.0f, \"unmet_pools\": "
                           "[%s]}", c.typed_gpus, c.gpus, c.unmet->str);
    g_autoptr(GError) err = NULL;
    scenario *sized = rc == 0 ? csize_load(c.path, c.sets, NULL, tr, &err) : NULL;
    if (rc == 0 && !sized) rc = cmd_fail("compare", err);
    if (sized) {
      scenario_free(sc[i]);
      sc[i] = sized;
    }
  }
  g_string_append(z->json, "\n  ]}");
  studyrun_pool_free(c.runner);
  g_string_free(c.why, TRUE);
  g_string_free(c.unmet, TRUE);
  return rc;
}
