import Foundation
import PropertyLists

/// Renders a plan for people (text) and for programs (JSON, schema version 1).
public enum ConfigurationReport {
  /// The JSON schema version of ``json(_:infoPlistName:entitlementsName:written:)``.
  public static let jsonVersion = 1

  /// Findings as compiler-style lines (`file:line:column: warning: message [id]`, then `  fix: …`), then one
  /// line per change grouped by file.
  public static func text(
    _ plan: ConfigurationPlan, infoPlistName: String, entitlementsName: String?
  ) -> String {
    var lines: [String] = []
    for finding in plan.findings {
      let file = name(of: finding.file, infoPlistName, entitlementsName, plan)
      let place = finding.position.map { "\(file):\($0.line):\($0.column)" } ?? file
      lines.append("\(place): \(finding.severity.rawValue): \(finding.message) [\(finding.id)]")
      if let fix = finding.fix { lines.append("  fix: \(fix)") }
    }
    for file in [ConfiguredFile.infoPlist, .entitlements] {
      let changes = plan.changes.filter { $0.file == file }
      guard !changes.isEmpty else { continue }
      lines.append(
        "\(name(of: file, infoPlistName, entitlementsName, plan)): \(changes.count) change"
          + (changes.count == 1 ? "" : "s"))
      for change in changes {
        lines.append("  \(change.kind.rawValue)  \(change.keyPath): \(change.summary)")
      }
    }
    if plan.changes.isEmpty {
      lines.append("\(infoPlistName): already configured for Intune; nothing to change")
    }
    return lines.joined(separator: "\n")
  }

  /// The unified diff of every file the plan changes.
  ///
  /// A binary or OpenStep file is compared as the XML rendering of its values, and its header lines say so
  /// after a tab (where `patch` expects a timestamp): its bytes would be unreadable, or in a syntax nobody
  /// reviews. The file itself is written back in its own format.
  public static func diff(
    _ plan: ConfigurationPlan, infoPlistName: String, entitlementsName: String?
  ) throws(PropertyListError) -> String {
    var output = ""
    let pairs: [(PropertyListFile?, PropertyListFile?, String?)] = [
      (plan.infoPlist, try plan.configuredInfoPlist(), infoPlistName),
      (plan.entitlements, try plan.configuredEntitlements(), entitlementsName),
    ]
    for case (let before?, let after?, let name?) in pairs {
      let note: String
      switch before.format {
      case .xml: note = ""
      case .binary: note = "\t(binary property list, shown as XML; written back as binary)"
      case .openStep: note = "\t(OpenStep property list, shown as XML; written back as OpenStep)"
      }
      output += UnifiedDiff.make(
        from: try readable(before), to: try readable(after), oldName: "a/\(name)\(note)",
        newName: "b/\(name)\(note)")
    }
    return output
  }

  /// The text a diff compares: an XML file's own bytes, or the XML rendering of any other file's value.
  static func readable(_ file: PropertyListFile) throws(PropertyListError) -> String {
    file.format == .xml
      ? String(decoding: try file.serialized(), as: UTF8.self)
      : PropertyListSerializer.xmlDocument(file.value)
  }

  /// The plan as a JSON document: `{"schemaVersion", "target", "changes": […], "findings": […], "written": […]}`.
  public static func json(
    _ plan: ConfigurationPlan, infoPlistName: String, entitlementsName: String?, written: [String]
  ) -> String {
    let target: [String: Any] =
      switch plan.target {
      case .app: ["kind": "app"]
      case .appExtension(let point): ["kind": "extension", "pointIdentifier": point ?? NSNull()]
      }
    let changes: [[String: Any]] = plan.changes.map {
      [
        "kind": $0.kind.rawValue, "file": name(of: $0.file, infoPlistName, entitlementsName, plan),
        "keyPath": $0.keyPath.description, "summary": $0.summary,
      ]
    }
    let findings: [[String: Any]] = plan.findings.map {
      var object: [String: Any] = [
        "id": $0.id, "severity": $0.severity.rawValue,
        "file": name(of: $0.file, infoPlistName, entitlementsName, plan),
        "keyPath": $0.keyPath.description, "message": $0.message,
      ]
      if let position = $0.position {
        object["line"] = position.line
        object["column"] = position.column
      }
      if let fix = $0.fix { object["fix"] = fix }
      return object
    }
    let document: [String: Any] = [
      "schemaVersion": jsonVersion, "target": target, "changes": changes, "findings": findings,
      "written": written,
    ]
    guard
      let data = try? JSONSerialization.data(
        withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    else { return "{}" }
    return String(decoding: data, as: UTF8.self)
  }

  private static func name(
    of file: ConfiguredFile, _ info: String, _ entitlements: String?, _ plan: ConfigurationPlan
  ) -> String {
    switch file {
    case .infoPlist: info
    case .entitlements: entitlements ?? "entitlements"
    case .containingApp: plan.containingAppInfoPlistPath ?? "containing app Info.plist"
    }
  }
}
