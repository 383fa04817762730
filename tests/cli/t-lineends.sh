# t-lineends.sh: line numbers are counted for LF, CR-only and CRLF line ends in every reader
# (issue 14 D13): trace, phases, requests, scenario YAML, NVIDIA configs, the interference
# table and the CSV importers all report the line the problem is on, not line 1.
S=$DATA/trace/one-pool.yaml
L=$DATA/lineends

run check "$S" "$L/trace-cr.csv"; expect_rc 2
expect_err_contains "trace-cr.csv:4:2: submit_s: expected seconds >= 0"
run check "$S" "$DATA/trace/small.csv" --phases "$L/phases-cr.csv" --requests "$L/requests-cr.csv"
expect_rc 2
expect_err_contains "phases-cr.csv:6:6: crash: expected 0 or 1, found '2'"
expect_err_contains "requests-cr.csv:6:2: at_s: expected seconds >= 0"
run check "$L/sharing.yaml"; expect_rc 2
expect_err_contains "ts-bad-cr.yaml:6:17: sharing.timeSlicing.resources[1].replicas"
# a YAML reader error (a control character) is placed by counting CR, CRLF and LF
run check "$L/control-char.yaml"; expect_rc 2
expect_err_contains "control-char.yaml:4:5: YAML syntax error: control characters are not allowed"
# the interference table mixes CR and CRLF
run check "$L/interference.yaml"; expect_rc 2
expect_err_contains "interference-crlf-cr.csv:3:3: speed_a: expected a speed"
# importers read CSV through the same reader
run import alibaba-openb "$L/openb-cr.csv"; expect_rc 2
expect_err_contains "openb-cr.csv:3:4: num_gpu: expected a whole number of GPUs"
expect_err_contains "openb-cr.csv:5:11: scheduled_time:"
run import dcgm "$L/dcgm-cr.csv"; expect_rc 2
expect_err_contains "dcgm-cr.csv:4:1: timestamp: expected Unix seconds"
