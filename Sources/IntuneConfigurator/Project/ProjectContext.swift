import PropertyLists
import XcodeProjects

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What an Xcode project says about one Info.plist configured on its own (`configure -i … -e …`): the
/// target that builds it, its configurations, and the options that let the plan compare what Xcode builds.
public struct ProjectContext: Sendable {
  /// The project.
  public var projectPath: String
  /// The target whose `INFOPLIST_FILE` is the Info.plist.
  public var targetName: String
  /// The configurations that build with it.
  public var configurations: [String]
  /// For an extension, the application target that embeds it.
  public var appTargetName: String?
  /// The options to plan the Info.plist with: the caller's, with `buildConfigurations`,
  /// `generatedInfoPlistKeys` and, for an extension, `containingApp` filled in from the project.
  public var options: IntuneConfiguratorOptions
  /// How Xcode preprocesses the Info.plist (`INFOPLIST_PREPROCESS = YES`) in the first configuration.
  public var preprocessing: PropertyListPreprocessing?
  /// Set when the containing app's identifier differs per configuration and nothing in the extension's
  /// settings spells it: a file alone cannot say it right in every configuration; `configure --project`
  /// adds a build setting for it.
  public var containingAppNeedsBuildSetting: Bool
  /// Set when the configurations that build this Info.plist have entitlements naming different app groups:
  /// one `AppGroupIdentifiers` list cannot be right in all of them; `configure --project` adds a build
  /// setting per group.
  public var appGroupsDifferPerConfiguration: Bool
  /// For an extension whose app's bundle identifier expands to nothing in some configuration (a file the
  /// app's settings come from is missing from the checkout): the warning that the reference ``options``
  /// names was written unchecked there (`containing-app-unverified`), or the error that nothing can name the
  /// app (`containing-app-unknown`) — what `configure --project` says at the app's setting.
  public var containingAppFinding: ProjectFinding?
  /// Set when the target builds for watchOS, macOS, tvOS or visionOS only (`not-an-ios-app`, an error at the
  /// assignment that says so): the Intune App SDK and the settings a plan writes are for iOS apps, and
  /// `configure --project` refuses such a target.
  public var otherPlatformFinding: ProjectFinding?
}

extension ProjectConfigurator {
  /// The Xcode project for a file, found as `xcodebuild` finds one: the only `.xcodeproj` in the file's
  /// folder, or else in the nearest folder above that has any (the search stops at a repository's root,
  /// the folder holding `.git`). `nil` when there is none, or more than one in that folder.
  public static func locateProject(forFileAt path: String) -> String? {
    nearest(suffix: ".xcodeproj", forFileAt: path, folders: .max)
  }

  /// The only entry ending in `suffix` in the folder of the file at `path` or, when it has none, in the
  /// nearest of the `folders - 1` folders above that has any; the search stops at a repository's root (the
  /// folder holding `.git`). `nil` when there is none, or more than one in that folder.
  static func nearest(suffix: String, forFileAt path: String, folders: Int) -> String? {
    var folder = ProjectPlanner.parentFolder(ProjectPlanner.absolute(path))
    for _ in 0..<folders {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
      let found = names.filter { $0.hasSuffix(suffix) }.sorted()
      if !found.isEmpty {
        return found.count == 1 ? ProjectPlanner.join(folder, found[0]) : nil
      }
      let parent = ProjectPlanner.parentFolder(folder)
      if names.contains(".git") || parent == folder { return nil }
      folder = parent
    }
    return nil
  }

  /// What `project` says about the Info.plist at `infoPlistPath`: `nil` when no target builds with it.
  ///
  /// - Throws: ``ConfiguratorError/project(_:)`` when the project's settings cannot be resolved.
  public static func context(
    forInfoPlist infoPlistPath: String, in project: XcodeProject, sdk: String = "iphoneos",
    options: IntuneConfiguratorOptions = IntuneConfiguratorOptions()
  ) throws(ConfiguratorError) -> ProjectContext? {
    let wanted = ProjectPlanner.absolute(infoPlistPath)
    for target in project.targets where target.isApplication || target.isAppExtension {
      var matching: [ResolvedBuildSettings] = []
      for name in project.configurationNames(for: target) {
        do {
          let resolved = try project.buildSettings(target: target, configuration: name, sdk: sdk)
          if resolved.path(for: "INFOPLIST_FILE").map(ProjectPlanner.absolute) == wanted {
            matching.append(resolved)
          }
        } catch {
          throw .project(error)
        }
      }
      guard let first = matching.first else { continue }
      let otherPlatformFinding = ProjectPlanner.otherPlatform(of: target, in: project, sdk: sdk).map {
        platform in
        ProjectFinding(
          id: "not-an-ios-app", .error, at: platform.assignment?.location ?? target.location,
          "target \(target.name) builds for \(platform.name)"
            + (platform.assignment.map { " (\($0.name) = \($0.value))" } ?? "")
            + "; the Intune App SDK and the settings configure writes are for iOS apps",
          fix: "configure the Info.plist of the iOS app or extension instead")
      }
      var fileOptions = options
      fileOptions.buildConfigurations = matching.map { resolved in
        BuildConfigurationExpansion(
          configuration: resolved.configuration, preprocessing: ProjectPlanner.preprocessing(resolved),
          missingPrefixHeader: ProjectPlanner.missingPrefixHeader(resolved)
        ) { resolved.expand($0) }
      }
      if first["GENERATE_INFOPLIST_FILE"] == "YES" {
        fileOptions.generatedInfoPlistKeys = ProjectPlanner.generatedKeys(first)
      }
      let app = project.targets.first { $0.isApplication && $0.embeddedTargetIDs.contains(target.id) }
      var needsSetting = false
      var containingAppFinding: ProjectFinding?
      if target.isAppExtension, let app {
        let planner = try ProjectPlanner(
          project: project, appTargetName: app.name, sdk: sdk, options: options)
        let appSettings = try planner.settings(of: app)
        let appInfoPlist = appSettings.first.flatMap { settings in
          settings.path(for: "INFOPLIST_FILE").flatMap {
            try? PropertyListFile.read(
              contentsOf: $0, duplicateKeys: .keepLast, preprocessing: ProjectPlanner.preprocessing(settings))
          }
        }
        // The Mac Catalyst build of the same configurations, when the app has one.
        var catalyst: CatalystBuild?
        if let identifiers = try planner.catalystIdentifiers(appSettings) {
          let names = Set(matching.map(\.configuration))
          catalyst = CatalystBuild(
            settings: try planner.settings(of: target, sdk: ProjectPlanner.catalystSDK).filter {
              names.contains($0.configuration)
            }, appIdentifiers: identifiers)
        }
        // Where the app's identifier cannot be worked out in some configuration (a file its settings come
        // from is missing), the file's plan is made without it and says the containing app is unknown.
        let appIdentifiers = try planner.appBundleIdentifiers(appSettings)
        let choice = planner.containingApp(
          for: target, settings: matching, appIdentifiers: appIdentifiers, appSettings: appSettings,
          appInfoPlist: appInfoPlist, catalyst: catalyst)
        needsSetting = choice.settingName != nil
        // A reference unchecked in some configurations is written as the project plan writes it, and said.
        if !needsSetting && choice.unknownAppFinding == nil {
          fileOptions.containingApp = choice.containingApp
        }
        containingAppFinding =
          choice.unknownAppFinding
          ?? planner.unverifiedContainingAppFinding(choice, of: target, appSettings: appSettings)
      }
      // The app groups each configuration's entitlements name, as Xcode expands them.
      let groups = Set(
        matching.map { resolved in
          let file = resolved.path(for: "CODE_SIGN_ENTITLEMENTS").flatMap {
            try? PropertyListFile.read(contentsOf: $0)
          }
          return file?.value.dictionaryValue?["com.apple.security.application-groups"]?.arrayValue?
            .compactMap(\.stringValue).map(resolved.expand).sorted() ?? []
        })
      return ProjectContext(
        projectPath: project.path, targetName: target.name, configurations: matching.map(\.configuration),
        appTargetName: target.isAppExtension ? app?.name : nil, options: fileOptions,
        preprocessing: ProjectPlanner.preprocessing(first), containingAppNeedsBuildSetting: needsSetting,
        appGroupsDifferPerConfiguration: groups.count > 1, containingAppFinding: containingAppFinding,
        otherPlatformFinding: otherPlatformFinding)
    }
    return nil
  }
}
