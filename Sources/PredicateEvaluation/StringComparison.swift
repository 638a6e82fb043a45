import Foundation
import PredicateSyntax

/// String comparison under the `[c]`, `[d]` and `[n]` options.
///
/// `[c]` is Unicode full case folding (ß → ss, İ → i̇), `[d]` removes diacritics (Ü → U, ï → i), both through
/// Foundation's `folding(options:locale:)` with no locale so Linux and macOS agree. `[n]` says the strings are
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

  /// The form both operands are brought to before comparing.
  func fold(_ text: String) -> String {
    var options: String.CompareOptions = []
    if foldsCase { options.insert(.caseInsensitive) }
    if foldsDiacritics { options.insert(.diacriticInsensitive) }
    if options.isEmpty { return text }
    return text.folding(options: options, locale: nil)
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
    return Self.containsSubsequence(Array(text), Array(part))
  }

  private static func containsSubsequence<Element: Equatable>(_ text: [Element], _ part: [Element]) -> Bool {
    guard part.count <= text.count else { return false }
    for start in 0...(text.count - part.count) where text[start..<(start + part.count)].elementsEqual(part) {
      return true
    }
    return false
  }
}

/// A `LIKE` pattern: `?` is exactly one character, `*` any run of characters (possibly none), `\?`, `\*`
/// and `\\` are literal, and everything else, regular-expression metacharacters included, is literal.
/// The whole string must match.
struct LikePattern: Sendable, Hashable {
  enum Token: Sendable, Hashable {
    case literal(Character)
    case anyOne
    case anyRun
  }

  let tokens: [Token]

  /// `pattern` is already folded the way the subject will be.
  init(_ pattern: String) {
    var tokens: [Token] = []
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
  }

  /// Greedy matching with a single backtrack point per `*`, linear in practice and never exponential.
  func matches(_ subject: String) -> Bool {
    let characters = Array(subject)
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
        case .literal(let expected) where expected == characters[textIndex]:
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
