#!/bin/sh
# tests/check-layers.sh: every #include "x.h" in src/ runs downwards. The layers, lowest first:
#   base input metrics sim report study traces cli
# (src/sim/share/ and src/sim/workload/ belong to the sim layer). A file may include a header of
# its own layer or of a layer before it; anything else is reported with file:line and fails.
# Then the plug-in boundaries of the sim layer (see below) are checked the same way.
# Usage: tests/check-layers.sh [SRCDIR]   (default: TOP_SRCDIR, else the folder above this script)
top=${1:-${TOP_SRCDIR:-$(dirname "$0")/..}}
src=$top/src
layers="base input metrics sim report study traces cli"
rank() { # rank LAYER -> its position, or nothing for an unknown folder
  i=0; for l in $layers; do i=$((i + 1)); [ "$l" = "$1" ] && { echo $i; return; }; done
}
layer_of() { # layer_of PATH-RELATIVE-TO-src -> first folder
  echo "${1%%/*}"
}
bad=0; checked=0
# header name -> layer, from where the header lives
hdrmap=$(cd "$src" && find . -name '*.h' | sed 's|^\./||' | while read -r h; do
  echo "$(basename "$h") $(layer_of "$h")"; done)
for f in $(cd "$src" && find . -name '*.[ch]' | sed 's|^\./||' | sort); do
  own=$(layer_of "$f"); own_rank=$(rank "$own")
  if [ -z "$own_rank" ]; then echo "$src/$f: in folder '$own', which is not a layer ($layers)"; bad=$((bad + 1)); continue; fi
  grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$src/$f" | while IFS= read -r line; do
    n=${line%%:*}; h=$(echo "$line" | sed 's/.*"\(.*\)".*/\1/')
    [ "$h" = config.h ] && continue
    hl=$(echo "$hdrmap" | awk -v h="$(basename "$h")" '$1 == h {print $2; exit}')
    if [ -z "$hl" ]; then case $h in *plot-templates*) continue;; esac
      # generated or unknown header: must exist beside the file
      [ -f "$src/$(dirname "$f")/$h" ] || echo "$src/$f:$n: includes \"$h\", which is no header of src/"
      continue; fi
    hr=$(rank "$hl")
    if [ "$hr" -gt "$own_rank" ]; then
      echo "$src/$f:$n: layer '$own' includes \"$h\" of layer '$hl', which comes after it"
    fi
  done > "${TMPDIR:-/tmp}/check-layers.$$"
  if [ -s "${TMPDIR:-/tmp}/check-layers.$$" ]; then cat "${TMPDIR:-/tmp}/check-layers.$$"; bad=$((bad + $(wc -l < "${TMPDIR:-/tmp}/check-layers.$$"))); fi
  checked=$((checked + 1))
done
rm -f "${TMPDIR:-/tmp}/check-layers.$$"
# The plug-in boundaries inside the sim layer (docs/architecture.md):
# - a sharing strategy (sim/share/share-*.c) includes no header of src/ but share.h, the view
#   of a pool, its GPUs and their residents and the share_* calls it may make (share.c is
#   the bridge that forwards them to cluster.c and sim.c);
# - a workload (sim/workload/workload-*.c) includes no header of the sim layer but those of
#   sim/workload/ (workload.h, the view of its job and the sim_* calls it may make; workload.c
#   is the bridge that includes cluster.h), so it never sees job_run, pools or GPUs, and calls
#   no cluster_, engine_, place_ or share_ function: it acts through the sim_* calls of
#   workload.h and the metrics calls of metrics.h.
for f in $(cd "$src" && find sim/share -name 'share-*.c' | sort); do
  grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$src/$f" | while IFS= read -r line; do
    h=$(echo "$line" | sed 's/.*"\(.*\)".*/\1/')
    [ "$h" = share.h ] && continue
    echo "$src/$f:${line%%:*}: a strategy includes \"$h\"; it may include only share.h of src/"
  done
done > "${TMPDIR:-/tmp}/check-layers.$$"
simhdr=$(cd "$src" && find sim -name '*.h' ! -path 'sim/workload/*' | sed 's|.*/||')
for f in $(cd "$src" && find sim/workload -name 'workload-*.c' | sort); do
  grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$src/$f" | while IFS= read -r line; do
    h=$(basename "$(echo "$line" | sed 's/.*"\(.*\)".*/\1/')")
    if echo "$simhdr" | grep -qx "$h"; then
      echo "$src/$f:${line%%:*}: a workload includes \"$h\"; of the sim layer it may include only workload.h (and sim/workload/'s own headers)"
    fi
  done
  grep -nE '(^|[^a-z_])(cluster|engine|pqueue|place|share)_[a-z_]+[[:space:]]*\(' "$src/$f" |
    while IFS= read -r line; do
      echo "$src/$f:${line%%:*}: a workload calls $(echo "$line" | grep -oE '(cluster|engine|pqueue|place|share)_[a-z_]+' | head -1); it acts through workload.h and metrics.h"
    done
done >> "${TMPDIR:-/tmp}/check-layers.$$"
if [ -s "${TMPDIR:-/tmp}/check-layers.$$" ]; then cat "${TMPDIR:-/tmp}/check-layers.$$"; bad=$((bad + $(wc -l < "${TMPDIR:-/tmp}/check-layers.$$"))); fi
rm -f "${TMPDIR:-/tmp}/check-layers.$$"
if [ "$bad" -gt 0 ]; then echo "check-layers: $bad include(s) or call(s) cross a layer or plug-in boundary"; echo "layers: 0 passed, 1 failed, 0 skipped"; exit 1; fi
echo "check-layers: $checked files, every include runs downwards ($layers); strategies include only share.h, workloads only workload.h of the sim layer and call no cluster/engine/place/share function"
echo "layers: 1 passed, 0 failed, 0 skipped"
