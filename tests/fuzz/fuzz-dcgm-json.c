/* fuzz-dcgm-json.c: the DCGM importer on a Prometheus range-query JSON export (any bytes),
 * with phases requested, once stopping at bad rows and once skipping them. */
#include "fuzz-import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  g_autofree char *p = fuzz_write("export.json", data, size);
  const char *files[] = {p};
  const char *opts[] = {"phases-out", "phases.csv", "kind-rule", "inference=ns:serve*", NULL};
  fuzz_import("dcgm", files, 1, FALSE, opts);
  fuzz_import("dcgm", files, 1, TRUE, opts);
  return 0;
}
