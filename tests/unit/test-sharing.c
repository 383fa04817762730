/* test-sharing.c: time-slicing and MPS end to end: out-of-memory policies, the MPS
 * throughput gain for small-kernel replicas, shared fate of crashes, stragglers in a
 * gang, the noisy-neighbour model's calibration points, the interference table, and the
 * contract every registered strategy must keep (work conserved, speeds in [0, 1]). */
#include "testutil.h"
#include "share.h"
#include "interference.h"

static guint count_events(const results *r, event_kind k, gboolean innocent_only) {
  guint n = 0;
  for (guint i = 0; i < r->events_log->len; i++) {
    const event_row *e = &g_array_index(r->events_log, event_row, i);
    if (e->kind == k && (!innocent_only || e->innocent)) n++;
  }
  return n;
}

static char *ts_pool(const char *gpu, int replicas, const char *extra) {
  return g_strdup_printf("name: ts\npools:\n  - name: p\n    gpu: %s\n    nodes: 1\n    gpus_per_node: 1\n"
                         "    strategy: time-slicing\n    replicas: %d\n%s",
                         gpu, replicas, extra ? extra : "");
}

/* ---- the noisy-neighbour model's calibration points ---- */

Test(sharing, timeslice_model_matches_colfax_and_a_lone_tenant_runs_at_full_speed) {
  TU_NEAR(share_timeslice_speed(1.0, 0.0, 0.06), 1.0, 0);
  /* four busy tenants: each about 16-19 % below an ideal quarter [S19] */
  double four = share_timeslice_speed(1.0, 3.0, 0.06);
  cr_assert(four / 0.25 >= 0.81 && four / 0.25 <= 0.84, "4 tenants: %.4f of a quarter", four / 0.25);
  /* light activity overlaps little: independent busy periods overlap for own x others of
   * the time, and below an overlap of 1 the loss goes with its square */
  double a = (4.0 / 0.82 - 1.0) / pow(3.0, 1.2);
  TU_NEAR(share_timeslice_speed(0.4, 0.5, 0.06), 1.0 / (1.0 + a * 0.2 * 0.2), 1e-12);
  TU_NEAR(share_timeslice_speed(0.5, 0.4, 0.06), share_timeslice_speed(0.4, 0.5, 0.06), 1e-15);
  /* a context with no activity of its own, or without busy neighbours, is not slowed */
  TU_NEAR(share_timeslice_speed(0.0, 3.0, 0.06), 1.0, 0);
  TU_NEAR(share_timeslice_speed(0.7, 0.0, 0.06), 1.0, 0);
}

Test(sharing, timeslice_curve_two_saturating_contexts_and_monotone) {
  /* a = (4 / 0.82 - 1) / 3^1.2: two saturating contexts get 1 / (1 + a) */
  double a = (4.0 / 0.82 - 1.0) / pow(3.0, 1.2);
  TU_NEAR(share_timeslice_speed(1.0, 1.0, 0.06), 1.0 / (1.0 + a), 1e-12);
  TU_NEAR(share_timeslice_speed(1.0, 1.0, 0.06), 0.4907, 1e-4);
  /* saturating contexts (own 1) summing to U: decreasing in U, continuous where the
   * exponent changes (an overlap of 1: two saturating contexts) */
  double prev = 1.0;
  for (double u = 1.0; u <= 8.0; u += 0.25) {
    double v = share_timeslice_speed(1.0, u - 1.0, 0.06);
    cr_assert(v > 0 && v <= prev, "speed %g at U = %g after %g", v, u, prev);
    prev = v;
  }
  TU_NEAR(share_timeslice_speed(1.0, 1.0 - 1e-9, 0.06), share_timeslice_speed(1.0, 1.0 + 1e-9, 0.06), 1e-8);
  /* below an overlap of 1 the exponent is 2: a saturating context next to a neighbour busy
   * half of the time */
  TU_NEAR(share_timeslice_speed(1.0, 0.5, 0.06), 1.0 / (1.0 + a * 0.25), 1e-12);
  /* efficiency of the card: 1 up to U = 1, four contexts keep 0.82 of it */
  TU_NEAR(share_timeslice_efficiency(0.9, 0.06), 1.0, 0);
  TU_NEAR(share_timeslice_efficiency(4.0, 0.06), 0.82, 1e-12);
}

/* gpu_util is the job's own activity and its duty: two jobs at 0.4 overlap for 0.16 of their
 * time and lose 2.6 %; at 0.7 each they overlap for 0.49 and keep 0.80; the busy time of a
 * job is its gpu_util times its run time. A single-GPU trainer has no communication share. */
Test(sharing, gpu_util_sets_the_demand_of_time_sliced_jobs) {
  g_autofree char *yaml = ts_pool("A100-40GB", 2, NULL);
  results *r = tu_run(yaml, "id,submit_s,kind,gpus,mem_gb,duration_s,gpu_util\n"
                            "a,0,training,1,1,100,0.4\nb,0,batch,1,1,100,0.4\n", NULL);
  double v4 = share_timeslice_speed(0.4, 0.4, 0.06);
  TU_NEAR(v4, 0.9741, 1e-4);
  TU_NEAR(tu_job(r, "a")->end_s, 100 / v4, 1e-5);
  TU_NEAR(tu_job(r, "b")->end_s, 100 / v4, 1e-5);
  TU_NEAR(tu_job(r, "a")->busy_s, 0.4 * 100 / v4, 1e-5);
  results_free(r);
  r = tu_run(yaml, "id,submit_s,kind,gpus,mem_gb,duration_s,gpu_util\n"
                   "a,0,training,1,1,100,0.7\nb,0,training,1,1,100,0.7\n", NULL);
  double v = share_timeslice_speed(0.7, 0.7, 0.06);
  TU_NEAR(v, 0.8005, 1e-4);
  TU_NEAR(tu_job(r, "a")->end_s, 100 / v, 1e-5);
  results_free(r);
}

/* A service's duty is its offered load at the speed its neighbour leaves it, and the
 * neighbour's speed follows that duty: both are settled at the same event (the fixed point),
 * not at some later unrelated event. BERT-like at load 0.5 next to a trainer: the service
 * gets 0.49 of the GPU, so it is busy all the time, and the trainer too sees two saturating
 * contexts. */
Test(sharing, a_services_duty_and_its_neighbours_speed_reach_their_fixed_point) {
  g_autofree char *yaml = ts_pool("A100-80GB", 2, "horizon: 600s\n");
  results *r = tu_run(yaml, "id,submit_s,kind,gpus,mem_gb,duration_s,rate_rps,service_ms\n"
                            "bert,0,inference,1,2,600,123.5,4.05\n"
                            "trainer,0,training,1,10,100000,,\n", NULL);
  const job_result *t = tu_job(r, "trainer");
  TU_NEAR(t->work_done_s / t->run_s, share_timeslice_speed(1.0, 1.0, 0.06), 1e-6);
  results_free(r);
}

Test(sharing, mps_model_gains_where_sms_are_idle_and_loses_to_bandwidth) {
  const double R = SHARE_MPS_MEM_REF;
  /* a client that leaves SMs idle next to another: both fit, only bandwidth is lost */
  TU_NEAR(share_mps_speed(0.4, 1.0, 0.4, R, 1.0, 0.075), 0.925, 1e-12);
  /* a lone client capped at 25 % of the threads gets 25 % of an SM-hungry job's speed */
  TU_NEAR(share_mps_speed(1.0, 0.25, 0.0, R, 0.0, 0.075), 0.25, 1e-12);
  /* oversubscribed SMs are shared in proportion to what each client may use */
  TU_NEAR(share_mps_speed(1.0, 1.0, 1.0, R, 1.0, 0.0), 0.5, 1e-12);
  /* the bandwidth loss scales with both clients' memory intensities: half as memory-busy
   * next to a neighbour half as memory-busy: a quarter of the reference pressure,
   * 1 / (1 + k / 4) with k = 0.075 / 0.925 */
  TU_NEAR(share_mps_speed(0.4, 1.0, 0.4, R / 2, 0.5, 0.075), 1.0 / (1.0 + 0.075 / 0.925 / 4),
          1e-12);
  /* no floor: a crowd of 20 reference neighbours still leaves a positive speed, lower than
   * 10 neighbours leave (the linear form of before went negative past 13 and was floored
   * at 0.3) */
  double s10 = share_mps_speed(0.04, 1.0, 0.4, R, 10.0, 0.075);
  double s20 = share_mps_speed(0.04, 1.0, 0.4, R, 20.0, 0.075);
  cr_assert(s20 > 0 && s20 < s10 && s10 < 0.925, "crowd speeds %g %g", s10, s20);
  TU_NEAR(s20, 1.0 / (1.0 + 0.075 / 0.925 * 20.0), 1e-12);
  /* a compute-only client (memory never busy) loses nothing to bandwidth */
  TU_NEAR(share_mps_speed(0.4, 1.0, 0.4, 0.0, 3.0, 0.075), 1.0, 1e-12);
}

Test(sharing, mps_block_wait_depends_on_the_neighbour) {
  /* two clients that fit side by side never wait for each other's blocks */
  TU_NEAR(share_mps_block_wait(SCENARIO_DEFAULT_MPS_BLOCK_WAIT, 0.4, 0.2, 0.6, 1.0), 0.0, 1e-12);
  /* next to a busy trainer that wants every SM, a compute-bound request waits the full
   * ratio; a memory-bound one only for its compute share; an idle neighbour costs nothing */
  TU_NEAR(share_mps_block_wait(SCENARIO_DEFAULT_MPS_BLOCK_WAIT, 0.5, 0.0, 1.0, 1.0), SCENARIO_DEFAULT_MPS_BLOCK_WAIT, 1e-12);
  TU_NEAR(share_mps_block_wait(SCENARIO_DEFAULT_MPS_BLOCK_WAIT, 0.5, 0.6, 1.0, 1.0), SCENARIO_DEFAULT_MPS_BLOCK_WAIT * 0.4, 1e-12);
  TU_NEAR(share_mps_block_wait(SCENARIO_DEFAULT_MPS_BLOCK_WAIT, 0.5, 0.0, 1.0, 0.0), 0.0, 1e-12);
  /* a neighbour holding only part of its SMs, half of the time */
  TU_NEAR(share_mps_block_wait(SCENARIO_DEFAULT_MPS_BLOCK_WAIT, 0.5, 0.0, 0.75, 0.5), SCENARIO_DEFAULT_MPS_BLOCK_WAIT * 0.5 * 0.5, 1e-12);
  /* memory intensity from the trace, the reference when the trace does not say */
  job_spec j;
  job_init(&j, JOB_INFERENCE);
  TU_NEAR(share_mps_mem_intensity(&j), SHARE_MPS_MEM_REF, 1e-12);
  j.gpu_util = 0.8;
  j.mem_util = 0.2;
  TU_NEAR(share_mps_mem_intensity(&j), 0.25, 1e-12);
}

/* A BERT-like server next to a trainer under MPS: the mean latency grows by the SM share and
 * the block waits; the p99 far more than the mean (a short request sees one draw of the
 * waits), while a request 500x longer averages them out (p99 close to its mean). */
static void mps_tail(double service_ms, double rps, double seconds, double *mean_x, double *p99_x) {
  const char *yaml = "name: t\nseed: 1\ninterval: 1d\npools:\n  - name: p\n    gpu: A100-80GB\n"
                     "    nodes: 1\n    gpus_per_node: 1\n    strategy: mps\n    replicas: 2\n"
                     "    activeThreadPercentage: 100\n    pinnedMemLimit: none\n";
  g_autofree char *csv = g_strdup_printf(
      "id,submit_s,kind,gpus,mem_gb,duration_s,rate_rps,service_ms,mem_util\n"
      "srv,0,inference,1,2,%g,%g,%g,0\ntrainer,0,training,1,30,1e8,,,0.3\n",
      seconds, rps, service_ms);
  results *r = tu_run(yaml, csv, NULL);
  const service_result *s = tu_service(r, "srv");
  *mean_x = s->mean_ms / service_ms;
  *p99_x = s->p99_ms / service_ms;
  results_free(r);
}

Test(sharing, mps_short_requests_have_a_tail_long_ones_do_not) {
  double mean, p99;
  /* SM share 0.5 / (0.5 + 1) of the 0.5 it wants, no bandwidth loss (its memory is never
   * busy): speed x; waits mean SCENARIO_DEFAULT_MPS_BLOCK_WAIT per unit of its work (its
   * service time alone, not slowed by x), exponential for a short request */
  const double beta = SCENARIO_DEFAULT_MPS_BLOCK_WAIT, x = (0.5 / 1.5) / 0.5;
  mps_tail(4.0, 0.1, 40000, &mean, &p99);
  TU_NEAR(mean, 1.0 / x + beta, 0.03 * mean);
  TU_NEAR(p99, 1.0 / x + beta * log(100.0), 0.05 * p99);
  cr_expect_gt(p99 / mean, 1.8, "a short request's p99 is far above its mean: %g / %g", p99, mean);
  mps_tail(2000.0, 0.0001, 3e7, &mean, &p99);
  TU_NEAR(mean, 1.0 / x + beta, 0.03 * mean);
  cr_expect_lt(p99 / mean, 1.15, "a long request averages the waits out: %g / %g", p99, mean);
}

/* ---- out of memory ---- */

static const char *four_notebooks =
    "id,submit_s,kind,gpus,mem_gb,duration_s,busy,burst_s\n"
    "nb1,0,notebook,1,5,7200,0.2,30\n"
    "nb2,0,notebook,1,5,7200,0.2,30\n"
    "nb3,0,notebook,1,5,7200,0.2,30\n"
    "nb4,0,notebook,1,5,7200,0.2,30\n";
static const char *nb1_loads_a_model = "job_id,after_s,mem_gb\nnb1,2400,30\n";

Test(sharing, oom_all_kills_every_notebook_on_the_card) {
  g_autofree char *yaml = ts_pool("A100-40GB", 4, "    oom: all\n");
  results *r = tu_run(yaml, four_notebooks, nb1_loads_a_model);
  for (int i = 1; i <= 4; i++) {
    g_autofree char *id = g_strdup_printf("nb%d", i);
    const job_result *j = tu_job(r, id);
    cr_assert_eq(j->outcome, OUTCOME_FAILED, "%s survived", id);
    cr_assert_eq(j->oom_kills, 1);
    TU_NEAR(j->end_s, 2400, 0);
  }
  cr_assert_eq(count_events(r, EVENT_OOM_KILL, FALSE), 4);
  cr_assert_eq(count_events(r, EVENT_OOM_KILL, TRUE), 3, "three innocent victims");
  const pool_result *p = &g_array_index(r->pools, pool_result, 0);
  cr_assert_eq(p->oom_kills, 4);
  cr_assert_eq(p->innocent_victims, 3);
  results_free(r);
}

Test(sharing, oom_sidecar_kills_only_the_job_over_its_declaration) {
  g_autofree char *yaml = ts_pool("A100-40GB", 4, "    oom: sidecar\n");
  results *r = tu_run(yaml, four_notebooks, nb1_loads_a_model);
  cr_assert_eq(tu_job(r, "nb1")->outcome, OUTCOME_FAILED);
  for (int i = 2; i <= 4; i++) {
    g_autofree char *id = g_strdup_printf("nb%d", i);
    cr_assert_eq(tu_job(r, id)->outcome, OUTCOME_COMPLETED, "%s was killed", id);
  }
  cr_assert_eq(count_events(r, EVENT_OOM_KILL, TRUE), 0);
  results_free(r);
}

Test(sharing, oom_offender_kills_the_job_whose_allocation_failed) {
  /* nb1 grows within its budget story, but nb2's allocation is the one that fails */
  g_autofree char *yaml = ts_pool("A100-40GB", 4, "    oom: offender\n");
  results *r = tu_run(yaml, four_notebooks, "job_id,after_s,mem_gb\nnb1,1000,20\nnb2,2000,15\n");
  cr_assert_eq(tu_job(r, "nb1")->outcome, OUTCOME_COMPLETED);
  cr_assert_eq(tu_job(r, "nb2")->outcome, OUTCOME_FAILED);
  TU_NEAR(tu_job(r, "nb2")->end_s, 2000, 0);
  results_free(r);
}

Test(sharing, mps_pinned_limit_confines_the_failure_to_the_client) {
  const char *yaml = "pools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n    gpus_per_node: 1\n"
                     "    strategy: mps\n    replicas: 4\n    oom: all\n";
  results *r = tu_run(yaml, four_notebooks, "job_id,after_s,mem_gb\nnb1,600,30\n");
  cr_assert_eq(tu_job(r, "nb1")->outcome, OUTCOME_FAILED, "30 GB > the 20 GiB pinned limit");
  for (int i = 2; i <= 4; i++) {
    g_autofree char *id = g_strdup_printf("nb%d", i);
    cr_assert_eq(tu_job(r, id)->outcome, OUTCOME_COMPLETED);
  }
  results_free(r);
}

/* ---- throughput of small-kernel replicas, and shared fate ---- */

static const char *four_replicas =
    "id,submit_s,kind,gpus,mem_gb,duration_s,sm,restart\n"
    "emb1,0,batch,1,4,1000,0.4,never\n"
    "emb2,0,batch,1,4,1000,0.4,never\n"
    "emb3,0,batch,1,4,1000,0.4,never\n"
    "emb4,0,batch,1,4,1000,0.4,never\n";

static double makespan(const results *r) {
  double m = 0;
  for (guint i = 0; i < r->jobs->len; i++) m = MAX(m, g_array_index(r->jobs, job_result, i).end_s);
  return m;
}

Test(sharing, mps_gives_small_replicas_about_2_3_times_the_throughput_of_time_slicing) {
  const char *mps = "pools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n    gpus_per_node: 1\n"
                    "    strategy: mps\n    replicas: 4\n";
  g_autofree char *ts = ts_pool("A100-80GB", 4, NULL);
  results *rm = tu_run(mps, four_replicas, NULL);
  results *rt = tu_run(ts, four_replicas, NULL);
  double ratio = makespan(rt) / makespan(rm); /* same work: throughput ratio */
  cr_assert(ratio >= 2.2 && ratio <= 2.5, "MPS / time-slicing throughput %.3f", ratio);
  for (guint i = 0; i < rm->jobs->len; i++) {
    cr_assert_eq(g_array_index(rm->jobs, job_result, i).outcome, OUTCOME_COMPLETED);
    cr_assert_eq(g_array_index(rt->jobs, job_result, i).outcome, OUTCOME_COMPLETED);
  }
  results_free(rm);
  results_free(rt);
}

Test(sharing, one_crash_takes_every_mps_client_down_but_only_itself_under_time_slicing) {
  const char *mps = "pools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n    gpus_per_node: 1\n"
                    "    strategy: mps\n    replicas: 4\n";
  g_autofree char *ts = ts_pool("A100-80GB", 4, NULL);
  const char *crash = "job_id,after_s,crash\nemb2,100,1\n";
  results *rm = tu_run(mps, four_replicas, crash);
  results *rt = tu_run(ts, four_replicas, crash);
  for (int i = 1; i <= 4; i++) {
    g_autofree char *id = g_strdup_printf("emb%d", i);
    cr_assert_eq(tu_job(rm, id)->outcome, OUTCOME_FAILED, "MPS: %s survived the fault", id);
    cr_assert_eq(tu_job(rt, id)->outcome, i == 2 ? OUTCOME_FAILED : OUTCOME_COMPLETED);
  }
  cr_assert_eq(count_events(rm, EVENT_CRASH, FALSE), 4);
  cr_assert_eq(count_events(rm, EVENT_CRASH, TRUE), 3);
  cr_assert_eq(count_events(rt, EVENT_CRASH, FALSE), 1);
  results_free(rm);
  results_free(rt);
}

/* ---- stragglers ---- */

/* A lone 1-GPU training job exchanges no gradients: next to a busy neighbour it runs at the
 * time-slicing speed itself (0.491), not 1 / (0.9 / 0.491 + 0.1) = 0.518 as it did when
 * comm_frac 0.1 applied to it (issue 12; the default comm_frac is 0.1). */
Test(sharing, a_single_gpu_training_job_pays_no_gang_communication) {
  g_autofree char *yaml = ts_pool("A100-80GB", 2, NULL);
  results *r = tu_run(yaml, "id,submit_s,kind,gpus,mem_gb,duration_s,comm_frac\n"
                            "noisy,0,batch,1,1,100000,\nlone,0,training,1,1,100,0.1\n", NULL);
  double s = share_timeslice_speed(1.0, 1.0, 0.06);
  TU_NEAR(tu_job(r, "lone")->end_s, 100 / s, 1e-6);
  results_free(r);
}

Test(sharing, one_shared_worker_holds_back_the_whole_gang) {
  const char *yaml = "pools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n    gpus_per_node: 4\n"
                     "    strategy: time-slicing\n    replicas: 2\n";
  results *r = tu_run(yaml,
                      "id,submit_s,kind,gpus,mem_gb,duration_s,comm_frac\n"
                      "noisy,0,batch,1,10,100000,\n"
                      "gang,1,training,4,10,100,0.1\n",
                      NULL);
  const job_result *g = tu_job(r, "gang");
  double s = share_timeslice_speed(1.0, 1.0, 0.06); /* the shared worker's speed */
  double rate = 1.0 / (0.9 / s + 0.1);
  TU_NEAR(g->end_s - g->start_s, 100 / rate, 1e-6);
  cr_assert(g->slowdown > 1.9, "the gang runs about as slowly as its shared worker: %.3f", g->slowdown);
  TU_NEAR(g->straggler_delay_s, (100 / rate) * (1 - rate), 1e-6);
  double wait_frac = (0.9 / s - 0.9) / (0.9 / s + 0.1);
  TU_NEAR(g->straggler_wait_gpu_s, 3 * wait_frac * (100 / rate), 1e-6);
  cr_assert_str_eq(g->gpu_ids, "p/n0/g0;p/n0/g1;p/n0/g2;p/n0/g3", "one worker per GPU first");
  results_free(r);
}

Test(sharing, fail_requests_greater_than_one_refuses_multi_gpu_requests) {
  g_autofree char *yaml = ts_pool("A100-80GB", 4, "    failRequestsGreaterThanOne: true\n");
  results *r = tu_run(yaml, "id,submit_s,kind,gpus,mem_gb,duration_s\nt,0,training,2,5,100\n", NULL);
  cr_assert_eq(tu_job(r, "t")->outcome, OUTCOME_UNPLACEABLE);
  cr_assert(strstr(tu_job(r, "t")->reason, "UnexpectedAdmissionError"));
  results_free(r);
  /* without it, both replicas land on the one card and compete with each other */
  g_autofree char *yaml2 = ts_pool("A100-80GB", 4, NULL);
  r = tu_run(yaml2, "id,submit_s,kind,gpus,mem_gb,duration_s,comm_frac\nt,0,training,2,5,100,0\n", NULL);
  const job_result *t = tu_job(r, "t");
  cr_assert_eq(t->outcome, OUTCOME_COMPLETED);
  cr_assert_str_eq(t->gpu_ids, "p/n0/g0;p/n0/g0");
  TU_NEAR(t->end_s, 100 / share_timeslice_speed(1.0, 1.0, 0.06), 1e-6);
  results_free(r);
}

/* ---- the interference table ---- */

Test(sharing, a_measured_pair_table_replaces_the_model) {
  g_autofree char *tab = tu_write_temp("pairs.csv", "label_a,label_b,speed_a,speed_b\nresnet,bert,0.8,0.6\n");
  g_autofree char *yaml = g_strdup_printf(
      "interference: %s\npools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n    gpus_per_node: 1\n"
      "    strategy: time-slicing\n    replicas: 2\n", tab);
  results *r = tu_run(yaml,
                      "id,submit_s,kind,gpus,mem_gb,duration_s,label\n"
                      "a,0,batch,1,5,80,resnet\nb,0,batch,1,5,600,bert\n",
                      NULL);
  TU_NEAR(tu_job(r, "a")->end_s, 100, 1e-6);  /* 80 s of work at 0.8 */
  /* b: 100 s at 0.6 (60 s of work), then 540 s alone */
  TU_NEAR(tu_job(r, "b")->end_s, 640, 1e-6);
  results_free(r);
}

Test(sharing, interference_table_errors_have_line_and_column) {
  g_autofree char *tab = tu_write_temp("bad-pairs.csv", "label_a,label_b,speed_a\nx,y,2.5\n,y,0.5\n");
  g_autoptr(diag_list) d = diag_list_new(0);
  interference_table *t = interference_load(tab, d);
  cr_assert_null(t);
  cr_assert_eq(d->count, 2);
  cr_assert(strstr(g_ptr_array_index(d->messages, 0), ":2:3: speed_a: expected a speed from 0 (exclusive) to 1.5, found '2.5'"));
  cr_assert(strstr(g_ptr_array_index(d->messages, 1), ":3:1: label_a: expected a job label or kind"));
}

/* ---- the contract every registered strategy keeps ---- */

/* Below capacity, every job finishes; training and batch do exactly their work; no job
 * runs faster than alone; allocated and busy GPU-seconds are consistent. (Speeds in
 * [0, 1] are also asserted inside the simulator on every change.) */
Test(sharing, every_registered_strategy_keeps_the_contract) {
  GString *csv = g_string_new("id,submit_s,kind,gpus,mem_gb,duration_s,busy,rate_rps,service_ms,sm,gpu_frac\n");
  for (int i = 0; i < 60; i++) {
    const char *kinds[] = {"batch", "training", "notebook", "inference"};
    int k = i % 4;
    g_string_append_printf(csv, "j%02d,%d,%s,%d,8,%d,%s,%s,%s,%.2f,%s\n", i, i * 97, kinds[k],
                           k == 1 ? 2 : 1, 300 + (i * 53) % 900, k == 2 ? "0.3" : "",
                           k == 3 ? "4" : "", k == 3 ? "25" : "", 0.3 + 0.1 * (i % 5), k == 1 ? "" : "0.5");
  }
  guint ran = 0;
  /* every row of the strategy table, with the keys its row gives as an example */
  for (guint c = 0; c < scenario_strategy_count(); c++) {
    const share_ops *ops = share_row(c);
    if (!ops->implemented) continue;
    g_autofree char *yaml = g_strdup_printf(
        "name: contract\npools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 2\n    gpus_per_node: 4\n"
        "    strategy: %s\n%s",
        ops->input.name, ops->input.example ? ops->input.example : "");
    results *r = tu_run(yaml, csv->str, NULL);
    double jobs_alloc = 0, gpu_alloc = 0;
    for (guint i = 0; i < r->jobs->len; i++) {
      const job_result *j = &g_array_index(r->jobs, job_result, i);
      cr_assert_eq(j->outcome, OUTCOME_COMPLETED, "%s: job %s %s", ops->input.name, j->id, job_outcome_name(j->outcome));
      if (!isnan(j->work_s)) {
        TU_NEAR(j->work_done_s, j->work_s, 1e-6);
        cr_assert(j->slowdown >= 1.0 - 1e-9, "%s: %s ran faster than alone (%.6f)", ops->input.name, j->id, j->slowdown);
      }
      jobs_alloc += j->gpu_s_allocated;
      cr_assert(j->gpu_s_share <= j->gpu_s_allocated + 1e-6, "%s: %s promised %.9g, charged %.9g",
                ops->input.name, j->id, j->gpu_s_share, j->gpu_s_allocated);
    }
    for (guint i = 0; i < r->gpus->len; i++) {
      const gpu_result *g = &g_array_index(r->gpus, gpu_result, i);
      cr_assert(g->busy_s <= g->allocated_s + 1e-6 && g->sm_active_s <= g->allocated_s + 1e-6);
      gpu_alloc += g->allocated_s;
    }
    /* jobs are charged their part of each occupied card: they partition the GPUs' time */
    cr_assert(fabs(jobs_alloc - gpu_alloc) <= 1e-6 * gpu_alloc, "%s: jobs were allocated %.9g "
              "GPU-s, the GPUs %.9g", ops->input.name, jobs_alloc, gpu_alloc);
    results_free(r);
    ran++;
  }
  cr_assert_geq(ran, 3, "exclusive, time-slicing and MPS at least");
  g_string_free(csv, TRUE);
}

Test(sharing, a_lone_tenant_on_a_time_sliced_gpu_runs_at_full_speed) {
  g_autofree char *yaml = ts_pool("A100-80GB", 8, NULL);
  results *r = tu_run(yaml, "id,submit_s,kind,gpus,mem_gb,duration_s\nalone,0,batch,1,5,500\n", NULL);
  TU_NEAR(tu_job(r, "alone")->end_s, 500, 0);
  TU_NEAR(tu_job(r, "alone")->slowdown, 1.0, 1e-12);
  results_free(r);
}

Test(sharing, stacked_workers_spread_evenly_over_the_gpus) {
  const char *yaml = "pools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n    gpus_per_node: 4\n"
                     "    strategy: fractional\n";
  results *r = tu_run(yaml,
                      "id,submit_s,kind,gpus,mem_gb,duration_s,gpu_frac\n"
                      "gang,0,training,10,4,100,0.25\n",
                      NULL);
  const job_result *g = tu_job(r, "gang");
  cr_assert_eq(g->outcome, OUTCOME_COMPLETED);
  int per_gpu[4] = {0};
  g_auto(GStrv) ids = g_strsplit(g->gpu_ids, ";", -1);
  for (guint i = 0; ids[i]; i++) per_gpu[ids[i][strlen(ids[i]) - 1] - '0']++;
  cr_assert(per_gpu[0] == 3 && per_gpu[1] == 3 && per_gpu[2] == 2 && per_gpu[3] == 2,
            "workers per GPU %d %d %d %d (%s)", per_gpu[0], per_gpu[1], per_gpu[2], per_gpu[3], g->gpu_ids);
  results_free(r);
}

/* The strategy table is also the scenario's: the built-in strategies are found by name,
 * every row parses back to itself and is its ops' input row, and its keys are known pool
 * keys, refused on an exclusive pool as belonging to it. */
Test(sharing, the_strategy_table_is_the_scenarios) {
  static const char *const builtin[] = {"exclusive", "time-slicing", "mig", "mps", "vgpu",
                                        "fractional"};
  for (guint i = 0; i < G_N_ELEMENTS(builtin); i++)
    cr_expect_str_eq(share_strategy_name(tu_strategy(builtin[i])), builtin[i]);
  cr_expect_null(scenario_strategy_get(scenario_strategy_count()));
  for (guint c = 0; c < scenario_strategy_count(); c++) {
    const scenario_strategy *st = scenario_strategy_get(c);
    cr_assert_eq(st, &share_row(c)->input);
    cr_assert_eq(share_for(st), share_row(c));
    share_strategy back = NULL;
    cr_expect(share_strategy_parse(st->name, &back) && back == st, "%s", st->name);
    for (const scenario_key *const *k = st->keys; k && *k; k++) {
      cr_expect_eq(scenario_strategy_key(st, (*k)->name), *k, "%s: %s", st->name, (*k)->name);
      g_autofree char *yaml = g_strdup_printf(
          "name: k\npools:\n  - {name: p, gpu: A100-80GB, nodes: 1, strategy: exclusive, %s: 1}\n",
          (*k)->name);
      g_autofree char *path = tu_write_temp("keys.yaml", yaml);
      g_autoptr(diag_list) d = diag_list_new(0);
      g_autoptr(scenario) sc = scenario_load(path, d);
      g_autofree char *msg = diag_join(d);
      g_autofree char *want = g_strdup_printf("key '%s' applies only to", (*k)->name);
      cr_expect(strstr(msg, want), "%s: %s", (*k)->name, msg);
    }
  }
}

/* A strategy that says unit_speeds (the simulator then sets the speeds itself instead of
 * calling update_speeds) must give every resident speed 1 and alloc_share 1, whatever
 * they held before. */
Test(sharing, unit_speeds_strategies_give_every_resident_speed_one) {
  guint flagged = 0;
  for (guint c = 0; c < scenario_strategy_count(); c++) {
    const share_ops *ops = share_row(c);
    if (!ops->implemented || !ops->unit_speeds) continue;
    task t = {.speed = 0.25, .alloc_share = 0.5};
    task *res[1] = {&t};
    gpu_state g = {.residents = res, .n_residents = 1, .slots_used = 1};
    share_pool p = {0};
    ops->update_speeds(&p, &g);
    cr_assert(t.speed == 1.0 && t.alloc_share == 1.0, "%s: speed %g, alloc_share %g",
              ops->input.name, t.speed, t.alloc_share);
    flagged++;
  }
  cr_assert_geq(flagged, 1, "exclusive at least");
}
