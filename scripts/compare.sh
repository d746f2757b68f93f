#!/usr/bin/env bash
# fcmlint side by side with what users run instead: jq empty, and a JSON Schema generated from the
# FCM discovery document checked by jsonschema-rs (PyPI), Debian's node-ajv and check-jsonschema
# (PyPI); cat as the I/O floor. Each run is timed by wall
# clock and by CPU time (user + system of the process and everything it waited for: every thread
# and every process of a pipeline), from wait4(2).
#
# Usage:
#   scripts/compare.sh [N]            full comparison on N generated send requests (default 20000)
#   scripts/compare.sh --quick [N]    fcmlint (and cat) only, quickly (default N 2000)
# Options: --rounds R (bulk rounds, default 5), --runs R (single-file runs, default 30),
#          --seed S (generator seed, default 20251121)
# Environment: FCMLINT=/path/to/fcmlint uses that binary instead of building one;
#              FCMLINT_SCRATCH=DIR is the build's --scratch-path (default .build);
#              FCMLINT_COMPARE_DIR=DIR holds the generated set and schema (default $TMPDIR/fcmlint-compare).
#
# What it does:
#  1. Installs what is missing: jq, node-ajv and GNU time (Debian), check-jsonschema and
#     jsonschema-rs (PyPI).
#  2. Builds fcmlint in release mode.
#  3. Generates N valid send requests with scripts/generate-requests.py (seeded, so the same set on
#     every machine; reused while the generator is unchanged), in ten folders part-0..part-9, and
#     the JSON Schema with scripts/discovery-to-jsonschema.py.
#  4. Checks the set first: fcmlint reports nothing, jq and check-jsonschema accept every file.
#  5. Bulk: one untimed warm-up, then R interleaved rounds, each in its own seeded random order
#     (a rotating order kept each tool behind the same one every round: fcmlint always ran right
#     after check-jsonschema, whose five seconds of Python leave the caches cold), of
#       cat:              find . -name '*.json' -print0 | xargs -0 -s 1048576 cat > /dev/null
#       jq empty:         find ... | xargs -0 -s 1048576 jq empty
#       check-jsonschema: find ... | xargs -0 -s 1048576 check-jsonschema --schemafile SCHEMA
#       fcmlint:          fcmlint --format json .            (a folder argument: fcmlint walks it)
#       fcmlint --jobs 1: fcmlint --jobs 1 --format json .   (one thread: the scaling with cores)
#       fcmlint (xargs):  find ... | xargs -0 -s 1048576 fcmlint --format json
#       fcmlint 10%:      fcmlint --format json part-0       (for linearity)
#       fcmlint rules off: fcmlint --config R --jobs 1 --format json .  (R turns off every rule
#                         but json-syntax: the reading and parsing under the rules)
#     run in the set's folder, so file names are short (part-3/req-012345.json). The same batching
#     for every tool: a 1 MiB command line, which holds 20,000 such names, so each tool starts once.
#     The files are in the page cache (the warm-up reads them), as in a pre-commit hook or CI.
#  6. Single-file latency: the median of RUNS interleaved runs (shuffled the same way) of fcmlint --format json, jq empty
#     and check-jsonschema on one small request (the first file under 700 bytes), and of
#     fcmlint --version (the binary's start alone, the floor of any run).
#     Then `fcmlint --ndjson` on the set ten times over as one stream (a document per line).
#  7. Peak RSS (GNU time's %M) of fcmlint on 10% and on all of the set, and of jq and
#     check-jsonschema on all of it.
#  8. Prints Markdown tables of medians and ratios (wall and CPU), the issue's targets with whether
#     they hold, the machine (cores, CPU model, memory, load), the date and the fcmlint commit.
set -euo pipefail

MODE=full
N=
ROUNDS=5
RUNS=30
SEED=20251121
while [[ $# -gt 0 ]]; do
  case "$1" in
    --quick) MODE=quick ;;
    --rounds) ROUNDS=$2; shift ;;
    --runs) RUNS=$2; shift ;;
    --seed) SEED=$2; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    [0-9]*) N=$1 ;;
    *) echo "compare.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
if [[ -z "$N" ]]; then
  if [[ $MODE == quick ]]; then N=2000; else N=20000; fi
fi
if (( N < 10 )); then echo "compare.sh: N must be at least 10" >&2; exit 2; fi

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=${FCMLINT_COMPARE_DIR:-${TMPDIR:-/tmp}/fcmlint-compare}
XARGS_SIZE=1048576
mkdir -p "$WORK"
log() { echo "compare.sh: $*" >&2; }

# 1. Tools.
APT_UPDATED=
apt_install() {
  if [[ -z $APT_UPDATED ]]; then apt-get update -qq >&2; APT_UPDATED=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >&2
}
[[ -x /usr/bin/time ]] || { log "installing GNU time"; apt_install time; }
if [[ $MODE == full ]]; then
  command -v jq > /dev/null || { log "installing jq"; apt_install jq; }
  command -v check-jsonschema > /dev/null || { log "installing check-jsonschema"; python3 -m pip install -q check-jsonschema >&2; }
  python3 -c 'import jsonschema_rs' 2> /dev/null || { log "installing jsonschema-rs"; python3 -m pip install -q jsonschema-rs >&2; }
  [[ -d /usr/share/nodejs/ajv ]] || { log "installing node-ajv"; apt_install node-ajv; }
fi

# 2. fcmlint.
if [[ -n ${FCMLINT:-} ]]; then
  BIN=$(cd "$(dirname "$FCMLINT")" && pwd)/$(basename "$FCMLINT")
else
  SCRATCH=${FCMLINT_SCRATCH:-.build}
  log "building fcmlint (release, --scratch-path $SCRATCH)"
  (cd "$ROOT" && swift build -c release --scratch-path "$SCRATCH" >&2)
  BIN=$(cd "$ROOT" && swift build -c release --scratch-path "$SCRATCH" --show-bin-path)/fcmlint
fi
[[ -x $BIN ]] || { log "no fcmlint binary at $BIN"; exit 2; }

# 3. The set and the schema.
SET=$WORK/requests-$N-seed$SEED
STAMP="$(sha256sum "$ROOT/scripts/generate-requests.py" | cut -c1-16) $N $SEED"
if [[ ! -f $SET/.stamp || "$(cat "$SET/.stamp")" != "$STAMP" ]]; then
  log "generating $N send requests in $SET"
  rm -rf "$SET"
  python3 "$ROOT/scripts/generate-requests.py" --seed "$SEED" "$N" "$SET"
  echo "$STAMP" > "$SET/.stamp"
fi
SCHEMA=$WORK/fcm-send.schema.json
python3 "$ROOT/scripts/discovery-to-jsonschema.py" "$ROOT/schemas/discovery/fcm.v1.discovery.json" "$SCHEMA"
cd "$SET"
FILES=$(find . -name '*.json' | wc -l)
BYTES=$(find . -name '*.json' -printf '%s\n' | awk '{s += $1} END {print s}')
TENTH=$(find part-0 -name '*.json' | wc -l)
SMALL=$(find part-0 -name '*.json' -size -700c | sort | awk 'NR == 1')
SMALL_BYTES=$(stat -c %s "$SMALL")
BATCHES=$(find . -name '*.json' -print0 | xargs -0 -s $XARGS_SIZE sh -c 'echo $#' sh | wc -l)

# The JSON Schema validators that are libraries, each driven by a few lines that read every file
# named on the command line, parse it and validate it (exit 1 on the first invalid file):
# jsonschema-rs (Rust, from PyPI) through Python's json, Debian's node-ajv (Ajv 6, which reads
# draft-07: the schema's $defs become definitions) through Node's JSON.parse.
RS_DRIVER=$WORK/jsonschema-rs-validate.py
cat > "$RS_DRIVER" <<'PYEOF'
import json, sys, jsonschema_rs
with open(sys.argv[1], "rb") as f:
    validator = jsonschema_rs.validator_for(json.loads(f.read()))
for path in sys.argv[2:]:
    with open(path, "rb") as f:
        if not validator.is_valid(json.loads(f.read())):
            sys.exit("invalid: " + path)
PYEOF
AJV_DRIVER=$WORK/ajv-validate.js
cat > "$AJV_DRIVER" <<'JSEOF'
const fs = require("fs");
const Ajv = require("ajv");
const text = fs.readFileSync(process.argv[2], "utf8").split("#/$defs/").join("#/definitions/");
const schema = JSON.parse(text);
schema.definitions = schema.$defs;
delete schema.$defs;
delete schema.$schema;
const validate = new Ajv({ unknownFormats: "ignore" }).compile(schema);
for (const path of process.argv.slice(3)) {
  if (!validate(JSON.parse(fs.readFileSync(path, "utf8")))) {
    console.error("invalid: " + path);
    process.exit(1);
  }
}
JSEOF

# Each tool as a command line for bash (bulk) or as words run directly (single file).
BULK_cat="find . -name '*.json' -print0 | xargs -0 -s $XARGS_SIZE cat > /dev/null"
BULK_jq="find . -name '*.json' -print0 | xargs -0 -s $XARGS_SIZE jq empty"
BULK_cjs="find . -name '*.json' -print0 | xargs -0 -s $XARGS_SIZE check-jsonschema --schemafile '$SCHEMA' > /dev/null"
BULK_rs="find . -name '*.json' -print0 | xargs -0 -s $XARGS_SIZE python3 '$RS_DRIVER' '$SCHEMA'"
# Debian's Node modules, for a node that does not look there itself (NodeSource's).
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
BULK_ajv="find . -name '*.json' -print0 | xargs -0 -s $XARGS_SIZE node '$AJV_DRIVER' '$SCHEMA'"
BULK_fcmlint="'$BIN' --format json . > /dev/null"
BULK_fcmlint_jobs1="'$BIN' --jobs 1 --format json . > /dev/null"
BULK_fcmlint_xargs="find . -name '*.json' -print0 | xargs -0 -s $XARGS_SIZE '$BIN' --format json > /dev/null"
BULK_fcmlint_tenth="'$BIN' --format json part-0 > /dev/null"
# Every rule but json-syntax off: reading, parsing and walking the files alone, the floor under
# the rules (what the pack costs is the difference with the row above it).
RULES_OFF=$WORK/rules-off.yml
{
  echo "root: true"
  echo "rules:"
  "$BIN" rules | awk '$1 != "json-syntax" && $1 ~ /^[a-z0-9-]+$/ { print "  " $1 ": off" }'
} > "$RULES_OFF"
BULK_fcmlint_off="'$BIN' --config '$RULES_OFF' --jobs 1 --format json . > /dev/null"
run_jq() { bash -c "$BULK_jq"; }
run_cjs() { bash -c "$BULK_cjs"; }
ONE_fcmlint=("$BIN" --format json "$SMALL")
# The same binary starting and printing its version: what any run pays before it reads a rule.
ONE_version=("$BIN" --version)
ONE_jq=(jq empty "$SMALL")
ONE_cjs=(check-jsonschema --schemafile "$SCHEMA" "$SMALL")
ONE_rs=(python3 "$RS_DRIVER" "$SCHEMA" "$SMALL")
ONE_ajv=(node "$AJV_DRIVER" "$SCHEMA" "$SMALL")

# 4. The set must be clean for every tool, or the comparison means nothing.
log "checking the set ($FILES files, $BYTES bytes)"
"$BIN" --format json . > "$WORK/fcmlint-report.json" || { log "fcmlint reported problems in the generated set (see $WORK/fcmlint-report.json)"; exit 1; }
python3 - "$WORK/fcmlint-report.json" "$FILES" <<'EOF'
import json, sys
report = json.load(open(sys.argv[1]))
s = report["summary"]
if report["diagnostics"] or s["files"] != int(sys.argv[2]):
    sys.exit("compare.sh: fcmlint: %d diagnostics in %d files (expected none in %s)" % (len(report["diagnostics"]), s["files"], sys.argv[2]))
EOF
if [[ $MODE == full ]]; then
  run_jq || { log "jq rejected a generated file"; exit 1; }
  run_cjs || { log "check-jsonschema rejected a generated file"; exit 1; }
  bash -c "$BULK_rs" || { log "jsonschema-rs rejected a generated file"; exit 1; }
  bash -c "$BULK_ajv" || { log "ajv rejected a generated file"; exit 1; }
fi

# Timing: one run of a command, its wall clock and its CPU time (user + system, from wait4's
# resource usage: the process, its threads and every process it waited for), in microseconds.
# The clock starts before the fork and stops after the wait, the same overhead for every tool.
RESULTS=$WORK/results-$MODE-$N.tsv
: > "$RESULTS"
TIMER=$WORK/timer.py
cat > "$TIMER" <<'PYEOF'
import os, subprocess, sys, time
group, name, how = sys.argv[1:4]
command = ["bash", "-c", sys.argv[4]] if how == "bash" else sys.argv[4:]
start = time.perf_counter_ns()
child = subprocess.Popen(command, stdout=subprocess.DEVNULL if how == "direct" else None)
_, status, usage = os.wait4(child.pid, 0)
wall = (time.perf_counter_ns() - start) // 1000
if os.waitstatus_to_exitcode(status) != 0:
    sys.exit("compare.sh: %s failed (exit %d)" % (name, os.waitstatus_to_exitcode(status)))
print("%s\t%s\t%d\t%d" % (group, name, wall, round((usage.ru_utime + usage.ru_stime) * 1e6)))
PYEOF
measure_bulk() { # measure_bulk GROUP NAME: the command BULK_NAME through bash
  local var="BULK_$2"
  python3 "$TIMER" "$1" "$2" bash "${!var}" >> "$RESULTS" || { log "$2 failed"; exit 1; }
}
measure_one() { # measure_one NAME: the words ONE_NAME, run directly
  local var="ONE_$1[@]"
  python3 "$TIMER" single "$1" direct "${!var}" >> "$RESULTS" || { log "$1 failed"; exit 1; }
}

# 5. Bulk, interleaved.
if [[ $MODE == full ]]; then
  BULK=(cat jq rs ajv cjs fcmlint fcmlint_jobs1 fcmlint_xargs fcmlint_tenth fcmlint_off)
else
  BULK=(cat fcmlint fcmlint_jobs1 fcmlint_xargs fcmlint_tenth fcmlint_off)
fi
log "warm-up"
for tool in "${BULK[@]}"; do var="BULK_$tool"; bash -c "${!var}"; done
# ORDER: the tools of one round, shuffled (Fisher-Yates with bash's RANDOM, seeded per round so a
# rerun with the same seed runs the same orders).
shuffled() { # shuffled SEED TOOL...
  RANDOM=$1
  shift
  ORDER=("$@")
  local i j t
  for (( i = ${#ORDER[@]} - 1; i > 0; i-- )); do
    j=$(( RANDOM % (i + 1) ))
    t=${ORDER[i]}; ORDER[i]=${ORDER[j]}; ORDER[j]=$t
  done
}
for (( r = 0; r < ROUNDS; r++ )); do
  log "bulk round $(( r + 1 ))/$ROUNDS"
  shuffled $(( SEED + r )) "${BULK[@]}"
  for tool in "${ORDER[@]}"; do measure_bulk bulk "$tool"; done
done

# 6. Single file.
if [[ $MODE == full ]]; then ONE=(fcmlint version jq rs ajv cjs); else ONE=(fcmlint version); fi
log "single-file latency: $RUNS runs on $SMALL ($SMALL_BYTES bytes)"
for tool in "${ONE[@]}"; do var="ONE_$tool[@]"; "${!var}" > /dev/null; done
for (( r = 0; r < RUNS; r++ )); do
  shuffled $(( SEED + 1000 + r )) "${ONE[@]}"
  for tool in "${ORDER[@]}"; do measure_one "$tool"; done
done

# 6b. A stream: the set ten times over as one NDJSON file (a compact document per line), through
#     `fcmlint --ndjson`; throughput and peak memory (which must not grow with the stream).
STREAM=$WORK/stream-$N-seed$SEED.ndjson
if [[ ! -f $STREAM.stamp || "$(cat "$STREAM.stamp")" != "$STAMP" ]]; then
  log "writing the NDJSON stream $STREAM"
  python3 - "$SET" "$STREAM" <<'EOF'
import json, os, sys
docs = []
for root, dirs, files in os.walk(sys.argv[1]):
    dirs.sort()
    for name in sorted(files):
        if name.endswith(".json"):
            with open(os.path.join(root, name)) as f:
                docs.append(json.dumps(json.load(f), separators=(",", ":"), ensure_ascii=False))
with open(sys.argv[2], "w") as out:
    for _ in range(10):
        for doc in docs:
            out.write(doc + "\n")
EOF
  echo "$STAMP" > "$STREAM.stamp"
fi
STREAM_LINES=$(wc -l < "$STREAM")
STREAM_BYTES=$(stat -c %s "$STREAM")
BULK_ndjson="'$BIN' --ndjson --format json '$STREAM' > /dev/null"
log "ndjson stream: $STREAM_LINES lines"
bash -c "$BULK_ndjson" || { log "fcmlint --ndjson reported problems in the stream"; exit 1; }
for (( r = 0; r < 3; r++ )); do measure_bulk ndjson ndjson; done

# 7. Peak memory (KB), median of three runs each for fcmlint.
peak() { # peak NAME COMMAND...
  /usr/bin/time -o "$WORK/rss.txt" -f '%M' "${@:2}" > /dev/null 2> /dev/null || { log "$1 failed"; exit 1; }
  printf 'rss\t%s\t%s\t0\n' "$1" "$(tail -n 1 "$WORK/rss.txt")" >> "$RESULTS"
}
log "peak memory"
for _ in 1 2 3; do
  peak fcmlint_tenth "$BIN" --format json part-0
  peak fcmlint "$BIN" --format json .
done
peak ndjson "$BIN" --ndjson --format json "$STREAM"
if [[ $MODE == full ]]; then
  # GNU time reports the largest of bash, xargs and the tool: the tool's own peak.
  peak jq bash -c "find . -name '*.json' -print0 | xargs -0 -s $XARGS_SIZE jq empty"
  peak cjs bash -c "find . -name '*.json' -print0 | xargs -0 -s $XARGS_SIZE check-jsonschema --schemafile '$SCHEMA'"
fi

# 8. Report.
COMMIT=$(git -C "$ROOT" rev-parse --short HEAD 2> /dev/null || echo unknown)
if [[ -n "$(git -C "$ROOT" status --porcelain -- Sources Package.swift Plugins rules 2> /dev/null)" ]]; then
  COMMIT="$COMMIT + uncommitted changes to Sources, Package.swift, Plugins or rules"
fi
export MODE N FILES BYTES BATCHES TENTH SMALL SMALL_BYTES ROUNDS RUNS SEED COMMIT BIN XARGS_SIZE STREAM_LINES STREAM_BYTES
export CPU=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
export CORES=$(nproc)
export MEMORY=$(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)
export LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
export KERNEL=$(uname -sr)
export OS=$( (. /etc/os-release 2> /dev/null && echo "$PRETTY_NAME") || echo unknown)
export SWIFT=$(swift --version 2> /dev/null | grep -m1 -o 'Swift version [^ ]*' || echo unknown)
export JQ=$(jq --version 2> /dev/null || echo none)
export CJS=$(check-jsonschema --version 2> /dev/null | awk '{print $NF}' || echo none)
export PYTHON=$(python3 --version 2>&1 | awk '{print $2}')
export RS=$(python3 -c 'import importlib.metadata as m; print(m.version("jsonschema-rs"))' 2> /dev/null || echo none)
export AJV=$(node -p 'require("/usr/share/nodejs/ajv/package.json").version' 2> /dev/null || echo none)
python3 - "$RESULTS" <<'EOF'
import os, statistics, sys, datetime
e = os.environ
rows, cpus = {}, {}
for line in open(sys.argv[1]):
    group, name, wall, cpu = line.rstrip("\n").split("\t")
    rows.setdefault((group, name), []).append(float(wall))
    cpus.setdefault((group, name), []).append(float(cpu))

def med(group, name, table=rows):
    v = table.get((group, name))
    return statistics.median(v) if v else None

def cpu(group, name):
    return med(group, name, cpus)

def secs(us):
    return "%.3f s" % (us / 1e6) if us >= 1e5 else "%.2f ms" % (us / 1e3)

full = e["MODE"] == "full"
files, mb = int(e["FILES"]), int(e["BYTES"]) / 1e6
now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
print("## fcmlint side by side: %d send requests (%.1f MB), %s" % (files, mb, now))
print()
print("Machine: %s cores, %s, %s RAM; %s, %s; load average at the end %s." % (e["CORES"], e["CPU"], e["MEMORY"], e["OS"], e["KERNEL"], e["LOAD"]))
print("fcmlint %s (%s, release build); jq %s; check-jsonschema %s (Python %s)." % (e["COMMIT"], e["SWIFT"], e["JQ"].replace("jq-", ""), e["CJS"], e["PYTHON"]))
print("Bulk: median of %s interleaved rounds (each in a seeded random order) after a warm-up, files in the page cache; cat, jq and check-jsonschema get the"
      " file names from `find -print0 | xargs -0 -s %s` (%s process%s each for this set), fcmlint a folder argument"
      " (and, for comparison, the same xargs). Single file: median of %s interleaved runs on a %s-byte request, each run directly (no shell)."
      " CPU is user + system time of the process and everything it waited for (all threads, every process of a pipeline), from wait4(2)."
      % (e["ROUNDS"], e["XARGS_SIZE"], e["BATCHES"], "" if e["BATCHES"] == "1" else "es", e["RUNS"], e["SMALL_BYTES"]))
print()
cat, fc = med("bulk", "cat"), med("bulk", "fcmlint")
jq, cjs = med("bulk", "jq"), med("bulk", "cjs")
cat_cpu, fc_cpu, jq_cpu = cpu("bulk", "cat"), cpu("bulk", "fcmlint"), cpu("bulk", "jq")
names = [("cat", "cat (I/O floor)"), ("jq", "jq empty"), ("rs", "jsonschema-rs %s (Python's json, Rust validator)" % e["RS"]),
         ("ajv", "ajv %s (Debian's node-ajv, Node's JSON.parse)" % e["AJV"]), ("cjs", "check-jsonschema --schemafile"),
         ("fcmlint", "**fcmlint --format json DIR** (full pack, 2 jobs)"), ("fcmlint_jobs1", "fcmlint --jobs 1 --format json DIR"),
         ("fcmlint_xargs", "fcmlint --format json FILES... (same xargs)"),
         ("fcmlint_tenth", "fcmlint --format json, 10%% of the set (%s files)" % e["TENTH"]),
         ("fcmlint_off", "fcmlint --jobs 1 with every rule but json-syntax off (reading and parsing alone)")]
print("| bulk, %d files | wall median | min | max | files/s | CPU median | CPU per file | wall ÷ cat | CPU ÷ cat | CPU ÷ jq | CPU ÷ fcmlint |" % files)
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for key, label in names:
    v = rows.get(("bulk", key))
    if not v:
        continue
    m, c = statistics.median(v), cpu("bulk", key)
    n = int(e["TENTH"]) if key == "fcmlint_tenth" else files
    print("| %s | %s | %s | %s | %s | %s | %.1f µs | %.2fx | %.2fx | %s | %.2fx |" % (label, secs(m), secs(min(v)), secs(max(v)),
          "{:,.0f}".format(n / (m / 1e6)), secs(c), c / n, m / cat, (c / n) / (cat_cpu / files),
          "%.2fx" % ((c / n) / (jq_cpu / files)) if jq_cpu else "", (c / n) / (fc_cpu / files)))
print()
one, one_cpu = med("single", "fcmlint"), cpu("single", "fcmlint")
print("| single file (%s bytes) | wall median | min | max | CPU median | wall ÷ fcmlint | CPU ÷ fcmlint |" % e["SMALL_BYTES"])
print("|---|---:|---:|---:|---:|---:|---:|")
for key, label in [("fcmlint", "**fcmlint --format json FILE**"), ("version", "fcmlint --version (its start alone)"), ("jq", "jq empty FILE"), ("rs", "jsonschema-rs S FILE"),
                   ("ajv", "ajv S FILE"), ("cjs", "check-jsonschema --schemafile S FILE")]:
    v = rows.get(("single", key))
    if v:
        print("| %s | %s | %s | %s | %s | %.2fx | %.2fx |" % (label, secs(statistics.median(v)), secs(min(v)), secs(max(v)), secs(cpu("single", key)),
              statistics.median(v) / one, cpu("single", key) / one_cpu))
print()
v = rows.get(("ndjson", "ndjson"))
if v:
    lines, smb, m = int(e["STREAM_LINES"]), int(e["STREAM_BYTES"]) / 1e6, statistics.median(v)
    rss = rows.get(("rss", "ndjson"))
    print("| `fcmlint --ndjson --format json STREAM` | lines | MB | wall, median of 3 | CPU | lines/s | MB/s | peak RSS |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    print("| the set ten times over, one document per line | {:,} | {:.0f} | {} | {} | {:,.0f} | {:.0f} | {:.1f} MB |".format(
        lines, smb, secs(m), secs(cpu("ndjson", "ndjson")), lines / (m / 1e6), smb / (m / 1e6), statistics.median(rss) / 1024 if rss else 0))
    print()
print("| peak RSS | MB |")
print("|---|---:|")
for key, label in [("fcmlint_tenth", "fcmlint, %s files" % e["TENTH"]), ("fcmlint", "fcmlint, %d files" % files),
                   ("jq", "jq empty, %d files" % files), ("cjs", "check-jsonschema, %d files" % files)]:
    v = rows.get(("rss", key))
    if v:
        print("| %s | %.1f |" % (label, statistics.median(v) / 1024))
print()

rss_full, rss_tenth = med("rss", "fcmlint") / 1024, med("rss", "fcmlint_tenth") / 1024
tenth, tenth_cpu = med("bulk", "fcmlint_tenth"), cpu("bulk", "fcmlint_tenth")
scale = files / int(e["TENTH"])
targets = []
if full:
    targets += [
        ("bulk: fcmlint CPU at most 0.8x jq empty's per document", "%.2fx" % (fc_cpu / jq_cpu), fc_cpu <= 0.8 * jq_cpu),
        ("bulk: fcmlint CPU at most 1.0x cat's per document", "%.2fx" % (fc_cpu / cat_cpu), fc_cpu <= cat_cpu),
        ("bulk: fcmlint wall at most 0.6x jq empty", "%.2fx" % (fc / jq), fc <= 0.6 * jq),
        ("bulk: fcmlint at least 20x faster than check-jsonschema (wall)", "%.1fx" % (cjs / fc), cjs >= 20 * fc),
        ("single file: fcmlint CPU at most 0.1x jq empty", "%.2fx" % (one_cpu / cpu("single", "jq")), one_cpu <= 0.1 * cpu("single", "jq")),
        ("single file: fcmlint at most 10 ms wall", secs(one), one <= 10000),
    ]
else:
    targets += [
        ("bulk: fcmlint CPU at most 1.0x cat's per document", "%.2fx" % (fc_cpu / cat_cpu), fc_cpu <= cat_cpu),
        ("single file: fcmlint at most 10 ms wall", secs(one), one <= 10000),
    ]
targets += [
    ("peak memory under 64 MB for %d files" % files, "%.1f MB" % rss_full, rss_full < 64),
    ("peak memory flat in the number of files (%s → %d files: at most 1.25x + 2 MB)" % (e["TENTH"], files), "%.1f → %.1f MB" % (rss_tenth, rss_full), rss_full <= rss_tenth * 1.25 + 2),
    ("linear: %.0fx the files takes at most %.1fx the CPU" % (scale, scale * 1.05), "%.2fx" % (fc_cpu / tenth_cpu), fc_cpu <= tenth_cpu * scale * 1.05),
]
print("| target | measured | holds |")
print("|---|---:|:---:|")
for label, value, ok in targets:
    print("| %s | %s | %s |" % (label, value, "yes" if ok else "**no**"))
if files != 20000:
    print()
    print("The issue's bulk targets are stated for 20,000 files; this run has %d." % files)
EOF
