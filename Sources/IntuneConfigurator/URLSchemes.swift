/// The Intune suffix for URL schemes: every scheme `s` an Intune app handles or queries gets a twin
/// `s-intunemam`.
enum IntuneSchemes {
  static let suffix = "-intunemam"

  /// `scheme` + `-intunemam`.
  static func twin(of scheme: String) -> String { scheme + suffix }

  /// Whether `scheme` is itself an Intune twin.
  static func isTwin(_ scheme: String) -> Bool {
    scheme.lowercased().hasSuffix(suffix)
  }
}

/// What is wrong with a URL scheme string, if anything.
enum URLSchemeProblem: Sendable, Hashable {
  /// The value uses an Xcode build setting such as `$(PRODUCT_BUNDLE_IDENTIFIER)` or `${VAR}`; it can only
  /// be checked once Xcode expands it, and a twin written now would be invalid after expansion if the
  /// setting holds more than a scheme (Intune SDK issue #579: `msauth.<bundle>://auth-intunemam`).
  case buildSetting(String)
  /// The empty string.
  case empty
  /// RFC 3986 §3.1: `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`. Carries the first bad
  /// character and its 0-based position.
  case invalidCharacter(Character, position: Int)
  /// The first character is not a letter.
  case mustStartWithLetter(Character)

  /// A sentence for people, ending with how to fix it.
  var message: String {
    switch self {
    case .buildSetting(let name):
      return "uses the build setting \(name), which cannot be checked before Xcode expands it; "
        + "add its -intunemam twin by hand once you know the expanded scheme"
    case .empty:
      return "is empty; remove it or give the scheme a name"
    case .invalidCharacter(let character, let position):
      return "has \"\(character)\" at position \(position + 1), which a URL scheme cannot contain "
        + "(RFC 3986 allows letters, digits, \"+\", \"-\" and \".\")"
    case .mustStartWithLetter(let character):
      return "starts with \"\(character)\"; a URL scheme must start with a letter (RFC 3986)"
    }
  }
}

/// Checks URL scheme strings as they appear in `CFBundleURLSchemes` and `LSApplicationQueriesSchemes`.
enum URLSchemeValidator {
  /// The problem with `scheme`, or `nil` when it is a valid RFC 3986 scheme.
  static func problem(with scheme: String) -> URLSchemeProblem? {
    if let setting = buildSetting(in: scheme) { return .buildSetting(setting) }
    guard let first = scheme.first else { return .empty }
    guard first.isASCII, first.isLetter else { return .mustStartWithLetter(first) }
    for (position, character) in scheme.enumerated() {
      let allowed =
        character.isASCII && (character.isLetter || character.isNumber || "+-.".contains(character))
      if !allowed { return .invalidCharacter(character, position: position) }
    }
    return nil
  }

  /// The first `$(NAME)` or `${NAME}` reference in `value`, as written.
  static func buildSetting(in value: String) -> String? {
    guard let dollar = value.firstIndex(of: "$") else { return nil }
    let rest = value[value.index(after: dollar)...]
    guard let open = rest.first, open == "(" || open == "{" else { return nil }
    let close: Character = open == "(" ? ")" : "}"
    guard let end = rest.firstIndex(of: close) else { return String(value[dollar...]) }
    return String(value[dollar...end])
  }

  /// The names of every `$(NAME)` or `${NAME}` reference in `value`, without modifiers
  /// (`$(PRODUCT_BUNDLE_IDENTIFIER:rfc1034identifier)` names `PRODUCT_BUNDLE_IDENTIFIER`).
  static func buildSettingNames(in value: String) -> [String] {
    var names: [String] = []
    var rest = value[...]
    while let reference = buildSetting(in: String(rest)), let start = rest.firstRange(of: reference) {
      let inner = reference.dropFirst(2).prefix { $0 != ")" && $0 != "}" && $0 != ":" }
      if !inner.isEmpty { names.append(String(inner)) }
      rest = rest[start.upperBound...]
    }
    return names
  }
}
