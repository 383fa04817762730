# t-hostile.sh: the hostile-number corpus (issue 29, item 3). Every numeric field of the
# scenario, the trace, the phases and the requests file gets each hostile value: NaN, inf,
# -0, 1e308, 1e-320, hexadecimal (0x10, 0x1p3), 2^63 and a negative value. The cases are made
# here from the table below (one row a field, the expected outcome per value), not kept as
# files. Each case is either refused by `check` and `run` alike, exit 2, at the exact
# file:line:column of the value (the character column in YAML, the field number in CSV), or accepted by both and then runs to a bounded end
# (exit 0, under a CPU-time limit). Nothing crashes, hangs or prints half a result.
#
# Values, in this order (a column of each expect string below):
#   nan inf -0 1e308 1e-320 0x10 0x1p3 9223372036854775808 -1
# Expect: R refused at the value's position (exit 2), A accepted (check 0, run 0),
# B refused by the work budget (exit 2, "--allow-large"; check and run agree).
VALUES="nan inf -0 1e308 1e-320 0x10 0x1p3 9223372036854775808 -1"

# run_case FILE LINE COL EXPECT SCENARIO TRACE [PHASES] [REQUESTS]: runs check then run on the
# case, compares with EXPECT (R, A or B). The positions are those of the value in FILE.
run_case() {
  rc_f=$1 rc_line=$2 rc_col=$3 rc_want=$4 rc_sc=$5 rc_tr=$6 rc_ph=${7:-} rc_rq=${8:-}
  set -- "$rc_sc" "$rc_tr"
  [ -n "$rc_ph" ] && set -- "$@" --phases "$rc_ph"
  [ -n "$rc_rq" ] && set -- "$@" --requests "$rc_rq"
  ( ulimit -t 20; exec "$SHARESIM" check "$@" ) >out.txt 2>err.txt </dev/null; RC=$?
  LAST="check $* ($CASE)"
  case $rc_want in
    R) expect_rc 2; expect_err_contains "$rc_f:$rc_line:$rc_col: " ;;
    B) expect_rc 2; expect_err_contains "--allow-large" ;;
    A) expect_rc 0 ;;
    *) fail "no expected outcome for $CASE in the table" ;;
  esac
  rm -rf res
  ( ulimit -t 20; exec "$SHARESIM" run "$@" -o res -q ) >out.txt 2>err.txt </dev/null; RC=$?
  LAST="run $* ($CASE)"
  case $rc_want in
    R) expect_rc 2; expect_err_contains "$rc_f:$rc_line:$rc_col: "; expect_no_path res ;;
    B) expect_rc 2; expect_no_path res ;;
    A) expect_rc 0; expect_file res/summary.json ;;
  esac
}

# PICK: the expected outcome of value number $2 (1-based) of expect string $1 (no fork: the
# suite runs this a thousand times)
pick() {
  p_s=$1 p_n=$2
  while [ "$p_n" -gt 1 ]; do p_s=${p_s#?}; p_n=$((p_n - 1)); done
  PICK=${p_s%"${p_s#?}"}
}

# ---- scenario numbers: KEY|EXPECT; the key's value is the last thing on line 2 ----
# (pool keys go on the pool's own line, 4; their values start at column 5 + key length + 2)
printf 'id,submit_s,kind,gpus,mem_gb,duration_s\na,0,training,1,10,600\n' > base.csv
TABLE1="
seed|RRRRRRRAR
horizon|RRRRRRRRR
interval|RRRRRRRRR
ts_switch_loss|RRARRRRRR
mps_block_wait|RRARRRRRR
max_restarts|RRARRRRRR
crash_rates.training|RRAARRRAR
prices.A100-80GB|RRRRRRRRR
inference.service_cv|RRARRRRRR
pools.nodes|RRRRRRRRR
pools.gpus_per_node|RRRRRRRRR
pools.replicas|RRRRRRRRR
pools.price|RRRRRRRRR
pools.fraction_cap|RRRRRRRRR
"
for row in $TABLE1; do
  IFS='|' read -r key want <<ROW
$row
ROW
  i=0
  for v in $VALUES; do
    i=$((i + 1)); pick "$want" $i; w=$PICK; CASE="$key=$v"
    case $key in
      pools.*)
        k=${key#pools.}
        printf 'name: h\npools:\n  - name: main\n    %s: %s\n    gpu: A100-80GB\n' "$k" "$v" > sc.yaml
        [ "$k" = nodes ] || printf '    nodes: 1\n' >> sc.yaml
        [ "$k" = fraction_cap ] && printf '    strategy: fractional\n' >> sc.yaml
        [ "$k" = replicas ] && printf '    strategy: time-slicing\n' >> sc.yaml
        run_case sc.yaml 4 $((5 + ${#k} + 2)) "$w" sc.yaml base.csv ;;
      *.*)
        outer=${key%%.*} inner=${key#*.}
        printf 'name: h\n%s: {%s: %s}\npools:\n  - {name: main, gpu: A100-80GB, nodes: 1}\n' "$outer" "$inner" "$v" > sc.yaml
        run_case sc.yaml 2 $((${#outer} + ${#inner} + 6)) "$w" sc.yaml base.csv ;;
      *)
        printf 'name: h\n%s: %s\npools:\n  - {name: main, gpu: A100-80GB, nodes: 1}\n' "$key" "$v" > sc.yaml
        run_case sc.yaml 2 $((${#key} + 3)) "$w" sc.yaml base.csv ;;
    esac
  done
done

# ---- files: one row per value (row i + 1 holds value i), so that one check of the file
# says where each value is refused and that the accepted ones are not; run refuses the same;
# then the accepted rows alone are checked and run to a bounded end ----

# csv_case FILE COL EXPECT TRACE [PHASES] [REQUESTS]: FILE is one of the inputs, with the
# values in rows 2 to 10, each in field COL
csv_case() {
  cf=$1 ccol=$2 cwant=$3 ctr=$4 cph=${5:-} crq=${6:-}
  set -- one.yaml "$ctr"
  [ -n "$cph" ] && set -- "$@" --phases "$cph"
  [ -n "$crq" ] && set -- "$@" --requests "$crq"
  ( ulimit -t 20; exec "$SHARESIM" check "$@" ) >out.txt 2>err.txt </dev/null; RC=$?
  LAST="check $* ($CASE)"
  expect_rc 2
  cp err.txt check-err.txt
  n=0
  for v in $VALUES; do
    n=$((n + 1))
    pick "$cwant" $n
    case $PICK in
      R) expect_err_contains "$cf:$((n + 1)):$ccol: " ;;
      A) if grep -q "^$cf:$((n + 1)):" err.txt; then fail "$CASE value $v refused"; else pass; fi ;;
      *) fail "no expected outcome for $CASE value $n" ;;
    esac
  done
  rm -rf res
  ( ulimit -t 20; exec "$SHARESIM" run "$@" -o res -q ) >out.txt 2>err.txt </dev/null; RC=$?
  LAST="run $* ($CASE)"
  expect_rc 2; expect_no_path res
  expect_eq "$(grep -c "^$cf:" err.txt)" "$(grep -c "^$cf:" check-err.txt)" "run refuses what check refuses"
  # the accepted values alone: a bounded run
  keep=1 n=0
  for v in $VALUES; do
    n=$((n + 1)); pick "$cwant" $n; [ "$PICK" = A ] && keep="$keep,$((n + 1))"
  done
  awk -v keep=",$keep," 'index(keep, "," NR ",")' "$cf" > ok.csv && mv ok.csv "$cf"
  ( ulimit -t 20; exec "$SHARESIM" check "$@" ) >out.txt 2>err.txt </dev/null; RC=$?
  LAST="check $* ($CASE, accepted rows)"; expect_rc 0
  ( ulimit -t 20; exec "$SHARESIM" run "$@" -o res -q ) >out.txt 2>err.txt </dev/null; RC=$?
  LAST="run $* ($CASE, accepted rows)"; expect_rc 0; expect_file res/summary.json
}

# the rows of a trace of 9 jobs a1..a9 of KIND, the value of COLUMN in job i (a column of
# its own when it is not one of the first six)
trace_rows() {
  tcol=$1 tkind=$2 th="" tv=""
  [ "$tkind" = inference ] && [ "$tcol" != rate_rps ] && th=",rate_rps" tv=",1"
  [ "$tkind" = inference ] && [ "$tcol" != service_ms ] && th="$th,service_ms" tv="$tv,20"
  case $tcol in submit_s|gpus|mem_gb|duration_s) ;; *) th="$th,$tcol" ;; esac
  echo "id,submit_s,kind,gpus,mem_gb,duration_s$th"
  n=0
  for v in $VALUES; do
    n=$((n + 1))
    case $tcol in
      submit_s) echo "a$n,$v,$tkind,1,10,600$tv" ;;
      gpus) echo "a$n,0,$tkind,$v,10,600$tv" ;;
      mem_gb) echo "a$n,0,$tkind,1,$v,600$tv" ;;
      duration_s) echo "a$n,0,$tkind,1,10,$v$tv" ;;
      *) echo "a$n,0,$tkind,1,10,600$tv,$v" ;;
    esac
  done
}

printf 'name: h\npools:\n  - {name: main, gpu: A100-80GB, nodes: 1}\n' > one.yaml
# trace numbers: COLUMN|KIND|EXPECT
TABLE2="
submit_s|training|RRARARRRR
gpus|training|RRRRRRRRR
mem_gb|training|RRARARRRR
duration_s|training|RRRRRRRRR
priority|training|RRARRRRRA
gpu_frac|training|RRRRARRRR
sm|training|RRRRARRRR
busy|notebook|RRARARRRR
burst_s|notebook|RRRRRRRRR
rate_rps|inference|RRARRRRRR
service_ms|inference|RRRRARRRR
slo_ms|inference|RRRRARRRR
slo_pct|inference|RRRRARRRR
kv_gb|inference|RRARARRRR
max_batch|inference|RRRRRRRRR
comm_frac|training|RRARARRRR
checkpoint_s|training|RRARARRRR
gpu_util|training|RRRRARRRR
cpu_milli|training|RRARRRRRR
memory_mib|training|RRARRRRRR
"
for row in $TABLE2; do
  IFS='|' read -r colname kind want <<ROW
$row
ROW
  CASE="trace $colname"
  trace_rows "$colname" "$kind" > t.csv
  col=$(head -1 t.csv | tr ',' '\n' | grep -nx "$colname" | cut -d: -f1)
  csv_case t.csv "$col" "$want" t.csv
done

# phases numbers: COLUMN|KIND|EXPECT (row i + 1 a phase of job ai)
TABLE3="
after_s|training|RRARARRRR
mem_gb|training|RRARARRRR
busy|notebook|RRARARRRR
sm|training|RRRRARRRR
rate_rps|inference|RRARRRRRR
crash|training|RRARRRRRR
"
for row in $TABLE3; do
  IFS='|' read -r colname kind want <<ROW
$row
ROW
  CASE="phases $colname"
  trace_rows checkpoint_s "$kind" | sed '2,$s/,[^,]*$/,0/' > t.csv
  n=0
  if [ "$colname" = after_s ]; then echo "job_id,after_s"; else echo "job_id,after_s,$colname"; fi > ph.csv
  for v in $VALUES; do
    n=$((n + 1))
    if [ "$colname" = after_s ]; then echo "a$n,$v"; else echo "a$n,10,$v"; fi >> ph.csv
  done
  csv_case ph.csv "$([ "$colname" = after_s ] && echo 2 || echo 3)" "$want" t.csv ph.csv
done

# requests numbers: COLUMN|EXPECT (row i + 1 a request of service ai)
TABLE4="
at_s|RRARARRRR
service_ms|RRRRARRRR
"
for row in $TABLE4; do
  IFS='|' read -r colname want <<ROW
$row
ROW
  CASE="requests $colname"
  trace_rows slo_pct inference | sed '2,$s/,[^,]*$/,99/' > t.csv
  n=0
  if [ "$colname" = at_s ]; then echo "job_id,at_s"; else echo "job_id,at_s,$colname"; fi > rq.csv
  for v in $VALUES; do
    n=$((n + 1))
    if [ "$colname" = at_s ]; then echo "a$n,$v"; else echo "a$n,1,$v"; fi >> rq.csv
  done
  csv_case rq.csv "$([ "$colname" = at_s ] && echo 2 || echo 3)" "$want" t.csv "" rq.csv
done

# ---- S3-15: hexadecimal is refused in every scenario number, with its position ----
for kv in "price: 0x1p3" "ts_switch_loss: 0x1p-4" "mps_block_wait: 0x10" \
          "crash_rates: {training: 0x1p2}" "prices: {A100-80GB: 0x1p1}" "max_restarts: 0x10" \
          "inference: {service_cv: 0x1p-1}"; do
  if [ "${kv%%:*}" = price ]; then
    printf 'name: h\npools:\n  - {name: main, gpu: A100-80GB, nodes: 1, %s}\n' "$kv" > hx.yaml
  else
    printf 'name: h\n%s\npools:\n  - {name: main, gpu: A100-80GB, nodes: 1}\n' "$kv" > hx.yaml
  fi
  run check hx.yaml; expect_rc 2
  expect_err_contains "found '0x"
  expect_err_contains "hx.yaml:"
done

# ---- S3-16: prices are bounded (1e6 $ per GPU-hour), so money prints with every digit ----
printf 'name: p\npools:\n  - {name: main, gpu: A100-80GB, nodes: 1, price: 1e308}\n' > p.yaml
run check p.yaml; expect_rc 2
expect_err_contains "p.yaml:3:51: pools[1].price: expected a price in \$ per GPU-hour greater than 0 and at most 1e6, found '1e308'"
printf 'name: p\nprices: {A100-80GB: 1000001}\npools:\n  - {name: main, gpu: A100-80GB, nodes: 1}\n' > p.yaml
run check p.yaml; expect_rc 2
expect_err_contains "p.yaml:2:21: prices.A100-80GB: expected a price in \$ per GPU-hour greater than 0 and at most 1e6"
# the largest price on a long job: summary.txt shows the cost summary.json has, to the cent
printf 'name: p\ninterval: 30d\npools:\n  - {name: main, gpu: A100-80GB, nodes: 1000, price: 1e6}\n' > p.yaml
printf 'id,submit_s,kind,gpus,mem_gb,duration_s\na,0,training,8,10,1000000000\n' > p.csv
run run p.yaml p.csv -o pr; expect_rc 0
json=$(sed -n 's/.*"cost" *: *\([0-9.e+]*\).*/\1/p' pr/summary.json | head -1)
txt=$(sed -n 's/^cost  *\$\([0-9.]*\).*/\1/p' out.txt | head -1)
expect_eq "$(awk -v a="$json" -v b="$txt" 'BEGIN { d = a - b; if (d < 0) d = -d; print (b != "" && d <= 1e-9 * a) ? "same" : a " vs " b }')" same "printed cost"
