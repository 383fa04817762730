/* validate-stories.c: the field stories sharesim was built to reproduce, each run through
 * the simulator and judged yes/no: four notebooks on a time-sliced card killed by one 30 GB
 * load (oom: all); MPS about 2.3x the throughput of time-slicing for small replicas, then
 * one fault kills every client; a 40 GB model waits on a 7 x 10 GB MIG GPU until it is
 * drained and re-laid out; one shared worker slows a whole gang about 2x. */
#include "validate.h"
#include <math.h>
#include <string.h>

#define S_SRC_OOM "NVIDIA k8s-device-plugin and GPU Operator docs: time-slicing has no memory isolation; one tenant's OOM can take the others down"
#define S_SRC_MPS "field reports on MPS for small embedding models (about 2.3x over time-slicing) and the MPS guide: a fatal fault is reported to every client"
#define S_SRC_MIG "NVIDIA MIG guide and mig-parted: a GPU's layout changes only when it is empty; the MIG Manager does not drain pods"
#define S_SRC_GANG "Horovod / synchronous data-parallel training: a step ends when its slowest worker ends"

#define S_POOL1                                                                              \
  "name: %s\nseed: 1\npools:\n  - name: p\n    gpu: %s\n    nodes: 1\n    gpus_per_node: %d\n%s"

static const results *s_keep(results **slot, results *r) { return *slot = r; }

static guint s_events(const results *r, event_kind k, gboolean innocent_only) {
  guint n = 0;
  for (guint i = 0; i < r->events_log->len; i++) {
    const event_row *e = &g_array_index(r->events_log, event_row, i);
    n += e->kind == k && (!innocent_only || e->innocent);
  }
  return n;
}

static double s_makespan(const results *r) {
  double m = 0;
  for (guint i = 0; i < r->jobs->len; i++) m = MAX(m, g_array_index(r->jobs, job_result, i).end_s);
  return m;
}

static gboolean s_notebooks(validate_ctx *c, GError **error) {
  g_autofree char *yaml = g_strdup_printf(S_POOL1, "story-oom", "A100-40GB", 1,
                                          "    strategy: time-slicing\n    replicas: 4\n    oom: all\n");
  GString *csv = g_string_new("id,submit_s,kind,gpus,mem_gb,duration_s,busy\n");
  for (int i = 1; i <= 4; i++) g_string_append_printf(csv, "nb%d,0,notebook,1,5,7200,0.2\n", i);
  results *r = validate_sim(c, "story-oom", yaml, csv->str, "job_id,after_s,mem_gb\nnb1,2400,30\n", error);
  g_string_free(csv, TRUE);
  if (!r) return FALSE;
  gboolean all = TRUE;
  for (int i = 1; i <= 4; i++) {
    char id[8];
    g_snprintf(id, sizeof id, "nb%d", i);
    const job_result *j = validate_job(r, id);
    all &= j->outcome == OUTCOME_FAILED && fabs(j->end_s - 2400) < 1e-9;
  }
  validate_story(c, "story.oom_all_four_notebooks", S_SRC_OOM,
                 "time-sliced A100-40GB, 4 notebooks of 5 GB: one loads 30 GB, all four die (3 innocent)",
                 all && s_events(r, EVENT_OOM_KILL, TRUE) == 3);
  results_free(r);
  return TRUE;
}

static gboolean s_mps(validate_ctx *c, GError **error) {
  const char *csv = "id,submit_s,kind,gpus,mem_gb,duration_s,sm,restart\n"
                    "emb1,0,batch,1,4,1000,0.4,never\nemb2,0,batch,1,4,1000,0.4,never\n"
                    "emb3,0,batch,1,4,1000,0.4,never\nemb4,0,batch,1,4,1000,0.4,never\n";
  g_autofree char *ym = g_strdup_printf(S_POOL1, "story-mps", "A100-80GB", 1, "    strategy: mps\n    replicas: 4\n");
  g_autofree char *yt = g_strdup_printf(S_POOL1, "story-ts", "A100-80GB", 1, "    strategy: time-slicing\n    replicas: 4\n");
  results *rm = NULL, *rt = NULL, *rc = NULL;
  if (!s_keep(&rm, validate_sim(c, "story-mps", ym, csv, NULL, error)) ||
      !s_keep(&rt, validate_sim(c, "story-ts", yt, csv, NULL, error)) ||
      !s_keep(&rc, validate_sim(c, "story-mps-crash", ym, csv, "job_id,after_s,crash\nemb2,100,1\n", error))) {
    if (rm) results_free(rm);
    if (rt) results_free(rt);
    return FALSE;
  }
  validate_rel(c, "story.mps_small_replicas_2.3x", S_SRC_MPS,
               "4 small replicas (sm 0.4): MPS / time-slicing throughput", 2.3,
               s_makespan(rt) / s_makespan(rm), 0.1);
  gboolean all = TRUE;
  for (guint i = 0; i < rc->jobs->len; i++) all &= g_array_index(rc->jobs, job_result, i).outcome == OUTCOME_FAILED;
  validate_story(c, "story.mps_one_fault_kills_all", S_SRC_MPS,
                 "one client faults at 100 s: every MPS client of the GPU dies (3 innocent)",
                 all && s_events(rc, EVENT_CRASH, TRUE) == 3);
  results_free(rm);
  results_free(rt);
  results_free(rc);
  return TRUE;
}

static gboolean s_mig(validate_ctx *c, GError **error) {
  g_autofree char *yaml = g_strdup_printf(
      S_POOL1, "story-mig", "A100-80GB", 1,
      "    strategy: mig\n    layout: 1g.10gb x7\n    layouts: [\"3g.40gb x2\", \"7g.80gb\"]\n"
      "    reconfigure: on-demand\n    reconfigure_time: 2m\n    drain: wait\n");
  const char *csv = "id,submit_s,kind,gpus,mem_gb,duration_s,sm\n"
                    "s1,0,batch,1,5,300,0.1\ns2,0,batch,1,5,600,0.1\ns3,0,batch,1,5,900,0.1\n"
                    "big,100,batch,1,40,1000,0.3\n";
  results *r = validate_sim(c, "story-mig", yaml, csv, NULL, error);
  if (!r) return FALSE;
  const job_result *big = validate_job(r, "big");
  /* it starts when the last small job leaves (900 s) plus the 2 minutes down */
  validate_story(c, "story.mig_40gb_waits_for_drain", S_SRC_MIG,
                 "1g.10gb x7 busy until 900 s: a 40 GB job starts at 900 + 120 s in a 3g.40gb",
                 big->outcome == OUTCOME_COMPLETED && fabs(big->start_s - 1020) < 1e-9);
  results_free(r);
  return TRUE;
}

static gboolean s_gang(validate_ctx *c, GError **error) {
  g_autofree char *yaml = g_strdup_printf(S_POOL1, "story-gang", "A100-80GB", 4,
                                          "    strategy: time-slicing\n    replicas: 2\n");
  const char *csv = "id,submit_s,kind,gpus,mem_gb,duration_s,comm_frac\n"
                    "noisy,0,batch,1,10,100000,\ngang,1,training,4,10,100,0.1\n";
  results *r = validate_sim(c, "story-gang", yaml, csv, NULL, error);
  if (!r) return FALSE;
  validate_rel(c, "story.shared_worker_slows_gang_2x", S_SRC_GANG,
               "4-worker gang, one worker beside a busy job: gang run time / alone", 2.0,
               validate_job(r, "gang")->slowdown, 0.1);
  results_free(r);
  return TRUE;
}

static gboolean stories_family(validate_ctx *c, GError **error) {
  return s_notebooks(c, error) && s_mps(c, error) && s_mig(c, error) && s_gang(c, error);
}

const validate_family validate_stories_family = {
    .name = "stories",
    .summary = "the field stories: OOM cascade, MPS gain and fault domain, MIG drain, straggler",
    .run = stories_family,
};
