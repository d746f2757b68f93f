// swift-tools-version:6.0
import PackageDescription

// The pipeline, one module per stage, each knowing only the stages to its left:
// bytes → FCMLintJSON (tree with positions) → FCMLintEngine (YAML rules, paths, functions,
// config → diagnostics) → FCMLintFormatters → fcmlint (CLI).
let package = Package(
  name: "fcmlint",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "fcmlint", targets: ["fcmlint"]),
    .library(name: "FCMLint", targets: ["FCMLintJSON", "FCMLintEngine", "FCMLintFormatters", "FCMLintFixes"]),
  ],
  dependencies: [
    .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
  ],
  targets: [
    .target(name: "FCMLintJSON"),
    .target(
      name: "FCMLintEngine",
      dependencies: ["FCMLintJSON", .product(name: "Yams", package: "Yams")]
    ),
    .target(name: "FCMLintFormatters", dependencies: ["FCMLintEngine"]),
    .target(name: "FCMLintFixes", dependencies: ["FCMLintJSON", "FCMLintEngine"]),
    // The built-in rule pack: rules/**/*.yml embedded at build time, so the executable needs no
    // files beside it.
    .target(name: "FCMLintBuiltinRules", plugins: ["EmbedRules"]),
    // Checks each rule file completely and embeds its JSON form: a broken built-in rule fails the
    // build with its line and column, and starting fcmlint parses no YAML.
    .executableTarget(name: "embed-rules", dependencies: ["FCMLintEngine"]),
    .plugin(name: "EmbedRules", capability: .buildTool(), dependencies: ["embed-rules"]),
    // The CLI as a library, so tests drive it in-process; the executable only calls it.
    .target(
      name: "FCMLintCLI",
      dependencies: [
        "FCMLintJSON", "FCMLintEngine", "FCMLintFormatters", "FCMLintFixes", "FCMLintBuiltinRules",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .executableTarget(name: "fcmlint", dependencies: ["FCMLintCLI"]),
    .testTarget(
      name: "FCMLintTests",
      dependencies: [
        "FCMLintJSON", "FCMLintEngine", "FCMLintFormatters", "FCMLintFixes", "FCMLintBuiltinRules", "FCMLintCLI", "fcmlint",
      ],
      exclude: ["Fixtures"]
    ),
  ]
)
