import PropertyLists

extension Planner {
  /// The characters of `identifier` a bundle identifier may not hold, outside `$(…)`/`${…}` references:
  /// Apple allows letters, digits, hyphens and periods only (`CFBundleIdentifier`, Information Property
  /// List reference). Empty when it is valid.
  static func invalidBundleIdentifierCharacters(_ identifier: String) -> [Character] {
    var rest = identifier
    while let reference = URLSchemeValidator.buildSetting(in: rest),
      let range = rest.firstRange(of: reference)
    {
      rest.replaceSubrange(range, with: "")
    }
    var seen: [Character] = []
    for character in rest
    where !(character.isASCII && (character.isLetter || character.isNumber))
      && character != "-" && character != "." && !seen.contains(character)
    {
      seen.append(character)
    }
    return seen
  }

  /// An error for a bundle identifier that is a template's placeholder (`com.[your company name].App`, trial 4's
  /// Xamarin sample), a warning for other characters Apple does not allow: everything the plan derives from
  /// it (the containing app's identifier, app groups, keychain groups, the redirect URI) would carry it on.
  mutating func checkBundleIdentifiers() {
    if let identifier = bundleIdentifier {
      reportInvalidBundleIdentifier(identifier, in: .infoPlist, what: "CFBundleIdentifier")
    }
    if target.isExtension, let app = options.containingApp?.infoPlist,
      let identifier = app.value.dictionaryValue?["CFBundleIdentifier"]?.stringValue
    {
      reportInvalidBundleIdentifier(
        identifier, in: .containingApp, what: "the containing app's CFBundleIdentifier")
    }
  }

  private mutating func reportInvalidBundleIdentifier(
    _ identifier: String, in file: ConfiguredFile, what: String
  ) {
    let invalid = Self.invalidBundleIdentifierCharacters(identifier)
    guard !invalid.isEmpty else { return }
    // Spaces and brackets are a placeholder nobody can build with; another character (an underscore) is
    // refused when the identifier is registered, so it is a warning here.
    let placeholder = invalid.contains { $0.isWhitespace || "[]<>{}()".contains($0) }
    finding(
      "bundle-identifier-invalid", placeholder ? .error : .warning, file, at: ["CFBundleIdentifier"],
      "\(what) \"\(identifier)\" is not a bundle identifier: it holds "
        + invalid.map { $0 == " " ? "spaces" : "\"\($0)\"" }.joined(separator: ", ")
        + ", where only letters, digits, hyphens and periods are allowed (a template's placeholder?)",
      fix: "set the app's real bundle identifier, then run configure again")
  }
}
