#!/bin/sh
# tests/check-layers.sh: every #include "x.h" in src/ runs downwards. The layers, lowest first:
#   base input traces metrics sim report study cli
# (src/sim/share/ and src/sim/workload/ belong to the sim layer). A file may include a header of
# its own layer or of a layer before it; anything else is reported with file:line and fails.
# Then the plug-in boundaries of the sim layer (see below) are checked the same way, and the
# order of src/sim's rooms (tests/sim-rooms): no include runs up from one room to a later one.
# Usage: tests/check-layers.sh [SRCDIR]   (default: TOP_SRCDIR, else the folder above this script)
top=${1:-${TOP_SRCDIR:-$(dirname "$0")/..}}
src=$top/src
layers="base input traces metrics sim report study cli"
bad=0
# every #include "..." of every file in one awk pass (a fork per include line took seconds):
# a header's layer is the first folder of where it lives (the first one found, when two
# folders hold the same name); an include of a name that is no header of src/ must exist
# beside the file (generated headers) unless it is one of the plot templates
out=$(cd "$src" && awk -v layers="$layers" -v src="$src" \
  -v hdrs="$(find . -name '*.h' | sed 's|^\./||')" -v files="$(find . -name '*.[ch]' | sed 's|^\./||' | sort)" '
  BEGIN {
    nl = split(layers, L, " "); for (i = 1; i <= nl; i++) rank[L[i]] = i
    nh = split(hdrs, H, "\n")
    for (i = 1; i <= nh; i++) { b = H[i]; sub(/.*\//, "", b); l = H[i]; sub(/\/.*/, "", l); if (!(b in hl)) hl[b] = l }
    nf = split(files, F, "\n"); checked = 0
    for (k = 1; k <= nf; k++) {
      f = F[k]; own = f; sub(/\/.*/, "", own)
      if (!(own in rank)) { print src "/" f ": in folder \047" own "\047, which is not a layer (" layers ")"; continue }
      dir = f; if (!sub(/\/[^\/]*$/, "", dir)) dir = "."
      n = 0
      while ((getline line < f) > 0) {
        n++
        if (line !~ /^[[:space:]]*#[[:space:]]*include[[:space:]]*"/) continue
        # the text between the last two quotes (what sed s/.*"\(.*\)".*/\1/ keeps)
        h = line; sub(/"[^"]*$/, "", h); sub(/.*"/, "", h)
        if (h == "config.h") continue
        b = h; sub(/.*\//, "", b)
        if (!(b in hl)) {
          if (h ~ /plot-templates/) continue
          p = dir "/" h
          if ((getline x < p) < 0) print src "/" f ":" n ": includes \"" h "\", which is no header of src/"
          close(p); continue
        }
        if (rank[hl[b]] > rank[own])
          print src "/" f ":" n ": layer \047" own "\047 includes \"" h "\" of layer \047" hl[b] "\047, which comes after it"
      }
      close(f); checked++
    }
    print "checked " checked
  }')
checked=$(echo "$out" | sed -n 's/^checked //p')
out=$(echo "$out" | grep -v '^checked ')
if [ -n "$out" ]; then echo "$out"; bad=$(echo "$out" | wc -l); fi
# The plug-in boundaries inside the sim layer (docs/architecture.md):
# - a sharing strategy (sim/share/share-*.c) includes no header of src/ but share.h, the view
#   of a pool, its GPUs and their residents and the share_* calls it may make (share.c is
#   the bridge that forwards them to cluster.c and sim.c);
# - a workload (sim/workload/workload-*.c) includes no header of the sim layer but those of
#   sim/workload/ (workload.h, the view of its job and the workload_* calls it may make;
#   workload.c is the bridge that forwards them to sim.c, as share.c does for strategies), so
#   it never sees job_run, pools or GPUs, and calls no function of another room of src/sim
#   (cluster_, sim_, share_ ...): it acts through the bridge's calls of workload.h and the
#   metrics calls of metrics.h.
for f in $(cd "$src" && find sim/share -name 'share-*.c' | sort); do
  grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$src/$f" | while IFS= read -r line; do
    h=$(echo "$line" | sed 's/.*"\(.*\)".*/\1/')
    [ "$h" = share.h ] && continue
    echo "$src/$f:${line%%:*}: a strategy includes \"$h\"; it may include only share.h of src/"
  done
done > "${TMPDIR:-/tmp}/check-layers.$$"
simhdr=$(cd "$src" && find sim -name '*.h' ! -path 'sim/workload/*' | sed 's|.*/||')
# the prefixes of the functions of src/sim's other rooms (tests/sim-rooms)
simcalls="bursts|budget|cluster|engine|place|pqueue|prerun|rowspill|rowwriter|share|sim"
for f in $(cd "$src" && find sim/workload -name 'workload-*.c' | sort); do
  grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$src/$f" | while IFS= read -r line; do
    h=$(basename "$(echo "$line" | sed 's/.*"\(.*\)".*/\1/')")
    if echo "$simhdr" | grep -qx "$h"; then
      echo "$src/$f:${line%%:*}: a workload includes \"$h\"; of the sim layer it may include only workload.h (and sim/workload/'s own headers)"
    fi
  done
  grep -nE "(^|[^a-z_])($simcalls)_[a-z_]+[[:space:]]*\\(" "$src/$f" |
    while IFS= read -r line; do
      echo "$src/$f:${line%%:*}: a workload calls $(echo "$line" | grep -oE "(^|[^a-z_])($simcalls)_[a-z_]+" | head -1 | sed 's/^[^a-z_]//'); it acts only through the bridge (workload.h's calls) and metrics.h"
    done
done >> "${TMPDIR:-/tmp}/check-layers.$$"
# The rooms of src/sim, lowest first (tests/sim-rooms, docs/architecture.md): a file of
# src/sim includes headers of its own room or of rooms before it; a file in no room fails.
rooms=${SIM_ROOMS:-$(dirname "$0")/sim-rooms}
sim_room() { # "rank name" of the room of path $1 (under src/sim), nothing if none
  r=0
  while read -r name pats; do
    case $name in '' | '#'*) continue ;; esac
    r=$((r + 1))
    for pat in $pats; do case $1 in $pat) echo "$r $name"; return ;; esac; done
  done < "$rooms"
}
simh=$(cd "$src/sim" && find . -name '*.h' | sed 's|^\./||' | sort)
for f in $(cd "$src/sim" && find . -name '*.[ch]' | sed 's|^\./||' | sort); do
  own=$(sim_room "$f")
  if [ -z "$own" ]; then echo "$src/sim/$f: in no room of src/sim (add it to tests/sim-rooms)"; continue; fi
  grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$src/sim/$f" | while IFS= read -r line; do
    h=${line#*\"}; h=${h%%\"*}; b=${h##*/}
    for hp in $simh; do
      [ "${hp##*/}" = "$b" ] || continue
      to=$(sim_room "$hp")
      if [ -n "$to" ] && [ "${to%% *}" -gt "${own%% *}" ]; then
        echo "$src/sim/$f:${line%%:*}: room '${own#* }' includes \"$h\" of room '${to#* }', which comes after it in src/sim (tests/sim-rooms)"
      fi
      break
    done
  done
done >> "${TMPDIR:-/tmp}/check-layers.$$"
if [ -s "${TMPDIR:-/tmp}/check-layers.$$" ]; then cat "${TMPDIR:-/tmp}/check-layers.$$"; bad=$((bad + $(wc -l < "${TMPDIR:-/tmp}/check-layers.$$"))); fi
rm -f "${TMPDIR:-/tmp}/check-layers.$$"
if [ "$bad" -gt 0 ]; then echo "check-layers: $bad include(s) or call(s) cross a layer or plug-in boundary"; echo "layers: 0 passed, 1 failed, 0 skipped"; exit 1; fi
echo "check-layers: $checked files, every include runs downwards ($layers); strategies include only share.h, workloads only workload.h of the sim layer and call only its bridge, no include runs up src/sim's rooms"
echo "layers: 1 passed, 0 failed, 0 skipped"
