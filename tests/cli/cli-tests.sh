#!/bin/sh
# cli-tests.sh: runs every tests/cli/t-*.sh against the real binary, each in a fresh
# temporary folder, CLI_JOBS of them at a time (default 2), and prints per file, in name
# order, "t-NAME.sh: N passed, N failed, N skipped (wall s, CPU s)", then the total line
# "cli: N passed, N failed, N skipped". Exit 1 if any check failed.
# CLI_TESTS="t-seeds t-run" runs only those files (for development; the total says so).
: "${SHARESIM:?SHARESIM must point at the built binary}"
: "${TOP_SRCDIR:?TOP_SRCDIR must point at the source tree}"
DATA="$TOP_SRCDIR/tests/data"; SCEN="$TOP_SRCDIR/scenarios"; TRACES="$TOP_SRCDIR/traces"
SHARED_TRACES="$TOP_SRCDIR/../shared/traces"
export SHARESIM TOP_SRCDIR DATA SCEN TRACES SHARED_TRACES
jobs=${CLI_JOBS:-2}
case $jobs in ''|*[!0-9]*|0) echo "cli-tests.sh: CLI_JOBS '$jobs': expected a whole number from 1" >&2; exit 2 ;; esac
# one folder for the whole run, removed at the end: each test runs in its own sub-folder
# and gets another one as TMPDIR, so that whatever sharesim or a test puts in the temporary
# folder (sweep logs, compare scratch folders, mktemp) goes away with it (issue 14 D16)
root=$(mktemp -d "${TMPDIR:-/tmp}/sharesim-cli.XXXXXX") || exit 1
trap 'rm -rf "$root"' EXIT

# The files that take longest (wall seconds in CI, HACKING.md "Tests") start first, so that
# the runners finish close together; the others follow in name order. Which ones are long
# depends on the stage: the check stage runs the repeats (SHARESIM_SKIP_REPEATS unset), the
# sanitizer build runs every program about three times slower.
if [ -n "${SHARESIM_SKIP_REPEATS:-}" ]; then
  first="t-reference t-report t-constants t-validate t-study t-import t-plan t-fill t-hostile t-run
         t-faults t-modelrange t-sqlite t-slurm t-seeds t-docs"
else
  first="t-constants t-fill t-validate t-report t-reference t-modelrange t-plan t-slurm t-study
         t-checks t-import t-faults t-sqlite t-docs t-hostile t-run"
fi
all=$(cd "$TOP_SRCDIR/tests/cli" && ls t-*.sh | sed 's/\.sh$//')
if [ -n "${CLI_TESTS:-}" ]; then all=$CLI_TESTS; fi
order=""
for n in $first; do case " $(echo $all) " in *" $n "*) order="$order $n" ;; esac; done
for n in $all; do case " $order " in *" $n "*) ;; *) order="$order $n" ;; esac; done

# cli_one NAME: runs tests/cli/NAME.sh in its folders; writes NAME.res ("P F S wall cpu")
# and NAME.err (its FAIL and SKIP lines) into the run's folder
cli_one() {
  name=$1 t="$TOP_SRCDIR/tests/cli/$1.sh" dir="$root/$1"
  mkdir "$dir" "$dir.tmp" || { echo "0 1 0 0 ?" > "$root/$name.res"; return; }
  start=$(date +%s)
  res=$( (cd "$dir" && TMPDIR="$dir.tmp" TEST_NAME=$name PASSED=0 FAILED=0 SKIPPED=0 \
            sh -c '. "$TOP_SRCDIR/tests/cli/lib.sh"; . "$1"; echo "$PASSED $FAILED $SKIPPED"' sh "$t" \
            2>"$root/$name.err" | tail -1
          # the CPU time of the test and of everything it waited for (the second line of
          # times, which must run in this shell, not in a pipeline)
          times > "$root/$name.times") )
  cpu=$(awk 'NR == 2 { n = split($0, f, /[ms ]+/); s = 0
               for (i = 1; i < n; i += 2) s += f[i] * 60 + f[i + 1]; printf "%.1f", s }' "$root/$name.times")
  echo "${res:-0 1 0} $(($(date +%s) - start)) ${cpu:-?}" > "$root/$name.res"
  rm -rf "$dir" "$dir.tmp"
}
# a runner takes the next file nobody has claimed (mkdir is atomic) until none is left
cli_runner() {
  for n in $order; do
    mkdir "$root/$n.claim" 2>/dev/null || continue
    cli_one "$n"
  done
}
i=0
while [ $i -lt "$jobs" ]; do cli_runner & i=$((i + 1)); done
wait

total_pass=0; total_fail=0; total_skip=0
for n in $(echo $order | tr ' ' '\n' | sort); do
  [ -f "$root/$n.err" ] && cat "$root/$n.err" >&2
  set -- $(cat "$root/$n.res" 2>/dev/null)
  p=${1:-0}; f=${2:-1}; s=${3:-0}
  echo "$n.sh: $p passed, $f failed, $s skipped (${4:-?} s, ${5:-?} CPU s)"
  total_pass=$((total_pass + p)); total_fail=$((total_fail + f)); total_skip=$((total_skip + s))
done
[ -n "${CLI_TESTS:-}" ] && echo "(CLI_TESTS: only$order)"
echo "cli: $total_pass passed, $total_fail failed, $total_skip skipped"
[ "$total_fail" -eq 0 ]
