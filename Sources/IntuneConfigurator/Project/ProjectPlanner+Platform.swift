import XcodeProjects

extension ProjectPlanner {
  /// SDK name prefixes of the platforms the Intune App SDK does not support, with the names users know.
  static let otherPlatforms: [(sdk: String, name: String)] = [
    ("watch", "watchOS"), ("macosx", "macOS"), ("appletv", "tvOS"), ("xr", "visionOS"),
  ]

  /// The platform an application target builds for when it is not iOS in any configuration, with the
  /// assignment that says so: the `SDKROOT` the project writes (not the run's `-sdk`, which Xcode would
  /// never pass for it) names another platform, and `SUPPORTED_PLATFORMS`, when set, lacks `iphoneos`; or
  /// `SUPPORTED_PLATFORMS` names only other platforms, whatever `SDKROOT` says (VLC's `VLC-visionOS` keeps
  /// the project's `SDKROOT = iphoneos` beside `SUPPORTED_PLATFORMS = "xros xrsimulator"`: Xcode offers
  /// only visionOS destinations, and swift-build's `addRunDestinationSettingsPlatformSDK` builds a target
  /// for a destination platform it supports even when its `SDKROOT` names another).
  /// A WatchKit 1 app or a watch-only app's iOS stub (``watchProductTypes``) is watchOS's, with no
  /// assignment, whatever its settings say.
  /// `nil` for iOS, multiplatform (`SDKROOT = auto` with `iphoneos`) and Mac Catalyst apps.
  static func otherPlatform(of app: XcodeTarget, in project: XcodeProject, sdk: String) -> (
    name: String, assignment: BuildSettingAssignment?
  )? {
    if watchProductTypes.contains(app.productType ?? "") { return ("watchOS", nil) }
    guard let configurations = try? project.buildConfigurations(of: app), !configurations.isEmpty else {
      return nil
    }
    var found: (name: String, assignment: BuildSettingAssignment?)?
    for configuration in configurations {
      guard
        let settings = try? project.buildSettings(target: app, configuration: configuration.name, sdk: sdk),
        let platform = otherPlatform(settings)
      else { return nil }
      found = found ?? platform
    }
    return found
  }

  /// Application product types that Xcode builds with the iOS SDK (`SDKROOT = iphoneos`) for a watch, never
  /// as an iPhone app: a WatchKit 1 app (`application.watchapp`: swift-build's
  /// `WatchKit1ProductTypes.xcspec` gives it `Domain = iphoneos`, a stub binary and
  /// `RESOURCES_TARGETED_DEVICE_FAMILY = "watch"`; Xcode embeds it in the WatchKit extension, which runs
  /// on the phone, and no longer builds it: "WatchKit 1.0 is no longer supported"), and the empty iOS stub
  /// that carries a watch-only app to the App Store (`application.watchapp2-container`: "The root target
  /// is a stub", Apple's "Creating independent watchOS apps"; no sources, not runnable, tuist/tuist#9648).
  /// Neither can link the Intune App SDK, so neither is an iOS app to configure (neonichu/CoolSpot's
  /// `CoolSpot WatchKit App` beside its iOS app `CoolSpot`).
  static let watchProductTypes: Set<String> = [
    "com.apple.product-type.application.watchapp",
    "com.apple.product-type.application.watchapp2-container",
  ]

  /// One configuration's platform, when it is not iOS (see ``otherPlatform(of:in:sdk:)``).
  static func otherPlatform(_ settings: ResolvedBuildSettings) -> (
    name: String, assignment: BuildSettingAssignment?
  )? {
    let supported = (settings["SUPPORTED_PLATFORMS"] ?? "").split(separator: " ").map(String.init)
    if supported.contains("iphoneos") { return nil }
    let written = settings.levels.filter { $0.name != "command-line overrides" }.flatMap(\.assignments).last {
      $0.name == "SDKROOT" && $0.conditions.isEmpty
    }
    if let written,
      let platform = otherPlatforms.first(where: { settings.expand(written.value).hasPrefix($0.sdk) })
    {
      return (platform.name, written)
    }
    // Only other platforms supported: the first one named is the app's, whatever SDKROOT says.
    guard let first = supported.first,
      supported.allSatisfy({ name in otherPlatforms.contains { name.hasPrefix($0.sdk) } }),
      let platform = otherPlatforms.first(where: { first.hasPrefix($0.sdk) })
    else { return nil }
    return (platform.name, settings.assignment(for: "SUPPORTED_PLATFORMS"))
  }

  /// Stops a run whose `--target` builds for watchOS, macOS, tvOS or visionOS only: the Intune App SDK and
  /// the settings it reads are for iOS apps, and resolving such a target for iOS would plan for a build
  /// Xcode never makes (Backyard Birds' watch app, WireGuard's macOS app).
  func refuseOtherPlatforms() throws(ConfiguratorError) {
    guard let platform = Self.otherPlatform(of: app, in: project, sdk: sdk) else { return }
    let iOSApps = project.targets.filter {
      $0.isApplication && $0.id != app.id && Self.otherPlatform(of: $0, in: project, sdk: sdk) == nil
    }
    let written =
      platform.assignment.map { " (\($0.name) = \($0.value))" }
      ?? app.productType.flatMap { Self.watchProductTypes.contains($0) ? " (productType = \($0))" : nil }
      ?? ""
    throw .project(
      XcodeProjectError(
        .targetNotFound,
        "target \"\(app.name)\" builds for \(platform.name)\(written); the Intune App SDK and the settings "
          + "configure writes are for iOS apps",
        location: platform.assignment?.location ?? app.location,
        hint: iOSApps.isEmpty
          ? "configure the iOS app that uses this project's code, in its own project"
          : "configure the iOS app instead: "
            + iOSApps.map { ShellWord.quoted($0.name) }.joined(separator: ", ")))
  }
}

extension ProjectPlanner {
  /// The stable id of the note about a file another platform's build of the same target reads.
  static let otherPlatformFileNote = "file-shared-with-other-platform"

  /// Notes each Info.plist and entitlements file `target`'s iOS build reads that its builds for other
  /// platforms read too: a multiplatform target (`SDKROOT = auto`, `SUPPORTED_PLATFORMS` naming `macosx` or
  /// `appletvos` beside `iphoneos`, as Yattee's one app target builds iOS, macOS and tvOS) has each
  /// platform's build resolve its own settings, and where no `[sdk=…]` setting gives that build its own
  /// file, what configure adds for the Intune App SDK for iOS — which has no macOS or tvOS build — reaches
  /// it too. Mac Catalyst is not among them: it is the iOS build run on a Mac (``noteCatalystFiles(of:
  /// settings:macSettings:configurations:)``). The Info.plist's keys are ignored there (a note); keychain
  /// groups are signed into the other build's entitlements (a warning: its provisioning must allow them).
  mutating func noteOtherPlatformFiles(of target: XcodeTarget, settings: [ResolvedBuildSettings]) {
    guard !sdk.hasPrefix(Self.catalystSDK) else { return }
    // Each configuration's builds for the other platforms it supports, resolved once for both files.
    var otherBuilds: [(resolved: ResolvedBuildSettings, platform: String, settings: ResolvedBuildSettings)] =
      []
    for resolved in settings {
      let supported = (resolved["SUPPORTED_PLATFORMS"] ?? "").split(separator: " ").map(String.init)
      for platform in Self.otherPlatforms {
        guard
          let sdkName = supported.first(where: { $0.hasPrefix(platform.sdk) && !$0.hasSuffix("simulator") }),
          let other = try? project.buildSettings(
            target: target, configuration: resolved.configuration, sdk: sdkName)
        else { continue }
        otherBuilds.append((resolved, platform.name, other))
      }
    }
    guard !otherBuilds.isEmpty else { return }
    for (setting, role, severity) in [
      ("INFOPLIST_FILE", "Info.plist", FindingSeverity.note),
      ("CODE_SIGN_ENTITLEMENTS", "entitlements file", FindingSeverity.warning),
    ] {
      // Per file the iOS build reads: the other platforms whose builds read it, each with its configurations.
      var platforms: [String: [(name: String, configurations: [String])]] = [:]
      var order: [String] = []
      var location: [String: BuildSettingLocation] = [:]
      for (resolved, platform, other) in otherBuilds {
        guard let path = resolved.path(for: setting).map(Self.absolute),
          other.path(for: setting).map(Self.absolute) == path
        else { continue }
        if platforms[path] == nil {
          order.append(path)
          location[path] = resolved.assignment(for: "SUPPORTED_PLATFORMS")?.location
        }
        if let index = platforms[path]?.firstIndex(where: { $0.name == platform }) {
          platforms[path]?[index].configurations.append(resolved.configuration)
        } else {
          platforms[path, default: []].append((platform, [resolved.configuration]))
        }
      }
      for path in order {
        let builds = platforms[path] ?? []
        let names = builds.map(\.name).joined(separator: " and ")
        let described = builds.map { "\($0.name) (\($0.configurations.joined(separator: ", ")))" }
          .joined(separator: " and ")
        let consequence =
          severity == .warning
          ? "the keychain groups configure adds are signed into those builds too, whose provisioning profiles "
            + "must then allow them"
          : "the keys configure adds reach those builds too, where nothing reads them"
        findings.append(
          ProjectFinding(
            id: Self.otherPlatformFileNote, severity, at: location[path] ?? target.location,
            "\(target.name) also builds for \(names) (SUPPORTED_PLATFORMS), and its \(described) builds read "
              + "the same \(role) as its iOS build, \(relativeToSourceRoot(path)): the Intune App SDK is for iOS "
              + "only, and \(consequence)",
            fix:
              "give the \(names) builds their own \(role) with \(setting)[sdk=…] settings (as Mac Catalyst "
              + "builds do with [sdk=macosx*]), or accept the keys there"))
      }
    }
  }
}
