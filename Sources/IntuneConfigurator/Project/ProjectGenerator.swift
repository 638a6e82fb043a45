import PropertyLists
import XcodeProjects

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A tool that writes the Xcode project from a spec, so the next generation replaces what the configurator
/// changed in the project file (and, where the spec generates them, in the Info.plist and entitlements).
public struct ProjectGenerator: Sendable, Hashable {
  /// Which tool.
  public enum Kind: String, Sendable, Hashable, Codable {
    /// XcodeGen (`project.yml`).
    case xcodeGen = "xcodegen"
    /// Tuist (`Project.swift`).
    case tuist
  }

  /// Which tool generates the project.
  public var kind: Kind
  /// The spec file, e.g. `project.yml`.
  public var specPath: String
  /// For XcodeGen, the spec file that defines each target named here when it is not ``specPath`` but a
  /// file `project.yml` includes (`include: - path: App/target.yml`), where the target is best changed.
  public var targetSpecPaths: [String: String] = [:]

  /// The spec file that defines `target`.
  public func specPath(forTarget target: String) -> String { targetSpecPaths[target] ?? specPath }

  /// The generator whose spec sits beside the project (`project.yml`, `project.yaml`, `Project.swift`).
  static func detect(beside project: XcodeProject) -> ProjectGenerator? {
    let candidates: [(String, Kind)] = [
      ("project.yml", .xcodeGen), ("project.yaml", .xcodeGen), ("Project.swift", .tuist),
    ]
    for (name, kind) in candidates {
      let path = ProjectPlanner.join(project.sourceRoot, name)
      if FileManager.default.fileExists(atPath: path) {
        var generator = ProjectGenerator(kind: kind, specPath: path)
        if kind == .xcodeGen { generator.targetSpecPaths = XcodeGenIncludes.targetFiles(spec: path) }
        return generator
      }
    }
    return nil
  }
}

/// Where an XcodeGen spec's targets are written: `project.yml` and the files its `include:` lists (paths
/// relative to the including file, included files read first, as XcodeGen merges them under the including
/// file). A line-based reading of the two top-level keys XcodeGen documents for this, `include:` (a path, a
/// list of paths, or of `path:` entries) and `targets:` (a mapping from target names); not a YAML parser.
enum XcodeGenIncludes {
  /// The included file that defines each target, for targets not defined in `spec` itself.
  static func targetFiles(spec: String) -> [String: String] {
    var files: [String: String] = [:]
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
      guard path != spec else { return }
      for target in targets(in: lines) where files[target] == nil { files[target] = path }
    }
    visit(spec, depth: 0)
    return files
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

  /// The target names of the top-level `targets:` mapping: its keys at the first indentation under it.
  static func targets(in lines: [Substring]) -> [String] {
    guard let start = lines.firstIndex(where: { topLevelKey($0) == "targets" }) else { return [] }
    var names: [String] = []
    var indentation: Int?
    for line in block(after: start, in: lines) {
      let indent = line.prefix { $0 == " " }.count
      if indentation == nil { indentation = indent }
      guard indent == indentation, let colon = line.firstIndex(of: ":") else { continue }
      names.append(unquoted(line[..<colon].trimmedOfBlanks))
    }
    return names
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

/// What to add to one spec file so the next generation keeps a plan's changes.
public struct SpecAddition: Sendable, Hashable {
  /// The spec file: `project.yml`, or the file it includes that defines the targets named in ``text``.
  public var specPath: String
  /// The YAML (XcodeGen) or the keys (Tuist) to add.
  public var text: String
}

extension ProjectConfigurationPlan {
  /// What to add to the generator's spec so the next generation keeps this plan's changes: XcodeGen YAML
  /// (`targets › NAME › settings › configs` for build settings, `info › properties` and
  /// `entitlements › properties` for the files a spec generates), or for Tuist the same keys as a list.
  /// Empty when the plan changes nothing. ``specAdditionsByFile()`` splits it by the file defining each
  /// target.
  public func specAdditions() throws(PropertyListError) -> String {
    try specAdditionsByFile().map(\.text).joined()
  }

  /// ``specAdditions()`` for each spec file that defines a changed target, `project.yml` first: XcodeGen
  /// reads targets from the files `project.yml` includes, and a target is best changed where it is written.
  public func specAdditionsByFile() throws(PropertyListError) -> [SpecAddition] {
    guard let generator else { return [] }
    var lines: [String] = []
    var linesByFile: [String: [String]] = [:]
    var files: [String] = []
    var editsByTarget: [String: [(configuration: String, name: String, value: String)]] = [:]
    for setting in buildSettings {
      editsByTarget[setting.targetName, default: []].append(
        (setting.configuration, setting.edit.name, setting.edit.value))
    }
    for target in targets {
      var targetLines: [String] = []
      if let settings = editsByTarget.removeValue(forKey: target.targetName) {
        targetLines.append("    settings:")
        targetLines.append("      configs:")
        for configuration in Array(Set(settings.map(\.configuration))).sorted() {
          targetLines.append("        \(YAML.key(configuration)):")
          for setting in settings where setting.configuration == configuration {
            targetLines.append("          \(YAML.key(setting.name)): \(YAML.scalar(setting.value))")
          }
        }
      }
      for (key, file, changed) in [
        ("info", target.plan.infoPlist, try target.plan.configuredInfoPlist()),
        ("entitlements", target.plan.entitlements, try target.plan.configuredEntitlements()),
      ] {
        guard let changed, case .dictionary(let after) = changed.value else { continue }
        let before = file?.value.dictionaryValue ?? PropertyListDictionary()
        let keys = after.entries.filter { before[$0.key] != $0.value }
        guard !keys.isEmpty else { continue }
        targetLines.append("    \(key):")
        targetLines.append("      properties:")
        for entry in keys {
          targetLines += YAML.entry(entry.key, entry.value, indent: 8)
        }
      }
      if !targetLines.isEmpty {
        let file = generator.specPath(forTarget: target.targetName)
        if linesByFile[file] == nil { files.append(file) }
        linesByFile[file, default: []] += ["  \(YAML.key(target.targetName)):"] + targetLines
      }
    }
    files.sort { ($0 == generator.specPath ? 0 : 1, $0) < ($1 == generator.specPath ? 0 : 1, $1) }
    return files.map { file in
      lines = linesByFile[file] ?? []
      switch generator.kind {
      case .xcodeGen:
        return SpecAddition(specPath: file, text: (["targets:"] + lines).joined(separator: "\n") + "\n")
      case .tuist:
        // Tuist's manifests are Swift; the same keys, for `settings:` and `infoPlist: .extendingDefault(with:)`.
        return SpecAddition(
          specPath: file,
          text: (["keys to carry into the targets of \(file):"] + lines).joined(separator: "\n") + "\n")
      }
    }
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
