/* test-catalog.c: the GPU catalogue tables and the MIG layout algebra (suite 'catalog'):
 * lookups, table invariants, the documented counts of valid and maximal layouts (derived from
 * the placement rule [S1]), accepted and refused layouts with their exact messages, sizing numbers. */
#include <criterion/criterion.h>
#include <string.h>
#include "catalog.h"
#include "util.h"

static const gpu_model *model(const char *name) {
  const gpu_model *m = catalog_find(name);
  cr_assert_not_null(m, "model %s missing", name);
  return m;
}

/* Parses text on model; asserts success; returns the canonical text (owned). */
static char *parse_ok(const gpu_model *m, const char *text, mig_layout *l) {
  char *msg = NULL;
  gboolean ok = catalog_layout_parse(m, text, l, &msg);
  cr_assert(ok, "'%s' on %s refused: %s", text, m->name, msg ? msg : "(no message)");
  cr_assert_null(msg);
  return catalog_layout_to_string(m, l);
}

/* Parses text on model; asserts refusal; returns the message (owned, never NULL). */
static char *parse_bad(const gpu_model *m, const char *text) {
  mig_layout l;
  char *msg = NULL;
  gboolean ok = catalog_layout_parse(m, text, &l, &msg);
  cr_assert_not(ok, "'%s' on %s accepted", text, m->name);
  cr_assert_not_null(msg, "'%s' refused without a message", text);
  return msg;
}

static gboolean in_maximal(const gpu_model *m, GArray *maximal, const char *canon) {
  for (guint k = 0; k < maximal->len; k++) {
    g_autofree char *t = catalog_layout_to_string(m, &g_array_index(maximal, mig_layout, k));
    if (!strcmp(t, canon)) return TRUE;
  }
  return FALSE;
}

static const char *const eight_slot[] = {"A100-40GB",  "A100-80GB", "H100-80GB", "H100-NVL-94GB",
                                         "H200-141GB", "B200",      "GB200",     "B300"};

/* ---- lookups ------------------------------------------------------------------------ */

Test(catalog, models_in_catalogue_order) {
  g_autofree char *names = catalog_model_names();
  cr_assert_str_eq(names, "T4, L4, A10, L40S, A30, A100-40GB, A100-80GB, H100-80GB, "
                          "H100-NVL-94GB, H200-141GB, B200, GB200, B300, RTX-PRO-6000");
  guint n = 0;
  const gpu_model *ms = catalog_models(&n);
  cr_assert_eq(n, 14);
  cr_assert_str_eq(ms[0].name, "T4");
}

Test(catalog, find_is_case_insensitive_and_exact) {
  cr_assert_eq(catalog_find("a100-80gb"), catalog_find("A100-80GB"));
  cr_assert_str_eq(catalog_find("h100-nvl-94gb")->name, "H100-NVL-94GB");
  cr_assert_str_eq(catalog_find("b200")->name, "B200");
  cr_assert_null(catalog_find("A100"), "ambiguous name must not resolve");
  cr_assert_null(catalog_find("H100"));
  cr_assert_null(catalog_find(""));
  cr_assert_null(catalog_find(NULL));
  cr_assert_null(catalog_find("A100-80GB "));
}

Test(catalog, suggestions_for_partial_names) {
  g_autofree char *a = catalog_model_suggestions("a100");
  cr_assert_str_eq(a, "A100-40GB, A100-80GB");
  g_autofree char *none = catalog_model_suggestions("V100");
  cr_assert_null(none);
}

Test(catalog, model_facts) {
  const gpu_model *a = model("A100-80GB");
  cr_assert_eq(a->mem_bytes, INT64_C(81920) * 1048576);
  cr_assert_eq(a->sms, 108);
  cr_assert_eq(a->sms_mig, 98);
  cr_assert_float_eq(a->compute_capability, 8.0, 1e-9);
  cr_assert_float_eq(a->price_per_gpu_hour, 3.43, 1e-9);
  cr_assert_float_eq(model("A100-40GB")->price_per_gpu_hour, 2.74, 1e-9);
  cr_assert_float_eq(model("H100-80GB")->price_per_gpu_hour, 6.88, 1e-9);
  cr_assert_float_eq(model("H100-NVL-94GB")->price_per_gpu_hour, 6.98, 1e-9);
  cr_assert_float_eq(model("T4")->price_per_gpu_hour, 0.53, 1e-9);
  cr_assert_float_eq(model("T4")->compute_capability, 7.5, 1e-9);
  cr_assert_float_eq(model("A10")->compute_capability, 8.6, 1e-9);
  cr_assert_float_eq(model("L4")->compute_capability, 8.9, 1e-9);
  cr_assert_float_eq(model("H200-141GB")->compute_capability, 9.0, 1e-9);
  cr_assert_float_eq(model("B200")->compute_capability, 10.0, 1e-9);
  cr_assert_eq(model("A30")->mig_slots, 4);
  cr_assert_eq(model("T4")->mig_slots, 0);
  cr_assert_eq(model("L4")->n_profiles, 0);
}

Test(catalog, mps_client_limit_follows_compute_capability) {
  cr_assert_eq(catalog_mps_client_limit(model("T4")), 48); /* 7.5: the threshold itself */
  cr_assert_eq(catalog_mps_client_limit(model("A100-80GB")), 48);
  gpu_model v100 = {.name = "V100", .compute_capability = 7.0};
  cr_assert_eq(catalog_mps_client_limit(&v100), 16);
  gpu_model almost = {.name = "X", .compute_capability = 7.4};
  cr_assert_eq(catalog_mps_client_limit(&almost), 16);
  cr_assert_eq(catalog_mps_client_limit(NULL), 16);
}

Test(catalog, profile_and_vgpu_lookup) {
  const gpu_model *a = model("A100-80GB");
  cr_assert_eq(catalog_profile_index(a, "3g.40gb"), 2);
  cr_assert_eq(catalog_profile_index(a, "3G.40GB"), 2);
  cr_assert_eq(catalog_profile_index(a, "1g.10gb+me"), 6);
  cr_assert_eq(catalog_profile_index(a, "3g.20gb"), -1);
  cr_assert_eq(catalog_profile_index(model("T4"), "1g.5gb"), -1);
  const vgpu_profile *v = catalog_vgpu_find(a, "a100d-20c");
  cr_assert_not_null(v);
  cr_assert_eq(v->framebuffer_bytes, INT64_C(20480) * 1048576);
  cr_assert_eq(v->max_per_gpu, 4);
  cr_assert_eq(catalog_vgpu_find(model("H100-NVL-94GB"), "H100L-94C")->framebuffer_bytes,
               INT64_C(96246) * 1048576);
  cr_assert_null(catalog_vgpu_find(a, "A100-20C"));
  cr_assert_null(catalog_vgpu_find(model("A30"), "A30-4C"));
  /* issue 32: compute and desktop profiles of T4, A10, L4, L40S [S290][S291] */
  const vgpu_profile *t4c = catalog_vgpu_find(model("T4"), "T4-4C");
  cr_assert(t4c && t4c->framebuffer_bytes == INT64_C(4096) * 1048576 && t4c->max_per_gpu == 4 &&
            !t4c->desktop);
  const vgpu_profile *t4q = catalog_vgpu_find(model("T4"), "t4-1q");
  cr_assert(t4q && t4q->max_per_gpu == 16 && t4q->desktop);
  cr_assert_eq(catalog_vgpu_find(model("A10"), "A10-8C")->max_per_gpu, 3);
  cr_assert_eq(catalog_vgpu_find(model("L4"), "L4-6C")->max_per_gpu, 4);
  cr_assert_eq(catalog_vgpu_find(model("L40S"), "L40S-4C")->max_per_gpu, 12);
  cr_assert_eq(catalog_vgpu_find(model("L40S"), "L40S-1Q")->max_per_gpu, 32);
  cr_assert(catalog_vgpu_find(model("L40S"), "L40S-48Q")->desktop);
  cr_assert_not(catalog_vgpu_find(model("L40S"), "L40S-48C")->desktop);
  g_autofree char *names = catalog_profile_names(a);
  cr_assert_str_eq(names, "7g.80gb, 4g.40gb, 3g.40gb, 2g.20gb, 1g.20gb, 1g.10gb, 1g.10gb+me");
}

Test(catalog, starts_text_is_compact) {
  const gpu_model *a = model("A100-80GB");
  const char *want[] = {"0", "0", "0,4", "0,2,4", "0,2,4,6", "0-6", "0-6"};
  for (guint i = 0; i < a->n_profiles; i++) {
    g_autofree char *s = catalog_profile_starts_string(&a->profiles[i]);
    cr_assert_str_eq(s, want[i], "%s", a->profiles[i].name);
  }
  g_autofree char *a30 = catalog_profile_starts_string(&model("A30")->profiles[3]);
  cr_assert_str_eq(a30, "0-3");
}

/* Every table: canonical order, placements inside the axis, sane sizes. */
Test(catalog, tables_are_consistent) {
  guint n;
  const gpu_model *ms = catalog_models(&n);
  for (guint i = 0; i < n; i++) {
    const gpu_model *m = &ms[i];
    cr_assert(m->mem_bytes > 0 && m->sms > 0 && m->price_per_gpu_hour > 0, "%s", m->name);
    cr_assert_not_null(m->sources);
    cr_assert_eq(m->mig_slots == 0, m->n_profiles == 0, "%s", m->name);
    for (guint k = 0; k < m->n_profiles; k++) {
      const mig_profile *p = &m->profiles[k];
      cr_assert(p->max_count >= 1, "%s %s", m->name, p->name);
      cr_assert(!p->media || p->max_count == 1, "%s %s", m->name, p->name);
      cr_assert(p->sms <= m->sms_mig, "%s %s", m->name, p->name);
      cr_assert(catalog_profile_mem_bytes(p) < m->mem_bytes, "%s %s", m->name, p->name);
      for (guint s = 0; s < 8; s++)
        if (p->starts_mask & (1u << s))
          cr_assert(s + p->mem_slices <= m->mig_slots, "%s %s start %u", m->name, p->name, s);
      if (k > 0) {
        const mig_profile *q = &m->profiles[k - 1];
        gboolean ordered = q->compute_slices > p->compute_slices ||
                           (q->compute_slices == p->compute_slices &&
                            (q->mem_slices > p->mem_slices ||
                             (q->mem_slices == p->mem_slices && !q->media && p->media)));
        cr_assert(ordered, "%s: %s before %s breaks canonical order", m->name, q->name, p->name);
      }
    }
    int64_t board = 0; /* the largest profile: the whole board's frame buffer */
    for (guint k = 0; k < m->n_vgpu_profiles; k++)
      board = MAX(board, m->vgpu_profiles[k].framebuffer_bytes);
    for (guint k = 0; k < m->n_vgpu_profiles; k++) {
      const vgpu_profile *v = &m->vgpu_profiles[k];
      cr_assert(v->max_per_gpu >= 1 && v->max_per_gpu <= 32 && v->framebuffer_bytes > 0,
                "%s %s", m->name, v->name);
      /* max per GPU copies fit in the board's frame buffer (within 0.05 %: NVIDIA prints
       * H100L-47C x2 10 MiB over H100L-94C) */
      cr_assert(v->framebuffer_bytes * v->max_per_gpu <= board + board / 2000,
                "%s %s: %u x %" G_GINT64_FORMAT
                " > %" G_GINT64_FORMAT, m->name, v->name, v->max_per_gpu, v->framebuffer_bytes,
                board);
    }
  }
}

/* ---- counts (derived from the placement rule [S1]) ------------------------------------------------------- */

Test(catalog, eight_slot_gpus_have_77_valid_and_28_maximal_layouts) {
  for (guint i = 0; i < G_N_ELEMENTS(eight_slot); i++) {
    const gpu_model *m = model(eight_slot[i]);
    cr_assert_eq(catalog_count_valid_layouts(m, FALSE), 77, "%s", m->name);
    g_autoptr(GArray) maximal = catalog_maximal_layouts(m);
    cr_assert_eq(maximal->len, 28, "%s", m->name);
  }
}

Test(catalog, a30_has_4_maximal_layouts) {
  const gpu_model *m = model("A30");
  g_autoptr(GArray) maximal = catalog_maximal_layouts(m);
  cr_assert_eq(maximal->len, 4);
  const char *want[] = {"4g.24gb", "2g.12gb x2", "2g.12gb + 1g.6gb x2", "1g.6gb x4"};
  for (guint k = 0; k < 4; k++) {
    g_autofree char *t = catalog_layout_to_string(m, &g_array_index(maximal, mig_layout, k));
    cr_assert_str_eq(t, want[k]);
  }
  cr_assert_eq(catalog_count_valid_layouts(m, FALSE), 9);
}

Test(catalog, valid_layouts_lists_all_77_in_stable_order) {
  for (guint i = 0; i < G_N_ELEMENTS(eight_slot); i++) {
    const gpu_model *m = model(eight_slot[i]);
    g_autoptr(GArray) all = catalog_valid_layouts(m);
    cr_assert_eq(all->len, 77, "%s", m->name);
    g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    for (guint k = 0; k < all->len; k++) {
      const mig_layout *l = &g_array_index(all, mig_layout, k);
      cr_assert(l->n >= 1 && l->n <= 7, "%s #%u has %u instances", m->name, k, l->n);
      uint8_t idx[CATALOG_MAX_INSTANCES];
      for (guint j = 0; j < l->n; j++) {
        cr_assert(!m->profiles[l->inst[j].profile].media, "%s #%u uses +me", m->name, k);
        idx[j] = l->inst[j].profile;
      }
      mig_layout again;
      cr_assert(catalog_layout_place(m, idx, l->n, &again), "%s #%u not valid", m->name, k);
      char *t = catalog_layout_to_string(m, l);
      cr_assert(!g_hash_table_contains(seen, t), "%s: %s listed twice", m->name, t);
      g_hash_table_add(seen, t);
    }
    /* every maximal layout is among them */
    g_autoptr(GArray) maximal = catalog_maximal_layouts(m);
    for (guint k = 0; k < maximal->len; k++) {
      g_autofree char *t = catalog_layout_to_string(m, &g_array_index(maximal, mig_layout, k));
      cr_assert(g_hash_table_contains(seen, t), "%s: maximal %s missing", m->name, t);
    }
  }
  const gpu_model *m = model("A100-80GB");
  g_autoptr(GArray) all = catalog_valid_layouts(m);
  const struct { guint k; const char *text; double gib; } want[] = {
      {0, "7g.80gb", 79.0},       {4, "4g.40gb + 2g.20gb", 39.25}, {13, "3g.40gb x2", 39.25},
      {53, "2g.20gb", 19.5},      {70, "1g.10gb x7", 9.5},         {76, "1g.10gb", 9.5},
  };
  for (guint i = 0; i < G_N_ELEMENTS(want); i++) {
    const mig_layout *l = &g_array_index(all, mig_layout, want[i].k);
    g_autofree char *t = catalog_layout_to_string(m, l);
    cr_assert_str_eq(t, want[i].text, "#%u", want[i].k);
    cr_assert_float_eq((double)catalog_layout_largest_mem(m, l) / (double)UTIL_GIB, want[i].gib,
                       1e-9, "%s", t);
  }
  /* 3g.40gb x2: 39.25 GiB = 42144366592 bytes, 42.14 GB */
  cr_assert_eq(catalog_layout_largest_mem(m, &g_array_index(all, mig_layout, 13)), 42144366592);
}

Test(catalog, valid_layouts_of_a30_and_non_mig_models) {
  const gpu_model *m = model("A30");
  g_autoptr(GArray) all = catalog_valid_layouts(m);
  cr_assert_eq(all->len, 9);
  const char *want[] = {"4g.24gb",     "2g.12gb x2", "2g.12gb + 1g.6gb x2",
                        "2g.12gb + 1g.6gb", "2g.12gb",    "1g.6gb x4",
                        "1g.6gb x3",   "1g.6gb x2",  "1g.6gb"};
  for (guint k = 0; k < 9; k++) {
    g_autofree char *t = catalog_layout_to_string(m, &g_array_index(all, mig_layout, k));
    cr_assert_str_eq(t, want[k]);
  }
  g_autoptr(GArray) none = catalog_valid_layouts(model("T4"));
  cr_assert_eq(none->len, 0);
  g_autoptr(GArray) null_model = catalog_valid_layouts(NULL);
  cr_assert_eq(null_model->len, 0);
}

Test(catalog, non_mig_models_have_no_layouts) {
  cr_assert_eq(catalog_count_valid_layouts(model("T4"), FALSE), 0);
  g_autoptr(GArray) none = catalog_maximal_layouts(model("L4"));
  cr_assert_eq(none->len, 0);
}

Test(catalog, maximal_layouts_are_valid_and_cannot_grow) {
  for (guint i = 0; i < G_N_ELEMENTS(eight_slot); i++) {
    const gpu_model *m = model(eight_slot[i]);
    g_autoptr(GArray) maximal = catalog_maximal_layouts(m);
    for (guint k = 0; k < maximal->len; k++) {
      const mig_layout *l = &g_array_index(maximal, mig_layout, k);
      uint8_t idx[CATALOG_MAX_INSTANCES + 1];
      for (guint j = 0; j < l->n; j++) idx[j] = l->inst[j].profile;
      mig_layout again;
      cr_assert(catalog_layout_place(m, idx, l->n, &again));
      /* the placement does not overlap */
      guint used = 0;
      for (guint j = 0; j < l->n; j++) {
        const mig_profile *p = &m->profiles[l->inst[j].profile];
        guint bits = ((1u << p->mem_slices) - 1u) << l->inst[j].start;
        cr_assert_eq(used & bits, 0);
        cr_assert(p->starts_mask & (1u << l->inst[j].start));
        used |= bits;
      }
      for (guint p = 0; p < m->n_profiles; p++) {
        if (m->profiles[p].media) continue;
        idx[l->n] = (uint8_t)p;
        cr_assert_not(catalog_layout_place(m, idx, l->n + 1, NULL), "%s: maximal layout %u "
                      "still takes %s", m->name, k, m->profiles[p].name);
      }
    }
  }
}

/* The valid layouts derived from [S1], written with A100-40GB names; the same shapes hold on every 8-slot GPU. */
static const char *const facts_maximal[] = {
    "1g.5gb x7", "2g.10gb + 1g.5gb x5", "2g.10gb x2 + 1g.5gb x3", "2g.10gb x3 + 1g.5gb",
    "3g.20gb + 1g.5gb x4", "3g.20gb + 2g.10gb + 1g.5gb x2", "3g.20gb + 2g.10gb x2",
    "4g.20gb + 3g.20gb", "4g.20gb + 2g.10gb + 1g.5gb", "4g.20gb + 1g.5gb x3", "7g.40gb",
    "1g.10gb + 1g.5gb x6", "2g.10gb + 1g.10gb + 1g.5gb x4", "2g.10gb x2 + 1g.10gb + 1g.5gb x2",
    "2g.10gb x3 + 1g.10gb", "4g.20gb + 1g.10gb + 1g.5gb x2", "4g.20gb + 2g.10gb + 1g.10gb",
    /* maximal sets that leave compute slices idle */
    "3g.20gb x2", "1g.10gb x4", "3g.20gb + 1g.10gb x2", "2g.10gb + 1g.10gb x3",
    "4g.20gb + 1g.10gb x2", "3g.20gb + 2g.10gb + 1g.10gb", "3g.20gb + 1g.10gb + 1g.5gb x2",
};

Test(catalog, every_layout_listed_in_gpu_facts_is_valid_and_maximal) {
  const gpu_model *a40 = model("A100-40GB");
  for (guint k = 0; k < G_N_ELEMENTS(facts_maximal); k++) {
    mig_layout l;
    g_autofree char *canon = parse_ok(a40, facts_maximal[k], &l);
    cr_assert_str_eq(canon, facts_maximal[k]);
    for (guint i = 0; i < G_N_ELEMENTS(eight_slot); i++) {
      /* same shape on the other 8-slot GPUs: the tables share the canonical index order */
      const gpu_model *m = model(eight_slot[i]);
      uint8_t idx[CATALOG_MAX_INSTANCES];
      for (guint j = 0; j < l.n; j++) idx[j] = l.inst[j].profile;
      mig_layout on_m;
      cr_assert(catalog_layout_place(m, idx, l.n, &on_m), "%s on %s", facts_maximal[k],
                m->name);
      g_autofree char *text = catalog_layout_to_string(m, &on_m);
      g_autoptr(GArray) maximal = catalog_maximal_layouts(m);
      cr_assert(in_maximal(m, maximal, text), "%s (%s) not maximal on %s", text,
                facts_maximal[k], m->name);
    }
  }
}

Test(catalog, mig_parted_balanced_layouts_are_valid) {
  const char *balanced[][2] = {
      {"A100-40GB", "1g.5gb x2 + 2g.10gb + 3g.20gb"},
      {"A100-80GB", "1g.10gb x2 + 2g.20gb + 3g.40gb"},
      {"H100-80GB", "1g.10gb x2 + 2g.20gb + 3g.40gb"},
      {"H100-NVL-94GB", "1g.12gb x2 + 2g.24gb + 3g.47gb"},
      {"H200-141GB", "1g.18gb x2 + 2g.35gb + 3g.71gb"},
      {"B200", "1g.23gb x2 + 2g.45gb + 3g.90gb"},
      {"GB200", "1g.23gb x2 + 2g.47gb + 3g.93gb"},
      {"B300", "1g.34gb x2 + 2g.67gb + 3g.135gb"},
      {"RTX-PRO-6000", "1g.24gb x2 + 2g.48gb"},
      {"A30", "1g.6gb x2 + 2g.12gb"},
  };
  for (guint i = 0; i < G_N_ELEMENTS(balanced); i++) {
    mig_layout l;
    g_autofree char *t = parse_ok(model(balanced[i][0]), balanced[i][1], &l);
    cr_assert(l.n == 4 || l.n == 3);
  }
}

/* ---- parsing and placement ---------------------------------------------------------- */

Test(catalog, parses_the_documented_forms) {
  const gpu_model *m = model("A100-80GB");
  mig_layout l;
  g_autofree char *a = parse_ok(m, "3g.40gb x2", &l);
  cr_assert_str_eq(a, "3g.40gb x2");
  g_autofree char *pa = catalog_layout_placement_string(m, &l);
  cr_assert_str_eq(pa, "3g.40gb@0 3g.40gb@4");
  g_autofree char *b = parse_ok(m, "4g.40gb + 2g.20gb + 1g.10gb", &l);
  cr_assert_str_eq(b, "4g.40gb + 2g.20gb + 1g.10gb");
  g_autofree char *pb = catalog_layout_placement_string(m, &l);
  cr_assert_str_eq(pb, "4g.40gb@0 2g.20gb@4 1g.10gb@6");
  g_autofree char *c = parse_ok(m, "1g.10gb x7", &l);
  cr_assert_eq(l.n, 7);
  g_autofree char *d = parse_ok(m, "7g.80gb", &l);
  cr_assert_eq(l.n, 1);
  cr_assert_eq(l.inst[0].start, 0);
}

Test(catalog, parsing_tolerates_whitespace_case_and_order) {
  const gpu_model *m = model("A100-80GB");
  mig_layout l;
  g_autofree char *a = parse_ok(m, "  3G.40GB   X2\t", &l);
  cr_assert_str_eq(a, "3g.40gb x2");
  g_autofree char *b = parse_ok(m, "4g.40gb+3g.40gb", &l);
  cr_assert_str_eq(b, "4g.40gb + 3g.40gb");
  g_autofree char *c = parse_ok(m, "1g.10gb + 3g.40gb + 1g.10gb", &l);
  cr_assert_str_eq(c, "3g.40gb + 1g.10gb x2");
  g_autofree char *d = parse_ok(m, "1g.10gbx3", &l);
  cr_assert_str_eq(d, "1g.10gb x3");
  g_autofree char *e = parse_ok(m, "1g.10gb+me + 1g.10gb x 6\r\n", &l);
  cr_assert_str_eq(e, "1g.10gb x6 + 1g.10gb+me");
  g_autofree char *pe = catalog_layout_placement_string(m, &l);
  cr_assert_str_eq(pe, "1g.10gb@0 1g.10gb@1 1g.10gb@2 1g.10gb@3 1g.10gb@4 1g.10gb@5 "
                       "1g.10gb+me@6");
}

Test(catalog, refuses_over_max_count_with_named_profile_and_alternative) {
  g_autofree char *msg = parse_bad(model("A100-80GB"), "4g.40gb x2");
  cr_assert_str_eq(msg, "layout '4g.40gb x2' is not valid on A100-80GB: 4g.40gb may appear at "
                        "most once (max count 1); a valid layout with these profiles: "
                        "4g.40gb + 3g.40gb");
  g_autofree char *m2 = parse_bad(model("A100-80GB"), "2g.20gb x4");
  cr_assert_str_eq(m2, "layout '2g.20gb x4' is not valid on A100-80GB: 2g.20gb may appear at "
                       "most 3 times (max count 3); a valid layout with these profiles: "
                       "2g.20gb x3 + 1g.20gb");
}

Test(catalog, refuses_interval_conflicts_naming_the_profiles) {
  const gpu_model *m = model("A100-80GB");
  g_autofree char *a = parse_bad(m, "3g.40gb x2 + 1g.10gb");
  cr_assert_str_eq(a, "layout '3g.40gb x2 + 1g.10gb' is not valid on A100-80GB: no placement; "
                      "3g.40gb x2 uses memory slices 0-7, leaving none for 1g.10gb (it can "
                      "start at 0-6); a valid layout with these profiles: 3g.40gb x2");
  g_autofree char *b = parse_bad(m, "1g.10gb x4 + 2g.20gb x2");
  cr_assert_str_eq(b, "layout '1g.10gb x4 + 2g.20gb x2' is not valid on A100-80GB: no "
                      "placement; 2g.20gb x2 + 1g.10gb x3 uses memory slices 0-6, leaving only "
                      "slice 7 free; 1g.10gb does not fit there (it can start at 0-6); a valid "
                      "layout with these profiles: 2g.20gb x2 + 1g.10gb x3");
  g_autofree char *c = parse_bad(m, "7g.80gb + 1g.20gb");
  cr_assert(strstr(c, "7g.80gb uses memory slices 0-7, leaving none for 1g.20gb (2 slices "
                      "starting at 0,2,4,6)"), "%s", c);
  g_autofree char *d = parse_bad(model("A30"), "4g.24gb + 1g.6gb");
  cr_assert_str_eq(d, "layout '4g.24gb + 1g.6gb' is not valid on A30: no placement; 4g.24gb "
                      "uses memory slices 0-3, leaving none for 1g.6gb (it can start at 0-3); "
                      "a valid layout with these profiles: 4g.24gb");
}

Test(catalog, refuses_two_media_instances) {
  g_autofree char *a = parse_bad(model("A30"), "1g.6gb+me + 2g.12gb+me");
  cr_assert_str_eq(a, "layout '1g.6gb+me + 2g.12gb+me' is not valid on A30: only one '+me' "
                      "(media extensions) instance fits on a GPU, the layout has 2 (2g.12gb+me "
                      "+ 1g.6gb+me); a valid layout with these profiles: 2g.12gb+me + 1g.6gb");
  g_autofree char *b = parse_bad(model("H100-80GB"), "1g.10gb+me x2");
  cr_assert_str_eq(b, "layout '1g.10gb+me x2' is not valid on H100-80GB: 1g.10gb+me may appear "
                      "at most once (max count 1); a valid layout with these profiles: 1g.10gb "
                      "+ 1g.10gb+me");
}

Test(catalog, refuses_too_many_instances) {
  g_autofree char *a = parse_bad(model("A100-80GB"), "1g.10gb x8");
  cr_assert_str_eq(a, "layout '1g.10gb x8' is not valid on A100-80GB: 1g.10gb may appear at "
                      "most 7 times (max count 7); at most 7 GPU instances fit on A100-80GB, "
                      "the layout has 8; a valid layout with these profiles: 1g.10gb x7");
  g_autofree char *b = parse_bad(model("A100-80GB"), "1g.10gb x99999999999999999999999999");
  cr_assert(strstr(b, "too many instances of 1g.10gb: at most 7 GPU instances fit on "
                      "A100-80GB; a valid layout with these profiles: 1g.10gb x7"), "%s", b);
}

Test(catalog, unknown_profile_lists_the_models_profiles) {
  g_autofree char *a = parse_bad(model("A100-80GB"), "5g.50gb");
  cr_assert_str_eq(a, "layout '5g.50gb' is not valid on A100-80GB: unknown MIG profile "
                      "'5g.50gb'; profiles of A100-80GB: 7g.80gb, 4g.40gb, 3g.40gb, 2g.20gb, "
                      "1g.20gb, 1g.10gb, 1g.10gb+me");
  g_autofree char *b = parse_bad(model("A100-80GB"), "3g.20gb x2");
  cr_assert(strstr(b, "unknown MIG profile '3g.20gb' (a profile of A100-40GB); profiles of "
                      "A100-80GB:"), "%s", b);
}

Test(catalog, non_mig_model_refuses_layouts) {
  g_autofree char *a = parse_bad(model("T4"), "1g.5gb");
  cr_assert_str_eq(a, "T4 does not support MIG; MIG-capable models: A30, A100-40GB, A100-80GB, "
                      "H100-80GB, H100-NVL-94GB, H200-141GB, B200, GB200, B300, RTX-PRO-6000");
}

Test(catalog, syntax_errors_say_what_was_expected) {
  const gpu_model *m = model("A100-80GB");
  g_autofree char *a = parse_bad(m, "3g.40gb *2");
  cr_assert(strstr(a, "write counts as 'xN', as in '3g.40gb x2'"), "%s", a);
  g_autofree char *b = parse_bad(m, "2x 3g.40gb");
  cr_assert(strstr(b, "put the count after the profile, as in '3g.40gb x2'"), "%s", b);
  g_autofree char *c = parse_bad(m, "   ");
  cr_assert(strstr(c, "empty layout; expected profiles joined by '+'"), "%s", c);
  g_autofree char *d = parse_bad(m, "3g.40gb +");
  cr_assert(strstr(d, "expected a MIG profile after the last '+'"), "%s", d);
  g_autofree char *e = parse_bad(m, "1g.10gb x0");
  cr_assert(strstr(e, "count of 1g.10gb must be at least 1"), "%s", e);
  g_autofree char *f = parse_bad(m, "3g.40gb x");
  cr_assert(strstr(f, "expected a count after 'x' (as in '3g.40gb x2'), found 'end of text'"),
            "%s", f);
  g_autofree char *g = parse_bad(m, "3g.40gb x2 x3");
  cr_assert(strstr(g, "expected '+' or the end after '3g.40gb', found 'x3'"), "%s", g);
  g_autofree char *h = parse_bad(m, "3g.40gb, 1g.10gb");
  cr_assert(strstr(h, "found ', 1g.10gb'"), "%s", h);
}

Test(catalog, hostile_text_never_crashes) {
  const gpu_model *m = model("H100-80GB");
  const char *inputs[] = {"\xff\xfe\x01", "++", "+", "x", "x2", "*", "1g.10gb+me+me",
                          "1g.10gb++1g.10gb", ".....", "1g.10gb x-1", "1g.10gb x1.5",
                          "\"3g.40gb\"", "3g.40gb # comment", "1g.10gb x00000000000000000001"};
  for (guint i = 0; i < G_N_ELEMENTS(inputs); i++) {
    mig_layout l;
    char *msg = NULL;
    gboolean ok = catalog_layout_parse(m, inputs[i], &l, &msg);
    if (!ok) cr_assert_not_null(msg, "input %u", i);
    g_free(msg);
  }
  /* a very long layout */
  GString *big = g_string_new(NULL);
  for (int i = 0; i < 5000; i++) g_string_append(big, "1g.10gb + ");
  g_string_append(big, "1g.10gb");
  g_autofree char *msg = parse_bad(m, big->str);
  cr_assert(strlen(msg) < 400, "message stays short (%zu)", strlen(msg));
  g_string_free(big, TRUE);
  /* a single long name */
  g_autofree char *longname = g_strnfill(10000, 'g');
  g_autofree char *m2 = parse_bad(m, longname);
  cr_assert(strlen(m2) < 400);
  /* NULL model and NULL text */
  mig_layout l;
  char *m3 = NULL;
  cr_assert_not(catalog_layout_parse(NULL, "1g.10gb", &l, &m3));
  cr_assert_not_null(m3);
  g_free(m3);
  char *m4 = NULL;
  cr_assert_not(catalog_layout_parse(m, NULL, &l, &m4));
  g_free(m4);
  cr_assert_not(catalog_layout_parse(m, "4g.40gb x2", &l, NULL));
}

Test(catalog, validate_with_indices_for_yaml_lists) {
  const gpu_model *m = model("A100-80GB");
  uint8_t ok[] = {5, 2, 5}; /* 1g.10gb, 3g.40gb, 1g.10gb */
  mig_layout l;
  char *msg = NULL;
  cr_assert(catalog_layout_validate(m, ok, 3, &l, &msg));
  cr_assert_null(msg);
  g_autofree char *t = catalog_layout_to_string(m, &l);
  cr_assert_str_eq(t, "3g.40gb + 1g.10gb x2");
  uint8_t bad[] = {2, 2, 5};
  cr_assert_not(catalog_layout_validate(m, bad, 3, &l, &msg));
  cr_assert(strstr(msg, "layout '3g.40gb x2 + 1g.10gb' is not valid on A100-80GB: no placement"),
            "%s", msg);
  g_free(msg);
  uint8_t out_of_range[] = {99};
  cr_assert_not(catalog_layout_validate(m, out_of_range, 1, &l, &msg));
  cr_assert(strstr(msg, "MIG profile index 99 is out of range for A100-80GB"), "%s", msg);
  g_free(msg);
  cr_assert_not(catalog_layout_place(m, ok, 0, &l));
  cr_assert(catalog_layout_place(m, ok, 2, NULL));
}

/* ---- sizing ------------------------------------------------------------------------- */

Test(catalog, largest_memory_and_sms_per_layout) {
  const gpu_model *a = model("A100-80GB");
  mig_layout l;
  g_autofree char *t1 = parse_ok(a, "3g.40gb x2", &l);
  cr_assert_eq(catalog_layout_largest_mem(a, &l), (int64_t)(39.25 * 1073741824.0));
  cr_assert_eq(catalog_layout_total_sms(a, &l), 84);
  g_autofree char *t2 = parse_ok(a, "1g.10gb x7", &l);
  cr_assert_eq(catalog_layout_largest_mem(a, &l), INT64_C(9728) * 1048576);
  cr_assert_eq(catalog_layout_total_sms(a, &l), 98);
  g_autofree char *t3 = parse_ok(a, "4g.40gb + 2g.20gb + 1g.10gb", &l);
  cr_assert_eq(catalog_layout_largest_mem(a, &l), (int64_t)(39.25 * 1073741824.0));
  cr_assert_eq(catalog_layout_total_sms(a, &l), 98);
  const gpu_model *h = model("H100-80GB");
  g_autofree char *t4 = parse_ok(h, "1g.10gb x7", &l);
  cr_assert_eq(catalog_layout_total_sms(h, &l), 112);
  cr_assert_eq(catalog_layout_largest_mem(h, &l), INT64_C(9984) * 1048576);
  g_autofree char *t5 = parse_ok(h, "7g.80gb", &l);
  cr_assert_eq(catalog_layout_total_sms(h, &l), 132);
  mig_layout empty = {0};
  cr_assert_eq(catalog_layout_largest_mem(a, &empty), 0);
  g_autofree char *e = catalog_layout_to_string(a, &empty);
  cr_assert_str_eq(e, "");
}

Test(catalog, maximal_layouts_in_stable_order_largest_first) {
  const gpu_model *m = model("A100-80GB");
  g_autoptr(GArray) a = catalog_maximal_layouts(m);
  g_autoptr(GArray) b = catalog_maximal_layouts(m);
  cr_assert_eq(a->len, b->len);
  for (guint k = 0; k < a->len; k++) {
    g_autofree char *x = catalog_layout_to_string(m, &g_array_index(a, mig_layout, k));
    g_autofree char *y = catalog_layout_to_string(m, &g_array_index(b, mig_layout, k));
    cr_assert_str_eq(x, y);
  }
  g_autofree char *first = catalog_layout_to_string(m, &g_array_index(a, mig_layout, 0));
  g_autofree char *second = catalog_layout_to_string(m, &g_array_index(a, mig_layout, 1));
  g_autofree char *last = catalog_layout_to_string(m, &g_array_index(a, mig_layout, a->len - 1));
  cr_assert_str_eq(first, "7g.80gb");
  cr_assert_str_eq(second, "4g.40gb + 3g.40gb");
  cr_assert_str_eq(last, "1g.10gb x7");
  /* no +me profile in any maximal layout */
  for (guint k = 0; k < a->len; k++) {
    const mig_layout *l = &g_array_index(a, mig_layout, k);
    for (guint j = 0; j < l->n; j++) cr_assert_not(m->profiles[l->inst[j].profile].media);
  }
}

/* Issue 30: the driver's product names (DCGM's modelName, nvidia-smi's name) get the
 * catalogue model they stand for as the "did you mean"; an unknown part gets none. */
Test(catalog, product_names_suggest_their_model) {
  static const char *const cases[][2] = {
      {"NVIDIA A100-SXM4-80GB", "A100-80GB"}, {"NVIDIA A100-PCIE-40GB", "A100-40GB"},
      {"NVIDIA A100 80GB PCIe", "A100-80GB"}, {"NVIDIA H100 80GB HBM3", "H100-80GB"},
      {"NVIDIA H100 NVL", "H100-NVL-94GB"},   {"NVIDIA H100 PCIe", "H100-80GB"},
      {"Tesla T4", "T4"},                     {"NVIDIA L4", "L4"},
      {"NVIDIA A10", "A10"},                  {"NVIDIA H200", "H200-141GB"},
      {"NVIDIA A100-SXM4", "A100-40GB, A100-80GB"},
  };
  for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autofree char *s = catalog_model_suggestions(cases[i][0]);
    cr_expect(s && !strcmp(s, cases[i][1]), "%s: got '%s', expected '%s'", cases[i][0],
              s ? s : "(none)", cases[i][1]);
  }
  static const char *const blackwell[][2] = {
      {"NVIDIA L40S", "L40S"},
      {"NVIDIA GB200", "GB200"},
      {"NVIDIA B300 SXM6 AC", "B300"},
      {"NVIDIA RTX PRO 6000 Blackwell Server Edition", "RTX-PRO-6000"},
      {"NVIDIA B200", "B200"},
  };
  for (guint i = 0; i < G_N_ELEMENTS(blackwell); i++) {
    g_autofree char *s = catalog_model_suggestions(blackwell[i][0]);
    cr_expect(s && !strcmp(s, blackwell[i][1]), "%s: got '%s'", blackwell[i][0], s ? s : "(none)");
  }
  g_autofree char *none = catalog_model_suggestions("NVIDIA RTX PRO 5000 Blackwell");
  cr_expect_null(none, "RTX PRO 5000 is not in the catalogue: %s", none);
}

/* Issue 30: every model carries what the DCGM export writes for it (run --dcgm): the
 * product name DCGM's modelName prints, which maps back to the model, a datasheet TDP for
 * the power model and the clocks of the synthetic clock gauges. */
Test(catalog, every_model_has_its_dcgm_identity) {
  guint n = 0;
  const gpu_model *m = catalog_models(&n);
  for (guint i = 0; i < n; i++) {
    cr_assert(m[i].product_name, "%s has no product name", m[i].name);
    g_autofree char *s = catalog_model_suggestions(m[i].product_name);
    cr_expect(s && !strcmp(s, m[i].name), "%s: '%s' suggests '%s'", m[i].name,
              m[i].product_name, s ? s : "(none)");
    cr_expect(m[i].tdp_w >= 70 && m[i].tdp_w <= 1200, "%s: TDP %g W", m[i].name, m[i].tdp_w);
    cr_expect(m[i].sm_clock_mhz > 1000 && m[i].mem_clock_mhz > 1000, "%s: clocks %g/%g",
              m[i].name, m[i].sm_clock_mhz, m[i].mem_clock_mhz);
  }
}

/* ---- issue 32: the Blackwell models against the documented placement table ------------
 * The table is written out here on its own (not read from catalog.c): per profile class its
 * compute slices, memory slices, allowed starts and max count, as docs/catalog.md section 2
 * gives them (8-slot: [S1]'s table, assumed for GB200 and B300; 4-slot: the A30's [S44],
 * assumed for the RTX PRO 6000). Every count vector up to the max counts is judged by a
 * brute force over every start of every instance, and catalog.c must agree on each. */

typedef struct {
  const char *name;
  guint g, width, max;
  const guint *starts;
  guint n_starts;
  gboolean media;
} doc_class;

static const guint st0[] = {0}, st04[] = {0, 4}, st024[] = {0, 2, 4}, st_even[] = {0, 2, 4, 6},
                   st06[] = {0, 1, 2, 3, 4, 5, 6}, st02[] = {0, 2}, st03[] = {0, 1, 2, 3};
#define DOC(n, g, w, max, st, me) {n, g, w, max, st, G_N_ELEMENTS(st), me}

static gboolean doc_fits(const doc_class *t, const guint *idx, guint n, guint k, guint32 used,
                         guint slots) {
  if (k == n) return TRUE;
  const doc_class *c = &t[idx[k]];
  for (guint s = 0; s < c->n_starts; s++) {
    guint st = c->starts[s];
    guint32 bits = ((1u << c->width) - 1u) << st;
    if (st + c->width > slots || (used & bits)) continue;
    if (doc_fits(t, idx, n, k + 1, used | bits, slots)) return TRUE;
  }
  return FALSE;
}

/* Checks model m against table t exhaustively; returns the number of valid layouts without
 * media profiles. */
static guint check_against_table(const gpu_model *m, const doc_class *t, guint nt, guint slots,
                                 guint max_inst) {
  cr_assert_eq(m->n_profiles, nt, "%s: %u profiles", m->name, m->n_profiles);
  cr_assert_eq(m->mig_slots, slots);
  g_autoptr(GArray) listed = catalog_valid_layouts(m);
  g_autoptr(GHashTable) want = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  guint counts[8] = {0}, valid_plain = 0;
  for (;;) {
    guint idx[64], n = 0, compute = 0, media = 0;
    uint8_t pidx[64];
    for (guint i = 0; i < nt; i++)
      for (guint j = 0; j < counts[i]; j++) {
        idx[n] = i;
        int p = catalog_profile_index(m, t[i].name);
        cr_assert(p >= 0, "%s has no %s", m->name, t[i].name);
        pidx[n++] = (uint8_t)p;
        compute += t[i].g;
        media += t[i].media;
      }
    if (n > 0) {
      gboolean ok = n <= max_inst && compute <= max_inst && media <= 1 &&
                    doc_fits(t, idx, n, 0, 0, slots);
      mig_layout l;
      gboolean got = n <= CATALOG_MAX_INSTANCES && catalog_layout_place(m, pidx, n, &l);
      cr_assert_eq(got, ok, "%s: layout %u instances: table says %d, catalogue %d", m->name, n,
                   ok, got);
      if (ok && !media) {
        valid_plain++;
        g_hash_table_add(want, catalog_layout_to_string(m, &l));
      }
    }
    guint i = 0;
    while (i < nt && counts[i] == t[i].max) counts[i++] = 0;
    if (i == nt) break;
    counts[i]++;
  }
  cr_assert_eq(listed->len, valid_plain, "%s lists %u valid layouts, the table gives %u", m->name,
               listed->len, valid_plain);
  for (guint k = 0; k < listed->len; k++) {
    const mig_layout *l = &g_array_index(listed, mig_layout, k);
    g_autofree char *text = catalog_layout_to_string(m, l);
    cr_assert(g_hash_table_contains(want, text), "%s: %s is not valid by the table", m->name,
              text);
    /* the placement shown keeps to the documented starts and tiles without overlap */
    guint32 used = 0;
    for (guint j = 0; j < l->n; j++) {
      const mig_profile *p = &m->profiles[l->inst[j].profile];
      const doc_class *c = NULL;
      for (guint i = 0; i < nt; i++)
        if (!strcmp(t[i].name, p->name)) c = &t[i];
      cr_assert_not_null(c);
      gboolean allowed = FALSE;
      for (guint s = 0; s < c->n_starts; s++) allowed |= c->starts[s] == l->inst[j].start;
      cr_assert(allowed, "%s: %s@%u", m->name, p->name, l->inst[j].start);
      guint32 bits = ((1u << c->width) - 1u) << l->inst[j].start;
      cr_assert_eq(used & bits, 0, "%s: %s overlaps", m->name, text);
      used |= bits;
    }
  }
  return valid_plain;
}

Test(catalog, blackwell_layouts_agree_with_the_documented_table) {
  static const doc_class gb200[] = {
      DOC("7g.186gb", 7, 8, 1, st0, FALSE),   DOC("4g.93gb", 4, 4, 1, st0, FALSE),
      DOC("3g.93gb", 3, 4, 2, st04, FALSE),   DOC("2g.47gb", 2, 2, 3, st024, FALSE),
      DOC("1g.47gb", 1, 2, 4, st_even, FALSE), DOC("1g.23gb", 1, 1, 7, st06, FALSE),
      DOC("1g.23gb+me", 1, 1, 1, st06, TRUE),
  };
  static const doc_class b300[] = {
      DOC("7g.269gb", 7, 8, 1, st0, FALSE),   DOC("4g.135gb", 4, 4, 1, st0, FALSE),
      DOC("3g.135gb", 3, 4, 2, st04, FALSE),  DOC("2g.67gb", 2, 2, 3, st024, FALSE),
      DOC("1g.67gb", 1, 2, 4, st_even, FALSE), DOC("1g.34gb", 1, 1, 7, st06, FALSE),
      DOC("1g.34gb+me", 1, 1, 1, st06, TRUE),
  };
  static const doc_class rtx[] = {
      DOC("4g.96gb", 4, 4, 1, st0, FALSE),
      DOC("2g.48gb", 2, 2, 2, st02, FALSE),
      DOC("1g.24gb", 1, 1, 4, st03, FALSE),
  };
  cr_assert_eq(check_against_table(model("GB200"), gb200, G_N_ELEMENTS(gb200), 8, 7), 77);
  cr_assert_eq(check_against_table(model("B300"), b300, G_N_ELEMENTS(b300), 8, 7), 77);
  cr_assert_eq(check_against_table(model("RTX-PRO-6000"), rtx, G_N_ELEMENTS(rtx), 4, 4), 9);
}

/* Each new model's single-profile layouts (mig-parted's all-* configs [S3]) tile the slices
 * the placement table says: the 1-slice class fills 0-6, the 2-slice ones step by two, ... */
Test(catalog, blackwell_single_profile_layouts_tile_their_slices) {
  static const char *const cases[][3] = {
      {"GB200", "1g.23gb x7", "1g.23gb@0 1g.23gb@1 1g.23gb@2 1g.23gb@3 1g.23gb@4 1g.23gb@5 1g.23gb@6"},
      {"GB200", "1g.47gb x4", "1g.47gb@0 1g.47gb@2 1g.47gb@4 1g.47gb@6"},
      {"GB200", "2g.47gb x3", "2g.47gb@0 2g.47gb@2 2g.47gb@4"},
      {"GB200", "3g.93gb x2", "3g.93gb@0 3g.93gb@4"},
      {"GB200", "4g.93gb + 3g.93gb", "4g.93gb@0 3g.93gb@4"},
      {"GB200", "7g.186gb", "7g.186gb@0"},
      {"B300", "1g.34gb x7", "1g.34gb@0 1g.34gb@1 1g.34gb@2 1g.34gb@3 1g.34gb@4 1g.34gb@5 1g.34gb@6"},
      {"B300", "1g.67gb x4", "1g.67gb@0 1g.67gb@2 1g.67gb@4 1g.67gb@6"},
      {"B300", "2g.67gb x3", "2g.67gb@0 2g.67gb@2 2g.67gb@4"},
      {"B300", "3g.135gb x2", "3g.135gb@0 3g.135gb@4"},
      {"B300", "7g.269gb", "7g.269gb@0"},
      {"RTX-PRO-6000", "1g.24gb x4", "1g.24gb@0 1g.24gb@1 1g.24gb@2 1g.24gb@3"},
      {"RTX-PRO-6000", "2g.48gb x2", "2g.48gb@0 2g.48gb@2"},
      {"RTX-PRO-6000", "4g.96gb", "4g.96gb@0"},
  };
  for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
    mig_layout l;
    g_autofree char *t = parse_ok(model(cases[i][0]), cases[i][1], &l);
    g_autofree char *pl = catalog_layout_placement_string(model(cases[i][0]), &l);
    cr_assert_str_eq(pl, cases[i][2], "%s %s", cases[i][0], cases[i][1]);
  }
  /* one more of each than the table allows is refused */
  g_autofree char *a = parse_bad(model("B300"), "1g.67gb x5");
  cr_assert(strstr(a, "1g.67gb may appear at most 4 times"), "%s", a);
  g_autofree char *b = parse_bad(model("RTX-PRO-6000"), "2g.48gb x2 + 1g.24gb");
  cr_assert(strstr(b, "no placement"), "%s", b);
  g_autofree char *c = parse_bad(model("RTX-PRO-6000"), "1g.24gb x5");
  cr_assert(strstr(c, "at most 4"), "%s", c);
}
