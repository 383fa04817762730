/* fuzz-results.c: the result-folder readers of compare and plot on a folder whose files
 * are the input's parts (split at "--8<--"): summary.json, services.csv, pools.csv,
 * timeseries.csv, gpus.csv, jobs.csv, tenants.csv, latency.csv. The figures are read
 * (figures_load), compared with themselves (all three formats) and plotted without
 * gnuplot (data and scripts only). */
#include "fuzz.h"
#include "figures.h"
#include "compare.h"
#include "plot.h"
#include "safeopen.h"

static const char *const fuzz_results_files[] = {
    "summary.json", "services.csv", "pools.csv", "timeseries.csv",
    "gpus.csv",     "jobs.csv",     "tenants.csv", "latency.csv"};

static void fuzz_results_compare(run_figures *f, const char *dir) {
  GError *err = NULL;
  run_figures *g = figures_load(dir, &err);
  g_clear_error(&err);
  if (!g) return;
  GPtrArray *runs = g_ptr_array_new(); /* compare_free frees it and the runs */
  g_ptr_array_add(runs, f);
  g_ptr_array_add(runs, g);
  compare_table *t = compare_build(runs);
  GString *out = g_string_new(NULL);
  compare_text(t, FALSE, out);
  compare_csv(t, out);
  compare_json(t, out);
  g_string_free(out, TRUE);
  compare_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const uint8_t *part[8];
  size_t len[8];
  size_t n = fuzz_split(data, size, part, len, 8);
  char *dir = g_build_filename(fuzz_dir(), "run", NULL);
  for (size_t i = 0; i < 8; i++) {
    g_autofree char *name = g_build_filename("run", fuzz_results_files[i], NULL);
    g_autofree char *p = fuzz_write(name, part[i], len[i]);
    if (i >= n) g_unlink(p); /* a part not given: the file is absent */
  }
  GError *err = NULL;
  run_figures *f = figures_load(dir, &err);
  g_clear_error(&err);
  if (f) {
    figures_sort(f);
    const char *worst = NULL;
    figures_min_attainment(f, NULL, &worst);
    fuzz_results_compare(f, dir);
    g_autofree char *out = g_build_filename(fuzz_dir(), "plots", NULL);
    char *formats[] = {"png", NULL};
    plot_options opt = {.formats = formats, .width = 640, .height = 480, .gnuplot = NULL};
    plot_report rep;
    plot_report_init(&rep);
    plot_run(dir, out, &opt, &rep, &err);
    g_clear_error(&err);
    plot_report_clear(&rep);
  }
  g_free(dir);
  /* the parts not given were removed, so each input's files are new ones: forget them (a
   * set that grew by a file per input made every input look like a leak to libFuzzer,
   * whose leak check then ran on most inputs) */
  safeopen_forget_inputs();
  return 0;
}
