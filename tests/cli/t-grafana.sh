# t-grafana.sh: NVIDIA's Grafana dashboard on `run --dcgm` output (issue 30). Two runs of one
# cluster under two scenario names go into one Prometheus TSDB (`promtool tsdb
# create-blocks-from openmetrics`); a Prometheus server on that TSDB then answers the
# dashboard's variable queries and panel queries as Grafana sends them, and every one must
# return series of both scenarios, and idle GPUs keep their series. Also: dcgm.prom is clean under `promtool check metrics`
# but for the snake_case lint of dcgm-exporter's own `modelName` label (docs/traces.md).
# The queries are those of dcgm-exporter's grafana/dcgm-exporter-dashboard.json (grafana.com
# 12239): its Hostname and gpu variables on DCGM_FI_DEV_FB_FREE, and the older revision's
# instance and gpu variables on DCGM_FI_DEV_GPU_TEMP. NVIDIA_DASHBOARD=path/to/that JSON
# evaluates the panel queries read from the file itself (with jq) as well; the bundled
# dashboards/sharesim.json's queries are always read from its JSON.
# Skips without promtool and prometheus (Debian's prometheus package has both).

if ! command -v promtool >/dev/null 2>&1 || ! command -v prometheus >/dev/null 2>&1; then
  skip_test "promtool or prometheus not installed (Debian: prometheus)"
  return 0
fi

printf 'id,submit_s,kind,gpus,mem_gb,duration_s\nml/a,0,batch,1,10,3600\nb,600,training,2,20,1800\nnb,900,notebook,1,8,1200\n' > g.csv
for s in alpha beta; do
  printf 'name: %s\nstart: 2026-11-01T00:00:00Z\ninterval: 10m\npools:\n  - {name: p, gpu: A100-80GB, nodes: 2, gpus_per_node: 2}\n' "$s" > "$s.yaml"
  run run "$s.yaml" g.csv -o "$s" --dcgm -q; expect_rc 0
done
# the same cluster carved into MIG instances: a job's series carries its instance's labels
printf 'name: gamma\nstart: 2026-11-01T00:00:00Z\ninterval: 10m\npools:\n  - {name: p, gpu: A100-80GB, nodes: 2, gpus_per_node: 2, strategy: mig, layout: "3g.40gb x2"}\n' > gamma.yaml
run run gamma.yaml g.csv -o gamma --dcgm -q; expect_rc 0

# ---- labels as dcgm-exporter writes them, the scenario on every series ----
line=$(grep -m1 '^DCGM_FI_DEV_GPU_TEMP{gpu="0"' alpha/dcgm.prom)
case $line in
  *'UUID="GPU-'????????-????-????-????-????????????'",pci_bus_id="00000000:'??':00.0",device="nvidia0",modelName="NVIDIA A100-SXM4-80GB",Hostname="p-node'?'",DCGM_FI_DRIVER_VERSION="simulated",container="main",namespace="ml",pod="a",'*'scenario="alpha"}'*) pass ;;
  *) fail "GPU_TEMP labels not dcgm-exporter's: $line" ;;
esac
expect_eq "$(grep -v '^#' alpha/dcgm.prom | grep -vc 'scenario="alpha"')" "0" "every series has the scenario label"
expect_eq "$(grep -c 'container="pytorch"' alpha/dcgm.prom | sed 's/^0$/none/')" \
          "$(grep -c 'pod="b"' alpha/dcgm.prom)" "a training pod's container is pytorch"

# a MIG device's series as dcgm-exporter writes it: GPU_I_PROFILE and GPU_I_ID after
# modelName, gpu and UUID the card's; an idle card's series has neither
line=$(grep -m1 '^DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu="0".*pod="a"' gamma/dcgm.prom)
case $line in
  *'device="nvidia0",modelName="NVIDIA A100-SXM4-80GB",GPU_I_PROFILE="3g.40gb",GPU_I_ID="'[01]'",Hostname="p-node'?'",DCGM_FI_DRIVER_VERSION="simulated",container="main",namespace="ml",pod="a",'*) pass ;;
  *) fail "MIG labels not dcgm-exporter's: $line" ;;
esac
expect_eq "$(grep 'pod=""' gamma/dcgm.prom | grep -c GPU_I_)" "0" "an idle card's series has no MIG labels"
expect_eq "$(grep -v '^#' alpha/dcgm.prom | grep -c GPU_I_)" "0" "no MIG labels off MIG"

# ---- promtool check metrics: clean but for the camelCase lint of modelName ----
# (gamma's jobs end within a second, stamped rounded up to a whole one)
for s in alpha gamma; do
  promtool check metrics < $s/dcgm.prom > lint.txt 2>&1
  expect_eq "$(grep -v "label names should be written in 'snake_case' not 'camelCase'" lint.txt | head -3)" "" "promtool finds only the camelCase lint ($s)"
done
sed 's/modelName=/model_name=/' alpha/dcgm.prom | promtool check metrics > lint2.txt 2>&1
expect_eq "$?:$(head -3 lint2.txt)" "0:" "promtool check metrics clean with modelName renamed"

# ---- both runs in one TSDB, served by Prometheus ----
promtool tsdb create-blocks-from openmetrics alpha/dcgm.prom tsdb > blocks.txt 2>&1 &&
  promtool tsdb create-blocks-from openmetrics beta/dcgm.prom tsdb >> blocks.txt 2>&1 &&
  promtool tsdb create-blocks-from openmetrics gamma/dcgm.prom tsdb >> blocks.txt 2>&1
expect_eq "$?" "0" "promtool loads the three dcgm.prom ($(tail -1 blocks.txt))"
printf 'global:\n  scrape_interval: 1m\n' > prom.yml
url=""
for try in 1 2 3; do
  port=$((20000 + ($$ * 7 + try * 1009) % 40000))
  prometheus --config.file=prom.yml --storage.tsdb.path=tsdb --storage.tsdb.retention.time=100y \
    --web.listen-address="127.0.0.1:$port" > prom.log 2>&1 &
  pid=$!
  i=0
  while [ $i -lt 100 ] && kill -0 "$pid" 2>/dev/null; do
    if promtool query instant "http://127.0.0.1:$port" 'vector(1)' >/dev/null 2>&1; then
      url="http://127.0.0.1:$port"; break
    fi
    sleep 0.1; i=$((i + 1))
  done
  [ -n "$url" ] && break
  kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
done
if [ -z "$url" ]; then
  fail "Prometheus did not start on the TSDB: $(tail -3 prom.log)"
  return 0
fi

T=2026-11-01T00:40:00Z
# label_values(METRIC, LABEL) as Grafana asks it: the label's values over the series
label_values() {
  promtool query series --match="$1" --start=2026-11-01T00:00:00Z --end=2026-11-02T00:00:00Z "$url" 2>/dev/null |
    tr ',' '\n' | sed -n "s/^ *{*$2=\"\([^\"]*\)\".*/\1/p" | sort -u | tr '\n' ' ' | sed 's/ $//'
}
expect_eq "$(label_values DCGM_FI_DEV_FB_FREE Hostname)" "p-node0 p-node1" "label_values(DCGM_FI_DEV_FB_FREE, Hostname)"
expect_eq "$(label_values 'DCGM_FI_DEV_FB_FREE{Hostname=~"p-node0|p-node1"}' gpu)" "0 1" "label_values(DCGM_FI_DEV_FB_FREE{Hostname=~\$Hostname}, gpu)"
expect_eq "$(label_values DCGM_FI_DEV_GPU_TEMP instance)" "p-node0:9400 p-node1:9400" "label_values(DCGM_FI_DEV_GPU_TEMP, instance)"
expect_eq "$(label_values DCGM_FI_DEV_GPU_TEMP gpu)" "0 1" "label_values(DCGM_FI_DEV_GPU_TEMP, gpu)"
expect_eq "$(label_values sharesim_pool_gpus_busy scenario)" "alpha beta gamma" "three runs kept apart by scenario"

# the panel queries, verbatim, with the variables set to All as Grafana expands them (a regex
# of the values): each must return series
H='Hostname=~"(p-node0|p-node1)", gpu=~"(0|1)"'
I='instance=~"(p-node0:9400|p-node1:9400)", gpu=~"(0|1)"'
queries="max(DCGM_FI_DEV_GPU_TEMP{$H}) by (Hostname, gpu, uuid)
avg(DCGM_FI_DEV_GPU_TEMP{$H})
max(DCGM_FI_DEV_POWER_USAGE{$H}) by (Hostname, gpu, uuid)
sum(max(DCGM_FI_DEV_POWER_USAGE{$H}) by (gpu))
max(DCGM_FI_DEV_SM_CLOCK{$H} * 1000000) by (Hostname, UUID, gpu)
max(DCGM_FI_PROF_GR_ENGINE_ACTIVE{$H}) by (Hostname, gpu, GPU_I_ID, GPU_I_PROFILE)
max(DCGM_FI_PROF_PIPE_TENSOR_ACTIVE{$H}) by (Hostname, gpu, GPU_I_ID, GPU_I_PROFILE)
max(DCGM_FI_DEV_FB_USED{$H}) by (Hostname, gpu, GPU_I_ID, GPU_I_PROFILE)
DCGM_FI_DEV_GPU_TEMP{$I}
avg(DCGM_FI_DEV_GPU_TEMP{$I})
DCGM_FI_DEV_POWER_USAGE{$I}
sum(DCGM_FI_DEV_POWER_USAGE{$I})
DCGM_FI_DEV_SM_CLOCK{$I} * 1000000
DCGM_FI_DEV_MEM_CLOCK{$I} * 1000000
DCGM_FI_DEV_GPU_UTIL{$I}
DCGM_FI_DEV_FB_USED{$I}
DCGM_FI_PROF_PIPE_TENSOR_ACTIVE{$I}"
# the bundled dashboard's own panel queries, read from its JSON (at most one "expr" a line),
# all runs and pools selected
queries="$queries
$(sed -n 's/.*"expr": "\(\([^"\\]\|\\.\)*\)".*/\1/p' "$TOP_SRCDIR/dashboards/sharesim.json" |
    sed -e 's/\\"/"/g' -e 's/\$scenario/(alpha|beta)/g' -e 's/\$pool/(p)/g')"
expect_eq "$(grep -c '"expr"' "$TOP_SRCDIR/dashboards/sharesim.json")" \
  "$(echo "$queries" | grep -c 'scenario=~"(alpha|beta)"')" "every query of dashboards/sharesim.json read"
if [ -n "${NVIDIA_DASHBOARD:-}" ] && command -v jq >/dev/null 2>&1; then
  queries="$queries
$(jq -r '.. | .expr? // empty' "$NVIDIA_DASHBOARD" | sed -e 's/\$Hostname/(p-node0|p-node1)/g' \
    -e 's/\${\{0,1\}instance}\{0,1\}/(p-node0:9400|p-node1:9400)/g' -e 's/\${\{0,1\}gpu}\{0,1\}/(0|1)/g')"
fi
echo "$queries" | while IFS= read -r q; do
  promtool query instant --time="$T" "$url" "$q" > q.txt 2>&1
  if grep -q '=> [0-9.e+-]* @' q.txt; then echo pass; else echo "fail $q: $(head -2 q.txt)"; fi
done > queries.txt
while IFS= read -r r; do
  case $r in pass) pass ;; *) fail "dashboard query returned no series: ${r#fail }" ;; esac
done < queries.txt
# two runs in one Prometheus keep their own series: as many per scenario, none overwritten
promtool query instant --time="$T" "$url" 'count by (scenario) (DCGM_FI_DEV_GPU_TEMP)' > n.txt 2>&1
expect_eq "$(sed -n 's/.*scenario="\([a-z]*\)"} => \([0-9]*\) @.*/\1 \2/p' n.txt | sort | tr '\n' ' ')" \
  "alpha 4 beta 4 gamma 6 " "GPU_TEMP series per scenario at $T (gamma: its 4 pods on instances of 2 cards, 2 cards idle)"
# the dashboard's MIG grouping (by GPU_I_ID, GPU_I_PROFILE) tells gamma's instances apart:
# every pod's series on a 3g.40gb instance
promtool query instant --time="$T" "$url" \
  'max(DCGM_FI_PROF_GR_ENGINE_ACTIVE{scenario="gamma",pod!=""}) by (Hostname, gpu, GPU_I_ID, GPU_I_PROFILE, pod)' > mig.txt 2>&1
expect_eq "$(grep -c 'GPU_I_PROFILE="3g.40gb"' mig.txt)" "$(grep -c '=>' mig.txt | sed 's/^0$/none/')" "every gamma pod's series on a 3g.40gb instance"
# an idle GPU keeps its series, as dcgm-exporter exports every GPU (pod, namespace and
# container empty): in the interval ending 01:00 b and nb have gone and only a runs, on one
# of the four GPUs
promtool query instant --time=2026-11-01T01:00:00Z "$url" \
  'count(DCGM_FI_DEV_GPU_UTIL{scenario="alpha",pod="",container=""} == 0)' > idle.txt 2>&1
expect_eq "$(sed -n 's/.*=> \([0-9]*\) @.*/\1/p' idle.txt)" "3" "the three idle GPUs' series at 01:00"
# the modelled values: batch job a's GPU at full SM activity draws the card's TDP (400 W) and
# reads 70 C; the power total of scenario alpha adds its busy GPUs
promtool query instant --time="$T" "$url" 'DCGM_FI_DEV_POWER_USAGE{scenario="alpha",pod="a"}' > pw.txt 2>&1
expect_eq "$(sed -n 's/.*=> \([0-9.]*\) @.*/\1/p' pw.txt)" "400" "power at full SM activity is the TDP"
kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
