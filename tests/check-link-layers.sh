#!/bin/sh
# tests/check-link-layers.sh: the layering at link time. tests/check-layers.sh reads the
# #include lines; this reads the built objects: every symbol an object of src/LAYER needs
# from the library must be defined by an object of the same layer or of one before it
# (base input traces metrics sim report study cli). A lower layer that calls a function
# defined above it (say the scenario reader reaching the strategy table of src/sim) links
# only because the programs happen to pull both in; it is reported with the symbol and the
# objects, and fails.
# Usage: tests/check-link-layers.sh [BUILDDIR]   (default: the current folder, as make check)
build=${1:-.}
layers="base input traces metrics sim report study cli"
rank() { i=0; for l in $layers; do i=$((i + 1)); [ "$l" = "$1" ] && { echo $i; return; }; done; }
tmp=${TMPDIR:-/tmp}/check-link-layers.$$
objs=$(cd "$build" && for l in $layers; do [ -d "src/$l" ] && find "src/$l" -name '*.o'; done | sort)
if [ -z "$objs" ]; then
  echo "check-link-layers: no objects under $build/src (build first)"
  echo "link-layers: 0 passed, 1 failed, 0 skipped"; exit 1
fi
command -v nm > /dev/null 2>&1 || { echo "check-link-layers: nm not found, skipped"; echo "link-layers: 0 passed, 0 failed, 1 skipped"; exit 77; }
# every global definition, then every undefined symbol, each as "object symbol" (nm -A)
(cd "$build" && nm -A -g --defined-only $objs) | awk '{ sub(/:.*/, "", $1); print $1, $NF }' > "$tmp.def"
(cd "$build" && nm -A -u $objs) | awk '{ sub(/:.*/, "", $1); print $1, $NF }' |
  awk -v layers="$layers" '
    BEGIN { n = split(layers, l, " "); for (i = 1; i <= n; i++) rank[l[i]] = i }
    function rk(o,  p) { split(o, p, "/"); return rank[p[2]] }
    FILENAME == ARGV[1] { def[$2] = $1; next }
    ($2 in def) && rk(def[$2]) > rk($1) { print $1 ": needs " $2 ", defined above its layer in " def[$2] }
  ' "$tmp.def" - > "$tmp.bad"
bad=$(wc -l < "$tmp.bad")
n=$(echo "$objs" | wc -l)
cat "$tmp.bad"; rm -f "$tmp.def" "$tmp.bad"
if [ "$bad" -gt 0 ]; then
  echo "check-link-layers: $bad symbol(s) needed from a layer above"
  echo "link-layers: 0 passed, 1 failed, 0 skipped"; exit 1
fi
echo "check-link-layers: $n objects, every library symbol comes from the same layer or below"
echo "link-layers: 1 passed, 0 failed, 0 skipped"
