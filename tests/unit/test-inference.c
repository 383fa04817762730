/* test-inference.c: the request-level inference model against queueing theory (M/M/1,
 * M/D/1 Pollaczek-Khinchine, M/M/c Erlang C), the memory limit on concurrency, recorded
 * arrivals (exact latencies, the streaming reader), SLO counting per interval and in the
 * time series, the daily cycle, rate phases, and the sharing strategies (time-slicing makes
 * violations intermittent; MIG isolates; skipped while a strategy is not built). */
#include "testutil.h"
#include "histogram.h"
#include "mmc.h"
#include "import.h"
#include "share.h"
#include <gsl/gsl_sf_gamma.h>

#define POOL1(strategy_lines)                                                                \
  "seed: 11\npools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n    gpus_per_node: 1\n" \
  strategy_lines

/* fixed work: the tests that check exact latencies ask for it by name (the default is
 * lognormal) */
#define INF_FIXED "inference: {service_dist: deterministic}\n"

#define TRACE_HEAD \
  "id,submit_s,kind,gpus,mem_gb,duration_s,rate_rps,service_ms,slo_ms,max_batch,kv_gb\n"

#define inf_service tu_service

/* Like tu_run, with a requests file. */
static results *inf_run_requests(const char *yaml, const char *csv, const char *requests_csv) {
  return tu_run_full(yaml, csv, NULL, requests_csv);
}

#define REL_NEAR(got, want, tol)                                                              \
  cr_assert(fabs((double)(got) - (double)(want)) <= (tol) * fabs((double)(want)),                \
            "%s = %.6g, expected %.6g within %g %%", \
            #got, (double)(got), (double)(want), 100.0 * (tol))

/* ---- queueing theory ---- */

Test(inference, erlang_c_formula_matches_known_values) {
  /* M/M/1: C = rho; M/M/2 with a = 1: C = 1/3 */
  cr_assert_float_eq(mmc_erlang_c(1, 0.7), 0.7, 1e-12);
  cr_assert_float_eq(mmc_erlang_c(2, 1.0), 1.0 / 3.0, 1e-12);
  /* M/M/1 sojourn is Exp(mu - lambda) */
  cr_assert_float_eq(mmc_sojourn_quantile(1, 70, 100, 0.99), log(100.0) / 30.0, 1e-9);
  cr_assert_float_eq(mmc_sojourn_mean(1, 70, 100), 1.0 / 30.0, 1e-12);
  /* M/M/4: the quantile puts exactly 1 - q of the sojourn mass beyond it */
  double t99 = mmc_sojourn_quantile(4, 280, 100, 0.99);
  cr_assert_float_eq(mmc_sojourn_tail(4, 280, 100, t99), 0.01, 1e-9);
  cr_assert(mmc_sojourn_tail(4, 280, 100, 0.9 * t99) > 0.01);
}

Test(inference, mm1_mean_and_p99_match_the_formulas) {
  /* rho = 70/s x 10 ms = 0.7, exponential service, one slot, 20 h (about 5 M requests) */
  results *r = tu_run(POOL1("inference: {service_dist: exponential}\n"),
                      TRACE_HEAD "svc,0,inference,1,10,72000,70,10,,,\n", NULL);
  const service_result *s = inf_service(r, "svc");
  double lambda = 70, mu = 100;
  cr_assert_gt(s->requests, 4900000);
  cr_assert_eq(s->dropped, 0);
  /* the few in service or queued when the session ends got no answer (issue 11 bug 6) */
  cr_assert_eq(s->requests, s->served + s->unanswered);
  cr_assert_lt(s->unanswered, 100);
  REL_NEAR(s->mean_ms, 1000.0 / (mu - lambda), 0.02);
  REL_NEAR(s->p99_ms, 1000.0 * log(100.0) / (mu - lambda), 0.05);
  REL_NEAR(s->p50_ms, 1000.0 * log(2.0) / (mu - lambda), 0.05);
  /* the measured busy fraction is the utilisation */
  REL_NEAR(s->busy_frac, 0.7, 0.01);
  /* no SLO: nothing judged */
  cr_assert(isnan(s->attainment_pct));
  cr_assert_eq(s->met, -1);
  results_free(r);
}

Test(inference, md1_mean_matches_pollaczek_khinchine) {
  /* deterministic 10 ms at rho 0.7: T = S + rho S / (2 (1 - rho)) = 21.667 ms */
  results *r = tu_run(POOL1(""), TRACE_HEAD "svc,0,inference,1,10,72000,70,10,,,\n", NULL);
  const service_result *s = inf_service(r, "svc");
  double S = 10, rho = 0.7;
  REL_NEAR(s->mean_ms, S + rho * S / (2 * (1 - rho)), 0.02);
  /* a deterministic service never beats its service time */
  cr_assert_geq(s->p50_ms, 10 * (1 - HISTOGRAM_MAX_REL_ERROR));
  results_free(r);
}

Test(inference, max_batch_c_matches_erlang_c) {
  /* c = 4 slots, rho = 280/s x 10 ms / 4 = 0.7 */
  results *r = tu_run(POOL1("inference: {service_dist: exponential}\n"),
                      TRACE_HEAD "svc,0,inference,1,10,20000,280,10,,4,\n", NULL);
  const service_result *s = inf_service(r, "svc");
  guint c = 4;
  double lambda = 280, mu = 100;
  double C = mmc_erlang_c(c, lambda / mu);
  double mean_ms = 1000.0 * (C / (c * mu - lambda) + 1.0 / mu);
  REL_NEAR(s->mean_ms, mean_ms, 0.05);
  REL_NEAR(s->p99_ms, 1000.0 * mmc_sojourn_quantile(c, lambda, mu, 0.99), 0.05);
  /* busy (at least one request in service) = 1 - P0 */
  double a = lambda / mu, term = 1, sum = 0;
  for (guint k = 0; k < c; k++, term *= a / k) sum += term;
  double p0 = 1.0 / (sum + term / (1 - a / c));
  REL_NEAR(s->busy_frac, 1 - p0, 0.01);
  results_free(r);
}

Test(inference, less_memory_means_fewer_slots_and_a_higher_p99) {
  /* 80 GB card, kv 20 GB per request, max_batch 8: 40 GB of weights leave room for 2
   * requests, 60 GB for 1. Offered load 0.7 Erlangs (70/s x 10 ms, exponential). */
  const char *yaml = POOL1("inference: {service_dist: exponential}\n");
  results *wide = tu_run(yaml, TRACE_HEAD "svc,0,inference,1,40,40000,70,10,,8,20\n", NULL);
  results *tight = tu_run(yaml, TRACE_HEAD "svc,0,inference,1,60,40000,70,10,,8,20\n", NULL);
  const service_result *w = inf_service(wide, "svc"), *t = inf_service(tight, "svc");
  double lambda = 70, mu = 100;
  REL_NEAR(w->p99_ms, 1000.0 * mmc_sojourn_quantile(2, lambda, mu, 0.99), 0.05);
  REL_NEAR(w->mean_ms, 1000.0 * (mmc_erlang_c(2, 0.7) / (2 * mu - lambda) + 1 / mu), 0.02);
  REL_NEAR(t->p99_ms, 1000.0 * mmc_sojourn_quantile(1, lambda, mu, 0.99), 0.05);
  REL_NEAR(t->mean_ms, 1000.0 / (mu - lambda), 0.02);
  /* not the 8 slots of max_batch: with 8 hardly anyone would wait (mean 10.0 ms) */
  double mean_8 = 1000.0 * (mmc_erlang_c(8, 0.7) / (8 * mu - lambda) + 1 / mu);
  cr_assert_gt(w->mean_ms, 1.1 * mean_8, "mean %g ms vs %g with 8 slots", w->mean_ms, mean_8);
  cr_assert_gt(t->p99_ms, 1.5 * w->p99_ms, "p99 %g ms with 1 slot vs %g with 2", t->p99_ms,
               w->p99_ms);
  /* weights that leave no room for one request: every request is refused */
  results *none = tu_run(yaml, TRACE_HEAD "svc,0,inference,1,76,100,140,10,50,8,10\n", NULL);
  const service_result *n = inf_service(none, "svc");
  cr_assert_eq(n->served, 0);
  cr_assert_gt(n->dropped, 12000);
  cr_assert_eq(n->violations, n->dropped);
  cr_assert_float_eq(n->attainment_pct, 0, 1e-12);
  results_free(wide);
  results_free(tight);
  results_free(none);
}

/* ---- recorded arrivals, SLO intervals ---- */

Test(inference, recorded_arrivals_give_exact_latencies) {
  /* 10 ms each, one slot: 0 -> 10 ms; 5 ms -> waits 5, 15 ms; 100 ms -> 10 ms; the row
   * with service_ms 30 takes 30 ms; rows of another service and CRLF/quotes in between */
  const char *req = "\xEF\xBB\xBFjob_id,at_s,service_ms\r\n"
                    "svc,0,\r\n"
                    "other,0.001,\r\n"
                    "\"svc\",0.005,\r\n"
                    "svc, 0.1 ,\r\n"
                    "other,0.2,5\r\n"
                    "svc,0.3,30\r\n";
  results *r = inf_run_requests("pools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n"
                                "    gpus_per_node: 2\ninference: {service_dist: deterministic}\n",
                                TRACE_HEAD "svc,0,inference,1,10,10,1,10,12,,\n"
                                           "other,0,inference,1,10,10,1,10,,,\n",
                                req);
  const service_result *s = inf_service(r, "svc");
  cr_assert_eq(s->requests, 4);
  cr_assert_eq(s->served, 4);
  cr_assert_float_eq(s->mean_ms, (10 + 15 + 10 + 30) / 4.0, 1e-9);
  cr_assert_float_eq(s->max_ms, 30, 1e-9);
  /* SLO 12 ms: the 15 and 30 ms requests miss */
  cr_assert_eq(s->violations, 2);
  cr_assert_float_eq(s->attainment_pct, 50, 1e-9);
  cr_assert_eq(s->met, 0);
  const service_result *o = inf_service(r, "other");
  cr_assert_eq(o->requests, 2);
  cr_assert_float_eq(o->mean_ms, (10 + 5) / 2.0, 1e-9);
  results_free(r);
}

Test(inference, violation_minutes_follow_the_interval_grid) {
  /* minute 0: 10 spaced requests, all on time; minute 1: 10 at once (the 2nd waits 10 ms,
   * misses 15 ms); minute 2: spaced again. interval 60 s, slo_pct 99. */
  GString *req = g_string_new("job_id,at_s\n");
  for (int i = 0; i < 10; i++) g_string_append_printf(req, "svc,%d\n", i);
  for (int i = 0; i < 10; i++) g_string_append(req, "svc,70\n");
  for (int i = 0; i < 10; i++) g_string_append_printf(req, "svc,%d\n", 130 + i);
  results *r = inf_run_requests(POOL1(INF_FIXED), TRACE_HEAD "svc,0,inference,1,10,180,1,10,15,,\n",
                                req->str);
  g_string_free(req, TRUE);
  const service_result *s = inf_service(r, "svc");
  cr_assert_eq(s->requests, 30);
  cr_assert_eq(s->violations, 9); /* the burst's latencies are 10, 20, ... 100 ms */
  cr_assert_eq(s->violation_intervals, 1);
  cr_assert_float_eq(s->violation_minutes, 1, 1e-12);
  cr_assert_float_eq(s->max_ms, 100, 1e-9);
  /* timeseries.csv carries the violations in the interval where the requests arrived */
  cr_assert_eq(r->timeseries->len, 3);
  guint64 per_row[3];
  for (guint i = 0; i < 3; i++) per_row[i] = g_array_index(r->timeseries, ts_row, i).slo_violations;
  cr_assert_eq(per_row[0], 0);
  cr_assert_eq(per_row[1], 9);
  cr_assert_eq(per_row[2], 0);
  results_free(r);
}

Test(inference, requests_before_the_service_starts_are_dropped) {
  /* the card is held by a batch job for 5 s: the requests of the first 5 s find no server */
  const char *trace_csv = "id,submit_s,kind,gpus,mem_gb,duration_s,rate_rps,service_ms,slo_ms\n"
                      "b,0,batch,1,10,5,,,\n"
                      "svc,0,inference,1,10,10,1,10,100\n";
  const char *req = "job_id,at_s\nsvc,1\nsvc,2\nsvc,6\nsvc,7\n";
  results *r = inf_run_requests(POOL1(""), trace_csv, req);
  const service_result *s = inf_service(r, "svc");
  cr_assert_eq(s->requests, 4);
  cr_assert_eq(s->dropped, 2);
  cr_assert_eq(s->served, 2);
  cr_assert_eq(s->violations, 2);
  cr_assert_float_eq(s->attainment_pct, 50, 1e-9);
  results_free(r);
}

Test(inference, a_kill_drops_the_requests_in_flight_and_waiting) {
  /* 1 s per request; at 100 s the service crashes (restart: on-failure, at once): the
   * request in service since 99.5 s and the one waiting since 99.7 s are dropped */
  const char *yaml = POOL1(INF_FIXED);
  g_autofree char *sp = tu_write_temp("kill.yaml", yaml);
  g_autofree char *tp =
      tu_write_temp("kill.csv", TRACE_HEAD "svc,0,inference,1,10,200,1,1000,1500,,\n");
  g_autofree char *pp = tu_write_temp("kill-phases.csv", "job_id,after_s,crash\nsvc,100,1\n");
  g_autofree char *rp = tu_write_temp("kill-req.csv", "job_id,at_s\nsvc,10\nsvc,99.5\nsvc,99.7\n"
                                                      "svc,101\nsvc,101.2\n");
  g_autoptr(diag_list) d = diag_list_new(0);
  scenario *sc = scenario_load(sp, d);
  trace *tr = trace_load(tp, d);
  cr_assert(tr && trace_load_phases(tr, pp, d) && trace_check_requests(tr, rp, d));
  results *r = sim_run(sc, tr, NULL, NULL);
  cr_assert_not_null(r);
  const service_result *s = inf_service(r, "svc");
  cr_assert_eq(tu_job(r, "svc")->restarts, 1);
  cr_assert_eq(s->requests, 5);
  cr_assert_eq(s->dropped, 2);
  cr_assert_eq(s->served, 3);
  /* 10 s: 1000 ms; 101 s: 1000 ms; 101.2 s waits 0.8 s: 1800 ms (over the 1500 ms SLO) */
  cr_assert_float_eq(s->mean_ms, (1000 + 1000 + 1800) / 3.0, 1e-9);
  cr_assert_eq(s->violations, 3);
  results_free(r);
  scenario_free(sc);
  trace_free(tr);
}

Test(inference, streaming_reader_keeps_one_job_and_bounded_memory) {
  GString *text = g_string_new("x_note,at_s,job_id\n");
  for (int i = 0; i < 200000; i++)
    g_string_append_printf(text, "n,%d.5,%s\n", i, i % 4 == 0 ? "mine" : "theirs");
  g_autofree char *path = tu_write_temp("stream-requests.csv", text->str);
  g_string_free(text, TRUE);
  trace_request_cursor *c = trace_request_cursor_open(path, "mine", NULL);
  cr_assert_not_null(c);
  double at, svc, last = -1;
  guint n = 0;
  gsize most = 0;
  while (trace_request_cursor_next(c, &at, &svc)) {
    cr_assert_float_eq(at, n * 4 + 0.5, 1e-9);
    cr_assert(isnan(svc));
    cr_assert_geq(at, last);
    last = at;
    n++;
    most = MAX(most, trace_request_cursor_buffered(c));
  }
  cr_assert_eq(n, 50000);
  cr_assert_null(trace_request_cursor_error(c));
  /* a 16 KiB chunk holds a few hundred of these rows: never the whole file */
  cr_assert_lt(most, 2000, "%zu rows buffered", most);
  trace_request_cursor_free(c);
  /* a file that changed after it was checked ends the stream with an error, no crash */
  g_autofree char *bad = tu_write_temp("stream-bad.csv", "job_id,at_s\nmine,1\nmine,x\nmine,3\n"
                                                         "mine,\"unterminated\n");
  c = trace_request_cursor_open(bad, "mine", NULL);
  cr_assert(trace_request_cursor_next(c, &at, &svc));
  cr_assert_float_eq(at, 1, 0);
  cr_assert_not(trace_request_cursor_next(c, &at, &svc));
  cr_assert_not_null(trace_request_cursor_error(c));
  cr_assert(strstr(trace_request_cursor_error(c)->message, "row 3 of the requests file: at_s"),
            "%s", trace_request_cursor_error(c)->message);
  trace_request_cursor_free(c);
  GError *err = NULL;
  cr_assert_null(trace_request_cursor_open("/nonexistent/requests.csv", "x", &err));
  cr_assert(strstr(err->message, "cannot open"), "%s", err->message);
  g_error_free(err);
}

/* ---- arrivals: daily cycle, phases, determinism ---- */

Test(inference, daily_cycle_peaks_at_the_peak_hour) {
  /* one hour around the peak (13:30-14:30) and one around the trough (01:30-02:30):
   * amplitude 0.5 gives (1 +- 0.5 x 0.9972) x rate x 3600 requests */
  const char *yaml = POOL1("inference: {daily_amplitude: 0.5, peak_hour: 14}\n");
  results *r = tu_run(yaml,
                      "id,submit_s,kind,gpus,mem_gb,duration_s,rate_rps,service_ms\n"
                      "peak,48600,inference,1,10,3600,100,1\n"
                      "trough,5400,inference,1,10,3600,100,1\n",
                      NULL);
  double avg_cos = sin(G_PI / 24) / (G_PI / 24);
  REL_NEAR((double)inf_service(r, "peak")->requests, 360000 * (1 + 0.5 * avg_cos), 0.01);
  REL_NEAR((double)inf_service(r, "trough")->requests, 360000 * (1 - 0.5 * avg_cos), 0.015);
  results_free(r);
}

Test(inference, rate_phase_changes_the_arrivals) {
  results *r = tu_run(POOL1(""), "id,submit_s,kind,gpus,mem_gb,duration_s,rate_rps,service_ms\n"
                                  "svc,0,inference,1,10,2000,200,1\n",
                      "job_id,after_s,rate_rps\nsvc,1000,20\n");
  REL_NEAR((double)inf_service(r, "svc")->requests, 200 * 1000 + 20 * 1000, 0.01);
  results_free(r);
}

Test(inference, same_inputs_same_latencies) {
  const char *yaml = POOL1("inference: {service_dist: lognormal, service_cv: 2}\n");
  const char *trace_csv = TRACE_HEAD "svc,0,inference,1,10,3600,50,10,40,2,\n";
  results *a = tu_run(yaml, trace_csv, NULL), *b = tu_run(yaml, trace_csv, NULL);
  const service_result *x = inf_service(a, "svc"), *y = inf_service(b, "svc");
  cr_assert_eq(x->requests, y->requests);
  cr_assert_eq(x->mean_ms, y->mean_ms);
  cr_assert_eq(x->p99_ms, y->p99_ms);
  cr_assert_eq(x->violations, y->violations);
  /* lognormal with CV 2 has a heavier tail than the default (lognormal, CV 0.005) */
  results *d = tu_run(POOL1(""), trace_csv, NULL);
  cr_assert_gt(x->p99_ms, 2 * inf_service(d, "svc")->p99_ms);
  results_free(a);
  results_free(b);
  results_free(d);
}

/* The default service time is lognormal with the sourced CV 0.005 (scenario.h): at a load
 * too low to queue (0.1 %), p99 / p50 is exp(2.326 sigma) = 1.012 (within the histogram's
 * 0.78 % buckets), where the deterministic service, now asked for by name, gives p99 = p50;
 * the mean stays the service time. */
Test(inference, default_service_time_is_lognormal_so_p99_exceeds_p50) {
  const char *trace_csv = TRACE_HEAD "svc,0,inference,1,10,1000000,0.1,10,,1,\n";
  results *r = tu_run(POOL1(""), trace_csv, NULL);
  const service_result *s = inf_service(r, "svc");
  cr_assert_gt(s->p99_ms, s->p50_ms);
  double ratio = s->p99_ms / s->p50_ms;
  cr_assert(ratio > 1.004 && ratio < 1.02, "p99 / p50 = %g", ratio);
  REL_NEAR(s->mean_ms, 10.0, 0.001);
  results *d = tu_run(POOL1("inference: {service_dist: deterministic}\n"), trace_csv, NULL);
  cr_assert_eq(inf_service(d, "svc")->p99_ms, inf_service(d, "svc")->p50_ms);
  results_free(r);
  results_free(d);
}

/* ---- sharing strategies ---- */

static gboolean inf_strategy_built(share_strategy s) { return share_for(s)->implemented; }

Test(inference, time_slicing_violations_fall_inside_notebook_bursts) {
  if (!inf_strategy_built(tu_strategy("time-slicing")))
    cr_skip_test("the time-slicing strategy is not built yet");
  const char *yaml = POOL1("    strategy: time-slicing\n    replicas: 2\ninterval: 60s\n");
  /* alone: 40/s x 10 ms on the whole card meets 50 ms for 99 % of requests */
  results *alone = tu_run(yaml, TRACE_HEAD "svc,0,inference,1,20,21600,40,10,50,,\n", NULL);
  const service_result *a = inf_service(alone, "svc");
  cr_assert_eq(a->met, 1, "alone: attainment %g %%", a->attainment_pct);
  cr_assert_eq(a->violation_intervals, 0);
  /* with a notebook that bursts now and then (busy 0.2, 60 s bursts) */
  results *shared = tu_run(yaml,
                           "id,submit_s,kind,gpus,mem_gb,duration_s,rate_rps,service_ms,slo_ms,"
                           "busy,burst_s\n"
                           "svc,0,inference,1,20,21600,40,10,50,,\n"
                           "nb,0,notebook,1,10,21600,,,,0.2,60\n",
                           NULL);
  const service_result *s = inf_service(shared, "svc");
  cr_assert_gt(s->violation_intervals, 0, "the notebook's bursts cause violations");
  /* the notebook computes 20 % of the time alone; beside the service's duty (0.4 / its speed,
   * about 0.73 at the fixed point) its bursts stretch to about 36 % of the time, and a
   * minute that holds part of one may miss: well under three quarters still */
  cr_assert_lt(s->violation_intervals, 360 * 3 / 4,
               "violations are intermittent: %u of 360 minutes", s->violation_intervals);
  /* Between two events the gauges are constant, so a minute without any burst has the same
   * busy figure as a neighbouring burst-free minute, and a minute wholly inside a burst is
   * fully busy. Every minute whose attainment fell below 99 % (more than 1 % of its ~2400
   * requests late) must hold some of a burst: neither equal to a neighbour below 0.99. */
  guint bad = 0, n = shared->timeseries->len;
  const ts_row *ts = (const ts_row *)(void *)shared->timeseries->data;
  for (guint i = 0; i < n; i++) {
    if (ts[i].slo_violations <= 24) continue;
    bad++;
    gboolean flat = (i > 0 && ts[i].busy == ts[i - 1].busy) ||
                    (i + 1 < n && ts[i].busy == ts[i + 1].busy);
    cr_assert(ts[i].busy >= 0.99 || !flat,
              "minute %u: %" G_GUINT64_FORMAT " late requests without a notebook burst (busy %g)",
              i, ts[i].slo_violations, ts[i].busy);
  }
  cr_assert_gt(bad, 0);
  results_free(alone);
  results_free(shared);
}

/* Time-slicing turns (docs/models.md, "Request-level inference"): a request that finds the
 * service idle next to a busy trainer waits W ~ Uniform[0, 2 x turn_wait] with turn_wait =
 * timeslice / 2 + context_switch, then runs at the curve's speed. At 0.05/s nothing
 * queues, so every latency lies in [S / speed, S / speed + timeslice + 2 context_switch] and
 * the spread moves with the slice: the tail the turn carries is about one slice. */
static void inf_turn_wait_check(const char *slice_line, double slice_ms, double sw_ms) {
  g_autofree char *yaml = g_strdup_printf(
      POOL1("    strategy: time-slicing\n    replicas: 2\n%s" INF_FIXED), slice_line);
  results *r = tu_run(yaml,
                      "id,submit_s,kind,gpus,mem_gb,duration_s,rate_rps,service_ms,gpu_util\n"
                      "svc,0,inference,1,10,40000,0.05,4,1\n"
                      "train,0,batch,1,10,100000,,,1\n",
                      NULL);
  const service_result *s = inf_service(r, "svc");
  double run = 4.0 / share_timeslice_speed(1.0, 1.0, 0.06), span = slice_ms + 2.0 * sw_ms;
  cr_assert_gt(s->served, 1900);
  cr_assert_geq(s->p50_ms, run, "p50 %g below the run time %g", s->p50_ms, run);
  cr_assert_leq(s->max_ms, run + span + 1e-6, "max %g above %g + one round %g", s->max_ms, run,
                span);
  /* uniform wait: mean half the span, p99 99 % of it (2,000 draws: within 5 % of the span) */
  cr_assert(fabs(s->mean_ms - (run + span / 2.0)) <= 0.05 * span, "mean %g, expected %g",
            s->mean_ms, run + span / 2.0);
  cr_assert(fabs(s->p99_ms - (run + 0.99 * span)) <= 0.05 * span, "p99 %g, expected %g",
            s->p99_ms, run + 0.99 * span);
  results_free(r);
}

Test(inference, time_slicing_turn_wait_is_uniform_over_one_round) {
  if (!inf_strategy_built(tu_strategy("time-slicing")))
    cr_skip_test("the time-slicing strategy is not built yet");
  inf_turn_wait_check("", 1.024, 0.025); /* the driver's 1024 us slice [S91] */
  inf_turn_wait_check("    timeslice: 8ms\n    context_switch: 0us\n", 8.0, 0.0);
}

Test(inference, mig_instance_keeps_its_latency_next_to_a_notebook) {
  if (!inf_strategy_built(tu_strategy("mig"))) cr_skip_test("the MIG strategy is not built yet");
  const char *yaml = POOL1("    strategy: mig\n    layout: 3g.40gb x2\n");
  results *alone = tu_run(yaml, TRACE_HEAD "svc,0,inference,1,20,7200,40,10,50,,\n", NULL);
  results *shared = tu_run(yaml,
                           "id,submit_s,kind,gpus,mem_gb,duration_s,rate_rps,service_ms,slo_ms,"
                           "busy,burst_s\n"
                           "svc,0,inference,1,20,7200,40,10,50,,\n"
                           "nb,0,notebook,1,10,7200,,,,0.5,60\n",
                           NULL);
  const service_result *a = inf_service(alone, "svc"), *s = inf_service(shared, "svc");
  cr_assert_eq(s->requests, a->requests);
  cr_assert_eq(s->mean_ms, a->mean_ms);
  cr_assert_eq(s->p99_ms, a->p99_ms);
  cr_assert_eq(s->violations, a->violations);
  results_free(alone);
  results_free(shared);
}

/* ---- import azure-llm ---- */

#define AZURE SHARED_TRACES_DIR "/azure-llm-inference-2023/"

static import_ctx *inf_import(const char *const *files, guint n, gboolean skip_bad,
                              const char *const *opts, gboolean want_requests) {
  import_ctx *c = import_ctx_new(files, n, skip_bad);
  for (guint i = 0; opts && opts[i]; i += 2) import_option_add(c, opts[i], opts[i + 1]);
  if (want_requests) import_request_out(c, IMPORT_OUT_REQUESTS, NULL);
  GError *err = NULL;
  const import_format *azure = import_find("azure-llm");
  cr_assert(azure);
  cr_assert(azure->run(c, &err), "import failed: %s", err ? err->message : "?");
  return c;
}

Test(inference, import_azure_llm_derives_service_times_from_tokens) {
  /* CRLF, no final newline, as the published files */
  g_autofree char *path = tu_write_temp(
      "AzureLLMInferenceTrace_demo.csv",
      "TIMESTAMP,ContextTokens,GeneratedTokens\r\n"
      "2023-11-16 18:00:00.5000000,1000,10\r\n"
      "2023-11-16 18:00:01.0000001,100,100\r\n"
      "2023-11-16 18:00:10,0,20");
  const char *files[] = {path};
  const char *opts[] = {"prefill-ms-per-token", "0.2", "decode-ms-per-token", "10",
                        "slo-ms", "1500", "max-batch", "8", NULL};
  g_autoptr(import_ctx) c = inf_import(files, 1, FALSE, opts, TRUE);
  g_autofree char *msgs = diag_join(c->diags);
  cr_assert(import_ok(c), "%s", msgs);
  cr_assert_eq(c->rows_read, 3);
  cr_assert_eq(c->jobs_written, 1);
  cr_assert_eq(c->lines_written[IMPORT_OUT_REQUESTS], 3);
  /* 0.2 x 1000 + 10 x 10 = 300; 20 + 1000 = 1020; 0 + 200 = 200; times from the first */
  cr_assert_str_eq(import_out_text(c, IMPORT_OUT_REQUESTS),
                   "job_id,at_s,service_ms\n"
                   "azure-demo,0,300\n"
                   "azure-demo,0.5000001,1020\n"
                   "azure-demo,9.5,200\n");
  g_autofree char *tp = tu_write_temp("azure-demo.csv", import_out_text(c, IMPORT_OUT_TRACE));
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(trace) t = trace_load(tp, d);
  cr_assert_not_null(t);
  const job_spec *j = tu_row(t, 0);
  cr_assert_str_eq(j->id, "azure-demo");
  cr_assert_eq(j->kind, JOB_INFERENCE);
  /* the mean (300 + 1020 + 200) / 3 ms, to the nanosecond (the trace's resolution) */
  cr_assert_eq(j->service_ms, 506.666667);
  cr_assert_float_eq(j->rate_rps, 3 / 9.5, 1e-12);
  cr_assert_eq(j->duration_ns, 70 * SIM_NS_PER_S); /* ceil(0.5 + 9.5 + 60) */
  cr_assert_eq(j->mem_bytes, 14 * INT64_C(1000000000));
  /* mean tokens (1010 + 200 + 20) / 3 = 410 x 0.5 MB */
  cr_assert_eq(j->kv_bytes, 205000000);
  cr_assert_eq(j->max_batch, 8);
  cr_assert_float_eq(j->slo_ms, 1500, 0);
  /* the trace keeps the calendar: second 0 is the first arrival, read as UTC */
  cr_assert(strstr(import_out_text(c, IMPORT_OUT_TRACE), ",submit_utc\n"));
  cr_assert(strstr(import_out_text(c, IMPORT_OUT_TRACE), ",2023-11-16T18:00:00.500Z\n"));
  cr_assert_float_eq(t->start_unix, 1700157600.5, 1e-6); /* 2023-11-16T18:00:00.5Z */
  /* the requests file reads back against the trace */
  g_autofree char *rp =
      tu_write_temp("azure-demo-req.csv", import_out_text(c, IMPORT_OUT_REQUESTS));
  cr_assert(!j->has_requests);
  cr_assert(trace_check_requests(t, rp, d));
  cr_assert(tu_row(t, 0)->has_requests); /* a row read after the check */
}

Test(inference, import_azure_llm_reports_bad_rows) {
  g_autofree char *path = tu_write_temp(
      "AzureLLMInferenceTrace_bad.csv",
      "TIMESTAMP,ContextTokens,GeneratedTokens\n"
      "2023-11-16 18:00:05,10,10\n"
      "2023-11-16 18:00:04,10,10\n"
      "2023-13-16 18:00:06,10,10\n"
      "2023-11-16 18:00:07,-1,10\n"
      "2023-11-16 18:00:08,0,0\n"
      "2023-11-16 18:00:09,10,10\n");
  const char *files[] = {path};
  g_autoptr(import_ctx) c = inf_import(files, 1, FALSE, NULL, TRUE);
  g_autofree char *msgs = diag_join(c->diags);
  cr_assert_eq(c->diags->count, 4, "%s", msgs);
  cr_assert(strstr(msgs, "_bad.csv:3:1: TIMESTAMP: expected a time at or after the previous"),
            "%s", msgs);
  cr_assert(strstr(msgs, "_bad.csv:4:1: TIMESTAMP: expected a time as YYYY-MM-DD"), "%s", msgs);
  cr_assert(strstr(msgs, "_bad.csv:5:2: ContextTokens: expected a whole number of tokens >= 0, "
                         "found '-1'"), "%s", msgs);
  cr_assert(strstr(msgs, "_bad.csv:6: expected a request with tokens, found 0 and 0"), "%s", msgs);
  /* with --skip-bad: the good rows only, each bad row counted once */
  g_autoptr(import_ctx) k = inf_import(files, 1, TRUE, NULL, TRUE);
  cr_assert(import_ok(k));
  cr_assert_eq(k->rows_skipped, 4);
  cr_assert_str_eq(import_out_text(k, IMPORT_OUT_REQUESTS),
                   "job_id,at_s,service_ms\nazure-bad,0,151\nazure-bad,4,151\n");
}

Test(inference, import_azure_llm_real_trace_runs) {
  if (!g_file_test(AZURE "AzureLLMInferenceTrace_conv.csv", G_FILE_TEST_EXISTS))
    cr_skip_test("../shared/traces/azure-llm-inference-2023 is not here");
  const char *files[] = {AZURE "AzureLLMInferenceTrace_code.csv",
                         AZURE "AzureLLMInferenceTrace_conv.csv"};
  const char *opts[] = {"slo-ms", "10000", NULL};
  g_autoptr(import_ctx) c = inf_import(files, 2, FALSE, opts, TRUE);
  g_autofree char *msgs = diag_join(c->diags);
  cr_assert(import_ok(c), "%s", msgs);
  cr_assert_eq(c->rows_read, 8819 + 19366);
  cr_assert_eq(c->lines_written[IMPORT_OUT_REQUESTS], 8819 + 19366);
  /* the two services on two A100s: every recorded request is served, none dropped */
  results *r = inf_run_requests("pools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n"
                                "    gpus_per_node: 2\ninference: {service_dist: deterministic}\n",
                                import_out_text(c, IMPORT_OUT_TRACE),
                                import_out_text(c, IMPORT_OUT_REQUESTS));
  const service_result *code = inf_service(r, "azure-code"), *conv = inf_service(r, "azure-conv");
  cr_assert_eq(code->requests, 8819);
  cr_assert_eq(conv->requests, 19366);
  cr_assert_eq(code->dropped + conv->dropped, 0);
  /* 32 slots for ~1.6 and ~18 requests in service on average: little queueing, so the mean
   * latency is near the mean service time (623 ms and 3282 ms) */
  REL_NEAR(code->mean_ms, 623.02, 0.05);
  REL_NEAR(conv->mean_ms, 3282.36, 0.05);
  cr_assert_geq(code->mean_ms, 623.02 * (1 - 1e-9));
  results_free(r);
}

/* ---- scenario keys ---- */

Test(inference, scenario_inference_keys_are_checked) {
  g_autofree char *p = tu_write_temp(
      "inf-bad.yaml", POOL1("inference:\n  service_dist: gamma\n  service_cv: -1\n"
                            "  daily_amplitude: 2\n  peak_hour: 24\n  peek_hour: 3\n"));
  g_autoptr(diag_list) d = diag_list_new(0);
  cr_assert_null(scenario_load(p, d));
  g_autofree char *m = diag_join(d);
  cr_assert_eq(d->count, 5, "%s", m);
  /* in line order, each with its position */
  const char *want[] = {
      ":8:17: inference.service_dist: expected one of deterministic | exponential | lognormal, "
      "found 'gamma'",
      ":9:15: inference.service_cv: expected a coefficient of variation from 0 to 10, found '-1'",
      ":10:20: inference.daily_amplitude: expected a number from 0 to 1, found '2'",
      ":11:14: inference.peak_hour: expected an hour of the day from 0 to less than 24, found "
      "'24'",
      ":12:3: inference: unknown key 'peek_hour' (did you mean 'peak_hour'?); valid keys: "
      "model, service_dist, service_cv, daily_amplitude, peak_hour, duty_window"};
  for (guint i = 0; i < G_N_ELEMENTS(want); i++) {
    const char *msg = g_ptr_array_index(d->messages, i);
    cr_assert(g_str_has_suffix(msg, want[i]), "message %u: %s", i, msg);
  }
  /* good values, and --set overrides */
  g_autofree char *q =
      tu_write_temp("inf-good.yaml", POOL1("inference: {service_dist: lognormal}\n"));
  const char *ov[] = {"inference.service_cv=0.5", "inference.peak_hour=9.5",
                      "inference.daily_amplitude=0.25"};
  g_autoptr(scenario) sc = scenario_load_with_overrides(q, ov, 3, d);
  cr_assert_not_null(sc);
  cr_assert_eq(sc->inference.dist, SERVICE_DIST_LOGNORMAL);
  cr_assert_float_eq(sc->inference.service_cv, 0.5, 0);
  cr_assert_float_eq(sc->inference.daily_amplitude, 0.25, 0);
  cr_assert_eq(sc->inference.peak_ns, 9 * 3600 * SIM_NS_PER_S + 1800 * SIM_NS_PER_S);
  cr_assert_str_eq(workload_service_dist_name(SERVICE_DIST_EXPONENTIAL), "exponential");
}

/* The keys of `inference:` are declared by workload-inference.c (scenario_model_key): the
 * reader takes their defaults, choices and units from there. */
Test(inference, scenario_inference_keys_come_from_their_declarations) {
  g_autofree char *p = tu_write_temp("inf-default.yaml", POOL1(""));
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(scenario) def = scenario_load(p, d);
  cr_assert_not_null(def);
  cr_expect_eq(def->inference.dist, SERVICE_DIST_LOGNORMAL);
  cr_expect_float_eq(def->inference.service_cv, 0.005, 0);
  cr_expect_float_eq(def->inference.daily_amplitude, 0, 0);
  cr_expect_eq(def->inference.peak_ns, 14 * 3600 * SIM_NS_PER_S);
  cr_expect_eq(def->inference.duty_window_ns, 60 * SIM_NS_PER_S);
  cr_expect_not(def->inference.fluid);
  g_autofree char *q = tu_write_temp(
      "inf-set.yaml", POOL1("inference: {model: fluid, service_dist: exponential, "
                            "peak_hour: 0.5, duty_window: 250ms}\n"));
  g_autoptr(scenario) s = scenario_load(q, d);
  cr_assert_not_null(s);
  cr_expect(s->inference.fluid);
  cr_expect_eq(s->inference.dist, SERVICE_DIST_EXPONENTIAL);
  cr_expect_eq(s->inference.peak_ns, 1800 * SIM_NS_PER_S);
  cr_expect_eq(s->inference.duty_window_ns, 250 * SIM_NS_PER_MS);
  cr_expect_eq(d->count, 0);
}
