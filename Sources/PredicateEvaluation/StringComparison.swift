import PredicateSyntax

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// String comparison under the `[c]`, `[d]` and `[n]` options.
///
/// `[c]` is Unicode full case folding (ß → ss, İ → i̇), `[d]` removes diacritics (Ü → U, ï → i), both as
/// Foundation's `folding(options:locale:)` with no locale does them (``UnicodeFolding``), on every platform. `[n]` says the strings are
/// already normalized: it supersedes the other options (as NSComparisonPredicate.h says) and compares
/// Unicode scalars exactly, without canonical equivalence.
struct StringComparison: Sendable, Hashable {
  var foldsCase: Bool
  var foldsDiacritics: Bool
  var comparesScalars: Bool

  init(_ options: ComparisonOptions) {
    comparesScalars = options.contains(.normalized)
    foldsCase = !comparesScalars && options.contains(.caseInsensitive)
    foldsDiacritics = !comparesScalars && options.contains(.diacriticInsensitive)
  }

  /// Whether no option applies: strings compare as Swift's `==` compares them, unfolded.
  var isPlain: Bool { !foldsCase && !foldsDiacritics && !comparesScalars }

  /// The form both operands are brought to before comparing.
  func fold(_ text: String) -> String {
    if !foldsCase && !foldsDiacritics { return text }
    // ASCII has no diacritics and folds case to its lower case letters; the general folding is far slower
    // and only needed beyond ASCII (StringOptionTests checks the two agree on every ASCII character).
    if let folded = Self.asciiFolded(text, foldsCase: foldsCase) { return folded }
    return UnicodeFolding.fold(text, case: foldsCase, diacritics: foldsDiacritics)
  }

  /// `text` folded when it is all ASCII, `nil` otherwise.
  static func asciiFolded(_ text: String, foldsCase: Bool) -> String? {
    var hasUppercase = false
    for byte in text.utf8 {
      if byte >= 0x80 { return nil }
      if byte &- UInt8(ascii: "A") < 26 { hasUppercase = true }
    }
    guard foldsCase, hasUppercase else { return text }
    let utf8 = text.utf8
    return String(unsafeUninitializedCapacity: utf8.count) { buffer in
      for (offset, byte) in utf8.enumerated() {
        buffer[offset] = byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
      }
      return utf8.count
    }
  }

  /// Whether every Unicode scalar of `text` is ASCII and no two of them form one character (only CR LF
  /// does, in ASCII): then its characters are its UTF-8 bytes, and character-wise work can use the bytes.
  static func isSingleByteCharacters(_ text: String) -> Bool {
    // Over the contiguous bytes when there are some (always, for a native string): stepping through
    // `String.UTF8View` cost several times more per byte.
    text.utf8.withContiguousStorageIfAvailable { isSingleByteCharacters($0) }
      ?? isSingleByteCharacters(text.utf8)
  }

  /// The same test on UTF-8 bytes.
  static func isSingleByteCharacters<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Bool {
    bytes.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "\r") }
  }

  /// Equality of already-folded strings.
  func equal(_ lhs: String, _ rhs: String) -> Bool {
    comparesScalars ? lhs.unicodeScalars.elementsEqual(rhs.unicodeScalars) : lhs == rhs
  }

  /// Ordering of already-folded strings.
  func less(_ lhs: String, _ rhs: String) -> Bool {
    if comparesScalars {
      return lhs.unicodeScalars.lexicographicallyPrecedes(rhs.unicodeScalars)
    }
    return lhs < rhs
  }

  // An empty needle is never found, as NSString's hasPrefix:, hasSuffix: and rangeOfString: report.

  func hasPrefix(_ text: String, _ prefix: String) -> Bool {
    if prefix.isEmpty { return false }
    return comparesScalars ? text.unicodeScalars.starts(with: prefix.unicodeScalars) : text.hasPrefix(prefix)
  }

  func hasSuffix(_ text: String, _ suffix: String) -> Bool {
    if suffix.isEmpty { return false }
    return comparesScalars
      ? text.unicodeScalars.reversed().starts(with: suffix.unicodeScalars.reversed()) : text.hasSuffix(suffix)
  }

  func contains(_ text: String, _ part: String) -> Bool {
    if part.isEmpty { return false }
    if comparesScalars {
      return Self.containsSubsequence(Array(text.unicodeScalars), Array(part.unicodeScalars))
    }
    if Self.isSingleByteCharacters(text), Self.isSingleByteCharacters(part) {
      // Over the contiguous bytes: String.UTF8View's indexes cost several times more per step.
      var text = text
      var part = part
      return text.withUTF8 { textBytes in part.withUTF8 { Self.containsSubsequence(textBytes, $0) } }
    }
    return Self.containsSubsequence(Array(text), Array(part))
  }

  private static func containsSubsequence<Elements: Collection>(_ text: Elements, _ part: Elements) -> Bool
  where Elements.Element: Equatable {
    guard let first = part.first else { return false }
    var start = text.startIndex
    while let found = text[start...].firstIndex(of: first) {
      if text[found...].starts(with: part) { return true }
      start = text.index(after: found)
    }
    return false
  }
}

/// A `LIKE` pattern: `?` is exactly one character, `*` any run of characters (possibly none), `\?`, `\*`
/// and `\\` are literal, and everything else, regular-expression metacharacters included, is literal.
/// The whole string must match.
struct LikePattern: Sendable, Hashable {
  enum Token<Element: Hashable & Sendable>: Sendable, Hashable {
    case literal(Element)
    case anyOne
    case anyRun
  }

  let tokens: [Token<Character>]
  /// The same tokens over UTF-8 bytes when every literal is a single-byte character, for subjects whose
  /// characters are their bytes: matching then needs no grapheme breaking.
  private let byteTokens: [Token<UInt8>]?

  /// `pattern` is already folded the way the subject will be.
  init(_ pattern: String) {
    var tokens: [Token<Character>] = []
    var escaped = false
    for character in pattern {
      if escaped {
        tokens.append(.literal(character))
        escaped = false
        continue
      }
      switch character {
      case "\\": escaped = true
      case "?": tokens.append(.anyOne)
      case "*": if tokens.last != .anyRun { tokens.append(.anyRun) }
      default: tokens.append(.literal(character))
      }
    }
    if escaped { tokens.append(.literal("\\")) }
    self.tokens = tokens
    byteTokens = Self.byteTokens(tokens)
  }

  private static func byteTokens(_ tokens: [Token<Character>]) -> [Token<UInt8>]? {
    var bytes: [Token<UInt8>] = []
    for token in tokens {
      switch token {
      case .anyOne: bytes.append(.anyOne)
      case .anyRun: bytes.append(.anyRun)
      case .literal(let character):
        guard let byte = character.asciiValue, byte != UInt8(ascii: "\r") else { return nil }
        bytes.append(.literal(byte))
      }
    }
    return bytes
  }

  /// Whether the whole of `subject` matches.
  func matches(_ subject: String) -> Bool {
    if let answer = matchesSingleByte(subject, foldingCase: false) { return answer }
    return Self.matches(Array(subject), tokens) { $0 }
  }

  /// Whether the whole of `subject` matches once its ASCII letters are lowered when `foldingCase` (what
  /// `[c]` folding does to such text), read off its bytes; nil when a character of `subject` or of the
  /// pattern is not a single byte (the caller then folds and calls ``matches(_:)``).
  func matchesSingleByte(_ subject: String, foldingCase: Bool) -> Bool? {
    guard let byteTokens, StringComparison.isSingleByteCharacters(subject) else { return nil }
    // Over the contiguous bytes: copying them into an array, or folding a copy, cost more than the match.
    var subject = subject
    return subject.withUTF8 { bytes in
      if foldingCase {
        return Self.matches(bytes, byteTokens) { $0 &- UInt8(ascii: "A") < 26 ? $0 | 0x20 : $0 }
      }
      return Self.matches(bytes, byteTokens) { $0 }
    }
  }

  /// Greedy matching with a single backtrack point per `*`, linear in practice and never exponential;
  /// `fold` is applied to each character of the subject before it is compared.
  private static func matches<Characters: RandomAccessCollection<Element>, Element>(
    _ characters: Characters, _ tokens: [Token<Element>], fold: (Element) -> Element
  ) -> Bool where Characters.Index == Int {
    let start = characters.startIndex
    var textIndex = 0
    var tokenIndex = 0
    var starToken: Int?
    var starText = 0
    while textIndex < characters.count {
      if tokenIndex < tokens.count {
        switch tokens[tokenIndex] {
        case .anyRun:
          starToken = tokenIndex
          starText = textIndex
          tokenIndex += 1
          continue
        case .anyOne:
          textIndex += 1
          tokenIndex += 1
          continue
        case .literal(let expected) where expected == fold(characters[start + textIndex]):
          textIndex += 1
          tokenIndex += 1
          continue
        case .literal:
          break
        }
      }
      guard let star = starToken else { return false }
      tokenIndex = star + 1
      starText += 1
      textIndex = starText
    }
    while tokenIndex < tokens.count, tokens[tokenIndex] == .anyRun { tokenIndex += 1 }
    return tokenIndex == tokens.count
  }
}
