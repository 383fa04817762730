# t-docs.sh: every row of the registration tables has its documentation, read back from the
# binary itself: subcommands in README.md's command table, import formats and generator
# profiles in docs/traces.md, sharing strategies, placement policies and workload kinds in
# docs/models.md, the charts of `plot` in docs/studies.md, every file of the result file
# table (`run --list-files`) in README.md's list of result files, and every scenario key
# the program declares (`check --list-keys`) in a table of docs/scenario-format.md with its
# default and owners.
DOCS="$TOP_SRCDIR/docs"
has_doc() { # has_doc WHAT FIXED-STRING FILE...
  what=$1; str=$2; shift 2
  if grep -qF -- "$str" "$@"; then pass; else fail "$what: no '$str' in $*"; fi
}
at_least() { # at_least N WHAT LIST
  if [ "$(echo $3 | wc -w)" -ge "$1" ]; then pass; else fail "$2: read only '$3' from the binary"; fi
}

run --help; expect_rc 0
cmds=$(sed -n '/^Commands:/,/^$/p' out.txt | awk 'NF > 1 && $1 != "Commands:" { print $1 }')
at_least 9 "subcommands" "$cmds"
for c in $cmds; do has_doc "subcommand $c" "| \`sharesim $c" "$TOP_SRCDIR/README.md"; done

run import list; expect_rc 0
formats=$(sed -n '/^Formats:/,$p' out.txt | awk 'NF > 1 && $1 != "Formats:" { print $1 }')
at_least 4 "import formats" "$formats"
for f in $formats; do
  if grep -E "^#+ .*\`$f\`" "$DOCS/traces.md" >/dev/null; then pass; else
    fail "import format $f: no heading naming \`$f\` in docs/traces.md"; fi
done

run gen --profile no-such-profile; expect_rc 2
profiles=$(sed -n 's/.*valid profiles: //p' err.txt | tr -d ,)
at_least 5 "gen profiles" "$profiles"
for p in $profiles; do has_doc "gen profile $p" "### The \`$p\` profile" "$DOCS/traces.md"; done

printf 'name: d\npools:\n  - {name: p, gpu: A100-80GB, nodes: 1, strategy: no-such}\n' > s.yaml
run check s.yaml; expect_rc 2
strategies=$(sed -n 's/.*expected one of \([^,]*\), found.*/\1/p' err.txt | tr -d '|')
at_least 6 "strategies" "$strategies"
for s in $strategies; do has_doc "strategy $s" "(\`strategy: $s\`" "$DOCS/models.md"; done

# placement policies: each a row of the table in docs/models.md's "Placement policies"
printf 'name: d\npools:\n  - {name: p, gpu: A100-80GB, nodes: 1, placement: no-such}\n' > pl.yaml
run check pl.yaml; expect_rc 2
policies=$(sed -n 's/.*placement: expected one of \([^,]*\), found.*/\1/p' err.txt | tr -d '|')
at_least 6 "placement policies" "$policies"
awk '/^### Placement policies/ { on = 1; next } on && /^#/ { on = 0 } on && /^\|/' "$DOCS/models.md" | cut -d'|' -f2 > policy-rows.txt
for p in $policies; do has_doc "placement policy $p" "\`$p\`" policy-rows.txt; done

# scenario keys: each key the program declares (a model's constant, a strategy's or a
# placement policy's pool key: check --list-keys gives name, default, owners, doc) has a
# table row in docs/scenario-format.md whose first cell names it, giving its default in
# the table's "default" column and, for a pool key, each strategy or policy that owns it in
# its second cell
run check --list-keys; expect_rc 0
cp out.txt keys.txt
at_least 40 "declared scenario keys" "$(cut -f1 keys.txt)"
tab=$(printf '\t')
while IFS="$tab" read -r key def owners doc; do
  # the row's owners cell, then its default cell (the column its table's header names so;
  # an escaped \| inside a cell is no column)
  row=$(awk -F'|' -v k="\`$key\`" '{ gsub(/\\\|/, "/") } /^\| key \|/ { dc = 0; for (i = 2; i <= NF; i++) if ($i ~ /^ *default *$/) dc = i }
    /^\|/ && index($2, k) { print $3; print (dc ? $dc : ""); exit }' "$DOCS/scenario-format.md" | tr -d '`*')
  if [ -z "$row" ]; then fail "key $key: no table row naming \`$key\` in docs/scenario-format.md"; continue; fi
  re=$(printf '%s' "$def" | sed 's/[].[\\*^$/+?(){}|]/\\&/g')
  if echo "$row" | sed -n 2p | grep -qE "(^|[ (,;:])$re([ ),;.:]|\$)"; then pass
  else fail "key $key: its default in docs/scenario-format.md is not '$def': $(echo "$row" | sed -n 2p)"; fi
  case $owners in *" "*) names=${owners#* } ;; *) names= ;; esac # "strategy a b": a, b
  cell=$(echo "$row" | sed -n 1p | tr -d ' ' | sed 's/^/,/; s/$/,/')
  for o in $names; do
    case $cell in *",$o,"*) pass ;; *) fail "key $key: its row in docs/scenario-format.md does not name its owner $o";; esac
  done
done < keys.txt

printf 'name: d\npools:\n  - {name: p, gpu: A100-80GB, nodes: 1}\n' > ok.yaml
printf 'id,submit_s,kind,gpus,mem_gb,duration_s\nj,0,no-such,1,1,10\n' > bad.csv
run check ok.yaml bad.csv; expect_rc 2
kinds=$(sed -n 's/.*expected one of \([^(]*\)[(,].*/\1/p' err.txt | head -1 | tr -d ',|')
at_least 4 "workload kinds" "$kinds"
for k in $kinds; do
  if grep -iE "^### $k( |$)" "$DOCS/models.md" >/dev/null; then pass; else
    fail "workload kind $k: no '### $k' section in docs/models.md"; fi
done

# the result files: the table (run --list-files: name, format, kind, when, what), each named
# in README.md's list of the files `run -o DIR` writes; a plain run writes those that are
# always on and need no row of their own (if-rows: llm.csv without an LLM service)
run run --list-files; expect_rc 0
files=$(cut -f1 out.txt)
at_least 10 "result files" "$files"
for f in $files; do has_doc "result file $f" "\`$f\`" "$TOP_SRCDIR/README.md"; done
plain=$(awk -F'\t' '$4 == "always" { print $1 }' out.txt | sort | tr '\n' ' ')
printf 'id,submit_s,kind,gpus,mem_gb,duration_s\nj,0,batch,1,1,10\n' > t.csv
run run ok.yaml t.csv -o out -q; expect_rc 0
expect_eq "$(ls out | sort | tr '\n' ' ')" "$plain" "a plain run writes the table's always-on files"

# docs/outputs.md's table of the result CSVs: every CSV of the result file table has its row,
# and its columns are the header of that file as a run writes it, after scenario,seed
run run --list-files; expect_rc 0
csvs=$(awk -F'\t' '$2 == "csv" { print $1 }' out.txt)
printf 'name: docs\nseed: 5\npools:\n  - {name: p, gpu: H100-80GB, nodes: 1, gpus_per_node: 2}\n' > all.yaml
printf 'id,submit_s,kind,gpus,mem_gb,duration_s,rate_rps,service_ms,model\nb,0,batch,1,1,60,,,\nbig,0,batch,4,1,60,,,\nchat,0,inference,1,0,60,1,,llama-3-8b\n' > all.csv
run run all.yaml all.csv -q --dcgm -o all; expect_rc 0
for f in $csvs; do
  want=$(sed -n "s/^| \`$f\` | \`\([^\`]*\)\` |$/\1/p" "$DOCS/outputs.md")
  expect_eq "$(head -1 "all/$f" 2>/dev/null)" "scenario,seed,$want" "docs/outputs.md: the columns of $f"
  expect_eq "$(sed -n 2p "all/$f" | cut -d, -f1,2)" "docs,5" "$f: a row begins with its scenario and seed"
done

run plot --help; expect_rc 0
charts=$(sed -n 's/^Charts of a result folder: \(.*\) (each when.*/\1/p' out.txt | tr -d ,)
at_least 10 "charts" "$charts"
for c in $charts; do has_doc "chart $c" "\`$c\`" "$DOCS/studies.md"; done

# ---- sources: the docs cite published sources ([Sxx] of docs/sources.md), never the team's
# fact sheet or the material beside the checkout (issue 15, item 11) ----
man="$(dirname "$SHARESIM")/sharesim.1"
user_docs="$TOP_SRCDIR/README.md $DOCS/*.md $TOP_SRCDIR/traces/README.md $TOP_SRCDIR/scenarios/*.yaml $TOP_SRCDIR/scenarios/nvidia/*"
[ -f "$man" ] && user_docs="$user_docs $man"
bad=$(grep -n -E 'gpu-facts|\.\./shared|shared/(traces|docs)|SPEC [0-9]' $user_docs)
if [ -z "$bad" ]; then pass; else fail "user docs point at files the project does not ship: $(echo "$bad" | head -3)"; fi
bad=$(grep -rn 'gpu-facts' "$TOP_SRCDIR/HACKING.md" "$TOP_SRCDIR/src" "$TOP_SRCDIR/tests/unit")
if [ -z "$bad" ]; then pass; else fail "HACKING or code cites gpu-facts instead of [Sxx]: $(echo "$bad" | head -3)"; fi
sed -n 's/^\* \[\(S[0-9][0-9]*\)\] .*/\1/p' "$DOCS/sources.md" | sort -u > defined.txt
at_least 40 "sources defined in docs/sources.md" "$(cat defined.txt)"
grep -rhoE '\[S[0-9]+\]' $user_docs "$TOP_SRCDIR/HACKING.md" "$TOP_SRCDIR/src" | tr -d '[]' | sort -u > cited.txt
at_least 30 "sources cited" "$(cat cited.txt)"
undefined=$(comm -23 cited.txt defined.txt | tr '\n' ' ')
if [ -z "$undefined" ]; then pass; else fail "cited but not defined in docs/sources.md: $undefined"; fi
# each defined source names where to read it (an address), or says why it has none
for s in $(cat defined.txt); do
  entry=$(awk -v tag="* [$s] " 'index($0, tag) == 1 { on = 1; print; next } on && /^\* \[|^$|^#/ { on = 0 } on' "$DOCS/sources.md")
  case "$entry" in *http*|*"no stable address"*|*"Captured"*) pass ;; *)
    if grep -q "^\* \[$s\] .*-lgip" "$DOCS/sources.md"; then pass; else fail "docs/sources.md: [$s] gives no address"; fi ;; esac
done

# ---- numbers that cannot go stale (issue 30, item 5): README's demo block is what the
# binary prints now: the baseline's summary and the comparison of the demo's runs, rerun
# here the way scripts/demo runs them (scripts/update-readme regenerates the block); the
# study block likewise (scripts/update-study) ----
awk '/<!-- demo-output -->/,/<!-- \/demo-output -->/' "$TOP_SRCDIR/README.md" > demo-block.txt
demo_runs=""; mkdir demo
for name in baseline-exclusive shared-pools three-pools nvidia/from-nvidia-configs; do
  out=demo/${name##*/}
  "$SHARESIM" run "$TOP_SRCDIR/scenarios/$name.yaml" "$TRACES/mixed-small.csv" -o "$out" > "$out.txt" 2>&1
  demo_runs="$demo_runs $out"
done
# the baseline's summary lines (from "sharesim: scenario" to the pool table's last row)
sed -n '/^sharesim: scenario/,/^results written/p' demo/baseline-exclusive.txt | sed '$d' > run-now.txt
sed -n '/^sharesim: scenario .baseline-exclusive/,/^results written/p' demo-block.txt | sed '$d' > run-doc.txt
expect_eq "$([ "$(grep -c '' run-doc.txt)" -ge 10 ] && echo yes)" "yes" "summary lines in README's demo block"
expect_same_files run-doc.txt run-now.txt
run compare $demo_runs
expect_rc 0
sed -n '/^compare: /,/^```/p' demo-block.txt | sed '$d' > compare-doc.txt
expect_eq "$([ "$(grep -c '' compare-doc.txt)" -ge 20 ] && echo yes)" "yes" "compare lines in README's demo block"
expect_same_files compare-doc.txt out.txt
# scripts/demo lists the plots once: plot's own list of the files it drew (it printed that
# list and then the same files found again, issue 30)
expect_eq "$(grep -c '"$sharesim" plot ' "$TOP_SRCDIR/scripts/demo")" "1" "the demo runs plot once"
expect_eq "$(grep -cE '^[^#]*(find|ls) .*DEMO_OUT.*(png|svg)' "$TOP_SRCDIR/scripts/demo")" "0" "the demo does not list plot's files a second time"
# README's study block (scripts/update-study: compare of the four study scenarios on the
# bundled trace, --brief) is what compare prints now on the same runs
"$SHARESIM" run "$TOP_SRCDIR/scenarios/exclusive-lean.yaml" "$TRACES/mixed-small.csv" -o demo/exclusive-lean -q > /dev/null 2>&1
run compare demo/baseline-exclusive demo/exclusive-lean demo/shared-pools demo/three-pools --brief
expect_rc 0
awk '/^$/ { blank++; next } { while (blank > 0) { print ""; blank-- } print }' out.txt > study-now.txt
awk '/<!-- study -->/,/<!-- \/study -->/' "$TOP_SRCDIR/README.md" | sed -n '/^compare: /,/^```/p' | sed '$d' > study-doc.txt
expect_eq "$([ "$(grep -c '' study-doc.txt)" -ge 30 ] && echo yes)" "yes" "compare lines in README's study block"
expect_same_files study-doc.txt study-now.txt
# docs/traces.md describes the bundled DCGM example as it imports, and its timestamps are
# whole numbers, not awk's %g (1.71458e+09)
run import dcgm "$TRACES/dcgm-example.csv" -o dcgm-ex.csv
expect_rc 0
pods=$(sed -n 's/.* samples of \([0-9]*\) pods: \([0-9]*\) notebook, \([0-9]*\) inference, 0 training, \([0-9]*\) batch.*/\1 \2 \3 \4/p' err.txt)
expect_eq "$pods" "13 8 1 4" "the example's pods by kind"
expect_eq "$(grep -c '13 pods on 3 of' "$DOCS/traces.md")" "1" "docs/traces.md: the example's pods"
expect_eq "$(grep -c 'e+0' "$TRACES/dcgm-example.csv" "$TRACES/dcgm-example.json" | grep -vc ':0$')" "0" "no %g timestamps in the example"
