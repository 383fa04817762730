/* place-dot-product.c: dot product (Tetris, Grandl et al., SIGCOMM '14, as the FGD paper's
 * DotProd baseline): the node whose free (CPU, GPU) vector has the smallest dot product with
 * the request's, both normalised by the pool's largest node; the fullest fitting GPU. */
#include "place.h"

static int64_t dot_product_score(const place_ctx *c, const place_node *n, const place_req *r) {
  double dot = 0;
  if (c->max_cpu > 0 && n->cpu_cap)
    dot += ((double)n->cpu_left / (double)c->max_cpu) * ((double)r->cpu / (double)c->max_cpu);
  if (c->max_gpu_milli > 0) {
    double g = (double)c->max_gpu_milli;
    dot += ((double)place_node_free_milli(n) / g) * ((double)r->milli * r->gpus / g);
  }
  return (int64_t)(100.0 * (1.0 - dot / 2.0)); /* integer 0..100 as the reference simulator */
}

const place_ops place_dot_product_ops = {
    .input = {.name = "dot-product",
              .description = "the node whose free (CPU, GPU) has the smallest dot product with "
                             "the request (Tetris), then its fullest GPU"},
    .score = dot_product_score,
    .gpus = place_gpus_best,
    .cacheable = TRUE,
};
