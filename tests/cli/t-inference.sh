# t-inference.sh: inference services end to end: recorded requests give services.csv and
# the SLO columns of timeseries.csv and the summary; the inference scenario keys are
# checked; `import azure-llm` on a small file and (when present) on the real trace.
D="$DATA/inference"
run run "$D/one-gpu.yaml" "$D/services.csv" --requests "$D/requests.csv" -o res
expect_rc 0
expect_file res/services.csv
expect_eq "$(head -1 res/services.csv)" "scenario,seed,id,pool,requests,served,dropped,unanswered,mean_ms,p50_ms,p95_ms,p99_ms,max_ms,slo_ms,slo_pct,attainment_pct,met,violations,violation_minutes,busy_frac" "services.csv columns"
# 30 requests, 9 late (10, 20, ... 100 ms for the burst at 70 s), one violation minute
expect_eq "$(csv_get res/services.csv id svc id,pool,requests,served,dropped,unanswered,max_ms,slo_ms,slo_pct,attainment_pct,met,violations,violation_minutes)" \
  "svc,inf,30,30,0,0,100,15,99,70,0,9,1" "svc row"
expect_eq "$(head -1 res/timeseries.csv | awk -F, '{print $NF}')" "slo_violations" "timeseries.csv ends with slo_violations"
expect_eq "$(sed -n '2,4p' res/timeseries.csv | awk -F, '{printf "%s ", $NF}')" "0 9 0 " "violations by minute"
expect_out_contains "SLO               0 of 1 service met their target; 70.00 % of 30 requests within SLO; 1 violation minutes"
expect_out_contains "svc: 70.00 % within 15 ms (target 99 %)"
expect_eq "$(grep -c '"slo"' res/summary.json)" "1" "summary.json has an slo object"
expect_eq "$(tr -d ' \n' < res/summary.json | grep -o '"slo":{"services":1,"judged":1,"met":0,"missed":1,"requests":30,"violations":9' | wc -l)" "1" "slo counts in summary.json"

# the same inputs give the same folder
run run "$D/one-gpu.yaml" "$D/services.csv" --requests "$D/requests.csv" -o res2 -q
expect_rc 0
if diff -r res res2 >/dev/null; then pass; else fail "result folders differ"; fi

# bad inference settings: file:line:column, exit 2, nothing written
run run "$D/bad-inference.yaml" "$D/services.csv" -o res3
expect_rc 2
expect_err_contains "bad-inference.yaml:6:17: inference.service_dist: expected one of deterministic | exponential | lognormal, found 'gamma'"
expect_no_path res3
run check "$D/one-gpu.yaml" "$D/services.csv" --requests "$D/requests.csv"
expect_rc 0

# import azure-llm: a CRLF file without a final newline
printf 'TIMESTAMP,ContextTokens,GeneratedTokens\r\n2023-11-16 18:00:00.5,1000,10\r\n2023-11-16 18:00:02,100,100' > AzureLLMInferenceTrace_mini.csv
run import azure-llm AzureLLMInferenceTrace_mini.csv --requests-out req.csv --slo-ms 2000 -o tr.csv
expect_rc 0
expect_eq "$(sed -n 2p req.csv)" "azure-mini,0,250" "first request: 0.1 x 1000 + 15 x 10 ms"
expect_eq "$(sed -n 3p req.csv)" "azure-mini,1.5,1510" "second request"
expect_err_contains "azure-mini: 2 requests over 1.5 s"
run run "$D/one-gpu.yaml" tr.csv --requests req.csv -o res4 -q
expect_rc 0
expect_eq "$(csv_get res4/services.csv id azure-mini requests,served,dropped)" "2,2,0" "imported requests served"
run import azure-llm AzureLLMInferenceTrace_mini.csv --decode-ms-per-token -1
expect_rc 2
expect_err_contains "--decode-ms-per-token: expected a number from 0"
run import azure-llm --help
expect_rc 0
if [ -f "$SHARED_TRACES/azure-llm-inference-2023/AzureLLMInferenceTrace_code.csv" ]; then
  run import azure-llm "$SHARED_TRACES/azure-llm-inference-2023/AzureLLMInferenceTrace_code.csv" --requests-out code-req.csv -o code.csv
  expect_rc 0
  expect_eq "$(grep -c '' code-req.csv)" "8820" "a header and 8819 requests"
else
  skip_test "no ../shared/traces/azure-llm-inference-2023"
fi
