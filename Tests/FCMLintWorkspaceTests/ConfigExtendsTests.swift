import FCMLintEngine
@testable import FCMLintWorkspace
import Foundation
import XCTest

/// `extends:` reads each config file once per load, however often it is extended, and keeps its
/// checks (loops, depth, missing files) and what a config inherits.
final class ConfigExtendsTests: XCTestCase {
  var root = ""

  override func setUpWithError() throws {
    root = FileManager.default.temporaryDirectory.appendingPathComponent("fcmlint-extends-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(atPath: root)
  }

  func write(_ name: String, _ text: String) throws {
    try text.write(toFile: root + "/" + name, atomically: true, encoding: .utf8)
  }

  /// Loads `name`, counting the files read.
  func load(_ name: String) throws -> (config: Config, reads: [String: Int]) {
    var reads: [String: Int] = [:]
    let config = try Config.load(file: root + "/" + name) { path in
      reads[path, default: 0] += 1
      return FileSystem.read(path, limit: 1 << 20)
    }
    return (config, reads)
  }

  func loadError(_ name: String) -> String {
    do {
      _ = try load(name)
      return "loaded"
    } catch {
      return "\(error)".replacingOccurrences(of: root + "/", with: "")
    }
  }

  /// Each level's two files extend both files of the next level, down to `end.yml`; every file
  /// suppresses a finding of its own. Returns the number of files.
  func writeDiamond(levels: Int) throws -> Int {
    func suppression(_ name: String) -> String { "suppress:\n  - {rule: topic-name, reason: \(name)}\n" }
    func next(_ level: Int) -> String { level == levels ? "[end.yml]" : "[a\(level).yml, b\(level).yml]" }
    try write(".fcmlint.yml", "extends: \(next(0))\n" + suppression("top"))
    for level in 0..<levels {
      for side in ["a", "b"] { try write("\(side)\(level).yml", "extends: \(next(level + 1))\n" + suppression("\(side)\(level)")) }
    }
    try write("end.yml", suppression("end"))
    return 2 * levels + 2
  }

  /// A diamond read every file 2^levels times before (22 levels took over 30 s).
  func testADiamondReadsEachFileOnce() throws {
    for levels in [10, 20] {
      let files = try writeDiamond(levels: levels)
      let (config, reads) = try load(".fcmlint.yml")
      XCTAssertEqual(reads.count, files)
      XCTAssertEqual(reads.values.max(), 1, "\(levels) levels")
      // What a file contributes to a list is there once, however often it is extended.
      XCTAssertEqual(config.suppressions.count, files)
      XCTAssertEqual(Set(config.suppressions.map(\.reason)).count, files)
    }
  }

  /// A file reached twice counts at its last place in the depth-first order, which is what
  /// reading it again each time gave: a value it sets wins over what the files before that place
  /// set.
  func testAFileReachedTwiceCountsAtItsLastPlace() throws {
    try write(".fcmlint.yml", "extends: [b.yml, c.yml]\n")
    try write("b.yml", "extends: d.yml\nfragment: false\nrules: {topic-name: warning}\noverrides: [{files: x.json, input: apns}]\n")
    try write("c.yml", "extends: d.yml\n")
    try write("d.yml", "fragment: true\nrules: {topic-name: info, image-extension: off}\noverrides: [{files: x.json, input: aps}]\nextend-placeholders: ['%d%']\n")
    let (config, reads) = try load(".fcmlint.yml")
    XCTAssertEqual(reads.values.max(), 1)
    XCTAssertTrue(config.fragment)
    XCTAssertEqual(config.severities, ["topic-name": .info, "image-extension": Severity?.none])
    XCTAssertEqual(config.overrides.map(\.input), [.apns, .aps])
    XCTAssertEqual(config.settings(for: root + "/x.json").input, .aps)
    XCTAssertEqual(config.placeholders.patterns, PlaceholderSyntax.defaultPatterns + ["%d%"])
  }

  func testLoopsDepthAndMissingFilesAreReportedWhereTheExtendsIsWritten() throws {
    try write(".fcmlint.yml", "extends: [a.yml]\n")
    try write("a.yml", "rules: {}\nextends: [b.yml, a.yml]\n")
    try write("b.yml", "rules: {}\n")
    XCTAssertEqual(loadError(".fcmlint.yml"), "a.yml:2:18: 'a.yml' extends itself (through 2 configs)")
    try write("a.yml", "extends: [b.yml, missing.yml]\n")
    XCTAssertEqual(loadError(".fcmlint.yml"), "a.yml:1:18: cannot extend 'missing.yml': no such file")
    // A chain one config longer than the limit.
    for index in 0..<Config.maxExtendsDepth { try write("c\(index).yml", "extends: c\(index + 1).yml\n") }
    try write("c\(Config.maxExtendsDepth).yml", "")
    XCTAssertEqual(loadError("c1.yml"), "loaded")
    XCTAssertEqual(loadError("c0.yml"), "c31.yml:1:10: extends is nested more than 32 deep")
  }

  /// A file read once through a short chain is still too deep when a long chain reaches it
  /// again, and the error is the one the long chain gave when every path was read.
  func testAFileReachedAgainThroughALongerChainIsStillTooDeep() throws {
    // .fcmlint.yml -> short.yml -> n.yml -> m0 ... m9, and -> l0 ... l20 -> n.yml -> m0 ...: m8
    // is the 32nd config of the long chain, and extends one more.
    try write(".fcmlint.yml", "extends: [short.yml, l0.yml]\n")
    try write("short.yml", "extends: n.yml\n")
    try write("n.yml", "extends: [m0.yml]\n")
    for index in 0..<10 { try write("m\(index).yml", index == 9 ? "" : "rules: {}\nextends: [m\(index + 1).yml]\n") }
    for index in 0...20 { try write("l\(index).yml", "extends: \(index == 20 ? "n" : "l\(index + 1)").yml\n") }
    XCTAssertEqual(loadError(".fcmlint.yml"), "m8.yml:2:11: extends is nested more than 32 deep")
    // The first of m6's configs, m9, extends nothing: the second is too deep.
    try write("m6.yml", "extends: [m9.yml, m7.yml]\n")
    XCTAssertEqual(loadError(".fcmlint.yml"), "m8.yml:2:11: extends is nested more than 32 deep")
    // One config shorter, the long chain is deep enough.
    try write("l19.yml", "extends: n.yml\n")
    XCTAssertEqual(loadError(".fcmlint.yml"), "loaded")
  }
}
