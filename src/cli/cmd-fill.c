/* cmd-fill.c: `sharesim fill SCENARIO.yaml TRACE.csv [--inflate F] [--seed S ...]
 * [--policy P ...] [--shuffle] [--pool NAME] [-j N] [-o DIR]`: the FGD paper's fill-up
 * experiment (study/fill.h) for every policy x seed, runs in parallel threads (outputs do
 * not depend on -j), the summary on stdout, the folder written whole. */
#include "cmd.h"
#include "cmd-load.h"
#include "fill.h"
#include "outdir.h"
#include "util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FILL_MAX_RUNS 10000
#define FILL_MAX_INFLATE 10.0


/* Seeds from "42", "42-51" or "1,5,9" (repeatable). FALSE on a bad one. */
static gboolean fill_parse_seeds(char **texts, GArray *out) {
  for (guint i = 0; texts && texts[i]; i++) {
    g_auto(GStrv) parts = g_strsplit(texts[i], ",", -1);
    for (guint k = 0; parts[k]; k++) {
      int64_t a, b;
      char *dash = strchr(parts[k] + (parts[k][0] == '-'), '-');
      if (dash) {
        *dash = 0;
        if (!util_parse_int64(parts[k], &a) || !util_parse_int64(dash + 1, &b) || a < 0 ||
            b < a || b - a >= FILL_MAX_RUNS)
          return FALSE;
      } else if (!util_parse_int64(parts[k], &a) || a < 0) {
        return FALSE;
      } else {
        b = a;
      }
      for (int64_t s = a; s <= b; s++) {
        guint64 v = (guint64)s;
        g_array_append_val(out, v);
      }
    }
  }
  return TRUE;
}

static gboolean fill_parse_policies(char **texts, GArray *out) {
  for (guint i = 0; texts && texts[i]; i++) {
    g_auto(GStrv) parts = g_strsplit(texts[i], ",", -1);
    for (guint k = 0; parts[k]; k++) {
      placement_policy p;
      if (!placement_policy_parse(parts[k], &p)) {
        GString *names = g_string_new(NULL);
        for (guint q = 0; q < scenario_placement_count(); q++)
          g_string_append_printf(names, "%s%s", q ? ", " : "", scenario_placement_get(q)->name);
        fprintf(stderr, "sharesim fill: --policy: expected one of %s, found '%s'\n", names->str,
                parts[k]);
        g_string_free(names, TRUE);
        return FALSE;
      }
      g_array_append_val(out, p);
    }
  }
  return TRUE;
}

static gboolean fill_write_dir(const char *dir, const fill_setup *s, const fill_options *opt,
                               fill_result *const *runs, guint n, gboolean paper,
                               GError **error) {
  outdir *o = outdir_begin(dir, error);
  if (!o) return FALSE;
  enum { F_CSV, F_MEAN, F_GP, F_SUMMARY, F_JSON, F_PAPER, F_COUNT };
  static const char *const names[F_COUNT] = {"fill.csv",     "fill-mean.csv", "fill.gp",
                                             "summary.txt",  "summary.json",  "paper.csv"};
  for (int i = 0; i < F_COUNT; i++) {
    g_autoptr(GString) text = g_string_new(NULL);
    switch (i) {
      case F_CSV: fill_write_csv(text, runs, n); break;
      case F_MEAN: fill_write_mean_csv(text, runs, n); break;
      case F_GP: fill_write_gnuplot(text, runs, n, paper); break;
      case F_SUMMARY: fill_write_summary(text, s, opt, runs, n); break;
      case F_JSON: fill_write_json(text, opt, runs, n); break;
      default:
        if (!paper) continue;
        fill_write_paper_csv(text, runs, n);
    }
    if (!outdir_write(o, names[i], text->str, text->len, error)) {
      outdir_abort(o);
      return FALSE;
    }
  }
  /* the chart, when gnuplot is there (argument vector, in the temporary folder) */
  g_autofree char *gp = g_find_program_in_path("gnuplot");
  if (gp) {
    char *argv[] = {gp, "fill.gp", NULL};
    g_spawn_sync(outdir_tmp_path(o), argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL |
                 G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL, NULL, NULL, NULL);
  }
  return outdir_commit(o, error);
}

extern const cmd_entry cmd_fill_entry; /* at the end of this file; its row: cmd.c */

/* --paper: the paper's set-up where the options leave it open (shuffled arrivals, seeds
 * 42-51), and a warning on stderr for each way the run still differs from the paper's
 * experiment (the comparison is then of different experiments). */
static void fill_paper_setup(GArray *seeds, gboolean *shuffle, double inflate,
                             const trace *tr) {
  *shuffle = TRUE;
  if (!seeds->len)
    for (guint64 k = 0; k < FILL_PAPER_SEEDS; k++)
      g_array_append_val(seeds, (guint64){FILL_PAPER_FIRST_SEED + k});
  guint64 cpu_only = 0;
  for (guint i = 0; i < trace_n_jobs(tr); i++) cpu_only += trace_job(tr, i).gpus == 0;
  if (!cpu_only)
    fprintf(stderr, "sharesim fill: --paper: the trace has no CPU-only pods; the paper's "
                    "experiment keeps them and the never-scheduled ones (import alibaba-openb "
                    "--pods all)\n");
  if (seeds->len != FILL_PAPER_SEEDS ||
      g_array_index(seeds, guint64, 0) != FILL_PAPER_FIRST_SEED)
    fprintf(stderr, "sharesim fill: --paper: the published curves are means over seeds "
                    "42-51; these runs use other seeds\n");
  if (inflate != FILL_PAPER_INFLATE)
    fprintf(stderr, "sharesim fill: --paper: the paper fills to an inflation of 1.3\n");
}

static int cmd_fill_main(int argc, char **argv) {
  g_autofree char *out_dir = NULL, *pool_name = NULL;
  g_auto(GStrv) seed_texts = NULL, policy_texts = NULL;
  double inflate = 1.3;
  gint jobs = 0;
  gboolean shuffle = FALSE, quiet = FALSE, paper = FALSE;
  GOptionEntry entries[] = {
      {"inflate", 0, 0, G_OPTION_ARG_DOUBLE, &inflate, "Arrived GPU share of capacity to reach (default 1.3)", "F"},
      {"seed", 0, 0, G_OPTION_ARG_STRING_ARRAY, &seed_texts, "Seeds: 42, 42-51 or 1,2,3 (repeatable; default 42, with --paper 42-51)", "S"},
      {"policy", 0, 0, G_OPTION_ARG_STRING_ARRAY, &policy_texts, "Placement policies (repeatable or comma-separated; default the FGD paper's six)", "P"},
      {"shuffle", 0, 0, G_OPTION_ARG_NONE, &shuffle, "Shuffle the arrival order (the FGD experiments do; --paper implies it)", NULL},
      {"pool", 0, 0, G_OPTION_ARG_STRING, &pool_name, "Pool to fill (default the first)", "NAME"},
      {"jobs", 'j', 0, G_OPTION_ARG_INT, &jobs, "Runs at a time (default: processors); outputs do not depend on it", "N"},
      {"output", 'o', 0, G_OPTION_ARG_FILENAME, &out_dir, "Write fill.csv, fill-mean.csv, summary and plot into DIR", "DIR"},
      {"paper", 0, 0, G_OPTION_ARG_NONE, &paper, "Compare with the FGD paper's published allocation (openb trace imported with --pods all; exit 1 when off by more than 1 pp); implies --shuffle and, without --seed, seeds 42-51: the paper's set-up; with -o also paper.csv, drawn dashed in fill.png", NULL},
      {"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Do not print the summary", NULL},
      {NULL}};
  int rc;
  if (!cmd_parse_options(&cmd_fill_entry, entries, &argc, &argv, &rc)) return rc;
  if (argc != 3) {
    fprintf(stderr, "sharesim fill: expected SCENARIO.yaml and TRACE.csv, got %d argument%s\n"
                    "Usage: sharesim fill %s\n",
            argc - 1, argc == 2 ? "" : "s", cmd_fill_entry.usage);
    return 2;
  }
  if (!(inflate > 0 && inflate <= FILL_MAX_INFLATE)) {
    fprintf(stderr,
            "sharesim fill: --inflate: expected a share of capacity > 0 and at most %g, "
            "found %g\n", FILL_MAX_INFLATE, inflate);
    return 2;
  }
  if (jobs < 0 || jobs > 1024) {
    fprintf(stderr, "sharesim fill: --jobs: expected 1 to 1024, found %d\n", jobs);
    return 2;
  }
  g_autoptr(GArray) seeds = g_array_new(FALSE, FALSE, sizeof(guint64));
  g_autoptr(GArray) pols = g_array_new(FALSE, FALSE, sizeof(placement_policy));
  if (!fill_parse_seeds(seed_texts, seeds)) {
    fprintf(stderr, "sharesim fill: --seed: expected a seed >= 0, a range A-B or a list A,B,C\n");
    return 2;
  }
  if (!fill_parse_policies(policy_texts, pols)) return 2;
  if (!pols->len)
    g_array_append_vals(pols, fill_paper_policies, FILL_PAPER_POLICIES);
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(scenario) sc = scenario_load(argv[1], d);
  g_autoptr(trace) tr = trace_load_flags(argv[2], TRACE_ALLOW_CPU_ONLY, d);
  if (d->count) return cmd_print_diags("fill", d);
  if (paper) fill_paper_setup(seeds, &shuffle, inflate, tr);
  if (!seeds->len) g_array_append_val(seeds, (guint64){42});
  if ((guint64)seeds->len * pols->len > FILL_MAX_RUNS) {
    fprintf(stderr, "sharesim fill: %u policies x %u seeds is more than %d runs\n", pols->len,
            seeds->len, FILL_MAX_RUNS);
    return 2;
  }
  if (!cmd_check_budget("fill", sc, NULL, FALSE)) return 2; /* the pools' memory */
  int pool = pool_name ? scenario_pool_index(sc, pool_name) : 0;
  if (pool < 0) {
    fprintf(stderr, "sharesim fill: --pool: no pool '%s' in %s\n", pool_name, argv[1]);
    return 2;
  }
  g_autoptr(GError) err = NULL;
  fill_setup *s = fill_setup_new(sc, (guint)pool, tr, &err);
  if (!s) return cmd_fail("fill", err);
  fill_options opt = {.inflate = inflate, .shuffle = shuffle};
  guint n = pols->len * seeds->len;
  guint threads = jobs ? (guint)jobs : MAX(1u, g_get_num_processors());
  fill_result **runs = fill_run_all(s, &opt, (const placement_policy *)pols->data, pols->len,
                                    (const guint64 *)seeds->data, seeds->len, MIN(threads, n));
  rc = 0;
  if (out_dir && !fill_write_dir(out_dir, s, &opt, runs, n, paper, &err)) rc = cmd_fail("fill", err);
  if (!rc && !quiet) {
    g_autoptr(GString) text = g_string_new(NULL);
    fill_write_summary(text, s, &opt, runs, n);
    fwrite(text->str, 1, text->len, stdout);
    if (out_dir) printf("results written to %s/\n", out_dir);
  }
  if (!rc && paper) {
    g_autoptr(GString) text = g_string_new("\ncompared with the FGD paper (openb, 10 seeds):\n");
    if (!fill_paper_compare(runs, n, FILL_PAPER_TOLERANCE_PP, text)) rc = 1;
    fwrite(text->str, 1, text->len, stdout);
  }
  for (guint i = 0; i < n; i++) fill_result_free(runs[i]);
  g_free(runs);
  fill_setup_free(s);
  return rc;
}

const cmd_entry cmd_fill_entry = {
    .loads_scenarios = TRUE,
    .name = "fill",
    .usage = "SCENARIO.yaml TRACE.csv [--inflate F] [--seed S ...] [--policy P ...] [--shuffle] "
             "[--pool NAME] [-j N] [--paper] [-o DIR]",
    .summary = "fill a pool with jobs that never leave, per placement policy (FGD experiment)",
    .main = cmd_fill_main,
};
