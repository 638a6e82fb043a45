import PropertyLists

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension XcodeProject {
  /// The build settings of `target` in `configuration`, resolved as Xcode resolves them.
  ///
  /// Levels, lowest first: Xcode's defaults (those a bundle's identity and files depend on), the project
  /// configuration's base xcconfig, the project configuration's `buildSettings`, the target configuration's
  /// base xcconfig, the target configuration's `buildSettings`, and `SDKROOT = sdk` on top (as
  /// `xcodebuild -sdk` overrides it). Within
  /// an xcconfig the later line wins; within a `buildSettings` dictionary an entry with conditions
  /// (`NAME[sdk=iphoneos*]`) is applied after the plain `NAME`, so a matching conditional value wins.
  /// Conditions are matched against `sdk` (and its platform, `iphoneos` for `iphoneos18.2`), the
  /// configuration's name, `arch` and the variant `normal`; a condition on any other parameter never matches.
  ///
  /// A base configuration file missing from the checkout (CocoaPods' `Pods/Target Support Files/…`, a
  /// gitignored xcconfig) is a warning in ``ResolvedBuildSettings/diagnostics``, not an error: Xcode warns
  /// and builds. The warning lists the settings whose values it may change. An `#include` that would read a
  /// file again while it is being read is skipped, as Xcode skips it, with a
  /// ``BuildSettingDiagnostic/Kind/includeCycle`` warning; the settings are those Xcode resolves.
  ///
  /// - Parameters:
  ///   - target: A target of this project.
  ///   - configuration: `nil` for the configuration `xcodebuild` builds when none is named
  ///     (``effectiveConfigurationName(of:requested:)``).
  ///   - sdk: The SDK conditions are matched against and `SDKROOT` is set to, as `xcodebuild -sdk` sets it.
  ///   - arch: The architecture `arch` conditions are matched against.
  ///   - notingUndefinedVariables: also list, as notes, the variables that expanded to nothing.
  /// - Throws: ``XcodeProjectError/Kind/configurationNotFound``, ``XcodeProjectError/Kind/danglingReference``,
  ///   or an xcconfig's syntax-independent errors (an unreadable file, an include limit passed).
  public func buildSettings(
    target: XcodeTarget, configuration: String? = nil, sdk: String = "iphoneos", arch: String = "arm64",
    notingUndefinedVariables: Bool = false
  ) throws(XcodeProjectError) -> ResolvedBuildSettings {
    // Only the two configurations used are parsed (a target's list may hold a dozen).
    let targetConfigurations = try buildConfigurationObjects(of: target).objects
    // Named: that one (a name the target lacks is an error here, not a silent substitute). Unnamed: the one
    // Xcode builds, which a stale defaultConfigurationName does not stop.
    let name = configuration ?? effectiveConfigurationName(of: target) ?? ""
    guard let targetObject = targetConfigurations.first(where: { $0.configurationName == name }) else {
      let known = targetConfigurations.map(\.configurationName)
      // Configuration names are matched exactly, as xcodebuild matches them; one differing only in letter
      // case is suggested (Threema's `AppStore` asked for as `appstore`).
      let close = known.first { $0.lowercased() == name.lowercased() }.map { "did you mean \"\($0)\"? " }
      throw XcodeProjectError(
        .configurationNotFound, "target \(target.name) has no configuration \"\(name)\"",
        location: target.location,
        hint: known.isEmpty
          ? "the target has no configurations"
          : (close ?? "") + "use one of: " + known.joined(separator: ", "))
    }
    let targetConfiguration = buildConfiguration(targetObject)
    // Xcode pairs a target configuration with the project configuration of the same name.
    let projectConfiguration = try buildConfigurationObjects(of: nil).objects
      .first { $0.configurationName == name }.map(buildConfiguration)

    var levels: [BuildSettingLevel] = [
      BuildSettingLevel(
        name: "Xcode defaults",
        assignments: XcodeDefaults.assignments(
          project: self, target: target, configuration: name, sdk: sdk, arch: arch))
    ]
    var missingBelow: [(level: Int, diagnostic: BuildSettingDiagnostic)] = []
    // What the xcconfig files say beside their settings: skipped `#include` cycles, left-out lines.
    var fileWarnings: [BuildSettingDiagnostic] = []
    for (owner, buildConfiguration) in [("project", projectConfiguration), ("target", targetConfiguration)] {
      guard let buildConfiguration else { continue }
      if let spelt = baseConfigurationPath(of: buildConfiguration) {
        let referenceLocation = buildConfiguration.location
        // Xcode runs on macOS, whose volumes are case-insensitive by default.
        let base = CaseInsensitivePath.existing(spelt) ?? spelt
        if base != spelt {
          fileWarnings.append(
            BuildSettingDiagnostic(
              .warning, .pathCaseMismatch,
              "the \(owner) configuration \(name) is based on \(spelt), which exists only as \(base): "
                + Self.caseMismatchConsequence,
              location: referenceLocation, hint: "rename the file, or correct its reference in the project"))
        }
        do {
          // Xcode looks for an included file beside the including one, then in the project's folder.
          let file = try xcconfigFiles.read(base, searchPaths: [sourceRoot])
          levels.append(BuildSettingLevel(name: "\(owner) xcconfig \(base)", assignments: file.assignments))
          for missing in file.missingIncludes {
            let directive = missing.isOptional ? "#include?" : "#include"
            // The path as written and where Xcode looked: the first place alone (Flutter's
            // ios/Flutter/Pods/…) is not where `pod install` writes the file (ios/Pods/…).
            let what =
              missing.namesBuildSetting || missing.searched.isEmpty
              ? "\(directive) \"\(missing.written)\""
              : "\(directive) \"\(missing.written)\" (looked for in "
                + missing.searched.map { $0.isEmpty ? "." : $0 }.joined(separator: " and ") + ")"
            missingBelow.append(
              (
                levels.count - 1,
                BuildSettingDiagnostic(
                  .warning, .missingInclude, "\(what) in the \(owner) base configuration: \(missing.problem)",
                  location: missing.location,
                  hint: missing.namesBuildSetting ? missing.hint : Self.missingFileHint(missing.path))
              ))
          }
          for mismatch in file.caseMismatches {
            let warning = BuildSettingDiagnostic(
              .warning, .pathCaseMismatch,
              "#include \"\(mismatch.written)\" in the \(owner) base configuration names \(mismatch.spelt), "
                + "which exists only as \(mismatch.found): " + Self.caseMismatchConsequence,
              location: mismatch.location,
              hint: "spell the #include as the file is named (\(XcodePath.basename(mismatch.found))), "
                + "or rename the file")
            if !fileWarnings.contains(warning) { fileWarnings.append(warning) }
          }
          for cycle in file.includeCycles {
            let warning = BuildSettingDiagnostic(
              .warning, .includeCycle,
              "\(cycle.directive) in the \(owner) base configuration is skipped: \(cycle.problem)",
              location: cycle.location, relatedLocations: cycle.links, hint: cycle.hint)
            // A file read twice (a diamond) meets a cycle inside it twice, identically: one warning says it.
            if !fileWarnings.contains(warning) { fileWarnings.append(warning) }
          }
          // Xcode's reader reports such lines as errors and leaves them out (swift-build,
          // MacroConfigFileLoader.handleDiagnostic and MacroConfigFileParser at 41aee626); the reader here
          // skips them too, so they are said, not silently dropped.
          for problem in file.problems {
            let warning = BuildSettingDiagnostic(
              .warning, .xcconfigSyntax,
              "a line of the \(owner) base configuration is left out: \(problem.message); Xcode reports it as an "
                + "error", location: problem.location, hint: problem.hint)
            if !fileWarnings.contains(warning) { fileWarnings.append(warning) }
          }
        } catch  where error.kind == .fileNotFound {
          levels.append(BuildSettingLevel(name: "\(owner) xcconfig \(base) (missing)", assignments: []))
          missingBelow.append(
            (
              levels.count - 1,
              BuildSettingDiagnostic(
                .warning, .missingBaseConfiguration,
                // Xcode stops there: "Unable to open base configuration reference file" (Xcode 15 and
                // 16), "…xcconfig: unable to open file" before, each an error failing xcodebuild (issue
                // threads: ob-f/OpenBot #446, #456; bitpay/ios-sdk #16). Resolving without it still shows
                // what the rest of the project sets.
                "the \(owner) configuration \(name) is based on \(base), which is not in the checkout; Xcode "
                  + "stops the build until it exists (resolved here without it)", location: referenceLocation,
                hint: Self.missingFileHint(base))
            ))
        }
      }
      levels.append(
        BuildSettingLevel(
          name: "\(owner) \(owner == "target" ? target.name + " " : "")configuration \(name)",
          assignments: Self.conditionalLast(buildConfiguration.buildSettings)))
    }
    levels.append(
      BuildSettingLevel(
        name: "command-line overrides",
        assignments: [
          BuildSettingAssignment(
            name: "SDKROOT", value: sdk, location: BuildSettingLocation(file: "<command line -sdk>"))
        ]))

    let parameters = [
      "sdk": [sdk, XcodeDefaults.platform(ofSDK: sdk)], "config": [name], "arch": [arch],
      "variant": ["normal"],
    ]
    return ResolvedBuildSettings(
      project: self, target: target, configuration: name, sdk: sdk, levels: levels, parameters: parameters,
      missingFiles: missingBelow, fileWarnings: fileWarnings,
      notingUndefinedVariables: notingUndefinedVariables)
  }

  /// What a file found only under another letter case means for the build.
  static let caseMismatchConsequence =
    "Xcode finds it on a case-insensitive volume (macOS's default) and fails on a case-sensitive one; it is "
    + "read here"

  /// What brings back the missing xcconfig at `path`, by who writes such files: naming the wrong tool (pod
  /// install for Flutter's `Generated.xcconfig`) sends the user to a step that does not make the file.
  static func missingFileHint(_ path: String) -> String {
    let components = path.split(separator: "/").map(String.init)
    let name = components.last ?? path
    let then = ", then resolve again"
    if components.contains("Pods") || name.hasPrefix("Pods-") {
      return "run pod install (CocoaPods writes the Pods/Target Support Files xcconfigs)" + then
    }
    if name == "Generated.xcconfig" || components.contains("ephemeral") {
      return "run flutter pub get (or flutter build ios --config-only) in the Flutter project, which writes "
        + name + then
    }
    if components.contains("node_modules") {
      return "install the JavaScript dependencies (npm install or yarn), which bring " + name + then
    }
    if let template = template(of: path) {
      return
        "copy \(template), which is beside it, to \(name) and fill it in (or, if a tool generates \(name), "
        + "run it)" + then
    }
    return "if a tool generates \(name), run it; if it is a local file kept out of version control, "
      + "create it (Xcode does not build without it)" + then
  }

  /// The file beside `path` that is a copy to start it from, by the names projects commit for a local
  /// xcconfig kept out of version control: `OctoConfig.xcconfig.template` (octo-ios),
  /// `Secrets.example.xcconfig`, `…xcconfig.sample`. Nil when there is none.
  static func template(of path: String) -> String? {
    let folder = XcodePath.dirname(path)
    let name = XcodePath.basename(path)
    let stem = XcodePath.removingExtension(name)
    let ext = XcodePath.fileExtension(name)
    let markers = ["template", "example", "sample", "dist", "default"]
    let candidates =
      markers.map { "\(name).\($0)" }
      + (ext.isEmpty ? [] : markers.map { "\(stem).\($0).\(ext)" } + markers.map { "\(stem)-\($0).\(ext)" })
    let names = Set(
      (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? [])
    return candidates.first { names.contains($0) }
  }

  /// Plain assignments first, conditional ones after, each group in file order.
  static func conditionalLast(_ assignments: [BuildSettingAssignment]) -> [BuildSettingAssignment] {
    assignments.filter(\.conditions.isEmpty) + assignments.filter { !$0.conditions.isEmpty }
  }
}
