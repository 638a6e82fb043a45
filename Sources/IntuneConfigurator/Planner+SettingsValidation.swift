import PropertyLists
import UniformTypes
import XcodeProjects

extension Planner {
  // MARK: Settings validation

  mutating func validateSettings() {
    guard let settingsValue = info["IntuneMAMSettings"] else { return }
    let base: PropertyListPath = [Self.settingsKey]
    guard case .dictionary(let settings) = settingsValue else {
      finding(
        "settings-not-dictionary", .error, at: base, "IntuneMAMSettings is not a dictionary",
        fix: "make IntuneMAMSettings a <dict>")
      return
    }
    for entry in settings.entries {
      let path = base.appending(.key(entry.key))
      guard let definition = IntuneMAMSettingsSchema.definition(of: entry.key) else {
        // Reported with its own remedy by checkGuideSpecificSettings.
        if entry.key == "UsePPE" { continue }
        finding(
          "settings-unknown-key", .warning, at: path,
          "IntuneMAMSettings.\(entry.key) is not a setting of any Intune guide; the SDK ignores it",
          fix: spellingFix(entry.key))
        continue
      }
      if !definition.isListed(in: options.guide) {
        finding(
          "settings-not-in-guide", .note, at: path,
          "IntuneMAMSettings.\(entry.key) is not listed in the \(options.guide.rawValue) guide")
      }
      if let problem = Self.typeProblem(entry.value, definition.type) {
        finding(
          "settings-wrong-type", .error, at: path,
          "IntuneMAMSettings.\(entry.key) \(problem); it must be \(definition.type.displayName)")
      }
    }
    if settings["MAMPolicyRequired"] == .bool(true) {
      finding(
        "settings-policy-required", .warning, at: base.appending("MAMPolicyRequired"),
        "MAMPolicyRequired is YES: apps with it cannot be submitted to the App Store",
        fix: "set MAMPolicyRequired to NO for App Store builds")
      if settings["AutoEnrollOnLaunch"] != .bool(true) {
        finding(
          "settings-auto-enroll", .warning, at: base.appending("MAMPolicyRequired"),
          "MAMPolicyRequired is YES but AutoEnrollOnLaunch is not; the guide asks for both",
          fix: "set AutoEnrollOnLaunch to YES")
      }
    }
    if settings["DebugSettingsEnabled"] == .bool(true) {
      finding(
        "settings-debug-enabled", .warning, at: base.appending("DebugSettingsEnabled"),
        "DebugSettingsEnabled is YES: apps must not ship with test policies enabled",
        fix: "remove DebugSettingsEnabled or set it to NO in release builds")
    }
  }

  /// What is wrong with `value` for a setting of `type`, or `nil`.
  static func typeProblem(_ value: PropertyListValue, _ type: IntuneSettingType) -> String? {
    switch (type, value) {
    case (.string, .string), (.boolean, .bool), (.number, .integer), (.number, .real):
      return nil
    case (.stringArray, .array(let elements)):
      return elements.allSatisfy { $0.stringValue != nil } ? nil : "holds an element that is not a string"
    case (.color, .string(let text)):
      if URLSchemeValidator.buildSetting(in: text) != nil { return nil }
      return IntuneMAMSettingsSchema.isValidColor(text) ? nil : "is \"\(text)\", not a colour like #1A2B3C"
    case (.oneOf(let allowed), .string(let text)):
      return allowed.contains(text) ? nil : "is \"\(text)\""
    case (.color, _), (.oneOf, _), (.string, _), (.boolean, _), (.number, _),
      (.stringArray, _):
      return "is <\(value.elementName)>"
    }
  }

  /// A "did you mean" for a misspelt setting (the 2016 guide itself misspells `AppGroupIdentitifiers`).
  func spellingFix(_ key: String) -> String? {
    let lowered = key.lowercased()
    let candidates = IntuneMAMSettingsSchema.definitions.map(\.key)
    if let same = candidates.first(where: { $0.lowercased() == lowered }) { return "rename it to \(same)" }
    // The distance UniformTypes' "did you mean" uses: a swap of neighbours is one edit. Limited to the 3
    // it accepts, so a key of 100 000 characters is refused by its length, not compared for seconds.
    let scored = candidates.compactMap { candidate in
      editDistance(candidate.lowercased(), lowered, limit: 3).map { (candidate, $0) }
    }
    guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
    return "did you mean \(best.0)?"
  }
}
