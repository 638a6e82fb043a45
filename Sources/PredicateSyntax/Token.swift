/// A reserved word of the predicate language. Matching is case-insensitive.
enum Keyword: String, CaseIterable, Sendable {
  case and = "AND"
  case or = "OR"
  case `in` = "IN"
  case not = "NOT"
  case all = "ALL"
  case any = "ANY"
  case some = "SOME"
  case none = "NONE"
  case like = "LIKE"
  case caseInsensitive = "CASEINSENSITIVE"
  case ci = "CI"
  case matches = "MATCHES"
  case contains = "CONTAINS"
  case beginsWith = "BEGINSWITH"
  case endsWith = "ENDSWITH"
  case between = "BETWEEN"
  case null = "NULL"
  case `nil` = "NIL"
  case `self` = "SELF"
  case `true` = "TRUE"
  case yes = "YES"
  case `false` = "FALSE"
  case no = "NO"
  case first = "FIRST"
  case last = "LAST"
  case size = "SIZE"
  case anyKey = "ANYKEY"
  case subquery = "SUBQUERY"
  case cast = "CAST"
  case truePredicate = "TRUEPREDICATE"
  case falsePredicate = "FALSEPREDICATE"
  case utiConformsTo = "UTI-CONFORMS-TO"
  case utiEquals = "UTI-EQUALS"

  /// The keyword spelled `text` in any letter case, if it is one.
  static func matching(_ text: String) -> Keyword? {
    matching(utf8: text.utf8)
  }

  /// Spellings packed as by `packed(_:)`, grouped by length, for the lexer's look-up without building a
  /// string: a candidate is two integer comparisons rather than a loop over its bytes.
  private static let spellingsByLength: [[(low: UInt64, high: UInt64, keyword: Keyword)]] = {
    let longest = allCases.map(\.rawValue.utf8.count).max() ?? 0
    var table = Array(repeating: [(low: UInt64, high: UInt64, keyword: Keyword)](), count: longest + 1)
    for keyword in allCases {
      let spelling = keyword.rawValue.utf8
      let (low, high) = packed(spelling)
      table[spelling.count].append((low, high, keyword))
    }
    return table
  }()

  /// The first 16 bytes of `bytes`, ASCII-uppercased, little-endian in two words (zero-filled past the end).
  private static func packed<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> (low: UInt64, high: UInt64) {
    var low: UInt64 = 0
    var high: UInt64 = 0
    var shift: UInt64 = 0
    for byte in bytes.prefix(16) {
      let value = UInt64(asciiUppercased(byte))
      if shift < 64 { low |= value << shift } else { high |= value << (shift - 64) }
      shift += 8
    }
    return (low, high)
  }

  /// The keyword spelled by `bytes` in any ASCII letter case, if it is one. Keywords are ASCII, so a
  /// non-ASCII byte never matches.
  static func matching<Bytes: Collection<UInt8>>(utf8 bytes: Bytes) -> Keyword? {
    let count = bytes.count
    let table = spellingsByLength
    guard count < table.count else { return nil }
    let (low, high) = packed(bytes)
    for candidate in table[count] where candidate.low == low && candidate.high == high {
      return candidate.keyword
    }
    return nil
  }

  static func asciiUppercased(_ byte: UInt8) -> UInt8 {
    byte &- UInt8(ascii: "a") < 26 ? byte - 32 : byte
  }
}

/// Punctuation and operator symbols.
enum Punctuation: String, Sendable {
  case openParenthesis = "("
  case closeParenthesis = ")"
  case openBrace = "{"
  case closeBrace = "}"
  case openBracket = "["
  case closeBracket = "]"
  case comma = ","
  case dot = "."
  case assign = ":="
  case equal = "=="
  case singleEqual = "="
  case notEqual = "!="
  case lessGreater = "<>"
  case less = "<"
  case lessEqual = "<="
  case equalLess = "=<"
  case greater = ">"
  case greaterEqual = ">="
  case equalGreater = "=>"
  case ampersands = "&&"
  case bars = "||"
  case bang = "!"
  case plus = "+"
  case minus = "-"
  case star = "*"
  case slash = "/"
  case doubleStar = "**"

  /// The number of bytes of the symbol (its `rawValue`, without building that string).
  var width: Int {
    switch self {
    case .assign, .equal, .notEqual, .lessGreater, .lessEqual, .equalLess, .greaterEqual, .equalGreater,
      .ampersands, .bars, .doubleStar:
      2
    default: 1
    }
  }
}

/// One lexical token with the exact range it was read from.
///
/// A token holds no `String`: names and plain string literals are bytes of the input, read through the token's
/// range (`Parser.text(of:)`), so tokens are plain values that copy without reference counting, and strings
/// are made only for what the tree keeps.
struct Token: Sendable {
  enum Kind: Equatable, Sendable {
    /// A name that is not a reserved word, or a selector name such as `add:to:`: the token's bytes.
    case identifier
    /// `#name`: a reserved word (or any name) used as an identifier; its text is the bytes after `#`.
    case escapedIdentifier
    case keyword(Keyword)
    /// `$name`; its text is the bytes after `$`.
    case variable
    /// `@name`; its text is the bytes after `@`.
    case collectionOperator
    /// A string literal whose value is the bytes between its two one-byte delimiters (no escapes).
    case plainString
    /// A string literal with escapes or typographic quotes: its decoded value is `Lexer.decodedStrings[n]`.
    case decodedString(Int)
    /// An integer literal that fits in 64 unsigned bits (the sign is applied by the parser).
    case integer(UInt64)
    /// A decimal or exponent literal, or an integer too large for 64 bits.
    case double(Double)
    /// `%@`, `%K`, `%d` …; its text is the bytes after `%`.
    case formatSpecifier
    case punctuation(Punctuation)
    case endOfInput
  }

  var kind: Kind
  var range: SourceRange

  // Pattern matching rather than `==` on `Kind`: no temporary `Kind` to build and compare on the hot path.
  func isPunctuation(_ punctuation: Punctuation) -> Bool {
    if case .punctuation(let found) = kind { return found == punctuation }
    return false
  }

  var isString: Bool {
    switch kind {
    case .plainString, .decodedString: true
    default: false
    }
  }

  var isEndOfInput: Bool {
    if case .endOfInput = kind { return true }
    return false
  }

  func isKeyword(_ keyword: Keyword) -> Bool {
    if case .keyword(let found) = kind { return found == keyword }
    return false
  }
}
