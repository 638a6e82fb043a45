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
  @Test func fixedListInGuideOrderThenTwinsOfUserEntries() {
    let plan = QueriedSchemesPlanner.plan(existing: ["msauth", "companyportal"])
    #expect(
      plan.additions.map(\.scheme) == [
        "http-intunemam", "https-intunemam", "microsoft-edge-http-intunemam",
        "microsoft-edge-https-intunemam",
        "smart-ns", "zips", "lacoonsecurity", "wandera", "lookoutwork-ase", "skycure", "betteractiveshield",
        "smsec", "mvisionmobile", "scmx", "intunemam-mtd", "msauth-intunemam", "companyportal-intunemam",
      ])
    #expect(plan.additions[0].reason == .fixedList(.v2023))
    #expect(plan.additions[15].reason == .twinOf("msauth"))
    #expect(plan.problems.isEmpty)
    #expect(plan.ignoredByIOS.isEmpty)
  }

  @Test func outlookComesWithTheFixedEntriesBeforeTheTwins() {
    let plan = QueriedSchemesPlanner.plan(existing: ["mailto", "msauth"])
    #expect(plan.additions.map(\.scheme).suffix(2) == ["ms-outlook-intunemam", "msauth-intunemam"])
    #expect(plan.additions.filter(\.isDroppableTwin).map(\.scheme) == ["msauth-intunemam"])
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

  @Test func knownManagedAppSchemesGetNoTwin() {
    let plan = QueriedSchemesPlanner.plan(
      existing: ["msauth", "companyportal", "myapp"],
      knownManagedAppSchemes: ["MSAUTH", "companyportal-intunemam"])
    let twins = plan.additions.filter(\.isDroppableTwin).map(\.scheme)
    #expect(twins == ["myapp-intunemam"])
    #expect(plan.knownManagedSchemesWithoutTwin == ["msauth", "companyportal"])
    #expect(plan.unqueriedKnownManagedSchemes.isEmpty)
  }

  @Test func aTwinTheAppStillListsStaysAndIsNotReported() {
    let plan = QueriedSchemesPlanner.plan(
      existing: ["msauth", "msauth-intunemam"], knownManagedAppSchemes: ["msauth"])
    #expect(!plan.additions.map(\.scheme).contains("msauth-intunemam"))
    #expect(plan.knownManagedSchemesWithoutTwin.isEmpty)
    #expect(plan.unqueriedKnownManagedSchemes.isEmpty)
  }

  @Test func knownManagedSchemesTheAppDoesNotQueryAreNamed() {
    let plan = QueriedSchemesPlanner.plan(
      existing: ["msauth"], knownManagedAppSchemes: ["msauht", "msauth", "Zeta", "alpha-intunemam"])
    #expect(plan.unqueriedKnownManagedSchemes == ["Zeta", "alpha-intunemam", "msauht"])
  }

  @Test func invalidEntriesAreReportedAndLeftAlone() {
    let plan = QueriedSchemesPlanner.plan(existing: ["good", "$(MSAL_SCHEME)", "bad_one"])
    #expect(plan.problems.map(\.index) == [1, 2])
    #expect(!plan.additions.map(\.scheme).contains { $0.contains("$(") || $0.contains("_") })
  }

  @Test func namesWhatIOSWillIgnoreOverTheLimit() {
    let existing = (1...20).map { "app\($0)" }
    let plan = QueriedSchemesPlanner.plan(existing: existing, limit: .forIOSSDK(major: 27))
    // 20 entries + 15 fixed + 20 twins = 55; iOS 27 honours 25: 10 fixed entries and every twin are ignored.
    #expect(plan.limit.maximum == 25)
    #expect(plan.ignoredByIOS.count == 55 - 25)
    #expect(plan.ignoredByIOS.first == "zips")
    #expect(plan.ignoredExisting.isEmpty)
    #expect(plan.ignoredRequired.count == 10)
    #expect(plan.ignoredTwins == existing.map { $0 + "-intunemam" })
    #expect(QueriedSchemesPlanner.plan(existing: existing).ignoredByIOS.count == 5)
  }

  /// The same list as configured once (a second run, or a second group of configurations planned on top of
  /// the first: Proton Pass): what is ignored is the same fixed entries and twins, not "the app's own".
  @Test func aConfiguredListClassifiesItsIntuneEntriesByKind() {
    let existing = (1...20).map { "app\($0)" }
    let first = QueriedSchemesPlanner.plan(existing: existing, limit: .forIOSSDK(major: 27))
    let configured = existing + first.additions.map(\.scheme)
    let again = QueriedSchemesPlanner.plan(existing: configured, limit: .forIOSSDK(major: 27))
    #expect(again.additions.isEmpty)
    #expect(again.ignoredByIOS == first.ignoredByIOS)
    #expect(again.ignoredExisting.isEmpty)
    #expect(again.ignoredRequired == first.ignoredRequired)
    #expect(again.ignoredTwins == first.ignoredTwins)
  }

  /// 22 of the app's own schemes make 59 entries with the 15 fixed ones and 22 twins. Past the limit iOS
  /// ignores twins first: at 50 only twins; at 25 (iOS 27) the app's own list leaves room for 3 fixed entries.
  @Test(arguments: [(26, 50, 0, 9), (27, 25, 12, 22)])
  func aboutSixtyEntriesLoseTwinsBeforeFixedEntries(
    _ sdk: Int, _ limit: Int, _ requiredIgnored: Int, _ twinsIgnored: Int
  ) {
    let existing = (1...22).map { "app\($0)" }
    let plan = QueriedSchemesPlanner.plan(existing: existing, limit: .forIOSSDK(major: sdk))
    #expect(existing.count + plan.additions.count == 59)
    #expect(plan.limit.maximum == limit)
    #expect(plan.ignoredExisting.isEmpty)
    #expect(plan.ignoredRequired.count == requiredIgnored)
    #expect(plan.ignoredTwins.count == twinsIgnored)
    #expect(plan.ignoredTwins == Array(existing.suffix(twinsIgnored).map { $0 + "-intunemam" }))
    let honoured = Array((existing + plan.additions.map(\.scheme)).prefix(limit))
    #expect(honoured.prefix(existing.count).elementsEqual(existing))
  }

  /// 60 schemes of the app's own: the list is over either limit before anything is added, so everything
  /// added is ignored; the app's entries are still never removed or reordered.
  @Test(arguments: [(26, 10), (27, 35)])
  func sixtyOwnSchemesAreKeptAndTheOverflowNamed(_ sdk: Int, _ ownIgnored: Int) {
    let existing = (1...60).map { "app\($0)" }
    let plan = QueriedSchemesPlanner.plan(existing: existing, limit: .forIOSSDK(major: sdk))
    #expect(plan.ignoredExisting.count == ownIgnored)
    #expect(plan.ignoredExisting.last == "app60")
    #expect(plan.ignoredRequired.count == 15)
    #expect(plan.ignoredTwins.count == 60)
    #expect(plan.ignoredByIOS.count == ownIgnored + 75)
  }
}

@Suite("Build-setting references")
struct BuildSettingNameTests {
  @Test(
    "every reference is named, without its modifier",
    arguments: [
      ("com.example.app", [String]()),
      ("$(PRODUCT_BUNDLE_IDENTIFIER)", ["PRODUCT_BUNDLE_IDENTIFIER"]),
      ("group.${PRODUCT_BUNDLE_IDENTIFIER}", ["PRODUCT_BUNDLE_IDENTIFIER"]),
      ("$(PRODUCT_BUNDLE_IDENTIFIER:rfc1034identifier).share", ["PRODUCT_BUNDLE_IDENTIFIER"]),
      ("$(TEAM).$(PRODUCT_NAME)-intunemam", ["TEAM", "PRODUCT_NAME"]),
      ("msauth.$(PRODUCT_BUNDLE_IDENTIFIER_SUFFIX)", ["PRODUCT_BUNDLE_IDENTIFIER_SUFFIX"]),
      ("costs $5", []),
    ])
  func names(value: String, expected: [String]) {
    #expect(URLSchemeValidator.buildSettingNames(in: value) == expected)
  }

  @Test("only PRODUCT_BUNDLE_IDENTIFIER itself is the target's own ID")
  func ownBundleID() {
    #expect(Planner.refersToOwnBundleID("group.$(PRODUCT_BUNDLE_IDENTIFIER)"))
    #expect(Planner.refersToOwnBundleID("$(PRODUCT_BUNDLE_IDENTIFIER:rfc1034identifier)"))
    #expect(!Planner.refersToOwnBundleID("$(PRODUCT_BUNDLE_IDENTIFIER_SUFFIX)"))
    #expect(!Planner.refersToOwnBundleID("group.com.example.notes"))
  }
}
