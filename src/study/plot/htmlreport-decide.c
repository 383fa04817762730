/* htmlreport-decide.c: the report's recommendation among set-ups (htmlreport-int.h): the
 * cheapest per 730-hour month that breaks nothing the baseline (the first) does not, and the
 * reason, in words, for each cheaper one left out. The rule is docs/studies.md's ("report"):
 * every job placed, no more SLO misses, OOM kills or innocent victims than the baseline, no
 * class slowed by more than HR_MAX_SLOWDOWN on average, queue wait p95 not doubled. */
#include "htmlreport-int.h"
#include "svg.h"
#include <math.h>

/* "+3 OOM kills" when r's figure key is above the baseline's. */
static void hr_more(GString *why, const hr_run *base, const hr_run *r, const char *key,
                    const char *what) {
  double b = hr_fig(base, key), v = hr_fig(r, key);
  if (!isfinite(v) || !(v > (isfinite(b) ? b : 0) + 1e-9)) return;
  g_string_append_printf(why, "%s+", why->len ? "; " : "");
  svg_thousands(why, v - (isfinite(b) ? b : 0));
  g_string_append_printf(why, " %s", what);
}

char *hr_breaks_more(const hr_run *base, const hr_run *r) {
  GString *why = g_string_new(NULL);
  hr_more(why, base, r, "unplaceable", "jobs never placed");
  hr_more(why, base, r, "slo:missed", "services missing their SLO");
  hr_more(why, base, r, "oom_kills", "OOM kills");
  hr_more(why, base, r, "innocent_victims", "innocent victims");
  for (guint i = 0; r->classes && i < r->classes->len; i++) {
    const hr_class *c = &g_array_index(r->classes, hr_class, i);
    const hr_class *b = hr_class_of(base, c->kind);
    if (!(c->mean > HR_MAX_SLOWDOWN) || (b && !(c->mean > b->mean + 1e-9))) continue;
    g_string_append_printf(why, "%s%s slowed %.2fx on average", why->len ? "; " : "", c->kind,
                           c->mean);
  }
  double bw = hr_fig(base, "wait_p95_s"), w = hr_fig(r, "wait_p95_s");
  if (isfinite(w) && w > 2 * (isfinite(bw) ? bw : 0) + 600)
    g_string_append_printf(why, "%squeue wait p95 %.1f h (baseline %.1f h)", why->len ? "; " : "",
                           w / 3600, (isfinite(bw) ? bw : 0) / 3600);
  return g_string_free(why, FALSE);
}

/* "$1,234 a month ($14,808 a year)" */
static void hr_month_year(GString *out, double month) {
  svg_money(out, month);
  g_string_append(out, " a month (");
  svg_money(out, 12 * month);
  g_string_append(out, " a year)");
}

/* The cheaper set-ups left out, each with what it breaks. */
static void hr_left_out(GString *why, hr_run *const *runs, guint n, guint pick) {
  gboolean any = FALSE;
  for (guint i = 1; i < n; i++) {
    if (i == pick || !(hr_month(runs[i]) < hr_month(runs[pick]))) continue;
    g_autofree char *w = hr_breaks_more(runs[0], runs[i]);
    g_string_append(why, any ? "</li><li>" : "</p><p>Cheaper, but not recommended:</p><ul><li>");
    hr_text(why, runs[i]->label);
    g_string_append(why, " (");
    svg_money(why, hr_month(runs[i]));
    g_string_append(why, " a month): ");
    hr_text(why, w);
    any = TRUE;
  }
  g_string_append(why, any ? "</li></ul>\n" : "</p>\n");
}

guint hr_decide(hr_run *const *runs, guint n, GString *why) {
  if (n == 1) {
    g_string_append(why, "<p class=\"rec\">One set-up, nothing to choose between: ");
    hr_text(why, runs[0]->label);
    g_string_append(why, " costs ");
    hr_month_year(why, hr_month(runs[0]));
    g_string_append(why, ".</p>\n");
    return 0;
  }
  guint pick = 0;
  for (guint i = 1; i < n; i++) {
    g_autofree char *w = hr_breaks_more(runs[0], runs[i]);
    if (!*w && hr_month(runs[i]) < hr_month(runs[pick])) pick = i;
  }
  const hr_run *r = runs[pick], *b = runs[0];
  g_string_append(why, "<p class=\"rec\">");
  if (pick == 0) {
    g_string_append(why, "Recommended: keep ");
    hr_text(why, b->label);
    g_string_append(why, ", ");
    hr_month_year(why, hr_month(b));
    g_string_append_printf(why, ".</p>\n<p>No set-up that costs less breaks nothing more "
                           "than it does (every job placed, no more SLO misses, OOM kills or "
                           "innocent victims, no class slowed over %.1fx on average, queue wait "
                           "p95 not doubled).", HR_MAX_SLOWDOWN);
  } else {
    double save = hr_month(b) - hr_month(r);
    g_string_append(why, "Recommended: ");
    hr_text(why, r->label);
    g_string_append(why, ", saving ");
    hr_month_year(why, save);
    g_string_append_printf(why, ", %.0f %% of ", 100 * save / hr_month(b));
    hr_text(why, b->label);
    g_string_append_printf(why, ".</p>\n<p>The cheapest set-up that breaks nothing more than "
                           "the baseline: every job placed, no more SLO misses, OOM kills or "
                           "innocent victims, no class slowed over %.1fx on average, queue wait "
                           "p95 not doubled.", HR_MAX_SLOWDOWN);
  }
  double bg = hr_fig(b, "gpus"), rg = hr_fig(r, "gpus");
  if (pick && rg < bg)
    g_string_append_printf(why, " Its saving is %.0f fewer GPUs (%.0f against %.0f): unless "
                           "those counts were sized to the same constraints (<code>compare "
                           "--size-to-constraints</code>, <code>plan</code>), it is the "
                           "counts typed, not the mechanism, that save.", bg - rg, rg, bg);
  double shortest = INFINITY;
  for (guint i = 0; i < n; i++) shortest = MIN(shortest, runs[i]->f->span_s);
  if (shortest < HR_WEEK_S)
    g_string_append_printf(why, " Judged on %.1f hours of trace only (see the warning above).",
                           shortest / 3600);
  hr_left_out(why, runs, n, pick);
  return pick;
}
