# lib.sh: helpers for the shell tests that drive the real sharesim binary.
# Sourced by cli-tests.sh before each t-*.sh; every check counts one pass or one failure.
# Variables: SHARESIM (binary), TOP_SRCDIR, DATA (tests/data), SCEN (scenarios/), TRACES (traces/),
# SHARED_TRACES (../shared/traces, may be absent). The test runs in a fresh temporary folder.

run() {   # run ARGS... : runs sharesim; stdout -> out.txt, stderr -> err.txt, exit code -> RC
  "$SHARESIM" "$@" >out.txt 2>err.txt </dev/null
  RC=$?
  LAST="sharesim $*"
}
pass() { PASSED=$((PASSED + 1)); }
fail() { FAILED=$((FAILED + 1)); echo "FAIL [$TEST_NAME] $*" >&2; echo "  command: $LAST" >&2; sed 's/^/  stderr: /' err.txt 2>/dev/null | head -20 >&2; }
expect_rc() { if [ "$RC" = "$1" ]; then pass; else fail "exit code $RC, expected $1"; fi; }
expect_err_contains() { if grep -qF -- "$1" err.txt; then pass; else fail "stderr lacks: $1"; fi; }
expect_out_contains() { if grep -qF -- "$1" out.txt; then pass; else fail "stdout lacks: $1"; sed 's/^/  stdout: /' out.txt | head -20 >&2; fi; }
expect_err_empty() { if [ ! -s err.txt ]; then pass; else fail "stderr not empty"; fi; }
expect_file() { if [ -f "$1" ]; then pass; else fail "missing file $1"; fi; }
expect_no_path() { if [ ! -e "$1" ]; then pass; else fail "path should not exist: $1"; fi; }
expect_same_files() { if cmp -s "$1" "$2"; then pass; else fail "files differ: $1 $2"; fi; }
expect_eq() { if [ "$1" = "$2" ]; then pass; else fail "got '$1', expected '$2' ($3)"; fi; }
# csv_get FILE KEY_COLUMN KEY COLUMNS: the cells of COLUMNS (names, comma-separated) of the
# rows whose KEY_COLUMN is KEY, comma-joined, a line per row (KEY_COLUMN "": every row). By
# the header's names, so that columns added in front (scenario, seed) move nothing; plain
# fields only (a quoted comma splits). A name the header lacks gives an empty cell.
csv_get() {
  awk -F, -v kc="$2" -v k="$3" -v cols="$4" '
    NR == 1 { for (i = 1; i <= NF; i++) if (!($i in h)) h[$i] = i; n = split(cols, c, ","); next }
    kc == "" || (kc in h && $h[kc] == k) {
      s = ""; for (j = 1; j <= n; j++) s = s (j > 1 ? "," : "") (c[j] in h ? $h[c[j]] : ""); print s }' "$1"
}
skip_test() { echo "SKIP [$TEST_NAME] $*" >&2; SKIPPED=$((SKIPPED + 1)); }
# skip_repeat WHAT: true, with one SKIP line naming WHAT, when SHARESIM_SKIP_REPEATS is set
# (scripts/test sets it in the sanitizer and distcheck stages: a check that only repeats, on
# the same code paths, what another check of that stage already runs, runs in the check
# stage only; HACKING.md, Tests, lists them). Usage: if ! skip_repeat "..."; then ...; fi
skip_repeat() {
  [ -n "${SHARESIM_SKIP_REPEATS:-}" ] || return 1
  skip_test "SHARESIM_SKIP_REPEATS: $1"
  return 0
}
