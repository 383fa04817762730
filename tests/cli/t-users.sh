# t-users.sh: the files users hold, read as they hold them: a GPU Operator ConfigMap from
# kubectl (FILE#KEY), Helm values, a DGX Station's mig-parted config with a display GPU,
# and a DCGM export behind kube-prometheus (exported_pod wins over the exporter's own pod).
NV=$DATA/scenario/nvidia
cp "$NV/cm-time-slicing.yaml" "$NV/helm-values.yaml" "$NV/dgx-station-80gb.yaml" .
pool() { printf 'name: t\npools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n%s\n' "$1" > s.yaml; }

pool "    sharing_config: cm-time-slicing.yaml#a100-80gb"
run check s.yaml; expect_rc 0
expect_out_contains "pool p: 1 node x 8 A100-80GB, time-slicing, replicas 8 (from cm-time-slicing.yaml#a100-80gb (ConfigMap time-slicing-config))"

pool "    sharing_config: cm-time-slicing.yaml"
run check s.yaml; expect_rc 2
expect_err_contains "cm-time-slicing.yaml:3:1: 2 data keys hold configs (a100-80gb, tesla-t4): name the one to use as FILE#KEY"

pool "    sharing_config: cm-time-slicing.yaml#tesla-t4"
run check s.yaml; expect_rc 2
expect_err_contains "cm-time-slicing.yaml:25:11: sharing.timeSlicing.resources[1]: unknown key 'colour'"

pool "    sharing_config: helm-values.yaml"
run check s.yaml; expect_rc 0
expect_out_contains "replicas 2 (from helm-values.yaml#time-sliced-2)"

pool "    mig_config: helm-values.yaml
    mig_config_name: all-3g.40gb"
run check s.yaml; expect_rc 0
expect_out_contains "mig, layout 3g.40gb x2 (from helm-values.yaml#config.yaml, config all-3g.40gb)"

pool "    mig_config: dgx-station-80gb.yaml
    mig_config_name: all-balanced"
run check s.yaml; expect_rc 0
expect_out_contains "layout 3g.40gb + 2g.20gb + 1g.10gb x2"
expect_out_contains "entries ignored for A100-80GB: line 26 (device-filter 0x1FB010DE (not a MIG GPU sharesim knows))"

# ---- issue 32: per-device mig-parted entries; the GPU Operator's custom-mig examples ----
cp "$NV/gpu-operator-custom-mig.yaml" "$NV/gpu-operator-chart-custom-mig.yaml" "$NV/mig-per-device.yaml" .
gpn() { printf 'name: t\npools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n    gpus_per_node: %s\n%s\n' "$1" "$2" > s.yaml; }
# the docs' Helm values unchanged (data as one block holding config.yaml): GPU 0 laid out
gpn 1 "    mig_config: gpu-operator-custom-mig.yaml
    mig_config_name: custom-mig"
run check s.yaml; expect_rc 0
expect_out_contains "mig, layout 2g.20gb x2 + 1g.10gb x2 (from gpu-operator-custom-mig.yaml#config.yaml, config custom-mig)"
expect_out_contains "per device: GPU 0: 2g.20gb x2 + 1g.10gb x2"
printf 'id,submit_s,kind,gpus,mem_gb,duration_s\na,0,batch,1,15,100\nb,0,batch,1,8,100\n' > two.csv
run run s.yaml two.csv -o cm -q; expect_rc 0
expect_eq "$(grep -c ',completed,' cm/jobs.csv)" "2" "both jobs ran on GPU 0's instances"
# an error inside the config inside the block: reported at its own line and column
sed 's/"1g.10gb": 2/"1g.10gb": 9/' gpu-operator-custom-mig.yaml > cm-bad.yaml
gpn 1 "    mig_config: cm-bad.yaml
    mig_config_name: custom-mig"
run check s.yaml; expect_rc 2
expect_err_contains "cm-bad.yaml:21:28: mig-configs.custom-mig[1].mig-devices.1g.10gb: expected"
# per-device entries alike: the pool takes the layout, check shows each GPU's
gpn 4 "    mig_config: mig-per-device.yaml
    mig_config_name: pairs-alike"
run check s.yaml; expect_rc 0
expect_out_contains "layout 3g.40gb x2 (from mig-per-device.yaml, config pairs-alike); per device: GPUs 0-3: 3g.40gb x2"
gpn 8 "    mig_config: mig-per-device.yaml
    mig_config_name: pairs-alike"
run check s.yaml; expect_rc 0
expect_out_contains "per device: GPUs 0-3: 3g.40gb x2; GPUs 4-7: 3g.40gb x2 (named by no entry)"
# set-ups that differ: each GPU starts with its own layout, check names each GPU's
gpn 4 "    mig_config: mig-per-device.yaml
    mig_config_name: pairs-differ"
run check s.yaml; expect_rc 0
expect_out_contains "mig, a layout per GPU (from mig-per-device.yaml, config pairs-differ); per device: GPUs 0-1: 3g.40gb x2; GPUs 2-3: 1g.10gb x7"
# the Helm chart's custom-mig unchanged: GPU 0 MIG off (the whole card), 1-3 their own layouts
gpn 4 "    mig_config: gpu-operator-chart-custom-mig.yaml
    mig_config_name: custom-mig"
run check s.yaml; expect_rc 0
expect_out_contains "per device: GPU 0: MIG disabled; GPU 1: 1g.10gb x7; GPU 2: 3g.40gb + 2g.20gb x2; GPU 3: 4g.40gb + 3g.40gb"
printf 'id,submit_s,kind,gpus,mem_gb,duration_s\nw,0,batch,1,70,100\ns,0,batch,1,8,100\nm,0,batch,1,15,100\nl,0,batch,1,35,100\nl2,0,batch,1,35,100\nl3,0,batch,1,35,100\n' > cm.csv
run run s.yaml cm.csv -o cmc -q; expect_rc 0
# 70 GB: only the whole card; 8 GB: GPU 1's 1g.10gb; 15 GB: GPU 2's 2g.20gb; the 35 GB
# jobs: GPU 2's 3g.40gb, then GPU 3's 3g.40gb (42 SMs) and 4g.40gb (56 SMs)
expect_eq "$(cut -d, -f3,10,25 cmc/jobs.csv | tail -n +2 | tr '\n' ' ')" \
  "w,100,p/n0/g0 s,771.429,p/n0/g1 m,385.714,p/n0/g2 l,257.143,p/n0/g2 l2,257.143,p/n0/g3 l3,192.857,p/n0/g3 " \
  "each job on the instance of its own card"
# a config that leaves MIG off on every GPU it names is refused at mig_config_name
printf 'version: v1\nmig-configs:\n  off:\n    - devices: [0, 1]\n      mig-enabled: false\n' > off.yaml
gpn 2 "    mig_config: off.yaml
    mig_config_name: off"
run check s.yaml; expect_rc 2
expect_err_contains "s.yaml:8:22: pools[1].mig_config_name: off.yaml: config 'off' leaves MIG off on every GPU of the node (GPUs 0-1: MIG disabled): strategy mig needs MIG instances"
# per-GPU sharing (a device-plugin resource's devices: a GPU list) is refused at its line:
# the released plugin resets it to all and shares every GPU alike (not built)
printf 'version: v1\nsharing:\n  timeSlicing:\n    resources:\n      - name: nvidia.com/gpu\n        replicas: 4\n        devices: [0, 1]\n' > ts-per-gpu.yaml
printf 'name: t\npools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n    sharing_config: ts-per-gpu.yaml\n' > s.yaml
run run s.yaml two.csv -o tsg -q; expect_rc 2
expect_err_contains "ts-per-gpu.yaml:7:18: sharing.timeSlicing.resources[1].devices: expected 'all' (the device plugin shares every GPU of a node alike"
if [ -e tsg ]; then fail "a refused run wrote tsg"; else pass; fi
# bad per-device entries: refused at the index in the mig-parted file, exit 2
gpn 4 "    mig_config: mig-per-device.yaml
    mig_config_name: beyond"
run check s.yaml; expect_rc 2
expect_err_contains "mig-per-device.yaml:24:29: mig-configs.beyond: device index 4 is beyond the node: the pool has 4 GPUs a node (indices 0-3)"
gpn 4 "    mig_config: mig-per-device.yaml
    mig_config_name: overlap"
run check s.yaml; expect_rc 2
expect_err_contains "mig-per-device.yaml:33:17: mig-configs.overlap: GPU 1 is named by two entries (line 29 and line 33): each GPU takes one entry"
expect_eq "$(grep -c 'GPU 2 is named\|GPU 3 is named' err.txt)" "0" "only GPU 1 is named twice"

# ---- DCGM behind kube-prometheus: pod is the exporter, exported_pod the workload ----
run import dcgm "$DATA/import/dcgm-kube-prometheus.csv" -o kp.csv; expect_rc 0
expect_eq "$(cut -d, -f1 kp.csv | tail -n +2 | tr '\n' ' ')" "dev/nb-alice ml/train-1 " "jobs named after exported_pod"
expect_eq "$(grep -c dcgm-exporter kp.csv)" "0" "no job named after the exporter"
# an idle GPU behind kube-prometheus: no exported_pod, its pod label the exporter's own;
# its samples are idle, not a job of the exporter (issue 30: the exporter was billed)
{ cat "$DATA/import/dcgm-kube-prometheus.csv"
  for t in 0 60 120; do
    for m in DCGM_FI_DEV_GPU_UTIL DCGM_FI_DEV_FB_USED; do
      echo "$t,$m,0,node-1,2,GPU-c,nvidia-dcgm-exporter-7xk2p,gpu-operator,,,nvidia-dcgm-exporter"
    done
  done; } > idle.csv
run import dcgm idle.csv -o idle-out.csv; expect_rc 0
expect_eq "$(cut -d, -f1 idle-out.csv | tail -n +2 | tr '\n' ' ')" "dev/nb-alice ml/train-1 " "the idle GPU's exporter pod is no job"
expect_err_contains "6 samples of idle GPUs left out: their series have no exported_pod, so their pod label ('nvidia-dcgm-exporter-7xk2p') is the exporter's own"
cut -d, -f1-8 "$DATA/import/dcgm-kube-prometheus.csv" > onlypod.csv
run import dcgm onlypod.csv -o op.csv; expect_rc 0
expect_err_contains "warning: every series names the DCGM exporter's own pod ('nvidia-dcgm-exporter-7xk2p')"

# ---- --help points only at what the project ships (no SPEC sections, no fact sheet) ----
run --help; expect_rc 0
cmds=$(sed -n '/^Commands:/,/^$/p' out.txt | awk 'NF && !/^Commands:/ {print $1}')
expect_eq "$([ -n "$cmds" ] && echo yes)" "yes" "sharesim --help lists commands"
for c in $cmds; do
  run "$c" --help
  if grep -qE 'SPEC [0-9]|gpu-facts|\.\./shared' out.txt err.txt; then
    fail "sharesim $c --help cites a file the project does not ship: $(grep -hE 'SPEC [0-9]|gpu-facts' out.txt err.txt | head -1)"
  else pass; fi
done

# ---- the manual page: generated from --help, one section per subcommand ----
if "$TOP_SRCDIR/scripts/make-man" "$SHARESIM" 2001-02-03 > sharesim.1 2>err.txt; then pass; else fail "scripts/make-man failed"; fi
expect_eq "$(head -1 sharesim.1 | cut -d' ' -f1-4)" '.TH SHARESIM 1 "2001-02-03"' "man page header"
for c in $cmds; do
  if grep -qx ".SS sharesim $c" sharesim.1; then pass; else fail "sharesim.1 has no section for $c"; fi
done
if grep -q '^\\fB\\-\\-phases=P.csv\\fR$' sharesim.1; then pass; else fail "run's --phases option missing from sharesim.1"; fi
if command -v man >/dev/null 2>&1; then
  MANWIDTH=80 man --warnings -l sharesim.1 >man.txt 2>manwarn.txt
  expect_eq "$(wc -c < manwarn.txt | tr -d ' ')" "0" "man renders sharesim.1 without warnings"
  if grep -q "Write the result files into" man.txt; then pass; else fail "rendered man page lacks run -o"; fi
else
  skip_test "man not installed"
fi
# every docs/*.md is installed (Makefile.am dist_docs_DATA)
for f in "$TOP_SRCDIR"/docs/*.md; do
  if grep -q "docs/$(basename "$f")" "$TOP_SRCDIR/Makefile.am"; then pass; else fail "docs/$(basename "$f") is not in Makefile.am's dist_docs_DATA"; fi
done

# ---- calendar time: start: puts the run at a date; dcgm.prom loads into Prometheus ----
printf 'name: cal\nstart: 2026-11-01T00:00:00Z\ninterval: 10m\npools:\n  - {name: p, gpu: A100-80GB, nodes: 1, gpus_per_node: 2}\n' > cal.yaml
printf 'id,submit_s,kind,gpus,mem_gb,duration_s\na,0,batch,1,10,3600\nb,600,training,2,20,1800\n' > cal.csv
run run cal.yaml cal.csv -o cal --dcgm -q; expect_rc 0
expect_eq "$(grep '"start"' cal/summary.json | tr -d ' ,')" '"start":"2026-11-01T00:00:00Z"' "summary.json start"
expect_eq "$(sed -n 2p cal/jobs.csv | awk -F, '{print $NF}')" "2026-11-01T01:00:00Z" "jobs.csv end_utc"
expect_eq "$(head -1 cal/events.csv | awk -F, '{print $NF}')" "time_utc" "events.csv carries UTC"
run run cal.yaml cal.csv -o cal2 --set start=2026-12-24T18:00:00+01:00 -q; expect_rc 0
expect_eq "$(grep '"start"' cal2/summary.json | tr -d ' ,')" '"start":"2026-12-24T17:00:00Z"' "--set start, any zone"
run run cal.yaml cal.csv --set start=tomorrow -q -o bad; expect_rc 2
expect_err_contains "--set start: expected an ISO 8601 time with a zone, e.g. 2026-11-01T00:00:00Z, found 'tomorrow'"
if command -v promtool >/dev/null 2>&1; then
  promtool tsdb create-blocks-from openmetrics cal/dcgm.prom tsdb >promtool.txt 2>&1
  expect_eq "$?" "0" "promtool reads dcgm.prom ($(tail -1 promtool.txt))"
  mkdir -p tsdb/wal
  promtool tsdb dump tsdb > dump.txt 2>/dev/null
  if grep -q '__name__="DCGM_FI_DEV_FB_FREE".*Hostname\|Hostname="p-node0".*__name__="DCGM_FI_DEV_FB_FREE"' dump.txt; then pass; else fail "FB_FREE with Hostname not in the TSDB"; fi
  if grep -q '__name__="sharesim_oom_kills_total"' dump.txt; then pass; else fail "sharesim series not in the TSDB"; fi
  # the first GPU sample is stamped at the end of the first interval: 2026-11-01T00:10:00Z
  expect_eq "$(grep '__name__="DCGM_FI_DEV_GPU_UTIL"' dump.txt | awk '{print $NF}' | sort -n | head -1)" "1793491800000" "absolute timestamps"
else
  skip_test "promtool not installed"
fi

# ---- summary.json records each pool's resolved settings and where they came from ----
pool "    sharing_config: cm-time-slicing.yaml#a100-80gb"
printf 'id,submit_s,kind,gpus,mem_gb,duration_s\na,0,batch,1,10,60\n' > one.csv
run run s.yaml one.csv -o settings -q; expect_rc 0
if grep -q '"settings" : "p: 1 node x 8 A100-80GB, time-slicing, replicas 8 (from cm-time-slicing.yaml#a100-80gb (ConfigMap time-slicing-config)), oom all, \$3.43/GPU-h"' settings/summary.json; then pass; else fail "summary.json lacks the pool's settings: $(grep settings settings/summary.json)"; fi

# ---- time-slicing inside MIG with per-profile replicas (the mixed MIG strategy) ----
cp "$NV/cm-mig-mixed.yaml" .
pool "    strategy: mig
    gpus_per_node: 1
    layout: 3g.40gb + 2g.20gb + 1g.10gb x2
    sharing_config: cm-mig-mixed.yaml#a100-80gb-mixed"
run check s.yaml; expect_rc 0
expect_out_contains "layout 3g.40gb + 2g.20gb + 1g.10gb x2, replicas per profile 3g.40gb: 2, 1g.10gb: 4 (others 1) (from cm-mig-mixed.yaml#a100-80gb-mixed (ConfigMap time-slicing-config-fine))"
# room for 2 x 4 + 1 + 2 = 11 workers of 2 GB: the twelfth waits for the first to end
{ echo 'id,submit_s,kind,gpus,mem_gb,duration_s,sm'
  for i in $(seq 1 12); do echo "j$i,0,batch,1,2,600,0.1"; done; } > twelve.csv
run run s.yaml twelve.csv -o mixed -q; expect_rc 0
expect_eq "$(csv_get mixed/jobs.csv start_s 0 id | wc -l | tr -d ' ')" "11" "11 start at once"
expect_eq "$(csv_get mixed/jobs.csv id j12 start_s)" "600" "j12 starts when the 2g.20gb frees"
if grep -q '"settings" : "p: 1 node x 1 A100-80GB, mig, layout 3g.40gb + 2g.20gb + 1g.10gb x2, replicas per profile 3g.40gb: 2, 1g.10gb: 4' mixed/summary.json; then pass; else fail "summary.json lacks the per-profile replicas: $(grep settings mixed/summary.json)"; fi
pool "    strategy: mig
    layout: 3g.40gb x2
    sharing_config: cm-mig-mixed.yaml#a100-40gb-mixed"
run check s.yaml; expect_rc 2
expect_err_contains "s.yaml:8:21: pools[1].sharing_config: cm-mig-mixed.yaml shares none of this pool's devices (it shares nvidia.com/mig-1g.5gb; this pool needs nvidia.com/mig-<profile> of its layouts)"
pool "    strategy: mig
    layout: 3g.40gb x2
    replicas: {3g.40gb: 2, 2g.10gb: 3}"
run check s.yaml; expect_rc 2
expect_err_contains "s.yaml:8:28: pools[1].replicas: expected a MIG profile of A100-80GB (one of: 7g.80gb, 4g.40gb, 3g.40gb, 2g.20gb, 1g.20gb, 1g.10gb, 1g.10gb+me), found '2g.10gb'"

# ---- imports keep the calendar: a DCGM export's Unix timestamps date the trace and the run ----
awk -F, -v OFS=, 'NR == 1 { print; next } { $1 = $1 + 1793491200; print }' \
  "$DATA/import/dcgm-kube-prometheus.csv" > dated.csv
run import dcgm dated.csv -o dated-trace.csv; expect_rc 0
expect_eq "$(head -1 dated-trace.csv | awk -F, '{ print $NF }')" "submit_utc" "the trace carries submit_utc"
expect_eq "$(awk -F, '$1 == "ml/train-1" { print $NF }' dated-trace.csv)" "2026-11-01T00:00:00Z" "submit_utc of the first pod"
pool "    gpus_per_node: 4"
run check s.yaml dated-trace.csv; expect_rc 0
expect_out_contains "dated-trace.csv: 2 jobs, second 0 at 2026-11-01T00:00:00Z"
run run s.yaml dated-trace.csv -o dated -q; expect_rc 0
if grep -q '"start" : "2026-11-01T00:00:00Z"' dated/summary.json; then pass; else fail "summary.json is not dated: $(grep -c start dated/summary.json)"; fi
expect_eq "$(head -1 dated/jobs.csv | awk -F, '{ print $(NF-2) }')" "submit_utc" "jobs.csv has calendar columns"
# the scenario's start: wins over the trace's
printf 'start: 2027-01-01T00:00:00Z\n' >> s.yaml
run check s.yaml dated-trace.csv; expect_rc 0
expect_out_contains "second 0 at 2026-11-01T00:00:00Z (the scenario's start: wins)"
# a simulated export (seconds from 0) stays undated
run import dcgm "$DATA/import/dcgm-kube-prometheus.csv" -o undated.csv; expect_rc 0
expect_eq "$(grep -c submit_utc undated.csv)" "0" "no calendar for seconds from 0"
# ---- a dated run's charts: UTC date axes and the trace and period in the titles ----
run plot dated -o dated-plots --format svg; expect_rc 0
expect_eq "$(grep -c '^time_dated = 1' dated-plots/utilisation.gp)" "1" "utilisation.gp is dated"
expect_eq "$(grep -c time_dated dated-plots/cost.gp)" "0" "cost.gp has no time axis"
if grep -q "chart_title = 'GPU utilisation: t, trace dated-trace.csv, 2026-11-01 00:00 to 2026-11-01 " dated-plots/utilisation.gp; then pass; else fail "title lacks trace and period: $(grep chart_title dated-plots/utilisation.gp)"; fi
expect_eq "$(awk '!/^#/ { print int($1 / 86400); exit }' dated-plots/utilisation.dat)" "20758" "x in Unix seconds (day 20758 is 2026-11-01)"
if command -v gnuplot >/dev/null 2>&1; then
  if grep -q '>Nov 01<' dated-plots/utilisation.svg; then pass; else fail "utilisation.svg has no dated tick"; fi
else
  skip_test "gnuplot not installed: dated ticks not drawn"
fi

# ---- issue 30, smaller items: what a new user types gets a pointer, not a puzzle ----
# a scenario key given as an option: the --set form it needs
run run "$SCEN/dev-timeslice.yaml" "$TRACES/mixed-small.csv" --seed 3
expect_rc 2; expect_err_contains "Unknown option --seed (a scenario key: give it as --set seed=VALUE)"
run run "$SCEN/dev-timeslice.yaml" "$TRACES/mixed-small.csv" --sed 3
expect_rc 2; if grep -q "a scenario key" err.txt; then fail "--sed taken for a scenario key"; else pass; fi
# a Prometheus export given as the trace: where it goes, at 1:1, nothing written
printf '{"status":"success","data":{"resultType":"matrix","result":[]}}\n' > prom.json
run run "$SCEN/dev-timeslice.yaml" prom.json -o pj
expect_rc 2; expect_err_contains "prom.json:1:1: expected a CSV file with a header row, found JSON ('{'); a Prometheus export of DCGM metrics becomes a trace with \`sharesim import dcgm FILE -o trace.csv\`"
expect_no_path pj
# Go's durations, as Kubernetes and Prometheus write them
printf 'horizon: 1h30m\npools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n' > go.yaml
run check go.yaml; expect_rc 0
run run go.yaml "$TRACES/mixed-small.csv" -o go -q; expect_rc 0
expect_eq "$(grep '"span_s"' go/summary.json | head -1 | sed 's/.*: *//; s/,$//')" "5400" "horizon 1h30m is 5400 s"
printf 'horizon: 30m1h\npools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 1\n' > go-bad.yaml
run check go-bad.yaml; expect_rc 2; expect_err_contains "go-bad.yaml:1:10: horizon"
