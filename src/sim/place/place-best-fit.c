/* place-best-fit.c: best fit on CPU and GPU together (the FGD paper's BestFit baseline):
 * the node whose leftover after placing, summed over CPU and GPU with weight 1/2 each and
 * each normalised by the pool's largest node, is the smallest; the fullest fitting GPU. */
#include "place.h"

static int64_t best_fit_score(const place_ctx *c, const place_node *n, const place_req *r) {
  double left = 0;
  if (c->max_cpu > 0 && n->cpu_cap)
    left += 0.5 * (double)(n->cpu_left - r->cpu) / (double)c->max_cpu;
  if (c->max_gpu_milli > 0)
    left += 0.5 * (double)(place_node_free_milli(n) - (int64_t)r->milli * r->gpus) /
            (double)c->max_gpu_milli;
  return (int64_t)((1.0 - left) * 100.0); /* integer 0..100 as the reference simulator */
}

const place_ops place_best_fit_ops = {
    .input = {.name = "best-fit",
              .description = "the node with the least CPU and GPU left after placing (weights "
                             "1/2, normalised by the largest node), then its fullest GPU"},
    .score = best_fit_score,
    .gpus = place_gpus_best,
    .cacheable = TRUE,
};
