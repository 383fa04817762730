#!/bin/sh
# check-tmp-clean.sh: the unit tests leave nothing in the temporary folder (issue 14 D16).
# Runs the suites that make temporary files and folders (sim through tu_write_temp, the
# study and report suites through g_dir_make_tmp) with TMPDIR set to an empty folder, then
# fails if anything is left in it.
: "${SHARESIM:?SHARESIM must point at the built binary}"
UNIT=$(dirname "$SHARESIM")/tests/unit/unit-tests
if [ ! -x "$UNIT" ]; then echo "SKIP: no unit-test binary (Criterion missing)"; exit 77; fi
# the sanitizer and distcheck stages (scripts/test) run these suites in unit-tests already;
# what they leave in TMPDIR does not depend on the build, so this runs in the check stage
if [ -n "${SHARESIM_SKIP_REPEATS:-}" ]; then
  echo "SKIP: SHARESIM_SKIP_REPEATS: the unit suites' TMPDIR check runs in the check stage"; exit 77
fi
root=$(mktemp -d "${TMPDIR:-/tmp}/sharesim-tmpcheck.XXXXXX") || exit 1
rc=0
# (not plot: its gnuplot-injection test embeds the folder path in names cut at 200 characters)
for suite in sim sweep sizing compare reports gen figures; do
  if ! TMPDIR=$root "$UNIT" --filter "$suite/*" -j2 >"$root.log" 2>&1; then
    echo "FAIL: unit suite $suite failed:"; tail -5 "$root.log"; rc=1
  fi
  left=$(ls -A "$root" | wc -l)
  if [ "$left" -ne 0 ]; then
    echo "FAIL: unit suite $suite left $left entries in TMPDIR:"; ls -A "$root" | head -5; rc=1
    rm -rf "$root"/* "$root"/.[!.]* 2>/dev/null
  else
    echo "ok: unit suite $suite left nothing in TMPDIR"
  fi
done
rm -rf "$root" "$root.log"
exit $rc
