# t-faults.sh: fault injection against the real binary (issue 14): runs, imports and sweeps
# killed with SIGKILL, SIGTERM and SIGINT (nothing half-written; temporaries removed, or
# swept by the next run once their writer is dead), a full disk (/dev/full, and a 64 KiB
# tmpfs when mounting is allowed), a read-only folder, concurrent writers (the sweep lock,
# two runs into one folder), referenced files changed under a sweep (D07) and a hung
# gnuplot (D11), a held jobs.csv row the row writer's spill cannot read back. Cases the
# machine cannot stage (no mount, no root) are skipped.
ONE="$DATA/trace/one-pool.yaml"; SMALL="$DATA/trace/small.csv"
A="$DATA/study/study-a.yaml"; T="$DATA/study/study.csv"
HOST=$(printf %s "$(hostname)" | sha256sum | cut -c1-8)
awk 'BEGIN { print "id,submit_s,kind,gpus,mem_gb,duration_s"; for (i = 0; i < 200000; i++) printf "j%d,%d,batch,1,1,1\n", i, i }' > big.csv
head -30001 big.csv > mid.csv

# dead_pid: a pid that has just exited (a finished subshell)
dead_pid() { sh -c 'echo $$'; }
# temps PATTERN: how many entries of the current folder match
temps() { ls -A | grep -c -- "$1"; }

# kill_during_write SIGNAL DIR: runs run -o DIR on big.csv, sends SIGNAL once the temporary
# folder exists, sets RC to the exit status; KILLED=1 when the signal came before the end
kill_during_write() {
  env --default-signal=INT,TERM,HUP "$SHARESIM" run "$ONE" big.csv -o "$2" -q 2>/dev/null &
  p=$!; i=0
  while ! ls -d "$2".tmp-* >/dev/null 2>&1 && [ $i -lt 3000 ]; do sleep 0.01; i=$((i + 1)); done
  KILLED=0; [ -d "$2" ] || KILLED=1
  kill -"$1" $p 2>/dev/null; wait $p; RC=$?; LAST="run -o $2 (SIG$1 while writing)"
  [ -d "$2" ] && [ "$RC" = 0 ] && KILLED=0
}

# ---- SIGTERM and SIGINT: the handler removes the temporary; exit 128 + N ----
kill_during_write TERM rterm
if [ "$KILLED" = 1 ]; then
  expect_rc 143
  expect_eq "$(temps '^rterm')" 0 "nothing left by a run stopped with SIGTERM"
else skip_test "the run finished before SIGTERM arrived"; fi
if env --default-signal=INT true 2>/dev/null; then
  kill_during_write INT rint
  if [ "$KILLED" = 1 ]; then
    expect_rc 130
    expect_eq "$(temps '^rint')" 0 "nothing left by a run stopped with SIGINT"
  else skip_test "the run finished before SIGINT arrived"; fi
else skip_test "env --default-signal is not available"; fi

# ---- SIGKILL: the temporary stays; the next run into the same folder sweeps it ----
kill_during_write KILL rkill
if [ "$KILLED" = 1 ]; then
  expect_rc 137
  expect_eq "$(temps '^rkill\.tmp-')" 1 "SIGKILL leaves the temporary (cannot be caught)"
  expect_no_path rkill
  # a temporary of a live writer (this shell) must survive the sweep-up
  mkdir "rkill.tmp-$$-$HOST-Live00"; printf 'sharesim-folder 1\ncommand run\n' > "rkill.tmp-$$-$HOST-Live00/.sharesim-folder"
  run run "$ONE" "$SMALL" -o rkill -q
  expect_rc 0
  expect_file rkill/summary.json
  expect_eq "$(temps '^rkill\.tmp-')" 1 "the dead writer's temporary swept, the live one kept ($(ls -A | grep '^rkill' | tr '\n' ' '))"
  expect_file "rkill.tmp-$$-$HOST-Live00/.sharesim-folder"
  rm -rf "rkill.tmp-$$-$HOST-Live00"
else skip_test "the run finished before SIGKILL arrived"; fi

# ---- stale import temporaries: swept only when their writer is dead, only sharesim's ----
d=$(dead_pid)
echo partial > ".t.csv.tmp-$d-$HOST-Dead00"
echo mine > ".t.csv.tmp-$$-$HOST-Live00"
echo other > ".t.csv.tmp-$d-0000beef-Else00"
run import dcgm "$DATA/import/dcgm-range.json" -o t.csv
expect_rc 0
expect_no_path ".t.csv.tmp-$d-$HOST-Dead00"
expect_file ".t.csv.tmp-$$-$HOST-Live00"
expect_file ".t.csv.tmp-$d-0000beef-Else00"
rm -f .t.csv.tmp-*

# ---- a sweep stopped with SIGTERM: its logs, scratch folder and points are removed ----
SETS="--set pools.train.nodes=1,2,3,4,5,6 --set seed=1,2"
env --default-signal=INT,TERM,HUP "$SHARESIM" sweep "$A" mid.csv $SETS -j 2 -q --no-progress 2>sweep-err.txt & p=$!
i=0; while [ -z "$(ls "${TMPDIR:-/tmp}" | grep -- "^sharesim-sweep.*\.tmp-$p-")" ] && [ $i -lt 1000 ]; do sleep 0.01; i=$((i + 1)); done
sleep 0.5; kill -TERM $p; wait $p; RC=$?; LAST="sweep (no -o) stopped with SIGTERM"
if [ "$RC" != 0 ]; then
  expect_rc 143
  expect_eq "$(ls "${TMPDIR:-/tmp}" | grep -c -- "\.tmp-$p-")" 0 "no scratch folder or log of the stopped sweep left in \$TMPDIR"
  expect_eq "$(grep -c 'failed' sweep-err.txt)" 0 "points stopped by the signal are not reported as failures"
else skip_test "the sweep finished before SIGTERM arrived"; fi

# ---- concurrent: a second sweep on a locked folder says who holds it ----
run sweep "$A" "$T" --set seed=1,2 -j 1 -o swl -q
expect_rc 0
printf 'pid 4242\nhost otherhost\nstarted 2026-12-01 10:00:00 UTC\n' > swl/.sweep.lock
# waits (up to 10 s) until another process holds the sweep lock, shared or exclusive: a
# fixed sleep is not enough on a loaded machine
lock_held() {
  local i=0
  while flock -n -x swl/.sweep.lock true 2>/dev/null && [ $i -lt 1000 ]; do sleep 0.01; i=$((i + 1)); done
}
# hold the lock from another process (exec: the sleep keeps the only descriptor)
( flock -x 9 && exec sleep 30 ) 9>>swl/.sweep.lock & holder=$!
lock_held
run sweep "$A" "$T" --set seed=1,2 -j 1 -o swl -q
expect_rc 1
expect_err_contains "swl is in use by another sweep: pid 4242 on host otherhost since 2026-12-01 10:00:00 UTC"
rm -rf swl/points/1_*
run sweep --point 1 swl
expect_rc 1
expect_err_contains "in use by another sweep"
kill $holder; wait $holder 2>/dev/null
( flock -s 9 && exec sleep 30 ) 9>>swl/.sweep.lock & holder=$!
lock_held
run sweep "$A" "$T" --set seed=1,2 -j 1 -o swl -q
expect_rc 1
expect_err_contains "swl is in use by sweep --point tasks"
kill $holder; wait $holder 2>/dev/null
run sweep "$A" "$T" --set seed=1,2 -j 1 -o swl -q
expect_rc 0
expect_eq "$(wc -c < swl/.sweep.lock | tr -d ' ')" 0 "the lock file is emptied on release"
# two sweeps started together: one runs, the other is refused; the result is complete
"$SHARESIM" sweep "$A" mid.csv --set seed=1,2,3,4 -j 2 -o swc -q 2>e1 & p1=$!
"$SHARESIM" sweep "$A" mid.csv --set seed=1,2,3,4 -j 2 -o swc -q 2>e2 & p2=$!
wait $p1; r1=$?; wait $p2; r2=$?
expect_eq "$(echo $r1 $r2 | tr ' ' '\n' | sort | tr '\n' ' ')" "0 1 " "one sweep ran, one was refused"
if grep -q "in use by another sweep" e1 e2; then pass; else fail "the refused sweep did not say the folder is in use"; fi
expect_eq "$(grep -c '' swc/sweep.csv)" 5 "all four points in sweep.csv"
# two runs into one folder at once: both finish, one complete result, no temporary left
"$SHARESIM" run "$ONE" "$SMALL" -o twice -q & p1=$!
"$SHARESIM" run "$ONE" "$SMALL" -o twice -q & p2=$!
wait $p1; r1=$?; wait $p2; r2=$?
expect_eq "$r1 $r2" "0 0" "both runs succeed"
expect_file twice/summary.json
expect_eq "$(temps '^twice\.')" 0 "no temporary or old copy left"

# ---- D07: a referenced file that changes makes the folder another sweep ----
mkdir d07; cp "$DATA/study/study.csv" d07/
cat > d07/sc.yaml <<'YAML'
name: d07
pools:
  - name: dev
    gpu: A100-80GB
    nodes: 1
    gpus_per_node: 4
    sharing_config: dp.yaml
YAML
printf 'version: v1\nsharing:\n  timeSlicing:\n    resources:\n    - name: nvidia.com/gpu\n      replicas: 4\n' > d07/dp.yaml
run sweep d07/sc.yaml d07/study.csv --set seed=1,2 -j 1 -o d07/sw -q
if [ "$RC" = 0 ]; then
  expect_eq "$(grep -c '"sha256"' d07/sw/sweep.json)" 1 "the referenced file is in the manifest"
  sed -i 's/replicas: 4/replicas: 16/' d07/dp.yaml
  run sweep d07/sc.yaml d07/study.csv --set seed=1,2 -j 1 -o d07/sw -q
  expect_rc 2
  expect_err_contains "holds another sweep (different inputs, input contents, referenced files or grid"
  rm -rf d07/sw/points/1_*
  run sweep --point 1 d07/sw
  expect_rc 2
  expect_err_contains "dp.yaml changed since the sweep was set up"
else fail "sweep with a sharing_config did not run"; fi

# ---- D11: a gnuplot that hangs is stopped at the limit ----
mkdir hang; printf '#!/bin/sh\nsleep 600\n' > hang/gnuplot; chmod +x hang/gnuplot
run run "$ONE" "$SMALL" -o hres -q
start=$(date +%s)
PATH="$PWD/hang:$PATH" SHARESIM_GNUPLOT_TIMEOUT=1 "$SHARESIM" plot hres -o hpl >out.txt 2>err.txt </dev/null; RC=$?
LAST="plot with a hung gnuplot"
expect_rc 1
expect_err_contains "did not finish within 1 s and was stopped (SHARESIM_GNUPLOT_TIMEOUT sets the limit)"
expect_err_contains "not drawn (an earlier gnuplot was stopped at the time limit)"
expect_eq "$(( $(date +%s) - start < 20 ))" 1 "plot returned within seconds"
expect_file hpl/utilisation.gp

# ---- issue 29 (S3-12): a signal stops gnuplot's whole process group, SIGKILL after 2 s ----
# the stand-in ignores SIGTERM, and so does the child it starts (dispositions are inherited)
tag="1002$$"
mkdir stubborn; printf "#!/bin/sh\ntrap '' TERM\nsleep $tag &\nwait\n" > stubborn/gnuplot; chmod +x stubborn/gnuplot
PATH="$PWD/stubborn:$PATH" "$SHARESIM" plot hres -o spl > out.txt 2> err.txt < /dev/null & pid=$!
i=0; while [ $i -lt 100 ] && ! pgrep -f "sleep $tag" > /dev/null; do sleep 0.1; i=$((i + 1)); done
kill -TERM $pid; wait $pid; RC=$?
LAST="plot with a gnuplot that ignores SIGTERM, then SIGTERM"
expect_rc 143
expect_eq "$(pgrep -f "sleep $tag" | wc -l | tr -d ' ')" 0 "gnuplot's children stopped with plot"
pkill -KILL -f "sleep $tag" 2> /dev/null

# ---- a held jobs.csv row the row writer's spill cannot give back (a planted read failure) ----
# 3,000 rows end behind a long first job, so all wait; a 4 KB budget spills them in runs
awk 'BEGIN { print "id,submit_s,kind,gpus,mem_gb,duration_s"; print "long,0,batch,1,1,100000"
             for (i = 0; i < 3000; i++) printf "s%d,%d,batch,1,1,5\n", i, i }' > held.csv
run run "$ONE" held.csv -o rheld -q
expect_rc 0
run run "$ONE" held.csv -o rheld-spilled -q --test-hold-bytes=4096
expect_rc 0
expect_same_files rheld/jobs.csv rheld-spilled/jobs.csv
expect_same_files rheld/summary.json rheld-spilled/summary.json
run run "$ONE" held.csv -o rheld-failed -q --test-hold-bytes=4096 --test-fail-read=20
expect_rc 1
expect_err_contains "cannot read back a held jobs.csv row from the spill file"
expect_no_path rheld-failed
expect_eq "$(temps '^rheld-failed')" 0 "nothing half-written when a held row cannot be read back"

# ---- full disk: /dev/full ----
if [ -w /dev/full ]; then
  "$SHARESIM" import dcgm "$DATA/import/dcgm-range.json" >/dev/full 2>err.txt; RC=$?; LAST="import > /dev/full"
  expect_rc 1
  expect_err_contains "cannot write the output (stdout): No space left on device"
else skip_test "/dev/full is not writable"; fi

# ---- full disk: a 64 KiB tmpfs (root with mount rights only) ----
mkdir mnt
if mount -t tmpfs -o size=64k tmpfs mnt 2>/dev/null; then
  run run "$ONE" big.csv -o mnt/res -q
  expect_rc 1
  expect_err_contains "No space left on device"
  expect_eq "$(ls -A mnt | wc -l)" 0 "a run on a full disk leaves nothing"
  run import alibaba-openb "$DATA/import/openb-pods.csv" -o mnt/t.csv
  [ -f "$DATA/import/openb-pods.csv" ] || run run "$ONE" big.csv -o mnt/res2 -q
  expect_eq "$(ls -A mnt | grep -c 'tmp-')" 0 "no temporary left on the full disk"
  run run "$ONE" "$SMALL" -o res -q
  cp -r res mnt/res && dd if=/dev/zero of=mnt/fill bs=1k count=64 2>/dev/null
  run plot mnt/res
  expect_rc 1
  expect_no_path mnt/res/plots
  expect_eq "$(ls -A mnt/res | grep -c 'plots')" 0 "no half-written plots folder"
  umount mnt
else
  skip_test "mounting a tmpfs was refused: full-disk case not staged"
fi
# ---- read-only: a read-only tmpfs (root) or a folder without write permission ----
if mount -t tmpfs -o ro,size=64k tmpfs mnt 2>/dev/null; then ro=mnt; else chmod 555 mnt; ro=mnt; fi
if ! touch mnt/probe 2>/dev/null; then
  run run "$ONE" "$SMALL" -o mnt/res -q
  expect_rc 1
  expect_err_contains "cannot create a temporary folder for mnt/res"
  run import dcgm "$DATA/import/dcgm-range.json" -o mnt/t.csv
  expect_rc 1
  expect_err_contains "cannot write mnt/t.csv"
else
  rm -f mnt/probe; skip_test "no read-only folder could be staged"
fi
mountpoint -q mnt 2>/dev/null && umount mnt
chmod 755 mnt 2>/dev/null; rmdir mnt
