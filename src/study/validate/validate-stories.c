/* validate-stories.c: the field stories that give a number, each run through the simulator:
 * MPS about 2.3x the throughput of time-slicing for small replicas (a prediction); one
 * shared worker slows a whole gang about 2x (analytic). The stories that restate a
 * configured rule (an OOM under `oom: all`, MPS's shared fault domain, MIG's drain before
 * a new layout) cannot fail here and are unit tests (test-sharing.c, test-mig.c). */
#include "validate.h"
#include <math.h>
#include <string.h>

#define S_SRC_MPS "field reports on MPS for small embedding models (about 2.3x over time-slicing)"
#define S_SRC_GANG "Horovod / synchronous data-parallel training: a step ends when its slowest worker ends"

#define S_POOL1                                                                              \
  "name: %s\nseed: 1\npools:\n  - name: p\n    gpu: %s\n    nodes: 1\n    gpus_per_node: %d\n%s"

static double s_makespan(const results *r) {
  double m = 0;
  for (guint i = 0; i < r->jobs->len; i++) m = MAX(m, g_array_index(r->jobs, job_result, i).end_s);
  return m;
}

static gboolean s_mps(validate_ctx *c, GError **error) {
  const char *csv = "id,submit_s,kind,gpus,mem_gb,duration_s,sm,restart\n"
                    "emb1,0,batch,1,4,1000,0.4,never\nemb2,0,batch,1,4,1000,0.4,never\n"
                    "emb3,0,batch,1,4,1000,0.4,never\nemb4,0,batch,1,4,1000,0.4,never\n";
  g_autofree char *ym = g_strdup_printf(S_POOL1, "story-mps", "A100-80GB", 1, "    strategy: mps\n    replicas: 4\n");
  g_autofree char *yt = g_strdup_printf(S_POOL1, "story-ts", "A100-80GB", 1, "    strategy: time-slicing\n    replicas: 4\n");
  results *rm = validate_sim(c, "story-mps", ym, csv, NULL, error);
  results *rt = rm ? validate_sim(c, "story-ts", yt, csv, NULL, error) : NULL;
  if (!rt) {
    if (rm) results_free(rm);
    return FALSE;
  }
  /* no constant was fitted on the field's 2.3x (B and m_ref come from other measurements) */
  validate_set_kind(c, VALIDATE_PREDICTION);
  validate_rel(c, "story.mps_small_replicas_2.3x", S_SRC_MPS,
               "4 small replicas (sm 0.4): MPS / time-slicing throughput", 2.3,
               s_makespan(rt) / s_makespan(rm), 0.1);
  results_free(rm);
  results_free(rt);
  return TRUE;
}

static gboolean s_gang(validate_ctx *c, GError **error) {
  g_autofree char *yaml = g_strdup_printf(S_POOL1, "story-gang", "A100-80GB", 4,
                                          "    strategy: time-slicing\n    replicas: 2\n");
  const char *csv = "id,submit_s,kind,gpus,mem_gb,duration_s,comm_frac\n"
                    "noisy,0,batch,1,10,100000,\ngang,1,training,4,10,100,0.1\n";
  results *r = validate_sim(c, "story-gang", yaml, csv, NULL, error);
  if (!r) return FALSE;
  validate_set_kind(c, VALIDATE_ANALYTIC); /* a step ends when its slowest worker ends */
  validate_rel(c, "story.shared_worker_slows_gang_2x", S_SRC_GANG,
               "4-worker gang, one worker beside a busy job: gang run time / alone", 2.0,
               validate_job(r, "gang")->slowdown, 0.1);
  results_free(r);
  return TRUE;
}

static gboolean stories_family(validate_ctx *c, GError **error) {
  return s_mps(c, error) && s_gang(c, error);
}

const validate_family validate_stories_family = {
    .name = "stories",
    .summary = "the field stories that give a number: MPS gain for small replicas, straggler",
    .run = stories_family,
};
