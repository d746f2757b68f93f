#!/usr/bin/env bash
# Builds a small Swift package that depends on fcmlint the way another team's server would: by
# git URL and version tag (a clone of this repository, tagged with the version in
# Sources/FCMLintCLI/FCMLintCommand.swift, in a temporary folder). SwiftPM refuses unsafe build
# flags in such a dependency, so this is the check that the FCMLint library stays usable. The
# consumer lints a message in process through the public API and prints the diagnostics.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
version="$(sed -nE 's/.*public static let version = "([^"]+)".*/\1/p' Sources/FCMLintCLI/FCMLintCommand.swift)"

# The dependency: this repository's committed state and the working tree's changes, tagged.
git clone -q "$repo" "$tmp/fcmlint"
(cd "$repo" && git diff HEAD --binary) | (cd "$tmp/fcmlint" && git apply --allow-empty 2>/dev/null || true)
(cd "$repo" && git ls-files --others --exclude-standard -z) | (cd "$repo" && xargs -0 -r cp --parents -t "$tmp/fcmlint")
(cd "$tmp/fcmlint" && git add -A && git -c user.name=ci -c user.email=ci@localhost commit -qm "working tree" --allow-empty && git tag "$version")

mkdir -p "$tmp/consumer/Sources/consumer"
cat > "$tmp/consumer/Package.swift" <<SWIFT
// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "consumer",
  dependencies: [.package(url: "file://$tmp/fcmlint", from: "$version")],
  targets: [.executableTarget(name: "consumer", dependencies: [.product(name: "FCMLint", package: "fcmlint")])]
)
SWIFT
cat > "$tmp/consumer/Sources/consumer/main.swift" <<'SWIFT'
import FCMLintBuiltinRules
import FCMLintEngine

// The example of docs/usage.md: lint a message before sending it.
let linter = Linter(rules: try BuiltinPack.load())
let message = #"{"message": {"topic": "news", "notification": {"image": "https://example.com/a.png"}, "data": {"count": 3}}}"#
for d in linter.lint(bytes: Array(message.utf8), file: "welcome.json") {
  print("\(d.severity) \(d.rule) at \(d.pointer): \(d.message)")
}
SWIFT
(cd "$tmp/consumer" && swift build 2>&1 | tail -n 2)
output="$(cd "$tmp/consumer" && swift run -q consumer)"
echo "$output"
grep -q "error data-string-values at /message/data/count" <<<"$output"

echo "consumer package (FCMLint $version by git tag): ok"
