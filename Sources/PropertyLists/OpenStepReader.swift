#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reads old-style (OpenStep) property lists, `{ key = value; }`, as CoreFoundation reads them: dictionaries
/// (every entry ends with `;`), arrays `( a, b )` with an optional trailing comma, quoted strings ("…" or
/// '…') with C escapes, octal and `\Uxxxx`, unquoted strings of letters, digits and `_$+/:.-`, hex data
/// `<0fbd 7a>`, `//` and `/* */` comments, and a top level of `key = value;` entries without braces (the
/// strings-file form). Every value is a string, array, dictionary or data: the format has no numbers.
/// Errors carry the line and column.
struct OpenStepReader {
  private let bytes: [UInt8]
  private let path: String?
  private let duplicateKeys: PropertyListDuplicateKeyPolicy
  private var offset = 0

  static func read(
    _ data: Data, path: String?, duplicateKeys: PropertyListDuplicateKeyPolicy
  ) throws(PropertyListError) -> PropertyListValue {
    var bytes = [UInt8](data)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
    guard String(validating: bytes, as: UTF8.self) != nil else {
      throw PropertyListError(
        .invalidEncoding, "the OpenStep property list is not valid UTF-8", path: path,
        hint: "save the file as UTF-8")
    }
    var reader = OpenStepReader(bytes: bytes, path: path, duplicateKeys: duplicateKeys)
    return try reader.readTop()
  }

  private init(bytes: [UInt8], path: String?, duplicateKeys: PropertyListDuplicateKeyPolicy) {
    self.bytes = bytes
    self.path = path
    self.duplicateKeys = duplicateKeys
  }

  private var position: PropertyListPosition {
    var line = 1
    var lineStart = 0
    for index in 0..<min(offset, bytes.count) where bytes[index] == UInt8(ascii: "\n") {
      line += 1
      lineStart = index + 1
    }
    let column = String(decoding: bytes[lineStart..<min(offset, bytes.count)], as: UTF8.self).count + 1
    return PropertyListPosition(line: line, column: column, offset: offset)
  }

  private func error(_ message: String, hint: String? = nil) -> PropertyListError {
    PropertyListError(
      .malformed, "OpenStep property list: \(message)", path: path, position: position,
      hint: hint ?? "an old-style plist is { key = value; } — or convert it: plutil -convert xml1 FILE")
  }

  private mutating func readTop() throws(PropertyListError) -> PropertyListValue {
    try skipBlanks()
    guard offset < bytes.count else { throw error("the file holds no value") }
    let start = offset
    let value = try readValue(depth: 0)
    try skipBlanks()
    if offset == bytes.count { return value }
    // `key = value;` at the top level: the strings-file form, a dictionary without braces.
    if case .string = value, bytes[offset] == UInt8(ascii: "=") {
      offset = start
      return .dictionary(try readEntries(until: nil, depth: 0))
    }
    throw error("unexpected '\(character(at: offset))' after the value", hint: "a file holds one value")
  }

  private func character(at index: Int) -> String {
    String(decoding: bytes[index..<min(index + 1, bytes.count)], as: UTF8.self)
  }

  private mutating func readValue(depth: Int) throws(PropertyListError) -> PropertyListValue {
    try skipBlanks()
    guard offset < bytes.count else { throw error("the file ends where a value should be") }
    switch bytes[offset] {
    case UInt8(ascii: "{"):
      guard depth < PropertyListLimits.maximumDepth else {
        throw PropertyListLimits.tooDeep(at: position, path: path)
      }
      offset += 1
      return .dictionary(try readEntries(until: UInt8(ascii: "}"), depth: depth + 1))
    case UInt8(ascii: "("):
      guard depth < PropertyListLimits.maximumDepth else {
        throw PropertyListLimits.tooDeep(at: position, path: path)
      }
      offset += 1
      return .array(try readElements(depth: depth + 1))
    case UInt8(ascii: "<"):
      return .data(try readData())
    case UInt8(ascii: "\""), UInt8(ascii: "'"):
      return .string(try readQuoted())
    default:
      guard let text = readUnquoted() else {
        throw error("unexpected '\(character(at: offset))' where a value should be")
      }
      return .string(text)
    }
  }

  /// Dictionary entries up to `terminator` (`}`), or to the end of the file when it is `nil`.
  private mutating func readEntries(until terminator: UInt8?, depth: Int) throws(PropertyListError)
    -> PropertyListDictionary
  {
    var entries: [PropertyListDictionary.Entry] = []
    var seen: [String: PropertyListPosition] = [:]
    while true {
      try skipBlanks()
      if let terminator {
        guard offset < bytes.count else { throw error("the file ends inside a dictionary; '}' is missing") }
        if bytes[offset] == terminator {
          offset += 1
          break
        }
      } else if offset == bytes.count {
        break
      }
      let keyPosition = position
      guard case .string(let key) = try readValue(depth: depth) else {
        throw error("a dictionary key must be a string")
      }
      try skipBlanks()
      guard offset < bytes.count, bytes[offset] == UInt8(ascii: "=") else {
        throw error("'=' expected after the key '\(key)'")
      }
      offset += 1
      let value = try readValue(depth: depth)
      try skipBlanks()
      guard offset < bytes.count, bytes[offset] == UInt8(ascii: ";") else {
        throw error(
          "';' expected after the value of '\(key)'", hint: "every entry ends with ';', the last too")
      }
      offset += 1
      if let first = seen[key] {
        if duplicateKeys == .error {
          throw PropertyListError(
            .duplicateKey, "the key '\(key)' appears twice in one dictionary", path: path,
            position: keyPosition, relatedPosition: first,
            hint: "remove one of them; Apple's readers keep the last")
        }
      } else {
        seen[key] = keyPosition
      }
      entries.append(.init(key: key, value: value))
    }
    return PropertyListDictionary(entries)
  }

  private mutating func readElements(depth: Int) throws(PropertyListError) -> [PropertyListValue] {
    var elements: [PropertyListValue] = []
    while true {
      try skipBlanks()
      guard offset < bytes.count else { throw error("the file ends inside an array; ')' is missing") }
      if bytes[offset] == UInt8(ascii: ")") {
        offset += 1
        return elements
      }
      elements.append(try readValue(depth: depth))
      try skipBlanks()
      guard offset < bytes.count else { throw error("the file ends inside an array; ')' is missing") }
      if bytes[offset] == UInt8(ascii: ",") {
        offset += 1
      } else if bytes[offset] != UInt8(ascii: ")") {
        throw error("',' or ')' expected in an array")
      }
    }
  }

  private mutating func readData() throws(PropertyListError) -> Data {
    offset += 1
    var data: [UInt8] = []
    var high: UInt8?
    while offset < bytes.count {
      let byte = bytes[offset]
      offset += 1
      if byte == UInt8(ascii: ">") {
        guard high == nil else { throw error("data has an odd number of hex digits") }
        return Data(data)
      }
      if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { continue }
      guard let digit = Self.hexValue(byte) else {
        offset -= 1
        throw error("'\(character(at: offset))' in data; only hex digits and spaces go between < and >")
      }
      if let pending = high {
        data.append(pending << 4 | digit)
        high = nil
      } else {
        high = digit
      }
    }
    throw error("the file ends inside data; '>' is missing")
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  private mutating func readQuoted() throws(PropertyListError) -> String {
    let quote = bytes[offset]
    offset += 1
    var text: [UInt8] = []
    while offset < bytes.count {
      let byte = bytes[offset]
      offset += 1
      if byte == quote { return String(decoding: text, as: UTF8.self) }
      guard byte == UInt8(ascii: "\\") else {
        text.append(byte)
        continue
      }
      guard offset < bytes.count else { break }
      let escaped = bytes[offset]
      offset += 1
      switch escaped {
      case UInt8(ascii: "a"): text.append(0x07)
      case UInt8(ascii: "b"): text.append(0x08)
      case UInt8(ascii: "f"): text.append(0x0C)
      case UInt8(ascii: "n"): text.append(0x0A)
      case UInt8(ascii: "r"): text.append(0x0D)
      case UInt8(ascii: "t"): text.append(0x09)
      case UInt8(ascii: "v"): text.append(0x0B)
      case UInt8(ascii: "0")...UInt8(ascii: "7"):
        var value = UInt32(escaped - UInt8(ascii: "0"))
        for _ in 0..<2 {
          guard offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[offset]) else {
            break
          }
          value = value * 8 + UInt32(bytes[offset] - UInt8(ascii: "0"))
          offset += 1
        }
        // Octal escapes above 0x7F name NeXTSTEP-encoded characters; Latin-1 is the same for letters.
        append(scalar: Unicode.Scalar(UInt8(truncatingIfNeeded: value)), to: &text)
      case UInt8(ascii: "U"), UInt8(ascii: "u"):
        var value: UInt32 = 0
        var digits = 0
        while digits < 4, offset < bytes.count, let digit = Self.hexValue(bytes[offset]) {
          value = value * 16 + UInt32(digit)
          offset += 1
          digits += 1
        }
        guard digits > 0 else { throw error("\\U must be followed by hex digits") }
        append(scalar: Unicode.Scalar(value) ?? "\u{FFFD}", to: &text)
      default:
        text.append(escaped)
      }
    }
    throw error("the file ends inside a quoted string; the closing quote is missing")
  }

  private func append(scalar: Unicode.Scalar, to text: inout [UInt8]) {
    text.append(contentsOf: Array(String(Character(scalar)).utf8))
  }

  private static func isUnquoted(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    case UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: ":"),
      UInt8(ascii: "."), UInt8(ascii: "-"):
      true
    default: false
    }
  }

  private mutating func readUnquoted() -> String? {
    let start = offset
    while offset < bytes.count, Self.isUnquoted(bytes[offset]) { offset += 1 }
    return offset > start ? String(decoding: bytes[start..<offset], as: UTF8.self) : nil
  }

  /// Skips white space and comments.
  private mutating func skipBlanks() throws(PropertyListError) {
    while offset < bytes.count {
      let byte = bytes[offset]
      if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0B || byte == 0x0C {
        offset += 1
      } else if byte == UInt8(ascii: "/"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "/") {
        while offset < bytes.count, bytes[offset] != 0x0A, bytes[offset] != 0x0D { offset += 1 }
      } else if byte == UInt8(ascii: "/"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "*") {
        let start = offset
        offset += 2
        while offset + 1 < bytes.count,
          !(bytes[offset] == UInt8(ascii: "*") && bytes[offset + 1] == UInt8(ascii: "/"))
        {
          offset += 1
        }
        guard offset + 1 < bytes.count else {
          offset = start
          throw error("a /* comment is never closed")
        }
        offset += 2
      } else {
        return
      }
    }
  }
}
