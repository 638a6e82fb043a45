import AppBundles
import CLITestSupport
import Foundation
import IntuneConfigurator
import Testing

/// ``AppAuditor`` on small `.app` folders written by each test: binary Info.plists (Foundation's writer),
/// entitlements in a code signature or only in a provisioning profile.
@Suite("Auditing built apps")
struct AppAuditorTests {
  static let appID = "com.example.notes"

  /// Writes `Notes.app` with `info` and each extension in `extensions` (folder name → Info.plist) into a
  /// new folder; entitlements go into a code signature, or into `embedded.mobileprovision` when
  /// `profileOnly`.
  static func app(
    info: [String: Any] = [:], extensions: [String: [String: Any]] = [:],
    entitlements: [String: Any] = ["com.apple.security.application-groups": ["group.com.example.notes"]],
    profileOnly: Bool = false
  ) throws -> URL {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("rulekit-audit-\(UUID())")
    let app = root.appendingPathComponent("Notes.app")
    var bundles: [(URL, [String: Any])] = [
      (app, ["CFBundleIdentifier": appID].merging(info) { $1 })
    ]
    for (name, plist) in extensions {
      bundles.append((app.appendingPathComponent("PlugIns/\(name)"), plist))
    }
    for (folder, plist) in bundles {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      var plist = plist
      if profileOnly {
        try Data(SyntheticApp.provisioningProfile(entitlements: entitlements))
          .write(to: folder.appendingPathComponent("embedded.mobileprovision"))
      } else {
        plist["CFBundleExecutable"] = "Main"
        try Data(SyntheticApp.executable(entitlements: entitlements)).write(
          to: folder.appendingPathComponent("Main"))
      }
      try Data(SyntheticApp.binaryPlist(plist)).write(to: folder.appendingPathComponent("Info.plist"))
    }
    return app
  }

  static func share(rule: Any, settings: [String: Any]? = nil, point: String = "com.apple.share-services")
    -> [String: Any]
  {
    var info: [String: Any] = [
      "CFBundleIdentifier": appID + ".share",
      "NSExtension": [
        "NSExtensionPointIdentifier": point, "NSExtensionAttributes": ["NSExtensionActivationRule": rule],
      ],
    ]
    info["IntuneMAMSettings"] = settings
    return info
  }

  static let urlRule =
    "SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, ANY $a.registeredTypeIdentifiers "
    + "UTI-CONFORMS-TO \"public.url\").@count == 1).@count == 1"

  func audit(_ app: URL) throws -> AuditReport {
    defer { try? FileManager.default.removeItem(at: app.deletingLastPathComponent()) }
    return try AppAuditor.audit(path: app.path)
  }

  @Test("a share extension naming another app as its container: flagged, with the mismatch")
  func wrongContainingApp() throws {
    let report = try audit(
      Self.app(extensions: [
        "Share.appex": Self.share(
          rule: Self.urlRule, settings: ["ContainingAppBundleId": "com.example.other"])
      ]))
    let share = try #require(report.bundles.last)
    #expect(share.kind == .share)
    #expect(share.intuneSettings?.containingAppBundleID == "com.example.other")
    #expect(share.intuneSettings?.containingAppBundleIDMatches == false)
    #expect(share.missingTwins == ["com.microsoft.intune.mam.public.url"])
    #expect(share.problems.contains { $0.id == "activation-rule" && $0.severity == .error })
    #expect(report.hasProblems)
  }

  @Test("a dictionary rule is shown as a predicate, and every type it accepts misses its twin")
  func dictionaryRule() throws {
    let report = try audit(
      Self.app(extensions: [
        "Action.appex": Self.share(
          rule: ["NSExtensionActivationSupportsWebURLWithMaxCount": 1], point: "com.apple.ui-services")
      ]))
    let action = try #require(report.bundles.last)
    #expect(action.kind == .action)
    #expect(action.activationRuleIsDictionary)
    #expect(action.activationRule?.contains("\"public.url\"") == true)
    #expect(action.missingTwins.contains("com.microsoft.intune.mam.public.url"))
  }

  @Test("another extension point is reported by name")
  func otherExtensionPoint() throws {
    let report = try audit(
      Self.app(extensions: [
        "Widget.appex": Self.share(rule: Self.urlRule, point: "com.apple.widgetkit-extension")
      ]))
    #expect(report.bundles.last?.kind == .otherExtension)
    #expect(report.bundles.last?.extensionPointIdentifier == "com.apple.widgetkit-extension")
  }

  @Test("keychain groups come from the code signature, and missing ones are problems")
  func keychainFromSignature() throws {
    let report = try audit(
      Self.app(entitlements: ["keychain-access-groups": ["ABCDE12345.com.example.notes"]]))
    let app = try #require(report.bundles.first)
    #expect(app.entitlementsSource == .codeSignature)
    #expect(app.keychainGroups == ["ABCDE12345.com.example.notes"])
    #expect(app.problems.contains { $0.id == "keychain-groups-missing" })
  }

  @Test("a profile's wildcard keychain groups are not checked, and the unvalidated signature is said")
  func profileOnly() throws {
    let report = try audit(
      Self.app(entitlements: ["keychain-access-groups": ["ABCDE12345.*"]], profileOnly: true))
    let app = try #require(report.bundles.first)
    #expect(app.entitlementsSource == .provisioningProfile)
    #expect(app.keychainGroups == nil)
    #expect(!app.problems.contains { $0.id.hasPrefix("keychain-") })
    #expect(app.notes.contains { $0.contains("not validated") })
  }

  @Test("queried schemes past iOS's limit are named")
  func queriedSchemesLimit() throws {
    let schemes = (0..<50).map { "scheme\($0)" }
    let report = try audit(Self.app(info: ["LSApplicationQueriesSchemes": schemes]))
    let queried = try #require(report.bundles.first?.queriedSchemes)
    #expect(queried.schemes.count == 50)
    #expect(queried.limit == 50)
    #expect(queried.missing.contains("scheme0-intunemam"))
    #expect(report.bundles.first?.problems.contains { $0.id == "queried-scheme" } == true)
  }

  @Test("a folder that is no bundle is a clear error")
  func notABundle() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rulekit-empty-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let error = try #require(throws: AppAuditError.self) { try AppAuditor.audit(path: folder.path) }
    #expect(error.bundleError?.kind == .notABundle)
  }
}
