# t-llm.sh: LLM services end to end: recorded requests with their tokens give llm.csv
# (TTFT, TPOT, goodput) and services.csv rows; bad LLM cells are refused with their place;
# `import mooncake` on a small file and (when present) on the real trace.
D="$DATA/llm"
run run "$D/one-gpu.yaml" "$D/service.csv" --requests "$D/requests.csv" -o res -q
expect_rc 0
expect_file res/llm.csv
expect_eq "$(head -1 res/llm.csv)" "scenario,seed,id,pool,served,ttft_p50_ms,ttft_p99_ms,tpot_p50_ms,tpot_p99_ms,e2e_p50_ms,e2e_p99_ms,goodput_rps,kv_blocks,reserved_gb" "llm.csv columns"
# three requests one second apart never overlap: TTFT = one prefill of 1000 tokens
# (2 x 8e9 x 1000 FLOP at 0.66 x 989 TFLOP/s: ~25 ms), TPOT one decode step (~6.5 ms)
ttft=$(csv_get res/llm.csv id chat ttft_p50_ms)
tpot=$(csv_get res/llm.csv id chat tpot_p50_ms)
expect_eq "$(awk -v t="$ttft" 'BEGIN { print (t > 15 && t < 40) }')" "1" "TTFT $ttft ms"
expect_eq "$(awk -v t="$tpot" 'BEGIN { print (t > 4 && t < 9) }')" "1" "TPOT $tpot ms"
expect_eq "$(csv_get res/services.csv id chat requests,served,dropped,unanswered)" "3,3,0,0" "services.csv counts"
# llm-latency.csv: the three requests are alike, so each distribution is one bucket whose
# upper edge is at most 1/64 above the value, holding all of them
expect_eq "$(head -1 res/llm-latency.csv)" "scenario,seed,service,metric,latency_ms,cum_frac" "llm-latency.csv columns"
expect_eq "$(csv_get res/llm-latency.csv "" "" service,metric | sort -u | tr '\n' ' ')" "chat,e2e chat,tpot chat,ttft " "one distribution per metric"
for m in ttft tpot e2e; do
  expect_eq "$(csv_get res/llm-latency.csv metric "$m" service,cum_frac | grep '^chat,' | tail -1 | cut -d, -f2)" "1" "$m: the last bucket holds every request"
done
edge=$(csv_get res/llm-latency.csv metric ttft service,latency_ms | grep '^chat,' | head -1 | cut -d, -f2)
expect_eq "$(awk -v e="$edge" -v t="$ttft" 'BEGIN { print (e >= t * 0.999 && e <= t * (1 + 1 / 64.0) * 1.001) }')" "1" "TTFT bucket edge $edge ms against p50 $ttft ms"
# a run without LLM services writes neither LLM file
printf 'id,submit_s,kind,gpus,mem_gb,duration_s,rate_rps,service_ms\nsvc,0,inference,1,10,60,10,5\n' > plain.csv
run run "$D/one-gpu.yaml" plain.csv -o res6 -q
expect_rc 0
expect_file res6/latency.csv
expect_no_path res6/llm.csv
expect_no_path res6/llm-latency.csv
# a recorded prompt of 9,000 tokens does not fit llama-3-8b's 8,192-token context: vLLM
# refuses it; it is dropped, not shortened and served
{ cat "$D/requests.csv"; echo "chat,4,9000,10"; } > long.csv
run run "$D/one-gpu.yaml" "$D/service.csv" --requests long.csv -o reslong -q
expect_rc 0
expect_eq "$(csv_get reslong/services.csv id chat requests,served,dropped,unanswered)" "4,3,1,0" "the long prompt is dropped"
expect_eq "$(csv_get reslong/llm.csv id chat served)" "3" "three served"
run run "$D/one-gpu.yaml" "$D/service.csv" --requests "$D/requests.csv" -o res2 -q
if diff -r res res2 >/dev/null; then pass; else fail "result folders differ"; fi
run run "$D/one-gpu.yaml" "$D/service.csv" --requests "$D/requests.csv" -o res5
expect_rc 0
expect_out_contains "chat: TTFT p50 "
expect_out_contains " req/s"


# bad cells: file:line:column, exit 2
printf 'id,submit_s,kind,gpus,mem_gb,duration_s,rate_rps,model,gpu_memory_utilization\nx,0,inference,1,0,60,1,gpt-9,1.5\n' > bad.csv
run check "$D/one-gpu.yaml" bad.csv
expect_rc 2
expect_err_contains "bad.csv:2:8: model: expected an LLM from the model table"
expect_err_contains "bad.csv:2:9: gpu_memory_utilization: expected a fraction 0 < f <= 1, found '1.5'"
printf 'job_id,at_s,prompt_tokens\nchat,1,0\n' > badreq.csv
run check "$D/one-gpu.yaml" "$D/service.csv" --requests badreq.csv
expect_rc 2
expect_err_contains "badreq.csv:2:3: prompt_tokens: expected tokens, an integer from 1 to 10000000, found '0'"

# import mooncake: CRLF and LF lines, a blank line, no final newline; time order checked
run import mooncake "$D/mooncake-mini.jsonl" --requests-out req.csv -o tr.csv
expect_rc 2
expect_err_contains "mooncake-mini.jsonl:4: timestamp: expected a time at or after the previous line's"
run import mooncake "$D/mooncake-mini.jsonl" --skip-bad --requests-out req.csv -o tr.csv
expect_rc 0
expect_eq "$(sed -n 2p req.csv)" "mooncake-conv,0.000,,900,50" "first request"
expect_eq "$(sed -n 3p req.csv)" "mooncake-conv,1.500,,1100,150" "second request"
expect_eq "$(head -1 tr.csv | awk -F, '{print $(NF-2) "," $(NF-1) "," $NF}')" "model,prompt_tokens,output_tokens" "LLM columns"
run run "$D/one-gpu.yaml" tr.csv --requests req.csv -o res3 -q
expect_rc 0
expect_eq "$(csv_get res3/services.csv id mooncake-conv requests,served)" "2,2" "imported requests served"
run import mooncake "$D/mooncake-mini.jsonl" --skip-bad --model gpt-9 -o tr2.csv
expect_rc 2
expect_err_contains "--model: expected one of llama-2-7b"
# import mooncake, issue 29 (S3-07, S3-08): CR-only line ends are lines (3 requests, not 1), a
# second value on a line is refused with its column (never dropped), and a deeply nested line
# is refused by the JSON depth limit (it overflowed the stack: SIGSEGV)
printf '{"timestamp":0,"input_length":10,"output_length":5}\r{"timestamp":1000,"input_length":20,"output_length":5}\r{"timestamp":2000,"input_length":30,"output_length":5}\r' > cr.jsonl
run import mooncake cr.jsonl -o cr.csv --requests-out cr-req.csv
expect_rc 0
expect_eq "$(tail -n +2 cr-req.csv | wc -l | tr -d ' ')" 3 "CR-only lines: every request read"
printf '{"timestamp":0,"input_length":10,"output_length":5} {"timestamp":1000,"input_length":20,"output_length":5}\n' > two.jsonl
run import mooncake two.jsonl -o two.csv
expect_rc 2
expect_err_contains "two.jsonl:1:53: expected one JSON value per line, found more text after it"
expect_no_path two.csv
awk 'BEGIN { printf "{\"timestamp\":0,\"input_length\":10,\"output_length\":5,\"hash_ids\":"; for (i = 0; i < 100000; i++) printf "["; for (i = 0; i < 100000; i++) printf "]"; print "}" }' > deep.jsonl
run import mooncake deep.jsonl -o deep.csv
expect_rc 2
expect_err_contains "deep.jsonl:1:318: JSON nested deeper than 256 levels"
if [ -f "$SHARED_TRACES/mooncake-fast25/conversation_trace.jsonl" ]; then
  run import mooncake "$SHARED_TRACES/mooncake-fast25/conversation_trace.jsonl" -o mc.csv
  expect_rc 0
  expect_err_contains "12031 requests over 3537.0 s"
  expect_eq "$(sed -n 2p mc.csv | awk -F, '{print $(NF-1) "," $NF}')" "12035,342" "Mooncake mean tokens"
else
  skip_test "no ../shared/traces/mooncake-fast25"
fi

# import azure-llm --model: LLM rows with the mean tokens, requests with their tokens
printf 'TIMESTAMP,ContextTokens,GeneratedTokens\r\n2023-11-16 18:00:00.5,1000,10\r\n2023-11-16 18:00:02,100,100' > AzureLLMInferenceTrace_mini.csv
run import azure-llm AzureLLMInferenceTrace_mini.csv --model mistral-7b --requests-out areq.csv -o atr.csv
expect_rc 0
expect_eq "$(sed -n 1p areq.csv)" "job_id,at_s,service_ms,prompt_tokens,output_tokens" "requests header"
expect_eq "$(sed -n 2p areq.csv)" "azure-mini,0,,1000,10" "first request's tokens"
expect_eq "$(sed -n 2p atr.csv | awk -F, '{print $(NF-3) "," $(NF-2) "," $(NF-1) "," $NF}')" "mistral-7b,550,55,2023-11-16T18:00:00.500Z" "model, mean tokens and the calendar"
run run "$D/one-gpu.yaml" atr.csv --requests areq.csv -o res4 -q
expect_rc 0
expect_eq "$(csv_get res4/llm.csv id azure-mini served)" "2" "both served by the LLM"
run import azure-llm AzureLLMInferenceTrace_mini.csv --model gpt-9 -o atr2.csv
expect_rc 2
expect_err_contains "--model: expected one of llama-2-7b"
