# t-bursts.sh: the notebooks' bursts walked without events (src/sim/bursts.c) give the
# folder the events give (SHARESIM_BURST_EVENTS=1), byte for byte: every file, and
# summary.json but its engine.heap_events. The cases cut walks in every way: session ends,
# random crashes of notebooks mid-burst and mid-gap, a horizon, phases that change a
# notebook's duty, tenants, several pools (shared ones keep their events: shared-pools.yaml's notebooks share cards), a 1,000-job
# generated trace. The walked runs must walk (heap_events below events).
X="$SCEN/baseline-exclusive.yaml"; M="$TRACES/mixed-small.csv"
"$SHARESIM" gen --profile mixed --gpus 64 --days 2 --jobs 1000 --seed 5 > gen.csv 2>/dev/null
# phases on the notebooks: a busier duty, then a quieter one and more memory, a crash
awk -F, 'NR > 1 && $3 == "notebook" { n++
  if (n % 3 == 0) print $1 ",900,,0.8,,,"
  if (n % 3 == 1) print $1 ",1800,20,0.05,0.3,,"
  if (n % 5 == 2) print $1 ",2500,,,,,1" }' "$M" | sed '1i job_id,after_s,mem_gb,busy,sm,rate_rps,crash' > phases.csv
i=0
while IFS='|' read -r name walks scen trace extra; do
  [ -n "$name" ] || continue
  i=$((i + 1))
  # shellcheck disable=SC2086
  run run "$scen" "$trace" $extra -q --no-progress -o "w$i"
  expect_rc 0
  # shellcheck disable=SC2086
  SHARESIM_BURST_EVENTS=1 "$SHARESIM" run "$scen" "$trace" $extra -q --no-progress -o "e$i" \
    >/dev/null 2>&1
  LAST="walked against events: $name"
  if diff -r -x summary.json "w$i" "e$i" >/dev/null; then pass; else fail "$name: files differ"; fi
  grep -v '"heap_events"' "w$i/summary.json" > w.json
  grep -v '"heap_events"' "e$i/summary.json" > e.json
  if cmp -s w.json e.json; then pass; else fail "$name: summary.json differs"; fi
  ev=$(sed -n 's/.*"events" : \([0-9]*\).*/\1/p' "e$i/summary.json")
  he=$(sed -n 's/.*"heap_events" : \([0-9]*\).*/\1/p' "e$i/summary.json")
  expect_eq "$he" "$ev" "$name: without the walk every event is the engine's"
  hw=$(sed -n 's/.*"heap_events" : \([0-9]*\).*/\1/p' "w$i/summary.json")
  if [ "$walks" = no ]; then expect_eq "$hw" "$ev" "$name: no notebook alone on a card"
  elif [ "${hw:-0}" -lt "${ev:-0}" ]; then pass; else fail "$name: nothing walked ($hw of $ev)"; fi
done <<CASES
exclusive|yes|$X|$M|
crashes|yes|$X|$M|--set crash_rates.notebook=3 --set crash_rates.training=0.5
horizon|yes|$X|$M|--set horizon=8h
shared|no|$SCEN/shared-pools.yaml|$M|
phases|yes|$X|$M|--phases phases.csv
generated|yes|$X|gen.csv|--set crash_rates.notebook=0.5
CASES
