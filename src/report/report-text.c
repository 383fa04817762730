/* report-text.c: the human summary `sharesim run` prints (and summary.txt): headline
 * totals, then one line per pool. Deterministic: no wall-clock values, numbers formatted
 * with g_ascii_formatd so the locale never changes the text. It computes nothing of its
 * own beyond presentation (results_compute_totals does the arithmetic). */
#include "report.h"
#include <math.h>
#include <string.h>

/* Appends v with a printf format ("%.1f") independent of the locale; NaN as "-". */
static void text_fmt(GString *out, const char *fmt, double v) {
  if (!isfinite(v)) {
    g_string_append_c(out, '-');
    return;
  }
  char buf[320]; /* "%.2f" of the largest double: 309 digits, a sign, a point and 2 */
  g_ascii_formatd(buf, sizeof buf, fmt, v == 0 ? 0.0 : v);
  g_string_append(out, buf);
}

/* Names come from inputs: keep control characters off the terminal. */
static void text_name(GString *out, const char *s) {
  for (const char *p = s ? s : ""; *p; p++)
    g_string_append_c(out, (unsigned char)*p < 0x20 || *p == 0x7f ? '?' : *p);
}

/* "12.3 s", "81 s", "45.5 m", "2.1 h", "3.5 d": at most three digits before the unit. */
static void text_duration(GString *out, double s) {
  static const struct { const char *unit; double seconds; } units[] = {
    {"s", 1}, {"m", 60}, {"h", 3600}, {"d", 86400},
  };
  if (!isfinite(s)) {
    g_string_append_c(out, '-');
    return;
  }
  gsize u = 0;
  while (u + 1 < G_N_ELEMENTS(units) && fabs(s) / units[u].seconds >= 99.95) u++;
  double v = s / units[u].seconds;
  text_fmt(out, fabs(v) >= 99.95 ? "%.0f" : "%.3g", v);
  g_string_append_printf(out, " %s", units[u].unit);
}

/* "2.0 days", "5.5 hours", "30.0 minutes", "45.0 seconds" for the simulated span. */
static void text_span(GString *out, double s) {
  if (s >= 86400) {
    text_fmt(out, "%.1f", s / 86400);
    g_string_append(out, " days");
  } else if (s >= 3600) {
    text_fmt(out, "%.1f", s / 3600);
    g_string_append(out, " hours");
  } else if (s >= 60) {
    text_fmt(out, "%.1f", s / 60);
    g_string_append(out, " minutes");
  } else {
    text_fmt(out, "%.1f", s);
    g_string_append(out, " seconds");
  }
}

static void text_percent(GString *out, double frac) {
  text_fmt(out, "%.1f", frac * 100);
  if (isfinite(frac)) g_string_append(out, " %");
}

static void text_money(GString *out, double v) {
  if (!isfinite(v)) {
    g_string_append(out, "n/a");
    return;
  }
  g_string_append_c(out, '$');
  text_fmt(out, "%.2f", v);
}

/* Pads the text appended since mark to width columns (left or right aligned). */
static void text_pad(GString *out, gsize mark, gsize width, gboolean right) {
  gsize len = (gsize)g_utf8_strlen(out->str + mark, -1);
  if (len >= width) return;
  if (right)
    g_string_insert_len(out, (gssize)mark, "                                        ",
                        (gssize)MIN(width - len, 40));
  else
    for (gsize i = len; i < width; i++) g_string_append_c(out, ' ');
}

static void text_label(GString *out, const char *label) {
  gsize mark = out->len;
  g_string_append(out, label);
  text_pad(out, mark, 18, FALSE);
}

static void text_jobs(GString *out, const results_totals *t) {
  text_label(out, "jobs");
  g_string_append_printf(out, "%u submitted: %u completed", t->jobs - t->not_submitted,
                         t->completed);
  const struct { guint32 n; const char *what; } more[] = {
    {t->failed, "failed"},   {t->unplaceable, "unplaceable"},
    {t->running, "running"}, {t->queued, "queued"},
  };
  for (gsize i = 0; i < G_N_ELEMENTS(more); i++)
    if (more[i].n) g_string_append_printf(out, ", %u %s", more[i].n, more[i].what);
  if (t->not_submitted)
    g_string_append_printf(out, "; %u after the horizon", t->not_submitted);
  g_string_append_c(out, '\n');
}

/* Cell c of the pool table for p (c: 0 GPUs, 1 strategy, 2 jobs, 3-5 alloc/busy/SM,
 * 6 wait p95, 7 OOM, 8 cost). */
static void text_pool_cell(GString *out, const pool_result *p, gsize c) {
  double prov = p->provisioned_gpu_s;
  const double fracs[] = {prov > 0 ? p->allocated_gpu_s / prov : NAN,
                          prov > 0 ? p->busy_gpu_s / prov : NAN,
                          prov > 0 ? p->sm_active_gpu_s / prov : NAN};
  switch (c) {
  case 0: g_string_append_printf(out, "%u", p->gpus); break;
  case 1: text_name(out, p->strategy); break;
  case 2: g_string_append_printf(out, "%u", p->jobs_routed); break;
  case 3: case 4: case 5: text_percent(out, fracs[c - 3]); break;
  case 6: text_duration(out, p->wait_p95_s); break;
  case 7: g_string_append_printf(out, "%u", p->oom_kills); break;
  default: text_money(out, p->cost); break;
  }
}

/* The pool table. Columns keep their usual widths and grow, two spaces apart, for larger
 * figures (an openb-sized cost ran into the OOM column; issue 11 bug 9). */
static void text_pools(GString *out, const results *r) {
  static const struct { const char *title; gsize width; } cols[] = {
    {"GPUs", 6}, {"strategy", 0}, {"jobs", 7}, {"alloc", 9}, {"busy", 9}, {"SM", 9},
    {"wait p95", 10}, {"OOM", 6}, {"cost", 12},
  };
  gsize name_w = 4, width[G_N_ELEMENTS(cols)];
  for (gsize c = 0; c < G_N_ELEMENTS(cols); c++) width[c] = cols[c].width ? cols[c].width : 8;
  GString *cell = g_string_new(NULL);
  for (guint i = 0; i < r->pools->len; i++) {
    const pool_result *p = &g_array_index(r->pools, pool_result, i);
    name_w = MAX(name_w, p->name ? (gsize)g_utf8_strlen(p->name, -1) : 0);
    for (gsize c = 0; c < G_N_ELEMENTS(cols); c++) {
      g_string_truncate(cell, 0);
      text_pool_cell(cell, p, c);
      gsize len = (gsize)g_utf8_strlen(cell->str, -1);
      width[c] = MAX(width[c], cols[c].width ? len + 2 : len);
    }
  }
  name_w += 2;
  gsize strategy_w = width[1] + 4; /* two spaces before, two after */
  gsize mark = out->len;
  g_string_append(out, "pool");
  text_pad(out, mark, name_w, FALSE);
  for (gsize c = 0; c < G_N_ELEMENTS(cols); c++) {
    mark = out->len;
    if (c == 1) g_string_append(out, "  ");
    g_string_append(out, cols[c].title);
    text_pad(out, mark, c == 1 ? strategy_w : width[c], c != 1);
  }
  g_string_append_c(out, '\n');
  for (guint i = 0; i < r->pools->len; i++) {
    const pool_result *p = &g_array_index(r->pools, pool_result, i);
    mark = out->len;
    text_name(out, p->name);
    text_pad(out, mark, name_w, FALSE);
    for (gsize c = 0; c < G_N_ELEMENTS(cols); c++) {
      mark = out->len;
      if (c == 1) g_string_append(out, "  ");
      text_pool_cell(out, p, c);
      text_pad(out, mark, c == 1 ? strategy_w : width[c], c != 1);
    }
    g_string_append_c(out, '\n');
  }
  g_string_free(cell, TRUE);
}

/* The inference services' SLOs: how many met their target, overall attainment, and the
 * worst services that missed it (at most three lines). */
static void text_slo(GString *out, const results *r) {
  results_slo t;
  results_slo_summary(r, &t);
  if (!t.services) return;
  text_label(out, "SLO");
  if (!t.judged) {
    g_string_append_printf(out, "%u inference service%s, none with an SLO and requests\n",
                           t.services, t.services == 1 ? "" : "s");
    return;
  }
  g_string_append_printf(out, "%u of %u service%s met their target; ", t.met, t.judged,
                         t.judged == 1 ? "" : "s");
  text_fmt(out, "%.2f", t.attainment_pct);
  g_string_append_printf(out, " %% of %" G_GUINT64_FORMAT " requests within SLO; ", t.requests);
  text_fmt(out, "%.0f", t.violation_minutes);
  g_string_append(out, " violation minutes\n");
  guint idx[3];
  guint n = results_slo_worst(r, G_N_ELEMENTS(idx), idx);
  for (guint i = 0; i < n; i++) {
    const service_result *s = &g_array_index(r->services, service_result, idx[i]);
    text_label(out, i == 0 ? "  worst" : "");
    text_name(out, s->id);
    g_string_append(out, ": ");
    text_fmt(out, "%.2f", s->attainment_pct);
    g_string_append(out, " % within ");
    text_fmt(out, "%g", s->slo_ms);
    g_string_append(out, " ms (target ");
    text_fmt(out, "%g", s->slo_pct);
    g_string_append(out, " %), p99 ");
    text_fmt(out, "%.1f", s->p99_ms);
    g_string_append(out, " ms, ");
    text_fmt(out, "%.0f", s->violation_minutes);
    g_string_append(out, " violation min");
    if (s->dropped) g_string_append_printf(out, ", %" G_GUINT64_FORMAT " dropped", s->dropped);
    if (s->unanswered)
      g_string_append_printf(out, ", %" G_GUINT64_FORMAT " unanswered", s->unanswered);
    g_string_append_c(out, '\n');
  }
}

/* LLM services (at most three lines, trace order): TTFT and TPOT p50/p99, goodput. */
static void text_llm(GString *out, const results *r) {
  guint shown = 0, total = 0;
  for (guint i = 0; i < r->services->len; i++) {
    const service_result *s = &g_array_index(r->services, service_result, i);
    if (!s->llm) continue;
    total++;
    if (shown == 3) continue;
    text_label(out, shown++ ? "" : "LLM");
    text_name(out, s->id);
    g_string_append(out, ": TTFT p50 ");
    text_fmt(out, "%.1f", s->ttft_p50_ms);
    g_string_append(out, " / p99 ");
    text_fmt(out, "%.1f", s->ttft_p99_ms);
    g_string_append(out, " ms, TPOT p50 ");
    text_fmt(out, "%.2f", s->tpot_p50_ms);
    g_string_append(out, " / p99 ");
    text_fmt(out, "%.2f", s->tpot_p99_ms);
    g_string_append(out, " ms, goodput ");
    text_fmt(out, "%.3f", s->goodput_rps);
    g_string_append(out, " req/s\n");
  }
  if (r->services_streamed) total = r->llm_services; /* the rows kept are the first ones */
  if (total > shown) {
    text_label(out, "");
    g_string_append_printf(out, "(%u more in llm.csv)\n", total - shown);
  }
}

/* Kueue's quotas (only where the scenario has them): GPU-hours admitted under a quota and
 * borrowed from cohorts, and per tenant that borrowed, in name order. */
static void text_quotas(GString *out, const results *r) {
  if (!r->quotas) return;
  results_sched s;
  results_sched_total(r, &s);
  text_label(out, "quotas");
  text_fmt(out, "%.1f", s.quota_gpu_s / 3600.0);
  g_string_append(out, " GPU-h under Kueue quotas, ");
  text_fmt(out, "%.1f", s.borrowed_gpu_s / 3600.0);
  g_string_append(out, " borrowed");
  for (guint i = 0; i < r->tenants->len; i++) {
    const tenant_result *t = &g_array_index(r->tenants, tenant_result, i);
    if (t->borrowed_gpu_s <= 0) continue;
    g_string_append(out, "; ");
    text_name(out, t->name);
    g_string_append(out, " borrowed ");
    text_fmt(out, "%.1f", t->borrowed_gpu_s / 3600.0);
  }
  g_string_append_c(out, '\n');
}

/* Wait by priority (only with priority classes): per priority, highest first, its jobs and
 * the mean and p95 queue wait of those that started. */
static void text_prio_waits(GString *out, const results *r) {
  if (!r->prio_waits || !r->prio_waits->len) return;
  g_autoptr(GArray) order = results_prio_order(r);
  text_label(out, "wait by priority");
  for (guint k = 0; k < order->len; k++) {
    const results_prio_waits *pw =
        &g_array_index(r->prio_waits, results_prio_waits, g_array_index(order, guint, k));
    if (k) g_string_append(out, "; ");
    if (pw->other) g_string_append(out, "other");
    else g_string_append_printf(out, "%d", pw->priority);
    g_string_append_printf(out, ": %" G_GUINT64_FORMAT " job%s", pw->jobs,
                           pw->jobs == 1 ? "" : "s");
    if (isnan(pw->mean_s)) continue;
    g_string_append(out, ", mean ");
    text_duration(out, pw->mean_s);
    g_string_append(out, " p95 ");
    text_duration(out, pw->p95_s);
  }
  g_string_append_c(out, '\n');
}

/* A run that gave up early (plan's probes, sim_options.give_up_*): when, and why. */
static void text_stopped(GString *out, const results *r) {
  if (!isfinite(r->stopped_at_s)) return;
  text_label(out, "stopped early");
  g_string_append(out, "at ");
  text_duration(out, r->stopped_at_s);
  g_string_append_printf(out, ": %" G_GUINT64_FORMAT " jobs had waited more than ",
                         r->stopped_late);
  text_duration(out, r->stopped_wait_s);
  g_string_append(out, " for their first start\n");
}

/* Preemptions (only where the scenario lets jobs preempt): the total, GPU-hours of work
 * lost, and per tenant suffered / caused, in name order. */
static void text_preemption(GString *out, const results *r) {
  if (!r->preemption) return;
  results_sched s;
  results_sched_total(r, &s);
  guint32 n = s.preempted;
  text_label(out, "preemption");
  g_string_append_printf(out, "%u preemption%s", n, n == 1 ? "" : "s");
  if (r->reclaim) g_string_append_printf(out, " (%u to reclaim lent quota)", s.reclaimed);
  g_string_append(out, "; work lost ");
  text_fmt(out, "%.1f", s.preempt_lost_gpu_s / 3600.0);
  g_string_append(out, " GPU-h");
  for (guint i = 0; i < r->tenants->len && n; i++) {
    const tenant_result *t = &g_array_index(r->tenants, tenant_result, i);
    if (!t->preempted && !t->preempts_caused) continue;
    g_string_append(out, "; ");
    text_name(out, t->name);
    g_string_append_printf(out, " suffered %u, caused %u", t->preempted, t->preempts_caused);
  }
  g_string_append_c(out, '\n');
}

/* Autoscaling (only where a pool autoscales): node-hours provisioned (what the cost
 * counts), nodes asked for and removed, spot interruptions and the work they lost. */
static void text_autoscale(GString *out, const results *r) {
  if (!r->autoscale) return;
  guint32 ups = 0, downs = 0, spot = 0;
  double lost = 0;
  for (guint i = 0; i < r->pools->len; i++) {
    const pool_result *p = &g_array_index(r->pools, pool_result, i);
    ups += p->scale_ups;
    downs += p->scale_downs;
    spot += p->spot_interruptions;
    lost += p->spot_lost_gpu_s;
  }
  text_label(out, "autoscaling");
  text_fmt(out, "%.1f", results_node_h(r));
  g_string_append_printf(out, " node-h provisioned; %u node%s asked for, %u removed", ups,
                         ups == 1 ? "" : "s", downs);
  if (r->spot) {
    g_string_append_printf(out, "; %u spot interruption%s, work lost ", spot,
                           spot == 1 ? "" : "s");
    text_fmt(out, "%.1f", lost / 3600.0);
    g_string_append(out, " GPU-h");
  }
  g_string_append_c(out, '\n');
}

/* Finance view: each tenant's showback (cost by allocated GPU time) and share, the
 * largest first (ties by name), at most three, then the rest summed. */
static void text_showback(GString *out, const results *r) {
  double total = results_showback_total(r);
  if (!r->tenants->len || !(total > 0)) return;
  guint n = r->tenants->len;
  guint *order = g_new(guint, n);
  for (guint i = 0; i < n; i++) order[i] = i;
  for (guint i = 1; i < n; i++) /* insertion sort: tenants are few, and it is stable */
    for (guint j = i; j > 0; j--) {
      const tenant_result *a = &g_array_index(r->tenants, tenant_result, order[j - 1]);
      const tenant_result *b = &g_array_index(r->tenants, tenant_result, order[j]);
      if (!(b->cost > a->cost)) break;
      guint tmp = order[j];
      order[j] = order[j - 1];
      order[j - 1] = tmp;
    }
  text_label(out, "showback");
  double rest = 0;
  for (guint i = 0; i < n; i++) {
    const tenant_result *tr = &g_array_index(r->tenants, tenant_result, order[i]);
    if (i >= 3 && n > 4) {
      rest += isfinite(tr->cost) ? tr->cost : 0;
      continue;
    }
    if (i) g_string_append(out, "; ");
    text_name(out, tr->name);
    g_string_append_c(out, ' ');
    text_money(out, tr->cost);
    g_string_append(out, " (");
    text_percent(out, tr->cost / total);
    g_string_append_c(out, ')');
  }
  if (n > 4) {
    g_string_append_printf(out, "; %u other tenants ", n - 3);
    text_money(out, rest);
    g_string_append(out, " (");
    text_percent(out, rest / total);
    g_string_append_c(out, ')');
  }
  g_string_append_c(out, '\n');
  g_free(order);
}

/* The idle culler's line (only when it is on). */
static void text_culling(GString *out, const results *r) {
  if (!(r->cull_timeout_s > 0)) return;
  results_culls c;
  results_culls_total(r, &c);
  text_label(out, "idle culling");
  g_string_append_printf(out, "%u notebook server%s culled after ", c.culled,
                         c.culled == 1 ? "" : "s");
  text_duration(out, r->cull_timeout_s);
  g_string_append(out, " idle; ");
  text_fmt(out, "%.1f", c.freed_gpu_s / 3600.0);
  g_string_append_printf(out, " GPU-h freed; %u user%s returned", c.returns,
                         c.returns == 1 ? "" : "s");
  if (c.returns) {
    g_string_append(out, ", waited mean ");
    text_duration(out, c.return_wait_s / c.returns);
  }
  g_string_append_c(out, '\n');
}

/* MIG carved on demand's line (only when an instance was created): instances created, and
 * the requests refused by the slice space's fragmentation (enough free slices, no valid
 * position), from events.csv's rows. */
static void text_mig_carved(GString *out, const results *r) {
  guint32 created = 0, fragmented = 0;
  for (guint i = 0; i < r->events_log->len; i++) {
    event_kind k = g_array_index(r->events_log, event_row, i).kind;
    created += k == EVENT_MIG_CREATE;
    fragmented += k == EVENT_MIG_FRAGMENTED;
  }
  if (!created) return;
  text_label(out, "MIG on demand");
  g_string_append_printf(out, "%u instance%s created; %u request%s refused by fragmentation "
                         "(enough free slices, no valid position)\n", created,
                         created == 1 ? "" : "s", fragmented, fragmented == 1 ? "" : "s");
}

/* The memory-oversubscription line (only when a pool allows it): GPU-hours with more
 * memory than the card, the jobs that ran with memory beyond it, their worker-hours so and
 * mean page-migration slowdown. */
static void text_oversub(GString *out, const results *r) {
  if (!r->oversub) return;
  results_oversub o;
  results_oversub_total(r, &o);
  text_label(out, "oversubscribed");
  text_fmt(out, "%.1f", o.gpu_s / 3600.0);
  g_string_append_printf(out, " GPU-h with memory beyond the card; %u job%s ran so for ", o.jobs,
                         o.jobs == 1 ? "" : "s");
  text_fmt(out, "%.1f", o.job_gpu_s / 3600.0);
  g_string_append(out, " GPU-h");
  if (o.job_gpu_s > 0) {
    g_string_append(out, ", slowed ");
    text_fmt(out, "%.2f", o.slow_gpu_s / o.job_gpu_s);
    g_string_append(out, "x on average");
  }
  g_string_append_c(out, '\n');
}

/* The out-of-memory line: kills and their innocent victims, crashes and theirs (a crash's
 * neighbours are the crash's, not the out-of-memory line's), restarts, work lost. */
static void text_faults(GString *out, const results_totals *t) {
  text_label(out, "out-of-memory");
  guint32 oom_victims = t->innocent_victims - t->fault_victims;
  g_string_append_printf(out, "%u kill%s (%u innocent victim%s); crashes %u", t->oom_kills,
                         t->oom_kills == 1 ? "" : "s", oom_victims, oom_victims == 1 ? "" : "s",
                         t->crashes);
  if (t->fault_victims)
    g_string_append_printf(out, " (%u innocent victim%s)", t->fault_victims,
                           t->fault_victims == 1 ? "" : "s");
  g_string_append_printf(out, "; restarts %u; work lost ", t->restarts);
  text_fmt(out, "%.1f", t->work_lost_gpu_h);
  g_string_append(out, " GPU-h\n");
}

/* The blast radius line, only when a fault reached another tenant's job: how many, and
 * the first pairs (source -> victim tenant, kind, what it did), at most TEXT_BLAST_PAIRS. */
#define TEXT_BLAST_PAIRS 4
static void text_blast(GString *out, const results *r) {
  guint32 n[BLAST_EFFECT_COUNT];
  results_blast_total(r, FALSE, n);
  guint32 all = n[BLAST_DIED] + n[BLAST_STALLED] + n[BLAST_EVICTED];
  if (!all) return;
  static const char *const did[BLAST_EFFECT_COUNT] = {"died", "stalled", "evicted"};
  text_label(out, "blast radius");
  g_string_append_printf(out, "%u job%s of other tenants hit:", all, all == 1 ? "" : "s");
  guint shown = 0, pairs = 0;
  for (guint i = 0; i < r->blast->len; i++) {
    const blast_row *b = &g_array_index(r->blast, blast_row, i);
    if (!strcmp(b->from, b->to) || !strcmp(b->from, BLAST_NO_SOURCE)) continue;
    if (pairs++ >= TEXT_BLAST_PAIRS) continue;
    g_string_append(out, shown++ ? "; " : " ");
    text_name(out, b->from);
    g_string_append(out, " -> ");
    text_name(out, b->to);
    g_string_append_printf(out, " (%s)", blast_kind_name(b->kind));
    for (int e = 0; e < BLAST_EFFECT_COUNT; e++)
      if (b->n[e]) g_string_append_printf(out, " %u %s", b->n[e], did[e]);
  }
  if (pairs > shown) g_string_append_printf(out, "; %u more pair%s", pairs - shown,
                                            pairs - shown == 1 ? "" : "s");
  g_string_append_c(out, '\n');
}

void report_text(const results *r, GString *out) {
  g_return_if_fail(r != NULL && out != NULL);
  results_totals t;
  results_compute_totals(r, &t);

  g_string_append(out, "sharesim: scenario '");
  text_name(out, r->scenario_name ? r->scenario_name : "(unnamed)");
  g_string_append_c(out, '\'');
  if (r->trace_path) {
    char *base = g_path_get_basename(r->trace_path);
    g_string_append(out, " on trace ");
    text_name(out, base);
    g_free(base);
  }
  g_string_append_printf(out, " (seed %" G_GUINT64_FORMAT "), ", r->seed);
  text_span(out, r->end_s);
  g_string_append(out, " simulated\n");

  text_label(out, "GPUs");
  g_string_append_printf(out, "%u provisioned, ", t.gpus);
  text_fmt(out, "%.1f", t.provisioned_gpu_h);
  g_string_append(out, " GPU-h\n");

  text_label(out, "utilisation");
  g_string_append(out, "allocated ");
  text_percent(out, t.allocated_frac);
  g_string_append(out, "   busy ");
  text_percent(out, t.busy_frac);
  g_string_append(out, "   SM-active ");
  text_percent(out, t.sm_active_frac);
  g_string_append_c(out, '\n');

  text_jobs(out, &t);

  text_label(out, "queue wait");
  if (isnan(t.wait_mean_s)) {
    g_string_append(out, "no job started\n");
  } else {
    g_string_append(out, "mean ");
    text_duration(out, t.wait_mean_s);
    g_string_append(out, "   p50 ");
    text_duration(out, t.wait_p50_s);
    g_string_append(out, "   p95 ");
    text_duration(out, t.wait_p95_s);
    g_string_append(out, "   max ");
    text_duration(out, t.wait_max_s);
    g_string_append_c(out, '\n');
  }

  if (!isnan(t.slowdown_mean)) {
    text_label(out, "slowdown");
    g_string_append(out, "mean ");
    text_fmt(out, "%.2f", t.slowdown_mean);
    g_string_append(out, "x over completed training and batch jobs\n");
  }

  text_label(out, "cost");
  text_money(out, t.cost);
  if (t.provisioned_gpu_h > 0) {
    g_string_append(out, " (");
    text_money(out, t.cost / t.provisioned_gpu_h);
    g_string_append(out, "/GPU-h)");
  }
  g_string_append(out, "; idle spend ");
  text_money(out, t.idle_cost);
  g_string_append(out, "; ");
  text_money(out, t.cost_per_busy_gpu_h);
  g_string_append(out, " per busy GPU-h\n");
  text_showback(out, r);

  text_faults(out, &t);
  text_blast(out, r);
  text_oversub(out, r);

  if (t.reconfigurations || t.evictions) {
    text_label(out, "reconfiguration");
    g_string_append_printf(out, "%u reconfiguration%s, %u eviction%s\n", t.reconfigurations,
                           t.reconfigurations == 1 ? "" : "s", t.evictions,
                           t.evictions == 1 ? "" : "s");
  }

  text_mig_carved(out, r);
  text_prio_waits(out, r);
  text_stopped(out, r);
  text_preemption(out, r);
  text_autoscale(out, r);
  text_quotas(out, r);
  text_culling(out, r);
  text_slo(out, r);
  text_llm(out, r);

  if (r->pools->len) {
    g_string_append_c(out, '\n');
    text_pools(out, r);
  }
}

/* A well-formed text file: not empty, lines end with '\n', no control characters but the
 * newline (names from inputs are shown with '?' for them). */
static char *text_malformed(const char *data, gsize len) {
  if (!len || data[len - 1] != '\n') return g_strdup("empty, or the last line has no newline");
  for (gsize i = 0; i < len; i++)
    if (((unsigned char)data[i] < 0x20 && data[i] != '\n') || data[i] == 0x7f)
      return g_strdup_printf("byte %" G_GSIZE_FORMAT ": control character 0x%02x", i,
                             (unsigned char)data[i]);
  return NULL;
}

const report_format report_format_text = {
    .name = "text",
    .what = "the summary `run` prints, for people",
    .malformed = text_malformed,
};
