"""Lints a message log (one JSON send request a line) with fcmlint on Apache Spark.

  spark-submit --master 'local[*]' scripts/spark/lint_log.py --fcmlint /usr/local/bin/fcmlint \\
      --id-field /message/data/message_id --report report.json sent.ndjson

The same job runs unchanged on a cluster (--master yarn, spark://..., k8s://...) when fcmlint is
at the --fcmlint path on every worker. The log is read as partitions of lines; each partition is
piped through one `fcmlint --ndjson --format ndjson -`, whose output lines (one finding each, with
the document's id) need no merging. From them the job counts findings per rule and keeps the
worst messages by id; with --findings DIR it also saves every finding (part files that
concatenate into one valid result).

Lines longer than --max-file-size are set aside before the pipe, counted and named by id: fcmlint
would report them without reading them (no id), and its exit status stays 0 or 1, so a run that
exits 2 (a real failure: a bad config, a broken binary) fails its task instead of passing unseen.
"""
import argparse
import json
import operator
import re
import shlex
import sys
import time

from pyspark.sql import SparkSession
from pyspark.sql import functions as F

SIZE = re.compile(r"^(\d+)([KMG]?)$")


def size(text):
    match = SIZE.match(text)
    if not match:
        raise argparse.ArgumentTypeError("a size in bytes, with K, M or G: %r" % text)
    return int(match.group(1)) << {"": 0, "K": 10, "M": 20, "G": 30}[match.group(2)]


def pointer_value(document, pointer):
    """The value at an RFC 6901 pointer, as fcmlint reads it; None when there is none."""
    node = document
    for token in pointer.split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    return node if isinstance(node, (str, int, float, bool)) else None


def main():
    parser = argparse.ArgumentParser(description="Lint a log of FCM send requests on Spark.")
    parser.add_argument("log", help="the log: a file, folder or glob of JSON lines Spark can read")
    parser.add_argument("--fcmlint", default="fcmlint", help="the fcmlint binary, at this path on every worker")
    parser.add_argument("--id-field", default="/message/data/message_id", help="JSON Pointer of each message's id")
    parser.add_argument("--max-file-size", type=size, default=size("64K"),
                        help="longest line linted; longer lines are set aside with their ids (default 64K)")
    parser.add_argument("--partitions", type=int, default=0,
                        help="repartition the log into this many parts (default: as Spark splits the files)")
    parser.add_argument("--worst", type=int, default=20, help="how many of the worst messages to keep")
    parser.add_argument("--findings", help="save every finding here, as part files of JSON lines")
    parser.add_argument("--report", help="write the report (JSON) to this file too")
    args = parser.parse_args()

    spark = SparkSession.builder.appName("fcmlint").getOrCreate()
    sc = spark.sparkContext
    sc.setLogLevel("WARN")
    limit, pointer = args.max_file_size, args.id_field
    started = time.monotonic()
    # A row per line, split at LF only, as fcmlint splits a stream; lengths and counts are
    # computed in the JVM, so only the lines to lint pass through Python, once.
    text = spark.read.option("lineSep", "\n").text(args.log)
    if args.partitions:
        text = text.repartition(args.partitions)
    fits = F.octet_length("value") <= limit
    lines = text.where(fits).rdd.map(lambda row: row.value)

    # One fcmlint per partition, one thread each (Spark runs a task per core). Exit 1 is
    # "findings", the normal case here; anything above it fails the task.
    fcmlint = shlex.join([args.fcmlint, "--ndjson", "--format", "ndjson", "--id-field", pointer,
                          "--max-file-size", str(limit), "--jobs", "1", "-"])
    command = "sh -c " + shlex.quote(fcmlint + '; status=$?; [ "$status" -le 1 ] || exit "$status"')
    findings = lines.pipe(command, checkCode=True).cache()
    if args.findings:
        findings.saveAsTextFile(args.findings)
    records = findings.map(json.loads)
    counts = dict(records.map(lambda r: (r["rule"], 1)).reduceByKey(operator.add).collect())
    severities = dict(records.map(lambda r: (r["severity"], 1)).reduceByKey(operator.add).collect())

    # The worst messages: most errors, then most warnings, by id (a line whose id cannot be read,
    # because it is not JSON up to its id, is one unnamed entry per partition-local line).
    def per_message(r):
        key = r["id"] if r["id"] is not None else "(no id: %s line %d)" % (r["file"], r["line"])
        return key, (int(r["severity"] == "error"), int(r["severity"] == "warning"), (r["rule"],))

    def add(a, b):
        return a[0] + b[0], a[1] + b[1], a[2] + b[2]

    worst = (records.map(per_message).reduceByKey(add)
             .takeOrdered(args.worst, key=lambda kv: (-kv[1][0], -kv[1][1], str(kv[0]))))
    messages_with_findings = records.map(per_message).keys().distinct().count()

    # Lines over the limit: read here (Spark holds them anyway) only for their ids.
    def over_limit_id(line):
        try:
            return pointer_value(json.loads(line), pointer)
        except ValueError:
            return None

    over = text.where(~fits).rdd.map(lambda row: over_limit_id(row.value))
    over_count = over.count()
    total = text.count()
    elapsed = time.monotonic() - started
    cores = sc.defaultParallelism

    report = {
        "messages": total,
        "messages_with_findings": messages_with_findings,
        "findings": sum(counts.values()),
        "rules": dict(sorted(counts.items())),
        "severities": dict(sorted(severities.items())),
        "over_limit": {"count": over_count, "limit": limit, "ids": over.take(100)},
        "worst": [{"id": k, "errors": v[0], "warnings": v[1], "rules": sorted(set(v[2]))} for k, v in worst],
        "seconds": round(elapsed, 3),
        "cores": cores,
        "messages_per_second_per_core": round(total / elapsed / cores) if elapsed > 0 else None,
    }
    text = json.dumps(report, indent=1, ensure_ascii=False)
    if args.report:
        with open(args.report, "w", encoding="utf-8") as out:
            out.write(text + "\n")
    print(text)
    spark.stop()


if __name__ == "__main__":
    sys.exit(main())
