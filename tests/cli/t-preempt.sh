# t-preempt.sh: priority classes and preemption (docs/models.md "Priorities and
# preemption", docs/scenario-format.md): the victim kube-scheduler's default preemption
# picks (lowest priority first, then the most recently started), preemptionPolicy Never,
# the termination grace period, work lost back to the last checkpoint (or kept with
# checkpoint_on_termination), the counts in tenants.csv, events.csv and the summary, and
# bad input at file:line:column with exit 2 and nothing written.
P="$DATA/preempt"

# events.csv's preemption rows as "victim<cause@t lost"
preemptions() { csv_get "$1/events.csv" event preemption job,cause_job,t_s,work_lost_s |
  awk -F, '{ printf "%s<%s@%s %s;", $1, $2, $3, $4 }'; }
# column NAME of the row whose first field after scenario and seed is KEY in a CSV file
cell() { csv_get "$1" "$(head -1 "$1" | cut -d, -f3)" "$2" "$3"; }

# lowest priority first: a (low) goes, not b (mid) though b started later; p waits the
# 10 s grace period; a loses its 20 s since the checkpoint at 40 s
run run "$P/two-gpus.yaml" "$P/order.csv" -o order -q
expect_rc 0
expect_eq "$(preemptions order)" "a<p@60 20;" "the lowest-priority job is the victim"
expect_eq "$(cell order/jobs.csv p start_s)" 60 "the preemptor starts after the grace period"
expect_eq "$(cell order/jobs.csv a outcome)" completed "the victim is re-queued and completes"
expect_eq "$(cell order/jobs.csv a end_s)" 1120 "the victim resumes from its checkpoint"
expect_eq "$(cell order/tenants.csv research preemptions_suffered)" 1 "suffered"
expect_eq "$(cell order/tenants.csv prod preemptions_caused)" 1 "caused"
expect_eq "$(cell order/tenants.csv batch preemptions_suffered)" 0 "the mid job is spared"
# wait by priority: p waits the grace period (10 s), b none, a from its preemption at 60 s
# to p's end at 160 s; highest first, in the summary and summary.json
expect_eq "$(grep '^wait by priority' order/summary.txt)" "wait by priority  1000: 1 job, mean 10 s p95 10 s; 500: 1 job, mean 0 s p95 0 s; 0: 1 job, mean 1.67 m p95 1.67 m" "wait by priority"
expect_eq "$(grep -A5 '"wait_by_priority"' order/summary.json | tr -d ' \n')" '"wait_by_priority":[{"name":"priority1000","jobs":1,"started":1,"wait_mean_s":10,' "summary.json's wait_by_priority"
expect_eq "$(grep -c '"name" : "priority 0"' order/summary.json)" 1 "the lowest priority listed once"

# equal priorities: the most recently started goes; 40 s since its checkpoint at 220 s lost
run run "$P/two-gpus.yaml" "$P/recent.csv" -o recent
expect_rc 0
expect_eq "$(preemptions recent)" "y<p@260 40;" "the most recently started is the victim"
expect_eq "$(cell recent/tenants.csv research preemption_lost_gpu_h)" 0.0111111 "GPU-hours lost"
expect_out_contains "preemption        1 preemption; work lost 0.0 GPU-h; prod suffered 0, caused 1; research suffered 1, caused 0"
expect_eq "$(grep -c '"preemptions_caused" : 1' recent/summary.json)" 1 "summary.json counts"

# the same on two nodes of one GPU: the node whose victim started last (kube-scheduler's
# last tie-break between nodes)
run run "$P/two-nodes.yaml" "$P/recent.csv" -o nodes -q
expect_rc 0
expect_eq "$(preemptions nodes)" "y<p@260 40;" "the node of the most recently started victim"

# the preemptor starts on a GPU freed meanwhile and ends (its row, the trace's first, is
# out) before its victim's grace period does: the victim still goes, naming it
run run "$P/two-gpus.yaml" "$P/gone.csv" -o gone -q
expect_rc 0
expect_eq "$(preemptions gone)" "y<@60 50;" "a victim whose preemptor is gone"
expect_eq "$(grep -c 'preempted by p' gone/events.csv)" 1 "the detail names the preemptor"
expect_eq "$(cell gone/jobs.csv p end_s)" 57 "the preemptor ran on the freed GPU"

# checkpoint_on_termination: the victim saves its work in the grace period
run run "$P/ckpt.yaml" "$P/recent.csv" -o ckpt -q
expect_rc 0
expect_eq "$(preemptions ckpt)" "y<p@260 0;" "no work lost with checkpoint_on_termination"
expect_eq "$(cell ckpt/jobs.csv y end_s)" 1120 "the victim resumes where it stopped"

# preemption_policy Never: the highest priority waits without evicting anyone
run run "$P/two-gpus.yaml" "$P/never.csv" -o never -q
expect_rc 0
expect_eq "$(preemptions never)" "" "Never preempts nobody"
expect_eq "$(cell never/jobs.csv g start_s)" 1000 "the Never job waits for a free GPU"

# without priority classes nothing preempts and tenants.csv keeps its columns
printf 'name: plain\npools:\n  - {name: p, gpu: A100-80GB, nodes: 1, gpus_per_node: 2}\n' > plain.yaml
run run plain.yaml "$P/order.csv" -o plain -q
expect_rc 0
expect_eq "$(head -1 plain/tenants.csv)" "scenario,seed,tenant,jobs,allocated_gpu_h,busy_gpu_h,cost,cost_share,sm_active_gpu_h,blast_caused,blast_suffered" "no preemption columns"
expect_eq "$(preemptions plain)" "" "no preemption without classes"

# bad input: file:line:column, exit 2, nothing written
run run "$P/bad.yaml" "$P/order.csv" -o bad
expect_rc 2
expect_err_contains "bad.yaml:8:50: priority_classes[1].preemption_policy: expected one of PreemptLowerPriority | Never, found 'Sometimes'"
expect_err_contains "bad.yaml:11:36: priority_rules[1].priority_class: expected the name of a priority class (one of: low), found 'urgent'"
expect_no_path bad
run check "$P/two-gpus.yaml"
expect_rc 0
expect_out_contains "priority class polite: value 2000, Never"
