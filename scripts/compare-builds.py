#!/usr/bin/env python3
"""Several fcmlint builds on the same runs, interleaved in the same rounds: what a change saved.

    scripts/compare-builds.py [--rounds R] [--seed S] [--count N] [--instructions] BINARY BINARY...

compare.sh times one build against the other tools, five rounds each; two of its runs a few
minutes apart differ by more than most changes save. Here every build runs in every round, in a
seeded random order, so they meet the same load:

- folder: `fcmlint --format json .` over N generated send requests (two jobs);
- named:  `find . -name '*.json' -print0 | xargs -0 -s 1048576 fcmlint --format json`, as
          compare.sh names them (CPU of the whole pipeline);
- one file: `fcmlint --format json FILE` on compare.sh's small request, each run after a run of
          `jq empty` on it (as compare.sh interleaves them: the caches jq leaves);

and in the same rounds `cat` and `jq empty` over the files named as compare.sh names them. Prints
each run's median and minimum CPU (user + system of the process and everything it waited for,
from wait4(2)) per build, against the first build's and against cat's and jq's.

`--instructions` also counts each build's instructions under callgrind (valgrind, installed from
Debian if missing), which the host's load does not move: `--version`, the one file, and the 2,000
requests of part-0 as a folder with `--jobs 1`, and from the last two the instructions a document.
The set is compare.sh's (generated with scripts/generate-requests.py if missing; environment:
FCMLINT_COMPARE_DIR, default $TMPDIR/fcmlint-compare).
"""
import argparse
import hashlib
import os
import random
import shutil
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def request_set(count, seed):
    """compare.sh's folder of `count` requests, made as it makes it when missing."""
    work = os.environ.get("FCMLINT_COMPARE_DIR") or os.path.join(os.environ.get("TMPDIR", "/tmp"), "fcmlint-compare")
    folder = os.path.join(work, "requests-%d-seed%d" % (count, seed))
    generator = os.path.join(ROOT, "scripts", "generate-requests.py")
    with open(generator, "rb") as f:
        stamp = "%s %d %d" % (hashlib.sha256(f.read()).hexdigest()[:16], count, seed)
    stamp_file = os.path.join(folder, ".stamp")
    if not os.path.exists(stamp_file) or open(stamp_file).read().strip() != stamp:
        print("compare-builds.py: generating %d send requests in %s" % (count, folder), file=sys.stderr)
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(work, exist_ok=True)
        subprocess.run([sys.executable, generator, "--seed", str(seed), str(count), folder], check=True, stdout=subprocess.DEVNULL)
        with open(stamp_file, "w") as f:
            f.write(stamp + "\n")
    return folder


def small_request(folder):
    """compare.sh's single file: the first request of part-0 under 700 bytes, by name."""
    part = os.path.join(folder, "part-0")
    names = sorted(n for n in os.listdir(part) if n.endswith(".json") and os.path.getsize(os.path.join(part, n)) < 700)
    return os.path.join("part-0", names[0])


def cpu(command, folder):
    child = subprocess.Popen(command, cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        sys.exit("compare-builds.py: %s failed" % command)
    return usage.ru_utime + usage.ru_stime


def instructions(command, folder):
    """All of `command`'s instructions, as callgrind counts them."""
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + command,
                         cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    for line in run.stderr.splitlines():
        if "refs:" in line:
            return int(line.split()[-1].replace(",", ""))
    sys.exit("compare-builds.py: callgrind gave no count for %s" % command)


def print_instructions(binaries, names, folder, small):
    part = os.path.join(folder, "part-0")
    documents = sum(1 for n in os.listdir(part) if n.endswith(".json"))
    print()
    print("| build | `--version` | one file | part-0 (%d files, --jobs 1) | a document |" % documents)
    print("|---|---:|---:|---:|---:|")
    for binary, name in zip(binaries, names):
        version = instructions([binary, "--version"], folder)
        one = instructions([binary, "--format", "json", small], folder)
        many = instructions([binary, "--jobs", "1", "--format", "json", "part-0"], folder)
        print("| %s | %s | %s | %s | %s |" % (name, format(version, ","), format(one, ","), format(many, ","), format(round((many - one) / (documents - 1)), ",")))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--seed", type=int, default=20251121)
    parser.add_argument("--count", type=int, default=20000)
    parser.add_argument("--instructions", action="store_true", help="also count instructions under callgrind")
    parser.add_argument("binaries", nargs="+")
    args = parser.parse_args()
    if args.instructions and shutil.which("valgrind") is None:
        subprocess.run(["apt-get", "install", "-y", "-qq", "valgrind"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if shutil.which("valgrind") is None:
            sys.exit("compare-builds.py: --instructions needs valgrind (apt-get install valgrind)")
    for binary in args.binaries:
        if not os.access(binary, os.X_OK):
            sys.exit("compare-builds.py: no fcmlint binary at %s" % binary)
    if shutil.which("jq") is None:
        sys.exit("compare-builds.py: needs jq (apt-get install jq)")
    folder = request_set(args.count, args.seed)
    small = small_request(folder)
    binaries = [os.path.abspath(b) for b in args.binaries]

    def commands(binary, kind):
        if kind == "folder":
            return [binary, "--format", "json", "."]
        if kind == "named":
            return ["bash", "-c", "find . -name '*.json' -print0 | xargs -0 -s 1048576 '%s' --format json" % binary]
        return [binary, "--format", "json", small]

    kinds = ["folder", "named", "one file"]
    references = {
        "cat": ["bash", "-c", "find . -name '*.json' -print0 | xargs -0 -s 1048576 cat > /dev/null"],
        "jq": ["bash", "-c", "find . -name '*.json' -print0 | xargs -0 -s 1048576 jq empty"],
    }
    runs = [(b, k) for b in range(len(binaries)) for k in kinds] + [(-1, name) for name in references]

    def command(run):
        b, k = run
        return references[k] if b < 0 else commands(binaries[b], k)

    for run in runs:
        cpu(command(run), folder)  # warm-up: the files in the page cache
    times = {r: [] for r in runs}
    rng = random.Random(args.seed)
    for _ in range(args.rounds):
        order = runs[:]
        rng.shuffle(order)
        for run in order:
            if run[1] == "one file":
                cpu(["jq", "empty", small], folder)
            times[run].append(cpu(command(run), folder))

    cat, jq = (statistics.median(times[(-1, name)]) for name in ("cat", "jq"))
    print("| build | run | CPU median | CPU min | ÷ first build | ÷ cat | ÷ jq |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for name in references:
        values = times[(-1, name)]
        print("| %s (named) | bulk | %.3f s | %.3f s | | %.2fx | %.2fx |" % (name, statistics.median(values), min(values), statistics.median(values) / cat, statistics.median(values) / jq))
    for k in kinds:
        first = statistics.median(times[(0, k)])
        for b, binary in enumerate(args.binaries):
            values = times[(b, k)]
            median = statistics.median(values)
            if k == "one file":
                print("| %s | %s | %.3f ms | %.3f ms | %.3fx | | |" % (binary, k, median * 1000, min(values) * 1000, median / first))
            else:
                print("| %s | %s | %.3f s | %.3f s | %.3fx | %.2fx | %.2fx |" % (binary, k, median, min(values), median / first, median / cat, median / jq))
    if args.instructions:
        print_instructions(binaries, args.binaries, folder, small)


if __name__ == "__main__":
    main()
