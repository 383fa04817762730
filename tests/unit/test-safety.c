/* test-safety.c: the guarantees around the parsers (issue 14): the JSON nesting limit
 * (jsonlimit.c), the marker that makes a folder replaceable and the sweeping of stale
 * temporaries (outdir.c), and single output files that are regular files only and honour
 * the umask (outfile.c), and user files opened once, by descriptor, after confinement
 * (safeopen.c, paths.c; issue 29). */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cleanup.h"
#include "jsonlimit.h"
#include "outdir.h"
#include "outfile.h"
#include "paths.h"
#include "safeopen.h"
#include "spill.h"
#include "util.h"

static char *safety_nested(guint depth, const char *open, const char *close) {
  GString *s = g_string_new(NULL);
  for (guint i = 0; i < depth; i++) g_string_append(s, open);
  for (guint i = 0; i < depth; i++) g_string_append(s, close);
  return g_string_free(s, FALSE);
}

Test(safety, json_depth_limit_is_exact) {
  g_autofree char *ok = safety_nested(JSONLIMIT_MAX_DEPTH, "[", "]");
  g_autofree char *deep = safety_nested(JSONLIMIT_MAX_DEPTH + 1, "[", "]");
  guint line = 0, col = 0;
  cr_assert(jsonlimit_scan(ok, strlen(ok), JSONLIMIT_MAX_DEPTH, &line, &col));
  cr_assert_not(jsonlimit_scan(deep, strlen(deep), JSONLIMIT_MAX_DEPTH, &line, &col));
  cr_assert_eq(line, 1);
  cr_assert_eq(col, JSONLIMIT_MAX_DEPTH + 1);
}

Test(safety, json_brackets_in_strings_do_not_count) {
  const char *text = "{\"a\": \"[[[[\\\"{{{{\", \"b\": [1, {\"c\": \"]]]]\"}]}";
  guint line = 0, col = 0;
  cr_assert(jsonlimit_scan(text, strlen(text), 3, &line, &col));
  cr_assert_not(jsonlimit_scan(text, strlen(text), 2, &line, &col));
  cr_assert_eq(line, 1);
  cr_assert_eq(col, 30); /* the '{' of {"c": ...} */
}

Test(safety, json_depth_position_counts_lf_cr_and_crlf) {
  const char *text = "[\n[\r[\r\n  [[]]]]]";
  guint line = 0, col = 0;
  cr_assert_not(jsonlimit_scan(text, strlen(text), 4, &line, &col));
  cr_assert_eq(line, 4);
  cr_assert_eq(col, 4);
}

Test(safety, json_too_deep_is_an_input_error_before_parsing) {
  g_autofree char *deep = safety_nested(100000, "{\"a\":", "}");
  g_autoptr(JsonParser) p = json_parser_new();
  GError *error = NULL;
  guint line = 0, col = 0;
  cr_assert_not(jsonlimit_load_data(p, "x.json", deep, strlen(deep), &line, &col, &error));
  cr_assert_eq(error->domain, SHARESIM_ERROR);
  cr_assert_eq(error->code, SHARESIM_ERROR_INPUT);
  cr_assert_str_eq(error->message, "x.json:1:1281: " JSONLIMIT_TOO_DEEP);
  g_clear_error(&error);
  const char *fine = "{\"totals\": {\"gpus\": [1, 2]}}";
  cr_assert(jsonlimit_load_data(p, "y.json", fine, strlen(fine), NULL, NULL, &error));
  cr_assert(JSON_NODE_HOLDS_OBJECT(json_parser_get_root(p)));
  cr_assert_not(jsonlimit_load_data(p, "z.json", "[1,", 3, NULL, NULL, &error));
  cr_assert_eq(error->domain, JSON_PARSER_ERROR);
  g_clear_error(&error);
}

/* One JSON Lines line (issue 29, S3-07/S3-08): depth checked, one value only, a string holding
 * a brace does not end the value early. */
Test(safety, json_line_one_value_depth_checked) {
  g_autoptr(JsonParser) p = json_parser_new();
  GError *error = NULL;
  guint col = 0;
  const char *one = "{\"a\": \"} {\"} ";
  cr_assert(jsonlimit_load_line(p, one, strlen(one), &col, &error));
  const char *two = "{\"a\": 1} {\"a\": 2}";
  cr_assert_not(jsonlimit_load_line(p, two, strlen(two), &col, &error));
  cr_assert_eq(col, 10);
  cr_assert_str_eq(error->message, "expected one JSON value per line, found more text after it");
  g_clear_error(&error);
  g_autofree char *deep = safety_nested(1000, "[", "]");
  cr_assert_not(jsonlimit_load_line(p, deep, strlen(deep), &col, &error));
  cr_assert_eq(col, 257);
  cr_assert_str_eq(error->message, JSONLIMIT_TOO_DEEP);
  g_clear_error(&error);
}

/* ---- folders: the marker ---- */

static char *safety_tmpdir(void) {
  char *d = g_dir_make_tmp("sharesim-safety-XXXXXX", NULL);
  cr_assert_not_null(d);
  return d;
}

static void safety_put(const char *dir, const char *name, const char *text) {
  g_autofree char *p = g_build_filename(dir, name, NULL);
  cr_assert(g_file_set_contents(p, text, -1, NULL));
}

static gboolean safety_exists(const char *dir, const char *name) {
  g_autofree char *p = g_build_filename(dir, name, NULL);
  GStatBuf st;
  return g_lstat(p, &st) == 0;
}

Test(safety, marker_records_version_and_command) {
  g_set_prgname("sharesim run");
  g_autofree char *text = outdir_marker_text();
  cr_assert_str_eq(text, "sharesim-folder 1\ncommand run\n");
  g_autofree char *parent = safety_tmpdir();
  g_autofree char *dir = g_build_filename(parent, "res", NULL);
  GError *error = NULL;
  outdir *o = outdir_begin(dir, &error);
  cr_assert_not_null(o, "%s", error ? error->message : "");
  cr_assert(outdir_commit(o, &error));
  g_autofree char *cmd = outdir_marker_command(dir);
  cr_assert_str_eq(cmd, "run");
  /* an unknown version is not a marker */
  safety_put(dir, OUTDIR_MARKER, "sharesim-folder 99\ncommand run\n");
  cr_assert_null(outdir_marker_command(dir));
  cr_assert(cleanup_remove_tree(parent, NULL));
}

Test(safety, a_summary_json_alone_does_not_make_a_folder_replaceable) {
  g_set_prgname("sharesim run");
  g_autofree char *parent = safety_tmpdir();
  g_autofree char *dir = g_build_filename(parent, "proj", NULL);
  cr_assert_eq(g_mkdir(dir, 0755), 0);
  safety_put(dir, "summary.json", "{\"accuracy\": 0.91}\n");
  safety_put(dir, "thesis.tex", "thesis\n");
  GError *error = NULL;
  cr_assert_null(outdir_begin(dir, &error));
  cr_assert_eq(error->code, SHARESIM_ERROR_INPUT);
  cr_assert(strstr(error->message, "no .sharesim-folder marker"), "%s", error->message);
  g_clear_error(&error);
  cr_assert(safety_exists(dir, "thesis.tex"));
  /* a folder written by another command is refused too, with its command named */
  safety_put(dir, OUTDIR_MARKER, "sharesim-folder 1\ncommand compare\n");
  cr_assert_null(outdir_begin(dir, &error));
  cr_assert(strstr(error->message, "holds the output of 'sharesim compare', not of 'sharesim run'"),
            "%s", error->message);
  g_clear_error(&error);
  cr_assert(safety_exists(dir, "thesis.tex"));
  /* the same command's folder is replaced */
  safety_put(dir, OUTDIR_MARKER, "sharesim-folder 1\ncommand run\n");
  outdir *o = outdir_begin(dir, &error);
  cr_assert_not_null(o);
  cr_assert(outdir_write(o, "summary.json", "{}\n", 3, &error));
  cr_assert(outdir_commit(o, &error), "%s", error ? error->message : "");
  cr_assert_not(safety_exists(dir, "thesis.tex"));
  cr_assert(cleanup_remove_tree(parent, NULL));
}

/* A pid that no longer exists: a child that has exited and been reaped. */
static pid_t safety_dead_pid(void) {
  pid_t pid = fork();
  cr_assert(pid >= 0);
  if (pid == 0) _exit(0);
  int status;
  cr_assert_eq(waitpid(pid, &status, 0), pid);
  return pid;
}

/* name with its pid replaced by pid and XXXXXX by six letters */
static char *safety_temp_as(const char *stem, const char *kind, long pid, const char *host) {
  g_autofree char *name = outdir_temp_name(stem, kind);
  char *at = strstr(name, kind) + strlen(kind) + 1;
  char *dash = strchr(at, '-');
  g_autofree char *head = g_strndup(name, (gsize)(at - name));
  g_autofree char *tail = g_strdup(dash);
  memcpy(strstr(tail, "XXXXXX"), "Ab3xYz", 6);
  if (host) memcpy(tail + 1, host, 8);
  return g_strdup_printf("%s%ld%s", head, pid, tail);
}

Test(safety, stale_temporaries_of_dead_writers_are_swept_only) {
  g_autofree char *parent = safety_tmpdir();
  long dead = safety_dead_pid();
  g_autofree char *stale = safety_temp_as("res", "tmp", dead, NULL);
  g_autofree char *stale_old = safety_temp_as("res", "old", dead, NULL);
  g_autofree char *running = safety_temp_as("res", "tmp", (long)getpid(), NULL);
  g_autofree char *other_host = safety_temp_as("res", "tmp", dead, "0000beef");
  g_autofree char *no_marker = safety_temp_as("res", "tmp", dead + 1 < 0 ? 1 : dead, NULL);
  no_marker[strlen(no_marker) - 1] = 'Q'; /* a different random part */
  g_autofree char *other_stem = safety_temp_as("other", "tmp", dead, NULL);
  const char *dirs[] = {stale, stale_old, running, other_host, no_marker, other_stem};
  for (guint i = 0; i < G_N_ELEMENTS(dirs); i++) {
    g_autofree char *p = g_build_filename(parent, dirs[i], NULL);
    cr_assert_eq(g_mkdir(p, 0755), 0);
    if (dirs[i] != no_marker) cr_assert(outdir_write_marker(p, NULL));
    else safety_put(p, "user-file.txt", "mine\n");
  }
  const char *stems[] = {"res", NULL};
  cr_assert_eq(outdir_sweep_stale(parent, stems, NULL), 2);
  cr_assert_not(safety_exists(parent, stale));
  cr_assert_not(safety_exists(parent, stale_old));
  cr_assert(safety_exists(parent, running));
  cr_assert(safety_exists(parent, other_host));
  cr_assert(safety_exists(parent, no_marker));
  cr_assert(safety_exists(parent, other_stem));
  cr_assert_eq(outdir_sweep_stale(parent, NULL, NULL), 1); /* "other" too */
  cr_assert_not(safety_exists(parent, other_stem));
  cr_assert(cleanup_remove_tree(parent, NULL));
}

Test(safety, outdir_begin_sweeps_its_own_stale_temporaries) {
  g_autofree char *parent = safety_tmpdir();
  g_autofree char *stale = safety_temp_as("res", "tmp", safety_dead_pid(), NULL);
  g_autofree char *p = g_build_filename(parent, stale, NULL);
  cr_assert_eq(g_mkdir(p, 0755), 0);
  cr_assert(outdir_write_marker(p, NULL));
  safety_put(p, "jobs.csv", "partial\n");
  g_autofree char *dir = g_build_filename(parent, "res", NULL);
  outdir *o = outdir_begin(dir, NULL);
  cr_assert_not_null(o);
  cr_assert_not(safety_exists(parent, stale));
  cr_assert(outdir_commit(o, NULL));
  cr_assert(cleanup_remove_tree(parent, NULL));
}

/* ---- single output files ---- */

Test(safety, outfile_refuses_links_devices_fifos_and_folders) {
  g_autofree char *parent = safety_tmpdir();
  g_autofree char *target = g_build_filename(parent, "target", NULL);
  g_autofree char *link = g_build_filename(parent, "link", NULL);
  g_autofree char *fifo = g_build_filename(parent, "fifo", NULL);
  safety_put(parent, "target", "keep\n");
  cr_assert_eq(symlink("target", link), 0);
  cr_assert_eq(mkfifo(fifo, 0644), 0);
  /* a private device node (a copy of /dev/null) when allowed: never a system one, which a
   * regression would replace */
  g_autofree char *dev = g_build_filename(parent, "null", NULL);
  gboolean have_dev = mknod(dev, S_IFCHR | 0666, makedev(1, 3)) == 0;
  const char *refused[] = {link, fifo, parent, dev};
  for (guint i = 0; i < G_N_ELEMENTS(refused) - (have_dev ? 0 : 1); i++) {
    GError *error = NULL;
    cr_assert_null(outfile_begin(refused[i], &error), "%s", refused[i]);
    cr_assert_eq(error->code, SHARESIM_ERROR_INPUT);
    cr_assert(strstr(error->message, "refusing to write"), "%s", error->message);
    g_clear_error(&error);
  }
  g_autofree char *kept = NULL;
  cr_assert(g_file_get_contents(target, &kept, NULL, NULL));
  cr_assert_str_eq(kept, "keep\n");
  GStatBuf st;
  cr_assert_eq(g_lstat(link, &st), 0);
  cr_assert(S_ISLNK(st.st_mode));
  cr_assert(cleanup_remove_tree(parent, NULL));
}

Test(safety, outfile_honours_the_umask_and_replaces_a_regular_file) {
  g_autofree char *parent = safety_tmpdir();
  g_autofree char *dest = g_build_filename(parent, "t.csv", NULL);
  safety_put(parent, "t.csv", "old\n");
  mode_t old = umask(027);
  GError *error = NULL;
  outfile *f = outfile_begin(dest, &error);
  cr_assert_not_null(f, "%s", error ? error->message : "");
  fputs("id,submit_s\n", outfile_stream(f));
  cr_assert(outfile_commit(f, &error), "%s", error ? error->message : "");
  umask(old);
  GStatBuf st;
  cr_assert_eq(g_stat(dest, &st), 0);
  cr_assert_eq(st.st_mode & 0777, 0640);
  g_autofree char *text = NULL;
  cr_assert(g_file_get_contents(dest, &text, NULL, NULL));
  cr_assert_str_eq(text, "id,submit_s\n");
  /* abort leaves the destination and no temporary */
  f = outfile_begin(dest, &error);
  fputs("half", outfile_stream(f));
  outfile_abort(f);
  GDir *d = g_dir_open(parent, 0, NULL);
  cr_assert_str_eq(g_dir_read_name(d), "t.csv");
  cr_assert_null(g_dir_read_name(d));
  g_dir_close(d);
  cr_assert(cleanup_remove_tree(parent, NULL));
}

/* A child that creates a folder, is sent SIGTERM before it registers it, and registers it
 * 200 ms later. Returns whether the folder is left. With bracket, the clean-up waits for
 * the registration (cleanup_begin/_end); without, it runs first and leaves the folder. */
static gboolean safety_signal_before_register(const char *parent, gboolean bracket) {
  g_autofree char *path = g_build_filename(parent, "res.tmp-race", NULL);
  pid_t pid = fork();
  cr_assert(pid >= 0);
  if (pid == 0) {
    cleanup_install();
    if (bracket) cleanup_begin();
    if (g_mkdir(path, 0755) != 0) _exit(3);
    kill(getpid(), SIGTERM);
    g_usleep(200000);
    cleanup_add(path);
    if (bracket) cleanup_end();
    for (;;) pause();
  }
  int status = 0;
  cr_assert_eq(waitpid(pid, &status, 0), pid);
  cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM, "status %d", status);
  gboolean left = g_file_test(path, G_FILE_TEST_EXISTS);
  g_rmdir(path);
  return left;
}

/* The race the writers close with cleanup_begin/_end (outdir, outfile, sweep, spawn): a
 * signal between creating a temporary and registering it. The unbracketed case shows the
 * test can fail. */
Test(safety, signal_between_create_and_register_still_removes) {
  g_autofree char *parent = safety_tmpdir();
  cr_assert_not(safety_signal_before_register(parent, TRUE));
  cr_assert(safety_signal_before_register(parent, FALSE));
  cr_assert(cleanup_remove_tree(parent, NULL));
}

/* The spills' files (trace rows, held jobs.csv rows, series): usable through the
 * descriptor, and no name of them in the folder, ever after the call. */
Test(safety, unnamed_files_leave_no_name) {
  g_autofree char *parent = safety_tmpdir();
  int fd = cleanup_unnamed_file(parent, ".spill-");
  cr_assert_geq(fd, 0);
  cr_assert_eq(write(fd, "abc", 3), 3);
  char back[3];
  cr_assert_eq(pread(fd, back, 3, 0), 3);
  cr_assert_eq(memcmp(back, "abc", 3), 0);
  GDir *d = g_dir_open(parent, 0, NULL);
  cr_assert_not_null(d);
  cr_assert_null(g_dir_read_name(d), "the folder holds a name");
  g_dir_close(d);
  close(fd);
  g_autofree char *missing = g_build_filename(parent, "no-such-folder", NULL);
  cr_assert_lt(cleanup_unnamed_file(missing, ".spill-"), 0);
  cr_assert(cleanup_remove_tree(parent, NULL));
}

/* The spill both tracerows and rowspill write to (spill.h): appends at increasing offsets,
 * read back by offset from any point, a short read past the end, no name in the folder. */
Test(safety, spill_appends_and_reads_back_by_offset) {
  g_autofree char *parent = safety_tmpdir();
  spill *s = spill_new(parent, ".spill-");
  cr_assert_not_null(s);
  cr_expect_eq(spill_append(s, "hello", 5), 0);
  cr_expect_eq(spill_append(s, "", 0), 5);
  cr_expect_eq(spill_append(s, " world", 6), 5);
  cr_expect_eq(spill_len(s), 11);
  char back[16] = {0};
  cr_expect_eq(spill_read(s, back, 5, 6), 5);
  cr_expect_str_eq(back, "world");
  cr_expect_eq(spill_read(s, back, 16, 3), 8); /* the file ends */
  cr_expect_eq(memcmp(back, "lo world", 8), 0);
  GDir *d = g_dir_open(parent, 0, NULL);
  cr_assert_not_null(d);
  cr_expect_null(g_dir_read_name(d), "the folder holds a name");
  g_dir_close(d);
  spill_free(s);
  spill_free(NULL);
  g_autofree char *missing = g_build_filename(parent, "no-such-folder", NULL);
  cr_expect_null(spill_new(missing, ".spill-"));
  cr_assert(cleanup_remove_tree(parent, NULL));
}

/* ---- files opened once, by descriptor, after confinement (issue 29, S3-06) ---- */

/* The race window made deterministic: the real path is checked, then the file (or a folder on
 * its way) is swapped for a symbolic link to a file outside before the open. The open must
 * fail (SAFEOPEN_CHANGED), never read the outside file. */
Test(safety, swapped_symlink_between_check_and_open_is_refused) {
  g_autofree char *parent = safety_tmpdir();
  g_autofree char *sc = g_build_filename(parent, "sc", NULL);
  g_autofree char *sub = g_build_filename(sc, "sub", NULL);
  g_autofree char *out = g_build_filename(parent, "outside", NULL);
  cr_assert(g_mkdir_with_parents(sub, 0755) == 0 && g_mkdir(out, 0755) == 0);
  safety_put(sc, "dp.yaml", "inside\n");
  safety_put(sub, "x.yaml", "inside\n");
  safety_put(out, "dp.yaml", "OUTSIDE\n");
  safety_put(out, "x.yaml", "OUTSIDE\n");
  g_autofree char *real_file = realpath(sc, NULL), *file = g_build_filename(real_file, "dp.yaml", NULL);
  g_autofree char *real_sub = realpath(sub, NULL), *subfile = g_build_filename(real_sub, "x.yaml", NULL);
  safeopen_status st;
  int err = 0, fd = safeopen_real(file, &st, &err);
  cr_assert(fd >= 0 && st == SAFEOPEN_OK);
  close(fd);
  /* swap the file, then a folder on the way, for links to the outside */
  g_autofree char *dp = g_build_filename(sc, "dp.yaml", NULL), *odp = g_build_filename(out, "dp.yaml", NULL);
  cr_assert(unlink(dp) == 0 && symlink(odp, dp) == 0);
  cr_assert_eq(safeopen_real(file, &st, &err), -1);
  cr_assert_eq(st, SAFEOPEN_CHANGED);
  cr_assert(cleanup_remove_tree(sub, NULL) && symlink(out, sub) == 0);
  cr_assert_eq(safeopen_real(subfile, &st, &err), -1);
  cr_assert_eq(st, SAFEOPEN_CHANGED);
  /* through paths_open the link leaving the folder is refused before any open */
  g_autofree char *shown = NULL;
  paths_status ps;
  cr_assert_eq(paths_open(sc, "dp.yaml", &shown, &ps), -1);
  cr_assert_eq(ps, PATHS_LINK_OUTSIDE);
  cr_assert(cleanup_remove_tree(parent, NULL));
}

/* Every file opened is remembered by device and inode (the guard against writing over an
 * input), however many: 1,500 files opened, each known afterwards by path and by id, a file
 * never opened unknown, a file opened twice kept once. */
Test(safety, every_opened_file_is_known_as_an_input) {
  g_autofree char *dir = safety_tmpdir();
  enum { N = 1500 };
  for (guint i = 0; i < N; i++) {
    g_autofree char *name = g_strdup_printf("f%u", i);
    safety_put(dir, name, "x\n");
  }
  safety_put(dir, "never", "x\n");
  g_autofree char *real = realpath(dir, NULL);
  for (guint i = 0; i < N; i++) {
    g_autofree char *path = g_strdup_printf("%s/f%u", real, i);
    g_autoptr(GError) error = NULL;
    int fd = safeopen_read_fd(path, &error);
    cr_assert(fd >= 0, "%s: %s", path, error ? error->message : "");
    close(fd);
    if (i == 0) cr_assert((fd = safeopen_read_fd(path, NULL)) >= 0 && close(fd) == 0);
  }
  for (guint i = 0; i < N; i++) {
    g_autofree char *path = g_strdup_printf("%s/f%u", real, i);
    struct stat sb;
    cr_assert(stat(path, &sb) == 0);
    cr_assert(safeopen_is_input(sb.st_dev, sb.st_ino), "%s not known", path);
    cr_assert(safeopen_path_is_input(path));
  }
  g_autofree char *never = g_build_filename(real, "never", NULL);
  cr_assert_not(safeopen_path_is_input(never));
  /* forgotten: a new command in the same process starts with no inputs */
  g_autofree char *f0 = g_build_filename(real, "f0", NULL);
  safeopen_forget_inputs();
  cr_assert_not(safeopen_path_is_input(f0));
  cr_assert(cleanup_remove_tree(dir, NULL));
}

/* A FIFO (or a link to one) is refused before anything reads it: no hang. */
Test(safety, fifo_is_refused_without_blocking, .timeout = 10) {
  g_autofree char *parent = safety_tmpdir();
  g_autofree char *fifo = g_build_filename(parent, "f.yaml", NULL);
  g_autofree char *link = g_build_filename(parent, "l.yaml", NULL);
  cr_assert(mkfifo(fifo, 0600) == 0 && symlink(fifo, link) == 0);
  g_autofree char *shown = NULL;
  paths_status ps;
  cr_assert_eq(paths_open(parent, "l.yaml", &shown, &ps), -1);
  cr_assert_eq(ps, PATHS_NOT_REGULAR);
  GError *error = NULL;
  cr_assert_eq(safeopen_read_fd(fifo, &error), -1);
  cr_assert_str_eq(error->message, "not a regular file (a FIFO)");
  g_clear_error(&error);
  cr_assert_eq(safeopen_read_fd("/dev/null", &error), -1);
  cr_assert_str_eq(error->message, "not a regular file (a device)");
  g_clear_error(&error);
  cr_assert(cleanup_remove_tree(parent, NULL));
}

/* ---- removal relative to held folders (issue 29) ---- */

/* A folder being removed is swapped for a symbolic link to a folder outside: what is emptied
 * is the folder that was opened, and the link goes, never what it points to. */
Test(safety, tree_removal_does_not_follow_a_swapped_link) {
  g_autofree char *parent = safety_tmpdir();
  g_autofree char *a = g_build_filename(parent, "a", NULL), *x = g_build_filename(a, "x", NULL);
  g_autofree char *o = g_build_filename(parent, "outside", NULL);
  cr_assert(g_mkdir_with_parents(x, 0755) == 0 && g_mkdir(o, 0755) == 0);
  safety_put(x, "f", "mine\n");
  safety_put(o, "keep", "not mine\n");
  int dfd = open(a, O_RDONLY | O_DIRECTORY);
  int sub = openat(dfd, "x", O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  cr_assert(dfd >= 0 && sub >= 0);
  g_autofree char *moved = g_build_filename(a, "x-moved", NULL);
  cr_assert(g_rename(x, moved) == 0 && symlink(o, x) == 0);
  cr_assert(cleanup_empty_fd(sub, x, NULL));
  cr_assert(cleanup_remove_at(dfd, "x", x, NULL));
  close(sub);
  close(dfd);
  cr_assert(safety_exists(o, "keep"), "the link's target was emptied");
  cr_assert_not(safety_exists(moved, "f"), "the held folder was not emptied");
  cr_assert_not(safety_exists(a, "x"));
  /* cleanup_remove_tree on a link to a folder removes the link only */
  g_autofree char *l = g_build_filename(parent, "l", NULL);
  cr_assert(symlink(o, l) == 0 && cleanup_remove_tree(l, NULL));
  cr_assert(safety_exists(o, "keep"));
  cr_assert(cleanup_remove_tree(parent, NULL));
}

/* The race behind S3-13's rare refusal, made deterministic: the writer opened DIR, then
 * another swapped it out and began emptying it (its marker gone, files left). The folder the
 * descriptor holds is judged "swapped" (-1), not refused as user data; the folder now at DIR
 * is judged on its own. A user's folder still at DIR is refused. */
Test(safety, a_folder_swapped_out_while_judged_is_judged_again) {
  g_set_prgname("sharesim run");
  g_autofree char *parent = safety_tmpdir();
  g_autofree char *dir = g_build_filename(parent, "cc", NULL);
  g_autofree char *away = g_build_filename(parent, "cc.tmp-1-x-AAAAAA", NULL);
  cr_assert_eq(g_mkdir(dir, 0755), 0);
  safety_put(dir, "jobs.csv", "a\n");
  int fd = open(dir, O_RDONLY | O_DIRECTORY);
  cr_assert(fd >= 0);
  GError *error = NULL;
  cr_assert_eq(outdir_judge_at(fd, dir, &error), 0); /* still there: a user's folder */
  cr_assert(strstr(error->message, "no .sharesim-folder marker"), "%s", error->message);
  g_clear_error(&error);
  cr_assert_eq(g_rename(dir, away), 0);
  cr_assert_eq(g_mkdir(dir, 0755), 0);
  cr_assert(outdir_write_marker(dir, NULL));
  safety_put(dir, "jobs.csv", "b\n");
  cr_assert_eq(outdir_judge_at(fd, dir, &error), -1, "%s", error ? error->message : "");
  cr_assert_null(error);
  close(fd);
  fd = open(dir, O_RDONLY | O_DIRECTORY);
  cr_assert_eq(outdir_judge_at(fd, dir, &error), 1);
  close(fd);
  /* the whole check, by name, takes the folder now there */
  outdir *o = outdir_begin(dir, &error);
  cr_assert_not_null(o, "%s", error ? error->message : "");
  cr_assert(outdir_commit(o, &error), "%s", error ? error->message : "");
  cr_assert(cleanup_remove_tree(parent, NULL));
}
