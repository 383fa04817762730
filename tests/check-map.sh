#!/bin/sh
# tests/check-map.sh: HACKING.md's map of the code (the code block of its "Layout" section)
# names every source folder and file of src/, and names none that does not exist. A file is
# named by its stem (`cluster-place`, with or without .c/.h) or by a pattern of the block
# (`place-*.c`: a prefix, a dash, a star, .c or .h); a folder by `NAME/`. Each file or folder the map misses, and each `src/...`
# path it names that is not there, is printed as HACKING.md:LINE or the file's path.
# Usage: tests/check-map.sh [TOP]   (default: TOP_SRCDIR, else the folder above this script)
top=${1:-${TOP_SRCDIR:-$(dirname "$0")/..}}
map="$top/HACKING.md"
[ -f "$map" ] || { echo "check-map: no $map"; echo "map: 0 passed, 1 failed, 0 skipped"; exit 1; }
block=$(awk '/^## Layout/ { s = 1; next } s && /^## / { exit } s && /^```/ { b = !b; next } s && b' "$map")
[ -n "$block" ] || { echo "check-map: HACKING.md has no code block under '## Layout'"; echo "map: 0 passed, 1 failed, 0 skipped"; exit 1; }
words=$(printf '%s\n' "$block" | tr -c 'A-Za-z0-9_.*/-' '\n' | sed 's/[.,]*$//' | grep -v '^$' | sort -u)
pats=$(printf '%s\n' "$words" | sed 's|.*/||' | grep '^[A-Za-z][A-Za-z0-9_]*-\*\.[ch]$')
problems=""
for f in $(cd "$top" && find src -name '*.[ch]' | sort); do
  base=${f##*/}; stem=${base%.*}
  if printf '%s\n' "$words" | sed 's|.*/||; s/\.[ch]$//' | grep -qx -- "$stem"; then continue; fi
  hit=no
  for p in $pats; do
    case $base in $p) hit=yes ;; esac
  done
  [ $hit = yes ] || problems="$problems
$f: not in HACKING.md's map (Layout)"
done
for d in $(cd "$top" && find src -mindepth 1 -type d | sort); do
  name=${d#src/}
  printf '%s\n' "$block" | grep -q -- "\(^\|[ (]\)\(src/\)\{0,1\}${name##*/}/" && continue
  problems="$problems
$d/: folder not in HACKING.md's map (Layout)"
done
start=$(grep -n '^## Layout' "$map" | head -1 | cut -d: -f1)
for p in $(printf '%s\n' "$words" | grep '^src/' | grep -v '\*'); do
  [ -e "$top/$p" ] && continue
  line=$(awk -v s="$start" -v p="$p" 'NR > s && index($0, p) { print NR; exit }' "$map")
  problems="$problems
HACKING.md:${line:-$start}: the map names $p, which does not exist"
done
if [ -n "$problems" ]; then
  printf '%s\n' "$problems" | sed '/^$/d'
  echo "check-map: $(printf '%s\n' "$problems" | sed '/^$/d' | wc -l) problem(s)"
  echo "map: 0 passed, 1 failed, 0 skipped"; exit 1
fi
echo "map: 1 passed, 0 failed, 0 skipped"
