/* test-mig.c: MIG and vGPU end to end: the layouts the placement rule allows accepted and invalid
 * ones refused with the conflicting profiles named, placement on the smallest instance
 * that holds a job, isolation of speed, memory and faults between instances, time-slicing
 * inside an instance (one count, or per profile), on-demand reconfiguration (drain: wait and evict, exact timings,
 * reconfigure: never), mig-parted configs, and the vGPU schedulers and licences. */
#include "testutil.h"
#include "paths.h"
#include "share.h"

static guint count_events(const results *r, event_kind k) {
  guint n = 0;
  for (guint i = 0; i < r->events_log->len; i++) n += g_array_index(r->events_log, event_row, i).kind == k;
  return n;
}

static const event_row *first_event(const results *r, event_kind k) {
  for (guint i = 0; i < r->events_log->len; i++)
    if (g_array_index(r->events_log, event_row, i).kind == k) return &g_array_index(r->events_log, event_row, i);
  cr_assert_fail("no %s event", event_kind_name(k));
  return NULL;
}

static const pool_result *pool0(const results *r) { return &g_array_index(r->pools, pool_result, 0); }

/* A one-pool MIG scenario on `gpus` A100-80GB cards (one node) with extra keys. */
static char *mig_pool(int gpus, const char *layout, const char *extra) {
  return g_strdup_printf("name: mig\npools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n"
                         "    gpus_per_node: %d\n    strategy: mig\n    layout: %s\n%s",
                         gpus, layout, extra ? extra : "");
}

/* Loads a scenario text; returns the joined diagnostics ("" when it loaded). */
static char *load_messages(const char *yaml) {
  g_autofree char *path = tu_write_temp("layout.yaml", yaml);
  g_autoptr(diag_list) d = diag_list_new(0);
  scenario *sc = scenario_load(path, d);
  char *msg = diag_has_errors(d) ? diag_join(d) : g_strdup("");
  if (sc) scenario_free(sc);
  return msg;
}

static char *layout_on(const char *gpu, const char *layout) {
  g_autofree char *yaml = g_strdup_printf("pools:\n  - name: p\n    gpu: %s\n    nodes: 1\n"
                                          "    strategy: mig\n    layout: %s\n", gpu, layout);
  return load_messages(yaml);
}

/* ---- layouts ---- */

/* The placement rule [S1] applied, in A100-40GB names: the 17 maximal sets using all 7 compute slices, the
 * maximal sets it lists that leave slices idle, and mig-parted's all-balanced. */
static const char *facts_layouts_a100_40[] = {
    "1g.5gb x7", "1g.5gb x5 + 2g.10gb", "1g.5gb x3 + 2g.10gb x2", "1g.5gb + 2g.10gb x3",
    "1g.5gb x4 + 3g.20gb", "1g.5gb x2 + 2g.10gb + 3g.20gb", "2g.10gb x2 + 3g.20gb",
    "4g.20gb + 3g.20gb", "4g.20gb + 2g.10gb + 1g.5gb", "4g.20gb + 1g.5gb x3", "7g.40gb",
    "1g.5gb x6 + 1g.10gb", "1g.5gb x4 + 2g.10gb + 1g.10gb", "1g.5gb x2 + 2g.10gb x2 + 1g.10gb",
    "2g.10gb x3 + 1g.10gb", "4g.20gb + 1g.5gb x2 + 1g.10gb", "4g.20gb + 2g.10gb + 1g.10gb",
    "3g.20gb x2", "1g.10gb x4", "1g.10gb x2 + 3g.20gb", "1g.10gb x3 + 2g.10gb",
    "1g.10gb x2 + 4g.20gb", "1g.10gb + 2g.10gb + 3g.20gb", "1g.10gb + 1g.5gb x2 + 3g.20gb",
    "1g.5gb x2 + 2g.10gb + 3g.20gb", /* all-balanced */
};

/* The same layouts on the 80 GB cards (A100-80GB and H100-80GB share the names). */
static char *to_80gb(const char *l) {
  static const char *from[] = {"1g.5gb", "1g.10gb", "2g.10gb", "3g.20gb", "4g.20gb", "7g.40gb"};
  static const char *to[] = {"@1", "1g.20gb", "2g.20gb", "3g.40gb", "4g.40gb", "7g.80gb"};
  char *s = g_strdup(l);
  for (guint k = 0; k < G_N_ELEMENTS(from); k++) {
    g_auto(GStrv) parts = g_strsplit(s, from[k], -1);
    g_free(s);
    s = g_strjoinv(to[k], parts);
  }
  g_auto(GStrv) parts = g_strsplit(s, "@1", -1); /* 1g.5gb -> 1g.10gb, after 1g.10gb moved */
  g_free(s);
  return g_strjoinv("1g.10gb", parts);
}

Test(mig, every_layout_gpu_facts_lists_is_accepted_on_a100_and_h100) {
  guint checked = 0;
  for (guint i = 0; i < G_N_ELEMENTS(facts_layouts_a100_40); i++) {
    g_autofree char *m40 = layout_on("A100-40GB", facts_layouts_a100_40[i]);
    cr_assert_str_empty(m40, "A100-40GB '%s': %s", facts_layouts_a100_40[i], m40);
    g_autofree char *l80 = to_80gb(facts_layouts_a100_40[i]);
    g_autofree char *m80 = layout_on("A100-80GB", l80);
    cr_assert_str_empty(m80, "A100-80GB '%s': %s", l80, m80);
    g_autofree char *mh = layout_on("H100-80GB", l80);
    cr_assert_str_empty(mh, "H100-80GB '%s': %s", l80, mh);
    checked += 3;
  }
  cr_assert_eq(checked, 75);
  /* the translation is right: all-balanced on the 80 GB cards */
  g_autofree char *bal = to_80gb("1g.5gb x2 + 2g.10gb + 3g.20gb");
  cr_assert_str_eq(bal, "1g.10gb x2 + 2g.20gb + 3g.40gb");
  /* and every maximal layout the catalogue enumerates is accepted by the scenario too */
  GArray *all = catalog_maximal_layouts(catalog_find("H100-80GB"));
  cr_assert_eq(all->len, 28);
  for (guint i = 0; i < all->len; i++) {
    g_autofree char *t = catalog_layout_to_string(catalog_find("H100-80GB"), &g_array_index(all, mig_layout, i));
    g_autofree char *m = layout_on("H100-80GB", t);
    cr_assert_str_empty(m, "H100-80GB '%s': %s", t, m);
  }
  g_array_unref(all);
}

Test(mig, invalid_layouts_are_refused_naming_the_conflicting_profiles) {
  struct { const char *gpu, *layout, *says; } bad[] = {
      /* too many of one profile */
      {"A100-80GB", "4g.40gb x2", "4g.40gb may appear at most once (max count 1); a valid layout "
                                  "with these profiles: 4g.40gb + 3g.40gb"},
      /* overlapping placements */
      {"A100-80GB", "3g.40gb x2 + 1g.10gb", "no placement; 3g.40gb x2 uses memory slices 0-7, "
                                            "leaving none for 1g.10gb"},
      {"H100-80GB", "7g.80gb + 1g.10gb", "no placement; 7g.80gb uses memory slices 0-7, leaving none "
                                         "for 1g.10gb"},
      /* too many instances */
      {"A100-40GB", "1g.5gb x8", "at most 7 GPU instances fit on A100-40GB, the layout has 8"},
      /* a profile of another model */
      {"A100-80GB", "3g.20gb", "unknown MIG profile '3g.20gb' (a profile of A100-40GB)"},
      {"H100-80GB", "1g.5gb", "unknown MIG profile '1g.5gb'"},
  };
  for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
    g_autofree char *m = layout_on(bad[i].gpu, bad[i].layout);
    cr_assert(strstr(m, ":6:13: pools[1].layout: layout '"), "%s: no position: %s", bad[i].layout, m);
    cr_assert(strstr(m, bad[i].says), "%s on %s: %s", bad[i].layout, bad[i].gpu, m);
  }
  /* 8 compute slices: every one of these names the profiles it could not fit */
  g_autofree char *m = layout_on("A100-80GB", "4g.40gb + 2g.20gb x2");
  cr_assert(strstr(m, "4g.40gb") && strstr(m, "2g.20gb") && strstr(m, "a valid layout"), "%s", m);
}

/* ---- placement, speed, isolation ---- */

Test(mig, jobs_go_on_the_smallest_instance_that_holds_them) {
  g_autofree char *yaml = mig_pool(1, "4g.40gb + 2g.20gb + 1g.10gb", NULL);
  results *r = tu_run(yaml,
                      "id,submit_s,kind,gpus,mem_gb,duration_s,sm\n"
                      "mid,0,batch,1,15,1000,1\n"   /* 2g.20gb: 28 SMs */
                      "small,1,batch,1,5,1000,1\n"  /* 1g.10gb: 14 SMs */
                      "small2,2,batch,1,5,1000,1\n" /* 1g.10gb taken: 4g.40gb (56 SMs) */
                      "more,3,batch,1,5,100,1\n",   /* nothing free: waits for small */
                      NULL);
  TU_NEAR(tu_job(r, "mid")->end_s, 1000 * 108.0 / 28, 1e-6);
  TU_NEAR(tu_job(r, "small")->end_s - 1, 1000 * 108.0 / 14, 1e-6);
  TU_NEAR(tu_job(r, "small2")->end_s - 2, 1000 * 108.0 / 56, 1e-6);
  /* 4g.40gb frees first (at 2 + 1928.57 s) */
  TU_NEAR(tu_job(r, "more")->start_s, 2 + 1000 * 108.0 / 56, 1e-6);
  cr_assert_eq(pool0(r)->reconfigurations, 0);
  results_free(r);
}

Test(mig, speed_is_the_instance_sm_share_capped_at_one) {
  g_autofree char *yaml = mig_pool(1, "7g.80gb", NULL);
  results *r = tu_run(yaml, "id,submit_s,kind,gpus,mem_gb,duration_s,sm\nall,0,batch,1,5,980,1\n", NULL);
  /* a job that can use every SM runs at 98/108 in the 7g instance (MIG mode loses 10 SMs) */
  TU_NEAR(tu_job(r, "all")->end_s, 1080, 1e-6);
  results_free(r);
  g_autofree char *yaml2 = mig_pool(1, "3g.40gb x2", NULL);
  r = tu_run(yaml2, "id,submit_s,kind,gpus,mem_gb,duration_s,sm\nsmall,0,batch,1,5,500,0.3\n", NULL);
  TU_NEAR(tu_job(r, "small")->end_s, 500, 0); /* 42 SMs >= 0.3 x 108: full speed */
  TU_NEAR(tu_job(r, "small")->gpu_s_share, 500 * 3.0 / 7.0, 1e-6); /* 3 of 7 slices */
  TU_NEAR(tu_job(r, "small")->gpu_s_allocated, 500, 1e-6);          /* the card's one resident */
  results_free(r);
}

/* Only the share gpu_util of a job's time that keeps the GPU busy slows with fewer SMs: a job
 * busy half the time on a whole GPU runs at 1 / (0.5 + 0.5 x 108 / 14) in a 1g instance
 * (ParvaGPU's BERT at batch 8 keeps 0.47 of its 7g throughput on 1g, where SMs alone would
 * give at most 14/98: `sharesim validate`, mig.bert.*); at gpu_util 1 it is the SM share. */
Test(mig, only_the_busy_share_of_a_job_slows_in_a_smaller_instance) {
  g_autofree char *yaml = mig_pool(1, "1g.10gb x7", NULL);
  results *r = tu_run(yaml, "id,submit_s,kind,gpus,mem_gb,duration_s,sm,gpu_util\n"
                            "half,0,batch,1,5,1000,1,0.5\nfull,0,batch,1,5,1000,1,1\n", NULL);
  TU_NEAR(tu_job(r, "half")->end_s, 1000 * (0.5 + 0.5 * 108.0 / 14), 1e-6);
  TU_NEAR(tu_job(r, "full")->end_s, 1000 * 108.0 / 14, 1e-6);
  results_free(r);
}

Test(mig, a_noisy_neighbour_in_another_instance_leaves_a_job_speed_unchanged) {
  g_autofree char *yaml = mig_pool(1, "3g.40gb x2", NULL);
  const char *alone = "id,submit_s,kind,gpus,mem_gb,duration_s,sm\nvictim,0,batch,1,20,1000,1\n";
  const char *noisy = "id,submit_s,kind,gpus,mem_gb,duration_s,sm,busy,burst_s\n"
                      "victim,0,batch,1,20,1000,1,,\n"
                      "hog,0,batch,1,30,5000,1,,\n"
                      "nb,0,notebook,1,1,9000,0.9,0.8,20\n";
  results *a = tu_run(yaml, alone, NULL);
  results *n = tu_run(yaml, noisy, NULL);
  TU_NEAR(tu_job(a, "victim")->end_s, 1000 * 108.0 / 42, 1e-6);
  cr_assert_eq(tu_job(n, "victim")->end_s, tu_job(a, "victim")->end_s);
  cr_assert_str_eq(tu_job(n, "hog")->gpu_ids, "p/n0/g0");
  /* the same pair time-sliced: the hog halves the victim's speed */
  results *ts = tu_run("pools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n    gpus_per_node: 1\n"
                       "    strategy: time-slicing\n    replicas: 2\n", noisy, NULL);
  cr_assert_gt(tu_job(ts, "victim")->end_s, 2000);
  results_free(a);
  results_free(n);
  results_free(ts);
}

static const char *four_in_instances =
    "id,submit_s,kind,gpus,mem_gb,duration_s,busy,burst_s\n"
    "nb1,0,notebook,1,5,7200,0.2,30\n"
    "nb2,0,notebook,1,5,7200,0.2,30\n"
    "nb3,0,notebook,1,5,7200,0.2,30\n"
    "nb4,0,notebook,1,5,7200,0.2,30\n";

Test(mig, an_out_of_memory_kills_nothing_outside_the_instance) {
  /* oom: all would kill the whole card under time-slicing; here nb1 is alone in its
   * 1g.10gb instance (9.5 GiB) and fails alone when it loads 12 GB */
  g_autofree char *yaml = mig_pool(1, "1g.10gb x7", "    oom: all\n");
  results *r = tu_run(yaml, four_in_instances, "job_id,after_s,mem_gb\nnb1,2400,12\n");
  cr_assert_eq(tu_job(r, "nb1")->outcome, OUTCOME_FAILED);
  TU_NEAR(tu_job(r, "nb1")->end_s, 2400, 0);
  for (int i = 2; i <= 4; i++) {
    g_autofree char *id = g_strdup_printf("nb%d", i);
    cr_assert_eq(tu_job(r, id)->outcome, OUTCOME_COMPLETED, "%s was killed", id);
  }
  cr_assert_eq(pool0(r)->oom_kills, 1);
  cr_assert_eq(pool0(r)->innocent_victims, 0);
  const event_row *e = first_event(r, EVENT_OOM_KILL);
  cr_assert_str_eq(e->job, "nb1");
  results_free(r);
}

Test(mig, time_sliced_replicas_share_an_instance_and_its_memory_only) {
  /* two 3g.40gb instances (42.1 GB), two replicas each: nb1+nb3 in one, nb2+nb4 in the
   * other (the emptiest instance first). nb1 grows to 30 GB: its instance overflows and
   * oom: all kills both of its residents, and nothing in the other instance. */
  g_autofree char *yaml = mig_pool(1, "3g.40gb x2", "    replicas: 2\n    oom: all\n");
  const char *csv = "id,submit_s,kind,gpus,mem_gb,duration_s,busy,burst_s\n"
                    "nb1,0,notebook,1,15,7200,0.2,30\n"
                    "nb2,0,notebook,1,15,7200,0.2,30\n"
                    "nb3,0,notebook,1,15,7200,0.2,30\n"
                    "nb4,0,notebook,1,15,7200,0.2,30\n";
  results *r = tu_run(yaml, csv, "job_id,after_s,mem_gb\nnb1,600,30\n");
  cr_assert_eq(tu_job(r, "nb1")->outcome, OUTCOME_FAILED);
  cr_assert_eq(tu_job(r, "nb3")->outcome, OUTCOME_FAILED);
  cr_assert_eq(tu_job(r, "nb2")->outcome, OUTCOME_COMPLETED);
  cr_assert_eq(tu_job(r, "nb4")->outcome, OUTCOME_COMPLETED);
  cr_assert_eq(pool0(r)->innocent_victims, 1);
  results_free(r);
  /* two busy jobs in one instance take turns: each at the time-slicing speed */
  g_autofree char *y2 = mig_pool(1, "7g.80gb", "    replicas: 2\n");
  r = tu_run(y2, "id,submit_s,kind,gpus,mem_gb,duration_s,sm\na,0,batch,1,5,1000,0.3\nb,0,batch,1,5,1000,0.3\n",
             NULL);
  TU_NEAR(tu_job(r, "a")->end_s, 1000 / share_timeslice_speed(1.0, 1.0, 0.06), 1e-6);
  TU_NEAR(tu_job(r, "a")->gpu_s_share, tu_job(r, "a")->end_s / 2, 1e-6); /* 7/7 slices / 2 */
  TU_NEAR(tu_job(r, "a")->gpu_s_allocated, tu_job(r, "a")->end_s / 2, 1e-6); /* half the card */
  results_free(r);
}

/* Ten 3 GB jobs at 0 s (three fit in a 1g.10gb's 9.5 GiB) on "3g.40gb + 2g.20gb + 1g.10gb x2" with replicas 3 per 1g.10gb
 * instance, 2 per 3g.40gb and the 2g.20gb unshared: room for 2 x 3 + 1 + 2 = 9 workers.
 * a1-a6 fill the 1g.10gb instances (three take turns in each), a7 has the 2g.20gb alone,
 * a8 and a9 share the 3g.40gb and a10 waits for the 2g.20gb (the first to free, at 1000 s). */
static const char *ten_small =
    "id,submit_s,kind,gpus,mem_gb,duration_s,sm\n"
    "a1,0,batch,1,3,1000,0.1\na2,0,batch,1,3,1000,0.1\na3,0,batch,1,3,1000,0.1\n"
    "a4,0,batch,1,3,1000,0.1\na5,0,batch,1,3,1000,0.1\na6,0,batch,1,3,1000,0.1\n"
    "a7,0,batch,1,3,1000,0.1\na8,0,batch,1,3,1000,0.1\na9,0,batch,1,3,1000,0.1\n"
    "a10,0,batch,1,3,1000,0.1\n";

static void expect_per_profile_run(const results *r) {
  double three = 1000 / share_timeslice_speed(1.0, 2.0, 0.06);
  double two = 1000 / share_timeslice_speed(1.0, 1.0, 0.06);
  for (int i = 1; i <= 6; i++) {
    g_autofree char *id = g_strdup_printf("a%d", i);
    TU_NEAR(tu_job(r, id)->start_s, 0, 0);
    TU_NEAR(tu_job(r, id)->end_s, three, 1e-6);
    TU_NEAR(tu_job(r, id)->gpu_s_share, three / 7 / 3, 1e-6); /* 1 of 7 slices, 3 turns */
  }
  TU_NEAR(tu_job(r, "a7")->end_s, 1000, 1e-6); /* 10.8 SMs needed, 28 in 2g.20gb: alone */
  TU_NEAR(tu_job(r, "a7")->gpu_s_share, 1000 * 2.0 / 7, 1e-6);
  TU_NEAR(tu_job(r, "a8")->end_s, two, 1e-6);
  TU_NEAR(tu_job(r, "a9")->gpu_s_share, two * 3.0 / 7 / 2, 1e-6);
  TU_NEAR(tu_job(r, "a10")->start_s, 1000, 1e-6);
  TU_NEAR(tu_job(r, "a10")->end_s, 2000, 1e-6);
}

Test(mig, each_profile_time_slices_its_instances_into_its_own_replicas) {
  g_autofree char *yaml = mig_pool(1, "3g.40gb + 2g.20gb + 1g.10gb x2",
                                   "    replicas: {1g.10gb: 3, 3g.40gb: 2}\n");
  results *r = tu_run(yaml, ten_small, NULL);
  expect_per_profile_run(r);
  results_free(r);
  /* one count for every instance instead: room for 4 x 3, so a10 starts at once */
  g_autofree char *flat = mig_pool(1, "3g.40gb + 2g.20gb + 1g.10gb x2", "    replicas: 3\n");
  r = tu_run(flat, ten_small, NULL);
  TU_NEAR(tu_job(r, "a10")->start_s, 0, 0);
  results_free(r);
}

Test(mig, per_profile_replicas_from_a_device_plugin_config_run_alike) {
  /* the same counts as nvidia.com/mig-<profile> resources of a mixed-strategy config */
  g_autofree char *cfg = tu_write_temp(
      "ts.yaml", "version: v1\nflags:\n  migStrategy: mixed\nsharing:\n  timeSlicing:\n"
                 "    resources:\n      - name: nvidia.com/gpu\n        replicas: 8\n"
                 "      - name: nvidia.com/mig-1g.10gb\n        replicas: 3\n"
                 "      - name: nvidia.com/mig-3g.40gb\n        replicas: 2\n"
                 "      - name: nvidia.com/mig-1g.5gb\n        replicas: 4\n");
  g_autofree char *extra = g_strdup_printf("    sharing_config: %s\n", cfg);
  g_autofree char *yaml = mig_pool(1, "3g.40gb + 2g.20gb + 1g.10gb x2", extra);
  results *r = tu_run(yaml, ten_small, NULL);
  expect_per_profile_run(r); /* nvidia.com/gpu names whole GPUs; 1g.5gb is an A100-40GB's */
  results_free(r);
}

Test(mig, fail_requests_greater_than_one_refuses_gangs_on_shared_profiles_only) {
  g_autofree char *yaml = mig_pool(2, "3g.40gb + 2g.20gb + 1g.10gb x2",
                                   "    replicas: {1g.10gb: 2}\n"
                                   "    failRequestsGreaterThanOne: true\n");
  results *r = tu_run(yaml,
                      "id,submit_s,kind,gpus,mem_gb,duration_s,sm\n"
                      "small,0,training,2,5,100,0.1\n" /* asks for 2 shared mig-1g.10gb */
                      "mid,0,training,2,15,100,0.1\n", /* 2 unshared mig-2g.20gb */
                      NULL);
  cr_assert_eq(tu_job(r, "small")->outcome, OUTCOME_UNPLACEABLE);
  cr_assert_eq(tu_job(r, "mid")->outcome, OUTCOME_COMPLETED);
  results_free(r);
}

Test(mig, per_profile_replicas_are_checked_with_positions) {
  g_autofree char *m1 = load_messages(
      "pools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n    strategy: mig\n"
      "    layout: 3g.40gb x2\n    replicas: {3g.40gb: 2, 1g.5gb: 2, 7g.80gb: 0}\n");
  cr_expect(strstr(m1, "layout.yaml:7:28: pools[1].replicas: expected a MIG profile of "
                       "A100-80GB (one of: 7g.80gb, "), "%s", m1);
  cr_expect(strstr(m1, "found '1g.5gb'"), "%s", m1);
  cr_expect(strstr(m1, "layout.yaml:7:48: pools[1].replicas.7g.80gb: expected an integer from "
                       "1 to 1024, found '0'"), "%s", m1);
  g_autofree char *m2 = load_messages(
      "pools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n    strategy: mig\n"
      "    layout: 3g.40gb x2\n    replicas: {}\n");
  cr_expect(strstr(m2, "layout.yaml:7:15: pools[1].replicas: expected an integer or a mapping "
                       "of MIG profile to replicas, found a mapping"), "%s", m2);
  g_autofree char *m3 = load_messages(
      "pools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n    strategy: time-slicing\n"
      "    replicas: {3g.40gb: 2}\n");
  cr_expect(strstr(m3, "layout.yaml:6:15: pools[1].replicas: expected an integer from 1 to "),
            "%s", m3);
}

Test(mig, a_crash_kills_nothing_outside_the_instance) {
  g_autofree char *yaml = mig_pool(1, "2g.20gb x3 + 1g.10gb", NULL);
  results *r = tu_run(yaml,
                      "id,submit_s,kind,gpus,mem_gb,duration_s,sm,restart\n"
                      "b1,0,batch,1,8,1000,0.2,never\nb2,0,batch,1,8,1000,0.2,never\n"
                      "b3,0,batch,1,8,1000,0.2,never\nb4,0,batch,1,8,1000,0.2,never\n",
                      "job_id,after_s,crash\nb2,100,1\n");
  for (int i = 1; i <= 4; i++) {
    g_autofree char *id = g_strdup_printf("b%d", i);
    cr_assert_eq(tu_job(r, id)->outcome, i == 2 ? OUTCOME_FAILED : OUTCOME_COMPLETED);
  }
  cr_assert_eq(count_events(r, EVENT_CRASH), 1);
  results_free(r);
}

/* ---- MPS inside an instance (instance_sharing: mps) ---- */

/* Three clients of one 7g.80gb (98 of 108 SMs): each would fill W = sm x 108 / 98 of it. */
static double mps7_end(const char *sm, const char *gpu_util, const char *mem_util) {
  g_autofree char *yaml = mig_pool(1, "7g.80gb", "    replicas: 3\n    instance_sharing: mps\n");
  g_autofree char *csv = g_strdup_printf("id,submit_s,kind,gpus,mem_gb,duration_s,sm,gpu_util,mem_util\n"
                                         "a,0,batch,1,5,1000,%s,%s,%s\nb,0,batch,1,5,1000,%s,%s,%s\n"
                                         "c,0,batch,1,5,1000,%s,%s,%s\n", sm, gpu_util, mem_util,
                                         sm, gpu_util, mem_util, sm, gpu_util, mem_util);
  results *r = tu_run(yaml, csv, NULL);
  double end = tu_job(r, "c")->end_s;
  TU_NEAR(tu_job(r, "a")->end_s, end, 1e-6);
  results_free(r);
  return end;
}

Test(mig, mps_clients_of_an_instance_run_side_by_side_until_it_is_full) {
  /* kernels that fit side by side (3 x 0.22 of the instance), no memory traffic: no loss */
  TU_NEAR(mps7_end("0.2", "1", "0"), 1000, 1e-6);
  /* kernels that need 3 x 0.551 of the instance: they stretch by k = 1.653 */
  TU_NEAR(mps7_end("0.5", "1", "0"), 1000 * 3 * 0.5 * 108 / 98, 1e-3);
  /* the same clients busy half their time: k solves k = 3 x 0.551 x 0.5 k / (0.5 + 0.5 k),
   * below 1, so the gaps absorb the neighbours: no loss */
  TU_NEAR(mps7_end("0.5", "0.5", "0"), 1000, 1e-6);
  /* reference clients (no mem_util) lose to the two others' memory traffic, as plain MPS
   * clients do: 1 / (1 + B / (1 - B) x 2) */
  TU_NEAR(mps7_end("0.2", "1", ""), 1000 * (1 + 0.075 / 0.925 * 2), 1e-3);
}

Test(mig, mps_in_an_instance_alone_runs_at_the_mig_speed) {
  g_autofree char *yaml = mig_pool(1, "1g.10gb", "    replicas: 2\n    instance_sharing: mps\n");
  results *r = tu_run(yaml, "id,submit_s,kind,gpus,mem_gb,duration_s,sm,gpu_util\n"
                            "a,0,batch,1,5,1000,1,0.5\n", NULL);
  /* 1 / ((1 - u) + u x 108 / 14) */
  TU_NEAR(tu_job(r, "a")->end_s, 1000 * (0.5 + 0.5 * 108.0 / 14.0), 1e-3);
  results_free(r);
}

Test(mig, mps_in_an_instance_one_fault_kills_its_clients_only) {
  g_autofree char *yaml = mig_pool(1, "3g.40gb x2", "    replicas: 2\n    instance_sharing: mps\n");
  results *r = tu_run(yaml,
                      "id,submit_s,kind,gpus,mem_gb,duration_s,sm,restart\n"
                      "b1,0,batch,1,8,1000,0.2,never\nb2,0,batch,1,8,1000,0.2,never\n"
                      "b3,0,batch,1,8,1000,0.2,never\nb4,0,batch,1,8,1000,0.2,never\n",
                      "job_id,after_s,crash\nb1,100,1\n");
  /* the emptiest instance first: b1 and b3 share one instance, b2 and b4 the other */
  cr_assert_eq(tu_job(r, "b1")->outcome, OUTCOME_FAILED);
  cr_assert_eq(tu_job(r, "b3")->outcome, OUTCOME_FAILED);
  cr_assert_eq(tu_job(r, "b2")->outcome, OUTCOME_COMPLETED);
  cr_assert_eq(tu_job(r, "b4")->outcome, OUTCOME_COMPLETED);
  cr_assert_eq(count_events(r, EVENT_CRASH), 2);
  results_free(r);
  g_autofree char *bad = mig_pool(1, "7g.80gb", "    replicas: 2\n    instance_sharing: green\n");
  g_autofree char *msg = load_messages(bad);
  cr_assert(strstr(msg, ":10:23: pools[1].instance_sharing: expected one of time-slicing | mps, "
                        "found 'green'"), "%s", msg);
}

/* ---- reconfiguration ---- */

/* Three small jobs on one A100-80GB laid out 1g.10gb x7 (ending at 300, 600 and 900 s); a
 * 40 GB model arrives at 100 s, and a small job at 200 s while the GPU drains. */
static const char *drain_trace =
    "id,submit_s,kind,gpus,mem_gb,duration_s,sm\n"
    "s1,0,batch,1,5,300,0.1\n"
    "s2,0,batch,1,5,600,0.1\n"
    "s3,0,batch,1,5,900,0.1\n"
    "big,100,batch,1,40,1000,0.3\n"
    "late,200,batch,1,5,100,0.1\n";

static const char *on_demand = "    layouts: [\"3g.40gb x2\", \"7g.80gb\"]\n    reconfigure: on-demand\n"
                               "    reconfigure_time: 2m\n";

Test(mig, a_40gb_model_waits_for_the_drain_and_the_reconfiguration) {
  g_autofree char *extra = g_strdup_printf("%s    drain: wait\n", on_demand);
  g_autofree char *yaml = mig_pool(1, "1g.10gb x7", extra);
  results *r = tu_run(yaml, drain_trace, NULL);
  const job_result *big = tu_job(r, "big");
  /* the drain ends when s3 leaves at 900 s; then 120 s down; 3g.40gb holds 40 GB */
  TU_NEAR(big->start_s, 900 + 120, 0);
  TU_NEAR(big->wait_s, 920, 0);
  TU_NEAR(big->end_s, 2020, 0);
  cr_assert_eq(big->outcome, OUTCOME_COMPLETED);
  /* no new placement on a draining GPU: `late` fits a free 1g.10gb but waits for the new
   * layout, where it takes the second 3g.40gb instance */
  TU_NEAR(tu_job(r, "late")->start_s, 1020, 0);
  for (int i = 1; i <= 3; i++) {
    g_autofree char *id = g_strdup_printf("s%d", i);
    cr_assert_eq(tu_job(r, id)->kills, 0, "drain: wait evicts nobody");
    TU_NEAR(tu_job(r, id)->end_s, 300 * i, 0);
  }
  const pool_result *p = pool0(r);
  cr_assert_eq(p->reconfigurations, 1);
  cr_assert_eq(p->evictions, 0);
  TU_NEAR(p->drain_gpu_s, 800, 1e-6);
  TU_NEAR(p->down_gpu_s, 120, 1e-6);
  TU_NEAR(p->work_lost_gpu_s, 0, 0);
  /* the GPU is provisioned but not allocated while it is down */
  const gpu_result *g = &g_array_index(r->gpus, gpu_result, 0);
  TU_NEAR(g->allocated_s, 900 + (2020 - 1020), 1e-6);
  TU_NEAR(p->provisioned_gpu_s, 2020, 1e-6);
  cr_assert_eq(count_events(r, EVENT_RECONFIGURE), 1);
  const event_row *e = first_event(r, EVENT_RECONFIGURE);
  TU_NEAR(e->t_s, 900, 0);
  cr_assert_str_eq(e->cause_job, "big");
  cr_assert_str_eq(e->detail, "layout 1g.10gb x7 -> 3g.40gb x2; drained 800.000 s (drain: wait); down 120.000 s");
  results_free(r);
}

Test(mig, evict_kills_and_requeues_the_residents_at_once) {
  g_autofree char *extra = g_strdup_printf("%s    drain: evict\n", on_demand);
  g_autofree char *yaml = mig_pool(1, "1g.10gb x7", extra);
  results *r = tu_run(yaml, drain_trace, NULL);
  /* evicted at 100 s, down until 220 s; big first on the new layout */
  TU_NEAR(tu_job(r, "big")->start_s, 220, 0);
  const pool_result *p = pool0(r);
  cr_assert_eq(p->evictions, 3);
  cr_assert_eq(count_events(r, EVENT_EVICTION), 3);
  TU_NEAR(p->drain_gpu_s, 0, 0);
  TU_NEAR(p->down_gpu_s, 120, 1e-6);
  TU_NEAR(p->work_lost_gpu_s, 300, 1e-6); /* 100 s each, no checkpoints */
  for (int i = 1; i <= 3; i++) {
    g_autofree char *id = g_strdup_printf("s%d", i);
    const job_result *j = tu_job(r, id);
    cr_assert_eq(j->outcome, OUTCOME_COMPLETED, "%s is requeued even with restart: never", id);
    cr_assert_eq(j->kills, 1);
    TU_NEAR(j->work_lost_s, 100, 1e-6);
  }
  /* s1 (first in queue order) takes the other 3g.40gb at 220 s and runs 300 s again; s2
   * follows it (520 + 600), then s3 when s2 leaves (1120 + 900); start_s is the first start */
  TU_NEAR(tu_job(r, "s1")->end_s, 520, 0);
  TU_NEAR(tu_job(r, "s2")->end_s, 1120, 0);
  TU_NEAR(tu_job(r, "s3")->end_s, 2020, 0);
  TU_NEAR(tu_job(r, "late")->end_s, 1220 + 100, 0);
  const event_row *ev = first_event(r, EVENT_EVICTION);
  TU_NEAR(ev->t_s, 100, 0);
  cr_assert(strstr(ev->detail, "evicted to reconfigure p/n0/g0 from 1g.10gb x7 to 3g.40gb x2"), "%s", ev->detail);
  results_free(r);
}

Test(mig, with_reconfigure_never_the_40gb_model_is_unplaceable) {
  g_autofree char *yaml = mig_pool(1, "1g.10gb x7", "    reconfigure: never\n");
  results *r = tu_run(yaml, drain_trace, NULL);
  const job_result *big = tu_job(r, "big");
  cr_assert_eq(big->outcome, OUTCOME_UNPLACEABLE);
  cr_assert_str_eq(big->reason, "needs 40.00 GB per worker; the largest MIG instance of pool 'p' "
                                "(layout 1g.10gb x7; reconfigure: never) holds 10.20 GB");
  TU_NEAR(big->end_s, 100, 0);
  cr_assert_eq(pool0(r)->reconfigurations, 0);
  results_free(r);
  /* `check` says so too */
  g_autofree char *sp = tu_write_temp("never.yaml", yaml);
  g_autofree char *tp = tu_write_temp("never.csv", drain_trace);
  g_autoptr(diag_list) d = diag_list_new(0);
  scenario *sc = scenario_load(sp, d);
  trace *tr = trace_load(tp, d);
  cr_assert(sc && tr);
  sim_check_jobs(sc, tr, d);
  cr_assert_eq(d->count, 1);
  cr_assert(strstr(g_ptr_array_index(d->messages, 0), "never.csv:5: job 'big' can never run in pool 'p': needs 40.00 GB"));
  scenario_free(sc);
  trace_free(tr);
  /* a model larger than every allowed layout is unplaceable even on demand */
  g_autofree char *y2 = mig_pool(1, "1g.10gb x7", "    layouts: [\"3g.40gb x2\"]\n    reconfigure: on-demand\n");
  r = tu_run(y2, "id,submit_s,kind,gpus,mem_gb,duration_s\nhuge,0,batch,1,60,10\n", NULL);
  cr_assert_eq(tu_job(r, "huge")->outcome, OUTCOME_UNPLACEABLE);
  cr_assert(strstr(tu_job(r, "huge")->reason, "any layout pool 'p' may take (1g.10gb x7, 3g.40gb x2) holds 42.14 GB"),
            "%s", tu_job(r, "huge")->reason);
  results_free(r);
}

Test(mig, one_reconfiguration_serves_a_waiting_job_and_the_least_busy_gpu_is_chosen) {
  /* two GPUs: g0 holds two small jobs, g1 one (ending first). Two 40 GB models arrive:
   * one reconfiguration of g1 (fewest residents) to 3g.40gb x2 holds both, so no second
   * GPU is drained for them, and a third pass later does not start another. */
  g_autofree char *yaml = g_strdup_printf(
      "pools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 2\n    gpus_per_node: 1\n"
      "    strategy: mig\n    layout: 1g.10gb x7\n    placement: spread\n    drain: wait\n%s",
      on_demand);
  results *r = tu_run(yaml,
                      "id,submit_s,kind,gpus,mem_gb,duration_s,sm\n"
                      "a,0,batch,1,5,1000,0.1\n"
                      "b,1,batch,1,5,500,0.1\n"
                      "c,2,batch,1,5,1000,0.1\n"
                      "m1,10,batch,1,40,100,0.3\n"
                      "m2,11,batch,1,40,100,0.3\n",
                      NULL);
  cr_assert_eq(pool0(r)->reconfigurations, 1);
  cr_assert_str_eq(tu_job(r, "b")->gpu_ids, "p/n1/g0");
  TU_NEAR(tu_job(r, "m1")->start_s, 501 + 120, 0);
  TU_NEAR(tu_job(r, "m2")->start_s, 501 + 120, 0);
  cr_assert_str_eq(tu_job(r, "m1")->gpu_ids, "p/n1/g0");
  cr_assert_str_eq(tu_job(r, "m2")->gpu_ids, "p/n1/g0");
  results_free(r);
}

Test(mig, a_gang_gets_enough_instances_from_its_reconfigurations) {
  /* 4 workers of 40 GB: two GPUs reconfigured to 3g.40gb x2 at once */
  g_autofree char *extra = g_strdup_printf("%s    drain: wait\n", on_demand);
  g_autofree char *yaml = mig_pool(3, "1g.10gb x7", extra);
  results *r = tu_run(yaml, "id,submit_s,kind,gpus,mem_gb,duration_s,sm,comm_frac\n"
                            "gang,0,training,4,40,600,0.3,0.1\n", NULL);
  const job_result *g = tu_job(r, "gang");
  TU_NEAR(g->start_s, 120, 0);
  cr_assert_str_eq(g->gpu_ids, "p/n0/g0;p/n0/g1;p/n0/g0;p/n0/g1");
  cr_assert_eq(pool0(r)->reconfigurations, 2);
  TU_NEAR(pool0(r)->down_gpu_s, 240, 1e-6);
  results_free(r);
}

Test(mig, a_pool_from_a_mig_parted_config_runs_and_reconfigures_to_its_other_configs) {
  g_autofree char *cfg = g_build_filename(TEST_DATA_DIR, "..", "..", "scenarios", "nvidia",
                                          "mig-parted-a100-80gb.yaml", NULL);
  g_autofree char *cfg_dir = g_path_get_dirname(cfg);
  cr_assert(paths_allow(cfg_dir, NULL)); /* the scenario is written elsewhere (paths.h) */
  g_autofree char *yaml = g_strdup_printf(
      "pools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n    gpus_per_node: 1\n"
      "    mig_config: %s\n    mig_config_name: all-balanced\n    reconfigure: on-demand\n"
      "    reconfigure_time: 30s\n", cfg);
  results *r = tu_run(yaml,
                      "id,submit_s,kind,gpus,mem_gb,duration_s,sm\n"
                      "small,0,batch,1,5,100,1\n"  /* 1g.10gb of all-balanced: 14 SMs */
                      "large,0,batch,1,35,100,1\n" /* 3g.40gb: 42 SMs */
                      "whole,10,batch,1,60,98,1\n", /* only all-7g.80gb holds 60 GB */
                      NULL);
  TU_NEAR(tu_job(r, "small")->end_s, 100 * 108.0 / 14, 1e-6);
  TU_NEAR(tu_job(r, "large")->end_s, 100 * 108.0 / 42, 1e-6);
  /* drained when `small` leaves, 30 s down, then 98 s of work at 98/108 */
  const job_result *w = tu_job(r, "whole");
  TU_NEAR(w->start_s, 100 * 108.0 / 14 + 30, 1e-6);
  TU_NEAR(w->end_s - w->start_s, 108, 1e-6);
  const event_row *e = first_event(r, EVENT_RECONFIGURE);
  cr_assert(strstr(e->detail, "layout 3g.40gb + 2g.20gb + 1g.10gb x2 -> 7g.80gb"), "%s", e->detail);
  results_free(r);
}

/* ---- per-GPU layouts (mig-parted per-device entries) ---- */

/* A pool of one node whose GPUs take the per-device entries of config `per-gpu`. */
static char *per_gpu_pool(int gpus, const char *entries) {
  g_autofree char *cfg = g_strdup_printf("version: v1\nmig-configs:\n  per-gpu:\n%s", entries);
  g_autofree char *path = tu_write_temp("per-gpu-mig.yaml", cfg);
  return g_strdup_printf("pools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n"
                         "    gpus_per_node: %d\n    mig_config: %s\n"
                         "    mig_config_name: per-gpu\n", gpus, path);
}

/* Golden: GPU 0 carries 1g.10gb x7, GPU 1 7g.80gb. The 40 GB model fits only GPU 1's
 * instance; the seven 10 GB jobs take GPU 0's seven 1g.10gb (14 SMs each), none waits. */
Test(mig, per_gpu_layouts_place_each_job_on_its_own_cards_instances) {
  g_autofree char *yaml = per_gpu_pool(2, "    - devices: [0]\n      mig-enabled: true\n"
                                          "      mig-devices: {\"1g.10gb\": 7}\n"
                                          "    - devices: [1]\n      mig-enabled: true\n"
                                          "      mig-devices: {\"7g.80gb\": 1}\n");
  GString *csv = g_string_new("id,submit_s,kind,gpus,mem_gb,duration_s,sm\nbig,0,batch,1,40,98,1\n");
  for (int i = 0; i < 7; i++) g_string_append_printf(csv, "s%d,0,batch,1,10,14,1\n", i);
  results *r = tu_run(yaml, csv->str, NULL);
  g_string_free(csv, TRUE);
  const job_result *big = tu_job(r, "big");
  cr_assert_str_eq(big->gpu_ids, "p/n0/g1");
  TU_NEAR(big->start_s, 0, 1e-9);
  TU_NEAR(big->end_s, 108, 1e-6); /* 98 s of work at 98/108 */
  for (int i = 0; i < 7; i++) {
    g_autofree char *id = g_strdup_printf("s%d", i);
    const job_result *j = tu_job(r, id);
    cr_assert_str_eq(j->gpu_ids, "p/n0/g0", "%s on %s", id, j->gpu_ids);
    TU_NEAR(j->start_s, 0, 1e-9);
    TU_NEAR(j->end_s, 108, 1e-6); /* 14 s of work at 14/108 */
  }
  cr_assert_eq(pool0(r)->reconfigurations, 0);
  results_free(r);
}

/* A GPU the entries leave with MIG off is one whole card (all 108 SMs, 80 GB): a 70 GB job
 * no instance of GPU 1 holds runs there at full speed. */
Test(mig, a_per_gpu_card_with_mig_off_is_one_whole_card) {
  g_autofree char *yaml = per_gpu_pool(2, "    - devices: [0]\n      mig-enabled: false\n"
                                          "    - devices: [1]\n      mig-enabled: true\n"
                                          "      mig-devices: {\"3g.40gb\": 2}\n");
  results *r = tu_run(yaml,
                      "id,submit_s,kind,gpus,mem_gb,duration_s,sm\n"
                      "a,0,batch,1,30,100,1\n" /* GPU 0 is lowest: the whole card */
                      "huge,0,batch,1,70,100,1\n" /* no 3g.40gb holds it: waits for GPU 0 */
                      "b,0,batch,1,30,42,1\n", /* GPU 1's 3g.40gb: 42 of 108 SMs */
                      NULL);
  const job_result *a = tu_job(r, "a"), *huge = tu_job(r, "huge"), *b = tu_job(r, "b");
  cr_assert_str_eq(a->gpu_ids, "p/n0/g0");
  TU_NEAR(a->end_s, 100, 1e-6);
  cr_assert_str_eq(huge->gpu_ids, "p/n0/g0");
  TU_NEAR(huge->start_s, 100, 1e-6);
  TU_NEAR(huge->end_s, 200, 1e-6);
  cr_assert_str_eq(b->gpu_ids, "p/n0/g1");
  TU_NEAR(b->end_s, 108, 1e-6);
  results_free(r);
}

/* ---- vGPU ---- */

static char *vgpu_pool(const char *profile, const char *sched) {
  return g_strdup_printf("pools:\n  - name: v\n    gpu: A100-80GB\n    nodes: 1\n    gpus_per_node: 1\n"
                         "    strategy: vgpu\n    profile: %s\n    scheduler: %s\n"
                         "    vgpu_licence_per_hour: 0.5\n", profile, sched);
}

/* a busy VM (1000 s of work) next to an idle one (a notebook that never computes) */
static const char *lone_busy_vm = "id,submit_s,kind,gpus,mem_gb,duration_s,busy\n"
                                  "work,0,batch,1,10,1000,\n"
                                  "idle,0,notebook,1,10,20000,0\n";

Test(mig, vgpu_equal_share_and_fixed_share_give_a_lone_busy_vm_different_speeds) {
  g_autofree char *be = vgpu_pool("A100D-20C", "best-effort");
  g_autofree char *eq = vgpu_pool("A100D-20C", "equal-share");
  g_autofree char *fx = vgpu_pool("A100D-20C", "fixed-share");
  results *rb = tu_run(be, lone_busy_vm, NULL);
  results *re = tu_run(eq, lone_busy_vm, NULL);
  results *rf = tu_run(fx, lone_busy_vm, NULL);
  TU_NEAR(tu_job(rb, "work")->end_s, 1000, 0);    /* idle cycles are used */
  TU_NEAR(tu_job(re, "work")->end_s, 2000, 1e-6); /* 1 / 2 running vGPUs */
  TU_NEAR(tu_job(rf, "work")->end_s, 4000, 1e-6); /* 1 / 4 vGPUs of A100D-20C */
  results_free(rb);
  results_free(re);
  results_free(rf);
  /* alone on the card: equal share gives it everything, fixed share still a quarter */
  const char *alone = "id,submit_s,kind,gpus,mem_gb,duration_s\nwork,0,batch,1,10,1000\n";
  re = tu_run(eq, alone, NULL);
  rf = tu_run(fx, alone, NULL);
  TU_NEAR(tu_job(re, "work")->end_s, 1000, 1e-6);
  TU_NEAR(tu_job(rf, "work")->end_s, 4000, 1e-6);
  results_free(re);
  results_free(rf);
}

Test(mig, vgpu_memory_is_partitioned_and_licences_are_costed) {
  g_autofree char *yaml = vgpu_pool("A100D-20C", "best-effort");
  results *r = tu_run(yaml,
                      "id,submit_s,kind,gpus,mem_gb,duration_s,busy\n"
                      "fat,0,batch,1,30,100,\n"          /* 30 GB > 20 GiB frame buffer */
                      "a,0,batch,1,10,1000,\n"
                      "b,0,notebook,1,10,2000,0\n",
                      "job_id,after_s,mem_gb\nb,500,25\n"); /* b outgrows its frame buffer */
  cr_assert_eq(tu_job(r, "fat")->outcome, OUTCOME_UNPLACEABLE);
  cr_assert(strstr(tu_job(r, "fat")->reason, "each A100D-20C vGPU of pool 'v' has 21.47 GB of frame buffer"),
            "%s", tu_job(r, "fat")->reason);
  cr_assert_eq(tu_job(r, "b")->outcome, OUTCOME_FAILED);
  cr_assert_eq(tu_job(r, "a")->outcome, OUTCOME_COMPLETED, "the other VM is untouched");
  TU_NEAR(tu_job(r, "a")->end_s, 1000, 1e-6);
  const pool_result *p = pool0(r);
  TU_NEAR(p->vgpu_s, 1000 + 500, 1e-6);             /* a: 1000 s, b: 500 s */
  TU_NEAR(p->licence_cost, 1500 / 3600.0 * 0.5, 1e-9);
  TU_NEAR(p->cost, 1000 / 3600.0 * 3.43 + p->licence_cost, 1e-9);
  TU_NEAR(tu_job(r, "a")->gpu_s_share, 250, 1e-6); /* a quarter of the GPU */
  /* charged half the card while b was on it (500 s), the whole card after */
  TU_NEAR(tu_job(r, "a")->gpu_s_allocated, 500 / 2.0 + 500, 1e-6);
  results_free(r);
}

Test(mig, a_gang_the_reachable_layouts_cannot_hold_is_unplaceable_not_left_waiting) {
  /* 7g.80gb already holds a 5 GB worker, so no reconfiguration is ever started for it:
   * five of them can never run on one GPU, although 1g.10gb x7 is an allowed target */
  g_autofree char *yaml = mig_pool(1, "7g.80gb", "    layouts: [\"1g.10gb x7\"]\n    reconfigure: on-demand\n");
  results *r = tu_run(yaml, "id,submit_s,kind,gpus,mem_gb,duration_s\ng,0,training,5,5,100\n"
                            "two,0,training,2,50,100\n", NULL);
  cr_assert_eq(tu_job(r, "g")->outcome, OUTCOME_UNPLACEABLE);
  cr_assert_str_eq(tu_job(r, "g")->reason, "needs 5 workers of 5.00 GB; pool 'p' has room for at most 1 MIG instances that large");
  cr_assert_eq(tu_job(r, "two")->outcome, OUTCOME_UNPLACEABLE);
  results_free(r);
}
