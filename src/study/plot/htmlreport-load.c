/* htmlreport-load.c: reads the set-ups of the report (htmlreport-int.h) from the folders given:
 * result, seeds, model-range, compare, sweep and plan folders. Per set-up it keeps the figures
 * (figures.h; seed means with their intervals), the small tables, the busy share over time, each
 * class's slowdown from jobs.csv, the blast radius of faults from events.csv, and the SHA-256 of
 * what it read. Nothing read is trusted: a missing or malformed file gives NAN, not a crash. */
#include "htmlreport-int.h"
#include "compare.h"
#include "jsonlimit.h"
#include "seeds.h"
#include "sweep.h"
#include "svg.h"
#include "util.h"
#include <math.h>
#include <string.h>

#define HR_MAX_POINTS 480 /* points per line of the utilisation chart (averaged bins) */

void hr_text(GString *out, const char *s) {
  g_autofree char *c = figures_clean_text(s);
  svg_escape(out, c);
}

double hr_fig(const hr_run *r, const char *key) { return figures_value(r->f, key); }

double hr_half(const hr_run *r, const char *key) {
  if (!r->seed_runs || r->seed_runs->len < 2) return NAN;
  seeds_stat s;
  seeds_stat_key(r->seed_runs, key, &s);
  return s.half;
}

gboolean hr_range(const hr_run *r, const char *key, double *lo, double *hi) {
  if (!r->model_range) return FALSE;
  int ck = table_column(r->model_range, "key"), cl = table_column(r->model_range, "range_low");
  int ch = table_column(r->model_range, "range_high");
  for (guint i = 0; i < r->model_range->rows->len; i++)
    if (!strcmp(table_cell(r->model_range, i, ck), key)) {
      *lo = table_number(r->model_range, i, cl);
      *hi = table_number(r->model_range, i, ch);
      return isfinite(*lo) && isfinite(*hi);
    }
  return FALSE;
}

double hr_month(const hr_run *r) {
  double h = r->f->span_s / 3600.0;
  return h > 0 ? hr_fig(r, "cost") / h * HR_HOURS_PER_MONTH : NAN;
}

double hr_month_half(const hr_run *r) {
  if (!r->seed_runs || r->seed_runs->len < 2) return NAN;
  double *v = g_new0(double, r->seed_runs->len);
  for (guint i = 0; i < r->seed_runs->len; i++) {
    const run_figures *f = g_ptr_array_index(r->seed_runs, i);
    v[i] = f->span_s > 0 ? figures_value(f, "cost") / (f->span_s / 3600) * HR_HOURS_PER_MONTH : NAN;
  }
  seeds_stat s;
  seeds_stat_of(v, r->seed_runs->len, &s);
  g_free(v);
  return s.half;
}

const hr_class *hr_class_of(const hr_run *r, const char *kind) {
  for (guint i = 0; r->classes && i < r->classes->len; i++)
    if (!strcmp(g_array_index(r->classes, hr_class, i).kind, kind))
      return &g_array_index(r->classes, hr_class, i);
  return NULL;
}

static table *hr_table(const char *dir, const char *name) {
  g_autofree char *p = g_build_filename(dir, name, NULL);
  return table_load(p, NULL);
}

static gboolean hr_has(const char *dir, const char *name) {
  g_autofree char *p = g_build_filename(dir, name, NULL);
  return g_file_test(p, G_FILE_TEST_IS_REGULAR);
}

/* SHA-256 of a regular file (never a FIFO or device a hand-edited folder may name), NULL
 * when it is none or cannot be read. Owned. */
static char *hr_sha256(const char *path) {
  if (!path || !*path || !g_file_test(path, G_FILE_TEST_IS_REGULAR)) return NULL;
  g_autoptr(GMappedFile) m = g_mapped_file_new(path, FALSE, NULL);
  if (!m) return NULL;
  return g_compute_checksum_for_data(G_CHECKSUM_SHA256,
                                     (const guchar *)g_mapped_file_get_contents(m),
                                     g_mapped_file_get_length(m));
}

void hr_run_free(hr_run *r) {
  if (!r) return;
  g_free(r->label);
  g_free(r->dir);
  figures_free(r->f);
  if (r->seed_runs) g_ptr_array_unref(r->seed_runs);
  table_free(r->pools);
  table_free(r->tenants);
  table_free(r->services);
  table_free(r->model_range);
  if (r->t) g_array_unref(r->t);
  if (r->busy) g_array_unref(r->busy);
  for (guint i = 0; r->classes && i < r->classes->len; i++)
    g_free(g_array_index(r->classes, hr_class, i).kind);
  if (r->classes) g_array_unref(r->classes);
  g_free(r->hash);
  g_free(r->trace_hash);
  if (r->settings) g_ptr_array_unref(r->settings);
  if (r->setting_names) g_ptr_array_unref(r->setting_names);
  g_free(r->sized_to);
  g_free(r->unmet);
  g_free(r);
}

void hr_plan_free(hr_plan *p) {
  if (!p) return;
  table_free(p->csv);
  table_free(p->pareto);
  g_ptr_array_unref(p->reasons);
  g_free(p->range);
  g_free(p);
}

/* GPUs of the pool named name (pools.csv), NAN when unknown. */
static double hr_pool_gpus(const hr_run *r, const char *name) {
  if (!r->pools || !name) return NAN;
  int cp = table_column(r->pools, "pool"), cg = table_column(r->pools, "gpus");
  for (guint i = 0; i < r->pools->rows->len; i++)
    if (!strcmp(table_cell(r->pools, i, cp), name)) return table_number(r->pools, i, cg);
  return NAN;
}

/* Busy share of all provisioned GPUs per interval: timeseries.csv summed over pools (each
 * pool weighted by its GPUs), averaged into at most HR_MAX_POINTS bins. */
static void hr_series(hr_run *r) {
  r->t = g_array_new(FALSE, FALSE, sizeof(double));
  r->busy = g_array_new(FALSE, FALSE, sizeof(double));
  g_autoptr(table) ts = hr_table(r->dir, "timeseries.csv");
  double gpus = hr_fig(r, "gpus");
  if (!ts || !(gpus > 0)) return;
  int ct = table_column(ts, "t_start_s"), cb = table_column(ts, "busy");
  int cp = table_column(ts, "pool");
  const char *last_pool = NULL;
  double w = NAN;
  g_autoptr(GHashTable) slot = g_hash_table_new(g_str_hash, g_str_equal);
  g_autoptr(GArray) t = g_array_new(FALSE, FALSE, sizeof(double));
  g_autoptr(GArray) b = g_array_new(FALSE, TRUE, sizeof(double));
  for (guint i = 0; i < ts->rows->len; i++) {
    const char *key = table_cell(ts, i, ct), *pool = table_cell(ts, i, cp);
    if (!last_pool || strcmp(pool, last_pool)) w = hr_pool_gpus(r, last_pool = pool);
    double tv = table_number(ts, i, ct), bv = w * table_number(ts, i, cb);
    if (!isfinite(tv)) continue;
    gpointer idx = g_hash_table_lookup(slot, key);
    if (!idx) {
      g_array_append_val(t, tv);
      g_array_set_size(b, t->len);
      idx = GUINT_TO_POINTER(t->len);
      g_hash_table_insert(slot, (gpointer)key, idx);
    }
    if (isfinite(bv)) g_array_index(b, double, GPOINTER_TO_UINT(idx) - 1) += bv;
  }
  guint per = (t->len + HR_MAX_POINTS - 1) / HR_MAX_POINTS;
  for (guint k = 0; per && k < t->len; k += per) {
    double sb = 0;
    guint m = 0;
    for (; m < per && k + m < t->len; m++) sb += g_array_index(b, double, k + m);
    double x = g_array_index(t, double, k), yb = 100 * sb / m / gpus;
    g_array_append_val(r->t, x);
    g_array_append_val(r->busy, yb);
  }
}

/* ---- slowdown per class (jobs.csv) and blast radius (events.csv) ---- */

typedef struct hr_jobs {
  int kind, slow, stretch, id, tenant;
  GHashTable *by_kind;    /* kind -> GArray of double */
  GPtrArray *order;       /* kinds in order of first appearance (borrowed from by_kind) */
  GHashTable *want;       /* job id -> tenant (NULL value until seen), jobs events named */
} hr_jobs;

static gboolean hr_stop(const char *const *cells, guint n, gpointer user) {
  (void)cells, (void)n, (void)user;
  return FALSE;
}

/* The header of the CSV file at path (reading stops at its first row), NULL without. */
static char **hr_header(const char *path) {
  char **header = NULL;
  if (g_file_test(path, G_FILE_TEST_IS_REGULAR)) table_foreach(path, &header, hr_stop, NULL, NULL);
  return header;
}

static int hr_col(char **header, const char *name) {
  for (int i = 0; header && header[i]; i++)
    if (!strcmp(header[i], name)) return i;
  return -1;
}

static const char *hr_cell(const char *const *cells, guint n, int col) {
  return col >= 0 && (guint)col < n && cells[col] ? cells[col] : "";
}

static gboolean hr_jobs_row(const char *const *cells, guint n, gpointer user) {
  hr_jobs *j = user;
  const char *kind = hr_cell(cells, n, j->kind);
  double x;
  if (!util_parse_double(hr_cell(cells, n, j->slow), &x) &&
      !util_parse_double(hr_cell(cells, n, j->stretch), &x))
    x = NAN;
  if (*kind && isfinite(x)) {
    GArray *v = g_hash_table_lookup(j->by_kind, kind);
    if (!v) {
      v = g_array_new(FALSE, FALSE, sizeof(double));
      char *k = g_strdup(kind);
      g_hash_table_insert(j->by_kind, k, v);
      g_ptr_array_add(j->order, k);
    }
    g_array_append_val(v, x);
  }
  const char *id = hr_cell(cells, n, j->id);
  if (j->want && g_hash_table_contains(j->want, id))
    g_hash_table_insert(j->want, g_strdup(id), g_strdup(hr_cell(cells, n, j->tenant)));
  return TRUE;
}

static gint hr_cmp_double(gconstpointer a, gconstpointer b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Mean and 95th percentile (nearest rank, as plan judges it) of v; sorts v. */
static void hr_mean_p95(GArray *v, double *mean, double *p95) {
  double s = 0;
  for (guint i = 0; i < v->len; i++) s += g_array_index(v, double, i);
  g_array_sort(v, hr_cmp_double);
  guint idx = (guint)ceil(0.95 * v->len);
  *mean = v->len ? s / v->len : NAN;
  *p95 = v->len ? g_array_index(v, double, MAX(idx, 1u) - 1) : NAN;
}

typedef struct hr_events {
  int event, job, cause, t;
  GHashTable *faults;     /* "t|cause" -> GPtrArray of owned job ids */
  GHashTable *want;       /* job id -> NULL */
} hr_events;

static gboolean hr_events_row(const char *const *cells, guint n, gpointer user) {
  hr_events *e = user;
  if (strcmp(hr_cell(cells, n, e->event), "oom_kill")) return TRUE;
  const char *job = hr_cell(cells, n, e->job), *cause = hr_cell(cells, n, e->cause);
  g_autofree char *key = g_strdup_printf("%s|%s", hr_cell(cells, n, e->t), cause);
  GPtrArray *jobs = g_hash_table_lookup(e->faults, key);
  if (!jobs) {
    jobs = g_ptr_array_new_with_free_func(g_free);
    g_hash_table_insert(e->faults, g_strdup(key), jobs);
  }
  g_ptr_array_add(jobs, g_strdup(job));
  g_hash_table_insert(e->want, g_strdup(job), NULL);
  return TRUE;
}

/* The faults of dir/events.csv: "time|cause" -> the jobs one out-of-memory fault killed
 * (the culprit and its victims); *want receives every job id named. Owned. */
static GHashTable *hr_faults(const char *dir, GHashTable *want) {
  GHashTable *faults = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
                                             (GDestroyNotify)g_ptr_array_unref);
  g_autofree char *p = g_build_filename(dir, "events.csv", NULL);
  g_auto(GStrv) header = hr_header(p);
  hr_events e = {.faults = faults, .want = want};
  if (header) {
    e.event = hr_col(header, "event");
    e.job = hr_col(header, "job");
    e.cause = hr_col(header, "cause_job");
    e.t = hr_col(header, "t_s");
    if (e.event >= 0 && e.job >= 0 && e.cause >= 0 && e.t >= 0)
      table_foreach(p, NULL, hr_events_row, &e, NULL);
  }
  return faults;
}

/* Most jobs, and most tenants, that one fault killed. */
static void hr_blast_of(GHashTable *faults, GHashTable *tenants, double *jobs, double *ten) {
  GHashTableIter it;
  gpointer k, v;
  *jobs = *ten = 0;
  g_hash_table_iter_init(&it, faults);
  while (g_hash_table_iter_next(&it, &k, &v)) {
    GPtrArray *a = v;
    g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
    g_autoptr(GHashTable) who = g_hash_table_new(g_str_hash, g_str_equal);
    for (guint i = 0; i < a->len; i++) {
      g_hash_table_add(seen, g_ptr_array_index(a, i));
      const char *t = g_hash_table_lookup(tenants, g_ptr_array_index(a, i));
      if (t && *t) g_hash_table_add(who, (gpointer)t);
    }
    *jobs = MAX(*jobs, g_hash_table_size(seen));
    *ten = MAX(*ten, g_hash_table_size(who));
  }
}

typedef struct hr_measure {
  GPtrArray *kinds;       /* char*, owned */
  GArray *mean, *p95;     /* double per kind */
  double blast_jobs, blast_tenants;
} hr_measure;

/* One run folder's classes and blast radius. */
static void hr_measure_dir(const char *dir, hr_measure *m) {
  g_autoptr(GHashTable) want = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) faults = hr_faults(dir, want);
  hr_jobs j = {.by_kind = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
                                                (GDestroyNotify)g_array_unref),
               .order = g_ptr_array_new(), .want = want};
  g_autofree char *p = g_build_filename(dir, "jobs.csv", NULL);
  g_auto(GStrv) header = hr_header(p);
  if (header) {
    j.kind = hr_col(header, "kind");
    j.slow = hr_col(header, "slowdown");
    j.stretch = hr_col(header, "burst_stretch");
    j.id = hr_col(header, "id");
    j.tenant = hr_col(header, "tenant");
    table_foreach(p, NULL, hr_jobs_row, &j, NULL);
  }
  m->kinds = g_ptr_array_new_with_free_func(g_free);
  m->mean = g_array_new(FALSE, FALSE, sizeof(double));
  m->p95 = g_array_new(FALSE, FALSE, sizeof(double));
  for (guint i = 0; i < j.order->len; i++) {
    double mean, p95;
    hr_mean_p95(g_hash_table_lookup(j.by_kind, g_ptr_array_index(j.order, i)), &mean, &p95);
    g_ptr_array_add(m->kinds, g_strdup(g_ptr_array_index(j.order, i)));
    g_array_append_val(m->mean, mean);
    g_array_append_val(m->p95, p95);
  }
  hr_blast_of(faults, want, &m->blast_jobs, &m->blast_tenants);
  g_ptr_array_unref(j.order);
  g_hash_table_destroy(j.by_kind);
}

static void hr_measure_clear(hr_measure *m) {
  g_ptr_array_unref(m->kinds);
  g_array_unref(m->mean);
  g_array_unref(m->p95);
}

/* The value of kind in m (from which: mean or p95), NAN when m has no such class. */
static double hr_measure_of(const hr_measure *m, GArray *which, const char *kind) {
  for (guint i = 0; i < m->kinds->len; i++)
    if (!strcmp(g_ptr_array_index(m->kinds, i), kind)) return g_array_index(which, double, i);
  return NAN;
}

/* r's classes and blast radius: of its folder, or the means over its seeds' folders. */
static void hr_measures(hr_run *r) {
  guint n = r->seed_runs ? r->seed_runs->len : 1;
  hr_measure *m = g_new0(hr_measure, n);
  for (guint s = 0; s < n; s++)
    hr_measure_dir(r->seed_runs ? ((run_figures *)g_ptr_array_index(r->seed_runs, s))->dir
                                : r->dir, &m[s]);
  r->classes = g_array_new(FALSE, TRUE, sizeof(hr_class));
  double *v = g_new0(double, n), *w = g_new0(double, n), *b = g_new0(double, n);
  for (guint k = 0; k < m[0].kinds->len; k++) {
    const char *kind = g_ptr_array_index(m[0].kinds, k);
    for (guint s = 0; s < n; s++) {
      v[s] = hr_measure_of(&m[s], m[s].mean, kind);
      w[s] = hr_measure_of(&m[s], m[s].p95, kind);
    }
    seeds_stat sm, sp;
    seeds_stat_of(v, n, &sm);
    seeds_stat_of(w, n, &sp);
    hr_class c = {g_strdup(kind), sm.mean, sp.mean, sm.half, sp.half, NAN, NAN, NAN, NAN};
    g_array_append_val(r->classes, c);
  }
  seeds_stat sb, st;
  for (guint s = 0; s < n; s++) b[s] = m[s].blast_jobs, w[s] = m[s].blast_tenants;
  seeds_stat_of(b, n, &sb);
  seeds_stat_of(w, n, &st);
  r->blast_jobs = sb.mean;
  r->blast_half = sb.half;
  r->blast_tenants = st.mean;
  for (guint s = 0; s < n; s++) hr_measure_clear(&m[s]);
  g_free(m);
  g_free(v);
  g_free(w);
  g_free(b);
}

/* ---- the folders ---- */

/* Fills r (label, figures, seeds set) from its folder's files; takes f. */
static hr_run *hr_run_new(run_figures *f, GPtrArray *seed_runs, const char *label,
                          const char *hashed) {
  hr_run *r = g_new0(hr_run, 1);
  r->f = f;
  r->seed_runs = seed_runs;
  r->dir = g_strdup(seed_runs ? ((run_figures *)g_ptr_array_index(seed_runs, 0))->dir : f->dir);
  r->label = g_strdup(label ? label : f->scenario && *f->scenario ? f->scenario : f->dir);
  r->pools = hr_table(r->dir, "pools.csv");
  r->tenants = hr_table(r->dir, "tenants.csv");
  r->services = hr_table(r->dir, "services.csv");
  r->days = f->span_s / 86400.0;
  r->blast_lo = r->blast_hi = r->typed_gpus = NAN;
  r->hash = hr_sha256(hashed);
  r->trace_hash = hr_sha256(f->trace_file);
  hr_series(r);
  hr_measures(r);
  return r;
}

/* A result or seeds folder (label NULL: its scenario's name). */
static hr_run *hr_load_run(const char *dir, const char *label, GError **error) {
  if (seeds_is_dir(dir)) {
    seeds_table *t = seeds_load_dir(dir, error);
    if (!t) return NULL;
    GPtrArray *seed_runs = g_ptr_array_new_with_free_func((GDestroyNotify)figures_free);
    for (guint i = 0; i < t->runs->len; i++)
      g_ptr_array_add(seed_runs, figures_copy(g_ptr_array_index(t->runs, i), NULL));
    run_figures *mean = seeds_mean(t->runs, dir);
    seeds_free(t);
    g_autofree char *json = g_build_filename(dir, "seeds.json", NULL);
    return hr_run_new(mean, seed_runs, label, json);
  }
  run_figures *f = figures_load(dir, error);
  if (!f) return NULL;
  g_autofree char *summary = g_build_filename(dir, "summary.json", NULL);
  return hr_run_new(f, NULL, label, summary);
}

/* The JSON object at dir/name, NULL when it is none (the parser is returned in *parser). */
static JsonObject *hr_json(const char *dir, const char *name, JsonParser **parser) {
  g_autofree char *p = g_build_filename(dir, name, NULL);
  *parser = json_parser_new();
  if (!jsonlimit_load_file(*parser, p, NULL, NULL, NULL)) return NULL;
  JsonNode *root = json_parser_get_root(*parser);
  return root && JSON_NODE_HOLDS_OBJECT(root) ? json_node_get_object(root) : NULL;
}

/* Member name of o as a string, NULL when it is none. */
static const char *hr_json_str(JsonObject *o, const char *name) {
  JsonNode *n = o ? json_object_get_member(o, name) : NULL;
  return n && JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_STRING
             ? json_node_get_string(n) : NULL;
}

/* The lowest (end 0) or highest (end 1) of a measure over r's own value own and each
 * setting's get(setting, what); NAN when r has no settings. */
static double hr_over_settings(const hr_run *r, double own, double (*get)(const hr_run *, gconstpointer),
                               gconstpointer what, int end) {
  if (!r->settings) return NAN;
  double v = own;
  for (guint s = 0; s < r->settings->len; s++) {
    double x = get(g_ptr_array_index(r->settings, s), what);
    if (!isfinite(x)) continue;
    if (!isfinite(v) || (end ? x > v : x < v)) v = x;
  }
  return v;
}

static double hr_get_mean(const hr_run *r, gconstpointer kind) {
  const hr_class *c = hr_class_of(r, kind);
  return c ? c->mean : NAN;
}

static double hr_get_p95(const hr_run *r, gconstpointer kind) {
  const hr_class *c = hr_class_of(r, kind);
  return c ? c->p95 : NAN;
}

static double hr_get_blast(const hr_run *r, gconstpointer unused) {
  (void)unused;
  return r->blast_jobs;
}

/* The settings of the model-range folder mrdir (model-range.json's constants, each at its
 * low and high end: their folders read as seeds folders) into r, with the ranges over them
 * of each class's slowdown and of the blast radius. Without every setting readable, none. */
static void hr_load_settings(hr_run *r, const char *mrdir) {
  g_autoptr(JsonParser) parser = NULL;
  JsonObject *o = hr_json(mrdir, "model-range.json", &parser);
  JsonNode *cn = o ? json_object_get_member(o, "constants") : NULL;
  if (!cn || !JSON_NODE_HOLDS_ARRAY(cn)) return;
  JsonArray *a = json_node_get_array(cn);
  GPtrArray *runs = g_ptr_array_new_with_free_func((GDestroyNotify)hr_run_free);
  GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
  static const char *const ends[][2] = {{"low", "low_folder"}, {"high", "high_folder"}};
  for (guint i = 0; runs && i < json_array_get_length(a); i++)
    for (guint e = 0; runs && e < 2; e++) {
      JsonNode *en = json_array_get_element(a, i);
      JsonObject *c = JSON_NODE_HOLDS_OBJECT(en) ? json_node_get_object(en) : NULL;
      const char *key = hr_json_str(c, "key"), *val = hr_json_str(c, ends[e][0]);
      const char *folder = hr_json_str(c, ends[e][1]);
      g_autofree char *p = folder && !strchr(folder, '/') ? g_build_filename(mrdir, folder, NULL) : NULL;
      hr_run *s = p && key && val ? hr_load_run(p, NULL, NULL) : NULL;
      if (!s) {
        g_ptr_array_unref(runs), g_ptr_array_unref(names);
        runs = names = NULL;
        break;
      }
      g_ptr_array_add(runs, s);
      g_ptr_array_add(names, g_strdup_printf("%s=%s", key, val));
    }
  if (!runs) return;
  r->settings = runs;
  r->setting_names = names;
  for (guint k = 0; k < r->classes->len; k++) {
    hr_class *c = &g_array_index(r->classes, hr_class, k);
    c->mean_lo = hr_over_settings(r, c->mean, hr_get_mean, c->kind, 0);
    c->mean_hi = hr_over_settings(r, c->mean, hr_get_mean, c->kind, 1);
    c->p95_lo = hr_over_settings(r, c->p95, hr_get_p95, c->kind, 0);
    c->p95_hi = hr_over_settings(r, c->p95, hr_get_p95, c->kind, 1);
  }
  r->blast_lo = hr_over_settings(r, r->blast_jobs, hr_get_blast, NULL, 0);
  r->blast_hi = hr_over_settings(r, r->blast_jobs, hr_get_blast, NULL, 1);
}

/* The model-range folder a run folder dir belongs to: dir itself, the folder around its
 * base/ run, or around base/seed-S (as compare --model-range lists each scenario); NULL
 * when none. Owned. */
static char *hr_range_dir(const char *dir) {
  if (hr_has(dir, "model-range.json")) return g_strdup(dir);
  g_autofree char *name = g_path_get_basename(dir), *parent = g_path_get_dirname(dir);
  if (!strcmp(name, "base") && hr_has(parent, "model-range.json")) return g_steal_pointer(&parent);
  g_autofree char *pname = g_path_get_basename(parent), *grand = g_path_get_dirname(parent);
  if (g_str_has_prefix(name, "seed-") && !strcmp(pname, "base") && hr_has(grand, "model-range.json"))
    return g_steal_pointer(&grand);
  return NULL;
}

/* One set-up folder (result, seeds or model-range). A model-range folder is its base/ run;
 * that run, given itself or listed by a compare folder, gets the folder's ranges
 * (model-range.csv) and its runs at each setting. */
static gboolean hr_load_one(const char *dir, const char *label, GPtrArray *runs,
                            GError **error) {
  g_autofree char *mr = hr_range_dir(dir);
  g_autofree char *base = mr && !strcmp(mr, dir) ? g_build_filename(dir, "base", NULL) : NULL;
  hr_run *r = hr_load_run(base ? base : dir, label, error);
  if (r && mr) {
    r->model_range = hr_table(mr, "model-range.csv");
    hr_load_settings(r, mr);
  }
  if (r) g_ptr_array_add(runs, r);
  return r != NULL;
}

static gboolean hr_load_sweep(const char *dir, GPtrArray *runs, GError **error) {
  g_autoptr(sweep_spec) s = sweep_manifest_load(dir, error);
  if (!s) return FALSE;
  for (guint i = 0; i < s->names->len && g_ptr_array_index(s->names, i); i++) {
    const char *name = g_ptr_array_index(s->names, i);
    if (!sweep_point_done(dir, name)) continue;
    g_autofree char *p = sweep_point_dir(dir, name);
    if (!hr_load_one(p, name, runs, error)) return FALSE;
  }
  return TRUE;
}

/* A plan folder's plan.csv, pareto.csv and plan.txt's binding constraint of each class, in order, and
 * its model-range line (plan --model-range). */
static hr_plan *hr_load_plan(const char *dir) {
  hr_plan *p = g_new0(hr_plan, 1);
  p->csv = hr_table(dir, "plan.csv");
  p->pareto = hr_table(dir, "pareto.csv");
  p->reasons = g_ptr_array_new_with_free_func(g_free);
  g_autofree char *path = g_build_filename(dir, "plan.txt", NULL), *text = NULL;
  if (!g_file_get_contents(path, &text, NULL, NULL)) return p;
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  for (guint i = 0; lines[i]; i++) {
    const char *l = lines[i];
    while (*l == ' ') l++;
    if (g_str_has_prefix(l, "binding constraint:"))
      g_ptr_array_add(p->reasons, g_strdup(l));
    if (!p->range && g_str_has_prefix(l, "model range: "))
      p->range = g_strdup(l + strlen("model range: "));
  }
  return p;
}

/* compare --size-to-constraints: compare.json's "sizing" (its constraints, and per run in
 * order the GPUs typed and the pools met at no size) into the runs from first on. */
static void hr_load_sizing(const char *dir, GPtrArray *runs, guint first) {
  g_autoptr(JsonParser) parser = NULL;
  JsonObject *o = hr_json(dir, "compare.json", &parser);
  JsonNode *zn = o ? json_object_get_member(o, "sizing") : NULL;
  JsonObject *z = zn && JSON_NODE_HOLDS_OBJECT(zn) ? json_node_get_object(zn) : NULL;
  JsonNode *rn = z ? json_object_get_member(z, "runs") : NULL;
  const char *cons = hr_json_str(z, "constraints");
  if (!cons || !rn || !JSON_NODE_HOLDS_ARRAY(rn)) return;
  JsonArray *a = json_node_get_array(rn);
  for (guint i = 0; i < json_array_get_length(a) && first + i < runs->len; i++) {
    JsonNode *en = json_array_get_element(a, i);
    JsonObject *e = JSON_NODE_HOLDS_OBJECT(en) ? json_node_get_object(en) : NULL;
    JsonNode *tn = e ? json_object_get_member(e, "typed_gpus") : NULL;
    JsonNode *un = e ? json_object_get_member(e, "unmet_pools") : NULL;
    hr_run *r = g_ptr_array_index(runs, first + i);
    r->sized_to = g_strdup(cons);
    r->typed_gpus = tn && JSON_NODE_HOLDS_VALUE(tn) ? json_node_get_double(tn) : NAN;
    GString *unmet = g_string_new(NULL);
    JsonArray *ua = un && JSON_NODE_HOLDS_ARRAY(un) ? json_node_get_array(un) : NULL;
    for (guint k = 0; ua && k < json_array_get_length(ua); k++) {
      JsonNode *pn = json_array_get_element(ua, k);
      if (JSON_NODE_HOLDS_VALUE(pn) && json_node_get_value_type(pn) == G_TYPE_STRING)
        g_string_append_printf(unmet, "%s%s", unmet->len ? ", " : "", json_node_get_string(pn));
    }
    r->unmet = g_string_free(unmet, FALSE);
  }
}

void hr_unique_labels(GPtrArray *runs) {
  for (guint i = 1; i < runs->len; i++) {
    hr_run *r = g_ptr_array_index(runs, i);
    gboolean taken = FALSE;
    for (guint k = 0; k < i && !taken; k++)
      taken = !strcmp(((hr_run *)g_ptr_array_index(runs, k))->label, r->label);
    if (!taken) continue;
    g_autofree char *base = g_path_get_basename(r->seed_runs ? r->f->dir : r->dir);
    char *l = g_strdup_printf("%s (%s)", r->label, base);
    g_free(r->label);
    r->label = l;
  }
}

gboolean hr_load_dir(const char *dir, GPtrArray *runs, hr_plan **plan, GError **error) {
  if (hr_has(dir, "summary.json") || hr_has(dir, "seeds.json") ||
      hr_has(dir, "model-range.json"))
    return hr_load_one(dir, NULL, runs, error);
  if (hr_has(dir, "compare.json")) {
    g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func(g_free);
    if (!compare_dir_folders(dir, paths, error)) return FALSE;
    guint first = runs->len;
    for (guint i = 0; i < paths->len; i++)
      if (!hr_load_one(g_ptr_array_index(paths, i), NULL, runs, error)) return FALSE;
    hr_load_sizing(dir, runs, first);
    return TRUE;
  }
  if (hr_has(dir, "sweep.json")) return hr_load_sweep(dir, runs, error);
  if (hr_has(dir, "plan.csv")) {
    g_autofree char *rec = g_build_filename(dir, "recommended", NULL);
    if (!hr_load_one(rec, "recommended by plan", runs, error)) return FALSE;
    if (plan && !*plan) *plan = hr_load_plan(dir);
    return TRUE;
  }
  g_autofree char *shown = figures_clean_text(dir);
  g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
              "%s: not a result, seeds, model-range, compare, sweep or plan folder (no "
              "summary.json, seeds.json, model-range.json, compare.json, sweep.json or "
              "plan.csv)", shown);
  return FALSE;
}
