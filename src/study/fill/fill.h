/* fill.h: the fill-up experiment of the FGD paper (Weng et al., ATC '23, section 5): jobs
 * of a trace arrive one after another (trace order, or shuffled), never leave, and are
 * placed by a placement policy on one pool's nodes (each job on one node, as a pod); jobs
 * are sampled from the trace until the requested share of the pool's GPU capacity has
 * arrived (the reference simulator's workload inflation). A job that fits nowhere is
 * counted and dropped, never queued. Results per 1 % of arrived GPU share. */
#pragma once
#include <glib.h>
#include "scenario.h"
#include "trace.h"
#include "place.h"

/* Everything the runs share, read-only once built (runs may go in parallel). */
typedef struct fill_setup {
  const pool_spec *pool;
  guint32 n_nodes;
  guint32 *node_gpus;         /* per node */
  int64_t *node_cpu, *node_mem;
  const char **node_model;
  int64_t cap_milli;          /* GPUs x 1000 */
  guint64 n_gpus;
  guint n_jobs;
  place_req *reqs;            /* one per trace job (type: its kind) */
  guint32 n_types;
  place_target *target;       /* the trace's target workload (fgd, fragmentation) */
  int64_t max_cpu, max_gpu_milli;
} fill_setup;

/* Builds the setup for pool `pool_index` of sc and the trace. Jobs whose workers cannot all
 * be on one node of the pool, or that ask for more of a GPU than 1, are refused with a
 * message (SHARESIM_ERROR_INPUT). */
fill_setup *fill_setup_new(const scenario *sc, guint pool_index, const trace *tr,
                           GError **error);
void fill_setup_free(fill_setup *s);

typedef struct fill_options {
  double inflate;             /* arrived GPU share of capacity to reach, e.g. 1.3 */
  gboolean shuffle;           /* arrival order shuffled (else trace order) */
} fill_options;

/* One row per whole percent of arrived GPU share, 0 .. round(inflate x 100). */
typedef struct fill_point {
  guint pct;
  gboolean have;              /* some job arrived within 1 % of this step */
  double alloc_milli_pct;     /* allocated milli-GPU / capacity, % */
  double alloc_gpus_pct;      /* GPUs with any allocation / GPUs, % */
  double frag_milli_pct;      /* fragmented milli-GPU / capacity, % */
  double frag_ratio_pct;      /* fragmented / idle milli-GPU, % */
  double unplaced;            /* jobs that fitted nowhere so far */
} fill_point;

typedef struct fill_result {
  placement_policy policy;
  guint64 seed;
  guint n_arrived, n_placed, n_unplaced;
  int64_t arrived_milli, placed_milli, unplaced_milli;
  double final_alloc_milli_pct, final_alloc_gpus_pct, final_frag_milli_pct,
      final_frag_ratio_pct;
  GArray *points;             /* fill_point */
} fill_result;

fill_result *fill_run(const fill_setup *s, placement_policy policy, guint64 seed,
                      const fill_options *opt);
void fill_result_free(fill_result *r);
/* Every policy x seed, at most threads at a time (GLib threads; the runs share s read-only
 * and each owns its generators, so results do not depend on threads). Returns n_pols x
 * n_seeds owned results in (policy, seed) order (free each and the array). */
fill_result **fill_run_all(const fill_setup *s, const fill_options *opt,
                           const placement_policy *pols, guint n_pols, const guint64 *seeds,
                           guint n_seeds, guint threads);

/* The paper's runs: its six policies x seeds 42-51, shuffled, inflation 1.3 (fill_run_all;
 * *n set to the number of results, FILL_PAPER_POLICIES x FILL_PAPER_SEEDS). */
fill_result **fill_run_paper(const fill_setup *s, guint threads, guint *n);

/* fill.csv: policy,seed,arrived_pct,alloc_milli_pct,alloc_gpus_pct,frag_milli_pct,
 * frag_ratio_pct,unplaced (steps with no arrival within 1 % are left out). */
void fill_write_csv(GString *out, fill_result *const *runs, guint n);
/* fill-mean.csv: the same per policy, averaged over seeds (steps every run has). */
void fill_write_mean_csv(GString *out, fill_result *const *runs, guint n);
/* summary.txt: per policy, final allocation, fragmentation and unplaced jobs, mean and
 * range over seeds. */
void fill_write_summary(GString *out, const fill_setup *s, const fill_options *opt,
                        fill_result *const *runs, guint n);
/* summary.json (marks the folder as sharesim's, see outdir.h). */
void fill_write_json(GString *out, const fill_options *opt, fill_result *const *runs, guint n);
/* fill.gp: gnuplot script drawing fill-mean.csv, one line per policy, into fill.png; with
 * paper also the published curves of paper.csv (dashed) and a panel on arrived 80-130 %. */
void fill_write_gnuplot(GString *out, fill_result *const *runs, guint n, gboolean paper);

/* Mean over the runs of policy p of the allocation at arrived pct (NAN if none has it). */
double fill_mean_alloc(fill_result *const *runs, guint n, placement_policy p, guint pct);

/* ---- the published result (fill-paper.c) ---- */
/* Mean GPU allocation the FGD repository publishes for policy p at arrived pct (0..130) on
 * the openb default pod list, GPU node list, inflation 1.3, 10 seeds; NAN if not there. */
double fill_paper_alloc(placement_policy p, guint pct);
/* Compares runs (the six policies of the paper, several seeds each) with it: TRUE when each
 * policy's mean allocation is within tol_pp of the published mean at every arrived percent
 * 0..130 and the means at 130 % come in the published order (Random < DotProd <
 * GpuClustering < GpuPacking < BestFit < FGD). Appends a table to report (may be NULL). */
gboolean fill_paper_compare(fill_result *const *runs, guint n, double tol_pp, GString *report);
/* The six policies of the paper's figure, in its order, and issue 16's tolerance. */
#define FILL_PAPER_POLICIES 6
#define FILL_PAPER_TOLERANCE_PP 1.0
extern const placement_policy fill_paper_policies[FILL_PAPER_POLICIES];
/* paper.csv: policy,paper,arrived_pct,alloc_milli_pct: the published mean curve (0..130 %)
 * of each policy of runs that the paper has. */
void fill_write_paper_csv(GString *out, fill_result *const *runs, guint n);
/* The paper's name of policy p ("GpuClustering"); NULL for a policy it does not have. */
const char *fill_paper_label(placement_policy p);
/* The paper's set-up: seeds 42 .. 42 + FILL_PAPER_SEEDS - 1, shuffled, inflation 1.3. */
#define FILL_PAPER_SEEDS 10
#define FILL_PAPER_FIRST_SEED 42
#define FILL_PAPER_INFLATE 1.3
