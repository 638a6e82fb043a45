import PropertyLists
import UniformTypes
import XcodeProjects

extension Planner {
  // MARK: Face ID

  mutating func planFaceID() {
    let path: PropertyListPath = ["NSFaceIDUsageDescription"]
    guard info["NSFaceIDUsageDescription"] == nil else { return }
    changes.append(
      ConfiguratorChange(
        .faceIDUsageDescription, at: path, "add a default Face ID usage description",
        edits: [.set(path, .string(options.faceIDUsageDescription))]))
  }

  // MARK: Entitlements

  /// An error for each element of an entitlements array that is not a string: codesign refuses the file.
  mutating func reportNonStrings(_ elements: [PropertyListValue], at path: PropertyListPath, id: String) {
    for (index, element) in elements.enumerated() where element.stringValue == nil {
      finding(
        id, .error, .entitlements, at: path.appending(.index(index)),
        "\(path)[\(index)] is <\(element.elementName)>, not <string>", fix: "write it as a <string>")
    }
  }

  /// `text`, an entitlement's value, with `$(CFBundleIdentifier)` (or `${CFBundleIdentifier}`) spelt as
  /// `bundleIdentifier`, the Info.plist's own `CFBundleIdentifier`. Xcode expands that Info.plist key in
  /// entitlements (its default iCloud container is `iCloud.$(CFBundleIdentifier)`, Xcode Help, "Configure
  /// iCloud services"; Simplenote's app group is `group.$(CFBundleIdentifier)`), but an Info.plist expands
  /// build settings only, where it names none: a value copied there, or compared with the bundle ID, must
  /// spell the identifier the way the Info.plist does.
  static func spellingBundleIdentifier(_ text: String, as bundleIdentifier: String) -> String {
    guard text.contains("CFBundleIdentifier") else { return text }
    return text.replacing("$(CFBundleIdentifier)", with: bundleIdentifier).replacing(
      "${CFBundleIdentifier}", with: bundleIdentifier)
  }

  /// An entitlement's value as the Info.plist would spell it (``spellingBundleIdentifier(_:as:)``).
  func asInInfoPlist(_ entitlement: String) -> String {
    Self.spellingBundleIdentifier(entitlement, as: bundleIdentifierReference)
  }

  /// The bundle ID as the plan spells it: the Info.plist's `CFBundleIdentifier`, or when it has none the
  /// reference the build expands, `$(PRODUCT_BUNDLE_IDENTIFIER)` for Xcode and `$(CFBundleIdentifier)` for
  /// .NET (``IntuneConfiguratorOptions/dotNetProject``).
  var bundleIdentifierReference: String {
    bundleIdentifier
      ?? (options.dotNetProject == nil ? "$(PRODUCT_BUNDLE_IDENTIFIER)" : "$(CFBundleIdentifier)")
  }

  mutating func planKeychainGroups() {
    // An extension signing with its app's file has the app's keychain groups: the app's plan checks and
    // edits that file, and asking here too would ask for other groups in the same file (its own bundle ID,
    // or a setting only its target sets) that the app's edit never adds.
    guard !(target.isExtension && options.signsWithContainingAppEntitlements) else { return }
    let path: PropertyListPath = ["keychain-access-groups"]
    let current = entitlements["keychain-access-groups"]
    if let current, current.arrayValue == nil {
      finding(
        "keychain-groups-not-array", .error, .entitlements, at: path, "keychain-access-groups is not an array"
      )
      return
    }
    reportNonStrings(current?.arrayValue ?? [], at: path, id: "keychain-group-not-string")
    let existing = (current?.arrayValue?.compactMap(\.stringValue) ?? []).map(asInInfoPlist)
    let bundleID = bundleIdentifierReference
    let plan = KeychainGroupsPlanner.plan(existing: existing, bundleID: bundleID, guide: options.guide)
    if options.guide == .v2016 || options.guide == .v2018,
      !existing.map(KeychainGroupsPlanner.unprefixed).contains(KeychainGroupsPlanner.workplaceJoinGroup)
    {
      finding(
        "keychain-workplacejoin", .note, .entitlements, at: path,
        "if the app uses ADAL single sign-on, the \(options.guide.rawValue) guide also asks for the "
          + KeychainGroupsPlanner.workplaceJoinGroup + " keychain group",
        fix: "add $(AppIdentifierPrefix)\(KeychainGroupsPlanner.workplaceJoinGroup) to keychain-access-groups"
      )
    }
    let first = existing.first.map(KeychainGroupsPlanner.unprefixed)
    // An extension shares its app's keychain, so the app's bundle ID first is right for it too.
    var containingFirst = target.isExtension && first == containingAppBundleID
    var bundleIDFirst = !plan.bundleIDNotFirst
    if let first, !options.buildConfigurations.isEmpty {
      // Planned from a project: a group spelt with other settings is the bundle ID when every
      // configuration's build expands it to the same identifier, behind a literal team prefix or not
      // (Element X's $(KEYCHAIN_ACCESS_GROUP_IDENTIFIER) = $(DEVELOPMENT_TEAM).$(PRODUCT_BUNDLE_IDENTIFIER)).
      let expanded = { (build: BuildConfigurationExpansion) in
        KeychainGroupsPlanner.unprefixed(build.expand(first))
      }
      bundleIDFirst = options.buildConfigurations.allSatisfy { expanded($0) == $0.expand(bundleID) }
      containingFirst =
        target.isExtension && !containingAppIdentifiers.isEmpty
        && options.buildConfigurations.allSatisfy {
          expanded($0) == containingAppIdentifiers[$0.configuration]
        }
    }
    if !bundleIDFirst && !containingFirst {
      let listed = existing.contains { KeychainGroupsPlanner.unprefixed($0) == bundleID }
      let group = "$(AppIdentifierPrefix)\(bundleID)"
      finding(
        "keychain-bundle-id-not-first", .warning, .entitlements, at: path,
        "the first keychain access group is not \(target.isExtension ? "this extension's" : "the app's") bundle "
          + "ID (\(bundleID)); the Intune guide asks for it first",
        fix: (listed
          ? "move \(group) to the top of keychain-access-groups"
          : "add \(group) as the first "
            + "entry of keychain-access-groups")
          + " (by hand: the first group is where the keychain saves items that name none, so items saved "
          + "before stay in the old one; --fix-entitlements does not reorder it)")
    }
    let missing = (plan.bundleGroupToPrepend.map { [$0] } ?? []) + plan.additions
    guard !missing.isEmpty else { return }
    guard options.fixEntitlements else {
      finding(
        "keychain-groups-missing", .warning, .entitlements, at: path,
        "keychain-access-groups lacks " + missing.joined(separator: ", "),
        fix: "run again with --fix-entitlements, or add them in Xcode's Keychain Sharing capability")
      return
    }
    let edits: [PropertyListEdit] =
      current == nil
      ? [.set(path, .array(missing.map(PropertyListValue.string)))]
      : missing.map { .append(.string($0), to: path) }
    changes.append(
      ConfiguratorChange(
        .keychainAccessGroup, .entitlements, at: path, "add " + missing.joined(separator: ", "), edits: edits)
    )
  }
}
