/* test-accounting.c: numbers that add up (issue 11 bugs 4-6): the duty a neighbour sees
 * does not depend on unrelated events, peak memory never counts a failed allocation, and
 * the backlog at the end of a session is counted as unanswered. Each test is one of the
 * reproducers (F01, F05, F08) and failed before its fix. */
#include "testutil.h"
#include "figures.h"

#define ACC_TRACE_HEAD "id,submit_s,kind,gpus,mem_gb,duration_s,rate_rps,service_ms,slo_ms,sm,busy\n"

/* F01: a trainer beside a saturated service on one time-sliced A100 (replicas 3); the second
 * run adds 359 notebooks that never compute (busy 0), arriving every 10 s. */
static results *acc_pair(gboolean ticks) {
  GString *csv = g_string_new(ACC_TRACE_HEAD "bert,0,inference,1,2,3600,123.5,4.05,20,0.5,\n"
                                             "trainer,0,training,1,10,100000,,,,1,\n");
  for (int i = 0; ticks && i < 359; i++)
    g_string_append_printf(csv, "tick%d,%d,notebook,1,0.1,5,,,,,0\n", i, 10 * (i + 1));
  results *r = tu_run("name: ts3\nseed: 3\nhorizon: 3600s\npools:\n"
                      "  - {name: p, gpu: A100-80GB, nodes: 1, gpus_per_node: 1,\n"
                      "     strategy: time-slicing, replicas: 3}\n",
                      csv->str, NULL);
  g_string_free(csv, TRUE);
  return r;
}

Test(accounting, neighbour_duty_does_not_depend_on_unrelated_events) {
  results *quiet = acc_pair(FALSE), *busy = acc_pair(TRUE);
  const job_result *a = tu_job(quiet, "trainer"), *b = tu_job(busy, "trainer");
  /* before the fix: 0.670 on the quiet card, 0.497 with the idle notebooks */
  TU_NEAR(a->work_done_s, b->work_done_s, 1e-6 * a->work_done_s);
  const service_result *sa = tu_service(quiet, "bert"), *sb = tu_service(busy, "bert");
  cr_assert_eq(sa->served, sb->served);
  cr_assert_eq(sa->violations, sb->violations);
  /* The service is saturated (0.5 of a card offered, at most (1 - 0.06) / 2 = 0.47 given
   * beside the trainer): the GPU's time is not over-committed, i.e. the service's busy
   * share times its speed plus the trainer's speed stays within the card's efficiency. */
  double trainer_speed = a->work_done_s / a->run_s;
  cr_assert_gt(sa->busy_frac, 0.99);
  cr_assert(trainer_speed < 0.5, "trainer speed %.3f beside a saturated service", trainer_speed);
  double service_speed = 0.94 / 2.0; /* U = 2 contexts both busy, switch loss 0.06 */
  cr_assert(sa->busy_frac * service_speed + trainer_speed <= 0.94 * (1 + 0.06),
            "over-committed: %.3f + %.3f", sa->busy_frac * service_speed, trainer_speed);
  results_free(quiet);
  results_free(busy);
}

/* F05: 150 req/s offered to a 100 req/s service for 600 s: about a third of the requests are
 * still queued at the end of the session. */
Test(accounting, overload_backlog_counts_as_unanswered) {
  results *r = tu_run("name: overload\nseed: 1\npools:\n"
                      "  - {name: p, gpu: A100-80GB, nodes: 1, gpus_per_node: 2, "
                      "strategy: exclusive}\n",
                      "id,submit_s,kind,gpus,mem_gb,duration_s,rate_rps,service_ms,slo_ms,slo_pct\n"
                      "svc,0,inference,1,4,600,150,10,100,99\n"
                      "svc2,0,inference,1,4,600,150,10,300000,99\n",
                      NULL);
  for (int k = 0; k < 2; k++) {
    const service_result *s = tu_service(r, k ? "svc2" : "svc");
    cr_assert_eq(s->requests, s->served + s->dropped + s->unanswered);
    /* ~90,000 arrivals, at most 60,000 served */
    cr_assert(fabs((double)s->requests - 90000) < 0.02 * 90000, "requests %lu",
              (unsigned long)s->requests);
    cr_assert_leq(s->served, 60000);
    cr_assert(fabs((double)s->unanswered - 30000) < 0.05 * 30000, "unanswered %lu",
              (unsigned long)s->unanswered);
    cr_assert_geq(s->violations, s->unanswered + s->dropped);
    TU_NEAR(s->attainment_pct,
            100.0 * (double)(s->requests - s->violations) / (double)s->requests, 1e-9);
  }
  /* the lenient SLO (300 s, met by every served request) no longer reports 100 % */
  const service_result *lenient = tu_service(r, "svc2");
  cr_assert_lt(lenient->attainment_pct, 70);
  cr_assert_eq(lenient->met, 0);
  results_free(r);
}

/* F08: four time-sliced notebooks with 5 GB each on an A100-40GB; nb1 grows to 30 GB. */
Test(accounting, peak_memory_never_counts_the_failed_allocation) {
  results *r = tu_run("name: nb\nseed: 1\npools:\n"
                      "  - {name: dev, gpu: A100-40GB, nodes: 1, gpus_per_node: 1,\n"
                      "     strategy: time-slicing, replicas: 4, oom: all}\n",
                      "id,submit_s,kind,gpus,mem_gb,duration_s,busy,burst_s\n"
                      "nb1,0,notebook,1,5,7200,0.15,30\nnb2,0,notebook,1,5,7200,0.15,30\n"
                      "nb3,0,notebook,1,5,7200,0.15,30\nnb4,0,notebook,1,5,7200,0.15,30\n",
                      "job_id,after_s,mem_gb\nnb1,2400,30\n");
  const gpu_result *g = &g_array_index(r->gpus, gpu_result, 0);
  cr_assert_eq(g->oom_events, 1);
  /* before the fix: 45 GB on a 42.95 GB card */
  TU_NEAR(g->peak_mem_gb, 20, 1e-9);
  guint kills = 0;
  for (guint i = 0; i < r->events_log->len; i++) {
    const event_row *e = &g_array_index(r->events_log, event_row, i);
    if (e->kind != EVENT_OOM_KILL) continue;
    kills++;
    cr_assert(strstr(e->detail, "45.00 GB demanded"), "%s", e->detail);
  }
  cr_assert_eq(kills, 4);
  results_free(r);
}

/* Bug 9: a difference too small for one decimal is not printed as "-0.0 pp" (which read as
 * no difference beside 304 more violations) nor in an exponent form. */
Test(accounting, small_differences_keep_two_significant_digits) {
  static const struct { figure_unit unit; double v, base; const char *want; } cases[] = {
    {FIGURE_PERCENT, 99.9969, 100.0, "-0.0031 pp"},
    {FIGURE_FRACTION, 0.5, 0.4999996, "+0.000040 pp"},
    {FIGURE_PERCENT, 98.5, 99.0, "-0.5 pp"},
    {FIGURE_MONEY, 1000.2, 1000.0, "+$0.20 (+0.020 %)"},
  };
  for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
    GString *out = g_string_new(NULL);
    figures_format_delta(out, cases[i].unit, cases[i].v, cases[i].base);
    cr_assert_str_eq(out->str, cases[i].want);
    g_string_free(out, TRUE);
  }
}

/* Issue 11's conservation at the job level: a job is charged its part of each card it
 * occupied (the card's allocated time x its share over the residents' shares), so jobs add
 * up to their tenants and pools under every strategy; gpu_s_share keeps the share it was
 * promised. Two idle notebooks (busy 0: speeds do not matter) on one card: a for 0-1000 s,
 * b for 500-1000 s. Before the fix a was charged its share alone (250 s under time-slicing
 * with 4 replicas) while the pool counted the card allocated 1000 s. */
Test(accounting, jobs_are_charged_their_part_of_the_occupied_card) {
  static const struct { const char *pool; double share_a, share_b, alloc_a, alloc_b; } cases[] = {
    {"strategy: time-slicing, replicas: 4", 250, 125, 750, 250},
    {"strategy: mps, replicas: 4", 250, 125, 750, 250},
    {"strategy: vgpu, profile: A100D-20C", 250, 125, 750, 250},
    {"strategy: mig, layout: \"3g.40gb x2\"", 1000 * 3.0 / 7, 500 * 3.0 / 7, 750, 250},
    /* 0.6 and 0.3 of the card: together they split it 2:1, a alone holds it whole */
    {"strategy: fractional", 600, 150, 500 + 500 * 2.0 / 3, 500 / 3.0},
  };
  for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autofree char *yaml = g_strdup_printf("name: charge\nseed: 1\npools:\n"
                                            "  - {name: p, gpu: A100-80GB, nodes: 1, gpus_per_node: 1,\n"
                                            "     %s}\n", cases[i].pool);
    results *r = tu_run(yaml, "id,submit_s,kind,gpus,mem_gb,duration_s,busy,gpu_frac,tenant\n"
                              "a,0,notebook,1,5,1000,0,0.6,x\nb,500,notebook,1,5,500,0,0.3,y\n", NULL);
    const job_result *a = tu_job(r, "a"), *b = tu_job(r, "b");
    const pool_result *p = &g_array_index(r->pools, pool_result, 0);
    cr_assert_eq(b->start_s, 500, "%s: b starts at %g", cases[i].pool, b->start_s);
    TU_NEAR(p->allocated_gpu_s, 1000, 1e-6);
    TU_NEAR(a->gpu_s_share, cases[i].share_a, 1e-6);
    TU_NEAR(b->gpu_s_share, cases[i].share_b, 1e-6);
    TU_NEAR(a->gpu_s_allocated, cases[i].alloc_a, 1e-6);
    TU_NEAR(b->gpu_s_allocated, cases[i].alloc_b, 1e-6);
    TU_NEAR(a->gpu_s_allocated + b->gpu_s_allocated, p->allocated_gpu_s, 1e-6);
    for (guint t = 0; t < r->tenants->len; t++) {
      const tenant_result *tr = &g_array_index(r->tenants, tenant_result, t);
      const job_result *j = !strcmp(tr->name, "x") ? a : b;
      TU_NEAR(tr->allocated_gpu_s, j->gpu_s_allocated, 1e-6);
    }
    results_free(r);
  }
}
