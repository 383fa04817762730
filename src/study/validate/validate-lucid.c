/* validate-lucid.c: Lucid's 1,388 measured pairs of single-GPU training jobs sharing one GPU
 * (S-Lab-System-Group/Lucid colocate_info.csv and single_data.csv), both members of every
 * pair, through the simulator: each pair on its own time-sliced GPU, each job carrying its
 * measured solo GPU utilisation in the trace's gpu_util column. Skipped when the files are
 * absent. Compares the error distribution with the targets and with trivial predictors, over
 * all pairs and over the odd-numbered ones alone (the curve's exponent is fitted on the
 * even-numbered pairs: docs/models.md). */
#include "validate.h"
#include "trace.h"
#include "csvread.h"
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define L_SOURCE "Lucid ASPLOS'23 co-location profile (1,388 pairs; S-Lab-System-Group/Lucid @63685a3a)"

typedef struct lucid_pair {
  double u1, u2, s1, s2;
  double both; /* the GPU's utilisation measured while the two ran (nvidia-smi, fraction) */
} lucid_pair;

typedef struct lucid_read {
  GHashTable *util;  /* "model|dataset|batch|amp" -> double* (fraction) */
  GArray *pairs;     /* lucid_pair */
  gboolean bad;
} lucid_read;

static gboolean lucid_single_row(const csvread_row *row, void *ud) {
  lucid_read *r = ud;
  if (row->header || row->error || row->n < 6) return TRUE;
  double *u = g_new(double, 1);
  *u = g_ascii_strtod(row->cells[5], NULL) / 100.0;
  g_hash_table_insert(r->util,
                      g_strdup_printf("%s|%s|%s|%s", row->cells[0], row->cells[1], row->cells[2],
                                      row->cells[3]),
                      u);
  return TRUE;
}

/* colocate_info.csv: index, model1, dataset1, gpu_num1, batchsize1, amp1, speed1, model2,
 * dataset2, gpu_num2, batchsize2, amp2, speed2, gpu_util (%), ... */
static gboolean lucid_pair_row(const csvread_row *row, void *ud) {
  lucid_read *r = ud;
  if (row->header || row->error) return TRUE;
  if (row->n < 14) {
    r->bad = TRUE;
    return FALSE;
  }
  const char *const *f = row->cells;
  g_autofree char *k1 = g_strdup_printf("%s|%s|%s|%s", f[1], f[2], f[4], f[5]);
  g_autofree char *k2 = g_strdup_printf("%s|%s|%s|%s", f[7], f[8], f[10], f[11]);
  const double *u1 = g_hash_table_lookup(r->util, k1), *u2 = g_hash_table_lookup(r->util, k2);
  if (!u1 || !u2) {
    r->bad = TRUE;
    return FALSE;
  }
  lucid_pair p = {*u1, *u2, g_ascii_strtod(f[6], NULL), g_ascii_strtod(f[12], NULL),
                  g_ascii_strtod(f[13], NULL) / 100.0};
  g_array_append_val(r->pairs, p);
  return TRUE;
}

/* Median and p90 of |pred - meas|. */
static void lucid_errors(const double *pred, const double *meas, guint n, double *med, double *p90) {
  double *e = g_new(double, n);
  for (guint i = 0; i < n; i++) e[i] = fabs(pred[i] - meas[i]);
  gsl_sort(e, 1, n);
  *med = gsl_stats_quantile_from_sorted_data(e, 1, n, 0.5);
  *p90 = gsl_stats_quantile_from_sorted_data(e, 1, n, 0.9);
  g_free(e);
}

/* The constants from 0.5 to 1 (step 0.001) with the smallest median and p90 errors. */
static void lucid_best_constant(const double *meas, guint n, double *best_med, double *best_p90) {
  double *k = g_new(double, n);
  *best_med = *best_p90 = INFINITY;
  for (int i = 500; i <= 1000; i++) {
    for (guint j = 0; j < n; j++) k[j] = i / 1000.0;
    double m, p;
    lucid_errors(k, meas, n, &m, &p);
    *best_med = MIN(*best_med, m);
    *best_p90 = MIN(*best_p90, p);
  }
  g_free(k);
}

static char *lucid_trace(const GArray *pairs) {
  GString *s = g_string_new("id,submit_s,kind,gpus,mem_gb,duration_s,gpu_util\n");
  for (guint i = 0; i < pairs->len; i++) {
    const lucid_pair *p = &g_array_index(pairs, lucid_pair, i);
    /* a solo utilisation of 0 (not measurable) is kept as the smallest valid value */
    g_string_append_printf(s, "p%04ua,0,training,1,1,1000000,%.5f\n", i, MAX(p->u1, 1e-5));
    g_string_append_printf(s, "p%04ub,0,training,1,1,1000000,%.5f\n", i, MAX(p->u2, 1e-5));
  }
  return g_string_free(s, FALSE);
}

static gboolean lucid_load(validate_ctx *c, GArray *pairs) {
  g_autofree char *dir = g_build_filename(c->traces_dir, "lucid-asplos23", NULL);
  g_autofree char *single = g_build_filename(dir, "single_data.csv", NULL);
  g_autofree char *coloc = g_build_filename(dir, "colocate_info.csv", NULL);
  if (!g_file_test(single, G_FILE_TEST_IS_REGULAR) || !g_file_test(coloc, G_FILE_TEST_IS_REGULAR))
    return FALSE;
  lucid_read r = {g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free), pairs, FALSE};
  g_autoptr(diag_list) d = diag_list_new(0);
  gboolean ok = csvread_foreach(single, 0, lucid_single_row, &r, d) &&
                csvread_foreach(coloc, 0, lucid_pair_row, &r, d) && !r.bad && pairs->len > 0;
  g_hash_table_destroy(r.util);
  return ok;
}

/* Simulated speeds of both members of every pair (work done / time resident) and the busy
 * share of each pair's GPU (busy / allocated time). */
static gboolean lucid_simulate(validate_ctx *c, const GArray *pairs, double *pred, double *busy,
                               GError **error) {
  g_autofree char *yaml = g_strdup_printf(
      "name: lucid\nseed: 1\nhorizon: 1000s\npools:\n  - name: p\n    gpu: A100-40GB\n"
      "    nodes: %u\n    gpus_per_node: 1\n    strategy: time-slicing\n    replicas: 2\n",
      pairs->len);
  g_autofree char *csv = lucid_trace(pairs);
  results *r = validate_sim(c, "lucid", yaml, csv, NULL, error);
  if (!r) return FALSE;
  for (guint i = 0; i < pairs->len; i++) {
    char a[16], b[16];
    g_snprintf(a, sizeof a, "p%04ua", i);
    g_snprintf(b, sizeof b, "p%04ub", i);
    const job_result *ja = validate_job(r, a), *jb = validate_job(r, b);
    /* the two members of a pair must share one GPU, as measured */
    g_assert(ja->gpu_ids && jb->gpu_ids && !strcmp(ja->gpu_ids, jb->gpu_ids));
    pred[2 * i] = ja->work_done_s / ja->run_s;
    pred[2 * i + 1] = jb->work_done_s / jb->run_s;
    guint node = G_MAXUINT, idx = G_MAXUINT;
    int got = sscanf(ja->gpu_ids, "p/n%u/g%u", &node, &idx);
    g_assert(got == 2 && node < r->gpus->len);
    const gpu_result *g = &g_array_index(r->gpus, gpu_result, node);
    g_assert(g->node == node && g->allocated_s > 0);
    busy[i] = g->busy_s / g->allocated_s;
  }
  results_free(r);
  return TRUE;
}

/* Median measured and predicted speed of the jobs whose pair's solo utilisations sum to
 * [lo, hi), over the pairs whose index has parity `odd` (-1: every pair). */
static void lucid_band(validate_ctx *c, const GArray *pairs, const double *pred, const double *meas,
                       int odd, double lo, double hi, const char *id, const char *what) {
  GArray *m = g_array_new(FALSE, FALSE, sizeof(double)), *p = g_array_new(FALSE, FALSE, sizeof(double));
  for (guint i = 0; i < pairs->len; i++) {
    const lucid_pair *q = &g_array_index(pairs, lucid_pair, i);
    double u = q->u1 + q->u2;
    if (u < lo || u >= hi || (odd >= 0 && (int)(i % 2) != odd)) continue;
    for (int k = 0; k < 2; k++) {
      g_array_append_val(m, meas[2 * i + k]);
      g_array_append_val(p, pred[2 * i + k]);
    }
  }
  gsl_sort((double *)m->data, 1, m->len);
  gsl_sort((double *)p->data, 1, p->len);
  validate_abs(c, id, L_SOURCE, what, gsl_stats_median_from_sorted_data((double *)m->data, 1, m->len),
               gsl_stats_median_from_sorted_data((double *)p->data, 1, p->len), 0.05);
  g_array_unref(m);
  g_array_unref(p);
}

/* The held-out half: the odd-numbered pairs (the curve's exponent q was fitted on the even
 * ones), their errors against the best constants of that half. */
static void lucid_held_out(validate_ctx *c, const GArray *pairs, const double *pred, const double *meas) {
  guint n = 0, half = pairs->len / 2;
  double *hp = g_new(double, 2 * half), *hm = g_new(double, 2 * half);
  for (guint i = 1; i < pairs->len; i += 2)
    for (int k = 0; k < 2; k++) {
      hp[n] = pred[2 * i + k];
      hm[n++] = meas[2 * i + k];
    }
  double med, p90, best_med, best_p90;
  lucid_errors(hp, hm, n, &med, &p90);
  lucid_best_constant(hm, n, &best_med, &best_p90);
  validate_set_kind(c, VALIDATE_PREDICTION); /* q was fitted on the even pairs only */
  validate_bound(c, "lucid.odd.median_vs_constant", L_SOURCE, "odd pairs (held out): median |error| below their best constant", best_med, med, TRUE);
  validate_bound(c, "lucid.odd.p90_vs_constant", L_SOURCE, "odd pairs (held out): p90 |error| below their best constant", best_p90, p90, TRUE);
  lucid_band(c, pairs, pred, meas, 1, 1.5, 10, "lucid.odd.speed_sum_above_1.5", "odd pairs (held out): median speed, solo sum >= 150 %");
  g_free(hp);
  g_free(hm);
}

/* The GPU's busy share of each pair (the simulator's busy gauge: busy periods independent)
 * against the utilisation measured while both ran, and the same for busy periods that
 * interleave, min(1, u1 + u2): a check of the overlap the curve assumes, on a column the fit
 * does not use. */
static void lucid_busy_row(validate_ctx *c, const GArray *pairs, const double *busy) {
  guint n = pairs->len;
  double *meas = g_new(double, n), *inter = g_new(double, n), med, p90, inter_med, inter_p90;
  for (guint i = 0; i < n; i++) {
    const lucid_pair *q = &g_array_index(pairs, lucid_pair, i);
    meas[i] = q->both;
    inter[i] = MIN(1.0, q->u1 + q->u2);
  }
  lucid_errors(busy, meas, n, &med, &p90);
  lucid_errors(inter, meas, n, &inter_med, &inter_p90);
  validate_set_kind(c, VALIDATE_PREDICTION); /* no constant was fitted on the busy share */
  validate_bound(c, "lucid.pair_busy_error", L_SOURCE,
                 "median |GPU busy - utilisation measured with both|, below interleaved min(1, u1 + u2)",
                 inter_med, med, TRUE);
  g_free(meas);
  g_free(inter);
}

static void lucid_rows(validate_ctx *c, const GArray *pairs, const double *pred, const double *meas) {
  guint n = 2 * pairs->len;
  double med, p90, none_med, none_p90, best_med, best_p90;
  lucid_errors(pred, meas, n, &med, &p90);
  double *one = g_new(double, n);
  for (guint i = 0; i < n; i++) one[i] = 1.0;
  lucid_errors(one, meas, n, &none_med, &none_p90);
  g_free(one);
  lucid_best_constant(meas, n, &best_med, &best_p90);
  /* every pair, the even ones q was fitted on included: in sample */
  validate_set_kind(c, VALIDATE_CALIBRATION);
  validate_bound(c, "lucid.median_error", L_SOURCE, "median |speed error|, both jobs of each pair, time-sliced", 0.06, med, FALSE);
  validate_bound(c, "lucid.p90_error", L_SOURCE, "p90 |speed error|, both jobs of each pair, time-sliced", 0.18, p90, FALSE);
  validate_bound(c, "lucid.median_vs_none", L_SOURCE, "median |error| below predicting no slowdown", none_med, med, TRUE);
  validate_bound(c, "lucid.p90_vs_none", L_SOURCE, "p90 |error| below predicting no slowdown", none_p90, p90, TRUE);
  validate_bound(c, "lucid.median_vs_constant", L_SOURCE, "median |error| below the best constant speed", best_med, med, TRUE);
  validate_bound(c, "lucid.p90_vs_constant", L_SOURCE, "p90 |error| below the best constant speed", best_p90, p90, TRUE);
  lucid_band(c, pairs, pred, meas, -1, 0, 1, "lucid.speed_sum_below_1", "median speed, pairs whose solo utilisations sum < 100 %");
  lucid_band(c, pairs, pred, meas, -1, 1, 1.5, "lucid.speed_sum_1_to_1.5", "median speed, sum of solo utilisations 100-150 %");
  lucid_band(c, pairs, pred, meas, -1, 1.5, 10, "lucid.speed_sum_above_1.5", "median speed, sum of solo utilisations >= 150 %");
  lucid_held_out(c, pairs, pred, meas);
  for (guint i = 0; i < n; i++)
    g_string_append_printf(c->scatter, "lucid,p%04u%c,%.6g,%.6g\n", i / 2, i % 2 ? 'b' : 'a', meas[i], pred[i]);
}

/* The family's rows, in order, for the table without the pairs. */
static const struct {
  const char *id, *what;
  gboolean held_out; /* a prediction: nothing was fitted on it */
} lucid_ids[] = {
    {"lucid.median_error", "median |speed error|, both jobs of each pair, time-sliced", FALSE},
    {"lucid.p90_error", "p90 |speed error|, both jobs of each pair, time-sliced", FALSE},
    {"lucid.median_vs_none", "median |error| below predicting no slowdown", FALSE},
    {"lucid.p90_vs_none", "p90 |error| below predicting no slowdown", FALSE},
    {"lucid.median_vs_constant", "median |error| below the best constant speed", FALSE},
    {"lucid.p90_vs_constant", "p90 |error| below the best constant speed", FALSE},
    {"lucid.speed_sum_below_1", "median speed, pairs whose solo utilisations sum < 100 %", FALSE},
    {"lucid.speed_sum_1_to_1.5", "median speed, sum of solo utilisations 100-150 %", FALSE},
    {"lucid.speed_sum_above_1.5", "median speed, sum of solo utilisations >= 150 %", FALSE},
    {"lucid.odd.median_vs_constant", "odd pairs (held out): median |error| below their best constant", TRUE},
    {"lucid.odd.p90_vs_constant", "odd pairs (held out): p90 |error| below their best constant", TRUE},
    {"lucid.odd.speed_sum_above_1.5", "odd pairs (held out): median speed, solo sum >= 150 %", TRUE},
    {"lucid.pair_busy_error", "median |GPU busy - utilisation measured with both|, below interleaved min(1, u1 + u2)", TRUE},
};

static gboolean lucid_family(validate_ctx *c, GError **error) {
  GArray *pairs = g_array_new(FALSE, FALSE, sizeof(lucid_pair));
  if (!lucid_load(c, pairs)) {
    g_autofree char *why = g_strdup_printf("skipped: %s/lucid-asplos23 absent or unreadable", c->traces_dir);
    /* every row, skipped, so that the table (and the fits that name its rows) is whole */
    for (gsize i = 0; i < G_N_ELEMENTS(lucid_ids); i++) {
      validate_set_kind(c, lucid_ids[i].held_out ? VALIDATE_PREDICTION : VALIDATE_CALIBRATION);
      validate_skip(c, lucid_ids[i].id, L_SOURCE, lucid_ids[i].what, why);
    }
    g_array_unref(pairs);
    return TRUE;
  }
  guint n = 2 * pairs->len;
  double *pred = g_new(double, n), *meas = g_new(double, n), *busy = g_new(double, pairs->len);
  for (guint i = 0; i < pairs->len; i++) {
    meas[2 * i] = g_array_index(pairs, lucid_pair, i).s1;
    meas[2 * i + 1] = g_array_index(pairs, lucid_pair, i).s2;
  }
  gboolean ok = lucid_simulate(c, pairs, pred, busy, error);
  if (ok) {
    lucid_rows(c, pairs, pred, meas);
    lucid_busy_row(c, pairs, busy);
  }
  g_free(busy);
  g_free(pred);
  g_free(meas);
  g_array_unref(pairs);
  return ok;
}

const validate_family validate_lucid_family = {
    .name = "lucid",
    .summary = "Lucid's 1,388 training pairs on time-sliced GPUs, solo utilisations in the trace",
    .run = lucid_family,
};
