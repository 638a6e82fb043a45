import CLITestSupport
import Foundation
import Testing

/// What configure only checks, broken in a copy of the sample app: each break is reported at the setting's
/// key in the app's Info.plist, with the requirement's id.
@Suite("configure reports each broken setting of the sample app")
struct SampleAppFindingTests {
  struct Break: Sendable, CustomTestStringConvertible {
    var requirement: String
    var original: String
    var replacement: String
    /// The key the findings point at, and each finding as `severity: … [id]`.
    var key: String
    var findings: [String]
    var testDescription: String { requirement }
  }

  static let breaks: [Break] = [
    Break(
      requirement: "L4 colours", original: "<string>#0A84FF</string>", replacement: "<string>blue</string>",
      key: "<key>AccentColor</key>",
      findings: [
        "error: IntuneMAMSettings.AccentColor is \"blue\", not a colour like #1A2B3C; it must be a colour string "
          + "of the form #RRGGBB [settings-wrong-type]"
      ]),
    Break(
      requirement: "L5 file protection levels",
      original: "<string>NSFileProtectionCompleteUntilFirstUserAuthentication</string>",
      replacement: "<string>NSFileProtectionCompleteUntilUnlock</string>",
      key: "<key>MaxFileProtectionLevel</key>",
      findings: ["error: IntuneMAMSettings.MaxFileProtectionLevel is \"NSFileProtectionCompleteUntilUnlock\""]
    ),
    Break(
      requirement: "L1 L2 MAMPolicyRequired", original: "<key>MAMPolicyRequired</key>\n\t\t<false/>",
      replacement: "<key>MAMPolicyRequired</key>\n\t\t<true/>", key: "<key>MAMPolicyRequired</key>",
      findings: [
        "warning: MAMPolicyRequired is YES: apps with it cannot be submitted to the App Store "
          + "[settings-policy-required]",
        "warning: MAMPolicyRequired is YES but AutoEnrollOnLaunch is not; the guide asks for both "
          + "[settings-auto-enroll]",
      ]),
    Break(
      requirement: "L6 Boolean settings", original: "<key>MAMPolicyRequired</key>\n\t\t<false/>",
      replacement: "<key>MAMPolicyRequired</key>\n\t\t<string>NO</string>",
      key: "<key>MAMPolicyRequired</key>",
      findings: [
        "error: IntuneMAMSettings.MAMPolicyRequired is <string>; it must be a Boolean (<true/> or <false/>) "
          + "[settings-wrong-type]"
      ]),
    Break(
      requirement: "L6 L18 a misspelt ADALClientId", original: "<key>ADALClientId</key>",
      replacement: "<key>ADALClientID</key>", key: "<key>ADALClientID</key>",
      findings: [
        "warning: IntuneMAMSettings.ADALClientID is not a setting of any Intune guide; the SDK ignores it "
          + "[settings-unknown-key]\n  fix: rename it to ADALClientId"
      ]),
  ]

  @Test(arguments: breaks)
  func brokenSettingIsReportedAtItsKey(_ broken: Break) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "rulekit-sample-broken-\(UUID())")
    try FileManager.default.copyItem(at: ConfiguredSampleApp.example, to: folder)
    defer { try? FileManager.default.removeItem(at: folder) }
    let info = folder.appendingPathComponent("App/Info.plist")
    let text = try String(contentsOf: info, encoding: .utf8)
    #expect(text.contains(broken.original))
    let changed = text.replacingOccurrences(of: broken.original, with: broken.replacement)
    try Data(changed.utf8).write(to: info)
    let outcome = try RuleKitBinary.run(
      ["configure", "-i", "App/Info.plist", "-e", "App/App.entitlements", "--dry-run"],
      currentDirectory: folder)
    let line = try #require(changed.components(separatedBy: "\n").firstIndex { $0.hasSuffix(broken.key) }) + 1
    for finding in broken.findings {
      #expect(
        outcome.standardError.contains("App/Info.plist:\(line):3: \(finding)"), "\(outcome.standardError)")
    }
  }

  /// L18: the 2023 guide's client ID, removed, is asked for.
  @Test func aMissingClientIDIsAskedFor() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "rulekit-sample-broken-\(UUID())")
    try FileManager.default.copyItem(at: ConfiguredSampleApp.example, to: folder)
    defer { try? FileManager.default.removeItem(at: folder) }
    let info = folder.appendingPathComponent("App/Info.plist")
    let text = try String(contentsOf: info, encoding: .utf8).replacingOccurrences(
      of: "\t\t<key>ADALClientId</key>\n\t\t<string>00000000-0000-4000-8000-00000000cafe</string>\n", with: ""
    )
    try Data(text.utf8).write(to: info)
    let outcome = try RuleKitBinary.run(
      ["configure", "-i", "App/Info.plist", "-e", "App/App.entitlements", "--dry-run"],
      currentDirectory: folder)
    #expect(
      outcome.standardError.contains(
        "warning: IntuneMAMSettings has no ADALClientId; the 2023 guide requires it for every app "
          + "[settings-client-id-missing]"), "\(outcome.standardError)")
  }
}
