/* validate-tally.c: the Tally artifact's co-location pairs on one A100: a latency-critical
 * server (BERT 4.05 ms or Llama-2-7B 1.98 s per request) next to a busy trainer, under plain
 * time-slicing and under MPS without limits. As Tally measured: the server at load 0.5 for
 * the trainer's throughput, and the p99 of the execution time per request (no queueing) over
 * the server alone for the latency. In the model a request's execution time does not depend
 * on the server's own load, so it is read as the latency at a load too low to queue. */
#include "validate.h"
#include <string.h>

#define T_EXCL "    strategy: exclusive\n"
#define T_TS "    strategy: time-slicing\n    replicas: 2\n"
#define T_MPS "    strategy: mps\n    replicas: 2\n    activeThreadPercentage: 100\n" \
              "    pinnedMemLimit: none\n"
#define T_HEAD "id,submit_s,kind,gpus,mem_gb,duration_s,rate_rps,service_ms,mem_util,sm\n"

typedef struct tally_server {
  const char *name;     /* "bert" */
  const char *key;      /* published key part */
  double service_ms;
  double mem_intensity;      /* memory / GPU utilisation alone, measured (nvidia-smi) */
  double sm;            /* SM share its batch-1 kernels need (0: the inference default) */
  double low_rps;       /* a load too low to queue */
  double seconds;       /* session length at the low load */
} tally_server;

static const tally_server tally_servers[] = {
    /* utilisation below 0.1 %: under 0.1 % of the requests wait, so the p99 is unqueued */
    {"bert", "bert", 0, 0, 0, 0.1, 40000},
    {"llama", "llama", 0, 0, 0, 0.0001, 30000000},
};

static char *tally_yaml(const char *name, const char *strategy) {
  return g_strdup_printf("name: %s\nseed: 3\ninterval: 1d\npools:\n  - name: p\n    gpu: A100-80GB\n"
                         "    nodes: 1\n    gpus_per_node: 1\n%s",
                         name, strategy);
}

/* The trainer's trace row: busy all the time it runs (gpu_util 1, the default), memory busy
 * for the six measured trainers' median share of that time. */
static char *tally_trainer_row(double duration_s) {
  return g_strdup_printf("trainer,0,training,1,30,%g,,,%g,\n", duration_s,
                         validate_published("tally.trainer.mem_intensity", NULL));
}

/* The server's trace row: its measured memory intensity, and its SM share when one is
 * published (the inference default otherwise). */
static char *tally_server_row(const tally_server *s, double seconds, double rps) {
  g_autofree char *sm = s->sm > 0 ? g_strdup_printf("%g", s->sm) : g_strdup("");
  return g_strdup_printf("%s,0,inference,1,14,%g,%g,%g,%g,%s\n", s->name, seconds, rps,
                         s->service_ms, s->mem_intensity, sm);
}

/* p99 of the server's latency at rate rps, alone (strategy NULL) or next to a trainer. */
static gboolean tally_p99(validate_ctx *c, const tally_server *s, const char *mech,
                          const char *strategy, double rps, double *p99, GError **error) {
  g_autofree char *name = g_strdup_printf("tally-%s-%s-%g", s->name, mech, rps);
  g_autofree char *yaml = tally_yaml(name, strategy ? strategy : T_EXCL);
  g_autofree char *trainer = tally_trainer_row(100000000);
  g_autofree char *server = tally_server_row(s, s->seconds, rps);
  g_autofree char *csv = g_strconcat(T_HEAD, server, strategy ? trainer : "", NULL);
  results *r = validate_sim(c, name, yaml, csv, NULL, error);
  if (!r) return FALSE;
  *p99 = validate_service(r, s->name)->p99_ms;
  results_free(r);
  return TRUE;
}

/* The trainer's speed next to the server at Tally's load 0.5. */
static gboolean tally_trainer(validate_ctx *c, const tally_server *s, const char *mech,
                              const char *strategy, double *speed, GError **error) {
  double load = validate_published("tally.load", NULL);
  g_autofree char *name = g_strdup_printf("tally-%s-%s-trainer", s->name, mech);
  g_autofree char *yaml = tally_yaml(name, strategy);
  double rps = load / (s->service_ms / 1000.0), horizon = MAX(600, 400 * s->service_ms / 1000);
  g_autofree char *trainer = tally_trainer_row(10000000);
  g_autofree char *server = tally_server_row(s, horizon, rps);
  g_autofree char *csv = g_strconcat(T_HEAD, server, trainer, NULL);
  g_autofree char *yaml_h = g_strdup_printf("%shorizon: %gs\n", yaml, horizon);
  results *r = validate_sim(c, name, yaml_h, csv, NULL, error);
  if (!r) return FALSE;
  const job_result *t = validate_job(r, "trainer");
  *speed = t->work_done_s / t->run_s;
  results_free(r);
  return TRUE;
}

/* BERT's rows are the ones a constant was fitted on (validate-fits.c). */
static gboolean tally_fitted(const tally_server *s) { return !strcmp(s->key, "bert"); }

static gboolean tally_mechanism(validate_ctx *c, const char *mech, const char *strategy,
                                tally_server *servers, double *ratios, GError **error) {
  double trainer_sum = 0;
  for (gsize i = 0; i < G_N_ELEMENTS(tally_servers); i++) {
    tally_server *s = &servers[i];
    double alone, shared, tr;
    if (!tally_p99(c, s, mech, NULL, s->low_rps, &alone, error) ||
        !tally_p99(c, s, mech, strategy, s->low_rps, &shared, error) ||
        !tally_trainer(c, s, mech, strategy, &tr, error))
      return FALSE;
    trainer_sum += tr;
    g_autofree char *key = g_strdup_printf("tally.%s.%s_p99", mech, s->key);
    g_autofree char *what = g_strdup_printf("%s: %s p99 execution time next to a trainer / alone", mech, s->name);
    const char *src;
    double m = validate_published(key, &src);
    ratios[i] = shared / alone;
    /* p (time-slicing) and beta (MPS) were fitted on BERT's p99s: Llama's predict */
    validate_set_kind(c, tally_fitted(s) ? VALIDATE_CALIBRATION : VALIDATE_PREDICTION);
    validate_rel(c, key, src, what, m, ratios[i], 0.20);
  }
  g_autofree char *key = g_strdup_printf("tally.%s.trainer", mech);
  g_autofree char *what = g_strdup_printf("%s: trainer throughput next to a server at load 0.5 / alone (mean)", mech);
  const char *src;
  double m = validate_published(key, &src);
  validate_set_kind(c, VALIDATE_PREDICTION);
  validate_abs(c, key, src, what, m, trainer_sum / G_N_ELEMENTS(tally_servers), 0.1);
  return TRUE;
}

static gboolean tally_family(validate_ctx *c, GError **error) {
  tally_server servers[G_N_ELEMENTS(tally_servers)];
  memcpy(servers, tally_servers, sizeof servers);
  servers[0].service_ms = validate_published("tally.bert.alone_ms", NULL);
  servers[1].service_ms = validate_published("tally.llama.alone_ms", NULL);
  /* gpu_util stays 1 (the time-slicing curve's calibration); memory busy for the measured
   * share of that time */
  servers[0].mem_intensity = validate_published("tally.bert.mem_intensity", NULL);
  servers[1].mem_intensity = validate_published("tally.llama.mem_intensity", NULL);
  servers[0].sm = validate_published_or_nan("tally.bert.sm", NULL);
  servers[1].sm = validate_published_or_nan("tally.llama.sm", NULL);
  for (gsize i = 0; i < G_N_ELEMENTS(servers); i++)
    if (!(servers[i].sm > 0)) servers[i].sm = 0;
  double ts[G_N_ELEMENTS(tally_servers)], mps[G_N_ELEMENTS(tally_servers)];
  if (!tally_mechanism(c, "ts", T_TS, servers, ts, error) ||
      !tally_mechanism(c, "mps", T_MPS, servers, mps, error))
    return FALSE;
  /* which mechanism hurts each server's tail more, as measured */
  for (gsize i = 0; i < G_N_ELEMENTS(tally_servers); i++) {
    g_autofree char *kt = g_strdup_printf("tally.ts.%s_p99", servers[i].key);
    g_autofree char *km = g_strdup_printf("tally.mps.%s_p99", servers[i].key);
    const char *src;
    gboolean mps_worse = validate_published(km, &src) > validate_published(kt, NULL);
    g_autofree char *id = g_strdup_printf("tally.rank.%s", servers[i].key);
    g_autofree char *what = g_strdup_printf("%s: %s raises the p99 more than %s, as measured", servers[i].name,
                                            mps_worse ? "MPS" : "time-slicing", mps_worse ? "time-slicing" : "MPS");
    validate_set_kind(c, tally_fitted(&servers[i]) ? VALIDATE_CALIBRATION : VALIDATE_PREDICTION);
    validate_story(c, id, src, what, (mps[i] > ts[i]) == mps_worse);
  }
  return TRUE;
}

const validate_family validate_tally_family = {
    .name = "tally",
    .summary = "a latency-critical server next to a trainer on one A100 (Tally artifact)",
    .run = tally_family,
};
