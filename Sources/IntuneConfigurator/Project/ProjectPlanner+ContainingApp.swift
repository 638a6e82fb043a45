import PropertyLists
import XcodeProjects

/// A build setting the plan adds to an extension, with its value in each configuration: references to it
/// are expanded as if it were already there.
struct PendingSetting: Sendable {
  var name: String
  var value: String

  /// `text` with `$(name)` and `${name}` replaced by the value.
  func substitute(in text: String) -> String {
    text.replacing("$(\(name))", with: value).replacing("${\(name)}", with: value)
  }
}

/// An extension's Mac Catalyst build: its settings for `sdk=macosx`, and the app's identifier in each
/// configuration that builds for Mac Catalyst.
struct CatalystBuild: Sendable {
  var settings: [ResolvedBuildSettings]
  var appIdentifiers: [String: String]
}

/// How an extension's `ContainingAppBundleId` will name its app in every configuration.
struct ContainingAppChoice: Sendable {
  /// What the configurator plans with.
  var containingApp: ContainingApp
  /// Set when no existing setting spells the app's identifier: the setting to add, per configuration id.
  var settingName: String?
  var valuesByConfiguration: [String: String]
  var configurationIDs: [String: String]
  /// The setting's `[sdk=macosx*]` value, per configuration whose Mac Catalyst app has another identifier
  /// and whose extension does not set it yet.
  var catalystValuesByConfiguration: [String: String] = [:]
  /// The configurations whose app identifier expands to nothing (a setting it names comes from a file not
  /// in the checkout, or is set nowhere), in which the chosen reference could not be checked.
  var unverifiedConfigurations: [String] = []
  /// Set when nothing can name the app (its identifier expands to nothing and no reference spells it): the
  /// error that blocks the plan, in place of an empty `ContainingAppBundleId`.
  var unknownAppFinding: ProjectFinding?

  /// The setting the plan adds, as it will be in `configuration`.
  func pendingSetting(forConfiguration configuration: String) -> PendingSetting? {
    guard let settingName, let value = valuesByConfiguration[configuration] else { return nil }
    return PendingSetting(name: settingName, value: value)
  }

  /// The project-file edits that add the setting, for the configurations given.
  func pendingEdits(forConfigurations configurations: Set<String>) -> [(String, BuildSettingEdit)] {
    edits(of: valuesByConfiguration, conditions: [], forConfigurations: configurations)
  }

  /// The project-file edits that add the setting's `[sdk=macosx*]` value, for the configurations given.
  func catalystEdits(forConfigurations configurations: Set<String>) -> [(String, BuildSettingEdit)] {
    let condition = BuildSettingCondition(parameter: "sdk", pattern: ProjectPlanner.catalystSDK + "*")
    return edits(
      of: catalystValuesByConfiguration, conditions: [condition], forConfigurations: configurations)
  }

  private func edits(
    of values: [String: String], conditions: [BuildSettingCondition],
    forConfigurations configurations: Set<String>
  ) -> [(String, BuildSettingEdit)] {
    guard let settingName else { return [] }
    return values.keys.sorted().compactMap { name in
      guard configurations.contains(name), let id = configurationIDs[name], let value = values[name] else {
        return nil
      }
      return (
        name, BuildSettingEdit(configurationID: id, name: settingName, conditions: conditions, value: value)
      )
    }
  }

}

extension ProjectPlanner {
  /// Works out what `target`'s `ContainingAppBundleId` should say so that, in every configuration, Xcode
  /// expands it to the identifier of the app built in the configuration of the same name:
  ///
  /// 1. the app's identifier itself, when it is the same in every configuration — or, when the app's
  ///    `PRODUCT_BUNDLE_IDENTIFIER` as written holds a setting that expands to nothing, that spelling, if it
  ///    is right in the extension's build;
  /// 2. else a reference the extension's own settings already make right in every configuration — the
  ///    app's `PRODUCT_BUNDLE_IDENTIFIER` as written (`$(BASE_BUNDLE_IDENTIFIER)`), or the extension's own
  ///    identifier as written without its last component (`$(APP_ID)` of `$(APP_ID).share`);
  /// 3. else ``ProjectConfigurator/containingAppSetting``, added to the extension's build settings with the
  ///    app's identifier in each configuration, and referred to.
  ///
  /// A value of one configuration is never written where every configuration reads it. When the app also
  /// builds for Mac Catalyst (`catalyst`), each choice must be right in that build too; where the Mac app's
  /// identifier differs (`PRODUCT_BUNDLE_IDENTIFIER[sdk=macosx*]`), the setting gets a `[sdk=macosx*]` value.
  ///
  /// Where the app's identifier expands to nothing (its `PRODUCT_BUNDLE_IDENTIFIER` names a setting of a
  /// file missing from the checkout, such as CocoaPods' xcconfigs before `pod install`), a reference from
  /// step 2 is taken without that configuration's check, and the choice says so; with no reference the
  /// choice names no app and carries the error that blocks the plan, rather than write an empty identifier.
  func containingApp(
    for target: XcodeTarget, settings: [ResolvedBuildSettings], appIdentifiers: [String: String],
    appSettings: [ResolvedBuildSettings], appInfoPlist: PropertyListFile?, catalyst: CatalystBuild? = nil
  ) -> ContainingAppChoice {
    let appDefault = project.effectiveConfigurationName(of: app) ?? appSettings.first?.configuration
    var expected: [String: String] = [:]
    for resolved in settings {
      // Xcode builds an embedded target in the configuration of the app's name; an app without it builds in
      // the one Xcode falls back to (the project's default, else its first).
      expected[resolved.configuration] =
        appIdentifiers[resolved.configuration] ?? appDefault.flatMap { appIdentifiers[$0] } ?? ""
    }
    // The Mac Catalyst build of each configuration whose app builds for it.
    var expectedMac: [String: String] = [:]
    let macSettings = (catalyst?.settings ?? []).filter { resolved in
      guard let identifiers = catalyst?.appIdentifiers, !identifiers.isEmpty else { return false }
      if let identifier = identifiers[resolved.configuration] {
        expectedMac[resolved.configuration] = identifier
        return true
      }
      // A configuration the app does not have is built in the app's default, if that builds for the Mac.
      guard appIdentifiers[resolved.configuration] == nil,
        let identifier = appDefault.flatMap({ identifiers[$0] })
      else { return false }
      expectedMac[resolved.configuration] = identifier
      return true
    }
    func choice(_ text: String?, setting: String? = nil) -> ContainingAppChoice {
      var ids: [String: String] = [:]
      for configuration in (try? project.buildConfigurations(of: target)) ?? [] {
        ids[configuration.name] = configuration.id
      }
      var macValues: [String: String] = [:]
      if let setting {
        for resolved in macSettings {
          guard let value = expectedMac[resolved.configuration], value != expected[resolved.configuration],
            resolved[setting] != value
          else { continue }
          macValues[resolved.configuration] = value
        }
      }
      return ContainingAppChoice(
        containingApp: ContainingApp(
          bundleIdentifier: text, infoPlist: appInfoPlist, bundleIdentifiersByConfiguration: expected),
        settingName: setting, valuesByConfiguration: expected, configurationIDs: ids,
        catalystValuesByConfiguration: macValues)
    }
    let expandsInfoPlist = settings.allSatisfy { $0["INFOPLIST_EXPAND_BUILD_SETTINGS"] != "NO" }
    // Configurations whose app identifier is not known: nothing to check a reference against there.
    let unknownConfigurations = settings.map(\.configuration).filter { expected[$0, default: ""].isEmpty }
    func isRight(_ candidate: String, unchecked: Set<String> = []) -> Bool {
      settings.allSatisfy {
        unchecked.contains($0.configuration) || $0.expand(candidate) == expected[$0.configuration]
      }
        && macSettings.allSatisfy { $0.expand(candidate) == expectedMac[$0.configuration] }
    }
    let distinct = Set(expected.values).union(expectedMac.values)
    if distinct.count == 1, let only = distinct.first, !only.isEmpty {
      // A literal would keep a setting's emptiness: Apple's samples end the identifier in
      // ${SAMPLE_CODE_DISAMBIGUATOR} = ${DEVELOPMENT_TEAM}, empty until a team is picked. The app's identifier
      // as written follows it, where the extension's build expands it the same.
      if expandsInfoPlist,
        let written = appSettings.last?.assignment(for: "PRODUCT_BUNDLE_IDENTIFIER")?.value,
        Self.references(in: written).contains(where: { reference in
          appSettings.allSatisfy { $0.expand(reference).isEmpty }
        }),
        !written.contains("PRODUCT_BUNDLE_IDENTIFIER"), isRight(written)
      {
        return choice(written)
      }
      return choice(only)
    }
    let candidates =
      expandsInfoPlist
      ? referenceCandidates(target: target, settings: settings, appSettings: appSettings) : []
    for candidate in candidates where isRight(candidate) {
      var chosen = choice(candidate)
      chosen.unverifiedConfigurations = unknownConfigurations
      return chosen
    }
    guard unknownConfigurations.isEmpty else {
      if let candidate = candidates.first(where: { isRight($0, unchecked: Set(unknownConfigurations)) }) {
        var chosen = choice(candidate)
        chosen.unverifiedConfigurations = unknownConfigurations
        return chosen
      }
      // The setting would hold the app's identifier, and there is none to write.
      let written = appSettings.last?.assignment(for: "PRODUCT_BUNDLE_IDENTIFIER")
      var unknown = choice(nil)
      unknown.unknownAppFinding = ProjectFinding(
        id: "containing-app-unknown", .error, at: written?.location ?? app.location,
        "\(app.name)'s bundle identifier expands to nothing in \(unknownConfigurations.joined(separator: ", "))"
          + Self.spelling(written) + ", so \(target.name)'s ContainingAppBundleId cannot name it",
        fix:
          "make the app's build settings complete (a file they come from is missing from the checkout: see "
          + "the warnings above; CocoaPods writes its xcconfigs on pod install), or set the app's "
          + "PRODUCT_BUNDLE_IDENTIFIER, then run configure again")
      return unknown
    }
    let name = ProjectConfigurator.containingAppSetting
    return choice("$(\(name))", setting: name)
  }

  /// References that might spell the app's identifier in the extension's build, best first.
  func referenceCandidates(
    target: XcodeTarget, settings: [ResolvedBuildSettings], appSettings: [ResolvedBuildSettings]
  ) -> [String] {
    var candidates: [String] = []
    if let written = appSettings.last?.assignment(for: "PRODUCT_BUNDLE_IDENTIFIER")?.value,
      written.contains("$")
    {
      candidates.append(written)
      // `${PREFIX}.App${SUFFIX}${PROVISIONING_SUFFIX}`, where the last is empty for the app and the
      // extension's own suffix in the extension: without what is empty in every app configuration.
      let trimmed = Self.references(in: written).reduce(written) { text, reference in
        appSettings.allSatisfy { $0.expand(reference).isEmpty } ? text.replacing(reference, with: "") : text
      }
      if trimmed != written && trimmed.contains("$") { candidates.append(trimmed) }
    }
    if let own = settings.last?.assignment(for: "PRODUCT_BUNDLE_IDENTIFIER")?.value,
      let stem = Self.withoutLastComponent(own), stem.contains("$")
    {
      candidates.append(stem)
    }
    // `$(PRODUCT_BUNDLE_IDENTIFIER)` is the extension's own identifier in its build: never the app's.
    return candidates.filter { !$0.contains("PRODUCT_BUNDLE_IDENTIFIER") }
  }

  /// The `$(…)` and `${…}` references in `text`, outermost, in order.
  static func references(in text: String) -> [String] {
    var found: [String] = []
    let characters = Array(text)
    var index = 0
    while index + 1 < characters.count {
      guard characters[index] == "$", characters[index + 1] == "(" || characters[index + 1] == "{" else {
        index += 1
        continue
      }
      let open = characters[index + 1]
      let close: Character = open == "(" ? ")" : "}"
      var depth = 0
      var end = index + 1
      while end < characters.count {
        if characters[end] == open { depth += 1 }
        if characters[end] == close {
          depth -= 1
          if depth == 0 { break }
        }
        end += 1
      }
      guard end < characters.count else { break }
      found.append(String(characters[index...end]))
      index = end + 1
    }
    return found
  }

  /// `$(APP_ID).share` → `$(APP_ID)`: the text before the last dot outside a `$(…)` reference.
  static func withoutLastComponent(_ identifier: String) -> String? {
    var depth = 0
    var lastDot: String.Index?
    var index = identifier.startIndex
    while index < identifier.endIndex {
      switch identifier[index] {
      case "(", "{": depth += 1
      case ")", "}": depth = max(0, depth - 1)
      case "." where depth == 0: lastDot = index
      default: break
      }
      index = identifier.index(after: index)
    }
    guard let lastDot, lastDot > identifier.startIndex else { return nil }
    return String(identifier[..<lastDot])
  }
}

extension ProjectPlanner {
  /// How the app's `PRODUCT_BUNDLE_IDENTIFIER` is written, for messages about its expanding to nothing.
  static func spelling(_ assignment: BuildSettingAssignment?) -> String {
    guard let assignment else { return " (PRODUCT_BUNDLE_IDENTIFIER is not set)" }
    return assignment.value.isEmpty
      ? " (PRODUCT_BUNDLE_IDENTIFIER is empty)" : " (PRODUCT_BUNDLE_IDENTIFIER = \(assignment.value))"
  }

  /// Warns when `choice` refers to the app's identifier in configurations where that identifier could not
  /// be worked out, so the reference was written without being checked there.
  mutating func noteUnverifiedContainingApp(
    _ choice: ContainingAppChoice, of target: XcodeTarget, appSettings: [ResolvedBuildSettings]
  ) {
    if let finding = unverifiedContainingAppFinding(choice, of: target, appSettings: appSettings) {
      findings.append(finding)
    }
  }

  /// The warning ``noteUnverifiedContainingApp(_:of:appSettings:)`` adds, or nil when `choice` was checked
  /// in every configuration.
  func unverifiedContainingAppFinding(
    _ choice: ContainingAppChoice, of target: XcodeTarget, appSettings: [ResolvedBuildSettings]
  ) -> ProjectFinding? {
    guard !choice.unverifiedConfigurations.isEmpty, let text = choice.containingApp.bundleIdentifier else {
      return nil
    }
    let written = appSettings.last?.assignment(for: "PRODUCT_BUNDLE_IDENTIFIER")
    return
      ProjectFinding(
        id: "containing-app-unverified", .warning, at: written?.location ?? app.location,
        "\(app.name)'s bundle identifier expands to nothing in "
          + choice.unverifiedConfigurations.joined(separator: ", ")
          + Self.spelling(written)
          + ", so \(target.name)'s ContainingAppBundleId, \(text), could not be checked against it there",
        fix:
          "make the app's build settings complete (a file they come from is missing from the checkout: see "
          + "the warnings above; CocoaPods writes its xcconfigs on pod install), then run configure again to "
          + "check")
  }
}
