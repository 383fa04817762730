/* test-sim.c: hand-computable runs of the whole simulator on whole GPUs: queueing order,
 * gangs, backfilling, notebooks' duty cycle, inference load, crashes with checkpoints,
 * out-of-memory, placement policies, horizons, conservation of GPU-seconds, determinism. */
#include "testutil.h"
#include "report.h"
#include "workload.h"
#include "studyrun.h"
#include "cleanup.h"
#include "rowspill.h"
#include "rowwriter.h"
#include <math.h>
#include <string.h>

static const char *one_gpu =
    "name: one-gpu\nseed: 7\npools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n"
    "    gpus_per_node: 1\n    strategy: exclusive\n";
static const char *four_gpus =
    "name: four\npools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n"
    "    gpus_per_node: 4\n    strategy: exclusive\n";

Test(sim, two_batch_jobs_on_one_gpu_queue_in_order) {
  results *r = tu_run(one_gpu,
                      "id,submit_s,kind,gpus,mem_gb,duration_s\n"
                      "a,0,batch,1,10,100\n"
                      "b,10,batch,1,10,50\n",
                      NULL);
  const job_result *a = tu_job(r, "a"), *b = tu_job(r, "b");
  cr_assert_eq(a->outcome, OUTCOME_COMPLETED);
  TU_NEAR(a->start_s, 0, 0);
  TU_NEAR(a->end_s, 100, 0);
  TU_NEAR(a->wait_s, 0, 0);
  TU_NEAR(b->start_s, 100, 0);
  TU_NEAR(b->end_s, 150, 0);
  TU_NEAR(b->wait_s, 90, 0);
  TU_NEAR(b->slowdown, 1.0, 1e-12);
  TU_NEAR(r->end_s, 150, 0);
  const pool_result *p = &g_array_index(r->pools, pool_result, 0);
  TU_NEAR(p->allocated_gpu_s, 150, 1e-6);
  TU_NEAR(p->busy_gpu_s, 150, 1e-6);
  TU_NEAR(p->provisioned_gpu_s, 150, 1e-6);
  TU_NEAR(p->wait_mean_s, 45, 1e-9);
  results_free(r);
}

Test(sim, gang_waits_for_four_free_gpus_while_a_small_job_backfills) {
  results *r = tu_run(four_gpus,
                      "id,submit_s,kind,gpus,mem_gb,duration_s\n"
                      "single,0,batch,1,10,100\n"
                      "gang,10,training,4,10,50\n"
                      "small,20,batch,1,10,10\n",
                      NULL);
  const job_result *g = tu_job(r, "gang"), *s = tu_job(r, "small");
  TU_NEAR(g->start_s, 100, 0);
  TU_NEAR(g->end_s, 150, 0);
  TU_NEAR(g->wait_s, 90, 0);
  cr_assert_eq(g->gpus, 4);
  TU_NEAR(s->start_s, 20, 0);
  TU_NEAR(s->end_s, 30, 0);
  /* allocated GPU-seconds add up: 100 + 4 x 50 + 10 */
  const pool_result *p = &g_array_index(r->pools, pool_result, 0);
  TU_NEAR(p->allocated_gpu_s, 310, 1e-6);
  TU_NEAR(p->provisioned_gpu_s, 600, 1e-6);
  results_free(r);
}

Test(sim, priority_goes_first_then_submit_order) {
  results *r = tu_run(one_gpu,
                      "id,submit_s,kind,gpus,mem_gb,duration_s,priority\n"
                      "first,0,batch,1,1,100,0\n"
                      "low,1,batch,1,1,10,0\n"
                      "high,2,batch,1,1,10,5\n",
                      NULL);
  TU_NEAR(tu_job(r, "high")->start_s, 100, 0);
  TU_NEAR(tu_job(r, "low")->start_s, 110, 0);
  results_free(r);
}

Test(sim, jobs_that_can_never_fit_are_unplaceable_at_once) {
  results *r = tu_run(four_gpus,
                      "id,submit_s,kind,gpus,mem_gb,duration_s\n"
                      "toobig,5,training,8,10,50\n"
                      "toofat,6,batch,1,90,50\n"
                      "fine,7,batch,1,79,50\n",
                      NULL);
  cr_assert_eq(tu_job(r, "toobig")->outcome, OUTCOME_UNPLACEABLE);
  cr_assert(strstr(tu_job(r, "toobig")->reason, "needs 8 GPUs"));
  cr_assert_eq(tu_job(r, "toofat")->outcome, OUTCOME_UNPLACEABLE);
  cr_assert(strstr(tu_job(r, "toofat")->reason, "90.00 GB"));
  cr_assert_eq(tu_job(r, "fine")->outcome, OUTCOME_COMPLETED);
  guint unplaceable_events = 0;
  for (guint i = 0; i < r->events_log->len; i++)
    unplaceable_events += g_array_index(r->events_log, event_row, i).kind == EVENT_UNPLACEABLE;
  cr_assert_eq(unplaceable_events, 2);
  results_free(r);
}

Test(sim, notebook_busy_fraction_matches_its_duty_cycle) {
  /* 2000 h session, bursts of 30 s mean at duty 0.2: ~48,000 bursts */
  results *r = tu_run(one_gpu,
                      "id,submit_s,kind,gpus,mem_gb,duration_s,busy,burst_s\n"
                      "nb,0,notebook,1,20,7200000,0.2,30\n",
                      NULL);
  const job_result *nb = tu_job(r, "nb");
  cr_assert_eq(nb->outcome, OUTCOME_COMPLETED);
  TU_NEAR(nb->run_s, 7200000, 0);
  double frac = nb->busy_s / nb->run_s;
  cr_assert(fabs(frac - 0.2) <= 0.002, "busy fraction %.5f not within 1%% of 0.2", frac);
  TU_NEAR(nb->burst_stretch, 1.0, 1e-6); /* alone on a whole GPU: no stretch */
  const pool_result *p = &g_array_index(r->pools, pool_result, 0);
  TU_NEAR(p->busy_gpu_s, nb->busy_s, 1e-3);
  TU_NEAR(p->sm_active_gpu_s, nb->busy_s * 0.6, 1e-3); /* default notebook sm 0.6 */
  TU_NEAR(p->allocated_gpu_s, 7200000, 1e-3);
  results_free(r);
}

Test(sim, inference_keeps_its_gpu_busy_at_the_offered_load) {
  results *r = tu_run(one_gpu,
                      "id,submit_s,kind,gpus,mem_gb,duration_s,rate_rps,service_ms,sm\n"
                      "svc,100,inference,1,30,3600,10,30,0.5\n",
                      NULL);
  const job_result *s = tu_job(r, "svc");
  TU_NEAR(s->start_s, 100, 0);
  TU_NEAR(s->end_s, 3700, 0);
  /* the duty follows the measured busy time, folded in once a minute: the offered load
   * (10/s x 30 ms = 0.3) up to the Poisson noise of the arrivals */
  cr_assert(fabs(s->busy_s - 0.3 * 3600) < 0.01 * 0.3 * 3600, "busy %g s", s->busy_s);
  const pool_result *p = &g_array_index(r->pools, pool_result, 0);
  TU_NEAR(p->busy_gpu_s, s->busy_s, 1e-6);
  TU_NEAR(p->sm_active_gpu_s, 0.5 * s->busy_s, 1e-6);
  TU_NEAR(p->provisioned_gpu_s, 3700, 1e-6);
  results_free(r);
}

Test(sim, crash_loses_work_since_the_last_checkpoint_and_restarts) {
  results *r = tu_run(one_gpu,
                      "id,submit_s,kind,gpus,mem_gb,duration_s,checkpoint_s,restart\n"
                      "t,0,training,1,10,100,30,on-failure\n",
                      "job_id,after_s,crash\nt,50,1\n");
  const job_result *t = tu_job(r, "t");
  cr_assert_eq(t->outcome, OUTCOME_COMPLETED);
  cr_assert_eq(t->restarts, 1);
  cr_assert_eq(t->crashes, 1);
  TU_NEAR(t->work_lost_s, 20, 1e-6);     /* checkpoint at 30 s, crash at 50 s */
  TU_NEAR(t->end_s, 120, 1e-6);          /* 50 s, then 70 s of remaining work */
  TU_NEAR(t->work_done_s, 100, 1e-6);
  TU_NEAR(t->run_s, 120, 1e-6);
  guint crashes = 0, restarts = 0;
  for (guint i = 0; i < r->events_log->len; i++) {
    const event_row *e = &g_array_index(r->events_log, event_row, i);
    crashes += e->kind == EVENT_CRASH;
    restarts += e->kind == EVENT_RESTART;
  }
  cr_assert_eq(crashes, 1, "one row per victim: the crashing job itself");
  cr_assert_eq(restarts, 1);
  results_free(r);
}

Test(sim, memory_growth_past_the_gpu_is_an_oom_of_the_offender) {
  results *r = tu_run(one_gpu,
                      "id,submit_s,kind,gpus,mem_gb,duration_s,restart\n"
                      "grow,0,batch,1,40,100,never\n",
                      "job_id,after_s,mem_gb\ngrow,10,90\n");
  const job_result *g = tu_job(r, "grow");
  cr_assert_eq(g->outcome, OUTCOME_FAILED);
  cr_assert_eq(g->oom_kills, 1);
  TU_NEAR(g->end_s, 10, 0);
  TU_NEAR(g->work_lost_s, 10, 1e-6);
  const pool_result *p = &g_array_index(r->pools, pool_result, 0);
  cr_assert_eq(p->oom_kills, 1);
  cr_assert_eq(p->innocent_victims, 0);
  results_free(r);
}

Test(sim, pack_fills_a_node_spread_balances_nodes) {
  const char *csv = "id,submit_s,kind,gpus,mem_gb,duration_s\n"
                    "a,0,batch,1,1,100\nb,0,batch,1,1,100\n";
  const char *pack = "pools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 2\n    gpus_per_node: 2\n"
                     "    strategy: exclusive\n    placement: pack\n";
  const char *spread = "pools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 2\n    gpus_per_node: 2\n"
                       "    strategy: exclusive\n    placement: spread\n";
  results *r = tu_run(pack, csv, NULL);
  cr_assert_str_eq(tu_job(r, "a")->gpu_ids, "p/n0/g0");
  cr_assert_str_eq(tu_job(r, "b")->gpu_ids, "p/n0/g1");
  results_free(r);
  r = tu_run(spread, csv, NULL);
  cr_assert_str_eq(tu_job(r, "a")->gpu_ids, "p/n0/g0");
  cr_assert_str_eq(tu_job(r, "b")->gpu_ids, "p/n1/g0");
  results_free(r);
}

Test(sim, horizon_cuts_the_run) {
  const char *yaml = "name: h\nhorizon: 60s\npools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n"
                     "    gpus_per_node: 1\n    strategy: exclusive\n";
  results *r = tu_run(yaml,
                      "id,submit_s,kind,gpus,mem_gb,duration_s\n"
                      "long,0,batch,1,1,100\nwaiting,10,batch,1,1,10\nlate,70,batch,1,1,10\n",
                      NULL);
  TU_NEAR(r->end_s, 60, 0);
  cr_assert_eq(tu_job(r, "long")->outcome, OUTCOME_RUNNING);
  TU_NEAR(tu_job(r, "long")->work_done_s, 60, 1e-6);
  cr_assert_eq(tu_job(r, "waiting")->outcome, OUTCOME_QUEUED);
  TU_NEAR(tu_job(r, "waiting")->wait_s, 50, 0);
  cr_assert_eq(tu_job(r, "late")->outcome, OUTCOME_NOT_SUBMITTED);
  results_free(r);
}

Test(sim, gpu_seconds_add_up_across_jobs_gpus_pools_and_time_series) {
  const char *yaml = "name: mix\nseed: 3\ninterval: 600s\npools:\n"
                     "  - name: a\n    gpu: A100-80GB\n    nodes: 2\n    gpus_per_node: 4\n    strategy: exclusive\n"
                     "  - name: b\n    gpu: H100-80GB\n    nodes: 1\n    gpus_per_node: 8\n    strategy: exclusive\n"
                     "routing:\n  - {kind: notebook, pool: b}\n  - {kind: inference, pool: b}\n  - {pool: a}\n";
  GString *csv = g_string_new("id,submit_s,kind,gpus,mem_gb,duration_s,rate_rps,service_ms,busy\n");
  for (int i = 0; i < 300; i++) {
    const char *kinds[] = {"batch", "training", "notebook", "inference"};
    const char *k = kinds[i % 4];
    int gpus = (i % 4 == 1) ? 1 + (i % 3) : 1;
    g_string_append_printf(csv, "j%d,%d,%s,%d,%d,%d,%s,%s,%s\n", i, i * 37 % 5000, k, gpus, 5 + i % 50,
                           200 + (i * 131) % 3000, i % 4 == 3 ? "5" : "", i % 4 == 3 ? "40" : "",
                           i % 4 == 2 ? "0.3" : "");
  }
  results *r = tu_run(yaml, csv->str, NULL);
  g_string_free(csv, TRUE);
  double jobs_alloc = 0, jobs_busy = 0, gpus_alloc = 0, gpus_busy = 0, pools_alloc = 0, ts_alloc = 0;
  for (guint i = 0; i < r->jobs->len; i++) {
    const job_result *j = &g_array_index(r->jobs, job_result, i);
    cr_assert_eq(j->outcome, OUTCOME_COMPLETED, "job %s: %s", j->id, job_outcome_name(j->outcome));
    jobs_alloc += j->gpu_s_allocated;
    jobs_busy += j->busy_s * j->gpus;
  }
  for (guint i = 0; i < r->gpus->len; i++) {
    const gpu_result *g = &g_array_index(r->gpus, gpu_result, i);
    gpus_alloc += g->allocated_s;
    gpus_busy += g->busy_s;
    cr_assert(g->busy_s <= g->allocated_s + 1e-6);
    cr_assert(g->allocated_s <= r->end_s + 1e-6);
  }
  for (guint i = 0; i < r->pools->len; i++) pools_alloc += g_array_index(r->pools, pool_result, i).allocated_gpu_s;
  for (guint i = 0; i < r->timeseries->len; i++) {
    const ts_row *t = &g_array_index(r->timeseries, ts_row, i);
    const pool_result *p = &g_array_index(r->pools, pool_result, t->pool);
    ts_alloc += t->allocated * p->gpus * (t->t_end_s - t->t_start_s);
  }
  TU_NEAR(gpus_alloc, jobs_alloc, 1e-6 * jobs_alloc);
  TU_NEAR(pools_alloc, jobs_alloc, 1e-6 * jobs_alloc);
  TU_NEAR(ts_alloc, jobs_alloc, 1e-6 * jobs_alloc);
  TU_NEAR(gpus_busy, jobs_busy, 1e-6 * jobs_busy);
  /* work done = work requested for every completed training/batch job */
  for (guint i = 0; i < r->jobs->len; i++) {
    const job_result *j = &g_array_index(r->jobs, job_result, i);
    if (!isnan(j->work_s)) TU_NEAR(j->work_done_s, j->work_s, 1e-6);
  }
  results_free(r);
}

Test(sim, same_inputs_and_seed_give_identical_results) {
  const char *yaml = "name: det\nseed: 11\npools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 2\n"
                     "    gpus_per_node: 2\n    strategy: exclusive\n";
  const char *csv = "id,submit_s,kind,gpus,mem_gb,duration_s,busy,burst_s\n"
                    "n1,0,notebook,1,10,20000,0.3,20\nn2,5,notebook,1,10,20000,0.1,60\n"
                    "b1,7,batch,2,10,3000,,\nt1,9,training,2,10,5000,,\n";
  results *r1 = tu_run(yaml, csv, NULL), *r2 = tu_run(yaml, csv, NULL);
  GString *a = g_string_new(NULL), *b = g_string_new(NULL);
  report_file_string("jobs.csv", r1, a);
  report_file_string("timeseries.csv", r1, a);
  report_file_string("jobs.csv", r2, b);
  report_file_string("timeseries.csv", r2, b);
  cr_assert_str_eq(a->str, b->str);
  g_string_free(a, TRUE);
  g_string_free(b, TRUE);
  results_free(r1);
  results_free(r2);
}

Test(sim, training_rate_follows_the_communication_share) {
  TU_NEAR(workload_training_rate(0.1, 1.0), 1.0, 1e-12);
  TU_NEAR(workload_training_rate(0.1, 0.5), 1.0 / (0.9 / 0.5 + 0.1), 1e-12);
  TU_NEAR(workload_training_rate(0.0, 0.25), 0.25, 1e-12);
  TU_NEAR(workload_training_rate(0.3, 0.0), 0.0, 0);
}

Test(sim, a_notebook_that_starts_idle_begins_bursting_when_a_phase_raises_busy) {
  results *r = tu_run(one_gpu,
                      "id,submit_s,kind,gpus,mem_gb,duration_s,busy,burst_s\n"
                      "nb,0,notebook,1,10,360000,0,30\n",
                      "job_id,after_s,busy\nnb,3600,0.5\n");
  const job_result *nb = tu_job(r, "nb");
  /* idle for the first hour, then half busy for 99 hours */
  double frac = nb->busy_s / (360000 - 3600);
  cr_assert(fabs(frac - 0.5) < 0.02, "busy fraction after the phase %.4f", frac);
  results_free(r);
}

Test(sim, fluid_inference_keeps_the_offered_load_without_simulating_requests) {
  const char *yaml = "name: fluid\ninference:\n  model: fluid\npools:\n  - name: p\n    gpu: A100-80GB\n"
                     "    nodes: 1\n    gpus_per_node: 1\n    strategy: exclusive\n";
  results *r = tu_run(yaml,
                      "id,submit_s,kind,gpus,mem_gb,duration_s,rate_rps,service_ms,slo_ms\n"
                      "svc,0,inference,1,30,3600,10,30,100\n",
                      NULL);
  TU_NEAR(tu_job(r, "svc")->busy_s, 1080, 1e-6);
  cr_assert_eq(r->services->len, 1);
  const service_result *sr = &g_array_index(r->services, service_result, 0);
  cr_assert_eq(sr->requests, 0, "no request is simulated in the fluid model");
  cr_assert(isnan(sr->p99_ms));
  results_free(r);
}

Test(sim, tenant_time_series_add_up_to_each_tenants_totals) {
  const char *yaml = "name: tenants\ninterval: 100s\npools:\n  - name: p\n    gpu: A100-80GB\n"
                     "    nodes: 1\n    gpus_per_node: 4\n    strategy: exclusive\n";
  results *r = tu_run(yaml,
                      "id,submit_s,kind,gpus,mem_gb,duration_s,tenant,busy,burst_s\n"
                      "a1,0,batch,2,5,250,alpha,,\n"
                      "b1,50,training,1,5,400,beta,,\n"
                      "b2,120,notebook,1,5,600,beta,0.3,20\n",
                      NULL);
  cr_assert_eq(r->tenants->len, 2);
  for (guint t = 0; t < r->tenants->len; t++) {
    const tenant_result *tr = &g_array_index(r->tenants, tenant_result, t);
    double alloc = 0, busy = 0;
    guint rows = 0;
    for (guint i = 0; i < r->tenant_timeseries->len; i++) {
      const tenant_ts_row *row = &g_array_index(r->tenant_timeseries, tenant_ts_row, i);
      if (strcmp(row->tenant, tr->name)) continue;
      alloc += row->allocated_gpus * (row->t_end_s - row->t_start_s);
      busy += row->busy_gpus * (row->t_end_s - row->t_start_s);
      rows++;
    }
    cr_assert_eq(rows, 8, "%s: 720 s on a 100 s grid", tr->name);
    TU_NEAR(alloc, tr->allocated_gpu_s, 1e-6);
    TU_NEAR(busy, tr->busy_gpu_s, 1e-6);
  }
  /* alpha held 2 GPUs for its first 250 s: 2, 2, then half of the third interval */
  const tenant_ts_row *a0 = &g_array_index(r->tenant_timeseries, tenant_ts_row, 0);
  const tenant_ts_row *a2 = &g_array_index(r->tenant_timeseries, tenant_ts_row, 2);
  cr_assert_str_eq(a0->tenant, "alpha");
  TU_NEAR(a0->allocated_gpus, 2, 1e-12);
  TU_NEAR(a2->allocated_gpus, 1, 1e-12);
  results_free(r);
}

/* The scenario yaml and the trace csv (freed here), written to files and loaded. */
static void sim_load_text(const char *yaml, GString *csv, scenario **sc, trace **tr) {
  g_autofree char *sp = tu_write_temp("sim.yaml", yaml);
  g_autofree char *tp = tu_write_temp("sim.csv", csv->str);
  g_string_free(csv, TRUE);
  g_autoptr(diag_list) d = diag_list_new(0);
  *sc = scenario_load(sp, d);
  *tr = *sc ? trace_load(tp, d) : NULL;
  cr_assert_not_null(*tr);
}

/* sim_options.stop (size -j N stops the probes its search no longer needs): a run asked to
 * stop ends at its next check (every 65,536 events) with an error and no results, its
 * inference services (with their request state) freed; not asked, the same run ends. */
Test(sim, a_run_asked_to_stop_ends_early_without_results) {
  GString *csv = g_string_new("id,submit_s,kind,gpus,mem_gb,duration_s,rate_rps,service_ms\n");
  g_string_append(csv, "svc,0,inference,1,30,100000,5,20\n");
  for (int i = 0; i < 40000; i++) g_string_append_printf(csv, "b%d,%d,batch,1,10,1,,\n", i, i);
  g_autoptr(scenario) sc = NULL;
  g_autoptr(trace) tr = NULL;
  sim_load_text(four_gpus, csv, &sc, &tr);
  gint stop = 1;
  sim_options opt = {.stop = &stop};
  GError *err = NULL;
  results *r = sim_run(sc, tr, &opt, &err);
  cr_assert_null(r);
  cr_assert_not_null(err);
  cr_assert_eq(err->code, SHARESIM_ERROR_RUNTIME);
  cr_assert_str_eq(err->message, "the run was stopped");
  g_clear_error(&err);
  stop = 0;
  r = sim_run(sc, tr, &opt, &err);
  cr_assert_not_null(r, "%s", err ? err->message : "?");
  cr_assert_eq(g_array_index(r->pools, pool_result, 0).jobs_completed, 40001);
  results_free(r);
}

/* More events pending at once than the engine holds (sim_options.max_pending_events stands
 * in for its 2^24): the run ends with a runtime error that says so, and no results, instead
 * of an abort; with room for them the same run ends. */
Test(sim, a_run_beyond_the_event_limit_ends_with_an_error) {
  GString *csv = g_string_new("id,submit_s,kind,gpus,mem_gb,duration_s\n");
  for (int i = 0; i < 40; i++) g_string_append_printf(csv, "b%d,0,batch,1,10,100\n", i);
  g_autoptr(scenario) sc = NULL;
  g_autoptr(trace) tr = NULL;
  sim_load_text(four_gpus, csv, &sc, &tr);
  sim_options opt = {.max_pending_events = 2};
  GError *err = NULL;
  results *r = sim_run(sc, tr, &opt, &err);
  cr_assert_null(r);
  cr_assert_not_null(err);
  cr_assert_eq(err->code, SHARESIM_ERROR_RUNTIME);
  cr_assert(strstr(err->message, "more than 2 events pending at once"), "%s", err->message);
  g_clear_error(&err);
  opt.max_pending_events = 64;
  r = sim_run(sc, tr, &opt, &err);
  cr_assert_not_null(r, "%s", err ? err->message : "?");
  cr_assert_eq(g_array_index(r->pools, pool_result, 0).jobs_completed, 40);
  results_free(r);
}

/* Pools a (2 nodes x 2 GPUs, exclusive) and b (one card time-sliced 4 ways), notebooks
 * and inference routed to b: the streaming and spilling tests' cluster. */
static const char *two_pools =
    "pools:\n"
    "  - name: a\n    gpu: A100-80GB\n    nodes: 2\n    gpus_per_node: 2\n    strategy: exclusive\n"
    "  - name: b\n    gpu: A100-80GB\n    nodes: 1\n    gpus_per_node: 1\n"
    "    strategy: time-slicing\n    replicas: 4\n"
    "routing:\n  - {kind: notebook, pool: b}\n  - {kind: inference, pool: b}\n  - {pool: a}\n";

/* n trace rows named PREFIX0.., `spacing` s apart, cycling batch, training (1-3 GPUs),
 * notebook and inference (rate_rps `rate`, 30 ms, slo_ms `slo` when not NULL: then the
 * column is there), durations 100 + (7919 i mod dur_mod) s, tenants t0-t2. */
static GString *mixed_csv(int n, const char *prefix, int spacing, int dur_mod, const char *rate,
                          const char *slo) {
  GString *csv = g_string_new("id,submit_s,kind,gpus,mem_gb,duration_s,rate_rps,service_ms,");
  g_string_append(csv, slo ? "slo_ms,tenant\n" : "tenant\n");
  const char *kinds[] = {"batch", "training", "notebook", "inference"};
  for (int i = 0; i < n; i++) {
    int k = i % 4;
    g_string_append_printf(csv, "%s%d,%d,%s,%d,%d,%d,%s,%s,", prefix, i, i * spacing, kinds[k],
                           k == 1 ? 1 + i % 3 : 1, 4 + i % 20, 100 + (i * 7919) % dur_mod,
                           k == 3 ? rate : "", k == 3 ? "30" : "");
    if (slo) g_string_append_printf(csv, "%s,", k == 3 ? slo : "");
    g_string_append_printf(csv, "t%d\n", i % 3);
  }
  return csv;
}

/* Runs sc on tr twice: keeping every row (its folder written into TOP/kept, *dk) and as
 * `run -o` does, streaming into TOP/streamed (*ds), TOP a new temporary folder from stem
 * (*top). Returns the streamed run's results; *kept gets the kept run's. */
static results *sim_kept_and_streamed(const scenario *sc, const trace *tr, const char *stem,
                                      results **kept, char **top, char **dk, char **ds) {
  *top = g_dir_make_tmp(stem, NULL);
  cr_assert_not_null(*top);
  *dk = g_build_filename(*top, "kept", NULL);
  *ds = g_build_filename(*top, "streamed", NULL);
  *kept = sim_run(sc, tr, NULL, NULL);
  cr_assert_not_null(*kept);
  cr_assert(report_write_dir(*kept, *dk, TRUE, NULL));
  sim_options opt = {0};
  g_autoptr(GError) err = NULL;
  results *streamed = studyrun_simulate(sc, tr, &opt, *ds, &err);
  cr_assert_not_null(streamed, "%s", err ? err->message : "?");
  return streamed;
}

/* ---- streamed rows (sim_options.job_sink) ---- */

typedef struct sim_stream_rows {
  GString *text;   /* the rows as report_csv_job_row writes them */
  guint rows;
} sim_stream_rows;

static gboolean sim_stream_collect(void *data, const results *r, const job_result *j,
                                   GError **error) {
  sim_stream_rows *c = data;
  report_csv_job_row(r, j, c->text);
  c->rows++;
  return TRUE;
}

/* Loads the scenario and trace texts (frees csv); fails the test on input problems. */
/* The run of yaml and csv twice: its rows kept in the results, and streamed into c. */
static void sim_stream_both(const char *yaml, GString *csv, scenario **sc, trace **tr,
                            results **kept, results **streamed, sim_stream_rows *c) {
  sim_load_text(yaml, csv, sc, tr);
  *kept = sim_run(*sc, *tr, NULL, NULL);
  sim_options opt = {.job_sink = sim_stream_collect, .job_sink_data = c};
  *streamed = sim_run(*sc, *tr, &opt, NULL);
}

/* Jobs end out of trace order (long first, short later; a gang waits; a crash restarts
 * one; a horizon leaves some running, queued and not submitted): the streamed rows are the
 * kept rows byte for byte, in trace order, and every figure the reports derive from the
 * rows (totals, waits, pools, tenants, services) is the same. */
Test(sim, streamed_rows_are_the_kept_rows_and_give_the_same_figures) {
  g_autofree char *yaml = g_strconcat("name: stream\nseed: 4\nhorizon: 20000s\ninterval: 600s\n"
                                      "crash_rates: {training: 0.5}\n", two_pools, NULL);
  GString *csv = mixed_csv(120, "j", 150, 9000, "4", "200");
  g_autoptr(scenario) sc = NULL;
  g_autoptr(trace) tr = NULL;
  g_autoptr(results) kept = NULL;
  g_autoptr(results) streamed = NULL;
  sim_stream_rows c = {.text = g_string_new(NULL)};
  sim_stream_both(yaml, csv, &sc, &tr, &kept, &streamed, &c);
  cr_assert(kept && streamed);
  cr_assert_eq(streamed->jobs->len, 0, "streamed rows are not kept");
  cr_assert_eq(c.rows, kept->jobs->len);
  cr_assert_eq(streamed->job_count, kept->job_count);
  g_autoptr(GString) want = g_string_new(NULL), head = g_string_new(NULL);
  report_file_string("jobs.csv", kept, want);
  report_csv_jobs_header(kept, head);
  cr_assert_str_eq(c.text->str, want->str + head->len);
  g_autofree char *jk = report_json(kept, FALSE), *js = report_json(streamed, FALSE);
  cr_assert_str_eq(js, jk);
  g_autoptr(GString) tk = g_string_new(NULL), ts = g_string_new(NULL);
  report_csv_string(report_csv_tenants_to, kept, tk);
  report_csv_string(report_csv_tenants_to, streamed, ts);
  report_csv_string(report_csv_pools_to, kept, tk);
  report_csv_string(report_csv_pools_to, streamed, ts);
  report_file_string("services.csv", kept, tk);
  report_file_string("services.csv", streamed, ts);
  report_text(kept, tk);
  report_text(streamed, ts);
  cr_assert_str_eq(ts->str, tk->str);
  /* the run was one that tests the order: jobs ended out of trace order, and some rows
   * were final only at the end */
  gboolean out_of_order = FALSE, running = FALSE, crashed = FALSE;
  double last = -1;
  for (guint i = 0; i < kept->jobs->len; i++) {
    const job_result *j = &g_array_index(kept->jobs, job_result, i);
    if (isfinite(j->end_s)) {
      out_of_order |= j->end_s < last;
      last = j->end_s;
    }
    running |= j->outcome == OUTCOME_RUNNING || j->outcome == OUTCOME_QUEUED;
    crashed |= j->crashes > 0;
  }
  cr_assert(out_of_order && running && crashed, "order %d, cut off %d, crashes %d",
            out_of_order, running, crashed);
  g_string_free(c.text, TRUE);
}

/* One long job first (its row holds back every later one: jobs.csv is in trace order),
 * then n short batch jobs one after another on one GPU; returns the most job states the
 * run held at once. */
static guint32 sim_live_peak(guint n, gboolean stream) {
  const char *yaml = "name: live\nseed: 1\npools:\n  - name: p\n    gpu: A100-80GB\n"
                     "    nodes: 1\n    gpus_per_node: 2\n    strategy: exclusive\n";
  GString *csv = g_string_new("id,submit_s,kind,gpus,mem_gb,duration_s\n");
  g_string_append_printf(csv, "long,0,batch,1,1,%u\n", 10 * n + 100);
  for (guint i = 0; i < n; i++) g_string_append_printf(csv, "j%u,%u,batch,1,1,5\n", i, 10 * i + 1);
  g_autoptr(scenario) sc = NULL;
  g_autoptr(trace) tr = NULL;
  sim_load_text(yaml, csv, &sc, &tr);
  sim_stream_rows c = {.text = g_string_new(NULL)};
  sim_options opt = {.job_sink = sim_stream_collect, .job_sink_data = &c};
  g_autoptr(results) r = sim_run(sc, tr, stream ? &opt : NULL, NULL);
  cr_assert_not_null(r);
  cr_assert_eq(r->job_count, n + 1);
  if (stream) {
    cr_assert_eq(c.rows, n + 1);
    cr_assert(g_str_has_prefix(c.text->str, "live,1,long,batch,"), "trace order: the long job first");
  }
  g_string_free(c.text, TRUE);
  return r->jobs_live_peak;
}

/* Memory grows with the jobs alive at once, not with the trace: streamed, the rows the long
 * job holds back wait in the spill file, and the states held stay a handful for 2,000 and
 * for 20,000 jobs; kept in memory (no sink) the rows wait as records, and the states go
 * at the jobs' ends all the same. */
Test(sim, held_job_states_grow_with_jobs_alive_not_with_the_trace) {
  guint32 small = sim_live_peak(2000, TRUE), large = sim_live_peak(20000, TRUE);
  cr_assert(small <= 8 && large <= 8, "live peak %u (2,000 jobs), %u (20,000 jobs)", small,
            large);
  guint32 kept = sim_live_peak(2000, FALSE);
  cr_assert(kept <= 8, "kept rows keep the rows, not the states: %u", kept);
}

/* The same with services behind the long job: a finished service's state leaves memory too
 * (its services.csv row, taken when it ended, waits for its turn), and services.csv and
 * latency.csv are those of the run that keeps every row. model: the inference model
 * (requests: each row has a latency histogram and waits as an array; fluid: none, and the
 * rows wait in the spill, held_services_put). */
static void sim_held_services(const char *model) {
  g_autofree char *yaml = g_strdup_printf("name: live\nseed: 1\ninference:\n  model: %s\n"
                                          "pools:\n  - name: p\n    gpu: A100-80GB\n"
                                          "    nodes: 1\n    gpus_per_node: 2\n"
                                          "    strategy: exclusive\n", model);
  const guint n = 2000;
  GString *csv = g_string_new("id,submit_s,kind,gpus,mem_gb,duration_s,rate_rps,service_ms,"
                              "slo_ms\n");
  g_string_append_printf(csv, "long,0,batch,1,1,%u,,,\n", 10 * n + 100);
  for (guint i = 0; i < n; i++)
    g_string_append_printf(csv, "s%u,%u,inference,1,1,5,%u,20,%s\n", i, 10 * i + 1, 2 + i % 5,
                           i % 3 ? "100" : "");
  g_autoptr(scenario) sc = NULL;
  g_autoptr(trace) tr = NULL;
  g_autoptr(results) kept = NULL;
  g_autoptr(results) streamed = NULL;
  sim_stream_rows c = {.text = g_string_new(NULL)};
  sim_stream_both(yaml, csv, &sc, &tr, &kept, &streamed, &c);
  cr_assert(kept && streamed);
  cr_assert(streamed->jobs_live_peak <= 8, "live peak %u", streamed->jobs_live_peak);
  cr_assert_eq(streamed->services->len, n);
  g_autoptr(GString) sk = g_string_new(NULL), ss = g_string_new(NULL);
  report_file_string("services.csv", kept, sk);
  report_file_string("services.csv", streamed, ss);
  report_file_string("latency.csv", kept, sk);
  report_file_string("latency.csv", streamed, ss);
  cr_assert_str_eq(ss->str, sk->str);
  cr_assert(strstr(sk->str, "s1999,"), "every service has its row");
  gboolean hist = g_array_index(kept->services, service_result, n - 1).latency_ns != NULL;
  cr_assert(hist == !strcmp(model, "requests"), "%s: histograms %d", model, hist);
  g_string_free(c.text, TRUE);
}

Test(sim, held_services_leave_memory_and_keep_their_rows) { sim_held_services("requests"); }

Test(sim, held_fluid_services_wait_in_the_spill_and_keep_their_rows) { sim_held_services("fluid"); }

/* Every file of folder a is in folder b with the same bytes, and b has no other; returns
 * how many files. */
static guint sim_same_folders(const char *a, const char *b) {
  GDir *d = g_dir_open(a, 0, NULL);
  cr_assert_not_null(d);
  guint n = 0;
  const char *name;
  while ((name = g_dir_read_name(d)) != NULL) {
    g_autofree char *pa = g_build_filename(a, name, NULL), *pb = g_build_filename(b, name, NULL);
    g_autofree char *ta = NULL, *tb = NULL;
    gsize la = 0, lb = 0;
    cr_assert(g_file_get_contents(pa, &ta, &la, NULL) && g_file_get_contents(pb, &tb, &lb, NULL),
              "%s in both folders", name);
    cr_assert(la == lb && memcmp(ta, tb, la) == 0, "%s: the same bytes (%zu and %zu)", name,
              (size_t)la, (size_t)lb);
    n++;
  }
  g_dir_close(d);
  GDir *e = g_dir_open(b, 0, NULL);
  guint m = 0;
  while (g_dir_read_name(e)) m++;
  g_dir_close(e);
  cr_assert_eq(m, n, "no other file in %s", b);
  return n;
}

/* The folder of a run whose jobs.csv and time series go out while it runs (studyrun_simulate:
 * rows streamed, the series spilled in chunks and completed with the SLO violations counted
 * later) is the folder of the run that keeps every row, byte for byte: two pools, requests
 * with violations, UTC columns, thousands of intervals per pool (many spilled chunks). */
Test(sim, streamed_series_write_the_kept_folder) {
  g_autofree char *yaml = g_strconcat("name: series\nseed: 3\nstart: 2026-11-01T00:00:00Z\n"
                                      "horizon: 30000s\ninterval: 10s\ninference:\n"
                                      "  model: requests\n", two_pools, NULL);
  GString *csv = mixed_csv(120, "j", 200, 9000, "40", "40");
  g_autoptr(scenario) sc = NULL;
  g_autoptr(trace) tr = NULL;
  sim_load_text(yaml, csv, &sc, &tr);
  g_autofree char *top = NULL, *dk = NULL, *ds = NULL;
  g_autoptr(results) kept = NULL;
  g_autoptr(results) streamed = sim_kept_and_streamed(sc, tr, "sharesim-series-XXXXXX", &kept, &top, &dk, &ds);
  cr_assert_eq(streamed->timeseries->len, 0, "the series were streamed");
  cr_assert_eq(streamed->tenant_timeseries->len, 0, "the tenant series stayed cells");
  /* the run tests what it should: chunks spilled, violations counted, UTC columns */
  guint64 viol = 0;
  for (guint i = 0; i < kept->timeseries->len; i++)
    viol += g_array_index(kept->timeseries, ts_row, i).slo_violations;
  cr_assert(kept->timeseries->len > 4 * 512 && viol > 0, "%u rows, %" G_GUINT64_FORMAT
            " violations", kept->timeseries->len, viol);
  cr_assert(sim_same_folders(dk, ds) >= 12);
  g_autofree char *ts = g_build_filename(ds, "timeseries.csv", NULL), *text = NULL;
  cr_assert(g_file_get_contents(ts, &text, NULL, NULL) && strstr(text, ",t_start_utc\n"));
  cr_assert(cleanup_remove_tree(top, NULL));
}

/* ---- the row writer (rowwriter.h): a thread of its own, or the run's ---- */

/* Two long jobs first (their rows hold back every later one until they end, mid-run), then
 * n mixed rows 40 s apart: services with latency histograms, gangs, three tenants; the
 * horizon leaves some running, queued and never submitted. */
static void sim_holding_run(guint n, scenario **sc, trace **tr) {
  g_autofree char *yaml = g_strconcat("name: writer\nseed: 5\nhorizon: 110000s\ninterval: 600s\n"
                                      "inference:\n  model: requests\n", two_pools, NULL);
  GString *csv = mixed_csv((int)n, "j", 40, 60, "20", "60");
  gsize head = (gsize)(strchr(csv->str, '\n') - csv->str) + 1;
  g_string_insert(csv, (gssize)head, "longa,0,batch,1,4,60000,,,,t1\n"
                                     "longb,0,notebook,1,4,90000,,,,t0\n");
  sim_load_text(yaml, csv, sc, tr);
}

/* The folder of a run whose rows go through the writer thread is the folder of the run that
 * writes them in its own thread, and the kept run's, byte for byte (jobs.csv, services.csv,
 * latency.csv, the tenants' and pools' sums): 3,000 rows finish out of trace order behind
 * two long jobs, so nearly all of them wait in the writer's spill, over many batches. */
Test(sim, the_writer_thread_writes_the_folder_of_the_inline_writer) {
  g_autoptr(scenario) sc = NULL;
  g_autoptr(trace) tr = NULL;
  sim_holding_run(3000, &sc, &tr);
  g_autofree char *top = g_dir_make_tmp("sharesim-writer-XXXXXX", NULL);
  cr_assert_not_null(top);
  g_autofree char *dt = g_build_filename(top, "thread", NULL);
  g_autofree char *di = g_build_filename(top, "inline", NULL);
  g_autofree char *dk = g_build_filename(top, "kept", NULL);
  g_autoptr(GError) err = NULL;
  sim_options ot = {.writer_thread = 1}, oi = {.writer_thread = -1};
  g_autoptr(results) rt = studyrun_simulate(sc, tr, &ot, dt, &err);
  cr_assert_not_null(rt, "%s", err ? err->message : "?");
  g_autoptr(results) ri = studyrun_simulate(sc, tr, &oi, di, &err);
  cr_assert_not_null(ri, "%s", err ? err->message : "?");
  g_autoptr(results) rk = sim_run(sc, tr, NULL, NULL);
  cr_assert(rk && report_write_dir(rk, dk, TRUE, NULL));
  cr_assert(sim_same_folders(dk, dt) >= 12);
  cr_assert(sim_same_folders(dk, di) >= 12);
  /* the run tests what it should: rows out of trace order, services, every outcome */
  guint late = 0, cut = 0, never = 0;
  for (guint i = 1; i < rk->jobs->len; i++) {
    const job_result *j = &g_array_index(rk->jobs, job_result, i);
    late += j->outcome == OUTCOME_COMPLETED;
    cut += j->outcome == OUTCOME_RUNNING || j->outcome == OUTCOME_QUEUED;
    never += j->outcome == OUTCOME_NOT_SUBMITTED;
  }
  cr_assert(rk->jobs->len == 3002 && late > 2000 && cut && never && rk->services->len > 500,
            "%u rows: %u completed behind the long jobs, %u cut off, %u never submitted, "
            "%u services", rk->jobs->len, late, cut, never, rk->services->len);
  cr_assert(cleanup_remove_tree(top, NULL));
}

typedef struct sim_failing_sink {
  guint rows, fail_at;
} sim_failing_sink;

static gboolean sim_fail_after(void *data, const results *r, const job_result *j,
                               GError **error) {
  sim_failing_sink *f = data;
  if (++f->rows < f->fail_at) return TRUE;
  g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "planted: no room for row %u",
              f->rows);
  return FALSE;
}

/* A row the job sink cannot write (a full disk) fails the run with the sink's error, on the
 * writer thread as in the run's own, and no row after it is handed over. */
Test(sim, a_row_the_writer_cannot_write_fails_the_run) {
  g_autoptr(scenario) sc = NULL;
  g_autoptr(trace) tr = NULL;
  sim_holding_run(3000, &sc, &tr);
  for (int thread = -1; thread <= 1; thread += 2) {
    sim_failing_sink f = {.fail_at = 1500};
    sim_options opt = {.job_sink = sim_fail_after, .job_sink_data = &f, .writer_thread = thread};
    g_autoptr(GError) err = NULL;
    g_autoptr(results) r = sim_run(sc, tr, &opt, &err);
    cr_assert_null(r, "thread %d: the run fails", thread);
    cr_assert(err && g_error_matches(err, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME),
              "thread %d: a runtime error", thread);
    cr_assert(strstr(err->message, "planted: no room for row 1500"), "%s", err->message);
    cr_assert_eq(f.rows, 1500, "thread %d: nothing after the failed row", thread);
  }
}

/* ---- the held rows (rowwriter.c's arena, spilled as sorted runs: rowspill.h) ---- */

/* The run's folder through studyrun_simulate (as `run -o`), or NULL with err. */
static results *sim_writer_folder(const scenario *sc, const trace *tr, int thread,
                                  guint64 hold_bytes, guint64 fail_read, const char *dir,
                                  GError **err) {
  sim_options opt = {.writer_thread = thread,
                     .test = {.row_hold_bytes = hold_bytes, .spill_fail_read = fail_read}};
  return studyrun_simulate(sc, tr, &opt, dir, err);
}

/* A run of the holding trace through the writer with a held-row budget (NULL: the
 * default) and a read failure planted at the spill's fail_read-th file read (0: none):
 * whether it succeeded, its folder then the kept one's, byte for byte. */
static gboolean sim_held_run(const scenario *sc, const trace *tr, const char *budget,
                             guint fail_read, int thread, const char *dk, const char *d) {
  g_autoptr(GError) err = NULL;
  g_autoptr(results) r = sim_writer_folder(sc, tr, thread, budget ? g_ascii_strtoull(budget, NULL, 10) : 0,
                                           fail_read, d, &err);
  if (!r) {
    cr_assert(err && strstr(err->message, "from the spill file"), "%s", err ? err->message : "?");
    return FALSE;
  }
  cr_assert(sim_same_folders(dk, d) >= 12, "budget %s, thread %d", budget, thread);
  return TRUE;
}

/* With a held-row budget of 4 KB (about 13 records) the 3,000 rows that finish behind the
 * long jobs go to the spill in 187 runs, read back interleaved in row order (a read
 * failure planted at the 150th file read happens); with 512 KB in one run of ~512 KB,
 * read sequentially in two pieces of 256 KB (a failure at the 1st read happens, at the 4th
 * not); with the default budget they all stay in memory (a failure at the 1st read does
 * not happen). Whenever the run succeeds its folder is the kept run's, byte for byte, on
 * the writer thread and inline. */
Test(sim, held_rows_spilled_in_many_runs_write_the_folder_of_the_kept_run) {
  g_autoptr(scenario) sc = NULL;
  g_autoptr(trace) tr = NULL;
  sim_holding_run(3000, &sc, &tr);
  g_autofree char *top = g_dir_make_tmp("sharesim-held-XXXXXX", NULL);
  cr_assert_not_null(top);
  g_autofree char *dk = g_build_filename(top, "kept", NULL);
  g_autoptr(results) rk = sim_run(sc, tr, NULL, NULL);
  cr_assert(rk && report_write_dir(rk, dk, TRUE, NULL));
  struct { const char *budget; guint fail_read; gboolean ok; } cases[] = {
    {NULL, 1, TRUE}, {"4096", 0, TRUE}, {"4096", 150, FALSE},
    {"524288", 4, TRUE}, {"524288", 1, FALSE}};
  for (guint c = 0; c < G_N_ELEMENTS(cases); c++)
    for (int thread = -1; thread <= 1; thread += 2) {
      g_autofree char *d = g_strdup_printf("%s/c%u-t%d", top, c, thread);
      gboolean ok = sim_held_run(sc, tr, cases[c].budget, cases[c].fail_read, thread, dk, d);
      cr_assert_eq(ok, cases[c].ok, "budget %s, failure at read %u, thread %d: %s",
                   cases[c].budget ? cases[c].budget : "default", cases[c].fail_read, thread,
                   ok ? "succeeded" : "failed");
    }
  cr_assert(cleanup_remove_tree(top, NULL));
}

/* A held row the spill cannot give back (a read of the file fails, planted at its 40th
 * read) fails the run with a runtime error that says so, on the writer thread as inline,
 * and leaves nothing: no result folder, no temporary beside it. */
Test(sim, a_held_row_the_spill_cannot_give_back_fails_the_run) {
  g_autoptr(scenario) sc = NULL;
  g_autoptr(trace) tr = NULL;
  sim_holding_run(3000, &sc, &tr);
  g_autofree char *top = g_dir_make_tmp("sharesim-held-XXXXXX", NULL);
  cr_assert_not_null(top);
  for (int thread = -1; thread <= 1; thread += 2) {
    g_autofree char *d = g_build_filename(top, "out", NULL);
    g_autoptr(GError) err = NULL;
    g_autoptr(results) r = sim_writer_folder(sc, tr, thread, 4096, 40, d, &err);
    cr_assert_null(r, "thread %d: the run fails", thread);
    cr_assert(err && g_error_matches(err, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME),
              "thread %d: a runtime error", thread);
    cr_assert(strstr(err->message, "cannot read back a held jobs.csv row from the spill file"),
              "%s", err->message);
    GDir *dir = g_dir_open(top, 0, NULL);
    cr_assert_not_null(dir);
    const char *left = g_dir_read_name(dir);
    cr_assert_null(left, "thread %d: nothing left, found %s", thread, left);
    g_dir_close(dir);
  }
  cr_assert(cleanup_remove_tree(top, NULL));
}

static gboolean rw_test_sink(void *data, const results *r, const job_result *j, GError **error) {
  g_string_append_printf(data, "%s,%s,%s\n", j->id, j->reason, j->gpu_ids);
  return TRUE;
}

/* The rows of one writer, put in the reverse of trace order (row 0 last, so that every
 * other one is held) with a 64 KB budget: ~17 runs, each sorted by row, so that the drain
 * reads each one sequentially, once, in one piece (a read failure planted at the 50th
 * file read does not happen; one at the 1st does, and fails the rows). The rows come out
 * in trace order with their own id, reason and GPUs, on a writer thread and inline. */
Test(rowwriter, rows_put_in_reverse_come_out_in_order_through_sorted_runs) {
  enum { N = 4000 };
  GString *want = g_string_new(NULL);
  for (guint i = 0; i < N; i++) g_string_append_printf(want, "j%u,why%u,p/n%u/g%u;p/n0/g1\n", i,
                                                       i % 7, i % 5, i % 3);
  for (guint c = 0; c < 4; c++) {
    gboolean thread = c & 1, fail = c >= 2;
    results *res = results_new();
    GString *got = g_string_new(NULL);
    rowwriter_config cf = {.res = res, .n_rows = N, .job_sink = rw_test_sink,
                           .job_sink_data = got, .spill = TRUE, .thread = thread,
                           .hold_bytes = 65536, .spill_fail_read = fail ? 1 : 50};
    rowwriter *w = rowwriter_new(&cf);
    for (guint k = 0; k < N; k++) {
      guint32 i = k + 1 < N ? N - 1 - k : 0;
      rowwriter_row r = {.jr = {.kind = "batch", .tenant = "t", .pool = "p", .pool_index = -1,
                                .outcome = OUTCOME_NOT_SUBMITTED, .straggler_delay_s = NAN},
                         .row = i};
      g_autofree char *id = g_strdup_printf("j%u", i), *why = g_strdup_printf("why%u", i % 7);
      guint32 *g = rowwriter_put(w, &r, id, why, 2, NULL);
      g[0] = i % 5, g[1] = i % 3, g[2] = 0, g[3] = 1;
    }
    g_autoptr(GError) err = NULL;
    gboolean ok = rowwriter_finish(w, &err);
    if (fail) {
      cr_assert(!ok && err && strstr(err->message, "cannot read back a held jobs.csv row"),
                "case %u: the planted failure fails the rows", c);
    } else {
      cr_assert(ok, "case %u: %s", c, err ? err->message : "?");
      cr_assert_str_eq(got->str, want->str, "case %u: the rows in trace order", c);
    }
    rowwriter_free(w);
    results_free(res);
    g_string_free(got, TRUE);
  }
  g_string_free(want, TRUE);
}

/* The bytes of record k of run r (len a multiple of 8, from 8 to 2,048; one of 300 KB,
 * longer than any read buffer). */
static gsize spill_rec_len(guint r, guint k) {
  return r == 7 && k == 3 ? 300 * 1024 : 8 * (1 + (r * 131 + k * 71) % 256);
}

static void spill_rec_fill(guint8 *buf, gsize len, guint r, guint k) {
  for (gsize i = 0; i < len; i++) buf[i] = (guint8)(r * 7 + k * 13 + i * 31 + (i >> 8));
}

/* 100 runs of 60 records each, read back interleaved (record k of every run, then k + 1)
 * as the row writer's drain reads them: every record comes back as written, at one file
 * read per buffer-full of its run rather than one per record; a record read again out of
 * order too; a planted read failure fails that read only. */
Test(rowspill, runs_read_back_interleaved_through_buffers_of_their_own) {
  enum { RUNS = 100, RECS = 60 };
  rowspill *sp = rowspill_new(NULL, 0);
  cr_assert_not_null(sp);
  gint64 *at = g_new(gint64, RUNS * RECS);
  guint8 *buf = g_malloc(300 * 1024), *want = g_malloc(300 * 1024);
  guint64 bytes = 0;
  for (guint r = 0; r < RUNS; r++) {
    rowspill_run_begin(sp);
    for (guint k = 0; k < RECS; k++) {
      gsize len = spill_rec_len(r, k);
      spill_rec_fill(buf, len, r, k);
      at[r * RECS + k] = rowspill_put(sp, buf, len);
      cr_assert(at[r * RECS + k] >= 0);
      bytes += len;
    }
    rowspill_run_end(sp);
  }
  cr_assert_eq(rowspill_runs(sp), RUNS);
  cr_assert_eq(rowspill_size(sp), bytes);
  for (guint k = 0; k < RECS; k++)
    for (guint r = 0; r < RUNS; r++) {
      gsize len = spill_rec_len(r, k);
      const guint8 *got = rowspill_run_read(sp, at[r * RECS + k], len);
      spill_rec_fill(want, len, r, k);
      cr_assert(got && memcmp(got, want, len) == 0, "run %u record %u", r, k);
    }
  /* 100 runs read at once: 16 KB buffers (the floor), ~3.5 MB in ~230 reads, not 6,000 */
  guint64 reads = rowspill_run_reads(sp);
  cr_assert(reads >= bytes / (256 * 1024) && reads <= bytes / (16 * 1024) + 2 * RUNS,
            "%" G_GUINT64_FORMAT " reads for %" G_GUINT64_FORMAT " bytes", reads, bytes);
  const guint8 *again = rowspill_run_read(sp, at[5 * RECS + 2], spill_rec_len(5, 2));
  spill_rec_fill(want, spill_rec_len(5, 2), 5, 2);
  cr_assert(again && memcmp(again, want, spill_rec_len(5, 2)) == 0);
  rowspill_free(sp);
  /* the planted failure: the 3rd file read fails, once */
  sp = rowspill_new(NULL, 3);
  for (guint r = 0; r < 3; r++) {
    rowspill_run_begin(sp);
    spill_rec_fill(buf, 64, r, 0);
    at[r] = rowspill_put(sp, buf, 64);
    rowspill_run_end(sp);
  }
  cr_assert(rowspill_run_read(sp, at[0], 64) && rowspill_run_read(sp, at[1], 64));
  cr_assert_null(rowspill_run_read(sp, at[2], 64));
  const guint8 *got = rowspill_run_read(sp, at[2], 64);
  spill_rec_fill(want, 64, 2, 0);
  cr_assert(got && memcmp(got, want, 64) == 0);
  rowspill_free(sp);
  g_free(at);
  g_free(buf);
  g_free(want);
}

/* ---- a spilled trace (TRACE_SPILL: rows in a temporary file, read back in order) ---- */

/* The run's jobs.csv rows (through a sink, as `run -o` writes them), summary and
 * services.csv. */
static char *sim_spill_outputs(const scenario *sc, const trace *tr) {
  sim_stream_rows c = {.text = g_string_new(NULL)};
  sim_options opt = {.job_sink = sim_stream_collect, .job_sink_data = &c};
  g_autoptr(results) r = sim_run(sc, tr, &opt, NULL);
  cr_assert_not_null(r);
  g_autofree char *json = report_json(r, FALSE);
  g_string_append(c.text, json);
  report_file_string("services.csv", r, c.text);
  return g_string_free(c.text, FALSE);
}

/* 16-row chunks, so that 400 rows make 25 of them: every row reads back as it was read,
 * ids are found with the index and after it is dropped, and the run (jobs out of trace
 * order, a horizon that cuts some off and leaves some never submitted) writes what the
 * run of the trace in memory writes. Rows out of submit order are kept in memory. */
Test(sim, a_spilled_trace_reads_back_and_runs_as_the_trace_in_memory) {
  g_autofree char *yaml = g_strconcat("name: spill\nseed: 3\nhorizon: 14000s\ninterval: 600s\n",
                                      two_pools, NULL);
  GString *csv = mixed_csv(400, "job-", 40, 5000, "4", NULL);
  g_autofree char *sp = tu_write_temp("spill.yaml", yaml);
  g_autofree char *tp = tu_write_temp("spill.csv", csv->str);
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(scenario) sc = scenario_load(sp, d);
  g_autoptr(trace) mem = trace_load(tp, d);
  g_autoptr(trace) spilled = trace_load_flags(tp, TRACE_SPILL | TRACE_TEST_SMALL_CHUNKS, d);
  cr_assert(sc && mem && spilled && !trace_spilled(mem) && trace_spilled(spilled));
  for (guint i = 0; i < 400; i++) {
    job_spec a = trace_job(mem, i), b = trace_job(spilled, i);
    cr_assert_str_eq(b.id, a.id);
    cr_assert(b.line == a.line && b.submit_ns == a.submit_ns && b.gpus == a.gpus &&
              b.duration_ns == a.duration_ns && !strcmp(b.tenant, a.tenant), "row %u", i);
  }
  cr_assert_eq(trace_find(spilled, "job-399"), 399);
  trace_drop_index(spilled);
  cr_assert_eq(trace_find(spilled, "job-250"), 250);
  cr_assert_eq(trace_find(spilled, "nope"), -1);
  g_autofree char *want = sim_spill_outputs(sc, mem), *got = sim_spill_outputs(sc, spilled);
  cr_assert_str_eq(got, want);
  cr_assert(strstr(want, "job-399,") && strstr(want, "not_submitted"), "cut off by the horizon");
  /* a duplicate id in a late chunk still names the first line */
  g_autofree char *dup = g_strconcat(csv->str, "job-3,20000,batch,1,1,10,,,t0\n", NULL);
  g_autofree char *dp = tu_write_temp("spill-dup.csv", dup);
  g_autoptr(diag_list) dd = diag_list_new(0);
  cr_assert_null(trace_load_flags(dp, TRACE_SPILL | TRACE_TEST_SMALL_CHUNKS, dd));
  cr_assert(strstr(g_ptr_array_index(dd->messages, 0), ":402:1: id: expected a unique id "
                                                        "(this one is already on line 5)"),
            "%s", (const char *)g_ptr_array_index(dd->messages, 0));
  /* out of submit order: the rows come back into memory */
  g_string_append(csv, "late,1,batch,1,1,10,,,t0\n");
  g_autofree char *up = tu_write_temp("spill-unsorted.csv", csv->str);
  g_autoptr(trace) unsorted = trace_load_flags(up, TRACE_SPILL | TRACE_TEST_SMALL_CHUNKS, d);
  cr_assert(unsorted && !trace_spilled(unsorted) && trace_n_jobs(unsorted) == 401);
  cr_assert_str_eq(trace_job(unsorted, 400).id, "late");
  g_string_free(csv, TRUE);
}

/* The same for the services: services.csv, latency.csv, llm.csv and llm-latency.csv
 * written while the run goes, and the summaries (the worst services that missed their
 * target, the first LLM services and how many more) from the few rows kept: byte for byte
 * the folder of the run that keeps every row. Many services miss, with ties; long jobs
 * hold rows back; more LLM services than the summary shows. */
Test(sim, streamed_services_write_the_kept_folder) {
  const char *yaml = "name: svc\nseed: 5\nhorizon: 4000s\ninterval: 60s\ninference:\n"
                     "  model: requests\npools:\n"
                     "  - name: a\n    gpu: A100-80GB\n    nodes: 4\n    gpus_per_node: 2\n"
                     "    strategy: exclusive\n"
                     "  - name: h\n    gpu: H100-80GB\n    nodes: 2\n    gpus_per_node: 2\n"
                     "    strategy: exclusive\n"
                     "routing:\n  - {label: llm, pool: h}\n  - {pool: a}\n";
  GString *csv = g_string_new("id,submit_s,kind,gpus,mem_gb,duration_s,rate_rps,service_ms,"
                              "slo_ms,model,slo_ttft_ms,slo_tpot_ms,label\n");
  for (int i = 0; i < 60; i++) {
    if (i % 10 == 0) /* a long job: the rows after it wait */
      g_string_append_printf(csv, "b%d,%d,batch,1,4,%d,,,,,,,\n", i, i * 20, 1500 + i * 7);
    else if (i % 10 == 5)
      g_string_append_printf(csv, "l%d,%d,inference,1,0,%d,2,,,llama-3-8b,%d,50,llm\n", i,
                             i * 20, 300 + i, i % 20 ? 300 : 5000);
    else /* tight SLOs at a high load miss; equal ones tie */
      g_string_append_printf(csv, "s%d,%d,inference,1,4,%d,%d,20,%d,,,,\n", i, i * 20,
                             200 + (i * 37) % 400, 20 + i % 4 * 10, i % 3 ? 25 : 60);
  }
  g_autoptr(scenario) sc = NULL;
  g_autoptr(trace) tr = NULL;
  sim_load_text(yaml, csv, &sc, &tr);
  g_autofree char *top = NULL, *dk = NULL, *ds = NULL;
  g_autoptr(results) kept = NULL;
  g_autoptr(results) streamed = sim_kept_and_streamed(sc, tr, "sharesim-svc-XXXXXX", &kept, &top, &dk, &ds);
  cr_assert(streamed->services_streamed);
  results_slo t;
  results_slo_summary(kept, &t);
  guint llm = 0;
  for (guint i = 0; i < kept->services->len; i++) llm += g_array_index(kept->services, service_result, i).llm;
  cr_assert(t.judged - t.met > RESULTS_SLO_WORST + 2 && llm > RESULTS_LLM_SHOWN,
            "%u missed, %u LLM", t.judged - t.met, llm);
  cr_assert(streamed->services->len <= RESULTS_SLO_WORST + RESULTS_LLM_SHOWN,
            "only the rows the summaries name are kept: %u", streamed->services->len);
  cr_assert(sim_same_folders(dk, ds) >= 14);
  cr_assert(cleanup_remove_tree(top, NULL));
}
