import IntuneConfigurator
import PropertyLists
import XcodeProjects

/// `configure -i … -e …` in a checkout with an Xcode project: the project tells which target builds the
/// Info.plist, how Xcode expands its `$(…)` values per configuration, and for an extension its app.
extension ConfigureRun {
  /// The project found beside or above the Info.plist (as `xcodebuild` finds one), and what it says about
  /// the Info.plist; `nil` when there is no project, it does not build this file, or it cannot be read (the
  /// run then goes on as without a project).
  func projectContext() -> (path: String, context: ProjectContext)? {
    guard let path = AppConfigurator.locateProject(forFileAt: infoPlist),
      let project = try? XcodeProject(path: path)
    else { return nil }
    let options = configuratorOptions
    guard
      let context = try? AppConfigurator(options: options).projectContext(
        forInfoPlist: infoPlist, in: project, sdk: sdk)
    else { return nil }
    return (Self.displayPath(path), context)
  }

  /// Where a project finding is, as " (FILE:LINE:COLUMN)" after its message; empty when it has no place.
  static func place(of finding: ProjectFinding) -> String {
    finding.location.map { location in
      " (" + displayPath(location.file) + (location.line.map { ":\($0):\(location.column ?? 1)" } ?? "") + ")"
    } ?? ""
  }

  /// Says in the plan which project and target the run used, and what a file alone cannot do.
  static func describe(_ found: (path: String, context: ProjectContext), in plan: inout ConfigurationPlan) {
    let context = found.context
    plan.findings.insert(
      ConfiguratorFinding(
        id: "project-found", .note, at: [],
        "build settings from \(found.path): this is the Info.plist of target \(context.targetName) ("
          + context.configurations.joined(separator: ", ")
          + "), so $(…) values are compared as Xcode expands "
          + "them" + (context.appTargetName.map { ", and the containing app is target \($0)" } ?? "")),
      at: 0)
    let app = context.appTargetName ?? context.targetName
    if let finding = context.otherPlatformFinding {
      // As configure --project refuses the target: nothing is written.
      plan.findings.insert(
        ConfiguratorFinding(
          id: finding.id, finding.severity, at: [], finding.message + place(of: finding), fix: finding.fix),
        at: 1)
    }
    if context.appGroupsDifferPerConfiguration {
      plan.findings.append(
        ConfiguratorFinding(
          id: "app-groups-per-configuration", .error, at: ["IntuneMAMSettings", "AppGroupIdentifiers"],
          position: plan.infoPlistPosition(of: ["IntuneMAMSettings", "AppGroupIdentifiers"]),
          "the configurations of \(context.targetName) (" + context.configurations.joined(separator: ", ")
            + ") have entitlements naming different app groups, so no one AppGroupIdentifiers list is right in "
            + "all of them",
          fix:
            "run rulekit configure --project \(ShellWord.quoted(found.path)) --target \(ShellWord.quoted(app)), "
            + "which adds a build setting per group"
        ))
    }
    if let finding = context.containingAppFinding {
      // The project says why the app's identifier is unknown (a settings file missing from the checkout),
      // which the file-level error (the app's CFBundleIdentifier is a reference) would leave out.
      plan.findings.removeAll { ["containing-app-unknown", "containing-app-build-setting"].contains($0.id) }
      // The project plan's fix points at its own warnings about the missing file, which this run does not
      // print: name the command that does.
      plan.findings.append(
        ConfiguratorFinding(
          id: finding.id, finding.severity, at: ["IntuneMAMSettings", "ContainingAppBundleId"],
          position: plan.infoPlistPosition(of: ["IntuneMAMSettings", "ContainingAppBundleId"]),
          finding.message + place(of: finding),
          fix: "make the app's build settings complete (a file they come from is missing from the checkout: "
            + "rulekit configure --project \(ShellWord.quoted(found.path)) --dry-run names it; CocoaPods writes "
            + "its xcconfigs on pod install), then run configure again"
            + (finding.severity == .error ? ", or pass --containing-app BUNDLE_ID" : " to check")))
    }
    guard context.containingAppNeedsBuildSetting, context.appTargetName != nil else { return }
    plan.findings.removeAll { $0.id == "containing-app-unknown" }
    plan.findings.append(
      ConfiguratorFinding(
        id: "containing-app-per-configuration", .error, at: ["IntuneMAMSettings", "ContainingAppBundleId"],
        position: plan.infoPlistPosition(of: ["IntuneMAMSettings", "ContainingAppBundleId"]),
        "the containing app's bundle ID differs per configuration and no build setting of "
          + "\(context.targetName) spells it, so no one value of ContainingAppBundleId is right in every "
          + "configuration",
        fix:
          "run rulekit configure --project \(ShellWord.quoted(found.path)) --target \(ShellWord.quoted(app)), "
          + "which adds a build setting for it"))
  }
}
