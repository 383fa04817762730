/* nvconfig.c: readers of NVIDIA's k8s-device-plugin sharing config and of the
 * nvidia-mig-parted config ([S3][S5][S8]), on the YAML tree that scenario-yaml.c
 * builds, and the resolution of a named mig-parted config into the one layout a pool's
 * GPUs of a given model get. It does not decide a pool's strategy or check replicas
 * against a GPU model's limits (scenario.c does, with these values). */
#include "nvconfig.h"
#include "scenario-yaml.h"
#include <string.h>

/* ======================================================================================
 * PCI device IDs -> catalogue models
 * ==================================================================================== */

/* Device IDs as nvidia-mig-parted's deployments/systemd/config-default.yaml groups them in
 * its device-filter lists (with its comments naming the boards). A800/H800 boards have
 * the same MIG profiles as their A100/H100 twins and map to those models. The split of
 * the 80 GB group between A100 (GA100, 0x20xx) and H100 (GH100, 0x23xx) follows the chip
 * families of the IDs. */
static const struct {
  const char *id;
  const char *model;
} pci_models[] = {
    {"0x20B010DE", "A100-40GB"}, /* A100-SXM4-40GB */
    {"0x20B110DE", "A100-40GB"}, /* A100-PCIE-40GB */
    {"0x20F110DE", "A100-40GB"}, /* A100-PCIE-40GB */
    {"0x20F610DE", "A100-40GB"}, /* A800-40GB */
    {"0x20B210DE", "A100-80GB"}, /* A100-SXM4-80GB */
    {"0x20B510DE", "A100-80GB"}, /* A100 80GB PCIe */
    {"0x20F310DE", "A100-80GB"}, /* A800-SXM4-80GB */
    {"0x20F510DE", "A100-80GB"}, /* A800 80GB PCIe */
    {"0x20B710DE", "A30"},       /* A30 */
    {"0x233010DE", "H100-80GB"}, /* H100 SXM5 80GB */
    {"0x233110DE", "H100-80GB"}, /* H100 PCIe */
    {"0x232210DE", "H100-80GB"}, /* H800 PCIe */
    {"0x232410DE", "H100-80GB"}, /* H800 */
    {"0x232110DE", "H100-NVL-94GB"}, /* H100 NVL */
    {"0x233A10DE", "H100-NVL-94GB"}, /* H800 NVL */
    {"0x233510DE", "H200-141GB"}, /* H200 141GB */
    {"0x233B10DE", "H200-141GB"}, /* H200 NVL */
    {"0x290110DE", "B200"}, /* B200 */
    {"0x294110DE", "GB200"}, /* GB200 HGX */
    {"0x318210DE", "B300"}, /* B300 */
    {"0x2BB510DE", "RTX-PRO-6000"}, /* RTX PRO 6000 Blackwell */
};

const char *nvconfig_pci_model(const char *pci_id) {
  if (!pci_id) return NULL;
  for (guint i = 0; i < G_N_ELEMENTS(pci_models); i++)
    if (!g_ascii_strcasecmp(pci_models[i].id, pci_id)) return pci_models[i].model;
  return NULL;
}

/* ======================================================================================
 * Shared helpers
 * ==================================================================================== */

static char *esc(const char *text) {
  char *e = g_strescape(text ? text : "", NULL);
  if (strlen(e) > 80) {
    e[77] = e[78] = e[79] = '.';
    e[80] = 0;
  }
  return e;
}

static void check_version(diag_list *d, const char *file, const scenario_yaml *root) {
  const scenario_yaml *v = scenario_yaml_get(root, "version");
  if (!v)
    scenario_yaml_report(d, file, root, "missing required key 'version' (must be v1)");
  else if (v->type != SCENARIO_YAML_SCALAR || strcmp(v->text, "v1"))
    scenario_yaml_expected(d, file, v, "version", "v1");
}

/* ======================================================================================
 * Files as users hold them: a ConfigMap, a List of ConfigMaps, GPU Operator Helm values
 * ==================================================================================== */

typedef enum { FOR_SHARING, FOR_MIG } unwrap_for;

/* One data key that could hold the config. */
typedef struct candidate {
  char *label;                /* "KEY", or "CONFIGMAP/KEY" inside a List */
  const char *key;            /* the bare key, borrowed from the tree */
  const char *cm;             /* the ConfigMap's metadata.name, NULL if none */
  const scenario_yaml *value; /* the scalar holding the config text */
} candidate;

static void candidate_clear(gpointer data) { g_free(((candidate *)data)->label); }

static const char *scalar_text(const scenario_yaml *n) {
  return n && n->type == SCENARIO_YAML_SCALAR ? n->text : NULL;
}

/* Adds the keys of a ConfigMap-shaped data mapping. */
static void add_data(GArray *cands, diag_list *d, const char *file, const scenario_yaml *data,
                     const char *cm, gboolean qualify, const char *what) {
  if (!data) return;
  if (data->type != SCENARIO_YAML_MAP) {
    scenario_yaml_expected(d, file, data, what, "a mapping of key to config text");
    return;
  }
  for (guint i = 0; i + 1 < data->items->len; i += 2) {
    const scenario_yaml *k = g_ptr_array_index(data->items, i);
    const scenario_yaml *v = g_ptr_array_index(data->items, i + 1);
    if (v->type != SCENARIO_YAML_SCALAR) {
      char w[160];
      g_snprintf(w, sizeof w, "%s.%s", what, k->text);
      scenario_yaml_expected(d, file, v, w, "the config as text (a | block)");
      continue;
    }
    candidate c = {.key = k->text, .cm = cm, .value = v};
    c.label = qualify && cm ? g_strdup_printf("%s/%s", cm, k->text) : g_strdup(k->text);
    g_array_append_val(cands, c);
  }
}

/* Collects the data keys of root, a ConfigMap, a List or Helm values; *dflt gets the Helm
 * default key. FALSE when root is none of these (a plain config file). */
static gboolean collect(GArray *cands, diag_list *d, const char *file, const scenario_yaml *root,
                        unwrap_for wf, const char **dflt, GPtrArray *keep) {
  const char *kind = scalar_text(scenario_yaml_get(root, "kind"));
  if (kind && !strcmp(kind, "ConfigMap")) {
    const char *cm = scalar_text(scenario_yaml_get(scenario_yaml_get(root, "metadata"), "name"));
    add_data(cands, d, file, scenario_yaml_get(root, "data"), cm, FALSE, "data");
    return TRUE;
  }
  if (kind && !strcmp(kind, "List")) {
    const scenario_yaml *items = scenario_yaml_get(root, "items");
    for (guint i = 0; items && items->type == SCENARIO_YAML_SEQ && i < items->items->len; i++) {
      const scenario_yaml *it = g_ptr_array_index(items->items, i);
      const char *ik = scalar_text(scenario_yaml_get(it, "kind"));
      if (!ik || strcmp(ik, "ConfigMap")) continue;
      const char *cm = scalar_text(scenario_yaml_get(scenario_yaml_get(it, "metadata"), "name"));
      char w[64];
      g_snprintf(w, sizeof w, "items[%u].data", i + 1);
      add_data(cands, d, file, scenario_yaml_get(it, "data"), cm, TRUE, w);
    }
    return TRUE;
  }
  if (kind) {
    scenario_yaml_report(d, file, scenario_yaml_get(root, "kind"),
                         "a %s is not a config sharesim reads: give the device-plugin or "
                         "mig-parted config file, its ConfigMap (kubectl get cm NAME -o yaml) "
                         "or the GPU Operator's Helm values", kind);
    return TRUE;
  }
  const char *top = wf == FOR_SHARING ? "devicePlugin" : "migManager";
  const scenario_yaml *comp = scenario_yaml_get(root, top);
  if (!comp && (scenario_yaml_get(root, "devicePlugin") || scenario_yaml_get(root, "migManager") ||
                scenario_yaml_get(root, "operator"))) {
    scenario_yaml_report(d, file, root, "these Helm values have no '%s' section (the %s config "
                         "lives under %s.config.data)", top,
                         wf == FOR_SHARING ? "device-plugin" : "mig-parted", top);
    return TRUE;
  }
  if (!comp) return FALSE;
  const scenario_yaml *cfg = scenario_yaml_get(comp, "config");
  const scenario_yaml *data = scenario_yaml_get(cfg, "data");
  if (data && data->type == SCENARIO_YAML_SCALAR && *data->text) {
    /* data written as one block of text holding the keys (`data: |-` then `config.yaml: |-`,
     * the GPU Operator docs' mig-cm-values.yaml [S6]): its keys, read with their lines */
    scenario_yaml *inner = scenario_yaml_parse_embedded(file, data, d);
    if (!inner) return TRUE;
    g_ptr_array_add(keep, inner);
    data = inner;
  }
  if (wf == FOR_SHARING) *dflt = scalar_text(scenario_yaml_get(cfg, "default"));
  if (*dflt && !**dflt) *dflt = NULL;
  char w[64];
  g_snprintf(w, sizeof w, "%s.config.data", top);
  if (!data || (data->type == SCENARIO_YAML_MAP && data->items->len == 0)) {
    const char *name = scalar_text(scenario_yaml_get(cfg, "name"));
    scenario_yaml_report(d, file, cfg ? cfg : comp, "%s.config has no data%s%s%s: give that "
                         "ConfigMap's file instead (kubectl get cm NAME -o yaml)", top,
                         name && *name ? " (it names the ConfigMap '" : "", name ? name : "",
                         name && *name ? "')" : "");
    return TRUE;
  }
  add_data(cands, d, file, data, NULL, FALSE, w);
  return TRUE;
}

static char *candidate_labels(const GArray *cands) {
  GString *s = g_string_new(NULL);
  for (guint i = 0; i < cands->len; i++)
    g_string_append_printf(s, "%s%s", i ? ", " : "", g_array_index(cands, candidate, i).label);
  return g_string_free(s, FALSE);
}

/* The candidate named by key (its label or its bare key, when that is unique). */
static const candidate *find_candidate(const GArray *cands, const char *key) {
  const candidate *found = NULL;
  for (guint i = 0; i < cands->len; i++) {
    const candidate *c = &g_array_index(cands, candidate, i);
    if (!strcmp(c->label, key)) return c;
    if (!strcmp(c->key, key)) {
      if (found) return NULL; /* ambiguous: the qualified label is needed */
      found = c;
    }
  }
  return found;
}

/* Picks the data key to read: key when given, else the Helm default, else the only one. */
static const candidate *pick(const GArray *cands, diag_list *d, const char *file,
                             const scenario_yaml *root, const char *key, const char *dflt) {
  g_autofree char *labels = candidate_labels(cands);
  if (cands->len == 0) {
    scenario_yaml_report(d, file, root, "this ConfigMap has no data keys holding a config");
    return NULL;
  }
  const char *want = key ? key : dflt;
  if (want) {
    const candidate *c = find_candidate(cands, want);
    if (!c) {
      g_autofree char *e = esc(want);
      scenario_yaml_report(d, file, root, "no data key '%s'%s (keys found: %s)", e,
                           key ? " (named after '#')" : " (the Helm default)", labels);
    }
    return c;
  }
  if (cands->len > 1) {
    scenario_yaml_report(d, file, root, "%u data keys hold configs (%s): name the one to use as "
                         "FILE#KEY, e.g. '%s#%s', as the GPU Operator picks one per node",
                         cands->len, labels, file, g_array_index(cands, candidate, 0).label);
    return NULL;
  }
  return &g_array_index(cands, candidate, 0);
}

/* Splits "FILE#KEY" when FILE exists and the whole path does not; *key owned or NULL. */
static char *split_key(const char *path, char **key) {
  *key = NULL;
  const char *h = strrchr(path, '#');
  if (!h || g_file_test(path, G_FILE_TEST_EXISTS)) return g_strdup(path);
  *key = g_strdup(h + 1);
  return g_strndup(path, (gsize)(h - path));
}

/* Loads path (optionally FILE#KEY) and returns the config document in it: the file itself, or
 * the text of one data key of a ConfigMap / List / Helm values, parsed with its positions in
 * the file. *file gets the path without the key, *source a description of where the config
 * came from ("FILE", "FILE#KEY (ConfigMap NAME)"). NULL with the problems in diags. */
static scenario_yaml *load_config(const char *within, const char *path, unwrap_for wf,
                                  diag_list *d, char **file, char **source) {
  g_autofree char *key = NULL;
  *file = split_key(path, &key);
  *source = NULL;
  scenario_yaml *root = scenario_yaml_load_in(within, *file, d);
  if (!root) return NULL;
  g_autoptr(GArray) cands = g_array_new(FALSE, TRUE, sizeof(candidate));
  g_array_set_clear_func(cands, candidate_clear);
  const char *dflt = NULL;
  guint before = d->count;
  g_autoptr(GPtrArray) keep = g_ptr_array_new_with_free_func((GDestroyNotify)scenario_yaml_free);
  if (root->type != SCENARIO_YAML_MAP || !collect(cands, d, *file, root, wf, &dflt, keep)) {
    if (key) {
      g_autofree char *e = esc(key);
      diag_add(d, *file, 0, 0, "'#%s' names a ConfigMap key, but this file is a plain config "
               "(no kind: ConfigMap, List or Helm values)", e);
      scenario_yaml_free(root);
      return NULL;
    }
    *source = g_strdup(*file);
    return root;
  }
  const candidate *c = d->count == before ? pick(cands, d, *file, root, key, dflt) : NULL;
  scenario_yaml *inner = c ? scenario_yaml_parse_embedded(*file, c->value, d) : NULL;
  if (inner) {
    *source = c->cm ? g_strdup_printf("%s#%s (ConfigMap %s)", *file, c->key, c->cm)
                    : g_strdup_printf("%s#%s", *file, c->label);
  }
  scenario_yaml_free(root);
  return inner;
}

/* ======================================================================================
 * Device-plugin sharing config
 * ==================================================================================== */

static const char *const sharing_top_keys[] = {"version", "flags", "resources", "sharing", "imex",
                                               NULL};
static const char *const sharing_keys[] = {"timeSlicing", "mps", NULL};
static const char *const section_keys[] = {"renameByDefault", "failRequestsGreaterThanOne",
                                           "resources", NULL};
static const char *const resource_keys[] = {"name", "rename", "devices", "replicas", NULL};
static const char *const mig_strategies[] = {"none", "single", "mixed", NULL};

const char *nvconfig_sharing_kind_name(nvconfig_sharing_kind k) {
  switch (k) {
  case NVCONFIG_SHARING_TIME_SLICING: return "timeSlicing";
  case NVCONFIG_SHARING_MPS: return "mps";
  default: return "none";
  }
}

static void resource_clear(gpointer data) {
  nvconfig_resource *r = data;
  g_free(r->name);
  g_free(r->mig_profile);
}

void nvconfig_sharing_free(nvconfig_sharing *c) {
  if (!c) return;
  g_free(c->path);
  g_free(c->source);
  g_array_unref(c->resources);
  g_free(c);
}

/* A MIG profile as it appears in a resource name: "1g.10gb", "3g.40gb", "1g.10gb+me". */
static gboolean profile_text_ok(const char *p) {
  if (!*p || strlen(p) > 32) return FALSE;
  for (; *p; p++)
    if (!(g_ascii_isalnum(*p) || *p == '.' || *p == '+' || *p == '-')) return FALSE;
  return TRUE;
}

static void parse_resource(nvconfig_sharing *c, diag_list *d, const scenario_yaml *rm,
                           const char *what, GHashTable *seen) {
  const char *file = c->path;
  char w[128];
  if (rm->type != SCENARIO_YAML_MAP) {
    scenario_yaml_expected(d, file, rm, what, "a mapping with name and replicas");
    return;
  }
  scenario_yaml_check_keys(d, file, rm, what, resource_keys);
  nvconfig_resource r = {0};
  gboolean ok = TRUE;
  const scenario_yaml *n = scenario_yaml_get(rm, "name");
  g_snprintf(w, sizeof w, "%s.name", what);
  if (!n) {
    scenario_yaml_report(d, file, rm, "%s: missing required key 'name' (e.g. nvidia.com/gpu)",
                         what);
    ok = FALSE;
  } else if (n->type == SCENARIO_YAML_SCALAR && !strcmp(n->text, "nvidia.com/gpu")) {
    r.name = g_strdup(n->text);
  } else if (n->type == SCENARIO_YAML_SCALAR && g_str_has_prefix(n->text, "nvidia.com/mig-") &&
             profile_text_ok(n->text + strlen("nvidia.com/mig-"))) {
    if (c->kind == NVCONFIG_SHARING_MPS) {
      scenario_yaml_expected(d, file, n, w, "nvidia.com/gpu (the device plugin supports MPS on "
                             "full GPUs only)");
      ok = FALSE;
    } else {
      r.name = g_strdup(n->text);
      r.mig_profile = g_strdup(n->text + strlen("nvidia.com/mig-"));
    }
  } else {
    scenario_yaml_expected(d, file, n, w, "nvidia.com/gpu or nvidia.com/mig-<profile>");
    ok = FALSE;
  }
  if (r.name) {
    const scenario_yaml *first = g_hash_table_lookup(seen, r.name);
    if (first) {
      g_autofree char *e = esc(r.name);
      scenario_yaml_report(d, file, n, "%s: resource '%s' is listed twice (first at line %u)", w,
                           e, first->line);
      ok = FALSE;
    } else {
      g_hash_table_insert(seen, n->text, (gpointer)n);
    }
  }
  if ((n = scenario_yaml_get(rm, "rename"))) {
    g_snprintf(w, sizeof w, "%s.rename", what);
    if (!scenario_yaml_scalar(d, file, n, w, "a resource name")) ok = FALSE;
  }
  if ((n = scenario_yaml_get(rm, "devices"))) {
    g_snprintf(w, sizeof w, "%s.devices", what);
    if (n->type != SCENARIO_YAML_SCALAR || strcmp(n->text, "all")) {
      scenario_yaml_expected(d, file, n, w, "'all' (the device plugin shares every GPU of a "
                             "node alike: it resets `devices` to all on load; per-GPU sharing is "
                             "not built, docs/models.md \"Not built yet\")");
      ok = FALSE;
    }
  }
  g_snprintf(w, sizeof w, "%s.replicas", what);
  int64_t v;
  if (!(n = scenario_yaml_get(rm, "replicas"))) {
    scenario_yaml_report(d, file, rm, "%s: missing required key 'replicas'", what);
    ok = FALSE;
  } else if (!scenario_yaml_int(d, file, n, w, 2, G_MAXUINT32, &v)) {
    ok = FALSE; /* the device plugin refuses fewer than 2 replicas */
  } else {
    r.replicas = (guint32)v;
    r.line = n->line;
    r.col = n->col;
  }
  if (ok) g_array_append_val(c->resources, r);
  else resource_clear(&r);
}

static void parse_section(nvconfig_sharing *c, diag_list *d, const scenario_yaml *sec,
                          const char *what) {
  const char *file = c->path;
  char w[128];
  if (sec->type != SCENARIO_YAML_MAP) {
    scenario_yaml_expected(d, file, sec, what, "a mapping with resources");
    return;
  }
  scenario_yaml_check_keys(d, file, sec, what, section_keys);
  const scenario_yaml *n;
  if ((n = scenario_yaml_get(sec, "renameByDefault"))) {
    g_snprintf(w, sizeof w, "%s.renameByDefault", what);
    scenario_yaml_bool(d, file, n, w, &c->rename_by_default);
  }
  if ((n = scenario_yaml_get(sec, "failRequestsGreaterThanOne"))) {
    g_snprintf(w, sizeof w, "%s.failRequestsGreaterThanOne", what);
    scenario_yaml_bool(d, file, n, w, &c->fail_requests_greater_than_one);
  }
  g_snprintf(w, sizeof w, "%s.resources", what);
  if (!(n = scenario_yaml_get(sec, "resources"))) {
    scenario_yaml_report(d, file, sec, "%s: missing required key 'resources'", what);
    return;
  }
  if (n->type != SCENARIO_YAML_SEQ || n->items->len == 0) {
    scenario_yaml_expected(d, file, n, w, "a non-empty list of resources");
    return;
  }
  GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
  for (guint i = 0; i < n->items->len; i++) {
    char rw[128];
    g_snprintf(rw, sizeof rw, "%s[%u]", w, i + 1); /* 1-based */
    parse_resource(c, d, g_ptr_array_index(n->items, i), rw, seen);
  }
  g_hash_table_destroy(seen);
}

/* A referenced file that is not in the expected format at all (not a mapping, or none of
 * the format's top-level keys) is refused without quoting any of its content: the path
 * may name a file that was never meant to be shown (SPEC 6). */
static gboolean nvconfig_is_format(diag_list *d, const char *path, const scenario_yaml *root,
                                   const char *what, const char *const *top_keys,
                                   const char *expected) {
  gboolean any = FALSE;
  for (guint i = 0; root->type == SCENARIO_YAML_MAP && top_keys[i] && !any; i++)
    any = scenario_yaml_get(root, top_keys[i]) != NULL;
  if (!any)
    diag_add(d, path, root->line, root->col, "not a %s: expected %s (the content is not shown)",
             what, expected);
  return any;
}

nvconfig_sharing *nvconfig_sharing_load(const char *spec, diag_list *diags) {
  return nvconfig_sharing_load_in(NULL, spec, diags);
}

nvconfig_sharing *nvconfig_sharing_load_in(const char *within, const char *spec,
                                           diag_list *diags) {
  g_return_val_if_fail(spec && diags, NULL);
  guint before = diags->count;
  g_autofree char *path = NULL, *source = NULL;
  scenario_yaml *root = load_config(within, spec, FOR_SHARING, diags, &path, &source);
  if (!root) return NULL;
  nvconfig_sharing *c = g_new0(nvconfig_sharing, 1);
  c->path = g_strdup(path);
  c->source = g_steal_pointer(&source);
  c->resources = g_array_new(FALSE, TRUE, sizeof(nvconfig_resource));
  g_array_set_clear_func(c->resources, resource_clear);
  if (!nvconfig_is_format(diags, path, root, "device-plugin config", sharing_top_keys,
                          "a YAML mapping with version and sharing")) {
    /* reported without quoting the content */
  } else {
    scenario_yaml_check_keys(diags, path, root, NULL, sharing_top_keys);
    check_version(diags, path, root);
    const scenario_yaml *flags = scenario_yaml_get(root, "flags"), *n;
    if (flags && flags->type != SCENARIO_YAML_MAP)
      scenario_yaml_expected(diags, path, flags, "flags", "a mapping");
    if ((n = scenario_yaml_get(flags, "migStrategy"))) {
      gboolean ok = n->type == SCENARIO_YAML_SCALAR;
      for (const char *const *s = mig_strategies; ok && *s; s++)
        if (!strcmp(*s, n->text)) break;
        else if (!s[1]) ok = FALSE;
      if (!ok) scenario_yaml_expected(diags, path, n, "flags.migStrategy", "none, single or mixed");
    }
    const scenario_yaml *sharing = scenario_yaml_get(root, "sharing");
    if (sharing && sharing->type != SCENARIO_YAML_MAP) {
      scenario_yaml_expected(diags, path, sharing, "sharing", "a mapping with timeSlicing or mps");
    } else if (sharing) {
      scenario_yaml_check_keys(diags, path, sharing, "sharing", sharing_keys);
      const scenario_yaml *ts = scenario_yaml_get(sharing, "timeSlicing");
      const scenario_yaml *mps = scenario_yaml_get(sharing, "mps");
      if (ts && mps) {
        scenario_yaml_report(diags, path, scenario_yaml_get_key(sharing, "mps"),
                             "sharing: timeSlicing and mps are mutually exclusive");
      } else if (ts || mps) {
        c->kind = ts ? NVCONFIG_SHARING_TIME_SLICING : NVCONFIG_SHARING_MPS;
        const scenario_yaml *key = scenario_yaml_get_key(sharing, ts ? "timeSlicing" : "mps");
        c->line = key->line;
        c->col = key->col;
        parse_section(c, diags, ts ? ts : mps, ts ? "sharing.timeSlicing" : "sharing.mps");
      }
    }
  }
  scenario_yaml_free(root);
  if (diags->count != before) {
    nvconfig_sharing_free(c);
    return NULL;
  }
  return c;
}

/* ======================================================================================
 * mig-parted config
 * ==================================================================================== */

static const char *const mig_top_keys[] = {"version", "mig-configs", NULL};
static const char *const entry_keys[] = {"devices", "device-filter", "mig-enabled", "mig-devices",
                                         NULL};

static void entry_free(nvconfig_mig_entry *e) {
  if (!e) return;
  g_array_unref(e->devices);
  g_array_unref(e->device_pos);
  g_ptr_array_unref(e->device_filter);
  g_ptr_array_unref(e->profiles);
  g_array_unref(e->counts);
  g_free(e);
}

static void config_free(nvconfig_mig_config *c) {
  if (!c) return;
  g_free(c->name);
  g_ptr_array_unref(c->entries);
  g_free(c);
}

void nvconfig_mig_free(nvconfig_mig *c) {
  if (!c) return;
  g_free(c->path);
  g_free(c->source);
  g_ptr_array_unref(c->configs);
  g_free(c);
}

static gboolean pci_id_ok(const char *s) {
  if (!g_str_has_prefix(s, "0x") && !g_str_has_prefix(s, "0X")) return FALSE;
  size_t n = strlen(s + 2);
  if (n == 0 || n > 8) return FALSE;
  for (const char *p = s + 2; *p; p++)
    if (!g_ascii_isxdigit(*p)) return FALSE;
  return TRUE;
}

static nvconfig_mig_entry *parse_entry(const char *file, diag_list *d, const scenario_yaml *em,
                                       const char *what) {
  char w[192];
  if (em->type != SCENARIO_YAML_MAP) {
    scenario_yaml_expected(d, file, em, what, "a mapping with devices, mig-enabled, mig-devices");
    return NULL;
  }
  scenario_yaml_check_keys(d, file, em, what, entry_keys);
  nvconfig_mig_entry *e = g_new0(nvconfig_mig_entry, 1);
  e->line = em->line;
  e->col = em->col;
  e->devices = g_array_new(FALSE, FALSE, sizeof(guint));
  e->device_pos = g_array_new(FALSE, FALSE, sizeof(guint));
  e->device_filter = g_ptr_array_new_with_free_func(g_free);
  e->profiles = g_ptr_array_new_with_free_func(g_free);
  e->counts = g_array_new(FALSE, FALSE, sizeof(guint32));
  const scenario_yaml *n;

  g_snprintf(w, sizeof w, "%s.devices", what);
  if (!(n = scenario_yaml_get(em, "devices"))) {
    scenario_yaml_report(d, file, em, "%s: missing required key 'devices' (all or a list of GPU "
                         "indices)", what);
  } else if (n->type == SCENARIO_YAML_SCALAR && !strcmp(n->text, "all")) {
    e->all_devices = TRUE;
  } else if (n->type == SCENARIO_YAML_SEQ && n->items->len > 0) {
    for (guint i = 0; i < n->items->len; i++) {
      char iw[208];
      g_snprintf(iw, sizeof iw, "%s[%u]", w, i + 1);
      int64_t v;
      const scenario_yaml *it = g_ptr_array_index(n->items, i);
      if (scenario_yaml_int(d, file, it, iw, 0, 1023, &v)) {
        guint u = (guint)v, pos[2] = {it->line, it->col};
        g_array_append_val(e->devices, u);
        g_array_append_vals(e->device_pos, pos, 2);
      }
    }
  } else {
    scenario_yaml_expected(d, file, n, w, "all or a list of GPU indices, e.g. [0, 1]");
  }

  if ((n = scenario_yaml_get(em, "device-filter"))) {
    g_snprintf(w, sizeof w, "%s.device-filter", what);
    const char *exp = "a PCI device ID such as \"0x20B210DE\" or a list of them";
    if (n->type == SCENARIO_YAML_SCALAR) {
      if (pci_id_ok(n->text)) g_ptr_array_add(e->device_filter, g_strdup(n->text));
      else scenario_yaml_expected(d, file, n, w, exp);
    } else if (n->type == SCENARIO_YAML_SEQ && n->items->len > 0) {
      for (guint i = 0; i < n->items->len; i++) {
        const scenario_yaml *it = g_ptr_array_index(n->items, i);
        char iw[208];
        g_snprintf(iw, sizeof iw, "%s[%u]", w, i + 1);
        if (it->type == SCENARIO_YAML_SCALAR && pci_id_ok(it->text))
          g_ptr_array_add(e->device_filter, g_strdup(it->text));
        else
          scenario_yaml_expected(d, file, it, iw, "a PCI device ID such as \"0x20B210DE\"");
      }
    } else {
      scenario_yaml_expected(d, file, n, w, exp);
    }
  }

  g_snprintf(w, sizeof w, "%s.mig-enabled", what);
  if (!(n = scenario_yaml_get(em, "mig-enabled")))
    scenario_yaml_report(d, file, em, "%s: missing required key 'mig-enabled'", what);
  else
    scenario_yaml_bool(d, file, n, w, &e->mig_enabled);

  if ((n = scenario_yaml_get(em, "mig-devices"))) {
    g_snprintf(w, sizeof w, "%s.mig-devices", what);
    if (n->type != SCENARIO_YAML_MAP) {
      scenario_yaml_expected(d, file, n, w,
                             "a mapping of MIG profile to count, e.g. {\"1g.10gb\": 7}");
    } else {
      for (guint i = 0; i + 1 < n->items->len; i += 2) {
        const scenario_yaml *k = g_ptr_array_index(n->items, i);
        char iw[240];
        g_snprintf(iw, sizeof iw, "%s.%s", w, k->text);
        if (!profile_text_ok(k->text)) {
          scenario_yaml_expected(d, file, k, w, "a MIG profile name such as \"3g.40gb\"");
          continue;
        }
        int64_t v;
        if (!scenario_yaml_int(d, file, g_ptr_array_index(n->items, i + 1), iw, 0, 7, &v)) continue;
        guint32 cnt = (guint32)v;
        g_ptr_array_add(e->profiles, g_strdup(k->text));
        g_array_append_val(e->counts, cnt);
      }
    }
  }
  return e;
}

nvconfig_mig *nvconfig_mig_load(const char *spec, diag_list *diags) {
  return nvconfig_mig_load_in(NULL, spec, diags);
}

nvconfig_mig *nvconfig_mig_load_in(const char *within, const char *spec, diag_list *diags) {
  g_return_val_if_fail(spec && diags, NULL);
  guint before = diags->count;
  g_autofree char *path = NULL, *source = NULL;
  scenario_yaml *root = load_config(within, spec, FOR_MIG, diags, &path, &source);
  if (!root) return NULL;
  nvconfig_mig *c = g_new0(nvconfig_mig, 1);
  c->path = g_strdup(path);
  c->source = g_steal_pointer(&source);
  c->configs = g_ptr_array_new_with_free_func((GDestroyNotify)config_free);
  if (!nvconfig_is_format(diags, path, root, "mig-parted config", mig_top_keys,
                          "a YAML mapping with version and mig-configs")) {
    /* reported without quoting the content */
  } else {
    scenario_yaml_check_keys(diags, path, root, NULL, mig_top_keys);
    check_version(diags, path, root);
    const scenario_yaml *mcs = scenario_yaml_get(root, "mig-configs");
    if (!mcs) {
      scenario_yaml_report(diags, path, root, "missing required key 'mig-configs'");
    } else if (mcs->type != SCENARIO_YAML_MAP || mcs->items->len == 0) {
      scenario_yaml_expected(diags, path, mcs, "mig-configs",
                             "a non-empty mapping of config name to a list of device entries");
    } else {
      for (guint i = 0; i + 1 < mcs->items->len; i += 2) {
        const scenario_yaml *k = g_ptr_array_index(mcs->items, i);
        const scenario_yaml *list = g_ptr_array_index(mcs->items, i + 1);
        char w[160];
        g_snprintf(w, sizeof w, "mig-configs.%s", k->text);
        nvconfig_mig_config *cfg = g_new0(nvconfig_mig_config, 1);
        cfg->name = g_strdup(k->text);
        cfg->line = k->line;
        cfg->col = k->col;
        cfg->entries = g_ptr_array_new_with_free_func((GDestroyNotify)entry_free);
        g_ptr_array_add(c->configs, cfg);
        if (list->type != SCENARIO_YAML_SEQ || list->items->len == 0) {
          scenario_yaml_expected(diags, path, list, w, "a non-empty list of device entries");
          continue;
        }
        for (guint j = 0; j < list->items->len; j++) {
          char ew[192];
          g_snprintf(ew, sizeof ew, "%s[%u]", w, j + 1);
          nvconfig_mig_entry *e = parse_entry(path, diags, g_ptr_array_index(list->items, j), ew);
          if (e) g_ptr_array_add(cfg->entries, e);
        }
      }
    }
  }
  scenario_yaml_free(root);
  if (diags->count != before) {
    nvconfig_mig_free(c);
    return NULL;
  }
  return c;
}

const nvconfig_mig_config *nvconfig_mig_find(const nvconfig_mig *c, const char *name) {
  if (!c || !name) return NULL;
  for (guint i = 0; i < c->configs->len; i++) {
    const nvconfig_mig_config *cfg = g_ptr_array_index(c->configs, i);
    if (!strcmp(cfg->name, name)) return cfg;
  }
  return NULL;
}

char *nvconfig_mig_names(const nvconfig_mig *c) {
  GString *s = g_string_new(NULL);
  for (guint i = 0; c && i < c->configs->len; i++) {
    const nvconfig_mig_config *cfg = g_ptr_array_index(c->configs, i);
    if (i) g_string_append(s, ", ");
    g_string_append(s, cfg->name);
  }
  return g_string_free(s, FALSE);
}

/* 1: the device-filter names a PCI ID of m; -1: it names other devices only (known IDs of
 * other models, or IDs the table does not know, such as a workstation's display GPU): the
 * entry is for those GPUs, as mig-parted applies it; 0: no filter, the entry applies to every
 * model whose profiles it uses. */
static int entry_matches(const nvconfig_mig_entry *e, const gpu_model *m) {
  for (guint i = 0; i < e->device_filter->len; i++) {
    const char *model = nvconfig_pci_model(g_ptr_array_index(e->device_filter, i));
    if (model && catalog_find(model) == m) return 1;
  }
  return e->device_filter->len ? -1 : 0;
}

/* One ignored entry: "line N (device-filter ID, ID = MODEL)" when it names two PCI ids or
 * fewer; else "line N (device-filter of K ids: MODEL x2, MODEL, J ids of GPUs without a
 * MIG model here)", each model once with its count, so that NVIDIA's own configs (a dozen
 * ids an entry) stay readable. */
static void ignored_entry(GString *s, const nvconfig_mig_entry *e) {
  guint n = e->device_filter->len;
  g_string_append_printf(s, "%sline %u (device-filter", s->len ? "; " : "", e->line);
  if (n <= 2) {
    for (guint k = 0; k < n; k++) {
      const char *id = g_ptr_array_index(e->device_filter, k);
      const char *model = nvconfig_pci_model(id);
      g_string_append_printf(s, "%s %s%s%s%s", k ? "," : "", id, model ? " = " : "",
                             model ? model : "", model ? "" : " (not a MIG GPU sharesim knows)");
    }
    g_string_append_c(s, ')');
    return;
  }
  g_string_append_printf(s, " of %u ids:", n);
  guint unknown = 0, listed = 0;
  for (guint k = 0; k < n; k++) {
    const char *model = nvconfig_pci_model(g_ptr_array_index(e->device_filter, k));
    if (!model) {
      unknown++;
      continue;
    }
    guint count = 0, first = k;
    for (guint q = 0; q < n; q++) {
      const char *other = nvconfig_pci_model(g_ptr_array_index(e->device_filter, q));
      if (other && !strcmp(other, model)) {
        if (q < first) break; /* listed at its first id */
        count++;
      }
    }
    if (!count) continue;
    g_string_append_printf(s, "%s %s", listed++ ? "," : "", model);
    if (count > 1) g_string_append_printf(s, " x%u", count);
  }
  if (unknown)
    g_string_append_printf(s, "%s %u id%s of GPUs sharesim has no MIG model for", listed ? "," : "",
                           unknown, unknown == 1 ? "" : "s");
  g_string_append_c(s, ')');
}

/* At most this many ignored entries are named; the others are counted. */
#define NVCONFIG_IGNORED_SHOWN 4u

char *nvconfig_mig_ignored(const nvconfig_mig_config *cfg, const gpu_model *m) {
  GString *s = g_string_new(NULL);
  guint shown = 0, more = 0;
  for (guint i = 0; cfg && i < cfg->entries->len; i++) {
    const nvconfig_mig_entry *e = g_ptr_array_index(cfg->entries, i);
    if (entry_matches(e, m) >= 0) continue;
    if (shown++ < NVCONFIG_IGNORED_SHOWN) ignored_entry(s, e);
    else more++;
  }
  if (more) g_string_append_printf(s, "; and %u more entr%s", more, more == 1 ? "y" : "ies");
  if (!s->len) {
    g_string_free(s, TRUE);
    return NULL;
  }
  return g_string_free(s, FALSE);
}

static void set_message(char **message, char *text) {
  if (message) *message = text;
  else g_free(text);
}

/* The layout entry e (MIG enabled) gives a GPU of m: TRUE with *l, or FALSE with *problem
 * (owned) or, when it creates no instance, with neither. */
static gboolean entry_layout(const nvconfig_mig_entry *e, const gpu_model *m, mig_layout *l,
                             char **problem) {
  uint8_t idx[CATALOG_MAX_INSTANCES];
  guint n = 0;
  *problem = NULL;
  memset(l, 0, sizeof *l);
  for (guint k = 0; k < e->profiles->len && !*problem; k++) {
    const char *prof = g_ptr_array_index(e->profiles, k);
    guint32 cnt = g_array_index(e->counts, guint32, k);
    if (cnt == 0) continue;
    int pi = catalog_profile_index(m, prof);
    if (pi < 0) {
      g_autofree char *names = catalog_profile_names(m);
      g_autofree char *ep = esc(prof);
      *problem = g_strdup_printf("profile '%s' (line %u) does not exist on %s (its profiles: %s)",
                                 ep, e->line, m->name, names);
    } else if (n + cnt > CATALOG_MAX_INSTANCES) {
      *problem = g_strdup_printf("more than %d MIG instances (line %u)", CATALOG_MAX_INSTANCES,
                                 e->line);
    } else {
      for (guint j = 0; j < cnt; j++) idx[n++] = (uint8_t)pi;
    }
  }
  if (*problem || n == 0) return FALSE;
  g_autofree char *msg = NULL;
  if (catalog_layout_validate(m, idx, n, l, &msg)) return TRUE;
  *problem = g_strdup_printf("line %u: %s", e->line, msg ? msg : "not a valid MIG layout");
  return FALSE;
}

gboolean nvconfig_mig_layout(const nvconfig_mig_config *cfg, const gpu_model *m,
                             mig_layout *out, char **message) {
  if (message) *message = NULL;
  if (!m->mig_slots) {
    set_message(message, g_strdup_printf("%s has no MIG", m->name));
    return FALSE;
  }
  const nvconfig_mig_entry *chosen = NULL;
  mig_layout chosen_l = {0};
  g_autofree char *chosen_s = NULL;
  g_autofree char *skipped = NULL; /* why the first unmatched entry did not fit m */
  for (guint i = 0; i < cfg->entries->len; i++) {
    const nvconfig_mig_entry *e = g_ptr_array_index(cfg->entries, i);
    int match = entry_matches(e, m);
    if (match < 0) continue;
    if (!e->mig_enabled) {
      set_message(message, g_strdup_printf("config '%s' disables MIG (mig-enabled: false at "
                                           "line %u)", cfg->name, e->line));
      return FALSE;
    }
    mig_layout l;
    g_autofree char *problem = NULL;
    if (!entry_layout(e, m, &l, &problem) && !problem) {
      set_message(message, g_strdup_printf("config '%s' creates no MIG instances (line %u)",
                                           cfg->name, e->line));
      return FALSE;
    }
    if (problem) {
      /* An entry meant for m (by its PCI ID) is wrong; one without a filter that does not
       * fit m may be meant for another model. */
      if (match > 0) {
        set_message(message, g_strdup_printf("config '%s': %s", cfg->name, problem));
        return FALSE;
      }
      if (!skipped) skipped = g_steal_pointer(&problem);
      continue;
    }
    g_autofree char *ls = catalog_layout_to_string(m, &l);
    if (chosen && strcmp(ls, chosen_s)) {
      set_message(message, g_strdup_printf("config '%s' gives the GPUs of %s different layouts "
                                           "(line %u: %s; line %u: %s); a pool has one layout "
                                           "for all its GPUs", cfg->name, m->name, chosen->line,
                                           chosen_s, e->line, ls));
      return FALSE;
    }
    if (!chosen) {
      chosen = e;
      chosen_l = l;
      chosen_s = g_steal_pointer(&ls);
    }
  }
  if (!chosen) {
    set_message(message,
                skipped ? g_strdup_printf("config '%s' has no entry for %s (%s)", cfg->name,
                                          m->name, skipped)
                        : g_strdup_printf("config '%s' has no entry for %s (its device-filter "
                                          "names other GPU models)", cfg->name, m->name));
    return FALSE;
  }
  *out = chosen_l;
  return TRUE;
}

/* ======================================================================================
 * Per-device entries: what each GPU of a node gets
 * ==================================================================================== */

/* Claims GPU g for entry e (its devices list item k, or `all` when k < 0); FALSE with the
 * problem reported at the item when g is beyond the node or already claimed. */
static gboolean claim_gpu(const nvconfig_mig *mc, const nvconfig_mig_config *cfg,
                          const nvconfig_mig_entry *e, int k, guint g, guint gpus,
                          GArray *setups, const nvconfig_gpu_setup *s, diag_list *d) {
  guint line = k < 0 ? e->line : g_array_index(e->device_pos, guint, 2 * (guint)k);
  guint col = k < 0 ? e->col : g_array_index(e->device_pos, guint, 2 * (guint)k + 1);
  if (g >= gpus) {
    diag_add(d, mc->path, line, col, "mig-configs.%s: device index %u is beyond the node: the "
             "pool has %u GPU%s a node (indices 0-%u)", cfg->name, g, gpus, gpus == 1 ? "" : "s",
             gpus - 1);
    return FALSE;
  }
  nvconfig_gpu_setup *at = &g_array_index(setups, nvconfig_gpu_setup, g);
  if (at->line) {
    diag_add(d, mc->path, line, col, "mig-configs.%s: GPU %u is named by two entries (line %u "
             "and line %u): each GPU takes one entry", cfg->name, g, at->line, e->line);
    return FALSE;
  }
  *at = *s;
  return TRUE;
}

/* "GPU 0: MIG disabled; GPUs 1-2: 1g.10gb x7; GPU 3: not named (MIG disabled)": runs of
 * equal set-ups. Owned. */
static char *setups_text(const gpu_model *m, const GArray *setups) {
  GString *s = g_string_new(NULL);
  for (guint g = 0; g < setups->len;) {
    const nvconfig_gpu_setup *a = &g_array_index(setups, nvconfig_gpu_setup, g);
    g_autofree char *t = a->mig ? catalog_layout_to_string(m, &a->layout) : NULL;
    guint h = g + 1;
    for (; h < setups->len; h++) {
      const nvconfig_gpu_setup *b = &g_array_index(setups, nvconfig_gpu_setup, h);
      g_autofree char *u = b->mig ? catalog_layout_to_string(m, &b->layout) : NULL;
      if (b->mig != a->mig || (a->mig && strcmp(t, u)) || (!a->line) != (!b->line)) break;
    }
    g_string_append_printf(s, "%sGPU%s %u", s->len ? "; " : "", h - g > 1 ? "s" : "", g);
    if (h - g > 1) g_string_append_printf(s, "-%u", h - 1);
    g_string_append_printf(s, ": %s%s", a->mig ? t : "MIG disabled",
                           a->line ? "" : " (named by no entry)");
    g = h;
  }
  return g_string_free(s, FALSE);
}

int nvconfig_mig_per_gpu(const nvconfig_mig *mc, const nvconfig_mig_config *cfg,
                         const gpu_model *m, guint gpus, GArray *setups, char **text,
                         diag_list *d) {
  guint before = d->count;
  *text = NULL;
  g_array_set_size(setups, 0);
  nvconfig_gpu_setup none = {0};
  for (guint g = 0; g < gpus; g++) g_array_append_val(setups, none);
  gboolean listed = FALSE;
  for (guint i = 0; i < cfg->entries->len; i++) {
    const nvconfig_mig_entry *e = g_ptr_array_index(cfg->entries, i);
    int match = entry_matches(e, m);
    if (match < 0) continue;
    nvconfig_gpu_setup s = {.mig = e->mig_enabled, .line = e->line};
    g_autofree char *problem = NULL;
    /* an entry that does not fit m: another model's (no filter), or nvconfig_mig_layout's
     * to report (its filter names m) */
    if (e->mig_enabled && !entry_layout(e, m, &s.layout, &problem)) continue;
    listed |= !e->all_devices;
    if (e->all_devices)
      for (guint g = 0; g < gpus; g++) claim_gpu(mc, cfg, e, -1, g, gpus, setups, &s, d);
    for (guint k = 0; k < e->devices->len; k++)
      claim_gpu(mc, cfg, e, (int)k, g_array_index(e->devices, guint, k), gpus, setups, &s, d);
  }
  if (d->count != before) return -1;
  if (!listed) return 0;
  /* alike when every GPU an entry names has MIG with one layout; GPUs named by no entry
   * then take it too (mig-parted leaves them as they were) */
  const nvconfig_gpu_setup *first = NULL;
  gboolean alike = TRUE;
  for (guint g = 0; g < gpus && alike; g++) {
    const nvconfig_gpu_setup *a = &g_array_index(setups, nvconfig_gpu_setup, g);
    if (!a->line) continue;
    if (!a->mig) alike = FALSE;
    else if (!first) first = a;
    else if (memcmp(&first->layout, &a->layout, sizeof a->layout)) alike = FALSE;
  }
  for (guint g = 0; g < gpus && alike && first; g++) {
    nvconfig_gpu_setup *a = &g_array_index(setups, nvconfig_gpu_setup, g);
    if (!a->line) {
      a->mig = TRUE;
      a->layout = first->layout;
    }
  }
  *text = setups_text(m, setups);
  return alike ? 0 : 1;
}
