/* cmd-validate.c: `sharesim validate [--traces DIR] [--case FAMILY[,FAMILY...]] [--csv | --markdown]
 * [-o DIR] [--strict] [--set KEY=VALUE]`: runs the validation cases (validate.h), with the
 * model keys overridden in every case's scenario, and prints the table;
 * with -o writes validate.csv, validate.txt, validate-scatter.csv (predicted vs measured,
 * for plot) and the cases' inputs (inputs/) into DIR, all at once. The cases' inputs are
 * written into a private temporary folder otherwise, removed at the end. */
#include "cmd.h"
#include "outdir.h"
#include "studydir.h"
#include "util.h"
#include "validate.h"
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

static gboolean validate_write_out(outdir *od, const validate_ctx *c, const GString *text,
                                   const GString *csv, GError **error) {
  return outdir_write(od, "validate.txt", text->str, text->len, error) &&
         outdir_write(od, "validate.csv", csv->str, csv->len, error) &&
         outdir_write(od, "validate-scatter.csv", c->scatter->str, c->scatter->len, error);
}

/* The overrides checked once on a scenario of one pool, so that a bad one is a usage error
 * (exit 2) naming the --set, not a failed case; they are applied to every case after. */
static int validate_check_sets(char **sets, const char *work) {
  if (!sets || !*sets) return 0;
  g_autofree char *path = g_build_filename(work, "set-check.yaml", NULL);
  if (!g_file_set_contents(path, "name: set-check\npools:\n  - {name: p, gpu: A100-80GB, nodes: 1}\n",
                           -1, NULL)) {
    fprintf(stderr, "sharesim validate: cannot write %s\n", path);
    return 1;
  }
  g_autoptr(diag_list) d = diag_list_new(0);
  scenario *sc = scenario_load_with_overrides(path, (const char *const *)sets, g_strv_length(sets), d);
  if (sc) scenario_free(sc);
  g_remove(path);
  if (!diag_has_errors(d)) return 0;
  gsize plen = strlen(path);
  for (guint i = 0; i < d->messages->len; i++) {
    const char *m = g_ptr_array_index(d->messages, i);
    if (!strncmp(m, path, plen) && m[plen] == ':') m += plen + 2;
    fprintf(stderr, "sharesim validate: %s (a --set applies to every case: top-level model keys "
                    "such as mps_block_wait, ts_switch_loss)\n", m);
  }
  return 2;
}

static int validate_print(const GString *s) {
  /* a failure is said once, with the reason, by the check of stdout at exit (cmd.c) */
  return fwrite(s->str, 1, s->len, stdout) != s->len || fflush(stdout) != 0 ? 1 : 0;
}

extern const cmd_entry cmd_validate_entry; /* at the end of this file; its row: cmd.c */

static int cmd_validate_main(int argc, char **argv) {
  g_autofree char *traces = NULL, *only = NULL, *out = NULL;
  g_auto(GStrv) sets = NULL;
  gboolean csv_only = FALSE, markdown = FALSE, strict = FALSE;
  GOptionEntry entries[] = {
      {"traces", 0, 0, G_OPTION_ARG_FILENAME, &traces, "Folder holding lucid-asplos23/ (the Lucid repository's simulation data, docs/sources.md [S74]) and alibaba-gpu-v2023-openb/ (Alibaba's openb pod and node lists, [S83]); by default the public-traces folder of a development checkout (HACKING.md, Tests); cases whose files are absent are skipped", "DIR"},
      {"case", 0, 0, G_OPTION_ARG_STRING, &only, "Run only these case families, comma-separated (queueing, lucid, colfax, tally, mig, stories, fgd, fgdw, llm, vidur, parva, priority)", "FAMILY[,FAMILY...]"},
      {"csv", 0, 0, G_OPTION_ARG_NONE, &csv_only, "Print the table as CSV", NULL},
      {"markdown", 0, 0, G_OPTION_ARG_NONE, &markdown, "Print the table as Markdown (docs/models.md, Validation)", NULL},
      {"output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Write validate.csv, validate.txt, validate-scatter.csv and the cases' inputs into DIR", "DIR"},
      {"strict", 0, 0, G_OPTION_ARG_NONE, &strict, "Exit 1 when any case misses its target", NULL},
      {"set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets, "Override a top-level model key in every case's scenario, e.g. mps_block_wait=0.3 (repeatable; for sensitivity studies)", "KEY=VALUE"},
      {NULL}};
  int rc;
  if (!cmd_parse_options(&cmd_validate_entry, entries, &argc, &argv, &rc)) return rc;
  if (argc != 1) {
    fprintf(stderr, "sharesim validate: unexpected argument '%s'\nusage: sharesim validate %s\n",
            argv[1], cmd_validate_entry.usage);
    return 2;
  }
  g_autoptr(GError) err = NULL;
  outdir *od = NULL;
  g_autofree char *scratch = NULL, *work = NULL;
  if (out) {
    if (!(od = outdir_begin(out, &err))) return cmd_fail("validate", err);
    work = g_build_filename(outdir_tmp_path(od), "inputs", NULL);
    if (g_mkdir(work, 0777) != 0) {
      outdir_abort(od);
      g_set_error(&err, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot create %s", work);
      return cmd_fail("validate", err);
    }
  } else {
    if (!(scratch = g_dir_make_tmp("sharesim-validate-XXXXXX", &err))) return cmd_fail("validate", err);
    work = g_strdup(scratch);
  }
  if ((rc = validate_check_sets(sets, work)) != 0) {
    if (od) outdir_abort(od);
    if (scratch) outdir_remove_tree(scratch, NULL);
    return rc;
  }
  validate_ctx c;
  validate_ctx_init(&c, traces ? traces : "../shared/traces", work);
  c.only = only;
  c.overrides = (const char *const *)sets;
  c.n_overrides = sets ? g_strv_length(sets) : 0;
  c.threads = MAX(1u, g_get_num_processors());
  rc = 0;
  if (!validate_run(&c, &err)) rc = cmd_fail("validate", err);
  if (rc == 0) {
    GString *text = g_string_new(NULL), *csv = g_string_new(NULL);
    validate_write_text(&c, text);
    validate_write_csv(&c, csv);
    if (od) {
      gboolean ok = validate_write_out(od, &c, text, csv, &err);
      if (ok) ok = studydir_commit(od, out, "validate.csv", &err);
      else outdir_abort(od);
      od = NULL;
      if (!ok) rc = cmd_fail("validate", err);
    }
    if (rc == 0 && markdown) {
      GString *md = g_string_new(NULL);
      validate_write_markdown(&c, md);
      rc = validate_print(md);
      g_string_free(md, TRUE);
    } else if (rc == 0) {
      rc = validate_print(csv_only ? csv : text);
    }
    guint pass, fail, skip;
    validate_counts(&c, &pass, &fail, &skip);
    if (rc == 0 && strict && fail) rc = 1;
    g_string_free(text, TRUE);
    g_string_free(csv, TRUE);
  }
  if (od) outdir_abort(od);
  if (scratch) outdir_remove_tree(scratch, NULL);
  validate_ctx_clear(&c);
  return rc;
}

const cmd_entry cmd_validate_entry = {
    .name = "validate",
    .usage = "[--traces DIR] [--case FAMILY[,FAMILY...]] [--csv | --markdown] [-o DIR] [--strict] [--set KEY=VALUE]",
    .summary = "replay published measurements through the simulator and compare (validation table)",
    .main = cmd_validate_main,
};
