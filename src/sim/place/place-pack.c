/* place-pack.c: pack (best fit on free GPU share): the node with the least free milli-GPU
 * that holds the request, its GPU with the least left. The event simulator's default; its
 * pools keep their own free-slot index for it (cluster.c), this row serves `fill`. */
#include "place.h"

static int64_t pack_score(const place_ctx *c, const place_node *n, const place_req *r) {
  return -place_node_free_milli(n);
}

const place_ops place_pack_ops = {
    .input = {.name = "pack",
              .description = "the node with the least free GPU share that fits (best fit), then "
                             "its fullest GPU",
              .is_default = TRUE},
    .score = pack_score,
    .gpus = place_gpus_best,
    .cacheable = TRUE,
    .slot_search = PLACE_SLOTS_FEWEST,
};
