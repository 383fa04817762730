/* plan-nvidia.c: the NVIDIA files that implement a recommended set-up: the device-plugin
 * ConfigMap (a key per pool that time-slices or runs MPS, as the GPU Operator picks one per
 * node label), the mig-parted config (an entry per MIG pool), and the check that sharesim's
 * own NVIDIA-config input (nvconfig.c, through the scenario reader) reads them back into the
 * same pools. Choosing the set-up is plan-run.c's. */
#include "plan.h"
#include "util.h"
#include <glib/gstdio.h>
#include <string.h>

/* The recommended candidate of class ci, NULL when none. */
static const plan_candidate *plan_nv_pick(const plan *p, guint ci) {
  guint bi = g_array_index(p->best, guint, ci);
  return bi == G_MAXUINT ? NULL : &g_array_index(p->cands, plan_candidate, bi);
}

/* The ConfigMap's text, "" when no pool time-slices or runs MPS. */
static void plan_nv_plugin(const plan *p, GString *s) {
  for (guint ci = 0; ci < p->classes->len; ci++) {
    const plan_candidate *c = plan_nv_pick(p, ci);
    if (!c || (strcmp(c->mechanism, "time-slicing") && strcmp(c->mechanism, "mps"))) continue;
    if (!s->len)
      g_string_append(s, "# NVIDIA k8s-device-plugin configs written by sharesim plan: label\n"
                         "# each pool's nodes nvidia.com/device-plugin.config=<key>\n"
                         "apiVersion: v1\nkind: ConfigMap\nmetadata:\n"
                         "  name: sharesim-plan-device-plugin\n  namespace: gpu-operator\ndata:\n");
    const char *pool = g_array_index(p->classes, plan_class, ci).pool;
    guint replicas = 0;
    sscanf(c->settings, "replicas %u", &replicas);
    g_string_append_printf(s, "  %s: |-\n    version: v1\n    sharing:\n      %s:\n"
                              "        resources:\n          - name: nvidia.com/gpu\n"
                              "            replicas: %u\n", pool,
                           strcmp(c->mechanism, "mps") ? "timeSlicing" : "mps", replicas);
  }
}

/* The mig-parted config's text, "" when no pool uses MIG. */
static void plan_nv_mig(const plan *p, GString *s) {
  for (guint ci = 0; ci < p->classes->len; ci++) {
    const plan_candidate *c = plan_nv_pick(p, ci);
    if (!c || strcmp(c->mechanism, "mig")) continue;
    if (!s->len)
      g_string_append(s, "# nvidia-mig-parted config written by sharesim plan: label each MIG\n"
                         "# pool's nodes nvidia.com/mig.config=<name>\nversion: v1\nmig-configs:\n");
    g_string_append_printf(s, "  plan-%s:\n    - devices: all\n      mig-enabled: true\n"
                              "      mig-devices:\n", g_array_index(p->classes, plan_class, ci).pool);
    /* "layout 3g.40gb x2 + 1g.10gb" -> one line per profile with its count */
    g_auto(GStrv) parts = g_strsplit(c->settings + strlen("layout "), " + ", -1);
    for (guint i = 0; parts[i]; i++) {
      guint n = 1;
      char *x = strstr(parts[i], " x");
      if (x) {
        n = (guint)g_ascii_strtoull(x + 2, NULL, 10);
        *x = 0;
      }
      g_string_append_printf(s, "        \"%s\": %u\n", parts[i], n);
    }
  }
}

/* Each pool's resolved settings without the "(from FILE ...)" notes, one line each. */
static char *plan_nv_pools(const char *path, GString *report) {
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(scenario) sc = scenario_load(path, d);
  if (!sc) {
    GError *err = NULL;
    diag_to_error(d, &err);
    g_string_append_printf(report, "  %s does not load: %s\n", path, err ? err->message : "?");
    g_clear_error(&err);
    return NULL;
  }
  GString *out = g_string_new(NULL);
  for (guint i = 0; i < sc->pools->len; i++) {
    g_autofree char *line = scenario_pool_describe(scenario_pool(sc, i));
    GString *l = g_string_new(NULL);
    for (const char *q = line; *q;) {
      const char *from = strstr(q, " (from ");
      if (!from) {
        g_string_append(l, q);
        break;
      }
      g_string_append_len(l, q, from - q);
      int depth = 0;
      for (q = from + 1; *q; q++) { /* to the parenthesis that closes it, notes nest */
        depth += *q == '(' ? 1 : *q == ')' ? -1 : 0;
        if (!depth) {
          q++;
          break;
        }
      }
    }
    g_string_append_printf(out, "%s\n", l->str);
    g_string_free(l, TRUE);
  }
  return g_string_free(out, FALSE);
}

gboolean plan_nvidia_write(const plan *p, const char *dir, GString *report, GError **error) {
  GString *plugin = g_string_new(NULL), *mig = g_string_new(NULL);
  plan_nv_plugin(p, plugin);
  plan_nv_mig(p, mig);
  g_autofree char *nv = g_build_filename(dir, "nvidia", NULL);
  g_autofree char *pp = g_build_filename(nv, PLAN_NV_PLUGIN, NULL);
  g_autofree char *mp = g_build_filename(nv, PLAN_NV_MIG, NULL);
  g_autofree char *sp = g_build_filename(nv, "scenario.yaml", NULL);
  g_autofree char *rp = g_build_filename(dir, "scenario.yaml", NULL);
  guint n = p->classes->len;
  g_autofree guint32 *nodes = g_new0(guint32, n);
  for (guint ci = 0; ci < n; ci++) nodes[ci] = plan_nv_pick(p, ci)->answer;
  g_autofree char *name = g_strdup_printf("%.52s-plan-nv", p->sc->name);
  g_autofree char *text = plan_scenario_text(p, (const guint *)(void *)p->best->data, nodes, name,
                                             p->sc->seed, TRUE);
  gboolean ok = g_mkdir_with_parents(nv, 0777) == 0;
  if (!ok) g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot create %s", nv);
  if (ok && plugin->len) ok = g_file_set_contents(pp, plugin->str, (gssize)plugin->len, error);
  if (ok && mig->len) ok = g_file_set_contents(mp, mig->str, (gssize)mig->len, error);
  if (ok) ok = g_file_set_contents(sp, text, -1, error);
  if (ok) {
    g_string_append_printf(report, "NVIDIA files (nvidia/): %s%sscenario.yaml taking its pools' "
                                   "sharing from them\n",
                           plugin->len ? PLAN_NV_PLUGIN " (device-plugin ConfigMap, a key per "
                                                         "pool), " : "",
                           mig->len ? PLAN_NV_MIG " (mig-parted config, plan-POOL), " : "");
    g_autofree char *want = plan_nv_pools(rp, report), *got = plan_nv_pools(sp, report);
    gboolean same = want && got && !strcmp(want, got);
    g_string_append_printf(report, "  read back through sharesim's NVIDIA-config input: %s\n",
                           same ? "every pool the same as scenario.yaml's"
                                : "DIFFERENT from scenario.yaml's pools (a bug: please report)");
  }
  g_string_free(plugin, TRUE);
  g_string_free(mig, TRUE);
  return ok;
}
