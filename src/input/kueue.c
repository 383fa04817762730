/* kueue.c: the scenario's `kueue` section and the Kueue objects it names (kueue.h):
 * ResourceFlavors, ClusterQueues, Cohorts and LocalQueues read from multi-document YAML or a
 * `kind: List`, checked with file:line:column, the quota tree built (subtree quotas, what
 * each node keeps), and flavours bound to pools. It owns the `kueue` key; admission during
 * a run is src/sim/quota.c's. */
#include "kueue.h"
#include "util.h"
#include <string.h>

const scenario_key kueue_key = {
    "kueue", "none", "Kueue's ResourceFlavors, ClusterQueues, Cohorts and LocalQueues: a "
    "path, or {file, flavors}", NULL};
const scenario_key *const kueue_top_keys[] = {&kueue_key, NULL};

static const char *const kueue_value_keys[] = {"file", "flavors", NULL};
static const char *const cq_spec_keys[] = {
    "cohort", "cohortName", "queueingStrategy", "resourceGroups", "namespaceSelector",
    "preemption", /* not a key */ /* Kueue's spec field, not the priority section */
    "fairSharing", "flavorFungibility", "admissionChecks",
    "admissionChecksStrategy", "stopPolicy", "admissionScope", NULL};
static const char *const cohort_spec_keys[] = {"parent", "parentName", "resourceGroups",
                                               "fairSharing", NULL};
static const char *const preemption_keys[] = {"withinClusterQueue", "reclaimWithinCohort",
                                              "borrowWithinCohort", NULL};
static const char *const borrow_within_keys[] = {"policy", "maxPriorityThreshold", NULL};
static const char *const fair_keys[] = {"weight", NULL};
static const char *const group_keys[] = {"coveredResources", "flavors", NULL};
static const char *const flavor_keys[] = {"name", "resources", NULL};
static const char *const resource_keys[] = {"name", "nominalQuota", "borrowingLimit",
                                            "lendingLimit", NULL};

typedef struct kq_pending {    /* a flavour entry of a node, resolved once all are read */
  int node;
  char *flavor;
  kueue_quota q;
} kq_pending;

typedef struct kctx {
  diag_list *d;
  const char *file;
  scenario_kueue *k;
  GArray *pending;             /* kq_pending */
  GHashTable *node_by_name;    /* "cq:NAME" / "co:NAME" -> index + 1 */
  GPtrArray *cq_cohort;        /* per node: the cohort name node (scenario_yaml*) or NULL */
} kctx;

static void kq_pending_clear(gpointer p) { g_free(((kq_pending *)p)->flavor); }

void kueue_free(scenario_kueue *k) {
  if (!k) return;
  for (guint i = 0; i < k->flavors->len; i++) {
    g_free(g_array_index(k->flavors, kueue_flavor, i).name);
    g_free(g_array_index(k->flavors, kueue_flavor, i).pool_name);
  }
  for (guint i = 0; i < k->nodes->len; i++) {
    kueue_node *n = &g_array_index(k->nodes, kueue_node, i);
    g_free(n->name);
    g_free(n->quota);
  }
  for (guint i = 0; i < k->locals->len; i++) {
    kueue_local *l = &g_array_index(k->locals, kueue_local, i);
    g_free(l->ns);
    g_free(l->name);
  }
  g_array_unref(k->flavors);
  g_array_unref(k->nodes);
  g_array_unref(k->locals);
  g_free(k->potential);
  g_free(k->subtree);
  g_free(k->kept);
  g_free(k->path);
  g_free(k);
}

/* The node named name (a ClusterQueue when cq, else a Cohort), -1 when none; create: add a
 * new one at n's position. */
static int node_find(kctx *c, const char *name, gboolean cq, const scenario_yaml *n,
                     gboolean create) {
  g_autofree char *key = g_strdup_printf("%s:%s", cq ? "cq" : "co", name);
  int i = GPOINTER_TO_INT(g_hash_table_lookup(c->node_by_name, key)) - 1;
  if (i >= 0 || !create) return i;
  if (c->k->nodes->len >= KUEUE_MAX_NODES) {
    scenario_yaml_report(c->d, c->file, n, "more than %d ClusterQueues and Cohorts: not read",
                         KUEUE_MAX_NODES);
    return -1;
  }
  kueue_node x = {.name = g_strdup(name), .is_cq = cq, .line = n->line, .col = n->col,
                  .parent = -1, .weight = 1.0};
  g_array_append_val(c->k->nodes, x);
  g_ptr_array_add(c->cq_cohort, NULL);
  i = (int)c->k->nodes->len - 1;
  g_hash_table_insert(c->node_by_name, g_steal_pointer(&key), GINT_TO_POINTER(i + 1));
  if (cq) c->k->n_cq++;
  return i;
}

/* A quantity of GPUs: a non-negative integer, plain or quoted ("4"). */
static gboolean kq_count(kctx *c, const scenario_yaml *v, const char *what, int64_t *out) {
  return scenario_yaml_int(c->d, c->file, v, what, 0, 1000000000LL, out);
}

static gboolean is_gpu_resource(const char *name) { return g_str_has_prefix(name, "nvidia.com/"); }

/* The resources of one flavour entry of a resource group: its GPU resource's quotas. */
static void parse_resources(kctx *c, int node, const scenario_yaml *fl, const char *w,
                            const scenario_yaml *fname) {
  const scenario_yaml *rs = scenario_yaml_get(fl, "resources");
  char p[200];
  if (!rs || rs->type != SCENARIO_YAML_SEQ) {
    g_snprintf(p, sizeof p, "%s.resources", w);
    scenario_yaml_expected(c->d, c->file, rs ? rs : fl, p, "a list of {name, nominalQuota}");
    return;
  }
  kq_pending pe = {.node = node, .flavor = g_strdup(fname->text),
                   .q = {.listed = TRUE, .borrow = KUEUE_NO_LIMIT, .lend = KUEUE_NO_LIMIT,
                         .line = fl->line, .col = fl->col}};
  gboolean gpu = FALSE;
  for (guint r = 0; r < rs->items->len; r++) {
    const scenario_yaml *res = g_ptr_array_index(rs->items, r);
    g_snprintf(p, sizeof p, "%s.resources[%u]", w, r + 1);
    if (res->type != SCENARIO_YAML_MAP) {
      scenario_yaml_expected(c->d, c->file, res, p, "a mapping {name, nominalQuota}");
      continue;
    }
    scenario_yaml_check_keys(c->d, c->file, res, p, resource_keys);
    const scenario_yaml *name = scenario_yaml_get(res, "name");
    const scenario_yaml *nom = scenario_yaml_get(res, "nominalQuota");
    if (!name || name->type != SCENARIO_YAML_SCALAR || !nom) {
      scenario_yaml_report(c->d, c->file, res, "%s: needs a name and a nominalQuota", p);
      continue;
    }
    if (!is_gpu_resource(name->text)) continue; /* cpu, memory, pods: not modelled */
    if (gpu) {
      scenario_yaml_report(c->d, c->file, name, "%s: a second GPU resource '%s' in flavour "
                           "'%s': sharesim counts one GPU resource a flavour", p, name->text,
                           fname->text);
      continue;
    }
    gpu = TRUE;
    char q[240];
    g_snprintf(q, sizeof q, "%s.nominalQuota", p);
    kq_count(c, nom, q, &pe.q.nominal);
    const scenario_yaml *v;
    if ((v = scenario_yaml_get(res, "borrowingLimit"))) {
      g_snprintf(q, sizeof q, "%s.borrowingLimit", p);
      kq_count(c, v, q, &pe.q.borrow);
    }
    if ((v = scenario_yaml_get(res, "lendingLimit"))) {
      g_snprintf(q, sizeof q, "%s.lendingLimit", p);
      if (kq_count(c, v, q, &pe.q.lend) && pe.q.lend > pe.q.nominal)
        scenario_yaml_report(c->d, c->file, v, "%s: %" G_GINT64_FORMAT " is above the "
                             "nominalQuota %" G_GINT64_FORMAT " (Kueue refuses it)", q,
                             pe.q.lend, pe.q.nominal);
    }
  }
  g_array_append_val(c->pending, pe); /* no GPU resource: listed with nominal 0 */
}

/* spec.resourceGroups of a ClusterQueue or Cohort. */
static void parse_groups(kctx *c, int node, const scenario_yaml *groups, const char *what) {
  char w[200];
  g_snprintf(w, sizeof w, "%s.spec.resourceGroups", what);
  if (groups->type != SCENARIO_YAML_SEQ) {
    scenario_yaml_expected(c->d, c->file, groups, w, "a list of {coveredResources, flavors}");
    return;
  }
  for (guint g = 0; g < groups->items->len; g++) {
    const scenario_yaml *grp = g_ptr_array_index(groups->items, g);
    g_snprintf(w, sizeof w, "%s.spec.resourceGroups[%u]", what, g + 1);
    if (grp->type != SCENARIO_YAML_MAP) {
      scenario_yaml_expected(c->d, c->file, grp, w, "a mapping {coveredResources, flavors}");
      continue;
    }
    scenario_yaml_check_keys(c->d, c->file, grp, w, group_keys);
    const scenario_yaml *fls = scenario_yaml_get(grp, "flavors");
    if (!fls || fls->type != SCENARIO_YAML_SEQ) {
      scenario_yaml_expected(c->d, c->file, fls ? fls : grp, w, "a flavors list");
      continue;
    }
    for (guint f = 0; f < fls->items->len; f++) {
      const scenario_yaml *fl = g_ptr_array_index(fls->items, f);
      char wf[220];
      g_snprintf(wf, sizeof wf, "%s.flavors[%u]", w, f + 1);
      const scenario_yaml *fname = scenario_yaml_get(fl, "name");
      if (fl->type != SCENARIO_YAML_MAP || !fname || fname->type != SCENARIO_YAML_SCALAR) {
        scenario_yaml_expected(c->d, c->file, fl, wf, "a mapping {name, resources}");
        continue;
      }
      scenario_yaml_check_keys(c->d, c->file, fl, wf, flavor_keys);
      parse_resources(c, node, fl, wf, fname);
    }
  }
}

/* metadata.name of object o (kind named in messages), NULL after reporting. */
static const scenario_yaml *meta_name(kctx *c, const scenario_yaml *o, const char *kind) {
  const scenario_yaml *md = scenario_yaml_get(o, "metadata");
  const scenario_yaml *n = scenario_yaml_get(md, "name");
  if (!n || n->type != SCENARIO_YAML_SCALAR || !n->text[0]) {
    scenario_yaml_report(c->d, c->file, md ? md : o, "%s: metadata.name is required", kind);
    return NULL;
  }
  return n;
}

static const scenario_yaml *spec_of(kctx *c, const scenario_yaml *o, const char *what,
                                    const char *const *keys) {
  const scenario_yaml *spec = scenario_yaml_get(o, "spec");
  if (!spec) return NULL;
  char w[160];
  g_snprintf(w, sizeof w, "%s.spec", what);
  if (spec->type != SCENARIO_YAML_MAP) {
    scenario_yaml_expected(c->d, c->file, spec, w, "a mapping");
    return NULL;
  }
  if (keys) scenario_yaml_check_keys(c->d, c->file, spec, w, keys);
  return spec;
}

/* One policy of spec.preemption: names[i] is kueue_preempt i (NULL: not allowed here). */
static void parse_policy(kctx *c, const scenario_yaml *v, const char *what,
                         const char *const names[4], kueue_preempt *out) {
  for (int i = 0; i < 4 && v->type == SCENARIO_YAML_SCALAR; i++)
    if (names[i] && !strcmp(v->text, names[i])) {
      *out = (kueue_preempt)i;
      return;
    }
  GString *e = g_string_new(NULL);
  int total = 0;
  for (int i = 0; i < 4; i++) total += names[i] != NULL;
  for (int i = 0, n = 0; i < 4; i++)
    if (names[i]) {
      n++;
      g_string_append_printf(e, "%s%s", n == 1 ? "" : n == total ? " or " : ", ", names[i]);
    }
  scenario_yaml_expected(c->d, c->file, v, what, e->str);
  g_string_free(e, TRUE);
}

/* spec.preemption of ClusterQueue n (Kueue's ClusterQueuePreemption). */
static void parse_preemption(kctx *c, kueue_node *n, const scenario_yaml *pr) {
  static const char *const within[4] = {"Never", "LowerPriority", "LowerOrNewerEqualPriority", NULL};
  static const char *const reclaim[4] = {"Never", "LowerPriority", NULL, "Any"};
  static const char *const borrow[4] = {"Never", "LowerPriority", NULL, NULL};
  if (pr->type != SCENARIO_YAML_MAP) {
    scenario_yaml_expected(c->d, c->file, pr, "spec.preemption", "a mapping {withinClusterQueue, "
                           "reclaimWithinCohort, borrowWithinCohort}");
    return;
  }
  scenario_yaml_check_keys(c->d, c->file, pr, "spec.preemption", preemption_keys);
  const scenario_yaml *v;
  if ((v = scenario_yaml_get(pr, "withinClusterQueue")))
    parse_policy(c, v, "spec.preemption.withinClusterQueue", within, &n->within);
  if ((v = scenario_yaml_get(pr, "reclaimWithinCohort")))
    parse_policy(c, v, "spec.preemption.reclaimWithinCohort", reclaim, &n->reclaim);
  if (!(v = scenario_yaml_get(pr, "borrowWithinCohort"))) return;
  if (v->type != SCENARIO_YAML_MAP) {
    scenario_yaml_expected(c->d, c->file, v, "spec.preemption.borrowWithinCohort",
                           "a mapping {policy, maxPriorityThreshold}");
    return;
  }
  scenario_yaml_check_keys(c->d, c->file, v, "spec.preemption.borrowWithinCohort", borrow_within_keys);
  const scenario_yaml *x;
  if ((x = scenario_yaml_get(v, "policy")))
    parse_policy(c, x, "spec.preemption.borrowWithinCohort.policy", borrow, &n->borrow_within);
  int64_t t;
  if ((x = scenario_yaml_get(v, "maxPriorityThreshold")) &&
      scenario_yaml_int(c->d, c->file, x, "spec.preemption.borrowWithinCohort.maxPriorityThreshold",
                        G_MININT32, G_MAXINT32, &t)) {
    n->borrow_max_set = TRUE;
    n->borrow_max = (int32_t)t;
  }
}

/* spec.fairSharing of a ClusterQueue or Cohort: weight, a Kubernetes quantity >= 0 (2, 0.5,
 * 500m); *weight unchanged when absent. */
static void parse_fair(kctx *c, const scenario_yaml *fs, double *weight) {
  if (fs->type != SCENARIO_YAML_MAP) {
    scenario_yaml_expected(c->d, c->file, fs, "spec.fairSharing", "a mapping {weight}");
    return;
  }
  scenario_yaml_check_keys(c->d, c->file, fs, "spec.fairSharing", fair_keys);
  const scenario_yaml *v = scenario_yaml_get(fs, "weight");
  if (!v) return;
  char *end = NULL;
  double w = v->type == SCENARIO_YAML_SCALAR && v->text[0] ? g_ascii_strtod(v->text, &end) : -1;
  if (end && *end == 'm' && end[1] == 0) {
    w /= 1000;
    end++;
  }
  if (!end || *end || !(w >= 0 && w <= 1e9)) {
    scenario_yaml_expected(c->d, c->file, v, "spec.fairSharing.weight",
                           "a non-negative number (a Kubernetes quantity: 2, 0.5, 500m)");
    return;
  }
  *weight = w;
}

static void parse_cluster_queue(kctx *c, const scenario_yaml *o) {
  const scenario_yaml *name = meta_name(c, o, "ClusterQueue");
  if (!name) return;
  if (node_find(c, name->text, TRUE, name, FALSE) >= 0) {
    scenario_yaml_report(c->d, c->file, name, "ClusterQueue '%s' is defined twice", name->text);
    return;
  }
  int i = node_find(c, name->text, TRUE, name, TRUE);
  if (i < 0) return;
  char what[120];
  g_snprintf(what, sizeof what, "ClusterQueue %s", name->text);
  const scenario_yaml *spec = spec_of(c, o, what, cq_spec_keys), *v;
  if (!spec) return;
  if ((v = scenario_yaml_get(spec, "cohort")) || (v = scenario_yaml_get(spec, "cohortName")))
    if (v->type == SCENARIO_YAML_SCALAR && v->text[0]) g_ptr_array_index(c->cq_cohort, i) = (gpointer)v;
  kueue_node *n = &g_array_index(c->k->nodes, kueue_node, i);
  if ((v = scenario_yaml_get(spec, "queueingStrategy"))) {
    if (v->type == SCENARIO_YAML_SCALAR && !strcmp(v->text, "StrictFIFO"))
      n->strategy = KUEUE_STRICT_FIFO;
    else if (!(v->type == SCENARIO_YAML_SCALAR && !strcmp(v->text, "BestEffortFIFO")))
      scenario_yaml_expected(c->d, c->file, v, "spec.queueingStrategy",
                             "StrictFIFO or BestEffortFIFO");
  }
  if ((v = scenario_yaml_get(spec, "fairSharing"))) parse_fair(c, v, &n->weight);
  if ((v = scenario_yaml_get(spec, "preemption"))) parse_preemption(c, n, v); /* not a key */
  if (n->within != KUEUE_PREEMPT_NEVER || n->reclaim != KUEUE_PREEMPT_NEVER) c->k->preempts = TRUE;
  if ((v = scenario_yaml_get(spec, "resourceGroups"))) parse_groups(c, i, v, what);
}

static void parse_cohort(kctx *c, const scenario_yaml *o) {
  const scenario_yaml *name = meta_name(c, o, "Cohort");
  if (!name) return;
  int i = node_find(c, name->text, FALSE, name, TRUE);
  if (i < 0) return;
  kueue_node *n = &g_array_index(c->k->nodes, kueue_node, i);
  if (n->declared) {
    scenario_yaml_report(c->d, c->file, name, "Cohort '%s' is defined twice", name->text);
    return;
  }
  n->declared = TRUE;
  n->line = name->line;
  n->col = name->col;
  char what[120];
  g_snprintf(what, sizeof what, "Cohort %s", name->text);
  const scenario_yaml *spec = spec_of(c, o, what, cohort_spec_keys), *v;
  if (!spec) return;
  if ((v = scenario_yaml_get(spec, "parent")) || (v = scenario_yaml_get(spec, "parentName")))
    if (v->type == SCENARIO_YAML_SCALAR && v->text[0]) g_ptr_array_index(c->cq_cohort, i) = (gpointer)v;
  if ((v = scenario_yaml_get(spec, "fairSharing")))
    parse_fair(c, v, &g_array_index(c->k->nodes, kueue_node, i).weight);
  if ((v = scenario_yaml_get(spec, "resourceGroups"))) parse_groups(c, i, v, what);
}

static void parse_flavor(kctx *c, const scenario_yaml *o) {
  const scenario_yaml *name = meta_name(c, o, "ResourceFlavor");
  if (!name) return;
  for (guint i = 0; i < c->k->flavors->len; i++)
    if (!strcmp(g_array_index(c->k->flavors, kueue_flavor, i).name, name->text)) {
      scenario_yaml_report(c->d, c->file, name, "ResourceFlavor '%s' is defined twice", name->text);
      return;
    }
  if (c->k->flavors->len >= KUEUE_MAX_FLAVORS) {
    scenario_yaml_report(c->d, c->file, name, "more than %d ResourceFlavors: not read",
                         KUEUE_MAX_FLAVORS);
    return;
  }
  kueue_flavor f = {.name = g_strdup(name->text), .line = name->line, .col = name->col, .pool = -1};
  g_array_append_val(c->k->flavors, f);
}

static void parse_local_queue(kctx *c, const scenario_yaml *o) {
  const scenario_yaml *name = meta_name(c, o, "LocalQueue");
  if (!name) return;
  const scenario_yaml *ns = scenario_yaml_get(scenario_yaml_get(o, "metadata"), "namespace");
  const scenario_yaml *spec = spec_of(c, o, "LocalQueue", NULL);
  const scenario_yaml *cq = scenario_yaml_get(spec, "clusterQueue");
  if (!cq || cq->type != SCENARIO_YAML_SCALAR) {
    scenario_yaml_report(c->d, c->file, spec ? spec : o, "LocalQueue %s: spec.clusterQueue is "
                         "required", name->text);
    return;
  }
  const char *nst = ns && ns->type == SCENARIO_YAML_SCALAR ? ns->text : "default";
  for (guint i = 0; i < c->k->locals->len; i++) {
    const kueue_local *l = &g_array_index(c->k->locals, kueue_local, i);
    if (!strcmp(l->ns, nst)) {
      scenario_yaml_report(c->d, c->file, name, "LocalQueue %s: namespace '%s' already has "
                           "LocalQueue %s (line %u); sharesim maps a tenant (namespace) to one "
                           "LocalQueue", name->text, nst, l->name, l->line);
      return;
    }
  }
  /* the ClusterQueue is resolved by name once all objects are read (cq: its node) */
  kueue_local l = {.ns = g_strdup(nst), .name = g_strdup(cq->text), .line = cq->line,
                   .col = cq->col, .cq = -1};
  g_array_append_val(c->k->locals, l);
}

/* One Kubernetes object: dispatched by kind; other API groups and kinds are skipped. */
static void parse_object(kctx *c, const scenario_yaml *o, guint depth) {
  if (o->type == SCENARIO_YAML_SCALAR && !o->text[0]) return; /* an empty document */
  const scenario_yaml *kind = scenario_yaml_get(o, "kind");
  if (o->type != SCENARIO_YAML_MAP || !kind || kind->type != SCENARIO_YAML_SCALAR) {
    scenario_yaml_expected(c->d, c->file, o, "document", "a Kubernetes object with a kind");
    return;
  }
  if (!strcmp(kind->text, "List")) {
    const scenario_yaml *items = scenario_yaml_get(o, "items");
    if (!items || items->type != SCENARIO_YAML_SEQ || depth > 0) {
      scenario_yaml_expected(c->d, c->file, items ? items : o, "List.items", "a list of objects");
      return;
    }
    for (guint i = 0; i < items->items->len; i++) parse_object(c, g_ptr_array_index(items->items, i), 1);
    return;
  }
  const scenario_yaml *api = scenario_yaml_get(o, "apiVersion");
  if (!api || api->type != SCENARIO_YAML_SCALAR || !g_str_has_prefix(api->text, "kueue.x-k8s.io/"))
    return; /* Namespaces, Jobs, ConfigMaps held in the same file */
  if (!strcmp(kind->text, "ClusterQueue")) parse_cluster_queue(c, o);
  else if (!strcmp(kind->text, "Cohort")) parse_cohort(c, o);
  else if (!strcmp(kind->text, "ResourceFlavor")) parse_flavor(c, o);
  else if (!strcmp(kind->text, "LocalQueue")) parse_local_queue(c, o);
}

static int flavor_index(const scenario_kueue *k, const char *name) {
  for (guint i = 0; i < k->flavors->len; i++)
    if (!strcmp(g_array_index(k->flavors, kueue_flavor, i).name, name)) return (int)i;
  return -1;
}

/* Flavour entries into each node's quota array; unknown flavours reported. */
static void resolve_flavors(kctx *c) {
  scenario_kueue *k = c->k;
  guint nf = k->flavors->len;
  for (guint i = 0; i < k->nodes->len; i++) {
    kueue_quota *q = g_array_index(k->nodes, kueue_node, i).quota = g_new0(kueue_quota, MAX(nf, 1u));
    for (guint f = 0; f < MAX(nf, 1u); f++) q[f].borrow = q[f].lend = KUEUE_NO_LIMIT;
  }
  for (guint p = 0; p < c->pending->len; p++) {
    const kq_pending *pe = &g_array_index(c->pending, kq_pending, p);
    kueue_node *n = &g_array_index(k->nodes, kueue_node, pe->node);
    int f = flavor_index(k, pe->flavor);
    if (f < 0) {
      GString *names = g_string_new(NULL);
      for (guint x = 0; x < nf && names->len < 200; x++)
        g_string_append_printf(names, "%s%s", x ? ", " : "", g_array_index(k->flavors, kueue_flavor, x).name);
      diag_add(c->d, c->file, pe->q.line, pe->q.col, "%s %s: unknown flavour '%s': no "
               "ResourceFlavor of that name (defined: %s)", n->is_cq ? "ClusterQueue"
               : "Cohort", n->name, pe->flavor, nf ? names->str : "none");
      g_string_free(names, TRUE);
    } else if (n->quota[f].listed) {
      diag_add(c->d, c->file, pe->q.line, pe->q.col, "%s: flavour '%s' listed twice", n->name,
               pe->flavor);
    } else {
      n->quota[f] = pe->q;
      if (pe->q.borrow != KUEUE_NO_LIMIT && g_ptr_array_index(c->cq_cohort, pe->node) == NULL)
        diag_add(c->d, c->file, pe->q.line, pe->q.col, "%s: flavour '%s' has a borrowingLimit "
                 "but %s is in no cohort (Kueue refuses it)", n->name, pe->flavor, n->name);
    }
  }
}

/* Cohort names into parent links (implicit Cohorts created), then cycles. */
static void resolve_tree(kctx *c) {
  scenario_kueue *k = c->k;
  for (guint i = 0; i < k->nodes->len; i++) {
    const scenario_yaml *v = g_ptr_array_index(c->cq_cohort, i);
    if (!v) continue;
    int p = node_find(c, v->text, FALSE, v, TRUE); /* may grow nodes and cq_cohort */
    kueue_node *n = &g_array_index(k->nodes, kueue_node, i);
    n->parent = p;
    n->parent_line = v->line;
    n->parent_col = v->col;
  }
  for (guint i = 0; i < k->nodes->len; i++) {
    int x = (int)i;
    for (guint steps = 0; x >= 0 && steps <= k->nodes->len; steps++)
      x = g_array_index(k->nodes, kueue_node, x).parent;
    if (x < 0) continue;
    const kueue_node *n = &g_array_index(k->nodes, kueue_node, i);
    if (n->is_cq) continue; /* reported at the cohort on the cycle */
    GString *ring = g_string_new(n->name);
    for (int y = n->parent; y != (int)i && y >= 0; y = g_array_index(k->nodes, kueue_node, y).parent) {
      g_string_append_printf(ring, " -> %s", g_array_index(k->nodes, kueue_node, y).name);
      if (ring->len > 400) break;
    }
    gboolean on_ring = FALSE, first = TRUE; /* reported once: at its first node in the file */
    for (int y = n->parent, s = 0; y >= 0 && s <= (int)k->nodes->len && !on_ring;
         y = g_array_index(k->nodes, kueue_node, y).parent, s++) {
      if (y == (int)i) on_ring = TRUE;
      else if (y < (int)i) first = FALSE;
    }
    if (on_ring && first)
      diag_add(c->d, c->file, n->parent_line, n->parent_col, "Cohort %s: cohort cycle %s -> %s",
               n->name, ring->str, n->name);
    g_string_free(ring, TRUE);
  }
  for (guint i = 0; i < k->nodes->len; i++) { /* cycles end the walk at the bound too */
    guint depth = 0;
    for (int y = g_array_index(k->nodes, kueue_node, i).parent; y >= 0 && depth <= KUEUE_MAX_DEPTH;
         y = g_array_index(k->nodes, kueue_node, y).parent)
      depth++;
    const kueue_node *n = &g_array_index(k->nodes, kueue_node, i);
    if (depth > KUEUE_MAX_DEPTH && n->is_cq)
      diag_add(c->d, c->file, n->line, n->col, "ClusterQueue %s: more than %d Cohorts above it "
               "(or a cohort cycle)", n->name, KUEUE_MAX_DEPTH);
  }
}

/* Subtree quota of every node and flavour (nominal plus what its children lend: their subtree
 * beyond what they keep) and its kept quota (Kueue's guaranteed quota: the subtree beyond
 * lendingLimit, 0 without one), deepest nodes first; the tree has no cycle. */
static void kq_tables(scenario_kueue *k, const guint *depth, guint max_depth) {
  guint nf = MAX(k->flavors->len, 1u), n = k->nodes->len;
  k->subtree = g_new0(int64_t, (gsize)n * nf);
  k->kept = g_new0(int64_t, (gsize)n * nf);
  for (guint i = 0; i < n; i++)
    for (guint f = 0; f < k->flavors->len; f++)
      k->subtree[i * nf + f] = g_array_index(k->nodes, kueue_node, i).quota[f].nominal;
  for (guint dp = max_depth + 1; dp-- > 0;)
    for (guint i = 0; i < n; i++) {
      if (depth[i] != dp) continue;
      const kueue_node *x = &g_array_index(k->nodes, kueue_node, i);
      for (guint f = 0; f < k->flavors->len; f++) {
        int64_t sub = k->subtree[i * nf + f], lend = x->quota[f].lend;
        int64_t kept = k->kept[i * nf + f] = lend == KUEUE_NO_LIMIT ? 0 : MAX(0, sub - lend);
        if (x->parent >= 0) k->subtree[(gsize)x->parent * nf + f] += sub - kept;
      }
    }
}

int64_t kueue_potential(const scenario_kueue *k, int node, int f) {
  const kueue_node *n = &g_array_index(k->nodes, kueue_node, node);
  gsize c = (gsize)node * MAX(k->flavors->len, 1u) + f;
  if (n->parent < 0) return k->subtree[c];
  int64_t avail = k->kept[c] + kueue_potential(k, n->parent, f);
  if (n->quota[f].borrow != KUEUE_NO_LIMIT) avail = MIN(avail, k->subtree[c] + n->quota[f].borrow);
  return avail;
}

/* The subtree, kept and potential tables (kueue.h) of a tree without cycles. */
static void kq_build(scenario_kueue *k) {
  guint nf = MAX(k->flavors->len, 1u), max_depth = 0;
  guint *depth = g_new0(guint, MAX(k->nodes->len, 1u));
  for (guint i = 0; i < k->nodes->len; i++) {
    for (int y = g_array_index(k->nodes, kueue_node, i).parent; y >= 0;
         y = g_array_index(k->nodes, kueue_node, y).parent)
      depth[i]++;
    max_depth = MAX(max_depth, depth[i]);
  }
  kq_tables(k, depth, max_depth);
  g_free(depth);
  k->potential = g_new0(int64_t, (gsize)k->nodes->len * nf);
  for (guint i = 0; i < k->nodes->len; i++)
    for (guint f = 0; f < k->flavors->len; f++)
      k->potential[i * nf + f] = kueue_potential(k, (int)i, (int)f);
}

/* ClusterQueues that can never admit a workload; LocalQueues naming none. */
static void check_admit(kctx *c) {
  scenario_kueue *k = c->k;
  for (guint i = 0; i < k->nodes->len; i++) {
    const kueue_node *n = &g_array_index(k->nodes, kueue_node, i);
    if (!n->is_cq) continue;
    int64_t most = 0;
    for (guint f = 0; f < k->flavors->len; f++)
      if (n->quota[f].listed) most = MAX(most, kueue_max(k, (int)i, (int)f));
    if (most == 0)
      diag_add(c->d, c->file, n->line, n->col, "ClusterQueue %s can never admit a workload: "
               "no GPU quota of its own and none to borrow in any flavour (nominalQuota, cohort, "
               "borrowingLimit)", n->name);
  }
  for (guint i = 0; i < k->locals->len; i++) {
    kueue_local *l = &g_array_index(k->locals, kueue_local, i);
    l->cq = node_find(c, l->name, TRUE, NULL, FALSE);
    if (l->cq < 0)
      diag_add(c->d, c->file, l->line, l->col, "LocalQueue of namespace '%s': ClusterQueue '%s' "
               "does not exist", l->ns, l->name);
  }
}

scenario_kueue *kueue_load(const char *within, const char *path, diag_list *d) {
  guint before = d->count;
  scenario_yaml *docs = scenario_yaml_load_all_in(within, path, d);
  if (!docs) return NULL;
  scenario_kueue *k = g_new0(scenario_kueue, 1);
  k->path = g_strdup(path);
  k->flavors = g_array_new(FALSE, TRUE, sizeof(kueue_flavor));
  k->nodes = g_array_new(FALSE, TRUE, sizeof(kueue_node));
  k->locals = g_array_new(FALSE, TRUE, sizeof(kueue_local));
  kctx c = {.d = d, .file = path, .k = k, .pending = g_array_new(FALSE, TRUE, sizeof(kq_pending)),
            .node_by_name = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL),
            .cq_cohort = g_ptr_array_new()};
  g_array_set_clear_func(c.pending, kq_pending_clear);
  for (guint i = 0; i < docs->items->len; i++) parse_object(&c, g_ptr_array_index(docs->items, i), 0);
  if (!k->n_cq)
    diag_add(d, path, 1, 1, "no ClusterQueue (kueue.x-k8s.io) in the file: nothing to admit by");
  resolve_tree(&c); /* first: implicit Cohorts get their quota arrays too */
  resolve_flavors(&c);
  if (d->count == before) { /* a tree without cycles: its tables, then what it admits */
    kq_build(k);
    check_admit(&c);
  }
  g_array_unref(c.pending);
  g_hash_table_destroy(c.node_by_name);
  g_ptr_array_unref(c.cq_cohort);
  scenario_yaml_free(docs);
  if (d->count != before) {
    kueue_free(k);
    return NULL;
  }
  return k;
}

int64_t kueue_max(const scenario_kueue *k, int node, int f) {
  return k->potential[(gsize)node * MAX(k->flavors->len, 1u) + f];
}

/* `flavors:` FLAVOR -> POOL, else the pool of the flavour's name. */
static void bind_pools(diag_list *d, const char *file, scenario_kueue *k, const scenario_yaml *map,
                       int (*pool_index)(const void *, const char *), const void *ctx) {
  for (guint i = 0; i < k->flavors->len; i++) {
    kueue_flavor *f = &g_array_index(k->flavors, kueue_flavor, i);
    f->pool = pool_index(ctx, f->name);
    if (f->pool >= 0) f->pool_name = g_strdup(f->name);
  }
  if (!map) return;
  for (guint i = 0; i + 1 < map->items->len; i += 2) {
    const scenario_yaml *key = g_ptr_array_index(map->items, i), *v = g_ptr_array_index(map->items, i + 1);
    int f = flavor_index(k, key->text);
    if (f < 0) {
      scenario_yaml_report(d, file, key, "kueue.flavors: unknown flavour '%s': no ResourceFlavor "
                           "of that name in %s", key->text, k->path);
      continue;
    }
    int p = v->type == SCENARIO_YAML_SCALAR ? pool_index(ctx, v->text) : -1;
    if (p < 0) scenario_yaml_expected(d, file, v, "kueue.flavors", "a pool's name");
    kueue_flavor *fl = &g_array_index(k->flavors, kueue_flavor, f);
    fl->pool = p;
    g_free(fl->pool_name);
    fl->pool_name = p >= 0 ? g_strdup(v->text) : NULL;
  }
}

const scenario_yaml *kueue_value(diag_list *d, const char *file, const scenario_yaml *n,
                                 const scenario_yaml **flavors) {
  const scenario_yaml *path = n;
  *flavors = NULL;
  if (n->type == SCENARIO_YAML_MAP) {
    scenario_yaml_check_keys(d, file, n, "kueue", kueue_value_keys);
    path = scenario_yaml_get(n, "file");
    const scenario_yaml *map = scenario_yaml_get(n, "flavors");
    if (map && map->type != SCENARIO_YAML_MAP)
      scenario_yaml_expected(d, file, map, "kueue.flavors", "a mapping FLAVOR: POOL");
    else *flavors = map;
  }
  if (!path || path->type != SCENARIO_YAML_SCALAR || !path->text[0]) {
    scenario_yaml_expected(d, file, path ? path : n, "kueue", "a path to Kueue's objects, or "
                           "{file: PATH, flavors: {FLAVOR: POOL}}");
    return NULL;
  }
  return path;
}

scenario_kueue *kueue_parse(diag_list *d, const char *file, const char *within,
                            const char *resolved, const scenario_yaml *flavors,
                            int (*pool_index)(const void *, const char *), const void *ctx) {
  scenario_kueue *k = kueue_load(within, resolved, d);
  if (!k) return NULL;
  guint before = d->count;
  bind_pools(d, file, k, flavors, pool_index, ctx);
  if (d->count != before) {
    kueue_free(k);
    return NULL;
  }
  return k;
}

int kueue_tenant_cq(const scenario_kueue *k, const char *tenant) {
  for (guint i = 0; i < k->locals->len; i++) {
    const kueue_local *l = &g_array_index(k->locals, kueue_local, i);
    if (!strcmp(l->ns, tenant)) return l->cq;
  }
  return -1;
}

int kueue_pool_flavor(const scenario_kueue *k, int pi) {
  for (guint i = 0; i < k->flavors->len; i++)
    if (g_array_index(k->flavors, kueue_flavor, i).pool == pi) return (int)i;
  return -1;
}

/* A ClusterQueue's spec.preemption for `check`, where it preempts. */
static void describe_preemption(GString *out, const kueue_node *n) {
  static const char *const names[] = {"Never", "LowerPriority", "LowerOrNewerEqualPriority", "Any"};
  if (n->within != KUEUE_PREEMPT_NEVER)
    g_string_append_printf(out, ", withinClusterQueue %s", names[n->within]);
  if (n->reclaim != KUEUE_PREEMPT_NEVER)
    g_string_append_printf(out, ", reclaimWithinCohort %s", names[n->reclaim]);
  if (n->borrow_within != KUEUE_PREEMPT_NEVER) {
    g_string_append(out, ", borrowWithinCohort LowerPriority");
    if (n->borrow_max_set) g_string_append_printf(out, " (maxPriorityThreshold %d)", n->borrow_max);
  }
}

void kueue_describe(GString *out, const scenario_kueue *k) {
  g_string_append_printf(out, "  quotas (Kueue, %s): %u ClusterQueue%s\n", k->path, k->n_cq,
                         k->n_cq == 1 ? "" : "s");
  for (guint i = 0; i < k->nodes->len; i++) {
    const kueue_node *n = &g_array_index(k->nodes, kueue_node, i);
    g_string_append_printf(out, "    %s %s", n->is_cq ? "ClusterQueue" : "Cohort", n->name);
    if (n->parent >= 0)
      g_string_append_printf(out, " in cohort %s", g_array_index(k->nodes, kueue_node, n->parent).name);
    if (n->is_cq)
      g_string_append(out, n->strategy == KUEUE_STRICT_FIFO ? ", StrictFIFO" : ", BestEffortFIFO");
    if (n->is_cq) describe_preemption(out, n);
    if (n->weight != 1.0) g_string_append_printf(out, ", fair sharing weight %g", n->weight);
    for (guint f = 0; f < k->flavors->len; f++) {
      const kueue_quota *q = &n->quota[f];
      if (!q->listed) continue;
      const kueue_flavor *fl = &g_array_index(k->flavors, kueue_flavor, f);
      g_string_append_printf(out, "; %s (pool %s): nominal %" G_GINT64_FORMAT, fl->name,
                             fl->pool_name ? fl->pool_name : "none", q->nominal);
      if (q->borrow != KUEUE_NO_LIMIT) g_string_append_printf(out, ", borrowing limit %" G_GINT64_FORMAT, q->borrow);
      if (q->lend != KUEUE_NO_LIMIT) g_string_append_printf(out, ", lending limit %" G_GINT64_FORMAT, q->lend);
      if (n->is_cq) g_string_append_printf(out, ", at most %" G_GINT64_FORMAT, kueue_max(k, (int)i, (int)f));
    }
    g_string_append_c(out, '\n');
  }
  for (guint i = 0; i < k->locals->len; i++) {
    const kueue_local *l = &g_array_index(k->locals, kueue_local, i);
    g_string_append_printf(out, "    tenant %s -> ClusterQueue %s\n", l->ns, l->name);
  }
}
