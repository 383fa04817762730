/* import.c: the table of importers, and the context every importer writes into: output
 * buffers flushed to the caller's sink files in large writes, the bad-row policy (--skip-bad
 * or fail with every problem), format options as text, the stderr notes, and small helpers
 * (number cells, header lookup, submit_utc cells, node inventories written as a scenario).
 * It does not open, rename or delete files (cmd-import.c does) nor know any format. */
#include "import.h"
#include "caltime.h"
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#define IMPORT_FLUSH_BYTES (1u << 20)
#define IMPORT_SKIPPED_KEPT 10

/* The one table of importers, in listing order; a new importer is its import-NAME.c (one
 * const import_format, import.h) and one more row here, with its name in the extern line:
 * its place sets only where it appears in `sharesim import list`. */
extern const import_format import_dcgm_format, import_alibaba_openb_format,
    import_alibaba_pai_format, import_azure_llm_format, import_mooncake_format;
const import_format *const import_formats[] = {
    &import_dcgm_format,
    &import_alibaba_openb_format,
    &import_alibaba_pai_format,
    &import_azure_llm_format,
    &import_mooncake_format,
    NULL,
};

const import_format *import_find(const char *name) {
  for (const import_format *const *f = import_formats; *f; f++)
    if (!strcmp((*f)->name, name)) return *f;
  return NULL;
}

gboolean import_text(const char *format, const char *const *files, guint n_files,
                     const char *const *options, char **trace_csv, char **scenario_text,
                     GError **error) {
  const import_format *fmt = import_find(format);
  g_assert(fmt); /* the callers name a format of the table */
  g_autoptr(import_ctx) c = import_ctx_new(files, n_files, FALSE);
  for (guint i = 0; options && options[i]; i += 2) import_option_add(c, options[i], options[i + 1]);
  import_request_out(c, IMPORT_OUT_TRACE, NULL);
  if (scenario_text) import_request_out(c, IMPORT_OUT_SCENARIO, NULL);
  if (!fmt->run(c, error)) return FALSE;
  if (!c->trace_header_extra) import_trace_header(c, NULL, 0);
  if (diag_has_errors(c->diags)) {
    g_autofree char *msg = diag_join(c->diags);
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT, "import %s: %s", format, msg);
    return FALSE;
  }
  *trace_csv = g_strdup(import_out_text(c, IMPORT_OUT_TRACE));
  if (scenario_text) *scenario_text = g_strdup(import_out_text(c, IMPORT_OUT_SCENARIO));
  return TRUE;
}

import_ctx *import_ctx_new(const char *const *files, guint n_files, gboolean skip_bad) {
  import_ctx *c = g_new0(import_ctx, 1);
  c->files = files;
  c->n_files = n_files;
  c->skip_bad = skip_bad;
  c->diags = diag_list_new(0);
  c->skipped_diags = diag_list_new(IMPORT_SKIPPED_KEPT);
  c->options = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
                                     (GDestroyNotify)g_ptr_array_unref);
  c->notes = g_ptr_array_new_with_free_func(g_free);
  /* grown as rows come (up to about IMPORT_FLUSH_BYTES before each flush): a small
   * import, or a fuzz execution, does not pay for a megabyte it never fills */
  c->buf[IMPORT_OUT_TRACE] = g_string_sized_new(64 * 1024);
  return c;
}

void import_ctx_free(import_ctx *c) {
  if (!c) return;
  for (int i = 0; i < IMPORT_OUT_COUNT; i++)
    if (c->buf[i]) g_string_free(c->buf[i], TRUE);
  diag_list_free(c->diags);
  diag_list_free(c->skipped_diags);
  g_hash_table_unref(c->options);
  g_ptr_array_unref(c->notes);
  g_free(c);
}

void import_request_out(import_ctx *c, import_out which, FILE *sink) {
  g_return_if_fail((unsigned)which < IMPORT_OUT_COUNT);
  if (!c->buf[which]) c->buf[which] = g_string_sized_new(64 * 1024);
  c->sink[which] = sink;
  if (which == IMPORT_OUT_PHASES && !c->phases_header) {
    g_string_append(c->buf[which], "job_id,after_s,mem_gb,busy,sm,rate_rps\n");
    c->phases_header = TRUE;
  }
}

gboolean import_wants(const import_ctx *c, import_out which) {
  return (unsigned)which < IMPORT_OUT_COUNT && c->buf[which] != NULL;
}

void import_option_add(import_ctx *c, const char *name, const char *value) {
  GPtrArray *a = g_hash_table_lookup(c->options, name);
  if (!a) {
    a = g_ptr_array_new_with_free_func(g_free);
    g_hash_table_insert(c->options, g_strdup(name), a);
  }
  g_ptr_array_add(a, g_strdup(value));
}

const char *import_option(const import_ctx *c, const char *name) {
  GPtrArray *a = g_hash_table_lookup(c->options, name);
  return a && a->len ? g_ptr_array_index(a, a->len - 1) : NULL;
}

GPtrArray *import_option_all(const import_ctx *c, const char *name) {
  return g_hash_table_lookup(c->options, name);
}

const char *import_out_text(const import_ctx *c, import_out which) {
  return import_wants(c, which) ? c->buf[which]->str : NULL;
}

gboolean import_flush(import_ctx *c, gboolean force) {
  for (int i = 0; i < IMPORT_OUT_COUNT; i++) {
    GString *b = c->buf[i];
    if (!b || !c->sink[i] || !b->len || (!force && b->len < IMPORT_FLUSH_BYTES)) continue;
    if (!c->write_failed && fwrite(b->str, 1, b->len, c->sink[i]) != b->len)
      c->write_failed = TRUE;
    g_string_truncate(b, 0);
  }
  return !c->write_failed;
}

void import_trace_header(import_ctx *c, const char *const *extra, guint n_extra) {
  GString *b = c->buf[IMPORT_OUT_TRACE];
  if (c->host_columns) trace_write_header_host(b);
  else trace_write_header(b);
  if (n_extra) {
    g_string_truncate(b, b->len - 1); /* the newline */
    for (guint i = 0; i < n_extra; i++) {
      g_string_append_c(b, ',');
      util_csv_field(b, extra[i]);
    }
    g_string_append_c(b, '\n');
  }
  c->trace_header_extra = TRUE;
}

void import_emit_job(import_ctx *c, const job_spec *j, const char *const *extra,
                     guint n_extra) {
  if (!c->trace_header_extra) import_trace_header(c, NULL, 0);
  GString *b = c->buf[IMPORT_OUT_TRACE];
  if (c->host_columns) trace_write_row_host(b, j);
  else trace_write_row(b, j);
  if (n_extra) {
    g_string_truncate(b, b->len - 1);
    for (guint i = 0; i < n_extra; i++) {
      g_string_append_c(b, ',');
      if (extra[i]) util_csv_field(b, extra[i]);
    }
    g_string_append_c(b, '\n');
  }
  c->jobs_written++;
  c->lines_written[IMPORT_OUT_TRACE]++;
  import_flush(c, FALSE);
}



void import_emit_phase(import_ctx *c, const char *job_id, const job_phase *ph) {
  GString *b = c->buf[IMPORT_OUT_PHASES];
  if (!b) return;
  util_csv_field(b, job_id);
  g_string_append_c(b, ',');
  util_append_fixed9(b, ph->after_ns);
  g_string_append_c(b, ',');
  if (ph->set & PHASE_SET_MEM) util_append_fixed9(b, ph->mem_bytes);
  g_string_append_c(b, ',');
  if (ph->set & PHASE_SET_BUSY) util_append_shortest(b, ph->busy, 1);
  g_string_append_c(b, ',');
  if (ph->set & PHASE_SET_SM) util_append_shortest(b, ph->sm, 1);
  g_string_append_c(b, ',');
  if (ph->set & PHASE_SET_RATE) util_append_shortest(b, ph->rate_rps, 1);
  g_string_append_c(b, '\n');
  c->lines_written[IMPORT_OUT_PHASES]++;
  import_flush(c, FALSE);
}

void import_append(import_ctx *c, import_out which, const char *text) {
  if (!import_wants(c, which)) return;
  g_string_append(c->buf[which], text);
  import_flush(c, FALSE);
}

gboolean import_bad_row(import_ctx *c, const char *file, guint line, guint col,
                        const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  g_autofree char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  if (c->skip_bad) {
    c->rows_skipped++;
    diag_add(c->skipped_diags, file, line, col, "%s", msg);
    return TRUE;
  }
  c->rows_bad++;
  diag_add(c->diags, file, line, col, "%s", msg);
  return FALSE;
}

void import_note(import_ctx *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  g_ptr_array_add(c->notes, g_strdup_vprintf(fmt, ap));
  va_end(ap);
}

gboolean import_ok(const import_ctx *c) { return !diag_has_errors(c->diags) && !c->write_failed; }

/* ---- cells ---- */

gboolean import_parse_number(const char *text, double *out) {
  if (!text) return FALSE;
  while (g_ascii_isspace(*text)) text++;
  const char *p = text;
  if (*p == '+' || *p == '-') p++;
  if (!g_ascii_isdigit(*p) && !(*p == '.' && g_ascii_isdigit(p[1]))) return FALSE;
  char *end = NULL;
  errno = 0;
  double v = g_ascii_strtod(text, &end);
  if (end == text) return FALSE;
  while (g_ascii_isspace(*end)) end++;
  if (*end || !isfinite(v) || errno == ERANGE) return FALSE;
  *out = v + 0.0;
  return TRUE;
}

int import_column(const csvread_row *header, const char *name) {
  for (guint i = 0; i < header->n; i++)
    if (!strcmp(header->cells[i], name)) return (int)i;
  return -1;
}

char *import_submit_utc(double start_unix, sim_time submit_ns) {
  if (!isfinite(start_unix) || start_unix < IMPORT_CALENDAR_MIN_UNIX) return NULL;
  GString *s = g_string_new(NULL);
  caltime_append(s, start_unix + util_ns_to_seconds(submit_ns));
  return g_string_free(s, FALSE);
}

char *import_file_stem(const char *path) {
  g_autofree char *base = g_path_get_basename(path);
  char *dot = strrchr(base, '.');
  if (dot && dot != base) *dot = 0;
  return g_strdup(base);
}

/* ---- inventories ---- */

void import_inventory_init(import_inventory *inv, const char *source) {
  memset(inv, 0, sizeof *inv);
  inv->source = source;
  inv->by_model = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
}

void import_inventory_clear(import_inventory *inv) {
  if (inv->by_model) g_hash_table_unref(inv->by_model);
  inv->by_model = NULL;
}

void import_inventory_add(import_inventory *inv, const char *model, guint64 gpus_per_node) {
  inv->nodes++;
  if (!gpus_per_node) return;
  inv->gpu_nodes++;
  inv->gpus += gpus_per_node;
  char *key = g_strdup_printf("%s x %" G_GUINT64_FORMAT, model && *model ? model : "?",
                              gpus_per_node);
  guint64 *n = g_hash_table_lookup(inv->by_model, key);
  if (n) {
    (*n)++;
    g_free(key);
  } else {
    n = g_new(guint64, 1);
    *n = 1;
    g_hash_table_insert(inv->by_model, key, n);
  }
}

static gint import_strcmp(gconstpointer a, gconstpointer b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void import_inventory_describe(const import_inventory *inv, GString *s) {
  g_string_append(s, "# GPU nodes by model x GPUs per node:\n");
  GPtrArray *keys = g_ptr_array_new();
  GHashTableIter it;
  gpointer k, v;
  g_hash_table_iter_init(&it, inv->by_model);
  while (g_hash_table_iter_next(&it, &k, &v)) g_ptr_array_add(keys, k);
  g_ptr_array_sort(keys, import_strcmp);
  for (guint i = 0; i < keys->len; i++) {
    const char *key = g_ptr_array_index(keys, i);
    g_autofree char *esc = g_strescape(key, NULL);
    g_string_append_printf(s, "#   %s: %" G_GUINT64_FORMAT " nodes\n", esc,
                           *(guint64 *)g_hash_table_lookup(inv->by_model, key));
  }
  g_ptr_array_unref(keys);
}

void import_inventory_write_scenario(import_ctx *c, const import_inventory *inv,
                                     const char *name, const char *gpu, const char *strategy) {
  if (!import_wants(c, IMPORT_OUT_SCENARIO)) return;
  GString *s = g_string_new(NULL);
  g_autofree char *base = g_path_get_basename(inv->source);
  g_string_append_printf(s,
                         "# Made by `sharesim import` from %s: %" G_GUINT64_FORMAT
                         " nodes, %" G_GUINT64_FORMAT " with GPUs, %" G_GUINT64_FORMAT
                         " GPUs.\n",
                         base, inv->nodes, inv->gpu_nodes, inv->gpus);
  import_inventory_describe(inv, s);
  g_string_append_printf(
      s,
      "# A pool's nodes are all alike and a job routes to one pool, so the GPUs form one\n"
      "# pool of single-GPU nodes (the GPU count is exact; node boundaries are not kept).\n"
      "# The GPU model is a stand-in from the catalogue (docs/traces.md).\n"
      "name: %s\n"
      "pools:\n"
      "  - name: %s\n"
      "    gpu: %s\n"
      "    nodes: %" G_GUINT64_FORMAT "\n"
      "    gpus_per_node: 1\n"
      "    strategy: %s\n",
      name, name, gpu, inv->gpus ? inv->gpus : 1, strategy);
  import_append(c, IMPORT_OUT_SCENARIO, s->str);
  g_string_free(s, TRUE);
}

gboolean import_pool_options(const import_ctx *c, const char *def_model,
                             const char *def_strategy, const gpu_model **model,
                             share_strategy *strategy, GError **error) {
  const char *name = import_option(c, "gpu-model") ? import_option(c, "gpu-model") : def_model;
  *model = catalog_find(name);
  if (!*model) {
    g_autofree char *names = catalog_model_names();
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "--gpu-model: expected a catalogue model (%s), found '%s'", names, name);
    return FALSE;
  }
  const char *st = import_option(c, "strategy") ? import_option(c, "strategy") : def_strategy;
  if (!share_strategy_parse(st, strategy)) {
    g_autoptr(GString) names = g_string_new(NULL); /* the strategy table's, in its order */
    guint n = scenario_strategy_count();
    for (guint i = 0; i < n; i++)
      g_string_append_printf(names, "%s%s", i == 0 ? "" : i + 1 < n ? ", " : " or ",
                             scenario_strategy_get(i)->name);
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "--strategy: expected %s, found '%s'", names->str, st);
    return FALSE;
  }
  return TRUE;
}

gboolean import_unreadable_row(import_ctx *c, const csvread_row *row, gboolean *have_header,
                               gboolean *header_bad, gboolean count_row) {
  if (!*have_header) {
    diag_add(c->diags, row->path, row->line, 0, "header: %s", row->error);
    *have_header = *header_bad = TRUE;
    return FALSE;
  }
  if (count_row) c->rows_read++;
  import_bad_row(c, row->path, row->line, 0, "%s", row->error);
  return TRUE;
}
