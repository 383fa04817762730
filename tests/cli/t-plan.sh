# t-plan.sh: `sharesim plan`: the recommended scenario reproduces its run byte for byte, its
# NVIDIA device-plugin and mig-parted files read back into the same pools and run the same, the
# files are the same at any -j, the answer equals the cheapest feasible set-up of an
# exhaustive run and every cheaper set-up names the constraint it broke (a probe that gave up
# early fails there too), the trust rules
# hold (an untrusted class is never given time-slicing, MPS or fractional; an org class
# never MPS), pareto.csv is the Pareto front of probes.csv (checked point by point), a plan
# killed midway resumes from its journal to the same files, and bad input is refused at file:line:column with nothing written.
P="$DATA/plan"

# ---- a plan, its files, and the recommended scenario rerun ----
run plan "$P/small.yaml" "$P/small.csv" -o pl -j 1 --no-progress
expect_rc 0
for f in plan.txt plan.csv probes.csv pareto.csv scenario.yaml recommended/summary.json; do expect_file "pl/$f"; done
expect_out_contains "recommendation: 6 GPUs"
run run pl/scenario.yaml "$P/small.csv" -o rerun
expect_rc 0
same=yes
for f in $(cd pl/recommended && ls); do cmp -s "pl/recommended/$f" "rerun/$f" || { same="no ($f)"; }; done
expect_eq "$same" yes "run of plan's scenario.yaml = plan's recommended/ run"

# ---- the NVIDIA files of the recommendation, read back through sharesim's own input ----
expect_file pl/nvidia/device-plugin-config.yaml
expect_file pl/nvidia/mig-parted-config.yaml
n=$(grep -c "read back through sharesim's NVIDIA-config input: every pool the same as scenario.yaml's" pl/plan.txt)
expect_eq "$n" 1 "the NVIDIA files read back into the same pools"
run run pl/nvidia/scenario.yaml "$P/small.csv" -o nvrun -q
expect_rc 0
# the same jobs (the scenario column names each run's own scenario)
cut -d, -f3- pl/recommended/jobs.csv > plan-jobs.csv; cut -d, -f3- nvrun/jobs.csv > nv-jobs.csv
expect_same_files plan-jobs.csv nv-jobs.csv

# ---- the same files at any -j ----
if ! skip_repeat "the same plan at -j 3 (the same bytes)"; then
  run plan "$P/small.yaml" "$P/small.csv" -o pl3 -j 3 --no-progress
  expect_rc 0
  for f in plan.txt plan.csv probes.csv pareto.csv scenario.yaml nvidia/device-plugin-config.yaml nvidia/mig-parted-config.yaml; do
    expect_same_files "pl/$f" "pl3/$f"
  done
fi

# ---- an interrupted plan resumes from DIR.journal: the same files as uninterrupted ----
"$SHARESIM" plan "$P/small.yaml" "$P/small.csv" -o plk -j 1 --no-progress >/dev/null 2>&1 &
pid=$!
i=0 # SIGKILLed once the first round is in the journal (header + a run), before it ends
while [ "$(wc -l < plk.journal 2>/dev/null || echo 0)" -lt 2 ] && [ $i -lt 6000 ] && kill -0 $pid 2>/dev/null; do
  sleep 0.01; i=$((i + 1))
done
kill -STOP $pid 2>/dev/null; kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
if [ -f plk.journal ] && [ ! -e plk ]; then pass; else fail "the plan was not killed midway ($(ls -d plk* 2>&1))"; fi
sed 's/max_gpus: 4/max_gpus: 3/' "$P/small.yaml" > other.yaml
run plan other.yaml "$P/small.csv" -o plk --no-progress
expect_rc 2
expect_err_contains "plk.journal: the journal of an interrupted plan on other inputs"
expect_no_path plk
run plan "$P/small.yaml" "$P/small.csv" -o plk -j 2 --no-progress
expect_rc 0
expect_err_contains "runs taken from plk.journal (an interrupted plan's)"
for f in plan.txt plan.csv probes.csv pareto.csv scenario.yaml recommended/jobs.csv; do
  expect_same_files "pl/$f" "plk/$f"
done
expect_no_path plk.journal

# ---- trust: the rows of each class use only what its trust allows ----
# notebook: team-06 untrusted -> exclusive, mig, vgpu; inference: org -> no mps
bad=$(awk -F, 'NR > 1 && $1 == "notebook" && $3 != "exclusive" && $3 != "mig" && $3 != "vgpu"' pl/plan.csv pl/probes.csv | head -3)
expect_eq "$bad" "" "untrusted notebooks only on exclusive, mig or vgpu"
bad=$(awk -F, 'NR > 1 && $1 == "inference" && $3 == "mps"' pl/plan.csv pl/probes.csv | head -3)
expect_eq "$bad" "" "org inference never on mps"
n=$(awk -F, '$1 == "batch" && $3 == "mps"' pl/plan.csv | wc -l)
expect_eq "$n" 2 "team batch is offered mps (replicas 2 and 4)"
# the blast radius: plan.csv has it per candidate, and no set-up plan keeps for the untrusted
# notebooks lets a fault reach another tenant (the hard rule, docs/studies.md "plan")
bad=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  $1 == "notebook" && $c["status"] ~ /^(feasible|recommended)$/ && $c["blast_radius"] != "0"' pl/plan.csv)
expect_eq "$(head -1 pl/plan.csv | grep -c ',innocent_victims,blast_radius,')" 1 "plan.csv's blast_radius column"
expect_eq "$bad" "" "no kept set-up of the untrusted class with a blast radius"
expect_eq "$(grep -c 'no fault of an untrusted tenant reaches another tenant' pl/plan.txt)" 1 "the rule among the notebooks' constraints"

# ---- against the exhaustive run: same cheapest set-up, every cheaper one broke something ----
sed 's/max_gpus: 4/max_gpus: 2/' "$P/small.yaml" > tiny.yaml
run plan tiny.yaml "$P/small.csv" -o tiny -j 2 --no-progress
expect_rc 0
run plan tiny.yaml "$P/small.csv" -o tinyx -j 2 --no-progress --exhaustive
expect_rc 0
for cls in notebook inference training batch; do
  want=$(awk -F, -v c=$cls '$1 == c && $9 == 1 { if (m == "" || $8 + 0 < m + 0) m = $8 } END { print m }' tinyx/probes.csv)
  got=$(awk -F, -v c=$cls '$1 == c && $9 == "recommended" { print $8 }' tiny/plan.csv)
  expect_eq "$got" "$want" "plan's $cls cost = the cheapest feasible of the exhaustive run"
  unnamed=$(awk -F, -v c=$cls -v w="$got" '$1 == c && $8 + 0 < w + 0 && ($9 != 0 || $10 == "\"\"")' tinyx/probes.csv | head -3)
  expect_eq "$unnamed" "" "every $cls set-up cheaper than the plan's fails and names why"
done
# a probe that gave up (its class's wait limit already broken by enough late jobs) fails in
# the exhaustive run too, which runs every probe to its end
stopped=$(grep -c 'where the probe stopped' tiny/probes.csv)
expect_eq "$([ "$stopped" -gt 0 ] && echo some)" some "probes give up ($stopped)"
wrong=$(awk -F, 'FNR == NR { if ($9 == 0) failed[$1 FS $3 FS $4 FS $5 FS $6] = 1; next }
  /where the probe stopped/ && !(($1 FS $3 FS $4 FS $5 FS $6) in failed)' tinyx/probes.csv tiny/probes.csv | head -3)
expect_eq "$wrong" "" "every probe that gave up fails when run to its end"
expect_eq "$(grep -c 'where the probe stopped' tinyx/probes.csv)" 0 "--exhaustive never gives up"

# ---- the Pareto fronts against every set-up simulated (probes.csv), by the definition ----
# Per class and front (slo: cost against worst SLO attainment, higher better; wait: against
# the p95 wait, lower better), over the probes that served every job: no point of
# pareto.csv is dominated by any of them, and every one of them off the front is dominated
# by a point on it. Prints the first violation.
pareto_check() {
  awk -F, 'FNR == 1 { file++; next }
    file == 1 && $(NF-2) == 1 {
      n++; cls[n] = $1; key[n] = $1 "," $2 "," $6; cost[n] = $8 + 0
      slo[n] = $(NF-1); wait[n] = $NF }
    file == 2 { on[$1 "," $2 "," $3 "," $7] = 1; rows++
      if (!(($2 "," $3 "," $7) in seen)) seen[$2 "," $3 "," $7] = 1 }
    function y(f, i) { return f == "slo" ? slo[i] : wait[i] }
    function dom(f, j, i) {  # j dominates i
      if (cls[j] != cls[i] || y(f, j) == "" || y(f, i) == "") return 0
      better = f == "slo" ? y(f, j) + 0 > y(f, i) + 0 : y(f, j) + 0 < y(f, i) + 0
      noworse = f == "slo" ? y(f, j) + 0 >= y(f, i) + 0 : y(f, j) + 0 <= y(f, i) + 0
      return cost[j] <= cost[i] && noworse && (cost[j] < cost[i] || better) }
    END {
      split("slo wait", fr, " ")
      for (k = 1; k <= 2; k++) { f = fr[k]; found = 0
        for (i = 1; i <= n; i++) {
          if (y(f, i) == "") { if ((f "," key[i]) in on) { print f " " key[i] " on the front without a figure"; exit } continue }
          if ((f "," key[i]) in on) { found++
            for (j = 1; j <= n; j++) if (dom(f, j, i)) { print f " " key[i] " on the front, dominated by " key[j]; exit }
          } else {
            d = 0; for (j = 1; j <= n && !d; j++) d = ((f "," key[j]) in on) && dom(f, j, i)
            if (!d) { print f " " key[i] " off the front, dominated by none on it"; exit } } }
        total += found }
      if (total != rows) print "pareto.csv has " rows " rows, " total " of them set-ups of probes.csv"
    }' "$1/probes.csv" "$1/pareto.csv"
}
for d in pl tinyx; do
  expect_eq "$(pareto_check $d)" "" "$d/pareto.csv is the Pareto front of $d/probes.csv"
done
n=$(awk -F, '$1 == "wait" && $2 == "notebook"' tinyx/pareto.csv | wc -l)
expect_eq "$((n > 1))" 1 "the notebooks' wait front of the exhaustive run has more than one set-up"
run plot pl
expect_rc 0
expect_file pl/plots/pareto-wait.gp
expect_file pl/plots/pareto-slo.dat
run report pl -o pl.html
expect_rc 0
n=$(grep -c 'the Pareto fronts</h2>' pl.html)
expect_eq "$n" 1 "the report of a plan folder shows its Pareto fronts"

# ---- seeds: judged at the 95 % bound ----
run plan tiny.yaml "$P/small.csv" --seeds 2 -j 2 --no-progress
expect_out_contains "a constraint holds when its 95 % bound does"

# ---- bad input: refused at file:line:column, exit 2, nothing written ----
sed 's/{kind: notebook, tenant: team-06, trust: untrusted}/{kind: notebook, tenant: team-06, trust: untrusted, mechanisms: [time-slicing]}/' \
  "$P/small.yaml" > contra.yaml
run plan contra.yaml "$P/small.csv" -o out-contra
expect_rc 2
expect_err_contains "contra.yaml:8:70: requirements[1].mechanisms: expected a strategy trust 'untrusted' allows (exclusive, mig, vgpu), found 'time-slicing'"
expect_no_path out-contra
sed 's/gpu: A100-80GB, max_gpus: 4/gpu: T4, max_gpus: 4/' "$P/small.yaml" > t4.yaml
run plan t4.yaml "$P/small.csv" -o out-t4
expect_rc 2
expect_err_contains "t4.yaml:14:3: purchase: expected a GPU model with at least 26.6 GB per GPU (job nb-000051 at"
expect_no_path out-t4
grep -v -e '^purchase:' -e 'max_gpus' "$P/small.yaml" > nobuy.yaml
run plan nobuy.yaml "$P/small.csv" -o out-nobuy
expect_rc 2
expect_err_contains "plan needs a 'purchase:' section"
expect_no_path out-nobuy

# ---- no set-up meets the constraints: said plainly, exit 3, closest candidates ----
sed 's/min_slo_attainment: 0.99/min_slo_attainment: 1/' tiny.yaml > none.yaml
run plan none.yaml "$P/small.csv" -o out-none -j 2 --no-progress
expect_rc 3
expect_err_contains "no set-up within the purchase limits meets the constraints (exit 3)"
expect_err_contains "class inference:"
expect_err_contains "closest:"
expect_file out-none/plan.txt

# ---- an LLM service: its class's trace keeps the model column (it was refused with
# "service_ms: expected milliseconds > 0" at a line of plan's own temporary trace) ----
run plan "$P/llm.yaml" "$DATA/llm/service.csv" -o out-llm -j 1 --no-progress
expect_rc 0
expect_out_contains "recommendation: 1 GPUs"
expect_file out-llm/plan.txt
