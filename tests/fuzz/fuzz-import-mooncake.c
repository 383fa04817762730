/* fuzz-import-mooncake.c: the Mooncake conversation-trace importer (JSON Lines) on one
 * file, with the requests file requested, stopping at and skipping bad lines. */
#include "fuzz-import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *path = fuzz_write("mooncake.jsonl", data, size);
  const char *files[] = {path};
  const char *opts[] = {"requests-out", "requests.csv", NULL};
  fuzz_import("mooncake", files, 1, FALSE, opts);
  fuzz_import("mooncake", files, 1, TRUE, opts);
  g_free(path);
  return 0;
}
