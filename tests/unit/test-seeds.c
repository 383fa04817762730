/* test-seeds.c: the statistics of --seeds (seeds.h) against values worked out by hand and
 * with Student's t quantiles from the printed tables (or, for Welch's fractional degrees of
 * freedom, a numerical integration of the t density, not GSL): mean, standard deviation,
 * interval, values left out, Welch's interval and its verdict, the mean run. */
#include <criterion/criterion.h>
#include <math.h>
#include "figures.h"
#include "seeds.h"

#define NEAR(a, b, tol) cr_assert(fabs((a) - (b)) <= (tol), "%.12g != %.12g", (double)(a), (double)(b))

Test(seeds, t_quantiles_are_the_tables) {
  NEAR(seeds_t_quantile(1), 12.706204736, 1e-8);
  NEAR(seeds_t_quantile(4), 2.776445105, 1e-8);
  NEAR(seeds_t_quantile(9), 2.262157163, 1e-8);
  NEAR(seeds_t_quantile(29), 2.045229642, 1e-8);
  cr_assert(isnan(seeds_t_quantile(0)));
  cr_assert(isnan(seeds_t_quantile(NAN)));
}

Test(seeds, interval_of_one_to_five) {
  const double v[] = {1, 2, 3, 4, 5};
  seeds_stat s;
  seeds_stat_of(v, 5, &s);
  cr_assert_eq(s.n, 5);
  NEAR(s.mean, 3, 1e-12);
  NEAR(s.sd, sqrt(2.5), 1e-12);                      /* sum of squares 10 over 4 */
  NEAR(s.half, 2.776445105 * sqrt(2.5) / sqrt(5.0), 1e-8);
  NEAR(s.lo, 3 - s.half, 1e-12);
  NEAR(s.hi, 3 + s.half, 1e-12);
  NEAR(s.min, 1, 0);
  NEAR(s.max, 5, 0);
}

Test(seeds, missing_values_are_left_out) {
  const double v[] = {1, NAN, 3, INFINITY};
  seeds_stat s;
  seeds_stat_of(v, 4, &s);
  cr_assert_eq(s.n, 2);
  NEAR(s.mean, 2, 1e-12);
  NEAR(s.sd, sqrt(2.0), 1e-12);
  NEAR(s.half, 12.706204736, 1e-8);                  /* t(0.975, 1) sqrt(2) / sqrt(2) */
  const double one[] = {7};
  seeds_stat_of(one, 1, &s);
  cr_assert_eq(s.n, 1);
  NEAR(s.mean, 7, 0);
  cr_assert(isnan(s.sd) && isnan(s.half) && isnan(s.lo));
  seeds_stat_of(one, 0, &s);
  cr_assert(s.n == 0 && isnan(s.mean) && isnan(s.min));
}

Test(seeds, welch_interval_by_hand) {
  /* a: mean 3, variance 2.5, n 5; b: mean 12, variance 4, n 3. se^2 = 0.5 + 4/3, Welch
   * df = se^4 / (0.5^2 / 4 + (4/3)^2 / 2) = 3.5328467; t(0.975, 3.5328) = 2.9274053 by
   * integrating the t density numerically */
  const double a[] = {1, 2, 3, 4, 5}, b[] = {10, 12, 14};
  seeds_stat sa, sb;
  seeds_stat_of(a, 5, &sa);
  seeds_stat_of(b, 3, &sb);
  double lo, hi;
  cr_assert(seeds_welch(&sa, &sb, &lo, &hi));
  NEAR(lo, 5.0362744778, 1e-6);
  NEAR(hi, 12.9637255222, 1e-6);
  /* the other way round: the same interval negated */
  cr_assert(seeds_welch(&sb, &sa, &lo, &hi));
  NEAR(hi, -5.0362744778, 1e-6);
}

Test(seeds, welch_verdicts) {
  const double a[] = {10, 11, 9, 10}, b[] = {10.5, 9.5, 11, 10}, c[] = {3, 3, 3}, d[] = {4, 4, 4};
  seeds_stat sa, sb, sc, sd;
  seeds_stat_of(a, 4, &sa);
  seeds_stat_of(b, 4, &sb);
  seeds_stat_of(c, 3, &sc);
  seeds_stat_of(d, 3, &sd);
  double lo, hi;
  cr_assert_not(seeds_welch(&sa, &sb, &lo, &hi), "overlapping noise is not significant");
  cr_assert(lo < 0 && hi > 0);
  cr_assert(seeds_welch(&sc, &sd, &lo, &hi), "a constant difference is certain");
  NEAR(lo, 1, 0);
  NEAR(hi, 1, 0);
  cr_assert_not(seeds_welch(&sc, &sc, &lo, &hi), "no difference at all");
  seeds_stat one;
  seeds_stat_of(a, 1, &one);
  cr_assert_not(seeds_welch(&one, &sd, &lo, &hi), "one seed cannot tell");
  cr_assert(isnan(lo) && isnan(hi));
}

static run_figures *seeds_run(guint64 seed, double oom, double busy) {
  g_autofree char *json = g_strdup_printf(
      "{\"scenario\": \"s\", \"seed\": %" G_GUINT64_FORMAT ", \"span_s\": 86400, \"totals\": "
      "{\"oom_kills\": %g, \"busy_frac\": %g, \"cost\": 100}}", seed, oom, busy);
  g_autofree char *dir = g_strdup_printf("seed-%" G_GUINT64_FORMAT, seed);
  run_figures *f = figures_parse(dir, json, strlen(json), NULL);
  cr_assert_not_null(f);
  return f;
}

Test(seeds, table_and_mean_run) {
  GPtrArray *runs = g_ptr_array_new();
  g_ptr_array_add(runs, seeds_run(4, 10, 0.2));
  g_ptr_array_add(runs, seeds_run(5, 14, 0.4));
  g_ptr_array_add(runs, seeds_run(6, 12, 0.3));
  g_autoptr(run_figures) m = seeds_mean(runs, "mean");
  NEAR(figures_value(m, "oom_kills"), 12, 1e-12);
  NEAR(figures_value(m, "busy_frac"), 0.3, 1e-12);
  cr_assert_str_eq(m->dir, "mean");
  g_autoptr(seeds_table) t = seeds_build(runs);
  GString *csv = g_string_new(NULL);
  seeds_csv(t, csv);
  /* oom 10, 14, 12: sd 2, half t(0.975, 2) 2 / sqrt 3 = 4.3026527 * 1.1547005 = 4.9682758 */
  cr_assert(strstr(csv->str, "faults,oom_kills,OOM kills,count,3,12,2,7.03172,16.9683,10,14,10,14,12\n"),
            "%s", csv->str);
  cr_assert(g_str_has_prefix(csv->str, "section,key,figure,unit,n,mean,sd,ci95_low,ci95_high,min,max,"
                                       "seed:4,seed:5,seed:6\n"));
  GString *text = g_string_new(NULL);
  seeds_text(t, text);
  cr_assert(strstr(text->str, "3 seeds (4 to 6)"), "%s", text->str);
  cr_assert(strstr(text->str, "7.032 .. 16.97"), "%s", text->str);
  GString *json = g_string_new(NULL);
  seeds_json(t, json);
  cr_assert(strstr(json->str, "\"folders\": [\"seed-4\", \"seed-5\", \"seed-6\"]"), "%s", json->str);
  g_string_free(csv, TRUE);
  g_string_free(text, TRUE);
  g_string_free(json, TRUE);
}
