// The lexer's quoted strings: escapes, and typographic quotes (an error, or a warning in lenient mode).

extension Lexer {
  /// Opening and closing typographic quotes, and the ASCII delimiter each was probably meant to be.
  enum TypographicQuote {
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
  mutating func typographicString(opening: TypographicQuote, width: Int) throws(PredicateSyntaxError)
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
        return Token(kind: decoded(content), range: range(from: start))
      }
      if bytes[index] == opening.ascii {
        advance()
        return Token(kind: decoded(content), range: range(from: start))
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

  mutating func string(delimiter: UInt8) throws(PredicateSyntaxError) -> Token {
    let start = position
    if let end = buffer.endOfPlainString(from: index) {
      // One line of ASCII.
      column += end - index
      index = end
      return Token(kind: .plainString, range: range(from: start))
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
        return Token(kind: decoded(content), range: range(from: start))
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
    return Token(
      kind: decoded(content[..<found.contentLength]), range: SourceRange(start: start, end: found.range.end))
  }

  /// A string token for `content`, the decoded bytes of a literal, kept in `decodedStrings`.
  private mutating func decoded(_ content: some Collection<UInt8>) -> Token.Kind {
    decodedStrings.append(String(decoding: content, as: UTF8.self))
    return .decodedString(decodedStrings.count - 1)
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

extension UnsafeBufferPointer<UInt8> {
  /// The end of the string literal opening at `start` when it is plain: one line of ASCII without escapes,
  /// whose value is its bytes as they are (most literals). Nil for any other literal, which
  /// `Lexer.string(delimiter:)` reads.
  @inline(__always)
  func endOfPlainString(from start: Int) -> Int? {
    let delimiter = self[start]
    var end = start + 1
    // Eight bytes at a time up to the first byte that is not plain content, then byte by byte.
    while end + 8 <= count {
      let special = Lexer.stringStops(in: word(at: end), delimiter: delimiter)
      if special != 0 {
        end += special.trailingZeroBitCount / 8
        break
      }
      end += 8
    }
    while end < count, self[end] != delimiter, self[end] != UInt8(ascii: "\\"), self[end] >= 0x20,
      self[end] < 0x80
    {
      end += 1
    }
    return end < count && self[end] == delimiter ? end + 1 : nil
  }
}
