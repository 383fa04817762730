# t-restarts.sh: restarts as Kubernetes spaces them (issue 31, docs/models.md "Restart
# back-off"): the first restart at once, then 10 s doubling to 300 s; an attempt that ran
# 10 minutes starts the sequence again; restart_backoff: 0s restarts at once; the wait shows
# in events.csv (backoff and restart rows) and jobs.csv (backoff_s); bad durations are
# refused at file:line:column.
printf 'horizon: 3h\nmax_restarts: 9\npools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n' > bo.yaml
printf 'id,submit_s,kind,gpus,mem_gb,duration_s,restart\nj,0,training,1,10,100000,on-failure\n' > bo.csv
# every attempt overflows the card 5 s after it starts (an out-of-memory each time)
printf 'job_id,after_s,mem_gb\nj,5,100\n' > oom5.csv
run run bo.yaml bo.csv --phases oom5.csv -o b5 -q; expect_rc 0
# the restarts' times: at once, then after 10, 20, 40, 80, 160, 300, 300, 300 s of back-off
# ev DIR EVENT COLUMN: COLUMN of job j's EVENT rows in DIR/events.csv
ev() { csv_get "$1/events.csv" event "$2" job,"$3" | sed -n 's/^j,//p'; }
expect_eq "$(ev b5 restart t_s | tr '\n' ' ')" \
  "5 20 45 90 175 340 645 950 1255 " "restart times of a job failing 5 s into each attempt"
expect_eq "$(ev b5 backoff detail | tr '\n' '/')" \
  "back-off 10 s before restart 2/back-off 20 s before restart 3/back-off 40 s before restart 4/back-off 80 s before restart 5/back-off 160 s before restart 6/back-off 300 s before restart 7/back-off 300 s before restart 8/back-off 300 s before restart 9/" \
  "the back-off events"
col() { head -1 "$1" | tr ',' '\n' | grep -nx "$2" | cut -d: -f1; }
row() { awk -F, -v c="$(col "$1" "$2")" 'NR == 2 { print $c }' "$1"; }
expect_eq "$(row b5/jobs.csv restarts)/$(row b5/jobs.csv backoff_s)/$(row b5/jobs.csv outcome)" \
  "9/1210/failed" "jobs.csv: restarts, time in back-off (10+20+40+80+160+3x300), outcome"
# the reset: an attempt that ran 10 minutes makes the next failure the first again (at once);
# one that ran a second less does not
printf 'job_id,after_s,mem_gb\nj,600,100\n' > oom600.csv
run run bo.yaml bo.csv --phases oom600.csv -o b600 -q; expect_rc 0
expect_eq "$(grep -c ',backoff,' b600/events.csv)/$(grep -c ',restart,' b600/events.csv)" "0/9" \
  "attempts of 600 s reset the back-off: every restart at once"
printf 'job_id,after_s,mem_gb\nj,599,100\n' > oom599.csv
run run bo.yaml bo.csv --phases oom599.csv -o b599 -q; expect_rc 0
expect_eq "$(ev b599 restart t_s | head -3 | tr '\n' ' ')" \
  "599 1208 1827 " "attempts of 599 s do not reset it: 0, 10, 20 s of back-off"
# restart_backoff_reset and the cap are keys; restart_backoff: 0s restarts at once
run run bo.yaml bo.csv --phases oom599.csv -o r599 -q --set restart_backoff_reset=599s; expect_rc 0
expect_eq "$(grep -c ',backoff,' r599/events.csv)" "0" "restart_backoff_reset=599s resets after 599 s"
run run bo.yaml bo.csv --phases oom5.csv -o cap -q --set restart_backoff_max=15s; expect_rc 0
expect_eq "$(ev cap restart t_s | head -4 | tr '\n' ' ')" \
  "5 20 40 60 " "restart_backoff_max=15s caps the back-off at 15 s"
run run bo.yaml bo.csv --phases oom5.csv -o off -q --set restart_backoff=0s; expect_rc 0
expect_eq "$(ev off restart t_s | tr '\n' ' ')/$(grep -c ',backoff,' off/events.csv)" \
  "5 10 15 20 25 30 35 40 45 /0" "restart_backoff=0s: every restart at once"
expect_eq "$(row off/jobs.csv backoff_s)" "0" "no time in back-off when it is off"
# the budget counts the back-off's events: the estimate stays above the run's
run check bo.yaml bo.csv --phases oom5.csv --estimate; expect_rc 0
est=$(sed -n 's/.*estimate: \([0-9.e+]*\) events (.*attempts (1 + restarts) \([0-9.e+]*\).*/\1 \2/p' out.txt | head -1)
ran=$(sed -n 's/.*"events" *: *\([0-9]*\).*/\1/p' b5/summary.json | head -1)
# 9 restarts, 8 of them after a back-off: 10 ends of attempts and 8 ends of back-offs
expect_eq "${est#* }" "18" "the attempts' events count the back-offs' ends"
est=${est%% *}
if [ -n "$est" ] && [ -n "$ran" ] && awk -v e="$est" -v r="$ran" 'BEGIN { exit !(e >= r) }'; then pass
else fail "check --estimate events '$est' below the run's '$ran'"; fi
# restart: always (Kubernetes' restartPolicy Always) restarts a notebook, which by default
# (never) fails at its first kill; a batch job may not say always
printf 'id,submit_s,kind,gpus,mem_gb,duration_s,restart\nn,0,notebook,1,10,100000,always\nm,0,notebook,1,10,100000,\n' > nb.csv
printf 'job_id,after_s,mem_gb\nn,5,100\nm,5,100\n' > nbph.csv
printf 'horizon: 1h\nmax_restarts: 2\npools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n    gpus_per_node: 2\n' > nb.yaml
run run nb.yaml nb.csv --phases nbph.csv -o nb -q; expect_rc 0
expect_eq "$(row nb/jobs.csv restarts)/$(row nb/jobs.csv outcome)" "2/failed" "restart: always restarts the notebook (max_restarts 2)"
expect_eq "$(csv_get nb/jobs.csv id m restarts,outcome | tr , /)" "0/failed" "a notebook restarts never by default"
printf 'id,submit_s,kind,gpus,mem_gb,duration_s,restart\nb,0,batch,1,10,100,on-failure\nc,0,batch,1,10,100,always\n' > ab.csv
run check bo.yaml ab.csv; expect_rc 2
expect_err_contains "ab.csv:3:7: restart: expected never or on-failure for a training or batch job"
# bad durations: file:line:column, exit 2, nothing written
printf 'restart_backoff: -10s\nrestart_backoff_max: ten\npools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n' > bad.yaml
run run bad.yaml bo.csv -o bad -q; expect_rc 2
expect_err_contains "bad.yaml:1:18: restart_backoff: expected a duration with a unit from 0s to 1d"
expect_err_contains "bad.yaml:2:22: restart_backoff_max: expected a duration with a unit from 1s to 1d"
expect_no_path bad
run run bo.yaml bo.csv -o bad -q --set restart_backoff_reset=-1m; expect_rc 2
expect_err_contains "restart_backoff_reset: expected a duration with a unit from 0s to 30d"
expect_no_path bad
