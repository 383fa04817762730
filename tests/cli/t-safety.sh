# t-safety.sh: the safety guarantees of issue 14 against the real binary, one block per
# reproducer: deep JSON refused before parsing (D01), import -o writes regular files only
# (D02), -o replaces only folders sharesim wrote (D03), stdout write errors are exit 1
# (D09), import outputs honour the umask (D14).
ONE="$DATA/trace/one-pool.yaml"; SMALL="$DATA/trace/small.csv"
A="$DATA/study/study-a.yaml"; B="$DATA/study/study-b.yaml"; T="$DATA/study/study.csv"
DCGM="$DATA/import/dcgm-range.json"

# ---- D01: JSON nested 75,000 deep: exit 2 with file:line:col, no crash, nothing left ----
awk 'BEGIN { for (i = 0; i < 75000; i++) printf "["; for (i = 0; i < 75000; i++) printf "]"; print "" }' > deep.json
run import dcgm deep.json -o out.csv
expect_rc 2
expect_err_contains "deep.json:1:257: JSON nested deeper than 256 levels"
expect_no_path out.csv
expect_eq "$(ls -A | grep -c 'tmp-')" 0 "no temporary left by the refused import"
run run "$ONE" "$SMALL" -o a -q
expect_rc 0
cp -r a b && cp deep.json b/summary.json
run compare a b
expect_rc 2
expect_err_contains "b/summary.json:1:257: JSON nested deeper than 256 levels"
run plot b -o pl
expect_rc 2
expect_err_contains "b/summary.json:1:257:"
expect_no_path pl
mkdir sw && cp deep.json sw/sweep.json
run sweep --collect sw
expect_rc 2
expect_err_contains "sw/sweep.json:1:257:"
# a deep compare.json read back by compare DIR
mkdir cmpdeep && cp deep.json cmpdeep/compare.json
run compare cmpdeep
expect_rc 2
expect_err_contains "cmpdeep/compare.json:1:257:"

# ---- D02: -o never replaces a symbolic link or a device ----
echo keep > target; ln -s target link
run import dcgm "$DCGM" -o link
expect_rc 2
expect_err_contains "refusing to write link: it exists and is a symbolic link"
expect_eq "$(readlink link)" "target" "the link is still a link"
expect_eq "$(cat target)" "keep" "its target untouched"
# a private copy of /dev/null (never the system one, which a regression would replace)
if mknod -m 666 null c 1 3 2>/dev/null; then
  run import dcgm "$DCGM" -o null
  expect_rc 2
  expect_err_contains "refusing to write null: it exists and is a device"
  expect_eq "$(ls -l null | cut -c1)" "c" "the device node is still a device"
else
  skip_test "mknod refused (not root): device target not tried"
fi
mkfifo fifo 2>/dev/null && {
  run import dcgm "$DCGM" --phases-out fifo -o t.csv
  expect_rc 2
  expect_err_contains "refusing to write fifo: it exists and is a FIFO"
  expect_no_path t.csv
}
expect_eq "$(ls -A | grep -c 'tmp-')" 0 "no temporary left by the refused imports"
# a regular file is replaced as before
echo old > t.csv
run import dcgm "$DCGM" -o t.csv
expect_rc 0
expect_eq "$(head -1 t.csv | cut -c1-3)" "id," "the trace replaced the old file"

# ---- D03: a folder is replaced only when sharesim wrote it (its marker) ----
mkdir -p proj/src; echo '{"accuracy": 0.91}' > proj/summary.json; echo thesis > proj/thesis.tex
echo 'int main(){}' > proj/src/main.c
mkdir cmp; echo '{}' > cmp/compare.json; echo notes > cmp/notes.md
mkdir sz; echo x > sz/size.csv; echo precious > sz/precious.txt
run run "$ONE" "$SMALL" -o proj -q
expect_rc 2
expect_err_contains "refusing to replace proj: it exists and is not a sharesim result folder (no .sharesim-folder marker)"
run compare "$A" "$B" "$T" -o cmp --no-progress
expect_rc 2
expect_err_contains "refusing to replace cmp"
run size "$A" "$T" --pool train --max 2 --no-progress -o sz
expect_rc 2
expect_err_contains "refusing to replace sz"
expect_eq "$(cat proj/thesis.tex proj/src/main.c cmp/notes.md sz/precious.txt | tr '\n' ' ')" \
  "thesis int main(){} notes precious " "the users' files are all still there"
expect_eq "$(ls -A | grep -c 'tmp-\|old-')" 0 "no temporary left by the refusals"
# the marker: format version and command; a folder of another command is refused
expect_eq "$(cat a/.sharesim-folder | tr '\n' ' ')" "sharesim-folder 1 command run " "marker of run"
run compare "$A" "$B" "$T" -o a --no-progress
expect_rc 2
expect_err_contains "refusing to replace a: it holds the output of 'sharesim run', not of 'sharesim compare'"
expect_file a/summary.json
run run "$ONE" "$SMALL" -o a -q
expect_rc 0

# ---- D09, S3-17: a stdout that cannot be written is exit 1 with one message and its reason,
# from every command and every --help (GOption's own --help exited 0 past the check) ----
if [ -w /dev/full ]; then
  helps=""
  for c in $("$SHARESIM" --help | awk '/^Commands:/ { on = 1; next } on && NF { print $1 } !NF { on = 0 }'); do
    helps="$helps|$c --help"
  done
  IFS='|'; set -- "run $ONE $SMALL" "run $ONE $SMALL --seeds 2 -j 1" "compare $A $B $T --no-progress" \
    "catalog" "check $A $T" "sweep $A $T --set seed=1,2 -j 1 -o swfull --format csv --no-progress" \
    "import dcgm $DCGM" "gen --profile mixed --jobs 2000" "validate --case colfax" "--help" \
    "import --help" "import dcgm --help" "run -h" ${helps#|}; unset IFS
  # one per command of the table (a new command is one more): the list was read
  expect_eq "$([ "$(echo "$helps" | tr '|' '\n' | grep -c -- '--help')" -ge 13 ] && echo yes)" yes \
    "a --help per command of --help's list (13 or more)"
  for args in "$@"; do
    "$SHARESIM" $args >/dev/full 2>err.txt </dev/null; RC=$?; LAST="sharesim $args > /dev/full"
    expect_rc 1
    expect_err_contains "cannot write the output (stdout): No space left on device"
    expect_eq "$(grep -c . err.txt)" 1 "one message"
  done
else
  skip_test "/dev/full is not writable here"
fi

# ---- D14: import outputs get the umask's mode like every other output ----
rm -f t.csv ph.csv
(umask 022; "$SHARESIM" import dcgm "$DCGM" -o t.csv --phases-out ph.csv 2>/dev/null)
expect_eq "$(stat -c %a t.csv ph.csv | tr '\n' ' ')" "644 644 " "umask 022 gives 0644"
rm -f t.csv
(umask 077; "$SHARESIM" import dcgm "$DCGM" -o t.csv 2>/dev/null)
expect_eq "$(stat -c %a t.csv)" "600" "umask 077 gives 0600"

# ---- issue 29 (S3-14): a result folder holding the command's own inputs is never replaced ----
mkdir -p own && cp "$ONE" own/sc.yaml && cp "$SMALL" own/t.csv
run run own/sc.yaml own/t.csv -o own -q
expect_rc 2   # not a result folder yet: refused as before
run run "$ONE" "$SMALL" -o r14 -q; expect_rc 0
cp "$ONE" r14/sc.yaml; cp "$SMALL" r14/t.csv; echo notes > r14/notes.txt
run run r14/sc.yaml r14/t.csv -o r14 -q
expect_rc 2
expect_err_contains "refusing to replace r14: it holds r14/"
expect_err_contains "an input of this command"
expect_eq "$(ls r14/sc.yaml r14/t.csv r14/notes.txt | wc -l | tr -d ' ')" 3 "inputs and notes kept"
expect_eq "$(ls -A | grep -c 'r14\.')" 0 "no temporary left beside r14"

# ---- issue 29 (S3-18): outputs compared with inputs by device and inode, not by spelling ----
cp "$DATA/import/dcgm-range.json" in.json && cp in.json in.orig
run import dcgm ./in.json -o in.json; expect_rc 2
expect_err_contains "output 'in.json' is also an input file"
expect_same_files in.json in.orig
ln -s in.json link.json
run import dcgm link.json -o in.json; expect_rc 2
expect_same_files in.json in.orig
run import dcgm in.json -o t18.csv --phases-out ./t18.csv; expect_rc 2
expect_err_contains "--phases-out and -o name the same file"
run run "$ONE" "$SMALL" -o r18 -q; expect_rc 0
cp r18/summary.json sum.orig
run report r18 -o r18/summary.json; expect_rc 2
expect_err_contains "refusing to write r18/summary.json: it is a file this command reads"
expect_same_files r18/summary.json sum.orig

# ---- issue 29 (S3-13): concurrent writers to one -o: all succeed, one complete folder, nothing left ----
# (a bounded loop: 6 rounds of 4 writers; before, 23 of 40 such rounds had a writer fail)
bad=0
for round in 1 2 3 4 5 6; do
  rm -rf cc cc.*
  pids=
  for s in 1 2 3 4; do "$SHARESIM" run "$ONE" "$SMALL" --set seed=$s -o cc -q 2>> cc-err.txt & pids="$pids $!"; done
  for p in $pids; do wait $p || bad=$((bad + 1)); done
  [ -f cc/summary.json ] || bad=$((bad + 1))
  bad=$((bad + $(ls -A | grep -cE '^cc\.(tmp|old)-')))
done
LAST="4 concurrent run -o cc, 6 rounds"
expect_eq "$bad" 0 "every writer exited 0, one complete folder, no temporary ($(head -c 300 cc-err.txt))"
