/* test-nvconfig.c: NVIDIA's files as users hold them: a ConfigMap from kubectl (one key
 * chosen with FILE#KEY, positions inside the embedded config), a List of ConfigMaps, GPU
 * Operator Helm values (the default key), mig-parted device filters that name a display GPU,
 * and the resolved settings `check` prints. */
#include <criterion/criterion.h>
#include "testutil.h"
#include <string.h>
#include "scenario.h"
#include "nvconfig.h"

#define NVDIR TEST_DATA_DIR "/scenario/nvidia/"

TestSuite(nvconfig, .init = tu_tmp_setup, .fini = tu_tmp_teardown);

static void expect_msg(const diag_list *d, const char *want) {
  for (guint i = 0; i < d->messages->len; i++)
    if (!strcmp(g_ptr_array_index(d->messages, i), want)) return;
  g_autofree char *all = diag_join(d);
  cr_assert_fail("no message\n  %s\namong:\n%s", want, all);
}

static guint32 first_replicas(const nvconfig_sharing *c) {
  cr_assert_geq(c->resources->len, 1);
  return g_array_index(c->resources, nvconfig_resource, 0).replicas;
}

Test(nvconfig, configmap_key_chosen_with_hash) {
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(nvconfig_sharing) c = nvconfig_sharing_load(NVDIR "cm-time-slicing.yaml#a100-80gb", d);
  cr_assert_not_null(c, "%s", diag_join(d));
  cr_expect_eq(c->kind, NVCONFIG_SHARING_TIME_SLICING);
  cr_expect_eq(first_replicas(c), 8);
  cr_expect_str_eq(c->path, NVDIR "cm-time-slicing.yaml");
  cr_expect_str_eq(c->source, NVDIR "cm-time-slicing.yaml#a100-80gb (ConfigMap time-slicing-config)");
}

Test(nvconfig, configmap_errors_point_into_the_embedded_text) {
  g_autoptr(diag_list) d = diag_list_new(0);
  const char *p = NVDIR "cm-time-slicing.yaml";
  cr_assert_null(nvconfig_sharing_load(NVDIR "cm-time-slicing.yaml#tesla-t4", d));
  g_autofree char *want = g_strdup_printf("%s:25:11: sharing.timeSlicing.resources[1]: unknown key "
                                          "'colour'; valid keys: name, rename, devices, replicas", p);
  expect_msg(d, want);
}

Test(nvconfig, configmap_with_several_keys_names_them) {
  g_autoptr(diag_list) d = diag_list_new(0);
  const char *p = NVDIR "cm-time-slicing.yaml";
  cr_assert_null(nvconfig_sharing_load(p, d));
  g_autofree char *want = g_strdup_printf("%s:3:1: 2 data keys hold configs (a100-80gb, tesla-t4): "
                                          "name the one to use as FILE#KEY, e.g. '%s#a100-80gb', "
                                          "as the GPU Operator picks one per node", p, p);
  expect_msg(d, want);
  g_autoptr(diag_list) d2 = diag_list_new(0);
  cr_assert_null(nvconfig_sharing_load(NVDIR "cm-time-slicing.yaml#v100", d2));
  g_autofree char *want2 = g_strdup_printf("%s:3:1: no data key 'v100' (named after '#') (keys "
                                           "found: a100-80gb, tesla-t4)", p);
  expect_msg(d2, want2);
}

Test(nvconfig, list_of_configmaps) {
  g_autoptr(diag_list) d = diag_list_new(0);
  /* two ConfigMaps, two keys: ca.crt is not a config, so it must be named */
  g_autoptr(nvconfig_sharing) c = nvconfig_sharing_load(NVDIR "cm-list.yaml#mps-config/any", d);
  cr_assert_not_null(c, "%s", diag_join(d));
  cr_expect_eq(c->kind, NVCONFIG_SHARING_MPS);
  cr_expect_eq(first_replicas(c), 6);
  g_autoptr(nvconfig_sharing) c2 = nvconfig_sharing_load(NVDIR "cm-list.yaml#any", d);
  cr_assert_not_null(c2, "the bare key is enough when it is unique: %s", diag_join(d));
  g_autoptr(diag_list) d3 = diag_list_new(0);
  cr_assert_null(nvconfig_sharing_load(NVDIR "cm-list.yaml", d3));
  g_autofree char *all = diag_join(d3);
  cr_expect(strstr(all, "(kube-root-ca.crt/ca.crt, mps-config/any)") != NULL, "%s", all);
}

Test(nvconfig, helm_values_default_key_and_mig_manager) {
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(nvconfig_sharing) c = nvconfig_sharing_load(NVDIR "helm-values.yaml", d);
  cr_assert_not_null(c, "%s", diag_join(d));
  cr_expect_eq(first_replicas(c), 2);
  cr_expect_str_eq(c->source, NVDIR "helm-values.yaml#time-sliced-2");
  g_autoptr(nvconfig_sharing) ex = nvconfig_sharing_load(NVDIR "helm-values.yaml#exclusive", d);
  cr_assert_not_null(ex, "%s", diag_join(d));
  cr_expect_eq(ex->kind, NVCONFIG_SHARING_NONE);
  g_autoptr(nvconfig_mig) m = nvconfig_mig_load(NVDIR "helm-values.yaml", d);
  cr_assert_not_null(m, "%s", diag_join(d));
  const nvconfig_mig_config *cfg = nvconfig_mig_find(m, "all-3g.40gb");
  cr_assert_not_null(cfg);
  mig_layout l;
  const gpu_model *a80 = catalog_find("A100-80GB");
  cr_assert(nvconfig_mig_layout(cfg, a80, &l, NULL));
  g_autofree char *ls = catalog_layout_to_string(a80, &l);
  cr_expect_str_eq(ls, "3g.40gb x2");
}

Test(nvconfig, plain_file_with_a_key_is_refused) {
  g_autoptr(diag_list) d = diag_list_new(0);
  cr_assert_null(nvconfig_sharing_load(NVDIR "ts-4.yaml#any", d));
  g_autofree char *all = diag_join(d);
  cr_expect(strstr(all, "'#any' names a ConfigMap key, but this file is a plain config") != NULL,
            "%s", all);
}

Test(nvconfig, device_filter_of_a_display_gpu_is_ignored) {
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(nvconfig_mig) m = nvconfig_mig_load(NVDIR "dgx-station-80gb.yaml", d);
  cr_assert_not_null(m, "%s", diag_join(d));
  const gpu_model *a80 = catalog_find("A100-80GB");
  mig_layout l;
  g_autofree char *why = NULL;
  const nvconfig_mig_config *one = nvconfig_mig_find(m, "all-1g.10gb");
  cr_assert(nvconfig_mig_layout(one, a80, &l, &why), "%s", why ? why : "");
  g_autofree char *ls = catalog_layout_to_string(a80, &l);
  cr_expect_str_eq(ls, "1g.10gb x7");
  cr_assert(nvconfig_mig_layout(nvconfig_mig_find(m, "all-balanced"), a80, &l, NULL));
  g_autofree char *ign = nvconfig_mig_ignored(one, a80);
  cr_expect_str_eq(ign, "line 15 (device-filter 0x1FB010DE (not a MIG GPU sharesim knows))");
  /* all-disabled has no filter: it applies, and disables MIG */
  g_autofree char *why2 = NULL;
  cr_expect_not(nvconfig_mig_layout(nvconfig_mig_find(m, "all-disabled"), a80, &l, &why2));
  cr_expect_str_eq(why2, "config 'all-disabled' disables MIG (mig-enabled: false at line 7)");
}

Test(nvconfig, check_describes_resolved_settings) {
  g_autofree char *cm = g_build_filename(tu_tmp_dir, "cm.yaml", NULL);
  g_autofree char *text = NULL;
  cr_assert(g_file_get_contents(NVDIR "cm-time-slicing.yaml", &text, NULL, NULL));
  cr_assert(g_file_set_contents(cm, text, -1, NULL));
  g_autofree char *sp = tu_write_tmp("s.yaml", "name: t\npools:\n  - name: dev\n    gpu: A100-80GB\n"
                                     "    nodes: 2\n    sharing_config: cm.yaml#a100-80gb\n", -1);
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(scenario) s = scenario_load(sp, d);
  cr_assert_not_null(s, "%s", diag_join(d));
  g_autofree char *line = scenario_pool_describe(scenario_pool(s, 0));
  g_autofree char *want = g_strdup_printf("dev: 2 nodes x 8 A100-80GB, time-slicing, replicas 8 "
                                          "(from %s#a100-80gb (ConfigMap time-slicing-config)), oom "
                                          "all, $3.43/GPU-h", cm);
  cr_expect_str_eq(line, want);
}

/* NVIDIA's own mig-parted configs list a dozen PCI ids an entry: check names each model of
 * an ignored entry once with its count and counts the unknown ids, and names at most four
 * entries, so the line stays short (it once printed every id: 1,500 characters). */
Test(nvconfig, ignored_entries_stay_short) {
  g_autofree char *p = g_build_filename(tu_tmp_dir, "many-filters.yaml", NULL);
  GString *y = g_string_new("version: v1\nmig-configs:\n  all-1g:\n"
                            "    - device-filter: \"0x20B210DE\"\n      devices: all\n"
                            "      mig-enabled: true\n      mig-devices:\n        \"1g.10gb\": 7\n");
  for (int e = 0; e < 6; e++)
    g_string_append(y, "    - device-filter: [\"0x233010DE\", \"0x233110DE\", \"0x232210DE\", "
                       "\"0x233510DE\", \"0x1FB010DE\", \"0x1FB110DE\", \"0x20B710DE\"]\n"
                       "      devices: all\n      mig-enabled: false\n");
  cr_assert(g_file_set_contents(p, y->str, -1, NULL));
  g_string_free(y, TRUE);
  g_autoptr(diag_list) d = diag_list_new(0);
  g_autoptr(nvconfig_mig) m = nvconfig_mig_load(p, d);
  cr_assert_not_null(m, "%s", diag_join(d));
  g_autofree char *ign = nvconfig_mig_ignored(nvconfig_mig_find(m, "all-1g"), catalog_find("A100-80GB"));
  cr_assert_not_null(ign);
  cr_expect(g_str_has_prefix(ign, "line 9 (device-filter of 7 ids: H100-80GB x3, H200-141GB, A30, "
                                  "2 ids of GPUs sharesim has no MIG model for); line 12 ("),
            "%s", ign);
  cr_expect(g_str_has_suffix(ign, "; and 2 more entries"), "%s", ign);
  cr_expect_lt(strlen(ign), 600u, "%zu characters: %s", strlen(ign), ign);
}
