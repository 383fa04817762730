/* fuzz-nvconfig.c: the NVIDIA config readers (nvconfig.h) on any bytes, as a device-plugin
 * sharing config and as a mig-parted config; every config of a mig-parted file that loads
 * is resolved against every MIG-capable catalogue model. */
#include "fuzz.h"
#include "nvconfig.h"
#include "catalog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  g_autofree char *p = fuzz_write("config.yaml", data, size);
  g_autoptr(diag_list) d = diag_list_new(0);
  nvconfig_sharing *s = nvconfig_sharing_load(p, d);
  if (s) nvconfig_sharing_free(s);
  g_autoptr(nvconfig_mig) m = nvconfig_mig_load(p, d);
  if (!m) return 0;
  g_autofree char *names = nvconfig_mig_names(m);
  guint n_models = 0;
  const gpu_model *models = catalog_models(&n_models);
  for (guint i = 0; i < m->configs->len; i++) {
    const nvconfig_mig_config *cfg = g_ptr_array_index(m->configs, i);
    for (guint k = 0; k < n_models; k++) {
      mig_layout out;
      char *msg = NULL;
      nvconfig_mig_layout(cfg, &models[k], &out, &msg);
      g_free(msg);
    }
  }
  return 0;
}
