import PropertyLists
import XcodeProjects

/// What `AppGroupIdentifiers` holds when one Info.plist serves configurations whose entitlements name
/// different app groups (`group.com.example.dev` in Debug, `group.com.example` in Release): the groups all
/// of them share, then one build-setting reference per group that differs, set per configuration.
struct AppGroupChoice: Sendable {
  /// The entries, as written in the Info.plist.
  var entries: [String]
  /// The settings the references need: name → value per configuration.
  var settings: [(name: String, values: [String: String])]

  /// The pending settings in `configuration`.
  func pendingSettings(forConfiguration configuration: String) -> [PendingSetting] {
    settings.compactMap { setting in
      setting.values[configuration].map { PendingSetting(name: setting.name, value: $0) }
    }
  }
}

extension ProjectPlanner {
  /// The setting for the app group that differs per configuration (a number follows when there are more).
  static let appGroupSetting = "INTUNE_APP_GROUP_ID"

  /// The app-group entries for the Info.plist `groups` share, when their entitlements name different groups;
  /// `nil` when every configuration's entitlements say the same (the entitlements' text is then written
  /// as is, and Xcode expands any reference in it per configuration).
  mutating func appGroupChoice(
    for target: XcodeTarget, infoPlist: String, groups: [TargetFiles]
  ) -> AppGroupChoice? {
    var written: [[String]] = []
    var expanded: [(configuration: String, groups: [String])] = []
    for group in groups where group.infoPlist.map(Self.absolute) == infoPlist || group.infoPlist == nil {
      let file = group.entitlements.flatMap {
        configured[$0] ?? (try? PropertyListFile.read(contentsOf: $0))
      }
      // As the Info.plist will spell them: `$(CFBundleIdentifier)` is expanded in entitlements only.
      let texts =
        (file?.value.dictionaryValue?["com.apple.security.application-groups"]?.arrayValue?
        .compactMap(\.stringValue) ?? []).map {
          Planner.spellingBundleIdentifier($0, as: "$(PRODUCT_BUNDLE_IDENTIFIER)")
        }
      written.append(texts)
      for resolved in group.settings {
        expanded.append((resolved.configuration, texts.map(resolved.expand)))
      }
    }
    guard Set(written).count > 1, let first = expanded.first else { return nil }
    let common = first.groups.filter { group in expanded.allSatisfy { $0.groups.contains(group) } }
    let differing = expanded.map { entry in
      (entry.configuration, entry.groups.filter { !common.contains($0) })
    }
    let counts = Set(differing.map(\.1.count))
    guard counts.count == 1, let count = counts.first else {
      findings.append(
        ProjectFinding(
          id: "app-groups-differ-per-configuration", .warning, at: target.location,
          "\(target.name)'s configurations name different numbers of app groups ("
            + differing.map { "\($0.0): \($0.1.joined(separator: ", "))" }.joined(separator: "; ")
            + "), which one Info.plist cannot list per configuration; AppGroupIdentifiers gets the groups of "
            + "each configuration",
          fix: "give each configuration the same number of app groups, or give the configurations their own "
            + "Info.plist (INFOPLIST_FILE)"))
      return nil
    }
    var settings: [(name: String, values: [String: String])] = []
    for index in 0..<count {
      let name = count == 1 ? Self.appGroupSetting : "\(Self.appGroupSetting)_\(index + 1)"
      var values: [String: String] = [:]
      for (configuration, groups) in differing { values[configuration] = groups[index] }
      settings.append((name, values))
    }
    return AppGroupChoice(entries: common + settings.map { "$(\($0.name))" }, settings: settings)
  }
}
