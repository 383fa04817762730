/* place-gpu-clustering.c: GPU clustering (the FGD paper's GpuClustering baseline): requests
 * of one class (a GPU share, or k whole GPUs) go where that class already runs alone, then
 * where it runs with others, then to unused nodes, then anywhere; within a tier, the node
 * with the least free GPU. The fullest fitting GPU. */
#include "place.h"

static int64_t gpu_clustering_score(const place_ctx *c, const place_node *n, const place_req *r) {
  if (!r->gpus || !n->affinity) return 0;
  guint32 cls = MIN(r->milli >= PLACE_MILLI ? r->gpus : 0u, n->n_gpus);
  guint32 classes = 0;
  for (guint32 k = 0; k <= n->n_gpus; k++) classes += n->affinity[k] > 0;
  int64_t tier;
  if (n->affinity[cls]) tier = classes == 1 ? 3 : 2;
  else tier = classes == 0 ? 1 : 0;
  int64_t maxg = c->max_gpu_milli > 0 ? c->max_gpu_milli : 1;
  /* integer arithmetic of the reference simulator: 25 x (max - free) / max within a tier */
  return 25 * tier + 25 * (maxg - place_node_free_milli(n)) / maxg;
}

const place_ops place_gpu_clustering_ops = {
    .input = {.name = "gpu-clustering",
              .description = "requests of one class (share, k whole GPUs) kept together on nodes; "
                             "fullest node within a tier, then its fullest GPU"},
    .score = gpu_clustering_score,
    .gpus = place_gpus_best,
    .cacheable = TRUE,
};
