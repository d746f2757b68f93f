// swift-tools-version:6.0
import PackageDescription

// `fcmlint-url-check`, the program `fcmlint --check-urls` runs beside fcmlint to fetch image
// URLs: a package of its own, because it is the one part of fcmlint with package dependencies
// (async-http-client, SwiftNIO, swift-nio-ssl and BoringSSL). fcmlint's own package stays without
// any, so building, testing and sanitizing fcmlint never compiles them, and linking the client
// into fcmlint slowed every run, with or without the flag (docs/architecture.md). The two
// programs speak through a pipe (URLs in, answers out); they share no code.
//
//   swift build -c release --package-path URLCheck     # .build/release/fcmlint-url-check

#if compiler(>=6.3) && compiler(<6.4)
// The same static release build as fcmlint's (see its Package.swift), plus the two helper
// libraries of FoundationEssentials, which async-http-client imports and which SwiftPM names
// only with --static-swift-stdlib.
let staticReleaseBinary: [LinkerSetting] = [
  .unsafeFlags(
    ["-static-stdlib", "-static-executable", "-lswiftSynchronization", "-l_FoundationCollections", "-l_FoundationCShims"],
    .when(platforms: [.linux], configuration: .release))
]
#else
let staticReleaseBinary: [LinkerSetting] = []
#endif

let package = Package(
  name: "fcmlint-url-check",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "fcmlint-url-check", targets: ["fcmlint-url-check"])
  ],
  dependencies: [
    .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.100.0"),
    .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.30.0"),
  ],
  targets: [
    // Fetches image URLs and judges the answers; the only network I/O of fcmlint.
    .target(
      name: "FCMLintURLCheck",
      dependencies: [
        .product(name: "AsyncHTTPClient", package: "async-http-client"), .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
      ]),
    .executableTarget(name: "fcmlint-url-check", dependencies: ["FCMLintURLCheck"], linkerSettings: staticReleaseBinary),
  ]
)
