// swift-tools-version:6.1
import PackageDescription

// fcmlint's benchmarks, in a package of their own so `swift build` and `swift test` of fcmlint never
// build them (nor fetch ordo-one/benchmark). Run from this folder:
//
//   swift package benchmark                      # all groups (takes a few minutes)
//   swift package benchmark --filter 'Parse.*'   # one group
//
// ordo-one/benchmark needs swift-tools-version 6.1 and the MallocInterposer trait named on its
// package line for the malloc metrics (allocations per message) on Swift 6.3.
let package = Package(
  name: "FCMLintBenchmarks",
  platforms: [.macOS(.v13)],
  dependencies: [
    .package(name: "fcmlint", path: ".."),
    .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
  ],
  targets: [
    .executableTarget(
      name: "FCMLintBenchmarks",
      dependencies: [
        .product(name: "FCMLint", package: "fcmlint"),
        .product(name: "Benchmark", package: "benchmark"),
      ],
      path: "Benchmarks/FCMLintBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
  ]
)
