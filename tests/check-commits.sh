#!/bin/sh
# tests/check-commits.sh: every commit after dd5d9cb has a subject under 72 characters (at
# most 71), the detail in its body (HACKING.md, Conventions). Each longer subject is printed
# with its commit. The commits listed in `landed_before` came before this check and are let be. Skipped (exit 77) outside a git checkout (a tarball, distcheck).
# Usage: tests/check-commits.sh [TOP]   (default: TOP_SRCDIR, else the folder above this script)
top=${1:-${TOP_SRCDIR:-$(dirname "$0")/..}}
since=${COMMITS_SINCE:-dd5d9cb}
max=${MAX_SUBJECT:-71}
landed_before="96a6528 c3a35fb 456d19e cd86fbf b5f0b2f 9faa5e2"
if ! command -v git > /dev/null 2>&1 || ! git -C "$top" rev-parse --git-dir > /dev/null 2>&1 \
   || ! git -C "$top" cat-file -e "$since^{commit}" 2> /dev/null; then
  echo "check-commits: not a git checkout holding $since: skipped"
  echo "commits: 0 passed, 0 failed, 1 skipped"; exit 77
fi
out=$(git -C "$top" log --format='%h %s' "$since..HEAD" | awk -v max="$max" -v old="$landed_before" '
  BEGIN { n = split(old, o, " "); for (i = 1; i <= n; i++) skip[o[i]] = 1 }
  { if (substr($1, 1, 7) in skip) next; s = substr($0, index($0, " ") + 1); if (length(s) > max) printf "%s: subject of %d characters (over %d): %.60s...\n", $1, length(s), max, s }')
if [ -n "$out" ]; then
  echo "$out"; echo "check-commits: $(echo "$out" | wc -l) subject(s) over $max characters"
  echo "commits: 0 passed, 1 failed, 0 skipped"; exit 1
fi
echo "commits: 1 passed, 0 failed, 0 skipped"
