import PropertyLists

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Renders a plan for people (text) and for programs (JSON, schema version 1).
public enum ConfigurationReport {
  /// The JSON schema version of ``json(_:infoPlistName:entitlementsName:written:)``.
  public static let jsonVersion = 1

  /// Findings as compiler-style lines (`file:line:column: warning: message [id]`, then `  fix: …`), then one
  /// line per change grouped by file.
  public static func text(
    _ plan: ConfigurationPlan, infoPlistName: String, entitlementsName: String?
  ) -> String {
    text(plan, infoPlistName: infoPlistName, entitlementsName: entitlementsName, unchanged: nil)
  }

  /// ``text(_:infoPlistName:entitlementsName:)``, saying `unchanged` instead of "already configured" when the
  /// plan changes nothing (a project plan whose Info.plist an earlier plan already changes: the file on disk
  /// is not configured yet).
  static func text(
    _ plan: ConfigurationPlan, infoPlistName: String, entitlementsName: String?, unchanged: String?
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
      lines.append(unchanged ?? "\(infoPlistName): already configured for Intune; nothing to change")
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
      output += try fileDiff(before: before, after: after, name: name)
    }
    return output
  }

  /// One file's diff; a file that is created (`before` is `nil`) is compared with nothing (`/dev/null`),
  /// as `diff -N` does.
  static func fileDiff(before: PropertyListFile?, after: PropertyListFile, name: String)
    throws(PropertyListError) -> String
  {
    guard let before else {
      return UnifiedDiff.make(from: "", to: try readable(after), oldName: "/dev/null", newName: "b/\(name)")
    }
    let note: String
    switch before.format {
    case .xml: note = ""
    case .binary: note = "\t(binary property list, shown as XML; written back as binary)"
    case .openStep: note = "\t(OpenStep property list, shown as XML; written back as OpenStep)"
    }
    return UnifiedDiff.make(
      from: try readable(before), to: try readable(after), oldName: "a/\(name)\(note)",
      newName: "b/\(name)\(note)")
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
    encode(document(plan, infoPlistName: infoPlistName, entitlementsName: entitlementsName, written: written))
  }

  /// Pretty, key-sorted JSON, as every report prints it.
  static func encode(_ document: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(document) else { return "{}" }
    return String(decoding: data, as: UTF8.self)
  }

  /// The plan's JSON document, before encoding.
  static func document(
    _ plan: ConfigurationPlan, infoPlistName: String, entitlementsName: String?, written: [String]
  ) -> JSONReport {
    JSONReport(
      schemaVersion: jsonVersion,
      target: {
        switch plan.target {
        case .app: JSONReport.Target(kind: "app", pointIdentifier: nil)
        case .appExtension(let point): JSONReport.Target(kind: "extension", pointIdentifier: .some(point))
        }
      }(),
      changes: plan.changes.map {
        JSONReport.Change(
          kind: $0.kind.rawValue, file: name(of: $0.file, infoPlistName, entitlementsName, plan),
          keyPath: $0.keyPath.description, summary: $0.summary)
      },
      findings: plan.findings.map {
        JSONReport.Finding(
          id: $0.id, severity: $0.severity.rawValue,
          file: name(of: $0.file, infoPlistName, entitlementsName, plan), keyPath: $0.keyPath.description,
          message: $0.message, line: $0.position?.line, column: $0.position?.column, fix: $0.fix)
      },
      written: written)
  }

  /// The JSON document's shape; absent optionals are left out, but an extension's unknown extension point
  /// is written as `null` so every extension target has the key.
  struct JSONReport: Encodable {
    struct Target: Encodable {
      var kind: String
      /// `nil`: an app, no key; `.some(nil)`: an extension without `NSExtensionPointIdentifier`.
      var pointIdentifier: String??

      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        if let pointIdentifier { try container.encode(pointIdentifier, forKey: .pointIdentifier) }
      }

      private enum CodingKeys: String, CodingKey { case kind, pointIdentifier }
    }

    struct Change: Encodable {
      var kind, file, keyPath, summary: String
    }

    struct Finding: Encodable {
      var id, severity, file, keyPath, message: String
      var line, column: Int?
      var fix: String?
    }

    var schemaVersion: Int
    var target: Target
    var changes: [Change]
    var findings: [Finding]
    var written: [String]
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
