"""The entry of the no-Swift pre-commit hooks (fcmlint-py, fcmlint-fix-py, fcmlint-docs-py).

It runs the fcmlint that pip installed into the hook's own environment: the fcmlint wheel, which
the hook's `additional_dependencies` names (a wheel file, or `fcmlint==VERSION` once the package
is on PyPI). Without one it says how to get it and exits 2, rather than leaving pip's "No matching
distribution found" to explain.
"""
import importlib.util
import os
import subprocess
import sys

VERSION = "0.1.0"

GUIDANCE = """\
fcmlint: the fcmlint wheel is not installed in this hook's environment.
fcmlint {v} is not published on PyPI yet. Build the wheel from a clone of fcmlint (Linux x86_64,
Swift 6 and libyaml; see its README):
    swift build -c release && python3 scripts/build-wheel.py --out dist
then name it in .pre-commit-config.yaml, by absolute path:
    - id: fcmlint-py
      additional_dependencies: [/absolute/path/to/dist/fcmlint-{v}-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.musllinux_1_1_x86_64.whl]
(`pre-commit clean` after changing it). Once fcmlint {v} is on PyPI, `additional_dependencies:
[fcmlint=={v}]` does the same. Or put fcmlint on PATH (that wheel, or the release binary) and use
the hook id `fcmlint-system`.
"""


def main() -> int:
    if importlib.util.find_spec("fcmlint") is None:
        sys.stderr.write(GUIDANCE.format(v=VERSION))
        return 2
    # The wheel's own launcher finds the binary it installed (never another fcmlint on PATH).
    return subprocess.call([sys.executable, "-m", "fcmlint", *sys.argv[1:]])


if __name__ == "__main__":
    sys.exit(main())
