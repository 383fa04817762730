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
expect_err_contains "long.yaml:3: estimated memory 31.5 GB is beyond the budget of 4 GB: 3.154e+08 time-series rows"
run check "$B/long.yaml" "$TR"; expect_rc 2
expect_err_contains "long.yaml:3: estimated memory 63.1 GB is beyond the budget of 4 GB: 6.307e+08 time-series rows of about 100 bytes (1 pools and 1 tenants, each over 3.154e+08 intervals of 1 s)"
run_limited run "$B/long.yaml" "$TR" -o out -q; expect_rc 2
expect_no_path out

# D06: 100 pools of 1e6 GPUs
run check "$B/many-gpus.yaml"; expect_rc 2
expect_err_contains "many-gpus.yaml:3: estimated memory 28 GB is beyond the budget of 4 GB: 1e+08 GPUs of about 280 bytes each (the largest pool, 'p0', has 1e+06)"
run_limited run "$B/many-gpus.yaml" "$TR" -q; expect_rc 2
expect_err_contains "estimated memory 28 GB"
run_limited compare "$S1" "$B/many-gpus.yaml" "$TR" -q --no-progress; expect_rc 2
expect_err_contains "many-gpus.yaml:3: estimated memory 28 GB"
# 15 pools (1.5e7 GPUs, 4.2 GB) are just beyond the budget: --allow-large lets them through
{ head -17 "$B/many-gpus.yaml"; printf "routing:\n- {pool: p0}\n"; } > fifteen.yaml
run check fifteen.yaml; expect_rc 2
expect_err_contains "fifteen.yaml:3: estimated memory 4.2 GB is beyond the budget of 4 GB"
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
