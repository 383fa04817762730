/* place.h: the placement policy interface. A policy chooses, among the nodes where a request
 * fits (host CPU, host memory, GPU model, GPU shares), the node and GPUs it goes to. Each
 * place-*.c exports one const place_ops (a score per node, higher is better, and the GPUs
 * it would take there); place.c holds the table, the fit test, the shared selection loop
 * (highest score, ties to the lowest node index as the FGD reference simulator), GPU
 * choices shared by several policies, and fragmentation against a target workload
 * (Weng et al., ATC '23). Definitions and sources: docs/models.md, "Placement policies". */
#pragma once
#include <glib.h>
#include <stdint.h>
#include <gsl/gsl_rng.h>
#include "scenario.h"

#define PLACE_MILLI 1000 /* milli-GPU of a whole GPU */

/* A node as policies see it. gpu_left[i] is the milli-GPU free on GPU i; cpu_cap /
 * mem_cap 0 mean "not modelled" (never short). affinity[k] counts the GPU pods on the node
 * by class (0: a share of one GPU, k >= 1: k whole GPUs; n_gpus + 1 entries) for
 * gpu-clustering. version changes with every change of the node (score caches). */
typedef struct place_node {
  int64_t cpu_left, cpu_cap;
  int64_t mem_left, mem_cap;
  const char *model;
  guint32 n_gpus;
  int32_t *gpu_left;
  guint32 *affinity;
  guint32 n_full;            /* GPUs with gpu_left == PLACE_MILLI */
  int32_t max_left;          /* largest gpu_left */
  guint32 version;
} place_node;

/* What one pod (a job that goes onto one node) asks for. gpus 0: CPU only; milli is per
 * GPU (PLACE_MILLI for whole GPUs). type: index of the request's kind in a score cache,
 * or PLACE_NO_TYPE. */
typedef struct place_req {
  int64_t cpu, mem;
  guint32 gpus;
  int32_t milli;
  const char *spec;          /* allowed models joined by '|'; NULL or "" = any */
  guint32 type;
} place_req;
#define PLACE_NO_TYPE G_MAXUINT32

/* The target workload: the most popular request kinds covering PLACE_TARGET_SHARE of the
 * requests, with their popularity renormalised to 1 (the FGD paper's "typical pods"). */
typedef struct place_target_item {
  int64_t cpu;
  int32_t milli;
  guint32 gpus;
  const char *spec;
  double p;
} place_target_item;
typedef struct place_target {
  GArray *items;             /* place_target_item, most popular first */
  guint kinds_total;         /* distinct kinds before the cut */
} place_target;
#define PLACE_TARGET_SHARE 0.95

/* What a policy may read besides the node: the target workload (fgd), the generator for
 * random choices (random, ties), the largest node's CPU and GPUs (normalisation), and the
 * values of its own pool keys. */
typedef struct place_ctx {
  const place_target *target;
  gsl_rng *rng;
  int64_t max_cpu;           /* largest cpu_cap of the pool's nodes (0: not modelled) */
  int64_t max_gpu_milli;     /* largest n_gpus x PLACE_MILLI */
  /* the pool's placement_conf, which the policy's own validate (its input row) allocated;
   * NULL: the policy's defaults (a policy without keys, or not the pool's own: fill) */
  gconstpointer conf;
} place_ctx;

/* How the event simulator's pools place a policy (cluster.c): through place_select over
 * the nodes as the policy sees them, or with the pools' own free-slot index, searched
 * from the fewest free slots that hold the job up (pack) or from the most down (spread). */
typedef enum { PLACE_SLOTS_NONE = 0, PLACE_SLOTS_FEWEST, PLACE_SLOTS_MOST } place_slot_search;

/* One placement policy: one place-*.c, one row of place.c's table. */
typedef struct place_ops {
  /* its name ("best-fit"), description, whether pools get it by default, and its own pool
   * keys with their validate, as the scenario reader takes them (scenario.h) */
  scenario_placement input;
  /* Score of node n for r (precondition: place_fits), higher is better. */
  int64_t (*score)(const place_ctx *c, const place_node *n, const place_req *r);
  /* The r->gpus GPU indices r takes on n (called once, on the chosen node). */
  void (*gpus)(const place_ctx *c, const place_node *n, const place_req *r, guint32 *gpus_out);
  /* TRUE when score depends only on (node state, request kind): then it may be cached
   * per node and kind until the node changes. */
  gboolean cacheable;
  /* TRUE: the node is drawn uniformly among the fitting ones instead (score unused). */
  gboolean pick_random;
  /* PLACE_SLOTS_FEWEST / _MOST: the event simulator's pools use their free-slot index
   * instead (the score still serves `fill`); PLACE_SLOTS_NONE: place_select. */
  place_slot_search slot_search;
} place_ops;

/* The policy whose input row p is: p must be a row this table handed to the scenario
 * reader (place_input_row). */
const place_ops *place_for(placement_policy p);
/* The table's rows: how many, row i (i < place_count()), and row i as the scenario reader
 * takes it (scenario_use_placements; NULL past the end). The order is that of the lists
 * users see (the reader's "expected one of"), nothing more. */
guint place_count(void);
const place_ops *place_row(guint i);
const scenario_placement *place_input_row(guint i);

/* Does r fit on n now (model, CPU, memory, GPU shares)? */
gboolean place_fits(const place_node *n, const place_req *r);
/* Does model satisfy spec (NULL/"" = any; else one of its '|' alternatives)? */
gboolean place_model_ok(const char *spec, const char *model);

/* Score cache for place_select: one slot per (node, request kind). */
typedef struct place_cache {
  guint32 n_nodes, n_types;
  guint32 *version;          /* node version + 1 at which score was computed; 0 = empty */
  int64_t *score;
} place_cache;
place_cache *place_cache_new(guint32 n_nodes, guint32 n_types);
void place_cache_free(place_cache *c);

/* Chooses a node among nodes[0..n) for r: the highest score among those where it fits, ties
 * to the lowest index (as the FGD reference simulator, which takes the smallest node name;
 * stock Kubernetes draws among ties instead); with ops->pick_random, a fitting node drawn
 * uniformly with c->rng. Returns the node index and fills gpus_out, or -1 when it fits
 * nowhere. cache may be NULL. */
int place_select(const place_ctx *c, const place_ops *ops, const place_node *nodes, guint32 n,
                 const place_req *r, place_cache *cache, guint32 *gpus_out);

/* Takes / gives back r on n at the GPUs chosen (gpu_left, CPU, memory, affinity, version). */
void place_node_take(place_node *n, const place_req *r, const guint32 *gpus);
void place_node_give(place_node *n, const place_req *r, const guint32 *gpus);
/* Recomputes n_full and max_left after gpu_left changed by hand. */
void place_node_refresh(place_node *n);

/* ---- GPU choices shared by policies (write r->gpus indices) ---- */
/* Whole GPUs: the first free ones in index order; a share: the fitting GPU with the least
 * left (first on ties). */
void place_gpus_best(const place_ctx *c, const place_node *n, const place_req *r,
                     guint32 *gpus_out);
/* A share: the fitting GPU with the most left (first on ties); whole GPUs as best. */
void place_gpus_worst(const place_ctx *c, const place_node *n, const place_req *r,
                      guint32 *gpus_out);
/* A share: a fitting GPU uniformly at random; whole GPUs as best. */
void place_gpus_random(const place_ctx *c, const place_node *n, const place_req *r,
                       guint32 *gpus_out);

/* ---- fragmentation (Weng et al., ATC '23, section 3) ---- */
/* Builds the target workload from the requests (each counted once). Owned. */
place_target *place_target_new(const place_req *reqs, guint n);
/* The same with request k standing for count[k] requests (a whole number >= 1). */
place_target *place_target_new_counted(const place_req *reqs, const double *count, guint n);
void place_target_free(place_target *t);
/* Expected fragmented milli-GPU of a node in state (cpu_left, gpu_left) for the target:
 * sum over kinds m of p_m x F(node, m), where F is all the node's free GPU milli when m
 * cannot run there for lack of GPU, CPU or model, or is not a GPU request, and otherwise
 * the free milli of the GPUs too small for m. cpu_cap 0: CPU never short. */
double place_frag(const place_target *t, const char *model, guint32 n_gpus,
                  const int32_t *gpu_left, int64_t cpu_left, int64_t cpu_cap);
static inline double place_node_frag(const place_target *t, const place_node *n) {
  return place_frag(t, n->model, n->n_gpus, n->gpu_left, n->cpu_left, n->cpu_cap);
}
/* Free milli-GPU of a node. */
int64_t place_node_free_milli(const place_node *n);

extern const place_ops place_pack_ops;
extern const place_ops place_spread_ops;
extern const place_ops place_random_ops;
extern const place_ops place_dot_product_ops;
extern const place_ops place_gpu_clustering_ops;
extern const place_ops place_gpu_packing_ops;
extern const place_ops place_best_fit_ops;
extern const place_ops place_fgd_ops;
