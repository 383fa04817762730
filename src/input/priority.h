/* priority.h: priority classes and preemption (docs/scenario-format.md "Priorities and
 * preemption"; docs/models.md "Priorities and preemption"): the scenario's
 * `priority_classes`, `priority_rules` and `preemption` sections, read and checked here
 * (this module owns their keys), and the class each job gets. The simulator's preemption
 * itself is src/sim/preempt.c and sim.c's. */
#pragma once
#include <glib.h>
#include <stdint.h>
#include "util.h"
#include "diag.h"
#include "job.h"
#include "scenario-yaml.h"

/* Kubernetes' PriorityClass.preemptionPolicy. */
typedef enum { PREEMPT_LOWER_PRIORITY = 0, PREEMPT_NEVER } preemption_policy;

typedef struct priority_class {
  char *name;
  guint line;
  int32_t value;                /* higher first */
  preemption_policy policy;     /* default PreemptLowerPriority */
  gboolean global_default;      /* the class of jobs no rule matches (at most one) */
} priority_class;

typedef struct priority_rule {
  guint line;
  int kind;                     /* job_kind, or -1 for any */
  char *tenant, *label;         /* NULL for any */
  guint cls;                    /* index into classes */
} priority_rule;

typedef struct scenario_priority {
  GArray *classes;              /* priority_class, in file order */
  GArray *rules;                /* priority_rule, first match wins */
  int default_class;            /* global_default's index, -1 when none */
  sim_time grace_ns;            /* termination grace period; default 30 s (Kubernetes) */
  gboolean checkpoint_on_termination; /* victims save their work in the grace period */
  gboolean preempts;            /* some job may preempt: a class (or jobs without one) with
                                 * PreemptLowerPriority */
} scenario_priority;

/* Kubernetes' terminationGracePeriodSeconds default. */
#define PRIORITY_DEFAULT_GRACE_NS (30 * SIM_NS_PER_S)

/* The top-level keys this module owns, NULL-terminated (for the scenario's key list). */
extern const struct scenario_key *const priority_top_keys[];
/* Reads the three sections (any may be NULL: absent) into a new block, reporting into d;
 * returns NULL when all three are absent (the run then never preempts). */
scenario_priority *priority_parse(diag_list *d, const char *file, const scenario_yaml *classes,
                                  const scenario_yaml *rules, const scenario_yaml *preemption);
void priority_free(scenario_priority *p);
/* The priority and policy of job j: the first rule that matches names its class, else the
 * global default, else none (value 0, PreemptLowerPriority); a non-zero `priority` cell of
 * the trace keeps its value (the class still gives the policy). */
void priority_resolve(const scenario_priority *p, const job_spec *j, int32_t *value,
                      preemption_policy *policy);
/* "PreemptLowerPriority" or "Never". */
const char *priority_policy_name(preemption_policy p);
/* One line per class for `check` ("high 1000 PreemptLowerPriority (default)"), appended. */
void priority_describe(GString *out, const scenario_priority *p);
