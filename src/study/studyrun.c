/* studyrun.c: a pool of threads for the runs of compare and size: one task is one
 * scenario run, its result folder and its figures read back. It owns the threads and the
 * hand-back queue only; which runs to make, their folder names and the order they are
 * reported in are the commands' (cmd-compare.c, cmd-size.c). */
#include "studyrun.h"
#include "report.h"
#include "outdir.h"
#include "sim.h"
#include "util.h"
#include <stdio.h>
#include <unistd.h>

struct studyrun_pool {
  guint jobs;
  gboolean progress;
  gboolean line;           /* the progress line (jobs > 1, stderr a terminal) */
  gboolean line_drawn;
  char *name;
  guint finished;
  GThreadPool *threads;    /* NULL when jobs == 1 */
  GAsyncQueue *done;       /* finished tasks, handed back by studyrun_wait */
  GPtrArray *pending;      /* studyrun_task*, submitted and not handed back */
};

studyrun_task *studyrun_task_new(const scenario *sc, const trace *tr, const char *dir, guint id) {
  studyrun_task *t = g_new0(studyrun_task, 1);
  t->sc = sc;
  t->tr = tr;
  t->dir = g_strdup(dir);
  t->id = id;
  return t;
}

void studyrun_task_free(studyrun_task *t) {
  if (!t) return;
  g_free(t->dir);
  if (t->fig) figures_free(t->fig);
  g_clear_error(&t->error);
  g_free(t);
}

results *studyrun_simulate(const scenario *sc, const trace *tr, sim_options *opt,
                           const char *dir, GError **error) {
  return report_simulate(sc, tr, opt, dir, error);
}

/* The run itself, in whichever thread: sim_run, the folder, its figures. */
static void studyrun_execute(studyrun_task *t, gboolean progress) {
  if (g_atomic_int_get(&t->stop)) {
    t->stopped = TRUE;
    return;
  }
  sim_options opt = {.progress = progress, .stop = &t->stop,
                     .give_up_wait_s = t->give_up_wait_s, .give_up_late = t->give_up_late};
  g_autoptr(results) res = studyrun_simulate(t->sc, t->tr, &opt, t->dir, &t->error);
  if (!res) {
    t->stopped = g_atomic_int_get(&t->stop) != 0;
    return;
  }
  t->fig = figures_load(t->dir, &t->error);
}

static void studyrun_thread(gpointer data, gpointer user) {
  studyrun_pool *p = user;
  studyrun_execute(data, FALSE);
  g_async_queue_push(p->done, data);
}

/* The progress line, redrawn in place. */
static void studyrun_draw(studyrun_pool *p) {
  if (!p->line) return;
  fprintf(stderr, "\r%s: %u run%s finished, %u running ", p->name, p->finished,
          p->finished == 1 ? "" : "s", p->pending->len);
  fflush(stderr);
  p->line_drawn = TRUE;
}

studyrun_pool *studyrun_pool_new(guint jobs, gboolean progress, const char *name) {
  g_return_val_if_fail(jobs >= 1, NULL);
  studyrun_pool *p = g_new0(studyrun_pool, 1);
  p->jobs = jobs;
  p->progress = progress;
  p->line = progress && jobs > 1 && isatty(STDERR_FILENO);
  p->name = g_strdup(name);
  p->done = g_async_queue_new();
  p->pending = g_ptr_array_new();
  (void)sharesim_error_quark(); /* registered once here, not raced for by the threads */
  if (jobs > 1) p->threads = g_thread_pool_new(studyrun_thread, p, (gint)jobs, FALSE, NULL);
  return p;
}

void studyrun_submit(studyrun_pool *p, studyrun_task *t) {
  g_ptr_array_add(p->pending, t);
  if (p->threads) {
    g_thread_pool_push(p->threads, t, NULL);
    studyrun_draw(p);
  } else {
    studyrun_execute(t, p->progress);
    g_async_queue_push(p->done, t);
  }
}

studyrun_task *studyrun_wait(studyrun_pool *p) {
  if (p->pending->len == 0) return NULL;
  studyrun_task *t = g_async_queue_pop(p->done);
  g_ptr_array_remove_fast(p->pending, t);
  if (!t->stopped) p->finished++;
  studyrun_draw(p);
  return t;
}

gboolean studyrun_ready(const studyrun_pool *p) { return g_async_queue_length(p->done) > 0; }

guint studyrun_pending(const studyrun_pool *p) { return p->pending->len; }

void studyrun_stop(studyrun_task *t) { g_atomic_int_set(&t->stop, 1); }

void studyrun_pool_free(studyrun_pool *p) {
  if (!p) return;
  for (guint i = 0; i < p->pending->len; i++) studyrun_stop(g_ptr_array_index(p->pending, i));
  studyrun_task *t;
  while ((t = studyrun_wait(p)) != NULL) studyrun_task_free(t);
  if (p->threads) g_thread_pool_free(p->threads, FALSE, TRUE);
  if (p->line_drawn) fprintf(stderr, "\n");
  g_async_queue_unref(p->done);
  g_ptr_array_free(p->pending, TRUE);
  g_free(p->name);
  g_free(p);
}

/* Takes finished tasks back (blocking only when wait); a failure stops the tasks after it.
 * *first_failed: the first failed task, in index order. */
static void studyrun_collect(studyrun_pool *p, studyrun_task **tasks, guint n, gboolean wait,
                             guint *first_failed) {
  while (studyrun_pending(p) && (wait || studyrun_ready(p))) {
    studyrun_task *t = studyrun_wait(p);
    if (t->fig || t->stopped || t->id > *first_failed) continue;
    *first_failed = t->id;
    for (guint k = *first_failed + 1; k < n; k++)
      if (tasks[k]) studyrun_stop(tasks[k]);
  }
}

guint studyrun_all(studyrun_pool *p, const scenario *const *sc, const trace *tr,
                   const char *const *dirs, guint n, run_figures **figs, GError **error) {
  studyrun_task **tasks = g_new0(studyrun_task *, n + 1);
  guint first_failed = n;
  for (guint i = 0; i < n && first_failed == n; i++) {
    tasks[i] = studyrun_task_new(sc[i], tr, dirs[i], i);
    studyrun_submit(p, tasks[i]);
    studyrun_collect(p, tasks, n, FALSE, &first_failed);
  }
  studyrun_collect(p, tasks, n, TRUE, &first_failed);
  for (guint i = 0; i < n; i++) {
    figs[i] = first_failed == n ? g_steal_pointer(&tasks[i]->fig) : NULL;
    if (i == first_failed) g_propagate_error(error, g_steal_pointer(&tasks[i]->error));
    studyrun_task_free(tasks[i]);
  }
  g_free(tasks);
  return first_failed;
}
