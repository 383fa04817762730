/* cmd-seeds.h: `--seeds N` of run, compare and size: the option checked, the seeded
 * scenarios loaded, and the seeds of one or several scenarios run into seeds folders
 * (seeds.h: seed-S/ per seed beside seeds.txt, seeds.csv and seeds.json). */
#pragma once
#include "scenario.h"
#include "seeds.h"
#include "trace.h"

/* --seeds TEXT: a whole number from 2 to SEEDS_MAX into *n (TEXT NULL: *n = 1, one run
 * as without the option). FALSE after printing "sharesim NAME: --seeds ...". */
gboolean cmd_seeds_parse(const char *name, const char *text, guint *n);
/* first + n - 1 is a seed (n < 2: always): FALSE after printing why not. */
gboolean cmd_seeds_check_range(const char *name, guint64 first, guint n);
/* The scenario of path with the overrides sets and seed first + k, for k < n, into sc[k],
 * each checked as run checks it (and against the work budget for tr): FALSE after
 * printing the problems, with sc[] freed. A first seed so large that first + n - 1 passes
 * the largest seed is refused the same way. */
gboolean cmd_seeds_load(const char *name, const char *path, const char *const *sets,
                        guint n_sets, guint64 first, guint n, const trace *tr, scenario **sc);
/* Runs sc[g * n_seeds + k] (seed k of scenario g) on tr, jobs at once, each into DIR/seed-S
 * of its scenario's seeds folder DIR = dirs[g], written whole or not at all (outdir.h);
 * tables[g] receives the figures of scenario g's seeds (owned). Returns 0, or the exit
 * code after printing why (the first failing run in that order; no folder is left). */
int cmd_seeds_run(const char *name, scenario *const *sc, guint n_groups, guint n_seeds,
                  const trace *tr, const char *const *dirs, guint jobs, gboolean progress,
                  seeds_table **tables);
