/* cmd-load.c: the shared input path of `run` and `check` (and later compare, sweep,
 * size): scenario, trace, phases and requests loaded and every problem printed. */
#include "cmd-load.h"
#include "cmd.h"
#include "budget.h"
#include "sim.h"
#include <stdio.h>

int cmd_print_diags(const char *name, const diag_list *d) {
  for (guint i = 0; i < d->messages->len; i++)
    fprintf(stderr, "%s\n", (const char *)g_ptr_array_index(d->messages, i));
  if (d->count > d->messages->len)
    fprintf(stderr, "... and %u more problems\n", d->count - d->messages->len);
  fprintf(stderr, "sharesim %s: %u problem%s found\n", name, d->count, d->count == 1 ? "" : "s");
  return 2;
}

gboolean cmd_load_inputs(const char *name, const char *scenario_path, const char *trace_path,
                         const char *phases_path, const char *requests_path,
                         const char *const *overrides, guint n_overrides, cmd_inputs *out) {
  g_autoptr(diag_list) d = diag_list_new(0);
  out->sc = n_overrides ? scenario_load_with_overrides(scenario_path, overrides, n_overrides, d)
                        : scenario_load(scenario_path, d);
  if (out->sc) sim_check_scenario(out->sc, d);
  if (trace_path) {
    out->tr = trace_load_flags(trace_path, out->trace_flags, d);
    if (out->tr && phases_path) trace_load_phases(out->tr, phases_path, d);
    if (out->tr && requests_path) trace_check_requests(out->tr, requests_path, d);
    if (out->tr && (out->trace_flags & TRACE_SPILL)) trace_drop_index(out->tr);
  }
  if (diag_has_errors(d)) {
    cmd_print_diags(name, d);
    cmd_inputs_clear(out);
    return FALSE;
  }
  return TRUE;
}

void cmd_inputs_clear(cmd_inputs *in) {
  if (in->sc) scenario_free(in->sc);
  if (in->tr) trace_free(in->tr);
  in->sc = NULL;
  in->tr = NULL;
}

gboolean cmd_check_budget(const char *name, const scenario *sc, const trace *tr,
                          gboolean gpu_series) {
  if (!cmd_check_budget_rows(name, sc, tr, NULL, gpu_series)) return FALSE;
  if (!tr) return TRUE;
  g_autoptr(diag_list) d = diag_list_new(5); /* as many as `run` shows */
  sim_check_admission(sc, tr, d);
  if (!diag_has_errors(d)) return TRUE;
  cmd_print_diags(name, d);
  return FALSE;
}

gboolean cmd_check_budget_rows(const char *name, const scenario *sc, const trace *tr,
                               const budget_rows *rows, gboolean gpu_series) {
  g_autoptr(diag_list) d = diag_list_new(0);
  if (cmd_allow_large() ? budget_check_memory_limit_rows(sc, tr, rows, gpu_series, d)
                        : budget_check_rows(sc, tr, rows, gpu_series, d))
    return TRUE;
  cmd_print_diags(name, d);
  return FALSE;
}

scenario *cmd_scenario_checked(const char *path, const char *const *sets, guint n_sets,
                               const trace *tr, GError **error) {
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(scenario) sc = scenario_load_with_overrides(path, sets, n_sets, d);
  if (sc) sim_check_scenario(sc, d);
  if (sc && !diag_has_errors(d)) cmd_budget(sc, tr, FALSE, d);
  if (!sc || diag_has_errors(d)) {
    diag_to_error(d, error);
    return NULL;
  }
  return g_steal_pointer(&sc);
}

gboolean cmd_budget(const scenario *sc, const trace *tr, gboolean gpu_series, diag_list *d) {
  if (!(cmd_allow_large() ? budget_check_memory_limit(sc, tr, gpu_series, d)
                          : budget_check(sc, tr, gpu_series, d)))
    return FALSE;
  guint before = d->count;
  if (tr) sim_check_admission(sc, tr, d);
  return d->count == before;
}
