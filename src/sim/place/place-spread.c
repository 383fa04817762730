/* place-spread.c: spread (worst fit on free GPU share): the node with the most free
 * milli-GPU, its GPU with the most left. The event simulator's pools keep their own
 * free-slot index for it (cluster.c); this row serves `fill`. */
#include "place.h"

static int64_t spread_score(const place_ctx *c, const place_node *n, const place_req *r) {
  return place_node_free_milli(n);
}

const place_ops place_spread_ops = {
    .input = {.name = "spread",
              .description = "the node with the most free GPU share (worst fit), then its "
                             "emptiest GPU"},
    .score = spread_score,
    .gpus = place_gpus_worst,
    .cacheable = TRUE,
    .slot_search = PLACE_SLOTS_MOST,
};
