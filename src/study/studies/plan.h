/* plan.h: `sharesim plan`: the cheapest set-up that meets the tenants' requirements
 * (scenario `requirements:`) with what may be bought (`purchase:`). The jobs are split into
 * classes, one per job kind, each planned as a pool of its own (pools do not interact: a
 * job runs only in the pool its kind routes to); a class's candidates are every sharing
 * mechanism the trust of all its tenants allows on every model that may be bought, each
 * sized by the `size` search (sizing.h) and judged over seeds. plan.c owns the classes,
 * candidates, judging and the scenarios written; plan-run.c the search; plan-report.c the
 * files. docs/studies.md, "plan". */
#pragma once
#include <glib.h>
#include <stdio.h>
#include "figures.h"
#include "scenario.h"
#include "sizing.h"
#include "trace.h"

/* What one run (or the bound over seeds) says about a class's pool. */
typedef struct plan_measure {
  double unplaceable, queued;   /* jobs that never fit / left queued */
  double wait_p95_s, oom_kills, victims, slo_min, slowdown_mean, slowdown_p95;
  double allocated_frac, busy_frac;
  char *slo_worst;              /* the service of slo_min; owned, may be NULL */
  /* the blast radius (docs/models.md): victims of other tenants' faults (all kinds), and of
   * them those of an untrusted tenant of the class (the source first named in blast_src);
   * NAN when the run's summary has none (a folder of an older sharesim) */
  double blast, blast_untrusted;
  char *blast_src;              /* owned, may be NULL */
  /* a probe that gave up early (plan_give_up_late): when, and the jobs that had started
   * later than the class's max_wait_p95 allows; NAN and 0 for a probe run to its end */
  double stopped_at_s, stopped_late;
} plan_measure;

/* One class: the jobs of one kind. */
typedef struct plan_class {
  job_kind kind;
  const char *pool;             /* the pool's name: the kind's name (static) */
  guint n_jobs;
  GPtrArray *tenants;           /* char*, distinct, sorted; owned */
  req_trust trust;              /* the least trusting rule of its jobs */
  GPtrArray *untrusted;         /* char*, its tenants with a job whose rule is untrusted,
                                 * sorted; owned */
  GPtrArray *allowed;           /* char* strategy names every job's rule allows, table order */
  /* the strictest constraints over its jobs' rules */
  double min_slo, max_wait_p95_s, max_slowdown;
  gint64 max_oom, max_victims;
  int64_t max_mem_bytes;        /* the largest job (per worker), its id and line */
  guint32 max_job_gpus;
  char *big_job;
  guint big_line;
  char *trace_path;             /* the class's jobs as a trace of their own; owned */
  trace *tr;                    /* loaded from it; owned */
} plan_class;

typedef enum {
  PLAN_OPEN = 0,                /* still being searched */
  PLAN_FEASIBLE,                /* answer nodes meet the constraints, answer - 1 do not */
  PLAN_REJECTED,                /* no size within the limits meets them */
  PLAN_NEVER_FITS,              /* pruned before simulating: a job larger than its devices */
  PLAN_NOT_CHEAPER,             /* pruned: every size it might still meet them at costs at
                                 * least the best candidate found */
} plan_status;

/* One candidate set-up of a class: a mechanism with its settings on a model. */
typedef struct plan_candidate {
  guint cls, buy;               /* class index; purchase entry index */
  const char *mechanism;        /* strategy name (static) */
  char *settings;               /* "replicas 4", "layout 3g.40gb x2" ("" for none); owned */
  char *keys;                   /* its pool keys as YAML lines (4-space indent); owned */
  int64_t device_mem;           /* the largest device a job may get (bytes) */
  double price;                 /* $ per GPU-hour */
  guint32 gpus_per_node, min_nodes, max_nodes, cap_nodes;
  GArray *known;                /* sizing_probe: its sizes judged so far */
  GPtrArray *measures;          /* plan_measure* per probe, parallel to known; owned */
  GPtrArray *whys;              /* char* per probe ("" when it passed), parallel to known */
  plan_status status;
  guint32 answer;               /* FEASIBLE: its nodes */
  char *verdict;                /* not FEASIBLE: the constraint it broke; owned */
} plan_candidate;

typedef struct plan_options {
  guint jobs;                   /* probes at once (-j) */
  guint n_seeds;                /* seeds per probe (1: the scenario's seed only) */
  guint n_ranges;               /* --model-range: MODELRANGE_RUNS (a probe that meets the
                                 * constraints at the models' defaults is judged again at every
                                 * run of the model range: the pessimistic end); 0 or 1: off */
  gboolean exhaustive;          /* every size of every candidate, no pruning (tests) */
  const char *journal;          /* -o DIR: DIR.journal, every run's measure kept so that an
                                 * interrupted plan resumes (plan-journal.c); NULL: none */
  gboolean progress;
} plan_options;

typedef struct plan {
  const scenario *sc;           /* the input scenario */
  const char *scenario_path, *trace_path;
  char *base_yaml;              /* the scenario's top-level keys other than name, seed, pools,
                                 * routing, requirements, purchase, interference; owned */
  GArray *classes;              /* plan_class */
  GArray *cands;                /* plan_candidate, by class, then purchase, then mechanism */
  plan_options opt;
  const char *work;             /* scratch folder: class traces, probe scenarios and runs */
  GHashTable *cache;            /* probe identity -> plan_measure* (owned) */
  guint runs, cache_hits, rounds;
  guint range_runs;             /* of runs, those at an end of the model range */
  GArray *best;                 /* guint per class: the recommended candidate, G_MAXUINT none */
  GHashTable *resumed;          /* probe identity -> plan_measure* read from the journal, moved
                                 * into the cache as the search reaches them; owned */
  guint resumed_runs;           /* of runs, those taken from the journal */
  FILE *journal_out;            /* the journal, appended after each round */
} plan;

/* Builds the classes from the trace and the scenario's requirements and writes each class's
 * trace into work. FALSE with error (SHARESIM_ERROR_INPUT at the scenario's file:line:col
 * when a job is larger than every model that may be bought, or when the scenario has no
 * `purchase:`). */
gboolean plan_classes(plan *p, const trace *tr, GError **error);
/* The scenario's top-level keys plan carries into the set-ups it writes (base_yaml):
 * every one but name, seed, pools, routing, requirements, purchase and interference,
 * copied line for line (comment lines left out) when the keys are written in block style;
 * none otherwise. FALSE with error when the file cannot be read. */
gboolean plan_base(plan *p, GError **error);
/* The candidates of every class (plan->cands), the fit pruning applied. */
void plan_candidates(plan *p);
/* plan-journal.c: reads opt.journal when it exists into resumed (FALSE with error,
 * SHARESIM_ERROR_INPUT, when it was written for other inputs), rewrites it whole (a last
 * line cut short dropped) and opens it for appending; nothing without opt.journal. */
gboolean plan_journal_open(plan *p, GError **error);
/* Appends one run's record (its identity key and measure m) to s, as a journal line. */
void plan_journal_line(GString *s, const char *key, const plan_measure *m);
/* Appends lines (plan_journal_line's) to the journal and syncs it; TRUE without one. */
gboolean plan_journal_append(plan *p, const GString *lines, GError **error);
void plan_journal_close(plan *p);
/* The search over every candidate (plan-run.c): FALSE with error when a probe cannot run. */
gboolean plan_search(plan *p, GError **error);

/* The scenario text of the set-up: candidate per class (cands[pick[c]], nodes[c]; a class
 * with pick G_MAXUINT is left out), routing by kind, with seed. nvidia: the time-slicing
 * and MPS pools take their sharing from PLAN_NV_PLUGIN#POOL and the MIG pools their layout
 * from PLAN_NV_MIG, config plan-POOL (the files plan_nvidia_write writes beside it). Owned. */
char *plan_scenario_text(const plan *p, const guint *pick, const guint32 *nodes,
                         const char *name, guint64 seed, gboolean nvidia);
#define PLAN_NV_PLUGIN "device-plugin-config.yaml"
#define PLAN_NV_MIG "mig-parted-config.yaml"
/* plan-nvidia.c: writes into dir/nvidia/ the device-plugin ConfigMap (one key per pool that
 * time-slices or runs MPS), the mig-parted config (one entry per MIG pool) and scenario.yaml
 * taking its pools' sharing from them; reads that scenario back through the NVIDIA-config
 * input and compares each pool's resolved settings with those of dir/scenario.yaml. Appends
 * what it wrote and the outcome of the check to report. FALSE with error when a file cannot
 * be written; a mismatch is reported, not an error. */
gboolean plan_nvidia_write(const plan *p, const char *dir, GString *report, GError **error);
/* Monthly cost (730 h) of candidate c on n nodes. */
double plan_cost_month(const plan_candidate *c, guint32 nodes);
/* The measure of class k's pool in a run (reads the run's jobs.csv for the slowdown p95);
 * the blast radius is the run's, its untrusted part from k's untrusted tenants. */
void plan_measure_of(const run_figures *f, const plan_class *k, plan_measure *m);
void plan_measure_clear(plan_measure *m);
/* Every job fitted and none was left queued (in every seed): the figures describe all of
 * the class's jobs. */
gboolean plan_served(const plan_measure *m);
/* The number of a class's n jobs that, once started more than its max_wait_p95 after
 * their submission, make the p95 queue wait (GSL's quantile of the n waits) exceed it
 * whatever the others wait: n - floor(0.95 (n - 1)). A probe gives up there (plan-run.c). */
guint64 plan_give_up_late(guint64 n);
/* Judges the measures of a probe's seeds against class k's constraints: a constraint holds
 * when its 95 % bound over the seeds does (the value itself with one seed); every job must
 * fit and none be left queued in every seed, and no fault of an untrusted tenant may reach
 * another tenant's job in any seed (a hard rule). out receives the bound (or the value). TRUE
 * when all hold; why receives the failures. */
gboolean plan_judge(const plan_class *k, plan_measure *const *seeds, guint n,
                    plan_measure *out, GString *why);
/* "queue wait p95 <= 10 m; ..." */
void plan_describe_constraints(const plan_class *k, GString *out);
void plan_free_contents(plan *p);

/* plan-report.c: plan.txt and plan.csv (text, csv), and the explanation, from a finished
 * search; joined (may be NULL) is the recommended scenario's own run. */
void plan_report(const plan *p, const run_figures *joined, GString *text, GString *csv,
                 GString *probes);
/* pareto.csv (plan-pareto.c): per class, the set-ups simulated (every candidate at every size
 * judged) that no other one dominates on (monthly cost, worst SLO attainment) -- front "slo"
 * -- and on (monthly cost, p95 queue wait) -- front "wait"; docs/studies.md, "plan". */
void plan_pareto(const plan *p, GString *csv);
/* plan-report.c, shared with plan-pareto.c: a number (empty when not finite) and a quoted
 * text as the next CSV cell. */
void plan_csv_num(GString *csv, double v);
void plan_csv_text(GString *csv, const char *s);
/* The front of n points (cost[i], y[i]): on[i] is TRUE when no other point costs no more and
 * has a y at least as good (higher when higher_better, else lower), one of the two strictly
 * better. A point with a NaN coordinate is never on it and dominates none. */
void plan_pareto_front(const double *cost, const double *y, guint n, gboolean higher_better,
                       gboolean *on);
/* For each class without a set-up: "class NAME:" and the closest candidates with the
 * constraints they break. */
void plan_explain_failures(const plan *p, GString *out);
