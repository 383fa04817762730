# t-reference.sh: every fast path of the run against its reference implementation
# (src/sim/reference.h), as ns-3 runs one suite over its schedulers: each case runs the
# default way and with `run --reference` (and the paths one at a time), and the folders
# must be the same bytes: every file, and summary.json but its engine.heap_events (the
# walked bursts are counted as events, not heap events). The cases cut walked bursts
# (src/sim/bursts.c) in every way: session ends, random crashes of notebooks mid-burst and
# mid-gap, a horizon, phases that change a notebook's duty, tenants, several pools
# (shared-pools.yaml's notebooks share cards: nothing walked), a 1,000-job generated
# trace, Kueue queues that reclaim by preemption; inference services take the call-free request loop or the general one; cards
# with one resident the specialised fixed point or the general one; events the radix heap
# or a binary heap; shared cards' fixed points from a warm start or a cold one (to the last
# digit, at the end). Then random services (seeds, rates, service times, distributions, cv,
# batch sizes) against the general loop.
X="$SCEN/baseline-exclusive.yaml"; M="$TRACES/mixed-small.csv"
"$SHARESIM" gen --profile mixed --gpus 64 --days 2 --jobs 1000 --seed 5 > gen.csv 2>/dev/null
# a generated trace of two teams (gangs up to 4 GPUs) on Kueue's reclaim example: queues
# that borrow, reclaim and preempt by priority (the quota fast path, SIM_REF_QUOTA; 29
# preemptions; a pass that kept the failures of before a preemption moves 7 files)
"$SHARESIM" gen --profile mixed --gpus 16 --days 1 --jobs 3000 --seed 5 2>/dev/null |
  awk -F, -v OFS=, 'NR == 1 { print; next } $4 <= 4 { $7 = NR % 2 ? "team-a" : "team-b"; print }' |
  head -1200 > kq.csv
# phases on the notebooks: a busier duty, then a quieter one and more memory, a crash
awk -F, 'NR > 1 && $3 == "notebook" { n++
  if (n % 3 == 0) print $1 ",900,,0.8,,,"
  if (n % 3 == 1) print $1 ",1800,20,0.05,0.3,,"
  if (n % 5 == 2) print $1 ",2500,,,,,1" }' "$M" | sed '1i job_id,after_s,mem_gb,busy,sm,rate_rps,crash' > phases.csv

# same_folders A B NAME: A and B hold the same bytes (summary.json but heap_events)
same_folders() {
  LAST="$3: $1 against $2"
  if diff -r -x summary.json "$1" "$2" >/dev/null; then pass; else fail "$3: files differ"; fi
  grep -v '"heap_events"' "$1/summary.json" > a.json
  grep -v '"heap_events"' "$2/summary.json" > b.json
  if cmp -s a.json b.json; then pass; else fail "$3: summary.json differs"; fi
}
heap_events() { sed -n 's/.*"heap_events" : \([0-9]*\).*/\1/p' "$1/summary.json"; }
events() { sed -n 's/.*"events" : \([0-9]*\).*/\1/p' "$1/summary.json"; }

# With SHARESIM_SKIP_REPEATS (the sanitizer and distcheck stages) the paths one at a time
# and 7 of the 10 random-service rounds are left out: every path's code still runs, in the
# default and the --reference runs; the check stage compares them all.
one_at_a_time=yes; rounds=10
if skip_repeat "t-reference: the fast paths one at a time and 7 of 10 random-service rounds"; then
  one_at_a_time=no; rounds=3
fi
i=0
while IFS='|' read -r name walks paths scen trace extra; do
  [ -n "$name" ] || continue
  i=$((i + 1))
  [ "$one_at_a_time" = yes ] || paths=""
  # shellcheck disable=SC2086
  run run "$scen" "$trace" $extra -q --no-progress -o "f$i"
  expect_rc 0
  # shellcheck disable=SC2086
  run run "$scen" "$trace" $extra -q --no-progress -o "r$i" --reference
  expect_rc 0
  same_folders "f$i" "r$i" "fast against reference: $name"
  for path in $paths; do  # each path alone too, where it is cheap
    # shellcheck disable=SC2086
    run run "$scen" "$trace" $extra -q --no-progress -o "$path$i" --reference-only=$path
    expect_rc 0
    same_folders "f$i" "$path$i" "fast against reference $path: $name"
  done
  ev=$(events "r$i")
  expect_eq "$(heap_events "r$i")" "$ev" "$name: without the walk every event is the engine's"
  [ -d "bursts$i" ] && expect_eq "$(heap_events "bursts$i")" "$ev" "$name: --reference-only=bursts walks nothing"
  hw=$(heap_events "f$i")
  if [ "$walks" = no ]; then expect_eq "$hw" "$ev" "$name: no notebook alone on a card"
  elif [ "${hw:-0}" -lt "${ev:-0}" ]; then pass; else fail "$name: nothing walked ($hw of $ev)"; fi
  rm -rf "f$i" "r$i" "bursts$i" "requests$i" "one$i" "queue$i"
done <<CASES
exclusive|yes|bursts requests one queue|$X|$M|
crashes|yes|bursts queue|$X|$M|--set crash_rates.notebook=3 --set crash_rates.training=0.5
horizon|yes||$X|$M|--set horizon=8h
shared|no|one|$SCEN/shared-pools.yaml|$M|
phases|yes|bursts|$X|$M|--phases phases.csv
generated|yes||$X|gen.csv|--set crash_rates.notebook=0.5
mps|no|requests|$SCEN/embeddings-mps.yaml|$M|--set inference.service_dist=exponential
kueue|yes|quota|$DATA/kueue/s-reclaim2.yaml|kq.csv|--set inference.model=fluid
CASES

# Random services: the call-free request loop (inf_serve_fast) against the general one
# (inf_serve_loop), over seeds, arrival rates, service times, distributions, cv and batch
# sizes, on exclusive cards (one slot and many, fixed and drawn work) and time-sliced ones
# (turns: the general loop both ways), each service restarted by crashes mid-interval.
k=0
while [ $k -lt $rounds ]; do
  k=$((k + 1))
  awk -v k=$k 'BEGIN { srand(k * 7919)
    print "id,submit_s,kind,gpus,mem_gb,duration_s,tenant,rate_rps,service_ms,slo_ms,slo_pct,kv_gb,max_batch"
    for (s = 1; s <= 6; s++) {
      rate = int(1 + rand() * 400); ms = 0.2 + rand() * 40; b = int(1 + rand() * 48)
      if (rand() < 0.4) b = 1
      slo = ""; pct = ""; kv = ""
      if (rand() < 0.5) { slo = sprintf("%.1f", ms * (1 + rand() * 4)); pct = 99 }
      if (b > 1) kv = "0.01"
      printf "svc-%d,%.1f,inference,1,4,%d,team-%d,%d,%.3f,%s,%s,%s,%d\n", s, rand() * 300,
        600 + int(rand() * 1800), s % 3, rate, ms, slo, pct, kv, b
    }
    u = rand(); dist = "lognormal"
    if (u < 0.34) dist = "deterministic"; else if (u < 0.67) dist = "exponential"
    printf "%d %s %.3f\n", int(rand() * 1e6), dist, rand() * 3 > "svc.set"
  }' > svc.csv
  read -r seed dist cv < svc.set
  for scen in "$X" "$SCEN/dev-timeslice.yaml"; do
    set -- --set seed="$seed" --set inference.service_dist="$dist" --set inference.service_cv="$cv" \
      --set crash_rates.inference=2 -q --no-progress
    run run "$scen" svc.csv "$@" -o fs
    expect_rc 0
    run run "$scen" svc.csv "$@" -o rs --reference-only=requests
    expect_rc 0
    same_folders fs rs "random services $k (seed $seed, $dist, cv $cv, $(basename "$scen"))"
    rm -rf fs rs
  done
done

# The fixed point's warm start (src/sim/warm.c): cards start their rounds from the fixed
# point they reached before with the same inputs, and converge to the same tolerance, so
# the folders agree with the cold start's in every figure to 1e-10 relative (a float sum in
# another order may move a last digit; jobs.csv and events.csv byte for byte). Time-sliced
# and MPS cards with services and notebooks, the services crashing and restarting.
# near_folders A B NAME: the same files, lines and words, numbers within 1e-10 relative
near_folders() {
  LAST="$3: $1 against $2"
  local f bad=""
  for f in "$1"/*; do
    [ -f "$2/${f##*/}" ] || { bad="${f##*/} missing"; break; }
    awk -v other="$2/${f##*/}" '
      { if ((getline o < other) <= 0) { print "shorter"; exit }
        if ($0 == o) next
        n = split($0, a, /[,: ]+/); m = split(o, b, /[,: ]+/)
        if (n != m) { print "line " NR; exit }
        for (i = 1; i <= n; i++) if (a[i] != b[i]) {
          x = a[i] + 0; y = b[i] + 0; d = x - y; if (d < 0) d = -d
          s = x < 0 ? -x : x; if (s < 1e-300 || d > 1e-10 * s || a[i] !~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/) { print "line " NR ": " a[i] " " b[i]; exit } } }
      END { if ((getline o < other) > 0) print "longer" }' "$f" | grep -q . && { bad="${f##*/}"; break; }
  done
  if [ -z "$bad" ]; then pass; else fail "$3: $bad differs"; fi
  if cmp -s "$1/jobs.csv" "$2/jobs.csv"; then pass; else fail "$3: jobs.csv differs"; fi
}
for scen in "$SCEN/dev-timeslice.yaml" "$SCEN/shared-pools.yaml" "$SCEN/embeddings-mps.yaml"; do
  set -- --set crash_rates.inference=1 -q --no-progress
  run run "$scen" "$M" "$@" -o fw
  expect_rc 0
  run run "$scen" "$M" "$@" -o cw --reference-only=warm
  expect_rc 0
  near_folders fw cw "warm start against cold: $(basename "$scen")"
  rm -rf fw cw
done
