/* invariants.c: the invariant suite's driver (issue 11). For each seed it generates a random
 * case (inv-gen.c), runs `$SHARESIM run` on it, checks the result folder (inv-check.c), and
 * for some seeds runs it again (byte-identical folders; not with SHARESIM_SKIP_REPEATS set)
 * and as a sweep with -j 1 and -j 2 (same answers). A failing case is shrunk (trace and
 * phase rows removed while the same check still fails) and written to a folder that can be
 * kept under tests/data/invariants, whose cases are checked on every run; the lone-gang
 * cases (inv-lone.c) run every time too. Usage: invariants [--seeds N] [--first S]
 * [--keep DIR] [--case DIR]... | --gen SEED DIR (SHARESIM names the binary; TOP_SRCDIR finds kept cases). */
#include "invariants.h"
#include "sim.h"
#include "place.h"
#include <glib/gstdio.h>
#include <malloc.h>
#include <stdio.h>

/* Bugs whose fix is on another branch, not on main yet: a failure naming one is expected
 * (XFAIL). Remove a line when its fix lands; the summary says XPASS when it no longer fails. */
static const char *const inv_pending[] = {
    /* none pending; "jobs-allocated partition" (jobs.csv gpu_s_allocated was each job's
     * nominal share, not its part of the occupied card) is fixed. A name goes before NULL. */
    NULL,
};

typedef struct inv_opts {
  guint32 seeds, first;
  const char *keep;
  const char *sharesim;
  guint xfail[G_N_ELEMENTS(inv_pending)];
  guint checks, runs, failed, cases;
  long last_maxrss_kb;       /* of the last sharesim run */
  inv_budget budget;
} inv_opts;

static char *inv_path(const char *dir, const char *name) { return g_build_filename(dir, name, NULL); }

/* Runs sharesim with argv (NULL-terminated, argv[0] excluded); TRUE on exit 0. Its peak
 * resident size goes to o->last_maxrss_kb. */
static gboolean inv_spawn(inv_opts *o, const char *const *args, char **err_out) {
  GPtrArray *argv = g_ptr_array_new();
  g_ptr_array_add(argv, (char *)o->sharesim);
  for (const char *const *a = args; *a; a++) g_ptr_array_add(argv, (char *)*a);
  g_ptr_array_add(argv, NULL);
  o->runs++;
  gboolean ok = inv_spawn_measured((const char *const *)argv->pdata, NULL, err_out,
                                   &o->last_maxrss_kb);
  g_ptr_array_free(argv, TRUE);
  return ok;
}

static gboolean inv_run(inv_opts *o, const char *dir, const char *out, gboolean dcgm,
                        char **err) {
  g_autofree char *sc = inv_path(dir, "scenario.yaml"), *tr = inv_path(dir, "trace.csv"),
                  *ph = inv_path(dir, "phases.csv");
  /* with --dcgm: its per-GPU series are checked against the budget's bound (inv-budget.c);
   * --allow-large, since that bound is loose for the random cases' long queueing spans (the
   * events and requests, the same with or without --dcgm, are checked below all the same) */
  const char *with[] = {"run", sc, tr, "--phases", ph, "-o", out, "-q", "--dcgm", "--allow-large", NULL};
  const char *without[] = {"run", sc, tr, "--phases", ph, "-o", out, "-q", NULL};
  return inv_spawn(o, dcgm ? with : without, err);
}

/* A quarter of the seeded cases run with --dcgm (its bound checked, inv-budget.c); the
 * others without, so that the walked bursts (off with the per-GPU series) stay covered and
 * the suite's time stays within its budget. */
static gboolean inv_with_dcgm(const inv_case *c) { return c->seed && c->seed % 4 == 0; }

/* Every file of a and b (one level, plus sub-folders one deep) has the same bytes. */
static gboolean inv_same_tree(const char *a, const char *b, GString *why) {
  GDir *d = g_dir_open(a, 0, NULL);
  if (!d) return FALSE;
  gboolean same = TRUE;
  const char *name;
  while (same && (name = g_dir_read_name(d))) {
    g_autofree char *pa = inv_path(a, name), *pb = inv_path(b, name);
    if (g_file_test(pa, G_FILE_TEST_IS_DIR)) {
      same = inv_same_tree(pa, pb, why);
      continue;
    }
    g_autofree char *x = NULL, *y = NULL;
    gsize nx = 0, ny = 0;
    same = g_file_get_contents(pa, &x, &nx, NULL) && g_file_get_contents(pb, &y, &ny, NULL) &&
           nx == ny && memcmp(x, y, nx) == 0;
    if (!same) g_string_append_printf(why, "%s differs from %s", pa, pb);
  }
  g_dir_close(d);
  return same;
}

static void inv_rm_tree(const char *dir) {
  GDir *d = g_dir_open(dir, 0, NULL);
  const char *name;
  while (d && (name = g_dir_read_name(d))) {
    g_autofree char *p = inv_path(dir, name);
    if (g_file_test(p, G_FILE_TEST_IS_DIR) && !g_file_test(p, G_FILE_TEST_IS_SYMLINK)) inv_rm_tree(p);
    else g_unlink(p);
  }
  if (d) g_dir_close(d);
  g_rmdir(dir);
}

/* Runs and checks one case folder; the failures (and expected ones) go into rep. With
 * repeat, also a second run compared byte for byte; with sweep, -j 1 against -j 2. */
static void inv_case_run(inv_opts *o, const inv_case *c, const char *dir, gboolean repeat,
                         gboolean sweep, inv_report *rep) {
  g_autofree char *out = inv_path(dir, "out"), *out2 = inv_path(dir, "out2");
  char *err = NULL;
  gboolean dcgm = inv_with_dcgm(c);
  if (!inv_run(o, dir, out, dcgm, &err)) {
    g_string_append_printf(rep->fail, "run: sharesim run failed: %s\n", err);
    g_free(err);
    return;
  }
  long maxrss_kb = o->last_maxrss_kb;
  inv_check_folder(c, dir, out, rep);
  g_autofree char *what = c->seed ? g_strdup_printf("seed %u", c->seed) : g_path_get_basename(dir);
  inv_budget_check(&o->budget, o->sharesim, dir, out, maxrss_kb, dcgm, what, rep);
  if (repeat) {
    rep->checks++;
    GString *why = g_string_new(NULL);
    if (!inv_run(o, dir, out2, dcgm, &err)) {
      g_string_append_printf(rep->fail, "determinism: second run failed: %s\n", err);
      g_free(err);
    } else if (!inv_same_tree(out, out2, why)) {
      g_string_append_printf(rep->fail, "determinism: same seed, different folders: %s\n", why->str);
    }
    g_string_free(why, TRUE);
    inv_rm_tree(out2);
  }
  if (sweep) {
    rep->checks++;
    g_autofree char *sc = inv_path(dir, "scenario.yaml"), *tr = inv_path(dir, "trace.csv"),
                    *ph = inv_path(dir, "phases.csv"), *s1 = inv_path(dir, "sweep1"),
                    *s2 = inv_path(dir, "sweep2"), *c1 = inv_path(s1, "sweep.csv"),
                    *c2 = inv_path(s2, "sweep.csv");
    const char *a1[] = {"sweep", sc, tr, "--phases", ph, "--set", "seed=1,2", "-j", "1", "-o", s1,
                        "-q", NULL};
    const char *a2[] = {"sweep", sc, tr, "--phases", ph, "--set", "seed=1,2", "-j", "2", "-o", s2,
                        "-q", NULL};
    g_autofree char *x = NULL, *y = NULL;
    gsize nx = 0, ny = 0;
    if (!inv_spawn(o, a1, &err) || !inv_spawn(o, a2, &err)) {
      g_string_append_printf(rep->fail, "sweep: failed: %s\n", err);
      g_free(err);
    } else if (!g_file_get_contents(c1, &x, &nx, NULL) || !g_file_get_contents(c2, &y, &ny, NULL) ||
               nx != ny || memcmp(x, y, nx)) {
      g_string_append(rep->fail, "sweep: sweep.csv differs between -j 1 and -j 2\n");
    }
    inv_rm_tree(s1);
    inv_rm_tree(s2);
  }
  inv_rm_tree(out);
}

/* Splits a failure report into unexpected failures and expected ones (pending bugs). */
static void inv_classify(inv_opts *o, inv_report *rep) {
  g_auto(GStrv) lines = g_strsplit(rep->fail->str, "\n", -1);
  g_string_truncate(rep->fail, 0);
  for (char **l = lines; *l; l++) {
    if (!**l) continue;
    int pending = -1;
    for (guint k = 0; inv_pending[k] && pending < 0; k++)
      if (strstr(*l, inv_pending[k])) pending = (int)k;
    if (pending >= 0) {
      o->xfail[pending]++;
      g_string_append_printf(rep->xfail, "%s\n", *l);
    } else {
      g_string_append_printf(rep->fail, "%s\n", *l);
    }
  }
}

/* The first check name of a failure report ("name: ..."), owned. */
static char *inv_first_check(const GString *fail) {
  const char *colon = strchr(fail->str, ':');
  return g_strndup(fail->str, colon ? (gsize)(colon - fail->str) : fail->len);
}

/* Removes rows of name (after its header) one at a time while check still fails. */
static void inv_shrink_file(inv_opts *o, const inv_case *c, const char *dir, const char *name,
                            const char *check) {
  g_autofree char *path = inv_path(dir, name), *text = NULL;
  if (!g_file_get_contents(path, &text, NULL, NULL)) return;
  GPtrArray *rows = g_ptr_array_new_with_free_func(g_free);
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  for (char **l = lines; *l; l++)
    if (**l) g_ptr_array_add(rows, g_strdup(*l));
  for (guint i = rows->len; i-- > 1;) {
    GString *s = g_string_new(NULL);
    for (guint k = 0; k < rows->len; k++)
      if (k != i) g_string_append_printf(s, "%s\n", (char *)g_ptr_array_index(rows, k));
    g_file_set_contents(path, s->str, (gssize)s->len, NULL);
    inv_report rep = {g_string_new(NULL), g_string_new(NULL), 0};
    inv_case_run(o, c, dir, FALSE, FALSE, &rep);
    g_autofree char *needle = g_strdup_printf("\n%s:", check);
    gboolean still = g_str_has_prefix(rep.fail->str, check) || strstr(rep.fail->str, needle);
    if (still) g_ptr_array_remove_index(rows, i);
    g_string_free(rep.fail, TRUE);
    g_string_free(rep.xfail, TRUE);
    g_string_free(s, TRUE);
  }
  GString *s = g_string_new(NULL);
  for (guint k = 0; k < rows->len; k++) g_string_append_printf(s, "%s\n", (char *)g_ptr_array_index(rows, k));
  g_file_set_contents(path, s->str, (gssize)s->len, NULL);
  g_string_free(s, TRUE);
  g_ptr_array_unref(rows);
}

/* Shrinks a failing case in dir and copies it to o->keep/seed-N with failure.txt. */
static void inv_keep(inv_opts *o, const inv_case *c, const char *dir, const GString *fail) {
  g_autofree char *check = inv_first_check(fail);
  inv_shrink_file(o, c, dir, "trace.csv", check);
  inv_shrink_file(o, c, dir, "phases.csv", check);
  g_autofree char *name = g_strdup_printf("seed-%u", c->seed);
  g_autofree char *to = g_build_filename(o->keep, name, NULL);
  g_mkdir_with_parents(to, 0755);
  const char *files[] = {"scenario.yaml", "trace.csv", "phases.csv", "kueue.yaml",
                         "mig-per-gpu.yaml"};
  for (guint i = 0; i < G_N_ELEMENTS(files); i++) {
    g_autofree char *from = inv_path(dir, files[i]), *dest = inv_path(to, files[i]), *text = NULL;
    gsize n = 0;
    if (g_file_get_contents(from, &text, &n, NULL)) g_file_set_contents(dest, text, (gssize)n, NULL);
  }
  inv_report rep = {g_string_new(NULL), g_string_new(NULL), 0};
  inv_case_run(o, c, dir, FALSE, FALSE, &rep);
  g_autofree char *ft = inv_path(to, "failure.txt");
  GString *msg = g_string_new(NULL);
  g_string_append_printf(msg, "seed %u, shrunk; first failing check: %s\nbefore shrinking:\n%s"
                         "after shrinking:\n%s", c->seed, check, fail->str, rep.fail->str);
  g_file_set_contents(ft, msg->str, (gssize)msg->len, NULL);
  fprintf(stderr, "invariants: seed %u: minimal case written to %s\n", c->seed, to);
  g_string_free(msg, TRUE);
  g_string_free(rep.fail, TRUE);
  g_string_free(rep.xfail, TRUE);
}

static void inv_report_case(inv_opts *o, const char *what, inv_report *rep) {
  o->checks += rep->checks;
  inv_classify(o, rep);
  if (rep->fail->len) {
    o->failed++;
    fprintf(stderr, "FAIL %s:\n%s", what, rep->fail->str);
  }
  if (rep->xfail->len && g_getenv("INVARIANTS_VERBOSE"))
    fprintf(stderr, "XFAIL %s:\n%s", what, rep->xfail->str);
}

static void inv_seed(inv_opts *o, guint32 seed) {
  g_autofree char *dir = g_dir_make_tmp("sharesim-inv-XXXXXX", NULL);
  inv_case c;
  GError *e = NULL;
  if (!dir || !inv_gen(seed, dir, &c, &e)) {
    fprintf(stderr, "invariants: seed %u: cannot write the case: %s\n", seed, e ? e->message : "?");
    o->failed++;
    g_clear_error(&e);
    return;
  }
  inv_report rep = {g_string_new(NULL), g_string_new(NULL), 0};
  /* the second run of every fourth seed (the same bytes) is for the check stage only */
  gboolean twice = seed % 4 == 0 && !g_getenv("SHARESIM_SKIP_REPEATS");
  inv_case_run(o, &c, dir, twice, seed % 50 == 0, &rep);
  g_autofree char *what = g_strdup_printf("seed %u", seed);
  inv_report_case(o, what, &rep);
  if (rep.fail->len && o->keep) inv_keep(o, &c, dir, rep.fail);
  g_string_free(rep.fail, TRUE);
  g_string_free(rep.xfail, TRUE);
  inv_rm_tree(dir);
}

/* A kept case: copied to a scratch folder (it may be read-only) and run. */
static void inv_kept(inv_opts *o, const char *case_dir) {
  inv_case c;
  GError *e = NULL;
  g_autofree char *dir = g_dir_make_tmp("sharesim-inv-XXXXXX", NULL);
  if (!inv_case_read(case_dir, &c, &e)) {
    fprintf(stderr, "FAIL %s: %s\n", case_dir, e->message);
    g_error_free(e);
    o->failed++;
    g_rmdir(dir);
    return;
  }
  const char *files[] = {"scenario.yaml", "trace.csv", "phases.csv", "kueue.yaml",
                         "mig-per-gpu.yaml"};
  for (guint i = 0; i < G_N_ELEMENTS(files); i++) {
    g_autofree char *from = inv_path(case_dir, files[i]), *dest = inv_path(dir, files[i]), *text = NULL;
    gsize n = 0;
    if (!g_file_get_contents(from, &text, &n, NULL) && i >= 3) continue; /* no quotas, MIG */
    if (!text) text = g_strdup(i == 2 ? INV_PHASES_HEADER "\n" : "");
    g_file_set_contents(dest, text, -1, NULL);
  }
  inv_report rep = {g_string_new(NULL), g_string_new(NULL), 0};
  inv_case_run(o, &c, dir, TRUE, FALSE, &rep);
  inv_report_case(o, case_dir, &rep);
  g_string_free(rep.fail, TRUE);
  g_string_free(rep.xfail, TRUE);
  inv_rm_tree(dir);
}

/* The lone-gang cases (inv-lone.c): one pool each, every strategy, every placement. */
static void inv_lone_all(inv_opts *o) {
  for (guint i = 0; i < inv_lone_count(); i++) {
    g_autofree char *dir = g_dir_make_tmp("sharesim-inv-XXXXXX", NULL);
    inv_case c;
    GError *e = NULL;
    if (!dir || !inv_lone_gen(i, dir, &c, &e)) {
      fprintf(stderr, "invariants: lone gang case %u: %s\n", i, e ? e->message : "?");
      o->failed++;
      g_clear_error(&e);
      continue;
    }
    inv_report rep = {g_string_new(NULL), g_string_new(NULL), 0};
    inv_case_run(o, &c, dir, FALSE, FALSE, &rep);
    g_autofree char *what = g_strdup_printf("lone gangs, pool %s", c.pools[0].name);
    inv_report_case(o, what, &rep);
    g_string_free(rep.fail, TRUE);
    g_string_free(rep.xfail, TRUE);
    inv_rm_tree(dir);
  }
}

static void inv_kept_all(inv_opts *o) {
  const char *top = g_getenv("TOP_SRCDIR");
  if (!top) return;
  g_autofree char *root = g_build_filename(top, "tests", "data", "invariants", NULL);
  GDir *d = g_dir_open(root, 0, NULL);
  if (!d) return;
  GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
  const char *name;
  while ((name = g_dir_read_name(d))) g_ptr_array_add(names, g_strdup(name));
  g_dir_close(d);
  g_ptr_array_sort(names, (GCompareFunc)(void *)g_strcmp0);
  for (guint i = 0; i < names->len; i++) {
    g_autofree char *p = g_build_filename(root, (char *)g_ptr_array_index(names, i), NULL);
    if (g_file_test(p, G_FILE_TEST_IS_DIR)) inv_kept(o, p);
  }
  g_ptr_array_unref(names);
}

int main(int argc, char **argv) {
  inv_opts o = {.seeds = 200, .first = 1, .keep = "invariant-failures"};
  /* a spawned run's peak resident size (wait4's ru_maxrss, inv-budget.c) starts from what
   * it was forked with, this process's: large buffers (the run folders' files compared
   * whole) go back to the system when freed, instead of glibc raising its mmap threshold
   * to them and keeping them in its heap, which would add megabytes to every later run */
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
  mallopt(M_TRIM_THRESHOLD, 128 * 1024);
  scenario_use_strategies(share_count(), share_input_row); /* the program's own table */
  scenario_use_model_keys(sim_model_keys); /* nor any model's constants */
  scenario_use_pool_sections(sim_pool_sections); /* nor pool sections */
  scenario_use_placements(place_count(), place_input_row); /* nor placement policies */
  const char *env = g_getenv("INVARIANT_SEEDS");
  if (env) o.seeds = (guint32)atoi(env);
  o.sharesim = g_getenv("SHARESIM");
  GPtrArray *cases = g_ptr_array_new();
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--seeds") && i + 1 < argc) o.seeds = (guint32)atoi(argv[++i]);
    else if (!strcmp(argv[i], "--first") && i + 1 < argc) o.first = (guint32)atoi(argv[++i]);
    else if (!strcmp(argv[i], "--keep") && i + 1 < argc) o.keep = argv[++i];
    else if (!strcmp(argv[i], "--case") && i + 1 < argc) g_ptr_array_add(cases, argv[++i]);
    else if (!strcmp(argv[i], "--gen") && i + 2 < argc) { /* write one case, run nothing */
      inv_case c;
      guint32 seed = (guint32)atoi(argv[i + 1]);
      g_mkdir_with_parents(argv[i + 2], 0755);
      g_ptr_array_unref(cases);
      return inv_gen(seed, argv[i + 2], &c, NULL) ? 0 : 1;
    }
    else if (!strcmp(argv[i], "--sampled-keys")) { /* what the generator draws: t-invcover */
      inv_print_sampled_keys();
      g_ptr_array_unref(cases);
      return 0;
    }
    else {
      fprintf(stderr, "usage: invariants [--seeds N] [--first S] [--keep DIR] [--case DIR]... | --gen SEED DIR | --sampled-keys\n");
      g_ptr_array_unref(cases);
      return 2;
    }
  }
  if (!o.sharesim) {
    fprintf(stderr, "invariants: SHARESIM must name the sharesim binary\n");
    g_ptr_array_unref(cases);
    return 2;
  }
  gint64 t0 = g_get_monotonic_time();
  if (cases->len) {
    for (guint i = 0; i < cases->len; i++) inv_kept(&o, g_ptr_array_index(cases, i));
  } else {
    inv_kept_all(&o);
    inv_lone_all(&o);
    for (guint32 s = o.first; s < o.first + o.seeds; s++) inv_seed(&o, s);
  }
  o.cases = cases->len;
  g_ptr_array_free(cases, TRUE);
  for (guint k = 0; inv_pending[k]; k++) {
    if (o.xfail[k]) printf("XFAIL %u failures expected until %s is fixed on main\n", o.xfail[k], inv_pending[k]);
    else if (o.seeds && !o.cases) /* only the full set can say a bug is gone */
      printf("XPASS %s: no case fails its checks any more; remove it from inv_pending\n", inv_pending[k]);
  }
  if (o.budget.cases)
    printf("invariants: work estimate / engine.events at least %.3g (%s), memory estimate / "
           "peak resident at least %.3g (%s), over %u runs\n", o.budget.min_events_ratio,
           o.budget.events_what, o.budget.min_mem_ratio, o.budget.mem_what, o.budget.cases);
  printf("invariants: %u cases failed; %u checks over %u sharesim runs in %.1f s\n", o.failed,
         o.checks, o.runs, (double)(g_get_monotonic_time() - t0) / 1e6);
  return o.failed ? 1 : 0;
}
