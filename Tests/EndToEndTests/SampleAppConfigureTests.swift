import CLITestSupport
import Foundation
import Testing

/// The sample app's files in one folder — as shipped in `Examples/SampleApp`, or configured — read with
/// Foundation (an independent check of what RuleKit wrote), and its rules tried with `rulekit eval`.
struct SampleAppFiles: Sendable {
  let folder: URL

  func data(_ relativePath: String) throws -> Data {
    try Data(contentsOf: folder.appendingPathComponent(relativePath))
  }

  func plist(_ relativePath: String) throws -> [String: Any] {
    let value = try PropertyListSerialization.propertyList(from: data(relativePath), format: nil)
    guard let dictionary = value as? [String: Any] else {
      throw ConfiguredSampleApp.SetupFailure(description: "\(relativePath) is not a dictionary")
    }
    return dictionary
  }

  /// `rulekit eval --rule T/Info.plist --attachment …`: `true` or `false`.
  func activates(_ target: String, attachments: [String]) throws -> Bool {
    let outcome = try RuleKitBinary.run(
      ["eval", "--rule", folder.appendingPathComponent("\(target)/Info.plist").path]
        + attachments.flatMap { ["--attachment", $0] })
    guard outcome.status == 0 else {
      throw ConfiguredSampleApp.SetupFailure(description: "rulekit eval failed: \(outcome.standardError)")
    }
    return outcome.standardOutput == "true\n"
  }
}

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
  /// The files as shipped, before any run.
  let before = SampleAppFiles(folder: ConfiguredSampleApp.example)
  /// The files after every run.
  var after: SampleAppFiles { SampleAppFiles(folder: folder) }

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

  func data(_ relativePath: String) throws -> Data { try after.data(relativePath) }

  static func get() throws -> ConfiguredSampleApp {
    switch shared {
    case .success(let app): return app
    case .failure(let failure): throw failure
    }
  }
}

/// One item of the Intune guide's requirement list (`docs/spec/intune-guide-requirements.md`: §1
/// activation rules, §2.4 what the configurator automates, §3 Info.plist and entitlements, §4 lint L1–L24),
/// checked on the sample app before and after configure with Foundation's reader and the `rulekit` binary.
///
/// A requirement configure fulfils is unmet in the sample as shipped and met once configured, so the test
/// shows configure did the work. A requirement configure only checks (the settings table, the 2023 guide's
/// ADAL keys) is met in the sample, and `SampleAppFindingTests` breaks it in a copy to show configure
/// reports it.
///
/// Items the sample app cannot exercise are covered elsewhere: §3.6 main nib/storyboard move (2016/2017
/// guides) and old guides' settings (L1b, L20, L23) in `GuideRequirementTests`; the queried-scheme limit
/// (§3.3, L11) and `$(VAR)` schemes in `ConfiguratorTests`; L16 (provisioning profile), L21 (code scan) and
/// L22 (build settings) concern files the configurator does not read.
struct GuideRequirement: Sendable, CustomTestStringConvertible {
  enum Role: Sendable {
    /// configure makes the change: unmet before, met after.
    case fulfilled
    /// configure checks the files and reports what is wrong: met before and after.
    case checked
  }

  var item: String
  var role: Role = .fulfilled
  /// The problems found in one state of the sample; empty when the requirement is met.
  var check: @Sendable (SampleAppFiles) throws -> [String]

  var testDescription: String { item }

  static func dictionary(_ value: Any?) -> [String: Any] { value as? [String: Any] ?? [:] }
  static func strings(_ value: Any?) -> [String] { value as? [String] ?? [] }
  static let twinPrefix = "com.microsoft.intune.mam."
  static let extensions = ["ShareExtension", "ActionExtension", "OpenInExtension"]
  static let fixedQueriedSchemes = [
    "http-intunemam", "https-intunemam", "microsoft-edge-http-intunemam", "microsoft-edge-https-intunemam",
    "smart-ns", "zips", "lacoonsecurity", "wandera", "lookoutwork-ase", "skycure", "betteractiveshield",
    "smsec", "mvisionmobile", "scmx", "intunemam-mtd",
  ]

  static func queriedSchemes(_ files: SampleAppFiles) throws -> [String] {
    strings(try files.plist("App/Info.plist")["LSApplicationQueriesSchemes"])
  }

  static func documentTypes(_ files: SampleAppFiles) throws -> [String] {
    let types = try files.plist("App/Info.plist")["CFBundleDocumentTypes"] as? [[String: Any]] ?? []
    return types.flatMap { strings($0["LSItemContentTypes"]) }.filter { !$0.hasPrefix(twinPrefix) }
  }

  static let all: [GuideRequirement] = [
    GuideRequirement(item: "§3.1 L9: every CFBundleURLSchemes entry has its -intunemam twin beside it") {
      files in
      let types = try files.plist("App/Info.plist")["CFBundleURLTypes"] as? [[String: Any]] ?? []
      let schemes = types.flatMap { strings($0["CFBundleURLSchemes"]) }
      let missing = schemes.filter { !$0.hasSuffix("-intunemam") && !schemes.contains($0 + "-intunemam") }
      return (schemes.isEmpty ? ["no URL scheme"] : []) + missing.map { "\($0) has no twin" }
    },
    GuideRequirement(
      item:
        "§3.2 L10: LSApplicationQueriesSchemes keeps the app's entries first, then the 2023 fixed list in order"
    ) { files in
      let queried = try queriedSchemes(files)
      let own = try queriedSchemes(ConfiguredSampleApp.get().before)
      var problems: [String] = []
      if !queried.starts(with: own) { problems.append("the app's own entries moved: \(queried)") }
      if queried.filter({ fixedQueriedSchemes.contains($0) }) != fixedQueriedSchemes {
        problems.append("fixed list: \(queried)")
      }
      return problems
    },
    GuideRequirement(
      item: "§3.2 L10: every queried scheme the app lists has its -intunemam twin (mailto excepted)"
    ) { files in
      let queried = try queriedSchemes(files)
      let own = try queriedSchemes(ConfiguredSampleApp.get().before).filter { $0 != "mailto" }
      return (own.isEmpty ? ["the sample queries no scheme of its own"] : [])
        + own.filter { !queried.contains($0 + "-intunemam") }.map { "\($0) has no twin" }
    },
    GuideRequirement(item: "§3.2 L10 (2023): ms-outlook-intunemam because the app queries mailto") { files in
      let queried = try queriedSchemes(files)
      return (queried.contains("mailto") ? [] : ["the sample does not query mailto"])
        + (queried.contains("ms-outlook-intunemam") ? [] : ["mailto without ms-outlook-intunemam"])
    },
    GuideRequirement(item: "§3.4 L12: every LSItemContentTypes entry has its com.microsoft.intune.mam. twin")
    { files in
      let types = try files.plist("App/Info.plist")["CFBundleDocumentTypes"] as? [[String: Any]] ?? []
      return types.flatMap { type -> [String] in
        let identifiers = strings(type["LSItemContentTypes"])
        return identifiers.filter { !$0.hasPrefix(twinPrefix) && !identifiers.contains(twinPrefix + $0) }
      }.map { "\($0) has no twin" }
    },
    GuideRequirement(item: "§3.5 L17: NSFaceIDUsageDescription is set") { files in
      let text = try files.plist("App/Info.plist")["NSFaceIDUsageDescription"] as? String ?? ""
      return text.isEmpty ? ["missing"] : []
    },
    GuideRequirement(
      item:
        "§2.4.4 §3.7 L8: IntuneMAMSettings › AppGroupIdentifiers lists the entitlements' app groups, in every target"
    ) { files in
      let groups = strings(try files.plist("App/App.entitlements")["com.apple.security.application-groups"])
      return try ConfiguredSampleApp.targets.flatMap { target -> [String] in
        let listed = strings(
          dictionary(try files.plist("\(target)/Info.plist")["IntuneMAMSettings"])["AppGroupIdentifiers"])
        return groups.filter { !listed.contains($0) }.map { "\(target) lacks \($0)" }
      } + (groups.isEmpty ? ["the sample's entitlements list no app group"] : [])
    },
    GuideRequirement(
      item: "§3.7.1 L18: ADALClientId and ADALRedirectUri or ADALRedirectScheme (2023: every app)",
      role: .checked
    ) { files in
      let settings = dictionary(try files.plist("App/Info.plist")["IntuneMAMSettings"])
      return (settings["ADALClientId"] == nil ? ["no ADALClientId"] : [])
        + (settings["ADALRedirectUri"] == nil && settings["ADALRedirectScheme"] == nil ? ["no redirect"] : [])
    },
    GuideRequirement(
      item:
        "§3.7.2 L1 L4 L5 L6: the app's settings are valid: a colour, a file protection level, MAMPolicyRequired NO",
      role: .checked
    ) { files in
      let settings = dictionary(try files.plist("App/Info.plist")["IntuneMAMSettings"])
      var problems: [String] = []
      if (settings["AccentColor"] as? String)?.wholeMatch(of: /#?[0-9A-Fa-f]{6}/) == nil {
        problems.append("AccentColor: \(String(describing: settings["AccentColor"]))")
      }
      if settings["MaxFileProtectionLevel"] as? String
        != "NSFileProtectionCompleteUntilFirstUserAuthentication"
      {
        problems.append("MaxFileProtectionLevel: \(String(describing: settings["MaxFileProtectionLevel"]))")
      }
      if settings["MAMPolicyRequired"] as? Bool != false { problems.append("MAMPolicyRequired is not NO") }
      return problems
    },
    GuideRequirement(
      item:
        "§3.8 L15: keychain-access-groups: the bundle ID first, then com.microsoft.intune.mam and com.microsoft.adalcache"
    ) { files in
      let groups = strings(try files.plist("App/App.entitlements")["keychain-access-groups"])
      let expected = ["com.example.notes", "com.microsoft.intune.mam", "com.microsoft.adalcache"].map {
        "$(AppIdentifierPrefix)" + $0
      }
      return groups == expected ? [] : ["keychain-access-groups is \(groups)"]
    },
    GuideRequirement(item: "§3.9 L7: every extension's ContainingAppBundleId is the app's bundle ID") {
      files in
      let bundleID = try files.plist("App/Info.plist")["CFBundleIdentifier"] as? String
      return try extensions.compactMap { target in
        let value = dictionary(try files.plist("\(target)/Info.plist")["IntuneMAMSettings"])[
          "ContainingAppBundleId"]
        return value as? String == bundleID ? nil : "\(target): \(String(describing: value))"
      }
    },
    GuideRequirement(
      item:
        "§1.5 L13: the share extension accepts the com.microsoft.intune.mam. twin of every type it accepts"
    ) { files in
      // The types the rule lists; an undeclared twin such as ...public.jpeg conforms only to itself.
      try ["public.image", "com.adobe.pdf", "public.url"].flatMap { type -> [String] in
        let original = try files.activates("ShareExtension", attachments: [type])
        let twin = try files.activates("ShareExtension", attachments: [twinPrefix + type])
        return (original ? [] : ["\(type) refused"]) + (twin ? [] : ["\(twinPrefix + type) refused"])
      }
    },
    GuideRequirement(
      item:
        "§1.6: the action extension's dictionary rule became a predicate string that accepts web URLs and their twins"
    ) { files in
      let attributes = dictionary(
        dictionary(try files.plist("ActionExtension/Info.plist")["NSExtension"])["NSExtensionAttributes"])
      var problems = attributes["NSExtensionActivationRule"] is String ? [] : ["the rule is not a string"]
      if try !files.activates("ActionExtension", attachments: ["public.url"]) {
        problems.append("public.url refused")
      }
      if try !files.activates("ActionExtension", attachments: [twinPrefix + "public.url"]) {
        problems.append("the public.url twin refused")
      }
      if try files.activates("ActionExtension", attachments: ["com.adobe.pdf"]) {
        problems.append("a PDF accepted")
      }
      return problems
    },
    GuideRequirement(
      item:
        "§1.3 §1.4 A L14: the Open-In rule takes one file of every document type of the app, Intune twins only"
    ) { files in
      var problems: [String] = []
      for type in try documentTypes(files) {
        if try !files.activates("OpenInExtension", attachments: [twinPrefix + type]) {
          problems.append("\(twinPrefix + type) refused")
        }
        if try files.activates("OpenInExtension", attachments: [type]) {
          problems.append("unmanaged \(type) accepted")
        }
      }
      let two = [twinPrefix + "com.adobe.pdf", twinPrefix + "com.adobe.pdf"]
      if try files.activates("OpenInExtension", attachments: two) { problems.append("two files accepted") }
      return problems
    },
    GuideRequirement(
      item:
        "§1.3 L14: the Open-In extension is flagged, named Open in, shares an app group and the app has a URL scheme with its twin"
    ) { files in
      let info = try files.plist("OpenInExtension/Info.plist")
      let settings = dictionary(info["IntuneMAMSettings"])
      let appSettings = dictionary(try files.plist("App/Info.plist")["IntuneMAMSettings"])
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
      let types = try files.plist("App/Info.plist")["CFBundleURLTypes"] as? [[String: Any]] ?? []
      let schemes = types.flatMap { strings($0["CFBundleURLSchemes"]) }
      if !schemes.contains(where: { schemes.contains($0 + "-intunemam") }) {
        problems.append("no scheme + twin")
      }
      return problems
    },
  ]
}

@Suite("rulekit configure on the bundled example app, against the Intune guide's requirement list")
struct SampleAppConfigureTests {
  @Test(arguments: GuideRequirement.all)
  func requirementIsMet(_ requirement: GuideRequirement) throws {
    let problems = try requirement.check(ConfiguredSampleApp.get().after)
    #expect(problems.isEmpty, "\(requirement.item): \(problems.joined(separator: "; "))")
  }

  /// The sample as shipped does not meet what configure fulfils, so meeting it afterwards is configure's
  /// work; what configure only checks is met already (its findings are tested on broken copies).
  @Test(arguments: GuideRequirement.all)
  func requirementIsExercised(_ requirement: GuideRequirement) throws {
    let problems = try requirement.check(ConfiguredSampleApp.get().before)
    switch requirement.role {
    case .fulfilled:
      #expect(!problems.isEmpty, "\(requirement.item): already met before configure, so not exercised")
    case .checked:
      #expect(problems.isEmpty, "\(requirement.item): \(problems.joined(separator: "; "))")
    }
  }

  /// L1–L6, L14: no finding is left: every report is free of warnings and errors.
  @Test func everyRunIsClean() throws {
    let app = try ConfiguredSampleApp.get()
    let problems = app.runs.flatMap { run in
      run.report.split(separator: "\n").filter { $0.contains(": warning: ") || $0.contains(": error: ") }
        .map { "\(run.target): \($0)" }
        + (run.status == 0 ? [] : ["\(run.target) exited \(run.status)"])
    }
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
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

  /// Nothing the user wrote is lost: each original line is still there, in order (a rule's last clause
  /// extended with " ||" for the twins after it) — except inside the two
  /// rules the guide has the configurator write: the action extension's dictionary rule becomes a predicate
  /// (§1.6), and the Open-In rule is generated again from the app's document types (§1.4 A).
  @Test(arguments: ConfiguredSampleApp.files)
  func onlyAdditions(_ file: String) throws {
    let app = try ConfiguredSampleApp.get()
    let before = try String(
      contentsOf: ConfiguredSampleApp.example.appendingPathComponent(file), encoding: .utf8)
    var after = try String(decoding: app.data(file), as: UTF8.self).split(
      separator: "\n", omittingEmptySubsequences: false)[...]
    // The line that ends each rewritten rule's value.
    let ruleEnd: Substring? =
      switch file {
      case "ActionExtension/Info.plist": "\t\t\t</dict>"
      case "OpenInExtension/Info.plist": ").@count == 1</string>"
      default: nil
      }
    var lost: [Substring] = []
    var inReplacedRule = false
    for line in before.split(separator: "\n", omittingEmptySubsequences: false) {
      if let ruleEnd {
        if inReplacedRule && line == ruleEnd {
          inReplacedRule = false
          continue
        }
        if inReplacedRule { continue }
        if line.hasSuffix("<key>NSExtensionActivationRule</key>") { inReplacedRule = true }
      }
      // Twins injected after a rule's last clause extend its line with " ||".
      guard let index = after.firstIndex(where: { $0 == line || $0 == line + " ||" }) else {
        lost.append(line)
        continue
      }
      after = after[after.index(after: index)...]
    }
    #expect(lost.isEmpty, "\(file) lost: \(lost)")
  }

  /// Before the app is configured, the Open-In extension's run names the app's Info.plist it found, at the
  /// key the finding is about.
  @Test func findingsAboutTheContainingAppNameItsFile() throws {
    let outcome = try RuleKitBinary.run(
      ["configure", "-i", "OpenInExtension/Info.plist", "-e", "App/App.entitlements", "--dry-run"],
      currentDirectory: ConfiguredSampleApp.example)
    #expect(outcome.status == 0)
    #expect(
      outcome.standardError.contains(
        "App/Info.plist:40:2: warning: the 2023 guide wants the containing app's URL scheme beside its -intunemam "
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

@Suite("--rule FILE finds the rule inside a plist (docs/design.md's CLI contract)")
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
