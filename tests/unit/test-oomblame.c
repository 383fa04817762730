/* test-oomblame.c: who is blamed for an out-of-memory (issue 27 item 7). The story: a job
 * grows from 5 to 35 GB (a phase), then a well-behaved 10 GB job arrives on the same card.
 * The grower is the offender; a victim is innocent when it did not grow past what it held
 * when it was placed (and, when nobody grew, the job whose allocation failed is the
 * offender, as before). Run under every strategy where the two share memory (time-slicing,
 * MPS without pinned limits, a MIG instance shared by replicas) with each oom policy, and
 * where memory is isolated (vGPU, fractional, MPS pinned limits: the grower fails alone). */
#include "testutil.h"

/* grow: 5 GB, then 35 GB at 100 s; late: 10 GB, declared and held, from 200 s */
static const char *story_trace = "id,submit_s,kind,gpus,mem_gb,duration_s,gpu_frac,restart\n"
                                 "grow,0,batch,1,5,1000,0.5,never\n"
                                 "late,200,batch,1,10,1000,0.5,never\n";
static const char *story_phases = "job_id,after_s,mem_gb\ngrow,100,35\n";

/* One A100-40GB (42.95 GB): 35 + 10 GB do not fit on it. */
static results *story_run(const char *strategy_keys) {
  g_autofree char *yaml = g_strdup_printf("name: oomblame\npools:\n  - name: p\n"
                                          "    gpu: A100-40GB\n    nodes: 1\n    gpus_per_node: 1\n%s",
                                          strategy_keys);
  return tu_run(yaml, story_trace, story_phases);
}

/* The job's oom_kill event: its innocent flag (-1 when it has none). */
static int story_innocent(const results *r, const char *job) {
  for (guint i = 0; i < r->events_log->len; i++) {
    const event_row *e = &g_array_index(r->events_log, event_row, i);
    if (e->kind == EVENT_OOM_KILL && !strcmp(e->job, job)) return e->innocent ? 1 : 0;
  }
  return -1;
}

/* Who died (kill time), who survived, the events' innocent flags and the counts. */
static void story_expect(const char *keys, gboolean grow_dies, gboolean late_dies, double at) {
  results *r = story_run(keys);
  const job_result *g = tu_job(r, "grow"), *l = tu_job(r, "late");
  cr_expect_eq(g->outcome, grow_dies ? OUTCOME_FAILED : OUTCOME_COMPLETED, "%s: the grower", keys);
  cr_expect_eq(l->outcome, late_dies ? OUTCOME_FAILED : OUTCOME_COMPLETED, "%s: the newcomer", keys);
  if (grow_dies) {
    TU_NEAR(g->end_s, at, 0);
    cr_expect_eq(story_innocent(r, "grow"), 0, "%s: the grower is never innocent", keys);
  }
  if (late_dies) {
    TU_NEAR(l->end_s, at, 0);
    cr_expect_eq(story_innocent(r, "late"), 1, "%s: the well-behaved newcomer is innocent", keys);
  }
  const pool_result *p = &g_array_index(r->pools, pool_result, 0);
  cr_expect_eq(p->oom_kills, (guint)grow_dies + (guint)late_dies, "%s", keys);
  cr_expect_eq(p->innocent_victims, late_dies ? 1u : 0u, "%s: innocent victims", keys);
  results_totals t;
  results_compute_totals(r, &t);
  cr_expect_eq(t.innocent_victims, p->innocent_victims, "%s: the totals", keys);
  results_free(r);
}

#define TS "    strategy: time-slicing\n    replicas: 2\n"
#define MPS "    strategy: mps\n    replicas: 2\n    pinnedMemLimit: none\n"
#define MIG "    strategy: mig\n    layout: 7g.40gb\n    replicas: 2\n"

Test(oomblame, oom_all_kills_both_and_only_the_newcomer_is_innocent) {
  story_expect(TS "    oom: all\n", TRUE, TRUE, 200);
  story_expect(MPS "    oom: all\n", TRUE, TRUE, 200);
  story_expect(MIG "    oom: all\n", TRUE, TRUE, 200);
}

Test(oomblame, oom_failed_allocation_kills_the_newcomer_an_innocent_victim) {
  story_expect(TS "    oom: failed-allocation\n", FALSE, TRUE, 200);
  story_expect(MPS "    oom: failed-allocation\n", FALSE, TRUE, 200);
  story_expect(MIG "    oom: failed-allocation\n", FALSE, TRUE, 200);
}

Test(oomblame, oom_offender_is_the_old_name_of_failed_allocation) {
  story_expect(TS "    oom: offender\n", FALSE, TRUE, 200);
  story_expect(MIG "    oom: offender\n", FALSE, TRUE, 200);
}

Test(oomblame, oom_sidecar_kills_the_grower_and_nobody_innocent) {
  story_expect(TS "    oom: sidecar\n", TRUE, FALSE, 200);
  story_expect(MPS "    oom: sidecar\n", TRUE, FALSE, 200);
  story_expect(MIG "    oom: sidecar\n", TRUE, FALSE, 200);
}

/* Isolated memory: the grower's own allocation fails at 100 s, under any policy; it dies
 * alone and is not innocent, and the newcomer runs. */
Test(oomblame, isolated_memory_the_grower_fails_alone_at_its_growth) {
  story_expect("    strategy: vgpu\n    profile: A100-20C\n    oom: all\n", TRUE, FALSE, 100);
  story_expect("    strategy: fractional\n    oom: all\n", TRUE, FALSE, 100);
  story_expect("    strategy: mps\n    replicas: 2\n    oom: all\n", TRUE, FALSE, 100);
}

/* Nobody grew: time-slicing counts replicas, not memory, so a 25 GB job is placed beside
 * another on a 42.95 GB card and its own allocation fails: with no grower, the job whose
 * allocation failed is the offender (not innocent), and under `all` the other is innocent. */
Test(oomblame, with_nobody_grown_the_job_whose_allocation_failed_is_the_offender) {
  const char *csv = "id,submit_s,kind,gpus,mem_gb,duration_s,restart\n"
                    "a,0,batch,1,25,1000,never\nb,10,batch,1,25,1000,never\n";
  const char *yaml = "name: oomblame\npools:\n  - name: p\n    gpu: A100-40GB\n    nodes: 1\n"
                     "    gpus_per_node: 1\n" TS "    oom: failed-allocation\n";
  results *r = tu_run(yaml, csv, NULL);
  cr_assert_eq(tu_job(r, "a")->outcome, OUTCOME_COMPLETED);
  cr_assert_eq(tu_job(r, "b")->outcome, OUTCOME_FAILED);
  cr_assert_eq(story_innocent(r, "b"), 0);
  cr_assert_eq(g_array_index(r->pools, pool_result, 0).innocent_victims, 0);
  results_free(r);
  const char *all = "name: oomblame\npools:\n  - name: p\n    gpu: A100-40GB\n    nodes: 1\n"
                    "    gpus_per_node: 1\n" TS "    oom: all\n";
  r = tu_run(all, csv, NULL);
  cr_assert_eq(story_innocent(r, "a"), 1);
  cr_assert_eq(story_innocent(r, "b"), 0);
  cr_assert_eq(g_array_index(r->pools, pool_result, 0).innocent_victims, 1);
  results_free(r);
}
