# t-checks.sh: the source checks of make check can fail. Each is run on a copy of src/ (or of
# the built objects) with one violation put in, and must report it with file:line and fail:
# an include up the layers, a strategy including more than share.h, a workload including
# cluster.h or sim.h or calling the cluster or sim.c, an include running up src/sim's rooms, a
# file of src/sim in no room, a function over 100 lines, a JSON parse outside jsonlimit.c
# (check-layers.sh, check-functions.sh, check-json.sh), two input modules including each other
# (check-include-cycles.sh), an importer or input reader without a fuzz target
# (check-fuzz-targets.sh), a scenario key (a strategy's or a model's constant) named outside
# its owner's file or declared twice (check-keys.sh); an input object needing a symbol of the simulator, an object of
# src/sim/place/ needing one of sim.c, and a workload object needing one of cluster.c
# (check-link-layers.sh).
# The checks read the source tree (and, for check-link-layers, the objects' symbols, the same
# in every build): the sanitizer and distcheck stages would only repeat them.
if skip_repeat "t-checks: the source checks on planted violations (build flags change nothing)"; then
  return 0
fi
CHK="$TOP_SRCDIR/tests"
mkdir -p tree && cp -R "$TOP_SRCDIR/src" tree/src && chmod -R u+w tree
sh "$CHK/check-layers.sh" tree > layers-ok.txt 2>&1; expect_eq "$?" 0 "check-layers on the tree as it is"
sed 's/^#include "share.h"$/#include "share.h"\n#include "cluster.h"/' tree/src/sim/share/share-mps.c > x && mv x tree/src/sim/share/share-mps.c
printf '#include "report.h"\n' >> tree/src/input/paths.c
printf 'static void wl_x(void) { cluster_pool_close(0, 0); }\n' >> tree/src/sim/workload/workload-batch.c
sed 's/^#include "workload.h"$/#include "workload.h"\n#include "cluster.h"/' tree/src/sim/workload/workload-notebook.c > x && mv x tree/src/sim/workload/workload-notebook.c
sed 's/^#include "workload.h"$/#include "workload.h"\n#include "sim.h"/' tree/src/sim/workload/workload-training.c > x && mv x tree/src/sim/workload/workload-training.c
printf '#include "metrics.h"\n' >> tree/src/traces/gen.c
printf 'static void wl_y(sim *s) { sim_job_refresh(s, 0); }\n' >> tree/src/sim/workload/workload-inference.c
printf '#include "sim.h"\n' >> tree/src/sim/cluster-place.c
printf '/* a file in no room */\n' > tree/src/sim/attic.c
sh "$CHK/check-layers.sh" tree > layers.txt 2>&1; expect_eq "$?" 1 "check-layers with nine violations"
if grep -q 'share-mps.c:[0-9]*: a strategy includes "cluster.h"' layers.txt; then pass; else fail "no strategy-include report: $(cat layers.txt)"; fi
if grep -q 'paths.c:[0-9]*: layer .input. includes "report.h"' layers.txt; then pass; else fail "no layer report: $(cat layers.txt)"; fi
if grep -q 'gen.c:[0-9]*: layer .traces. includes "metrics.h"' layers.txt; then pass; else fail "no report of traces above metrics: $(cat layers.txt)"; fi
if grep -q 'workload-batch.c:[0-9]*: a workload calls cluster_pool_close' layers.txt; then pass; else fail "no workload-call report: $(cat layers.txt)"; fi
if grep -q 'workload-notebook.c:[0-9]*: a workload includes "cluster.h"' layers.txt; then pass; else fail "no workload-include report: $(cat layers.txt)"; fi
if grep -q 'workload-training.c:[0-9]*: a workload includes "sim.h"' layers.txt; then pass; else fail "no workload-include report for sim.h: $(cat layers.txt)"; fi
if grep -q 'workload-inference.c:[0-9]*: a workload calls sim_job_refresh; it acts only through the bridge' layers.txt; then pass; else fail "no workload-call report for sim.c: $(cat layers.txt)"; fi
if grep -q "cluster-place.c:[0-9]*: room 'cluster' includes \"sim.h\" of room 'sim', which comes after it" layers.txt; then pass; else fail "no room-order report: $(cat layers.txt)"; fi
if grep -q 'src/sim/attic.c: in no room of src/sim' layers.txt; then pass; else fail "no report of a file in no room: $(cat layers.txt)"; fi

sh "$CHK/check-include-cycles.sh" "$TOP_SRCDIR" > cyc-ok.txt 2>&1; expect_eq "$?" 0 "check-include-cycles on the tree as it is"
printf '#include "nvconfig.h"\n' >> tree/src/input/scenario-yaml.c
sh "$CHK/check-include-cycles.sh" tree > cyc.txt 2>&1; expect_eq "$?" 1 "check-include-cycles with scenario-yaml.c including nvconfig.h"
if grep -q 'include cycle input/nvconfig -> input/scenario-yaml -> ... -> input/nvconfig: input/nvconfig.c:[0-9]*: includes "scenario-yaml.h"; input/scenario-yaml.c:[0-9]*: includes "nvconfig.h"' cyc.txt; then pass; else fail "no cycle report: $(cat cyc.txt)"; fi

mkdir -p fz/tests && cp -R "$TOP_SRCDIR/src" fz/src && cp -R "$TOP_SRCDIR/tests/fuzz" fz/tests/ &&
  cp "$TOP_SRCDIR/Makefile.am" fz/ && chmod -R u+w fz
sh "$CHK/check-fuzz-targets.sh" fz "$SHARESIM" > fz-ok.txt 2>&1; expect_eq "$?" 0 "check-fuzz-targets on the tree as it is"
rm fz/tests/fuzz/fuzz-import-openb.c
sed '1s|^/\* fuzz-kueue\.c:|/* fuzz-queue.c:|' fz/tests/fuzz/fuzz-kueue.c > x && mv x fz/tests/fuzz/fuzz-kueue.c
sed 's/^gboolean trace_load_phases(/trace *trace_load_x(const char *path, diag_list *diags);\n&/' fz/src/input/trace.h > x && mv x fz/src/input/trace.h
sh "$CHK/check-fuzz-targets.sh" fz "$SHARESIM" > fz.txt 2>&1; expect_eq "$?" 1 "check-fuzz-targets without the openb target and with a new reader"
if grep -q "importer 'alibaba-openb': no fuzz target runs it" fz.txt; then pass; else fail "no importer report: $(cat fz.txt)"; fi
if grep -q "tests/fuzz/fuzz-kueue.c:1: does not open with '/\* fuzz-kueue.c: '" fz.txt; then pass; else fail "no target-head report: $(cat fz.txt)"; fi
if grep -q 'reader trace_load_x (src/input/trace.h): no fuzz target calls it' fz.txt; then pass; else fail "no reader report: $(cat fz.txt)"; fi
if grep -q 'FUZZ_TARGETS names fuzz-import-openb, which has no tests/fuzz/fuzz-import-openb.c' fz.txt; then pass; else fail "no missing-source report: $(cat fz.txt)"; fi

sh "$CHK/check-functions.sh" tree > fn-ok.txt 2>&1; expect_eq "$?" 0 "check-functions on the tree as it is"
{ printf 'int long_one(int x) {\n'; i=0; while [ $i -lt 100 ]; do printf '  x += %d;\n' $i; i=$((i + 1)); done; printf '  return x;\n}\n'; } >> tree/src/base/util.c
sh "$CHK/check-functions.sh" tree > fn.txt 2>&1; expect_eq "$?" 1 "check-functions with a 103-line function"
if grep -q 'util.c:[0-9]*: long_one (103 lines, over 100)' fn.txt; then pass; else fail "no long-function report: $(cat fn.txt)"; fi

sh "$CHK/check-json.sh" tree > json-ok.txt 2>&1; expect_eq "$?" 0 "check-json on the tree as it is"
printf 'static void t_checks_json(JsonParser *p) { json_parser_load_from_data(p, "[]", -1, NULL); }\n' >> tree/src/study/figures.c
sh "$CHK/check-json.sh" tree > json.txt 2>&1; expect_eq "$?" 1 "check-json with a json-glib parser call outside jsonlimit.c"
if grep -q 'src/study/figures.c:[0-9]*:.*json_parser_load_from_data' json.txt; then pass; else fail "no json report: $(cat json.txt)"; fi

# check-keys.sh: a strategy's key spelt in the scenario reader, and declared a second time;
# the same for the models' constants
sh "$CHK/check-keys.sh" tree > keys-ok.txt 2>&1; expect_eq "$?" 0 "check-keys on the tree as it is"
printf 'static const char *const t_checks_k = "fraction_cap";\n' >> tree/src/input/scenario.c
printf 'static const scenario_key t_checks_d = {\n    "instance_sharing", NULL, NULL, NULL};\n' >> tree/src/sim/share/share-mps.c
sh "$CHK/check-keys.sh" tree > keys.txt 2>&1; expect_eq "$?" 1 "check-keys with a key named outside its owner"
if grep -q "scenario.c:[0-9]*: names key 'fraction_cap', which .*share-fractional.c:[0-9]* declares" keys.txt; then pass; else fail "no key-owner report: $(cat keys.txt)"; fi
if grep -q "share-mps.c:[0-9]*: key 'instance_sharing' declared again (its owner is .*share-mig.c)" keys.txt; then pass; else fail "no second-declaration report: $(cat keys.txt)"; fi
# the models' constants: a top-level one back in the reader's list, an LLM engine key spelt
# without its section, and a model key declared a second time
printf 'static const char *const t_checks_m[] = {"ts_curve_exp", "step_overhead_ms"};\n' >> tree/src/input/scenario.c
printf 'static const scenario_model_key t_checks_e = {\n    {"llm.block_size", NULL, NULL, NULL}};\n' >> tree/src/sim/share/share-mps.c
sh "$CHK/check-keys.sh" tree > keys-m.txt 2>&1; expect_eq "$?" 1 "check-keys with a model's constant named outside its owner"
if grep -q "scenario.c:[0-9]*: names key 'ts_curve_exp', which .*share.c:[0-9]* declares" keys-m.txt; then pass; else fail "no model-key report: $(cat keys-m.txt)"; fi
if grep -q "scenario.c:[0-9]*: names key 'llm.step_overhead_ms' (as 'step_overhead_ms'), which .*workload-llm.c:[0-9]* declares" keys-m.txt; then pass; else fail "no section-key report: $(cat keys-m.txt)"; fi
if grep -q "workload-llm.c:[0-9]*: key 'llm.block_size' declared again (its owner is .*share-mps.c)" keys-m.txt; then pass; else fail "no model-key second-declaration report: $(cat keys-m.txt)"; fi
# the inference model's keys and the restart keys, back in the reader by their names (an
# inference key spelt without its section, the restart and culling keys at the top level)
printf 'static const char *const t_checks_r[] = {"peak_hour", "max_restarts",\n    "notebook_cull_timeout"};\n' >> tree/src/input/scenario.c
sh "$CHK/check-keys.sh" tree > keys-r.txt 2>&1; expect_eq "$?" 1 "check-keys with the inference and restart keys named in the reader"
if grep -q "scenario.c:[0-9]*: names key 'inference.peak_hour' (as 'peak_hour'), which .*workload-inference.c:[0-9]* declares" keys-r.txt; then pass; else fail "no inference-key report: $(cat keys-r.txt)"; fi
if grep -q "scenario.c:[0-9]*: names key 'max_restarts', which .*src/sim/sim.c:[0-9]* declares" keys-r.txt; then pass; else fail "no restart-key report: $(cat keys-r.txt)"; fi
if grep -q "scenario.c:[0-9]*: names key 'notebook_cull_timeout', which .*workload-notebook.c:[0-9]* declares" keys-r.txt; then pass; else fail "no culling-key report: $(cat keys-r.txt)"; fi

build=$(dirname "$SHARESIM")
if [ -d "$build/src/input" ] && command -v nm > /dev/null 2>&1 && command -v cc > /dev/null 2>&1; then
  mkdir -p objs && cp -R "$build/src" objs/src
  printf 'unsigned share_count(void);\nunsigned t_checks_x(void);\nunsigned t_checks_x(void) { return share_count(); }\n' > x.c
  cc -c x.c -o objs/src/input/x.o
  printf 'void *sim_run(void);\nvoid *t_checks_y(void);\nvoid *t_checks_y(void) { return sim_run(); }\n' > y.c
  cc -c y.c -o objs/src/sim/place/y.o
  printf 'void cluster_pool_close(void *p, long t);\nvoid t_checks_z(void);\nvoid t_checks_z(void) { cluster_pool_close(0, 0); }\n' > z.c
  cc -c z.c -o objs/src/sim/workload/workload-z.o
  sh "$CHK/check-link-layers.sh" objs > link.txt 2>&1; expect_eq "$?" 1 "check-link-layers with input calling sim, place calling sim.c, a workload calling cluster.c"
  if grep -q 'src/input/x.o: needs share_count, defined above its layer in src/sim/share/share.o' link.txt; then pass; else fail "no link report: $(cat link.txt)"; fi
  if grep -q "src/sim/place/y.o: needs sim_run, defined in src/sim/sim.o of room 'sim', after its room 'place'" link.txt; then pass; else fail "no room-order link report: $(cat link.txt)"; fi
  if grep -q 'src/sim/workload/workload-z.o: a plug-in needs cluster_pool_close of src/sim/cluster.o' link.txt; then pass; else fail "no plug-in link report: $(cat link.txt)"; fi
else
  skip_test "no built objects beside $SHARESIM, or no nm/cc"
fi

# HACKING.md's map names every source file and folder, and nothing that is not there
mkdir -p mp && cp -R "$TOP_SRCDIR/src" mp/src && cp "$TOP_SRCDIR/HACKING.md" mp/ && chmod -R u+w mp
sh "$CHK/check-map.sh" mp > map-ok.txt 2>&1; expect_eq "$?" 0 "check-map on the tree as it is"
printf '/* t-checks */\n' > mp/src/base/unmapped-x.c
sed 's|^src/base/ |src/base/ src/base/gone-y.c |' mp/HACKING.md > x && mv x mp/HACKING.md
sh "$CHK/check-map.sh" mp > map.txt 2>&1; expect_eq "$?" 1 "check-map with an unmapped file and a mapped file that is gone"
if grep -q 'src/base/unmapped-x.c: not in HACKING.md' map.txt; then pass; else fail "no unmapped-file report: $(cat map.txt)"; fi
if grep -q 'HACKING.md:[0-9]*: the map names src/base/gone-y.c, which does not exist' map.txt; then pass; else fail "no missing-file report: $(cat map.txt)"; fi

# commit subjects under 72 characters, on a scratch repository
if command -v git > /dev/null 2>&1; then
  mkdir cm && (cd cm && git init -q && git config user.email t@t && git config user.name t &&
    git commit -q --allow-empty -m base && git commit -q --allow-empty -m "short subject" &&
    git commit -q --allow-empty -m "$(printf 'x%.0s' $(seq 1 80))") > /dev/null 2>&1
  base=$(git -C cm rev-list --max-parents=0 HEAD)
  COMMITS_SINCE=$base sh "$CHK/check-commits.sh" cm > cm.txt 2>&1; expect_eq "$?" 1 "check-commits with an 80-character subject"
  if grep -q 'subject of 80 characters (over 71)' cm.txt; then pass; else fail "no long-subject report: $(cat cm.txt)"; fi
  git -C cm reset -q --hard HEAD~1
  COMMITS_SINCE=$base sh "$CHK/check-commits.sh" cm > cm-ok.txt 2>&1; expect_eq "$?" 0 "check-commits without it"
else
  skip_test "no git"
fi
