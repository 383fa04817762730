# t-blast.sh: the blast radius (docs/models.md "Blast radius") on two tenants: a's jobs
# grow past a time-sliced card (oom: all) and kill b's, once at a1's growth and once when
# b2's allocation fails beside a2, which had grown (the fault is a's, not b2's), and a's
# process fault on an MPS card kills its server's other clients, a's c2 and b's d1. The
# exact pair counts in summary.json, tenants.csv and summary.txt, and the conservation:
# the pairs' deaths are the innocent victims.
B="$DATA/blast"
run run "$B/two-tenants.yaml" "$B/two-tenants.csv" --phases "$B/phases.csv" -o res -q
expect_rc 0
blast=$(sed -n '/"blast_radius"/,/^  },/p' res/summary.json | tr -d ' \n')
expect_eq "$blast" '"blast_radius":{"oom_kill":[{"from":"a","to":"b","died":2,"stalled":0,"evicted":0}],"crash":[{"from":"a","to":"a","died":1,"stalled":0,"evicted":0},{"from":"a","to":"b","died":1,"stalled":0,"evicted":0}],"eviction":[]},' "summary.json blast_radius by kind and pair"
expect_eq "$(tr -d ' ' < res/summary.json | grep -c '"innocent_victims":4')" 1 "4 innocent victims: the pairs' 2 + 1 + 1"
expect_eq "$(csv_get res/tenants.csv tenant a blast_caused,blast_suffered)" "3,0" "a's faults hit 3 of b's jobs (its own c2 is not counted)"
expect_eq "$(csv_get res/tenants.csv tenant b blast_caused,blast_suffered)" "0,3" "b suffered 3"
expect_eq "$(grep '^blast radius' res/summary.txt)" \
  "blast radius      3 jobs of other tenants hit: a -> b (oom_kill) 2 died; a -> b (crash) 1 died" \
  "the summary's line"
# one tenant: no pair across tenants, no line; the columns stay (0)
sed 's/,b,never$/,a,never/' "$B/two-tenants.csv" > one.csv
run run "$B/two-tenants.yaml" one.csv --phases "$B/phases.csv" -o one -q
expect_rc 0
expect_eq "$(grep -c '^blast radius' one/summary.txt)" 0 "no line when no fault left its tenant"
expect_eq "$(csv_get one/tenants.csv tenant a blast_caused,blast_suffered)" "0,0" "a alone"
expect_eq "$(tr -d ' ' < one/summary.json | grep -c '"from":"a",')" 2 "the same-tenant pairs kept in summary.json (oom_kill, crash)"
