#!/bin/sh
# tests/check-reentrant.sh: the library keeps no state outside a run, so that compare and
# size may run several simulations at once in threads (src/study/studyrun.h). Lists every
# writable static object of libsharesim.a (sections .data and .bss, not .data.rel.ro) and
# fails on any that is not below, each with why it is safe. A new one needs the same: made
# const, moved into the run's own state, or guarded (g_once, a mutex) and listed here.
# Usage: tests/check-reentrant.sh [LIBRARY]   (default: libsharesim.a in the current folder,
# the build folder under make check). Skips (77) without objdump.
lib=${1:-libsharesim.a}
command -v objdump >/dev/null 2>&1 || { echo "check-reentrant: no objdump, skipped"; exit 77; }
[ -f "$lib" ] || { echo "check-reentrant: $lib not found"; exit 1; }
# object root-name: GCC names a function's static "var.N", clang "function.var"
allowed='
util.o q                  G_DEFINE_QUARK cache: registered before any thread starts (studyrun.c)
cleanup.o cleanup_lock    the mutex itself
cleanup.o cleanup_paths   behind cleanup_lock
cleanup.o cleanup_children behind cleanup_lock
cleanup.o cleanup_fired   atomic
cleanup.o cleanup_pipe    set once in cleanup_install (g_once), before any run
cleanup.o once            g_once guard
scenario.o names          built once under g_once (pool_key_names)
scenario.o done           g_once guard
scenario.o scenario_n_strategies the strategy table (scenario_use_strategies): set once at start (cmd_main, test set-up), read-only after
scenario.o scenario_strategy_row likewise
scenario.o scenario_model_table the model constants (scenario_use_model_keys): likewise
scenario.o scenario_n_placements the placement table (scenario_use_placements): likewise
scenario.o scenario_placement_row likewise
scenario.o scenario_sections the pool sections (scenario_use_pool_sections): likewise
safeopen.o safeopen_inputs_lock the mutex itself
safeopen.o safeopen_inputs the files read so far (device, inode): behind safeopen_inputs_lock
paths.o paths_extra_lex   set by option parsing (--allow-path) before any run, read-only after
paths.o paths_extra_real  likewise
outdir.o tag              built once under g_once (outdir_host_tag)
outdir.o once             g_once guard
rngfast.o rngfast_tables  the ziggurat tables: filled once under g_once, read-only after
rngfast.o rngfast_tables_nor the tables of the normal ziggurat: likewise
rngfast.o done            g_once guard
llm-engine.o llm_g_tab    the cubic pieces of the smooth max: filled once under g_once, read-only after
llm-engine.o llm_lanes_below the lane masks of the packed residue counts: filled with llm_g_tab under the same g_once
llm-engine.o done         g_once guard
tracerows.o rows_cache_key a GPrivate key: every thread keeps its own cache of spilled chunks
tracerows.o serials       atomic counter naming each trace_rows in those caches
validate.o family_list    sharesim validate only (runs no threads)
validate.o sources        likewise
validate-mig.o speed      likewise
'
found=$(objdump -t "$lib" 2>/dev/null | awk '
  /:[ \t]+file format/ { obj = $1; sub(/:$/, "", obj); next }
  $0 ~ / O \.(data|bss)([. \t]|$)/ && $0 !~ /\.data\.rel\.ro/ {
    name = $NF
    if (name ~ /^[._]/) next              # compiler and sanitizer symbols
    n = split(name, p, ".")
    root = (n > 1 && p[n] ~ /^[0-9]+$/) ? p[1] : p[n]
    print obj, root, name
  }')
bad=0; checked=0
while read -r obj root name; do
  [ -n "$obj" ] || continue
  checked=$((checked + 1))
  if ! printf '%s\n' "$allowed" | awk -v o="$obj" -v r="$root" '$1 == o && $2 == r { f = 1 } END { exit !f }'; then
    echo "$lib: $obj: writable static '$name': state outside a run breaks compare/size -j (see this script)"
    bad=$((bad + 1))
  fi
done <<EOT
$found
EOT
[ "$checked" -gt 0 ] || { echo "check-reentrant: no objects read from $lib"; exit 1; }
echo "reentrant: $checked writable statics, $bad not listed"
[ "$bad" -eq 0 ]
