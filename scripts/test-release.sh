#!/usr/bin/env bash
# What scripts/release.sh makes, installed offline as a user would: the checksums hold, the
# binary runs, the wheel installs into a fresh virtual environment with no package index, and a
# fresh repository's pre-commit runs the hook that uses the fcmlint on PATH (the release binary)
# with no Swift on the PATH. Run after scripts/release.sh (dist/ in the repository).
#   scripts/test-release.sh
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"
version="$(sed -nE 's/.*public static let version = "([^"]+)".*/\1/p' Sources/FCMLintCLI/FCMLintCommand.swift)"
binary="dist/fcmlint-$version-linux-x86_64"
[ -x "$binary" ] || { echo "release test: FAILED: no $binary (run scripts/release.sh first)"; exit 1; }
[ "$(cat dist/TAG)" = "v$version" ] || { echo "release test: FAILED: dist/TAG is not v$version"; exit 1; }
(cd dist && sha256sum --quiet -c SHA256SUMS) || { echo "release test: FAILED: SHA256SUMS does not hold"; exit 1; }
[ "$("$binary" --version)" = "$version" ] || { echo "release test: FAILED: the binary is not $version"; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin"
cp "$binary" "$work/bin/fcmlint"
python3 -m venv "$work/venv"
PIP_NO_INDEX=1 "$work/venv/bin/pip" install --quiet --disable-pip-version-check dist/fcmlint-"$version"-*.whl
[ "$("$work/venv/bin/fcmlint" --version)" = "$version" ] || { echo "release test: FAILED: the wheel's fcmlint is not $version"; exit 1; }
[ "$("$work/venv/bin/python" -m fcmlint --version)" = "$version" ] || { echo "release test: FAILED: python -m fcmlint is not $version"; exit 1; }
echo "release test: checksums, the binary and the wheel (installed offline): ok"
checker="dist/fcmlint-url-check-$version-linux-x86_64"
if [ -x "$checker" ]; then
  # Beside fcmlint, where --check-urls looks when FCMLINT_URL_CHECK names none (the image's port on
  # 127.0.0.1 is closed).
  cp "$checker" "$work/bin/fcmlint-url-check"
  printf '{"message": {"topic": "news", "notification": {"title": "Hi", "image": "https://127.0.0.1:9/a.png"}}}\n' > "$work/image.json"
  found="$(env -u FCMLINT_URL_CHECK "$work/bin/fcmlint" --check-urls --url-timeout 5 "$work/image.json" 2>&1 || true)"
  grep -q "image-url-unreachable" <<<"$found" || { echo "$found"; echo "release test: FAILED: fcmlint-url-check beside fcmlint did not check the URL"; exit 1; }
  echo "release test: fcmlint-url-check beside the release binary: ok"
else
  echo "release test: fcmlint-url-check not built (FCMLINT_RELEASE_URL_CHECK=0)"
fi

if ! command -v pre-commit >/dev/null 2>&1; then
  python3 -m pip install --quiet --disable-pip-version-check pre-commit >/dev/null 2>&1 || true
fi
command -v pre-commit >/dev/null 2>&1 || { echo "release test: pre-commit part SKIPPED (pre-commit could not be installed from PyPI)"; exit 0; }
precommit="$(command -v pre-commit)"
export PRE_COMMIT_HOME="$work/cache"
cd "$work" && git init -q project && cd project
git config user.email ci@example.invalid && git config user.name ci
printf '{"message": {"topic": "news", "notification": {"title": "Hi"}}}\n' > good.json
printf '{"message": {"topic": "news", "data": {"count": 3}}}\n' > bad.json
cat > .pre-commit-config.yaml <<YAML
repos:
  - repo: $repo
    rev: $(git -C "$repo" rev-parse HEAD)
    hooks:
      - id: fcmlint-system
YAML
git add -A
# The release binary on PATH, no Swift.
nopath="$(tr ':' '\n' <<<"$PATH" | grep -v swift | paste -sd: -)"
PATH="$work/bin:$nopath" "$precommit" run --files good.json > "$work/good.log" 2>&1 || { cat "$work/good.log"; echo "release test: FAILED: fcmlint-system failed a good payload"; exit 1; }
if PATH="$work/bin:$nopath" "$precommit" run --files bad.json > "$work/bad.log" 2>&1; then
  cat "$work/bad.log"; echo "release test: FAILED: fcmlint-system passed a bad payload"; exit 1
fi
grep -q "data-string-values" "$work/bad.log" || { cat "$work/bad.log"; echo "release test: FAILED: no data-string-values from fcmlint-system"; exit 1; }
echo "release test: a fresh repository's pre-commit with fcmlint-system and the release binary on PATH: ok"
