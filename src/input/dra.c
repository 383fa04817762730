/* dra.c: the reader of Kubernetes DRA claims for NVIDIA's DRA driver (dra.h; [S256][S257]):
 * the objects of a multi-document file or List, the one claim a pool names, its requests
 * (device class, count, the CEL selectors sharesim understands), its opaque sharing config,
 * and the containers of the file's Pods and workloads that share a claimed device. It maps
 * the claim to a kind of sharing; scenario.c turns that into a pool's strategy and keys. */
#include "dra.h"
#include "scenario-yaml.h"
#include <string.h>

#define DRA_DRIVER "gpu.nvidia.com"
#define DRA_MAX_COUNT 64 /* devices one request may ask for */

typedef struct dsharing {
  int strategy;             /* 0 none, 1 TimeSlicing, 2 MPS */
  const char *interval;     /* borrowed from the tree */
  int pct;                  /* -1 unset */
  int64_t pinned;           /* 0 unset */
  const scenario_yaml *at;  /* the strategy value (positions) */
} dsharing;

typedef struct dclass {     /* a device class: the driver's two, or one of the file */
  const char *name;
  gboolean mig;
  const char *profile;      /* a class may fix the MIG profile */
  const scenario_yaml *profile_at;
  dsharing sh;              /* the class's own config, applied before the claim's */
} dclass;

typedef struct dreq {
  const scenario_yaml *node;
  const char *name;
  gboolean mig;
  const char *profile;
  const scenario_yaml *profile_at;
  guint count;
  dsharing sh;
  guint sharers;
  char *sharers_from;
} dreq;

typedef struct dctx {
  diag_list *d;
  const char *file;
  const char *version;      /* the claim's apiVersion */
  GPtrArray *objects;       /* const scenario_yaml*: every object, Lists flattened */
  GArray *classes;          /* dclass */
  GArray *reqs;             /* dreq */
  GPtrArray *owned;         /* strings the context keeps until the end */
} dctx;

static const char *keep(dctx *c, char *s) {
  g_ptr_array_add(c->owned, s);
  return s;
}

static const char *const api_versions[] = {"resource.k8s.io/v1", "resource.k8s.io/v1beta2",
                                           "resource.k8s.io/v1beta1", NULL};
static const char *const devices_keys[] = {"requests", "constraints", "config", NULL};
static const char *const request_keys_v1[] = {"name", "exactly", "firstAvailable", NULL};
static const char *const exact_keys[] = {"deviceClassName", "selectors", "allocationMode",
                                         "count", "adminAccess", "tolerations", "capacity", NULL};
static const char *const request_keys_v1beta1[] = {
    "name", "deviceClassName", "selectors", "allocationMode", "count", "adminAccess",
    "tolerations", "capacity", "firstAvailable", NULL};
static const char *const config_keys[] = {"requests", "opaque", NULL};
static const char *const opaque_keys[] = {"driver", "parameters", NULL};
static const char *const param_keys[] = {"apiVersion", "kind", "sharing", NULL};
static const char *const sharing_keys[] = {"strategy", "timeSlicingConfig", "mpsConfig", NULL};
static const char *const mps_keys[] = {"defaultActiveThreadPercentage",
                                       "defaultPinnedDeviceMemoryLimit",
                                       "defaultPerDevicePinnedMemoryLimit", NULL};
static const char *const intervals[] = {"Default", "Short", "Medium", "Long", NULL};

const char *dra_kind_name(dra_kind k) {
  switch (k) {
  case DRA_TIME_SLICING: return "TimeSlicing";
  case DRA_MPS: return "MPS";
  case DRA_MIG: return "MIG";
  default: return "exclusive";
  }
}

void dra_claim_free(dra_claim *c) {
  if (!c) return;
  g_free(c->path);
  g_free(c->object);
  g_free(c->requests);
  g_free(c->sharers_from);
  g_free(c->interval);
  if (c->profiles) g_ptr_array_unref(c->profiles);
  if (c->profile_pos) g_array_unref(c->profile_pos);
  g_free(c);
}

static const char *text(const scenario_yaml *n) {
  return n && n->type == SCENARIO_YAML_SCALAR ? n->text : NULL;
}

static const char *meta(const scenario_yaml *o, const char *key) {
  return text(scenario_yaml_get(scenario_yaml_get(o, "metadata"), key));
}

static gboolean in_list(const char *const *list, const char *s) {
  for (; s && *list; list++)
    if (!strcmp(*list, s)) return TRUE;
  return FALSE;
}

/* ======================================================================================
 * CEL selectors: conjunctions of the attributes the driver publishes that sharesim reads
 * ==================================================================================== */

/* The term with spaces removed and double quotes made single; owned. */
static char *cel_normal(const char *t) {
  GString *s = g_string_new(NULL);
  for (; *t; t++)
    if (!g_ascii_isspace(*t)) g_string_append_c(s, *t == '"' ? '\'' : *t);
  return g_string_free(s, FALSE);
}

/* Strips one pair of parentheses around the whole of t (with none inside); t. */
static char *unwrap(char *t) {
  size_t n = strlen(t);
  if (n >= 2 && t[0] == '(' && t[n - 1] == ')' && !strchr(t + 1, '(')) {
    t[n - 1] = 0;
    memmove(t, t + 1, n - 1);
  }
  return t;
}

/* "LHS=='VALUE'" -> VALUE (owned) when the left side is lhs, else NULL. */
static char *cel_value(const char *term, const char *lhs) {
  size_t n = strlen(lhs);
  if (strncmp(term, lhs, n) || strncmp(term + n, "=='", 3)) return NULL;
  const char *v = term + n + 3;
  const char *end = strchr(v, '\'');
  if (!end || end[1] || end == v) return NULL;
  return g_strndup(v, (gsize)(end - v));
}

/* One selector expression: sets *type ("gpu"/"mig", owned) and *profile (owned); FALSE after
 * a report for anything else. */
static gboolean cel_parse(dctx *c, const scenario_yaml *at, char **type, char **profile) {
  g_autofree char *norm = cel_normal(at->text);
  unwrap(norm);
  g_auto(GStrv) terms = g_strsplit(norm, "&&", -1);
  for (guint i = 0; !i || terms[i]; i++) {
    const char *t = terms[i] ? unwrap(terms[i]) : "";
    char *v;
    char **slot = NULL;
    const char *bad = NULL;
    if ((v = cel_value(t, "device.driver"))) {
      if (strcmp(v, DRA_DRIVER)) bad = "device.driver == 'gpu.nvidia.com'";
    } else if ((v = cel_value(t, "device.attributes['gpu.nvidia.com'].type"))) {
      if (strcmp(v, "gpu") && strcmp(v, "mig")) bad = "type 'gpu' or 'mig'";
      slot = type;
    } else if ((v = cel_value(t, "device.attributes['gpu.nvidia.com'].profile"))) {
      slot = profile;
    } else {
      g_autofree char *e = scenario_yaml_escape(t);
      scenario_yaml_report(c->d, c->file, at, "CEL selector: expected a conjunction (&&) of "
                           "device.driver == 'gpu.nvidia.com', device.attributes['gpu.nvidia.com']"
                           ".type == 'gpu' or 'mig' and device.attributes['gpu.nvidia.com']"
                           ".profile == 'PROFILE' (the attributes sharesim maps), found '%s'", e);
      return FALSE;
    }
    if (bad) {
      g_autofree char *e = scenario_yaml_escape(v);
      scenario_yaml_report(c->d, c->file, at, "CEL selector: expected %s, found '%s'", bad, e);
      g_free(v);
      return FALSE;
    }
    if (slot && *slot && strcmp(*slot, v)) {
      scenario_yaml_report(c->d, c->file, at, "CEL selector: '%s' and '%s' contradict each "
                           "other: no device matches", *slot, v);
      g_free(v);
      return FALSE;
    }
    if (slot && !*slot) *slot = v;
    else g_free(v);
  }
  return TRUE;
}

/* selectors: [{cel: {expression: ...}}]; FALSE after a report. */
static gboolean selectors_parse(dctx *c, const scenario_yaml *sel, const char *what, char **type,
                                char **profile, const scenario_yaml **profile_at) {
  if (sel->type != SCENARIO_YAML_SEQ) {
    scenario_yaml_expected(c->d, c->file, sel, what, "a list of {cel: {expression: ...}}");
    return FALSE;
  }
  for (guint i = 0; i < sel->items->len; i++) {
    const scenario_yaml *s = g_ptr_array_index(sel->items, i);
    const scenario_yaml *cel = scenario_yaml_get(s, "cel");
    const scenario_yaml *ex = scenario_yaml_get(cel, "expression");
    char w[160];
    g_snprintf(w, sizeof w, "%s[%u]", what, i + 1);
    if (!text(ex)) {
      scenario_yaml_expected(c->d, c->file, ex ? ex : s, w,
                             "a CEL selector {cel: {expression: ...}}");
      return FALSE;
    }
    char *before = *profile;
    if (!cel_parse(c, ex, type, profile)) return FALSE;
    if (*profile && *profile != before) *profile_at = ex;
  }
  return TRUE;
}

/* ======================================================================================
 * Opaque configuration: NVIDIA's GpuConfig and MigDeviceConfig
 * ==================================================================================== */

/* A Kubernetes quantity ("10Gi", "512Mi", "8G", "1073741824") in bytes; FALSE when it is
 * not one. */
static gboolean quantity_bytes(const char *s, int64_t *out) {
  static const struct {
    const char *suffix;
    double mult;
  } units[] = {{"Ki", 1024.0}, {"Mi", 1048576.0}, {"Gi", 1073741824.0},
               {"Ti", 1099511627776.0}, {"k", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}, {"", 1}};
  char *end = NULL;
  if (!s || !g_ascii_isdigit(*s)) return FALSE;
  double v = g_ascii_strtod(s, &end);
  for (guint i = 0; i < G_N_ELEMENTS(units); i++)
    if (!strcmp(end, units[i].suffix)) {
      double b = v * units[i].mult;
      if (!(b >= 1 && b < 9e18)) return FALSE;
      *out = (int64_t)b;
      return TRUE;
    }
  return FALSE;
}

/* defaultPerDevicePinnedMemoryLimit: device index (within the claim's devices) -> limit.
 * sharesim has one limit per pool, so every device of the claim must end with the same. */
static void per_device_limits(dctx *c, const scenario_yaml *m, dsharing *sh, guint devices) {
  const char *w = "mpsConfig.defaultPerDevicePinnedMemoryLimit";
  if (m->type != SCENARIO_YAML_MAP) {
    scenario_yaml_expected(c->d, c->file, m, w, "a mapping of device index to a memory limit");
    return;
  }
  int64_t common = sh->pinned;
  guint covered = 0;
  for (guint i = 0; i + 1 < m->items->len; i += 2) {
    const scenario_yaml *k = g_ptr_array_index(m->items, i), *v = g_ptr_array_index(m->items, i + 1);
    int64_t idx, b;
    if (!scenario_yaml_int(c->d, c->file, k, w, 0, DRA_MAX_COUNT - 1, &idx)) return;
    if (!quantity_bytes(text(v), &b)) {
      scenario_yaml_expected(c->d, c->file, v, w, "a memory quantity such as 10Gi");
      return;
    }
    covered++;
    if (i == 0 && !sh->pinned) common = b;
    if (b != common) {
      scenario_yaml_report(c->d, c->file, v, "%s: device %" G_GINT64_FORMAT " gets a limit "
                           "other than the claim's other devices; sharesim gives every GPU of "
                           "a pool one limit", w, idx);
      return;
    }
  }
  if (!sh->pinned && covered && covered < devices) {
    scenario_yaml_report(c->d, c->file, m, "%s: limits %u of the claim's %u devices and no "
                         "default for the others; sharesim gives every GPU of a pool one limit",
                         w, covered, devices);
    return;
  }
  sh->pinned = common;
}

static void mps_parse(dctx *c, const scenario_yaml *m, dsharing *sh, guint devices) {
  if (m->type != SCENARIO_YAML_MAP) {
    scenario_yaml_expected(c->d, c->file, m, "sharing.mpsConfig", "a mapping");
    return;
  }
  scenario_yaml_check_keys(c->d, c->file, m, "sharing.mpsConfig", mps_keys);
  const scenario_yaml *n;
  int64_t v;
  if ((n = scenario_yaml_get(m, "defaultActiveThreadPercentage")) &&
      scenario_yaml_int(c->d, c->file, n, "mpsConfig.defaultActiveThreadPercentage (a client "
                        "with 0% of the threads never runs)", 1, 100, &v))
    sh->pct = (int)v;
  if ((n = scenario_yaml_get(m, "defaultPinnedDeviceMemoryLimit"))) {
    if (!quantity_bytes(text(n), &sh->pinned))
      scenario_yaml_expected(c->d, c->file, n, "mpsConfig.defaultPinnedDeviceMemoryLimit",
                             "a memory quantity such as 10Gi");
  }
  if ((n = scenario_yaml_get(m, "defaultPerDevicePinnedMemoryLimit")))
    per_device_limits(c, n, sh, devices);
}

/* parameters: {apiVersion, kind: GpuConfig | MigDeviceConfig, sharing}; *mig gets the kind. */
static gboolean params_parse(dctx *c, const scenario_yaml *p, dsharing *sh, gboolean *mig,
                             guint devices) {
  if (p->type != SCENARIO_YAML_MAP) {
    scenario_yaml_expected(c->d, c->file, p, "opaque.parameters", "a GpuConfig or MigDeviceConfig");
    return FALSE;
  }
  scenario_yaml_check_keys(c->d, c->file, p, "opaque.parameters", param_keys);
  const scenario_yaml *av = scenario_yaml_get(p, "apiVersion"), *k = scenario_yaml_get(p, "kind");
  if (!av || !text(av) || strcmp(av->text, "resource.nvidia.com/v1beta1")) {
    scenario_yaml_expected(c->d, c->file, av ? av : p, "opaque.parameters.apiVersion",
                           "resource.nvidia.com/v1beta1");
    return FALSE;
  }
  if (!k || !text(k) || (strcmp(k->text, "GpuConfig") && strcmp(k->text, "MigDeviceConfig"))) {
    scenario_yaml_expected(c->d, c->file, k ? k : p, "opaque.parameters.kind",
                           "GpuConfig or MigDeviceConfig (the sharing settings sharesim maps)");
    return FALSE;
  }
  *mig = !strcmp(k->text, "MigDeviceConfig");
  const scenario_yaml *s = scenario_yaml_get(p, "sharing");
  if (!s) return TRUE;
  if (s->type != SCENARIO_YAML_MAP) {
    scenario_yaml_expected(c->d, c->file, s, "sharing", "a mapping with strategy");
    return FALSE;
  }
  scenario_yaml_check_keys(c->d, c->file, s, "sharing", sharing_keys);
  const scenario_yaml *st = scenario_yaml_get(s, "strategy");
  const scenario_yaml *ts = scenario_yaml_get(s, "timeSlicingConfig");
  const scenario_yaml *mps = scenario_yaml_get(s, "mpsConfig");
  if (!text(st) || (strcmp(st->text, "TimeSlicing") && strcmp(st->text, "MPS"))) {
    scenario_yaml_expected(c->d, c->file, st ? st : s, "sharing.strategy", "TimeSlicing or MPS");
    return FALSE;
  }
  *sh = (dsharing){.strategy = !strcmp(st->text, "MPS") ? 2 : 1, .pct = -1, .at = st};
  if (ts && (sh->strategy == 2 || *mig)) {
    scenario_yaml_report(c->d, c->file, scenario_yaml_get_key(s, "timeSlicingConfig"),
                         "sharing.timeSlicingConfig goes with strategy TimeSlicing of a "
                         "GpuConfig only");
    return FALSE;
  }
  if (mps && sh->strategy == 1) {
    scenario_yaml_report(c->d, c->file, scenario_yaml_get_key(s, "mpsConfig"),
                         "sharing.mpsConfig goes with strategy MPS only");
    return FALSE;
  }
  const scenario_yaml *iv = scenario_yaml_get(ts, "interval");
  if (iv && !in_list(intervals, text(iv))) {
    scenario_yaml_expected(c->d, c->file, iv, "timeSlicingConfig.interval",
                           "Default, Short, Medium or Long");
    return FALSE;
  }
  sh->interval = text(iv);
  if (mps) mps_parse(c, mps, sh, devices);
  return TRUE;
}

/* One config entry; applies it to the requests it names (all when none). */
static void config_parse(dctx *c, const scenario_yaml *e, const char *what) {
  if (e->type != SCENARIO_YAML_MAP) {
    scenario_yaml_expected(c->d, c->file, e, what, "a mapping with requests and opaque");
    return;
  }
  scenario_yaml_check_keys(c->d, c->file, e, what, config_keys);
  const scenario_yaml *op = scenario_yaml_get(e, "opaque"), *rq = scenario_yaml_get(e, "requests");
  const scenario_yaml *drv = scenario_yaml_get(op, "driver");
  if (!op || op->type != SCENARIO_YAML_MAP) {
    scenario_yaml_expected(c->d, c->file, op ? op : e, what, "an opaque {driver, parameters}");
    return;
  }
  scenario_yaml_check_keys(c->d, c->file, op, "opaque", opaque_keys);
  if (!text(drv) || strcmp(drv->text, DRA_DRIVER)) {
    scenario_yaml_expected(c->d, c->file, drv ? drv : op, "opaque.driver",
                           "gpu.nvidia.com (NVIDIA's DRA driver, the one sharesim maps)");
    return;
  }
  guint devices = 0;
  for (guint i = 0; i < c->reqs->len; i++) devices = MAX(devices, g_array_index(c->reqs, dreq, i).count);
  dsharing sh = {.pct = -1};
  gboolean mig = FALSE;
  const scenario_yaml *params = scenario_yaml_get(op, "parameters");
  if (!params || !params_parse(c, params, &sh, &mig, devices)) {
    if (!params) scenario_yaml_report(c->d, c->file, op, "opaque: missing required key 'parameters'");
    return;
  }
  for (guint i = 0; i < c->reqs->len; i++) {
    dreq *r = &g_array_index(c->reqs, dreq, i);
    gboolean named = !rq || rq->type != SCENARIO_YAML_SEQ || rq->items->len == 0;
    for (guint k = 0; !named && k < rq->items->len; k++)
      named = !g_strcmp0(text(g_ptr_array_index(rq->items, k)), r->name);
    if (!named) continue;
    if (r->mig != mig) {
      scenario_yaml_report(c->d, c->file, scenario_yaml_get(params, "kind"), "%s configures %s, "
                           "but request '%s' asks for %s", mig ? "MigDeviceConfig" : "GpuConfig",
                           mig ? "MIG devices" : "whole GPUs", r->name,
                           r->mig ? "MIG devices (use MigDeviceConfig)" : "whole GPUs (use GpuConfig)");
      return;
    }
    r->sh = sh; /* a later entry overrides an earlier one */
  }
  for (guint k = 0; rq && rq->type == SCENARIO_YAML_SEQ && k < rq->items->len; k++) {
    const scenario_yaml *n = g_ptr_array_index(rq->items, k);
    gboolean known = FALSE;
    for (guint i = 0; i < c->reqs->len && !known; i++)
      known = !g_strcmp0(text(n), g_array_index(c->reqs, dreq, i).name);
    if (!known) scenario_yaml_expected(c->d, c->file, n, "config.requests", "the name of a request of this claim");
  }
}

/* ======================================================================================
 * Device classes and requests
 * ==================================================================================== */

static const dclass *class_find(dctx *c, const char *name) {
  for (guint i = 0; i < c->classes->len; i++) {
    const dclass *k = &g_array_index(c->classes, dclass, i);
    if (!strcmp(k->name, name)) return k;
  }
  return NULL;
}

/* The DeviceClasses of the file (a class named like the driver's replaces it). */
static void classes_read(dctx *c) {
  dclass gpu = {.name = "gpu.nvidia.com"}, mig = {.name = "mig.nvidia.com", .mig = TRUE};
  for (guint i = 0; i < c->objects->len; i++) {
    const scenario_yaml *o = g_ptr_array_index(c->objects, i);
    if (g_strcmp0(text(scenario_yaml_get(o, "kind")), "DeviceClass") || !meta(o, "name")) continue;
    const scenario_yaml *spec = scenario_yaml_get(o, "spec");
    const scenario_yaml *sel = scenario_yaml_get(spec, "selectors");
    g_autofree char *type = NULL, *profile = NULL;
    dclass k = {.name = meta(o, "name"), .sh = {.pct = -1}};
    if (sel && !selectors_parse(c, sel, "DeviceClass spec.selectors", &type, &profile, &k.profile_at))
      continue;
    if (!type) {
      scenario_yaml_report(c->d, c->file, sel ? sel : o, "DeviceClass %s: expected a selector "
                           "device.attributes['gpu.nvidia.com'].type == 'gpu' or 'mig' (the "
                           "devices of NVIDIA's DRA driver)", k.name);
      continue;
    }
    k.mig = !strcmp(type, "mig");
    k.profile = profile ? keep(c, g_steal_pointer(&profile)) : NULL;
    const scenario_yaml *cfg = scenario_yaml_get(spec, "config");
    for (guint j = 0; cfg && cfg->type == SCENARIO_YAML_SEQ && j < cfg->items->len; j++) {
      const scenario_yaml *op = scenario_yaml_get(g_ptr_array_index(cfg->items, j), "opaque");
      const scenario_yaml *params = scenario_yaml_get(op, "parameters");
      gboolean is_mig = FALSE;
      if (g_strcmp0(text(scenario_yaml_get(op, "driver")), DRA_DRIVER) || !params) {
        scenario_yaml_expected(c->d, c->file, op ? op : g_ptr_array_index(cfg->items, j),
                               "DeviceClass spec.config", "an opaque config of driver "
                               "gpu.nvidia.com with parameters");
      } else if (params_parse(c, params, &k.sh, &is_mig, 1) && is_mig != k.mig) {
        scenario_yaml_report(c->d, c->file, scenario_yaml_get(params, "kind"), "DeviceClass %s "
                             "holds %s devices: its config must be a %s", k.name,
                             k.mig ? "MIG" : "whole-GPU", k.mig ? "MigDeviceConfig" : "GpuConfig");
      }
    }
    g_array_append_val(c->classes, k);
  }
  if (!class_find(c, gpu.name)) g_array_append_val(c->classes, gpu);
  if (!class_find(c, mig.name)) g_array_append_val(c->classes, mig);
}

/* The keys of one request that sharesim cannot map; FALSE after a report. */
static gboolean request_refused(dctx *c, const scenario_yaml *r, const scenario_yaml *ex) {
  const scenario_yaml *n;
  if ((n = scenario_yaml_get_key(r, "firstAvailable"))) {
    scenario_yaml_report(c->d, c->file, n, "firstAvailable: prioritized lists of devices are "
                         "not mapped: sharesim needs one kind of device per pool (use exactly)");
    return FALSE;
  }
  if ((n = scenario_yaml_get(ex, "allocationMode")) && g_strcmp0(text(n), "ExactCount")) {
    scenario_yaml_expected(c->d, c->file, n, "allocationMode",
                           "ExactCount (All would take every matching device of a node, "
                           "a number the claim does not hold)");
    return FALSE;
  }
  gboolean admin = FALSE;
  if ((n = scenario_yaml_get(ex, "adminAccess")) &&
      (!scenario_yaml_bool(c->d, c->file, n, "adminAccess", &admin) || admin)) {
    if (admin) scenario_yaml_expected(c->d, c->file, n, "adminAccess", "false (admin access "
                                      "monitors devices; it runs no workload sharesim models)");
    return FALSE;
  }
  if ((n = scenario_yaml_get_key(ex, "capacity"))) {
    scenario_yaml_report(c->d, c->file, n, "capacity: consumable capacity of a device is not "
                         "mapped (share by the driver's GpuConfig instead)");
    return FALSE;
  }
  return TRUE;
}

/* One request: {name, exactly: {...}} (v1, v1beta2) or the fields inline (v1beta1). */
static void request_parse(dctx *c, const scenario_yaml *r, const char *what) {
  gboolean beta1 = !strcmp(c->version, "resource.k8s.io/v1beta1");
  if (r->type != SCENARIO_YAML_MAP) {
    scenario_yaml_expected(c->d, c->file, r, what, "a mapping with name and exactly");
    return;
  }
  if (!scenario_yaml_check_keys(c->d, c->file, r, what, beta1 ? request_keys_v1beta1 : request_keys_v1))
    return;
  const scenario_yaml *ex = beta1 ? r : scenario_yaml_get(r, "exactly");
  if (!request_refused(c, r, ex)) return;
  dreq q = {.node = r, .name = text(scenario_yaml_get(r, "name")), .count = 1, .sh = {.pct = -1}};
  if (!q.name) {
    scenario_yaml_report(c->d, c->file, r, "%s: missing required key 'name'", what);
    return;
  }
  if (!ex || ex->type != SCENARIO_YAML_MAP) {
    scenario_yaml_expected(c->d, c->file, ex ? ex : r, what, "an exactly: {deviceClassName, ...}");
    return;
  }
  if (!beta1) scenario_yaml_check_keys(c->d, c->file, ex, "exactly", exact_keys);
  const scenario_yaml *cn = scenario_yaml_get(ex, "deviceClassName"), *n;
  const dclass *k = text(cn) ? class_find(c, cn->text) : NULL;
  if (!k) {
    scenario_yaml_expected(c->d, c->file, cn ? cn : ex, "deviceClassName", "gpu.nvidia.com, "
                           "mig.nvidia.com or a DeviceClass of this file selecting their devices");
    return;
  }
  q.mig = k->mig;
  q.sh = k->sh;
  q.profile = k->profile;
  q.profile_at = k->profile_at;
  int64_t v;
  if ((n = scenario_yaml_get(ex, "count"))) {
    if (!scenario_yaml_int(c->d, c->file, n, "count", 1, DRA_MAX_COUNT, &v)) return;
    q.count = (guint)v;
  }
  g_autofree char *type = NULL, *profile = NULL;
  if ((n = scenario_yaml_get(ex, "selectors")) &&
      !selectors_parse(c, n, "selectors", &type, &profile, &q.profile_at))
    return;
  if (type && strcmp(type, q.mig ? "mig" : "gpu")) {
    scenario_yaml_report(c->d, c->file, n, "request '%s': selects type '%s', but class %s holds "
                         "%s devices only", q.name, type, k->name, q.mig ? "mig" : "gpu");
    return;
  }
  if (profile) q.profile = keep(c, g_steal_pointer(&profile));
  if (q.profile && !q.mig) {
    scenario_yaml_report(c->d, c->file, q.profile_at, "request '%s': profile is an attribute of "
                         "MIG devices (deviceClassName mig.nvidia.com)", q.name);
    return;
  }
  if (q.mig && !q.profile) {
    scenario_yaml_report(c->d, c->file, cn, "request '%s': a MIG request needs a selector "
                         "device.attributes['gpu.nvidia.com'].profile == 'PROFILE' (the layout "
                         "of the pool's GPUs comes from it)", q.name);
    return;
  }
  g_array_append_val(c->reqs, q);
}

/* ======================================================================================
 * The file's objects, the claim a pool names, and who shares it
 * ==================================================================================== */


static gboolean is_claim(const scenario_yaml *o) {
  const char *k = text(scenario_yaml_get(o, "kind"));
  return k && (!strcmp(k, "ResourceClaim") || !strcmp(k, "ResourceClaimTemplate"));
}

static const char *ns_of(const scenario_yaml *o) {
  const char *ns = meta(o, "namespace");
  return ns ? ns : "default";
}

/* The claim named by key ("NAME" or "NAMESPACE/NAME"), else the only one; NULL after a
 * report. */
static const scenario_yaml *claim_pick(dctx *c, const char *key) {
  const scenario_yaml *found = NULL;
  guint n = 0, matches = 0;
  GString *names = g_string_new(NULL);
  for (guint i = 0; i < c->objects->len; i++) {
    const scenario_yaml *o = g_ptr_array_index(c->objects, i);
    if (!is_claim(o)) continue;
    const char *name = meta(o, "name");
    g_autofree char *full = g_strdup_printf("%s/%s", ns_of(o), name ? name : "?");
    g_string_append_printf(names, "%s%s", n++ ? ", " : "", full);
    if (!key || (name && !strcmp(key, name)) || !strcmp(key, full)) {
      matches++;
      if (!found) found = o;
    }
  }
  if (!n)
    diag_add(c->d, c->file, 1, 1, "no ResourceClaim or ResourceClaimTemplate (resource.k8s.io) in "
             "the file: nothing to take a pool's sharing from");
  else if (!matches)
    diag_add(c->d, c->file, 1, 1, "no claim named '%s' after '#' (claims in the file: %s)", key,
             names->str);
  else if (matches > 1 && key)
    diag_add(c->d, c->file, 1, 1, "%u claims are named '%s': name the one to use as "
             "FILE#NAMESPACE/NAME (claims in the file: %s)", matches, key, names->str);
  else if (matches > 1)
    diag_add(c->d, c->file, 1, 1, "%u claims in the file: name the one to use as FILE#NAME or "
             "FILE#NAMESPACE/NAME (claims in the file: %s)", matches, names->str);
  g_string_free(names, TRUE);
  return matches == 1 ? found : NULL;
}

/* The pod spec of a Pod or workload and how many pods it stands for. */
static const scenario_yaml *pod_spec(const scenario_yaml *o, guint *pods) {
  static const char *const workloads[] = {"Deployment", "StatefulSet", "ReplicaSet", "Job",
                                          "DaemonSet", NULL};
  const char *kind = text(scenario_yaml_get(o, "kind"));
  const scenario_yaml *spec = scenario_yaml_get(o, "spec");
  *pods = 1;
  if (!g_strcmp0(kind, "Pod")) return spec;
  if (!in_list(workloads, kind)) return NULL;
  const char *r = text(scenario_yaml_get(spec, !strcmp(kind, "Job") ? "parallelism"
                                              : "replicas")); /* not a key */
  guint64 v;
  if (r && g_ascii_string_to_unsigned(r, 10, 0, 100000, &v, NULL)) *pods = (guint)v;
  return scenario_yaml_get(scenario_yaml_get(spec, "template"), "spec");
}

/* Containers of a pod spec that use request req of the pod's claim entry named entry. */
static guint containers_using(const scenario_yaml *ps, const char *entry, const char *req) {
  const scenario_yaml *cs = scenario_yaml_get(ps, "containers");
  guint n = 0;
  for (guint i = 0; cs && cs->type == SCENARIO_YAML_SEQ && i < cs->items->len; i++) {
    const scenario_yaml *cl = scenario_yaml_get(scenario_yaml_get(g_ptr_array_index(cs->items, i),
                                                                  "resources"), "claims");
    gboolean uses = FALSE;
    for (guint k = 0; cl && cl->type == SCENARIO_YAML_SEQ && k < cl->items->len && !uses; k++) {
      const scenario_yaml *e = g_ptr_array_index(cl->items, k);
      const char *r = text(scenario_yaml_get(e, "request"));
      uses = !g_strcmp0(text(scenario_yaml_get(e, "name")), entry) && (!r || !strcmp(r, req));
    }
    n += uses;
  }
  return n;
}

/* How many containers share one device of request r: a template's claim is per pod (the
 * most of any pod), a ResourceClaim is shared by every pod that names it (the sum). */
static void sharers_count(dctx *c, const scenario_yaml *claim, dreq *r) {
  gboolean tmpl = !strcmp(text(scenario_yaml_get(claim, "kind")), "ResourceClaimTemplate");
  const char *name = meta(claim, "name");
  guint total = 0;
  for (guint i = 0; name && i < c->objects->len; i++) {
    const scenario_yaml *o = g_ptr_array_index(c->objects, i);
    guint pods;
    const scenario_yaml *ps = pod_spec(o, &pods);
    if (!ps || strcmp(ns_of(o), ns_of(claim))) continue;
    const scenario_yaml *rc = scenario_yaml_get(ps, "resourceClaims");
    for (guint k = 0; rc && rc->type == SCENARIO_YAML_SEQ && k < rc->items->len; k++) {
      const scenario_yaml *e = g_ptr_array_index(rc->items, k);
      if (g_strcmp0(text(scenario_yaml_get(e, tmpl ? "resourceClaimTemplateName"
                                                   : "resourceClaimName")), name))
        continue;
      guint n = containers_using(ps, text(scenario_yaml_get(e, "name")), r->name);
      if (tmpl && n > r->sharers) {
        r->sharers = n;
        g_free(r->sharers_from);
        r->sharers_from = g_strdup_printf("%s %s/%s", text(scenario_yaml_get(o, "kind")), ns_of(o),
                                          meta(o, "name") ? meta(o, "name") : "?");
      } else if (!tmpl) {
        total += n * pods;
      }
    }
  }
  if (!tmpl && total) {
    r->sharers = total;
    r->sharers_from = g_strdup("the file's pods that name the claim");
  }
}

/* ======================================================================================
 * The claim, mapped
 * ==================================================================================== */

static gboolean sharing_same(const dsharing *a, const dsharing *b) {
  return a->strategy == b->strategy && !g_strcmp0(a->interval, b->interval) && a->pct == b->pct &&
         a->pinned == b->pinned;
}

static const char *req_describe(const dreq *r) {
  return r->mig ? "MIG devices" : r->sh.strategy == 2 ? "MPS" : r->sh.strategy == 1 ? "TimeSlicing"
                                                                                     : "no sharing";
}

/* The spec.devices of a claim (or template): requests, then config. */
static void devices_parse(dctx *c, const scenario_yaml *claim) {
  gboolean tmpl = !strcmp(text(scenario_yaml_get(claim, "kind")), "ResourceClaimTemplate");
  const scenario_yaml *spec = scenario_yaml_get(claim, "spec");
  if (tmpl) spec = scenario_yaml_get(spec, "spec");
  const scenario_yaml *dev = scenario_yaml_get(spec, "devices");
  const scenario_yaml *reqs = scenario_yaml_get(dev, "requests");
  const char *w = tmpl ? "spec.spec.devices" : "spec.devices";
  if (!dev || dev->type != SCENARIO_YAML_MAP) {
    scenario_yaml_expected(c->d, c->file, dev ? dev : claim, w, "a mapping with requests");
    return;
  }
  scenario_yaml_check_keys(c->d, c->file, dev, w, devices_keys);
  if (!reqs || reqs->type != SCENARIO_YAML_SEQ || !reqs->items->len) {
    scenario_yaml_expected(c->d, c->file, reqs ? reqs : dev, "requests", "a non-empty list of requests");
    return;
  }
  guint before = c->d->count;
  for (guint i = 0; i < reqs->items->len; i++) {
    char rw[64];
    g_snprintf(rw, sizeof rw, "requests[%u]", i + 1);
    request_parse(c, g_ptr_array_index(reqs->items, i), rw);
  }
  if (c->d->count != before) return; /* the config would name requests not read */
  const scenario_yaml *cfg = scenario_yaml_get(dev, "config");
  if (cfg && cfg->type != SCENARIO_YAML_SEQ)
    scenario_yaml_expected(c->d, c->file, cfg, "config", "a list of {requests, opaque}");
  for (guint i = 0; cfg && cfg->type == SCENARIO_YAML_SEQ && i < cfg->items->len; i++) {
    char cw[64];
    g_snprintf(cw, sizeof cw, "config[%u]", i + 1);
    config_parse(c, g_ptr_array_index(cfg->items, i), cw);
  }
}

/* The requests a pool takes (request, or all of them, which must be alike) into out. */
static void claim_map(dctx *c, const scenario_yaml *claim, const char *request, dra_claim *out) {
  GString *names = g_string_new(NULL), *all = g_string_new(NULL);
  const dreq *first = NULL;
  for (guint i = 0; i < c->reqs->len; i++) {
    dreq *r = &g_array_index(c->reqs, dreq, i);
    g_string_append_printf(all, "%s%s", i ? ", " : "", r->name);
    if (request && strcmp(request, r->name)) continue;
    if (first && (first->mig != r->mig || !sharing_same(&first->sh, &r->sh))) {
      scenario_yaml_report(c->d, c->file, r->node, "requests '%s' (%s) and '%s' (%s) are not "
                           "shared alike: a pool takes one of them (dra_request: NAME)",
                           first->name, req_describe(first), r->name, req_describe(r));
      break;
    }
    if (!first) first = r;
    sharers_count(c, claim, r);
    g_string_append_printf(names, "%s%s", names->len ? ", " : "", r->name);
    out->devices += r->count;
    if (r->sharers > out->sharers) {
      out->sharers = r->sharers;
      g_free(out->sharers_from);
      out->sharers_from = g_strdup(r->sharers_from);
    }
    for (guint k = 0; r->mig && k < r->count; k++) {
      guint pos[2] = {r->profile_at->line, r->profile_at->col};
      g_ptr_array_add(out->profiles, g_strdup(r->profile));
      g_array_append_vals(out->profile_pos, pos, 2);
    }
  }
  if (!first && request) {
    g_autofree char *e = scenario_yaml_escape(request);
    scenario_yaml_report(c->d, c->file, claim, "%s has no request '%s' (named by dra_request; its "
                         "requests: %s)", out->object, e, all->str);
  }
  if (first) {
    out->requests = g_strdup(names->str);
    out->kind = first->mig ? DRA_MIG : first->sh.strategy == 2 ? DRA_MPS
              : first->sh.strategy == 1 || out->sharers > 1 ? DRA_TIME_SLICING : DRA_EXCLUSIVE;
    out->interval = g_strdup(first->sh.interval);
    out->thread_pct = first->sh.pct;
    out->pinned_bytes = first->sh.pinned;
    if (first->mig && first->sh.strategy == 2)
      scenario_yaml_report(c->d, c->file, first->sh.at, "MPS inside MIG devices is not modelled: "
                           "sharesim shares MIG instances by time-slicing (strategy TimeSlicing)");
  }
  g_string_free(names, TRUE);
  g_string_free(all, TRUE);
}

static void req_clear(gpointer p) { g_free(((dreq *)p)->sharers_from); }

/* Splits "FILE#NAME" when FILE exists and the whole path does not; *key owned or NULL. */
static char *split_key(const char *path, char **key) {
  *key = NULL;
  const char *h = strrchr(path, '#');
  if (!h || g_file_test(path, G_FILE_TEST_EXISTS)) return g_strdup(path);
  *key = g_strdup(h + 1);
  return g_strndup(path, (gsize)(h - path));
}

/* The claim's apiVersion (one of api_versions), and the claim read into c; FALSE after a
 * report. */
static gboolean claim_read(dctx *c, const scenario_yaml *claim) {
  const scenario_yaml *av = scenario_yaml_get(claim, "apiVersion");
  if (!in_list(api_versions, text(av))) {
    scenario_yaml_expected(c->d, c->file, av ? av : claim, "apiVersion", "resource.k8s.io/v1, "
                           "resource.k8s.io/v1beta2 or resource.k8s.io/v1beta1");
    return FALSE;
  }
  c->version = av->text;
  classes_read(c);
  devices_parse(c, claim);
  return TRUE;
}

dra_claim *dra_load_in(const char *within, const char *path, const char *request,
                       diag_list *diags) {
  g_return_val_if_fail(path && diags, NULL);
  guint before = diags->count;
  g_autofree char *key = NULL;
  g_autofree char *file = split_key(path, &key);
  scenario_yaml *docs = scenario_yaml_load_all_in(within, file, diags);
  if (!docs) return NULL;
  dctx c = {.d = diags, .file = file, .objects = g_ptr_array_new(),
            .classes = g_array_new(FALSE, TRUE, sizeof(dclass)),
            .reqs = g_array_new(FALSE, TRUE, sizeof(dreq)),
            .owned = g_ptr_array_new_with_free_func(g_free)};
  g_array_set_clear_func(c.reqs, req_clear);
  dra_claim *out = g_new0(dra_claim, 1);
  out->path = g_strdup(file);
  out->thread_pct = -1;
  out->profiles = g_ptr_array_new_with_free_func(g_free);
  out->profile_pos = g_array_new(FALSE, FALSE, sizeof(guint));
  scenario_yaml_k8s_objects(c.d, c.file, docs, c.objects);
  const scenario_yaml *claim = diags->count == before ? claim_pick(&c, key) : NULL;
  if (claim && claim_read(&c, claim)) {
    const scenario_yaml *pos = scenario_yaml_get(scenario_yaml_get(claim, "metadata"), "name");
    if (!pos) pos = scenario_yaml_get(claim, "kind");
    out->line = pos->line;
    out->col = pos->col;
    out->object = g_strdup_printf("%s %s/%s", text(scenario_yaml_get(claim, "kind")),
                                  ns_of(claim), meta(claim, "name") ? meta(claim, "name") : "?");
    if (diags->count == before) claim_map(&c, claim, request, out);
  }
  g_ptr_array_unref(c.objects);
  g_array_unref(c.classes);
  g_array_unref(c.reqs);
  g_ptr_array_unref(c.owned);
  scenario_yaml_free(docs);
  if (diags->count != before) {
    dra_claim_free(out);
    return NULL;
  }
  return out;
}
