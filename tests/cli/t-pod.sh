# t-pod.sh: pools that take their GPU requests from a Pod file (docs/scenario-format.md "Pod
# files"): the example pods of HAMi's and KAI's own documentation, kept unchanged in
# tests/data/pod/hami and tests/data/pod/kai (checksums below), mapped to the hami and kai
# strategies as `check` describes them and run (HAMi's 30 % cores put three containers on
# a card, its 3000 MiB limit refuses a 4 GB job; KAI's 0.5 fraction puts two pods on a card;
# the pool's own keys win); each pod sharesim cannot map refused at file:line:column with
# exit 2 and nothing written.
P="$DATA/pod"
expect_eq "$(cd "$P" && sha256sum hami/default_use.yaml hami/use_memory_fraction.yaml hami/specify_scheduling_policy.yaml kai/gpu-sharing.yaml kai/gpu-memory.yaml kai/gpu-sharing-non-default-container.yaml | awk '{ printf "%s ", substr($1, 1, 16) }')" \
  "e1eaa66334dc64ec 56a6ebdb518d6fdf fff9803059b9de5c 6f2d597ab206e7ac d77c32fc1ddeeb70 9130c8caff7b4d39 " "the example pods as HAMi and KAI publish them"

run check "$P/s-pod.yaml"
expect_rc 0
expect_out_contains "pool hami-mem: 1 node x 1 A100-80GB, hami, split 10, cores default 30%, gpumem 3000 MiB, \$3.43/GPU-h; from HAMi Pod default/gpu-pod in $P/hami/default_use.yaml: nvidia.com/gpu 2 (jobs keep their trace's GPU count), nvidia.com/gpumem 3000 MiB, nvidia.com/gpucores 30"
expect_out_contains "pool hami-pct: 1 node x 1 A100-80GB, hami, split 10, cores default 30%, gpumem 50% of the card,"
expect_out_contains "pool hami-policy: 1 node x 1 A100-80GB, hami, split 10, cores default, \$3.43/GPU-h; from HAMi Pod default/gpu-pod in $P/hami/specify_scheduling_policy.yaml: nvidia.com/gpu 1"
expect_out_contains "pool kai-frac: 1 node x 1 A100-80GB, kai, enforcement none, 20 pods per GPU, fraction 0.5, oom all, \$3.43/GPU-h; from KAI Pod default/gpu-sharing in $P/kai/gpu-sharing.yaml: gpu-fraction 0.5"
expect_out_contains "pool kai-mem: 1 node x 1 A100-80GB, kai, enforcement none, 20 pods per GPU, fraction 0.0244141,"
expect_out_contains "pool kai-container: 1 node x 1 A100-80GB, kai, enforcement none, 20 pods per GPU, fraction 0.5,"

cat > t.csv <<'CSV'
id,submit_s,kind,gpus,mem_gb,duration_s,sm
t1,0,training,1,2,100,1
t2,0,training,1,2,100,1
t3,0,training,1,2,100,1
t4,0,training,1,2,100,1
b1,0,batch,1,2,100,1
b2,0,batch,1,2,100,1
b3,0,batch,1,2,100,1
CSV
starts() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "id") a = i; if ($i == "start_s") s = i }; next } { printf "%s:%s ", $a, $s }' "$1/jobs.csv"; }
run run "$P/s-pod.yaml" t.csv -o ok -q
expect_rc 0
expect_eq "$(starts ok)" "t1:0 t2:0 t3:0 t4:307.508 b1:0 b2:0 b3:203.769 " "three HAMi containers of 30 % a card, two KAI pods of 0.5"
run run "$P/s-pod.yaml" t.csv -o own -q --set pools.hami-mem.gpucores=50 --set pools.kai-frac.gpu_fraction=0.25
expect_rc 0
expect_eq "$(starts own)" "t1:0 t2:0 t3:205.005 t4:205.005 b1:0 b2:0 b3:0 " "the pool's own keys win over the pod's"
sed 's/^t4,0,training,1,2/t4,0,training,1,4/' t.csv > t4.csv
run run "$P/s-pod.yaml" t4.csv -o big -q
expect_err_contains "job 't4' can never run in pool 'hami-mem': needs 4.00 GB per worker; a container of pool 'hami-mem' may hold 3.15 GB (nvidia.com/gpumem)"

# bad input: the pod of bad.yaml named NAME in place of pool hami-policy's
bad() {
  run run "$P/s-pod.yaml" t.csv -o "bad-$1" --set "pools.hami-policy.pod_spec=$2"
  expect_rc 2; expect_err_contains "$3"; expect_no_path "bad-$1"
}
bad both "bad.yaml#both" "bad.yaml:10:7: HAMi's resources (nvidia.com/gpu ...) beside KAI's gpu-fraction annotation: one pod is placed by one of them"
bad zero "bad.yaml#zero-cores" "bad.yaml:27:32: nvidia.com/gpucores: expected a core percentage greater than 0 and at most 100, found '0'"
bad none "bad.yaml#no-gpu" "bad.yaml:32:9: Pod default/no-gpu asks for no shared GPU"
bad two "bad.yaml#two-gpu-containers" "bad.yaml:51:11: a second container asking for GPUs"
bad frac "bad.yaml#big-fraction" "bad.yaml:62:19: gpu-fraction: expected a fraction of one GPU greater than 0 and at most 1, found '1.5'"
bad unnamed "bad.yaml" "bad.yaml:1:1: 5 Pods or workloads in the file: name the one to use as FILE#NAME"
run run "$P/s-pod.yaml" t.csv -o bad-contra --set pools.kai-frac.strategy=hami
expect_rc 2
expect_err_contains "'hami' contradicts $P/kai/gpu-sharing.yaml, whose Pod default/gpu-sharing asks for KAI's sharing (strategy kai)"
expect_no_path bad-contra
