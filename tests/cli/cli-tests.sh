#!/bin/sh
# cli-tests.sh: runs every tests/cli/t-*.sh against the real binary, each in a fresh
# temporary folder, and prints "N passed, N failed" at the end. Exit 1 if any check failed.
: "${SHARESIM:?SHARESIM must point at the built binary}"
: "${TOP_SRCDIR:?TOP_SRCDIR must point at the source tree}"
DATA="$TOP_SRCDIR/tests/data"; SCEN="$TOP_SRCDIR/scenarios"; TRACES="$TOP_SRCDIR/traces"
SHARED_TRACES="$TOP_SRCDIR/../shared/traces"
export SHARESIM TOP_SRCDIR DATA SCEN TRACES SHARED_TRACES
total_pass=0; total_fail=0; total_skip=0
# one folder for the whole run, removed at the end: each test runs in its own sub-folder
# and gets another one as TMPDIR, so that whatever sharesim or a test puts in the temporary
# folder (sweep logs, compare scratch folders, mktemp) goes away with it (issue 14 D16)
root=$(mktemp -d "${TMPDIR:-/tmp}/sharesim-cli.XXXXXX") || exit 1
trap 'rm -rf "$root"' EXIT
for t in "$TOP_SRCDIR"/tests/cli/t-*.sh; do
  [ -f "$t" ] || continue
  dir="$root/$(basename "$t" .sh)"
  mkdir "$dir" "$dir.tmp" || exit 1
  res=$(cd "$dir" && TMPDIR="$dir.tmp" TEST_NAME=$(basename "$t" .sh) PASSED=0 FAILED=0 SKIPPED=0 sh -c '. "$TOP_SRCDIR/tests/cli/lib.sh"; . "$1"; echo "$PASSED $FAILED $SKIPPED"' sh "$t" | tail -1)
  set -- $res
  p=${1:-0}; f=${2:-1}; s=${3:-0}
  echo "$(basename "$t"): $p passed, $f failed, $s skipped"
  total_pass=$((total_pass + p)); total_fail=$((total_fail + f)); total_skip=$((total_skip + s))
  rm -rf "$dir" "$dir.tmp"
done
echo "cli: $total_pass passed, $total_fail failed, $total_skip skipped"
[ "$total_fail" -eq 0 ]
