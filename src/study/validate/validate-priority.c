/* validate-priority.c: priorities and preemption (docs/models.md "Priorities and
 * preemption") against queueing theory, through the simulator on generated traces: the
 * preemptive-resume priority M/M/1 and M/M/2 (per-class mean response times) and Cobham's
 * non-preemptive priority M/M/c (per-class mean waits). A whole-GPU pool of c GPUs whose
 * batch jobs need one GPU for an exponential `duration_s` is an M/M/c server; victims that
 * keep their work (checkpoint_on_termination, no grace period) make it preemptive-resume. */
#include "validate.h"
#include "mmc.h"
#include "rng.h"
#include <math.h>

#define P_SOURCE "priority queues (Cobham 1954; Kleinrock 1976, Queueing Systems vol. 2)"
#define P_CLASSES 3
#define P_JOBS 500000 /* per run: about 2 s, a standard error well under 1 % */
#define P_POOL                                                                              \
  "name: %s\nseed: 5\nmax_restarts: 1000000\npools:\n  - name: p\n    gpu: A100-80GB\n"     \
  "    nodes: 1\n    gpus_per_node: %u\n    strategy: exclusive\npriority_classes:\n"       \
  "  - {name: c1, value: 300, preemption_policy: %s}\n"                                     \
  "  - {name: c2, value: 200, preemption_policy: %s}\n"                                     \
  "  - {name: c3, value: 100, preemption_policy: %s}\n"                                     \
  "priority_rules:\n  - {tenant: c1, priority_class: c1}\n"                                 \
  "  - {tenant: c2, priority_class: c2}\n  - {tenant: c3, priority_class: c3}\n"            \
  "preemption: {termination_grace_period: 0s, checkpoint_on_termination: true}\n"

/* A trace of n one-GPU batch jobs: Poisson arrivals of rate lambda[k] per class (tenant
 * cK), exponential durations of mean 1 s, from one seeded stream. */
static char *p_trace(const double *lambda, guint n) {
  g_autoptr(GString) csv = g_string_new("id,submit_s,kind,gpus,mem_gb,duration_s,tenant\n");
  gsl_rng *r = rng_new(7, "validate-priority", 0);
  double total = 0, t = 0;
  for (guint k = 0; k < P_CLASSES; k++) total += lambda[k];
  for (guint i = 0; i < n; i++) {
    t += rng_exponential(r, 1.0 / total);
    double u = gsl_rng_uniform(r) * total, acc = 0;
    guint k = 0;
    while (k + 1 < P_CLASSES && u >= (acc += lambda[k])) k++;
    g_string_append_printf(csv, "j%u,%.9f,batch,1,1,%.9f,c%u\n", i, t,
                           rng_exponential(r, 1.0), k + 1);
  }
  gsl_rng_free(r);
  return g_string_free(g_steal_pointer(&csv), FALSE);
}

/* Mean response (end - submit) or wait of each class's completed jobs. */
static void p_means(const results *r, gboolean wait, double *mean) {
  double sum[P_CLASSES] = {0};
  guint n[P_CLASSES] = {0};
  for (guint i = 0; i < r->jobs->len; i++) {
    const job_result *j = &g_array_index(r->jobs, job_result, i);
    guint k = (guint)(j->tenant[1] - '1');
    if (j->outcome != OUTCOME_COMPLETED || k >= P_CLASSES) continue;
    sum[k] += wait ? j->wait_s : j->end_s - j->submit_s;
    n[k]++;
  }
  for (guint k = 0; k < P_CLASSES; k++) mean[k] = n[k] ? sum[k] / n[k] : NAN;
}

static results *p_run(validate_ctx *c, const char *name, guint gpus, const char *policy,
                      const double *lambda, guint n, GError **error) {
  g_autofree char *yaml = g_strdup_printf(P_POOL, name, gpus, policy, policy, policy);
  g_autofree char *csv = p_trace(lambda, n);
  return validate_sim(c, name, yaml, csv, NULL, error);
}

/* Preemptive-resume M/M/1, mu = 1: T_k = (1/mu)/(1 - s_{k-1}) + R_k/((1 - s_{k-1})(1 - s_k)),
 * R_k = sum_{i<=k} lambda_i / mu^2, s_k = sum_{i<=k} rho_i. */
static gboolean p_mm1(validate_ctx *c, GError **error) {
  const double lambda[P_CLASSES] = {0.15, 0.15, 0.15};
  results *r = p_run(c, "priority-mm1", 1, "PreemptLowerPriority", lambda, P_JOBS, error);
  if (!r) return FALSE;
  double sim[P_CLASSES], s_prev = 0, s = 0, R = 0;
  p_means(r, FALSE, sim);
  for (guint k = 0; k < P_CLASSES; k++) {
    s += lambda[k];
    R += lambda[k];
    double t = 1.0 / (1 - s_prev) + R / ((1 - s_prev) * (1 - s));
    g_autofree char *id = g_strdup_printf("priority.mm1.preemptive.c%u", k + 1);
    g_autofree char *what = g_strdup_printf(
        "preemptive-resume M/M/1, 3 classes at rho 0.15 each: class %u mean response (s)", k + 1);
    validate_rel(c, id, P_SOURCE, what, t, sim[k], 0.02);
    s_prev = s;
  }
  results_free(r);
  return TRUE;
}

/* Preemptive M/M/2, mu = 1: classes 1..k see an M/M/2 queue of their summed rate, so
 * T_k = (L(Lk) - L(Lk-1)) / lambda_k with L(L) = L x the M/M/2 mean sojourn at rate L. */
static gboolean p_mm2(validate_ctx *c, GError **error) {
  const double lambda[P_CLASSES] = {0.3, 0.3, 0.3};
  results *r = p_run(c, "priority-mm2", 2, "PreemptLowerPriority", lambda, P_JOBS, error);
  if (!r) return FALSE;
  double sim[P_CLASSES], L_prev = 0, cum = 0;
  p_means(r, FALSE, sim);
  for (guint k = 0; k < P_CLASSES; k++) {
    cum += lambda[k];
    double L = cum * mmc_sojourn_mean(2, cum, 1.0);
    g_autofree char *id = g_strdup_printf("priority.mm2.preemptive.c%u", k + 1);
    g_autofree char *what = g_strdup_printf(
        "preemptive-resume M/M/2, 3 classes at rho 0.15 each: class %u mean response (s)", k + 1);
    validate_rel(c, id, P_SOURCE, what, (L - L_prev) / lambda[k], sim[k], 0.02);
    L_prev = L;
  }
  results_free(r);
  return TRUE;
}

/* Non-preemptive M/M/2 (preemption_policy Never), mu = 1, Cobham:
 * W_k = C(c, a) / (c mu) / ((1 - s_{k-1})(1 - s_k)), s_k = sum_{i<=k} lambda_i / (c mu). */
static gboolean p_mm2np(validate_ctx *c, GError **error) {
  const double lambda[P_CLASSES] = {0.3, 0.3, 0.3};
  const guint servers = 2;
  results *r = p_run(c, "priority-mm2np", servers, "Never", lambda, P_JOBS, error);
  if (!r) return FALSE;
  double sim[P_CLASSES], total = 0, s_prev = 0, s = 0;
  for (guint k = 0; k < P_CLASSES; k++) total += lambda[k];
  double w0 = mmc_erlang_c(servers, total) / servers;
  p_means(r, TRUE, sim);
  for (guint k = 0; k < P_CLASSES; k++) {
    s += lambda[k] / servers;
    g_autofree char *id = g_strdup_printf("priority.mm2.nonpreemptive.c%u", k + 1);
    g_autofree char *what = g_strdup_printf(
        "non-preemptive M/M/2, 3 classes at rho 0.15 each: class %u mean wait (s), Cobham", k + 1);
    validate_rel(c, id, P_SOURCE, what, w0 / ((1 - s_prev) * (1 - s)), sim[k], 0.02);
    s_prev = s;
  }
  results_free(r);
  return TRUE;
}

static gboolean p_family(validate_ctx *c, GError **error) {
  validate_set_kind(c, VALIDATE_ANALYTIC); /* the closed forms */
  return p_mm1(c, error) && p_mm2(c, error) && p_mm2np(c, error);
}

const validate_family validate_priority_family = {
    .name = "priority",
    .summary = "priority queues with and without preemption against the closed forms",
    .run = p_family,
};
