#!/bin/sh
# tests/check-json.sh: every JSON sharesim reads goes through src/base/jsonlimit.c, the one
# entry point with the nesting limit (docs/safety.md, Limits; issue 29 S3-07: a reader that
# called json-glib directly overflowed the stack). Any json_parser_load_from_* call (or
# json_from_string, which parses too) in src/ outside jsonlimit.c is printed as file:line and
# the check fails.
# Usage: tests/check-json.sh [SRCDIR]   (default: TOP_SRCDIR, else the folder above this script)
top=${1:-${TOP_SRCDIR:-$(dirname "$0")/..}}
[ -d "$top/src" ] || { echo "check-json: no $top/src"; echo "json: 0 passed, 1 failed, 0 skipped"; exit 1; }
out=$(grep -rnE 'json_parser_load_from_[a-z_]+|json_from_string|json_parser_load_from_stream' \
        --include='*.c' --include='*.h' "$top/src" | grep -v '/src/base/jsonlimit\.c:' |
      sed "s|^$top/||")
if [ -n "$out" ]; then
  echo "$out" | sed 's/$/ : parse JSON only through jsonlimit_load_file, _data or _line (src\/base\/jsonlimit.h)/'
  echo "json: 0 passed, 1 failed, 0 skipped"
  exit 1
fi
echo "json: 1 passed, 0 failed, 0 skipped"
exit 0
