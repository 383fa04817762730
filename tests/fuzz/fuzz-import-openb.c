/* fuzz-import-openb.c: the Alibaba openb importer on a pod list and a node list (two parts
 * split at "--8<--"), with the scenario requested, stopping at and skipping bad rows. */
#include "fuzz-import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const uint8_t *part[2];
  size_t len[2];
  fuzz_split(data, size, part, len, 2);
  g_autofree char *pods = fuzz_write("openb_pod_list_default.csv", part[0], len[0]);
  g_autofree char *nodes = fuzz_write("openb_node_list_all_node.csv", part[1], len[1]);
  const char *files[] = {pods};
  const char *opts[] = {"nodes", nodes, "scenario-out", "s.yaml", NULL};
  fuzz_import("alibaba-openb", files, 1, FALSE, opts);
  fuzz_import("alibaba-openb", files, 1, TRUE, opts);
  return 0;
}
