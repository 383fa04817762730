/* import-dcgm.c: a Prometheus export of the DCGM exporter's GPU metrics as a job trace:
 * one job per pod (namespace/pod), start and end from its first and last samples, memory
 * from its peak DCGM_FI_DEV_FB_USED, activity from DCGM_FI_DEV_GPU_UTIL (or
 * PROF_GR_ENGINE_ACTIVE: a trainer's gpu_util) and PROF_SM_ACTIVE, a phase wherever its memory or activity
 * changes for good, and its kind from namespace/name rules. Reads the range-query JSON of
 * Prometheus's HTTP API and a CSV with one sample per row (the form `sharesim run --dcgm`
 * writes). Samples are folded into per-pod time windows as they are read, so memory grows
 * with pods x windows, not with samples (a JSON document is parsed whole by json-glib).
 * With --scenario-out, the nodes seen (Hostname) with their GPUs (gpu/UUID, idle ones
 * included) and modelName, mapped to catalogue models, become a scenario's pools.
 * Mapping and defaults: docs/traces.md. */
#include "import.h"
#include "safeopen.h"
#include "jsonlimit.h"
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#define DCGM_WINDOW_S 300.0       /* samples are averaged per pod over windows this long */
#define DCGM_SERVICE_MS 100.0     /* inference pods: time per request (an assumption) */
#define DCGM_MEM_CHANGE_GB 1.0    /* a phase needs memory to move by this much ... */
#define DCGM_MEM_CHANGE_REL 0.2   /* ... and by this share of the level */
#define DCGM_ACT_CHANGE 0.2       /* or busy / SM activity to move by this much */
#define DCGM_MIB 1048576.0

static const import_opt dcgm_options[] = {
    {"phases-out", "FILE", "write phases (docs/trace-format.md) for lasting changes of memory or activity",
     FALSE, IMPORT_OUT_PHASES},
    {"kind-rule", "KIND=ns:GLOB|KIND=pod:GLOB",
     "job kind for pods whose namespace or name matches (checked in order, before the "
     "defaults)",
     TRUE, -1},
    {"default-kind", "KIND", "kind of a pod no rule matches (default batch)", FALSE, -1},
    {"window", "DURATION", "averaging window for activity and phases (default 5m)", FALSE, -1},
    {"service-ms", "MS", "inference pods: time per request (default 100)", FALSE, -1},
    {"scenario-out", "FILE",
     "write the nodes seen as a scenario: a pool per GPU model (modelName mapped to the "
     "catalogue) and GPUs per node",
     FALSE, IMPORT_OUT_SCENARIO},
    {"gpu-model", "MODEL", "--scenario-out: this catalogue model for every node, whatever "
     "modelName says", FALSE, -1},
    {"strategy", "NAME", "--scenario-out: sharing strategy of the pools (default exclusive)",
     FALSE, -1},
    {NULL, NULL, NULL, FALSE, -1},
};

typedef enum { M_UTIL = 0, M_ENGINE, M_SM, M_FB, M_COUNT } dcgm_metric;
static const char *const dcgm_metric_names[M_COUNT] = {
    "DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_PROF_GR_ENGINE_ACTIVE", "DCGM_FI_PROF_SM_ACTIVE",
    "DCGM_FI_DEV_FB_USED"};

/* Default kind rules, after the user's (docs/traces.md). */
static const char *const dcgm_default_rules[] = {
    "notebook=ns:jupyter*",   "notebook=ns:*notebook*", "notebook=pod:jupyter-*",
    "notebook=pod:*notebook*", "inference=ns:*serving*", "inference=ns:*inference*",
    "inference=pod:*predictor*", "inference=pod:*vllm*", "inference=pod:*triton*",
    "inference=pod:*-serve-*", "training=ns:*train*",    "training=pod:*train*",
    "training=pod:*-worker-*",  "training=pod:*-master-*", NULL};

typedef struct dcgm_rule {
  job_kind kind;
  gboolean on_ns;           /* else on the pod name */
  GPatternSpec *glob;
} dcgm_rule;

typedef struct dcgm_win {  /* one pod, one window */
  double util_sum, eng_sum, sm_sum, fb_max_mib;
  guint32 util_n, eng_n, sm_n, fb_n;
} dcgm_win;

typedef struct dcgm_pod {
  const char *ns, *name;     /* in strings */
  double t_first, t_last, min_gap;
  double last_t[M_COUNT];    /* per metric, for the sampling step */
  GPtrArray *gpus;           /* distinct GPU ids (in strings) */
  const char *profile;       /* GPU_I_PROFILE (MIG), or NULL */
  int64_t win_base;          /* absolute index of wins[0] */
  guint64 target_samples;    /* samples whose series named it by `pod` alone (no
                              * exported_pod): dcgm_drop_target_pods */
  GArray *wins;              /* dcgm_win */
} dcgm_pod;

/* A node seen, for --scenario-out. */
typedef struct dcgm_host {
  const char *name;          /* Hostname (or instance); in strings */
  const char *model;         /* modelName of its first series that has one, or NULL */
  const char *file;          /* where it was first seen (series or row) */
  guint line;
  GHashTable *gpus;          /* distinct GPU ids (in strings), idle ones included */
} dcgm_host;

typedef struct dcgm_reader {
  import_ctx *c;
  GHashTable *hosts;         /* name -> dcgm_host*, with --scenario-out only */
  GStringChunk *strings;
  GHashTable *pods;          /* "ns\x1fpod" -> dcgm_pod* */
  GArray *rules;             /* dcgm_rule */
  job_kind default_kind;
  double window_s, service_ms;
  guint64 samples, no_pod, other_metric;
  guint64 windows;           /* of all pods together (DCGM_MAX_TOTAL_WINDOWS) */
  guint64 exporter_pod;      /* samples whose pod label names the DCGM exporter itself */
  char *exporter_name;       /* the first such name, for the warning */
  guint64 exported;          /* samples whose series has exported_pod */
  gboolean from_target;      /* the sample being read names its pod by `pod` alone */
  /* CSV columns */
  int col_t, col_metric, col_value, col_pod, col_ns, col_gpu, col_uuid, col_host, col_profile;
  int col_model;             /* modelName */
  int col_xpod, col_xns;     /* exported_pod, exported_namespace */
  guint ncols;
  gboolean have_header, header_bad;
} dcgm_reader;

/* ---- samples into windows ---- */

static dcgm_pod *dcgm_pod_get(dcgm_reader *r, const char *ns, const char *name) {
  g_autofree char *key = g_strdup_printf("%s\x1f%s", ns, name);
  dcgm_pod *p = g_hash_table_lookup(r->pods, key);
  if (p) return p;
  p = g_new0(dcgm_pod, 1);
  p->ns = g_string_chunk_insert_const(r->strings, ns);
  p->name = g_string_chunk_insert_const(r->strings, name);
  p->t_first = INFINITY;
  p->t_last = -INFINITY;
  p->min_gap = INFINITY;
  for (int m = 0; m < M_COUNT; m++) p->last_t[m] = NAN;
  p->gpus = g_ptr_array_new();
  p->wins = g_array_new(FALSE, TRUE, sizeof(dcgm_win));
  g_hash_table_insert(r->pods, g_string_chunk_insert_const(r->strings, key), p);
  return p;
}

static void dcgm_pod_free(gpointer data) {
  dcgm_pod *p = data;
  g_ptr_array_unref(p->gpus);
  g_array_unref(p->wins);
  g_free(p);
}

static dcgm_win *dcgm_window(dcgm_pod *p, int64_t idx) {
  if (p->wins->len == 0) {
    p->win_base = idx;
    g_array_set_size(p->wins, 1);
  } else if (idx < p->win_base) {
    guint add = (guint)(p->win_base - idx);
    dcgm_win *zeros = g_new0(dcgm_win, add);
    g_array_prepend_vals(p->wins, zeros, add);
    g_free(zeros);
    p->win_base = idx;
  } else if (idx - p->win_base >= (int64_t)p->wins->len) {
    g_array_set_size(p->wins, (guint)(idx - p->win_base + 1));
  }
  return &g_array_index(p->wins, dcgm_win, (guint)(idx - p->win_base));
}

/* Largest span of one pod, in windows: keeps a stray timestamp from allocating gigabytes. */
#define DCGM_MAX_WINDOWS 5000000
/* Most windows of all pods together (48 bytes each: 240 MB, at most as much again while an
 * array grows): the per-pod cap alone let a 2.8 KB export of 8 pods, each with two samples
 * 95 years apart, ask for 4 GB (issue 29, S3-01). A month of 300-s windows is 8,640, so
 * this holds a month of 578 pods. */
#define DCGM_MAX_TOTAL_WINDOWS 5000000

static void dcgm_add(dcgm_reader *r, const char *file, guint line, dcgm_metric m, const char *ns,
                     const char *pod, const char *gpu_id, const char *profile, double t,
                     double v) {
  dcgm_pod *p = dcgm_pod_get(r, ns, pod);
  int64_t idx = (int64_t)floor(t / r->window_s);
  double lo = p->wins->len ? (double)MIN(idx, p->win_base) : (double)idx;
  double hi = p->wins->len ? (double)MAX(idx, p->win_base + (int64_t)p->wins->len - 1) : (double)idx;
  if (hi - lo >= DCGM_MAX_WINDOWS) {
    import_bad_row(r->c, file, line, 0,
                   "timestamp %.3f puts pod %s/%s over %d windows of %g s; expected one export "
                   "of a bounded time range",
                   t, ns, pod, DCGM_MAX_WINDOWS, r->window_s);
    return;
  }
  guint64 grow = (guint64)(hi - lo + 1) - p->wins->len;
  if (r->windows + grow > DCGM_MAX_TOTAL_WINDOWS) {
    import_bad_row(r->c, file, line, 0,
                   "timestamp %.3f puts the pods over %d windows of %g s in all (%u pods so "
                   "far); expected one export of a bounded time range",
                   t, DCGM_MAX_TOTAL_WINDOWS, r->window_s, g_hash_table_size(r->pods));
    return;
  }
  r->windows += grow;
  r->samples++;
  if (r->from_target) p->target_samples++;
  if (t < p->t_first) p->t_first = t;
  if (t > p->t_last) p->t_last = t;
  if (!isnan(p->last_t[m]) && t != p->last_t[m]) {
    double gap = fabs(t - p->last_t[m]);
    if (gap < p->min_gap) p->min_gap = gap;
  }
  p->last_t[m] = t;
  gboolean seen = FALSE;
  for (guint i = 0; i < p->gpus->len && !seen; i++) seen = !strcmp(g_ptr_array_index(p->gpus, i), gpu_id);
  if (!seen && p->gpus->len < TRACE_MAX_GPUS)
    g_ptr_array_add(p->gpus, g_string_chunk_insert_const(r->strings, gpu_id));
  if (profile && *profile && !p->profile) p->profile = g_string_chunk_insert_const(r->strings, profile);
  dcgm_win *w = dcgm_window(p, idx);
  switch (m) {
  case M_UTIL: w->util_sum += v; w->util_n++; break;
  case M_ENGINE: w->eng_sum += v; w->eng_n++; break;
  case M_SM: w->sm_sum += v; w->sm_n++; break;
  case M_FB: if (v > w->fb_max_mib) w->fb_max_mib = v; w->fb_n++; break;
  default: break;
  }
}

static int dcgm_metric_id(const char *name) {
  for (int m = 0; m < M_COUNT; m++)
    if (!strcmp(name, dcgm_metric_names[m])) return m;
  return -1;
}

/* Range of a metric's value: GPU_UTIL in %, PROF_* ratios, FB_USED in MiB. */
static gboolean dcgm_value_ok(dcgm_metric m, double v) {
  switch (m) {
  case M_UTIL: return v >= 0 && v <= 100;
  case M_ENGINE:
  case M_SM: return v >= 0 && v <= 1;
  case M_FB: return v >= 0 && v <= (double)TRACE_MAX_BYTES / DCGM_MIB;
  default: return FALSE;
  }
}

static const char *dcgm_value_expected(dcgm_metric m) {
  switch (m) {
  case M_UTIL: return "a percentage from 0 to 100";
  case M_ENGINE:
  case M_SM: return "a ratio from 0 to 1";
  default: return "MiB >= 0";
  }
}

/* Unix seconds (a number) or an ISO 8601 time with a zone ("2024-05-01T10:00:00Z"). */
static gboolean dcgm_time(const char *text, double *out) {
  double v;
  if (import_parse_number(text, &v)) {
    if (v < 0 || v > 1e11) return FALSE;
    *out = v;
    return TRUE;
  }
  g_autoptr(GDateTime) dt = g_date_time_new_from_iso8601(text, NULL);
  if (!dt) return FALSE;
  *out = (double)g_date_time_to_unix(dt) + g_date_time_get_microsecond(dt) / 1e6;
  return *out >= 0;
}

/* One sample with its labels; FALSE when the row was bad (reported). */
static void dcgm_sample(dcgm_reader *r, const char *file, guint line, guint col_value,
                        guint col_t, const char *metric, const char *ns, const char *pod,
                        const char *gpu_id, const char *profile, const char *t_text,
                        const char *v_text) {
  int m = dcgm_metric_id(metric);
  if (m < 0) {
    r->other_metric++;
    return;
  }
  if (!pod || !*pod) {
    r->no_pod++;
    return;
  }
  if (!g_utf8_validate(pod, -1, NULL) || (ns && !g_utf8_validate(ns, -1, NULL))) {
    import_bad_row(r->c, file, line, 0, "pod: expected UTF-8 text");
    return;
  }
  double t, v;
  if (!dcgm_time(t_text, &t)) {
    g_autofree char *esc = g_strescape(t_text, NULL);
    import_bad_row(r->c, file, line, col_t,
                   "timestamp: expected Unix seconds or an ISO 8601 time, found '%.60s'", esc);
    return;
  }
  if (!import_parse_number(v_text, &v) || !dcgm_value_ok((dcgm_metric)m, v)) {
    g_autofree char *esc = g_strescape(v_text, NULL);
    import_bad_row(r->c, file, line, col_value, "value of %s: expected %s, found '%.60s'", metric,
                   dcgm_value_expected((dcgm_metric)m), esc);
    return;
  }
  dcgm_add(r, file, line, (dcgm_metric)m, ns ? ns : "", pod, gpu_id ? gpu_id : "", profile, t, v);
}

/* The workload's pod and namespace. Behind kube-prometheus (a ServiceMonitor with
 * honorLabels: false) Prometheus keeps the exporter's own labels as `exported_pod` /
 * `exported_namespace` and sets `pod` / `namespace` to the exporter's pod: the exported
 * labels win when present. A series without them is then an idle GPU's (dcgm-exporter
 * attaches no pod to a GPU no container holds), its `pod` the exporter's: each pod counts
 * the samples that came that way (dcgm_emit drops those pods when the export has
 * exported_pod at all). A
 * pod named like the exporter is counted for a warning. */
static void dcgm_pick_pod(dcgm_reader *r, const char *xpod, const char *pod, const char *xns,
                          const char *ns, const char **pod_out, const char **ns_out) {
  r->from_target = !(xpod && *xpod);
  if (!r->from_target) {
    *pod_out = xpod;
    *ns_out = xns && *xns ? xns : ns;
    r->exported++;
    return;
  }
  *pod_out = pod;
  *ns_out = ns;
  if (pod && strstr(pod, "dcgm-exporter")) {
    r->exporter_pod++;
    if (!r->exporter_name) r->exporter_name = g_strndup(pod, 80);
  }
}

/* ---- the nodes seen (--scenario-out) ---- */

static void dcgm_host_free(gpointer data) {
  dcgm_host *h = data;
  g_hash_table_unref(h->gpus);
  g_free(h);
}

/* Records GPU gpu_id of node host (any series: an idle GPU's too), with its modelName. */
static void dcgm_host_seen(dcgm_reader *r, const char *file, guint line, const char *host,
                           const char *gpu_id, const char *model) {
  if (!r->hosts) return;
  if (!host || !*host || !g_utf8_validate(host, -1, NULL)) host = "(no Hostname)";
  dcgm_host *h = g_hash_table_lookup(r->hosts, host);
  if (!h) {
    h = g_new0(dcgm_host, 1);
    h->name = g_string_chunk_insert_const(r->strings, host);
    h->file = file;
    h->line = line;
    h->gpus = g_hash_table_new(g_str_hash, g_str_equal);
    g_hash_table_insert(r->hosts, (gpointer)h->name, h);
  }
  if (!h->model && model && *model && g_utf8_validate(model, -1, NULL))
    h->model = g_string_chunk_insert_const(r->strings, model);
  if (gpu_id && g_hash_table_size(h->gpus) < TRACE_MAX_GPUS)
    g_hash_table_add(h->gpus, g_string_chunk_insert_const(r->strings, gpu_id));
}

/* ---- CSV: one sample per row ---- */

static int dcgm_col_any(const csvread_row *h, const char *a, const char *b, const char *c2) {
  int k = import_column(h, a);
  if (k < 0 && b) k = import_column(h, b);
  if (k < 0 && c2) k = import_column(h, c2);
  return k;
}

static const char *dcgm_cell(const csvread_row *row, int k) { return k >= 0 ? row->cells[k] : ""; }

static gboolean dcgm_csv_row(const csvread_row *row, void *ud) {
  dcgm_reader *r = ud;
  if (row->error) return import_unreadable_row(r->c, row, &r->have_header, &r->header_bad, TRUE);
  if (row->header) {
    r->have_header = TRUE;
    r->ncols = row->n;
    r->col_t = dcgm_col_any(row, "timestamp", "time", "t");
    r->col_metric = dcgm_col_any(row, "metric", "__name__", "name");
    r->col_value = dcgm_col_any(row, "value", NULL, NULL);
    r->col_pod = dcgm_col_any(row, "pod", NULL, NULL);
    r->col_ns = dcgm_col_any(row, "namespace", NULL, NULL);
    r->col_xpod = dcgm_col_any(row, "exported_pod", NULL, NULL);
    r->col_xns = dcgm_col_any(row, "exported_namespace", NULL, NULL);
    r->col_gpu = dcgm_col_any(row, "gpu", NULL, NULL);
    r->col_uuid = dcgm_col_any(row, "UUID", "uuid", NULL);
    r->col_host = dcgm_col_any(row, "Hostname", "hostname", "instance");
    r->col_profile = dcgm_col_any(row, "GPU_I_PROFILE", NULL, NULL);
    r->col_model = dcgm_col_any(row, "modelName", NULL, NULL);
    if (r->col_t < 0 || r->col_metric < 0 || r->col_value < 0 ||
        (r->col_pod < 0 && r->col_xpod < 0)) {
      diag_add(r->c->diags, row->path, row->line, 0,
               "header: expected the columns timestamp, metric, value and pod (and namespace, "
               "gpu, UUID, Hostname, GPU_I_PROFILE), one sample per row");
      r->header_bad = TRUE;
      return FALSE;
    }
    return TRUE;
  }
  if (r->header_bad) return FALSE;
  r->c->rows_read++;
  if (row->n != r->ncols) {
    import_bad_row(r->c, row->path, row->line, 0, "expected %u fields as in the header, found %u",
                   r->ncols, row->n);
    return TRUE;
  }
  const char *uuid = dcgm_cell(row, r->col_uuid);
  g_autofree char *gpu_id =
      *uuid ? g_strdup(uuid)
            : g_strdup_printf("%s/%s", dcgm_cell(row, r->col_host), dcgm_cell(row, r->col_gpu));
  dcgm_host_seen(r, row->path, row->line, dcgm_cell(row, r->col_host), gpu_id,
                 dcgm_cell(row, r->col_model));
  const char *pod, *ns;
  dcgm_pick_pod(r, dcgm_cell(row, r->col_xpod), dcgm_cell(row, r->col_pod),
                dcgm_cell(row, r->col_xns), dcgm_cell(row, r->col_ns), &pod, &ns);
  dcgm_sample(r, row->path, row->line, (guint)r->col_value + 1, (guint)r->col_t + 1,
              row->cells[r->col_metric], ns, pod, gpu_id, dcgm_cell(row, r->col_profile),
              row->cells[r->col_t], row->cells[r->col_value]);
  return TRUE;
}

/* ---- JSON: Prometheus /api/v1/query_range (or /query) response ---- */

static const char *dcgm_json_label(JsonObject *labels, const char *a, const char *b) {
  if (labels && json_object_has_member(labels, a)) {
    JsonNode *n = json_object_get_member(labels, a);
    if (JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_STRING)
      return json_node_get_string(n);
  }
  return b ? dcgm_json_label(labels, b, NULL) : NULL;
}

/* A [time, "value"] pair as text. */
static gboolean dcgm_json_point(JsonNode *pt, char *t_buf, gsize t_len, const char **v_text) {
  if (!JSON_NODE_HOLDS_ARRAY(pt)) return FALSE;
  JsonArray *a = json_node_get_array(pt);
  if (json_array_get_length(a) != 2) return FALSE;
  JsonNode *tn = json_array_get_element(a, 0), *vn = json_array_get_element(a, 1);
  if (!JSON_NODE_HOLDS_VALUE(tn) || !JSON_NODE_HOLDS_VALUE(vn)) return FALSE;
  GType tt = json_node_get_value_type(tn);
  if (tt == G_TYPE_DOUBLE) g_ascii_formatd(t_buf, t_len, "%.6f", json_node_get_double(tn));
  else if (tt == G_TYPE_INT64) g_snprintf(t_buf, t_len, "%" G_GINT64_FORMAT, json_node_get_int(tn));
  else if (tt == G_TYPE_STRING) g_strlcpy(t_buf, json_node_get_string(tn), t_len);
  else return FALSE;
  if (json_node_get_value_type(vn) != G_TYPE_STRING) return FALSE;
  *v_text = json_node_get_string(vn);
  return TRUE;
}

static void dcgm_json_file(dcgm_reader *r, const char *path) {
  import_ctx *c = r->c;
  g_autoptr(JsonParser) parser = json_parser_new_immutable();
  g_autoptr(GError) err = NULL;
  guint line = 0, col = 0;
  if (!jsonlimit_load_file(parser, path, &line, &col, &err)) {
    if (err->domain == SHARESIM_ERROR)
      diag_add(c->diags, path, line, col, "%s", JSONLIMIT_TOO_DEEP);
    else if (err->domain == JSON_PARSER_ERROR)
      diag_add(c->diags, path, 0, 0, "expected Prometheus query JSON: %s", err->message);
    else
      diag_add(c->diags, path, 0, 0, "cannot read: %s", err->message);
    return;
  }
  JsonNode *root = json_parser_get_root(parser);
  JsonObject *o = root && JSON_NODE_HOLDS_OBJECT(root) ? json_node_get_object(root) : NULL;
  JsonObject *data = o && json_object_has_member(o, "data") &&
                             JSON_NODE_HOLDS_OBJECT(json_object_get_member(o, "data"))
                         ? json_object_get_object_member(o, "data")
                         : NULL;
  JsonNode *res = data && json_object_has_member(data, "result")
                      ? json_object_get_member(data, "result")
                      : NULL;
  if (o && json_object_has_member(o, "status") &&
      JSON_NODE_HOLDS_VALUE(json_object_get_member(o, "status")) &&
      g_strcmp0(json_object_get_string_member(o, "status"), "success") != 0) {
    diag_add(c->diags, path, 0, 0, "the Prometheus query did not succeed (status '%s')",
             json_object_get_string_member(o, "status"));
    return;
  }
  if (!res || !JSON_NODE_HOLDS_ARRAY(res)) {
    diag_add(c->diags, path, 0, 0,
             "expected a Prometheus query response {\"status\":\"success\",\"data\":{"
             "\"resultType\":\"matrix\",\"result\":[...]}}");
    return;
  }
  JsonArray *series = json_node_get_array(res);
  guint n = json_array_get_length(series);
  for (guint i = 0; i < n; i++) {
    JsonNode *sn = json_array_get_element(series, i);
    JsonObject *s = JSON_NODE_HOLDS_OBJECT(sn) ? json_node_get_object(sn) : NULL;
    JsonObject *labels = s && json_object_has_member(s, "metric") &&
                                 JSON_NODE_HOLDS_OBJECT(json_object_get_member(s, "metric"))
                             ? json_object_get_object_member(s, "metric")
                             : NULL;
    JsonNode *values = s && json_object_has_member(s, "values") ? json_object_get_member(s, "values")
                                                                : NULL;
    JsonNode *value = s && json_object_has_member(s, "value") ? json_object_get_member(s, "value")
                                                              : NULL;
    /* "line" in messages is the series' position in result[] (1-based): JSON has no rows */
    guint pos = i + 1;
    if (!labels || (!values && !value) || (values && !JSON_NODE_HOLDS_ARRAY(values))) {
      c->rows_read++;
      import_bad_row(c, path, pos, 0,
                     "result[%u]: expected {\"metric\":{labels},\"values\":[[time,\"value\"],...]}",
                     i);
      continue;
    }
    const char *metric = dcgm_json_label(labels, "__name__", NULL);
    const char *pod, *ns;
    dcgm_pick_pod(r, dcgm_json_label(labels, "exported_pod", NULL),
                  dcgm_json_label(labels, "pod", NULL),
                  dcgm_json_label(labels, "exported_namespace", NULL),
                  dcgm_json_label(labels, "namespace", NULL), &pod, &ns);
    const char *uuid = dcgm_json_label(labels, "UUID", "uuid");
    const char *host = dcgm_json_label(labels, "Hostname", "instance");
    const char *gpu = dcgm_json_label(labels, "gpu", NULL);
    const char *profile = dcgm_json_label(labels, "GPU_I_PROFILE", NULL);
    if (!metric) {
      c->rows_read++;
      import_bad_row(c, path, pos, 0, "result[%u]: expected a __name__ label naming the metric", i);
      continue;
    }
    g_autofree char *gpu_id = uuid ? g_strdup(uuid)
                                   : g_strdup_printf("%s/%s", host ? host : "", gpu ? gpu : "");
    dcgm_host_seen(r, path, pos, host, gpu_id, dcgm_json_label(labels, "modelName", NULL));
    JsonArray *pts = values ? json_node_get_array(values) : NULL;
    guint np = pts ? json_array_get_length(pts) : 1;
    for (guint k = 0; k < np; k++) {
      c->rows_read++;
      char t_buf[64];
      const char *v_text = NULL;
      if (!dcgm_json_point(pts ? json_array_get_element(pts, k) : value, t_buf, sizeof t_buf,
                           &v_text)) {
        import_bad_row(c, path, pos, 0, "result[%u] point %u: expected [time, \"value\"]", i, k);
        continue;
      }
      dcgm_sample(r, path, pos, 0, 0, metric, ns, pod, gpu_id, profile, t_buf, v_text);
    }
  }
}

/* JSON if the first non-blank byte is '{'. */
static gboolean dcgm_is_json(const char *path) {
  FILE *f = safeopen_fopen(path, NULL);
  if (!f) return FALSE;
  int ch;
  while ((ch = fgetc(f)) != EOF && (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' ||
                                    ch == 0xEF || ch == 0xBB || ch == 0xBF)) {
  }
  fclose(f);
  return ch == '{' || ch == '[';
}

/* ---- pods into jobs ---- */

typedef struct dcgm_level {   /* one segment of a pod's life */
  int64_t first;              /* absolute window index where it starts */
  double busy, sm, mem_mib;   /* busy/sm NAN when unknown */
} dcgm_level;

typedef struct dcgm_wv {      /* one window's values */
  gboolean any;
  double busy, sm, mem_mib;   /* busy/sm NAN when not measured (or an edge window) */
  double rbusy, rsm;          /* as measured, edge windows included */
} dcgm_wv;

static double dcgm_act(double busy, double sm) { return !isnan(busy) ? busy : sm; }
static double dcgm_or(double v, double raw) { return !isnan(v) ? v : raw; }

/* Whether level b differs from level a by a phase threshold (activity only when
 * with_activity; an edge window's activity counts as measured here; NAN never differs). */
static gboolean dcgm_differs(const dcgm_wv *a, const dcgm_wv *b, gboolean with_activity) {
  double dm = fabs(a->mem_mib - b->mem_mib) * DCGM_MIB / 1e9;
  double rel = DCGM_MEM_CHANGE_REL * MAX(a->mem_mib, b->mem_mib) * DCGM_MIB / 1e9;
  if (dm >= DCGM_MEM_CHANGE_GB && dm >= rel) return TRUE;
  if (!with_activity) return FALSE;
  double ab = dcgm_or(a->busy, a->rbusy), as = dcgm_or(a->sm, a->rsm);
  double bb = dcgm_or(b->busy, b->rbusy), bs = dcgm_or(b->sm, b->rsm);
  double da = fabs(dcgm_act(ab, as) - dcgm_act(bb, bs));
  double ds = fabs(as - bs);
  return da >= DCGM_ACT_CHANGE || ds >= DCGM_ACT_CHANGE; /* FALSE when NAN */
}

/* The pod's windows as values. The first and last windows usually hold the pod for part
 * of the window only (their averages are diluted), so with three windows or more their
 * activity is not used; memory (a peak) is. */
static dcgm_wv *dcgm_values(const dcgm_pod *p, guint *n_out) {
  guint n = p->wins->len;
  dcgm_wv *v = g_new0(dcgm_wv, n ? n : 1);
  guint count = 0, first = n, last = 0;
  for (guint i = 0; i < n; i++) {
    const dcgm_win *w = &g_array_index(p->wins, dcgm_win, i);
    v[i].any = w->util_n || w->eng_n || w->sm_n || w->fb_n;
    v[i].busy = w->util_n ? w->util_sum / w->util_n / 100.0 : w->eng_n ? w->eng_sum / w->eng_n : NAN;
    v[i].sm = w->sm_n ? w->sm_sum / w->sm_n : NAN;
    v[i].rbusy = v[i].busy;
    v[i].rsm = v[i].sm;
    v[i].mem_mib = w->fb_max_mib;
    if (v[i].any) {
      count++;
      first = MIN(first, i);
      last = MAX(last, i);
    }
  }
  if (count >= 3) {
    v[first].busy = v[first].sm = NAN;
    v[last].busy = v[last].sm = NAN;
  }
  *n_out = n;
  return v;
}

/* Means of busy and sm (over windows where measured; the edge windows only if nothing
 * else was) and peak memory over [from, to). */
static dcgm_level dcgm_level_of(const dcgm_wv *v, guint from, guint to, int64_t base) {
  dcgm_level L = {.first = base + from, .busy = NAN, .sm = NAN, .mem_mib = 0};
  double bs = 0, ss = 0, rbs = 0, rss = 0;
  guint bn = 0, sn = 0, rbn = 0, rsn = 0;
  for (guint k = from; k < to; k++) {
    if (!v[k].any) continue;
    if (!isnan(v[k].busy)) bs += v[k].busy, bn++;
    if (!isnan(v[k].sm)) ss += v[k].sm, sn++;
    if (!isnan(v[k].rbusy)) rbs += v[k].rbusy, rbn++;
    if (!isnan(v[k].rsm)) rss += v[k].rsm, rsn++;
    L.mem_mib = MAX(L.mem_mib, v[k].mem_mib);
  }
  if (bn) L.busy = bs / bn;
  else if (rbn) L.busy = rbs / rbn;
  if (sn) L.sm = ss / sn;
  else if (rsn) L.sm = rss / rsn;
  return L;
}

/* Splits the windows into segments: a new one starts where two windows in a row differ
 * from the current level by a phase threshold (and not from each other); a segment's
 * values are its means (memory: its peak). Notebooks are split on memory only: their
 * activity comes in bursts, and their busy share is a property of the whole session. */
static GArray *dcgm_segments(const dcgm_pod *p, gboolean with_activity) {
  GArray *segs = g_array_new(FALSE, FALSE, sizeof(dcgm_level));
  guint n;
  dcgm_wv *v = dcgm_values(p, &n);
  guint start = 0;
  while (start < n && !v[start].any) start++;
  guint seg_start = start;
  dcgm_wv level = v[start];
  guint lb = isnan(level.busy) ? 0 : 1, ls = isnan(level.sm) ? 0 : 1;
  for (guint i = start + 1; i < n; i++) {
    if (!v[i].any) continue;
    guint j = i + 1;
    while (j < n && !v[j].any) j++;
    if (j < n && dcgm_differs(&level, &v[i], with_activity) &&
        dcgm_differs(&level, &v[j], with_activity) && !dcgm_differs(&v[i], &v[j], with_activity)) {
      dcgm_level L = dcgm_level_of(v, seg_start, i, p->win_base);
      g_array_append_val(segs, L);
      seg_start = i;
      level = v[i];
      lb = isnan(level.busy) ? 0 : 1;
      ls = isnan(level.sm) ? 0 : 1;
      continue;
    }
    /* the running level of the segment so far */
    if (!isnan(v[i].busy)) {
      level.busy = lb ? level.busy + (v[i].busy - level.busy) / (lb + 1) : v[i].busy;
      lb++;
    }
    if (!isnan(v[i].sm)) {
      level.sm = ls ? level.sm + (v[i].sm - level.sm) / (ls + 1) : v[i].sm;
      ls++;
    }
    level.mem_mib = MAX(level.mem_mib, v[i].mem_mib);
  }
  dcgm_level L = dcgm_level_of(v, seg_start, n, p->win_base);
  g_array_append_val(segs, L);
  if (!with_activity) {
    /* one activity level for the whole session */
    dcgm_level all = dcgm_level_of(v, 0, n, p->win_base);
    for (guint k = 0; k < segs->len; k++) {
      g_array_index(segs, dcgm_level, k).busy = all.busy;
      g_array_index(segs, dcgm_level, k).sm = all.sm;
    }
  }
  g_free(v);
  return segs;
}

static job_kind dcgm_kind(const dcgm_reader *r, const dcgm_pod *p) {
  for (guint i = 0; i < r->rules->len; i++) {
    const dcgm_rule *ru = &g_array_index(r->rules, dcgm_rule, i);
    if (g_pattern_spec_match_string(ru->glob, ru->on_ns ? p->ns : p->name)) return ru->kind;
  }
  return r->default_kind;
}

static int64_t dcgm_bytes(double mib) {
  double b = mib * DCGM_MIB;
  if (b > (double)TRACE_MAX_BYTES) b = (double)TRACE_MAX_BYTES;
  return (int64_t)llround(b);
}

/* Significant digits of the activity figures written (DCGM reports utilisation in whole
 * percent and profiling ratios to about three digits). */
#define DCGM_DIGITS 6
/* Smallest activity written: the trace needs gpu_util > 0 and a pod idle all its life
 * (GPU_UTIL 0) still holds its GPU; 0.01 is the resolution of a whole percent. */
#define DCGM_MIN_ACT 0.01

/* The job's activity fields for one level, by kind; sets the PHASE_SET_* bits it fills.
 * life_busy is the pod's mean busy share over its whole life (NAN when not measured);
 * gpu_util, when not NULL (the job's row, not a phase), gets it for training and batch. */
static guint dcgm_fill(const dcgm_reader *r, job_kind kind, const dcgm_level *L,
                       double life_busy, double *gpu_util, double *busy, double *sm,
                       double *rate) {
  guint set = 0;
  double b = isnan(L->busy) ? NAN : CLAMP(L->busy, 0.0, 1.0);
  switch (kind) {
  case JOB_NOTEBOOK:
  case JOB_INFERENCE:
    /* active share of time and the SMs busy while active */
    if (!isnan(b)) {
      if (kind == JOB_NOTEBOOK) {
        *busy = b;
        set |= PHASE_SET_BUSY;
      } else {
        *rate = b * 1000.0 / r->service_ms;
        set |= PHASE_SET_RATE;
      }
    }
    if (!isnan(L->sm) && !isnan(b) && b > 0) {
      *sm = CLAMP(L->sm / b, DCGM_MIN_ACT, 1.0);
      set |= PHASE_SET_SM;
    }
    break;
  default: {
    /* always running: the share of time a kernel ran over the pod's life is its gpu_util
     * (one level, like a notebook's busy: gpu_util is not a phase field); a segment's SM
     * activity (else its busy share) over it is sm, so gpu_util x sm is what was measured */
    double u = isnan(life_busy) ? 1.0 : CLAMP(life_busy, DCGM_MIN_ACT, 1.0);
    if (gpu_util && !isnan(life_busy)) *gpu_util = util_round_sig(u, DCGM_DIGITS);
    double act = !isnan(L->sm) ? L->sm : b;
    if (!isnan(act)) {
      *sm = CLAMP(act / u, DCGM_MIN_ACT, 1.0);
      set |= PHASE_SET_SM;
    }
    break;
  }
  }
  /* averages of samples with two to four digits: six significant digits, so the trace shows
   * 0.3, not 0.30000000000000004 (issue 11 bug 9) */
  if (set & PHASE_SET_BUSY) *busy = util_round_sig(*busy, DCGM_DIGITS);
  if (set & PHASE_SET_SM) *sm = util_round_sig(*sm, DCGM_DIGITS);
  if (set & PHASE_SET_RATE) *rate = util_round_sig(*rate, DCGM_DIGITS);
  return set;
}

/* The pod's mean busy share over its life (NAN when GPU_UTIL and GR_ENGINE_ACTIVE were never
 * sampled), by the same rules as a segment's level. */
static double dcgm_life_busy(const dcgm_pod *p) {
  guint n;
  dcgm_wv *v = dcgm_values(p, &n);
  dcgm_level all = dcgm_level_of(v, 0, n, p->win_base);
  g_free(v);
  return all.busy;
}

static gint dcgm_pod_cmp(gconstpointer a, gconstpointer b) {
  const dcgm_pod *x = *(const dcgm_pod *const *)a, *y = *(const dcgm_pod *const *)b;
  if (x->t_first != y->t_first) return x->t_first < y->t_first ? -1 : 1;
  int k = strcmp(x->ns, y->ns);
  return k ? k : strcmp(x->name, y->name);
}

/* Behind kube-prometheus (some series have exported_pod), the pods that only series
 * without it named are the exporter's own, on idle GPUs: their samples count as idle, not
 * as a job; the note names the first. Returns how many samples that left out. */
static guint64 dcgm_drop_target_pods(dcgm_reader *r, const char **first) {
  guint64 dropped = 0;
  *first = NULL;
  if (!r->exported) return 0;
  GHashTableIter it;
  gpointer val;
  g_hash_table_iter_init(&it, r->pods);
  while (g_hash_table_iter_next(&it, NULL, &val)) {
    dcgm_pod *p = val;
    if (!p->target_samples) continue;
    dropped += p->target_samples;
    if (!*first || strcmp(p->name, *first) < 0) *first = p->name;
    g_hash_table_iter_remove(&it);
  }
  return dropped;
}

static void dcgm_notes(const dcgm_reader *r, guint64 idle_target, const char *exporter);

static void dcgm_emit(dcgm_reader *r) {
  import_ctx *c = r->c;
  const char *exporter = NULL;
  guint64 idle_target = dcgm_drop_target_pods(r, &exporter);
  GPtrArray *pods = g_ptr_array_new();
  GHashTableIter it;
  gpointer key, val;
  g_hash_table_iter_init(&it, r->pods);
  while (g_hash_table_iter_next(&it, &key, &val)) g_ptr_array_add(pods, val);
  g_ptr_array_sort(pods, dcgm_pod_cmp);
  double t0 = INFINITY;
  gboolean any_profile = FALSE;
  for (guint i = 0; i < pods->len; i++) {
    const dcgm_pod *p = g_ptr_array_index(pods, i);
    t0 = MIN(t0, p->t_first);
    any_profile |= p->profile != NULL;
  }
  /* Prometheus timestamps are Unix seconds: the trace keeps its calendar (submit_utc) */
  gboolean dated = isfinite(t0) && t0 >= IMPORT_CALENDAR_MIN_UNIX;
  const char *extra_names[3] = {"x_namespace", "x_mig_profile", IMPORT_SUBMIT_UTC};
  guint n_extra = 1;
  if (any_profile) extra_names[n_extra++] = "x_mig_profile";
  if (dated) extra_names[n_extra++] = IMPORT_SUBMIT_UTC;
  import_trace_header(c, extra_names, n_extra);
  guint64 by_kind[JOB_KIND_COUNT] = {0}, phases = 0;
  for (guint i = 0; i < pods->len; i++) {
    dcgm_pod *p = g_ptr_array_index(pods, i);
    job_kind kind = dcgm_kind(r, p);
    GArray *segs = dcgm_segments(p, kind != JOB_NOTEBOOK);
    by_kind[kind]++;
    job_spec j;
    job_init(&j, kind);
    g_autofree char *id = *p->ns ? g_strdup_printf("%s/%s", p->ns, p->name) : g_strdup(p->name);
    j.id = id;
    j.tenant = *p->ns ? p->ns : "default";
    j.gpus = MAX(p->gpus->len, 1u);
    double step = isfinite(p->min_gap) ? p->min_gap : r->window_s;
    j.submit_ns = util_seconds_to_ns(p->t_first - t0);
    j.duration_ns = MAX(util_seconds_to_ns(p->t_last - p->t_first + step), 1);
    const dcgm_level *L0 = &g_array_index(segs, dcgm_level, 0);
    j.mem_bytes = dcgm_bytes(L0->mem_mib);
    if (kind == JOB_INFERENCE) {
      j.service_ms = r->service_ms;
      j.rate_rps = 0;
    }
    double life = dcgm_life_busy(p);
    dcgm_fill(r, kind, L0, life, &j.gpu_util, &j.busy, &j.sm, &j.rate_rps);
    g_autofree char *utc = dated ? import_submit_utc(t0, j.submit_ns) : NULL;
    const char *extra[3] = {p->ns, p->profile, utc};
    if (!any_profile) extra[1] = utc;
    import_emit_job(c, &j, extra, n_extra);
    /* phases: what changed from one level to the next */
    for (guint k = 1; k < segs->len; k++) {
      const dcgm_level *A = &g_array_index(segs, dcgm_level, k - 1);
      const dcgm_level *B = &g_array_index(segs, dcgm_level, k);
      job_phase ph = {0};
      double t_seg = (double)B->first * r->window_s;
      ph.after_ns = MAX(util_seconds_to_ns(t_seg - p->t_first), 0);
      double ab = 0, as = 0, ar = 0;
      guint sa = dcgm_fill(r, kind, A, life, NULL, &ab, &as, &ar);
      guint set = dcgm_fill(r, kind, B, life, NULL, &ph.busy, &ph.sm, &ph.rate_rps);
      /* keep only the fields that moved */
      if ((set & PHASE_SET_BUSY) && (sa & PHASE_SET_BUSY) && fabs(ph.busy - ab) < 1e-9)
        set &= ~(guint)PHASE_SET_BUSY;
      if ((set & PHASE_SET_SM) && (sa & PHASE_SET_SM) && fabs(ph.sm - as) < 1e-9)
        set &= ~(guint)PHASE_SET_SM;
      if ((set & PHASE_SET_RATE) && (sa & PHASE_SET_RATE) && fabs(ph.rate_rps - ar) < 1e-12)
        set &= ~(guint)PHASE_SET_RATE;
      if (dcgm_bytes(B->mem_mib) != dcgm_bytes(A->mem_mib)) {
        set |= PHASE_SET_MEM;
        ph.mem_bytes = dcgm_bytes(B->mem_mib);
      }
      ph.set = set;
      if (!set) continue;
      import_emit_phase(c, id, &ph);
      phases++;
    }
    g_array_unref(segs);
  }
  import_note(c,
              "%" G_GUINT64_FORMAT " samples of %u pods: %" G_GUINT64_FORMAT " notebook, %"
              G_GUINT64_FORMAT " inference, %" G_GUINT64_FORMAT " training, %" G_GUINT64_FORMAT
              " batch; %" G_GUINT64_FORMAT " phase changes found",
              r->samples, pods->len, by_kind[JOB_NOTEBOOK], by_kind[JOB_INFERENCE],
              by_kind[JOB_TRAINING], by_kind[JOB_BATCH], phases);
  dcgm_notes(r, idle_target, exporter);
  g_ptr_array_unref(pods);
}

/* The notes on what the import left out or doubts (after the count of jobs). */
static void dcgm_notes(const dcgm_reader *r, guint64 idle_target, const char *exporter) {
  import_ctx *c = r->c;
  if (r->no_pod)
    import_note(c, "%" G_GUINT64_FORMAT " samples without a pod label (idle GPUs) left out", r->no_pod);
  if (idle_target)
    import_note(c, "%" G_GUINT64_FORMAT " samples of idle GPUs left out: their series have no "
                "exported_pod, so their pod label ('%s') is the exporter's own, as Prometheus "
                "labels a ServiceMonitor's target", idle_target, exporter);
  if (r->exporter_pod && r->exporter_pod >= r->samples)
    import_note(c, "warning: every series names the DCGM exporter's own pod ('%s') and none "
                "has exported_pod: the workloads' pods are missing, so each node became one "
                "job. dcgm-exporter labels a GPU with its workload's pod only when it can read "
                "the kubelet's pod-resources socket, and Prometheus keeps that label as "
                "exported_pod behind a ServiceMonitor with honorLabels: false",
                r->exporter_name);
  if (r->other_metric)
    import_note(c, "%" G_GUINT64_FORMAT " samples of other metrics ignored", r->other_metric);
}

/* ---- the scenario of the nodes seen (--scenario-out) ---- */

/* The catalogue model a DCGM modelName stands for: a catalogue name, a model's driver name
 * (product_name: "NVIDIA A100-SXM4-80GB"), or the one model catalog_model_suggestions finds
 * ("NVIDIA A100 80GB PCIe"); NULL otherwise, with *hint the suggestions (NULL: none). */
static const gpu_model *dcgm_catalog_model(const char *name, char **hint) {
  *hint = NULL;
  const gpu_model *m = catalog_find(name);
  guint n;
  const gpu_model *all = catalog_models(&n);
  for (guint i = 0; !m && i < n; i++)
    if (all[i].product_name && !g_ascii_strcasecmp(all[i].product_name, name)) m = &all[i];
  if (m) return m;
  *hint = catalog_model_suggestions(name);
  if (*hint && !strchr(*hint, ',')) {
    m = catalog_find(*hint);
    g_clear_pointer(hint, g_free);
  }
  return m;
}

/* One pool of the scenario: nodes of one model with the same number of GPUs. */
typedef struct dcgm_group {
  const gpu_model *model;
  guint gpus_per_node, nodes;
  GString *hosts;            /* "node-1, node-2" (the first few) */
  GString *names;            /* the modelNames that mapped to it */
} dcgm_group;

static gint dcgm_host_cmp(gconstpointer a, gconstpointer b) {
  return strcmp((*(dcgm_host *const *)a)->name, (*(dcgm_host *const *)b)->name);
}

/* Node h into its group (appended to groups when new); FALSE after a diag when its model
 * is unknown. forced: --gpu-model's model, or NULL. */
static gboolean dcgm_group_add(dcgm_reader *r, GArray *groups, const dcgm_host *h,
                               const gpu_model *forced) {
  g_autofree char *hint = NULL;
  const gpu_model *m = forced ? forced : h->model ? dcgm_catalog_model(h->model, &hint) : NULL;
  if (!m) {
    g_autofree char *all = catalog_model_names();
    diag_add(r->c->diags, h->file, h->line, 0,
             "--scenario-out: node %s: %s%s%s is not a catalogue GPU model (%s%s%sall: %s); "
             "give --gpu-model MODEL", h->name, h->model ? "modelName '" : "no modelName label",
             h->model ? h->model : "", h->model ? "'" : "", hint ? "did you mean " : "",
             hint ? hint : "", hint ? "? " : "", all);
    return FALSE;
  }
  guint gpn = MAX(g_hash_table_size(h->gpus), 1u);
  dcgm_group *g = NULL;
  for (guint i = 0; i < groups->len && !g; i++) {
    dcgm_group *x = &g_array_index(groups, dcgm_group, i);
    if (x->model == m && x->gpus_per_node == gpn) g = x;
  }
  if (!g) {
    dcgm_group n = {m, gpn, 0, g_string_new(NULL), g_string_new(NULL)};
    g_array_append_val(groups, n);
    g = &g_array_index(groups, dcgm_group, groups->len - 1);
  }
  if (g->nodes < 4) g_string_append_printf(g->hosts, "%s%s", g->nodes ? ", " : "", h->name);
  else if (g->nodes == 4) g_string_append(g->hosts, ", ...");
  g->nodes++;
  const char *mn = h->model ? h->model : "(none)";
  g_autofree char *quoted = g_strdup_printf("'%s'", mn);
  if (!strstr(g->names->str, quoted))
    g_string_append_printf(g->names, "%s%s", g->names->len ? ", " : "", quoted);
  return TRUE;
}

/* The pool name of group g: its model in lower case, with "-xN" when another group has
 * the same model. Owned. */
static char *dcgm_pool_name(GArray *groups, guint k) {
  const dcgm_group *g = &g_array_index(groups, dcgm_group, k);
  gboolean shared = FALSE;
  for (guint i = 0; i < groups->len; i++)
    shared |= i != k && g_array_index(groups, dcgm_group, i).model == g->model;
  g_autofree char *low = g_ascii_strdown(g->model->name, -1);
  return shared ? g_strdup_printf("%s-x%u", low, g->gpus_per_node) : g_strdup(low);
}

/* Writes the pools of the nodes seen to the SCENARIO output. */
static void dcgm_scenario(dcgm_reader *r, const gpu_model *forced, const char *strategy) {
  GPtrArray *hosts = g_ptr_array_new();
  GHashTableIter it;
  gpointer k, v;
  g_hash_table_iter_init(&it, r->hosts);
  while (g_hash_table_iter_next(&it, &k, &v)) g_ptr_array_add(hosts, v);
  g_ptr_array_sort(hosts, dcgm_host_cmp);
  GArray *groups = g_array_new(FALSE, FALSE, sizeof(dcgm_group));
  gboolean ok = hosts->len > 0;
  guint gpus = 0, big = 0;
  if (!hosts->len)
    diag_add(r->c->diags, r->c->files[0], 0, 0, "--scenario-out: no GPU series seen");
  for (guint i = 0; i < hosts->len; i++) {
    ok &= dcgm_group_add(r, groups, g_ptr_array_index(hosts, i), forced);
    gpus += g_hash_table_size(((dcgm_host *)g_ptr_array_index(hosts, i))->gpus);
  }
  GString *y = g_string_new(NULL);
  g_string_append_printf(y, "# Made by `sharesim import dcgm --scenario-out`: %u nodes and %u "
                         "GPUs seen (Hostname, gpu/UUID; idle GPUs included), a pool per GPU "
                         "model and GPUs per node.\n", hosts->len, gpus);
  for (guint i = 0; ok && i < groups->len; i++) {
    const dcgm_group *g = &g_array_index(groups, dcgm_group, i);
    g_autofree char *esc = g_strescape(g->names->str, NULL), *hs = g_strescape(g->hosts->str, NULL);
    g_string_append_printf(y, "#   %s x %u: %u node%s (%s), modelName %s%s\n", g->model->name,
                           g->gpus_per_node, g->nodes, g->nodes == 1 ? "" : "s", hs, esc,
                           forced ? " (--gpu-model)" : "");
    if (g->nodes * g->gpus_per_node >
        g_array_index(groups, dcgm_group, big).nodes * g_array_index(groups, dcgm_group, big).gpus_per_node)
      big = i;
  }
  g_string_append(y, "name: dcgm-import\npools:\n");
  for (guint i = 0; ok && i < groups->len; i++) {
    const dcgm_group *g = &g_array_index(groups, dcgm_group, i);
    g_autofree char *name = dcgm_pool_name(groups, i);
    g_string_append_printf(y, "  - name: %s\n    gpu: %s\n    nodes: %u\n    gpus_per_node: %u\n"
                           "    strategy: %s\n", name, g->model->name, g->nodes,
                           g->gpus_per_node, strategy);
  }
  if (ok && groups->len > 1) {
    g_autofree char *name = dcgm_pool_name(groups, big);
    g_string_append_printf(y, "routing:  # every job to the largest pool: route by kind, tenant "
                           "or label (docs/scenario-format.md)\n  - {pool: %s}\n", name);
  }
  if (ok) {
    import_append(r->c, IMPORT_OUT_SCENARIO, y->str);
    import_note(r->c, "scenario: %u pool%s of %u GPUs on %u nodes, idle GPUs included",
                groups->len, groups->len == 1 ? "" : "s", gpus, hosts->len);
  }
  g_string_free(y, TRUE);
  for (guint i = 0; i < groups->len; i++) {
    g_string_free(g_array_index(groups, dcgm_group, i).hosts, TRUE);
    g_string_free(g_array_index(groups, dcgm_group, i).names, TRUE);
  }
  g_array_unref(groups);
  g_ptr_array_unref(hosts);
}

/* ---- rules and options ---- */

static gboolean dcgm_rule_add(dcgm_reader *r, const char *text, GError **error) {
  const char *eq = strchr(text, '=');
  job_kind k;
  g_autofree char *kind = eq ? g_strndup(text, (gsize)(eq - text)) : NULL;
  const char *what = eq ? eq + 1 : NULL;
  gboolean on_ns = what && g_str_has_prefix(what, "ns:");
  gboolean on_pod = what && g_str_has_prefix(what, "pod:");
  if (!eq || !job_kind_parse(kind, &k) || (!on_ns && !on_pod) || !what[on_ns ? 3 : 4]) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "--kind-rule: expected KIND=ns:GLOB or KIND=pod:GLOB with KIND notebook, "
                "inference, training or batch (e.g. notebook=ns:jupyter*), found '%s'",
                text);
    return FALSE;
  }
  dcgm_rule ru = {.kind = k, .on_ns = on_ns, .glob = g_pattern_spec_new(what + (on_ns ? 3 : 4))};
  g_array_append_val(r->rules, ru);
  return TRUE;
}

static gboolean dcgm_run(import_ctx *c, GError **error) {
  dcgm_reader r = {.c = c, .default_kind = JOB_BATCH, .window_s = DCGM_WINDOW_S,
                   .service_ms = DCGM_SERVICE_MS};
  const char *text;
  if ((text = import_option(c, "window"))) {
    sim_time ns;
    const char *exp = NULL;
    if (!util_parse_duration(text, 0, &ns, &exp) || ns < SIM_NS_PER_S ||
        ns > 86400 * SIM_NS_PER_S) {
      g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                  "--window: expected a duration from 1s to 1d (30s, 5m), found '%s'", text);
      return FALSE;
    }
    r.window_s = util_ns_to_seconds(ns);
  }
  if ((text = import_option(c, "service-ms"))) {
    double v;
    if (!import_parse_number(text, &v) || !(v > 0) || v > TRACE_MAX_MS) {
      g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                  "--service-ms: expected milliseconds above 0, found '%s'", text);
      return FALSE;
    }
    r.service_ms = v;
  }
  if ((text = import_option(c, "default-kind")) && !job_kind_parse(text, &r.default_kind)) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "--default-kind: expected notebook, inference, training or batch, found '%s'",
                text);
    return FALSE;
  }
  const gpu_model *forced = NULL;
  share_strategy strategy;
  if (import_wants(c, IMPORT_OUT_SCENARIO) &&
      !import_pool_options(c, "A100-80GB", "exclusive", &forced, &strategy, error))
    return FALSE;
  if (!import_wants(c, IMPORT_OUT_SCENARIO) &&
      (import_option(c, "gpu-model") || import_option(c, "strategy"))) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "--gpu-model and --strategy describe the pools of --scenario-out: give it too");
    return FALSE;
  }
  if (!import_option(c, "gpu-model")) forced = NULL;
  r.rules = g_array_new(FALSE, FALSE, sizeof(dcgm_rule));
  gboolean ok = TRUE;
  GPtrArray *given = import_option_all(c, "kind-rule");
  for (guint i = 0; given && i < given->len && ok; i++)
    ok = dcgm_rule_add(&r, g_ptr_array_index(given, i), error);
  for (guint i = 0; ok && dcgm_default_rules[i]; i++) ok = dcgm_rule_add(&r, dcgm_default_rules[i], error);
  if (ok) {
    r.strings = g_string_chunk_new(1 << 14);
    r.pods = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, dcgm_pod_free);
    if (import_wants(c, IMPORT_OUT_SCENARIO))
      r.hosts = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, dcgm_host_free);
    for (guint f = 0; f < c->n_files; f++) {
      if (dcgm_is_json(c->files[f])) {
        dcgm_json_file(&r, c->files[f]);
      } else {
        r.have_header = r.header_bad = FALSE;
        if (csvread_foreach(c->files[f], 0, dcgm_csv_row, &r, c->diags) && !r.have_header)
          diag_add(c->diags, c->files[f], 1, 0,
                   "expected Prometheus query JSON or a CSV header row "
                   "(timestamp,metric,value,pod,...), found an empty file");
      }
    }
    if (import_ok(c)) dcgm_emit(&r);
    const char *st = import_option(c, "strategy");
    if (import_ok(c) && r.hosts) dcgm_scenario(&r, forced, st ? st : "exclusive");
    if (r.hosts) g_hash_table_unref(r.hosts);
    g_hash_table_unref(r.pods);
    g_string_chunk_free(r.strings);
  }
  g_free(r.exporter_name);
  for (guint i = 0; i < r.rules->len; i++)
    g_pattern_spec_free(g_array_index(r.rules, dcgm_rule, i).glob);
  g_array_unref(r.rules);
  return ok;
}

const import_format import_dcgm_format = {
    .name = "dcgm",
    .description = "DCGM exporter metrics from Prometheus (range-query JSON, or CSV one sample "
                   "per row): one job per pod",
    .files = "EXPORT.json|EXPORT.csv...",
    .options = dcgm_options,
    .run = dcgm_run,
};
