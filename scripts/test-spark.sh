#!/usr/bin/env bash
# Lints a generated message log three ways and checks they agree: one `fcmlint --ndjson` process,
# the Spark job (scripts/spark/lint_log.py, local mode with every core) and GNU parallel; each
# one's counts per rule must equal the generator's known counts. Prints the throughput of each in
# messages per second per core.
#
#   scripts/test-spark.sh FCMLINT [MESSAGES]     (default 1000000)
#
# FCMLINT is the release binary (swift build -c release --scratch-path .build-rel --product fcmlint).
# Installs what is missing: Java 17 and GNU parallel from Debian, PySpark from the package index
# into a virtual environment kept in ~/.cache/fcmlint-spark (FCMLINT_SPARK_VENV to put it elsewhere).
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 FCMLINT [MESSAGES]" >&2; exit 2; }
bin="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
messages="${2:-1000000}"
cd "$(dirname "$0")/.."
repo="$(pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cores="$(nproc)"
id_field=/message/data/message_id
limit=16K  # the longest generated clean line is under 1 KB; the padded ones are 20 KB

now() { date +%s.%N; }
elapsed() { python3 -c "import sys; print('%.3f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$1" "$2"; }

# What the job needs.
if ! java -version 2>&1 | grep -qE 'version "(17|21)'; then
  (apt-get update -qq && apt-get install -y -qq openjdk-17-jre-headless) >/dev/null 2>&1 || { echo "cannot install Java 17" >&2; exit 1; }
fi
if ! command -v parallel >/dev/null 2>&1; then
  (apt-get install -y -qq parallel || (apt-get update -qq && apt-get install -y -qq parallel)) >/dev/null 2>&1 \
    || { echo "cannot install GNU parallel" >&2; exit 1; }
fi
venv="${FCMLINT_SPARK_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/fcmlint-spark/venv}"
if ! "$venv/bin/python" -c "import pyspark" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check pyspark
fi
export PYSPARK_PYTHON="$venv/bin/python" PYSPARK_DRIVER_PYTHON="$venv/bin/python" SPARK_LOCAL_IP=127.0.0.1
echo "pyspark $("$venv/bin/python" -c 'import pyspark; print(pyspark.__version__)'), $(java -version 2>&1 | head -n 1), $(parallel --version | head -n 1), $cores cores"

# The log, with its known mistakes.
start=$(now)
python3 scripts/spark/generate-log.py "$messages" "$work/log.ndjson" "$work/expected.json" >/dev/null
echo "log: $messages messages, $(du -m "$work/log.ndjson" | cut -f1) MB, written in $(elapsed "$start" "$(now)") s"

# One process, every core. Exit 2: the lines over the limit are I/O errors of the run.
start=$(now)
status=0
"$bin" --ndjson --format ndjson --id-field "$id_field" --max-file-size "$limit" "$work/log.ndjson" \
  > "$work/single.ndjson" 2> "$work/single.err" || status=$?
single_seconds=$(elapsed "$start" "$(now)")
[ "$status" -eq 2 ] || { echo "fcmlint --ndjson: expected exit 2 (lines over the limit), got $status"; cat "$work/single.err"; exit 1; }

# Spark, local mode, a task per core; the whole spark-submit timed too (JVM start included).
start=$(now)
"$venv/bin/spark-submit" --master "local[*]" --driver-memory 2g scripts/spark/lint_log.py \
  --fcmlint "$bin" --id-field "$id_field" --max-file-size "$limit" \
  --findings "$work/findings" --report "$work/spark.json" "$work/log.ndjson" > "$work/spark.out" 2> "$work/spark.err" \
  || { tail -n 40 "$work/spark.err"; exit 1; }
spark_wall=$(elapsed "$start" "$(now)")

# GNU parallel: blocks of the log on standard input, one single-threaded fcmlint per core.
start=$(now)
status=0
parallel --pipe --block 16M -j "$cores" "$bin" --ndjson --format ndjson --id-field "$id_field" \
  --max-file-size "$limit" --jobs 1 --stdin-filename 'block-{#}' - < "$work/log.ndjson" > "$work/parallel.ndjson" 2> "$work/parallel.err" || status=$?
parallel_seconds=$(elapsed "$start" "$(now)")

python3 - "$work" "$messages" "$cores" "$single_seconds" "$spark_wall" "$parallel_seconds" <<'PY'
import collections, glob, json, sys
work, n, cores = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
single_s, spark_wall, parallel_s = map(float, sys.argv[4:7])
expected = json.load(open(work + "/expected.json"))
spark = json.load(open(work + "/spark.json"))
failures = []

def read(paths):
    records = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                records.append(json.loads(line))  # every line a whole JSON object
    return records

single = read([work + "/single.ndjson"])
findings = read(sorted(glob.glob(work + "/findings/part-*")))
par = read([work + "/parallel.ndjson"])
count = lambda records: dict(collections.Counter(r["rule"] for r in records))
over = set(expected["over_limit_ids"])

# Spark sets the lines over the limit aside (with their ids); fcmlint reports each as json-syntax.
spark_rules = dict(spark["rules"])
spark_rules["json-syntax"] = spark_rules.get("json-syntax", 0) + spark["over_limit"]["count"]
for name, got in [("fcmlint --ndjson", count(single)), ("spark", spark_rules), ("spark findings", count(findings) | {"json-syntax": count(findings).get("json-syntax", 0) + spark["over_limit"]["count"]}), ("parallel", count(par))]:
    if got != expected["rules"]:
        failures.append(f"{name}: counts per rule {got} != generated {expected['rules']}")
if spark["messages"] != n:
    failures.append(f"spark read {spark['messages']} messages, not {n}")
if set(spark["over_limit"]["ids"]) != over or spark["over_limit"]["count"] != len(over):
    failures.append(f"spark: lines over the limit {spark['over_limit']} != generated {sorted(over)}")
# The same findings, message by message: joined by id, whatever the partitions' line numbers.
key = lambda r: (r["id"], r["rule"], r["pointer"], r["column"], r["message"])
single_keys = collections.Counter(key(r) for r in single if r["id"] is not None or "larger than the limit" not in r["message"])
for name, records in [("spark", findings), ("parallel", [r for r in par if "larger than the limit" not in r["message"]])]:
    if collections.Counter(key(r) for r in records) != single_keys:
        failures.append(f"{name}: the findings by id differ from one process's")
nulls = [r for r in single if r["id"] is None]
if len(nulls) != len(over) or any("larger than the limit" not in r["message"] for r in nulls):
    failures.append(f"fcmlint --ndjson: {len(nulls)} findings without an id; expected only the {len(over)} lines over the limit")
if not spark["worst"] or spark["worst"][0]["errors"] < 1:
    failures.append("spark: no worst messages")

rate = lambda seconds: round(n / seconds / cores)
print(f"counts per rule (generated): {json.dumps(expected['rules'], sort_keys=True)}")
print(f"fcmlint --ndjson, one process:   {single_s:8.2f} s  {rate(single_s):>9,} messages/s/core")
print(f"spark job (lint_log.py actions): {spark['seconds']:8.2f} s  {rate(spark['seconds']):>9,} messages/s/core  ({spark['cores']} tasks at once)")
print(f"spark-submit, JVM start included:{spark_wall:8.2f} s  {rate(spark_wall):>9,} messages/s/core")
print(f"GNU parallel, --pipe --block 16M:{parallel_s:8.2f} s  {rate(parallel_s):>9,} messages/s/core")
print(f"worst message: {json.dumps(spark['worst'][0])}" if spark["worst"] else "")
# The Spark job's report, its lists cut to their first entries.
shown = dict(spark, worst=spark["worst"][:2], over_limit=dict(spark["over_limit"], ids=spark["over_limit"]["ids"][:2]))
print("spark report: " + json.dumps(shown, ensure_ascii=False))
for failure in failures:
    print("FAIL: " + failure)
print(f"spark recipe: {'FAILED' if failures else 'ok'} ({n} messages, {sum(expected['rules'].values())} known mistakes, {len(findings)} findings kept by Spark)")
sys.exit(1 if failures else 0)
PY
