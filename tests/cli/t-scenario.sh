# t-scenario.sh: `sharesim check` on scenario files (SPEC 3.4): a valid scenario, every
# problem of a bad one with file:line:column, YAML syntax errors, NVIDIA config files,
# exit codes.
S="$DATA/scenario"

run check "$S/exclusive-ok.yaml"
expect_rc 0; expect_err_empty
expect_out_contains "exclusive-ok.yaml: scenario 'two-exclusive', 2 pools, 24 GPUs"

# every problem of the file, each with line and column, in line order
run check "$S/bad-many.yaml"
expect_rc 2
expect_err_contains "bad-many.yaml:1:7: name: expected a name of 1 to 64 characters"
expect_err_contains "bad-many.yaml:2:7: seed: expected an integer from 0 to 18446744073709551615, found '-3'"
expect_err_contains "bad-many.yaml:6:10: pools[1].gpu: expected a GPU model (did you mean A100-40GB, A100-80GB?"
expect_err_contains "bad-many.yaml:7:12: pools[1].nodes: a pool with no GPUs is not allowed"
expect_err_contains "bad-many.yaml:11:5: pools[1]: key 'layout' applies only to strategy mig (this pool's strategy is time-slicing)"
expect_err_contains "bad-many.yaml:16:15: pools[2].replicas: expected an integer from 1 to 48, found '49'"
expect_err_contains "bad-many.yaml:19:5: pools[2]: unknown key 'replica' (did you mean 'replicas'?); valid keys: name, gpu,"
expect_err_contains "bad-many.yaml:24:26: routing[1].pool: expected the name of a pool (one of: dev, inf), found 'nowhere'"
expect_err_contains "bad-many.yaml:26:3: prices: expected a GPU model"
expect_err_contains "16 problems"
expect_eq "$(grep -c 'bad-many.yaml:' err.txt)" 16 "one line per problem"
expect_eq "$(grep -o 'bad-many.yaml:[0-9]*' err.txt | cut -d: -f2 | tr '\n' ' ')" \
  "1 2 3 6 7 9 10 11 16 17 18 19 20 24 24 26 " "problems in line order"

# memory oversubscription keys out of range, and on a strategy that does not offer it
run check "$S/bad-oversub.yaml"
expect_rc 2
expect_err_contains "bad-oversub.yaml:8:28: pools[1].device_memory_scaling: expected a scaling greater than 0 and at most 10, found '12'"
expect_err_contains "bad-oversub.yaml:9:25: pools[1].migration_slowdown: expected a slowdown of at least 1 and at most 1000, found '0'"
expect_err_contains "bad-oversub.yaml:15:21: pools[2].unified_memory: expected a ratio of at least 1 and at most 10, found '0.5'"
expect_err_contains "bad-oversub.yaml:21:5: pools[3]: key 'unified_memory' applies only to strategy time-slicing (this pool's strategy is exclusive)"
expect_err_contains "4 problems"

run check "$S/bad-syntax.yaml"
expect_rc 2
expect_err_contains "bad-syntax.yaml:4:10: YAML syntax error: did not find expected ',' or ']' (while parsing a flow sequence at line 3)"

run check "$S/empty.yaml"
expect_rc 2; expect_err_contains "empty.yaml: the file is empty: expected a YAML mapping"

run check "$S/no-such-file.yaml"
expect_rc 2; expect_err_contains "no-such-file.yaml: cannot read: No such file or directory"

# NVIDIA files: problems point into the file they are in
run check "$S/bad-nvidia.yaml"
expect_rc 2
expect_err_contains "nvidia/mps-60.yaml:6:19: sharing.mps.resources[1].replicas: expected an integer from 2 to 48, found '60'"
expect_err_contains "bad-nvidia.yaml:11:22: pools[2].mig_config_name: $S/nvidia/mig-a100-80gb.yaml: config 'all-disabled' disables MIG (mig-enabled: false at line 5)"

run check "$S/nvidia/bad-sharing.yaml"   # not a scenario: its keys are reported, not a crash
expect_rc 2; expect_err_contains "bad-sharing.yaml:1:1: unknown key 'version'"

# the SPEC example and the NVIDIA-config example: the scenario reader accepts them; any
# remaining problem can only be a strategy this build does not have yet
for f in "$S/three-pools.yaml" "$S/from-nvidia.yaml" "$SCEN/nvidia/from-nvidia-configs.yaml"; do
  run check "$f"
  if [ "$RC" = 0 ]; then pass; else
    expect_rc 2
    expect_eq "$(grep -v -e 'is not built in this version' -e 'problems found' -e 'problem found' err.txt | wc -l)" 0 \
      "$(basename "$f"): only unbuilt-strategy problems"
  fi
done
