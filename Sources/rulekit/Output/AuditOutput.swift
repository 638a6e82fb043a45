import IntuneConfigurator
import PropertyLists

/// `rulekit audit`'s three layouts of an ``AuditReport``.
enum AuditOutput {
  static func text(_ report: AuditReport, quiet: Bool) -> String {
    var lines: [String] = []
    for bundle in report.bundles {
      let kind =
        bundle.kind == .app
        ? "app" : "\(bundle.kind.rawValue == "extension" ? "" : bundle.kind.rawValue + " ")extension"
      lines.append(
        "\(report.path)\(bundle.path.isEmpty ? "" : "/" + bundle.path): \(kind) \(bundle.bundleIdentifier ?? "(no CFBundleIdentifier)")"
      )
      if let point = bundle.extensionPointIdentifier, bundle.kind == .otherExtension {
        lines.append("  extension point: \(point)")
      }
      if let rule = bundle.activationRule {
        lines.append(
          "  rule\(bundle.activationRuleIsDictionary ? " (dictionary, as a predicate)" : ""): \(rule)")
      }
      if !bundle.missingTwins.isEmpty {
        lines.append("  missing Intune twins: " + bundle.missingTwins.joined(separator: ", "))
      }
      if let settings = bundle.intuneSettings {
        var parts: [String] = []
        if let id = settings.containingAppBundleID {
          let matches =
            settings.containingAppBundleIDMatches.map { $0 ? " (the app's)" : " (not the app's)" } ?? ""
          parts.append("ContainingAppBundleId \(id)\(matches)")
        }
        if let groups = settings.appGroupIdentifiers {
          let shared =
            settings.sharedAppGroups.map { " (\($0.count) of \(groups.count) in the entitlements)" } ?? ""
          parts.append("AppGroupIdentifiers [\(groups.joined(separator: ", "))]\(shared)")
        }
        if settings.openInActionExtension { parts.append("OpenInActionExtension") }
        lines.append("  IntuneMAMSettings: " + (parts.isEmpty ? "(empty)" : parts.joined(separator: "; ")))
      } else {
        lines.append("  IntuneMAMSettings: none")
      }
      if let schemes = bundle.queriedSchemes {
        var text = "  queried schemes: \(schemes.schemes.count) of iOS's \(schemes.limit)"
        if !schemes.missing.isEmpty {
          text += "; missing \(schemes.missing.count): " + schemes.missing.joined(separator: ", ")
        }
        if !schemes.ignoredByIOS.isEmpty {
          text += "; past the limit: " + schemes.ignoredByIOS.joined(separator: ", ")
        }
        lines.append(text)
      }
      if let groups = bundle.keychainGroups {
        lines.append("  keychain groups: " + (groups.isEmpty ? "none" : groups.joined(separator: ", ")))
      }
      lines.append("  entitlements: \(bundle.entitlementsSource.rawValue)")
      for problem in bundle.problems {
        lines.append("  \(problem.severity.rawValue): \(problem.message) [\(problem.id)]")
        if let fix = problem.fix { lines.append("    fix: \(fix)") }
      }
      for note in bundle.notes { lines.append("  note: \(note)") }
    }
    if !quiet {
      let count = report.bundles.reduce(0) { $0 + $1.problems.filter { $0.severity >= .warning }.count }
      let bundles = "\(report.bundles.count) bundle\(report.bundles.count == 1 ? "" : "s")"
      lines.append(
        count == 0
          ? "no problems found in \(bundles)" : "\(count) problem\(count == 1 ? "" : "s") in \(bundles)")
    }
    return lines.joined(separator: "\n")
  }

  /// One `FILE:1:1: severity: message` line per problem: a built Info.plist has no line to point at.
  static func xcodeLines(_ report: AuditReport) -> [String] {
    report.bundles.flatMap { bundle in
      let file = "\(report.path)/\(bundle.path.isEmpty ? "" : bundle.path + "/")Info.plist"
      return bundle.problems.map { problem in
        "\(file):1:1: \(problem.severity.rawValue): \(bundle.name): \(problem.message) [\(problem.id)]"
      }
    }
  }

  static func json(_ report: AuditReport) -> [String: Any] {
    let bundles: [[String: Any]] = report.bundles.map { bundle in
      var record: [String: Any] = [
        "name": bundle.name, "path": bundle.path, "kind": bundle.kind.rawValue,
        "missingTwins": bundle.missingTwins, "entitlementsSource": bundle.entitlementsSource.rawValue,
        "notes": bundle.notes,
        "problems": bundle.problems.map { problem in
          var item: [String: Any] = [
            "id": problem.id, "severity": problem.severity.rawValue, "file": problem.file.rawValue,
            "keyPath": problem.keyPath.description, "message": problem.message,
          ]
          item["fix"] = problem.fix
          return item
        },
      ]
      record["extensionPointIdentifier"] = bundle.extensionPointIdentifier
      record["bundleIdentifier"] = bundle.bundleIdentifier
      if let rule = bundle.activationRule {
        record["activationRule"] = ["predicate": rule, "isDictionary": bundle.activationRuleIsDictionary]
      }
      if let settings = bundle.intuneSettings {
        var item: [String: Any] = ["openInActionExtension": settings.openInActionExtension]
        item["containingAppBundleId"] = settings.containingAppBundleID
        item["containingAppBundleIdMatches"] = settings.containingAppBundleIDMatches
        item["appGroupIdentifiers"] = settings.appGroupIdentifiers
        item["sharedAppGroups"] = settings.sharedAppGroups
        record["intuneMAMSettings"] = item
      }
      if let schemes = bundle.queriedSchemes {
        record["queriedSchemes"] = [
          "schemes": schemes.schemes, "missing": schemes.missing, "limit": schemes.limit,
          "ignoredByIOS": schemes.ignoredByIOS,
        ]
      }
      record["keychainGroups"] = bundle.keychainGroups
      return record
    }
    return ["path": report.path, "bundles": bundles, "hasProblems": report.hasProblems]
  }
}
