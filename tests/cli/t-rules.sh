# t-rules.sh: the study "Quotas, preemption and culling change the answer" (docs/studies.md):
# compare of rules-baseline/rules-lean and of quotas-baseline/quotas-lean on the bundled
# trace, each line the docs quote for them checked against what this version prints (so the
# published figures cannot go stale), the answer itself (every service within its SLO with
# preemption and culling, 4 short with the quotas), and the docs' claim about
# reclaimWithinCohort: LowerPriority (19 of 21 services) on a copy of the quota scenario.
T="$TRACES/mixed-small.csv"
STUDY="$TOP_SRCDIR/docs/studies.md"
# the lines of the docs' code block that follows the line starting "$1" (a header line of
# the compare table), up to the blank line or the block's end
quoted() { awk -v h="$1" 'index($0, h) == 1 { on = 1; next } on && (/^$/ || /^```/) { exit } on' "$STUDY"; }
# each quoted line must be a line of out.txt
check_quoted() {
  hdr=$1 n=0
  while IFS= read -r line; do
    n=$((n + 1))
    if grep -qxF -- "$line" out.txt; then pass; else fail "docs/studies.md quotes a line this version does not print: $line"; fi
  done <<EOT
$(quoted "$hdr")
EOT
  expect_eq "$([ "$n" -ge 5 ] && echo yes)" yes "the docs quote the $hdr table ($n lines)"
}

run compare "$SCEN/rules-baseline.yaml" "$SCEN/rules-lean.yaml" "$T" --brief
expect_rc 0
check_quoted "                                           rules-baseline"
expect_out_contains "  services meeting their SLO                           21            21                       0"

run compare "$SCEN/quotas-baseline.yaml" "$SCEN/quotas-lean.yaml" "$T" --brief
expect_rc 0
check_quoted "                                           quotas-baseline"
expect_out_contains "  services meeting their SLO                            21            17             -4 (-19.0 %)"

# the docs' variant: reclaims never evict a job of a higher priority than the reclaimer's
mkdir -p lp/kueue
cp "$SCEN/quotas-lean.yaml" lp/
sed 's/reclaimWithinCohort: Any/reclaimWithinCohort: LowerPriority/' "$SCEN/kueue/teams-lean.yaml" > lp/kueue/teams-lean.yaml
run run lp/quotas-lean.yaml "$T" -o lp/out -q
expect_rc 0
expect_eq "$(grep '^SLO' lp/out/summary.txt | cut -c19-49)" "19 of 21 services met their tar" "LowerPriority reclaims: 19 of 21 services"
case $(tr '\n' ' ' < "$STUDY" | tr -s ' ') in
  *"up to 19 of 21 services"*) pass ;;
  *) fail "docs/studies.md no longer says 19 of 21 services with LowerPriority reclaims" ;;
esac
