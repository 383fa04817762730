/* report-csv.c: the CSV files of a result folder (jobs, pools, gpus, tenants, timeseries,
 * fragmentation, services, latency, llm, events) as the result file table
 * (report-files.c) calls them, the csv format's row there, and report_num, the one number
 * format every report shares. A header row, then rows in the results' order; columns never
 * move. It only formats; the table's drivers open and write the files. */
#include "report.h"
#include "caltime.h"
#include "histogram.h"
#include "util.h"
#include <math.h>
#include <string.h>

/* Integers below 2^53 are exact in a double and are printed in full. */
#define REPORT_EXACT_INT_LIMIT 9007199254740992.0


static void report_i64(GString *out, gint64 v) {
  if (v < 0) {
    g_string_append_c(out, '-');
    util_append_u64(out, (guint64)0 - (guint64)v);
  } else {
    util_append_u64(out, (guint64)v);
  }
}

/* Powers of ten that are exact doubles. */
static const double report_p10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                    1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                    1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* a x 10^k for |k| <= 22: one correctly rounded operation on an exact power. */
static double report_scale(double a, int k) {
  return k >= 0 ? a * report_p10[k] : a / report_p10[-k];
}

/* How close (absolute, on the scaled six-digit value below 10^6) the scaled value may come
 * to a rounding tie or to a decade boundary before the exact path decides instead. The
 * scaled value is within half an ulp (2^-34, 6e-11) of the exact product. */
#define REPORT_NUM_GUARD 1e-8

/* "%.6g" of a > 0 into buf (sign left to the caller), as printf writes it (round to
 * nearest on the exact binary value, trailing zeros removed), without printf. FALSE when
 * a is too close to a tie or to a power of ten, or out of range: then printf decides. */
static gboolean report_g6(char *buf, double a) {
  guint64 bits;
  memcpy(&bits, &a, sizeof bits);
  int b2 = (int)((bits >> 52) & 0x7ff) - 1023; /* a = 1.f x 2^b2 (subnormals: out of range) */
  if (b2 == -1023) return FALSE;
  int t = b2 * 1233;                           /* log10(2) ~ 1233 / 4096: within one */
  int e = t >= 0 ? t >> 12 : -((-t + 4095) >> 12);
  double y = 0;
  for (int tries = 0; tries < 3; tries++) {
    if (5 - e < -22 || 5 - e > 22) return FALSE;
    y = report_scale(a, 5 - e);
    if (fabs(y - 1e5) < REPORT_NUM_GUARD || fabs(y - 1e6) < REPORT_NUM_GUARD) return FALSE;
    if (y < 1e5) e--;
    else if (y >= 1e6) e++;
    else break;
  }
  if (!(y >= 1e5 && y < 1e6)) return FALSE;
  double m = (double)(guint32)y, f = y - m; /* y < 10^6: truncation is the floor; f exact */
  if (fabs(f - 0.5) < REPORT_NUM_GUARD) return FALSE;
  guint32 d = (guint32)m + (f > 0.5);
  if (d == 1000000) { /* 999999.5 and up: one more digit before the point */
    d = 100000;
    e++;
  }
  char dig[6];
  for (int i = 5; i >= 0; i--, d /= 10) dig[i] = (char)('0' + d % 10);
  int nd = 6;
  while (nd > 1 && dig[nd - 1] == '0') nd--; /* significant digits left */
  char *o = buf;
  if (e >= -4 && e < 6) {
    if (e < 0) {
      *o++ = '0';
      *o++ = '.';
      for (int i = 0; i < -e - 1; i++) *o++ = '0';
      for (int i = 0; i < nd; i++) *o++ = dig[i];
    } else {
      for (int i = 0; i <= e; i++) *o++ = dig[i];
      if (nd > e + 1) {
        *o++ = '.';
        for (int i = e + 1; i < nd; i++) *o++ = dig[i];
      }
    }
  } else {
    *o++ = dig[0];
    if (nd > 1) {
      *o++ = '.';
      for (int i = 1; i < nd; i++) *o++ = dig[i];
    }
    *o++ = 'e';
    *o++ = e < 0 ? '-' : '+';
    int x = e < 0 ? -e : e;
    if (x >= 100) *o++ = (char)('0' + x / 100);
    *o++ = (char)('0' + x / 10 % 10);
    *o++ = (char)('0' + x % 10);
  }
  *o = '\0';
  return TRUE;
}

void report_num(GString *out, double v) {
  if (!isfinite(v)) return; /* NaN (and infinities) are an empty cell / null */
  if (v == 0) { /* also turns -0 into 0 */
    g_string_append_c(out, '0');
    return;
  }
  if (v == trunc(v) && fabs(v) < REPORT_EXACT_INT_LIMIT) {
    report_i64(out, (gint64)v);
    return;
  }
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  if (report_g6(buf, fabs(v))) {
    if (v < 0) g_string_append_c(out, '-');
  } else {
    g_ascii_formatd(buf, sizeof buf, "%.6g", v);
  }
  g_string_append(out, buf);
}

/* Row building: every field is followed by a comma; csv_eol turns the last into '\n'. */
static void csv_s(GString *out, const char *s) {
  util_csv_field(out, s ? s : "");
  g_string_append_c(out, ',');
}

static void csv_n(GString *out, double v) {
  report_num(out, v);
  g_string_append_c(out, ',');
}

static void csv_u(GString *out, guint64 v) {
  util_append_u64(out, v);
  g_string_append_c(out, ',');
}

/* A node or GPU index; -1 (not on a GPU) is an empty cell. */
static void csv_index(GString *out, int v) {
  if (v >= 0) util_append_u64(out, (guint64)v);
  g_string_append_c(out, ',');
}

/* Every result CSV begins with the run's scenario and seed, so that the rows of two runs
 * can be joined or concatenated: the header's names, and the two fields, copied from the
 * key results_set_run made once per run (formatted here for results made without it). */
#define CSV_KEY_HEADER "scenario,seed,"
static void csv_key(GString *out, const results *r) {
  if (r->csv_key) {
    g_string_append(out, r->csv_key);
    return;
  }
  csv_s(out, r->scenario_name);
  csv_u(out, r->seed);
}

void report_csv_key_header(GString *out) { g_string_append(out, CSV_KEY_HEADER); }
void report_csv_key(GString *out, const results *r) { csv_key(out, r); }

/* Runs placed at a date (scenario start:) carry UTC times beside the seconds, as extra last
 * columns: csv_time_header adds their names to the header row just written, csv_time one
 * field (the ISO time of second t_s; empty when t_s is not finite). Without a start both
 * do nothing, so such runs keep their files byte for byte. */
static void csv_time_header(const results *r, GString *out, const char *names) {
  if (!isfinite(r->start_unix)) return;
  g_assert(out->len > 0 && out->str[out->len - 1] == '\n');
  g_string_truncate(out, out->len - 1);
  g_string_append_printf(out, ",%s\n", names);
}

static void csv_time(const results *r, GString *out, double t_s) {
  if (!isfinite(r->start_unix)) return;
  if (isfinite(t_s)) caltime_append(out, r->start_unix + t_s);
  g_string_append_c(out, ',');
}

static void csv_eol(GString *out) {
  g_assert(out->len > 0 && out->str[out->len - 1] == ',');
  out->str[out->len - 1] = '\n';
}

static double csv_hours(double seconds) { return seconds / 3600.0; }

static double csv_frac(double part, double whole) {
  return whole > 0 ? part / whole : NAN;
}

/* Opt-in columns (only when their feature is on) appended to a header: its newline goes,
 * then cols and a newline. */
static void csv_opt_header(GString *out, gboolean on, const char *cols) {
  if (!on) return;
  g_assert(out->len > 0 && out->str[out->len - 1] == '\n');
  g_string_truncate(out, out->len - 1);
  g_string_append(out, cols);
  g_string_append_c(out, '\n');
}

void report_csv_jobs_header(const results *r, GString *out) {
  g_string_append(out, CSV_KEY_HEADER "id,kind,tenant,pool,gpus,submit_s,start_s,end_s,wait_s,run_s,"
                       "slowdown,burst_stretch,outcome,restarts,kills,oom_kills,crashes,"
                       "work_s,work_done_s,work_lost_s,busy_s,gpu_s_allocated,gpu_ids,"
                       "reason,straggler_delay_s,straggler_wait_gpu_s,gpu_s_share,backoff_s\n");
  csv_opt_header(out, r->oversub, ",oversub_gpu_s,oversub_slowdown");
  csv_time_header(r, out, "submit_utc,start_utc,end_utc");
}

void report_csv_job_row(const results *r, const job_result *j, GString *out) {
  csv_key(out, r);
  csv_s(out, j->id);
  csv_s(out, j->kind);
  csv_s(out, j->tenant);
  csv_s(out, j->pool);
  csv_u(out, j->gpus);
  csv_n(out, j->submit_s);
  csv_n(out, j->start_s);
  csv_n(out, j->end_s);
  csv_n(out, j->wait_s);
  csv_n(out, j->run_s);
  csv_n(out, j->slowdown);
  csv_n(out, j->burst_stretch);
  csv_s(out, job_outcome_name(j->outcome));
  csv_u(out, j->restarts);
  csv_u(out, j->kills);
  csv_u(out, j->oom_kills);
  csv_u(out, j->crashes);
  csv_n(out, j->work_s);
  csv_n(out, j->work_done_s);
  csv_n(out, j->work_lost_s);
  csv_n(out, j->busy_s);
  csv_n(out, j->gpu_s_allocated);
  csv_s(out, j->gpu_ids);
  csv_s(out, j->reason);
  csv_n(out, j->straggler_delay_s);
  csv_n(out, j->straggler_wait_gpu_s);
  csv_n(out, j->gpu_s_share);
  csv_n(out, j->backoff_s);
  if (r->oversub) { /* memory beyond the card (unified memory) */
    csv_n(out, j->oversub_gpu_s);
    csv_n(out, j->oversub_slowdown);
  }
  csv_time(r, out, j->submit_s);
  csv_time(r, out, j->start_s);
  csv_time(r, out, j->end_s);
  csv_eol(out);
}

/* The idle culler's columns (only when it is on: r->cull_timeout_s > 0). */
#define CSV_CULL_COLUMNS ",culled_sessions,cull_freed_gpu_h,returns,return_wait_mean_s"
static void csv_culls(GString *out, const results *r, const results_culls *c) {
  if (!(r->cull_timeout_s > 0)) return;
  csv_u(out, c->culled);
  csv_n(out, csv_hours(c->freed_gpu_s));
  csv_u(out, c->returns);
  csv_n(out, c->returns ? c->return_wait_s / c->returns : NAN);
}

static void csv_culls_header(GString *out, const results *r) {
  if (!(r->cull_timeout_s > 0)) return;
  g_string_truncate(out, out->len - 1); /* the header's newline */
  g_string_append(out, CSV_CULL_COLUMNS "\n");
}

/* Autoscaling's columns (only where a pool autoscales: r->autoscale); a fixed pool's nodes
 * are there the whole run and it never scales. */
#define CSV_AUTOSCALE_COLUMNS ",node_h,nodes_min,nodes_max,nodes_peak,scale_ups,scale_downs," \
                              "spot_interruptions,spot_lost_gpu_h"
static void csv_autoscale(GString *out, const results *r, const pool_result *p) {
  if (!r->autoscale) return;
  csv_n(out, csv_hours(p->node_s));
  csv_u(out, p->nodes_min);
  csv_u(out, p->nodes_max);
  csv_u(out, p->nodes_peak);
  csv_u(out, p->scale_ups);
  csv_u(out, p->scale_downs);
  csv_u(out, p->spot_interruptions);
  csv_n(out, csv_hours(p->spot_lost_gpu_s));
}

void report_csv_pools_to(const results *r, report_out *ro) {
  GString *out = ro->buf;
  g_string_append(out, CSV_KEY_HEADER "pool,gpu,strategy,gpus,price_per_gpu_hour,provisioned_gpu_h,"
                       "allocated_gpu_h,busy_gpu_h,sm_active_gpu_h,allocated_frac,busy_frac,"
                       "sm_active_frac,mem_gb_h,cost,licence_cost,jobs,completed,failed,"
                       "unplaceable,running,queued,wait_mean_s,wait_p50_s,wait_p95_s,"
                       "wait_max_s,oom_kills,innocent_victims,crashes,restarts,evictions,"
                       "reconfigurations,work_lost_gpu_h,straggler_wait_gpu_h,drain_gpu_h,down_gpu_h,vgpu_h\n");
  csv_culls_header(out, r);
  if (r->autoscale) {
    g_string_truncate(out, out->len - 1);
    g_string_append(out, CSV_AUTOSCALE_COLUMNS "\n");
  }
  for (guint i = 0; i < r->pools->len; i++) {
    const pool_result *p = &g_array_index(r->pools, pool_result, i);
    csv_key(out, r);
    csv_s(out, p->name);
    csv_s(out, p->gpu_model);
    csv_s(out, p->strategy);
    csv_u(out, p->gpus);
    csv_n(out, p->price_per_gpu_hour);
    csv_n(out, csv_hours(p->provisioned_gpu_s));
    csv_n(out, csv_hours(p->allocated_gpu_s));
    csv_n(out, csv_hours(p->busy_gpu_s));
    csv_n(out, csv_hours(p->sm_active_gpu_s));
    csv_n(out, csv_frac(p->allocated_gpu_s, p->provisioned_gpu_s));
    csv_n(out, csv_frac(p->busy_gpu_s, p->provisioned_gpu_s));
    csv_n(out, csv_frac(p->sm_active_gpu_s, p->provisioned_gpu_s));
    csv_n(out, csv_hours(p->mem_gb_s));
    csv_n(out, p->cost);
    csv_n(out, p->licence_cost);
    csv_u(out, p->jobs_routed);
    csv_u(out, p->jobs_completed);
    csv_u(out, p->jobs_failed);
    csv_u(out, p->jobs_unplaceable);
    csv_u(out, p->jobs_running);
    csv_u(out, p->jobs_queued);
    csv_n(out, p->wait_mean_s);
    csv_n(out, p->wait_p50_s);
    csv_n(out, p->wait_p95_s);
    csv_n(out, p->wait_max_s);
    csv_u(out, p->oom_kills);
    csv_u(out, p->innocent_victims);
    csv_u(out, p->crashes);
    csv_u(out, p->restarts);
    csv_u(out, p->evictions);
    csv_u(out, p->reconfigurations);
    csv_n(out, csv_hours(p->work_lost_gpu_s));
    csv_n(out, csv_hours(p->straggler_wait_gpu_s));
    csv_n(out, csv_hours(p->drain_gpu_s));
    csv_n(out, csv_hours(p->down_gpu_s));
    csv_n(out, csv_hours(p->vgpu_s));
    csv_culls(out, r, &p->culls);
    csv_autoscale(out, r, p);
    csv_eol(out);
    report_out_row(ro);
  }
}

void report_csv_gpus_to(const results *r, report_out *ro) {
  GString *out = ro->buf;
  g_string_append(out, CSV_KEY_HEADER "pool,node,gpu,allocated_h,busy_h,sm_active_h,allocated_frac,busy_frac,"
                       "sm_active_frac,mean_mem_gb,peak_mem_gb,jobs_hosted,oom_events\n");
  csv_opt_header(out, r->oversub, ",oversub_h");
  for (guint i = 0; i < r->gpus->len; i++) {
    const gpu_result *g = &g_array_index(r->gpus, gpu_result, i);
    csv_key(out, r);
    csv_s(out, g->pool);
    csv_u(out, g->node);
    csv_u(out, g->index);
    csv_n(out, csv_hours(g->allocated_s));
    csv_n(out, csv_hours(g->busy_s));
    csv_n(out, csv_hours(g->sm_active_s));
    csv_n(out, csv_frac(g->allocated_s, r->end_s));
    csv_n(out, csv_frac(g->busy_s, r->end_s));
    csv_n(out, csv_frac(g->sm_active_s, r->end_s));
    csv_n(out, csv_frac(g->mem_gb_s, r->end_s));
    csv_n(out, g->peak_mem_gb);
    csv_u(out, g->jobs_hosted);
    csv_u(out, g->oom_events);
    if (r->oversub) csv_n(out, csv_hours(g->oversub_s));
    csv_eol(out);
    report_out_row(ro);
  }
}

void report_csv_tenants_to(const results *r, report_out *ro) {
  GString *out = ro->buf;
  g_string_append(out, CSV_KEY_HEADER "tenant,jobs,allocated_gpu_h,busy_gpu_h,cost,cost_share,sm_active_gpu_h,"
                       "blast_caused,blast_suffered");
  /* preemption's columns only where the scenario lets jobs preempt (opt-in) */
  g_string_append(out, r->preemption ? ",preemptions_suffered,preemptions_caused,"
                                       "preemption_lost_gpu_h\n" : "\n");
  csv_culls_header(out, r);
  if (r->quotas) { /* and the quota's where the scenario has Kueue quotas */
    g_string_truncate(out, out->len - 1);
    g_string_append(out, r->reclaim ? ",quota_gpu_h,borrowed_gpu_h,reclaims_suffered,reclaims_caused\n"
                                    : ",quota_gpu_h,borrowed_gpu_h\n");
  }
  if (r->spot) { /* and the spot interruptions' where a pool is spot capacity */
    g_string_truncate(out, out->len - 1);
    g_string_append(out, ",spot_evictions,spot_lost_gpu_h\n");
  }
  double showback = results_showback_total(r);
  for (guint i = 0; i < r->tenants->len; i++) {
    const tenant_result *t = &g_array_index(r->tenants, tenant_result, i);
    csv_key(out, r);
    csv_s(out, t->name);
    csv_u(out, t->jobs);
    csv_n(out, csv_hours(t->allocated_gpu_s));
    csv_n(out, csv_hours(t->busy_gpu_s));
    csv_n(out, t->cost);
    csv_n(out, csv_frac(t->cost, showback));
    csv_n(out, csv_hours(t->sm_active_gpu_s));
    csv_u(out, t->blast_caused);   /* victims in other tenants (the blast radius) */
    csv_u(out, t->blast_suffered);
    if (r->preemption) {
      csv_u(out, t->preempted);
      csv_u(out, t->preempts_caused);
      csv_n(out, csv_hours(t->preempt_lost_gpu_s));
    }
    csv_culls(out, r, &t->culls);
    if (r->quotas) {
      csv_n(out, csv_hours(t->quota_gpu_s));
      csv_n(out, csv_hours(t->borrowed_gpu_s));
      if (r->reclaim) {
        csv_u(out, t->reclaimed);
        csv_u(out, t->reclaims_caused);
      }
    }
    if (r->spot) {
      csv_u(out, t->spot_evictions);
      csv_n(out, csv_hours(t->spot_lost_gpu_s));
    }
    csv_eol(out);
    report_out_row(ro);
  }
}

void report_csv_timeseries_header(const results *r, GString *out) {
  g_string_append(out,
                  CSV_KEY_HEADER "pool,t_start_s,t_end_s,allocated,busy,sm_active,mem_used_gb,queued,running,"
                  "slo_violations\n");
  csv_time_header(r, out, "t_start_utc");
}

static const char *csv_pool_name(const results *r, guint32 pool) {
  return pool < r->pools->len ? g_array_index(r->pools, pool_result, pool).name : NULL;
}

void report_csv_timeseries_row(const results *r, const ts_row *t, GString *out) {
  csv_key(out, r);
  csv_s(out, csv_pool_name(r, t->pool));
  csv_n(out, t->t_start_s);
  csv_n(out, t->t_end_s);
  csv_n(out, t->allocated);
  csv_n(out, t->busy);
  csv_n(out, t->sm_active);
  csv_n(out, t->mem_used_gb);
  csv_n(out, t->queued);
  csv_n(out, t->running);
  csv_u(out, t->slo_violations);
  csv_time(r, out, t->t_start_s);
  csv_eol(out);
}

/* Fragmentation per pool and interval (docs/models.md, "Fragmentation"): allocated and
 * busy as in timeseries.csv, then mean fragmented GPUs (free GPU share that the pool's
 * target workload cannot use), mean free GPUs and their ratio. */
void report_csv_fragmentation_header(const results *r, GString *out) {
  g_string_append(out, CSV_KEY_HEADER "pool,t_start_s,t_end_s,allocated,busy,frag_gpus,free_gpus,frag_ratio\n");
}

void report_csv_fragmentation_row(const results *r, const ts_row *t, GString *out) {
  csv_key(out, r);
  csv_s(out, csv_pool_name(r, t->pool));
  csv_n(out, t->t_start_s);
  csv_n(out, t->t_end_s);
  csv_n(out, t->allocated);
  csv_n(out, t->busy);
  csv_n(out, t->frag_gpus);
  csv_n(out, t->idle_gpus);
  csv_n(out, t->idle_gpus > 0 ? t->frag_gpus / t->idle_gpus : 0);
  csv_eol(out);
}

/* One row per inference service (trace order); latencies in ms; met is 1/0, empty when
 * the service has no SLO or no request. */
void report_csv_services_header(const results *r, GString *out) {
  g_string_append(out, CSV_KEY_HEADER "id,pool,requests,served,dropped,unanswered,mean_ms,p50_ms,p95_ms,p99_ms,max_ms,"
                       "slo_ms,slo_pct,attainment_pct,met,violations,violation_minutes,"
                       "busy_frac\n");
}

void report_csv_service_row(const results *r, const service_result *s, GString *out) {
  csv_key(out, r);
  csv_s(out, s->id);
  csv_s(out, s->pool);
  csv_u(out, s->requests);
  csv_u(out, s->served);
  csv_u(out, s->dropped);
  csv_u(out, s->unanswered);
  csv_n(out, s->mean_ms);
  csv_n(out, s->p50_ms);
  csv_n(out, s->p95_ms);
  csv_n(out, s->p99_ms);
  csv_n(out, s->max_ms);
  csv_n(out, s->slo_ms);
  csv_n(out, s->slo_pct);
  csv_n(out, s->attainment_pct);
  csv_n(out, s->met >= 0 ? (double)s->met : NAN);
  csv_u(out, s->violations);
  csv_n(out, s->met >= 0 ? s->violation_minutes : NAN);
  csv_n(out, s->busy_frac);
  csv_eol(out);
}

void report_csv_llm_header(const results *r, GString *out) {
  g_string_append(out, CSV_KEY_HEADER "id,pool,served,ttft_p50_ms,ttft_p99_ms,tpot_p50_ms,tpot_p99_ms,"
                       "e2e_p50_ms,e2e_p99_ms,goodput_rps,kv_blocks,reserved_gb\n");
}

gboolean report_csv_is_llm(const service_result *s) { return s->llm; }

void report_csv_llm_row(const results *r, const service_result *s, GString *out) {
  csv_key(out, r);
  csv_s(out, s->id);
  csv_s(out, s->pool);
  csv_u(out, s->served);
  csv_n(out, s->ttft_p50_ms);
  csv_n(out, s->ttft_p99_ms);
  csv_n(out, s->tpot_p50_ms);
  csv_n(out, s->tpot_p99_ms);
  csv_n(out, s->p50_ms);
  csv_n(out, s->p99_ms);
  csv_n(out, s->goodput_rps);
  csv_u(out, (guint64)MAX(s->kv_blocks, 0));
  csv_n(out, s->reserved_gb);
  csv_eol(out);
}

typedef struct csv_latency_acc {
  const results *r;
  GString *out;
  const char *id, *metric; /* metric: NULL for latency.csv (no such column) */
  guint64 seen, total;
} csv_latency_acc;

static void csv_latency_bucket(double upper_edge_ns, guint64 n, gpointer user) {
  csv_latency_acc *a = user;
  a->seen += n;
  csv_key(a->out, a->r);
  csv_s(a->out, a->id);
  if (a->metric) csv_s(a->out, a->metric);
  csv_n(a->out, upper_edge_ns / 1e6);
  csv_n(a->out, a->seen == a->total ? 1.0 : (double)a->seen / (double)a->total);
  csv_eol(a->out);
}

void report_csv_latency_header(const results *r, GString *out) {
  g_string_append(out, CSV_KEY_HEADER "service,latency_ms,cum_frac\n");
}

/* The latency distribution of a service that served requests, from its histogram: at most
 * 64 x 64 + 1 rows whatever the number of requests. */
void report_csv_latency_rows(const results *r, const service_result *s, GString *out) {
  if (!s->latency_ns || histogram_count(s->latency_ns) == 0) return;
  csv_latency_acc a = {r, out, s->id, NULL, 0, histogram_count(s->latency_ns)};
  histogram_foreach_bucket(s->latency_ns, csv_latency_bucket, &a);
}

void report_csv_llm_latency_header(const results *r, GString *out) {
  g_string_append(out, CSV_KEY_HEADER "service,metric,latency_ms,cum_frac\n");
}

void report_csv_llm_latency_rows(const results *r, const service_result *s, GString *out) {
  const struct { const char *name; const histogram *h; } m[] = {
      {"ttft", s->ttft_ns}, {"tpot", s->tpot_ns}, {"e2e", s->latency_ns}};
  for (gsize k = 0; k < G_N_ELEMENTS(m); k++) {
    if (!m[k].h || histogram_count(m[k].h) == 0) continue;
    csv_latency_acc a = {r, out, s->id, m[k].name, 0, histogram_count(m[k].h)};
    histogram_foreach_bucket(m[k].h, csv_latency_bucket, &a);
  }
}

void report_csv_events_to(const results *r, report_out *ro) {
  GString *out = ro->buf;
  g_string_append(out, CSV_KEY_HEADER "t_s,event,job,cause_job,pool,node,gpu,innocent,work_lost_s,detail\n");
  csv_time_header(r, out, "time_utc");
  for (guint i = 0; i < r->events_log->len; i++) {
    const event_row *e = &g_array_index(r->events_log, event_row, i);
    csv_key(out, r);
    csv_n(out, e->t_s);
    csv_s(out, event_kind_name(e->kind));
    csv_s(out, e->job);
    csv_s(out, e->cause_job);
    csv_s(out, e->pool);
    csv_index(out, e->node);
    csv_index(out, e->gpu);
    csv_u(out, e->innocent ? 1 : 0);
    csv_n(out, e->work_lost_s);
    csv_s(out, e->detail);
    csv_time(r, out, e->t_s);
    csv_eol(out);
    report_out_row(ro);
  }
}

static void csv_tenant_ts_row(const results *r, const tenant_ts_row *t, GString *out) {
  csv_key(out, r);
  csv_s(out, t->tenant);
  csv_n(out, t->t_start_s);
  csv_n(out, t->t_end_s);
  csv_n(out, t->allocated_gpus);
  csv_n(out, t->busy_gpus);
  csv_time(r, out, t->t_start_s);
  csv_eol(out);
}

/* The rows of r->tenant_timeseries, or made from r->tenant_cells when the series were
 * streamed (the same rows: results_tenant_ts_row makes both). */
void report_csv_tenant_timeseries_to(const results *r, report_out *ro) {
  g_string_append(ro->buf, CSV_KEY_HEADER "tenant,t_start_s,t_end_s,allocated_gpus,busy_gpus\n");
  csv_time_header(r, ro->buf, "t_start_utc");
  for (guint i = 0; i < r->tenant_timeseries->len; i++) {
    csv_tenant_ts_row(r, &g_array_index(r->tenant_timeseries, tenant_ts_row, i), ro->buf);
    report_out_row(ro);
  }
  if (!r->tenant_cells) return;
  gint64 iv = r->series_interval_ns, end = r->series_end_ns;
  guint64 n_iv = end > 0 ? (guint64)((end + iv - 1) / iv) : 0;
  for (guint i = 0; i < r->tenant_cells->len && i < r->tenants->len; i++) {
    const char *name = g_array_index(r->tenants, tenant_result, i).name;
    const GArray *cells = g_ptr_array_index(r->tenant_cells, i);
    for (guint64 b = 0; b < n_iv; b++) {
      tenant_ts_row row = results_tenant_ts_row(name, cells, iv, end, b);
      csv_tenant_ts_row(r, &row, ro->buf);
      report_out_row(ro);
    }
  }
}

/* The whole file into a GString: the same rows, nothing written out. */
void report_csv_string(report_csv_writer write, const results *r, GString *out) {
  report_out ro = {.buf = out};
  write(r, &ro);
}

/* A well-formed CSV file: records end with '\n', fields are plain or double-quoted (a
 * quote doubled inside), and every record has as many fields as the header. */
static char *csv_malformed(const char *data, gsize len) {
  if (!len || data[len - 1] != '\n') return g_strdup("empty, or the last line has no newline");
  guint64 line = 1, fields = 1, header = 0;
  gboolean quoted = FALSE, field_start = TRUE;
  for (gsize i = 0; i < len; i++) {
    char c = data[i];
    if (quoted) {
      if (c == '"' && i + 1 < len && data[i + 1] == '"') i++;
      else if (c == '"') quoted = FALSE;
      else if (c == '\n') line++;
      continue;
    }
    if (c == '"' && field_start) {
      quoted = TRUE;
      field_start = FALSE;
    } else if (c == ',') {
      fields++;
      field_start = TRUE;
    } else if (c == '\n') {
      if (!header) header = fields;
      else if (fields != header)
        return g_strdup_printf("line %" G_GUINT64_FORMAT ": %" G_GUINT64_FORMAT
                               " fields, the header has %" G_GUINT64_FORMAT, line, fields, header);
      line++;
      fields = 1;
      field_start = TRUE;
    } else if (c == '"' || c == '\r' || c == '\0') {
      return g_strdup_printf("line %" G_GUINT64_FORMAT ": a stray quote, CR or NUL", line);
    } else {
      field_start = FALSE;
    }
  }
  return quoted ? g_strdup("a quoted field is not closed") : NULL;
}

const report_format report_format_csv = {
    .name = "csv",
    .what = "comma-separated, one header row, fields quoted when they must be",
    .malformed = csv_malformed,
};
