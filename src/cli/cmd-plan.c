/* cmd-plan.c: `sharesim plan SCENARIO.yaml TRACE.csv [-j N] [--seeds N] [--model-range]
 * [-o DIR] [--exhaustive]`: the cheapest set-up meeting the scenario's `requirements:` with what
 * `purchase:` allows. It loads the inputs, runs the search (src/study/studies/plan*.c) in a
 * scratch folder, runs the recommended scenario once more as a whole, and writes plan.txt,
 * plan.csv, probes.csv, pareto.csv, scenario.yaml and recommended/ under -o DIR, keeping
 * DIR.journal meanwhile so that an interrupted plan resumes. Exit 3: no set-up. */
#include "cmd.h"
#include "cmd-load.h"
#include "cmd-seeds.h"
#include "cmd-sql.h"
#include "modelrange.h"
#include "outdir.h"
#include "plan.h"
#include "sim.h"
#include "studydir.h"
#include "studyrun.h"
#include "util.h"
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

/* The exit code when no set-up within the purchase limits meets the constraints. */
#define PLAN_EXIT_NONE 3

typedef struct plan_args {
  char *out, *seeds, *sqlite;
  gint jobs;
  guint n_seeds;
  gboolean exhaustive, no_progress, model_range;
} plan_args;

/* The recommended scenario written into dir as scenario.yaml (its text into *yaml) and
 * run on tr into dir/recommended; its figures. NULL without error when some class has no
 * set-up; NULL with error when it could not be written or run. */
static run_figures *plan_run_joined(const plan *p, const trace *tr, const char *dir,
                                    const char *final_dir, char **yaml, GError **error) {
  guint n = p->classes->len;
  g_autofree guint32 *nodes = g_new0(guint32, n);
  for (guint ci = 0; ci < n; ci++) {
    guint bi = g_array_index(p->best, guint, ci);
    if (bi == G_MAXUINT) return NULL;
    nodes[ci] = g_array_index(p->cands, plan_candidate, bi).answer;
  }
  g_autofree char *name = g_strdup_printf("%.58s-plan", p->sc->name);
  *yaml = plan_scenario_text(p, (const guint *)(void *)p->best->data, nodes, name, p->sc->seed,
                             FALSE);
  g_autofree char *path = g_build_filename(dir, "scenario.yaml", NULL);
  g_autofree char *run_dir = g_build_filename(dir, "recommended", NULL);
  if (!g_file_set_contents(path, *yaml, -1, error)) return NULL;
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(scenario) sc = scenario_load(path, d);
  if (sc) sim_check_scenario(sc, d);
  if (!sc || diag_has_errors(d)) {
    diag_to_error(d, error);
    return NULL;
  }
  if (final_dir) { /* recorded as the path `sharesim run DIR/scenario.yaml` will give */
    g_free(sc->path);
    sc->path = g_build_filename(final_dir, "scenario.yaml", NULL);
  }
  studyrun_pool *pool = studyrun_pool_new(1, FALSE, "plan");
  studyrun_task *t = studyrun_task_new(sc, tr, run_dir, 0);
  studyrun_submit(pool, t);
  t = studyrun_wait(pool);
  run_figures *f = g_steal_pointer(&t->fig);
  if (!f) g_propagate_error(error, g_steal_pointer(&t->error));
  studyrun_task_free(t);
  studyrun_pool_free(pool);
  return f;
}

/* The files of a plan: plan.txt, plan.csv, probes.csv, pareto.csv. */
typedef struct plan_files {
  GString *text, *csv, *probes, *pareto;
} plan_files;

/* The search and its files into work (od's temporary, or a scratch folder). 0, 2 (input),
 * 1 (runtime) or PLAN_EXIT_NONE. fl receives the files. */
static int plan_study(plan *p, const trace *tr, const char *work, const char *final_dir,
                      const plan_files *fl) {
  g_autoptr(GError) err = NULL;
  g_autofree char *scratch = outdir_make_scratch("sharesim-plan", &err);
  if (!scratch) return cmd_fail("plan", err);
  p->work = scratch;
  int rc = 0;
  if (!plan_base(p, &err) || !plan_classes(p, tr, &err)) rc = cmd_fail("plan", err);
  if (rc == 0) {
    plan_candidates(p);
    if (!plan_search(p, &err)) rc = cmd_fail("plan", err);
  }
  g_autofree char *yaml = NULL;
  g_autoptr(run_figures) joined = NULL;
  if (rc == 0) {
    joined = plan_run_joined(p, tr, work, final_dir, &yaml, &err);
    if (err) rc = cmd_fail("plan", err);
    else if (!joined) rc = PLAN_EXIT_NONE;
  }
  if (rc == 0 || rc == PLAN_EXIT_NONE) {
    plan_report(p, joined, fl->text, fl->csv, fl->probes);
    plan_pareto(p, fl->pareto);
  }
  if (rc == 0 && !plan_nvidia_write(p, work, fl->text, &err)) rc = cmd_fail("plan", err);
  outdir_remove_scratch(scratch);
  p->work = NULL;
  return rc;
}

/* Writes the files into od and commits it to out; prints the text. */
static int plan_publish(outdir *od, const char *out, const plan_files *fl) {
  g_autoptr(GError) err = NULL;
  gboolean ok = outdir_write(od, "plan.txt", fl->text->str, fl->text->len, &err) &&
                outdir_write(od, "plan.csv", fl->csv->str, fl->csv->len, &err) &&
                outdir_write(od, "probes.csv", fl->probes->str, fl->probes->len, &err) &&
                outdir_write(od, "pareto.csv", fl->pareto->str, fl->pareto->len, &err);
  if (ok) ok = studydir_commit(od, out, "plan.csv", &err);
  else outdir_abort(od);
  fwrite(fl->text->str, 1, fl->text->len, stdout);
  if (!ok) return cmd_fail("plan", err);
  printf("plan written to %s/\n", out);
  return 0;
}

/* --sqlite: the tables of the folder written (out), or of the scratch folder with plan.csv,
 * probes.csv and pareto.csv put beside the recommended run. Takes sql; returns the exit
 * code. */
static int plan_sql(const char *out, const char *scratch, const plan_files *fl,
                    report_sql *sql) {
  g_autoptr(GError) err = NULL;
  g_autofree char *pc = scratch ? g_build_filename(scratch, "plan.csv", NULL) : NULL;
  g_autofree char *pp = scratch ? g_build_filename(scratch, "probes.csv", NULL) : NULL;
  g_autofree char *pf = scratch ? g_build_filename(scratch, "pareto.csv", NULL) : NULL;
  if (scratch && (!g_file_set_contents(pc, fl->csv->str, (gssize)fl->csv->len, &err) ||
                  !g_file_set_contents(pp, fl->probes->str, (gssize)fl->probes->len, &err) ||
                  !g_file_set_contents(pf, fl->pareto->str, (gssize)fl->pareto->len, &err))) {
    report_sql_abort(sql);
    return cmd_fail("plan", err);
  }
  return cmd_sql_finish("plan", sql, out ? out : scratch);
}

static int plan_main_loaded(const plan_args *a, char **argv, cmd_inputs *in) {
  g_autoptr(GError) err = NULL;
  outdir *od = NULL;
  g_autofree char *scratch = NULL;
  const char *work;
  int rc = 0;
  report_sql *sql = cmd_sql_begin("plan", a->sqlite, a->out, &rc);
  if (rc) return rc;
  if (a->out) {
    if (!(od = outdir_begin(a->out, &err))) {
      report_sql_abort(sql);
      return cmd_fail("plan", err);
    }
    work = outdir_tmp_path(od);
  } else {
    if (!(scratch = outdir_make_scratch("sharesim-plan-out", &err))) {
      report_sql_abort(sql);
      return cmd_fail("plan", err);
    }
    work = scratch;
  }
  plan p = {.sc = in->sc, .scenario_path = argv[1], .trace_path = argv[2],
            .opt = {.jobs = (guint)a->jobs, .n_seeds = a->n_seeds, .exhaustive = a->exhaustive,
                    .progress = !a->no_progress, .n_ranges = 1}};
  g_autofree char *journal = NULL;
  if (a->out) { /* DIR.journal, beside DIR (a trailing '/' dropped) */
    gsize n = strlen(a->out);
    while (n > 1 && a->out[n - 1] == '/') n--;
    journal = g_strdup_printf("%.*s.journal", (int)n, a->out);
    p.opt.journal = journal;
  }
  if (a->model_range) {
    guint n_constants;
    modelrange_constants(&n_constants);
    p.opt.n_ranges = MODELRANGE_RUNS(n_constants);
  }
  p.classes = g_array_new(FALSE, TRUE, sizeof(plan_class));
  p.cands = g_array_new(FALSE, TRUE, sizeof(plan_candidate));
  plan_files fl = {g_string_new(NULL), g_string_new(NULL), g_string_new(NULL),
                   g_string_new(NULL)};
  rc = plan_study(&p, in->tr, work, a->out, &fl);
  if (p.resumed_runs)
    fprintf(stderr, "sharesim plan: resumed: %u of the %u runs taken from %s (an interrupted "
                    "plan's)\n", p.resumed_runs, p.runs, journal);
  if (od && (rc == 0 || rc == PLAN_EXIT_NONE)) {
    int wrc = plan_publish(od, a->out, &fl);
    if (wrc) rc = wrc;
    else g_unlink(journal); /* the plan is whole: nothing to resume */
  } else {
    if (od) outdir_abort(od);
    fwrite(fl.text->str, 1, fl.text->len, stdout);
  }
  if (sql && (rc == 0 || rc == PLAN_EXIT_NONE)) {
    int src = plan_sql(a->out, scratch, &fl, g_steal_pointer(&sql));
    if (src) rc = src;
  }
  report_sql_abort(sql);
  if (rc == PLAN_EXIT_NONE) {
    GString *why = g_string_new(NULL);
    plan_explain_failures(&p, why);
    fprintf(stderr, "sharesim plan: no set-up within the purchase limits meets the "
                    "constraints (exit %d):\n%s", PLAN_EXIT_NONE, why->str);
    g_string_free(why, TRUE);
  }
  if (scratch) outdir_remove_scratch(scratch);
  plan_free_contents(&p);
  g_string_free(fl.text, TRUE);
  g_string_free(fl.csv, TRUE);
  g_string_free(fl.probes, TRUE);
  g_string_free(fl.pareto, TRUE);
  return rc;
}

extern const cmd_entry cmd_plan_entry; /* at the end of this file; its row: cmd.c */

static int cmd_plan_main(int argc, char **argv) {
  plan_args a = {.n_seeds = 1};
  GOptionEntry entries[] = {
      {"output", 'o', 0, G_OPTION_ARG_FILENAME, &a.out, "Write plan.txt, plan.csv, probes.csv, pareto.csv, scenario.yaml and recommended/ into DIR; an interrupted plan resumes from DIR.journal", "DIR"},
      {"jobs", 'j', 0, G_OPTION_ARG_INT, &a.jobs, "Runs at once (default: the number of processors); the result is the same for any N", "N"},
      {"seeds", 0, 0, G_OPTION_ARG_STRING, &a.seeds, "Judge every probe over N seeds (the scenario's and the next N - 1): a constraint holds when its 95 % bound does", "N"},
      {"model-range", 0, 0, G_OPTION_ARG_NONE, &a.model_range, "Judge every set-up at the pessimistic end of the model ranges: a size that meets the constraints at the models' defaults is run again with each fitted or assumed constant at each end of its interval and must meet them in every run", NULL},
      {"exhaustive", 0, 0, G_OPTION_ARG_NONE, &a.exhaustive, "Simulate every size of every candidate, with no pruning (for checking the search on small spaces)", NULL},
      CMD_SQL_OPTION(a.sqlite),
      {"no-progress", 0, 0, G_OPTION_ARG_NONE, &a.no_progress, "Never show the progress line", NULL},
      {NULL}};
  int rc;
  if (!cmd_parse_options(&cmd_plan_entry, entries, &argc, &argv, &rc)) goto out;
  rc = 2;
  if (argc != 3) {
    fprintf(stderr, "sharesim plan: expected SCENARIO.yaml and TRACE.csv, got %d argument%s\n"
                    "Usage: sharesim plan %s\n", argc - 1, argc == 2 ? "" : "s", cmd_plan_entry.usage);
    goto out;
  }
  if (!cmd_check_jobs("plan", &a.jobs) || !cmd_seeds_parse("plan", a.seeds, &a.n_seeds)) goto out;
  cmd_inputs in = {0};
  if (!cmd_load_inputs("plan", argv[1], argv[2], NULL, NULL, NULL, 0, &in)) goto out;
  if (cmd_check_budget("plan", in.sc, in.tr, FALSE) &&
      cmd_seeds_check_range("plan", in.sc->seed, a.n_seeds))
    rc = plan_main_loaded(&a, argv, &in);
  cmd_inputs_clear(&in);
out:
  g_free(a.out);
  g_free(a.seeds);
  g_free(a.sqlite);
  return rc;
}

const cmd_entry cmd_plan_entry = {
    .loads_scenarios = TRUE,
    .name = "plan",
    .usage = "SCENARIO.yaml TRACE.csv [-j N] [--seeds N] [--model-range] [-o DIR] [--exhaustive]",
    .summary = "cheapest set-up (mechanism and pool size per job kind) meeting the scenario's "
               "requirements",
    .main = cmd_plan_main,
};
