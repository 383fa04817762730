# t-import.sh: `sharesim import` and `run --dcgm` on the real binary: the format table,
# bad rows (file:line, exit 2, nothing written) and --skip-bad, the openb pod list replayed
# under fractional and exclusive sharing, and the DCGM round trip (run -> dcgm.csv ->
# import -> run) within the tolerances of docs/traces.md.

# ---- the command and its table ----
run import; expect_rc 2; expect_err_contains "Usage: sharesim import FORMAT FILE..."
run import list; expect_rc 0; expect_out_contains "alibaba-openb"
run import --help; expect_rc 0; expect_out_contains "--kind-rule"
run import nope x.csv; expect_rc 2
expect_err_contains "unknown format 'nope'; valid formats: dcgm, alibaba-openb, alibaba-pai"
run import dcgm; expect_rc 2; expect_err_contains "expected at least one input file"
run import dcgm --no-such-option x.csv; expect_rc 2
run import dcgm "$DATA/import/dcgm-bad.csv" --window 0s; expect_rc 2
expect_err_contains "--window: expected a duration from 1s to 1d"

# ---- every importer of the table with test data of its own, tests/data/import/NAME/ (which
# seed-corpus.sh also routes to its fuzz target): its other files, given in name order,
# import into a trace that `check` reads; each bad-* fails at its file:line ----
for f in $("$SHARESIM" import list | sed -n 's/^  \([a-z0-9-]*\) .*/\1/p'); do
  [ -d "$DATA/import/$f" ] || continue
  run import "$f" $(ls "$DATA/import/$f"/* | grep -v '/bad-[^/]*$') -o "own-$f.csv"; expect_rc 0
  run check "$SCEN/baseline-exclusive.yaml" "own-$f.csv"; expect_rc 0
  for b in "$DATA/import/$f"/bad-*; do
    [ -f "$b" ] || continue
    run import "$f" "$b" -o "own-bad.csv"; expect_rc 2; expect_err_contains "$b:"
    expect_eq "$([ -e own-bad.csv ] && echo written)" "" "nothing written for $b"
  done
done

# ---- bad rows: every problem with file:line:col, exit 2, nothing written ----
run import alibaba-openb "$DATA/import/openb-bad.csv"; expect_rc 2
expect_err_contains "openb-bad.csv:3:4: num_gpu: expected a whole number of GPUs"
expect_err_contains "openb-bad.csv:8: expected 11 fields as in the header, found 10"
expect_err_contains "sharesim import: 6 problems found"
expect_eq "$(wc -c < out.txt | tr -d ' ')" 0 "nothing on stdout after bad rows"
run import alibaba-openb "$DATA/import/openb-bad.csv" -o bad.csv; expect_rc 2
expect_no_path bad.csv
expect_eq "$(ls -A | grep -c tmp)" 0 "no temporary file left behind"

# ---- --skip-bad: counted on stderr, the good rows written ----
run import alibaba-openb "$DATA/import/openb-bad.csv" --skip-bad; expect_rc 0
expect_err_contains "skipped 6 bad rows (--skip-bad)"
expect_err_contains "openb-bad.csv:6:7: qos: expected a qos class with a kind"
expect_eq "$(wc -l < out.txt | tr -d ' ')" 3 "header and two pods"
cp out.txt good.csv
run check "$SCEN/baseline-exclusive.yaml" good.csv; expect_rc 0

# ---- outputs: -o and a second output are written whole, never over an input ----
run import dcgm "$DATA/import/dcgm-range.json" -o d.csv --phases-out d.csv; expect_rc 2
expect_err_contains "name the same file"
run import dcgm "$DATA/import/dcgm-range.json" -o d.csv --phases-out dp.csv; expect_rc 0
expect_file d.csv; expect_file dp.csv
expect_err_contains "2 jobs written, 2 phase rows"
expect_eq "$(head -1 dp.csv)" "job_id,after_s,mem_gb,busy,sm,rate_rps" "phases header"

# ---- no float noise in what the importers compute (issue 11): shares from percentages,
# means, products of options and token counts are written at the value's resolution ----
N="$DATA/import/noise"
noise() { grep -cE '[0-9]\.[0-9]*(0000000|9999999)[0-9]' "$@" | awk -F: '{s += $NF} END {print s + 0}'; }
run import alibaba-pai "$N/pai_task_table.csv" "$N/pai_sensor_table.csv" "$N/job_9_norm.csv" \
  --iteration-s 0.1 --gpu-mem-gb 24.7 -o pai.csv; expect_rc 0
expect_eq "$(noise pai.csv)" 0 "no float noise in alibaba-pai"
# plan_gpu 0.7 and 33.3 %: 0.007 and 0.333 of a GPU (were 0.006999999999999999 and
# 0.33299999999999996); mean gpu_wrk_util 33.4 % on a 12.5 % share: sm 0.334 (was
# 0.33399999999999996) all the time; 15.15 % on a third: the third 0.454955 of the time
expect_eq "$(grep '^j1/worker,' pai.csv | cut -d, -f5,6,10)" "0.173,600.5,0.007" "PAI share of 0.7 %"
expect_eq "$(grep '^j2/worker,' pai.csv | cut -d, -f10,11,23)" "0.333,0.333,0.454955" "PAI share and mean util"
expect_eq "$(grep '^j3/worker,' pai.csv | cut -d, -f10,11,23)" "0.125,0.334," "PAI mean util of three"
expect_eq "$(grep '^job_9_norm,' pai.csv | cut -d, -f5,6,10)" "8.645,1,0.35" "PAI mini-batch gang"
run import azure-llm "$N/AzureLLMInferenceTrace_code.csv" --prefill-ms-per-token 0.03 \
  -o az.csv --requests-out azr.csv; expect_rc 0
expect_eq "$(noise az.csv azr.csv)" 0 "no float noise in azure-llm"
# 3180 x 0.03 + 8 x 15 ms = 215.4 ms (was 215.39999999999998); the mean to the nanosecond
expect_eq "$(sed -n 3p azr.csv)" "azure-code,0.052,215.4" "a request's service_ms"
expect_eq "$(sed -n 2p az.csv | cut -d, -f15)" "238.86" "the service's mean service_ms"
run import alibaba-openb "$N/openb_pod_list_noise.csv" --ls-busy 0.07 --service-ms 100 \
  --gpu-mem-gb 24.7 -o ob.csv; expect_rc 0
expect_eq "$(noise ob.csv)" 0 "no float noise in alibaba-openb"
expect_eq "$(grep '^pod-ls,' ob.csv | cut -d, -f5,10,14)" "7.41,0.3,0.7" "openb share, memory, rate"
expect_eq "$(grep '^pod-be,' ob.csv | cut -d, -f5,10)" "1.729,0.07" "openb 70 milli-GPU"

# ---- import dcgm --scenario-out (issue 30 item 2): a kube-prometheus export in the
# exporter's documented labelling (exported_pod; an idle GPU's series carry only the
# exporter's pod, one idle GPU only in GPU_TEMP) becomes a trace of the 3 workloads and a
# scenario of every GPU seen, modelName mapped to the catalogue, the pools by GPU model
# and GPUs per node; README's "From your cluster" import line runs on it ----
K="$DATA/import/dcgm-nodes.json"
cmdline=$(sed -n '/^## From your cluster/,/^## /p' "$TOP_SRCDIR/README.md" | grep '^sharesim import dcgm ' | head -1)
expect_eq "$(printf '%s' "$cmdline" | cut -c1-35)" "sharesim import dcgm dcgm-*.json -o" "README's From your cluster: the import line"
# shellcheck disable=SC2086
run import dcgm "$K" ${cmdline#sharesim import dcgm dcgm-\*.json }; expect_rc 0
expect_file trace.csv; expect_file phases.csv; expect_file cluster.yaml
expect_eq "$(tail -n +2 trace.csv | cut -d, -f1 | tr '\n' ' ')" "jupyter/jupyter-alice ml/train-llm-0 serving/vllm-chat-0 " "the workloads are the jobs, the exporter none"
expect_err_contains "scenario: 2 pools of 5 GPUs on 3 nodes, idle GPUs included"
expect_eq "$(grep -E '^  - name|^    (gpu|nodes|gpus_per_node):' cluster.yaml | tr -s ' \n' ' ')" \
  " - name: a100-80gb gpu: A100-80GB nodes: 2 gpus_per_node: 2 - name: h100-80gb gpu: H100-80GB nodes: 1 gpus_per_node: 1 " \
  "pools: the A100 nodes (idle GPUs counted) and the H100 node"
run run cluster.yaml trace.csv --phases phases.csv -o fromcluster -q; expect_rc 0
# modelName the catalogue cannot map: refused with the nearest models, nothing written
sed 's/NVIDIA H100 80GB HBM3/NVIDIA A100/' "$K" > k-amb.json
run import dcgm k-amb.json -o ka.csv --scenario-out ka.yaml; expect_rc 2
expect_err_contains "k-amb.json:8: --scenario-out: node node-c: modelName 'NVIDIA A100' is not a catalogue GPU model (did you mean A100-40GB, A100-80GB? all: T4,"
expect_err_contains "give --gpu-model MODEL"
expect_no_path ka.csv; expect_no_path ka.yaml
# a driver name the catalogue does not list but that can only be one model is that model;
# --gpu-model sets every node's; the pool options need --scenario-out
sed 's/NVIDIA H100 80GB HBM3/NVIDIA A100 80GB PCIe/' "$K" > k-pcie.json
run import dcgm k-pcie.json -o kp.csv --scenario-out kp.yaml; expect_rc 0
expect_eq "$(grep -c "A100-80GB x 1: 1 node (node-c), modelName 'NVIDIA A100 80GB PCIe'" kp.yaml)" "1" "an A100 80GB PCIe node is an A100-80GB"
run import dcgm "$K" -o kg.csv --scenario-out kg.yaml --gpu-model H100-80GB --strategy time-slicing; expect_rc 0
expect_eq "$(grep -E '^    (gpu|strategy):' kg.yaml | sort | uniq -c | tr -s ' \n' ' ')" " 2 gpu: H100-80GB 2 strategy: time-slicing " "--gpu-model and --strategy on every pool"
run import dcgm "$K" -o kx.csv --gpu-model H100-80GB; expect_rc 2
expect_err_contains "--gpu-model and --strategy describe the pools of --scenario-out: give it too"

# ---- openb pod lists with fewer columns, as FGD's repository ships them ----
O="$DATA/import/alibaba-openb"
# the minimal form (name, cpu_milli, memory_mib, num_gpu, gpu_milli): list order, one pod a
# second, never leaving within a year, batch jobs of tenant openb; CPU-only pods with --pods all
run import alibaba-openb "$O/minimal.csv" --pods all -o min.csv; expect_rc 0
expect_err_contains "no qos column: every pod is a batch job of tenant openb"
expect_err_contains "no creation_time column: pods arrive in list order, one a second from 0 s"
expect_err_contains "no deletion_time column: pods hold their GPUs for a year"
expect_eq "$(tail -n +2 min.csv | cut -d, -f1-4,6,7 | tr '\n' ' ')" \
  "pod-a,0,batch,1,31536000,openb pod-b,1,batch,1,31536000,openb pod-c,2,batch,0,31536000,openb pod-d,3,batch,8,31536000,openb " \
  "minimal openb list: ids, arrivals, kinds, GPUs, durations, tenants"
expect_eq "$(grep '^pod-b,' min.csv | cut -d, -f10)" "0.25" "minimal openb list: a quarter GPU"
# without memory_mib (FGD's "nomem" lists), with the node list: host memory 0, noted
run import alibaba-openb "$O/nomem.csv" --nodes "$DATA/import/openb-nodes.csv" --pods all --scenario-out nomem.yaml -o nomem.csv
expect_rc 0; expect_err_contains "no memory_mib column: pods ask for no host memory"
expect_eq "$(head -1 nomem.csv | tr ',' '\n' | grep -c '^memory_mib$')" 1 "host columns kept"
expect_eq "$(grep '^pod-f,' nomem.csv | cut -d, -f2,6)" "5,895" "a pending pod lives from creation to deletion"
run check nomem.yaml nomem.csv; expect_rc 0
# name, num_gpu and gpu_milli stay required
run import alibaba-openb "$O/bad-no-num-gpu.csv" -o nonum.csv; expect_rc 2
expect_err_contains "bad-no-num-gpu.csv:1: header: missing column 'num_gpu' (an openb pod list has at least name, num_gpu and gpu_milli"
expect_no_path nonum.csv

# ---- the bundled example export imports (both forms) ----
if [ -f "$TRACES/dcgm-example.csv" ]; then
  run import dcgm "$TRACES/dcgm-example.csv" -o ex.csv --phases-out exp.csv; expect_rc 0
  expect_err_contains "notebook"
  # a batch pod's mean GPU_UTIL over its life is its gpu_util (docs/traces.md, dcgm)
  gcol=$(head -1 ex.csv | tr ',' '\n' | grep -n '^gpu_util$' | cut -d: -f1)
  n=$(awk -F, -v c="$gcol" 'NR > 1 && $3 == "batch" && $c != "" && $c > 0 && $c < 1' ex.csv | wc -l)
  if [ "$n" -ge 1 ]; then pass; else fail "no batch pod of the example got a gpu_util below 1"; fi
  run import dcgm "$TRACES/dcgm-example.json" -o exj.csv; expect_rc 0
else
  skip_test "traces/dcgm-example.csv absent"
fi

# ---- run --dcgm needs a folder ----
sharesim_gen() { "$SHARESIM" gen "$@" 2>/dev/null; }
sharesim_gen --profile mixed --gpus 16 --days 1 --seed 4 > gen.csv
cat > rt.yaml <<'EOF'
name: roundtrip
pools:
  - name: p
    gpu: A100-80GB
    nodes: 4
    gpus_per_node: 8
    strategy: exclusive
EOF
run run rt.yaml gen.csv --dcgm; expect_rc 2; expect_err_contains "--dcgm writes dcgm.csv and dcgm.prom into the result folder"

# ---- the DCGM round trip: run -> dcgm.csv -> import -> run; headline figures agree ----
run run rt.yaml gen.csv --dcgm -o r1 -q; expect_rc 0
expect_file r1/dcgm.csv; expect_file r1/dcgm.prom
expect_eq "$(tail -1 r1/dcgm.prom)" "# EOF" "OpenMetrics ends with # EOF"
expect_eq "$(head -1 r1/dcgm.csv)" "scenario,seed,timestamp,metric,value,Hostname,gpu,UUID,pod,namespace,pool" "dcgm.csv header"
run import dcgm r1/dcgm.csv --kind-rule 'notebook=pod:nb-*' --kind-rule 'inference=pod:inf-*' \
  --kind-rule 'training=pod:tr-*' --kind-rule 'batch=pod:bt-*' --window 1m \
  -o rt.csv --phases-out rt-phases.csv
expect_rc 0
run run rt.yaml rt.csv --phases rt-phases.csv -o r2 -q; expect_rc 0
pool1() { csv_get "$1/pools.csv" "" "" "$2" | head -1; } # pool1 DIR COLUMN: the first pool's
within() { # within NAME COLUMN TOL: relative difference of pools.csv's COLUMN between r1 and r2
  a=$(pool1 r1 "$2"); b=$(pool1 r2 "$2")
  if awk -v a="$a" -v b="$b" -v t="$3" 'BEGIN { d = (b - a) / a; if (d < 0) d = -d; exit !(d <= t) }'; then
    pass; else fail "round trip $1: $a -> $b, more than $3 apart"; fi
}
within allocated allocated_gpu_h 0.03
within busy busy_gpu_h 0.05
within sm-active sm_active_gpu_h 0.05
within memory mem_gb_h 0.05
expect_eq "$(pool1 r2 jobs)" "$(pool1 r1 jobs)" "jobs after the round trip"

# ---- the openb pod list replayed under fractional and exclusive sharing ----
OB="$SHARED_TRACES/alibaba-gpu-v2023-openb"
if [ -f "$OB/openb_pod_list_default.csv" ]; then
  run import alibaba-openb "$OB/openb_pod_list_default.csv" --nodes "$OB/openb_node_list_gpu_node.csv" \
    --scenario-out openb.yaml -o openb.csv
  expect_rc 0
  expect_err_contains "8152 rows read, 6203 jobs written"
  expect_err_contains "7064 GPU pods, 3078 of them asking for part of one GPU"
  expect_err_contains "nodes: 1213 listed, 1213 with GPUs, 6212 GPUs"
  expect_eq "$(wc -l < openb.csv | tr -d ' ')" 6204 "header and 6,203 jobs"
  run check openb.yaml openb.csv; expect_rc 0
  sed 's/strategy: fractional/strategy: exclusive/' openb.yaml > openb-exclusive.yaml
  run run openb.yaml openb.csv -o ofrac -q; expect_rc 0
  run run openb-exclusive.yaml openb.csv -o oexcl -q; expect_rc 0
  expect_eq "$(pool1 ofrac completed)" 6203 "all pods complete under fractional"
  expect_eq "$(pool1 oexcl completed)" 6203 "all pods complete under exclusive"
  fa=$(pool1 ofrac allocated_gpu_h); ea=$(pool1 oexcl allocated_gpu_h)
  if awk -v f="$fa" -v e="$ea" 'BEGIN { exit !(f < e) }'; then pass; else
    fail "fractional should hold fewer GPU-hours than exclusive: $fa vs $ea"; fi
else
  skip_test "shared traces absent"
fi

# ---- issue 29, S3-01: the pods' windows are bounded in total, not only per pod ----
# 8 pods, each with two samples 1.2e9 s apart (4e6 windows of 300 s: within the per-pod
# cap), asked for 8 x 4e6 windows, 1.5 GB: now the second pod's far sample is a bad row
python3 - pods8.json <<'PY'
import json, sys
res = []
for i in range(8):
    for m, v in (("DCGM_FI_DEV_GPU_UTIL", "40"), ("DCGM_FI_DEV_FB_USED", "9632")):
        res.append({"metric": {"__name__": m, "Hostname": "n1", "gpu": str(i), "UUID": "GPU-%d" % i,
                               "pod": "p%d" % i, "namespace": "ns"},
                    "values": [[0, v], [1200000000, v]]})
json.dump({"status": "success", "data": {"resultType": "matrix", "result": res}}, open(sys.argv[1], "w"))
PY
if grep -q __asan_init "$SHARESIM" 2>/dev/null; then lim=""; else lim="ulimit -v 1000000;"; fi
sh -c "$lim exec \"\$0\" import dcgm pods8.json -o p8.csv" "$SHARESIM" >out.txt 2>err.txt; RC=$?
LAST="$lim import dcgm pods8.json"
expect_rc 2
expect_err_contains "pods8.json:3: timestamp 1200000000.000 puts the pods over 5000000 windows of 300 s in all (2 pods so far)"
expect_no_path p8.csv
sh -c "$lim exec \"\$0\" import dcgm pods8.json --skip-bad -o p8.csv" "$SHARESIM" >out.txt 2>err.txt; RC=$?
LAST="$lim import dcgm pods8.json --skip-bad"
expect_rc 0
expect_eq "$(grep -c '^ns/p' p8.csv)" 8 "every pod, its far samples skipped"
