#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ (address sanitizer on, coverage on every fcmlint module)
# and runs one of them for a given time:
#
#   scripts/fuzz.sh TARGET SECONDS [libFuzzer options...]   TARGET: json, lint, rules, fix, fixer, docs, pages, server, or all
#   scripts/fuzz.sh build                                   build only
#   scripts/fuzz.sh replay TARGET FILE...                   run inputs once (a crash to reproduce)
#
# Seeds are Fuzz/Corpus/TARGET/ (kept in the repository) plus the repository's own examples
# (corpus/ for the JSON targets, rules/ for the rule target). What the fuzzer learns goes to
# Fuzz/.work/corpus/TARGET/, crashes to Fuzz/.work/crashes/TARGET/ (both ignored by git). Each
# crash becomes a regression test: copy the input to Tests/Fixtures/hostile/crashes/
# (HostileInputTests runs every file there through the same code paths).
#
# Leak detection is off: Swift packs enum tags into pointers' spare bits, so LeakSanitizer cannot
# see some live references and reports the rule pack, which lives as long as the process.
#
# Environment: FUZZ_JOBS (parallel fuzzing processes, default 1), FUZZ_RSS_MB (memory limit per
# input, default 2048), FUZZ_TIMEOUT (seconds per input before it counts as a hang, default 10).
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"
scratch="$repo/Fuzz/.build"
work="$repo/Fuzz/.work"

# libFuzzer's driver without its main: SwiftPM gives each executable a main of its own, which
# calls LLVMFuzzerRunDriver (Fuzz/Sources/FuzzSupport).
libfuzzer() {
  local archive
  archive="$(clang -print-file-name=libclang_rt.fuzzer_no_main-x86_64.a 2>/dev/null || true)"
  if [ ! -f "$archive" ]; then
    archive="$(find "$(dirname "$(dirname "$(command -v swiftc)")")/lib/clang" -name 'libclang_rt.fuzzer_no_main-*.a' 2>/dev/null | head -n 1)"
  fi
  [ -f "$archive" ] || { echo "libclang_rt.fuzzer_no_main not found in the Swift toolchain" >&2; exit 2; }
  echo "$archive"
}

# Builds fuzz-TARGET for each target named: every Swift module with coverage instrumentation
# (-sanitize=fuzzer, given to the frontend only, so the driver does not link libFuzzer's main)
# and the address sanitizer (the system libyaml is prebuilt, so not instrumented).
build() {
  local target archive stamp
  archive="$(libfuzzer)"
  # A build over objects from other sources once linked a stale layout of a changed struct (a
  # "crash" no clean build reproduced): the build starts clean whenever the sources changed.
  stamp="$( (git -C "$repo" rev-parse HEAD; git -C "$repo" diff HEAD -- Sources Fuzz Package.swift) | cksum)"
  if [ "$(cat "$scratch/.sources" 2>/dev/null)" != "$stamp" ]; then
    rm -rf "$scratch"
    mkdir -p "$scratch"
    echo "$stamp" > "$scratch/.sources"
  fi
  for target in "$@"; do
    echo "building fuzz-$target (release, address sanitizer, libFuzzer coverage)..." >&2
    # The build runs its own instrumented tools (embed-rules, for the rule pack): their leak
    # reports are off, as for the targets (see above).
    ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}" \
      swift build --package-path Fuzz --scratch-path "$scratch" -c release --product "fuzz-$target" \
      -Xswiftc -sanitize=address -Xswiftc -Xfrontend -Xswiftc -sanitize=fuzzer \
      -Xcc -fsanitize=fuzzer-no-link,address \
      -Xlinker "$archive" -Xlinker -lstdc++ 2>&1 \
      | grep -Ev "ld\S*: warning: Cannot export local symbol" >&2
    [ "${PIPESTATUS[0]}" -eq 0 ] || { echo "building fuzz-$target failed" >&2; return 1; }
  done
}

bin() { echo "$(swift build --package-path Fuzz --scratch-path "$scratch" -c release --show-bin-path)/fuzz-$1"; }

seeds() {
  case "$1" in
    json|lint|fix|fixer) echo "$repo/Fuzz/Corpus/$1 $repo/corpus" ;;
    rules) echo "$repo/Fuzz/Corpus/rules $repo/rules" ;;
    docs|pages|server) echo "$repo/Fuzz/Corpus/$1" ;;
    *) echo "unknown target '$1' (targets: json, lint, rules, fix, fixer, docs, pages, server)" >&2; exit 2 ;;
  esac
}

dict() {
  case "$1" in
    rules) echo "$repo/Fuzz/yaml.dict" ;;
    *) echo "$repo/Fuzz/json.dict" ;;
  esac
}

run() {
  local target="$1" seconds="$2"
  shift 2
  mkdir -p "$work/corpus/$target" "$work/crashes/$target" "$work/logs"
  local log="$work/logs/$target.log"
  echo "fuzzing $target for ${seconds}s (log: $log)" >&2
  local status=0
  local parallel=()
  if [ "${FUZZ_JOBS:-1}" -gt 1 ]; then
    # Several processes, each restarting after a crash, their logs in $work/logs/.
    parallel=(-fork="$FUZZ_JOBS" -ignore_crashes=1)
  fi
  # A crash is reported by the sanitizer and libFuzzer; Swift's own backtracer would only slow
  # each crash down (and waits for a debugger on some systems).
  export SWIFT_BACKTRACE=enable=no
  export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
  # shellcheck disable=SC2046
  "$(bin "$target")" "$work/corpus/$target" $(seeds "$target") \
    -dict="$(dict "$target")" -max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-10}" \
    -rss_limit_mb="${FUZZ_RSS_MB:-2048}" -max_len=65536 -print_final_stats=1 -detect_leaks=0 \
    -artifact_prefix="$work/crashes/$target/" "${parallel[@]}" \
    "$@" >"$log" 2>&1 || status=$?
  local runs
  runs=$(grep -Eo "stat::number_of_executed_units: *[0-9]+" "$log" | grep -Eo "[0-9]+$" | awk '{s+=$1} END {print s+0}')
  local crashes
  crashes=$(find "$work/crashes/$target" -type f | wc -l)
  echo "$target: $runs executions, status $status, $crashes crash file(s) in $work/crashes/$target" >&2
  echo "$target $seconds $runs $status $crashes" >>"$work/results.txt"
  return "$status"
}

case "${1:-}" in
  build) build json lint rules fix fixer docs pages server ;;
  replay)
    target="$2"; shift 2
    build "$target"
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}" "$(bin "$target")" "$@"
    ;;
  json|lint|rules|fix|fixer|docs|pages|server|all)
    [ $# -ge 2 ] || { echo "usage: scripts/fuzz.sh TARGET SECONDS [libFuzzer options...]" >&2; exit 2; }
    target="$1" seconds="$2"
    shift 2
    if [ "$target" = all ]; then
      build json lint rules fix fixer docs pages server
      status=0
      for t in json lint rules fix fixer docs pages server; do run "$t" "$seconds" "$@" || status=$?; done
      exit "$status"
    fi
    build "$target"
    run "$target" "$seconds" "$@"
    ;;
  *)
    sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac
