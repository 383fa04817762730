/* bursts.c: the notebooks' bursts accounted without events (bursts.h): the walk that
 * stands for workload-notebook.c's gap and burst events on a card of the job's own, the
 * metrics it gives at once (metrics_burst), and the cut that replays it to an earlier time
 * and takes back what lies after. The toggles (draws and times) are notebook-model.h's,
 * which the events use too; each step's accounting is what sim_job_set_demand does on a
 * card of the job's own. tests/cli/t-reference.sh compares the folders both ways. */
#include "bursts.h"
#include <string.h>

struct burst_chain {
  notebook_toggles toggles;
  sim_time limit;               /* toggles before it are walked */
  int64_t d_busy, d_sm;         /* a burst's gauges over the idle ones, fixed point */
  gboolean parts_change;        /* the worker's part differs between burst and gap */
  guint32 pool, gpu, tenant;
  bursts_state start;           /* after the first gap's draw */
  bursts_state end;             /* at limit */
};

/* One step of the walk: the toggle at st->next. Contributions of a burst starting here go
 * to the metrics over [max(a, from), min(b, limit)) times sign (0: none). The draws and
 * the toggles' times are notebook-model.h's, as the events take them; the accounting is
 * what the events' sim_job_set_demand does on a card of the job's own (job_advance_to:
 * duty x one worker x dt and the allocated share 1; cluster_task_charge when the worker's
 * part changes: part 1, the whole GPU). */
static void walk_toggle(metrics *m, const burst_chain *c, bursts_state *st, int sign,
                        sim_time from) {
  sim_time at = st->next;
  double dt = (double)(at - st->last);
  if (dt > 0) {
    double duty = st->in_burst ? c->toggles.duty : 0.0;
    st->busy_ns += duty * 1.0 * dt;
    st->alloc_gpu_ns += 1.0 * dt;
  }
  st->last = at;
  if (c->parts_change) {
    if (at > st->part_since) st->charge_gpu_ns += 1.0 * (double)(at - st->part_since);
    st->part_since = at;
  }
  st->toggles++;
  gsl_rng r = rng_over(&st->rng);
  if (!st->in_burst) { /* the gap is over: a burst (notebook_on_timer), done at speed 1 */
    st->work = notebook_next_burst(&c->toggles, &r);
    st->burst_start = at;
    st->in_burst = TRUE;
    st->next = util_done_at(at, st->work, 1.0);
    if (sign) {
      sim_time lo = MAX(at, from), hi = MIN(st->next, c->limit);
      metrics_burst(m, c->pool, c->gpu, c->tenant, lo, hi, sign * c->d_busy, sign * c->d_sm);
    }
  } else { /* the burst is done: a gap (notebook_on_work_done, start_gap) */
    st->stretch_sum += notebook_stretch(at - st->burst_start, st->work);
    st->bursts++;
    st->in_burst = FALSE;
    st->next = notebook_next_gap(&c->toggles, &r, at);
  }
}

static void walk(metrics *m, const burst_chain *c, bursts_state *st, sim_time until, int sign,
                 sim_time from) {
  while (st->next < until) walk_toggle(m, c, st, sign, from);
}

/* The GPU's gauges with the job bursting (duty) and idle, as the strategy gives them. */
static void chain_gauges(burst_chain *c, job_run *j, gpu_state *g, double duty) {
  const pool_state *p = g->pool;
  double busy[2] = {0, 0}, sm[2] = {0, 0};
  double saved = j->duty;
  for (int k = 0; k < 2; k++) {
    j->duty = k == 0 ? duty : 0.0;
    p->ops->gauges(&p->share_view, g, &busy[k], &sm[k]);
  }
  j->duty = saved;
  c->d_busy = metrics_fixed(busy[0]) - metrics_fixed(busy[1]);
  c->d_sm = metrics_fixed(sm[0]) - metrics_fixed(sm[1]);
  uint64_t x[4];
  memcpy(&x[0], &busy[0], 8);
  memcpy(&x[1], &busy[1], 8);
  memcpy(&x[2], &sm[0], 8);
  memcpy(&x[3], &sm[1], 8);
  c->parts_change = x[0] != x[1] || x[2] != x[3]; /* cluster.c's parts_same, bit for bit */
}

burst_chain *bursts_start(metrics *m, job_run *j, gpu_state *g, sim_time now, sim_time limit,
                          const notebook_toggles *t) {
  g_assert(j->rng->type == gsl_rng_taus2 && j->n_tasks == 1 && g->n_residents == 1);
  burst_chain *c = g_new0(burst_chain, 1);
  c->toggles = *t;
  c->limit = limit;
  c->pool = g->pool->index;
  c->gpu = g->index;
  c->tenant = j->tenant;
  chain_gauges(c, j, g, t->duty);
  bursts_state *st = &c->start;
  st->next = notebook_next_gap(t, j->rng, now);
  rng_save(j->rng, &st->rng);
  st->last = j->t_last;
  st->part_since = j->tasks[0].part_since;
  st->busy_ns = j->busy_ns;
  st->alloc_gpu_ns = j->alloc_gpu_ns;
  st->charge_gpu_ns = j->charge_gpu_ns;
  st->stretch_sum = j->burst_stretch_sum;
  st->bursts = j->bursts;
  c->end = c->start;
  walk(m, c, &c->end, limit, 1, now);
  return c;
}

void bursts_cut(metrics *m, burst_chain *c, sim_time t, bursts_state *out) {
  if (t >= c->limit) {
    *out = c->end;
  } else {
    *out = c->start;
    walk(m, c, out, t, 0, t);
    /* what was accounted after t goes back: the rest of the burst in progress, and every
     * later one (walked on a copy: the job's state is the one at t) */
    bursts_state rest = *out;
    if (rest.in_burst)
      metrics_burst(m, c->pool, c->gpu, c->tenant, t, MIN(rest.next, c->limit), -c->d_busy,
                    -c->d_sm);
    walk(m, c, &rest, c->limit, -1, t);
  }
  bursts_free(c);
}

double bursts_duty(const burst_chain *c) { return c->toggles.duty; }

void bursts_free(burst_chain *c) { g_free(c); }
