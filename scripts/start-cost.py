#!/usr/bin/env python3
"""Where a one-file run's time goes: the start of a process, as a hook or an editor pays it.

    scripts/start-cost.py [--runs N] [--binary PATH]

Measures the release build (built with `swift build -c release` unless --binary names one) on
the same small request compare.sh times (the first file under 700 bytes of the seeded set), and
`fcmlint --version`, its start alone:

1. CPU time (user + system, from wait4) of each run, median of N interleaved runs, two ways:
   warm (one Python process starts every run, back to back) and cold (a fresh Python process
   starts each run, as compare.sh does: the run meets caches the interpreter's start evicted).
2. Page faults (perf's page-faults event, every one, with its address), by where they land: the
   binary's read-only segment (code and constants), its writable segment (data the runtime
   writes: type metadata, caches), the heap, and the stack with other mappings.
3. The share of the one-file run spent in the kernel (perf's cpu-clock samples), and the part of
   it handling page faults (fault entry, mapping the binary's pages around a fault, zeroing new
   heap pages, charging them).

Items 2 and 3 need perf (Debian's linux-perf, installed if missing); without it only 1 runs.
Prints Markdown with the date, the machine and the commit (docs/performance.md).
"""
import argparse
import collections
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import release_build

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def log(message):
    print("start-cost.py: " + message, file=sys.stderr)


def small_request(folder):
    """The file compare.sh times: the first (by name) under 700 bytes in part-0 of the seeded set."""
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "generate-requests.py"), "--seed", "20251121", "100", folder],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    part = os.path.join(folder, "part-0")
    names = sorted(n for n in os.listdir(part) if n.endswith(".json") and os.path.getsize(os.path.join(part, n)) < 700)
    return os.path.join(part, names[0])


def cpu_ms(command):
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("start-cost.py: %s failed" % " ".join(command))
    return (usage.ru_utime + usage.ru_stime) * 1e3


COLD_TIMER = (
    "import os,subprocess,sys\n"
    "c=subprocess.Popen(sys.argv[1:],stdout=subprocess.DEVNULL)\n"
    "_,s,u=os.wait4(c.pid,0)\n"
    "print((u.ru_utime+u.ru_stime)*1e3)\n")


def cold_cpu_ms(command):
    out = subprocess.run([sys.executable, "-c", COLD_TIMER] + command, check=True, capture_output=True, text=True).stdout
    return float(out)


def timings(commands, runs):
    warm = {name: [] for name in commands}
    cold = {name: [] for name in commands}
    rng = random.Random(20251128)
    for _ in range(runs):
        order = list(commands)
        rng.shuffle(order)
        for name in order:
            warm[name].append(cpu_ms(commands[name]))
    for _ in range(max(10, runs // 5)):
        order = list(commands)
        rng.shuffle(order)
        for name in order:
            cold[name].append(cold_cpu_ms(commands[name]))
    return {name: (statistics.median(warm[name]), statistics.median(cold[name])) for name in commands}


def have_perf():
    if shutil.which("perf") is None:
        log("installing perf (linux-perf)")
        subprocess.run(["apt-get", "update", "-qq"], stdout=sys.stderr, stderr=sys.stderr)
        subprocess.run(["apt-get", "install", "-y", "-qq", "linux-perf"], stdout=sys.stderr, stderr=sys.stderr, env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
    if shutil.which("perf") is None:
        return False
    probe = subprocess.run(["perf", "stat", "-e", "page-faults", "true"], capture_output=True, text=True)
    return probe.returncode == 0


def segments(binary):
    """The binary's loaded segments: (start, end, 'read-only' or 'writable')."""
    out = subprocess.run(["readelf", "-lW", binary], check=True, capture_output=True, text=True).stdout
    found = []
    for line in out.splitlines():
        words = line.split()
        if words and words[0] == "LOAD":
            start, size = int(words[2], 16), int(words[5], 16)
            flags = "".join(words[6:-1])
            found.append((start, start + size, "writable" if "W" in flags else "read-only"))
    return found


def faults_by_region(binary, command, scratch):
    data = os.path.join(scratch, "faults.data")
    subprocess.run(["perf", "record", "-q", "-e", "page-faults", "-c", "1", "-d", "-o", data, "--"] + command,
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    out = subprocess.run(["perf", "script", "-i", data, "-F", "addr"], check=True, capture_output=True, text=True).stdout
    loaded = segments(binary)
    top = max(end for _, end, _ in loaded)
    counts = collections.Counter()
    for line in out.split():
        address = int(line, 16)
        region = next((kind for start, end, kind in loaded if start <= address < end), None)
        if region is None:
            region = "heap" if top <= address < 0x7F0000000000 else "stack and other mappings"
        counts[region] += 1
    return counts


# Kernel functions that handle a page fault: its entry, mapping file pages around it, zeroing and
# charging new anonymous pages.
FAULT_WORDS = ("fault", "filemap", "folio", "pte", "clear_page", "memcg", "lruvec", "anonymous", "rmap", "do_set", "alloc_pages", "alloc_frozen")


def kernel_share(command, runs, scratch):
    data = os.path.join(scratch, "clock.data")
    script = "for i in $(seq %d); do \"$@\"; done > /dev/null" % runs
    subprocess.run(["perf", "record", "-q", "-e", "cpu-clock", "-F", "20000", "-o", data, "--", "sh", "-c", script, "sh"] + command,
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    comm = os.path.basename(command[0])[:15]
    out = subprocess.run(["perf", "script", "-i", data, "--comm", comm, "-F", "ip,sym,dso"], check=True, capture_output=True, text=True).stdout
    total = kernel = faults = 0
    for line in out.splitlines():
        line = line.strip()
        if not line:
            continue
        total += 1
        if "[kernel.kallsyms]" in line:
            kernel += 1
            if any(word in line for word in FAULT_WORDS):
                faults += 1
    return total, kernel, faults


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=200, help="warm runs of each command (cold: a fifth of them, at least 10)")
    parser.add_argument("--binary", help="the fcmlint binary (default: build the release one)")
    args = parser.parse_args()
    binary = os.path.abspath(args.binary) if args.binary else release_build.build(log)
    with tempfile.TemporaryDirectory() as scratch:
        request = small_request(os.path.join(scratch, "set"))
        one = [binary, "--format", "json", request]
        version = [binary, "--version"]
        log("timing %d warm and %d cold runs of each" % (args.runs, max(10, args.runs // 5)))
        figures = timings({"one": one, "version": version, "true": ["true"]}, args.runs)
        perf = have_perf()
        if perf:
            log("counting page faults and sampling the kernel")
            faults = {name: faults_by_region(binary, command, scratch) for name, command in (("one", one), ("version", version))}
            share = kernel_share(one, args.runs, scratch)
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip() or "unknown"
        print("## Where a one-file run's time goes: %s" % time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
        print()
        print("Machine: %d cores, %s; fcmlint %s; a %d-byte request (`%s`)." % (
            os.cpu_count(), platform.processor() or platform.machine(), commit, os.path.getsize(request), os.path.relpath(request, os.path.join(scratch, "set"))))
        print()
        print("| run | CPU, warm (median of %d) | CPU, cold (median of %d) |" % (args.runs, max(10, args.runs // 5)))
        print("|---|---:|---:|")
        for name, label in (("one", "`fcmlint --format json FILE`"), ("version", "`fcmlint --version`"), ("true", "`true` (a process and nothing else)")):
            warm, cold = figures[name]
            print("| %s | %.2f ms | %.2f ms |" % (label, warm, cold))
        if not perf:
            print()
            print("(perf is not available: no page faults or kernel share.)")
            return
        print()
        regions = ["read-only", "writable", "heap", "stack and other mappings"]
        print("| page faults | " + " | ".join(regions) + " | total |")
        print("|---|" + "---:|" * (len(regions) + 1))
        for name, label in (("one", "one file"), ("version", "`--version`")):
            counts = faults[name]
            print("| %s | %s | %d |" % (label, " | ".join(str(counts[r]) for r in regions), sum(counts.values())))
        total, kernel, fault = share
        print()
        print("One file, %d runs: %d cpu-clock samples, %.0f%% of them in the kernel, %.0f%% handling page faults." % (
            args.runs, total, 100.0 * kernel / max(total, 1), 100.0 * fault / max(total, 1)))


if __name__ == "__main__":
    main()
