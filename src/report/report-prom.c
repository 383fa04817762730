/* report-prom.c: sharesim's own pool series in dcgm.prom (OpenMetrics), beside the DCGM
 * exporter's GPU metrics, for the bundled Grafana dashboard (dashboards/sharesim.json): GPUs
 * allocated and busy, jobs queued and running, SLO violations by arrival interval, and OOM
 * kills as a counter. One sample per pool and interval at the interval's end, stamped like
 * the DCGM samples, labelled with the pool and the scenario. It reads the frozen results only. */
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

void report_prom_stamp_whole(GString *out, const results *r, double t_s, gint64 *last) {
  double v = ceil((isfinite(r->start_unix) ? r->start_unix : 0) + t_s);
  gint64 s = (gint64)v;
  if (*last != G_MININT64 && s <= *last) s = *last + 1;
  *last = s;
  g_string_append_printf(out, "%" G_GINT64_FORMAT, s);
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

static void prom_family_samples(report_out *ro, const results *r, const prom_family *f) {
  GString *out = ro->buf;
  gboolean counter = !strcmp(f->type, "counter");
  /* a counter's family is declared under its samples' name, NAME_total, as Prometheus's
   * own text format has it: `promtool check metrics` finds its help text there */
  const char *sfx = counter ? "_total" : "";
  g_string_append_printf(out, "# TYPE %s%s %s\n# HELP %s%s %s\n", f->name, sfx, f->type,
                         f->name, sfx, f->help);
  guint next = 0;
  guint64 kills = 0;
  guint32 pool = G_MAXUINT32;
  gint64 last = G_MININT64;
  for (guint i = 0; i < r->timeseries->len; i++) {
    const ts_row *t = &g_array_index(r->timeseries, ts_row, i);
    if (t->pool >= r->pools->len) continue;
    const pool_result *p = &g_array_index(r->pools, pool_result, t->pool);
    if (t->pool != pool) { /* rows are by pool, then time */
      pool = t->pool;
      next = 0;
      kills = 0;
      last = G_MININT64;
    }
    g_string_append_printf(out, "%s%s{", f->name, sfx);
    report_prom_label(out, "pool", p->name, TRUE);
    report_prom_label(out, "scenario", r->scenario_name ? r->scenario_name : "", FALSE);
    g_string_append(out, "} ");
    if (counter) g_string_append_printf(out, "%" G_GUINT64_FORMAT,
                                        prom_oom_upto(r, p->name, t->t_end_s, &next, &kills));
    else report_num(out, prom_value(f, t, p->gpus));
    g_string_append_c(out, ' ');
    report_prom_stamp_whole(out, r, t->t_end_s, &last);
    g_string_append_c(out, '\n');
    report_out_row(ro);
  }
}

void report_prom_pools(const results *r, report_out *ro) {
  for (gsize k = 0; k < G_N_ELEMENTS(prom_families); k++)
    prom_family_samples(ro, r, &prom_families[k]);
}

/* A well-formed OpenMetrics text: every sample's family declared by a "# TYPE" line before
 * it (a counter's samples named NAME_total, or NAME_total declared as such), and "# EOF"
 * once, as the last line. */
static char *prom_malformed(const char *data, gsize len) {
  static const char eof[] = "# EOF\n";
  if (len < sizeof eof - 1 || memcmp(data + len - (sizeof eof - 1), eof, sizeof eof - 1) != 0)
    return g_strdup("the last line is not '# EOF'");
  g_autoptr(GHashTable) families = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  g_auto(GStrv) lines = g_strsplit(data, "\n", -1);
  char *why = NULL;
  for (guint i = 0; lines[i] && !why; i++) {
    const char *l = lines[i];
    if (!*l) continue;
    if (g_str_has_prefix(l, "# TYPE ")) {
      g_auto(GStrv) w = g_strsplit(l + 7, " ", 3);
      if (!w[0] || !w[1]) why = g_strdup_printf("line %u: a # TYPE without a type", i + 1);
      else {
        g_hash_table_add(families, g_strdup(w[0]));
        if (!strcmp(w[1], "counter")) g_hash_table_add(families, g_strconcat(w[0], "_total", NULL));
      }
    } else if (!strcmp(l, "# EOF")) {
      if (lines[i + 1] && *lines[i + 1]) why = g_strdup_printf("line %u: # EOF before the end", i + 1);
    } else if (l[0] != '#') {
      g_autofree char *name = g_strndup(l, strcspn(l, "{ "));
      if (!g_hash_table_contains(families, name))
        why = g_strdup_printf("line %u: sample of '%s' before its # TYPE", i + 1, name);
    }
  }
  return why;
}

const report_format report_format_openmetrics = {
    .name = "openmetrics",
    .what = "OpenMetrics text (Prometheus), samples stamped in seconds",
    .malformed = prom_malformed,
};
