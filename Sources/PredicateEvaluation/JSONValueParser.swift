import PredicateSyntax

/// Malformed JSON, with the position of the first offending character.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What is wrong, in a phrase that reads after "error: ".
  public var message: String
  /// Where it is wrong: 1-based line and column (Unicode scalars), 0-based UTF-8 offset.
  public var position: SourcePosition

  /// An error saying `message` about the character at `position`.
  public init(message: String, position: SourcePosition) {
    self.message = message
    self.position = position
  }

  /// `line:column: message`, the form diagnostics print.
  public var description: String { "\(position): \(message)" }
}

extension PredicateValue {
  /// Reads a JSON text (RFC 8259; any value at top level).
  ///
  /// A parser of our own rather than `JSONSerialization`, so `true` stays a boolean and `1` an integer on
  /// every platform, integers keep 64-bit precision, and errors carry a line and column.
  public init(json text: String) throws(JSONParseError) {
    try self.init(jsonUTF8: Array(text.utf8))
  }

  /// Reads a JSON text given as bytes, for example a file's: the size limit is checked first, then
  /// invalid UTF-8 is an error at the first bad byte (rather than being replaced with U+FFFD).
  public init(jsonUTF8 bytes: [UInt8]) throws(JSONParseError) {
    if bytes.count > JSONLimits.maximumBytes {
      throw JSONParseError(
        message: "the JSON text is \(bytes.count) bytes, more than the limit of \(JSONLimits.maximumBytes) "
          + "bytes (16 MiB, PredicateValue.JSONLimits.maximumBytes); pass a smaller context",
        position: SourcePosition(line: 1, column: 1, offset: 0))
    }
    var parser = JSONValueParser(bytes)
    try parser.validateUTF8()
    self = try parser.parseDocument()
  }

  /// The bounds on JSON text read by ``init(json:)`` and ``init(jsonUTF8:)``; `docs/limits.md` lists them
  /// with every other limit of RuleKit.
  public enum JSONLimits {
    /// The longest JSON text read: 16 MiB. An extension context is a few hundred bytes; the bound refuses
    /// a wrong file before it costs memory in proportion to its size.
    public static let maximumBytes = 16 << 20
    /// The deepest nesting of arrays and objects: 256 levels, as for predicates and property lists, so
    /// reading (which recurses once per level) cannot exhaust the stack.
    public static let maximumDepth = 256
  }
}

/// A recursive-descent JSON reader over UTF-8 bytes that tracks line and column.
struct JSONValueParser {
  private let bytes: [UInt8]
  private var index = 0
  private var line = 1
  private var lineStart = 0
  private var depth = 0

  init(_ text: String) {
    bytes = Array(text.utf8)
  }

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// Refuses bytes that are not UTF-8, at the first bad byte.
  mutating func validateUTF8() throws(JSONParseError) {
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    var offset = 0
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar):
        offset += UTF8.width(scalar)
      case .emptyInput:
        return
      case .error:
        // Every byte before `offset` decoded; the bad sequence starts there.
        index = offset
        var line = 1
        lineStart = 0
        for position in 0..<index where bytes[position] == 0x0A {
          line += 1
          lineStart = position + 1
        }
        self.line = line
        let byte = index < bytes.count ? bytes[index] : 0
        throw error(
          "invalid UTF-8: byte 0x\(String(byte, radix: 16, uppercase: true)) at offset \(index); save the file as UTF-8"
        )
      }
    }
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
    case UInt8(ascii: "N"), UInt8(ascii: "I"):
      throw error("NaN and Infinity are not JSON values; write null or a number")
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
    let limit = PredicateValue.JSONLimits.maximumDepth
    if depth > limit {
      throw error(
        "JSON nested deeper than the limit of \(limit) levels (PredicateValue.JSONLimits.maximumDepth); "
          + "flatten the context")
    }
  }

  private mutating func parseObject() throws(JSONParseError) -> PredicateValue {
    try enterContainer()
    defer { depth -= 1 }
    index += 1
    var members = PredicateDictionary()
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
      case UInt8(ascii: ","):
        index += 1
        try refuseTrailingComma(before: UInt8(ascii: "}"))
      case UInt8(ascii: "}"):
        index += 1
        return .dictionary(members)
      case nil: throw error("the JSON text ends inside an object; it is truncated, or a '}' is missing")
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
      case UInt8(ascii: ","):
        index += 1
        try refuseTrailingComma(before: UInt8(ascii: "]"))
      case UInt8(ascii: "]"):
        index += 1
        return .array(elements)
      case nil: throw error("the JSON text ends inside an array; it is truncated, or a ']' is missing")
      default: throw error("expected ',' or ']' in the JSON array")
      }
    }
  }

  /// JSON has no trailing commas; say so rather than "expected a value".
  private mutating func refuseTrailingComma(before closing: UInt8) throws(JSONParseError) {
    let comma = index - 1
    let (commaLine, commaLineStart) = (line, lineStart)
    skipWhitespace()
    if current == closing {
      let name = String(decoding: [closing], as: UTF8.self)
      // Point at the comma, which may be on an earlier line than the bracket.
      (index, line, lineStart) = (comma, commaLine, commaLineStart)
      throw error("trailing comma before '\(name)'; JSON allows none, remove the comma")
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
    guard let double = Double(text), double.isFinite else {
      index = start
      throw error("the number \(text) is too large for a 64-bit floating-point value; write a smaller number")
    }
    return .double(double)
  }

  @discardableResult
  private mutating func skipDigits() -> Bool {
    let start = index
    while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
    return index > start
  }
}
