/* report-dcgm.c: the per-GPU series of a run (run --dcgm) written as the DCGM exporter's
 * metrics, so that a simulated cluster opens in the dashboards built for real ones:
 * dcgm.csv (one sample per row, the form `sharesim import dcgm` reads back) and dcgm.prom
 * (OpenMetrics text, e.g. for `promtool tsdb create-blocks-from openmetrics`). One sample
 * per GPU, interval and resident job (the exporter labels a shared GPU's series with each
 * pod on it), at the interval's end; values are the interval's means (memory: its peak).
 * Idle intervals are left out. dcgm.prom adds the gauges NVIDIA's Grafana dashboard queries
 * (power, temperature, clocks, tensor activity: modelled or marked synthetic) and labels its
 * series as dcgm-exporter does, plus instance, pool and scenario; a run with a `start:` is
 * stamped in Unix seconds, else in seconds from 0. It reads the frozen results only. */
#include "report.h"
#include "util.h"
#include "catalog.h"
#include <math.h>
#include <string.h>

typedef enum {
  DCGM_BUSY, DCGM_SM, DCGM_MEM, DCGM_FREE, DCGM_POWER, DCGM_TEMP, DCGM_SM_CLOCK,
  DCGM_MEM_CLOCK, DCGM_TENSOR
} dcgm_field;

typedef struct dcgm_metric_def {
  const char *name, *help;
  double scale;   /* value = field x scale */
  dcgm_field field;
  gboolean prom_only; /* dcgm.prom only (dcgm.csv keeps what `import dcgm` reads) */
} dcgm_metric_def;

/* The gauges NVIDIA's Grafana dashboard (dcgm-exporter's grafana/dcgm-exporter-dashboard.json,
 * grafana.com 12239) queries. Power follows a documented model (docs/models.md, "The DCGM
 * export's other gauges"); what sharesim does not model says "synthetic" in its help text. */
static const dcgm_metric_def report_dcgm_metrics[] = {
    {"DCGM_FI_DEV_GPU_UTIL", "GPU utilization (in %).", 100.0, DCGM_BUSY, FALSE},
    {"DCGM_FI_PROF_GR_ENGINE_ACTIVE", "Ratio of time the graphics engine is active.", 1.0,
     DCGM_BUSY, FALSE},
    {"DCGM_FI_PROF_SM_ACTIVE", "The ratio of cycles an SM has at least 1 warp assigned.", 1.0,
     DCGM_SM, FALSE},
    {"DCGM_FI_DEV_FB_USED", "Framebuffer memory used (in MiB); here the interval's peak.",
     1e9 / 1048576.0, DCGM_MEM, FALSE},
    /* the dashboard keys its Hostname and gpu variables on this metric */
    {"DCGM_FI_DEV_FB_FREE", "Framebuffer memory free (in MiB); here the card's memory less the "
     "interval's peak use.", 1e9 / 1048576.0, DCGM_FREE, TRUE},
    {"DCGM_FI_DEV_POWER_USAGE", "Power draw (in W); modelled: idle power plus the SM activity's "
     "share of the rest of the card's TDP (docs/models.md).", 1.0, DCGM_POWER, TRUE},
    {"DCGM_FI_DEV_GPU_TEMP", "GPU temperature (in C); synthetic: sharesim has no thermal model, "
     "30 C idle to 70 C at full SM activity.", 1.0, DCGM_TEMP, TRUE},
    {"DCGM_FI_DEV_SM_CLOCK", "SM clock frequency (in MHz); synthetic: the card's max clock while "
     "busy, 210 MHz otherwise (interval mean).", 1.0, DCGM_SM_CLOCK, TRUE},
    {"DCGM_FI_DEV_MEM_CLOCK", "Memory clock frequency (in MHz); synthetic: the card's memory "
     "clock.", 1.0, DCGM_MEM_CLOCK, TRUE},
    {"DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "Ratio of cycles the tensor (HMMA) pipe is active; "
     "synthetic: sharesim does not model the tensor pipe, here the SM activity (its upper "
     "bound).", 1.0, DCGM_TENSOR, TRUE},
};

/* The power model's idle draw as a share of TDP, the synthetic gauges' idle and full-load
 * temperatures and idle SM clock: assumptions (docs/models.md, section 12). */
#define DCGM_IDLE_POWER_SHARE 0.15
#define DCGM_TEMP_IDLE_C 30.0
#define DCGM_TEMP_FULL_C 70.0
#define DCGM_IDLE_SM_CLOCK_MHZ 210.0

static const gpu_model *report_dcgm_model(const results *r, const gpu_series_row *row) {
  return row->pool < r->pools->len
             ? catalog_find(g_array_index(r->pools, pool_result, row->pool).gpu_model) : NULL;
}

/* The gauges that need the card: NAN for a model the catalogue does not know. */
static double report_dcgm_card_value(dcgm_field f, const gpu_model *g,
                                     const gpu_series_row *row) {
  if (!g) return NAN;
  double idle_w = DCGM_IDLE_POWER_SHARE * g->tdp_w;
  switch (f) {
  case DCGM_FREE: return MAX(0.0, (double)g->mem_bytes / 1e9 - row->peak_mem_gb);
  case DCGM_POWER: return idle_w + (g->tdp_w - idle_w) * row->sm_active;
  case DCGM_SM_CLOCK:
    return DCGM_IDLE_SM_CLOCK_MHZ + (g->sm_clock_mhz - DCGM_IDLE_SM_CLOCK_MHZ) * row->busy;
  default: return g->mem_clock_mhz;
  }
}

static double report_dcgm_value(const dcgm_metric_def *m, const results *r,
                                const gpu_series_row *row) {
  double v;
  switch (m->field) {
  case DCGM_BUSY: v = row->busy; break;
  case DCGM_SM: case DCGM_TENSOR: v = row->sm_active; break;
  case DCGM_MEM: v = row->peak_mem_gb; break;
  case DCGM_TEMP: v = DCGM_TEMP_IDLE_C + (DCGM_TEMP_FULL_C - DCGM_TEMP_IDLE_C) * row->sm_active;
    break;
  default: v = report_dcgm_card_value(m->field, report_dcgm_model(r, row), row);
  }
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
  report_csv_key_header(out);
  g_string_append(out, "timestamp,metric,value,Hostname,gpu,UUID,pod,namespace,pool\n");
  for (guint i = 0; i < r->gpu_series->len; i++) {
    const gpu_series_row *row = &g_array_index(r->gpu_series, gpu_series_row, i);
    for (guint k = 0; k < row->jobs_n; k++) {
      const job_result *j = report_dcgm_job(r, row, k);
      for (gsize m = 0; m < G_N_ELEMENTS(report_dcgm_metrics); m++) {
        if (report_dcgm_metrics[m].prom_only) continue;
        report_csv_key(out, r);
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

/* The container a kind's pod usually runs its GPU work in (the names
 * scripts/make-dcgm-example gives): JupyterHub's "notebook", KServe's "kserve-container",
 * the Kubeflow PyTorchJob's "pytorch", Argo's "main". */
static const char *report_dcgm_container(const char *kind) {
  static const char *const names[][2] = {{"notebook", "notebook"},
                                          {"inference", "kserve-container"},
                                          {"training", "pytorch"},
                                          {"batch", "main"}};
  for (gsize i = 0; kind && i < G_N_ELEMENTS(names); i++)
    if (!strcmp(kind, names[i][0])) return names[i][1];
  return kind ? kind : "";
}

/* A UUID-shaped "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" from the GPU's pool, node and
 * index (a SHA-256 prefix): stable across runs of the same cluster, distinct per GPU. */
static char *report_dcgm_uuid(const char *pool, guint32 node, guint32 gpu) {
  g_autofree char *key = g_strdup_printf("%s/%u/%u", pool, node, gpu);
  g_autofree char *h = g_compute_checksum_for_string(G_CHECKSUM_SHA256, key, -1);
  return g_strdup_printf("GPU-%.8s-%.4s-%.4s-%.4s-%.12s", h, h + 8, h + 12, h + 16, h + 20);
}

/* dcgm-exporter's label set, in its order (gpu, UUID, pci_bus_id, device, modelName,
 * Hostname, DCGM_FI_DRIVER_VERSION, container, namespace, pod), then the scrape target's
 * instance and sharesim's pool and scenario. A job id "ns/pod" (as `import dcgm` names
 * them) gives namespace ns and pod pod; else the pod is the id and the namespace the tenant. */
static void report_dcgm_prom_labels(GString *out, const results *r, const gpu_series_row *row,
                                    const job_result *j) {
  const char *pool = report_dcgm_pool(r, row->pool);
  const gpu_model *g = report_dcgm_model(r, row);
  g_autofree char *host = g_strdup_printf("%s-node%u", pool, row->node);
  g_autofree char *uuid = report_dcgm_uuid(pool, row->node, row->gpu);
  g_autofree char *bus = g_strdup_printf("%08X:%02X:00.0", row->gpu / 255, row->gpu % 255 + 1);
  g_autofree char *device = g_strdup_printf("nvidia%u", row->gpu);
  g_autofree char *instance = g_strdup_printf("%s:9400", host);
  const char *slash = j && j->id ? strchr(j->id, '/') : NULL;
  g_autofree char *ns = slash ? g_strndup(j->id, (gsize)(slash - j->id))
                              : g_strdup(j && j->tenant ? j->tenant : "");
  char gpu[16];
  g_snprintf(gpu, sizeof gpu, "%u", row->gpu);
  report_prom_label(out, "gpu", gpu, TRUE);
  report_prom_label(out, "UUID", uuid, FALSE);
  report_prom_label(out, "pci_bus_id", bus, FALSE);
  report_prom_label(out, "device", device, FALSE);
  report_prom_label(out, "modelName", g ? g->product_name : "NVIDIA GPU", FALSE);
  report_prom_label(out, "Hostname", host, FALSE);
  report_prom_label(out, "DCGM_FI_DRIVER_VERSION", "simulated", FALSE);
  report_prom_label(out, "container", report_dcgm_container(j ? j->kind : NULL), FALSE);
  report_prom_label(out, "namespace", ns, FALSE);
  report_prom_label(out, "pod", slash ? slash + 1 : j && j->id ? j->id : "", FALSE);
  report_prom_label(out, "instance", instance, FALSE);
  report_prom_label(out, "pool", pool, FALSE);
  report_prom_label(out, "scenario", r->scenario_name ? r->scenario_name : "", FALSE);
  g_string_append(out, "} ");
}

typedef struct report_dcgm_sample {
  guint row, k;
} report_dcgm_sample;

/* Do two samples belong to one series (the same GPU and job)? */
static gboolean report_dcgm_same_series(const results *r, const report_dcgm_sample *x,
                                        const report_dcgm_sample *y) {
  const gpu_series_row *rx = &g_array_index(r->gpu_series, gpu_series_row, x->row);
  const gpu_series_row *ry = &g_array_index(r->gpu_series, gpu_series_row, y->row);
  return rx->pool == ry->pool && rx->node == ry->node && rx->gpu == ry->gpu &&
         g_array_index(r->gpu_series_jobs, guint32, rx->jobs_first + x->k) ==
             g_array_index(r->gpu_series_jobs, guint32, ry->jobs_first + y->k);
}

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

/* The label text of each series (samples sorted by series, so a series' samples are
 * contiguous): built once per series, not once per sample and metric. series[i] is the
 * index into the returned array of sample i's labels. */
static GPtrArray *report_dcgm_series_labels(const results *r, GArray *samples, GArray *series) {
  GPtrArray *labels = g_ptr_array_new_with_free_func(g_free);
  for (guint i = 0; i < samples->len; i++) {
    const report_dcgm_sample *s = &g_array_index(samples, report_dcgm_sample, i);
    if (i > 0 && report_dcgm_same_series(r, s - 1, s)) {
      guint prev = g_array_index(series, guint, i - 1);
      g_array_append_val(series, prev);
      continue;
    }
    const gpu_series_row *row = &g_array_index(r->gpu_series, gpu_series_row, s->row);
    GString *lab = g_string_new(NULL);
    report_dcgm_prom_labels(lab, r, row, report_dcgm_job(r, row, s->k));
    guint n = labels->len;
    g_ptr_array_add(labels, g_string_free(lab, FALSE));
    g_array_append_val(series, n);
  }
  return labels;
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
  GArray *series = g_array_sized_new(FALSE, FALSE, sizeof(guint), samples->len);
  GPtrArray *labels = report_dcgm_series_labels(r, samples, series);
  for (gsize m = 0; m < G_N_ELEMENTS(report_dcgm_metrics); m++) {
    const dcgm_metric_def *def = &report_dcgm_metrics[m];
    g_string_append_printf(out, "# TYPE %s gauge\n# HELP %s %s\n", def->name, def->name, def->help);
    for (guint i = 0; i < samples->len; i++) {
      const report_dcgm_sample *s = &g_array_index(samples, report_dcgm_sample, i);
      const gpu_series_row *row = &g_array_index(r->gpu_series, gpu_series_row, s->row);
      g_string_append(out, def->name);
      g_string_append_c(out, '{');
      g_string_append(out, g_ptr_array_index(labels, g_array_index(series, guint, i)));
      report_num(out, report_dcgm_value(def, r, row));
      g_string_append_c(out, ' ');
      report_prom_stamp(out, r, row->t_end_s);
      g_string_append_c(out, '\n');
    }
  }
  report_prom_pools(r, out);
  g_string_append(out, "# EOF\n");
  g_ptr_array_unref(labels);
  g_array_unref(series);
  g_array_unref(samples);
}
