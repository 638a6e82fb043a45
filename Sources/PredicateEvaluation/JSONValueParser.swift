import PredicateSyntax

/// Malformed JSON, with the position of the first offending character.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What is wrong, in a phrase that reads after "error: ".
  public var message: String
  /// Where it is wrong: 1-based line and column (Unicode scalars), 0-based UTF-8 offset.
  public var position: SourcePosition

  public init(message: String, position: SourcePosition) {
    self.message = message
    self.position = position
  }

  public var description: String { "\(position): \(message)" }
}

extension PredicateValue {
  /// Reads a JSON text (RFC 8259; any value at top level).
  ///
  /// A parser of our own rather than `JSONSerialization`, so `true` stays a boolean and `1` an integer on
  /// every platform, integers keep 64-bit precision, and errors carry a line and column.
  public init(json text: String) throws(JSONParseError) {
    var parser = JSONValueParser(text)
    self = try parser.parseDocument()
  }
}

/// A recursive-descent JSON reader over UTF-8 bytes that tracks line and column.
struct JSONValueParser {
  private let bytes: [UInt8]
  private var index = 0
  private var line = 1
  private var lineStart = 0
  private var depth = 0
  /// Deep nesting is refused rather than risking the stack.
  private static let maximumDepth = 512

  init(_ text: String) {
    bytes = Array(text.utf8)
  }

  mutating func parseDocument() throws(JSONParseError) -> PredicateValue {
    skipWhitespace()
    let value = try parseValue()
    skipWhitespace()
    guard index == bytes.count else { throw error("unexpected text after the JSON value") }
    return value
  }

  private var position: SourcePosition {
    let column = String(decoding: bytes[lineStart..<index], as: UTF8.self).unicodeScalars.count + 1
    return SourcePosition(line: line, column: column, offset: index)
  }

  private func error(_ message: String) -> JSONParseError {
    JSONParseError(message: message, position: position)
  }

  private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

  private mutating func skipWhitespace() {
    while let byte = current {
      switch byte {
      case 0x20, 0x09, 0x0D: index += 1
      case 0x0A:
        index += 1
        line += 1
        lineStart = index
      default: return
      }
    }
  }

  private mutating func parseValue() throws(JSONParseError) -> PredicateValue {
    guard let byte = current else { throw error("expected a JSON value, found the end of the input") }
    switch byte {
    case UInt8(ascii: "{"): return try parseObject()
    case UInt8(ascii: "["): return try parseArray()
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"): return try parseWord("true", .bool(true))
    case UInt8(ascii: "f"): return try parseWord("false", .bool(false))
    case UInt8(ascii: "n"): return try parseWord("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
    default:
      throw error("expected a JSON value, found '\(String(decoding: [byte], as: UTF8.self))'")
    }
  }

  private mutating func parseWord(_ word: String, _ value: PredicateValue) throws(JSONParseError)
    -> PredicateValue
  {
    for expected in word.utf8 {
      guard current == expected else { throw error("expected '\(word)'") }
      index += 1
    }
    return value
  }

  private mutating func enterContainer() throws(JSONParseError) {
    depth += 1
    if depth > Self.maximumDepth { throw error("JSON nested deeper than \(Self.maximumDepth) levels") }
  }

  private mutating func parseObject() throws(JSONParseError) -> PredicateValue {
    try enterContainer()
    defer { depth -= 1 }
    index += 1
    var members: [String: PredicateValue] = [:]
    skipWhitespace()
    if current == UInt8(ascii: "}") {
      index += 1
      return .dictionary(members)
    }
    while true {
      skipWhitespace()
      guard current == UInt8(ascii: "\"") else { throw error("expected a string key in the JSON object") }
      let key = try parseString()
      skipWhitespace()
      guard current == UInt8(ascii: ":") else { throw error("expected ':' after the key") }
      index += 1
      skipWhitespace()
      members[key] = try parseValue()
      skipWhitespace()
      switch current {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "}"):
        index += 1
        return .dictionary(members)
      default: throw error("expected ',' or '}' in the JSON object")
      }
    }
  }

  private mutating func parseArray() throws(JSONParseError) -> PredicateValue {
    try enterContainer()
    defer { depth -= 1 }
    index += 1
    var elements: [PredicateValue] = []
    skipWhitespace()
    if current == UInt8(ascii: "]") {
      index += 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      elements.append(try parseValue())
      skipWhitespace()
      switch current {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "]"):
        index += 1
        return .array(elements)
      default: throw error("expected ',' or ']' in the JSON array")
      }
    }
  }

  private mutating func parseString() throws(JSONParseError) -> String {
    index += 1
    var scalars = String.UnicodeScalarView()
    var runStart = index
    func flushRun(_ parser: JSONValueParser, upTo end: Int) {
      scalars.append(contentsOf: String(decoding: parser.bytes[runStart..<end], as: UTF8.self).unicodeScalars)
    }
    while true {
      guard let byte = current else { throw error("unterminated string") }
      switch byte {
      case UInt8(ascii: "\""):
        flushRun(self, upTo: index)
        index += 1
        return String(scalars)
      case UInt8(ascii: "\\"):
        flushRun(self, upTo: index)
        index += 1
        scalars.append(try parseEscape())
        runStart = index
      case 0x00..<0x20:
        throw error("control character in a string; write it as an escape such as \\n")
      default:
        index += 1
      }
    }
  }

  private mutating func parseEscape() throws(JSONParseError) -> Unicode.Scalar {
    guard let byte = current else { throw error("unterminated escape") }
    index += 1
    switch byte {
    case UInt8(ascii: "\""): return "\""
    case UInt8(ascii: "\\"): return "\\"
    case UInt8(ascii: "/"): return "/"
    case UInt8(ascii: "b"): return "\u{08}"
    case UInt8(ascii: "f"): return "\u{0C}"
    case UInt8(ascii: "n"): return "\n"
    case UInt8(ascii: "r"): return "\r"
    case UInt8(ascii: "t"): return "\t"
    case UInt8(ascii: "u"):
      let first = try parseHexQuad()
      if (0xD800..<0xDC00).contains(first) {
        guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u")
        else { throw error("unpaired UTF-16 surrogate in \\u escape") }
        index += 2
        let second = try parseHexQuad()
        guard (0xDC00..<0xE000).contains(second) else {
          throw error("unpaired UTF-16 surrogate in \\u escape")
        }
        let combined = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
        guard let scalar = Unicode.Scalar(combined) else { throw error("invalid \\u escape") }
        return scalar
      }
      guard let scalar = Unicode.Scalar(first) else { throw error("unpaired UTF-16 surrogate in \\u escape") }
      return scalar
    default:
      index -= 1
      throw error("invalid escape '\\\(String(decoding: [byte], as: UTF8.self))'")
    }
  }

  private mutating func parseHexQuad() throws(JSONParseError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let byte = current, let digit = Self.hexDigit(byte) else {
        throw error("expected four hexadecimal digits after \\u")
      }
      value = value * 16 + digit
      index += 1
    }
    return value
  }

  private static func hexDigit(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }

  private mutating func parseNumber() throws(JSONParseError) -> PredicateValue {
    let start = index
    var isInteger = true
    if current == UInt8(ascii: "-") { index += 1 }
    guard let first = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
      throw error("expected a digit")
    }
    if first == UInt8(ascii: "0") {
      index += 1
    } else {
      skipDigits()
    }
    if current == UInt8(ascii: ".") {
      isInteger = false
      index += 1
      guard skipDigits() else { throw error("expected a digit after the decimal point") }
    }
    if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
      isInteger = false
      index += 1
      if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
      guard skipDigits() else { throw error("expected a digit in the exponent") }
    }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    if isInteger, let integer = Int(text) { return .integer(integer) }
    guard let double = Double(text) else { throw error("number out of range") }
    return .double(double)
  }

  @discardableResult
  private mutating func skipDigits() -> Bool {
    let start = index
    while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
    return index > start
  }
}
