/* place-best-fit.c: best fit on CPU and GPU together (the FGD paper's BestFit baseline):
 * the node whose leftover after placing, summed over CPU and GPU with weights cpu_weight and
 * 1 - cpu_weight (1/2 each by default, as the paper) and each normalised by the pool's
 * largest node, is the smallest; the fullest fitting GPU. Owns its pool key, cpu_weight. */
#include "place.h"

/* The paper's weights: CPU and GPU alike. */
#define BEST_FIT_CPU_WEIGHT 0.5

/* The pool's own values (pool_spec.placement_conf; place_ctx.conf). */
typedef struct best_fit_conf {
  double cpu_weight;
} best_fit_conf;

static int64_t best_fit_score(const place_ctx *c, const place_node *n, const place_req *r) {
  const best_fit_conf *conf = c->conf;
  double w = conf ? conf->cpu_weight : BEST_FIT_CPU_WEIGHT;
  double left = 0;
  if (c->max_cpu > 0 && n->cpu_cap)
    left += w * (double)(n->cpu_left - r->cpu) / (double)c->max_cpu;
  if (c->max_gpu_milli > 0)
    left += (1.0 - w) * (double)(place_node_free_milli(n) - (int64_t)r->milli * r->gpus) /
            (double)c->max_gpu_milli;
  return (int64_t)((1.0 - left) * 100.0); /* integer 0..100 as the reference simulator */
}

/* ---- its pool key (scenario.h: pool_check) ---- */

static const scenario_key best_fit_key_cpu_weight = {
    "cpu_weight", "0.5", "best-fit: the weight of the CPU left over against the GPU left "
    "(which weighs 1 - it)", "0..1"};
static const scenario_key *const best_fit_keys[] = {&best_fit_key_cpu_weight, NULL};

static void best_fit_validate(pool_check *c, pool_spec *p) {
  best_fit_conf *conf = g_new0(best_fit_conf, 1);
  conf->cpu_weight = BEST_FIT_CPU_WEIGHT;
  p->placement_conf = conf;
  pool_check_number(c, best_fit_key_cpu_weight.name, "a weight from 0 to 1", 0, FALSE, 1, FALSE,
                    &conf->cpu_weight);
}

const place_ops place_best_fit_ops = {
    .input = {.name = "best-fit",
              .description = "the node with the least CPU and GPU left after placing (weights "
                             "cpu_weight and 1 - cpu_weight, normalised by the largest node), "
                             "then its fullest GPU",
              .keys = best_fit_keys,
              .validate = best_fit_validate},
    .score = best_fit_score,
    .gpus = place_gpus_best,
    .cacheable = TRUE,
};
