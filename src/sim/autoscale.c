/* autoscale.c: autoscaled and spot pools. Owns the `autoscale:` and `spot:` pool sections
 * (their keys, validation and line of `check`), and at run time the nodes' lives as the
 * cluster autoscaler and a spot market give them: asked for when pending jobs would fit a
 * new node, booting, ready, removed when empty for the unneeded time, interrupted with a
 * notice. It keeps the node-seconds provisioned; the slots and the billing of GPUs are
 * cluster.c's (cluster_node_set), the evictions and the jobs' books sim.c's (host.h). */
#include "autoscale.h"
#include "rng.h"
#include <math.h>
#include <stddef.h>

/* ---- the keys (docs/scenario-format.md "Autoscaling and spot"; docs/models.md) ---- */

static const scenario_key key_min = {
    "min_nodes", "0", "the fewest nodes the autoscaler keeps", "0|1"};
static const scenario_key key_initial = {
    "initial_nodes", "min_nodes", "the nodes ready at the start (the pool's nodes: the most)",
    "0|1|2"};
static const scenario_key key_delay = {
    "provision_delay", "5m", "from the autoscaler's ask to the node ready (billed)",
    "0s|30s|2m|5m"};
static const scenario_key key_unneeded = {
    "scale_down_unneeded_time", "10m", "an empty node is removed after this", "0s|1m|10m"};
static const scenario_key key_after_add = {
    "scale_down_delay_after_add", "10m", "no removal this soon after a scale-up", "0s|10m"};
static const scenario_key key_scan = {
    "scan_interval", "10s", "the autoscaler's loop: its decisions at multiples of it",
    "0s|10s"};
static const scenario_key *const autoscale_keys[] = {
    &key_min, &key_initial, &key_delay, &key_unneeded, &key_after_add, &key_scan, NULL};

static const scenario_key key_rate = {
    "interruption_rate_per_hour", "0.000137", "interruptions per node-hour (Poisson)",
    "0|0.05|0.5|2"};
static const scenario_key key_notice = {
    "notice", "2m", "the interruption notice: residents evicted at its end", "0s|30s|2m"};
static const scenario_key key_factor = {
    "price_factor", "0.4", "the spot price as a fraction of the pool's price", "0.3|0.4|1"};
static const scenario_key *const spot_keys[] = {&key_rate, &key_notice, &key_factor, NULL};

/* Defaults: see the keys' rows in docs/models.md's constant table. */
#define AUTOSCALE_PROVISION_NS (300 * SIM_NS_PER_S) /* assumption: 2-15 min [S320][S321] */
#define AUTOSCALE_UNNEEDED_NS (600 * SIM_NS_PER_S)  /* cluster autoscaler's default [S320] */
#define AUTOSCALE_AFTER_ADD_NS (600 * SIM_NS_PER_S) /* cluster autoscaler's default [S320] */
#define AUTOSCALE_SCAN_NS (10 * SIM_NS_PER_S)       /* cluster autoscaler's default [S320] */
#define AUTOSCALE_SPOT_RATE (0.10 / 730.0) /* assumption: 10 % a month, [S323]'s 5-10 % band */
#define AUTOSCALE_SPOT_NOTICE_NS (120 * SIM_NS_PER_S) /* AWS's two minutes [S322] */
#define AUTOSCALE_SPOT_PRICE_FACTOR 0.4 /* assumption: GCP's 60-91 % off [S324] */
#define AUTOSCALE_MAX_WAIT_NS (30 * 86400 * SIM_NS_PER_S)

/* A whole number of nodes from 0 to the pool's nodes, when key is present. */
static gboolean nodes_key(pool_check *c, const scenario_key *k, const pool_spec *p,
                          guint32 *out) {
  const scenario_yaml *n = pool_check_key(c, k->name);
  int64_t v;
  if (!n) return TRUE;
  if (!pool_check_int(c, k->name, 0, SCENARIO_MAX_NODES, &v)) return FALSE;
  if (p->nodes && v > p->nodes) {
    pool_check_report(c, n, "%s: %" G_GINT64_FORMAT " is more than the pool's nodes, %u, the "
                      "most it may have (expected at most %u)", pool_check_what(c, k->name), v,
                      p->nodes, p->nodes);
    return FALSE;
  }
  *out = (guint32)v;
  return TRUE;
}

static gpointer autoscale_validate(pool_check *c, pool_spec *p) {
  autoscale_conf *a = g_new0(autoscale_conf, 1);
  a->provision_ns = AUTOSCALE_PROVISION_NS;
  a->unneeded_ns = AUTOSCALE_UNNEEDED_NS;
  a->delay_after_add_ns = AUTOSCALE_AFTER_ADD_NS;
  a->scan_ns = AUTOSCALE_SCAN_NS;
  gboolean ok = nodes_key(c, &key_min, p, &a->min_nodes);
  a->initial_nodes = a->min_nodes;
  if (ok && nodes_key(c, &key_initial, p, &a->initial_nodes) && a->initial_nodes < a->min_nodes) {
    pool_check_report(c, pool_check_key(c, key_initial.name), "%s: %u is fewer than %s, %u "
                      "(expected at least %u)", pool_check_what(c, key_initial.name),
                      a->initial_nodes, key_min.name, a->min_nodes, a->min_nodes);
    ok = FALSE;
  } else if (ok && pool_check_key(c, key_initial.name) && !p->nodes) {
    ok = FALSE;
  }
  ok &= pool_check_duration(c, key_delay.name, 0, AUTOSCALE_MAX_WAIT_NS, &a->provision_ns) ||
        !pool_check_key(c, key_delay.name);
  ok &= pool_check_duration(c, key_unneeded.name, 0, AUTOSCALE_MAX_WAIT_NS, &a->unneeded_ns) ||
        !pool_check_key(c, key_unneeded.name);
  ok &= pool_check_duration(c, key_after_add.name, 0, AUTOSCALE_MAX_WAIT_NS,
                            &a->delay_after_add_ns) || !pool_check_key(c, key_after_add.name);
  ok &= pool_check_duration(c, key_scan.name, 0, 3600 * SIM_NS_PER_S, &a->scan_ns) ||
        !pool_check_key(c, key_scan.name);
  if (ok && p->node_groups) {
    pool_check_report(c, pool_check_map(c), "%s: a pool of node_groups (a fixed list of "
                      "nodes) cannot autoscale: expected nodes and gpus_per_node",
                      pool_check_prefix(c));
    ok = FALSE;
  }
  if (!ok || !p->nodes) {
    g_free(a);
    return NULL;
  }
  a->max_nodes = p->nodes;
  return a;
}

static void autoscale_describe(GString *s, const pool_spec *p, gconstpointer conf) {
  const autoscale_conf *a = conf;
  (void)p;
  g_string_append_printf(s, ", autoscaled %u..%u nodes from %u (ready %.0f s after the ask, "
                         "removed when empty %.0f s)", a->min_nodes, a->max_nodes,
                         a->initial_nodes, util_ns_to_seconds(a->provision_ns),
                         util_ns_to_seconds(a->unneeded_ns));
}

const scenario_pool_section autoscale_section = {
    "autoscale", autoscale_keys, "{min_nodes: 0, initial_nodes: 1, provision_delay: 5m}",
    autoscale_validate, autoscale_describe};

static gpointer spot_validate(pool_check *c, pool_spec *p) {
  autoscale_spot_conf *sp = g_new0(autoscale_spot_conf, 1);
  sp->rate_per_hour = AUTOSCALE_SPOT_RATE;
  sp->notice_ns = AUTOSCALE_SPOT_NOTICE_NS;
  sp->price_factor = AUTOSCALE_SPOT_PRICE_FACTOR;
  gboolean ok = TRUE;
  ok &= pool_check_number(c, key_rate.name, "a number of interruptions per node-hour from 0 "
                          "to 1000", 0, FALSE, 1000, FALSE, &sp->rate_per_hour) ||
        !pool_check_key(c, key_rate.name);
  ok &= pool_check_duration(c, key_notice.name, 0, 3600 * SIM_NS_PER_S, &sp->notice_ns) ||
        !pool_check_key(c, key_notice.name);
  ok &= pool_check_number(c, key_factor.name, "a fraction of the price greater than 0 and at "
                          "most 1", 0, TRUE, 1, FALSE, &sp->price_factor) ||
        !pool_check_key(c, key_factor.name);
  if (ok && !pool_section_conf(p, &autoscale_section)) {
    pool_check_report(c, pool_check_map(c), "%s: a spot pool needs an autoscale section "
                      "(its interrupted nodes are replaced by the autoscaler), e.g. "
                      "autoscale: %s", pool_check_prefix(c), autoscale_section.example);
    ok = FALSE;
  }
  if (!ok) {
    g_free(sp);
    return NULL;
  }
  return sp;
}

static void spot_describe(GString *s, const pool_spec *p, gconstpointer conf) {
  const autoscale_spot_conf *sp = conf;
  (void)p;
  g_string_append_printf(s, ", spot (%g interruptions per node-hour, %.0f s notice, price x %g)",
                         sp->rate_per_hour, util_ns_to_seconds(sp->notice_ns), sp->price_factor);
}

const scenario_pool_section autoscale_spot_section = {
    "spot", spot_keys, "{interruption_rate_per_hour: 0.01, notice: 2m, price_factor: 0.4}",
    spot_validate, spot_describe};

const autoscale_conf *autoscale_conf_of(const pool_spec *p) {
  return pool_section_conf(p, &autoscale_section);
}

const autoscale_spot_conf *autoscale_spot_of(const pool_spec *p) {
  return pool_section_conf(p, &autoscale_spot_section);
}

/* ---- the run ---- */

enum { NODE_ABSENT = 0, NODE_BOOTING, NODE_READY, NODE_NOTICE };

struct autoscale_pool {
  const autoscale_conf *conf;
  const autoscale_spot_conf *spot;
  guint8 *phase;             /* NODE_* per node */
  guint32 *gen;              /* per node: its lives, the events of an earlier one ignored */
  sim_time *idle_due;        /* per node: when it is removed if still empty (-1: none) */
  event_id *ev_phase, *ev_idle, *ev_spot; /* per node: ready or notice end, removal, spot */
  event_id ev_scan;
  gboolean quiet;            /* every job done: nothing more happens */
  guint32 n_prov, peak, scale_ups, scale_downs, interruptions;
  sim_time last_up;          /* the last scale-up (-1: none) */
  sim_time t_last;           /* node_ns integrated up to here */
  double node_ns;            /* provisioned nodes x time */
  double spot_lost_gpu_ns;   /* work the interruptions lost x workers */
  gsl_rng *rng;              /* the interruptions' own stream */
};

static sim_time now_of(sim *s) { return *sim_host_of(s)->now; }

static uint64_t node_key(const autoscale_pool *a, guint32 n) {
  return ((uint64_t)a->gen[n] << 32) | n;
}

/* The node an event's key names, or -1 when that life of it is over. */
static int64_t node_of_key(const autoscale_pool *a, uint64_t key) {
  guint32 n = (guint32)(key & 0xffffffffu);
  return a->gen[n] == (guint32)(key >> 32) ? (int64_t)n : -1;
}

/* The autoscaler's first loop at or after t. */
static sim_time tick_ceil(const autoscale_conf *c, sim_time t) {
  if (c->scan_ns <= 0 || t <= 0) return t;
  sim_time k = (t + c->scan_ns - 1) / c->scan_ns;
  return k > INT64_MAX / c->scan_ns ? SIM_TIME_NEVER : k * c->scan_ns;
}

static void node_ns_to(autoscale_pool *a, sim_time now) {
  if (now > a->t_last) a->node_ns += (double)a->n_prov * (double)(now - a->t_last);
  a->t_last = MAX(a->t_last, now);
}

static void node_event(sim *s, pool_state *p, event_kind kind, guint32 n, const char *detail) {
  event_row e = {.t_s = util_ns_to_seconds(now_of(s)), .kind = kind, .pool = p->spec->name,
                 .node = (int)n, .gpu = -1, .detail = detail};
  metrics_event(sim_host_of(s)->m, &e);
}

static gboolean node_empty(const pool_state *p, guint32 n) {
  for (guint32 l = 0; l < p->node_gpus[n]; l++)
    if (p->gpus[p->node_first[n] + l].n_residents) return FALSE;
  return TRUE;
}

static void on_idle(void *ctx, void *obj, uint64_t key);
static void on_ready(void *ctx, void *obj, uint64_t key);
static void on_interrupt(void *ctx, void *obj, uint64_t key);

static void cancel(sim *s, event_id *id) {
  if (*id) sim_host_of(s)->calls->cancel(s, *id);
  *id = 0;
}

/* Node n (ready) became empty at now: it is removed at the autoscaler's loop once it has
 * been seen empty for the unneeded time, and not before delay_after_add after a scale-up. */
static void idle_start(sim *s, pool_state *p, guint32 n) {
  autoscale_pool *a = p->autoscale;
  const autoscale_conf *c = a->conf;
  cancel(s, &a->ev_idle[n]);
  sim_time seen = tick_ceil(c, now_of(s));
  sim_time due = seen > SIM_TIME_NEVER - c->unneeded_ns ? SIM_TIME_NEVER : seen + c->unneeded_ns;
  if (a->last_up >= 0) due = MAX(due, a->last_up + c->delay_after_add_ns);
  due = tick_ceil(c, due);
  a->idle_due[n] = due;
  if (due < SIM_TIME_NEVER)
    a->ev_idle[n] = sim_host_of(s)->calls->at(s, due, on_idle, p, node_key(a, n));
}

/* The next interruption of spot node n, from now (its stream: a draw per node life). */
static void spot_schedule(sim *s, pool_state *p, guint32 n) {
  autoscale_pool *a = p->autoscale;
  if (!a->spot || a->spot->rate_per_hour <= 0) return;
  double ns = rng_exponential(a->rng, 1.0 / a->spot->rate_per_hour) * 3600e9;
  if (!(ns < 9e18) || (double)now_of(s) + ns >= 9e18) return;
  a->ev_spot[n] = sim_host_of(s)->calls->at(s, now_of(s) + (sim_time)ns, on_interrupt, p,
                                            node_key(a, n));
}

/* Node n changes phase; its slots and billing follow (cluster_node_set). */
static void node_phase(sim *s, pool_state *p, guint32 n, guint8 phase) {
  autoscale_pool *a = p->autoscale;
  gboolean was = a->phase[n] != NODE_ABSENT, is = phase != NODE_ABSENT;
  node_ns_to(a, now_of(s));
  a->n_prov = a->n_prov - was + is;
  a->peak = MAX(a->peak, a->n_prov);
  a->phase[n] = phase;
  cluster_node_set(p, n, phase == NODE_READY, is, now_of(s));
}

/* Asks for node n (absent): it boots, billed, and is ready provision_delay later. */
static void provision(sim *s, pool_state *p, guint32 n, const char *why) {
  autoscale_pool *a = p->autoscale;
  a->gen[n]++;
  node_phase(s, p, n, NODE_BOOTING);
  a->scale_ups++;
  a->last_up = now_of(s);
  node_event(s, p, EVENT_NODE_PROVISION, n, why);
  a->ev_phase[n] = sim_host_of(s)->calls->at(s, now_of(s) + a->conf->provision_ns, on_ready, p,
                                             node_key(a, n));
  spot_schedule(s, p, n);
  /* empty ready nodes parked at the minimum may go now that there are more */
  for (guint32 m = 0; m < p->n_nodes; m++)
    if (a->phase[m] == NODE_READY && !a->ev_idle[m] && node_empty(p, m)) idle_start(s, p, m);
}

static int first_absent(const pool_state *p) {
  for (guint32 n = 0; n < p->n_nodes; n++)
    if (p->autoscale->phase[n] == NODE_ABSENT) return (int)n;
  return -1;
}

static void remove_node(sim *s, pool_state *p, guint32 n, const char *why) {
  autoscale_pool *a = p->autoscale;
  cancel(s, &a->ev_idle[n]);
  cancel(s, &a->ev_spot[n]);
  cancel(s, &a->ev_phase[n]);
  a->idle_due[n] = -1;
  node_phase(s, p, n, NODE_ABSENT);
  node_event(s, p, EVENT_NODE_REMOVE, n, why);
}

static void on_ready(void *ctx, void *obj, uint64_t key) {
  sim *s = ctx;
  pool_state *p = obj;
  autoscale_pool *a = p->autoscale;
  int64_t n = node_of_key(a, key);
  if (n < 0 || a->phase[n] != NODE_BOOTING) return;
  a->ev_phase[n] = 0;
  node_phase(s, p, (guint32)n, NODE_READY);
  node_event(s, p, EVENT_NODE_READY, (guint32)n, "ready");
  idle_start(s, p, (guint32)n);
  sim_host_of(s)->calls->request_schedule(s, p);
}

static void on_idle(void *ctx, void *obj, uint64_t key) {
  sim *s = ctx;
  pool_state *p = obj;
  autoscale_pool *a = p->autoscale;
  int64_t n = node_of_key(a, key);
  if (n < 0) return;
  a->ev_idle[n] = 0;
  if (a->phase[n] != NODE_READY || a->idle_due[n] != now_of(s) || !node_empty(p, (guint32)n))
    return;
  a->idle_due[n] = -1;
  if (a->n_prov <= a->conf->min_nodes) return; /* parked: a scale-up looks again */
  char detail[96];
  snprintf(detail, sizeof detail, "scale-down: empty for %.0f s",
           util_ns_to_seconds(a->conf->unneeded_ns));
  a->scale_downs++; /* the autoscaler's own removal (a spot interruption is not one) */
  remove_node(s, p, (guint32)n, detail);
}

/* Nodes below the minimum (a spot node gone) are asked for again at once. */
static void keep_minimum(sim *s, pool_state *p) {
  autoscale_pool *a = p->autoscale;
  int n;
  while (a->n_prov < a->conf->min_nodes && (n = first_absent(p)) >= 0)
    provision(s, p, (guint32)n, "replaces an interrupted node (min_nodes)");
}

static void on_notice_end(void *ctx, void *obj, uint64_t key) {
  sim *s = ctx;
  pool_state *p = obj;
  autoscale_pool *a = p->autoscale;
  int64_t n = node_of_key(a, key);
  if (n < 0 || a->phase[n] != NODE_NOTICE) return;
  a->ev_phase[n] = 0;
  double lost0 = p->work_lost_gpu_ns;
  sim_host_of(s)->calls->evict_node(s, p, (guint32)n, "spot interruption: node gone");
  a->spot_lost_gpu_ns += p->work_lost_gpu_ns - lost0;
  remove_node(s, p, (guint32)n, "spot interruption");
  keep_minimum(s, p);
  sim_host_of(s)->calls->request_schedule(s, p);
}

static void on_interrupt(void *ctx, void *obj, uint64_t key) {
  sim *s = ctx;
  pool_state *p = obj;
  autoscale_pool *a = p->autoscale;
  int64_t n = node_of_key(a, key);
  if (n < 0) return;
  a->ev_spot[n] = 0;
  if (a->quiet || (a->phase[n] != NODE_BOOTING && a->phase[n] != NODE_READY)) return;
  cancel(s, &a->ev_idle[n]);
  cancel(s, &a->ev_phase[n]);
  a->idle_due[n] = -1;
  node_phase(s, p, (guint32)n, NODE_NOTICE); /* cordoned: no new jobs */
  a->interruptions++;
  char detail[96];
  snprintf(detail, sizeof detail, "spot interruption notice: gone in %.0f s",
           util_ns_to_seconds(a->spot->notice_ns));
  node_event(s, p, EVENT_SPOT_NOTICE, (guint32)n, detail);
  a->ev_phase[n] = sim_host_of(s)->calls->at(s, now_of(s) + a->spot->notice_ns, on_notice_end,
                                             p, node_key(a, n));
}

/* ---- scale-up: the autoscaler's estimate (docs/models.md) ---- */

/* A worker's part of a node's capacity, in thousandths of a GPU: a share-packed strategy's
 * share, else one slot of the card. */
static int64_t worker_milli(const pool_state *p, const job_run *j) {
  int64_t slot = 1000 / (int64_t)p->slots_per_gpu;
  if (!p->ops->worker_share) return MAX(slot, 1);
  double f = p->ops->worker_share(j->spec);
  int64_t m = (int64_t)ceil(f * 1000.0);
  return MAX(MAX(m, slot), 1);
}

/* First fit of one worker of m into the bins (the nodes booting, then new ones, at most
 * room of those): the bins it opened so far in *opened. FALSE when it fits nowhere. */
static gboolean bin_fit(GArray *bins, int64_t m, int64_t cap, guint32 room, guint32 *opened) {
  for (guint b = 0; b < bins->len; b++) {
    int64_t *left = &g_array_index(bins, int64_t, b);
    if (*left >= m) {
      *left -= m;
      return TRUE;
    }
  }
  if (*opened >= room || m > cap) return FALSE;
  int64_t left = cap - m;
  g_array_append_val(bins, left);
  (*opened)++;
  return TRUE;
}

/* New nodes the queued jobs need: each worker packed first-fit, as the autoscaler's binpacking
 * estimator places pending pods, onto the nodes booting and then onto new nodes of the
 * pool's shape; jobs their quota holds back are not seen. At most room. */
static guint32 nodes_wanted(sim *s, pool_state *p, guint32 room) {
  autoscale_pool *a = p->autoscale;
  int64_t cap = (int64_t)p->gpus_per_node * 1000;
  GArray *bins = g_array_new(FALSE, FALSE, sizeof(int64_t));
  for (guint32 n = 0; n < p->n_nodes; n++)
    if (a->phase[n] == NODE_BOOTING) g_array_append_val(bins, cap);
  guint32 opened = 0;
  for (guint c = 0; c < p->queue_sizes->len && opened < room; c++) {
    GSequence *q = p->queue_by_gpus[g_array_index(p->queue_sizes, guint32, c)];
    for (GSequenceIter *it = g_sequence_get_begin_iter(q);
         !g_sequence_iter_is_end(it) && opened < room; it = g_sequence_iter_next(it)) {
      const job_run *j = g_sequence_get(it);
      if (!sim_host_of(s)->calls->job_admitted(s, j)) continue;
      int64_t m = worker_milli(p, j);
      for (guint32 w = 0; w < j->spec->gpus; w++)
        if (!bin_fit(bins, m, cap, room, &opened)) break;
    }
  }
  g_array_unref(bins);
  return opened;
}

static void on_scan(void *ctx, void *obj, uint64_t arg) {
  sim *s = ctx;
  pool_state *p = obj;
  autoscale_pool *a = p->autoscale;
  (void)arg;
  a->ev_scan = 0;
  if (a->quiet || !p->n_queued || a->n_prov >= a->conf->max_nodes) return;
  guint32 want = nodes_wanted(s, p, a->conf->max_nodes - a->n_prov);
  char detail[96];
  snprintf(detail, sizeof detail, "scale-up: %u queued job%s, %u node%s asked for", p->n_queued,
           p->n_queued == 1 ? "" : "s", want, want == 1 ? "" : "s");
  int n;
  for (guint32 k = 0; k < want && (n = first_absent(p)) >= 0; k++)
    provision(s, p, (guint32)n, detail);
}

void autoscale_after_pass(sim *s, pool_state *p) {
  autoscale_pool *a = p->autoscale;
  if (a->quiet || a->ev_scan || a->n_prov >= a->conf->max_nodes) return;
  a->ev_scan = sim_host_of(s)->calls->at(s, tick_ceil(a->conf, now_of(s)), on_scan, p, 0);
}

void autoscale_placed(sim *s, pool_state *p, gpu_state *const *gpus, guint32 n) {
  autoscale_pool *a = p->autoscale;
  for (guint32 w = 0; w < n; w++) {
    guint32 node = gpus[w]->node;
    if (a->ev_idle[node]) cancel(s, &a->ev_idle[node]);
    a->idle_due[node] = -1;
  }
}

void autoscale_released(sim *s, pool_state *p, gpu_state *const *gpus, guint32 n) {
  autoscale_pool *a = p->autoscale;
  if (a->quiet) return;
  for (guint32 w = 0; w < n; w++) {
    guint32 node = gpus[w]->node;
    if (a->phase[node] == NODE_READY && !a->ev_idle[node] && node_empty(p, node))
      idle_start(s, p, node);
  }
}

void autoscale_quiesce(sim *s, pool_state *p) {
  autoscale_pool *a = p->autoscale;
  a->quiet = TRUE;
  cancel(s, &a->ev_scan);
  for (guint32 n = 0; n < p->n_nodes; n++) {
    cancel(s, &a->ev_idle[n]);
    cancel(s, &a->ev_spot[n]);
    cancel(s, &a->ev_phase[n]);
  }
}

void autoscale_pool_init(sim *s, pool_state *p) {
  const autoscale_conf *c = autoscale_conf_of(p->spec);
  if (!c) return;
  autoscale_pool *a = g_new0(autoscale_pool, 1);
  guint32 nn = MAX(1u, p->n_nodes);
  a->conf = c;
  a->spot = autoscale_spot_of(p->spec);
  a->phase = g_new0(guint8, nn);
  a->gen = g_new0(guint32, nn);
  a->idle_due = g_new(sim_time, nn);
  a->ev_phase = g_new0(event_id, nn);
  a->ev_idle = g_new0(event_id, nn);
  a->ev_spot = g_new0(event_id, nn);
  a->last_up = -1;
  if (a->spot) a->rng = rng_new(sim_host_of(s)->sc->seed, p->spec->name,
                           0x73706f74ull /* "spot": a stream of its own */);
  p->autoscale = a;
  cluster_pool_autoscaled(p);
  for (guint32 n = 0; n < p->n_nodes; n++) {
    a->idle_due[n] = -1;
    if (n >= c->initial_nodes) cluster_node_set(p, n, FALSE, FALSE, now_of(s));
  }
  for (guint32 n = 0; n < c->initial_nodes; n++) {
    a->phase[n] = NODE_READY;
    a->n_prov++;
    spot_schedule(s, p, n);
  }
  a->peak = a->n_prov;
  for (guint32 n = 0; n < c->initial_nodes; n++) idle_start(s, p, n);
  if (!trace_n_jobs(sim_host_of(s)->tr)) autoscale_quiesce(s, p);
}

void autoscale_pool_free(pool_state *p) {
  autoscale_pool *a = p->autoscale;
  if (!a) return;
  g_free(a->phase);
  g_free(a->gen);
  g_free(a->idle_due);
  g_free(a->ev_phase);
  g_free(a->ev_idle);
  g_free(a->ev_spot);
  if (a->rng) gsl_rng_free(a->rng);
  g_free(a);
  p->autoscale = NULL;
}

void autoscale_close(pool_state *p, sim_time end, pool_result *row) {
  autoscale_pool *a = p->autoscale;
  node_ns_to(a, end);
  row->autoscaled = TRUE;
  row->node_s = a->node_ns / 1e9;
  row->nodes_min = a->conf->min_nodes;
  row->nodes_max = a->conf->max_nodes;
  row->nodes_peak = a->peak;
  row->scale_ups = a->scale_ups;
  row->scale_downs = a->scale_downs;
  row->spot_interruptions = a->interruptions;
  row->spot_lost_gpu_s = a->spot_lost_gpu_ns / 1e9;
}
