import CLITestSupport
import Foundation
import Testing

/// The bundled example app (`Examples/SampleApp`: an app with share, action and Open-In extensions),
/// configured the way the README tells a user to: `rulekit configure` on the app, then on each extension,
/// in a scratch copy. Built once and shared by the tests below.
final class ConfiguredSampleApp: Sendable {
  static let targets = ["App", "ShareExtension", "ActionExtension", "OpenInExtension"]
  static let example = RuleKitBinary.packageRoot.appendingPathComponent("Examples/SampleApp")
  static let golden = RuleKitBinary.packageRoot.appendingPathComponent(
    "Tests/EndToEndTests/Golden/sample-app")
  /// Every file the configurator may write, relative to the app folder.
  static let files = targets.map { "\($0)/Info.plist" } + ["App/App.entitlements"]

  struct SetupFailure: Error, CustomStringConvertible, Sendable {
    var description: String
  }

  let folder: URL
  /// Each run's exit status and standard error, in target order.
  let runs: [(target: String, status: Int32, report: String)]

  static let shared: Result<ConfiguredSampleApp, SetupFailure> = {
    do { return .success(try ConfiguredSampleApp()) } catch {
      return .failure(SetupFailure(description: "configuring the sample app failed: \(error)"))
    }
  }()

  init() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("rulekit-sample-app-\(UUID())")
    try FileManager.default.copyItem(at: Self.example, to: folder)
    runs = try Self.configureAll(in: folder)
  }

  /// `rulekit configure -i T/Info.plist -e App/App.entitlements --fix-entitlements` for every target, run
  /// from the app folder so reports show the relative paths a user types.
  static func configureAll(in folder: URL) throws -> [(target: String, status: Int32, report: String)] {
    try targets.map { target in
      let outcome = try RuleKitBinary.run(
        ["configure", "-i", "\(target)/Info.plist", "-e", "App/App.entitlements", "--fix-entitlements"],
        currentDirectory: folder)
      return (target, outcome.status, outcome.standardError)
    }
  }

  func data(_ relativePath: String) throws -> Data {
    try Data(contentsOf: folder.appendingPathComponent(relativePath))
  }

  /// A file as Foundation reads it: an independent check of what RuleKit wrote.
  func plist(_ relativePath: String) throws -> [String: Any] {
    let value = try PropertyListSerialization.propertyList(from: data(relativePath), format: nil)
    guard let dictionary = value as? [String: Any] else {
      throw SetupFailure(description: "\(relativePath) is not a dictionary")
    }
    return dictionary
  }

  /// `rulekit eval --rule T/Info.plist --attachment …` on the configured extension: `true` or `false`.
  func activates(_ target: String, attachments: [String]) throws -> Bool {
    let outcome = try RuleKitBinary.run(
      ["eval", "--rule", folder.appendingPathComponent("\(target)/Info.plist").path]
        + attachments.flatMap { ["--attachment", $0] })
    guard outcome.status == 0 else {
      throw SetupFailure(description: "rulekit eval failed: \(outcome.standardError)")
    }
    return outcome.standardOutput == "true\n"
  }

  static func get() throws -> ConfiguredSampleApp {
    switch shared {
    case .success(let app): return app
    case .failure(let failure): throw failure
    }
  }
}

/// One item of the Intune guide's requirement list (`../shared/spec/intune-guide-requirements.md`: §1
/// activation rules, §2.4 what the configurator automates, §3 Info.plist and entitlements, §4 lint L1–L24),
/// checked on the configured sample app with Foundation's reader and the `rulekit` binary.
///
/// Items the sample app cannot exercise are covered elsewhere: §3.6 main nib/storyboard move (2016/2017
/// guides) and old guides' settings (L1b, L20, L23) in `GuideRequirementTests`; the queried-scheme limit
/// (§3.3, L11) and `$(VAR)` schemes in `ConfiguratorTests`; L16 (provisioning profile), L21 (code scan) and
/// L22 (build settings) concern files the configurator does not read.
struct GuideRequirement: Sendable, CustomTestStringConvertible {
  var item: String
  /// The problems found; empty when the requirement is met.
  var check: @Sendable (ConfiguredSampleApp) throws -> [String]

  var testDescription: String { item }

  static func dictionary(_ value: Any?) -> [String: Any] { value as? [String: Any] ?? [:] }
  static func strings(_ value: Any?) -> [String] { value as? [String] ?? [] }
  static let twinPrefix = "com.microsoft.intune.mam."
  static let extensions = ["ShareExtension", "ActionExtension", "OpenInExtension"]

  static let all: [GuideRequirement] = [
    GuideRequirement(item: "§3.1 L9: every CFBundleURLSchemes entry has its -intunemam twin beside it") {
      app in
      let types = try app.plist("App/Info.plist")["CFBundleURLTypes"] as? [[String: Any]] ?? []
      let schemes = types.flatMap { strings($0["CFBundleURLSchemes"]) }
      let missing = schemes.filter { !$0.hasSuffix("-intunemam") && !schemes.contains($0 + "-intunemam") }
      return (schemes.isEmpty ? ["no URL scheme"] : []) + missing.map { "\($0) has no twin" }
    },
    GuideRequirement(
      item:
        "§3.2 L10: LSApplicationQueriesSchemes holds the 2023 fixed list in order, Outlook only with mailto"
    ) { app in
      let queried = strings(try app.plist("App/Info.plist")["LSApplicationQueriesSchemes"])
      let fixed = [
        "http-intunemam", "https-intunemam", "microsoft-edge-http-intunemam",
        "microsoft-edge-https-intunemam",
        "smart-ns", "zips", "lacoonsecurity", "wandera", "lookoutwork-ase", "skycure", "betteractiveshield",
        "smsec", "mvisionmobile", "scmx", "intunemam-mtd",
      ]
      var problems: [String] = []
      if queried.filter({ fixed.contains($0) }) != fixed { problems.append("fixed list: \(queried)") }
      if queried.contains("ms-outlook-intunemam") != queried.contains("mailto") {
        problems.append("ms-outlook-intunemam without mailto, or mailto without it")
      }
      return problems
    },
    GuideRequirement(item: "§3.4 L12: every LSItemContentTypes entry has its com.microsoft.intune.mam. twin")
    { app in
      let types = try app.plist("App/Info.plist")["CFBundleDocumentTypes"] as? [[String: Any]] ?? []
      return types.flatMap { type -> [String] in
        let identifiers = strings(type["LSItemContentTypes"])
        return identifiers.filter { !$0.hasPrefix(twinPrefix) && !identifiers.contains(twinPrefix + $0) }
      }.map { "\($0) has no twin" }
    },
    GuideRequirement(item: "§3.5 L17: NSFaceIDUsageDescription is set") { app in
      let text = try app.plist("App/Info.plist")["NSFaceIDUsageDescription"] as? String ?? ""
      return text.isEmpty ? ["missing"] : []
    },
    GuideRequirement(
      item:
        "§2.4.4 §3.7 L8: IntuneMAMSettings › AppGroupIdentifiers lists the entitlements' app groups, in every target"
    ) { app in
      let groups = strings(try app.plist("App/App.entitlements")["com.apple.security.application-groups"])
      return try ConfiguredSampleApp.targets.flatMap { target -> [String] in
        let listed = strings(
          dictionary(try app.plist("\(target)/Info.plist")["IntuneMAMSettings"])["AppGroupIdentifiers"])
        return groups.filter { !listed.contains($0) }.map { "\(target) lacks \($0)" }
      } + (groups.isEmpty ? ["the sample's entitlements list no app group"] : [])
    },
    GuideRequirement(
      item: "§3.7.1 L18: ADALClientId and ADALRedirectUri or ADALRedirectScheme (2023: every app)"
    ) { app in
      let settings = dictionary(try app.plist("App/Info.plist")["IntuneMAMSettings"])
      return (settings["ADALClientId"] == nil ? ["no ADALClientId"] : [])
        + (settings["ADALRedirectUri"] == nil && settings["ADALRedirectScheme"] == nil ? ["no redirect"] : [])
    },
    GuideRequirement(
      item:
        "§3.8 L15: keychain-access-groups: the bundle ID first, then com.microsoft.intune.mam and com.microsoft.adalcache"
    ) { app in
      let groups = strings(try app.plist("App/App.entitlements")["keychain-access-groups"])
      let expected = ["com.example.notes", "com.microsoft.intune.mam", "com.microsoft.adalcache"].map {
        "$(AppIdentifierPrefix)" + $0
      }
      return groups == expected ? [] : ["keychain-access-groups is \(groups)"]
    },
    GuideRequirement(item: "§3.9 L7: every extension's ContainingAppBundleId is the app's bundle ID") { app in
      let bundleID = try app.plist("App/Info.plist")["CFBundleIdentifier"] as? String
      return try extensions.compactMap { target in
        let value = dictionary(try app.plist("\(target)/Info.plist")["IntuneMAMSettings"])[
          "ContainingAppBundleId"]
        return value as? String == bundleID ? nil : "\(target): \(String(describing: value))"
      }
    },
    GuideRequirement(
      item:
        "§1.5 L13: the share extension accepts the com.microsoft.intune.mam. twin of every type it accepts"
    ) { app in
      // The types the rule lists; an undeclared twin such as ...public.jpeg conforms only to itself.
      try ["public.image", "com.adobe.pdf", "public.url"].flatMap { type -> [String] in
        let original = try app.activates("ShareExtension", attachments: [type])
        let twin = try app.activates("ShareExtension", attachments: [twinPrefix + type])
        return (original ? [] : ["\(type) refused"]) + (twin ? [] : ["\(twinPrefix + type) refused"])
      }
    },
    GuideRequirement(
      item:
        "§1.6: the action extension's dictionary rule became a predicate string that accepts web URLs and their twins"
    ) { app in
      let attributes = dictionary(
        dictionary(try app.plist("ActionExtension/Info.plist")["NSExtension"])["NSExtensionAttributes"])
      var problems = attributes["NSExtensionActivationRule"] is String ? [] : ["the rule is not a string"]
      if try !app.activates("ActionExtension", attachments: ["public.url"]) {
        problems.append("public.url refused")
      }
      if try !app.activates("ActionExtension", attachments: [twinPrefix + "public.url"]) {
        problems.append("the public.url twin refused")
      }
      if try app.activates("ActionExtension", attachments: ["com.adobe.pdf"]) {
        problems.append("a PDF accepted")
      }
      return problems
    },
    GuideRequirement(
      item: "§1.3 §1.4 A L14: the Open-In rule takes one file of the app's document types, Intune twins only"
    ) { app in
      var problems: [String] = []
      for type in ["public.text", "public.image", "com.adobe.pdf"] {
        if try !app.activates("OpenInExtension", attachments: [twinPrefix + type]) {
          problems.append("\(twinPrefix + type) refused")
        }
        if try app.activates("OpenInExtension", attachments: [type]) {
          problems.append("unmanaged \(type) accepted")
        }
      }
      let two = [twinPrefix + "com.adobe.pdf", twinPrefix + "com.adobe.pdf"]
      if try app.activates("OpenInExtension", attachments: two) { problems.append("two files accepted") }
      return problems
    },
    GuideRequirement(
      item:
        "§1.3 L14: the Open-In extension is flagged, named Open in, shares an app group and the app has a URL scheme with its twin"
    ) { app in
      let info = try app.plist("OpenInExtension/Info.plist")
      let settings = dictionary(info["IntuneMAMSettings"])
      let appSettings = dictionary(try app.plist("App/Info.plist")["IntuneMAMSettings"])
      var problems: [String] = []
      if settings["OpenInActionExtension"] as? Bool != true {
        problems.append("OpenInActionExtension is not YES")
      }
      if !(info["CFBundleDisplayName"] as? String ?? "").hasPrefix("Open in ") { problems.append("name") }
      if Set(strings(settings["AppGroupIdentifiers"])).isDisjoint(
        with: strings(appSettings["AppGroupIdentifiers"]))
      {
        problems.append("no shared app group")
      }
      let types = try app.plist("App/Info.plist")["CFBundleURLTypes"] as? [[String: Any]] ?? []
      let schemes = types.flatMap { strings($0["CFBundleURLSchemes"]) }
      if !schemes.contains(where: { schemes.contains($0 + "-intunemam") }) {
        problems.append("no scheme + twin")
      }
      return problems
    },
    GuideRequirement(item: "L1–L6, L14: no finding is left: every report is free of warnings and errors") {
      app in
      app.runs.flatMap { run in
        run.report.split(separator: "\n").filter { $0.contains(": warning: ") || $0.contains(": error: ") }
          .map { "\(run.target): \($0)" }
          + (run.status == 0 ? [] : ["\(run.target) exited \(run.status)"])
      }
    },
  ]
}

@Suite("rulekit configure on the bundled example app, against the Intune guide's requirement list")
struct SampleAppConfigureTests {
  @Test(arguments: GuideRequirement.all)
  func requirementIsMet(_ requirement: GuideRequirement) throws {
    let problems = try requirement.check(ConfiguredSampleApp.get())
    #expect(problems.isEmpty, "\(requirement.item): \(problems.joined(separator: "; "))")
  }

  /// The reports and every written file are golden; `RULEKIT_UPDATE_GOLDEN=1` rewrites them.
  @Test func reportsAndFilesAreGolden() throws {
    let app = try ConfiguredSampleApp.get()
    let report = app.runs.map {
      "$ rulekit configure -i \($0.target)/Info.plist … (exit \($0.status))\n\($0.report)"
    }
    .joined(separator: "\n")
    var outputs = [("configure-report.txt", Data(report.utf8))]
    outputs += try ConfiguredSampleApp.files.map { ($0, try app.data($0)) }
    for (name, data) in outputs {
      let url = ConfiguredSampleApp.golden.appendingPathComponent(name)
      if ProcessInfo.processInfo.environment["RULEKIT_UPDATE_GOLDEN"] == "1" {
        try FileManager.default.createDirectory(
          at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
      }
      #expect(data == (try Data(contentsOf: url)), "differs from Golden/sample-app/\(name)")
    }
  }

  /// Nothing the user wrote is lost: each original line is still there, in order — except the action
  /// extension's dictionary rule, which the guide (§1.6) has the configurator replace with a predicate.
  @Test(arguments: ConfiguredSampleApp.files)
  func onlyAdditions(_ file: String) throws {
    let app = try ConfiguredSampleApp.get()
    let before = try String(
      contentsOf: ConfiguredSampleApp.example.appendingPathComponent(file), encoding: .utf8)
    var after = try String(decoding: app.data(file), as: UTF8.self).split(
      separator: "\n", omittingEmptySubsequences: false)[...]
    var lost: [Substring] = []
    var inReplacedRule = false
    for line in before.split(separator: "\n", omittingEmptySubsequences: false) {
      if file == "ActionExtension/Info.plist" {
        if line.hasSuffix("<key>NSExtensionActivationRule</key>") { inReplacedRule = true }
        if inReplacedRule && line == "\t\t\t</dict>" {
          inReplacedRule = false
          continue
        }
        if inReplacedRule && !line.hasSuffix("<key>NSExtensionActivationRule</key>") { continue }
      }
      guard let index = after.firstIndex(of: line) else {
        lost.append(line)
        continue
      }
      after = after[after.index(after: index)...]
    }
    #expect(lost.isEmpty, "\(file) lost: \(lost)")
  }

  /// Before the app is configured, the Open-In extension's run names the app's Info.plist it found.
  @Test func findingsAboutTheContainingAppNameItsFile() throws {
    let outcome = try RuleKitBinary.run(
      ["configure", "-i", "OpenInExtension/Info.plist", "-e", "App/App.entitlements", "--dry-run"],
      currentDirectory: ConfiguredSampleApp.example)
    #expect(outcome.status == 0)
    #expect(
      outcome.standardError.contains(
        "App/Info.plist: warning: the 2023 guide wants the containing app's URL scheme beside its -intunemam "
          + "twin; the app has none of notes-example-intunemam [open-in-app-scheme-twin-missing]"),
      "\(outcome.standardError)")
  }

  /// §2.2 and §2.4.7: the tool is idempotent; a second run over everything changes no byte.
  @Test func aSecondRunChangesNothing() throws {
    let app = try ConfiguredSampleApp.get()
    let again = FileManager.default.temporaryDirectory.appendingPathComponent(
      "rulekit-sample-again-\(UUID())")
    try FileManager.default.copyItem(at: app.folder, to: again)
    defer { try? FileManager.default.removeItem(at: again) }
    let runs = try ConfiguredSampleApp.configureAll(in: again)
    for run in runs {
      #expect(run.status == 0)
      #expect(run.report.contains("already configured for Intune; nothing to change"), "\(run.report)")
    }
    for file in ConfiguredSampleApp.files {
      #expect(
        try Data(contentsOf: again.appendingPathComponent(file)) == (try app.data(file)), "\(file) changed")
    }
  }
}

@Suite("--rule FILE finds the rule inside a plist (DESIGN.md's CLI contract)")
struct RuleInsidePlistTests {
  static let share = ConfiguredSampleApp.example.appendingPathComponent("ShareExtension/Info.plist").path
  static let action = ConfiguredSampleApp.example.appendingPathComponent("ActionExtension/Info.plist").path

  @Test func evalReadsAnExtensionsPredicateRule() throws {
    let outcome = try RuleKitBinary.run(["eval", "--rule", Self.share, "--attachment", "com.adobe.pdf"])
    #expect(outcome.status == 0)
    #expect(outcome.standardOutput == "true\n")
  }

  @Test func aDictionaryRuleIsEvaluatedAsApplesPredicate() throws {
    let url = try RuleKitBinary.run(["eval", "--rule", Self.action, "--attachment", "public.url"])
    #expect(url.standardOutput == "true\n")
    let pdf = try RuleKitBinary.run(["eval", "--rule", Self.action, "--attachment", "com.adobe.pdf"])
    #expect(pdf.standardOutput == "false\n")
  }

  @Test func aSyntaxErrorPointsIntoThePlist() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rulekit-rule-plist-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let broken = folder.appendingPathComponent("Info.plist")
    let text = try String(contentsOfFile: Self.share, encoding: .utf8)
      .replacingOccurrences(of: "UTI-CONFORMS-TO \"com.adobe.pdf\"", with: "UTI-CONFORMS \"com.adobe.pdf\"")
    try Data(text.utf8).write(to: broken)
    let outcome = try RuleKitBinary.run(["parse", "--rule", broken.path])
    #expect(outcome.status == 65)
    #expect(
      outcome.standardError.hasPrefix(
        "\(broken.path):27:51: error: expected a comparison operator such as '==' or 'IN', found 'UTI'\n"
          + "        ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS \"com.adobe.pdf\" ||\n"))
  }

  @Test func formatInPlaceRewritesOnlyTheRuleString() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rulekit-rule-plist-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let copy = folder.appendingPathComponent("Info.plist")
    try FileManager.default.copyItem(atPath: Self.share, toPath: copy.path)
    let outcome = try RuleKitBinary.run(["format", "--rule", copy.path, "--in-place"])
    #expect(outcome.status == 0)
    let before = try String(contentsOfFile: Self.share, encoding: .utf8)
    let after = try String(contentsOf: copy, encoding: .utf8)
    #expect(after.hasPrefix(before.components(separatedBy: "\t\t\t<string>SUBQUERY")[0]))
    #expect(after.contains("<string>SUBQUERY(extensionItems, $extensionItem, SUBQUERY("))
    #expect(after.contains("&lt;= 5).@count == 1</string>"))
    #expect(after.hasSuffix(before.components(separatedBy: "</string>\n\t\t</dict>")[1]))
    // The dictionary rule is refused, and its file is left as it was.
    let dictionaryCopy = folder.appendingPathComponent("Action.plist")
    try FileManager.default.copyItem(atPath: Self.action, toPath: dictionaryCopy.path)
    let refused = try RuleKitBinary.run(["format", "--rule", dictionaryCopy.path, "--in-place"])
    #expect(refused.status == 65)
    #expect(refused.standardError.contains("'rulekit convert --in-place'"))
    #expect(try Data(contentsOf: dictionaryCopy) == (try Data(contentsOf: URL(fileURLWithPath: Self.action))))
  }
}
