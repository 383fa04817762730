/* inv-blast.c: the blast radius's conservation (docs/models.md "Blast radius"): the pairs
 * of summary.json's blast_radius add up to the run's innocent victims (died) and evictions
 * (evicted), nothing stalls, and tenants.csv's blast_caused and blast_suffered are the
 * pairs across tenants, by source and by victim. */
#include "invariants.h"
#include "jsonlimit.h"
#include <json-glib/json-glib.h>

typedef struct inv_blast_sums {
  double died, stalled, evicted;
  GHashTable *caused, *suffered; /* tenant -> double* (across tenants only), owned */
} inv_blast_sums;

static void inv_blast_add(GHashTable *h, const char *tenant, double n) {
  double *v = g_hash_table_lookup(h, tenant);
  if (!v) g_hash_table_insert(h, g_strdup(tenant), v = g_new0(double, 1));
  *v += n;
}

static double inv_json_num(JsonObject *o, const char *member) {
  JsonNode *n = o ? json_object_get_member(o, member) : NULL;
  return n && JSON_NODE_HOLDS_VALUE(n) ? json_node_get_double(n) : NAN;
}

/* Sums the pairs of the blast_radius object; FALSE when it is missing or malformed. */
static gboolean inv_blast_read(JsonObject *blast, inv_blast_sums *s) {
  GList *kinds = json_object_get_members(blast);
  gboolean ok = kinds != NULL;
  for (GList *k = kinds; k && ok; k = k->next) {
    JsonNode *a = json_object_get_member(blast, k->data);
    ok = JSON_NODE_HOLDS_ARRAY(a);
    for (guint i = 0; ok && i < json_array_get_length(json_node_get_array(a)); i++) {
      JsonObject *p = json_array_get_object_element(json_node_get_array(a), i);
      const char *from = json_object_get_string_member(p, "from");
      const char *to = json_object_get_string_member(p, "to");
      double d = inv_json_num(p, "died"), st = inv_json_num(p, "stalled"),
             ev = inv_json_num(p, "evicted");
      s->died += d;
      s->stalled += st;
      s->evicted += ev;
      if (strcmp(from, to) && strcmp(from, "-")) {
        inv_blast_add(s->caused, from, d + st + ev);
        inv_blast_add(s->suffered, to, d + st + ev);
      }
    }
  }
  g_list_free(kinds);
  return ok;
}

/* tenants.csv's column against the pairs' sums for every tenant. */
static void inv_blast_tenants(const inv_table *t, const char *col, GHashTable *want,
                              inv_report *rep) {
  int c = inv_col(t, col);
  rep->checks++;
  if (c < 0) {
    inv_fail(rep, "blast-tenants", "tenants.csv has no %s column", col);
    return;
  }
  for (guint r = 0; r < inv_rows(t); r++) {
    const double *w = g_hash_table_lookup(want, inv_key(t, r));
    double got = inv_num(t, r, c), exp = w ? *w : 0;
    if (got != exp)
      inv_fail(rep, "blast-tenants", "tenant %s: tenants.csv %s %g, summary.json's pairs %g",
               inv_key(t, r), col, got, exp);
  }
}

void inv_check_blast(const inv_folder *f, const char *out, inv_report *rep) {
  g_autofree char *path = g_build_filename(out, "summary.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new();
  rep->checks++;
  if (!jsonlimit_load_file(parser, path, NULL, NULL, NULL)) {
    inv_fail(rep, "blast", "%s cannot be read", path);
    return;
  }
  JsonObject *root = json_node_get_object(json_parser_get_root(parser));
  JsonObject *totals = json_object_get_object_member(root, "totals");
  JsonNode *bn = json_object_get_member(root, "blast_radius");
  inv_blast_sums s = {0};
  s.caused = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  s.suffered = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  if (!bn || !JSON_NODE_HOLDS_OBJECT(bn) || !inv_blast_read(json_node_get_object(bn), &s)) {
    inv_fail(rep, "blast", "summary.json has no well-formed blast_radius object");
  } else if (s.died != inv_json_num(totals, "innocent_victims") || s.stalled != 0 ||
             s.evicted != inv_json_num(totals, "evictions")) {
    inv_fail(rep, "blast", "the pairs count %g died, %g stalled, %g evicted; the run %g "
             "innocent victims, %g evictions", s.died, s.stalled, s.evicted,
             inv_json_num(totals, "innocent_victims"), inv_json_num(totals, "evictions"));
  } else {
    inv_blast_tenants(f->tenants, "blast_caused", s.caused, rep);
    inv_blast_tenants(f->tenants, "blast_suffered", s.suffered, rep);
  }
  g_hash_table_destroy(s.caused);
  g_hash_table_destroy(s.suffered);
}
