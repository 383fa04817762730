/* validate-fits.c: the fitted constants and the validate rows each was fitted on (issue 27:
 * calibration and prediction kept apart). A constant may be fitted on these rows and no
 * other; each row named is calibration, every calibration row is named, and no prediction
 * or analytic row is: validate_check_fits says where that does not hold. docs/models.md
 * (sections 10 and 12) quotes this table as `sharesim validate` prints it. */
#include "validate.h"
#include <string.h>

static const char *const fit_ts_loss[] = {"colfax.four.*", NULL};
static const char *const fit_ts_p[] = {"tally.ts.bert_p99", NULL};
static const char *const fit_ts_q[] = {"lucid.median_error", "lucid.p90_error",
                                       "lucid.median_vs_none", "lucid.p90_vs_none",
                                       "lucid.median_vs_constant", "lucid.p90_vs_constant",
                                       "lucid.speed_sum_*", NULL};
static const char *const fit_mps_beta[] = {"tally.mps.bert_p99", "tally.rank.bert", NULL};
static const char *const fit_mig[] = {"mig.*", NULL};
static const char *const fit_parva[] = {"parva.1g.b1.n2.*", "parva.1g.b8.n2.*", NULL};
static const char *const fit_llm_eff[] = {"vidur.*", NULL};
static const char *const fit_llm_step[] = {"llm.a100.c1.*", "llm.h100.c1.tpot_ms", NULL};
/* (their throughput and TPOT; the TTFT rows of the same runs are predictions) */
static const char *const fit_llm_stream[] = {"llm.h100.c16.tok_s", "llm.h100.c16.tpot_ms",
                                             "llm.h100.c64.tok_s", "llm.h100.c64.tpot_ms", NULL};
static const char *const fit_llm_frontend[] = {"llm.h100.c1.ttft_ms", NULL};
static const char *const fit_fgd[] = {"fgd.*", NULL};

static const validate_fit fits[] = {
    {"time-slicing loss ts_switch_loss 0.06 (the curve's a)", "SCENARIO_DEFAULT_TS_SWITCH_LOSS",
     fit_ts_loss},
    {"time-slicing curve exponent p 1.2", "SHARE_TS_CURVE_EXP", fit_ts_p},
    {"time-slicing curve exponent q 2 (on the even-numbered Lucid pairs; the full-set rows "
     "include them)",
     "SHARE_TS_OVERLAP_EXP", fit_ts_q},
    {"MPS block wait beta 1.08", "SCENARIO_DEFAULT_MPS_BLOCK_WAIT", fit_mps_beta},
    {"MIG cases' sm and gpu_util per model", "validate-mig.c", fit_mig},
    {"ParvaGPU cases' sm and gpu_util per model and batch (also on the one-process 1g-4g "
     "over 7g throughputs, which are no rows)",
     "validate-parva.c", fit_parva},
    {"LLM bandwidth and compute efficiency 0.76, 0.66, exponent 1.5",
     "LLM_EFF_BANDWIDTH, LLM_EFF_FLOPS", fit_llm_eff},
    {"LLM step overhead 0.54 ms (c = 1 throughput is its TPOT's inverse)", "LLM_STEP_OVERHEAD_NS",
     fit_llm_step},
    {"H100 sweep client's streaming cost 0.743 ms a token (it sets c = 16 and 64)",
     "validate-llm.c", fit_llm_stream},
    {"H100 sweep's front-end cost 7.29 ms a request (client, API server, input processing)",
     "validate-llm.c", fit_llm_frontend},
    {"FGD policies' implementation (developed on the openb default workload)",
     "src/sim/place/place-*.c, src/study/fill/fill.c", fit_fgd},
    {NULL, NULL, NULL},
};

const validate_fit *validate_fits(void) { return fits; }

/* Does pattern (an id, or a prefix ending in '*') name id? */
static gboolean fit_names(const char *pattern, const char *id) {
  gsize n = strlen(pattern);
  if (n && pattern[n - 1] == '*') return strncmp(pattern, id, n - 1) == 0;
  return strcmp(pattern, id) == 0;
}

gboolean validate_check_fits(const validate_ctx *c, const validate_fit *fit_table,
                             GString *problems) {
  gsize before = problems->len;
  for (guint i = 0; i < c->rows->len; i++) {
    const validate_row *r = g_ptr_array_index(c->rows, i);
    const char *by = NULL;
    for (const validate_fit *f = fit_table; f->constant && !by; f++)
      for (const char *const *p = f->rows; *p && !by; p++)
        if (fit_names(*p, r->id)) by = f->constant;
    if (by && r->kind != VALIDATE_CALIBRATION)
      g_string_append_printf(problems, "%s is a %s row, but %s was fitted on it\n", r->id,
                             validate_kind_name(r->kind), by);
    else if (!by && r->kind == VALIDATE_CALIBRATION)
      g_string_append_printf(problems, "%s is a calibration row that no fitted constant names\n",
                             r->id);
  }
  for (const validate_fit *f = fit_table; f->constant && !c->only; f++)
    for (const char *const *p = f->rows; *p; p++) {
      gboolean found = FALSE;
      for (guint i = 0; i < c->rows->len && !found; i++)
        found = fit_names(*p, ((const validate_row *)g_ptr_array_index(c->rows, i))->id);
      if (!found)
        g_string_append_printf(problems, "%s names '%s', which is no row\n", f->constant, *p);
    }
  return problems->len == before;
}
