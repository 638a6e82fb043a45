import Foundation
import PropertyLists
import Testing

@testable import IntuneConfigurator

// An app's Info.plist and entitlements: every change kind, minimal edits, the queried-scheme limit and the
// guide editions. The fixtures and goldens they read are ConfiguratorFixtures' (ConfiguratorTests.swift).

@Suite struct ConfiguratorAppTests {
  let options = IntuneConfiguratorOptions(fixEntitlements: true)

  func plan(_ options: IntuneConfiguratorOptions? = nil) throws -> ConfigurationPlan {
    try AppConfigurator.plan(
      infoPlist: ConfiguratorFixtures.file("App-Info.plist"),
      entitlements: ConfiguratorFixtures.file("App.entitlements"), options: options ?? self.options)
  }

  @Test func plansEveryChangeKindAnAppNeeds() throws {
    let plan = try plan()
    #expect(plan.target == .app)
    #expect(
      plan.changes.map(\.kind) == [
        .urlSchemeTwin, .queriedScheme, .documentTypeTwin, .appGroupIdentifiers, .faceIDUsageDescription,
        .keychainAccessGroup,
      ])
    #expect(plan.changes[0].summary == "add contoso-notes-intunemam")
    #expect(
      plan.changes[2].summary
        == "add com.microsoft.intune.mam.public.plain-text, com.microsoft.intune.mam.com.adobe.pdf")
  }

  @Test func configuredInfoPlistIsAMinimalEdit() throws {
    let plan = try plan()
    let before = try #require(plan.infoPlist.document).text
    let after = try #require(try plan.configuredInfoPlist().document).text
    try ConfiguratorFixtures.expectGolden(after, "App-Info.configured.plist")
    let diff = UnifiedDiff.make(from: before, to: after, oldName: "a/Info.plist", newName: "b/Info.plist")
    try ConfiguratorFixtures.expectGolden(diff, "App-Info.diff")
    // Only additions: every removed line of the diff would be a rewrite of something the user wrote.
    #expect(!diff.split(separator: "\n").contains { $0.hasPrefix("-") && !$0.hasPrefix("---") })
    #expect(after.contains("<!-- Schemes other apps use to open us. Keep in sync with Routes.swift. -->"))
  }

  /// A binary Info.plist's diff compares readable XML renderings, and its header says the file is binary.
  @Test func binaryInfoPlistDiffsAsXML() throws {
    let xml = try ConfiguratorFixtures.file("App-Info.plist")
    // Our writer keeps the XML's key order; Foundation's orders keys by hash, which changes from run to run,
    // and a binary file's own order is what its diff shows.
    let binary = try PropertyListFile(content: .value(xml.value, .binary), path: nil).serialized()
    let info = try PropertyListFile(data: binary, path: "Info.plist")
    #expect(info.format == .binary)
    let plan = try AppConfigurator.plan(
      infoPlist: info, entitlements: ConfiguratorFixtures.file("App.entitlements"), options: options)
    let diff = try ConfigurationReport.diff(plan, infoPlistName: "Info.plist", entitlementsName: nil)
    try ConfiguratorFixtures.expectGolden(diff, "App-Info.binary.diff")
    #expect(
      diff.hasPrefix(
        "--- a/Info.plist\t(binary property list, shown as XML; written back as binary)\n"
          + "+++ b/Info.plist\t(binary property list, shown as XML; written back as binary)\n"))
    #expect(!diff.contains("bplist00"))
    #expect(try plan.configuredInfoPlist().serialized().starts(with: Array("bplist00".utf8)))
  }

  @Test func openStepInfoPlistDiffsAsXML() throws {
    let text =
      "{\n  CFBundleIdentifier = com.example.notes;\n  CFBundleURLTypes = ({ CFBundleURLSchemes = (notes); });\n}\n"
    let info = try PropertyListFile(data: Data(text.utf8), path: "Info.plist")
    #expect(info.format == .openStep)
    let plan = try AppConfigurator.plan(infoPlist: info, entitlements: nil)
    let diff = try ConfigurationReport.diff(plan, infoPlistName: "Info.plist", entitlementsName: nil)
    #expect(
      diff.hasPrefix("--- a/Info.plist\t(OpenStep property list, shown as XML; written back as OpenStep)\n"))
    #expect(diff.contains("\n+\t\t\t\t<string>notes-intunemam</string>\n"))
    #expect(!diff.contains("CFBundleURLSchemes = "))
    // Written whole, its comments and layout go: said, as a warning (the help promises them kept for XML).
    let rewritten = plan.findings.filter { $0.id == "openstep-rewritten" }
    #expect(rewritten.count == 1)
    #expect(rewritten.first?.severity == .warning)
    // An XML file is edited in place: no such warning.
    #expect(!(try self.plan()).findings.contains { $0.id == "openstep-rewritten" })
  }

  @Test func entitlementsGetTheIntuneKeychainGroups() throws {
    let configured = try #require(try plan().configuredEntitlements()?.document).text
    try ConfiguratorFixtures.expectGolden(configured, "App.configured.entitlements")
  }

  @Test func secondRunPlansNothing() throws {
    let first = try plan()
    let second = try AppConfigurator.plan(
      infoPlist: first.configuredInfoPlist(), entitlements: try first.configuredEntitlements(),
      options: options)
    #expect(second.changes.isEmpty)
    #expect(try second.configuredInfoPlist().serialized() == first.configuredInfoPlist().serialized())
  }

  @Test func buildSettingSchemesAreReportedNeverTwinned() throws {
    let plan = try plan()
    let finding = try #require(plan.findings.first { $0.id == "url-scheme-build-setting" })
    #expect(finding.keyPath.description.contains("CFBundleURLSchemes"))
    #expect(finding.position?.line == 16)
    let text = try #require(try plan.configuredInfoPlist().document).text
    #expect(!text.contains("$(PRODUCT_BUNDLE_IDENTIFIER)-intunemam"))
  }

  @Test func keychainGroupsAreOnlyReportedWithoutTheFixFlag() throws {
    let plan = try plan(IntuneConfiguratorOptions())
    #expect(!plan.changes.contains { $0.file == .entitlements })
    let finding = try #require(plan.findings.first { $0.id == "keychain-groups-missing" })
    #expect(finding.message.contains("$(AppIdentifierPrefix)com.microsoft.intune.mam"))
    #expect(finding.fix?.contains("--fix-entitlements") == true)
  }

  @Test func mailtoBringsOutlook() throws {
    let plan = try plan(IntuneConfiguratorOptions(iosSDKMajor: 27))
    let queried = try #require(plan.changes.first { $0.kind == .queriedScheme })
    #expect(queried.summary.hasSuffix("ms-outlook-intunemam, msauthv2-intunemam, msauthv3-intunemam"))
    // 3 entries + 15 fixed + Outlook + 2 twins = 21: within even iOS 27's limit.
    #expect(!plan.findings.contains { $0.id == "queried-schemes-over-limit" })
  }

  static func queriedSchemesApp(_ count: Int) throws -> PropertyListFile {
    let entries = (1...count).map { "\t\t<string>app\($0)</string>\n" }.joined()
    let text =
      "<plist version=\"1.0\">\n<dict>\n\t<key>LSApplicationQueriesSchemes</key>\n\t<array>\n"
      + entries + "\t</array>\n</dict>\n</plist>\n"
    return try PropertyListFile(data: Data(text.utf8), path: "Info.plist")
  }

  @Test func theIOS27LimitNamesWhatIOSWillIgnore() throws {
    let plan = try AppConfigurator.plan(
      infoPlist: Self.queriedSchemesApp(10), entitlements: nil,
      options: IntuneConfiguratorOptions(iosSDKMajor: 27))
    let limit = try #require(plan.findings.first { $0.id == "queried-schemes-over-limit" })
    // 10 entries + 15 fixed + 10 twins = 35 against 25: the fixed entries fit, the twins do not.
    #expect(
      limit.message
        == "LSApplicationQueriesSchemes will have 35 entries; the iOS 27 SDK honours the first 25, so canOpenURL "
        + "ignores 10 -intunemam twins of the app's schemes ("
        + (1...10).map { "app\($0)-intunemam" }.joined(separator: ", ") + ")")
    #expect(limit.fix == QueriedSchemesPlan.overLimitRemedy)
    #expect(limit.position?.line == 3)
  }

  /// The 60-entry list at both limits: the app's entries stay first and untouched, the fixed Intune entries
  /// follow them, the twins come last; the warning sorts what iOS ignores and gives each kind its remedy.
  @Test(arguments: [26, 27])
  func sixtyEntriesKeepTheAppsOwnFirstAndTheFixedBeforeTheTwins(_ sdk: Int) throws {
    let info = try Self.queriedSchemesApp(22)
    let plan = try AppConfigurator.plan(
      infoPlist: info, entitlements: nil, options: IntuneConfiguratorOptions(iosSDKMajor: sdk))
    let configured = try #require(
      try plan.configuredInfoPlist().value.dictionaryValue?["LSApplicationQueriesSchemes"]?.arrayValue)
    let schemes = configured.compactMap(\.stringValue)
    #expect(schemes.count == 59)
    #expect(schemes.prefix(22).elementsEqual((1...22).map { "app\($0)" }))
    #expect(schemes[22] == "http-intunemam")
    #expect(schemes[36] == "intunemam-mtd")
    #expect(schemes[37] == "app1-intunemam")
    let limit = try #require(plan.findings.first { $0.id == "queried-schemes-over-limit" })
    if sdk == 26 {
      #expect(
        limit.message.hasPrefix(
          "LSApplicationQueriesSchemes will have 59 entries; the iOS 15–26 SDK honours the first 50, so "
            + "canOpenURL ignores 9 -intunemam twins of the app's schemes (app14-intunemam, "))
      #expect(limit.fix == QueriedSchemesPlan.overLimitRemedy)
    } else {
      #expect(
        limit.message.hasPrefix(
          "LSApplicationQueriesSchemes will have 59 entries; the iOS 27 SDK honours the first 25, so "
            + "canOpenURL ignores 12 Intune entries the guide requires (microsoft-edge-https-intunemam, "
            + "smart-ns, "))
      #expect(limit.message.contains("; 22 -intunemam twins of the app's schemes (app1-intunemam, "))
      #expect(limit.fix == QueriedSchemesPlan.makeRoomRemedy + "; " + QueriedSchemesPlan.overLimitRemedy)
    }
  }

  /// The guide's remedy (§3.3) as a run: naming the known managed apps' schemes leaves their twins out,
  /// the list fits, the app is told how to check those URLs, and a second run adds nothing back.
  @Test func knownManagedSchemesMakeRoomAndStayOut() throws {
    let known = (1...10).map { "app\($0)" }
    let options = IntuneConfiguratorOptions(iosSDKMajor: 27, knownManagedAppSchemes: known)
    let plan = try AppConfigurator.plan(
      infoPlist: Self.queriedSchemesApp(10), entitlements: nil, options: options)
    #expect(!plan.findings.contains { $0.id == "queried-schemes-over-limit" })
    let note = try #require(plan.findings.first { $0.id == "queried-scheme-known-managed" })
    #expect(note.severity == .note)
    #expect(
      note.message
        == "no -intunemam twin for " + known.joined(separator: ", ")
        + " (--known-managed-scheme): canOpenURL may answer wrongly for them")
    #expect(
      note.fix
        == "check these URLs with [IntuneMAMPolicy isURLAllowed:isKnownManagedAppScheme:YES] instead of "
        + "canOpenURL")
    let configured = try plan.configuredInfoPlist()
    let entries = try #require(configured.value.dictionaryValue?["LSApplicationQueriesSchemes"]?.arrayValue)
    let schemes = entries.compactMap(\.stringValue)
    #expect(schemes.count == 25)
    #expect(!schemes.contains { $0.hasPrefix("app") && $0.hasSuffix("-intunemam") })
    let again = try AppConfigurator.plan(infoPlist: configured, entitlements: nil, options: options)
    #expect(!again.changes.contains { $0.kind == .queriedScheme })
  }

  @Test func aMisspeltKnownManagedSchemeIsAWarning() throws {
    let plan = try AppConfigurator.plan(
      infoPlist: Self.queriedSchemesApp(2), entitlements: nil,
      options: IntuneConfiguratorOptions(knownManagedAppSchemes: ["app1", "ap2"]))
    let warning = try #require(plan.findings.first { $0.id == "known-managed-scheme-not-queried" })
    #expect(warning.severity == .warning)
    #expect(
      warning.message
        == "--known-managed-scheme ap2: the app does not query ap2 (it is not in LSApplicationQueriesSchemes), so "
        + "there is no twin to leave out")
    #expect(
      plan.findings.first { $0.id == "queried-scheme-known-managed" }?.message.hasPrefix(
        "no -intunemam twin for app1 (") == true)
  }

  @Test func anAppListOverTheLimitByItselfIsNamedFirst() throws {
    let plan = try AppConfigurator.plan(
      infoPlist: Self.queriedSchemesApp(60), entitlements: nil, options: IntuneConfiguratorOptions())
    let limit = try #require(plan.findings.first { $0.id == "queried-schemes-over-limit" })
    #expect(
      limit.message.hasPrefix(
        "LSApplicationQueriesSchemes will have 135 entries; the iOS 15–26 SDK honours the first 50, so "
          + "canOpenURL ignores 10 of the app's own (app51, app52, "))
    #expect(limit.message.contains("; 15 Intune entries the guide requires (http-intunemam, "))
    #expect(limit.fix?.hasPrefix(QueriedSchemesPlan.makeRoomRemedy) == true)
  }

  @Test func olderGuideHasNoFaceIDStepAndAShortList() throws {
    let plan = try plan(IntuneConfiguratorOptions(guide: .v2017))
    #expect(!plan.changes.contains { $0.kind == .faceIDUsageDescription })
    let queried = try #require(plan.changes.first { $0.kind == .queriedScheme })
    #expect(
      queried.summary
        == "add 5 schemes: http-intunemam, https-intunemam, ms-outlook-intunemam, msauthv2-intunemam, "
        + "msauthv3-intunemam")
  }
}
