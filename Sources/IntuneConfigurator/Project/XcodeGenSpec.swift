import PropertyLists

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Where an XcodeGen spec's targets are written: `project.yml` and the files its `include:` lists (paths
/// relative to the including file, included files read first, as XcodeGen merges them under the including
/// file), and which of a target's files the spec generates (`info:`, `entitlements:`). A line-based reading
/// of the top-level keys XcodeGen documents for this, `include:` (a path, a list of paths, or of `path:`
/// entries) and `targets:` (a mapping from target names); not a YAML parser.
enum XcodeGenSpec {
  /// What `spec` and the files it includes say about targets: the included file defining each target not
  /// defined in `spec`, and the keys of each target's mapping (`info`, `entitlements`, …) in any file.
  static func read(spec: String) -> (files: [String: String], keys: [String: Set<String>]) {
    var files: [String: String] = [:]
    var keys: [String: Set<String>] = [:]
    var visited: Set<String> = []
    func visit(_ path: String, depth: Int) {
      guard depth < 16, visited.insert(path).inserted,
        let data = FileManager.default.contents(atPath: path)
      else { return }
      let lines = String(decoding: data, as: UTF8.self).split(
        omittingEmptySubsequences: false, whereSeparator: \.isNewline)
      let folder = ProjectPlanner.dirname(path)
      for include in includes(in: lines) {
        visit(include.hasPrefix("/") ? include : ProjectPlanner.join(folder, include), depth: depth + 1)
      }
      for (target, targetKeys) in targetBlocks(in: lines) {
        keys[target, default: []].formUnion(targetKeys)
        if path != spec, files[target] == nil { files[target] = path }
      }
    }
    visit(spec, depth: 0)
    return (files, keys)
  }

  /// The paths of the top-level `include:` key.
  static func includes(in lines: [Substring]) -> [String] {
    guard let start = lines.firstIndex(where: { topLevelKey($0) == "include" }) else { return [] }
    let inline = value(afterKeyIn: lines[start])
    if !inline.isEmpty {
      guard inline.hasPrefix("[") else { return [unquoted(inline)] }
      return inline.dropFirst().prefix { $0 != "]" }.split(separator: ",").map {
        unquoted($0.trimmedOfBlanks)
      }.filter { !$0.isEmpty }
    }
    var paths: [String] = []
    for line in block(after: start, in: lines) {
      let text = line.trimmedOfBlanks
      if text.hasPrefix("- ") {
        let item = text.dropFirst(2).trimmedOfBlanks
        if item.hasPrefix("path:") {
          paths.append(unquoted(item.dropFirst("path:".count).trimmedOfBlanks))
        } else if !item.contains(":") {
          paths.append(unquoted(item))
        }
      } else if text.hasPrefix("path:") {
        paths.append(unquoted(text.dropFirst("path:".count).trimmedOfBlanks))
      }
    }
    return paths.filter { !$0.isEmpty }
  }

  /// The targets of the top-level `targets:` mapping, each with the keys of its own mapping (the first
  /// indentation under the target's name).
  static func targetBlocks(in lines: [Substring]) -> [(name: String, keys: Set<String>)] {
    guard let start = lines.firstIndex(where: { topLevelKey($0) == "targets" }) else { return [] }
    var blocks: [(name: String, keys: Set<String>)] = []
    var indentation: Int?
    var keyIndentation: Int?
    for line in block(after: start, in: lines) {
      let indent = line.prefix { $0 == " " }.count
      if indentation == nil { indentation = indent }
      guard let targetIndent = indentation, let colon = line.firstIndex(of: ":") else { continue }
      let key = unquoted(line[..<colon].trimmedOfBlanks)
      if indent == targetIndent {
        blocks.append((key, []))
        keyIndentation = nil
      } else if indent > targetIndent, !blocks.isEmpty, !key.hasPrefix("-") {
        if keyIndentation == nil { keyIndentation = indent }
        if indent == keyIndentation { blocks[blocks.count - 1].keys.insert(key) }
      }
    }
    return blocks
  }

  /// The name of a top-level key (`include:` at the start of the line), or nil.
  static func topLevelKey(_ line: Substring) -> String? {
    guard let first = line.first, first != " ", first != "\t", first != "#", first != "-",
      let colon = line.firstIndex(of: ":")
    else { return nil }
    return unquoted(line[..<colon].trimmedOfBlanks)
  }

  /// The lines under the top-level key at `start`, up to the next top-level key (blank lines and comments
  /// left out).
  static func block(after start: Int, in lines: [Substring]) -> [Substring] {
    var result: [Substring] = []
    for line in lines[(start + 1)...] {
      let text = line.trimmedOfBlanks
      if text.isEmpty || text.hasPrefix("#") { continue }
      if let first = line.first, first != " ", first != "\t", first != "-" { break }
      result.append(line)
    }
    return result
  }

  /// What follows `key:` on its line, without a trailing comment.
  static func value(afterKeyIn line: Substring) -> String {
    guard let colon = line.firstIndex(of: ":") else { return "" }
    var rest = line[line.index(after: colon)...]
    if let comment = rest.firstRange(of: " #") { rest = rest[..<comment.lowerBound] }
    return rest.trimmedOfBlanks
  }

  static func unquoted(_ text: some StringProtocol) -> String {
    var text = String(text)
    if let comment = text.firstRange(of: " #") { text = String(text[..<comment.lowerBound]) }
    text = text.trimmedOfBlanks
    if text.count >= 2, let first = text.first, first == "\"" || first == "'", text.last == first {
      return String(text.dropFirst().dropLast())
    }
    return text
  }
}

extension XcodeGenSpec {
  /// The lines under `targets:` that carry a target's changes: `settings › configs` for build settings,
  /// `info › properties` and `entitlements › properties` for the files the spec generates (to merge into
  /// the target's `info:` and `entitlements:`, which name their `path:`).
  static func additions(
    target: String, settings: [(configuration: String, name: String, value: String)],
    files: [(file: ProjectGenerator.GeneratedFile, keys: [(key: String, value: PropertyListValue)])]
  ) -> [String] {
    var lines = ["  \(YAML.key(target)):"]
    if !settings.isEmpty {
      lines += ["    settings:", "      configs:"]
      for configuration in Set(settings.map(\.configuration)).sorted() {
        lines.append("        \(YAML.key(configuration)):")
        for setting in settings where setting.configuration == configuration {
          lines.append("          \(YAML.key(setting.name)): \(YAML.scalar(setting.value))")
        }
      }
    }
    for (file, keys) in files {
      lines += ["    \(file == .infoPlist ? "info" : "entitlements"):", "      properties:"]
      for (key, value) in keys { lines += YAML.entry(key, value, indent: 8) }
    }
    return lines
  }
}

/// Just enough YAML to write property-list values and build settings into an XcodeGen spec.
enum YAML {
  /// A mapping key, quoted when YAML would read it as something else.
  static func key(_ text: String) -> String {
    let plain = text.allSatisfy { $0.isLetter || $0.isNumber || "_-.$()[]=*".contains($0) }
    return plain && !text.isEmpty ? text : scalar(text)
  }

  /// A string as a double-quoted YAML scalar (always quoted: `YES`, `1.0` and `on` stay strings).
  static func scalar(_ text: String) -> String {
    var escaped = ""
    for character in text.unicodeScalars {
      switch character {
      case "\"": escaped += "\\\""
      case "\\": escaped += "\\\\"
      case "\n": escaped += "\\n"
      case "\t": escaped += "\\t"
      // YAML's double-quoted style has no raw control characters: \xXX.
      case _ where character.value < 0x20 || character.value == 0x7F:
        let hex = String(character.value, radix: 16, uppercase: true)
        escaped += "\\x" + (hex.count == 1 ? "0" + hex : hex)
      default: escaped.unicodeScalars.append(character)
      }
    }
    return "\"\(escaped)\""
  }

  /// `key: value` lines at `indent` spaces, nested for dictionaries and arrays.
  static func entry(_ key: String, _ value: PropertyListValue, indent: Int) -> [String] {
    let pad = String(repeating: " ", count: indent)
    switch value {
    case .dictionary(let dictionary):
      if dictionary.isEmpty { return ["\(pad)\(Self.key(key)): {}"] }
      return ["\(pad)\(Self.key(key)):"]
        + dictionary.entries.flatMap { entry($0.key, $0.value, indent: indent + 2) }
    case .array(let elements):
      if elements.isEmpty { return ["\(pad)\(Self.key(key)): []"] }
      return ["\(pad)\(Self.key(key)):"] + elements.flatMap { element(value: $0, indent: indent + 2) }
    default:
      return ["\(pad)\(Self.key(key)): \(scalarValue(value))"]
    }
  }

  static func element(value: PropertyListValue, indent: Int) -> [String] {
    let pad = String(repeating: " ", count: indent)
    switch value {
    case .dictionary(let dictionary) where !dictionary.isEmpty:
      var lines = dictionary.entries.flatMap { entry($0.key, $0.value, indent: indent + 2) }
      lines[0] = pad + "- " + lines[0].dropFirst(indent + 2)
      return lines
    case .array(let elements) where !elements.isEmpty:
      return ["\(pad)-"] + elements.flatMap { element(value: $0, indent: indent + 2) }
    case .dictionary: return ["\(pad)- {}"]
    case .array: return ["\(pad)- []"]
    default: return ["\(pad)- \(scalarValue(value))"]
    }
  }

  static func scalarValue(_ value: PropertyListValue) -> String {
    switch value {
    case .bool(let flag): return flag ? "true" : "false"
    case .integer(let number): return String(number)
    case .real(let number): return String(number)
    case .string(let text): return scalar(text)
    default: return scalar(value.stringValue ?? "")
    }
  }
}

extension StringProtocol {
  /// Without the spaces and tabs around it.
  fileprivate var trimmedOfBlanks: String {
    String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}
