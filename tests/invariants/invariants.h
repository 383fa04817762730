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
 * and its peak resident size: a failure when the estimate is below either. */
void inv_budget_check(inv_budget *b, const char *sharesim, const char *dir, const char *out,
                      long run_maxrss_kb, const char *what, inv_report *rep);

/* Checks every invariant on the result folder out of case c (inputs in case_dir). */
void inv_check_folder(const inv_case *c, const char *case_dir, const char *out, inv_report *rep);

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
