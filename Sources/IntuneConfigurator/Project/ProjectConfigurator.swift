import PropertyLists
import XcodeProjects

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Configures an Xcode project's app and every app extension it embeds for the Intune App SDK, correct in
/// every build configuration.
///
/// Each target's Info.plist and entitlements file are the ones Xcode builds it with (`INFOPLIST_FILE`,
/// `CODE_SIGN_ENTITLEMENTS`, resolved per configuration), and every check compares what Xcode will build:
/// `$(…)` references are expanded per configuration. An extension's `ContainingAppBundleId` is written so
/// that it names the app in every configuration — a literal when the app's identifier is the same in all
/// of them, a reference the extension's own settings already spell (`$(BASE_BUNDLE_IDENTIFIER)`), or else a
/// build setting the configurator adds to the extension, one value per configuration.
///
/// ```swift
/// let project = try XcodeProject(path: "Notes.xcodeproj")
/// let plan = try ProjectConfigurator.plan(project: project, appTarget: "Notes")
/// print(ProjectConfigurationReport.text(plan))
/// if !plan.isBlocked { try plan.write() }
/// ```
enum ProjectConfigurator {
  /// The build setting the configurator adds to an extension when nothing in its settings spells the
  /// containing app's identifier in every configuration.
  static let containingAppSetting = "INTUNE_CONTAINING_APP_BUNDLE_ID"

  /// Plans the changes for `appTarget` and the app extensions it embeds.
  ///
  /// `options` apply to every target (`containingApp`, `buildConfigurations` and `generatedInfoPlistKeys`
  /// are worked out from the project and replaced). With `fixEntitlements`, a target without an
  /// entitlements file gets one, wired into its build settings.
  ///
  /// - Throws: ``ConfiguratorError`` when the target is not an application in the project, when build
  ///   settings cannot be resolved, or when a file cannot be read.
  static func plan(
    project: XcodeProject, appTarget: String, sdk: String = "iphoneos",
    options: IntuneConfiguratorOptions = IntuneConfiguratorOptions()
  ) throws(ConfiguratorError) -> ProjectConfigurationPlan {
    var planner = try ProjectPlanner(project: project, appTargetName: appTarget, sdk: sdk, options: options)
    try planner.run()
    return ProjectConfigurationPlan(
      projectPath: project.path, pbxprojPath: project.pbxprojPath, appTargetName: appTarget,
      targets: planner.targetPlans, buildSettings: planner.edits, findings: planner.findings,
      generator: planner.generator, pbxprojBytes: project.document.bytes, originals: planner.originals)
  }
}
