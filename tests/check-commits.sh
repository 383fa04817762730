#!/bin/sh
# tests/check-commits.sh: every commit after the rule came in (dd5d9cb, HACKING.md "Commits")
# has a subject of at most 72 characters, the detail in its body. Each longer subject is
# printed with its commit. Skipped (exit 77) outside a git checkout (a tarball, distcheck).
# Usage: tests/check-commits.sh [TOP]   (default: TOP_SRCDIR, else the folder above this script)
top=${1:-${TOP_SRCDIR:-$(dirname "$0")/..}}
since=${COMMITS_SINCE:-dd5d9cb}
max=${MAX_SUBJECT:-72}
if ! command -v git > /dev/null 2>&1 || ! git -C "$top" rev-parse --git-dir > /dev/null 2>&1 \
   || ! git -C "$top" cat-file -e "$since^{commit}" 2> /dev/null; then
  echo "check-commits: not a git checkout holding $since: skipped"
  echo "commits: 0 passed, 0 failed, 1 skipped"; exit 77
fi
out=$(git -C "$top" log --format='%h %s' "$since..HEAD" | awk -v max="$max" '
  { s = substr($0, index($0, " ") + 1); if (length(s) > max) printf "%s: subject of %d characters (over %d): %.60s...\n", $1, length(s), max, s }')
if [ -n "$out" ]; then
  echo "$out"; echo "check-commits: $(echo "$out" | wc -l) subject(s) over $max characters"
  echo "commits: 0 passed, 1 failed, 0 skipped"; exit 1
fi
echo "commits: 1 passed, 0 failed, 0 skipped"
