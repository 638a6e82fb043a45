/// The keychain access groups the Intune guide requires in an app's entitlements (§3.8): the app's bundle ID
/// first, then the shared Intune and ADAL/MSAL cache groups, each written with `$(AppIdentifierPrefix)`
/// because Xcode only adds that prefix itself when the groups are edited in its UI.
enum KeychainGroupsPlanner {
  static let appIdentifierPrefix = "$(AppIdentifierPrefix)"
  static let intuneGroup = "com.microsoft.intune.mam"
  static let adalCacheGroup = "com.microsoft.adalcache"
  /// ADAL single sign-on's group: in the 2017 guide's main list; for ADAL SSO only in 2016 and 2018.
  static let workplaceJoinGroup = "com.microsoft.workplacejoin"

  /// The shared groups `guide` requires of every app, after the bundle ID.
  static func requiredGroups(for guide: IntuneGuideVersion) -> [String] {
    guide == .v2017 ? [intuneGroup, adalCacheGroup, workplaceJoinGroup] : [intuneGroup, adalCacheGroup]
  }

  /// The outcome of checking `keychain-access-groups`.
  struct Plan: Sendable, Hashable {
    /// Groups to add, each with its prefix, in the order they should appear after the existing ones —
    /// except `bundleGroup`, which belongs first.
    var additions: [String]
    /// The bundle-ID group to insert at the front, when the list has no group at all.
    var bundleGroupToPrepend: String?
    /// Set when groups exist but the first one is not the app's bundle ID (the guide: "Ensure the app's
    /// bundle ID is the first entry in the list"). Reported, never reordered for the user.
    var bundleIDNotFirst: Bool
  }

  /// The group name without its `$(AppIdentifierPrefix)` or ten-character team prefix.
  static func unprefixed(_ group: String) -> String {
    if group.hasPrefix(appIdentifierPrefix) { return String(group.dropFirst(appIdentifierPrefix.count)) }
    // A literal team/app-ID prefix: ten upper-case letters or digits and a dot.
    let parts = group.split(separator: ".", maxSplits: 1)
    if parts.count == 2, parts[0].count == 10,
      parts[0].allSatisfy({ ($0.isUppercase || $0.isNumber) && $0.isASCII })
    {
      return String(parts[1])
    }
    return group
  }

  /// Plans `keychain-access-groups` for an app whose bundle identifier is `bundleID`, following `guide`.
  static func plan(existing: [String], bundleID: String, guide: IntuneGuideVersion = .newest) -> Plan {
    let names = existing.map(unprefixed)
    var additions: [String] = []
    for group in requiredGroups(for: guide) where !names.contains(group) {
      additions.append(appIdentifierPrefix + group)
    }
    let prepend = existing.isEmpty ? appIdentifierPrefix + bundleID : nil
    let notFirst = !existing.isEmpty && names.first != bundleID
    return Plan(additions: additions, bundleGroupToPrepend: prepend, bundleIDNotFirst: notFirst)
  }
}
