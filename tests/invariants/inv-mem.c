/* inv-mem.c: the invariants of memory limits and memory oversubscription, read from a
 * result folder's CSV files and the case's scenario: memory beyond the card only in pools
 * whose strategy allows it (HAMi's device_memory_scaling, time-slicing's unified_memory
 * above 1) and there counted as oversubscribed; HAMi's and KAI's capacity on each card;
 * per-container memory limits keep an out-of-memory from reaching a neighbour. */
#include "invariants.h"
#include "catalog.h"

/* A number of pool's block (its key), or dflt when absent. */
static double inv_key_num(const char *case_dir, const char *pool, const char *key, double dflt) {
  g_autofree char *v = inv_pool_key(case_dir, pool, key);
  return v ? g_ascii_strtod(v, NULL) : dflt;
}

void inv_pool_oversub(inv_case *c, const char *case_dir) {
  for (int i = 0; i < c->n_pools; i++) {
    inv_pool *p = &c->pools[i];
    const char *st = p->strategy->name;
    p->oversub = 1;
    if (!strcmp(st, "hami"))
      p->oversub = MAX(1.0, inv_key_num(case_dir, p->name, "device_memory_scaling", 1));
    else if (!strcmp(st, "time-slicing"))
      p->oversub = inv_key_num(case_dir, p->name, "unified_memory", 1);
    p->migration_slowdown = inv_key_num(case_dir, p->name, "migration_slowdown", 50);
  }
}

/* The GPU rows: oversub_h only where the pool allows it, never above the time the card was
 * allocated; per pool, the GPUs' oversubscribed seconds into *gpu_s. */
static void inv_oversub_gpus(const inv_case *c, const inv_folder *f, double *gpu_s,
                             inv_report *rep) {
  const inv_table *t = f->gpus;
  int cn = inv_col(t, "pool"), co = inv_col(t, "oversub_h"), ca = inv_col(t, "allocated_h");
  for (guint r = 0; r < inv_rows(t); r++) {
    int i = inv_pool_index(c, inv_cell(t, r, cn));
    if (i < 0) continue;
    double h = inv_num(t, r, co);
    if (c->pools[i].oversub <= 1 && h != 0)
      inv_fail(rep, "oversub", "%s GPU row %u: oversub_h %.6g in a pool whose memory may not pass "
               "the card", c->pools[i].name, r, h);
    if (h > inv_num(t, r, ca) * (1 + 1e-9) + 1e-9)
      inv_fail(rep, "oversub", "%s GPU row %u: oversub_h %.6g above allocated_h %.6g",
               c->pools[i].name, r, h, inv_num(t, r, ca));
    if (h > 0) gpu_s[i] += 3600 * h;
  }
}

/* The job rows: oversubscribed worker-seconds only where the pool allows it, within the
 * job's residence, at a slowdown between 1 and the pool's k; per pool into *job_s. */
static void inv_oversub_jobs(const inv_case *c, const inv_folder *f, double *job_s,
                             inv_report *rep) {
  const inv_table *t = f->jobs;
  int cn = inv_col(t, "pool"), co = inv_col(t, "oversub_gpu_s"), cs = inv_col(t, "oversub_slowdown"),
      cr = inv_col(t, "run_s"), cg = inv_col(t, "gpus");
  for (guint r = 0; r < inv_rows(t); r++) {
    int i = inv_pool_index(c, inv_cell(t, r, cn));
    if (i < 0) continue;
    const inv_pool *p = &c->pools[i];
    double s = inv_num(t, r, co), slow = inv_num(t, r, cs);
    if (p->oversub <= 1 && s != 0)
      inv_fail(rep, "oversub", "job %s: oversub_gpu_s %.6g in pool %s, whose memory may not pass "
               "the card", inv_cell(t, r, 0), s, p->name);
    if (!(s > 0)) continue;
    job_s[i] += s;
    if (s > inv_num(t, r, cr) * inv_num(t, r, cg) * (1 + 1e-9) + 1e-6)
      inv_fail(rep, "oversub", "job %s: oversub_gpu_s %.6g above its residence %.6g x %g workers",
               inv_cell(t, r, 0), s, inv_num(t, r, cr), inv_num(t, r, cg));
    if (!(slow >= 1 - 1e-9 && slow <= p->migration_slowdown * (1 + 1e-9)))
      inv_fail(rep, "oversub", "job %s: oversub_slowdown %.6g outside 1 .. %g (pool %s's k)",
               inv_cell(t, r, 0), slow, p->migration_slowdown, p->name);
  }
}

void inv_check_oversub(const inv_case *c, const inv_folder *f, inv_report *rep) {
  gboolean any = FALSE;
  for (int i = 0; i < c->n_pools; i++) any |= c->pools[i].oversub > 1;
  gboolean cols = inv_col(f->jobs, "oversub_gpu_s") >= 0 && inv_col(f->gpus, "oversub_h") >= 0;
  if (any != cols)
    inv_fail(rep, "oversub", "the oversubscription columns are %s though %s pool allows memory "
             "beyond the card", cols ? "written" : "missing", any ? "a" : "no");
  if (!cols) return;
  double gpu_s[INV_MAX_POOLS] = {0}, job_s[INV_MAX_POOLS] = {0};
  inv_oversub_gpus(c, f, gpu_s, rep);
  inv_oversub_jobs(c, f, job_s, rep);
  /* every second a card holds more than its memory, a resident of it runs with memory off
   * the card: the GPUs' oversubscribed time is within the jobs' worker-seconds so */
  for (int i = 0; i < c->n_pools; i++)
    if (gpu_s[i] > job_s[i] * (1 + 2e-5) + 1e-3) /* the CSVs print 6 digits */
      inv_fail(rep, "oversub", "pool %s: GPUs oversubscribed %.6g s, its jobs ran so %.6g "
               "worker-s (want GPUs <= jobs)", c->pools[i].name, gpu_s[i], job_s[i]);
}

/* ---- HAMi and KAI capacity ---- */

/* What one resident takes of a card: cores (HAMi) or fraction (KAI), memory limit. */
typedef struct inv_take {
  double share, mem;
  int n;
  gboolean mem_known;       /* every resident's limit is known (no KV cache to size) */
} inv_take;

/* A resident's share and memory limit in pool p of a case (HAMi: gpucores or gpu_frac, and
 * its memory, the card's counted memory when it asks none; KAI: gpu_fraction or gpu_frac). */
static void inv_take_of(const inv_folder *f, const char *case_dir, const inv_pool *p,
                        const char *id, double counted, inv_take *t) {
  gboolean hami = !strcmp(p->strategy->name, "hami");
  double fixed = hami ? inv_key_num(case_dir, p->name, "gpucores", 0) / 100
                      : inv_key_num(case_dir, p->name, "gpu_fraction", 0);
  t->share += fixed > 0 ? fixed : inv_trace_num(f, id, "gpu_frac", 1.0);
  double mem = 1e9 * inv_trace_num(f, id, "mem_gb", 0);
  t->mem += mem > 0 && mem < counted ? mem : counted;
  if (inv_trace_num(f, id, "kv_gb", 0) > 0) t->mem_known = FALSE;
  t->n++;
}

/* At each start in pool i, every card's residents within what HAMi or KAI admits. */
static void inv_check_pool_cards(const inv_case *c, const inv_folder *f, const char *case_dir,
                                 int i, GArray *stays, inv_report *rep) {
  const inv_pool *p = &c->pools[i];
  gboolean hami = !strcmp(p->strategy->name, "hami");
  double card = (double)catalog_find(p->gpu)->mem_bytes;
  double counted = hami ? card * inv_key_num(case_dir, p->name, "device_memory_scaling", 1) : card;
  double most = hami ? inv_key_num(case_dir, p->name, "device_split_count", 10)
                     : inv_key_num(case_dir, p->name, "max_pods_per_gpu", 20);
  for (guint k = 0; k < stays->len; k++) {
    double t = g_array_index(stays, inv_stay, k).start;
    g_autoptr(GHashTable) cards = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    for (guint m = 0; m < stays->len; m++) {
      const inv_stay *s = &g_array_index(stays, inv_stay, m);
      if (!(s->start <= t && t < s->end)) continue;
      g_auto(GStrv) each = g_strsplit(s->gpu_ids, ";", -1);
      for (char **g = each; *g; g++) {
        inv_take *u = g_hash_table_lookup(cards, *g);
        if (!u) {
          g_hash_table_insert(cards, g_strdup(*g), u = g_new0(inv_take, 1));
          u->mem_known = TRUE;
        }
        inv_take_of(f, case_dir, p, s->id, counted, u);
      }
    }
    GHashTableIter it;
    gpointer key, val;
    g_hash_table_iter_init(&it, cards);
    while (g_hash_table_iter_next(&it, &key, &val)) {
      const inv_take *u = val;
      if (u->share > 1 + 1e-9 || u->n > most || (hami && u->mem_known && u->mem > counted * (1 + 1e-12)))
        inv_fail(rep, "capacity", "%s (%s) card %s at %.6g s: %d residents (at most %g), %s %.6g "
                 "(at most 1), memory limits %.6g GB (at most %.6g)", p->name, p->strategy->name,
                 (const char *)key, t, u->n, most, hami ? "cores" : "fractions", u->share,
                 u->mem / 1e9, counted / 1e9);
    }
  }
}

void inv_check_limits(const inv_case *c, const inv_folder *f, const char *case_dir,
                      inv_report *rep) {
  const inv_table *t = f->pools;
  int cn = inv_col(t, "pool"), cv = inv_col(t, "innocent_victims");
  for (int i = 0; i < c->n_pools; i++) {
    const inv_pool *p = &c->pools[i];
    gboolean hami = !strcmp(p->strategy->name, "hami"), kai = !strcmp(p->strategy->name, "kai");
    if (!hami && !kai) continue;
    g_autofree char *enf = kai ? inv_pool_key(case_dir, p->name, "enforcement") : NULL;
    gboolean limits = hami || (enf && !strcmp(enf, "enforced"));
    for (guint r = 0; limits && r < inv_rows(t); r++)
      if (inv_pool_index(c, inv_cell(t, r, cn)) == i && inv_num(t, r, cv) != 0)
        inv_fail(rep, "capacity", "%s (%s%s): %g innocent victims where each container's memory "
                 "is its own limit", p->name, p->strategy->name, kai ? " enforced" : "",
                 inv_num(t, r, cv));
    g_autoptr(GArray) stays = g_array_new(FALSE, FALSE, sizeof(inv_stay));
    g_autoptr(GArray) waits = g_array_new(FALSE, FALSE, sizeof(inv_stay));
    if (inv_collect_stays(c, f, i, stays, waits)) inv_check_pool_cards(c, f, case_dir, i, stays, rep);
  }
}
