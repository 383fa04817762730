/* cmd-constraints.c: the constraint options of size and compare --size-to-constraints
 * (--slo, --max-oom, --max-wait-p95): their parsing into sizing_constraints, with the
 * messages, and the --slo latency applied to a trace. */
#include "cmd-constraints.h"
#include "figures.h"
#include "util.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

/* --slo PCT or PCT@LATENCY (99, 99%, 99@200ms, 99.9@1s): the target share of requests and,
 * with a latency, the SLO every inference service is judged against instead of its own
 * slo_ms. FALSE (with the message printed) when the text is not one of these. */
static gboolean constraints_parse_slo(const char *name, const char *arg, double *pct,
                                      double *latency_ms) {
  g_autofree char *t = g_strstrip(g_strdup(arg));
  char *at = strchr(t, '@');
  if (at) *at++ = '\0';
  g_strstrip(t);
  gsize len = strlen(t);
  if (len && t[len - 1] == '%') t[len - 1] = '\0';
  double v;
  sim_time ns = 0;
  const char *expected = NULL;
  gboolean ok = util_parse_double(g_strstrip(t), &v) && v > 0 && v <= 100;
  if (ok && at)
    ok = util_parse_duration(g_strstrip(at), SIM_NS_PER_MS, &ns, &expected) && ns > 0 &&
         ns <= (sim_time)(TRACE_MAX_MS * 1e6);
  if (!ok) {
    g_autofree char *shown = figures_clean_text(arg);
    fprintf(stderr, "sharesim %s: --slo '%s': expected a percentage above 0 and at most 100, "
                    "optionally with @LATENCY (e.g. 99 or 99@200ms)\n", name, shown);
    return FALSE;
  }
  *pct = v;
  *latency_ms = at ? (double)ns / 1e6 : NAN;
  return TRUE;
}

gboolean cmd_constraints_parse(const char *name, const char *slo, gint64 max_oom,
                               const char *max_wait, sizing_constraints *cons,
                               double *slo_pct) {
  *cons = (sizing_constraints){NAN, max_oom, NAN, NAN};
  *slo_pct = NAN;
  if (max_oom < -1) {
    fprintf(stderr, "sharesim %s: --max-oom %" G_GINT64_FORMAT ": expected 0 or more\n", name,
            max_oom);
    return FALSE;
  }
  double slo_ms = NAN;
  if (slo && !constraints_parse_slo(name, slo, slo_pct, &slo_ms)) return FALSE;
  if (slo) cons->min_slo = *slo_pct / 100;
  cons->slo_ms = slo_ms;
  if (max_wait) {
    sim_time ns;
    const char *expected = NULL;
    if (!util_parse_duration(max_wait, SIM_NS_PER_S, &ns, &expected) || ns < 0) {
      g_autofree char *shown = figures_clean_text(max_wait);
      fprintf(stderr, "sharesim %s: --max-wait-p95 '%s': expected %s\n", name, shown,
              expected ? expected : "a duration such as 10m");
      return FALSE;
    }
    cons->max_wait_p95_s = util_ns_to_seconds(ns);
  }
  return TRUE;
}

void cmd_constraints_apply(const sizing_constraints *cons, double slo_pct, trace *tr) {
  if (isfinite(cons->slo_ms)) trace_set_slo(tr, slo_pct, cons->slo_ms);
}

gint64 cmd_constraints_node_cap(const pool_spec *ps) {
  gint64 cap = MAX(1, SCENARIO_MAX_POOL_GPUS / MAX(1u, ps->gpus_per_node));
  return MIN(cap, SCENARIO_MAX_NODES);
}

gint64 cmd_constraints_default_max(const pool_spec *ps) {
  return MIN(cmd_constraints_node_cap(ps), MAX(64, 8 * (gint64)ps->nodes));
}
