/* report-dcgm.c: the per-GPU series of a run (run --dcgm) written as the DCGM exporter's
 * metrics, so that a simulated cluster opens in the dashboards built for real ones:
 * dcgm.csv (one sample per row, the form `sharesim import dcgm` reads back) and dcgm.prom
 * (OpenMetrics text, e.g. for `promtool tsdb create-blocks-from openmetrics`). One sample
 * per GPU, interval and resident job (the exporter labels a shared GPU's series with each
 * pod on it), at the interval's end; values are the interval's means (memory: its peak).
 * dcgm.csv has no row for a GPU idle in an interval; dcgm.prom, as dcgm-exporter exports
 * every GPU, gives it a sample of its own (container, namespace and pod empty). dcgm.prom
 * adds the gauges NVIDIA's Grafana dashboard queries (power, temperature, clocks, tensor
 * activity: modelled or marked synthetic) and labels its series as dcgm-exporter does (a
 * job's series on a MIG instance with GPU_I_PROFILE and GPU_I_ID), plus instance, pool and
 * scenario; a run with a `start:` is stamped in Unix seconds, else in seconds from 0
 * (dcgm.prom: whole seconds, rounded up). Both are written a line at a time; their size is
 * bounded before the run by the work budget (src/sim/budget.c, budget_dcgm). It reads the
 * frozen results only. */
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

static const gpu_series_job *report_dcgm_entry(const results *r, const gpu_series_row *row,
                                               guint k) {
  return &g_array_index(r->gpu_series_jobs, gpu_series_job, row->jobs_first + k);
}

static const job_result *report_dcgm_job(const results *r, const gpu_series_row *row, guint k) {
  guint32 idx = report_dcgm_entry(r, row, k)->job;
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

void report_dcgm_csv_to(const results *r, report_out *ro) {
  GString *out = ro->buf;
  report_csv_key_header(out);
  g_string_append(out, "timestamp,metric,value,Hostname,gpu,UUID,pod,namespace,pool\n");
  for (guint i = 0; i < r->gpu_series->len; i++) {
    const gpu_series_row *row = &g_array_index(r->gpu_series, gpu_series_row, i);
    for (guint k = 0; k < row->jobs_n; k++) { /* an idle GPU's interval: no row (no pod) */
      const job_result *j = report_dcgm_job(r, row, k);
      for (gsize m = 0; m < G_N_ELEMENTS(report_dcgm_metrics); m++) {
        if (report_dcgm_metrics[m].prom_only) continue;
        report_csv_key(out, r);
        report_prom_stamp(out, r, row->t_end_s);
        g_string_append_c(out, ',');
        g_string_append(out, report_dcgm_metrics[m].name);
        g_string_append_c(out, ',');
        report_num(out, report_dcgm_value(&report_dcgm_metrics[m], r, row));
        g_string_append_c(out, ',');
        report_dcgm_labels_csv(out, r, row, j);
        g_string_append_c(out, '\n');
        report_out_row(ro);
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

/* dcgm-exporter's label set, in its order (gpu, UUID, pci_bus_id, device, modelName, on a
 * MIG device GPU_I_PROFILE and GPU_I_ID, Hostname, DCGM_FI_DRIVER_VERSION, container,
 * namespace, pod: the exporter's text template), then the scrape target's instance and
 * sharesim's pool and scenario. The GPU's own labels, the same for all its series, are
 * made once per GPU (report_dcgm_gpu_labels): head up to modelName, tail from Hostname to
 * the driver version. A job's series on a MIG instance (gpu_series_job.inst) carries the
 * instance's profile name and number between them, as the exporter labels a MIG device;
 * gpu and UUID stay the card's, as there.
 * A job id "ns/pod" (as `import dcgm` names them) gives namespace ns and pod pod; else the
 * pod is the id and the namespace the tenant. A GPU with no pod in an interval (j NULL)
 * has a series of its own, as dcgm-exporter exports every GPU: container, namespace and
 * pod empty. */
static void report_dcgm_gpu_labels(GString *head, GString *tail, const results *r,
                                   const gpu_series_row *row) {
  const char *pool = report_dcgm_pool(r, row->pool);
  const gpu_model *g = report_dcgm_model(r, row);
  g_autofree char *host = g_strdup_printf("%s-node%u", pool, row->node);
  g_autofree char *uuid = report_dcgm_uuid(pool, row->node, row->gpu);
  g_autofree char *bus = g_strdup_printf("%08X:%02X:00.0", row->gpu / 255, row->gpu % 255 + 1);
  g_autofree char *device = g_strdup_printf("nvidia%u", row->gpu);
  char gpu[16];
  g_snprintf(gpu, sizeof gpu, "%u", row->gpu);
  g_string_truncate(head, 0);
  report_prom_label(head, "gpu", gpu, TRUE);
  report_prom_label(head, "UUID", uuid, FALSE);
  report_prom_label(head, "pci_bus_id", bus, FALSE);
  report_prom_label(head, "device", device, FALSE);
  report_prom_label(head, "modelName", g ? g->product_name : "NVIDIA GPU", FALSE);
  g_string_truncate(tail, 0);
  report_prom_label(tail, "Hostname", host, FALSE);
  report_prom_label(tail, "DCGM_FI_DRIVER_VERSION", "simulated", FALSE);
}

/* GPU_I_PROFILE and GPU_I_ID of a MIG instance inst (gpu_series_job.inst; 0: none). */
static void report_dcgm_mig_labels(GString *out, const results *r, const gpu_series_row *row,
                                   guint32 inst) {
  const gpu_model *g = report_dcgm_model(r, row);
  guint32 profile = inst ? GPU_SERIES_INST_PROFILE(inst) : 0;
  if (!inst || !g || profile >= g->n_profiles) return;
  char id[16];
  g_snprintf(id, sizeof id, "%u", GPU_SERIES_INST_ID(inst));
  report_prom_label(out, "GPU_I_PROFILE", g->profiles[profile].name, FALSE);
  report_prom_label(out, "GPU_I_ID", id, FALSE);
}

static void report_dcgm_prom_labels(GString *out, const results *r, const gpu_series_row *row,
                                    const GString *const gpu_labels[2], const job_result *j,
                                    guint32 inst) {
  const char *pool = report_dcgm_pool(r, row->pool);
  g_autofree char *instance = g_strdup_printf("%s-node%u:9400", pool, row->node);
  const char *slash = j && j->id ? strchr(j->id, '/') : NULL;
  g_autofree char *ns = slash ? g_strndup(j->id, (gsize)(slash - j->id))
                              : g_strdup(j && j->tenant ? j->tenant : "");
  g_string_truncate(out, 0);
  g_string_append_len(out, gpu_labels[0]->str, (gssize)gpu_labels[0]->len);
  report_dcgm_mig_labels(out, r, row, inst);
  g_string_append_len(out, gpu_labels[1]->str, (gssize)gpu_labels[1]->len);
  report_prom_label(out, "container", j ? report_dcgm_container(j->kind) : "", FALSE);
  report_prom_label(out, "namespace", ns, FALSE);
  report_prom_label(out, "pod", slash ? slash + 1 : j && j->id ? j->id : "", FALSE);
  report_prom_label(out, "instance", instance, FALSE);
  report_prom_label(out, "pool", pool, FALSE);
  report_prom_label(out, "scenario", r->scenario_name ? r->scenario_name : "", FALSE);
  g_string_append(out, "} ");
}

/* A sample: row's k-th resident job, or the GPU idle in row's interval (k IDLE). */
#define REPORT_DCGM_IDLE G_MAXUINT32
typedef struct report_dcgm_sample {
  guint32 row, k;
} report_dcgm_sample;

/* The series of a sample on its GPU: 0 the idle one, else 1 + the job's index and its
 * MIG instance there (a job back on another instance of the card is another series). */
static guint64 report_dcgm_series_of(const results *r, const report_dcgm_sample *s) {
  if (s->k == REPORT_DCGM_IDLE) return 0;
  const gpu_series_row *row = &g_array_index(r->gpu_series, gpu_series_row, s->row);
  const gpu_series_job *e = report_dcgm_entry(r, row, s->k);
  return ((1 + (guint64)e->job) << 24) | (e->inst & 0xffffffu);
}

static const gpu_series_row *report_dcgm_row(const results *r, guint32 idx) {
  return &g_array_index(r->gpu_series, gpu_series_row, idx);
}

/* Rows in GPU order: pool, node, GPU, then time (the array's order is pool, time, GPU). */
static gint report_dcgm_row_cmp(gconstpointer a, gconstpointer b, gpointer ud) {
  const gpu_series_row *x = report_dcgm_row(ud, *(const guint32 *)a);
  const gpu_series_row *y = report_dcgm_row(ud, *(const guint32 *)b);
  if (x->pool != y->pool) return x->pool < y->pool ? -1 : 1;
  if (x->node != y->node) return x->node < y->node ? -1 : 1;
  if (x->gpu != y->gpu) return x->gpu < y->gpu ? -1 : 1;
  if (x->t_end_s != y->t_end_s) return x->t_end_s < y->t_end_s ? -1 : 1;
  return 0;
}

/* One GPU's samples in series order: its idle series first, then one per job (by index),
 * each in time order (one GPU's rows are in time order in the array). */
static gint report_dcgm_sample_cmp(gconstpointer a, gconstpointer b, gpointer ud) {
  const report_dcgm_sample *x = a, *y = b;
  guint64 sx = report_dcgm_series_of(ud, x), sy = report_dcgm_series_of(ud, y);
  if (sx != sy) return sx < sy ? -1 : 1;
  return x->row < y->row ? -1 : x->row > y->row;
}

static gboolean report_dcgm_same_gpu(const gpu_series_row *x, const gpu_series_row *y) {
  return x->pool == y->pool && x->node == y->node && x->gpu == y->gpu;
}

typedef struct report_dcgm_writer {
  const results *r;
  report_out *ro;
  GArray *order;   /* guint32 row indices in GPU order (report_dcgm_row_cmp) */
  GArray *samples; /* one GPU's report_dcgm_sample */
  GString *gpu_labels[2], *labels; /* the GPU's labels before and after the MIG ones */
} report_dcgm_writer;

/* The samples of metric def on the GPU of rows order[a, b), series by series. */
static void report_dcgm_gpu(report_dcgm_writer *w, const dcgm_metric_def *def, guint a, guint b) {
  const results *r = w->r;
  g_array_set_size(w->samples, 0);
  for (guint i = a; i < b; i++) {
    guint32 idx = g_array_index(w->order, guint32, i);
    report_dcgm_sample s = {idx, REPORT_DCGM_IDLE};
    if (!report_dcgm_row(r, idx)->jobs_n) g_array_append_val(w->samples, s);
    for (s.k = 0; s.k < report_dcgm_row(r, idx)->jobs_n; s.k++) g_array_append_val(w->samples, s);
  }
  g_array_sort_with_data(w->samples, report_dcgm_sample_cmp, (gpointer)r);
  report_dcgm_gpu_labels(w->gpu_labels[0], w->gpu_labels[1], r,
                         report_dcgm_row(r, g_array_index(w->order, guint32, a)));
  guint64 series = G_MAXUINT64;
  gint64 last = G_MININT64;
  GString *out = w->ro->buf;
  for (guint i = 0; i < w->samples->len; i++) {
    const report_dcgm_sample *s = &g_array_index(w->samples, report_dcgm_sample, i);
    const gpu_series_row *row = report_dcgm_row(r, s->row);
    if (report_dcgm_series_of(r, s) != series) { /* a new series: its labels, once */
      series = report_dcgm_series_of(r, s);
      last = G_MININT64;
      gboolean idle = s->k == REPORT_DCGM_IDLE;
      report_dcgm_prom_labels(w->labels, r, row, (const GString *const *)w->gpu_labels,
                              idle ? NULL : report_dcgm_job(r, row, s->k),
                              idle ? 0 : report_dcgm_entry(r, row, s->k)->inst);
    }
    g_string_append(out, def->name);
    g_string_append_c(out, '{');
    g_string_append_len(out, w->labels->str, (gssize)w->labels->len);
    report_num(out, report_dcgm_value(def, r, row));
    g_string_append_c(out, ' ');
    report_prom_stamp_whole(out, r, row->t_end_s, &last);
    g_string_append_c(out, '\n');
    report_out_row(w->ro);
  }
}

/* dcgm.prom: each metric's family, GPU by GPU (in memory: the rows' GPU order, 4 bytes a
 * row, and one GPU's samples), then the pools' series, then # EOF. */
void report_dcgm_openmetrics_to(const results *r, report_out *ro) {
  report_dcgm_writer w = {r, ro, g_array_sized_new(FALSE, FALSE, sizeof(guint32), r->gpu_series->len),
                          g_array_new(FALSE, FALSE, sizeof(report_dcgm_sample)),
                          {g_string_new(NULL), g_string_new(NULL)}, g_string_new(NULL)};
  for (guint32 i = 0; i < r->gpu_series->len; i++) g_array_append_val(w.order, i);
  g_array_sort_with_data(w.order, report_dcgm_row_cmp, (gpointer)r);
  for (gsize m = 0; m < G_N_ELEMENTS(report_dcgm_metrics); m++) {
    const dcgm_metric_def *def = &report_dcgm_metrics[m];
    g_string_append_printf(ro->buf, "# TYPE %s gauge\n# HELP %s %s\n", def->name, def->name,
                           def->help);
    guint b;
    for (guint a = 0; a < w.order->len; a = b) {
      const gpu_series_row *first = report_dcgm_row(r, g_array_index(w.order, guint32, a));
      for (b = a + 1; b < w.order->len &&
                      report_dcgm_same_gpu(first, report_dcgm_row(r, g_array_index(w.order, guint32, b)));
           b++) {
      }
      report_dcgm_gpu(&w, def, a, b);
    }
  }
  report_prom_pools(r, ro);
  g_string_append(ro->buf, "# EOF\n");
  g_string_free(w.labels, TRUE);
  g_string_free(w.gpu_labels[0], TRUE);
  g_string_free(w.gpu_labels[1], TRUE);
  g_array_unref(w.samples);
  g_array_unref(w.order);
}

void report_dcgm_openmetrics(const results *r, GString *out) {
  report_out ro = {.buf = out};
  report_dcgm_openmetrics_to(r, &ro);
}
