/* fuzz-trace.c: the job trace reader (trace_load, SPEC 3.1) on any bytes; a trace that
 * loads is written back with every column (trace_write_row_full) and must load again. */
#include "fuzz.h"
#include "trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  g_autofree char *p = fuzz_write("trace.csv", data, size);
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(trace) t = trace_load(p, d);
  if (!t) return 0;
  GString *out = g_string_new(NULL);
  trace_write_header_full(out);
  for (guint i = 0; i < trace_n_jobs(t); i++) {
    job_spec j = trace_job(t, i);
    trace_write_row_full(out, &j);
  }
  g_autofree char *p2 = fuzz_write("trace2.csv", out->str, out->len);
  g_string_free(out, TRUE);
  g_autoptr(diag_list) d2 = diag_list_new(0);
  g_autoptr(trace) t2 = trace_load(p2, d2);
  if (!t2 || trace_n_jobs(t2) != trace_n_jobs(t)) abort(); /* written traces read back */
  return 0;
}
