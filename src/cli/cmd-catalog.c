/* cmd-catalog.c: the 'catalog' subcommand. Prints the GPU models, one model's facts, its
 * MIG profiles and every valid maximal MIG layout (--all: every valid layout), its vGPU
 * profiles, or checks one layout (--layout), as text or JSON (--json). It only formats what catalog.c knows; it
 * holds no GPU facts of its own. Output is deterministic (catalogue order). */
#include "cmd.h"
#include "catalog.h"
#include "util.h"
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>

static gboolean opt_json = FALSE;
static gboolean opt_all = FALSE;
static char *opt_layout = NULL;

static GOptionEntry catalog_options[] = {
    {"json", 0, 0, G_OPTION_ARG_NONE, &opt_json, "Write JSON instead of text", NULL},
    {"all", 0, 0, G_OPTION_ARG_NONE, &opt_all,
     "List every valid MIG layout of GPU, not only the maximal ones", NULL},
    {"layout", 0, 0, G_OPTION_ARG_STRING, &opt_layout,
     "Check a MIG layout on GPU, e.g. \"3g.40gb x2\", and show its placement", "TEXT"},
    {NULL, 0, 0, 0, NULL, NULL, NULL},
};

static double gib(int64_t bytes) { return (double)bytes / (double)UTIL_GIB; }

/* A user-given name as shown in a message: printable ASCII only, at most 64 bytes. */
static char *shown_name(const char *s) {
  GString *o = g_string_new(NULL);
  for (size_t i = 0; s[i] && i < 64; i++)
    g_string_append_c(o, (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?');
  if (strlen(s) > 64) g_string_append(o, "...");
  return g_string_free(o, FALSE);
}

/* ---- text ------------------------------------------------------------------------- */

static void text_models(FILE *out) {
  guint n;
  const gpu_model *ms = catalog_models(&n);
  fprintf(out, "%-14s %8s %8s %4s %-8s %7s %5s %4s %8s\n", "model", "mem_GiB", "mem_GB", "SMs",
          "MIG", "MIG_SMs", "CC", "MPS", "$/GPU-h");
  for (guint i = 0; i < n; i++) {
    const gpu_model *m = &ms[i];
    char mig[16], mig_sms[16];
    if (m->mig_slots) {
      g_snprintf(mig, sizeof mig, "%u slots", m->mig_slots);
      g_snprintf(mig_sms, sizeof mig_sms, "%u", m->sms_mig);
    } else {
      g_strlcpy(mig, "no", sizeof mig);
      g_strlcpy(mig_sms, "-", sizeof mig_sms);
    }
    fprintf(out, "%-14s %8.2f %8.2f %4u %-8s %7s %5.1f %4u %8.2f\n", m->name, gib(m->mem_bytes),
            UTIL_GB(m->mem_bytes), m->sms, mig, mig_sms, m->compute_capability,
            catalog_mps_client_limit(m), m->price_per_gpu_hour);
  }
  fprintf(out, "\nmem: whole-GPU memory as nvidia-smi reports it. MPS: client limit per GPU "
               "(48 for compute\ncapability >= 7.5, else 16). $/GPU-h: default on-demand "
               "price; a scenario's 'prices:'\noverrides it. Details and sources: "
               "'sharesim catalog MODEL', docs/catalog.md.\n");
}

/* Canonical texts of the maximal layouts of m, for marking them in the --all view. */
static GHashTable *maximal_set(const gpu_model *m) {
  GHashTable *h = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GArray) mx = catalog_maximal_layouts(m);
  for (guint k = 0; k < mx->len; k++)
    g_hash_table_add(h, catalog_layout_to_string(m, &g_array_index(mx, mig_layout, k)));
  return h;
}

/* The maximal layouts (default) or every valid layout (all), one line each. */
static void text_layouts(FILE *out, const gpu_model *m, gboolean all) {
  g_autoptr(GArray) ls = all ? catalog_valid_layouts(m) : catalog_maximal_layouts(m);
  g_autoptr(GHashTable) maximal = maximal_set(m);
  guint n_valid = catalog_count_valid_layouts(m, FALSE);
  if (all)
    fprintf(out, "\nAll valid MIG layouts (%u; without +me), largest profiles first; 'maximal' "
                 "marks the %u\nto which no further profile can be added.\n",
            ls->len, g_hash_table_size(maximal));
  else
    fprintf(out, "\nValid maximal MIG layouts (%u of %u valid; without +me): nothing more fits. "
                 "Default view;\n'sharesim catalog %s --all' lists all %u.\n",
            ls->len, n_valid, m->name, n_valid);
  fprintf(out, "largest_GiB: memory of the largest instance, the biggest model the layout can "
               "hold;\nlargest_GB: the same in GB (10^9 bytes), the unit of mem_gb in traces.\n");
  fprintf(out, "  %-36s %11s %4s %10s%s  %s\n", "layout", "largest_GiB", "SMs", "largest_GB",
          all ? " maximal" : "", "placement");
  for (guint k = 0; k < ls->len; k++) {
    const mig_layout *l = &g_array_index(ls, mig_layout, k);
    g_autofree char *t = catalog_layout_to_string(m, l);
    g_autofree char *pl = catalog_layout_placement_string(m, l);
    int64_t big = catalog_layout_largest_mem(m, l);
    const char *mark = !all ? "" : g_hash_table_contains(maximal, t) ? "     yes" : "       -";
    fprintf(out, "  %-36s %11.2f %4" G_GINT64_FORMAT " %10.2f%s  %s\n", t, gib(big),
            catalog_layout_total_sms(m, l), UTIL_GB(big), mark, pl);
  }
}

static void text_model(FILE *out, const gpu_model *m, gboolean all) {
  fprintf(out, "%s  %s\n", m->name, m->description);
  fprintf(out, "  %-19s %.2f GiB (%.2f GB)\n", "memory", gib(m->mem_bytes), UTIL_GB(m->mem_bytes));
  if (m->mig_slots)
    fprintf(out, "  %-19s %u (%u in MIG mode)\n", "SMs", m->sms, m->sms_mig);
  else
    fprintf(out, "  %-19s %u\n", "SMs", m->sms);
  fprintf(out, "  %-19s %.1f\n", "compute capability", m->compute_capability);
  fprintf(out, "  %-19s %u\n", "MPS client limit", catalog_mps_client_limit(m));
  fprintf(out, "  %-19s %.2f $/GPU-hour (default)\n", "price", m->price_per_gpu_hour);
  if (m->mig_slots)
    fprintf(out, "  %-19s %u memory slices, %u compute slices, at most %u GPU instances\n",
            "MIG", m->mig_slots, m->mig_compute_slices, m->mig_max_instances);
  else
    fprintf(out, "  %-19s not supported (use exclusive, time-slicing, MPS or vGPU)\n", "MIG");
  fprintf(out, "  %-19s %s (see docs/catalog.md)\n", "sources", m->sources);
  if (m->notes) fprintf(out, "  %-19s %s\n", "notes", m->notes);

  if (m->mig_slots) {
    fprintf(out, "\nMIG profiles\n");
    fprintf(out, "  %-12s %2s %10s %-8s %3s %10s %4s\n", "profile", "g", "mem_slices", "starts",
            "max", "usable_GiB", "SMs");
    for (guint i = 0; i < m->n_profiles; i++) {
      const mig_profile *p = &m->profiles[i];
      g_autofree char *st = catalog_profile_starts_string(p);
      fprintf(out, "  %-12s %2u %10u %-8s %3u %10.2f %4u%s\n", p->name, p->compute_slices,
              p->mem_slices, st, p->max_count, p->usable_gib, p->sms,
              p->media ? "  media extensions; one per GPU" : "");
    }
    text_layouts(out, m, all);
  }
  if (m->n_vgpu_profiles) {
    fprintf(out, "\nvGPU time-sliced profiles (C-series: compute; Q/B-series: desktop)\n");
    fprintf(out, "  %-12s %15s %11s %s\n", "profile", "framebuffer_GiB", "max_per_GPU", "series");
    for (guint i = 0; i < m->n_vgpu_profiles; i++) {
      const vgpu_profile *v = &m->vgpu_profiles[i];
      fprintf(out, "  %-12s %15.2f %11u %s\n", v->name, gib(v->framebuffer_bytes), v->max_per_gpu,
              v->desktop ? "desktop" : "compute");
    }
  } else {
    fprintf(out, "\nvGPU: no time-sliced profiles in the catalogue for %s\n", m->name);
  }
}

static void text_layout(FILE *out, const gpu_model *m, const mig_layout *l) {
  g_autofree char *t = catalog_layout_to_string(m, l);
  g_autofree char *pl = catalog_layout_placement_string(m, l);
  fprintf(out, "layout      %s\n", t);
  fprintf(out, "model       %s\n", m->name);
  fprintf(out, "placement   %s\n", pl);
  fprintf(out, "instances   %u\n", l->n);
  fprintf(out, "largest     %.2f GiB = %.2f GB (the biggest model it can hold)\n",
          gib(catalog_layout_largest_mem(m, l)), UTIL_GB(catalog_layout_largest_mem(m, l)));
  fprintf(out, "SMs         %" G_GINT64_FORMAT " of %u in MIG mode\n",
          catalog_layout_total_sms(m, l), m->sms_mig);
}

/* ---- JSON ------------------------------------------------------------------------- */

static void j_str(JsonBuilder *b, const char *k, const char *v) {
  json_builder_set_member_name(b, k);
  if (v)
    json_builder_add_string_value(b, v);
  else
    json_builder_add_null_value(b);
}
static void j_int(JsonBuilder *b, const char *k, gint64 v) {
  json_builder_set_member_name(b, k);
  json_builder_add_int_value(b, v);
}
static void j_num(JsonBuilder *b, const char *k, double v) {
  json_builder_set_member_name(b, k);
  json_builder_add_double_value(b, v);
}
static void j_bool(JsonBuilder *b, const char *k, gboolean v) {
  json_builder_set_member_name(b, k);
  json_builder_add_boolean_value(b, v);
}

static void json_model_facts(JsonBuilder *b, const gpu_model *m) {
  j_str(b, "name", m->name);
  j_str(b, "description", m->description);
  j_int(b, "mem_bytes", m->mem_bytes);
  j_num(b, "mem_gib", gib(m->mem_bytes));
  j_int(b, "sms", m->sms);
  j_int(b, "sms_mig", m->sms_mig);
  j_num(b, "compute_capability", m->compute_capability);
  j_int(b, "mps_client_limit", catalog_mps_client_limit(m));
  j_num(b, "price_per_gpu_hour", m->price_per_gpu_hour);
  json_builder_set_member_name(b, "mig");
  if (m->mig_slots) {
    json_builder_begin_object(b);
    j_int(b, "mem_slices", m->mig_slots);
    j_int(b, "compute_slices", m->mig_compute_slices);
    j_int(b, "max_instances", m->mig_max_instances);
    json_builder_end_object(b);
  } else {
    json_builder_add_null_value(b);
  }
  j_str(b, "sources", m->sources);
  j_str(b, "notes", m->notes);
}

static void json_layout(JsonBuilder *b, const gpu_model *m, const mig_layout *l) {
  g_autofree char *t = catalog_layout_to_string(m, l);
  j_str(b, "layout", t);
  json_builder_set_member_name(b, "instances");
  json_builder_begin_array(b);
  for (guint k = 0; k < l->n; k++) {
    json_builder_begin_object(b);
    j_str(b, "profile", m->profiles[l->inst[k].profile].name);
    j_int(b, "start", l->inst[k].start);
    json_builder_end_object(b);
  }
  json_builder_end_array(b);
  j_int(b, "largest_mem_bytes", catalog_layout_largest_mem(m, l));
  j_num(b, "largest_gib", gib(catalog_layout_largest_mem(m, l)));
  j_num(b, "largest_gb", UTIL_GB(catalog_layout_largest_mem(m, l)));
  j_int(b, "total_sms", catalog_layout_total_sms(m, l));
}

static void json_model_full(JsonBuilder *b, const gpu_model *m, gboolean all) {
  json_model_facts(b, m);
  json_builder_set_member_name(b, "mig_profiles");
  json_builder_begin_array(b);
  for (guint i = 0; i < m->n_profiles; i++) {
    const mig_profile *p = &m->profiles[i];
    json_builder_begin_object(b);
    j_str(b, "name", p->name);
    j_int(b, "compute_slices", p->compute_slices);
    j_int(b, "mem_slices", p->mem_slices);
    json_builder_set_member_name(b, "starts");
    json_builder_begin_array(b);
    for (guint s = 0; s < 8; s++)
      if (p->starts_mask & (1u << s)) json_builder_add_int_value(b, s);
    json_builder_end_array(b);
    j_int(b, "max_count", p->max_count);
    j_bool(b, "media", p->media);
    j_num(b, "usable_gib", p->usable_gib);
    j_int(b, "usable_bytes", catalog_profile_mem_bytes(p));
    j_int(b, "sms", p->sms);
    json_builder_end_object(b);
  }
  json_builder_end_array(b);
  json_builder_set_member_name(b, "maximal_layouts");
  json_builder_begin_array(b);
  g_autoptr(GArray) ls = catalog_maximal_layouts(m);
  for (guint k = 0; k < ls->len; k++) {
    json_builder_begin_object(b);
    json_layout(b, m, &g_array_index(ls, mig_layout, k));
    json_builder_end_object(b);
  }
  json_builder_end_array(b);
  j_int(b, "valid_layout_count", catalog_count_valid_layouts(m, FALSE));
  if (all) {
    /* every valid layout, each marked maximal or not */
    g_autoptr(GHashTable) maximal = maximal_set(m);
    g_autoptr(GArray) vs = catalog_valid_layouts(m);
    json_builder_set_member_name(b, "valid_layouts");
    json_builder_begin_array(b);
    for (guint k = 0; k < vs->len; k++) {
      const mig_layout *l = &g_array_index(vs, mig_layout, k);
      g_autofree char *t = catalog_layout_to_string(m, l);
      json_builder_begin_object(b);
      json_layout(b, m, l);
      j_bool(b, "maximal", g_hash_table_contains(maximal, t));
      json_builder_end_object(b);
    }
    json_builder_end_array(b);
  }
  json_builder_set_member_name(b, "vgpu_profiles");
  json_builder_begin_array(b);
  for (guint i = 0; i < m->n_vgpu_profiles; i++) {
    const vgpu_profile *v = &m->vgpu_profiles[i];
    json_builder_begin_object(b);
    j_str(b, "name", v->name);
    j_int(b, "framebuffer_bytes", v->framebuffer_bytes);
    j_int(b, "max_per_gpu", v->max_per_gpu);
    j_str(b, "series", v->desktop ? "desktop" : "compute");
    json_builder_end_object(b);
  }
  json_builder_end_array(b);
}

/* json-glib writes doubles with "%.17g" (3.43 becomes 3.4300000000000002). Rewrites each
 * number outside strings that has a fraction or exponent in its shortest round-trip form. */
static char *json_shortest_numbers(const char *in) {
  GString *out = g_string_sized_new(strlen(in));
  gboolean in_str = FALSE;
  for (const char *p = in; *p;) {
    if (in_str) {
      if (*p == '\\' && p[1]) {
        g_string_append_len(out, p, 2);
        p += 2;
        continue;
      }
      if (*p == '"') in_str = FALSE;
      g_string_append_c(out, *p++);
      continue;
    }
    if (*p == '"') {
      in_str = TRUE;
      g_string_append_c(out, *p++);
      continue;
    }
    if (*p == '-' || g_ascii_isdigit(*p)) {
      const char *q = p;
      gboolean real = FALSE;
      while (*q == '-' || *q == '+' || *q == '.' || *q == 'e' || *q == 'E' || g_ascii_isdigit(*q)) {
        if (*q == '.' || *q == 'e' || *q == 'E') real = TRUE;
        q++;
      }
      g_autofree char *tok = g_strndup(p, (gsize)(q - p));
      if (real) {
        gsize at = out->len;
        util_append_shortest(out, g_ascii_strtod(tok, NULL), 1);
        if (!strpbrk(out->str + at, ".eEn")) g_string_append(out, ".0");
      } else {
        g_string_append(out, tok);
      }
      p = q;
      continue;
    }
    g_string_append_c(out, *p++);
  }
  return g_string_free(out, FALSE);
}

static void json_print(FILE *out, JsonBuilder *b) {
  g_autoptr(JsonNode) root = json_builder_get_root(b);
  g_autoptr(JsonGenerator) g = json_generator_new();
  json_generator_set_pretty(g, TRUE);
  json_generator_set_indent(g, 2);
  json_generator_set_root(g, root);
  g_autofree char *raw = json_generator_to_data(g, NULL);
  g_autofree char *text = json_shortest_numbers(raw);
  fprintf(out, "%s\n", text);
}

/* ---- main --------------------------------------------------------------------------- */

extern const cmd_entry cmd_catalog_entry; /* at the end of this file; its row: cmd.c */

static int cmd_catalog_main(int argc, char **argv) {
  opt_json = FALSE;
  opt_all = FALSE;
  g_clear_pointer(&opt_layout, g_free);
  int rc = 0;
  if (!cmd_parse_options(&cmd_catalog_entry, catalog_options, &argc, &argv, &rc)) {
    g_clear_pointer(&opt_layout, g_free);
    return rc;
  }
  g_autofree char *layout_text = g_steal_pointer(&opt_layout);
  if (argc > 2) {
    fprintf(stderr, "sharesim catalog: expected at most one GPU model, found %d arguments\n"
                    "Usage: sharesim catalog %s\n", argc - 1, cmd_catalog_entry.usage);
    return 2;
  }
  if (opt_all && layout_text) {
    fprintf(stderr, "sharesim catalog: --all lists every layout and --layout checks one; "
                    "give one of them\n");
    return 2;
  }
  if (argc < 2) {
    if (opt_all) {
      fprintf(stderr, "sharesim catalog: --all needs a GPU model, as in "
                      "'sharesim catalog A100-80GB --all'\n");
      return 2;
    }
    if (layout_text) {
      fprintf(stderr, "sharesim catalog: --layout needs a GPU model, as in "
                      "'sharesim catalog A100-80GB --layout \"3g.40gb x2\"'\n");
      return 2;
    }
    if (opt_json) {
      g_autoptr(JsonBuilder) b = json_builder_new();
      json_builder_begin_object(b);
      json_builder_set_member_name(b, "models");
      json_builder_begin_array(b);
      guint n;
      const gpu_model *ms = catalog_models(&n);
      for (guint i = 0; i < n; i++) {
        json_builder_begin_object(b);
        json_model_facts(b, &ms[i]);
        json_builder_end_object(b);
      }
      json_builder_end_array(b);
      json_builder_end_object(b);
      json_print(stdout, b);
    } else {
      text_models(stdout);
    }
    return 0;
  }
  const gpu_model *m = catalog_find(argv[1]);
  if (!m) {
    g_autofree char *names = catalog_model_names();
    g_autofree char *near = catalog_model_suggestions(argv[1]);
    g_autofree char *hint = near ? g_strdup_printf(" (did you mean %s?)", near) : g_strdup("");
    g_autofree char *shown = shown_name(argv[1]);
    g_autoptr(GError) err = g_error_new(SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                                        "unknown GPU model '%s'%s; valid models: %s", shown,
                                        hint, names);
    return cmd_fail(cmd_catalog_entry.name, err);
  }
  if (layout_text) {
    mig_layout l;
    g_autofree char *msg = NULL;
    if (!catalog_layout_parse(m, layout_text, &l, &msg)) {
      g_autoptr(GError) err = g_error_new_literal(SHARESIM_ERROR, SHARESIM_ERROR_INPUT, msg);
      return cmd_fail(cmd_catalog_entry.name, err);
    }
    if (opt_json) {
      g_autoptr(JsonBuilder) b = json_builder_new();
      json_builder_begin_object(b);
      j_str(b, "model", m->name);
      json_layout(b, m, &l);
      json_builder_end_object(b);
      json_print(stdout, b);
    } else {
      text_layout(stdout, m, &l);
    }
    return 0;
  }
  if (opt_json) {
    g_autoptr(JsonBuilder) b = json_builder_new();
    json_builder_begin_object(b);
    json_model_full(b, m, opt_all);
    json_builder_end_object(b);
    json_print(stdout, b);
  } else {
    text_model(stdout, m, opt_all);
  }
  return 0;
}

const cmd_entry cmd_catalog_entry = {
    .name = "catalog",
    .usage = "[GPU] [--all | --layout TEXT] [--json]",
    .summary = "GPU models, memory, MIG profiles and valid layouts",
    .main = cmd_catalog_main,
};
