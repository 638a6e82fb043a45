import XcodeProjects

// The Mac Catalyst build's own Info.plist and entitlements file (`[sdk=macosx*]` settings).
//
// They are left as they are, and a note says so. The Intune App SDK for iOS does not support Mac
// Catalyst: its maintainers answer that it is for iOS and iPadOS only and must not be linked into the
// Mac build (microsoftconnect/ms-intune-app-sdk-ios issues 62 and 396), and its xcframeworks have no Mac
// Catalyst slice (issue 224). A Mac build has no SDK to read IntuneMAMSettings or to use the
// `com.microsoft.intune.mam` keychain group, so nothing configure writes belongs in its files.

extension ProjectPlanner {
  /// The stable id of the note about a Mac Catalyst file left unchanged.
  static let catalystFileNote = "mac-catalyst-file-unchanged"

  /// The configurations of `appSettings` whose app also builds for Mac Catalyst (`SUPPORTS_MACCATALYST =
  /// YES`); empty when the run is for macOS already.
  func catalystConfigurations(_ appSettings: [ResolvedBuildSettings]) -> Set<String> {
    guard !sdk.hasPrefix(Self.catalystSDK) else { return [] }
    return Set(appSettings.filter { $0["SUPPORTS_MACCATALYST"] == "YES" }.map(\.configuration))
  }

  /// Notes each Info.plist and entitlements file `target`'s Mac Catalyst build uses instead of its iOS
  /// build's (`INFOPLIST_FILE[sdk=macosx*]`, `CODE_SIGN_ENTITLEMENTS[sdk=macosx*]`), in `configurations`:
  /// the plan leaves them unchanged, and says so at the setting that names them.
  mutating func noteCatalystFiles(
    of target: XcodeTarget, settings: [ResolvedBuildSettings], macSettings: [ResolvedBuildSettings],
    configurations: Set<String>
  ) {
    for (setting, role) in [
      ("INFOPLIST_FILE", "Info.plist"), ("CODE_SIGN_ENTITLEMENTS", "entitlements file"),
    ] {
      var paths: [String] = []
      var uses: [String: (configurations: [String], location: BuildSettingLocation?)] = [:]
      for mac in macSettings where configurations.contains(mac.configuration) {
        guard let path = mac.path(for: setting).map(Self.absolute) else { continue }
        let iOS = settings.first { $0.configuration == mac.configuration }?.path(for: setting).map(
          Self.absolute)
        guard path != iOS else { continue }
        if uses[path] == nil {
          paths.append(path)
          uses[path] = ([], mac.assignment(for: setting)?.location)
        }
        uses[path]?.configurations.append(mac.configuration)
      }
      for path in paths {
        guard let use = uses[path] else { continue }
        findings.append(
          ProjectFinding(
            id: Self.catalystFileNote, .note, at: use.location ?? target.location,
            "\(target.name)'s Mac Catalyst build uses its own \(role), \(relativeToSourceRoot(path)) "
              + "(\(setting)[sdk=macosx*], in \(use.configurations.joined(separator: ", "))); it is left "
              + "unchanged: the Intune App SDK for iOS does not support Mac Catalyst, so the Mac build does "
              + "not link it and reads no Intune settings"))
      }
    }
  }
}

extension ProjectPlanner {
  /// With `--fix-entitlements`, keeps the Mac Catalyst build of `target` on its own entitlements file in
  /// `configurations`. The `CODE_SIGN_ENTITLEMENTS` the plan adds goes in the target's own configuration,
  /// which Xcode takes over anything below it, an `[sdk=macosx*]` value in an xcconfig or the project
  /// included; so that value is added beside it, as written, where the target does not set one itself.
  mutating func keepCatalystEntitlements(of target: XcodeTarget, configurations: [String]) {
    let wanted = Set(configurations).intersection(macConfigurations)
    guard !wanted.isEmpty, let macSettings = try? settings(of: target, sdk: Self.catalystSDK),
      let list = try? project.buildConfigurations(of: target)
    else { return }
    let condition = BuildSettingCondition(parameter: "sdk", pattern: Self.catalystSDK + "*")
    for configuration in list where wanted.contains(configuration.name) {
      let ownMacValue = configuration.buildSettings.contains { assignment in
        assignment.name == "CODE_SIGN_ENTITLEMENTS"
          && assignment.conditions.contains {
            $0.parameter == "sdk" && Self.catalystSDK.hasPrefix($0.pattern.filter { $0 != "*" })
          }
      }
      guard !ownMacValue,
        let mac = macSettings.first(where: { $0.configuration == configuration.name }),
        mac.path(for: "CODE_SIGN_ENTITLEMENTS") != nil,
        let written = mac.assignment(for: "CODE_SIGN_ENTITLEMENTS")
      else { continue }
      edits.append(
        PlannedBuildSetting(
          edit: BuildSettingEdit(
            configurationID: configuration.id, name: "CODE_SIGN_ENTITLEMENTS", conditions: [condition],
            value: written.value),
          targetName: target.name, configuration: configuration.name,
          reason:
            "keeps the Mac Catalyst build on its own entitlements file, which the CODE_SIGN_ENTITLEMENTS "
            + "added for iOS would override (--fix-entitlements)"))
    }
  }
}
