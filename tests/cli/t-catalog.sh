# t-catalog.sh: 'sharesim catalog' lists models, shows one model's MIG profiles and
# maximal layouts, checks layouts, writes JSON, and refuses unknown models with exit 2.

run catalog; expect_rc 0; expect_err_empty
expect_out_contains "A100-80GB"
expect_out_contains "H100-NVL-94GB"
expect_out_contains "8 slots"
expect_out_contains "4 slots"
expect_out_contains "T4                15.00    16.11   40 no             -   7.5   48     0.53"
cp out.txt list1.txt
run catalog; expect_same_files out.txt list1.txt

run catalog A100-80GB; expect_rc 0; expect_err_empty
expect_out_contains "SMs                 108 (98 in MIG mode)"
expect_out_contains "3g.40gb x2"
expect_out_contains "4g.40gb + 3g.40gb"
expect_out_contains "1g.10gb x7"
expect_out_contains "Valid maximal MIG layouts (28 of 77 valid; without +me): nothing more fits. Default view;"
expect_out_contains "'sharesim catalog A100-80GB --all' lists all 77."
expect_out_contains "largest_GB: the same in GB (10^9 bytes)"
expect_out_contains "  3g.40gb       3          4 0,4        2      39.25   42"
expect_out_contains "3g.40gb x2                                 39.25   84      42.14  3g.40gb@0 3g.40gb@4"
expect_out_contains "7g.80gb                                    79.00   98      84.83  7g.80gb@0"
expect_eq "$(grep -c '^  4g.40gb + 2g.20gb  ' out.txt)" "0" "non-maximal layout in the default view"
expect_eq "$(grep -c '@' out.txt)" "28" "maximal layout lines"
expect_out_contains "A100D-20C"
cp out.txt a1.txt
run catalog a100-80gb; expect_rc 0; expect_same_files out.txt a1.txt

run catalog A30; expect_rc 0
expect_out_contains "Valid maximal MIG layouts (4 of 9 valid; without +me)"
expect_out_contains "2g.12gb + 1g.6gb x2"

# --all: every valid layout (77 on 8-slot GPUs), maximal ones marked, GiB and GB
run catalog A100-80GB --all; expect_rc 0; expect_err_empty
expect_out_contains "All valid MIG layouts (77; without +me), largest profiles first; 'maximal' marks the 28"
expect_out_contains "  layout                               largest_GiB  SMs largest_GB maximal  placement"
expect_out_contains "  4g.40gb + 2g.20gb                          39.25   84      42.14       -  4g.40gb@0 2g.20gb@4"
expect_out_contains "  3g.40gb x2                                 39.25   84      42.14     yes  3g.40gb@0 3g.40gb@4"
expect_out_contains "  1g.10gb                                     9.50   14      10.20       -  1g.10gb@0"
expect_eq "$(grep -c '@' out.txt)" "77" "valid layout lines"
expect_eq "$(grep -c '     yes  ' out.txt)" "28" "maximal marks"
run catalog A30 --all; expect_rc 0
expect_out_contains "All valid MIG layouts (9; without +me)"
expect_out_contains "  2g.12gb                                    11.69   28      12.55       -  2g.12gb@0"
run catalog --all; expect_rc 2; expect_err_contains "--all needs a GPU model"
run catalog A100-80GB --all --layout "7g.80gb"; expect_rc 2
expect_err_contains "--all lists every layout and --layout checks one"

run catalog T4; expect_rc 0
expect_out_contains "not supported"
expect_out_contains "MPS client limit    48"

run catalog A100; expect_rc 2
expect_err_contains "unknown GPU model 'A100' (did you mean A100-40GB, A100-80GB?)"
expect_err_contains "valid models: T4, L4, A10, L40S, A30, A100-40GB, A100-80GB"
run catalog NoSuchGPU; expect_rc 2; expect_err_contains "unknown GPU model 'NoSuchGPU'"
run catalog A100-80GB H100-80GB; expect_rc 2
run catalog --no-such-flag; expect_rc 2

run catalog A100-80GB --layout "3g.40gb x2"; expect_rc 0
expect_out_contains "placement   3g.40gb@0 3g.40gb@4"
expect_out_contains "largest     39.25 GiB = 42.14 GB (the biggest model it can hold)"
run catalog A100-80GB --layout "4g.40gb x2"; expect_rc 2
expect_err_contains "4g.40gb may appear at most once (max count 1);"
expect_err_contains "; a valid layout with these profiles: 4g.40gb + 3g.40gb"
run catalog A100-80GB --layout "3g.40gb x2 + 1g.10gb"; expect_rc 2
expect_err_contains "3g.40gb x2 uses memory slices 0-7, leaving none for 1g.10gb"
expect_err_contains "1g.10gb (it can start at 0-6)"
run catalog T4 --layout "1g.5gb"; expect_rc 2; expect_err_contains "T4 does not support MIG"
run catalog --layout "3g.40gb x2"; expect_rc 2

run catalog --json; expect_rc 0
expect_out_contains '"name" : "B200"'
expect_out_contains '"price_per_gpu_hour" : 3.43'
run catalog H100-80GB --json; expect_rc 0
expect_out_contains '"maximal_layouts"'
expect_out_contains '"layout" : "1g.10gb x7"'
expect_out_contains '"usable_gib" : 79.25'
if command -v python3 >/dev/null 2>&1; then
  n=$(python3 -c 'import json; print(len(json.load(open("out.txt"))["maximal_layouts"]))' \
    2>/dev/null)
  expect_eq "$n" "28" "maximal layouts in JSON"
fi
expect_out_contains '"largest_gb" : 10.468982784'
expect_out_contains '"valid_layout_count" : 77'
expect_eq "$(grep -c '"valid_layouts"' out.txt)" "0" "valid_layouts without --all"
run catalog H100-80GB --json --all; expect_rc 0
expect_out_contains '"valid_layouts"'
if command -v python3 >/dev/null 2>&1; then
  r=$(python3 -c 'import json; d=json.load(open("out.txt")); v=d["valid_layouts"]; print(len(v), sum(x["maximal"] for x in v), v[13]["layout"], v[13]["largest_gb"])' \
    2>/dev/null)
  expect_eq "$r" "77 28 3g.40gb x2 42.412802048" "valid layouts in JSON"
fi

# ---- issue 32: Blackwell MIG models, vGPU compute and desktop profiles ----
run catalog; expect_rc 0
expect_out_contains "GB200            185.03   198.67  152 8 slots      126  10.0   48    14.24"
expect_out_contains "B300             268.59   288.40  148 8 slots      126  10.3   48     7.89"
expect_out_contains "RTX-PRO-6000      95.59   102.64  188 4 slots      188  12.0   48     2.09"
expect_out_contains "L40S              44.99    48.31  142 no             -   8.9   48     1.95"
run catalog B300; expect_rc 0
expect_out_contains "  1g.34gb       1          1 0-6        7      30.50   18"
expect_out_contains "Valid maximal MIG layouts (28 of 77 valid; without +me)"
expect_out_contains "3g.135gb x2                               133.38  108     143.21  3g.135gb@0 3g.135gb@4"
run catalog GB200; expect_rc 0
expect_out_contains "  1g.47gb       1          2 0,2,4,6    4      42.75   18"
expect_out_contains "1g.23gb x7                                 21.00  126      22.55  1g.23gb@0 1g.23gb@1"
run catalog rtx-pro-6000; expect_rc 0
expect_out_contains "MIG                 4 memory slices, 4 compute slices, at most 4 GPU instances"
expect_out_contains "2g.48gb + 1g.24gb x2                       47.38  188      50.87  2g.48gb@0 1g.24gb@2 1g.24gb@3"
run catalog L40S; expect_rc 0
expect_out_contains "  L40S-4C                 4.00          12 compute"
expect_out_contains "  L40S-1Q                 1.00          32 desktop"
run catalog T4; expect_rc 0
expect_out_contains "  T4-8C                   8.00           2 compute"
expect_out_contains "  T4-2B                   2.00           8 desktop"
run catalog A10 --json; expect_rc 0
expect_out_contains '"name" : "A10-24Q"'
expect_out_contains '"series" : "desktop"'

# a scenario on each new model runs (MIG on the Blackwell parts, vGPU on the L40S and T4)
csv_col() { awk -F, -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next } { print $k }' "$1"; }
cat > bw.csv <<'CSV'
id,submit_s,kind,gpus,mem_gb,duration_s,sm
a,0,batch,1,20,300,0.3
b,10,batch,1,30,200,0.2
c,20,batch,1,8,100,0.1
CSV
for g in "GB200|3g.93gb x2" "B300|1g.67gb x4" "RTX-PRO-6000|2g.48gb + 1g.24gb x2" "L40S|" "T4|"; do
  gpu=${g%%|*}; layout=${g#*|}
  if [ -n "$layout" ]; then sharing="strategy: mig
    layout: $layout"
  elif [ "$gpu" = L40S ]; then sharing="strategy: vgpu
    profile: L40S-24C"
  else sharing="strategy: vgpu
    profile: T4-8Q"; fi
  cat > "bw-$gpu.yaml" <<YAML
name: bw-$gpu
pools:
  - name: p
    gpu: $gpu
    nodes: 1
    gpus_per_node: 2
    $sharing
YAML
  run run "bw-$gpu.yaml" bw.csv -o "bw-out-$gpu" -q
  expect_rc 0
  expect_eq "$(csv_col "bw-out-$gpu/pools.csv" gpu | tail -1)" "$gpu" "the pool's model in pools.csv"
done
# T4-8Q holds 8 GiB: job b (30 GB) never fits anywhere and is reported so
expect_eq "$(csv_col bw-out-T4/jobs.csv id | grep -c '^b$')" "1" "T4 jobs.csv lists job b"

# plan offers the compute profiles of a vGPU model, never its desktop ones
sed 's/gpu: A100-80GB, max_gpus: 4/gpu: L40S, max_gpus: 4/' "$DATA/plan/small.yaml" > l40s-plan.yaml
run plan l40s-plan.yaml "$DATA/plan/small.csv" -o l40s-pl -j 2 --no-progress
expect_rc 0
expect_eq "$(grep -c 'profile L40S-24C' l40s-pl/plan.csv)" "4" "L40S-24C offered to the classes (4 of 5)"
expect_eq "$(grep -c 'profile L40S-[0-9]*Q' l40s-pl/plan.csv)" "0" "no desktop profile offered"
