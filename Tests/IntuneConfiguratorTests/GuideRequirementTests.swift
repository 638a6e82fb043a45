import Foundation
import PropertyLists
import Testing

@testable import IntuneConfigurator

/// An XML property list from the body of its top-level dictionary (tab-indented entries).
private func plist(_ body: String, path: String = "Info.plist") throws -> PropertyListFile {
  try ConfiguratorFixtures.document(body: body, path: path)
}

private func plan(
  _ body: String, entitlements: String? = nil,
  _ options: IntuneConfiguratorOptions = IntuneConfiguratorOptions()
) throws -> ConfigurationPlan {
  try AppConfigurator.plan(
    infoPlist: plist(body), entitlements: entitlements.map { try plist($0, path: "App.entitlements") },
    options: options)
}

private let authenticated = """
  \t<key>IntuneMAMSettings</key>
  \t<dict>
  \t\t<key>ADALClientId</key>
  \t\t<string>4c9b1a4e-0000-4000-8000-000000000001</string>
  \t\t<key>ADALRedirectScheme</key>
  \t\t<string>msauth.com.example.notes</string>
  \t</dict>

  """

@Suite("The guide's requirement list: main interface, authentication, Open-In, old guides' settings")
struct GuideRequirementTests {
  // MARK: §3.6 main nib / storyboard (2016, 2017)

  static let storyboardApp = """
    \t<key>CFBundleIdentifier</key>
    \t<string>com.example.app</string>
    \t<key>UIMainStoryboardFile</key>
    \t<string>Main</string>
    \t<key>NSMainNibFile~ipad</key>
    \t<string>MainWindow-iPad</string>

    """

  @Test(arguments: [IntuneGuideVersion.v2016, .v2017])
  func oldGuidesMoveTheMainInterfaceIntoTheSettings(_ guide: IntuneGuideVersion) throws {
    let plan = try plan(Self.storyboardApp, IntuneConfiguratorOptions(guide: guide))
    let moves = plan.changes.filter { $0.kind == .mainInterfaceMove }
    #expect(
      moves.map(\.summary) == [
        "move UIMainStoryboardFile to IntuneMAMSettings › MainStoryboardFile",
        "move NSMainNibFile~ipad to IntuneMAMSettings › MainNibFile~ipad",
      ])
    let configured = try plan.configuredInfoPlist()
    let root = try #require(configured.value.dictionaryValue)
    #expect(root["UIMainStoryboardFile"] == nil)
    #expect(root["NSMainNibFile~ipad"] == nil)
    let settings = try #require(root["IntuneMAMSettings"]?.dictionaryValue)
    #expect(settings["MainStoryboardFile"] == .string("Main"))
    #expect(settings["MainNibFile~ipad"] == .string("MainWindow-iPad"))
    // Idempotent: the second run finds the keys moved.
    let second = try AppConfigurator.plan(
      infoPlist: configured, entitlements: nil, options: IntuneConfiguratorOptions(guide: guide))
    #expect(second.changes.isEmpty)
  }

  /// The change kind's minimal-diff golden: the keys leave the top level (their comment stays) and their
  /// values appear in the existing IntuneMAMSettings; nothing else changes.
  @Test func mainInterfaceMoveIsAMinimalEdit() throws {
    let info = try ConfiguratorFixtures.file("MainInterface-Info.plist")
    let plan = try AppConfigurator.plan(
      infoPlist: info, entitlements: nil, options: IntuneConfiguratorOptions(guide: .v2017))
    #expect(plan.changes.map(\.kind) == [.mainInterfaceMove, .mainInterfaceMove, .mainInterfaceMove])
    #expect(plan.findings.filter { $0.severity >= .warning }.isEmpty)
    let before = try #require(info.document).text
    let configured = try plan.configuredInfoPlist()
    let after = try #require(configured.document).text
    try ConfiguratorFixtures.expectGolden(after, "MainInterface-Info.configured.plist")
    let diff = UnifiedDiff.make(from: before, to: after, oldName: "a/Info.plist", newName: "b/Info.plist")
    try ConfiguratorFixtures.expectGolden(diff, "MainInterface-Info.diff")
    // The only removed lines are the moved keys and their values, each of which is added back.
    let removed = diff.split(separator: "\n").filter { $0.hasPrefix("-") && !$0.hasPrefix("---") }
    let added = diff.split(separator: "\n").filter { $0.hasPrefix("+") && !$0.hasPrefix("+++") }
    #expect(removed.count == 6)
    let addedText = Set(added.map { $0.dropFirst().trimmingCharacters(in: .whitespaces) })
    for line in removed where line.contains("<string>") {
      #expect(addedText.contains(line.dropFirst().trimmingCharacters(in: .whitespaces)), "\(line) is lost")
    }
    #expect(
      after.contains("<!-- The phone and tablet interfaces; the 2017 guide hands them to the Intune SDK. -->")
    )
    let second = try AppConfigurator.plan(
      infoPlist: configured, entitlements: nil, options: IntuneConfiguratorOptions(guide: .v2017))
    #expect(second.changes.isEmpty)
  }

  @Test(arguments: [IntuneGuideVersion.v2018, .v2020, .v2023])
  func laterGuidesLeaveTheMainInterfaceAlone(_ guide: IntuneGuideVersion) throws {
    let plan = try plan(Self.storyboardApp, IntuneConfiguratorOptions(guide: guide))
    #expect(!plan.changes.contains { $0.kind == .mainInterfaceMove })
    #expect(try plan.configuredInfoPlist().value.dictionaryValue?["UIMainStoryboardFile"] == .string("Main"))
  }

  @Test func aConflictingMovedValueIsAnErrorAndNothingMoves() throws {
    let body =
      Self.storyboardApp
      + "\t<key>IntuneMAMSettings</key>\n\t<dict>\n\t\t<key>MainStoryboardFile</key>\n\t\t<string>Other</string>\n\t</dict>\n"
    let plan = try plan(body, IntuneConfiguratorOptions(guide: .v2017))
    let conflict = try #require(plan.findings.first { $0.id == "main-interface-conflict" })
    #expect(conflict.severity == .error)
    #expect(conflict.position?.line == 12)
    #expect(!plan.changes.contains { $0.summary.hasPrefix("move UIMainStoryboardFile") })
  }

  // MARK: §3.7.1 ADALClientId and the redirect (2023, L18)

  @Test func theNewestGuideAsksForClientIDAndRedirect() throws {
    let plan = try plan("\t<key>CFBundleIdentifier</key>\n\t<string>com.example.notes</string>\n")
    let ids = Set(plan.findings.map(\.id))
    #expect(ids.isSuperset(of: ["settings-client-id-missing", "settings-redirect-missing"]))
    let redirect = try #require(plan.findings.first { $0.id == "settings-redirect-missing" })
    #expect(redirect.fix == "add IntuneMAMSettings › ADALRedirectUri, e.g. msauth.com.example.notes://auth")
  }

  @Test func aConfiguredAppOrAnOlderGuideOrAnExtensionHasNoAuthenticationFinding() throws {
    let authIDs: Set = ["settings-client-id-missing", "settings-redirect-missing"]
    let configured = try plan(authenticated)
    #expect(Set(configured.findings.map(\.id)).isDisjoint(with: authIDs))
    let older = try plan("", IntuneConfiguratorOptions(guide: .v2020))
    #expect(Set(older.findings.map(\.id)).isDisjoint(with: authIDs))
    let appExtension = try plan(
      "\t<key>NSExtension</key>\n\t<dict/>\n",
      IntuneConfiguratorOptions(containingApp: ContainingApp(bundleIdentifier: "com.example"))
    )
    #expect(Set(appExtension.findings.map(\.id)).isDisjoint(with: authIDs))
  }

  // MARK: §1.3 Open-In extension (L14)

  static func openInExtension(name: String = "Open in Notes", groups: [String] = ["group.notes"]) -> String {
    let groupEntries = groups.map { "\t\t\t<string>\($0)</string>\n" }.joined()
    return """
      \t<key>CFBundleDisplayName</key>
      \t<string>\(name)</string>
      \t<key>IntuneMAMSettings</key>
      \t<dict>
      \t\t<key>AppGroupIdentifiers</key>
      \t\t<array>
      \(groupEntries)\t\t</array>
      \t\t<key>OpenInActionExtension</key>
      \t\t<true/>
      \t</dict>
      \t<key>NSExtension</key>
      \t<dict>
      \t\t<key>NSExtensionPointIdentifier</key>
      \t\t<string>com.apple.ui-services</string>
      \t</dict>

      """
  }

  static func containingApp(
    schemes: [String] = ["notes", "notes-intunemam"], groups: [String] = ["group.notes"]
  )
    throws -> PropertyListValue
  {
    .dictionary([
      "CFBundleIdentifier": .string("com.example.notes"),
      "CFBundleName": .string("Notes"),
      "CFBundleURLTypes": .array([.dictionary(["CFBundleURLSchemes": .array(schemes.map { .string($0) })])]),
      "CFBundleDocumentTypes": .array([.dictionary(["LSItemContentTypes": .array([.string("public.text")])])]
      ),
      "IntuneMAMSettings": .dictionary(["AppGroupIdentifiers": .array(groups.map { .string($0) })]),
    ])
  }

  static let openInIDs: Set = [
    "open-in-app-no-url-scheme", "open-in-app-scheme-twin-missing", "open-in-no-shared-app-group",
    "open-in-name",
  ]

  func openInPlan(
    _ body: String = openInExtension(), app: PropertyListValue, guide: IntuneGuideVersion = .newest
  ) throws -> [String: ConfiguratorFinding] {
    let plan = try plan(
      body,
      IntuneConfiguratorOptions(
        guide: guide,
        containingApp: ContainingApp(infoPlist: PropertyListFile(content: .value(app, .xml), path: nil))))
    return Dictionary(
      plan.findings.filter { Self.openInIDs.contains($0.id) }.map { ($0.id, $0) },
      uniquingKeysWith: { a, _ in a })
  }

  @Test func aCompleteOpenInExtensionHasNoFinding() throws {
    #expect(try openInPlan(app: Self.containingApp()).isEmpty)
  }

  @Test func theContainingAppNeedsAURLScheme() throws {
    let found = try openInPlan(app: Self.containingApp(schemes: []))
    #expect(found.keys.sorted() == ["open-in-app-no-url-scheme"])
    #expect(found["open-in-app-no-url-scheme"]?.severity == .error)
    #expect(found["open-in-app-no-url-scheme"]?.file == .containingApp)
  }

  @Test func from2020TheAppsSchemeNeedsItsTwin() throws {
    let app = try Self.containingApp(schemes: ["notes"])
    let found = try openInPlan(app: app)
    #expect(found.keys.sorted() == ["open-in-app-scheme-twin-missing"])
    #expect(found["open-in-app-scheme-twin-missing"]?.message.hasSuffix("none of notes-intunemam") == true)
    #expect(try openInPlan(app: app, guide: .v2018).isEmpty)
  }

  @Test func appAndExtensionMustShareAnAppGroup() throws {
    let found = try openInPlan(Self.openInExtension(groups: ["group.other"]), app: Self.containingApp())
    #expect(found.keys.sorted() == ["open-in-no-shared-app-group"])
    #expect(found["open-in-no-shared-app-group"]?.message.hasSuffix("the app lists group.notes") == true)
  }

  @Test func theExtensionIsNamedOpenInAndTheAppsName() throws {
    let found = try openInPlan(Self.openInExtension(name: "Notes Importer"), app: Self.containingApp())
    #expect(found.keys.sorted() == ["open-in-name"])
    #expect(found["open-in-name"]?.severity == .note)
    #expect(
      found["open-in-name"]?.fix == "set CFBundleDisplayName to \"Open in Notes\" (localize it as needed)")
  }

  // MARK: Old guides' wording (L1b, L20, L23) and the workplacejoin keychain group (L15)

  @Test func usePPEBelongsInMAMEnvironmentPlist() throws {
    let topLevel = try plan("\t<key>UsePPE</key>\n\t<true/>\n" + authenticated)
    #expect(topLevel.findings.contains { $0.id == "use-ppe-in-info-plist" && $0.keyPath == ["UsePPE"] })
    let inSettings = try plan(
      "\t<key>IntuneMAMSettings</key>\n\t<dict>\n\t\t<key>UsePPE</key>\n\t\t<true/>\n\t</dict>\n")
    #expect(inSettings.findings.contains { $0.id == "use-ppe-in-info-plist" })
    #expect(!inSettings.findings.contains { $0.id == "settings-unknown-key" })
  }

  @Test func splashIconsAreNamedWithoutTheirExtension() throws {
    let plan = try plan(
      "\t<key>IntuneMAMSettings</key>\n\t<dict>\n\t\t<key>SplashIconFile</key>\n\t\t<string>Splash.PNG</string>\n\t</dict>\n"
    )
    let finding = try #require(plan.findings.first { $0.id == "settings-splash-extension" })
    #expect(finding.fix == "set it to \"Splash\" so iOS picks the @2x/@3x variants")
    #expect(finding.position?.line == 6)
  }

  @Test(arguments: [(IntuneGuideVersion.v2016, true), (.v2017, false), (.v2023, false)])
  func warnAbsentBlocksTheStoreOnlyIn2016(_ guide: IntuneGuideVersion, _ reported: Bool) throws {
    let plan = try plan(
      "\t<key>IntuneMAMSettings</key>\n\t<dict>\n\t\t<key>MAMPolicyWarnAbsent</key>\n\t\t<true/>\n\t</dict>\n",
      IntuneConfiguratorOptions(guide: guide))
    #expect(plan.findings.contains { $0.id == "settings-warn-absent-store" } == reported)
  }

  static let entitlements = """
    \t<key>keychain-access-groups</key>
    \t<array>
    \t\t<string>$(AppIdentifierPrefix)com.example.notes</string>
    \t</array>

    """

  @Test(arguments: [
    (IntuneGuideVersion.v2016, false, true), (.v2017, true, false), (.v2018, false, true),
    (.v2020, false, false),
    (.v2023, false, false),
  ])
  func workplaceJoinGroupPerGuide(_ guide: IntuneGuideVersion, _ added: Bool, _ noted: Bool) throws {
    let plan = try plan(
      "\t<key>CFBundleIdentifier</key>\n\t<string>com.example.notes</string>\n",
      entitlements: Self.entitlements,
      IntuneConfiguratorOptions(guide: guide, fixEntitlements: true))
    let keychain = try #require(plan.changes.first { $0.kind == .keychainAccessGroup })
    #expect(keychain.summary.contains("com.microsoft.workplacejoin") == added)
    #expect(plan.findings.contains { $0.id == "keychain-workplacejoin" } == noted)
  }
}
