/* plot.c: the machinery of `sharesim plot` and the table of a result folder's charts:
 * writes each chart's data and script (a header of escaped variables, then a template
 * from plots/), spawns gnuplot with an argument vector in the output folder, and keeps
 * the time grids and the run data (pools.csv, timeseries.csv) the charts share. It never
 * builds a command line for a shell, and user text reaches gnuplot only through
 * plot_quote. Each chart is its own plot-NAME.c; which folders to draw and where is
 * cmd-plot.c's decision. */
#include "plot.h"
#include "plot-chart.h"
#include "catalog.h"
#include "caltime.h"
#include "spawn.h"
#include "util.h"
#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>


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
void plot_time_num(GString *out, double epoch, double v) {
  if (epoch == 0 || !isfinite(v)) {
    plot_num(out, v);
    return;
  }
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_ascii_formatd(buf, sizeof buf, "%.13g", v);
  g_string_append(out, buf);
}

void plot_num(GString *out, double v) {
  if (!isfinite(v)) {
    g_string_append(out, "NaN");
    return;
  }
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_ascii_formatd(buf, sizeof buf, "%.6g", v == 0 ? 0.0 : v);
  g_string_append(out, buf);
}

/* ---- writing charts ---- */


gboolean plot_write(const plot_ctx *c, const char *file, const GString *data,
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
gboolean plot_prepare_dir(plot_ctx *c, const char *final, GError **error) {
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
gboolean plot_finish(plot_ctx *c, gboolean ok, GError **error) {
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
gboolean plot_chart(const plot_ctx *c, const char *name, const char *template_name,
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
void plot_array(GString *vars, const char *var, const char *const *items, guint n) {
  g_string_append_printf(vars, "array %s[%u]\n", var, n);
  for (guint i = 0; i < n; i++) {
    g_string_append_printf(vars, "%s[%u] = ", var, i + 1);
    plot_quote(vars, items[i]);
    g_string_append_c(vars, '\n');
  }
}

void plot_var(GString *vars, const char *var, const char *text) {
  g_string_append_printf(vars, "%s = ", var);
  plot_quote(vars, text);
  g_string_append_c(vars, '\n');
}

void plot_skip(const plot_ctx *c, const char *chart, const char *why) {
  g_ptr_array_add(c->rep->skipped, g_strdup_printf("%s/%s: %s", c->shown_dir, chart, why));
}

/* ---- time grids: values averaged into time buckets ---- */


plot_grid *plot_grid_new(guint ncols, double bucket_s) {
  plot_grid *g = g_new0(plot_grid, 1);
  g->ncols = ncols;
  g->rows = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
  g->keys = g_array_new(FALSE, FALSE, sizeof(gint64));
  g->sums = g_array_new(FALSE, TRUE, sizeof(double));
  g->weights = g_array_new(FALSE, TRUE, sizeof(double));
  g->bucket_s = bucket_s > 0 ? bucket_s : 1;
  return g;
}

void plot_grid_free(plot_grid *g) {
  g_hash_table_destroy(g->rows);
  g_array_free(g->keys, TRUE);
  g_array_free(g->sums, TRUE);
  g_array_free(g->weights, TRUE);
  g_free(g);
}

/* Adds value v with weight w at time t_s into column col (NaN values are ignored). */
void plot_grid_add(plot_grid *g, double t_s, guint col, double v, double w) {
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
guint plot_grid_write(const plot_grid *g, GString *out, double epoch, double time_div,
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



/* A run placed at a date draws its time axes as UTC dates: x in Unix seconds, and
 * common.gp switches gnuplot to time data when time_dated is set. */
static void plot_run_date(plot_run_data *d, double start_unix) {
  if (!isfinite(start_unix)) return;
  d->dated = TRUE;
  d->epoch = start_unix;
  d->time_div = 1;
  d->time_label = "time (UTC)";
}

void plot_time_vars(GString *vars, const plot_run_data *d) {
  plot_var(vars, "time_label", d->time_label);
  if (d->dated) g_string_append(vars, "time_dated = 1\n");
}

static void plot_pool_clear(gpointer p) {
  plot_pool *pool = p;
  g_free(pool->name);
  g_free(pool->model);
}

int plot_pool_index(GArray *pools, const char *name, gboolean add) {
  for (guint i = 0; i < pools->len; i++)
    if (!strcmp(g_array_index(pools, plot_pool, i).name, name)) return (int)i;
  if (!add) return -1;
  plot_pool p = {g_strdup(name), g_strdup(""), NAN, NAN, NAN, NAN};
  g_array_append_val(pools, p);
  return (int)pools->len - 1;
}

/* The pool names in order (borrowed strings); free the array only. */
GPtrArray *plot_pool_names(const plot_run_data *d) {
  GPtrArray *names = g_ptr_array_new();
  for (guint i = 0; i < d->pools->len; i++)
    g_ptr_array_add(names, g_array_index(d->pools, plot_pool, i).name);
  return names;
}

void plot_time_unit(double span_s, const char **label, double *div) {
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

double plot_bucket(const plot_run_data *d) {
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
gboolean plot_ts_add(const plot_run_data *d, plot_grid *g, const char *col_name,
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

/* A chart of one timeseries column per pool over time (queue, slo). */
gboolean plot_per_pool_series(const plot_ctx *c, const plot_run_data *d,
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

double plot_model_mem_gb(const char *model) {
  const gpu_model *m = model && *model ? catalog_find(model) : NULL;
  return m ? (double)m->mem_bytes / 1e9 : NAN;
}

void plot_run_data_clear(plot_run_data *d) {
  g_array_free(d->pools, TRUE);
  table_free(d->ts);
}

plot_run_data plot_run_data_load(const char *run_dir) {
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

/* The charts of one result folder, drawn in this order: a new chart is one file
 * (src/study/plot/plot-NAME.c exporting its row) and one line here. */
extern const plot_run_chart plot_chart_utilisation, plot_chart_memory, plot_chart_queue,
    plot_chart_slo, plot_chart_memory_peak, plot_chart_memory_gpus, plot_chart_wait,
    plot_chart_cost, plot_chart_showback, plot_chart_latency;
static const plot_run_chart *const plot_run_charts[] = {
    &plot_chart_utilisation, &plot_chart_memory,      &plot_chart_queue,
    &plot_chart_slo,         &plot_chart_memory_peak, &plot_chart_memory_gpus,
    &plot_chart_wait,        &plot_chart_cost,        &plot_chart_showback,
    &plot_chart_latency,
};

/* The names of the charts, comma-separated: all of them, or those drawn from
 * timeseries.csv. Owned. */
static char *plot_chart_names(gboolean timeseries_only) {
  GString *names = g_string_new(NULL);
  for (guint i = 0; i < G_N_ELEMENTS(plot_run_charts); i++)
    if (!timeseries_only || plot_run_charts[i]->needs_timeseries)
      g_string_append_printf(names, "%s%s", names->len ? ", " : "", plot_run_charts[i]->name);
  return g_string_free(names, FALSE);
}

char *plot_run_chart_names(void) { return plot_chart_names(FALSE); }

/* Without timeseries.csv, the charts drawn from it are skipped in one message
 * ("utilisation, memory, queue, slo: no timeseries.csv"). */
static void plot_skip_timeseries(const plot_ctx *c) {
  g_autofree char *names = plot_chart_names(TRUE);
  plot_skip(c, names, "no timeseries.csv");
}

gboolean plot_run(const char *run_dir, const char *out_dir, const plot_options *opt,
                  plot_report *rep, GError **error) {
  g_autoptr(run_figures) f = figures_load(run_dir, error);
  if (!f) return FALSE;
  plot_ctx c = {.opt = opt, .rep = rep, .source = run_dir};
  if (!plot_prepare_dir(&c, out_dir, error)) return plot_finish(&c, FALSE, error);
  plot_run_data d = plot_run_data_load(run_dir);
  plot_run_date(&d, f->start_unix);
  g_autofree char *scenario = plot_run_title(f);
  if (!d.ts) plot_skip_timeseries(&c);
  gboolean ok = TRUE;
  for (guint i = 0; ok && i < G_N_ELEMENTS(plot_run_charts); i++) {
    const plot_run_chart *chart = plot_run_charts[i];
    if (chart->needs_timeseries && !d.ts) continue;
    ok = chart->draw(&c, run_dir, &d, scenario, error);
  }
  plot_run_data_clear(&d);
  return plot_finish(&c, ok, error);
}

double plot_fig(const run_figures *f, const char *key, double scale) {
  double v = figures_value(f, key);
  return isfinite(v) ? v * scale : NAN;
}
