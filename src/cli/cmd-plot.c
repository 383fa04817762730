/* cmd-plot.c: `sharesim plot DIR... [--format png,svg,pdf] [-o OUTDIR] [--size WxH]`:
 * decides what to draw and where: one result folder (its charts), several (each one's
 * charts and the comparison charts), a compare folder (the same for its runs), a sweep
 * folder (lines across the swept value) or a plan folder (its Pareto fronts). gnuplot is looked up on PATH when the command
 * runs; without it the data and scripts are still written (exit 0, with a warning). The
 * charts themselves are plot.c's. */
#include "cmd.h"
#include "outdir.h"
#include "compare.h"
#include "figures.h"
#include "plot.h"
#include "sweep.h"
#include "util.h"
#include <stdio.h>
#include <string.h>
#include "config.h"

static gboolean plot_has(const char *dir, const char *file) {
  g_autofree char *p = g_build_filename(dir, file, NULL);
  return g_file_test(p, G_FILE_TEST_IS_REGULAR);
}

/* A folder name for a run's charts inside OUTDIR: its label made safe and unique. */
static char *plot_sub_name(GHashTable *taken, const char *label) {
  GString *s = g_string_new(NULL);
  for (const char *p = label; *p && s->len < 56; p++)
    g_string_append_c(s, g_ascii_isalnum(*p) || *p == '.' || *p == '_' || *p == '-' ? *p : '_');
  if (!s->len || s->str[0] == '.' || s->str[0] == '-') g_string_prepend_c(s, 'r');
  char *name = g_strdup(s->str);
  for (guint k = 2; g_hash_table_contains(taken, name); k++) {
    g_free(name);
    name = g_strdup_printf("%s-%u", s->str, k);
  }
  g_string_free(s, TRUE);
  g_hash_table_add(taken, name);
  return g_strdup(name);
}

static gboolean plot_parse_size(const char *text, guint *w, guint *h) {
  guint64 a, b;
  g_auto(GStrv) parts = g_strsplit(text, "x", 3);
  if (g_strv_length(parts) != 2 ||
      !g_ascii_string_to_unsigned(parts[0], 10, PLOT_MIN_SIZE, PLOT_MAX_SIZE, &a, NULL) ||
      !g_ascii_string_to_unsigned(parts[1], 10, PLOT_MIN_SIZE, PLOT_MAX_SIZE, &b, NULL))
    return FALSE;
  *w = (guint)a;
  *h = (guint)b;
  return TRUE;
}

/* Each run's charts (into base/NAME, or into RUN/plots when base is NULL) and, with a
 * base, the comparison charts. */
static gboolean plot_runs(const compare_table *t, const char *base, const plot_options *opt,
                          plot_report *rep, GError **error) {
  /* several runs into one folder: their charts and the comparison, whole or not at all */
  outdir *od = NULL;
  plot_options inner = *opt;
  const char *into = base;
  if (base && t->runs->len > 1) {
    g_autofree char *parent = g_path_get_dirname(base);
    g_mkdir_with_parents(parent, 0755);
    if (!(od = outdir_begin(base, error))) return FALSE;
    into = outdir_tmp_path(od);
    inner.direct = TRUE;
  }
  GHashTable *taken = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  gboolean ok = TRUE;
  for (guint i = 0; ok && i < t->runs->len; i++) {
    const run_figures *f = g_ptr_array_index(t->runs, i);
    g_autofree char *sub = plot_sub_name(taken, g_ptr_array_index(t->names, i));
    g_autofree char *out = into ? g_build_filename(into, sub, NULL)
                                : g_build_filename(f->dir, "plots", NULL);
    ok = plot_run(f->dir, out, &inner, rep, error);
  }
  g_hash_table_destroy(taken);
  if (ok && od)
    ok = plot_compare((const run_figures *const *)t->runs->pdata,
                      (const char *const *)t->names->pdata, t->runs->len, into, &inner, rep, error);
  if (od) {
    plot_report_rebase(rep, into, base);
    if (ok) ok = outdir_commit(od, error);
    else outdir_abort(od);
  }
  return ok;
}

/* Draws the charts of the folders (one result folder, several, a compare, sweep or plan folder)
 * into out, or beside them; *written_to is where they went (NULL: each folder's own). */
static gboolean cmd_plot_draw(int argc, char **argv, const char *out, const plot_options *opt,
                              plot_report *rep, const char **written_to, char **default_out,
                              GError **error) {
  GError *err = NULL;
  gboolean ok = TRUE;
  const char *first = argv[1];
  *written_to = out;
  if (argc == 2 && !plot_has(first, "summary.json") && plot_has(first, "sweep.json")) {
    g_autoptr(sweep_spec) s = sweep_manifest_load(first, &err);
    *default_out = g_build_filename(first, "plots", NULL);
    ok = s && plot_sweep(s, first, out ? out : *default_out, opt, rep, &err);
    if (!out) *written_to = *default_out;
  } else if (argc == 2 && !plot_has(first, "summary.json") &&
             plot_has(first, "validate-scatter.csv")) {
    *default_out = g_build_filename(first, "plots", NULL);
    ok = plot_validate(first, out ? out : *default_out, opt, rep, &err);
    if (!out) *written_to = *default_out;
  } else if (argc == 2 && !plot_has(first, "summary.json") && plot_has(first, "plan.csv")) {
    *default_out = g_build_filename(first, "plots", NULL);
    ok = plot_plan(first, out ? out : *default_out, opt, rep, &err);
    if (!out) *written_to = *default_out;
  } else if (argc == 2 && !plot_has(first, "summary.json") && plot_has(first, "compare.json")) {
    GPtrArray *runs = g_ptr_array_new_with_free_func((GDestroyNotify)figures_free);
    ok = compare_load_dir(first, runs, &err) && runs->len > 0;
    if (ok) {
      g_autoptr(compare_table) t = compare_build(runs);
      *default_out = g_build_filename(first, "plots", NULL);
      ok = plot_runs(t, out ? out : *default_out, opt, rep, &err);
      if (!out) *written_to = *default_out;
    } else {
      g_ptr_array_free(runs, TRUE);
      if (!err)
        g_set_error(&err, SHARESIM_ERROR, SHARESIM_ERROR_INPUT, "%s: compare.json lists no run", first);
    }
  } else {
    GPtrArray *runs = g_ptr_array_new_with_free_func((GDestroyNotify)figures_free);
    for (int i = 1; ok && i < argc; i++) {
      if (!plot_has(argv[i], "summary.json") &&
          (plot_has(argv[i], "sweep.json") || plot_has(argv[i], "compare.json"))) {
        g_autofree char *shown = figures_clean_text(argv[i]);
        g_set_error(&err, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                    "%s is a %s folder: plot it on its own", shown,
                    plot_has(argv[i], "sweep.json") ? "sweep" : "compare");
        ok = FALSE;
        break;
      }
      run_figures *f = figures_load(argv[i], &err);
      if (!f)
        ok = FALSE;
      else
        g_ptr_array_add(runs, f);
    }
    if (!ok) {
      g_ptr_array_free(runs, TRUE);
    } else if (runs->len == 1) {
      const run_figures *f = g_ptr_array_index(runs, 0);
      *default_out = g_build_filename(f->dir, "plots", NULL);
      ok = plot_run(f->dir, out ? out : *default_out, opt, rep, &err);
      if (!out) *written_to = *default_out;
      g_ptr_array_free(runs, TRUE);
    } else {
      g_autoptr(compare_table) t = compare_build(runs);
      ok = plot_runs(t, out, opt, rep, &err);
      if (!out)
        fprintf(stderr, "sharesim plot: note: each folder's charts are in FOLDER/plots/; give "
                        "-o OUTDIR to draw the comparison charts of the %u folders as well\n",
                t->runs->len);
    }
  }
  if (err) g_propagate_error(error, err);
  return ok;
}

/* The images written, the notes, and what to do without gnuplot; the exit code. */
static int cmd_plot_print(const plot_report *rep, const plot_options *opt, const char *written_to) {
  for (guint i = 0; i < rep->images->len; i++)
    printf("%s\n", (const char *)g_ptr_array_index(rep->images, i));
  for (guint i = 0; i < rep->skipped->len; i++)
    fprintf(stderr, "sharesim plot: note: %s\n", (const char *)g_ptr_array_index(rep->skipped, i));
  if (!opt->gnuplot) {
    fprintf(stderr, "sharesim plot: warning: gnuplot not found on PATH: wrote the data and "
                    "scripts only (%u chart%s%s%s); install gnuplot (Debian: gnuplot-nox) and "
                    "run 'gnuplot NAME.gp' in that folder, or run this command again\n",
            rep->scripts->len, rep->scripts->len == 1 ? "" : "s",
            written_to ? " in " : "", written_to ? written_to : "");
  }
  for (guint i = 0; i < rep->failed->len; i++)
    fprintf(stderr, "sharesim plot: %s\n", (const char *)g_ptr_array_index(rep->failed, i));
  return rep->failed->len ? 1 : 0;
}

extern const cmd_entry cmd_plot_entry; /* at the end of this file; its row: cmd.c */

static int cmd_plot_main(int argc, char **argv) {
  g_autofree char *formats = NULL, *out = NULL, *size = NULL;
  GOptionEntry entries[] = {
      {"format", 0, 0, G_OPTION_ARG_STRING, &formats, "Image formats, comma-separated: png, svg, pdf (default png)", "LIST"},
      {"output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Folder for the charts (default: DIR/plots)", "OUTDIR"},
      {"size", 0, 0, G_OPTION_ARG_STRING, &size, "Image size in pixels (default 1000x560)", "WxH"},
      {NULL}};
  int rc;
  if (!cmd_parse_options(&cmd_plot_entry, entries, &argc, &argv, &rc)) return rc;
  if (argc < 2) {
    fprintf(stderr, "sharesim plot: expected one or more result folders\nUsage: sharesim plot %s\n",
            cmd_plot_entry.usage);
    return 2;
  }
  g_autoptr(GError) err = NULL;
  plot_options opt = {.formats = NULL, .width = 1000, .height = 560, .gnuplot = NULL};
  opt.formats = plot_parse_formats(formats ? formats : "png", &err);
  if (!opt.formats) return cmd_fail("plot", err);
  if (size && !plot_parse_size(size, &opt.width, &opt.height)) {
    g_autofree char *shown = figures_clean_text(size);
    fprintf(stderr, "sharesim plot: --size '%s': expected WIDTHxHEIGHT in pixels, each %d to %d "
                    "(e.g. 1000x560)\n", shown, PLOT_MIN_SIZE, PLOT_MAX_SIZE);
    g_strfreev(opt.formats);
    return 2;
  }
  opt.gnuplot = g_find_program_in_path(GNUPLOT_DEFAULT);

  plot_report rep;
  plot_report_init(&rep);
  const char *written_to = NULL;
  g_autofree char *default_out = NULL;
  if (!cmd_plot_draw(argc, argv, out, &opt, &rep, &written_to, &default_out, &err))
    rc = cmd_fail("plot", err);
  else
    rc = cmd_plot_print(&rep, &opt, written_to);
  plot_report_clear(&rep);
  g_strfreev(opt.formats);
  g_free(opt.gnuplot);
  return rc;
}

/* --help names the charts of a result folder, from plot.c's chart table. */
static char *cmd_plot_describe(void) {
  g_autofree char *names = plot_run_chart_names();
  return g_strdup_printf("Charts of a result folder: %s (each when the folder has its data).",
                         names);
}

const cmd_entry cmd_plot_entry = {
    .name = "plot",
    .usage = "DIR... [--format png,svg,pdf] [-o OUTDIR] [--size WxH]",
    .summary = "gnuplot charts from result, compare, sweep or plan folders (data and scripts kept beside)",
    .main = cmd_plot_main,
    .describe = cmd_plot_describe,
};
