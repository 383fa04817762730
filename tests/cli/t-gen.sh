# t-gen.sh: `sharesim gen`: reproducible output, profile listing, option errors (exit 2).
run gen --profile mixed --jobs 100 --seed 3; expect_rc 0; expect_err_empty
cp out.txt a.csv
run gen --profile mixed --jobs 100 --seed 3; expect_rc 0
cp out.txt b.csv
expect_same_files a.csv b.csv
expect_eq "$(wc -l < a.csv | tr -d ' ')" 101 "header plus 100 rows"
expect_eq "$(head -1 a.csv | cut -d, -f1)" id "first header column"
run gen --profile mixed --jobs 100 --seed 4; expect_rc 0
if cmp -s a.csv out.txt; then fail "seed 4 gave the same trace as seed 3"; else pass; fi

# submit times are sorted (column found by name)
col=$(head -1 a.csv | tr ',' '\n' | grep -n '^submit_s$' | cut -d: -f1)
if tail -n +2 a.csv | cut -d, -f"$col" | sort -c -g 2>/dev/null; then pass; else fail "submit_s not sorted"; fi

# the mix is honoured: training only
run gen --profile mixed --jobs 50 --mix training=1; expect_rc 0
kcol=$(head -1 out.txt | tr ',' '\n' | grep -n '^kind$' | cut -d: -f1)
expect_eq "$(tail -n +2 out.txt | cut -d, -f"$kcol" | sort -u)" training "kinds with --mix training=1"

run gen --profile list; expect_rc 0; expect_out_contains "mixed"
run gen --help; expect_rc 0; expect_out_contains "--profile"

run gen; expect_rc 2; expect_err_contains "--profile is required"
run gen --profile nope; expect_rc 2; expect_err_contains "unknown profile 'nope'; valid profiles: mixed"
run gen --profile mixed --gpus 0; expect_rc 2; expect_err_contains "--gpus: expected a whole number from 1 to"
run gen --profile mixed --gpus 12x; expect_rc 2; expect_err_contains "found '12x'"
run gen --profile mixed --days -1; expect_rc 2; expect_err_contains "--days: expected"
run gen --profile mixed --load 0; expect_rc 2; expect_err_contains "--load: expected a number above 0"
run gen --profile mixed --jobs 0; expect_rc 2; expect_err_contains "--jobs: expected"
run gen --profile mixed --seed -3; expect_rc 2; expect_err_contains "--seed: expected"
run gen --profile mixed --tenants 0; expect_rc 2; expect_err_contains "--tenants: expected"
run gen --profile mixed --mix gpu=1; expect_rc 2; expect_err_contains "unknown kind 'gpu'"
run gen --profile mixed --mix training=0; expect_rc 2; expect_err_contains "at least one share"
run gen --profile mixed --no-such-flag; expect_rc 2
run gen --profile mixed stray; expect_rc 2; expect_err_contains "unexpected argument 'stray'"
expect_eq "$(wc -c < out.txt | tr -d ' ')" 0 "nothing on stdout after an error"

# a write error is a runtime failure (exit 1), when /dev/full exists
if [ -w /dev/full ]; then
  "$SHARESIM" gen --profile mixed --jobs 20000 >/dev/full 2>err.txt; RC=$?; LAST="gen > /dev/full"
  expect_rc 1; expect_err_contains "sharesim gen: cannot write the output (stdout): No space left"
else
  skip_test "no /dev/full"
fi

# the bundled trace is what its README command makes
if [ -f "$TRACES/mixed-small.csv" ]; then
  cmdline=$(grep -o 'sharesim gen --profile mixed[^`]*> traces/mixed-small.csv' "$TRACES/README.md" | head -1 | sed 's/^sharesim //; s/ > traces\/mixed-small.csv$//')
  if [ -n "$cmdline" ]; then
    run $cmdline; expect_rc 0; expect_same_files out.txt "$TRACES/mixed-small.csv"
  else
    fail "traces/README.md lacks the command for mixed-small.csv"
  fi
fi

# every profile of the table (`gen --profile list`: a new one is tested by its row) makes a
# trace that sharesim accepts, the same bytes for the same seed
run gen --profile list; expect_rc 0
profiles=$(awk 'NR > 1 && NF > 1 { print $1 }' out.txt)
expect_eq "$([ "$(echo $profiles | wc -w)" -ge 5 ] && echo yes)" yes "gen --profile list: 5 or more profiles ($(echo $profiles))"
for prof in $profiles; do
  run gen --profile "$prof" --jobs 60 --seed 4
  expect_rc 0
  cp out.txt "p-$prof.csv"
  expect_eq "$(grep -c '' "p-$prof.csv")" "61" "$prof: header and 60 rows"
  run gen --profile "$prof" --jobs 60 --seed 4
  expect_same_files out.txt "p-$prof.csv"
  printf 'name: any\npools:\n  - name: p\n    gpu: A100-80GB\n    nodes: 16\n    gpus_per_node: 8\n    strategy: exclusive\n' > any.yaml
  run check any.yaml "p-$prof.csv"
  expect_rc 0
done
