/* test-migdyn.c: MIG carved on demand (share-migdyn.c): on one A100-80GB a small request
 * sequence creates the instances and positions computed by hand (least-damage and
 * first-fit), a request that fits the free slices in no valid position is reported as
 * fragmentation, a whole-card job switches a card out of MIG mode, and over every request
 * sequence up to length 4 no two instances ever share a slice and none starts where its
 * profile may not. */
#include "testutil.h"
#include "catalog.h"
#include <string.h>

#define MD_POOL(extra)                                                                      \
  "name: d\npools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n    gpus_per_node: 1\n" \
  "    strategy: mig-dynamic\n" extra
#define MD_HDR "id,submit_s,kind,gpus,mem_gb,duration_s,sm\n"

/* "t kind detail" of r's events of the given kinds, one per line. Owned. */
static char *md_events(const results *r) {
  GString *s = g_string_new(NULL);
  for (guint i = 0; i < r->events_log->len; i++) {
    const event_row *e = &g_array_index(r->events_log, event_row, i);
    if (e->kind != EVENT_MIG_CREATE && e->kind != EVENT_MIG_DESTROY &&
        e->kind != EVENT_MIG_FRAGMENTED && e->kind != EVENT_RECONFIGURE)
      continue;
    g_string_append_printf(s, "%g %s %s %s\n", e->t_s, event_kind_name(e->kind),
                           e->cause_job ? e->cause_job : "-", e->detail);
  }
  return g_string_free(s, FALSE);
}

/* a (8 GB: 1g.10gb), b (30 GB: 3g.40gb), c (15 GB: 1g.20gb), d (8 GB) arrive together on
 * an empty card (sm 0.1: every instance runs them at full speed). Least-damage, by hand:
 * a at 5 (at 6 it would strand slice 7, which only a 1g.20gb at 6 or larger instances use;
 * 4 and 5 block the same positions, the higher start wins; 0 to 3 would block the 4g);
 * b at 0 (4 is blocked); c at 6 (4 is blocked); d at 4, the last free 1g.10gb position.
 * Created at 0, they start at 5 s (instance_create_time); a ends at 105 s and its
 * instance is gone at 107 s (instance_destroy_time), so e (8 GB, waiting since 50 s: no
 * free slice) is carved at 5 then and starts at 112 s. */
Test(migdyn, least_damage_sequence_computed_by_hand) {
  results *r = tu_run(MD_POOL(""), MD_HDR "a,0,batch,1,8,100,0.1\nb,0,batch,1,30,1000,0.1\n"
                      "c,0,batch,1,15,1000,0.1\nd,0,batch,1,8,1000,0.1\ne,50,batch,1,8,10,0.1\n",
                      NULL);
  g_autofree char *ev = md_events(r);
  cr_expect_str_eq(ev, "0 mig_create a 1g.10gb@5\n"
                       "0 mig_create b 3g.40gb@0\n"
                       "0 mig_create c 1g.20gb@6\n"
                       "0 mig_create d 1g.10gb@4\n"
                       "107 mig_destroy - 1g.10gb@5\n"
                       "107 mig_create e 1g.10gb@5\n"
                       "124 mig_destroy - 1g.10gb@5\n"
                       "1007 mig_destroy - 3g.40gb@0\n"
                       "1007 mig_destroy - 1g.20gb@6\n"
                       "1007 mig_destroy - 1g.10gb@4\n");
  TU_NEAR(tu_job(r, "a")->start_s, 5, 1e-9);
  TU_NEAR(tu_job(r, "e")->start_s, 112, 1e-9);
  results_free(r);
}

/* Fragmentation: a, x, y (8 GB each) go to 5, 4 and 3 (by the rule above: after a at 5,
 * 4 blocks nothing larger that is still free; then 6 would strand 7 and 3 ties with 0, the
 * higher start wins); x ends at 25 s. z (30 GB: 3g.40gb) at 100 s finds six free slices
 * and five compute slices, but a 3g.40gb starts only at 0 or 4, both blocked: refused by
 * fragmentation (reported once), carved at 4 when a's and y's instances are gone. */
Test(migdyn, a_request_that_fits_the_free_slices_in_no_position_is_fragmentation) {
  results *r = tu_run(MD_POOL(""), MD_HDR "a,0,batch,1,8,1000,0.1\nx,0,batch,1,8,20,0.1\n"
                      "y,0,batch,1,8,1000,0.1\nz,100,batch,1,30,100,0.1\n", NULL);
  g_autofree char *ev = md_events(r);
  cr_expect_str_eq(ev, "0 mig_create a 1g.10gb@5\n"
                       "0 mig_create x 1g.10gb@4\n"
                       "0 mig_create y 1g.10gb@3\n"
                       "27 mig_destroy - 1g.10gb@4\n"
                       "100 mig_fragmented z 3g.40gb x1: the free slices hold 1, no valid "
                       "position\n"
                       "1007 mig_destroy - 1g.10gb@5\n"
                       "1007 mig_destroy - 1g.10gb@3\n"
                       "1007 mig_create z 3g.40gb@4\n"
                       "1114 mig_destroy - 3g.40gb@4\n");
  TU_NEAR(tu_job(r, "z")->start_s, 1012, 1e-9);
  results_free(r);
}

/* The same four on first-fit: the lowest free start each time; b's 3g.40gb then goes to 4,
 * and d fills slice 1 beside a. */
Test(migdyn, first_fit_sequence_computed_by_hand) {
  results *r = tu_run(MD_POOL("    carve: first-fit\n    instance_create_time: 0s\n"),
                      MD_HDR "a,0,batch,1,8,100,0.1\nb,0,batch,1,30,1000,0.1\n"
                      "c,0,batch,1,15,1000,0.1\nd,0,batch,1,8,1000,0.1\n", NULL);
  g_autofree char *ev = md_events(r);
  cr_expect(g_str_has_prefix(ev, "0 mig_create a 1g.10gb@0\n"
                                 "0 mig_create b 3g.40gb@4\n"
                                 "0 mig_create c 1g.20gb@2\n"
                                 "0 mig_create d 1g.10gb@1\n"), "%s", ev);
  TU_NEAR(tu_job(r, "a")->start_s, 0, 1e-9);
  results_free(r);
}

/* A worker whose sm reaches whole_card_sm takes the card out of MIG mode once the 1g.10gb
 * job on it is gone and its instance destroyed: drained, down reconfigure_time, then it
 * runs on the whole card. */
Test(migdyn, whole_card_job_switches_the_mode_after_the_drain) {
  results *r = tu_run(MD_POOL("    whole_card_sm: 1\n    reconfigure_time: 60s\n"),
                      MD_HDR "a,0,batch,1,8,100,0.1\nw,10,training,1,40,100,1\n", NULL);
  g_autofree char *ev = md_events(r);
  cr_expect_str_eq(ev, "0 mig_create a 1g.10gb@5\n"
                       "107 mig_destroy - 1g.10gb@5\n"
                       "107 reconfigure w mode MIG -> full; drained 97.000 s (drain: wait); "
                       "down 60.000 s\n");
  TU_NEAR(tu_job(r, "w")->start_s, 167, 1e-9);
  cr_expect_eq(g_array_index(r->pools, pool_result, 0).reconfigurations, 1);
  results_free(r);
}

/* Replays r's instance events on one card: every create at an allowed start, within the
 * card, on free slices; every destroy of an instance there. FALSE with why. */
static gboolean md_replay(const gpu_model *m, const results *r, GString *why) {
  guint32 bits = 0;
  for (guint i = 0; i < r->events_log->len; i++) {
    const event_row *e = &g_array_index(r->events_log, event_row, i);
    if (e->kind != EVENT_MIG_CREATE && e->kind != EVENT_MIG_DESTROY) continue;
    g_auto(GStrv) w = g_strsplit(e->detail, "@", 2);
    int q = w[0] && w[1] ? catalog_profile_index(m, w[0]) : -1;
    guint s = q >= 0 ? (guint)atoi(w[1]) : 0;
    if (q < 0) return g_string_append_printf(why, "bad detail '%s'", e->detail), FALSE;
    const mig_profile *pr = &m->profiles[q];
    guint32 b = ((1u << pr->mem_slices) - 1u) << s;
    if (e->kind == EVENT_MIG_DESTROY) {
      if ((bits & b) != b) return g_string_append_printf(why, "%s gone, not there", e->detail), FALSE;
      bits &= ~b;
      continue;
    }
    if (!(pr->starts_mask & (1u << s)) || s + pr->mem_slices > m->mig_slots)
      return g_string_append_printf(why, "%s: not a valid start", e->detail), FALSE;
    if (bits & b) return g_string_append_printf(why, "%s overlaps 0x%02x", e->detail, bits), FALSE;
    bits |= b;
  }
  return TRUE;
}

/* Every sequence of 1 to 4 requests, each of any of the six profiles' sizes (by memory and
 * compute), one every 10 s, the odd ones short (12 s: their instances are destroyed before
 * the next but one arrives), the even ones long, on one A100-80GB (7 compute slices, 8
 * memory slices): never an overlap or an invalid start. */
Test(migdyn, exhaustive_sequences_never_overlap_or_start_where_not_allowed) {
  /* memory and sm of a request of each profile: 1g.10gb, 1g.20gb, 2g.20gb, 3g.40gb,
   * 4g.40gb, 7g.80gb */
  static const char *const mem[] = {"8", "15", "15", "30", "30", "60"};
  static const char *const sms[] = {"0.1", "0.1", "0.25", "0.3", "0.5", "1"};
  G_STATIC_ASSERT(G_N_ELEMENTS(mem) == G_N_ELEMENTS(sms));
  const gpu_model *m = catalog_find("A100-80GB");
  g_autofree char *sp = tu_write_temp("md.yaml",
                                      MD_POOL("    instance_fit: memory-and-compute\n"));
  g_autoptr(diag_list) d = diag_list_new(0);
  scenario *sc = scenario_load(sp, d);
  cr_assert_not_null(sc);
  guint runs = 0, created = 0;
  for (guint len = 1; len <= 4; len++) {
    guint total = 1;
    for (guint k = 0; k < len; k++) total *= G_N_ELEMENTS(mem);
    for (guint code = 0; code < total; code++) {
      GString *csv = g_string_new(MD_HDR);
      for (guint k = 0, c = code; k < len; k++, c /= G_N_ELEMENTS(mem))
        g_string_append_printf(csv, "j%u,%u,batch,1,%s,%s,%s\n", k, 10 * k,
                               mem[c % G_N_ELEMENTS(mem)], k % 2 ? "12" : "1000",
                               sms[c % G_N_ELEMENTS(mem)]);
      g_autofree char *text = g_string_free(csv, FALSE);
      g_autofree char *tp = tu_write_temp("md.csv", text);
      trace *tr = trace_load(tp, d);
      cr_assert_not_null(tr);
      GError *err = NULL;
      results *r = sim_run(sc, tr, NULL, &err);
      cr_assert_not_null(r);
      g_autoptr(GString) why = g_string_new(NULL);
      cr_assert(md_replay(m, r, why), "%s\n%s", why->str, text);
      for (guint i = 0; i < r->events_log->len; i++)
        created += g_array_index(r->events_log, event_row, i).kind == EVENT_MIG_CREATE;
      results_free(r);
      trace_free(tr);
      runs++;
    }
  }
  cr_expect_eq(runs, 6 + 36 + 216 + 1296);
  cr_expect_geq(created, runs); /* every request got an instance, some after a wait */
  scenario_free(sc);
}

static char *md_load_error(const char *yaml) {
  g_autofree char *path = tu_write_temp("md-bad.yaml", yaml);
  g_autoptr(diag_list) d = diag_list_new(0);
  scenario *sc = scenario_load(path, d);
  cr_expect_null(sc);
  if (sc) scenario_free(sc);
  return diag_join(d);
}

Test(migdyn, bad_keys_are_refused_at_their_position) {
  g_autofree char *m1 = md_load_error(MD_POOL("    carve: best\n"));
  cr_expect(strstr(m1, ":8:12: pools[1].carve: expected one of least-damage | first-fit, "
                       "found 'best'"), "%s", m1);
  g_autofree char *m2 = md_load_error(MD_POOL("    whole_card_sm: 2\n"));
  cr_expect(strstr(m2, "pools[1].whole_card_sm: expected a share of the card's SMs greater "
                       "than 0 and at most 1, found '2'"), "%s", m2);
}
