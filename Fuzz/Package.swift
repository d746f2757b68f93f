// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for fcmlint (run them with scripts/fuzz.sh; see docs/fuzzing.md).
//
// scripts/fuzz.sh builds them with the sanitizer flags on every module, so the code under test
// carries the coverage instrumentation libFuzzer steers by, and links libFuzzer's driver without
// its main (each target's main.swift calls LLVMFuzzerRunDriver):
//   swift build --package-path Fuzz -c release --product fuzz-json \
//     -Xswiftc -sanitize=address -Xswiftc -Xfrontend -Xswiftc -sanitize=fuzzer \
//     -Xcc -fsanitize=fuzzer-no-link,address \
//     -Xlinker "$(clang -print-runtime-dir)/libclang_rt.fuzzer_no_main-x86_64.a" -Xlinker -lstdc++
let package = Package(
  name: "fcmlint-fuzz",
  platforms: [.macOS(.v13)],
  dependencies: [.package(name: "fcmlint", path: "..")],
  targets: [
    .target(name: "CLibFuzzer"),
    .target(name: "FuzzSupport", dependencies: ["CLibFuzzer", .product(name: "FCMLint", package: "fcmlint")]),
    .executableTarget(name: "fuzz-json", dependencies: ["FuzzSupport"]),
    .executableTarget(name: "fuzz-lint", dependencies: ["FuzzSupport"]),
    .executableTarget(name: "fuzz-rules", dependencies: ["FuzzSupport"]),
    .executableTarget(name: "fuzz-fix", dependencies: ["FuzzSupport"]),
    .executableTarget(name: "fuzz-fixer", dependencies: ["FuzzSupport"]),
    .executableTarget(name: "fuzz-docs", dependencies: ["FuzzSupport"]),
    .executableTarget(name: "fuzz-pages", dependencies: ["FuzzSupport"]),
    .executableTarget(
      name: "fuzz-server", dependencies: ["FuzzSupport", .product(name: "FCMLintLanguageServer", package: "fcmlint")]),
  ]
)
