import Foundation
import PropertyLists
import Testing
import XcodeProjects

@testable import IntuneConfigurator

/// A copy of one real project from `Tests/Fixtures/xcode-projects` in a temporary folder, so it can be
/// configured and read back.
struct CorpusProject: CustomTestStringConvertible, Sendable {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/xcode-projects")

  let name: String
  /// The `.xcodeproj`, relative to the project's folder.
  let project: String
  let app: String

  var testDescription: String { name }

  /// Every corpus project that has an `.xcodeproj` (XcodeGen-only folders have none to configure).
  static let all: [CorpusProject] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path))?.sorted() ?? []
    return names.compactMap { name in
      let expected = root.appendingPathComponent(name).appendingPathComponent("expected.json")
      guard let data = try? Data(contentsOf: expected),
        let document = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        let project = document["project"] as? String, let app = document["app"] as? String
      else { return nil }
      return CorpusProject(name: name, project: project, app: app)
    }
  }()

  /// Copies the project's folder into a new temporary folder and returns the copy's `.xcodeproj` path.
  func copy() throws -> String {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "rk-corpus-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    let destination = scratch.appendingPathComponent(name)
    try FileManager.default.copyItem(at: Self.root.appendingPathComponent(name), to: destination)
    return destination.appendingPathComponent(project).path
  }
}

@Suite("configure --project on real projects: right in every configuration, and a second run changes nothing")
struct ProjectCorpusTests {
  @Test("the corpus has the projects the acceptance names")
  func corpusIsThere() {
    #expect(CorpusProject.all.count >= 18)
  }

  @Test(arguments: CorpusProject.all)
  func configuredProjectIsRightInEveryConfiguration(_ corpus: CorpusProject) throws {
    let path = try corpus.copy()
    defer {
      try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path)
    }
    let options = IntuneConfiguratorOptions(fixEntitlements: true)
    let plan = try ProjectConfigurator.plan(
      project: try XcodeProject(path: path), appTarget: corpus.app, options: options)
    #expect(!plan.isBlocked, "\(plan.findings.filter { $0.severity == .error })")
    try plan.write()

    // Read back through the project as Xcode would build it.
    let project = try XcodeProject(path: path)
    let app = try #require(project.target(named: corpus.app))
    var appIdentifiers: [String: String] = [:]
    for configuration in project.configurationNames(for: app) {
      let settings = try project.buildSettings(target: app, configuration: configuration)
      let info = try Self.infoPlist(settings)
      // The app's IntuneMAMSettings holds what the configurator can know: its app groups. An app with none
      // (Discourse, Hackers) gets no dictionary; the client ID and redirect are the developer's to add.
      if try !Self.appGroups(settings).isEmpty {
        #expect(info["IntuneMAMSettings"]?.dictionaryValue != nil, "\(corpus.name) \(configuration)")
      }
      appIdentifiers[configuration] = settings.expand(
        info["CFBundleIdentifier"]?.stringValue ?? "$(PRODUCT_BUNDLE_IDENTIFIER)")
    }
    // Every corpus app embeds something; CoolSpot's only embedded target is a WatchKit 1 extension, which
    // is not an app extension RuleKit configures.
    let embedded = project.embeddedTargets(of: app)
    #expect(!embedded.isEmpty)
    // BlueWallet's iMessage sticker pack has no code: left alone (a codeless-extension note).
    let extensions = embedded.filter { $0.isAppExtension && !$0.isCodeless }
    for target in extensions {
      for configuration in project.configurationNames(for: target) {
        let settings = try project.buildSettings(target: target, configuration: configuration)
        let settingsDictionary = try #require(
          try Self.infoPlist(settings)["IntuneMAMSettings"]?.dictionaryValue)
        let written = try #require(settingsDictionary["ContainingAppBundleId"]?.stringValue)
        let expected = appIdentifiers[configuration] ?? appIdentifiers.values.first
        #expect(
          settings.expand(written) == expected,
          "\(corpus.name) › \(target.name) › \(configuration): \(written) → \(settings.expand(written))")
        // Every extension has an entitlements file now (--fix-entitlements), wired into its settings.
        let entitlementsPath = try #require(settings.path(for: "CODE_SIGN_ENTITLEMENTS"), "\(target.name)")
        let entitlements = try PropertyListFile.read(contentsOf: entitlementsPath)
        // AppGroupIdentifiers names this configuration's app groups, whatever the other configurations use.
        let groups = Set(
          entitlements.value.dictionaryValue?["com.apple.security.application-groups"]?.arrayValue?
            .compactMap(\.stringValue).map(settings.expand) ?? [])
        let listed = Set(
          settingsDictionary["AppGroupIdentifiers"]?.arrayValue?.compactMap(\.stringValue).map(
            settings.expand)
            ?? [])
        #expect(listed == groups, "\(corpus.name) › \(target.name) › \(configuration)")
      }
    }

    // A second run plans nothing and writes nothing.
    let again = try ProjectConfigurator.plan(project: project, appTarget: corpus.app, options: options)
    #expect(
      again.isEmpty,
      "\(again.buildSettings.map(\.edit.description)) \(again.targets.flatMap(\.plan.changes).map(\.summary))"
    )
    #expect(try again.filesToWrite().isEmpty)
  }

  /// The app groups of the target's entitlements in this configuration, expanded.
  static func appGroups(_ settings: ResolvedBuildSettings) throws -> Set<String> {
    guard let path = settings.path(for: "CODE_SIGN_ENTITLEMENTS") else { return [] }
    let entitlements = try PropertyListFile.read(contentsOf: path)
    return Set(
      entitlements.value.dictionaryValue?["com.apple.security.application-groups"]?.arrayValue?
        .compactMap(\.stringValue).map(settings.expand) ?? [])
  }

  static func infoPlist(_ settings: ResolvedBuildSettings) throws -> PropertyListDictionary {
    let path = try #require(settings.path(for: "INFOPLIST_FILE"))
    return try #require(
      PropertyListFile.read(contentsOf: path, duplicateKeys: .keepLast).value.dictionaryValue)
  }
}

@Suite("configure --project keeps every line of Info.plists Xcode reads leniently")
struct ProjectLenientInfoPlistTests {
  /// Whether every line of `original` appears in `configured`, in the same order (only insertions).
  static func keepsEveryLine(_ original: String, _ configured: String) -> Bool {
    var remaining = configured.split(separator: "\n", omittingEmptySubsequences: false)[...]
    for line in original.split(separator: "\n", omittingEmptySubsequences: false) {
      guard let index = remaining.firstIndex(of: line) else { return false }
      remaining = remaining[remaining.index(after: index)...]
    }
    return true
  }

  static func corpus(_ name: String) throws -> CorpusProject {
    try #require(CorpusProject.all.first { $0.name == name })
  }

  @Test(
    "an INFOPLIST_PREPROCESS Info.plist with #ifdef, #include and #endif lines configures, every line kept")
  func preprocessedInfoPlist() throws {
    // cow-dance sets INFOPLIST_PREPROCESS = YES; its files have no directives yet, so the test adds some
    // (no permissively licensed real Info.plist with directive lines was found: Tests/Fixtures/xcode-projects).
    let path = try Self.corpus("cow-dance").copy()
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    let info = folder.appendingPathComponent("ShareExtension/Info.plist")
    let text = try String(contentsOf: info, encoding: .utf8)
    let preprocessed = text.replacing(
      "<dict>\n",
      with:
        "<dict>\n#include \"Shared.h\"\n#ifdef DEBUG\n\t<key>DebugOnly</key>\n\t<string>yes</string>\n#endif\n",
      maxReplacements: 1)
    try preprocessed.write(to: info, atomically: true, encoding: .utf8)

    let plan = try ProjectConfigurator.plan(
      project: try XcodeProject(path: path), appTarget: "CowDance (iOS)")
    #expect(!plan.isBlocked, "\(plan.findings)")
    try plan.write()
    let configured = try String(contentsOf: info, encoding: .utf8)
    #expect(configured != preprocessed)
    #expect(Self.keepsEveryLine(preprocessed, configured))
    // The directives still enclose only what they enclosed.
    #expect(configured.contains("#ifdef DEBUG\n\t<key>DebugOnly</key>\n\t<string>yes</string>\n#endif\n"))
    let read = try PropertyListFile.read(
      contentsOf: info.path, preprocessing: PropertyListPreprocessing(definitions: ["DEBUG": "1"]))
    let settings = try #require(read.value.dictionaryValue?["IntuneMAMSettings"]?.dictionaryValue)
    #expect(settings["ContainingAppBundleId"]?.stringValue == "dance.cow.tracker")
    #expect(read.value.dictionaryValue?["DebugOnly"] == .string("yes"))
    let again = try ProjectConfigurator.plan(
      project: try XcodeProject(path: path), appTarget: "CowDance (iOS)")
    #expect(again.isEmpty)
  }

  /// The cases of a URL scheme spelled as a macro of the Info.plist's prefix header: the header's text (nil:
  /// the header is missing, as when a build phase generates it), the twin expected in the Info.plist (nil:
  /// none) and the id of the finding expected at the scheme (nil: none).
  static let macroSchemeCases: [(header: String?, twin: String?, finding: String?)] = [
    (
      "// Written by a build phase\n#define DOTCOM_AUTH_SCHEME woocommerce /* the app */\n",
      "DOTCOM_AUTH_SCHEME-intunemam", nil
    ),
    (
      "#define WOO_BASE woocommerce\n#define DOTCOM_AUTH_SCHEME \\\n  WOO_BASE\n",
      "DOTCOM_AUTH_SCHEME-intunemam", nil
    ),
    (nil, nil, "url-scheme-macro"),
    ("#define DOTCOM_AUTH_SCHEME woo_commerce\n", nil, "url-scheme-invalid"),
    ("#ifdef DEBUG\n#define DOTCOM_AUTH_SCHEME woocommerce\n#endif\n", nil, "url-scheme-macro"),
  ]

  @Test(
    "a URL scheme that is a macro of the prefix header gets its twin as NAME-intunemam, which cpp expands",
    arguments: macroSchemeCases.indices)
  func urlSchemeMacroOfThePrefixHeader(_ index: Int) throws {
    // WooCommerce iOS writes `<string>DOTCOM_AUTH_SCHEME</string>` in CFBundleURLSchemes and defines it in an
    // INFOPLIST_PREFIX_HEADER a build phase generates (GPL, so not vendored); cow-dance sets
    // INFOPLIST_PREPROCESS = YES, and the test adds the scheme and the header setting to a copy.
    let (header, twin, findingID) = Self.macroSchemeCases[index]
    let path = try Self.corpus("cow-dance").copy()
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    let pbxproj = URL(fileURLWithPath: path).appendingPathComponent("project.pbxproj")
    let project = try String(contentsOf: pbxproj, encoding: .utf8).replacing(
      "INFOPLIST_PREPROCESS = YES;",
      with: "INFOPLIST_PREFIX_HEADER = InfoPlist.h;\n\t\t\t\tINFOPLIST_PREPROCESS = YES;")
    try project.write(to: pbxproj, atomically: true, encoding: .utf8)
    if let header {
      try header.write(to: folder.appendingPathComponent("InfoPlist.h"), atomically: true, encoding: .utf8)
    }
    let info = folder.appendingPathComponent("CowDance--iOS--Info.plist")
    let scheme =
      "\t<key>CFBundleURLTypes</key>\n\t<array>\n\t\t<dict>\n\t\t\t<key>CFBundleURLSchemes</key>\n\t\t\t<array>\n"
      + "\t\t\t\t<string>DOTCOM_AUTH_SCHEME</string>\n\t\t\t</array>\n\t\t</dict>\n\t</array>\n"
    let text = try String(contentsOf: info, encoding: .utf8).replacing(
      "<dict>\n", with: "<dict>\n" + scheme, maxReplacements: 1)
    try text.write(to: info, atomically: true, encoding: .utf8)

    let plan = try ProjectConfigurator.plan(
      project: try XcodeProject(path: path), appTarget: "CowDance (iOS)")
    let app = try #require(plan.targets.first)
    let atScheme = app.plan.findings.filter { $0.keyPath.description.contains("CFBundleURLSchemes") }
    #expect(atScheme.map(\.id) == (findingID.map { [$0] } ?? []), "\(atScheme)")
    if findingID == "url-scheme-macro" {
      let finding = try #require(atScheme.first)
      #expect(finding.message.contains("DOTCOM_AUTH_SCHEME"))
      #expect(
        finding.message.contains(header == nil ? "InfoPlist.h" : "Debug, Release"), "\(finding.message)")
      #expect(finding.fix?.contains("\"DOTCOM_AUTH_SCHEME-intunemam\"") == true)
    }
    try plan.write()
    let schemes = try PropertyListFile.read(contentsOf: info.path).value.dictionaryValue?["CFBundleURLTypes"]?
      .arrayValue?.first?.dictionaryValue?["CFBundleURLSchemes"]?.arrayValue?.compactMap(\.stringValue)
    #expect(schemes == ["DOTCOM_AUTH_SCHEME"] + (twin.map { [$0] } ?? []))
  }

  @Test("lint --project reads INFOPLIST_PREPROCESS Info.plists with the target's macros, positions kept")
  func lintReadsPreprocessedInfoPlists() throws {
    // Real apps do this (ownCloud's iOS app wraps NSAppTransportSecurity in #ifndef DISABLE_PLAIN_HTTP;
    // GPL, so not vendored): cow-dance sets INFOPLIST_PREPROCESS = YES, and the test adds directive lines
    // to the extension's and the app's Info.plist, above the keys the findings point at.
    let path = try Self.corpus("cow-dance").copy()
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    let directives =
      "<dict>\n#include \"Shared.h\"\n#ifndef RELEASE\n\t<key>DebugOnly</key>\n\t<true/>\n#endif\n"
    var texts: [String: String] = [:]
    for name in ["ShareExtension/Info.plist", "CowDance--iOS--Info.plist"] {
      let file = folder.appendingPathComponent(name)
      let text = try String(contentsOf: file, encoding: .utf8).replacing(
        "<dict>\n", with: directives, maxReplacements: 1)
      try text.write(to: file, atomically: true, encoding: .utf8)
      texts[name] = text
    }
    let report = try ProjectLinter().lint(try XcodeProject(path: path))
    #expect(report.ruleFiles.contains { $0.hasSuffix("ShareExtension/Info.plist") })
    let inInfoPlists = report.findings.map(\.finding).filter { $0.file.hasSuffix("Info.plist") }
    // The extension's rule was linted (cow-dance's is TRUEPREDICATE), and the app's plan was reported.
    #expect(inInfoPlists.contains { $0.check == "true-predicate" })
    #expect(inInfoPlists.contains { $0.check == "queried-scheme" })
    for finding in inInfoPlists {
      // At the element the finding is about, never the 1:1 of a file the lint could not read.
      let name = try #require(texts.keys.first { finding.file.hasSuffix($0) })
      let lines = try #require(texts[name]).split(separator: "\n", omittingEmptySubsequences: false)
      #expect(finding.line > 1 && finding.line <= lines.count, "\(finding.check) at \(finding.line)")
      let line = lines[max(0, min(finding.line, lines.count) - 1)]
      #expect(line.contains("<"), "\(finding.check): \(line)")
      #expect(!line.contains("#"), "\(finding.check): \(line)")
    }
  }

  @Test("an Info.plist with a repeated key (DuckDuckGo's) configures with a warning, every line kept")
  func duplicateKeyInfoPlist() throws {
    let path = try Self.corpus("duckduckgo").copy()
    let info = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(
      "DuckDuckGo/Info.plist")
    let original = try String(contentsOf: info, encoding: .utf8)
    let plan = try ProjectConfigurator.plan(project: try XcodeProject(path: path), appTarget: "DuckDuckGo")
    let warnings = plan.targets.flatMap(\.plan.findings).filter { $0.id == "duplicate-key" }
    #expect(!warnings.isEmpty)
    #expect(warnings.allSatisfy { $0.severity == .warning && $0.position != nil })
    #expect(!plan.isBlocked)
    try plan.write()
    let configured = try String(contentsOf: info, encoding: .utf8)
    #expect(configured != original)
    #expect(Self.keepsEveryLine(original, configured))
  }
}

@Suite("configure --project compares what Xcode builds")
struct ProjectResolvedChecksTests {
  @Test(
    "a first keychain group spelt with other settings counts as the bundle ID when it expands to it",
    arguments: [
      ("home-assistant", "App", "App"), ("netnewswire", "NetNewsWire-iOS", "NetNewsWire iOS Share Extension"),
      // DuckDuckGo's app lists another group first (a true finding); its credential provider lists $(APP_ID).
      ("duckduckgo", "DuckDuckGo", "AutofillCredentialProvider"),
    ])
  func keychainGroupSpeltWithSettings(_ name: String, _ app: String, _ target: String) throws {
    let corpus = try #require(CorpusProject.all.first { $0.name == name })
    let project = try XcodeProject(path: try corpus.copy())
    let plan = try ProjectConfigurator.plan(project: project, appTarget: app)
    let planned = plan.targets.filter { $0.targetName == target }
    #expect(!planned.isEmpty)
    let falseAlarms = planned.flatMap(\.plan.findings).filter { $0.id == "keychain-bundle-id-not-first" }
    #expect(falseAlarms.isEmpty, "\(falseAlarms.map(\.message))")

    // The same files planned alone, without the project's settings, cannot tell: the check fires. This is
    // what the project run fixes, so the control shows the test exercises it.
    let first = try #require(planned.first)
    let alone = try AppConfigurator.plan(
      infoPlist: first.plan.infoPlist, entitlements: first.plan.entitlements,
      options: IntuneConfiguratorOptions(containingApp: ContainingApp(bundleIdentifier: "com.example.app")))
    #expect(alone.findings.contains { $0.id == "keychain-bundle-id-not-first" })
  }

  @Test(
    "a URL scheme spelt with a build setting gets its twin when every configuration expands it to a scheme")
  func urlSchemeSpeltWithASetting() throws {
    let corpus = try #require(CorpusProject.all.first { $0.name == "brave" })
    let plan = try ProjectConfigurator.plan(
      project: try XcodeProject(path: try corpus.copy()), appTarget: "Client")
    let app = plan.targets.filter { $0.targetName == "Client" }
    #expect(!app.isEmpty)
    let twins = app.flatMap(\.plan.changes).filter { $0.kind == .urlSchemeTwin }.map(\.summary)
    #expect(twins.contains { $0.contains("$(BRAVE_URL_SCHEME)-intunemam") }, "\(twins)")
    #expect(!app.flatMap(\.plan.findings).contains { $0.id == "url-scheme-build-setting" })
    // Alone, the file cannot say what $(BRAVE_URL_SCHEME) is: the scheme is reported, not twinned.
    let first = try #require(app.first)
    let alone = try AppConfigurator.plan(infoPlist: first.plan.infoPlist, entitlements: nil)
    #expect(alone.findings.contains { $0.id == "url-scheme-build-setting" })
  }

  @Test(
    "an app that generates its Info.plist gets one holding only what Intune needs, wired into the project")
  func generatedInfoPlist() throws {
    let corpus = try #require(CorpusProject.all.first { $0.name == "privygallery" })
    let path = try corpus.copy()
    let plan = try ProjectConfigurator.plan(
      project: try XcodeProject(path: path), appTarget: "SecurityFolder")
    let app = try #require(plan.targets.first { $0.targetName == "SecurityFolder" })
    #expect(app.createsInfoPlist)
    #expect(app.infoPlistPath.hasSuffix("/SecurityFolder-Info.plist"))
    #expect(
      plan.buildSettings.filter { $0.edit.name == "INFOPLIST_FILE" }.map(\.edit.value).allSatisfy {
        $0 == "SecurityFolder-Info.plist"
      })
    try plan.write()
    let created = try PropertyListFile.read(contentsOf: app.infoPlistPath).value.dictionaryValue
    #expect(created?["IntuneMAMSettings"] != nil)
    // INFOPLIST_KEY_NSFaceIDUsageDescription already supplies the key: not added again.
    #expect(created?["NSFaceIDUsageDescription"] == nil)
    #expect(created?["CFBundleIdentifier"] == nil)
  }

  @Test("an entitlements file several targets share is written once, with every target's changes")
  func sharedEntitlementsWrittenOnce() throws {
    let corpus = try #require(CorpusProject.all.first { $0.name == "home-assistant" })
    let path = try corpus.copy()
    let plan = try ProjectConfigurator.plan(
      project: try XcodeProject(path: path), appTarget: "App",
      options: IntuneConfiguratorOptions(fixEntitlements: true))
    let shared = plan.targets.compactMap(\.entitlementsPath).filter {
      $0.hasSuffix("/Extension-ios.entitlements")
    }
    #expect(shared.count > 1)
    let files = try plan.filesToWrite().map(\.path)
    #expect(files.count == Set(files).count)
    #expect(files.filter { $0.hasSuffix("/Extension-ios.entitlements") }.count == 1)
  }

  @Test("an extension that two apps embed is configured for the app named, with a warning naming the other")
  func extensionEmbeddedInTwoApps() throws {
    // Rocket.Chat's React Native project embeds ShareRocketChatRN and NotificationService in RocketChatRN
    // (chat.rocket.reactnative) and in Rocket.Chat (chat.rocket.ios); one Info.plist cannot name both.
    let corpus = try #require(CorpusProject.all.first { $0.name == "rocket-chat-rn" })
    let project = try XcodeProject(path: try corpus.copy())
    let plan = try ProjectConfigurator.plan(project: project, appTarget: "RocketChatRN")
    let warnings = plan.findings.filter { $0.id == "extension-in-several-apps" }
    #expect(warnings.count == 2, "\(warnings.map(\.message))")
    for warning in warnings {
      #expect(warning.severity == .warning)
      #expect(warning.location?.line != nil)
      #expect(warning.message.contains("Rocket.Chat (chat.rocket.ios)"), "\(warning.message)")
      #expect(warning.message.contains("RocketChatRN (chat.rocket.reactnative)"), "\(warning.message)")
      #expect(warning.fix != nil)
    }
    #expect(!plan.isBlocked)
    // The other way round names the other app; a project whose extensions one app embeds says nothing.
    let other = try ProjectConfigurator.plan(project: project, appTarget: "Rocket.Chat")
    #expect(
      other.findings.filter { $0.id == "extension-in-several-apps" }.allSatisfy {
        $0.message.contains("RocketChatRN (chat.rocket.reactnative)")
      })
    let limit = try #require(CorpusProject.all.first { $0.name == "limit" })
    let single = try ProjectConfigurator.plan(
      project: try XcodeProject(path: try limit.copy()), appTarget: "Limit")
    #expect(!single.findings.contains { $0.id == "extension-in-several-apps" })
  }

  @Test("the lint of a project whose extensions two apps embed warns once per extension")
  func lintWarnsOnceAboutASharedExtension() throws {
    let corpus = try #require(CorpusProject.all.first { $0.name == "rocket-chat-rn" })
    let report = try ProjectLinter().lint(try XcodeProject(path: try corpus.copy()))
    let warnings = report.findings.filter { $0.finding.check == "extension-in-several-apps" }
    // ShareRocketChatRN and NotificationService, each planned for both apps.
    #expect(warnings.count == 2, "\(warnings.map(\.finding.message))")
    #expect(Set(warnings.map(\.finding.line)).count == 2)
  }

  @Test("an extension whose identifier is not under the app's in some configuration is named, with where")
  func extensionIdentifierNotPrefixed() throws {
    // Focus's enterprise configurations keep the intents and widget extensions' plain identifiers
    // (org.mozilla.ios.Focus.Widgets under org.mozilla.ios.Focus.enterprise): Xcode refuses that build.
    let corpus = try #require(CorpusProject.all.first { $0.name == "focus" })
    let plan = try ProjectConfigurator.plan(
      project: try XcodeProject(path: try corpus.copy()), appTarget: "Blockzilla")
    let warnings = plan.findings.filter { $0.id == "extension-identifier-not-prefixed" }
    #expect(warnings.count == 2, "\(warnings.map(\.message))")
    let widgets = try #require(warnings.first { $0.message.hasPrefix("WidgetsExtension's") })
    #expect(widgets.severity == .warning)
    #expect(
      widgets.message.contains(
        "FocusEnterprise: org.mozilla.ios.Focus.Widgets under org.mozilla.ios.Focus.enterprise"))
    #expect(
      widgets.message.contains(
        "KlarEnterprise: org.mozilla.ios.Klar.Widgets under org.mozilla.ios.Klar.enterprise"))
    #expect(!widgets.message.contains("FocusRelease"))
    // At the FocusEnterprise assignment of the widget's identifier.
    #expect(widgets.location?.file.hasSuffix("Blockzilla.xcodeproj/project.pbxproj") == true)
    #expect(widgets.location?.line != nil)
    #expect(!plan.findings.contains { $0.message.hasPrefix("ShareExtension's") })
    #expect(!plan.isBlocked)
    // Brave's Debug identifiers depend on a gitignored xcconfig ('' for the app, '.ShareExtension' for the
    // extension without it): unknown, so not reported.
    let brave = try #require(CorpusProject.all.first { $0.name == "brave" })
    let bravePlan = try ProjectConfigurator.plan(
      project: try XcodeProject(path: try brave.copy()), appTarget: "Client")
    #expect(!bravePlan.findings.contains { $0.id == "extension-identifier-not-prefixed" })
  }

  static func generated(_ spec: String, text: String = "name: Limit\n") throws -> ProjectConfigurationPlan {
    let corpus = try #require(CorpusProject.all.first { $0.name == "limit" })
    let path = try corpus.copy()
    let specPath = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(spec)
    try Data(text.utf8).write(to: specPath)
    return try ProjectConfigurator.plan(project: try XcodeProject(path: path), appTarget: "Limit")
  }

  /// Limit's targets as XcodeGen would declare them: the share extension's Info.plist generated from the
  /// spec (`info:`), the app's a plain file (Folio's share extension, trial 3).
  static let limitSpec = """
    name: Limit
    targets:
      Limit:
        type: application
        settings:
          base:
            INFOPLIST_FILE: Limit/Info.plist
      ShareExtension:
        type: app-extension
        info:
          path: ShareExtension/Info.plist
          properties:
            CFBundleDisplayName: Limit
    """

  @Test("an XcodeGen project is configured as checked in, and the spec additions are YAML for project.yml")
  func xcodeGenSpecAdditions() throws {
    let plan = try Self.generated("project.yml", text: Self.limitSpec)
    #expect(plan.generator?.kind == .xcodeGen)
    #expect(plan.generator?.specPath.hasSuffix("/project.yml") == true)
    #expect(!plan.isBlocked)
    let yaml = try plan.specAdditions()
    #expect(yaml.hasPrefix("targets:\n  Limit:\n    settings:\n      configs:\n        Debug:\n"))
    #expect(yaml.contains("          INTUNE_APP_GROUP_ID: \"group.P24L.Limit.dev\"\n"))
    #expect(
      yaml.contains(
        "  ShareExtension:\n    settings:\n      configs:\n        Debug:\n"
          + "          INTUNE_CONTAINING_APP_BUNDLE_ID: \"P24L.Limit.dev\"\n"))
    #expect(yaml.contains("    info:\n      properties:\n"))
    #expect(yaml.contains("          ContainingAppBundleId: \"$(INTUNE_CONTAINING_APP_BUNDLE_ID)\"\n"))
    // The app's Info.plist is a checked-in file XcodeGen does not write: its changes survive generation.
    let app = try #require(yaml.components(separatedBy: "  ShareExtension:").first)
    #expect(!app.contains("info:") && !app.contains("LSApplicationQueriesSchemes"))
    let report = try ProjectConfigurationReport.text(plan)
    #expect(report.contains("project.yml:1:1: warning: this project is generated by XcodeGen from"))
    #expect(report.contains("[generated-project]"))
  }

  @Test("an XcodeGen target built from templates may get info: from one: its Info.plist keys are listed")
  func xcodeGenTemplates() throws {
    let spec = Self.limitSpec.replacingOccurrences(
      of: "  Limit:\n    type: application\n", with: "  Limit:\n    templates: [App]\n")
    #expect(spec != Self.limitSpec)
    let plan = try Self.generated("project.yml", text: spec)
    let app = try #require(try plan.specAdditions().components(separatedBy: "  ShareExtension:").first)
    #expect(app.contains("    info:\n      properties:\n"))
  }

  @Test("XcodeGen targets defined in included files: the additions go to the file defining each target")
  func xcodeGenIncludedTargets() throws {
    // Element X's shape: project.yml includes one target.yml per target (paths relative to project.yml),
    // and each target.yml defines its target under `targets:`.
    let corpus = try #require(CorpusProject.all.first { $0.name == "limit" })
    let path = try corpus.copy()
    let root = URL(fileURLWithPath: path).deletingLastPathComponent()
    let write = { (relative: String, text: String) in
      let url = root.appendingPathComponent(relative)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
    }
    try write(
      "project.yml",
      """
      name: Limit
      include:
      - path: Limit/SupportingFiles/target.yml
      # - path: Old/target.yml
      - "Shared/extensions.yml"
      settings:
        APP_NAME: Limit
      """)
    try write("Limit/SupportingFiles/target.yml", "targets:\n  Limit:\n    type: application\n")
    try write(
      "Shared/extensions.yml",
      "include: [../Limit/SupportingFiles/target.yml]\ntargets:\n  'ShareExtension':\n"
        + "    type: app-extension # the share extension\n    info:\n      path: x.plist\n")
    let plan = try ProjectConfigurator.plan(project: try XcodeProject(path: path), appTarget: "Limit")
    let files = try plan.specAdditionsByFile()
    #expect(
      files.map { String($0.specPath.dropFirst(root.path.count + 1)) }
        == ["Limit/SupportingFiles/target.yml", "Shared/extensions.yml"])
    #expect(files.first?.text.hasPrefix("targets:\n  Limit:\n    settings:\n") == true)
    #expect(files.last?.text.hasPrefix("targets:\n  ShareExtension:\n    settings:\n") == true)
    #expect(try plan.specAdditions() == files.map(\.text).joined())
    let report = try ProjectConfigurationReport.text(plan)
    #expect(
      report.contains("  fix: add this to \(root.path)/Limit/SupportingFiles/target.yml:\n    targets:\n"))
    #expect(report.contains("  and: add this to \(root.path)/Shared/extensions.yml:\n    targets:\n"))
  }

  @Test(
    "XcodeGen include: forms",
    arguments: [
      ("include: other.yml\n", ["other.yml"]),
      ("include: [a.yml, \"b.yml\"]\n", ["a.yml", "b.yml"]),
      (
        "include:\n  - a.yml\n  - path: b.yml\n    relativePaths: false\n# c\nname: X\n- d.yml\n",
        ["a.yml", "b.yml"]
      ),
      ("name: X\n", []),
    ])
  func xcodeGenIncludeForms(_ text: String, _ expected: [String]) {
    let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
    #expect(XcodeGenSpec.includes(in: lines) == expected)
  }

  /// 3dollars' manifest names its Info.plists with `.file(path:)`: Tuist leaves them as they are, and what
  /// generation drops is the build settings, which were buried in YAML offered for a Swift file.
  @Test("a Tuist project gets Swift entries for its build settings, and none for checked-in Info.plists")
  func tuistSpecAdditions() throws {
    let plan = try Self.generated("Project.swift")
    #expect(plan.generator?.kind == .tuist)
    let swift = try plan.specAdditions()
    #expect(swift.hasPrefix("// target \"Limit\"\n// settings of its configuration \"Debug\":\n"))
    #expect(swift.contains("\n\"INTUNE_APP_GROUP_ID\": \"group.P24L.Limit.dev\",\n"))
    #expect(!swift.contains("IntuneMAMSettings") && !swift.contains("properties:"))
  }

  @Test(
    "property-list values as Swift literals",
    arguments: [
      (PropertyListValue.string("a \"b\"\n\\"), #""a \"b\"\u{a}\\""#),
      (.array([.string("x"), .integer(2), .bool(true)]), #"["x", 2, true]"#),
      (.dictionary(PropertyListDictionary()), "[:]"),
    ])
  func swiftLiterals(_ value: PropertyListValue, _ expected: String) {
    #expect(SwiftLiteral.value(value) == expected)
  }

  @Test(
    "YAML double-quoted scalars",
    arguments: [("YES", #""YES""#), ("a \"b\"\n\t\\", #""a \"b\"\n\t\\""#), ("\u{1}\u{7F}", #""\x01\x7F""#)])
  func yamlScalars(_ text: String, _ expected: String) {
    #expect(YAML.scalar(text) == expected)
  }

  @Test("a project without a spec has no generator and no additions")
  func noGenerator() throws {
    let corpus = try #require(CorpusProject.all.first { $0.name == "limit" })
    let plan = try ProjectConfigurator.plan(
      project: try XcodeProject(path: try corpus.copy()), appTarget: "Limit")
    #expect(plan.generator == nil)
    #expect(try plan.specAdditions().isEmpty)
  }
}
