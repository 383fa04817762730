# t-study.sh: the what-if study commands against the real binary on a 14-job trace:
# compare (scenarios and folders, deltas and the saving), sweep (-j 1 = -j 4, SIGKILL then
# resume gives the same bytes, Slurm script, --point and --collect), size (the answer of
# an exhaustive scan), plot (real gnuplot: PNG size from IHDR, SVG text; names made of
# gnuplot syntax run nothing; without gnuplot: data and scripts, exit 0).
A="$DATA/study/study-a.yaml"; B="$DATA/study/study-b.yaml"; T="$DATA/study/study.csv"

# field N (1-based) of the row of a CSV whose first fields match PREFIX
csv_field() { grep "^$2" "$1" | head -1 | cut -d, -f"$3"; }
# awk arithmetic check: prints ok when |a - b| <= 1e-9 * max(1, |b|)
near() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; if (m < 1) m = 1; print (d <= 1e-9 * m) ? "ok" : "off" }'; }

# ---- compare: scenarios ----
run compare "$A" "$B" "$T" -o cmp --no-progress
expect_rc 0
expect_out_contains "differences against the baseline 'study-a'"
expect_out_contains "results written to cmp/"
for f in compare.txt compare.csv compare.json study-a/summary.json study-b/summary.json study-b/jobs.csv; do
  expect_file "cmp/$f"
done
expect_eq "$(csv_field cmp/compare.csv capacity,gpus, 5-7)" "6,10,4" "GPUs provisioned 6 -> 10"
expect_eq "$(csv_field cmp/compare.csv pools,pool:train:gpus, 5-7)" "4,8,4" "train pool 4 -> 8 GPUs"
# the deltas are the differences of the runs' own totals
ca=$(grep '"cost"' cmp/study-a/summary.json | head -1 | tr -dc '0-9.')
cb=$(grep '"cost"' cmp/study-b/summary.json | head -1 | tr -dc '0-9.')
expect_eq "$(near "$(csv_field cmp/compare.csv finance,cost, 7)" "$(awk -v a="$ca" -v b="$cb" 'BEGIN { printf "%.6g", b - a }')")" "ok" "cost delta = cost_b - cost_a"
expect_eq "$(near "$(csv_field cmp/compare.csv finance,saving, 6)" "$(awk -v a="$ca" -v b="$cb" 'BEGIN { printf "%.6g", a - b }')")" "ok" "saving = baseline cost - cost"
# 12 jobs of 100 s on 4 GPUs wait 0/100/200 s (p95 200 s); on 8 GPUs 0/100 s (p95 100 s)
expect_eq "$(csv_field cmp/compare.csv jobs,wait_p95_s, 5-7)" "200,100,-100" "queue wait p95"
expect_eq "$(csv_field cmp/compare.csv jobs,wait_mean_s, 5-6)" "85.7143,28.5714" "mean waits over 14 jobs: 1200/14 and 400/14"
expect_out_contains "-1.67 m (-50.0 %)"
expect_eq "$(grep -c '"key"' cmp/compare.json)" "$(($(grep -c '' cmp/compare.csv) - 1))" "one JSON figure per CSV row"
# rerun replaces the earlier compare folder; a foreign folder is refused
run compare "$A" "$B" "$T" -o cmp --no-progress -q
expect_rc 0
expect_eq "$(ls -d cmp.* 2>/dev/null | wc -l)" "0" "no temporary or old folder left"
mkdir keep && echo precious > keep/f
run compare "$A" "$B" "$T" -o keep
expect_rc 2
expect_err_contains "refusing to replace keep"
expect_eq "$(cat keep/f)" "precious" "user data untouched"

# ---- compare: folders give the same table ----
run compare cmp/study-a cmp/study-b --format csv
expect_rc 0
expect_same_files out.txt cmp/compare.csv
run compare cmp --format csv
expect_rc 0
expect_same_files out.txt cmp/compare.csv
run compare cmp/study-a nowhere
expect_rc 2
expect_err_contains "nowhere"
run compare "$A" "$T" --format yaml
expect_rc 2
expect_err_contains "expected text, csv or json"

# ---- compare -j: the scenarios run at once, the same bytes as one after another ----
run compare "$A" "$B" "$A" "$T" -j 1 -o cmpj1 --no-progress
expect_rc 0
cp out.txt cmpj1.out
for j in 2 3; do
  run compare "$A" "$B" "$A" "$T" -j $j -o cmpj$j --no-progress
  expect_rc 0
  sed "s|cmpj$j/|cmpj1/|" out.txt > cmpj$j.out
  expect_same_files cmpj1.out cmpj$j.out
  if diff -r cmpj1 cmpj$j >/dev/null; then pass; else fail "compare folders differ between -j 1 and -j $j"; fi
done
expect_eq "$(ls cmpj2)" "$(printf 'compare-long.csv\ncompare.csv\ncompare.json\ncompare.txt\nstudy-a\nstudy-a-2\nstudy-b')" "one folder per run, named in scenario order"
run compare "$A" "$B" "$T" -j 2000
expect_rc 2
expect_err_contains "-j 2000: expected 1 to 1024"

# ---- sweep: -j 1 and -j 4 give the same bytes ----
SETS="--set pools.train.nodes=1,2,3 --set pools.dev.placement=pack,spread"
run sweep "$A" "$T" $SETS -j 1 -o sw1 --no-progress
expect_rc 0
expect_out_contains "sweep written to sw1/"
expect_eq "$(grep -c '' sw1/sweep.csv)" "7" "header and 6 points"
expect_eq "$(head -1 sw1/sweep.csv | cut -d, -f1-6)" "scenario,seed,point,pools.train.nodes,pools.dev.placement,gpus" "sweep.csv columns"
expect_eq "$(sed -n 2p sw1/sweep.csv | cut -d, -f3-6)" "1_nodes-1_placement-pack,1,pack,6" "first point"
expect_eq "$(sed -n 7p sw1/sweep.csv | cut -d, -f3-6)" "6_nodes-3_placement-spread,3,spread,14" "last point"
# every row begins with its point's run's scenario and seed (as the point's jobs.csv)
expect_eq "$(sed -n 7p sw1/sweep.csv | cut -d, -f1-2)" "$(sed -n 2p sw1/points/6_nodes-3_placement-spread/jobs.csv | cut -d, -f1-2)" "sweep.csv: the point's scenario and seed"
expect_eq "$(ls sw1/points | wc -l)" "6" "one folder per point"
# a sweep of the seed: the leading seed column carries it, and no column name repeats
run sweep "$DATA/seeds/gpus-2.yaml" "$DATA/seeds/batch.csv" --set seed=3,4 -o swsd -q
expect_rc 0
expect_eq "$(head -1 swsd/sweep.csv | tr ',' '\n' | sort | uniq -d)" "" "sweep.csv of seed=3,4: no column twice"
expect_eq "$(csv_get swsd/sweep.csv "" "" seed,point | tr '\n' ' ')" "3,1_seed-3 4,2_seed-4 " "sweep.csv of seed=3,4: each point's seed"
run sweep "$A" "$T" $SETS -j 4 -o sw4 -q
expect_rc 0
expect_same_files sw1/sweep.csv sw4/sweep.csv
if diff -r sw1 sw4 >/dev/null; then pass; else fail "sweep folders differ between -j 1 and -j 4"; fi
expect_err_empty

# ---- sweep: killed with SIGKILL, then resumed ----
"$SHARESIM" sweep "$A" "$T" $SETS -j 1 -o swk -q --no-progress >/dev/null 2>&1 &
pid=$!
i=0
# (up to 60 s: under load and ASan one point can take more than the 5 s this waited before)
while [ ! -f swk/points/2_nodes-1_placement-spread/summary.json ] && [ $i -lt 6000 ] && kill -0 $pid 2>/dev/null; do
  sleep 0.01; i=$((i + 1))
done
# SIGKILL the sweep and its point runs together (as a job scheduler or the OOM killer does):
# a point child left running would finish beside the resumed sweep
# (stopped first, so that it cannot start another point between the listing of its
# children and the kill: such a point, still exiting under load, was missed by the wait below)
kill -STOP $pid 2>/dev/null
kids=$(pgrep -P $pid 2>/dev/null)
pkill -9 -P $pid 2>/dev/null; kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
# a killed point may take a moment to exit under load; until it has, its temporary folder
# counts as a live writer's and the resumed sweep rightly leaves it (seen in CI)
i=0
for k in $kids; do
  while [ -e /proc/$k ] && ! grep -q ') [ZX] ' /proc/$k/stat 2>/dev/null && [ $i -lt 3000 ]; do
    sleep 0.01; i=$((i + 1))
  done
done
sleep 0.2
done_before=$(ls swk/points/*/summary.json 2>/dev/null | wc -l)
if [ "$done_before" -ge 2 ] && [ "$done_before" -lt 6 ] && [ ! -f swk/sweep.csv ]; then pass; else fail "the sweep was not killed midway ($done_before points, sweep.csv: $(ls swk))"; fi
run sweep "$A" "$T" $SETS -j 2 -o swk -q
expect_rc 0
expect_err_contains "already finished in swk, skipped"
expect_same_files sw1/sweep.csv swk/sweep.csv
if diff -r sw1 swk >/dev/null; then pass; else fail "resumed sweep differs from an uninterrupted one: $(diff -r sw1 swk 2>&1 | head -5; find swk -name "*.tmp-*" -o -name "*.old-*" | head -5)"; fi
# a point where a job never fits says so beside what was done (the inference service's
# 20 GB do not fit a 16 GB T4: that point is cheap because it ran less)
run sweep "$A" "$T" --set pools.dev.gpu=A100-80GB,T4 -o swu --no-progress
expect_rc 0
expect_out_contains "unplaceable"
expect_eq "$(grep '^2_gpu-T4 ' out.txt | awk '{print $9}')" "1" "the T4 point shows its unplaceable job"
# a different grid in the same folder is refused
run sweep "$A" "$T" --set pools.train.nodes=1,2 -o swk
expect_rc 2
expect_err_contains "holds another sweep"
# bad values are found before anything runs
run sweep "$A" "$T" --set pools.train.nodes=1,0 -o swbad
expect_rc 2
expect_err_contains "--set pools.train.nodes"
expect_no_path swbad
run sweep "$A" "$T" --set pools.train.nodes
expect_rc 2
expect_err_contains "expected KEY=V1,V2"

# ---- sweep: the point runs die with a SIGKILLed sweep (PR_SET_PDEATHSIG; Linux) ----
if [ -d /proc/self ] && command -v pgrep >/dev/null 2>&1; then
  # a point of this trace runs for seconds: one that outlived the sweep would still run
  "$SHARESIM" gen --profile mixed --gpus 8 --days 1 --jobs 1000 --seed 3 > long.csv 2>/dev/null
  "$SHARESIM" sweep "$A" long.csv --set seed=1,2 -j 2 -o swd -q --no-progress >/dev/null 2>&1 &
  pid=$!
  kids=""; i=0
  while [ -z "$kids" ] && [ $i -lt 1000 ]; do sleep 0.01; kids=$(pgrep -P $pid); i=$((i + 1)); done
  kill -9 $pid; wait $pid 2>/dev/null
  # running: in /proc and not a zombie (an orphan's zombie may wait for a reaper)
  running() { [ -e /proc/$1 ] && [ "$(awk '{print $3}' /proc/$1/stat 2>/dev/null)" != Z ]; }
  alive=0
  for k in $kids; do
    j=0; while [ $j -lt 200 ] && running $k; do sleep 0.01; j=$((j + 1)); done
    if running $k; then alive=$((alive + 1)); kill -9 $k 2>/dev/null; fi
  done
  if [ -n "$kids" ]; then pass; else fail "no point run seen under the sweep"; fi
  expect_eq "$alive" "0" "point runs still running 2 s after their sweep was SIGKILLed"
else
  skip_test "no /proc or pgrep: the point runs' death with the sweep is not checked"
fi

# ---- sweep on Slurm: script, --point, --collect ----
run sweep "$A" "$T" $SETS -o sws --slurm
expect_rc 0
expect_file sws/sweep.sbatch
expect_eq "$(grep -c '^#SBATCH --array=1-6$' sws/sweep.sbatch)" "1" "array of 6 tasks"
expect_eq "$(grep -c 'sweep --point "$SLURM_ARRAY_TASK_ID"' sws/sweep.sbatch)" "1" "each task runs its point"
run sweep --point 1 sws
expect_rc 0
run sweep --point 7 sws
expect_rc 2
run sweep --collect sws
expect_rc 1
expect_err_contains "5 of 6 points not finished"
for i in 2 3 4 5 6; do (SLURM_ARRAY_TASK_ID=$i bash sws/sweep.sbatch >/dev/null 2>&1); done
run sweep --collect sws -q
expect_rc 0
expect_same_files sw1/sweep.csv sws/sweep.csv
if diff -r sw1/points sws/points >/dev/null; then pass; else fail "Slurm points differ from local ones"; fi

# ---- sweep on Slurm: partition, time, memory, logs, binary; failed and missing points
# named by --collect and resubmitted by --resubmit (an sbatch stand-in runs the array's
# tasks here, as Slurm would) ----
run sweep "$A" "$T" $SETS -o swo --slurm --partition debug --time 0-01:30:00 --mem 2G \
  --slurm-output 'logs/%A_%a.out' --binary /opt/sharesim/bin/sharesim
expect_rc 0
for l in '--partition=debug' '--time=0-01:30:00' '--mem=2G' '--output=logs/%A_%a.out'; do
  expect_eq "$(grep -cxF "#SBATCH $l" swo/sweep.sbatch)" "1" "sbatch line $l"
done
expect_eq "$(grep -c "^exec '/opt/sharesim/bin/sharesim' sweep --point" swo/sweep.sbatch)" "1" "the tasks run --binary"
run sweep "$A" "$T" $SETS -o swo2 --slurm --time '1:00
#SBATCH --uid=0'
expect_rc 2
expect_err_contains "--time"
expect_no_path swo2/sweep.sbatch
run sweep "$A" "$T" $SETS -o swo2 --slurm --mem 2GB
expect_rc 2
run sweep "$A" "$T" $SETS -o swo2 --slurm --binary relative/sharesim
expect_rc 2
run sweep "$A" "$T" $SETS -o swo3 --partition debug
expect_rc 2
expect_err_contains "go with --slurm"
run sweep --resubmit
expect_rc 2
mkdir -p bin
cat > bin/sbatch <<'EOS'
#!/bin/sh
# sbatch stand-in: records its arguments, runs the listed array tasks one after another
echo "$@" >> sbatch.args
list=${1#--array=}
for r in $(echo "$list" | tr ',' ' '); do
  a=${r%-*}; b=${r#*-}
  i=$a; while [ "$i" -le "$b" ]; do SLURM_ARRAY_TASK_ID=$i bash "$2" >/dev/null 2>&1; i=$((i + 1)); done
done
EOS
chmod +x bin/sbatch
run sweep "$A" "$T" $SETS -o swf --slurm
expect_rc 0
# point 3 cannot write its folder (a file is in the way), points 5 and 6 never run
printf 'in the way\n' > "swf/points/$(ls sw1/points | sed -n 3p)"
for i in 1 2 3 4; do (SLURM_ARRAY_TASK_ID=$i bash swf/sweep.sbatch >/dev/null 2>&1); done
expect_file "swf/failed/$(ls sw1/points | sed -n 3p)"
run sweep --collect swf -q
expect_rc 1
expect_err_contains "1 point failed"
expect_err_contains "$(ls sw1/points | sed -n 3p): exit code"
expect_err_contains "2 points never ran or still run"
rm "swf/points/$(ls sw1/points | sed -n 3p)"
old_path=$PATH; PATH="$PWD/bin:$PATH"
run sweep --collect swf --resubmit -q
PATH=$old_path
expect_rc 1
expect_out_contains "resubmitted 3 points: sbatch --array=3,5-6"
expect_eq "$(cat sbatch.args)" "--array=3,5-6 swf/sweep.sbatch" "sbatch got the unfinished points"
expect_no_path "swf/failed/$(ls sw1/points | sed -n 3p)"
run sweep --collect swf -q --resubmit
expect_rc 0
expect_out_contains "nothing to resubmit"
expect_same_files sw1/sweep.csv swf/sweep.csv

# ---- size: the answer of an exhaustive scan ----
for limit in 150s 50s; do
  run size "$A" "$T" --pool train --max-wait-p95 "$limit" --max 6 --no-progress
  expect_rc 0
  got=$(sed -n 's/^smallest size: \([0-9]*\) node.*/\1/p' out.txt)
  lim=$(echo "$limit" | tr -d s)
  want=""
  for n in 1 2 3 4 5 6; do
    "$SHARESIM" run "$A" "$T" --set pools.train.nodes=$n -o scan$n -q 2>/dev/null
    w=$(csv_get scan$n/pools.csv pool train wait_p95_s)
    if [ -z "$want" ] && awk -v w="$w" -v l="$lim" 'BEGIN { exit !(w <= l) }'; then want=$n; fi
  done
  expect_eq "$got" "$want" "size --max-wait-p95 $limit = exhaustive scan"
done
expect_out_contains "3 nodes meet the constraints and 2 do not"
run size "$A" "$T" --pool train --max-wait-p95 1s --max 2 --no-progress
expect_rc 1
expect_out_contains "no size from 1 to 2 nodes meets the constraints"
run size "$A" "$T" --pool gpu-farm
expect_rc 2
expect_err_contains "no such pool"
run size "$A" "$T" --pool dev --slo 150
expect_rc 2
expect_err_contains "--slo '150'"
run size "$A" "$T" --pool train --max-wait-p95 150s -o sz --no-progress
expect_rc 0
expect_file sz/size.csv
expect_file sz/nodes-2/summary.json
expect_eq "$(grep -c ',yes,' sz/size.csv)" "$(grep -c '  yes' sz/size.txt)" "size.csv and size.txt agree"

# ---- size -j: probes run ahead of the search (and stopped or thrown away when it does
# not reach them) leave the bytes of -j 1: the same probes, folders, tables ----
for j in 1 2 4; do
  run size "$A" "$T" --pool train --max-wait-p95 50s --max 40 -j $j -o szj$j --no-progress
  expect_rc 0
  sed "s|szj$j/|szj1/|" out.txt > szj$j.out
done
for j in 2 4; do
  expect_same_files szj1.out szj$j.out
  if diff -r szj1 szj$j >/dev/null; then pass; else fail "size folders differ between -j 1 and -j $j"; fi
done
expect_eq "$(ls -d szj4/nodes-* | wc -l)" "$(($(grep -c '' szj4/size.csv) - 1))" "a folder for each probe of the search, none for the others"
run size "$A" "$T" --pool train --max-wait-p95 50s -j -1
expect_rc 2
expect_err_contains "-j -1: expected 1 to 1024"

# ---- compare --size-to-constraints: study-b is study-a with a train node more; typed,
# it "saves" nothing and costs more; sized to the same constraints both are one set-up, so
# the comparison shows no difference the GPU counts typed could have made ----
run compare "$A" "$B" "$T" --size-to-constraints --max-wait-p95 150s -o csz --no-progress
expect_rc 0
expect_file csz/sizing.csv
expect_eq "$(sed -n 2,5p csz/sizing.csv | cut -d, -f1-6 | tr '\n' ' ')" \
  "study-a,train,1,2,8,yes study-a,dev,1,1,2,yes study-b,train,2,2,8,yes study-b,dev,1,1,2,yes " \
  "each pool sized: train to 2 nodes whatever was typed"
expect_eq "$(csv_field csz/compare.csv capacity,gpus, 5-7)" "10,10,0" "GPUs provisioned: the same once sized"
expect_eq "$(csv_field csz/compare.csv finance,saving, 6)" "0" "no saving from the typed GPU counts"
expect_out_contains "Sized to the same constraints (every job fits and none is left queued at the end; queue wait p95 <= 2.5 m)"
# the size found is size's: 2 meets the limit and 1 does not (the probes say so)
expect_eq "$(csv_field csz/sizing.csv study-a,train, 7)" "1- 2+" "probes of study-a's train pool"
run size "$A" "$T" --pool train --max-wait-p95 150s --no-progress
expect_out_contains "smallest size: 2 node"
# the sized scenario is what ran: its folder's own pools.csv has 2 train nodes (8 GPUs)
expect_eq "$(csv_get csz/study-a/pools.csv pool train pool | wc -l)" "1" "train row in the sized run"
expect_eq "$(grep '"gpus"' csz/study-a/summary.json | head -1 | tr -dc '0-9')" "10" "sized run has 10 GPUs"
# with --seeds the seeds run on the sized scenarios too
run compare "$A" "$B" "$T" --size-to-constraints --max-wait-p95 150s --seeds 2 -o cszs --no-progress
expect_rc 0
expect_eq "$(csv_field cszs/compare.csv capacity,gpus, 5)" "10" "seeds of the sized study-a: 10 GPUs"
# a pool no size can fix: compared at its own size, said so, exit 3 after writing
run compare "$A" "$B" "$T" --size-to-constraints --max-wait-p95 1s --max 2 -o csz3 --no-progress
expect_rc 3
expect_out_contains "kept, NOT MET at any size"
expect_out_contains "at 2 nodes: queue wait p95"
expect_file csz3/compare.txt
expect_eq "$(csv_field csz3/sizing.csv study-a,train, 3-6)" "1,1,4,no" "unmet: kept at its own 1 node"
# the constraints belong to the option, and it sizes scenarios, not folders
run compare "$A" "$B" "$T" --max-wait-p95 150s
expect_rc 2
expect_err_contains "are the constraints of --size-to-constraints"
run compare cmp/study-a cmp/study-b --size-to-constraints
expect_rc 2
expect_err_contains "not result folders"
run compare "$A" "$B" "$T" --size-to-constraints --max-wait-p95 soon
expect_rc 2
expect_err_contains "sharesim compare: --max-wait-p95 'soon'"
run compare "$A" "$B" "$T" --size-to-constraints --slo 150
expect_rc 2
expect_err_contains "sharesim compare: --slo '150'"

# ---- plot ----
if command -v gnuplot >/dev/null 2>&1; then
  run plot cmp/study-a --format png,svg --size 640x400
  expect_rc 0
  expect_file cmp/study-a/plots/utilisation.png
  expect_file cmp/study-a/plots/utilisation.gp
  expect_file cmp/study-a/plots/utilisation.dat
  # IHDR: width and height, big-endian, at bytes 16-23
  expect_eq "$(od -An -tu1 -j16 -N8 cmp/study-a/plots/utilisation.png | tr -s ' ' | sed 's/^ //')" "0 0 2 128 0 0 1 144" "PNG is 640x400"
  expect_eq "$(grep -c 'SM-active' cmp/study-a/plots/utilisation.svg)" "1" "SVG names the series"
  # latency: the CDF drawn from latency.csv (last row of a service: cumulative share 1)
  expect_eq "$(head -1 cmp/study-a/latency.csv)" "scenario,seed,service,latency_ms,cum_frac" "latency.csv header"
  expect_eq "$(csv_get cmp/study-a/latency.csv "" "" service,cum_frac | tail -1)" "svc,1" "latency.csv ends at share 1"
  expect_eq "$(grep -c 'from plots/latency-cdf.gp' cmp/study-a/plots/latency.gp)" "1" "latency drawn as a CDF"
  expect_eq "$(grep -c '>svc<' cmp/study-a/plots/latency.svg)" "1" "latency SVG names the service"
  run plot cmp -o cmpplots
  expect_rc 0
  for f in compare-utilisation compare-cost compare-wait compare-faults compare-busy study-a/utilisation study-b/cost; do
    expect_file "cmpplots/$f.png"
  done
  run plot sw1
  expect_rc 0
  for f in sweep-busy sweep-cost sweep-wait; do expect_file "sw1/plots/$f.png"; done
  # memory per GPU over time: only for a run made with --dcgm (dcgm.csv)
  for f in dat gp png svg; do expect_no_path "cmp/study-a/plots/memory-gpus.$f"; done
  run run "$A" "$T" --dcgm -o dcgmrun -q
  expect_rc 0
  run plot dcgmrun --format png,svg --size 640x400
  expect_rc 0
  expect_eq "$(od -An -tu1 -j16 -N8 dcgmrun/plots/memory-gpus.png | tr -s ' ' | sed 's/^ //')" "0 0 2 128 0 0 1 144" "memory-gpus PNG is 640x400"
  expect_eq "$(grep -c 'GPU memory in use per GPU: study-a' dcgmrun/plots/memory-gpus.svg)" "1" "memory-gpus SVG has the title"
  expect_eq "$(grep -c "^gpus\[[0-9]*\] = '\(train\|dev\)/0/[0-3]'$" dcgmrun/plots/memory-gpus.gp)" "6" "one row per GPU, labelled pool/node/gpu"
  # colour: the highest FB_USED sample as a share of an A100-80GB (81920 MiB), in %
  expect_eq "$(awk '$1 !~ /^#/ && NF == 3 && $3 > m { m = $3 } END { print m }' dcgmrun/plots/memory-gpus.dat)" \
    "$(csv_get dcgmrun/dcgm.csv metric DCGM_FI_DEV_FB_USED value | awk '$1 > m { m = $1 } END { printf "%.6g", m / 819.2 }')" "memory-gpus peak share"
  # more than 64 GPUs: the first 64 drawn, and a note
  for n in $(seq 1 25); do for g in 0 1 2 3; do
    echo "study-a,1,120,DCGM_FI_DEV_FB_USED,40960,train-node$n,$g,GPU-train-$n-$g,x,y,train"
  done; done >> dcgmrun/dcgm.csv
  run plot dcgmrun --format png
  expect_rc 0
  expect_err_contains "memory-gpus: drew the first 64 of 106 GPUs"
  expect_eq "$(grep -c '^gpus\[' dcgmrun/plots/memory-gpus.gp)" "64" "64 GPUs drawn"
  expect_eq "$(grep -c "^gpus\[64\] = 'train/15/3'$" dcgmrun/plots/memory-gpus.gp)" "1" "GPUs in pool, node, index order"

  # names made of gnuplot syntax are drawn as text and run nothing
  printf 'id,submit_s,kind,gpus,mem_gb,duration_s,tenant\nj1,0,batch,1,10,100,"x'"'"'); system(""touch pwned1"") #"\nj2,5,batch,1,10,50,`touch pwned2`\n' > evil.csv
  run run "$A" evil.csv -o evil -q
  expect_rc 0
  sed 's/"scenario" : "study-a"/"scenario" : "q'"'"'\\nsystem(\\"touch pwned3\\")\\n`touch pwned4`"/' evil/summary.json > s.json && mv s.json evil/summary.json
  expect_eq "$(grep -c 'pwned3' evil/summary.json)" "1" "scenario renamed"
  run plot evil --format svg
  expect_rc 0
  for m in pwned1 pwned2 pwned3 pwned4; do expect_no_path "$m"; expect_no_path "evil/plots/$m"; done
  expect_eq "$(grep -c 'system(&quot;touch pwned1&quot;)\|system("touch pwned1")' evil/plots/showback.svg)" "1" "tenant drawn as text"
else
  skip_test "gnuplot not installed: chart rendering not checked"
fi

# without gnuplot: data and scripts, a warning, exit 0
saved_path=$PATH
PATH=/nonexistent
run plot cmp/study-b -o nognuplot
PATH=$saved_path
expect_rc 0
expect_err_contains "gnuplot not found on PATH"
expect_file nognuplot/utilisation.gp
expect_file nognuplot/utilisation.dat
expect_file nognuplot/common.gp
expect_no_path nognuplot/utilisation.png
run plot nowhere
expect_rc 2
run plot cmp/study-a --format gif
expect_rc 2
expect_err_contains "unknown format 'gif'"
