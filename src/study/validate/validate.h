/* validate.h: `sharesim validate`, the published measurements replayed through the real
 * simulator. Each case family (validate-*.c, one per source) builds its scenario and trace,
 * runs sim_run on them, reads the results and adds one row per compared figure: the
 * published (measured) value, the simulator's (predicted) value, the error and whether the
 * target holds. Published numbers are data/validation/published.csv, compiled in; the
 * shared measurement files (Lucid, openb) are read from a traces folder when present. */
#pragma once
#include <glib.h>
#include "results.h"
#include "scenario.h"
#include "trace.h"

typedef enum { VALIDATE_PASS = 1, VALIDATE_FAIL = 0, VALIDATE_SKIP = -1 } validate_status;

/* What a row tests (issue 27): calibration, a comparison with data a constant was fitted
 * on (or, for FGD, the workload the implementation was developed on; validate_fits names
 * them); prediction, published data no constant was fitted on (out of sample); analytic, a
 * closed form. A family sets it (validate_set_kind) before it adds rows. */
typedef enum {
  VALIDATE_KIND_UNSET = 0,
  VALIDATE_CALIBRATION,
  VALIDATE_PREDICTION,
  VALIDATE_ANALYTIC,
} validate_kind;
#define VALIDATE_N_KINDS 3

typedef struct validate_row {
  char *id;          /* "tally.ts.bert_p99" */
  char *source;      /* the publication the measured value comes from */
  char *compared;    /* what is compared */
  double measured;   /* the published / reference value (NAN when skipped) */
  double predicted;  /* what the simulator gave (NAN when skipped) */
  double error;      /* predicted - measured, or relative (see target) */
  char *target;      /* "|error| <= 0.06", "rel <= 5 %" */
  validate_status status;
  validate_kind kind;
  char *family;      /* the family that added it ("lucid"; not owned) */
  /* predicted / measured - 1 for rows compared value to value (abs, rel); NAN for bound,
   * yes/no and skipped rows, which have no such error */
  double rel_error;
} validate_row;

/* A fitted constant and the rows it was fitted on (validate-fits.c): exact case ids, or a
 * prefix ending in '*'. Only those rows may be used to fit it; each must be calibration. */
typedef struct validate_fit {
  const char *constant;    /* "time-slicing curve exponent q" */
  const char *where;       /* where the value lives in the code */
  const char *const *rows; /* NULL-terminated */
} validate_fit;
/* The fitted constants, NULL-terminated by constant. */
const validate_fit *validate_fits(void);

typedef struct validate_ctx {
  const char *traces_dir;  /* folder holding lucid-asplos23/ ...; may not exist */
  guint threads;           /* runs at a time for families that run many (>= 1) */
  const char *work_dir;    /* folder the cases write their inputs into (owned by the caller) */
  const char *only;        /* run only these families, comma-separated names (NULL: all) */
  const char *const *overrides; /* --set KEY=VALUE applied to every case's scenario */
  guint n_overrides;
  GPtrArray *rows;         /* validate_row*, in case order */
  GString *scatter;        /* "set,id,measured,predicted" rows for plot */
  GPtrArray *keep;         /* scenarios and traces the results borrow from */
  guint runs;              /* simulations run */
  validate_kind kind;      /* of the rows added next (validate_set_kind) */
  const char *family;      /* the family running */
} validate_ctx;

typedef struct validate_family {
  const char *name;        /* "lucid" */
  const char *summary;
  /* Adds its rows; FALSE with error only when something that should work did not (a
   * simulation refused its own inputs). Missing shared files give skipped rows. */
  gboolean (*run)(validate_ctx *c, GError **error);
} validate_family;

void validate_ctx_init(validate_ctx *c, const char *traces_dir, const char *work_dir);
void validate_ctx_clear(validate_ctx *c);
/* Runs every family (or those named in c->only). FALSE with error when a family failed or
 * c->only names one that is not a family (the error lists the families). */
gboolean validate_run(validate_ctx *c, GError **error);
/* The registered families, NULL-terminated by name. */
const validate_family *validate_families(void);

/* Checks c's rows against the fits: a row a fit names that is not calibration, a
 * calibration row no fit names, and (when c ran every family) a fit that names no row of
 * c, each add a line to problems. TRUE when there is none. */
gboolean validate_check_fits(const validate_ctx *c, const validate_fit *fits, GString *problems);
/* The kind of the rows a family adds next (every row must have one). */
void validate_set_kind(validate_ctx *c, validate_kind kind);
const char *validate_kind_name(validate_kind kind);

/* Counts of rows by status. */
void validate_counts(const validate_ctx *c, guint *pass, guint *fail, guint *skip);
/* The table for people (aligned columns; then per family the error on calibration rows
 * beside the error on prediction rows, the totals by kind, the fits and the sources) and
 * as CSV (case,kind,source,compared,measured,predicted,error,target,pass). */
void validate_write_text(const validate_ctx *c, GString *out);
void validate_write_csv(const validate_ctx *c, GString *out);
/* The same as a Markdown table with numbered sources (docs/models.md, "Validation"). */
void validate_write_markdown(const validate_ctx *c, GString *out);

/* ---- for the case families ---- */
/* A published value by key (data/validation/published.csv); aborts on an unknown key (a
 * programming error: the data file and the cases ship together). *source may be NULL. */
double validate_published(const char *key, const char **source);
/* The same, NAN when the data file has no such key (a published table with gaps). */
double validate_published_or_nan(const char *key, const char **source);
/* Writes name.yaml and name.csv (and name-phases.csv when phases is not NULL) into the
 * work folder, loads them as `run` would and runs the simulator. The results stay valid
 * until validate_ctx_clear (free them with results_free). NULL with error on failure. */
results *validate_sim(validate_ctx *c, const char *name, const char *yaml, const char *csv,
                      const char *phases, GError **error);
/* The same without running: writes name.yaml and name.csv, loads them (the trace with
 * trace_load_flags' flags) and keeps them until validate_ctx_clear. FALSE with error. */
gboolean validate_load(validate_ctx *c, const char *name, const char *yaml, const char *csv,
                       const char *phases, guint trace_flags, const scenario **sc,
                       const trace **tr, GError **error);
const job_result *validate_job(const results *r, const char *id);
const service_result *validate_service(const results *r, const char *id);
/* Adds a row; the target holds when |predicted - measured| <= tol (abs) or
 * |predicted / measured - 1| <= tol (rel). */
void validate_abs(validate_ctx *c, const char *id, const char *source, const char *compared,
                  double measured, double predicted, double tol);
void validate_rel(validate_ctx *c, const char *id, const char *source, const char *compared,
                  double measured, double predicted, double tol);
/* Adds a row whose target is predicted <= bound (< when strict); the bound goes in the
 * measured column. */
void validate_bound(validate_ctx *c, const char *id, const char *source, const char *compared,
                    double bound, double predicted, gboolean strict);
/* Adds a yes/no row: measured 1 (what the source reports), predicted 1 when reproduced. */
void validate_story(validate_ctx *c, const char *id, const char *source, const char *compared,
                    gboolean reproduced);
/* Adds a skipped row (the input files are absent), with the reason as its target. */
void validate_skip(validate_ctx *c, const char *id, const char *source, const char *compared,
                   const char *why);

extern const validate_family validate_queueing_family;
extern const validate_family validate_priority_family;
extern const validate_family validate_lucid_family;
extern const validate_family validate_colfax_family;
extern const validate_family validate_tally_family;
extern const validate_family validate_mig_family;
extern const validate_family validate_stories_family;
extern const validate_family validate_fgd_family;
extern const validate_family validate_fgdw_family;
extern const validate_family validate_llm_family;
extern const validate_family validate_vidur_family;
extern const validate_family validate_parva_family;

/* The compiled-in data/validation/published.csv (generated by make). */
extern const char validate_published_csv[];
