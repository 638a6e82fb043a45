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
    defer { tokens.deallocate() }
    return Array(tokens)
  }

  /// All tokens, ending with `.endOfInput`, in memory the caller must `deallocate()`.
  ///
  /// Tokens are trivial values, so a plain buffer holds them: appending is a store and a count, without the
  /// uniqueness and capacity checks of `Array.append`, and the parser reads them without bounds checks. The
  /// whole run reads the input through one `UnsafeBufferPointer` (`buffer`). Each token's first byte picks its
  /// branch through `ByteClass`; the commonest tokens (names and keywords, punctuation, `$`/`@`/`#` names)
  /// are read here, every other token, and every error, through `next()`.
  mutating func tokenizeIntoBuffer() throws(PredicateSyntaxError) -> UnsafeMutableBufferPointer<Token> {
    // The corpus rules average one token per 10 bytes (the densest one per 7): a sixth rarely grows. A small
    // constant keeps a short predicate's buffer under 1 KiB, which glibc's per-thread cache serves.
    var tokens = TokenBuffer(capacity: bytes.count / 6 + 4)
    let classes = Lexer.byteClasses
    let keywords = Keyword.slots
    do throws(PredicateSyntaxError) {
      while true {
        skipSpace()
        guard index < buffer.count else {
          tokens.append(Token(kind: .endOfInput, range: range(from: position)))
          return tokens.storage
        }
        let byte = buffer[index]
        switch ByteClass(rawValue: classes[Int(byte)]) {
        case .nameStart:
          tokens.append(identifierOrKeyword(keywords))
          continue
        case .punctuation:
          tokens.append(punctuationToken(Lexer.singleBytePunctuation(byte)))
          continue
        case .punctuationOrPair:
          if let symbol = Lexer.punctuation(in: buffer, at: index) {
            tokens.append(punctuationToken(symbol))
            continue
          }
        case .sigil:
          if index + 1 < buffer.count, ByteClass(rawValue: classes[Int(buffer[index + 1])]) == .nameStart {
            tokens.append(prefixedNameToken(Lexer.prefixedNameKind(sigil: byte)))
            continue
          }
        case .quote:
          tokens.append(try string(delimiter: byte))
          continue
        case .digit:
          tokens.append(try number())
          continue
        default:
          break
        }
        tokens.append(try next())
      }
    } catch {
      tokens.deallocate()
      throw likelyCause(of: error)
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
      return identifierOrKeyword(Keyword.slots)
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

  /// Skips whitespace before a token. Whitespace is 0x09-0x0D and 0x20: a token directly after another skips
  /// the call, and so does one after a single space, the most common separator.
  @inline(__always)
  private mutating func skipSpace() {
    guard index < buffer.count, buffer[index] <= 0x20 else { return }
    if buffer[index] == 0x20, index + 1 < buffer.count, buffer[index + 1] > 0x20 {
      index += 1
      column += 1
    } else {
      skipWhitespace()
    }
  }

  private mutating func skipWhitespace() {
    // One pass over the buffer, keeping line and column as `advance()` would: rules are indented and span
    // lines, so runs are long and cross line breaks.
    let buffer = self.buffer
    var (index, line, column) = (self.index, self.line, self.column)
    scan: while index < buffer.count {
      // Indentation: eight spaces at a time.
      while index + 8 <= buffer.count, buffer.word(at: index) == Lexer.eightSpaces {
        index += 8
        column += 8
      }
      guard index < buffer.count else { break }
      switch buffer[index] {
      case 0x20, 0x09, 0x0B, 0x0C:
        column += 1
      case 0x0A:
        line += 1
        column = 1
      case 0x0D:
        // CRLF is one line break (counted at the LF); a lone CR is one too.
        if index + 1 == buffer.count || buffer[index + 1] != 0x0A {
          line += 1
          column = 1
        }
      default:
        break scan
      }
      index += 1
    }
    (self.index, self.line, self.column) = (index, line, column)
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

  /// Consumes a run of identifier characters and returns where it began. Names are ASCII and never line
  /// breaks, so the column moves by their count.
  private mutating func scanName() -> Int {
    let begin = index
    index = buffer.endOfName(from: begin)
    column += index - begin
    return begin
  }

  // Inlined into the tokenize loop: the token is then built in place instead of copied out of a call.
  @inline(__always)
  private mutating func identifierOrKeyword(_ keywords: UnsafePointer<Keyword.Slot>) -> Token {
    let start = position
    let begin = index
    let (end, low, high) = buffer.scanAndPackName(from: begin)
    // Names are ASCII and never line breaks, so the column moves by their length.
    index = end
    column += end - begin
    // Keywords are looked up from the packed bytes: only identifiers need a string later.
    if end - begin <= Keyword.longestSpelling {
      if low == Keyword.packedUTI, let keyword = utiOperatorSuffix() {
        return Token(kind: .keyword(keyword), range: range(from: start))
      }
      if let keyword = Keyword.matching(packedLow: low, high: high, in: keywords) {
        if case .not = keyword { prefixOperators += 1 }
        return Token(kind: .keyword(keyword), range: range(from: start))
      }
    }
    if end < buffer.count, buffer[end] == UInt8(ascii: ":"), peek(1) != UInt8(ascii: "=") {
      consumeSelectorName()
    }
    return Token(kind: .identifier, range: range(from: start))
  }

  /// After a name that a `:` follows, the rest of an Objective-C selector name, as Apple spells function
  /// expressions (`sum:`, `add:to:`): `Name ":" ( Name ":" )*`. A name after a colon joins only when a colon
  /// follows it too, so the token always ends with a colon; the parser requires `(` after it. The name is
  /// contiguous in the input, so the token's bytes spell it.
  private mutating func consumeSelectorName() {
    while peek() == UInt8(ascii: ":"), peek(1) != UInt8(ascii: "=") {
      index += 1
      column += 1
      var length = 0
      while let byte = peek(length),
        length == 0 ? Lexer.isIdentifierStart(byte) : Lexer.isIdentifierContinuation(byte)
      {
        length += 1
      }
      guard length > 0, peek(length) == UInt8(ascii: ":") else { break }
      index += length
      column += length
    }
  }

  /// After `UTI`, consumes `-CONFORMS-TO` or `-EQUALS` (any case) when they follow directly, so the
  /// hyphens never lex as minus signs.
  private mutating func utiOperatorSuffix() -> Keyword? {
    // Two word compares where 16 bytes remain; byte by byte near the end of the input.
    if buffer.isConformsToSuffix(at: index) { return advancing(by: 12, .utiConformsTo) }
    if buffer.isEqualsSuffix(at: index) { return advancing(by: 7, .utiEquals) }
    guard index + 16 > buffer.count else { return nil }
    return suffix("-CONFORMS-TO", .utiConformsTo) ?? suffix("-EQUALS", .utiEquals)
  }

  /// Consumes `count` bytes of ASCII without line breaks and returns `keyword`.
  private mutating func advancing(by count: Int, _ keyword: Keyword) -> Keyword {
    index += count
    column += count
    return keyword
  }

  /// Consumes `spelling` and returns `keyword` when the input continues with it (any case) and then
  /// ends the word.
  private mutating func suffix(_ spelling: StaticString, _ keyword: Keyword) -> Keyword? {
    let count = spelling.utf8CodeUnitCount
    guard hasUppercased(spelling, at: index) else { return nil }
    if let after = peek(count), Lexer.isIdentifierContinuation(after) { return nil }
    // ASCII without line breaks: one column per byte.
    index += count
    column += count
    return keyword
  }

  /// Whether the bytes at `offset` spell `spelling` (upper-case ASCII) in any letter case. Compares bytes
  /// in place: no array per candidate.
  private func hasUppercased(_ spelling: StaticString, at offset: Int) -> Bool {
    let count = spelling.utf8CodeUnitCount
    guard offset + count <= buffer.count else { return false }
    for position in 0..<count
    where Keyword.asciiUppercased(buffer[offset + position]) != spelling.utf8Start[position] {
      return false
    }
    return true
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
    // The sigil is one ASCII byte.
    index += 1
    column += 1
    _ = scanName()
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
    let following: UInt8? = offset + 1 < buffer.count ? buffer[offset + 1] : nil
    func two(_ second: Unicode.Scalar, _ result: Punctuation) -> Punctuation? {
      following == UInt8(ascii: second) ? result : nil
    }
    // Bytes, not Characters: comparing Characters costs a grapheme comparison per case.
    switch byte {
    case UInt8(ascii: "("): return .openParenthesis
    case UInt8(ascii: ")"): return .closeParenthesis
    case UInt8(ascii: "{"): return .openBrace
    case UInt8(ascii: "}"): return .closeBrace
    case UInt8(ascii: "["): return .openBracket
    case UInt8(ascii: "]"): return .closeBracket
    case UInt8(ascii: ","): return .comma
    case UInt8(ascii: "."): return .dot
    case UInt8(ascii: ":"): return two("=", .assign)
    case UInt8(ascii: "="):
      return two("=", .equal) ?? two("<", .equalLess) ?? two(">", .equalGreater) ?? .singleEqual
    case UInt8(ascii: "!"): return two("=", .notEqual) ?? .bang
    case UInt8(ascii: "<"): return two("=", .lessEqual) ?? two(">", .lessGreater) ?? .less
    case UInt8(ascii: ">"): return two("=", .greaterEqual) ?? .greater
    case UInt8(ascii: "&"): return two("&", .ampersands)
    case UInt8(ascii: "|"): return two("|", .bars)
    case UInt8(ascii: "+"): return .plus
    case UInt8(ascii: "-"): return .minus
    case UInt8(ascii: "*"): return two("*", .doubleStar) ?? .star
    case UInt8(ascii: "/"): return .slash
    default: return nil
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
    // Punctuation is one or two ASCII bytes, never a line break.
    let width = symbol.width
    index += width
    column += width
    return Token(kind: .punctuation(symbol), range: range(from: start))
  }
}
