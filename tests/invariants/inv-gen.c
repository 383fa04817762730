/* inv-gen.c: random small scenarios and traces for the invariant suite (issue 11): every
 * strategy and every placement policy of the program's tables with the keys its row
 * declares (their sampled values), every OOM policy, every job kind, phases (memory
 * growth, duty and rate changes, crashes), random crash rates, the models' constants whose
 * declarations give a sample (restart back-offs, idle culling of notebooks, the request
 * model: scenario_model_key), inference services with and without SLOs, horizons, priority
 * classes, Kueue's quotas. The same seed writes the same files. It knows nothing of the
 * checks. */
#include "invariants.h"
#include <glib/gstdio.h>
#include <stdio.h>

static int inv_pick(GRand *r, int n) { return g_rand_int_range(r, 0, n); }
static gboolean inv_chance(GRand *r, double p) { return g_rand_double(r) < p; }

/* One value of a key's sample (scenario.h: "2|3|4" or "LO..HI"). */
static void inv_gen_sample(GRand *r, GString *y, const char *sample) {
  const char *dots = strstr(sample, "..");
  if (dots) {
    double lo = g_ascii_strtod(sample, NULL), hi = g_ascii_strtod(dots + 2, NULL);
    g_string_append_printf(y, "%.2f", lo + (hi - lo) * g_rand_double(r));
    return;
  }
  g_auto(GStrv) values = g_strsplit(sample, "|", -1);
  g_string_append(y, values[inv_pick(r, (int)g_strv_length(values))]);
}

/* The keys of a pool's strategy or placement policy that declare a sample: a required one
 * always, others half the time. */
static void inv_gen_keys(GRand *r, GString *y, const scenario_key *const *keys) {
  for (const scenario_key *const *k = keys; k && *k; k++) {
    if (!(*k)->sample || ((*k)->def && inv_chance(r, 0.5))) continue;
    g_string_append_printf(y, "    %s: ", (*k)->name);
    inv_gen_sample(r, y, (*k)->sample);
    g_string_append_c(y, '\n');
  }
}

/* A built strategy of the table, drawn uniformly. */
static const scenario_strategy *inv_gen_strategy(GRand *r) {
  GPtrArray *built = g_ptr_array_new();
  for (guint i = 0; i < share_count(); i++)
    if (share_row(i)->implemented) g_ptr_array_add(built, (gpointer)&share_row(i)->input);
  const scenario_strategy *st = g_ptr_array_index(built, inv_pick(r, (int)built->len));
  g_ptr_array_free(built, TRUE);
  return st;
}

void inv_print_sampled_keys(void) {
  for (guint i = 0; i < share_count(); i++)
    for (const scenario_key *const *k = share_row(i)->input.keys;
         share_row(i)->implemented && k && *k; k++)
      if ((*k)->sample) printf("%s %s\n", share_row(i)->input.name, (*k)->name);
  for (guint i = 0; i < scenario_placement_count(); i++)
    for (const scenario_key *const *k = scenario_placement_get(i)->keys; k && *k; k++)
      if ((*k)->sample) printf("placement:%s %s\n", scenario_placement_get(i)->name, (*k)->name);
  for (const scenario_model_key *const *k = scenario_model_keys(); *k; k++)
    if ((*k)->key.sample) printf("scenario %s\n", (*k)->key.name);
}

/* The models' constants that declare a sample (scenario_model_key, the program's table),
 * each set in about a third of the cases to one of its values: a top-level key on a line
 * of its own, a section's keys in one mapping of that section. */
static void inv_gen_model_keys(GRand *r, GString *y) {
  g_autoptr(GString) sec = g_string_new(NULL);
  const scenario_model_section *cur = NULL;
  for (const scenario_model_key *const *k = scenario_model_keys();; k++) {
    if (cur && (!*k || (*k)->section != cur) && sec->len) {
      g_string_append_printf(y, "%s: {%s}\n", cur->name, sec->str);
      g_string_truncate(sec, 0);
    }
    if (!*k) break;
    cur = (*k)->section;
    if (!(*k)->key.sample || !inv_chance(r, 0.3)) continue;
    if (cur) {
      g_string_append_printf(sec, "%s%s: ", sec->len ? ", " : "",
                             (*k)->key.name + strlen(cur->name) + 1);
      inv_gen_sample(r, sec, (*k)->key.sample);
    } else {
      g_string_append_printf(y, "%s: ", (*k)->key.name);
      inv_gen_sample(r, y, (*k)->key.sample);
      g_string_append_c(y, '\n');
    }
  }
}

/* One pool of the scenario; c->pools[i] keeps what the checks need to know. */
static void inv_gen_pool(GRand *r, GString *y, inv_case *c, int i) {
  const scenario_strategy *st = inv_gen_strategy(r);
  /* a strategy's model-specific samples need its sample_gpu; the others run on either card */
  const char *gpu = st->sample_gpu ? st->sample_gpu
                    : inv_chance(r, 0.6) ? "A100-80GB" : "A100-40GB";
  int nodes = 1 + inv_pick(r, 3), per = 1 + inv_pick(r, 4);
  g_string_append_printf(y, "  - name: p%d\n    gpu: %s\n    nodes: %d\n    gpus_per_node: %d\n",
                         i, gpu, nodes, per);
  const scenario_placement *pl =
      scenario_placement_get((guint)inv_pick(r, (int)scenario_placement_count()));
  g_string_append_printf(y, "    strategy: %s\n    placement: %s\n    oom: %s\n", st->name,
                         pl->name,
                         (const char *[]){"all", "failed-allocation", "sidecar"}[inv_pick(r, 3)]);
  inv_gen_keys(r, y, st->keys);
  inv_gen_keys(r, y, pl->keys);
  inv_pool *p = &c->pools[i];
  g_snprintf(p->name, sizeof p->name, "p%d", i);
  g_strlcpy(p->gpu, gpu, sizeof p->gpu);
  p->strategy = st;
  p->card_gb = (double)catalog_find(gpu)->mem_bytes / 1e9;
  p->gpus = nodes * per;
  p->per_node = per;
}

static void inv_gen_scenario(GRand *r, inv_case *c, GString *y) {
  g_string_append_printf(y, "name: inv-%u\nseed: %u\n", c->seed, g_rand_int_range(r, 1, 1000));
  if (inv_chance(r, 0.5))
    g_string_append_printf(y, "horizon: %ds\n", 1800 + inv_pick(r, 4 * 3600));
  g_string_append_printf(y, "interval: %ds\n", (int[]){60, 300, 600, 37}[inv_pick(r, 4)]);
  if (inv_chance(r, 0.3))
    g_string_append_printf(y, "crash_rates: {training: %.2f, notebook: %.2f, inference: %.2f}\n",
                           g_rand_double(r), 0.5 * g_rand_double(r), 0.3 * g_rand_double(r));
  inv_gen_model_keys(r, y);
  c->n_pools = 1 + inv_pick(r, 3);
  g_string_append(y, "pools:\n");
  for (int i = 0; i < c->n_pools; i++) inv_gen_pool(r, y, c, i);
  if (c->n_pools > 1) {
    g_string_append(y, "routing:\n");
    for (int k = 0; k < JOB_KIND_COUNT; k++)
      if (inv_chance(r, 0.5))
        g_string_append_printf(y, "  - {kind: %s, pool: p%d}\n", job_kind_name((job_kind)k),
                               inv_pick(r, c->n_pools));
    g_string_append_printf(y, "  - {pool: p%d}\n", inv_pick(r, c->n_pools));
  }
}

/* One trace row (INV_TRACE_HEADER's columns) and, sometimes, its phases. */
static void inv_gen_job(GRand *r, int i, GString *t, GString *ph) {
  job_kind k = (job_kind)inv_pick(r, JOB_KIND_COUNT); /* every kind of the table */
  const char *kind = job_kind_name(k);
  gboolean gang = k == JOB_TRAINING || k == JOB_BATCH;
  int gpus = gang && inv_chance(r, 0.3) ? (int[]){2, 3, 4, 8}[inv_pick(r, 4)] : 1;
  double mem = inv_chance(r, 0.1) ? 30 + 40 * g_rand_double(r) : 1 + 20 * g_rand_double(r);
  int submit = inv_pick(r, 3 * 3600);
  int duration = 60 + inv_pick(r, 2 * 3600);
  g_string_append_printf(t, "j%d,%d,%s,%d,%.1f,%d,t%d,%d,", i, submit, kind, gpus, mem, duration,
                         inv_pick(r, INV_TENANTS), inv_chance(r, 0.2) ? 1 : 0);
  if (inv_chance(r, 0.5)) g_string_append_printf(t, "%.2f", 0.1 + 0.9 * g_rand_double(r));
  g_string_append_c(t, ',');
  if (inv_chance(r, 0.3)) g_string_append_printf(t, "%.2f", 0.1 + 0.9 * g_rand_double(r));
  g_string_append_c(t, ',');
  if (k == JOB_NOTEBOOK) g_string_append_printf(t, "%.2f,%d,", 0.5 * g_rand_double(r), 5 + inv_pick(r, 120));
  else g_string_append(t, ",,");
  if (k == JOB_INFERENCE) {
    g_string_append_printf(t, "%.1f,%.1f,", 1 + 150 * g_rand_double(r), 1 + 30 * g_rand_double(r));
    if (inv_chance(r, 0.7)) g_string_append_printf(t, "%d,%.1f,", 20 + inv_pick(r, 500),
                                                   90 + 9.9 * g_rand_double(r));
    else g_string_append(t, ",,");
    g_string_append_printf(t, "%s,%d,", inv_chance(r, 0.3) ? "0.5" : "", 1 + inv_pick(r, 6));
  } else {
    g_string_append(t, ",,,,,,");
  }
  if (k == JOB_TRAINING) g_string_append_printf(t, "%.2f,", 0.3 * g_rand_double(r));
  else g_string_append_c(t, ',');
  if (gang && inv_chance(r, 0.3)) g_string_append_printf(t, "%d,", 60 + inv_pick(r, 1200));
  else g_string_append_c(t, ',');
  if (inv_chance(r, 0.3)) g_string_append(t, inv_chance(r, 0.5) ? "never"
                                                      : k == JOB_NOTEBOOK || k == JOB_INFERENCE
                                                          ? "always" : "on-failure");
  g_string_append_c(t, '\n');
  /* phases: memory growth, a new duty or rate, a crash */
  for (int n = inv_chance(r, 0.35) ? 1 + inv_pick(r, 2) : 0; n > 0; n--) {
    g_string_append_printf(ph, "j%d,%d,", i, inv_pick(r, duration + 60));
    if (inv_chance(r, 0.5)) g_string_append_printf(ph, "%.1f", 1 + 60 * g_rand_double(r));
    g_string_append_c(ph, ',');
    if (k == JOB_NOTEBOOK && inv_chance(r, 0.5)) g_string_append_printf(ph, "%.2f", g_rand_double(r));
    g_string_append_c(ph, ',');
    if (k == JOB_INFERENCE && inv_chance(r, 0.5)) g_string_append_printf(ph, "%.1f", 200 * g_rand_double(r));
    g_string_append_c(ph, ',');
    g_string_append(ph, inv_chance(r, 0.15) ? "1\n" : "0\n");
  }
}

/* Priority classes and preemption (docs/scenario-format.md) in about a third of the cases,
 * from a stream of their own (the other draws of a seed stay what they were): a class per
 * tenant, of value 0, 10 or 1000 (or the trace's 1), PreemptLowerPriority or Never, a grace
 * period of 0, 5 or 30 s, checkpointing on termination or not. */
static void inv_gen_priority(guint32 seed, inv_case *c, GString *y) {
  GRand *r = g_rand_new_with_seed(seed ^ 0x5bd1e995u);
  if (inv_chance(r, 0.35)) {
    static const int values[] = {0, 10, 1000};
    c->prio_on = TRUE;
    g_string_append(y, "priority_classes:\n");
    for (int k = 0; k < INV_TENANTS; k++)
      g_string_append_printf(y, "  - {name: c%d, value: %d, preemption_policy: %s}\n", k,
                             values[k], inv_chance(r, 0.25) ? "Never" : "PreemptLowerPriority");
    g_string_append(y, "priority_rules:\n");
    for (int t = 0; t < INV_TENANTS; t++) {
      int k = inv_pick(r, INV_TENANTS);
      c->tenant_prio[t] = values[k];
      g_string_append_printf(y, "  - {tenant: t%d, priority_class: c%d}\n", t, k);
    }
    g_string_append_printf(y, "preemption: {termination_grace_period: %ds, "
                           "checkpoint_on_termination: %s}\n", (int[]){0, 5, 30}[inv_pick(r, 3)],
                           inv_chance(r, 0.5) ? "true" : "false");
  }
  g_rand_free(r);
}

/* Kueue's quotas (docs/scenario-format.md "Quotas: kueue") in about a third of the cases,
 * from a stream of their own: a ResourceFlavor per pool, ClusterQueue cqK for tenant tK (t2
 * without a LocalQueue half the time), all in cohort co. cq0 holds as many GPUs of every
 * flavour as the trace's largest job has workers and lends them all; the others 0 to 2, with
 * a borrowingLimit of at least that many less their nominal half the time (so that every job
 * is admitted some day, and quotas bind) and a lendingLimit a
 * quarter of the time; StrictFIFO or BestEffortFIFO. From a second stream (so that the
 * quotas of a seed stay those drawn before): in half the cases every queue reclaims lent
 * quota by preemption (reclaimWithinCohort Any, or LowerPriority with withinClusterQueue
 * LowerPriority), in 40 % fair sharing is on, and queues weigh 1, 2 or 0.5. The objects go
 * to kueue.yaml, what the checks need to comment lines of scenario.yaml ("# inv-quota cq K
 * pool P N B"). */
static void inv_gen_quota(guint32 seed, inv_case *c, GString *y, GString *k, int most) {
  GRand *r = g_rand_new_with_seed(seed ^ 0x27d4eb2fu);
  GRand *r2 = g_rand_new_with_seed(seed ^ 0x5bd1e995u); /* preemption, fair sharing */
  if (inv_chance(r, 0.35)) {
    c->quota_on = TRUE;
    g_string_append(y, "kueue: kueue.yaml\n");
    gboolean reclaim = inv_chance(r2, 0.5);
    if (inv_chance(r2, 0.4)) g_string_append(y, "fairSharing: {enable: true}\n");
    for (int p = 0; p < c->n_pools; p++)
      g_string_append_printf(k, "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\n"
                             "metadata: {name: p%d}\n---\n", p);
    for (int q = 0; q < INV_TENANTS; q++) {
      static const char *const pre[] = {
          "", "  preemption: {reclaimWithinCohort: Any}\n",
          "  preemption: {reclaimWithinCohort: LowerPriority, withinClusterQueue: LowerPriority}\n"};
      static const char *const weight[] = {"", "  fairSharing: {weight: 2}\n",
                                           "  fairSharing: {weight: 500m}\n"};
      const char *pq = pre[reclaim ? 1 + inv_pick(r2, 2) : 0], *wq = weight[inv_pick(r2, 3)];
      g_string_append_printf(k, "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\n"
                             "metadata: {name: cq%d}\nspec:\n  cohort: co\n"
                             "  queueingStrategy: %s\n%s%s  resourceGroups:\n"
                             "  - coveredResources: [nvidia.com/gpu]\n    flavors:\n", q,
                             inv_chance(r, 0.5) ? "StrictFIFO" : "BestEffortFIFO", pq, wq);
      for (int p = 0; p < c->n_pools; p++) {
        int n = q == 0 ? most : inv_pick(r, 3), b = q > 0 && inv_chance(r, 0.5) ? MAX(0, most - n) + inv_pick(r, 2) : -1;
        g_string_append_printf(k, "    - name: p%d\n      resources:\n      - {name: nvidia.com/gpu, "
                               "nominalQuota: %d", p, n);
        if (b >= 0) g_string_append_printf(k, ", borrowingLimit: %d", b);
        if (q > 0 && n > 0 && inv_chance(r, 0.25)) g_string_append_printf(k, ", lendingLimit: %d", inv_pick(r, n + 1));
        g_string_append(k, "}\n");
        c->quota_nominal[q][p] = n;
        c->quota_borrow[q][p] = b;
        g_string_append_printf(y, "# inv-quota cq %d pool %d %d %d\n", q, p, n, b);
      }
      g_string_append(k, "---\n");
    }
    for (int t = 0; t < INV_TENANTS; t++) {
      c->tenant_cq[t] = t == 2 && inv_chance(r, 0.5) ? -1 : t;
      if (c->tenant_cq[t] >= 0)
        g_string_append_printf(k, "apiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\n"
                               "metadata: {namespace: t%d, name: lq}\nspec: {clusterQueue: cq%d}\n"
                               "---\n", t, t);
      g_string_append_printf(y, "# inv-quota tenant %d %d\n", t, c->tenant_cq[t]);
    }
  }
  g_rand_free(r);
  g_rand_free(r2);
}

/* Per-GPU MIG layouts (mig-parted per-device entries, docs/scenario-format.md) for about
 * 60 % of the mig pools, from a stream of their own (the other draws of a seed stay what
 * they were; such a pool's `layout` line gives way to mig_config): GPU k of a node gets
 * one of six set-ups, MIG off among them (GPU 0 gets 7g.80gb when every draw was MIG off).
 * The configs, one per pool (named after it), go to mig-per-gpu.yaml. */
static void inv_gen_per_gpu(guint32 seed, inv_case *c, GString *y, GString *m) {
  static const char *const setups[] = {"{\"7g.80gb\": 1}", "{\"3g.40gb\": 2}",
                                       "{\"1g.10gb\": 7}", "{\"4g.40gb\": 1, \"3g.40gb\": 1}",
                                       "{\"2g.20gb\": 3, \"1g.10gb\": 1}", NULL};
  GRand *r = g_rand_new_with_seed(seed ^ 0x85ebca6bu);
  for (int i = 0; i < c->n_pools; i++) {
    if (strcmp(c->pools[i].strategy->name, "mig") || !inv_chance(r, 0.6)) continue;
    g_autofree char *head = g_strdup_printf("  - name: p%d\n", i);
    const char *at = strstr(y->str, head), *next = at ? strstr(at + 1, "  - name: ") : NULL;
    const char *l = at ? strstr(at, "    layout: ") : NULL;
    if (!l || (next && l > next)) continue;
    gsize pos = (gsize)(l - y->str), len = (gsize)(strchr(l, '\n') + 1 - l);
    g_string_erase(y, (gssize)pos, (gssize)len);
    g_autofree char *keys = g_strdup_printf("    mig_config: mig-per-gpu.yaml\n"
                                            "    mig_config_name: p%d\n", i);
    g_string_insert(y, (gssize)pos, keys);
    if (!m->len) g_string_append(m, "version: v1\nmig-configs:\n");
    g_string_append_printf(m, "  p%d:\n", i);
    int k[8], on = 0, per = c->pools[i].per_node;
    for (int g = 0; g < per; g++) on += (k[g] = inv_pick(r, 6)) < 5;
    if (!on) k[0] = 0;
    for (int g = 0; g < per; g++)
      g_string_append_printf(m, "    - devices: [%d]\n      mig-enabled: %s\n%s%s%s", g,
                             k[g] < 5 ? "true" : "false", k[g] < 5 ? "      mig-devices: " : "",
                             k[g] < 5 ? setups[k[g]] : "", k[g] < 5 ? "\n" : "");
    c->per_gpu = TRUE;
  }
  g_rand_free(r);
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
  inv_gen_priority(seed, c, y);
  g_autoptr(GString) k = g_string_new(NULL);
  int most = 1; /* the largest job's workers (4th column) */
  for (const char *l = strchr(t->str, '\n'); l && l[1]; l = strchr(l + 1, '\n')) {
    const char *x = l + 1;
    for (int col = 0; col < 3 && x; col++) x = strchr(x, ',') ? strchr(x, ',') + 1 : NULL;
    if (x) most = MAX(most, atoi(x));
  }
  inv_gen_quota(seed, c, y, k, most);
  g_autoptr(GString) m = g_string_new(NULL);
  inv_gen_per_gpu(seed, c, y, m);
  return inv_write(dir, "scenario.yaml", y, error) && inv_write(dir, "trace.csv", t, error) &&
         inv_write(dir, "phases.csv", ph, error) &&
         (!c->quota_on || inv_write(dir, "kueue.yaml", k, error)) &&
         (!m->len || inv_write(dir, "mig-per-gpu.yaml", m, error));
}

/* Reads back what the checks need of a case folder's scenario (kept cases have no seed to
 * regenerate from): the pools' names, strategies, cards and sizes, from our own layout. */
/* A line of inv_gen_priority's section: a class's value, a tenant's rule. */
static void inv_case_read_priority(inv_case *c, const char *s, int *classes) {
  int k, v, t, p, n, b;
  if (sscanf(s, "# inv-quota cq %d pool %d %d %d", &k, &p, &n, &b) == 4 && k >= 0 &&
      k < INV_TENANTS && p >= 0 && p < INV_MAX_POOLS) {
    c->quota_on = TRUE;
    c->quota_nominal[k][p] = n;
    c->quota_borrow[k][p] = b;
    return;
  }
  if (sscanf(s, "# inv-quota tenant %d %d", &t, &k) == 2 && t >= 0 && t < INV_TENANTS) {
    c->tenant_cq[t] = k;
    return;
  }
  if (sscanf(s, "- {name: c%d, value: %d,", &k, &v) == 2 && k >= 0 && k < INV_TENANTS) {
    classes[k] = v;
    c->prio_on = TRUE;
  } else if (sscanf(s, "- {tenant: t%d, priority_class: c%d}", &t, &k) == 2 && t >= 0 &&
             t < INV_TENANTS && k >= 0 && k < INV_TENANTS) {
    c->tenant_prio[t] = classes[k];
  }
}

gboolean inv_case_read(const char *dir, inv_case *c, GError **error) {
  memset(c, 0, sizeof *c);
  int classes[INV_TENANTS] = {0};
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
      for (guint k = 0; k < scenario_strategy_count() && !p->strategy; k++)
        if (scenario_strategy_get(k)->implied_by & SCENARIO_NV_DEFAULT)
          p->strategy = scenario_strategy_get(k); /* no strategy key */
    } else if (p && g_str_has_prefix(s, "gpu: ")) {
      const gpu_model *m = catalog_find(s + 5);
      g_strlcpy(p->gpu, s + 5, sizeof p->gpu);
      p->card_gb = m ? (double)m->mem_bytes / 1e9 : NAN;
    } else if (p && g_str_has_prefix(s, "nodes: ")) {
      nodes = atoi(s + 7);
    } else if (p && g_str_has_prefix(s, "gpus_per_node: ")) {
      p->gpus = nodes * atoi(s + 15);
    } else if (p && g_str_has_prefix(s, "strategy: ")) {
      share_strategy_parse(s + 10, &p->strategy);
    } else {
      inv_case_read_priority(c, s, classes);
    }
  }
  if (!c->n_pools) {
    g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: no pool found", path);
    return FALSE;
  }
  for (int i = 0; i < c->n_pools; i++)
    if (!c->pools[i].strategy) {
      g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: pool %s: no strategy of the "
                  "table", path, c->pools[i].name);
      return FALSE;
    }
  return TRUE;
}

