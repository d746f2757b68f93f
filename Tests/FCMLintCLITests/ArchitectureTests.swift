import FCMLintTestSupport
import Foundation
import XCTest

/// docs/architecture.md says what the modules are and what each may import; Package.swift
/// declares it. These tests keep the two, and every module's imports, in agreement: on Linux a
/// module can import another it does not declare (anything built before it), so the build alone
/// does not refuse a layer crossing.
final class ArchitectureTests: XCTestCase {
  struct Target {
    var name: String
    var kind: String
    var dependencies: Set<String>
    var path: String
  }

  /// The targets of Package.swift, read from its text (each `.target(`, `.testTarget(` ...
  /// entry: its name, its `dependencies:` list and its folder).
  static func targets() throws -> [Target] {
    let text = try Repository.read("Package.swift")
    let entry = try NSRegularExpression(pattern: #"\n\s*\.(target|testTarget|executableTarget|systemLibrary|plugin)\("#)
    let matches = entry.matches(in: text, range: NSRange(text.startIndex..., in: text))
    var targets: [Target] = []
    for (index, match) in matches.enumerated() {
      let start = match.range.location
      let end = index + 1 < matches.count ? matches[index + 1].range.location : (text as NSString).length
      let chunk = (text as NSString).substring(with: NSRange(location: start, length: end - start))
      let kind = (text as NSString).substring(with: match.range(at: 1))
      guard let name = Self.first(#"name: "([^"]+)""#, in: chunk) else { continue }
      let list = Self.first(#"dependencies: \[([^\]]*)\]"#, in: chunk) ?? ""
      let dependencies = Set(Self.all(#""([^"]+)""#, in: list))
      let folder = kind == "testTarget" ? "Tests/\(name)" : kind == "plugin" ? "Plugins/\(name)" : "Sources/\(name)"
      targets.append(Target(name: name, kind: kind, dependencies: dependencies, path: Self.first(#"path: "([^"]+)""#, in: chunk) ?? folder))
    }
    return targets
  }

  static func first(_ pattern: String, in text: String) -> String? { all(pattern, in: text).first }

  static func all(_ pattern: String, in text: String) -> [String] {
    let regex = try! NSRegularExpression(pattern: pattern)
    return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { (text as NSString).substring(with: $0.range(at: 1)) }
  }

  /// Every module under Sources/ has its row in the module table, every row names one, and a
  /// row's "may import" column is what Package.swift declares.
  func testTheModuleTableIsPackageSwifts() throws {
    let targets = try Self.targets().filter { $0.path.hasPrefix("Sources/") }
    XCTAssertGreaterThan(targets.count, 10)
    let doc = try Repository.read("docs/architecture.md")
    let table = doc.components(separatedBy: "## The modules").dropFirst().first?.components(separatedBy: "\n\n").dropFirst().first ?? ""
    var rows: [String: String] = [:]
    for line in table.split(separator: "\n") where line.hasPrefix("| `") {
      let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count >= 4, let name = Self.first(#"^`([^`]+)`$"#, in: cells[1]) else { continue }
      rows[name] = cells[cells.count - 2]
    }
    XCTAssertEqual(Set(rows.keys), Set(targets.map(\.name)), "docs/architecture.md's module table against Package.swift's modules")
    for target in targets {
      guard let imports = rows[target.name], imports != "everything above" else { continue }
      // Module names, without remarks in parentheses ("FCMLintJSON (`JSONText`)").
      let plain = imports.replacingOccurrences(of: #"\([^)]*\)"#, with: "", options: .regularExpression)
      let named = Set(Self.all(#"([A-Za-z][A-Za-z0-9-]*)"#, in: plain))
      XCTAssertEqual(named, target.dependencies, "\(target.name): the table's 'may import' against Package.swift")
    }
  }

  /// No module, test target or test helper imports a module of fcmlint it does not declare.
  func testEveryImportIsADeclaredDependency() throws {
    let targets = try Self.targets()
    let names = Set(targets.map(\.name))
    let importLine = try NSRegularExpression(pattern: #"^(?:@testable )?import ([A-Za-z_]+)"#, options: .anchorsMatchLines)
    var crossings: [String] = []
    for target in targets where target.kind != "plugin" {
      let folder = URL(fileURLWithPath: Repository.path(target.path))
      guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { continue }
      for case let url as URL in walker where url.pathExtension == "swift" {
        let text = try String(contentsOf: url, encoding: .utf8)
        for match in importLine.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
          let module = (text as NSString).substring(with: match.range(at: 1))
          if names.contains(module), module != target.name, !target.dependencies.contains(module) {
            crossings.append("\(target.path)/\(url.lastPathComponent) imports \(module), which \(target.name) does not declare")
          }
        }
      }
    }
    XCTAssertEqual(crossings, [])
  }
}
