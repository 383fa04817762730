/* import-alibaba-pai.c: the Alibaba PAI 2020 trace (cluster-trace-gpu-v2020) as a job
 * trace: one job per GPU task of pai_task_table (workers = instances, gpu_frac from
 * plan_gpu), with the submission time and user from pai_job_table and GPU memory and
 * utilisation (gpu_util, sm) from pai_sensor_table when given; pai_machine_spec as a scenario pool; and
 * the mini-batch-time files (job_N_norm.csv) as one training gang each. Tables are read
 * with or without their header row (the released files have none; the names come from
 * the .header files). It keeps per-job and per-task summaries of the side tables in
 * memory (a few dozen bytes each), never a whole table. Mapping: docs/traces.md. */
#include "import.h"
#include "catalog.h"
#include "scenario.h"
#include <math.h>
#include <string.h>

#define PAI_GPU_MEM_GB 16.0   /* memory of a whole GPU when the sensor table is absent */
#define PAI_ITERATION_S 1.0   /* seconds per mini-batch step of the mini-batch files */
#define PAI_GPU_MODEL "T4"
#define PAI_STRATEGY "fractional"
/* Shares and utilisations it computes (plan_gpu / 100, the mean gpu_wrk_util / 100) are
 * written to six significant digits: the tables give percentages with a few decimals, so
 * this keeps every digit they have and drops float noise (0.007, not 0.006999999999999999). */
#define PAI_DIGITS 6
/* Smallest activity written: a third of the sensor rows' instances show 0 % over their life,
 * and the trace needs gpu_util > 0 (0.01 is a whole percent, the tables' resolution). */
#define PAI_MIN_ACT 0.01

static const import_opt pai_options[] = {
    {"kind", "KIND", "job kind of every GPU task (default training)", FALSE, -1},
    {"gpu-mem-gb", "GB",
     "without a sensor table: mem_gb = GPUs per instance (or share) x GB (default 16)", FALSE, -1},
    {"iteration-s", "S", "mini-batch files: seconds per step (default 1)", FALSE, -1},
    {"scenario-out", "FILE", "write pai_machine_spec as a scenario (one pool of all its GPUs)",
     FALSE, IMPORT_OUT_SCENARIO},
    {"gpu-model", "MODEL", "catalogue GPU model of that pool (default " PAI_GPU_MODEL ")", FALSE,
     -1},
    {"strategy", "NAME", "sharing strategy of that pool (default " PAI_STRATEGY ")", FALSE, -1},
    {NULL, NULL, NULL, FALSE, -1},
};

/* The tables, with the official column order (headers/pai_*.header). */
typedef enum {
  PAI_JOB = 0, PAI_TASK, PAI_INSTANCE, PAI_SENSOR, PAI_GROUP_TAG, PAI_MACHINE_SPEC,
  PAI_MACHINE_METRIC, PAI_MINIBATCH, PAI_TABLE_COUNT
} pai_table;

static const char *const pai_table_file[PAI_TABLE_COUNT] = {
    "pai_job_table", "pai_task_table", "pai_instance_table", "pai_sensor_table",
    "pai_group_tag_table", "pai_machine_spec", "pai_machine_metric", NULL};

static const char *const pai_cols_job[] = {"job_name", "inst_id", "user", "status",
                                           "start_time", "end_time", NULL};
static const char *const pai_cols_task[] = {"job_name", "task_name", "inst_num", "status",
                                            "start_time", "end_time", "plan_cpu", "plan_mem",
                                            "plan_gpu", "gpu_type", NULL};
static const char *const pai_cols_instance[] = {"job_name", "task_name", "inst_name",
                                                "worker_name", "inst_id", "status",
                                                "start_time", "end_time", "machine", NULL};
static const char *const pai_cols_sensor[] = {
    "job_name", "task_name", "worker_name", "inst_id", "machine", "gpu_name", "cpu_usage",
    "gpu_wrk_util", "avg_mem", "max_mem", "avg_gpu_wrk_mem", "max_gpu_wrk_mem", "read",
    "write", "read_count", "write_count", NULL};
static const char *const pai_cols_group[] = {"inst_id", "user", "gpu_type_spec", "group",
                                             "workload", NULL};
static const char *const pai_cols_spec[] = {"machine", "gpu_type", "cap_cpu", "cap_mem",
                                            "cap_gpu", NULL};
static const char *const pai_cols_metric[] = {
    "worker_name", "machine", "start_time", "end_time", "machine_cpu_iowait",
    "machine_cpu_kernel", "machine_cpu_usr", "machine_gpu", "machine_load_1",
    "machine_net_receive", "machine_num_worker", "machine_cpu", NULL};
static const char *const pai_cols_minibatch[] = {"", "worker", "gpu", "time", "batch_time_norm",
                                                 NULL};
static const char *const *const pai_cols[PAI_TABLE_COUNT] = {
    pai_cols_job, pai_cols_task, pai_cols_instance, pai_cols_sensor, pai_cols_group,
    pai_cols_spec, pai_cols_metric, pai_cols_minibatch};

typedef struct pai_job_info {
  double submit_s;
  const char *user;      /* in strings */
} pai_job_info;

typedef struct pai_task_info {
  double max_mem_gb;     /* largest max_gpu_wrk_mem of its instances */
  double util_sum;       /* sum of gpu_wrk_util (%) */
  guint32 n;
} pai_task_info;

typedef struct pai_file {
  const char *path;
  pai_table table;
  gboolean has_header;
} pai_file;

typedef struct pai_reader {
  import_ctx *c;
  GStringChunk *strings;
  GHashTable *jobs;      /* job_name -> pai_job_info* */
  GHashTable *tasks;     /* "job_name/task_name" -> pai_task_info* */
  job_kind kind;
  double gpu_mem_gb, iteration_s;
  import_inventory inv;
  /* the file being read */
  const pai_file *file;
  int col[20];           /* index of each official column in this file, -1 absent */
  guint ncols;
  gboolean header_seen;
  /* mini-batch file */
  GHashTable *mb_workers; /* worker -> gpu percent (GINT) */
  double mb_max_time, mb_gpu_pct;
  /* counts */
  guint64 cpu_tasks, not_started, not_ended, whole_rounded, sensor_rows, job_rows, machines;
  guint64 tasks_with_sensor;
  guint64 frac_gangs;    /* multi-worker tasks whose workers each hold part of a GPU */
} pai_reader;

/* ---- which table a file is ---- */

typedef struct pai_probe {
  gboolean got;
  GPtrArray *cells;
  char *error;
} pai_probe;

static gboolean pai_probe_row(const csvread_row *row, void *ud) {
  pai_probe *p = ud;
  p->got = TRUE;
  if (row->error) p->error = g_strdup(row->error);
  else
    for (guint i = 0; i < row->n; i++) g_ptr_array_add(p->cells, g_strdup(row->cells[i]));
  return FALSE;
}

static gboolean pai_cells_are(const GPtrArray *cells, const char *const *cols) {
  guint n = 0;
  while (cols[n]) n++;
  if (cells->len != n) return FALSE;
  for (guint i = 0; i < n; i++)
    if (strcmp(g_ptr_array_index(cells, i), cols[i])) return FALSE;
  return TRUE;
}

/* Identifies path by its first row (a known header) or by its name. */
static gboolean pai_identify(import_ctx *c, const char *path, pai_file *out) {
  pai_probe p = {.cells = g_ptr_array_new_with_free_func(g_free)};
  gboolean readable = csvread_foreach(path, CSVREAD_NO_HEADER, pai_probe_row, &p, c->diags);
  gboolean ok = FALSE;
  out->path = path;
  if (readable && !p.got) {
    diag_add(c->diags, path, 0, 0, "empty file");
  } else if (readable) {
    for (int t = 0; t < PAI_TABLE_COUNT && !ok; t++)
      if (!p.error && pai_cells_are(p.cells, pai_cols[t])) {
        out->table = (pai_table)t;
        out->has_header = TRUE;
        ok = TRUE;
      }
    g_autofree char *base = g_path_get_basename(path);
    for (int t = 0; t < PAI_TABLE_COUNT && !ok; t++)
      if (pai_table_file[t] && strstr(base, pai_table_file[t])) {
        out->table = (pai_table)t;
        out->has_header = FALSE;
        ok = TRUE;
      }
    if (!ok)
      diag_add(c->diags, path, 1, 0,
               "cannot tell which PAI table this is: expected a header row of a PAI table (as in "
               "headers/pai_*.header), a mini-batch file (,worker,gpu,time,batch_time_norm), "
               "or a file named pai_job_table, pai_task_table, pai_sensor_table or "
               "pai_machine_spec");
  }
  g_ptr_array_unref(p.cells);
  g_free(p.error);
  return ok;
}

/* ---- cells ---- */

static int pai_col(const char *const *cols, const char *name) {
  for (int i = 0; cols[i]; i++)
    if (!strcmp(cols[i], name)) return i;
  g_assert_not_reached();
}

/* The cell of official column `name` in this row, "" when the file lacks it. */
static const char *pai_cell(const pai_reader *r, const csvread_row *row, const char *name) {
  int k = r->col[pai_col(pai_cols[r->file->table], name)];
  return k >= 0 && (guint)k < row->n ? row->cells[k] : "";
}

static guint pai_colno(const pai_reader *r, const char *name) {
  int k = r->col[pai_col(pai_cols[r->file->table], name)];
  return k >= 0 ? (guint)k + 1 : 0;
}

static gboolean pai_bad(pai_reader *r, const csvread_row *row, const char *name,
                        const char *expected) {
  g_autofree char *esc = g_strescape(pai_cell(r, row, name), NULL);
  if (strlen(esc) > 60) strcpy(esc + 57, "...");
  return import_bad_row(r->c, row->path, row->line, pai_colno(r, name),
                        "%s: expected %s, found '%s'", name, expected, esc);
}

/* A number >= 0 (integers are often written as floats: "1.0"); empty is FALSE with
 * *empty set. */
static gboolean pai_number(const char *text, double max, double *out, gboolean *empty) {
  *empty = *text == 0;
  double v;
  if (*empty || !import_parse_number(text, &v) || v < 0 || v > max) return FALSE;
  *out = v;
  return TRUE;
}

/* ---- header mapping ---- */

static gboolean pai_map(pai_reader *r, const csvread_row *row) {
  const char *const *cols = pai_cols[r->file->table];
  guint n = 0;
  while (cols[n]) n++;
  for (guint i = 0; i < n; i++) r->col[i] = -1;
  r->ncols = row->n;
  if (r->file->has_header) {
    for (guint i = 0; i < n; i++) r->col[i] = import_column(row, cols[i]);
  } else {
    if (row->n != n) {
      diag_add(r->c->diags, row->path, row->line, 0,
               "expected the %u columns of %s (%s without a header row), found %u", n,
               pai_table_file[r->file->table], "as released", row->n);
      return FALSE;
    }
    for (guint i = 0; i < n; i++) r->col[i] = (int)i;
  }
  return TRUE;
}

/* ---- tables ---- */

static void pai_job_row(pai_reader *r, const csvread_row *row) {
  const char *name = pai_cell(r, row, "job_name");
  double submit;
  gboolean empty;
  if (!*name) {
    pai_bad(r, row, "job_name", "a job name");
    return;
  }
  if (!pai_number(pai_cell(r, row, "start_time"), 1e9, &submit, &empty)) {
    if (empty) return; /* never submitted in the window: the task table decides */
    pai_bad(r, row, "start_time", "seconds >= 0");
    return;
  }
  r->job_rows++;
  pai_job_info *ji = g_hash_table_lookup(r->jobs, name);
  if (!ji) {
    ji = g_new0(pai_job_info, 1);
    g_hash_table_insert(r->jobs, g_string_chunk_insert_const(r->strings, name), ji);
  }
  ji->submit_s = submit;
  const char *user = pai_cell(r, row, "user");
  ji->user = *user && g_utf8_validate(user, -1, NULL) ? g_string_chunk_insert_const(r->strings, user)
                                                      : NULL;
}

static void pai_sensor_row(pai_reader *r, const csvread_row *row) {
  const char *job = pai_cell(r, row, "job_name"), *task = pai_cell(r, row, "task_name");
  double util = 0, mem = 0;
  gboolean e1, e2;
  gboolean has_util = pai_number(pai_cell(r, row, "gpu_wrk_util"), 1e6, &util, &e1);
  gboolean has_mem = pai_number(pai_cell(r, row, "max_gpu_wrk_mem"), 1e4, &mem, &e2);
  if (!has_util && !e1) {
    pai_bad(r, row, "gpu_wrk_util", "a percentage >= 0");
    return;
  }
  if (!has_mem && !e2) {
    pai_bad(r, row, "max_gpu_wrk_mem", "GB >= 0");
    return;
  }
  r->sensor_rows++;
  g_autofree char *key = g_strdup_printf("%s/%s", job, task);
  pai_task_info *ti = g_hash_table_lookup(r->tasks, key);
  if (!ti) {
    ti = g_new0(pai_task_info, 1);
    g_hash_table_insert(r->tasks, g_string_chunk_insert_const(r->strings, key), ti);
  }
  if (has_mem && mem > ti->max_mem_gb) ti->max_mem_gb = mem;
  if (has_util) {
    ti->util_sum += util;
    ti->n++;
  }
}

static void pai_spec_row(pai_reader *r, const csvread_row *row) {
  double gpus;
  gboolean empty;
  if (!pai_number(pai_cell(r, row, "cap_gpu"), SCENARIO_MAX_GPUS_PER_NODE, &gpus, &empty) ||
      gpus != floor(gpus)) {
    pai_bad(r, row, "cap_gpu", "a whole number of GPUs");
    return;
  }
  r->machines++;
  import_inventory_add(&r->inv, pai_cell(r, row, "gpu_type"), (guint64)gpus);
}

/* The measured utilisation u (mean gpu_wrk_util of the instances, share of each of their
 * GPUs' time a kernel ran, as nvidia-smi reports it) as the job's activity. A whole-GPU
 * task keeps its GPUs busy u of the time: gpu_util = u, sm stays the kind's default (the
 * table has no SM occupancy). A task on a share f of a GPU uses at least its share while it
 * computes (sm = max(f, u), as the openb importer's sm = gpu_frac) and computes u / sm of
 * the time, so that gpu_util x sm is u either way. Both at least PAI_MIN_ACT. */
static void pai_activity(job_spec *j, double u) {
  u = CLAMP(u, PAI_MIN_ACT, 1.0);
  if (j->gpu_frac < 1.0) {
    j->sm = util_round_sig(MAX(j->gpu_frac, u), PAI_DIGITS);
    j->gpu_util = util_round_sig(CLAMP(u / j->sm, PAI_MIN_ACT, 1.0), PAI_DIGITS);
  } else {
    j->gpu_util = util_round_sig(u, PAI_DIGITS);
  }
}

static void pai_task_row(pai_reader *r, const csvread_row *row) {
  import_ctx *c = r->c;
  const char *job = pai_cell(r, row, "job_name"), *task = pai_cell(r, row, "task_name");
  if (!*job || !g_utf8_validate(job, -1, NULL)) {
    pai_bad(r, row, "job_name", "a job name");
    return;
  }
  double inst, plan_gpu, t_start, t_end;
  gboolean empty;
  if (!pai_number(pai_cell(r, row, "plan_gpu"), 1e7, &plan_gpu, &empty)) {
    if (empty) {
      r->cpu_tasks++;
      return;
    }
    pai_bad(r, row, "plan_gpu", "a GPU request in percent of one GPU (50.0 = half), >= 0");
    return;
  }
  if (plan_gpu == 0) {
    r->cpu_tasks++;
    return;
  }
  if (!pai_number(pai_cell(r, row, "inst_num"), TRACE_MAX_GPUS, &inst, &empty) ||
      inst != floor(inst) || inst < 1) {
    pai_bad(r, row, "inst_num", "a whole number of instances >= 1");
    return;
  }
  if (!pai_number(pai_cell(r, row, "start_time"), 1e9, &t_start, &empty)) {
    if (empty) {
      r->not_started++;
      return;
    }
    pai_bad(r, row, "start_time", "seconds >= 0");
    return;
  }
  if (!pai_number(pai_cell(r, row, "end_time"), 1e9, &t_end, &empty)) {
    if (empty) {
      r->not_ended++;
      return;
    }
    pai_bad(r, row, "end_time", "seconds >= 0");
    return;
  }
  if (t_end < t_start) {
    pai_bad(r, row, "end_time", "a time at or after start_time");
    return;
  }
  double per_inst = plan_gpu / 100.0;
  double whole = ceil(per_inst);
  guint64 gpus = per_inst <= 1.0 ? (guint64)inst : (guint64)(inst * whole);
  if (gpus > TRACE_MAX_GPUS) {
    pai_bad(r, row, "plan_gpu", "at most 100000 GPUs over all instances");
    return;
  }
  if (per_inst > 1.0 && per_inst != whole) r->whole_rounded++;
  /* a gang on GPU shares keeps its kind: each worker asks for gpu_frac of a GPU */
  if (gpus > 1 && per_inst < 1.0) r->frac_gangs++;
  job_spec j;
  job_init(&j, r->kind);
  g_autofree char *id = g_strdup_printf("%s/%s", job, task);
  j.id = id;
  j.gpus = (guint32)gpus;
  j.gpu_frac = per_inst < 1.0 ? util_round_sig(per_inst, PAI_DIGITS) : 1.0;
  double gpus_per_inst = per_inst < 1.0 ? 1.0 : whole;
  const pai_job_info *ji = g_hash_table_lookup(r->jobs, job);
  double submit = ji && ji->submit_s <= t_start ? ji->submit_s : t_start;
  j.submit_ns = util_seconds_to_ns(submit);
  j.duration_ns = MAX(util_seconds_to_ns(t_end - t_start), SIM_NS_PER_S);
  if (ji && ji->user) j.tenant = ji->user;
  const pai_task_info *ti = g_hash_table_lookup(r->tasks, id);
  double mem_gb = per_inst < 1.0 ? per_inst * r->gpu_mem_gb : r->gpu_mem_gb;
  if (ti) {
    r->tasks_with_sensor++;
    if (ti->max_mem_gb > 0) mem_gb = ti->max_mem_gb / gpus_per_inst;
    if (ti->n) pai_activity(&j, ti->util_sum / ti->n / 100.0 / gpus_per_inst);
  }
  j.mem_bytes = MAX((int64_t)llround(mem_gb * 1e3) * 1000000, 1000000);
  if (j.kind == JOB_INFERENCE) {
    j.service_ms = 100;
    j.rate_rps = 1;
  }
  const char *status = pai_cell(r, row, "status");
  const char *gpu_type = pai_cell(r, row, "gpu_type");
  const char *extra[2] = {status, gpu_type};
  import_emit_job(c, &j, extra, 2);
}

/* Mini-batch file: collect, then one gang at the end of the file. */
static void pai_minibatch_row(pai_reader *r, const csvread_row *row) {
  double worker, gpu, t;
  gboolean empty;
  if (!pai_number(pai_cell(r, row, "worker"), 1e5, &worker, &empty) || worker != floor(worker)) {
    pai_bad(r, row, "worker", "a worker number >= 0");
    return;
  }
  if (!pai_number(pai_cell(r, row, "gpu"), 100, &gpu, &empty) || gpu <= 0) {
    pai_bad(r, row, "gpu", "a GPU share in percent, above 0 and at most 100");
    return;
  }
  if (!pai_number(pai_cell(r, row, "time"), 1e12, &t, &empty)) {
    pai_bad(r, row, "time", "a step number >= 0");
    return;
  }
  double bt;
  if (!pai_number(pai_cell(r, row, "batch_time_norm"), 1e12, &bt, &empty)) {
    pai_bad(r, row, "batch_time_norm", "a normalised batch time >= 0");
    return;
  }
  g_hash_table_insert(r->mb_workers, GINT_TO_POINTER((int)worker + 1), GINT_TO_POINTER(1));
  r->mb_gpu_pct = MAX(r->mb_gpu_pct, gpu);
  r->mb_max_time = MAX(r->mb_max_time, t);
}

static void pai_minibatch_emit(pai_reader *r) {
  guint workers = g_hash_table_size(r->mb_workers);
  if (!workers) return;
  job_spec j;
  job_init(&j, JOB_TRAINING);
  if (workers > 1 && r->mb_gpu_pct < 100.0) r->frac_gangs++;
  g_autofree char *id = import_file_stem(r->file->path);
  j.id = id;
  j.gpus = workers;
  j.gpu_frac = util_round_sig(r->mb_gpu_pct / 100.0, PAI_DIGITS);
  j.sm = j.gpu_frac;
  j.mem_bytes = MAX((int64_t)llround(j.gpu_frac * r->gpu_mem_gb * 1e3) * 1000000, 1000000);
  j.duration_ns = MAX(util_seconds_to_ns(r->mb_max_time * r->iteration_s), SIM_NS_PER_S);
  const char *extra[2] = {NULL, NULL};
  import_emit_job(r->c, &j, extra, 2);
}

static gboolean pai_row(const csvread_row *row, void *ud) {
  pai_reader *r = ud;
  if (row->error) {
    if (!r->header_seen) {
      diag_add(r->c->diags, row->path, row->line, 0, "%s", row->error);
      return FALSE;
    }
    if (r->file->table == PAI_TASK || r->file->table == PAI_MINIBATCH) r->c->rows_read++;
    import_bad_row(r->c, row->path, row->line, 0, "%s", row->error);
    return TRUE;
  }
  if (!r->header_seen) {
    r->header_seen = TRUE;
    if (!pai_map(r, row)) return FALSE;
    if (r->file->has_header) return TRUE;
  }
  if (row->n != r->ncols) {
    if (r->file->table == PAI_TASK || r->file->table == PAI_MINIBATCH) r->c->rows_read++;
    import_bad_row(r->c, row->path, row->line, 0, "expected %u fields%s, found %u", r->ncols,
                   r->file->has_header ? " as in the header" : "", row->n);
    return TRUE;
  }
  switch (r->file->table) {
  case PAI_JOB: pai_job_row(r, row); break;
  case PAI_SENSOR: pai_sensor_row(r, row); break;
  case PAI_MACHINE_SPEC: pai_spec_row(r, row); break;
  case PAI_TASK: r->c->rows_read++; pai_task_row(r, row); break;
  case PAI_MINIBATCH: r->c->rows_read++; pai_minibatch_row(r, row); break;
  default: return FALSE; /* not used */
  }
  return TRUE;
}

static void pai_read(pai_reader *r, const pai_file *f) {
  r->file = f;
  r->header_seen = FALSE;
  csvread_foreach(f->path, f->has_header ? 0 : CSVREAD_NO_HEADER, pai_row, r, r->c->diags);
}

static gboolean pai_positive(const import_ctx *c, const char *opt, double hi, double *out,
                             GError **error) {
  const char *text = import_option(c, opt);
  double v;
  if (!text) return TRUE;
  if (!import_parse_number(text, &v) || !(v > 0) || v > hi) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "--%s: expected a number above 0 and at most %g, found '%s'", opt, hi, text);
    return FALSE;
  }
  *out = v;
  return TRUE;
}

static gboolean pai_run(import_ctx *c, GError **error) {
  pai_reader r = {.c = c, .kind = JOB_TRAINING, .gpu_mem_gb = PAI_GPU_MEM_GB,
                  .iteration_s = PAI_ITERATION_S};
  if (!pai_positive(c, "gpu-mem-gb", 10000, &r.gpu_mem_gb, error) ||
      !pai_positive(c, "iteration-s", 1e6, &r.iteration_s, error))
    return FALSE;
  if (import_option(c, "kind") && !job_kind_parse(import_option(c, "kind"), &r.kind)) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "--kind: expected notebook, inference, training or batch, found '%s'",
                import_option(c, "kind"));
    return FALSE;
  }
  const gpu_model *gm;
  share_strategy st;
  if (!import_pool_options(c, PAI_GPU_MODEL, PAI_STRATEGY, &gm, &st, error)) return FALSE;
  pai_file *files = g_new0(pai_file, c->n_files);
  for (guint i = 0; i < c->n_files; i++) pai_identify(c, c->files[i], &files[i]);
  if (!import_ok(c)) {
    g_free(files);
    return TRUE;
  }
  gboolean has_spec = FALSE;
  for (guint i = 0; i < c->n_files; i++) has_spec |= files[i].table == PAI_MACHINE_SPEC;
  if (import_wants(c, IMPORT_OUT_SCENARIO) && !has_spec) {
    g_free(files);
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "--scenario-out needs pai_machine_spec.csv among the files");
    return FALSE;
  }
  r.strings = g_string_chunk_new(1 << 16);
  r.jobs = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
  r.tasks = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
  r.mb_workers = g_hash_table_new(g_direct_hash, g_direct_equal);
  import_inventory_init(&r.inv, "pai_machine_spec.csv");
  const char *extra[2] = {"x_status", "x_gpu_type"};
  import_trace_header(c, extra, 2);
  /* side tables first, then the rows that make jobs, each group in command-line order */
  static const pai_table order[] = {PAI_MACHINE_SPEC, PAI_JOB, PAI_SENSOR, PAI_TASK,
                                    PAI_MINIBATCH};
  for (guint k = 0; k < G_N_ELEMENTS(order); k++)
    for (guint i = 0; i < c->n_files; i++) {
      if (files[i].table != order[k]) continue;
      if (order[k] == PAI_MACHINE_SPEC) r.inv.source = files[i].path;
      if (order[k] == PAI_MINIBATCH) {
        g_hash_table_remove_all(r.mb_workers);
        r.mb_max_time = r.mb_gpu_pct = 0;
      }
      pai_read(&r, &files[i]);
      if (order[k] == PAI_MINIBATCH) pai_minibatch_emit(&r);
    }
  for (guint i = 0; i < c->n_files; i++)
    if (files[i].table != PAI_MACHINE_SPEC && files[i].table != PAI_JOB &&
        files[i].table != PAI_SENSOR && files[i].table != PAI_TASK &&
        files[i].table != PAI_MINIBATCH)
      import_note(c, "%s: %s is not used (its facts are not in a sharesim trace)", files[i].path,
                  pai_table_file[files[i].table]);
  if (r.job_rows) import_note(c, "job table: %" G_GUINT64_FORMAT " jobs (submission time, user)", r.job_rows);
  if (r.sensor_rows)
    import_note(c, "sensor table: %" G_GUINT64_FORMAT " instances; %" G_GUINT64_FORMAT
                   " tasks got GPU memory and utilisation from it",
                r.sensor_rows, r.tasks_with_sensor);
  if (r.cpu_tasks || r.not_started || r.not_ended)
    import_note(c, "left out: %" G_GUINT64_FORMAT " CPU-only tasks, %" G_GUINT64_FORMAT
                   " tasks never started, %" G_GUINT64_FORMAT " tasks without an end time",
                r.cpu_tasks, r.not_started, r.not_ended);
  if (r.frac_gangs)
    import_note(c, "%" G_GUINT64_FORMAT " gangs whose workers each hold part of a GPU "
                   "(gpu_frac < 1 per worker; strategy fractional places them as such, "
                   "exclusive gives each worker a whole GPU)",
                r.frac_gangs);
  if (r.whole_rounded)
    import_note(c, "%" G_GUINT64_FORMAT " tasks asked for more than one GPU per instance but not "
                   "a whole number; rounded up to whole GPUs",
                r.whole_rounded);
  if (has_spec) {
    import_note(c, "machines: %" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT " with GPUs, %"
                   G_GUINT64_FORMAT " GPUs",
                r.inv.nodes, r.inv.gpu_nodes, r.inv.gpus);
    if (import_ok(c) && r.inv.gpus == 0 && import_wants(c, IMPORT_OUT_SCENARIO))
      diag_add(c->diags, r.inv.source, 0, 0, "no machine with GPUs: the scenario would have no pool");
    if (import_ok(c))
      import_inventory_write_scenario(c, &r.inv, "pai", gm->name, share_strategy_name(st));
  }
  import_inventory_clear(&r.inv);
  g_hash_table_unref(r.mb_workers);
  g_hash_table_unref(r.jobs);
  g_hash_table_unref(r.tasks);
  g_string_chunk_free(r.strings);
  g_free(files);
  return TRUE;
}

const import_format import_alibaba_pai_format = {
    .name = "alibaba-pai",
    .description = "Alibaba PAI 2020 tables (task, job, sensor, machine spec) and mini-batch files",
    .files = "pai_task_table.csv [pai_job_table.csv] [pai_sensor_table.csv] "
             "[pai_machine_spec.csv] [job_N_norm.csv]...",
    .options = pai_options,
    .run = pai_run,
};
