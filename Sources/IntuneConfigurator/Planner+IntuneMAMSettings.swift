import PropertyLists
import UniformTypes
import XcodeProjects

extension Planner {
  // MARK: IntuneMAMSettings

  mutating func planAppGroups() {
    let groupsKey = "com.apple.security.application-groups"
    if let declared = entitlements[groupsKey], declared.arrayValue == nil {
      finding(
        "app-groups-entitlement-not-array", .error, .entitlements, at: [.key(groupsKey)],
        "\(groupsKey) is <\(declared.elementName)>, not <array>; IntuneMAMSettings.AppGroupIdentifiers cannot "
          + "be derived from it", fix: "make it an <array> of <string> app group identifiers (group.…)")
      return
    }
    guard case .array(let groups) = entitlements[groupsKey] else { return }
    reportNonStrings(groups, at: [.key(groupsKey)], id: "app-groups-entitlement-not-string")
    let wanted = options.appGroupIdentifiers ?? groups.compactMap(\.stringValue).map(asInInfoPlist)
    guard !wanted.isEmpty else { return }
    let path: PropertyListPath = [Self.settingsKey, "AppGroupIdentifiers"]
    let current = settings["AppGroupIdentifiers"]
    if let current, current.arrayValue == nil {
      finding(
        "app-groups-not-array", .error, at: path, "IntuneMAMSettings.AppGroupIdentifiers is not an array",
        fix: "make it an <array> of the app group identifiers from the entitlements")
      return
    }
    let existing = Set(current?.arrayValue?.compactMap(\.stringValue) ?? [])
    let missing = wanted.filter { !existing.contains($0) }
    guard !missing.isEmpty else { return }
    let edits: [PropertyListEdit] =
      current == nil
      ? [.set(path, .array(missing.map(PropertyListValue.string)))]
      : missing.map { .append(.string($0), to: path) }
    changes.append(
      ConfiguratorChange(
        .appGroupIdentifiers, at: path,
        "add app group\(missing.count == 1 ? "" : "s") " + missing.joined(separator: ", ")
          + " from com.apple.security.application-groups", edits: edits))
  }

  /// The containing app's bundle ID as written: from the options, else from the containing app's Info.plist.
  /// It may be an unexpanded build setting; ``containingAppBundleID`` is the usable one.
  var writtenContainingAppBundleID: String? { options.containingApp?.writtenBundleIdentifier }

  /// The containing app's identifier per configuration, when the files are planned from an Xcode project.
  var containingAppIdentifiers: [String: String] {
    options.buildConfigurations.isEmpty ? [:] : options.containingApp?.bundleIdentifiersByConfiguration ?? [:]
  }

  /// The configurations in which `text`, expanded as Xcode will in this target's build, is not the
  /// containing app's identifier (with what it expands to); empty when it is right in every configuration.
  /// A configuration whose app identifier expands to nothing (a file its settings come from is missing) has
  /// nothing to compare with: the project plan warns `containing-app-unverified` for it instead.
  func configurationsMisnamingContainingApp(_ text: String) -> [(configuration: String, expanded: String)] {
    options.buildConfigurations.compactMap { build in
      let expanded = build.expand(text)
      let app = containingAppIdentifiers[build.configuration]
      return expanded == app || app == "" ? nil : (build.configuration, expanded)
    }
  }

  /// The containing app's bundle ID, or `nil` when it is unknown or a build-setting reference that does not
  /// name the app: `$(PRODUCT_BUNDLE_IDENTIFIER)` is expanded in each target's own build, so in the
  /// extension it would name the extension. A reference counts only when the files are planned from an
  /// Xcode project and it expands to the app's identifier in every configuration.
  var containingAppBundleID: String? {
    guard let written = writtenContainingAppBundleID else { return inferredContainingAppBundleID }
    if URLSchemeValidator.buildSetting(in: written) == nil { return written }
    guard !containingAppIdentifiers.isEmpty else { return nil }
    return configurationsMisnamingContainingApp(written).isEmpty ? written : nil
  }

  /// The containing app's identifier read off the extension's own, when nothing names the app: Apple
  /// requires an embedded extension's bundle identifier to be its app's identifier, a dot and a name of its
  /// own (Xcode refuses to embed one that is not: "Embedded binary's bundle identifier is not prefixed with
  /// the parent app's bundle identifier"), so `com.contoso.notes.share` is in `com.contoso.notes`. Only a
  /// literal identifier tells: `$(PRODUCT_BUNDLE_IDENTIFIER)` is resolved per build.
  var inferredContainingAppBundleID: String? {
    guard target.isExtension, options.buildConfigurations.isEmpty, let own = bundleIdentifier,
      URLSchemeValidator.buildSetting(in: own) == nil, let dot = own.lastIndex(of: "."),
      dot > own.startIndex
    else { return nil }
    return String(own[..<dot])
  }

  mutating func planContainingApp() {
    let path: PropertyListPath = [Self.settingsKey, "ContainingAppBundleId"]
    // The app's Info.plist was named but cannot name the app: say exactly that, rather than guess.
    if let app = options.containingApp, app.bundleIdentifier == nil, let appInfo = app.infoPlist,
      appInfo.value.dictionaryValue?["CFBundleIdentifier"] == nil, settings["ContainingAppBundleId"] == nil
    {
      finding(
        "containing-app-no-bundle-id", .error, .containingApp, at: [],
        "the containing app's Info.plist has no CFBundleIdentifier, so it does not say the app's bundle ID "
          + "(a target that generates its Info.plist gets CFBundleIdentifier from PRODUCT_BUNDLE_IDENTIFIER)",
        fix:
          "pass --containing-app BUNDLE_ID, or --project App.xcodeproj --target App to read it from the project"
      )
      return
    }
    reportContainingAppNotParent()
    let known = containingAppBundleID
    if writtenContainingAppBundleID == nil, settings["ContainingAppBundleId"] == nil,
      let inferred = inferredContainingAppBundleID
    {
      finding(
        "containing-app-inferred", .warning, at: ["CFBundleIdentifier"],
        "the containing app is not named, so its bundle ID is taken to be \"\(inferred)\": an embedded "
          + "extension's identifier is its app's identifier followed by a dot and a name of its own",
        fix: "pass --containing-app BUNDLE_ID (or --project) if the app is not \(inferred)")
    }
    if let existing = settings["ContainingAppBundleId"] {
      if !containingAppIdentifiers.isEmpty, let text = existing.stringValue {
        // Planned from a project: what matters is what each configuration's build makes of the value.
        let wrong = configurationsMisnamingContainingApp(text)
        if !wrong.isEmpty {
          let detail = wrong.map {
            "\($0.expanded.isEmpty ? "nothing" : "\"\($0.expanded)\"") in \($0.configuration) (the app is "
              + "\"\(containingAppIdentifiers[$0.configuration] ?? "unknown")\")"
          }
          finding(
            "containing-app-mismatch", .warning, at: path,
            "ContainingAppBundleId is \"\(text)\", which Xcode expands to " + detail.joined(separator: ", "),
            fix: "set it to " + (known ?? "the containing app's bundle ID"))
        }
        return
      }
      if let text = existing.stringValue, Self.refersToOwnBundleID(text) {
        finding(
          "containing-app-id-build-setting", .warning, at: path,
          "ContainingAppBundleId is \"\(text)\", which Xcode expands in this extension's build to the "
            + "extension's own bundle ID, not the containing app's",
          fix: "set it to " + (known ?? "the containing app's bundle ID"))
      } else if let known, writtenContainingAppBundleID != nil, existing.stringValue != known {
        finding(
          "containing-app-mismatch", .warning, at: path,
          "ContainingAppBundleId is \"\(existing.stringValue ?? "not a string")\" but the containing app is "
            + "\"\(known)\"", fix: "set it to \(known)")
      }
      return
    }
    if let written = writtenContainingAppBundleID, known == nil {
      reportUnexpandedContainingAppID(written)
      return
    }
    guard let known else {
      finding(
        "containing-app-unknown", .error, at: path,
        "this extension needs IntuneMAMSettings.ContainingAppBundleId, and the containing app is unknown",
        fix: "pass --containing-app BUNDLE_ID or --containing-app-plist App/Info.plist")
      return
    }
    changes.append(
      ConfiguratorChange(
        .containingAppBundleID, at: path, "set to \(known)", edits: [.set(path, .string(known))]))
  }

  /// The containing app's bundle ID is a build-setting reference: copied into the extension it would be
  /// expanded in the extension's build (the same class of mistake as Intune SDK issue #579), so nothing is
  /// copied and the user is asked for the real ID.
  mutating func reportUnexpandedContainingAppID(_ written: String) {
    let setting = URLSchemeValidator.buildSetting(in: written) ?? written
    let fix = "pass --containing-app with the app's bundle ID (the value of \(setting) in the app target)"
    if options.containingApp?.bundleIdentifier != nil {
      finding(
        "containing-app-build-setting", .error, at: [Self.settingsKey, "ContainingAppBundleId"],
        "--containing-app is \"\(written)\", an unexpanded build setting; in the extension's build it "
          + "would not name the containing app", fix: fix)
    } else {
      finding(
        "containing-app-build-setting", .error, .containingApp, at: ["CFBundleIdentifier"],
        "the containing app's CFBundleIdentifier is \"\(written)\"; Xcode expands \(setting) in each "
          + "target's own build, so copied into the extension's ContainingAppBundleId it would name the "
          + "extension, not the app", fix: fix)
    }
  }

  /// Whether `value` uses `PRODUCT_BUNDLE_IDENTIFIER`, which in an extension's Info.plist is its own ID.
  static func refersToOwnBundleID(_ value: String) -> Bool {
    URLSchemeValidator.buildSettingNames(in: value).contains("PRODUCT_BUNDLE_IDENTIFIER")
  }

  /// Warns when the containing app comes from an Info.plist (found beside the extension, or given with
  /// `--containing-app-plist`) whose literal `CFBundleIdentifier` is not the start of the extension's: an
  /// embedded extension's identifier is its app's, a dot and a name of its own, so that Info.plist is
  /// probably another app's, and ContainingAppBundleId would name the wrong app without a word.
  mutating func reportContainingAppNotParent() {
    guard target.isExtension, options.buildConfigurations.isEmpty, let app = options.containingApp,
      app.bundleIdentifier == nil, let appInfo = app.infoPlist,
      let appID = appInfo.value.dictionaryValue?["CFBundleIdentifier"]?.stringValue,
      let own = bundleIdentifier,
      URLSchemeValidator.buildSetting(in: appID) == nil, URLSchemeValidator.buildSetting(in: own) == nil,
      !own.hasPrefix(appID + ".")
    else { return }
    let source = appInfo.path.map { " (\($0))" } ?? ""
    finding(
      "containing-app-not-parent", .warning, at: ["CFBundleIdentifier"],
      "this extension's bundle ID \"\(own)\" does not start with \"\(appID).\", the bundle ID of the "
        + "containing app's Info.plist\(source); an extension is embedded only in an app whose identifier "
        + "its own starts with",
      fix: "pass --containing-app BUNDLE_ID (or --project) if the app is not \(appID)")
  }
}
