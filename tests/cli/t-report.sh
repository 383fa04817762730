# t-report.sh: `sharesim report`: the one-page HTML (and PDF) of result folders: headline in
# words, per-day rates and a warning when spans differ, showback adding up, no script and no
# network, deterministic, written whole; rendered in headless Chromium (no console errors,
# a non-blank screenshot), and the PDF's first page converted to an image that is not blank.
T=$TRACES/mixed-small.csv
run run "$SCEN/baseline-exclusive.yaml" "$T" -o base -q; expect_rc 0
run run "$SCEN/shared-pools.yaml" "$T" -o shared -q; expect_rc 0
run run "$SCEN/three-pools.yaml" "$T" -o three -q; expect_rc 0

run report base shared -o r.html; expect_rc 0
expect_file r.html
if grep -qE 'shared-pools saves \$[0-9,]+ a week \([0-9]+ %\) against whole GPUs \(baseline-exclusive\)' r.html; then pass; else fail "headline sentence missing"; fi
if grep -q 'a saving of \$2,950' r.html; then pass; else fail "saving over the trace with thousands separator"; fi
expect_eq "$(grep -c '<svg' r.html)" "2" "two inline charts"
expect_eq "$(grep -ci '<script' r.html)" "0" "no script"
expect_eq "$(grep -oE '(src|href)="[a-z]+:' r.html | wc -l | tr -d ' ')" "0" "no external resources"
if grep -q 'not charged to a tenant' r.html; then pass; else fail "idle row in showback"; fi
if grep -q 'class="warn"' r.html; then fail "warning although spans agree"; else pass; fi
# showback rows add up to the cost of the set-up (the money cells of the first table)
sum=$(sed -n '/<h3>baseline-exclusive<\/h3>/,/<\/table>/p' r.html | grep -o '<td>\$[0-9,.]*</td>' | tr -d '<td>/$,' | awk '{s+=$1} END {printf "%.0f", s}')
total=$(awk -F'"cost" : ' '/"cost" :/ {split($2, a, ","); printf "%.0f", a[1]; exit}' base/summary.json)
expect_eq "$sum" "$total" "showback rows add up to the total"
run report base shared -o r2.html; expect_rc 0
expect_same_files r.html r2.html

# runs of different lengths: a warning, and per-day rates
run report base three -o rd.html; expect_rc 0
if grep -q 'Warning:</b> the runs cover different spans (5.12 days, 7.00 days)' rd.html; then pass; else fail "span warning"; fi
if grep -qE 'three-pools (costs|saves) \$[0-9,]+ (more )?a week' rd.html; then pass; else fail "rate headline"; fi
if grep -q ' a day against ' rd.html; then pass; else fail "per-day rates"; fi

# bad input and output paths
run report base; expect_rc 2; expect_err_contains "expected result folders and -o report.html"
run report nowhere -o x.html; expect_rc 2; expect_no_path x.html
ln -s /dev/null link.html
run report base -o link.html; expect_rc 2; expect_err_contains "refusing to write link.html: it exists and is a symbolic link"
expect_eq "$(readlink link.html)" "/dev/null" "the symbolic link is left alone"
mkdir userdir; run report base -o userdir; expect_rc 2; expect_err_contains "it exists and is a folder"
expect_eq "$(ls -a | grep -c '\.tmp-')" "0" "no temporary left behind"

# ---- in a real browser ----
CHROME=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROME" ]; then
  skip_test "chromium not installed"
else
  chrome() { "$CHROME" --headless --no-sandbox --disable-gpu --no-first-run --disable-dev-shm-usage \
    --user-data-dir="$PWD/chrome-profile" --enable-logging=stderr --v=0 "$@"; }
  # (Chromium reading the page sharesim wrote runs no sharesim code: the check stage only)
  if ! skip_repeat "Chromium's console, DOM and screenshot checks of r.html"; then
    # the console check can fail: a page with a console error is caught
    printf '<html><body><script>console.error("boom")</script>x</body></html>' > bad.html
    chrome --dump-dom "file://$PWD/bad.html" >/dev/null 2>bad.log
    if grep -q ':CONSOLE' bad.log; then pass; else fail "console check does not see console.error"; fi
    chrome --dump-dom "file://$PWD/r.html" >dom.html 2>chrome.log
    expect_eq "$(grep -c ':CONSOLE' chrome.log)" "0" "no console messages"
    if grep -q 'saves \$' dom.html && grep -q '<svg' dom.html; then pass; else fail "rendered DOM lacks headline or charts"; fi
    chrome --screenshot="$PWD/shot.png" --window-size=1100,1400 "file://$PWD/r.html" >/dev/null 2>&1
    expect_file shot.png
    expect_eq "$([ "$(wc -c < shot.png)" -gt 50000 ] && echo big)" "big" "screenshot holds text and charts (size $(wc -c < shot.png) B)"
  fi
  SHARESIM_PDF_TIMEOUT=180 run report base shared -o p.html --pdf p.pdf; expect_rc 0
  expect_file p.pdf
  if command -v pdftoppm >/dev/null 2>&1; then
    pdftoppm -f 1 -l 1 -r 40 -gray p.pdf page
    pg=$(ls page*.pgm 2>/dev/null | head -1)
    # share of non-white pixels on page 1 (PGM, 8-bit): text and charts make it well above zero
    dark=$(tail -c +16 "$pg" | od -An -v -tu1 | tr -s ' ' '\n' | awk 'NF && $1 < 200 {d++} NF {n++} END {printf "%d", 1000 * d / n}')
    expect_eq "$([ "${dark:-0}" -gt 5 ] && echo inked)" "inked" "PDF page 1 is not blank (${dark} per mille dark)"
    if pdftotext -f 1 -l 1 p.pdf - | grep -q 'saves \$'; then pass; else fail "PDF page 1 lacks the headline"; fi
  else
    skip_test "pdftoppm not installed"
  fi
fi

# ---- charts a reviewer stumbled on ----
if command -v gnuplot >/dev/null 2>&1; then
  run compare base three -o cmp; expect_rc 0
  run plot cmp --format svg; expect_rc 0
  if grep -q '>costs \$[0-9]* more<' cmp/plots/compare-cost.svg; then pass; else fail "compare-cost: extra cost not worded as such"; fi
  if grep -q 'saves \$-' cmp/plots/compare-cost.svg; then fail "compare-cost says 'saves \$-'"; else pass; fi
  # SLO chart: named axis, only the pools that host services
  expect_eq "$(grep -c "^ylabel_text = 'requests over their SLO, by arrival interval'" cmp/plots/three-pools/slo.gp)" "1" "SLO axis named in words"
  expect_eq "$(grep '^shown\[' cmp/plots/three-pools/slo.gp | grep -c dev-timeslice)" "0" "a pool without services is not drawn"
  expect_eq "$(grep -c '^shown\[' cmp/plots/three-pools/slo.gp)" "2" "the two pools with services are drawn"
  # counts on the faults chart: whole-number ticks only, even when every count is zero
  run compare base shared -o cmp0; expect_rc 0
  run plot cmp0 --format svg; expect_rc 0
  expect_eq "$(grep -o '<text>[0-9.]*</text>' cmp0/plots/compare-faults.svg | grep -c '\.')" "0" "no fractional ticks on a count axis"
else
  skip_test "gnuplot not installed"
fi

# ---- issue 29 (S3-09, S3-10, S3-11): Chromium confined to the command's own temporary ----
# A stand-in Chromium (SHARESIM_CHROMIUM) writes into $HOME and $TMPDIR as the real one does
# (crash reports, dconf, org.chromium.*), then a good PDF, an empty one, or hangs with a
# child that ignores SIGTERM: HOME and TMPDIR stay empty, an empty PDF is exit 1 with no
# file, and a signal leaves neither a process nor a scratch folder behind.
mkdir -p fake phome ptmp
tag="1001$$"
cat > fake/chromium <<FAKE
#!/bin/sh
out=; for a in "\$@"; do case \$a in --print-to-pdf=*) out=\${a#--print-to-pdf=} ;; esac; done
mkdir -p "\$HOME/.config/chromium/Crash Reports" "\$TMPDIR/org.chromium.Chromium.x" && echo x > "\$HOME/.config/chromium/Crash Reports/settings.dat"
case \${FAKE_PDF:-good} in
  good) printf '%%PDF-1.4\n1 0 obj <</Type /Pages /Kids [2 0 R] /Count 1>> endobj\n2 0 obj <</Type /Page>> endobj\n%%%%EOF\n' > "\$out" ;;
  empty) : > "\$out" ;;
  hang) trap '' TERM; sleep $tag & wait ;;
esac
FAKE
chmod +x fake/chromium
export SHARESIM_CHROMIUM="$PWD/fake/chromium"
HOME="$PWD/phome" TMPDIR="$PWD/ptmp" run report base -o f.html --pdf f.pdf; expect_rc 0
expect_eq "$(head -c 5 f.pdf)" "%PDF-" "the stand-in's PDF delivered"
expect_eq "$(find phome ptmp -mindepth 1 | wc -l | tr -d ' ')" 0 "nothing written into HOME or TMPDIR"
FAKE_PDF=empty HOME="$PWD/phome" TMPDIR="$PWD/ptmp" run report base -o e.html --pdf e.pdf; expect_rc 1
expect_err_contains "Chromium wrote no usable PDF (0 bytes, no page)"
expect_no_path e.pdf
expect_eq "$(find phome ptmp -mindepth 1 | wc -l | tr -d ' ')" 0 "nothing left after a failed PDF"
for sig in TERM INT HUP; do
  # (a background job of a script starts with SIGINT ignored, and a harness may start the
  # suite with SIGHUP or SIGTERM ignored, which sharesim keeps: env gives each its default)
  FAKE_PDF=hang HOME="$PWD/phome" TMPDIR="$PWD/ptmp" SHARESIM_PDF_TIMEOUT=60 env --default-signal=INT,TERM,HUP "$SHARESIM" report base -o h.html --pdf h.pdf > out.txt 2> err.txt < /dev/null & pid=$!
  i=0; while [ $i -lt 100 ] && ! pgrep -f "sleep $tag" > /dev/null; do sleep 0.1; i=$((i + 1)); done
  kill -$sig $pid; wait $pid; RC=$?
  LAST="report --pdf with a hung Chromium, SIG$sig"
  if [ "$RC" -ge 129 ]; then pass; else fail "exit $RC after SIG$sig"; fi
  expect_eq "$(pgrep -f "sleep $tag" | wc -l | tr -d ' ')" 0 "no Chromium process left after SIG$sig"
  expect_eq "$(ls -A ptmp | wc -l | tr -d ' ')" 0 "no scratch folder left after SIG$sig"
  pkill -KILL -f "sleep $tag" 2> /dev/null
done
unset SHARESIM_CHROMIUM
