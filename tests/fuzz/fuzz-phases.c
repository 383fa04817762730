/* fuzz-phases.c: the phases reader (trace_load_phases, SPEC 3.2) on any bytes, against a
 * fixed trace with one job of each kind. */
#include "fuzz.h"
#include "trace.h"

static const char fuzz_phases_trace[] =
    "id,submit_s,kind,gpus,mem_gb,duration_s,rate_rps,service_ms\n"
    "nb,0,notebook,1,4,3600,,\ninf,0,inference,1,8,3600,5,20\n"
    "tr,0,training,2,20,600,,\nb,0,batch,1,2,60,,\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  g_autofree char *tp = fuzz_write("trace.csv", fuzz_phases_trace, strlen(fuzz_phases_trace));
  g_autofree char *pp = fuzz_write("phases.csv", data, size);
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(trace) t = trace_load(tp, d);
  if (!t) abort();
  trace_load_phases(t, pp, d);
  return 0;
}
