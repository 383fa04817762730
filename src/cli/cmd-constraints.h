/* cmd-constraints.h: the constraint options that `size` and `compare --size-to-constraints`
 * share (--slo PCT[@LATENCY], --max-oom N, --max-wait-p95 DUR), checked into the
 * sizing_constraints that sizing.c judges a run against. */
#pragma once
#include "scenario.h"
#include "sizing.h"
#include "trace.h"

/* The options' texts (NULL: not given; max_oom -1: not given) into *cons, and the --slo
 * percentage into *slo_pct (NAN without --slo). FALSE after printing "sharesim NAME: ..."
 * when one is not what it should be. */
gboolean cmd_constraints_parse(const char *name, const char *slo, gint64 max_oom,
                               const char *max_wait, sizing_constraints *cons,
                               double *slo_pct);
/* The most nodes pool ps may be given (the scenario's limits on a pool's GPUs and nodes),
 * and size's default --max within it: max(64, 8 x its own nodes). */
gint64 cmd_constraints_node_cap(const pool_spec *ps);
gint64 cmd_constraints_default_max(const pool_spec *ps);
/* --slo PCT@LATENCY: every inference service of tr gets that SLO, as if the trace said so
 * (nothing when no latency was given). */
void cmd_constraints_apply(const sizing_constraints *cons, double slo_pct, trace *tr);
