# t-culling.sh: idle culling of notebooks as JupyterHub's idle culler does it (issue 31 item
# 4, docs/models.md "Idle culling"): a notebook idle for notebook_cull_timeout is stopped,
# its GPU goes to a queued job, its user's return (the next burst) queues and waits; the
# counts in tenants.csv, pools.csv and the summaries add up to the events; off by default
# (no cull, no columns); the budget stays above the run; bad durations are refused.
printf 'notebook_cull_timeout: 600s\npools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n    gpus_per_node: 1\n' > c.yaml
# a notebook with long gaps (mean 490 s) for 20,000 s, and a 2,000 s batch job that waits for its GPU
printf 'id,submit_s,kind,gpus,mem_gb,duration_s,tenant,busy,burst_s\nnb,0,notebook,1,10,20000,a,0.02,10\nb,10,batch,1,10,2000,b,,\n' > c.csv
run run c.yaml c.csv -o c -q; expect_rc 0
# cell FILE KEY COLUMN: COLUMN of the row whose first column after scenario and seed is KEY
cell() { csv_get "$1" "$(head -1 "$1" | cut -d, -f3)" "$2" "$3"; }
# cull_rows FILE JOB: the time and detail of each cull of JOB in events.csv
cull_rows() { csv_get "$1" event cull job,t_s,detail | sed -n "s/^$2,//p"; }
culls=$(cull_rows c/events.csv nb | wc -l)
t1=$(cull_rows c/events.csv nb | head -1 | cut -d, -f1)
back1=$(cull_rows c/events.csv nb | head -1 | sed 's/.*returns at \([0-9]*\) s$/\1/')
if [ "$culls" -ge 3 ]; then pass; else fail "only $culls culls of nb"; fi
# the GPU the cull freed goes to the waiting batch job at once
expect_eq "$(cell c/jobs.csv b start_s)" "$t1" "the batch job starts when the notebook is culled"
# the user came back (at back1) while b ran: waited until b ended; later returns found the GPU free
bend=$(cell c/jobs.csv b end_s)
expect_eq "$(awk -v e="$bend" -v r="$back1" 'BEGIN { print (r < e) }')" "1" "the first return comes while b runs"
returns=$(cull_rows c/events.csv nb | grep -c 'returns at')
expect_eq "$(cell c/tenants.csv a culled_sessions)/$(cell c/tenants.csv a returns)" "$culls/$returns" "tenants.csv: culls and returns of a"
expect_eq "$(cell c/tenants.csv b culled_sessions)/$(cell c/tenants.csv b returns)" "0/0" "tenants.csv: b has none"
expect_eq "$(cell c/pools.csv p culled_sessions)/$(cell c/pools.csv p returns)" "$culls/$returns" "pools.csv: culls and returns of p"
w=$(cell c/tenants.csv a return_wait_mean_s)
ok=$(awk -v w="$w" -v e="$bend" -v r="$back1" -v n="$returns" 'BEGIN { x = (e - r) / n; print (w > x - 1 && w < x + 1) }')
expect_eq "$ok" "1" "return wait mean $w: (b's end $bend - the return $back1) over $returns returns"
expect_eq "$(cell c/jobs.csv nb wait_s | cut -d. -f1)" "$(awk -v w="$w" -v n="$returns" 'BEGIN { printf "%d", w * n }')" "the notebook's wait is its returns' waits"
# GPU-hours freed: from each cull to its return, the last one to the session's end (20,000 s)
freed=$(cull_rows c/events.csv nb | awk -F, '{ t = $1; d = $2; if (d ~ /returns at/) { sub(/.*returns at /, "", d); sub(/ s$/, "", d); s += d - t } else s += 20000 - t } END { print s / 3600 }')
got=$(cell c/tenants.csv a cull_freed_gpu_h)
expect_eq "$(awk -v a="$freed" -v b="$got" 'BEGIN { print (a - b < 0.01 && b - a < 0.01) }')" "1" "GPU-hours freed $got, from the events $freed"
expect_eq "$(cell c/jobs.csv nb outcome)/$(cell c/jobs.csv nb end_s)" "completed/$(cull_rows c/events.csv nb | tail -1 | cut -d, -f1)" \
  "a user who does not return before the session's end: it ends at the last cull"
grep -q "^idle culling      $culls notebook servers culled after 10 m idle; " c/summary.txt && pass || fail "summary.txt's culling line: $(grep culling c/summary.txt)"
grep -q "\"culled_sessions\" : $culls," c/summary.json && pass || fail "summary.json: no culling totals"
# a notebook that never computes is culled at its timeout, for good
printf 'id,submit_s,kind,gpus,mem_gb,duration_s,tenant,busy\nnb0,100,notebook,1,10,20000,a,0\n' > idle.csv
run run c.yaml idle.csv -o idle -q; expect_rc 0
expect_eq "$(csv_get idle/events.csv event cull t_s,job,detail)" "700,nb0,idle 600 s: culled; its session ends before its user returns" "culled 600 s after its start"
expect_eq "$(cell idle/jobs.csv nb0 end_s)/$(cell idle/tenants.csv a cull_freed_gpu_h)/$(cell idle/tenants.csv a returns)" "700/5.38889/0" \
  "ended at the cull; the 19,400 s left of its session freed"
# the budget counts the culls' events: three a possible cull (the return, the session's end
# and a timer)
run check c.yaml c.csv --estimate; expect_rc 0
att=$(sed -n 's/.*attempts (1 + restarts) \([0-9.e+]*\).*/\1/p' out.txt | head -1)
expect_eq "$(awk -v a="$att" -v n="$culls" 'BEGIN { print (a >= 3 * n + 2) }')" "1" "the estimate's attempts $att count 3 events for each of the $culls culls"
est=$(sed -n 's/.*estimate: \([0-9.e+]*\) events.*/\1/p' out.txt | head -1)
ran=$(sed -n 's/.*"events" *: *\([0-9]*\).*/\1/p' c/summary.json | head -1)
if [ -n "$est" ] && [ -n "$ran" ] && awk -v e="$est" -v r="$ran" 'BEGIN { exit !(e >= r) }'; then pass
else fail "check --estimate events '$est' below the run's '$ran'"; fi
# off by default: no cull, b waits for the whole session, no culling columns or lines
sed '/notebook_cull_timeout/d' c.yaml > off.yaml
run run off.yaml c.csv -o off -q; expect_rc 0
expect_eq "$(csv_get off/events.csv event cull t_s | wc -l)/$(cell off/jobs.csv b start_s)" "0/20000" "no culling by default"
expect_eq "$(head -1 off/tenants.csv)" "scenario,seed,tenant,jobs,allocated_gpu_h,busy_gpu_h,cost,cost_share,sm_active_gpu_h,blast_caused,blast_suffered" "tenants.csv keeps its columns"
expect_eq "$(grep -c 'culling' off/summary.txt off/summary.json | grep -c ':0')" "2" "no culling figures in the summaries"
# bad input
printf 'notebook_cull_timeout: -10m\npools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n' > bad.yaml
run run bad.yaml c.csv -o bad -q; expect_rc 2
expect_err_contains "bad.yaml:1:24: notebook_cull_timeout: expected a duration with a unit from 0s to 30d"
expect_no_path bad
run run c.yaml c.csv -o bad -q --set notebook_cull_timeout=soon; expect_rc 2
expect_err_contains "c.yaml: --set notebook_cull_timeout: expected a duration with a unit from 0s to 30d (e.g. 250ms, 90s, 2m, 1h, 7d), found 'soon'"
expect_no_path bad
