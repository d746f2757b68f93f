import Foundation
import PackagePlugin

/// Writes one XCTest method per rule file (`rules/**/*.yml`) into the test target that uses this
/// plugin, so a single rule's examples run with `swift test --filter RuleExamples/test_<id>`.
@main
struct RuleExampleTests: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    let rulesDirectory = context.package.directoryURL.appending(path: "rules")
    var files: [URL] = []
    if let walker = FileManager.default.enumerator(at: rulesDirectory, includingPropertiesForKeys: nil) {
      for case let url as URL in walker where ["yml", "yaml"].contains(url.pathExtension) {
        files.append(url)
      }
    }
    files.sort { $0.path < $1.path }
    let output = context.pluginWorkDirectoryURL.appending(path: "RuleExamples.swift")
    return [
      .buildCommand(
        displayName: "Writing a test method for each of \(files.count) rule files",
        executable: try context.tool(named: "rule-example-tests").url,
        arguments: [output.path, context.package.directoryURL.path] + files.map(\.path),
        inputFiles: files,
        outputFiles: [output]
      )
    ]
  }
}
