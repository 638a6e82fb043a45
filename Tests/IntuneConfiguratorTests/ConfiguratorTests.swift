import Foundation
import PropertyLists
import Testing

@testable import IntuneConfigurator

/// The configurator's fixtures, shared with the end-to-end tests of `rulekit configure` in
/// `Tests/Fixtures/configurator`: `inputs` in, `golden` files out. `RULEKIT_UPDATE_GOLDEN=1` rewrites the golden
/// files (review the diff before committing them).
enum ConfiguratorFixtures {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/configurator")
  static let inputs = directory.appendingPathComponent("inputs")

  static func file(_ name: String) throws -> PropertyListFile {
    let url = inputs.appendingPathComponent(name)
    return try PropertyListFile(data: Data(contentsOf: url), path: url.path)
  }

  /// An XML property list from the body of its top-level dictionary (tab-indented entries).
  static func document(body: String, path: String = "Info.plist") throws -> PropertyListFile {
    let text =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\(body)</dict>\n</plist>\n"
    return try PropertyListFile(data: Data(text.utf8), path: path)
  }

  static func expectGolden(_ text: String, _ name: String) throws {
    let url = directory.appendingPathComponent("golden/\(name)")
    if ProcessInfo.processInfo.environment["RULEKIT_UPDATE_GOLDEN"] == "1" {
      try Data(text.utf8).write(to: url)
    }
    let expected = try String(contentsOf: url, encoding: .utf8)
    #expect(text == expected, "golden \(name) differs")
  }
}

@Suite struct ConfiguratorSettingsTests {
  @Test func validatesTheSettingsTable() throws {
    let plan = try AppConfigurator.plan(
      infoPlist: ConfiguratorFixtures.file("Settings-Info.plist"), entitlements: nil,
      options: IntuneConfiguratorOptions(guide: .v2020))
    let byID = Dictionary(grouping: plan.findings, by: \.id)
    let unknown = try #require(byID["settings-unknown-key"]?.first)
    #expect(unknown.fix == "did you mean AppGroupIdentifiers?")
    let wrongTypes = (byID["settings-wrong-type"] ?? []).map(\.message)
    #expect(
      wrongTypes == [
        "IntuneMAMSettings.AccentColor is \"#12345G\", not a colour like #1A2B3C; it must be a colour string of the form #RRGGBB",
        "IntuneMAMSettings.SplashDuration is <string>; it must be a number",
        "IntuneMAMSettings.MaxFileProtectionLevel is \"NSFileProtectionAlways\"; it must be one of "
          + IntuneMAMSettingsSchema.fileProtectionLevels.joined(separator: ", "),
      ])
    #expect(byID["settings-policy-required"]?.count == 1)
    #expect(byID["settings-auto-enroll"]?.count == 1)
    #expect(byID["settings-debug-enabled"]?.count == 1)
    #expect(unknown.position?.line == 12)
  }

  @Test func emptyQueriedSchemesArrayIsFilledInPlace() throws {
    let plan = try AppConfigurator.plan(
      infoPlist: ConfiguratorFixtures.file("Settings-Info.plist"), entitlements: nil)
    let text = try #require(try plan.configuredInfoPlist().document).text
    #expect(text.contains("<string>http-intunemam</string>"))
    #expect(!plan.changes.contains { $0.kind == .faceIDUsageDescription })
  }
}

@Suite struct ConfiguratorExtensionTests {
  @Test("a containing app Info.plist without CFBundleIdentifier is an error saying exactly that")
  func containingAppPlistWithoutBundleID() throws {
    let app = try PropertyListFile(
      data: Data("<plist><dict><key>CFBundleName</key><string>Notes</string></dict></plist>".utf8),
      path: "App/Info.plist")
    let plan = try AppConfigurator.plan(
      infoPlist: ConfiguratorFixtures.file("Share-Info.plist"), entitlements: nil,
      options: IntuneConfiguratorOptions(containingApp: ContainingApp(infoPlist: app)))
    let finding = try #require(plan.findings.first { $0.id == "containing-app-no-bundle-id" })
    #expect(finding.severity == .error)
    #expect(finding.file == .containingApp)
    #expect(finding.message.hasPrefix("the containing app's Info.plist has no CFBundleIdentifier"))
    #expect(!plan.findings.contains { $0.id == "containing-app-inferred" })
    #expect(!plan.changes.contains { $0.kind == .containingAppBundleID })
    let report = ConfigurationReport.text(plan, infoPlistName: "Share/Info.plist", entitlementsName: nil)
    #expect(
      report.contains("App/Info.plist:1:8: error: the containing app's Info.plist has no CFBundleIdentifier"))
  }

  @Test("with nothing naming the app, its ID is inferred from the extension's literal ID, with a warning")
  func containingAppInferredFromTheExtensionsIdentifier() throws {
    let plan = try AppConfigurator.plan(
      infoPlist: ConfiguratorFixtures.file("Share-Info.plist"), entitlements: nil)
    let finding = try #require(plan.findings.first { $0.id == "containing-app-inferred" })
    #expect(finding.severity == .warning)
    #expect(finding.message.contains("\"com.contoso.notes\""))
    #expect(finding.position != nil)
    #expect(!plan.findings.contains { $0.id == "containing-app-unknown" })
    let change = try #require(plan.changes.first { $0.kind == .containingAppBundleID })
    #expect(change.summary == "set to com.contoso.notes")
    // Named by the user, nothing is inferred.
    let named = try AppConfigurator.plan(
      infoPlist: ConfiguratorFixtures.file("Share-Info.plist"), entitlements: nil,
      options: IntuneConfiguratorOptions(containingApp: ContainingApp(bundleIdentifier: "com.contoso.other")))
    #expect(!named.findings.contains { $0.id == "containing-app-inferred" })
  }

  @Test(
    "a containing app Info.plist whose identifier does not start the extension's is named, with a warning")
  func containingAppPlistNotTheParent() throws {
    // Xamarin's Share sample: a sibling app Info.plist (com.xamarin.share) beside an extension whose literal
    // identifier is com.your-company.Share.ShareExtension; ContainingAppBundleId would name another app.
    let app = try ConfiguratorFixtures.document(
      body: "\t<key>CFBundleIdentifier</key>\n\t<string>com.xamarin.share</string>\n",
      path: "Share/Info.plist")
    func plan(_ app: PropertyListFile) throws -> ConfigurationPlan {
      try AppConfigurator.plan(
        infoPlist: ConfiguratorFixtures.file("Share-Info.plist"), entitlements: nil,
        options: IntuneConfiguratorOptions(containingApp: ContainingApp(infoPlist: app)))
    }
    let finding = try #require(try plan(app).findings.first { $0.id == "containing-app-not-parent" })
    #expect(finding.severity == .warning)
    #expect(finding.position != nil)
    #expect(
      finding.message.contains("\"com.contoso.notes.share\" does not start with \"com.xamarin.share.\""))
    #expect(finding.message.contains("(Share/Info.plist)"))
    // The app the extension's identifier names: nothing to say.
    let parent = try ConfiguratorFixtures.document(
      body: "\t<key>CFBundleIdentifier</key>\n\t<string>com.contoso.notes</string>\n",
      path: "Notes/Info.plist")
    #expect(!(try plan(parent).findings.contains { $0.id == "containing-app-not-parent" }))
    // A bundle ID the user names is taken as given.
    let named = try AppConfigurator.plan(
      infoPlist: ConfiguratorFixtures.file("Share-Info.plist"), entitlements: nil,
      options: IntuneConfiguratorOptions(containingApp: ContainingApp(bundleIdentifier: "com.xamarin.share")))
    #expect(!named.findings.contains { $0.id == "containing-app-not-parent" })
  }

  @Test func extensionNeedsItsContainingApp() throws {
    // A build-setting identifier tells nothing about the app: nothing to infer from.
    let text = String(decoding: try ConfiguratorFixtures.file("Share-Info.plist").serialized(), as: UTF8.self)
      .replacing(
        "<string>com.contoso.notes.share</string>", with: "<string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>")
    let plan = try AppConfigurator.plan(
      infoPlist: PropertyListFile(data: Data(text.utf8), path: "Share-Info.plist"), entitlements: nil)
    #expect(plan.target == .appExtension(pointIdentifier: "com.apple.share-services"))
    let finding = try #require(plan.findings.first { $0.id == "containing-app-unknown" })
    #expect(finding.severity == .error)
    #expect(!plan.changes.contains { $0.kind == .queriedScheme || $0.kind == .faceIDUsageDescription })
  }

  @Test func containingAppIDComesFromTheOptionOrTheAppsInfoPlist() throws {
    let app = try ConfiguratorFixtures.file("Settings-Info.plist")
    let plan = try AppConfigurator.plan(
      infoPlist: ConfiguratorFixtures.file("Share-Info.plist"), entitlements: nil,
      options: IntuneConfiguratorOptions(containingApp: ContainingApp(infoPlist: app)))
    let change = try #require(plan.changes.first { $0.kind == .containingAppBundleID })
    #expect(change.summary == "set to com.contoso.settings")
    let text = try #require(try plan.configuredInfoPlist().document).text
    #expect(text.contains("\t<key>IntuneMAMSettings</key>\n\t<dict>\n\t\t<key>ContainingAppBundleId</key>"))
  }
}

/// The containing app's bundle ID is copied from one plist into another, so a build-setting reference in it
/// would be expanded in the wrong target's build.
@Suite("Build-setting references are never copied from the app into an extension")
struct ContainingAppBuildSettingTests {
  static let share = ConfiguratorFixtures.inputs.appendingPathComponent("Share-Info.plist")

  /// An app Info.plist whose CFBundleIdentifier is `identifier`, as XML read from `App/Info.plist`.
  static func app(_ identifier: String, documentTypes: [String] = ["public.text"]) throws -> PropertyListFile
  {
    let types = documentTypes.map { "\t\t\t\t<string>\($0)</string>\n" }.joined()
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0">
      <dict>
      \t<key>CFBundleIdentifier</key>
      \t<string>\(identifier)</string>
      \t<key>CFBundleDocumentTypes</key>
      \t<array>
      \t\t<dict>
      \t\t\t<key>LSItemContentTypes</key>
      \t\t\t<array>
      \(types)\t\t\t</array>
      \t\t</dict>
      \t</array>
      </dict>
      </plist>

      """
    return try PropertyListFile(data: Data(text.utf8), path: "App/Info.plist")
  }

  static func plan(
    _ extensionInfo: PropertyListFile, app: PropertyListFile?, containingApp: String? = nil
  ) throws -> ConfigurationPlan {
    let options = IntuneConfiguratorOptions(
      containingApp: containingApp == nil && app == nil
        ? nil : ContainingApp(bundleIdentifier: containingApp, infoPlist: app))
    return try AppConfigurator.plan(infoPlist: extensionInfo, entitlements: nil, options: options)
  }

  @Test(arguments: ["$(PRODUCT_BUNDLE_IDENTIFIER)", "${PRODUCT_BUNDLE_IDENTIFIER}", "$(APP_ID).notes"])
  func anUnexpandedAppIDIsAnErrorAtTheAppsKeyAndNothingIsCopied(_ identifier: String) throws {
    let plan = try Self.plan(ConfiguratorFixtures.file("Share-Info.plist"), app: Self.app(identifier))
    #expect(!plan.changes.contains { $0.kind == .containingAppBundleID })
    let finding = try #require(plan.findings.first { $0.id == "containing-app-build-setting" })
    #expect(finding.severity == .error)
    #expect(finding.file == .containingApp)
    #expect(finding.keyPath == ["CFBundleIdentifier"])
    #expect(finding.position.map { [$0.line, $0.column] } == [4, 2])
    #expect(finding.fix?.hasPrefix("pass --containing-app with the app's bundle ID") == true)
    let report = ConfigurationReport.text(plan, infoPlistName: "Share/Info.plist", entitlementsName: nil)
    #expect(
      report.contains(
        "App/Info.plist:4:2: error: the containing app's CFBundleIdentifier is \"\(identifier)\""))
    #expect(!plan.findings.contains { $0.id == "containing-app-unknown" })
  }

  @Test func containingAppOptionOverridesTheUnexpandedID() throws {
    let plan = try Self.plan(
      ConfiguratorFixtures.file("Share-Info.plist"), app: Self.app("$(PRODUCT_BUNDLE_IDENTIFIER)"),
      containingApp: "com.contoso.notes")
    #expect(plan.changes.first { $0.kind == .containingAppBundleID }?.summary == "set to com.contoso.notes")
    #expect(!plan.findings.contains { $0.severity == .error })
  }

  @Test func anUnexpandedContainingAppOptionIsRefusedToo() throws {
    let plan = try Self.plan(
      ConfiguratorFixtures.file("Share-Info.plist"), app: nil, containingApp: "$(PRODUCT_BUNDLE_IDENTIFIER)")
    let finding = try #require(plan.findings.first { $0.id == "containing-app-build-setting" })
    #expect(finding.file == .infoPlist)
    #expect(finding.message.hasPrefix("--containing-app is \"$(PRODUCT_BUNDLE_IDENTIFIER)\""))
    #expect(plan.changes.filter { $0.kind == .containingAppBundleID }.isEmpty)
  }

  @Test func anExistingOwnBundleIDReferenceIsReported() throws {
    let text = try String(contentsOf: Self.share, encoding: .utf8).replacingOccurrences(
      of: "\t<key>NSExtension</key>",
      with: "\t<key>IntuneMAMSettings</key>\n\t<dict>\n\t\t<key>ContainingAppBundleId</key>\n"
        + "\t\t<string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n\t</dict>\n\t<key>NSExtension</key>")
    let info = try PropertyListFile(data: Data(text.utf8), path: "Share/Info.plist")
    let unknownApp = try Self.plan(info, app: Self.app("$(PRODUCT_BUNDLE_IDENTIFIER)"))
    let finding = try #require(unknownApp.findings.first { $0.id == "containing-app-id-build-setting" })
    #expect(finding.severity == .warning)
    #expect(finding.position?.line == 9)
    #expect(finding.fix == "set it to the containing app's bundle ID")
    #expect(!unknownApp.findings.contains { $0.id == "containing-app-build-setting" })
    let knownApp = try Self.plan(info, app: Self.app("com.contoso.notes"))
    #expect(
      knownApp.findings.filter { $0.id.hasPrefix("containing-app") }.map(\.fix) == [
        "set it to com.contoso.notes"
      ])
  }

  static func openIn(groups: [String] = []) throws -> PropertyListFile {
    try ConfiguratorFixtures.document(
      body: GuideRequirementTests.openInExtension(groups: groups), path: "OpenIn/Info.plist")
  }

  @Test func anOpenInRuleNeverCopiesAnUnexpandedDocumentType() throws {
    let info = try Self.openIn()
    let plan = try Self.plan(
      info,
      app: Self.app("com.contoso.notes", documentTypes: ["public.text", "$(PRODUCT_BUNDLE_IDENTIFIER).note"]))
    #expect(!plan.changes.contains { $0.kind == .openInActivationRule })
    let finding = try #require(plan.findings.first { $0.id == "open-in-type-build-setting" })
    #expect(finding.severity == .error)
    #expect(finding.file == .containingApp)
    #expect(finding.position?.line == 12)
    #expect(finding.message.contains("\"$(PRODUCT_BUNDLE_IDENTIFIER).note\""))
  }

  @Test func anAppGroupSharedOnlyThroughTheBundleIDSettingIsReported() throws {
    let group = "group.$(PRODUCT_BUNDLE_IDENTIFIER)"
    let app: PropertyListValue = .dictionary([
      "CFBundleIdentifier": .string("com.contoso.notes"),
      "CFBundleURLTypes": .array([
        .dictionary(["CFBundleURLSchemes": .array([.string("notes"), .string("notes-intunemam")])])
      ]),
      "CFBundleDocumentTypes": .array([.dictionary(["LSItemContentTypes": .array([.string("public.text")])])]
      ),
      "IntuneMAMSettings": .dictionary(["AppGroupIdentifiers": .array([.string(group)])]),
    ])
    let plan = try AppConfigurator.plan(
      infoPlist: Self.openIn(groups: [group]), entitlements: nil,
      options: IntuneConfiguratorOptions(
        containingApp: ContainingApp(infoPlist: PropertyListFile(content: .value(app, .xml), path: nil))))
    let finding = try #require(plan.findings.first { $0.id == "open-in-app-group-build-setting" })
    #expect(finding.severity == .warning)
    #expect(finding.message.contains(group))
  }
}

@Suite struct ChangeKindGoldenTests {
  /// Each golden of a configured fixture and the plan that produced it (the tests beside each fixture
  /// compare the bytes).
  static func goldenPlans() throws -> [(golden: String, plan: ConfigurationPlan)] {
    let app = try ConfiguratorFixtures.file("App-Info.plist")
    let entitlements = try ConfiguratorFixtures.file("App.entitlements")
    let withApp = IntuneConfiguratorOptions(
      containingApp: ContainingApp(bundleIdentifier: "com.contoso.notes"))
    func plan(_ name: String, _ options: IntuneConfiguratorOptions) throws -> ConfigurationPlan {
      try AppConfigurator.plan(
        infoPlist: ConfiguratorFixtures.file(name), entitlements: nil, options: options)
    }
    return [
      (
        "App-Info.configured.plist",
        try AppConfigurator.plan(
          infoPlist: app, entitlements: entitlements,
          options: IntuneConfiguratorOptions(fixEntitlements: true))
      ),
      ("Share-Info.configured.plist", try plan("Share-Info.plist", withApp)),
      ("Action-Info.configured.plist", try plan("Action-Info.plist", withApp)),
      (
        "OpenIn-Info.configured.plist",
        try plan("OpenIn-Info.plist", IntuneConfiguratorOptions(containingApp: ContainingApp(infoPlist: app)))
      ),
      (
        "MainInterface-Info.configured.plist",
        try plan("MainInterface-Info.plist", IntuneConfiguratorOptions(guide: .v2017))
      ),
    ]
  }

  @Test func everyChangeKindHasAMinimalDiffGolden() throws {
    let plans = try Self.goldenPlans()
    let covered = Set(plans.flatMap { $0.plan.changes.map(\.kind) })
    #expect(covered == Set(ConfiguratorChangeKind.allCases))
    for (golden, _) in plans {
      #expect(
        FileManager.default.fileExists(
          atPath: ConfiguratorFixtures.directory.appendingPathComponent("golden/\(golden)").path))
    }
  }
}
