/* cmd-import.c: `sharesim import FORMAT FILE... [--skip-bad] [-o TRACE.csv] [options]`:
 * the importers of import.c's table, their options on the command line, and the outputs
 * written whole or not at all: each output goes to a temporary file (beside its
 * destination, or in the temporary folder for stdout) that is renamed into place (or
 * copied to stdout) only when the import succeeded. What a format means is decided by its import-*.c. */
#include "cmd.h"
#include "safeopen.h"
#include "cmd-load.h"
#include "import.h"
#include "outfile.h"
#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

static void cmd_import_list(FILE *out, gboolean with_options) {
  fprintf(out, "Formats:\n");
  for (const import_format *const *fp = import_formats; *fp; fp++) {
    const import_format *f = *fp;
    fprintf(out, "  %-15s %s\n", f->name, f->description);
    if (!with_options) continue;
    fprintf(out, "  %-15s files: %s\n", "", f->files);
    for (const import_opt *o = f->options; o && o->name; o++)
      fprintf(out, "  %-15s --%s %s: %s%s\n", "", o->name, o->arg, o->help,
              o->repeatable ? " (repeatable)" : "");
  }
}

static void cmd_import_usage(FILE *out) {
  fprintf(out,
          "Usage: sharesim import FORMAT FILE... [--skip-bad] [-o TRACE.csv] [options] > TRACE.csv\n"
          "Converts recorded or public traces into a sharesim job trace (docs/trace-format.md).\n"
          "Malformed rows stop the import (exit 2, every problem with file:line) unless\n"
          "--skip-bad is given (they are then skipped and counted on stderr). Nothing is\n"
          "written unless the whole import succeeds. 'sharesim import FORMAT --help' lists a\n"
          "format's options; mappings are documented in docs/traces.md.\n\n");
  cmd_import_list(out, TRUE);
}

static void cmd_import_unknown(const char *name) {
  fprintf(stderr, "sharesim import: unknown format '%s'; valid formats:", name);
  for (const import_format *const *f = import_formats; *f; f++)
    fprintf(stderr, "%s %s", f > import_formats ? "," : "", (*f)->name);
  fprintf(stderr, "\n");
}

/* ---- options ---- */

typedef struct cmd_import_state {
  const import_format *fmt;
  import_ctx *ctx;
  GHashTable *seen;  /* option names given */
} cmd_import_state;

static gboolean cmd_import_opt_cb(const gchar *option_name, const gchar *value, gpointer data,
                                  GError **error) {
  cmd_import_state *st = data;
  const char *name = option_name + 2; /* "--" */
  for (const import_opt *o = st->fmt->options; o && o->name; o++) {
    if (strcmp(o->name, name)) continue;
    if (!o->repeatable && g_hash_table_contains(st->seen, o->name)) {
      g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "%s given more than once",
                  option_name);
      return FALSE;
    }
    g_hash_table_add(st->seen, (gpointer)o->name);
    import_option_add(st->ctx, o->name, value);
    return TRUE;
  }
  g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_UNKNOWN_OPTION, "unknown option %s",
              option_name);
  return FALSE;
}

static void cmd_import_print_summary(const import_ctx *c, const char *fmt_name) {
  fprintf(stderr, "sharesim import %s: %" G_GUINT64_FORMAT " rows read, %" G_GUINT64_FORMAT
                  " jobs written",
          fmt_name, c->rows_read, c->jobs_written);
  if (c->lines_written[IMPORT_OUT_PHASES])
    fprintf(stderr, ", %" G_GUINT64_FORMAT " phase rows", c->lines_written[IMPORT_OUT_PHASES]);
  if (c->lines_written[IMPORT_OUT_REQUESTS])
    fprintf(stderr, ", %" G_GUINT64_FORMAT " requests", c->lines_written[IMPORT_OUT_REQUESTS]);
  fprintf(stderr, "\n");
  for (guint i = 0; i < c->notes->len; i++)
    fprintf(stderr, "  %s\n", (const char *)g_ptr_array_index(c->notes, i));
  if (c->rows_skipped) {
    fprintf(stderr, "sharesim import %s: skipped %" G_GUINT64_FORMAT " bad row%s (--skip-bad)%s\n",
            fmt_name, c->rows_skipped, c->rows_skipped == 1 ? "" : "s",
            c->rows_skipped > c->skipped_diags->messages->len ? ", the first ones:" : ":");
    for (guint i = 0; i < c->skipped_diags->messages->len; i++)
      fprintf(stderr, "  %s\n", (const char *)g_ptr_array_index(c->skipped_diags->messages, i));
  }
}

/* Parses the fixed and the format's own options; FALSE (message printed) on a bad one, or
 * with *help set after --help (printed). */
static gboolean cmd_import_parse(const import_format *fmt, import_ctx *c, int *argc,
                                 char ***argv, char **output, gboolean *skip_bad,
                                 gboolean *help) {
  cmd_import_state st = {.fmt = fmt, .ctx = c, .seen = g_hash_table_new(g_str_hash, g_str_equal)};
  GArray *entries = g_array_new(TRUE, TRUE, sizeof(GOptionEntry));
  GOptionEntry fixed[] = {
      {"output", 'o', 0, G_OPTION_ARG_FILENAME, output,
       "Write the trace to FILE (whole or not at all) instead of stdout", "FILE"},
      {"skip-bad", 0, 0, G_OPTION_ARG_NONE, skip_bad,
       "Skip malformed rows (counted on stderr) instead of failing", NULL},
  };
  g_array_append_vals(entries, fixed, G_N_ELEMENTS(fixed));
  for (const import_opt *o = fmt->options; o && o->name; o++) {
    GOptionEntry e = {o->name, 0, 0, G_OPTION_ARG_CALLBACK, (gpointer)cmd_import_opt_cb, o->help,
                      o->arg};
    g_array_append_val(entries, e);
  }
  g_autofree char *param = g_strdup_printf("- %s", fmt->files);
  GOptionContext *octx = g_option_context_new(param);
  g_option_context_set_summary(octx, fmt->description);
  GOptionGroup *grp = g_option_group_new("import", "import options", "import options", &st, NULL);
  g_option_group_add_entries(grp, (GOptionEntry *)(void *)entries->data);
  g_option_context_set_main_group(octx, grp);
  g_autofree char *prg = g_strdup_printf("sharesim import %s", fmt->name);
  g_set_prgname(prg);
  g_autoptr(GError) err = NULL;
  gboolean parsed = cmd_option_parse(octx, argc, argv, help, &err);
  g_option_context_free(octx);
  g_array_unref(entries);
  g_hash_table_unref(st.seen);
  if (!parsed && !*help)
    fprintf(stderr, "sharesim import: %s\nUsage: sharesim import %s %s [--skip-bad] [-o TRACE.csv]\n",
            err->message, fmt->name, fmt->files);
  return parsed;
}

/* Outputs: the trace, and each file-valued format option, into dest. Two outputs on one
 * path, or an output over an input, are refused (message printed, FALSE). */
static gboolean cmd_import_outputs(const import_format *fmt, import_ctx *c, const char *output,
                                   const char **dest) {
  const char *dest_opt[IMPORT_OUT_COUNT] = {[IMPORT_OUT_TRACE] = "-o"};
  dest[IMPORT_OUT_TRACE] = output;
  for (const import_opt *o = fmt->options; o && o->name; o++)
    if (o->out > 0 && o->out < IMPORT_OUT_COUNT && import_option(c, o->name)) {
      dest[o->out] = import_option(c, o->name);
      dest_opt[o->out] = o->name;
    }
  for (int i = 0; i < IMPORT_OUT_COUNT; i++) {
    if (!dest[i]) continue;
    for (int k = 0; k < i; k++)
      if (dest[k] && safeopen_same_file(dest[k], dest[i])) {
        fprintf(stderr, "sharesim import: --%s and %s%s name the same file '%s'\n", dest_opt[i],
                k == IMPORT_OUT_TRACE ? "" : "--", dest_opt[k], dest[i]);
        return FALSE;
      }
    for (guint f = 0; f < c->n_files; f++)
      if (safeopen_same_file(c->files[f], dest[i])) {
        fprintf(stderr, "sharesim import: output '%s' is also an input file\n", dest[i]);
        return FALSE;
      }
  }
  return TRUE;
}

/* Runs the importer into the outputs (each whole or not at all); the exit code. */
static int cmd_import_run(const import_format *fmt, import_ctx *c, const char *const *dest) {
  outfile *outs[IMPORT_OUT_COUNT] = {0};
  g_autoptr(GError) err = NULL;
  int rc = 0;
  for (int i = 0; i < IMPORT_OUT_COUNT && !rc; i++) {
    if (i != IMPORT_OUT_TRACE && !dest[i]) continue;
    if (!(outs[i] = outfile_begin(dest[i], &err))) rc = cmd_fail("import", err);
    else import_request_out(c, (import_out)i, outfile_stream(outs[i]));
  }
  if (!rc) {
    gboolean ok = fmt->run(c, &err);
    if (ok && !c->trace_header_extra) import_trace_header(c, NULL, 0);
    import_flush(c, TRUE);
    if (!ok) {
      rc = cmd_fail("import", err);
    } else if (diag_has_errors(c->diags)) {
      cmd_print_diags("import", c->diags);
      if (c->rows_bad)
        fprintf(stderr, "(nothing was written; --skip-bad skips the %" G_GUINT64_FORMAT
                        " malformed row%s)\n",
                c->rows_bad, c->rows_bad == 1 ? "" : "s");
      else
        fprintf(stderr, "(nothing was written)\n");
      rc = 2;
    } else if (c->write_failed) {
      fprintf(stderr, "sharesim import: cannot write the output (temporary file); nothing was written\n");
      rc = 1;
    }
  }
  for (int i = 0; i < IMPORT_OUT_COUNT && !rc; i++)
    if (outs[i] && !outfile_commit(g_steal_pointer(&outs[i]), &err)) rc = cmd_fail("import", err);
  for (int i = 0; i < IMPORT_OUT_COUNT; i++) outfile_abort(outs[i]);
  if (!rc) cmd_import_print_summary(c, fmt->name);
  return rc;
}

static int cmd_import_main(int argc, char **argv) {
  if (argc < 2) {
    cmd_import_usage(stderr);
    return 2;
  }
  const char *name = argv[1];
  if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
    cmd_import_usage(stdout);
    return 0;
  }
  if (!strcmp(name, "list")) {
    cmd_import_list(stdout, FALSE);
    return 0;
  }
  const import_format *fmt = import_find(name);
  if (!fmt) {
    cmd_import_unknown(name);
    return 2;
  }
  g_autofree char *output = NULL;
  gboolean skip_bad = FALSE;
  g_autoptr(import_ctx) c = import_ctx_new(NULL, 0, FALSE);
  gboolean help = FALSE;
  if (!cmd_import_parse(fmt, c, &argc, &argv, &output, &skip_bad, &help)) return help ? 0 : 2;
  /* argv[0] "import", argv[1] the format, then the files */
  if (argc < 3) {
    fprintf(stderr, "sharesim import %s: expected at least one input file\nUsage: sharesim import %s %s\n",
            fmt->name, fmt->name, fmt->files);
    return 2;
  }
  c->files = (const char *const *)argv + 2;
  c->n_files = (guint)argc - 2;
  c->skip_bad = skip_bad;
  const char *dest[IMPORT_OUT_COUNT] = {0};
  if (!cmd_import_outputs(fmt, c, output, dest)) return 2;
  return cmd_import_run(fmt, c, dest);
}

const cmd_entry cmd_import_entry = {
    .name = "import",
    .usage = "FORMAT FILE... [--skip-bad] [-o TRACE.csv] [options] > TRACE.csv",
    .summary = "convert recorded or public traces (DCGM/Prometheus, Alibaba openb and PAI, Azure LLM)",
    .main = cmd_import_main,
};
