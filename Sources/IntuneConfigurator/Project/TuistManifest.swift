import PropertyLists

/// What to add to a Tuist manifest (`Project.swift`, Swift) so the next `tuist generate` keeps a plan's
/// changes: build settings as `SettingsDictionary` entries for each configuration's `settings:`, and keys of
/// a generated Info.plist or entitlements file as entries for `.extendingDefault(with:)` or `.dictionary(_:)`.
/// Written as Swift literals under comments saying where each group goes; the manifest's shape varies too
/// much to edit it.
enum TuistManifest {
  static func additions(
    target: String, settings: [(configuration: String, name: String, value: String)],
    files: [(file: ProjectGenerator.GeneratedFile, keys: [(key: String, value: PropertyListValue)])]
  ) -> [String] {
    var lines = ["// target \(SwiftLiteral.string(target))"]
    for configuration in Set(settings.map(\.configuration)).sorted() {
      lines.append("// settings of its configuration \(SwiftLiteral.string(configuration)):")
      for setting in settings where setting.configuration == configuration {
        lines.append("\(SwiftLiteral.string(setting.name)): \(SwiftLiteral.string(setting.value)),")
      }
    }
    for (file, keys) in files {
      lines.append(
        file == .infoPlist
          ? "// its infoPlist: .extendingDefault(with: [...]) or .dictionary([...]):"
          : "// its entitlements: .dictionary([...]):")
      for (key, value) in keys { lines.append("\(SwiftLiteral.string(key)): \(SwiftLiteral.value(value)),") }
    }
    return lines
  }
}

/// Property-list values as Swift literals (Tuist's `Plist.Value` and `SettingValue` take them).
enum SwiftLiteral {
  /// A Swift string literal: quotes and backslashes escaped, every other control character as `\u{…}`
  /// (Swift refuses them raw in a literal).
  static func string(_ text: String) -> String {
    var escaped = ""
    for scalar in text.unicodeScalars {
      if scalar == "\"" || scalar == "\\" {
        escaped += "\\" + String(scalar)
      } else if scalar.value < 0x20 || scalar.value == 0x7F {
        escaped += "\\u{" + String(scalar.value, radix: 16) + "}"
      } else {
        escaped.unicodeScalars.append(scalar)
      }
    }
    return "\"" + escaped + "\""
  }

  static func value(_ value: PropertyListValue) -> String {
    switch value {
    case .string(let text): return string(text)
    case .bool(let flag): return flag ? "true" : "false"
    case .integer(let number): return String(number)
    case .real(let number): return String(number)
    case .array(let elements): return "[" + elements.map(Self.value).joined(separator: ", ") + "]"
    case .dictionary(let dictionary):
      guard !dictionary.isEmpty else { return "[:]" }
      return "["
        + dictionary.entries.map { "\(string($0.key)): \(Self.value($0.value))" }.joined(separator: ", ")
        + "]"
    default: return string(value.stringValue ?? "")
    }
  }
}
