# t-paths.sh: files a scenario names stay under its folder (issue 14 D08, SPEC 6).
# sharing_config, mig_config and interference (also through --set, in run and sweep)
# resolve relative to the scenario; an absolute path, a "../" path or a symbolic link that
# leaves the folder is refused (exit 2, file:line:column) and never read; --allow-path DIR
# allows another folder; a file that is not in the expected format is never quoted.
mkdir -p sc/cfg outside
cp "$DATA/scenario/nvidia/ts-4.yaml" outside/ts-4.yaml
cp "$DATA/scenario/nvidia/ts-4.yaml" sc/cfg/ts-4.yaml
printf 'root:SECRET-HASH-1:20228:0:99999:7::\nbin:SECRET-HASH-2:20228::\n' > outside/shadow
printf 'root:SECRET-HASH-1:20228:0:99999:7::\n' > sc/cfg/shadow
ln -s ../../outside/shadow sc/cfg/link
pool() { printf 'name: p\n%bpools:\n  - name: main\n    gpu: A100-80GB\n    nodes: 1\n%b' "$1" "$2" > sc/s.yaml; }
TR="$DATA/trace/small.csv"

for p in /etc/shadow "$PWD/outside/shadow" ../outside/shadow cfg/../../outside/shadow; do
  pool '' "    sharing_config: $p\n"
  run check sc/s.yaml; expect_rc 2
  expect_err_contains "s.yaml:6:21: pools[1].sharing_config: '$p' is outside the scenario's folder"
  if grep -q SECRET err.txt; then fail "content of $p quoted"; else pass; fi
done
# a symbolic link inside the folder that leads out is refused after resolving it
pool '' "    sharing_config: cfg/link\n"
run check sc/s.yaml; expect_rc 2
expect_err_contains "'cfg/link' is outside the scenario's folder"
expect_err_contains "(through a symbolic link)"
# mig_config and interference too
pool '' "    mig_config: ../../../../../../etc/passwd\n    mig_config_name: x\n"
run check sc/s.yaml; expect_rc 2
expect_err_contains "pools[1].mig_config: '../../../../../../etc/passwd' is outside"
pool 'interference: /etc/passwd\n' ''
run check sc/s.yaml; expect_rc 2
expect_err_contains "s.yaml:2:15: interference: '/etc/passwd' is outside"
if grep -q 'root:' err.txt; then fail "/etc/passwd quoted"; else pass; fi
# a file inside the folder that is not a config is refused without quoting it
pool '' "    sharing_config: cfg/shadow\n"
run check sc/s.yaml; expect_rc 2
expect_err_contains "cfg/shadow:1:1: not a device-plugin config: expected a YAML mapping with version and sharing (the content is not shown)"
if grep -q SECRET err.txt; then fail "content of cfg/shadow quoted"; else pass; fi
pool '' "    mig_config: cfg/shadow\n    mig_config_name: x\n"
run check sc/s.yaml; expect_rc 2
expect_err_contains "not a mig-parted config"
if grep -q SECRET err.txt; then fail "content of cfg/shadow quoted (mig)"; else pass; fi
pool 'interference: cfg/shadow\n' ''
run check sc/s.yaml; expect_rc 2
expect_err_contains "cfg/shadow:1: not an interference table"
if grep -q SECRET err.txt; then fail "content of cfg/shadow quoted (interference)"; else pass; fi
# a config inside the folder is read; one outside is read with --allow-path only
pool '' "    sharing_config: cfg/ts-4.yaml\n"
run check sc/s.yaml; expect_rc 0
pool '' "    sharing_config: ../outside/ts-4.yaml\n"
run check sc/s.yaml; expect_rc 2
run check sc/s.yaml --allow-path outside; expect_rc 0
expect_out_contains "ok"
run check sc/s.yaml --allow-path no-such-folder; expect_rc 2
expect_err_contains "--allow-path no-such-folder: expected an existing folder"
# --set goes through the same check, in run and in every point of a sweep
pool '' ''
run run sc/s.yaml "$TR" -q --set pools.main.sharing_config=/etc/shadow; expect_rc 2
expect_err_contains "--set pools.main.sharing_config"
expect_err_contains "'/etc/shadow' is outside the scenario's folder"
run sweep sc/s.yaml "$TR" --set pools.main.sharing_config=cfg/ts-4.yaml,../outside/ts-4.yaml -o sw1
expect_rc 2
expect_err_contains "'../outside/ts-4.yaml' is outside the scenario's folder"
expect_no_path sw1
# the sweep's point runs get --allow-path too
run sweep sc/s.yaml "$TR" --set pools.main.sharing_config=cfg/ts-4.yaml,../outside/ts-4.yaml -o sw2 --allow-path outside
expect_rc 0
expect_eq "$(ls sw2/points | wc -l)" "2" "both points ran"
# issue 29 (S3-06): a FIFO, named or reached through a link inside the folder, is refused before
# it is read (check hung on one), and so is a FIFO given as the trace; each file is opened once,
# by descriptor, after the check (the swap race itself: unit safety/swapped_symlink_*)
mkfifo sc/cfg/fifo && ln -s fifo sc/cfg/tofifo
for p in cfg/fifo cfg/tofifo; do
  pool '' "    sharing_config: $p\n"
  # a hang ends after 10 s with exit 124 (timeout's), which expect_rc reports
  timeout 10 "$SHARESIM" check sc/s.yaml > out.txt 2> err.txt < /dev/null; RC=$?
  LAST="sharesim check ($p)"; expect_rc 2
  expect_err_contains "pools[1].sharing_config: not a regular file: '$p'"
done
pool '' ''
mkfifo trace.fifo
timeout 10 "$SHARESIM" check sc/s.yaml trace.fifo > out.txt 2> err.txt < /dev/null; RC=$?
LAST="sharesim check sc/s.yaml trace.fifo"; expect_rc 2
expect_err_contains "trace.fifo: cannot open: not a regular file (a FIFO)"
