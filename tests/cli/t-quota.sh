# t-quota.sh: quotas as Kueue models them (docs/models.md "Quotas"; docs/scenario-format.md
# "Quotas: kueue"): golden runs re-expressing Kueue's documented admission and borrowing
# (two teams in a cohort, borrowingLimit, lendingLimit, StrictFIFO against BestEffortFIFO,
# a hierarchical cohort, reclaiming lent quota by preemption, fair sharing by weight and
# its preemption), the
# quota columns of tenants.csv and the summary, and bad input at file:line:column with exit
# 2 and nothing written.
K="$DATA/kueue"

# "start_s end_s" of job KEY in a result folder's jobs.csv
span() { csv_get "$1/jobs.csv" id "$2" start_s,end_s | tr ',' ' '; }
# column NAME of the row whose first field after scenario and seed is KEY in a CSV file
cell() { csv_get "$1" "$(head -1 "$1" | cut -d, -f3)" "$2" "$3"; }

# two teams of 4 GPUs each in one cohort: team-a, alone, borrows team-b's idle quota up to
# the cohort's 8 (six jobs start at once); team-b's 4-GPU job at 1800 s finds 2 free in the
# cohort and waits for team-a's jobs to end (no reclaim by preemption)
run run "$K/borrow.yaml" "$K/borrow.csv" -o borrow
expect_rc 0
expect_eq "$(span borrow a6)" "0 3600" "team-a borrows team-b's idle quota"
expect_eq "$(span borrow b1)" "3600 7200" "team-b waits for its lent quota back"
expect_eq "$(head -1 borrow/tenants.csv)" "scenario,seed,tenant,jobs,allocated_gpu_h,busy_gpu_h,cost,cost_share,sm_active_gpu_h,blast_caused,blast_suffered,quota_gpu_h,borrowed_gpu_h" "quota columns"
expect_eq "$(cell borrow/tenants.csv team-a quota_gpu_h)" 6 "GPU-hours under the quota"
expect_eq "$(cell borrow/tenants.csv team-a borrowed_gpu_h)" 2 "GPU-hours borrowed"
expect_eq "$(cell borrow/tenants.csv team-b borrowed_gpu_h)" 0 "team-b borrowed nothing"
expect_out_contains "quotas            10.0 GPU-h under Kueue quotas, 2.0 borrowed; team-a borrowed 2.0"
expect_eq "$(grep -c '"borrowed_gpu_h" : 2' borrow/summary.json)" 2 "summary.json: team-a's and the total"
expect_eq "$(grep -A2 '"quotas" : {' borrow/summary.json | tr -d ' \n')" '"quotas":{"quota_gpu_h":10,"borrowed_gpu_h":2' "summary.json's quotas totals"

# borrowingLimit 1 (a kind: List, v1beta2's cohortName): team-a holds at most 5
run run "$K/s-limit.yaml" "$K/borrow.csv" -o limit -q
expect_rc 0
expect_eq "$(span limit a5) $(span limit a6)" "0 3600 3600 7200" "borrowingLimit caps team-a at 5"
expect_eq "$(cell limit/tenants.csv team-a borrowed_gpu_h)" 1 "one GPU borrowed"
# lendingLimit 1 on team-b: it lends one GPU, keeps three; team-a again at most 5
run run "$K/s-lend.yaml" "$K/borrow.csv" -o lend -q
expect_rc 0
expect_eq "$(span lend a5) $(span lend a6)" "0 3600 3600 7200" "lendingLimit caps what team-b lends"

# StrictFIFO: x2 (2 GPUs) does not fit the 4-GPU quota beside x1 (3); x3 (1 GPU) behind it
# waits too; BestEffortFIFO lets x3 past. Tenant `other` has no LocalQueue: never held.
run run "$K/s-strict.yaml" "$K/fifo.csv" -o strict -q
expect_rc 0
expect_eq "$(span strict x2) $(span strict x3)" "3600 7200 3600 4200" "StrictFIFO blocks behind its head"
expect_eq "$(span strict o1)" "30 630" "a tenant without a LocalQueue is not held"
run run "$K/s-besteffort.yaml" "$K/fifo.csv" -o besteffort -q
expect_rc 0
expect_eq "$(span besteffort x2) $(span besteffort x3)" "3600 7200 20 620" "BestEffortFIFO admits what fits"

# a hierarchical cohort: team-ab under org (2 GPUs of its own), team-b lends 3 of its 4
run check "$K/s-tree.yaml"
expect_rc 0
expect_out_contains "ClusterQueue team-a-cq in cohort team-ab, BestEffortFIFO; a100 (pool a100): nominal 4, at most 9"
expect_out_contains "ClusterQueue team-b-cq in cohort team-ab, BestEffortFIFO; a100 (pool a100): nominal 4, lending limit 3, at most 10"
expect_out_contains "Cohort team-ab in cohort org"

# reclaiming lent quota (Kueue's "Reclaim within cohort"): the same teams, team-b-cq with
# reclaimWithinCohort: Any. At 1800 s b1 (4 GPUs, within team-b's nominal) finds 2 free:
# team-a borrows 2, so the two most recently admitted of team-a's (a tie at 0 s: the first
# rows) are evicted; after their 30 s grace b1 starts and they queue again, losing 1830 s
# each, and run when team-a's others end
run run "$K/s-reclaim.yaml" "$K/borrow.csv" -o reclaim -q
expect_rc 0
expect_eq "$(span reclaim b1)" "1830 5430" "team-b reclaims its lent quota by preemption"
expect_eq "$(span reclaim a1) $(span reclaim a3)" "0 7200 0 3600" "the victims run again after"
expect_eq "$(cell reclaim/tenants.csv team-a reclaims_suffered) $(cell reclaim/tenants.csv team-b reclaims_caused)" "2 2" "reclaims counted"
expect_eq "$(cell reclaim/tenants.csv team-a preemptions_suffered)" 2 "and among the preemptions"
expect_eq "$(grep -c 'preempted by b1 (Kueue: reclamation within the cohort)' reclaim/events.csv)" 2 "events"
expect_eq "$(grep -c '"reclaims_caused" : 2' reclaim/summary.json)" 1 "summary.json"
run check "$K/s-reclaim.yaml"
expect_rc 0
expect_out_contains "ClusterQueue team-b-cq in cohort team-ab, BestEffortFIFO, reclaimWithinCohort Any; a100"

# fair sharing by weight (fairSharing.enable): team-a (weight 1) and team-b (weight 2) each
# borrow from team-l's idle 6; the borrowing admissions go to the lower weighted dominant
# resource share: b, a, b, b, a, b (ties in queue order): team-b runs 5, team-a 3. Without
# fair sharing queue order gives team-a all the borrowed quota.
started() { awk -F, -v t="$2" 'NR > 1 && $5 == t && $9 == 100' "$1/jobs.csv" | wc -l | tr -d ' '; }
run run "$K/s-fair.yaml" "$K/fair.csv" -o fair -q
expect_rc 0
expect_eq "$(started fair team-a) $(started fair team-b)" "3 5" "fair sharing: weight 2 borrows twice weight 1"
run run "$K/s-nofair.yaml" "$K/fair.csv" -o nofair -q
expect_rc 0
expect_eq "$(started nofair team-a) $(started nofair team-b)" "8 0" "without it, queue order"

# fair sharing's preemption: team-a (weight 1) borrows all 7 idle GPUs; team-b's jobs (100 s)
# preempt while team-b's share with the job is at most team-a's without the victim: 4
# each, the victims' grace periods one after another (130 s to 220 s). The classic
# preemption gives team-b back its nominal GPU only.
early() { awk -F, -v t="$2" 'NR > 1 && $5 == t && $9 < 3600' "$1/jobs.csv" | wc -l | tr -d ' '; }
run run "$K/s-fairpre.yaml" "$K/fairpre.csv" -o fairpre -q
expect_rc 0
expect_eq "$(early fairpre team-b) $(cell fairpre/tenants.csv team-a reclaims_suffered)" "4 4" "fair sharing's preemption: 4 GPUs each"
expect_eq "$(span fairpre b4)" "220 3820" "one grace period after another"
run run "$K/s-classicpre.yaml" "$K/fairpre.csv" -o classicpre -q
expect_rc 0
expect_eq "$(early classicpre team-b) $(cell classicpre/tenants.csv team-a reclaims_suffered)" "1 1" "classic: the nominal GPU only"

# bad input: file:line:column, exit 2, nothing written
bad() { run run "$K/s-bad-$1.yaml" "$K/borrow.csv" -o "bad-$1"; expect_rc 2; expect_err_contains "$2"; expect_no_path "bad-$1"; }
bad cycle "bad-cycle.yaml:25:11: Cohort x: cohort cycle x -> y -> x"
bad flavour "bad-flavour.yaml:14:7: ClusterQueue team-a-cq: unknown flavour 'h100': no ResourceFlavor of that name (defined: a100)"
bad local "bad-local.yaml:25:17: LocalQueue of namespace 'team-a': ClusterQueue 'team-z-cq' does not exist"
bad never "bad-never.yaml:9:9: ClusterQueue team-a-cq can never admit a workload"
bad key "bad-key.yaml:11:3: ClusterQueue team-a-cq.spec: unknown key 'queueingStratgy' (did you mean 'queueingStrategy'?)"
bad map "s-bad-map.yaml:4:38: kueue.flavors: unknown flavour 'h100'"
bad policy "bad-policy.yaml:11:37: spec.preemption.reclaimWithinCohort: expected Never, LowerPriority or Any, found 'LowerOrNewerEqualPriority'"
bad weight "bad-weight.yaml:11:25: spec.fairSharing.weight: expected a non-negative number"
bad fair "s-bad-fair.yaml:5:23: fairSharing.enable: expected one of false | true, found 'maybe'"
# a job larger than its ClusterQueue may ever hold: at the quota's line, run refuses
run run "$K/borrow.yaml" "$K/big.csv" -o big
expect_rc 2
expect_err_contains "queues.yaml:18:7: ClusterQueue team-a-cq, flavour a100: at most 8 GPUs at once (nominal, cohort, borrowing limit), but job 'a9' (tenant team-a,"
expect_no_path big
run check "$K/borrow.yaml" "$K/big.csv"
expect_rc 2
# ... and so do the studies, before any run, with the same message and nothing written
never="ClusterQueue team-a-cq, flavour a100: at most 8 GPUs at once (nominal, cohort, borrowing limit), but job 'a9' (tenant team-a,"
study() { run "$@"; expect_rc 2; expect_err_contains "$never"; expect_no_path st; }
study compare "$K/borrow.yaml" "$K/s-strict.yaml" "$K/big.csv" -o st
study compare "$K/borrow.yaml" "$K/big.csv" --size-to-constraints --max-oom 0 -o st
study sweep "$K/borrow.yaml" "$K/big.csv" --set pools.a100.nodes=2,3 -o st
study size "$K/borrow.yaml" "$K/big.csv" --pool a100 --max-oom 0 --max 3 -o st
study plan "$K/borrow.yaml" "$K/big.csv" -o st
