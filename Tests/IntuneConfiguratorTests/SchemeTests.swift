import Testing

@testable import IntuneConfigurator

@Suite struct URLSchemeValidatorTests {
  @Test(arguments: [
    "myapp", "launch-com.contoso.myapp", "msauth.com.contoso.app", "x+y", "A1", "fb123456789",
  ])
  func acceptsRFC3986Schemes(_ scheme: String) {
    #expect(URLSchemeValidator.problem(with: scheme) == nil)
  }

  @Test(arguments: [
    ("", URLSchemeProblem.empty),
    ("1app", .mustStartWithLetter("1")),
    ("-app", .mustStartWithLetter("-")),
    ("my_app", .invalidCharacter("_", position: 2)),
    ("my app", .invalidCharacter(" ", position: 2)),
    ("msauth.com.contoso://auth", .invalidCharacter(":", position: 18)),
    ("émoji", .mustStartWithLetter("é")),
    ("$(MSAL_REDIRECT_URI)", .buildSetting("$(MSAL_REDIRECT_URI)")),
    ("msauth.$(PRODUCT_BUNDLE_IDENTIFIER)", .buildSetting("$(PRODUCT_BUNDLE_IDENTIFIER)")),
    ("${VAR}-x", .buildSetting("${VAR}")),
  ])
  func rejectsWithReason(_ scheme: String, _ expected: URLSchemeProblem) {
    #expect(URLSchemeValidator.problem(with: scheme) == expected)
  }

  @Test func messagesSayHowToFix() {
    #expect(
      URLSchemeProblem.invalidCharacter("_", position: 2).message
        == "has \"_\" at position 3, which a URL scheme cannot contain "
        + "(RFC 3986 allows letters, digits, \"+\", \"-\" and \".\")")
    #expect(URLSchemeProblem.buildSetting("$(X)").message.contains("add its -intunemam twin by hand"))
  }

  @Test func twins() {
    #expect(IntuneSchemes.twin(of: "myapp") == "myapp-intunemam")
    #expect(IntuneSchemes.isTwin("myapp-IntuneMAM"))
    #expect(!IntuneSchemes.isTwin("intunemam-mtd"))
  }
}

@Suite struct QueriedSchemesPlannerTests {
  @Test func twinsUserEntriesThenFixedListInGuideOrder() {
    let plan = QueriedSchemesPlanner.plan(existing: ["msauth", "companyportal"])
    #expect(
      plan.additions.map(\.scheme) == [
        "msauth-intunemam", "companyportal-intunemam", "http-intunemam", "https-intunemam",
        "microsoft-edge-http-intunemam", "microsoft-edge-https-intunemam", "smart-ns", "zips",
        "lacoonsecurity", "wandera", "lookoutwork-ase", "skycure", "betteractiveshield", "smsec",
        "mvisionmobile", "scmx", "intunemam-mtd",
      ])
    #expect(plan.additions[0].reason == .twinOf("msauth"))
    #expect(plan.problems.isEmpty)
    #expect(plan.ignoredByIOS.isEmpty)
  }

  @Test func idempotentOnItsOwnOutput() {
    let first = QueriedSchemesPlanner.plan(existing: ["msauth", "mailto"])
    let second = QueriedSchemesPlanner.plan(existing: ["msauth", "mailto"] + first.additions.map(\.scheme))
    #expect(second.additions.isEmpty)
  }

  @Test func mailtoMeansOutlookNotAMailtoTwin() {
    let plan = QueriedSchemesPlanner.plan(existing: ["mailto"])
    #expect(
      plan.additions.last
        == QueriedSchemeAddition(scheme: "ms-outlook-intunemam", reason: .outlook(.whenAppUsesMailto)))
    #expect(!plan.additions.map(\.scheme).contains("mailto-intunemam"))
    #expect(
      !QueriedSchemesPlanner.plan(existing: []).additions.map(\.scheme).contains("ms-outlook-intunemam"))
  }

  @Test func olderGuidesAlwaysWantOutlookAndAShortList() {
    let plan = QueriedSchemesPlanner.plan(existing: [], guide: .v2016)
    #expect(plan.additions.map(\.scheme) == ["http-intunemam", "https-intunemam", "ms-outlook-intunemam"])
  }

  @Test func comparesCaseInsensitivelyAndNeverTwinsTwinsOrPartnerSchemes() {
    let plan = QueriedSchemesPlanner.plan(existing: ["MyApp", "myapp-INTUNEMAM", "Wandera", "HTTP-intunemam"])
    let schemes = plan.additions.map(\.scheme)
    #expect(!schemes.contains("MyApp-intunemam"))
    #expect(!schemes.contains("myapp-INTUNEMAM-intunemam"))
    #expect(!schemes.contains("Wandera-intunemam"))
    #expect(!schemes.contains("wandera"))
    #expect(!schemes.contains("http-intunemam"))
  }

  @Test func invalidEntriesAreReportedAndLeftAlone() {
    let plan = QueriedSchemesPlanner.plan(existing: ["good", "$(MSAL_SCHEME)", "bad_one"])
    #expect(plan.problems.map(\.index) == [1, 2])
    #expect(!plan.additions.map(\.scheme).contains { $0.contains("$(") || $0.contains("_") })
  }

  @Test func namesWhatIOSWillIgnoreOverTheLimit() {
    let existing = (1...20).map { "app\($0)" }
    let plan = QueriedSchemesPlanner.plan(existing: existing, limit: .forIOSSDK(major: 27))
    // 20 entries + 20 twins + 15 fixed = 55; iOS 27 honours 25.
    #expect(plan.limit.maximum == 25)
    #expect(plan.ignoredByIOS.count == 55 - 25)
    #expect(plan.ignoredByIOS.first == "app6-intunemam")
    #expect(QueriedSchemesPlanner.plan(existing: existing).ignoredByIOS.count == 5)
  }
}

@Suite struct KeychainGroupsPlannerTests {
  @Test func emptyListGetsBundleIDFirstThenIntuneGroups() {
    let plan = KeychainGroupsPlanner.plan(existing: [], bundleID: "com.contoso.app")
    #expect(plan.bundleGroupToPrepend == "$(AppIdentifierPrefix)com.contoso.app")
    #expect(
      plan.additions == [
        "$(AppIdentifierPrefix)com.microsoft.intune.mam", "$(AppIdentifierPrefix)com.microsoft.adalcache",
      ])
    #expect(!plan.bundleIDNotFirst)
  }

  @Test func recognisesPrefixedAndTeamIDGroups() {
    let plan = KeychainGroupsPlanner.plan(
      existing: ["$(AppIdentifierPrefix)com.contoso.app", "ABCDE12345.com.microsoft.intune.mam"],
      bundleID: "com.contoso.app")
    #expect(plan.additions == ["$(AppIdentifierPrefix)com.microsoft.adalcache"])
    #expect(plan.bundleGroupToPrepend == nil)
    #expect(!plan.bundleIDNotFirst)
  }

  @Test func reportsBundleIDNotFirst() {
    let plan = KeychainGroupsPlanner.plan(
      existing: ["$(AppIdentifierPrefix)com.microsoft.intune.mam", "$(AppIdentifierPrefix)com.contoso.app"],
      bundleID: "com.contoso.app")
    #expect(plan.bundleIDNotFirst)
  }
}

@Suite struct SettingsSchemaTests {
  @Test(arguments: [("#1A2B3C", true), ("1a2b3c", true), ("#12345", false), ("#GGGGGG", false), ("", false)])
  func colours(_ text: String, _ valid: Bool) {
    #expect(IntuneMAMSettingsSchema.isValidColor(text) == valid)
  }

  @Test func versionsOfTheTable() throws {
    let debug = try #require(IntuneMAMSettingsSchema.definition(of: "DebugSettingsEnabled"))
    #expect(debug.isListed(in: .v2020))
    #expect(!debug.isListed(in: .v2023))
    let finish = try #require(IntuneMAMSettingsSchema.definition(of: "FinishLaunchingAtStartup"))
    #expect(!finish.isListed(in: .v2020))
    #expect(IntuneMAMSettingsSchema.definition(of: "AppGroupIdentitifiers") == nil)
  }
}
