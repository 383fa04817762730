/* invariants.h: the invariant suite's parts: the generator of random cases (inv-gen.c), the
 * reader of result CSVs (inv-csv.c), the checks on one result folder (inv-check.c) and the
 * driver (invariants.c: runs sharesim, shrinks failing cases, keeps them). */
#pragma once
#include <glib.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "scenario.h"
#include "share.h"

#define INV_TRACE_HEADER "id,submit_s,kind,gpus,mem_gb,duration_s,tenant,priority,gpu_frac,sm," \
                         "busy,burst_s,rate_rps,service_ms,slo_ms,slo_pct,kv_gb,max_batch," \
                         "comm_frac,checkpoint_s,restart"
#define INV_PHASES_HEADER "job_id,after_s,mem_gb,busy,rate_rps,crash"
#define INV_MAX_POOLS 8

/* The strategies, their keys and their capacity classes are the program's own table
 * (share.h, scenario.h), which main hands to the scenario reader. */
/* Tenants of the generated traces: t0 .. t2. */
#define INV_TENANTS 3

typedef struct inv_pool {
  char name[64];
  char gpu[32];              /* its model, as in the scenario */
  const scenario_strategy *strategy;
  double card_gb;            /* memory of one card, GB */
  int gpus;
  int per_node;              /* gpus_per_node (inv_gen only; 0 when read back) */
  double oversub;            /* cards' memory its residents may hold together (1: the card;
                              * more through unified memory: inv_pool_oversub) */
  double migration_slowdown; /* its k (inv-mem.c), where oversub > 1 */
} inv_pool;

typedef struct inv_case {
  guint32 seed;
  int n_pools;
  inv_pool pools[INV_MAX_POOLS];
  gboolean lone;             /* a lone-gang case (inv-lone.c), checked by inv_check_lone */
  gboolean lone_full;        /* its pool runs a lone client at full speed */
  /* priority classes (inv-gen.c's priority section): on, and the value of the class of
   * tenants t0..t2 (a non-zero trace priority keeps its own) */
  gboolean prio_on;
  int tenant_prio[INV_TENANTS];
  /* Kueue's quotas (inv-gen.c's quota section): on; ClusterQueue k is tenant tk's (-1: the
   * tenant has no LocalQueue), all in one cohort; per queue and pool its nominalQuota and
   * borrowingLimit (-1: none) */
  gboolean quota_on;
  gboolean per_gpu;          /* a mig pool has per-GPU layouts (inv_gen_per_gpu; inv_gen only) */
  int tenant_cq[INV_TENANTS];
  int quota_nominal[INV_TENANTS][INV_MAX_POOLS], quota_borrow[INV_TENANTS][INV_MAX_POOLS];
} inv_case;

/* Writes scenario.yaml, trace.csv and phases.csv for seed into dir. */
gboolean inv_gen(guint32 seed, const char *dir, inv_case *c, GError **error);
/* Prints "STRATEGY KEY" for every key the generator draws values of (its sample). */
void inv_print_sampled_keys(void);
/* Reads the pools of a case folder written by inv_gen (or kept from one). */
gboolean inv_case_read(const char *dir, inv_case *c, GError **error);

/* ---- CSV tables (inv-csv.c) ---- */
typedef struct inv_table {
  GPtrArray *header;         /* char* */
  GPtrArray *rows;           /* GPtrArray* of char* */
} inv_table;

/* Loads a CSV file (RFC 4180 quoting); NULL with error when it cannot be read. */
inv_table *inv_table_load(const char *path, GError **error);
void inv_table_free(inv_table *t);
/* Column index of name, -1 when absent. */
int inv_col(const inv_table *t, const char *name);
guint inv_rows(const inv_table *t);
const char *inv_cell(const inv_table *t, guint row, int col);
/* The row's key: the first column after a result CSV's scenario and seed, else the first. */
const char *inv_key(const inv_table *t, guint row);
/* The cell as a number; NAN when empty or absent. */
double inv_num(const inv_table *t, guint row, int col);

/* ---- checks (inv-check.c) ---- */
/* Failures found in one folder. A check whose defect is known and fixed by another
 * branch not on main yet is expected to fail: it is reported as XFAIL, naming the bug. */
typedef struct inv_report {
  GString *fail;             /* one line per failed check, empty when all hold */
  GString *xfail;            /* expected failures (known bugs) */
  guint checks;              /* checks evaluated */
} inv_report;

/* Appends "check: message" to rep->fail. */
void G_GNUC_PRINTF(3, 4) inv_fail(inv_report *rep, const char *check, const char *fmt, ...);
/* ---- the work and memory estimate (inv-budget.c) ---- */
typedef struct inv_budget {
  guint cases;
  double min_events_ratio, min_mem_ratio; /* estimate / actual, smallest seen */
  char events_what[64], mem_what[64];     /* the case of each */
} inv_budget;
/* Runs argv (argv[0] the binary) to its end: TRUE on exit 0, else *err says why (owned);
 * its stdout into *out when out is not NULL, its peak resident size into *maxrss_kb. */
gboolean inv_spawn_measured(const char *const *argv, char **out, char **err, long *maxrss_kb);
/* `check --estimate` of the case in dir against the run's out/summary.json engine.events
 * and its peak resident size: a failure when the estimate is below either; with dcgm (a run
 * with --dcgm), `check --estimate --dcgm` and its dcgm output too. */
void inv_budget_check(inv_budget *b, const char *sharesim, const char *dir, const char *out,
                      long run_maxrss_kb, gboolean dcgm, const char *what, inv_report *rep);

/* Checks every invariant on the result folder out of case c (inputs in case_dir). */
void inv_check_folder(const inv_case *c, const char *case_dir, const char *out, inv_report *rep);
/* A result folder's tables and the case's trace (inv-check.c). */
typedef struct inv_folder {
  inv_table *pools, *gpus, *jobs, *tenants, *ts, *services, *events;
  inv_table *trace;          /* the case's trace.csv */
} inv_folder;
/* A number of the job's trace row (column name), or dflt when the cell is empty. */
double inv_trace_num(const inv_folder *f, const char *id, const char *name, double dflt);
/* The index of the case's pool of this name, -1 when none. */
int inv_pool_index(const inv_case *c, const char *name);
/* The value of key in pool's block of the case's scenario (owned), NULL when absent. */
char *inv_pool_key(const char *case_dir, const char *pool, const char *key);
/* A job's stay on a pool (start to end, on gpu_ids) or its wait (submission to start). */
typedef struct inv_stay {
  double start, end;
  double need;              /* fractional: gpu_frac; MIG: the trace's memory in bytes */
  int gpus;
  char *gpu_ids;
  const char *id;           /* the job's (borrowed from jobs.csv) */
} inv_stay;
/* The stays and waits of pool i from jobs.csv; FALSE when its history cannot be rebuilt
 * (a job killed, restarted or culled). */
gboolean inv_collect_stays(const inv_case *c, const inv_folder *f, int i, GArray *stays,
                           GArray *waits);

/* ---- the blast radius (inv-blast.c) ---- */
/* summary.json's blast_radius pairs add up to the innocent victims and evictions of the
 * run, and tenants.csv's blast_caused and blast_suffered to its pairs across tenants. */
void inv_check_blast(const inv_folder *f, const char *out, inv_report *rep);

/* ---- memory limits and oversubscription (inv-mem.c) ---- */
/* Sets c->pools[i].oversub and migration_slowdown from the case's scenario (case_dir). */
void inv_pool_oversub(inv_case *c, const char *case_dir);
/* Memory beyond the card only in pools that allow it, and there counted as oversubscribed:
 * the opt-in columns, oversub_h and the jobs' oversub_gpu_s and slowdowns. */
void inv_check_oversub(const inv_case *c, const inv_folder *f, inv_report *rep);
/* HAMi: the containers on a card within its split count, their cores within 100 % and their
 * memory limits within what the scheduler counts; KAI: the fractions on a card within 1;
 * where memory is a per-container limit (HAMi, KAI enforced) an OOM never reaches a
 * neighbour. */
void inv_check_limits(const inv_case *c, const inv_folder *f, const char *case_dir,
                      inv_report *rep);

/* MIG carved on demand (inv-mig.c): instances only at valid positions, never sharing a
 * slice, none on a card that changes mode, from events.csv (t). */
void inv_check_mig_slices(const inv_case *c, const inv_table *t, inv_report *rep);

/* ---- lone gangs (inv-lone.c) ---- */
/* How many lone-gang cases there are; inv_lone_gen writes case i into dir. */
guint inv_lone_count(void);
gboolean inv_lone_gen(guint i, const char *dir, inv_case *c, GError **error);
/* Gangs alone on free GPUs run at their one-worker twin's speed (full speed where the
 * strategy neither caps nor partitions a client). */
void inv_check_lone(const inv_case *c, const inv_table *jobs, inv_report *rep);
