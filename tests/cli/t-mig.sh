# t-mig.sh: MIG and vGPU through the real binary: the SPEC's three-pool scenario and the
# MIG / vGPU examples run on the sample trace, an on-demand reconfiguration with its exact
# timings in the result files, `reconfigure: never` reported by `check`, a pool taken from
# a mig-parted config, invalid layouts refused with the conflicting profiles named.

run check "$SCEN/three-pools.yaml" "$TRACES/mixed-small.csv"
expect_rc 0
expect_out_contains "scenario 'three-pools', 3 pools, 40 GPUs"
run run "$SCEN/three-pools.yaml" "$TRACES/mixed-small.csv" -o tp -q
expect_rc 0
expect_eq "$(csv_get tp/pools.csv pool inference-mig gpu,strategy,gpus)" "A100-80GB,mig,16" "the MIG pool"
expect_eq "$(head -1 tp/pools.csv | tr ',' '\n' | tail -3 | tr '\n' ' ')" "drain_gpu_h down_gpu_h vgpu_h " "pools.csv ends with the MIG and vGPU columns"

for f in mig-inference vgpu nvidia/from-nvidia-configs; do
  run run "$SCEN/$f.yaml" "$TRACES/mixed-small.csv" -o "res-$(basename "$f")" -q
  expect_rc 0
done
expect_eq "$(grep -c ',vgpu,' res-vgpu/pools.csv)" "2" "two vGPU pools"
lic=$(csv_get res-vgpu/pools.csv pool serving licence_cost)
case "$lic" in 0|'') fail "vGPU licences are not costed: '$lic'";; *) pass;; esac
expect_eq "$(grep -c '"drain_gpu_h"' res-mig-inference/summary.json)" "3" "summary.json pools carry drain_gpu_h"

# a 40 GB model arrives at an A100-80GB laid out 1g.10gb x7: drained until 900 s, down 120 s
cat > re.yaml <<'YAML'
name: reconfigure
pools:
  - name: p
    gpu: A100-80GB
    nodes: 1
    gpus_per_node: 1
    strategy: mig
    layout: 1g.10gb x7
    layouts: ["3g.40gb x2", "7g.80gb"]
    reconfigure: on-demand
    drain: wait
    reconfigure_time: 2m
YAML
cat > re.csv <<'CSV'
id,submit_s,kind,gpus,mem_gb,duration_s,sm
s1,0,batch,1,5,300,0.1
s2,0,batch,1,5,600,0.1
s3,0,batch,1,5,900,0.1
big,100,batch,1,40,1000,0.3
CSV
run run re.yaml re.csv -o re -q
expect_rc 0
expect_eq "$(csv_get re/jobs.csv id big start_s,end_s,wait_s)" "1020,2020,920" "big: start, end, wait"
expect_eq "$(grep ',reconfigure,' re/events.csv)" \
  "reconfigure,1,900,reconfigure,,big,p,0,0,0,0,layout 1g.10gb x7 -> 3g.40gb x2; drained 800.000 s (drain: wait); down 120.000 s" \
  "the reconfiguration row"
expect_eq "$(csv_get re/pools.csv "" "" reconfigurations,drain_gpu_h,down_gpu_h | tail -1)" "1,0.222222,0.0333333" "reconfigurations, drain and down GPU-hours"

# drain: evict kills and requeues the three residents at once
sed 's/drain: wait/drain: evict/' re.yaml > ev.yaml
run run ev.yaml re.csv -o ev -q
expect_rc 0
expect_eq "$(grep -c ',eviction,' ev/events.csv)" "3" "three evictions"
expect_eq "$(csv_get ev/jobs.csv id big start_s)" "220" "big starts after 120 s down"

# reconfigure: never -> the model can never run, and `check` says why
sed -e 's/reconfigure: on-demand/reconfigure: never/' re.yaml > never.yaml
run check never.yaml re.csv
expect_rc 2
expect_err_contains "re.csv:5: job 'big' can never run in pool 'p': needs 40.00 GB per worker; the largest MIG instance of pool 'p' (layout 1g.10gb x7; reconfigure: never) holds 10.20 GB"

# invalid layouts name the conflicting profiles and a valid alternative
sed -e 's/layout: 1g.10gb x7/layout: 3g.40gb x2 + 2g.20gb/' re.yaml > bad.yaml
run check bad.yaml
expect_rc 2
expect_err_contains "bad.yaml:8:13: pools[1].layout: layout '3g.40gb x2 + 2g.20gb' is not valid on A100-80GB: no placement; 3g.40gb x2 uses memory slices 0-7, leaving none for 2g.20gb"

# the catalogue shows every valid layout with the largest model it holds
run catalog A100-80GB
expect_rc 0
expect_out_contains "largest_GiB: memory of the largest instance"
expect_out_contains "1g.10gb x7                                  9.50   98"
