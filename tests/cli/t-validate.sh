# t-validate.sh: `sharesim validate` runs every case through the simulator and every case
# meets its target, except the known misses listed here (each is a model gap reported in
# docs/models.md, "Validation"). The Lucid and FGD (openb) cases need ../shared/traces;
# without it they are skipped, and the rest must still pass. The whole table (the FGD family's
# 60 fill runs are most of its time) is run once, with -o, and read back as CSV and Markdown.

# Cases that miss their target today (case id, then why); they must stay visible as "no".
# The H100 sweep's TTFT (issue 27; prediction rows, 38-66 % under the published figures):
# four of the eight TTFT rows still miss once the serial front end is modelled: the tails
# at c = 4 and 64 and both figures at c = 16, where the client is saturated by streaming
# (docs/models.md section 11, "TTFT").
KNOWN_MISSES="
llm.h100.c4.ttft_p99_ms llm.h100.c16.ttft_ms llm.h100.c16.ttft_p99_ms llm.h100.c64.ttft_p99_ms
"

# (with SHARESIM_SKIP_REPEATS, the table is run without the openb lists: the FGD family's
# 60 fill runs repeat the import, the fill and the six policies that t-fill.sh's
# `fill --paper` runs on the same pods for one seed; its rows are then checked as skipped)
VTRACES=$SHARED_TRACES
if [ -f "$SHARED_TRACES/alibaba-gpu-v2023-openb/openb_pod_list_default.csv" ] &&
   skip_repeat "validate's FGD family (10 seeds of the openb fill; t-fill.sh runs one)"; then
  mkdir vtraces
  for d in "$SHARED_TRACES"/*; do
    [ "$(basename "$d")" = alibaba-gpu-v2023-openb ] || ln -s "$d" vtraces/
  done
  VTRACES=$PWD/vtraces
fi
# (with SHARESIM_SKIP_REPEATS, the table is run without the priority family too: its three
# 500,000-job runs repeat, on more jobs, the preemption code that t-preempt.sh runs; its
# rows are checked in the check stage)
FAMILIES=
if skip_repeat "validate's priority family (1.5 M jobs through the preemption code t-preempt.sh runs)"; then
  FAMILIES="--case queueing,lucid,colfax,tally,mig,stories,fgd,fgdw,llm,vidur,parva"
fi
run validate --markdown --traces "$VTRACES" $FAMILIES -o full; expect_rc 0; expect_err_empty
cp out.txt full.md
cp full/validate.csv table.csv
expect_eq "$(head -1 table.csv)" "case,kind,source,compared,measured,predicted,error,target,pass" "CSV header"
have_openb=no
[ -f "$VTRACES/alibaba-gpu-v2023-openb/openb_pod_list_default.csv" ] && have_openb=yes
# every case id appears once, and no case row is malformed (the last cell is the verdict)
n=$(tail -n +2 table.csv | wc -l)
if [ "$n" -ge 40 ]; then pass; else fail "only $n validation rows"; fi
bad=$(tail -n +2 table.csv | awk -F, '$NF != "yes" && $NF != "no" && $NF != "skipped"' | head -3)
expect_eq "$bad" "" "rows whose pass cell is not yes/no/skipped"
for id in $(tail -n +2 table.csv | cut -d, -f1); do
  verdict=$(awk -F, -v id="$id" '$1 == id {print $NF}' table.csv)
  case " $(echo $KNOWN_MISSES) " in
    *" $id "*) expect_eq "$verdict" "no" "known miss $id (fixed? then remove it from KNOWN_MISSES)" ;;
    *)
      if { [ -d "$VTRACES/lucid-asplos23" ] || [ "${id#lucid.}" = "$id" ]; } &&
         { [ $have_openb = yes ] || [ "${id#fgd.}" = "$id" ]; } &&
         { [ "${id#fgdw.}" = "$id" ] || [ -f "$VTRACES/alibaba-gpu-v2023-openb/openb_pod_list_$(echo "$id" | cut -d. -f2).csv" ]; } &&
         { [ -d "$VTRACES/vidur-profiles/compute" ] || [ "${id#vidur.}" = "$id" ]; }; then
        expect_eq "$verdict" "yes" "validation case $id"
      else
        expect_eq "$verdict" "skipped" "validation case $id without the shared traces"
      fi ;;
  esac
done
# the queueing, Colfax, Tally and MIG families do not depend on the shared traces
for fam in queueing colfax tally mig story llm parva $([ -z "$FAMILIES" ] && echo priority); do
  if grep -q "^$fam\." table.csv; then pass; else fail "no $fam rows"; fi
done

# every row says what it is (issue 27): calibration (a constant was fitted on it), prediction
# (out of sample) or analytic; validate itself refuses a table whose kinds disagree with the
# fits (exit 0 above). The rows that could not fail are gone: they restated a configured rule
# (unit tests now) or a known error (docs/models.md)
expect_eq "$(tail -n +2 table.csv | cut -d, -f2 | sort -u | tr '\n' ' ')" "analytic calibration prediction " "kinds"
has_line() { if grep -q -- "$2" "$1"; then pass; else fail "$1 lacks a line matching: $2"; fi; }
kinds() { awk -F, -v p="$1" 'NR > 1 && index($1, p) == 1 {print $2}' table.csv | sort | uniq -c | awk '{printf "%s %s ", $2, $1}'; }
expect_eq "$(kinds llm.)" "calibration 8 prediction 10 " "LLM rows by kind"
# the TTFT rows come from the same runs as the throughput and TPOT rows; the front end's cost
# is fitted on the c = 1 median (a calibration row), the other seven are predictions
expect_eq "$(grep -c '^llm\.h100\.c[0-9]*\.ttft_\(p99_\)\{0,1\}ms,prediction,' table.csv)" 7 "TTFT rows are predictions"
expect_eq "$(grep -c '^llm\.h100\.c1\.ttft_ms,calibration,' table.csv)" 1 "the front end's row"
expect_eq "$(kinds tally.)" "calibration 3 prediction 5 " "Tally rows by kind"
expect_eq "$(kinds parva.)" "calibration 4 prediction 12 " "ParvaGPU rows by kind"
expect_eq "$(kinds queueing.)" "analytic 5 " "queueing rows by kind"
# FGD's other openb workloads (issue 27 item 2): six policies on each of twelve lists, all
# predictions; FGD's held-out lists (cpu250, gpushare40, gpuspec33, multigpu50) have no rows
expect_eq "$(kinds fgdw.)" "prediction 72 " "fgdw rows by kind"
expect_eq "$(grep -c '^fgdw\.\(cpu250\|gpushare40\|gpuspec33\|multigpu50\)\.' table.csv)" 0 "held-out FGD workloads have no rows"
expect_eq "$(kinds story.)" "analytic 1 prediction 1 " "story rows by kind"
expect_eq "$(grep -c 'stated rel error' table.csv)" 0 "no stated-error rows"
for gone in colfax.lone_tenant story.oom_all_four_notebooks story.mps_one_fault_kills_all \
            story.mig_40gb_waits_for_drain llm.h100.c1.tok_s vidur.a100.worst vidur.h100.worst; do
  expect_eq "$(grep -c "^$gone," table.csv)" 0 "$gone is no row"
done
# the text table: per family the error on calibration rows beside prediction rows, and the
# totals by kind; with the Lucid pairs every row is there (skipped or not)
has_line full/validate.txt "^by family (calibration = in sample, prediction = out of sample"
has_line full/validate.txt "^llm        calibration: 8/8 pass, |rel error| median"
has_line full/validate.txt "^fitted constants (the rows each was fitted on):"
if [ -d "$VTRACES/lucid-asplos23" ]; then
  analytic=15; [ -n "$FAMILIES" ] && analytic=6 # less the priority family's nine rows
  has_line full/validate.txt "; 72 calibration, 104 prediction, $analytic analytic$"
fi

# ParvaGPU: aggregate and latency per slice (1g, 7g), batch (1, 8) and process count (2, 3)
expect_eq "$(grep -c "^parva\." table.csv)" 16 "ParvaGPU rows"
# the FGD family: per policy the mean at 130 % and the largest gap over 0..130 %, then the order
expect_eq "$(grep -c '^fgd\.' table.csv)" 13 "FGD rows"
# with the openb files the rows carry the 1 pp target; without them they say what is missing
fgd_target='|error| <= 1'
[ $have_openb = yes ] || fgd_target='no alibaba-gpu-v2023-openb pod and node lists'
for pol in random dot-product gpu-clustering gpu-packing best-fit fgd; do
  if grep "^fgd\.$pol\.alloc_130," table.csv | grep -qF ",$fgd_target," &&
     grep "^fgd\.$pol\.curve," table.csv | grep -qF ",$fgd_target,"; then pass
  else fail "fgd rows of $pol (target cell '$fgd_target')"; fi
done
if [ $have_openb = yes ]; then
  expect_eq "$(awk -F, '$1 == "fgd.fgd.alloc_130" {print $(NF-4)}' table.csv)" 95.39 "FGD published mean"
  expect_eq "$(awk -F, '$1 == "fgd.random.alloc_130" {print $(NF-4)}' table.csv)" 87.47 "Random published mean"
  # the imported inputs are kept: the openb scenario of 405 node groups and its 8,152 pods
  expect_eq "$(grep -c '^      - {nodes:' full/inputs/fgd-openb.yaml)" 405 "fgd-openb.yaml node groups"
  expect_eq "$(tail -n +2 full/inputs/fgd-openb.csv | wc -l | tr -d ' ')" 8152 "fgd-openb.csv jobs"
  # docs/studies.md quotes the figures validate prints: "Label PREDICTED (MEASURED)"
  for pair in random:Random dot-product:DotProd gpu-clustering:GpuClustering \
              gpu-packing:GpuPacking best-fit:BestFit fgd:FGD; do
    txt=$(grep "^fgd\.${pair%%:*}\.alloc_130 " full/validate.txt |
      awk '{print $(NF-6) " (" $(NF-7) ")"}')
    if tr '\n' ' ' < "$TOP_SRCDIR/docs/studies.md" | grep -q "${pair#*:} $txt"; then pass
    else fail "docs/studies.md does not quote ${pair#*:} $txt"; fi
  done
  # FGD as a user runs it (docs/studies.md, "fill"): the plain import gives validate's
  # inputs byte for byte, and `fill --paper` (shuffled, seeds 42-51 by itself) its figures
  OB="$VTRACES/alibaba-gpu-v2023-openb"
  run import alibaba-openb "$OB/openb_pod_list_default.csv" --nodes "$OB/openb_node_list_gpu_node.csv" \
    --pods all --scenario-out user-openb.yaml -o user-openb.csv; expect_rc 0
  expect_same_files user-openb.yaml full/inputs/fgd-openb.yaml
  expect_same_files user-openb.csv full/inputs/fgd-openb.csv
  run fill user-openb.yaml user-openb.csv --paper -q; expect_rc 0; expect_err_empty
  for pol in random dot-product gpu-clustering gpu-packing best-fit fgd; do
    v=$(awk -F, -v p="$pol" '$1 == "fgd" && $2 == p {printf "%.2f", $4}' full/validate-scatter.csv)
    expect_eq "$(awk -v p="$pol" '$1 == p {print $3}' out.txt)" "$v" "fill --paper's $pol mean at 130 % against validate's"
  done
  # a trace imported with the default --pods scheduled is not the paper's experiment: said
  run import alibaba-openb "$OB/openb_pod_list_default.csv" --nodes "$OB/openb_node_list_gpu_node.csv" \
    -o user-sched.csv; expect_rc 0
  head -200 user-sched.csv > user-sched-200.csv
  run fill user-openb.yaml user-sched-200.csv --paper --seed 1 --policy random -q
  expect_err_contains "the trace has no CPU-only pods; the paper's experiment keeps them"
  expect_err_contains "the published curves are means over seeds 42-51; these runs use other seeds"
fi

# fgdw on a small made-up list and node list (the real ones: docs/models.md): the rows of a
# list that is there are computed, through the same import and fill a user runs; the others
# are skipped with the reason
mkdir -p fw/alibaba-gpu-v2023-openb
# (3 nodes of 8 GPUs, pods of at most a tenth of a GPU: the arrivals reach 130 % in steps
# under 0.5 %)
printf 'sn,cpu_milli,memory_mib,gpu,model\nn0,64000,262144,8,T4\nn1,64000,262144,8,T4\nn2,32000,131072,8,P100\n' \
  > fw/alibaba-gpu-v2023-openb/openb_node_list_gpu_node.csv
printf 'name,cpu_milli,memory_mib,num_gpu,gpu_milli\np0,800,1638,1,50\np1,400,819,1,100\np2,1600,3276,1,70\np3,2000,4096,0,0\np4,800,1638,1,90\n' \
  > fw/alibaba-gpu-v2023-openb/openb_pod_list_cpu050.csv
run validate --case fgdw --traces fw --csv; expect_rc 0
expect_eq "$(grep -c ',skipped$' out.txt)" 66 "fgdw: the eleven absent lists' rows skipped"
expect_out_contains ",no alibaba-gpu-v2023-openb/openb_pod_list_cpu100.csv and openb_node_list_gpu_node.csv (FGD's data/csv),skipped"
mine=$(awk -F, '$1 == "fgdw.cpu050.best-fit.alloc_130" {print $(NF-3)}' out.txt)
run import alibaba-openb fw/alibaba-gpu-v2023-openb/openb_pod_list_cpu050.csv \
  --nodes fw/alibaba-gpu-v2023-openb/openb_node_list_gpu_node.csv --pods all --scenario-out fw.yaml -o fw.csv
expect_rc 0
run fill fw.yaml fw.csv --shuffle --seed 42-51 --policy best-fit -o fwfill -q; expect_rc 0
expect_eq "$(awk -F, '$1 == "best-fit" && $3 == 130 {printf "%.2f", $4}' fwfill/fill-mean.csv)" \
  "$(printf '%.2f' "$mine")" "fgdw's BestFit mean on cpu050 is fill's, on the same files"

# the step time against Vidur's kernel profiles: per profile and per GPU the mean error;
# without the profiles every row is skipped
expect_eq "$(grep -c '^vidur\.' table.csv)" 9 "Vidur rows"
run validate --case vidur --traces no-such-folder --csv; expect_rc 0
expect_eq "$(tail -n +2 out.txt | wc -l | tr -d ' ')" 9 "vidur rows without traces"
expect_eq "$(tail -n +2 out.txt | awk -F, '{print $NF}' | sort -u)" "skipped" "vidur without traces"
expect_out_contains "skipped: no vidur-profiles/compute/h100 profile,skipped"

# without the shared traces the Lucid and FGD rows are skipped cleanly
run validate --case lucid --traces no-such-folder --csv; expect_rc 0
expect_out_contains "lucid.median_error,"
# every row, skipped (the fits name them: a full table without the traces must stay whole)
expect_eq "$(tail -n +2 out.txt | wc -l | tr -d ' ')" 13 "lucid rows without traces"
expect_eq "$(tail -n +2 out.txt | awk -F, '{print $NF}' | sort -u)" "skipped" "lucid without traces"
run validate --case fgd --traces no-such-folder --csv; expect_rc 0
expect_eq "$(tail -n +2 out.txt | wc -l | tr -d ' ')" 13 "fgd rows without traces"
expect_eq "$(tail -n +2 out.txt | awk -F, '{print $NF}' | sort -u)" "skipped" "fgd without traces"
expect_out_contains "no alibaba-gpu-v2023-openb pod and node lists,skipped"

# -o writes the table, the scatter data and the cases' inputs, and a rerun replaces it
run validate --case colfax -o vout; expect_rc 0
expect_file vout/validate.csv; expect_file vout/validate.txt; expect_file vout/validate-scatter.csv
expect_file vout/inputs/colfax-four.yaml; expect_file vout/inputs/colfax-four.csv
run run vout/inputs/colfax-four.yaml vout/inputs/colfax-four.csv -o four -q; expect_rc 0
run validate --case colfax -o vout; expect_rc 0
mkdir userdir; echo keep > userdir/notes.txt
run validate --case colfax -o userdir; expect_rc 2; expect_err_contains "refusing to replace"
expect_file userdir/notes.txt

# the same inputs give the same table
if ! skip_repeat "validate --case queueing run twice for the same bytes"; then
  run validate --case queueing --csv; cp out.txt q1.csv
  run validate --case queueing --csv; expect_same_files out.txt q1.csv
fi

# bad usage
run validate --case nope; expect_rc 2; expect_err_contains "no such case family 'nope' (families: queueing, lucid"
# --case takes a list: those families only, in the table's order; one unknown name refuses all
run validate --case mig,colfax --csv; expect_rc 0
expect_eq "$(tail -n +2 out.txt | grep -v '^$' | cut -d. -f1 | sort -u | tr '\n' ' ')" "colfax mig " "families of --case mig,colfax"
run validate --case colfax,nope --csv; expect_rc 2; expect_err_contains "no such case family 'nope'"; expect_eq "$(wc -c < out.txt | tr -d " ")" 0 "stdout of a refused --case"
run validate extra; expect_rc 2; expect_err_contains "unexpected argument 'extra'"
run validate --case colfax --strict; expect_rc 0
# (--strict on a family with a miss: below, with --set)

# docs/models.md's validation section quotes only what validate prints (scripts/update-validation)
if [ -d "$VTRACES/lucid-asplos23" ] && [ $have_openb = yes ]; then
  sed -n '/^<!-- validate -->$/,/^<!-- \/validate -->$/p' "$TOP_SRCDIR/docs/models.md" | sed '1d;$d' > doc-block.md
  expect_same_files full.md doc-block.md
else
  skip_test "no Lucid or openb files in the traces folder: docs/models.md's validation table not compared"
fi

# --set overrides a top-level model key in every case (what scripts/sensitivity runs); a bad
# one is a usage error naming the --set, before any case runs (the defaults' value is the
# full table's)
p_base=$(awk -F, '$1 == "tally.mps.bert_p99" { print $(NF-3) }' table.csv)
expect_eq "$(test -n "$p_base" && echo found)" found "tally.mps.bert_p99 in the full table"
# with the block waits halved BERT's MPS p99 falls out of its 20 %: --strict exits 1
run validate --case tally --csv --strict --set mps_block_wait=0.54; expect_rc 1
p_low=$(awk -F, '$1 == "tally.mps.bert_p99" { print $(NF-3) }' out.txt)
if awk -v a="$p_low" -v b="$p_base" 'BEGIN { exit !(a + 0.5 < b) }'; then pass; else
  fail "mps_block_wait 0.54 should lower BERT's MPS p99 ratio: $p_low vs $p_base"; fi
expect_eq "$(awk -F, '$1 == "tally.mps.bert_p99" { print $NF }' out.txt)" no "BERT's MPS p99 misses with mps_block_wait 0.54"
run validate --case tally --set mps_block_wait=abc; expect_rc 2
expect_err_contains "sharesim validate: --set mps_block_wait: expected a number from 0 to 100, found 'abc'"
run validate --case tally --set pools.x.replicas=2; expect_rc 2
expect_err_contains "no pool named 'x'"

# ---- plot draws a validate folder: each pair set predicted against measured ----
mkdir -p vplot
printf 'set,id,measured,predicted\nlucid,p1/a,0.9,0.85\nlucid,p1/b,1.0,NaN\nfgd,130/FGD,95.39,95.32\n' > vplot/validate-scatter.csv
run plot vplot -o vplot-out --format svg; expect_rc 0
expect_file vplot-out/validate-scatter.gp
expect_eq "$(grep -v '^#' vplot-out/validate-scatter.dat | tr '\n' ';')" "1 0.9 0.85;2 95.39 95.32;" "one row per finite point, sets numbered in order"
expect_eq "$(grep -c "^series\[" vplot-out/validate-scatter.gp)" 2 "two sets named in the script"
printf 'set,id,measured,predicted\n' > vplot/validate-scatter.csv
run plot vplot -o vplot-empty --format svg; expect_rc 0
expect_err_contains "validate-scatter: validate-scatter.csv has no finite points"
# the priority queues through the simulator: nine analytic rows (issue 31 item 7)
if [ -z "$FAMILIES" ]; then
  expect_eq "$(grep -c '^priority\.' table.csv)" 9 "priority rows"
  expect_eq "$(awk -F, '/^priority\./ && $2 != "analytic"' table.csv | wc -l | tr -d ' ')" 0 "priority rows are analytic"
else
  expect_eq "$(grep -c '^priority\.' table.csv)" 0 "priority rows when --case leaves the family out"
fi
