/* inv-gen.c: random small scenarios and traces for the invariant suite (issue 11): every
 * strategy (MIG with reconfiguration, vGPU, fractional), placement and OOM policy, phases
 * (memory growth, duty and rate changes, crashes), random crash rates, inference services
 * with and without SLOs, horizons. The same seed writes the same files. It knows nothing
 * of the checks (inv-check.c). */
#include "invariants.h"
#include <glib/gstdio.h>

static const char *const inv_strategies[] = {"exclusive", "time-slicing", "mps",
                                             "fractional", "mig", "vgpu"};
static const char *const inv_mig_layouts[] = {"3g.40gb x2", "7g.80gb", "1g.10gb x7",
                                              "4g.40gb + 3g.40gb", "2g.20gb x3 + 1g.10gb"};
static const char *const inv_vgpu_profiles[] = {"A100D-40C", "A100D-20C", "A100D-10C"};
static const char *const inv_placements[] = {"pack", "spread", "random", "dot-product",
                                             "gpu-clustering", "gpu-packing", "best-fit", "fgd"};
static const char *const inv_kinds[] = {"training", "batch", "notebook", "inference"};

static int inv_pick(GRand *r, int n) { return g_rand_int_range(r, 0, n); }
static gboolean inv_chance(GRand *r, double p) { return g_rand_double(r) < p; }

/* One pool of the scenario; spec->strategy[i] keeps what the checks need to know. */
static void inv_gen_pool(GRand *r, GString *y, inv_case *c, int i) {
  int s = inv_pick(r, G_N_ELEMENTS(inv_strategies));
  const char *strategy = inv_strategies[s];
  /* MIG and vGPU profiles below are A100-80GB's; the others also run on the 40 GB card */
  gboolean big = s >= 4 || inv_chance(r, 0.6);
  int nodes = 1 + inv_pick(r, 3), per = 1 + inv_pick(r, 4);
  g_string_append_printf(y, "  - name: p%d\n    gpu: %s\n    nodes: %d\n    gpus_per_node: %d\n",
                         i, big ? "A100-80GB" : "A100-40GB", nodes, per);
  g_string_append_printf(y, "    strategy: %s\n    placement: %s\n    oom: %s\n", strategy,
                         inv_placements[inv_pick(r, G_N_ELEMENTS(inv_placements))],
                         (const char *[]){"all", "failed-allocation", "sidecar"}[inv_pick(r, 3)]);
  if (s == 1 || s == 2) g_string_append_printf(y, "    replicas: %d\n", 2 + inv_pick(r, 3));
  if (s == 3 && inv_chance(r, 0.5))
    g_string_append_printf(y, "    fraction_cap: %.2f\n", 0.25 + 0.75 * g_rand_double(r));
  if (s == 4) {
    g_string_append_printf(y, "    layout: \"%s\"\n",
                           inv_mig_layouts[inv_pick(r, G_N_ELEMENTS(inv_mig_layouts))]);
    if (inv_chance(r, 0.6)) {
      g_string_append_printf(y, "    reconfigure: on-demand\n    drain: %s\n",
                             inv_chance(r, 0.5) ? "wait" : "evict");
      g_string_append_printf(y, "    reconfigure_time: %ds\n", 10 * inv_pick(r, 13));
    }
  }
  if (s == 5)
    g_string_append_printf(y, "    profile: %s\n    scheduler: %s\n",
                           inv_vgpu_profiles[inv_pick(r, G_N_ELEMENTS(inv_vgpu_profiles))],
                           (const char *[]){"best-effort", "equal-share", "fixed-share"}[inv_pick(r, 3)]);
  inv_pool *p = &c->pools[i];
  g_snprintf(p->name, sizeof p->name, "p%d", i);
  p->strategy = s;
  p->card_gb = big ? 85.899345920 : 42.949672960;
  p->gpus = nodes * per;
}

static void inv_gen_scenario(GRand *r, inv_case *c, GString *y) {
  g_string_append_printf(y, "name: inv-%u\nseed: %u\n", c->seed, g_rand_int_range(r, 1, 1000));
  if (inv_chance(r, 0.5))
    g_string_append_printf(y, "horizon: %ds\n", 1800 + inv_pick(r, 4 * 3600));
  g_string_append_printf(y, "interval: %ds\n", (int[]){60, 300, 600, 37}[inv_pick(r, 4)]);
  if (inv_chance(r, 0.3))
    g_string_append_printf(y, "crash_rates: {training: %.2f, notebook: %.2f, inference: %.2f}\n",
                           g_rand_double(r), 0.5 * g_rand_double(r), 0.3 * g_rand_double(r));
  if (inv_chance(r, 0.3))
    g_string_append_printf(y, "inference: {service_dist: %s}\n",
                           (const char *[]){"deterministic", "exponential", "lognormal"}[inv_pick(r, 3)]);
  c->n_pools = 1 + inv_pick(r, 3);
  g_string_append(y, "pools:\n");
  for (int i = 0; i < c->n_pools; i++) inv_gen_pool(r, y, c, i);
  if (c->n_pools > 1) {
    g_string_append(y, "routing:\n");
    for (int k = 0; k < 4; k++)
      if (inv_chance(r, 0.5))
        g_string_append_printf(y, "  - {kind: %s, pool: p%d}\n", inv_kinds[k], inv_pick(r, c->n_pools));
    g_string_append_printf(y, "  - {pool: p%d}\n", inv_pick(r, c->n_pools));
  }
}

/* One trace row (INV_TRACE_HEADER's columns) and, sometimes, its phases. */
static void inv_gen_job(GRand *r, int i, GString *t, GString *ph) {
  int k = inv_pick(r, 4);
  const char *kind = inv_kinds[k];
  int gpus = k <= 1 && inv_chance(r, 0.3) ? (int[]){2, 3, 4, 8}[inv_pick(r, 4)] : 1;
  double mem = inv_chance(r, 0.1) ? 30 + 40 * g_rand_double(r) : 1 + 20 * g_rand_double(r);
  int submit = inv_pick(r, 3 * 3600);
  int duration = 60 + inv_pick(r, 2 * 3600);
  g_string_append_printf(t, "j%d,%d,%s,%d,%.1f,%d,t%d,%d,", i, submit, kind, gpus, mem, duration,
                         inv_pick(r, 3), inv_chance(r, 0.2) ? 1 : 0);
  if (inv_chance(r, 0.5)) g_string_append_printf(t, "%.2f", 0.1 + 0.9 * g_rand_double(r));
  g_string_append_c(t, ',');
  if (inv_chance(r, 0.3)) g_string_append_printf(t, "%.2f", 0.1 + 0.9 * g_rand_double(r));
  g_string_append_c(t, ',');
  if (k == 2) g_string_append_printf(t, "%.2f,%d,", 0.5 * g_rand_double(r), 5 + inv_pick(r, 120));
  else g_string_append(t, ",,");
  if (k == 3) {
    g_string_append_printf(t, "%.1f,%.1f,", 1 + 150 * g_rand_double(r), 1 + 30 * g_rand_double(r));
    if (inv_chance(r, 0.7)) g_string_append_printf(t, "%d,%.1f,", 20 + inv_pick(r, 500),
                                                   90 + 9.9 * g_rand_double(r));
    else g_string_append(t, ",,");
    g_string_append_printf(t, "%s,%d,", inv_chance(r, 0.3) ? "0.5" : "", 1 + inv_pick(r, 6));
  } else {
    g_string_append(t, ",,,,,,");
  }
  if (k == 0) g_string_append_printf(t, "%.2f,", 0.3 * g_rand_double(r));
  else g_string_append_c(t, ',');
  if (k <= 1 && inv_chance(r, 0.3)) g_string_append_printf(t, "%d,", 60 + inv_pick(r, 1200));
  else g_string_append_c(t, ',');
  if (inv_chance(r, 0.3)) g_string_append(t, inv_chance(r, 0.5) ? "never" : "on-failure");
  g_string_append_c(t, '\n');
  /* phases: memory growth, a new duty or rate, a crash */
  for (int n = inv_chance(r, 0.35) ? 1 + inv_pick(r, 2) : 0; n > 0; n--) {
    g_string_append_printf(ph, "j%d,%d,", i, inv_pick(r, duration + 60));
    if (inv_chance(r, 0.5)) g_string_append_printf(ph, "%.1f", 1 + 60 * g_rand_double(r));
    g_string_append_c(ph, ',');
    if (k == 2 && inv_chance(r, 0.5)) g_string_append_printf(ph, "%.2f", g_rand_double(r));
    g_string_append_c(ph, ',');
    if (k == 3 && inv_chance(r, 0.5)) g_string_append_printf(ph, "%.1f", 200 * g_rand_double(r));
    g_string_append_c(ph, ',');
    g_string_append(ph, inv_chance(r, 0.15) ? "1\n" : "0\n");
  }
}

static gboolean inv_write(const char *dir, const char *name, const GString *s, GError **error) {
  g_autofree char *p = g_build_filename(dir, name, NULL);
  return g_file_set_contents(p, s->str, (gssize)s->len, error);
}

gboolean inv_gen(guint32 seed, const char *dir, inv_case *c, GError **error) {
  memset(c, 0, sizeof *c);
  c->seed = seed;
  GRand *r = g_rand_new_with_seed(seed);
  g_autoptr(GString) y = g_string_new(NULL);
  g_autoptr(GString) t = g_string_new(INV_TRACE_HEADER "\n");
  g_autoptr(GString) ph = g_string_new(INV_PHASES_HEADER "\n");
  inv_gen_scenario(r, c, y);
  int n = 2 + inv_pick(r, 20);
  for (int i = 0; i < n; i++) inv_gen_job(r, i, t, ph);
  g_rand_free(r);
  return inv_write(dir, "scenario.yaml", y, error) && inv_write(dir, "trace.csv", t, error) &&
         inv_write(dir, "phases.csv", ph, error);
}

/* Reads back what the checks need of a case folder's scenario (kept cases have no seed to
 * regenerate from): the pools' names, strategies, cards and sizes, from our own layout. */
gboolean inv_case_read(const char *dir, inv_case *c, GError **error) {
  memset(c, 0, sizeof *c);
  g_autofree char *path = g_build_filename(dir, "scenario.yaml", NULL);
  g_autofree char *text = NULL;
  if (!g_file_get_contents(path, &text, NULL, error)) return FALSE;
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  inv_pool *p = NULL;
  int nodes = 0;
  for (char **l = lines; *l; l++) {
    const char *s = g_strstrip(*l);
    if (g_str_has_prefix(s, "- name: ") && c->n_pools < INV_MAX_POOLS) {
      p = &c->pools[c->n_pools++];
      g_strlcpy(p->name, s + 8, sizeof p->name);
    } else if (p && g_str_has_prefix(s, "gpu: ")) {
      p->card_gb = strstr(s, "80GB") ? 85.899345920 : 42.949672960;
    } else if (p && g_str_has_prefix(s, "nodes: ")) {
      nodes = atoi(s + 7);
    } else if (p && g_str_has_prefix(s, "gpus_per_node: ")) {
      p->gpus = nodes * atoi(s + 15);
    } else if (p && g_str_has_prefix(s, "strategy: ")) {
      for (guint k = 0; k < G_N_ELEMENTS(inv_strategies); k++)
        if (!strcmp(s + 10, inv_strategies[k])) p->strategy = (int)k;
    }
  }
  if (!c->n_pools) {
    g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: no pool found", path);
    return FALSE;
  }
  return TRUE;
}

const char *inv_strategy_name(int s) { return inv_strategies[s]; }
