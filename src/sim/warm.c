/* warm.c: the fixed points a shared card has reached, by their inputs, for gpu_end's warm
 * start (warm.h). A card's entries live in a hash table by the card's record (looked up,
 * never walked, so the table's order reaches nothing); an entry is replaced round robin. */
#include "warm.h"
#include "workload.h"
#include <string.h>

typedef struct warm_entry {
  warm_key key;
  double duty[WARM_RESIDENTS];
} warm_entry;

typedef struct warm_card {
  guint32 next;                /* the entry replaced next */
  guint32 used;
  warm_entry e[WARM_WAYS];
} warm_card;

struct warm {
  GHashTable *cards;           /* gpu_state * -> warm_card * */
};

warm *warm_new(void) {
  warm *w = g_new0(warm, 1);
  w->cards = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
  return w;
}

void warm_free(warm *w) {
  if (!w) return;
  g_hash_table_destroy(w->cards);
  g_free(w);
}

gboolean warm_key_of(const gpu_state *g, warm_key *k) {
  if (g->n_residents > WARM_RESIDENTS) return FALSE;
  gboolean follows = FALSE;
  memset(k, 0, sizeof *k);
  k->n = g->n_residents;
  for (guint i = 0; i < g->n_residents; i++) {
    const job_run *j = g->residents[i]->job;
    k->row[i] = j->index;
    if (j->wl->duty) {
      follows = TRUE;
      k->in[i][0] = j->wl->duty(j, 1.0); /* its duty at full speed: its offered load */
    } else {
      k->in[i][0] = j->duty;
    }
    k->in[i][1] = j->sm;
  }
  return follows;
}

static warm_entry *warm_find(warm_card *c, const warm_key *k) {
  for (guint32 e = 0; e < c->used; e++)
    if (!memcmp(&c->e[e].key, k, sizeof *k)) return &c->e[e];
  return NULL;
}

gboolean warm_start(warm *w, const gpu_state *g, const warm_key *k) {
  warm_card *c = g_hash_table_lookup(w->cards, g);
  warm_entry *e = c ? warm_find(c, k) : NULL;
  if (!e) return FALSE;
  for (guint i = 0; i < g->n_residents; i++) {
    job_run *j = g->residents[i]->job;
    if (j->wl->duty) j->duty = e->duty[i];
  }
  return TRUE;
}

void warm_store(warm *w, const gpu_state *g, const warm_key *k) {
  warm_card *c = g_hash_table_lookup(w->cards, g);
  if (!c) {
    c = g_new0(warm_card, 1);
    g_hash_table_insert(w->cards, (gpointer)g, c);
  }
  warm_entry *e = warm_find(c, k);
  if (!e) {
    e = &c->e[c->next];
    c->next = (c->next + 1) % WARM_WAYS;
    if (c->used < WARM_WAYS) c->used++;
    memcpy(&e->key, k, sizeof *k);
  }
  for (guint i = 0; i < g->n_residents; i++) e->duty[i] = g->residents[i]->job->duty;
}
