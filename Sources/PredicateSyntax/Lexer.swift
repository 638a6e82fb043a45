/// Turns UTF-8 predicate text into tokens. Iterative (no recursion), so input size never threatens the stack.
///
/// The input must already be valid UTF-8 (`UTF8Validation` checks byte input first).
struct Lexer: ~Copyable {
  /// The input, valid for the lexer's lifetime: the caller keeps the caller's bytes alive (`PredicateParser.run`
  /// parses inside `withUTF8`/`withUnsafeBufferPointer`), so a `String` is read without copying it first.
  let bytes: UnsafeBufferPointer<UInt8>
  let lenient: Bool
  var index = 0
  var line = 1
  var column = 1
  var warnings: [PredicateDiagnostic] = []
  /// Typographic quotes inside string literals that closed normally. When reading fails later, the first of
  /// these is the likely cause (`"a” || b == "c"` swallows ` || b == ` into the first string).
  var suspiciousQuotes: [(quote: TypographicQuote, range: SourceRange)] = []
  /// The values of string literals that are not their bytes as written (escapes, typographic quotes), which
  /// `Token.Kind.decodedString` indexes.
  var decodedStrings: [String] = []
  /// `bytes` again: the scanning code reads this name, the rare paths `bytes`.
  let buffer: UnsafeBufferPointer<UInt8>
  /// The deepest bracket nesting plus every prefix or right-associative operator seen, each of which may add
  /// a parser level: an upper bound of the parser's recursion depth, which decides whether it needs the large
  /// stack (`LargeStack.fitsOnCurrentStack`). Counted here, so the parser needs no pass over the tokens.
  var possibleNesting: Int { deepestBrackets + prefixOperators }
  private var openBrackets = 0
  private var deepestBrackets = 0
  private var prefixOperators = 0

  init(bytes: UnsafeBufferPointer<UInt8>, lenient: Bool) {
    self.bytes = bytes
    self.buffer = bytes
    self.lenient = lenient
    // A UTF-8 byte-order mark is not part of the predicate.
    // Compared byte by byte: `starts(with:)` goes through generic code on every parse.
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
  }

  /// All tokens, ending with `.endOfInput` (tests; the parser reads `tokenizeIntoBuffer()`'s buffer).
  mutating func tokenize() throws(PredicateSyntaxError) -> [Token] {
    let tokens = try tokenizeIntoBuffer()
    defer { PlainMemory.free(tokens) }
    return Array(tokens)
  }

  /// All tokens, ending with `.endOfInput`, in memory the caller must free (`PlainMemory.free(_:)`).
  ///
  /// Tokens are trivial values, so a plain buffer holds them: appending is a store and a count, without the
  /// uniqueness and capacity checks of `Array.append`, and the parser reads them without bounds checks. The
  /// whole run reads the input through one `UnsafeBufferPointer` (`buffer`). Each token's first byte picks its
  /// branch through `ByteClass`; the commonest tokens (names and keywords, punctuation, `$`/`@`/`#` names,
  /// plain strings, decimal integers) are read here, every other token, and every error, through `next()`.
  ///
  /// The position lives in locals here, not in the stored `index`, `line` and `column`: a stored property of
  /// the lexer is loaded and stored through memory at every use, locals stay in registers. The column is not
  /// counted at all but derived, `index - lineBase`: within a line, ASCII moves the column by its byte count,
  /// so `lineBase` changes only at a line break (and at a CR of a CRLF, which takes no column). Before
  /// `next()` (and on the way out) the locals are written back (`store`) and read again after (`load`).
  mutating func tokenizeIntoBuffer() throws(PredicateSyntaxError) -> UnsafeMutableBufferPointer<Token> {
    // The corpus rules average one token per 10 bytes (the densest one per 7): a sixth rarely grows. A small
    // constant keeps a short predicate's buffer under 1 KiB, which glibc's per-thread cache serves.
    var tokens = TokenBuffer(capacity: bytes.count / 6 + 4)
    let classes = Lexer.byteClasses
    let keywords = Keyword.slots
    let buffer = self.buffer
    let count = buffer.count
    var index = self.index
    var line = self.line
    var lineBase = self.index - self.column
    func store() {
      self.index = index
      self.line = line
      self.column = index - lineBase
    }
    func load() {
      index = self.index
      line = self.line
      lineBase = self.index - self.column
    }
    do throws(PredicateSyntaxError) {
      while true {
        if index < count, buffer[index] <= 0x20 {
          Lexer.skipWhitespace(in: buffer, index: &index, line: &line, lineBase: &lineBase)
        }
        guard index < count else {
          tokens.append(Token(kind: .endOfInput, line: line, from: index, to: index, lineBase: lineBase))
          store()
          return tokens.storage
        }
        let start = index
        let byte = buffer[start]
        switch ByteClass(rawValue: classes[Int(byte)]) {
        case .nameStart:
          let (kind, end) = Lexer.name(in: buffer, at: start, keywords: keywords)
          if case .keyword(.not) = kind { prefixOperators += 1 }
          index = end
          tokens.append(Token(kind: kind, line: line, from: start, to: end, lineBase: lineBase))
          continue
        case .punctuation:
          let symbol = Lexer.singleBytePunctuation(byte)
          countNesting(symbol)
          index = start + 1
          tokens.append(
            Token(kind: .punctuation(symbol), line: line, from: start, to: index, lineBase: lineBase))
          continue
        case .punctuationOrPair:
          if let symbol = Lexer.pairPunctuation(byte, start + 1 < count ? buffer[start + 1] : 0) {
            countNesting(symbol)
            index = start + symbol.width
            tokens.append(
              Token(kind: .punctuation(symbol), line: line, from: start, to: index, lineBase: lineBase))
            continue
          }
        case .sigil:
          if start + 1 < count, ByteClass(rawValue: classes[Int(buffer[start + 1])]) == .nameStart {
            index = buffer.endOfShortName(from: start + 1)
            tokens.append(
              Token(
                kind: Lexer.prefixedNameKind(sigil: byte), line: line, from: start, to: index,
                lineBase: lineBase))
            continue
          }
        case .quote:
          if let end = buffer.endOfPlainString(from: start) {
            index = end
            tokens.append(Token(kind: .plainString, line: line, from: start, to: end, lineBase: lineBase))
            continue
          }
          store()
          tokens.append(try string(delimiter: byte))
          load()
          continue
        case .digit:
          if let (value, end) = buffer.plainDecimalInteger(from: start) {
            index = end
            tokens.append(Token(kind: .integer(value), line: line, from: start, to: end, lineBase: lineBase))
            continue
          }
        default:
          break
        }
        store()
        tokens.append(try next())
        load()
      }
    } catch {
      tokens.deallocate()
      throw likelyCause(of: error)
    }
  }

  /// Skips whitespace (0x09-0x0D and 0x20) from `index`, keeping `line` and `lineBase` (the column is
  /// `index - lineBase`) as `advance()` would keep line and column. A token directly after another skips the
  /// call, and a single space, the most common separator, is one step.
  @inline(__always)
  private static func skipWhitespace(
    in buffer: UnsafeBufferPointer<UInt8>, index: inout Int, line: inout Int, lineBase: inout Int
  ) {
    if buffer[index] == 0x20, index + 1 < buffer.count, buffer[index + 1] > 0x20 {
      index += 1
    } else {
      skipWhitespaceRun(in: buffer, index: &index, line: &line, lineBase: &lineBase)
    }
  }

  private static func skipWhitespaceRun(
    in buffer: UnsafeBufferPointer<UInt8>, index: inout Int, line: inout Int, lineBase: inout Int
  ) {
    // Rules are indented and span lines, so runs are long and cross line breaks. Spaces, tabs, VT and FF
    // each take a column, which the derived column gives for free.
    var at = index
    while at < buffer.count {
      let byte = buffer[at]
      guard byte <= 0x20 else { break }
      if Lexer.sameLineSpace >> UInt64(byte) & 1 != 0 {
        at += 1
      } else if byte == 0x0A {
        at += 1
        line += 1
        lineBase = at - 1
        // Indentation: eight spaces at a time.
        while at + 8 <= buffer.count, buffer.word(at: at) == Lexer.eightSpaces { at += 8 }
      } else if byte == 0x0D {
        at += 1
        if at < buffer.count, buffer[at] == 0x0A {
          // CRLF is one line break (counted at the LF); the CR takes no column.
          lineBase += 1
        } else {
          // A lone CR is a line break too.
          line += 1
          lineBase = at - 1
        }
      } else {
        break
      }
    }
    index = at
  }

  /// Space, tab, VT and FF as a bit set over the bytes 0-32: the whitespace that stays on its line.
  private static let sameLineSpace: UInt64 = 0x1_0000_1A00

  /// Counts the nesting `symbol` may add (`possibleNesting`).
  @inline(__always)
  private mutating func countNesting(_ symbol: Punctuation) {
    switch symbol {
    case .openParenthesis, .openBrace, .openBracket:
      openBrackets += 1
      deepestBrackets = Swift.max(deepestBrackets, openBrackets)
    case .closeParenthesis, .closeBrace, .closeBracket:
      openBrackets -= 1
    case .bang, .minus, .doubleStar, .assign:
      prefixOperators += 1
    default:
      break
    }
  }

  // MARK: - Positions

  var position: SourcePosition { SourcePosition(line: line, column: column, offset: index) }

  func peek(_ ahead: Int = 0) -> UInt8? {
    let at = index + ahead
    return at < buffer.count ? buffer[at] : nil
  }

  /// Consumes one byte, keeping line and column (in Unicode scalars) up to date.
  mutating func advance() {
    let byte = buffer[index]
    index += 1
    if byte == UInt8(ascii: "\n") {
      line += 1
      column = 1
    } else if byte == UInt8(ascii: "\r") {
      // CRLF is one line break; a lone CR is one too.
      if peek() != UInt8(ascii: "\n") {
        line += 1
        column = 1
      }
    } else if byte & 0xC0 != 0x80 {
      column += 1
    }
  }

  mutating func advance(by count: Int) {
    for _ in 0..<count { advance() }
  }

  func range(from start: SourcePosition) -> SourceRange { SourceRange(start: start, end: position) }

  /// The Unicode scalar starting at `offset` and its length in bytes.
  func scalar(at offset: Int) -> (Unicode.Scalar, Int) {
    var iterator = bytes[offset...].makeIterator()
    var decoder = UTF8()
    if case .scalarValue(let value) = decoder.decode(&iterator) {
      return (value, UTF8.width(value))
    }
    return (Unicode.Scalar(0xFFFD) ?? "?", 1)
  }

  // MARK: - Tokens

  mutating func next() throws(PredicateSyntaxError) -> Token {
    skipSpace()
    let start = position
    guard let byte = peek() else { return Token(kind: .endOfInput, range: range(from: start)) }
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "'"):
      return try string(delimiter: byte)
    case UInt8(ascii: "0")...UInt8(ascii: "9"):
      return try number()
    case UInt8(ascii: "$"), UInt8(ascii: "@"), UInt8(ascii: "#"):
      return try prefixedName(sigil: byte)
    case UInt8(ascii: "%"):
      return try formatSpecifier()
    case _ where Lexer.isIdentifierStart(byte):
      let (kind, end) = Lexer.name(in: buffer, at: index, keywords: Keyword.slots)
      if case .keyword(.not) = kind { prefixOperators += 1 }
      // Names are ASCII and never line breaks, so the column moves by their length.
      column += end - index
      index = end
      return Token(kind: kind, range: range(from: start))
    case 0x80...:
      let (scalar, width) = scalar(at: index)
      if let typographic = TypographicQuote(scalar) {
        return try typographicString(opening: typographic, width: width)
      }
      advance(by: width)
      throw PredicateSyntaxError(
        .unexpectedCharacter,
        "unexpected character '\(scalar)' (U+\(Lexer.hex(scalar.value, digits: 4)))",
        at: range(from: start))
    default:
      return try punctuation()
    }
  }

  /// Skips whitespace before a token, keeping line and column.
  private mutating func skipSpace() {
    guard index < buffer.count, buffer[index] <= 0x20 else { return }
    var (index, line, lineBase) = (self.index, self.line, self.index - self.column)
    Lexer.skipWhitespace(in: buffer, index: &index, line: &line, lineBase: &lineBase)
    (self.index, self.line, self.column) = (index, line, index - lineBase)
  }

  // The name characters as bit sets over the 128 ASCII bytes (low and high 64), tested with a shift instead
  // of range comparisons: `_`, letters, and for continuations digits too.
  private static let nameStartHigh: UInt64 = 0x07FF_FFFE_87FF_FFFE  // A-Z, _, a-z (bytes 64-127)
  private static let digitsLow: UInt64 = 0x03FF_0000_0000_0000  // 0-9 (bytes 48-57)

  static func isIdentifierStart(_ byte: UInt8) -> Bool {
    byte >= 64 && byte < 128 && (nameStartHigh >> UInt64(byte & 63)) & 1 != 0
  }

  static func isIdentifierContinuation(_ byte: UInt8) -> Bool {
    let set = byte < 64 ? digitsLow : nameStartHigh
    return byte < 128 && (set >> UInt64(byte & 63)) & 1 != 0
  }

  /// The name or keyword starting at `start` (a name's first character) and where it ends. Static, as the
  /// other helpers of the tokenize loop: it reads only the input, and the loop keeps the position in locals.
  @inline(__always)
  static func name(
    in buffer: UnsafeBufferPointer<UInt8>, at start: Int, keywords: UnsafePointer<Keyword.Slot>
  ) -> (kind: Token.Kind, end: Int) {
    let (end, low, high) = buffer.scanAndPackName(from: start)
    // Keywords are looked up from the packed bytes: only identifiers need a string later.
    if end - start <= Keyword.longestSpelling {
      if low == Keyword.packedUTI, let (keyword, width) = buffer.utiOperatorSuffix(at: end) {
        return (.keyword(keyword), end + width)
      }
      if let keyword = Keyword.matching(packedLow: low, high: high, in: keywords) {
        return (.keyword(keyword), end)
      }
    }
    if end < buffer.count, buffer[end] == UInt8(ascii: ":") {
      return (.identifier, buffer.endOfSelectorName(from: end))
    }
    return (.identifier, end)
  }

  static func uppercased(_ byte: UInt8) -> UInt8 {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) ? byte - 32 : byte
  }

  private mutating func prefixedName(sigil: UInt8) throws(PredicateSyntaxError) -> Token {
    guard index + 1 < buffer.count, Lexer.isIdentifierStart(buffer[index + 1]) else {
      let start = position
      // The sigil is one ASCII byte.
      index += 1
      column += 1
      let what =
        switch sigil {
        case UInt8(ascii: "$"): "a variable name after '$'"
        case UInt8(ascii: "@"): "a collection operator name after '@'"
        default: "an identifier after '#'"
        }
      throw PredicateSyntaxError(.unexpectedCharacter, "expected \(what)", at: range(from: start))
    }
    return prefixedNameToken(Lexer.prefixedNameKind(sigil: sigil))
  }

  /// The kind of token a name after `sigil`, one of `$`, `@` and `#`, makes.
  private static func prefixedNameKind(sigil: UInt8) -> Token.Kind {
    switch sigil {
    case UInt8(ascii: "$"): .variable
    case UInt8(ascii: "@"): .collectionOperator
    default: .escapedIdentifier
    }
  }

  /// Consumes a sigil and the name after it, which starts with a name's first character.
  private mutating func prefixedNameToken(_ kind: Token.Kind) -> Token {
    let start = position
    let end = buffer.endOfName(from: index + 1)
    // The sigil and the name are ASCII, never a line break.
    column += end - index
    index = end
    return Token(kind: kind, range: range(from: start))
  }

  private mutating func punctuation() throws(PredicateSyntaxError) -> Token {
    guard let symbol = Lexer.punctuation(in: buffer, at: index) else {
      throw unexpectedCharacter(start: position)
    }
    return punctuationToken(symbol)
  }

  /// The punctuation symbol at `offset`, if one starts there. Static, as the other helpers of the tokenize
  /// loop: a call to a method of the lexer from its mutating loop copies the lexer first.
  private static func punctuation(in buffer: UnsafeBufferPointer<UInt8>, at offset: Int) -> Punctuation? {
    let byte = buffer[offset]
    switch ByteClass(rawValue: byteClasses[Int(byte)]) {
    case .punctuation: return singleBytePunctuation(byte)
    case .punctuationOrPair: return pairPunctuation(byte, offset + 1 < buffer.count ? buffer[offset + 1] : 0)
    default: return nil
    }
  }

  /// The symbol of one or two bytes that `byte`, of class `ByteClass.punctuationOrPair`, starts when
  /// `following` comes next (0 at the end of the input, which no symbol has second); nil for a lone `&`,
  /// `|` or `:`. Inlined into the tokenize loop: a call cost as much as the switch.
  @inline(__always)
  private static func pairPunctuation(_ byte: UInt8, _ following: UInt8) -> Punctuation? {
    // Bytes, not Characters: comparing Characters costs a grapheme comparison per case.
    switch byte {
    case UInt8(ascii: ":"): following == UInt8(ascii: "=") ? .assign : nil
    case UInt8(ascii: "="):
      switch following {
      case UInt8(ascii: "="): .equal
      case UInt8(ascii: "<"): .equalLess
      case UInt8(ascii: ">"): .equalGreater
      default: .singleEqual
      }
    case UInt8(ascii: "!"): following == UInt8(ascii: "=") ? .notEqual : .bang
    case UInt8(ascii: "<"):
      switch following {
      case UInt8(ascii: "="): .lessEqual
      case UInt8(ascii: ">"): .lessGreater
      default: .less
      }
    case UInt8(ascii: ">"): following == UInt8(ascii: "=") ? .greaterEqual : .greater
    case UInt8(ascii: "&"): following == UInt8(ascii: "&") ? .ampersands : nil
    case UInt8(ascii: "|"): following == UInt8(ascii: "|") ? .bars : nil
    default: following == UInt8(ascii: "*") ? .doubleStar : .star
    }
  }

  /// The punctuation symbol `byte` is, for a byte of class `ByteClass.punctuation`.
  private static func singleBytePunctuation(_ byte: UInt8) -> Punctuation {
    switch byte {
    case UInt8(ascii: "("): .openParenthesis
    case UInt8(ascii: ")"): .closeParenthesis
    case UInt8(ascii: "{"): .openBrace
    case UInt8(ascii: "}"): .closeBrace
    case UInt8(ascii: "["): .openBracket
    case UInt8(ascii: "]"): .closeBracket
    case UInt8(ascii: ","): .comma
    case UInt8(ascii: "."): .dot
    case UInt8(ascii: "+"): .plus
    case UInt8(ascii: "-"): .minus
    default: .slash
    }
  }

  /// The error for the byte at `start`, which starts no token (a lone `&` may be XML-escaped text).
  private mutating func unexpectedCharacter(start: SourcePosition) -> PredicateSyntaxError {
    let byte = buffer[index]
    if byte == UInt8(ascii: "&"),
      let error = XMLEscapedText.error(in: Array(bytes), at: index, start: start, warnings: warnings)
    {
      return error
    }
    // A real rule wrote `\"public.image\"` in its Info.plist: the escaping of the Swift or JSON string it
    // was copied from.
    let escapesQuote =
      byte == UInt8(ascii: "\\") && (peek(1) == UInt8(ascii: "\"") || peek(1) == UInt8(ascii: "'"))
    advance()
    let shown = Character(Unicode.Scalar(byte))
    let hint =
      switch shown {
      case "&": " (did you mean '&&'?)"
      case "|": " (did you mean '||'?)"
      case "?": " ('?' is only a wildcard inside LIKE patterns)"
      case "\\" where escapesQuote:
        " (a backslash escapes a quote only inside a string; remove it: \\\" is Swift, JSON or shell quoting, "
          + "not part of the rule)"
      default: ""
      }
    let spelled =
      (0x21...0x7E).contains(byte) ? "'\(shown)'" : "U+\(Lexer.hex(UInt32(byte), digits: 4))"
    return PredicateSyntaxError(
      .unexpectedCharacter, "unexpected character \(spelled)\(hint)", at: range(from: start))
  }

  /// Consumes `symbol`, found at the current byte, counting the nesting it may add.
  private mutating func punctuationToken(_ symbol: Punctuation) -> Token {
    let start = position
    countNesting(symbol)
    // Punctuation is one or two ASCII bytes, never a line break.
    let width = symbol.width
    index += width
    column += width
    return Token(kind: .punctuation(symbol), range: range(from: start))
  }
}
