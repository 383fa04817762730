#!/usr/bin/env bash
# seed-corpus.sh: (re)makes the generated seeds of tests/fuzz/corpus (issue 29, item 2): every
# small input file of tests/data and the bundled scenarios, routed to the target whose parser
# reads it by its header, and the hostile inputs of the reproduced defects (D01-D17, S3-01 to
# S3-18), rebuilt here from their shapes. Hand-made seeds (names not starting with "data-",
# "bundled-" or "repro-") are left alone. Each seed is at most 16 KiB, the -max_len of
# `scripts/test --fuzz`: a larger one would be cut, and slows every execution that starts
# from it.
#
# Usage: tests/fuzz/seed-corpus.sh [SHARESIM]
#   SHARESIM: a built sharesim; with it, the fuzz-results seeds are made from a real run of
#   tests/data/run (the result files trimmed), else those seeds are left as they are.
# Run from the top of the source tree; the output is the same files on every run.
set -euo pipefail
cd "$(dirname "$0")/../.."
C=tests/fuzz/corpus
MAX=16384
SEP='--8<--'
bin=${1:-}

# seed TARGET NAME: standard input becomes corpus/TARGET/NAME when it fits MAX
seed() {
  local f="$C/$1/$2"
  mkdir -p "$C/$1"
  cat >"$f.tmp"
  if [ "$(stat -c %s "$f.tmp")" -le "$MAX" ]; then mv "$f.tmp" "$f"; else rm -f "$f.tmp"; fi
}

# route FILE: the target that reads FILE: an importer's own test data
# (tests/data/import/NAME/*) goes to its target fuzz-import-NAME when there is one; the rest
# by its first line (empty: none)
route() {
  local head d
  d=${1#tests/data/import/}
  if [ "$d" != "$1" ] && [ "${d%%/*}" != "$d" ] && [ -f "tests/fuzz/fuzz-import-${d%%/*}.c" ]; then
    echo "fuzz-import-${d%%/*}"
    return
  fi
  head=$(head -c 200 "$1" | tr -d '\r' | head -n 1 | sed 's/^\xef\xbb\xbf//')
  case "$1:$head" in
  */kueue/*.yaml:*) echo fuzz-kueue ;;
  */dra/*.yaml:*) echo fuzz-dra ;;
  *.yaml:*) echo fuzz-scenario ;;
  *.jsonl:*) echo fuzz-import-mooncake ;;
  *:id,*) echo fuzz-trace ;;
  *:job_id,after_s*) echo fuzz-phases ;;
  *:job_id,at_s*) echo fuzz-requests ;;
  *:label_a,*) echo fuzz-interference ;;
  *:timestamp,metric,*) echo fuzz-dcgm-csv ;;
  *.json:*) echo fuzz-dcgm-json ;;
  *:TIMESTAMP,*) echo fuzz-import-azure ;;
  *:name,cpu_milli,*) echo fuzz-import-openb ;;
  *:job_name,task_name,*) echo fuzz-import-pai ;;
  esac
}

rm -f "$C"/*/data-* "$C"/*/bundled-* "$C"/*/repro-*

# 1. tests/data and the bundled scenarios and trace, each file whole (cut to its first 200
#    lines when longer than MAX)
while IFS= read -r f; do
  t=$(route "$f")
  [ -n "$t" ] || continue
  case "$f" in
  tests/data/*) n=data-$(echo "${f#tests/data/}" | tr '/' '-') ;;
  *) n=bundled-$(echo "$f" | tr '/' '-') ;;
  esac
  if [ "$(stat -c %s "$f")" -le "$MAX" ]; then seed "$t" "$n" <"$f"; else head -n 200 "$f" | seed "$t" "$n"; fi
done < <(find tests/data scenarios traces -type f \( -name '*.csv' -o -name '*.yaml' -o -name '*.json' -o -name '*.jsonl' \) | LC_ALL=C sort)

# 2. the reproduced defects' hostile inputs
# D01, S3-07: nesting far past the JSON depth limit
deep() { head -c "$1" /dev/zero | tr '\0' '['; }
{ printf '{"status":"success","data":{"resultType":"matrix","result":'; deep 5000; } | seed fuzz-dcgm-json repro-D01-deep.json
{ printf '{"timestamp":0,"input_length":'; deep 5000; printf '\n'; } | seed fuzz-import-mooncake repro-S3-07-deep.jsonl
# S3-08: two objects on one line, and CR-only line ends
printf '{"timestamp":0,"input_length":10,"output_length":5} {"timestamp":1000,"input_length":20,"output_length":5}\n{"timestamp":2000,"input_length":30,"output_length":5}\n' |
  seed fuzz-import-mooncake repro-S3-08-two-per-line.jsonl
printf '{"timestamp":0,"input_length":10,"output_length":5}\r{"timestamp":1000,"input_length":20,"output_length":5}\r' |
  seed fuzz-import-mooncake repro-S3-08-cr.jsonl
# S3-01: a dcgm export whose samples span a huge window at a tiny step
printf '{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"__name__":"DCGM_FI_DEV_GPU_UTIL","pod":"p","namespace":"n","gpu":"0","UUID":"GPU-a","Hostname":"h"},"values":[[0,"100"],[1e15,"0"],[0.001,"5"]]},{"metric":{"__name__":"DCGM_FI_DEV_FB_USED","pod":"p","namespace":"n","gpu":"0","UUID":"GPU-a","Hostname":"h"},"values":[[0,"1000"],[30,"NaN"]]}]}}\n' |
  seed fuzz-dcgm-json repro-S3-01-window.json
printf 'timestamp,metric,value,Hostname,gpu,UUID,pod,namespace\n0,DCGM_FI_DEV_GPU_UTIL,100,h,0,GPU-a,p,n\n1e15,DCGM_FI_DEV_GPU_UTIL,0,h,0,GPU-a,p,n\n0.001,DCGM_FI_DEV_FB_USED,inf,h,0,GPU-a,p,n\n' |
  seed fuzz-dcgm-csv repro-S3-01-window.csv
# S3-02: a phase at a tiny rate; D04: a request rate without bound
for r in 1e-300 4.9e-324 1e308; do
  printf 'job_id,after_s,rate_rps\nsvc,10,%s\n' "$r" | seed fuzz-phases "repro-S3-02-rate-$r.csv"
done
printf 'id,submit_s,kind,gpus,mem_gb,duration_s,rate_rps,service_ms\nsvc,0,inference,1,10,31536000,1e300,1\n' |
  seed fuzz-trace repro-D04-huge-rate.csv
# S3-03, S3-04: a tiny checkpoint interval and restarts on a long job
printf 'id,submit_s,kind,gpus,mem_gb,duration_s,checkpoint_s\ntr,0,training,1,20,1000000,1e-9\n' |
  seed fuzz-trace repro-S3-03-checkpoint.csv
printf 'id,submit_s,kind,gpus,mem_gb,duration_s,restart\ntr0,0,training,1,20,100000,on-failure\n' |
  seed fuzz-trace repro-S3-04-restart.csv
# D13: CR-only line ends in a trace
printf 'id,submit_s,kind,gpus,mem_gb,duration_s\ra,0,batch,1,1,10\rb,x,batch,1,1,10\r' |
  seed fuzz-trace repro-D13-cr-only.csv
# D05, D06, S3-15, S3-16: a horizon, a GPU count, hexadecimal numbers and a price past bounds
printf 'name: long\ninterval_s: 1e-9\nhorizon_s: 1e18\npools:\n  - {name: main, gpu: A100-80GB, nodes: 1}\n' |
  seed fuzz-scenario repro-D05-long.yaml
printf 'name: huge\npools:\n  - {name: main, gpu: A100-80GB, nodes: 9223372036854775807, gpus_per_node: 8}\n' |
  seed fuzz-scenario repro-D06-huge.yaml
for kv in 'nodes: 0x10' 'price: 0x1p3' 'gpus_per_node: 0X8' 'seed: 0x2a'; do
  printf 'name: h\npools:\n  - {name: main, gpu: A100-80GB, nodes: 1, %s}\n' "$kv" |
    seed fuzz-scenario "repro-S3-15-$(echo "${kv%%:*}" | tr '_' '-').yaml"
done
printf 'name: p\npools:\n  - {name: main, gpu: A100-80GB, nodes: 1, price: 1e308}\n' |
  seed fuzz-scenario repro-S3-16-price.yaml
# D08: referenced files outside the scenario's folder
printf 'name: x\ninterference: /etc/passwd\npools:\n  - {name: main, gpu: A100-80GB, nodes: 1, strategy: mps, sharing: ../../etc/shadow}\n' |
  seed fuzz-scenario repro-D08-paths.yaml
# D12: many pools (the load must stay linear)
{ printf 'name: many\npools:\n'; for i in $(seq 1 300); do printf '  - {name: p%d, gpu: T4, nodes: 1}\n' "$i"; done; } |
  seed fuzz-scenario repro-D12-many-pools.yaml

# 3. result folders: tests/data/reports (no summary.json) and a real run's, trimmed
{
  for p in summary.json services.csv pools.csv timeseries.csv gpus.csv jobs.csv tenants.csv latency.csv; do
    [ "$p" = summary.json ] || printf '%s\n' "$SEP"
    if [ -f "tests/data/reports/$p" ]; then cat "tests/data/reports/$p"; fi
  done
} | seed fuzz-results data-reports.txt
# 3. result folders, from a real run (fuzz-results reads the parts in this order)
if [ -n "$bin" ]; then
  w=$(mktemp -d)
  trap 'rm -rf "$w"' EXIT
  "$bin" run tests/data/run/two-pools.yaml tests/data/run/small.csv -o "$w/r" >/dev/null
  {
    first=1
    for p in summary.json services.csv pools.csv timeseries.csv gpus.csv jobs.csv tenants.csv latency.csv; do
      [ "$first" = 1 ] || printf '%s\n' "$SEP"
      first=0
      if [ -f "$w/r/$p" ]; then head -n 40 "$w/r/$p"; fi
    done
  } | seed fuzz-results data-run-two-pools.txt
fi
echo "seeds: $(find "$C" -type f | wc -l) in $(find "$C" -mindepth 1 -maxdepth 1 -type d | wc -l) targets"
