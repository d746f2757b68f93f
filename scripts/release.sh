#!/usr/bin/env bash
# Builds what a release publishes, into dist/: the stripped static binary
# (fcmlint-VERSION-linux-x86_64), the wheel, and SHA256SUMS. See docs/releasing.md.
set -euo pipefail
cd "$(dirname "$0")/.."
version="$(sed -nE 's/.*public static let version = "([^"]+)".*/\1/p' Sources/FCMLintCLI/FCMLintCommand.swift)"
grep -q "^## $version" CHANGELOG.md || { echo "release: CHANGELOG.md has no '## $version' section" >&2; exit 1; }
swift build -c release 2>&1 | tail -n 1
bin="$(swift build -c release --show-bin-path)/fcmlint"
[ "$("$bin" --version)" = "$version" ] || { echo "release: the built fcmlint is not $version" >&2; exit 1; }
rm -rf dist && mkdir -p dist
cp "$bin" "dist/fcmlint-$version-linux-x86_64"
strip "dist/fcmlint-$version-linux-x86_64"
python3 scripts/build-wheel.py --binary "$bin" --out dist
(cd dist && sha256sum -- * > SHA256SUMS)
ls -l dist
