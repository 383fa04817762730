/* fuzz-interference.c: the measured pair-slowdown table reader (interference.h) on any
 * bytes, and a lookup in a table that loads. */
#include "fuzz.h"
#include "interference.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  g_autofree char *p = fuzz_write("interference.csv", data, size);
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(interference_table) t = interference_load(p, d);
  double v;
  if (t) interference_lookup(t, "a", "b", &v);
  return 0;
}
