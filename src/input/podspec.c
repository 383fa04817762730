/* podspec.c: the reader of the Kubernetes Pods (and workloads' pod templates) that HAMi and
 * the KAI scheduler take their GPU requests from (podspec.h; [S251][S253]): the objects of a
 * multi-document file or List, the one a pool names, HAMi's resource limits on its GPU
 * container and KAI's annotations on the pod. It maps them to a kind of sharing and its
 * values; scenario.c makes the pool's strategy from the kind, and the strategy takes the
 * values (share-hami.c, share-kai.c) where the pool does not set its own keys. */
#include "podspec.h"
#include "scenario-yaml.h"
#include <math.h>
#include <string.h>

/* HAMi's default resource names (its chart's resourceName, resourceMem, resourceCores,
 * resourceMemPercentage) [S251]; KAI's annotations [S253]. */
#define HAMI_GPU "nvidia.com/gpu"
#define HAMI_CORES "nvidia.com/gpucores"
#define HAMI_MEM "nvidia.com/gpumem"
#define HAMI_MEM_PCT "nvidia.com/gpumem-percentage"
#define KAI_FRACTION "gpu-fraction"
#define KAI_MEMORY "gpu-memory"
#define POD_MAX_GPUS 1024
#define POD_MAX_MIB (1024.0 * 1024.0) /* 1 TiB in MiB: far above any card */

const char *pod_kind_name(pod_kind k) { return k == POD_KAI ? "KAI" : "HAMi"; }

void pod_gpu_free(pod_gpu *p) {
  if (!p) return;
  g_free(p->path);
  g_free(p->object);
  g_free(p);
}

typedef struct pctx {
  diag_list *d;
  const char *file;
  GPtrArray *objects; /* const scenario_yaml*: every object, Lists flattened */
} pctx;

static const char *text(const scenario_yaml *n) {
  return n && n->type == SCENARIO_YAML_SCALAR ? n->text : NULL;
}

static const char *meta(const scenario_yaml *o, const char *key) {
  return text(scenario_yaml_get(scenario_yaml_get(o, "metadata"), key));
}


/* The pod template of a Pod or workload: its metadata's holder (the Pod, or the template)
 * in *holder, and its spec; NULL for other kinds. */
static const scenario_yaml *pod_of(const scenario_yaml *o, const scenario_yaml **holder) {
  static const char *const workloads[] = {"Deployment", "StatefulSet", "ReplicaSet", "Job",
                                          "DaemonSet", NULL};
  const char *kind = text(scenario_yaml_get(o, "kind"));
  const scenario_yaml *spec = scenario_yaml_get(o, "spec");
  if (!g_strcmp0(kind, "Pod")) {
    *holder = o;
    return spec;
  }
  if (!g_strcmp0(kind, "CronJob"))
    spec = scenario_yaml_get(scenario_yaml_get(spec, "jobTemplate"), "spec");
  else if (!kind || !g_strv_contains(workloads, kind))
    return NULL;
  *holder = scenario_yaml_get(spec, "template");
  return scenario_yaml_get(*holder, "spec");
}

/* The Pod or workload named by key, else the only one; NULL after a report. */
static const scenario_yaml *object_pick(pctx *c, const char *key) {
  const scenario_yaml *found = NULL;
  guint n = 0, matches = 0;
  GString *names = g_string_new(NULL);
  for (guint i = 0; i < c->objects->len; i++) {
    const scenario_yaml *o = g_ptr_array_index(c->objects, i), *h;
    if (!pod_of(o, &h)) continue;
    const char *name = meta(o, "name");
    g_string_append_printf(names, "%s%s", n++ ? ", " : "", name ? name : "?");
    if (!key || (name && !strcmp(key, name))) {
      matches++;
      if (!found) found = o;
    }
  }
  if (!n)
    diag_add(c->d, c->file, 1, 1, "no Pod or workload (Deployment, StatefulSet, ReplicaSet, Job, "
             "CronJob, DaemonSet) in the file: nothing to take a pool's GPU requests from");
  else if (!matches)
    diag_add(c->d, c->file, 1, 1, "no Pod or workload named '%s' after '#' (in the file: %s)",
             key, names->str);
  else if (matches > 1)
    diag_add(c->d, c->file, 1, 1, "%u Pods or workloads%s%s%s in the file: name the one to use "
             "as FILE#NAME (in the file: %s)", matches, key ? " named '" : "", key ? key : "",
             key ? "'" : "", names->str);
  g_string_free(names, TRUE);
  return matches == 1 ? found : NULL;
}

/* A number of n (a quantity as Kubernetes writes an integer resource or an annotation's
 * string) in (lo, hi]; FALSE after a report. */
static gboolean number_in(pctx *c, const scenario_yaml *n, const char *what, double lo,
                          double hi, const char *expected, double *out) {
  const char *t = text(n);
  char *end = NULL;
  double v = t ? g_ascii_strtod(t, &end) : NAN;
  if (!t || end == t || *end || !isfinite(v) || v <= lo || v > hi) {
    scenario_yaml_expected(c->d, c->file, n, what, expected);
    return FALSE;
  }
  *out = v;
  return TRUE;
}

/* HAMi's limits of one container (limits first, requests when a name is only there). */
static void hami_limits(pctx *c, const scenario_yaml *res, pod_gpu *out) {
  const scenario_yaml *lim = scenario_yaml_get(res, "limits");
  const scenario_yaml *req = scenario_yaml_get(res, "requests");
  const scenario_yaml *v;
  double x = 0;
#define HAMI_VALUE(name) ((v = scenario_yaml_get(lim, name)) || (v = scenario_yaml_get(req, name)))
  if (HAMI_VALUE(HAMI_GPU) &&
      number_in(c, v, HAMI_GPU, 0, POD_MAX_GPUS, "a whole number of GPUs from 1 to 1024", &x)) {
    if (x == floor(x)) out->gpus = (guint32)x;
    else scenario_yaml_expected(c->d, c->file, v, HAMI_GPU, "a whole number of GPUs from 1 to 1024");
  }
  if (HAMI_VALUE(HAMI_CORES) &&
      number_in(c, v, HAMI_CORES, 0, 100, "a core percentage greater than 0 and at most 100", &x))
    out->cores = x / 100.0;
  if (HAMI_VALUE(HAMI_MEM) &&
      number_in(c, v, HAMI_MEM, 0, POD_MAX_MIB, "device memory in MiB greater than 0", &x))
    out->mem_mib = x;
  if (HAMI_VALUE(HAMI_MEM_PCT) &&
      number_in(c, v, HAMI_MEM_PCT, 0, 100, "a percentage greater than 0 and at most 100", &x))
    out->mem_percent = x;
#undef HAMI_VALUE
}

/* Whether a container's resources name any of HAMi's resources. */
static gboolean hami_container(const scenario_yaml *res) {
  static const char *const names[] = {HAMI_GPU, HAMI_CORES, HAMI_MEM, HAMI_MEM_PCT, NULL};
  for (const char *const *n = names; *n; n++)
    if (scenario_yaml_get(scenario_yaml_get(res, "limits"), *n) ||
        scenario_yaml_get(scenario_yaml_get(res, "requests"), *n))
      return TRUE;
  return FALSE;
}

/* The GPU container of the pod spec (the only one naming HAMi's resources); NULL when none,
 * NULL after a report when several do. */
static const scenario_yaml *gpu_container(pctx *c, const scenario_yaml *ps) {
  const scenario_yaml *cs = scenario_yaml_get(ps, "containers"), *found = NULL;
  for (guint i = 0; cs && cs->type == SCENARIO_YAML_SEQ && i < cs->items->len; i++) {
    const scenario_yaml *ct = g_ptr_array_index(cs->items, i);
    if (!hami_container(scenario_yaml_get(ct, "resources"))) continue;
    if (found) {
      scenario_yaml_report(c->d, c->file, ct, "a second container asking for GPUs: a pool's "
                           "jobs are one container each (give each its own pool)");
      return NULL;
    }
    found = ct;
  }
  return found;
}

/* KAI's annotations of the pod; TRUE when it has one of them. */
static gboolean kai_annotations(pctx *c, const scenario_yaml *holder, pod_gpu *out) {
  const scenario_yaml *an = scenario_yaml_get(scenario_yaml_get(holder, "metadata"),
                                              "annotations");
  const scenario_yaml *f = scenario_yaml_get(an, KAI_FRACTION);
  const scenario_yaml *m = scenario_yaml_get(an, KAI_MEMORY);
  if (f && m) {
    scenario_yaml_report(c->d, c->file, m, "annotations %s and %s together: KAI takes one or "
                         "the other", KAI_FRACTION, KAI_MEMORY);
    return TRUE;
  }
  if (f) number_in(c, f, KAI_FRACTION, 0, 1, "a fraction of one GPU greater than 0 and at most 1",
                   &out->fraction);
  if (m) number_in(c, m, KAI_MEMORY, 0, POD_MAX_MIB, "device memory in MiB greater than 0",
                   &out->kai_mem_mib);
  return f || m;
}

/* The kind and values of the object o; reports what cannot be mapped. */
static void pod_map(pctx *c, const scenario_yaml *o, pod_gpu *out) {
  const scenario_yaml *holder = NULL;
  const scenario_yaml *ps = pod_of(o, &holder);
  guint before = c->d->count;
  gboolean kai = kai_annotations(c, holder, out);
  const scenario_yaml *ct = c->d->count == before ? gpu_container(c, ps) : NULL;
  if (c->d->count != before) return;
  if (kai && ct) {
    scenario_yaml_report(c->d, c->file, ct, "HAMi's resources (%s ...) beside KAI's %s "
                         "annotation: one pod is placed by one of them", HAMI_GPU,
                         out->fraction > 0 ? KAI_FRACTION : KAI_MEMORY);
    return;
  }
  if (kai) {
    out->kind = POD_KAI;
    return;
  }
  if (!ct) {
    diag_add(c->d, c->file, out->line, out->col, "%s asks for no shared GPU: expected HAMi's "
             "resources (%s, %s, %s or %s in a container's limits) or KAI's annotation (%s or "
             "%s)", out->object, HAMI_GPU, HAMI_CORES, HAMI_MEM, HAMI_MEM_PCT, KAI_FRACTION,
             KAI_MEMORY);
    return;
  }
  out->kind = POD_HAMI;
  hami_limits(c, scenario_yaml_get(ct, "resources"), out);
  if (out->mem_mib > 0 && out->mem_percent > 0)
    scenario_yaml_report(c->d, c->file, ct, "%s and %s together: HAMi takes one or the other",
                         HAMI_MEM, HAMI_MEM_PCT);
}

/* Splits "FILE#NAME" when FILE exists and the whole path does not; *key owned or NULL. */
static char *split_key(const char *path, char **key) {
  *key = NULL;
  const char *h = strrchr(path, '#');
  if (!h || g_file_test(path, G_FILE_TEST_EXISTS)) return g_strdup(path);
  *key = g_strdup(h + 1);
  return g_strndup(path, (gsize)(h - path));
}

pod_gpu *podspec_load_in(const char *within, const char *path, diag_list *diags) {
  g_return_val_if_fail(path && diags, NULL);
  guint before = diags->count;
  g_autofree char *key = NULL;
  g_autofree char *file = split_key(path, &key);
  scenario_yaml *docs = scenario_yaml_load_all_in(within, file, diags);
  if (!docs) return NULL;
  pctx c = {.d = diags, .file = file, .objects = g_ptr_array_new()};
  pod_gpu *out = g_new0(pod_gpu, 1);
  out->path = g_strdup(file);
  scenario_yaml_k8s_objects(c.d, c.file, docs, c.objects);
  const scenario_yaml *o = diags->count == before ? object_pick(&c, key) : NULL;
  if (o) {
    const scenario_yaml *pos = scenario_yaml_get(scenario_yaml_get(o, "metadata"), "name");
    if (!pos) pos = scenario_yaml_get(o, "kind");
    out->line = pos->line;
    out->col = pos->col;
    const char *ns = meta(o, "namespace");
    out->object = g_strdup_printf("%s %s/%s", text(scenario_yaml_get(o, "kind")),
                                  ns ? ns : "default", meta(o, "name") ? meta(o, "name") : "?");
    pod_map(&c, o, out);
  }
  g_ptr_array_unref(c.objects);
  scenario_yaml_free(docs);
  if (diags->count != before) {
    pod_gpu_free(out);
    return NULL;
  }
  return out;
}
