# t-constants.sh: every model constant is sourced or labelled (issue 12 item 4). The
# constant table of docs/models.md (section 12, between <!-- constants --> markers): each row
# names a published source [Sxx] or says "assumption"; an assumption carries a sensitivity
# (a formula, or `table: NAME` rows that the generated sensitivity table has); every numeric
# #define of the model code is named in the table; and the sensitivity table is what
# scripts/sensitivity prints (it runs the bundled scenarios at 0.5x and 1.5x).
MODELS="$TOP_SRCDIR/docs/models.md"
sed -n '/^<!-- constants -->$/,/^<!-- \/constants -->$/p' "$MODELS" | grep '^| ' | sed '1d' > constants.txt
sed -n '/^<!-- sensitivity -->$/,/^<!-- \/sensitivity -->$/p' "$MODELS" | sed '1d;$d' > sensitivity.txt
if [ "$(wc -l < constants.txt)" -ge 30 ]; then pass; else fail "docs/models.md: constant table has $(wc -l < constants.txt) rows"; fi

# each row: a source or the assumption label; an assumption has a sensitivity
bad=$(awk -F'|' '$5 !~ /\[S[0-9]+\]/ && $5 !~ /assumption/ { print $2 }' constants.txt)
if [ -z "$bad" ]; then pass; else fail "constants with neither [Sxx] nor 'assumption':$bad"; fi
bad=$(awk -F'|' '$5 ~ /assumption/ && $6 !~ /[a-z]/ { print $2 }' constants.txt)
if [ -z "$bad" ]; then pass; else fail "assumptions without a sensitivity:$bad"; fi
# every `table: NAME` (and `NAME` after it in the same cell) has rows in the generated table
awk -F'|' '$6 ~ /table:/ { c = $6; sub(/.*table:/, "", c); sub(/ \(and[^`]*$/, "", c)
  while (match(c, /`[^`]*`/)) { print substr(c, RSTART + 1, RLENGTH - 2); c = substr(c, RSTART + RLENGTH) } }' \
  constants.txt > named.txt
if [ "$(wc -l < named.txt)" -ge 8 ]; then pass; else fail "only $(wc -l < named.txt) sensitivity rows named"; fi
while read -r name; do
  if grep -qF "| \`$name\` | x 0.5 |" sensitivity.txt && grep -qF "| \`$name\` | x 1.5 |" sensitivity.txt; then pass
  else fail "constant table names sensitivity row '$name', which the sensitivity table lacks"; fi
done < named.txt

# every numeric #define of the model code is named in the table's "where" column; excluded:
# random stream numbers, buffer and interpolation-table sizes (*_BUF, LLM_G_N), units (a day, milli-GPU), the default seed,
# input limits and the numerical tolerance
for f in "$TOP_SRCDIR"/src/sim/share/*.[ch] "$TOP_SRCDIR"/src/sim/workload/*.[ch] \
         "$TOP_SRCDIR"/src/sim/place/place.h "$TOP_SRCDIR"/src/input/scenario.h; do
  grep -hoE '^#define [A-Z_0-9]+ +\(?[0-9][^ ]*' "$f" | awk '{ print $2 }'
done | grep -vE '_STREAM_|_BUF$|^LLM_G_N$|^INF_DAY_NS$|^PLACE_MILLI$|^SCENARIO_DEFAULT_SEED$|^SCENARIO_MAX_|^SHARE_EPS$' |
  sort -u > defines.txt
if [ "$(wc -l < defines.txt)" -ge 20 ]; then pass; else fail "read only $(wc -l < defines.txt) model #defines"; fi
awk -F'|' '{ print $4 }' constants.txt > where.txt
missing=$(awk 'NR == FNR { c = $0; while (match(c, /`[A-Za-z_0-9]+\*?`/)) {
                 w = substr(c, RSTART + 1, RLENGTH - 2); c = substr(c, RSTART + RLENGTH)
                 if (w ~ /\*$/) pre[substr(w, 1, length(w) - 1)] = 1; else named[w] = 1 }
               next }
             { ok = ($0 in named); for (p in pre) if (index($0, p) == 1) ok = 1
               if (!ok) printf " %s", $0 }' where.txt defines.txt)
if [ -z "$missing" ]; then pass; else fail "model constants not in docs/models.md's constant table:$missing"; fi

# the sensitivity table is what scripts/sensitivity prints now; with SHARESIM_SKIP_REPEATS
# (sanitizer and distcheck stages) one assumption per bundled scenario and trace, each
# row printed being a row of the table: every scenario and both ways of varying a value
# (a --set key, one out of range; a trace column rewritten) and the validate --set rows
# still run, the other values of the same keys only in the check stage
if ! command -v bash >/dev/null 2>&1; then skip_test "no bash for scripts/sensitivity"
elif skip_repeat "the sensitivity scan runs 4 of its 15 assumptions (the check stage runs all)"; then
  some='busy (notebook),context_switch,mps_block_corr,fraction_cap'
  BUILD_DIR=$(cd "$(dirname "$SHARESIM")" && pwd) bash "$TOP_SRCDIR/scripts/sensitivity" --only "$some" > printed.txt 2> sens.err
  expect_eq "$?" 0 "scripts/sensitivity --only: $(head -2 sens.err)"
  expect_eq "$(grep -c '^| `' printed.txt)" 10 "scripts/sensitivity --only: 2 rows per assumption and mps_block_corr's 2 validation rows"
  notin=$(grep -vxF -f sensitivity.txt printed.txt | head -3)
  expect_eq "$notin" "" "rows scripts/sensitivity --only prints that docs/models.md's table lacks (run scripts/sensitivity --update)"
else
  BUILD_DIR=$(cd "$(dirname "$SHARESIM")" && pwd) bash "$TOP_SRCDIR/scripts/sensitivity" > printed.txt 2> sens.err
  if [ $? -eq 0 ] && cmp -s printed.txt sensitivity.txt; then pass; else
    fail "docs/models.md's sensitivity table is not what scripts/sensitivity prints (run scripts/sensitivity --update): $(diff sensitivity.txt printed.txt | head -4) $(head -2 sens.err)"; fi
fi

# ---- the assumptions that became keys: range-checked with file:line:column, and they act ----
printf 'name: k\nmax_restarts: 2\npools:\n  - {name: p, gpu: A100-80GB, nodes: 1, gpus_per_node: 1}\n' > k.yaml
printf 'id,submit_s,kind,gpus,mem_gb,duration_s,restart\nj,0,training,1,10,1000,on-failure\n' > k.csv
printf 'job_id,after_s,mem_gb\nj,10,90\n' > k-phases.csv
run run k.yaml k.csv --phases k-phases.csv -o k2 -q; expect_rc 0
expect_eq "$(grep -c ',restart,' k2/events.csv)" 2 "max_restarts 2: two restarts"
if grep -q 'too many restarts' k2/events.csv k2/jobs.csv; then pass; else fail "max_restarts 2: no 'too many restarts'"; fi
run run k.yaml k.csv --phases k-phases.csv -o k0 -q --set max_restarts=0; expect_rc 0
expect_eq "$(grep -c ',restart,' k0/events.csv)" 0 "max_restarts 0: no restart"
run run k.yaml k.csv --phases k-phases.csv -o k10 -q --set max_restarts=10; expect_rc 0
expect_eq "$(grep -c ',restart,' k10/events.csv)" 10 "max_restarts 10 (the default's value): ten restarts"
printf 'name: k\nmax_restarts: 1.5\nmps_block_corr: 0s\ninference: {duty_window: 0s}\npools:\n  - {name: p, gpu: A100-80GB, nodes: 1, strategy: fractional, max_jobs_per_gpu: 0}\n' > bad.yaml
run check bad.yaml; expect_rc 2
expect_err_contains "bad.yaml:2:15: max_restarts: expected a whole number from 0 to 1000000, found '1.5'"
expect_err_contains "bad.yaml:3:17: mps_block_corr: expected a duration"
expect_err_contains "bad.yaml:4:26: inference.duty_window: expected a duration"
expect_err_contains "max_jobs_per_gpu"
# max_jobs_per_gpu binds: 4 jobs of 0.1 GPU on one fractional GPU that takes 2 at a time
printf 'name: f\npools:\n  - {name: p, gpu: A100-80GB, nodes: 1, gpus_per_node: 1, strategy: fractional, max_jobs_per_gpu: 2}\n' > f.yaml
printf 'id,submit_s,kind,gpus,mem_gb,duration_s,gpu_frac,sm\n' > f.csv
for i in 1 2 3 4; do echo "b$i,0,batch,1,1,100,0.1,0.1" >> f.csv; done
run run f.yaml f.csv -o f2 -q; expect_rc 0
expect_eq "$(csv_get f2/jobs.csv "" "" id | grep -c '^b')" 4 "four jobs"
run run f.yaml f.csv -o f4 -q --set pools.p.max_jobs_per_gpu=4; expect_rc 0
w2=$(sed -n 's/.*"wait_mean_s" : \([0-9.]*\).*/\1/p' f2/summary.json | head -1)
w4=$(sed -n 's/.*"wait_mean_s" : \([0-9.]*\).*/\1/p' f4/summary.json | head -1)
expect_eq "$w2 $w4" "50 0" "mean wait with 2 and 4 jobs per GPU"
