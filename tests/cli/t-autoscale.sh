# t-autoscale.sh: autoscaled and spot pools (issue 31 item 6, docs/models.md "Autoscaling
# and spot capacity"): the provisioning delay sets a waiting job's wait exactly, an empty
# node goes after the unneeded time (and not before scale_down_delay_after_add), min_nodes
# keeps nodes, the cost counts node-seconds provisioned; a spot interruption evicts after
# its notice with the work back to the last checkpoint, counted per tenant, its node
# replaced; its stream moves no other; bad sections refused at file:line:column.
pool='name: as\npools:\n  - name: a\n    gpu: A100-80GB\n    nodes: 3\n    gpus_per_node: 1\n'
printf "$pool"'    autoscale: {min_nodes: 0, provision_delay: 100s, scale_down_unneeded_time: 300s, scale_down_delay_after_add: 0s, scan_interval: 10s}\n' > a.yaml
printf 'id,submit_s,kind,gpus,mem_gb,duration_s\nj1,0,batch,1,10,1000\nj2,5,batch,1,10,200\n' > a.csv
run run a.yaml a.csv -o a -q; expect_rc 0
# cell FILE KEY COLUMNS: the row whose first column after scenario and seed is KEY
cell() { csv_get "$1" "$(head -1 "$1" | cut -d, -f3)" "$2" "$3"; }
# j1 arrives at 0 with no node: the scan at 0 asks for one, ready 100 s later; j2 at 5 is
# seen at the scan at 10 (node 0 holds j1): a second node, ready at 110
expect_eq "$(cell a/jobs.csv j1 start_s,wait_s)/$(cell a/jobs.csv j2 start_s,wait_s)" "100,100/110,105" \
  "waits set by the provisioning delay and the scan interval"
expect_eq "$(csv_get a/events.csv pool a t_s,event,node | tr '\n' ' ')" \
  "0,node_provision,0 10,node_provision,1 100,node_ready,0 110,node_ready,1 610,node_remove,1 " \
  "node 1 empty at 310 (j2's end), removed 300 s later; node 0 busy to the end (1100)"
# provisioned: node 0 from 0 to 1100, node 1 from 10 to 610: 1700 node-seconds of one GPU
expect_eq "$(cell a/pools.csv a provisioned_gpu_h,node_h,cost,nodes_min,nodes_max,nodes_peak,scale_ups,scale_downs)" \
  "0.472222,0.472222,1.61972,0,3,2,2,1" "cost = 1700 GPU-s x \$3.43/GPU-h; 2 asked, 1 removed"
grep -q '^autoscaling       0.5 node-h provisioned; 2 nodes asked for, 1 removed$' a/summary.txt && pass || fail "summary.txt: $(grep autoscal a/summary.txt)"
grep -q '"node_h_provisioned" : 0.47222' a/summary.json && pass || fail "summary.json: no node_h_provisioned"
# the scan at 10 would see j1 on the node booting: exactly one more node, not two
expect_eq "$(grep -c ',node_provision,.*"scale-up: 2 queued jobs, 1 node asked for"' a/events.csv)" "1" "the booting node counts for j1"
# a scale-up holds removals back for scale_down_delay_after_add: 10 + 900 = 910
sed 's/scale_down_delay_after_add: 0s/scale_down_delay_after_add: 900s/' a.yaml > d.yaml
run run d.yaml a.csv -o d -q; expect_rc 0
expect_eq "$(csv_get d/events.csv event node_remove t_s,node)" "910,1" "removal after the delay after add"
# min_nodes keeps what it holds: two nodes ready from the start, none removed, none asked
sed 's/min_nodes: 0,/min_nodes: 2, initial_nodes: 2,/' a.yaml > m.yaml
run run m.yaml a.csv -o m -q; expect_rc 0
expect_eq "$(cell m/jobs.csv j1 wait_s)/$(cell m/jobs.csv j2 wait_s)/$(csv_get m/events.csv pool a event | wc -l)" "0/0/0" "min_nodes 2: no wait, no scaling"
expect_eq "$(cell m/pools.csv a provisioned_gpu_h,node_h)" "0.555556,0.555556" "2 nodes x 1000 s (both jobs start at once)"
# a run without the sections keeps its columns and lines
printf "$pool" > f.yaml
run run f.yaml a.csv -o f -q; expect_rc 0
case "$(head -1 f/pools.csv)" in *node_h*) fail "pools.csv of a fixed pool has node_h" ;; *) pass ;; esac
expect_eq "$(grep -c -e autoscal -e node_h f/summary.txt f/summary.json | grep -c ':0')" "2" "no autoscaling figures"

# spot: one node (min 1), replaced at once when interrupted; a 20,000 s job checkpointing
# every 600 s from its start
printf "$pool" | sed 's/nodes: 3/nodes: 2/' > s.yaml
printf '    autoscale: {min_nodes: 1, initial_nodes: 1, provision_delay: 100s, scan_interval: 0s}\n    spot: {interruption_rate_per_hour: 0.5, notice: 30s}\n' >> s.yaml
printf 'id,submit_s,kind,gpus,mem_gb,duration_s,checkpoint_s,tenant\nj1,100,training,1,10,20000,600,t1\n' > s.csv
run run s.yaml s.csv -o s -q; expect_rc 0
n=$(csv_get s/events.csv event spot_notice t_s | wc -l)
if [ "$n" -ge 1 ]; then pass; else fail "no interruption in 20,000 s at 0.5 an hour"; fi
tn=$(csv_get s/events.csv event spot_notice t_s | head -1)
ev=$(csv_get s/events.csv event eviction t_s,job,work_lost_s | head -1)
# evicted 30 s after the notice, losing the work since its last checkpoint (100 + k x 600)
want=$(awk -v t="$tn" 'BEGIN { e = t + 30; printf "%.1f,j1,%.1f", e, (e - 100) - 600 * int((e - 100) / 600) }')
expect_eq "$(echo "$ev" | awk -F, '{ printf "%.1f,%s,%.1f", $1, $2, $3 }')" "$want" "the first eviction: 30 s after the notice, back to the checkpoint"
# each interruption: the node goes, its replacement is asked for at once and is ready 100 s later
expect_eq "$(csv_get s/events.csv event node_provision t_s | head -1)" "$(csv_get s/events.csv event eviction t_s | head -1)" "replaced at once (min_nodes 1)"
lost=$(csv_get s/events.csv event eviction work_lost_s | awk '{ s += $1 } END { printf "%.4f", s / 3600 }')
expect_eq "$(cell s/tenants.csv t1 spot_evictions)/$(cell s/tenants.csv t1 spot_lost_gpu_h | awk '{ printf "%.4f", $1 }')" "$n/$lost" "tenants.csv: evictions and GPU-hours lost"
# the job ends after its work, what it lost again and a provisioning delay per interruption
end=$(csv_get s/events.csv event eviction work_lost_s | awk -v n="$n" '{ s += $1 } END { printf "%.1f", 100 + 20000 + s + 100 * n }')
expect_eq "$(cell s/jobs.csv j1 end_s | awk '{ printf "%.1f", $1 }')/$(cell s/jobs.csv j1 wait_s)" "$end/$((100 * n))" "end = submit + work + lost + 100 s a node"
expect_eq "$(cell s/pools.csv a price_per_gpu_hour,spot_interruptions)" "1.372,$n" "the spot price (x 0.4) and the count"
run run s.yaml s.csv -o s2 -q; expect_rc 0
expect_same_files s/events.csv s2/events.csv
expect_same_files s/pools.csv s2/pools.csv
# the interruptions' stream is their own: a crashing job of a fixed pool beside them runs
# the same with and without spot
printf 'name: two\npools:\n  - {name: f, gpu: A100-80GB, nodes: 1, gpus_per_node: 1}\n  - name: a\n    gpu: A100-80GB\n    nodes: 2\n    gpus_per_node: 1\n    autoscale: {min_nodes: 1, initial_nodes: 1, provision_delay: 100s}\n' > two.yaml
printf 'crash_rates: {training: 0.5}\nrouting:\n  - {tenant: t1, pool: a}\n  - {pool: f}\n' >> two.yaml
cp two.yaml twos.yaml
sed -i 's/    autoscale: {min_nodes: 1, initial_nodes: 1, provision_delay: 100s}/&\n    spot: {interruption_rate_per_hour: 0.5, notice: 30s}/' twos.yaml
printf 'id,submit_s,kind,gpus,mem_gb,duration_s,checkpoint_s,tenant\nj1,100,training,1,10,20000,600,t1\nk1,0,training,1,10,20000,600,t2\n' > two.csv
run run two.yaml two.csv -o two -q; expect_rc 0
run run twos.yaml two.csv -o twos -q; expect_rc 0
expect_eq "$(grep ',k1,' twos/jobs.csv)" "$(grep ',k1,' two/jobs.csv)" "the fixed pool's job is the same with spot beside it"

# bad input: file:line:column, exit 2, nothing written
bad() { # bad NAME SECTION-LINE MESSAGE
  printf "$pool"'    %s\n' "$2" > "$1.yaml"
  run run "$1.yaml" a.csv -o "$1" -q; expect_rc 2; expect_err_contains "$3"; expect_no_path "$1"
}
bad b1 'autoscale: {min_nodes: 5}' "b1.yaml:7:28: pools[1].autoscale.min_nodes: 5 is more than the pool's nodes, 3"
bad b2 'autoscale: {provision_delay: -5m}' "b2.yaml:7:34: pools[1].autoscale.provision_delay: expected a duration"
bad b3 'autoscale: {min_nodes: 2, initial_nodes: 1}' "b3.yaml:7:46: pools[1].autoscale.initial_nodes: 1 is fewer than min_nodes, 2"
bad b4 'spot: {notice: 30s}' "b4.yaml:7:11: pools[1].spot: a spot pool needs an autoscale section"
bad b5 'autoscale: {maximum: 4}' "b5.yaml:7:17: pools[1].autoscale: unknown key 'maximum'"
bad b6 'autoscale: 4' "b6.yaml:7:16: pools[1].autoscale: expected a mapping"
printf 'name: x\npools:\n  - name: a\n    gpu: A100-80GB\n    node_groups: [{nodes: 2, gpus_per_node: 4}]\n    autoscale: {min_nodes: 1}\n' > b7.yaml
run check b7.yaml; expect_rc 2; expect_err_contains "b7.yaml:6:16: pools[1].autoscale: a pool of node_groups (a fixed list of nodes) cannot autoscale"
# check describes the pool's autoscaling
run check a.yaml; expect_rc 0
expect_out_contains "autoscaled 0..3 nodes from 0 (ready 100 s after the ask, removed when empty 300 s)"
