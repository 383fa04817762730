/* priority.c: the scenario's priority classes, the rules that give jobs a class, and the
 * preemption settings (priority.h), read and checked with file:line:column; and the class of
 * a job. It owns these keys; which running jobs a waiting one evicts is the simulator's
 * (src/sim/preempt.c). */
#include "priority.h"
#include "scenario-yaml.h"
#include <math.h>
#include <string.h>

/* The keys this module owns (tests/check-keys.sh: spelt nowhere else in src/input, src/sim). */
const scenario_key priority_key_classes = {
    "priority_classes", "none", "the priority classes: name, value, preemption_policy, "
    "global_default", NULL};
const scenario_key priority_key_rules = {
    "priority_rules", "none", "which jobs get which class: {tenant, kind, label, "
    "priority_class}, first match wins", NULL};
const scenario_key priority_key_preemption = {
    "preemption", "none", "termination_grace_period and checkpoint_on_termination", NULL};
const scenario_key priority_key_policy = {
    "preemption_policy", "PreemptLowerPriority", "PreemptLowerPriority or Never", NULL};
const scenario_key priority_key_global_default = {
    "global_default", "false", "the class of jobs no rule matches", NULL};
const scenario_key priority_key_class_ref = {
    "priority_class", NULL, "a rule's class, by name", NULL};
const scenario_key priority_key_grace = {
    "termination_grace_period", "30s", "how long a victim keeps its GPUs after preemption",
    NULL};
const scenario_key priority_key_ckpt = {
    "checkpoint_on_termination", "false", "a victim saves its work before it stops", NULL};

static const char *const policy_names[] = {"PreemptLowerPriority", "Never", NULL};

const char *priority_policy_name(preemption_policy p) {
  return p == PREEMPT_NEVER ? policy_names[1] : policy_names[0];
}

const scenario_key *const priority_top_keys[] = {&priority_key_classes, &priority_key_rules,
                                                  &priority_key_preemption, NULL};

static const char *const class_keys[] = {"name", "value", "preemption_policy", "global_default",
                                         "description", NULL}; /* not a key: see below */
static const char *const rule_keys[] = {"tenant", "kind", "label", "priority_class", NULL};
static const char *const preemption_keys[] = {"termination_grace_period",
                                              "checkpoint_on_termination", NULL};

static void class_clear(gpointer data) { g_free(((priority_class *)data)->name); }

static void rule_clear(gpointer data) {
  priority_rule *r = data;
  g_free(r->tenant);
  g_free(r->label);
}

void priority_free(scenario_priority *p) {
  if (!p) return;
  g_array_unref(p->classes);
  g_array_unref(p->rules);
  g_free(p);
}

static int class_index(const scenario_priority *p, const char *name) {
  for (guint i = 0; i < p->classes->len; i++)
    if (!strcmp(g_array_index(p->classes, priority_class, i).name, name)) return (int)i;
  return -1;
}

static char *class_names(const scenario_priority *p) {
  GString *s = g_string_new(NULL);
  for (guint i = 0; i < p->classes->len; i++)
    g_string_append_printf(s, "%s%s", i ? ", " : "", g_array_index(p->classes, priority_class, i).name);
  if (!s->len) g_string_assign(s, "none");
  return g_string_free(s, FALSE);
}

/* One class of priority_classes (item i, 1-based in messages). */
static void parse_class(diag_list *d, const char *file, const scenario_yaml *m, guint i,
                        scenario_priority *p) {
  char prefix[48], w[96];
  g_snprintf(prefix, sizeof prefix, "%s[%u]", priority_key_classes.name, i);
  if (m->type != SCENARIO_YAML_MAP) {
    scenario_yaml_expected(d, file, m, prefix, "a class mapping, e.g. {name: production, "
                           "value: 1000, preemption_policy: PreemptLowerPriority}");
    return;
  }
  scenario_yaml_check_keys(d, file, m, prefix, class_keys);
  priority_class c = {.line = m->line};
  const scenario_yaml *v;
  gboolean ok = TRUE;
  if (!(v = scenario_yaml_get(m, "name"))) {
    scenario_yaml_report(d, file, m, "%s: missing required key 'name'", prefix);
    ok = FALSE;
  } else if (v->type != SCENARIO_YAML_SCALAR || !util_name_is_safe(v->text)) {
    g_snprintf(w, sizeof w, "%s.name", prefix);
    scenario_yaml_expected(d, file, v, w, "a name of 1 to 64 characters from A-Z a-z 0-9 . _ -");
    ok = FALSE;
  } else if (class_index(p, v->text) >= 0) {
    scenario_yaml_report(d, file, v, "%s.name: class '%s' is defined twice", prefix, v->text);
    ok = FALSE;
  }
  const scenario_yaml *name = v;
  int64_t value = 0;
  g_snprintf(w, sizeof w, "%s.value", prefix);
  if (!(v = scenario_yaml_get(m, "value"))) {
    scenario_yaml_report(d, file, m, "%s: missing required key 'value'", prefix);
    ok = FALSE;
  } else if (!scenario_yaml_int(d, file, v, w, -2147483648LL, 1000000000LL, &value)) {
    ok = FALSE;
  }
  c.value = (int32_t)value;
  int pol = 0;
  g_snprintf(w, sizeof w, "%s.%s", prefix, priority_key_policy.name);
  if ((v = scenario_yaml_get(m, priority_key_policy.name))) {
    if (v->type == SCENARIO_YAML_SCALAR && !strcmp(v->text, policy_names[1])) pol = 1;
    else if (!(v->type == SCENARIO_YAML_SCALAR && !strcmp(v->text, policy_names[0]))) {
      scenario_yaml_expected(d, file, v, w, "one of PreemptLowerPriority | Never");
      ok = FALSE;
    }
  }
  c.policy = (preemption_policy)pol;
  g_snprintf(w, sizeof w, "%s.%s", prefix, priority_key_global_default.name);
  if ((v = scenario_yaml_get(m, priority_key_global_default.name)) &&
      scenario_yaml_bool(d, file, v, w, &c.global_default) && c.global_default &&
      p->default_class >= 0) {
    scenario_yaml_report(d, file, v, "%s: a second global default (the first is '%s')", w,
                         g_array_index(p->classes, priority_class, p->default_class).name);
    ok = FALSE;
  }
  if (!ok) return;
  c.name = g_strdup(name->text);
  if (c.global_default) p->default_class = (int)p->classes->len;
  g_array_append_val(p->classes, c);
}

static char *kind_list(void) {
  GString *s = g_string_new(NULL);
  for (int k = 0; k < JOB_KIND_COUNT; k++)
    g_string_append_printf(s, "%s%s", k ? ", " : "", job_kind_name((job_kind)k));
  return g_string_free(s, FALSE);
}

/* One rule of priority_rules (item i, 1-based in messages). */
static void parse_rule(diag_list *d, const char *file, const scenario_yaml *m, guint i,
                       scenario_priority *p) {
  char prefix[48], w[96];
  g_snprintf(prefix, sizeof prefix, "%s[%u]", priority_key_rules.name, i);
  if (m->type != SCENARIO_YAML_MAP) {
    scenario_yaml_expected(d, file, m, prefix,
                           "a rule mapping, e.g. {tenant: research, priority_class: low}");
    return;
  }
  scenario_yaml_check_keys(d, file, m, prefix, rule_keys);
  priority_rule r = {.line = m->line, .kind = -1};
  const scenario_yaml *v;
  gboolean ok = TRUE;
  if ((v = scenario_yaml_get(m, "kind"))) {
    job_kind k;
    if (v->type == SCENARIO_YAML_SCALAR && job_kind_parse(v->text, &k)) {
      r.kind = (int)k;
    } else {
      g_autofree char *list = kind_list();
      g_autofree char *exp = g_strdup_printf("a job kind (one of: %s)", list);
      g_snprintf(w, sizeof w, "%s.kind", prefix);
      scenario_yaml_expected(d, file, v, w, exp);
      ok = FALSE;
    }
  }
  g_snprintf(w, sizeof w, "%s.tenant", prefix);
  if ((v = scenario_yaml_get(m, "tenant")) && scenario_yaml_scalar(d, file, v, w, "a tenant"))
    r.tenant = g_strdup(v->text);
  g_snprintf(w, sizeof w, "%s.label", prefix);
  if ((v = scenario_yaml_get(m, "label")) && scenario_yaml_scalar(d, file, v, w, "a label"))
    r.label = g_strdup(v->text);
  g_snprintf(w, sizeof w, "%s.%s", prefix, priority_key_class_ref.name);
  g_autofree char *names = class_names(p);
  if (!(v = scenario_yaml_get(m, priority_key_class_ref.name))) {
    scenario_yaml_report(d, file, m, "%s: missing required key '%s' (classes: %s)", prefix,
                         priority_key_class_ref.name, names);
    ok = FALSE;
  } else {
    int ci = v->type == SCENARIO_YAML_SCALAR ? class_index(p, v->text) : -1;
    if (ci < 0) {
      g_autofree char *exp = g_strdup_printf("the name of a priority class (one of: %s)", names);
      scenario_yaml_expected(d, file, v, w, exp);
      ok = FALSE;
    }
    r.cls = (guint)MAX(ci, 0);
  }
  if (ok) g_array_append_val(p->rules, r);
  else rule_clear(&r);
}

static void parse_preemption(diag_list *d, const char *file, const scenario_yaml *n,
                             scenario_priority *p) {
  const char *what = priority_key_preemption.name;
  if (n->type != SCENARIO_YAML_MAP) {
    scenario_yaml_expected(d, file, n, what, "a mapping, e.g. {termination_grace_period: 30s}");
    return;
  }
  scenario_yaml_check_keys(d, file, n, what, preemption_keys);
  const scenario_yaml *v;
  char w[96];
  g_snprintf(w, sizeof w, "%s.%s", what, priority_key_grace.name);
  sim_time ns;
  if ((v = scenario_yaml_get(n, priority_key_grace.name))) {
    if (v->type == SCENARIO_YAML_SCALAR && util_parse_duration(v->text, 0, &ns, NULL) &&
        ns >= 0 && ns <= 86400 * SIM_NS_PER_S)
      p->grace_ns = ns;
    else
      scenario_yaml_expected(d, file, v, w, "a duration with a unit from 0s to 1d (e.g. 30s)");
  }
  g_snprintf(w, sizeof w, "%s.%s", what, priority_key_ckpt.name);
  if ((v = scenario_yaml_get(n, priority_key_ckpt.name)))
    scenario_yaml_bool(d, file, v, w, &p->checkpoint_on_termination);
}

static void parse_list(diag_list *d, const char *file, const scenario_yaml *n, const char *what,
                       const char *example, scenario_priority *p,
                       void (*item)(diag_list *, const char *, const scenario_yaml *, guint,
                                    scenario_priority *)) {
  if (n->type != SCENARIO_YAML_SEQ) {
    scenario_yaml_expected(d, file, n, what, example);
    return;
  }
  for (guint i = 0; i < n->items->len; i++) item(d, file, g_ptr_array_index(n->items, i), i + 1, p);
}

scenario_priority *priority_parse(diag_list *d, const char *file, const scenario_yaml *classes,
                                  const scenario_yaml *rules, const scenario_yaml *preemption) {
  if (!classes && !rules && !preemption) return NULL;
  scenario_priority *p = g_new0(scenario_priority, 1);
  p->classes = g_array_new(FALSE, TRUE, sizeof(priority_class));
  g_array_set_clear_func(p->classes, class_clear);
  p->rules = g_array_new(FALSE, TRUE, sizeof(priority_rule));
  g_array_set_clear_func(p->rules, rule_clear);
  p->default_class = -1;
  p->grace_ns = PRIORITY_DEFAULT_GRACE_NS;
  if (classes)
    parse_list(d, file, classes, priority_key_classes.name,
               "a list of classes, e.g. [{name: production, value: 1000}]", p, parse_class);
  if (rules)
    parse_list(d, file, rules, priority_key_rules.name,
               "a list of rules, e.g. [{tenant: research, priority_class: low}]", p, parse_rule);
  if (preemption) parse_preemption(d, file, preemption, p);
  /* jobs no rule matches and with no global default get PreemptLowerPriority */
  p->preempts = p->default_class < 0;
  for (guint i = 0; i < p->classes->len; i++)
    if (g_array_index(p->classes, priority_class, i).policy == PREEMPT_LOWER_PRIORITY)
      p->preempts = TRUE;
  return p;
}

static gboolean rule_matches(const priority_rule *r, const job_spec *j) {
  return (r->kind < 0 || r->kind == (int)j->kind) && (!r->tenant || !strcmp(r->tenant, j->tenant)) &&
         (!r->label || !strcmp(r->label, j->label));
}

void priority_resolve(const scenario_priority *p, const job_spec *j, int32_t *value,
                      preemption_policy *policy) {
  int cls = p->default_class;
  for (guint i = 0; i < p->rules->len; i++) {
    const priority_rule *r = &g_array_index(p->rules, priority_rule, i);
    if (rule_matches(r, j)) {
      cls = (int)r->cls;
      break;
    }
  }
  *value = j->priority;
  *policy = PREEMPT_LOWER_PRIORITY;
  if (cls < 0) return;
  const priority_class *c = &g_array_index(p->classes, priority_class, cls);
  if (!j->priority) *value = c->value;
  *policy = c->policy;
}

void priority_describe(GString *out, const scenario_priority *p) {
  for (guint i = 0; i < p->classes->len; i++) {
    const priority_class *c = &g_array_index(p->classes, priority_class, i);
    g_string_append_printf(out, "  priority class %s: value %d, %s%s\n", c->name, c->value,
                           priority_policy_name(c->policy),
                           c->global_default ? ", global default" : "");
  }
  g_autofree char *grace = g_strdup_printf("%g", (double)p->grace_ns / 1e9);
  g_string_append_printf(out, "  preemption: %s; termination grace period %s s%s\n",
                         p->preempts ? "on" : "off (every class is Never)", grace,
                         p->checkpoint_on_termination ? ", checkpoint on termination" : "");
}
