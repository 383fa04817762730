/* report-json.c: summary.json, the machine-readable headline of a run (scenario, seed,
 * span, totals, per pool, per tenant, outcome counts, engine statistics), built with
 * json-glib in a fixed member order. NaN and infinities become null (JSON has neither);
 * doubles are written in their shortest round-trip form; and the json format's row of the
 * format table (report-files.c). */
#include "report.h"
#include "caltime.h"
#include "util.h"
#include "jsonlimit.h"
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

static void json_str(JsonBuilder *b, const char *name, const char *s) {
  json_builder_set_member_name(b, name);
  if (!s) {
    json_builder_add_null_value(b);
  } else if (g_utf8_validate(s, -1, NULL)) {
    json_builder_add_string_value(b, s);
  } else { /* names from inputs may hold any bytes; JSON text must be UTF-8 */
    char *valid = g_utf8_make_valid(s, -1);
    json_builder_add_string_value(b, valid);
    g_free(valid);
  }
}

static void json_num(JsonBuilder *b, const char *name, double v) {
  json_builder_set_member_name(b, name);
  if (!isfinite(v))
    json_builder_add_null_value(b);
  else
    json_builder_add_double_value(b, v == 0 ? 0.0 : v); /* no "-0" */
}

static void json_int(JsonBuilder *b, const char *name, guint64 v) {
  json_builder_set_member_name(b, name);
  if (v <= (guint64)G_MAXINT64) {
    json_builder_add_int_value(b, (gint64)v);
  } else { /* beyond JSON-safe integers: keep every digit as a string */
    char buf[32];
    g_snprintf(buf, sizeof buf, "%" G_GUINT64_FORMAT, v);
    json_builder_add_string_value(b, buf);
  }
}

static double json_frac(double part, double whole) { return whole > 0 ? part / whole : NAN; }

static void json_totals(JsonBuilder *b, const results_totals *t) {
  json_builder_set_member_name(b, "totals");
  json_builder_begin_object(b);
  json_int(b, "gpus", t->gpus);
  json_num(b, "provisioned_gpu_h", t->provisioned_gpu_h);
  json_num(b, "allocated_gpu_h", t->allocated_gpu_h);
  json_num(b, "busy_gpu_h", t->busy_gpu_h);
  json_num(b, "sm_active_gpu_h", t->sm_active_gpu_h);
  json_num(b, "allocated_frac", t->allocated_frac);
  json_num(b, "busy_frac", t->busy_frac);
  json_num(b, "sm_active_frac", t->sm_active_frac);
  json_num(b, "cost", t->cost);
  json_num(b, "idle_cost", t->idle_cost);
  json_num(b, "cost_per_busy_gpu_h", t->cost_per_busy_gpu_h);
  json_int(b, "jobs", t->jobs);
  json_int(b, "completed", t->completed);
  json_int(b, "failed", t->failed);
  json_int(b, "unplaceable", t->unplaceable);
  json_int(b, "running", t->running);
  json_int(b, "queued", t->queued);
  json_int(b, "not_submitted", t->not_submitted);
  json_num(b, "wait_mean_s", t->wait_mean_s);
  json_num(b, "wait_p50_s", t->wait_p50_s);
  json_num(b, "wait_p95_s", t->wait_p95_s);
  json_num(b, "wait_max_s", t->wait_max_s);
  json_int(b, "oom_kills", t->oom_kills);
  json_int(b, "innocent_victims", t->innocent_victims);
  json_int(b, "crashes", t->crashes);
  json_int(b, "restarts", t->restarts);
  json_int(b, "evictions", t->evictions);
  json_int(b, "reconfigurations", t->reconfigurations);
  json_num(b, "work_lost_gpu_h", t->work_lost_gpu_h);
  json_num(b, "slowdown_mean", t->slowdown_mean);
  json_num(b, "straggler_delay_h", t->straggler_delay_h);
  json_num(b, "straggler_wait_gpu_h", t->straggler_wait_gpu_h);
  json_builder_end_object(b);
}

/* Same members, in the same order and units, as the columns of pools.csv. */
/* The idle culler's figures as the members of an object (only when it is on). */
static void json_culls(JsonBuilder *b, const results *r, const results_culls *c) {
  if (!(r->cull_timeout_s > 0)) return;
  json_int(b, "culled_sessions", c->culled);
  json_num(b, "cull_freed_gpu_h", c->freed_gpu_s / 3600.0);
  json_int(b, "returns", c->returns);
  json_num(b, "return_wait_mean_s", c->returns ? c->return_wait_s / c->returns : NAN);
}

static void json_pools(JsonBuilder *b, const results *r) {
  json_builder_set_member_name(b, "pools");
  json_builder_begin_array(b);
  for (guint i = 0; i < r->pools->len; i++) {
    const pool_result *p = &g_array_index(r->pools, pool_result, i);
    json_builder_begin_object(b);
    json_str(b, "name", p->name);
    json_str(b, "gpu", p->gpu_model);
    json_str(b, "strategy", p->strategy);
    json_str(b, "settings", p->settings);
    json_int(b, "gpus", p->gpus);
    json_num(b, "price_per_gpu_hour", p->price_per_gpu_hour);
    json_num(b, "provisioned_gpu_h", p->provisioned_gpu_s / 3600.0);
    json_num(b, "allocated_gpu_h", p->allocated_gpu_s / 3600.0);
    json_num(b, "busy_gpu_h", p->busy_gpu_s / 3600.0);
    json_num(b, "sm_active_gpu_h", p->sm_active_gpu_s / 3600.0);
    json_num(b, "allocated_frac", json_frac(p->allocated_gpu_s, p->provisioned_gpu_s));
    json_num(b, "busy_frac", json_frac(p->busy_gpu_s, p->provisioned_gpu_s));
    json_num(b, "sm_active_frac", json_frac(p->sm_active_gpu_s, p->provisioned_gpu_s));
    json_num(b, "mem_gb_h", p->mem_gb_s / 3600.0);
    json_num(b, "cost", p->cost);
    json_num(b, "licence_cost", p->licence_cost);
    json_int(b, "jobs", p->jobs_routed);
    json_int(b, "completed", p->jobs_completed);
    json_int(b, "failed", p->jobs_failed);
    json_int(b, "unplaceable", p->jobs_unplaceable);
    json_int(b, "running", p->jobs_running);
    json_int(b, "queued", p->jobs_queued);
    json_num(b, "wait_mean_s", p->wait_mean_s);
    json_num(b, "wait_p50_s", p->wait_p50_s);
    json_num(b, "wait_p95_s", p->wait_p95_s);
    json_num(b, "wait_max_s", p->wait_max_s);
    json_int(b, "oom_kills", p->oom_kills);
    json_int(b, "innocent_victims", p->innocent_victims);
    json_int(b, "crashes", p->crashes);
    json_int(b, "restarts", p->restarts);
    json_int(b, "evictions", p->evictions);
    json_int(b, "reconfigurations", p->reconfigurations);
    json_num(b, "work_lost_gpu_h", p->work_lost_gpu_s / 3600.0);
    json_num(b, "straggler_wait_gpu_h", p->straggler_wait_gpu_s / 3600.0);
    json_num(b, "drain_gpu_h", p->drain_gpu_s / 3600.0);
    json_num(b, "down_gpu_h", p->down_gpu_s / 3600.0);
    json_num(b, "vgpu_h", p->vgpu_s / 3600.0);
    json_culls(b, r, &p->culls);
    if (r->autoscale) { /* a run with an autoscaled pool: every pool's nodes */
      json_num(b, "node_h", p->node_s / 3600.0);
      json_int(b, "nodes_min", p->nodes_min);
      json_int(b, "nodes_max", p->nodes_max);
      json_int(b, "nodes_peak", p->nodes_peak);
      json_int(b, "scale_ups", p->scale_ups);
      json_int(b, "scale_downs", p->scale_downs);
      if (r->spot) {
        json_int(b, "spot_interruptions", p->spot_interruptions);
        json_num(b, "spot_lost_gpu_h", p->spot_lost_gpu_s / 3600.0);
      }
    }
    json_builder_end_object(b);
  }
  json_builder_end_array(b);
}

/* The scheduler's totals (the tenants' sums), each object only where the scenario has it:
 * `preemption` where jobs preempt, `quotas` with Kueue quotas; compare shows them. */
static void json_sched(JsonBuilder *b, const results *r) {
  results_sched s;
  results_sched_total(r, &s);
  if (r->preemption) {
    json_builder_set_member_name(b, "preemption");
    json_builder_begin_object(b);
    json_int(b, "preemptions", s.preempted);
    if (r->reclaim) json_int(b, "reclaims", s.reclaimed);
    json_num(b, "lost_gpu_h", s.preempt_lost_gpu_s / 3600.0);
    json_builder_end_object(b);
  }
  if (r->quotas) {
    json_builder_set_member_name(b, "quotas");
    json_builder_begin_object(b);
    json_num(b, "quota_gpu_h", s.quota_gpu_s / 3600.0);
    json_num(b, "borrowed_gpu_h", s.borrowed_gpu_s / 3600.0);
    json_builder_end_object(b);
  }
}

/* Wait by priority (only with priority classes): per priority, highest first. */
static void json_prio_waits(JsonBuilder *b, const results *r) {
  if (!r->prio_waits) return;
  g_autoptr(GArray) order = results_prio_order(r);
  json_builder_set_member_name(b, "wait_by_priority");
  json_builder_begin_array(b);
  for (guint k = 0; k < order->len; k++) {
    const results_prio_waits *pw =
        &g_array_index(r->prio_waits, results_prio_waits, g_array_index(order, guint, k));
    g_autofree char *name = pw->other ? g_strdup("other priorities")
                                      : g_strdup_printf("priority %d", pw->priority);
    json_builder_begin_object(b);
    json_str(b, "name", name);
    json_int(b, "jobs", pw->jobs);
    json_int(b, "started", pw->zeros + pw->waits->len);
    json_num(b, "wait_mean_s", pw->mean_s);
    json_num(b, "wait_p95_s", pw->p95_s);
    json_num(b, "wait_max_s", pw->max_s);
    json_builder_end_object(b);
  }
  json_builder_end_array(b);
}

static void json_tenants(JsonBuilder *b, const results *r) {
  double showback = results_showback_total(r);
  json_builder_set_member_name(b, "tenants");
  json_builder_begin_array(b);
  for (guint i = 0; i < r->tenants->len; i++) {
    const tenant_result *t = &g_array_index(r->tenants, tenant_result, i);
    json_builder_begin_object(b);
    json_str(b, "name", t->name);
    json_int(b, "jobs", t->jobs);
    json_num(b, "allocated_gpu_h", t->allocated_gpu_s / 3600.0);
    json_num(b, "busy_gpu_h", t->busy_gpu_s / 3600.0);
    json_num(b, "cost", t->cost);
    json_num(b, "cost_share", json_frac(t->cost, showback));
    if (r->preemption) {
      json_int(b, "preemptions_suffered", t->preempted);
      json_int(b, "preemptions_caused", t->preempts_caused);
      json_num(b, "preemption_lost_gpu_h", t->preempt_lost_gpu_s / 3600.0);
    }
    if (r->quotas) {
      json_num(b, "quota_gpu_h", t->quota_gpu_s / 3600.0);
      json_num(b, "borrowed_gpu_h", t->borrowed_gpu_s / 3600.0);
      if (r->reclaim) {
        json_int(b, "reclaims_suffered", t->reclaimed);
        json_int(b, "reclaims_caused", t->reclaims_caused);
      }
    }
    if (r->spot) {
      json_int(b, "spot_evictions", t->spot_evictions);
      json_num(b, "spot_lost_gpu_h", t->spot_lost_gpu_s / 3600.0);
    }
    json_culls(b, r, &t->culls);
    json_int(b, "blast_caused", t->blast_caused);
    json_int(b, "blast_suffered", t->blast_suffered);
    json_builder_end_object(b);
  }
  json_builder_end_array(b);
}

/* The blast radius: per fault kind, every (source tenant, victim tenant) pair with a
 * victim, same-tenant pairs included (docs/output-format.md). */
static void json_blast(JsonBuilder *b, const results *r) {
  json_builder_set_member_name(b, "blast_radius");
  json_builder_begin_object(b);
  for (int k = 0; k < BLAST_KIND_COUNT; k++) {
    json_builder_set_member_name(b, blast_kind_name(k));
    json_builder_begin_array(b);
    for (guint i = 0; i < r->blast->len; i++) {
      const blast_row *x = &g_array_index(r->blast, blast_row, i);
      if ((int)x->kind != k) continue;
      json_builder_begin_object(b);
      json_str(b, "from", x->from);
      json_str(b, "to", x->to);
      json_int(b, "died", x->n[BLAST_DIED]);
      json_int(b, "stalled", x->n[BLAST_STALLED]);
      json_int(b, "evicted", x->n[BLAST_EVICTED]);
      json_builder_end_object(b);
    }
    json_builder_end_array(b);
  }
  json_builder_end_object(b);
}

/* The SLO headline of the inference services: counts, overall attainment, and the
 * services that missed their target, worst first (at most REPORT_SLO_WORST). */
#define REPORT_SLO_WORST 5
static void json_slo(JsonBuilder *b, const results *r) {
  results_slo t;
  results_slo_summary(r, &t);
  json_builder_set_member_name(b, "slo");
  json_builder_begin_object(b);
  json_int(b, "services", t.services);
  json_int(b, "judged", t.judged);
  json_int(b, "met", t.met);
  json_int(b, "missed", t.judged - t.met);
  json_int(b, "requests", t.requests);
  json_int(b, "violations", t.violations);
  json_num(b, "attainment_pct", t.attainment_pct);
  json_num(b, "violation_minutes", t.violation_minutes);
  guint idx[REPORT_SLO_WORST];
  guint n = results_slo_worst(r, REPORT_SLO_WORST, idx);
  json_builder_set_member_name(b, "worst");
  json_builder_begin_array(b);
  for (guint i = 0; i < n; i++) {
    const service_result *s = &g_array_index(r->services, service_result, idx[i]);
    json_builder_begin_object(b);
    json_str(b, "id", s->id);
    json_str(b, "pool", s->pool);
    json_num(b, "attainment_pct", s->attainment_pct);
    json_num(b, "slo_pct", s->slo_pct);
    json_num(b, "slo_ms", s->slo_ms);
    json_num(b, "p99_ms", s->p99_ms);
    json_num(b, "violation_minutes", s->violation_minutes);
    json_int(b, "dropped", s->dropped);
    json_int(b, "unanswered", s->unanswered);
    json_builder_end_object(b);
  }
  json_builder_end_array(b);
  json_builder_end_object(b);
}

/* json-glib prints doubles with "%.17g" (0.1 becomes 0.10000000000000001). Rewrites
 * every number outside strings that has a fraction or exponent in the shortest form
 * that reads back as the same double; integers and strings are left as they are. */
static char *json_shorten_numbers(const char *in) {
  GString *out = g_string_sized_new(strlen(in));
  gboolean in_string = FALSE;
  const char *p = in;
  while (*p) {
    if (in_string) {
      if (*p == '\\' && p[1]) {
        g_string_append_len(out, p, 2);
        p += 2;
        continue;
      }
      if (*p == '"') in_string = FALSE;
      g_string_append_c(out, *p++);
      continue;
    }
    if (*p == '"') {
      in_string = TRUE;
      g_string_append_c(out, *p++);
      continue;
    }
    if (*p != '-' && !g_ascii_isdigit(*p)) {
      g_string_append_c(out, *p++);
      continue;
    }
    const char *start = p;
    while (*p && strchr("0123456789+-.eE", *p)) p++;
    char *token = g_strndup(start, (gsize)(p - start));
    if (!strpbrk(token, ".eE")) {
      g_string_append(out, token);
    } else {
      util_append_shortest(out, g_ascii_strtod(token, NULL), 15);
    }
    g_free(token);
  }
  return g_string_free(out, FALSE);
}

char *report_json(const results *r, gboolean include_engine_stats) {
  g_return_val_if_fail(r != NULL, NULL);
  results_totals t;
  results_compute_totals(r, &t);

  g_autoptr(JsonBuilder) b = json_builder_new();
  json_builder_begin_object(b);
  json_str(b, "scenario", r->scenario_name);
  json_str(b, "scenario_file", r->scenario_path);
  json_str(b, "trace_file", r->trace_path);
  json_int(b, "seed", r->seed);
  if (isfinite(r->start_unix)) { /* only for runs placed at a date (start:, or submit_utc) */
    g_autoptr(GString) iso = g_string_new(NULL);
    caltime_append(iso, r->start_unix);
    json_str(b, "start", iso->str);
    g_string_truncate(iso, 0);
    caltime_append(iso, r->start_unix + r->end_s);
    json_str(b, "end", iso->str);
  }
  json_num(b, "span_s", r->end_s);
  json_num(b, "interval_s", r->interval_s);
  json_totals(b, &t);
  if (r->autoscale) json_num(b, "node_h_provisioned", results_node_h(r));
  json_pools(b, r);
  json_tenants(b, r);
  json_blast(b, r);
  if (r->cull_timeout_s > 0) { /* the idle culler's totals */
    results_culls c;
    results_culls_total(r, &c);
    json_builder_set_member_name(b, "culling");
    json_builder_begin_object(b);
    json_num(b, "timeout_s", r->cull_timeout_s);
    json_culls(b, r, &c);
    json_builder_end_object(b);
  }
  json_sched(b, r);
  json_prio_waits(b, r);
  if (isfinite(r->stopped_at_s)) { /* the run gave up early (plan's probes) */
    json_builder_set_member_name(b, "stopped_early");
    json_builder_begin_object(b);
    json_num(b, "at_s", r->stopped_at_s);
    json_int(b, "late_jobs", r->stopped_late);
    json_num(b, "wait_s", r->stopped_wait_s);
    json_builder_end_object(b);
  }
  if (r->oversub) { /* memory beyond the card (unified memory) */
    results_oversub o;
    results_oversub_total(r, &o);
    json_builder_set_member_name(b, "oversubscription");
    json_builder_begin_object(b);
    json_num(b, "gpu_h", o.gpu_s / 3600.0);
    json_int(b, "jobs", o.jobs);
    json_num(b, "job_gpu_h", o.job_gpu_s / 3600.0);
    json_num(b, "mean_slowdown", o.job_gpu_s > 0 ? o.slow_gpu_s / o.job_gpu_s : NAN);
    json_builder_end_object(b);
  }
  json_slo(b, r);

  const guint32 counts[OUTCOME_COUNT] = {
    [OUTCOME_COMPLETED] = t.completed,     [OUTCOME_FAILED] = t.failed,
    [OUTCOME_UNPLACEABLE] = t.unplaceable, [OUTCOME_RUNNING] = t.running,
    [OUTCOME_QUEUED] = t.queued,           [OUTCOME_NOT_SUBMITTED] = t.not_submitted,
  };
  json_builder_set_member_name(b, "outcomes");
  json_builder_begin_object(b);
  for (int o = 0; o < OUTCOME_COUNT; o++) json_int(b, job_outcome_name(o), counts[o]);
  json_builder_end_object(b);

  json_builder_set_member_name(b, "engine");
  json_builder_begin_object(b);
  json_int(b, "events", r->events);
  json_int(b, "heap_events", r->heap_events);
  if (include_engine_stats) json_num(b, "wall_s", r->wall_s);
  json_builder_end_object(b);
  json_builder_end_object(b);

  g_autoptr(JsonNode) root = json_builder_get_root(b);
  g_autoptr(JsonGenerator) gen = json_generator_new();
  json_generator_set_pretty(gen, TRUE);
  json_generator_set_indent(gen, 2);
  json_generator_set_root(gen, root);
  g_autofree char *text = json_generator_to_data(gen, NULL);
  char *shortened = json_shorten_numbers(text);
  char *with_newline = g_strconcat(shortened, "\n", NULL);
  g_free(shortened);
  return with_newline;
}

/* A well-formed JSON file: one object, read back through jsonlimit. */
static char *json_malformed(const char *data, gsize len) {
  g_autoptr(JsonParser) p = json_parser_new();
  g_autoptr(GError) e = NULL;
  if (!jsonlimit_load_data(p, "json", data, len, NULL, NULL, &e)) return g_strdup(e->message);
  JsonNode *root = json_parser_get_root(p);
  if (!root || !JSON_NODE_HOLDS_OBJECT(root)) return g_strdup("not an object");
  return len && data[len - 1] == '\n' ? NULL : g_strdup("no newline at the end");
}

const report_format report_format_json = {
    .name = "json",
    .what = "one JSON object, numbers in their shortest round-trip form",
    .malformed = json_malformed,
};
