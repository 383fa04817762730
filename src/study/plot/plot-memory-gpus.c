/* plot-memory-gpus.c: the memory-gpus chart of a result folder: a heat map of the memory
 * in use on each GPU over time, from the DCGM_FI_DEV_FB_USED samples of dcgm.csv (run
 * --dcgm), read as a stream. */
#include "plot-chart.h"
#include "util.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

const plot_run_chart plot_chart_memory_gpus = {"memory-gpus", FALSE, plot_memory_gpus};
