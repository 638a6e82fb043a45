/// Finds the first byte that is not valid UTF-8 and reports where it is.
enum UTF8Validation {
  static func validate(_ bytes: [UInt8]) throws(PredicateSyntaxError) {
    var index = 0
    var line = 1
    var column = 1
    while index < bytes.count {
      let byte = bytes[index]
      let width = sequenceWidth(bytes, at: index)
      guard width > 0 else {
        let start = SourcePosition(line: line, column: column, offset: index)
        let end = SourcePosition(line: line, column: column + 1, offset: index + 1)
        throw PredicateSyntaxError(
          .invalidUTF8, "invalid UTF-8: byte 0x\(Lexer.hex(UInt32(byte), digits: 2)) at offset \(index)",
          at: SourceRange(start: start, end: end))
      }
      if byte == UInt8(ascii: "\n")
        || (byte == UInt8(ascii: "\r") && bytes.dropFirst(index + 1).first != UInt8(ascii: "\n"))
      {
        line += 1
        column = 1
      } else if byte != UInt8(ascii: "\r") {
        column += 1
      }
      index += width
    }
  }

  /// The length of the well-formed UTF-8 sequence at `index`, or 0 (Unicode Table 3-7).
  private static func sequenceWidth(_ bytes: [UInt8], at index: Int) -> Int {
    let first = bytes[index]
    func continuation(_ offset: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
      index + offset < bytes.count && range.contains(bytes[index + offset])
    }
    switch first {
    case 0x00...0x7F: return 1
    case 0xC2...0xDF: return continuation(1) ? 2 : 0
    case 0xE0: return continuation(1, 0xA0...0xBF) && continuation(2) ? 3 : 0
    case 0xE1...0xEC, 0xEE...0xEF: return continuation(1) && continuation(2) ? 3 : 0
    case 0xED: return continuation(1, 0x80...0x9F) && continuation(2) ? 3 : 0
    case 0xF0: return continuation(1, 0x90...0xBF) && continuation(2) && continuation(3) ? 4 : 0
    case 0xF1...0xF3: return continuation(1) && continuation(2) && continuation(3) ? 4 : 0
    case 0xF4: return continuation(1, 0x80...0x8F) && continuation(2) && continuation(3) ? 4 : 0
    default: return 0
    }
  }
}
