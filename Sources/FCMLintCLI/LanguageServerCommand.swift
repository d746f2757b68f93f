import FCMLintLanguageServer

/// `fcmlint lsp`.
struct LanguageServerSettings {
  static let usage = "fcmlint lsp"
  static let abstract = "Run the language server (LSP over standard input and output) for editors."
  static let options: [CLIOption<LanguageServerSettings>] = [
    // Editors' clients often pass it; it is the only transport.
    .flag("--stdio", "Speak LSP over standard input and output (the default and only transport).") { $0.stdioNamed = true }
  ]

  /// Whether `--stdio` was given. Kept (though standard input is the only transport) so the
  /// settings are never an empty struct: an `inout` of a zero-sized type has no real address, and
  /// ThreadSanitizer's instrumented write through it crashed `fcmlint lsp --stdio`.
  var stdioNamed = false

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
