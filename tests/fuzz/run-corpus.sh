#!/bin/sh
# run-corpus.sh: feeds every file of tests/fuzz/corpus/NAME/ once to the fuzz target NAME
# (built beside sharesim, in tests/fuzz/): a crash, a sanitizer report or an abort that a
# fuzzer once found must stay fixed. Prints "fuzz-corpus: N passed, N failed, 0 skipped".
: "${SHARESIM:?SHARESIM must point at the built binary}"
: "${TOP_SRCDIR:?TOP_SRCDIR must point at the source tree}"
bin=$(dirname "$SHARESIM")/tests/fuzz
pass=0; failed=0
for dir in "$TOP_SRCDIR"/tests/fuzz/corpus/*/; do
  name=$(basename "$dir")
  t="$bin/$name"
  if [ ! -x "$t" ]; then echo "FAIL: $name: no target $t"; failed=$((failed + 1)); continue; fi
  n=$(ls "$dir" | wc -l)
  # files as arguments: both the plain driver and a libFuzzer build run each once
  if "$t" "$dir"* >"$bin/$name.out" 2>&1; then
    echo "ok: $name: $n inputs"; pass=$((pass + 1))
  else
    echo "FAIL: $name (exit $?):"; tail -n 20 "$bin/$name.out"; failed=$((failed + 1))
  fi
done
echo "fuzz-corpus: $pass passed, $failed failed, 0 skipped"
[ "$failed" -eq 0 ]
