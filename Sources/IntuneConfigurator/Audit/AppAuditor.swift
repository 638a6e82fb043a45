import ActivationRules
import AppBundles
import PredicateSyntax
import PropertyLists

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Why an audit could not run: the bundle could not be opened, or a file the audit needs could not be read.
public struct AppAuditError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file or folder it is about.
  public var path: String
  /// What went wrong, with what to do.
  public var message: String
  /// The bundle reader's error, when it came from there (a hostile archive: ``/AppBundles/AppBundleError/zip``).
  public var bundleError: AppBundleError?

  /// An error about `path`, explained by `message`, from `bundleError` when the bundle reader raised it.
  public init(path: String, message: String, bundleError: AppBundleError? = nil) {
    self.path = path
    self.message = message
    self.bundleError = bundleError
  }

  /// `path: message`.
  public var description: String { "\(path): \(message)" }
}

/// Audits a built app — an `.ipa`, an `.app` or an `.xcarchive` — for Intune, without writing anything:
/// for the app and each extension in its `PlugIns`, what ``AppConfigurator/plan(infoPlist:entitlements:)``
/// would change (each change is something the guide requires that is missing) and what it reports, plus a
/// summary of the rule, twins, `IntuneMAMSettings`, queried schemes and keychain groups.
///
/// Entitlements come from the executable's code signature when it has one, else from
/// `embedded.mobileprovision` (whose keychain groups are a wildcard, so not checked); no signature is
/// validated.
///
/// ```swift
/// let report = try AppAuditor.audit(BundleContainer(path: "Notes.ipa"))
/// if report.hasProblems { … }
/// ```
public enum AppAuditor {
  /// The largest executable read for its code signature; a larger one is noted, not read.
  public static let maximumExecutableBytes = 512 << 20
  /// The largest `embedded.mobileprovision` read.
  public static let maximumProfileBytes = 1 << 20

  /// Opens the `.ipa`, `.app` or `.xcarchive` at `path` (``/AppBundles/BundleContainer``) and audits it.
  ///
  /// - Throws: ``AppAuditError``, with the bundle reader's error for a missing path or a refused archive.
  public static func audit(path: String, options: IntuneConfiguratorOptions = IntuneConfiguratorOptions())
    throws(AppAuditError) -> AuditReport
  {
    try audit(try wrap { () throws(AppBundleError) in try BundleContainer(path: path) }, options: options)
  }

  /// Audits every app in `container` with its extensions.
  ///
  /// - Throws: ``AppAuditError`` when the container holds no app, or an Info.plist is missing or is not a
  ///   property list with a dictionary at the top.
  public static func audit(
    _ container: BundleContainer, options: IntuneConfiguratorOptions = IntuneConfiguratorOptions()
  ) throws(AppAuditError) -> AuditReport {
    var bundles: [AuditedBundle] = []
    for app in try wrap({ () throws(AppBundleError) in try container.applications() }) {
      let appFiles = try BundleFiles(container, app)
      bundles.append(audit(appFiles, app: nil, options: options))
      for appex in app.extensions {
        bundles.append(audit(try BundleFiles(container, appex), app: appFiles, options: options))
      }
    }
    return AuditReport(path: container.path, bundles: bundles)
  }

  private static func audit(_ files: BundleFiles, app: BundleFiles?, options: IntuneConfiguratorOptions)
    -> AuditedBundle
  {
    let info = files.info.value.dictionaryValue ?? [:]
    var options = options
    if let app { options.containingApp = ContainingApp(infoPlist: app.info) }
    var problems: [AuditProblem] = []
    var notes = files.notes
    do {
      let plan = try AppConfigurator.plan(
        infoPlist: files.info, entitlements: files.entitlements, options: options)
      for change in plan.changes {
        problems.append(
          AuditProblem(
            id: change.kind.rawValue, severity: .error, file: change.file, keyPath: change.keyPath,
            message: "missing (\(change.keyPath)): \(change.summary)",
            fix:
              "run `rulekit configure` on this bundle's \(change.file.rawValue) in the project, then rebuild")
        )
      }
      for finding in plan.findings {
        // The profile's keychain groups are a wildcard the app may narrow: nothing to compare with.
        if files.entitlementsSource == .provisioningProfile && finding.id.hasPrefix("keychain-") { continue }
        if finding.id == "entitlements-not-given" { continue }
        problems.append(
          AuditProblem(
            id: finding.id, severity: finding.severity, file: finding.file, keyPath: finding.keyPath,
            message: finding.message, fix: Self.auditFix(for: finding)))
      }
    } catch {
      problems.append(
        AuditProblem(
          id: "configuration-not-checked", severity: .error, file: .infoPlist, keyPath: [],
          message: error.description, fix: "fix the Info.plist in the project and rebuild"))
      notes.append("the Intune configuration was not checked: the planner stopped at the error above")
    }
    let target = ConfigurationTarget(info)
    var bundle = AuditedBundle(
      name: files.bundle.name, path: files.bundle.path, kind: AuditedBundleKind(target),
      extensionPointIdentifier: info["NSExtension"]?.dictionaryValue?["NSExtensionPointIdentifier"]?
        .stringValue,
      bundleIdentifier: info["CFBundleIdentifier"]?.stringValue, activationRule: nil,
      activationRuleIsDictionary: false, missingTwins: [], intuneSettings: nil, queriedSchemes: nil,
      keychainGroups: nil, entitlementsSource: files.entitlementsSource, problems: problems, notes: notes)
    if target.isExtension { describeRule(of: files, into: &bundle) }
    bundle.intuneSettings = settings(info, files: files, app: app)
    if !target.isExtension { bundle.queriedSchemes = queriedSchemes(info, options: options) }
    if files.entitlementsSource == .codeSignature {
      bundle.keychainGroups =
        files.entitlements?.value.dictionaryValue?["keychain-access-groups"]?.arrayValue?.compactMap(
          \.stringValue)
        ?? []
    }
    return bundle
  }

  private static func describeRule(of files: BundleFiles, into bundle: inout AuditedBundle) {
    guard let rule = try? RuleFile(path: files.info.path ?? "Info.plist", data: Data(files.infoBytes)) else {
      bundle.notes.append("no NSExtensionActivationRule to check")
      return
    }
    switch rule.value {
    case .predicate(let text):
      bundle.activationRule = text
      if let tree = try? ActivationRule.parsePredicate(text) {
        bundle.activationRule = PredicatePrinter.canonical(tree)
        bundle.missingTwins = TwinInjector.missingTwins(tree)
      }
    case .dictionary(let dictionary):
      let tree = DictionaryConverter.predicate(for: dictionary, style: .apple)
      bundle.activationRule = PredicatePrinter.canonical(tree)
      bundle.activationRuleIsDictionary = true
      bundle.missingTwins = TwinInjector.missingTwins(tree)
    }
  }

  /// The planner's fix, said for a built app: its fixes name `rulekit configure`'s options, which the
  /// audit does not have; the change belongs in the project, and the app must be rebuilt.
  static func auditFix(for finding: ConfiguratorFinding) -> String? {
    if finding.id == "keychain-groups-missing" {
      return "add them in Xcode's Keychain Sharing capability (or run `rulekit configure --fix-entitlements` "
        + "on the project), then rebuild"
    }
    if finding.id == "dictionary-rule-meaning-changed" {
      return "to keep the dictionary's meaning, run `rulekit configure --dictionary-style apple` on the "
        + "project (on the dictionary rule, before it is converted), then rebuild"
    }
    // These two fixes are options of `rulekit configure`; every other fix holds for a built app as said.
    guard let fix = finding.fix, ["containing-app-inferred", "containing-app-unknown"].contains(finding.id)
    else { return finding.fix }
    return "when running `rulekit configure` on the project: \(fix); then rebuild"
  }

  private static func settings(_ info: PropertyListDictionary, files: BundleFiles, app: BundleFiles?)
    -> AuditedIntuneSettings?
  {
    guard let settings = info["IntuneMAMSettings"]?.dictionaryValue else { return nil }
    let containing = settings["ContainingAppBundleId"]?.stringValue
    let appID = app?.info.value.dictionaryValue?["CFBundleIdentifier"]?.stringValue
    let groups = settings["AppGroupIdentifiers"]?.arrayValue?.compactMap(\.stringValue)
    let owner = app ?? files
    let entitled = owner.entitlements?.value.dictionaryValue?["com.apple.security.application-groups"]?
      .arrayValue?.compactMap(\.stringValue)
    return AuditedIntuneSettings(
      containingAppBundleID: containing,
      containingAppBundleIDMatches: app == nil ? nil : containing != nil && containing == appID,
      appGroupIdentifiers: groups,
      sharedAppGroups: entitled.map { entitled in (groups ?? []).filter(entitled.contains) },
      openInActionExtension: settings["OpenInActionExtension"] == .bool(true))
  }

  private static func queriedSchemes(_ info: PropertyListDictionary, options: IntuneConfiguratorOptions)
    -> AuditedQueriedSchemes
  {
    let existing = info["LSApplicationQueriesSchemes"]?.arrayValue?.compactMap(\.stringValue) ?? []
    let limit = QueriedSchemeLimit.forIOSSDK(major: options.iosSDKMajor)
    let plan = QueriedSchemesPlanner.plan(
      existing: existing, guide: options.guide, limit: limit,
      knownManagedAppSchemes: options.knownManagedAppSchemes)
    return AuditedQueriedSchemes(
      schemes: existing, missing: plan.additions.map(\.scheme), limit: limit.maximum,
      ignoredByIOS: Array(plan.ignoredListed))
  }

  static func wrap<T>(_ body: () throws(AppBundleError) -> T) throws(AppAuditError) -> T {
    do {
      return try body()
    } catch {
      throw AppAuditError(path: error.path, message: error.message, bundleError: error)
    }
  }
}

extension ConfigurationTarget {
  init(_ info: PropertyListDictionary) {
    guard case .dictionary(let ext) = info["NSExtension"] else {
      self = .app
      return
    }
    self = .appExtension(pointIdentifier: ext["NSExtensionPointIdentifier"]?.stringValue)
  }
}
