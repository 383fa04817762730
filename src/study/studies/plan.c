/* plan.c: the classes of `sharesim plan` (the jobs of one kind, their tenants' trust and
 * strictest constraints), the candidates of each (every mechanism the trust allows on every
 * model that may be bought, pruned when a job can never fit their devices), the judging of
 * a probe's seeds at the 95 % bound, and the scenario text of a set-up. The search over the
 * candidates is plan-run.c's, the files plan-report.c's. */
#include "plan.h"
#include "csvread.h"
#include "safeopen.h"
#include "seeds.h"
#include "util.h"
#include <math.h>
#include <string.h>

#define PLAN_HOURS_PER_MONTH 730.0

double plan_cost_month(const plan_candidate *c, guint32 nodes) {
  return (double)nodes * c->gpus_per_node * c->price * PLAN_HOURS_PER_MONTH;
}

void plan_measure_clear(plan_measure *m) {
  g_free(m->slo_worst);
  m->slo_worst = NULL;
  g_free(m->blast_src);
  m->blast_src = NULL;
}

static void plan_measure_free(gpointer m) {
  plan_measure_clear(m);
  g_free(m);
}

/* ---- classes ---- */

/* Tightens class k by rule u (the rule of one of its jobs). */
static void plan_class_add_rule(plan_class *k, const req_rule *u) {
  if (u->trust > k->trust) k->trust = u->trust;
  if (!isnan(u->min_slo) && (isnan(k->min_slo) || u->min_slo > k->min_slo)) k->min_slo = u->min_slo;
  if (!isnan(u->max_wait_p95_s) && (isnan(k->max_wait_p95_s) || u->max_wait_p95_s < k->max_wait_p95_s))
    k->max_wait_p95_s = u->max_wait_p95_s;
  if (!isnan(u->max_slowdown) && (isnan(k->max_slowdown) || u->max_slowdown < k->max_slowdown))
    k->max_slowdown = u->max_slowdown;
  if (u->max_oom >= 0 && (k->max_oom < 0 || u->max_oom < k->max_oom)) k->max_oom = u->max_oom;
  if (u->max_victims >= 0 && (k->max_victims < 0 || u->max_victims < k->max_victims))
    k->max_victims = u->max_victims;
  for (guint i = 0; i < k->allowed->len;)
    if (!requirements_rule_allows(u, g_ptr_array_index(k->allowed, i)))
      g_ptr_array_remove_index(k->allowed, i);
    else
      i++;
}

static plan_class plan_class_new(job_kind kind) {
  plan_class k = {.kind = kind, .pool = job_kind_name(kind), .trust = REQ_TRUST_TEAM,
                  .min_slo = NAN, .max_wait_p95_s = NAN, .max_slowdown = NAN, .max_oom = -1,
                  .max_victims = -1};
  k.tenants = g_ptr_array_new_with_free_func(g_free);
  k.untrusted = g_ptr_array_new_with_free_func(g_free);
  k.allowed = g_ptr_array_new();
  for (guint s = 0; s < scenario_strategy_count(); s++)
    g_ptr_array_add(k.allowed, (char *)scenario_strategy_get(s)->name);
  return k;
}

/* One job into its class (by kind), its row into the class's trace text. */
static void plan_class_add_job(plan *p, plan_class *cls, GString **text, const job_spec *j,
                               GHashTable **rules) {
  plan_class *k = &cls[j->kind];
  if (!text[j->kind]) {
    *k = plan_class_new(j->kind);
    text[j->kind] = g_string_new(NULL);
    trace_write_header_full(text[j->kind]);
    rules[j->kind] = g_hash_table_new(NULL, NULL);
  }
  trace_write_row_full(text[j->kind], j);
  k->n_jobs++;
  const char *tenant = j->tenant ? j->tenant : "default";
  gboolean seen = FALSE;
  for (guint i = 0; i < k->tenants->len && !seen; i++)
    seen = !strcmp(g_ptr_array_index(k->tenants, i), tenant);
  if (!seen) g_ptr_array_add(k->tenants, g_strdup(tenant));
  const req_rule *u = requirements_match(p->sc->requirements, j);
  seen = u->trust != REQ_TRUST_UNTRUSTED;
  for (guint i = 0; i < k->untrusted->len && !seen; i++)
    seen = !strcmp(g_ptr_array_index(k->untrusted, i), tenant);
  if (!seen) g_ptr_array_add(k->untrusted, g_strdup(tenant));
  if (!g_hash_table_contains(rules[j->kind], u)) {
    g_hash_table_add(rules[j->kind], (gpointer)u);
    plan_class_add_rule(k, u);
  }
  if (j->mem_bytes > k->max_mem_bytes || !k->big_job) {
    g_free(k->big_job);
    k->big_job = g_strdup(j->id);
    k->big_line = j->line;
    k->max_mem_bytes = MAX(k->max_mem_bytes, j->mem_bytes);
  }
  k->max_job_gpus = MAX(k->max_job_gpus, j->gpus);
}

static gint plan_cmp_str(gconstpointer a, gconstpointer b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The contradictions a class's requirements and the purchase list may hold, at
 * file:line:column of the scenario. */
static void plan_class_check(const plan *p, const plan_class *k, diag_list *d) {
  const scenario_requirements *r = p->sc->requirements;
  int64_t most_mem = 0;
  guint32 most_gpus = 0;
  for (guint b = 0; b < r->buy->len; b++) {
    most_mem = MAX(most_mem, g_array_index(r->buy, req_buy, b).gpu->mem_bytes);
    most_gpus = MAX(most_gpus, g_array_index(r->buy, req_buy, b).max_gpus);
  }
  if (k->max_mem_bytes > most_mem)
    diag_add(d, p->scenario_path, r->buy_line, r->buy_col,
             "purchase: expected a GPU model with at least %.1f GB per GPU (job %s at %s:%u "
             "needs it), found models of at most %.1f GB", k->max_mem_bytes / 1e9, k->big_job,
             p->trace_path, k->big_line, most_mem / 1e9);
  if (k->max_job_gpus > most_gpus)
    diag_add(d, p->scenario_path, r->buy_line, r->buy_col,
             "purchase: expected max_gpus of at least %u (a %s job needs %u GPUs), found at "
             "most %u", k->max_job_gpus, k->pool, k->max_job_gpus, most_gpus);
  if (!k->allowed->len)
    diag_add(d, p->scenario_path, 1, 1,
             "requirements: the %s jobs (tenants %s...) have no sharing strategy that every "
             "rule matching them allows", k->pool, (const char *)g_ptr_array_index(k->tenants, 0));
}

gboolean plan_classes(plan *p, const trace *tr, GError **error) {
  const scenario_requirements *r = p->sc->requirements;
  if (!r || !r->buy->len) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "%s: plan needs a 'purchase:' section: the GPU models that may be bought and "
                "at most how many (docs/scenario-format.md, \"Requirements\")", p->scenario_path);
    return FALSE;
  }
  plan_class cls[JOB_KIND_COUNT] = {0};
  GString *text[JOB_KIND_COUNT] = {0};
  GHashTable *rules[JOB_KIND_COUNT] = {0};
  for (guint i = 0; i < trace_n_jobs(tr); i++) {
    job_spec j = trace_job(tr, i);
    plan_class_add_job(p, cls, text, &j, rules);
  }
  g_autoptr(diag_list) d = diag_list_new(0);
  gboolean ok = TRUE;
  for (int kind = 0; kind < JOB_KIND_COUNT; kind++) {
    if (!text[kind]) continue;
    g_hash_table_destroy(rules[kind]);
    g_ptr_array_sort(cls[kind].tenants, plan_cmp_str);
    g_ptr_array_sort(cls[kind].untrusted, plan_cmp_str);
    plan_class_check(p, &cls[kind], d);
    g_autofree char *name = g_strdup_printf("class-%s.csv", cls[kind].pool);
    cls[kind].trace_path = g_build_filename(p->work, name, NULL);
    GError *err = NULL;
    if (ok && !g_file_set_contents(cls[kind].trace_path, text[kind]->str, (gssize)text[kind]->len, &err)) {
      g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "%s", err->message);
      g_error_free(err);
      ok = FALSE;
    }
    g_string_free(text[kind], TRUE);
    g_array_append_val(p->classes, cls[kind]);
  }
  if (ok && diag_has_errors(d)) {
    diag_to_error(d, error);
    ok = FALSE;
  }
  for (guint c = 0; ok && c < p->classes->len; c++) {
    plan_class *k = &g_array_index(p->classes, plan_class, c);
    g_autoptr(diag_list) dl = diag_list_new(0);
    k->tr = trace_load(k->trace_path, dl);
    if (!k->tr) {
      diag_to_error(dl, error);
      ok = FALSE;
    }
  }
  return ok;
}

/* ---- candidates ---- */

static gboolean plan_allowed(const plan_class *k, const char *mech) {
  for (guint i = 0; i < k->allowed->len; i++)
    if (!strcmp(g_ptr_array_index(k->allowed, i), mech)) return TRUE;
  return FALSE;
}

/* $ per GPU-hour of purchase entry b: its own price, else the scenario's, else the
 * catalogue's. */
static double plan_price(const plan *p, const req_buy *b) {
  if (isfinite(b->price)) return b->price;
  const double *pm = g_hash_table_lookup(p->sc->prices, b->gpu->name);
  return pm ? *pm : b->gpu->price_per_gpu_hour;
}

/* Adds a candidate of class ci on purchase entry bi, pruned when a job cannot fit it. */
static void plan_add(plan *p, guint ci, guint bi, const char *mech, char *settings, char *keys,
                     int64_t device_mem) {
  const plan_class *k = &g_array_index(p->classes, plan_class, ci);
  const req_buy *b = &g_array_index(p->sc->requirements->buy, req_buy, bi);
  if (!plan_allowed(k, mech)) {
    g_free(settings);
    g_free(keys);
    return;
  }
  plan_candidate c = {.cls = ci, .buy = bi, .mechanism = mech, .settings = settings,
                      .keys = keys, .device_mem = device_mem, .price = plan_price(p, b),
                      .gpus_per_node = b->gpus_per_node, .min_nodes = 1};
  c.max_nodes = MAX(1u, b->max_gpus / b->gpus_per_node);
  c.cap_nodes = c.max_nodes;
  c.known = g_array_new(FALSE, FALSE, sizeof(sizing_probe));
  c.measures = g_ptr_array_new_with_free_func(plan_measure_free);
  c.whys = g_ptr_array_new_with_free_func(g_free);
  if (p->opt.exhaustive) {
    /* every candidate is simulated at every size, the fit pruning included */
  } else if (k->max_mem_bytes > device_mem) {
    c.status = PLAN_NEVER_FITS;
    c.verdict = g_strdup_printf("job %s needs %.1f GB, more than the %.1f GB of its devices "
                                "(pruned before simulating)", k->big_job,
                                k->max_mem_bytes / 1e9, device_mem / 1e9);
  } else if (k->max_job_gpus > c.max_nodes * c.gpus_per_node) {
    c.status = PLAN_NEVER_FITS;
    c.verdict = g_strdup_printf("a job needs %u GPUs, more than the %u that may be bought "
                                "(pruned before simulating)", k->max_job_gpus,
                                c.max_nodes * c.gpus_per_node);
  }
  g_array_append_val(p->cands, c);
}

/* The MIG layouts tried on m: the catalogue's maximal layouts that are uniform (one
 * profile), and for each size of largest instance the maximal layout with the most
 * instances (the first in the catalogue's order on a tie). */
static void plan_add_mig(plan *p, guint ci, guint bi, const gpu_model *m) {
  g_autoptr(GArray) all = catalog_maximal_layouts(m);
  for (guint i = 0; all && i < all->len; i++) {
    const mig_layout *l = &g_array_index(all, mig_layout, i);
    gboolean uniform = TRUE, most = TRUE;
    for (guint k = 1; k < l->n; k++) uniform &= l->inst[k].profile == l->inst[0].profile;
    int64_t big = catalog_layout_largest_mem(m, l);
    for (guint j = 0; j < all->len && !uniform; j++) {
      const mig_layout *o = &g_array_index(all, mig_layout, j);
      if (catalog_layout_largest_mem(m, o) != big) continue;
      if (o->n > l->n || (o->n == l->n && j < i)) most = FALSE;
    }
    if (!uniform && !most) continue;
    char *text = catalog_layout_to_string(m, l);
    plan_add(p, ci, bi, "mig", g_strdup_printf("layout %s", text),
             g_strdup_printf("    layout: \"%s\"\n", text), big);
    g_free(text);
  }
}

void plan_candidates(plan *p) {
  const scenario_requirements *r = p->sc->requirements;
  static const guint replicas[] = {2, 4};
  for (guint ci = 0; ci < p->classes->len; ci++)
    for (guint bi = 0; bi < r->buy->len; bi++) {
      const gpu_model *m = g_array_index(r->buy, req_buy, bi).gpu;
      plan_add(p, ci, bi, "exclusive", g_strdup(""), g_strdup(""), m->mem_bytes);
      for (guint i = 0; i < G_N_ELEMENTS(replicas); i++)
        plan_add(p, ci, bi, "time-slicing",
                 g_strdup_printf("replicas %u with oom sidecar", replicas[i]),
                 g_strdup_printf("    replicas: %u\n    oom: sidecar\n", replicas[i]),
                 m->mem_bytes);
      for (guint i = 0; i < G_N_ELEMENTS(replicas); i++)
        if (replicas[i] <= catalog_mps_client_limit(m))
          plan_add(p, ci, bi, "mps", g_strdup_printf("replicas %u", replicas[i]),
                   g_strdup_printf("    replicas: %u\n", replicas[i]), m->mem_bytes);
      if (m->mig_slots) plan_add_mig(p, ci, bi, m);
      for (guint v = 0; v < m->n_vgpu_profiles; v++) {
        const vgpu_profile *vp = &m->vgpu_profiles[v];
        if (vp->max_per_gpu < 2 || vp->desktop) continue; /* desktop: Q/B-series */
        plan_add(p, ci, bi, "vgpu", g_strdup_printf("profile %s", vp->name),
                 g_strdup_printf("    profile: %s\n", vp->name), vp->framebuffer_bytes);
      }
      plan_add(p, ci, bi, "fractional", g_strdup(""), g_strdup(""), m->mem_bytes);
    }
}

/* ---- the scenario of a set-up ---- */

/* One pool of a set-up; nvidia: its sharing from the files plan_nvidia_write writes. */
static void plan_pool_text(const plan *p, guint ci, const plan_candidate *c, guint32 nodes,
                           gboolean nvidia, GString *s) {
  const req_buy *b = &g_array_index(p->sc->requirements->buy, req_buy, c->buy);
  const char *pool = g_array_index(p->classes, plan_class, ci).pool;
  gboolean ts = !strcmp(c->mechanism, "time-slicing"), mps = !strcmp(c->mechanism, "mps");
  gboolean mig = !strcmp(c->mechanism, "mig");
  g_string_append_printf(s, "  - name: %s\n    gpu: %s\n    nodes: %u\n    gpus_per_node: %u\n",
                         pool, b->gpu->name, nodes, c->gpus_per_node);
  if (nvidia && (ts || mps))
    g_string_append_printf(s, "    sharing_config: %s#%s\n", PLAN_NV_PLUGIN, pool);
  else if (nvidia && mig)
    g_string_append_printf(s, "    mig_config: %s\n    mig_config_name: plan-%s\n", PLAN_NV_MIG, pool);
  else
    g_string_append_printf(s, "    strategy: %s\n", c->mechanism);
  if (isfinite(b->price)) g_string_append_printf(s, "    price: %.17g\n", b->price);
  if (!nvidia || !(ts || mps || mig)) g_string_append(s, c->keys);
  else if (ts) g_string_append(s, "    oom: sidecar\n"); /* not an NVIDIA setting */
}

char *plan_scenario_text(const plan *p, const guint *pick, const guint32 *nodes,
                         const char *name, guint64 seed, gboolean nvidia) {
  GString *s = g_string_new(NULL);
  g_string_append_printf(s, "# written by sharesim plan from %s\nname: %s\nseed: %" G_GUINT64_FORMAT
                            "\n", p->scenario_path, name, seed);
  g_string_append(s, p->base_yaml ? p->base_yaml : "");
  g_string_append(s, "pools:\n");
  for (guint ci = 0; ci < p->classes->len; ci++)
    if (pick[ci] != G_MAXUINT)
      plan_pool_text(p, ci, &g_array_index(p->cands, plan_candidate, pick[ci]), nodes[ci],
                     nvidia, s);
  g_string_append(s, "routing:\n");
  for (guint ci = 0; ci < p->classes->len; ci++)
    if (pick[ci] != G_MAXUINT) {
      const char *pool = g_array_index(p->classes, plan_class, ci).pool;
      g_string_append_printf(s, "  - {kind: %s, pool: %s}\n", pool, pool);
    }
  return g_string_free(s, FALSE);
}

/* ---- judging ---- */

typedef struct plan_slow {
  int col;
  GArray *v;
} plan_slow;

static gboolean plan_slow_row(const csvread_row *row, void *ud) {
  plan_slow *s = ud;
  if (row->error) return TRUE;
  if (row->header) {
    for (guint i = 0; i < row->n; i++)
      if (!strcmp(row->cells[i], "slowdown")) s->col = (int)i;
    return s->col >= 0;
  }
  double x;
  if (s->col >= 0 && (guint)s->col < row->n && util_parse_double(row->cells[s->col], &x))
    g_array_append_val(s->v, x);
  return TRUE;
}

static gint plan_cmp_double(gconstpointer a, gconstpointer b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The 95th percentile (nearest rank) of the slowdown column of dir/jobs.csv; NAN without. */
static double plan_slowdown_p95(const char *dir) {
  g_autofree char *path = g_build_filename(dir, "jobs.csv", NULL);
  plan_slow s = {-1, g_array_new(FALSE, FALSE, sizeof(double))};
  g_autoptr(diag_list) d = diag_list_new(0);
  csvread_foreach(path, 0, plan_slow_row, &s, d);
  double r = NAN;
  if (s.v->len) {
    g_array_sort(s.v, plan_cmp_double);
    guint idx = (guint)ceil(0.95 * s.v->len);
    r = g_array_index(s.v, double, MAX(idx, 1u) - 1);
  }
  g_array_free(s.v, TRUE);
  return r;
}

static double plan_pool_value(const run_figures *f, const char *pool, const char *member) {
  g_autofree char *key = g_strdup_printf("pool:%s:%s", pool, member);
  return figures_value(f, key);
}

/* The first pair of f whose source is one of k's untrusted tenants and whose victim is
 * another tenant: its source, NULL when none. */
static const char *plan_blast_src(const run_figures *f, const plan_class *k) {
  for (guint i = 0; i < f->blast->len; i++) {
    const figure_blast *b = &g_array_index(f->blast, figure_blast, i);
    if (strcmp(b->from, b->to)) /* a pair is written only with a victim */
      for (guint t = 0; t < k->untrusted->len; t++)
        if (!strcmp(g_ptr_array_index(k->untrusted, t), b->from)) return b->from;
  }
  return NULL;
}

void plan_measure_of(const run_figures *f, const plan_class *k, plan_measure *m) {
  const char *worst = NULL, *pool = k->pool;
  *m = (plan_measure){
      .unplaceable = plan_pool_value(f, pool, "unplaceable"),
      .queued = plan_pool_value(f, pool, "queued"),
      .wait_p95_s = plan_pool_value(f, pool, "wait_p95_s"),
      .oom_kills = plan_pool_value(f, pool, "oom_kills"),
      .victims = figures_value(f, "innocent_victims"),
      .slo_min = figures_min_attainment(f, pool, &worst),
      .slowdown_mean = figures_value(f, "slowdown_mean"),
      .slowdown_p95 = plan_slowdown_p95(f->dir),
      .allocated_frac = plan_pool_value(f, pool, "allocated_frac"),
      .busy_frac = plan_pool_value(f, pool, "busy_frac"),
      .blast = f->blast_known ? figures_blast_across(f, NULL, 0) : NAN,
      .blast_untrusted = f->blast_known
                             ? figures_blast_across(f, (const char *const *)k->untrusted->pdata,
                                                    k->untrusted->len)
                             : NAN,
      .stopped_at_s = figures_value(f, "stopped_early:at_s"),
      .stopped_late = figures_value(f, "stopped_early:late_jobs")};
  if (!(m->stopped_late > 0)) m->stopped_late = 0;
  m->slo_worst = worst ? g_strdup(worst) : NULL;
  const char *src = plan_blast_src(f, k);
  m->blast_src = src ? g_strdup(src) : NULL;
}

gboolean plan_served(const plan_measure *m) {
  return !(m->unplaceable > 0) && !(m->queued > 0) && !(m->stopped_late > 0);
}

guint64 plan_give_up_late(guint64 n) {
  /* the 95 % quantile interpolates between order statistics lo and lo + 1, lo =
   * floor(0.95 (n - 1)): it exceeds the limit once order statistic lo does, that is once
   * n - lo waits do */
  return n ? n - (guint64)floor(0.95 * (double)(n - 1)) : 0;
}

/* The value a constraint is judged on over n seeds: the upper (upper TRUE) or lower end of
 * the 95 % interval of the mean, the value itself with one seed. */
static double plan_bound(plan_measure *const *seeds, guint n, gsize off, gboolean upper) {
  double *v = g_new(double, n);
  for (guint i = 0; i < n; i++) v[i] = *(const double *)((const char *)seeds[i] + off);
  seeds_stat s;
  seeds_stat_of(v, n, &s);
  g_free(v);
  if (s.n < 2 || !isfinite(s.half)) return s.mean;
  return upper ? s.hi : s.lo;
}

static void plan_why(GString *why, const char *what, figure_unit u, double v, const char *op,
                     double limit) {
  if (why->len) g_string_append(why, "; ");
  g_string_append_printf(why, "%s ", what);
  figures_format(why, u, v);
  g_string_append_printf(why, " %s ", op);
  figures_format(why, u, limit);
}

/* The constraint a probe that gave up early broke, into why. */
static void plan_why_stopped(GString *why, double limit, double late, double at_s) {
  g_string_append_printf(why, "%squeue wait p95 > ", why->len ? "; " : "");
  figures_format(why, FIGURE_SECONDS, limit);
  g_string_append_printf(why, ": %.0f job(s) had waited longer for their start by ", late);
  figures_format(why, FIGURE_SECONDS, at_s);
  g_string_append(why, ", where the probe stopped");
}

gboolean plan_judge(const plan_class *k, plan_measure *const *seeds, guint n,
                    plan_measure *out, GString *why) {
  double never = 0, queued = 0, untrusted = 0, late = 0, stop_at = NAN;
  const char *src = NULL;
  for (guint i = 0; i < n; i++) {
    if (seeds[i]->stopped_late > late) {
      late = seeds[i]->stopped_late;
      stop_at = seeds[i]->stopped_at_s;
    }
    if (isfinite(seeds[i]->unplaceable)) never = MAX(never, seeds[i]->unplaceable);
    if (isfinite(seeds[i]->queued)) queued = MAX(queued, seeds[i]->queued);
    if (isfinite(seeds[i]->blast_untrusted) && seeds[i]->blast_untrusted > untrusted) {
      untrusted = seeds[i]->blast_untrusted;
      src = seeds[i]->blast_src;
    }
  }
#define PLAN_B(field, upper) plan_bound(seeds, n, G_STRUCT_OFFSET(plan_measure, field), upper)
  *out = (plan_measure){.unplaceable = never, .queued = queued,
                        .wait_p95_s = PLAN_B(wait_p95_s, TRUE), .oom_kills = PLAN_B(oom_kills, TRUE),
                        .victims = PLAN_B(victims, TRUE), .slo_min = PLAN_B(slo_min, FALSE),
                        .slowdown_mean = PLAN_B(slowdown_mean, TRUE),
                        .slowdown_p95 = PLAN_B(slowdown_p95, TRUE),
                        .allocated_frac = PLAN_B(allocated_frac, TRUE),
                        .busy_frac = PLAN_B(busy_frac, TRUE), .blast = PLAN_B(blast, TRUE),
                        .blast_untrusted = untrusted, .stopped_at_s = stop_at,
                        .stopped_late = late};
#undef PLAN_B
  out->slo_worst = g_strdup(seeds[0]->slo_worst);
  out->blast_src = g_strdup(src);
  gsize before = why->len;
  if (never > 0) g_string_append_printf(why, "%s%.0f job(s) never fit", why->len ? "; " : "", never);
  if (late > 0) /* gave up: these many late starts alone put the p95 over the limit */
    plan_why_stopped(why, k->max_wait_p95_s, late, stop_at);
  else if (queued > 0)
    g_string_append_printf(why, "%s%.0f job(s) still queued at the end", why->len ? "; " : "", queued);
  if (untrusted > 0) /* a hard rule: in any seed, never traded against cost */
    g_string_append_printf(why, "%suntrusted tenant %s's faults reached other tenants (%.0f "
                           "job(s) killed or evicted)", why->len ? "; " : "", src ? src : "?",
                           untrusted);
  if (!(late > 0) && !isnan(k->max_wait_p95_s) && isfinite(out->wait_p95_s) &&
      out->wait_p95_s > k->max_wait_p95_s)
    plan_why(why, "queue wait p95", FIGURE_SECONDS, out->wait_p95_s, ">", k->max_wait_p95_s);
  if (k->max_oom >= 0 && isfinite(out->oom_kills) && out->oom_kills > (double)k->max_oom)
    plan_why(why, "OOM kills", FIGURE_NUMBER, out->oom_kills, ">", (double)k->max_oom);
  if (k->max_victims >= 0 && isfinite(out->victims) && out->victims > (double)k->max_victims)
    plan_why(why, "innocent victims", FIGURE_NUMBER, out->victims, ">", (double)k->max_victims);
  if (!isnan(k->min_slo) && isfinite(out->slo_min) && out->slo_min < k->min_slo) {
    g_autofree char *what = g_strdup_printf("service %s: SLO attainment",
                                            out->slo_worst ? out->slo_worst : "?");
    plan_why(why, what, FIGURE_FRACTION, out->slo_min, "<", k->min_slo);
  }
  if (!isnan(k->max_slowdown) && isfinite(out->slowdown_p95) && out->slowdown_p95 > k->max_slowdown)
    plan_why(why, "slowdown p95", FIGURE_RATIO, out->slowdown_p95, ">", k->max_slowdown);
  if (why->len > before && n > 1)
    g_string_append_printf(why, " (95 %% bound over %u seeds)", n);
  return why->len == before;
}

void plan_describe_constraints(const plan_class *k, GString *out) {
  g_string_append(out, "every job fits and none is left queued");
  if (k->untrusted->len)
    g_string_append(out, "; no fault of an untrusted tenant reaches another tenant");
  if (!isnan(k->max_wait_p95_s)) {
    g_string_append(out, "; queue wait p95 <= ");
    figures_format(out, FIGURE_SECONDS, k->max_wait_p95_s);
  }
  if (k->max_oom >= 0) g_string_append_printf(out, "; OOM kills <= %" G_GINT64_FORMAT, k->max_oom);
  if (k->max_victims >= 0)
    g_string_append_printf(out, "; innocent victims <= %" G_GINT64_FORMAT, k->max_victims);
  if (!isnan(k->min_slo)) {
    g_string_append(out, "; SLO attainment >= ");
    figures_format(out, FIGURE_FRACTION, k->min_slo);
  }
  if (!isnan(k->max_slowdown)) {
    g_string_append(out, "; slowdown p95 <= ");
    figures_format(out, FIGURE_RATIO, k->max_slowdown);
  }
}

void plan_free_contents(plan *p) {
  for (guint i = 0; p->classes && i < p->classes->len; i++) {
    plan_class *k = &g_array_index(p->classes, plan_class, i);
    g_ptr_array_free(k->tenants, TRUE);
    g_ptr_array_free(k->untrusted, TRUE);
    g_ptr_array_free(k->allowed, TRUE);
    g_free(k->big_job);
    g_free(k->trace_path);
    if (k->tr) trace_free(k->tr);
  }
  for (guint i = 0; p->cands && i < p->cands->len; i++) {
    plan_candidate *c = &g_array_index(p->cands, plan_candidate, i);
    g_free(c->settings);
    g_free(c->keys);
    g_free(c->verdict);
    g_array_free(c->known, TRUE);
    g_ptr_array_free(c->measures, TRUE);
    g_ptr_array_free(c->whys, TRUE);
  }
  if (p->classes) g_array_free(p->classes, TRUE);
  if (p->cands) g_array_free(p->cands, TRUE);
  if (p->cache) g_hash_table_destroy(p->cache);
  if (p->resumed) g_hash_table_destroy(p->resumed);
  if (p->best) g_array_free(p->best, TRUE);
  g_free(p->base_yaml);
}

/* ---- the scenario's other keys ---- */

gboolean plan_base(plan *p, GError **error) {
  static const char *const skip[] = {"name", "seed", "pools", "routing", "requirements",
                                     "purchase", "interference", NULL};
  g_autofree char *data = NULL;
  gsize len = 0;
  if (!safeopen_contents(p->scenario_path, SCENARIO_YAML_MAX_FILE_BYTES, &data, &len, error))
    return FALSE;
  g_autoptr(diag_list) d = diag_list_new(0);
  scenario_yaml *root = scenario_yaml_load(p->scenario_path, d);
  if (!root) return diag_to_error(d, error), FALSE;
  g_auto(GStrv) lines = g_strsplit(data, "\n", -1);
  guint n_lines = g_strv_length(lines);
  GString *out = g_string_new(NULL);
  gboolean block = root->type == SCENARIO_YAML_MAP;
  for (guint i = 0; block && i + 1 < root->items->len; i += 2)
    block &= ((const scenario_yaml *)g_ptr_array_index(root->items, i))->col == 1;
  for (guint i = 0; block && i + 1 < root->items->len; i += 2) {
    const scenario_yaml *k = g_ptr_array_index(root->items, i);
    guint end = i + 3 < root->items->len
                    ? ((const scenario_yaml *)g_ptr_array_index(root->items, i + 2))->line
                    : n_lines + 1;
    if (g_strv_contains(skip, k->text)) continue;
    for (guint l = k->line; l < end && l <= n_lines; l++) {
      char *t = lines[l - 1];
      gsize tl = strlen(t);
      if (tl && t[tl - 1] == '\r') t[tl - 1] = 0;
      if (t[0] == '#' || !t[0]) continue;
      g_string_append_printf(out, "%s\n", t);
    }
  }
  scenario_yaml_free(root);
  p->base_yaml = g_string_free(out, FALSE);
  return TRUE;
}
