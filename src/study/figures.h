/* figures.h: the headline figures of one result folder, read back from its files
 * (summary.json, and services.csv when the inference model writes it), for compare,
 * sweep, size and plot. Reading is generic: every number in summary.json's "totals"
 * becomes a figure, known ones with a label and unit, others (added by later models,
 * e.g. straggler delay) under their own key with a unit guessed from its suffix; so the
 * tables grow as models land without a change here. Keys:
 *   totals member            "busy_frac", "cost", "straggler_delay_gpu_h" ...
 *   pool member              "pool:NAME:gpus" (gpus, allocated_frac, busy_frac,
 *                            wait_p95_s, oom_kills, cost, jobs, unplaceable, queued)
 *   tenant showback          "tenant:NAME:cost"
 *   other top-level arrays   "ARRAY:NAME:MEMBER" for numeric members of named entries
 *   other top-level objects  "OBJECT:MEMBER" (e.g. an "slo" object)
 *   services.csv             "services:count", "services:with_slo",
 *                            "services:min_attainment"
 *   llm.csv                  "llm:servers", "llm:ttft_p99_ms" (worst server), ...,
 *                            "llm:goodput_rps" (all servers)
 * A result folder can be edited by hand: nothing read is trusted (names may hold any
 * text; numbers may be missing, null or of the wrong type, which gives NAN). */
#pragma once
#include <glib.h>
#include <stdint.h>

typedef enum {
  FIGURE_COUNT = 0,       /* integer count */
  FIGURE_NUMBER,          /* plain number */
  FIGURE_RATIO,           /* "1.20x" */
  FIGURE_FRACTION,        /* 0..1 shown as a percentage; deltas in percentage points */
  FIGURE_PERCENT,         /* already a percentage */
  FIGURE_SECONDS,         /* shown as a duration */
  FIGURE_MILLISECONDS,
  FIGURE_HOURS,           /* wall-clock hours */
  FIGURE_GPU_HOURS,
  FIGURE_MONEY,           /* $ */
  FIGURE_MONEY_PER_HOUR,  /* $ per GPU-hour */
} figure_unit;

typedef enum {
  FIGURE_SECTION_CAPACITY = 0,
  FIGURE_SECTION_UTILISATION,
  FIGURE_SECTION_JOBS,
  FIGURE_SECTION_FAULTS,
  FIGURE_SECTION_OTHER,     /* totals added by later models */
  FIGURE_SECTION_SERVICES,  /* SLO attainment and other per-class figures */
  FIGURE_SECTION_POOLS,
  FIGURE_SECTION_FINANCE,
  FIGURE_SECTION_COUNT
} figure_section;
const char *figures_section_name(figure_section s); /* "utilisation" */

typedef struct figure {
  char *key;              /* see above; owned */
  char *label;            /* for tables ("queue wait p95", "cost: tenant team-01"); owned */
  figure_unit unit;
  figure_section section;
  guint order;            /* position within the section (known figures first) */
  gboolean detail;        /* in CSV/JSON, left out of the text table (redundant there) */
  double value;           /* NAN when absent or null */
} figure;

/* One inference service, from services.csv (when present). */
typedef struct service_figure {
  char *name, *pool;      /* pool "" when the file has no pool column; owned */
  double attainment;      /* share of requests within the SLO, 0..1; NAN when not reported */
  double target;          /* the service's own target share (slo_pct / 100), NAN if none */
} service_figure;

/* One (fault kind, source tenant, victim tenant) pair of summary.json's blast_radius
 * (docs/models.md "Blast radius"): victims that died, stalled, were evicted. */
typedef struct figure_blast {
  char *kind, *from, *to;   /* owned; from "-": no job at fault */
  double died, stalled, evicted;
} figure_blast;

typedef struct run_figures {
  char *dir;              /* the folder read; owned */
  char *scenario;         /* scenario name ("" when missing); owned */
  char *scenario_file, *trace_file; /* as recorded in summary.json ("" when missing) */
  uint64_t seed;
  double span_s;
  double start_unix;      /* "start" of a run placed at a date (Unix seconds), NAN if none */
  GArray *figures;        /* figure, in the order read (see figures_sort) */
  GHashTable *by_key;     /* key -> index + 1 into figures (borrowed keys) */
  GPtrArray *pool_names;  /* char*, pools in summary order; owned */
  GPtrArray *pool_models; /* char*, GPU model per pool ("" if missing); owned */
  GArray *services;       /* service_figure, services.csv order (empty when absent) */
  gboolean services_file; /* services.csv exists */
  gboolean services_slo;  /* services.csv has an SLO attainment column */
  GArray *blast;          /* figure_blast, summary order (by kind, source, victim) */
  gboolean blast_known;   /* summary.json has a blast_radius object (older folders do not) */
} run_figures;

/* Reads DIR/summary.json (required), DIR/services.csv and DIR/llm.csv (optional). NULL with error
 * (SHARESIM_ERROR_INPUT) when DIR is not a readable result folder. */
run_figures *figures_load(const char *dir, GError **error);
/* The same from summary.json text (services left empty); dir is only recorded. */
run_figures *figures_parse(const char *dir, const char *json, gsize len, GError **error);
/* A deep copy of f recording dir (NULL: f's folder) as its folder. */
run_figures *figures_copy(const run_figures *f, const char *dir);
void figures_free(run_figures *f);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(run_figures, figures_free)

/* Victims (died + stalled + evicted) of the pairs of f whose source is another tenant
 * than the victim's; only those from a tenant in `from` (NULL: any), when given. */
double figures_blast_across(const run_figures *f, const char *const *from, guint n_from);

/* The figure with key, or NULL. */
const figure *figures_find(const run_figures *f, const char *key);
/* Its value, NAN when absent. */
double figures_value(const run_figures *f, const char *key);
/* Adds (or replaces) a figure; label and unit are taken from the known table when the key
 * is known, else guessed (figures_guess_unit). */
void figures_set(run_figures *f, const char *key, double value);
/* Unit guessed from a key's suffix: _frac -> fraction, _pct -> percent, _s, _ms, _h,
 * (_gpu_h GPU-hours), cost/spend/saving -> money, slowdown -> ratio, attainment ->
 * fraction (percent when the key says pct); else number. */
figure_unit figures_guess_unit(const char *key);
/* Orders the figures by section, then known order, then first appearance. */
void figures_sort(run_figures *f);
/* Lowest attainment over the services of pool (all services when pool is NULL) that
 * report one; NAN when none does; *worst (borrowed, may be NULL) names it. */
double figures_min_attainment(const run_figures *f, const char *pool, const char **worst);

/* Formatting for tables (locale-independent, deterministic). NAN prints as "-". */
void figures_format(GString *out, figure_unit unit, double v);
/* A difference v - base: "+8", "-12.3 pp", "+1.50 h", "-$3371.64"; with the relative
 * change " (-25.0 %)" appended for money, counts, hours and durations when base != 0. */
void figures_format_delta(GString *out, figure_unit unit, double v, double base);
/* One aligned line of a text table: cells[0..ncols) two spaces apart, the first column
 * left-aligned and the others right-aligned to width[] (display characters), the columns
 * whose bit is set in skip left out, trailing blanks trimmed, then a newline. */
void figures_table_line(GString *out, char *const *cells, const gsize *width, guint ncols,
                        guint skip);
/* Unit name for CSV/JSON ("fraction", "s", "GPU-h", "$", "$/GPU-h", "count" ...). */
const char *figures_unit_name(figure_unit unit);

/* Text from a result folder is shown on terminals and in files: control characters
 * become '?' and invalid UTF-8 is repaired. Owned. */
char *figures_clean_text(const char *s);
/* Appends s as a JSON string literal (quotes, escapes, valid UTF-8). */
void figures_json_string(GString *out, const char *s);
/* Appends v as a JSON number (report_num's format) or null. */
void figures_json_number(GString *out, double v);

/* Adds the per-day rates of the totals that grow with the simulated span (cost_per_day,
 * allocated_gpu_h_per_day, busy_gpu_h_per_day, completed_per_day) from span_s; nothing
 * without a span. */
void figures_add_rates(run_figures *f);
/* TRUE when the runs' simulated spans differ by more than 0.1 %; note (may be NULL) then
 * receives one sentence naming each run's span (names: one per run). */
gboolean figures_spans_differ(const run_figures *const *runs, const char *const *names, guint n,
                              GString *note);
