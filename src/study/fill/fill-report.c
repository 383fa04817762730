/* fill-report.c: the files of a fill folder from finished runs (fill.h): fill.csv (per run
 * and arrived percent), fill-mean.csv (per policy, mean over seeds), summary.txt,
 * summary.json and the gnuplot script fill.gp. Fixed formatting: same runs, same bytes. */
#include "fill.h"
#include "util.h"
#include <math.h>

static void fill_num(GString *out, double v) { g_string_append_printf(out, "%.4f", v); }

void fill_write_csv(GString *out, fill_result *const *runs, guint n) {
  g_string_append(out, "policy,seed,arrived_pct,alloc_milli_pct,alloc_gpus_pct,frag_milli_pct,"
                       "frag_ratio_pct,unplaced\n");
  for (guint i = 0; i < n; i++)
    for (guint k = 0; k < runs[i]->points->len; k++) {
      const fill_point *p = &g_array_index(runs[i]->points, fill_point, k);
      if (!p->have) continue;
      g_string_append_printf(out, "%s,%" G_GUINT64_FORMAT ",%u,",
                             placement_policy_name(runs[i]->policy), runs[i]->seed, p->pct);
      fill_num(out, p->alloc_milli_pct);
      g_string_append_c(out, ',');
      fill_num(out, p->alloc_gpus_pct);
      g_string_append_c(out, ',');
      fill_num(out, p->frag_milli_pct);
      g_string_append_c(out, ',');
      fill_num(out, p->frag_ratio_pct);
      g_string_append_c(out, ',');
      fill_num(out, p->unplaced);
      g_string_append_c(out, '\n');
    }
}

/* Mean of field f (0 alloc milli, 1 alloc gpus, 2 frag milli, 3 frag ratio, 4 unplaced) at
 * pct over the runs of policy p; NAN when one of them has no value there. */
static double fill_mean_field(fill_result *const *runs, guint n, placement_policy p, guint pct,
                              int f) {
  double sum = 0;
  guint cnt = 0;
  for (guint i = 0; i < n; i++) {
    if (runs[i]->policy != p) continue;
    if (pct >= runs[i]->points->len) return NAN;
    const fill_point *pt = &g_array_index(runs[i]->points, fill_point, pct);
    if (!pt->have) return NAN;
    double v[5] = {pt->alloc_milli_pct, pt->alloc_gpus_pct, pt->frag_milli_pct,
                   pt->frag_ratio_pct, pt->unplaced};
    sum += v[f];
    cnt++;
  }
  return cnt ? sum / cnt : NAN;
}

double fill_mean_alloc(fill_result *const *runs, guint n, placement_policy p, guint pct) {
  return fill_mean_field(runs, n, p, pct, 0);
}

/* The policies present, in table order; *np receives how many. Owned (g_free). */
static placement_policy *fill_policies(fill_result *const *runs, guint n, guint *np) {
  placement_policy *out = g_new0(placement_policy, place_count() + 1);
  guint k = 0;
  for (guint p = 0; p < place_count(); p++)
    for (guint i = 0; i < n; i++)
      if (runs[i]->policy == &place_row(p)->input) {
        out[k++] = runs[i]->policy;
        break;
      }
  *np = k;
  return out;
}

void fill_write_mean_csv(GString *out, fill_result *const *runs, guint n) {
  guint np;
  g_autofree placement_policy *pol = fill_policies(runs, n, &np);
  g_string_append(out, "policy,runs,arrived_pct,alloc_milli_pct,alloc_gpus_pct,frag_milli_pct,"
                       "frag_ratio_pct,unplaced\n");
  guint steps = 0;
  for (guint i = 0; i < n; i++) steps = MAX(steps, runs[i]->points->len);
  for (guint k = 0; k < np; k++) {
    guint nruns = 0;
    for (guint i = 0; i < n; i++) nruns += runs[i]->policy == pol[k];
    for (guint pct = 0; pct < steps; pct++) {
      if (isnan(fill_mean_field(runs, n, pol[k], pct, 0))) continue;
      g_string_append_printf(out, "%s,%u,%u", placement_policy_name(pol[k]), nruns, pct);
      for (int f = 0; f < 5; f++) {
        g_string_append_c(out, ',');
        fill_num(out, fill_mean_field(runs, n, pol[k], pct, f));
      }
      g_string_append_c(out, '\n');
    }
  }
}

typedef struct fill_stat {
  double mean, lo, hi;
} fill_stat;

static fill_stat fill_stat_of(fill_result *const *runs, guint n, placement_policy p, int f) {
  fill_stat s = {0, INFINITY, -INFINITY};
  guint cnt = 0;
  for (guint i = 0; i < n; i++) {
    if (runs[i]->policy != p) continue;
    double v[5] = {runs[i]->final_alloc_milli_pct, runs[i]->final_alloc_gpus_pct,
                   runs[i]->final_frag_milli_pct, runs[i]->final_frag_ratio_pct,
                   (double)runs[i]->n_unplaced};
    s.mean += v[f];
    s.lo = MIN(s.lo, v[f]);
    s.hi = MAX(s.hi, v[f]);
    cnt++;
  }
  if (cnt) s.mean /= cnt;
  return s;
}

void fill_write_summary(GString *out, const fill_setup *s, const fill_options *opt,
                        fill_result *const *runs, guint n) {
  guint np;
  g_autofree placement_policy *pol = fill_policies(runs, n, &np);
  g_string_append_printf(out, "fill: pool %s, %u node%s, %" G_GUINT64_FORMAT " GPU%s; %u trace "
                         "jobs (%u request kinds, %u in the target workload); arrivals %s to "
                         "%.0f %% of GPU capacity\n\n",
                         s->pool->name, s->n_nodes, s->n_nodes == 1 ? "" : "s", s->n_gpus,
                         s->n_gpus == 1 ? "" : "s", s->n_jobs, s->n_types,
                         s->target->items->len, opt->shuffle ? "shuffled" : "in trace order",
                         opt->inflate * 100);
  g_string_append(out, "policy          runs  alloc_milli_%  (min-max)        alloc_gpus_%  "
                       "frag_%  frag_ratio_%  unplaced\n");
  for (guint k = 0; k < np; k++) {
    guint nruns = 0;
    for (guint i = 0; i < n; i++) nruns += runs[i]->policy == pol[k];
    fill_stat a = fill_stat_of(runs, n, pol[k], 0), g = fill_stat_of(runs, n, pol[k], 1);
    fill_stat f = fill_stat_of(runs, n, pol[k], 2), fr = fill_stat_of(runs, n, pol[k], 3);
    fill_stat u = fill_stat_of(runs, n, pol[k], 4);
    g_string_append_printf(out, "%-15s %4u  %13.2f  (%.2f-%.2f)  %12.2f  %6.2f  %12.2f  %8.1f\n",
                           placement_policy_name(pol[k]), nruns, a.mean, a.lo, a.hi, g.mean,
                           f.mean, fr.mean, u.mean);
  }
}

void fill_write_json(GString *out, const fill_options *opt, fill_result *const *runs, guint n) {
  g_string_append_printf(out, "{\n  \"kind\": \"fill\",\n  \"inflate\": %.6g,\n  \"shuffle\": %s,"
                         "\n  \"runs\": [\n", opt->inflate, opt->shuffle ? "true" : "false");
  for (guint i = 0; i < n; i++) {
    const fill_result *r = runs[i];
    g_string_append_printf(out, "    {\"policy\": \"%s\", \"seed\": %" G_GUINT64_FORMAT
                           ", \"arrived\": %u, \"placed\": %u, \"unplaced\": %u, "
                           "\"alloc_milli_pct\": %.4f, \"alloc_gpus_pct\": %.4f, "
                           "\"frag_milli_pct\": %.4f, \"frag_ratio_pct\": %.4f}%s\n",
                           placement_policy_name(r->policy), r->seed, r->n_arrived, r->n_placed,
                           r->n_unplaced, r->final_alloc_milli_pct, r->final_alloc_gpus_pct,
                           r->final_frag_milli_pct, r->final_frag_ratio_pct,
                           i + 1 < n ? "," : "");
  }
  g_string_append(out, "  ]\n}\n");
}

/* The plot commands of one panel: per policy the mean over seeds (solid) and, with paper,
 * the published mean (dashed, same colour). */
static void fill_gnuplot_panel(GString *out, const placement_policy *pol, guint np,
                               gboolean paper) {
  g_string_append(out, "plot ");
  for (guint k = 0; k < np; k++) {
    const char *name = placement_policy_name(pol[k]);
    g_string_append_printf(out, "%s'fill-mean.csv' using (strcol(1) eq '%s' ? $3 : 1/0):4 skip 1 "
                           "with lines lw 2 lc %u title '%s'", k ? ", \\\n     " : "", name,
                           k + 1, name);
    if (paper && fill_paper_label(pol[k]))
      g_string_append_printf(out, ", \\\n     'paper.csv' using (strcol(1) eq '%s' ? $3 : 1/0)"
                             ":4 skip 1 with lines lw 2 dt 2 lc %u title '%s (paper)'", name,
                             k + 1, fill_paper_label(pol[k]));
  }
  g_string_append(out, "\n");
}

void fill_write_gnuplot(GString *out, fill_result *const *runs, guint n, gboolean paper) {
  guint np;
  g_autofree placement_policy *pol = fill_policies(runs, n, &np);
  g_string_append_printf(
      out,
      "# fill.gp: GPU allocation against arrived workload, one line per policy\n"
      "# (mean over seeds, from fill-mean.csv%s). Draw again with: gnuplot fill.gp\n"
      "set terminal pngcairo size %s\nset output 'fill.png'\n"
      "set datafile separator ','\nset key left top\nset grid\n"
      "set xlabel 'arrived workload (%% of GPU capacity)'\n"
      "set ylabel 'GPU allocation (%% of milli-GPU capacity)'\n",
      paper ? "; dashed: the FGD paper's published means, paper.csv" : "",
      paper ? "1400,600" : "900,600");
  if (!paper) {
    g_string_append(out, "set title 'sharesim fill'\n");
    fill_gnuplot_panel(out, pol, np, FALSE);
    return;
  }
  g_string_append(out, "set multiplot layout 1,2 title 'sharesim fill (solid) and the FGD "
                       "paper, analysis\\_allo\\_discrete.csv (dashed)'\n"
                       "set title 'arrived 0-130 %'\nset xrange [0:130]\n");
  fill_gnuplot_panel(out, pol, np, TRUE);
  g_string_append(out, "set title 'arrived 80-130 %'\nunset key\n"
                       "set xrange [80:130]\nset yrange [78:97]\n");
  fill_gnuplot_panel(out, pol, np, TRUE);
  g_string_append(out, "unset multiplot\n");
}
