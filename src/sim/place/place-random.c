/* place-random.c: random: a node uniformly at random among those where the request fits,
 * and a fitting GPU uniformly at random (the FGD paper's Random baseline; the selection loop
 * draws the node, pick_random). */
#include "place.h"

static int64_t random_score(const place_ctx *c, const place_node *n, const place_req *r) {
  return 0;
}

const place_ops place_random_ops = {
    .input = {.name = "random",
              .description = "a fitting node and GPU uniformly at random"},
    .score = random_score,
    .gpus = place_gpus_random,
    .cacheable = FALSE,
    .pick_random = TRUE,
};
