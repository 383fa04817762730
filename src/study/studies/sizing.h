/* sizing.h: the smallest number of nodes of one pool that meets a set of constraints
 * (sharesim size). The search assumes the constraints are monotone in the pool's size:
 * if n nodes meet them, so does any larger n (more capacity never adds queueing, OOM
 * kills or SLO misses). Under that assumption it probes the lower end, doubles until a
 * size passes, then bisects between the last failure and the first pass: about
 * 2 log2(answer) runs, and the answer n is justified by n passing and n - 1 failing (or
 * n being the lower end). */
#pragma once
#include <glib.h>
#include "figures.h"

typedef enum { SIZING_FAIL = 0, SIZING_PASS = 1, SIZING_ERROR = -1 } sizing_verdict;
/* Runs the scenario with `nodes` nodes in the pool and judges it. */
typedef sizing_verdict (*sizing_probe_fn)(guint32 nodes, gpointer user, GError **error);

typedef struct sizing_probe {
  guint32 nodes;
  gboolean pass;
} sizing_probe;

/* Searches [min_nodes, max_nodes] (1 <= min <= max). *answer is the smallest passing
 * size, or 0 when even max_nodes fails. probes (sizing_probe, may be NULL) receives
 * every run in the order made; no size is probed twice. FALSE with error when a probe
 * fails to run. */
gboolean sizing_search(guint32 min_nodes, guint32 max_nodes, sizing_probe_fn probe,
                       gpointer user, guint32 *answer, GArray *probes, GError **error);

/* Where the search stands after some outcomes (sizing_state_of). */
typedef struct sizing_state {
  gboolean done;            /* the search is over: answer is the smallest passing size, 0
                             * when even max_nodes fails */
  guint32 answer;
  guint32 next;             /* not done: the size it probes next */
  gboolean doubling;        /* not done: no size has passed yet */
  guint32 range_lo, range_hi; /* not done: every size it may still probe (inclusive) */
} sizing_state;

/* The sequential search of sizing_search replayed on known (sizing_probe, any order, one
 * per size): the state after it, and (path, may be NULL) the probes it made, in its order.
 * The outcome of a size that search does not reach is not read. */
void sizing_state_of(guint32 min_nodes, guint32 max_nodes, const GArray *known,
                     sizing_state *st, GArray *path);

/* For several probes at once (size -j N): up to want sizes worth starting now, most useful
 * first, none known, none in running (n_running sizes already being probed), into out.
 * The first is the size the search needs next (unless it runs already); the others are
 * the sizes it would need after the outcomes of those not known yet, likeliest first: a
 * size fails with chance SIZING_DOUBLING_FAIL_CHANCE while no size has passed (doubling)
 * and 0.5 in the bisection. Speculative probes that the search does not reach are
 * thrown away, so only the speed, never the answer or the probes reported, depends on
 * these chances. Returns how many were put into out. */
guint sizing_plan(guint32 min_nodes, guint32 max_nodes, const GArray *known,
                  const guint32 *running, guint n_running, guint32 *out, guint want);
/* Assumption: the doubling phase mostly fails (it fails until its last probe; with an
 * answer a few doublings above min, 3 in 4 of its probes fail). */
#define SIZING_DOUBLING_FAIL_CHANCE 0.75
/* Nodes of the outcome tree the planner looks at, at most (it never needs many: want is
 * the number of free cores). */
#define SIZING_PLAN_NODES 256

typedef struct sizing_constraints {
  double min_slo;           /* every service's SLO attainment >= this (0..1); NAN: none */
  gint64 max_oom;           /* the pool's OOM kills <= this; -1: none */
  double max_wait_p95_s;    /* the pool's p95 queue wait <= this; NAN: none */
  double slo_ms;            /* > 0: the SLO every service was judged against (--slo PCT@LAT),
                             * for the description; 0 or NAN: each service's own */
} sizing_constraints;

/* Judges one run for pool: always "every job routed to the pool fits and none is left
 * queued at the end", plus the given constraints. Returns TRUE when all hold; why
 * (may be NULL) receives the failures ("queue wait p95 2.1 h > 10 m; ..."). *slo_applied
 * (may be NULL) is FALSE when min_slo was given but no service of the pool reports SLO
 * attainment (the constraint then cannot be checked and is not applied). */
gboolean sizing_check(const run_figures *f, const char *pool, const sizing_constraints *c,
                      GString *why, gboolean *slo_applied);
/* "every job fits and none is left queued; queue wait p95 <= 10 m; ..." */
void sizing_describe(const sizing_constraints *c, GString *out);
