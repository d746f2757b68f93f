#!/usr/bin/env bash
# Tests .pre-commit-hooks.yaml with the real pre-commit framework: in a temporary git repository,
# `pre-commit try-repo` on this repository must fail on a bad payload and pass on a good one.
# Installs pre-commit from PyPI when it is missing; skips, saying why, only where it cannot.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"

if ! command -v pre-commit >/dev/null 2>&1; then
  python3 -m pip install --quiet --disable-pip-version-check pre-commit >/dev/null 2>&1 || true
fi
if ! command -v pre-commit >/dev/null 2>&1 && ! python3 -m pre_commit --version >/dev/null 2>&1; then
  echo "pre-commit test: SKIPPED (pre-commit could not be installed from PyPI)"
  exit 0
fi
precommit() { if command -v pre-commit >/dev/null 2>&1; then pre-commit "$@"; else python3 -m pre_commit "$@"; fi; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export PRE_COMMIT_HOME="$work/cache"
cd "$work"
git init -q project && cd project
git config user.email ci@example.invalid && git config user.name ci
printf '{"message": {"topic": "news", "notification": {"title": "Hi"}}}\n' > good.json
printf '{"message": {"topic": "news", "notification": {"title": "Hi",}}}\n' > bad.json
git add good.json bad.json

echo "pre-commit test: building the hook (swift build -c release inside pre-commit)..."
if precommit try-repo "$repo" fcmlint --files good.json > "$work/good.log" 2>&1; then
  echo "pre-commit test: good payload passes"
else
  cat "$work/good.log"; echo "pre-commit test: FAILED: the good payload did not pass"; exit 1
fi
if precommit try-repo "$repo" fcmlint --files bad.json > "$work/bad.log" 2>&1; then
  cat "$work/bad.log"; echo "pre-commit test: FAILED: the bad payload passed"; exit 1
fi
grep -q "json-syntax" "$work/bad.log" || { cat "$work/bad.log"; echo "pre-commit test: FAILED: no json-syntax diagnostic"; exit 1; }
echo "pre-commit test: bad payload fails with json-syntax: ok"
