#!/bin/sh
# tests/check-include-cycles.sh: no two modules of a folder of src/ depend on each other
# through their includes. A module is a file name without .c or .h (scenario.c and
# scenario.h are the module scenario); it depends on every module whose header one of its
# files includes. A cycle (scenario.c includes nvconfig.h while nvconfig.c includes
# scenario.h) means neither can be read, tested or moved without the other: it is reported
# with the include lines that close it, and fails. Checked in the folders below (the others
# are the business of their own checks, e.g. the plug-in boundaries of check-layers.sh).
# Usage: tests/check-include-cycles.sh [SRCDIR]   (default: TOP_SRCDIR, else the folder above)
top=${1:-${TOP_SRCDIR:-$(dirname "$0")/..}}
src=$top/src
folders="base input traces metrics report cli"
for d in $folders; do [ -d "$src/$d" ] || { echo "check-include-cycles: no folder $src/$d"; echo "include-cycles: 0 passed, 1 failed, 0 skipped"; exit 1; }; done
out=$(cd "$src" && for d in $folders; do find "$d" -name '*.[ch]'; done | sort | awk '
  # every include of a header of the same folder, as an edge between two modules
  {
    f = $0; dir = f; sub(/\/[^\/]*$/, "", dir); m = f; sub(/\.[ch]$/, "", m)
    files[++nf] = f; mod_of[f] = m; dir_of[f] = dir
  }
  END {
    for (i = 1; i <= nf; i++) is_file[files[i]] = 1
    for (i = 1; i <= nf; i++) {
      f = files[i]; n = 0
      while ((getline line < f) > 0) {
        n++
        if (line !~ /^[[:space:]]*#[[:space:]]*include[[:space:]]*"/) continue
        h = line; sub(/"[^"]*$/, "", h); sub(/.*"/, "", h); sub(/.*\//, "", h)
        p = dir_of[f] "/" h
        if (!(p in is_file)) continue
        a = mod_of[f]; b = mod_of[p]
        if (a == b) continue
        if (!((a, b) in edge)) { edge[a, b] = f ":" n ": includes \"" h "\""; succ[a] = succ[a] " " b }
      }
      close(f)
    }
    # a cycle exists through a -> b when a is reachable from b: look for each edge
    for (k in edge) {
      split(k, ab, SUBSEP); a = ab[1]; b = ab[2]
      if (a > b && ((b, a) in edge)) continue  # a pair is reported once, from its smaller name
      delete seen; delete from; q[1] = b; head = 1; tail = 1; seen[b] = 1; found = 0
      while (head <= tail && !found) {
        x = q[head++]; ns = split(succ[x], S, " ")
        for (j = 1; j <= ns; j++) {
          y = S[j]; if (y in seen) continue
          seen[y] = 1; from[y] = x; q[++tail] = y
          if (y == a) { found = 1; break }
        }
      }
      if (!found) continue
      path = edge[a, b]; y = a
      chain = ""
      while (y != b) { chain = edge[from[y], y] "; " chain; y = from[y] }
      key = a
      if (key in done) continue
      done[key] = 1
      print "include cycle " a " -> " b " -> ... -> " a ": " path "; " chain
    }
  }')
if [ -n "$out" ]; then
  echo "$out" | sed 's/; $//' | sort
  echo "check-include-cycles: $(echo "$out" | wc -l) module(s) on an include cycle ($folders)"
  echo "include-cycles: 0 passed, 1 failed, 0 skipped"; exit 1
fi
echo "check-include-cycles: no include cycle between the modules of $folders"
echo "include-cycles: 1 passed, 0 failed, 0 skipped"
