#!/bin/sh
# tests/check-link-layers.sh: the layering at link time. tests/check-layers.sh reads the
# #include lines; this reads the built objects: every symbol an object of src/LAYER needs
# from the library must be defined by an object of the same layer or of one before it
# (base input traces metrics sim report study cli). A lower layer that calls a function
# defined above it (say the scenario reader reaching the strategy table of src/sim) links
# only because the programs happen to pull both in; it is reported with the symbol and the
# objects, and fails. Inside src/sim the same holds between its rooms (tests/sim-rooms): an
# object needs nothing defined in a room after its own; and a plug-in (share/share-*.o,
# workload/workload-*.o) needs of src/sim only what its own folder defines (its bridge).
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
# src/sim's rooms (the same function as tests/check-layers.sh's): "object rank name" per object
rooms=${SIM_ROOMS:-$(dirname "$0")/sim-rooms}
sim_room() {
  r=0
  while read -r name pats; do
    case $name in '' | '#'*) continue ;; esac
    r=$((r + 1))
    for pat in $pats; do case $1 in $pat) echo "$r $name"; return ;; esac; done
  done < "$rooms"
}
for o in $objs; do
  case $o in src/sim/*) ro=$(sim_room "${o#src/sim/}"); echo "$o ${ro:-0 none}" ;; esac
done > "$tmp.rooms"
(cd "$build" && nm -A -u $objs) | awk '{ sub(/:.*/, "", $1); print $1, $NF }' |
  awk '
    FILENAME == ARGV[1] { rank[$1] = $2; room[$1] = $3; next }
    FILENAME == ARGV[2] { def[$2] = $1; next }
    !($1 in rank) || !($2 in def) || !(def[$2] in rank) { next }
    rank[$1] == 0 { if (!(($1) in told)) print $1 ": in no room of src/sim (add it to tests/sim-rooms)"; told[$1] = 1; next }
    rank[def[$2]] > rank[$1] {
      print $1 ": needs " $2 ", defined in " def[$2] " of room \047" room[def[$2]] "\047, after its room \047" room[$1] "\047 in src/sim"; next
    }
    $1 ~ /^src\/sim\/(share\/share|workload\/workload)-/ {
      d = $1; sub(/\/[^\/]*$/, "", d); e = def[$2]; sub(/\/[^\/]*$/, "", e)
      if (d != e) print $1 ": a plug-in needs " $2 " of " def[$2] "; of src/sim it may use only its own folder (its bridge)"
    }
  ' "$tmp.rooms" "$tmp.def" - >> "$tmp.bad"
bad=$(wc -l < "$tmp.bad")
n=$(echo "$objs" | wc -l)
cat "$tmp.bad"; rm -f "$tmp.def" "$tmp.bad" "$tmp.rooms"
if [ "$bad" -gt 0 ]; then
  echo "check-link-layers: $bad symbol(s) needed across a layer, a room of src/sim or a plug-in boundary"
  echo "link-layers: 0 passed, 1 failed, 0 skipped"; exit 1
fi
echo "check-link-layers: $n objects, every library symbol comes from the same layer or below, and in src/sim from the same room or below (plug-ins: their bridge)"
echo "link-layers: 1 passed, 0 failed, 0 skipped"
