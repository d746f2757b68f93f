import Foundation

/// Paths inside this repository, found from this file, so tests run from any working directory.
/// Reads with Foundation: tests below the workspace layer must not need fcmlint's file access.
public enum Repository {
  public static let root: String = {
    var path = #filePath
    for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }  // Tests/Support/x.swift
    return path
  }()

  public static func path(_ relative: String) -> String { root + "/" + relative }

  public static func read(_ relative: String) throws -> String {
    try String(contentsOfFile: path(relative), encoding: .utf8)
  }

  /// The bytes of a file given by its full path.
  public static func bytes(atPath path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  /// Full paths of the files below `relative` whose names end in one of `suffixes`, sorted by
  /// their bytes.
  public static func files(under relative: String, suffixes: [String]) -> [String] {
    let base = path(relative)
    let names = FileManager.default.enumerator(atPath: base)?.compactMap { $0 as? String } ?? []
    return names.filter { name in suffixes.contains { name.hasSuffix($0) } }
      .map { base + "/" + $0 }
      .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
  }

  /// Whether golden files should be rewritten instead of compared (`FCMLINT_UPDATE_GOLDEN=1 swift test`).
  public static var updatingGoldens: Bool { ProcessInfo.processInfo.environment["FCMLINT_UPDATE_GOLDEN"] == "1" }

  public static func write(_ relative: String, _ text: String) throws {
    try text.write(toFile: path(relative), atomically: true, encoding: .utf8)
  }
}
