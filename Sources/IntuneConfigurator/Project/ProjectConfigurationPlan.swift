import PropertyLists
import XcodeProjects

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Something about the project as a whole: a base configuration missing from the checkout, a project that a
/// generator will overwrite, a target whose files cannot be found.
public struct ProjectFinding: Sendable, Hashable {
  /// A stable id, e.g. `generated-project`.
  public var id: String
  /// How serious it is: an error blocks writing.
  public var severity: FindingSeverity
  /// Where, when the finding is about a line of the pbxproj, an xcconfig or a spec file.
  public var location: BuildSettingLocation?
  /// What is wrong, in one line.
  public var message: String
  /// How to fix it, when there is one thing to do.
  public var fix: String?
  /// The file the message names, absolute, when it names one (a missing Info.plist or entitlements file):
  /// ``message(displayPath:)`` shows it as the rest of the output shows paths.
  public var namedFile: String?

  /// A finding `id` of `severity` at `location`, with `message` and, when there is one, `fix`.
  public init(
    id: String, _ severity: FindingSeverity, at location: BuildSettingLocation? = nil, _ message: String,
    fix: String? = nil, namedFile: String? = nil
  ) {
    self.id = id
    self.severity = severity
    self.location = location
    self.message = message
    self.fix = fix
    self.namedFile = namedFile
  }

  /// The message with ``namedFile`` written as `displayPath` writes paths (relative to the working
  /// directory in the CLI), so one run names every file one way.
  public func message(displayPath: (String) -> String) -> String {
    guard let namedFile else { return message }
    return message.replacing(namedFile, with: displayPath(namedFile))
  }
}

/// A build setting the plan adds to a target's configuration in the project file.
public struct PlannedBuildSetting: Sendable, Hashable {
  /// The edit of the project file.
  public var edit: BuildSettingEdit
  /// The target whose configuration it is.
  public var targetName: String
  /// The configuration's name.
  public var configuration: String
  /// Why, in one line.
  public var reason: String
}

/// One target's files in a project plan: the Info.plist and entitlements Xcode builds it with, and the
/// configurator's plan for them.
public struct TargetConfigurationPlan: Sendable {
  /// The target's name.
  public var targetName: String
  /// The build configurations these files serve (all of the target's, unless its `INFOPLIST_FILE` differs
  /// per configuration).
  public var configurations: [String]
  /// The Info.plist, as the configurator found it (or will create it).
  public var infoPlistPath: String
  /// The entitlements file, when the target has one (or gets one).
  public var entitlementsPath: String?
  /// The configurator's plan for the two files.
  public var plan: ConfigurationPlan
  /// The configurator creates the Info.plist: the target generates its Info.plist and names none.
  public var createsInfoPlist: Bool
  /// The configurator creates the entitlements file (`fixEntitlements`).
  public var createsEntitlements: Bool
  /// The plans earlier in the run whose changes to the same Info.plist this plan starts from, as
  /// `Target (configurations)`; empty when it starts from the file on disk. A target building one
  /// Info.plist with different entitlements per configuration is planned once per entitlements file, each
  /// plan adding to the last; the file written holds them all.
  public var infoPlistPlannedBy: [String] = []
}

/// Everything `configure --project` would do to an app and the extensions it embeds, before it does it.
public struct ProjectConfigurationPlan: Sendable {
  /// The project planned.
  public var projectPath: String
  /// The project file.
  public var pbxprojPath: String
  /// The application target.
  public var appTargetName: String
  /// The app first, then each extension it embeds, in the order of its embed phase.
  public var targets: [TargetConfigurationPlan]
  /// Build settings to add to the project file (`INFOPLIST_FILE`, `CODE_SIGN_ENTITLEMENTS` of created
  /// files, the containing app's identifier per configuration).
  public var buildSettings: [PlannedBuildSetting]
  /// Findings about the project as a whole.
  public var findings: [ProjectFinding]
  /// The tool that generates this project from a spec, when there is one beside it: its next run drops
  /// the project-file changes, so ``specAdditions()`` says what to add to the spec.
  public var generator: ProjectGenerator?
  /// The project file's bytes as read.
  let pbxprojBytes: [UInt8]
  /// Each Info.plist and entitlements file as read from disk, before any target's changes; a file the plan
  /// creates has none.
  let originals: [String: PropertyListFile]

  /// Whether anything blocks writing: an error finding in the project or any target.
  public var isBlocked: Bool {
    findings.contains { $0.severity == .error }
      || targets.contains { $0.plan.findings.contains { $0.severity == .error } }
  }

  /// Whether the plan changes nothing (a second run).
  public var isEmpty: Bool {
    buildSettings.isEmpty && targets.allSatisfy { $0.plan.isEmpty && !$0.createsInfoPlist }
  }

  /// The project file with the build-setting edits applied; the bytes as read when there are none.
  public func configuredProjectFile() throws(PropertyListError) -> [UInt8] {
    guard !buildSettings.isEmpty else { return pbxprojBytes }
    return try ProjectFileEditor(bytes: pbxprojBytes, path: pbxprojPath).applying(buildSettings.map(\.edit))
  }

  /// The project file's changes as a unified diff; empty when it does not change.
  public func projectFileDiff() throws(PropertyListError) -> String {
    guard !buildSettings.isEmpty else { return "" }
    return try ProjectFileEditor(bytes: pbxprojBytes, path: pbxprojPath).diff(buildSettings.map(\.edit))
  }

  /// Every file the plan writes, with its new bytes: each Info.plist and entitlements file once, in its
  /// final state (a file several targets share carries every target's changes), and the project file.
  public func filesToWrite() throws(PropertyListError) -> [(data: Data, path: String)] {
    var order: [String] = []
    var latest: [String: PropertyListFile] = [:]
    var changed: Set<String> = []
    for target in targets {
      let info = try target.plan.configuredInfoPlist()
      if target.createsInfoPlist || target.plan.changes.contains(where: { $0.file == .infoPlist }) {
        changed.insert(target.infoPlistPath)
      }
      if latest.updateValue(info, forKey: target.infoPlistPath) == nil { order.append(target.infoPlistPath) }
      if let path = target.entitlementsPath, let entitlements = try target.plan.configuredEntitlements() {
        if target.createsEntitlements || target.plan.changes.contains(where: { $0.file == .entitlements }) {
          changed.insert(path)
        }
        if latest.updateValue(entitlements, forKey: path) == nil { order.append(path) }
      }
    }
    var files: [(data: Data, path: String)] = []
    for path in order where changed.contains(path) {
      guard let file = latest[path] else { continue }
      files.append((try file.serialized(), path))
    }
    if !buildSettings.isEmpty {
      files.append((Data(try configuredProjectFile()), pbxprojPath))
    }
    return files
  }

  /// Writes every changed file, all or none (see `AtomicFileWriter`), and returns their paths.
  @discardableResult
  public func write() throws(PropertyListError) -> [String] {
    let files = try filesToWrite()
    try AtomicFileWriter.write(files)
    return files.map(\.path)
  }
}
