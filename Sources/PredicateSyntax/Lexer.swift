/// Turns UTF-8 predicate text into tokens. Iterative (no recursion), so input size never threatens the stack.
///
/// The input must already be valid UTF-8 (`UTF8Validation` checks byte input first).
struct Lexer {
  private let bytes: [UInt8]
  private let lenient: Bool
  private var index = 0
  private var line = 1
  private var column = 1
  private(set) var warnings: [PredicateDiagnostic] = []
  /// Typographic quotes inside string literals that closed normally. When reading fails later, the first of
  /// these is the likely cause (`"a” || b == "c"` swallows ` || b == ` into the first string).
  private var suspiciousQuotes: [(quote: TypographicQuote, range: SourceRange)] = []

  init(bytes: [UInt8], lenient: Bool) {
    self.bytes = bytes
    self.lenient = lenient
    // A UTF-8 byte-order mark is not part of the predicate.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
  }

  /// All tokens, ending with `.endOfInput`.
  mutating func tokenize() throws(PredicateSyntaxError) -> [Token] {
    var tokens: [Token] = []
    tokens.reserveCapacity(bytes.count / 4 + 1)
    while true {
      let token: Token
      do throws(PredicateSyntaxError) {
        token = try next()
      } catch {
        throw likelyCause(of: error)
      }
      // Tested before the append, which then moves the token rather than copying it.
      if token.isEndOfInput {
        tokens.append(token)
        return tokens
      }
      tokens.append(token)
    }
  }

  // MARK: - Positions

  private var position: SourcePosition { SourcePosition(line: line, column: column, offset: index) }

  private func peek(_ ahead: Int = 0) -> UInt8? {
    let at = index + ahead
    return at < bytes.count ? bytes[at] : nil
  }

  /// Consumes one byte, keeping line and column (in Unicode scalars) up to date.
  private mutating func advance() {
    let byte = bytes[index]
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

  private mutating func advance(by count: Int) {
    for _ in 0..<count { advance() }
  }

  private func range(from start: SourcePosition) -> SourceRange { SourceRange(start: start, end: position) }

  /// The Unicode scalar starting at `offset` and its length in bytes.
  private func scalar(at offset: Int) -> (Unicode.Scalar, Int) {
    var iterator = bytes[offset...].makeIterator()
    var decoder = UTF8()
    if case .scalarValue(let value) = decoder.decode(&iterator) {
      return (value, UTF8.width(value))
    }
    return (Unicode.Scalar(0xFFFD) ?? "?", 1)
  }

  // MARK: - Tokens

  private mutating func next() throws(PredicateSyntaxError) -> Token {
    skipWhitespace()
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
      return identifierOrKeyword()
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

  private mutating func skipWhitespace() {
    while index < bytes.count {
      // Spaces and tabs are one column each and never end a line: a run of them is skipped in one loop
      // over the buffer (rules are indented, so runs are long).
      let begin = index
      let end = bytes.withUnsafeBufferPointer { buffer in
        var end = begin
        while end < buffer.count, buffer[end] == 0x20 || buffer[end] == 0x09 { end += 1 }
        return end
      }
      column += end - begin
      index = end
      guard index < bytes.count, (0x0A...0x0D).contains(bytes[index]) else { return }
      advance()
    }
  }

  static func isIdentifierStart(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
      || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
      || byte == UInt8(ascii: "_")
  }

  static func isIdentifierContinuation(_ byte: UInt8) -> Bool {
    isIdentifierStart(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }

  /// Consumes a run of identifier characters and returns their bytes. They are ASCII and never line breaks,
  /// so the column moves by their count.
  private mutating func nameBytes() -> ArraySlice<UInt8> {
    let begin = index
    index = bytes.withUnsafeBufferPointer { buffer in
      var end = begin
      while end < buffer.count, Lexer.isIdentifierContinuation(buffer[end]) { end += 1 }
      return end
    }
    column += index - begin
    return bytes[begin..<index]
  }

  private mutating func name() -> String {
    String(decoding: nameBytes(), as: UTF8.self)
  }

  private mutating func identifierOrKeyword() -> Token {
    let start = position
    let word = nameBytes()
    // Keywords are looked up from the bytes: only identifiers need a string.
    if word.count == 3, hasUppercased("UTI", at: word.startIndex), let keyword = utiOperatorSuffix() {
      return Token(kind: .keyword(keyword), range: range(from: start))
    }
    if let keyword = Keyword.matching(utf8: word) {
      return Token(kind: .keyword(keyword), range: range(from: start))
    }
    if peek() == UInt8(ascii: ":"), peek(1) != UInt8(ascii: "=") {
      return Token(kind: .identifier(selectorName(startingWith: word)), range: range(from: start))
    }
    return Token(kind: .identifier(String(decoding: word, as: UTF8.self)), range: range(from: start))
  }

  /// After a name that a `:` follows, the rest of an Objective-C selector name, as Apple spells function
  /// expressions (`sum:`, `add:to:`): `Name ":" ( Name ":" )*`. A name after a colon joins only when a colon
  /// follows it too, so the token always ends with a colon; the parser requires `(` after it.
  private mutating func selectorName(startingWith first: ArraySlice<UInt8>) -> String {
    var selector = Array(first)
    while peek() == UInt8(ascii: ":"), peek(1) != UInt8(ascii: "=") {
      selector.append(UInt8(ascii: ":"))
      index += 1
      column += 1
      var length = 0
      while let byte = peek(length),
        length == 0 ? Lexer.isIdentifierStart(byte) : Lexer.isIdentifierContinuation(byte)
      {
        length += 1
      }
      guard length > 0, peek(length) == UInt8(ascii: ":") else { break }
      selector.append(contentsOf: bytes[index..<index + length])
      index += length
      column += length
    }
    return String(decoding: selector, as: UTF8.self)
  }

  /// After `UTI`, consumes `-CONFORMS-TO` or `-EQUALS` (any case) when they follow directly, so the
  /// hyphens never lex as minus signs.
  private mutating func utiOperatorSuffix() -> Keyword? {
    if let keyword = suffix("-CONFORMS-TO", .utiConformsTo) ?? suffix("-EQUALS", .utiEquals) {
      return keyword
    }
    return nil
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
    guard offset + count <= bytes.count else { return false }
    return bytes.withUnsafeBufferPointer { buffer in
      for position in 0..<count
      where Keyword.asciiUppercased(buffer[offset + position]) != spelling.utf8Start[position] {
        return false
      }
      return true
    }
  }

  private static func uppercased(_ byte: UInt8) -> UInt8 {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) ? byte - 32 : byte
  }

  private mutating func prefixedName(sigil: UInt8) throws(PredicateSyntaxError) -> Token {
    let start = position
    advance()
    guard let byte = peek(), Lexer.isIdentifierStart(byte) else {
      let what =
        switch sigil {
        case UInt8(ascii: "$"): "a variable name after '$'"
        case UInt8(ascii: "@"): "a collection operator name after '@'"
        default: "an identifier after '#'"
        }
      throw PredicateSyntaxError(.unexpectedCharacter, "expected \(what)", at: range(from: start))
    }
    let text = name()
    let kind: Token.Kind =
      switch sigil {
      case UInt8(ascii: "$"): .variable(text)
      case UInt8(ascii: "@"): .collectionOperator(text)
      default: .escapedIdentifier(text)
      }
    return Token(kind: kind, range: range(from: start))
  }

  private mutating func punctuation() throws(PredicateSyntaxError) -> Token {
    let start = position
    let byte = peek() ?? 0
    let following = peek(1)
    func two(_ second: Unicode.Scalar, _ result: Punctuation) -> Punctuation? {
      following == UInt8(ascii: second) ? result : nil
    }
    // Bytes, not Characters: comparing Characters costs a grapheme comparison per case.
    let symbol: Punctuation?
    switch byte {
    case UInt8(ascii: "("): symbol = .openParenthesis
    case UInt8(ascii: ")"): symbol = .closeParenthesis
    case UInt8(ascii: "{"): symbol = .openBrace
    case UInt8(ascii: "}"): symbol = .closeBrace
    case UInt8(ascii: "["): symbol = .openBracket
    case UInt8(ascii: "]"): symbol = .closeBracket
    case UInt8(ascii: ","): symbol = .comma
    case UInt8(ascii: "."): symbol = .dot
    case UInt8(ascii: ":"): symbol = two("=", .assign)
    case UInt8(ascii: "="):
      symbol = two("=", .equal) ?? two("<", .equalLess) ?? two(">", .equalGreater) ?? .singleEqual
    case UInt8(ascii: "!"): symbol = two("=", .notEqual) ?? .bang
    case UInt8(ascii: "<"): symbol = two("=", .lessEqual) ?? two(">", .lessGreater) ?? .less
    case UInt8(ascii: ">"): symbol = two("=", .greaterEqual) ?? .greater
    case UInt8(ascii: "&"): symbol = two("&", .ampersands)
    case UInt8(ascii: "|"): symbol = two("|", .bars)
    case UInt8(ascii: "+"): symbol = .plus
    case UInt8(ascii: "-"): symbol = .minus
    case UInt8(ascii: "*"): symbol = two("*", .doubleStar) ?? .star
    case UInt8(ascii: "/"): symbol = .slash
    default: symbol = nil
    }
    guard let symbol else {
      if byte == UInt8(ascii: "&"),
        let error = XMLEscapedText.error(in: bytes, at: index, start: start, warnings: warnings)
      {
        throw error
      }
      advance()
      let shown = Character(Unicode.Scalar(byte))
      let hint =
        switch shown {
        case "&": " (did you mean '&&'?)"
        case "|": " (did you mean '||'?)"
        case "?": " ('?' is only a wildcard inside LIKE patterns)"
        default: ""
        }
      let spelled =
        (0x21...0x7E).contains(byte) ? "'\(shown)'" : "U+\(Lexer.hex(UInt32(byte), digits: 4))"
      throw PredicateSyntaxError(
        .unexpectedCharacter, "unexpected character \(spelled)\(hint)",
        at: range(from: start))
    }
    // Punctuation is one or two ASCII bytes, never a line break.
    let width = symbol.width
    index += width
    column += width
    return Token(kind: .punctuation(symbol), range: range(from: start))
  }

  // MARK: - Numbers

  private mutating func number() throws(PredicateSyntaxError) -> Token {
    let start = position
    if peek() == UInt8(ascii: "0"), let marker = peek(1).map(Lexer.uppercased),
      let radix = marker == UInt8(ascii: "X")
        ? 16 : marker == UInt8(ascii: "O") ? 8 : marker == UInt8(ascii: "B") ? 2 : nil
    {
      advance(by: 2)
      return try radixInteger(radix: radix, start: start)
    }
    let begin = index
    var isDecimal = false
    while let byte = peek(), Lexer.isDigit(byte) { advance() }
    if peek() == UInt8(ascii: "."), let after = peek(1), Lexer.isDigit(after) {
      isDecimal = true
      advance()
      while let byte = peek(), Lexer.isDigit(byte) { advance() }
    }
    if let e = peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
      var digitsAt = 1
      if let sign = peek(1), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { digitsAt = 2 }
      if let digit = peek(digitsAt), Lexer.isDigit(digit) {
        isDecimal = true
        advance(by: digitsAt)
        while let byte = peek(), Lexer.isDigit(byte) { advance() }
      }
    }
    try rejectIdentifierCharacterAfterNumber(start: start)
    let text = String(decoding: bytes[begin..<index], as: UTF8.self)
    if !isDecimal, let value = UInt64(text) {
      return Token(kind: .integer(value), range: range(from: start))
    }
    guard let value = Double(text) else {
      throw PredicateSyntaxError(.invalidNumber, "invalid number '\(text)'", at: range(from: start))
    }
    return Token(kind: .double(value), range: range(from: start))
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }

  private static func digitValue(_ byte: UInt8) -> Int? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
    default: nil
    }
  }

  private mutating func radixInteger(radix: Int, start: SourcePosition) throws(PredicateSyntaxError) -> Token
  {
    var exact: UInt64? = 0
    var approximate = 0.0
    var digits = 0
    while let byte = peek(), let digit = Lexer.digitValue(byte), digit < radix {
      advance()
      digits += 1
      approximate = approximate * Double(radix) + Double(digit)
      if let value = exact {
        let (shifted, overflow1) = value.multipliedReportingOverflow(by: UInt64(radix))
        let (sum, overflow2) = shifted.addingReportingOverflow(UInt64(digit))
        exact = overflow1 || overflow2 ? nil : sum
      }
    }
    if digits == 0 {
      if let byte = peek(), Lexer.isIdentifierContinuation(byte) { advance() }
      throw PredicateSyntaxError(
        .invalidNumber,
        "expected base-\(radix) digits after '\(radix == 16 ? "0x" : radix == 8 ? "0o" : "0b")'",
        at: range(from: start))
    }
    try rejectIdentifierCharacterAfterNumber(start: start)
    if let exact { return Token(kind: .integer(exact), range: range(from: start)) }
    return Token(kind: .double(approximate), range: range(from: start))
  }

  private mutating func rejectIdentifierCharacterAfterNumber(start: SourcePosition)
    throws(PredicateSyntaxError)
  {
    guard let byte = peek(), Lexer.isIdentifierContinuation(byte) else { return }
    while let byte = peek(), Lexer.isIdentifierContinuation(byte) { advance() }
    let text = String(decoding: bytes[start.offset..<index], as: UTF8.self)
    throw PredicateSyntaxError(.invalidNumber, "invalid number '\(text)'", at: range(from: start))
  }

  // MARK: - Format specifiers

  private mutating func formatSpecifier() throws(PredicateSyntaxError) -> Token {
    let start = position
    advance()
    if peek() == UInt8(ascii: "%") {
      advance()
      throw PredicateSyntaxError(
        .unsupportedFormatSpecifier, "'%%' (a literal percent sign) cannot stand outside a string",
        at: range(from: start))
    }
    let begin = index
    // Length modifiers, then one conversion character.
    while let byte = peek(), "hlqLzjt".utf8.contains(byte) { advance() }
    guard let conversion = peek(), "@KdiuoxXfFeEgGaAsScC".utf8.contains(conversion) else {
      if peek() != nil { advance(by: scalar(at: index).1) }
      throw PredicateSyntaxError(
        .unsupportedFormatSpecifier,
        "unsupported format specifier '\(String(decoding: bytes[start.offset..<index], as: UTF8.self))'",
        at: range(from: start))
    }
    advance()
    let text = String(decoding: bytes[begin..<index], as: UTF8.self)
    return Token(kind: .formatSpecifier(text), range: range(from: start))
  }

  // MARK: - Strings

  /// Opening and closing typographic quotes, and the ASCII delimiter each was probably meant to be.
  private enum TypographicQuote {
    case leftDouble, rightDouble, leftSingle, rightSingle

    init?(_ scalar: Unicode.Scalar) {
      switch scalar.value {
      case 0x201C: self = .leftDouble
      case 0x201D: self = .rightDouble
      case 0x2018: self = .leftSingle
      case 0x2019: self = .rightSingle
      default: return nil
      }
    }

    var ascii: UInt8 {
      switch self {
      case .leftDouble, .rightDouble: UInt8(ascii: "\"")
      case .leftSingle, .rightSingle: UInt8(ascii: "'")
      }
    }

    var character: String {
      switch self {
      case .leftDouble: "\u{201C}"
      case .rightDouble: "\u{201D}"
      case .leftSingle: "\u{2018}"
      case .rightSingle: "\u{2019}"
      }
    }

    var codePoint: String {
      switch self {
      case .leftDouble: "U+201C"
      case .rightDouble: "U+201D"
      case .leftSingle: "U+2018"
      case .rightSingle: "U+2019"
      }
    }
  }

  private func typographicDiagnostic(
    _ quote: TypographicQuote, at range: SourceRange, severity: DiagnosticSeverity
  )
    -> PredicateDiagnostic
  {
    let replacement = String(decoding: [quote.ascii], as: UTF8.self)
    return PredicateDiagnostic(
      severity: severity,
      message:
        "typographic quote \(quote.character) (\(quote.codePoint)) used as a string delimiter; replace with \(replacement)",
      range: range,
      fix: PredicateFix(title: "replace with \(replacement)", range: range, replacement: replacement))
  }

  private func typographicError(_ quote: TypographicQuote, at range: SourceRange) -> PredicateSyntaxError {
    let diagnostic = typographicDiagnostic(quote, at: range, severity: .error)
    return PredicateSyntaxError(
      .typographicQuote, diagnostic.message, at: range, fix: diagnostic.fix, warnings: warnings)
  }

  /// A string opened by a typographic quote: an error, or in lenient mode a string with a warning.
  private mutating func typographicString(opening: TypographicQuote, width: Int) throws(PredicateSyntaxError)
    -> Token
  {
    let start = position
    advance(by: width)
    let quoteRange = range(from: start)
    guard lenient else { throw typographicError(opening, at: quoteRange) }
    warnings.append(typographicDiagnostic(opening, at: quoteRange, severity: .warning))
    var content: [UInt8] = []
    while index < bytes.count {
      let (scalar, scalarWidth) = scalar(at: index)
      if let closing = TypographicQuote(scalar), closing.ascii == opening.ascii {
        let closeStart = position
        advance(by: scalarWidth)
        warnings.append(typographicDiagnostic(closing, at: range(from: closeStart), severity: .warning))
        return Token(kind: .string(String(decoding: content, as: UTF8.self)), range: range(from: start))
      }
      if bytes[index] == opening.ascii {
        advance()
        return Token(kind: .string(String(decoding: content, as: UTF8.self)), range: range(from: start))
      }
      content.append(contentsOf: bytes[index..<index + scalarWidth])
      advance(by: scalarWidth)
    }
    throw unterminatedString(start: start)
  }

  private func unterminatedString(start: SourcePosition) -> PredicateSyntaxError {
    // Point at the opening quote's line and offer to close the string at the end of that line.
    var lineEnd = start.offset
    var column = start.column
    while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n"), bytes[lineEnd] != UInt8(ascii: "\r") {
      if bytes[lineEnd] & 0xC0 != 0x80 { column += 1 }
      lineEnd += 1
    }
    var contentEnd = lineEnd
    var contentColumn = column
    while contentEnd > start.offset + 1, bytes[contentEnd - 1] == 0x20 || bytes[contentEnd - 1] == 0x09 {
      contentEnd -= 1
      contentColumn -= 1
    }
    let endOfLine = SourcePosition(line: start.line, column: column, offset: lineEnd)
    let insertAt = SourcePosition(line: start.line, column: contentColumn, offset: contentEnd)
    let delimiter = String(decoding: [bytes[start.offset]], as: UTF8.self)
    return PredicateSyntaxError(
      .unterminatedString, "unterminated string literal",
      at: SourceRange(start: start, end: endOfLine),
      fix: PredicateFix(
        title: "insert \(delimiter)", range: SourceRange(start: insertAt, end: insertAt),
        replacement: delimiter),
      warnings: warnings)
  }

  private mutating func string(delimiter: UInt8) throws(PredicateSyntaxError) -> Token {
    let start = position
    // Most literals are one line of ASCII without escapes: take their bytes as they are.
    var end = index + 1
    while end < bytes.count, bytes[end] != delimiter, bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20,
      bytes[end] < 0x80
    {
      end += 1
    }
    if end < bytes.count, bytes[end] == delimiter {
      let text = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
      column += end + 1 - index
      index = end + 1
      return Token(kind: .string(text), range: range(from: start))
    }
    advance()
    var content: [UInt8] = []
    // A typographic quote seen on the current line of the string: if the string then runs past the end of
    // that line, the author almost certainly meant that quote to close it.
    var suspect: (quote: TypographicQuote, range: SourceRange, contentLength: Int, resume: Int)?
    while let byte = peek() {
      if byte == delimiter {
        advance()
        // Swallowed syntax such as ` || b == ` ends in a space before the next literal's opening quote;
        // content such as `"say “hi”"` does not.
        if let found = suspect, let last = content.last, last == 0x20 || last == 0x09 || last == 0x0A {
          suspiciousQuotes.append((found.quote, found.range))
        }
        return Token(kind: .string(String(decoding: content, as: UTF8.self)), range: range(from: start))
      }
      if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r"), let found = suspect {
        return try closeAtTypographicQuote(found, start: start, content: content)
      }
      if byte == UInt8(ascii: "\\") {
        try escape(into: &content)
        continue
      }
      let (scalar, width) = scalar(at: index)
      if suspect == nil, let quote = TypographicQuote(scalar), quote.ascii == delimiter {
        let quoteStart = position
        advance(by: width)
        suspect = (quote, range(from: quoteStart), content.count, index)
        content.append(contentsOf: bytes[quoteStart.offset..<index])
        continue
      }
      content.append(contentsOf: bytes[index..<index + width])
      advance(by: width)
    }
    if let found = suspect { return try closeAtTypographicQuote(found, start: start, content: content) }
    if let earlier = suspiciousQuotes.first { throw typographicError(earlier.quote, at: earlier.range) }
    throw unterminatedString(start: start)
  }

  /// The typographic-quote error to report instead of `error`, when a string literal before `error`'s
  /// position contains a typographic quote that probably was meant to close it.
  func likelyCause(of error: PredicateSyntaxError) -> PredicateSyntaxError {
    let structural: Set<PredicateSyntaxError.Kind> = [
      .unexpectedToken, .trailingInput, .missingClosingDelimiter, .unmatchedClosingDelimiter,
      .unterminatedString,
      .unexpectedCharacter,
    ]
    guard structural.contains(error.kind), let first = suspiciousQuotes.first,
      first.range.start.offset < error.diagnostic.range.start.offset
    else { return error }
    return typographicError(first.quote, at: first.range)
  }

  private mutating func closeAtTypographicQuote(
    _ found: (quote: TypographicQuote, range: SourceRange, contentLength: Int, resume: Int),
    start: SourcePosition, content: [UInt8]
  ) throws(PredicateSyntaxError) -> Token {
    guard lenient else { throw typographicError(found.quote, at: found.range) }
    warnings.append(typographicDiagnostic(found.quote, at: found.range, severity: .warning))
    index = found.resume
    line = found.range.end.line
    column = found.range.end.column
    let text = String(decoding: content[..<found.contentLength], as: UTF8.self)
    return Token(kind: .string(text), range: SourceRange(start: start, end: found.range.end))
  }

  private mutating func escape(into content: inout [UInt8]) throws(PredicateSyntaxError) {
    let start = position
    advance()
    guard let byte = peek() else { throw unterminatedString(start: start) }
    func invalid(_ message: String) -> PredicateSyntaxError {
      PredicateSyntaxError(.invalidEscape, message, at: range(from: start))
    }
    switch byte {
    case UInt8(ascii: "n"): content.append(0x0A)
    case UInt8(ascii: "t"): content.append(0x09)
    case UInt8(ascii: "r"): content.append(0x0D)
    case UInt8(ascii: "a"): content.append(0x07)
    case UInt8(ascii: "b"): content.append(0x08)
    case UInt8(ascii: "f"): content.append(0x0C)
    case UInt8(ascii: "v"): content.append(0x0B)
    case UInt8(ascii: "0")...UInt8(ascii: "7"):
      var value: UInt32 = 0
      for _ in 0..<3 {
        guard let digit = peek(), (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(digit) else {
          throw invalid("an octal escape needs exactly three digits, as in \\101")
        }
        value = value * 8 + UInt32(digit - UInt8(ascii: "0"))
        advance()
      }
      try appendScalar(value, to: &content, start: start)
      return
    case UInt8(ascii: "x"), UInt8(ascii: "X"):
      advance()
      let value = try hexDigits(2, start: start, form: "\\x")
      try appendScalar(value, to: &content, start: start)
      return
    case UInt8(ascii: "u"), UInt8(ascii: "U"):
      advance()
      var value = try hexDigits(4, start: start, form: "\\u")
      if (0xD800...0xDBFF).contains(value), peek() == UInt8(ascii: "\\"),
        let marker = peek(1), marker == UInt8(ascii: "u") || marker == UInt8(ascii: "U")
      {
        advance(by: 2)
        let low = try hexDigits(4, start: start, form: "\\u")
        guard (0xDC00...0xDFFF).contains(low) else {
          throw invalid("a \\u high surrogate must be followed by a low surrogate")
        }
        value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
      }
      try appendScalar(value, to: &content, start: start)
      return
    default:
      // `\"`, `\'`, `\\` and any other escaped character stand for themselves.
      let width = scalar(at: index).1
      content.append(contentsOf: bytes[index..<index + width])
      advance(by: width)
      return
    }
    advance()
  }

  private mutating func hexDigits(_ count: Int, start: SourcePosition, form: String)
    throws(PredicateSyntaxError)
    -> UInt32
  {
    var value: UInt32 = 0
    for _ in 0..<count {
      guard let byte = peek(), let digit = Lexer.digitValue(byte) else {
        throw PredicateSyntaxError(
          .invalidEscape, "a \(form) escape needs exactly \(count) hexadecimal digits", at: range(from: start)
        )
      }
      value = value * 16 + UInt32(digit)
      advance()
    }
    return value
  }

  private func appendScalar(_ value: UInt32, to content: inout [UInt8], start: SourcePosition)
    throws(PredicateSyntaxError)
  {
    guard let scalar = Unicode.Scalar(value) else {
      throw PredicateSyntaxError(
        .invalidEscape, "escape \\u\(Lexer.hex(value, digits: 4)) is not a Unicode scalar value",
        at: range(from: start))
    }
    content.append(contentsOf: Array(String(Character(scalar)).utf8))
  }

  static func hex(_ value: UInt32, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: Swift.max(0, digits - text.count)) + text
  }
}
