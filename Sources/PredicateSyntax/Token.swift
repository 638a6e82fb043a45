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

  /// The longest spelling, in bytes: a longer word is never a keyword.
  static let longestSpelling = 15

  /// `UTI` packed as by `packed(_:)`: the word before `-CONFORMS-TO` and `-EQUALS`.
  static let packedUTI = UInt64(0x49_54_55)

  /// One slot of the keyword table: a spelling packed as by `packed(_:)`, and its keyword (nil: empty).
  struct Slot {
    var low: UInt64
    var high: UInt64
    var keyword: Keyword?
  }

  /// Spellings packed as by `packed(_:)` in an open-addressing hash table of 64 slots (33 keywords), so the
  /// lexer's look-up is a multiply, a shift and usually one comparison, without building a string. Made once
  /// and never freed, as `Lexer.byteClasses`: the lexer loads the pointer once per input (an access to a
  /// global checks its initialisation, a call per name) and indexes it without bounds checks.
  // Written once during initialisation, then only read: safe to share between threads.
  nonisolated(unsafe) static let slots: UnsafePointer<Slot> = {
    let table = UnsafeMutablePointer<Slot>.allocate(capacity: slotCount)
    table.initialize(repeating: Slot(low: 0, high: 0, keyword: nil), count: slotCount)
    for keyword in allCases {
      let (low, high) = packed(keyword.rawValue.utf8)
      var slot = Keyword.slotIndex(low, high)
      while table[slot].keyword != nil { slot = (slot + 1) & (slotCount - 1) }
      table[slot] = Slot(low: low, high: high, keyword: keyword)
    }
    return UnsafePointer(table)
  }()

  private static let slotCount = 64

  private static func slotIndex(_ low: UInt64, _ high: UInt64) -> Int {
    Int(truncatingIfNeeded: ((low ^ (high &* 31)) &* 0x9E37_79B9_7F4A_7C15) >> 58)
  }

  /// The first 16 bytes of `bytes`, ASCII-uppercased, little-endian in two words (zero-filled past the end).
  /// Names hold no zero bytes, so a name of up to 16 bytes packs to a value no other name has.
  static func packed<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> (low: UInt64, high: UInt64) {
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

  /// The keyword whose spelling packs (`packed(_:)`) to `low` and `high`, if any; the word must be a name of
  /// at most `longestSpelling` bytes. `slots` is ``slots``, which the lexer loads once per input.
  @inline(__always)
  static func matching(
    packedLow low: UInt64, high: UInt64, in slots: UnsafePointer<Slot> = Keyword.slots
  ) -> Keyword? {
    var slot = Keyword.slotIndex(low, high)
    while let keyword = slots[slot].keyword {
      if slots[slot].low == low && slots[slot].high == high { return keyword }
      slot = (slot + 1) & (slotCount - 1)
    }
    return nil
  }

  /// The keyword spelled by `bytes` in any ASCII letter case, if it is one. Keywords are ASCII, so a
  /// non-ASCII byte never matches.
  static func matching<Bytes: Collection<UInt8>>(utf8 bytes: Bytes) -> Keyword? {
    let count = bytes.count
    guard count <= longestSpelling else { return nil }
    let (low, high) = packed(bytes)
    // The length check keeps a zero byte, which packs like the end of the word, from matching.
    guard let keyword = matching(packedLow: low, high: high), keyword.rawValue.utf8.count == count else {
      return nil
    }
    return keyword
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
  /// The token's place in the token buffer (`TokenBuffer.append` sets it); nodes are recorded by the
  /// tokens they span. Stored in what would be padding after `kind`.
  var index: Int32 = 0
  // The range's six numbers in 32 bits each, so a token is 40 bytes rather than 64: the lexer writes and the
  // parser reads one per token. Inputs of 2 GiB or more are refused before lexing
  // (`PredicateParser.checkSize`), so every line, column and offset fits.
  private var startLine: Int32
  private var startColumn: Int32
  private var startOffset: Int32
  private var endLine: Int32
  private var endColumn: Int32
  private var endOffset: Int32

  init(kind: Kind, range: SourceRange) {
    self.kind = kind
    startLine = Int32(truncatingIfNeeded: range.start.line)
    startColumn = Int32(truncatingIfNeeded: range.start.column)
    startOffset = Int32(truncatingIfNeeded: range.start.offset)
    endLine = Int32(truncatingIfNeeded: range.end.line)
    endColumn = Int32(truncatingIfNeeded: range.end.column)
    endOffset = Int32(truncatingIfNeeded: range.end.offset)
  }

  /// A token within one line, from byte `start` up to `end`, whose columns are the offsets less `lineBase`
  /// (the lexer's hot loop keeps `column` as `index - lineBase`, so it builds no `SourceRange` per token).
  @inline(__always)
  init(kind: Kind, line: Int, from start: Int, to end: Int, lineBase: Int) {
    self.kind = kind
    startLine = Int32(truncatingIfNeeded: line)
    startColumn = Int32(truncatingIfNeeded: start &- lineBase)
    startOffset = Int32(truncatingIfNeeded: start)
    endLine = startLine
    endColumn = Int32(truncatingIfNeeded: end &- lineBase)
    endOffset = Int32(truncatingIfNeeded: end)
  }

  /// Where the token was read.
  var range: SourceRange {
    SourceRange(
      start: SourcePosition(line: Int(startLine), column: Int(startColumn), offset: Int(startOffset)),
      end: SourcePosition(line: Int(endLine), column: Int(endColumn), offset: Int(endOffset)))
  }

  /// The token's first and last byte offsets, without building its range.
  var startByte: Int { Int(startOffset) }
  var endByte: Int { Int(endOffset) }

  /// The span of this one token.
  var span: TokenSpan { TokenSpan(first: index, last: index) }

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
