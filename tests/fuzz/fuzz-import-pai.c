/* fuzz-import-pai.c: the Alibaba PAI importer on its tables (job, task, sensor and machine
 * spec: four parts split at "--8<--"), with the scenario requested, stopping at and
 * skipping bad rows. */
#include "fuzz-import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char *const names[] = {"pai_task_table.csv", "pai_job_table.csv",
                                      "pai_sensor_table.csv", "pai_machine_spec.csv"};
  const uint8_t *part[4];
  size_t len[4];
  size_t n = fuzz_split(data, size, part, len, 4);
  char *paths[4];
  for (size_t i = 0; i < 4; i++) paths[i] = fuzz_write(names[i], part[i], len[i]);
  const char *opts[] = {"scenario-out", "s.yaml", NULL};
  fuzz_import("alibaba-pai", (const char *const *)paths, (guint)n, FALSE, opts);
  fuzz_import("alibaba-pai", (const char *const *)paths, (guint)n, TRUE, opts);
  for (size_t i = 0; i < 4; i++) g_free(paths[i]);
  return 0;
}
