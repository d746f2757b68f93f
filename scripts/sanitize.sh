#!/usr/bin/env bash
# Runs the whole test suite under AddressSanitizer, then under ThreadSanitizer:
#
#   scripts/sanitize.sh [address|thread|all]      (default: all)
#
# Each sanitizer builds in a scratch folder of its own (.build-asan, .build-tsan), so the plain
# .build is left alone. The fcmlint binary the CLI tests run is built with the same sanitizer, and
# every instrumented process (the test runner and each fcmlint it starts) writes its reports to
# .build-*/sanitizer-reports/: a report fails the run even when the test that started the process
# only looked at its exit status.
#
# FCMLINT_SANITIZER=1 is set for the tests: the few that time themselves or build huge inputs
# (HostileInputTests, see `Sanitizer` there) allow more time or use smaller inputs; what they
# check stays the same. No test is skipped.
#
# Leak detection is off: Swift packs enum tags into pointers' spare bits, so LeakSanitizer cannot
# see some live references and reports the rule pack, which lives as long as the process (as in
# scripts/fuzz.sh).
#
# Prints one line per sanitizer ("sanitize address: ok, 138 tests, 0 failed, 2 min 49 s") and
# exits 1 if any run failed, with the failing tests and the reports above that line (the whole
# log is .build-*/sanitize.log).
set -uo pipefail
cd "$(dirname "$0")/.."

case "${1:-all}" in
  address | thread) sanitizers=("$1") ;;
  all) sanitizers=(address thread) ;;
  *) echo "usage: scripts/sanitize.sh [address|thread|all]" >&2; exit 2 ;;
esac

# Runs the suite under one sanitizer; prints its result line; returns non-zero on any failure.
run() {
  local sanitizer="$1" scratch reports log start status=0 summary count failures verdict
  case "$sanitizer" in address) scratch=.build-asan ;; thread) scratch=.build-tsan ;; esac
  reports="$(pwd)/$scratch/sanitizer-reports"
  log="$scratch/sanitize.log"
  mkdir -p "$scratch"
  rm -rf "$reports"
  mkdir -p "$reports"
  start=$SECONDS
  FCMLINT_SANITIZER=1 \
    ASAN_OPTIONS="detect_leaks=0:log_path=$reports/asan" \
    TSAN_OPTIONS="log_path=$reports/tsan" \
    swift test --sanitize="$sanitizer" --scratch-path "$scratch" >"$log" 2>&1 || status=$?

  # XCTest's closing count, as in .ci/run.
  summary=$(grep -E "Executed [0-9]+ tests?, with .*[0-9]+ failures?" "$log" | tail -n 1)
  count=$(sed -E 's/.*Executed ([0-9]+) tests?.*/\1/' <<<"$summary")
  failures=$(sed -E 's/.* ([0-9]+) failures?.*/\1/' <<<"$summary")
  verdict=ok
  if [ "$status" -ne 0 ] || [ -z "$summary" ]; then verdict="FAILED (swift test exit $status)"; fi
  if [ -n "$(ls -A "$reports")" ]; then verdict="FAILED ($(ls "$reports" | wc -l) sanitizer reports in $scratch/sanitizer-reports)"; fi
  if [ "$verdict" != ok ]; then
    status=1
    echo "--- $log: failures, and its last lines"
    grep -E "error:|^Test Case .* failed" "$log" | head -n 40
    tail -n 5 "$log"
    for report in "$reports"/*; do
      [ -e "$report" ] || continue
      echo "--- $report"
      head -n 30 "$report"
    done
  fi
  local seconds=$((SECONDS - start))
  echo "sanitize $sanitizer: $verdict, ${count:-no} tests, ${failures:-?} failed, $((seconds / 60)) min $((seconds % 60)) s"
  return "$status"
}

failed=0
for sanitizer in "${sanitizers[@]}"; do
  run "$sanitizer" || failed=1
done
exit "$failed"
