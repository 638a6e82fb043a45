import ActivationRules
import Foundation
import PredicateSyntax
import PropertyLists
import Testing

@testable import IntuneConfigurator

@Suite struct ActivationRuleStepTests {
  let withApp = IntuneConfiguratorOptions(containingApp: ContainingApp(bundleIdentifier: "com.contoso.notes"))

  @Test func predicateRuleGetsTwinsAsATextEditKeepingEntities() throws {
    let plan = try AppConfigurator.plan(
      infoPlist: ConfiguratorFixtures.file("Share-Info.plist"), entitlements: nil, options: withApp)
    let change = try #require(plan.changes.first { $0.kind == .activationRule })
    #expect(
      change.summary == "accept com.microsoft.intune.mam.public.url, com.microsoft.intune.mam.public.image")
    let text = try #require(try plan.configuredInfoPlist().document).text
    try ConfiguratorFixtures.expectGolden(text, "Share-Info.configured.plist")
    #expect(
      text.contains("UTI-CONFORMS-TO &quot;com.microsoft.intune.mam.public.image&quot;\n    ).@count &gt; 0"))
    let again = try AppConfigurator.plan(
      infoPlist: plan.configuredInfoPlist(), entitlements: nil, options: withApp)
    #expect(again.changes.isEmpty)
  }

  @Test func dictionaryRuleBecomesTheIntunePredicate() throws {
    let plan = try AppConfigurator.plan(
      infoPlist: ConfiguratorFixtures.file("Action-Info.plist"), entitlements: nil, options: withApp)
    #expect(plan.changes.map(\.kind) == [.activationRule])
    let configured = try plan.configuredInfoPlist()
    let text = try #require(configured.document).text
    try ConfiguratorFixtures.expectGolden(text, "Action-Info.configured.plist")
    let rule = try #require(configured.value.value(at: Planner.rulePath)?.stringValue)
    #expect(rule.contains("com.microsoft.intune.mam.public.image"))
    let again = try AppConfigurator.plan(infoPlist: configured, entitlements: nil, options: withApp)
    #expect(again.changes.isEmpty)
  }

  /// A dictionary listing its types under a key iOS does not read (Anx Reader's `…SupportsFileWithType`,
  /// dokus' `…SupportsFileWithTypeIdentifiers`): converting would drop the list, so the rule is left as it
  /// is, with a warning at the key. Without that key, the rewrite keeps the dictionary's comments.
  @Test func dictionaryWithAnUnreadKeyIsLeftAsItIs() throws {
    let rule = """
      \t\t\t<dict>
      \t\t\t\t<!-- PDF and EPUB only -->
      \t\t\t\t<key>NSExtensionActivationSupportsFileWithMaxCount</key>
      \t\t\t\t<integer>10</integer>
      \t\t\t\t<key>NSExtensionActivationSupportsFileWithType</key>
      \t\t\t\t<array>
      \t\t\t\t\t<string>com.adobe.pdf</string>
      \t\t\t\t</array>
      \t\t\t</dict>
      """
    let body = { (rule: String) in
      """
      \t<key>NSExtension</key>
      \t<dict>
      \t\t<key>NSExtensionAttributes</key>
      \t\t<dict>
      \t\t\t<key>NSExtensionActivationRule</key>
      \(rule)
      \t\t</dict>
      \t\t<key>NSExtensionPointIdentifier</key>
      \t\t<string>com.apple.share-services</string>
      \t</dict>

      """
    }
    let plan = try AppConfigurator.plan(
      infoPlist: ConfiguratorFixtures.document(body: body(rule)), entitlements: nil, options: withApp)
    #expect(!plan.changes.contains { $0.kind == .activationRule })
    let warning = try #require(plan.findings.first { $0.id == "dictionary-rule-unread-keys" })
    #expect(warning.severity == .warning)
    #expect(warning.keyPath == Planner.rulePath.appending(.key("NSExtensionActivationSupportsFileWithType")))
    #expect(warning.position != nil)
    #expect(
      warning.message.hasPrefix(
        "the dictionary rule holds NSExtensionActivationSupportsFileWithType, which the system does not read")
    )
    #expect(warning.fix?.contains("rulekit convert --rule") == true)
    let text = try #require(try plan.configuredInfoPlist().document).text
    #expect(text.contains(rule))

    let withoutKey = rule.replacingOccurrences(
      of: "\t\t\t\t<key>NSExtensionActivationSupportsFileWithType</key>\n\t\t\t\t<array>\n"
        + "\t\t\t\t\t<string>com.adobe.pdf</string>\n\t\t\t\t</array>\n", with: "")
    let converted = try AppConfigurator.plan(
      infoPlist: ConfiguratorFixtures.document(body: body(withoutKey)), entitlements: nil, options: withApp)
    let change = try #require(converted.changes.first { $0.kind == .activationRule })
    #expect(change.summary == "convert the dictionary rule to a predicate that also accepts Intune types")
    let convertedText = try #require(try converted.configuredInfoPlist().document).text
    #expect(
      convertedText.contains(
        "<key>NSExtensionActivationRule</key>\n\t\t\t<!-- PDF and EPUB only -->\n\t\t\t<string>"))
  }

  @Test func openInExtensionGetsTheSingleFileTwinRule() throws {
    let app = try ConfiguratorFixtures.file("App-Info.plist")
    let options = IntuneConfiguratorOptions(containingApp: ContainingApp(infoPlist: app))
    let plan = try AppConfigurator.plan(
      infoPlist: ConfiguratorFixtures.file("OpenIn-Info.plist"), entitlements: nil, options: options)
    let change = try #require(plan.changes.first { $0.kind == .openInActivationRule })
    #expect(
      change.summary
        == "set the Open-In rule: one file of com.microsoft.intune.mam.public.plain-text, "
        + "com.microsoft.intune.mam.com.adobe.pdf")
    let configured = try plan.configuredInfoPlist()
    try ConfiguratorFixtures.expectGolden(
      try #require(configured.document).text, "OpenIn-Info.configured.plist")
    let again = try AppConfigurator.plan(infoPlist: configured, entitlements: nil, options: options)
    #expect(again.changes.isEmpty)
  }

  @Test func openInWithoutTheAppIsAnError() throws {
    let plan = try AppConfigurator.plan(
      infoPlist: ConfiguratorFixtures.file("OpenIn-Info.plist"), entitlements: nil, options: withApp)
    #expect(plan.findings.contains { $0.id == "open-in-app-unknown" && $0.severity == .error })
  }

  @Test func syntaxErrorInTheRuleIsReportedAtItsPlacInTheFile() throws {
    let text = """
      <plist version="1.0">
      <dict>
      \t<key>NSExtension</key>
      \t<dict>
      \t\t<key>NSExtensionAttributes</key>
      \t\t<dict>
      \t\t\t<key>NSExtensionActivationRule</key>
      \t\t\t<string>SUBQUERY(extensionItems, $e, ANY $e.attachments.registeredTypeIdentifiers
      \t\t\t\tUTI-CONFORMS-TO "public.text\u{201D}).@count == 1</string>
      \t\t</dict>
      \t</dict>
      </dict>
      </plist>
      """
    let file = try PropertyListFile(data: Data(text.utf8), path: "Ext/Info.plist")
    #expect {
      try AppConfigurator.plan(infoPlist: file, entitlements: nil, options: withApp)
    } throws: { error in
      guard let error = error as? ConfiguratorError, error.kind == .activationRule else { return false }
      return error.location == ConfiguratorError.Location(file: "Ext/Info.plist", line: 9, column: 33)
        && error.underlying is PredicateSyntaxError
        && error.description.hasPrefix("Ext/Info.plist:9:33: error: typographic quote")
    }
  }

  @Test func truePredicateIsReportedNotEdited() throws {
    let text = """
      <plist version="1.0"><dict><key>NSExtension</key><dict><key>NSExtensionAttributes</key><dict>\
      <key>NSExtensionActivationRule</key><string>TRUEPREDICATE</string></dict></dict></dict></plist>
      """
    let plan = try AppConfigurator.plan(
      infoPlist: PropertyListFile(data: Data(text.utf8), path: "Info.plist"), entitlements: nil,
      options: withApp)
    #expect(plan.findings.contains { $0.id == "activation-rule-truepredicate" })
    #expect(!plan.changes.contains { $0.kind == .activationRule })
  }

  /// Microsoft's shape of a dictionary reads each category in an item of its own, so it can accept other
  /// shares than the dictionary: configure still writes it (what IntuneMAMConfigurator writes), and warns
  /// with the smallest share each way and the command that keeps the dictionary's meaning.
  @Test(arguments: [
    (
      "<key>NSExtensionActivationDictionaryVersion</key><integer>2</integer>"
        + "<key>NSExtensionActivationSupportsWebURLWithMaxCount</key><integer>1</integer>",
      "it does not activate for [[public.url]] | [[public.url], [public.url]], which the dictionary does"
    ),
    (
      "<key>NSExtensionActivationDictionaryVersion</key><integer>2</integer>"
        + "<key>NSExtensionActivationSupportsText</key><true/>", nil
    ),
  ])
  func dictionaryWhoseIntuneFormMeansOtherSharesIsReported(_ keys: String, expected: String?) throws {
    let text = """
      <plist version="1.0"><dict><key>NSExtension</key><dict><key>NSExtensionAttributes</key><dict>\
      <key>NSExtensionActivationRule</key><dict>\(keys)</dict></dict></dict></dict></plist>
      """
    let plan = try AppConfigurator.plan(
      infoPlist: PropertyListFile(data: Data(text.utf8), path: "/work/Share/Info.plist"), entitlements: nil,
      options: withApp)
    #expect(plan.changes.contains { $0.kind == .activationRule })
    let finding = plan.findings.first { $0.id == "dictionary-rule-meaning-changed" }
    guard let expected else {
      #expect(finding == nil)
      return
    }
    #expect(finding?.severity == .warning)
    let gloss =
      " (a share is written as its extension items, separated by |, each a list of attachments, each "
      + "attachment the list of its types)"
    #expect(finding?.message.hasSuffix("twins aside: " + expected + gloss) == true)
    // The same fix whether or not the run writes: no path, no "if this run wrote it".
    #expect(
      finding?.fix
        == "to keep the dictionary's meaning, configure with --dictionary-style apple instead; if configure has "
        + "already replaced the dictionary with this predicate, put the dictionary back first (the style "
        + "applies to dictionary rules only)")
  }

  /// `dictionaryRuleStyle: .apple` writes the dictionary's own meaning with the twins added: no warning, the
  /// share Microsoft's shape refuses is accepted, a twin-only share too, and a second run changes nothing.
  @Test func dictionaryRuleKeepsItsMeaningWhenAsked() throws {
    let text = """
      <plist version="1.0"><dict><key>NSExtension</key><dict><key>NSExtensionAttributes</key><dict>\
      <key>NSExtensionActivationRule</key><dict>\
      <key>NSExtensionActivationDictionaryVersion</key><integer>2</integer>\
      <key>NSExtensionActivationSupportsWebURLWithMaxCount</key><integer>1</integer>\
      </dict></dict></dict></dict></plist>
      """
    var options = withApp
    options.dictionaryRuleStyle = .apple
    let plan = try AppConfigurator.plan(
      infoPlist: PropertyListFile(data: Data(text.utf8), path: "Info.plist"), entitlements: nil,
      options: options)
    #expect(!plan.findings.contains { $0.id == "dictionary-rule-meaning-changed" })
    let change = try #require(plan.changes.first { $0.kind == .activationRule })
    #expect(
      change.summary
        == "convert the dictionary rule to a predicate that keeps its meaning and also accepts Intune types")
    let configured = try plan.configuredInfoPlist()
    let rule = try #require(configured.value.value(at: Planner.rulePath)?.stringValue)
    let evaluator = RuleEvaluator(try PredicateParser.parse(rule))
    func context(_ items: [[String]]) -> ExtensionContext {
      ExtensionContext(
        extensionItems: items.map {
          ExtensionItem(attachments: $0.map { ExtensionAttachment(registeredTypeIdentifiers: [$0]) })
        })
    }
    #expect(evaluator.accepts(context([["public.url"], ["public.url", "public.url"]])))
    #expect(evaluator.accepts(context([["com.microsoft.intune.mam.public.url"]])))
    #expect(!evaluator.accepts(context([["public.url", "public.url"]])))
    let again = try AppConfigurator.plan(infoPlist: configured, entitlements: nil, options: options)
    #expect(again.changes.isEmpty)
  }

  /// An empty `<dict/>` rule (Leitmotif's share extension, found by the third sweep), or one of keys the
  /// system does not read, never activates: configure says so and leaves it, where it used to write
  /// FALSEPREDICATE with a change line claiming Intune types.
  @Test(arguments: [
    "<dict/>", "<dict><key>NSExtensionActivationSupportsAudioWithMaxCount</key><integer>1</integer></dict>",
  ])
  func dictionaryThatNeverActivatesIsReportedNotEdited(_ rule: String) throws {
    let text = """
      <plist version="1.0"><dict><key>NSExtension</key><dict><key>NSExtensionAttributes</key><dict>\
      <key>NSExtensionActivationRule</key>\(rule)</dict></dict></dict></plist>
      """
    let plan = try AppConfigurator.plan(
      infoPlist: PropertyListFile(data: Data(text.utf8), path: "Info.plist"), entitlements: nil,
      options: withApp)
    let finding = try #require(plan.findings.first { $0.id == "activation-rule-never-activates" })
    #expect(finding.severity == .warning)
    #expect(!plan.changes.contains { $0.kind == .activationRule })
  }
}

@Suite struct ExtensionKeychainTests {
  @Test func extensionMayListItsAppsBundleIDFirst() throws {
    let plan = try AppConfigurator.plan(
      infoPlist: ConfiguratorFixtures.file("Share-Info.plist"),
      entitlements: PropertyListFile(
        data: Data(
          """
          <plist version="1.0"><dict><key>keychain-access-groups</key><array>\
          <string>$(AppIdentifierPrefix)com.contoso.notes</string></array></dict></plist>
          """.utf8), path: "Share.entitlements"),
      options: IntuneConfiguratorOptions(containingApp: ContainingApp(bundleIdentifier: "com.contoso.notes")))
    #expect(!plan.findings.contains { $0.id == "keychain-bundle-id-not-first" })
    let other = try AppConfigurator.plan(
      infoPlist: ConfiguratorFixtures.file("Share-Info.plist"),
      entitlements: PropertyListFile(
        data: Data(
          """
          <plist version="1.0"><dict><key>keychain-access-groups</key><array>\
          <string>$(AppIdentifierPrefix)com.other</string></array></dict></plist>
          """.utf8), path: "Share.entitlements"),
      options: IntuneConfiguratorOptions(containingApp: ContainingApp(bundleIdentifier: "com.contoso.notes")))
    let finding = try #require(other.findings.first { $0.id == "keychain-bundle-id-not-first" })
    // The extension's own identifier, and a group the list lacks: added, not "moved".
    #expect(finding.message.contains("is not this extension's bundle ID"))
    #expect(finding.fix?.hasPrefix("add $(AppIdentifierPrefix)") == true)
    #expect(finding.fix?.contains(" as the first entry of keychain-access-groups ") == true)
  }

  /// Element X's first group is $(KEYCHAIN_ACCESS_GROUP_IDENTIFIER) = $(DEVELOPMENT_TEAM).$(PRODUCT_BUNDLE_IDENTIFIER):
  /// the bundle ID behind the team prefix, which the App ID prefix normally is. It was reported as not first,
  /// with a fix ("move …") naming an entry the file does not have.
  @Test func groupSpeltWithSettingsIsTheBundleIDBehindTheTeamPrefix() throws {
    let settings = [
      "KEYCHAIN_ACCESS_GROUP_IDENTIFIER": "7J4U792NQT.io.element.elementx",
      "PRODUCT_BUNDLE_IDENTIFIER": "io.element.elementx",
    ]
    var options = IntuneConfiguratorOptions()
    options.buildConfigurations = ["Debug", "Release"].map { name in
      BuildConfigurationExpansion(configuration: name) { text in
        settings.reduce(text) { $0.replacingOccurrences(of: "$(\($1.key))", with: $1.value) }
      }
    }
    let plan = try AppConfigurator.plan(
      infoPlist: ConfiguratorFixtures.file("App-Info.plist"),
      entitlements: PropertyListFile(
        data: Data(
          """
          <plist version="1.0"><dict><key>keychain-access-groups</key><array>\
          <string>$(KEYCHAIN_ACCESS_GROUP_IDENTIFIER)</string></array></dict></plist>
          """.utf8), path: "App.entitlements"),
      options: options)
    #expect(!plan.findings.contains { $0.id == "keychain-bundle-id-not-first" })
  }

  /// Simplenote's entitlements spell the bundle ID `$(CFBundleIdentifier)`, which Xcode expands in
  /// entitlements but an Info.plist does not: `group.$(CFBundleIdentifier)` was copied as written into
  /// AppGroupIdentifiers (`group.` on a device), and the keychain group was "not first" yet not missing.
  @Test(
    "$(CFBundleIdentifier) in entitlements is the Info.plist's own bundle ID",
    arguments: [
      ("$(PRODUCT_BUNDLE_IDENTIFIER)", "group.$(PRODUCT_BUNDLE_IDENTIFIER)"),
      ("com.example.notes", "group.com.example.notes"),
    ])
  func cfBundleIdentifierInEntitlements(_ bundleID: String, _ expectedGroup: String) throws {
    let info = try PropertyListFile(
      data: Data(
        """
        <plist version="1.0"><dict><key>CFBundleIdentifier</key><string>\(bundleID)</string>\
        <key>CFBundlePackageType</key><string>APPL</string></dict></plist>
        """.utf8), path: "Info.plist")
    let entitlements = try PropertyListFile(
      data: Data(
        """
        <plist version="1.0"><dict><key>com.apple.security.application-groups</key><array>\
        <string>group.$(CFBundleIdentifier)</string></array><key>keychain-access-groups</key><array>\
        <string>$(AppIdentifierPrefix)${CFBundleIdentifier}</string></array></dict></plist>
        """.utf8), path: "App.entitlements")
    var options = IntuneConfiguratorOptions()
    options.fixEntitlements = true
    let plan = try AppConfigurator.plan(infoPlist: info, entitlements: entitlements, options: options)
    let configured = try plan.configuredInfoPlist()
    #expect(
      configured.value.dictionaryValue?["IntuneMAMSettings"]?.dictionaryValue?["AppGroupIdentifiers"]
        == .array([.string(expectedGroup)]))
    #expect(!plan.findings.contains { $0.id == "keychain-bundle-id-not-first" })
    let groups = try plan.configuredEntitlements()?.value.dictionaryValue?["keychain-access-groups"]?
      .arrayValue
    // The bundle-ID group is there already: only Intune's two are added, after it.
    #expect(
      groups
        == [
          "$(AppIdentifierPrefix)${CFBundleIdentifier}", "$(AppIdentifierPrefix)com.microsoft.intune.mam",
          "$(AppIdentifierPrefix)com.microsoft.adalcache",
        ].map(PropertyListValue.string))
  }
}

/// An ExtensionKit extension (an App Intents extension: Nextcloud Talk's TalkIntents) describes itself in
/// `EXAppExtensionAttributes`, not `NSExtension`: it was planned as an app (ADAL settings, queried schemes).
@Suite struct ExtensionKitTargetTests {
  @Test func extensionKitInfoPlistIsAnExtension() throws {
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict>
      <key>CFBundleIdentifier</key><string>com.contoso.notes.intents</string>
      <key>EXAppExtensionAttributes</key><dict>
      <key>EXExtensionPointIdentifier</key><string>com.apple.appintents-extension</string>
      </dict></dict></plist>
      """
    let plan = try AppConfigurator.plan(
      infoPlist: PropertyListFile(data: Data(text.utf8), path: "Info.plist"), entitlements: nil,
      options: IntuneConfiguratorOptions(containingApp: ContainingApp(bundleIdentifier: "com.contoso.notes")))
    #expect(plan.target == .appExtension(pointIdentifier: "com.apple.appintents-extension"))
    #expect(plan.changes.contains { $0.kind == .containingAppBundleID })
    #expect(!plan.changes.contains { $0.kind == .queriedScheme })
    #expect(!plan.findings.contains { $0.id == "settings-client-id-missing" })
  }
}
