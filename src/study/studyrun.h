/* studyrun.h: the scenario runs of a study (compare, size) on up to N threads at once. A
 * task runs one loaded scenario on a trace (sim_run), writes its result folder and reads
 * its headline figures back from the files, as `compare DIR...` would; the folder and the
 * figures are the same whichever thread ran it and whatever ran beside it (the simulator
 * keeps no state outside its run: tests/check-reentrant.sh). The caller decides which runs
 * to make and in what order it reports them. */
#pragma once
#include <glib.h>
#include "figures.h"
#include "scenario.h"
#include "trace.h"

struct sim_options;
struct results;
/* One run and its result folder (NULL: none), as `run -o DIR` makes them: report_simulate
 * (report.h: the per-row files streamed while the run goes, unless a file that is on reads
 * the kept rows, as run --dcgm's do). Sets opt's sinks. Returns the results (without the
 * streamed rows), or NULL with error set. */
struct results *studyrun_simulate(const scenario *sc, const trace *tr, struct sim_options *opt,
                                  const char *dir, GError **error);

typedef struct studyrun_task {
  /* set by the caller */
  const scenario *sc;      /* borrowed until the task is handed back by studyrun_wait */
  const trace *tr;         /* borrowed likewise; several tasks may share one */
  char *dir;               /* the result folder to write; owned */
  guint id;                /* the caller's */
  double give_up_wait_s;   /* sim_options.give_up_wait_s and give_up_late (0: run to the end) */
  guint64 give_up_late;
  /* set by the run */
  run_figures *fig;        /* the folder's figures (NULL on error); owned by the task */
  GError *error;           /* why it failed; owned */
  gboolean stopped;        /* ended by studyrun_stop (then fig is NULL) */
  /* private */
  gint stop;
} studyrun_task;

studyrun_task *studyrun_task_new(const scenario *sc, const trace *tr, const char *dir, guint id);
void studyrun_task_free(studyrun_task *t);

typedef struct studyrun_pool studyrun_pool;

/* jobs >= 1 runs at once. With jobs == 1 every task runs in the caller's thread inside
 * studyrun_submit, with the simulator's own progress bar when progress is TRUE; with more,
 * progress shows one line "NAME: N runs finished, M running" instead (both on stderr, and
 * only when it is a terminal). What a study writes does not depend on jobs. */
studyrun_pool *studyrun_pool_new(guint jobs, gboolean progress, const char *name);
/* Starts t (or, with jobs == 1, runs it). The pool holds t until studyrun_wait hands it
 * back. */
void studyrun_submit(studyrun_pool *p, studyrun_task *t);
/* The next finished task, in the order they finish (blocking); NULL when none is
 * pending. The caller owns it again. */
studyrun_task *studyrun_wait(studyrun_pool *p);
/* A finished task is waiting to be handed back (studyrun_wait would not block). */
gboolean studyrun_ready(const studyrun_pool *p);
/* Tasks submitted and not handed back yet. */
guint studyrun_pending(const studyrun_pool *p);
/* Asks t's run to end early (it is handed back with stopped set, or finished if it was
 * already past the simulation). */
void studyrun_stop(studyrun_task *t);
/* Stops and waits for what is still pending (freeing those tasks), then frees p. */
void studyrun_pool_free(studyrun_pool *p);

/* Runs n scenarios on tr through p (sc[i] into folder dirs[i], task id i) and waits for
 * them: figs[i] receives run i's figures (owned). As a one-after-another loop would report
 * it, a failing run stops the runs after it (in index order) and nothing after it is
 * started; then the figures are freed, *error is the first failure's and the result its
 * index. Returns n when every run succeeded. */
guint studyrun_all(studyrun_pool *p, const scenario *const *sc, const trace *tr,
                   const char *const *dirs, guint n, run_figures **figs, GError **error);
