/* inv-budget.c: the work and memory estimate against what a run did (issue 29). For each
 * case, `sharesim check --estimate --dcgm` must not be below the run's summary.json
 * engine.events, nor below its peak resident memory (wait4's ru_maxrss), nor below what
 * run --dcgm wrote (issue 30: its per-GPU job entries, dcgm.csv's rows over its 4 gauges,
 * and the bytes of dcgm.prom and dcgm.csv): a mechanism that adds events, memory or
 * samples without declaring them in src/sim/budget.c fails here. The smallest ratios are
 * kept for the summary line. Also the spawn that measures the peak. */
#define _DEFAULT_SOURCE /* wait4 */
#include "invariants.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
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

/* The bytes of out/name (0 when absent) and, with lines, its lines: read in blocks, so
 * that this process does not grow by the file (its size is every later run's start). */
static double inv_file_size(const char *out, const char *name, double *lines) {
  g_autofree char *p = g_build_filename(out, name, NULL);
  FILE *f = fopen(p, "rb");
  if (!f) return 0;
  char buf[65536];
  size_t got;
  double n = 0;
  if (lines) *lines = 0;
  while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
    n += (double)got;
    for (size_t i = 0; lines && i < got; i++) *lines += buf[i] == '\n';
  }
  fclose(f);
  return n;
}

/* run --dcgm's output against the estimate's per-GPU job entries and dcgm bytes, printed
 * after the span: "a span of up to S s, G per-GPU job entries, B bytes of dcgm output". */
static void inv_budget_dcgm(const char *text, const char *out, inv_report *rep) {
  const char *p = text ? strstr(text, "a span of up to ") : NULL;
  double span = -1, entries = -1, bytes = -1, csv_lines = 0;
  if (!p || sscanf(p, "a span of up to %lf s, %lf per-GPU job entries, %lf bytes", &span,
                   &entries, &bytes) != 3) {
    g_string_append(rep->fail, "budget: check --estimate --dcgm printed no dcgm estimate\n");
    return;
  }
  double written = inv_file_size(out, "dcgm.prom", NULL) + inv_file_size(out, "dcgm.csv", &csv_lines);
  double rows = csv_lines > 0 ? (csv_lines - 1) / 4.0 : 0; /* the header; 4 gauges a job entry */
  if (rows > entries)
    g_string_append_printf(rep->fail, "budget: estimated per-GPU job entries %.0f below the "
                           "run's %.0f (src/sim/budget.c, budget_job_dcgm)\n", entries, rows);
  if (written > bytes)
    g_string_append_printf(rep->fail, "budget: estimated dcgm output %.0f bytes below the run's "
                           "%.0f (src/sim/budget.c, budget_dcgm)\n", bytes, written);
}

void inv_budget_check(inv_budget *b, const char *sharesim, const char *dir, const char *out,
                      long run_maxrss_kb, gboolean dcgm, const char *what, inv_report *rep) {
  g_autofree char *sc = g_build_filename(dir, "scenario.yaml", NULL),
                  *tr = g_build_filename(dir, "trace.csv", NULL),
                  *ph = g_build_filename(dir, "phases.csv", NULL),
                  *sum = g_build_filename(out, "summary.json", NULL);
  const char *argv[] = {sharesim, "check", sc, tr, "--phases", ph, "--estimate",
                        dcgm ? "--dcgm" : NULL, NULL};
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
  if (dcgm) inv_budget_dcgm(text, out, rep);
  if (est_mem < rss && !INV_SANITIZED)
    g_string_append_printf(rep->fail, "budget: estimated memory %.0f bytes below the run's peak "
                           "resident %.0f (src/sim/budget.c)\n", est_mem, rss);
}
