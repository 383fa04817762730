/* figures.c: a result folder's headline figures, read back from summary.json (json-glib)
 * services.csv and llm.csv (table.c), with the labels, units and order the study tables use, and
 * the locale-independent formatting of values and differences. It runs nothing and
 * writes nothing; it knows the names report-json.c writes but accepts any others. */
#include "figures.h"
#include "safeopen.h"
#include "caltime.h"
#include "report.h"
#include "table.h"
#include "util.h"
#include "jsonlimit.h"
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

/* Known totals members, in table order within their section. detail: kept in CSV/JSON,
 * left out of the text table (it repeats another row). */
static const struct figures_known {
  const char *key, *label;
  figure_unit unit;
  figure_section section;
  gboolean detail;
} figures_known[] = {
  {"gpus", "GPUs provisioned", FIGURE_COUNT, FIGURE_SECTION_CAPACITY, FALSE},
  {"provisioned_gpu_h", "GPU-hours provisioned", FIGURE_GPU_HOURS, FIGURE_SECTION_CAPACITY, FALSE},
  {"span_s", "simulated span", FIGURE_SECONDS, FIGURE_SECTION_CAPACITY, FALSE},
  {"allocated_frac", "allocated", FIGURE_FRACTION, FIGURE_SECTION_UTILISATION, FALSE},
  {"busy_frac", "busy", FIGURE_FRACTION, FIGURE_SECTION_UTILISATION, FALSE},
  {"sm_active_frac", "SM-active", FIGURE_FRACTION, FIGURE_SECTION_UTILISATION, FALSE},
  {"allocated_gpu_h", "allocated GPU-hours", FIGURE_GPU_HOURS, FIGURE_SECTION_UTILISATION, TRUE},
  {"allocated_gpu_h_per_day", "allocated GPU-hours per simulated day", FIGURE_GPU_HOURS, FIGURE_SECTION_UTILISATION, FALSE},
  {"busy_gpu_h", "busy GPU-hours", FIGURE_GPU_HOURS, FIGURE_SECTION_UTILISATION, TRUE},
  {"busy_gpu_h_per_day", "busy GPU-hours per simulated day", FIGURE_GPU_HOURS, FIGURE_SECTION_UTILISATION, FALSE},
  {"sm_active_gpu_h", "SM-active GPU-hours", FIGURE_GPU_HOURS, FIGURE_SECTION_UTILISATION, TRUE},
  {"jobs", "jobs in the trace", FIGURE_COUNT, FIGURE_SECTION_JOBS, TRUE},
  {"completed", "jobs completed", FIGURE_COUNT, FIGURE_SECTION_JOBS, FALSE},
  {"completed_per_day", "jobs completed per simulated day", FIGURE_NUMBER, FIGURE_SECTION_JOBS, FALSE},
  {"failed", "jobs failed", FIGURE_COUNT, FIGURE_SECTION_JOBS, FALSE},
  {"unplaceable", "jobs unplaceable", FIGURE_COUNT, FIGURE_SECTION_JOBS, FALSE},
  {"running", "jobs running at the end", FIGURE_COUNT, FIGURE_SECTION_JOBS, TRUE},
  {"queued", "jobs queued at the end", FIGURE_COUNT, FIGURE_SECTION_JOBS, TRUE},
  {"not_submitted", "jobs after the horizon", FIGURE_COUNT, FIGURE_SECTION_JOBS, TRUE},
  {"wait_mean_s", "queue wait mean", FIGURE_SECONDS, FIGURE_SECTION_JOBS, FALSE},
  {"wait_p50_s", "queue wait p50", FIGURE_SECONDS, FIGURE_SECTION_JOBS, TRUE},
  {"wait_p95_s", "queue wait p95", FIGURE_SECONDS, FIGURE_SECTION_JOBS, FALSE},
  {"wait_max_s", "queue wait max", FIGURE_SECONDS, FIGURE_SECTION_JOBS, TRUE},
  {"slowdown_mean", "slowdown (mean)", FIGURE_RATIO, FIGURE_SECTION_JOBS, FALSE},
  {"straggler_delay_h", "straggler delay (training)", FIGURE_HOURS, FIGURE_SECTION_JOBS, FALSE},
  {"straggler_wait_gpu_h", "GPU time waiting for stragglers", FIGURE_GPU_HOURS, FIGURE_SECTION_JOBS, FALSE},
  {"oom_kills", "OOM kills", FIGURE_COUNT, FIGURE_SECTION_FAULTS, FALSE},
  {"innocent_victims", "innocent victims", FIGURE_COUNT, FIGURE_SECTION_FAULTS, FALSE},
  {"crashes", "crashes", FIGURE_COUNT, FIGURE_SECTION_FAULTS, FALSE},
  {"restarts", "restarts", FIGURE_COUNT, FIGURE_SECTION_FAULTS, FALSE},
  {"evictions", "evictions", FIGURE_COUNT, FIGURE_SECTION_FAULTS, FALSE},
  {"reconfigurations", "MIG reconfigurations", FIGURE_COUNT, FIGURE_SECTION_FAULTS, FALSE},
  {"work_lost_gpu_h", "work lost", FIGURE_GPU_HOURS, FIGURE_SECTION_FAULTS, FALSE},
  {"cost", "cost of the set-up", FIGURE_MONEY, FIGURE_SECTION_FINANCE, FALSE},
  {"cost_per_day", "cost per simulated day", FIGURE_MONEY, FIGURE_SECTION_FINANCE, FALSE},
  {"idle_cost", "idle spend", FIGURE_MONEY, FIGURE_SECTION_FINANCE, FALSE},
  {"cost_per_busy_gpu_h", "cost per busy GPU-hour", FIGURE_MONEY_PER_HOUR, FIGURE_SECTION_FINANCE, FALSE},
  {"saving", "saving against the baseline", FIGURE_MONEY, FIGURE_SECTION_FINANCE, FALSE},
  {"saving_per_day", "saving per simulated day", FIGURE_MONEY, FIGURE_SECTION_FINANCE, FALSE},
  {"saving_frac", "saving, share of the baseline cost", FIGURE_FRACTION, FIGURE_SECTION_FINANCE, TRUE},
  /* summary.json's "slo" object (the inference model's) */
  {"slo:services", "inference services", FIGURE_COUNT, FIGURE_SECTION_SERVICES, FALSE},
  {"slo:judged", "services with an SLO and requests", FIGURE_COUNT, FIGURE_SECTION_SERVICES, TRUE},
  {"slo:met", "services meeting their SLO", FIGURE_COUNT, FIGURE_SECTION_SERVICES, FALSE},
  {"slo:missed", "services missing their SLO", FIGURE_COUNT, FIGURE_SECTION_SERVICES, FALSE},
  {"slo:requests", "requests", FIGURE_COUNT, FIGURE_SECTION_SERVICES, TRUE},
  {"slo:violations", "requests over their SLO", FIGURE_COUNT, FIGURE_SECTION_SERVICES, FALSE},
  {"slo:attainment_pct", "requests within their SLO", FIGURE_PERCENT, FIGURE_SECTION_SERVICES, FALSE},
  {"slo:violation_minutes", "SLO violation minutes", FIGURE_NUMBER, FIGURE_SECTION_SERVICES, FALSE},
  /* derived from services.csv (figures_read_services) */
  {"services:count", "services in services.csv", FIGURE_COUNT, FIGURE_SECTION_SERVICES, TRUE},
  {"services:with_slo", "services reporting SLO attainment", FIGURE_COUNT, FIGURE_SECTION_SERVICES, TRUE},
  {"services:meeting_target", "services meeting their SLO (services.csv)", FIGURE_COUNT, FIGURE_SECTION_SERVICES, TRUE},
  {"services:min_attainment", "lowest SLO attainment of a service", FIGURE_FRACTION, FIGURE_SECTION_SERVICES, FALSE},
  /* derived from llm.csv (figures_read_llm): the LLM servers' latency and goodput */
  {"llm:servers", "LLM servers", FIGURE_COUNT, FIGURE_SECTION_SERVICES, TRUE},
  {"llm:ttft_p50_ms", "LLM TTFT median (worst server)", FIGURE_MILLISECONDS, FIGURE_SECTION_SERVICES, TRUE},
  {"llm:ttft_p99_ms", "LLM TTFT p99 (worst server)", FIGURE_MILLISECONDS, FIGURE_SECTION_SERVICES, FALSE},
  {"llm:tpot_p50_ms", "LLM TPOT median (worst server)", FIGURE_MILLISECONDS, FIGURE_SECTION_SERVICES, TRUE},
  {"llm:tpot_p99_ms", "LLM TPOT p99 (worst server)", FIGURE_MILLISECONDS, FIGURE_SECTION_SERVICES, FALSE},
  {"llm:goodput_rps", "LLM goodput in requests/s (all servers)", FIGURE_NUMBER, FIGURE_SECTION_SERVICES, FALSE},
};

/* Per-pool members kept as figures, in order. */
static const struct {
  const char *member, *label;
  figure_unit unit;
  gboolean detail;
} figures_pool_members[] = {
  {"gpus", "GPUs", FIGURE_COUNT, FALSE},
  {"allocated_frac", "allocated", FIGURE_FRACTION, FALSE},
  {"busy_frac", "busy", FIGURE_FRACTION, FALSE},
  {"wait_p95_s", "queue wait p95", FIGURE_SECONDS, FALSE},
  {"oom_kills", "OOM kills", FIGURE_COUNT, FALSE},
  {"cost", "cost", FIGURE_MONEY, FALSE},
  {"jobs", "jobs routed", FIGURE_COUNT, TRUE},
  {"unplaceable", "jobs unplaceable", FIGURE_COUNT, TRUE},
  {"queued", "jobs queued at the end", FIGURE_COUNT, TRUE},
};

/* Figures added by other sections are ordered after the known ones. */
#define FIGURES_ORDER_GENERIC 1000u
/* At most this many entries of one generic top-level array become figures. */
#define FIGURES_MAX_ARRAY_ENTRIES 64

const char *figures_section_name(figure_section s) {
  static const char *const names[FIGURE_SECTION_COUNT] = {
    "capacity", "utilisation", "jobs", "faults", "other figures", "services", "pools",
    "finance",
  };
  return s < FIGURE_SECTION_COUNT ? names[s] : "?";
}

static const struct figures_known *figures_known_find(const char *key, guint *order) {
  for (guint i = 0; i < G_N_ELEMENTS(figures_known); i++)
    if (!strcmp(figures_known[i].key, key)) {
      if (order) *order = i;
      return &figures_known[i];
    }
  return NULL;
}

char *figures_clean_text(const char *s) {
  char *valid = g_utf8_make_valid(s ? s : "", -1);
  for (char *p = valid; *p; p++)
    if ((unsigned char)*p < 0x20 || *p == 0x7f) *p = '?';
  return valid;
}

figure_unit figures_guess_unit(const char *key) {
  const char *last = strrchr(key, ':');
  const char *k = last ? last + 1 : key;
  if (g_str_has_suffix(k, "_frac") || strstr(k, "attainment") || strstr(k, "utilisation"))
    return strstr(k, "pct") || strstr(k, "percent") ? FIGURE_PERCENT : FIGURE_FRACTION;
  if (g_str_has_suffix(k, "_pct") || g_str_has_suffix(k, "_percent")) return FIGURE_PERCENT;
  if (strstr(k, "cost") || strstr(k, "spend") || strstr(k, "saving") || strstr(k, "price"))
    return g_str_has_suffix(k, "_h") ? FIGURE_MONEY_PER_HOUR : FIGURE_MONEY;
  if (g_str_has_suffix(k, "_ms")) return FIGURE_MILLISECONDS;
  if (g_str_has_suffix(k, "_s")) return FIGURE_SECONDS;
  if (g_str_has_suffix(k, "_gpu_h")) return FIGURE_GPU_HOURS;
  if (g_str_has_suffix(k, "_h")) return FIGURE_HOURS;
  if (strstr(k, "slowdown") || strstr(k, "stretch")) return FIGURE_RATIO;
  return FIGURE_NUMBER;
}

static void figures_add(run_figures *f, const char *key, const char *label, figure_unit unit,
                        figure_section section, guint order, gboolean detail, double value) {
  gpointer idx = g_hash_table_lookup(f->by_key, key);
  if (idx) {
    g_array_index(f->figures, figure, GPOINTER_TO_UINT(idx) - 1).value = value;
    return;
  }
  figure fig = {
    .key = g_strdup(key), .label = figures_clean_text(label), .unit = unit,
    .section = section, .order = order, .detail = detail, .value = value,
  };
  g_array_append_val(f->figures, fig);
  g_hash_table_insert(f->by_key, fig.key, GUINT_TO_POINTER(f->figures->len));
}

void figures_set(run_figures *f, const char *key, double value) {
  g_return_if_fail(f != NULL && key != NULL);
  guint order = 0;
  const struct figures_known *k = figures_known_find(key, &order);
  if (k) {
    figures_add(f, key, k->label, k->unit, k->section, order, k->detail, value);
    return;
  }
  gboolean service = strstr(key, "slo") || strstr(key, "attain") || strstr(key, "latency") ||
                     strstr(key, "service");
  figures_add(f, key, key, figures_guess_unit(key),
              service ? FIGURE_SECTION_SERVICES : FIGURE_SECTION_OTHER,
              FIGURES_ORDER_GENERIC + f->figures->len, FALSE, value);
}

/* Totals that grow with the simulated span, and their per-day rates (issue 11 bug 8: runs
 * of different lengths compared by their totals alone mixed the longer span into cost). */
static const struct { const char *total, *rate; } figures_rates[] = {
  {"allocated_gpu_h", "allocated_gpu_h_per_day"}, {"busy_gpu_h", "busy_gpu_h_per_day"},
  {"completed", "completed_per_day"}, {"cost", "cost_per_day"},
};

void figures_add_rates(run_figures *f) {
  g_return_if_fail(f != NULL);
  double days = figures_value(f, "span_s") / 86400.0;
  if (!(days > 0)) return;
  for (guint i = 0; i < G_N_ELEMENTS(figures_rates); i++) {
    double v = figures_value(f, figures_rates[i].total);
    if (isfinite(v)) figures_set(f, figures_rates[i].rate, v / days);
  }
}

gboolean figures_spans_differ(const run_figures *const *runs, const char *const *names, guint n,
                              GString *note) {
  double lo = INFINITY, hi = -INFINITY;
  for (guint i = 0; i < n; i++) {
    double s = figures_value(runs[i], "span_s");
    if (!isfinite(s)) continue;
    lo = MIN(lo, s);
    hi = MAX(hi, s);
  }
  /* within 0.1 %: the same span up to the last event of each run */
  if (!(hi > lo * 1.001)) return FALSE;
  if (!note) return TRUE;
  g_string_append(note, "the runs span different times (");
  for (guint i = 0; i < n; i++) {
    if (i) g_string_append(note, ", ");
    g_string_append_printf(note, "'%s' ", names[i]);
    figures_format(note, FIGURE_SECONDS, figures_value(runs[i], "span_s"));
  }
  g_string_append(note, "): totals such as cost, GPU-hours and jobs completed cover different "
                        "lengths; compare the per-day rates");
  return TRUE;
}

static void figures_clear(gpointer p) {
  figure *fig = p;
  g_free(fig->key);
  g_free(fig->label);
}

static void figures_service_clear(gpointer p) {
  service_figure *s = p;
  g_free(s->name);
  g_free(s->pool);
}

static void figures_blast_clear(gpointer p) {
  figure_blast *b = p;
  g_free(b->kind);
  g_free(b->from);
  g_free(b->to);
}

static run_figures *figures_new(const char *dir) {
  run_figures *f = g_new0(run_figures, 1);
  f->dir = g_strdup(dir ? dir : "");
  f->scenario = g_strdup("");
  f->scenario_file = g_strdup("");
  f->trace_file = g_strdup("");
  f->span_s = NAN;
  f->start_unix = NAN;
  f->figures = g_array_new(FALSE, TRUE, sizeof(figure));
  g_array_set_clear_func(f->figures, figures_clear);
  f->by_key = g_hash_table_new(g_str_hash, g_str_equal);
  f->pool_names = g_ptr_array_new_with_free_func(g_free);
  f->pool_models = g_ptr_array_new_with_free_func(g_free);
  f->services = g_array_new(FALSE, TRUE, sizeof(service_figure));
  g_array_set_clear_func(f->services, figures_service_clear);
  f->blast = g_array_new(FALSE, TRUE, sizeof(figure_blast));
  g_array_set_clear_func(f->blast, figures_blast_clear);
  return f;
}

run_figures *figures_copy(const run_figures *f, const char *dir) {
  g_return_val_if_fail(f != NULL, NULL);
  run_figures *c = figures_new(dir ? dir : f->dir);
  g_free(c->scenario);
  c->scenario = g_strdup(f->scenario);
  g_free(c->scenario_file);
  c->scenario_file = g_strdup(f->scenario_file);
  g_free(c->trace_file);
  c->trace_file = g_strdup(f->trace_file);
  c->seed = f->seed;
  c->span_s = f->span_s;
  c->start_unix = f->start_unix;
  for (guint i = 0; i < f->figures->len; i++) {
    const figure *fig = &g_array_index(f->figures, figure, i);
    figures_add(c, fig->key, fig->label, fig->unit, fig->section, fig->order, fig->detail,
                fig->value);
  }
  for (guint i = 0; i < f->pool_names->len; i++) {
    g_ptr_array_add(c->pool_names, g_strdup(g_ptr_array_index(f->pool_names, i)));
    g_ptr_array_add(c->pool_models, g_strdup(i < f->pool_models->len
                                                 ? g_ptr_array_index(f->pool_models, i)
                                                 : ""));
  }
  for (guint i = 0; i < f->services->len; i++) {
    service_figure s = g_array_index(f->services, service_figure, i);
    s.name = g_strdup(s.name);
    s.pool = g_strdup(s.pool);
    g_array_append_val(c->services, s);
  }
  c->services_file = f->services_file;
  c->services_slo = f->services_slo;
  for (guint i = 0; i < f->blast->len; i++) {
    figure_blast b = g_array_index(f->blast, figure_blast, i);
    b.kind = g_strdup(b.kind);
    b.from = g_strdup(b.from);
    b.to = g_strdup(b.to);
    g_array_append_val(c->blast, b);
  }
  c->blast_known = f->blast_known;
  return c;
}

void figures_free(run_figures *f) {
  if (!f) return;
  g_free(f->dir);
  g_free(f->scenario);
  g_free(f->scenario_file);
  g_free(f->trace_file);
  g_hash_table_destroy(f->by_key);
  g_array_free(f->figures, TRUE);
  g_ptr_array_free(f->pool_names, TRUE);
  g_ptr_array_free(f->pool_models, TRUE);
  g_array_free(f->services, TRUE);
  g_array_free(f->blast, TRUE);
  g_free(f);
}

/* A JSON member as a number: integers and doubles; null, strings, objects: NAN. *is_num
 * says whether it was a number or null (a figure), as opposed to another type. */
static double figures_json_value(JsonNode *n, gboolean *is_num) {
  *is_num = FALSE;
  if (!n) return NAN;
  if (JSON_NODE_HOLDS_NULL(n)) {
    *is_num = TRUE;
    return NAN;
  }
  if (!JSON_NODE_HOLDS_VALUE(n)) return NAN;
  GType t = json_node_get_value_type(n);
  if (t == G_TYPE_INT64) {
    *is_num = TRUE;
    return (double)json_node_get_int(n);
  }
  if (t == G_TYPE_DOUBLE) {
    *is_num = TRUE;
    double v = json_node_get_double(n);
    return isfinite(v) ? v : NAN;
  }
  return NAN;
}

static const char *figures_json_str(JsonObject *o, const char *member) {
  JsonNode *n = o ? json_object_get_member(o, member) : NULL;
  if (!n || !JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_STRING) return NULL;
  return json_node_get_string(n);
}

static void figures_read_totals(run_figures *f, JsonObject *totals) {
  GList *members = json_object_get_members(totals); /* insertion order */
  for (GList *l = members; l; l = l->next) {
    gboolean is_num;
    double v = figures_json_value(json_object_get_member(totals, l->data), &is_num);
    if (is_num) figures_set(f, l->data, v);
  }
  g_list_free(members);
}

static void figures_read_pools(run_figures *f, JsonArray *pools) {
  for (guint i = 0; i < json_array_get_length(pools); i++) {
    JsonNode *n = json_array_get_element(pools, i);
    if (!JSON_NODE_HOLDS_OBJECT(n)) continue;
    JsonObject *o = json_node_get_object(n);
    const char *name = figures_json_str(o, "name");
    g_autofree char *fallback = g_strdup_printf("pool%u", i + 1);
    if (!name || !*name) name = fallback;
    const char *model = figures_json_str(o, "gpu");
    g_autofree char *clean = figures_clean_text(name);
    g_ptr_array_add(f->pool_names, g_strdup(clean));
    g_ptr_array_add(f->pool_models, g_strdup(model ? model : ""));
    for (guint m = 0; m < G_N_ELEMENTS(figures_pool_members); m++) {
      gboolean is_num;
      double v = figures_json_value(json_object_get_member(o, figures_pool_members[m].member),
                                    &is_num);
      if (!is_num) continue;
      g_autofree char *key = g_strdup_printf("pool:%s:%s", clean, figures_pool_members[m].member);
      g_autofree char *label = g_strdup_printf("pool %s: %s", clean, figures_pool_members[m].label);
      figures_add(f, key, label, figures_pool_members[m].unit, FIGURE_SECTION_POOLS,
                  i * 16 + m, figures_pool_members[m].detail, v);
    }
  }
}

static void figures_read_tenants(run_figures *f, JsonArray *tenants) {
  for (guint i = 0; i < json_array_get_length(tenants); i++) {
    JsonNode *n = json_array_get_element(tenants, i);
    if (!JSON_NODE_HOLDS_OBJECT(n)) continue;
    JsonObject *o = json_node_get_object(n);
    const char *name = figures_json_str(o, "name");
    if (!name) continue;
    gboolean is_num;
    double v = figures_json_value(json_object_get_member(o, "cost"), &is_num);
    if (!is_num) continue;
    g_autofree char *clean = figures_clean_text(name);
    g_autofree char *key = g_strdup_printf("tenant:%s:cost", clean);
    g_autofree char *label = g_strdup_printf("showback: %s", clean);
    figures_add(f, key, label, FIGURE_MONEY, FIGURE_SECTION_FINANCE, 100 + i, FALSE, v);
  }
}

/* Arrays other than pools/tenants (service classes, say) and objects other than the
 * known ones: every numeric member becomes a figure. */
static void figures_read_generic(run_figures *f, const char *member, JsonNode *n) {
  static const char *const skip[] = {"totals", "pools", "tenants", "outcomes", "engine",
                                     "seed", "span_s", "interval_s", "start", "end",
                                     "blast_radius"};
  for (guint i = 0; i < G_N_ELEMENTS(skip); i++)
    if (!strcmp(member, skip[i])) return;
  g_autofree char *cm = figures_clean_text(member);
  gboolean is_num;
  double v = figures_json_value(n, &is_num);
  if (is_num) {
    figures_set(f, cm, v);
    return;
  }
  if (JSON_NODE_HOLDS_OBJECT(n)) {
    JsonObject *o = json_node_get_object(n);
    GList *members = json_object_get_members(o);
    for (GList *l = members; l; l = l->next) {
      v = figures_json_value(json_object_get_member(o, l->data), &is_num);
      if (!is_num) continue;
      g_autofree char *cl = figures_clean_text(l->data);
      g_autofree char *key = g_strdup_printf("%s:%s", cm, cl);
      figures_set(f, key, v);
    }
    g_list_free(members);
    return;
  }
  if (!JSON_NODE_HOLDS_ARRAY(n)) return;
  JsonArray *a = json_node_get_array(n);
  guint len = MIN(json_array_get_length(a), FIGURES_MAX_ARRAY_ENTRIES);
  for (guint i = 0; i < len; i++) {
    JsonNode *e = json_array_get_element(a, i);
    if (!JSON_NODE_HOLDS_OBJECT(e)) continue;
    JsonObject *o = json_node_get_object(e);
    const char *name = figures_json_str(o, "name");
    if (!name) name = figures_json_str(o, "class");
    if (!name) name = figures_json_str(o, "service");
    if (!name) name = figures_json_str(o, "id");
    g_autofree char *fallback = g_strdup_printf("%u", i + 1);
    g_autofree char *cn = figures_clean_text(name ? name : fallback);
    GList *members = json_object_get_members(o);
    for (GList *l = members; l; l = l->next) {
      v = figures_json_value(json_object_get_member(o, l->data), &is_num);
      if (!is_num) continue;
      g_autofree char *cl = figures_clean_text(l->data);
      g_autofree char *key = g_strdup_printf("%s:%s:%s", cm, cn, cl);
      figures_set(f, key, v);
    }
    g_list_free(members);
  }
}

/* summary.json's blast_radius: per kind, its pairs; entries without names are left out. */
static void figures_read_blast(run_figures *f, JsonObject *blast) {
  f->blast_known = TRUE;
  GList *kinds = json_object_get_members(blast); /* insertion order */
  for (GList *k = kinds; k; k = k->next) {
    JsonNode *a = json_object_get_member(blast, k->data);
    if (!JSON_NODE_HOLDS_ARRAY(a)) continue;
    JsonArray *arr = json_node_get_array(a);
    for (guint i = 0; i < json_array_get_length(arr); i++) {
      JsonNode *e = json_array_get_element(arr, i);
      if (!JSON_NODE_HOLDS_OBJECT(e)) continue;
      JsonObject *o = json_node_get_object(e);
      const char *from = figures_json_str(o, "from"), *to = figures_json_str(o, "to");
      if (!from || !to) continue;
      gboolean is_num;
      figure_blast b = {
          .kind = figures_clean_text(k->data), .from = figures_clean_text(from),
          .to = figures_clean_text(to),
          .died = figures_json_value(json_object_get_member(o, "died"), &is_num),
          .stalled = figures_json_value(json_object_get_member(o, "stalled"), &is_num),
          .evicted = figures_json_value(json_object_get_member(o, "evicted"), &is_num)};
      g_array_append_val(f->blast, b);
    }
  }
  g_list_free(kinds);
}

double figures_blast_across(const run_figures *f, const char *const *from, guint n_from) {
  double n = 0;
  for (guint i = 0; i < f->blast->len; i++) {
    const figure_blast *b = &g_array_index(f->blast, figure_blast, i);
    if (!strcmp(b->from, b->to) || !strcmp(b->from, "-")) continue;
    gboolean pick = !from;
    for (guint k = 0; !pick && k < n_from; k++) pick = !strcmp(from[k], b->from);
    if (!pick) continue;
    if (isfinite(b->died)) n += b->died;
    if (isfinite(b->stalled)) n += b->stalled;
    if (isfinite(b->evicted)) n += b->evicted;
  }
  return n;
}

static void figures_take_str(char **field, const char *value) {
  if (!value) return;
  g_free(*field);
  *field = figures_clean_text(value);
}

run_figures *figures_parse(const char *dir, const char *json, gsize len, GError **error) {
  g_autoptr(JsonParser) parser = json_parser_new();
  GError *local = NULL;
  g_autofree char *name = g_build_filename(dir, "summary.json", NULL);
  if (!jsonlimit_load_data(parser, name, json, len, NULL, NULL, &local)) {
    if (local->domain == SHARESIM_ERROR)
      g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT, "%s", local->message);
    else
      g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT, "%s: not valid JSON: %s", name,
                  local->message);
    g_clear_error(&local);
    return NULL;
  }
  JsonNode *root = json_parser_get_root(parser);
  if (!root || !JSON_NODE_HOLDS_OBJECT(root)) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "%s/summary.json: expected a JSON object (a sharesim summary)", dir);
    return NULL;
  }
  JsonObject *o = json_node_get_object(root);
  JsonNode *totals = json_object_get_member(o, "totals");
  if (!totals || !JSON_NODE_HOLDS_OBJECT(totals)) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "%s/summary.json: no \"totals\" object: not a sharesim run summary", dir);
    return NULL;
  }
  run_figures *f = figures_new(dir);
  figures_take_str(&f->scenario, figures_json_str(o, "scenario"));
  figures_take_str(&f->scenario_file, figures_json_str(o, "scenario_file"));
  figures_take_str(&f->trace_file, figures_json_str(o, "trace_file"));
  gboolean is_num;
  double seed = figures_json_value(json_object_get_member(o, "seed"), &is_num);
  f->seed = isfinite(seed) && seed >= 0 && seed < 1.8e19 ? (uint64_t)seed : 0;
  f->span_s = figures_json_value(json_object_get_member(o, "span_s"), &is_num);
  if (is_num) figures_set(f, "span_s", f->span_s); /* cost and GPU-hours are over it */
  const char *start = figures_json_str(o, "start");
  if (!start || !caltime_parse(start, &f->start_unix)) f->start_unix = NAN;
  figures_read_totals(f, json_node_get_object(totals));
  JsonNode *pools = json_object_get_member(o, "pools");
  if (pools && JSON_NODE_HOLDS_ARRAY(pools)) figures_read_pools(f, json_node_get_array(pools));
  JsonNode *tenants = json_object_get_member(o, "tenants");
  if (tenants && JSON_NODE_HOLDS_ARRAY(tenants))
    figures_read_tenants(f, json_node_get_array(tenants));
  JsonNode *blast = json_object_get_member(o, "blast_radius");
  if (blast && JSON_NODE_HOLDS_OBJECT(blast)) figures_read_blast(f, json_node_get_object(blast));
  GList *members = json_object_get_members(o);
  for (GList *l = members; l; l = l->next)
    figures_read_generic(f, l->data, json_object_get_member(o, l->data));
  g_list_free(members);
  figures_sort(f);
  return f;
}

/* services.csv, whose columns the inference model chooses: the service name is the
 * first of service/id/job_id/job/name (else column 1), the pool the "pool" column, the
 * attainment the first column whose name holds "attain", the target "slo_pct" or a
 * column holding "target". Shares may be written as 0..1 or as percentages: a column
 * named with "pct" or "percent", or a value above 1, is read as a percentage. */
static double figures_share(const char *column, double v) {
  if (!isfinite(v)) return NAN;
  if (strstr(column, "pct") || strstr(column, "percent") || v > 1.0) v /= 100.0;
  return v;
}

static void figures_read_services(run_figures *f, const char *path) {
  g_autoptr(GError) err = NULL;
  g_autoptr(table) t = table_load(path, &err);
  if (!t) return; /* absent (no inference services) or unreadable: no service figures */
  f->services_file = TRUE;
  if (t->rows->len == 0) return; /* a header only: no inference service in the trace */
  static const char *const name_cols[] = {"service", "id", "job_id", "job", "name"};
  int c_name = -1;
  for (guint i = 0; c_name < 0 && i < G_N_ELEMENTS(name_cols); i++)
    c_name = table_column(t, name_cols[i]);
  if (c_name < 0) c_name = 0;
  int c_pool = table_column(t, "pool");
  int c_att = table_column_containing(t, "attain");
  int c_target = table_column(t, "slo_pct");
  if (c_target < 0) c_target = table_column_containing(t, "target");
  f->services_slo = c_att >= 0;
  guint with = 0, meeting = 0;
  for (guint r = 0; r < t->rows->len; r++) {
    service_figure s = {
      .name = figures_clean_text(table_cell(t, r, c_name)),
      .pool = figures_clean_text(table_cell(t, r, c_pool)),
      .attainment = c_att >= 0 ? figures_share(t->header[c_att], table_number(t, r, c_att)) : NAN,
      .target = c_target >= 0 ? figures_share(t->header[c_target], table_number(t, r, c_target))
                              : NAN,
    };
    if (!isnan(s.attainment)) {
      with++;
      if (!isnan(s.target) && s.attainment >= s.target) meeting++;
    }
    g_array_append_val(f->services, s);
  }
  figures_set(f, "services:count", f->services->len);
  if (!f->services_slo) return;
  figures_set(f, "services:with_slo", with);
  if (c_target >= 0) figures_set(f, "services:meeting_target", meeting);
  figures_set(f, "services:min_attainment", figures_min_attainment(f, NULL, NULL));
}

/* llm.csv (the LLM servers, one row each): the worst server's TTFT and TPOT percentiles and
 * the goodput summed over the servers; nothing when the file is absent or has no server. */
static void figures_read_llm(run_figures *f, const char *path) {
  g_autoptr(GError) err = NULL;
  g_autoptr(table) t = table_load(path, &err);
  if (!t || t->rows->len == 0) return;
  static const char *const worst[] = {"ttft_p50_ms", "ttft_p99_ms", "tpot_p50_ms", "tpot_p99_ms"};
  figures_set(f, "llm:servers", t->rows->len);
  for (guint k = 0; k < G_N_ELEMENTS(worst); k++) {
    int c = table_column(t, worst[k]);
    double w = NAN;
    for (guint r = 0; c >= 0 && r < t->rows->len; r++) {
      double v = table_number(t, r, c);
      if (isfinite(v) && !(v <= w)) w = v; /* the first finite value, then the largest */
    }
    g_autofree char *key = g_strconcat("llm:", worst[k], NULL);
    figures_set(f, key, w);
  }
  int c = table_column(t, "goodput_rps");
  double sum = c >= 0 ? 0 : NAN;
  for (guint r = 0; c >= 0 && r < t->rows->len; r++) {
    double v = table_number(t, r, c);
    if (isfinite(v)) sum += v;
  }
  figures_set(f, "llm:goodput_rps", sum);
}

void figures_table_line(GString *out, char *const *cells, const gsize *width, guint ncols,
                        guint skip) {
  gsize start = out->len;
  for (guint c = 0; c < ncols; c++) {
    if (skip & (1u << c)) continue;
    gsize w = (gsize)g_utf8_strlen(cells[c], -1);
    if (c) g_string_append(out, "  ");
    for (gsize i = w; c && i < width[c]; i++) g_string_append_c(out, ' ');
    g_string_append(out, cells[c]);
    for (gsize i = w; !c && i < width[c]; i++) g_string_append_c(out, ' ');
  }
  while (out->len > start && out->str[out->len - 1] == ' ') g_string_truncate(out, out->len - 1);
  g_string_append_c(out, '\n');
}

run_figures *figures_load(const char *dir, GError **error) {
  g_return_val_if_fail(dir != NULL, NULL);
  g_autofree char *path = g_build_filename(dir, "summary.json", NULL);
  g_autofree char *json = NULL;
  gsize len = 0;
  GError *local = NULL;
  if (!g_file_test(dir, G_FILE_TEST_IS_DIR)) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT, "%s: not a folder", dir);
    return NULL;
  }
  if (!safeopen_contents(path, 0, &json, &len, &local)) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "%s: not a sharesim result folder (%s)", dir, local->message);
    g_error_free(local);
    return NULL;
  }
  run_figures *f = figures_parse(dir, json, len, error);
  if (!f) return NULL;
  g_autofree char *services = g_build_filename(dir, "services.csv", NULL);
  figures_read_services(f, services);
  g_autofree char *llm = g_build_filename(dir, "llm.csv", NULL);
  figures_read_llm(f, llm);
  figures_sort(f);
  return f;
}

static gint figures_cmp(gconstpointer a, gconstpointer b) {
  const figure *x = a, *y = b;
  if (x->section != y->section) return x->section < y->section ? -1 : 1;
  if (x->order != y->order) return x->order < y->order ? -1 : 1;
  return 0;
}

void figures_sort(run_figures *f) {
  /* g_array_sort is not stable; orders are unique within a run (generic figures carry
   * their position), so the result is deterministic */
  g_array_sort(f->figures, figures_cmp);
  g_hash_table_remove_all(f->by_key);
  for (guint i = 0; i < f->figures->len; i++)
    g_hash_table_insert(f->by_key, g_array_index(f->figures, figure, i).key,
                        GUINT_TO_POINTER(i + 1));
}

const figure *figures_find(const run_figures *f, const char *key) {
  gpointer idx = f && key ? g_hash_table_lookup(f->by_key, key) : NULL;
  return idx ? &g_array_index(f->figures, figure, GPOINTER_TO_UINT(idx) - 1) : NULL;
}

double figures_value(const run_figures *f, const char *key) {
  const figure *fig = figures_find(f, key);
  return fig ? fig->value : NAN;
}

double figures_min_attainment(const run_figures *f, const char *pool, const char **worst) {
  double min = NAN;
  if (worst) *worst = NULL;
  for (guint i = 0; i < f->services->len; i++) {
    const service_figure *s = &g_array_index(f->services, service_figure, i);
    if (isnan(s->attainment)) continue;
    if (pool && *s->pool && strcmp(s->pool, pool)) continue;
    if (isnan(min) || s->attainment < min) {
      min = s->attainment;
      if (worst) *worst = s->name;
    }
  }
  return min;
}

/* ---- formatting ---- */

static void figures_fmt(GString *out, const char *fmt, double v) {
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_ascii_formatd(buf, sizeof buf, fmt, v == 0 ? 0.0 : v);
  g_string_append(out, buf);
}

/* v with `decimals` decimals, or with as many as show its first two significant digits when
 * it would round to zero (0.0031, never 0.0 or 3.1e-03); signed: a leading + or -. */
static void figures_fixed(GString *out, double v, int decimals, gboolean sign) {
  double a = fabs(v);
  if (a > 0 && a < 0.5 * pow(10, -decimals))
    decimals = MIN(12, (int)ceil(-log10(a)) + 1);
  char fmt[16];
  g_snprintf(fmt, sizeof fmt, sign ? "%%+.%df" : "%%.%df", decimals);
  figures_fmt(out, fmt, v);
}

/* "12.3 s", "81 s", "45.5 m", "2.1 h", "3.5 d" (as the text summary writes durations). */
static void figures_duration(GString *out, double s) {
  static const struct { const char *unit; double seconds; } units[] = {
    {"s", 1}, {"m", 60}, {"h", 3600}, {"d", 86400},
  };
  gsize u = 0;
  while (u + 1 < G_N_ELEMENTS(units) && fabs(s) / units[u].seconds >= 99.95) u++;
  double v = s / units[u].seconds;
  figures_fmt(out, fabs(v) >= 99.95 ? "%.0f" : "%.3g", v);
  g_string_append_printf(out, " %s", units[u].unit);
}

static void figures_plain(GString *out, double v) {
  if (v == trunc(v) && fabs(v) < 1e15)
    figures_fmt(out, "%.0f", v);
  else
    figures_fmt(out, fabs(v) >= 1000 ? "%.1f" : "%.4g", v);
}

void figures_format(GString *out, figure_unit unit, double v) {
  if (!isfinite(v)) {
    g_string_append_c(out, '-');
    return;
  }
  switch (unit) {
  case FIGURE_COUNT: figures_plain(out, v); break;
  case FIGURE_NUMBER: figures_plain(out, v); break;
  case FIGURE_RATIO: figures_fmt(out, "%.2f", v); g_string_append_c(out, 'x'); break;
  case FIGURE_FRACTION: figures_fmt(out, "%.1f", v * 100); g_string_append(out, " %"); break;
  case FIGURE_PERCENT: figures_fmt(out, "%.1f", v); g_string_append(out, " %"); break;
  case FIGURE_SECONDS: figures_duration(out, v); break;
  case FIGURE_MILLISECONDS: figures_fmt(out, "%.1f", v); g_string_append(out, " ms"); break;
  case FIGURE_HOURS: figures_fmt(out, "%.2f", v); g_string_append(out, " h"); break;
  case FIGURE_GPU_HOURS: figures_fmt(out, "%.1f", v); g_string_append(out, " GPU-h"); break;
  case FIGURE_MONEY:
    if (v < 0) g_string_append_c(out, '-');
    g_string_append_c(out, '$');
    figures_fmt(out, "%.2f", fabs(v));
    break;
  case FIGURE_MONEY_PER_HOUR:
    if (v < 0) g_string_append_c(out, '-');
    g_string_append_c(out, '$');
    figures_fmt(out, "%.2f", fabs(v));
    g_string_append(out, "/GPU-h");
    break;
  }
}

void figures_format_delta(GString *out, figure_unit unit, double v, double base) {
  if (!isfinite(v) || !isfinite(base)) {
    g_string_append_c(out, '-');
    return;
  }
  double d = v - base;
  if (d == 0) {
    g_string_append_c(out, '0');
    return;
  }
  g_string_append_c(out, d > 0 ? '+' : '-');
  double a = fabs(d);
  /* a difference too small for one decimal keeps two significant digits: "-0.0 pp" beside
   * 304 more violations read as no difference (issue 11 bug 9) */
  switch (unit) {
  case FIGURE_FRACTION:
    figures_fixed(out, a * 100, 1, FALSE);
    g_string_append(out, " pp");
    return;
  case FIGURE_PERCENT:
    figures_fixed(out, a, 1, FALSE);
    g_string_append(out, " pp");
    return;
  case FIGURE_RATIO:
    figures_fixed(out, a, 2, FALSE);
    g_string_append_c(out, 'x');
    return;
  default: figures_format(out, unit, a); break;
  }
  if (base != 0 && unit != FIGURE_NUMBER) {
    g_string_append(out, " (");
    figures_fixed(out, d / fabs(base) * 100, 1, TRUE);
    g_string_append(out, " %)");
  }
}

const char *figures_unit_name(figure_unit unit) {
  switch (unit) {
  case FIGURE_COUNT: return "count";
  case FIGURE_NUMBER: return "number";
  case FIGURE_RATIO: return "ratio";
  case FIGURE_FRACTION: return "fraction";
  case FIGURE_PERCENT: return "percent";
  case FIGURE_SECONDS: return "s";
  case FIGURE_MILLISECONDS: return "ms";
  case FIGURE_HOURS: return "h";
  case FIGURE_GPU_HOURS: return "GPU-h";
  case FIGURE_MONEY: return "$";
  case FIGURE_MONEY_PER_HOUR: return "$/GPU-h";
  }
  return "number";
}

void figures_json_string(GString *out, const char *s) {
  g_autofree char *valid = g_utf8_make_valid(s ? s : "", -1);
  g_string_append_c(out, '"');
  for (const unsigned char *p = (const unsigned char *)valid; *p; p++) {
    switch (*p) {
    case '"': g_string_append(out, "\\\""); break;
    case '\\': g_string_append(out, "\\\\"); break;
    case '\n': g_string_append(out, "\\n"); break;
    case '\r': g_string_append(out, "\\r"); break;
    case '\t': g_string_append(out, "\\t"); break;
    default:
      if (*p < 0x20 || *p == 0x7f)
        g_string_append_printf(out, "\\u%04x", *p);
      else
        g_string_append_c(out, (char)*p);
    }
  }
  g_string_append_c(out, '"');
}

void figures_json_number(GString *out, double v) {
  if (!isfinite(v)) {
    g_string_append(out, "null");
    return;
  }
  report_num(out, v);
}
