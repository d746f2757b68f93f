// swift-tools-version:6.0
import PackageDescription

// A release build on Linux links one static executable: nothing for the dynamic loader to find,
// map and relocate at every start, and the binary runs on machines without a Swift toolchain or
// libyaml. A pre-commit hook builds with plain `swift build -c release` and pays the start-up on
// every commit. `-static-executable` alone leaves out a library the static standard library
// needs (SwiftPM adds it only with --static-swift-stdlib, which pre-commit cannot pass), so it is
// named here; that name is Swift 6.3's, so other compilers get the ordinary dynamic build. No
// module imports Foundation, so neither Foundation nor ICU is linked (sizes and start-up times in
// docs/performance.md).
// SwiftPM refuses unsafe flags in a package another one depends on by version, so built as a
// dependency (checked out under a `checkouts` folder, as SwiftPM and Xcode do) the package sets
// none: a server that links the FCMLint library gets the ordinary build.
let builtAsDependency = Context.packageDirectory.split(separator: "/").contains("checkouts")

// The code a start runs, laid out together: each function in a section of its own
// (`-function-sections`, in releaseSwiftSettings) and the linker (gold, which Swift 6.3 links
// with on Linux) told their order in Sources/fcmlint/start.order (written by
// scripts/start-order.py), so a one-file run touches fewer pages of the binary.
#if compiler(>=6.3) && compiler(<6.4)
let staticReleaseBinary: [LinkerSetting] = builtAsDependency ? [] : [
  .unsafeFlags(
    [
      "-static-stdlib", "-static-executable", "-lswiftSynchronization",
      "-Xlinker", "--section-ordering-file=\(Context.packageDirectory)/Sources/fcmlint/start.order",
    ],
    .when(platforms: [.linux], configuration: .release))
]
#else
let staticReleaseBinary: [LinkerSetting] = []
#endif

// By default the compiler makes the metadata of a generic type such as `[String: JSONPath]` at
// run time from its mangled name, which checks the generic requirements (`String: Hashable`) by
// looking the conformance up: the first lookup of each pair scans every conformance record of the
// binary. With direct metadata accessors the compiler passes the conformances it already knows,
// which saves a measurable part of a one-file run (docs/performance.md). And each function in a
// section of its own, for the start's order (above). Frontend flags, so pinned to the compiler
// the static build is pinned to.
#if compiler(>=6.3) && compiler(<6.4)
let releaseSwiftSettings: [SwiftSetting] = builtAsDependency ? [] : [
  .unsafeFlags(
    ["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors", "-Xfrontend", "-function-sections"],
    .when(platforms: [.linux], configuration: .release))
]
#else
let releaseSwiftSettings: [SwiftSetting] = []
#endif

// The pipeline, one module per stage, each knowing only the stages to its left:
// bytes → FCMLintJSON (tree with positions) → FCMLintEngine (YAML rules, paths, functions →
// diagnostics; no file system) → FCMLintFormatters / FCMLintFixes → FCMLintDocs (samples in
// documentation, linted and fixed in place) → FCMLintWorkspace (files,
// folders, config discovery, globs, limits, safe writes) → FCMLintCLI → fcmlint.
// Each module has its own test target, which depends only on it and the modules to its left, so
// the build refuses a test (or a module) that reaches across the layers.
let package = Package(
  name: "fcmlint",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "fcmlint", targets: ["fcmlint"]),
    // The pipeline as a library, built-in rules included, for a server that lints the messages it
    // sends in process (docs/usage.md: "In process: the FCMLint library").
    .library(
      name: "FCMLint",
      targets: [
        "LinearRegex", "FCMLintJSON", "FCMLintEngine", "FCMLintFormatters", "FCMLintFixes", "FCMLintDocs", "FCMLintSystem",
        "FCMLintWorkspace", "FCMLintBuiltinRules",
      ]),
    // `fcmlint lsp` in process, for a host that serves editors itself (and the server's fuzz target).
    .library(name: "FCMLintLanguageServer", targets: ["FCMLintLanguageServer"]),
  ],
  // No package dependencies: YAML comes from the system libyaml, and the command line is read
  // from fcmlint's own option tables (Sources/FCMLintCLI/Arguments.swift). `--check-urls` runs
  // fcmlint-url-check, a program of its own package (URLCheck/), the one with dependencies.
  targets: [
    // The system libyaml, for rule and config files (`apt-get install libyaml-dev`, `brew install
    // libyaml`; see the README). The static release build links its libyaml.a.
    .systemLibrary(name: "CLibYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]),
    .systemLibrary(name: "CSystemHeaders", path: "Sources/CSystemHeaders"),
    // The system calls (reads and writes retried on EINTR, stat, directory listings, the safe
    // writer's temporary file, fsync, rename, extended attributes, CPU affinity): the one module
    // with pointer code for I/O, depending on the C library alone.
    .target(name: "FCMLintSystem", dependencies: ["CSystemHeaders"], swiftSettings: releaseSwiftSettings),
    // Regular expressions matched in linear time, for rule patterns: no dependency at all.
    .target(name: "LinearRegex", swiftSettings: releaseSwiftSettings),
    .target(name: "FCMLintJSON", swiftSettings: releaseSwiftSettings),
    .target(
      name: "FCMLintEngine",
      dependencies: ["FCMLintJSON", "LinearRegex", "CLibYAML"],
      swiftSettings: releaseSwiftSettings
    ),
    .target(name: "FCMLintFormatters", dependencies: ["FCMLintJSON", "FCMLintEngine", "FCMLintSystem"], swiftSettings: releaseSwiftSettings),
    .target(name: "FCMLintFixes", dependencies: ["FCMLintJSON", "FCMLintEngine"], swiftSettings: releaseSwiftSettings),
    // Everything that touches the file system: reading and walking files, the config file and
    // its discovery, ignore globs, limits, user rule folders, safe writes.
    // Samples inside documentation (Markdown, HTML, plain text, Node.js literals), linted as files.
    .target(name: "FCMLintDocs", dependencies: ["FCMLintJSON", "FCMLintEngine", "FCMLintFixes"], swiftSettings: releaseSwiftSettings),
    .target(
      name: "FCMLintWorkspace", dependencies: ["FCMLintJSON", "FCMLintEngine", "FCMLintFixes", "FCMLintDocs", "FCMLintSystem"],
      swiftSettings: releaseSwiftSettings),
    // The built-in rule pack: rules/**/*.yml embedded at build time, so the executable needs no
    // files beside it.
    .target(name: "FCMLintBuiltinRules", dependencies: ["FCMLintEngine"], swiftSettings: releaseSwiftSettings, plugins: ["EmbedRules"]),
    // Loads each rule file completely and embeds the pack compiled (CompiledPack), the
    // documentation apart: a broken built-in rule fails the build with its line and column, and
    // starting fcmlint parses and compiles no rule text.
    .executableTarget(name: "embed-rules", dependencies: ["FCMLintJSON", "FCMLintEngine", "FCMLintSystem", "FCMLintWorkspace"]),
    .plugin(name: "EmbedRules", capability: .buildTool(), dependencies: ["embed-rules"]),
    // `fcmlint lsp`: the Language Server Protocol front end, beside the CLI; it turns LSP into
    // calls of the workspace's pipeline.
    .target(
      name: "FCMLintLanguageServer",
      dependencies: ["FCMLintJSON", "FCMLintEngine", "FCMLintFixes", "FCMLintDocs", "FCMLintSystem", "FCMLintWorkspace", "FCMLintBuiltinRules"],
      swiftSettings: releaseSwiftSettings
    ),
    // The CLI as a library, so tests drive it in-process; the executable only calls it.
    .target(
      name: "FCMLintCLI",
      dependencies: [
        "FCMLintJSON", "FCMLintEngine", "FCMLintFormatters", "FCMLintFixes", "FCMLintDocs", "FCMLintSystem", "FCMLintWorkspace",
        "FCMLintBuiltinRules", "FCMLintLanguageServer",
      ],
      swiftSettings: releaseSwiftSettings
    ),
    .executableTarget(
      name: "fcmlint", dependencies: ["FCMLintCLI"], exclude: ["start.order"], swiftSettings: releaseSwiftSettings,
      linkerSettings: staticReleaseBinary),
    // Test helpers: repository paths and a seeded generator (no module of fcmlint), and the
    // built-in pack and the corpus documents for the test targets from the engine up.
    .target(name: "FCMLintTestSupport", path: "Tests/Support"),
    .target(
      name: "FCMLintRuleTestSupport", dependencies: ["FCMLintTestSupport", "FCMLintJSON", "FCMLintEngine", "FCMLintBuiltinRules"],
      path: "Tests/RuleSupport"),
    .testTarget(name: "LinearRegexTests", dependencies: ["LinearRegex", "FCMLintTestSupport"]),
    .testTarget(name: "FCMLintJSONTests", dependencies: ["FCMLintJSON", "FCMLintTestSupport"]),
    .testTarget(
      name: "FCMLintEngineTests",
      dependencies: ["FCMLintJSON", "LinearRegex", "FCMLintEngine", "FCMLintBuiltinRules", "FCMLintTestSupport", "FCMLintRuleTestSupport"]),
    .testTarget(
      name: "FCMLintFormattersTests",
      dependencies: ["FCMLintJSON", "FCMLintEngine", "FCMLintFormatters", "FCMLintTestSupport", "FCMLintRuleTestSupport"]),
    // One test method per rule file, generated (see RuleExampleTests), so `--filter` picks a rule.
    .testTarget(
      name: "FCMLintFixesTests",
      dependencies: ["FCMLintJSON", "FCMLintEngine", "FCMLintFixes", "FCMLintTestSupport", "FCMLintRuleTestSupport"],
      plugins: ["RuleExampleTests"]),
    .plugin(name: "RuleExampleTests", capability: .buildTool(), dependencies: ["rule-example-tests"]),
    .executableTarget(name: "rule-example-tests", dependencies: ["FCMLintWorkspace"], path: "Tests/RuleExampleGenerator"),
    .testTarget(
      name: "FCMLintDocsTests",
      dependencies: ["FCMLintJSON", "FCMLintEngine", "FCMLintFixes", "FCMLintDocs", "FCMLintBuiltinRules", "FCMLintTestSupport", "FCMLintRuleTestSupport"]),
    .testTarget(
      name: "FCMLintWorkspaceTests",
      dependencies: [
        "FCMLintJSON", "FCMLintEngine", "FCMLintFixes", "FCMLintSystem", "FCMLintWorkspace", "FCMLintBuiltinRules", "FCMLintTestSupport",
        "FCMLintRuleTestSupport",
      ]),
    .testTarget(
      name: "FCMLintCLITests",
      dependencies: [
        "FCMLintJSON", "FCMLintEngine", "FCMLintFormatters", "FCMLintFixes", "FCMLintSystem", "FCMLintWorkspace", "FCMLintBuiltinRules",
        "FCMLintCLI", "FCMLintLanguageServer", "fcmlint", "FCMLintTestSupport", "FCMLintRuleTestSupport", "CSystemHeaders",
      ]),
  ]
)
