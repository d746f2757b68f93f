#!/usr/bin/env python3
"""The order the release binary's linker lays the start's code out in (Sources/fcmlint/start.order).

    scripts/start-order.py [--binary PATH]     write Sources/fcmlint/start.order again
    scripts/start-order.py --check PATH        how many of its entries PATH still has, laid out in order

A run of one small file executes a small part of the binary's functions, spread over its whole
code segment, and each page of code it touches first is a page fault: many more of them for a
binary as the linker wrote it or read back from the disk than for one `objcopy` just wrote
(docs/performance.md).
The release build compiles each function into a section of its own (`-function-sections`, in
Package.swift) and hands the linker this file (`--section-ordering-file`), so the functions a
start runs lie together.

Writing: runs the release binary (built with `swift build -c release` unless --binary names one)
under callgrind, `--version` first, then a request of the corpus without findings and one with,
and lists every function they execute as `.text.<symbol>`: `--version`'s, then what each request
adds, each group sorted by name (so the file does not depend on the order of the binary it was
made from). Needs valgrind.

Checking (CI): the share of the file's entries that still name a function of the binary. Code
changes rename functions and add new ones; the order then helps less, and below three quarters
the check fails, so the file is written again (a stale entry is otherwise harmless: the linker
skips a section it does not find). And whether the linker followed the file: the share of
entries laid out right after the one before them. The standard library's Swift code has no
section per function, so its entries (about a tenth) stay where they are; below three fifths the
check fails. It did once without a code change: in a build folder made before Package.swift
asked for `-function-sections`, the compiler kept the objects of files whose code had not
changed (it skips code generation when a module's IR is unchanged, whatever the flags), and
their functions stayed in one section each. A clean build folder (as CI's) lays them out.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import release_build

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORDER = os.path.join(ROOT, "Sources", "fcmlint", "start.order")
# A request to every platform with an image, then one with a finding (a report's code).
REQUESTS = [os.path.join(ROOT, "corpus", "valid", "topic-image-all-platforms.json"),
            os.path.join(ROOT, "corpus", "invalid", "android-color-short.json")]
MINIMUM_SHARE = 0.75
MINIMUM_LAID_OUT = 0.6
# Entries closer than this (alignment padding) count as laid out one after the other.
ADJACENT_BYTES = 64


def log(message):
    print("start-order.py: " + message, file=sys.stderr)


def executed(binary, arguments, folder):
    """The functions a run executes (mangled names)."""
    out = os.path.join(folder, "callgrind.out")
    run = subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no", "--callgrind-out-file=" + out, binary] + arguments,
                         cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if run.returncode not in (0, 1):  # 1: the request has findings
        sys.exit(f"start-order.py: fcmlint {' '.join(arguments)} ended with {run.returncode} under callgrind")
    names, seen = [], set()
    # `fn=(12) name` the first time a function is named, `fn=(12)` after; calls name theirs as cfn=.
    pattern = re.compile(r"^c?fn=\(\d+\) (\S+)")
    with open(out) as lines:
        for line in lines:
            match = pattern.match(line)
            if match and match.group(1) not in seen:
                seen.add(match.group(1))
                names.append(match.group(1))
    return names


def defined_functions(binary):
    listing = subprocess.run(["nm", "--defined-only", binary], check=True, capture_output=True, text=True).stdout
    return {fields[2] for fields in (line.split() for line in listing.splitlines()) if len(fields) == 3 and fields[1] in "tTwW"}


def function_places(binary):
    """Each defined function's address and size."""
    listing = subprocess.run(["nm", "--defined-only", "--print-size", binary], check=True, capture_output=True, text=True).stdout
    return {fields[3]: (int(fields[0], 16), int(fields[1], 16))
            for fields in (line.split() for line in listing.splitlines()) if len(fields) == 4 and fields[2] in "tTwW"}


def write(binary):
    functions = defined_functions(binary)
    order, seen = [], set()
    with tempfile.TemporaryDirectory() as folder:
        for arguments in [["--version"]] + [["--format", "json", request] for request in REQUESTS]:
            # Each run's new functions sorted by name: the file is the same whatever the order of
            # the binary it was made from.
            new = sorted(name for name in set(executed(binary, arguments, folder)) if name in functions and name not in seen)
            seen.update(new)
            order += new
    with open(ORDER, "w") as out:
        for name in order:
            out.write(".text." + name + "\n")
    # The build does not know the linker reads the file: without the release binary, the next
    # release build links it again.
    built = release_build.path()
    if os.path.exists(built):
        os.remove(built)
    log(f"{len(order)} functions written to {os.path.relpath(ORDER, ROOT)}")


def check(binary):
    with open(ORDER) as lines:
        entries = [line.strip()[len(".text."):] for line in lines if line.strip()]
    places = function_places(binary)
    found = [places[name] for name in entries if name in places]
    share = len(found) / len(entries) if entries else 0
    print(f"start order: {len(found)} of {len(entries)} functions still in the binary ({share:.0%})")
    pairs = list(zip(found, found[1:]))
    adjacent = sum(1 for (address, size), (following, _) in pairs if 0 <= following - (address + size) < ADJACENT_BYTES)
    laid_out = adjacent / len(pairs) if pairs else 0
    print(f"start order: {adjacent} of {len(pairs)} of them right after the one before ({laid_out:.0%})")
    failed = 0
    if share < MINIMUM_SHARE:
        print(f"start order: below {MINIMUM_SHARE:.0%} still in the binary; write it again with scripts/start-order.py", file=sys.stderr)
        failed = 1
    if laid_out < MINIMUM_LAID_OUT:
        print(f"start order: below {MINIMUM_LAID_OUT:.0%} laid out in order; the linker did not follow the file "
              "(objects without a section per function? build in a clean folder)", file=sys.stderr)
        failed = 1
    return failed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", help="the release fcmlint binary (default: build it)")
    parser.add_argument("--check", metavar="PATH", help="check the order against this binary instead of writing it")
    arguments = parser.parse_args()
    if arguments.check:
        return check(arguments.check)
    write(arguments.binary or release_build.build(log))
    return 0


if __name__ == "__main__":
    sys.exit(main())
