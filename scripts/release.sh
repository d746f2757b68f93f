#!/usr/bin/env bash
# Builds what a release publishes, into dist/: the stripped static binary
# (fcmlint-VERSION-linux-x86_64), the wheel, the stripped static fcmlint-url-check
# (fcmlint-url-check-VERSION-linux-x86_64, the program --check-urls runs, which the GitHub Action
# downloads; FCMLINT_RELEASE_URL_CHECK=0 leaves it out, as CI does to spare a release build of its
# package), SHA256SUMS, and TAG (the tag's name, vVERSION).
# scripts/test-release.sh installs them offline. See docs/releasing.md.
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
if [ "${FCMLINT_RELEASE_URL_CHECK:-1}" != 0 ]; then
  swift build -c release --package-path URLCheck 2>&1 | tail -n 1
  cp "$(swift build -c release --package-path URLCheck --show-bin-path)/fcmlint-url-check" "dist/fcmlint-url-check-$version-linux-x86_64"
  strip "dist/fcmlint-url-check-$version-linux-x86_64"
fi
# The tag this release is published under (docs/releasing.md, step 4).
echo "v$version" > dist/TAG
(cd dist && sha256sum -- fcmlint-* > SHA256SUMS)
ls -l dist
