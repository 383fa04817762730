# t-modelrange.sh: run --model-range: the defaults' run byte for byte a plain run, every
# figure's value inside its range, the ends named by the setting that gave them, the
# constants a scenario does not use moving nothing, the ones it uses moving its figures
# (time-slicing, inference variability, LLM serving), the same bytes at -j 1 and -j 2,
# with --seeds the seeds' interval beside the range, and the options it excludes refused;
# compare, size and plan with --model-range (the intervals contain the values, size and
# plan judge at the pessimistic end and say which end decided, -j 1 = -j 2).
D="$DATA/modelrange"; L="$DATA/llm"
# field N of the model-range.csv row of KEY
mr_field() { awk -F, -v k="$2" -v n="$3" '$2 == k { print $n }' "$1/model-range.csv"; }

run run "$D/ts.yaml" "$D/mixed.csv" --model-range -j 1 -o m1 --no-progress
expect_rc 0
expect_out_contains "model range over 11 constants (23 runs)"
expect_out_contains "results written to m1/"
for f in model-range.txt model-range.csv model-range.json .sharesim-folder base/seed-1/summary.json \
         ts_switch_loss-low/seed-1/jobs.csv llm.step_overhead_ms-high/seed-1/summary.json; do
  expect_file "m1/$f"
done
# the defaults' run is the plain run, and each end's run is the run with that --set
run run "$D/ts.yaml" "$D/mixed.csv" -o plain -q
if diff -r plain m1/base/seed-1 >/dev/null; then pass; else fail "m1/base/seed-1 differs from a plain run"; fi
run run "$D/ts.yaml" "$D/mixed.csv" --set ts_curve_exp=1.5 -o p15 -q
if diff -r p15 m1/ts_curve_exp-high/seed-1 >/dev/null; then pass; else fail "ts_curve_exp-high differs from run --set ts_curve_exp=1.5"; fi
# every value lies inside its range; every end that differs from the value names a setting
bad=$(awk -F, 'NR > 1 && $5 != "" && ($8 > $5 + 0 || $9 < $5 + 0) { print $2 }' m1/model-range.csv | head -3)
expect_eq "$bad" "" "figures outside their range"
bad=$(awk -F, 'NR > 1 && (($8 != $5 && $10 == "-") || ($9 != $5 && $11 == "-")) { print $2 }' m1/model-range.csv | head -3)
expect_eq "$bad" "" "range ends off the value with no setting named"
# time-slicing moves the busy share and the SLO figures; the ends are time-slicing or
# variability settings, and the range is not a point
lo=$(mr_field m1 busy_frac 8); hi=$(mr_field m1 busy_frac 9)
if awk -v a="$lo" -v b="$hi" 'BEGIN { exit !(a < b) }'; then pass; else fail "busy_frac range [$lo, $hi] is a point"; fi
case "$(mr_field m1 busy_frac 10) $(mr_field m1 busy_frac 11)" in
  ts_*=*" "ts_*=*) pass ;; *) fail "busy_frac ends not set by time-slicing constants: $(mr_field m1 busy_frac 10) $(mr_field m1 busy_frac 11)" ;;
esac
expect_eq "$(mr_field m1 slo:violation_minutes 11)" "inference.service_cv=1" "worst SLO minutes from the variable service"
# the MPS and LLM constants move nothing here; the time-slicing ones move figures
for k in mps_bandwidth_loss mps_block_wait mps_block_corr llm.bandwidth_efficiency llm.compute_efficiency llm.step_overhead_ms llm.frontend_ms; do
  if grep -qE "^  $k +.* moved 0 / 0$" m1/model-range.txt; then pass; else fail "$k moved figures of a scenario without MPS or LLM: $(grep "^  $k " m1/model-range.txt)"; fi
done
for k in ts_switch_loss ts_curve_exp ts_overlap_exp; do
  if grep -qE "^  $k +.* moved [1-9][0-9]* / [1-9][0-9]*$" m1/model-range.txt; then pass; else fail "$k did not move figures at both ends on a time-sliced pool"; fi
done
# the same bytes at -j 2
if ! skip_repeat "the same study at -j 2 (the same bytes)"; then
  run run "$D/ts.yaml" "$D/mixed.csv" --model-range -j 2 -o m2 -q
  if diff -r m1 m2 >/dev/null; then pass; else fail "--model-range -j 1 and -j 2 folders differ"; fi
fi
grep -q '"constants": \[' m1/model-range.json && pass || fail "model-range.json lacks the constants"
# an LLM server: its TTFT (llm.csv) ranges with the LLM constants: the slowest first token
# at the lower compute efficiency or the higher step cost, the fastest at the other end
run run "$L/one-gpu.yaml" "$L/service.csv" --requests "$L/requests.csv" --model-range -o ml -q
expect_rc 0
expect_eq "$(mr_field ml llm:ttft_p99_ms 5)" "$(csv_get ml/base/seed-1/llm.csv "" "" ttft_p99_ms | head -1)" "TTFT p99 value from llm.csv"
case "$(mr_field ml llm:ttft_p99_ms 11)" in
  llm.compute_efficiency=0.495|llm.step_overhead_ms=0.675|llm.bandwidth_efficiency=0.57|llm.frontend_ms=9.11) pass ;;
  *) fail "slowest TTFT set by $(mr_field ml llm:ttft_p99_ms 11)" ;;
esac
case "$(mr_field ml llm:ttft_p99_ms 10)" in
  llm.compute_efficiency=0.825|llm.step_overhead_ms=0.405|llm.bandwidth_efficiency=0.95) pass ;;
  *) fail "fastest TTFT set by $(mr_field ml llm:ttft_p99_ms 10)" ;;
esac
for k in llm.bandwidth_efficiency llm.compute_efficiency llm.step_overhead_ms; do
  if grep -qE "^  $k +.* moved [1-9][0-9]* / [1-9][0-9]*$" ml/model-range.txt; then pass; else fail "$k did not move an LLM server's figures at both ends"; fi
done
# --seeds: each run over the seeds, the seeds' interval beside the range
run run "$D/ts.yaml" "$D/mixed.csv" --model-range --seeds 2 -o ms --no-progress
expect_rc 0
expect_out_contains "each of 2 seeds"
expect_out_contains "95 % interval (seeds)"
expect_file ms/base/seed-2/summary.json
n=$(awk -F, 'NR > 1 && $6 != "" && $7 != ""' ms/model-range.csv | wc -l)
if [ "$n" -gt 5 ]; then pass; else fail "model-range.csv with --seeds has $n rows with an interval"; fi
# refused with exit 2, nothing written
run run "$D/ts.yaml" "$D/mixed.csv" --model-range --dcgm -o bad1
expect_rc 2; expect_err_contains "--dcgm is for one run"; expect_no_path bad1
run run "$D/ts.yaml" "$D/mixed.csv" --model-range --reference -o bad2
expect_rc 2; expect_err_contains "--reference is for one run"; expect_no_path bad2
run run "$D/ts.yaml" "$D/mixed.csv" --model-range --set ts_curve_exp=50 -o bad3
expect_rc 2; expect_err_contains "ts_curve_exp"; expect_no_path bad3
# ---- compare --model-range: each scenario's folder is its run --model-range folder, the
# compare table is the defaults' runs, every value and every difference to the baseline
# lies inside its range, a difference whose sign depends on a constant is marked, -j 1 = -j 2
run compare "$D/ts.yaml" "$D/ts2.yaml" "$D/mixed.csv" --model-range -j 1 -o c1 --no-progress
expect_rc 0
expect_out_contains "model range (docs/models.md"
expect_out_contains "mr-ts2 vs baseline"
expect_file c1/compare-range.csv
if diff -r -x .sharesim-folder m1 c1/mr-ts >/dev/null; then pass; else fail "compare's mr-ts/ differs from run --model-range's folder"; fi
run compare "$D/ts.yaml" "$D/ts2.yaml" "$D/mixed.csv" -o c0 -q
expect_same_files c0/compare-long.csv c1/compare-long.csv
# columns: 1 scenario 6 value 9 range_low 10 range_high 13 delta 14 delta_low 15 delta_high 16 flips
bad=$(awk -F, 'NR > 1 && $6 != "" && ($9 > $6 + 0 || $10 < $6 + 0) { print $1 ":" $3 }' c1/compare-range.csv | head -3)
expect_eq "$bad" "" "compare figures outside their range"
bad=$(awk -F, 'NR > 1 && $13 != "" && ($14 > $13 + 0 || $15 < $13 + 0) { print $1 ":" $3 }' c1/compare-range.csv | head -3)
expect_eq "$bad" "" "differences to the baseline outside their range"
expect_eq "$(awk -F, '$1 == "mr-ts2" && $3 == "slo:violation_minutes" { print $13, $14, $15, $16 }' c1/compare-range.csv)" \
  "-177 -190 49 1" "SLO minutes: fewer at the defaults, more at some setting: flips"
expect_eq "$(awk -F, '$1 == "mr-ts2" && $3 == "busy_frac" { print $16 }' c1/compare-range.csv)" "0" "busy share lower at every setting"
n=$(awk -F, 'NR > 1 && $1 == "mr-ts" && $13 != ""' c1/compare-range.csv | wc -l)
expect_eq "$n" 0 "the baseline has no difference to itself"
if ! skip_repeat "the same study at -j 2 (the same bytes)"; then
  run compare "$D/ts.yaml" "$D/ts2.yaml" "$D/mixed.csv" --model-range -j 2 -o c2 -q
  if diff -r c1 c2 >/dev/null; then pass; else fail "compare --model-range -j 1 and -j 2 folders differ"; fi
fi
run compare c1 -o c3 -q
expect_rc 0
expect_same_files c1/compare.csv c3/compare.csv
run compare c1/mr-ts/base c1/mr-ts2/base --model-range -o bad4
expect_rc 2; expect_err_contains "--model-range runs scenarios"; expect_no_path bad4

# ---- size --model-range: 3 nodes meet the wait limit at the defaults, not at
# ts_curve_exp=0.9: judged at the pessimistic end the answer is 4, and the output says which
# end decided; the same folder at -j 1 and -j 2
run size "$D/size.yaml" "$D/batch.csv" --pool dev --max-wait-p95 15m -j 1 --no-progress
expect_rc 0
expect_out_contains "smallest size: 3 nodes (3 GPUs)"
run size "$D/size.yaml" "$D/batch.csv" --pool dev --max-wait-p95 15m --model-range -j 1 -o s1 --no-progress
expect_rc 0
expect_out_contains "smallest size: 4 nodes (4 GPUs) in pool 'dev': 4 nodes meet the constraints and 3 do not"
expect_out_contains "decided by the model range: 3 nodes meet the constraints at the models' defaults but not at ts_curve_exp=0.9"
expect_out_contains "no (at the defaults: yes)"
expect_eq "$(awk -F, '$4 == 3 { print $5, $(NF - 1), $NF }' s1/size.csv)" "no yes ts_curve_exp=0.9; ts_overlap_exp=1.5" "size.csv: 3 nodes fail only at the ends"
for f in size.txt nodes-3/model-range.json nodes-3/base/seed-1/summary.json nodes-3/ts_curve_exp-low/seeds.json nodes-4/llm.step_overhead_ms-high/seed-1/summary.json; do
  expect_file "s1/$f"
done
if ! skip_repeat "the same study at -j 2 (the same bytes)"; then
  run size "$D/size.yaml" "$D/batch.csv" --pool dev --max-wait-p95 15m --model-range -j 2 -o s2 --no-progress
  if diff -r s1 s2 >/dev/null; then pass; else fail "size --model-range -j 1 and -j 2 folders differ"; fi
fi

# ---- plan --model-range: time-slicing on 3 GPUs meets the limits at the defaults; at the
# pessimistic end it needs 4, and plan recommends 4 GPUs, naming the end that broke 3
run plan "$D/plan.yaml" "$D/batch.csv" -j 1 -o p0 --no-progress
expect_rc 0
expect_out_contains "recommendation: 3 GPUs"
run plan "$D/plan.yaml" "$D/batch.csv" --model-range -j 1 -o p1 --no-progress
expect_rc 0
expect_out_contains "recommendation: 4 GPUs"
expect_out_contains "model range: judged at the pessimistic end"
# the one-page report of that plan says its recommendation was judged across the range
run report p1 -o p1.html; expect_rc 0
if grep -qF '<p>Model range (<code>plan --model-range</code>): judged at the pessimistic end' p1.html; then pass; else fail "report of a plan --model-range folder: the range not said"; fi
expect_eq "$(awk -F, '$3 == "time-slicing" && $4 ~ /replicas 2/ && $6 == 3 { print $9 }' p1/probes.csv)" "0" "time-slicing on 3 GPUs fails at an end"
if grep -q '^batch,1,time-slicing,"replicas 2 with oom sidecar",A100-80GB,3,3,[0-9.]*,0,"at ts_curve_exp=0.9: queue wait p95' p1/probes.csv; then pass
else fail "probes.csv does not name the end that broke time-slicing on 3 GPUs: $(grep ',3,3,' p1/probes.csv)"; fi
if ! skip_repeat "the same plan at -j 2 (the same bytes)"; then
  run plan "$D/plan.yaml" "$D/batch.csv" --model-range -j 2 -o p2 --no-progress
  for f in plan.txt plan.csv probes.csv scenario.yaml; do expect_same_files "p1/$f" "p2/$f"; done
fi

# docs/models.md's table of the constants is the program's (key, default, ends, model)
awk '/^constants \(/ { on = 1; next } on && /^  [a-z]/ { print }' m1/model-range.txt > consts.txt
if [ "$(wc -l < consts.txt)" -ge 8 ]; then pass; else fail "too few constants listed: $(cat consts.txt)"; fi
while read -r key def range model; do
  model=${model%%  moved*}; model=$(echo "$model" | sed 's/ *$//')
  lo=${range#[}; lo=${lo%,}; hi=$(echo "$model" | awk '{print $1}'); hi=${hi%]}
  model=${model#* }; model=$(echo "$model" | sed 's/^ *//')
  row="| \`$key\` | $def | $lo | $hi | $model |"
  if grep -qF -- "$row" "$TOP_SRCDIR/docs/models.md"; then pass; else fail "docs/models.md lacks the row $row"; fi
done < consts.txt
# run --list-constants is the table (scripts/flips reads it)
"$SHARESIM" run --list-constants > lc.txt
expect_eq "$(wc -l < lc.txt | tr -d ' ')" "$(wc -l < consts.txt | tr -d ' ')" "run --list-constants lists every constant"
expect_eq "$(head -1 lc.txt)" "ts_switch_loss 0.06 0.045 0.075" "first constant and its ends"
# scripts/flips on one family: Colfax's four-tenant rows hang on ts_switch_loss, at both ends,
# and on nothing else (its rows are time-slicing alone)
if command -v bash >/dev/null 2>&1 && command -v join >/dev/null 2>&1; then
  BUILD_DIR=$(cd "$(dirname "$SHARESIM")" && pwd) bash "$TOP_SRCDIR/scripts/flips" --case colfax > flips.txt 2> flips.err
  expect_eq "$?" 0 "scripts/flips: $(head -2 flips.err)"
  expect_eq "$(grep -c '^| `' flips.txt)" "20" "one row per constant end that is not the default"
  if grep -q '^| `ts_switch_loss` | 0.045 (default 0.06) | `colfax.four.bandwidth` (yes -> no)' flips.txt; then pass
  else fail "ts_switch_loss's low end does not flip colfax.four.bandwidth: $(grep ts_switch_loss flips.txt | head -1)"; fi
  expect_eq "$(grep -v '^| `ts_switch_loss`' flips.txt | grep '^| `' | grep -vc '| none | none |$')" "0" "rows moved by constants Colfax's cases do not read"
else
  skip_test "no bash or join for scripts/flips"
fi
