/* scenario.c: the scenario YAML (SPEC 3.4), read into the tree of scenario-yaml.c; --set
 * overrides are applied to that tree; validation turns it into a frozen `scenario`,
 * reporting every problem with file:line:column. It does not decide whether a strategy is
 * built (share.h) nor check jobs against pools (sim.c). */
#include "scenario.h"
#include "priority.h"
#include "kueue.h"
#include "nvconfig.h"
#include "dra.h"
#include "podspec.h"
#include "llm-model.h"
#include "caltime.h"
#include "paths.h"
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <glib/gstdio.h>

/* ======================================================================================
 * Names of enumerations
 * ==================================================================================== */

/* "offender", the old name of failed-allocation, is accepted too (validate_pool_policies) */
static const char *const oom_names[] = {"all", "failed-allocation", "sidecar", NULL};
static const char *const reconfigure_names[] = {"never", "on-demand", NULL};
static const char *const drain_names[] = {"wait", "evict", NULL};

/* The strategy table the program gave (scenario_use_strategies). */
static guint scenario_n_strategies;
static const scenario_strategy *(*scenario_strategy_row)(guint i);

void scenario_use_strategies(guint n, const scenario_strategy *(*row)(guint i)) {
  scenario_n_strategies = n;
  scenario_strategy_row = row;
}

guint scenario_strategy_count(void) {
  if (!scenario_strategy_row)
    g_error("scenario: no strategy table: the program must call scenario_use_strategies");
  return scenario_n_strategies;
}

/* The pools' sections the program gave (scenario_use_pool_sections); none until then. */
static const scenario_pool_section *const scenario_no_sections[] = {NULL};
static const scenario_pool_section *const *scenario_sections = scenario_no_sections;

void scenario_use_pool_sections(const scenario_pool_section *const *sections) {
  guint n = 0;
  while (sections && sections[n]) n++;
  if (n > SCENARIO_MAX_POOL_SECTIONS)
    g_error("scenario: %u pool sections, more than SCENARIO_MAX_POOL_SECTIONS", n);
  scenario_sections = sections ? sections : scenario_no_sections;
}

const scenario_pool_section *const *scenario_pool_sections(void) { return scenario_sections; }

gconstpointer pool_section_conf(const pool_spec *p, const scenario_pool_section *s) {
  for (guint i = 0; scenario_sections[i]; i++)
    if (scenario_sections[i] == s) return p->section_conf[i];
  return NULL;
}

static gboolean pool_key_section(const char *key) {
  for (guint i = 0; scenario_sections[i]; i++)
    if (!strcmp(scenario_sections[i]->name, key)) return TRUE;
  return FALSE;
}

/* The placement table the program gave (scenario_use_placements). */
static guint scenario_n_placements;
static const scenario_placement *(*scenario_placement_row)(guint i);

void scenario_use_placements(guint n, const scenario_placement *(*row)(guint i)) {
  scenario_n_placements = n;
  scenario_placement_row = row;
}

guint scenario_placement_count(void) {
  if (!scenario_placement_row)
    g_error("scenario: no placement table: the program must call scenario_use_placements");
  return scenario_n_placements;
}

const scenario_placement *scenario_placement_get(guint i) {
  return i < scenario_placement_count() ? scenario_placement_row(i) : NULL;
}

const scenario_key *scenario_placement_key(const scenario_placement *p, const char *key) {
  for (const scenario_key *const *k = p ? p->keys : NULL; k && *k; k++)
    if (!strcmp((*k)->name, key)) return *k;
  return NULL;
}

/* Is key one of some placement policy's keys? */
static gboolean placement_key_any(const char *key) {
  for (guint i = 0; i < scenario_placement_count(); i++)
    if (scenario_placement_key(scenario_placement_get(i), key)) return TRUE;
  return FALSE;
}

/* The models' constants the program gave (scenario_use_model_keys). */
static const scenario_model_key *const *scenario_model_table;

/* Aborts unless k's name is its section's, a dot and a key (or, without a section, has no
 * dot): the reader finds a key by its section, messages name it in full. */
static void model_key_check_section(const scenario_model_key *k) {
  const char *dot = strchr(k->key.name, '.');
  size_t len = k->section ? strlen(k->section->name) : 0;
  if (k->section ? !(dot && (size_t)(dot - k->key.name) == len &&
                     !strncmp(k->key.name, k->section->name, len) && dot[1])
                 : dot != NULL)
    g_error("scenario: model key '%s' is not named after its section '%s'", k->key.name,
            k->section ? k->section->name : "(none)");
}

void scenario_use_model_keys(const scenario_model_key *const *keys) {
  for (const scenario_model_key *const *k = keys; k && *k; k++) model_key_check_section(*k);
  scenario_model_table = keys;
}

const scenario_model_key *const *scenario_model_keys(void) {
  if (!scenario_model_table)
    g_error("scenario: no model keys: the program must call scenario_use_model_keys");
  return scenario_model_table;
}

/* k's name as its section spells it (without the section and the dot). */
static const char *model_key_bare(const scenario_model_key *k) {
  return k->section ? k->key.name + strlen(k->section->name) + 1 : k->key.name;
}

/* The model key of that name in section sec (NULL: the top level), NULL if none. */
static const scenario_model_key *model_key_find(const scenario_model_section *sec,
                                                const char *name) {
  for (const scenario_model_key *const *k = scenario_model_keys(); *k; k++)
    if ((*k)->section == sec && !strcmp(model_key_bare(*k), name)) return *k;
  return NULL;
}

/* Appends to keys the names of the model keys in section sec (NULL: the top level's), as
 * the section spells them (without "sec."). */
static void model_key_names(GPtrArray *keys, const scenario_model_section *sec) {
  for (const scenario_model_key *const *k = scenario_model_keys(); *k; k++)
    if ((*k)->section == sec) g_ptr_array_add(keys, (gpointer)model_key_bare(*k));
}

/* The sections the keys declare, each once, in the order of their first key. */
static void model_sections(GPtrArray *out) {
  for (const scenario_model_key *const *k = scenario_model_keys(); *k; k++)
    if ((*k)->section && !g_ptr_array_find(out, (*k)->section, NULL))
      g_ptr_array_add(out, (gpointer)(*k)->section);
}

/* The section named name, NULL if no key declares it. */
static const scenario_model_section *model_section_find(const char *name) {
  for (const scenario_model_key *const *k = scenario_model_keys(); *k; k++)
    if ((*k)->section && !strcmp((*k)->section->name, name)) return (*k)->section;
  return NULL;
}

const scenario_strategy *scenario_strategy_get(guint i) {
  return i < scenario_strategy_count() ? scenario_strategy_row(i) : NULL;
}

const scenario_key *scenario_strategy_key(const scenario_strategy *s, const char *key) {
  for (const scenario_key *const *k = s ? s->keys : NULL; k && *k; k++)
    if (!strcmp((*k)->name, key)) return *k;
  return NULL;
}

const char *share_strategy_name(share_strategy s) { return s ? s->name : "unknown"; }

/* The first strategy of the table with flag in its implied_by (NULL: none). */
static share_strategy strategy_implied(guint flag) {
  for (guint i = 0; i < scenario_strategy_count(); i++)
    if (scenario_strategy_get(i)->implied_by & flag) return scenario_strategy_get(i);
  return NULL;
}

const char *placement_policy_name(placement_policy p) { return p ? p->name : "unknown"; }

gboolean placement_policy_parse(const char *text, placement_policy *out) {
  for (guint i = 0; text && i < scenario_placement_count(); i++)
    if (!strcmp(text, scenario_placement_get(i)->name)) {
      *out = scenario_placement_get(i);
      return TRUE;
    }
  return FALSE;
}

/* The table's default policy (the row with is_default). */
static placement_policy placement_default(void) {
  for (guint i = 0; i < scenario_placement_count(); i++)
    if (scenario_placement_get(i)->is_default) return scenario_placement_get(i);
  g_error("scenario: no row of the placement table is_default");
}

gboolean share_strategy_parse(const char *text, share_strategy *out) {
  for (guint i = 0; text && i < scenario_strategy_count(); i++)
    if (!strcmp(text, scenario_strategy_get(i)->name)) {
      *out = scenario_strategy_get(i);
      return TRUE;
    }
  return FALSE;
}

/* ======================================================================================
 * Validation helpers
 * ==================================================================================== */

typedef struct vctx {
  const char *file; /* the scenario path, as given */
  char *dir;        /* its folder, for relative paths */
  diag_list *d;
} vctx;

/* "pools[2].replicas" into a caller buffer. */
#define WHAT(buf, prefix, key) (g_snprintf((buf), sizeof(buf), "%s.%s", (prefix), (key)), (buf))

static gboolean v_enum(vctx *c, const scenario_yaml *n, const char *what,
                       const char *const *names, int *out) {
  if (n->type == SCENARIO_YAML_SCALAR)
    for (int i = 0; names[i]; i++)
      if (!strcmp(n->text, names[i])) {
        *out = i;
        return TRUE;
      }
  g_autofree char *list = g_strjoinv(" | ", (char **)names);
  g_autofree char *exp = g_strdup_printf("one of %s", list);
  scenario_yaml_expected(c->d, c->file, n, what, exp);
  return FALSE;
}

/* A number within [lo, hi] (lo_open / hi_open make that end exclusive). */
static gboolean v_number(vctx *c, const scenario_yaml *n, const char *what, const char *expected,
                         double lo, gboolean lo_open, double hi, gboolean hi_open, double *out) {
  double v;
  if (n->type == SCENARIO_YAML_SCALAR && util_parse_double(n->text, &v) &&
      (lo_open ? v > lo : v >= lo) && (hi_open ? v < hi : v <= hi)) {
    *out = v;
    return TRUE;
  }
  scenario_yaml_expected(c->d, c->file, n, what, expected);
  return FALSE;
}

/* "1024us", "2m", "7d": the largest unit that divides ns exactly. */
static char *format_duration(sim_time ns) {
  static const struct { const char *unit; sim_time ns; } units[] = {
      {"d", 86400 * SIM_NS_PER_S}, {"h", 3600 * SIM_NS_PER_S}, {"m", 60 * SIM_NS_PER_S},
      {"s", SIM_NS_PER_S}, {"ms", SIM_NS_PER_MS}, {"us", 1000}, {"ns", 1}};
  for (guint i = 0; i < G_N_ELEMENTS(units); i++)
    if (ns != 0 && ns % units[i].ns == 0)
      return g_strdup_printf("%" PRId64 "%s", ns / units[i].ns, units[i].unit);
  return g_strdup("0s");
}

static gboolean v_duration(vctx *c, const scenario_yaml *n, const char *what, sim_time min_ns,
                           sim_time max_ns, sim_time *out) {
  sim_time ns;
  if (n->type == SCENARIO_YAML_SCALAR && util_parse_duration(n->text, 0, &ns, NULL) &&
      ns >= min_ns && ns <= max_ns) {
    *out = ns;
    return TRUE;
  }
  g_autofree char *lo = format_duration(min_ns), *hi = format_duration(max_ns);
  g_autofree char *exp = g_strdup_printf(
      "a duration with a unit from %s to %s (e.g. 250ms, 90s, 2m, 1h, 7d)", lo, hi);
  scenario_yaml_expected(c->d, c->file, n, what, exp);
  return FALSE;
}

static const char *v_string(vctx *c, const scenario_yaml *n, const char *what) {
  return scenario_yaml_scalar(c->d, c->file, n, what, "text");
}

/* A path value that must name an existing regular file under the scenario's folder (or an
 * --allow-path folder, paths.h); returns the resolved path or NULL after reporting. */
static char *v_file(vctx *c, const scenario_yaml *n, const char *what) {
  const char *p = scenario_yaml_scalar(c->d, c->file, n, what, "a file path");
  if (!p) return NULL;
  if (!*p) {
    scenario_yaml_expected(c->d, c->file, n, what, "a file path");
    return NULL;
  }
  /* "FILE#KEY" names one data key of a ConfigMap (nvconfig.h): the file is the part before
   * the last '#' when no file has the whole name */
  const char *hash = strrchr(p, '#');
  g_autofree char *file_part = NULL;
  char *full = NULL;
  if (hash && paths_confine(c->dir, p, &full) != PATHS_OK)
    file_part = g_strndup(p, (gsize)(hash - p));
  g_clear_pointer(&full, g_free);
  paths_status st = paths_confine(c->dir, file_part ? file_part : p, &full);
  if (st != PATHS_OK) {
    g_autofree char *e = scenario_yaml_escape(p), *ef = scenario_yaml_escape(full), *where = paths_where(c->dir);
    if (st == PATHS_NOT_FOUND || st == PATHS_NOT_REGULAR)
      scenario_yaml_report(c->d, c->file, n, "%s: %s: '%s' (looked for '%s')", what,
                           st == PATHS_NOT_FOUND ? "file not found" : "not a regular file", e, ef);
    else
      scenario_yaml_report(c->d, c->file, n, "%s: '%s' is outside %s%s; it is not read", what, e,
                           where, st == PATHS_LINK_OUTSIDE ? " (through a symbolic link)" : "");
    g_free(full);
    return NULL;
  }
  if (file_part) { /* the ConfigMap key goes back on */
    char *with_key = g_strconcat(full, hash, NULL);
    g_free(full);
    full = with_key;
  }
  return full;
}

/* ======================================================================================
 * Pools
 * ==================================================================================== */

/* The key groups NVIDIA's files also set (the device plugin's sharing config, mig-parted):
 * declared and parsed here, listed by the strategies that read them (scenario.h). */
const scenario_key scenario_key_replicas = {
    "replicas", "1", "residents one card (a MIG instance) takes, as the device plugin's "
    "replicas; on MIG also a mapping of profile to replicas", "2|3|4"};
const scenario_key scenario_key_fail_requests = {
    "failRequestsGreaterThanOne", "false", "the device plugin refuses a request for more "
    "than one replica (informational)", NULL};
const scenario_key scenario_key_rename = {
    "renameByDefault", "false", "the device plugin renames shared resources (informational)",
    NULL};
const scenario_key scenario_key_timeslice = {
    "timeslice", "1024us", "a context's turn on the card (a vGPU pool's default follows its "
    "profile)", NULL};
const scenario_key scenario_key_context_switch = {
    "context_switch", "25us", "cost of switching a context in, per turn", NULL};
const scenario_key scenario_key_layout = {
    "layout", NULL, "the MIG layout every card starts with (or mig_config with "
    "mig_config_name)", "\"3g.40gb x2\"|7g.80gb|\"1g.10gb x7\"|\"4g.40gb + 3g.40gb\"|"
    "\"2g.20gb x3 + 1g.10gb\""};
const scenario_key scenario_key_layouts = {
    "layouts", "mig_config's layouts, else every maximal one", "the layouts a card may be "
    "reconfigured to", NULL};
const scenario_key scenario_key_reconfigure = {
    "reconfigure", "never", "never | on-demand: repartition a drained card for a waiting job",
    "never|on-demand"};
const scenario_key scenario_key_drain = {
    "drain", "wait", "wait | evict: how a card to repartition is emptied", "wait|evict"};
const scenario_key scenario_key_reconfigure_time = {
    "reconfigure_time", "2m", "how long a card is down while it is repartitioned",
    "0s|10s|20s|30s|40s|50s|60s|70s|80s|90s|100s|110s|120s"};
const scenario_key scenario_key_mig_config = {
    "mig_config", "none", "a mig-parted config file (implies the MIG strategy)", NULL};
const scenario_key scenario_key_mig_config_name = {
    "mig_config_name", "none", "the config of mig_config the pool uses", NULL};

/* The keys every pool has; each strategy lists its own (scenario_strategy.keys). */
static const char *const pool_common_keys[] = {"name", "gpu", "nodes", "gpus_per_node",
                                               "strategy", "placement", "price", "oom", NULL};
static const char *const pool_common_tail_keys[] = {
    "sharing_config", /* a config without a sharing section leaves exclusive */
    "dra_claim", "dra_request", /* a Kubernetes DRA claim instead (scenario-dra.c) */
    "pod_spec",       /* a Pod with HAMi's resources or KAI's annotations (podspec.c) */
    "cpu_milli",      /* host resources and node groups: scenario-nodes.c */
    "memory_mib", "model", "node_groups", NULL};

static gboolean key_in(const char *const *keys, const char *key) {
  for (; keys && *keys; keys++)
    if (!strcmp(*keys, key)) return TRUE;
  return FALSE;
}

static gboolean pool_key_common(const char *key) {
  return key_in(pool_common_keys, key) || key_in(pool_common_tail_keys, key) ||
         pool_key_section(key);
}

/* May a pool of strategy s set key? */
static gboolean pool_key_allowed(share_strategy s, const char *key) {
  return pool_key_common(key) || scenario_strategy_key(s, key);
}

/* Appends keys (NULL-terminated) to a, each name once, leaving out the common ones. */
static void pool_key_names_add(GPtrArray *a, const scenario_key *const *keys) {
  for (const scenario_key *const *k = keys; k && *k; k++)
    if (!pool_key_common((*k)->name) &&
        !g_ptr_array_find_with_equal_func(a, (*k)->name, g_str_equal, NULL))
      g_ptr_array_add(a, (gpointer)(*k)->name);
}

/* Every pool key: the common ones, then each strategy's own in table order (first
 * mention), each placement policy's, then the common tail; NULL-terminated, owned by the
 * caller (g_free). */
static const char **pool_key_names_new(void) {
  GPtrArray *a = g_ptr_array_new();
  for (const char *const *k = pool_common_keys; *k; k++) g_ptr_array_add(a, (gpointer)*k);
  for (guint i = 0; i < scenario_strategy_count(); i++)
    pool_key_names_add(a, scenario_strategy_get(i)->keys);
  for (guint i = 0; i < scenario_placement_count(); i++)
    pool_key_names_add(a, scenario_placement_get(i)->keys);
  for (const char *const *k = pool_common_tail_keys; *k; k++) g_ptr_array_add(a, (gpointer)*k);
  for (guint i = 0; scenario_sections[i]; i++) g_ptr_array_add(a, (gpointer)scenario_sections[i]->name);
  g_ptr_array_add(a, NULL);
  return (const char **)g_ptr_array_free(a, FALSE);
}

/* The names of every pool key (built once; sweeps load from several threads). */
static const char *const *pool_key_names(void) {
  static const char **names;
  static gsize done = 0;
  if (g_once_init_enter(&done)) {
    names = pool_key_names_new();
    g_once_init_leave(&done, 1);
  }
  return names;
}

static gboolean pool_key_known(const char *key) { return key_in(pool_key_names(), key); }

/* The name of row i of a table when it owns key, else NULL. */
typedef const char *(*owner_of_fn)(guint i, const char *key);

static const char *placement_owner(guint i, const char *key) {
  const scenario_placement *p = scenario_placement_get(i);
  return scenario_placement_key(p, key) ? p->name : NULL;
}

static const char *strategy_owner(guint i, const char *key) {
  const scenario_strategy *st = scenario_strategy_get(i);
  return scenario_strategy_key(st, key) ? st->name : NULL;
}

/* "strategy mig" or "strategies time-slicing, mig, mps" (one, many): the rows of a table
 * of n rows that own key. Owned. */
static char *owners_text(guint n_rows, owner_of_fn owner, const char *key, const char *one,
                         const char *many) {
  GString *s = g_string_new(NULL);
  guint n = 0;
  for (guint i = 0; i < n_rows; i++) {
    const char *name = owner(i, key);
    if (!name) continue;
    if (n++) g_string_append(s, ", ");
    g_string_append(s, name);
  }
  g_string_prepend(s, n == 1 ? one : many);
  return g_string_free(s, FALSE);
}

/* "placement best-fit" or "placements a, b": the policies that own key. Owned. */
static char *placements_text(const char *key) {
  return owners_text(scenario_placement_count(), placement_owner, key, "placement ",
                     "placements ");
}

/* "strategy mig" or "strategies time-slicing, mig, mps": those that own key. Owned. */
static char *strategies_text(const char *key) {
  return owners_text(scenario_strategy_count(), strategy_owner, key, "strategy ", "strategies ");
}

static pool_spec *pool_new(void) {
  pool_spec *p = g_new0(pool_spec, 1);
  p->gpus_per_node = SCENARIO_DEFAULT_GPUS_PER_NODE;
  p->strategy = strategy_implied(SCENARIO_NV_DEFAULT);
  if (!p->strategy) g_error("scenario: no strategy of the table is SCENARIO_NV_DEFAULT");
  p->placement = placement_default();
  p->replicas = 1;
  p->oom = OOM_ALL;
  p->timeslice_ns = SCENARIO_DEFAULT_TIMESLICE_NS;
  p->context_switch_ns = SCENARIO_DEFAULT_CONTEXT_SWITCH_NS;
  p->pinned_mem_limit_bytes = POOL_PINNED_DEFAULT;
  p->layouts = g_array_new(FALSE, TRUE, sizeof(mig_layout));
  p->reconfigure = RECONFIGURE_NEVER;
  p->drain = DRAIN_WAIT;
  p->reconfigure_time_ns = SCENARIO_DEFAULT_RECONFIGURE_TIME_NS;
  p->vgpu_sched = VGPU_BEST_EFFORT;
  p->vgpu_licence_per_hour = SCENARIO_DEFAULT_VGPU_LICENCE_PER_HOUR;
  p->fraction_cap = 1.0;
  return p;
}

static void pool_free(pool_spec *p) {
  if (!p) return;
  g_free(p->name);
  g_array_unref(p->layouts);
  if (p->gpu_layouts) g_array_unref(p->gpu_layouts);
  g_free(p->sharing_config_path);
  g_free(p->ref_dir);
  g_free(p->mig_config_path);
  g_free(p->mig_config_name);
  g_free(p->dra_claim_path);
  g_free(p->dra_note);
  g_free(p->pod_spec_path);
  pod_gpu_free(p->pod);
  g_free(p->strategy_conf);
  g_free(p->placement_conf);
  for (guint i = 0; i < SCENARIO_MAX_POOL_SECTIONS; i++) g_free(p->section_conf[i]);
  scenario_nodes_free(p);
  g_free(p);
}

/* "A30-24GB, A100-40GB, ..." models with MIG. Owned. */
static char *mig_model_names(void) {
  guint n = 0;
  const gpu_model *ms = catalog_models(&n);
  GString *s = g_string_new(NULL);
  for (guint i = 0; i < n; i++)
    if (ms[i].mig_slots) {
      if (s->len) g_string_append(s, ", ");
      g_string_append(s, ms[i].name);
    }
  return g_string_free(s, FALSE);
}

/* One item of the list form of a layout: "3g.40gb", "3g.40gb x2", "3g.40gb x 2". */
static gboolean parse_layout_item(const char *text, char **profile, guint *count) {
  g_autofree char *t = g_strstrip(g_strdup(text));
  *count = 1;
  char *sp = strrchr(t, ' ');
  if (sp) {
    char *num = sp + 1;
    char *x = sp;
    while (x > t && x[-1] == ' ') x--;
    /* "name xN": the number follows an 'x' in the last word; "name x N": the word before */
    if (num[0] == 'x' || num[0] == 'X') num++;
    else if (x > t && (x[-1] == 'x' || x[-1] == 'X') && (x - 1 == t || x[-2] == ' ')) x--;
    else return FALSE;
    int64_t v;
    if (!util_parse_int64(num, &v) || v < 1 || v > CATALOG_MAX_INSTANCES) return FALSE;
    *count = (guint)v;
    while (x > t && x[-1] == ' ') x--;
    *x = 0;
    if (strchr(t, ' ')) return FALSE;
  }
  if (!*t) return FALSE;
  *profile = g_strdup(t);
  return TRUE;
}

/* A layout given as a string ("3g.40gb x2 + 1g.10gb") or as a list of profile strings. */
static gboolean v_layout(vctx *c, const scenario_yaml *n, const char *what, const gpu_model *m,
                         mig_layout *out) {
  g_autofree char *msg = NULL;
  if (n->type == SCENARIO_YAML_SCALAR) {
    if (catalog_layout_parse(m, n->text, out, &msg)) return TRUE;
    scenario_yaml_report(c->d, c->file, n, "%s: %s", what,
                         msg ? msg : "not a valid MIG layout");
    return FALSE;
  }
  if (n->type != SCENARIO_YAML_SEQ || n->items->len == 0) {
    scenario_yaml_expected(c->d, c->file, n, what,
                           "a MIG layout such as \"3g.40gb x2\" or a list of profiles");
    return FALSE;
  }
  uint8_t idx[CATALOG_MAX_INSTANCES];
  guint total = 0;
  gboolean ok = TRUE;
  for (guint i = 0; i < n->items->len; i++) {
    const scenario_yaml *it = g_ptr_array_index(n->items, i);
    char w[160];
    g_snprintf(w, sizeof w, "%s[%u]", what, i + 1);
    g_autofree char *prof = NULL;
    guint count = 0;
    if (it->type != SCENARIO_YAML_SCALAR || !parse_layout_item(it->text, &prof, &count)) {
      scenario_yaml_expected(c->d, c->file, it, w,
                             "a MIG profile with an optional count, e.g. \"3g.40gb x2\"");
      ok = FALSE;
      continue;
    }
    int pi = catalog_profile_index(m, prof);
    if (pi < 0) {
      g_autofree char *names = catalog_profile_names(m);
      g_autofree char *exp = g_strdup_printf("a MIG profile of %s (one of: %s)", m->name, names);
      scenario_yaml_expected(c->d, c->file, it, w, exp);
      ok = FALSE;
      continue;
    }
    if (total + count > CATALOG_MAX_INSTANCES) {
      scenario_yaml_report(c->d, c->file, it, "%s: more than %d MIG instances on one GPU", w,
                           CATALOG_MAX_INSTANCES);
      return FALSE;
    }
    for (guint k = 0; k < count; k++) idx[total++] = (uint8_t)pi;
  }
  if (!ok) return FALSE;
  if (catalog_layout_validate(m, idx, total, out, &msg)) return TRUE;
  scenario_yaml_report(c->d, c->file, n, "%s: %s", what, msg ? msg : "not a valid MIG layout");
  return FALSE;
}

static gboolean layout_in(const gpu_model *m, GArray *layouts, const mig_layout *l) {
  g_autofree char *s = catalog_layout_to_string(m, l);
  for (guint i = 0; i < layouts->len; i++) {
    g_autofree char *t = catalog_layout_to_string(m, &g_array_index(layouts, mig_layout, i));
    if (!strcmp(s, t)) return TRUE;
  }
  return FALSE;
}

/* The resource's replicas if the pool's strategy allows that many (MPS: the device plugin's
 * client limit), else FALSE after a message at the value in the config file. */
static gboolean sharing_replicas_ok(vctx *c, const pool_spec *p, const nvconfig_sharing *sc,
                                    const nvconfig_resource *r, guint i) {
  guint limit = p->strategy->replica_limit && p->gpu ? p->strategy->replica_limit(p->gpu)
                                                     : SCENARIO_MAX_REPLICAS;
  if (r->replicas <= limit) return TRUE;
  char rw[96];
  g_snprintf(rw, sizeof rw, "sharing.%s.resources[%u].replicas",
             nvconfig_sharing_kind_name(sc->kind), i + 1);
  g_autofree char *exp = g_strdup_printf("an integer from 2 to %u", limit);
  g_autofree char *found = g_strdup_printf("%u", r->replicas);
  diag_expected(c->d, sc->path, r->line, r->col, rw, exp, found);
  return FALSE;
}

/* Whether some layout the pool may have (its initial one or a reconfiguration target) holds
 * an instance of profile index pi. */
static gboolean pool_layouts_have(const pool_spec *p, int pi) {
  for (guint k = 0; p->has_layout && k < p->layout.n; k++)
    if (p->layout.inst[k].profile == pi) return TRUE;
  for (guint i = 0; p->gpu_layouts && i < p->gpu_layouts->len; i++) {
    const mig_layout *l = &g_array_index(p->gpu_layouts, mig_layout, i);
    for (guint k = 0; k < l->n; k++)
      if (l->inst[k].profile == pi) return TRUE;
  }
  for (guint i = 0; p->reconfigure == RECONFIGURE_ON_DEMAND && i < p->layouts->len; i++) {
    const mig_layout *l = &g_array_index(p->layouts, mig_layout, i);
    for (guint k = 0; k < l->n; k++)
      if (l->inst[k].profile == pi) return TRUE;
  }
  return FALSE;
}

/* Which of the config's resources share this pool's devices. A MIG pool: with
 * nvidia.com/mig-<profile> resources (the device plugin's mixed strategy) each profile of
 * the model takes its own replicas into profile_replicas and profiles not listed stay
 * unshared (nvidia.com/gpu then names whole GPUs only); without them nvidia.com/gpu (the
 * single strategy's name for every MIG device) gives every instance its replicas. Other
 * pools: nvidia.com/gpu. *used is set when some profile the pool's layouts hold is shared. */
static const nvconfig_resource *sharing_pick(vctx *c, pool_spec *p, const nvconfig_sharing *sc,
                                             guint *pick_i, gboolean *used) {
  const nvconfig_resource *gpu = NULL;
  gboolean any_mig = FALSE;
  *used = FALSE;
  for (guint i = 0; i < sc->resources->len; i++) {
    const nvconfig_resource *r = &g_array_index(sc->resources, nvconfig_resource, i);
    if (!r->mig_profile) {
      gpu = r;
      *pick_i = i;
      continue;
    }
    int pi = p->strategy->mig_devices ? catalog_profile_index(p->gpu, r->mig_profile) : -1;
    if (pi < 0) continue; /* another model's profile: one file may serve several models */
    any_mig = TRUE;
    if (!sharing_replicas_ok(c, p, sc, r, i)) continue;
    p->profile_replicas[pi] = r->replicas;
    *used |= pool_layouts_have(p, pi);
  }
  if (any_mig) return NULL;
  *used = gpu != NULL;
  return gpu;
}

/* Replicas, failRequestsGreaterThanOne and renameByDefault from a device-plugin config,
 * where the pool does not set them itself. */
static void pool_apply_sharing(vctx *c, pool_spec *p, const char *prefix,
                               const scenario_yaml *node, const nvconfig_sharing *sc,
                               gboolean explicit_replicas, gboolean explicit_fail,
                               gboolean explicit_rename) {
  char w[160];
  if (sc->kind == NVCONFIG_SHARING_NONE) return;
  if (!explicit_fail) p->fail_requests_greater_than_one = sc->fail_requests_greater_than_one;
  if (!explicit_rename) p->rename_by_default = sc->rename_by_default;
  if (explicit_replicas) return;
  guint use_i = 0;
  gboolean used;
  const nvconfig_resource *use = sharing_pick(c, p, sc, &use_i, &used);
  if (!used) {
    memset(p->profile_replicas, 0, sizeof p->profile_replicas);
    if (!p->strategy->mig_devices || p->has_layout) {
      GString *names = g_string_new(NULL);
      for (guint i = 0; i < sc->resources->len; i++)
        g_string_append_printf(names, "%s%s", i ? ", " : "",
                               g_array_index(sc->resources, nvconfig_resource, i).name);
      scenario_yaml_report(c->d, c->file, node,
                           "%s: %s shares none of this pool's devices (it shares %s; this pool "
                           "needs %s)",
                           WHAT(w, prefix, "sharing_config"), sc->path, names->str,
                           p->strategy->mig_devices ? "nvidia.com/mig-<profile> of its layouts"
                                                    : "nvidia.com/gpu");
      g_string_free(names, TRUE);
    }
    return;
  }
  p->replicas_set = TRUE;
  if (use && sharing_replicas_ok(c, p, sc, use, use_i)) p->replicas = use->replicas;
}

/* ---- one pool: the common keys here, each strategy's own through pool_check ---- */

struct pool_check {
  vctx *c;
  const scenario_yaml *pm;
  char prefix[32];
  char what[160];
  share_strategy strategy;
  gboolean strategy_ok;
  placement_policy placement; /* the pool's, once read (NULL when `placement:` is invalid) */
  const scenario_yaml *strategy_node, *sc_node, *mc_node, *mcn_node, *dra_node, *pod_node;
  nvconfig_sharing *sc;
  nvconfig_mig *mc;
  dra_claim *dra;
  gboolean explicit_replicas, explicit_fail, explicit_rename;
  gboolean section;           /* reads a section's mapping (pm): its keys are its own */
};

const scenario_yaml *pool_check_key(const pool_check *c, const char *key) {
  if (c->section) return scenario_yaml_get(c->pm, key);
  gboolean placement_own = c->placement && scenario_placement_key(c->placement, key);
  if (!placement_own && (!c->strategy_ok || !pool_key_allowed(c->strategy, key))) return NULL;
  return scenario_yaml_get(c->pm, key);
}

const scenario_yaml *pool_check_map(const pool_check *c) { return c->pm; }

const char *pool_check_prefix(const pool_check *c) { return c->prefix; }

const char *pool_check_what(pool_check *c, const char *key) {
  return WHAT(c->what, c->prefix, key);
}

void pool_check_report(pool_check *c, const scenario_yaml *n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  g_autofree char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  scenario_yaml_report(c->c->d, c->c->file, n, "%s", msg);
}

void pool_check_expected(pool_check *c, const scenario_yaml *n, const char *key,
                         const char *expected) {
  scenario_yaml_expected(c->c->d, c->c->file, n, pool_check_what(c, key), expected);
}

gboolean pool_check_int(pool_check *c, const char *key, int64_t lo, int64_t hi, int64_t *out) {
  const scenario_yaml *n = pool_check_key(c, key);
  return n && scenario_yaml_int(c->c->d, c->c->file, n, pool_check_what(c, key), lo, hi, out);
}

gboolean pool_check_number(pool_check *c, const char *key, const char *expected, double lo,
                           gboolean lo_open, double hi, gboolean hi_open, double *out) {
  const scenario_yaml *n = pool_check_key(c, key);
  return n && v_number(c->c, n, pool_check_what(c, key), expected, lo, lo_open, hi, hi_open, out);
}

gboolean pool_check_duration(pool_check *c, const char *key, sim_time lo, sim_time hi,
                             sim_time *out) {
  const scenario_yaml *n = pool_check_key(c, key);
  return n && v_duration(c->c, n, pool_check_what(c, key), lo, hi, out);
}

gboolean pool_check_enum(pool_check *c, const char *key, const char *const *names, int *out) {
  const scenario_yaml *n = pool_check_key(c, key);
  return n && v_enum(c->c, n, pool_check_what(c, key), names, out);
}

gboolean pool_check_bool(pool_check *c, const char *key, gboolean *out) {
  const scenario_yaml *n = pool_check_key(c, key);
  return n && scenario_yaml_bool(c->c->d, c->c->file, n, pool_check_what(c, key), out);
}

/* A MIG pool's `replicas: {1g.10gb: 4, 3g.40gb: 2}`: each profile's instances take their own
 * replicas, as nvidia.com/mig-<profile> resources do; profiles not listed are not shared. */
static void pool_check_profile_replicas(pool_check *c, pool_spec *p, const scenario_yaml *n,
                                        int64_t max_replicas) {
  const gpu_model *m = p->gpu;
  if (!m || !m->mig_slots) return; /* reported with the gpu or strategy key */
  if (!n->items->len) {
    pool_check_expected(c, n, "replicas", "an integer or a mapping of MIG profile to replicas");
    return;
  }
  for (guint i = 0; i + 1 < n->items->len; i += 2) {
    const scenario_yaml *k = g_ptr_array_index(n->items, i), *v = g_ptr_array_index(n->items, i + 1);
    char w[160];
    g_snprintf(w, sizeof w, "%s.replicas.%s", c->prefix, k->text);
    int pi = catalog_profile_index(m, k->text);
    int64_t r;
    if (pi < 0) {
      g_autofree char *names = catalog_profile_names(m);
      g_autofree char *exp = g_strdup_printf("a MIG profile of %s (one of: %s)", m->name, names);
      g_autofree char *kw = g_strdup_printf("%s.replicas", c->prefix);
      scenario_yaml_expected(c->c->d, c->c->file, k, kw, exp);
    } else if (scenario_yaml_int(c->c->d, c->c->file, v, w, 1, max_replicas, &r)) {
      p->profile_replicas[pi] = (guint32)r;
    }
  }
  p->replicas = 1;
  p->replicas_set = TRUE;
}

void pool_check_device_plugin(pool_check *c, pool_spec *p, int64_t max_replicas) {
  int64_t v;
  const scenario_yaml *rn = pool_check_key(c, "replicas");
  if (rn && rn->type == SCENARIO_YAML_MAP && p->strategy->mig_devices) {
    pool_check_profile_replicas(c, p, rn, max_replicas);
    c->explicit_replicas = TRUE;
  } else if (rn) {
    if (pool_check_int(c, "replicas", 1, max_replicas, &v)) {
      p->replicas = (guint32)v;
      p->replicas_set = TRUE;
    }
    c->explicit_replicas = TRUE;
  }
  if (pool_check_key(c, "failRequestsGreaterThanOne")) {
    pool_check_bool(c, "failRequestsGreaterThanOne", &p->fail_requests_greater_than_one);
    c->explicit_fail = TRUE;
  }
  if (pool_check_key(c, "renameByDefault")) {
    pool_check_bool(c, "renameByDefault", &p->rename_by_default);
    c->explicit_rename = TRUE;
  }
}

void pool_check_timeslice(pool_check *c, pool_spec *p) {
  pool_check_duration(c, "timeslice", 1000, SIM_NS_PER_S, &p->timeslice_ns);
  pool_check_duration(c, "context_switch", 0, 100 * SIM_NS_PER_MS, &p->context_switch_ns);
}

/* layouts: a list of layouts, each added once */
static void pool_check_layouts(pool_check *c, pool_spec *p, const scenario_yaml *ls) {
  const gpu_model *m = p->gpu;
  if (ls->type != SCENARIO_YAML_SEQ) {
    pool_check_expected(c, ls, "layouts",
                        "a list of MIG layouts, e.g. [\"3g.40gb x2\", \"7g.80gb\"]");
    return;
  }
  for (guint i = 0; i < ls->items->len; i++) {
    char lw[64];
    g_snprintf(lw, sizeof lw, "%s.layouts[%u]", c->prefix, i + 1);
    mig_layout l;
    if (v_layout(c->c, g_ptr_array_index(ls->items, i), lw, m, &l) && !layout_in(m, p->layouts, &l))
      g_array_append_val(p->layouts, l);
  }
}

/* Per-device entries that give the GPUs of a node different set-ups (per, in words): each
 * GPU index starts with its own layout (a GPU with MIG off, or named by no entry, is one
 * whole-card instance); the pool's `layout` is the first MIG layout, unless the pool gives
 * one (then every GPU takes that). A config that leaves MIG off on every GPU is refused. */
static void pool_take_per_gpu(pool_check *c, pool_spec *p, const GArray *setups,
                              const char *per) {
  if (p->has_layout) return;
  GArray *ls = g_array_new(FALSE, TRUE, sizeof(mig_layout));
  const mig_layout *first = NULL;
  for (guint g = 0; g < setups->len; g++) {
    const nvconfig_gpu_setup *a = &g_array_index(setups, nvconfig_gpu_setup, g);
    mig_layout l = {.n = 1, .inst = {{.profile = POOL_MIG_OFF, .start = 0}}};
    if (a->mig) l = a->layout;
    g_array_append_val(ls, l);
    if (a->mig && !first) first = &a->layout;
  }
  if (!first) {
    pool_check_report(c, c->mcn_node, "%s: %s: config '%s' leaves MIG off on every GPU of the "
                      "node (%s): strategy mig needs MIG instances", c->what, c->mc->path,
                      c->mcn_node->text, per);
    g_array_unref(ls);
    return;
  }
  p->layout = *first;
  p->has_layout = TRUE;
  p->gpu_layouts = ls;
}

/* mig_config + mig_config_name: the named config's layout (unless the pool gives one) and,
 * without an explicit list, every config's layout as a reconfiguration target */
static void pool_check_mig_parted(pool_check *c, pool_spec *p, gboolean explicit_layouts) {
  const gpu_model *m = p->gpu;
  nvconfig_mig *mc = c->mc;
  const scenario_yaml *mcn_node = c->mcn_node;
  if (c->mc_node && !mcn_node) {
    g_autofree char *list = mc ? nvconfig_mig_names(mc) : g_strdup("?");
    pool_check_report(c, scenario_yaml_get_key(c->pm, "mig_config"),
                      "%s: mig_config needs mig_config_name (configs in that file: %s)",
                      c->prefix, list);
  } else if (mcn_node && !c->mc_node) {
    pool_check_report(c, scenario_yaml_get_key(c->pm, "mig_config_name"),
                      "%s: mig_config_name needs mig_config (the mig-parted file)", c->prefix);
  } else if (mc && v_string(c->c, mcn_node, pool_check_what(c, "mig_config_name"))) {
    const char *w = c->what;
    const nvconfig_mig_config *cfg = nvconfig_mig_find(mc, mcn_node->text);
    p->mig_config_name = g_strdup(mcn_node->text);
    if (!cfg) {
      g_autofree char *list = nvconfig_mig_names(mc);
      g_autofree char *exp = g_strdup_printf("a config of %s (one of: %s)", mc->path, list);
      scenario_yaml_expected(c->c->d, c->c->file, mcn_node, w, exp);
      return;
    }
    g_autoptr(GArray) setups = g_array_new(FALSE, TRUE, sizeof(nvconfig_gpu_setup));
    g_autofree char *per = NULL;
    int per_gpu = nvconfig_mig_per_gpu(mc, cfg, m, p->gpus_per_node, setups, &per, c->c->d);
    if (per_gpu < 0) return; /* reported at the mig-parted file's line */
    mig_layout l;
    g_autofree char *msg = NULL;
    if (per_gpu > 0) {
      pool_take_per_gpu(c, p, setups, per);
    } else if (!nvconfig_mig_layout(cfg, m, &l, &msg)) {
      pool_check_report(c, mcn_node, "%s: %s: %s", w, mc->path, msg);
    } else if (!p->has_layout) {
      p->layout = l;
      p->has_layout = TRUE;
    }
    if (!explicit_layouts)
      for (guint i = 0; i < mc->configs->len; i++) {
        const nvconfig_mig_config *o = g_ptr_array_index(mc->configs, i);
        if (nvconfig_mig_layout(o, m, &l, NULL) && !layout_in(m, p->layouts, &l))
          g_array_append_val(p->layouts, l);
      }
  }
}

void pool_check_mig(pool_check *c, pool_spec *p) {
  const gpu_model *m = p->gpu;
  if (!m) return;
  if (!m->mig_slots) {
    g_autofree char *list = mig_model_names();
    pool_check_report(c, c->strategy_node ? c->strategy_node : c->mc_node ? c->mc_node : c->dra_node,
                      "%s: strategy %s needs a MIG-capable GPU; %s has no MIG (MIG-capable: "
                      "%s)", pool_check_what(c, "strategy"), share_strategy_name(p->strategy),
                      m->name, list);
    return;
  }
  const scenario_yaml *n;
  if ((n = pool_check_key(c, "layout")) &&
      v_layout(c->c, n, pool_check_what(c, "layout"), m, &p->layout))
    p->has_layout = TRUE;
  const scenario_yaml *ls = pool_check_key(c, "layouts");
  if (ls) pool_check_layouts(c, p, ls);
  pool_check_mig_parted(c, p, ls != NULL);
  if (!p->has_layout && !scenario_yaml_get(c->pm, "layout") && !c->mc_node && !c->mcn_node &&
      !c->dra_node)
    pool_check_report(c, c->pm, "%s: strategy %s needs 'layout' (or 'mig_config' with "
                      "'mig_config_name')", c->prefix, share_strategy_name(p->strategy));
  int e;
  if (pool_check_enum(c, "reconfigure", reconfigure_names, &e)) p->reconfigure = (reconfigure_policy)e;
  if (pool_check_enum(c, "drain", drain_names, &e)) p->drain = (drain_policy)e;
  pool_check_duration(c, "reconfigure_time", 0, 86400 * SIM_NS_PER_S, &p->reconfigure_time_ns);
  /* on-demand without a list: any valid maximal layout of the model is a target */
  if (p->reconfigure == RECONFIGURE_ON_DEMAND && p->layouts->len == 0 && !ls) {
    GArray *all = catalog_maximal_layouts(m);
    g_array_append_vals(p->layouts, all->data, all->len);
    g_array_unref(all);
  }
}

static void validate_pool_name(pool_check *pc, pool_spec *p, GHashTable *names) {
  vctx *c = pc->c;
  const scenario_yaml *n;
  if (!(n = scenario_yaml_get(pc->pm, "name"))) {
    scenario_yaml_report(c->d, c->file, pc->pm, "%s: missing required key 'name'", pc->prefix);
    return;
  }
  if (!v_string(c, n, pool_check_what(pc, "name"))) return;
  const char *w = pc->what;
  p->name = g_strdup(n->text);
  const scenario_yaml *first = g_hash_table_lookup(names, n->text);
  if (!util_name_is_safe(n->text)) {
    scenario_yaml_expected(c->d, c->file, n, w,
                           "a name of 1 to 64 characters from A-Z a-z 0-9 . _ - (not "
                           "starting with '.' or '-')");
  } else if (first) {
    g_autofree char *e = scenario_yaml_escape(n->text);
    scenario_yaml_report(c->d, c->file, n, "%s: duplicate pool name '%s' (first at line %u)", w,
                         e, first->line);
  } else {
    g_hash_table_insert(names, n->text, (gpointer)n);
  }
}

static void validate_pool_gpu(pool_check *pc, pool_spec *p) {
  vctx *c = pc->c;
  const scenario_yaml *n;
  if (!(n = scenario_yaml_get(pc->pm, "gpu"))) {
    scenario_yaml_report(c->d, c->file, pc->pm, "%s: missing required key 'gpu' (a model from "
                         "`sharesim catalog`)", pc->prefix);
    return;
  }
  if (!v_string(c, n, pool_check_what(pc, "gpu"))) return;
  p->gpu = catalog_find(n->text);
  if (!p->gpu) {
    g_autofree char *list = catalog_model_names();
    g_autofree char *sugg = catalog_model_suggestions(n->text);
    g_autofree char *exp = sugg ? g_strdup_printf("a GPU model (did you mean %s? all: %s)",
                                                  sugg, list)
                                : g_strdup_printf("a GPU model (one of: %s)", list);
    scenario_yaml_expected(c->d, c->file, n, pc->what, exp);
  }
}

/* dra_claim (and dra_request): the claim, the strategy it implies unless the pool names one
 * (which must then be the same), and its MIG layout; not with the device plugin's files. */
static void pool_load_dra(pool_check *pc, pool_spec *p, gboolean explicit) {
  vctx *c = pc->c;
  const scenario_yaml *rq = scenario_yaml_get(pc->pm, "dra_request");
  pc->dra_node = scenario_yaml_get(pc->pm, "dra_claim");
  if (!pc->dra_node) {
    if (rq) pool_check_report(pc, scenario_yaml_get_key(pc->pm, "dra_request"), "%s: dra_request "
                              "needs dra_claim (the DRA file)", pc->prefix);
    return;
  }
  if (pc->sc_node || pc->mc_node) {
    pool_check_report(pc, scenario_yaml_get_key(pc->pm, "dra_claim"), "%s: dra_claim and %s are "
                      "alternatives: a DRA claim configures the sharing the device plugin's files "
                      "would", pc->prefix, pc->sc_node ? "sharing_config" : "mig_config");
    return;
  }
  const char *request = rq ? v_string(c, rq, pool_check_what(pc, "dra_request")) : NULL;
  g_autofree char *full = v_file(c, pc->dra_node, pool_check_what(pc, "dra_claim"));
  if (!full || (rq && !request)) return;
  pc->dra = dra_load_in(c->dir, full, request, c->d);
  p->dra_claim_path = g_steal_pointer(&full);
  if (!p->ref_dir) p->ref_dir = g_strdup(c->dir);
  if (!pc->dra || !pc->strategy_ok) return;
  share_strategy implied = strategy_implied(scenario_dra_flag(pc->dra));
  if (!explicit) p->strategy = implied;
  else if (implied && p->strategy != implied)
    scenario_yaml_report(c->d, c->file, pc->strategy_node, "%s: '%s' contradicts %s, whose %s "
                         "maps to %s", pool_check_what(pc, "strategy"),
                         share_strategy_name(p->strategy), pc->dra->path, pc->dra->object,
                         share_strategy_name(implied));
  if (p->strategy == implied) scenario_dra_layout(c->d, pc->dra, p);
}

/* pod_spec: the Pod whose GPU requests the pool's jobs make, the strategy they imply (HAMi's
 * resources: hami, KAI's annotations: kai) unless the pool names one (which must then be
 * the same); not with the NVIDIA files, which configure another sharing. */
static void pool_load_pod(pool_check *pc, pool_spec *p, gboolean explicit) {
  vctx *c = pc->c;
  if (!(pc->pod_node = scenario_yaml_get(pc->pm, "pod_spec"))) return;
  if (pc->sc_node || pc->mc_node || pc->dra_node) {
    pool_check_report(pc, scenario_yaml_get_key(pc->pm, "pod_spec"), "%s: pod_spec and %s are "
                      "alternatives: HAMi and KAI share the GPUs the device plugin or the DRA "
                      "driver would", pc->prefix, pc->sc_node ? "sharing_config"
                      : pc->mc_node ? "mig_config" : "dra_claim");
    return;
  }
  g_autofree char *full = v_file(c, pc->pod_node, pool_check_what(pc, "pod_spec"));
  if (!full) return;
  pod_gpu *pod = podspec_load_in(c->dir, full, c->d);
  p->pod_spec_path = g_steal_pointer(&full);
  if (!p->ref_dir) p->ref_dir = g_strdup(c->dir);
  if (!pod || !pc->strategy_ok) {
    pod_gpu_free(pod);
    return;
  }
  share_strategy implied = NULL;
  share_strategy_parse(pod->kind == POD_KAI ? "kai" : "hami", &implied);
  if (!explicit && implied) p->strategy = implied;
  else if (implied && p->strategy != implied)
    scenario_yaml_report(c->d, c->file, pc->strategy_node, "%s: '%s' contradicts %s, whose %s "
                         "asks for %s's sharing (strategy %s)", pool_check_what(pc, "strategy"),
                         share_strategy_name(p->strategy), pod->path, pod->object,
                         pod_kind_name(pod->kind), share_strategy_name(implied));
  p->pod = pod;
}

/* The strategy key and the NVIDIA files that may imply it: explicit, else mig_config ->
 * mig, a device-plugin config -> its sharing kind, else exclusive. */
static void validate_pool_strategy(pool_check *pc, pool_spec *p) {
  vctx *c = pc->c;
  gboolean explicit = FALSE;
  pc->strategy_ok = TRUE;
  if ((pc->strategy_node = scenario_yaml_get(pc->pm, "strategy"))) {
    const scenario_yaml *n = pc->strategy_node;
    if (n->type == SCENARIO_YAML_SCALAR && share_strategy_parse(n->text, &p->strategy)) {
      explicit = TRUE;
    } else {
      GString *list = g_string_new(NULL);
      for (guint i = 0; i < scenario_strategy_count(); i++)
        g_string_append_printf(list, "%s%s", i ? " | " : "one of ", scenario_strategy_get(i)->name);
      scenario_yaml_expected(c->d, c->file, n, pool_check_what(pc, "strategy"), list->str);
      g_string_free(list, TRUE);
      pc->strategy_ok = FALSE;
    }
  }
  if ((pc->sc_node = scenario_yaml_get(pc->pm, "sharing_config"))) {
    g_autofree char *full = v_file(c, pc->sc_node, pool_check_what(pc, "sharing_config"));
    if (full) {
      pc->sc = nvconfig_sharing_load_in(c->dir, full, c->d);
      p->sharing_config_path = g_steal_pointer(&full);
      if (!p->ref_dir) p->ref_dir = g_strdup(c->dir);
    }
  }
  pc->mcn_node = scenario_yaml_get(pc->pm, "mig_config_name");
  if ((pc->mc_node = scenario_yaml_get(pc->pm, "mig_config"))) {
    g_autofree char *full = v_file(c, pc->mc_node, pool_check_what(pc, "mig_config"));
    if (full) {
      pc->mc = nvconfig_mig_load_in(c->dir, full, c->d);
      p->mig_config_path = g_steal_pointer(&full);
      if (!p->ref_dir) p->ref_dir = g_strdup(c->dir);
    }
  }
  const nvconfig_sharing *sc = pc->sc;
  guint sc_flag = !sc ? 0 : sc->kind == NVCONFIG_SHARING_TIME_SLICING ? SCENARIO_NV_TIME_SLICING
                      : sc->kind == NVCONFIG_SHARING_MPS             ? SCENARIO_NV_MPS : 0;
  share_strategy implied = explicit ? NULL
                           : pc->mc_node ? strategy_implied(SCENARIO_NV_MIG_CONFIG)
                           : sc_flag   ? strategy_implied(sc_flag) : NULL;
  if (implied) p->strategy = implied;
  pool_load_dra(pc, p, explicit);
  pool_load_pod(pc, p, explicit);
  pc->strategy = p->strategy;
  if (!sc || sc->kind == NVCONFIG_SHARING_NONE || !pc->strategy_ok) return;
  const char *section = nvconfig_sharing_kind_name(sc->kind);
  if (sc->kind == NVCONFIG_SHARING_MPS && p->strategy->mig_devices) {
    scenario_yaml_report(c->d, c->file, pc->sc_node,
                         "%s: %s sets sharing.mps, but the device plugin does not support "
                         "MPS on MIG devices (use sharing.timeSlicing)",
                         pool_check_what(pc, "sharing_config"), sc->path);
  } else if (!((p->strategy->implied_by | p->strategy->accepts) & sc_flag)) {
    scenario_yaml_report(c->d, c->file, pc->strategy_node ? pc->strategy_node : pc->sc_node,
                         "%s: '%s' contradicts %s, which sets sharing.%s",
                         pool_check_what(pc, "strategy"), share_strategy_name(p->strategy),
                         sc->path, section);
  }
}

/* keys that belong to another strategy or another placement policy */
static void validate_pool_foreign_keys(pool_check *pc) {
  for (guint i = 0; i + 1 < pc->pm->items->len; i += 2) {
    const scenario_yaml *k = g_ptr_array_index(pc->pm->items, i);
    if (k->type != SCENARIO_YAML_SCALAR || !pool_key_known(k->text) ||
        pool_key_common(k->text))
      continue;
    if (placement_key_any(k->text)) {
      if (!pc->placement || scenario_placement_key(pc->placement, k->text)) continue;
      g_autofree char *pl = placements_text(k->text);
      pool_check_report(pc, k, "%s: key '%s' applies only to %s (this pool's placement is %s)",
                        pc->prefix, k->text, pl, placement_policy_name(pc->placement));
      continue;
    }
    if (!pc->strategy_ok || pool_key_allowed(pc->strategy, k->text)) continue;
    g_autofree char *st = strategies_text(k->text);
    pool_check_report(pc, k, "%s: key '%s' applies only to %s (this pool's strategy is %s)",
                      pc->prefix, k->text, st, share_strategy_name(pc->strategy));
  }
}

/* nodes or gpus_per_node: 1..max, with its own message for 0 */
static gboolean validate_pool_count(pool_check *pc, const scenario_yaml *n, const char *key,
                                    int64_t max, guint32 *out) {
  vctx *c = pc->c;
  int64_t v;
  if (n->type == SCENARIO_YAML_SCALAR && util_parse_int64(n->text, &v) && v == 0) {
    scenario_yaml_report(c->d, c->file, n, "%s: a pool with no GPUs is not allowed: expected an "
                         "integer from 1 to %" PRId64 ", found '0'", pool_check_what(pc, key),
                         max);
    return FALSE;
  }
  if (!scenario_yaml_int(c->d, c->file, n, pool_check_what(pc, key), 1, max, &v)) return FALSE;
  *out = (guint32)v;
  return TRUE;
}

static void validate_pool_size(pool_check *pc, pool_spec *p) {
  vctx *c = pc->c;
  const scenario_yaml *n;
  if (scenario_nodes_parse(c->d, c->file, pc->pm, p, pc->prefix)) {
    /* node_groups gave the size */
  } else if (!(n = scenario_yaml_get(pc->pm, "nodes"))) {
    scenario_yaml_report(c->d, c->file, pc->pm,
                         "%s: missing required key 'nodes' (a pool with no GPUs is not allowed)",
                         pc->prefix);
  } else {
    validate_pool_count(pc, n, "nodes", SCENARIO_MAX_NODES, &p->nodes);
  }
  if (!p->node_groups && (n = scenario_yaml_get(pc->pm, "gpus_per_node")))
    validate_pool_count(pc, n, "gpus_per_node", SCENARIO_MAX_GPUS_PER_NODE, &p->gpus_per_node);
  if (pool_gpus(p) > SCENARIO_MAX_POOL_GPUS)
    scenario_yaml_report(c->d, c->file, pc->pm, "%s: %" G_GUINT64_FORMAT " GPUs (nodes x "
                         "gpus_per_node) is more than the %d a pool may have", pc->prefix,
                         pool_gpus(p), SCENARIO_MAX_POOL_GPUS);
}

/* `placement:` (the table's row; pc->placement stays NULL when it names none) */
static void validate_pool_placement(pool_check *pc, pool_spec *p) {
  const scenario_yaml *n;
  int e;
  pc->placement = p->placement; /* the default */
  if ((n = scenario_yaml_get(pc->pm, "placement"))) {
    /* the table's names, in its order, for the message ("expected one of ...") */
    g_autoptr(GPtrArray) names = g_ptr_array_new();
    for (guint i = 0; i < scenario_placement_count(); i++)
      g_ptr_array_add(names, (gpointer)scenario_placement_get(i)->name);
    g_ptr_array_add(names, NULL);
    pc->placement = NULL;
    if (v_enum(pc->c, n, pool_check_what(pc, "placement"), (const char *const *)names->pdata, &e))
      pc->placement = p->placement = scenario_placement_get((guint)e);
  }
}

static void validate_pool_policies(pool_check *pc, pool_spec *p) {
  vctx *c = pc->c;
  const scenario_yaml *n;
  int e;
  if ((n = scenario_yaml_get(pc->pm, "oom"))) {
    if (n->type == SCENARIO_YAML_SCALAR && !strcmp(n->text, "offender")) /* the old name */
      p->oom = OOM_FAILED_ALLOCATION;
    else if (v_enum(c, n, pool_check_what(pc, "oom"), oom_names, &e))
      p->oom = (oom_policy)e;
  }
  double price_override = 0;
  if ((n = scenario_yaml_get(pc->pm, "price")))
    v_number(c, n, pool_check_what(pc, "price"), SCENARIO_PRICE_EXPECTED, 0, TRUE,
             SCENARIO_MAX_PRICE, FALSE, &price_override);
  p->price_per_gpu_hour = price_override; /* resolved against prices: later */
}

/* The pool's sections (scenario_use_pool_sections): each a mapping of its own keys, read by
 * its model's validate through a pool_check on the mapping, after every other pool key. */
static void validate_pool_sections(pool_check *pc, pool_spec *p) {
  for (guint i = 0; scenario_sections[i]; i++) {
    const scenario_pool_section *sec = scenario_sections[i];
    const scenario_yaml *n = scenario_yaml_get(pc->pm, sec->name);
    if (!n) continue;
    pool_check sub = {.c = pc->c, .pm = n, .strategy = pc->strategy,
                      .strategy_ok = pc->strategy_ok, .placement = pc->placement, .section = TRUE};
    g_snprintf(sub.prefix, sizeof sub.prefix, "%s.%s", pc->prefix, sec->name);
    if (n->type != SCENARIO_YAML_MAP) {
      g_autofree char *ex = g_strdup_printf("a mapping, e.g. %s", sec->example);
      scenario_yaml_expected(pc->c->d, pc->c->file, n, sub.prefix, ex);
      continue;
    }
    g_autoptr(GPtrArray) names = g_ptr_array_new();
    for (const scenario_key *const *k = sec->keys; k && *k; k++)
      g_ptr_array_add(names, (gpointer)(*k)->name);
    g_ptr_array_add(names, NULL);
    scenario_yaml_check_keys(pc->c->d, pc->c->file, n, sub.prefix,
                             (const char *const *)names->pdata);
    p->section_conf[i] = sec->validate(&sub, p);
  }
}

/* Validates one pool mapping: the common keys, then the strategy's own (its validate), then
 * the device-plugin config's settings the pool did not set itself. Always returns a pool
 * (for names in later messages); errors are in c->d. */
static pool_spec *validate_pool(vctx *c, guint idx, const scenario_yaml *pm, GHashTable *names) {
  pool_spec *p = pool_new();
  pool_check pc = {.c = c, .pm = pm};
  g_snprintf(pc.prefix, sizeof pc.prefix, "pools[%u]", idx + 1); /* 1-based, as people count */
  p->line = pm->line;
  if (pm->type != SCENARIO_YAML_MAP) {
    scenario_yaml_expected(c->d, c->file, pm, pc.prefix, "a mapping (one pool)");
    return p;
  }
  scenario_yaml_check_keys(c->d, c->file, pm, pc.prefix, pool_key_names());
  validate_pool_name(&pc, p, names);
  validate_pool_gpu(&pc, p);
  validate_pool_strategy(&pc, p);
  validate_pool_placement(&pc, p);
  validate_pool_foreign_keys(&pc);
  validate_pool_size(&pc, p);
  validate_pool_policies(&pc, p);
  if (pc.strategy_ok && p->strategy->validate) p->strategy->validate(&pc, p);
  if (pc.placement && pc.placement->validate) pc.placement->validate(&pc, p);
  validate_pool_sections(&pc, p);
  if (pc.sc && pool_check_key(&pc, "sharing_config") && (!p->strategy->mig_devices || p->gpu))
    pool_apply_sharing(c, p, pc.prefix, pc.sc_node, pc.sc, pc.explicit_replicas,
                       pc.explicit_fail, pc.explicit_rename);
  if (pc.dra && pc.strategy_ok && p->strategy == strategy_implied(scenario_dra_flag(pc.dra)))
    scenario_dra_apply(c->d, c->file, pc.dra_node, pc.dra, p, pc.explicit_replicas);
  if (pc.sc) nvconfig_sharing_free(pc.sc);
  if (pc.mc) nvconfig_mig_free(pc.mc);
  dra_claim_free(pc.dra);
  return p;
}

/* Position (line, column) of a message "file:L:C: ..." about file; 0 for other messages
 * (another file, an override), which then sort first, in their original order. */
static guint64 message_position(const char *msg, const char *file) {
  size_t fl = strlen(file);
  if (strncmp(msg, file, fl) || msg[fl] != ':' || !g_ascii_isdigit(msg[fl + 1])) return 0;
  char *end;
  guint64 line = g_ascii_strtoull(msg + fl + 1, &end, 10), col = 0;
  if (*end == ':' && g_ascii_isdigit(end[1])) col = g_ascii_strtoull(end + 1, NULL, 10);
  return (MIN(line, G_MAXUINT32) << 32) | MIN(col, G_MAXUINT32);
}

/* Appends src's messages to dst sorted by position in file (a stable sort). */
static void diag_merge_sorted(diag_list *dst, diag_list *src, const char *file) {
  GPtrArray *m = src->messages;
  guint64 *keys = g_new(guint64, m->len);
  guint *order = g_new(guint, m->len);
  for (guint i = 0; i < m->len; i++) {
    keys[i] = message_position(g_ptr_array_index(m, i), file);
    order[i] = i;
  }
  /* insertion sort on indices: stable, and a pool has few messages */
  for (guint i = 1; i < m->len; i++) {
    guint v = order[i], j = i;
    while (j > 0 && keys[order[j - 1]] > keys[v]) {
      order[j] = order[j - 1];
      j--;
    }
    order[j] = v;
  }
  for (guint i = 0; i < m->len; i++)
    diag_add(dst, NULL, 0, 0, "%s", (const char *)g_ptr_array_index(m, order[i]));
  if (src->count > m->len) dst->count += src->count - m->len;
  g_free(keys);
  g_free(order);
}

/* ======================================================================================
 * Top level
 * ==================================================================================== */

/* The top-level keys of this file, before the models' constants (model keys of the top
 * level, declared by their models: scenario_use_model_keys) and after the models'
 * sections. */
static const char *const top_keys[] = {"name",     "seed",        "horizon",      "interval",
                                       "start",
                                       "pools",    "routing",     "prices",       "crash_rates",
                                       "interference", NULL};
static const char *const top_keys_after[] = {"requirements", "purchase", NULL};
static const char *const route_keys[] = {"kind", "tenant", "label", "pool", NULL};

/* File base name without extension, made safe for file names and plots. Owned. */
static char *default_name(const char *path) {
  g_autofree char *base = g_path_get_basename(path);
  char *dot = strrchr(base, '.');
  if (dot && dot != base) *dot = 0;
  GString *s = g_string_new(NULL);
  for (const char *q = base; *q && s->len < 64; q++)
    g_string_append_c(s, g_ascii_isalnum(*q) || *q == '.' || *q == '_' || *q == '-' ? *q : '_');
  if (s->len == 0) g_string_assign(s, "scenario");
  if (s->str[0] == '.' || s->str[0] == '-') s->str[0] = '_';
  return g_string_free(s, FALSE);
}

static char *kind_names(void) {
  GString *s = g_string_new(NULL);
  for (int k = 0; k < JOB_KIND_COUNT; k++) {
    if (k) g_string_append(s, ", ");
    g_string_append(s, job_kind_name((job_kind)k));
  }
  return g_string_free(s, FALSE);
}

static void validate_prices(vctx *c, scenario *s, const scenario_yaml *n) {
  if (n->type != SCENARIO_YAML_MAP) {
    scenario_yaml_expected(c->d, c->file, n, "prices",
                           "a mapping of GPU model to $ per GPU-hour, e.g. {A100-80GB: 3.43}");
    return;
  }
  for (guint i = 0; i + 1 < n->items->len; i += 2) {
    const scenario_yaml *k = g_ptr_array_index(n->items, i);
    const scenario_yaml *val = g_ptr_array_index(n->items, i + 1);
    char w[160];
    g_snprintf(w, sizeof w, "prices.%s", k->text);
    const gpu_model *m = catalog_find(k->text);
    if (!m) {
      g_autofree char *list = catalog_model_names();
      g_autofree char *exp = g_strdup_printf("a GPU model (one of: %s)", list);
      scenario_yaml_expected(c->d, c->file, k, "prices", exp);
      continue;
    }
    double price;
    if (!v_number(c, val, w, SCENARIO_PRICE_EXPECTED, 0, TRUE, SCENARIO_MAX_PRICE, FALSE, &price))
      continue;
    if (g_hash_table_contains(s->prices, m->name)) {
      g_autofree char *e = scenario_yaml_escape(k->text);
      scenario_yaml_report(c->d, c->file, k, "prices: '%s' names %s, which already has a price",
                           e, m->name);
      continue;
    }
    g_hash_table_insert(s->prices, g_strdup(m->name), g_memdup2(&price, sizeof price));
  }
}

static void validate_crash_rates(vctx *c, scenario *s, const scenario_yaml *n) {
  if (n->type != SCENARIO_YAML_MAP) {
    scenario_yaml_expected(c->d, c->file, n, "crash_rates",
                           "a mapping of job kind to crashes per job-hour, e.g. {training: 0.01}");
    return;
  }
  for (guint i = 0; i + 1 < n->items->len; i += 2) {
    const scenario_yaml *k = g_ptr_array_index(n->items, i);
    const scenario_yaml *val = g_ptr_array_index(n->items, i + 1);
    job_kind kind;
    if (!job_kind_parse(k->text, &kind)) {
      g_autofree char *list = kind_names();
      g_autofree char *exp = g_strdup_printf("a job kind (one of: %s)", list);
      scenario_yaml_expected(c->d, c->file, k, "crash_rates", exp);
      continue;
    }
    char w[160];
    g_snprintf(w, sizeof w, "crash_rates.%s", job_kind_name(kind));
    v_number(c, val, w, "a rate in crashes per job-hour >= 0", 0, FALSE, INFINITY, FALSE,
             &s->crash_rate_per_hour[kind]);
  }
}

/* A whole number from lo to hi. */
static gboolean v_whole(vctx *c, const scenario_yaml *n, const char *what, const char *expected,
                        guint32 lo, guint32 hi, guint32 *out) {
  double x;
  if (n->type == SCENARIO_YAML_SCALAR && util_parse_double(n->text, &x) && x >= lo &&
      x <= hi && x == floor(x)) {
    *out = (guint32)x;
    return TRUE;
  }
  scenario_yaml_expected(c->d, c->file, n, what, expected);
  return FALSE;
}

/* A model's constant k (scenario_model_key) from n, checked and set in s; reported through
 * c when it is not what k says. */
static void v_model_key(vctx *c, scenario *s, const scenario_model_key *k,
                        const scenario_yaml *n) {
  static const char *const onoff[] = {"false", "true", NULL};
  void *at = (char *)s + k->offset;
  double x;
  guint32 u;
  int b;
  switch (k->type) {
  case SCENARIO_MODEL_NUMBER:
    if (v_number(c, n, k->key.name, k->expected, k->lo, k->lo_open, k->hi, k->hi_open, &x))
      *(double *)at = x;
    break;
  case SCENARIO_MODEL_WHOLE:
    if (v_whole(c, n, k->key.name, k->expected, (guint32)k->lo, (guint32)k->hi, &u))
      *(guint32 *)at = u;
    break;
  case SCENARIO_MODEL_ONOFF:
    if (v_enum(c, n, k->key.name, onoff, &b)) *(gboolean *)at = b == 1;
    break;
  case SCENARIO_MODEL_DURATION:
    v_duration(c, n, k->key.name, (sim_time)k->lo, (sim_time)k->hi, (sim_time *)at);
    break;
  case SCENARIO_MODEL_CHOICE:
    if (v_enum(c, n, k->key.name, k->choices, &b)) *(int *)at = b;
    break;
  case SCENARIO_MODEL_HOURS:
    if (v_number(c, n, k->key.name, k->expected, k->lo, k->lo_open, k->hi, k->hi_open, &x))
      *(sim_time *)at = (sim_time)llround(x * 3600.0 * 1e9);
    break;
  }
}

/* Every model's constant at its declared default. */
static void model_key_defaults(scenario *s) {
  for (const scenario_model_key *const *k = scenario_model_keys(); *k; k++) {
    void *at = (char *)s + (*k)->offset;
    switch ((*k)->type) {
    case SCENARIO_MODEL_NUMBER: *(double *)at = (*k)->value; break;
    case SCENARIO_MODEL_WHOLE: *(guint32 *)at = (guint32)(*k)->value; break;
    case SCENARIO_MODEL_ONOFF: *(gboolean *)at = (*k)->value != 0; break;
    case SCENARIO_MODEL_DURATION: *(sim_time *)at = (sim_time)(*k)->value; break;
    case SCENARIO_MODEL_CHOICE: *(int *)at = (int)(*k)->value; break;
    case SCENARIO_MODEL_HOURS: *(sim_time *)at = (sim_time)(*k)->value; break;
    }
  }
}

/* A section of the models' constants (inference: workload-inference.c's; llm:
 * workload-llm.c's), its keys checked and set from their declarations; messages in line
 * order. */
static void validate_section(vctx *c, scenario *s, const scenario_yaml *n,
                             const scenario_model_section *sec) {
  if (n->type != SCENARIO_YAML_MAP) {
    g_autofree char *exp = g_strdup_printf("a mapping, e.g. %s", sec->example);
    scenario_yaml_expected(c->d, c->file, n, sec->name, exp);
    return;
  }
  g_autoptr(diag_list) local = diag_list_new(G_MAXUINT);
  vctx lc = *c;
  lc.d = local;
  GPtrArray *keys = g_ptr_array_new();
  model_key_names(keys, sec);
  g_ptr_array_add(keys, NULL);
  scenario_yaml_check_keys(lc.d, lc.file, n, sec->name, (const char *const *)keys->pdata);
  for (guint i = 0; keys->pdata[i]; i++) {
    const scenario_yaml *v = scenario_yaml_get(n, keys->pdata[i]);
    if (v) v_model_key(&lc, s, model_key_find(sec, keys->pdata[i]), v);
  }
  g_ptr_array_free(keys, TRUE);
  diag_merge_sorted(c->d, local, c->file);
}

static void route_rule_clear(gpointer data) {
  route_rule *r = data;
  g_free(r->tenant);
  g_free(r->label);
}

static void validate_routing(vctx *c, scenario *s, const scenario_yaml *n) {
  if (n->type != SCENARIO_YAML_SEQ) {
    scenario_yaml_expected(c->d, c->file, n, "routing",
                           "a list of rules, e.g. [{kind: notebook, pool: dev}]");
    return;
  }
  GString *pool_list = g_string_new(NULL);
  for (guint i = 0; i < s->pools->len; i++) {
    const pool_spec *p = scenario_pool(s, i);
    if (!p->name || scenario_pool_index(s, p->name) != (int)i) continue; /* unnamed, repeated */
    if (pool_list->len) g_string_append(pool_list, ", ");
    g_string_append(pool_list, p->name);
  }
  if (!pool_list->len) g_string_assign(pool_list, "none");
  for (guint i = 0; i < n->items->len; i++) {
    const scenario_yaml *rm = g_ptr_array_index(n->items, i), *v;
    char prefix[32], w[160];
    g_snprintf(prefix, sizeof prefix, "routing[%u]", i + 1);
    if (rm->type != SCENARIO_YAML_MAP) {
      scenario_yaml_expected(c->d, c->file, rm, prefix, "a rule mapping, e.g. {kind: notebook, "
                             "pool: dev}");
      continue;
    }
    scenario_yaml_check_keys(c->d, c->file, rm, prefix, route_keys);
    route_rule r = {.line = rm->line, .kind = -1};
    if ((v = scenario_yaml_get(rm, "kind"))) {
      job_kind k;
      if (v->type == SCENARIO_YAML_SCALAR && job_kind_parse(v->text, &k)) {
        r.kind = (int)k;
      } else {
        g_autofree char *list = kind_names();
        g_autofree char *exp = g_strdup_printf("a job kind (one of: %s)", list);
        scenario_yaml_expected(c->d, c->file, v, WHAT(w, prefix, "kind"), exp);
      }
    }
    if ((v = scenario_yaml_get(rm, "tenant")) && v_string(c, v, WHAT(w, prefix, "tenant")))
      r.tenant = g_strdup(v->text);
    if ((v = scenario_yaml_get(rm, "label")) && v_string(c, v, WHAT(w, prefix, "label")))
      r.label = g_strdup(v->text);
    gboolean ok = FALSE;
    if (!(v = scenario_yaml_get(rm, "pool"))) {
      scenario_yaml_report(c->d, c->file, rm, "%s: missing required key 'pool' (pools: %s)",
                           prefix, pool_list->str);
    } else if (v_string(c, v, WHAT(w, prefix, "pool"))) {
      int pi = scenario_pool_index(s, v->text);
      if (pi < 0) {
        g_autofree char *exp = g_strdup_printf("the name of a pool (one of: %s)", pool_list->str);
        scenario_yaml_expected(c->d, c->file, v, w, exp);
      } else {
        r.pool = (guint)pi;
        ok = TRUE;
      }
    }
    if (ok) g_array_append_val(s->routing, r);
    else route_rule_clear(&r);
  }
  g_string_free(pool_list, TRUE);
}

static scenario *scenario_new(const char *path) {
  scenario *s = g_new0(scenario, 1);
  s->path = g_strdup(path);
  s->seed = SCENARIO_DEFAULT_SEED;
  s->interval_ns = SCENARIO_DEFAULT_INTERVAL_NS;
  s->start_unix = NAN;
  s->pools = g_ptr_array_new_with_free_func((GDestroyNotify)pool_free);
  s->pool_by_name = g_hash_table_new(g_str_hash, g_str_equal);
  s->routing = g_array_new(FALSE, TRUE, sizeof(route_rule));
  g_array_set_clear_func(s->routing, route_rule_clear);
  s->prices = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  model_key_defaults(s);
  return s;
}

void scenario_free(scenario *s) {
  if (!s) return;
  g_free(s->path);
  g_free(s->name);
  g_hash_table_unref(s->pool_by_name);
  g_ptr_array_unref(s->pools);
  g_array_unref(s->routing);
  g_hash_table_unref(s->prices);
  g_free(s->interference_path);
  g_free(s->ref_dir);
  requirements_free(s->requirements);
  priority_free(s->priority);
  kueue_free(s->kueue);
  g_free(s);
}

static void validate_top(vctx *c, scenario *s, const scenario_yaml *root);

static scenario *validate(const char *path, const scenario_yaml *root, diag_list *d) {
  vctx c = {.file = path, .dir = g_path_get_dirname(path), .d = d};
  guint errors_before = d->count;
  scenario *s = scenario_new(path);
  if (root->type == SCENARIO_YAML_MAP) validate_top(&c, s, root);
  else
    scenario_yaml_expected(d, path, root, "scenario",
                           "a mapping of scenario keys (name, seed, pools, routing, ...)");
  g_free(c.dir);
  if (d->count != errors_before) {
    scenario_free(s);
    return NULL;
  }
  return s;
}

/* The pools list: each pool validated, its messages passed on in line order. */
static void validate_pools(vctx *c, scenario *s, const scenario_yaml *n) {
  if (n->type != SCENARIO_YAML_SEQ || n->items->len == 0) {
    scenario_yaml_expected(c->d, c->file, n, "pools", "a non-empty list of pools");
    return;
  }
  GHashTable *names = g_hash_table_new(g_str_hash, g_str_equal);
  for (guint k = 0; k < n->items->len; k++) {
    /* a pool's checks depend on each other, so they do not run in line order: collect
     * its messages and pass them on sorted by position */
    g_autoptr(diag_list) local = diag_list_new(G_MAXUINT);
    vctx pc = *c;
    pc.d = local;
    pool_spec *ps = validate_pool(&pc, k, g_ptr_array_index(n->items, k), names);
    g_ptr_array_add(s->pools, ps);
    if (ps->name && !g_hash_table_contains(s->pool_by_name, ps->name))
      g_hash_table_insert(s->pool_by_name, ps->name, GUINT_TO_POINTER(k + 1));
    diag_merge_sorted(c->d, local, c->file);
  }
  g_hash_table_destroy(names);
}

/* Each pool's price: its own price > prices[model] > the catalogue's default. */
static void resolve_prices(scenario *s) {
  for (guint i = 0; i < s->pools->len; i++) {
    pool_spec *p = g_ptr_array_index(s->pools, i);
    if (p->price_per_gpu_hour > 0 || !p->gpu) continue;
    const double *pm = g_hash_table_lookup(s->prices, p->gpu->name);
    p->price_per_gpu_hour = pm ? *pm : p->gpu->price_per_gpu_hour;
  }
}

/* The top-level keys: this file's, the models' and those priority.c owns. */
static void check_top_keys(diag_list *d, const char *path, const scenario_yaml *root) {
  GPtrArray *keys = g_ptr_array_new();
  for (guint i = 0; top_keys[i]; i++) g_ptr_array_add(keys, (gpointer)top_keys[i]);
  model_key_names(keys, NULL);
  g_autoptr(GPtrArray) secs = g_ptr_array_new();
  model_sections(secs);
  for (guint i = 0; i < secs->len; i++)
    g_ptr_array_add(keys, (gpointer)((const scenario_model_section *)secs->pdata[i])->name);
  for (guint i = 0; top_keys_after[i]; i++) g_ptr_array_add(keys, (gpointer)top_keys_after[i]);
  for (guint i = 0; priority_top_keys[i]; i++)
    g_ptr_array_add(keys, (gpointer)priority_top_keys[i]->name);
  for (guint i = 0; kueue_top_keys[i]; i++) g_ptr_array_add(keys, (gpointer)kueue_top_keys[i]->name);
  g_ptr_array_add(keys, NULL);
  scenario_yaml_check_keys(d, path, root, NULL, (const char *const *)keys->pdata);
  g_ptr_array_free(keys, TRUE);
}

/* Index of key among priority.c's top-level keys, -1 when it is not one. */
static int top_priority_key(const char *key) {
  for (int i = 0; priority_top_keys[i]; i++)
    if (!strcmp(priority_top_keys[i]->name, key)) return i;
  return -1;
}

/* priority_classes, priority_rules, preemption (priority.c), its messages in line order. */
static void validate_priority(vctx *c, scenario *s, const scenario_yaml *const *n) {
  g_autoptr(diag_list) local = diag_list_new(G_MAXUINT);
  s->priority = priority_parse(local, c->file, n[0], n[1], n[2]);
  diag_merge_sorted(c->d, local, c->file);
}

static int kueue_pool(const void *ctx, const char *name) {
  return scenario_pool_index(ctx, name);
}

/* `kueue` (kueue.c): the Kueue objects' file, confined like the NVIDIA files; after the pools. */
static void validate_kueue(vctx *c, scenario *s, const scenario_yaml *n) {
  const scenario_yaml *flavors;
  const scenario_yaml *file = kueue_value(c->d, c->file, n, &flavors);
  if (!file) return;
  g_autofree char *full = v_file(c, file, kueue_top_keys[0]->name);
  if (!full) return;
  if (!s->ref_dir) s->ref_dir = g_strdup(c->dir);
  s->kueue = kueue_parse(c->d, c->file, s->ref_dir, full, flavors, kueue_pool, s);
}

static void validate_top(vctx *c, scenario *s, const scenario_yaml *root) {
  diag_list *d = c->d;
  const char *path = c->file;
  check_top_keys(d, path, root);
  const scenario_yaml *pools = NULL, *routing = NULL, *prio[3] = {NULL, NULL, NULL}, *kq = NULL;
  gboolean routing_done = FALSE;
  /* in file order, so that messages come out in line order; routing needs the pools */
  for (guint i = 0; i + 1 < root->items->len; i += 2) {
    const char *key = ((const scenario_yaml *)g_ptr_array_index(root->items, i))->text;
    const scenario_yaml *n = g_ptr_array_index(root->items, i + 1);
    if (!strcmp(key, "name")) {
      if (v_string(c, n, "name")) {
        if (util_name_is_safe(n->text)) s->name = g_strdup(n->text);
        else
          scenario_yaml_expected(d, path, n, "name",
                                 "a name of 1 to 64 characters from A-Z a-z 0-9 . _ - (not "
                                 "starting with '.' or '-')");
      }
    } else if (!strcmp(key, "seed")) {
      guint64 seed;
      if (n->type == SCENARIO_YAML_SCALAR &&
          g_ascii_string_to_unsigned(n->text, 10, 0, G_MAXUINT64, &seed, NULL))
        s->seed = seed;
      else
        scenario_yaml_expected(d, path, n, "seed", "an integer from 0 to 18446744073709551615");
    } else if (!strcmp(key, "horizon")) {
      v_duration(c, n, "horizon", SIM_NS_PER_S, 3650 * 86400 * SIM_NS_PER_S, &s->horizon_ns);
      s->horizon_line = n->origin ? 0 : n->line;
    } else if (!strcmp(key, "start")) {
      if (n->type != SCENARIO_YAML_SCALAR || !caltime_parse(n->text, &s->start_unix))
        scenario_yaml_expected(d, path, n, "start",
                               "an ISO 8601 time with a zone, e.g. 2026-11-01T00:00:00Z");
    } else if (!strcmp(key, "interval")) {
      v_duration(c, n, "interval", SIM_NS_PER_S, 30 * 86400 * SIM_NS_PER_S, &s->interval_ns);
      s->interval_line = n->origin ? 0 : n->line;
    } else if (model_key_find(NULL, key)) {
      v_model_key(c, s, model_key_find(NULL, key), n); /* a model's constant */
    } else if (!strcmp(key, "interference")) {
      s->interference_path = v_file(c, n, "interference");
      if (s->interference_path && !s->ref_dir) s->ref_dir = g_strdup(c->dir);
    } else if (!strcmp(key, "prices")) {
      validate_prices(c, s, n);
    } else if (!strcmp(key, "crash_rates")) {
      validate_crash_rates(c, s, n);
    } else if (model_section_find(key)) {
      validate_section(c, s, n, model_section_find(key)); /* a model's section */
    } else if (!strcmp(key, "requirements") || !strcmp(key, "purchase")) {
      (*key == 'r' ? requirements_read_rules : requirements_read_purchase)(&s->requirements, path, n, d);
    } else if (top_priority_key(key) >= 0) {
      prio[top_priority_key(key)] = n;
    } else if (!strcmp(key, kueue_top_keys[0]->name)) {
      kq = n;
    } else if (!strcmp(key, "pools")) {
      pools = n;
      validate_pools(c, s, n);
      if (routing && !routing_done) {
        validate_routing(c, s, routing);
        routing_done = TRUE;
      }
    } else if (!strcmp(key, "routing")) {
      routing = n;
      if (pools) {
        validate_routing(c, s, routing);
        routing_done = TRUE;
      }
    }
  }
  if (!s->name) s->name = default_name(path);
  if (!pools)
    scenario_yaml_report(d, path, root, "missing required key 'pools' (a scenario needs at "
                         "least one pool)");
  if (routing && !routing_done) validate_routing(c, s, routing);
  validate_priority(c, s, prio);
  if (kq) validate_kueue(c, s, kq);
  resolve_prices(s);
  if (s->pools->len > 1 && !routing) {
    scenario_yaml_report(d, path, scenario_yaml_get_key(root, "pools"),
                         "routing: a scenario with %u pools needs routing rules (a rule with "
                         "only 'pool' catches every job)", s->pools->len);
  } else if (s->pools->len > 1 && routing->type == SCENARIO_YAML_SEQ &&
             routing->items->len == 0) {
    scenario_yaml_report(d, path, routing,
                         "routing: a scenario with %u pools needs routing rules (a rule with "
                         "only 'pool' catches every job)", s->pools->len);
  }
}

/* ======================================================================================
 * Overrides (--set KEY=VALUE)
 * ==================================================================================== */

static void set_origin(scenario_yaml *n, const char *origin) {
  g_free(n->origin);
  n->origin = g_strdup(origin);
  if (n->items)
    for (guint i = 0; i < n->items->len; i++) set_origin(g_ptr_array_index(n->items, i), origin);
}

/* Replaces (or adds) key in map with value (taken). */
static void map_set(scenario_yaml *map, const char *key, scenario_yaml *value, const char *origin) {
  for (guint i = 0; i + 1 < map->items->len; i += 2) {
    scenario_yaml *k = g_ptr_array_index(map->items, i);
    if (k->type == SCENARIO_YAML_SCALAR && !strcmp(k->text, key)) {
      scenario_yaml_free(g_ptr_array_index(map->items, i + 1));
      map->items->pdata[i + 1] = value;
      return;
    }
  }
  scenario_yaml *k = scenario_yaml_new(SCENARIO_YAML_SCALAR, 0, 0);
  k->text = g_strdup(key);
  k->origin = g_strdup(origin);
  g_ptr_array_add(map->items, k);
  g_ptr_array_add(map->items, value);
}

/* Keys a --set may name at the top level (pools/routing are lists; prices/crash_rates take a
 * sub-key): these, then the models' top-level constants. */
static const char *const override_top_keys[] = {"name", "seed", "horizon", "interval", "start",
                                                "interference", NULL};

/* The keys a --set may name at the top level, in order; NULL-terminated, owned (not the
 * strings). */
static GPtrArray *override_keys(void) {
  GPtrArray *keys = g_ptr_array_new();
  for (guint i = 0; override_top_keys[i]; i++) g_ptr_array_add(keys, (gpointer)override_top_keys[i]);
  model_key_names(keys, NULL);
  g_ptr_array_add(keys, NULL);
  return keys;
}

gboolean scenario_is_override_key(const char *key) {
  if (!key) return FALSE;
  g_autoptr(GPtrArray) keys = override_keys();
  return key_in((const char *const *)keys->pdata, key);
}

/* The mapping "SUB.KEY" sets a key of: prices, crash_rates or a model's section; NULL when
 * key names none of them. */
static const char *override_section(const char *key) {
  const char *dot = strchr(key, '.');
  if (!dot) return NULL;
  g_autofree char *sub = g_strndup(key, (gsize)(dot - key));
  if (!strcmp(sub, "prices")) return "prices";
  if (!strcmp(sub, "crash_rates")) return "crash_rates";
  const scenario_model_section *sec = model_section_find(sub);
  return sec ? sec->name : NULL;
}

/* --set pools.NAME.SECTION.KEY=VALUE (a pool section's key, scenario_pool_section): sets KEY
 * in the section's mapping of pool NAME, creating the mapping when the pool has none. FALSE
 * (val untouched) when key is not pools.NAME.SECTION.KEY of a section and one of its keys,
 * or no pool is named NAME (the caller reports it). */
static gboolean apply_section_override(scenario_yaml *root, const char *key, scenario_yaml *val,
                                       const char *origin) {
  if (!g_str_has_prefix(key, "pools.")) return FALSE;
  const char *rest = key + strlen("pools."), *dot = strrchr(rest, '.');
  if (!dot || dot == rest || !dot[1]) return FALSE;
  const scenario_pool_section *sec = NULL;
  size_t name_len = 0;
  for (guint i = 0; scenario_sections[i] && !sec; i++) {
    size_t n = strlen(scenario_sections[i]->name);
    if ((size_t)(dot - rest) > n + 1 && dot[-(ptrdiff_t)n - 1] == '.' &&
        !strncmp(dot - n, scenario_sections[i]->name, n))
      sec = scenario_sections[i], name_len = (size_t)(dot - rest) - n - 1;
  }
  gboolean known = FALSE;
  for (const scenario_key *const *k = sec ? sec->keys : NULL; k && *k; k++)
    known = known || !strcmp((*k)->name, dot + 1);
  const scenario_yaml *pools = scenario_yaml_get(root, "pools");
  if (!known || !pools || pools->type != SCENARIO_YAML_SEQ) return FALSE;
  for (guint i = 0; i < pools->items->len; i++) {
    scenario_yaml *pm = g_ptr_array_index(pools->items, i);
    const scenario_yaml *nm = scenario_yaml_get(pm, "name");
    if (!nm || nm->type != SCENARIO_YAML_SCALAR || strlen(nm->text) != name_len ||
        strncmp(nm->text, rest, name_len) || pm->type != SCENARIO_YAML_MAP)
      continue;
    scenario_yaml *map = (scenario_yaml *)scenario_yaml_get(pm, sec->name);
    if (!map || map->type != SCENARIO_YAML_MAP) {
      map = scenario_yaml_new(SCENARIO_YAML_MAP, 0, 0);
      map->origin = g_strdup(origin);
      map_set(pm, sec->name, map, origin);
    }
    map_set(map, dot + 1, val, origin);
    return TRUE;
  }
  return FALSE;
}

static void apply_override(scenario_yaml *root, const char *file, const char *ov, diag_list *d) {
  const char *eq = strchr(ov, '=');
  if (!eq || eq == ov) {
    g_autofree char *e = scenario_yaml_escape(ov);
    diag_add(d, file, 0, 0, "--set '%s': expected KEY=VALUE (e.g. pools.dev.replicas=8)", e);
    return;
  }
  g_autofree char *key = g_strndup(ov, (gsize)(eq - ov));
  const char *value = eq + 1;
  g_autofree char *origin = NULL;
  {
    g_autofree char *ek = scenario_yaml_escape(key);
    origin = g_strdup_printf("--set %s", ek);
  }
  gboolean failed = FALSE;
  scenario_yaml *val = scenario_yaml_parse_text(file, origin, value, d, &failed);
  if (failed) return;
  if (!val) {
    val = scenario_yaml_new(SCENARIO_YAML_SCALAR, 0, 0);
    val->text = g_strdup("");
  }
  if (val->type == SCENARIO_YAML_MAP || (val->type == SCENARIO_YAML_SEQ && value[0] != '[')) {
    diag_add(d, file, 0, 0, "%s: expected a single value or a [list], found %s", origin,
             scenario_yaml_describe(val));
    scenario_yaml_free(val);
    return;
  }
  set_origin(val, origin);
  if (root->type != SCENARIO_YAML_MAP) { /* reported by validation */
    scenario_yaml_free(val);
    return;
  }

  if (scenario_is_override_key(key)) {
    map_set(root, key, val, origin);
    return;
  }
  if (apply_section_override(root, key, val, origin)) return;
  if (g_str_has_prefix(key, "pools.")) {
    const char *rest = key + strlen("pools.");
    const char *dot = strrchr(rest, '.');
    if (dot && dot != rest && dot[1]) {
      g_autofree char *pname = g_strndup(rest, (gsize)(dot - rest));
      const char *pkey = dot + 1;
      if (!pool_key_known(pkey)) {
        scenario_yaml tmp = {.type = SCENARIO_YAML_SCALAR, .text = (char *)pkey, .origin = origin};
        scenario_yaml_unknown_key(d, file, &tmp, NULL, pool_key_names(), "pool key");
        scenario_yaml_free(val);
        return;
      }
      const scenario_yaml *pools = scenario_yaml_get(root, "pools");
      GString *list = g_string_new(NULL);
      if (pools && pools->type == SCENARIO_YAML_SEQ)
        for (guint i = 0; i < pools->items->len; i++) {
          scenario_yaml *pm = g_ptr_array_index(pools->items, i);
          const scenario_yaml *nm = scenario_yaml_get(pm, "name");
          if (!nm || nm->type != SCENARIO_YAML_SCALAR) continue;
          if (!strcmp(nm->text, pname)) {
            map_set(pm, pkey, val, origin);
            g_string_free(list, TRUE);
            return;
          }
          if (list->len) g_string_append(list, ", ");
          g_string_append(list, nm->text);
        }
      g_autofree char *e = scenario_yaml_escape(pname), *el = scenario_yaml_escape(list->str);
      diag_add(d, file, 0, 0, "%s: no pool named '%s' (pools: %s)", origin, e,
               list->len ? el : "none");
      g_string_free(list, TRUE);
      scenario_yaml_free(val);
      return;
    }
  }
  const char *sub = override_section(key);
  if (sub && key[strlen(sub) + 1]) {
    scenario_yaml *map = scenario_yaml_get(root, sub);
    if (!map) {
      map = scenario_yaml_new(SCENARIO_YAML_MAP, 0, 0);
      map->origin = g_strdup(origin);
      map_set(root, sub, map, origin);
    }
    if (map->type == SCENARIO_YAML_MAP) {
      map_set(map, key + strlen(sub) + 1, val, origin);
    } else {
      scenario_yaml_free(val); /* reported by validation */
    }
    return;
  }
  g_autoptr(GPtrArray) keys = override_keys();
  g_autofree char *list = g_strjoinv(", ", (char **)keys->pdata);
  GString *secs = g_string_new(NULL);
  g_autoptr(GPtrArray) ms = g_ptr_array_new();
  model_sections(ms);
  for (guint i = 0; i < ms->len; i++)
    g_string_append_printf(secs, ", %s.KEY", ((const scenario_model_section *)ms->pdata[i])->name);
  diag_add(d, file, 0, 0, "%s: unknown key; expected one of: %s, pools.NAME.KEY, prices.MODEL, "
           "crash_rates.KIND%s", origin, list, secs->str);
  g_string_free(secs, TRUE);
  scenario_yaml_free(val);
}

/* ======================================================================================
 * Public entry points
 * ==================================================================================== */

scenario *scenario_load_with_overrides(const char *path, const char *const *overrides,
                                       guint n_overrides, diag_list *diags) {
  g_return_val_if_fail(path && diags, NULL);
  guint before = diags->count;
  scenario_yaml *root = scenario_yaml_load(path, diags);
  if (!root) return NULL;
  for (guint i = 0; i < n_overrides; i++) apply_override(root, path, overrides[i], diags);
  /* validated even after a bad override, so that every problem is reported */
  scenario *s = validate(path, root, diags);
  scenario_yaml_free(root);
  if (s && diags->count != before) { /* an override failed */
    scenario_free(s);
    s = NULL;
  }
  return s;
}

scenario *scenario_load(const char *path, diag_list *diags) {
  return scenario_load_with_overrides(path, NULL, 0, diags);
}

int scenario_pool_index(const scenario *s, const char *name) {
  if (!name) return -1;
  return (int)GPOINTER_TO_UINT(g_hash_table_lookup(s->pool_by_name, name)) - 1;
}

int scenario_route(const scenario *s, const job_spec *j) {
  if (s->routing->len == 0) return s->pools->len == 1 ? 0 : -1;
  for (guint i = 0; i < s->routing->len; i++) {
    const route_rule *r = &g_array_index(s->routing, route_rule, i);
    if (r->kind >= 0 && r->kind != (int)j->kind) continue;
    if (r->tenant && g_strcmp0(r->tenant, j->tenant ? j->tenant : "default") != 0) continue;
    if (r->label && g_strcmp0(r->label, j->label ? j->label : "") != 0) continue;
    return (int)r->pool;
  }
  return -1;
}
