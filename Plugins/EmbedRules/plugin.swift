import Foundation
import PackagePlugin

/// Embeds `rules/**/*.yml` into the target that uses this plugin (see embed-rules).
@main
struct EmbedRules: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    let rulesDirectory = context.package.directoryURL.appending(path: "rules")
    var files: [URL] = []
    if let walker = FileManager.default.enumerator(at: rulesDirectory, includingPropertiesForKeys: nil) {
      for case let url as URL in walker where ["yml", "yaml", "json"].contains(url.pathExtension) {
        files.append(url)
      }
    }
    files.sort { $0.path < $1.path }
    let output = context.pluginWorkDirectoryURL.appending(path: "BuiltinRules.swift")
    return [
      .buildCommand(
        displayName: "Embedding \(files.count) rule files",
        executable: try context.tool(named: "embed-rules").url,
        arguments: [output.path, rulesDirectory.path] + files.map(\.path),
        inputFiles: files,
        outputFiles: [output]
      )
    ]
  }
}
