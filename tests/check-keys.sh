#!/bin/sh
# tests/check-keys.sh: a scenario key is declared once, by the file that owns it, and named
# nowhere else where scenarios are read or strategies live (HACKING.md, "Extending"). A
# declaration is a `const scenario_key NAME = {` whose first string is the key ("fraction_cap":
# src/sim/share/share-fractional.c owns it; the groups NVIDIA's files also set are
# src/input/scenario.c's). It fails, printing file:line, on a key declared in two files and on
# a key's string ("fraction_cap") in another file of src/input or src/sim: others parse or
# name it through the declaration (scenario_key_replicas.name, the row's keys), never by
# spelling it. The models' constants (`const scenario_model_key`: "ts_curve_exp" in
# share.c, "max_restarts" in sim.c, "inference.peak_hour" in workload-inference.c,
# "llm.block_size" in workload-llm.c) are keys too; a section's key spelt without its
# section ("peak_hour", "block_size") in a file of src/input is naming it as well, except
# for a bare name that is also another part's key (`shared_bare` below: a pool's and a node
# group's `model`, and the trace's `model` column, are not inference.model).
# src/input/nvconfig.c reads NVIDIA's own config files, whose fields the
# device-plugin keys are named after, and is not searched for those; a line that says
# /* not a key */ uses the word otherwise (a message's prose) and is skipped.
# Usage: tests/check-keys.sh [SRCDIR]   (default: TOP_SRCDIR, else the folder above this script)
top=${1:-${TOP_SRCDIR:-$(dirname "$0")/..}}
files=$(find "$top/src" -name '*.c' | sort)
[ -n "$files" ] || { echo "check-keys: no sources under $top/src"; echo "keys: 0 passed, 1 failed, 0 skipped"; exit 1; }
# "FILE LINE KEY" for each declaration
decls=$(awk 'FNR == 1 { pend = 0 }
  /const scenario_(model_)?key [A-Za-z_0-9]+ = \{/ { pend = 1 }
  pend && match($0, /"[^"]*"/) { print FILENAME, FNR, substr($0, RSTART + 1, RLENGTH - 2); pend = 0 }' $files)
[ -n "$decls" ] || { echo "check-keys: no scenario_key declarations under $top/src"; echo "keys: 0 passed, 1 failed, 0 skipped"; exit 1; }
searched=$(find "$top/src/input" "$top/src/sim" -name '*.[ch]' | sort)
out=$(echo "$decls" | awk '{ if ($3 in owner && owner[$3] != $1)
    printf "%s:%d: key '\''%s'\'' declared again (its owner is %s)\n", $1, $2, $3, owner[$3]
  else owner[$3] = $1 }')
# one awk pass over the searched files (a grep per key and file took minutes); what it
# prints, key by key in declaration order, then file by file, the key's own hits before its
# section-less ones: "FILE:LINE: names key ..."
named=$(awk -v decls="$decls" -v shared=" model " '
  BEGIN { n = split(decls, L, "\n")
    for (i = 1; i <= n; i++) { split(L[i], a, " "); df[i] = a[1]; dl[i] = a[2]; dk[i] = a[3]
      p = index(dk[i], "."); bare[i] = p ? substr(dk[i], p + 1) : ""
      if (index(shared, " " bare[i] " ")) bare[i] = "" } }
  function flush(   i) { for (i = 1; i <= n; i++) { out[i] = out[i] full[i] part[i]; full[i] = part[i] = "" } }
  FNR == 1 { flush(); nvc = FILENAME ~ /\/src\/input\/nvconfig\.c$/; inp = FILENAME ~ /\/src\/input\// }
  index($0, "/* not a key */") { next }
  index($0, "\"") {
    for (i = 1; i <= n; i++) {
      if (FILENAME == df[i] || (nvc && df[i] ~ /\/src\/input\/scenario\.c$/)) continue
      if (index($0, "\"" dk[i] "\""))
        full[i] = full[i] sprintf("%s:%d: names key '\''%s'\'', which %s:%d declares (use the declaration)\n", FILENAME, FNR, dk[i], df[i], dl[i])
      if (inp && bare[i] != "" && index($0, "\"" bare[i] "\""))
        part[i] = part[i] sprintf("%s:%d: names key '\''%s'\'' (as '\''%s'\''), which %s:%d declares (use the declaration)\n", FILENAME, FNR, dk[i], bare[i], df[i], dl[i])
    } }
  END { flush(); for (i = 1; i <= n; i++) printf "%s", out[i] }' $searched)
[ -n "$named" ] && out="$out${out:+
}$named"
n=$(echo "$decls" | wc -l)
if [ -n "$out" ]; then
  echo "$out"
  echo "check-keys: $(echo "$out" | wc -l) key(s) named outside their owner"
  echo "keys: 0 passed, 1 failed, 0 skipped"; exit 1
fi
echo "check-keys: $n keys, each declared and named by its owner only"
echo "keys: 1 passed, 0 failed, 0 skipped"
