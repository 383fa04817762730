/* fuzz-dra.c: the DRA claims' reader (dra.h) on any bytes: the file's one claim with all its
 * requests, and when that loads, again with only its first request (dra_request), which
 * must then load with no more devices nor sharers, and MPS or MIG alike. */
#include "fuzz.h"
#include "dra.h"
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  g_autofree char *p = fuzz_write("claims.yaml", data, size);
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(dra_claim) c = dra_load_in(NULL, p, NULL, d);
  if (!c) return 0;
  g_autofree char *first = g_strdup(c->requests);
  char *comma = strchr(first, ',');
  if (comma) *comma = 0;
  g_autoptr(diag_list) d1 = diag_list_new(0);
  g_autoptr(dra_claim) one = dra_load_in(NULL, p, first, d1);
  if (!one || one->devices > c->devices || one->sharers > c->sharers) abort();
  if ((c->kind == DRA_MPS || c->kind == DRA_MIG) && one->kind != c->kind) abort();
  return 0;
}
