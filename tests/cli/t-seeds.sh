# t-seeds.sh: --seeds N of run (and compare, size, sweep): the interval of a figure checked
# against the single runs of each seed with Student's t from the printed table, the seed
# folders byte for byte those of `run --set seed=S`, the same bytes at -j 1 and -j 2, and
# every bad --seeds refused with exit 2 and nothing written.
S2="$DATA/seeds/gpus-2.yaml"; S8="$DATA/seeds/gpus-8.yaml"; T="$DATA/seeds/batch.csv"

# field N (1-based) of the row of a CSV whose first fields match PREFIX
csv_field() { grep "^$2" "$1" | head -1 | cut -d, -f"$3"; }
# the first "KEY" : value of a summary.json (the totals come first)
total() { grep "\"$2\"" "$1/summary.json" | head -1 | sed 's/.*: *//; s/,$//'; }
# |a - b| <= 2e-5 max(1, |b|) (the CSV keeps 6 significant digits)
near() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; if (m < 1) m = 1; print (d <= 2e-5 * m) ? "ok" : "off (" a " vs " b ")" }'; }

# ---- run --seeds: folders, determinism ----
run run "$S2" "$T" --seeds 4 -j 1 -o s1 --no-progress
expect_rc 0
cp out.txt out-j1.txt
expect_out_contains "sharesim: scenario 'gpus-2' on trace batch.csv, 4 seeds (1 to 4)"
expect_out_contains "Student's t, 3 degrees of freedom"
expect_out_contains "results written to s1/"
for f in seeds.txt seeds.csv seeds.json seed-1/summary.json seed-4/jobs.csv .sharesim-folder; do
  expect_file "s1/$f"
done
expect_no_path s1/summary.json
run run "$S2" "$T" --seeds 4 -j 2 -o s2 --no-progress
expect_rc 0
if diff -r s1 s2 >/dev/null; then pass; else fail "run --seeds -j 1 and -j 2 folders differ"; fi
sed 's|written to s2/|written to s1/|' out.txt > out-j2.txt
expect_same_files out-j1.txt out-j2.txt
# each seed's folder is that seed's own run
for s in 1 2 3 4; do
  run run "$S2" "$T" --set seed=$s -o one-$s -q
  if diff -r one-$s s1/seed-$s >/dev/null; then pass; else fail "s1/seed-$s differs from run --set seed=$s"; fi
done

# ---- the interval, from the single runs (t(0.975, 3) = 3.182446305 from the tables) ----
for key in work_lost_gpu_h wait_mean_s crashes; do
  vals=$(for s in 1 2 3 4; do total one-$s $key; done | tr '\n' ' ')
  want=$(echo "$vals" | awk '{ n = NF; for (i = 1; i <= n; i++) m += $i; m /= n;
    for (i = 1; i <= n; i++) ss += ($i - m) ^ 2; sd = sqrt(ss / (n - 1)); h = 3.182446305 * sd / sqrt(n);
    printf "%.10g %.10g %.10g %.10g", m, sd, m - h, m + h }')
  row=$(grep "^[a-z]*,$key," s1/seeds.csv | head -1)
  got=$(echo "$row" | cut -d, -f6-9 | tr ',' ' ')
  i=1
  for w in $want; do
    g=$(echo "$got" | cut -d' ' -f$i)
    expect_eq "$(near "$g" "$w")" "ok" "$key: field $i of mean, sd, ci95_low, ci95_high over seeds $vals"
    i=$((i + 1))
  done
  expect_eq "$(echo "$row" | cut -d, -f12-15 | tr ',' ' ')" "$(for s in 1 2 3 4; do awk -v v="$(total one-$s $key)" 'BEGIN { printf "%.6g\n", v }'; done | tr '\n' ' ' | sed 's/ $//')" "$key: the per-seed columns"
done
# the seeds differ (or the test above proves nothing)
expect_eq "$(test "$(total one-1 work_lost_gpu_h)" != "$(total one-2 work_lost_gpu_h)" && echo differ)" "differ" "work lost differs between seeds 1 and 2"

# a rerun replaces the seeds folder; a foreign folder is refused
run run "$S2" "$T" --seeds 2 -o s1 -q
expect_rc 0
expect_eq "$(ls s1 | tr '\n' ' ')" "seed-1 seed-2 seeds.csv seeds.json seeds.txt " "the rerun's folder only"
mkdir keep && echo precious > keep/f
run run "$S2" "$T" --seeds 2 -o keep -q
expect_rc 2
expect_eq "$(cat keep/f)" "precious" "a foreign folder is kept"

# ---- bad --seeds: exit 2, a clear message, nothing written ----
for bad in 0 1 -2 abc 2x "" 1001 99999999999999999999; do
  run run "$S2" "$T" --seeds "$bad" -o bad
  expect_rc 2
  expect_err_contains "--seeds '$bad': expected a whole number of seeds from 2 to 1000"
  expect_no_path bad
done
run run "$S2" "$T" --seeds 3 --set seed=18446744073709551614 -o bad
expect_rc 2
expect_err_contains "past the largest seed 18446744073709551615"
expect_no_path bad
run run "$S2" "$T" --seeds 3 --dcgm -o bad
expect_rc 2
expect_err_contains "--dcgm is for one run"
expect_no_path bad
run run "$S2" "$T" --seeds 3 -j 0 -j 2000 -o bad
expect_rc 2
expect_err_contains "-j 2000: expected 1 to 1024"

# ---- compare --seeds: means, intervals, significance ----
run compare "$S2" "$S8" "$T" --seeds 5 -j 1 -o c1 --no-progress
expect_rc 0
cp out.txt cmp-j1.txt
expect_out_contains "seeds: 5 per run; values are means over the seeds +/- the half-width of their 95 % interval"
for f in compare.csv compare.json compare.txt gpus-2/seeds.csv gpus-2/seed-5/summary.json gpus-8/seed-1/jobs.csv; do
  expect_file "c1/$f"
done
run compare "$S2" "$S8" "$T" --seeds 5 -j 2 -o c2 --no-progress
expect_rc 0
if diff -r c1 c2 >/dev/null; then pass; else fail "compare --seeds -j 1 and -j 2 folders differ"; fi
sed 's|written to c2/|written to c1/|' out.txt > cmp-j2.txt
expect_same_files cmp-j1.txt cmp-j2.txt
# 24 one-hour jobs on 2 GPUs queue for hours, on 8 they never wait: significant
col() { head -1 "$1" | tr ',' '\n' | grep -nx "$2" | cut -d: -f1; }
sig=$(col c1/compare.csv significant:gpus-8)
expect_eq "$(csv_field c1/compare.csv jobs,wait_mean_s, "$sig")" "1" "queue wait mean 2 vs 8 GPUs is significant"
expect_eq "$(csv_field c1/compare.csv jobs,wait_p95_s, "$sig")" "1" "queue wait p95 2 vs 8 GPUs is significant"
expect_eq "$(grep '^  queue wait mean ' c1/compare.txt | grep -c ' \*$')" "1" "the text marks it *"
# the crashes are drawn per job from the seed: the same in both set-ups, not significant
expect_eq "$(csv_field c1/compare.csv faults,crashes, "$sig")" "0" "crashes: the same draws, no difference"
# compare-long.csv: the same figures, a row per run (t-sqlite.sh compares every value)
lrow=$(grep '^gpus-8,,jobs,wait_mean_s,' c1/compare-long.csv) # no seed: the seeds' mean
expect_eq "$(echo "$lrow" | awk -F, '{ print $NF }')" 1 "compare-long.csv: significant"
expect_eq "$(echo "$lrow" | awk -F, '{ print $(NF - 2) }')" \
  "$(csv_field c1/compare.csv jobs,wait_mean_s, "$(col c1/compare.csv delta_ci95_low:gpus-8)")" "compare-long.csv: the difference's low bound"
expect_eq "$(grep -c '^gpus-2,' c1/compare-long.csv)" "$(($(wc -l < c1/compare.csv) - 1))" "compare-long.csv: a row per figure and run"
expect_eq "$(grep '^  crashes ' c1/compare.txt | grep -c '\*')" "0" "crashes not marked"
# Welch's interval with a constant second group is gpus-2's own t interval, negated
# (df = 4, t(0.975, 4) = 2.776445105 from the tables)
vals=$(grep '^jobs,wait_mean_s,' c1/gpus-2/seeds.csv | cut -d, -f12-16 | tr ',' ' ')
want=$(echo "$vals" | awk '{ n = NF; for (i = 1; i <= n; i++) m += $i; m /= n;
  for (i = 1; i <= n; i++) ss += ($i - m) ^ 2; h = 2.776445105 * sqrt(ss / (n - 1)) / sqrt(n);
  printf "%.10g %.10g", -m - h, -m + h }')
lo=$(col c1/compare.csv delta_ci95_low:gpus-8); hi=$(col c1/compare.csv delta_ci95_high:gpus-8)
expect_eq "$(near "$(csv_field c1/compare.csv jobs,wait_mean_s, "$lo")" "$(echo "$want" | cut -d' ' -f1)")" "ok" "Welch low bound"
expect_eq "$(near "$(csv_field c1/compare.csv jobs,wait_mean_s, "$hi")" "$(echo "$want" | cut -d' ' -f2)")" "ok" "Welch high bound"
# the folders compare again to the same table, as a compare folder and as seeds folders
run compare c1 --format csv
expect_rc 0
expect_same_files out.txt c1/compare.csv
run compare c1/gpus-2 c1/gpus-8 --format csv
expect_same_files out.txt c1/compare.csv

# seed noise: the same scenario under another name and other seeds (101-105) differs by
# noise only, and nothing of it is marked
sed -e 's/^name: gpus-2/name: gpus-2-again/' -e 's/^seed: 1$/seed: 101/' "$S2" > again.yaml
run compare "$S2" again.yaml "$T" --seeds 5 -o noise --no-progress
expect_rc 0
sig=$(col noise/compare.csv significant:gpus-2-again)
for key in jobs,wait_mean_s, jobs,wait_p95_s, faults,work_lost_gpu_h, faults,crashes, utilisation,busy_frac; do
  expect_eq "$(csv_field noise/compare.csv "$key" "$sig")" "0" "$key is seed noise"
done
expect_eq "$(test "$(csv_field noise/compare.csv jobs,wait_mean_s, 7)" != 0 && echo moved)" "moved" "the other seeds do move the queue wait"
# the same scenario and seeds under two names: every difference 0, none marked
sed -e 's/^name: gpus-2/name: gpus-2-twin/' "$S2" > twin.yaml
run compare "$S2" twin.yaml "$T" --seeds 3 --no-progress
expect_rc 0
expect_eq "$(grep -c '\*$' out.txt)" "0" "no difference marked between twins"

# bad input
run compare "$S2" "$S8" "$T" --seeds 1 -o badc
expect_rc 2
expect_err_contains "--seeds '1': expected a whole number of seeds from 2 to 1000"
expect_no_path badc
run compare c1/gpus-2 c1/gpus-8 --seeds 3
expect_rc 2
expect_err_contains "--seeds runs scenarios"

# ---- size --seeds: judged on the mean, or in every seed ----
# one GPU per node; at 6 nodes the seeds' p95 waits are 562-1059 s (mean 768 s): the mean
# meets 15 m, two seeds do not, so --every-seed needs 7 nodes
SZ="$S2 $T --pool batch --max-wait-p95 15m --set pools.batch.gpus_per_node=1 --seeds 5 --no-progress"
run size $SZ -j 1 -o z1
expect_rc 0
expect_out_contains "smallest size: 6 nodes (6 GPUs) in pool 'batch': 6 nodes meet the constraints and 5 do not"
expect_out_contains "seeds: 5 per size (1 to 5); the figures are means over the seeds"
expect_out_contains "mean over the seeds: queue wait p95 51.1 m > 15 m"
for f in size.csv size.txt nodes-6/seeds.csv nodes-6/seed-5/summary.json nodes-5/seeds.json; do
  expect_file "z1/$f"
done
# the mean in size.csv is the mean of the seeds' own p95 waits
want=$(for s in 1 2 3 4 5; do total z1/nodes-6/seed-$s wait_p95_s; done | awk '{ m += $1 } END { printf "%.10g", m / NR }')
expect_eq "$(near "$(csv_get z1/size.csv nodes 6 wait_p95_s)" "$want")" "ok" "size.csv wait p95 at 6 nodes = the seeds' mean"
expect_eq "$(csv_get z1/size.csv nodes 6 seeds,seeds_meeting)" "5,3" "3 of the 5 seeds meet 15 m at 6 nodes"
expect_eq "$(csv_get z1/size.csv nodes 6 scenario,seed)" "$(sed -n 's/^name: *//p' "${SZ%% *}")," "size.csv with --seeds: the scenario, no one seed"
run size $SZ -j 2 -o z2
expect_rc 0
if diff -r z1 z2 >/dev/null; then pass; else fail "size --seeds -j 1 and -j 2 folders differ"; fi
run size $SZ --every-seed
expect_rc 0
expect_out_contains "smallest size: 7 nodes (7 GPUs) in pool 'batch': 7 nodes meet the constraints and 6 do not"
expect_out_contains "2 of 5 seeds fail: seed 2: queue wait p95 17.7 m > 15 m; seed 4: queue wait p95 16.1 m > 15 m"
run size "$S2" "$T" --pool batch --every-seed
expect_rc 2
expect_err_contains "--every-seed asks that every seed meet the constraints: give --seeds N as well"
run size "$S2" "$T" --pool batch --seeds x -o badz
expect_rc 2
expect_err_contains "--seeds 'x': expected a whole number of seeds from 2 to 1000"
expect_no_path badz

# ---- sweep --seeds: each point a seeds folder, sweep.csv with means and intervals ----
run sweep "$S2" "$T" --set pools.batch.gpus_per_node=2,8 --seeds 4 -j 2 -o w1 --no-progress
expect_rc 0
expect_out_contains "each figure: the mean over the point's seeds +/- the half-width of its 95 % interval"
expect_file w1/points/1_gpus_per_node-2/seeds.json
expect_file w1/points/2_gpus_per_node-8/seed-4/summary.json
expect_eq "$(grep -c '"seeds": 4,' w1/sweep.json)" "1" "the manifest records the seeds"
run sweep "$S2" "$T" --set pools.batch.gpus_per_node=2,8 --seeds 4 -j 1 -o w2 --no-progress -q
expect_rc 0
if diff -r w1 w2 >/dev/null; then pass; else fail "sweep --seeds -j 1 and -j 2 folders differ"; fi
# the point's mean and interval in sweep.csv are those of its seeds folder
c=$(col w1/sweep.csv wait_mean_s)
expect_eq "$(grep ',1_' w1/sweep.csv | cut -d, -f"$c"-$((c + 2)))" "$(grep '^jobs,wait_mean_s,' w1/points/1_gpus_per_node-2/seeds.csv | cut -d, -f6,8,9)" "sweep.csv: mean, ci95_low, ci95_high of the point"
expect_eq "$(head -1 w1/sweep.csv | cut -d, -f"$c"-$((c + 2)))" "wait_mean_s,wait_mean_s:ci95_low,wait_mean_s:ci95_high" "sweep.csv columns"
# the point is its own run --seeds
run run "$S2" "$T" --set pools.batch.gpus_per_node=8 --seeds 4 -o p8 -q
if diff -r p8 w1/points/2_gpus_per_node-8 >/dev/null; then pass; else fail "point 2 differs from run --seeds"; fi
# another number of seeds is another sweep; the same one resumes
run sweep "$S2" "$T" --set pools.batch.gpus_per_node=2,8 --seeds 3 -o w1 --no-progress
expect_rc 2
expect_err_contains "holds another sweep"
run sweep "$S2" "$T" --set pools.batch.gpus_per_node=2,8 --seeds 4 -o w1 --no-progress -q
expect_rc 0
expect_err_contains "2 of 2 points already finished"
run sweep "$S2" "$T" --set pools.batch.gpus_per_node=2,8 --seeds 1001 -o badw
expect_rc 2
expect_err_contains "--seeds '1001': expected a whole number of seeds from 2 to 1000"
expect_no_path badw
