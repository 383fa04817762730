/* validate-colfax.c: Colfax's four time-sliced tenants on one A30: four busy batch jobs on
 * a time-sliced A30 (replicas 4), each one's speed as a share of an ideal quarter, against
 * the loaded/idle ratios of memory bandwidth, large and small GEMM (calibration rows: the
 * time-slicing loss is fitted on them). */
#include "validate.h"

#define C_POOL                                                                               \
  "name: %s\nseed: 1\npools:\n  - name: p\n    gpu: A30\n    nodes: 1\n    gpus_per_node: 1\n" \
  "    strategy: time-slicing\n    replicas: 4\n"
#define C_HEAD "id,submit_s,kind,gpus,mem_gb,duration_s,busy\n"

static gboolean colfax_family(validate_ctx *c, GError **error) {
  g_autofree char *yaml = g_strdup_printf(C_POOL, "colfax-four");
  GString *csv = g_string_new(C_HEAD);
  for (int i = 0; i < 4; i++) g_string_append_printf(csv, "t%d,0,batch,1,5,1000,\n", i);
  results *r = validate_sim(c, "colfax-four", yaml, csv->str, NULL, error);
  g_string_free(csv, TRUE);
  if (!r) return FALSE;
  /* each tenant's throughput over an ideal quarter of the GPU: 4 x work / wall time */
  double share = 4.0 * 1000.0 / validate_job(r, "t0")->end_s;
  results_free(r);
  /* one value, 4 x the curve at three busy neighbours, which ts_switch_loss sets through
   * these rows (validate-fits.c); that a lone busy tenant runs at full speed restates the
   * curve (test-sharing.c), so it is no row */
  validate_set_kind(c, VALIDATE_CALIBRATION);
  static const char *const keys[] = {"colfax.bandwidth", "colfax.large_gemm", "colfax.small_gemm"};
  static const char *const what[] = {
      "4 busy tenants: per-tenant memory bandwidth / a quarter of one alone",
      "4 busy tenants: per-tenant large GEMM / a quarter of one alone",
      "4 busy tenants: per-tenant small GEMM / a quarter of one alone"};
  for (gsize k = 0; k < G_N_ELEMENTS(keys); k++) {
    const char *src;
    double m = validate_published(keys[k], &src);
    g_autofree char *id = g_strdup_printf("colfax.four.%s", keys[k] + 7);
    validate_rel(c, id, src, what[k], m, share, 0.05);
  }
  return TRUE;
}

const validate_family validate_colfax_family = {
    .name = "colfax",
    .summary = "four time-sliced tenants on one A30 (Colfax Research 2024)",
    .run = colfax_family,
};
