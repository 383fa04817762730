# t-sqlite.sh: --sqlite FILE (docs/outputs.md): the same bytes at any -j and with or
# without -o, the tables of run, compare, sweep, size and plan with the CSVs' row counts,
# the three example queries of docs/outputs.md and their printed output, a FILE sharesim
# did not write (or a link, or one inside -o DIR) refused with exit 2 and left as it was, no
# temporary left. The queries need the sqlite3 CLI (skipped cleanly without it); the cell
# by cell comparison with the CSVs is tests/unit/test-reportsql.c.
A="$SCEN/baseline-exclusive.yaml"; B="$SCEN/shared-pools.yaml"; T="$TRACES/mixed-small.csv"
have_sqlite3=no; command -v sqlite3 >/dev/null 2>&1 && have_sqlite3=yes
q() { sqlite3 "$@" 2>&1; } # q FILE SQL: one query's output

# ---- compare: -j 1 into a scratch folder, -j 2 with -o: the same bytes ----
run compare "$A" "$B" "$T" -q -j 1 --no-progress --sqlite results.db
expect_rc 0
expect_file results.db
run compare "$A" "$B" "$T" -q -j 2 --no-progress -o cmp --sqlite cmp.db
expect_rc 0
expect_same_files results.db cmp.db
expect_eq "$(ls -a | grep -c '\.tmp-')" 0 "no temporary beside the databases"
expect_eq "$(ls "$TMPDIR" | grep -c sharesim-compare)" 0 "the scratch folder is removed"

if [ "$have_sqlite3" = no ]; then
  skip_test "sqlite3 (Debian package sqlite3) not installed: the database is not queried"
else
  expect_eq "$(q results.db 'PRAGMA application_id')" 1399346025 "sharesim's application_id"
  expect_eq "$(q results.db 'SELECT folder, scenario, seed FROM runs' | tr '\n' ' ')" \
    "baseline-exclusive|baseline-exclusive|1 shared-pools|shared-pools|1 " "one row per run"
  # every table of a run has the CSV's rows, and compare.csv is the table compare
  for f in cmp/shared-pools/*.csv cmp/compare.csv; do
    t=$(basename "$f" .csv | tr -c 'a-zA-Z0-9_\n' _)
    folder=$(dirname "$f" | sed 's|^cmp/*||'); folder=${folder:-.}
    expect_eq "$(q results.db "SELECT count(*) FROM \"$t\" WHERE folder = '$folder'")" \
      "$(($(wc -l < "$f") - 1))" "rows of $f"
  done
  # compare-long.csv holds every value and difference of compare.csv, a row per run
  n=$(q results.db 'SELECT count(*) FROM compare')
  expect_eq "$(q results.db "SELECT count(*) FROM compare_long l JOIN compare c ON c.key = l.key WHERE l.scenario = 'shared-pools' AND l.value IS c.\"shared-pools\" AND l.delta IS c.\"delta:shared-pools\"")" \
    "$n" "compare-long.csv: the values and differences of compare.csv"
  expect_eq "$(q results.db "SELECT count(*) FROM compare_long l JOIN compare c ON c.key = l.key WHERE l.scenario = 'baseline-exclusive' AND l.value IS c.\"baseline-exclusive\" AND l.delta IS NULL")" \
    "$n" "compare-long.csv: the baseline's values, no difference"
  # a compare-long.csv row is one run's: its scenario (column name) and seed join runs
  expect_eq "$(q results.db 'SELECT count(*) FROM compare_long l JOIN runs r ON r.folder = l.scenario AND r.seed = l.seed')" \
    "$(q results.db 'SELECT count(*) FROM compare_long')" "compare-long.csv: each row's scenario and seed are its run's"
  expect_eq "$(q results.db "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name IN ('jobs_id', 'jobs_tenant', 'jobs_pool', 'timeseries_t_start_s', 'tenants_tenant')")" \
    5 "the join columns are indexed"
  # the three queries of docs/outputs.md, each with the output printed under it
  awk '/^```sql/ { s = 1; n++; next } /^```text/ { o = 1; next } /^```/ { s = 0; o = 0; next }
       s { print > ("q" n ".sql") } o { print > ("q" n ".expected") }' "$TOP_SRCDIR/docs/outputs.md"
  expect_eq "$(ls q*.sql 2>/dev/null | wc -l)" 3 "three example queries in docs/outputs.md"
  for f in q*.sql; do
    sqlite3 -header results.db < "$f" > "${f%.sql}.out" 2>&1
    if cmp -s "${f%.sql}.out" "${f%.sql}.expected"; then pass; else
      fail "docs/outputs.md query $f: output differs"; diff "${f%.sql}.expected" "${f%.sql}.out" | head >&2; fi
  done
fi

# ---- run, --seeds, sweep, size and plan write their tables ----
printf 'name: tiny\nseed: 4\npools:\n  - {name: p, gpu: A100-80GB, nodes: 1}\n' > tiny.yaml
printf 'id,submit_s,kind,tenant,gpus,mem_gb,duration_s\nj1,0,batch,a,1,1,100\nj2,5,batch,b,1,1,50\n' > tiny.csv
run run tiny.yaml tiny.csv -q --sqlite run.db; expect_rc 0
run run tiny.yaml tiny.csv -q --seeds 2 -j 2 --sqlite seeds.db; expect_rc 0
run sweep tiny.yaml tiny.csv --set pools.p.nodes=1,2 -q --no-progress --sqlite sweep.db; expect_rc 0
run size tiny.yaml tiny.csv --pool p --max-wait-p95 1m --max 2 --no-progress --sqlite size.db; expect_rc 0
run plan "$DATA/plan/small.yaml" "$DATA/plan/small.csv" -j 2 --no-progress --sqlite plan.db; expect_rc 0
if [ "$have_sqlite3" = yes ]; then
  expect_eq "$(q run.db 'SELECT folder, scenario, seed, id FROM jobs' | tr '\n' ' ')" \
    ".|tiny|4|j1 .|tiny|4|j2 " "run: jobs with folder, scenario and seed"
  expect_eq "$(q seeds.db 'SELECT DISTINCT seed FROM jobs ORDER BY 1' | tr '\n' ' ')" "4 5 " "run --seeds: each seed's jobs"
  expect_eq "$(q seeds.db 'SELECT count(*) > 10 FROM seeds')" 1 "run --seeds: seeds.csv's figures"
  expect_eq "$(q sweep.db 'SELECT count(*) FROM sweep; SELECT count(DISTINCT folder) FROM pools' | tr '\n' ' ')" "2 2 " "sweep: sweep.csv and each point"
  expect_eq "$(q size.db "SELECT count(*) FROM size; SELECT folder FROM runs" | tr '\n' ' ')" "1 nodes-1 " "size: size.csv and its run"
  # a study's rows join their runs on scenario and seed, as the runs' own CSVs do
  expect_eq "$(q sweep.db "SELECT count(*) FROM sweep s JOIN runs r ON r.folder = 'points/' || s.point AND r.scenario = s.scenario AND r.seed = s.seed")" 2 "sweep: each row joins its point's run"
  expect_eq "$(q size.db "SELECT count(*) FROM size s JOIN runs r ON r.folder = 'nodes-' || s.nodes AND r.scenario = s.scenario AND r.seed = s.seed")" 1 "size: each row joins its run"
  expect_eq "$(q plan.db "SELECT count(*) > 0 FROM probes; SELECT folder FROM runs" | tr '\n' ' ')" "1 recommended " "plan: probes.csv and the recommended run"
fi

# ---- refused: a file sharesim did not write, a link, a FILE inside -o DIR ----
printf 'not a database\n' > other.db
run run tiny.yaml tiny.csv -q --sqlite other.db
expect_rc 2
expect_err_contains "refusing to replace other.db: it exists and is not a database sharesim wrote"
expect_eq "$(cat other.db)" "not a database" "the refused file is left as it was"
if [ "$have_sqlite3" = yes ]; then
  sqlite3 theirs.db 'CREATE TABLE t (x)'
  run compare "$A" "$B" "$T" -q --sqlite theirs.db; expect_rc 2
  expect_eq "$(q theirs.db "SELECT name FROM sqlite_master")" t "another program's database is left as it was"
fi
ln -s run.db link.db
run run tiny.yaml tiny.csv -q --sqlite link.db; expect_rc 2
expect_err_contains "it exists and is a symbolic link"
run run tiny.yaml tiny.csv -q -o out --sqlite out/x.db; expect_rc 2
expect_err_contains "cannot go inside the result folder out"
expect_no_path out
: > empty.db
run run tiny.yaml tiny.csv -q --sqlite empty.db; expect_rc 0   # empty: replaced
run run tiny.yaml tiny.csv -q --sqlite run.db; expect_rc 0     # sharesim's own: replaced
expect_same_files run.db empty.db
expect_eq "$(ls -a | grep -c '\.tmp-')" 0 "no temporary left by the refused runs"
# the modes that have no finished folder to read back are refused before any work
run run tiny.yaml tiny.csv -q --model-range --sqlite mr.db; expect_rc 2
expect_err_contains "--sqlite with --model-range reads the runs back from the result folder: give -o DIR"
run sweep tiny.yaml tiny.csv --set pools.p.nodes=1,2 -o sw --slurm --sqlite sw.db; expect_rc 2
expect_err_contains "--sqlite goes with a sweep run here or with --collect DIR"
expect_no_path sw
expect_no_path mr.db
