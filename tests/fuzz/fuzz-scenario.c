/* fuzz-scenario.c: the scenario reader (SPEC 3.4) with the files it may name. The input
 * holds up to five parts split at "--8<--" lines: the scenario, a device-plugin config
 * (sharing.yaml), a mig-parted config (mig.yaml), an interference table (interf.csv) and
 * --set overrides (one per line). A scenario that loads is also checked (strategies) and
 * its work estimated (budget.h) against a small trace. */
#include "fuzz.h"
#include "scenario.h"
#include "budget.h"
#include "sim.h"

static const char fuzz_scenario_trace[] =
    "id,submit_s,kind,gpus,mem_gb,duration_s,rate_rps,service_ms\n"
    "nb,0,notebook,1,4,3600,,\ninf,0,inference,1,8,3600,5,20\ntr,0,training,2,20,600,,\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const uint8_t *part[5];
  size_t len[5];
  fuzz_split(data, size, part, len, 5);
  g_autofree char *sp = fuzz_write("s.yaml", part[0], len[0]);
  g_autofree char *p1 = fuzz_write("sharing.yaml", part[1], len[1]);
  g_autofree char *p2 = fuzz_write("mig.yaml", part[2], len[2]);
  g_autofree char *p3 = fuzz_write("interf.csv", part[3], len[3]);
  g_autofree char *tp = fuzz_write("trace.csv", fuzz_scenario_trace, strlen(fuzz_scenario_trace));
  g_autofree char *sets_text = g_strndup((const char *)part[4], len[4]);
  g_auto(GStrv) sets = g_strsplit(sets_text, "\n", 5);
  guint n_sets = 0;
  while (sets[n_sets] && n_sets < 4 && *sets[n_sets]) n_sets++;
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(scenario) sc = n_sets ? scenario_load_with_overrides(sp, (const char *const *)sets,
                                                                 n_sets, d)
                                  : scenario_load(sp, d);
  if (!sc) return 0;
  sim_check_scenario(sc, d);
  g_autoptr(trace) tr = trace_load(tp, d);
  if (!tr) abort();
  sim_check_jobs(sc, tr, d);
  budget_estimate e;
  budget_estimate_run(sc, tr, TRUE, &e);
  for (guint i = 0; i < trace_n_jobs(tr); i++) {
    job_spec j = trace_job(tr, i);
    scenario_route(sc, &j);
  }
  return 0;
}
