/* plan-journal.c: the journal that lets an interrupted `sharesim plan -o DIR` resume:
 * DIR.journal holds a header naming the inputs (the SHA-256 of the scenario and the trace,
 * the options that change a run, the program's version) and then one line per run made,
 * its identity (the cache's key) and its measure, appended after each round. A plan
 * started again on the same inputs takes its runs from there instead of simulating them
 * (plan-run.c, plan_start), so its files are byte for byte those of an uninterrupted plan.
 * A last line cut short by the interruption is ignored. */
#include "plan.h"
#include "config.h"
#include "util.h"
#include <errno.h>
#include <math.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define PLAN_JOURNAL_MAGIC "sharesim plan journal 3"
#define PLAN_JOURNAL_NUMBERS 14 /* ten figures, the blast radius and its untrusted part, when
                                 * the probe gave up and its late starts */
#define PLAN_JOURNAL_FIELDS (PLAN_JOURNAL_NUMBERS + 3) /* key, numbers, worst service, source */

/* The SHA-256 of a file's bytes, NULL with error. */
static char *plan_journal_sha256(const char *path, GError **error) {
  g_autofree char *text = NULL;
  gsize len = 0;
  if (!g_file_get_contents(path, &text, &len, error)) return NULL;
  return g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)text, len);
}

/* The header line of p's inputs, NULL with error. */
static char *plan_journal_header(const plan *p, GError **error) {
  g_autofree char *sc = plan_journal_sha256(p->scenario_path, error);
  g_autofree char *tr = sc ? plan_journal_sha256(p->trace_path, error) : NULL;
  if (!tr) return NULL;
  return g_strdup_printf("%s: sharesim %s, scenario %s, trace %s, seeds %u, model-range runs "
                         "%u, exhaustive %d\n", PLAN_JOURNAL_MAGIC, PACKAGE_VERSION, sc, tr,
                         p->opt.n_seeds, MAX(1u, p->opt.n_ranges), p->opt.exhaustive ? 1 : 0);
}

/* An optional text field: "=TEXT" (escaped) or "-" for none. */
static char *plan_journal_text(const char *f) {
  return f[0] == '-' ? NULL : g_strcompress(f + 1);
}

static void plan_journal_put_text(GString *s, const char *t) {
  g_autofree char *w = t ? g_strescape(t, NULL) : NULL;
  g_string_append_printf(s, "\t%s%s", w ? "=" : "-", w ? w : "");
}

/* One record line of the journal into the resumed table; FALSE when it is not whole. A
 * record: the key, PLAN_JOURNAL_NUMBERS numbers (g_ascii_dtostr: they read back to the same
 * bits), the worst service and the blast radius's untrusted source ("=NAME", or "-"),
 * tab-separated, the texts escaped (g_strescape). */
static gboolean plan_journal_record(plan *p, const char *line) {
  g_auto(GStrv) f = g_strsplit(line, "\t", -1);
  if (g_strv_length(f) != PLAN_JOURNAL_FIELDS) return FALSE;
  double v[PLAN_JOURNAL_NUMBERS];
  for (guint i = 0; i < PLAN_JOURNAL_NUMBERS; i++) {
    char *end = NULL;
    v[i] = g_ascii_strtod(f[i + 1], &end);
    if (!f[i + 1][0] || *end) return FALSE;
  }
  plan_measure *m = g_new0(plan_measure, 1);
  *m = (plan_measure){.unplaceable = v[0], .queued = v[1], .wait_p95_s = v[2],
                      .oom_kills = v[3], .victims = v[4], .slo_min = v[5],
                      .slowdown_mean = v[6], .slowdown_p95 = v[7], .allocated_frac = v[8],
                      .busy_frac = v[9], .blast = v[10], .blast_untrusted = v[11],
                      .stopped_at_s = v[12], .stopped_late = v[13]};
  m->slo_worst = plan_journal_text(f[PLAN_JOURNAL_NUMBERS + 1]);
  m->blast_src = plan_journal_text(f[PLAN_JOURNAL_NUMBERS + 2]);
  g_hash_table_replace(p->resumed, g_strcompress(f[0]), m);
  return TRUE;
}

/* Reads an existing journal into p->resumed. FALSE with error (SHARESIM_ERROR_INPUT) when
 * it was written for other inputs. */
static gboolean plan_journal_read(plan *p, const char *header, GError **error) {
  g_autofree char *text = NULL;
  if (!g_file_get_contents(p->opt.journal, &text, NULL, NULL)) return TRUE; /* none */
  if (!g_str_has_prefix(text, header)) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "%s: the journal of an interrupted plan on other inputs (another scenario, "
                "trace, --seeds, --model-range, --exhaustive or sharesim version); remove it "
                "to start afresh", p->opt.journal);
    return FALSE;
  }
  char *line = text + strlen(header);
  for (char *nl; (nl = strchr(line, '\n')) != NULL; line = nl + 1) {
    *nl = '\0';
    if (!plan_journal_record(p, line)) break;
  }
  return TRUE;
}

static void plan_journal_value(GString *s, double v) {
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_string_append_c(s, '\t');
  g_string_append(s, isnan(v) ? "nan" : g_ascii_dtostr(buf, sizeof buf, v));
}

gboolean plan_journal_open(plan *p, GError **error) {
  if (!p->opt.journal) return TRUE;
  g_autofree char *header = plan_journal_header(p, error);
  if (!header || !plan_journal_read(p, header, error)) return FALSE;
  /* rewritten whole (header and the records read), then appended to */
  GString *s = g_string_new(header);
  GHashTableIter it;
  gpointer k, v;
  g_hash_table_iter_init(&it, p->resumed);
  while (g_hash_table_iter_next(&it, &k, &v)) plan_journal_line(s, k, v);
  gboolean ok = g_file_set_contents(p->opt.journal, s->str, (gssize)s->len, error);
  g_string_free(s, TRUE);
  if (ok && !(p->journal_out = g_fopen(p->opt.journal, "ab"))) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot write %s: %s",
                p->opt.journal, g_strerror(errno));
    ok = FALSE;
  }
  return ok;
}

void plan_journal_line(GString *s, const char *key, const plan_measure *m) {
  g_autofree char *k = g_strescape(key, NULL);
  g_string_append(s, k);
  const double v[] = {m->unplaceable, m->queued, m->wait_p95_s, m->oom_kills, m->victims,
                      m->slo_min, m->slowdown_mean, m->slowdown_p95, m->allocated_frac,
                      m->busy_frac, m->blast, m->blast_untrusted, m->stopped_at_s,
                      m->stopped_late};
  G_STATIC_ASSERT(G_N_ELEMENTS(v) == PLAN_JOURNAL_NUMBERS);
  for (guint i = 0; i < G_N_ELEMENTS(v); i++) plan_journal_value(s, v[i]);
  plan_journal_put_text(s, m->slo_worst);
  plan_journal_put_text(s, m->blast_src);
  g_string_append_c(s, '\n');
}

gboolean plan_journal_append(plan *p, const GString *lines, GError **error) {
  if (!p->journal_out || !lines->len) return TRUE;
  if (fwrite(lines->str, 1, lines->len, p->journal_out) != lines->len ||
      fflush(p->journal_out) != 0 || fsync(fileno(p->journal_out)) != 0) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot write %s: %s",
                p->opt.journal, g_strerror(errno));
    return FALSE;
  }
  return TRUE;
}

void plan_journal_close(plan *p) {
  if (p->journal_out) fclose(p->journal_out);
  p->journal_out = NULL;
}
