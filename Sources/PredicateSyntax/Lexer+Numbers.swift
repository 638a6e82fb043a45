// The lexer's numbers (decimal, hexadecimal, octal, binary, exponents) and printf-style format specifiers.

extension Lexer {
  mutating func number() throws(PredicateSyntaxError) -> Token {
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
    if !isDecimal, let value = decimalInteger(from: begin) {
      return Token(kind: .integer(value), range: range(from: start))
    }
    let text = String(decoding: bytes[begin..<index], as: UTF8.self)
    guard let value = Double(text) else {
      throw PredicateSyntaxError(.invalidNumber, "invalid number '\(text)'", at: range(from: start))
    }
    return Token(kind: .double(value), range: range(from: start))
  }

  /// The decimal digits from `begin` up to `index` as an integer, or nil when it does not fit in 64 bits:
  /// read in place rather than through a `String`.
  private func decimalInteger(from begin: Int) -> UInt64? {
    var value: UInt64 = 0
    for offset in begin..<index {
      let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = shifted.addingReportingOverflow(UInt64(buffer[offset] &- UInt8(ascii: "0")))
      if overflow1 || overflow2 { return nil }
      value = sum
    }
    return value
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }

  static func digitValue(_ byte: UInt8) -> Int? {
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

  mutating func formatSpecifier() throws(PredicateSyntaxError) -> Token {
    let start = position
    advance()
    if peek() == UInt8(ascii: "%") {
      advance()
      throw PredicateSyntaxError(
        .unsupportedFormatSpecifier, "'%%' (a literal percent sign) cannot stand outside a string",
        at: range(from: start))
    }
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
    return Token(kind: .formatSpecifier, range: range(from: start))
  }
}
