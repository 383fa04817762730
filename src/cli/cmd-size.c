/* cmd-size.c: `sharesim size SCENARIO.yaml TRACE.csv --pool NAME [--slo PCT[@LAT]] [--max-oom N]
 * [--max-wait-p95 DUR] [--min N] [--max N] [-j N] [-o DIR] [--seeds N [--every-seed]]
 * [--model-range]`: the
 * smallest `nodes` of one pool meeting the constraints. Each probe runs the scenario in this
 * process (N at once, in threads: studyrun.h) with pools.NAME.nodes overridden, writes the
 * result folder (kept under -o DIR, else in a temporary folder) and judges it from the
 * files, as compare reads them; with --seeds a probe is N seeds in a seeds folder, judged
 * on their mean or, with --every-seed, in every seed; with --model-range a probe is every
 * run of the model range (modelrange.h) in a model-range folder, judged at its pessimistic
 * end (it must pass in every run). The search, its planning ahead and the judging of one
 * run are sizing.c's. */
#include "cmd.h"
#include "cmd-load.h"
#include "cmd-constraints.h"
#include "cmd-seeds.h"
#include "cmd-sql.h"
#include "figures.h"
#include "modelrange.h"
#include "outdir.h"
#include "report.h"
#include "seeds.h"
#include "sim.h"
#include "sizing.h"
#include "studyrun.h"
#include "studydir.h"
#include "util.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct size_probe_result {
  guint32 nodes;
  gboolean pass;
  run_figures *fig;   /* owned; NULL when the probe could not run */
  char *why;          /* failures, "" when it passed; owned */
  gboolean slo_applied; /* some service of the pool reported SLO attainment (sizing_check) */
  GError *error;      /* why the probe could not run; owned */
  char *dir;          /* its result folder (written when fig is set); owned */
  guint seeds_meeting; /* with --seeds: the seeds that meet the constraints on their own */
  gboolean pass_defaults; /* --model-range: the constraints hold at the models' defaults */
  char *fails_at;     /* --model-range: the settings it fails at ("-": the defaults), "; "
                       * between; "" when it passes at all; owned */
} size_probe_result;

/* A probe being run: its scenario (pools.NAME.nodes overridden) and the task. */
typedef struct size_active {
  scenario *sc;
  studyrun_task *task;
  guint seed_index;            /* with --seeds or --model-range: which run of the probe
                                * (range run seed_index / n_seeds, seed seed_index % n_seeds) */
} size_active;

/* With --seeds: a probe being run, n_seeds runs into the seeds folder nodes-N. */
typedef struct size_group {
  guint32 nodes;
  outdir *od;                  /* nodes-N, written whole or not at all */
  outdir **sub;                /* --model-range: the seeds folder of each range run inside */
  run_figures **figs;          /* per run (seed_index), owned */
  guint left;                  /* runs not handed back yet */
  GError *error;               /* the first failing seed's, in seed order */
  guint error_seed;
  gboolean stopped;
} size_group;

typedef struct size_ctx {
  const char *scenario_path, *pool;
  const char *const *sets;     /* user --set overrides */
  guint n_sets;
  const trace *tr;
  const char *work;            /* folder the runs are written into */
  sizing_constraints cons;
  guint32 min_nodes, max_nodes;
  guint jobs;                  /* probes at once (-j) */
  gboolean progress;
  studyrun_pool *runner;
  GArray *active;              /* size_active */
  GArray *done;                /* size_probe_result, every probe finished, in finishing order */
  GArray *known;               /* sizing_probe: the outcomes among done */
  gboolean slo_unreported;     /* some probe had no service reporting SLO attainment */
  GArray *runs;                /* size_probe_result: the probes of the search, in its order */
  guint n_seeds;               /* --seeds; 1 without it */
  gboolean every_seed;         /* --every-seed */
  guint64 first_seed;          /* the scenario's seed (after --set) */
  GArray *groups;              /* size_group: the probes being run with seeds */
  guint n_ranges;              /* --model-range: MODELRANGE_RUNS (each probe judged at every
                                * run: the pessimistic end); 1 without it */
} size_ctx;

/* Runs per probe: seeds x model-range runs. A probe of more than one run is a group. */
static guint size_group_runs(const size_ctx *c) { return c->n_seeds * c->n_ranges; }
static gboolean size_grouped(const size_ctx *c) { return size_group_runs(c) > 1; }

static void size_result_clear(gpointer p) {
  size_probe_result *r = p;
  if (r->fig) figures_free(r->fig);
  g_free(r->why);
  g_clear_error(&r->error);
  g_free(r->dir);
  g_free(r->fails_at);
}

/* The scenario with nodes nodes in the pool (and, with --seeds, the seed of run k; with
 * --model-range, the constant's end of run k), checked as run checks it; NULL with error. */
static scenario *size_scenario(const size_ctx *c, guint32 nodes, guint k, GError **error) {
  g_autofree char *ov = g_strdup_printf("pools.%s.nodes=%u", c->pool, nodes);
  g_autofree char *seed =
      g_strdup_printf("seed=%" G_GUINT64_FORMAT, c->first_seed + k % c->n_seeds);
  g_autofree char *end = c->n_ranges > 1 ? modelrange_override(k / c->n_seeds) : NULL;
  GPtrArray *sets = g_ptr_array_new();
  for (guint i = 0; i < c->n_sets; i++) g_ptr_array_add(sets, (char *)c->sets[i]);
  g_ptr_array_add(sets, ov);
  if (c->n_seeds > 1) g_ptr_array_add(sets, seed);
  if (end) g_ptr_array_add(sets, end);
  scenario *sc = cmd_scenario_checked(c->scenario_path, (const char *const *)sets->pdata,
                                      sets->len, c->tr, error);
  g_ptr_array_free(sets, TRUE);
  return sc;
}

/* --model-range: begins the seeds folder of every range run inside od (NULL without it);
 * FALSE with error (those begun aborted). */
static gboolean size_begin_subs(const size_ctx *c, outdir *od, outdir ***subs, GError **error) {
  *subs = NULL;
  if (c->n_ranges < 2) return TRUE;
  *subs = g_new0(outdir *, c->n_ranges);
  for (guint r = 0; r < c->n_ranges; r++) {
    g_autofree char *name = modelrange_folder_name(r);
    g_autofree char *dir = g_build_filename(outdir_tmp_path(od), name, NULL);
    if (!((*subs)[r] = outdir_begin(dir, error))) {
      for (guint i = 0; i < r; i++) outdir_abort((*subs)[i]);
      g_clear_pointer(subs, g_free);
      return FALSE;
    }
  }
  return TRUE;
}

/* --seeds or --model-range: starts the probe of nodes as its runs into the seeds folder
 * (or the model-range folder) dir. */
static void size_start_seeds(size_ctx *c, guint32 nodes, const char *dir) {
  GError *err = NULL;
  guint n = size_group_runs(c);
  scenario **sc = g_new0(scenario *, n);
  for (guint k = 0; k < n && !err; k++) sc[k] = size_scenario(c, nodes, k, &err);
  outdir *od = err ? NULL : outdir_begin(dir, &err);
  outdir **subs = NULL;
  if (od && !size_begin_subs(c, od, &subs, &err)) g_clear_pointer(&od, outdir_abort);
  if (!od) {
    for (guint k = 0; k < n; k++)
      if (sc[k]) scenario_free(sc[k]);
    g_free(sc);
    size_probe_result r = {.nodes = nodes, .error = err, .dir = g_strdup(dir)};
    g_array_append_val(c->done, r);
    return;
  }
  size_group g = {nodes, od, subs, g_new0(run_figures *, n), n, NULL, 0, FALSE};
  g_array_append_val(c->groups, g);
  for (guint k = 0; k < n; k++) {
    g_autofree char *sub = seeds_folder_name(c->first_seed + k % c->n_seeds);
    g_autofree char *run_dir = g_build_filename(
        outdir_tmp_path(subs ? subs[k / c->n_seeds] : od), sub, NULL);
    size_active a = {sc[k], studyrun_task_new(sc[k], c->tr, run_dir, nodes), k};
    g_array_append_val(c->active, a);
    studyrun_submit(c->runner, a.task);
  }
  g_free(sc);
}

/* Starts the probe of nodes (with -j 1 it runs to its end here); a scenario that does not
 * load is a finished probe with its error. */
static void size_start(size_ctx *c, guint32 nodes) {
  g_autofree char *name = g_strdup_printf("nodes-%u", nodes);
  g_autofree char *dir = g_build_filename(c->work, name, NULL);
  if (size_grouped(c)) {
    size_start_seeds(c, nodes, dir);
    return;
  }
  GError *err = NULL;
  scenario *sc = size_scenario(c, nodes, 0, &err);
  if (!sc) {
    size_probe_result r = {.nodes = nodes, .error = err, .dir = g_strdup(dir)};
    g_array_append_val(c->done, r);
    return;
  }
  size_active a = {sc, studyrun_task_new(sc, c->tr, dir, nodes), 0};
  g_array_append_val(c->active, a);
  studyrun_submit(c->runner, a.task);
}

/* Judges a probe's seeds: the mean run against the constraints or, with --every-seed,
 * every seed's own run; r->fig is the mean run either way. */
static void size_judge_seeds(const size_ctx *c, const GPtrArray *runs, size_probe_result *r) {
  r->fig = seeds_mean(runs, r->dir);
  GString *why = g_string_new(NULL), *seed_why = g_string_new(NULL);
  guint failing = 0;
  for (guint k = 0; k < runs->len; k++) {
    const run_figures *f = g_ptr_array_index(runs, k);
    GString *w = g_string_new(NULL);
    gboolean applied = TRUE;
    if (sizing_check(f, c->pool, &c->cons, w, &applied)) r->seeds_meeting++;
    else if (++failing <= 3)
      g_string_append_printf(seed_why, "%sseed %" G_GUINT64_FORMAT ": %s", failing > 1 ? "; " : "",
                             f->seed, w->str);
    if (c->every_seed) r->slo_applied &= applied;
    g_string_free(w, TRUE);
  }
  if (c->every_seed) {
    r->pass = failing == 0;
    if (failing)
      g_string_append_printf(why, "%u of %u seeds fail: %s%s", failing, runs->len, seed_why->str,
                             failing > 3 ? "; ..." : "");
  } else {
    r->pass = sizing_check(r->fig, c->pool, &c->cons, why, &r->slo_applied);
    if (!r->pass) g_string_prepend(why, "mean over the seeds: ");
  }
  r->why = g_string_free(why, FALSE);
  g_string_free(seed_why, TRUE);
}

/* --model-range: judges a probe at every run of its range, each as without the option
 * (the mean over the seeds, or every seed); it meets the constraints only when every run
 * does: the pessimistic end. r->fig is the defaults' mean run; why names the first setting
 * that fails and fails_at all of them. */
static void size_judge_ranges(const size_ctx *c, const modelrange_table *t,
                              size_probe_result *r) {
  GString *why = g_string_new(NULL), *at = g_string_new(NULL);
  guint failing = 0;
  r->pass = TRUE;
  for (guint k = 0; k < t->groups->len; k++) {
    const seeds_table *st = g_ptr_array_index(t->groups, k);
    size_probe_result one = {.nodes = r->nodes, .dir = g_strdup(r->dir), .slo_applied = TRUE};
    if (c->n_seeds > 1) {
      size_judge_seeds(c, st->runs, &one);
    } else {
      GString *w = g_string_new(NULL);
      one.fig = seeds_mean(st->runs, r->dir);
      one.pass = sizing_check(one.fig, c->pool, &c->cons, w, &one.slo_applied);
      one.why = g_string_free(w, FALSE);
    }
    if (k == 0) {
      r->fig = g_steal_pointer(&one.fig);
      r->slo_applied = one.slo_applied;
      r->seeds_meeting = one.seeds_meeting;
      r->pass_defaults = one.pass;
    }
    if (!one.pass) {
      g_autofree char *by = modelrange_by(k);
      g_string_append_printf(at, "%s%s", failing ? "; " : "", by);
      if (!failing && k == 0) g_string_append(why, one.why);
      else if (!failing) g_string_append_printf(why, "at %s: %s", by, one.why);
      failing++;
      r->pass = FALSE;
    }
    size_result_clear(&one);
  }
  if (failing > 1)
    g_string_append_printf(why, " (fails at %u of the %u settings)", failing, t->groups->len);
  r->why = g_string_free(why, FALSE);
  r->fails_at = g_string_free(at, FALSE);
}

/* --model-range: each range run's seeds folder written and committed inside g->od, the
 * model-range files beside them, g->od committed as r->dir, and the probe judged; FALSE
 * with error. Takes the group's runs. */
static gboolean size_finish_ranges(size_ctx *c, size_group *g, size_probe_result *r,
                                   GError **error) {
  GPtrArray *groups = g_ptr_array_new_with_free_func((GDestroyNotify)seeds_free);
  gboolean ok = TRUE;
  for (guint k = 0; ok && k < c->n_ranges; k++) {
    GPtrArray *runs = g_ptr_array_new_with_free_func((GDestroyNotify)figures_free);
    for (guint s = 0; s < c->n_seeds; s++)
      g_ptr_array_add(runs, g_steal_pointer(&g->figs[k * c->n_seeds + s]));
    seeds_table *st = seeds_build(runs);
    g_ptr_array_add(groups, st);
    g_autofree char *name = modelrange_folder_name(k);
    g_autofree char *dir = g_build_filename(outdir_tmp_path(g->od), name, NULL);
    ok = seeds_write(st, g->sub[k], error) &&
         studydir_commit(g_steal_pointer(&g->sub[k]), dir, "seeds.json", error);
  }
  if (!ok) {
    g_ptr_array_free(groups, TRUE);
    return FALSE;
  }
  g_ptr_array_set_free_func(groups, NULL);
  g_autoptr(modelrange_table) t = modelrange_build(groups, (c->n_ranges - 1) / 2);
  if (!modelrange_write(t, g->od, error) ||
      !studydir_commit(g_steal_pointer(&g->od), r->dir, "model-range.json", error))
    return FALSE;
  size_judge_ranges(c, t, r);
  return TRUE;
}

/* --seeds: the seeds folder written and committed as r->dir and the probe judged (or the
 * error kept; nothing when it was stopped). Takes the group's runs. */
static void size_finish_seeds(size_ctx *c, size_group *g, size_probe_result *r) {
  GPtrArray *runs = g_ptr_array_new();
  for (guint k = 0; k < c->n_seeds; k++)
    if (g->figs[k]) g_ptr_array_add(runs, g_steal_pointer(&g->figs[k]));
  g_autoptr(seeds_table) st = !g->stopped && !g->error ? seeds_build(runs) : NULL;
  if (!st) g_ptr_array_set_free_func(runs, (GDestroyNotify)figures_free);
  if (!st) g_ptr_array_free(runs, TRUE);
  GError *err = NULL;
  if (st && seeds_write(st, g->od, &err) && studydir_commit(g_steal_pointer(&g->od), r->dir, "seeds.json", &err))
    size_judge_seeds(c, st->runs, r);
  else if (st)
    r->error = err;
  else if (!g->stopped)
    r->error = g_steal_pointer(&g->error);
}

/* A probe's last run is back: its seeds (or model-range) folder written and committed and
 * the probe judged (or, stopped, thrown away). */
static void size_finish_group(size_ctx *c, guint gi) {
  size_group *g = &g_array_index(c->groups, size_group, gi);
  g_autofree char *name = g_strdup_printf("nodes-%u", g->nodes);
  size_probe_result r = {.nodes = g->nodes, .dir = g_build_filename(c->work, name, NULL),
                         .slo_applied = TRUE};
  if (c->n_ranges < 2) {
    size_finish_seeds(c, g, &r);
  } else if (!g->stopped && !g->error) {
    GError *err = NULL;
    if (!size_finish_ranges(c, g, &r, &err)) r.error = err;
  } else if (!g->stopped) {
    r.error = g_steal_pointer(&g->error);
  }
  for (guint k = 0; g->sub && k < c->n_ranges; k++)
    if (g->sub[k]) outdir_abort(g->sub[k]);
  g_free(g->sub);
  for (guint k = 0; k < size_group_runs(c); k++)
    if (g->figs[k]) figures_free(g->figs[k]);
  if (g->od) outdir_abort(g->od);
  g_clear_error(&g->error);
  g_free(g->figs);
  g_array_remove_index(c->groups, gi);
  if (!r.error && !r.fig) {  /* stopped: no longer needed */
    g_free(r.dir);
    return;
  }
  if (r.fig) {
    sizing_probe p = {r.nodes, r.pass};
    g_array_append_val(c->known, p);
  }
  g_array_append_val(c->done, r);
}

/* --seeds: one seed of a probe is back. */
static void size_collect_seed(size_ctx *c, studyrun_task *t, guint k) {
  guint gi = 0;
  while (g_array_index(c->groups, size_group, gi).nodes != t->id) gi++;
  size_group *g = &g_array_index(c->groups, size_group, gi);
  g->left--;
  if (t->stopped) {
    g->stopped = TRUE;
  } else if (!t->fig) {
    if (!g->error || k < g->error_seed) {
      g_clear_error(&g->error);
      g->error = g_steal_pointer(&t->error);
      g->error_seed = k;
    }
  } else {
    g->figs[k] = g_steal_pointer(&t->fig);
  }
  studyrun_task_free(t);
  if (!g->left) size_finish_group(c, gi);
}

/* Takes back a finished task: judges its run (or keeps its error). */
static void size_collect(size_ctx *c, studyrun_task *t) {
  guint k = 0;
  for (guint i = 0; i < c->active->len; i++)
    if (g_array_index(c->active, size_active, i).task == t) {
      k = g_array_index(c->active, size_active, i).seed_index;
      scenario_free(g_array_index(c->active, size_active, i).sc);
      g_array_remove_index(c->active, i);
      break;
    }
  if (size_grouped(c)) {
    size_collect_seed(c, t, k);
    return;
  }
  if (t->stopped) { /* no longer needed: nothing was written */
    studyrun_task_free(t);
    return;
  }
  size_probe_result r = {.nodes = t->id, .dir = g_strdup(t->dir), .slo_applied = TRUE};
  if (!t->fig) {
    r.error = g_steal_pointer(&t->error);
  } else {
    GString *why = g_string_new(NULL);
    r.fig = g_steal_pointer(&t->fig);
    r.pass = sizing_check(r.fig, c->pool, &c->cons, why, &r.slo_applied);
    r.why = g_string_free(why, FALSE);
    sizing_probe p = {r.nodes, r.pass};
    g_array_append_val(c->known, p);
  }
  g_array_append_val(c->done, r);
  studyrun_task_free(t);
}

static const size_probe_result *size_done_of(const size_ctx *c, guint32 nodes) {
  for (guint i = 0; i < c->done->len; i++)
    if (g_array_index(c->done, size_probe_result, i).nodes == nodes)
      return &g_array_index(c->done, size_probe_result, i);
  return NULL;
}

/* Stops the probes the search can no longer reach; starts the most useful ones while
 * cores are free. */
static void size_schedule(size_ctx *c, const sizing_state *st) {
  guint32 *running = g_new0(guint32, c->active->len + c->groups->len + 1);
  guint n_running = 0;
  for (guint i = 0; i < c->active->len; i++) {
    studyrun_task *t = g_array_index(c->active, size_active, i).task;
    if (t->id < st->range_lo || t->id > st->range_hi) studyrun_stop(t);
    if (!size_grouped(c)) running[n_running++] = t->id;
  }
  for (guint i = 0; i < c->groups->len; i++)
    running[n_running++] = g_array_index(c->groups, size_group, i).nodes;
  /* a probe of n runs (--seeds, --model-range) takes n cores: jobs / n probes at once (at
   * least 1) */
  guint slots = size_grouped(c) ? MAX(1u, c->jobs / size_group_runs(c)) : c->jobs;
  guint free_cores = slots > n_running ? slots - n_running : 0;
  guint32 *next = g_new0(guint32, free_cores + 1);
  guint n = free_cores ? sizing_plan(c->min_nodes, c->max_nodes, c->known, running, n_running,
                                     next, free_cores)
                       : 0;
  for (guint i = 0; i < n; i++) size_start(c, next[i]);
  g_free(next);
  g_free(running);
}

/* The search of sizing_search, its probes run c->jobs at a time: besides the probe it
 * needs, those it would need next (sizing_plan), stopped as soon as it cannot reach them.
 * The probes it made are the same whatever jobs, and so is every file. */
static gboolean size_search(size_ctx *c, guint32 *answer, GError **error) {
  for (;;) {
    sizing_state st;
    sizing_state_of(c->min_nodes, c->max_nodes, c->known, &st, NULL);
    if (st.done) {
      *answer = st.answer;
      return TRUE;
    }
    const size_probe_result *r = size_done_of(c, st.next);
    if (r) { /* the probe the search needs could not run */
      g_propagate_error(error, g_error_copy(r->error));
      return FALSE;
    }
    size_schedule(c, &st);
    studyrun_task *t = studyrun_wait(c->runner);
    if (t) size_collect(c, t);
  }
}

/* After the search: stops what still runs, keeps the probes of the search in its order
 * (c->runs) and removes the folders of the others (written by this command, inside its
 * own work folder). */
static void size_settle(size_ctx *c) {
  for (guint i = 0; i < c->active->len; i++)
    studyrun_stop(g_array_index(c->active, size_active, i).task);
  studyrun_task *t;
  while ((t = studyrun_wait(c->runner)) != NULL) size_collect(c, t);
  GArray *path = g_array_new(FALSE, FALSE, sizeof(sizing_probe));
  sizing_state st;
  sizing_state_of(c->min_nodes, c->max_nodes, c->known, &st, path);
  for (guint i = 0; i < path->len; i++) {
    guint32 nodes = g_array_index(path, sizing_probe, i).nodes;
    for (guint k = 0; k < c->done->len; k++) {
      size_probe_result *r = &g_array_index(c->done, size_probe_result, k);
      if (r->nodes != nodes || !r->fig) continue;
      g_array_append_val(c->runs, *r);
      if (!r->slo_applied) c->slo_unreported = TRUE;
      *r = (size_probe_result){0}; /* moved into runs */
      g_array_remove_index(c->done, k);
      break;
    }
  }
  for (guint k = 0; k < c->done->len; k++) {
    const size_probe_result *r = &g_array_index(c->done, size_probe_result, k);
    if (r->fig) outdir_remove_tree(r->dir, NULL);
  }
  g_array_free(path, TRUE);
}

static const char *size_figure_key(const char *pool, const char *member, char *buf, gsize len) {
  g_snprintf(buf, len, "pool:%s:%s", pool, member);
  return buf;
}

/* "yes", "no (3/5)" with --seeds (the seeds meeting them at the defaults), "no (at the
 * defaults: yes)" with --model-range when only an end of the range fails. */
static char *size_meets_cell(const size_ctx *c, const size_probe_result *r) {
  GString *cell = g_string_new(r->pass ? "yes" : "no");
  if (c->n_seeds > 1) g_string_append_printf(cell, " (%u/%u)", r->seeds_meeting, c->n_seeds);
  if (c->n_ranges > 1 && !r->pass && r->pass_defaults)
    g_string_append(cell, " (at the defaults: yes)");
  return g_string_free(cell, FALSE);
}

/* A size.csv row's "scenario,seed," (as every result CSV begins): the probe's run's
 * scenario name and seed; the seed empty with --seeds (the row is the seeds' mean). */
static void size_csv_lead(GString *csv, const size_ctx *c, const size_probe_result *r) {
  util_csv_field(csv, r->fig && r->fig->scenario ? r->fig->scenario : "");
  g_string_append_c(csv, ',');
  if (c->n_seeds <= 1 && r->fig) g_string_append_printf(csv, "%" G_GUINT64_FORMAT, r->fig->seed);
  g_string_append_c(csv, ',');
}

/* The table of runs (text) and size.csv. */
static void size_tables(const size_ctx *c, GString *text, GString *csv) {
  static const struct { const char *member, *title; } cols[] = {
    {"gpus", "GPUs"}, {"wait_p95_s", "wait p95"}, {"oom_kills", "OOM"},
    {"unplaceable", "unplaceable"}, {"busy_frac", "busy"}, {"cost", "pool cost"},
  };
  guint ncols = 3 + G_N_ELEMENTS(cols) + 1;
  GPtrArray *cells = g_ptr_array_new_with_free_func(g_free);
  g_ptr_array_add(cells, g_strdup("run"));
  g_ptr_array_add(cells, g_strdup("nodes"));
  g_ptr_array_add(cells, g_strdup("meets"));
  for (guint k = 0; k < G_N_ELEMENTS(cols); k++) g_ptr_array_add(cells, g_strdup(cols[k].title));
  g_ptr_array_add(cells, g_strdup("why not"));
  g_string_append(csv, "scenario,seed,run,nodes,meets");
  /* the pool's figures carry the pool's name in size.csv where they would clash with the
   * whole run's (issue 11 bug 9: two columns were named cost) */
  for (guint k = 0; k < G_N_ELEMENTS(cols); k++)
    g_string_append_printf(csv, ",%s%s", strcmp(cols[k].member, "cost") ? "" : "pool_", cols[k].member);
  g_string_append(csv, c->n_seeds > 1 ? ",run_cost,slo_min_attainment,why_not,seeds,seeds_meeting"
                                      : ",run_cost,slo_min_attainment,why_not");
  g_string_append(csv, c->n_ranges > 1 ? ",defaults_meet,fails_at\n" : "\n");
  char key[512];
  for (guint i = 0; i < c->runs->len; i++) {
    const size_probe_result *r = &g_array_index(c->runs, size_probe_result, i);
    g_ptr_array_add(cells, g_strdup_printf("%u", i + 1));
    g_ptr_array_add(cells, g_strdup_printf("%u", r->nodes));
    g_ptr_array_add(cells, size_meets_cell(c, r));
    size_csv_lead(csv, c, r);
    g_string_append_printf(csv, "%u,%u,%s", i + 1, r->nodes, r->pass ? "yes" : "no");
    for (guint k = 0; k < G_N_ELEMENTS(cols); k++) {
      const figure *fig = figures_find(r->fig, size_figure_key(c->pool, cols[k].member, key, sizeof key));
      GString *cell = g_string_new(NULL);
      figures_format(cell, fig ? fig->unit : FIGURE_NUMBER, fig ? fig->value : NAN);
      g_ptr_array_add(cells, g_string_free(cell, FALSE));
      g_string_append_c(csv, ',');
      report_num(csv, fig ? fig->value : NAN);
    }
    g_ptr_array_add(cells, g_strdup(r->why));
    g_string_append_c(csv, ',');
    report_num(csv, figures_value(r->fig, "cost"));
    g_string_append_c(csv, ',');
    report_num(csv, figures_min_attainment(r->fig, c->pool, NULL));
    g_string_append_c(csv, ',');
    util_csv_field(csv, r->why);
    if (c->n_seeds > 1) g_string_append_printf(csv, ",%u,%u", c->n_seeds, r->seeds_meeting);
    if (c->n_ranges > 1) {
      g_string_append_printf(csv, ",%s,", r->pass_defaults ? "yes" : "no");
      util_csv_field(csv, r->fails_at);
    }
    g_string_append_c(csv, '\n');
  }
  gsize *width = g_new0(gsize, ncols);
  for (guint i = 0; i < cells->len; i++)
    width[i % ncols] = MAX(width[i % ncols], (gsize)g_utf8_strlen(g_ptr_array_index(cells, i), -1));
  for (guint i = 0; i < cells->len; i++) {
    guint col = i % ncols;
    const char *cell = g_ptr_array_index(cells, i);
    gsize pad = width[col] - (gsize)g_utf8_strlen(cell, -1);
    gboolean left = col == 2 || col + 1 == ncols; /* "meets" and "why not" */
    g_string_append(text, "  ");
    if (!left) g_string_append_printf(text, "%*s", (int)pad, "");
    g_string_append(text, cell);
    if (left) g_string_append_printf(text, "%*s", (int)pad, "");
    if (col + 1 == ncols) {
      while (text->len && text->str[text->len - 1] == ' ') g_string_truncate(text, text->len - 1);
      g_string_append_c(text, '\n');
    }
  }
  g_free(width);
  g_ptr_array_free(cells, TRUE);
}

/* What the command line asked for. */
typedef struct size_args {
  char *pool, *slo, *max_wait, *out, *phases, *requests, *seeds, *sqlite;
  char **sets;
  guint n_seeds;            /* --seeds; 1 without it */
  gboolean every_seed;      /* --every-seed */
  gboolean model_range;     /* --model-range */
  gint64 max_oom, min_nodes, max_nodes;
  gint jobs;                /* -j; 0: the number of processors */
  gboolean no_progress;
  double slo_pct, slo_ms;   /* --slo PCT[@LATENCY]; NAN when absent */
} size_args;

static void size_args_clear(size_args *a) {
  g_free(a->pool);
  g_free(a->slo);
  g_free(a->max_wait);
  g_free(a->out);
  g_free(a->phases);
  g_free(a->requests);
  g_free(a->sqlite);
  g_free(a->seeds);
  g_strfreev(a->sets);
}

extern const cmd_entry cmd_size_entry; /* at the end of this file; its row: cmd.c */

/* The arguments and the constraints they give; 0 or the exit code (message printed). */
static int size_check_args(size_args *a, int argc, sizing_constraints *cons) {
  if (argc != 3) {
    fprintf(stderr, "sharesim size: expected SCENARIO.yaml and TRACE.csv, got %d argument%s\n"
                    "Usage: sharesim size %s\n", argc - 1, argc == 2 ? "" : "s", cmd_size_entry.usage);
    return 2;
  }
  if (!a->pool) {
    fprintf(stderr, "sharesim size: --pool NAME is required\n");
    return 2;
  }
  if (!cmd_check_jobs("size", &a->jobs) || !cmd_seeds_parse("size", a->seeds, &a->n_seeds))
    return 2;
  if (a->every_seed && a->n_seeds < 2) {
    fprintf(stderr, "sharesim size: --every-seed asks that every seed meet the constraints: "
                    "give --seeds N as well\n");
    return 2;
  }
  if (!cmd_constraints_parse("size", a->slo, a->max_oom, a->max_wait, cons, &a->slo_pct))
    return 2;
  a->slo_ms = cons->slo_ms;
  return 0;
}

/* The pool to size and the search range (the default --max from its size): 0 or 2. */
static int size_check_pool(size_args *a, const scenario *sc, const char *scenario_path) {
  int pi = scenario_pool_index(sc, a->pool);
  if (pi < 0) {
    g_autofree char *shown = figures_clean_text(a->pool);
    fprintf(stderr, "sharesim size: --pool '%s': no such pool in %s; pools:", shown, scenario_path);
    for (guint i = 0; i < sc->pools->len; i++)
      fprintf(stderr, "%s %s", i ? "," : "", scenario_pool(sc, i)->name);
    fprintf(stderr, "\n");
    return 2;
  }
  const pool_spec *ps = scenario_pool(sc, (guint)pi);
  gint64 cap = cmd_constraints_node_cap(ps);
  if (a->max_nodes == 0) a->max_nodes = cmd_constraints_default_max(ps);
  if (a->min_nodes < 1 || a->max_nodes < a->min_nodes || a->max_nodes > cap) {
    fprintf(stderr, "sharesim size: --min %" G_GINT64_FORMAT " --max %" G_GINT64_FORMAT
                    ": expected 1 <= min <= max <= %" G_GINT64_FORMAT " nodes\n",
            a->min_nodes, a->max_nodes, cap);
    return 2;
  }
  return 0;
}

/* Loads the scenario and trace (the --slo latency applied to the trace), checks the
 * budget and the pool: 0 or 2 (in cleared). */
static int size_load(size_args *a, char **argv, cmd_inputs *in) {
  guint n_sets = a->sets ? g_strv_length(a->sets) : 0;
  if (!cmd_load_inputs("size", argv[1], argv[2], a->phases, a->requests,
                       (const char *const *)a->sets, n_sets, in))
    return 2;
  if (isfinite(a->slo_ms)) trace_set_slo(in->tr, a->slo_pct, a->slo_ms);
  if (!cmd_check_budget("size", in->sc, in->tr, FALSE) || size_check_pool(a, in->sc, argv[1]) ||
      !cmd_seeds_check_range("size", in->sc->seed, a->n_seeds)) {
    cmd_inputs_clear(in);
    return 2;
  }
  return 0;
}

/* --model-range: which end decided the answer: what the size below it failed at. */
static void size_answer_range(const size_ctx *c, guint32 answer, GString *text) {
  const size_probe_result *below = NULL;
  for (guint i = 0; i < c->runs->len; i++)
    if (g_array_index(c->runs, size_probe_result, i).nodes == answer - 1)
      below = &g_array_index(c->runs, size_probe_result, i);
  if (!below) return;
  if (below->pass_defaults)
    g_string_append_printf(text, "decided by the model range: %u node%s meet%s the constraints at "
                                 "the models' defaults but not at %s\n", answer - 1,
                           answer - 1 == 1 ? "" : "s", answer - 1 == 1 ? "s" : "", below->fails_at);
  else
    g_string_append_printf(text, "decided at the models' defaults: %u node%s fail%s the "
                                 "constraints there already\n", answer - 1,
                           answer - 1 == 1 ? "" : "s", answer - 1 == 1 ? "s" : "");
}

/* The closing line: the answer and why it is the smallest, or that none was found. */
static void size_answer(const size_ctx *c, const size_args *a, guint32 answer,
                        guint32 gpus_per_node, GString *text) {
  if (!answer) {
    g_string_append_printf(text, "no size from %u to %" G_GINT64_FORMAT " nodes meets the "
                                 "constraints (try a larger --max, or looser constraints)\n",
                           (guint)a->min_nodes, a->max_nodes);
    return;
  }
  gboolean below = FALSE;
  for (guint i = 0; i < c->runs->len; i++)
    below |= g_array_index(c->runs, size_probe_result, i).nodes == answer - 1;
  guint64 gpus = (guint64)answer * gpus_per_node;
  g_string_append_printf(text, "smallest size: %u node%s (%" G_GUINT64_FORMAT " GPU%s) in pool '%s'",
                         answer, answer == 1 ? "" : "s", gpus, gpus == 1 ? "" : "s", a->pool);
  if (answer == (guint32)a->min_nodes)
    g_string_append_printf(text, ": %u node%s meet%s the constraints, the lower end of the search\n",
                           answer, answer == 1 ? "" : "s", answer == 1 ? "s" : "");
  else if (below)
    g_string_append_printf(text, ": %u node%s meet%s the constraints and %u do%s not\n",
                           answer, answer == 1 ? "" : "s", answer == 1 ? "s" : "",
                           answer - 1, answer - 1 == 1 ? "es" : "");
  else
    g_string_append_c(text, '\n');
  if (c->n_ranges > 1) size_answer_range(c, answer, text);
}

/* size.txt (what is printed) and size.csv. */
static void size_report(const size_ctx *c, const size_args *a, const char *scen_name,
                        const char *trace_path, guint32 answer, guint32 gpus_per_node,
                        GString *text, GString *csv) {
  g_autofree char *trace_base = g_path_get_basename(trace_path);
  g_autofree char *ctrace = figures_clean_text(trace_base);
  g_string_append_printf(text, "size: pool '%s' of scenario '%s' on trace %s\n", a->pool,
                         scen_name, ctrace);
  g_string_append(text, "constraints: ");
  sizing_describe(&c->cons, text);
  g_string_append_printf(text, "\nsearch: %u to %" G_GINT64_FORMAT " nodes of %u GPU%s, doubling "
                               "then bisection, assuming the constraints are monotone (if n nodes "
                               "meet them, more nodes do too): %u run%s\n",
                         (guint)a->min_nodes, a->max_nodes, gpus_per_node,
                         gpus_per_node == 1 ? "" : "s", c->runs->len, c->runs->len == 1 ? "" : "s");
  if (c->n_seeds > 1)
    g_string_append_printf(text, "seeds: %u per size (%" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT
                                 "); the figures are means over the seeds; a size meets the "
                                 "constraints when %s\n",
                           c->n_seeds, c->first_seed, c->first_seed + c->n_seeds - 1,
                           c->every_seed ? "every seed meets them (--every-seed)"
                                         : "the mean over the seeds meets them (--every-seed: every seed)");
  if (c->n_ranges > 1)
    g_string_append_printf(text, "model range: %u runs per size (the models' defaults, then each "
                                 "of %u constants at each end of its interval: docs/models.md, "
                                 "\"Model uncertainty\"); a size meets the constraints only when "
                                 "it meets them in every run, the pessimistic end\n",
                           c->n_ranges, (c->n_ranges - 1) / 2);
  if (c->slo_unreported)
    g_string_append_printf(text, "note: --slo not applied: no inference service of pool '%s' "
                                 "reports SLO attainment (services.csv absent or without an "
                                 "attainment column; without slo_ms in the trace, give a latency: "
                                 "--slo PCT@200ms)\n", a->pool);
  g_string_append_c(text, '\n');
  size_tables(c, text, csv);
  g_string_append_c(text, '\n');
  size_answer(c, a, answer, gpus_per_node, text);
}

/* Writes size.txt and size.csv into od and commits it (od freed); prints the text. 0, or
 * the exit code of the failure. */
static int size_publish(outdir *od, const char *out, GString *text, GString *csv) {
  g_autoptr(GError) err = NULL;
  int rc = 0;
  gboolean written = FALSE;
  if (od) {
    gboolean ok = outdir_write(od, "size.txt", text->str, text->len, &err) &&
                  outdir_write(od, "size.csv", csv->str, csv->len, &err);
    if (ok)
      ok = studydir_commit(od, out, "size.csv", &err);
    else
      outdir_abort(od);
    if (!ok) rc = cmd_fail("size", err);
    written = ok;
  }
  fwrite(text->str, 1, text->len, stdout);
  if (written) printf("runs written to %s/\n", out);
  return rc;
}

/* size.csv beside the runs in the scratch folder, for --sqlite without -o. */
static int size_keep_csv(const char *scratch, const GString *csv) {
  g_autoptr(GError) err = NULL;
  g_autofree char *path = g_build_filename(scratch, "size.csv", NULL);
  return g_file_set_contents(path, csv->str, (gssize)csv->len, &err) ? 0 : cmd_fail("size", err);
}

/* The folder the runs go into: od's temporary under -o, else a scratch folder. */
static int size_begin_folder(const char *out, outdir **od, char **scratch, const char **work) {
  g_autoptr(GError) err = NULL;
  if (out) {
    if (!(*od = outdir_begin(out, &err))) return cmd_fail("size", err);
    *work = outdir_tmp_path(*od);
  } else {
    if (!(*scratch = outdir_make_scratch("sharesim-size", &err))) return cmd_fail("size", err);
    *work = *scratch;
  }
  return 0;
}

/* Runs the search and reports it. */
static int size_study(size_args *a, char **argv, cmd_inputs *in, const sizing_constraints *cons) {
  const pool_spec *ps = scenario_pool(in->sc, (guint)scenario_pool_index(in->sc, a->pool));
  guint32 gpus_per_node = ps->gpus_per_node;
  outdir *od = NULL;
  g_autofree char *scratch = NULL;
  const char *work = NULL;
  int rc = 0;
  report_sql *sql = cmd_sql_begin("size", a->sqlite, a->out, &rc);
  if (rc == 0) rc = size_begin_folder(a->out, &od, &scratch, &work);
  if (rc != 0) {
    report_sql_abort(sql);
    return rc;
  }
  size_ctx c = {.scenario_path = argv[1], .pool = a->pool, .sets = (const char *const *)a->sets,
                .n_sets = a->sets ? g_strv_length(a->sets) : 0, .tr = in->tr, .work = work,
                .cons = *cons, .min_nodes = (guint32)a->min_nodes,
                .max_nodes = (guint32)a->max_nodes, .jobs = (guint)a->jobs,
                .progress = !a->no_progress, .n_seeds = a->n_seeds,
                .every_seed = a->every_seed, .first_seed = in->sc->seed, .n_ranges = 1};
  if (a->model_range) {
    guint n_constants;
    modelrange_constants(&n_constants);
    c.n_ranges = MODELRANGE_RUNS(n_constants);
  }
  c.runner = studyrun_pool_new(c.jobs, c.progress, "size");
  c.active = g_array_new(FALSE, TRUE, sizeof(size_active));
  c.done = g_array_new(FALSE, TRUE, sizeof(size_probe_result));
  c.known = g_array_new(FALSE, TRUE, sizeof(sizing_probe));
  c.runs = g_array_new(FALSE, TRUE, sizeof(size_probe_result));
  c.groups = g_array_new(FALSE, TRUE, sizeof(size_group));
  g_array_set_clear_func(c.done, size_result_clear);
  g_array_set_clear_func(c.runs, size_result_clear);
  guint32 answer = 0;
  g_autoptr(GError) err = NULL;
  if (!size_search(&c, &answer, &err)) rc = cmd_fail("size", err);
  size_settle(&c);
  if (rc == 0) {
    GString *text = g_string_new(NULL), *csv = g_string_new(NULL);
    size_report(&c, a, in->sc->name, argv[2], answer, gpus_per_node, text, csv);
    rc = size_publish(od, a->out, text, csv);
    od = NULL;
    if (rc == 0 && scratch && sql) rc = size_keep_csv(scratch, csv);
    if (rc == 0) rc = cmd_sql_finish("size", g_steal_pointer(&sql), a->out ? a->out : scratch);
    if (rc == 0 && !answer) rc = 1;
    g_string_free(text, TRUE);
    g_string_free(csv, TRUE);
  }
  report_sql_abort(sql);
  if (od) outdir_abort(od);
  if (scratch) outdir_remove_scratch(scratch);
  studyrun_pool_free(c.runner);
  g_array_free(c.active, TRUE);
  g_array_free(c.done, TRUE);
  g_array_free(c.known, TRUE);
  g_array_free(c.runs, TRUE);
  g_array_free(c.groups, TRUE);
  return rc;
}

static int cmd_size_main(int argc, char **argv) {
  size_args a = {.max_oom = -1, .min_nodes = 1, .max_nodes = 0};
  GOptionEntry entries[] = {
      {"pool", 0, 0, G_OPTION_ARG_STRING, &a.pool, "The pool to size (required)", "NAME"},
      {"slo", 0, 0, G_OPTION_ARG_STRING, &a.slo, "Every inference service of the pool meets its SLO (or LATENCY, e.g. 99@200ms) for at least PCT % of requests", "PCT[@LATENCY]"},
      {"max-oom", 0, 0, G_OPTION_ARG_INT64, &a.max_oom, "At most N out-of-memory kills in the pool", "N"},
      {"max-wait-p95", 0, 0, G_OPTION_ARG_STRING, &a.max_wait, "The pool's 95th-percentile queue wait at most DUR (e.g. 10m)", "DUR"},
      {"min", 0, 0, G_OPTION_ARG_INT64, &a.min_nodes, "Smallest number of nodes to try (default 1)", "N"},
      {"max", 0, 0, G_OPTION_ARG_INT64, &a.max_nodes, "Largest number of nodes to try (default max(64, 8 x the scenario's))", "N"},
      {"set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &a.sets, "Override another scenario key first (repeatable)", "KEY=VALUE"},
      {"phases", 0, 0, G_OPTION_ARG_FILENAME, &a.phases, "Phases file (docs/trace-format.md)", "P.csv"},
      {"requests", 0, 0, G_OPTION_ARG_FILENAME, &a.requests, "Recorded inference requests (docs/trace-format.md)", "R.csv"},
      {"output", 'o', 0, G_OPTION_ARG_FILENAME, &a.out, "Keep every run (DIR/nodes-N/) with size.csv and size.txt", "DIR"},
      {"jobs", 'j', 0, G_OPTION_ARG_INT, &a.jobs, "Probes run at once (default: the number of processors); the result is the same for any N", "N"},
      {"seeds", 0, 0, G_OPTION_ARG_STRING, &a.seeds, "Run every probe with N seeds (the scenario's and the next N - 1; 2 to 1000) and judge their mean", "N"},
      {"every-seed", 0, 0, G_OPTION_ARG_NONE, &a.every_seed, "With --seeds: a size meets the constraints only when every seed meets them", NULL},
      {"model-range", 0, 0, G_OPTION_ARG_NONE, &a.model_range, "Judge every size at the pessimistic end of the model ranges: it meets the constraints only when it does with each fitted or assumed constant at each end of its interval (23 runs per size; DIR/nodes-N/ a model-range folder)", NULL},
      CMD_SQL_OPTION(a.sqlite),
      {"no-progress", 0, 0, G_OPTION_ARG_NONE, &a.no_progress, "Never show the progress bar", NULL},
      {NULL}};
  int rc;
  sizing_constraints cons;
  cmd_inputs in = {0};
  if (!cmd_parse_options(&cmd_size_entry, entries, &argc, &argv, &rc)) {
    size_args_clear(&a);
    return rc;
  }
  rc = size_check_args(&a, argc, &cons);
  if (rc == 0) rc = size_load(&a, argv, &in);
  if (rc == 0) rc = size_study(&a, argv, &in, &cons);
  cmd_inputs_clear(&in);
  size_args_clear(&a);
  return rc;
}

const cmd_entry cmd_size_entry = {
    .loads_scenarios = TRUE,
    .name = "size",
    .usage = "SCENARIO.yaml TRACE.csv --pool NAME [--slo PCT[@LATENCY]] [--max-oom N] [--max-wait-p95 DUR] "
             "[--min N] [--max N] [-j N] [-o DIR] [--seeds N [--every-seed]] [--model-range]",
    .summary = "smallest pool size (nodes) that meets SLO, OOM and queue-wait constraints",
    .main = cmd_size_main,
};
