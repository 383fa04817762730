/* import-azure-llm.c: the Azure LLM inference trace 2023 (Splitwise; one CSV per service,
 * TIMESTAMP, ContextTokens, GeneratedTokens) as one inference service per file and, with
 * --requests-out, its recorded arrivals (SPEC 3.3). A request's service_ms comes from its
 * tokens: prefill_ms_per_token x ContextTokens + decode_ms_per_token x GeneratedTokens.
 * Two passes per file (counts and time origin, then the requests), so memory does not grow
 * with the rows. It does not guess a GPU model or SLO beyond the documented options
 * (docs/traces.md, "azure-llm"). */
#include "import.h"
#include "llm-model.h"
#include <math.h>
#include <string.h>

/* Defaults (docs/traces.md, "azure-llm"): a 7B-parameter model in fp16 on one A100-80GB.
 * Prefill is compute-bound: 2 x 7e9 FLOP per token at ~45 % of 312 TFLOP/s is ~0.1 ms;
 * decode at batch 1 is bandwidth-bound: the 14 GB of weights read per token at ~1 TB/s
 * effective is ~15 ms. A request of 1000 context and 128 generated tokens then takes 2.0 s,
 * which matches the 1.98 s p99 of Llama-2-7B alone on an A100 [S63]. */
#define AZ_PREFILL_MS_PER_TOKEN 0.1
#define AZ_DECODE_MS_PER_TOKEN 15.0
#define AZ_MEM_GB 14.0          /* 7e9 parameters x 2 bytes */
#define AZ_KV_MB_PER_TOKEN 0.5  /* K and V x 32 layers x 4096 x 2 bytes (Llama-2-7B, fp16) */
#define AZ_MAX_BATCH 32
#define AZ_TAIL_S 60.0
#define AZ_TICKS_PER_S INT64_C(10000000) /* the trace's 7 fractional digits: 100 ns */

static const import_opt az_options[] = {
    {"requests-out", "FILE", "write every request's arrival and service_ms (docs/trace-format.md)", FALSE,
     IMPORT_OUT_REQUESTS},
    {"prefill-ms-per-token", "MS", "service time per context token (default 0.1)", FALSE, -1},
    {"decode-ms-per-token", "MS", "service time per generated token (default 15)", FALSE, -1},
    {"mem-gb", "GB", "model weights per service (default 14: 7B parameters in fp16)", FALSE, -1},
    {"kv-mb-per-token", "MB",
     "KV cache per token; kv_gb = mean tokens per request x MB / 1000 (default 0.5)", FALSE, -1},
    {"max-batch", "N", "requests served at once (default 32)", FALSE, -1},
    {"slo-ms", "MS", "latency target of one request (default: none)", FALSE, -1},
    {"slo-pct", "P", "share of requests that must meet it (default 99)", FALSE, -1},
    {"tail-s", "S", "session time after the last arrival (default 60)", FALSE, -1},
    {"model", "NAME", "serve each file with this LLM (docs/models.md section 11): LLM rows "
     "with prompt_tokens/output_tokens, and the requests' tokens", FALSE, -1},
    {NULL, NULL, NULL, FALSE, -1},
};

enum { AZ_TS, AZ_CTX, AZ_GEN, AZ_NCOLS };
static const char *const az_cols[AZ_NCOLS] = {"TIMESTAMP", "ContextTokens", "GeneratedTokens"};

typedef struct az_file {
  char *id;                  /* service id */
  char *tenant;
  guint64 rows, tokens, ctx_sum, gen_sum;
  int64_t first, last;       /* ticks of 100 ns since 0001-01-01, -1 none */
  double service_ms_sum;
} az_file;

typedef struct az_reader {
  import_ctx *c;
  double prefill_ms, decode_ms, mem_gb, kv_mb, slo_ms, slo_pct, tail_s;
  const llm_model *model;    /* --model: LLM services */
  gint64 max_batch;
  gboolean emit;             /* second pass: write requests */
  int64_t origin;            /* ticks of the earliest arrival over all files */
  az_file *f;
  int col[AZ_NCOLS];
  guint ncols;
  gboolean have_header, header_bad;
  int64_t prev;              /* previous row's ticks in this file */
  GString *line;
} az_reader;

/* "YYYY-MM-DD HH:MM:SS[.f...]" (up to 7 fractional digits) -> ticks of 100 ns. */
static gboolean az_parse_time(const char *s, int64_t *out) {
  while (*s == ' ') s++;
  int y, mo, d, h, mi, sec, n = 0;
  if (sscanf(s, "%4d-%2d-%2d %2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &sec, &n) != 6 || n != 19)
    return FALSE;
  for (int i = 0; i < 19; i++) /* digits where digits belong (sscanf takes signs and blanks) */
    if (i != 4 && i != 7 && i != 10 && i != 13 && i != 16 && !g_ascii_isdigit(s[i])) return FALSE;
  if (!g_date_valid_dmy((GDateDay)d, (GDateMonth)mo, (GDateYear)y) || h > 23 || mi > 59 || sec > 59)
    return FALSE;
  const char *p = s + 19;
  int64_t frac = 0;
  int digits = 0;
  if (*p == '.') {
    p++;
    while (g_ascii_isdigit(*p)) {
      if (digits == 7) return FALSE;
      frac = frac * 10 + (*p++ - '0');
      digits++;
    }
    if (!digits) return FALSE;
  }
  while (*p == ' ') p++;
  if (*p) return FALSE;
  for (; digits < 7; digits++) frac *= 10;
  GDate date;
  g_date_clear(&date, 1);
  g_date_set_dmy(&date, (GDateDay)d, (GDateMonth)mo, (GDateYear)y);
  int64_t days = (int64_t)g_date_get_julian(&date);
  *out = ((days * 86400 + h * 3600 + mi * 60 + sec) * AZ_TICKS_PER_S) + frac;
  return TRUE;
}

/* Unix seconds of ticks. The trace does not state its time zone: read as UTC (an
 * assumption; docs/traces.md, "azure-llm"). */
static double az_unix_seconds(int64_t ticks) {
  GDate epoch;
  g_date_clear(&epoch, 1);
  g_date_set_dmy(&epoch, 1, G_DATE_JANUARY, 1970);
  int64_t e = (int64_t)g_date_get_julian(&epoch) * 86400;
  return (double)(ticks / AZ_TICKS_PER_S - e) +
         (double)(ticks % AZ_TICKS_PER_S) / (double)AZ_TICKS_PER_S;
}

/* A whole number of tokens, 0 .. 10^9. */
static gboolean az_tokens(const char *text, gint64 *out) {
  double v;
  if (!import_parse_number(text, &v) || v != floor(v) || v < 0 || v > 1e9) return FALSE;
  *out = (gint64)v;
  return TRUE;
}

/* Shortest decimal text that reads back as v (whole numbers in full, not as 3e+02). */
static void az_real(GString *out, double v) {
  if (v == floor(v) && fabs(v) < 1e15) {
    g_string_append_printf(out, "%.0f", v == 0 ? 0.0 : v);
    return;
  }
  util_append_shortest(out, v, 1);
}

/* Milliseconds rounded to the simulator's nanosecond, as the double nearest that decimal:
 * a request's tokens x the per-token times print as 215.4, not 215.39999999999998. */
static double az_ns_ms(double ms) { return round(ms * 1e6) / 1e6 + 0.0; }

/* Seconds from ticks, exact: "12.3456789" without trailing zeros. */
static void az_seconds(GString *out, int64_t ticks) {
  g_string_append_printf(out, "%" G_GINT64_FORMAT, ticks / AZ_TICKS_PER_S);
  int64_t frac = ticks % AZ_TICKS_PER_S;
  if (!frac) return;
  char digits[8];
  g_snprintf(digits, sizeof digits, "%07" G_GINT64_FORMAT, frac);
  int n = 7;
  while (n > 0 && digits[n - 1] == '0') n--;
  g_string_append_printf(out, ".%.*s", n, digits);
}

/* A bad row, reported by the first pass only (the second skips the same rows quietly). */
static gboolean az_bad(az_reader *r, const csvread_row *row, int field, const char *expected) {
  if (r->emit) return TRUE;
  g_autofree char *esc = g_strescape(row->cells[r->col[field]], NULL);
  if (strlen(esc) > 60) strcpy(esc + 57, "...");
  return import_bad_row(r->c, row->path, row->line, (guint)r->col[field] + 1,
                        "%s: expected %s, found '%s'", az_cols[field], expected, esc);
}

static gboolean az_header(az_reader *r, const csvread_row *row) {
  r->have_header = TRUE;
  r->ncols = row->n;
  for (int f = 0; f < AZ_NCOLS; f++) {
    r->col[f] = import_column(row, az_cols[f]);
    if (r->col[f] < 0) {
      diag_add(r->c->diags, row->path, row->line, 0,
               "header: missing column '%s' (the Azure LLM inference trace has TIMESTAMP, "
               "ContextTokens, GeneratedTokens)",
               az_cols[f]);
      r->header_bad = TRUE;
    }
  }
  return !r->header_bad;
}

static void az_request(az_reader *r, const csvread_row *row) {
  const char *const *v = row->cells;
  int64_t t;
  gint64 ctx, gen;
  if (!az_parse_time(v[r->col[AZ_TS]], &t)) {
    az_bad(r, row, AZ_TS, "a time as YYYY-MM-DD HH:MM:SS.fffffff");
    return;
  }
  if (!az_tokens(v[r->col[AZ_CTX]], &ctx)) {
    az_bad(r, row, AZ_CTX, "a whole number of tokens >= 0");
    return;
  }
  if (!az_tokens(v[r->col[AZ_GEN]], &gen)) {
    az_bad(r, row, AZ_GEN, "a whole number of tokens >= 0");
    return;
  }
  if (ctx + gen == 0) {
    if (!r->emit)
      import_bad_row(r->c, row->path, row->line, 0,
                     "expected a request with tokens, found 0 and 0");
    return;
  }
  if (r->prev >= 0 && t < r->prev) {
    az_bad(r, row, AZ_TS, "a time at or after the previous row's (the file in time order)");
    return;
  }
  r->prev = t;
  double ms = az_ns_ms(r->prefill_ms * (double)ctx + r->decode_ms * (double)gen);
  az_file *f = r->f;
  if (!r->emit) {
    f->rows++;
    f->tokens += (guint64)(ctx + gen);
    f->ctx_sum += (guint64)ctx;
    f->gen_sum += (guint64)gen;
    f->service_ms_sum += ms;
    if (f->first < 0) f->first = t;
    f->last = t;
    return;
  }
  GString *l = r->line;
  g_string_truncate(l, 0);
  util_csv_field(l, f->id);
  g_string_append_c(l, ',');
  az_seconds(l, t - r->origin);
  g_string_append_c(l, ',');
  if (r->model) /* an LLM's service time is modelled from its tokens (0 tokens: 1) */
    g_string_append_printf(l, ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT, MAX(ctx, 1), MAX(gen, 1));
  else
    az_real(l, ms);
  g_string_append_c(l, '\n');
  import_append(r->c, IMPORT_OUT_REQUESTS, l->str);
  r->c->lines_written[IMPORT_OUT_REQUESTS]++;
}

static gboolean az_row(const csvread_row *row, void *ud) {
  az_reader *r = ud;
  if (row->error) {
    if (!r->have_header) {
      diag_add(r->c->diags, row->path, row->line, 0, "header: %s", row->error);
      return FALSE;
    }
    if (!r->emit) {
      r->c->rows_read++;
      import_bad_row(r->c, row->path, row->line, 0, "%s", row->error);
    }
    return TRUE;
  }
  if (row->header) return az_header(r, row);
  if (r->header_bad) return FALSE;
  if (!r->emit) r->c->rows_read++;
  if (row->n != r->ncols) {
    if (!r->emit)
      import_bad_row(r->c, row->path, row->line, 0, "expected %u fields as in the header, found %u",
                     r->ncols, row->n);
    return TRUE;
  }
  az_request(r, row);
  return TRUE;
}

static gboolean az_option(const import_ctx *c, const char *opt, double lo, gboolean lo_open,
                          double hi, double *out, GError **error) {
  const char *text = import_option(c, opt);
  if (!text) return TRUE;
  double v;
  if (!import_parse_number(text, &v) || (lo_open ? !(v > lo) : !(v >= lo)) || v > hi) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "--%s: expected a number %s %g and at most %g, found '%s'", opt,
                lo_open ? "above" : "from", lo, hi, text);
    return FALSE;
  }
  *out = v;
  return TRUE;
}

/* Service id from the file name: "AzureLLMInferenceTrace_conv.csv" -> "azure-conv". */
static char *az_service_id(const char *path) {
  g_autofree char *stem = import_file_stem(path);
  const char *s = stem;
  if (g_str_has_prefix(s, "AzureLLMInferenceTrace_")) s += strlen("AzureLLMInferenceTrace_");
  GString *id = g_string_new("azure-");
  for (; *s && id->len < 64; s++)
    g_string_append_c(id, g_ascii_isalnum(*s) || *s == '-' || *s == '_' || *s == '.' ? *s : '_');
  if (id->len == strlen("azure-")) g_string_append(id, "llm");
  return g_string_free(id, FALSE);
}

/* --model: the service as an LLM row (model, mean prompt and output tokens; weights from
 * the model, no KV or service-time guesses: the engine models them), with its submit_utc
 * cell (utc, NULL without a calendar). */
static void az_llm_row(import_ctx *c, const az_reader *r, const az_file *f, job_spec *j,
                       gboolean first, const char *utc) {
  static const char *const names[] = {"model", "prompt_tokens", "output_tokens",
                                      IMPORT_SUBMIT_UTC};
  j->mem_bytes = llm_model_weight_bytes(r->model, 2.0);
  j->kv_bytes = 0;
  j->service_ms = 0;
  j->sm = 1.0;
  if (!import_option(c, "max-batch")) j->max_batch = 256; /* vLLM's max_num_seqs */
  g_autofree char *p = g_strdup_printf("%" G_GUINT64_FORMAT, MAX(f->ctx_sum / f->rows, 1));
  g_autofree char *o = g_strdup_printf("%" G_GUINT64_FORMAT, MAX(f->gen_sum / f->rows, 1));
  const char *cells[] = {r->model->name, p, o, utc};
  if (first) import_trace_header(c, names, utc ? 4 : 3);
  import_emit_job(c, j, cells, utc ? 4 : 3);
  import_note(c, "%s: %" G_GUINT64_FORMAT " requests, mean %s prompt and %s output tokens, "
              "served by %s", f->id, f->rows, p, o, r->model->name);
}

/* Pass 1's result: one service row per file with requests (an LLM row with --model), its
 * submit_utc from the earliest arrival of all files (origin, ticks), and a summary note. */
static void az_services(import_ctx *c, const az_reader *r, const az_file *files,
                        int64_t origin) {
  /* trace second 0 is the earliest arrival: the trace keeps its calendar (submit_utc) */
  double start_unix = origin == INT64_MAX ? NAN : az_unix_seconds(origin);
  for (guint i = 0; i < c->n_files; i++) {
    const az_file *f = &files[i];
    if (!f->rows) {
      import_note(c, "%s: no requests, no service", c->files[i]);
      continue;
    }
    double first_s = (double)(f->first - origin) / AZ_TICKS_PER_S;
    double span_s = (double)(f->last - f->first) / AZ_TICKS_PER_S;
    if (!(first_s + span_s + r->tail_s < (double)TRACE_MAX_TIME_NS / 1e9 - 1)) {
      /* found by tests/fuzz/fuzz-import-azure: years apart overflowed the nanoseconds */
      diag_add(c->diags, c->files[i], 0, 0, "the requests span %.4g s from the first of all "
               "files, more than a trace can hold (1e9 s, about 31.7 years)", first_s + span_s);
      continue;
    }
    job_spec j;
    job_init(&j, JOB_INFERENCE);
    j.id = f->id;
    j.tenant = f->tenant;
    j.label = "llm";
    /* the service is up from its first arrival (whole seconds) to the last plus the tail */
    j.submit_ns = (sim_time)floor(first_s) * SIM_NS_PER_S;
    double dur_s = ceil(first_s - floor(first_s) + span_s + r->tail_s);
    j.duration_ns = (sim_time)MAX(dur_s, 1.0) * SIM_NS_PER_S;
    j.mem_bytes = (int64_t)llround(r->mem_gb * 1e3) * 1000000;
    double mean_tokens = (double)f->tokens / (double)f->rows;
    j.kv_bytes = (int64_t)llround(mean_tokens * r->kv_mb * 1e6);
    j.max_batch = (guint32)r->max_batch;
    j.service_ms = az_ns_ms(f->service_ms_sum / (double)f->rows);
    j.rate_rps = span_s > 0 ? (double)f->rows / span_s : (double)f->rows;
    if (j.rate_rps > TRACE_MAX_RATE_RPS) j.rate_rps = TRACE_MAX_RATE_RPS;
    j.slo_ms = r->slo_ms;
    j.slo_pct = r->slo_pct;
    g_autofree char *utc = import_submit_utc(start_unix, j.submit_ns);
    if (r->model) {
      az_llm_row(c, r, f, &j, !c->trace_header_extra, utc);
      continue;
    }
    static const char *const utc_name[] = {IMPORT_SUBMIT_UTC};
    const char *utc_cell[] = {utc};
    if (utc && !c->trace_header_extra) import_trace_header(c, utc_name, 1);
    import_emit_job(c, &j, utc ? utc_cell : NULL, utc ? 1 : 0);
    g_autoptr(GString) note = g_string_new(NULL);
    g_string_append_printf(note, "%s: %" G_GUINT64_FORMAT " requests over ", f->id, f->rows);
    az_real(note, round(span_s * 10) / 10);
    g_string_append(note, " s (");
    az_real(note, round(j.rate_rps * 1000) / 1000);
    g_string_append(note, " per s), mean service ");
    az_real(note, round(j.service_ms * 10) / 10);
    g_string_append(note, " ms, offered load ");
    az_real(note, round(j.rate_rps * j.service_ms / 1000 * 100) / 100);
    g_string_append(note, " requests in service on average");
    import_note(c, "%s", note->str);
  }
}

static gboolean az_run(import_ctx *c, GError **error) {
  az_reader r = {.c = c, .prefill_ms = AZ_PREFILL_MS_PER_TOKEN, .decode_ms = AZ_DECODE_MS_PER_TOKEN,
                 .mem_gb = AZ_MEM_GB, .kv_mb = AZ_KV_MB_PER_TOKEN, .slo_pct = 99,
                 .tail_s = AZ_TAIL_S};
  double max_batch = AZ_MAX_BATCH;
  if (!az_option(c, "prefill-ms-per-token", 0, FALSE, 1e6, &r.prefill_ms, error) ||
      !az_option(c, "decode-ms-per-token", 0, FALSE, 1e6, &r.decode_ms, error) ||
      !az_option(c, "mem-gb", 0, TRUE, 10000, &r.mem_gb, error) ||
      !az_option(c, "kv-mb-per-token", 0, FALSE, 1e6, &r.kv_mb, error) ||
      !az_option(c, "max-batch", 1, FALSE, TRACE_MAX_BATCH, &max_batch, error) ||
      !az_option(c, "slo-ms", 0, TRUE, TRACE_MAX_MS, &r.slo_ms, error) ||
      !az_option(c, "slo-pct", 0, TRUE, 100, &r.slo_pct, error) ||
      !az_option(c, "tail-s", 0, FALSE, 1e6, &r.tail_s, error))
    return FALSE;
  if (max_batch != floor(max_batch)) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "--max-batch: expected a whole number from 1 to %u, found '%s'", TRACE_MAX_BATCH,
                import_option(c, "max-batch"));
    return FALSE;
  }
  if (r.prefill_ms == 0 && r.decode_ms == 0) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "--prefill-ms-per-token and --decode-ms-per-token are both 0: requests would "
                "take no time");
    return FALSE;
  }
  r.max_batch = (gint64)max_batch;
  const char *mname = import_option(c, "model");
  if (mname && !(r.model = llm_model_find(mname))) {
    g_autofree char *names = llm_model_names();
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "--model: expected one of %s, found '%s'", names, mname);
    return FALSE;
  }
  az_file *files = g_new0(az_file, c->n_files);
  gboolean ok = TRUE;
  for (guint i = 0; i < c->n_files && ok; i++) {
    files[i].id = az_service_id(c->files[i]);
    files[i].tenant = g_strdup(files[i].id + strlen("azure-"));
    files[i].first = files[i].last = -1;
    for (guint k = 0; k < i; k++)
      if (!strcmp(files[k].id, files[i].id)) {
        g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                    "%s and %s would both be service '%s': give each service's file once",
                    c->files[k], c->files[i], files[i].id);
        ok = FALSE;
      }
  }
  /* pass 1: counts, tokens, first and last arrivals */
  int64_t origin = INT64_MAX;
  for (guint i = 0; i < c->n_files && ok; i++) {
    r.f = &files[i];
    r.have_header = r.header_bad = FALSE;
    r.prev = -1;
    if (csvread_foreach(c->files[i], 0, az_row, &r, c->diags) && !r.have_header)
      diag_add(c->diags, c->files[i], 1, 0,
               "header: expected TIMESTAMP,ContextTokens,GeneratedTokens, found an empty file");
    if (files[i].first >= 0 && files[i].first < origin) origin = files[i].first;
  }
  r.origin = origin;
  if (ok && import_ok(c)) az_services(c, &r, files, origin);
  /* pass 2: the requests, in each file's order */
  if (ok && import_ok(c) && import_wants(c, IMPORT_OUT_REQUESTS)) {
    import_append(c, IMPORT_OUT_REQUESTS, r.model ? "job_id,at_s,service_ms,prompt_tokens,"
                                                    "output_tokens\n"
                                                  : "job_id,at_s,service_ms\n");
    r.emit = TRUE;
    r.line = g_string_new(NULL);
    for (guint i = 0; i < c->n_files && import_ok(c); i++) {
      if (!files[i].rows) continue;
      r.f = &files[i];
      r.have_header = r.header_bad = FALSE;
      r.prev = -1;
      csvread_foreach(c->files[i], 0, az_row, &r, c->diags);
    }
    g_string_free(r.line, TRUE);
  } else if (ok && import_ok(c)) {
    import_note(c, "no --requests-out: the services get Poisson arrivals at their mean rate");
  }
  for (guint i = 0; i < c->n_files; i++) {
    g_free(files[i].id);
    g_free(files[i].tenant);
  }
  g_free(files);
  return ok;
}

const import_format import_azure_llm_format = {
    .name = "azure-llm",
    .description = "Azure LLM inference trace 2023 (Splitwise): one service per file, with its "
                   "requests",
    .files = "AzureLLMInferenceTrace_code.csv AzureLLMInferenceTrace_conv.csv...",
    .options = az_options,
    .run = az_run,
};
