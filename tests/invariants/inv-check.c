/* inv-check.c: the invariants every result folder must satisfy, read from its CSV files
 * alone: GPU-seconds conserved across pools, GPUs, jobs, tenants and the time series;
 * busy <= allocated <= provisioned; no GPU does more work than its time; requests add up;
 * kills and victims add up; memory in use within the card; no job waits while it fits.
 * Each check names itself in its message; known bugs fixed elsewhere are XFAIL. */
#include "invariants.h"
#include <math.h>
#include <stdarg.h>

/* Relative tolerance of conserved sums (the CSVs print shortest round-trip numbers, the sums
 * run over up to a few thousand terms) and an absolute floor in GPU-seconds. */
#define INV_REL 2e-5
#define INV_ABS_S 1e-3

double inv_trace_num(const inv_folder *f, const char *id, const char *name, double dflt) {
  int c = inv_col(f->trace, name);
  for (guint r = 0; r < inv_rows(f->trace); r++)
    if (!strcmp(inv_cell(f->trace, r, 0), id)) {
      double v = inv_num(f->trace, r, c);
      return isnan(v) ? dflt : v;
    }
  return dflt;
}

void inv_fail(inv_report *rep, const char *check, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  g_autofree char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  g_string_append_printf(rep->fail, "%s: %s\n", check, msg);
}

static gboolean inv_near(double a, double b) {
  return fabs(a - b) <= INV_ABS_S + INV_REL * MAX(fabs(a), fabs(b));
}

static gboolean inv_le(double a, double b) { return a <= b + INV_ABS_S + INV_REL * fabs(b); }

int inv_pool_index(const inv_case *c, const char *name) {
  for (int i = 0; i < c->n_pools; i++)
    if (!strcmp(c->pools[i].name, name)) return i;
  return -1;
}

/* ---- GPU-seconds ---- */

typedef struct inv_sums {
  double prov, alloc, busy, sm;          /* pools.csv, GPU-seconds */
  double g_alloc, g_busy, g_sm;          /* sum over gpus.csv */
  double t_alloc, t_busy, t_sm;          /* sum over timeseries.csv */
  double j_alloc, j_work;                /* jobs.csv: allocated, training/batch work x gpus */
} inv_sums;

static void inv_sum_pools(const inv_case *c, const inv_folder *f, inv_sums *s, inv_report *rep) {
  const inv_table *t = f->pools;
  int cn = inv_col(t, "pool"), cp = inv_col(t, "provisioned_gpu_h"), ca = inv_col(t, "allocated_gpu_h"),
      cb = inv_col(t, "busy_gpu_h"), cs = inv_col(t, "sm_active_gpu_h");
  for (guint r = 0; r < inv_rows(t); r++) {
    int i = inv_pool_index(c, inv_cell(t, r, cn));
    if (i < 0) {
      inv_fail(rep, "pools", "unknown pool '%s' in pools.csv", inv_cell(t, r, cn));
      continue;
    }
    s[i].prov = 3600 * inv_num(t, r, cp);
    s[i].alloc = 3600 * inv_num(t, r, ca);
    s[i].busy = 3600 * inv_num(t, r, cb);
    s[i].sm = 3600 * inv_num(t, r, cs);
  }
  t = f->gpus;
  cn = inv_col(t, "pool");
  ca = inv_col(t, "allocated_h");
  cb = inv_col(t, "busy_h");
  cs = inv_col(t, "sm_active_h");
  int cpk = inv_col(t, "peak_mem_gb");
  for (guint r = 0; r < inv_rows(t); r++) {
    int i = inv_pool_index(c, inv_cell(t, r, cn));
    if (i < 0) continue;
    double a = 3600 * inv_num(t, r, ca), b = 3600 * inv_num(t, r, cb), m = 3600 * inv_num(t, r, cs);
    s[i].g_alloc += a;
    s[i].g_busy += b;
    s[i].g_sm += m;
    double span = s[i].prov / c->pools[i].gpus;
    if (!inv_le(b, a) || !inv_le(a, span) || !inv_le(m, a))
      inv_fail(rep, "gpu-bounds", "%s GPU row %u: busy %.6g s, SM-active %.6g s, allocated %.6g s, "
               "span %.6g s (want busy, SM <= allocated <= span)", c->pools[i].name, r, b, m, a, span);
    double peak = inv_num(t, r, cpk), most = c->pools[i].card_gb * c->pools[i].oversub;
    if (peak > most * (1 + 1e-9))
      inv_fail(rep, "memory", "%s GPU row %u: peak_mem_gb %.6g above the %.6g GB the card may "
               "hold (%g x its %.6g GB)", c->pools[i].name, r, peak, most, c->pools[i].oversub,
               c->pools[i].card_gb);
  }
}

static void inv_sum_series(const inv_case *c, const inv_folder *f, inv_sums *s, inv_report *rep) {
  const inv_table *t = f->ts;
  int cn = inv_col(t, "pool"), c0 = inv_col(t, "t_start_s"), c1 = inv_col(t, "t_end_s"),
      ca = inv_col(t, "allocated"), cb = inv_col(t, "busy"), cs = inv_col(t, "sm_active");
  gboolean told[INV_MAX_POOLS] = {FALSE}; /* the first bad interval of a pool is enough */
  for (guint r = 0; r < inv_rows(t); r++) {
    int i = inv_pool_index(c, inv_cell(t, r, cn));
    if (i < 0) continue;
    double dt = inv_num(t, r, c1) - inv_num(t, r, c0), n = c->pools[i].gpus;
    double a = inv_num(t, r, ca), b = inv_num(t, r, cb), m = inv_num(t, r, cs);
    s[i].t_alloc += a * dt * n;
    s[i].t_busy += b * dt * n;
    s[i].t_sm += m * dt * n;
    if ((!(dt >= 0) || b > a + 1e-9 || m > a + 1e-9 || a > 1 + 1e-9 || b < 0 || m < 0) && !told[i]) {
      told[i] = TRUE;
      inv_fail(rep, "series-bounds", "%s interval [%s, %s): allocated %g, busy %g, SM-active %g",
               c->pools[i].name, inv_cell(t, r, c0), inv_cell(t, r, c1), a, b, m);
    }
  }
}

static void inv_sum_jobs(const inv_case *c, const inv_folder *f, inv_sums *s) {
  const inv_table *t = f->jobs;
  int cn = inv_col(t, "pool"), ck = inv_col(t, "kind"), cg = inv_col(t, "gpus"),
      ca = inv_col(t, "gpu_s_allocated"), cd = inv_col(t, "work_done_s"), cl = inv_col(t, "work_lost_s");
  for (guint r = 0; r < inv_rows(t); r++) {
    int i = inv_pool_index(c, inv_cell(t, r, cn));
    if (i < 0) continue;
    double a = inv_num(t, r, ca);
    if (isfinite(a)) s[i].j_alloc += a;
    const char *kind = inv_cell(t, r, ck);
    if (strcmp(kind, "training") && strcmp(kind, "batch")) continue;
    /* work is at speed 1 on a whole GPU; it uses its SM share of the card while it computes,
     * which for training is all but its communication share (comm_frac, default 0.1) */
    double done = inv_num(t, r, cd), lost = inv_num(t, r, cl);
    const char *id = inv_key(t, r);
    double sm = inv_trace_num(f, id, "sm", 1.0);
    double compute = strcmp(kind, "training") ? 1.0 : 1.0 - inv_trace_num(f, id, "comm_frac", 0.1);
    s[i].j_work += ((isfinite(done) ? done : 0) + (isfinite(lost) ? lost : 0)) * sm * compute *
                   inv_num(t, r, cg);
  }
}

static void inv_check_conservation(const inv_case *c, const inv_folder *f, inv_report *rep) {
  inv_sums s[INV_MAX_POOLS] = {{0}};
  inv_sum_pools(c, f, s, rep);
  inv_sum_series(c, f, s, rep);
  inv_sum_jobs(c, f, s);
  for (int i = 0; i < c->n_pools; i++) {
    const char *n = c->pools[i].name;
    const inv_sums *p = &s[i];
    rep->checks += 6;
    if (!inv_near(p->alloc, p->g_alloc) || !inv_near(p->alloc, p->t_alloc))
      inv_fail(rep, "allocated", "%s: pools %.9g, GPUs %.9g, time series %.9g GPU-s", n, p->alloc,
               p->g_alloc, p->t_alloc);
    if (!inv_near(p->busy, p->g_busy) || !inv_near(p->busy, p->t_busy))
      inv_fail(rep, "busy", "%s: pools %.9g, GPUs %.9g, time series %.9g GPU-s", n, p->busy,
               p->g_busy, p->t_busy);
    if (!inv_near(p->sm, p->g_sm) || !inv_near(p->sm, p->t_sm))
      inv_fail(rep, "sm-active", "%s: pools %.9g, GPUs %.9g, time series %.9g GPU-s", n, p->sm,
               p->g_sm, p->t_sm);
    if (!inv_le(p->busy, p->alloc) || !inv_le(p->alloc, p->prov) || !inv_le(p->sm, p->alloc))
      inv_fail(rep, "pool-bounds", "%s: busy %.9g, SM-active %.9g, allocated %.9g, provisioned "
               "%.9g GPU-s", n, p->busy, p->sm, p->alloc, p->prov);
    if (!inv_near(p->alloc, p->j_alloc))
      inv_fail(rep, "jobs-allocated", "%s: pools %.9g GPU-s allocated, jobs.csv sums to %.9g "
               "(jobs-allocated partition: jobs.csv must partition the pool)", n,
               p->alloc, p->j_alloc);
    /* a GPU's compute bounds the work done on it: training and batch work (at speed 1 on a
     * whole GPU, done and lost) times its SM share fits inside the SM-active GPU time, which
     * is capped at the card (granted compute sum sm x speed <= 1 at every instant) */
    if (!inv_le(p->j_work, p->sm))
      inv_fail(rep, "granted-compute", "%s: training/batch work x SM share %.9g GPU-s above "
               "SM-active %.9g GPU-s", n, p->j_work, p->sm);
  }
}

/* ---- tenants partition the pools ---- */

/* Each job's charge (gpu_s_allocated: its part of the cards it occupied) is at least the
 * share it was promised (gpu_s_share: the residents' shares of a card add up to at most 1)
 * and at most its workers' residence; a tenant's jobs add up to its allocated GPU time. */
static void inv_check_job_charges(const inv_folder *f, inv_report *rep) {
  const inv_table *t = f->jobs;
  int ca = inv_col(t, "gpu_s_allocated"), csh = inv_col(t, "gpu_s_share"),
      cr = inv_col(t, "run_s"), cg = inv_col(t, "gpus"), ct = inv_col(t, "tenant");
  g_autoptr(GHashTable) by_tenant = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
  gboolean told = FALSE;
  rep->checks++;
  for (guint r = 0; r < inv_rows(t); r++) {
    double a = inv_num(t, r, ca), sh = inv_num(t, r, csh), held = inv_num(t, r, cr) * inv_num(t, r, cg);
    if (!told && (!(a >= 0) || !inv_le(sh, a) || !inv_le(a, held))) {
      told = TRUE;
      inv_fail(rep, "job-charge", "job %s: gpu_s_share %.9g, gpu_s_allocated %.9g, gpus x run_s "
               "%.9g (want share <= allocated <= held)", inv_key(t, r), sh, a, held);
    }
    double *sum = g_hash_table_lookup(by_tenant, inv_cell(t, r, ct));
    if (!sum) g_hash_table_insert(by_tenant, (char *)inv_cell(t, r, ct), sum = g_new0(double, 1));
    if (isfinite(a)) *sum += a;
  }
  t = f->tenants;
  int cn = inv_col(t, "tenant"), cta = inv_col(t, "allocated_gpu_h");
  for (guint r = 0; r < inv_rows(t); r++) {
    const double *sum = g_hash_table_lookup(by_tenant, inv_cell(t, r, cn));
    double a = 3600 * inv_num(t, r, cta), j = sum ? *sum : 0;
    rep->checks++;
    if (!inv_near(a, j))
      inv_fail(rep, "jobs-allocated", "tenant %s: tenants.csv %.9g GPU-s allocated, its jobs in "
               "jobs.csv %.9g (jobs-allocated partition: jobs must partition the tenant)",
               inv_cell(t, r, cn), a, j);
  }
}

static void inv_check_tenants(const inv_case *c, const inv_folder *f, inv_report *rep) {
  static const char *const cols[3] = {"allocated_gpu_h", "busy_gpu_h", "sm_active_gpu_h"};
  static const char *const what[3] = {"allocated", "busy", "SM-active"};
  double pool[3] = {0}, ten[3] = {0};
  const inv_table *t = f->pools;
  for (guint r = 0; r < inv_rows(t); r++)
    for (int k = 0; k < 3; k++) pool[k] += 3600 * inv_num(t, r, inv_col(t, cols[k]));
  t = f->tenants;
  gboolean over = FALSE;
  for (guint r = 0; r < inv_rows(t); r++) {
    double v[3];
    for (int k = 0; k < 3; k++) ten[k] += v[k] = 3600 * inv_num(t, r, inv_col(t, cols[k]));
    if ((!inv_le(v[1], v[0]) || !inv_le(v[2], v[0])) && !over) {
      over = TRUE;
      inv_fail(rep, "tenant-bounds", "tenant %s: busy %.9g GPU-s, SM-active %.9g, above its "
               "allocation %.9g (issue 11 bug 3)", inv_key(t, r), v[1], v[2], v[0]);
    }
  }
  rep->checks += 4;
  for (int k = 0; k < 3; k++)
    if (!inv_near(pool[k], ten[k]))
      inv_fail(rep, k == 0 ? "tenant-allocated" : k == 1 ? "tenant-busy" : "tenant-sm-active",
               "tenants sum to %.9g %s GPU-s, pools %.9g (issue 11 bug 3)", ten[k], what[k],
               pool[k]);
  (void)c;
}

/* ---- services ---- */

static void inv_check_services(const inv_folder *f, inv_report *rep) {
  const inv_table *t = f->services;
  if (!t) return;
  int cq = inv_col(t, "requests"), cs = inv_col(t, "served"), cd = inv_col(t, "dropped"),
      cu = inv_col(t, "unanswered"), cv = inv_col(t, "violations"), ca = inv_col(t, "attainment_pct"),
      cm = inv_col(t, "met"), cp = inv_col(t, "slo_pct"), cl = inv_col(t, "slo_ms");
  for (guint r = 0; r < inv_rows(t); r++) {
    const char *id = inv_key(t, r);
    double q = inv_num(t, r, cq), s = inv_num(t, r, cs), d = inv_num(t, r, cd),
           u = cu >= 0 ? inv_num(t, r, cu) : 0, v = inv_num(t, r, cv);
    rep->checks += 3;
    if (q != s + d + u)
      inv_fail(rep, "requests", "%s: requests %g != served %g + dropped %g + unanswered %g", id, q,
               s, d, u);
    if (isnan(inv_num(t, r, cl))) continue; /* no SLO: not judged */
    if (v < d + u || v > q)
      inv_fail(rep, "violations", "%s: violations %g, dropped %g, unanswered %g, requests %g", id,
               v, d, u, q);
    if (q > 0) {
      double att = 100.0 * (q - v) / q, got = inv_num(t, r, ca);
      if (!(fabs(att - got) <= 1e-5 * MAX(1e-3, att))) /* six significant digits */
        inv_fail(rep, "attainment", "%s: attainment_pct %g, from the counts %g", id, got, att);
      int met = att >= inv_num(t, r, cp) * (1 - 1e-12);
      if ((int)inv_num(t, r, cm) != met)
        inv_fail(rep, "met", "%s: met %s with attainment %g against %g", id, inv_cell(t, r, cm),
                 att, inv_num(t, r, cp));
    }
  }
}

/* ---- kills and victims ---- */

typedef struct inv_kills {
  double oom, innocent, crashes, restarts, evictions;             /* pools.csv */
  double e_oom, e_innocent, e_crash, e_restart, e_evict, e_preempt; /* events.csv */
  double e_backoff, e_after;   /* back-offs begun, restarts after one (the others at once) */
  double j_kills, j_oom, j_crashes, j_restarts;                    /* jobs.csv */
} inv_kills;

static void inv_count_events(const inv_case *c, const inv_folder *f, inv_kills *k) {
  const inv_table *t = f->events;
  int ce = inv_col(t, "event"), cp = inv_col(t, "pool"), ci = inv_col(t, "innocent"),
      cd = inv_col(t, "detail");
  for (guint r = 0; r < inv_rows(t); r++) {
    int i = inv_pool_index(c, inv_cell(t, r, cp));
    if (i < 0) continue;
    const char *e = inv_cell(t, r, ce);
    gboolean kill = TRUE;
    if (!strcmp(e, "oom_kill")) k[i].e_oom++;
    else if (!strcmp(e, "crash")) k[i].e_crash++;
    else if (!strcmp(e, "eviction")) k[i].e_evict++;
    else if (!strcmp(e, "preemption")) k[i].e_preempt++;
    else kill = FALSE;
    /* a restart is requeued at once, or waits out a back-off that ends in a restart row
     * (unless the run ends first) */
    if (!strcmp(e, "restart") && strstr(inv_cell(t, r, cd), "after a back-off")) k[i].e_after++;
    else if (!strcmp(e, "restart") || !strcmp(e, "backoff")) k[i].e_restart++;
    if (!strcmp(e, "backoff")) k[i].e_backoff++;
    if (kill && inv_num(t, r, ci) == 1) k[i].e_innocent++;
  }
  t = f->jobs;
  cp = inv_col(t, "pool");
  for (guint r = 0; r < inv_rows(t); r++) {
    int i = inv_pool_index(c, inv_cell(t, r, cp));
    if (i < 0) continue;
    k[i].j_kills += inv_num(t, r, inv_col(t, "kills"));
    k[i].j_oom += inv_num(t, r, inv_col(t, "oom_kills"));
    k[i].j_crashes += inv_num(t, r, inv_col(t, "crashes"));
    k[i].j_restarts += inv_num(t, r, inv_col(t, "restarts"));
  }
  t = f->pools;
  for (guint r = 0; r < inv_rows(t); r++) {
    int i = inv_pool_index(c, inv_cell(t, r, inv_col(t, "pool")));
    if (i < 0) continue;
    k[i].oom = inv_num(t, r, inv_col(t, "oom_kills"));
    k[i].innocent = inv_num(t, r, inv_col(t, "innocent_victims"));
    k[i].crashes = inv_num(t, r, inv_col(t, "crashes"));
    k[i].restarts = inv_num(t, r, inv_col(t, "restarts"));
    k[i].evictions = inv_num(t, r, inv_col(t, "evictions"));
  }
}

static void inv_check_kills(const inv_case *c, const inv_folder *f, inv_report *rep) {
  inv_kills k[INV_MAX_POOLS] = {{0}};
  inv_count_events(c, f, k);
  for (int i = 0; i < c->n_pools; i++) {
    const inv_kills *p = &k[i];
    rep->checks++;
    if (p->oom != p->e_oom || p->oom != p->j_oom || p->innocent != p->e_innocent ||
        p->evictions != p->e_evict || p->restarts != p->e_restart || p->restarts != p->j_restarts ||
        p->crashes != p->j_crashes || p->e_crash < p->crashes || p->e_after > p->e_backoff ||
        p->j_kills != p->e_oom + p->e_crash + p->e_evict + p->e_preempt)
      inv_fail(rep, "kills", "%s: pools.csv oom %g innocent %g crashes %g restarts %g evictions %g;"
               " events.csv oom %g innocent %g crash %g restart %g (back-offs %g, ended %g) eviction %g;"
               " jobs.csv kills %g oom %g crashes %g restarts %g", c->pools[i].name, p->oom,
               p->innocent, p->crashes, p->restarts, p->evictions, p->e_oom, p->e_innocent,
               p->e_crash, p->e_restart, p->e_backoff, p->e_after, p->e_evict, p->j_kills,
               p->j_oom, p->j_crashes, p->j_restarts);
  }
}

/* ---- no job waits while it fits ---- */


/* What decides whether a job fits a pool, from the case's scenario. */
typedef struct inv_fit {
  scenario_capacity capacity; /* the strategy's class (its row) */
  int replicas;             /* residents per place: its capacity_key's value or declared
                             * default (slots per card, replicas per MIG instance, residents
                             * per fractional card), else 1 */
  int per_gpu;              /* vGPU: VMs per card (80 GB / the profile's frame buffer) */
  int n_inst;               /* MIG: the layout's instances and their usable memory */
  double inst_bytes[8];
} inv_fit;

/* The value of key in pool's block of the case's scenario (owned), NULL when absent. */
char *inv_pool_key(const char *case_dir, const char *pool, const char *key) {
  g_autofree char *path = g_build_filename(case_dir, "scenario.yaml", NULL);
  g_autofree char *text = NULL;
  if (!g_file_get_contents(path, &text, NULL, NULL)) return NULL;
  g_autofree char *head = g_strdup_printf("- name: %s\n", pool);
  g_autofree char *k = g_strdup_printf("\n    %s: ", key);
  const char *at = strstr(text, head);
  if (!at) return NULL;
  const char *next = strstr(at + strlen(head), "- name: ");
  const char *v = strstr(at, k);
  if (!v || (next && v > next)) return NULL;
  v += strlen(k);
  char *line = g_strndup(v, strcspn(v, "\n"));
  g_strstrip(g_strdelimit(line, "\"", ' '));
  return line;
}

/* Usable memory of the A100-80GB MIG profiles the generator's layouts use, in bytes
 * (`sharesim catalog A100-80GB --json`, usable_bytes). */
static double inv_mig_profile_bytes(const char *name) {
  static const struct { const char *name; double bytes; } profiles[] = {
      {"7g.80gb", 84825604096.0}, {"4g.40gb", 42144366592.0}, {"3g.40gb", 42144366592.0},
      {"2g.20gb", 20937965568.0}, {"1g.20gb", 20937965568.0}, {"1g.10gb", 10200547328.0}};
  for (guint i = 0; i < G_N_ELEMENTS(profiles); i++)
    if (!strcmp(profiles[i].name, name)) return profiles[i].bytes;
  return NAN;
}

/* Parses "3g.40gb x2 + 1g.10gb" into fit's instances; FALSE on a profile it does not know. */
static gboolean inv_mig_layout(const char *layout, inv_fit *fit) {
  g_auto(GStrv) terms = g_strsplit(layout, "+", -1);
  for (char **t = terms; *t; t++) {
    g_auto(GStrv) w = g_strsplit(g_strstrip(*t), " x", 2);
    double bytes = inv_mig_profile_bytes(w[0]);
    int n = w[1] ? atoi(w[1]) : 1;
    if (isnan(bytes) || n < 1 || fit->n_inst + n > (int)G_N_ELEMENTS(fit->inst_bytes)) return FALSE;
    while (n-- > 0) fit->inst_bytes[fit->n_inst++] = bytes;
  }
  return fit->n_inst > 0;
}

/* The fit rule of pool p; FALSE when the check cannot decide it from the CSVs: a MIG pool
 * that reconfigures (GPUs drain and go down, layouts change), or a layout or vGPU profile
 * it does not know. */
static gboolean inv_fit_init(const char *case_dir, const inv_pool *p, inv_fit *fit) {
  const scenario_strategy *st = p->strategy;
  *fit = (inv_fit){.capacity = st->capacity, .replicas = 1, .per_gpu = 1};
  const scenario_key *decl = st->capacity_key;
  g_autofree char *v = decl ? inv_pool_key(case_dir, p->name, decl->name) : NULL;
  const char *count = v ? v : decl && decl->def ? decl->def : NULL;
  if (count) fit->replicas = MAX(1, atoi(count));
  switch (st->capacity) {
  case SCENARIO_CAPACITY_SLOTS:
  case SCENARIO_CAPACITY_SHARES: return TRUE;
  case SCENARIO_CAPACITY_VMS: { /* the profile's VMs per card */
    const gpu_model *m = catalog_find(p->gpu);
    const vgpu_profile *vp = m && v ? catalog_vgpu_find(m, v) : NULL;
    fit->per_gpu = vp ? vp->max_per_gpu : 0;
    fit->replicas = 1;
    return fit->per_gpu > 0;
  }
  case SCENARIO_CAPACITY_INSTANCES: { /* the MIG group's keys */
    g_autofree char *reconf = inv_pool_key(case_dir, p->name, scenario_key_reconfigure.name);
    g_autofree char *layout = inv_pool_key(case_dir, p->name, scenario_key_layout.name);
    return (!reconf || !strcmp(reconf, "never")) && layout && inv_mig_layout(layout, fit);
  }
  case SCENARIO_CAPACITY_UNJUDGED: return FALSE;
  }
  g_error("inv-check: strategy %s has no capacity class (scenario.h: scenario_capacity)",
          st->name);
}

/* Workers resident on each card of the stays at instant t: card id -> count (the ids are
 * borrowed from the jobs table: keep the table while the hash lives). */
static GHashTable *inv_residents_at(GArray *stays, double t, GPtrArray *keep) {
  GHashTable *count = g_hash_table_new(g_str_hash, g_str_equal);
  for (guint k = 0; k < stays->len; k++) {
    const inv_stay *s = &g_array_index(stays, inv_stay, k);
    if (!(s->start <= t && t < s->end)) continue;
    char **each = g_strsplit(s->gpu_ids, ";", -1); /* one per worker */
    for (char **g = each; *g; g++) {
      g_ptr_array_add(keep, *g);
      g_hash_table_insert(count, *g, GINT_TO_POINTER(GPOINTER_TO_INT(g_hash_table_lookup(count, *g)) + 1));
    }
    g_free(each); /* the strings live in keep */
  }
  return count;
}

/* Fractional: a card with room for a one-worker job's fraction (and a free resident slot). */
static gboolean inv_fits_fractional(const inv_pool *p, const inv_fit *fit, GArray *stays, double t,
                                    const inv_stay *q) {
  g_autoptr(GHashTable) used = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  for (guint k = 0; k < stays->len; k++) {
    const inv_stay *s = &g_array_index(stays, inv_stay, k);
    if (!(s->start <= t && t < s->end)) continue;
    g_auto(GStrv) each = g_strsplit(s->gpu_ids, ";", -1);
    for (char **g = each; *g; g++) {
      double *u = g_hash_table_lookup(used, *g);
      if (!u) g_hash_table_insert(used, g_strdup(*g), u = g_new0(double, 2));
      u[0] += s->need;
      u[1] += 1;
    }
  }
  /* a card with no resident always has room; else one with room left */
  gboolean fits = (int)g_hash_table_size(used) < p->gpus;
  GHashTableIter it;
  gpointer key, val;
  g_hash_table_iter_init(&it, used);
  while (!fits && g_hash_table_iter_next(&it, &key, &val))
    fits = ((double *)val)[0] + q->need <= 1.0 - 1e-9 && ((double *)val)[1] < fit->replicas;
  return fits;
}

/* Does a queued job q fit pool i at instant t (after its events)? Exclusive, time-slicing
 * and MPS count free replicas (workers may share a card, as the device plugin allows);
 * vGPU counts cards with a free VM (a gang's VMs go to distinct cards); MIG counts, per
 * card, the free places in instances large enough for q's memory, at least (their
 * replicas minus every resident of the card, since a resident may sit in any instance
 * that holds it); fractional looks for a card with room for a one-worker job. */
static gboolean inv_fits_at(const inv_case *c, int i, const inv_fit *fit, GArray *stays, double t,
                            const inv_stay *q) {
  const inv_pool *p = &c->pools[i];
  int cap = 0;
  switch (fit->capacity) {
  case SCENARIO_CAPACITY_SHARES: return inv_fits_fractional(p, fit, stays, t, q);
  case SCENARIO_CAPACITY_SLOTS: {
    int slots = p->gpus * fit->replicas;
    for (guint k = 0; k < stays->len; k++) {
      const inv_stay *s = &g_array_index(stays, inv_stay, k);
      if (s->start <= t && t < s->end) slots -= s->gpus;
    }
    return slots >= q->gpus;
  }
  case SCENARIO_CAPACITY_VMS: cap = fit->per_gpu; break; /* one VM per card for a gang */
  case SCENARIO_CAPACITY_INSTANCES:
    for (int k = 0; k < fit->n_inst; k++) cap += fit->inst_bytes[k] >= q->need ? fit->replicas : 0;
    break;
  case SCENARIO_CAPACITY_UNJUDGED: return FALSE;
  }
  gboolean vms = fit->capacity == SCENARIO_CAPACITY_VMS;
  g_autoptr(GPtrArray) keep = g_ptr_array_new_with_free_func(g_free);
  g_autoptr(GHashTable) count = inv_residents_at(stays, t, keep);
  int free_places = (p->gpus - (int)g_hash_table_size(count)) * (vms ? 1 : cap);
  GHashTableIter it;
  gpointer key, val;
  g_hash_table_iter_init(&it, count);
  while (g_hash_table_iter_next(&it, &key, &val)) {
    int n = GPOINTER_TO_INT(val);
    if (vms) free_places += n < cap;
    else free_places += MAX(0, cap - n);
  }
  return free_places >= q->gpus;
}

/* A gang that stacked workers onto one card (time-slicing, MPS) did so only when fewer
 * cards with a free replica than it has workers were left at its start (issue 11 bug 2):
 * every stay started at or before that instant counts as resident, so a gang placed in the
 * same instant can only make the check more lenient. */
static void inv_check_gang(const inv_case *c, int i, GArray *stays, int replicas, inv_report *rep) {
  for (guint k = 0; k < stays->len; k++) {
    const inv_stay *g = &g_array_index(stays, inv_stay, k);
    if (g->gpus < 2) continue;
    g_auto(GStrv) mine = g_strsplit(g->gpu_ids, ";", -1);
    g_autoptr(GHashTable) distinct = g_hash_table_new(g_str_hash, g_str_equal);
    for (char **m = mine; *m; m++) g_hash_table_add(distinct, *m);
    if ((int)g_hash_table_size(distinct) == g->gpus) continue;
    rep->checks++;
    g_autoptr(GHashTable) used = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    for (guint o = 0; o < stays->len; o++) {
      const inv_stay *s = &g_array_index(stays, inv_stay, o);
      if (o == k || !(s->start <= g->start && g->start < s->end)) continue;
      g_auto(GStrv) ids = g_strsplit(s->gpu_ids, ";", -1);
      for (char **m = ids; *m; m++) {
        int n = GPOINTER_TO_INT(g_hash_table_lookup(used, *m));
        g_hash_table_replace(used, g_strdup(*m), GINT_TO_POINTER(n + 1));
      }
    }
    int full = 0;
    GHashTableIter it;
    gpointer key, val;
    g_hash_table_iter_init(&it, used);
    while (g_hash_table_iter_next(&it, &key, &val)) full += GPOINTER_TO_INT(val) >= replicas;
    int open = c->pools[i].gpus - full;
    if (open >= g->gpus)
      inv_fail(rep, "gang-spread", "%s: gang of %d workers placed on %s at %.9g s while %d cards "
               "had a free replica (issue 11 bug 2)", c->pools[i].name, g->gpus, g->gpu_ids,
               g->start, open);
  }
}

/* Did the idle culler stop a notebook of pool i (a `cull` row in events.csv)? */
static gboolean inv_pool_culled(const inv_case *c, const inv_folder *f, int i) {
  const inv_table *t = f->events;
  int ce = inv_col(t, "event"), cp = inv_col(t, "pool");
  for (guint r = 0; r < inv_rows(t); r++)
    if (!strcmp(inv_cell(t, r, ce), "cull") && inv_pool_index(c, inv_cell(t, r, cp)) == i)
      return TRUE;
  return FALSE;
}

/* The stays (start to end, on gpu_ids) and waits (submission to start) of pool i from
 * jobs.csv; FALSE when a job was killed, restarted or culled (jobs.csv then shows only its
 * first start and its end, so the pool's history cannot be rebuilt). */
gboolean inv_collect_stays(const inv_case *c, const inv_folder *f, int i, GArray *stays,
                           GArray *waits) {
  if (inv_pool_culled(c, f, i)) return FALSE;
  const inv_table *t = f->jobs;
  int cn = inv_col(t, "pool"), cg = inv_col(t, "gpus"), cs = inv_col(t, "submit_s"),
      c0 = inv_col(t, "start_s"), c1 = inv_col(t, "end_s"), co = inv_col(t, "outcome"),
      ck = inv_col(t, "kills"), cr = inv_col(t, "restarts"), cid = inv_col(t, "gpu_ids");
  scenario_capacity cls = c->pools[i].strategy->capacity;
  for (guint r = 0; r < inv_rows(t); r++) {
    if (inv_pool_index(c, inv_cell(t, r, cn)) != i) continue;
    if (inv_num(t, r, ck) > 0 || inv_num(t, r, cr) > 0) return FALSE;
    const char *outcome = inv_cell(t, r, co), *id = inv_key(t, r);
    if (!strcmp(outcome, "unplaceable") || !strcmp(outcome, "not_submitted")) continue;
    inv_stay s = {.start = inv_num(t, r, c0), .end = inv_num(t, r, c1), .gpus = (int)inv_num(t, r, cg), .id = id,
                  .gpu_ids = (char *)inv_cell(t, r, cid)};
    if (isnan(s.end)) s.end = INFINITY;
    if (cls == SCENARIO_CAPACITY_SHARES) s.need = inv_trace_num(f, id, "gpu_frac", 1.0);
    if (cls == SCENARIO_CAPACITY_INSTANCES) s.need = 1e9 * inv_trace_num(f, id, "mem_gb", 0); /* placed by it */
    if (!isnan(s.start)) g_array_append_val(stays, s);
    inv_stay w = s;
    w.start = inv_num(t, r, cs);                 /* queued from its submission ... */
    w.end = isnan(s.start) ? INFINITY : s.start; /* ... to its start */
    w.gpu_ids = (char *)id;
    /* fractional gangs: which cards hold a gang's shares is a packing problem, not checked */
    if (w.end > w.start && (cls != SCENARIO_CAPACITY_SHARES || w.gpus == 1)) g_array_append_val(waits, w);
  }
  return TRUE;
}

/* At every instant something changed in pool i (starts, ends, submissions), no queued job
 * of the pool fits (issue 11: a brute-force placer on the same state). */
static void inv_check_pool_waits(const inv_case *c, int i, const inv_fit *fit, GArray *stays,
                                 GArray *waits, inv_report *rep) {
  const inv_pool *p = &c->pools[i];
  rep->checks++;
  for (guint k = 0; k < stays->len + waits->len; k++) {
    const inv_stay *e = k < stays->len ? &g_array_index(stays, inv_stay, k)
                                       : &g_array_index(waits, inv_stay, k - stays->len);
    double instants[2] = {e->start, e->end};
    for (int x = 0; x < 2; x++) {
      if (!isfinite(instants[x])) continue;
      for (guint w = 0; w < waits->len; w++) {
        const inv_stay *q = &g_array_index(waits, inv_stay, w);
        if (!(q->start <= instants[x] && instants[x] < q->end)) continue;
        if (!inv_fits_at(c, i, fit, stays, instants[x], q)) continue;
        const char *bug = fit->capacity == SCENARIO_CAPACITY_SHARES ? " (head-of-line blocking: issue 11 bug 1)" : "";
        inv_fail(rep, "waits-while-fits", "%s (%s): job %s (%d GPU%s) queued at %.9g s although "
                 "it fits%s", p->name, p->strategy->name, q->gpu_ids, q->gpus,
                 q->gpus == 1 ? "" : "s", instants[x], bug);
        return;
      }
    }
  }
}

/* Pools whose jobs ran once each (no kill, no restart: jobs.csv shows every stay), under
 * every strategy whose fit the check can decide (inv_fit_init): no job waits while it fits,
 * and time-sliced and MPS gangs stack on a card only when they must. */
static void inv_check_waits(const inv_case *c, const inv_folder *f, const char *case_dir,
                            inv_report *rep) {
  for (int i = 0; i < c->n_pools; i++) {
    const inv_pool *p = &c->pools[i];
    inv_fit fit;
    if (!inv_fit_init(case_dir, p, &fit)) continue;
    GArray *stays = g_array_new(FALSE, TRUE, sizeof(inv_stay));
    GArray *waits = g_array_new(FALSE, TRUE, sizeof(inv_stay));
    if (inv_collect_stays(c, f, i, stays, waits)) {
      if (fit.capacity == SCENARIO_CAPACITY_SLOTS) /* gangs stack only when they must */
        inv_check_gang(c, i, stays, fit.replicas, rep);
      if (!c->quota_on) /* a quota holds jobs back that would fit */
        inv_check_pool_waits(c, i, &fit, stays, waits, rep);
    }
    g_array_free(stays, TRUE);
    g_array_free(waits, TRUE);
  }
}

/* ---- priorities ---- */

/* A job's priority: its trace cell when non-zero, else its tenant's class. */
static int inv_priority(const inv_case *c, const inv_table *tr, guint r) {
  int v = (int)inv_num(tr, r, inv_col(tr, "priority"));
  const char *t = inv_cell(tr, r, inv_col(tr, "tenant"));
  int ti = t[0] == 't' ? atoi(t + 1) : -1;
  return v || ti < 0 || ti >= INV_TENANTS ? v : c->tenant_prio[ti];
}

/* With priority classes, in pools whose places are slots: no job first starts while one of
 * higher priority that needs no more workers and memory has been waiting since before
 * (submitted earlier, first started later or never): queue order, preemption or not, gives
 * the place to the higher one (docs/models.md "Priorities and preemption"). First starts
 * only: jobs.csv keeps no later ones. */
static void inv_check_priority(const inv_case *c, const inv_folder *f, inv_report *rep) {
  if (!c->prio_on) return;
  const inv_table *j = f->jobs, *tr = f->trace;
  guint n = inv_rows(j);
  if (inv_rows(tr) != n) return; /* rows in trace order, one each */
  int cp = inv_col(j, "pool"), cs = inv_col(j, "start_s"), cb = inv_col(j, "submit_s"),
      cg = inv_col(j, "gpus"), co = inv_col(j, "outcome"), cm = inv_col(tr, "mem_gb");
  for (guint l = 0; l < n; l++) {
    int pi = inv_pool_index(c, inv_cell(j, l, cp));
    double sl = inv_num(j, l, cs);
    if (pi < 0 || isnan(sl) || c->pools[pi].strategy->capacity != SCENARIO_CAPACITY_SLOTS)
      continue;
    for (guint h = 0; h < n; h++) {
      double sh = inv_num(j, h, cs);
      if (h == l || strcmp(inv_cell(j, h, cp), inv_cell(j, l, cp)) ||
          !strcmp(inv_cell(j, h, co), "unplaceable") || inv_priority(c, tr, h) <= inv_priority(c, tr, l) ||
          !(inv_num(j, h, cb) < sl) || sh <= sl || inv_num(j, h, cg) > inv_num(j, l, cg) ||
          inv_num(tr, h, cm) > inv_num(tr, l, cm))
        continue;
      inv_fail(rep, "priority", "%s: %s (priority %d) first started at %g s while %s "
               "(priority %d, submitted at %g s, no larger) waited until %g s",
               c->pools[pi].name, inv_key(j, l), inv_priority(c, tr, l), sl,
               inv_key(j, h), inv_priority(c, tr, h), inv_num(j, h, cb), sh);
    }
  }
}

/* ---- quotas and gangs ---- */

/* Every job that started holds all its workers' GPUs: gpu_ids names one per worker (a gang
 * is never partial; docs/models.md "Quotas and gangs"). */
static void inv_check_gangs(const inv_folder *f, inv_report *rep) {
  const inv_table *t = f->jobs;
  int cg = inv_col(t, "gpus"), c0 = inv_col(t, "start_s"), cid = inv_col(t, "gpu_ids");
  rep->checks++;
  for (guint r = 0; r < inv_rows(t); r++) {
    if (isnan(inv_num(t, r, c0))) continue;
    const char *ids = inv_cell(t, r, cid);
    int n = *ids ? 1 : 0;
    for (const char *x = ids; *x; x++) n += *x == ';';
    if (n != (int)inv_num(t, r, cg)) {
      inv_fail(rep, "gang-partial", "job %s of %g workers started on %d GPUs (%s)",
               inv_key(t, r), inv_num(t, r, cg), n, ids);
      return;
    }
  }
}

/* One attempt of a job of a managed tenant: ClusterQueue q holds gpus of pool p over
 * [start, end). */
typedef struct inv_hold {
  double start, end;
  int q, p, gpus;
} inv_hold;

/* When job id was killed (events.csv: oom_kill, crash, eviction, preemption), NAN if never. */
static double inv_kill_time(const inv_table *ev, const char *id) {
  int ce = inv_col(ev, "event"), cj = inv_col(ev, "job"), ct = inv_col(ev, "t_s");
  for (guint r = 0; r < inv_rows(ev); r++) {
    const char *e = inv_cell(ev, r, ce);
    if (!strcmp(inv_cell(ev, r, cj), id) &&
        (!strcmp(e, "oom_kill") || !strcmp(e, "crash") || !strcmp(e, "eviction") ||
         !strcmp(e, "preemption")))
      return inv_num(ev, r, ct);
  }
  return NAN;
}

/* The attempts of the managed tenants' jobs (jobs.csv, events.csv): a job killed once ran
 * [start, kill) and, restarted, its last attempt, which ended at end_s and ran what run_s
 * leaves (a Kueue preemption's victim, say). FALSE when a job was killed or restarted more
 * than once, or restarted and did not end: its attempts cannot be rebuilt. */
static gboolean inv_quota_holds(const inv_case *c, const inv_folder *f, GArray *holds) {
  const inv_table *j = f->jobs;
  int ct = inv_col(j, "tenant"), cp = inv_col(j, "pool"), cg = inv_col(j, "gpus"),
      c0 = inv_col(j, "start_s"), c1 = inv_col(j, "end_s"), ck = inv_col(j, "kills"),
      cr = inv_col(j, "restarts"), crun = inv_col(j, "run_s");
  for (guint r = 0; r < inv_rows(j); r++) {
    double s = inv_num(j, r, c0), e = inv_num(j, r, c1), k = inv_num(j, r, ck), rs = inv_num(j, r, cr);
    if (k > 1 || rs > k) return FALSE;
    const char *tn = inv_cell(j, r, ct);
    int ti = tn[0] == 't' ? atoi(tn + 1) : -1, p = inv_pool_index(c, inv_cell(j, r, cp));
    if (isnan(s) || p < 0 || ti < 0 || ti >= INV_TENANTS || c->tenant_cq[ti] < 0) continue;
    inv_hold h = {.start = s, .end = isnan(e) ? INFINITY : e, .q = c->tenant_cq[ti], .p = p,
                  .gpus = (int)inv_num(j, r, cg)};
    if (k == 1) {
      double kt = inv_kill_time(f->events, inv_key(j, r));
      if (isnan(kt) || (rs == 1 && isnan(e))) return FALSE;
      h.end = kt;
      if (rs == 1) {
        inv_hold last = h;
        last.start = e - (inv_num(j, r, crun) - (kt - s));
        last.end = e;
        g_array_append_val(holds, last);
      }
    }
    g_array_append_val(holds, h);
  }
  return TRUE;
}

/* GPUs that ClusterQueue q holds in pool p at instant t (rebuilt attempts have rounding:
 * an attempt holds from a millisecond after its start to one before its end). */
static int inv_quota_usage(const GArray *holds, int q, int p, double t) {
  int used = 0;
  for (guint i = 0; i < holds->len; i++) {
    const inv_hold *h = &g_array_index(holds, inv_hold, i);
    if (h->q == q && h->p == p && h->start <= t + 1e-3 && t + 1e-3 < h->end) used += h->gpus;
  }
  return used;
}

/* With Kueue's quotas, where each job's attempts can be rebuilt (inv_quota_holds; none
 * culled): at every attempt's start, no ClusterQueue holds more of a pool than its nominal
 * plus its borrowing limit, the cohort no more than the queues' nominal quotas together
 * (with reclaim by preemption and fair sharing too: tests/invariants/inv-gen.c); tenants.csv's
 * quota GPU-hours are the managed tenants' GPU-hours of jobs.csv, none for a tenant without
 * a LocalQueue, and what they borrowed is part of them. */
static void inv_check_quota(const inv_case *c, const inv_folder *f, inv_report *rep) {
  if (!c->quota_on) return;
  const inv_table *j = f->jobs, *te = f->tenants;
  int c0 = inv_col(j, "start_s"), cg = inv_col(j, "gpus"), ct = inv_col(j, "tenant"),
      crun = inv_col(j, "run_s");
  for (int i = 0; i < c->n_pools; i++)
    if (inv_pool_culled(c, f, i)) return;
  GArray *holds = g_array_new(FALSE, TRUE, sizeof(inv_hold));
  if (!inv_quota_holds(c, f, holds)) {
    g_array_free(holds, TRUE);
    return;
  }
  double held[INV_TENANTS] = {0};
  for (guint r = 0; r < inv_rows(j); r++) {
    const char *tn = inv_cell(j, r, ct);
    int ti = tn[0] == 't' ? atoi(tn + 1) : -1;
    if (ti >= 0 && ti < INV_TENANTS && !isnan(inv_num(j, r, c0)))
      held[ti] += inv_num(j, r, crun) * inv_num(j, r, cg);
  }
  rep->checks += 2;
  for (guint x = 0; x < holds->len; x++) {
    const inv_hold *at = &g_array_index(holds, inv_hold, x);
    double t = at->start;
    int p = at->p, all = 0, nominal = 0;
    for (int q = 0; q < INV_TENANTS; q++) {
      int u = inv_quota_usage(holds, q, p, t), b = c->quota_borrow[q][p];
      all += u;
      nominal += c->quota_nominal[q][p];
      if (b >= 0 && u > c->quota_nominal[q][p] + b)
        inv_fail(rep, "quota-borrowing", "cq%d holds %d GPUs of %s at %g s: above its nominal "
                 "%d plus borrowing limit %d", q, u, c->pools[p].name, t, c->quota_nominal[q][p], b);
    }
    if (all > nominal)
      inv_fail(rep, "quota-cohort", "the cohort's queues hold %d GPUs of %s at %g s: above their "
               "nominal quotas together (%d)", all, c->pools[p].name, t, nominal);
  }
  g_array_free(holds, TRUE);
  int cq = inv_col(te, "quota_gpu_h"), cb = inv_col(te, "borrowed_gpu_h");
  for (guint r = 0; r < inv_rows(te); r++) {
    const char *tn = inv_key(te, r);
    int ti = tn[0] == 't' ? atoi(tn + 1) : -1;
    double q = 3600 * inv_num(te, r, cq), b = 3600 * inv_num(te, r, cb);
    double want = ti >= 0 && ti < INV_TENANTS && c->tenant_cq[ti] >= 0 ? held[ti] : 0;
    if (!inv_near(q, want) || !inv_le(b, q))
      inv_fail(rep, "quota-partition", "tenant %s: %.9g GPU-s under quota, %.9g borrowed; its "
               "jobs held %.9g", tn, q, b, want);
  }
}

/* The tenant index of job id (jobs.csv's "tK"), -1 when none. */
static int inv_job_tenant(const inv_table *j, const char *id) {
  int ct = inv_col(j, "tenant");
  for (guint r = 0; r < inv_rows(j); r++)
    if (!strcmp(inv_key(j, r), id)) {
      const char *tn = inv_cell(j, r, ct);
      int ti = tn[0] == 't' ? atoi(tn + 1) : -1;
      return ti >= 0 && ti < INV_TENANTS ? ti : -1;
    }
  return -1;
}

/* Kueue's preemptions to reclaim lent quota (where a queue preempts): each such event of
 * events.csv evicts a job of another ClusterQueue than its cause's, both managed; per
 * tenant the events are at most tenants.csv's reclaims_suffered (counted when chosen: a
 * victim may end first) and those at most its preemptions_suffered; the reclaims suffered
 * and caused add up to the same. */
static void inv_check_reclaim(const inv_case *c, const inv_folder *f, inv_report *rep) {
  const inv_table *te = f->tenants, *ev = f->events;
  int cs = inv_col(te, "reclaims_suffered"), cc = inv_col(te, "reclaims_caused"),
      cp = inv_col(te, "preemptions_suffered");
  if (!c->quota_on || cs < 0) return;
  rep->checks++;
  int ce = inv_col(ev, "event"), cj = inv_col(ev, "job"), ck = inv_col(ev, "cause_job"),
      cd = inv_col(ev, "detail");
  double seen[INV_TENANTS] = {0}, suffered = 0, caused = 0;
  for (guint r = 0; r < inv_rows(ev); r++) {
    if (strcmp(inv_cell(ev, r, ce), "preemption") || !strstr(inv_cell(ev, r, cd), "(Kueue: reclamation"))
      continue;
    int tv = inv_job_tenant(f->jobs, inv_cell(ev, r, cj)), tc = inv_job_tenant(f->jobs, inv_cell(ev, r, ck));
    int qv = tv < 0 ? -1 : c->tenant_cq[tv], qc = tc < 0 ? -1 : c->tenant_cq[tc];
    if (qv < 0 || qc < 0 || qv == qc)
      inv_fail(rep, "reclaim-victim", "%s reclaimed for %s: ClusterQueues cq%d and cq%d",
               inv_cell(ev, r, cj), inv_cell(ev, r, ck), qv, qc);
    if (tv >= 0) seen[tv]++;
  }
  for (guint r = 0; r < inv_rows(te); r++) {
    const char *tn = inv_key(te, r);
    int ti = tn[0] == 't' ? atoi(tn + 1) : -1;
    double s = inv_num(te, r, cs);
    suffered += s;
    caused += inv_num(te, r, cc);
    if ((ti >= 0 && ti < INV_TENANTS && seen[ti] > s) || s > inv_num(te, r, cp))
      inv_fail(rep, "reclaim-counts", "tenant %s: %g reclaims suffered, %g events, %g "
               "preemptions suffered", tn, s, ti >= 0 && ti < INV_TENANTS ? seen[ti] : 0,
               inv_num(te, r, cp));
  }
  if (suffered != caused)
    inv_fail(rep, "reclaim-counts", "%g reclaims suffered, %g caused", suffered, caused);
}

/* ---- the folder ---- */

static inv_table *inv_load(const char *out, const char *name, gboolean required, inv_report *rep) {
  g_autofree char *p = g_build_filename(out, name, NULL);
  GError *err = NULL;
  inv_table *t = inv_table_load(p, &err);
  if (!t && required) inv_fail(rep, "files", "%s", err->message);
  g_clear_error(&err);
  return t;
}

void inv_check_folder(const inv_case *c0, const char *case_dir, const char *out, inv_report *rep) {
  inv_case cc = *c0; /* with what each pool's memory may hold (inv-mem.c) */
  inv_pool_oversub(&cc, case_dir);
  const inv_case *c = &cc;
  inv_folder f = {
      .pools = inv_load(out, "pools.csv", TRUE, rep),
      .gpus = inv_load(out, "gpus.csv", TRUE, rep),
      .jobs = inv_load(out, "jobs.csv", TRUE, rep),
      .tenants = inv_load(out, "tenants.csv", TRUE, rep),
      .ts = inv_load(out, "timeseries.csv", TRUE, rep),
      .services = inv_load(out, "services.csv", FALSE, rep),
      .events = inv_load(out, "events.csv", TRUE, rep),
      .trace = inv_load(case_dir, "trace.csv", TRUE, rep),
  };
  if (f.pools && f.gpus && f.jobs && f.tenants && f.ts && f.events && f.trace) {
    inv_check_conservation(c, &f, rep);
    inv_check_tenants(c, &f, rep);
    inv_check_job_charges(&f, rep);
    inv_check_services(&f, rep);
    inv_check_kills(c, &f, rep);
    inv_check_waits(c, &f, case_dir, rep);
    if (!c->quota_on) inv_check_priority(c, &f, rep); /* a quota holds back, not the order */
    inv_check_gangs(&f, rep);
    inv_check_quota(c, &f, rep);
    inv_check_reclaim(c, &f, rep);
    inv_check_mig_slices(c, f.events, rep);
    if (c->lone) inv_check_lone(c, f.jobs, rep);
    inv_check_oversub(c, &f, rep);
    inv_check_limits(c, &f, case_dir, rep);
    inv_check_blast(&f, out, rep);
  }
  inv_table *all[] = {f.pools, f.gpus, f.jobs, f.tenants, f.ts, f.services, f.events, f.trace};
  for (guint i = 0; i < G_N_ELEMENTS(all); i++) inv_table_free(all[i]);
}
