import PropertyLists
import XcodeProjects

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The state of one ``ProjectConfigurator`` run: the targets' resolved settings, the plans made so far,
/// and the project-file edits they need.
struct ProjectPlanner {
  let project: XcodeProject
  let app: XcodeTarget
  let sdk: String
  let options: IntuneConfiguratorOptions
  var targetPlans: [TargetConfigurationPlan] = []
  var edits: [PlannedBuildSetting] = []
  /// The generator whose spec sits beside the project, if any.
  var generator: ProjectGenerator?
  var findings: [ProjectFinding] = []
  /// Each missing file reported so far (by its message without places): the finding's index and the places
  /// that name it. Configuration groups that share the file add their places to the one finding.
  var missingFiles: [String: (finding: Int, places: [BuildSettingLocation])] = [:]
  /// Files as configured so far, by path: a file several targets share is planned on top of the changes
  /// planned for the targets before it, so it is written once with all of them.
  var configured: [String: PropertyListFile] = [:]
  /// Files as read from disk, before any change, for the diff.
  var originals: [String: PropertyListFile] = [:]
  /// Diagnostics already reported, so a missing xcconfig shared by every target is named once.
  var reportedDiagnostics: Set<String> = []
  /// The configurations whose app also builds for Mac Catalyst (see ``catalystConfigurations(_:)``).
  var macConfigurations: Set<String> = []
  /// The app's entitlements files (absolute), once its plan is made: an extension signing with one of them
  /// shares its keychain groups.
  var appEntitlementsFiles: [String: String] = [:]
  /// Each target's resolved settings, resolved once per run (see ``ResolvedSettingsCache``).
  let resolved = ResolvedSettingsCache()

  init(project: XcodeProject, appTargetName: String, sdk: String, options: IntuneConfiguratorOptions)
    throws(ConfiguratorError)
  {
    guard let app = project.target(named: appTargetName) else {
      let apps = Self.appTargetNames(in: project, sdk: sdk)
      let close = project.target(resembling: appTargetName).map { "did you mean \"\($0.name)\"? " } ?? ""
      throw .project(
        XcodeProjectError(
          .targetNotFound, "the project has no target named \"\(appTargetName)\"",
          location: BuildSettingLocation(file: project.pbxprojPath),
          hint: close
            + (apps.isEmpty
              ? "the project has no application target"
              : "its application targets: " + apps.joined(separator: ", "))))
    }
    guard app.isApplication else {
      throw .project(
        XcodeProjectError(
          .targetNotFound,
          "target \"\(appTargetName)\" is not an application (its product type is "
            + "\(app.productType ?? "not set")); --target names the app, whose extensions are configured with it",
          location: app.location,
          hint: "use one of: " + Self.appTargetNames(in: project, sdk: sdk).joined(separator: ", ")))
    }
    self.project = project
    self.app = app
    self.sdk = sdk
    self.options = options
  }

  /// One target's settings in each of its configurations, in list order, for `sdk` (the run's when nil);
  /// resolved once per run.
  func settings(of target: XcodeTarget, sdk: String? = nil) throws(ConfiguratorError)
    -> [ResolvedBuildSettings]
  {
    let key = ResolvedSettingsCache.Key(target: target.id, sdk: sdk ?? self.sdk)
    if let cached = resolved.settings[key] { return cached }
    let result = try resolve(target, sdk: key.sdk)
    resolved.settings[key] = result
    return result
  }

  private func resolve(_ target: XcodeTarget, sdk: String) throws(ConfiguratorError)
    -> [ResolvedBuildSettings]
  {
    // A configuration list that names nothing must stop the run, not leave the target out unsaid.
    let names: [String]
    do {
      names = try project.buildConfigurations(of: target).map(\.name)
    } catch {
      throw .project(error)
    }
    guard !names.isEmpty else {
      throw .project(
        XcodeProjectError(
          .malformed, "target \(target.name) has no build configurations", location: target.location,
          hint: "open the project in Xcode and check the target's configurations"))
    }
    var result: [ResolvedBuildSettings] = []
    for name in names {
      do {
        result.append(try project.buildSettings(target: target, configuration: name, sdk: sdk))
      } catch {
        throw .project(error)
      }
    }
    return result
  }

  mutating func run() throws(ConfiguratorError) {
    generator = ProjectGenerator.detect(beside: project)
    try refuseOtherPlatforms()
    let appSettings = try settings(of: app)
    report(appSettings)
    macConfigurations = catalystConfigurations(appSettings)
    if !macConfigurations.isEmpty {
      noteCatalystFiles(
        of: app, settings: appSettings, macSettings: try settings(of: app, sdk: Self.catalystSDK),
        configurations: macConfigurations)
    }
    noteOtherPlatformFiles(of: app, settings: appSettings)
    let appIdentifiers = try appBundleIdentifiers(appSettings)
    try planTarget(app, settings: appSettings, containingApp: nil)
    for plan in targetPlans {
      if let path = plan.entitlementsPath { appEntitlementsFiles[path] = app.name }
    }
    let appInfo = targetPlans.last.map { configured[$0.infoPlistPath] } ?? nil
    let catalystApp = try catalystIdentifiers(appSettings)
    for target in project.embeddedTargets(of: app) where target.isAppExtension {
      // BlueWallet's sticker pack got IntuneMAMSettings and, with --fix-entitlements, keychain groups.
      guard !target.isCodeless else {
        findings.append(
          ProjectFinding(
            id: "codeless-extension", .note, at: target.location,
            "\(target.name) is an iMessage sticker pack: it has no code, so the Intune App SDK never runs in "
              + "it; left as it is"))
        continue
      }
      let targetSettings = try settings(of: target)
      var catalyst: CatalystBuild?
      if let catalystApp {
        catalyst = CatalystBuild(
          settings: try settings(of: target, sdk: Self.catalystSDK), appIdentifiers: catalystApp)
      }
      report(targetSettings)
      if let catalyst {
        noteCatalystFiles(
          of: target, settings: targetSettings, macSettings: catalyst.settings,
          configurations: macConfigurations)
      }
      noteOtherPlatformFiles(of: target, settings: targetSettings)
      noteOtherContainingApps(of: target, appIdentifiers: appIdentifiers)
      noteInfoPlistSharedWithOtherApps(
        of: target, settings: targetSettings, appIdentifiers: appIdentifiers, appSettings: appSettings)
      try noteUnprefixedIdentifier(of: target, settings: targetSettings, appIdentifiers: appIdentifiers)
      let containing = containingApp(
        for: target, settings: targetSettings, appIdentifiers: appIdentifiers, appSettings: appSettings,
        appInfoPlist: appInfo, catalyst: catalyst)
      noteUnverifiedContainingApp(containing, of: target, appSettings: appSettings)
      if let unknown = containing.unknownAppFinding { findings.append(unknown) }
      try planTarget(target, settings: targetSettings, containingApp: containing)
    }
  }

  /// The application targets `--target` can name, as words to paste after it: those building for iOS, or
  /// every application when none does (the error about its platform then says more).
  static func appTargetNames(in project: XcodeProject, sdk: String) -> [String] {
    let apps = project.targets.filter(\.isApplication)
    let iOSApps = apps.filter { otherPlatform(of: $0, in: project, sdk: sdk) == nil }
    return (iOSApps.isEmpty ? apps : iOSApps).map { ShellWord.quoted($0.name) }
  }

  /// The app's bundle identifier in each configuration: its Info.plist's `CFBundleIdentifier` (usually
  /// `$(PRODUCT_BUNDLE_IDENTIFIER)`) as Xcode expands it in the app's build.
  func appBundleIdentifiers(_ appSettings: [ResolvedBuildSettings]) throws(ConfiguratorError) -> [String:
    String]
  {
    var identifiers: [String: String] = [:]
    for settings in appSettings {
      var written = "$(PRODUCT_BUNDLE_IDENTIFIER)"
      if let path = settings.path(for: "INFOPLIST_FILE"),
        let file = try? PropertyListFile.read(
          contentsOf: path, duplicateKeys: .keepLast, preprocessing: Self.preprocessing(settings)),
        let text = file.value.dictionaryValue?["CFBundleIdentifier"]?.stringValue
      {
        written = text
      }
      identifiers[settings.configuration] = settings.expand(written)
    }
    return identifiers
  }

  /// The SDK Xcode builds Mac Catalyst variants with: `[sdk=macosx*]` settings apply to them.
  static let catalystSDK = "macosx"

  /// The app's identifier in each configuration that also builds for Mac Catalyst
  /// (`SUPPORTS_MACCATALYST = YES`), as Xcode builds it there: with `[sdk=macosx*]` settings, and prefixed
  /// with `maccatalyst.` under `DERIVE_MACCATALYST_PRODUCT_BUNDLE_IDENTIFIER = YES`. `nil` when the run is
  /// already for macOS or no configuration builds for Mac Catalyst.
  func catalystIdentifiers(_ appSettings: [ResolvedBuildSettings]) throws(ConfiguratorError) -> [String:
    String]?
  {
    let building = catalystConfigurations(appSettings)
    guard !building.isEmpty else { return nil }
    let macSettings = try settings(of: app, sdk: Self.catalystSDK).filter {
      building.contains($0.configuration)
    }
    var identifiers = try appBundleIdentifiers(macSettings)
    for resolved in macSettings where resolved["DERIVE_MACCATALYST_PRODUCT_BUNDLE_IDENTIFIER"] == "YES" {
      if let identifier = identifiers[resolved.configuration], !identifier.hasPrefix("maccatalyst.") {
        identifiers[resolved.configuration] = "maccatalyst." + identifier
      }
    }
    return identifiers
  }

  /// Warnings from resolution (a base configuration missing from the checkout), each named once.
  mutating func report(_ settings: [ResolvedBuildSettings]) {
    for resolved in settings {
      for diagnostic in resolved.diagnostics where diagnostic.severity == .warning {
        // Once per place: the same missing file is met from every target, with the settings each uses.
        let place = "\(diagnostic.kind.rawValue) \(diagnostic.location?.description ?? diagnostic.message)"
        guard reportedDiagnostics.insert(place).inserted else { continue }
        findings.append(
          ProjectFinding(
            id: diagnostic.kind.rawValue, .warning, at: diagnostic.location, diagnostic.message,
            fix: diagnostic.hint))
      }
    }
  }
}

/// What one planner run has resolved, shared by the copies of the planner. The checks about other apps
/// (`extension-in-several-apps`, `info-plist-shared-with-other-app`) resolve every other app and extension
/// of the project once per extension planned, and resolving settings is most of a plan's cost
/// (docs/performance.md, "Xcode projects"). The project does not change during a run.
final class ResolvedSettingsCache {
  struct Key: Hashable {
    var target: String
    var sdk: String
  }

  var settings: [Key: [ResolvedBuildSettings]] = [:]
  /// Other apps' identifiers per configuration, by target id (their Info.plists are read to find them).
  var appIdentifiers: [String: [String: String]] = [:]
}
