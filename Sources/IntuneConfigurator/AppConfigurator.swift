import PropertyLists
import XcodeProjects

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Configures an iOS app and its extensions for the Intune App SDK — the job of Microsoft's
/// IntuneMAMConfigurator — in three steps: **plan** the changes, **review** the report, **apply** them.
///
/// A plan only ever adds: nothing the user wrote is removed, reordered or rewritten, and a second run plans
/// nothing. Files can be configured on their own (an Info.plist and its entitlements) or as an Xcode
/// project, where every target's files are checked as Xcode builds them in every configuration.
///
/// ```swift
/// import IntuneConfigurator
///
/// let configurator = AppConfigurator()
/// do {
///   let plan = try configurator.plan(infoPlistAt: "App/Info.plist", entitlementsAt: "App/App.entitlements")
///   print(plan.report())
///   if !plan.isBlocked { try plan.apply() }
/// } catch {
///   print(error)  // App/Info.plist:12:5: error: …
/// }
/// ```
///
/// The same for a project: ``plan(projectAt:appTarget:sdk:)`` returns a ``ProjectConfigurationPlan``.
public struct AppConfigurator: Sendable {
  /// What the runs of this configurator do beyond reading their files.
  public var options: IntuneConfiguratorOptions

  /// A configurator with `options`.
  public init(options: IntuneConfiguratorOptions = IntuneConfiguratorOptions()) {
    self.options = options
  }

  /// Plans the changes for the Info.plist at `infoPlistPath`, reading the entitlements file at
  /// `entitlementsPath` for app groups and keychain groups.
  ///
  /// The Info.plist is read as Xcode reads it (a repeated key: the later value wins, and the plan warns);
  /// the entitlements file strictly. For an extension whose containing app ``options`` do not name, the app
  /// is looked for beside the extension's folder (one app Info.plist in a sibling or the parent folder).
  ///
  /// - Throws: ``ConfiguratorError`` of kind ``ConfiguratorError/Kind/file`` when a file cannot be read or
  ///   parsed (at its line and column), or as ``plan(infoPlist:entitlements:)`` throws.
  public func plan(infoPlistAt infoPlistPath: String, entitlementsAt entitlementsPath: String?)
    throws(ConfiguratorError) -> ConfigurationPlan
  {
    let info: PropertyListFile
    let entitlements: PropertyListFile?
    do {
      info = try PropertyListFile.read(contentsOf: infoPlistPath, duplicateKeys: .keepLast)
      entitlements = try entitlementsPath.map { path throws(PropertyListError) in
        try PropertyListFile.read(contentsOf: path)
      }
    } catch {
      throw .file(error)
    }
    var options = options
    if options.containingApp == nil, case .dictionary(let root) = info.value, root["NSExtension"] != nil,
      let app = ContainingAppLocator.locateFile(forExtensionAt: infoPlistPath)
    {
      options.containingApp = ContainingApp(infoPlist: app)
    }
    return try Self.plan(infoPlist: info, entitlements: entitlements, options: options)
  }

  /// Plans the changes for `infoPlist`, reading `entitlements` for app groups and keychain groups.
  ///
  /// - Throws: ``ConfiguratorError`` when a file's top level is not a dictionary, or when the activation
  ///   rule cannot be read (at its line and column in the Info.plist when the file is XML).
  public func plan(infoPlist: PropertyListFile, entitlements: PropertyListFile?)
    throws(ConfiguratorError) -> ConfigurationPlan
  {
    try Self.plan(infoPlist: infoPlist, entitlements: entitlements, options: options)
  }

  /// Plans the changes for the Xcode project at `path` (a `.xcodeproj` folder): its application target
  /// `appTarget` and every app extension it embeds, in every build configuration, for `sdk`.
  ///
  /// ``options`` apply to every target (`containingApp` is worked out from the project). With
  /// ``IntuneConfiguratorOptions/fixEntitlements``, a target without an entitlements file gets one, wired
  /// into its build settings.
  ///
  /// - Throws: ``ConfiguratorError`` when the project cannot be read, the target is not an application in
  ///   it, build settings cannot be resolved, or a file cannot be read.
  public func plan(projectAt path: String, appTarget: String, sdk: String = "iphoneos")
    throws(ConfiguratorError) -> ProjectConfigurationPlan
  {
    let project: XcodeProject
    do {
      project = try XcodeProject(path: path)
    } catch {
      throw .project(error)
    }
    return try plan(project: project, appTarget: appTarget, sdk: sdk)
  }

  /// Plans the changes for `appTarget` of a project already read, and the app extensions it embeds.
  ///
  /// - Throws: as ``plan(projectAt:appTarget:sdk:)``.
  public func plan(project: XcodeProject, appTarget: String, sdk: String = "iphoneos")
    throws(ConfiguratorError) -> ProjectConfigurationPlan
  {
    try ProjectConfigurator.plan(project: project, appTarget: appTarget, sdk: sdk, options: options)
  }

  /// The application target to configure when none is named: the project's only iOS app, as `xcodebuild`
  /// builds a project's target when there is no choice to make. Apps for watchOS, macOS, tvOS or visionOS
  /// only do not count (Mac Catalyst and multiplatform apps with `iphoneos` do).
  ///
  /// - Throws: ``ConfiguratorError`` of kind ``ConfiguratorError/Kind/project`` when the project has no iOS
  ///   application target, or several (the message lists them: name one).
  public func iOSAppTarget(in project: XcodeProject, sdk: String = "iphoneos") throws(ConfiguratorError)
    -> String
  {
    let apps = project.targets.filter(\.isApplication)
    let iOSApps = apps.filter { ProjectPlanner.otherPlatform(of: $0, in: project, sdk: sdk) == nil }
    if iOSApps.count == 1, let only = iOSApps.first { return only.name }
    let location = BuildSettingLocation(file: project.pbxprojPath)
    guard !iOSApps.isEmpty else {
      let others = apps.isEmpty ? "" : " (its applications, \(Self.quoted(apps)), are not iOS apps)"
      let neighbours = Self.neighbouringProjects(of: project.path)
      throw .project(
        XcodeProjectError(
          .targetNotFound, "the project has no iOS application target\(others)", location: location,
          hint: "configure the Xcode project that builds the iOS app"
            + (neighbours.isEmpty ? "" : " (near this one: " + neighbours.joined(separator: ", ") + ")")))
    }
    throw .project(
      XcodeProjectError(
        .targetNotFound,
        "the project has \(iOSApps.count) iOS application targets: \(Self.quoted(iOSApps)); "
          + "name the one to configure",
        location: location,
        hint: "pass --target with one of them; its extensions are configured with it"))
  }

  private static func quoted(_ targets: [XcodeTarget]) -> String {
    targets.map { "\"\($0.name)\"" }.joined(separator: ", ")
  }

  /// Other `.xcodeproj` folders in the project's folder and in the folders beside it (Skugga keeps
  /// `Apple/macOS/Skugga-macOS.xcodeproj` beside `Apple/iOS/Skugga-iOS.xcodeproj`), as paths relative to the
  /// project's folder, at most five: where the iOS app may be.
  static func neighbouringProjects(of projectPath: String) -> [String] {
    let manager = FileManager.default
    let absolute = ProjectPlanner.absolute(projectPath)
    let folder = ProjectPlanner.parentFolder(absolute)
    let own = absolute.split(separator: "/").last.map(String.init) ?? absolute
    func projects(in directory: String) -> [String] {
      ((try? manager.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".xcodeproj") }
        .sorted()
    }
    var found = projects(in: folder).filter { $0 != own }
    let parent = ProjectPlanner.parentFolder(folder)
    let ownFolder = folder.split(separator: "/").last.map(String.init) ?? ""
    for sibling in ((try? manager.contentsOfDirectory(atPath: parent)) ?? []).sorted()
    where sibling != ownFolder && !sibling.hasPrefix(".") {
      found += projects(in: ProjectPlanner.join(parent, sibling)).map { "../\(sibling)/\($0)" }
    }
    // Deeper below the folder above: a React Native library's repository opened at its root finds the
    // library's ios/ project first, the example app's in example/ios/ (react-native-share-menu).
    for nested in XcodeProject.nestedProjects(in: parent) where nested != absolute {
      guard nested.hasPrefix(parent + "/") else { continue }
      let name = "../" + nested.dropFirst(parent.count + 1)
      if !found.contains(name) { found.append(name) }
    }
    return Array(found.prefix(5))
  }

  /// What `project` says about the Info.plist at `infoPlistPath` when it is configured on its own: the
  /// target that builds it, and ``options`` completed from the project (how `$(…)` values expand, the
  /// containing app). `nil` when no target builds with it.
  ///
  /// - Throws: ``ConfiguratorError`` of kind ``ConfiguratorError/Kind/project`` when the project's settings
  ///   cannot be resolved.
  public func projectContext(
    forInfoPlist infoPlistPath: String, in project: XcodeProject, sdk: String = "iphoneos"
  )
    throws(ConfiguratorError) -> ProjectContext?
  {
    try ProjectConfigurator.context(forInfoPlist: infoPlistPath, in: project, sdk: sdk, options: options)
  }

  /// The Xcode project for a file, found as `xcodebuild` finds one: the only `.xcodeproj` in the file's
  /// folder, or else in the nearest folder above that has any (the search stops at a repository's root,
  /// the folder holding `.git`). `nil` when there is none, or more than one in that folder.
  public static func locateProject(forFileAt path: String) -> String? {
    ProjectConfigurator.locateProject(forFileAt: path)
  }

  /// The .NET project that builds the Info.plist at `path` (a .NET MAUI head's `Platforms/iOS/Info.plist`, a
  /// Xamarin.iOS project's `Info.plist`): the only `.csproj` in the file's folder or in one of the three
  /// folders above it, the nearest first (the search stops at a repository's root, the folder holding
  /// `.git`). `nil` when there is none, or more than one in that folder.
  public static func dotNetProject(forFileAt path: String) -> String? {
    ProjectConfigurator.nearest(suffix: ".csproj", forFileAt: path, folders: 4)
  }

  /// The containing app's Info.plist for the extension whose Info.plist is at `extensionInfoPlistPath`:
  /// the one app Info.plist (without `NSExtension`, with `CFBundleIdentifier`) in a sibling folder or the
  /// parent folder, as Xcode projects lay targets out; `nil` when there is not exactly one.
  public static func containingAppInfoPlist(forExtensionAt extensionInfoPlistPath: String)
    -> PropertyListFile?
  {
    ContainingAppLocator.locateFile(forExtensionAt: extensionInfoPlistPath)
  }

  /// The build setting a project plan adds to an extension when nothing in its settings spells the
  /// containing app's identifier in every configuration.
  public static let containingAppSetting = ProjectConfigurator.containingAppSetting

  /// The plan for `infoPlist` with `options`: what every public entry point ends in.
  static func plan(
    infoPlist: PropertyListFile, entitlements: PropertyListFile?,
    options: IntuneConfiguratorOptions = IntuneConfiguratorOptions()
  ) throws(ConfiguratorError) -> ConfigurationPlan {
    guard case .dictionary(let info) = infoPlist.value else {
      throw .notADictionary(file: infoPlist.path ?? "Info.plist")
    }
    var entitlementValues = PropertyListDictionary()
    if let entitlements {
      guard case .dictionary(let dictionary) = entitlements.value else {
        throw .notADictionary(file: entitlements.path ?? "entitlements")
      }
      entitlementValues = dictionary
    }
    // Keys the build settings supply are part of the built Info.plist: checks see them, edits never touch
    // them (a key the file lacks is not edited in place).
    var built = info
    for entry in options.generatedInfoPlistKeys.entries where built[entry.key] == nil {
      built[entry.key] = entry.value
    }
    var planner = Planner(
      info: built, infoFile: infoPlist, entitlements: entitlementValues, entitlementsFile: entitlements,
      options: options)
    try planner.run()
    return ConfigurationPlan(
      changes: planner.changes, findings: planner.findings, infoPlist: infoPlist,
      entitlements: entitlements, target: planner.target,
      containingAppInfoPlistPath: options.containingApp?.infoPlist?.path)
  }
}
