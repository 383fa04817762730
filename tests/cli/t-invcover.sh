# t-invcover.sh: the invariant suite (tests/invariants) covers every sharing strategy,
# placement policy and job kind the program's tables list, and every strategy key,
# placement key ("placement:NAME KEY" in --sampled-keys) and model constant
# (scenario_model_key) that declares values to draw, so that one added by a table row
# cannot escape the invariants.
# The generator draws them from the same tables (it links the library); this test asks
# the binary for its lists (the readers' "expected one of" messages) and the generator for
# cases (`invariants --gen SEED DIR`), and fails on a name no case uses.
inv="$(dirname "$SHARESIM")/tests/invariants/invariants"
if [ ! -x "$inv" ]; then skip_test "no $inv beside $SHARESIM"; return 0 2>/dev/null || exit 0; fi
printf 'pools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n    gpus_per_node: 1\n    strategy: no-such-strategy\n    placement: no-such-policy\n' > probe.yaml
run check probe.yaml; expect_rc 2
cp err.txt probe-err.txt
printf 'pools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n' > kinds.yaml
printf 'id,submit_s,kind,gpus,mem_gb,duration_s\nj,0,no-such-kind,1,1,10\n' > kinds.csv
run check kinds.yaml kinds.csv; expect_rc 2
cp err.txt kinds-err.txt
# table: the names after "expected one of" on the line of KEY (| or , between them)
inv_table() { grep "$1: expected one of" "$2" | sed 's/.*expected one of \(.*\), found.*/\1/' | tr '|,' '\n\n' | tr -d ' '; }
# 80 generated cases (60 until a ninth strategy left a hami key unset): their scenarios and traces
s=1; while [ $s -le 80 ]; do "$inv" --gen $s "case$s" || fail "invariants --gen $s"; s=$((s + 1)); done
cat case*/scenario.yaml > scenarios.txt; cut -d, -f3 case*/trace.csv > kinds.txt
# per-GPU MIG layouts (mig-parted per-device entries): some pools, with a MIG-off card among them
if [ "$(ls case*/mig-per-gpu.yaml 2>/dev/null | wc -l)" -ge 3 ]; then pass; else fail "fewer than 3 generated cases have per-GPU MIG layouts"; fi
if cat case*/mig-per-gpu.yaml 2>/dev/null | grep -q 'mig-enabled: false'; then pass; else fail "no generated per-GPU MIG config leaves a card with MIG off"; fi
for spec in strategy:probe-err.txt:strategy placement:probe-err.txt:placement kind:kinds-err.txt:kind; do
  key=${spec%%:*}; rest=${spec#*:}; file=${rest%%:*}
  names=$(inv_table "\.$key" "$file"); [ "$key" = kind ] && names=$(inv_table "kind" "$file")
  if [ "$(echo "$names" | grep -c .)" -ge 4 ]; then pass; else fail "no $key list in the reader's message"; fi
  for n in $names; do
    if [ "$key" = kind ]; then grep -qx -- "$n" kinds.txt && pass || fail "kind '$n' is in the program's table but in no generated trace"
    else grep -qx -- "    $key: $n" scenarios.txt && pass || fail "$key '$n' is in the program's table but in no generated scenario"; fi
  done
done
# every strategy key that declares values to draw is drawn, on a pool of that strategy
"$inv" --sampled-keys > sampled.txt
if [ "$(grep -c . sampled.txt)" -ge 5 ]; then pass; else fail "invariants --sampled-keys lists too little: $(cat sampled.txt)"; fi
while read -r st key; do
  if [ "$st" = scenario ]; then # a model's constant: top level, or SEC: {KEY: ...}
    case $key in *.*) pat="^${key%%.*}: \{(.*, )?${key#*.}: " ;; *) pat="^$key: " ;; esac
    if grep -qE -- "$pat" scenarios.txt; then pass; else fail "no generated scenario sets '$key' (its declaration has a sample)"; fi
    continue
  fi
  head="    strategy: $st"; case $st in placement:*) head="    placement: ${st#placement:}" ;; esac
  if awk -v head="$head" -v key="    $key: " '/^  - name: /{on=0} $0 == head {on=1} on && index($0, key) == 1 {found=1} END {exit !found}' case*/scenario.yaml; then pass
  else fail "no generated $st pool sets '$key' (its declaration has a sample)"; fi
done < sampled.txt
if grep -q "^scenario " sampled.txt; then pass; else fail "invariants --sampled-keys lists no model constant"; fi
# the restart back-off's and the idle culler's keys (top level): drawn off and on
for v in "restart_backoff: 0s" "restart_backoff: 10s" "restart_backoff_max: 5s" "restart_backoff_reset: 0s" \
         "notebook_cull_timeout: 30s" "notebook_cull_timeout: 1h"; do
  grep -qx -- "$v" scenarios.txt && pass || fail "no generated scenario sets '$v'"
done
