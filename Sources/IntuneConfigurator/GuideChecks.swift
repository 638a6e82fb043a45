import PropertyLists

/// The main-interface keys the 2016 and 2017 guides move into `IntuneMAMSettings` (§3.6): the SDK loads the
/// main nib or storyboard itself once it has checked the policy, so iOS must not load it first.
enum MainInterfaceKeys {
  /// Each top-level key and the `IntuneMAMSettings` key it moves to, in the guide's order.
  static let moves: [(topLevel: String, setting: String)] = [
    ("UIMainStoryboardFile", "MainStoryboardFile"),
    ("UIMainStoryboardFile~ipad", "MainStoryboardFile~ipad"),
    ("NSMainNibFile", "MainNibFile"),
    ("NSMainNibFile~ipad", "MainNibFile~ipad"),
  ]
}

extension Planner {
  // MARK: Main interface (2016, 2017)

  /// Cuts `UIMainStoryboardFile`/`NSMainNibFile` (and their `~ipad` variants) from the top level and sets
  /// them in `IntuneMAMSettings`, as the 2016 and 2017 guides ask. The only change that removes a key: the
  /// value moves, it is never lost, and later guides (the SDK loads the interface normally) never do it.
  mutating func planMainInterfaceMove() {
    guard options.guide.movesMainInterface, !target.isExtension else { return }
    for (topLevel, setting) in MainInterfaceKeys.moves {
      // Only a key the file holds can move; one generated from INFOPLIST_KEY_… stays a build setting.
      guard let value = info[topLevel], infoFile.value.dictionaryValue?[topLevel] != nil else { continue }
      let destination: PropertyListPath = [Self.settingsKey, .key(setting)]
      if let existing = settings[setting], existing != value {
        finding(
          "main-interface-conflict", .error, at: destination,
          "IntuneMAMSettings.\(setting) and the top-level \(topLevel) name different files; the "
            + "\(options.guide.rawValue) guide moves \(topLevel) into IntuneMAMSettings",
          fix: "keep the file the app should open in IntuneMAMSettings.\(setting) and remove \(topLevel)")
        continue
      }
      var edits: [PropertyListEdit] = []
      if settings[setting] == nil { edits.append(.set(destination, value)) }
      edits.append(.remove([.key(topLevel)]))
      changes.append(
        ConfiguratorChange(
          .mainInterfaceMove, at: [.key(topLevel)], "move \(topLevel) to IntuneMAMSettings › \(setting)",
          edits: edits))
    }
  }

  // MARK: Authentication settings (2023)

  /// The 2023 guide requires `ADALClientId` and a redirect (`ADALRedirectUri` or `ADALRedirectScheme`) for
  /// every app (§3.7.1, lint L18). Only the developer knows the values, so they are reported, not added.
  mutating func checkAuthenticationSettings() {
    guard !target.isExtension, options.guide >= .v2023 else { return }
    guard info["IntuneMAMSettings"] == nil || info["IntuneMAMSettings"]?.dictionaryValue != nil else {
      return
    }
    if settings["ADALClientId"] == nil {
      finding(
        "settings-client-id-missing", .warning, at: [Self.settingsKey],
        "IntuneMAMSettings has no ADALClientId; the \(options.guide.rawValue) guide requires it for every app",
        fix: "add IntuneMAMSettings › ADALClientId with the app registration's client ID (Microsoft Entra)")
    }
    if settings["ADALRedirectUri"] == nil && settings["ADALRedirectScheme"] == nil {
      // A target that generates its Info.plist has CFBundleIdentifier only in the built one; Xcode expands
      // $(PRODUCT_BUNDLE_IDENTIFIER) in the file's values as it does in the generated keys.
      let scheme =
        "msauth."
        + (bundleIdentifier
          ?? (options.buildConfigurations.isEmpty ? "BUNDLE_ID" : "$(PRODUCT_BUNDLE_IDENTIFIER)"))
      // Xcode runs a preprocessed Info.plist through cpp in C mode, where `//` starts a comment even in
      // element text (irccloud's app sets INFOPLIST_PREPROCESS = YES): the URI would lose `//auth</string>`.
      // `$()` expands to nothing after preprocessing, the usual escape in xcconfig files for the same reason.
      let preprocessed = options.buildConfigurations.contains { $0.preprocessing != nil }
      finding(
        "settings-redirect-missing", .warning, at: [Self.settingsKey],
        "IntuneMAMSettings has neither ADALRedirectUri nor ADALRedirectScheme; the "
          + "\(options.guide.rawValue) guide requires one for every app",
        fix: "add IntuneMAMSettings › ADALRedirectUri, e.g. "
          + (preprocessed
            ? "\(scheme):/$()/auth (this Info.plist is preprocessed as C, where // would start a comment; "
              + "$() expands to nothing)"
            : "\(scheme)://auth"))
    }
  }

  // MARK: Open-In extensions (2018, 2020)

  /// The Open-In extension's template icon (§1.3 step 4/5): an extension whose Info.plist declares no icon
  /// gets a note saying exactly how to add one. A note, not a warning: a target can take its icon from an
  /// asset catalog (`ASSETCATALOG_COMPILER_APPICON_NAME`), which Xcode declares only when it builds.
  mutating func checkOpenInIcon() {
    guard target.isExtension, settings["OpenInActionExtension"] == .bool(true),
      info["CFBundleIcons"] == nil, info["CFBundleIconFiles"] == nil, info["CFBundleIconFile"] == nil
    else { return }
    // The names are those `rulekit open-in-icons` writes (OpenInIcons' OpenInIconSet).
    finding(
      "open-in-icon-missing", .note, at: [],
      "the Open-In extension declares no icon; the guide asks for a template icon (one colour, the shape in "
        + "its alpha channel)",
      fix: "run 'rulekit open-in-icons APP.app -o DIR' (or 'IntuneMAMConfigurator -generateOpenInIcons "
        + "APP.app -o DIR'), add the PNGs to this extension target, and set CFBundleIcons › "
        + "CFBundlePrimaryIcon › CFBundleIconFiles = (OpenInIcon60x60) and CFBundleIcons~ipad › "
        + "CFBundlePrimaryIcon › CFBundleIconFiles = (OpenInIcon76x76, OpenInIcon83.5x83.5) in this Info.plist; "
        + "or add the OpenInIcon.appiconset that --appiconset writes to its asset catalog and set "
        + "ASSETCATALOG_COMPILER_APPICON_NAME = OpenInIcon")
  }

  /// The Open-In extension's requirements that live outside its own rule (§1.3, lint L14): the containing
  /// app has a URL scheme (2020: with its `-intunemam` twin), the two share an app group listed in both
  /// `AppGroupIdentifiers`, and the extension is named "Open in" and the app's name.
  mutating func checkOpenInExtension() {
    guard target.isExtension, settings["OpenInActionExtension"] == .bool(true),
      let app = options.containingApp?.infoPlist?.value.dictionaryValue
    else { return }
    let schemes = (app["CFBundleURLTypes"]?.arrayValue ?? []).flatMap {
      $0.dictionaryValue?["CFBundleURLSchemes"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }
    let ownSchemes = schemes.filter { !IntuneSchemes.isTwin($0) }
    if ownSchemes.isEmpty {
      finding(
        "open-in-app-no-url-scheme", .error, .containingApp, at: ["CFBundleURLTypes"],
        "an Open-In extension needs the containing app to define at least one URL scheme",
        fix: "add a scheme to the app's CFBundleURLTypes › CFBundleURLSchemes")
    } else if options.guide >= .v2020 {
      let present = Set(schemes.map { $0.lowercased() })
      let untwinned = ownSchemes.filter { !present.contains(IntuneSchemes.twin(of: $0).lowercased()) }
      if untwinned.count == ownSchemes.count {
        finding(
          "open-in-app-scheme-twin-missing", .warning, .containingApp, at: ["CFBundleURLTypes"],
          "the \(options.guide.rawValue) guide wants the containing app's URL scheme beside its -intunemam "
            + "twin; the app has none of "
            + untwinned.map { IntuneSchemes.twin(of: $0) }.joined(separator: ", "),
          fix: "run rulekit configure on the containing app's Info.plist too")
      }
    }

    let appGroups = Set(
      app["IntuneMAMSettings"]?.dictionaryValue?["AppGroupIdentifiers"]?.arrayValue?.compactMap(\.stringValue)
        ?? [])
    let entitlementGroups =
      (entitlements["com.apple.security.application-groups"]?.arrayValue?.compactMap(\.stringValue) ?? [])
      .map(asInInfoPlist)
    let extensionGroups = Set(
      (settings["AppGroupIdentifiers"]?.arrayValue?.compactMap(\.stringValue) ?? []) + entitlementGroups)
    let shared = appGroups.intersection(extensionGroups)
    if !shared.isEmpty, shared.allSatisfy(Self.refersToOwnBundleID) {
      // The same text, but each target expands it with its own bundle ID: two different groups.
      finding(
        "open-in-app-group-build-setting", .warning, at: [Self.settingsKey, "AppGroupIdentifiers"],
        "the app group the extension and the containing app both list, "
          + shared.sorted().joined(separator: ", ")
          + ", expands to a different group in each target (each has its own PRODUCT_BUNDLE_IDENTIFIER)",
        fix: "name the shared app group literally (group.…) in both targets' entitlements")
    }
    if appGroups.isDisjoint(with: extensionGroups) {
      finding(
        "open-in-no-shared-app-group", .error, at: [Self.settingsKey, "AppGroupIdentifiers"],
        "an Open-In extension must share an app group with the containing app, listed in the "
          + "AppGroupIdentifiers of both; "
          + (appGroups.isEmpty
            ? "the containing app lists none"
            : "the app lists " + appGroups.sorted().joined(separator: ", ")),
        fix: "add a common group to both targets' App Groups capability and run rulekit configure on both")
    }

    let name = info["CFBundleDisplayName"]?.stringValue ?? info["CFBundleName"]?.stringValue
    if !(name?.lowercased().hasPrefix("open in") ?? false) {
      let appName = app["CFBundleDisplayName"]?.stringValue ?? app["CFBundleName"]?.stringValue ?? "APP"
      finding(
        "open-in-name", .note, at: ["CFBundleDisplayName"],
        "the guide names an Open-In extension \"Open in\" and the app's name"
          + (name.map { "; this one is \"\($0)\"" } ?? ""),
        fix: "set CFBundleDisplayName to \"Open in \(appName)\" (localize it as needed)")
    }
  }

  // MARK: Settings of one guide

  /// Checks specific to old guides' wording (lint L1b, L20, L23).
  mutating func checkGuideSpecificSettings() {
    if info["UsePPE"] != nil || settings["UsePPE"] != nil {
      let path: PropertyListPath = info["UsePPE"] != nil ? ["UsePPE"] : [Self.settingsKey, "UsePPE"]
      finding(
        "use-ppe-in-info-plist", .warning, at: path,
        "UsePPE has no effect in Info.plist; the guide: setting it via Info.plist is not supported",
        fix: "move UsePPE to MAMEnvironment.plist, or set the user default com.microsoft.intune.mam.useppe")
    }
    for key in ["SplashIconFile", "SplashIconFile~ipad"] {
      guard let name = settings[key]?.stringValue, name.lowercased().hasSuffix(".png") else { continue }
      finding(
        "settings-splash-extension", .warning, at: [Self.settingsKey, .key(key)],
        "IntuneMAMSettings.\(key) is \"\(name)\"; the guide names splash icons without the .png extension",
        fix: "set it to \"\(name.dropLast(4))\" so iOS picks the @2x/@3x variants")
    }
    if options.guide == .v2016, settings["MAMPolicyWarnAbsent"] == .bool(true) {
      finding(
        "settings-warn-absent-store", .warning, at: [Self.settingsKey, "MAMPolicyWarnAbsent"],
        "MAMPolicyWarnAbsent is YES: the 2016 guide says such apps cannot be submitted to the Store",
        fix: "set MAMPolicyWarnAbsent to NO for Store builds")
    }
  }
}
