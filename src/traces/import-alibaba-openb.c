/* import-alibaba-openb.c: the Alibaba cluster-trace-gpu-v2023 ("openb") pod list as a job
 * trace, and its node list as a scenario pool of node groups (GPUs, CPU, memory, model per
 * node). One job per scheduled GPU pod: submit = creation_time, run time = deletion_time -
 * scheduled_time, gpu_frac = gpu_milli/1000 for single-GPU pods, kind by a qos rule; with
 * --nodes also host CPU, memory and gpu_spec. CPU-only and never-scheduled pods are counted
 * and left out unless --pods all. Lists with fewer columns (FGD's repository ships them: no
 * memory_mib, or no qos and no times) are read with each missing column's stated default. It does not guess GPU memory or utilisation beyond the
 * documented defaults (the file has neither); every mapping choice is in docs/traces.md. */
#include "import.h"
#include "catalog.h"
#include "scenario.h"
#include <math.h>
#include <string.h>

/* Defaults (docs/traces.md, "alibaba-openb"). */
#define OPENB_GPU_MEM_GB 16.0     /* memory of the smallest GPUs in the list (T4, P100, V100M16) */
#define OPENB_SERVICE_MS 15000.0  /* GenAI 2026 pipeline latency median, 15,132 ms */
#define OPENB_LS_BUSY 0.07        /* GenAI 2026 pods' mean GPU duty cycle, 7.0 % */
#define OPENB_GPU_MODEL "T4"
#define OPENB_STRATEGY "fractional"
#define OPENB_NO_END_S 31536000   /* a pod with no deletion_time holds its GPUs a year (365 d) */
#define OPENB_NO_QOS_TENANT "openb" /* tenant of every pod of a list without qos (kind batch) */

static const import_opt openb_options[] = {
    {"nodes", "NODES.csv",
     "node list (openb_node_list_*.csv) for --scenario-out; the trace then also carries "
     "cpu_milli, memory_mib and gpu_spec",
     FALSE, -1},
    {"scenario-out", "FILE",
     "write the node list as a scenario (one pool, node groups in the list's order)", FALSE,
     IMPORT_OUT_SCENARIO},
    {"pods", "scheduled|all",
     "which pods become jobs: scheduled GPU pods (default), or all, also CPU-only pods (gpus 0, "
     "read by `sharesim fill` only) and never-scheduled ones, as the FGD experiments use them",
     FALSE, -1},
    {"gpu-model", "MODEL", "catalogue GPU model of that pool (default " OPENB_GPU_MODEL ")",
     FALSE, -1},
    {"strategy", "NAME", "sharing strategy of that pool (default " OPENB_STRATEGY ")", FALSE, -1},
    {"qos-kind", "QOS=KIND",
     "job kind for a qos class (defaults: LS=inference, Guaranteed=inference, BE=batch, "
     "Burstable=batch)",
     TRUE, -1},
    {"gpu-mem-gb", "GB", "GPU memory of a whole GPU; mem_gb = gpu_frac x GB (default 16)", FALSE,
     -1},
    {"service-ms", "MS", "service time of one request of an inference pod (default 15000)", FALSE,
     -1},
    {"ls-busy", "F", "busy share of an inference pod's time (default 0.07)", FALSE, -1},
    {NULL, NULL, NULL, FALSE, -1},
};

typedef struct openb_rule {
  char *qos;
  job_kind kind;
} openb_rule;

enum {
  O_NAME, O_NUM_GPU, O_GPU_MILLI, O_QOS, O_CREATE, O_DELETE, O_SCHED, O_PHASE, O_CPU, O_MEM,
  O_SPEC, O_NCOLS
};
static const char *const openb_cols[O_NCOLS] = {
    "name", "num_gpu", "gpu_milli", "qos", "creation_time", "deletion_time", "scheduled_time",
    "pod_phase", "cpu_milli", "memory_mib", "gpu_spec"};

typedef struct openb_reader {
  import_ctx *c;
  GArray *rules;            /* openb_rule */
  double gpu_mem_gb, service_ms, ls_busy;
  gboolean host, all_pods;  /* --nodes given (host columns); --pods all */
  int col[O_NCOLS];
  gboolean have_header, header_bad;
  guint ncols;              /* fields in the header */
  GHashTable *ids;          /* pod names seen (duplicates are bad rows) */
  guint64 cpu_only, pending, fractional, multi, scheduled_gpu;
  guint64 gpu_pods, fractional_all; /* all pods asking for GPUs / for part of one */
  guint64 index;            /* pod rows read: the arrival second of a list without times */
  guint64 by_kind[JOB_KIND_COUNT];
} openb_reader;

static gboolean openb_rule_kind(const openb_reader *r, const char *qos, job_kind *out) {
  for (guint i = r->rules->len; i-- > 0;) {
    const openb_rule *ru = &g_array_index(r->rules, openb_rule, i);
    if (!strcmp(ru->qos, qos)) {
      *out = ru->kind;
      return TRUE;
    }
  }
  return FALSE;
}

/* A whole number in [lo, hi] (written as an integer or as a float such as "1.0"). */
static gboolean openb_whole(const char *text, double lo, double hi, int64_t *out) {
  double v;
  if (!import_parse_number(text, &v) || v != floor(v) || v < lo || v > hi) return FALSE;
  *out = (int64_t)v;
  return TRUE;
}

static gboolean openb_bad(openb_reader *r, const csvread_row *row, int field,
                          const char *expected) {
  const char *found = row->cells[r->col[field]];
  g_autofree char *esc = g_strescape(found, NULL);
  if (strlen(esc) > 60) strcpy(esc + 57, "...");
  return import_bad_row(r->c, row->path, row->line, (guint)r->col[field] + 1,
                        "%s: expected %s, found '%s'", openb_cols[field], expected, esc);
}

/* The defaults taken for the optional columns a list lacks (docs/traces.md). */
static void openb_note_missing(openb_reader *r) {
  static const struct { int col; const char *what; } missing[] = {
      {O_QOS, "no qos column: every pod is a batch job of tenant " OPENB_NO_QOS_TENANT},
      {O_CREATE, "no creation_time column: pods arrive in list order, one a second from 0 s"},
      {O_SCHED, "no scheduled_time column: every pod counts as scheduled at its creation"},
      {O_DELETE, "no deletion_time column: pods hold their GPUs for a year (the fill-up "
                 "experiment's pods never leave)"},
      {O_CPU, "no cpu_milli column: pods ask for no host CPU"},
      {O_MEM, "no memory_mib column: pods ask for no host memory"},
      {O_SPEC, "no gpu_spec column: pods may run on any GPU model"}};
  for (guint k = 0; k < G_N_ELEMENTS(missing); k++)
    if (r->col[missing[k].col] < 0 && (missing[k].col < O_CPU || r->host))
      import_note(r->c, "%s", missing[k].what);
}

/* Cell of an optional column, or def when the list lacks it. */
static const char *openb_cell(const openb_reader *r, const csvread_row *row, int field,
                              const char *def) {
  return r->col[field] >= 0 ? row->cells[r->col[field]] : def;
}

static gboolean openb_header(openb_reader *r, const csvread_row *row) {
  r->have_header = TRUE;
  r->ncols = row->n;
  gboolean ok = TRUE;
  for (int f = 0; f < O_NCOLS; f++) {
    r->col[f] = import_column(row, openb_cols[f]);
    gboolean required = f == O_NAME || f == O_NUM_GPU || f == O_GPU_MILLI;
    if (r->col[f] < 0 && required) {
      diag_add(r->c->diags, row->path, row->line, 0,
               "header: missing column '%s' (an openb pod list has at least name, num_gpu and "
               "gpu_milli; also cpu_milli, memory_mib, gpu_spec, qos, pod_phase, creation_time, "
               "deletion_time, scheduled_time)",
               openb_cols[f]);
      ok = FALSE;
    }
  }
  if (ok) openb_note_missing(r);
  r->header_bad = !ok;
  return ok;
}

/* The host columns of a pod (--nodes): CPU, memory and the GPU-model constraint. */
static gboolean openb_host(openb_reader *r, const csvread_row *row, int64_t *cpu,
                           int64_t *mem, const char **spec) {
  if (!openb_whole(openb_cell(r, row, O_CPU, "0"), 0, (double)TRACE_MAX_CPU_MILLI, cpu))
    return openb_bad(r, row, O_CPU, "millicores, a whole number from 0 to 1e8"), FALSE;
  if (!openb_whole(openb_cell(r, row, O_MEM, "0"), 0, (double)TRACE_MAX_MEMORY_MIB, mem))
    return openb_bad(r, row, O_MEM, "MiB, a whole number from 0 to 1073741824"), FALSE;
  const char *s = openb_cell(r, row, O_SPEC, "");
  gboolean ok = g_utf8_validate(s, -1, NULL);
  for (const char *p = s; ok && *p; p++) ok = (unsigned char)*p >= 0x20;
  if (!ok) return openb_bad(r, row, O_SPEC, "GPU models joined by '|'"), FALSE;
  *spec = *s ? s : NULL;
  return TRUE;
}

/* The fields of one pod row, checked (times in whole seconds; sched -1 if never). */
typedef struct openb_fields {
  const char *name, *qos;
  job_kind kind;
  int64_t num_gpu, milli, t_create, t_delete, t_sched;
} openb_fields;

/* Checks a pod row's fields into f; FALSE after reporting the first bad one. */
static gboolean openb_pod_fields(openb_reader *r, const csvread_row *row, openb_fields *f) {
  const char *const *v = row->cells;
  int64_t num_gpu, milli, t_create, t_delete, t_sched = -1;
  const double tmax = (double)(TRACE_MAX_TIME_NS / SIM_NS_PER_S);
  const char *name = v[r->col[O_NAME]];
  if (!*name || !g_utf8_validate(name, -1, NULL)) {
    openb_bad(r, row, O_NAME, "a pod name");
    return FALSE;
  }
  if (!openb_whole(v[r->col[O_NUM_GPU]], 0, TRACE_MAX_GPUS, &num_gpu)) {
    openb_bad(r, row, O_NUM_GPU, "a whole number of GPUs from 0 to 100000");
    return FALSE;
  }
  if (!openb_whole(v[r->col[O_GPU_MILLI]], 0, 1000, &milli)) {
    openb_bad(r, row, O_GPU_MILLI, "thousandths of a GPU from 0 to 1000");
    return FALSE;
  }
  char index_s[32] = ""; /* a list without times: the pods arrive one a second */
  if (r->col[O_CREATE] < 0) g_snprintf(index_s, sizeof index_s, "%" G_GUINT64_FORMAT, r->index);
  const char *create = openb_cell(r, row, O_CREATE, index_s);
  if (!openb_whole(create, 0, tmax, &t_create)) {
    openb_bad(r, row, O_CREATE, "whole seconds >= 0");
    return FALSE;
  }
  const char *sched = openb_cell(r, row, O_SCHED, create);
  if (*sched && !openb_whole(sched, 0, tmax, &t_sched)) {
    openb_bad(r, row, O_SCHED, "whole seconds >= 0, or empty for a pod never scheduled");
    return FALSE;
  }
  if (r->col[O_DELETE] < 0) {
    t_delete = (t_sched >= 0 ? t_sched : t_create) + OPENB_NO_END_S;
  } else if (!openb_whole(v[r->col[O_DELETE]], 0, tmax, &t_delete)) {
    openb_bad(r, row, O_DELETE, "whole seconds >= 0");
    return FALSE;
  }
  const char *qos = openb_cell(r, row, O_QOS, NULL);
  job_kind kind = JOB_BATCH;
  if (qos && !openb_rule_kind(r, qos, &kind)) {
    GString *names = g_string_new(NULL);
    for (guint i = 0; i < r->rules->len; i++) {
      const char *q = g_array_index(r->rules, openb_rule, i).qos;
      if (!strstr(names->str, q)) g_string_append_printf(names, "%s%s", names->len ? ", " : "", q);
    }
    g_autofree char *exp = g_strdup_printf("a qos class with a kind (%s; add one with "
                                           "--qos-kind QOS=KIND)", names->str);
    g_string_free(names, TRUE);
    openb_bad(r, row, O_QOS, exp);
    return FALSE;
  }
  if (t_sched >= 0 && t_sched < t_create) {
    openb_bad(r, row, O_SCHED, "a time at or after creation_time");
    return FALSE;
  }
  if (t_sched >= 0 && t_delete < t_sched) {
    openb_bad(r, row, O_DELETE, "a time at or after scheduled_time");
    return FALSE;
  }
  if (num_gpu == 1 && milli == 0) {
    openb_bad(r, row, O_GPU_MILLI, "a share above 0 for a pod with one GPU");
    return FALSE;
  }
  *f = (openb_fields){name, qos ? qos : OPENB_NO_QOS_TENANT, kind, num_gpu, milli,
                      t_create, t_delete, t_sched};
  return TRUE;
}

static void openb_pod(openb_reader *r, const csvread_row *row) {
  import_ctx *c = r->c;
  const char *const *v = row->cells;
  openb_fields f;
  gboolean ok = openb_pod_fields(r, row, &f);
  r->index++;
  if (!ok) return;
  const char *name = f.name, *qos = f.qos;
  job_kind kind = f.kind;
  int64_t num_gpu = f.num_gpu, milli = f.milli, t_create = f.t_create, t_delete = f.t_delete,
          t_sched = f.t_sched;
  if (g_hash_table_contains(r->ids, name)) {
    import_bad_row(c, row->path, row->line, (guint)r->col[O_NAME] + 1,
                   "name: expected a pod name not seen before, found '%s' again", name);
    return;
  }
  int64_t cpu = 0, mem = 0;
  const char *spec = NULL;
  if (r->host && !openb_host(r, row, &cpu, &mem, &spec)) return;
  g_hash_table_add(r->ids, g_strdup(name));
  if (num_gpu > 0) r->gpu_pods++;
  if (num_gpu == 1 && milli < 1000) r->fractional_all++;
  if (num_gpu == 0) {
    r->cpu_only++;
    if (!r->all_pods) return;
  } else if (t_sched < 0) {
    r->pending++;
    if (!r->all_pods) return;
  } else {
    r->scheduled_gpu++;
  }
  job_spec j;
  job_init(&j, kind);
  guint64 workers = (guint64)MAX(num_gpu, 1);
  j.cpu_milli = (cpu + (int64_t)workers - 1) / (int64_t)workers; /* per worker, rounded up */
  j.memory_mib = (mem + (int64_t)workers - 1) / (int64_t)workers;
  j.gpu_spec = spec;
  j.id = name;
  j.tenant = qos;
  j.gpus = (guint32)num_gpu;
  j.gpu_frac = num_gpu == 1 ? (double)milli / 1000.0 : 1.0;
  if (num_gpu == 1 && milli < 1000) r->fractional++;
  if (num_gpu > 1) r->multi++;
  j.submit_ns = t_create * SIM_NS_PER_S;
  /* a pod deleted the second it was bound still held its GPU: at least 1 s; a pod never
   * scheduled (--pods all) lived from creation to deletion */
  j.duration_ns = MAX(t_delete - (t_sched >= 0 ? t_sched : t_create), 1) * SIM_NS_PER_S;
  j.mem_bytes = (int64_t)llround(j.gpu_frac * r->gpu_mem_gb * 1e9 / 1e6) * 1000000;
  if (j.mem_bytes <= 0) j.mem_bytes = 1000000;
  if (num_gpu == 0) j.mem_bytes = 0; /* a CPU-only pod holds no GPU memory */
  j.sm = j.gpu_frac;
  j.priority = kind == JOB_INFERENCE ? 1 : 0;
  if (kind == JOB_INFERENCE) {
    j.service_ms = r->service_ms;
    j.rate_rps = r->ls_busy * 1000.0 / r->service_ms;
  }
  if (kind == JOB_NOTEBOOK) j.busy = r->ls_busy;
  r->by_kind[kind]++;
  char sched_s[32], del_s[32];
  g_snprintf(sched_s, sizeof sched_s, "%" G_GINT64_FORMAT, t_sched);
  g_snprintf(del_s, sizeof del_s, "%" G_GINT64_FORMAT, t_delete);
  const char *extra[3] = {sched_s, del_s, r->col[O_PHASE] >= 0 ? v[r->col[O_PHASE]] : NULL};
  import_emit_job(c, &j, extra, 3);
}

static gboolean openb_row(const csvread_row *row, void *ud) {
  openb_reader *r = ud;
  if (row->error) return import_unreadable_row(r->c, row, &r->have_header, &r->header_bad, TRUE);
  if (row->header) return openb_header(r, row);
  if (r->header_bad) return FALSE;
  r->c->rows_read++;
  if (row->n != r->ncols) {
    import_bad_row(r->c, row->path, row->line, 0, "expected %u fields as in the header, found %u",
                   r->ncols, row->n);
    return TRUE;
  }
  openb_pod(r, row);
  return TRUE;
}

/* ---- node list ---- */

/* A run of consecutive alike nodes (GPUs, CPU, memory, model) in the node list. */
typedef struct openb_group {
  int64_t gpus, cpu, mem;
  char *model;
  guint64 nodes;
} openb_group;

typedef struct openb_nodes {
  import_ctx *c;
  import_inventory inv;
  int col_sn, col_gpu, col_model, col_cpu, col_mem;
  gboolean have_header, header_bad;
  GArray *groups;           /* openb_group, in list order */
  guint64 cpu_nodes;        /* nodes without GPUs (left out of the pool) */
} openb_nodes;

static void openb_group_add(openb_nodes *n, int64_t gpus, int64_t cpu, int64_t mem,
                            const char *model) {
  if (n->groups->len) { /* runs of alike nodes: the list's node order is kept */
    openb_group *g = &g_array_index(n->groups, openb_group, n->groups->len - 1);
    if (g->gpus == gpus && g->cpu == cpu && g->mem == mem && !strcmp(g->model, model)) {
      g->nodes++;
      return;
    }
  }
  openb_group g = {gpus, cpu, mem, g_strdup(model), 1};
  g_array_append_val(n->groups, g);
}

/* The scenario: one pool whose node groups are the runs of alike GPU nodes, in list order
 * (placement ties go to the lowest node index, so the order is part of the experiment). */
static void openb_write_scenario(import_ctx *c, const openb_nodes *n, const char *gpu,
                                 const char *strategy) {
  if (!import_wants(c, IMPORT_OUT_SCENARIO)) return;
  GString *s = g_string_new(NULL);
  g_autofree char *base = g_path_get_basename(n->inv.source);
  g_string_append_printf(s,
                         "# Made by `sharesim import` from %s: %" G_GUINT64_FORMAT
                         " nodes, %" G_GUINT64_FORMAT " with GPUs, %" G_GUINT64_FORMAT " GPUs"
                         " (%" G_GUINT64_FORMAT " CPU-only nodes left out).\n",
                         base, n->inv.nodes, n->inv.gpu_nodes, n->inv.gpus, n->cpu_nodes);
  import_inventory_describe(&n->inv, s);
  g_string_append_printf(s,
                         "# One node group per run of alike GPU nodes (GPUs, cpu_milli, memory_mib,"
                         " model), in list\n# order; `model` is what a job's gpu_spec matches. The"
                         " catalogue model %s stands in for GPU\n# memory and speed of every"
                         " node (docs/traces.md).\n"
                         "name: openb\npools:\n  - name: openb\n    gpu: %s\n    strategy: %s\n"
                         "    node_groups:\n",
                         gpu, gpu, strategy);
  for (guint i = 0; i < n->groups->len; i++) {
    const openb_group *g = &g_array_index(n->groups, openb_group, i);
    g_autofree char *model = g_strescape(g->model, NULL);
    g_string_append_printf(s, "      - {nodes: %" G_GUINT64_FORMAT ", gpus_per_node: %"
                           G_GINT64_FORMAT ", cpu_milli: %" G_GINT64_FORMAT ", memory_mib: %"
                           G_GINT64_FORMAT ", model: \"%s\"}\n",
                           g->nodes, g->gpus, g->cpu, g->mem, model);
  }
  import_append(c, IMPORT_OUT_SCENARIO, s->str);
  g_string_free(s, TRUE);
}

static gboolean openb_node_row(const csvread_row *row, void *ud) {
  openb_nodes *n = ud;
  if (row->error) return import_unreadable_row(n->c, row, &n->have_header, &n->header_bad, FALSE);
  if (row->header) {
    n->have_header = TRUE;
    n->col_sn = import_column(row, "sn");
    n->col_gpu = import_column(row, "gpu");
    n->col_model = import_column(row, "model");
    n->col_cpu = import_column(row, "cpu_milli");
    n->col_mem = import_column(row, "memory_mib");
    if (n->col_sn < 0 || n->col_gpu < 0 || n->col_model < 0 || n->col_cpu < 0 ||
        n->col_mem < 0) {
      diag_add(n->c->diags, row->path, row->line, 0,
               "header: expected the columns sn, cpu_milli, memory_mib, gpu and model of an "
               "openb node list");
      n->header_bad = TRUE;
      return FALSE;
    }
    return TRUE;
  }
  if (n->header_bad) return FALSE;
  int need = MAX(MAX(n->col_sn, n->col_cpu), MAX(n->col_mem, MAX(n->col_gpu, n->col_model)));
  if ((int)row->n <= need) {
    import_bad_row(n->c, row->path, row->line, 0, "expected at least %d fields, found %u",
                   need + 1, row->n);
    return TRUE;
  }
  int64_t gpus;
  if (!openb_whole(row->cells[n->col_gpu], 0, SCENARIO_MAX_GPUS_PER_NODE, &gpus)) {
    g_autofree char *esc = g_strescape(row->cells[n->col_gpu], NULL);
    import_bad_row(n->c, row->path, row->line, (guint)n->col_gpu + 1,
                   "gpu: expected a whole number of GPUs from 0 to %d, found '%.60s'",
                   SCENARIO_MAX_GPUS_PER_NODE, esc);
    return TRUE;
  }
  const char *model = row->cells[n->col_model];
  if (gpus > 0 && !*model) {
    import_bad_row(n->c, row->path, row->line, (guint)n->col_model + 1,
                   "model: expected the GPU model of a node with GPUs, found ''");
    return TRUE;
  }
  int64_t cpu, mem;
  static const struct { int which; const char *name, *expected; double max; } host[] = {
      {0, "cpu_milli", "millicores, a whole number from 0 to 1e8", 1e8},
      {1, "memory_mib", "MiB, a whole number from 0 to 1073741824", 1073741824.0}};
  for (guint k = 0; k < G_N_ELEMENTS(host); k++) {
    int col = host[k].which ? n->col_mem : n->col_cpu;
    if (!openb_whole(row->cells[col], 0, host[k].max, host[k].which ? &mem : &cpu)) {
      g_autofree char *esc = g_strescape(row->cells[col], NULL);
      import_bad_row(n->c, row->path, row->line, (guint)col + 1, "%s: expected %s, found '%.60s'",
                     host[k].name, host[k].expected, esc);
      return TRUE;
    }
  }
  import_inventory_add(&n->inv, model, (guint64)gpus);
  if (gpus > 0) openb_group_add(n, gpus, cpu, mem, model);
  else n->cpu_nodes++;
  return TRUE;
}

static gboolean openb_parse_positive(const import_ctx *c, const char *opt, double lo, double hi,
                                     double *out, GError **error) {
  const char *text = import_option(c, opt);
  if (!text) return TRUE;
  double v;
  if (!import_parse_number(text, &v) || !(v > lo) || v > hi) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "--%s: expected a number above %g and at most %g, found '%s'", opt, lo, hi, text);
    return FALSE;
  }
  *out = v;
  return TRUE;
}

static gboolean openb_run(import_ctx *c, GError **error) {
  openb_reader r = {.c = c, .gpu_mem_gb = OPENB_GPU_MEM_GB, .service_ms = OPENB_SERVICE_MS,
                    .ls_busy = OPENB_LS_BUSY};
  if (!openb_parse_positive(c, "gpu-mem-gb", 0, 10000, &r.gpu_mem_gb, error) ||
      !openb_parse_positive(c, "service-ms", 0, TRACE_MAX_MS, &r.service_ms, error) ||
      !openb_parse_positive(c, "ls-busy", 0, 1, &r.ls_busy, error))
    return FALSE;
  const gpu_model *gm;
  share_strategy st;
  if (!import_pool_options(c, OPENB_GPU_MODEL, OPENB_STRATEGY, &gm, &st, error)) return FALSE;
  if (import_wants(c, IMPORT_OUT_SCENARIO) && !import_option(c, "nodes")) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "--scenario-out needs the node list: --nodes openb_node_list_gpu_node.csv");
    return FALSE;
  }
  r.rules = g_array_new(FALSE, FALSE, sizeof(openb_rule));
  static const struct { const char *qos; job_kind kind; } defaults[] = {
      {"LS", JOB_INFERENCE}, {"Guaranteed", JOB_INFERENCE}, {"BE", JOB_BATCH},
      {"Burstable", JOB_BATCH}};
  for (guint i = 0; i < G_N_ELEMENTS(defaults); i++) {
    openb_rule ru = {g_strdup(defaults[i].qos), defaults[i].kind};
    g_array_append_val(r.rules, ru);
  }
  GPtrArray *given = import_option_all(c, "qos-kind");
  gboolean ok = TRUE;
  for (guint i = 0; given && i < given->len && ok; i++) {
    const char *text = g_ptr_array_index(given, i);
    const char *eq = strchr(text, '=');
    job_kind k;
    if (!eq || eq == text || !job_kind_parse(eq + 1, &k)) {
      g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                  "--qos-kind: expected QOS=KIND with KIND notebook, inference, training or "
                  "batch, found '%s'", text);
      ok = FALSE;
      break;
    }
    openb_rule ru = {g_strndup(text, (gsize)(eq - text)), k};
    g_array_append_val(r.rules, ru);
  }
  r.ids = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  r.host = c->host_columns = import_option(c, "nodes") != NULL;
  const char *pods = import_option(c, "pods");
  r.all_pods = pods && !strcmp(pods, "all");
  if (pods && !r.all_pods && strcmp(pods, "scheduled")) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "--pods: expected scheduled or all, found '%s'", pods);
    ok = FALSE;
  }
  if (ok) {
    const char *extra[3] = {"x_scheduled_s", "x_deletion_s", "x_pod_phase"};
    import_trace_header(c, extra, 3);
    for (guint f = 0; f < c->n_files; f++) {
      r.have_header = r.header_bad = FALSE;
      guint64 before = c->rows_read;
      if (csvread_foreach(c->files[f], 0, openb_row, &r, c->diags) && !r.have_header &&
          c->rows_read == before)
        diag_add(c->diags, c->files[f], 1, 0,
                 "header: expected an openb pod list header row, found an empty file");
    }
    import_note(c, "%" G_GUINT64_FORMAT " GPU pods, %" G_GUINT64_FORMAT
                   " of them asking for part of one GPU",
                r.gpu_pods, r.fractional_all);
    import_note(c,
                "%" G_GUINT64_FORMAT " GPU pods scheduled (%" G_GUINT64_FORMAT
                " asking for part of one GPU, %" G_GUINT64_FORMAT " for several GPUs); %s: %"
                G_GUINT64_FORMAT " CPU-only pods, %" G_GUINT64_FORMAT
                " GPU pods never scheduled (Pending)",
                r.scheduled_gpu, r.fractional, r.multi,
                r.all_pods ? "kept too (--pods all; CPU-only jobs are read by fill only)"
                           : "left out",
                r.cpu_only, r.pending);
    import_note(c, "kinds: %" G_GUINT64_FORMAT " inference, %" G_GUINT64_FORMAT " batch, %"
                   G_GUINT64_FORMAT " training, %" G_GUINT64_FORMAT " notebook",
                r.by_kind[JOB_INFERENCE], r.by_kind[JOB_BATCH], r.by_kind[JOB_TRAINING],
                r.by_kind[JOB_NOTEBOOK]);
  }
  if (ok && import_option(c, "nodes")) {
    openb_nodes n = {.c = c, .groups = g_array_new(FALSE, FALSE, sizeof(openb_group))};
    const char *path = import_option(c, "nodes");
    import_inventory_init(&n.inv, path);
    if (csvread_foreach(path, 0, openb_node_row, &n, c->diags) && !n.have_header)
      diag_add(c->diags, path, 1, 0,
               "header: expected a node list header row, found an empty file");
    import_note(c, "nodes: %" G_GUINT64_FORMAT " listed, %" G_GUINT64_FORMAT
                   " with GPUs, %" G_GUINT64_FORMAT " GPUs",
                n.inv.nodes, n.inv.gpu_nodes, n.inv.gpus);
    if (import_ok(c) && n.inv.gpus == 0 && import_wants(c, IMPORT_OUT_SCENARIO))
      diag_add(c->diags, path, 0, 0, "no node with GPUs: the scenario would have no pool");
    if (import_ok(c)) openb_write_scenario(c, &n, gm->name, share_strategy_name(st));
    import_inventory_clear(&n.inv);
    for (guint i = 0; i < n.groups->len; i++) g_free(g_array_index(n.groups, openb_group, i).model);
    g_array_unref(n.groups);
  }
  for (guint i = 0; i < r.rules->len; i++) g_free(g_array_index(r.rules, openb_rule, i).qos);
  g_array_unref(r.rules);
  g_hash_table_unref(r.ids);
  return ok;
}

const import_format import_alibaba_openb_format = {
    .name = "alibaba-openb",
    .description = "Alibaba cluster-trace-gpu-v2023 (openb) pod list; node list as a scenario",
    .files = "openb_pod_list_*.csv...",
    .options = openb_options,
    .run = openb_run,
};
