/* validate-queueing.c: the request-level inference model on a dedicated GPU against
 * queueing theory: M/M/1 (mean and p99 of the sojourn time), M/D/1 (Pollaczek-Khinchine
 * mean) and M/M/4 (Erlang C mean and p99), each at utilisation 0.7 with Poisson arrivals.
 * The reference values are the closed forms; the predictions come from sim_run. */
#include "validate.h"
#include "mmc.h"
#include <math.h>

#define Q_SOURCE "queueing theory (Kleinrock 1975, Queueing Systems vol. 1)"
#define Q_POOL                                                                               \
  "name: %s\nseed: 11\npools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n"              \
  "    gpus_per_node: 1\n    strategy: exclusive\n%s"
#define Q_HEAD "id,submit_s,kind,gpus,mem_gb,duration_s,rate_rps,service_ms,max_batch\n"

/* One service of rate lambda (/s), 10 ms work, c slots, for hours of simulated time. */
static const service_result *q_run(validate_ctx *c, const char *name, const char *dist,
                                   double lambda, guint slots, double seconds, results **out,
                                   GError **error) {
  g_autofree char *yaml = g_strdup_printf(Q_POOL, name, dist);
  g_autofree char *csv = g_strdup_printf(Q_HEAD "svc,0,inference,1,10,%.0f,%g,10,%u\n", seconds,
                                         lambda, slots);
  *out = validate_sim(c, name, yaml, csv, NULL, error);
  return *out ? validate_service(*out, "svc") : NULL;
}

static gboolean q_family(validate_ctx *c, GError **error) {
  const char *expo = "inference: {service_dist: exponential}\n";
  double mu = 100; /* per second: 10 ms */
  results *r;
  validate_set_kind(c, VALIDATE_ANALYTIC); /* the closed forms */
  /* M/M/1 at rho 0.7: T ~ Exp(mu - lambda) */
  const service_result *s = q_run(c, "queue-mm1", expo, 70, 1, 72000, &r, error);
  if (!s) return FALSE;
  validate_rel(c, "queueing.mm1.mean", Q_SOURCE, "M/M/1 rho 0.7: mean sojourn (ms) = 1/(mu-lambda)",
               1000.0 / (mu - 70), s->mean_ms, 0.02);
  validate_rel(c, "queueing.mm1.p99", Q_SOURCE, "M/M/1 rho 0.7: p99 sojourn (ms) = ln(100)/(mu-lambda)",
               1000.0 * log(100.0) / (mu - 70), s->p99_ms, 0.05);
  results_free(r);
  /* M/D/1 at rho 0.7: Pollaczek-Khinchine T = S + rho S / (2 (1 - rho)) */
  s = q_run(c, "queue-md1", "inference: {service_dist: deterministic}\n", 70, 1, 72000, &r,
            error);
  if (!s) return FALSE;
  validate_rel(c, "queueing.md1.mean", Q_SOURCE, "M/D/1 rho 0.7: mean sojourn (ms), Pollaczek-Khinchine",
               10.0 + 0.7 * 10.0 / (2 * 0.3), s->mean_ms, 0.02);
  results_free(r);
  /* M/M/4 at rho 0.7 (max_batch 4): Erlang C */
  s = q_run(c, "queue-mm4", expo, 280, 4, 20000, &r, error);
  if (!s) return FALSE;
  validate_rel(c, "queueing.mm4.mean", Q_SOURCE, "M/M/4 rho 0.7: mean sojourn (ms), Erlang C",
               1000.0 * mmc_sojourn_mean(4, 280, mu), s->mean_ms, 0.02);
  validate_rel(c, "queueing.mm4.p99", Q_SOURCE, "M/M/4 rho 0.7: p99 sojourn (ms), Erlang C",
               1000.0 * mmc_sojourn_quantile(4, 280, mu, 0.99), s->p99_ms, 0.05);
  results_free(r);
  return TRUE;
}

const validate_family validate_queueing_family = {
    .name = "queueing",
    .summary = "M/M/1, M/D/1 and M/M/4 on a dedicated GPU against the closed forms",
    .run = q_family,
};
