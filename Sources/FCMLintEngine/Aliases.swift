/// Names rule files use for what many of them share, read from an aliases file (`aliases.yml`
/// in a rule folder; the built-in pack's is `rules/aliases.yml`):
///
/// ```yaml
/// aliases:                      # named paths
///   AndroidV2: $.message.android_v2
///   AndroidImages:              # a list, using another alias
///     - $.message.android.notification.image
///     - '#AndroidV2.remote_notification.notification.image'
/// definitions:                  # named patterns and lists, for options
///   ImageExtensions: [png, jpg, jpeg]
/// ```
///
/// A rule path `'#Name'` stands for the alias's paths, and `'#Name.rest'` (or `'#Name[0]'`) for
/// each of them followed by the rest. An option that takes a pattern or a list of strings may
/// be `'#Name'` for a definition, and an item of such a list may be `'#Name'` for a list
/// definition's items. Unknown names, cycles and bad paths fail at their line and column.
public struct Aliases: Sendable {
  /// Each alias's paths, with the aliases in them expanded.
  var paths: [String: [String]] = [:]
  var definitions: [String: DataValue] = [:]
  /// The file each name is defined in, to report a redefinition.
  var origins: [String: String] = [:]

  /// The aliases file of a rule folder.
  public static let fileName = "aliases.yml"

  public init() {}

  /// These names and those of an aliases file's `tree`. A file may not redefine a name.
  public func adding(_ root: DataValue) throws(ConfigurationError) -> Aliases {
    var result = self
    var written: [String: DataValue] = [:]
    var order: [String] = []
    for (section, _, value) in try root.mapping(allowed: ["aliases", "definitions"], what: "an aliases file") {
      for (name, keyValue, item) in try value.mapping(what: section) {
        guard Self.isName(name) else {
          throw keyValue.fail("'\(name)' cannot be a name: use letters, digits and '_', starting with a letter")
        }
        if let origin = result.origins[name] { throw keyValue.fail("'\(name)' is already defined in \(origin)") }
        result.origins[name] = root.file
        if section == "aliases" {
          written[name] = item
          order.append(name)
        } else {
          result.definitions[name] = item
        }
      }
    }
    // Aliases may use each other in any order: each is expanded once, depth first.
    var expanding: Set<String> = []
    func expand(_ name: String) throws(ConfigurationError) -> [String] {
      if let done = result.paths[name] { return done }
      let value = written[name]!
      expanding.insert(name)
      var out: [String] = []
      let items = value.oneOrMany(what: "an alias")
      if items.isEmpty { throw value.fail("the alias '\(name)' needs at least one path") }
      for item in items {
        let text = try item.nonEmptyString(what: "a path of an alias")
        guard let reference = try Self.reference(item, text) else {
          do {
            _ = try JSONPath(text)
          } catch {
            throw ConfigurationError(
              file: item.file, line: item.line, column: item.column + error.offset + (item.isQuoted ? 1 : 0),
              message: "invalid path '\(text)': \(error.message)")
          }
          out.append(text)
          continue
        }
        if expanding.contains(reference.name) {
          throw item.fail("the alias '\(reference.name)' uses itself (through '\(name)')")
        }
        let base: [String]
        if written[reference.name] != nil {
          base = try expand(reference.name)
        } else if let known = result.paths[reference.name] {
          base = known
        } else {
          throw unknown(reference.name, at: item, among: Array(written.keys) + Array(result.paths.keys))
        }
        out += base.map { $0 + reference.rest }
      }
      expanding.remove(name)
      result.paths[name] = out
      return out
    }
    for name in order { _ = try expand(name) }
    return result
  }

  /// The path texts a rule path stands for: itself, or an alias's paths followed by the rest.
  func expand(_ value: DataValue, what: @autoclosure () -> String) throws(ConfigurationError) -> [String] {
    let text = try value.nonEmptyString(what: what())
    guard let reference = try Self.reference(value, text) else { return [text] }
    guard let paths = paths[reference.name] else {
      throw unknown(reference.name, at: value, among: Array(paths.keys))
    }
    return paths.map { $0 + reference.rest }
  }

  /// The strings of a list definition (`ApsKeys`), or nil when there is none of that name: for
  /// code that needs what the rules know (which keys an `aps` dictionary has).
  public func strings(_ name: String) -> [String]? {
    guard let definition = definitions[name] else { return nil }
    return definition.oneOrMany(what: name).compactMap { item in
      if case .scalar(let text, .string, _) = item.node { return text }
      return nil
    }
  }

  /// The definition called `name` as written (a mapping of mappings, `NodeSdkRenames`), or nil:
  /// for code that needs what the rules know in another form than a list.
  public func definition(named name: String) -> DataValue? { definitions[name] }

  /// The definition `value` names (`'#Name'`), or `value` itself when it names none.
  func definition(_ value: DataValue) throws(ConfigurationError) -> DataValue {
    guard case .scalar(let text, .string, _) = value.node, text.hasPrefix("#"), Self.isName(String(text.dropFirst())) else { return value }
    let name = String(text.dropFirst())
    guard let definition = definitions[name] else {
      throw value.fail("unknown definition '#\(name)'\(DataValue.suggestion(name, Array(definitions.keys)))")
    }
    return definition
  }

  /// `#Name` and what follows it in a path, checked; nil for a path without an alias.
  static func reference(_ value: DataValue, _ text: String) throws(ConfigurationError) -> (name: String, rest: String)? {
    // Read as bytes: every rule path passes here when the pack loads.
    let bytes = text.utf8
    guard bytes.first == UInt8(ascii: "#") else { return nil }
    let afterHash = bytes.index(after: bytes.startIndex)
    let nameEnd = bytes[afterHash...].firstIndex { byte in
      !((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") || byte == UInt8(ascii: "_"))
    } ?? bytes.endIndex
    let name = String(text[afterHash..<nameEnd])
    let rest = String(text[nameEnd...])
    let column = value.column + (value.isQuoted ? 1 : 0)
    guard isName(name) else {
      throw ConfigurationError(
        file: value.file, line: value.line, column: column + 1, message: "'#' starts an alias name (letters, digits and '_', starting with a letter)")
    }
    if !rest.isEmpty {
      // The rest is checked as a path of its own, to point into it.
      do {
        _ = try JSONPath("$" + rest)
      } catch {
        throw ConfigurationError(
          file: value.file, line: value.line, column: column + name.count + error.offset, message: "invalid path '\(text)': \(error.message)")
      }
    }
    return (name, rest)
  }

  func unknown(_ name: String, at value: DataValue, among names: [String]) -> ConfigurationError {
    let known = names.isEmpty ? "" : " (aliases: \(names.sorted().joined(separator: ", ")))"
    return value.fail("unknown alias '#\(name)'\(DataValue.suggestion(name, names))\(known)")
  }

  static func isName(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, ("A"..."Z").contains(first) || ("a"..."z").contains(first) else { return false }
    return name.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
  }
}
