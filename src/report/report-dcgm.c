/* report-dcgm.c: the per-GPU series of a run (run --dcgm) written as the DCGM exporter's
 * metrics, so that a simulated cluster opens in the dashboards built for real ones:
 * dcgm.csv (one sample per row, the form `sharesim import dcgm` reads back) and dcgm.prom
 * (OpenMetrics text, e.g. for `promtool tsdb create-blocks-from openmetrics`). One sample
 * per GPU, interval and resident job (the exporter labels a shared GPU's series with each
 * pod on it), at the interval's end; values are the interval's means (memory: its peak).
 * Idle intervals are left out. Labels are dcgm-exporter's (gpu, UUID, device, modelName,
 * Hostname, instance, pod, namespace, container) plus pool; a run with a `start:` is stamped
 * in Unix seconds, else in seconds from 0. It reads the frozen results only. */
#include "report.h"
#include "util.h"
#include "catalog.h"
#include <math.h>
#include <string.h>

typedef struct dcgm_metric_def {
  const char *name, *help;
  double scale;   /* value = field x scale */
  int field;      /* 0 busy, 1 sm_active, 2 mem_gb, 3 memory free (card - peak used) */
  gboolean prom_only; /* dcgm.prom only (dcgm.csv keeps what `import dcgm` reads) */
} dcgm_metric_def;

static const dcgm_metric_def report_dcgm_metrics[] = {
    {"DCGM_FI_DEV_GPU_UTIL", "GPU utilization (in %).", 100.0, 0, FALSE},
    {"DCGM_FI_PROF_GR_ENGINE_ACTIVE", "Ratio of time the graphics engine is active.", 1.0, 0,
     FALSE},
    {"DCGM_FI_PROF_SM_ACTIVE", "The ratio of cycles an SM has at least 1 warp assigned.", 1.0, 1,
     FALSE},
    {"DCGM_FI_DEV_FB_USED", "Framebuffer memory used (in MiB); here the interval's peak.",
     1e9 / 1048576.0, 2, FALSE},
    /* NVIDIA's Grafana dashboard (dcgm-exporter grafana/dcgm-exporter-dashboard.json) keys its
     * Hostname and gpu variables on this metric */
    {"DCGM_FI_DEV_FB_FREE", "Framebuffer memory free (in MiB); here the card's memory less the "
     "interval's peak use.", 1e9 / 1048576.0, 3, TRUE},
};

static const gpu_model *report_dcgm_model(const results *r, const gpu_series_row *row) {
  return row->pool < r->pools->len
             ? catalog_find(g_array_index(r->pools, pool_result, row->pool).gpu_model) : NULL;
}

static double report_dcgm_value(const dcgm_metric_def *m, const results *r,
                                const gpu_series_row *row) {
  if (m->field == 3) {
    const gpu_model *g = report_dcgm_model(r, row);
    return g ? MAX(0.0, (double)g->mem_bytes / 1e9 - row->peak_mem_gb) * m->scale : NAN;
  }
  double v = m->field == 0 ? row->busy : m->field == 1 ? row->sm_active : row->peak_mem_gb;
  return v * m->scale;
}


static const char *report_dcgm_pool(const results *r, guint32 pool) {
  return pool < r->pools->len ? g_array_index(r->pools, pool_result, pool).name : "";
}

static const job_result *report_dcgm_job(const results *r, const gpu_series_row *row, guint k) {
  guint32 idx = g_array_index(r->gpu_series_jobs, guint32, row->jobs_first + k);
  return idx < r->jobs->len ? &g_array_index(r->jobs, job_result, idx) : NULL;
}

/* Flat GPU number within the pool for the UUID ("GPU-<pool>-<n>"). */
static void report_dcgm_labels_csv(GString *out, const results *r, const gpu_series_row *row,
                                   const job_result *j) {
  const char *pool = report_dcgm_pool(r, row->pool);
  g_autofree char *host = g_strdup_printf("%s-node%u", pool, row->node);
  g_autofree char *uuid = g_strdup_printf("GPU-%s-%u-%u", pool, row->node, row->gpu);
  util_csv_field(out, host);
  g_string_append_printf(out, ",%u,", row->gpu);
  util_csv_field(out, uuid);
  g_string_append_c(out, ',');
  util_csv_field(out, j ? j->id : "");
  g_string_append_c(out, ',');
  util_csv_field(out, j ? j->tenant : "");
  g_string_append_c(out, ',');
  util_csv_field(out, pool);
}

void report_dcgm_csv(const results *r, GString *out) {
  g_string_append(out, "timestamp,metric,value,Hostname,gpu,UUID,pod,namespace,pool\n");
  for (guint i = 0; i < r->gpu_series->len; i++) {
    const gpu_series_row *row = &g_array_index(r->gpu_series, gpu_series_row, i);
    for (guint k = 0; k < row->jobs_n; k++) {
      const job_result *j = report_dcgm_job(r, row, k);
      for (gsize m = 0; m < G_N_ELEMENTS(report_dcgm_metrics); m++) {
        if (report_dcgm_metrics[m].prom_only) continue;
        report_prom_stamp(out, r, row->t_end_s);
        g_string_append_printf(out, ",%s,", report_dcgm_metrics[m].name);
        report_num(out, report_dcgm_value(&report_dcgm_metrics[m], r, row));
        g_string_append_c(out, ',');
        report_dcgm_labels_csv(out, r, row, j);
        g_string_append_c(out, '\n');
      }
    }
  }
}

/* dcgm-exporter's label set: gpu, UUID, device, modelName, Hostname, and the pod, namespace
 * and container of the workload on the GPU (here the job, its tenant and its kind), plus the
 * scrape target's instance and sharesim's pool. */
static void report_dcgm_prom_labels(GString *out, const results *r, const gpu_series_row *row,
                                    const job_result *j) {
  const char *pool = report_dcgm_pool(r, row->pool);
  const gpu_model *g = report_dcgm_model(r, row);
  g_autofree char *host = g_strdup_printf("%s-node%u", pool, row->node);
  g_autofree char *uuid = g_strdup_printf("GPU-%s-%u-%u", pool, row->node, row->gpu);
  g_autofree char *device = g_strdup_printf("nvidia%u", row->gpu);
  g_autofree char *model = g_strdup_printf("NVIDIA %s", g ? g->name : "GPU");
  g_autofree char *instance = g_strdup_printf("%s:9400", host);
  char gpu[16];
  g_snprintf(gpu, sizeof gpu, "%u", row->gpu);
  report_prom_label(out, "gpu", gpu, TRUE);
  report_prom_label(out, "UUID", uuid, FALSE);
  report_prom_label(out, "device", device, FALSE);
  report_prom_label(out, "modelName", model, FALSE);
  report_prom_label(out, "Hostname", host, FALSE);
  report_prom_label(out, "instance", instance, FALSE);
  report_prom_label(out, "pod", j ? j->id : "", FALSE);
  report_prom_label(out, "namespace", j ? j->tenant : "", FALSE);
  report_prom_label(out, "container", j ? j->kind : "", FALSE);
  report_prom_label(out, "pool", pool, FALSE);
  g_string_append(out, "} ");
}

typedef struct report_dcgm_sample {
  guint row, k;
} report_dcgm_sample;

/* Series order: pool, node, GPU, job, then time (each series' points contiguous). */
static gint report_dcgm_cmp(gconstpointer a, gconstpointer b, gpointer ud) {
  const results *r = ud;
  const report_dcgm_sample *x = a, *y = b;
  const gpu_series_row *rx = &g_array_index(r->gpu_series, gpu_series_row, x->row);
  const gpu_series_row *ry = &g_array_index(r->gpu_series, gpu_series_row, y->row);
  if (rx->pool != ry->pool) return rx->pool < ry->pool ? -1 : 1;
  if (rx->node != ry->node) return rx->node < ry->node ? -1 : 1;
  if (rx->gpu != ry->gpu) return rx->gpu < ry->gpu ? -1 : 1;
  guint32 jx = g_array_index(r->gpu_series_jobs, guint32, rx->jobs_first + x->k);
  guint32 jy = g_array_index(r->gpu_series_jobs, guint32, ry->jobs_first + y->k);
  if (jx != jy) return jx < jy ? -1 : 1;
  if (rx->t_end_s != ry->t_end_s) return rx->t_end_s < ry->t_end_s ? -1 : 1;
  return 0;
}

void report_dcgm_openmetrics(const results *r, GString *out) {
  GArray *samples = g_array_new(FALSE, FALSE, sizeof(report_dcgm_sample));
  for (guint i = 0; i < r->gpu_series->len; i++) {
    const gpu_series_row *row = &g_array_index(r->gpu_series, gpu_series_row, i);
    for (guint k = 0; k < row->jobs_n; k++) {
      report_dcgm_sample s = {i, k};
      g_array_append_val(samples, s);
    }
  }
  g_array_sort_with_data(samples, report_dcgm_cmp, (gpointer)r);
  for (gsize m = 0; m < G_N_ELEMENTS(report_dcgm_metrics); m++) {
    const dcgm_metric_def *def = &report_dcgm_metrics[m];
    g_string_append_printf(out, "# TYPE %s gauge\n# HELP %s %s\n", def->name, def->name, def->help);
    for (guint i = 0; i < samples->len; i++) {
      const report_dcgm_sample *s = &g_array_index(samples, report_dcgm_sample, i);
      const gpu_series_row *row = &g_array_index(r->gpu_series, gpu_series_row, s->row);
      const job_result *j = report_dcgm_job(r, row, s->k);
      g_string_append_printf(out, "%s{", def->name);
      report_dcgm_prom_labels(out, r, row, j);
      report_num(out, report_dcgm_value(def, r, row));
      g_string_append_c(out, ' ');
      report_prom_stamp(out, r, row->t_end_s);
      g_string_append_c(out, '\n');
    }
  }
  report_prom_pools(r, out);
  g_string_append(out, "# EOF\n");
  g_array_unref(samples);
}
