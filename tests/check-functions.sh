#!/bin/sh
# tests/check-functions.sh: no function in src/ is over 100 lines (HACKING.md, Conventions).
# A definition starts at a line in column 0 that opens a parameter list and whose body opens
# with "{" at the end of that line or of a continuation line; it ends at the next "}" in
# column 0 (the code's own style: 2-space indent, braces on the same line). Its length is
# its body's: the lines from the one that opens it with "{" to that "}", both included (a
# signature wrapped over several lines does not count). Each one over the limit is
# printed as file:line: name (N lines), and the check fails.
# Usage: tests/check-functions.sh [SRCDIR]   (default: TOP_SRCDIR, else the folder above this
# script); MAX_LINES overrides the limit of 100.
top=${1:-${TOP_SRCDIR:-$(dirname "$0")/..}}
max=${MAX_LINES:-100}
files=$(find "$top/src" -name '*.c' | sort)
[ -n "$files" ] || { echo "check-functions: no sources under $top/src"; echo "functions: 0 passed, 1 failed, 0 skipped"; exit 1; }
out=$(awk -v max="$max" '
  FNR == 1 { state = 0 }
  state == 0 && /^[A-Za-z_][A-Za-z0-9_ \t\*,()]*\(/ && !/;[ \t]*$/ && !/^(typedef|struct [A-Za-z_]+ \{|enum|union|static const|const|extern)/ {
    start = FNR; head = $0; state = 1
  }
  state == 1 {
    if (FNR > start) head = head " " $0
    if ($0 ~ /\{[ \t]*$/) { state = 2; body = FNR; next }
    if ($0 ~ /;[ \t]*$/ || FNR - start > 12) state = 0
    next
  }
  state == 2 && /^}/ {
    n = FNR - body + 1
    if (n > max) {
      name = head; gsub(/__attribute__ *\(\([^)]*\)\)/, "", name)
      sub(/\(.*/, "", name); sub(/.*[ \t\*]/, "", name)
      printf "%s:%d: %s (%d lines, over %d)\n", FILENAME, start, name, n, max
    }
    state = 0
  }
' $files)
count=$(awk '/^[A-Za-z_].*\(/ && /\{[ \t]*$/' $files | wc -l)
if [ -n "$out" ]; then
  echo "$out"
  echo "check-functions: $(echo "$out" | wc -l) function(s) over $max lines"
  echo "functions: 0 passed, 1 failed, 0 skipped"; exit 1
fi
echo "check-functions: no function over $max lines in $top/src"
echo "functions: 1 passed, 0 failed, 0 skipped"
