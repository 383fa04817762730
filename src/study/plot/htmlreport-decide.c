/* htmlreport-decide.c: the report's recommendation among set-ups (htmlreport-int.h): the
 * cheapest per 730-hour month that breaks nothing the baseline (the first) does not, and the
 * reason, in words, for each cheaper one left out. The rule is docs/studies.md's ("report"):
 * every job placed, no more SLO misses, OOM kills or innocent victims than the baseline, no
 * class slowed by more than HR_MAX_SLOWDOWN on average, queue wait p95 not doubled. */
#include "htmlreport-int.h"
#include "svg.h"
#include <math.h>
#include <string.h>

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

/* The cheaper set-ups left out, each with what it breaks (the first HR_MAX_LEFT_OUT, then
 * how many more). */
static void hr_left_out(GString *why, hr_run *const *runs, guint n, guint pick) {
  guint listed = 0, more = 0;
  for (guint i = 1; i < n; i++) {
    if (i == pick || !(hr_month(runs[i]) < hr_month(runs[pick]))) continue;
    if (listed == HR_MAX_LEFT_OUT) {
      more++;
      continue;
    }
    g_autofree char *w = hr_breaks_more(runs[0], runs[i]);
    g_string_append(why, listed ? "</li><li>" : "</p><p>Cheaper, but not recommended:</p><ul><li>");
    hr_text(why, runs[i]->label);
    g_string_append(why, " (");
    svg_money(why, hr_month(runs[i]));
    g_string_append(why, " a month): ");
    hr_text(why, w);
    listed++;
  }
  if (more)
    g_string_append_printf(why, "</li><li>and %u more cheaper set-up%s, each breaking something "
                           "the baseline does not", more, more == 1 ? "" : "s");
  g_string_append(why, listed ? "</li></ul>\n" : "</p>\n");
}

/* Where the saving of r over the baseline b comes from, in the headline: both sized to the
 * same constraints, or GPU counts that differ as typed. */
static void hr_saving_source(GString *why, const hr_run *b, const hr_run *r) {
  double bg = hr_fig(b, "gpus"), rg = hr_fig(r, "gpus");
  if (b->sized_to && r->sized_to)
    g_string_append(why, ", both sized to the same constraints");
  else if (rg != bg)
    g_string_append_printf(why, ", but from %.0f %s GPUs typed (%.0f against %.0f), not shown to be the "
                           "mechanism's", fabs(bg - rg), rg < bg ? "fewer" : "more", rg, bg);
}

/* The sentences after the rule on where the saving comes from: the constraints and sizes,
 * and the pools no size met; or that the counts were typed. */
static void hr_saving_detail(GString *why, const hr_run *b, const hr_run *r) {
  double bg = hr_fig(b, "gpus"), rg = hr_fig(r, "gpus");
  if (b->sized_to && r->sized_to) {
    g_string_append(why, " Every pool of every set-up was sized to the same constraints (");
    hr_text(why, r->sized_to);
    g_string_append(why, ") before the comparison (<code>compare --size-to-constraints</code>): ");
    const hr_run *two[] = {b, r};
    for (guint k = 0; k < 2; k++) {
      hr_text(why, two[k]->label);
      g_string_append_printf(why, " needs %.0f GPUs (typed %.0f)%s", hr_fig(two[k], "gpus"),
                             two[k]->typed_gpus, k ? "; the saving is the mechanism's." : ", ");
    }
    for (guint k = 0; k < 2; k++) {
      if (!two[k]->unmet || !*two[k]->unmet) continue;
      g_string_append(why, " <b>But</b> ");
      hr_text(why, two[k]->label);
      g_string_append(why, "'s pool ");
      hr_text(why, two[k]->unmet);
      g_string_append(why, " met them at no size tried and ran at its typed size: that part of "
                           "the difference is the counts typed, not the mechanism.");
    }
  } else if (rg != bg) {
    g_string_append(why, " The GPU counts were typed, not sized to the same constraints: run "
                         "<code>compare --size-to-constraints</code> (or <code>plan</code>) to "
                         "see what the mechanism alone saves.");
  }
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
    hr_saving_source(why, b, r);
    g_string_append_printf(why, ".</p>\n<p>The cheapest set-up that breaks nothing more than "
                           "the baseline: every job placed, no more SLO misses, OOM kills or "
                           "innocent victims, no class slowed over %.1fx on average, queue wait "
                           "p95 not doubled.", HR_MAX_SLOWDOWN);
    hr_saving_detail(why, b, r);
  }
  double shortest = INFINITY;
  for (guint i = 0; i < n; i++) shortest = MIN(shortest, runs[i]->f->span_s);
  if (shortest < HR_WEEK_S)
    g_string_append_printf(why, " Judged on %.1f hours of trace only (see the warning above).",
                           shortest / 3600);
  hr_left_out(why, runs, n, pick);
  return pick;
}

/* The settings every set-up was run at (the same names in the same order): how many, 0 when
 * some set-up has none or they differ. */
static guint hr_common_settings(hr_run *const *runs, guint n) {
  guint m = runs[0]->settings ? runs[0]->settings->len : 0;
  for (guint i = 1; i < n && m; i++) {
    if (!runs[i]->settings || runs[i]->settings->len != m) return 0;
    for (guint s = 0; s < m; s++)
      if (strcmp(g_ptr_array_index(runs[i]->setting_names, s),
                 g_ptr_array_index(runs[0]->setting_names, s)))
        return 0;
  }
  return m;
}

void hr_decide_range(hr_run *const *runs, guint n, guint pick, GString *why) {
  guint m = n > 1 ? hr_common_settings(runs, n) : 0;
  if (!m) return;
  hr_run **at = g_new0(hr_run *, n);
  g_autoptr(GString) flips = g_string_new(NULL), scratch = g_string_new(NULL);
  guint nflips = 0;
  for (guint s = 0; s < m; s++) {
    for (guint i = 0; i < n; i++) at[i] = g_ptr_array_index(runs[i]->settings, s);
    g_string_truncate(scratch, 0);
    guint p = hr_decide(at, n, scratch);
    if (p == pick) continue;
    g_autofree char *w = hr_breaks_more(at[0], at[pick]);
    g_string_append(flips, nflips++ ? "; with " : " with ");
    hr_text(flips, g_ptr_array_index(runs[0]->setting_names, s));
    g_string_append(flips, " it is ");
    hr_text(flips, runs[p]->label);
    if (*w) {
      g_string_append(flips, " (");
      hr_text(flips, runs[pick]->label);
      g_string_append(flips, ": ");
      hr_text(flips, w);
      g_string_append(flips, ")");
    }
  }
  g_free(at);
  if (nflips)
    g_string_append_printf(why, "<p class=\"warn\"><b>The recommendation flips inside the model "
                           "range</b>, at %u of the %u settings with one model constant at an "
                           "end of its interval (run --model-range):%s. Which set-up to choose "
                           "depends on a constant the simulation cannot pin down: measure it on "
                           "your hardware (docs/models.md) before deciding.</p>\n", nflips, m,
                           flips->str);
  else
    g_string_append_printf(why, "<p>The recommendation holds at every one of the %u settings "
                           "with one model constant at an end of its interval (run "
                           "--model-range): the model's uncertainty does not flip it.</p>\n", m);
}

/* hr_rank's order: the pick and the baseline first, then breaking nothing more, then cost. */
typedef struct hr_rank_ctx {
  hr_run *const *runs;
  guint pick;
  gboolean *ok;
} hr_rank_ctx;

static gint hr_rank_cmp(gconstpointer a, gconstpointer b, gpointer user) {
  const hr_rank_ctx *c = user;
  guint i = *(const guint *)a, k = *(const guint *)b;
  int ci = i == 0 ? 0 : i == c->pick ? 1 : c->ok[i] ? 2 : 3;
  int ck = k == 0 ? 0 : k == c->pick ? 1 : c->ok[k] ? 2 : 3;
  if (ci != ck) return ci - ck;
  double mi = hr_month(c->runs[i]), mk = hr_month(c->runs[k]);
  return mi < mk ? -1 : mi > mk ? 1 : (int)i - (int)k;
}

guint *hr_rank(hr_run *const *runs, guint n, guint pick) {
  guint *order = g_new0(guint, n);
  gboolean *ok = g_new0(gboolean, n);
  for (guint i = 0; i < n; i++) {
    order[i] = i;
    g_autofree char *w = i ? hr_breaks_more(runs[0], runs[i]) : g_strdup("");
    ok[i] = !*w;
  }
  hr_rank_ctx c = {runs, pick, ok};
  g_qsort_with_data(order, (gint)n, sizeof(guint), hr_rank_cmp, &c);
  g_free(ok);
  return order;
}
