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

  /// The generator whose spec sits beside the project (`project.yml`, `project.yaml`, `Project.swift`).
  static func detect(beside project: XcodeProject) -> ProjectGenerator? {
    let candidates: [(String, Kind)] = [
      ("project.yml", .xcodeGen), ("project.yaml", .xcodeGen), ("Project.swift", .tuist),
    ]
    for (name, kind) in candidates {
      let path = ProjectPlanner.join(project.sourceRoot, name)
      if FileManager.default.fileExists(atPath: path) { return ProjectGenerator(kind: kind, specPath: path) }
    }
    return nil
  }
}

extension ProjectConfigurationPlan {
  /// What to add to the generator's spec so the next generation keeps this plan's changes: XcodeGen YAML
  /// (`targets › NAME › settings › configs` for build settings, `info › properties` and
  /// `entitlements › properties` for the files a spec generates), or for Tuist the same keys as a list.
  /// Empty when the plan changes nothing.
  public func specAdditions() throws(PropertyListError) -> String {
    guard let generator else { return "" }
    var lines: [String] = []
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
        lines.append("  \(YAML.key(target.targetName)):")
        lines += targetLines
      }
    }
    guard !lines.isEmpty else { return "" }
    switch generator.kind {
    case .xcodeGen:
      return (["targets:"] + lines).joined(separator: "\n") + "\n"
    case .tuist:
      // Tuist's manifests are Swift; the same keys, for `settings:` and `infoPlist: .extendingDefault(with:)`.
      return (["keys to carry into the targets of \(generator.specPath):"] + lines).joined(separator: "\n")
        + "\n"
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
