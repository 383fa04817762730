/* cmd-sweep.c: `sharesim sweep SCENARIO.yaml TRACE.csv --set KEY=V1,V2,... [-j N] [-o DIR]`:
 * runs every point of the grid as its own `sharesim run` process (this very binary,
 * exec'd with an argument vector, never through a shell), at most N at a time, each into
 * DIR/points/NAME; resumes by skipping finished points; then writes DIR/sweep.csv.
 * Also --slurm (write an array-job script instead of running), --point (one point, for
 * that script) and --collect (sweep.csv from finished points). The grid, manifest and
 * tables are sweep.c's. */
#include "cmd.h"
#include "cmd-load.h"
#include "cmd-seeds.h"
#include "sim.h"
#include "cleanup.h"
#include "spawn.h"
#include "cmd-sql.h"
#include "outdir.h"
#include "studydir.h"
#include "sweeplock.h"
#include "figures.h"
#include "sweep.h"
#include "util.h"
#include <errno.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

/* The arguments of `sharesim run` for point p (without the program name). */
static GPtrArray *sweep_run_args(const sweep_spec *s, guint p, const char *dir) {
  GPtrArray *a = g_ptr_array_new_with_free_func(g_free);
  g_ptr_array_add(a, g_strdup("run"));
  g_ptr_array_add(a, g_strdup(s->scenario));
  g_ptr_array_add(a, g_strdup(s->trace));
  if (s->phases) {
    g_ptr_array_add(a, g_strdup("--phases"));
    g_ptr_array_add(a, g_strdup(s->phases));
  }
  if (s->requests) {
    g_ptr_array_add(a, g_strdup("--requests"));
    g_ptr_array_add(a, g_strdup(s->requests));
  }
  g_auto(GStrv) ov = sweep_grid_overrides(s->grid, p);
  for (guint k = 0; ov[k]; k++) {
    g_ptr_array_add(a, g_strdup("--set"));
    g_ptr_array_add(a, g_strdup(ov[k]));
  }
  cmd_append_input_flags(a); /* --allow-large, --allow-path: the point runs as this one */
  if (s->n_seeds > 1) { /* the point's seeds one after another: the points run in parallel */
    g_ptr_array_add(a, g_strdup("--seeds"));
    g_ptr_array_add(a, g_strdup_printf("%u", s->n_seeds));
    g_ptr_array_add(a, g_strdup("-j"));
    g_ptr_array_add(a, g_strdup("1"));
  }
  g_ptr_array_add(a, g_strdup("-o"));
  g_ptr_array_add(a, sweep_point_dir(dir, g_ptr_array_index(s->names, p)));
  g_ptr_array_add(a, g_strdup("-q"));
  g_ptr_array_add(a, g_strdup("--no-progress"));
  return a;
}

/* Every point's scenario is loaded and checked before anything runs (exit 2 on bad
 * values), and the trace once. The files the scenarios reference join the spec (their
 * hashes are part of the sweep's identity). */
static gboolean sweep_check_inputs(sweep_spec *s) {
  g_autoptr(diag_list) d = diag_list_new(0);
  cmd_inputs in = {0};
  for (guint p = 0; p < s->grid->n_points; p++) {
    g_auto(GStrv) ov = sweep_grid_overrides(s->grid, p);
    scenario *sc = scenario_load_with_overrides(s->scenario, (const char *const *)ov,
                                                g_strv_length(ov), d);
    if (sc) {
      sim_check_scenario(sc, d);
      g_autoptr(GError) err = NULL;
      if (!diag_has_errors(d) && !sweep_spec_add_references(s, sc, &err))
        diag_add(d, s->scenario, 0, 0, "%s", err->message);
      /* the work budget of each point, with the trace once it is loaded (below) */
      if (!diag_has_errors(d) && !in.sc &&
          !cmd_load_inputs("sweep", s->scenario, s->trace, s->phases, s->requests, NULL, 0, &in)) {
        scenario_free(sc);
        return FALSE;
      }
      if (!diag_has_errors(d)) cmd_budget(sc, in.tr, FALSE, d);
      if (!diag_has_errors(d) && s->n_seeds > 1 && sc->seed > G_MAXUINT64 - (s->n_seeds - 1))
        diag_add(d, s->scenario, 0, 0, "--seeds %u: point %u's seeds would run from %" G_GUINT64_FORMAT
                 " past the largest seed %" G_GUINT64_FORMAT, s->n_seeds, p + 1, sc->seed, G_MAXUINT64);
      scenario_free(sc);
    }
    if (diag_has_errors(d)) break; /* the same problem would repeat for every point */
  }
  cmd_inputs_clear(&in);
  if (diag_has_errors(d)) {
    cmd_print_diags("sweep", d);
    return FALSE;
  }
  if (!cmd_load_inputs("sweep", s->scenario, s->trace, s->phases, s->requests, NULL, 0, &in))
    return FALSE;
  cmd_inputs_clear(&in);
  return TRUE;
}

/* ---- running points locally ---- */

typedef struct sweep_job {
  GPid pid;
  guint point;
  char *log_path;     /* the child's stderr */
} sweep_job;

static void sweep_child_setup(gpointer parent) {
#ifdef __linux__
  /* die with the sweep: a killed sweep leaves no point running behind it */
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != (pid_t)GPOINTER_TO_INT(parent)) _exit(1);
#else
  (void)parent;
#endif
}

static gboolean sweep_spawn(const sweep_spec *s, guint p, const char *dir, sweep_job *job,
                            GError **error) {
  GPtrArray *args = sweep_run_args(s, p, dir);
  g_ptr_array_insert(args, 0, g_strdup("/proc/self/exe"));
  g_ptr_array_add(args, NULL);
  g_autofree char *tmpl = outdir_temp_name("sharesim-sweep-log", "tmp");
  cleanup_begin(); /* a signal before the log and the child are registered waits for it */
  int fd = g_file_open_tmp(tmpl, &job->log_path, error);
  gboolean ok = fd >= 0;
  if (ok) cleanup_add(job->log_path);
  if (ok) {
    ok = g_spawn_async_with_pipes_and_fds(
        NULL, (const char *const *)args->pdata, NULL,
        G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDIN_FROM_DEV_NULL | G_SPAWN_STDOUT_TO_DEV_NULL,
        sweep_child_setup, GINT_TO_POINTER((int)getpid()), -1, -1, fd, NULL, NULL, 0, &job->pid,
        NULL, NULL, NULL, error);
    close(fd);
    if (ok) cleanup_add_child(job->pid);
  }
  cleanup_end();
  job->point = p;
  g_ptr_array_free(args, TRUE);
  return ok;
}

static void sweep_progress(gboolean show, guint done, guint total, guint running) {
  if (!show) return;
  const int width = 30;
  int filled = total ? (int)((guint64)done * width / total) : width;
  fprintf(stderr, "\rsweep [%.*s%*s] %u/%u points, %u running ", filled,
          "==============================", width - filled, "", done, total, running);
  fflush(stderr);
}

/* Runs the unfinished points, at most jobs at a time. Returns the number that failed
 * (their stderr printed); -1 when a process could not be started. */
static int sweep_run_points(const sweep_spec *s, const char *dir, guint jobs, gboolean show) {
  g_setenv(OUTDIR_NO_SWEEP_ENV, "1", TRUE); /* inherited by the points: points/ is ours */
  GArray *todo = g_array_new(FALSE, FALSE, sizeof(guint));
  for (guint p = 0; p < s->grid->n_points; p++)
    if (!sweep_point_done(dir, g_ptr_array_index(s->names, p))) g_array_append_val(todo, p);
  guint total = s->grid->n_points, done = total - todo->len, next = 0, running = 0;
  sweep_job *slots = g_new0(sweep_job, jobs);
  int failed = 0;
  gboolean spawn_error = FALSE;
  sweep_progress(show, done, total, 0);
  while (next < todo->len || running > 0) {
    while (!spawn_error && running < jobs && next < todo->len) {
      guint slot = 0;
      while (slots[slot].pid) slot++;
      g_autoptr(GError) err = NULL;
      if (!sweep_spawn(s, g_array_index(todo, guint, next), dir, &slots[slot], &err)) {
        fprintf(stderr, "%ssharesim sweep: cannot start a run: %s\n", show ? "\n" : "", err->message);
        if (slots[slot].log_path) {
          g_unlink(slots[slot].log_path);
          cleanup_forget(slots[slot].log_path);
        }
        g_clear_pointer(&slots[slot].log_path, g_free);
        slots[slot].pid = 0;
        spawn_error = TRUE;
        break;
      }
      next++;
      running++;
    }
    /* the points just started count (the line said "0 running" while 2 ran; issue 11 bug 9) */
    sweep_progress(show, done, total, running);
    if (running == 0) break;
    int status = 0;
    pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) {
      if (errno == EINTR) continue;
      break;
    }
    guint slot;
    for (slot = 0; slot < jobs && slots[slot].pid != pid; slot++) {}
    if (slot == jobs) continue; /* not one of ours */
    running--;
    sweep_job *job = &slots[slot];
    const char *name = g_ptr_array_index(s->names, job->point);
    gboolean ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 && sweep_point_done(dir, name);
    if (ok) {
      done++;
    } else if (cleanup_signalled()) {
      failed++; /* stopped by the signal that ends this sweep: nothing to report */
    } else {
      failed++;
      g_autofree char *log = NULL;
      g_file_get_contents(job->log_path, &log, NULL, NULL);
      fprintf(stderr, "%ssharesim sweep: point %s failed (%s %d):\n%s", show ? "\n" : "", name,
              WIFEXITED(status) ? "exit code" : "signal",
              WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? WTERMSIG(status) : 0,
              log && *log ? log : "(no message)\n");
    }
    g_unlink(job->log_path);
    cleanup_forget(job->log_path);
    g_clear_pointer(&job->log_path, g_free);
    cleanup_forget_child(job->pid);
    g_spawn_close_pid(job->pid);
    job->pid = 0;
    sweep_progress(show, done, total, running);
  }
  if (show) fprintf(stderr, "\n");
  g_free(slots);
  g_array_free(todo, TRUE);
  return spawn_error ? -1 : failed;
}

/* ---- the folder ---- */

static gboolean sweep_write_file(const char *dir, const char *name, const char *text, gsize len,
                                 GError **error) {
  g_autofree char *path = g_build_filename(dir, name, NULL);
  return g_file_set_contents(path, text, (gssize)len, error);
}

/* Only what sweep itself creates first is in dir (the marker, the lock, an empty points/):
 * a new sweep may take it. */
static gboolean sweep_dir_is_fresh(const char *dir) {
  GDir *d = g_dir_open(dir, 0, NULL);
  if (!d) return FALSE;
  gboolean fresh = TRUE;
  const char *e;
  while (fresh && (e = g_dir_read_name(d)) != NULL) {
    g_autofree char *p = g_build_filename(dir, e, NULL);
    GDir *sub = !strcmp(e, "points") ? g_dir_open(p, 0, NULL) : NULL;
    fresh = !strcmp(e, OUTDIR_MARKER) || !strcmp(e, SWEEPLOCK_FILE) ||
            (sub && g_dir_read_name(sub) == NULL);
    if (sub) g_dir_close(sub);
  }
  g_dir_close(d);
  return fresh;
}

/* Before anything is created in an existing dir: it looks like a sweep folder (or is
 * empty), so that no lock file is ever put into a user's folder. */
static gboolean sweep_dir_may_be_ours(const char *dir) {
  static const char *const signs[] = {"sweep.json", OUTDIR_MARKER, SWEEPLOCK_FILE};
  for (guint i = 0; i < G_N_ELEMENTS(signs); i++) {
    g_autofree char *p = g_build_filename(dir, signs[i], NULL);
    if (g_file_test(p, G_FILE_TEST_IS_REGULAR)) return TRUE;
  }
  return sweep_dir_is_fresh(dir);
}

/* Creates DIR (and DIR/points) or checks that it holds this very sweep, under the
 * folder's lock (*lock, held on success until the caller releases it). */
static int sweep_prepare_dir(const char *dir, const char *manifest, sweeplock **lock) {
  g_autofree char *mpath = g_build_filename(dir, "sweep.json", NULL);
  gboolean existed = g_file_test(dir, G_FILE_TEST_EXISTS);
  if (existed && !g_file_test(dir, G_FILE_TEST_IS_DIR)) {
    fprintf(stderr, "sharesim sweep: %s exists and is not a folder\n", dir);
    return 2;
  }
  const char *not_ours = "sharesim sweep: refusing to use %s: it exists and is not a sweep "
                         "folder (no sweep.json)\n";
  if (existed && !sweep_dir_may_be_ours(dir)) {
    fprintf(stderr, not_ours, dir);
    return 2;
  }
  g_autofree char *points = g_build_filename(dir, "points", NULL);
  if (g_mkdir_with_parents(points, 0755) != 0) {
    int e = errno;
    fprintf(stderr, "sharesim sweep: cannot create %s: %s\n", points, g_strerror(e));
    return 1;
  }
  g_autoptr(GError) err = NULL;
  if (!(*lock = sweeplock_take(dir, TRUE, &err))) return cmd_fail("sweep", err);
  g_autofree char *old = NULL;
  int rc = 0;
  if (g_file_get_contents(mpath, &old, NULL, NULL)) {
    if (strcmp(old, manifest)) {
      fprintf(stderr, "sharesim sweep: %s holds another sweep (different inputs, input "
                      "contents, referenced files or grid; see its sweep.json): use another -o "
                      "folder, or remove it to start again\n", dir);
      rc = 2;
    }
  } else if (!sweep_dir_is_fresh(dir)) {
    fprintf(stderr, not_ours, dir);
    rc = 2;
  }
  g_autofree char *marker = g_build_filename(dir, OUTDIR_MARKER, NULL);
  if (!rc && ((!g_file_test(marker, G_FILE_TEST_IS_REGULAR) && !outdir_write_marker(dir, &err)) ||
              !sweep_write_file(dir, "sweep.json", manifest, strlen(manifest), &err)))
    rc = cmd_fail("sweep", err);
  if (rc) g_clear_pointer(lock, sweeplock_release);
  return rc;
}

static int sweep_write_csv(const sweep_spec *s, const char *dir, gboolean print_csv,
                           gboolean quiet, gboolean partial_ok) {
  g_autoptr(GError) err = NULL;
  GString *csv = g_string_new(NULL);
  GPtrArray *missing = g_ptr_array_new_with_free_func(g_free);
  int rc = 0;
  if (!sweep_csv(s, dir, csv, missing, &err)) {
    rc = cmd_fail("sweep", err);
  } else if (missing->len && !partial_ok) {
    fprintf(stderr, "sharesim sweep: %u point%s not finished; sweep.csv not written\n",
            missing->len, missing->len == 1 ? "" : "s");
    rc = 1;
  } else if (!sweep_write_file(dir, "sweep.csv", csv->str, csv->len, &err)) {
    rc = cmd_fail("sweep", err);
  } else {
    if (missing->len) {
      fprintf(stderr, "sharesim sweep: %u of %u points not finished, left out of sweep.csv:",
              missing->len, s->grid->n_points);
      for (guint i = 0; i < missing->len && i < 20; i++)
        fprintf(stderr, " %s", (const char *)g_ptr_array_index(missing, i));
      fprintf(stderr, "%s\n", missing->len > 20 ? " ..." : "");
      rc = 1;
    }
    if (!quiet) {
      if (print_csv) {
        fwrite(csv->str, 1, csv->len, stdout);
      } else {
        GString *text = g_string_new(NULL);
        if (sweep_text(s, dir, text, &err))
          fwrite(text->str, 1, text->len, stdout);
        else
          rc = cmd_fail("sweep", err);
        g_string_free(text, TRUE);
      }
    }
  }
  g_ptr_array_free(missing, TRUE);
  g_string_free(csv, TRUE);
  return rc;
}

/* What --slurm writes into the script besides the array (NULL: left to the cluster). */
typedef struct sweep_slurm_opts {
  const char *partition, *time, *mem, *output, *binary;
} sweep_slurm_opts;

/* value consists of characters of allowed only (and is not empty). */
static gboolean sweep_slurm_text_ok(const char *value, const char *allowed) {
  if (!value || !*value) return FALSE;
  for (const char *c = value; *c; c++)
    if (!g_ascii_isalnum(*c) && !strchr(allowed, *c)) return FALSE;
  return TRUE;
}

/* Checks the --slurm options (they become #SBATCH lines: nothing may end a line); 0 or 2
 * with the message printed. */
static int sweep_slurm_check(const sweep_slurm_opts *o) {
  const struct { const char *flag, *value, *allowed, *expected; } checks[] = {
    {"--partition", o->partition, "_.,-", "a partition name (letters, digits, _ . , -)"},
    {"--time", o->time, ":-", "a Slurm time limit: MINUTES, HH:MM:SS or D-HH:MM:SS"},
    {"--mem", o->mem, "", "a memory size: a number with an optional K, M, G or T (4G)"},
    {"--slurm-output", o->output, "_.,-/%+=@~", "a file pattern (letters, digits, / _ . - %, e.g. logs/%A_%a.out)"},
  };
  for (guint i = 0; i < G_N_ELEMENTS(checks); i++) {
    if (!checks[i].value) continue;
    gboolean ok = sweep_slurm_text_ok(checks[i].value, checks[i].allowed);
    if (ok && i == 1) ok = g_ascii_isdigit(checks[i].value[0]);
    if (ok && i == 2) {
      gsize n = strlen(checks[i].value);
      for (gsize k = 0; ok && k + 1 < n; k++) ok = g_ascii_isdigit(checks[i].value[k]);
      ok = ok && (g_ascii_isdigit(checks[i].value[n - 1]) || strchr("KMGT", checks[i].value[n - 1]));
    }
    if (!ok) {
      g_autofree char *shown = figures_clean_text(checks[i].value);
      fprintf(stderr, "sharesim sweep: %s '%s': expected %s\n", checks[i].flag, shown,
              checks[i].expected);
      return 2;
    }
  }
  if (o->binary && (!g_path_is_absolute(o->binary) || strpbrk(o->binary, "\n\r"))) {
    g_autofree char *shown = figures_clean_text(o->binary);
    fprintf(stderr, "sharesim sweep: --binary '%s': expected the absolute path of sharesim on "
                    "the cluster's nodes\n", shown);
    return 2;
  }
  return 0;
}

/* The #SBATCH lines of the options given. */
static void sweep_slurm_lines(const sweep_slurm_opts *o, GString *sh) {
  if (o->partition) g_string_append_printf(sh, "#SBATCH --partition=%s\n", o->partition);
  if (o->time) g_string_append_printf(sh, "#SBATCH --time=%s\n", o->time);
  if (o->mem) g_string_append_printf(sh, "#SBATCH --mem=%s\n", o->mem);
  if (o->output) g_string_append_printf(sh, "#SBATCH --output=%s\n", o->output);
}

static int sweep_write_slurm(const sweep_spec *s, const char *dir, const sweep_slurm_opts *o) {
  g_autofree char *exe = o->binary ? g_strdup(o->binary) : g_file_read_link("/proc/self/exe", NULL);
  g_autofree char *absdir = g_canonicalize_filename(dir, NULL);
  if (!exe) {
    fprintf(stderr, "sharesim sweep: cannot find this program's path (/proc/self/exe)\n");
    return 1;
  }
  g_autofree char *qexe = g_shell_quote(exe), *qdir = g_shell_quote(absdir);
  g_autofree char *shown_dir = figures_clean_text(absdir); /* a comment line: no line breaks */
  g_autoptr(GPtrArray) flags = g_ptr_array_new_with_free_func(g_free);
  cmd_append_input_flags(flags);
  GString *fl = g_string_new(NULL);
  for (guint i = 0; i < flags->len; i++) {
    g_autofree char *q = g_shell_quote(g_ptr_array_index(flags, i));
    g_string_append_printf(fl, " %s", q);
  }
  g_autofree char *qflags = g_string_free(fl, FALSE);
  GString *sh = g_string_new(NULL);
  g_string_append_printf(sh,
      "#!/bin/bash\n"
      "# sweep.sbatch: runs the %u points of this sweep as a Slurm array job, one point per\n"
      "# task (written by sharesim sweep --slurm). Submit it from any folder:\n"
      "#   sbatch sweep.sbatch\n"
      "# then, when the tasks are done, build sweep.csv (and resubmit the points that failed\n"
      "# or never ran):\n"
      "#   sharesim sweep --collect %s [--resubmit]\n"
      "# A task whose point is already finished does nothing, so resubmitting is safe.\n"
      "#SBATCH --job-name=sharesim-sweep\n"
      "#SBATCH --array=1-%u\n"
      "#SBATCH --ntasks=1\n"
      "#SBATCH --cpus-per-task=1\n",
      s->grid->n_points, shown_dir, s->grid->n_points);
  sweep_slurm_lines(o, sh);
  g_string_append_printf(sh, "set -eu\nexec %s sweep --point \"$SLURM_ARRAY_TASK_ID\" %s%s\n",
                         qexe, qdir, qflags);
  g_autoptr(GError) err = NULL;
  g_autofree char *path = g_build_filename(dir, "sweep.sbatch", NULL);
  int rc = 0;
  if (!g_file_set_contents(path, sh->str, (gssize)sh->len, &err) || g_chmod(path, 0755) != 0) {
    rc = err ? cmd_fail("sweep", err) : 1;
  } else {
    printf("wrote %s for %u points (array 1-%u) and the manifest %s/sweep.json\n"
           "submit:  sbatch %s\n"
           "collect: sharesim sweep --collect %s [--resubmit]\n",
           path, s->grid->n_points, s->grid->n_points, dir, path, dir);
  }
  g_string_free(sh, TRUE);
  return rc;
}

/* ---- failed points (Slurm tasks) ---- */

/* DIR/failed/NAME: written by a --point task whose run failed (its exit code), removed when
 * the point later finishes. */
static char *sweep_failed_path(const char *dir, const char *name) {
  return g_build_filename(dir, "failed", name, NULL);
}

static void sweep_mark_failed(const char *dir, const char *name, int rc) {
  g_autofree char *folder = g_build_filename(dir, "failed", NULL);
  g_autofree char *path = sweep_failed_path(dir, name);
  g_autofree char *host = g_strdup(g_get_host_name());
  g_autofree char *text = g_strdup_printf("exit code %d on %s\n", rc, host);
  if (g_mkdir_with_parents(folder, 0755) == 0) g_file_set_contents(path, text, -1, NULL);
}

static void sweep_clear_failed(const char *dir, const char *name) {
  g_autofree char *path = sweep_failed_path(dir, name);
  g_unlink(path); /* only ever written by sweep_mark_failed */
}

/* "1-3,5,8-9": the 1-based indices of the points in list (ascending). */
static char *sweep_array_ranges(const GArray *points) {
  GString *out = g_string_new(NULL);
  for (guint i = 0; i < points->len;) {
    guint a = g_array_index(points, guint, i), b = a;
    while (i + 1 < points->len && g_array_index(points, guint, i + 1) == b + 1) b = g_array_index(points, guint, ++i);
    i++;
    if (out->len) g_string_append_c(out, ',');
    if (a == b) g_string_append_printf(out, "%u", a + 1);
    else g_string_append_printf(out, "%u-%u", a + 1, b + 1);
  }
  return g_string_free(out, FALSE);
}

/* --collect: names the failed points and those that never ran (or still run); with
 * resubmit, submits them again as one array job (sbatch --array=LIST DIR/sweep.sbatch). */
static int sweep_report_unfinished(const sweep_spec *s, const char *dir, gboolean resubmit) {
  GArray *todo = g_array_new(FALSE, FALSE, sizeof(guint));
  GString *failed = g_string_new(NULL);
  guint n_failed = 0;
  for (guint p = 0; p < s->grid->n_points; p++) {
    const char *name = g_ptr_array_index(s->names, p);
    if (sweep_point_done(dir, name)) continue;
    g_array_append_val(todo, p);
    g_autofree char *fp = sweep_failed_path(dir, name);
    g_autofree char *why = NULL;
    if (!g_file_get_contents(fp, &why, NULL, NULL)) continue;
    if (n_failed++ < 20) g_string_append_printf(failed, "  %s: %s", name, why);
  }
  if (n_failed)
    fprintf(stderr, "sharesim sweep: %u point%s failed (%s/failed/):\n%s%s", n_failed,
            n_failed == 1 ? "" : "s", dir, failed->str, n_failed > 20 ? "  ...\n" : "");
  if (todo->len > n_failed)
    fprintf(stderr, "sharesim sweep: %u point%s never ran or still run%s\n", todo->len - n_failed,
            todo->len - n_failed == 1 ? "" : "s", todo->len - n_failed == 1 ? "s" : "");
  int rc = 0;
  if (resubmit && todo->len) {
    g_autofree char *ranges = sweep_array_ranges(todo);
    g_autofree char *array = g_strconcat("--array=", ranges, NULL);
    g_autofree char *script = g_build_filename(dir, "sweep.sbatch", NULL);
    g_autofree char *sbatch = g_find_program_in_path("sbatch");
    char *argv[] = {sbatch ? sbatch : "sbatch", array, script, NULL};
    g_autoptr(GError) err = NULL;
    g_autofree char *err_text = NULL;
    /* assumption: sbatch answers within 2 minutes (it only queues the array) */
    if (spawn_run_limited(NULL, argv, 120, &err_text, &err)) {
      printf("resubmitted %u point%s: sbatch %s %s\n", todo->len, todo->len == 1 ? "" : "s", array,
             script);
    } else {
      fprintf(stderr, "sharesim sweep: sbatch %s %s failed: %s%s%s", array, script, err->message,
              err_text && *err_text ? "\n" : "\n", err_text ? err_text : "");
      rc = 1;
    }
  } else if (resubmit) {
    printf("every point is finished: nothing to resubmit\n");
  }
  g_string_free(failed, TRUE);
  g_array_free(todo, TRUE);
  return rc;
}

/* --point N DIR: one point of the manifest, in this process. */
static int sweep_one_point(const char *dir, gint64 point) {
  g_autoptr(GError) err = NULL;
  g_autoptr(sweep_spec) s = sweep_manifest_load(dir, &err);
  if (!s) return cmd_fail("sweep", err);
  if (point < 1 || point > (gint64)s->grid->n_points) {
    fprintf(stderr, "sharesim sweep: --point %" G_GINT64_FORMAT ": expected 1 to %u\n", point,
            s->grid->n_points);
    return 2;
  }
  guint p = (guint)(point - 1);
  g_autofree char *absdir = g_canonicalize_filename(dir, NULL);
  if (sweep_point_done(absdir, g_ptr_array_index(s->names, p))) {
    printf("point %s already finished\n", (const char *)g_ptr_array_index(s->names, p));
    return 0;
  }
  if (g_chdir(s->cwd) != 0) { /* the manifest's paths are relative to it */
    int e = errno;
    fprintf(stderr, "sharesim sweep: cannot enter %s: %s\n", s->cwd, g_strerror(e));
    return 1;
  }
  if (!sweep_spec_verify(s, &err)) return cmd_fail("sweep", err);
  /* shared: other --point tasks may run beside this one, a whole sweep may not */
  sweeplock *lock = sweeplock_take(absdir, FALSE, &err);
  if (!lock) return cmd_fail("sweep", err);
  /* one listing of points/ per task would grow with the square of the grid: what dead
   * tasks left is swept by --collect and by the next sweep on the folder */
  g_setenv(OUTDIR_NO_SWEEP_ENV, "1", TRUE);
  GPtrArray *args = sweep_run_args(s, p, absdir);
  int argc = (int)args->len;
  /* option parsing rearranges the vector it is given: hand it a copy, free the strings
   * from the array */
  char **argv = g_new0(char *, args->len + 1);
  memcpy(argv, args->pdata, args->len * sizeof(char *));
  int rc = cmd_find("run")->main(argc, argv);
  if (rc != 0)
    sweep_mark_failed(absdir, g_ptr_array_index(s->names, p), rc);
  else
    sweep_clear_failed(absdir, g_ptr_array_index(s->names, p));
  g_free(argv);
  g_ptr_array_free(args, TRUE);
  sweeplock_release(lock);
  return rc;
}

/* What the command line asked for. */
typedef struct sweep_args {
  char **sets;
  char *out, *phases, *requests, *collect, *format;
  gint jobs;
  gint64 point;
  gboolean slurm, no_progress, quiet, print_csv, resubmit;
  sweep_slurm_opts so;
  char *partition, *time, *mem, *slurm_output, *binary;
  char *seeds;              /* --seeds */
  char *sqlite;             /* --sqlite */
  guint n_seeds;            /* 1 without it */
} sweep_args;

static void sweep_args_clear(sweep_args *a) {
  g_strfreev(a->sets);
  g_free(a->out);
  g_free(a->phases);
  g_free(a->requests);
  g_free(a->collect);
  g_free(a->format);
  g_free(a->partition);
  g_free(a->time);
  g_free(a->mem);
  g_free(a->slurm_output);
  g_free(a->binary);
  g_free(a->sqlite);
  g_free(a->seeds);
}

/* --collect DIR: sweep.csv from what is finished. */
static int sweep_collect(const sweep_args *a) {
  g_autoptr(GError) err = NULL;
  g_autoptr(sweep_spec) s = sweep_manifest_load(a->collect, &err);
  if (!s) return cmd_fail("sweep", err);
  g_autofree char *points = g_build_filename(a->collect, "points", NULL);
  studydir_clean_temporaries(points, NULL); /* dead tasks' temporaries (this host) */
  int rc = 0;
  report_sql *sql = cmd_sql_begin("sweep", a->sqlite, NULL, &rc);
  if (rc) return rc;
  rc = sweep_write_csv(s, a->collect, a->print_csv, a->quiet, TRUE);
  int rs = sweep_report_unfinished(s, a->collect, a->resubmit);
  if (rc == 0 && rs == 0) rc = cmd_sql_finish("sweep", g_steal_pointer(&sql), a->collect);
  report_sql_abort(sql);
  return rc ? rc : rs;
}

extern const cmd_entry cmd_sweep_entry; /* at the end of this file; its row: cmd.c */

/* The arguments of a sweep to run (or to write for Slurm): 0 or the exit code. */
static int sweep_check_args(sweep_args *a, int argc) {
  if (argc != 3) {
    fprintf(stderr, "sharesim sweep: expected SCENARIO.yaml and TRACE.csv, got %d argument%s\n"
                    "Usage: sharesim sweep %s\n", argc - 1, argc == 2 ? "" : "s", cmd_sweep_entry.usage);
    return 2;
  }
  if (!a->sets || !a->sets[0]) {
    fprintf(stderr, "sharesim sweep: expected at least one --set KEY=V1,V2,...\n");
    return 2;
  }
  if (!cmd_check_jobs("sweep", &a->jobs) || !cmd_seeds_parse("sweep", a->seeds, &a->n_seeds))
    return 2;
  if (a->slurm && a->sqlite) {
    fprintf(stderr, "sharesim sweep: --sqlite goes with a sweep run here or with --collect DIR, "
                    "not with --slurm (the points are not run yet)\n");
    return 2;
  }
  if (a->slurm && !a->out) {
    fprintf(stderr, "sharesim sweep: --slurm needs -o DIR (the folder the cluster writes into)\n");
    return 2;
  }
  a->so = (sweep_slurm_opts){a->partition, a->time, a->mem, a->slurm_output, a->binary};
  if (!a->slurm && (a->partition || a->time || a->mem || a->slurm_output || a->binary)) {
    fprintf(stderr, "sharesim sweep: --partition, --time, --mem, --slurm-output and --binary "
                    "go with --slurm\n");
    return 2;
  }
  return sweep_slurm_check(&a->so);
}

/* Runs the unfinished points of the prepared folder dir, then writes sweep.csv. */
static int sweep_run_local(const sweep_args *a, const sweep_spec *s, const char *dir) {
  g_autofree char *points = g_build_filename(dir, "points", NULL);
  studydir_clean_temporaries(points, (const char *const *)s->names->pdata);
  const char *logs[] = {"sharesim-sweep-log", NULL};
  outdir_sweep_stale(g_get_tmp_dir(), logs, NULL);
  guint before = 0;
  for (guint p = 0; p < s->grid->n_points; p++)
    before += sweep_point_done(dir, g_ptr_array_index(s->names, p));
  if (before)
    fprintf(stderr, "sharesim sweep: %u of %u points already finished in %s, skipped\n",
            before, s->grid->n_points, dir);
  gboolean show = !a->no_progress && isatty(STDERR_FILENO);
  int failed = sweep_run_points(s, dir, (guint)a->jobs, show);
  studydir_clean_temporaries(points, (const char *const *)s->names->pdata);
  if (failed != 0) {
    if (failed > 0)
      fprintf(stderr, "sharesim sweep: %d point%s failed; the others are kept: fix the "
                      "problem and run the same command again to finish\n",
              failed, failed == 1 ? "" : "s");
    return 1;
  }
  int rc = sweep_write_csv(s, dir, a->print_csv, a->quiet, FALSE);
  if (rc == 0 && a->out && !a->quiet && !a->print_csv)
    printf("sweep written to %s/ (sweep.csv, points/)\n", a->out);
  return rc;
}

/* SCENARIO.yaml TRACE.csv --set ...: checks every point, prepares the folder, then runs
 * the points or writes the Slurm script. */
static int sweep_start(const sweep_args *a, char **argv) {
  g_autoptr(GError) err = NULL;
  sweep_grid *grid = sweep_grid_parse((const char *const *)a->sets, g_strv_length(a->sets), &err);
  if (!grid) return cmd_fail("sweep", err);
  g_autoptr(sweep_spec) s = sweep_spec_new(argv[1], argv[2], a->phases, a->requests, grid, &err);
  if (!s) return cmd_fail("sweep", err);
  s->n_seeds = a->n_seeds;
  if ((guint64)s->grid->n_points * a->n_seeds > SWEEP_MAX_POINTS) {
    fprintf(stderr, "sharesim sweep: %u points x %u seeds is more than %u runs\n",
            s->grid->n_points, a->n_seeds, SWEEP_MAX_POINTS);
    return 2;
  }
  if (!sweep_check_inputs(s)) return 2;
  g_autofree char *scratch = NULL;
  const char *dir = a->out;
  if (!dir) {
    scratch = outdir_make_scratch("sharesim-sweep", &err);
    if (!scratch) return cmd_fail("sweep", err);
    dir = scratch;
  }
  g_autofree char *manifest = sweep_manifest(s);
  sweeplock *lock = NULL;
  int rc = 0;
  report_sql *sql = cmd_sql_begin("sweep", a->sqlite, a->out, &rc);
  if (rc == 0) rc = sweep_prepare_dir(dir, manifest, &lock);
  if (rc == 0 && a->slurm)
    rc = sweep_write_slurm(s, dir, &a->so);
  else if (rc == 0)
    rc = sweep_run_local(a, s, dir);
  if (rc == 0) rc = cmd_sql_finish("sweep", g_steal_pointer(&sql), dir);
  report_sql_abort(sql);
  sweeplock_release(lock);
  if (scratch) outdir_remove_scratch(scratch);
  return rc;
}

/* The sweep's mode: --point, --collect, or a sweep to run or to write for Slurm. */
static int sweep_dispatch(sweep_args *a, int argc, char **argv) {
  if (a->format && !strcmp(a->format, "csv")) a->print_csv = TRUE;
  else if (a->format && strcmp(a->format, "text")) {
    g_autofree char *shown = figures_clean_text(a->format);
    fprintf(stderr, "sharesim sweep: --format '%s': expected text or csv\n", shown);
    return 2;
  }
  if (a->point) {
    if (argc != 2) {
      fprintf(stderr, "sharesim sweep: --point N expects the sweep folder as its one argument\n");
      return 2;
    }
    return sweep_one_point(argv[1], a->point);
  }
  if (a->resubmit && !a->collect) {
    fprintf(stderr, "sharesim sweep: --resubmit goes with --collect DIR\n");
    return 2;
  }
  if (a->collect) {
    if (argc != 1) {
      fprintf(stderr, "sharesim sweep: --collect DIR takes no other argument\n");
      return 2;
    }
    return sweep_collect(a);
  }
  int rc = sweep_check_args(a, argc);
  return rc ? rc : sweep_start(a, argv);
}

static int cmd_sweep_main(int argc, char **argv) {
  sweep_args a = {0};
  GOptionEntry entries[] = {
      {"set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &a.sets, "A scenario key and its values, e.g. pools.dev.nodes=1,2,4 (repeatable: the grid is every combination)", "KEY=V1,V2,..."},
      {"jobs", 'j', 0, G_OPTION_ARG_INT, &a.jobs, "Points run at once (default: the number of processors)", "N"},
      {"seeds", 0, 0, G_OPTION_ARG_STRING, &a.seeds, "Run every point with N seeds (2 to 1000; run --seeds): sweep.csv gets each figure's mean and 95 % interval", "N"},
      {"output", 'o', 0, G_OPTION_ARG_FILENAME, &a.out, "The sweep folder (resumable); without it the sweep runs in a temporary folder", "DIR"},
      {"phases", 0, 0, G_OPTION_ARG_FILENAME, &a.phases, "Phases file (docs/trace-format.md)", "P.csv"},
      {"requests", 0, 0, G_OPTION_ARG_FILENAME, &a.requests, "Recorded inference requests (docs/trace-format.md)", "R.csv"},
      {"format", 0, 0, G_OPTION_ARG_STRING, &a.format, "What to print: text (default) or csv (sweep.csv)", "FORMAT"},
      {"slurm", 0, 0, G_OPTION_ARG_NONE, &a.slurm, "Write DIR/sweep.sbatch (a Slurm array job) instead of running", NULL},
      {"partition", 0, 0, G_OPTION_ARG_STRING, &a.partition, "With --slurm: the partition the tasks run in", "NAME"},
      {"time", 0, 0, G_OPTION_ARG_STRING, &a.time, "With --slurm: each task's time limit (MINUTES, HH:MM:SS, D-HH:MM:SS)", "LIMIT"},
      {"mem", 0, 0, G_OPTION_ARG_STRING, &a.mem, "With --slurm: each task's memory (e.g. 4G)", "SIZE"},
      {"slurm-output", 0, 0, G_OPTION_ARG_STRING, &a.slurm_output, "With --slurm: the tasks' log files (Slurm pattern, e.g. logs/%A_%a.out)", "PATTERN"},
      {"binary", 0, 0, G_OPTION_ARG_FILENAME, &a.binary, "With --slurm: the sharesim the tasks run (absolute path on the nodes; default this program)", "PATH"},
      {"collect", 0, 0, G_OPTION_ARG_FILENAME, &a.collect, "Build DIR/sweep.csv from the finished points of DIR; name the failed and missing ones", "DIR"},
      {"resubmit", 0, 0, G_OPTION_ARG_NONE, &a.resubmit, "With --collect: submit the failed and missing points again (sbatch --array=LIST)", NULL},
      {"point", 0, 0, G_OPTION_ARG_INT64, &a.point, "Run point N of the sweep folder given as argument (for the Slurm script)", "N"},
      CMD_SQL_OPTION(a.sqlite),
      {"quiet", 'q', 0, G_OPTION_ARG_NONE, &a.quiet, "Print nothing on stdout", NULL},
      {"no-progress", 0, 0, G_OPTION_ARG_NONE, &a.no_progress, "Never show the progress bar", NULL},
      {NULL}};
  int rc;
  if (cmd_parse_options(&cmd_sweep_entry, entries, &argc, &argv, &rc)) rc = sweep_dispatch(&a, argc, argv);
  sweep_args_clear(&a);
  return rc;
}

const cmd_entry cmd_sweep_entry = {
    .loads_scenarios = TRUE,
    .name = "sweep",
    .usage = "SCENARIO.yaml TRACE.csv --set KEY=V1,V2,... [--set ...] [-j N] [--seeds N] [-o DIR] [--slurm]"
             "  |  --collect DIR  |  --point N DIR",
    .summary = "grid of scenario variants, run in parallel, one summary row per point; resumable",
    .main = cmd_sweep_main,
};
