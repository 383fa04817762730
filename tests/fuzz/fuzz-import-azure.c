/* fuzz-import-azure.c: the Azure LLM inference importer on one or two request logs (split
 * at "--8<--"), with the requests file requested, stopping at and skipping bad rows. */
#include "fuzz-import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const uint8_t *part[2];
  size_t len[2];
  size_t n = fuzz_split(data, size, part, len, 2);
  char *paths[2] = {fuzz_write("AzureLLMInferenceTrace_code.csv", part[0], len[0]),
                    fuzz_write("AzureLLMInferenceTrace_conv.csv", part[1], len[1])};
  const char *opts[] = {"requests-out", "requests.csv", NULL};
  fuzz_import("azure-llm", (const char *const *)paths, (guint)n, FALSE, opts);
  fuzz_import("azure-llm", (const char *const *)paths, (guint)n, TRUE, opts);
  g_free(paths[0]);
  g_free(paths[1]);
  return 0;
}
