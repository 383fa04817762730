/* cmd-report.c: `sharesim report DIR... -o report.html [--pdf report.pdf]`: the one-page
 * HTML report of result folders (htmlreport.h) written whole or not at all, and the same page
 * printed to PDF by headless Chromium (spawned with an argument vector, with a timeout and a
 * profile folder of its own that is removed afterwards). */
#include "cmd.h"
#include "htmlreport.h"
#include "outdir.h"
#include "outfile.h"
#include "util.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define REPORT_PDF_TIMEOUT_S 120 /* default for SHARESIM_PDF_TIMEOUT (seconds) */

static void report_child_setup(gpointer data) {
  (void)data;
  setpgid(0, 0); /* its own process group, so a timeout can stop Chromium's helpers too */
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

/* Runs argv; waits up to timeout_s; TRUE when it exited 0. */
static gboolean report_spawn(char **argv, int timeout_s, GError **error) {
  GPid pid;
  GSpawnFlags fl = G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL |
                   G_SPAWN_STDERR_TO_DEV_NULL;
  if (!g_spawn_async(NULL, argv, NULL, fl, report_child_setup, NULL, &pid, error)) return FALSE;
  int status = 0;
  gint64 deadline = g_get_monotonic_time() + (gint64)timeout_s * G_USEC_PER_SEC;
  for (;;) {
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) break;
    if (g_get_monotonic_time() > deadline) {
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME,
                  "%s did not finish within %d s (SHARESIM_PDF_TIMEOUT)", argv[0], timeout_s);
      return FALSE;
    }
    g_usleep(20000);
  }
  g_spawn_close_pid(pid);
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

/* Prints html_path to pdf_path with headless Chromium (into a scratch folder of its own,
 * then copied whole to pdf_path). */
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
  g_autofree char *scratch = g_dir_make_tmp("sharesim-chromium-XXXXXX", error);
  if (!scratch) return FALSE;
  g_autofree char *profile = g_build_filename(scratch, "profile", NULL);
  g_autofree char *tmp = g_build_filename(scratch, "page.pdf", NULL);
  g_autofree char *a_profile = g_strdup_printf("--user-data-dir=%s", profile);
  g_autofree char *a_out = g_strdup_printf("--print-to-pdf=%s", tmp);
  const char *t = g_getenv("SHARESIM_PDF_TIMEOUT");
  int timeout_s = t && atoi(t) > 0 ? atoi(t) : REPORT_PDF_TIMEOUT_S;
  char *argv[] = {chromium, "--headless", "--disable-gpu", "--no-first-run",
                  "--disable-dev-shm-usage", "--no-pdf-header-footer", a_profile, a_out,
                  geteuid() == 0 ? "--no-sandbox" : "--disable-extensions", uri, NULL};
  g_autofree char *pdf = NULL;
  gsize len = 0;
  gboolean ok = report_spawn(argv, timeout_s, error);
  if (ok && !g_file_get_contents(tmp, &pdf, &len, NULL)) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "Chromium wrote no PDF");
    ok = FALSE;
  }
  outdir_remove_tree(scratch, NULL); /* made above, holds only Chromium's files */
  return ok && report_write(pdf_path, pdf, len, error);
}

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
    .summary = "one self-contained HTML page (and PDF) of result folders, for a finance review",
    .main = cmd_report_main,
};
