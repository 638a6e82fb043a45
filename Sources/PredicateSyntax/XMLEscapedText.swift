/// Predicate text copied out of a plist's XML with its entities still escaped (`&gt;`, `&quot;` …), which
/// no predicate reader accepts. The lexer asks here when it meets an `&` that is not `&&`.
enum XMLEscapedText {
  /// The entities an XML plist writer produces, and the characters they stand for.
  private static let namedEntities: [(name: [UInt8], character: UInt8)] = [
    (Array("lt;".utf8), UInt8(ascii: "<")), (Array("gt;".utf8), UInt8(ascii: ">")),
    (Array("amp;".utf8), UInt8(ascii: "&")), (Array("quot;".utf8), UInt8(ascii: "\"")),
    (Array("apos;".utf8), UInt8(ascii: "'")),
  ]

  /// The error for the entity at `offset` (an `&`), whose fix replaces the text from there to the end of the
  /// last entity with its decoded form, or `nil` when no entity starts there.
  static func error(in bytes: [UInt8], at offset: Int, start: SourcePosition, warnings: [PredicateDiagnostic])
    -> PredicateSyntaxError?
  {
    guard let (length, _) = entity(in: bytes, at: offset) else { return nil }
    let entityText = String(decoding: bytes[offset..<offset + length], as: UTF8.self)
    let range = SourceRange(
      start: start,
      end: SourcePosition(line: start.line, column: start.column + length, offset: offset + length))
    var end = offset + length
    var cursor = end
    while cursor < bytes.count {
      if let (found, _) = entity(in: bytes, at: cursor) {
        cursor += found
        end = cursor
      } else {
        cursor += 1
      }
    }
    let fixRange = SourceRange(start: start, end: position(of: end, in: bytes, from: start, at: offset))
    let fix = PredicateFix(
      title: "decode the XML entities", range: fixRange,
      replacement: String(decoding: decoded(Array(bytes[offset..<end])), as: UTF8.self))
    return PredicateSyntaxError(
      .xmlEscapedText,
      "XML entity '\(entityText)' in predicate text: the rule was copied out of a plist's XML without decoding "
        + "its entities; replace &lt; &gt; &quot; &apos; &amp; with < > \" ' &",
      at: range, fix: fix, warnings: warnings)
  }

  /// The byte length of the entity at `offset` and the bytes it stands for.
  private static func entity(in bytes: [UInt8], at offset: Int) -> (Int, [UInt8])? {
    guard offset < bytes.count, bytes[offset] == UInt8(ascii: "&") else { return nil }
    let rest = bytes[(offset + 1)...]
    for (name, character) in namedEntities where rest.starts(with: name) {
      return (name.count + 1, [character])
    }
    // Numeric references, `&#62;` and `&#x3E;`.
    guard rest.first == UInt8(ascii: "#") else { return nil }
    var cursor = offset + 2
    let hexadecimal = cursor < bytes.count && (bytes[cursor] | 0x20) == UInt8(ascii: "x")
    if hexadecimal { cursor += 1 }
    var value: UInt32 = 0
    let digitsStart = cursor
    while cursor < bytes.count, cursor - digitsStart < 8, let digit = digit(bytes[cursor], hexadecimal) {
      value = value * (hexadecimal ? 16 : 10) + digit
      cursor += 1
    }
    guard cursor > digitsStart, cursor < bytes.count, bytes[cursor] == UInt8(ascii: ";"),
      let scalar = Unicode.Scalar(value)
    else { return nil }
    return (cursor + 1 - offset, Array(String(Character(scalar)).utf8))
  }

  private static func digit(_ byte: UInt8, _ hexadecimal: Bool) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f") where hexadecimal: UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F") where hexadecimal: UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }

  /// The text with every entity replaced by its character, in one pass (`&amp;lt;` becomes `&lt;`).
  static func decoded(_ bytes: [UInt8]) -> [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    var offset = 0
    while offset < bytes.count {
      if let (length, replacement) = entity(in: bytes, at: offset) {
        result.append(contentsOf: replacement)
        offset += length
      } else {
        result.append(bytes[offset])
        offset += 1
      }
    }
    return result
  }

  /// The position of byte `target`, counted on from `known` at byte `offset`; columns count Unicode scalars
  /// and LF, CRLF and a lone CR each end a line, as the lexer counts them.
  private static func position(of target: Int, in bytes: [UInt8], from known: SourcePosition, at offset: Int)
    -> SourcePosition
  {
    var line = known.line
    var column = known.column
    for index in offset..<target {
      let byte = bytes[index]
      let lineBreak =
        byte == UInt8(ascii: "\n")
        || (byte == UInt8(ascii: "\r")
          && (index + 1 == bytes.count || bytes[index + 1] != UInt8(ascii: "\n")))
      if lineBreak {
        line += 1
        column = 1
      } else if byte != UInt8(ascii: "\r"), byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    return SourcePosition(line: line, column: column, offset: target)
  }
}
