/* place-gpu-packing.c: GPU packing (the FGD paper's GpuPacking baseline): a share goes first
 * onto GPUs already shared (the fuller the better), then onto free GPUs of a node already in
 * use (the fewer the better), and only then onto an unused node (the smaller the better).
 * The fullest fitting GPU. */
#include "place.h"

static int64_t gpu_packing_score(const place_ctx *c, const place_node *n, const place_req *r) {
  if (!r->gpus) return 0;
  if (n->n_full == n->n_gpus) /* an unused node: 33 - free GPUs, at least the free GPUs */
    return MAX(100 / 3 - (int64_t)n->n_full, (int64_t)n->n_full);
  /* the GPUs it would use: fitting ones, least left first (first index on ties) */
  guint32 whole = 0;
  int64_t free_pct = 0;
  gboolean *taken = g_new0(gboolean, n->n_gpus);
  for (guint32 k = 0; k < r->gpus; k++) {
    int pick = -1;
    for (guint32 i = 0; i < n->n_gpus; i++)
      if (!taken[i] && n->gpu_left[i] >= r->milli &&
          (pick < 0 || n->gpu_left[i] < n->gpu_left[pick]))
        pick = (int)i;
    if (pick < 0) break;
    taken[pick] = TRUE;
    whole += n->gpu_left[pick] == PLACE_MILLI;
    free_pct += (int64_t)n->gpu_left[pick] * 100 / PLACE_MILLI;
  }
  g_free(taken);
  if (whole) return MAX(100 / 2 - (int64_t)whole, (int64_t)(100 / 3));
  return MAX(100 - free_pct / 10, (int64_t)(100 / 2));
}

const place_ops place_gpu_packing_ops = {
    .input = {.name = "gpu-packing",
              .description = "shared GPUs first, then free GPUs on used nodes, then unused nodes; "
                             "then its fullest GPU"},
    .score = gpu_packing_score,
    .gpus = place_gpus_best,
    .cacheable = TRUE,
};
