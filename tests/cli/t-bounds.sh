# t-bounds.sh: bounded work (issue 14 D04-D06, SPEC 6). check and every command that runs
# simulations estimate the work (requests, events, time-series rows, GPUs, memory) and
# refuse beyond the budget (docs/scenario-format.md, "Work budget") with file:line and the
# estimate, exit 2, unless --allow-large; a run that could not get its memory is refused
# even then, never aborted in an allocation.
B=$DATA/bounds
S1=$DATA/trace/one-pool.yaml
TR=$DATA/trace/small.csv
# runs sharesim with a time limit (an unbounded run must not hang the suite)
run_limited() { timeout 60 "$SHARESIM" "$@" >out.txt 2>err.txt </dev/null; RC=$?; LAST="sharesim $*"; }

# D04: one row asks for 1e18 requests
run check "$S1" "$B/huge-rate.csv"; expect_rc 2
expect_err_contains "huge-rate.csv:2: estimated work 1e+18 simulated requests is beyond the budget of 1e+10"
expect_err_contains "job 's' alone asks for 1e+18 (rate_rps 1e+09 for 1e+09 s); give --allow-large"
run_limited run "$S1" "$B/huge-rate.csv" -q; expect_rc 2
expect_err_contains "huge-rate.csv:2: estimated work 1e+18 simulated requests"
run check "$S1" "$B/huge-rate.csv" --allow-large; expect_rc 0
# a horizon bounds the estimate: one day of 1e9 requests/s is 8.64e13
printf 'name: h\nhorizon: 1d\npools:\n  - {name: p, gpu: A100-80GB, nodes: 1}\n' > h.yaml
run check h.yaml "$B/huge-rate.csv"; expect_rc 2
expect_err_contains "job 's' alone asks for 8.64e+13 (rate_rps 1e+09 for 8.64e+04 s)"
# notebook bursts: 1e9 s of 10 ms bursts at busy 0.5
run check "$S1" "$B/busy-notebook.csv"; expect_rc 2
expect_err_contains "busy-notebook.csv:2: estimated work 1e+11 events is beyond the budget of 5e+08"

# D05: 3650 days of 1 s intervals, from the scenario alone and with a trace
run check "$B/long.yaml"; expect_rc 2
expect_err_contains "long.yaml:3: estimated memory 31.6 GB is beyond the budget of 4 GB: 3.154e+08 time-series rows"
run check "$B/long.yaml" "$TR"; expect_rc 2
expect_err_contains "long.yaml:3: estimated memory 63.1 GB is beyond the budget of 4 GB: 6.307e+08 time-series rows of about 100 bytes (1 pools and 1 tenants, each over 3.154e+08 intervals of 1 s); set a larger interval (each doubling halves the rows), or give --allow-large to run it anyway"
run_limited run "$B/long.yaml" "$TR" -o out -q; expect_rc 2
expect_no_path out

# D06: 100 pools of 1e6 GPUs
run check "$B/many-gpus.yaml"; expect_rc 2
expect_err_contains "many-gpus.yaml:3: estimated memory 28 GB is beyond the budget of 4 GB: 1e+08 GPUs of about 280 bytes each (the largest pool, 'p0', has 1e+06)"
run_limited run "$B/many-gpus.yaml" "$TR" -q; expect_rc 2
expect_err_contains "estimated memory 28 GB"
run_limited compare "$S1" "$B/many-gpus.yaml" "$TR" -q --no-progress; expect_rc 2
expect_err_contains "many-gpus.yaml:3: estimated memory 28 GB"
# 15 pools (1.5e7 GPUs, 4.22 GB with the process's own 16 MB) are just beyond the budget: --allow-large lets them through
{ head -17 "$B/many-gpus.yaml"; printf "routing:\n- {pool: p0}\n"; } > fifteen.yaml
run check fifteen.yaml; expect_rc 2
expect_err_contains "fifteen.yaml:3: estimated memory 4.22 GB is beyond the budget of 4 GB"
run check fifteen.yaml --allow-large; expect_rc 0

# sweep checks every point before running any; size checks its inputs
run_limited sweep "$S1" "$TR" --set interval=60s,1s --set horizon=3650d -o sw; expect_rc 2
expect_err_contains "estimated memory"
expect_no_path sw
run_limited size "$B/long.yaml" "$TR" --pool p -o sz; expect_rc 2
expect_err_contains "long.yaml:3: estimated memory 63.1 GB"
expect_no_path sz

# --allow-large does not let a run abort in an allocation: beyond the address-space limit
# it is refused (not under AddressSanitizer, which needs a large address space itself)
if grep -q __asan_init "$SHARESIM" 2>/dev/null; then
  skip_test "address-space limit under AddressSanitizer"
else
  (ulimit -v 3000000 && exec "$SHARESIM" run "$B/many-gpus.yaml" "$TR" -q --allow-large) >out.txt 2>err.txt
  RC=$?; LAST="ulimit -v 3000000; sharesim run many-gpus.yaml --allow-large"
  expect_rc 2
  expect_err_contains "estimated memory 28 GB is more than this process may use (3.07 GB"
fi

# ---- issue 29: every mechanism's events and the queueing span are in the estimate ----
# S3-03: checkpoints, one event each (1e-9 s on a 1e6-s job: 1e15), were outside the budget
printf 'name: ck\npools:\n  - {name: main, gpu: A100-80GB, nodes: 1}\n' > one.yaml
printf 'id,submit_s,kind,gpus,mem_gb,duration_s,checkpoint_s\ntr,0,training,1,20,1000000,1e-9\n' > ck.csv
run check one.yaml ck.csv; expect_rc 2
expect_err_contains "ck.csv:2: estimated work 1e+15 events is beyond the budget of 5e+08"
expect_err_contains "job 'tr' alone asks for 1e+15, most of them checkpoints"
run_limited run one.yaml ck.csv -q; expect_rc 2
expect_err_contains "ck.csv:2: estimated work 1e+15 events"
# S3-04: restarts, up to max_restarts with a crash rate, were "at most 10 per job"
printf 'name: cr\nmax_restarts: 1000000\ncrash_rates: {training: 1e6}\npools:\n  - {name: main, gpu: A100-80GB, nodes: 1}\n' > cr.yaml
printf 'id,submit_s,kind,gpus,mem_gb,duration_s,restart\ntr0,0,training,1,20,100000,on-failure\n' > cr.csv
run check cr.yaml cr.csv; expect_rc 2
# (the span counts restart_backoff_max, 300 s, for each restart but the first)
expect_err_contains "cr.csv: estimated work 1.89e+09 events (most of them interval closes: 1.88e+09, over a span of up to 1.128e+11 s)"
expect_err_contains "cr.csv: estimated memory 376 GB is beyond the budget of 4 GB"
run_limited run cr.yaml cr.csv -q; expect_rc 2
# with a horizon the same restarts (a million, each leaving a cancelled end of work in the
# event heap: they once made a run quadratic, 1e5 in 17.5 s) are a bounded run that check
# and run both accept (restarts at once: restart_backoff 0s)
sed 's/^max_restarts: .*/max_restarts: 100000\nhorizon: 1h\nrestart_backoff: 0s/' cr.yaml > crh.yaml
run check crh.yaml cr.csv; expect_rc 0
# (a CPU-time limit, not wall time: 0.6 CPU s here against 17.5 s before the fix)
( ulimit -t 8; exec "$SHARESIM" run crh.yaml cr.csv -o crh ) >out.txt 2>err.txt; RC=$?
LAST="run crh.yaml (ulimit -t 8)"
expect_rc 0
expect_eq "$(grep -c ',restart,' crh/events.csv)" 100000 "100,000 restarts, in linear time"
# S3-05: the series grow with the queueing span, not the trace's: 20,000 one-job tenants
# at t=0 on 8 GPUs queue for 250,000 s (trace span 100 s)
printf 'name: c\npools:\n  - {name: main, gpu: A100-80GB, nodes: 1}\n' > q.yaml
awk 'BEGIN { print "id,submit_s,kind,gpus,mem_gb,duration_s,tenant";
             for (i = 0; i < 20000; i++) printf "j%d,0,batch,1,10,100,t%d\n", i, i }' > q.csv
run check q.yaml q.csv; expect_rc 2
expect_err_contains "q.csv: estimated memory 8.36 GB is beyond the budget of 4 GB: 8.338e+07 time-series rows of about 100 bytes (1 pools and 20000 tenants, each over 4169 intervals of 60 s)"
expect_err_contains "without a horizon the run may last 2.501e+05 s: the last submit plus the queued work"
run check q.yaml q.csv --estimate --allow-large; expect_rc 0
expect_out_contains "q.csv: estimate: 84170 events (arrivals 20000, attempts (1 + restarts) 20000, phases 0"
expect_out_contains "a span of up to 250100 s"
# S3-02: a tiny positive rate (1e-300 overflowed the mean gap and aborted run) is refused
# where it is written, by check and run alike; 0 is an idle service
printf 'name: ph\npools:\n  - {name: main, gpu: A100-80GB, nodes: 1, strategy: time-slicing, replicas: 4}\n' > ph.yaml
printf 'id,submit_s,kind,gpus,mem_gb,duration_s,rate_rps,service_ms\nsvc,1,inference,1,20,600,5,20\n' > svc.csv
for r in 1e-300 1e-320 1e-10; do
  printf 'job_id,after_s,rate_rps\nsvc,10,%s\n' "$r" > ph.csv
  run check ph.yaml svc.csv --phases ph.csv; expect_rc 2
  expect_err_contains "ph.csv:2:3: rate_rps: expected requests per second: 0, or from 1e-9 to 1e9, found '$r'"
  run_limited run ph.yaml svc.csv --phases ph.csv -q; expect_rc 2
done
printf 'job_id,after_s,rate_rps\nsvc,10,0\n' > ph.csv
run_limited run ph.yaml svc.csv --phases ph.csv -q; expect_rc 0
sed 's/,5,20$/,1e-300,20/' svc.csv > tiny.csv
run check ph.yaml tiny.csv; expect_rc 2
expect_err_contains "tiny.csv:2:7: rate_rps: expected requests per second: 0, or from 1e-9 to 1e9, found '1e-300'"

# issue 30: run --dcgm's output is bounded too. 1,000 GPUs over a week at 1 minute: its
# memory is within the budget, its dcgm.prom (10 gauge lines per GPU and interval, each
# labelled as dcgm-exporter does) is not; refused before any work at the interval line,
# with the remedies, by check --dcgm and run --dcgm; without --dcgm it is fine
printf 'name: big\nhorizon: 7d\ninterval: 1m\npools:\n  - {name: p, gpu: A100-80GB, nodes: 125, gpus_per_node: 8}\n' > big.yaml
printf 'id,submit_s,kind,gpus,mem_gb,duration_s\na,0,batch,1,10,3600\n' > one.csv
run check big.yaml one.csv; expect_rc 0
run check big.yaml one.csv --dcgm; expect_rc 2
expect_err_contains "big.yaml:3: estimated run --dcgm output 46.5 GB is beyond the budget of 16 GB: dcgm.prom has a sample of each of 10 gauges per GPU and interval (1000 GPUs over 1.008e+04 intervals of 60 s) and per job resident on a GPU in an interval (up to 62), each line labelled as dcgm-exporter does; set a larger interval (each doubling about halves it), leave out --dcgm, or give --allow-large to run it anyway"
run_limited run big.yaml one.csv --dcgm -o big -q; expect_rc 2
expect_err_contains "big.yaml:3: estimated run --dcgm output 46.5 GB"
expect_no_path big
# a 4 times larger interval brings it within the budget (12 GB), and --estimate says so
sed 's/interval: 1m/interval: 4m/' big.yaml > big4.yaml
run check big4.yaml one.csv --dcgm --estimate; expect_rc 0
expect_out_contains "per-GPU job entries, 1"
