/* inv-mig.c: the invariants of MIG carved on demand, from events.csv alone: every instance
 * created (mig_create, "PROFILE@START") starts where its profile may (the catalogue's
 * rules), no two instances of a card share a memory slice at any time, compute slices and
 * instances stay within the card's, one destroyed (mig_destroy) was there, and a card
 * changes mode (reconfigure) only with no instance on it. */
#include "invariants.h"
#include "catalog.h"

/* What one card holds now. */
typedef struct inv_card {
  guint32 bits;              /* memory slices taken */
  guint compute, n;
  guint8 profile[CATALOG_MAX_INSTANCES], start[CATALOG_MAX_INSTANCES];
} inv_card;

/* "3g.40gb@4" into its profile index and start; FALSE when it does not parse. */
static gboolean inv_mig_parse(const gpu_model *m, const char *detail, int *q, guint *start) {
  const char *at = strchr(detail, '@');
  if (!at) return FALSE;
  g_autofree char *name = g_strndup(detail, (gsize)(at - detail));
  char *end = NULL;
  unsigned long s = strtoul(at + 1, &end, 10);
  *q = catalog_profile_index(m, name);
  *start = (guint)s;
  return *q >= 0 && end != at + 1 && s < 8;
}

/* Adds the instance to the card, or says which rule it breaks (owned). */
static char *inv_mig_add(const gpu_model *m, inv_card *card, int q, guint s) {
  const mig_profile *pr = &m->profiles[q];
  guint32 bits = ((1u << pr->mem_slices) - 1u) << s;
  if (!(pr->starts_mask & (1u << s)) || s + pr->mem_slices > m->mig_slots)
    return g_strdup_printf("%s may not start at slice %u", pr->name, s);
  if (card->bits & bits)
    return g_strdup_printf("%s@%u overlaps slices taken (mask 0x%02x)", pr->name, s, card->bits);
  if (card->compute + pr->compute_slices > m->mig_compute_slices ||
      card->n + 1 > m->mig_max_instances)
    return g_strdup_printf("%s@%u passes the card's compute slices or instances", pr->name, s);
  card->bits |= bits;
  card->compute += pr->compute_slices;
  card->profile[card->n] = (guint8)q;
  card->start[card->n++] = (guint8)s;
  return NULL;
}

/* Removes the instance from the card; FALSE when it is not there. */
static gboolean inv_mig_remove(const gpu_model *m, inv_card *card, int q, guint s) {
  for (guint i = 0; i < card->n; i++) {
    if (card->profile[i] != q || card->start[i] != s) continue;
    const mig_profile *pr = &m->profiles[q];
    card->bits &= ~(((1u << pr->mem_slices) - 1u) << s);
    card->compute -= pr->compute_slices;
    card->profile[i] = card->profile[card->n - 1];
    card->start[i] = card->start[--card->n];
    return TRUE;
  }
  return FALSE;
}

/* The check of one event row of a card of pool p (model m); FALSE once it failed. */
static gboolean inv_mig_row(const inv_table *t, guint r, const gpu_model *m, inv_card *card,
                            const char *where, inv_report *rep) {
  const char *e = inv_cell(t, r, inv_col(t, "event"));
  const char *detail = inv_cell(t, r, inv_col(t, "detail"));
  gboolean create = !strcmp(e, "mig_create"), destroy = !strcmp(e, "mig_destroy");
  if (!strcmp(e, "reconfigure") && card->n) {
    inv_fail(rep, "mig-slices", "%s: mode change with %u instances on the card", where, card->n);
    return FALSE;
  }
  if (!create && !destroy) return TRUE;
  int q;
  guint s;
  if (!inv_mig_parse(m, detail, &q, &s)) {
    inv_fail(rep, "mig-slices", "%s: %s detail '%s' is not PROFILE@START", where, e, detail);
    return FALSE;
  }
  g_autofree char *why = create ? inv_mig_add(m, card, q, s) : NULL;
  if (destroy && !inv_mig_remove(m, card, q, s))
    why = g_strdup_printf("%s destroyed, not on the card", detail);
  if (why) inv_fail(rep, "mig-slices", "%s: %s", where, why);
  return why == NULL;
}

void inv_check_mig_slices(const inv_case *c, const inv_table *t, inv_report *rep) {
  int cp = inv_col(t, "pool"), cn = inv_col(t, "node"), cg = inv_col(t, "gpu");
  for (int i = 0; i < c->n_pools; i++) {
    if (strcmp(c->pools[i].strategy->name, "mig-dynamic")) continue;
    const gpu_model *m = catalog_find(c->pools[i].gpu);
    if (!m || !m->mig_slots) continue;
    GHashTable *cards = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    rep->checks++;
    for (guint r = 0; r < inv_rows(t); r++) {
      if (strcmp(inv_cell(t, r, cp), c->pools[i].name) || !*inv_cell(t, r, cg)) continue;
      char *key = g_strdup_printf("n%s/g%s", inv_cell(t, r, cn), inv_cell(t, r, cg));
      inv_card *card = g_hash_table_lookup(cards, key);
      if (!card) {
        card = g_new0(inv_card, 1);
        g_hash_table_insert(cards, g_strdup(key), card);
      }
      g_autofree char *where = g_strdup_printf("pool %s %s at %s s", c->pools[i].name, key,
                                               inv_cell(t, r, inv_col(t, "t_s")));
      g_free(key);
      if (!inv_mig_row(t, r, m, card, where, rep)) break;
    }
    g_hash_table_destroy(cards);
  }
}
