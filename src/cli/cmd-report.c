/* cmd-report.c: `sharesim report DIR... -o report.html [--pdf report.pdf]`: the one-page
 * HTML report of result, seeds, model-range, compare, sweep and plan folders (htmlreport.h)
 * written whole or not at all, and the same page printed to PDF by headless Chromium (an
 * argument vector, its own process group registered for clean-up, a timeout, HOME/XDG/TMPDIR
 * and profile inside this command's own temporary; the PDF checked before it is delivered). */
#include "cmd.h"
#include "htmlreport.h"
#include "outdir.h"
#include "outfile.h"
#include "util.h"
#include "cleanup.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define REPORT_PDF_TIMEOUT_S 120 /* default for SHARESIM_PDF_TIMEOUT (seconds) */

static void report_child_setup(gpointer data) {
  (void)data;
  setpgid(0, 0); /* its own process group: a timeout or a signal stops Chromium's helpers too */
}

/* Chromium: $SHARESIM_CHROMIUM, else the first of chromium, chromium-browser, google-chrome. */
static char *report_find_chromium(void) {
  const char *env = g_getenv("SHARESIM_CHROMIUM");
  if (env && *env) return g_find_program_in_path(env);
  static const char *const names[] = {"chromium", "chromium-browser", "google-chrome"};
  for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
    char *p = g_find_program_in_path(names[i]);
    if (p) return p;
  }
  return NULL;
}

/* Chromium's environment: HOME, the XDG folders and TMPDIR all inside the scratch folder, so
 * that it writes nothing outside it (its crash reports, dconf cache, org.chromium.* folders;
 * issue 29 S3-09). NULL when a folder cannot be made. Owned. */
static char **report_chromium_env(const char *scratch, GError **error) {
  static const char *const dirs[][2] = {
      {"HOME", "home"},           {"XDG_CONFIG_HOME", "home/.config"},
      {"XDG_CACHE_HOME", "home/.cache"}, {"XDG_DATA_HOME", "home/.local/share"},
      {"XDG_STATE_HOME", "home/.local/state"}, {"XDG_RUNTIME_DIR", "run"},
      {"TMPDIR", "tmp"}};
  /* TMPDIR is "." in its working folder scratch/tmp (report_spawn): Chromium binds a socket
   * in TMPDIR and aborts when the absolute path passes 107 bytes (a long $TMPDIR did) */
  char **env = g_get_environ();
  for (guint i = 0; i < G_N_ELEMENTS(dirs); i++) {
    g_autofree char *p = g_build_filename(scratch, dirs[i][1], NULL);
    if (g_mkdir_with_parents(p, 0700) != 0) {
      int e = errno;
      g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot create %s: %s", p,
                  g_strerror(e));
      g_strfreev(env);
      return NULL;
    }
    env = g_environ_setenv(env, dirs[i][0], strcmp(dirs[i][0], "TMPDIR") ? p : ".", TRUE);
  }
  return env;
}

/* TRUE once pid has exited (not reaped: its group id stays its own until it is). */
static gboolean report_exited(GPid pid) {
  siginfo_t info;
  memset(&info, 0, sizeof info);
  if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0) return errno != EINTR;
  return info.si_pid == pid;
}

/* Runs argv with envp in folder cwd, in its own process group, registered with cleanup.h (a signal stops
 * the whole group); waits up to timeout_s. Whatever of the group is left when it exits is
 * killed before it is reaped. TRUE when it exited 0. */
static gboolean report_spawn(const char *cwd, char **argv, char **envp, int timeout_s,
                             GError **error) {
  GPid pid;
  GSpawnFlags fl = G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL |
                   G_SPAWN_STDERR_TO_DEV_NULL | G_SPAWN_STDIN_FROM_DEV_NULL;
  cleanup_begin(); /* a signal before the child is registered waits until it is */
  gboolean started = g_spawn_async(cwd, argv, envp, fl, report_child_setup, NULL, &pid, error);
  if (started) {
    setpgid(pid, pid);
    cleanup_add_child_group(pid);
  }
  cleanup_end();
  if (!started) return FALSE;
  gint64 deadline = g_get_monotonic_time() + (gint64)timeout_s * G_USEC_PER_SEC;
  gboolean exited;
  while (!(exited = report_exited(pid)) && g_get_monotonic_time() < deadline) g_usleep(20000);
  kill(-pid, SIGKILL); /* at the limit: all of it; else the helpers it left running */
  cleanup_forget_child(pid);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  g_spawn_close_pid(pid);
  if (!exited) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME,
                "%s did not finish within %d s (SHARESIM_PDF_TIMEOUT)", argv[0], timeout_s);
    return FALSE;
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "%s failed (status %d)", argv[0],
                status);
    return FALSE;
  }
  return TRUE;
}

/* Writes data whole to path (outfile.h: regular files only, umask mode, rename into place). */
static gboolean report_write(const char *path, const char *data, gsize len, GError **error) {
  outfile *f = outfile_begin(path, error);
  if (!f) return FALSE;
  if (len && fwrite(data, 1, len, outfile_stream(f)) != len) {
    outfile_abort(f);
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot write %s", path);
    return FALSE;
  }
  return outfile_commit(f, error);
}

/* The pages of a PDF (objects "/Type /Page", not "/Pages"), 0 without the %PDF- header. */
static guint report_pdf_pages(const char *data, gsize len) {
  if (len < 8 || memcmp(data, "%PDF-", 5) != 0) return 0;
  guint pages = 0;
  for (gsize i = 0; i + 5 < len; i++) {
    if (data[i] != '/' || memcmp(data + i, "/Type", 5) != 0) continue;
    gsize j = i + 5;
    while (j < len && (data[j] == ' ' || data[j] == '\n' || data[j] == '\r' || data[j] == '\t'))
      j++;
    if (j + 5 <= len && memcmp(data + j, "/Page", 5) == 0 &&
        (j + 5 == len || !g_ascii_isalnum(data[j + 5])))
      pages++;
  }
  return pages;
}

/* Prints html_path to pdf_path with headless Chromium: HOME, XDG folders, TMPDIR and its
 * profile inside a scratch folder of this command's own (registered for clean-up, removed
 * afterwards), the PDF checked (a header and at least one page) before it is copied whole
 * to pdf_path. */
static gboolean report_pdf(const char *html_path, const char *pdf_path, GError **error) {
  g_autofree char *chromium = report_find_chromium();
  if (!chromium) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "--pdf needs Chromium (apt-get "
                "install chromium, or set SHARESIM_CHROMIUM to its path)");
    return FALSE;
  }
  g_autofree char *abs = g_canonicalize_filename(html_path, NULL);
  g_autofree char *uri = g_filename_to_uri(abs, NULL, error);
  if (!uri) return FALSE;
  g_autofree char *scratch = outdir_make_scratch("sharesim-chromium", error);
  if (!scratch) return FALSE;
  g_auto(GStrv) envp = report_chromium_env(scratch, error);
  g_autofree char *profile = g_build_filename(scratch, "profile", NULL);
  g_autofree char *tmp = g_build_filename(scratch, "page.pdf", NULL);
  g_autofree char *a_profile = g_strdup_printf("--user-data-dir=%s", profile);
  g_autofree char *a_out = g_strdup_printf("--print-to-pdf=%s", tmp);
  const char *t = g_getenv("SHARESIM_PDF_TIMEOUT");
  int timeout_s = t && atoi(t) > 0 ? atoi(t) : REPORT_PDF_TIMEOUT_S;
  char *argv[] = {chromium, "--headless", "--disable-gpu", "--no-first-run",
                  "--disable-dev-shm-usage", "--no-pdf-header-footer", "--disable-breakpad",
                  a_profile, a_out, geteuid() == 0 ? "--no-sandbox" : "--disable-extensions",
                  uri, NULL};
  g_autofree char *pdf = NULL;
  gsize len = 0;
  g_autofree char *cwd = g_build_filename(scratch, "tmp", NULL);
  gboolean ok = envp && report_spawn(cwd, argv, envp, timeout_s, error);
  if (ok && (!g_file_get_contents(tmp, &pdf, &len, NULL) || !report_pdf_pages(pdf, len))) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME,
                "Chromium wrote no usable PDF (%" G_GSIZE_FORMAT " bytes, no page): a full "
                "disk in %s?", len, g_get_tmp_dir());
    ok = FALSE;
  }
  outdir_remove_scratch(scratch); /* made above, holds only Chromium's files */
  return ok && report_write(pdf_path, pdf, len, error);
}

extern const cmd_entry cmd_report_entry; /* at the end of this file; its row: cmd.c */

static int cmd_report_main(int argc, char **argv) {
  g_autofree char *output = NULL, *pdf = NULL;
  GOptionEntry entries[] = {
      {"output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
       "Write the HTML page to FILE (required; written whole or not at all)", "FILE"},
      {"pdf", 0, 0, G_OPTION_ARG_FILENAME, &pdf,
       "Also print the page to FILE as PDF (headless Chromium)", "FILE"},
      {NULL}};
  int rc;
  if (!cmd_parse_options(&cmd_report_entry, entries, &argc, &argv, &rc)) return rc;
  if (argc < 2 || !output) {
    fprintf(stderr, "sharesim report: expected result folders and -o report.html\nUsage: "
            "sharesim report %s\n", cmd_report_entry.usage);
    return 2;
  }
  g_autoptr(GString) page = g_string_new(NULL);
  g_autoptr(GError) err = NULL;
  if (!htmlreport_build((const char *const *)argv + 1, (guint)argc - 1, page, &err) ||
      !report_write(output, page->str, page->len, &err) || (pdf && !report_pdf(output, pdf, &err)))
    return cmd_fail("report", err);
  fprintf(stderr, "report written to %s%s%s\n", output, pdf ? " and " : "", pdf ? pdf : "");
  return 0;
}

const cmd_entry cmd_report_entry = {
    .name = "report",
    .usage = "DIR... -o report.html [--pdf report.pdf]",
    .summary = "one page (HTML and PDF) that recommends a set-up, from result, seeds, "
               "compare, sweep, model-range or plan folders",
    .main = cmd_report_main,
};
