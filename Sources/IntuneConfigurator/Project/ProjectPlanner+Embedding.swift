import XcodeProjects

extension ProjectPlanner {
  /// Warns when `target` is embedded in other application targets too, built with other bundle
  /// identifiers: the extension has one Info.plist in each configuration, so the `ContainingAppBundleId`
  /// planned for ``app`` names the wrong app in the others' builds (Rocket.Chat's React Native project
  /// embeds one share extension in two apps).
  mutating func noteOtherContainingApps(of target: XcodeTarget, appIdentifiers: [String: String]) {
    let ours = Set(appIdentifiers.values)
    var others: [String] = []
    for other in otherIOSApps(embedding: target) {
      // An app whose settings do not resolve is reported when it is configured itself.
      guard let identifiers = otherAppIdentifiers(other) else { continue }
      let differing = Set(identifiers.values.filter(Self.isWhole)).subtracting(ours).sorted()
      guard !differing.isEmpty else { continue }
      others.append("\(other.name) (\(differing.joined(separator: ", ")))")
    }
    guard !others.isEmpty else { return }
    let planned = ours.sorted().joined(separator: ", ")
    findings.append(
      ProjectFinding(
        id: "extension-in-several-apps", .warning, at: target.location,
        "\(target.name) is embedded in \(others.joined(separator: " and ")) as well as in \(app.name) "
          + "(\(planned)); its Info.plist can name one containing app, so the ContainingAppBundleId planned "
          + "for \(app.name) is wrong in the other apps' builds",
        fix: "give each app its own copy of the extension target, with its own Info.plist, or remove "
          + "\(target.name) from the Embed App Extensions phase of the apps you do not configure for Intune"))
  }
}

extension ProjectPlanner {
  /// The application targets other than ``app`` that embed `target` and build for iOS: an app for another
  /// platform (Backyard Birds' watch app, WireGuard's macOS app) has no Intune SDK to read its settings.
  func otherIOSApps(embedding target: XcodeTarget) -> [XcodeTarget] {
    project.targets.filter { other in
      other.isApplication && other.id != app.id
        && project.embeddedTargets(of: other).contains(where: { $0.id == target.id })
        && !buildsForOtherPlatform(other)
    }
  }

  /// ``otherPlatform(of:in:sdk:)`` `!= nil`, from the run's resolved settings.
  func buildsForOtherPlatform(_ target: XcodeTarget) -> Bool {
    if Self.watchProductTypes.contains(target.productType ?? "") { return true }
    guard let all = try? settings(of: target), !all.isEmpty else { return false }
    return all.allSatisfy { Self.otherPlatform($0) != nil }
  }

  /// Another app's identifier in each configuration (see ``appBundleIdentifiers(_:)``), once per run;
  /// `nil` when its settings do not resolve (it is reported when it is configured itself).
  func otherAppIdentifiers(_ other: XcodeTarget) -> [String: String]? {
    if let cached = resolved.appIdentifiers[other.id] { return cached }
    guard let settings = try? settings(of: other), let identifiers = try? appBundleIdentifiers(settings)
    else { return nil }
    resolved.appIdentifiers[other.id] = identifiers
    return identifiers
  }

  /// Warns when `target`'s Info.plist is also the Info.plist of an extension target that another app
  /// embeds, built with another identifier (or, unresolved, spelt otherwise): the one file can name one
  /// containing app, so the other extension is built with the `ContainingAppBundleId` planned for ``app``.
  /// Apps for other platforms are left out: WireGuard's iOS and macOS network extensions share one Info.plist,
  /// and the macOS build has no Intune SDK to read it.
  mutating func noteInfoPlistSharedWithOtherApps(
    of target: XcodeTarget, settings: [ResolvedBuildSettings], appIdentifiers: [String: String],
    appSettings: [ResolvedBuildSettings]
  ) {
    // Absolute: a relative INFOPLIST_FILE resolves against a relative source root, `$(SRCROOT)/…` against the
    // absolute SRCROOT (KeePassium spells one file both ways).
    let paths = Set(settings.compactMap { $0.path(for: "INFOPLIST_FILE").map(Self.absolute) })
    guard !paths.isEmpty else { return }
    let ours = Set(appIdentifiers.values)
    let oursWritten = appSettings.last?.assignment(for: "PRODUCT_BUNDLE_IDENTIFIER")?.value
    let planned = project.embeddedTargets(of: app).map(\.id)
    var others: [String] = []
    for other in project.targets where other.isAppExtension && !planned.contains(other.id) {
      // A target whose settings do not resolve is reported when it is configured itself.
      guard let otherSettings = try? self.settings(of: other),
        !paths.isDisjoint(
          with: otherSettings.compactMap { $0.path(for: "INFOPLIST_FILE").map(Self.absolute) })
      else { continue }
      for owner in otherIOSApps(embedding: other) {
        guard let ownerSettings = try? self.settings(of: owner), let identifiers = otherAppIdentifiers(owner)
        else { continue }
        let theirs = Set(identifiers.values)
        var differing = theirs.subtracting(ours).sorted()
        if !(theirs.union(ours)).allSatisfy(Self.isWhole) {
          // Unresolved here (a missing xcconfig): compare what the two apps' settings say instead.
          let written = ownerSettings.last?.assignment(for: "PRODUCT_BUNDLE_IDENTIFIER")?.value
          differing = written.map { $0 == oursWritten ? [] : [$0] } ?? []
        }
        guard !differing.isEmpty else { continue }
        others.append("\(other.name), which \(owner.name) embeds (\(differing.joined(separator: ", ")))")
      }
    }
    guard !others.isEmpty, let path = paths.sorted().first else { return }
    let location = settings.first?.assignment(for: "INFOPLIST_FILE")?.location ?? target.location
    let shown = ours.allSatisfy(Self.isWhole) ? ours.sorted() : oursWritten.map { [$0] } ?? ours.sorted()
    findings.append(
      ProjectFinding(
        id: "info-plist-shared-with-other-app", .warning, at: location,
        "\(target.name)'s Info.plist \(relativeToSourceRoot(path)) is also the Info.plist of "
          + others.joined(separator: " and ") + "; it can name one containing app, so the other extension "
          + "is built with the ContainingAppBundleId planned for \(app.name) (\(shown.joined(separator: ", ")))",
        fix:
          "give each extension target an Info.plist of its own (a copy of this one), then configure each app")
    )
  }
}

extension ProjectPlanner {
  /// Warns when, in some configuration, `target`'s bundle identifier does not start with the app's and a
  /// dot: Xcode's embedded-binary validation stops that build ("Embedded binary's bundle identifier is not
  /// prefixed with the parent app's bundle identifier"), so the app configured there never ships (Focus's
  /// enterprise configurations keep the intents and widget extensions' non-enterprise identifiers).
  mutating func noteUnprefixedIdentifier(
    of target: XcodeTarget, settings: [ResolvedBuildSettings], appIdentifiers: [String: String]
  ) throws(ConfiguratorError) {
    let ownIdentifiers = try appBundleIdentifiers(settings)
    let appDefault = project.effectiveConfigurationName(of: app)
    var mismatches: [String] = []
    var location: BuildSettingLocation?
    for resolved in settings {
      let configuration = resolved.configuration
      // An identifier a missing xcconfig may change (Brave's `.ShareExtension` without its gitignored
      // bundle-ID file) says nothing about the build.
      let unresolved = resolved.diagnostics.contains {
        $0.affectedSettings.contains("PRODUCT_BUNDLE_IDENTIFIER")
      }
      guard !unresolved, let own = ownIdentifiers[configuration], Self.isWhole(own),
        let parent = appIdentifiers[configuration] ?? appDefault.flatMap({ appIdentifiers[$0] }),
        Self.isWhole(parent), !own.hasPrefix(parent + ".")
      else { continue }
      mismatches.append("\(configuration): \(own) under \(parent)")
      location = location ?? resolved.assignment(for: "PRODUCT_BUNDLE_IDENTIFIER")?.location
    }
    guard !mismatches.isEmpty else { return }
    findings.append(
      ProjectFinding(
        id: "extension-identifier-not-prefixed", .warning, at: location ?? target.location,
        "\(target.name)'s bundle identifier does not start with \(app.name)'s (\(mismatches.joined(separator: "; "))); "
          + "Xcode stops building the app in these configurations: \"Embedded binary's bundle identifier is not "
          + "prefixed with the parent app's bundle identifier\"",
        fix: "set \(target.name)'s PRODUCT_BUNDLE_IDENTIFIER in these configurations to the app's identifier "
          + "followed by a dot and a name of its own"))
  }

  /// Whether `identifier` is fully resolved: no reference left, no empty component.
  static func isWhole(_ identifier: String) -> Bool {
    !identifier.isEmpty && !identifier.contains("$")
      && !identifier.split(separator: ".", omittingEmptySubsequences: false).contains { $0.isEmpty }
  }
}
