# t-invcover.sh: the invariant suite (tests/invariants) generates pools of every sharing
# strategy and every placement policy the program's tables list, so a strategy or policy
# added by one table row cannot escape the invariants unnoticed. The lists come from the
# binary itself (the scenario reader's "expected one of" message walks the tables); each
# name must appear as a quoted entry of inv-gen.c's inv_strategies / inv_placements.
gen="$TOP_SRCDIR/tests/invariants/inv-gen.c"
printf 'pools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n    gpus_per_node: 1\n    strategy: no-such-strategy\n    placement: no-such-policy\n' > probe.yaml
run check probe.yaml; expect_rc 2
# table: the names after "expected one of" on the line of KEY, one per line
inv_table() { grep "\.$1: expected one of" err.txt | sed 's/.*expected one of \(.*\), found.*/\1/' | tr '|' '\n' | tr -d ' '; }
# entries: the quoted names of the C array NAME in inv-gen.c, one per line
inv_entries() { sed -n "/$1\[\] = {/,/};/p" "$gen" | grep -o '"[a-z0-9-]*"' | tr -d '"'; }
for pair in strategy:inv_strategies placement:inv_placements; do
  key=${pair%%:*}; arr=${pair#*:}
  names=$(inv_table "$key")
  if [ "$(echo "$names" | grep -c .)" -ge 5 ]; then pass; else fail "no $key list in the reader's message"; fi
  for n in $names; do
    if inv_entries "$arr" | grep -qx -- "$n"; then pass
    else fail "$key '$n' is in the program's table but not in $arr of tests/invariants/inv-gen.c"; fi
  done
  # and the other way: the generator names nothing the program does not have
  for n in $(inv_entries "$arr"); do
    if echo "$names" | grep -qx -- "$n"; then pass; else fail "$arr names '$n', which the program does not list"; fi
  done
done
