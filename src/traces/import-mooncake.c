/* import-mooncake.c: the Mooncake (Kimi) conversation trace (FAST '25; JSON Lines with
 * timestamp in ms, input_length, output_length, hash_ids) as one LLM service and, with
 * --requests-out, its recorded requests with their tokens (SPEC 3.3 plus prompt_tokens and
 * output_tokens). hash_ids (prefix-cache blocks) are counted, not modelled: sharesim has no
 * prefix cache. Two passes (counts, then requests); memory does not grow with the rows. */
#include "import.h"
#include "llm-model.h"
#include "jsonlimit.h"
#include "safeopen.h"
#include <json-glib/json-glib.h>
#include <errno.h>
#include <math.h>
#include <string.h>

#define MC_MAX_LINE 1048576u      /* one JSON object per line, at most 1 MiB */
#define MC_TAIL_S 60.0
#define MC_DEFAULT_MODEL "llama-3.1-8b" /* 128k context: the prompts average 12k tokens */

static const import_opt mc_options[] = {
    {"requests-out", "FILE", "write every request's arrival and tokens (docs/trace-format.md)", FALSE,
     IMPORT_OUT_REQUESTS},
    {"model", "NAME", "the LLM serving it (default llama-3.1-8b; docs/models.md section 11)", FALSE, -1},
    {"tail-s", "S", "session time after the last arrival (default 60)", FALSE, -1},
    {NULL, NULL, NULL, FALSE, -1},
};

typedef struct mc_reader {
  import_ctx *c;
  gboolean emit;
  const char *id;
  guint64 rows, prompt_sum, output_sum, blocks;
  gint64 first_ms, last_ms, prev_ms;
  guint32 max_ctx;
  GString *line;
} mc_reader;

/* A member that must be a whole number >= lo: its value, or FALSE. */
static gboolean mc_int(JsonObject *o, const char *key, gint64 lo, gint64 hi, gint64 *out) {
  JsonNode *n = json_object_get_member(o, key);
  if (!n || JSON_NODE_TYPE(n) != JSON_NODE_VALUE) return FALSE;
  GType t = json_node_get_value_type(n);
  double v;
  if (t == G_TYPE_INT64) v = (double)json_node_get_int(n);
  else if (t == G_TYPE_DOUBLE) v = json_node_get_double(n);
  else return FALSE;
  if (!(v >= (double)lo && v <= (double)hi) || v != floor(v)) return FALSE;
  *out = (gint64)v;
  return TRUE;
}

static void mc_request(mc_reader *r, const char *path, guint line, const GString *text) {
  g_autoptr(JsonParser) p = json_parser_new();
  GError *err = NULL;
  guint col = 0;
  if (!jsonlimit_load_line(p, text->str, text->len, &col, &err)) {
    if (!r->emit) {
      if (err->domain == SHARESIM_ERROR)
        import_bad_row(r->c, path, line, col, "%s", err->message);
      else
        import_bad_row(r->c, path, line, 0, "expected a JSON object, found: %s", err->message);
    }
    g_error_free(err);
    return;
  }
  JsonNode *root = json_parser_get_root(p);
  if (!root || !JSON_NODE_HOLDS_OBJECT(root)) {
    if (!r->emit) import_bad_row(r->c, path, line, 0, "expected a JSON object per line");
    return;
  }
  JsonObject *o = json_node_get_object(root);
  gint64 ts, in, out;
  const char *bad = !mc_int(o, "timestamp", 0, G_GINT64_CONSTANT(1000000000000), &ts)
                        ? "timestamp: expected milliseconds >= 0 (at most 1e12)"
                    : !mc_int(o, "input_length", 1, TRACE_MAX_TOKENS, &in)
                        ? "input_length: expected a whole number of tokens from 1 to 1e7"
                    : !mc_int(o, "output_length", 1, TRACE_MAX_TOKENS, &out)
                        ? "output_length: expected a whole number of tokens from 1 to 1e7"
                    : r->prev_ms >= 0 && ts < r->prev_ms
                        ? "timestamp: expected a time at or after the previous line's"
                        : NULL;
  if (bad) {
    if (!r->emit) import_bad_row(r->c, path, line, 0, "%s", bad);
    return;
  }
  r->prev_ms = ts;
  if (!r->emit) {
    JsonNode *h = json_object_get_member(o, "hash_ids");
    if (h && JSON_NODE_HOLDS_ARRAY(h)) r->blocks += json_array_get_length(json_node_get_array(h));
    r->rows++;
    r->prompt_sum += (guint64)in;
    r->output_sum += (guint64)out;
    if (r->first_ms < 0) r->first_ms = ts;
    r->last_ms = ts;
    return;
  }
  GString *l = r->line;
  g_string_truncate(l, 0);
  util_csv_field(l, r->id);
  g_string_append_printf(l, ",%" G_GINT64_FORMAT ".%03d,,%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT
                         "\n", (ts - r->first_ms) / 1000, (int)((ts - r->first_ms) % 1000), in,
                         out);
  import_append(r->c, IMPORT_OUT_REQUESTS, l->str);
  r->c->lines_written[IMPORT_OUT_REQUESTS]++;
}

/* Reads path line by line (LF, CRLF or CR alone, as every reader counts lines; blank lines
 * skipped); FALSE when it cannot be read. */
static gboolean mc_read(mc_reader *r, const char *path) {
  g_autoptr(GError) oerr = NULL;
  FILE *f = safeopen_fopen(path, &oerr);
  if (!f) {
    diag_add(r->c->diags, path, 0, 0, "cannot open: %s", oerr->message);
    return FALSE;
  }
  GString *text = g_string_new(NULL);
  guint line = 0;
  int ch;
  gboolean too_long = FALSE;
  r->prev_ms = -1;
  do {
    ch = fgetc(f);
    if (ch == '\r') {
      int next = fgetc(f);
      if (next != '\n' && next != EOF) ungetc(next, f);
      ch = '\n';
    }
    if (ch != '\n' && ch != EOF) {
      if (text->len < MC_MAX_LINE) g_string_append_c(text, (char)ch);
      else too_long = TRUE;
      continue;
    }
    line++;
    if (too_long) {
      if (!r->emit) import_bad_row(r->c, path, line, 0, "expected a line of at most 1 MiB");
    } else if (text->len && strspn(text->str, " \t") != text->len) {
      if (!r->emit) r->c->rows_read++;
      if (memchr(text->str, 0, text->len)) {
        if (!r->emit) import_bad_row(r->c, path, line, 0, "expected text, found a NUL byte");
      } else {
        mc_request(r, path, line, text);
      }
    }
    g_string_truncate(text, 0);
    too_long = FALSE;
  } while (ch != EOF);
  gboolean ok = !ferror(f);
  if (!ok) diag_add(r->c->diags, path, 0, 0, "cannot read the file");
  fclose(f);
  g_string_free(text, TRUE);
  return ok;
}

static gboolean mc_options_read(import_ctx *c, const llm_model **m, double *tail_s,
                                GError **error) {
  const char *name = import_option(c, "model");
  *m = llm_model_find(name ? name : MC_DEFAULT_MODEL);
  if (!*m) {
    g_autofree char *names = llm_model_names();
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "--model: expected one of %s, found '%s'", names, name);
    return FALSE;
  }
  const char *t = import_option(c, "tail-s");
  if (t && (!import_parse_number(t, tail_s) || *tail_s < 0 || *tail_s > 1e6)) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "--tail-s: expected seconds from 0 to 1e6, found '%s'", t);
    return FALSE;
  }
  if (c->n_files != 1) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "expected one trace file (conversation_trace.jsonl), found %u", c->n_files);
    return FALSE;
  }
  return TRUE;
}

static void mc_emit_service(mc_reader *r, const llm_model *m, double tail_s) {
  import_ctx *c = r->c;
  double span_s = (double)(r->last_ms - r->first_ms) / 1000.0;
  job_spec j;
  job_init(&j, JOB_INFERENCE);
  j.id = r->id;
  j.tenant = "mooncake";
  j.label = "llm";
  j.submit_ns = 0;
  j.duration_ns = (sim_time)MAX(ceil(span_s + tail_s), 1.0) * SIM_NS_PER_S;
  j.mem_bytes = llm_model_weight_bytes(m, 2.0);
  j.max_batch = 256;
  j.sm = 1.0;
  j.rate_rps = span_s > 0 ? (double)r->rows / span_s : (double)r->rows;
  j.service_ms = 0;
  g_autofree char *p = g_strdup_printf("%" G_GUINT64_FORMAT, MAX(r->prompt_sum / r->rows, 1));
  g_autofree char *o = g_strdup_printf("%" G_GUINT64_FORMAT, MAX(r->output_sum / r->rows, 1));
  const char *names[] = {"model", "prompt_tokens", "output_tokens"};
  const char *cells[] = {m->name, p, o};
  import_trace_header(c, names, 3);
  import_emit_job(c, &j, cells, 3);
  import_note(c, "%s: %" G_GUINT64_FORMAT " requests over %.1f s (%.3f per s), mean %s prompt "
              "and %s output tokens, served by %s", r->id, r->rows, span_s, j.rate_rps, p, o,
              m->name);
  import_note(c, "%" G_GUINT64_FORMAT " prefix-cache block ids (hash_ids) read and not "
              "modelled: sharesim has no prefix cache", r->blocks);
}

static gboolean mc_run(import_ctx *c, GError **error) {
  const llm_model *m;
  double tail_s = MC_TAIL_S;
  if (!mc_options_read(c, &m, &tail_s, error)) return FALSE;
  mc_reader r = {.c = c, .id = "mooncake-conv", .first_ms = -1, .last_ms = -1};
  if (!mc_read(&r, c->files[0]) || !import_ok(c)) return TRUE;
  if (!r.rows) {
    diag_add(c->diags, c->files[0], 0, 0, "expected at least one request, found none");
    return TRUE;
  }
  mc_emit_service(&r, m, tail_s);
  if (import_wants(c, IMPORT_OUT_REQUESTS)) {
    import_append(c, IMPORT_OUT_REQUESTS, "job_id,at_s,service_ms,prompt_tokens,output_tokens\n");
    r.emit = TRUE;
    r.line = g_string_new(NULL);
    mc_read(&r, c->files[0]);
    g_string_free(r.line, TRUE);
  } else {
    import_note(c, "no --requests-out: the service gets Poisson arrivals at its mean rate");
  }
  return TRUE;
}

const import_format import_mooncake_format = {
    .name = "mooncake",
    .description = "Mooncake (Kimi) conversation trace, FAST '25: one LLM service with its "
                   "requests' tokens",
    .files = "conversation_trace.jsonl",
    .options = mc_options,
    .run = mc_run,
};
