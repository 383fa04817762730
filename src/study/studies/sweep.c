/* sweep.c: the grid of a sweep (parsing --set lists, grid order, point names), its
 * manifest (sweep.json) and the tables built from finished points (sweep.csv and the
 * printed summary). It runs nothing: cmd-sweep.c spawns the points, locally or through
 * Slurm, and decides when to build the table. */
#include "sweep.h"
#include "seeds.h"
#include "report.h"
#include "scenario.h"
#include "paths.h"
#include "util.h"
#include <errno.h>
#include <glib/gstdio.h>
#include "jsonlimit.h"
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* ---- grid ---- */

static void sweep_values_free(gpointer p) { g_ptr_array_free(p, TRUE); }

static sweep_grid *sweep_grid_new(void) {
  sweep_grid *g = g_new0(sweep_grid, 1);
  g->keys = g_ptr_array_new_with_free_func(g_free);
  g->values = g_ptr_array_new_with_free_func(sweep_values_free);
  g->n_points = 1;
  return g;
}

void sweep_grid_free(sweep_grid *g) {
  if (!g) return;
  g_ptr_array_free(g->keys, TRUE);
  g_ptr_array_free(g->values, TRUE);
  g_free(g);
}

/* Adds an axis; FALSE with error when the grid would grow too large. */
static gboolean sweep_grid_add(sweep_grid *g, const char *key, GPtrArray *values, GError **error) {
  if (values->len == 0 || (guint64)g->n_points * values->len > SWEEP_MAX_POINTS) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "--set %s: the grid would have more than %u points", key, SWEEP_MAX_POINTS);
    g_ptr_array_free(values, TRUE);
    return FALSE;
  }
  g->n_points *= values->len;
  g_ptr_array_add(g->keys, g_strdup(key));
  g_ptr_array_add(g->values, values);
  return TRUE;
}

/* Splits at commas outside brackets, braces and quotes; trims each value. */
static GPtrArray *sweep_split_values(const char *text) {
  GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
  int depth = 0;
  char quote = 0;
  const char *start = text;
  for (const char *p = text;; p++) {
    if (*p == '\0' || (*p == ',' && depth == 0 && !quote)) {
      char *v = g_strndup(start, (gsize)(p - start));
      g_ptr_array_add(out, g_strstrip(v));
      if (*p == '\0') break;
      start = p + 1;
      continue;
    }
    if (quote) {
      if (*p == quote) quote = 0;
    } else if (*p == '"' || *p == '\'') {
      quote = *p;
    } else if (*p == '[' || *p == '{') {
      depth++;
    } else if ((*p == ']' || *p == '}') && depth > 0) {
      depth--;
    }
  }
  return out;
}

sweep_grid *sweep_grid_parse(const char *const *sets, guint n_sets, GError **error) {
  g_autoptr(sweep_grid) g = sweep_grid_new();
  for (guint i = 0; i < n_sets; i++) {
    const char *eq = strchr(sets[i], '=');
    g_autofree char *shown = figures_clean_text(sets[i]);
    if (!eq) {
      g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                  "--set '%s': expected KEY=V1,V2,... (e.g. pools.dev.nodes=1,2,4)", shown);
      return NULL;
    }
    g_autofree char *key = g_strstrip(g_strndup(sets[i], (gsize)(eq - sets[i])));
    if (!*key) {
      g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT, "--set '%s': empty key", shown);
      return NULL;
    }
    for (guint k = 0; k < g->keys->len; k++)
      if (!strcmp(g_ptr_array_index(g->keys, k), key)) {
        g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                    "--set '%s': key given twice (list all its values in one --set)", shown);
        return NULL;
      }
    GPtrArray *values = sweep_split_values(eq + 1);
    for (guint v = 0; v < values->len; v++)
      if (!*(const char *)g_ptr_array_index(values, v)) {
        g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                    "--set '%s': value %u is empty (expected KEY=V1,V2,...)", shown, v + 1);
        g_ptr_array_free(values, TRUE);
        return NULL;
      }
    if (!sweep_grid_add(g, key, values, error)) return NULL;
  }
  return g_steal_pointer(&g);
}

/* Index of key k's value at point p: the last key varies fastest. */
static guint sweep_grid_digit(const sweep_grid *g, guint k, guint p) {
  guint stride = 1;
  for (guint j = g->keys->len; j-- > k + 1;)
    stride *= ((GPtrArray *)g_ptr_array_index(g->values, j))->len;
  guint n = ((GPtrArray *)g_ptr_array_index(g->values, k))->len;
  return (p / stride) % n;
}

const char *sweep_grid_value(const sweep_grid *g, guint k, guint p) {
  g_return_val_if_fail(k < g->keys->len && p < g->n_points, NULL);
  GPtrArray *values = g_ptr_array_index(g->values, k);
  return g_ptr_array_index(values, sweep_grid_digit(g, k, p));
}

char **sweep_grid_overrides(const sweep_grid *g, guint p) {
  char **out = g_new0(char *, g->keys->len + 1);
  for (guint k = 0; k < g->keys->len; k++)
    out[k] = g_strdup_printf("%s=%s", (const char *)g_ptr_array_index(g->keys, k),
                             sweep_grid_value(g, k, p));
  return out;
}

static void sweep_name_part(GString *out, const char *text, gsize max) {
  gsize start = out->len;
  for (const char *q = text; *q && out->len - start < max; q++) {
    char c = g_ascii_isalnum(*q) || *q == '.' || *q == '-' ? *q : '_';
    if (c == '_' && out->len > start && out->str[out->len - 1] == '_') continue;
    g_string_append_c(out, c);
  }
}

char *sweep_grid_point_name(const sweep_grid *g, guint p) {
  guint width = 1;
  for (guint n = g->n_points; n >= 10; n /= 10) width++;
  GString *s = g_string_new(NULL);
  g_string_append_printf(s, "%0*u", (int)width, p + 1);
  for (guint k = 0; k < g->keys->len && s->len < 64; k++) {
    const char *key = g_ptr_array_index(g->keys, k);
    const char *dot = strrchr(key, '.');
    g_string_append_c(s, '_');
    sweep_name_part(s, dot && dot[1] ? dot + 1 : key, 24);
    g_string_append_c(s, '-');
    sweep_name_part(s, sweep_grid_value(g, k, p), 24);
  }
  if (s->len > 64) g_string_truncate(s, 64);
  return g_string_free(s, FALSE);
}

/* ---- spec and manifest ---- */

/* The SHA-256 of path, opened once through paths_open_in (confined to within unless NULL). */
static char *sweep_sha256_in(const char *within, const char *path, GError **error) {
  g_autoptr(GError) local = NULL;
  int fd = paths_open_in(within, path, &local);
  FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
  if (!f) {
    if (fd >= 0) close(fd);
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT, "cannot read %s: %s", path,
                local ? local->message : g_strerror(errno));
    return NULL;
  }
  GChecksum *c = g_checksum_new(G_CHECKSUM_SHA256);
  guchar buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) g_checksum_update(c, buf, (gssize)n);
  gboolean bad = ferror(f) != 0;
  fclose(f);
  char *hex = bad ? NULL : g_strdup(g_checksum_get_string(c));
  g_checksum_free(c);
  if (bad)
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT, "cannot read %s: read error", path);
  return hex;
}

void sweep_spec_free(sweep_spec *s) {
  if (!s) return;
  g_free(s->scenario);
  g_free(s->trace);
  g_free(s->phases);
  g_free(s->requests);
  g_free(s->cwd);
  g_free(s->scenario_sha256);
  g_free(s->trace_sha256);
  g_free(s->phases_sha256);
  g_free(s->requests_sha256);
  if (s->ref_paths) g_ptr_array_free(s->ref_paths, TRUE);
  if (s->ref_sha256) g_ptr_array_free(s->ref_sha256, TRUE);
  sweep_grid_free(s->grid);
  if (s->names) g_ptr_array_free(s->names, TRUE);
  g_free(s);
}

/* Inserts (path, sha) at its sorted place unless path is there already. */
static void sweep_ref_insert(sweep_spec *s, const char *path, const char *sha) {
  guint lo = 0, hi = s->ref_paths->len;
  while (lo < hi) {
    guint mid = (lo + hi) / 2;
    int c = strcmp(g_ptr_array_index(s->ref_paths, mid), path);
    if (c == 0) return;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  g_ptr_array_insert(s->ref_paths, (gint)lo, g_strdup(path));
  g_ptr_array_insert(s->ref_sha256, (gint)lo, g_strdup(sha));
}

static gboolean sweep_ref_known(const sweep_spec *s, const char *path) {
  for (guint i = 0; i < s->ref_paths->len; i++)
    if (!strcmp(g_ptr_array_index(s->ref_paths, i), path)) return TRUE;
  return FALSE;
}

static char *sweep_sha256(const char *path, GError **error) {
  return sweep_sha256_in(NULL, path, error);
}

/* Hashes one referenced file ("FILE#KEY": FILE, as nvconfig.c reads it), confined to within. */
static gboolean sweep_ref_add(sweep_spec *s, const char *within, const char *ref,
                              GError **error) {
  if (!ref) return TRUE;
  g_autofree char *file = g_strdup(ref);
  char *hash = strrchr(file, '#');
  if (hash && !g_file_test(file, G_FILE_TEST_EXISTS)) *hash = '\0';
  if (sweep_ref_known(s, file)) return TRUE;
  g_autofree char *sha = sweep_sha256_in(within, file, error);
  if (!sha) return FALSE;
  sweep_ref_insert(s, file, sha);
  return TRUE;
}

gboolean sweep_spec_add_references(sweep_spec *s, const struct scenario *sc, GError **error) {
  if (!s->ref_paths) {
    s->ref_paths = g_ptr_array_new_with_free_func(g_free);
    s->ref_sha256 = g_ptr_array_new_with_free_func(g_free);
  }
  if (!sweep_ref_add(s, sc->ref_dir, sc->interference_path, error)) return FALSE;
  for (guint i = 0; i < sc->pools->len; i++) {
    const pool_spec *p = g_ptr_array_index(sc->pools, i);
    if (!sweep_ref_add(s, p->ref_dir, p->sharing_config_path, error) ||
        !sweep_ref_add(s, p->ref_dir, p->mig_config_path, error) ||
        !sweep_ref_add(s, p->ref_dir, p->dra_claim_path, error) ||
        !sweep_ref_add(s, p->ref_dir, p->pod_spec_path, error))
      return FALSE;
  }
  return TRUE;
}

static void sweep_spec_name_points(sweep_spec *s) {
  /* NULL-terminated: studydir_clean_temporaries takes names->pdata as a list */
  s->names = g_ptr_array_new_null_terminated(s->grid->n_points, g_free, TRUE);
  for (guint p = 0; p < s->grid->n_points; p++)
    g_ptr_array_add(s->names, sweep_grid_point_name(s->grid, p));
}

sweep_spec *sweep_spec_new(const char *scenario_path, const char *trace_path, const char *phases,
                           const char *requests, sweep_grid *grid, GError **error) {
  g_autoptr(sweep_spec) s = g_new0(sweep_spec, 1);
  s->grid = grid;
  s->scenario = g_strdup(scenario_path);
  s->trace = g_strdup(trace_path);
  s->phases = g_strdup(phases);
  s->requests = g_strdup(requests);
  s->cwd = g_get_current_dir();
  sweep_spec_name_points(s);
  if (!(s->scenario_sha256 = sweep_sha256(scenario_path, error))) return NULL;
  if (!(s->trace_sha256 = sweep_sha256(trace_path, error))) return NULL;
  if (phases && !(s->phases_sha256 = sweep_sha256(phases, error))) return NULL;
  if (requests && !(s->requests_sha256 = sweep_sha256(requests, error))) return NULL;
  return g_steal_pointer(&s);
}

static gboolean sweep_verify_one(const char *path, const char *want, GError **error) {
  if (!path || !want) return TRUE;
  g_autofree char *now = sweep_sha256(path, error);
  if (!now) return FALSE;
  if (!strcmp(now, want)) return TRUE;
  g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
              "%s changed since the sweep was set up (SHA-256 %.12s..., was %.12s...): its "
              "points would mix two versions; run the sweep again into a new folder",
              path, now, want);
  return FALSE;
}

gboolean sweep_spec_verify(const sweep_spec *s, GError **error) {
  if (!sweep_verify_one(s->scenario, s->scenario_sha256, error) ||
      !sweep_verify_one(s->trace, s->trace_sha256, error) ||
      !sweep_verify_one(s->phases, s->phases_sha256, error) ||
      !sweep_verify_one(s->requests, s->requests_sha256, error))
    return FALSE;
  for (guint i = 0; s->ref_paths && i < s->ref_paths->len; i++)
    if (!sweep_verify_one(g_ptr_array_index(s->ref_paths, i), g_ptr_array_index(s->ref_sha256, i),
                          error))
      return FALSE;
  return TRUE;
}

static void sweep_json_member(GString *out, const char *name, const char *value, gboolean last) {
  g_string_append(out, "  ");
  figures_json_string(out, name);
  g_string_append(out, ": ");
  if (value)
    figures_json_string(out, value);
  else
    g_string_append(out, "null");
  g_string_append(out, last ? "\n" : ",\n");
}

char *sweep_manifest(const sweep_spec *s) {
  GString *out = g_string_new("{\n  \"sharesim_sweep\": 1,\n");
  sweep_json_member(out, "cwd", s->cwd, FALSE);
  sweep_json_member(out, "scenario", s->scenario, FALSE);
  sweep_json_member(out, "scenario_sha256", s->scenario_sha256, FALSE);
  sweep_json_member(out, "trace", s->trace, FALSE);
  sweep_json_member(out, "trace_sha256", s->trace_sha256, FALSE);
  sweep_json_member(out, "phases", s->phases, FALSE);
  sweep_json_member(out, "phases_sha256", s->phases_sha256, FALSE);
  sweep_json_member(out, "requests", s->requests, FALSE);
  sweep_json_member(out, "requests_sha256", s->requests_sha256, FALSE);
  if (s->n_seeds > 1) g_string_append_printf(out, "  \"seeds\": %u,\n", s->n_seeds);
  if (s->ref_paths && s->ref_paths->len) {
    g_string_append(out, "  \"references\": [");
    for (guint i = 0; i < s->ref_paths->len; i++) {
      g_string_append(out, i ? ",\n    {\"path\": " : "\n    {\"path\": ");
      figures_json_string(out, g_ptr_array_index(s->ref_paths, i));
      g_string_append(out, ", \"sha256\": ");
      figures_json_string(out, g_ptr_array_index(s->ref_sha256, i));
      g_string_append(out, "}");
    }
    g_string_append(out, "\n  ],\n");
  }
  g_string_append(out, "  \"axes\": [");
  for (guint k = 0; k < s->grid->keys->len; k++) {
    GPtrArray *values = g_ptr_array_index(s->grid->values, k);
    g_string_append(out, k ? ",\n    {\"key\": " : "\n    {\"key\": ");
    figures_json_string(out, g_ptr_array_index(s->grid->keys, k));
    g_string_append(out, ", \"values\": [");
    for (guint v = 0; v < values->len; v++) {
      if (v) g_string_append(out, ", ");
      figures_json_string(out, g_ptr_array_index(values, v));
    }
    g_string_append(out, "]}");
  }
  g_string_append(out, "\n  ],\n  \"points\": [");
  for (guint p = 0; p < s->grid->n_points; p++) {
    g_string_append(out, p ? ",\n    {\"name\": " : "\n    {\"name\": ");
    figures_json_string(out, g_ptr_array_index(s->names, p));
    g_string_append(out, ", \"set\": [");
    g_auto(GStrv) ov = sweep_grid_overrides(s->grid, p);
    for (guint k = 0; ov[k]; k++) {
      if (k) g_string_append(out, ", ");
      figures_json_string(out, ov[k]);
    }
    g_string_append(out, "]}");
  }
  g_string_append(out, "\n  ]\n}\n");
  return g_string_free(out, FALSE);
}

static char *sweep_json_dup(JsonObject *o, const char *member) {
  JsonNode *n = json_object_get_member(o, member);
  if (!n || !JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_STRING) return NULL;
  return g_strdup(json_node_get_string(n));
}

/* The "references" list of a manifest (absent: none). */
static gboolean sweep_manifest_load_references(sweep_spec *s, JsonObject *o, const char *path,
                                               GError **error) {
  s->ref_paths = g_ptr_array_new_with_free_func(g_free);
  s->ref_sha256 = g_ptr_array_new_with_free_func(g_free);
  JsonNode *refs = json_object_get_member(o, "references");
  if (!refs) return TRUE;
  JsonArray *a = JSON_NODE_HOLDS_ARRAY(refs) ? json_node_get_array(refs) : NULL;
  for (guint i = 0; a && i < json_array_get_length(a); i++) {
    JsonNode *e = json_array_get_element(a, i);
    JsonObject *r = JSON_NODE_HOLDS_OBJECT(e) ? json_node_get_object(e) : NULL;
    g_autofree char *p = r ? sweep_json_dup(r, "path") : NULL;
    g_autofree char *sha = r ? sweep_json_dup(r, "sha256") : NULL;
    if (!p || !sha) {
      a = NULL;
      break;
    }
    sweep_ref_insert(s, p, sha);
  }
  if (!a)
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "%s: \"references\": expected a list of {\"path\": ..., \"sha256\": ...}", path);
  return a != NULL;
}

/* "seeds" of a manifest (absent: one run per point). */
static gboolean sweep_manifest_load_seeds(sweep_spec *s, JsonObject *o, const char *path,
                                          GError **error) {
  JsonNode *n = json_object_get_member(o, "seeds");
  if (!n) return TRUE;
  gint64 v = JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_INT64
                 ? json_node_get_int(n) : 0;
  if (v < 2 || v > SEEDS_MAX) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "%s: \"seeds\": expected a whole number from 2 to %u", path, SEEDS_MAX);
    return FALSE;
  }
  s->n_seeds = (guint)v;
  return TRUE;
}

sweep_spec *sweep_manifest_load(const char *dir, GError **error) {
  g_autofree char *path = g_build_filename(dir, "sweep.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new();
  GError *local = NULL;
  if (!jsonlimit_load_file(parser, path, NULL, NULL, &local)) {
    if (local->domain == SHARESIM_ERROR)
      g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT, "%s", local->message);
    else
      g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                  "%s: not a sweep folder (no readable sweep.json: %s)", dir, local->message);
    g_error_free(local);
    return NULL;
  }
  JsonNode *root = json_parser_get_root(parser);
  JsonObject *o = root && JSON_NODE_HOLDS_OBJECT(root) ? json_node_get_object(root) : NULL;
  JsonNode *axes = o ? json_object_get_member(o, "axes") : NULL;
  g_autoptr(sweep_spec) s = g_new0(sweep_spec, 1);
  if (o) {
    s->cwd = sweep_json_dup(o, "cwd");
    s->scenario = sweep_json_dup(o, "scenario");
    s->trace = sweep_json_dup(o, "trace");
    s->phases = sweep_json_dup(o, "phases");
    s->requests = sweep_json_dup(o, "requests");
    s->scenario_sha256 = sweep_json_dup(o, "scenario_sha256");
    s->trace_sha256 = sweep_json_dup(o, "trace_sha256");
    s->phases_sha256 = sweep_json_dup(o, "phases_sha256");
    s->requests_sha256 = sweep_json_dup(o, "requests_sha256");
  }
  if (!o || !s->cwd || !s->scenario || !s->trace || !axes || !JSON_NODE_HOLDS_ARRAY(axes)) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                "%s: not a sharesim sweep manifest (expected cwd, scenario, trace and axes)", path);
    return NULL;
  }
  if (!sweep_manifest_load_references(s, o, path, error)) return NULL;
  if (!sweep_manifest_load_seeds(s, o, path, error)) return NULL;
  s->grid = sweep_grid_new();
  JsonArray *a = json_node_get_array(axes);
  for (guint k = 0; k < json_array_get_length(a); k++) {
    JsonNode *e = json_array_get_element(a, k);
    JsonObject *ax = JSON_NODE_HOLDS_OBJECT(e) ? json_node_get_object(e) : NULL;
    g_autofree char *key = ax ? sweep_json_dup(ax, "key") : NULL;
    JsonNode *vals = ax ? json_object_get_member(ax, "values") : NULL;
    if (!key || !vals || !JSON_NODE_HOLDS_ARRAY(vals)) {
      g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                  "%s: axis %u: expected {\"key\": ..., \"values\": [...]}", path, k + 1);
      return NULL;
    }
    JsonArray *va = json_node_get_array(vals);
    GPtrArray *values = g_ptr_array_new_with_free_func(g_free);
    for (guint v = 0; v < json_array_get_length(va); v++) {
      JsonNode *vn = json_array_get_element(va, v);
      if (!JSON_NODE_HOLDS_VALUE(vn) || json_node_get_value_type(vn) != G_TYPE_STRING) {
        g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
                    "%s: axis %u: values must be strings", path, k + 1);
        g_ptr_array_free(values, TRUE);
        return NULL;
      }
      g_ptr_array_add(values, g_strdup(json_node_get_string(vn)));
    }
    if (!sweep_grid_add(s->grid, key, values, error)) return NULL;
  }
  sweep_spec_name_points(s);
  return g_steal_pointer(&s);
}

char *sweep_point_dir(const char *dir, const char *name) {
  return g_build_filename(dir, "points", name, NULL);
}

gboolean sweep_point_done(const char *dir, const char *name) {
  g_autofree char *p = g_build_filename(dir, "points", name, "summary.json", NULL);
  g_autofree char *q = g_build_filename(dir, "points", name, "seeds.json", NULL);
  return g_file_test(p, G_FILE_TEST_IS_REGULAR) || g_file_test(q, G_FILE_TEST_IS_REGULAR);
}

run_figures *sweep_point_load(const char *dir, const char *name, seeds_table **group,
                              GError **error) {
  g_autofree char *pd = sweep_point_dir(dir, name);
  if (group) *group = NULL;
  if (!seeds_is_dir(pd)) return figures_load(pd, error);
  seeds_table *t = seeds_load_dir(pd, error);
  if (!t) return NULL;
  run_figures *m = seeds_mean(t->runs, pd);
  if (group) *group = t;
  else seeds_free(t);
  return m;
}

/* ---- tables ---- */

/* Loads the finished points (NULL entries for the others); groups (seeds_table* or NULL
 * per point) receives their seeds. */
static GPtrArray *sweep_load_points(const sweep_spec *s, const char *dir, GPtrArray *missing,
                                    GPtrArray *groups, GError **error) {
  GPtrArray *runs = g_ptr_array_new_with_free_func((GDestroyNotify)figures_free);
  for (guint p = 0; p < s->grid->n_points; p++) {
    const char *name = g_ptr_array_index(s->names, p);
    seeds_table *g = NULL;
    if (!sweep_point_done(dir, name)) {
      if (missing) g_ptr_array_add(missing, g_strdup(name));
      g_ptr_array_add(runs, NULL);
      g_ptr_array_add(groups, NULL);
      continue;
    }
    run_figures *f = sweep_point_load(dir, name, &g, error);
    if (!f) {
      g_ptr_array_free(runs, TRUE);
      return NULL;
    }
    g_ptr_array_add(runs, f);
    g_ptr_array_add(groups, g);
  }
  return runs;
}

static GPtrArray *sweep_groups_new(void) {
  return g_ptr_array_new_with_free_func((GDestroyNotify)seeds_free);
}

static gboolean sweep_any(const GPtrArray *groups) {
  for (guint i = 0; i < groups->len; i++)
    if (g_ptr_array_index(groups, i)) return TRUE;
  return FALSE;
}

/* KEY:ci95_low and KEY:ci95_high of point p (empty cells without seeds). */
static void sweep_csv_interval(GString *out, const seeds_table *g, const char *key) {
  seeds_stat st = {0, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
  if (g) seeds_stat_key(g->runs, key, &st);
  g_string_append_c(out, ',');
  report_num(out, st.lo);
  g_string_append_c(out, ',');
  report_num(out, st.hi);
}

/* The index of the grid's `seed` key, or -1 when the sweep does not vary the seed. */
static int sweep_seed_key(const sweep_spec *s) {
  for (guint k = 0; k < s->grid->keys->len; k++)
    if (!strcmp(g_ptr_array_index(s->grid->keys, k), "seed")) return (int)k;
  return -1;
}

/* A row's "scenario,seed," (as every result CSV begins): the point's run's scenario name
 * and seed. A point of several seeds (its row is their mean) has an empty seed, unless the
 * grid varies `seed`: then the point's value of it (its first seed), the one column that
 * carries the swept key (sweep.csv never repeats the column name); k: sweep_seed_key's. */
static void sweep_csv_run(GString *out, const sweep_spec *s, int k, guint p,
                          const run_figures *f, gboolean seeds) {
  util_csv_field(out, f->scenario ? f->scenario : "");
  g_string_append_c(out, ',');
  if (k >= 0)
    util_csv_field(out, sweep_grid_value(s->grid, (guint)k, p));
  else if (!seeds)
    g_string_append_printf(out, "%" G_GUINT64_FORMAT, f->seed);
  g_string_append_c(out, ',');
}

gboolean sweep_csv(const sweep_spec *s, const char *dir, GString *out, GPtrArray *missing,
                   GError **error) {
  g_autoptr(GPtrArray) groups = sweep_groups_new();
  GPtrArray *runs = sweep_load_points(s, dir, missing, groups, error);
  if (!runs) return FALSE;
  gboolean seeds = sweep_any(groups);
  /* columns: every figure key, first appearance first */
  GPtrArray *keys = g_ptr_array_new();
  GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
  for (guint p = 0; p < runs->len; p++) {
    const run_figures *f = g_ptr_array_index(runs, p);
    for (guint i = 0; f && i < f->figures->len; i++) {
      const figure *fig = &g_array_index(f->figures, figure, i);
      if (g_hash_table_contains(seen, fig->key)) continue;
      g_hash_table_add(seen, fig->key);
      g_ptr_array_add(keys, fig->key);
    }
  }
  g_string_append(out, "scenario,seed,point");
  int seed_key = sweep_seed_key(s);
  for (guint k = 0; k < s->grid->keys->len; k++) {
    if ((int)k == seed_key) continue;
    g_string_append_c(out, ',');
    util_csv_field(out, g_ptr_array_index(s->grid->keys, k));
  }
  for (guint i = 0; i < keys->len; i++) {
    g_string_append_c(out, ',');
    util_csv_field(out, g_ptr_array_index(keys, i));
    for (guint b = 0; seeds && b < 2; b++) {
      g_autofree char *h = g_strconcat(g_ptr_array_index(keys, i), b ? ":ci95_high" : ":ci95_low", NULL);
      g_string_append_c(out, ',');
      util_csv_field(out, h);
    }
  }
  g_string_append_c(out, '\n');
  for (guint p = 0; p < runs->len; p++) {
    const run_figures *f = g_ptr_array_index(runs, p);
    if (!f) continue;
    sweep_csv_run(out, s, seed_key, p, f, g_ptr_array_index(groups, p) != NULL);
    util_csv_field(out, g_ptr_array_index(s->names, p));
    for (guint k = 0; k < s->grid->keys->len; k++) {
      if ((int)k == seed_key) continue;
      g_string_append_c(out, ',');
      util_csv_field(out, sweep_grid_value(s->grid, k, p));
    }
    for (guint i = 0; i < keys->len; i++) {
      g_string_append_c(out, ',');
      report_num(out, figures_value(f, g_ptr_array_index(keys, i)));
      if (seeds) sweep_csv_interval(out, g_ptr_array_index(groups, p), g_ptr_array_index(keys, i));
    }
    g_string_append_c(out, '\n');
  }
  g_hash_table_destroy(seen);
  g_ptr_array_free(keys, TRUE);
  g_ptr_array_free(runs, TRUE);
  return TRUE;
}

/* The pool every pools.NAME.KEY key of the grid names, or NULL (no pool key, or several
 * pools). Pool names may hold dots: NAME is what lies between "pools." and the last dot. */
static char *sweep_swept_pool(const sweep_spec *s) {
  char *pool = NULL;
  for (guint k = 0; k < s->grid->keys->len; k++) {
    const char *key = g_ptr_array_index(s->grid->keys, k);
    const char *dot = strrchr(key, '.');
    if (!g_str_has_prefix(key, "pools.") || !dot || dot <= key + 6) continue;
    g_autofree char *name = g_strndup(key + 6, (gsize)(dot - key - 6));
    if (pool && strcmp(pool, name)) {
      g_free(pool);
      return NULL;
    }
    if (!pool) pool = g_steal_pointer(&name);
  }
  return pool;
}

/* A figure of the table: with seeds, "mean +/- half-width". */
static void sweep_cell(GString *cell, const figure *fig, const seeds_table *g, const char *key) {
  figure_unit unit = fig ? fig->unit : FIGURE_NUMBER;
  double v = fig ? fig->value : NAN;
  figures_format(cell, unit, v);
  if (!g || !isfinite(v)) return;
  seeds_stat st;
  seeds_stat_key(g->runs, key, &st);
  if (!isfinite(st.half) || st.half <= 1e-9 * fabs(v)) return;
  g_string_append(cell, " +/- ");
  seeds_format_spread(cell, unit, st.half, v);
}

gboolean sweep_text(const sweep_spec *s, const char *dir, GString *out, GError **error) {
  /* unplaceable beside done: a point that is cheap because a job never fit must say so */
  const char *cols[] = {"gpus", "allocated_frac", "busy_frac", "completed", "unplaceable",
                        "wait_p95_s", "oom_kills", "cost"};
  const char *titles[] = {"GPUs", "alloc", "busy", "done", "unplaceable", "wait p95", "OOM",
                          "cost"};
  /* a sweep of one pool's keys shows that pool's queue wait, not the whole run's (the other
   * pools' jobs diluted it; issue 11 bug 9) */
  g_autofree char *pool = sweep_swept_pool(s);
  g_autofree char *wait_key = pool ? g_strdup_printf("pool:%s:wait_p95_s", pool) : NULL;
  g_autofree char *wait_title = pool ? g_strdup_printf("wait p95 (%s)", pool) : NULL;
  if (pool) {
    cols[5] = wait_key;
    titles[5] = wait_title;
  }
  g_autoptr(GPtrArray) groups = sweep_groups_new();
  GPtrArray *runs = sweep_load_points(s, dir, NULL, groups, error);
  if (!runs) return FALSE;
  if (sweep_any(groups))
    g_string_append(out, "each figure: the mean over the point's seeds +/- the half-width of its "
                         "95 % interval (Student's t); sweep.csv has the intervals of every figure\n\n");
  guint nk = s->grid->keys->len, ncols = 1 + nk + G_N_ELEMENTS(cols);
  GPtrArray *cells = g_ptr_array_new_with_free_func(g_free);
  g_ptr_array_add(cells, g_strdup("point"));
  for (guint k = 0; k < nk; k++)
    g_ptr_array_add(cells, figures_clean_text(g_ptr_array_index(s->grid->keys, k)));
  for (guint c = 0; c < G_N_ELEMENTS(cols); c++) g_ptr_array_add(cells, g_strdup(titles[c]));
  for (guint p = 0; p < runs->len; p++) {
    const run_figures *f = g_ptr_array_index(runs, p);
    g_ptr_array_add(cells, g_strdup(g_ptr_array_index(s->names, p)));
    for (guint k = 0; k < nk; k++)
      g_ptr_array_add(cells, figures_clean_text(sweep_grid_value(s->grid, k, p)));
    for (guint c = 0; c < G_N_ELEMENTS(cols); c++) {
      GString *cell = g_string_new(NULL);
      const figure *fig = f ? figures_find(f, cols[c]) : NULL;
      if (!f)
        g_string_append(cell, c == 0 ? "(not run)" : "");
      else
        sweep_cell(cell, fig, g_ptr_array_index(groups, p), cols[c]);
      g_ptr_array_add(cells, g_string_free(cell, FALSE));
    }
  }
  gsize *width = g_new0(gsize, ncols);
  for (guint i = 0; i < cells->len; i++)
    width[i % ncols] = MAX(width[i % ncols], (gsize)g_utf8_strlen(g_ptr_array_index(cells, i), -1));
  for (guint i = 0; i < cells->len; i++) {
    guint c = i % ncols;
    const char *cell = g_ptr_array_index(cells, i);
    gsize pad = width[c] - (gsize)g_utf8_strlen(cell, -1);
    gboolean right = c > nk;
    if (c) g_string_append(out, "  ");
    if (right) g_string_append_printf(out, "%*s", (int)pad, "");
    g_string_append(out, cell);
    if (!right && c + 1 < ncols) g_string_append_printf(out, "%*s", (int)pad, "");
    if (c + 1 == ncols) g_string_append_c(out, '\n');
  }
  g_free(width);
  g_ptr_array_free(cells, TRUE);
  g_ptr_array_free(runs, TRUE);
  return TRUE;
}
