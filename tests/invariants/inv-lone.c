/* inv-lone.c: lone gangs (issue 27 item 8). One pool per case, one strategy and one
 * placement policy each (every policy of the program's table); a one-worker job runs
 * alone, then gangs of 2, 3 and 4 workers, each alone on the emptied pool. A gang must run
 * at the speed of its one-worker twin (no gang penalty: its workers on distinct free GPUs,
 * none waiting for a stacked mate), and at full speed under every strategy that neither
 * caps nor partitions a lone client. */
#include "invariants.h"
#include <math.h>

typedef struct inv_lone_variant {
  const char *name;          /* in the report */
  const char *strategy;      /* a name of the strategy table */
  const char *keys;          /* the pool's strategy keys (YAML lines) */
  gboolean full;             /* a lone client runs at full speed (no cap, no partition) */
} inv_lone_variant;

/* MPS with the device plugin's default cap (activeThreadPercentage 100 / replicas = 50 %)
 * runs an sm 1 worker at half speed, gang or not (docs/models.md, "MPS"); without the cap
 * at full speed. MIG runs it at its instance's speed, fixed-share vGPU at its share. */
static const inv_lone_variant inv_lone_variants[] = {
    {"exclusive", "exclusive", "", TRUE},
    {"time-slicing", "time-slicing", "    replicas: 2\n", TRUE},
    {"mps-capped", "mps", "    replicas: 2\n", FALSE},
    {"mps-uncapped", "mps", "    replicas: 2\n    activeThreadPercentage: 100\n", TRUE},
    {"fractional", "fractional", "", TRUE},
    {"mig", "mig", "    layout: \"3g.40gb x2\"\n", FALSE},
    {"vgpu-best-effort", "vgpu", "    profile: A100D-40C\n    scheduler: best-effort\n", TRUE},
    {"vgpu-fixed-share", "vgpu", "    profile: A100D-40C\n    scheduler: fixed-share\n", FALSE},
};

#define INV_LONE_GAP_S 10000 /* between the jobs' submissions: each runs alone */
#define INV_LONE_WORK_S 500

/* every variant under every placement policy of the program's table (a new policy's row
 * gets its lone-gang cases) */
guint inv_lone_count(void) {
  return G_N_ELEMENTS(inv_lone_variants) * scenario_placement_count();
}

gboolean inv_lone_gen(guint i, const char *dir, inv_case *c, GError **error) {
  const inv_lone_variant *v = &inv_lone_variants[i % G_N_ELEMENTS(inv_lone_variants)];
  const char *placement = scenario_placement_get(i / G_N_ELEMENTS(inv_lone_variants))->name;
  memset(c, 0, sizeof *c);
  c->lone = TRUE;
  c->n_pools = 1;
  g_snprintf(c->pools[0].name, sizeof c->pools[0].name, "%s-%s", v->name, placement);
  if (!share_strategy_parse(v->strategy, &c->pools[0].strategy)) {
    g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "no strategy '%s'", v->strategy);
    return FALSE;
  }
  g_strlcpy(c->pools[0].gpu, "A100-80GB", sizeof c->pools[0].gpu);
  c->pools[0].card_gb = 85.899345920;
  c->pools[0].gpus = 4;
  c->lone_full = v->full;
  g_autoptr(GString) y = g_string_new(NULL);
  g_string_append_printf(y, "name: lone\nseed: 1\npools:\n  - name: %s\n    gpu: A100-80GB\n"
                         "    nodes: 2\n    gpus_per_node: 2\n    strategy: %s\n"
                         "    placement: %s\n%s",
                         c->pools[0].name, v->strategy, placement, v->keys);
  g_autoptr(GString) t = g_string_new(INV_TRACE_HEADER "\n");
  for (int k = 1; k <= 4; k++) /* sm 1: the whole card's SMs; no communication share */
    g_string_append_printf(t, "g%d,%d,training,%d,10,%d,t0,0,0.5,1,,,,,,,,,0,,\n", k,
                           (k - 1) * INV_LONE_GAP_S, k, INV_LONE_WORK_S);
  g_autofree char *ys = g_build_filename(dir, "scenario.yaml", NULL);
  g_autofree char *ts = g_build_filename(dir, "trace.csv", NULL);
  g_autofree char *ps = g_build_filename(dir, "phases.csv", NULL);
  return g_file_set_contents(ys, y->str, -1, error) && g_file_set_contents(ts, t->str, -1, error) &&
         g_file_set_contents(ps, INV_PHASES_HEADER "\n", -1, error);
}

/* Each gang gK ran as long as g1 (alone, one worker), on K distinct GPUs, started when
 * submitted; with c->lone_full, g1 itself ran its work at full speed. */
void inv_check_lone(const inv_case *c, const inv_table *jobs, inv_report *rep) {
  int cid = inv_col(jobs, "id"), crun = inv_col(jobs, "run_s"), cwait = inv_col(jobs, "wait_s"),
      cids = inv_col(jobs, "gpu_ids"), cout = inv_col(jobs, "outcome");
  double solo = NAN;
  for (guint r = 0; r < inv_rows(jobs); r++)
    if (!strcmp(inv_cell(jobs, r, cid), "g1")) solo = inv_num(jobs, r, crun);
  rep->checks++;
  if (!isfinite(solo)) {
    inv_fail(rep, "lone-gang", "%s: g1 did not run", c->pools[0].name);
    return;
  }
  if (c->lone_full && fabs(solo - INV_LONE_WORK_S) > 1e-6 * INV_LONE_WORK_S)
    inv_fail(rep, "lone-gang", "%s: one worker alone took %.9g s for %d s of work", c->pools[0].name,
             solo, INV_LONE_WORK_S);
  for (guint r = 0; r < inv_rows(jobs); r++) {
    const char *id = inv_cell(jobs, r, cid);
    if (!strcmp(id, "g1")) continue;
    rep->checks++;
    int k = atoi(id + 1);
    g_auto(GStrv) ids = g_strsplit(inv_cell(jobs, r, cids), ";", -1);
    g_autoptr(GHashTable) distinct = g_hash_table_new(g_str_hash, g_str_equal);
    for (char **m = ids; *m; m++) g_hash_table_add(distinct, *m);
    double run = inv_num(jobs, r, crun);
    if (strcmp(inv_cell(jobs, r, cout), "completed") || inv_num(jobs, r, cwait) != 0 ||
        (int)g_hash_table_size(distinct) != k || fabs(run - solo) > 1e-6 * solo)
      inv_fail(rep, "lone-gang", "%s: gang %s of %d workers alone on %s: %s after waiting %s s, "
               "ran %.9g s against %.9g s for one worker alone", c->pools[0].name, id, k,
               inv_cell(jobs, r, cids), inv_cell(jobs, r, cout), inv_cell(jobs, r, cwait), run,
               solo);
  }
}
