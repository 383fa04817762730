/* plot.c: the charts of `sharesim plot`: reads a result folder's CSV files (table.c),
 * writes each chart's data and script (a header of escaped variables, then a template
 * from plots/), and spawns gnuplot with an argument vector in the output folder. It
 * never builds a command line for a shell, and user text reaches gnuplot only through
 * plot_quote. Which folders to draw and where is cmd-plot.c's decision. */
#include "plot.h"
#include "catalog.h"
#include "caltime.h"
#include "outdir.h"
#include "spawn.h"
#include "table.h"
#include "util.h"
#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Most points per line over time and per distribution; more are averaged (time) or
 * sampled at even ranks (distributions). */
#define PLOT_MAX_TIME_POINTS 2000
#define PLOT_MAX_CDF_POINTS 1000
#define PLOT_MAX_TENANTS 15
#define PLOT_MAX_SERVICES 12
#define PLOT_MAX_QUOTED 200

void plot_report_init(plot_report *r) {
  r->images = g_ptr_array_new_with_free_func(g_free);
  r->scripts = g_ptr_array_new_with_free_func(g_free);
  r->skipped = g_ptr_array_new_with_free_func(g_free);
  r->failed = g_ptr_array_new_with_free_func(g_free);
  r->gnuplot_stopped = FALSE;
}

void plot_report_clear(plot_report *r) {
  g_clear_pointer(&r->images, g_ptr_array_unref);
  g_clear_pointer(&r->scripts, g_ptr_array_unref);
  g_clear_pointer(&r->skipped, g_ptr_array_unref);
  g_clear_pointer(&r->failed, g_ptr_array_unref);
}

const char *plot_template_text(const char *name) {
  for (const plot_template *t = plot_templates; t->name; t++)
    if (!strcmp(t->name, name)) return t->text;
  return NULL;
}

char **plot_parse_formats(const char *text, GError **error) {
  static const char *const valid[] = {"png", "svg", "pdf"};
  g_auto(GStrv) parts = g_strsplit(text ? text : "", ",", -1);
  GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
  for (guint i = 0; parts[i]; i++) {
    char *p = g_strstrip(parts[i]);
    gboolean ok = FALSE, dup = FALSE;
    for (guint v = 0; v < G_N_ELEMENTS(valid); v++) ok |= !strcmp(p, valid[v]);
    for (guint j = 0; j < out->len; j++) dup |= !strcmp(p, g_ptr_array_index(out, j));
    if (!ok || dup) {
      g_autofree char *shown = figures_clean_text(p);
      g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                  "--format: %s '%s'; expected a comma-separated list of png, svg, pdf",
                  dup ? "repeated format" : "unknown format", shown);
      g_ptr_array_free(out, TRUE);
      return NULL;
    }
    g_ptr_array_add(out, g_strdup(p));
  }
  if (out->len == 0) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "--format: expected a comma-separated list of png, svg, pdf");
    g_ptr_array_free(out, TRUE);
    return NULL;
  }
  g_ptr_array_add(out, NULL);
  return (char **)g_ptr_array_free(out, FALSE);
}

void plot_quote(GString *out, const char *text) {
  g_autofree char *valid = g_utf8_make_valid(text ? text : "", -1);
  g_string_append_c(out, '\'');
  glong n = 0;
  for (const char *p = valid; *p && n < PLOT_MAX_QUOTED; p = g_utf8_next_char(p), n++) {
    gunichar c = g_utf8_get_char(p);
    if (c == '\'')
      g_string_append(out, "''");
    else if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == 0x2028 || c == 0x2029)
      g_string_append_c(out, ' ');
    else
      g_string_append_len(out, p, g_utf8_next_char(p) - p);
  }
  g_string_append_c(out, '\'');
}

/* Text for a comment line: no line breaks, and no backslash (which would continue the
 * comment onto the next line). */
static char *plot_comment_text(const char *text) {
  char *s = figures_clean_text(text);
  for (char *p = s; *p; p++)
    if (*p == '\\') *p = '/';
  return s;
}

/* A number for a data file: "NaN" when undefined (common.gp sets it as missing). */
/* A time on the x axis: as plot_num, but a dated one (Unix seconds from a non-zero epoch)
 * keeps whole milliseconds. */
static void plot_num(GString *out, double v);
static void plot_time_num(GString *out, double epoch, double v) {
  if (epoch == 0 || !isfinite(v)) {
    plot_num(out, v);
    return;
  }
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_ascii_formatd(buf, sizeof buf, "%.13g", v);
  g_string_append(out, buf);
}

static void plot_num(GString *out, double v) {
  if (!isfinite(v)) {
    g_string_append(out, "NaN");
    return;
  }
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_ascii_formatd(buf, sizeof buf, "%.6g", v == 0 ? 0.0 : v);
  g_string_append(out, buf);
}

/* ---- writing charts ---- */

typedef struct plot_ctx {
  const char *out_dir;     /* where files are written: the temporary folder (or the final
                            * one when opt->direct) */
  const char *shown_dir;   /* the final folder, named in reports */
  outdir *od;              /* the temporary folder being filled, NULL when direct */
  const plot_options *opt;
  plot_report *rep;
  const char *source;      /* folder the data came from (for the script's comment) */
} plot_ctx;

static gboolean plot_write(const plot_ctx *c, const char *file, const GString *data,
                           GError **error) {
  g_autofree char *path = g_build_filename(c->out_dir, file, NULL);
  GError *local = NULL;
  if (!g_file_set_contents(path, data->str, (gssize)data->len, &local)) {
    g_autofree char *shown = g_build_filename(c->shown_dir, file, NULL);
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot write %s: %s", shown,
                local->message);
    g_error_free(local);
    return FALSE;
  }
  return TRUE;
}

/* Starts the output folder final (whole or not at all unless opt->direct) and writes the
 * files every script loads. */
static gboolean plot_prepare_dir(plot_ctx *c, const char *final, GError **error) {
  c->shown_dir = final;
  g_autofree char *parent = g_path_get_dirname(final);
  const char *mk = c->opt->direct ? final : parent;
  if (g_mkdir_with_parents(mk, 0755) != 0) {
    int e = errno;
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot create %s: %s", mk,
                g_strerror(e));
    return FALSE;
  }
  if (c->opt->direct) {
    c->out_dir = final;
  } else {
    if (!(c->od = outdir_begin(final, error))) return FALSE;
    c->out_dir = outdir_tmp_path(c->od);
  }
  static const char *const shared[] = {"common.gp", "terminal.gp"};
  for (guint i = 0; i < G_N_ELEMENTS(shared); i++) {
    GString s = {(char *)plot_template_text(shared[i]), strlen(plot_template_text(shared[i])), 0};
    if (!plot_write(c, shared[i], &s, error)) return FALSE;
  }
  return TRUE;
}

/* Renames the finished folder into place, or removes it when ok is FALSE: a chart folder
 * is never left half-written. */
static gboolean plot_finish(plot_ctx *c, gboolean ok, GError **error) {
  if (!c->od) return ok;
  outdir *od = g_steal_pointer(&c->od);
  if (!ok) {
    outdir_abort(od);
    return FALSE;
  }
  return outdir_commit(od, error);
}

void plot_report_rebase(plot_report *r, const char *from, const char *to) {
  GPtrArray *lists[] = {r->images, r->scripts, r->skipped, r->failed};
  gsize n = strlen(from);
  for (guint l = 0; l < G_N_ELEMENTS(lists); l++)
    for (guint i = 0; i < lists[l]->len; i++) {
      char *p = g_ptr_array_index(lists[l], i);
      if (strncmp(p, from, n) || (p[n] != '/' && p[n] != '\0')) continue;
      g_ptr_array_index(lists[l], i) = g_strconcat(to, p + n, NULL);
      g_free(p);
    }
}

/* Spawns gnuplot on script in the output folder; records the images it made. */
static void plot_draw(const plot_ctx *c, const char *name, const char *script) {
  if (!c->opt->gnuplot) return;
  if (c->rep->gnuplot_stopped) {
    g_ptr_array_add(c->rep->failed, g_strdup_printf("%s/%s: not drawn (an earlier gnuplot was "
                                                    "stopped at the time limit)", c->shown_dir,
                                                    script));
    return;
  }
  char *argv[] = {c->opt->gnuplot, (char *)script, NULL};
  double limit = c->opt->gnuplot_timeout_s > 0
                     ? c->opt->gnuplot_timeout_s
                     : spawn_timeout_from_env("SHARESIM_GNUPLOT_TIMEOUT", PLOT_GNUPLOT_TIMEOUT_S);
  g_autofree char *err = NULL;
  GError *local = NULL;
  if (!spawn_run_limited(c->out_dir, argv, limit, &err, &local)) {
    gboolean timed_out = local->domain == SHARESIM_ERROR;
    if (timed_out) c->rep->gnuplot_stopped = TRUE;
    g_autofree char *said = figures_clean_text(err && *err && !timed_out ? g_strstrip(err)
                                                                          : local->message);
    g_ptr_array_add(c->rep->failed,
                    g_strdup_printf("%s/%s: gnuplot failed: %s%s", c->shown_dir, script, said,
                                    timed_out ? " (SHARESIM_GNUPLOT_TIMEOUT sets the limit)"
                                              : ""));
    g_clear_error(&local);
    return;
  }
  for (guint i = 0; c->opt->formats[i]; i++) {
    g_autofree char *file = g_strdup_printf("%s.%s", name, c->opt->formats[i]);
    g_autofree char *path = g_build_filename(c->out_dir, file, NULL);
    g_autofree char *shown = g_build_filename(c->shown_dir, file, NULL);
    GStatBuf st;
    if (g_stat(path, &st) == 0 && st.st_size > 0)
      g_ptr_array_add(c->rep->images, g_steal_pointer(&shown));
    else
      g_ptr_array_add(c->rep->failed, g_strdup_printf("%s: gnuplot made no image", shown));
  }
}

/* Writes NAME.gp: the header (formats, size, output name, data file, title and vars),
 * then the template, then draws it. */
static gboolean plot_chart(const plot_ctx *c, const char *name, const char *template_name,
                           const char *title, const GString *vars, GError **error) {
  const char *body = plot_template_text(template_name);
  g_assert(body != NULL);
  GString *s = g_string_new(NULL);
  g_autofree char *src = plot_comment_text(c->source ? c->source : "");
  g_string_append_printf(s, "# %s.gp: written by sharesim plot from plots/%s", name, template_name);
  if (*src) g_string_append_printf(s, " with the data of %s", src);
  g_string_append_printf(s, ".\n# Draw again with: gnuplot %s.gp\n", name);
  g_string_append(s, "formats = ");
  g_autofree char *fmts = g_strjoinv(" ", c->opt->formats);
  plot_quote(s, fmts);
  g_string_append_printf(s, "\nwidth = %u\nheight = %u\nout = ", c->opt->width, c->opt->height);
  plot_quote(s, name);
  g_autofree char *dat = g_strdup_printf("%s.dat", name);
  g_string_append(s, "\ndatafile = ");
  plot_quote(s, dat);
  g_string_append(s, "\nchart_title = ");
  plot_quote(s, title);
  g_string_append_c(s, '\n');
  if (vars) g_string_append_len(s, vars->str, (gssize)vars->len);
  g_string_append(s, "load 'common.gp'\n\n");
  g_string_append(s, body);
  g_autofree char *script = g_strdup_printf("%s.gp", name);
  gboolean ok = plot_write(c, script, s, error);
  g_string_free(s, TRUE);
  if (!ok) return FALSE;
  g_ptr_array_add(c->rep->scripts, g_build_filename(c->shown_dir, script, NULL));
  plot_draw(c, name, script);
  return TRUE;
}

/* "array NAME[n]" and its elements, as quoted strings. */
static void plot_array(GString *vars, const char *var, const char *const *items, guint n) {
  g_string_append_printf(vars, "array %s[%u]\n", var, n);
  for (guint i = 0; i < n; i++) {
    g_string_append_printf(vars, "%s[%u] = ", var, i + 1);
    plot_quote(vars, items[i]);
    g_string_append_c(vars, '\n');
  }
}

static void plot_var(GString *vars, const char *var, const char *text) {
  g_string_append_printf(vars, "%s = ", var);
  plot_quote(vars, text);
  g_string_append_c(vars, '\n');
}

static void plot_skip(const plot_ctx *c, const char *chart, const char *why) {
  g_ptr_array_add(c->rep->skipped, g_strdup_printf("%s/%s: %s", c->shown_dir, chart, why));
}

/* ---- time grids: values averaged into time buckets ---- */

typedef struct plot_grid {
  guint ncols;
  GHashTable *rows;      /* bucket (gint64*) -> index into t/sums */
  GArray *keys;          /* gint64, bucket numbers */
  GArray *sums, *weights; /* ncols doubles per row */
  double bucket_s;
} plot_grid;

static plot_grid *plot_grid_new(guint ncols, double bucket_s) {
  plot_grid *g = g_new0(plot_grid, 1);
  g->ncols = ncols;
  g->rows = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
  g->keys = g_array_new(FALSE, FALSE, sizeof(gint64));
  g->sums = g_array_new(FALSE, TRUE, sizeof(double));
  g->weights = g_array_new(FALSE, TRUE, sizeof(double));
  g->bucket_s = bucket_s > 0 ? bucket_s : 1;
  return g;
}

static void plot_grid_free(plot_grid *g) {
  g_hash_table_destroy(g->rows);
  g_array_free(g->keys, TRUE);
  g_array_free(g->sums, TRUE);
  g_array_free(g->weights, TRUE);
  g_free(g);
}

/* Adds value v with weight w at time t_s into column col (NaN values are ignored). */
static void plot_grid_add(plot_grid *g, double t_s, guint col, double v, double w) {
  if (!isfinite(v) || !isfinite(t_s) || !(w > 0) || col >= g->ncols) return;
  double b = floor(t_s / g->bucket_s);
  if (!(fabs(b) < 1e15)) return;
  gint64 key = (gint64)b;
  gpointer idx = g_hash_table_lookup(g->rows, &key);
  guint row;
  if (!idx) {
    row = g->keys->len;
    g_array_append_val(g->keys, key);
    g_array_set_size(g->sums, (row + 1) * g->ncols);
    g_array_set_size(g->weights, (row + 1) * g->ncols);
    g_hash_table_insert(g->rows, g_memdup2(&key, sizeof key), GUINT_TO_POINTER(row + 1));
  } else {
    row = GPOINTER_TO_UINT(idx) - 1;
  }
  g_array_index(g->sums, double, row * g->ncols + col) += v * w;
  g_array_index(g->weights, double, row * g->ncols + col) += w;
}

static gint plot_cmp_row(gconstpointer a, gconstpointer b, gpointer keys) {
  gint64 x = g_array_index((GArray *)keys, gint64, *(const guint *)a);
  gint64 y = g_array_index((GArray *)keys, gint64, *(const guint *)b);
  return x < y ? -1 : x > y;
}

/* Rows in time order: epoch + bucket start / time_div, then each column's weighted mean
 * times scale (NaN where nothing was added). Returns the number of rows. */
static guint plot_grid_write(const plot_grid *g, GString *out, double epoch, double time_div,
                             const double *scale) {
  guint n = g->keys->len;
  guint *order = g_new(guint, n ? n : 1);
  for (guint i = 0; i < n; i++) order[i] = i;
  g_qsort_with_data(order, (gint)n, sizeof(guint), plot_cmp_row, g->keys);
  for (guint i = 0; i < n; i++) {
    guint r = order[i];
    plot_time_num(out, epoch,
                  epoch + (double)g_array_index(g->keys, gint64, r) * g->bucket_s / time_div);
    for (guint col = 0; col < g->ncols; col++) {
      double w = g_array_index(g->weights, double, r * g->ncols + col);
      double s = g_array_index(g->sums, double, r * g->ncols + col);
      g_string_append_c(out, ' ');
      plot_num(out, w > 0 ? s / w * (scale ? scale[col] : 1.0) : NAN);
    }
    g_string_append_c(out, '\n');
  }
  g_free(order);
  return n;
}

/* ---- one result folder ---- */

typedef struct plot_pool {
  char *name, *model;
  double gpus, cost, allocated_frac, busy_frac;
} plot_pool;

typedef struct plot_run_data {
  GArray *pools;            /* plot_pool */
  table *ts;                /* timeseries.csv or NULL */
  double span_s;            /* end of the last interval */
  double interval_s;
  const char *time_label;
  double time_div;          /* seconds per time unit */
  gboolean dated;           /* placed at a date (start:, or a trace's submit_utc): x is UTC */
  double epoch;             /* Unix seconds of second 0 when dated (time_div 1), else 0 */
} plot_run_data;

/* A run placed at a date draws its time axes as UTC dates: x in Unix seconds, and
 * common.gp switches gnuplot to time data when time_dated is set. */
static void plot_run_date(plot_run_data *d, double start_unix) {
  if (!isfinite(start_unix)) return;
  d->dated = TRUE;
  d->epoch = start_unix;
  d->time_div = 1;
  d->time_label = "time (UTC)";
}

static void plot_time_vars(GString *vars, const plot_run_data *d) {
  plot_var(vars, "time_label", d->time_label);
  if (d->dated) g_string_append(vars, "time_dated = 1\n");
}

static void plot_pool_clear(gpointer p) {
  plot_pool *pool = p;
  g_free(pool->name);
  g_free(pool->model);
}

static int plot_pool_index(GArray *pools, const char *name, gboolean add) {
  for (guint i = 0; i < pools->len; i++)
    if (!strcmp(g_array_index(pools, plot_pool, i).name, name)) return (int)i;
  if (!add) return -1;
  plot_pool p = {g_strdup(name), g_strdup(""), NAN, NAN, NAN, NAN};
  g_array_append_val(pools, p);
  return (int)pools->len - 1;
}

/* The pool names in order (borrowed strings); free the array only. */
static GPtrArray *plot_pool_names(const plot_run_data *d) {
  GPtrArray *names = g_ptr_array_new();
  for (guint i = 0; i < d->pools->len; i++)
    g_ptr_array_add(names, g_array_index(d->pools, plot_pool, i).name);
  return names;
}

static void plot_time_unit(double span_s, const char **label, double *div) {
  if (span_s > 3 * 86400) {
    *label = "time (days)";
    *div = 86400;
  } else if (span_s > 3 * 3600) {
    *label = "time (hours)";
    *div = 3600;
  } else {
    *label = "time (minutes)";
    *div = 60;
  }
}

static double plot_bucket(const plot_run_data *d) {
  double want = d->span_s / PLOT_MAX_TIME_POINTS;
  double interval = d->interval_s > 0 ? d->interval_s : 60;
  return want > interval ? ceil(want / interval) * interval : interval;
}

static void plot_read_pools(const char *run_dir, plot_run_data *d) {
  g_autofree char *path = g_build_filename(run_dir, "pools.csv", NULL);
  g_autoptr(table) t = table_load(path, NULL);
  if (!t) return;
  int c_name = table_column(t, "pool"), c_gpu = table_column(t, "gpu"),
      c_gpus = table_column(t, "gpus"), c_cost = table_column(t, "cost"),
      c_alloc = table_column(t, "allocated_frac"), c_busy = table_column(t, "busy_frac");
  if (c_name < 0) return;
  for (guint r = 0; r < t->rows->len; r++) {
    g_autofree char *name = figures_clean_text(table_cell(t, r, c_name));
    int i = plot_pool_index(d->pools, name, TRUE);
    plot_pool *p = &g_array_index(d->pools, plot_pool, i);
    g_free(p->model);
    p->model = g_strdup(table_cell(t, r, c_gpu));
    p->gpus = table_number(t, r, c_gpus);
    p->cost = table_number(t, r, c_cost);
    p->allocated_frac = table_number(t, r, c_alloc);
    p->busy_frac = table_number(t, r, c_busy);
  }
}

static void plot_read_timeseries(const char *run_dir, plot_run_data *d) {
  g_autofree char *path = g_build_filename(run_dir, "timeseries.csv", NULL);
  d->ts = table_load(path, NULL);
  if (!d->ts) return;
  int c_pool = table_column(d->ts, "pool"), c_t0 = table_column(d->ts, "t_start_s"),
      c_t1 = table_column(d->ts, "t_end_s");
  for (guint r = 0; r < d->ts->rows->len; r++) {
    double t0 = table_number(d->ts, r, c_t0), t1 = table_number(d->ts, r, c_t1);
    if (isfinite(t1) && t1 > d->span_s && t1 < 1e13) d->span_s = t1;
    if (isfinite(t0) && isfinite(t1) && t1 > t0 && (d->interval_s == 0 || t1 - t0 < d->interval_s))
      d->interval_s = t1 - t0;
    g_autofree char *name = figures_clean_text(table_cell(d->ts, r, c_pool));
    if (*name) plot_pool_index(d->pools, name, TRUE);
  }
}

/* Adds timeseries column col_name of every row into grid column (pool index * stride +
 * offset), or into column offset for all pools together when per_pool is FALSE (weighted
 * by the pool's GPUs). Returns FALSE when the column is missing. */
static gboolean plot_ts_add(const plot_run_data *d, plot_grid *g, const char *col_name,
                            gboolean per_pool, guint stride, guint offset) {
  if (!d->ts) return FALSE;
  int c = table_column(d->ts, col_name);
  if (c < 0) return FALSE;
  int c_pool = table_column(d->ts, "pool"), c_t0 = table_column(d->ts, "t_start_s"),
      c_t1 = table_column(d->ts, "t_end_s");
  for (guint r = 0; r < d->ts->rows->len; r++) {
    g_autofree char *name = figures_clean_text(table_cell(d->ts, r, c_pool));
    int p = plot_pool_index(d->pools, name, FALSE);
    if (p < 0) continue;
    double t0 = table_number(d->ts, r, c_t0), t1 = table_number(d->ts, r, c_t1);
    double dur = isfinite(t1 - t0) && t1 > t0 ? t1 - t0 : 1;
    double v = table_number(d->ts, r, c);
    if (per_pool) {
      plot_grid_add(g, t0, (guint)p * stride + offset, v, dur);
    } else {
      double gpus = g_array_index(d->pools, plot_pool, p).gpus;
      plot_grid_add(g, t0, offset, v, dur * (isfinite(gpus) && gpus > 0 ? gpus : 1));
    }
  }
  return TRUE;
}

static gboolean plot_utilisation(const plot_ctx *c, const plot_run_data *d, const char *scenario,
                                 int pool, const char *name, GError **error) {
  plot_grid *g = plot_grid_new(3, plot_bucket(d));
  static const char *const cols[] = {"allocated", "busy", "sm_active"};
  for (guint k = 0; k < 3; k++) {
    if (pool < 0) {
      plot_ts_add(d, g, cols[k], FALSE, 0, k);
      continue;
    }
    /* one pool: its rows only */
    int ci = table_column(d->ts, cols[k]);
    int c_pool = table_column(d->ts, "pool"), c_t0 = table_column(d->ts, "t_start_s"),
        c_t1 = table_column(d->ts, "t_end_s");
    const char *want = g_array_index(d->pools, plot_pool, pool).name;
    for (guint r = 0; ci >= 0 && r < d->ts->rows->len; r++) {
      g_autofree char *pn = figures_clean_text(table_cell(d->ts, r, c_pool));
      if (strcmp(pn, want)) continue;
      double t0 = table_number(d->ts, r, c_t0), t1 = table_number(d->ts, r, c_t1);
      plot_grid_add(g, t0, k, table_number(d->ts, r, ci), t1 > t0 ? t1 - t0 : 1);
    }
  }
  GString *data = g_string_new("# time, allocated %, busy %, SM-active %\n");
  const double scale[] = {100, 100, 100};
  guint rows = plot_grid_write(g, data, d->epoch, d->time_div, scale);
  plot_grid_free(g);
  gboolean ok = TRUE;
  g_autofree char *title = pool < 0
      ? g_strdup_printf("GPU utilisation: %s", scenario)
      : g_strdup_printf("GPU utilisation of pool %s: %s",
                        g_array_index(d->pools, plot_pool, pool).name, scenario);
  if (rows == 0) {
    plot_skip(c, name, "timeseries.csv has no utilisation rows");
  } else {
    g_autofree char *dat = g_strdup_printf("%s.dat", name);
    GString *vars = g_string_new(NULL);
    plot_time_vars(vars, d);
    ok = plot_write(c, dat, data, error) &&
         plot_chart(c, name, "utilisation.gp", title, vars, error);
    g_string_free(vars, TRUE);
  }
  g_string_free(data, TRUE);
  return ok;
}

/* A chart of one timeseries column per pool over time (queue, slo). */
static gboolean plot_per_pool_series(const plot_ctx *c, const plot_run_data *d,
                                     const char *name, const char *tmpl, const char *column,
                                     double scale_all, const char *title, GString *vars,
                                     GError **error) {
  guint np = d->pools->len;
  plot_grid *g = plot_grid_new(np, plot_bucket(d));
  plot_ts_add(d, g, column, TRUE, 1, 0);
  GString *data = g_string_new("# time, then one column per pool\n");
  double *scale = g_new(double, np);
  for (guint i = 0; i < np; i++) scale[i] = scale_all;
  guint rows = plot_grid_write(g, data, d->epoch, d->time_div, scale);
  g_free(scale);
  plot_grid_free(g);
  gboolean ok = TRUE;
  if (rows == 0) {
    plot_skip(c, name, "no rows in timeseries.csv");
  } else {
    g_autofree char *dat = g_strdup_printf("%s.dat", name);
    plot_time_vars(vars, d);
    GPtrArray *names = plot_pool_names(d);
    plot_array(vars, "series", (const char *const *)names->pdata, np);
    g_ptr_array_free(names, TRUE);
    ok = plot_write(c, dat, data, error) && plot_chart(c, name, tmpl, title, vars, error);
  }
  g_string_free(data, TRUE);
  return ok;
}

static double plot_model_mem_gb(const char *model) {
  const gpu_model *m = model && *model ? catalog_find(model) : NULL;
  return m ? (double)m->mem_bytes / 1e9 : NAN;
}

static gboolean plot_memory(const plot_ctx *c, const plot_run_data *d, const char *scenario,
                            GError **error) {
  guint np = d->pools->len;
  plot_grid *g = plot_grid_new(2 * np, plot_bucket(d));
  plot_ts_add(d, g, "mem_used_gb", TRUE, 2, 0);
  /* capacity: a constant column per pool, added on the same buckets */
  for (guint k = 0; k < g->keys->len; k++) {
    double t = (double)g_array_index(g->keys, gint64, k) * g->bucket_s;
    for (guint i = 0; i < np; i++) {
      const plot_pool *p = &g_array_index(d->pools, plot_pool, i);
      plot_grid_add(g, t, 2 * i + 1, p->gpus * plot_model_mem_gb(p->model), 1);
    }
  }
  GString *data = g_string_new("# time, then per pool: memory in use (GB), capacity (GB)\n");
  guint rows = plot_grid_write(g, data, d->epoch, d->time_div, NULL);
  plot_grid_free(g);
  gboolean ok = TRUE;
  if (rows == 0) {
    plot_skip(c, "memory", "timeseries.csv has no mem_used_gb rows");
  } else {
    GString *vars = g_string_new(NULL);
    plot_time_vars(vars, d);
    GPtrArray *names = plot_pool_names(d);
    plot_array(vars, "series", (const char *const *)names->pdata, np);
    g_ptr_array_free(names, TRUE);
    g_autofree char *title = g_strdup_printf("GPU memory in use: %s", scenario);
    ok = plot_write(c, "memory.dat", data, error) &&
         plot_chart(c, "memory", "memory.gp", title, vars, error);
    g_string_free(vars, TRUE);
  }
  g_string_free(data, TRUE);
  return ok;
}

static gboolean plot_memory_peak(const plot_ctx *c, const char *run_dir, plot_run_data *d,
                                 const char *scenario, GError **error) {
  g_autofree char *path = g_build_filename(run_dir, "gpus.csv", NULL);
  g_autoptr(table) t = table_load(path, NULL);
  int c_pool = t ? table_column(t, "pool") : -1, c_peak = t ? table_column(t, "peak_mem_gb") : -1;
  if (!t || c_pool < 0 || c_peak < 0 || t->rows->len == 0) {
    plot_skip(c, "memory-peak", "no gpus.csv with pool and peak_mem_gb");
    return TRUE;
  }
  GString *data = g_string_new("# GPU number, peak memory (GB), pool number, memory of one GPU (GB)\n");
  for (guint r = 0; r < t->rows->len; r++) {
    g_autofree char *name = figures_clean_text(table_cell(t, r, c_pool));
    int p = plot_pool_index(d->pools, name, TRUE);
    g_string_append_printf(data, "%u ", r + 1);
    plot_num(data, table_number(t, r, c_peak));
    g_string_append_printf(data, " %d ", p + 1);
    plot_num(data, plot_model_mem_gb(g_array_index(d->pools, plot_pool, p).model));
    g_string_append_c(data, '\n');
  }
  GString *vars = g_string_new(NULL);
  GPtrArray *names = plot_pool_names(d);
  plot_array(vars, "series", (const char *const *)names->pdata, names->len);
  g_ptr_array_free(names, TRUE);
  g_autofree char *title = g_strdup_printf("Peak GPU memory per GPU: %s", scenario);
  gboolean ok = plot_write(c, "memory-peak.dat", data, error) &&
                plot_chart(c, "memory-peak", "memory-peak.gp", title, vars, error);
  g_string_free(vars, TRUE);
  g_string_free(data, TRUE);
  return ok;
}

/* ---- memory per GPU over time (dcgm.csv of run --dcgm) ---- */

#define PLOT_MAX_HEAT_GPUS 64
#define PLOT_MAX_HEAT_BUCKETS 500
#define PLOT_MAX_DCGM_GPUS 100000 /* a hand-made file with endless GPUs: the rest are counted */

typedef struct plot_dcgm_gpu {
  char *pool, *node_text, *label;
  int pool_index;  /* in plot_run_data.pools */
  gint64 node, gpu; /* numbers for sorting (-1 when not numbers) */
} plot_dcgm_gpu;

typedef struct plot_dcgm_sample {
  guint gpu;
  double t_s, gb;
} plot_dcgm_sample;

typedef struct plot_dcgm_acc {
  int c_t, c_metric, c_value, c_host, c_gpu, c_pool;
  plot_run_data *d;
  GArray *gpus;        /* plot_dcgm_gpu */
  GHashTable *index;   /* "pool\nhost\ngpu" -> gpu index + 1 */
  GArray *samples;     /* plot_dcgm_sample */
  guint extra_gpus;    /* distinct GPUs beyond PLOT_MAX_DCGM_GPUS (not tracked) */
} plot_dcgm_acc;

static void plot_dcgm_gpu_clear(gpointer p) {
  plot_dcgm_gpu *g = p;
  g_free(g->pool);
  g_free(g->node_text);
  g_free(g->label);
}

static gint64 plot_small_number(const char *text) {
  guint64 v;
  return *text && g_ascii_string_to_unsigned(text, 10, 0, G_MAXINT32, &v, NULL) ? (gint64)v : -1;
}

static gboolean plot_dcgm_row(const char *const *cells, guint n, gpointer user) {
  plot_dcgm_acc *a = user;
  int need[] = {a->c_t, a->c_metric, a->c_value, a->c_host, a->c_gpu, a->c_pool};
  for (guint i = 0; i < G_N_ELEMENTS(need); i++)
    if ((guint)need[i] >= n) return TRUE;
  if (strcmp(cells[a->c_metric], "DCGM_FI_DEV_FB_USED")) return TRUE;
  double t, mib;
  if (!util_parse_double(cells[a->c_t], &t) || !isfinite(t) || t < 0 || t > 1e13) return TRUE;
  if (!util_parse_double(cells[a->c_value], &mib) || !isfinite(mib) || mib < 0) return TRUE;
  g_autofree char *pool = figures_clean_text(cells[a->c_pool]);
  g_autofree char *host = figures_clean_text(cells[a->c_host]);
  g_autofree char *gpu = figures_clean_text(cells[a->c_gpu]);
  g_autofree char *key = g_strdup_printf("%s\n%s\n%s", pool, host, gpu);
  guint idx = GPOINTER_TO_UINT(g_hash_table_lookup(a->index, key));
  if (idx == 0) {
    if (a->gpus->len >= PLOT_MAX_DCGM_GPUS) {
      a->extra_gpus++;
      g_hash_table_insert(a->index, g_steal_pointer(&key), GUINT_TO_POINTER(G_MAXUINT));
      return TRUE;
    }
    /* the exporter's host is "<pool>-node<N>": the node is N */
    g_autofree char *prefix = g_strdup_printf("%s-node", pool);
    const char *node = g_str_has_prefix(host, prefix) ? host + strlen(prefix) : host;
    plot_dcgm_gpu g = {g_strdup(pool), g_strdup(node), g_strdup_printf("%s/%s/%s", pool, node, gpu),
                       plot_pool_index(a->d->pools, pool, TRUE), plot_small_number(node),
                       plot_small_number(gpu)};
    g_array_append_val(a->gpus, g);
    idx = a->gpus->len;
    g_hash_table_insert(a->index, g_steal_pointer(&key), GUINT_TO_POINTER(idx));
  }
  if (idx == G_MAXUINT) return TRUE;
  plot_dcgm_sample s = {idx - 1, t, mib * 1048576.0 / 1e9};
  g_array_append_val(a->samples, s);
  return TRUE;
}

/* GPU order: pool (pools.csv order), node, GPU number (then their text). */
static gint plot_dcgm_cmp(gconstpointer a, gconstpointer b, gpointer gpus) {
  const plot_dcgm_gpu *x = &g_array_index((GArray *)gpus, plot_dcgm_gpu, *(const guint *)a);
  const plot_dcgm_gpu *y = &g_array_index((GArray *)gpus, plot_dcgm_gpu, *(const guint *)b);
  if (x->pool_index != y->pool_index) return x->pool_index < y->pool_index ? -1 : 1;
  if (x->node != y->node) return x->node < y->node ? -1 : 1;
  int c = strcmp(x->node_text, y->node_text);
  if (c) return c;
  if (x->gpu != y->gpu) return x->gpu < y->gpu ? -1 : 1;
  return strcmp(x->label, y->label);
}

static gint plot_dcgm_cmp_time(gconstpointer a, gconstpointer b) {
  double x = ((const plot_dcgm_sample *)a)->t_s, y = ((const plot_dcgm_sample *)b)->t_s;
  return x < y ? -1 : x > y;
}

/* Draws memory-gpus from the samples of a (not empty). */
static gboolean plot_memory_gpus_draw(const plot_ctx *c, const plot_run_data *d,
                                      plot_dcgm_acc *a, const char *scenario, GError **error) {
  gboolean ok = TRUE;
  guint total = a->gpus->len + a->extra_gpus;
  /* the interval: timeseries.csv's, else the smallest step between sample times */
  g_array_sort(a->samples, plot_dcgm_cmp_time);
  double interval = d->interval_s, span = 0;
  for (guint i = 0; i < a->samples->len; i++) {
    double t = g_array_index(a->samples, plot_dcgm_sample, i).t_s;
    span = MAX(span, t);
    if (d->interval_s <= 0 && i > 0) {
      double step = t - g_array_index(a->samples, plot_dcgm_sample, i - 1).t_s;
      if (step > 0 && (interval <= 0 || step < interval)) interval = step;
    }
  }
  if (isfinite(d->span_s)) span = MAX(span, d->span_s); /* the other charts' time axis */
  if (!(interval > 0)) interval = span > 0 ? span : 60;
  double bucket = MAX(interval, ceil(span / PLOT_MAX_HEAT_BUCKETS / interval) * interval);
  guint nb = (guint)MAX(1.0, ceil(span / bucket));
  nb = MIN(nb, PLOT_MAX_HEAT_BUCKETS);
  /* the GPUs drawn: the first ones in pool, node, GPU order */
  guint *order = g_new(guint, a->gpus->len);
  for (guint i = 0; i < a->gpus->len; i++) order[i] = i;
  g_qsort_with_data(order, (gint)a->gpus->len, sizeof(guint), plot_dcgm_cmp, a->gpus);
  guint ng = MIN(a->gpus->len, PLOT_MAX_HEAT_GPUS);
  guint *row_of = g_new(guint, a->gpus->len); /* gpu -> row + 1, 0 when not drawn */
  for (guint i = 0; i < a->gpus->len; i++) row_of[i] = 0;
  for (guint r = 0; r < ng; r++) row_of[order[r]] = r + 1;
  gboolean share = TRUE;
  double *cap_gb = g_new(double, ng);
  for (guint r = 0; r < ng; r++) {
    const plot_dcgm_gpu *g = &g_array_index(a->gpus, plot_dcgm_gpu, order[r]);
    cap_gb[r] = plot_model_mem_gb(g_array_index(d->pools, plot_pool, g->pool_index).model);
    share &= isfinite(cap_gb[r]) && cap_gb[r] > 0;
  }
  /* the highest sample of each GPU and bucket (an interval's sample at its end) */
  double *cell = g_new0(double, (gsize)ng * nb);
  for (guint i = 0; i < a->samples->len; i++) {
    const plot_dcgm_sample *s = &g_array_index(a->samples, plot_dcgm_sample, i);
    guint r = row_of[s->gpu];
    if (!r) continue;
    double b = floor(MAX(0.0, s->t_s - interval) / bucket);
    guint k = (guint)MIN(b, (double)(nb - 1));
    double v = share ? 100.0 * s->gb / cap_gb[r - 1] : s->gb;
    double *slot = &cell[(gsize)(r - 1) * nb + k];
    *slot = MAX(*slot, v);
  }
  GString *data = g_string_new(share ? "# time (bucket centre), GPU row, memory in use (% of the GPU)\n"
                                     : "# time (bucket centre), GPU row, memory in use (GB)\n");
  for (guint r = 0; r < ng; r++) {
    for (guint k = 0; k < nb; k++) {
      plot_time_num(data, d->epoch, d->epoch + ((double)k + 0.5) * bucket / d->time_div);
      g_string_append_printf(data, " %u ", r + 1);
      plot_num(data, cell[(gsize)r * nb + k]);
      g_string_append_c(data, '\n');
    }
    g_string_append_c(data, '\n');
  }
  GPtrArray *labels = g_ptr_array_new();
  for (guint r = 0; r < ng; r++)
    g_ptr_array_add(labels, g_array_index(a->gpus, plot_dcgm_gpu, order[r]).label);
  GString *vars = g_string_new(NULL);
  plot_time_vars(vars, d);
  plot_var(vars, "cb_label", share ? "memory in use (% of the GPU)" : "memory in use (GB)");
  g_string_append_printf(vars, "share = %d\nn_buckets = %u\nhalf_width = ", share ? 1 : 0, nb);
  plot_num(vars, bucket / 2 / d->time_div);
  g_string_append_c(vars, '\n');
  plot_array(vars, "gpus", (const char *const *)labels->pdata, ng);
  g_autofree char *title = ng < total
      ? g_strdup_printf("GPU memory in use per GPU (first %u of %u GPUs): %s", ng, total, scenario)
      : g_strdup_printf("GPU memory in use per GPU: %s", scenario);
  ok = plot_write(c, "memory-gpus.dat", data, error) &&
       plot_chart(c, "memory-gpus", "memory-gpus.gp", title, vars, error);
  if (ok && ng < total) {
    g_autofree char *note = g_strdup_printf("drew the first %u of %u GPUs", ng, total);
    plot_skip(c, "memory-gpus", note);
  }
  g_string_free(vars, TRUE);
  g_string_free(data, TRUE);
  g_ptr_array_free(labels, TRUE);
  g_free(cell);
  g_free(cap_gb);
  g_free(row_of);
  g_free(order);
  return ok;
}

/* A heat map of the memory in use on each GPU over time (x time, y GPU, colour the
 * share of the GPU's memory, or GB when a pool's GPU model is unknown), from the
 * DCGM_FI_DEV_FB_USED samples of dcgm.csv (each the peak of the interval ending at its
 * timestamp; a bucket shows the highest). No dcgm.csv: nothing, silently. */
static gboolean plot_memory_gpus(const plot_ctx *c, const char *run_dir, plot_run_data *d,
                                 const char *scenario, GError **error) {
  g_autofree char *path = g_build_filename(run_dir, "dcgm.csv", NULL);
  if (!g_file_test(path, G_FILE_TEST_IS_REGULAR)) return TRUE;
  plot_dcgm_acc a = {-1, -1, -1, -1, -1, -1, d, g_array_new(FALSE, TRUE, sizeof(plot_dcgm_gpu)),
                     g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL),
                     g_array_new(FALSE, FALSE, sizeof(plot_dcgm_sample)), 0};
  g_array_set_clear_func(a.gpus, plot_dcgm_gpu_clear);
  char **header = NULL;
  if (table_foreach(path, &header, NULL, NULL, NULL)) {
    for (guint i = 0; header[i]; i++) {
      const char *h = header[i];
      if (!strcmp(h, "timestamp")) a.c_t = (int)i;
      if (!strcmp(h, "metric")) a.c_metric = (int)i;
      if (!strcmp(h, "value")) a.c_value = (int)i;
      if (!strcmp(h, "Hostname")) a.c_host = (int)i;
      if (!strcmp(h, "gpu")) a.c_gpu = (int)i;
      if (!strcmp(h, "pool")) a.c_pool = (int)i;
    }
    g_strfreev(header);
    if (a.c_t >= 0 && a.c_metric >= 0 && a.c_value >= 0 && a.c_host >= 0 && a.c_gpu >= 0 &&
        a.c_pool >= 0)
      table_foreach(path, NULL, plot_dcgm_row, &a, NULL);
  }
  gboolean ok = TRUE;
  if (a.samples->len == 0)
    plot_skip(c, "memory-gpus", "dcgm.csv has no DCGM_FI_DEV_FB_USED samples");
  else
    ok = plot_memory_gpus_draw(c, d, &a, scenario, error);
  g_array_free(a.gpus, TRUE);
  g_hash_table_destroy(a.index);
  g_array_free(a.samples, TRUE);
  return ok;
}

/* Wait distribution: jobs.csv streamed (it may have a million rows). */
typedef struct plot_wait_acc {
  int c_pool, c_start, c_wait;
  GPtrArray *names;   /* char*, owned, pool order of first appearance (after pools.csv) */
  GPtrArray *waits;   /* GArray of double per pool */
} plot_wait_acc;

static gboolean plot_wait_row(const char *const *cells, guint n, gpointer user) {
  plot_wait_acc *a = user;
  if ((guint)a->c_pool >= n || (guint)a->c_start >= n || (guint)a->c_wait >= n) return TRUE;
  double start, wait;
  if (!*cells[a->c_start] || !util_parse_double(cells[a->c_start], &start)) return TRUE;
  if (!util_parse_double(cells[a->c_wait], &wait) || !isfinite(wait) || wait < 0) return TRUE;
  g_autofree char *pool = figures_clean_text(cells[a->c_pool]);
  guint i;
  for (i = 0; i < a->names->len; i++)
    if (!strcmp(g_ptr_array_index(a->names, i), pool)) break;
  if (i == a->names->len) {
    if (a->names->len >= 256) return TRUE; /* a hand-made file with endless pools */
    g_ptr_array_add(a->names, g_strdup(pool));
    g_ptr_array_add(a->waits, g_array_new(FALSE, FALSE, sizeof(double)));
  }
  g_array_append_val((GArray *)g_ptr_array_index(a->waits, i), wait);
  return TRUE;
}

static gint plot_cmp_double(gconstpointer a, gconstpointer b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static gboolean plot_wait(const plot_ctx *c, const char *run_dir, const plot_run_data *d,
                          const char *scenario, GError **error) {
  g_autofree char *path = g_build_filename(run_dir, "jobs.csv", NULL);
  plot_wait_acc a = {-1, -1, -1, g_ptr_array_new_with_free_func(g_free),
                     g_ptr_array_new_with_free_func((GDestroyNotify)g_array_unref)};
  for (guint i = 0; i < d->pools->len; i++) {
    g_ptr_array_add(a.names, g_strdup(g_array_index(d->pools, plot_pool, i).name));
    g_ptr_array_add(a.waits, g_array_new(FALSE, FALSE, sizeof(double)));
  }
  char **header = NULL;
  gboolean ok = TRUE;
  /* first pass: the header only (the callback needs the column numbers) */
  if (table_foreach(path, &header, NULL, NULL, NULL)) {
    for (guint i = 0; header[i]; i++) {
      if (!strcmp(header[i], "pool")) a.c_pool = (int)i;
      if (!strcmp(header[i], "start_s")) a.c_start = (int)i;
      if (!strcmp(header[i], "wait_s")) a.c_wait = (int)i;
    }
    g_strfreev(header);
    if (a.c_pool >= 0 && a.c_start >= 0 && a.c_wait >= 0)
      table_foreach(path, NULL, plot_wait_row, &a, NULL);
  }
  double max_wait = 0;
  GPtrArray *names = g_ptr_array_new(), *files = g_ptr_array_new_with_free_func(g_free);
  for (guint i = 0; i < a.names->len; i++) {
    GArray *w = g_ptr_array_index(a.waits, i);
    if (w->len == 0) continue;
    g_array_sort(w, plot_cmp_double);
    max_wait = MAX(max_wait, g_array_index(w, double, w->len - 1));
  }
  double div = max_wait < 7200 ? 60 : max_wait < 3 * 86400 ? 3600 : 86400;
  const char *label = div == 60 ? "queue wait (minutes)" : div == 3600 ? "queue wait (hours)"
                                                                        : "queue wait (days)";
  for (guint i = 0; ok && i < a.names->len; i++) {
    GArray *w = g_ptr_array_index(a.waits, i);
    if (w->len == 0) continue;
    g_autofree char *file = g_strdup_printf("wait-%u.dat", names->len + 1);
    GString *data = g_string_new("# queue wait, share of started jobs that waited at most that long (%)\n");
    guint m = MIN(w->len, PLOT_MAX_CDF_POINTS);
    for (guint k = 0; k < m; k++) {
      guint idx = m == 1 ? w->len - 1 : (guint)llround((double)k * (w->len - 1) / (m - 1));
      plot_num(data, g_array_index(w, double, idx) / div);
      g_string_append_c(data, ' ');
      plot_num(data, 100.0 * (idx + 1) / w->len);
      g_string_append_c(data, '\n');
    }
    ok = plot_write(c, file, data, error);
    g_string_free(data, TRUE);
    g_ptr_array_add(names, g_ptr_array_index(a.names, i));
    g_ptr_array_add(files, g_steal_pointer(&file));
  }
  if (ok && names->len == 0) {
    plot_skip(c, "wait", "no job started (or no jobs.csv)");
  } else if (ok) {
    GString *vars = g_string_new(NULL);
    plot_var(vars, "wait_label", label);
    plot_array(vars, "series", (const char *const *)names->pdata, names->len);
    plot_array(vars, "files", (const char *const *)files->pdata, files->len);
    g_autofree char *title = g_strdup_printf("Queue wait: %s", scenario);
    ok = plot_chart(c, "wait", "wait.gp", title, vars, error);
    g_string_free(vars, TRUE);
  }
  g_ptr_array_free(names, TRUE);
  g_ptr_array_free(files, TRUE);
  g_ptr_array_free(a.names, TRUE);
  g_ptr_array_free(a.waits, TRUE);
  return ok;
}

static gboolean plot_cost(const plot_ctx *c, const plot_run_data *d, const char *scenario,
                          GError **error) {
  GString *data = g_string_new("# pool number, busy $, allocated-not-busy $, not allocated $\n");
  GPtrArray *names = g_ptr_array_new();
  for (guint i = 0; i < d->pools->len; i++) {
    const plot_pool *p = &g_array_index(d->pools, plot_pool, i);
    if (!isfinite(p->cost)) continue;
    double alloc = isfinite(p->allocated_frac) ? p->allocated_frac : 0;
    double busy = isfinite(p->busy_frac) ? MIN(p->busy_frac, alloc) : 0;
    g_ptr_array_add(names, p->name);
    g_string_append_printf(data, "%u ", names->len);
    plot_num(data, p->cost * busy);
    g_string_append_c(data, ' ');
    plot_num(data, p->cost * (alloc - busy));
    g_string_append_c(data, ' ');
    plot_num(data, p->cost * (1 - alloc));
    g_string_append_c(data, '\n');
  }
  gboolean ok = TRUE;
  if (names->len == 0) {
    plot_skip(c, "cost", "pools.csv has no costs");
  } else {
    GString *vars = g_string_new(NULL);
    plot_array(vars, "series", (const char *const *)names->pdata, names->len);
    g_autofree char *title = g_strdup_printf("Cost per pool: %s", scenario);
    ok = plot_write(c, "cost.dat", data, error) &&
         plot_chart(c, "cost", "cost.gp", title, vars, error);
    g_string_free(vars, TRUE);
  }
  g_ptr_array_free(names, TRUE);
  g_string_free(data, TRUE);
  return ok;
}

typedef struct plot_tenant {
  char *name;
  double cost;
} plot_tenant;

static gint plot_cmp_tenant(gconstpointer a, gconstpointer b) {
  const plot_tenant *x = a, *y = b;
  if (x->cost != y->cost) return x->cost > y->cost ? -1 : 1;
  return strcmp(x->name, y->name);
}

static gboolean plot_showback(const plot_ctx *c, const char *run_dir, const char *scenario,
                              GError **error) {
  g_autofree char *path = g_build_filename(run_dir, "tenants.csv", NULL);
  g_autoptr(table) t = table_load(path, NULL);
  int c_name = t ? table_column(t, "tenant") : -1, c_cost = t ? table_column(t, "cost") : -1;
  if (!t || c_name < 0 || c_cost < 0 || t->rows->len == 0) {
    plot_skip(c, "showback", "no tenants.csv with tenant and cost");
    return TRUE;
  }
  GArray *tenants = g_array_new(FALSE, FALSE, sizeof(plot_tenant));
  for (guint r = 0; r < t->rows->len; r++) {
    double v = table_number(t, r, c_cost);
    if (!isfinite(v)) continue;
    plot_tenant pt = {(char *)table_cell(t, r, c_name), v};
    g_array_append_val(tenants, pt);
  }
  g_array_sort(tenants, plot_cmp_tenant);
  GString *data = g_string_new("# tenant number, showback cost ($)\n");
  GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
  double other = 0;
  guint n_other = 0;
  for (guint i = 0; i < tenants->len; i++) {
    const plot_tenant *pt = &g_array_index(tenants, plot_tenant, i);
    if (i >= PLOT_MAX_TENANTS - 1 && tenants->len > PLOT_MAX_TENANTS) {
      other += pt->cost;
      n_other++;
      continue;
    }
    g_ptr_array_add(names, g_strdup(pt->name));
    g_string_append_printf(data, "%u ", names->len);
    plot_num(data, pt->cost);
    g_string_append_c(data, '\n');
  }
  if (n_other) {
    g_ptr_array_add(names, g_strdup_printf("%u other tenants", n_other));
    g_string_append_printf(data, "%u ", names->len);
    plot_num(data, other);
    g_string_append_c(data, '\n');
  }
  gboolean ok = TRUE;
  if (names->len == 0) {
    plot_skip(c, "showback", "tenants.csv has no costs");
  } else {
    GString *vars = g_string_new(NULL);
    plot_array(vars, "series", (const char *const *)names->pdata, names->len);
    g_autofree char *title = g_strdup_printf("Showback per tenant: %s", scenario);
    ok = plot_write(c, "showback.dat", data, error) &&
         plot_chart(c, "showback", "showback.gp", title, vars, error);
    g_string_free(vars, TRUE);
  }
  g_ptr_array_free(names, TRUE);
  g_string_free(data, TRUE);
  g_array_free(tenants, TRUE);
  return ok;
}

/* "2 4": the data columns (1 + pool number) of the pools that host inference services (in
 * c->source's services.csv; when there is none, the pools whose column is ever non-zero),
 * and their names into names. */
static char *plot_slo_columns(const plot_ctx *c, const plot_run_data *d, int col, GPtrArray *names) {
  g_autofree char *sp = c->source ? g_build_filename(c->source, "services.csv", NULL) : NULL;
  g_autoptr(table) svc = sp ? table_load(sp, NULL) : NULL;
  int sc = svc ? table_column(svc, "pool") : -1;
  int tp = table_column(d->ts, "pool");
  GString *cols = g_string_new(NULL);
  for (guint i = 0; i < d->pools->len; i++) {
    const char *name = g_array_index(d->pools, plot_pool, i).name;
    gboolean shown = FALSE;
    for (guint r = 0; sc >= 0 && r < svc->rows->len && !shown; r++)
      shown = !strcmp(table_cell(svc, r, sc), name);
    for (guint r = 0; sc < 0 && r < d->ts->rows->len && !shown; r++)
      shown = !strcmp(table_cell(d->ts, r, tp), name) && table_number(d->ts, r, col) != 0;
    if (!shown) continue;
    g_string_append_printf(cols, "%s%u", cols->len ? " " : "", i + 2);
    g_ptr_array_add(names, figures_clean_text(name));
  }
  return g_string_free(cols, FALSE);
}

/* SLO over time, when timeseries.csv has a column for it (the inference model's), for the
 * pools that host services. */
static gboolean plot_slo(const plot_ctx *c, const plot_run_data *d, const char *scenario,
                         GError **error) {
  int col = d->ts ? table_column_containing(d->ts, "attain") : -1;
  gboolean attainment = col >= 0;
  if (col < 0 && d->ts) col = table_column_containing(d->ts, "slo");
  if (col < 0 && d->ts) col = table_column_containing(d->ts, "violation");
  if (col < 0) {
    plot_skip(c, "slo", "timeseries.csv has no SLO column (no inference SLO data)");
    return TRUE;
  }
  const char *column = d->ts->header[col];
  g_autoptr(GPtrArray) shown = g_ptr_array_new_with_free_func(g_free);
  g_autofree char *colnums = plot_slo_columns(c, d, col, shown);
  if (shown->len == 0) {
    plot_skip(c, "slo", "no pool hosts an inference service");
    return TRUE;
  }
  double scale = 1;
  g_autofree char *ylabel = NULL;
  if (attainment) {
    /* attainment as a share (0..1) is drawn in %, a percentage as it is */
    gboolean share = TRUE;
    for (guint r = 0; r < d->ts->rows->len; r++)
      if (table_number(d->ts, r, col) > 1) share = FALSE;
    scale = share && !strstr(column, "pct") ? 100 : 1;
    ylabel = g_strdup("requests within the SLO (%)");
  } else {
    ylabel = g_strdup("requests over their SLO, by arrival interval");
  }
  GString *vars = g_string_new(NULL);
  plot_var(vars, "ylabel_text", ylabel);
  plot_var(vars, "colnums", colnums);
  plot_array(vars, "shown", (const char *const *)shown->pdata, shown->len);
  g_autofree char *title = g_strdup_printf("Inference SLO over time: %s", scenario);
  gboolean ok = plot_per_pool_series(c, d, "slo", "slo.gp", column, scale, title, vars, error);
  g_string_free(vars, TRUE);
  return ok;
}

/* "p50", "latency_p95_ms", "p999_ms": the percentile (50, 95, 99.9), or NAN. */
static double plot_percentile_column(const char *name, double *to_ms) {
  g_auto(GStrv) parts = g_strsplit(name, "_", -1);
  double pct = NAN;
  *to_ms = 1;
  for (guint i = 0; parts[i]; i++) {
    const char *p = parts[i];
    if (p[0] == 'p' && p[1] && strspn(p + 1, "0123456789") == strlen(p + 1) && strlen(p + 1) <= 4) {
      double v = g_ascii_strtod(p + 1, NULL);
      while (v >= 100) v /= 10; /* p999 -> 99.9 */
      pct = v;
    }
    if (!strcmp(p, "s")) *to_ms = 1000;
    if (!strcmp(p, "us")) *to_ms = 0.001;
  }
  return pct;
}

/* latency.csv (or llm-latency.csv, whose series are a service and a metric) streamed: the
 * rows of the first PLOT_MAX_SERVICES series, in order of first appearance. At most
 * PLOT_MAX_LATENCY_POINTS points per series (the file has at most 64 x 64 + 1 per series;
 * more means it was edited). */
#define PLOT_MAX_LATENCY_POINTS 5000
typedef struct plot_latency_acc {
  int c_service, c_ms, c_frac, c_metric; /* c_metric: -1 in latency.csv */
  GPtrArray *raw;      /* char*, owned: service names as in the file */
  GPtrArray *data;     /* GString* per service: "ms share%" lines */
  GArray *points;      /* guint per service */
  gboolean more;       /* a service beyond the first PLOT_MAX_SERVICES */
} plot_latency_acc;

static gboolean plot_latency_row(const char *const *cells, guint n, gpointer user) {
  plot_latency_acc *a = user;
  if ((guint)a->c_service >= n || (guint)a->c_ms >= n || (guint)a->c_frac >= n) return TRUE;
  if (a->c_metric >= 0 && (guint)a->c_metric >= n) return TRUE;
  double ms, frac;
  if (!util_parse_double(cells[a->c_ms], &ms) || !isfinite(ms) || ms <= 0) return TRUE;
  if (!util_parse_double(cells[a->c_frac], &frac) || !(frac >= 0 && frac <= 1)) return TRUE;
  g_autofree char *key = a->c_metric >= 0
                             ? g_strdup_printf("%s %s", cells[a->c_service], cells[a->c_metric])
                             : g_strdup(cells[a->c_service]);
  guint i;
  for (i = 0; i < a->raw->len; i++)
    if (!strcmp(g_ptr_array_index(a->raw, i), key)) break;
  if (i == a->raw->len) {
    if (a->raw->len >= PLOT_MAX_SERVICES) {
      a->more = TRUE;
      return TRUE;
    }
    guint zero = 0;
    g_ptr_array_add(a->raw, g_strdup(key));
    g_ptr_array_add(a->data, g_string_new(NULL));
    g_array_append_val(a->points, zero);
  }
  guint *np = &g_array_index(a->points, guint, i);
  if (*np >= PLOT_MAX_LATENCY_POINTS) return TRUE;
  (*np)++;
  GString *d = g_ptr_array_index(a->data, i);
  plot_num(d, ms);
  g_string_append_c(d, ' ');
  plot_num(d, 100 * frac);
  g_string_append_c(d, '\n');
  return TRUE;
}

static void plot_string_free(gpointer s) { g_string_free(s, TRUE); }

/* A latency CDF chart: its file in the result folder, its chart name and title. */
typedef struct plot_cdf_spec {
  const char *file, *chart, *title;
} plot_cdf_spec;

/* The latency CDF of each series of sp->file (latency.csv: each service; llm-latency.csv:
 * each service's TTFT, TPOT and end to end); FALSE in *drawn when the folder has no usable
 * file (for latency.csv, an older result folder: the percentiles of services.csv are drawn
 * instead). The SLO targets come from services.csv (id, slo_ms, slo_pct). */
static gboolean plot_latency_cdf(const plot_ctx *c, const char *run_dir, const char *scenario,
                                 const plot_cdf_spec *sp, gboolean *drawn, GError **error) {
  *drawn = FALSE;
  g_autofree char *path = g_build_filename(run_dir, sp->file, NULL);
  plot_latency_acc a = {-1, -1, -1, -1, g_ptr_array_new_with_free_func(g_free),
                        g_ptr_array_new_with_free_func(plot_string_free),
                        g_array_new(FALSE, FALSE, sizeof(guint)), FALSE};
  char **header = NULL;
  /* first pass: the header only (the callback needs the column numbers) */
  if (table_foreach(path, &header, NULL, NULL, NULL)) {
    for (guint i = 0; header[i]; i++) {
      if (!strcmp(header[i], "service")) a.c_service = (int)i;
      if (!strcmp(header[i], "latency_ms")) a.c_ms = (int)i;
      if (!strcmp(header[i], "cum_frac")) a.c_frac = (int)i;
      if (!strcmp(header[i], "metric")) a.c_metric = (int)i;
    }
    g_strfreev(header);
  }
  gboolean ok = TRUE;
  if (a.c_service >= 0 && a.c_ms >= 0 && a.c_frac >= 0) {
    *drawn = TRUE;
    table_foreach(path, NULL, plot_latency_row, &a, NULL);
  }
  if (*drawn && a.raw->len == 0) {
    g_autofree char *why = g_strdup_printf("no service served a request (%s has no rows)", sp->file);
    plot_skip(c, sp->chart, why);
  } else if (*drawn) {
    g_autofree char *why = g_strdup_printf("more than 12 series: the first 12 of %s are drawn",
                                           sp->file);
    if (a.more) plot_skip(c, sp->chart, why);
    g_autofree char *spath = g_build_filename(run_dir, "services.csv", NULL);
    g_autoptr(table) t = table_load(spath, NULL);
    int c_id = t ? table_column(t, "id") : -1, c_slo = t ? table_column(t, "slo_ms") : -1,
        c_pct = t ? table_column(t, "slo_pct") : -1;
    GString *data = g_string_new("# one block per service: latency (ms), share of served "
                                 "requests faster (%)\n");
    GString *slo = g_string_new(NULL);
    guint n_slo = 0;
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    for (guint i = 0; i < a.raw->len; i++) {
      const char *raw = g_ptr_array_index(a.raw, i);
      if (i > 0) g_string_append(data, "\n\n");
      g_string_append_len(data, ((GString *)g_ptr_array_index(a.data, i))->str,
                          (gssize)((GString *)g_ptr_array_index(a.data, i))->len);
      g_ptr_array_add(names, figures_clean_text(raw));
      for (guint r = 0; t && c_id >= 0 && r < t->rows->len; r++) {
        if (strcmp(table_cell(t, r, c_id), raw)) continue;
        double ms = table_number(t, r, c_slo), pct = table_number(t, r, c_pct);
        if (ms > 0 && pct >= 0 && pct <= 100) {
          plot_num(slo, ms);
          g_string_append_c(slo, ' ');
          plot_num(slo, pct);
          g_string_append_printf(slo, " %u\n", i + 1);
          n_slo++;
        }
        break;
      }
    }
    if (n_slo > 0) {
      g_string_append(data, "\n\n# SLO targets: latency (ms), share (%), service number\n");
      g_string_append_len(data, slo->str, (gssize)slo->len);
    }
    GString *vars = g_string_new(NULL);
    plot_array(vars, "series", (const char *const *)names->pdata, names->len);
    g_string_append_printf(vars, "n_slo = %u\n", n_slo);
    g_autofree char *title = g_strdup_printf("%s: %s", sp->title, scenario);
    g_autofree char *dat = g_strdup_printf("%s.dat", sp->chart);
    ok = plot_write(c, dat, data, error) &&
         plot_chart(c, sp->chart, "latency-cdf.gp", title, vars, error);
    g_string_free(vars, TRUE);
    g_ptr_array_free(names, TRUE);
    g_string_free(slo, TRUE);
    g_string_free(data, TRUE);
  }
  g_ptr_array_free(a.raw, TRUE);
  g_ptr_array_free(a.data, TRUE);
  g_array_free(a.points, TRUE);
  return ok;
}

static gboolean plot_latency(const plot_ctx *c, const char *run_dir, const char *scenario,
                             GError **error) {
  static const plot_cdf_spec cdf = {"latency.csv", "latency", "Request latency per service"};
  static const plot_cdf_spec llm = {"llm-latency.csv", "llm-latency",
                                    "LLM TTFT, TPOT and end-to-end latency per service"};
  gboolean drawn = FALSE, llm_drawn = FALSE;
  /* LLM services: their three distributions too (no chart when the run has none) */
  if (!plot_latency_cdf(c, run_dir, scenario, &llm, &llm_drawn, error)) return FALSE;
  if (!plot_latency_cdf(c, run_dir, scenario, &cdf, &drawn, error)) return FALSE;
  if (drawn) return TRUE;
  g_autofree char *path = g_build_filename(run_dir, "services.csv", NULL);
  g_autoptr(table) t = table_load(path, NULL);
  if (!t || t->rows->len == 0) {
    plot_skip(c, "latency", "no inference services (services.csv absent or empty)");
    return TRUE;
  }
  GArray *cols = g_array_new(FALSE, FALSE, sizeof(int));
  GArray *pcts = g_array_new(FALSE, FALSE, sizeof(double));
  GArray *scales = g_array_new(FALSE, FALSE, sizeof(double));
  for (guint i = 0; i < t->n_columns; i++) {
    double to_ms, pct = plot_percentile_column(t->header[i], &to_ms);
    if (isnan(pct)) continue;
    int ci = (int)i;
    g_array_append_val(cols, ci);
    g_array_append_val(pcts, pct);
    g_array_append_val(scales, to_ms);
  }
  static const char *const name_cols[] = {"service", "id", "job_id", "job", "name"};
  int c_name = -1;
  for (guint i = 0; c_name < 0 && i < G_N_ELEMENTS(name_cols); i++) c_name = table_column(t, name_cols[i]);
  if (c_name < 0) c_name = 0;
  gboolean ok = TRUE;
  guint ns = MIN(t->rows->len, PLOT_MAX_SERVICES);
  if (cols->len == 0 || ns == 0) {
    plot_skip(c, "latency", "services.csv reports no latency percentiles (p50, p95, ...)");
  } else {
    if (t->rows->len > ns)
      plot_skip(c, "latency", "more than 12 services: the first 12 of services.csv are drawn");
    /* rows: percentiles in increasing order */
    guint *order = g_new(guint, cols->len);
    for (guint i = 0; i < cols->len; i++) order[i] = i;
    for (guint i = 1; i < cols->len; i++)
      for (guint j = i; j > 0 && g_array_index(pcts, double, order[j]) <
                                     g_array_index(pcts, double, order[j - 1]); j--) {
        guint tmp = order[j];
        order[j] = order[j - 1];
        order[j - 1] = tmp;
      }
    GString *data = g_string_new("# percentile (%), then the latency (ms) of each service\n");
    for (guint k = 0; k < cols->len; k++) {
      guint i = order[k];
      plot_num(data, g_array_index(pcts, double, i));
      for (guint r = 0; r < ns; r++) {
        g_string_append_c(data, ' ');
        plot_num(data, table_number(t, r, g_array_index(cols, int, i)) * g_array_index(scales, double, i));
      }
      g_string_append_c(data, '\n');
    }
    g_free(order);
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    for (guint r = 0; r < ns; r++) g_ptr_array_add(names, figures_clean_text(table_cell(t, r, c_name)));
    GString *vars = g_string_new(NULL);
    plot_array(vars, "series", (const char *const *)names->pdata, names->len);
    g_autofree char *title = g_strdup_printf("Request latency per service: %s", scenario);
    ok = plot_write(c, "latency.dat", data, error) &&
         plot_chart(c, "latency", "latency.gp", title, vars, error);
    g_string_free(vars, TRUE);
    g_ptr_array_free(names, TRUE);
    g_string_free(data, TRUE);
  }
  g_array_free(cols, TRUE);
  g_array_free(pcts, TRUE);
  g_array_free(scales, TRUE);
  return ok;
}

/* A file-name part from a pool name (pool names are safe in scenarios, but a result
 * folder may have been edited). */
static char *plot_file_part(const char *name, guint index) {
  if (util_name_is_safe(name)) return g_strdup(name);
  return g_strdup_printf("pool%u", index + 1);
}

static void plot_run_data_clear(plot_run_data *d) {
  g_array_free(d->pools, TRUE);
  table_free(d->ts);
}

static plot_run_data plot_run_data_load(const char *run_dir) {
  plot_run_data d = {0};
  d.pools = g_array_new(FALSE, TRUE, sizeof(plot_pool));
  g_array_set_clear_func(d.pools, plot_pool_clear);
  plot_read_pools(run_dir, &d);
  plot_read_timeseries(run_dir, &d);
  plot_time_unit(d.span_s, &d.time_label, &d.time_div);
  return d;
}

/* What the charts of one run are titled by: the scenario, and for a dated run the trace
 * and the period ("three-pools, trace mixed-small.csv, 2026-11-01 00:00 to 2026-11-03
 * 00:00 UTC"). Owned. */
static char *plot_run_title(const run_figures *f) {
  GString *s = g_string_new(*f->scenario ? f->scenario : "(unnamed scenario)");
  if (!isfinite(f->start_unix)) return g_string_free(s, FALSE);
  if (*f->trace_file) {
    g_autofree char *base = g_path_get_basename(f->trace_file);
    g_string_append_printf(s, ", trace %s", base);
  }
  const double at[2] = {f->start_unix, f->start_unix + f->span_s};
  for (int i = 0; i < 2; i++) {
    GString *iso = g_string_new(NULL);
    caltime_append(iso, at[i]);
    g_string_truncate(iso, MIN(iso->len, 16)); /* 2026-11-01T00:00 */
    if (iso->len > 10) iso->str[10] = ' ';
    g_string_append_printf(s, "%s%s", i ? " to " : ", ", iso->str);
    g_string_free(iso, TRUE);
  }
  g_string_append(s, " UTC");
  return g_string_free(s, FALSE);
}

gboolean plot_run(const char *run_dir, const char *out_dir, const plot_options *opt,
                  plot_report *rep, GError **error) {
  g_autoptr(run_figures) f = figures_load(run_dir, error);
  if (!f) return FALSE;
  plot_ctx c = {.opt = opt, .rep = rep, .source = run_dir};
  if (!plot_prepare_dir(&c, out_dir, error)) return plot_finish(&c, FALSE, error);
  plot_run_data d = plot_run_data_load(run_dir);
  plot_run_date(&d, f->start_unix);
  g_autofree char *named = plot_run_title(f);
  const char *scenario = named;
  gboolean ok = TRUE;
  if (!d.ts) {
    plot_skip(&c, "utilisation, memory, queue, slo", "no timeseries.csv");
  } else {
    ok = plot_utilisation(&c, &d, scenario, -1, "utilisation", error);
    for (guint i = 0; ok && d.pools->len > 1 && i < d.pools->len; i++) {
      g_autofree char *part = plot_file_part(g_array_index(d.pools, plot_pool, i).name, i);
      g_autofree char *name = g_strdup_printf("utilisation-%s", part);
      ok = plot_utilisation(&c, &d, scenario, (int)i, name, error);
    }
    ok = ok && plot_memory(&c, &d, scenario, error);
    if (ok) {
      GString *vars = g_string_new(NULL);
      g_autofree char *title = g_strdup_printf("Queued jobs: %s", scenario);
      ok = plot_per_pool_series(&c, &d, "queue", "queue.gp", "queued", 1, title, vars, error);
      g_string_free(vars, TRUE);
    }
    ok = ok && plot_slo(&c, &d, scenario, error);
  }
  ok = ok && plot_memory_peak(&c, run_dir, &d, scenario, error);
  ok = ok && plot_memory_gpus(&c, run_dir, &d, scenario, error);
  ok = ok && plot_wait(&c, run_dir, &d, scenario, error);
  ok = ok && plot_cost(&c, &d, scenario, error);
  ok = ok && plot_showback(&c, run_dir, scenario, error);
  ok = ok && plot_latency(&c, run_dir, scenario, error);
  plot_run_data_clear(&d);
  return plot_finish(&c, ok, error);
}

/* ---- several runs ---- */

static gboolean plot_bars(const plot_ctx *c, const char *name, const char *tmpl,
                          const char *title, const char *const *names, guint n,
                          const GString *data, GString *vars, GError **error) {
  g_autofree char *dat = g_strdup_printf("%s.dat", name);
  plot_array(vars, "series", names, n);
  return plot_write(c, dat, data, error) && plot_chart(c, name, tmpl, title, vars, error);
}

static double plot_fig(const run_figures *f, const char *key, double scale) {
  double v = figures_value(f, key);
  return isfinite(v) ? v * scale : NAN;
}

/* Busy and allocated share of all GPUs over time, per run. */
static gboolean plot_compare_busy(const plot_ctx *c, const run_figures *const *runs,
                                  const char *const *names, guint n, GError **error) {
  double span = 0;
  plot_run_data *d = g_new0(plot_run_data, n);
  for (guint i = 0; i < n; i++) {
    d[i] = plot_run_data_load(runs[i]->dir);
    span = MAX(span, d[i].span_s);
  }
  const char *label;
  double div;
  plot_time_unit(span, &label, &div);
  gboolean ok = TRUE;
  GPtrArray *shown = g_ptr_array_new(), *files = g_ptr_array_new_with_free_func(g_free);
  for (guint i = 0; ok && i < n; i++) {
    if (!d[i].ts) continue;
    /* the same buckets for every run, about 300 over the longest span */
    double interval = d[i].interval_s > 0 ? d[i].interval_s : 60;
    double bucket = MAX(interval, ceil(span / 300 / interval) * interval);
    plot_grid *g = plot_grid_new(2, bucket);
    plot_ts_add(&d[i], g, "busy", FALSE, 0, 0);
    plot_ts_add(&d[i], g, "allocated", FALSE, 0, 1);
    GString *data = g_string_new("# time, busy % of all GPUs, allocated % of all GPUs\n");
    const double scale[] = {100, 100};
    guint rows = plot_grid_write(g, data, 0, div, scale);
    plot_grid_free(g);
    if (rows) {
      g_autofree char *file = g_strdup_printf("compare-busy-%u.dat", shown->len + 1);
      ok = plot_write(c, file, data, error);
      g_ptr_array_add(shown, (char *)names[i]);
      g_ptr_array_add(files, g_steal_pointer(&file));
    }
    g_string_free(data, TRUE);
  }
  if (ok && shown->len == 0) {
    plot_skip(c, "compare-busy", "no run has a timeseries.csv");
  } else if (ok) {
    GString *vars = g_string_new(NULL);
    plot_var(vars, "time_label", label);
    plot_array(vars, "series", (const char *const *)shown->pdata, shown->len);
    plot_array(vars, "files", (const char *const *)files->pdata, files->len);
    ok = plot_chart(c, "compare-busy", "compare-busy.gp", "GPU utilisation over time", vars, error);
    g_string_free(vars, TRUE);
  }
  for (guint i = 0; i < n; i++) plot_run_data_clear(&d[i]);
  g_free(d);
  g_ptr_array_free(shown, TRUE);
  g_ptr_array_free(files, TRUE);
  return ok;
}

/* A run's cost, or its cost per simulated day. */
static double plot_run_cost(const run_figures *f, gboolean per_day) {
  double cost = plot_fig(f, "cost", 1), days = plot_fig(f, "span_s", 1.0 / 86400);
  return per_day ? (days > 0 ? cost / days : NAN) : cost;
}

gboolean plot_compare(const run_figures *const *runs, const char *const *names, guint n,
                      const char *out_dir, const plot_options *opt, plot_report *rep,
                      GError **error) {
  g_return_val_if_fail(n > 0, FALSE);
  plot_ctx c = {.opt = opt, .rep = rep, .source = NULL};
  if (!plot_prepare_dir(&c, out_dir, error)) return plot_finish(&c, FALSE, error);
  GString *util = g_string_new("# run number, allocated %, busy %, SM-active %\n");
  GString *cost = g_string_new("# run number, busy $, allocated-not-busy $, not allocated $, saving $\n");
  GString *wait = g_string_new(NULL), *faults = g_string_new("# run number, OOM kills, innocent victims, crashes\n");
  double max_wait = 0;
  for (guint i = 0; i < n; i++) max_wait = MAX(max_wait, plot_fig(runs[i], "wait_p95_s", 1));
  double div = max_wait < 7200 ? 60 : max_wait < 3 * 86400 ? 3600 : 86400;
  const char *wait_label = div == 60 ? "queue wait (minutes)" : div == 3600 ? "queue wait (hours)"
                                                                             : "queue wait (days)";
  g_string_append(wait, "# run number, mean wait, p95 wait\n");
  /* runs of different lengths: costs per simulated day, and a note (issue 11 bug 8) */
  GString *span_note = g_string_new(NULL);
  gboolean per_day = figures_spans_differ(runs, names, n, span_note);
  if (per_day) {
    g_string_append(span_note, "; compare-cost shows cost per simulated day");
    plot_skip(&c, "compare", span_note->str);
  }
  g_string_free(span_note, TRUE);
  double base_cost = plot_run_cost(runs[0], per_day);
  for (guint i = 0; i < n; i++) {
    const run_figures *f = runs[i];
    double alloc = plot_fig(f, "allocated_frac", 1), busy = plot_fig(f, "busy_frac", 1);
    double total = plot_run_cost(f, per_day);
    g_string_append_printf(util, "%u ", i + 1);
    plot_num(util, alloc * 100);
    g_string_append_c(util, ' ');
    plot_num(util, busy * 100);
    g_string_append_c(util, ' ');
    plot_num(util, plot_fig(f, "sm_active_frac", 100));
    g_string_append_c(util, '\n');
    double a = isfinite(alloc) ? alloc : 0, b = isfinite(busy) ? MIN(busy, a) : 0;
    g_string_append_printf(cost, "%u ", i + 1);
    plot_num(cost, total * b);
    g_string_append_c(cost, ' ');
    plot_num(cost, total * (a - b));
    g_string_append_c(cost, ' ');
    plot_num(cost, total * (1 - a));
    g_string_append_c(cost, ' ');
    plot_num(cost, base_cost - total);
    g_string_append_c(cost, '\n');
    g_string_append_printf(wait, "%u ", i + 1);
    plot_num(wait, plot_fig(f, "wait_mean_s", 1.0 / div));
    g_string_append_c(wait, ' ');
    plot_num(wait, plot_fig(f, "wait_p95_s", 1.0 / div));
    g_string_append_c(wait, '\n');
    g_string_append_printf(faults, "%u ", i + 1);
    plot_num(faults, plot_fig(f, "oom_kills", 1));
    g_string_append_c(faults, ' ');
    plot_num(faults, plot_fig(f, "innocent_victims", 1));
    g_string_append_c(faults, ' ');
    plot_num(faults, plot_fig(f, "crashes", 1));
    g_string_append_c(faults, '\n');
  }
  GString *vars = g_string_new(NULL);
  gboolean ok = plot_bars(&c, "compare-utilisation", "compare-utilisation.gp",
                          "GPU utilisation per scenario", names, n, util, vars, error);
  g_string_truncate(vars, 0);
  ok = ok && plot_bars(&c, "compare-cost", "compare-cost.gp",
                       per_day ? "Cost per simulated day per scenario (the runs' spans differ)"
                               : "Cost per scenario",
                       names, n, cost, vars, error);
  g_string_truncate(vars, 0);
  plot_var(vars, "wait_label", wait_label);
  ok = ok && plot_bars(&c, "compare-wait", "compare-wait.gp", "Queue wait per scenario", names,
                       n, wait, vars, error);
  g_string_truncate(vars, 0);
  ok = ok && plot_bars(&c, "compare-faults", "compare-faults.gp",
                       "Out-of-memory kills and crashes per scenario", names, n, faults, vars,
                       error);
  g_string_free(vars, TRUE);
  g_string_free(util, TRUE);
  g_string_free(cost, TRUE);
  g_string_free(wait, TRUE);
  g_string_free(faults, TRUE);
  ok = ok && plot_compare_busy(&c, runs, names, n, error);
  return plot_finish(&c, ok, error);
}

/* ---- sweeps ---- */

static const struct {
  const char *name, *key, *ylabel;
  double scale;
} plot_sweep_figures[] = {
  {"sweep-allocated", "allocated_frac", "allocated share of the GPUs (%)", 100},
  {"sweep-busy", "busy_frac", "busy share of the GPUs (%)", 100},
  {"sweep-cost", "cost", "cost ($)", 1},
  {"sweep-wait", "wait_p95_s", "queue wait p95 (hours)", 1.0 / 3600},
  {"sweep-oom", "oom_kills", "OOM kills", 1},
  {"sweep-slo", "services:min_attainment", "lowest SLO attainment of a service (%)", 100},
};

gboolean plot_sweep(const sweep_spec *s, const char *sweep_dir, const char *out_dir,
                    const plot_options *opt, plot_report *rep, GError **error) {
  const sweep_grid *g = s->grid;
  GPtrArray *runs = g_ptr_array_new_with_free_func((GDestroyNotify)figures_free);
  for (guint p = 0; p < g->n_points; p++) {
    const char *name = g_ptr_array_index(s->names, p);
    run_figures *f = sweep_point_done(sweep_dir, name) ? sweep_point_load(sweep_dir, name, NULL, NULL)
                                                       : NULL;
    g_ptr_array_add(runs, f);
  }
  plot_ctx c = {.opt = opt, .rep = rep, .source = sweep_dir};
  gboolean ok = TRUE;
  /* x: the first key, when all its values are numbers */
  gboolean numeric = g->keys->len > 0;
  GPtrArray *xv = g->keys->len ? g_ptr_array_index(g->values, 0) : NULL;
  for (guint v = 0; numeric && v < xv->len; v++) {
    double x;
    numeric = util_parse_double(g_ptr_array_index(xv, v), &x);
  }
  guint done = 0;
  for (guint p = 0; p < runs->len; p++) done += g_ptr_array_index(runs, p) != NULL;
  /* bars per point are plot_compare's folder; lines and the "nothing" note are ours */
  if (done == 0 || numeric) ok = plot_prepare_dir(&c, out_dir, error);
  if (ok && done == 0) {
    plot_skip(&c, "sweep", "no finished point");
  } else if (ok && !numeric) {
    /* bars per finished point */
    GPtrArray *fs = g_ptr_array_new(), *names = g_ptr_array_new();
    for (guint p = 0; p < runs->len; p++)
      if (g_ptr_array_index(runs, p)) {
        g_ptr_array_add(fs, g_ptr_array_index(runs, p));
        g_ptr_array_add(names, g_ptr_array_index(s->names, p));
      }
    ok = plot_compare((const run_figures *const *)fs->pdata, (const char *const *)names->pdata,
                      fs->len, out_dir, opt, rep, error);
    g_ptr_array_free(fs, TRUE);
    g_ptr_array_free(names, TRUE);
  } else if (ok) {
    guint stride = g->n_points / xv->len; /* points per value of the first key */
    for (guint k = 0; ok && k < G_N_ELEMENTS(plot_sweep_figures); k++) {
      GPtrArray *series = g_ptr_array_new_with_free_func(g_free);
      GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
      for (guint grp = 0; ok && grp < stride; grp++) {
        GString *data = g_string_new(NULL);
        g_string_append_printf(data, "# %s, %s\n", "swept value", plot_sweep_figures[k].key);
        guint rows = 0;
        for (guint v = 0; v < xv->len; v++) {
          const run_figures *f = g_ptr_array_index(runs, v * stride + grp);
          double y = f ? plot_fig(f, plot_sweep_figures[k].key, plot_sweep_figures[k].scale) : NAN;
          if (isnan(y)) continue;
          double x;
          util_parse_double(g_ptr_array_index(xv, v), &x);
          plot_num(data, x);
          g_string_append_c(data, ' ');
          plot_num(data, y);
          g_string_append_c(data, '\n');
          rows++;
        }
        if (rows) {
          g_autofree char *file = g_strdup_printf("%s-%u.dat", plot_sweep_figures[k].name, grp + 1);
          ok = plot_write(&c, file, data, error);
          GString *label = g_string_new(NULL);
          for (guint key = 1; key < g->keys->len; key++) {
            const char *full = g_ptr_array_index(g->keys, key);
            const char *dot = strrchr(full, '.');
            g_string_append_printf(label, "%s%s=%s", key > 1 ? ", " : "", dot ? dot + 1 : full,
                                   sweep_grid_value(g, key, grp));
          }
          if (!label->len) g_string_append(label, plot_sweep_figures[k].ylabel);
          g_ptr_array_add(series, g_string_free(label, FALSE));
          g_ptr_array_add(files, g_steal_pointer(&file));
        }
        g_string_free(data, TRUE);
      }
      if (ok && series->len) {
        GString *vars = g_string_new(NULL);
        plot_var(vars, "xlabel_text", g_ptr_array_index(g->keys, 0));
        plot_var(vars, "ylabel_text", plot_sweep_figures[k].ylabel);
        plot_array(vars, "series", (const char *const *)series->pdata, series->len);
        plot_array(vars, "files", (const char *const *)files->pdata, files->len);
        g_autofree char *title = g_strdup_printf("%s across %s", plot_sweep_figures[k].ylabel,
                                                 (const char *)g_ptr_array_index(g->keys, 0));
        ok = plot_chart(&c, plot_sweep_figures[k].name, "sweep.gp", title, vars, error);
        g_string_free(vars, TRUE);
      } else if (ok && k + 1 == G_N_ELEMENTS(plot_sweep_figures)) {
        plot_skip(&c, plot_sweep_figures[k].name, "no point reports SLO attainment");
      }
      g_ptr_array_free(series, TRUE);
      g_ptr_array_free(files, TRUE);
    }
  }
  g_ptr_array_free(runs, TRUE);
  return plot_finish(&c, ok, error);
}
