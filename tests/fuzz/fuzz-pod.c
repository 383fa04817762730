/* fuzz-pod.c: the Pod files' reader (podspec.h) on any bytes: the file's one Pod or
 * workload; when it loads, its kind is HAMi or KAI and its values are within the ranges
 * the reader checks (cores and percentages in (0, 1] and (0, 100], a fraction in (0, 1]). */
#include "fuzz.h"
#include "podspec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  g_autofree char *p = fuzz_write("pod.yaml", data, size);
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(pod_gpu) g = podspec_load_in(NULL, p, d);
  if (!g) return 0;
  if (g->kind != POD_HAMI && g->kind != POD_KAI) abort();
  if (g->cores < 0 || g->cores > 1 || g->mem_percent < 0 || g->mem_percent > 100) abort();
  if (g->fraction < 0 || g->fraction > 1 || g->mem_mib < 0 || g->kai_mem_mib < 0) abort();
  return 0;
}
