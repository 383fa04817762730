#!/bin/sh
# tests/check-fuzz-targets.sh: every parser has a fuzz target (tests/fuzz/README.md). The
# parsers are derived, not listed here:
# - every importer of the table `sharesim import list` prints (src/traces/import.c): some
#   target must run it by its name (fuzz_import("NAME", ...) or fuzz_import_file("NAME", ...)
#   of tests/fuzz/fuzz-import.h);
# - every reader of the input layer: a function declared in src/input/*.h that takes a file
#   (a `const char *path`) and reports into a diag_list; some target must call
#   it, unless it is below reached only through the readers that are (with why).
# A target is a tests/fuzz/fuzz-NAME.c that Makefile.am builds (FUZZ_TARGETS) and that has
# a seed corpus (tests/fuzz/corpus/fuzz-NAME/, which run-corpus.sh feeds it in make check),
# and that opens with "/* fuzz-NAME.c: " and what it runs (the list tests/fuzz/README.md
# points at instead of keeping one by hand).
# Usage: tests/check-fuzz-targets.sh [SRCDIR [SHARESIM]]  (defaults: TOP_SRCDIR, $SHARESIM)
top=${1:-${TOP_SRCDIR:-$(dirname "$0")/..}}
sharesim=${2:-${SHARESIM:-./sharesim}}
[ -x "$sharesim" ] || { echo "check-fuzz-targets: no program $sharesim (build first)"; echo "fuzz-targets: 0 passed, 1 failed, 0 skipped"; exit 1; }
# readers reached only through other readers (each of those has a target)
reached='
csvread_init            the reader of every CSV input: trace_load, trace_load_phases, the importers
csvread_foreach         the importers raw rows: each importer has a target
scenario_yaml_load      the YAML tree of scenario_load and nvconfig_*_load
trace_load_flags        trace_load with flags: trace_load
interference_load_in    interference_load, confined (its body): fuzz-interference
nvconfig_sharing_load_in  nvconfig_sharing_load, confined: fuzz-nvconfig, and fuzz-scenario s sharing_config
nvconfig_mig_load_in    nvconfig_mig_load, confined: fuzz-nvconfig, and fuzz-scenario s mig_config
scenario_yaml_load_in   scenario_yaml_load, confined: the nvconfig readers
scenario_yaml_load_all_in  the documents of kueue_load: fuzz-kueue
'
fz=$top/tests/fuzz
bad=0
report() { echo "$1"; bad=$((bad + 1)); }
# the targets: built, with a source and a non-empty corpus
built=$(sed -n '/^FUZZ_TARGETS =/,/[^\\]$/p' "$top/Makefile.am" | tr ' \\\t' '\n\n\n' | sed -n 's|^tests/fuzz/||p')
targets=
for t in $built; do
  if [ ! -f "$fz/$t.c" ]; then report "Makefile.am: FUZZ_TARGETS names $t, which has no tests/fuzz/$t.c"; continue; fi
  if [ -z "$(ls "$fz/corpus/$t" 2>/dev/null)" ]; then report "tests/fuzz/$t.c: no seed corpus in tests/fuzz/corpus/$t/"; continue; fi
  head -n 1 "$fz/$t.c" | grep -q "^/\* $t\.c: [^ ]" || report "tests/fuzz/$t.c:1: does not open with '/* $t.c: ' and what it runs"
  targets="$targets $fz/$t.c"
done
for f in "$fz"/fuzz-*.c; do
  t=$(basename "$f" .c)
  [ "$t" = fuzz-driver ] && continue
  echo " $built " | tr '\n' ' ' | grep -q " $t " || report "tests/fuzz/$t.c: not in FUZZ_TARGETS of Makefile.am (never built nor run)"
done
[ -n "$targets" ] || { report "check-fuzz-targets: no fuzz target found under $fz"; targets=/dev/null; }
# the importers, from the program's own table
formats=$("$sharesim" import list | sed -n 's/^  \([a-z0-9-]*\) .*/\1/p')
[ -n "$formats" ] || report "check-fuzz-targets: '$sharesim import list' listed no format"
n_imp=0
for name in $formats; do
  n_imp=$((n_imp + 1))
  grep -qE "fuzz_import(_file)?\(\"$name\"" $targets || report "importer '$name': no fuzz target runs it (add tests/fuzz/fuzz-import-$name.c calling fuzz_import_file(\"$name\", ...), with a corpus: tests/fuzz/README.md)"
done
# the input layer's readers
readers=$(for h in "$top"/src/input/*.h; do
  awk 'BEGIN { RS = ";" } /\(/ && /const char \*path[,)]/ && /diag_list \*/ && !/typedef/ && !/static inline/ {
    gsub(/\n/, " "); sub(/^.*\*\//, ""); if (match($0, /[a-z_0-9]+\(/)) print substr($0, RSTART, RLENGTH - 1) }' "$h"
done | sort -u)
n_rd=0
for fn in $readers; do
  n_rd=$((n_rd + 1))
  printf '%s\n' "$reached" | awk -v f="$fn" '$1 == f { ok = 1 } END { exit !ok }' && continue
  grep -qw "$fn" $targets || report "reader $fn ($(grep -lw "$fn" "$top"/src/input/*.h | sed "s|^$top/||" | head -1)): no fuzz target calls it (add tests/fuzz/fuzz-NAME.c with a corpus, or say above what reaches it)"
done
if [ "$bad" -gt 0 ]; then
  echo "check-fuzz-targets: $bad parser(s) or target(s) without a fuzz target or corpus"
  echo "fuzz-targets: 0 passed, 1 failed, 0 skipped"; exit 1
fi
echo "check-fuzz-targets: $n_imp importers and $n_rd readers of the input layer, each run by one of $(echo $targets | wc -w) fuzz targets with a corpus"
echo "fuzz-targets: 1 passed, 0 failed, 0 skipped"
