extension ActivationDictionary {
  /// `key` as a diagnostic shows it: every character that cannot be seen written as an escape — `\n`,
  /// `\r`, `\t`, `\u{…}` for other whitespace, control and format characters, and for a space at either end —
  /// and `\` as `\\`, so the escapes are unambiguous.
  ///
  /// Keys are copied from property lists, where a line break inside `<key>…</key>` is easy to miss
  /// (`<key>NSExtensionActivationSupportsImageWithMaxCount\n</key>`, in a shipping app): printed raw, it
  /// splits a `file:line:column:` finding over two lines and makes the key look documented. Every message
  /// that names a key of the user's plist prints it through this function.
  public static func escapedKey(_ key: String) -> String {
    let scalars = Array(key.unicodeScalars)
    var escaped = ""
    for (index, scalar) in scalars.enumerated() {
      let atEnd = index == 0 || index == scalars.count - 1
      switch scalar {
      case "\\": escaped += "\\\\"
      case "\n": escaped += "\\n"
      case "\r": escaped += "\\r"
      case "\t": escaped += "\\t"
      case " " where atEnd: escaped += "\\u{20}"
      case _ where scalar != " " && isInvisible(scalar):
        escaped += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }

  /// Whether `scalar` prints as nothing or as blank space: whitespace, control and format characters
  /// (a zero-width space, a byte-order mark).
  static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator, .spaceSeparator: true
    default: scalar.properties.isWhitespace
    }
  }

  /// A name for an invisible character that says what it is and which one: "a line break (U+000A)".
  static func describeInvisible(_ scalar: Unicode.Scalar) -> String {
    let code = String(scalar.value, radix: 16, uppercase: true)
    let number = "U+" + String(repeating: "0", count: max(0, 4 - code.count)) + code
    let name: String
    switch scalar {
    case "\n": name = "a line break"
    case "\r": name = "a carriage return"
    case "\t": name = "a tab"
    case " ": name = "a space"
    case "\u{A0}": name = "a no-break space"
    case "\u{FEFF}": name = "a byte-order mark"
    case "\u{200B}": name = "a zero-width space"
    default: name = "an invisible character"
    }
    return "\(name) (\(number))"
  }
}

extension ActivationDictionary.UndocumentedKey {
  /// The documented key this one is once its invisible characters (whitespace, control and format
  /// characters) are removed, and where those characters are: "followed by a line break (U+000A)". `nil`
  /// when the key has none, or is not a documented key without them.
  ///
  /// The system compares keys exactly, so such a key is ignored although it looks documented; saying
  /// "did you mean" the same-looking spelling would not tell the user what to change.
  var invisibleCharacters: (documented: ActivationDictionary.Key, placement: String)? {
    let scalars = Array(name.unicodeScalars)
    let visible = scalars.filter { !ActivationDictionary.isInvisible($0) }
    guard visible.count < scalars.count,
      let documented = ActivationDictionary.Key(rawValue: String(String.UnicodeScalarView(visible)))
    else { return nil }
    let leading = scalars.prefix { ActivationDictionary.isInvisible($0) }
    let trailing = scalars.dropFirst(leading.count).reversed().prefix { ActivationDictionary.isInvisible($0) }
      .reversed()
    let inside = scalars.dropFirst(leading.count).dropLast(trailing.count).filter {
      ActivationDictionary.isInvisible($0)
    }
    // Each distinct character once, in the order it first appears: "a line break (U+000A) and a tab (U+0009)".
    func names<Characters: Sequence<Unicode.Scalar>>(_ characters: Characters) -> String {
      var seen: [Unicode.Scalar] = []
      for character in characters where !seen.contains(character) { seen.append(character) }
      return seen.map(ActivationDictionary.describeInvisible).joined(separator: " and ")
    }
    var placements: [String] = []
    if !leading.isEmpty { placements.append("preceded by " + names(leading)) }
    if !trailing.isEmpty { placements.append("followed by " + names(trailing)) }
    if !inside.isEmpty { placements.append("with " + names(inside) + " inside") }
    return (documented, placements.joined(separator: ", "))
  }

  /// Whether every invisible character of the key is whitespace (a line break, a tab, a space), which the
  /// fix then calls whitespace; a zero-width space or a control character is "an invisible character".
  var invisibleCharactersAreWhitespace: Bool {
    name.unicodeScalars.allSatisfy { !ActivationDictionary.isInvisible($0) || $0.properties.isWhitespace }
  }
}
