/* cmd.c: the table of subcommands, top-level --help/--version, and the shared helpers
 * for option parsing and error reporting used by every cmd-*.c. */
#include "cmd.h"
#include "cleanup.h"
#include "share.h"
#include "sim.h"
#include "place.h"
#include "paths.h"
#include "util.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "config.h"

/* The one table of subcommands, in the order `sharesim --help` lists them; a new command is
 * its cmd-NAME.c and one more row here, with its name in the extern line. */
extern const cmd_entry cmd_run_entry, cmd_check_entry, cmd_catalog_entry, cmd_gen_entry,
    cmd_import_entry, cmd_compare_entry, cmd_sweep_entry, cmd_size_entry, cmd_plan_entry,
    cmd_plot_entry, cmd_fill_entry, cmd_report_entry, cmd_validate_entry;
static const cmd_entry *const commands[] = {
    &cmd_run_entry, &cmd_check_entry, &cmd_catalog_entry, &cmd_gen_entry, &cmd_import_entry,
    &cmd_compare_entry, &cmd_sweep_entry, &cmd_size_entry, &cmd_plan_entry, &cmd_plot_entry,
    &cmd_fill_entry,
    &cmd_report_entry, &cmd_validate_entry,
};

const cmd_entry *cmd_find(const char *name) {
  for (size_t i = 0; i < G_N_ELEMENTS(commands); i++)
    if (!strcmp(commands[i]->name, name)) return commands[i];
  return NULL;
}

static void print_help(FILE *out) {
  fprintf(out,
          "sharesim %s: how should we share these GPUs? A discrete-event simulator that\n"
          "replays a GPU job trace against pools shared by whole-GPU allocation,\n"
          "time-slicing, MIG, MPS or vGPU.\n\nUsage: sharesim COMMAND [ARGS...]\n\nCommands:\n",
          PACKAGE_VERSION);
  for (size_t i = 0; i < G_N_ELEMENTS(commands); i++)
    fprintf(out, "  %-9s %s\n", commands[i]->name, commands[i]->summary);
  fprintf(out, "\nRun 'sharesim COMMAND --help' for a command's options.\n"
               "Exit codes: 0 success, 1 runtime failure, 2 bad input or usage.\n");
}

/* stdout is this stream over descriptor 1 (cmd_main): each write keeps the first error, so
 * that cmd_finish_stdout can give the reason whichever command wrote, and however. */
typedef struct cmd_stdout {
  int err;
} cmd_stdout;

static ssize_t cmd_stdout_write(void *cookie, const char *buf, size_t size) {
  cmd_stdout *s = cookie;
  size_t done = 0;
  while (done < size) {
    ssize_t n = write(STDOUT_FILENO, buf + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (!s->err) s->err = n < 0 ? errno : EIO;
      return 0; /* an error, for stdio (it sets the stream's error flag) */
    }
    done += (size_t)n;
  }
  return (ssize_t)done;
}

/* The close of descriptor 1 (an NFS or quota error can come only now). */
static int cmd_stdout_close(void *cookie) {
  cmd_stdout *s = cookie;
  if (close(STDOUT_FILENO) != 0 && errno != EINTR) {
    if (!s->err) s->err = errno;
    return -1;
  }
  return 0;
}

/* Every command's stdout ends here, the one place that checks it: the writes, the final
 * flush and the close. A full disk or a closed pipe is exit 1 with the reason, never a
 * silent exit 0; commands do not report their own stdout failures (they return non-zero
 * and this says why). */
static int cmd_finish_stdout(const char *name, int rc, const cmd_stdout *s) {
  gboolean bad = ferror(stdout) != 0;
  int e = s ? s->err : 0;
  if (fflush(stdout) != 0) bad = TRUE, e = e ? e : errno;
  if (fclose(stdout) != 0) bad = TRUE, e = e ? e : errno;
  if (s && s->err) bad = TRUE;
  if (!bad) return rc;
  fprintf(stderr, "sharesim%s%s: cannot write the output (stdout): %s\n", name ? " " : "",
          name ? name : "", g_strerror(e ? e : EIO));
  return rc ? rc : 1;
}

static int cmd_dispatch(int argc, char **argv) {
  if (argc < 2) {
    print_help(stderr);
    return 2;
  }
  const char *name = argv[1];
  if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
    print_help(stdout);
    return 0;
  }
  if (!strcmp(name, "--version")) {
    printf("sharesim %s\n", PACKAGE_VERSION);
    return 0;
  }
  const cmd_entry *cmd = cmd_find(name);
  if (cmd) return cmd->main(argc - 1, argv + 1);
  fprintf(stderr, "sharesim: unknown command '%s'; valid commands:", name);
  for (size_t i = 0; i < G_N_ELEMENTS(commands); i++)
    fprintf(stderr, "%s %s", i ? "," : "", commands[i]->name);
  fprintf(stderr, "\n");
  return 2;
}

int cmd_main(int argc, char **argv) {
  cleanup_install();
  scenario_use_strategies(share_count(), share_input_row); /* input knows no strategies */
  scenario_use_model_keys(sim_model_keys); /* nor any model's constants */
  scenario_use_pool_sections(sim_pool_sections); /* nor pool sections */
  scenario_use_placements(place_count(), place_input_row); /* nor placement policies */
  const char *name = argc >= 2 ? argv[1] : NULL; /* before option parsing reorders argv */
  cmd_stdout own = {0};
  FILE *f = fopencookie(&own, "w", (cookie_io_functions_t){.write = cmd_stdout_write,
                                                           .close = cmd_stdout_close});
  if (f) {
    setvbuf(f, NULL, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, 1u << 16);
    stdout = f;
  }
  int rc = cmd_dispatch(argc, argv);
  return cmd_finish_stdout(name, rc, f ? &own : NULL);
}

gboolean cmd_check_jobs(const char *name, gint *jobs) {
  if (*jobs < 0 || *jobs > 1024) {
    fprintf(stderr, "sharesim %s: -j %d: expected 1 to 1024\n", name, *jobs);
    return FALSE;
  }
  if (*jobs == 0) *jobs = (gint)MAX(1u, MIN(g_get_num_processors(), 1024u));
  return TRUE;
}

int cmd_fail(const char *name, const GError *error) {
  if (error && error->domain == SHARESIM_ERROR && error->code == SHARESIM_ERROR_STDOUT)
    return 1; /* cmd_finish_stdout says why */
  fprintf(stderr, "sharesim %s: %s\n", name, error ? error->message : "failed");
  if (error && error->domain == SHARESIM_ERROR && error->code == SHARESIM_ERROR_INPUT) return 2;
  if (error && error->domain == G_OPTION_ERROR) return 2;
  return 1;
}

static gboolean cmd_large_flag;
static char **cmd_allow_dirs;

gboolean cmd_allow_large(void) { return cmd_large_flag; }

void cmd_append_input_flags(GPtrArray *argv) {
  if (cmd_large_flag) g_ptr_array_add(argv, g_strdup("--allow-large"));
  for (const char *const *a = paths_allowed(); *a; a++) {
    g_ptr_array_add(argv, g_strdup("--allow-path"));
    g_ptr_array_add(argv, g_strdup(*a));
  }
}

/* The options of every command that loads scenarios. */
static GOptionEntry cmd_input_entries[] = {
    {"allow-path", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &cmd_allow_dirs,
     "Files a scenario names (sharing_config, mig_config, interference) may also be under "
     "DIR, not only under the scenario's folder (repeatable)", "DIR"},
    {"allow-large", 0, 0, G_OPTION_ARG_NONE, &cmd_large_flag,
     "Run even when the estimated work is beyond the budget (docs/scenario-format.md, "
     "\"Work budget\")", NULL},
    {NULL}};

gboolean cmd_option_parse(GOptionContext *ctx, int *argc, char ***argv, gboolean *help,
                          GError **error) {
  for (int i = 1; i < *argc; i++) {
    const char *a = (*argv)[i];
    if (!strcmp(a, "--")) break;
    if (!strcmp(a, "--help") || !strcmp(a, "-h") || !strcmp(a, "-?") || !strcmp(a, "--help-all")) {
      g_autofree char *text = g_option_context_get_help(ctx, TRUE, NULL);
      fputs(text, stdout);
      *help = TRUE;
      return FALSE;
    }
  }
  g_option_context_set_help_enabled(ctx, FALSE);
  return g_option_context_parse(ctx, argc, argv, error);
}

/* " (a scenario key: give it as --set seed=VALUE)" when message is GOption's "Unknown
 * option --KEY[=...]" for a top-level scenario key and the command takes --set; else NULL. */
static char *cmd_option_hint(const GOptionEntry *entries, const char *message) {
  const char *p = message ? strstr(message, "Unknown option --") : NULL;
  if (!p) return NULL;
  gboolean has_set = FALSE;
  for (guint i = 0; entries && entries[i].long_name; i++)
    has_set |= !strcmp(entries[i].long_name, "set");
  g_autofree char *key = g_strndup(p + 17, strcspn(p + 17, "= "));
  if (!has_set || !scenario_is_override_key(key)) return NULL;
  return g_strdup_printf(" (a scenario key: give it as --set %s=VALUE)", key);
}

gboolean cmd_parse_options(const cmd_entry *cmd, GOptionEntry *entries, int *argc,
                           char ***argv, int *exit_code) {
  g_autofree char *param = g_strdup_printf("- %s", cmd->usage);
  g_autoptr(GOptionContext) ctx = g_option_context_new(param);
  g_option_context_set_summary(ctx, cmd->summary);
  g_autofree char *described = cmd->describe ? cmd->describe() : NULL;
  if (described) g_option_context_set_description(ctx, described);
  if (entries) g_option_context_add_main_entries(ctx, entries, NULL);
  if (cmd->loads_scenarios) g_option_context_add_main_entries(ctx, cmd_input_entries, NULL);
  g_autofree char *prg = g_strdup_printf("sharesim %s", cmd->name);
  g_set_prgname(prg);
  g_autoptr(GError) err = NULL;
  gboolean help = FALSE;
  if (!cmd_option_parse(ctx, argc, argv, &help, &err)) {
    if (help) {
      *exit_code = 0;
      return FALSE;
    }
    g_autofree char *hint = cmd_option_hint(entries, err->message);
    fprintf(stderr, "sharesim %s: %s%s\nUsage: sharesim %s %s\n", cmd->name, err->message,
            hint ? hint : "", cmd->name, cmd->usage);
    *exit_code = 2;
    return FALSE;
  }
  for (guint i = 0; cmd_allow_dirs && cmd_allow_dirs[i]; i++)
    if (!paths_allow(cmd_allow_dirs[i], &err)) {
      *exit_code = cmd_fail(cmd->name, err);
      return FALSE;
    }
  g_clear_pointer(&cmd_allow_dirs, g_strfreev);
  return TRUE;
}
