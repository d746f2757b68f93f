"""The release build of fcmlint that the measuring scripts run (start-cost.py, start-order.py)."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def path():
    """Where `swift build -c release` puts fcmlint."""
    folder = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.strip()
    return os.path.join(folder, "fcmlint")


def build(log):
    """Builds fcmlint (`swift build -c release`) and returns its path."""
    log("building fcmlint (release)")
    subprocess.run(["swift", "build", "-c", "release", "--product", "fcmlint"], cwd=ROOT, check=True, stdout=sys.stderr)
    return path()
