# t-trace.sh: `sharesim check` on job traces, phases and requests files (SPEC 3.1-3.3):
# every problem is reported with file:line:column, the expected form and the value found,
# and the exit code is 2; good files pass with exit 0.
S=$DATA/trace/one-pool.yaml
T=$DATA/trace

run check "$S" "$T/small.csv"; expect_rc 0
run check "$S" "$T/all-columns.csv"; expect_rc 0
run check "$S" "$T/crlf-bom.csv"; expect_rc 0
run check "$S" "$T/small.csv" --phases "$T/phases.csv" --requests "$T/requests.csv"; expect_rc 0

# all three bad rows, each with its line and column
run check "$S" "$T/bad-rows.csv"; expect_rc 2
expect_err_contains "bad-rows.csv:3:4: gpus: expected an integer from 1 to 100000, found '0'"
expect_err_contains "bad-rows.csv:5:2: submit_s: expected seconds >= 0 (a decimal number, at most 1e9), found '-5'"
expect_err_contains "bad-rows.csv:6:5: mem_gb: expected a size >= 0 in GB"

# header: unknown and duplicate columns, missing required ones
run check "$S" "$T/bad-header.csv"; expect_rc 2
expect_err_contains "bad-header.csv:1:5: unknown column: expected one of id, submit_s,"
expect_err_contains "found 'colour'"
expect_err_contains "bad-header.csv:1:6: duplicate column: expected each column once (first at column 3), found 'gpus'"
expect_err_contains "bad-header.csv:1: missing required column 'submit_s'"
expect_err_contains "bad-header.csv:1: missing required column 'mem_gb'"

# phases and requests are checked against the trace
run check "$S" "$T/small.csv" --phases "$T/phases-bad.csv"; expect_rc 2
expect_err_contains "phases-bad.csv:2:1: job_id: expected the id of a job in the trace, found 'nope'"
expect_err_contains "phases-bad.csv:6:6: crash: expected 0 or 1, found '2'"
run check "$S" "$T/small.csv" --requests "$T/requests-bad.csv"; expect_rc 2
expect_err_contains "requests-bad.csv:3:1: job_id: expected the id of an inference job (job 'tr' is training), found 'tr'"
expect_err_contains "requests-bad.csv:5:2: at_s: expected seconds >= 1"

# shapes of files: CRLF, a bad quote, an empty file, a missing file
printf 'id,submit_s,kind,gpus,mem_gb,duration_s\r\nj1,0,batch,1,1,60\r\nj2,0,batch,1,1,0\r\n' > crlf.csv
run check "$S" crlf.csv; expect_rc 2
expect_err_contains "crlf.csv:3:6: duration_s: expected seconds > 0 (a decimal number, at most 1e9), found '0'"
printf 'id,submit_s,kind,gpus,mem_gb,duration_s\nj1,0,ba"tch,1,1,60\n' > quote.csv
run check "$S" quote.csv; expect_rc 2
expect_err_contains "quote.csv:2:3: kind: expected a cell quoted as a whole"
: > empty.csv
run check "$S" empty.csv; expect_rc 2
expect_err_contains "empty.csv:1: header: expected a header row naming the columns"
printf 'id,submit_s,kind,gpus,mem_gb,duration_s\n' > header-only.csv
run check "$S" header-only.csv; expect_rc 0
run check "$S" "$T/no-such-trace.csv"; expect_rc 2
expect_err_contains "no-such-trace.csv: cannot open: No such file or directory"
