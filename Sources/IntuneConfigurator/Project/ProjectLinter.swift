import ActivationRules
import PropertyLists
import XcodeProjects

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The checks `rulekit lint --project` adds to ``/ActivationRules/LintCheck``'s rule checks; the raw values
/// are the stable ids of their findings.
///
/// A finding of one of these checks carries, as its ``/ActivationRules/LintFinding/check``, the more precise
/// stable name the configurator gives it: the ``ConfiguratorChangeKind`` raw value (`url-scheme-twin`), or
/// `build-setting`, for ``notConfiguredForIntune``; the configurator's or project's finding id
/// (`keychain-group-not-string`, `missing-base-configuration`) for the other two.
public enum ProjectLintCheck: String, Sendable, Hashable, CaseIterable, Codable {
  /// A change `configure --project` would make: the target is not configured for Intune yet. A warning.
  case notConfiguredForIntune = "RK100"
  /// A finding of the configurator's planning for a target's Info.plist or entitlements file, with the
  /// configurator's severity.
  case intuneFinding = "RK101"
  /// A finding about the project as a whole (a base configuration missing from the checkout, a file a build
  /// setting names that is not there, a target without an Info.plist), with the planner's severity.
  case projectFinding = "RK102"

  /// The check's name, for documentation; findings carry a more precise ``/ActivationRules/LintFinding/check``.
  public var name: String {
    switch self {
    case .notConfiguredForIntune: "not-configured-for-intune"
    case .intuneFinding: "intune-finding"
    case .projectFinding: "project-finding"
    }
  }
}

/// One finding of a project lint, with the target it is about.
public struct ProjectLintFinding: Sendable, Hashable {
  /// The finding; its `file` is a display path (see ``ProjectLinter/lint(_:targets:displayPath:)``).
  public var finding: LintFinding
  /// The target whose file or settings it is about; `nil` for a finding about the project as a whole.
  public var target: String?

  /// `finding` about `target` (`nil` for the project as a whole).
  public init(_ finding: LintFinding, target: String?) {
    self.finding = finding
    self.target = target
  }
}

/// One target a project lint checked.
public struct ProjectLintTarget: Sendable, Hashable {
  /// The target's name.
  public var name: String
  /// Its `productType`, e.g. `com.apple.product-type.app-extension`.
  public var productType: String?
  /// Whether it is an app extension (else an application).
  public var isExtension: Bool
  /// Its build configurations.
  public var configurations: [String]
  /// The distinct Info.plist files its configurations build with (display paths); empty when it generates
  /// its Info.plist and names none.
  public var infoPlists: [String]
  /// For an extension: the application targets that embed it, whose configuration planning checked its
  /// Intune settings. Empty for an app, and for an extension no app in the project embeds.
  public var embeddedIn: [String]
}

/// What ``ProjectLinter/lint(_:targets:displayPath:)`` found.
public struct ProjectLintReport: Sendable {
  /// The project, as a display path.
  public var projectPath: String
  /// The targets checked: each app followed by the extensions it embeds, in the order of its embed phase.
  public var targets: [ProjectLintTarget]
  /// The Info.plists whose activation rule was linted, each once, in the order first met.
  public var ruleFiles: [String]
  /// Every finding, without repeats: the project's first, then each target's (its activation rules', then
  /// the configurator's findings and the changes it would make).
  public var findings: [ProjectLintFinding]

  /// Whether a finding is a warning or an error (`rulekit lint` exits 1).
  public var hasProblems: Bool { findings.contains { $0.finding.severity >= .warning } }
}

/// Lints an Xcode project the way `rulekit lint FILE…` lints files: the activation rule of every app
/// extension, and the Intune configuration of every app and extension, without writing anything.
///
/// For each target checked, every build configuration's `INFOPLIST_FILE` is resolved and each distinct
/// Info.plist is linted once with ``/ActivationRules/RuleLinter`` (a file several configurations or targets
/// share is linted once). The Intune settings are checked by planning `configure --project` for each app
/// (``AppConfigurator/plan(project:appTarget:sdk:)``) and reporting the plan's findings and,
/// as ``ProjectLintCheck/notConfiguredForIntune`` warnings, every change it would make, at the key it
/// would change (or the nearest key that exists) so a build phase points at what is missing.
///
/// ```swift
/// let project = try XcodeProject(path: "Notes.xcodeproj")
/// let report = try ProjectLinter().lint(project, targets: ["Notes"])
/// for item in report.findings { print(item.finding.message) }
/// ```
public struct ProjectLinter: Sendable {
  /// Lints each activation rule.
  public var ruleLinter: RuleLinter
  /// The SDK build-setting conditions are matched against.
  public var sdk: String
  /// The configurator options the Intune planning runs with.
  public var options: IntuneConfiguratorOptions

  /// A linter that lints rules with `ruleLinter` and resolves build settings for `sdk`, planning with `options`.
  public init(
    ruleLinter: RuleLinter = RuleLinter(), sdk: String = "iphoneos",
    options: IntuneConfiguratorOptions = IntuneConfiguratorOptions()
  ) {
    self.ruleLinter = ruleLinter
    self.sdk = sdk
    self.options = options
  }

  /// Lints every application target of `project` and the app extensions each embeds, or only the targets
  /// `targetNames` names (an application with its extensions, or an extension alone).
  ///
  /// `displayPath` turns the paths the project resolves (often absolute) into what the user should read;
  /// every `file` of the report and of a thrown error goes through it.
  ///
  /// An Info.plist that `INFOPLIST_FILE` names but that does not exist is an error finding
  /// (``ProjectLintCheck/projectFinding``, check `file-not-found`) at the assignment, and the other targets
  /// are still checked; only a target `targetNames` names stops the lint with it.
  ///
  /// - Throws: ``ConfiguratorError/project(_:)`` with kind `targetNotFound` for a name that is not an
  ///   application or app extension of the project (or a project without applications), `fileNotFound` for
  ///   an Info.plist that does not exist when `targetNames` names its target (at the setting), and the
  ///   errors of resolving build settings; ``ConfiguratorError/file(_:)`` for an Info.plist or entitlements
  ///   file that cannot be read or parsed.
  public func lint(
    _ project: XcodeProject, targets targetNames: [String] = [],
    displayPath: @escaping (String) -> String = { $0 }
  ) throws(ConfiguratorError) -> ProjectLintReport {
    do {
      return try run(project, targetNames, displayPath)
    } catch {
      throw Self.displaying(error, displayPath)
    }
  }

  private func run(_ project: XcodeProject, _ names: [String], _ displayPath: @escaping (String) -> String)
    throws(ConfiguratorError) -> ProjectLintReport
  {
    let entries = try Self.selectTargets(project, names)
    var collector = Collector(project: project, displayPath: displayPath)
    var reported: [ProjectLintTarget] = []
    // Every Info.plist is found and rule-linted before any planning. A missing one is an error finding at
    // its build setting, whether or not --target names its target, and the other files are still checked,
    // as Xcode's issue navigator lists every problem: one run names every missing file, with exit 1, as
    // configure does.
    var ruleFindings: [String: [LintFinding]] = [:]
    var linted: Set<String> = []
    var ruleFiles: [String] = []
    for entry in entries {
      var infoPlists: [String] = []
      let (paths, missing, preprocessing) = try infoPlistPaths(of: entry.target, in: project)
      for file in missing { collector.add(missing: file) }
      for path in paths {
        infoPlists.append(displayPath(path))
        guard entry.target.isAppExtension, !missing.contains(where: { $0.path == path }),
          linted.insert(path).inserted
        else { continue }
        let findings: [LintFinding]?
        do {
          let linter = try ruleLinter(forExtensionIn: entry.apps, of: project)
          findings = try lintRule(at: path, preprocessing: preprocessing[path], with: linter, displayPath)
        } catch {
          // An Info.plist that cannot be read stops the lint when --target names its target (its exit
          // status says why: 65 malformed, 74 unreadable); otherwise the other targets are still checked.
          if names.contains(entry.target.name) { throw Self.displaying(error, displayPath) }
          collector.add(Self.unchecked(entry.target.name, error, displayPath), target: entry.target.name)
          continue
        }
        if let findings {
          ruleFiles.append(displayPath(path))
          ruleFindings[entry.target.name, default: []] += findings
        }
      }
      reported.append(
        ProjectLintTarget(
          name: entry.target.name, productType: entry.target.productType,
          isExtension: entry.target.isAppExtension,
          configurations: project.configurationNames(for: entry.target),
          infoPlists: infoPlists, embeddedIn: entry.apps))
    }

    var plans: [String: ProjectConfigurationPlan] = [:]
    for name in entries.flatMap({ $0.target.isApplication ? [$0.target.name] : $0.apps })
    where plans[name] == nil {
      // An app for watchOS, macOS, tvOS or visionOS only has no Intune settings to check: a note says so.
      if let app = project.target(named: name),
        let platform = ProjectPlanner.otherPlatform(of: app, in: project, sdk: sdk)
      {
        collector.add(
          ProjectFinding(
            id: "not-an-ios-app", .note, at: platform.assignment?.location ?? app.location,
            "\(name) builds for \(platform.name): the Intune App SDK is for iOS apps, so its Intune settings "
              + "are not checked"),
          target: name)
        continue
      }
      let plan: ProjectConfigurationPlan
      do {
        plan = try ProjectConfigurator.plan(project: project, appTarget: name, sdk: sdk, options: options)
      } catch {
        // A file of one app that cannot be read (a key twice in its entitlements, a malformed Info.plist)
        // stops the lint only when --target names that app or one of its extensions; otherwise it is an
        // error finding where the file says, and the other apps are still checked.
        let named =
          names.contains(name)
          || entries.contains { names.contains($0.target.name) && $0.apps.contains(name) }
        if named || error.kind == .project { throw error }
        collector.add(Self.unchecked(name, error, displayPath), target: name)
        continue
      }
      plans[name] = plan
      for finding in plan.findings { collector.add(finding) }
    }
    for entry in entries {
      for finding in ruleFindings[entry.target.name] ?? [] {
        collector.add(finding, target: entry.target.name)
      }
      let apps = entry.target.isApplication ? [entry.target.name] : entry.apps
      if entry.target.isAppExtension && apps.isEmpty {
        collector.add(
          ProjectFinding(
            id: "extension-not-embedded", .note, at: entry.target.location,
            "no application target of the project embeds \(entry.target.name): its Intune settings are not "
              + "checked",
            fix: "lint the app that embeds it, in its own project"),
          target: entry.target.name)
      }
      for app in apps {
        guard let plan = plans[app] else { continue }
        collector.adoptOriginals(of: plan)
        for target in plan.targets where target.targetName == entry.target.name {
          collector.add(target, appTarget: app)
        }
        for setting in plan.buildSettings where setting.targetName == entry.target.name {
          collector.add(setting, appTarget: app)
        }
      }
    }
    return ProjectLintReport(
      projectPath: displayPath(project.path), targets: reported, ruleFiles: ruleFiles,
      findings: collector.findings)
  }

  /// The findings of the activation rule in the Info.plist at `path`; `nil` when it has no rule (an
  /// extension that is not a share or action extension).
  func lintRule(
    at path: String, preprocessing: PropertyListPreprocessing?, with linter: RuleLinter? = nil,
    _ displayPath: (String) -> String
  ) throws(ConfiguratorError) -> [LintFinding]? {
    let ruleLinter = linter ?? self.ruleLinter
    let name = displayPath(path)
    let data: Data
    do {
      data = try PropertyListFile.readData(contentsOf: path)
    } catch {
      throw .file(error)
    }
    do {
      return ruleLinter.lint(try RuleFile(path: name, data: data, preprocessing: preprocessing))
    } catch {
      if let plistError = error.propertyListError { throw .file(plistError) }
      switch error.kind {
      case .ruleNotFound:
        return nil
      case .ruleMisplaced:
        // An extension whose rule the system never reads: the finding RK016 gives keys beside a rule.
        return [
          LintFinding(
            id: LintCheck.activationKeyOutsideRule.rawValue, check: LintCheck.activationKeyOutsideRule.name,
            severity: .error, message: error.message, file: name, line: error.location?.line ?? 1,
            column: error.location?.column ?? 1, fix: error.hint)
        ]
      case .unexpectedRuleValue:
        // Not a rule the system can read: a finding like a mistyped key's, at the rule's key.
        let rulePath: PropertyListPath = [
          "NSExtension", "NSExtensionAttributes", "NSExtensionActivationRule",
        ]
        let document = try? PropertyListFile(
          data: data, path: name, duplicateKeys: .keepLast, preprocessing: preprocessing
        ).document
        let position = Collector.position(of: rulePath, in: document)
        return [
          LintFinding(
            id: LintCheck.mistypedValue.rawValue, check: LintCheck.mistypedValue.name, severity: .error,
            message: error.summary, file: name, line: position?.line ?? 1, column: position?.column ?? 1)
        ]
      default:
        throw ConfiguratorError(
          .activationRule, error.summary, location: ConfiguratorError.Location(file: name),
          underlying: error)
      }
    }
  }

  /// The finding that says `target` was not checked because of `error`, at the error's place.
  static func unchecked(_ target: String, _ error: ConfiguratorError, _ displayPath: (String) -> String)
    -> ProjectFinding
  {
    let shown = displaying(error, displayPath)
    return ProjectFinding(
      id: "target-not-checked", .error, at: shown.location,
      "\(target) is not checked: \(shown.message)",
      fix: shown.hint ?? "fix the file, then lint again")
  }

  /// `error` with its paths as the user reads them.
  static func displaying(_ error: ConfiguratorError, _ displayPath: (String) -> String) -> ConfiguratorError {
    switch error.kind {
    case .project:
      guard var projectError = error.projectError else { return error }
      if let file = projectError.location?.file { projectError.location?.file = displayPath(file) }
      return .project(projectError)
    case .file:
      guard var fileError = error.propertyListError else { return error }
      fileError.path = fileError.path.map(displayPath)
      return .file(fileError)
    default:
      return error
    }
  }
}

/// Turns plan findings and changes into lint findings, without repeats, positioned in the files as read.
private struct Collector {
  let project: XcodeProject
  let displayPath: (String) -> String
  var findings: [ProjectLintFinding] = []
  var seen: Set<LintFinding> = []
  /// The places of the `extension-in-several-apps` warnings reported so far.
  var sharedExtensionsWarned: Set<String> = []
  /// The planner's words for each missing Info.plist reported so far (it meets them again when it plans
  /// their targets, maybe at another configuration's assignment).
  var missingInfoPlistMessages: Set<String> = []
  /// The files as read from disk, for positions: a plan of a file another target shares holds that
  /// target's changes already, which would move them.
  var documents: [String: PropertyListDocument?] = [:]
  /// For a change that `configure` of any of several apps makes (a file or extension they share), its
  /// finding's place in `findings`, by the finding without its fix, and the apps named so far.
  var configurable: [LintFinding: (index: Int, apps: [String])] = [:]

  init(project: XcodeProject, displayPath: @escaping (String) -> String) {
    self.project = project
    self.displayPath = displayPath
  }

  mutating func add(_ finding: LintFinding, target: String?) {
    guard seen.insert(finding).inserted else { return }
    findings.append(ProjectLintFinding(finding, target: target))
  }

  /// Reports an Info.plist `INFOPLIST_FILE` names that is missing, as an error at the setting.
  mutating func add(missing file: ProjectLinter.MissingInfoPlist) {
    let location = file.location
    missingInfoPlistMessages.insert(
      ProjectPlanner.missingFileMessage("INFOPLIST_FILE", of: file.target.name, file.path))
    add(
      LintFinding(
        id: ProjectLintCheck.projectFinding.rawValue, check: "file-not-found", severity: .error,
        message: file.message(displayPath) + "; its Info.plist is not checked",
        file: displayPath(location?.file ?? project.pbxprojPath), line: location?.line ?? 1,
        column: location?.column ?? 1, fix: file.fix),
      target: file.target.name)
  }

  static func place(_ location: BuildSettingLocation?) -> String {
    "\(location?.file ?? ""):\(location?.line ?? 0):\(location?.column ?? 0)"
  }

  mutating func add(_ finding: ProjectFinding, target: String? = nil) {
    let location = finding.location
    // Said once, by the lint, with the configurations that use it.
    if finding.id == "file-not-found",
      missingInfoPlistMessages.contains(where: { finding.message.hasPrefix($0) })
    {
      return
    }
    // Each app's plan warns about an extension several apps embed, from its own side ("planned for A",
    // then "planned for B"); the lint of the project says it once, at the extension target.
    if finding.id == "extension-in-several-apps" {
      guard sharedExtensionsWarned.insert(Self.place(location)).inserted else { return }
    }
    add(
      LintFinding(
        id: ProjectLintCheck.projectFinding.rawValue, check: finding.id,
        severity: Self.severity(finding.severity),
        message: finding.message(displayPath: displayPath),
        file: displayPath(location?.file ?? project.pbxprojPath),
        line: location?.line ?? 1, column: location?.column ?? 1, fix: finding.fix),
      target: target)
  }

  mutating func add(_ target: TargetConfigurationPlan, appTarget: String) {
    let plan = target.plan
    func path(of file: ConfiguredFile) -> String? {
      switch file {
      case .infoPlist: target.infoPlistPath
      case .entitlements: target.entitlementsPath
      case .containingApp: plan.containingAppInfoPlistPath
      }
    }
    // A file the target does not have yet (it generates its Info.plist, or --fix-entitlements creates one):
    // Xcode can open the target's place in the project file, not a path that is not there.
    func isCreated(_ file: ConfiguredFile) -> Bool {
      (file == .infoPlist && target.createsInfoPlist) || (file == .entitlements && target.createsEntitlements)
    }
    let targetLocation = project.target(named: target.targetName)?.location
    // The rule checks lint every extension's rule (RK001 is an error at the predicate): the configurator's
    // warning about the same TRUEPREDICATE would be the one rule reported twice, at two places.
    for finding in plan.findings where finding.id != "activation-rule-truepredicate" {
      var file = path(of: finding.file)
      var position = finding.position
      var message = finding.message
      if isCreated(finding.file), let location = targetLocation {
        message += " (in a new \(file.map(displayPath) ?? finding.file.rawValue))"
        file = location.file
        position = location.line.map {
          PropertyListPosition(line: $0, column: location.column ?? 1, offset: 0)
        }
      } else if let file {
        // A file an earlier plan of this run changed is planned as changed: its positions are not the file's.
        let planned: PropertyListFile? =
          switch finding.file {
          case .infoPlist: plan.infoPlist
          case .entitlements: plan.entitlements
          case .containingApp: nil
          }
        if position == nil || (planned.map { !isAsRead($0, at: file) } ?? false) {
          position = self.position(of: finding.keyPath, inFileAt: file) ?? position
        }
      }
      add(
        LintFinding(
          id: ProjectLintCheck.intuneFinding.rawValue, check: finding.id,
          severity: Self.severity(finding.severity),
          message: message, file: displayPath(file ?? project.pbxprojPath), line: position?.line ?? 1,
          column: position?.column ?? 1, fix: finding.fix),
        target: target.targetName, configuredBy: appTarget)
    }
    for change in plan.changes {
      var file = path(of: change.file)
      var position: PropertyListPosition?
      var message = "not configured for Intune: \(change.summary) (\(change.keyPath))"
      if isCreated(change.file) || file == nil {
        let location = targetLocation
        message += " in a new \(file.map(displayPath) ?? change.file.rawValue)"
        file = location?.file ?? project.pbxprojPath
        position = location?.line.map {
          PropertyListPosition(line: $0, column: location?.column ?? 1, offset: 0)
        }
      } else if let existing = file {
        position = self.position(of: change.keyPath, inFileAt: existing)
      }
      add(
        LintFinding(
          id: ProjectLintCheck.notConfiguredForIntune.rawValue, check: change.kind.rawValue,
          severity: .warning,
          message: message, file: displayPath(file ?? project.pbxprojPath), line: position?.line ?? 1,
          column: position?.column ?? 1, fix: nil),
        target: target.targetName, configuredBy: appTarget)
    }
  }

  mutating func add(_ setting: PlannedBuildSetting, appTarget: String) {
    let location = project.objects[setting.edit.configurationID]?.location
    add(
      LintFinding(
        id: ProjectLintCheck.notConfiguredForIntune.rawValue, check: "build-setting", severity: .warning,
        message: "not configured for Intune: \(setting.targetName)'s \(setting.configuration) configuration "
          + "lacks \(setting.edit.key) = \(setting.edit.value) (\(setting.reason))",
        file: displayPath(location?.file ?? project.pbxprojPath), line: location?.line ?? 1,
        column: location?.column ?? 1, fix: nil),
      target: setting.targetName, configuredBy: appTarget)
  }

  /// Adds `finding` (without a fix) with the `configure` command that makes its change; met again through
  /// another app that embeds the same extension or builds with the same file (irccloud's two apps embed one
  /// share extension, Rocket.Chat's two share an Info.plist), it is one finding naming both commands.
  /// A finding whose `fix` is set is a configure finding: its fix is kept, or spelt as `lint` says it
  /// (``lintFix(_:appTargets:)``) when it names a `configure` option.
  mutating func add(_ finding: LintFinding, target: String, configuredBy appTarget: String) {
    if let (index, apps) = configurable[finding] {
      guard !apps.contains(appTarget) else { return }
      configurable[finding]?.apps.append(appTarget)
      findings[index].finding.fix = fix(of: finding, apps: apps + [appTarget])
      return
    }
    var fixed = finding
    fixed.fix = fix(of: finding, apps: [appTarget])
    guard seen.insert(fixed).inserted else { return }
    configurable[finding] = (findings.count, [appTarget])
    findings.append(ProjectLintFinding(fixed, target: target))
  }

  /// A configure finding's fix as `lint` says it: "run again with --fix-entitlements" names `configure`'s
  /// option, which `lint` does not have, so the command is spelt out (a blind trial ran `lint
  /// --fix-entitlements` and got "Unknown option").
  /// The fix of `finding` when `apps`' configure runs make or fix it.
  func fix(of finding: LintFinding, apps: [String]) -> String {
    finding.fix.map { lintFix($0, appTargets: apps) } ?? configureFix(apps)
  }

  func lintFix(_ fix: String, appTargets: [String]) -> String {
    guard fix.contains("run again with --fix-entitlements") else { return fix }
    let command = configureCommand(appTargets, options: " --fix-entitlements")
    return fix.replacing("run again with --fix-entitlements", with: "run " + command)
  }

  /// `rulekit configure --project P --target A` (with `(or --target B)` for more apps), then `options`.
  func configureCommand(_ appTargets: [String], options: String = "") -> String {
    let project = ShellWord.quoted(displayPath(self.project.path))
    let targets = appTargets.map { "--target \(ShellWord.quoted($0))" }
    guard let first = targets.first else { return "rulekit configure --project \(project)\(options)" }
    let others = targets.dropFirst()
    return "rulekit configure --project \(project) \(first)"
      + (others.isEmpty ? "" : " (or " + others.joined(separator: ", or ") + ")") + options
  }

  /// The fix of a change `configure` would make: the command, quoted for a POSIX shell; with several apps,
  /// the command for each, any one of which makes it.
  func configureFix(_ appTargets: [String]) -> String {
    configureCommand(appTargets) + " makes this change"
  }

  /// Whether `file` holds the bytes of the file at `path` (not a plan's changed copy of it).
  mutating func isAsRead(_ file: PropertyListFile, at path: String) -> Bool {
    guard let bytes = file.document?.bytes else { return true }
    return document(at: path)?.bytes == bytes
  }

  /// Takes the files a plan read from disk as the files as read: the planner read each with its target's
  /// settings (an `INFOPLIST_PREPROCESS` Info.plist with the target's macros), which a plain read here
  /// would refuse, leaving every position at 1:1.
  mutating func adoptOriginals(of plan: ProjectConfigurationPlan) {
    for (path, file) in plan.originals where documents[path] == nil {
      documents[path] = .some(file.document)
    }
  }

  /// The file at `path` as read, once.
  mutating func document(at path: String) -> PropertyListDocument? {
    if documents[path] == nil {
      documents[path] = .some(try? PropertyListFile.read(contentsOf: path, duplicateKeys: .keepLast).document)
    }
    return documents[path] ?? nil
  }

  /// Where `keyPath` is in the file at `path` as read, or the nearest enclosing entry that exists.
  mutating func position(of keyPath: PropertyListPath, inFileAt path: String) -> PropertyListPosition? {
    Self.position(of: keyPath, in: document(at: path))
  }

  /// The key of the entry at `keyPath` (an element's own position in an array), or else of the nearest
  /// ancestor that exists: the key a change would add goes inside it.
  static func position(of keyPath: PropertyListPath, in document: PropertyListDocument?)
    -> PropertyListPosition?
  {
    Planner.nearestPosition(of: keyPath, in: document)
  }

  static func severity(_ severity: FindingSeverity) -> LintFinding.Severity {
    switch severity {
    case .note: .note
    case .warning: .warning
    case .error: .error
    }
  }
}
