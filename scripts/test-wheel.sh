#!/usr/bin/env bash
# Builds the wheel from the release binary, installs it with pip into a fresh virtual environment
# and lints the corpus with the installed `fcmlint`: its report must be corpus/expected.txt. Then
# the no-Swift pre-commit hook (fcmlint-py) with the real pre-commit framework, pip taking the
# fcmlint wheel from the one just built. Prints the wheel's size.
#   scripts/test-wheel.sh [BINARY]    (default: the release build's fcmlint)
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
binary="${1:-$(swift build -c release --show-bin-path)/fcmlint}"

version="$(sed -nE 's/.*public static let version = "([^"]+)".*/\1/p' Sources/FCMLintCLI/FCMLintCommand.swift)"
grep -q "^version = \"$version\"" pyproject.toml && grep -q "\"fcmlint==$version\"" pyproject.toml \
  || { echo "wheel test: FAILED: pyproject.toml must pin fcmlint==$version (the version in FCMLintCommand.swift)"; exit 1; }

python3 scripts/build-wheel.py --binary "$binary" --out "$work/dist"
wheel="$(ls "$work"/dist/fcmlint-*.whl)"
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check --no-index "$wheel"
[ "$("$work/venv/bin/fcmlint" --version)" = "$version" ] || { echo "wheel test: FAILED: the installed fcmlint is not $version"; exit 1; }
status=0
(cd "$repo" && "$work/venv/bin/fcmlint" corpus) > "$work/corpus.txt" || status=$?
[ "$status" -eq 1 ] || { echo "wheel test: FAILED: expected exit 1 on the corpus, got $status"; exit 1; }
diff "$work/corpus.txt" corpus/expected.txt || { echo "wheel test: FAILED: the installed fcmlint's corpus report differs from corpus/expected.txt"; exit 1; }
echo "wheel test: pip-installed $(basename "$wheel") lints the corpus as expected: ok"

# The no-Swift pre-commit hook, with the wheel just built standing in for PyPI's.
if ! command -v pre-commit >/dev/null 2>&1; then
  python3 -m pip install --quiet --disable-pip-version-check pre-commit >/dev/null 2>&1 || true
fi
if ! command -v pre-commit >/dev/null 2>&1; then
  echo "wheel test: pre-commit hook SKIPPED (pre-commit could not be installed from PyPI)"
  exit 0
fi
export PRE_COMMIT_HOME="$work/cache" PIP_FIND_LINKS="$work/dist"
cd "$work" && git init -q project && cd project
git config user.email ci@example.invalid && git config user.name ci
printf '{"message": {"topic": "news", "notification": {"title": "Hi"}}}\n' > good.json
printf '{"message": {"topic": "news", "apns": {"payload": {"aps": {"mutable_content": 1, "alert": "Hi"}}}}}\n' > bad.json
git add good.json bad.json
pre-commit try-repo "$repo" fcmlint-py --files good.json > "$work/good.log" 2>&1 || { cat "$work/good.log"; echo "wheel test: FAILED: fcmlint-py failed a good payload"; exit 1; }
if pre-commit try-repo "$repo" fcmlint-py --files bad.json > "$work/bad.log" 2>&1; then
  cat "$work/bad.log"; echo "wheel test: FAILED: fcmlint-py passed a bad payload"; exit 1
fi
grep -q "apns-aps-key" "$work/bad.log" || { cat "$work/bad.log"; echo "wheel test: FAILED: no apns-aps-key from fcmlint-py"; exit 1; }
# The fix hook rewrites the file and fails the commit so the change can be reviewed.
pre-commit try-repo "$repo" fcmlint-fix-py --files bad.json > "$work/fix.log" 2>&1 || true
grep -q '"mutable-content"' bad.json || { cat "$work/fix.log"; echo "wheel test: FAILED: fcmlint-fix-py did not fix the key"; exit 1; }
# Neither hook built anything with Swift: the environment holds the wheel's binary.
ls "$PRE_COMMIT_HOME"/repo*/py_env-*/bin/fcmlint >/dev/null 2>&1 || { echo "wheel test: FAILED: the hook did not install the wheel"; exit 1; }
echo "wheel test: pre-commit hooks fcmlint-py and fcmlint-fix-py (no Swift): ok"
