#!/usr/bin/env bash
# What linting on two cores costs in CPU beyond one: for each fcmlint binary given, interleaved
# rounds of
#   jobs 1:   fcmlint --jobs 1 --format json .            (one thread)
#   jobs 2:   fcmlint --jobs 2 --format json .            (two threads of one process)
#   2 procs:  two `fcmlint --jobs 1` at once, each on half of the set's ten folders
# over N generated send requests, and prints each run's median wall clock and CPU time (user +
# system of the process and its threads, from wait4(2)) and its CPU against jobs 1's. Two threads
# and two processes do the same work on the same two cores: what the threads cost beyond the
# processes is the price of sharing one process (its pack, its allocator, its file table).
# Several binaries (two builds of two commits) run in the same rounds, so they compare under the
# same load.
#
# Usage: scripts/jobs-cost.sh [--rounds R] [--seed S] [N] [BINARY...]
#   N: send requests (default 20000); without a binary, the release build (swift build -c release).
#   --rounds: interleaved rounds after one warm-up (default 15); each round runs every binary's
#   three runs in its own seeded random order.
# Environment: FCMLINT_SCRATCH=DIR is the build's --scratch-path (default .build);
#              FCMLINT_COMPARE_DIR=DIR holds the generated set, shared with compare.sh (default
#              $TMPDIR/fcmlint-compare).
set -euo pipefail

ROUNDS=15
SEED=20251121
N=
BINARIES=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --rounds) ROUNDS=$2; shift ;;
    --seed) SEED=$2; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    [0-9]*) if [[ -z $N ]]; then N=$1; else BINARIES+=("$1"); fi ;;
    *) BINARIES+=("$1") ;;
  esac
  shift
done
N=${N:-20000}
if (( N < 10 )); then echo "jobs-cost.sh: N must be at least 10" >&2; exit 2; fi
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=${FCMLINT_COMPARE_DIR:-${TMPDIR:-/tmp}/fcmlint-compare}
log() { echo "jobs-cost.sh: $*" >&2; }
mkdir -p "$WORK"

if [[ ${#BINARIES[@]} -eq 0 ]]; then
  SCRATCH=${FCMLINT_SCRATCH:-.build}
  log "building fcmlint (release, --scratch-path $SCRATCH)"
  (cd "$ROOT" && swift build -c release --scratch-path "$SCRATCH" --product fcmlint >&2)
  BINARIES=("$(cd "$ROOT" && swift build -c release --scratch-path "$SCRATCH" --show-bin-path)/fcmlint")
fi
for bin in "${BINARIES[@]}"; do
  [[ -x $bin ]] || { log "no fcmlint binary at $bin"; exit 2; }
done

# The set, as compare.sh makes it (the same folder, so either script reuses the other's).
SET=$WORK/requests-$N-seed$SEED
STAMP="$(sha256sum "$ROOT/scripts/generate-requests.py" | cut -c1-16) $N $SEED"
if [[ ! -f $SET/.stamp || "$(cat "$SET/.stamp")" != "$STAMP" ]]; then
  log "generating $N send requests in $SET"
  rm -rf "$SET"
  python3 "$ROOT/scripts/generate-requests.py" --seed "$SEED" "$N" "$SET" > /dev/null
  echo "$STAMP" > "$SET/.stamp"
fi

log "$ROUNDS rounds of $((3 * ${#BINARIES[@]})) runs"
python3 - "$SET" "$ROUNDS" "$SEED" "${BINARIES[@]}" <<'PY'
import os, random, statistics, subprocess, sys, time

folder, rounds, seed, binaries = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
parts = sorted(p for p in os.listdir(folder) if p.startswith("part-"))
halves = (parts[: len(parts) // 2], parts[len(parts) // 2 :])

def run(commands):
    """Starts the commands at once; the wall clock until the last ends, and their CPU seconds."""
    start = time.perf_counter()
    children = [subprocess.Popen(c, cwd=folder, stdout=subprocess.DEVNULL) for c in commands]
    cpu = 0.0
    for child in children:
        _, status, usage = os.wait4(child.pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f"jobs-cost.sh: {' '.join(commands[0])} failed")
        cpu += usage.ru_utime + usage.ru_stime
    return time.perf_counter() - start, cpu

kinds = ["jobs 1", "jobs 2", "2 procs"]
def commands(binary, kind):
    base = [binary, "--format", "json"]
    if kind == "jobs 1": return [base[:1] + ["--jobs", "1"] + base[1:] + ["."]]
    if kind == "jobs 2": return [base[:1] + ["--jobs", "2"] + base[1:] + ["."]]
    return [base[:1] + ["--jobs", "1"] + base[1:] + list(half) for half in halves]

runs = [(b, k) for b in range(len(binaries)) for k in kinds]
for b, k in runs: run(commands(binaries[b], k))  # warm-up: the files in the page cache
times = {r: [] for r in runs}
rng = random.Random(seed)
for _ in range(rounds):
    order = runs[:]
    rng.shuffle(order)
    for b, k in order: times[(b, k)].append(run(commands(binaries[b], k)))

print(f"| binary | run | wall median | CPU median | CPU min-max | CPU ÷ jobs 1 |")
print("|---|---|---:|---:|---:|---:|")
for b, binary in enumerate(binaries):
    one = statistics.median(c for _, c in times[(b, "jobs 1")])
    for k in kinds:
        walls = [w for w, _ in times[(b, k)]]
        cpus = [c for _, c in times[(b, k)]]
        cpu = statistics.median(cpus)
        print(f"| {binary} | {k} | {statistics.median(walls):.3f} s | {cpu:.3f} s | {min(cpus):.3f}-{max(cpus):.3f} s | {cpu / one:.2f}x |")
PY
