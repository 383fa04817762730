/* place-fgd.c: fragmentation gradient descent (Weng et al., ATC '23): the node and GPU whose
 * fragmentation against the target workload grows the least when the request lands there
 * (score sigmoid((F_before - F_after) / 1000) x 100, integer, as the reference simulator).
 * A share tries each fitting GPU; whole GPUs and CPU-only requests have one outcome. */
#include "place.h"
#include <math.h>
#include <string.h>

/* Fragmentation of n after r lands on GPU `at` (a share), or on the least-left fitting GPUs
 * (whole GPUs / several shares; all such choices leave the same multiset). */
static double fgd_after(const place_ctx *c, const place_node *n, const place_req *r, int at) {
  int32_t stack[64];
  int32_t *left = n->n_gpus <= 64 ? stack : g_new(int32_t, n->n_gpus);
  memcpy(left, n->gpu_left, sizeof(int32_t) * n->n_gpus);
  if (at >= 0) {
    left[at] -= r->milli;
  } else {
    for (guint32 k = 0; k < r->gpus; k++) {
      int pick = -1;
      for (guint32 i = 0; i < n->n_gpus; i++)
        if (left[i] >= r->milli && (pick < 0 || left[i] < left[pick])) pick = (int)i;
      g_assert(pick >= 0);
      left[pick] -= MIN(r->milli, PLACE_MILLI);
    }
  }
  double f = place_frag(c->target, n->model, n->n_gpus, left, n->cpu_left - r->cpu, n->cpu_cap);
  if (left != stack) g_free(left);
  return f;
}

static int64_t fgd_points(double before, double after) {
  return (int64_t)(1.0 / (1.0 + exp(-(before - after) / 1000.0)) * 100.0);
}

/* Best GPU for a share (first on ties) and its score; at = -1 for other requests. */
static int64_t fgd_eval(const place_ctx *c, const place_node *n, const place_req *r, int *at) {
  double before = place_node_frag(c->target, n);
  *at = -1;
  if (!(r->gpus == 1 && r->milli < PLACE_MILLI)) return fgd_points(before, fgd_after(c, n, r, -1));
  int64_t best = 0;
  for (guint32 i = 0; i < n->n_gpus; i++) {
    if (n->gpu_left[i] < r->milli) continue;
    int64_t s = fgd_points(before, fgd_after(c, n, r, (int)i));
    if (*at < 0 || s > best) {
      best = s;
      *at = (int)i;
    }
  }
  return best;
}

static int64_t fgd_score(const place_ctx *c, const place_node *n, const place_req *r) {
  int at;
  return fgd_eval(c, n, r, &at);
}

static void fgd_gpus(const place_ctx *c, const place_node *n, const place_req *r, guint32 *out) {
  int at;
  fgd_eval(c, n, r, &at);
  if (at >= 0) out[0] = (guint32)at;
  else place_gpus_best(c, n, r, out);
}

const place_ops place_fgd_ops = {
    .input = {.name = "fgd",
              .description = "fragmentation gradient descent: the node and GPU that least "
                             "increase fragmentation against the target workload (Weng et al., "
                             "ATC '23)"},
    .score = fgd_score,
    .gpus = fgd_gpus,
    .cacheable = TRUE,
};
