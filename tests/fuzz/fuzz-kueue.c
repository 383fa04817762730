/* fuzz-kueue.c: the Kueue objects' reader (kueue.h) on any bytes; every file that loads is
 * described and its quota tree walked as a run does (quota.h): each ClusterQueue takes all it
 * may hold of each flavour, which must then leave it nothing, and gives it back. */
#include "fuzz.h"
#include "kueue.h"
#include "quota.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  g_autofree char *p = fuzz_write("kueue.yaml", data, size);
  g_autoptr(diag_list) d = diag_list_new(0);
  scenario_kueue *k = kueue_load(NULL, p, d);
  if (!k) return 0;
  GString *out = g_string_new(NULL);
  kueue_describe(out, k);
  g_string_free(out, TRUE);
  quota_state *q = quota_new(k);
  for (guint i = 0; i < k->nodes->len; i++) {
    if (!g_array_index(k->nodes, kueue_node, i).is_cq) continue;
    for (guint f = 0; f < k->flavors->len; f++) {
      int64_t most = quota_available(q, (int)i, (int)f);
      if (most != kueue_max(k, (int)i, (int)f)) abort(); /* empty: all it may ever hold */
      quota_add(q, (int)i, (int)f, most);
      if (quota_available(q, (int)i, (int)f) != 0) abort();
      quota_add(q, (int)i, (int)f, -most);
    }
  }
  quota_free(q);
  kueue_free(k);
  return 0;
}
