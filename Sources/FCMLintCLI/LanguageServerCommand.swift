import FCMLintLanguageServer

/// `fcmlint lsp`.
struct LanguageServerSettings {
  static let usage = "fcmlint lsp"
  static let abstract = "Run the language server (LSP over standard input and output) for editors."
  static let options: [CLIOption<LanguageServerSettings>] = [
    // Editors' clients often pass it; it is the only transport.
    .flag("--stdio", "Speak LSP over standard input and output (the default and only transport).") { _ in }
  ]

  init(arguments: ArraySlice<String>) throws(UsageError) {
    try ArgumentReader.read(arguments, options: Self.options, into: &self) { _, word throws(UsageError) in
      throw UsageError("'lsp' takes no arguments, not '\(word)'")
    }
  }

  func run() throws {
    let status = LanguageServer(version: FCMLintCommand.version).run()
    if status != 0 { throw StatusError(status: .problems) }
  }
}
