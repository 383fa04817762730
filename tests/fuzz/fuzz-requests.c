/* fuzz-requests.c: the recorded-requests readers (SPEC 3.3) on any bytes: the check, the
 * streaming reader and, when the check passed, one job's pull cursor to the end. */
#include "fuzz.h"
#include "trace.h"

static const char fuzz_requests_trace[] =
    "id,submit_s,kind,gpus,mem_gb,duration_s,rate_rps,service_ms\n"
    "svc,0,inference,1,8,3600,5,20\nsvc2,0,inference,1,8,3600,5,20\ntr,0,training,1,2,60,,\n";

static gboolean fuzz_requests_row(guint32 job, double at_s, double service_ms, void *ud) {
  (*(guint *)ud)++;
  return TRUE;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  g_autofree char *tp = fuzz_write("trace.csv", fuzz_requests_trace, strlen(fuzz_requests_trace));
  g_autofree char *rp = fuzz_write("requests.csv", data, size);
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(trace) t = trace_load(tp, d);
  if (!t) abort();
  guint rows = 0;
  gboolean ok = trace_check_requests(t, rp, d);
  trace_requests_foreach(t, rp, fuzz_requests_row, &rows, d);
  if (!ok) return 0;
  trace_request_cursor *c = trace_request_cursor_open(rp, "svc", NULL);
  if (!c) return 0;
  double at, svc, last = 0;
  while (trace_request_cursor_next(c, &at, &svc)) {
    if (at < last) abort(); /* the check promised time order */
    last = at;
  }
  trace_request_cursor_free(c);
  return 0;
}
