/* report-prom.c: sharesim's own pool series in dcgm.prom (OpenMetrics), beside the DCGM
 * exporter's GPU metrics, for the bundled Grafana dashboard (dashboards/sharesim.json): GPUs
 * allocated and busy, jobs queued and running, SLO violations by arrival interval, and OOM
 * kills as a counter. One sample per pool and interval at the interval's end, stamped like
 * the DCGM samples. It reads the frozen results only. */
#include "report.h"
#include "util.h"
#include <math.h>
#include <string.h>

typedef struct prom_family {
  const char *name, *type, *help;
  int field; /* 0 allocated GPUs, 1 busy GPUs, 2 queued, 3 running, 4 SLO violations, 5 OOM */
} prom_family;

static const prom_family prom_families[] = {
    {"sharesim_pool_gpus_allocated", "gauge", "GPUs allocated to jobs (interval mean).", 0},
    {"sharesim_pool_gpus_busy", "gauge", "GPUs busy, DCGM GPU_UTIL definition (interval mean).",
     1},
    {"sharesim_pool_jobs_queued", "gauge", "Jobs waiting for a GPU (interval mean).", 2},
    {"sharesim_pool_jobs_running", "gauge", "Jobs running (interval mean).", 3},
    {"sharesim_pool_slo_violations", "gauge",
     "Inference requests that arrived in the interval and missed their SLO.", 4},
    {"sharesim_oom_kills", "counter", "Jobs killed out of memory since the start.", 5},
};

void report_prom_label(GString *out, const char *name, const char *value, gboolean first) {
  g_string_append_printf(out, "%s%s=\"", first ? "" : ",", name);
  for (const char *p = value; *p; p++) {
    if (*p == '\\') g_string_append(out, "\\\\");
    else if (*p == '"') g_string_append(out, "\\\"");
    else if (*p == '\n') g_string_append(out, "\\n");
    else g_string_append_c(out, *p);
  }
  g_string_append_c(out, '"');
}

void report_prom_stamp(GString *out, const results *r, double t_s) {
  if (isfinite(r->start_unix)) util_append_shortest(out, r->start_unix + t_s, 10);
  else report_num(out, t_s);
}

/* OOM kills of pool (by name) at or before t_s; *next walks the time-ordered events log. */
static guint64 prom_oom_upto(const results *r, const char *pool, double t_s, guint *next,
                             guint64 *count) {
  for (; *next < r->events_log->len; (*next)++) {
    const event_row *e = &g_array_index(r->events_log, event_row, *next);
    if (e->t_s > t_s) break;
    if (e->kind == EVENT_OOM_KILL && e->pool && !strcmp(e->pool, pool)) (*count)++;
  }
  return *count;
}

static double prom_value(const prom_family *f, const ts_row *t, double gpus) {
  switch (f->field) {
  case 0: return t->allocated * gpus;
  case 1: return t->busy * gpus;
  case 2: return t->queued;
  case 3: return t->running;
  default: return (double)t->slo_violations;
  }
}

static void prom_family_samples(GString *out, const results *r, const prom_family *f) {
  gboolean counter = !strcmp(f->type, "counter");
  g_string_append_printf(out, "# TYPE %s %s\n# HELP %s %s\n", f->name, f->type, f->name,
                         f->help);
  guint next = 0;
  guint64 kills = 0;
  guint32 pool = G_MAXUINT32;
  for (guint i = 0; i < r->timeseries->len; i++) {
    const ts_row *t = &g_array_index(r->timeseries, ts_row, i);
    if (t->pool >= r->pools->len) continue;
    const pool_result *p = &g_array_index(r->pools, pool_result, t->pool);
    if (t->pool != pool) { /* rows are by pool, then time */
      pool = t->pool;
      next = 0;
      kills = 0;
    }
    g_string_append_printf(out, "%s%s{", f->name, counter ? "_total" : "");
    report_prom_label(out, "pool", p->name, TRUE);
    g_string_append(out, "} ");
    if (counter) g_string_append_printf(out, "%" G_GUINT64_FORMAT,
                                        prom_oom_upto(r, p->name, t->t_end_s, &next, &kills));
    else report_num(out, prom_value(f, t, p->gpus));
    g_string_append_c(out, ' ');
    report_prom_stamp(out, r, t->t_end_s);
    g_string_append_c(out, '\n');
  }
}

void report_prom_pools(const results *r, GString *out) {
  for (gsize k = 0; k < G_N_ELEMENTS(prom_families); k++)
    prom_family_samples(out, r, &prom_families[k]);
}
