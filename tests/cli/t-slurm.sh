# t-slurm.sh: `sweep --slurm` against a real single-node Slurm (Debian's slurmctld, slurmd and
# munge, started here in this test's folder on their own ports and socket): the array job the
# sweep writes runs under sbatch and gives the same sweep.csv and points as a local sweep;
# --collect names a failed point and --resubmit hands it to the real sbatch, which finishes
# it. Skips cleanly when the daemons are missing, we are not root, or they do not start.
A="$DATA/study/study-a.yaml"; T="$DATA/study/study.csv"
SETS="--set pools.train.nodes=1,2,3 --set pools.dev.placement=pack,spread"

sl_dir="$PWD/slurm"
# sl_stop: stops the daemons this test started (pid files in its folder), waits for them
sl_stop() {
  [ -n "${SLURM_CONF:-}" ] && scontrol shutdown >/dev/null 2>&1
  for f in "$sl_dir/slurmd.pid" "$sl_dir/slurmctld.pid" "$sl_dir/munged.pid"; do
    [ -f "$f" ] || continue
    p=$(cat "$f" 2>/dev/null); [ -n "$p" ] || continue
    kill "$p" 2>/dev/null
    i=0; while kill -0 "$p" 2>/dev/null && [ $i -lt 300 ]; do sleep 0.05; i=$((i + 1)); done
    kill -9 "$p" 2>/dev/null
  done
  return 0
}
# sl_wait_idle: waits (up to 60 s) until squeue lists no job; 0 when it got there
sl_wait_idle() {
  i=0
  while [ $i -lt 600 ]; do
    [ -z "$(squeue -h 2>/dev/null)" ] && squeue >/dev/null 2>&1 && return 0
    sleep 0.1; i=$((i + 1))
  done
  return 1
}
# sl_start: writes slurm.conf, starts munged, slurmctld and slurmd; 0 when the node is idle
sl_start() {
  mkdir -p "$sl_dir/state" "$sl_dir/spool" || return 1
  node=$(hostname -s 2>/dev/null) || return 1
  [ -n "$node" ] || return 1
  # ports of our own (two per run, from the process id) so that parallel runs do not meet
  ncpu=$(nproc 2>/dev/null || echo 1)
  base=$((20000 + ($$ % 10000) * 2))
  dd if=/dev/urandom of="$sl_dir/munge.key" bs=128 count=1 2>/dev/null && chmod 600 "$sl_dir/munge.key"
  munged -f --key-file="$sl_dir/munge.key" --socket="$sl_dir/munge.sock" \
    --pid-file="$sl_dir/munged.pid" --log-file="$sl_dir/munged.log" \
    --seed-file="$sl_dir/munged.seed" >/dev/null 2>&1 || return 1
  cat > "$sl_dir/slurm.conf" <<EOF
ClusterName=sharesimtest
SlurmctldHost=$node
SlurmctldPort=$base
SlurmdPort=$((base + 1))
AuthType=auth/munge
AuthInfo=socket=$sl_dir/munge.sock
CredType=cred/munge
StateSaveLocation=$sl_dir/state
SlurmdSpoolDir=$sl_dir/spool
SlurmctldPidFile=$sl_dir/slurmctld.pid
SlurmdPidFile=$sl_dir/slurmd.pid
SlurmctldLogFile=$sl_dir/slurmctld.log
SlurmdLogFile=$sl_dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmUser=root
SlurmdUser=root
MpiDefault=none
NodeName=$node CPUs=$ncpu State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
  SLURM_CONF="$sl_dir/slurm.conf"; export SLURM_CONF
  slurmctld -i >/dev/null 2>&1 || return 1
  slurmd >/dev/null 2>&1 || return 1
  i=0
  while [ $i -lt 200 ]; do
    [ "$(sinfo -h -o %t 2>/dev/null)" = idle ] && return 0
    sleep 0.1; i=$((i + 1))
  done
  return 1
}

why=""
for c in munged slurmctld slurmd sbatch squeue sinfo scontrol; do
  command -v $c >/dev/null 2>&1 || why="$why $c"
done
if [ -n "$why" ]; then
  skip_test "Slurm is not installed (missing:$why): the real-Slurm sweep is not checked"
elif [ "$(id -u)" != 0 ]; then
  skip_test "not root: a single-node Slurm cannot be started here"
elif ! sl_start; then
  skip_test "the single-node Slurm did not start: $(tail -2 "$sl_dir/slurmctld.log" "$sl_dir/slurmd.log" 2>/dev/null | tr '\n' ' ')"
  sl_stop
else
  # the reference: the same sweep run here
  run sweep "$A" "$T" $SETS -j 1 -o local --no-progress -q
  expect_rc 0
  bin=$(cd "$(dirname "$SHARESIM")" && pwd)/$(basename "$SHARESIM")
  run sweep "$A" "$T" $SETS -o swr --slurm --partition debug --time 10 \
    --slurm-output "$PWD/logs/%A_%a.out" --binary "$bin"
  expect_rc 0
  mkdir -p logs
  # point 2 cannot write its folder (a file is in the way): its task fails
  p2=$(ls local/points | sed -n 2p)
  printf 'in the way\n' > "swr/points/$p2"
  t0=$(date +%s); if sbatch swr/sweep.sbatch > sbatch.out 2>&1; then pass; else fail "sbatch refused the sweep: $(cat sbatch.out)"; fi
  if sl_wait_idle; then pass; echo "array took $(($(date +%s) - t0)) s" >&2; else fail "the array job did not finish in 60 s: $(squeue 2>&1 | head -5)"; fi
  expect_eq "$(ls logs | wc -l)" "6" "one log per array task (--slurm-output)"
  run sweep --collect swr -q
  expect_rc 1
  expect_err_contains "1 point failed"
  expect_err_contains "$p2: exit code"
  expect_eq "$(grep -c '' swr/sweep.csv)" "6" "sweep.csv: header and the 5 finished points"
  rm "swr/points/$p2"
  run sweep --collect swr --resubmit -q
  expect_rc 1
  expect_out_contains "resubmitted 1 point: sbatch --array=2 "
  if sl_wait_idle; then pass; else fail "the resubmitted task did not finish in 60 s"; fi
  run sweep --collect swr -q
  expect_rc 0
  expect_same_files local/sweep.csv swr/sweep.csv
  if diff -r local/points swr/points >/dev/null; then pass; else fail "points run by Slurm differ from local ones: $(diff -r local/points swr/points | head -5)"; fi
  expect_no_path "swr/failed/$p2"
  sl_stop
fi
