@testable import FCMLintCLI
import FCMLintFormatters
import Foundation
import XCTest

/// Shell completion, run in the real shells: the script `fcmlint completion <shell>` prints is
/// loaded, and the words the shell offers on a line are compared with what the command table says.
/// A test whose shell is not installed skips, naming it (.ci/run installs fish and zsh).
extension CLITests {
  /// A folder to complete in: files with a blank and glob characters in their names, folders,
  /// and a folder of the user's own rules.
  func completionFolder() throws -> URL {
    let root = try temporaryDirectory()
    for name in ["my payload.json", "other.json", "[ab].json", "a.json"] { try write("{}", to: root.appendingPathComponent(name)) }
    try write("rules: {}\n", to: root.appendingPathComponent("sub/conf.yml"))
    try write(
      "id: my-rule\nseverity: warning\nsummary: Mine\ndescription: d\ndocs: https://example.com\ngiven: $.message\nthen: {field: '@.x', function: absent}\n",
      to: root.appendingPathComponent("myrules/my-rule.yml"))
    return root
  }

  /// The shell's full path, or a skip that names the missing shell.
  func shell(_ name: String) throws -> String {
    let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/bin", "/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"]
    for folder in folders where FileManager.default.isExecutableFile(atPath: folder + "/" + name) { return folder + "/" + name }
    throw XCTSkip("\(name) is not installed, so its completion is not tried (apt-get install -y \(name); .ci/run installs it)")
  }

  /// Runs `executable arguments` in `directory` with fcmlint first on PATH; its standard output.
  func runShell(_ executable: String, _ arguments: [String], in directory: URL, file: StaticString = #filePath, line: UInt = #line) throws -> String {
    let fcmlint = try XCTUnwrap(Self.executable, "no fcmlint executable next to the test bundle")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = directory
    var environment = ProcessInfo.processInfo.environment
    environment["PATH"] = fcmlint.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    environment["HOME"] = directory.path  // no user configuration of the shell
    process.environment = environment
    let output = Pipe(), errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // A shell that waits for a terminal would hang the suite: stop it after a while.
    let deadline = Date().addingTimeInterval(30)
    let out = DataBox(), err = DataBox()
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) { out.set(output.fileHandleForReading.readDataToEndOfFile()) }
    DispatchQueue.global().async(group: group) { err.set(errors.fileHandleForReading.readDataToEndOfFile()) }
    while process.isRunning, Date() < deadline { usleep(20_000) }
    if process.isRunning {
      process.terminate()
      XCTFail("\(executable) \(arguments) did not finish", file: file, line: line)
    }
    process.waitUntilExit()
    group.wait()
    let stderr = String(decoding: err.data, as: UTF8.self)
    XCTAssertEqual(stderr, "", "\(executable) \(arguments)", file: file, line: line)
    return String(decoding: out.data, as: UTF8.self)
  }

  /// The words the completion table expects, from the same table the parser reads.
  var commandNames: [String] { FCMLintCommand.commands.map(\.name) }
  var lintFormats: [String] { OutputFormat.allCases.map(\.rawValue) }
  var ruleIDs: [String] {
    get throws {
      try fcmlint(["rules", "--format", "json"]).stdout.components(separatedBy: "\"id\":\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }
  }

  // MARK: - bash

  func testCompletionInBash() throws {
    let bash = try shell("bash")
    let root = try completionFolder()
    let script = try fcmlint(["completion", "bash"], in: root)
    XCTAssertEqual(script.status, 0, script.stderr)
    let loaded = try temporaryDirectory().appendingPathComponent("fcmlint.bash")
    try write(script.stdout, to: loaded)
    // As bash-completion calls it: COMP_WORDS and COMP_CWORD set, then the function; the
    // replies, one a line, so that a reply with a blank shows as one.
    func complete(_ words: String...) throws -> [String] {
      let program = #"source "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); _fcmlint; printf '%s\n' "${COMPREPLY[@]}""#
      return try runShell(bash, ["-c", program, loaded.path] + words, in: root).split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }
    XCTAssertEqual(try runShell(bash, ["-c", #"source "$0"; complete -p fcmlint"#, loaded.path], in: root), "complete -F _fcmlint fcmlint\n")
    // The first word: every command, and the paths lint takes.
    XCTAssertEqual(Set(try complete("fcmlint", "")), Set(commandNames + ["my payload.json", "other.json", "[ab].json", "a.json", "sub", "myrules"]))
    XCTAssertEqual(try complete("fcmlint", "ls"), ["lsp"])
    XCTAssertEqual(try complete("fcmlint", "help", "ex"), ["explain"])
    // Options of the command on the line, and the formats that command takes.
    XCTAssertEqual(try complete("fcmlint", "--write-b"), ["--write-baseline"])
    XCTAssertEqual(try complete("fcmlint", "--vers"), ["--version"])
    XCTAssertEqual(try complete("fcmlint", "rules", "--f"), ["--format"])
    XCTAssertEqual(try complete("fcmlint", "rules", "--v"), [])
    XCTAssertEqual(try complete("fcmlint", "--format", ""), lintFormats)
    XCTAssertEqual(try complete("fcmlint", "lint", "--format", "m"), [], "lint refuses markdown")
    XCTAssertEqual(try complete("fcmlint", "rules", "--format", ""), ["text", "json", "markdown"])
    XCTAssertEqual(try complete("fcmlint", "--format", "=", "s"), ["sarif"])
    XCTAssertEqual(try complete("fcmlint", "--format", "="), lintFormats)
    XCTAssertEqual(try complete("fcmlint", "--input", ""), ["request", "message", "apns", "apns-config", "aps"])
    XCTAssertEqual(try complete("fcmlint", "--jobs", ""), [])
    XCTAssertEqual(try complete("fcmlint", "completion", ""), ["bash", "zsh", "fish"])
    // Rule ids where a rule id goes, with the line's own rule folder.
    XCTAssertEqual(try complete("fcmlint", "explain", "image-u"), Self.imageURLPrefixed)
    XCTAssertEqual(try complete("fcmlint", "explain", ""), try ruleIDs)
    XCTAssertEqual(try complete("fcmlint", "explain", "--rules", "myrules", "my-"), ["my-rule"])
    XCTAssertEqual(try complete("fcmlint", "explain", "--config", "=", "sub/conf.yml", "image-url-"), Array(Self.imageURLPrefixed.dropFirst()))
    XCTAssertEqual(try complete("fcmlint", "explain", "image-url", ""), [], "explain takes one rule id")
    XCTAssertEqual(try complete("fcmlint", "completion", "bash", ""), [])
    // Paths: a blank or a glob character stays in its one reply, as typed or escaped.
    XCTAssertEqual(try complete("fcmlint", "my"), ["myrules", "my payload.json"])
    XCTAssertEqual(try complete("fcmlint", "--quiet", "my\\ p"), ["my payload.json"])
    XCTAssertEqual(try complete("fcmlint", "--config", "'my p"), ["my payload.json"])
    XCTAssertEqual(try complete("fcmlint", "["), ["[ab].json"])
    XCTAssertEqual(try complete("fcmlint", "--rules", ""), ["myrules", "sub"])
    XCTAssertEqual(try complete("fcmlint", "test", ""), ["myrules", "sub"])
    XCTAssertEqual(try complete("fcmlint", "rules", ""), [])
    XCTAssertEqual(try complete("fcmlint", "--", "--q"), [], "after -- every word is a path")
  }

  // MARK: - fish

  func testCompletionInFish() throws {
    let fish = try shell("fish")
    let root = try completionFolder()
    let script = try fcmlint(["completion", "fish"], in: root)
    XCTAssertEqual(script.status, 0, script.stderr)
    let loaded = try temporaryDirectory().appendingPathComponent("fcmlint.fish")
    try write(script.stdout, to: loaded)
    /// What `complete -C` offers for `line`: each candidate without its description.
    func complete(_ line: String) throws -> [String] {
      try runShell(fish, ["--no-config", "-c", "source $argv[1]; complete -C $argv[2]", loaded.path, line], in: root)
        .split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
    }
    XCTAssertEqual(try complete("fcmlint explain "), try ruleIDs.sorted())
    XCTAssertEqual(try complete("fcmlint explain image-u"), Self.imageURLPrefixed)
    XCTAssertEqual(try complete("fcmlint explain --rules myrules my-"), ["my-rule"])
    XCTAssertEqual(try complete("fcmlint explain --config sub/conf.yml image-url-"), Array(Self.imageURLPrefixed.dropFirst()))
    XCTAssertEqual(try complete("fcmlint explain image-url "), [], "explain takes one rule id")
    XCTAssertEqual(try complete("fcmlint completion bash "), [])
    XCTAssertEqual(Set(try complete("fcmlint ")), Set(commandNames + ["my payload.json", "other.json", "[ab].json", "a.json", "sub/", "myrules/"]))
    XCTAssertEqual(try complete("fcmlint ls"), ["lsp"])
    XCTAssertEqual(try complete("fcmlint --format "), lintFormats.sorted())
    XCTAssertEqual(try complete("fcmlint lint --format m"), [])
    XCTAssertEqual(try complete("fcmlint rules --format "), ["json", "markdown", "text"])
    XCTAssertEqual(try complete("fcmlint --format=s"), ["--format=sarif"])
    XCTAssertEqual(try complete("fcmlint rules --"), ["--config", "--format", "--help", "--rules"])
    XCTAssertEqual(try complete("fcmlint my"), ["my payload.json", "myrules/"])
    XCTAssertEqual(try complete("fcmlint --config my"), ["my payload.json", "myrules/"])
    XCTAssertEqual(try complete("fcmlint --rules "), ["myrules/", "sub/"])
    XCTAssertEqual(try complete("fcmlint test "), ["myrules/", "sub/"])
    XCTAssertEqual(try complete("fcmlint rules "), [])
    XCTAssertEqual(try complete("fcmlint completion "), ["bash", "fish", "zsh"])
    XCTAssertEqual(try complete("fcmlint help e"), ["explain"])
  }

  // MARK: - zsh

  /// Drives an interactive zsh in a pseudo-terminal (zsh/zpty): loads the script, presses Tab at
  /// the end of `line`, and prints each word the completion adds.
  static let zshCapture = #"""
    zmodload zsh/zpty || exit 3
    zpty z zsh -f -i
    zpty -w z "PROMPT=''; RPROMPT=''"
    zpty -w z 'autoload -U compinit && compinit -u -D'
    zpty -w z "source ${(q)1}"
    zpty -w z 'compadd() {
      if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return; fi
      local -a __hits; builtin compadd -A __hits "$@"
      local h; for h in $__hits; do print -r -- $'\''\nHIT:'\''"$h"; done
    }'
    zpty -w z "bindkey '^I' complete-word; comppostfuncs=(exit)"
    zpty -w z "$2"$'\t'
    local out line
    while zpty -r z line; do out+=$line; done
    print -rl -- ${${(M)${(f)${out//$'\r'/}}:#HIT:*}#HIT:}
    """#

  func testCompletionInZsh() throws {
    let zsh = try shell("zsh")
    let root = try completionFolder()
    let script = try fcmlint(["completion", "zsh"], in: root)
    XCTAssertEqual(script.status, 0, script.stderr)
    let scripts = try temporaryDirectory()
    try write(script.stdout, to: scripts.appendingPathComponent("_fcmlint"))
    try write(Self.zshCapture, to: scripts.appendingPathComponent("capture.zsh"))
    func complete(_ line: String) throws -> [String] {
      try runShell(zsh, ["-f", scripts.appendingPathComponent("capture.zsh").path, scripts.appendingPathComponent("_fcmlint").path, line], in: root).split(separator: "\n").map(String.init)
    }
    XCTAssertEqual(try complete("fcmlint explain image-u"), Self.imageURLPrefixed)
    XCTAssertEqual(try complete("fcmlint explain --rules myrules my-"), ["my-rule"])
    // One rule id: zsh then offers the options that may still follow.
    XCTAssertEqual(try complete("fcmlint explain image-url "), ["--config", "--help", "--rules", "-h"])
    XCTAssertEqual(try complete("fcmlint ls"), ["lsp"])
    XCTAssertEqual(try complete("fcmlint --format "), lintFormats)
    XCTAssertEqual(try complete("fcmlint rules --format "), ["text", "json", "markdown"])
    XCTAssertEqual(try complete("fcmlint --format=s"), ["sarif"])
    XCTAssertEqual(try complete("fcmlint --vers"), ["--version"])
    XCTAssertEqual(try complete("fcmlint my"), ["my\\ payload.json", "myrules"])
    XCTAssertEqual(try complete("fcmlint test "), ["myrules", "sub"])
    XCTAssertEqual(try complete("fcmlint completion "), ["bash", "zsh", "fish"])
  }

  // MARK: - The table

  /// What completion offers for `--format` is what each command accepts, and nothing it refuses.
  func testEveryOfferedFormatIsAccepted() throws {
    for command in FCMLintCommand.commands where !command.formats.isEmpty {
      for format in command.formats {
        let run = try fcmlint([command.name, "--format", format] + (command.operands == .file ? ["-"] : []), input: .bytes(Data("{}".utf8)))
        XCTAssertNotEqual(run.status, 2, "\(command.name) --format \(format): \(run.stderr)")
      }
      let refused = try fcmlint([command.name, "--format", "nope", "-"])
      XCTAssertEqual(refused.status, 2)
    }
    XCTAssertFalse(FCMLintCommand.lint.formats.contains("markdown"))
    XCTAssertEqual(try fcmlint(["--format", "markdown", "-"]).status, 2)
    XCTAssertEqual(try fcmlint(["completion", "csh"]).status, 2)
  }
}
