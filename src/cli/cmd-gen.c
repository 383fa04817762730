/* cmd-gen.c: the 'gen' subcommand: parses and checks the options, lists the profiles,
 * and streams the generated trace to stdout in large writes. What a trace looks like is
 * decided by src/gen/ (gen.h); how a row is formatted, by trace.c. */
#include "cmd.h"
#include "gen.h"
#include "util.h"
#include <stdio.h>
#include <string.h>

static gboolean cmd_gen_bad(GError **error, const char *opt, const char *expected,
                            const char *found) {
  g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT, "%s: expected %s, found '%s'", opt,
              expected, found);
  return FALSE;
}

static gboolean cmd_gen_uint(const char *opt, const char *text, int64_t lo, int64_t hi,
                             uint64_t *out, GError **error) {
  int64_t v;
  if (!util_parse_int64(text, &v) || v < lo || v > hi) {
    g_autofree char *exp = g_strdup_printf("a whole number from %" G_GINT64_FORMAT
                                           " to %" G_GINT64_FORMAT, lo, hi);
    return cmd_gen_bad(error, opt, exp, text);
  }
  *out = (uint64_t)v;
  return TRUE;
}

typedef struct cmd_gen_args {
  char *profile, *gpus, *days, *seed, *mix, *load, *jobs, *tenants;
} cmd_gen_args;

static void cmd_gen_args_clear(cmd_gen_args *a) {
  g_free(a->profile);
  g_free(a->gpus);
  g_free(a->days);
  g_free(a->seed);
  g_free(a->mix);
  g_free(a->load);
  g_free(a->jobs);
  g_free(a->tenants);
}

/* Turns the option strings into gen_options; each message names its option. */
static gboolean cmd_gen_options(const cmd_gen_args *a, gen_options *o, GError **error) {
  gen_options_init(o);
  o->profile = a->profile;
  uint64_t v;
  if (a->gpus) {
    if (!cmd_gen_uint("--gpus", a->gpus, 1, GEN_MAX_GPUS, &v, error)) return FALSE;
    o->gpus = (guint32)v;
  }
  if (a->days) {
    const char *expected = NULL;
    sim_time ns;
    if (!util_parse_duration(a->days, INT64_C(86400) * SIM_NS_PER_S, &ns, &expected) ||
        ns <= 0 || (double)ns > GEN_MAX_DAYS * 86400.0 * 1e9) {
      g_autofree char *exp = g_strdup_printf(
          "a length above 0 and at most %g days (a number of days, or with a unit: 36h, 2d)",
          GEN_MAX_DAYS);
      return cmd_gen_bad(error, "--days", exp, a->days);
    }
    o->span_ns = ns;
  }
  if (a->seed) {
    if (!cmd_gen_uint("--seed", a->seed, 0, INT64_MAX, &v, error)) return FALSE;
    o->seed = v;
  }
  if (a->mix) {
    if (!gen_parse_mix(a->mix, o->mix, error)) return FALSE;
    o->mix_set = TRUE;
  }
  if (a->load) {
    double d;
    if (!util_parse_double(a->load, &d) || !(d > 0) || d > GEN_MAX_LOAD) {
      g_autofree char *exp = g_strdup_printf("a number above 0 and at most %g", GEN_MAX_LOAD);
      return cmd_gen_bad(error, "--load", exp, a->load);
    }
    o->load = d;
  }
  if (a->jobs) {
    if (!cmd_gen_uint("--jobs", a->jobs, 1, (int64_t)GEN_MAX_JOBS, &v, error)) return FALSE;
    o->jobs = v;
  }
  if (a->tenants) {
    if (!cmd_gen_uint("--tenants", a->tenants, 1, GEN_MAX_TENANTS, &v, error)) return FALSE;
    o->tenants = (guint32)v;
  }
  return gen_options_validate(o, error);
}

static void cmd_gen_list(FILE *out) {
  guint n;
  const gen_profile *const *p = gen_profiles(&n);
  fprintf(out, "Profiles:\n");
  for (guint i = 0; i < n; i++) fprintf(out, "  %-16s %s\n", p[i]->name, p[i]->description);
}

/* Rows go into a buffer flushed to stdout in ~1 MB writes. */
typedef struct cmd_gen_sink {
  GString *buf;
  FILE *out;
  gboolean failed;
} cmd_gen_sink;

static gboolean cmd_gen_flush(cmd_gen_sink *s) {
  if (s->buf->len && fwrite(s->buf->str, 1, s->buf->len, s->out) != s->buf->len) s->failed = TRUE;
  g_string_truncate(s->buf, 0);
  return !s->failed;
}

static gboolean cmd_gen_emit(const job_spec *job, void *ud) {
  cmd_gen_sink *s = ud;
  trace_write_row(s->buf, job);
  if (s->buf->len >= (1u << 20)) return cmd_gen_flush(s);
  return TRUE;
}

extern const cmd_entry cmd_gen_entry; /* at the end of this file; its row: cmd.c */

static int cmd_gen_main(int argc, char **argv) {
  const cmd_entry *self = &cmd_gen_entry;
  cmd_gen_args a = {0};
  GOptionEntry entries[] = {
      {"profile", 0, 0, G_OPTION_ARG_STRING, &a.profile,
       "workload profile ('list' shows them)", "NAME"},
      {"gpus", 0, 0, G_OPTION_ARG_STRING, &a.gpus,
       "GPUs whose capacity --load refers to; also caps gang sizes at half of it (default 16)",
       "N"},
      {"days", 0, 0, G_OPTION_ARG_STRING, &a.days,
       "length of the arrival window in days, or with a unit: 36h (default 2)", "D"},
      {"seed", 0, 0, G_OPTION_ARG_STRING, &a.seed, "random seed (default 1)", "S"},
      {"mix", 0, 0, G_OPTION_ARG_STRING, &a.mix,
       "share of jobs per kind, e.g. notebook=0.3,inference=0.1,training=0.3,batch=0.3", "MIX"},
      {"load", 0, 0, G_OPTION_ARG_STRING, &a.load,
       "offered GPU-time as a multiple of the capacity of --gpus over --days (default 0.7)", "L"},
      {"jobs", 0, 0, G_OPTION_ARG_STRING, &a.jobs, "exact number of jobs (overrides --load)", "N"},
      {"tenants", 0, 0, G_OPTION_ARG_STRING, &a.tenants, "number of tenants (default 6)", "K"},
      {NULL, 0, 0, 0, NULL, NULL, NULL},
  };
  int rc = 0;
  if (!cmd_parse_options(self, entries, &argc, &argv, &rc)) {
    cmd_gen_args_clear(&a);
    return rc;
  }
  g_autoptr(GError) err = NULL;
  if (argc > 1) {
    g_set_error(&err, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "unexpected argument '%s' (the trace is written to stdout)\nUsage: sharesim gen %s",
                argv[1], self->usage);
    cmd_gen_args_clear(&a);
    return cmd_fail(self->name, err);
  }
  if (a.profile && !strcmp(a.profile, "list")) {
    cmd_gen_list(stdout);
    cmd_gen_args_clear(&a);
    return 0;
  }
  gen_options o;
  if (!cmd_gen_options(&a, &o, &err) || !gen_find(o.profile, &err)) {
    cmd_gen_args_clear(&a);
    return cmd_fail(self->name, err);
  }
  cmd_gen_sink sink = {.buf = g_string_sized_new(1u << 21), .out = stdout, .failed = FALSE};
  trace_write_header(sink.buf);
  gboolean ok = gen_run(&o, cmd_gen_emit, &sink, &err);
  if (ok) {
    ok = cmd_gen_flush(&sink) && fflush(stdout) == 0 && !ferror(stdout);
  }
  if (!ok && (sink.failed || ferror(stdout))) { /* said once, with the reason, at exit */
    g_clear_error(&err);
    g_set_error(&err, SHARESIM_ERROR, SHARESIM_ERROR_STDOUT, "could not write the trace");
  }
  g_string_free(sink.buf, TRUE);
  cmd_gen_args_clear(&a);
  return ok ? 0 : cmd_fail(self->name, err);
}

const cmd_entry cmd_gen_entry = {
    .name = "gen",
    .usage = "--profile NAME [--gpus N] [--days D] [--seed S] [--mix KIND=SHARE,...] "
             "[--load L] [--jobs N] [--tenants K] > TRACE.csv",
    .summary = "synthetic job traces with realistic mixes, reproducible from a seed",
    .main = cmd_gen_main,
};
