/* inv-budget.c: the work and memory estimate against what a run did (issue 29). For each
 * case, `sharesim check --estimate` must not be below the run's summary.json
 * engine.events, nor below its peak resident memory (wait4's ru_maxrss): a mechanism that
 * adds events or memory without declaring it in src/sim/budget.c fails here. The smallest
 * ratios are kept for the summary line. Also the spawn that measures the peak. */
#define _DEFAULT_SOURCE /* wait4 */
#include "invariants.h"
#include <errno.h>
#include <math.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* Built with AddressSanitizer (scripts/test's sanitizer stage builds the suite and the
 * program with it), a run's resident memory is mostly the sanitizer's shadow and
 * quarantine, not sharesim's: the memory comparison holds for the plain build only. */
#if defined(__SANITIZE_ADDRESS__)
#define INV_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define INV_SANITIZED 1
#endif
#endif
#ifndef INV_SANITIZED
#define INV_SANITIZED 0
#endif

/* Reads fd to its end into s (a NULL s drops the bytes). */
static void inv_drain(int fd, GString *s) {
  char buf[4096];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (s) g_string_append_len(s, buf, n);
  }
  close(fd);
}

gboolean inv_spawn_measured(const char *const *argv, char **out, char **err, long *maxrss_kb) {
  GError *e = NULL;
  GPid pid;
  int fd_out = -1, fd_err = -1;
  if (!g_spawn_async_with_pipes(NULL, (char **)argv, NULL,
                                G_SPAWN_DO_NOT_REAP_CHILD |
                                    (out ? 0 : G_SPAWN_STDOUT_TO_DEV_NULL),
                                NULL, NULL, &pid, NULL, out ? &fd_out : NULL, &fd_err, &e)) {
    *err = g_strdup(e->message);
    g_error_free(e);
    return FALSE;
  }
  GString *o = out ? g_string_new(NULL) : NULL, *r = g_string_new(NULL);
  if (out) inv_drain(fd_out, o); /* small outputs: the stderr pipe cannot fill meanwhile */
  inv_drain(fd_err, r);
  int status = 0;
  struct rusage ru = {0};
  while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR) {}
  g_spawn_close_pid(pid);
  if (maxrss_kb) *maxrss_kb = ru.ru_maxrss;
  if (out) *out = g_string_free(o, FALSE);
  gboolean ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (!ok) *err = g_strdup_printf("exit status %d: %s", status, r->str);
  g_string_free(r, TRUE);
  return ok;
}

/* The number after key in text (first occurrence; a JSON key's colon skipped), or -1. */
static double inv_number_after(const char *text, const char *key) {
  const char *p = text ? strstr(text, key) : NULL;
  if (!p) return -1;
  p += strlen(key);
  while (*p == ' ' || *p == ':') p++;
  return g_ascii_isdigit(*p) ? g_ascii_strtod(p, NULL) : -1;
}

void inv_budget_check(inv_budget *b, const char *sharesim, const char *dir, const char *out,
                      long run_maxrss_kb, const char *what, inv_report *rep) {
  g_autofree char *sc = g_build_filename(dir, "scenario.yaml", NULL),
                  *tr = g_build_filename(dir, "trace.csv", NULL),
                  *ph = g_build_filename(dir, "phases.csv", NULL),
                  *sum = g_build_filename(out, "summary.json", NULL);
  const char *argv[] = {sharesim, "check", sc, tr, "--phases", ph, "--estimate", NULL};
  g_autofree char *text = NULL, *err = NULL, *json = NULL;
  rep->checks++;
  /* the estimate is printed even when check finds problems (jobs no pool can hold) */
  if (!inv_spawn_measured(argv, &text, &err, NULL) && !(text && strstr(text, "estimate: "))) {
    g_string_append_printf(rep->fail, "budget: check --estimate failed: %s\n", err);
    return;
  }
  double est_ev = inv_number_after(text, "estimate: ");
  double est_mem = inv_number_after(text, " requests, ");
  g_file_get_contents(sum, &json, NULL, NULL);
  const char *engine = json ? strstr(json, "\"engine\"") : NULL;
  double events = inv_number_after(engine, "\"events\"");
  if (est_ev < 0 || est_mem < 0 || events < 0) {
    g_string_append(rep->fail, "budget: no estimate or no engine.events to compare\n");
    return;
  }
  double rss = (double)run_maxrss_kb * 1024.0;
  double r_ev = est_ev / MAX(events, 1.0), r_mem = rss > 0 ? est_mem / rss : INFINITY;
  b->cases++;
  if (r_ev < b->min_events_ratio || !b->events_what[0])
    b->min_events_ratio = r_ev, g_strlcpy(b->events_what, what, sizeof b->events_what);
  if (r_mem < b->min_mem_ratio || !b->mem_what[0])
    b->min_mem_ratio = r_mem, g_strlcpy(b->mem_what, what, sizeof b->mem_what);
  if (est_ev < events)
    g_string_append_printf(rep->fail, "budget: estimated events %.0f below the run's engine.events "
                           "%.0f (a mechanism adds events it does not declare, src/sim/budget.c)\n",
                           est_ev, events);
  if (est_mem < rss && !INV_SANITIZED)
    g_string_append_printf(rep->fail, "budget: estimated memory %.0f bytes below the run's peak "
                           "resident %.0f (src/sim/budget.c)\n", est_mem, rss);
}
