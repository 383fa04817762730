/* scenario-requirements.c: the `requirements:` and `purchase:` sections of a scenario (what
 * `sharesim plan` must meet and may buy), their keys declared here, and the trust rules
 * (which sharing strategies each trust level allows). The simulator never reads them;
 * the plan's search and judging are src/study/studies/plan.c's. */
#include "scenario.h"
#include "scenario-yaml.h"
#include "util.h"
#include <math.h>
#include <string.h>

/* The keys of a rule and of a purchase entry that are this file's own (the match keys and
 * gpu, gpus_per_node, price are spelt as routing's and the pools' are). */
static const scenario_key req_key_trust = {
    "trust", "org", "who may share a device with whom: team, org or untrusted", NULL};
static const scenario_key req_key_mechanisms = {
    "mechanisms", "all the trust allows", "the sharing strategies plan may choose", NULL};
static const scenario_key req_key_min_slo = {
    "min_slo_attainment", NULL, "every service's SLO attainment at least this (0..1)", NULL};
static const scenario_key req_key_max_wait = {
    "max_wait_p95", NULL, "the class's 95th-percentile queue wait at most this", NULL};
static const scenario_key req_key_max_slowdown = {
    "max_slowdown", NULL, "the class's 95th-percentile slowdown at most this (>= 1)", NULL};
static const scenario_key req_key_max_oom = {
    "max_oom_kills", NULL, "out-of-memory kills at most this", NULL};
static const scenario_key req_key_max_victims = {
    "max_innocent_victims", "0", "jobs killed for a neighbour's fault at most this", NULL};
static const scenario_key req_key_max_gpus = {
    "max_gpus", NULL, "most GPUs of the model one pool may have", NULL};

const req_rule REQ_DEFAULT_RULE = {.kind = -1, .trust = REQ_TRUST_ORG, .min_slo = NAN,
                                   .max_wait_p95_s = NAN, .max_slowdown = NAN, .max_oom = -1,
                                   .max_victims = 0};

static const char *const trust_names[REQ_TRUST_COUNT] = {"team", "org", "untrusted"};
/* What each level allows (NULL-terminated); team allows every strategy. */
static const char *const trust_org[] = {"exclusive", "time-slicing", "fractional", "mig",
                                        "vgpu", NULL};
static const char *const trust_untrusted[] = {"exclusive", "mig", "vgpu", NULL};

const char *requirements_trust_name(req_trust t) {
  return t < REQ_TRUST_COUNT ? trust_names[t] : "?";
}

gboolean requirements_trust_allows(req_trust trust, const char *strategy) {
  if (trust == REQ_TRUST_TEAM) return TRUE;
  const char *const *list = trust == REQ_TRUST_ORG ? trust_org : trust_untrusted;
  for (guint i = 0; list[i]; i++)
    if (!strcmp(list[i], strategy)) return TRUE;
  return FALSE;
}

gboolean requirements_rule_allows(const req_rule *rule, const char *strategy) {
  if (!requirements_trust_allows(rule->trust, strategy)) return FALSE;
  if (!rule->mechanisms) return TRUE;
  for (guint i = 0; i < rule->mechanisms->len; i++)
    if (!strcmp(g_ptr_array_index(rule->mechanisms, i), strategy)) return TRUE;
  return FALSE;
}

static scenario_requirements *req_get(scenario_requirements **r) {
  if (!*r) {
    *r = g_new0(scenario_requirements, 1);
    (*r)->rules = g_array_new(FALSE, TRUE, sizeof(req_rule));
    (*r)->buy = g_array_new(FALSE, TRUE, sizeof(req_buy));
  }
  return *r;
}

void requirements_free(scenario_requirements *r) {
  if (!r) return;
  for (guint i = 0; i < r->rules->len; i++) {
    req_rule *u = &g_array_index(r->rules, req_rule, i);
    g_free(u->tenant);
    g_free(u->label);
    if (u->mechanisms) g_ptr_array_free(u->mechanisms, TRUE);
  }
  g_array_free(r->rules, TRUE);
  g_array_free(r->buy, TRUE);
  g_free(r);
}

/* A number in [lo, hi]; FALSE after reporting. */
static gboolean req_number(diag_list *d, const char *file, const scenario_yaml *n,
                           const char *what, const char *expected, double lo, double hi,
                           double *out) {
  double x;
  if (n->type == SCENARIO_YAML_SCALAR && util_parse_double(n->text, &x) && x >= lo && x <= hi) {
    *out = x;
    return TRUE;
  }
  scenario_yaml_expected(d, file, n, what, expected);
  return FALSE;
}

/* The mechanisms list of rule u: strategy names of the table that its trust allows. */
static void req_mechanisms(diag_list *d, const char *file, const scenario_yaml *n,
                           const char *what, req_rule *u) {
  if (n->type != SCENARIO_YAML_SEQ || !n->items->len) {
    scenario_yaml_expected(d, file, n, what, "a non-empty list of sharing strategies");
    return;
  }
  u->mechanisms = g_ptr_array_new_with_free_func(g_free);
  for (guint i = 0; i < n->items->len; i++) {
    const scenario_yaml *v = g_ptr_array_index(n->items, i);
    gboolean known = FALSE;
    for (guint s = 0; v->type == SCENARIO_YAML_SCALAR && s < scenario_strategy_count(); s++)
      known |= !strcmp(scenario_strategy_get(s)->name, v->text);
    if (!known) {
      scenario_yaml_expected(d, file, v, what, "a sharing strategy (exclusive, time-slicing, "
                                               "mps, mig, vgpu, fractional)");
    } else if (!requirements_trust_allows(u->trust, v->text)) {
      GString *e = g_string_new(NULL);
      g_string_printf(e, "a strategy trust '%s' allows (", requirements_trust_name(u->trust));
      const char *const *list = u->trust == REQ_TRUST_ORG ? trust_org : trust_untrusted;
      for (guint k = 0; list[k]; k++) g_string_append_printf(e, "%s%s", k ? ", " : "", list[k]);
      g_string_append(e, ")");
      scenario_yaml_expected(d, file, v, what, e->str);
      g_string_free(e, TRUE);
    } else {
      g_ptr_array_add(u->mechanisms, g_strdup(v->text));
    }
  }
}

/* One constraint key of a rule (k its name, v its value). */
static void req_constraint(diag_list *d, const char *file, const char *k,
                           const scenario_yaml *v, const char *what, req_rule *u) {
  double x;
  sim_time ns;
  const char *expected = NULL;
  if (!strcmp(k, req_key_min_slo.name)) {
    if (req_number(d, file, v, what, "a fraction from 0 to 1 (0.99 for 99 %)", 0, 1, &x))
      u->min_slo = x;
  } else if (!strcmp(k, req_key_max_wait.name)) {
    if (v->type == SCENARIO_YAML_SCALAR && util_parse_duration(v->text, 0, &ns, &expected) &&
        ns >= 0)
      u->max_wait_p95_s = util_ns_to_seconds(ns);
    else
      scenario_yaml_expected(d, file, v, what, expected ? expected : "a duration such as 10m");
  } else if (!strcmp(k, req_key_max_slowdown.name)) {
    if (req_number(d, file, v, what, "a slowdown from 1 to 1000000", 1, 1e6, &x))
      u->max_slowdown = x;
  } else if (!strcmp(k, req_key_max_oom.name)) {
    scenario_yaml_int(d, file, v, what, 0, INT32_MAX, &u->max_oom);
  } else if (!strcmp(k, req_key_max_victims.name)) {
    scenario_yaml_int(d, file, v, what, 0, INT32_MAX, &u->max_victims);
  }
}

/* One rule: its match keys, then trust (mechanisms are checked against the trust). */
static void req_rule_read(diag_list *d, const char *file, const scenario_yaml *n, guint index,
                          req_rule *u) {
  static const char *const keys[] = {"kind", "tenant", "label", "trust", "mechanisms",
                                     "min_slo_attainment", "max_wait_p95", "max_slowdown",
                                     "max_oom_kills", "max_innocent_victims", NULL};
  *u = REQ_DEFAULT_RULE;
  u->line = n->line;
  u->col = n->col;
  g_autofree char *where = g_strdup_printf("requirements[%u]", index + 1);
  if (n->type != SCENARIO_YAML_MAP) {
    scenario_yaml_expected(d, file, n, where, "a mapping (kind, tenant, label, trust, ...)");
    return;
  }
  scenario_yaml_check_keys(d, file, n, where, keys);
  const scenario_yaml *t = scenario_yaml_get(n, req_key_trust.name);
  g_autofree char *what_t = g_strdup_printf("%s.%s", where, req_key_trust.name);
  gboolean trust_ok = !t;
  for (int k = 0; t && k < REQ_TRUST_COUNT; k++)
    if (t->type == SCENARIO_YAML_SCALAR && !strcmp(t->text, trust_names[k])) {
      u->trust = (req_trust)k;
      trust_ok = TRUE;
    }
  if (!trust_ok) scenario_yaml_expected(d, file, t, what_t, "team, org or untrusted");
  for (guint i = 0; i + 1 < n->items->len; i += 2) {
    const scenario_yaml *kn = g_ptr_array_index(n->items, i), *v = g_ptr_array_index(n->items, i + 1);
    g_autofree char *what = g_strdup_printf("%s.%s", where, kn->text);
    job_kind jk;
    if (!strcmp(kn->text, "kind")) {
      if (v->type == SCENARIO_YAML_SCALAR && job_kind_parse(v->text, &jk)) u->kind = (int)jk;
      else scenario_yaml_expected(d, file, v, what, "a job kind (notebook, inference, training, batch)");
    } else if (!strcmp(kn->text, "tenant") || !strcmp(kn->text, "label")) {
      const char *s = scenario_yaml_scalar(d, file, v, what, "a name");
      if (s) *(!strcmp(kn->text, "tenant") ? &u->tenant : &u->label) = g_strdup(s);
    } else if (!strcmp(kn->text, req_key_mechanisms.name)) {
      if (trust_ok) req_mechanisms(d, file, v, what, u);
    } else {
      req_constraint(d, file, kn->text, v, what, u);
    }
  }
}

void requirements_read_rules(scenario_requirements **r, const char *file,
                             const scenario_yaml *n, diag_list *d) {
  scenario_requirements *req = req_get(r);
  if (n->type != SCENARIO_YAML_SEQ) {
    scenario_yaml_expected(d, file, n, "requirements", "a list of rules");
    return;
  }
  for (guint i = 0; i < n->items->len; i++) {
    req_rule u;
    req_rule_read(d, file, g_ptr_array_index(n->items, i), i, &u);
    g_array_append_val(req->rules, u);
  }
}

/* One purchase entry. */
static void req_buy_read(diag_list *d, const char *file, const scenario_yaml *n, guint index,
                         req_buy *b) {
  static const char *const keys[] = {"gpu", "max_gpus", "gpus_per_node", "price", NULL};
  *b = (req_buy){.price = NAN, .gpus_per_node = 8, .line = n->line, .col = n->col};
  g_autofree char *where = g_strdup_printf("purchase[%u]", index + 1);
  if (n->type != SCENARIO_YAML_MAP) {
    scenario_yaml_expected(d, file, n, where, "a mapping (gpu, max_gpus, gpus_per_node, price)");
    return;
  }
  scenario_yaml_check_keys(d, file, n, where, keys);
  g_autofree char *w_gpu = g_strdup_printf("%s.gpu", where);
  g_autofree char *w_max = g_strdup_printf("%s.%s", where, req_key_max_gpus.name);
  g_autofree char *w_gpn = g_strdup_printf("%s.gpus_per_node", where);
  g_autofree char *w_price = g_strdup_printf("%s.price", where);
  const scenario_yaml *g = scenario_yaml_get(n, "gpu"), *m = scenario_yaml_get(n, req_key_max_gpus.name);
  const scenario_yaml *gpn = scenario_yaml_get(n, "gpus_per_node"), *p = scenario_yaml_get(n, "price");
  if (!g || !m) scenario_yaml_report(d, file, n, "%s: needs 'gpu' and '%s'", where, req_key_max_gpus.name);
  if (g && !(g->type == SCENARIO_YAML_SCALAR && (b->gpu = catalog_find(g->text)))) {
    g_autofree char *names = catalog_model_names();
    g_autofree char *e = g_strdup_printf("a GPU model of the catalogue (%s)", names);
    scenario_yaml_expected(d, file, g, w_gpu, e);
  }
  gint64 x = 0;
  if (m && scenario_yaml_int(d, file, m, w_max, 1, 100000, &x)) b->max_gpus = (guint32)x;
  if (gpn && scenario_yaml_int(d, file, gpn, w_gpn, 1, 1024, &x)) b->gpus_per_node = (guint32)x;
  if (p) req_number(d, file, p, w_price, "a price above 0 and at most 1e6 ($ per GPU-hour)",
                    1e-9, 1e6, &b->price);
  if (b->max_gpus && b->gpus_per_node > b->max_gpus) b->gpus_per_node = b->max_gpus;
}

void requirements_read_purchase(scenario_requirements **r, const char *file,
                                const scenario_yaml *n, diag_list *d) {
  scenario_requirements *req = req_get(r);
  req->buy_line = n->line;
  req->buy_col = n->col;
  if (n->type != SCENARIO_YAML_SEQ || !n->items->len) {
    scenario_yaml_expected(d, file, n, "purchase", "a non-empty list of {gpu, max_gpus}");
    return;
  }
  for (guint i = 0; i < n->items->len; i++) {
    req_buy b;
    req_buy_read(d, file, g_ptr_array_index(n->items, i), i, &b);
    if (b.gpu && b.max_gpus) g_array_append_val(req->buy, b);
  }
}

const req_rule *requirements_match(const scenario_requirements *r, const job_spec *j) {
  for (guint i = 0; r && i < r->rules->len; i++) {
    const req_rule *u = &g_array_index(r->rules, req_rule, i);
    if (u->kind >= 0 && (int)j->kind != u->kind) continue;
    if (u->tenant && strcmp(u->tenant, j->tenant ? j->tenant : "default")) continue;
    if (u->label && strcmp(u->label, j->label ? j->label : "")) continue;
    return u;
  }
  return &REQ_DEFAULT_RULE;
}
